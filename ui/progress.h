/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_UI_PROGRESS_H
#define PRF_UI_PROGRESS_H
/*
 * Progress of a long operation (the session reading a perf.data file).
 *
 * One progress at a time (the UI has one screen). Where it is drawn:
 *  - in the TUI, when ui/tui has registered its drawing ops (a centred box
 *    with the title and a bar, as perf report shows while it processes);
 *  - else on stderr as one "\r"-rewritten line, when stderr is a terminal;
 *  - else nowhere (stderr redirected to a file or a pipe stays clean).
 *
 * Cheap: ui_progress__update() is meant to be called once per record; it
 * compares one integer in the common case and redraws at most about 20
 * times a second (every 50 ms of CLOCK_MONOTONIC, checked only after each
 * 1/256 of the total has passed). The first draw comes 50 ms after
 * __init, except in the TUI for a total of 4 MB or more: its box is drawn
 * at 0% by __init (the screen is blank until then).
 */
#include <stdbool.h>
#include <stdint.h>

/* Drawing back end (the TUI registers one; NULL: stderr or silent). */
struct ui_progress_ops {
	/* draw: done of total bytes, title as given to __init */
	void (*update)(uint64_t done, uint64_t total, const char *title);
	/* remove the bar */
	void (*finish)(void);
};

/* Register (or with NULL, remove) the drawing back end. Not owned. */
void ui_progress__set_ops(const struct ui_progress_ops *ops);

/*
 * Start a progress of total bytes (0: unknown size, nothing is shown)
 * titled title (copied, may be NULL). Decides the back end now: the
 * registered ops, else stderr when isatty(2), else silent.
 */
void ui_progress__init(uint64_t total, const char *title);
/* bytes: how much of the total is done so far (absolute, not a delta). */
void ui_progress__update(uint64_t bytes);
/* End the progress: erases the stderr line or the TUI box. Idempotent. */
void ui_progress__finish(void);
/*
 * A perf_session's progress callback (util/session/session.h,
 * perf_session.progress): __init with total and the title "Processing
 * events..." at done 0, __update as reading goes, __finish at end. For
 * the read-side commands but report, which draws its own.
 */
void ui_progress__reading(uint64_t done, uint64_t total, bool end);
/* Number of times the bar was drawn since __init (for tests). */
unsigned long ui_progress__nr_draws(void);

#endif

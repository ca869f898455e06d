/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_UI_TUI_TUI_H
#define PRF_UI_TUI_TUI_H
/*
 * The interactive `prf report` browser (slang), as Linux perf 6.1's
 * `perf report` TUI behaves (tools/perf/Documentation/perf-report.txt,
 * "--tui", and the key help the browser shows): one row per hist entry
 * with the stdio report's columns, callchains folded under the entries,
 * zoom into thread/DSO, symbol filter, an action menu on Enter, an event
 * menu when the file has several events.
 *
 * It browses the hists the stdio report prints (util/analysis/hist.h,
 * after hists__output_resort()) and their callchain tries
 * (callchain_store__display()); it keeps no model of its own, only fold
 * state and the list of visible rows.
 *
 * Terminal: tui__init() switches the screen (alternate screen, colours);
 * the keyboard is put in raw mode only while a browser runs, so Ctrl-C
 * while the file is still processed is an ordinary SIGINT. The terminal
 * is restored by tui__exit(), which also runs from atexit() and from the
 * handlers of SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGABRT and
 * SIGBUS (which then re-raise the signal). SIGWINCH redraws.
 *
 * Sizes: made for 80x24 and up (the key help fits there whole; smaller
 * terminals scroll it). PRF_TUI_TRACE=file appends a time-stamped line
 * per milestone (progress drawn, first screen, ...) for tests; see
 * ui/tui/helpers.h.
 */
#include <stdbool.h>
#include <stddef.h>

struct hists;
struct hist_entry;
struct sort_order;
struct callchain_param;

/*
 * Can the TUI start here (nothing drawn yet)? 0, -ENOTTY when stdin or
 * stdout is not a terminal, TERM is unusable or the screen is smaller
 * than 20x5, -ENOENT when libslang cannot be loaded (with a warning
 * saying so: the caller prints --stdio output instead).
 */
int tui__usable(void);
/*
 * Start the screen: 0, tui__usable()'s errors, -EIO when slang fails.
 * Registers the TUI drawing of ui/progress.h so processing shows a
 * progress box.
 */
int tui__init(void);
/* Restore the terminal (normal screen, cooked tty, cursor). Idempotent,
 * async-signal tolerant (called from the signal handlers). */
void tui__exit(void);
/* Whether tui__init() succeeded and tui__exit() has not run. */
bool tui__active(void);

/* One event of the file: its hists (resorted) and name. */
struct tui_event {
	struct hists *hists;
	const char *name;		/* evsel name, "cpu-clock:ppp" */
	unsigned long long nr_lost;	/* lost samples, shown in the menu */
};

/*
 * Hists that change while they are browsed (prf top): another thread adds
 * samples under lock()/unlock(), and the browser holds the lock except
 * while it waits for a key. Every refresh_ms (unless frozen with 'f') it
 * calls refresh(), which re-sorts the hists (hists->sorted is new), then
 * shows the new entries with the same folds, zoom, filter and selected
 * entry; 'z' calls zero() (the entries start again) and refreshes.
 * refresh() returns 0, 1 when the live session has ended (the browser
 * returns as on 'q') or -errno. title() writes the title line's start
 * (the zoom is added after it). All called with the lock held.
 */
struct tui_live {
	unsigned int refresh_ms;
	int (*refresh)(void *arg);
	void (*zero)(void *arg);
	void (*title)(void *arg, char *buf, size_t size);
	void (*lock)(void *arg);
	void (*unlock)(void *arg);
	struct hists *const *shown;	/* the hists refresh() left to show */
	/* 'a': annotate the entry's symbol (a browser of its own, until the
	 * user leaves it); 0, -ENOENT when there is nothing to annotate, or
	 * -errno. NULL: no 'a'. */
	int (*annotate)(void *arg, struct hist_entry *he);
	void *arg;
};

struct tui_report_opts {
	const struct sort_order *so;	/* columns (widths are recomputed per view) */
	const struct tui_live *live;	/* NULL: a file's hists, fixed */
	const struct callchain_param *cc;
	bool use_callchain;		/* fold signs and callchains under entries */
	double min_percent;		/* --percent-limit: entries below are hidden */
	/* 'a' on a file's hists: as tui_live.annotate, with annotate_arg;
	 * NULL: no 'a' */
	int (*annotate)(void *arg, struct hist_entry *he);
	void *annotate_arg;
};

/*
 * Run the browser until the user quits. With several events an event
 * menu comes first ("Available samples"), as in perf. Returns 0 when the
 * user quit, -ENOMEM, or -EIO when the terminal failed (EOF on input).
 * Needs tui__init(); does not call tui__exit().
 */
int tui__browse_report(const struct tui_event *events, int nr_events,
		       const struct tui_report_opts *opts);

#endif

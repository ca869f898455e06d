// SPDX-License-Identifier: GPL-2.0
/*
 * Progress bar (see progress.h). The state is one file-level object: the
 * terminal shows one progress at a time, whoever started it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"

#define PROGRESS_INTERVAL_NS	50000000ULL	/* at most ~20 draws a second */
#define PROGRESS_EARLY_BYTES	(4ULL << 20)	/* TUI: box at 0% from this size */

enum progress_backend {
	PROGRESS_OFF,
	PROGRESS_STDERR,
	PROGRESS_OPS,
};

static struct ui_progress {
	const struct ui_progress_ops *ops;	/* registered back end */
	enum progress_backend backend;
	uint64_t total, step, next;		/* bytes */
	uint64_t last_ns;
	unsigned long nr_draws;
	bool drawn;
	char title[128];
} progress = {
	.backend = PROGRESS_OFF,
	.next = UINT64_MAX,	/* no __init yet: updates do nothing */
};

void ui_progress__set_ops(const struct ui_progress_ops *ops)
{
	progress.ops = ops;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void ui_progress__init(uint64_t total, const char *title)
{
	progress.total = total;
	progress.step = total / 256 ? total / 256 : 1;
	progress.next = 0;
	/* the first draw comes after one interval: small files show nothing */
	progress.last_ns = now_ns();
	progress.nr_draws = 0;
	progress.drawn = false;
	snprintf(progress.title, sizeof(progress.title), "%s", title ? title : "");
	if (!total)
		progress.backend = PROGRESS_OFF;
	else if (progress.ops)
		progress.backend = PROGRESS_OPS;
	else if (isatty(STDERR_FILENO))
		progress.backend = PROGRESS_STDERR;
	else
		progress.backend = PROGRESS_OFF;
	if (progress.backend == PROGRESS_OFF)
		progress.next = UINT64_MAX;
	/*
	 * The TUI has a blank screen until the first draw, and the first
	 * samples can take long (symbol tables loaded on first use): a file
	 * of 4 MB or more shows its box at 0% right away. Small files and the
	 * stderr line keep the delay, so quick reports do not flash.
	 */
	if (progress.backend == PROGRESS_OPS && total >= PROGRESS_EARLY_BYTES) {
		progress.drawn = true;
		progress.nr_draws++;
		progress.ops->update(0, progress.total, progress.title);
	}
}

static void stderr_draw(uint64_t done)
{
	int width = 40, fill = (int)(done * (uint64_t)width / progress.total);
	char bar[64];

	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '.', (size_t)(width - fill));
	bar[width] = '\0';
	fprintf(stderr, "\r%s [%s] %3d%%", progress.title, bar,
		(int)(done * 100 / progress.total));
	fflush(stderr);
}

void ui_progress__update(uint64_t bytes)
{
	uint64_t t;

	if (bytes < progress.next || progress.backend == PROGRESS_OFF)
		return;
	progress.next = bytes + progress.step;
	if (bytes > progress.total)
		bytes = progress.total;
	t = now_ns();
	if (t - progress.last_ns < PROGRESS_INTERVAL_NS)
		return;
	progress.last_ns = t;
	progress.drawn = true;
	progress.nr_draws++;
	if (progress.backend == PROGRESS_OPS)
		progress.ops->update(bytes, progress.total, progress.title);
	else
		stderr_draw(bytes);
}

void ui_progress__finish(void)
{
	if (progress.drawn) {
		if (progress.backend == PROGRESS_OPS) {
			if (progress.ops && progress.ops->finish)
				progress.ops->finish();
		} else if (progress.backend == PROGRESS_STDERR) {
			fputs("\r\033[K", stderr);
			fflush(stderr);
		}
	}
	progress.drawn = false;
	progress.backend = PROGRESS_OFF;
	progress.next = UINT64_MAX;
}

void ui_progress__reading(uint64_t done, uint64_t total, bool end)
{
	if (end)
		ui_progress__finish();
	else if (!done)
		ui_progress__init(total, "Processing events...");
	else
		ui_progress__update(done);
}

unsigned long ui_progress__nr_draws(void)
{
	return progress.nr_draws;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ui/progress: back end choice, rate limit, erase on finish. The drawing
 * back end is replaced by a counter, so no terminal is needed.
 */
#include <string.h>
#include <time.h>
#include "tests.h"
#include "../ui/progress.h"

static struct {
	int updates, finishes;
	uint64_t done, total;
	char title[64];
} seen;

static void fake_update(uint64_t done, uint64_t total, const char *title)
{
	seen.updates++;
	seen.done = done;
	seen.total = total;
	strncpy(seen.title, title, sizeof(seen.title) - 1);
}

static void fake_finish(void)
{
	seen.finishes++;
}

static const struct ui_progress_ops fake_ops = {
	.update = fake_update,
	.finish = fake_finish,
};

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static int test__no_init(void)
{
	memset(&seen, 0, sizeof(seen));
	ui_progress__set_ops(&fake_ops);
	/* updates without __init (a pipe input) must neither draw nor crash */
	sleep_ms(60);
	ui_progress__update(0);
	ui_progress__update(1 << 30);
	ui_progress__finish();
	ui_progress__update(1 << 30);
	ui_progress__set_ops(NULL);
	ui_progress__update(1 << 30);
	TEST_ASSERT_EQUAL("no draw without init", seen.updates, 0);
	return TEST_OK;
}

static int test__ops(void)
{
	memset(&seen, 0, sizeof(seen));
	ui_progress__set_ops(&fake_ops);
	ui_progress__init(1 << 20, "Processing");
	/* a burst of updates right after the start draws nothing */
	for (uint64_t b = 0; b < 1000; b++)
		ui_progress__update(b);
	TEST_ASSERT_EQUAL("no draw before one interval", seen.updates, 0);
	sleep_ms(120);
	ui_progress__update(1 << 19);
	TEST_ASSERT_EQUAL("one draw after the interval", seen.updates, 1);
	TEST_ASSERT_EQUAL("done passed on", seen.done, 1 << 19);
	TEST_ASSERT_EQUAL("total passed on", seen.total, 1 << 20);
	TEST_ASSERT_VAL("title passed on", !strcmp(seen.title, "Processing"));
	/* below the next step: not even a clock read, no draw */
	sleep_ms(120);
	ui_progress__update((1 << 19) + 1);
	TEST_ASSERT_EQUAL("small advance is not drawn", seen.updates, 1);
	/* past the end is clamped */
	ui_progress__update(1 << 21);
	TEST_ASSERT_EQUAL("drawn again", seen.updates, 2);
	TEST_ASSERT_EQUAL("clamped to total", seen.done, 1 << 20);
	TEST_ASSERT_EQUAL("draw count", ui_progress__nr_draws(), 2);
	ui_progress__finish();
	TEST_ASSERT_EQUAL("finish erases once", seen.finishes, 1);
	ui_progress__finish();
	TEST_ASSERT_EQUAL("finish is idempotent", seen.finishes, 1);
	/* after finish, updates draw nothing */
	sleep_ms(60);
	ui_progress__update(1 << 20);
	TEST_ASSERT_EQUAL("no draw after finish", seen.updates, 2);
	ui_progress__set_ops(NULL);
	return TEST_OK;
}

static int test__unknown_size(void)
{
	memset(&seen, 0, sizeof(seen));
	ui_progress__set_ops(&fake_ops);
	ui_progress__init(0, "pipe");
	sleep_ms(60);
	ui_progress__update(12345);
	ui_progress__finish();
	ui_progress__set_ops(NULL);
	TEST_ASSERT_EQUAL("size 0: nothing drawn", seen.updates, 0);
	TEST_ASSERT_EQUAL("size 0: nothing erased", seen.finishes, 0);
	return TEST_OK;
}

/* serial: a burst of updates must fall inside one draw interval (50 ms),
 * which a test preempted beside others can overrun */
DEFINE_SUITE_SERIAL(tui_progress, "progress bar: back end, rate limit, finish",
	     TEST_CASE(no_init, "updates before any init do nothing"),
	     TEST_CASE(ops, "draws at most once an interval, clamps, erases once"),
	     TEST_CASE(unknown_size, "unknown size (pipe) shows nothing"));

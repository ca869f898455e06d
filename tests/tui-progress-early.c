// SPDX-License-Identifier: GPL-2.0
/*
 * ui/progress: the TUI back end draws its box at 0% as soon as a large
 * file (4 MB or more) starts, then keeps the rate limit; smaller files
 * wait one interval as before. The back end is a counter, no terminal.
 */
#include <string.h>
#include "tests.h"
#include "../ui/progress.h"

static struct {
	int updates, finishes;
	uint64_t done, total;
} early;

static void early_update(uint64_t done, uint64_t total, const char *title)
{
	(void)title;
	early.updates++;
	early.done = done;
	early.total = total;
}

static void early_finish(void)
{
	early.finishes++;
}

static const struct ui_progress_ops early_ops = {
	.update = early_update,
	.finish = early_finish,
};

static int test__large(void)
{
	memset(&early, 0, sizeof(early));
	ui_progress__set_ops(&early_ops);
	ui_progress__init(4ULL << 20, "Processing");
	TEST_ASSERT_EQUAL("box drawn by init", early.updates, 1);
	TEST_ASSERT_EQUAL("at 0%", early.done, 0);
	TEST_ASSERT_EQUAL("of the total", early.total, 4ULL << 20);
	TEST_ASSERT_EQUAL("counted", ui_progress__nr_draws(), 1);
	/* a burst right after: still one draw an interval */
	for (uint64_t b = 0; b < (4ULL << 20); b += 4096)
		ui_progress__update(b);
	TEST_ASSERT_VAL("rate limit kept after the early draw", early.updates <= 2);
	ui_progress__finish();
	TEST_ASSERT_EQUAL("the early box is erased", early.finishes, 1);
	ui_progress__set_ops(NULL);
	return TEST_OK;
}

static int test__small(void)
{
	memset(&early, 0, sizeof(early));
	ui_progress__set_ops(&early_ops);
	ui_progress__init((4ULL << 20) - 1, "Processing");
	TEST_ASSERT_EQUAL("small file: nothing drawn by init", early.updates, 0);
	ui_progress__finish();
	TEST_ASSERT_EQUAL("small file: nothing to erase", early.finishes, 0);
	ui_progress__set_ops(NULL);
	/* without the TUI back end (stderr is not a tty here, or is): no early draw */
	ui_progress__init(64ULL << 20, "Processing");
	TEST_ASSERT_EQUAL("no back end: no early draw", ui_progress__nr_draws(), 0);
	ui_progress__finish();
	return TEST_OK;
}

/* serial: the burst after the early draw must stay within two draw
 * intervals, which a test preempted beside others can overrun */
DEFINE_SUITE_SERIAL(tui_progress_early, "progress box at 0% at once for large files in the TUI",
	     TEST_CASE(large, "4 MB or more: drawn by init, then rate limited"),
	     TEST_CASE(small, "smaller files and stderr wait one interval"));

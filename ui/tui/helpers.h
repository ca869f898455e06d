/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_UI_TUI_HELPERS_H
#define PRF_UI_TUI_HELPERS_H
/*
 * Private building blocks of the TUI (ui/tui/setup.c, ui/tui/widgets.c):
 * colours, keys, the title/help lines and modal widgets drawn the way
 * perf's browsers draw them (boxes with a title, "ENTER: OK, ESC: Cancel").
 */
#include <stdbool.h>
#include <stddef.h>
#include "slang-dl.h"	/* slang.h, its calls through the loaded library */

/* colour objects (SLsmg_set_color) */
enum tui_color {
	TUI_NORMAL = 0,
	TUI_TOP,		/* percent >= 5%: red */
	TUI_MEDIUM,		/* percent >= 0.5%: green */
	TUI_SELECTED,		/* current row: black on yellow */
	TUI_ROOT,		/* title and column headers: white on blue */
	TUI_HELPLINE,		/* bottom line */
	TUI_FRAME,		/* boxes */
};

/* perf's thresholds (MIN_RED, MIN_GREEN in tools/perf/util/color.h) */
#define TUI_MIN_RED	5.0
#define TUI_MIN_GREEN	0.5

/* keys beyond slang's SL_KEY_* */
#define K_ESC		27
#define K_ENTER		'\r'
#define K_TAB		'\t'
#define K_UNTAB		0x3000	/* shift-TAB */
#define K_RESIZE	0x3001	/* SIGWINCH: redraw */
#define K_ERROR		0x3002	/* input failed (EOF) */
#define K_CTRL_C	3
#define K_TIMEOUT	0x3003	/* tui__getkey_timeout(): no key in time */

/* Read one key, waiting; K_RESIZE after a SIGWINCH (screen reinitialised). */
int tui__getkey(void);
/* tui__getkey() waiting at most ms milliseconds (< 0: no limit);
 * K_TIMEOUT when no key came. */
int tui__getkey_timeout(int ms);
/* While any key is waited for (the browser's and every widget's), call
 * unlock(arg) before and lock(arg) after: live hists that another thread
 * fills are left to it meanwhile. NULLs: no such calls. */
void tui__set_wait_lock(void (*lock)(void *arg), void (*unlock)(void *arg), void *arg);
/* Put the keyboard in raw mode (once); 0 or -EIO. */
int tui__init_tty(void);
int tui__rows(void);
int tui__cols(void);

/* Text at (row, col) in colour, padded/cut to width columns. */
void tui__write(int row, int col, int color, const char *s, int width);
/* Bottom line: msg (NULL: the default "Press '?' ..."). */
void tui__helpline(const char *msg);
/* Colour of a percentage as perf picks it. */
int tui__percent_color(double percent);

/*
 * Debug trace for tests: when PRF_TUI_TRACE names a file at tui__init(),
 * one line per event is appended to it, "<CLOCK_REALTIME ns> <event>":
 *   init COLSxROWS      the screen is set up
 *   progress DONE TOTAL the progress box is drawn (bytes of the file)
 *   progress-end        the box is removed (processing done)
 *   browse              the browser starts
 *   screen ROWS CPU     the first frame of a hists browser is on the
 *                       terminal; ROWS rows in its list, CPU ns of
 *                       CLOCK_PROCESS_CPUTIME_ID spent so far
 *   help FIRST LAST     the help window shows lines FIRST..LAST (1-based)
 *   wait                a key is awaited with no input pending: what the
 *                       keys read so far asked for is on the screen
 *   key KEY             a key is read (KEY: its code, K_* or a char)
 *   exit                the terminal is given back (tui__exit())
 * No-op otherwise; write errors are ignored.
 */
void tui__trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Modal widgets; each redraws what it covers only, the caller redraws. */
/* Box with text lines (split at '\n'), waits for any key. When the lines
 * do not fit the terminal (the helpline stays visible), the box shows as
 * many as fit, "FIRST-LAST/N" on its top border, and UP/DOWN/PGUP/PGDN/
 * SPACE/HOME/END scroll; any other key closes it. */
void tui__help_window(const char *text);
/* Yes/no question: true on Enter or 'y'. */
bool tui__dialog_yesno(const char *question);
/* Text input in a box titled title with text above the field; buf holds
 * the initial value and receives the answer. 0 on Enter, -1 on ESC. */
int tui__input_window(const char *title, const char *text, char *buf, size_t size);
/*
 * Full-screen menu of nr items (title on the first line, may be NULL),
 * help on the bottom line. Returns the index chosen with Enter or Right;
 * -1 on ESC or Left, -2 on TAB, -3 on shift-TAB, -4 when input failed,
 * -5 on q or Ctrl-C. *selected (may be NULL) is the start row and gets
 * the last one.
 */
int tui__menu(const char *title, char *const *items, int nr, const char *help, int *selected);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * TUI setup and teardown (see tui.h): slang screen, colours, keys,
 * signal handlers, and the progress box of ui/progress.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tui.h"
#include "helpers.h"
#include "../progress.h"
#include "../../util/lib/config.h"
#include "../../util/lib/debug.h"
#include "../../util/lib/tunables.h"

/* The terminal is one per process: so is its state. */
static volatile sig_atomic_t tui_screen_on, tui_tty_on, tui_winch;
static bool tui_atexit_done;
static int tui_trace_fd = -1;

/* ---- debug trace (PRF_TUI_TRACE=path, see helpers.h) ---- */

static void tui__trace_open(void)
{
	const char *path = tunable__str(TUNABLE_TUI_TRACE);

	if (tui_trace_fd >= 0 || !path || !*path)
		return;
	tui_trace_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

void tui__trace(const char *fmt, ...)
{
	struct timespec ts;
	char buf[256];
	va_list ap;
	int n, m;

	if (tui_trace_fd < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	n = snprintf(buf, sizeof(buf), "%llu ", (unsigned long long)ts.tv_sec * 1000000000ULL +
		     (unsigned long long)ts.tv_nsec);
	va_start(ap, fmt);
	m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += m < (int)(sizeof(buf) - (size_t)n - 1) ? m : (int)(sizeof(buf) - (size_t)n - 2);
	buf[n++] = '\n';
	if (write(tui_trace_fd, buf, (size_t)n) < 0)
		return;
}

static void tui__signal(int sig)
{
	tui__exit();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void tui__sigwinch(int sig)
{
	(void)sig;
	tui_winch = 1;
}

int tui__rows(void)
{
	return SLtt_Screen_Rows;
}

int tui__cols(void)
{
	return SLtt_Screen_Cols;
}

void tui__write(int row, int col, int color, const char *s, int width)
{
	if (width <= 0)
		return;
	SLsmg_gotorc(row, col);
	SLsmg_set_color(color);
	SLsmg_write_nstring((char *)s, (unsigned int)width);
}

void tui__helpline(const char *msg)
{
	tui__write(SLtt_Screen_Rows - 1, 0, TUI_HELPLINE,
		   msg ? msg : "Press '?' for help on key bindings", SLtt_Screen_Cols);
}

int tui__percent_color(double percent)
{
	if (percent >= TUI_MIN_RED)
		return TUI_TOP;
	if (percent >= TUI_MIN_GREEN)
		return TUI_MEDIUM;
	return TUI_NORMAL;
}

/* ---- progress box: perf draws it centred with the title and a bar ---- */

static void tui_progress__update(uint64_t done, uint64_t total, const char *title)
{
	int rows = SLtt_Screen_Rows, cols = SLtt_Screen_Cols;
	int w = cols - 8, r = rows / 2 - 1, bar;

	if (!tui_screen_on || w < 10 || rows < 5)
		return;
	if (tui_winch) {
		tui_winch = 0;
		SLtt_get_screen_size();
		SLsmg_reinit_smg();
		SLsmg_cls();
		return;
	}
	tui__trace("progress %" PRIu64 " %" PRIu64, done, total);
	SLsmg_set_color(TUI_FRAME);
	SLsmg_fill_region(r, 4, 3, (unsigned int)w, ' ');
	SLsmg_draw_box(r, 4, 3, (unsigned int)w);
	SLsmg_gotorc(r, 5);
	SLsmg_write_string((char *)title);
	bar = (int)((double)(w - 2) * (double)done / (double)total);
	SLsmg_set_color(TUI_SELECTED);
	SLsmg_fill_region(r + 1, 5, 1, (unsigned int)bar, ' ');
	SLsmg_refresh();
}

static void tui_progress__finish(void)
{
	if (!tui_screen_on)
		return;
	tui__trace("progress-end");
	SLsmg_set_color(TUI_NORMAL);
	SLsmg_cls();
	SLsmg_refresh();
}

static const struct ui_progress_ops tui_progress_ops = {
	.update = tui_progress__update,
	.finish = tui_progress__finish,
};

/* ---- setup ---- */

/* s without its leading and trailing blanks (s is changed). */
static char *trim_blanks(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

/* Colour id as fg, bg, or as the key colors.NAME says ("fg, bg" in
 * slang's colour names, perf-config(1)); name NULL: not configurable. */
static void tui__color(int id, const char *name, const char *fg, const char *bg)
{
	char key[64], *v = NULL, *comma;
	const char *conf = NULL;

	if (name) {
		snprintf(key, sizeof(key), "colors.%s", name);
		conf = config__get(key);
	}
	if (conf && (v = strdup(conf)) && (comma = strchr(v, ','))) {
		*comma = '\0';
		fg = trim_blanks(v);
		bg = trim_blanks(comma + 1);
	}
	SLtt_set_color(id, NULL, (char *)fg, (char *)bg);
	free(v);
}

static void tui__colors(void)
{
	tui__color(TUI_NORMAL, "normal", "default", "default");
	tui__color(TUI_TOP, "top", "red", "default");
	tui__color(TUI_MEDIUM, "medium", "green", "default");
	tui__color(TUI_SELECTED, "selected", "black", "yellow");
	tui__color(TUI_ROOT, "root", "white", "blue");
	tui__color(TUI_HELPLINE, NULL, "lightgray", "black");
	tui__color(TUI_FRAME, NULL, "default", "default");
}

int tui__usable(void)
{
	static int warned;
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || !term || !*term ||
	    !strcmp(term, "dumb"))
		return -ENOTTY;
	if (slang_dl__load()) {
		if (!warned++)
			pr_warning("The TUI needs libslang (libslang.so.2), which is not installed: printing --stdio output\n");
		return -ENOENT;
	}
	SLutf8_enable(-1);	/* UTF-8 when the locale says so: box lines */
	SLtt_get_terminfo();
	SLtt_get_screen_size();
	if (SLtt_Screen_Rows < 5 || SLtt_Screen_Cols < 20)
		return -ENOTTY;
	return 0;
}

int tui__init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGABRT, SIGBUS };
	struct sigaction sa;
	int err;

	if (tui_screen_on)
		return 0;
	if ((err = tui__usable()))	/* also reads terminfo and the size */
		return err;
	if (SLkp_init() < 0)
		return -EIO;
	SLkp_define_keysym((char *)"\033[Z", K_UNTAB);
	if (SLsmg_init_smg() < 0)
		return -EIO;
	tui_screen_on = 1;
	tui__trace_open();
	tui__trace("init %dx%d", SLtt_Screen_Cols, SLtt_Screen_Rows);
	tui__colors();
	SLtt_set_cursor_visibility(0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tui__signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tui__sigwinch;
	sigaction(SIGWINCH, &sa, NULL);
	if (!tui_atexit_done) {
		atexit(tui__exit);
		tui_atexit_done = true;
	}
	ui_progress__set_ops(&tui_progress_ops);
	SLsmg_cls();
	SLsmg_refresh();
	return 0;
}

int tui__init_tty(void)
{
	if (tui_tty_on)
		return 0;
	/* abort char 0: Ctrl-C reaches the browser as a key, as in perf */
	if (SLang_init_tty(0, 0, 0) < 0)
		return -EIO;
	tui_tty_on = 1;
	return 0;
}

bool tui__active(void)
{
	return tui_screen_on;
}

void tui__exit(void)
{
	if (tui_screen_on) {
		tui_screen_on = 0;
		ui_progress__set_ops(NULL);
		SLtt_set_cursor_visibility(1);
		SLsmg_set_color(TUI_NORMAL);
		SLsmg_gotorc(SLtt_Screen_Rows - 1, 0);
		SLsmg_refresh();
		SLsmg_reset_smg();
		signal(SIGWINCH, SIG_DFL);
	}
	if (tui_tty_on) {
		tui_tty_on = 0;
		SLang_reset_tty();
		tui__trace("exit");
	}
}

static void (*wait_unlock)(void *arg), (*wait_lock)(void *arg);
static void *wait_arg;

void tui__set_wait_lock(void (*lock)(void *arg), void (*unlock)(void *arg), void *arg)
{
	wait_lock = lock;
	wait_unlock = unlock;
	wait_arg = arg;
}

int tui__getkey(void)
{
	return tui__getkey_timeout(-1);
}

static int getkey_timeout(int ms);

int tui__getkey_timeout(int ms)
{
	int key;

	if (!wait_unlock)
		return getkey_timeout(ms);
	wait_unlock(wait_arg);
	key = getkey_timeout(ms);
	wait_lock(wait_arg);
	return key;
}

static int read_key(int ms);

/* read_key(), with the trace's "wait" before (nothing left to do: the
 * screen is drawn, no input pending) and "key" after. */
static int getkey_timeout(int ms)
{
	int key;

	if (tui_trace_fd >= 0 && ms != 0 && SLang_input_pending(0) <= 0)
		tui__trace("wait");
	key = read_key(ms);
	if (key != K_TIMEOUT)
		tui__trace("key %d", key);
	return key;
}

static int read_key(int ms)
{
	int key;

	for (;;) {
		int pending, step = ms < 0 || ms > 200 ? 200 : ms;

		if (tui_winch) {
			tui_winch = 0;
			SLtt_get_screen_size();
			SLsmg_reinit_smg();
			return K_RESIZE;
		}
		if (ms == 0)
			return K_TIMEOUT;
		pending = SLang_input_pending(-step);	/* ms */
		if (pending > 0)
			break;
		if (pending < 0)
			return K_ERROR;
		if (ms > 0)
			ms -= step;
	}
	key = (int)SLang_getkey();
	if (key == (int)SLANG_GETKEY_ERROR)
		return K_ERROR;
	if (key == K_ESC) {
		/* a lone ESC, or the start of an escape sequence? */
		if (SLang_input_pending(-40) <= 0)
			return K_ESC;
	}
	SLang_ungetkey((unsigned char)key);
	key = (int)SLkp_getkey();
	if (key == SL_KEY_ERR)
		return 0;	/* unknown sequence: ignored */
	if (key == SL_KEY_ENTER || key == '\n')
		return K_ENTER;
	return key;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Modal TUI widgets (see helpers.h): help window, yes/no dialog, text
 * input and the full-screen menu, laid out as perf's browsers lay them out.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "helpers.h"

/* Centred box of h x w; returns its top row and left column. */
static void box(int h, int w, const char *title, int *top, int *left)
{
	int rows = tui__rows(), cols = tui__cols();

	if (w > cols)
		w = cols;
	if (h > rows)
		h = rows;
	*top = (rows - h) / 2;
	*left = (cols - w) / 2;
	SLsmg_set_color(TUI_FRAME);
	SLsmg_fill_region(*top, *left, (unsigned int)h, (unsigned int)w, ' ');
	SLsmg_draw_box(*top, *left, (unsigned int)h, (unsigned int)w);
	if (title) {
		SLsmg_gotorc(*top, *left + 2);
		SLsmg_write_nstring((char *)title, (unsigned int)(w - 3 < (int)strlen(title) ?
							      w - 3 : (int)strlen(title)));
	}
}

/* Lines of text: count and the longest. */
static int text_size(const char *text, int *longest)
{
	int n = 1, len = 0;

	*longest = 0;
	for (const char *p = text; ; p++) {
		if (*p == '\n' || !*p) {
			if (len > *longest)
				*longest = len;
			len = 0;
			if (!*p)
				break;
			n++;
		} else {
			len++;
		}
	}
	return n;
}

/* Lines [first, first + nr) of text from (row, col), cut to width. */
static void text_draw_lines(const char *text, int first, int nr, int row, int col, int width)
{
	const char *p = text;

	for (int i = 0; *p && i < first + nr; i++) {
		size_t len = strcspn(p, "\n");

		if (i >= first) {
			SLsmg_gotorc(row++, col);
			SLsmg_write_nstring((char *)p, (unsigned int)((int)len < width ? (int)len : width));
		}
		p += len;
		if (*p)
			p++;
	}
}

static void text_draw(const char *text, int row, int col, int width)
{
	text_draw_lines(text, 0, 1 << 30, row, col, width);
}

void tui__help_window(const char *text)
{
	int longest, n = text_size(text, &longest), first = 0;

	for (;;) {
		/* the box may use every row but the helpline's */
		int shown = tui__rows() - 3, top, left, key;
		bool scroll;

		if (shown < 1)
			shown = 1;
		scroll = shown < n;
		if (!scroll)
			shown = n;
		if (first > n - shown)
			first = n - shown;
		if (first < 0)
			first = 0;
		box(shown + 2, longest + 4, NULL, &top, &left);
		text_draw_lines(text, first, shown, top + 1, left + 2, tui__cols() - left - 3);
		if (scroll) {
			int w = longest + 4 < tui__cols() ? longest + 4 : tui__cols();
			char pos[32];
			int len = snprintf(pos, sizeof(pos), " %d-%d/%d ", first + 1, first + shown, n);
			int col = left + w - len - 2;

			if (col > left) {
				SLsmg_gotorc(top, col);
				SLsmg_write_string(pos);
			}
		}
		tui__helpline(scroll ? "UP/DOWN/PGUP/PGDN/HOME/END: scroll, any other key: close" :
				       "Press any key...");
		SLsmg_refresh();
		tui__trace("help %d %d", first + 1, first + shown);
		key = tui__getkey();
		if (key == K_RESIZE)
			continue;
		if (!scroll)
			return;
		switch (key) {
		case SL_KEY_UP:
			first--;
			break;
		case SL_KEY_DOWN:
			first++;
			break;
		case SL_KEY_PPAGE:
			first -= shown;
			break;
		case SL_KEY_NPAGE:
		case ' ':
			first += shown;
			break;
		case SL_KEY_HOME:
			first = 0;
			break;
		case SL_KEY_END:
			first = n;
			break;
		default:
			return;
		}
	}
}

bool tui__dialog_yesno(const char *question)
{
	static const char keys[] = "Enter: Yes, ESC: No";
	int longest, n = text_size(question, &longest), top, left, key;

	if (longest < (int)sizeof(keys) - 1)
		longest = (int)sizeof(keys) - 1;
	for (;;) {
		box(n + 4, longest + 2, NULL, &top, &left);
		text_draw(question, top + 1, left + 1, longest);
		SLsmg_gotorc(top + n + 2, left + 1);
		SLsmg_write_string((char *)keys);
		SLsmg_refresh();
		key = tui__getkey();
		if (key == K_RESIZE)
			continue;
		/* as perf: Enter or y is yes, any other key no */
		return key == K_ENTER || key == 'y' || key == 'Y';
	}
}

int tui__input_window(const char *title, const char *text, char *buf, size_t size)
{
	int longest, n = text_size(text, &longest), top, left, key, w;
	size_t len = strlen(buf);

	if (longest < 56)
		longest = 56;
	for (;;) {
		w = longest + 4;
		box(n + 7, w, title, &top, &left);
		text_draw(text, top + 1, left + 1, w - 2);
		SLsmg_draw_box(top + n + 2, left + 2, 3, (unsigned int)(w - 4));
		SLsmg_gotorc(top + n + 3, left + 3);
		SLsmg_set_color(TUI_SELECTED);
		/* the end of the text when it is longer than the field */
		{
			int fw = w - 6;
			const char *shown = (int)len > fw - 1 ? buf + len - (size_t)(fw - 1) : buf;

			SLsmg_write_nstring((char *)shown, (unsigned int)fw);
		}
		SLsmg_set_color(TUI_FRAME);
		SLsmg_gotorc(top + n + 5, left + 1);
		SLsmg_write_string((char *)"ENTER: OK, ESC: Cancel");
		SLsmg_refresh();
		key = tui__getkey();
		if (key == K_RESIZE)
			continue;
		if (key == K_ENTER)
			return 0;
		if (key == K_ESC || key == K_ERROR || key == K_CTRL_C)
			return -1;
		if ((key == SL_KEY_BACKSPACE || key == 127 || key == 8) && len)
			buf[--len] = '\0';
		else if (key < 256 && isprint(key) && len + 1 < size) {
			buf[len++] = (char)key;
			buf[len] = '\0';
		}
	}
}

int tui__menu(const char *title, char *const *items, int nr, const char *help, int *selected)
{
	int sel = selected ? *selected : 0, top = 0;

	if (sel < 0 || sel >= nr)
		sel = 0;
	for (;;) {
		int rows = tui__rows(), cols = tui__cols(), first = 1, page = rows - 2, key;

		if (page < 1)
			page = 1;
		if (sel < top)
			top = sel;
		if (sel >= top + page)
			top = sel - page + 1;
		SLsmg_set_color(TUI_NORMAL);
		SLsmg_gotorc(0, 0);
		SLsmg_erase_eos();
		tui__write(0, 0, TUI_ROOT, title ? title : "", cols);
		for (int r = 0; r < page && top + r < nr; r++)
			tui__write(first + r, 0, top + r == sel ? TUI_SELECTED : TUI_NORMAL,
				   items[top + r], cols);
		tui__helpline(help);
		SLsmg_refresh();
		key = tui__getkey();
		switch (key) {
		case SL_KEY_UP:
			if (sel > 0)
				sel--;
			break;
		case SL_KEY_DOWN:
			if (sel + 1 < nr)
				sel++;
			break;
		case SL_KEY_PPAGE:
			sel = sel > page ? sel - page : 0;
			break;
		case SL_KEY_NPAGE:
		case ' ':
			sel = sel + page < nr ? sel + page : nr - 1;
			break;
		case SL_KEY_HOME:
			sel = 0;
			break;
		case SL_KEY_END:
			sel = nr - 1;
			break;
		case K_ENTER:
		case SL_KEY_RIGHT:
			if (selected)
				*selected = sel;
			return sel;
		case K_TAB:
			return -2;
		case K_UNTAB:
			return -3;
		case K_ERROR:
			return -4;
		case K_ESC:
		case SL_KEY_LEFT:
		case 'q':
		case K_CTRL_C:
			if (selected)
				*selected = sel;
			return key == 'q' || key == K_CTRL_C ? -5 : -1;
		default:
			break;
		}
	}
}

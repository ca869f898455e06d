// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate browser (annotate.h): the listing of annotated_sym__listing()
 * drawn row by row, source lines and addresses on demand.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annotate.h"
#include "helpers.h"
#include "../../util/analysis/annotate.h"
#include "../../util/kernel/evsel.h"
#include "../../util/model/dso.h"

struct ann_browser {
	struct annotation_set *set;
	struct annotated_sym **syms;
	size_t nr_syms;
	const struct annotate_opts *opts;
	const struct annotated_sym *as;
	struct annotate_listing l;
	size_t *rows;		/* visible rows: indexes into l.lines */
	size_t nr_rows;
	size_t *hot;		/* instruction rows by share, descending */
	size_t nr_hot;
	size_t sel, top;	/* selected row, first row shown */
	bool show_source, show_addr;
};

static const char annotate_help[] =
	"UP/DOWN/PGUP\n"
	"PGDN/SPACE    Navigate\n"
	"HOME/END      First/last line\n"
	"TAB/shift-TAB Cycle thru hottest instructions\n"
	"ENTER         Go to target (jump) / annotate callee (call)\n"
	"LEFT/RIGHT    Previous/next symbol\n"
	"s             Toggle source code view\n"
	"o             Toggle address/offset view\n"
	"q/ESC         Exit (back to the caller)";

static void browser__rows(struct ann_browser *b, size_t keep_line)
{
	size_t i;

	b->nr_rows = 0;
	b->sel = 0;
	for (i = 0; i < b->l.nr; i++) {
		if (!b->show_source && b->l.lines[i].offset < 0)
			continue;
		if (i <= keep_line || !b->nr_rows)
			b->sel = b->nr_rows;
		b->rows[b->nr_rows++] = i;
	}
}

static const struct annotate_line *browser__line(const struct ann_browser *b, size_t row)
{
	return &b->l.lines[b->rows[row]];
}

static int hot__cmp(const void *pa, const void *pb, void *arg)
{
	const struct annotate_listing *l = arg;
	double a = l->lines[*(const size_t *)pa].percent, c = l->lines[*(const size_t *)pb].percent;

	if (a != c)
		return a > c ? -1 : 1;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

/* Listing of as; 0 or its error (the browser keeps its old symbol). */
static int browser__load(struct ann_browser *b, const struct annotated_sym *as)
{
	struct annotate_listing l;
	size_t *rows, *hot, i, n = 0;
	int err = annotated_sym__listing(b->set, as, b->opts, &l);

	if (err)
		return err;
	rows = calloc(l.nr ? l.nr : 1, sizeof(*rows));
	hot = calloc(l.nr ? l.nr : 1, sizeof(*hot));
	if (!rows || !hot) {
		free(rows);
		free(hot);
		annotate_listing__exit(&l);
		return -ENOMEM;
	}
	for (i = 0; i < l.nr; i++)
		if (l.lines[i].offset >= 0 && l.lines[i].nr_samples)
			hot[n++] = i;
	qsort_r(hot, n, sizeof(*hot), hot__cmp, &l);
	if (b->rows)
		annotate_listing__exit(&b->l);
	free(b->rows);
	free(b->hot);
	b->l = l;
	b->rows = rows;
	b->hot = hot;
	b->nr_hot = n;
	b->as = as;
	browser__rows(b, n ? hot[0] : 0);	/* start on the hottest */
	return 0;
}

static void browser__draw(struct ann_browser *b)
{
	int rows = tui__rows(), cols = tui__cols(), list = rows - 2, r;
	char buf[1024];

	if (b->sel < b->top)
		b->top = b->sel;
	if (list > 0 && b->sel >= b->top + (size_t)list)
		b->top = b->sel - (size_t)list + 1;
	snprintf(buf, sizeof(buf), "Annotate %s  %s  %s (%" PRIu64 " samples, percent: %s)",
		 b->as->sym->name, b->as->dso->short_name, evsel__name(b->as->evsel),
		 b->as->nr_samples, annotate__percent_type_str(b->opts->percent_type));
	tui__write(0, 0, TUI_ROOT, buf, cols);
	for (r = 0; r < list; r++) {
		size_t row = b->top + (size_t)r;
		const struct annotate_line *al;
		int color = TUI_NORMAL;

		if (row >= b->nr_rows) {
			tui__write(r + 1, 0, TUI_NORMAL, "", cols);
			continue;
		}
		al = browser__line(b, row);
		if (al->offset < 0) {
			snprintf(buf, sizeof(buf), "        \xe2\x94\x82 %s", al->text);
		} else {
			char pct[16] = "";

			if (al->nr_samples)
				snprintf(pct, sizeof(pct), "%7.2f", al->percent);
			color = tui__percent_color(al->percent);
			if (b->show_addr)
				snprintf(buf, sizeof(buf), "%7s \xe2\x94\x82 %*" PRIx64 ":%s", pct,
					 b->l.addr_width, b->l.start + (uint64_t)al->offset, al->text);
			else
				snprintf(buf, sizeof(buf), "%7s \xe2\x94\x82 %*" PRIx64 ":%s", pct,
					 b->l.addr_width, (uint64_t)al->offset, al->text);
		}
		tui__write(r + 1, 0, row == b->sel ? TUI_SELECTED : color, buf, cols);
	}
	tui__helpline(NULL);
	SLsmg_refresh();
}

/* The row of the instruction at offset off, or nr_rows. */
static size_t browser__find_offset(const struct ann_browser *b, int64_t off)
{
	size_t r;

	for (r = 0; r < b->nr_rows; r++)
		if (browser__line(b, r)->offset == off)
			return r;
	return b->nr_rows;
}

/* The symbol of the set that a call at the selected row goes to. */
static struct annotated_sym *browser__callee(const struct ann_browser *b,
					     const struct annotate_line *al)
{
	size_t i;

	for (i = 0; i < b->nr_syms; i++) {
		struct annotated_sym *as = b->syms[i];

		if (as->dso == b->as->dso && as->evsel == b->as->evsel && as->sym->start == al->target)
			return as;
	}
	return NULL;
}

/* Next/previous (dir) hot instruction after the selected one, by share. */
static void browser__cycle_hot(struct ann_browser *b, int dir)
{
	size_t cur = b->rows[b->sel], i, pos = b->nr_hot, r;

	if (!b->nr_hot)
		return;
	for (i = 0; i < b->nr_hot; i++)
		if (b->hot[i] == cur)
			pos = i;
	if (pos == b->nr_hot)
		pos = dir > 0 ? b->nr_hot - 1 : 0;
	pos = (pos + b->nr_hot + (size_t)(long)dir) % b->nr_hot;
	for (r = 0; r < b->nr_rows; r++)
		if (b->rows[r] == b->hot[pos])
			b->sel = r;
}

static int browse_sym(struct ann_browser *b, size_t idx, int depth);

/* Returns 0 to go on, 1 to leave this symbol, 2 to quit everything,
 * 3/4 for the previous/next symbol, <0 on errors. */
static int browser__key(struct ann_browser *b, int key, int depth)
{
	size_t page = tui__rows() > 3 ? (size_t)tui__rows() - 3 : 1;
	const struct annotate_line *al = b->nr_rows ? browser__line(b, b->sel) : NULL;

	switch (key) {
	case SL_KEY_UP:
		if (b->sel)
			b->sel--;
		break;
	case SL_KEY_DOWN:
		if (b->sel + 1 < b->nr_rows)
			b->sel++;
		break;
	case SL_KEY_PPAGE:
		b->sel = b->sel > page ? b->sel - page : 0;
		break;
	case SL_KEY_NPAGE:
	case ' ':
		b->sel = b->sel + page < b->nr_rows ? b->sel + page : (b->nr_rows ? b->nr_rows - 1 : 0);
		break;
	case SL_KEY_HOME:
		b->sel = 0;
		break;
	case SL_KEY_END:
		b->sel = b->nr_rows ? b->nr_rows - 1 : 0;
		break;
	case K_TAB:
		browser__cycle_hot(b, 1);
		break;
	case K_UNTAB:
		browser__cycle_hot(b, -1);
		break;
	case 's':
		b->show_source = !b->show_source;
		browser__rows(b, b->nr_rows ? b->rows[b->sel] : 0);
		break;
	case 'o':
		b->show_addr = !b->show_addr;
		break;
	case '?':
	case 'h':
		tui__help_window(annotate_help);
		break;
	case K_ENTER:
		if (!al || al->offset < 0 || !al->has_target)
			break;
		if (al->is_jump && al->target >= b->l.start &&
		    al->target - b->l.start < b->as->len) {
			size_t r = browser__find_offset(b, (int64_t)(al->target - b->l.start));

			if (r < b->nr_rows)
				b->sel = r;
		} else if (al->is_call) {
			struct annotated_sym *callee = browser__callee(b, al);
			size_t i;

			if (!callee) {
				tui__helpline("The call target has no samples in this profile");
				SLsmg_refresh();
				tui__getkey();
				break;
			}
			for (i = 0; i < b->nr_syms; i++) {
				if (b->syms[i] == callee) {
					int err = browse_sym(b, i, depth + 1);

					if (err)
						return err;
				}
			}
		}
		break;
	case SL_KEY_LEFT:
		return depth ? 0 : 3;
	case SL_KEY_RIGHT:
		return depth ? 0 : 4;
	case 'q':
	case K_CTRL_C:
		return depth ? 1 : 2;
	case K_ESC:
		return 1;
	case K_ERROR:
		return -EIO;
	default:
		break;
	}
	return 0;
}

/* Browse syms[idx] until left. 0, 2 (quit), 3/4 (previous/next), 5 (it
 * cannot be annotated), <0. */
static int browse_sym(struct ann_browser *b, size_t idx, int depth)
{
	const struct annotated_sym *prev = b->as;
	size_t prev_sel = b->sel;
	int err = browser__load(b, b->syms[idx]), ret;

	if (err) {
		char msg[256];

		snprintf(msg, sizeof(msg), "Couldn't annotate %s: %s (press a key)",
			 b->syms[idx]->sym->name, strerror(-err));
		tui__helpline(msg);
		SLsmg_refresh();
		tui__getkey();
		return err == -ENOMEM ? err : depth ? 0 : 5;
	}
	for (;;) {
		browser__draw(b);
		ret = browser__key(b, tui__getkey(), depth);
		if (ret)
			break;
	}
	if (prev && depth) {	/* back to the caller's listing */
		if (browser__load(b, prev) == 0)
			b->sel = prev_sel < b->nr_rows ? prev_sel : 0;
	}
	return ret == 1 ? 0 : ret;
}

int tui__browse_annotate(struct annotation_set *set, struct annotated_sym **syms, size_t nr,
			 const struct annotate_opts *opts)
{
	struct ann_browser b = { .set = set, .syms = syms, .nr_syms = nr, .opts = opts,
				 .show_source = !opts->no_source, .show_addr = true };
	size_t idx = 0, failed = 0;
	int ret = 0, dir = 1;

	if (tui__init_tty())
		return -EIO;
	while (nr && failed < nr) {
		ret = browse_sym(&b, idx, 0);
		if (ret == 5) {		/* skip it, the way we were going */
			failed++;
			ret = dir > 0 ? 4 : 3;
		} else {
			failed = 0;
		}
		if (ret == 3) {
			idx = idx ? idx - 1 : nr - 1;
			dir = -1;
		} else if (ret == 4) {
			idx = idx + 1 < nr ? idx + 1 : 0;
			dir = 1;
		} else {
			break;
		}
	}
	if (b.rows)
		annotate_listing__exit(&b.l);
	free(b.rows);
	free(b.hot);
	return ret < 0 ? ret : 0;
}

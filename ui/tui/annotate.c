// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate browser (annotate.h): the listing of annotated_sym__listing()
 * drawn row by row in perf's layout (annotate_layout__line()), its
 * options (annotate.* keys) toggled by perf's keys.
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
	struct annotate_opts opts_own;	/* the caller's, p/b change the percent type */
	const struct annotate_opts *opts;
	const struct annotated_sym *as;
	struct annotate_listing l;
	struct annotate_layout lay;	/* perf's columns over l, by opts_own */
	size_t *rows;		/* visible rows: indexes into l.lines */
	size_t nr_rows;
	size_t *hot;		/* instruction rows by share, descending */
	size_t nr_hot;
	size_t sel, top;	/* selected row, first row shown */
	bool show_source;	/* s: !opts_own.hide_src_code, and source read */
	int view;		/* t: 0 percent, 1 period, 2 samples */
	char search[128];	/* the last / or ? string */
	const char *cpuid;	/* the recording's CPU, for fused jumps */
};

static const char annotate_help[] =
	"UP/DOWN/PGUP\n"
	"PGDN/SPACE    Navigate\n"
	"HOME/END      First/last line\n"
	"q/ESC/CTRL+C  Exit (back to the caller)\n\n"
	"ENTER         Go to target (jump) / annotate callee (call)\n"
	"LEFT/RIGHT    Previous/next symbol\n"
	"H             Go to hottest instruction\n"
	"TAB/shift+TAB Cycle thru hottest instructions\n"
	"j             Toggle showing jump to target arrows\n"
	"J             Toggle showing number of jump sources on targets\n"
	"n             Search next string\n"
	"o/f           Toggle showing offsets to full address\n"
	"O             Bump offset level (jump targets -> +call -> all -> cycle thru)\n"
	"s             Toggle source code view\n"
	"t             Circulate percent, total period, samples view\n"
	"/             Search string\n"
	"k             Toggle line numbers\n"
	"P             Print to [symbol_name].annotation file.\n"
	"p             Toggle percent type [local/global]\n"
	"b             Toggle percent base [period/hits]\n"
	"?             Search string backwards\n"
	"h             This help";

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
	/* equal shares: the later line first, as perf's browser picks */
	return *(const size_t *)pa > *(const size_t *)pb ? -1 : 1;
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
	if (b->rows) {
		annotate_layout__exit(&b->lay);
		annotate_listing__exit(&b->l);
	}
	for (i = 0; i < l.nr; i++)
		if (l.lines[i].offset >= 0 && l.lines[i].nr_samples)
			hot[n++] = i;
	qsort_r(hot, n, sizeof(*hot), hot__cmp, &l);
	free(b->rows);
	free(b->hot);
	b->l = l;
	/* (without memory for it, no jump-target offsets: sources NULL) */
	if (annotate_layout__init(&b->lay, &b->l, as, b->opts))
		b->lay.sources = NULL;
	b->rows = rows;
	b->hot = hot;
	b->nr_hot = n;
	b->as = as;
	browser__rows(b, n ? hot[0] : 0);	/* start on the hottest */
	return 0;
}

#define BOX_V	"\xe2\x94\x82"	/* │ */
#define BOX_DR	"\xe2\x94\x8c"	/* ┌ */
#define BOX_UR	"\xe2\x94\x94"	/* └ */
#define BOX_VR	"\xe2\x94\x9c"	/* ├ */
#define BOX_H	"\xe2\x94\x80"	/* ─ */
#define ARROW_R	"\xe2\x86\x92"	/* → */

/* How a row takes part in the selected jump's line (j): none, the jump,
 * its target, an instruction fused with the jump, a row in between. */
enum jump_part { JP_NONE, JP_JUMP, JP_TARGET, JP_FUSED, JP_BETWEEN };

/* Bytes of the UTF-8 character at s (1 for a stray byte). */
static int utf8__len(const char *s)
{
	int n = 1;

	while (s[0] && ((unsigned char)s[n] & 0xc0) == 0x80)
		n++;
	return n;
}

/*
 * Replace the display cells from col of line (len bytes, NUL-terminated,
 * one cell per UTF-8 character) with the characters of glyphs, blanks
 * added where the line is shorter. Returns the new length; the line is
 * left as it was when it would not fit in size.
 */
static int cells__overwrite(char *line, size_t size, int len, int col, const char *glyphs)
{
	char out[1024];
	int i = 0, c = 0, o = 0, g = 0, nr = 0, k;

	for (k = 0; glyphs[k]; k += utf8__len(glyphs + k))
		nr++;
	while (c < col) {		/* the cells before col, kept */
		k = i < len ? utf8__len(line + i) : 0;
		if (o + (k ? k : 1) >= (int)sizeof(out))
			return len;
		if (k) {
			memcpy(out + o, line + i, (size_t)k);
			i += k;
			o += k;
		} else {
			out[o++] = ' ';
		}
		c++;
	}
	for (; nr--; c++) {		/* over the next cells */
		k = utf8__len(glyphs + g);
		if (o + k >= (int)sizeof(out))
			return len;
		memcpy(out + o, glyphs + g, (size_t)k);
		o += k;
		g += k;
		if (i < len)
			i += utf8__len(line + i);
	}
	if (o + (len - i) >= (int)sizeof(out) || (size_t)(o + (len - i)) >= size)
		return len;
	memcpy(out + o, line + i, (size_t)(len - i));
	o += len - i;
	memcpy(line, out, (size_t)o);
	line[o] = '\0';
	return o;
}

/*
 * The row of line li as perf's browser draws it: the value column (t;
 * named on the first screen row when that row has no value), a bar, the
 * line in perf's layout (annotate_layout__line(): address or offset
 * column by o, line numbers by k, jump counts by J); part draws the
 * selected jump's line through the three columns before the
 * instruction (up: the target above).
 */
static void browser__format(const struct ann_browser *b, size_t li, bool first_row,
			    enum jump_part part, bool up, char *buf, size_t size)
{
	const struct annotate_line *al = &b->l.lines[li];
	const struct annotate_opts *o = b->opts;
	int vw = b->lay.vw, n = 0, len;
	char line[1024];
	const char *glyphs = NULL;

	if (first_row && (al->offset < 0 || !al->nr_samples))
		n = snprintf(buf, size, "%-*s", vw, o->show_total_period ? "Period" :
			     o->show_nr_samples ? "Samples" : "Percent");
	else if (al->offset < 0 || !al->nr_samples)
		n = snprintf(buf, size, "%*s", vw, "");
	else if (o->show_total_period)
		n = snprintf(buf, size, "%11" PRIu64 " ", al->period);
	else if (o->show_nr_samples)
		n = snprintf(buf, size, "%6" PRIu64 " ", al->nr_samples);
	else
		n = snprintf(buf, size, "%6.2f ", al->percent);
	if (n < 0 || (size_t)n >= size)
		return;
	if (!b->lay.sources) {
		snprintf(buf + n, size - (size_t)n, BOX_V "%s", al->text);
		return;
	}
	len = annotate_layout__line(&b->lay, li, true, line, sizeof(line), NULL);
	switch (part) {
	case JP_JUMP:
		glyphs = up ? BOX_UR BOX_H BOX_H : BOX_DR BOX_H BOX_H;
		break;
	case JP_TARGET:
		glyphs = up ? BOX_DR BOX_H ARROW_R : BOX_UR BOX_H ARROW_R;
		break;
	case JP_FUSED:
		glyphs = BOX_VR BOX_H BOX_H;
		break;
	case JP_BETWEEN:
		glyphs = BOX_V;
		break;
	default:
		break;
	}
	/* the line is drawn over whatever the row has in its column: the
	 * blank after a full address column and the two arrow columns (perf
	 * draws there also where the row's offset is printed narrower) */
	if (glyphs)
		len = cells__overwrite(line, sizeof(line), len, 1 + b->lay.aw + 1, glyphs);
	snprintf(buf + n, size - (size_t)n, BOX_V "%s", len > 0 ? line + 1 : "");
}

/* Find b->search from the row after (dir 1) or before (-1) the selected
 * one; the helpline says when there is none. */
static void browser__search(struct ann_browser *b, int dir)
{
	size_t r = b->sel;

	if (!b->search[0] || !b->nr_rows)
		return;
	for (;;) {
		if (dir > 0 ? r + 1 >= b->nr_rows : r == 0)
			break;
		r = dir > 0 ? r + 1 : r - 1;
		if (strstr(browser__line(b, r)->text, b->search)) {
			b->sel = r;
			return;
		}
	}
	tui__helpline("String not found!");
	SLsmg_refresh();
	tui__getkey();
}

/* Ask for a search string (/ and ?) and search it. */
static void browser__ask_search(struct ann_browser *b, int dir)
{
	char buf[sizeof(b->search)];

	snprintf(buf, sizeof(buf), "%s", b->search);
	if (tui__input_window("Search", dir > 0 ? "String: " : "Backward search string: ",
			      buf, sizeof(buf)))
		return;
	snprintf(b->search, sizeof(b->search), "%s", buf);
	browser__search(b, dir);
}

/* P: the listing as --stdio prints it, into SYMBOL.annotation. */
static void browser__print_file(struct ann_browser *b)
{
	char path[600], msg[700];
	FILE *fp;
	int err;

	snprintf(path, sizeof(path), "%s.annotation", b->as->sym->name);
	fp = fopen(path, "w");
	err = fp ? annotated_sym__fprintf(b->set, b->as, b->opts, fp) : -errno;
	if (fp && fclose(fp) && !err)
		err = -EIO;
	if (err)
		snprintf(msg, sizeof(msg), "Couldn't write %s: %s (press a key)", path, strerror(-err));
	else
		snprintf(msg, sizeof(msg), "Printed to %s (press a key)", path);
	tui__helpline(msg);
	SLsmg_refresh();
	tui__getkey();
}

/* p/b: another percent type; the listing again, on the same line. */
static void browser__percent_type(struct ann_browser *b, bool flip_global)
{
	enum annotate_percent_type t = b->opts_own.percent_type;
	bool global = t == PERCENT_GLOBAL_PERIOD || t == PERCENT_GLOBAL_HITS;
	bool hits = t == PERCENT_LOCAL_HITS || t == PERCENT_GLOBAL_HITS;
	size_t keep = b->nr_rows ? b->rows[b->sel] : 0, r;

	if (flip_global)
		global = !global;
	else
		hits = !hits;
	b->opts_own.percent_type = global ? (hits ? PERCENT_GLOBAL_HITS : PERCENT_GLOBAL_PERIOD) :
				   (hits ? PERCENT_LOCAL_HITS : PERCENT_LOCAL_PERIOD);
	if (browser__load(b, b->as))
		return;
	for (r = 0; r < b->nr_rows; r++)
		if (b->rows[r] <= keep)
			b->sel = r;
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

static bool browser__jump_inside(const struct ann_browser *b, const struct annotate_line *al)
{
	return al->offset >= 0 && al->is_jump && al->has_target && al->target >= b->l.start &&
	       al->target - b->l.start < b->as->len;
}

/*
 * With the jump line on (j) and a jump inside the symbol selected: its
 * row (*from), its target's (*to) and the row of the instruction before
 * it when the two are one macro-fused pair (*fused, else nr_rows). *from
 * == *to when there is no line to draw.
 */
static void browser__jump_span(const struct ann_browser *b, size_t *from, size_t *to,
			       size_t *fused)
{
	const struct annotate_line *al;
	size_t r;

	*from = *to = 0;
	*fused = b->nr_rows;
	if (b->opts->no_jump_arrows || !b->nr_rows)
		return;
	al = browser__line(b, b->sel);
	if (!browser__jump_inside(b, al))
		return;
	r = browser__find_offset(b, (int64_t)(al->target - b->l.start));
	if (r == b->nr_rows || r == b->sel)
		return;
	*from = b->sel;
	*to = r;
	for (r = b->sel; r-- > 0;) {
		const struct annotate_line *prev = browser__line(b, r);

		if (prev->offset < 0)
			continue;
		if (annotate__fused(b->cpuid, prev->text, al->text))
			*fused = r;
		break;
	}
}

static void browser__draw(struct ann_browser *b)
{
	int rows = tui__rows(), cols = tui__cols(), list = rows - 2, r;
	size_t from, to, fused;
	char buf[1200];

	if (b->sel < b->top)
		b->top = b->sel;
	if (list > 0 && b->sel >= b->top + (size_t)list)
		b->top = b->sel - (size_t)list + 1;
	snprintf(buf, sizeof(buf), "Annotate %s  %s  %s (%" PRIu64 " samples, percent: %s)",
		 b->as->sym->name, b->as->dso->short_name, evsel__name(b->as->evsel),
		 b->as->nr_samples, annotate__percent_type_str(b->opts->percent_type));
	tui__write(0, 0, TUI_ROOT, buf, cols);
	browser__jump_span(b, &from, &to, &fused);
	for (r = 0; r < list; r++) {
		size_t row = b->top + (size_t)r;
		const struct annotate_line *al;
		enum jump_part part = JP_NONE;
		int color = TUI_NORMAL;

		if (row >= b->nr_rows) {
			tui__write(r + 1, 0, TUI_NORMAL, "", cols);
			continue;
		}
		al = browser__line(b, row);
		if (from != to) {
			if (row == from)
				part = JP_JUMP;
			else if (row == to)
				part = JP_TARGET;
			else if (row == fused)
				part = JP_FUSED;
			else if ((row > from && row < to) || (row < from && row > to))
				part = JP_BETWEEN;
		}
		browser__format(b, b->rows[row], r == 0, part, to < from, buf, sizeof(buf));
		if (al->offset >= 0)
			color = tui__percent_color(al->percent);
		tui__write(r + 1, 0, row == b->sel ? TUI_SELECTED : color, buf, cols);
	}
	tui__helpline("Press 'h' for help on key bindings");
	SLsmg_refresh();
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
		b->opts_own.hide_src_code = !b->show_source;
		browser__rows(b, b->nr_rows ? b->rows[b->sel] : 0);
		break;
	case 'o':
	case 'f':
		b->opts_own.use_addr = !b->opts_own.use_addr;
		break;
	case 'O':	/* offsets of jump targets, + calls, all, again */
		b->opts_own.offset_level = b->opts_own.offset_level < 1 ? 2 :
					   b->opts_own.offset_level % 3 + 1;
		break;
	case 'H':
		if (b->nr_hot) {
			size_t r;

			for (r = 0; r < b->nr_rows; r++)
				if (b->rows[r] == b->hot[0])
					b->sel = r;
		}
		break;
	case 't':
		b->view = (b->view + 1) % 3;
		b->opts_own.show_total_period = b->view == 1;
		b->opts_own.show_nr_samples = b->view == 2;
		break;
	case 'k':
		b->opts_own.show_linenr = !b->opts_own.show_linenr;
		break;
	case 'j':
		b->opts_own.no_jump_arrows = !b->opts_own.no_jump_arrows;
		break;
	case 'J':
		b->opts_own.show_nr_jumps = !b->opts_own.show_nr_jumps;
		break;
	case 'p':
		browser__percent_type(b, true);
		break;
	case 'b':
		browser__percent_type(b, false);
		break;
	case '/':
		browser__ask_search(b, 1);
		break;
	case '?':
		browser__ask_search(b, -1);
		break;
	case 'n':
		browser__search(b, 1);
		break;
	case 'P':
		browser__print_file(b);
		break;
	case 'h':
	case SL_KEY_F(1):
		tui__help_window(annotate_help);
		break;
	case K_ENTER:
		if (!al || al->offset < 0 || !al->has_target)
			break;
		if (browser__jump_inside(b, al)) {
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
		annotate_layout__widths(&b->lay, b->opts);
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
			 const struct annotate_opts *opts, const char *cpuid)
{
	struct ann_browser b = { .set = set, .syms = syms, .nr_syms = nr, .opts_own = *opts,
				 .show_source = !opts->no_source && !opts->hide_src_code };
	size_t idx = 0, failed = 0;
	int ret = 0, dir = 1;

	b.opts = &b.opts_own;
	b.view = opts->show_total_period ? 1 : opts->show_nr_samples ? 2 : 0;
	b.cpuid = cpuid;
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
	if (b.rows) {
		annotate_layout__exit(&b.lay);
		annotate_listing__exit(&b.l);
	}
	free(b.rows);
	free(b.hot);
	return ret < 0 ? ret : 0;
}

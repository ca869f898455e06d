// SPDX-License-Identifier: GPL-2.0
/*
 * The `prf report` hists browser (see tui.h).
 *
 * Rows: one per visible hist entry, and under an unfolded entry the rows
 * of its callchain laid out as perf's TUI lays out a graph callchain
 * (observed behaviour of perf 6.1): every callchain node prints its frames
 * one per line, indented 3 columns a level; the first frame of a node
 * carries the node's value ("90.48% a") when the node has siblings or
 * does not hold all of its parent's hits. Fold points ('+' folded, '-'
 * unfolded), as perf sets them: at the top level the first frame of a
 * node when the node has siblings; deeper the first frame of a node with
 * more frames or children; everywhere the last frame of a node with
 * children. A folded frame hides the rest of its node and the subtree.
 *
 * Only the rows on screen are formatted; the row list (a few integers a
 * row) is rebuilt when folding, zoom or the filter change.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tui.h"
#include "helpers.h"
#include "../stdio/hist.h"
#include "../../util/analysis/hist.h"
#include "../../util/analysis/sort.h"
#include "../../util/analysis/callchain-tree.h"
#include "../../util/lib/config.h"
#include "../../util/model/dso.h"
#include "../../util/model/machine.h"

#define LEVEL_OFFSET_STEP	3
#define ZOOM_DSO		1
#define ZOOM_THREAD		2
#define MAX_PRINT_SEQ		8192

/* why a browser returned */
enum hb_exit {
	HB_QUIT,		/* q, Ctrl-C, Exit */
	HB_BACK,		/* ESC/Left back to the event menu */
	HB_NEXT,		/* TAB */
	HB_PREV,		/* shift-TAB */
	HB_ERROR,		/* terminal failed */
	HB_NOMEM,
};

/* A callchain display node with its children as one index range. */
struct tnode {
	const struct cc_chain *c;
	uint32_t parent;		/* index; the root is 0 */
	uint32_t first_kid, nr_kids;
	uint32_t flags;			/* first of its frames' fold flags */
};

struct tent {
	struct hist_entry *he;
	bool unfolded, built, failed, visible;
	struct cc_display d;
	bool have_d;
	struct tnode *nodes;		/* breadth first, [0] the root */
	uint32_t nr_nodes;
	uint8_t *vfold;			/* per frame: 1 unfolded */
};

struct trow {
	uint32_t ent;
	uint32_t node;			/* 0: the entry's own row */
	uint16_t val, offset;
	bool percent;
};

struct hbrowser {
	struct hists *hists;
	const char *evname;
	const struct tui_report_opts *opts;
	struct callchain_param cc;	/* graph layout (see tui__browse_report) */
	struct tent *ents;
	size_t nr_ents;
	struct trow *rows;
	size_t nr_rows, alloc_rows;
	size_t top, sel;
	/* zoom and filter */
	struct thread *zoom_thread;
	const char *zoom_comm;
	pid_t zoom_pid;
	struct dso *zoom_dso;
	int zstack[2];
	int nr_zstack;
	char filter[256];
	bool has_pid_key;
	bool left_exits;
	/* columns of this view */
	int cols[SORT_MAX_COLUMNS], widths[SORT_MAX_COLUMNS];
	int nr_cols;
	/* helpline */
	char msg[512];
	bool have_msg;
	int print_seq;
	bool drawn;			/* the first frame is out (trace) */
	char name[1024];		/* scratch for frame names */
	/* live hists (opts->live) */
	bool frozen;			/* 'f': no refresh */
	uint64_t next_refresh;		/* CLOCK_MONOTONIC ms */
	char zoom_comm_buf[64];		/* zoom_comm's text: live hists may free theirs */
};

/* ---- callchain display of one entry ---- */

static uint64_t entry_total(const struct hbrowser *b, const struct hist_entry *he)
{
	return b->hists->so->cumulate ? he->period_acc : he->period;
}

static uint32_t count_nodes(const struct cc_chain *c, uint32_t *nr_vals)
{
	uint32_t n = 1;

	*nr_vals += c->nr_vals;
	for (uint32_t i = 0; i < c->nr_children; i++)
		n += count_nodes(c->children[i], nr_vals);
	return n;
}

/* Build the display tree of e once; 0 or -ENOMEM. */
static int tent__build(struct hbrowser *b, struct tent *e)
{
	uint32_t n, nr_vals = 0, tail = 1, flags = 0;

	if (e->built)
		return e->failed ? -ENOMEM : 0;
	e->built = true;
	if (!b->opts->use_callchain || !e->he->cc_root)
		return 0;
	if (callchain_store__display(&b->hists->store, e->he->cc_root, &b->cc,
				     b->hists->total_period, &e->d)) {
		e->failed = true;
		return -ENOMEM;
	}
	e->have_d = true;
	n = count_nodes(e->d.root, &nr_vals);
	e->nodes = calloc(n, sizeof(*e->nodes));
	e->vfold = calloc(nr_vals + 1, 1);
	if (!e->nodes || !e->vfold) {
		e->failed = true;
		return -ENOMEM;
	}
	e->nodes[0].c = e->d.root;
	for (uint32_t i = 0; i < tail; i++) {
		struct tnode *t = &e->nodes[i];

		t->flags = flags;
		flags += t->c->nr_vals;
		t->first_kid = tail;
		t->nr_kids = t->c->nr_children;
		for (uint32_t k = 0; k < t->nr_kids && tail < n; k++) {
			e->nodes[tail].c = t->c->children[k];
			e->nodes[tail].parent = i;
			tail++;
		}
	}
	e->nr_nodes = tail;
	return 0;
}

static void tent__free(struct tent *e)
{
	if (e->have_d)
		cc_display__exit(&e->d);
	free(e->nodes);
	free(e->vfold);
}

static bool tent__has_chain(const struct tent *e)
{
	return e->nr_nodes > 1;
}

/* Total the children of node idx are measured against (perf's parent_total). */
static uint64_t node_children_total(const struct hbrowser *b, const struct tent *e, uint32_t idx)
{
	return idx == 0 ? entry_total(b, e->he) : e->nodes[idx].c->children_hit;
}

static char frame_sign(const struct tent *e, uint32_t idx, uint32_t val)
{
	const struct tnode *t = &e->nodes[idx];
	bool has_children;

	if (t->parent == 0) {
		/* top level: the first frame folds when the node has siblings */
		if (val + 1 == t->c->nr_vals)
			has_children = t->nr_kids > 0;
		else if (val == 0)
			has_children = e->nodes[0].nr_kids > 1;
		else
			has_children = false;
	} else {
		/* deeper: the first frame folds the rest of its node */
		if (val == 0)
			has_children = t->c->nr_vals > 1 || t->nr_kids > 0;
		else if (val + 1 == t->c->nr_vals)
			has_children = t->nr_kids > 0;
		else
			has_children = false;
	}
	if (!has_children)
		return ' ';
	return e->vfold[t->flags + val] ? '-' : '+';
}

static char entry_sign(struct hbrowser *b, struct tent *e)
{
	if (!b->opts->use_callchain)
		return ' ';
	tent__build(b, e);
	if (!tent__has_chain(e))
		return ' ';
	return e->unfolded ? '-' : '+';
}

static void tent__set_folding(struct hbrowser *b, struct tent *e, bool unfold)
{
	if (tent__build(b, e) || !tent__has_chain(e)) {
		e->unfolded = false;
		return;
	}
	e->unfolded = unfold;
	for (uint32_t i = 0; i < e->nr_nodes; i++)
		memset(e->vfold + e->nodes[i].flags, unfold, e->nodes[i].c->nr_vals);
}

/* ---- rows ---- */

static int rows_push(struct hbrowser *b, uint32_t ent, uint32_t node, uint32_t val,
		     int offset, bool percent)
{
	struct trow *r;

	if (b->nr_rows == b->alloc_rows) {
		size_t n = b->alloc_rows ? b->alloc_rows * 2 : 1024;
		struct trow *v = realloc(b->rows, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->rows = v;
		b->alloc_rows = n;
	}
	r = &b->rows[b->nr_rows++];
	r->ent = ent;
	r->node = node;
	r->val = (uint16_t)(val > UINT16_MAX ? UINT16_MAX : val);
	r->offset = (uint16_t)(offset > 4000 ? 4000 : offset);
	r->percent = percent;
	return 0;
}

static int graph_rows(struct hbrowser *b, uint32_t ei, uint32_t pidx, int level)
{
	struct tent *e = &b->ents[ei];
	const struct tnode *p = &e->nodes[pidx];
	uint64_t ptotal = node_children_total(b, e, pidx);
	bool need_percent = p->nr_kids > 1 ||
			    (p->nr_kids == 1 && e->nodes[p->first_kid].c->cumul != ptotal);

	for (uint32_t k = 0; k < p->nr_kids; k++) {
		uint32_t ki = p->first_kid + k;
		const struct tnode *t = &e->nodes[ki];
		int extra = 0;
		char sign = ' ';

		for (uint32_t v = 0; v < t->c->nr_vals; v++) {
			if (v > 0 && need_percent)
				extra = LEVEL_OFFSET_STEP;
			sign = frame_sign(e, ki, v);
			if (rows_push(b, ei, ki, v, level * LEVEL_OFFSET_STEP + extra,
				      v == 0 && need_percent))
				return -ENOMEM;
			if (sign == '+')
				break;
		}
		if (sign == '-' && graph_rows(b, ei, ki, level + (extra ? 2 : 1)))
			return -ENOMEM;
	}
	return 0;
}

/* Whether e is in the current view (zoom, symbol filter), --percent-limit aside. */
static bool tent__in_view(const struct hbrowser *b, const struct tent *e)
{
	const struct hist_entry *he = e->he;

	if (he->filtered)
		return false;
	if (b->zoom_thread && he->thread != b->zoom_thread)
		return false;
	if (b->zoom_dso && he->dso != b->zoom_dso)
		return false;
	if (b->filter[0] && (!he->sym || !strstr(he->sym->name, b->filter)))
		return false;
	return true;
}

static bool tent__passes(const struct hbrowser *b, const struct tent *e)
{
	if (!tent__in_view(b, e))
		return false;
	return !(b->opts->min_percent > 0 &&
		 hists__entry_percent(b->hists, e->he) < b->opts->min_percent);
}

static bool is_key_col(int type)
{
	return type < HPP_OVERHEAD;
}

/*
 * Width of key column t over the entries of the current view, by the
 * rules hists__output_resort() sizes the stdio columns with (perf's
 * hists__calc_col_len(), which perf reruns when a zoom or filter changes
 * the entries): the comm column by the thread's last comm, an unresolved
 * symbol counts 22 and widens a DSO column to 16.
 */
static int view_width(struct hbrowser *b, int t, bool *unresolved)
{
	const struct sort_order *so = b->hists->so;
	int w = sort_column__min_width(so, t);
	char buf[4096];

	for (size_t i = 0; i < b->nr_ents; i++) {
		const struct hist_entry *he = b->ents[i].he;
		int len;

		if (!tent__in_view(b, &b->ents[i]) || (t == SORT_DSO && !he->dso))
			continue;
		if (t == SORT_COMM && he->thread) {
			len = (int)strlen(thread__comm_str(he->thread));
		} else if ((t == SORT_SYM || t == SORT_SYMOFF) && !he->sym) {
			*unresolved = true;
			len = 16 + 4 + 2;
		} else {
			len = hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
		}
		if (len > w)
			w = len;
	}
	return w;
}

/*
 * Columns and widths of the current view: the stdio report's columns
 * (elided ones left out), without the DSO column when zoomed into a DSO.
 * Unzoomed and unfiltered, the widths are the stdio report's own; else
 * they are recomputed over the entries shown, by the same rules.
 */
static void compute_columns(struct hbrowser *b)
{
	const struct sort_order *so = b->hists->so;
	bool whole = !b->zoom_thread && !b->zoom_dso && !b->filter[0], unresolved = false;

	b->nr_cols = 0;
	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type;

		if (so->cols[c].elide)
			continue;
		if (t == SORT_DSO && b->zoom_dso && so->nr_cols > 1)
			continue;
		b->cols[b->nr_cols] = t;
		b->widths[b->nr_cols] = so->cols[c].width;
		b->nr_cols++;
	}
	for (size_t i = 0; i < b->nr_ents; i++)
		b->ents[i].visible = tent__passes(b, &b->ents[i]);
	if (whole)
		return;
	for (int c = 0; c < b->nr_cols; c++) {
		int t = b->cols[c];

		if (!is_key_col(t) || t == SORT_CPU)
			continue;
		b->widths[c] = view_width(b, t, &unresolved);
	}
	if (unresolved)
		for (int c = 0; c < b->nr_cols; c++)
			if (b->cols[c] == SORT_DSO && b->widths[c] < 16)
				b->widths[c] = 16;
}

/* Rebuild the row list, keeping the selection on the same row if it is
 * still there, else on its entry. */
static int rebuild_rows(struct hbrowser *b)
{
	struct trow keep = { .ent = UINT32_MAX };
	bool have = b->sel < b->nr_rows;

	if (have)
		keep = b->rows[b->sel];
	b->nr_rows = 0;
	for (size_t i = 0; i < b->nr_ents; i++) {
		struct tent *e = &b->ents[i];

		if (!e->visible)
			continue;
		if (rows_push(b, (uint32_t)i, 0, 0, 0, false))
			return -ENOMEM;
		if (e->unfolded && tent__has_chain(e) && graph_rows(b, (uint32_t)i, 0, 1))
			return -ENOMEM;
	}
	b->sel = 0;
	if (have) {
		size_t entry_row = SIZE_MAX;

		for (size_t r = 0; r < b->nr_rows; r++) {
			if (b->rows[r].ent != keep.ent)
				continue;
			if (b->rows[r].node == 0)
				entry_row = r;
			if (b->rows[r].node == keep.node && b->rows[r].val == keep.val) {
				entry_row = r;
				break;
			}
		}
		if (entry_row != SIZE_MAX)
			b->sel = entry_row;
	}
	return 0;
}

/* ---- formatting ---- */

#define MAX_SPANS SORT_MAX_COLUMNS

struct line {
	char buf[8192];
	int len;
	struct { int start, len, color; } span[MAX_SPANS];
	int nr_spans;
};

static void line_add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= (int)sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - (size_t)l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += n;
	if (l->len > (int)sizeof(l->buf) - 1)
		l->len = (int)sizeof(l->buf) - 1;
}

static void line_percent(struct line *l, int width, double pct)
{
	int start = l->len;

	line_add(l, "%*.2f%%", width - 1, pct);
	if (l->nr_spans < MAX_SPANS) {
		l->span[l->nr_spans].start = start;
		l->span[l->nr_spans].len = l->len - start;
		l->span[l->nr_spans].color = tui__percent_color(pct);
		l->nr_spans++;
	}
}

static void format_header(struct hbrowser *b, struct line *l)
{
	const struct sort_order *so = b->hists->so;

	l->len = 0;
	l->buf[0] = '\0';
	l->nr_spans = 0;
	if (b->opts->use_callchain)
		line_add(l, "  ");
	for (int c = 0; c < b->nr_cols; c++) {
		int t = b->cols[c];

		if (c)
			line_add(l, "  ");
		if (is_key_col(t))
			line_add(l, "%-*s", c + 1 == b->nr_cols ? 0 : b->widths[c],
				 sort_column__header(so, t));
		else
			line_add(l, "%*s", b->widths[c], sort_column__header(so, t));
	}
}

static void format_entry(struct hbrowser *b, struct tent *e, struct line *l)
{
	const struct sort_order *so = b->hists->so;
	const struct hist_entry *he = e->he;
	double total = (double)b->hists->total_period;
	char buf[4096];

	l->len = 0;
	l->buf[0] = '\0';
	l->nr_spans = 0;
	if (b->opts->use_callchain)
		line_add(l, "%c ", entry_sign(b, e));
	for (int c = 0; c < b->nr_cols; c++) {
		int t = b->cols[c], w = b->widths[c], n;
		bool last = c + 1 == b->nr_cols;

		if (c)
			line_add(l, "  ");
		switch (t) {
		case HPP_OVERHEAD:
			line_percent(l, w, total ? 100.0 * (double)he->period / total : 0.0);
			break;
		case HPP_CHILDREN:
			line_percent(l, w, total ? 100.0 * (double)he->period_acc / total : 0.0);
			break;
		case HPP_OVERHEAD_SYS:
			line_percent(l, w, total ? 100.0 * (double)he->period_sys / total : 0.0);
			break;
		case HPP_OVERHEAD_US:
			line_percent(l, w, total ? 100.0 * (double)he->period_us / total : 0.0);
			break;
		case HPP_SAMPLE:
			line_add(l, "%*" PRIu64, w, he->nr_samples);
			break;
		case HPP_PERIOD:
			line_add(l, "%*" PRIu64, w, he->period);
			break;
		case SORT_CPU:
		case SORT_DSO_SIZE:
		case SORT_SYM_SIZE:
			hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
			line_add(l, "%*s", w, buf);
			break;
		case SORT_SYM:
		case SORT_SYMOFF:
		case SORT_SRCLINE:
		case SORT_TRACE:
		case SORT_TIME:
		case SORT_SRCFILE:
			/* as stdio: padded only when another column follows */
			n = hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
			if (last)
				line_add(l, "%s", buf);
			else
				line_add(l, "%s%*s", buf, n < w ? w - n : 0, "");
			break;
		default:
			/* comm, pid, dso, parent: padded and cut to the column */
			hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
			line_add(l, "%-*.*s", w, w, buf);
		}
	}
}

static void format_value(struct hbrowser *b, struct line *l, const struct cc_chain *c,
			 uint64_t percent_total)
{
	switch (b->cc.value) {
	case CCVAL_PERIOD:
		line_add(l, "%" PRIu64 " ", c->cumul);
		break;
	case CCVAL_COUNT:
		line_add(l, "%" PRIu64 " ", c->cumul_count);
		break;
	default:
		line_add(l, "%.2f%% ", percent_total ?
			 100.0 * (double)c->cumul / (double)percent_total : 0.0);
	}
}

static const char *frame_name(struct hbrowser *b, uint32_t id)
{
	return cc_frame__name(&b->hists->store.frames[id], b->name, sizeof(b->name));
}

static void format_chain(struct hbrowser *b, const struct trow *r, struct line *l)
{
	struct tent *e = &b->ents[r->ent];
	const struct tnode *t = &e->nodes[r->node];

	l->len = 0;
	l->buf[0] = '\0';
	l->nr_spans = 0;
	line_add(l, "%*s%c ", r->offset, "", frame_sign(e, r->node, r->val));
	if (r->percent) {
		uint64_t pt = b->cc.mode == CHAIN_GRAPH_REL ?
			      node_children_total(b, e, t->parent) : b->hists->total_period;

		format_value(b, l, t->c, pt);
	}
	line_add(l, "%s", frame_name(b, t->c->vals[r->val]));
}

static void format_row(struct hbrowser *b, const struct trow *r, struct line *l)
{
	if (r->node == 0)
		format_entry(b, &b->ents[r->ent], l);
	else
		format_chain(b, r, l);
}

/* ---- drawing ---- */

/* The column headers' row: 1, or 0 with ui.show-headers=false
 * (perf-config(1)). */
static int header_rows(void)
{
	static int rows = -1;
	bool show = true;

	if (rows < 0)
		rows = config__get_bool("ui.show-headers", &show) > 0 && !show ? 0 : 1;
	return rows;
}

static int page_rows(void)
{
	int n = tui__rows() - 2 - header_rows();	/* title, headers, helpline */

	return n < 1 ? 1 : n;
}

static void title(struct hbrowser *b, char *buf, size_t size)
{
	char unit;
	unsigned long nr = convert_unit((unsigned long)b->hists->nr_samples, &unit);
	int n;

	if (b->opts->live) {
		b->opts->live->title(b->opts->live->arg, buf, size);
		n = (int)strlen(buf);
		if (b->frozen)
			n += snprintf(buf + n, size - (size_t)n, " [frozen]");
	} else {
		n = snprintf(buf, size, "Samples: %lu%c of event '%s', Event count (approx.): %" PRIu64,
			     nr, unit, b->evname ? b->evname : "", b->hists->total_period);
	}
	if (n < 0 || (size_t)n >= size)
		return;
	if (b->zoom_thread) {
		if (b->has_pid_key)
			n += snprintf(buf + n, size - (size_t)n, ", Thread: %s(%d)",
				      b->zoom_comm ? b->zoom_comm : "", b->zoom_pid);
		else
			n += snprintf(buf + n, size - (size_t)n, ", Thread: %s",
				      b->zoom_comm ? b->zoom_comm : "");
	}
	if (b->zoom_dso && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", DSO: %s", b->zoom_dso->short_name);
}

static void draw(struct hbrowser *b)
{
	int cols = tui__cols(), page = page_rows();
	struct line *l = malloc(sizeof(*l));
	char t[1024];

	if (!l)
		return;
	if (b->sel >= b->nr_rows)
		b->sel = b->nr_rows ? b->nr_rows - 1 : 0;
	if (b->sel < b->top)
		b->top = b->sel;
	if (b->sel >= b->top + (size_t)page)
		b->top = b->sel - (size_t)page + 1;
	if (b->top && b->top + (size_t)page > b->nr_rows)
		b->top = b->nr_rows > (size_t)page ? b->nr_rows - (size_t)page : 0;

	/* virtual erase: slang sends only what changed (no flicker) */
	SLsmg_set_color(TUI_NORMAL);
	SLsmg_gotorc(0, 0);
	SLsmg_erase_eos();
	title(b, t, sizeof(t));
	tui__write(0, 0, TUI_ROOT, t, cols);
	if (header_rows()) {
		format_header(b, l);
		tui__write(1, 0, TUI_ROOT, l->buf, cols);
	}
	for (int i = 0; i < page && b->top + (size_t)i < b->nr_rows; i++) {
		size_t r = b->top + (size_t)i;
		bool selected = r == b->sel;
		int row = 1 + header_rows() + i;

		format_row(b, &b->rows[r], l);
		tui__write(row, 0, selected ? TUI_SELECTED : TUI_NORMAL, l->buf, cols);
		if (selected)
			continue;
		for (int s = 0; s < l->nr_spans; s++) {
			if (l->span[s].color == TUI_NORMAL || l->span[s].start >= cols)
				continue;
			SLsmg_gotorc(row, l->span[s].start);
			SLsmg_set_color(l->span[s].color);
			SLsmg_write_nchars(l->buf + l->span[s].start, (unsigned int)l->span[s].len);
		}
	}
	tui__helpline(b->have_msg ? b->msg : NULL);
	SLsmg_gotorc(tui__rows() - 1, cols - 1);
	SLsmg_refresh();
	if (!b->drawn) {
		struct timespec cpu;

		b->drawn = true;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		tui__trace("screen %zu %llu", b->nr_rows,
			   (unsigned long long)cpu.tv_sec * 1000000000ULL +
			   (unsigned long long)cpu.tv_nsec);
	}
	free(l);
}

static void set_msg(struct hbrowser *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_msg(struct hbrowser *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
	va_end(ap);
	b->have_msg = true;
}

/* ---- actions ---- */

/* 'P': the whole current view (every row, as drawn) to perf.hist.N. */
static void dump(struct hbrowser *b)
{
	char path[64];
	struct line *l;
	FILE *fp;

	for (;;) {
		snprintf(path, sizeof(path), "perf.hist.%d", b->print_seq);
		if (access(path, F_OK))
			break;
		if (++b->print_seq == MAX_PRINT_SEQ) {
			set_msg(b, "Too many perf.hist.N files, nothing written!");
			return;
		}
	}
	fp = fopen(path, "w");
	if (!fp) {
		set_msg(b, "Couldn't write to %s: %s", path, strerror(errno));
		return;
	}
	l = malloc(sizeof(*l));
	for (size_t r = 0; l && r < b->nr_rows; r++) {
		format_row(b, &b->rows[r], l);
		fprintf(fp, "%s\n", l->buf);
	}
	free(l);
	if (fclose(fp) || !l)
		set_msg(b, "Couldn't write to %s: %s", path, strerror(errno ? errno : ENOMEM));
	else
		set_msg(b, "%s written!", path);
	b->print_seq++;
}

static struct dso *selected_dso(struct hbrowser *b)
{
	const struct trow *r;
	const struct tent *e;

	if (b->sel >= b->nr_rows)
		return NULL;
	r = &b->rows[b->sel];
	e = &b->ents[r->ent];
	if (r->node == 0)
		return e->he->dso;
	return b->hists->store.frames[e->nodes[r->node].c->vals[r->val]].dso;
}

static void zstack_remove(struct hbrowser *b, int what)
{
	for (int i = 0; i < b->nr_zstack; i++) {
		if (b->zstack[i] != what)
			continue;
		memmove(&b->zstack[i], &b->zstack[i + 1], (size_t)(b->nr_zstack - i - 1) * sizeof(int));
		b->nr_zstack--;
		return;
	}
}

static int zoom_dso(struct hbrowser *b)
{
	if (b->zoom_dso) {
		b->zoom_dso = NULL;
		zstack_remove(b, ZOOM_DSO);
		b->have_msg = false;
	} else {
		struct dso *dso = selected_dso(b);

		if (!dso)
			return 0;
		b->zoom_dso = dso;
		b->zstack[b->nr_zstack++] = ZOOM_DSO;
		set_msg(b, "To zoom out press ESC or ENTER + \"Zoom out of %s DSO\"", dso->short_name);
	}
	compute_columns(b);
	return rebuild_rows(b);
}

static int zoom_thread(struct hbrowser *b)
{
	if (b->zoom_thread) {
		b->zoom_thread = NULL;
		zstack_remove(b, ZOOM_THREAD);
		b->have_msg = false;
	} else {
		const struct hist_entry *he;

		if (b->sel >= b->nr_rows)
			return 0;
		he = b->ents[b->rows[b->sel].ent].he;
		if (!he->thread)
			return 0;
		b->zoom_thread = he->thread;
		snprintf(b->zoom_comm_buf, sizeof(b->zoom_comm_buf), "%s", he->comm ? he->comm : "");
		b->zoom_comm = b->zoom_comm_buf;
		b->zoom_pid = he->pid;
		b->zstack[b->nr_zstack++] = ZOOM_THREAD;
		if (b->has_pid_key)
			set_msg(b, "To zoom out press ESC or ENTER + \"Zoom out of %s(%d) thread\"",
				he->comm ? he->comm : "", he->pid);
		else
			set_msg(b, "To zoom out press ESC or ENTER + \"Zoom out of %s thread\"",
				he->comm ? he->comm : "");
	}
	compute_columns(b);
	return rebuild_rows(b);
}

/* '+': the selected row one level. */
static int toggle_fold(struct hbrowser *b)
{
	struct trow *r;
	struct tent *e;

	if (b->sel >= b->nr_rows)
		return 0;
	r = &b->rows[b->sel];
	e = &b->ents[r->ent];
	if (r->node == 0) {
		if (tent__build(b, e) || !tent__has_chain(e))
			return 0;
		e->unfolded = !e->unfolded;
	} else {
		if (frame_sign(e, r->node, r->val) == ' ')
			return 0;
		e->vfold[e->nodes[r->node].flags + r->val] ^= 1;
	}
	return rebuild_rows(b);
}

static int set_folding_all(struct hbrowser *b, bool unfold)
{
	for (size_t i = 0; i < b->nr_ents; i++) {
		if (!b->ents[i].visible && unfold)
			continue;
		tent__set_folding(b, &b->ents[i], unfold);
	}
	return rebuild_rows(b);
}

static int set_folding_selected(struct hbrowser *b, int unfold)
{
	struct tent *e;

	if (b->sel >= b->nr_rows)
		return 0;
	e = &b->ents[b->rows[b->sel].ent];
	tent__set_folding(b, e, unfold < 0 ? !e->unfolded : unfold);
	return rebuild_rows(b);
}

static int filter_symbol(struct hbrowser *b)
{
	char buf[sizeof(b->filter)];

	snprintf(buf, sizeof(buf), "%s", b->filter);
	if (tui__input_window("Symbol to show",
			      "Please enter the name of symbol you want to see.\n"
			      "To remove the filter later, press / + ENTER.",
			      buf, sizeof(buf)))
		return 0;
	snprintf(b->filter, sizeof(b->filter), "%s", buf);
	b->top = 0;
	compute_columns(b);
	return rebuild_rows(b);
}

/*
 * 'H': select the entry with the most self overhead (its own samples, not
 * its callees'), the first of equals. Without --children this is the top
 * entry; with it, where the time is spent rather than the callers on top.
 */
static void hottest(struct hbrowser *b)
{
	uint64_t best = 0;
	bool found = false;

	for (size_t r = 0; r < b->nr_rows; r++) {
		uint64_t p;

		if (b->rows[r].node)
			continue;
		p = b->ents[b->rows[r].ent].he->period;
		if (!found || p > best) {
			best = p;
			found = true;
			b->sel = r;
		}
	}
}

/* perf's key help, without its blank lines: 20 lines, so the box fits
 * an 80x24 terminal whole (smaller ones scroll it) */
static const char help_text[] =
	"h/?/F1        Show this window\n"
	"UP/DOWN/PGUP\n"
	"PGDN/SPACE    Navigate\n"
	"HOME/END      First/last entry\n"
	"q/ESC/CTRL+C  Exit browser or go back to previous screen\n"
	"For multiple event sessions:\n"
	"TAB/UNTAB     Switch events\n"
	"For symbolic views (--sort has sym):\n"
	"ENTER         Zoom into DSO/Threads, expand callchain (menu)\n"
	"ESC           Zoom out\n"
	"+             Expand/Collapse one callchain level\n"
	"a             Annotate current symbol\n"
	"c             Collapse the selected entry's callchains\n"
	"C             Collapse all callchains\n"
	"d             Zoom into current DSO\n"
	"e             Expand/Collapse main entry callchains\n"
	"E             Expand all callchains\n"
	"H             Go to the hottest entry (most Self)\n"
	"P             Print histograms to perf.hist.N\n"
	"t             Zoom into current Thread\n"
	"/             Filter symbol by name";

/* the keys of live hists (prf top) beyond the report browser's */
static const char live_help_text[] =
	"f             Freeze/unfreeze the display (no refresh)\n"
	"z             Zero the entries (start again)";

enum { ACT_THREAD, ACT_DSO, ACT_FOLD, ACT_EXIT };

/* Enter/Right: perf's action menu for the selected row. */
static int action_menu(struct hbrowser *b, enum hb_exit *exit_reason)
{
	char *items[4];
	int acts[4], n = 0, choice, err = 0;
	const struct trow *r;
	const struct tent *e;
	struct dso *dso;

	if (b->sel >= b->nr_rows)
		return 0;
	r = &b->rows[b->sel];
	e = &b->ents[r->ent];
	dso = selected_dso(b);
	if (e->he->thread) {
		const char *comm = b->zoom_thread ? b->zoom_comm : e->he->comm;
		pid_t pid = b->zoom_thread ? b->zoom_pid : e->he->pid;
		int ok = b->has_pid_key ?
			 asprintf(&items[n], "Zoom %s %s(%d) thread", b->zoom_thread ? "out of" : "into",
				  comm ? comm : "", pid) :
			 asprintf(&items[n], "Zoom %s %s thread", b->zoom_thread ? "out of" : "into",
				  comm ? comm : "");
		if (ok > 0)
			acts[n++] = ACT_THREAD;
	}
	if ((b->zoom_dso || dso) &&
	    asprintf(&items[n], "Zoom %s %s DSO", b->zoom_dso ? "out of" : "into",
		     (b->zoom_dso ? b->zoom_dso : dso)->short_name) > 0)
		acts[n++] = ACT_DSO;
	{
		char sign = r->node ? frame_sign(e, r->node, r->val) : entry_sign(b, (struct tent *)e);
		const char *name = r->node ? frame_name(b, e->nodes[r->node].c->vals[r->val]) :
				   e->he->sym ? e->he->sym->name : "[unknown]";

		if (sign != ' ' &&
		    asprintf(&items[n], "%s [%s] callchain (one level, same as '+' hotkey, "
			     "use 'e'/'c' for the whole main level entry)",
			     sign == '+' ? "Expand" : "Collapse", name) > 0)
			acts[n++] = ACT_FOLD;
	}
	if ((items[n] = strdup("Exit")))
		acts[n++] = ACT_EXIT;
	choice = tui__menu(NULL, items, n, "ESC: exit, ENTER|->: Select option", NULL);
	if (choice >= 0) {
		switch (acts[choice]) {
		case ACT_THREAD:
			err = zoom_thread(b);
			break;
		case ACT_DSO:
			err = zoom_dso(b);
			break;
		case ACT_FOLD:
			err = toggle_fold(b);
			break;
		case ACT_EXIT:
			*exit_reason = HB_QUIT;
			err = 1;
			break;
		}
	} else if (choice == -4) {
		*exit_reason = HB_ERROR;
		err = 1;
	}
	for (int i = 0; i < n; i++)
		free(items[i]);
	return err;
}

static void move_sel(struct hbrowser *b, long delta)
{
	long s = (long)b->sel + delta;

	if (s < 0 || !b->nr_rows)
		s = 0;
	else if ((size_t)s >= b->nr_rows)
		s = (long)b->nr_rows - 1;
	b->sel = (size_t)s;
}

/*
 * Live hists after a refresh: entries again from hists->sorted, those
 * unfolded before unfolded again (entries keep their address), the same
 * entry selected unless it was the first row; zoom and filter stay. 0 or
 * -ENOMEM.
 */
static int hbrowser__reload(struct hbrowser *b)
{
	/* the first row stays selected (the hottest entry, whichever it is
	 * now); a row the user moved to keeps its entry */
	struct hist_entry *sel_he = b->sel && b->sel < b->nr_rows ? b->ents[b->rows[b->sel].ent].he :
				    NULL;
	struct hist_entry **unf = calloc(b->nr_ents + 1, sizeof(*unf));
	size_t nu = 0;
	int err;

	if (!unf)
		return -ENOMEM;
	for (size_t i = 0; i < b->nr_ents; i++) {
		if (b->ents[i].unfolded)
			unf[nu++] = b->ents[i].he;
		tent__free(&b->ents[i]);
	}
	free(b->ents);
	b->nr_ents = b->hists->nr_sorted;
	b->ents = calloc(b->nr_ents + 1, sizeof(*b->ents));
	if (!b->ents) {
		b->nr_ents = 0;
		free(unf);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->nr_ents; i++) {
		b->ents[i].he = b->hists->sorted[i];
		for (size_t k = 0; k < nu; k++) {
			if (unf[k] == b->ents[i].he) {
				tent__set_folding(b, &b->ents[i], true);
				break;
			}
		}
	}
	free(unf);
	b->nr_rows = 0;
	compute_columns(b);
	err = rebuild_rows(b);
	for (size_t r = 0; !err && sel_he && r < b->nr_rows; r++) {
		if (!b->rows[r].node && b->ents[b->rows[r].ent].he == sel_he) {
			b->sel = r;
			break;
		}
	}
	return err;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Live hists: refresh now (or zero first). 0, 1 when the session ended,
 * or -errno. */
static int hbrowser__refresh(struct hbrowser *b, bool zero)
{
	const struct tui_live *lv = b->opts->live;
	int ret;

	if (zero)
		lv->zero(lv->arg);
	ret = lv->refresh(lv->arg);
	b->next_refresh = mono_ms() + lv->refresh_ms;
	if (ret)
		return ret;
	b->hists = *lv->shown;
	return hbrowser__reload(b);
}

/* Live hists: the next key, refreshing every refresh_ms while waiting
 * (the lock is given up only while waiting). K_ERROR on a failed refresh
 * (err set), 'q' when the session ended. */
static int hbrowser__live_key(struct hbrowser *b, int *err)
{
	for (;;) {
		uint64_t now = mono_ms();
		int key, wait = b->frozen ? -1 :
			b->next_refresh > now ? (int)(b->next_refresh - now) : 0;

		key = tui__getkey_timeout(wait);	/* unlocked meanwhile */
		if (key != K_TIMEOUT)
			return key;
		*err = hbrowser__refresh(b, false);
		if (*err > 0) {
			*err = 0;
			return 'q';
		}
		if (*err)
			return K_ERROR;
		draw(b);
	}
}

/* 'a': the selected entry's symbol in the annotate browser, through
 * the live hists' or the file's callback. 0, or -ENOMEM. */
static int browse_annotate(struct hbrowser *b, int (*annotate)(void *, struct hist_entry *),
			   void *arg)
{
	struct hist_entry *he;
	int err;

	if (b->sel >= b->nr_rows)
		return 0;
	he = b->ents[b->rows[b->sel].ent].he;
	if (!he->sym) {
		set_msg(b, "No symbol to annotate here");
		return 0;
	}
	err = annotate(arg, he);
	if (err == -ENOMEM)
		return err;
	if (err)
		set_msg(b, "Cannot annotate %s: %s", he->sym->name, strerror(-err));
	return 0;
}

static enum hb_exit hbrowser__run(struct hbrowser *b)
{
	enum hb_exit why = HB_QUIT;

	for (;;) {
		int key, err = 0, page = page_rows();

		draw(b);
		key = b->opts->live ? hbrowser__live_key(b, &err) : tui__getkey();
		if (err < 0)
			return HB_NOMEM;
		if (key != K_RESIZE)
			b->have_msg = false;
		if (key == 'a' && ((b->opts->live && b->opts->live->annotate) || b->opts->annotate)) {
			err = b->opts->live && b->opts->live->annotate ?
			      browse_annotate(b, b->opts->live->annotate, b->opts->live->arg) :
			      browse_annotate(b, b->opts->annotate, b->opts->annotate_arg);
			if (err < 0)
				return HB_NOMEM;
			continue;
		}
		if (b->opts->live && (key == 'f' || key == 'z')) {
			if (key == 'f')
				b->frozen = !b->frozen;
			else
				err = hbrowser__refresh(b, true);
			if (err > 0)
				return HB_QUIT;
			if (err < 0)
				return HB_NOMEM;
			continue;
		}
		switch (key) {
		case K_RESIZE:
			break;
		case K_ERROR:
			return HB_ERROR;
		case SL_KEY_UP:
			move_sel(b, -1);
			break;
		case SL_KEY_DOWN:
			move_sel(b, 1);
			break;
		case SL_KEY_PPAGE:
			move_sel(b, -page);
			if (b->top > (size_t)page)
				b->top -= (size_t)page;
			else
				b->top = 0;
			break;
		case SL_KEY_NPAGE:
		case ' ':
			move_sel(b, page);
			b->top += (size_t)page;
			break;
		case SL_KEY_HOME:
			b->sel = 0;
			break;
		case SL_KEY_END:
			move_sel(b, (long)b->nr_rows);
			break;
		case '+':
			err = toggle_fold(b);
			break;
		case 'e':
			err = set_folding_selected(b, -1);
			break;
		case 'c':
			err = set_folding_selected(b, 0);
			break;
		case 'E':
			err = set_folding_all(b, true);
			break;
		case 'C':
			err = set_folding_all(b, false);
			break;
		case 'd':
			err = zoom_dso(b);
			break;
		case 't':
			err = zoom_thread(b);
			break;
		case '/':
			err = filter_symbol(b);
			break;
		case 'H':
			hottest(b);
			break;
		case 'P':
			dump(b);
			break;
		case 'h':
		case '?':
		case SL_KEY_F(1):
			if (b->opts->live) {
				char text[sizeof(help_text) + sizeof(live_help_text) + 1];

				snprintf(text, sizeof(text), "%s\n%s", help_text, live_help_text);
				tui__help_window(text);
			} else {
				tui__help_window(help_text);
			}
			break;
		case K_TAB:
			return HB_NEXT;
		case K_UNTAB:
			return HB_PREV;
		case K_ENTER:
		case SL_KEY_RIGHT:
			err = action_menu(b, &why);
			if (err > 0)
				return why;
			break;
		case SL_KEY_LEFT:
		case K_ESC:
			if (b->nr_zstack) {
				int top = b->zstack[b->nr_zstack - 1];

				err = top == ZOOM_DSO ? zoom_dso(b) : zoom_thread(b);
				break;
			}
			if (b->left_exits)
				return HB_BACK;
			if (key == K_ESC && tui__dialog_yesno("Do you really want to exit?"))
				return HB_QUIT;
			break;
		case 'q':
		case K_CTRL_C:
			return HB_QUIT;
		default:
			break;
		}
		if (err < 0)
			return HB_NOMEM;
	}
}

static struct hbrowser *hbrowser__new(const struct tui_event *ev, const struct tui_report_opts *opts)
{
	struct hbrowser *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->hists = ev->hists;
	b->evname = ev->name;
	b->opts = opts;
	if (opts->cc)
		b->cc = *opts->cc;
	else
		callchain_param__init(&b->cc);
	/* the browser draws graphs; flat and folded are shown as graph */
	if (b->cc.mode != CHAIN_GRAPH_REL)
		b->cc.mode = CHAIN_GRAPH_ABS;
	b->has_pid_key = sort_order__has_key(ev->hists->so, SORT_PID);
	b->nr_ents = ev->hists->nr_sorted;
	b->ents = calloc(b->nr_ents + 1, sizeof(*b->ents));
	if (!b->ents) {
		free(b);
		return NULL;
	}
	for (size_t i = 0; i < b->nr_ents; i++)
		b->ents[i].he = ev->hists->sorted[i];
	if (opts->live)
		b->next_refresh = mono_ms() + opts->live->refresh_ms;
	compute_columns(b);
	if (rebuild_rows(b)) {
		free(b->ents);
		free(b);
		return NULL;
	}
	return b;
}

static void hbrowser__delete(struct hbrowser *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_ents; i++)
		tent__free(&b->ents[i]);
	free(b->ents);
	free(b->rows);
	free(b);
}

static int event_menu(const struct tui_event *events, int nr, struct hbrowser **bs,
		      const struct tui_report_opts *opts)
{
	char **items = calloc((size_t)nr, sizeof(*items));
	int sel = 0, ret = 0;

	if (!items)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		char unit;
		unsigned long n = convert_unit((unsigned long)events[i].hists->nr_samples, &unit);
		int ok;

		if (events[i].nr_lost)
			ok = asprintf(&items[i], "%lu%c%s%s, lost: %llu", n, unit, unit == ' ' ? "" : " ",
				      events[i].name, events[i].nr_lost);
		else
			ok = asprintf(&items[i], "%lu%c%s%s", n, unit, unit == ' ' ? "" : " ",
				      events[i].name);
		if (ok < 0) {
			items[i] = NULL;
			ret = -ENOMEM;
			goto out;
		}
	}
	for (;;) {
		int choice = tui__menu("Available samples", items, nr,
				       "ESC: exit, ENTER|->: Browse histograms", &sel);

		if (choice == -4) {
			ret = -EIO;
			break;
		}
		if (choice == -5)
			break;
		if (choice == -1) {
			if (tui__dialog_yesno("Do you really want to exit?"))
				break;
			continue;
		}
		if (choice < 0)
			continue;
		for (int idx = choice;;) {
			enum hb_exit why;

			if (!bs[idx] && !(bs[idx] = hbrowser__new(&events[idx], opts))) {
				ret = -ENOMEM;
				goto out;
			}
			bs[idx]->left_exits = true;
			why = hbrowser__run(bs[idx]);
			if (why == HB_NEXT) {
				idx = (idx + 1) % nr;
				continue;
			}
			if (why == HB_PREV) {
				idx = (idx + nr - 1) % nr;
				continue;
			}
			sel = idx;
			if (why == HB_BACK)
				break;
			ret = why == HB_QUIT ? 0 : why == HB_NOMEM ? -ENOMEM : -EIO;
			goto out;
		}
	}
out:
	for (int i = 0; i < nr; i++)
		free(items[i]);
	free(items);
	return ret;
}

int tui__browse_report(const struct tui_event *events, int nr_events,
		       const struct tui_report_opts *opts)
{
	struct hbrowser **bs;
	int ret = 0;

	if (nr_events <= 0)
		return 0;
	tui__trace("browse");
	if (tui__init_tty())
		return -EIO;
	if (opts->live)
		tui__set_wait_lock(opts->live->lock, opts->live->unlock, opts->live->arg);
	/* a physical clear once: whatever was written to the terminal
	 * behind slang's back (warnings while processing) goes away */
	SLsmg_cls();
	bs = calloc((size_t)nr_events, sizeof(*bs));
	if (!bs) {
		tui__set_wait_lock(NULL, NULL, NULL);
		return -ENOMEM;
	}
	if (nr_events == 1) {
		bs[0] = hbrowser__new(&events[0], opts);
		if (!bs[0]) {
			ret = -ENOMEM;
		} else {
			enum hb_exit why;

			do {
				why = hbrowser__run(bs[0]);
			} while (why == HB_NEXT || why == HB_PREV || why == HB_BACK);
			ret = why == HB_QUIT ? 0 : why == HB_NOMEM ? -ENOMEM : -EIO;
		}
	} else {
		ret = event_menu(events, nr_events, bs, opts);
	}
	for (int i = 0; i < nr_events; i++)
		hbrowser__delete(bs[i]);
	free(bs);
	tui__set_wait_lock(NULL, NULL, NULL);
	return ret;
}

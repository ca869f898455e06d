// SPDX-License-Identifier: GPL-2.0
/*
 * prf report --stdio text layout (see hist.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "hist.h"
#include "../../util/analysis/hist.h"
#include "../../util/analysis/hist-group.h"
#include "../../util/analysis/hist-hierarchy.h"
#include "../../util/analysis/sort.h"
#include "../../util/analysis/callchain-tree.h"
#include "../../util/model/dso.h"
#include "../../util/lib/psort.h"
#include "../../util/lib/util.h"
#include "../../util/lib/helper-thread.h"

unsigned long convert_unit(unsigned long value, char *unit)
{
	*unit = ' ';
	if (value > 1000) {
		value /= 1000;
		*unit = 'K';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'M';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'G';
	}
	return value;
}

void hists__fprintf_nr_sample_events(const struct hists *hists, const char *evname,
				     bool leader, const char *time_str, const char *mem_sort,
				     FILE *fp)
{
	char unit;
	unsigned long nr = convert_unit(hists->nr_samples, &unit);

	fprintf(fp, "# Samples: %lu%c", nr, unit);
	if (evname)
		fprintf(fp, " of event%s '%s'", leader ? "s" : "", evname);
	if (time_str)
		fprintf(fp, " (time slices: %s)", time_str);
	if (mem_sort)
		fprintf(fp, "\n# Total weight : %" PRIu64 "\n# Sort order   : %s\n",
			hists->total_period, mem_sort);
	else
		fprintf(fp, "\n# Event count (approx.): %" PRIu64 "\n", hists->total_period);
}

/* ---- callchains ---- */

struct cc_print {
	FILE *fp;
	const struct callchain_store *store;
	const struct callchain_param *cc;
	const char *sep;		/* between folded frames: ';' or -t's */
	char name[1024];
};

static const char *val_name(struct cc_print *p, uint32_t id)
{
	return cc_frame__name(&p->store->frames[id], p->name, sizeof(p->name));
}

/* (the callers hold fp's lock: print_entries()) */
static const char spaces[64] = "                                                               ";

static void put_spaces(FILE *fp, int n)
{
	while (n > 0) {
		int k = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;

		fwrite_unlocked(spaces, 1, (size_t)k, fp);
		n -= k;
	}
}

static void left_margin(FILE *fp, int margin)
{
	put_spaces(fp, 12 + margin);
}

static void print_value(struct cc_print *p, uint64_t hits, uint64_t count, uint64_t total)
{
	switch (p->cc->value) {
	case CCVAL_PERIOD:
		fprintf(p->fp, "%" PRIu64, hits);
		break;
	case CCVAL_COUNT:
		fprintf(p->fp, "%" PRIu64, count);
		break;
	default: {
		char num[64];

		fmt_2f(num, 0, total ? (double)hits * 100.0 / (double)total : 0.0);
		fputs_unlocked(num, p->fp);
		fputc_unlocked('%', p->fp);
	}
	}
}

/* bit i of perf's int depth mask; shifts wrap at 32 as on x86 */
static inline bool mask_bit(uint32_t mask, int i)
{
	return mask & (1u << (i & 31));
}

static void graph_line(struct cc_print *p, int depth, uint32_t mask, int margin)
{
	left_margin(p->fp, margin);
	for (int i = 0; i < depth; i++)
		fputs_unlocked(mask_bit(mask, i) ? "|          " : "           ", p->fp);
	fputc_unlocked('\n', p->fp);
}

static void graph_entry(struct cc_print *p, uint64_t hits, uint64_t count, const char *name,
			int depth, uint32_t mask, int idx, uint64_t total, int margin)
{
	left_margin(p->fp, margin);
	for (int i = 0; i < depth; i++) {
		fputc_unlocked(mask_bit(mask, i) ? '|' : ' ', p->fp);
		if (idx == 0 && i == depth - 1) {
			fputs_unlocked("--", p->fp);
			print_value(p, hits, count, total);
			fputs_unlocked("--", p->fp);
		} else {
			fputs_unlocked("          ", p->fp);
		}
	}
	fputs_unlocked(name, p->fp);
	fputc_unlocked('\n', p->fp);
}

static size_t graph_children(struct cc_print *p, const struct cc_chain *node, uint64_t total,
			     int depth, uint32_t mask, int margin)
{
	uint32_t new_mask = mask, printed = 0;
	uint64_t remaining = total, cumul_count = 0, rem_count = 0;
	bool rel = p->cc->mode == CHAIN_GRAPH_REL;
	size_t ret = 0;

	for (uint32_t k = 0; k < node->nr_children; k++) {
		const struct cc_chain *child = node->children[k];
		bool last = k + 1 == node->nr_children;

		remaining -= child->cumul;
		cumul_count += child->cumul_count;
		if (last && (!rel || !remaining))
			new_mask &= ~(1u << ((depth - 1) & 31));
		graph_line(p, depth, mask, margin);
		for (uint32_t j = 0; j < child->nr_vals; j++)
			graph_entry(p, child->cumul, child->cumul_count, val_name(p, child->vals[j]),
				    depth, new_mask, j, total, margin);
		ret++;
		graph_children(p, child, rel ? child->children_hit : total, depth + 1,
			       new_mask | (1u << (depth & 31)), margin);
		if (++printed == p->cc->print_limit)
			break;
	}
	if (rel && remaining && remaining != total) {
		/* as perf: with -g ...,count the count of the hidden children,
		 * and no "[...]" line when there is none */
		if (p->cc->value == CCVAL_COUNT) {
			uint64_t children_count = node->cumul_count - node->count;

			if (children_count <= cumul_count)
				return ret;
			rem_count = children_count - cumul_count;
		}
		new_mask &= ~(1u << ((depth - 1) & 31));
		graph_entry(p, remaining, rem_count, "[...]", depth, new_mask, 0, total, margin);
		ret++;
	}
	return ret;
}

static void print_graph(struct cc_print *p, const struct cc_display *d, uint64_t total,
			uint64_t parent_samples, bool skip_first)
{
	const struct cc_chain *node = d->root;
	int margin = 0;
	size_t ret = 0;

	if (node->nr_children == 1 && node->children[0]->cumul == parent_samples) {
		const struct cc_chain *c = node->children[0];
		bool printed = false;
		uint32_t n = 0;

		for (uint32_t i = 0; i < c->nr_vals; i++) {
			if (i == 0 && skip_first)
				continue;
			if (!printed) {
				left_margin(p->fp, margin);
				fputs("|\n", p->fp);
				left_margin(p->fp, margin);
				fputs("---", p->fp);
				margin += 3;
				printed = true;
			} else {
				left_margin(p->fp, margin);
			}
			fprintf(p->fp, "%s\n", val_name(p, c->vals[i]));
			ret++;
			if (++n == p->cc->print_limit)
				break;
		}
		node = c;
	}
	if (p->cc->mode == CHAIN_GRAPH_REL)
		total = parent_samples;
	ret += graph_children(p, node, total, 1, 1, margin);
	if (ret)
		fputc('\n', p->fp);
}

static void flat_path(struct cc_print *p, const struct cc_chain *c, bool folded, bool *first)
{
	if (!c)
		return;
	flat_path(p, c->parent, folded, first);
	for (uint32_t i = 0; i < c->nr_vals; i++) {
		if (folded) {
			fprintf(p->fp, "%s%s", *first ? "" : p->sep, val_name(p, c->vals[i]));
			*first = false;
		} else {
			fprintf(p->fp, "                %s\n", val_name(p, c->vals[i]));
		}
	}
}

static void print_flat(struct cc_print *p, const struct cc_display *d, uint64_t total, bool folded)
{
	for (uint32_t i = 0; i < d->nr_flat; i++) {
		const struct cc_chain *c = d->flat[i];
		bool first = true;

		if (folded) {
			print_value(p, c->hit, c->count, total);
			fputc(' ', p->fp);
			flat_path(p, c, true, &first);
			fputc('\n', p->fp);
		} else {
			fputs("           ", p->fp);
			print_value(p, c->cumul, c->cumul_count, total);
			fputc('\n', p->fp);
			flat_path(p, c, false, &first);
			fputc('\n', p->fp);
		}
		if (i + 1 == p->cc->print_limit)
			break;
	}
}

static int entry_callchain__fprintf(struct hists *hists, const struct hist_entry *he,
				    const struct callchain_param *cc, bool skip_first,
				    const char *sep, FILE *fp)
{
	struct cc_display d;
	struct cc_print p = { .fp = fp, .store = &hists->store, .cc = cc, .sep = sep ? sep : ";" };
	uint64_t parent = hists->so->cumulate ? he->period_acc : he->period;
	uint64_t total = hists->abs_total_period ? hists->abs_total_period : hists->total_period;
	int err;

	if (!he->cc_root || cc->mode == CHAIN_NONE)
		return 0;
	err = callchain_store__display(&hists->store, he->cc_root, cc, hists->total_period, &d);
	if (err)
		return err;
	switch (cc->mode) {
	case CHAIN_GRAPH_ABS:
	case CHAIN_GRAPH_REL:
		print_graph(&p, &d, total, parent, skip_first);
		break;
	case CHAIN_FLAT:
		print_flat(&p, &d, total, false);
		break;
	case CHAIN_FOLDED:
		print_flat(&p, &d, total, true);
		break;
	default:
		break;
	}
	cc_display__exit(&d);
	return 0;
}

/* ---- table ---- */

static bool col_right_aligned(int type)
{
	return type >= HPP_OVERHEAD;
}

static void print_headers(const struct sort_order *so, const char *sep, FILE *fp)
{
	bool first = true;

	fputs("# ", fp);
	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type, w = so->cols[c].width;

		if (so->cols[c].elide)
			continue;
		if (!first)
			fputs(sep ? sep : "  ", fp);
		first = false;
		if (col_right_aligned(t))
			fprintf(fp, "%*s", w, sort_column__header(so, t));
		else
			fprintf(fp, "%-*s", w, sort_column__header(so, t));
	}
	if (sep) {
		/* perf: no ruler and no closing '#' line with -t */
		fputc('\n', fp);
		return;
	}
	fputs("\n# ", fp);
	first = true;
	for (int c = 0; c < so->nr_cols; c++) {
		if (so->cols[c].elide)
			continue;
		if (!first)
			fputs("  ", fp);
		first = false;
		for (int i = 0; i < so->cols[c].width; i++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

/*
 * An entry line is built in memory and written once, percentages by
 * fmt_2f() (printf's text at a fraction of its cost): that matters with
 * hundreds of thousands of entries.
 */
struct line {
	FILE *fp;
	size_t len;
	char buf[8192];
};

static void line_flush(struct line *l)
{
	if (l->len)
		fwrite_unlocked(l->buf, 1, l->len, l->fp);
	l->len = 0;
}

static void line_put(struct line *l, const char *s, size_t n)
{
	if (l->len + n > sizeof(l->buf)) {
		line_flush(l);
		if (n > sizeof(l->buf)) {
			fwrite_unlocked(s, 1, n, l->fp);
			return;
		}
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void line_pad(struct line *l, int n)
{
	while (n > 0) {
		int k = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;

		line_put(l, spaces, (size_t)k);
		n -= k;
	}
}

/* " %*.2f%%" with width - 1 digits, as perf: a value wider than that
 * (1000% and more: children with the time key, relative percentages)
 * keeps its leading space */
static void put_percent(struct line *l, int width, uint64_t v, double total)
{
	char num[64];
	int n = fmt_2f(num + 1, width - 1, total ? 100.0 * (double)v / total : 0.0);

	num[0] = ' ';
	line_put(l, num, (size_t)n + 1);
	line_put(l, "%", 1);
}

/* "[k] name" or "[k] name (inlined)" of a resolved symbol entry, built
 * directly; false when hist_entry__key_snprintf() must do it */
static bool put_sym(struct line *l, const struct hist_entry *he, int type, int *len)
{
	size_t n;
	char lvl[4] = { '[', he->level, ']', ' ' };

	if (type != SORT_SYM || !he->sym)
		return false;
	n = strlen(he->sym->name);
	if (n > 4000)
		return false;	/* key_snprintf()'s cut */
	line_put(l, lvl, 4);
	line_put(l, he->sym->name, n);
	if (he->sym->inlined) {
		line_put(l, " (inlined)", 10);
		n += 10;
	}
	*len = (int)n + 4;
	return true;
}

/* A value column (t >= HPP_OVERHEAD) of he, w wide; false for a key. */
static bool put_value(struct line *l, const struct hist_entry *he, int t, int w, double total)
{
	char buf[64];
	int n;

	switch (t) {
	case HPP_OVERHEAD:
		put_percent(l, w - 1, he->period, total);
		return true;
	case HPP_CHILDREN:
		put_percent(l, w - 1, he->period_acc, total);
		return true;
	case HPP_OVERHEAD_SYS:
		put_percent(l, w - 1, he->period_sys, total);
		return true;
	case HPP_OVERHEAD_US:
		put_percent(l, w - 1, he->period_us, total);
		return true;
	case HPP_SAMPLE:
	case HPP_PERIOD:
		n = snprintf(buf, sizeof(buf), "%*" PRIu64, w < 40 ? w : 40,
			     t == HPP_SAMPLE ? he->nr_samples : he->period);
		line_put(l, buf, (size_t)n);
		return true;
	default:
		return false;
	}
}

static void print_entry_line(const struct hists *hists, const struct sort_order *so,
			     const struct hist_entry *he, const struct hist_group *g,
			     const struct hist_entry *const *pairs, FILE *fp)
{
	char buf[4096];
	double total = (double)hists->total_period;
	struct line l;
	/* "another column follows" counts a column a filter elided (perf
	 * pads a symbol before an elided comm) */
	int lastc = so->nr_cols - 1;

	l.fp = fp;
	l.len = 0;
	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type, w = so->cols[c].width, n;
		bool last = c == lastc;
		const char *text;

		if (so->cols[c].elide)
			continue;
		line_put(&l, "  ", 2);
		if (unlikely(g != NULL) && t >= HPP_OVERHEAD) {
			/* --group: the members' values, each of w / nr */
			static const struct hist_entry none;

			for (int m = 0; m < g->nr; m++)
				put_value(&l, pairs[m] ? pairs[m] : &none, t, w / g->nr,
					  (double)g->hists[m]->total_period);
			continue;
		}
		if (put_value(&l, he, t, w, total))
			continue;
		switch (t) {
		case SORT_CPU:
		case SORT_SOCKET:
		case SORT_DSO_SIZE:
		case SORT_SYM_SIZE:
			n = hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
			line_pad(&l, w - n);
			line_put(&l, buf, (size_t)n);
			break;
		case SORT_SYM:
		case SORT_SYMOFF:
		case SORT_SRCLINE:
		case SORT_TRACE:
		case SORT_TIME:
		case SORT_SRCFILE:
		case SORT_CGROUP:
		case SORT_BLOCKED:
		case SORT_LOCKED:
			/* perf pads these only when another column follows
			 * (and cuts the time to its column) */
			if (!put_sym(&l, he, t, &n)) {
				n = hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
				if (t == SORT_TIME && n > w)
					n = w;
				line_put(&l, buf, (size_t)n);
			}
			if (!last)
				line_pad(&l, w - n);
			break;
		default:
			/* comm, dso, parent, pid: padded and cut to the column
			 * width ("%7d:comm" for pid, as perf) */
			text = hist_entry__key_text(he, t);
			if (text) {
				n = (int)strnlen(text, sizeof(buf) - 1);
			} else {
				n = hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
				text = buf;
			}
			if (n > w)
				n = w;
			line_put(&l, text, (size_t)n);
			line_pad(&l, w - n);
		}
	}
	line_put(&l, "\n", 1);
	line_flush(&l);
}

/*
 * An entry line with -t/--field-separator, as perf 6.1 prints it: the
 * columns joined by sep (none before the first); values with their
 * leading space and no width (" 12.34%", " 42"), then padded to the
 * column width like the keys, except the last column; in key texts each
 * occurrence of sep's first character becomes '.'.
 */
static void print_entry_line_sep(const struct hists *hists, const struct sort_order *so,
				 const struct hist_entry *he, const char *sep, FILE *fp)
{
	char buf[4096];
	double total = (double)hists->total_period;
	int lastc = so->nr_cols - 1;	/* elided columns count, as above */
	bool first = true;

	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type, w = so->cols[c].width, n;
		uint64_t v;

		if (so->cols[c].elide)
			continue;
		if (!first)
			fputs(sep, fp);
		first = false;
		switch (t) {
		case HPP_OVERHEAD:
		case HPP_CHILDREN:
		case HPP_OVERHEAD_SYS:
		case HPP_OVERHEAD_US:
			v = t == HPP_OVERHEAD ? he->period : t == HPP_CHILDREN ? he->period_acc :
			    t == HPP_OVERHEAD_SYS ? he->period_sys : he->period_us;
			n = snprintf(buf, sizeof(buf), " %.2f%%", total ? 100.0 * (double)v / total : 0.0);
			break;
		case HPP_SAMPLE:
		case HPP_PERIOD:
			n = snprintf(buf, sizeof(buf), " %" PRIu64,
				     t == HPP_SAMPLE ? he->nr_samples : he->period);
			break;
		default:
			n = hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
			for (char *p = buf; (p = strchr(p, sep[0])); )
				*p++ = '.';
			if (t == SORT_CPU || t == SORT_SOCKET || t == SORT_DSO_SIZE || t == SORT_SYM_SIZE) {
				fprintf(fp, "%*s%s", n < w ? w - n : 0, "", buf);
				continue;
			} else if (t == SORT_TIME) {
				if (n > w)
					n = w;
			} else if (t != SORT_SYM && t != SORT_SYMOFF && t != SORT_SRCLINE &&
				   t != SORT_TRACE && t != SORT_SRCFILE && t != SORT_CGROUP) {
				/* comm, dso, parent, pid: cut and padded to the
				 * width, also in the last column */
				if (n > w)
					n = w;
				fwrite(buf, 1, (size_t)n, fp);
				fprintf(fp, "%*s", w - n, "");
				continue;
			}
		}
		fwrite(buf, 1, (size_t)n, fp);
		if (c != lastc && n < w)
			fprintf(fp, "%*s", w - n, "");
	}
	fputc('\n', fp);
}

/* After an entry's line: its callchain when chain, then whether fp
 * failed. 0, -ENOMEM (callchain display) or -EPIPE. */
static int entry_after_line(struct hists *hists, const struct hist_entry *he,
			    const struct callchain_param *cc, const struct hists_fprintf_opts *opts,
			    bool chain, FILE *fp)
{
	if (chain && entry_callchain__fprintf(hists, he, cc, opts->skip_first_sym, opts->field_sep, fp))
		return -ENOMEM;
	return ferror(fp) ? -EPIPE : 0;
}

/* Print entries [from, to) of the sorted hists; entries printed, or
 * -ENOMEM (callchain display), -EPIPE (fp failed). */
static int print_entries(struct hists *hists, const struct sort_order *so,
			 const struct callchain_param *cc, const struct hists_fprintf_opts *opts,
			 size_t from, size_t to, FILE *fp)
{
	int printed = 0, ret;

	/* one lock for the run: the many small writes below then skip
	 * stdio's per-call locking, which costs once threads exist */
	flockfile(fp);
	for (size_t i = from; i < to && printed >= 0; i++) {
		const struct hist_entry *he = hists->sorted[i];

		if (he->filtered || hists__entry_percent(hists, he) < opts->min_percent)
			continue;
		if (opts->field_sep)
			print_entry_line_sep(hists, so, he, opts->field_sep, fp);
		else
			print_entry_line(hists, so, he, NULL, NULL, fp);
		ret = entry_after_line(hists, he, cc, opts, opts->use_callchain, fp);
		printed = ret < 0 ? ret : printed + 1;
	}
	funlockfile(fp);
	return printed;
}

/*
 * Formatting on several threads. Long reports (children mode with
 * callchains: hundreds of thousands of entries, tens of MB of text) spend
 * much of their time in snprintf and callchain display, which depend on
 * nothing but the entry. The sorted entries are cut into chunks; helper
 * threads format chunks ahead into memory buffers, at most PRINT_AHEAD
 * chunks past the one being written, while the calling thread walks the
 * chunks in order: it writes a chunk's buffer when the chunk is done,
 * formats a chunk nobody took straight into fp, and while a helper is
 * still on its chunk formats the next free chunk ahead into a buffer as a
 * helper would (otherwise, with helpers always ahead, it would only ever
 * write and wait). The text is the same as the single-threaded loop's.
 */
#define PRINT_CHUNK 256		/* entries per chunk */
#define PRINT_AHEAD 16		/* chunks buffered ahead of the writer */
#define PRINT_MAX_HELPERS 7

enum { CHUNK_QUEUED, CHUNK_BUSY, CHUNK_DONE };

struct print_chunk {
	int state;
	int ret;		/* print_entries() result */
	char *buf;		/* formatted text (open_memstream) */
	size_t len;
};

struct print_par {
	struct hists *hists;
	const struct sort_order *so;
	const struct callchain_param *cc;
	const struct hists_fprintf_opts *opts;
	struct print_chunk *chunks;
	size_t nr_chunks;
	size_t next;		/* next chunk to format ahead */
	size_t writing;		/* chunk the writer is on */
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* chunk done, writer moved, stop */
};

static void chunk_range(const struct print_par *pp, size_t k, size_t *from, size_t *to)
{
	*from = k * PRINT_CHUNK;
	*to = *from + PRINT_CHUNK < pp->hists->nr_sorted ? *from + PRINT_CHUNK
							 : pp->hists->nr_sorted;
}

/*
 * Called with pp->lock held, returns with it held: format the next
 * queued chunk within PRINT_AHEAD of the writer into its buffer. false
 * when there is none to take now.
 */
static bool format_ahead(struct print_par *pp)
{
	struct print_chunk *c;
	size_t from, to;
	FILE *mem;

	while (pp->next < pp->nr_chunks && pp->next < pp->writing + PRINT_AHEAD &&
	       pp->chunks[pp->next].state != CHUNK_QUEUED)
		pp->next++;		/* the writer took it */
	if (pp->stop || pp->next >= pp->nr_chunks || pp->next >= pp->writing + PRINT_AHEAD)
		return false;
	c = &pp->chunks[pp->next++];
	c->state = CHUNK_BUSY;
	pthread_mutex_unlock(&pp->lock);

	chunk_range(pp, (size_t)(c - pp->chunks), &from, &to);
	mem = open_memstream(&c->buf, &c->len);
	if (mem) {
		c->ret = print_entries(pp->hists, pp->so, pp->cc, pp->opts, from, to, mem);
		if (fclose(mem) && c->ret >= 0)
			c->ret = -ENOMEM;
	} else {
		c->ret = -ENOMEM;
	}

	pthread_mutex_lock(&pp->lock);
	c->state = CHUNK_DONE;
	pthread_cond_broadcast(&pp->cond);
	return true;
}

static void *print_helper(void *arg)
{
	struct print_par *pp = arg;

	pthread_mutex_lock(&pp->lock);
	while (!pp->stop && pp->next < pp->nr_chunks)
		if (!format_ahead(pp) && !pp->stop && pp->next < pp->nr_chunks)
			pthread_cond_wait(&pp->cond, &pp->lock);
	pthread_mutex_unlock(&pp->lock);
	return NULL;
}

static int print_parallel(struct print_par *pp, int nr_helpers, FILE *fp)
{
	struct helper_thread thr[PRINT_MAX_HELPERS];
	int started = 0, printed = 0, ret = 0;

	for (; started < nr_helpers; started++)
		if (helper_thread__start(&thr[started], print_helper, pp))
			break;
	for (size_t k = 0; k < pp->nr_chunks && ret >= 0; k++) {
		struct print_chunk *c = &pp->chunks[k];
		bool mine = false;

		pthread_mutex_lock(&pp->lock);
		pp->writing = k;
		pthread_cond_broadcast(&pp->cond);
		if (c->state == CHUNK_QUEUED) {
			c->state = CHUNK_BUSY;
			mine = true;
		}
		while (!mine && c->state != CHUNK_DONE)
			if (!format_ahead(pp) && c->state != CHUNK_DONE)
				pthread_cond_wait(&pp->cond, &pp->lock);
		pthread_mutex_unlock(&pp->lock);

		if (mine) {
			size_t from, to;

			chunk_range(pp, k, &from, &to);
			ret = print_entries(pp->hists, pp->so, pp->cc, pp->opts, from, to, fp);
		} else {
			ret = c->ret;
			if (ret >= 0 && c->len && fwrite(c->buf, 1, c->len, fp) != c->len)
				ret = -EPIPE;
			free(c->buf);
			c->buf = NULL;
		}
		if (ret >= 0)
			printed += ret;
		if (ret >= 0 && ferror(fp))
			ret = -EPIPE;
	}
	pthread_mutex_lock(&pp->lock);
	pp->stop = true;
	pthread_cond_broadcast(&pp->cond);
	pthread_mutex_unlock(&pp->lock);
	for (int i = 0; i < started; i++)
		helper_thread__join(&thr[i]);
	for (size_t k = 0; k < pp->nr_chunks; k++)
		free(pp->chunks[k].buf);
	return ret < 0 ? ret : printed;
}

int hists__fprintf(struct hists *hists, const struct sort_order *so,
		   const struct callchain_param *cc, const struct hists_fprintf_opts *opts,
		   FILE *fp)
{
	size_t nr_chunks = (hists->nr_sorted + PRINT_CHUNK - 1) / PRINT_CHUNK;
	int helpers = psort_threads() - 1;
	struct print_par pp = {
		.hists = hists, .so = so, .cc = cc, .opts = opts, .nr_chunks = nr_chunks,
		.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
	};
	int ret;

	if (opts->show_header)
		print_headers(so, opts->field_sep, fp);
	if (helpers > PRINT_MAX_HELPERS)
		helpers = PRINT_MAX_HELPERS;
	if (helpers < 1 || nr_chunks < 4 ||
	    !(pp.chunks = calloc(nr_chunks, sizeof(*pp.chunks))))
		return print_entries(hists, so, cc, opts, 0, hists->nr_sorted, fp);
	ret = print_parallel(&pp, helpers, fp);
	free(pp.chunks);
	return ret;
}

/* ---- --hierarchy ---- */

#define HIER_INDENT 3	/* perf's indent per level */

/*
 * A key as perf 6.1 prints it in a hierarchy line: the entry's own text
 * (comm, dso, pid and parent cut and padded to the column, the others as
 * they are), without leading blanks (right-aligned keys become left).
 */
static void put_key_hier(struct line *l, const struct sort_order *so,
			 const struct hist_entry *he, int t, int w)
{
	char buf[4096];
	const char *text = buf;
	int n;

	if (put_sym(l, he, t, &n))
		return;
	n = hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
	if (n >= (int)sizeof(buf))
		n = (int)sizeof(buf) - 1;
	switch (t) {
	case SORT_COMM:
	case SORT_DSO:
	case SORT_PID:
	case SORT_PARENT:
		if (n > w)
			n = w;
		while (n > 0 && *text == ' ') {
			text++;
			n--;
			w--;
		}
		line_put(l, text, (size_t)n);
		line_pad(l, w - n);
		return;
	case SORT_TIME:
		if (n > w)
			n = w;
		break;
	default:
		break;
	}
	while (n > 0 && *text == ' ') {
		text++;
		n--;
	}
	line_put(l, text, (size_t)n);
}

static void print_hier_headers(const struct sort_order *so, const struct hier_rows *hr, FILE *fp)
{
	int indent = (hr->nr_levels - 1) * HIER_INDENT, vwidth = 0, kwidth = 0, level = 0;
	bool first = true;
	const char *hdr;

	fputs("# ", fp);
	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type, w = so->cols[c].width;

		if (so->cols[c].elide || t < HPP_OVERHEAD)
			continue;
		if (first) {
			w += indent;
		} else {
			fputs("  ", fp);
			vwidth += 2;
		}
		first = false;
		fprintf(fp, "%*s", w, sort_column__header(so, t));
		vwidth += w;
	}
	fputs("  ", fp);
	/* the key column: the joined headers, or the widest indented level */
	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type;

		if (so->cols[c].elide || t >= HPP_OVERHEAD)
			continue;
		hdr = sort_column__header(so, t);
		hdr += strspn(hdr, " ");	/* "Pid:Command" without its indent */
		if (level)
			fputs(" / ", fp);
		fputs(hdr, fp);
		kwidth += (level ? 3 : 0) + (int)strlen(hdr);
		level++;
	}
	level = 0;
	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type;

		if (so->cols[c].elide || t >= HPP_OVERHEAD)
			continue;
		if (level * HIER_INDENT + so->cols[c].width > kwidth)
			kwidth = level * HIER_INDENT + so->cols[c].width;
		level++;
	}
	fputs("\n# ", fp);
	for (int i = 0; i < vwidth; i++)
		fputc('.', fp);
	fputs("  ", fp);
	for (int i = 0; i < kwidth; i++)
		fputc('.', fp);
	fputs("\n#\n", fp);
}

static bool hier_row_shown(const struct hists *hists, const struct hier_row *row, double min_percent)
{
	return !row->hidden && hists__entry_percent(hists, row->he) >= min_percent;
}

/* Whether a direct child of the inner row at i is shown. */
static bool hier_child_shown(const struct hists *hists, const struct hier_rows *hr, size_t i,
			     double min_percent)
{
	int depth = hr->rows[i].depth;

	for (size_t k = i + 1; k < hr->nr && hr->rows[k].depth > depth; k++)
		if (hr->rows[k].depth == depth + 1 && hier_row_shown(hists, &hr->rows[k], min_percent))
			return true;
	return false;
}

/* Width of the value area: the value columns, the first widened by the
 * levels' indent. */
static int hier_value_width(const struct sort_order *so, const struct hier_rows *hr)
{
	int w = (hr->nr_levels - 1) * HIER_INDENT, n = 0;

	for (int c = 0; c < so->nr_cols; c++)
		if (!so->cols[c].elide && so->cols[c].type >= HPP_OVERHEAD)
			w += (n++ ? 2 : 0) + so->cols[c].width;
	return w;
}

int hists__fprintf_hierarchy(struct hists *hists, const struct sort_order *so,
			     const struct callchain_param *cc,
			     const struct hists_fprintf_opts *opts, FILE *fp)
{
	double total = (double)hists->total_period;
	struct hier_rows hr;
	int printed = 0, skip_below = -1, vwidth, err;
	struct line l = { .fp = fp };

	err = hier_rows__build(&hr, hists, so);
	if (err)
		return err;
	vwidth = hier_value_width(so, &hr);
	if (opts->show_header)
		print_hier_headers(so, &hr, fp);
	flockfile(fp);
	for (size_t i = 0; i < hr.nr && printed >= 0; i++) {
		const struct hier_row *row = &hr.rows[i];
		int indent = (hr.nr_levels - 1) * HIER_INDENT;

		if (skip_below >= 0 && row->depth > skip_below)
			continue;
		skip_below = -1;
		/* a node hidden (filtered, under --percent-limit) hides all below */
		if (!hier_row_shown(hists, row, opts->min_percent)) {
			skip_below = row->depth;
			continue;
		}
		line_pad(&l, 2 + row->depth * HIER_INDENT);
		for (int c = 0, first = 1; c < so->nr_cols; c++) {
			int t = so->cols[c].type;

			if (so->cols[c].elide || t < HPP_OVERHEAD)
				continue;
			if (!first)
				line_put(&l, "  ", 2);
			first = 0;
			put_value(&l, row->he, t, so->cols[c].width, total);
		}
		/* the value area is as wide on every level; the key is
		 * indented by its level after it */
		line_pad(&l, indent + 2);
		for (int c = 0, level = 0; c < so->nr_cols; c++) {
			int t = so->cols[c].type;

			if (so->cols[c].elide || t >= HPP_OVERHEAD)
				continue;
			if (level++ == row->depth) {
				put_key_hier(&l, so, row->he, t, so->cols[c].width);
				break;
			}
		}
		line_put(&l, "\n", 1);
		line_flush(&l);
		if (!row->leaf && !hier_child_shown(hists, &hr, i, opts->min_percent)) {
			/* perf: where the next level's keys would be */
			put_spaces(fp, 2 + vwidth + 2 + (row->depth + 1) * HIER_INDENT);
			fprintf(fp, "no entry >= %.2f%%\n", opts->min_percent);
		}
		err = entry_after_line(hists, row->he, cc, opts, row->leaf && opts->use_callchain, fp);
		printed = err < 0 ? err : printed + 1;
	}
	funlockfile(fp);
	hier_rows__exit(&hr);
	return printed;
}

/* ---- --group ---- */

int hists__fprintf_group(const struct hist_group *g, const struct sort_order *so,
			 const struct callchain_param *cc, const struct hists_fprintf_opts *opts,
			 FILE *fp)
{
	struct sort_order gso = *so;
	int widths[SORT_MAX_COLUMNS], printed = 0, ret;
	struct hists *leader = g->hists[0];

	/* key columns as wide as the rows' texts; each value column holds
	 * one value per member */
	hist_entries__col_widths(so, g->rows, g->nr_rows, widths);
	for (int c = 0; c < gso.nr_cols; c++) {
		int t = gso.cols[c].type;

		if (t < HPP_OVERHEAD) {
			gso.cols[c].width = widths[c];
		} else {
			int min = (int)strlen(sort_column__header(so, t));

			gso.cols[c].width = so->cols[c].width * g->nr;
			if (gso.cols[c].width < min)
				gso.cols[c].width = min;
		}
	}
	if (opts->show_header)
		print_headers(&gso, NULL, fp);
	flockfile(fp);
	for (size_t i = 0; i < g->nr_rows && printed >= 0; i++) {
		const struct hist_entry *he = g->rows[i];
		const struct hist_entry *const *pairs = &g->pairs[i * (size_t)g->nr];

		if (he->filtered || (pairs[0] && hists__entry_percent(leader, he) < opts->min_percent) ||
		    (!pairs[0] && opts->min_percent > 0))
			continue;
		print_entry_line(leader, &gso, he, g, pairs, fp);
		ret = entry_after_line(leader, he, cc, opts, opts->use_callchain && pairs[0], fp);
		printed = ret < 0 ? ret : printed + 1;
	}
	funlockfile(fp);
	return printed;
}

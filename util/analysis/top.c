// SPDX-License-Identifier: GPL-2.0
/*
 * prf top's header counts, entry ageing and view (see top.h).
 */
#include <errno.h>
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "top.h"
#include "hist.h"
#include "sort.h"
#include "../lib/debug.h"
#include "../lib/tunables.h"
#include "../lib/util.h"
#include "../model/dso.h"
#include "../model/machine.h"
#include "../model/map.h"
#include "../session/resolve.h"
#include "../format/event.h"
#include "../format/sample-parse.h"


int top__header(char *buf, size_t size, const struct top_counts *c, const struct top_header *h)
{
	double secs = h->delay_secs > 0 ? h->delay_secs : 1;
	double rate = 0, kpct = 0, epct = 0;
	int n;

	if (c->samples) {
		rate = (double)c->samples / secs;
		kpct = 100.0 * (double)c->kernel / (double)c->samples;
		epct = 100.0 * (double)c->exact / (double)c->samples;
	}
	n = snprintf(buf, size, "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% "
		     "lost: %" PRIu64 "/%" PRIu64 " drop: 0/0 [",
		     rate, kpct, epct, c->lost, c->lost_total);
	if (h->one_event)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "%" PRIu64 "%s ",
			      h->period, h->freq ? "Hz" : "");
	n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "%s],  (", h->evname);
	if (h->pid_str)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "target_pid: %s", h->pid_str);
	else if (h->tid_str)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "target_tid: %s", h->tid_str);
	else
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "all");
	if (h->cpu_list)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, ", CPU%s: %s)",
			      h->nr_cpus > 1 ? "s" : "", h->cpu_list);
	else if (h->pid_str || h->tid_str)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, ")");
	else
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, ", %d CPU%s)", h->nr_cpus,
			      h->nr_cpus > 1 ? "s" : "");
	return n < (int)size ? n : (int)size - 1;
}

void top__title(char *buf, size_t size, const struct hists *hists, const struct top_counts *c,
		const struct top_header *h, bool zero)
{
	const char *units = " KMG";
	uint64_t n = hists->nr_samples;
	int u = 0, len;

	while (n > 1000 && u < 3) {
		n /= 1000;
		u++;
	}
	len = snprintf(buf, size, "Samples: %" PRIu64 "%c of event '%s', ", n, units[u], h->evname);
	if (h->freq && len >= 0 && (size_t)len < size)
		len += snprintf(buf + len, size - (size_t)len, "%" PRIu64 " Hz, ", h->period);
	if (len >= 0 && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, "Event count (approx.): %" PRIu64
			 " lost: %" PRIu64 "/%" PRIu64 " drop: 0/0%s", hists->total_period,
			 c->lost, c->lost_total, zero ? " [z]" : "");
}

static bool entry_alive(const struct hist_entry *he, void *arg)
{
	(void)arg;
	return he->period || he->period_acc;
}

/*
 * Whether hists are to be rebuilt with the entries and callchain nodes
 * still alive: entries gone to 0 are half of them (a sample decays for
 * some 90 refreshes, so a busy machine's entries of one sample each,
 * unresolved addresses, are most of what top keeps, and they are not kept
 * more than twice over), or the callchain store has twice the nodes it
 * had after its last rebuild (the chains of processes long gone stay in
 * the tries of live entries, a DSO reference per frame, until then).
 */
static bool top_hists__compact_due(const struct hists *hists, size_t alive)
{
	size_t min = (size_t)tunable__int(TUNABLE_TOP_COMPACT_MIN);
	const struct callchain_store *st = &hists->store;

	if (hists->nr_entries >= min && hists->nr_entries >= 2 * alive)
		return true;
	return st->nr_nodes >= min && st->nr_nodes / 2 >= st->copied_nodes;
}

int top_hists__decay(struct hists *hists)
{
	struct callchain_store *st = &hists->store;
	uint64_t total = 0;
	size_t alive = 0;
	struct hists fresh;
	const struct sort_order *so;
	const struct callchain_param *cc;
	bool use_cc, hold;
	int err;

	bool by_sym = sort_order__has_key(hists->so, SORT_SYM);

	for (size_t b = 0; hists->htab && b <= hists->hmask; b++) {
		for (struct hist_entry *he = hists->htab[b]; he; he = he->next) {
			/* an unresolved address no sample hit for a while
			 * (its count aged to 0) fades by half (see top.h) */
			unsigned int keep = by_sym && !he->sym && !he->nr_samples &&
					    !he->nr_samples_acc ? 4 : 7;

			he->period = he->period * keep / 8;
			he->period_sys = he->period_sys * keep / 8;
			he->period_us = he->period_us * keep / 8;
			he->period_acc = he->period_acc * keep / 8;
			he->nr_samples = he->nr_samples * 7 / 8;
			he->nr_samples_acc = he->nr_samples_acc * 7 / 8;
			total += he->period;
			alive += he->period || he->period_acc;
		}
	}
	hists->total_period = total;
	for (uint32_t i = 1; st->nodes && i < st->nr_nodes; i++) {
		st->nodes[i].hit = st->nodes[i].hit * 7 / 8;
		st->nodes[i].count = st->nodes[i].count * 7 / 8;
	}
	pr_debug2("top: %zu entries, %zu with a period left; %u callchain nodes, %u frames\n",
		  hists->nr_entries, alive, st->nr_nodes, st->nr_frames);
	if (!top_hists__compact_due(hists, alive))
		return 0;
	so = hists->so;
	cc = hists->cc;
	use_cc = hists->use_callchain;
	hold = hists->hold_refs;
	if (hists__init(&fresh, so, cc, use_cc))
		return -ENOMEM;
	err = hists__compact(&fresh, hists, entry_alive, NULL);
	hists__exit(hists);
	if (err) {
		hists__exit(&fresh);
		if (!hists__init(hists, so, cc, use_cc) && hold)
			hists__hold_refs(hists);
		return err;
	}
	*hists = fresh;
	/* the old hists' blocks back to the system: the new ones were
	 * allocated while those were still in use, so without this the
	 * heap keeps the high mark of both */
#ifdef __GLIBC__
	malloc_trim(0);
#endif
	return 0;
}

size_t top__release_exited(struct machine *machine, struct hists *hists, size_t nr,
			   size_t *nr_dsos)
{
	size_t released = machine__release_exited(machine);
	size_t dsos = machine__release_unused_dsos(machine);

	if (released || dsos)
		for (size_t i = 0; i < nr; i++)
			if (hists[i].priv)
				hists__forget_memos(&hists[i]);
	pr_debug2("top: %zu exited threads released, %zu in the model, %zu not yet freed; "
		  "%zu DSOs released, %zu in the model, %zu not yet freed\n",
		  released, machine__nr_threads(machine), thread__nr_alive(), dsos,
		  machine__nr_dsos(machine), dso__nr_alive());
	*nr_dsos += dsos;
	return released;
}

void top__fprintf_model(FILE *fp, const struct machine *machine, size_t released,
			size_t dsos_released)
{
	fprintf(fp, "prf top: %zu exited threads released, %zu threads in the model, %zu not yet freed\n",
		released, machine__nr_threads(machine), thread__nr_alive());
	fprintf(fp, "prf top: %zu unused DSOs released, %zu DSOs in the model, %zu not yet freed\n",
		dsos_released, machine__nr_dsos(machine), dso__nr_alive());
}

size_t top_hists__narrow(struct hists *hists, struct sort_order *so, const struct top_view *v)
{
	int widths[SORT_MAX_COLUMNS];
	size_t n = 0;

	for (size_t i = 0; i < hists->nr_sorted; i++) {
		struct hist_entry *he = hists->sorted[i];
		bool kernel = he->level != '.';

		if (v->max_entries && n == v->max_entries)
			break;
		if (he->filtered || !(so->cumulate ? he->period_acc : he->period))
			continue;
		if ((v->hide_kernel && kernel) || (v->hide_user && !kernel))
			continue;
		if (hists__entry_percent(hists, he) < v->min_percent)
			continue;
		hists->sorted[n++] = he;
	}
	hists->nr_sorted = n;
	hist_entries__col_widths(so, hists->sorted, n, widths);
	for (int c = 0; c < so->nr_cols; c++)
		so->cols[c].width = widths[c];
	return n;
}

/* A held record's header in top_held.buf; the record follows (padded to
 * 8 bytes), then its frames, then its comm (NUL-terminated). */
struct held_rec {
	struct evsel *evsel;
	size_t size;			/* of the record */
	size_t len;			/* of all of it, header included */
	struct thread *thread;		/* a reference */
	struct addr_location al;	/* al.map: a reference */
	unsigned int nr_frames;		/* each frame's map: a reference */
	bool truncated, discarded;
};

static inline size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int top_held__add(struct top_held *h, const union perf_event *event,
		  const struct resolved_sample *rs, bool chain)
{
	size_t size = event->header.size;
	const char *comm = rs->comm ? rs->comm : "";
	unsigned int nr = chain ? rs->cursor.nr : 0;
	size_t frames = nr * sizeof(struct callchain_frame);
	size_t need = align8(sizeof(struct held_rec) + align8(size) + frames + strlen(comm) + 1);
	struct held_rec r = {
		.evsel = rs->evsel, .size = size, .len = need, .thread = thread__get(rs->thread),
		.al = rs->al, .nr_frames = nr,
		.truncated = chain && rs->cursor.truncated, .discarded = chain && rs->cursor.discarded,
	};
	char *p;

	if (buf__reserve(&h->buf, &h->cap, h->len + need, 64 << 10)) {
		thread__put(r.thread);
		return -ENOMEM;
	}
	p = h->buf + h->len;
	r.al.map = map__get(rs->al.map);
	memcpy(p, &r, sizeof(r));
	p += sizeof(r);
	memcpy(p, event, size);
	p += align8(size);
	if (nr)
		memcpy(p, rs->cursor.frames, frames);
	for (unsigned int i = 0; i < nr; i++)
		map__get(rs->cursor.frames[i].map);
	strcpy(p + frames, comm);
	h->len += need;
	h->nr++;
	return 0;
}

/* Drop the references of the held record at r. */
static void held_rec__put(const char *r)
{
	struct held_rec hr;
	struct callchain_frame f;
	const char *frames;

	memcpy(&hr, r, sizeof(hr));
	frames = r + sizeof(hr) + align8(hr.size);
	thread__put(hr.thread);
	map__put(hr.al.map);
	for (unsigned int i = 0; i < hr.nr_frames; i++) {
		memcpy(&f, frames + i * sizeof(f), sizeof(f));
		map__put(f.map);
	}
}

/* The symbol of a held location whose DSO had none when it came: looked
 * up in the map it came with (loading, or deferring again). */
static void held__find_symbol(struct map *map, uint64_t addr, struct symbol **sym)
{
	if (!*sym && map && map->dso)
		*sym = dso__find_symbol(map->dso, addr);
}

int top_held__replay(struct top_held *h, struct resolved_sample *rs,
		     int (*fn)(void *arg, union perf_event *event, struct resolved_sample *rs,
			       unsigned long deferrals),
		     void *arg)
{
	struct top_held old = *h;
	int err = 0;

	memset(h, 0, sizeof(*h));
	for (size_t off = 0; off < old.len; off += ((struct held_rec *)(old.buf + off))->len) {
		struct held_rec r;
		union perf_event *event;
		struct perf_sample sample;
		const char *frames;
		unsigned long deferrals = dso__load_deferrals();

		memcpy(&r, old.buf + off, sizeof(r));
		if (err)
			continue;	/* dropped: only their references put below */
		event = (union perf_event *)(old.buf + off + sizeof(r));
		frames = (const char *)event + align8(r.size);
		if (evsel__parse_sample(r.evsel, event, &sample))
			continue;	/* parsed once already: never */
		rs->sample = &sample;
		rs->evsel = r.evsel;
		rs->thread = r.thread;
		rs->comm = frames + r.nr_frames * sizeof(struct callchain_frame);
		rs->al = r.al;
		held__find_symbol(rs->al.map, rs->al.addr, &rs->al.sym);
		rs->cursor.nr = 0;
		for (unsigned int i = 0; i < r.nr_frames && !err; i++) {
			struct callchain_frame f;

			memcpy(&f, frames + i * sizeof(f), sizeof(f));
			held__find_symbol(f.map, f.addr, &f.sym);
			err = callchain_cursor__append(&rs->cursor, &f);
		}
		rs->cursor.truncated = r.truncated;
		rs->cursor.discarded = r.discarded;
		rs->cursor.chain_id = 0;	/* not the cache's: no memo by it */
		if (!err)
			err = fn(arg, event, rs, deferrals);
	}
	for (size_t off = 0; off < old.len; off += ((struct held_rec *)(old.buf + off))->len)
		held_rec__put(old.buf + off);
	free(old.buf);
	return err;
}

void top_held__exit(struct top_held *h)
{
	for (size_t off = 0; off < h->len; off += ((struct held_rec *)(h->buf + off))->len)
		held_rec__put(h->buf + off);
	free(h->buf);
	memset(h, 0, sizeof(*h));
}

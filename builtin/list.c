// SPDX-License-Identifier: GPL-2.0
/*
 * prf list [-j] [hw|sw|cache|tracepoint|pmu|EVENT_GLOB...]
 *
 * Lists the symbolic events parse_events() accepts, in perf list's
 * sections and layout: hardware and cache events the CPU can open,
 * software events, PMU events from sysfs, the raw descriptors, then
 * tracepoints from tracefs.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "builtin.h"
#include "../ui/pager.h"
#include "../util/kernel/event-names.h"
#include "../util/kernel/pmu.h"
#include "../util/kernel/pmu-events.h"
#include "../util/kernel/tracefs.h"
#include "../util/lib/out.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/strbuf.h"
#include "../util/lib/util.h"
#include "../util/model/build-id-cache.h"
#include "../util/model/probe-cache.h"

struct list_opts {
	bool json;
	bool raw_dump;
	/* -d: 1 (prf's descriptions of symbolic events too), --no-desc: 0
	 * (none, not even a JSON event's), neither: -1 */
	int desc;
	/* --details adds a metric's expression; --long-desc and
	 * --deprecated change only the JSON events of a core PMU's model */
	bool long_desc, details, deprecated;
	const char *cputype;
};

/* One printed entry. */
struct list_entry {
	char *name;		/* "context-switches OR cs", "msr/tsc/" */
	char *event;		/* "context-switches", "msr/tsc/" */
	char *alias;		/* "cs" or NULL */
	const char *type;	/* "Software event" */
	const char *unit;	/* "software", "cpu", pmu name, "tracepoint" */
	char *encoding;		/* "type=1,config=0x3" or alias terms */
	const char *desc;	/* brief description or NULL */
	/* PMU events: the PMU's name, and a core PMU's JSON event's topic */
	char *pmu;
	const char *topic;
	const char *metric_name, *metric_expr;	/* the JSON record's, --details */
	bool core;		/* of a CPU core PMU: listed first */
};

struct list_state {
	const struct list_opts *o;
	struct out w;
	bool first_json;
	int printed;
};

static const char *const sw_desc[] = {
	"Per-CPU high-resolution timer, counts ns",
	"Task clock, counts ns the task ran",
	"Page faults",
	"Context switches",
	"Times the task migrated to another CPU",
	"Minor page faults (no I/O)",
	"Major page faults (I/O needed)",
	"Alignment faults the kernel fixed up",
	"Instructions the kernel emulated",
	"Placeholder that counts nothing (side-band records only)",
	"Output channel for BPF programs",
	"Cgroup switches",
};

static const char *const tool_desc[] = {
	"Wall-clock time of the run, ns (prf stat)",
	"User CPU time of the command (rusage), ns (prf stat)",
	"System CPU time of the command (rusage), ns (prf stat)",
};

static const char *const hw_desc[] = {
	"CPU cycles", "Retired instructions", "Cache accesses (usually last level)",
	"Cache misses (usually last level)", "Retired branch instructions",
	"Mispredicted branches", "Bus cycles", "Stalled cycles in the frontend",
	"Stalled cycles in the backend", "Reference cycles (not scaled by frequency)",
};

static void entry__free(struct list_entry *e)
{
	free(e->name);
	free(e->event);
	free(e->alias);
	free(e->encoding);
	free(e->pmu);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct list_entry *)a)->name, ((const struct list_entry *)b)->name);
}

struct entries {
	struct list_entry *v;
	size_t n, alloc;
};

/* Room for element n of array v (size bytes each), *alloc doubled (from
 * `first`) when full: the array, moved or not, or NULL when out of
 * memory (v kept). */
static void *grow(void *v, size_t *alloc, size_t n, size_t size, size_t first)
{
	size_t na;
	void *nv;

	if (n < *alloc)
		return v;
	na = *alloc ? *alloc * 2 : first;
	nv = realloc(v, na * size);
	if (nv)
		*alloc = na;
	return nv;
}

static struct list_entry *entries__add(struct entries *es)
{
	struct list_entry *nv = grow(es->v, &es->alloc, es->n, sizeof(es->v[0]), 64);

	if (!nv)
		return NULL;
	es->v = nv;
	memset(&es->v[es->n], 0, sizeof(es->v[0]));
	return &es->v[es->n++];
}

static void entries__release(struct entries *es)
{
	for (size_t i = 0; i < es->n; i++)
		entry__free(&es->v[i]);
	free(es->v);
	es->v = NULL;
	es->n = es->alloc = 0;
}

static void print_entry(struct list_state *st, const struct list_entry *e)
{
	if (st->o->raw_dump) {
		printf("%s ", e->event);
	} else if (st->o->json) {
		struct out *w = &st->w;

		if (!st->first_json)
			fputc('\n', w->fp);
		st->first_json = false;
		out__begin_object(w, NULL);
		out__field_str(w, "Unit", e->unit);
		out__field_str(w, "EventName", e->event);
		if (e->alias)
			out__field_str(w, "EventAlias", e->alias);
		out__field_str(w, "EventType", e->type);
		if (e->desc)
			out__field_str(w, "BriefDescription", e->desc);
		if (e->encoding)
			out__field_str(w, "Encoding", e->encoding);
		out__end_object(w);
	} else {
		printf("  %-50s [%s]\n", e->name, e->type);
		if (st->o->desc > 0 && e->desc)
			printf("       [%s]\n", e->desc);
	}
	st->printed++;
}

static void print_entries(struct list_state *st, struct entries *es)
{
	if (es->n)
		qsort(es->v, es->n, sizeof(es->v[0]), entry_cmp);
	for (size_t i = 0; i < es->n; i++)
		print_entry(st, &es->v[i]);
	entries__release(es);
}

/* Glob match as perf list does for a bare word: "*word*". */
static bool glob_hit(const char *glob, const char *s)
{
	return !glob || (s && !fnmatch(glob, s, 0));
}

/* Whether the kernel lets us open this hardware/cache event (perf list
 * only lists those). User-space only, this thread, any cpu. */
static bool event_supported(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0) {
		attr.exclude_guest = 1;
		fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	}
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int add_symbols(struct entries *es, const struct event_symbol *table, const char *glob,
		       const char *type, const char *unit, const char *const *descs, bool probe)
{
	for (const struct event_symbol *s = table; s->symbol; s++) {
		struct list_entry *e;
		struct strbuf sb = STRBUF_INIT;

		if (glob && !glob_hit(glob, s->symbol) && !glob_hit(glob, s->alias))
			continue;
		if (probe && !event_supported(s->type, s->config))
			continue;
		e = entries__add(es);
		if (!e)
			return -1;
		if (s->alias)
			strbuf_addf(&sb, "%s OR %s", s->symbol, s->alias);
		else
			strbuf_addstr(&sb, s->symbol);
		e->name = strbuf_detach(&sb, NULL);
		e->event = strdup(s->symbol);
		e->alias = s->alias ? strdup(s->alias) : NULL;
		e->type = type;
		e->unit = unit;
		e->desc = descs[s - table];
		strbuf_addf(&sb, "type=%u,config=0x%llx", s->type, (unsigned long long)s->config);
		e->encoding = strbuf_detach(&sb, NULL);
	}
	return 0;
}

/* perf's paged layout (stdout into a pager; not --raw-dump or -j). */
static bool paged(const struct list_state *st)
{
	return pager_in_use() && !st->o->raw_dump && !st->o->json;
}

/* The end of a section: paged, a blank line after it when it listed
 * something since st->printed was `before` (or whatever it listed: always). */
static void section_end(struct list_state *st, int before, bool always)
{
	if (paged(st) && (always || st->printed > before))
		putchar('\n');
}

static void list_hw(struct list_state *st, const char *glob)
{
	struct entries es = { 0 };
	int before = st->printed;

	add_symbols(&es, event_symbols_hw, glob, "Hardware event", "cpu", hw_desc, true);
	print_entries(st, &es);
	section_end(st, before, false);
}

static void list_sw(struct list_state *st, const char *glob)
{
	struct entries es = { 0 };
	int before = st->printed;

	add_symbols(&es, event_symbols_sw, glob, "Software event", "software", sw_desc, false);
	print_entries(st, &es);
	section_end(st, before, false);
	/* perf lists its tool events after the software ones (also for
	 * "sw"), in their own order: print them unsorted */
	add_symbols(&es, event_symbols_tool, glob, "Tool event", "tool", tool_desc, false);
	for (size_t i = 0; i < es.n; i++)
		print_entry(st, &es.v[i]);
	entries__release(&es);
	section_end(st, 0, true);	/* perf's tool section ends so even when empty */
}

static void list_cache(struct list_state *st, const char *glob)
{
	struct entries es = { 0 };
	char name[128];
	int before = st->printed;

	for (unsigned int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!hw_cache__op_valid(t, op))
				continue;
			for (unsigned int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				uint64_t config = t | (op << 8) | (r << 16);
				struct list_entry *e;
				struct strbuf sb = STRBUF_INIT;

				hw_cache__snprintf_name(t, op, r, name, sizeof(name));
				if (!glob_hit(glob, name))
					continue;
				if (!event_supported(PERF_TYPE_HW_CACHE, config))
					continue;
				e = entries__add(&es);
				if (!e)
					break;
				e->name = strdup(name);
				e->event = strdup(name);
				e->type = "Hardware cache event";
				e->unit = "cpu";
				strbuf_addf(&sb, "type=%u,config=0x%llx", PERF_TYPE_HW_CACHE,
					    (unsigned long long)config);
				e->encoding = strbuf_detach(&sb, NULL);
			}
		}
	}
	print_entries(st, &es);
	section_end(st, before, false);
}

/*
 * perf's order of PMU events: those without a description first, then
 * by topic, a core PMU's before the others, then by name, then PMU.
 */
static int pmu_entry_cmp(const void *a, const void *b)
{
	const struct list_entry *x = a, *y = b;
	int n;

	if (!x->desc != !y->desc)
		return !!x->desc - !!y->desc;
	if (x->topic && y->topic && (n = strcmp(x->topic, y->topic)))
		return n;
	if (x->core != y->core)
		return x->core ? -1 : 1;
	n = strcmp(x->name, y->name);
	/* one alias on several PMUs (uncore_imc_0, _1): the first PMU's is
	 * listed */
	return n ? n : strcmp(x->pmu ? x->pmu : "", y->pmu ? y->pmu : "");
}

/* Print s's words from column `start` on, a new line (indented to
 * `start`) before a word that would reach column `max`, as perf list. */
static void wordwrap(const char *s, int start, int max)
{
	int column = start;

	while (*s) {
		int wlen = strcspn(s, " \t");
		int n;

		if (column + wlen >= max && column > start) {
			printf("\n%*s", start, "");
			column = start;
		}
		n = printf("%s%.*s", column > start ? " " : "", wlen, s);
		if (n <= 0)
			break;
		s += wlen;
		column += n;
		while (*s == ' ' || *s == '\t')
			s++;
	}
}

/*
 * An alias's terms as perf --details shows them: each "term=value" with a
 * number in "%#x" of its low 32 bits (perf prints them so), a bare term
 * as =0x1, other values as written.
 */
static void add_details_terms(struct strbuf *sb, const char *terms)
{
	const char *t = terms;

	while (*t) {
		size_t len = strcspn(t, ",");
		const char *eq = memchr(t, '=', len);

		if (t != terms)
			strbuf_addch(sb, ',');
		if (!eq) {
			strbuf_addf(sb, "%.*s=0x1", (int)len, t);
		} else {
			char val[128], *end;
			unsigned long long v;	/* printed truncated, as perf */

			snprintf(val, sizeof(val), "%.*s", (int)(t + len - eq - 1), eq + 1);
			v = strtoull(val, &end, 0);
			if (*val && !*end)
				strbuf_addf(sb, "%.*s=%#x", (int)(eq - t), t, (unsigned int)v);
			else
				strbuf_addf(sb, "%.*s", (int)len, t);
		}
		t += len;
		if (*t)
			t++;
	}
}

/* perf's glob match on PMU events: case-insensitive. */
static bool glob_hit_nocase(const char *glob, const char *s)
{
	return s && !fnmatch(glob, s, FNM_CASEFOLD);
}

static int add_pmu_alias(struct entries *es, const struct list_opts *o, const char *glob,
			 const struct perf_pmu *pmu, const struct pmu_alias *a)
{
	struct strbuf sb = STRBUF_INIT;
	struct list_entry *e;
	const char *desc = o->long_desc ? a->long_desc : a->desc;

	if (a->deprecated && !o->deprecated)
		return 0;
	strbuf_addf(&sb, "%s/%s/", pmu->name, a->name);
	/* a described event goes by its name, the others by pmu/name/ (a
	 * core PMU's only by that) */
	if (glob && !glob_hit_nocase(glob, desc ? a->name : sb.buf) &&
	    (pmu->core || !glob_hit_nocase(glob, a->name)) &&
	    !(a->topic && glob_hit_nocase(glob, a->topic))) {
		strbuf_release(&sb);
		return 0;
	}
	e = entries__add(es);
	if (!e) {
		strbuf_release(&sb);
		return -1;
	}
	e->desc = desc;
	e->topic = a->topic;
	e->metric_name = a->metric_name;
	e->metric_expr = a->metric_expr;
	e->core = pmu->core;
	e->pmu = strdup(pmu->name);
	if (desc) {
		e->event = strdup(a->name);
		e->name = strdup(a->name);
		strbuf_release(&sb);
	} else {
		e->event = strdup(sb.buf);
		strbuf_reset(&sb);
		if (pmu->core)
			strbuf_addf(&sb, "%s OR ", a->name);
		strbuf_addstr(&sb, e->event);
		e->name = strbuf_detach(&sb, NULL);
	}
	e->type = "Kernel PMU event";
	strbuf_addf(&sb, "%s/", pmu->name);
	if (a->desc)
		add_details_terms(&sb, a->terms);
	else
		strbuf_addstr(&sb, a->terms);
	strbuf_addch(&sb, '/');
	e->encoding = strbuf_detach(&sb, NULL);
	return 0;
}

/* A PMU event with a description as perf lists it: the topic's heading
 * when the topic changes, the name, the wrapped description and with
 * --details the encoding. */
static void print_pmu_desc_entry(struct list_state *st, const struct list_entry *e,
				 const char **topic, bool *first)
{
	if (*first)
		putchar('\n');
	*first = false;
	if (e->topic && (!*topic || strcmp(*topic, e->topic))) {
		printf("%s%s:\n", *topic ? "\n" : "", e->topic);
		*topic = e->topic;
	}
	printf("  %-50s\n%*s", e->name, 8, "[");
	wordwrap(e->desc, 8, pager_get_columns());
	printf("]\n");
	if (st->o->details) {
		printf("%*s%s ", 8, "", e->encoding);
		if (e->metric_name)
			printf(" MetricName: %s", e->metric_name);
		if (e->metric_expr)
			printf(" MetricExpr: %s", e->metric_expr);
		putchar('\n');
	}
	st->printed++;
}

static void list_pmu(struct list_state *st, const char *glob)
{
	struct entries es = { 0 };
	char **names = pmu__names();
	const char *topic = NULL;
	bool first = true;
	int before = st->printed;

	for (char **p = names; p && *p; p++) {
		struct perf_pmu *pmu = pmu__load(*p, NULL);
		struct pmu_alias *a;

		if (!pmu)
			continue;
		list_for_each_entry(a, &pmu->aliases, node)
			if (add_pmu_alias(&es, st->o, glob, pmu, a))
				break;
		pmu__delete(pmu);
	}
	pmu__free_names(names);
	if (es.n)
		qsort(es.v, es.n, sizeof(es.v[0]), pmu_entry_cmp);
	for (size_t i = 0; i < es.n; i++) {
		struct list_entry *e = &es.v[i];

		if (i && !strcmp(e->name, es.v[i - 1].name))
			continue;
		e->unit = e->pmu;
		if (e->desc && st->o->desc && !st->o->raw_dump && !st->o->json)
			print_pmu_desc_entry(st, e, &topic, &first);
		else
			print_entry(st, e);
	}
	entries__release(&es);
	section_end(st, before, false);
}

static void list_raw_descriptors(struct list_state *st)
{
	struct list_entry raw = { .name = "rNNN", .event = "rNNN",
				  .type = "Raw hardware event descriptor", .unit = "cpu",
				  .desc = "Raw PMU event: config as hex (attr.type PERF_TYPE_RAW)" };
	struct list_entry terms = { .name = "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
				    .event = "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
				    .type = "Raw hardware event descriptor", .unit = "cpu",
				    .desc = "PMU event from terms in /sys/bus/event_source/devices/PMU/format" };

	struct list_entry bp = { .name = "mem:<addr>[/len][:access]", .event = "mem:<addr>[/len][:access]",
				 .type = "Hardware breakpoint", .unit = "breakpoint",
				 .desc = "Data or instruction breakpoint (access r, w, x; default rw)" };

	print_entry(st, &raw);
	print_entry(st, &terms);
	if (paged(st))
		printf("   (see 'man prf-list' on how to encode it)\n\n");
	print_entry(st, &bp);
	section_end(st, 0, true);
}

struct tp_list {
	struct entries es;
	const char *glob;	/* matched against the event name, or NULL */
};

static int tp_collect(const char *sys, const char *name, void *data)
{
	struct tp_list *t = data;
	struct strbuf sb = STRBUF_INIT;
	struct list_entry *e;

	if (t->glob && !glob_hit(t->glob, name))
		return 0;
	e = entries__add(&t->es);
	if (!e || strbuf_addf(&sb, "%s:%s", sys, name))
		return -1;
	e->event = strdup(sb.buf);
	e->name = strbuf_detach(&sb, NULL);
	e->type = "Tracepoint event";
	e->unit = "tracepoint";
	return 0;
}

/* Sorted on the whole "sys:name" as perf does ("fib6:..." before "fib:..."). */
static void list_tracepoints(struct list_state *st, const char *sys_glob, const char *name_glob,
			     const char *glob)
{
	struct tp_list t = { .glob = glob };
	int before = st->printed;

	if (!tracefs__mountpoint(NULL)) {
		/* only complain when tracepoints were asked for */
		if (sys_glob || (!glob && !name_glob))
			fprintf(stderr, "prf list: can't list tracepoints: %s\n", tracefs__mount_hint());
		return;
	}
	tracefs__for_each_event(sys_glob, name_glob, tp_collect, &t);
	print_entries(st, &t.es);
	section_end(st, before, false);
}

/*
 * Metrics and metric groups of this CPU's model (pmu-events.h), as perf
 * 6.1 lists them: a metric without a group is in "No_group"; a group name
 * is kept when it contains `filter` (a plain substring, NULL: all). With
 * `metrics` and not `groups` a sorted list of metrics, with `groups` the
 * sorted groups (with their metrics when `metrics`). A metric entry is its
 * name with the description (and with --details the expression) below.
 */
struct metric_strs {
	char **v;
	size_t n, alloc;
};

struct metric_group {
	char *name;
	struct metric_strs metrics;
};

struct metric_list {
	const struct list_opts *o;
	const char *filter;
	bool groups;
	struct metric_strs flat;
	struct metric_group *g;
	size_t nr_g, alloc_g;
};

static int metric_strs__add(struct metric_strs *l, char *s)
{
	char **nv;

	if (!s)
		return -1;
	nv = grow(l->v, &l->alloc, l->n, sizeof(l->v[0]), 16);
	if (!nv) {
		free(s);
		return -1;
	}
	l->v = nv;
	l->v[l->n++] = s;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, each string once; raw: names separated by spaces and a newline. */
/* "GROUP:EVENT@SBID" of every SDT probe in the probes files of the
 * build-id cache's valid entries, GROUP and EVENT matching the globs
 * (NULL: any), into *l. */
static void sdt_collect(struct metric_strs *l, const char *group_glob, const char *event_glob)
{
	char **bids, file[PATH_MAX];
	int nr = bid_cache__list(&bids, true);

	for (int i = 0; i < nr; i++) {
		struct probe_cache pc;

		if (bid_cache__probes_file(bids[i], file, sizeof(file)) ||
		    probe_cache__load(&pc, file))
			continue;
		for (size_t k = 0; k < pc.n; k++) {
			const struct probe_cache_entry *e = &pc.v[k];
			char *s;

			if (!e->sdt || !e->group || (group_glob && !strglobmatch(e->group, group_glob)) ||
			    (event_glob && !strglobmatch(e->event, event_glob)))
				continue;
			if (asprintf(&s, "%s:%s@%s", e->group, e->event, bids[i]) < 0 ||
			    metric_strs__add(l, s))
				break;
		}
		probe_cache__exit(&pc);
	}
	if (nr > 0)
		bid_cache__free_list(bids, nr);
}

/* The name an SDT event is listed by: "GROUP:EVENT", or when another
 * cached file has the same event, "GROUP:EVENT@PATH(first 12 of SBID)". */
static char *sdt_name(char **v, size_t n, size_t i)
{
	const char *at = strrchr(v[i], '@');
	size_t len = (size_t)(at - v[i]);
	bool dup = (i > 0 && !strncmp(v[i - 1], v[i], len + 1)) ||
		   (i + 1 < n && !strncmp(v[i + 1], v[i], len + 1));
	char *path = dup ? bid_cache__origname(at + 1) : NULL, *s;

	if (path ? asprintf(&s, "%.*s@%s(%.12s)", (int)len, v[i], path, at + 1) < 0
		 : !(s = strndup(v[i], len)))
		s = NULL;
	free(path);
	return s;
}

/* perf's SDT events section: the events of the build-id cache's probes
 * files, sorted by "GROUP:EVENT@SBID" (without duplicates); paged, no
 * blank line follows it, as in perf. */
static void list_sdt(struct list_state *st, const char *group_glob, const char *event_glob)
{
	struct metric_strs l = { 0 };

	sdt_collect(&l, group_glob, event_glob);
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), str_cmp);
	for (size_t i = 0; i < l.n; i++) {
		struct list_entry e = { .type = "SDT event", .unit = "sdt" };

		if (i && !strcmp(l.v[i], l.v[i - 1]))
			continue;
		e.name = sdt_name(l.v, l.n, i);
		/* --raw-dump has perf's plain names; JSON tells files apart */
		e.event = st->o->json ? (e.name ? strdup(e.name) : NULL)
				      : strndup(l.v[i], (size_t)(strrchr(l.v[i], '@') - l.v[i]));
		if (e.name && e.event)
			print_entry(st, &e);
		entry__free(&e);
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
}

static void metric_strs__print(struct metric_strs *l, bool raw)
{
	size_t printed = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof(l->v[0]), str_cmp);
	for (size_t i = 0; i < l->n; i++) {
		if (i && !strcmp(l->v[i], l->v[i - 1]))
			continue;
		if (raw)
			printf("%s%s", printed ? " " : "", l->v[i]);
		else
			printf("  %s\n", l->v[i]);
		printed++;
	}
	if (raw)
		putchar('\n');
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static struct metric_group *metric_list__group(struct metric_list *ml, const char *name, size_t len)
{
	struct metric_group *ng;

	for (size_t i = 0; i < ml->nr_g; i++)
		if (strlen(ml->g[i].name) == len && !strncmp(ml->g[i].name, name, len))
			return &ml->g[i];
	ng = grow(ml->g, &ml->alloc_g, ml->nr_g, sizeof(ml->g[0]), 16);
	if (!ng)
		return NULL;
	ml->g = ng;
	memset(&ml->g[ml->nr_g], 0, sizeof(ml->g[0]));
	ml->g[ml->nr_g].name = strndup(name, len);
	return ml->g[ml->nr_g].name ? &ml->g[ml->nr_g++] : NULL;
}

static int metric_collect(const struct pmu_event *pe, void *data)
{
	struct metric_list *ml = data;
	const char *g = pe->metric_group, *end;
	bool raw = ml->o->raw_dump;

	if (!pe->metric_expr)
		return 0;
	if (!g && pe->metric_name) {
		if (pe->name)
			return 0;
		g = "No_group";
	}
	if (!g)
		return 0;
	for (;; g = end + 1) {
		const char *name;
		size_t len;
		char *s;

		end = strchrnul(g, ';');
		while (g < end && (*g == ' ' || (*g >= '\t' && *g <= '\r')))
			g++;
		name = g;
		len = end - g;
		if (!len) {
			name = "No_group";
			len = strlen(name);
		}
		if (ml->filter && !memmem(name, len, ml->filter, strlen(ml->filter)))
			goto next;
		if (raw)
			s = strdup(pe->metric_name);
		else if (ml->o->details)
			s = asprintf(&s, "%s\n%*s%s]\n%*s%s]", pe->metric_name, 8, "[",
				     pe->desc ?: "(null)", 8, "[", pe->metric_expr) < 0 ? NULL : s;
		else
			s = asprintf(&s, "%s\n%*s%s]", pe->metric_name, 8, "[",
				     pe->desc ?: "(null)") < 0 ? NULL : s;
		if (!ml->groups) {
			metric_strs__add(&ml->flat, s);
		} else {
			struct metric_group *mg = metric_list__group(ml, name, len);

			if (mg)
				metric_strs__add(&mg->metrics, s);
			else
				free(s);
		}
next:
		if (!*end)
			break;
	}
	return 0;
}

static int group_cmp(const void *a, const void *b)
{
	return strcmp(((const struct metric_group *)a)->name, ((const struct metric_group *)b)->name);
}

static void list_metrics(struct list_state *st, bool metrics, bool groups, const char *filter)
{
	struct metric_list ml = { .o = st->o, .filter = filter, .groups = groups };
	bool raw = st->o->raw_dump;

	if (st->o->json)
		return;
	pmu_events__for_each(pmu_events__model(), metric_collect, &ml);
	if (!filter || ml.nr_g) {
		if (groups && !raw)
			printf("\nMetric Groups:\n\n");
		else if (metrics && !raw)
			printf("\nMetrics:\n\n");
	}
	if (ml.nr_g)
		qsort(ml.g, ml.nr_g, sizeof(ml.g[0]), group_cmp);
	for (size_t i = 0; i < ml.nr_g; i++) {
		printf("%s%s%s", ml.g[i].name, metrics && !raw ? ":" : "", raw ? " " : "\n");
		if (metrics) {
			metric_strs__print(&ml.g[i].metrics, raw);
		} else {
			for (size_t j = 0; j < ml.g[i].metrics.n; j++)
				free(ml.g[i].metrics.v[j]);
			free(ml.g[i].metrics.v);
		}
		free(ml.g[i].name);
	}
	free(ml.g);
	if (!groups)
		metric_strs__print(&ml.flat, raw);
}

static void list_all(struct list_state *st, const char *glob)
{
	list_hw(st, glob);
	list_sw(st, glob);
	list_cache(st, glob);
	list_pmu(st, glob);
	if (!glob)
		list_raw_descriptors(st);
	list_tracepoints(st, NULL, NULL, glob);
	list_sdt(st, NULL, glob);
	/* perf matches a glob's literal text against group names */
	list_metrics(st, true, true, glob);
}

static void list_one(struct list_state *st, const char *arg)
{
	const char *colon;

	if (!strcmp(arg, "hw") || !strcmp(arg, "hardware")) {
		list_hw(st, NULL);
	} else if (!strcmp(arg, "sw") || !strcmp(arg, "software")) {
		list_sw(st, NULL);
	} else if (!strcmp(arg, "cache") || !strcmp(arg, "hwcache")) {
		list_cache(st, NULL);
	} else if (!strcmp(arg, "pmu")) {
		list_pmu(st, NULL);
	} else if (!strcmp(arg, "tracepoint")) {
		list_tracepoints(st, NULL, NULL, NULL);
	} else if (!strcmp(arg, "metric") || !strcmp(arg, "metrics")) {
		list_metrics(st, true, false, NULL);
	} else if (!strcmp(arg, "metricgroup") || !strcmp(arg, "metricgroups")) {
		list_metrics(st, false, true, NULL);
	} else if (!strcmp(arg, "sdt")) {
		list_sdt(st, NULL, NULL);
	} else if ((colon = strchr(arg, ':'))) {
		char sys[256];

		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - arg), arg);
		list_tracepoints(st, sys, colon[1] ? colon + 1 : NULL, NULL);
		list_sdt(st, sys, colon + 1);
		list_metrics(st, true, true, sys);
	} else {
		struct strbuf glob = STRBUF_INIT;

		strbuf_addf(&glob, "*%s*", arg);
		list_all(st, glob.buf);
		strbuf_release(&glob);
	}
}

int cmd_list(int argc, const char **argv)
{
	struct list_opts o = { .desc = -1 };
	struct list_state st = { .o = &o, .first_json = true };
	const char *const usage[] = {
		"prf list [<options>] [hw|sw|cache|tracepoint|pmu|sdt|metric|metricgroup|event_glob]",
		NULL
	};
	const struct option options[] = {
		OPT_BOOLEAN('j', "json", &o.json, "Print events as a JSON array"),
		OPT_SET_INT('d', "desc", &o.desc, "Print extra event descriptions", 1),
		OPT_BOOLEAN(0, "raw-dump", &o.raw_dump, "Dump raw events (names only, space separated)"),
		OPT_BOOLEAN('v', "long-desc", &o.long_desc, "Print longer event descriptions"),
		OPT_BOOLEAN(0, "details", &o.details,
			    "Print information on the perf event names and expressions used internally by events"),
		OPT_BOOLEAN(0, "deprecated", &o.deprecated, "Print deprecated events"),
		OPT_STRING(0, "cputype", &o.cputype, "hybrid cpu type",
			   "Print events applying cpu with this type for hybrid platform (e.g. core or atom)"),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc < 0)
		return 129;
	if (o.json && o.raw_dump) {
		fprintf(stderr, "prf list: --json and --raw-dump are mutually exclusive\n");
		usage_with_options(usage, options);
		return 129;
	}
	if (o.cputype) {
		/* only hybrid machines (cpu_core/cpu_atom PMUs) have cpu types */
		if (access("/sys/bus/event_source/devices/cpu_core", F_OK) &&
		    access("/sys/bus/event_source/devices/cpu_atom", F_OK))
			fprintf(stderr, "WARNING: hybrid cputype is not supported!\n");
		else
			fprintf(stderr, "prf list: --cputype is not supported by prf: every event is listed\n");
	}
	out__init(&st.w, stdout, OUT_JSON, NULL);
	if (o.json)
		out__begin_array(&st.w, NULL);
	else if (!o.raw_dump && pager_in_use())
		printf("\nList of pre-defined events (to be used in -e or -M):\n\n");

	if (argc == 0) {
		list_all(&st, NULL);
	} else {
		for (int i = 0; i < argc; i++)
			list_one(&st, argv[i]);
	}
	if (o.json) {
		out__end_array(&st.w);
		fputc('\n', stdout);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * prf record: run a command (or attach to pids/cpus), sample it with
 * perf_event_open(2) into per-cpu (or per-thread) ring buffers and write
 * the records into a perf.data file that Linux perf reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"
#include "../arch/x86/perf_regs.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/strbuf.h"
#include "../util/lib/util.h"
#include "../util/kernel/cpumap.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/mmap.h"
#include "../util/kernel/parse-events.h"
#include "../util/kernel/thread_map.h"
#include "../util/session/off-cpu.h"
#include "../util/kernel/workload.h"
#include "../util/format/event.h"
#include "../util/format/features-write.h"
#include "../util/format/header.h"
#include "../util/format/synthesize.h"
#include "../util/format/trace-data.h"
#include "../util/format/writer.h"

#define DEFAULT_FREQ		4000
#define DEFAULT_MMAP_PAGES	128	/* 512 KiB per buffer, as perf for root */
#define DEFAULT_DWARF_SIZE	8192
#define MAX_DWARF_SIZE		65528

enum callchain_mode { CG_NONE, CG_FP, CG_DWARF, CG_LBR };

struct record_opts {
	struct evlist *evlist;
	const char *output;
	const char *freq_str;
	uint64_t period;
	const char *pid_str, *tid_str, *cpu_list;
	bool system_wide, per_thread, no_inherit, quiet, strict_freq;
	bool call_graph_g;
	bool off_cpu;			/* --off-cpu */
	bool fp_mix;			/* --fp-mix: keep the user FP chain in dwarf mode */
	const char *call_graph;
	const char *mmap_pages_str;
	int comp_level;			/* -1: not given */
	int verbose;
};

/* DSO hit bookkeeping for HEADER_BUILD_ID. */
struct rdso {
	char *name;
	bool hit;
	bool kernel;
};

struct rmap {
	uint64_t start, end;
	uint32_t pid;
	int dso;
};

struct record {
	struct record_opts opts;
	struct perf_data_writer writer;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct workload wl;
	bool has_workload;
	struct perf_mmap *mmaps;
	int nr_mmaps;
	struct pollfd *pfd;
	int nr_pfd;
	unsigned int mmap_pages;
	enum callchain_mode cg;
	unsigned int dwarf_size;
	uint64_t sample_type;		/* of the first evsel (id header layout) */
	size_t id_hdr_size;
	/* stats */
	uint64_t samples, lost, lost_chunks, wakeups, lost_samples;
	uint64_t first_time, last_time;
	bool write_failed;
	/* dso tracking */
	struct rdso *dsos;
	int nr_dsos, alloc_dsos;
	struct rmap *maps;
	int nr_maps, alloc_maps;	/* sorted by start */
	int kernel_dso;
	uint64_t ktext_start, ktext_end;
	int argc;
	const char **argv;
};

static volatile sig_atomic_t done;
static volatile sig_atomic_t child_exited;
static volatile sig_atomic_t signr;

static void sig_handler(int sig)
{
	if (sig == SIGCHLD)
		child_exited = 1;
	else
		signr = sig;
	done = 1;
}

/* ---------------- DSO tracking ---------------- */

static int record__dso_find(struct record *rec, const char *name, bool kernel)
{
	for (int i = rec->nr_dsos - 1; i >= 0; i--)
		if (!strcmp(rec->dsos[i].name, name))
			return i;
	if (rec->nr_dsos == rec->alloc_dsos) {
		int n = rec->alloc_dsos ? rec->alloc_dsos * 2 : 64;
		struct rdso *d = realloc(rec->dsos, (size_t)n * sizeof(*d));

		if (!d)
			return -1;
		rec->dsos = d;
		rec->alloc_dsos = n;
	}
	rec->dsos[rec->nr_dsos].name = strdup(name);
	if (!rec->dsos[rec->nr_dsos].name)
		return -1;
	rec->dsos[rec->nr_dsos].hit = false;
	rec->dsos[rec->nr_dsos].kernel = kernel;
	return rec->nr_dsos++;
}

static void record__add_map(struct record *rec, uint32_t pid, uint64_t start, uint64_t len,
			    const char *name, bool kernel)
{
	int dso;

	if (kernel && !strncmp(name, "[kernel.kallsyms]", 17)) {
		dso = record__dso_find(rec, "[kernel.kallsyms]", true);
		rec->kernel_dso = dso;
		rec->ktext_start = start;
		rec->ktext_end = start + len;
		return;
	}
	dso = record__dso_find(rec, name, kernel);
	if (dso < 0)
		return;
	if (rec->nr_maps == rec->alloc_maps) {
		int n = rec->alloc_maps ? rec->alloc_maps * 2 : 256;
		struct rmap *m = realloc(rec->maps, (size_t)n * sizeof(*m));

		if (!m)
			return;
		rec->maps = m;
		rec->alloc_maps = n;
	}
	{
		/* keep the array sorted by start: insert after the last start <= this */
		int lo = 0, hi = rec->nr_maps - 1;

		while (lo <= hi) {
			int mid = (lo + hi) / 2;

			if (rec->maps[mid].start <= start)
				lo = mid + 1;
			else
				hi = mid - 1;
		}
		memmove(&rec->maps[lo + 1], &rec->maps[lo],
			(size_t)(rec->nr_maps - lo) * sizeof(*rec->maps));
		rec->maps[lo] = (struct rmap){ start, start + len, kernel ? (uint32_t)-1 : pid, dso };
		rec->nr_maps++;
	}
}

static void record__hit(struct record *rec, uint32_t pid, uint64_t ip, bool kernel)
{
	int lo = 0, hi, any = -1;

	if (kernel && ip >= rec->ktext_start && ip < rec->ktext_end && rec->kernel_dso >= 0) {
		rec->dsos[rec->kernel_dso].hit = true;
		return;
	}
	/* last map with start <= ip */
	hi = rec->nr_maps - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (rec->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	for (int i = hi, n = 0; i >= 0 && n < 256; i--, n++) {
		struct rmap *m = &rec->maps[i];

		if (ip >= m->end)
			continue;
		if (m->pid == pid || (kernel && m->pid == (uint32_t)-1)) {
			rec->dsos[m->dso].hit = true;
			return;
		}
		if (any < 0)
			any = i;
	}
	if (any >= 0)
		rec->dsos[rec->maps[any].dso].hit = true;
	else if (kernel && rec->kernel_dso >= 0)
		rec->dsos[rec->kernel_dso].hit = true;
}

/* Look at one record on its way to the file: counts, times, maps, hits. */
static void record__inspect(struct record *rec, const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE: {
		const u64 *a = ev->sample.array;
		uint64_t st = rec->sample_type, ip = 0, time = 0;
		uint32_t pid = 0;
		uint8_t cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

		rec->samples++;
		if (st & PERF_SAMPLE_IDENTIFIER)
			a++;
		if (st & PERF_SAMPLE_IP)
			ip = *a++;
		if (st & PERF_SAMPLE_TID)
			pid = (uint32_t)*a++;
		if (st & PERF_SAMPLE_TIME) {
			time = *a++;
			if (!rec->first_time || time < rec->first_time)
				rec->first_time = time;
			if (time > rec->last_time)
				rec->last_time = time;
		}
		if (cpumode == PERF_RECORD_MISC_KERNEL)
			record__hit(rec, pid, ip, true);
		else if (cpumode == PERF_RECORD_MISC_USER)
			record__hit(rec, pid, ip, false);
		break;
	}
	case PERF_RECORD_MMAP:
		record__add_map(rec, ev->mmap.pid, ev->mmap.start, ev->mmap.len, ev->mmap.filename,
				(ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				PERF_RECORD_MISC_KERNEL);
		break;
	case PERF_RECORD_MMAP2:
		if (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA)
			break;
		record__add_map(rec, ev->mmap2.pid, ev->mmap2.start, ev->mmap2.len,
				ev->mmap2.filename,
				(ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				PERF_RECORD_MISC_KERNEL);
		break;
	case PERF_RECORD_LOST:
		rec->lost += ev->lost.lost;
		rec->lost_chunks++;
		break;
	default:
		break;
	}
}

/* ---------------- output ---------------- */

static int record__write_event(struct record *rec, const void *buf, size_t len)
{
	int ret = writer__write_records(&rec->writer, buf, len);

	if (ret && !rec->write_failed) {
		rec->write_failed = true;
		pr_err("prf record: failed to write to %s: %s\n",
		       rec->writer.is_pipe ? "stdout" : rec->opts.output, strerror(-ret));
		done = 1;
	}
	return ret;
}

static int synth_cb_write(void *arg, const union perf_event *ev)
{
	struct record *rec = arg;

	record__inspect(rec, ev);
	return record__write_event(rec, ev, ev->header.size);
}

static void record__user_record(struct record *rec, uint32_t type)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = sizeof(h) };

	if (!rec->write_failed && writer__write(&rec->writer, &h, sizeof(h)) && !rec->write_failed) {
		rec->write_failed = true;
		pr_err("prf record: failed to write to %s: %s\n",
		       rec->writer.is_pipe ? "stdout" : rec->opts.output,
		       strerror(-rec->writer.err));
		done = 1;
	}
}

/*
 * Drain every ring buffer once. Returns the bytes written. Data is written
 * as whole records in at most two pieces (wrap-around), and scanned for
 * the statistics with perf_mmap__read_event().
 */
static uint64_t record__mmap_read_all(struct record *rec)
{
	uint64_t total = 0;

	for (int i = 0; i < rec->nr_mmaps; i++) {
		struct perf_mmap *m = &rec->mmaps[i];
		union perf_event *ev;
		uint64_t from, to, begin;
		const void *p1, *p2;
		size_t l1, l2;

		if (!m->base || !perf_mmap__read_init(m))
			continue;
		from = m->start;
		begin = from;
		/* scan whole records; stops before a partial one */
		while ((ev = perf_mmap__read_event(m)) != NULL) {
			if (rec->writer.comp_level && ev == (union perf_event *)m->bounce) {
				/* wrapped record: flush what precedes, then it */
				perf_mmap__pieces(m, from, m->start - ev->header.size, &p1, &l1, &p2, &l2);
				if (l1)
					record__write_event(rec, p1, l1);
				if (l2)
					record__write_event(rec, p2, l2);
				record__write_event(rec, ev, ev->header.size);
				from = m->start;
			}
			record__inspect(rec, ev);
		}
		to = m->start;
		if (to > from && !rec->write_failed) {
			perf_mmap__pieces(m, from, to, &p1, &l1, &p2, &l2);
			if (rec->writer.comp_level) {
				/* pieces split at the ring end, which is a record
				 * boundary here since wrapped records were flushed */
				if (l1)
					record__write_event(rec, p1, l1);
				if (l2)
					record__write_event(rec, p2, l2);
			} else if (writer__write(&rec->writer, p1, l1) == 0 && l2) {
				writer__write(&rec->writer, p2, l2);
			}
			if (rec->writer.err && !rec->write_failed) {
				rec->write_failed = true;
				pr_err("prf record: failed to write to %s: %s\n",
				       rec->writer.is_pipe ? "stdout" : rec->opts.output,
				       strerror(-rec->writer.err));
				done = 1;
			}
		}
		total += to - begin;
		perf_mmap__consume(m, to);
	}
	if (total) {
		record__user_record(rec, PERF_RECORD_FINISHED_ROUND);
		writer__sync_data_size(&rec->writer);
	}
	return total;
}

/* ---------------- options ---------------- */

static int parse_callgraph(struct record *rec, const char *s)
{
	char *end;

	if (!s || !strcmp(s, "fp")) {
		rec->cg = CG_FP;
		return 0;
	}
	if (!strcmp(s, "lbr")) {
		rec->cg = CG_LBR;
		return 0;
	}
	if (!strncmp(s, "dwarf", 5) && (s[5] == 0 || s[5] == ',')) {
		rec->cg = CG_DWARF;
		rec->dwarf_size = DEFAULT_DWARF_SIZE;
		if (s[5] == ',') {
			unsigned long v = strtoul(s + 6, &end, 0);

			if (*end || !v) {
				pr_err("callchain: Incorrect stack dump size: %s\n", s + 6);
				return -1;
			}
			v = PERF_ALIGN(v, 8UL);
			if (v > MAX_DWARF_SIZE) {
				pr_err("callchain: Incorrect stack dump size (max %d): %s\n",
				       MAX_DWARF_SIZE, s + 6);
				return -1;
			}
			rec->dwarf_size = (unsigned int)v;
		}
		return 0;
	}
	if (!strcmp(s, "none")) {
		rec->cg = CG_NONE;
		return 0;
	}
	pr_err("callchain: Unknown --call-graph option value: %s\n", s);
	return -1;
}

static int opt_compression(const struct option *opt, const char *arg, int unset)
{
	int *level = opt->value;
	char *end;
	long v;

	if (unset) {
		*level = 0;
		return 0;
	}
	if (!arg) {
		*level = 1;
		return 0;
	}
	v = strtol(arg, &end, 10);
	if (*end || v < 1 || v > 22) {
		pr_err("Compression level must be between 1 and 22: %s\n", arg);
		return -1;
	}
	*level = (int)v;
	return 0;
}

static int opt_event(const struct option *opt, const char *str, int unset)
{
	struct evlist *evlist = *(struct evlist **)opt->value;
	struct parse_events_error err;
	int ret;

	if (unset)
		return 0;
	parse_events_error__init(&err);
	ret = parse_events(evlist, str, &err);
	if (ret)
		parse_events_error__print(&err, str, stderr);
	parse_events_error__exit(&err);
	return ret ? -1 : 0;
}

/* ---------------- configuration ---------------- */

static int record__freq(struct record *rec, uint64_t *freq)
{
	const char *s = rec->opts.freq_str;
	unsigned long long max = 0;
	char *end;

	*freq = DEFAULT_FREQ;
	if (filename__read_ull("/proc/sys/kernel/perf_event_max_sample_rate", &max))
		max = 0;
	if (!s)
		return 0;
	if (!strcmp(s, "max")) {
		if (!max) {
			pr_err("prf record: cannot read /proc/sys/kernel/perf_event_max_sample_rate\n");
			return -1;
		}
		*freq = max;
		pr_info("info: Using a maximum frequency rate of %llu Hz\n", max);
		return 0;
	}
	*freq = strtoull(s, &end, 0);
	if (*end || s[0] == '-' || !s[0]) {
		pr_err("invalid frequency: '%s' (expected a number of Hz or 'max')\n", s);
		return -1;
	}
	if (*freq == 0 && !rec->opts.period) {
		pr_err("frequency and count are zero, aborting\n");
		return -1;
	}
	if (max && *freq > max) {
		if (rec->opts.strict_freq) {
			pr_err("error: Maximum frequency rate (%llu Hz) exceeded.\n"
			       "       Please use -F freq option with a lower value or consider\n"
			       "       tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n", max);
			return -1;
		}
		pr_warning("warning: Maximum frequency rate (%llu Hz) exceeded, throttling from %llu Hz to %llu Hz.\n"
			   "         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			   "         The kernel will lower it when prf's interrupts take too long.\n"
			   "         Use --strict-freq to disable this throttling, refusing to record.\n",
			   max, (unsigned long long)*freq, max);
		*freq = max;
	}
	return 0;
}

static int record__mmap_pages(struct record *rec)
{
	const char *s = rec->opts.mmap_pages_str;
	uint64_t v = 0;
	bool rounded, unit = false;
	int err;

	rec->mmap_pages = DEFAULT_MMAP_PAGES;
	if (!s)
		return 0;
	err = parse_size(s, &v, &unit);
	if (!err && unit)	/* a size: in pages */
		v /= page_size();
	if (err || !v || v > (1ULL << 24)) {
		pr_err("Invalid argument for --mmap_pages/-m: '%s' (a number of pages, or a size like 512K)\n", s);
		return -1;
	}
	rec->mmap_pages = perf_mmap__round_pages((unsigned long)v, &rounded);
	if (rounded)
		pr_info("rounding mmap pages size to %lluK (%u pages)\n",
			(unsigned long long)rec->mmap_pages * page_size() / 1024,
			rec->mmap_pages);
	return 0;
}

static void record__config_evsel(struct record *rec, struct evsel *evsel, bool tracking,
				 uint64_t freq)
{
	struct perf_event_attr *a = &evsel->attr;
	bool cpu_wide = rec->opts.system_wide || rec->opts.cpu_list;
	bool workload_target = rec->has_workload && !cpu_wide && !rec->opts.pid_str &&
			       !rec->opts.tid_str;

	a->size = sizeof(*a);
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	if (!rec->opts.per_thread)
		a->sample_type |= PERF_SAMPLE_TIME;
	if (cpu_wide)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (rec->opts.evlist->nr_entries > 1)
		a->sample_type |= PERF_SAMPLE_ID;
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	switch (rec->cg) {
	case CG_FP:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		break;
	case CG_DWARF:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		/* perf's dwarf mode drops the kernel's user FP walk; --fp-mix
		 * keeps it so that report/script can finish stacks the copied
		 * user stack was too small for */
		a->exclude_callchain_user = rec->opts.fp_mix ? 0 : 1;
		a->sample_regs_user = PERF_REGS_X86_64_USER_MASK;
		a->sample_stack_user = rec->dwarf_size;
		break;
	case CG_LBR:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
		break;
	case CG_NONE:
		break;
	}
	if (a->type == PERF_TYPE_TRACEPOINT) {
		/* every hit, with its raw payload, as perf's tracepoint evsels */
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		if (!a->sample_period && !a->freq)
			a->sample_period = 1;
	}
	if (rec->opts.period) {
		a->freq = 0;
		a->sample_period = rec->opts.period;
	} else if (!a->sample_period) {
		a->freq = 1;
		a->sample_freq = freq;
	}
	a->disabled = 1;
	a->inherit = !rec->opts.no_inherit && !rec->opts.per_thread;
	a->enable_on_exec = workload_target;
	a->sample_id_all = 1;
	if (tracking) {
		a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
		a->ksymbol = a->bpf_event = 1;
		if (rec->cg == CG_DWARF)
			a->mmap_data = 1;
		evsel->tracking = true;
	}
}

/* Open one evsel with perf's fallbacks (cycles -> cpu-clock, precise_ip
 * down to 0, no read_format LOST on old kernels). 0 or -errno. */
static int record__open_evsel(struct record *rec, struct evsel *evsel)
{
	for (;;) {
		int err = evsel__open(evsel, rec->cpus, rec->threads);

		if (!err)
			return 0;
		if ((err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV) &&
		    evsel->attr.type == PERF_TYPE_HARDWARE &&
		    evsel->attr.config == PERF_COUNT_HW_CPU_CYCLES) {
			char name[64];

			pr_debug("Warning:\nThe %s event is not supported, trying to fall back to cpu-clock-ticks\n",
				 evsel__name(evsel));
			evsel->attr.type = PERF_TYPE_SOFTWARE;
			evsel->attr.config = PERF_COUNT_SW_CPU_CLOCK;
			{
				/* modifiers from the attr, as perf names it:
				 * k/u/h for the levels counted, when any is
				 * excluded, then the precise p's */
				const struct perf_event_attr *a = &evsel->attr;
				bool lv = a->exclude_kernel || a->exclude_user || a->exclude_hv;

				snprintf(name, sizeof(name), "cpu-clock%s%s%s%s%.*s",
					 lv || a->precise_ip ? ":" : "",
					 lv && !a->exclude_kernel ? "k" : "",
					 lv && !a->exclude_user ? "u" : "",
					 lv && !a->exclude_hv ? "h" : "",
					 a->precise_ip, "ppp");
			}
			evsel__set_name(evsel, name);
			continue;
		}
		if (rec->cg == CG_LBR && evsel->attr.branch_sample_type &&
		    (err == -EOPNOTSUPP || err == -EINVAL || err == -ENOENT)) {
			pr_err("Error:\n%s: PMU Hardware or event type doesn't support branch stack sampling.\n",
			       evsel__name(evsel));
			return -EOPNOTSUPP;
		}
		if ((err == -EOPNOTSUPP || err == -EINVAL) && evsel->attr.precise_ip) {
			evsel->attr.precise_ip--;
			continue;
		}
		if (err == -EINVAL && (evsel->attr.read_format & PERF_FORMAT_LOST)) {
			evsel->attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
			continue;
		}
		/* perf_event_paranoid > 1 refuses kernel sampling to unprivileged
		 * users: sample user space only, "<name>:u", as perf 6.1 does */
		if (evsel__fallback_exclude_kernel(evsel, err))
			continue;
		{
			char msg[512];

			evsel__open_strerror(evsel, err, msg, sizeof(msg));
			pr_err("Error:\n%s\n", msg);
		}
		return err;
	}
}

/* Tracepoint filters (--filter) on every fd, PERF_EVENT_IOC_SET_FILTER. */
static int record__apply_filters(struct record *rec)
{
	struct evsel *evsel;

	evlist__for_each_entry(rec->opts.evlist, evsel) {
		if (!evsel->filter || !evsel->fds)
			continue;
		for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
			if (evsel->fds[i] < 0)
				continue;
			if (ioctl(evsel->fds[i], PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0) {
				int err = errno;

				pr_err("failed to set filter \"%s\" on event %s with %d (%s)\n",
				       evsel->filter, evsel__name(evsel), err, strerror(err));
				return -err;
			}
		}
	}
	return 0;
}

/* One ring buffer per cpu (or per thread with --per-thread); every other
 * fd of that cpu/thread is redirected into it with PERF_EVENT_IOC_SET_OUTPUT. */
static int record__mmap(struct record *rec)
{
	struct evlist *evlist = rec->opts.evlist;
	int nr_cpus = perf_cpu_map__nr(rec->cpus), nr_threads = perf_thread_map__nr(rec->threads);
	bool per_cpu = !rec->opts.per_thread;
	int nr = per_cpu ? nr_cpus : nr_threads;
	struct evsel *evsel;
	int nfds = 0;

	rec->mmaps = calloc((size_t)nr, sizeof(*rec->mmaps));
	evlist__for_each_entry(evlist, evsel)
		nfds += evsel->nr_cpus * evsel->nr_threads;
	rec->pfd = calloc((size_t)nfds + 1, sizeof(*rec->pfd));
	if (!rec->mmaps || !rec->pfd)
		return -ENOMEM;
	rec->nr_mmaps = nr;
	for (int i = 0; i < nr; i++)
		rec->mmaps[i].fd = -1;
	evlist__for_each_entry(evlist, evsel) {
		for (int c = 0; c < evsel->nr_cpus; c++) {
			for (int t = 0; t < evsel->nr_threads; t++) {
				int fd = evsel->fds[c * evsel->nr_threads + t];
				int idx = per_cpu ? c : t;
				struct perf_mmap *m = &rec->mmaps[idx];

				if (fd < 0)
					continue;
				if (!m->base) {
					int err = perf_mmap__mmap(m, fd, per_cpu ?
								  perf_cpu_map__cpu(rec->cpus, c) : -1,
								  rec->mmap_pages);

					if (err) {
						pr_err("failed to mmap with %d (%s)%s\n", -err, strerror(-err),
						       err == -EPERM ?
						       ": consider a smaller -m or raising /proc/sys/kernel/perf_event_mlock_kb" : "");
						return err;
					}
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, m->fd) < 0) {
					int err = -errno;

					pr_err("failed to redirect event output: %s\n", strerror(errno));
					return err;
				}
				rec->pfd[rec->nr_pfd].fd = fd;
				rec->pfd[rec->nr_pfd].events = POLLIN;
				rec->nr_pfd++;
			}
		}
	}
	return 0;
}

static void record__set_ioctl(struct record *rec, unsigned long req)
{
	struct evsel *evsel;

	evlist__for_each_entry(rec->opts.evlist, evsel)
		evsel__ioctl(evsel, req, 0);
}

/*
 * Lost samples per fd (read_format LOST, Linux 6.0+) as
 * PERF_RECORD_LOST_SAMPLES records with the fd's id in the sample_id
 * trailer, as perf writes them at the end so reports show
 * "Total Lost Samples".
 */
static void record__write_lost_samples(struct record *rec)
{
	struct evsel *evsel;

	evlist__for_each_entry(rec->opts.evlist, evsel) {
		if (!(evsel->attr.read_format & PERF_FORMAT_LOST) || !evsel->fds)
			continue;
		for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
			uint64_t v[4] = { 0 }, buf[2 + 8] = { 0 }, *id;
			struct perf_record_lost_samples *ls = (void *)buf;
			uint64_t st = rec->sample_type;

			if (evsel->fds[i] < 0 || read(evsel->fds[i], v, sizeof(v)) < (ssize_t)(3 * sizeof(u64)))
				continue;
			/* value, id, lost */
			if (!v[2])
				continue;
			ls->header.type = PERF_RECORD_LOST_SAMPLES;
			ls->header.size = (uint16_t)(sizeof(*ls) + rec->id_hdr_size);
			ls->lost = v[2];
			id = buf + 2;
			if (st & PERF_SAMPLE_TID)
				id++;
			if (st & PERF_SAMPLE_TIME)
				id++;
			if (st & PERF_SAMPLE_ID)
				*id++ = v[1];
			if (st & PERF_SAMPLE_STREAM_ID)
				id++;
			if (st & PERF_SAMPLE_CPU)
				id++;
			if (st & PERF_SAMPLE_IDENTIFIER)
				*id++ = v[1];
			rec->lost_samples += v[2];
			record__write_event(rec, buf, ls->header.size);
		}
	}
}

/* ---------------- features / build-ids ---------------- */

static int record__collect_build_ids(struct record *rec, struct feat_build_id **out)
{
	struct feat_build_id *b = calloc((size_t)rec->nr_dsos + 1, sizeof(*b));
	int n = 0;

	if (!b)
		return 0;
	for (int i = 0; i < rec->nr_dsos; i++) {
		struct rdso *d = &rec->dsos[i];
		int sz;

		if (!d->hit)
			continue;
		if (d->kernel && !strcmp(d->name, "[kernel.kallsyms]")) {
			sz = features__read_build_id("/sys/kernel/notes", true, b[n].bid);
		} else if (d->kernel && d->name[0] == '[') {
			char path[512];
			size_t l = strlen(d->name);

			snprintf(path, sizeof(path), "/sys/module/%.*s/notes/.note.gnu.build-id",
				 (int)(l > 2 ? l - 2 : 0), d->name + 1);
			sz = features__read_build_id(path, true, b[n].bid);
		} else if (d->name[0] == '/' && strncmp(d->name, "//", 2)) {
			sz = features__read_build_id(d->name, false, b[n].bid);
		} else {
			continue;
		}
		if (sz <= 0)
			continue;
		b[n].size = (uint8_t)sz;
		b[n].filename = d->name;
		b[n].kernel = d->kernel;
		n++;
	}
	*out = b;
	return n;
}

/* HEADER_TRACING_DATA hook: the formats of the recorded tracepoints. */
static int record__tracing_data(struct strbuf *sb, void *arg)
{
	struct record *rec = arg;

	return trace_data__build(rec->opts.evlist, sb);
}

static bool record__has_tracepoints(struct record *rec)
{
	struct evsel *evsel;

	evlist__for_each_entry(rec->opts.evlist, evsel)
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

struct attr_set {
	struct writer_attr *attrs;
	const char **names;
	int nr;
};

static int record__attrs(struct record *rec, struct attr_set *s)
{
	struct evsel *evsel;
	int i = 0;

	s->nr = rec->opts.evlist->nr_entries;
	s->attrs = calloc((size_t)s->nr, sizeof(*s->attrs));
	s->names = calloc((size_t)s->nr, sizeof(*s->names));
	if (!s->attrs || !s->names)
		return -ENOMEM;
	evlist__for_each_entry(rec->opts.evlist, evsel) {
		s->attrs[i].attr = &evsel->attr;
		s->attrs[i].ids = evsel->ids;
		s->attrs[i].nr_ids = (size_t)evsel->nr_cpus * (size_t)evsel->nr_threads;
		s->names[i] = evsel__name(evsel);
		i++;
	}
	return 0;
}

static void features_ctx_init(struct record *rec, struct attr_set *s, struct features_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->attrs = s->attrs;
	ctx->names = s->names;
	ctx->nr_attrs = s->nr;
	ctx->version = PRF_VERSION;
	ctx->argc = rec->argc;
	ctx->argv = rec->argv;
	if (record__has_tracepoints(rec)) {
		ctx->tracing_data = record__tracing_data;
		ctx->tracing_arg = rec;
	}
	if (rec->opts.comp_level > 0) {
		ctx->compressed = true;
		ctx->comp_level = (uint32_t)rec->opts.comp_level;
		ctx->comp_ratio = writer__comp_ratio(&rec->writer);
		ctx->comp_mmap_len = (uint32_t)(rec->mmap_pages * page_size());
	}
}

/* ---------------- main ---------------- */

static const char *const record_usage[] = {
	"prf record [<options>] [<command>]",
	"prf record [<options>] -- <command> [<options>]",
	NULL
};

static int record__setup_targets(struct record *rec, int argc, const char **argv)
{
	struct record_opts *o = &rec->opts;
	int err;

	if (o->cpu_list)
		rec->cpus = perf_cpu_map__new(o->cpu_list);
	else if (o->per_thread)
		rec->cpus = perf_cpu_map__dummy_new();
	else
		rec->cpus = perf_cpu_map__new_online();
	if (!rec->cpus) {
		pr_err("Invalid cpu list: %s\n", o->cpu_list ? o->cpu_list : "(online cpus)");
		return -EINVAL;
	}
	if (o->pid_str) {
		rec->threads = thread_map__new_by_pid_str(o->pid_str);
		if (!rec->threads) {
			pr_err("Couldn't find process '%s': %s\n", o->pid_str,
			       errno == ESRCH ? "No such process" : strerror(errno));
			return -ESRCH;
		}
	} else if (o->tid_str) {
		rec->threads = thread_map__new_by_tid_str(o->tid_str);
		if (!rec->threads) {
			pr_err("Couldn't find thread '%s': %s\n", o->tid_str,
			       errno == ESRCH ? "No such process" : strerror(errno));
			return -ESRCH;
		}
	} else if (o->system_wide || o->cpu_list) {
		rec->threads = perf_thread_map__new_dummy();
	}
	if (argc > 0) {
		err = workload__prepare(&rec->wl, argv);
		if (err) {
			pr_err("Couldn't run the workload: %s\n", strerror(-err));
			return err;
		}
		rec->has_workload = true;
		if (!rec->threads)
			rec->threads = thread_map__new_by_tid(rec->wl.pid);
	}
	if (!rec->threads)
		return -ENOMEM;
	return 0;
}

static int record__synthesize(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	int err;

	err = synthesize__kernel_mmap(synth_cb_write, rec, rec->id_hdr_size);
	if (err == -ENOENT)
		pr_debug("Couldn't synthesize the kernel map: no _text in /proc/kallsyms\n");
	else if (err)
		return err;
	err = synthesize__modules(synth_cb_write, rec, rec->id_hdr_size);
	if (err)
		return err;
	if (o->system_wide || (o->cpu_list && !o->pid_str && !o->tid_str)) {
		err = synthesize__all_processes(synth_cb_write, rec, rec->id_hdr_size);
	} else if (o->pid_str || o->tid_str) {
		pid_t last = -1;

		for (int i = 0; i < perf_thread_map__nr(rec->threads) && !err; i++) {
			pid_t tid = perf_thread_map__pid(rec->threads, i);
			char path[64], buf[512], *s;
			pid_t tgid = tid;

			snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
			if (!filename__read_str(path, &s, NULL)) {
				char *t = strstr(s, "\nTgid:");

				if (t)
					tgid = (pid_t)atoi(t + 6);
				free(s);
			}
			(void)buf;
			if (tgid == last)
				continue;
			last = tgid;
			err = synthesize__process(synth_cb_write, rec, rec->id_hdr_size, tgid);
		}
	} else if (rec->has_workload) {
		/* The corked child still has prf's comm; perf names it perf-exec. */
		err = synthesize__comm(synth_cb_write, rec, rec->id_hdr_size, rec->wl.pid,
				       rec->wl.pid, "prf-exec");
	}
	return err;
}

int cmd_record(int argc, const char **argv)
{
	struct record rec_s, *rec = &rec_s;
	struct record_opts *o = &rec->opts;
	struct evsel *evsel;
	struct attr_set as = { 0 };
	struct writer_feat *feats = NULL;
	struct feat_build_id *bids = NULL;
	int nr_feats = 0, status = 0, err, exit_status = 0;
	int wstatus = 0;
	bool workload_reaped = false, workload_failed = false;
	uint64_t freq;
	struct sigaction sa;

	memset(rec, 0, sizeof(*rec));
	rec->writer.fd = -1;
	rec->kernel_dso = -1;
	rec->wl.pid = -1;
	rec->wl.cork_fd = rec->wl.err_fd = -1;
	o->output = NULL;
	o->comp_level = -1;
	o->evlist = evlist__new();
	if (!o->evlist)
		return 1;
	/* parse_options() reorders argv: keep the command line for CMDLINE */
	rec->argv = calloc((size_t)argc + 1, sizeof(*rec->argv));
	if (!rec->argv) {
		evlist__delete(o->evlist);
		return 1;
	}
	for (int i = 0; i < argc; i++)
		rec->argv[i] = argv[i];
	rec->argc = argc;

	const struct option options[] = {
		OPT_CALLBACK('e', "event", &o->evlist, "event",
			     "event selector. use 'prf list' to list available events", opt_event),
		OPT_CALLBACK(0, "filter", o->evlist, "filter",
			     "event filter (for the preceding -e tracepoint)", parse_filter_option),
		OPT_BOOLEAN(0, "off-cpu", &o->off_cpu,
			    "record off-CPU time: sched:sched_switch with callchains and switch records"),
		OPT_STRING('o', "output", &o->output, "file", "output file name ('-' for a pipe)"),
		OPT_STRING('F', "freq", &o->freq_str, "freq or 'max'",
			   "profile at this frequency (Hz, default 4000)"),
		OPT_U64('c', "count", &o->period, "event period to sample"),
		OPT_STRING('p', "pid", &o->pid_str, "pid", "record events on existing process id"),
		OPT_STRING('t', "tid", &o->tid_str, "tid", "record events on existing thread id"),
		OPT_BOOLEAN('a', "all-cpus", &o->system_wide, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o->cpu_list, "cpu", "list of cpus to monitor"),
		OPT_BOOLEAN(0, "per-thread", &o->per_thread, "use per-thread mmaps"),
		OPT_BOOLEAN('i', "no-inherit", &o->no_inherit, "child tasks do not inherit counters"),
		OPT_BOOLEAN('g', NULL, &o->call_graph_g, "enables call-graph recording (fp)"),
		OPT_STRING(0, "call-graph", &o->call_graph, "record_mode[,record_size]",
			   "setup and enables call-graph recording: fp, dwarf[,size], lbr"),
		OPT_BOOLEAN(0, "fp-mix", &o->fp_mix,
			    "with --call-graph dwarf: also record the frame-pointer user callchain, "
			    "used to complete truncated DWARF stacks"),
		OPT_STRING('m', "mmap-pages", &o->mmap_pages_str, "pages",
			   "number of mmap data pages (power of two) or size (512K)"),
		OPT_CALLBACK_OPTARG('z', "compression-level", &o->comp_level, "n",
				    "compress records with zstd (level 1..22, default 1)",
				    opt_compression),
		OPT_BOOLEAN(0, "strict-freq", &o->strict_freq, "fail if the frequency is above the maximum"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "don't print any message"),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose"),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0) {
		evlist__delete(o->evlist);
		free(rec->argv);
		return 129;
	}
	verbose = o->quiet ? -1 : o->verbose;
	if (o->comp_level < 0)
		o->comp_level = 0;
	if (!o->output) {
		struct stat st;

		/* perf writes a pipe when stdout is one and no -o is given */
		o->output = (!fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode)) ? "-" : "perf.data";
	}
	if (!argc && !o->pid_str && !o->tid_str && !o->system_wide && !o->cpu_list) {
		usage_with_options(record_usage, options);
		evlist__delete(o->evlist);
		free(rec->argv);
		return 129;
	}
	if (o->call_graph_g && !o->call_graph)
		rec->cg = CG_FP;
	if (o->call_graph && parse_callgraph(rec, o->call_graph))
		goto out_usage_err;
	if (o->fp_mix && rec->cg != CG_DWARF) {
		pr_err("--fp-mix needs --call-graph dwarf\n");
		goto out_usage_err;
	}
	if (record__freq(rec, &freq) || record__mmap_pages(rec))
		goto out_usage_err;
	if (o->per_thread && (o->system_wide || o->cpu_list)) {
		pr_err("--per-thread cannot be used with -a/-C\n");
		goto out_usage_err;
	}

	if (!o->evlist->nr_entries) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_CPU_CYCLES,
			.precise_ip = 3,
		};
		struct evsel *def = evsel__new(&attr);

		if (!def)
			goto out_err;
		evsel__set_name(def, "cycles:P");
		evlist__add(o->evlist, def);
	}

	if (o->off_cpu && off_cpu__add_record_evsel(o->evlist))
		goto out_err;

	/* Signals before the workload exists, so SIGCHLD is never missed. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);

	if (writer__open(&rec->writer, o->output, o->comp_level))
		goto out_err;
	if (record__setup_targets(rec, argc, argv))
		goto out_err;

	evlist__for_each_entry(o->evlist, evsel)
		record__config_evsel(rec, evsel, evsel == evlist__first(o->evlist), freq);
	{
		/* as perf: events whose sample_types differ carry
		 * PERF_SAMPLE_IDENTIFIER instead of ID, so that readers find the
		 * id at a fixed place in samples and in sample_id trailers */
		uint64_t st0 = evlist__first(o->evlist)->attr.sample_type;
		bool differ = false;

		evlist__for_each_entry(o->evlist, evsel)
			differ |= evsel->attr.sample_type != st0;
		evlist__for_each_entry(o->evlist, evsel) {
			if (!differ)
				break;
			evsel->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
			evsel->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		}
	}
	rec->sample_type = evlist__first(o->evlist)->attr.sample_type;
	rec->id_hdr_size = synthesize__id_hdr_size(rec->sample_type);

	evlist__for_each_entry(o->evlist, evsel) {
		if (record__open_evsel(rec, evsel))
			goto out_err;
	}
	if (record__apply_filters(rec))
		goto out_err;
	if (record__mmap(rec))
		goto out_err;

	/* Header first (data.size 0): a killed prf leaves a readable file. */
	if (record__attrs(rec, &as) || writer__write_header(&rec->writer, as.attrs, as.nr)) {
		pr_err("prf record: failed to write the header of %s: %s\n",
		       rec->writer.is_pipe ? "stdout" : o->output, strerror(-rec->writer.err));
		goto out_err;
	}
	if (rec->writer.is_pipe) {
		struct features_ctx ctx;

		features_ctx_init(rec, &as, &ctx);
		ctx.compressed = o->comp_level > 0;
		if (!features__build(&ctx, &feats, &nr_feats)) {
			for (int i = 0; i < nr_feats; i++) {
				if (feats[i].id == HEADER_TRACING_DATA)
					continue;	/* sent as its own record below */
				writer__write_feature_record(&rec->writer, feats[i].id, feats[i].buf,
							     feats[i].len);
			}
			for (int i = 0; i < nr_feats; i++) {
				if (feats[i].id == HEADER_TRACING_DATA)
					writer__write_tracing_data(&rec->writer, feats[i].buf,
								   feats[i].len);
			}
			features__free(feats, nr_feats);
			feats = NULL;
			nr_feats = 0;
		}
	}
	err = record__synthesize(rec);
	if (err && !rec->write_failed)
		pr_debug("synthesis stopped: %s\n", strerror(-err));
	record__user_record(rec, PERF_RECORD_FINISHED_INIT);
	writer__sync_data_size(&rec->writer);

	/* Go. */
	if (rec->has_workload && o->evlist && evlist__first(o->evlist)->attr.enable_on_exec) {
		err = workload__start(&rec->wl);
	} else {
		record__set_ioctl(rec, PERF_EVENT_IOC_ENABLE);
		err = rec->has_workload ? workload__start(&rec->wl) : 0;
	}
	if (err) {
		/* perf's wording and exit status (-1) */
		pr_err("Failed to collect '%s' for the '%s' workload: %s\n",
		       evsel__name(evlist__first(o->evlist)), argv[0], strerror(-err));
		rec->has_workload = false;
		workload_failed = true;
		done = 1;
	}

	while (!done) {
		uint64_t got = record__mmap_read_all(rec);
		int n, alive = 0;

		if (got)
			continue;
		if (done)
			break;
		n = poll(rec->pfd, (nfds_t)rec->nr_pfd, 500);
		rec->wakeups++;	/* as perf: every poll counts */
		if (n > 0) {
			for (int i = 0; i < rec->nr_pfd; i++) {
				if (rec->pfd[i].revents & (POLLHUP | POLLERR))
					rec->pfd[i].fd = -1;
			}
		}
		for (int i = 0; i < rec->nr_pfd; i++)
			alive += rec->pfd[i].fd >= 0;
		if (!alive)
			done = 1;
		if (child_exited && rec->has_workload) {
			if (waitpid(rec->wl.pid, &wstatus, WNOHANG) == rec->wl.pid) {
				workload_reaped = true;
				done = 1;
			}
			child_exited = 0;
		}
	}
	record__set_ioctl(rec, PERF_EVENT_IOC_DISABLE);
	record__mmap_read_all(rec);
	record__write_lost_samples(rec);
	writer__sync_data_size(&rec->writer);

	if (rec->has_workload && !workload_reaped) {
		if (waitpid(rec->wl.pid, &wstatus, WNOHANG) != rec->wl.pid) {
			kill(rec->wl.pid, SIGTERM);
			waitpid(rec->wl.pid, &wstatus, 0);
		}
		workload_reaped = true;
	}
	if (rec->has_workload)
		exit_status = workload__exit_status(wstatus);

	/* Finish the file: features and the final header. */
	{
		struct features_ctx ctx;
		int nr_bids = record__collect_build_ids(rec, &bids);

		features_ctx_init(rec, &as, &ctx);
		ctx.bids = bids;
		ctx.nr_bids = nr_bids;
		ctx.has_sample_time = rec->first_time != 0;
		ctx.first_sample_time = rec->first_time;
		ctx.last_sample_time = rec->last_time;
		if (!rec->writer.is_pipe && !features__build(&ctx, &feats, &nr_feats)) {
			err = writer__finish(&rec->writer, as.attrs, as.nr, feats, nr_feats);
			if (err && !rec->write_failed)
				pr_warning("Warning: %s: could not write the feature sections: %s\n",
					   o->output, strerror(-err));
		} else if (!rec->writer.is_pipe) {
			writer__finish(&rec->writer, as.attrs, as.nr, NULL, 0);
		}
	}

	if (rec->lost || rec->lost_samples)
		pr_warning("Warning:\nLost %llu samples in %llu chunks! Check IO/CPU overload; "
			   "a bigger buffer (-m) or a lower frequency (-F) helps.\n",
			   (unsigned long long)max(rec->lost, rec->lost_samples),
			   (unsigned long long)rec->lost_chunks);
	if (!o->quiet && !workload_failed) {
		char samples[64] = "";
		uint64_t size = rec->writer.is_pipe ? rec->writer.pipe_bytes :
				(uint64_t)lseek(rec->writer.fd, 0, SEEK_END);

		if (rec->samples)
			snprintf(samples, sizeof(samples), " (%llu samples)",
				 (unsigned long long)rec->samples);
		fprintf(stderr, "[ prf record: Woken up %llu times to write data ]\n",
			(unsigned long long)rec->wakeups);
		fprintf(stderr, "[ prf record: Captured and wrote %.3f MB %s%s ]\n",
			(double)size / 1024.0 / 1024.0,
			rec->writer.is_pipe ? "-" : o->output, samples);
	}
	if (workload_failed)
		status = 255;
	else if (rec->write_failed)
		status = 1;
	else if (rec->has_workload || exit_status)
		status = exit_status;
	else if (signr)
		status = 128 + signr;	/* perf dies by the signal it got */
	goto out;

out_usage_err:
	status = 129;
	goto out;
out_err:
	status = 1;
	if (!rec->writer.data_size)
		writer__abort(&rec->writer);	/* nothing recorded: leave no empty file */
	if (rec->has_workload && rec->wl.pid > 0 && !workload_reaped) {
		if (rec->wl.cork_fd >= 0)
			workload__abort(&rec->wl);
		else {
			kill(rec->wl.pid, SIGTERM);
			waitpid(rec->wl.pid, NULL, 0);
		}
	}
out:
	features__free(feats, nr_feats);
	free(bids);
	free(as.attrs);
	free(as.names);
	for (int i = 0; i < rec->nr_mmaps; i++)
		perf_mmap__munmap(&rec->mmaps[i]);
	free(rec->mmaps);
	free(rec->pfd);
	evlist__for_each_entry(o->evlist, evsel)
		evsel__close(evsel);
	evlist__delete(o->evlist);
	if (rec->cpus)
		perf_cpu_map__put(rec->cpus);
	if (rec->threads)
		perf_thread_map__put(rec->threads);
	writer__close(&rec->writer);
	for (int i = 0; i < rec->nr_dsos; i++)
		free(rec->dsos[i].name);
	free(rec->dsos);
	free(rec->maps);
	free(rec->argv);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * prf record: run a command (or attach to pids/cpus), sample it with
 * perf_event_open(2) into per-cpu (or per-thread) ring buffers and write
 * the records into a perf.data file that Linux perf reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "../arch/x86/perf_regs.h"
#include "../util/lib/debug.h"
#include "../util/lib/config.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/strbuf.h"
#include "../util/lib/util.h"
#include "../util/kernel/callchain-record.h"
#include "../util/kernel/cgroup.h"
#include "../util/kernel/cpumap.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/mmap.h"
#include "../util/kernel/record-loop.h"
#include "../util/kernel/parse-events.h"
#include "../util/kernel/thread_map.h"
#include "../util/session/off-cpu.h"
#include "../util/kernel/workload.h"
#include "../util/format/data.h"
#include "../util/format/event.h"
#include "../util/format/features-write.h"
#include "../util/format/header.h"
#include "../util/format/synthesize.h"
#include "../util/format/trace-data.h"
#include "../util/format/writer.h"
#include "../util/model/build-id-cache.h"
#include "../util/model/dso.h"
#include "../util/model/record-hits.h"

#define DEFAULT_FREQ		4000
#define DEFAULT_MMAP_PAGES	128	/* 512 KiB per buffer, as perf for root */

struct record_opts {
	struct evlist *evlist;
	const char *output;
	const char *freq_str;
	uint64_t period;
	const char *pid_str, *tid_str, *cpu_list;
	bool system_wide, per_thread, no_inherit, quiet, strict_freq;
	bool call_graph_g;
	bool no_buildid;		/* -B, record.build-id=skip */
	bool buildid_all;		/* --buildid-all: of every DSO mapped */
	/* attr bits as perf record's options set them (perf_event_open(2)) */
	bool kernel_callchains, user_callchains;	/* exclude_callchain_user/kernel with -g */
	bool sample_identifier;		/* PERF_SAMPLE_IDENTIFIER instead of ID */
	bool running_time;		/* read_format TOTAL_TIME_ENABLED|RUNNING */
	bool phys_data, data_page_size, code_page_size;	/* PHYS_ADDR, *_PAGE_SIZE */
	bool raw_samples;		/* -R: RAW (and CPU) */
	bool no_bpf_event;		/* side-band without bpf_event */
	bool no_samples;		/* -n: sample period 0 */
	bool no_buffering;		/* wakeup_events 1 */
	bool group;			/* --group: all events one group */
	bool dry_run;			/* parse the options, record nothing */
	bool timestamp_boundary;	/* the header's sample times: always written */
	bool buildid_mmap;		/* --buildid-mmap, record.build-id=mmap */
	bool off_cpu;			/* --off-cpu */
	bool fp_mix;			/* --fp-mix: keep the user FP chain in dwarf mode */
	bool all_user, all_kernel;	/* --all-user, --all-kernel */
	bool timestamp, sample_cpu;	/* -T, --sample-cpu */
	bool data, period_bit, weight;	/* -d, -P, -W */
	bool switch_events, namespaces;	/* --switch-events, --namespaces */
	bool all_cgroups;		/* --all-cgroups */
	int nr_cgroups;			/* -G names given (cgroup.h), empty ones too */
	bool no_buildid_cache;		/* -N, record.build-id=no-cache: leave the build-id cache alone */
	bool no_buildid_set, no_buildid_cache_set;	/* -B, -N given (either way) */
	const char *clockid_str;	/* -k */
	const char *user_regs;		/* --user-regs */
	const char *mmap_flush;		/* --mmap-flush: checked, no effect */
	const char *max_size_str;	/* --max-size */
	int delay_ms;			/* -D: 0 none, -1 start disabled */
	unsigned int proc_map_timeout;	/* --proc-map-timeout, ms; UINT_MAX: not given */
	const char *switch_output;	/* --switch-output[=signal|SIZE|TIME] */
	const char *control;		/* --control fifo:CTL[,ACK] | fd:CTL[,ACK] */
	bool overwrite;			/* --overwrite: flight recorder */
	const char *aio;		/* --aio[=N]: checked, written synchronously */
	unsigned int switch_max_files;	/* --switch-max-files; 0: all kept */
	bool timestamp_filename;	/* --timestamp-filename */
	const char *call_graph;
	const char *mmap_pages_str;
	int comp_level;			/* -1: not given */
	int verbose;
};

struct attr_set {
	struct writer_attr *attrs;
	const char **names;
	int nr;
	struct feat_group *groups;	/* groups of 2+ events ('{a,b}') */
	int nr_groups;
};

struct record {
	struct record_opts opts;
	struct perf_data_writer writer;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct workload wl;
	bool has_workload, workload_reaped, workload_failed;
	int wstatus;			/* of the reaped workload */
	struct record_loop loop;	/* ring buffers and poll fds */
	unsigned int mmap_pages;
	struct callchain_record cg;	/* -g, --call-graph, --fp-mix */
	int clockid;			/* -k: a clockid_t, or -1 */
	uint64_t clockid_res_ns;	/* its clock_getres() */
	uint64_t clock_tod_ns, clock_clockid_ns;	/* read together at the start */
	uint64_t user_regs_mask;	/* --user-regs */
	uint64_t max_size;		/* --max-size, bytes; 0: none */
	bool size_limited;		/* stopped by --max-size: not the workload's failure */
	/* --switch-output: what starts a new file, and the files made */
	enum { SWITCH_NONE, SWITCH_SIGNAL, SWITCH_SIZE, SWITCH_TIME } switch_mode;
	uint64_t switch_size;		/* bytes */
	uint64_t switch_ms, switch_next_ms;	/* period; CLOCK_MONOTONIC deadline */
	char **dumped;			/* names of the files written, oldest first */
	unsigned int nr_dumped;
	uint64_t wakeups_at_switch;	/* loop.wakeups when the last file began */
	const struct record_loop_ops *loop_ops;	/* while record__record() runs */
	struct strbuf kernel_synth;	/* the kernel's synthesized maps, kept for new files */
	int ctl_fd, ack_fd;		/* --control; -1: none */
	bool ctl_opened;		/* the fds are fifos prf opened (closed at exit) */
	struct strbuf ctl_buf;		/* a command read in part */
	struct evsel *tracking;		/* the evsel with the side-band bits */
	uint64_t freq;			/* Hz, for events without -c */
	uint64_t sample_type;		/* of the first evsel (id header layout) */
	size_t id_hdr_size;
	struct attr_set as;		/* the attrs as written to the header */
	/* DSOs hit and sample times, for the feature sections; NULL for a
	 * pipe, which gets its features before the data */
	struct record_hits *hits;
	/* stats */
	uint64_t samples, lost, lost_chunks, lost_samples;
	bool write_failed;
	int argc;
	const char **argv;
};

static volatile sig_atomic_t done;
static volatile sig_atomic_t child_exited;
static volatile sig_atomic_t signr;
static volatile sig_atomic_t switch_req;	/* SIGUSR2 with --switch-output */

static void sig_handler(int sig)
{
	if (sig == SIGUSR2) {
		switch_req = 1;
		return;
	}
	if (sig == SIGCHLD)
		child_exited = 1;
	else
		signr = sig;
	done = 1;
}

/* Look at one record on its way to the file: counts, DSOs hit, times. */
static void record__inspect(struct record *rec, const union perf_event *ev)
{
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		rec->samples++;
	} else if (ev->header.type == PERF_RECORD_LOST) {
		rec->lost += ev->lost.lost;
		rec->lost_chunks++;
	}
	if (rec->hits)
		(void)record_hits__event(rec->hits, ev);	/* -ENOMEM: one record less */
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

/* synth_cb_write() that also keeps a copy of the records in
 * rec->kernel_synth: the kernel's maps, written again into each new file
 * of --switch-output without reading /proc/kallsyms again. */
static int synth_cb_keep(void *arg, const union perf_event *ev)
{
	struct record *rec = arg;

	if (strbuf_add(&rec->kernel_synth, ev, ev->header.size))
		return -ENOMEM;
	return synth_cb_write(arg, ev);
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

/* One --control command: enable/disable [NAME], stop, ping, evlist. */
static void record__ctl_command(struct record *rec, const char *cmd)
{
	struct evlist *evlist = rec->opts.evlist;
	struct evsel *evsel;
	bool enable = !strncmp(cmd, "enable", 6), disable = !strncmp(cmd, "disable", 7);

	if ((enable && !cmd[6]) || (disable && !cmd[7])) {
		if (enable)
			evlist__enable(evlist);
		else
			evlist__disable(evlist);
		pr_info(enable ? "Events enabled\n" : "Events disabled\n");
	} else if ((enable && cmd[6] == ' ') || (disable && cmd[7] == ' ')) {
		const char *name = cmd + (enable ? 7 : 8);
		bool found = false;

		evlist__for_each_entry(evlist, evsel) {
			if (strcmp(evsel__name(evsel), name))
				continue;
			evsel__ioctl(evsel, enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
			found = true;
		}
		if (found)
			pr_info("Event %s %s\n", name, enable ? "enabled" : "disabled");
		else
			pr_err("failed: can't find '%s' event\n", name);
	} else if (!strcmp(cmd, "stop")) {
		done = 1;
	} else if (!strncmp(cmd, "evlist", 6)) {
		evlist__for_each_entry(evlist, evsel)
			fprintf(stderr, "%s\n", evsel__name(evsel));
	} else if (strcmp(cmd, "ping") && strcmp(cmd, "snapshot") && *cmd) {
		pr_err("--control: unknown command '%s'\n", cmd);
	}
	if (rec->ack_fd >= 0 && write(rec->ack_fd, "ack\n", 4) != 4)
		pr_debug("--control: cannot write the ack: %s\n", strerror(errno));
}

/* record_loop_ops.ctl: the control fd is readable; each line a command. */
static void record__loop_ctl(void *arg)
{
	struct record *rec = arg;
	char buf[256];
	ssize_t n;

	while ((n = read(rec->ctl_fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n' && buf[i] != '\0') {
				if (rec->ctl_buf.len < 1024)
					strbuf_addch(&rec->ctl_buf, buf[i]);
				continue;
			}
			record__ctl_command(rec, rec->ctl_buf.buf);
			strbuf_reset(&rec->ctl_buf);
		}
	}
}

/* --switch-output: below, with the file's features and the synthesis */
static bool record__switch_due(struct record *rec);
static void record__maybe_switch(struct record *rec);

/* Bytes written so far: the file's size, or what went down the pipe. */
static uint64_t record__output_size(struct record *rec)
{
	return rec->writer.is_pipe ? rec->writer.pipe_bytes :
	       (uint64_t)lseek(rec->writer.fd, 0, SEEK_END);
}

/* record_loop_ops: what becomes of the ring buffers' bytes and records. */
static int record__loop_write(void *arg, const void *buf, size_t len)
{
	struct record *rec = arg;

	return rec->write_failed ? -EIO : record__write_event(rec, buf, len);
}

static void record__loop_event(void *arg, const union perf_event *ev)
{
	record__inspect(arg, ev);
}

static void record__loop_round(void *arg)
{
	struct record *rec = arg;

	/* --overwrite: no rounds, the readers sort the whole file (the
	 * snapshot's samples are older than side-band written before) */
	if (!rec->opts.overwrite)
		record__user_record(rec, PERF_RECORD_FINISHED_ROUND);
	writer__sync_data_size(&rec->writer);
	if (rec->hits)
		(void)record_hits__round(rec->hits);
	record__maybe_switch(rec);
	if (rec->max_size && !done && record__output_size(rec) >= rec->max_size) {
		fprintf(stderr, "[ prf record: prf size limit reached (%llu KB), stopping session ]\n",
			(unsigned long long)record__output_size(rec) / 1024);
		rec->size_limited = true;
		done = 1;
	}
}

/* After each poll: reap the workload once SIGCHLD came, and stop then. */
static bool record__loop_woken(void *arg)
{
	struct record *rec = arg;
	bool end = false;

	if (child_exited && rec->has_workload) {
		if (waitpid(rec->wl.pid, &rec->wstatus, WNOHANG) == rec->wl.pid) {
			rec->workload_reaped = true;
			end = true;
		}
		child_exited = 0;
	}
	/* a switch due after a wake-up: what the buffers hold goes to the
	 * file being finished (the drain's round switches) */
	if (!end && record__switch_due(rec)) {
		record_loop__drain(&rec->loop, rec->loop_ops, rec);
		record__maybe_switch(rec);
	}
	return end;
}

/* ---------------- options ---------------- */

/* clockid names as perf takes them (-k), and their clock_gettime(2) ids. */
static const struct { const char *name; int id; } clockids[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

/* -k NAME or -k NUMBER (a "CLOCK_" prefix allowed): the clockid, or -1. */
static int parse_clockid(const char *s)
{
	char *end;
	long n;

	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (size_t i = 0; i < ARRAY_SIZE(clockids); i++)
		if (!strcasecmp(s, clockids[i].name))
			return clockids[i].id;
	n = strtol(s, &end, 0);
	return end != s && !*end && n >= 0 && n < 16 ? (int)n : -1;
}

/* --switch-output: "signal", a size (B, K, M, G) or a time (s, m, h, d);
 * perf's spellings. 0 or -1 after a message. */
static int record__check_switch_output(struct record *rec)
{
	const char *s = rec->opts.switch_output;
	static const struct { char unit; uint64_t ms; } times[] = {
		{ 's', 1000 }, { 'm', 60000 }, { 'h', 3600000 }, { 'd', 86400000 },
	};
	char *end;
	uint64_t v;
	bool unit;

	if (!s)
		return 0;
	if (!strcmp(rec->opts.output, "-")) {
		pr_err("--switch-output needs a file: it does not work with -o -\n");
		return -1;
	}
	if (!strcmp(s, "signal")) {
		rec->switch_mode = SWITCH_SIGNAL;
		return 0;
	}
	v = strtoull(s, &end, 10);
	for (size_t i = 0; end != s && v && i < ARRAY_SIZE(times); i++) {
		if (end[0] == times[i].unit && !end[1]) {
			rec->switch_mode = SWITCH_TIME;
			rec->switch_ms = v * times[i].ms;
			return 0;
		}
	}
	if (!parse_size(s, &v, &unit) && unit && v) {
		rec->switch_mode = SWITCH_SIZE;
		rec->switch_size = v;
		return 0;
	}
	pr_err("Invalid --switch-output value: '%s' (signal, a size like 100M or a time like 30s)\n", s);
	return -1;
}

/*
 * --control fd:CTL[,ACK] (fds the caller opened) or fifo:CTL[,ACK] (named
 * pipes prf opens, read-write so that a writer closing never reads as the
 * end). 0 or -1 after a message.
 */
static int record__open_control(struct record *rec)
{
	const char *s = rec->opts.control;
	char *ctl, *ack, *end;

	if (!s)
		return 0;
	if (!strncmp(s, "fd:", 3)) {
		long c = strtol(s + 3, &end, 10), a = -1;

		if (*end == ',')
			a = strtol(end + 1, &end, 10);
		if (end == s + 3 || *end || c < 0 || (strchr(s, ',') && a < 0) ||
		    fcntl((int)c, F_GETFL) < 0 || (a >= 0 && fcntl((int)a, F_GETFL) < 0)) {
			pr_err("--control: bad or closed descriptor in '%s'\n", s);
			return -1;
		}
		rec->ctl_fd = (int)c;
		rec->ack_fd = (int)a;
	} else if (!strncmp(s, "fifo:", 5) && s[5]) {
		ctl = strdup(s + 5);
		if (!ctl)
			return -1;
		ack = strchr(ctl, ',');
		if (ack)
			*ack++ = '\0';
		rec->ctl_fd = open(ctl, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (rec->ctl_fd >= 0 && ack)
			rec->ack_fd = open(ack, O_RDWR | O_CLOEXEC);
		if (rec->ctl_fd < 0 || (ack && rec->ack_fd < 0)) {
			pr_err("--control: cannot open %s: %s\n", rec->ctl_fd < 0 ? ctl : ack,
			       strerror(errno));
			if (rec->ctl_fd >= 0)
				close(rec->ctl_fd);
			rec->ctl_fd = -1;
			free(ctl);
			return -1;
		}
		rec->ctl_opened = true;
		free(ctl);
	} else {
		pr_err("--control: '%s' is neither fd:CTL[,ACK] nor fifo:CTL[,ACK]\n", s);
		return -1;
	}
	fcntl(rec->ctl_fd, F_SETFL, fcntl(rec->ctl_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* -k, --user-regs, --mmap-flush, --max-size, -D, --all-user/--all-kernel:
 * each checked and turned into its setting. 0 or -1 after a message. */
static int record__check_more(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	uint64_t v;
	bool unit;

	if (o->proc_map_timeout == UINT_MAX) {	/* perf-config(1): core.proc-map-timeout */
		const char *v = config__get("core.proc-map-timeout");
		char *end;

		o->proc_map_timeout = 500;
		if (v) {
			unsigned long ms = strtoul(v, &end, 10);

			if (end == v || *end || ms > UINT_MAX - 1) {
				pr_err("Invalid core.proc-map-timeout config value '%s' (ms)\n", v);
				return -1;
			}
			o->proc_map_timeout = (unsigned int)ms;
		}
	}
	synthesize__set_proc_map_timeout(o->proc_map_timeout);
	rec->clockid = -1;
	if (o->clockid_str) {
		struct timespec res, tod, clk;

		rec->clockid = parse_clockid(o->clockid_str);
		if (rec->clockid < 0 || clock_getres(rec->clockid, &res)) {
			pr_err("unknown clockid %s, check man page\n", o->clockid_str);
			return -1;
		}
		rec->clockid_res_ns = (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
		clock_gettime(CLOCK_REALTIME, &tod);
		clock_gettime(rec->clockid, &clk);
		rec->clock_tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_nsec;
		rec->clock_clockid_ns = (uint64_t)clk.tv_sec * 1000000000ULL + (uint64_t)clk.tv_nsec;
	}
	if (o->user_regs) {
		const char *bad;

		if (!strcmp(o->user_regs, "?")) {
			fprintf(stderr, "available registers:");
			for (int i = 0; perf_reg_name(i); i++)
				fprintf(stderr, " %s", perf_reg_name(i));
			fprintf(stderr, "\n");
			return -1;
		}
		if (perf_regs__parse_mask(o->user_regs, &rec->user_regs_mask, &bad)) {
			pr_err("Unknown register \"%.*s\", check man page or run \"prf record --user-regs=?\"\n",
			       (int)strcspn(bad, ","), bad);
			return -1;
		}
	}
	if (o->aio) {
		char *end;
		long n = strtol(o->aio, &end, 10);

		if (end == o->aio || *end || n < 1 || n > 4) {
			pr_err("Invalid --aio value: '%s' (1 to 4 control blocks)\n", o->aio);
			return -1;
		}
		/* the file is the same either way; only how it is written differs */
		pr_info("prf record: --aio: prf writes the data synchronously (the file is the same)\n");
	}
	if (o->mmap_flush && (parse_size(o->mmap_flush, &v, &unit) || !v)) {
		pr_err("Invalid --mmap-flush value: '%s' (bytes, with an optional B/K/M/G)\n",
		       o->mmap_flush);
		return -1;
	}
	if (o->max_size_str) {
		if (parse_size(o->max_size_str, &rec->max_size, &unit) || !rec->max_size) {
			pr_err("Invalid --max-size value: '%s' (bytes, with an optional B/K/M/G)\n",
			       o->max_size_str);
			return -1;
		}
	}
	if (o->delay_ms < -1) {
		pr_err("Invalid -D/--delay value: %d (ms, or -1 to start disabled)\n", o->delay_ms);
		return -1;
	}
	if (o->all_user && o->all_kernel) {
		pr_err("--all-user and --all-kernel exclude each other\n");
		return -1;
	}
	if (record__open_control(rec))
		return -1;
	return record__check_switch_output(rec);
}

/*
 * record.build-id (perf-config(1)): "cache" (the default) writes the
 * build-ids of the DSOs hit and adds the DSOs to the build-id cache,
 * "no-cache" only writes them, as -N, "skip" writes none, as -B, "mmap"
 * is --buildid-mmap. 0 or -1 after a message.
 */
static int record__config_build_id(struct record *rec)
{
	const char *v = config__get("record.build-id");

	if (!v || rec->opts.no_buildid)
		return 0;
	if (!strcmp(v, "skip")) {
		rec->opts.no_buildid = true;
		return 0;
	}
	if (!strcmp(v, "mmap")) {
		rec->opts.buildid_mmap = true;
		return 0;
	}
	if (!strcmp(v, "no-cache")) {
		rec->opts.no_buildid_cache = true;
		return 0;
	}
	if (!strcmp(v, "cache"))
		return 0;
	pr_err("Invalid record.build-id config value '%s' (cache, no-cache, skip or mmap)\n", v);
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

/* -G LIST: cgroups for the events defined so far, as stat's -G. */
static int opt_cgroup(const struct option *opt, const char *str, int unset)
{
	struct record_opts *o = opt->value;

	return unset ? 0 : cgroup__parse_list(o->evlist, str, &o->nr_cgroups);
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

/* The sample_type bits and exclusions the options ask for
 * (perf_event_open(2): sample_type, exclude_user/kernel). */
static void record__config_sample_bits(struct record *rec, struct perf_event_attr *a)
{
	const struct record_opts *o = &rec->opts;

	if (o->timestamp)
		a->sample_type |= PERF_SAMPLE_TIME;
	if (o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->data)
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (o->weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (o->all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (rec->user_regs_mask) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= rec->user_regs_mask;
	}
	if (o->all_user)
		a->exclude_kernel = 1;
	if (o->all_kernel)
		a->exclude_user = 1;
	if (o->phys_data)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (o->data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (o->code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (o->raw_samples)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (o->running_time)
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN) {
		if (o->kernel_callchains)
			a->exclude_callchain_user = 1;
		if (o->user_callchains)
			a->exclude_callchain_kernel = 1;
	}
	if (o->no_buffering)
		a->wakeup_events = 1;
}

static void record__config_evsel(struct record *rec, struct evsel *evsel, bool tracking,
				 uint64_t freq)
{
	struct perf_event_attr *a = &evsel->attr;
	bool cpu_wide = rec->opts.system_wide || rec->opts.cpu_list;
	bool workload_target = rec->has_workload && !cpu_wide && !rec->opts.pid_str &&
			       !rec->opts.tid_str;
	struct callchain_record cg;

	a->size = sizeof(*a);
	/* -a: an uncore event opens on its PMU's cpumask only (-C wins) */
	evsel->own_cpus_only = rec->opts.system_wide && !rec->opts.cpu_list;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	if (!rec->opts.per_thread)
		a->sample_type |= PERF_SAMPLE_TIME;
	if (cpu_wide)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (rec->opts.evlist->nr_entries > 1)
		a->sample_type |= PERF_SAMPLE_ID;
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	callchain_record__config(evsel__callchain(evsel, &rec->cg, &cg), a,
				 PERF_REGS_X86_64_USER_MASK);
	if (evsel->config.max_stack)
		a->sample_max_stack = (uint16_t)evsel->config.max_stack;
	record__config_sample_bits(rec, a);
	if (a->type == PERF_TYPE_TRACEPOINT) {
		/* every hit, with its raw payload, as perf's tracepoint evsels */
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				  PERF_SAMPLE_PERIOD;
		if (!a->sample_period && !a->freq)
			a->sample_period = 1;
	}
	if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT) {
		/* perf's bpf-output evsel: every output a sample (unless
		 * -F asks otherwise) with its raw data and the CPU it was
		 * written on */
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				  PERF_SAMPLE_PERIOD;
		if (!a->sample_period && !a->freq && !rec->opts.freq_str)
			a->sample_period = 1;
	}
	if (rec->opts.period) {
		a->freq = 0;
		a->sample_period = rec->opts.period;
	} else if (!a->sample_period || rec->opts.freq_str) {
		/* -F wins over an event's own default (a tracepoint's 1) */
		a->freq = 1;
		a->sample_freq = freq;
	}
	/* as perf: the period is in the samples when it varies (a frequency),
	 * with -P, and always for tracepoints and bpf-output (above) */
	if (a->freq || rec->opts.period_bit)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (rec->opts.no_samples)	/* perf keeps the freq bit */
		a->sample_period = 0;
	a->disabled = 1;
	a->inherit = !rec->opts.no_inherit && !rec->opts.per_thread;
	evsel__apply_config_terms(evsel, rec->opts.period != 0);
	if (rec->opts.period_bit)	/* -P wins over a fixed period's term */
		a->sample_type |= PERF_SAMPLE_PERIOD;
	/* with -D, only the side-band dummy starts at exec (perf's way) */
	a->enable_on_exec = workload_target && (!rec->opts.delay_ms || evsel == rec->tracking);
	/* group members follow their leader, as perf opens them */
	if (evsel->leader && evsel->leader != evsel)
		a->disabled = a->enable_on_exec = 0;
	a->sample_id_all = 1;
	if (rec->clockid >= 0) {
		a->use_clockid = 1;
		a->clockid = rec->clockid;
	}
	if (tracking) {
		a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
		a->ksymbol = 1;
		a->bpf_event = !rec->opts.no_bpf_event;
		a->build_id = rec->opts.buildid_mmap;
		if (evsel__callchain(evsel, &rec->cg, &cg)->mode == CALLCHAIN_RECORD_DWARF ||
		    rec->opts.data)
			a->mmap_data = 1;
		a->context_switch = rec->opts.switch_events;
		a->namespaces = rec->opts.namespaces;
		a->cgroup = rec->opts.all_cgroups;
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
		if (rec->cg.mode == CALLCHAIN_RECORD_LBR && evsel->attr.branch_sample_type &&
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

static int record__attrs(struct record *rec, struct attr_set *s)
{
	struct evsel *evsel;
	int i = 0;

	s->nr = rec->opts.evlist->nr_entries;
	s->attrs = calloc((size_t)s->nr, sizeof(*s->attrs));
	s->names = calloc((size_t)s->nr, sizeof(*s->names));
	s->groups = calloc((size_t)s->nr, sizeof(*s->groups));
	if (!s->attrs || !s->names || !s->groups)
		return -ENOMEM;
	evlist__for_each_entry(rec->opts.evlist, evsel) {
		if (evsel__is_group_leader(evsel) && evsel->nr_members > 1) {
			s->groups[s->nr_groups].leader_idx = (uint32_t)i;
			s->groups[s->nr_groups++].nr_members = (uint32_t)evsel->nr_members;
		}
		s->attrs[i].attr = &evsel->attr;
		s->attrs[i].ids = evsel->ids;
		s->attrs[i].nr_ids = (size_t)evsel->nr_cpus * (size_t)evsel->nr_threads;
		s->names[i] = evsel__name(evsel);
		i++;
	}
	return 0;
}

static void features_ctx_init(struct record *rec, struct features_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->attrs = rec->as.attrs;
	ctx->names = rec->as.names;
	ctx->nr_attrs = rec->as.nr;
	ctx->groups = rec->as.groups;
	ctx->nr_groups = rec->as.nr_groups;
	ctx->version = PRF_VERSION;
	ctx->argc = rec->argc;
	ctx->argv = rec->argv;
	if (record__has_tracepoints(rec)) {
		ctx->tracing_data = record__tracing_data;
		ctx->tracing_arg = rec;
	}
	if (rec->clockid >= 0) {
		ctx->use_clockid = true;
		ctx->clockid = (uint32_t)rec->clockid;
		ctx->clockid_res_ns = rec->clockid_res_ns;
		ctx->clock_tod_ns = rec->clock_tod_ns;
		ctx->clock_clockid_ns = rec->clock_clockid_ns;
	}
	if (rec->opts.comp_level > 0) {
		ctx->compressed = true;
		ctx->comp_level = (uint32_t)rec->opts.comp_level;
		ctx->comp_ratio = writer__comp_ratio(&rec->writer);
		ctx->comp_mmap_len = (uint32_t)(rec->mmap_pages * page_size());
	}
}

/* A pipe gets the feature sections first, as records (tracing data last,
 * in a record of its own). */
static void record__pipe_features(struct record *rec)
{
	struct writer_feat *feats = NULL;
	struct features_ctx ctx;
	int nr_feats = 0;

	features_ctx_init(rec, &ctx);
	ctx.compressed = rec->opts.comp_level > 0;
	if (features__build(&ctx, &feats, &nr_feats))
		return;
	for (int i = 0; i < nr_feats; i++) {
		if (feats[i].id == HEADER_TRACING_DATA)
			continue;	/* sent as its own record below */
		writer__write_feature_record(&rec->writer, feats[i].id, feats[i].buf, feats[i].len);
	}
	for (int i = 0; i < nr_feats; i++) {
		if (feats[i].id == HEADER_TRACING_DATA)
			writer__write_tracing_data(&rec->writer, feats[i].buf, feats[i].len);
	}
	features__free(feats, nr_feats);
}

/*
 * The DSOs of the build-id list just written into the build-id cache, as
 * perf record does unless -N or record.build-id=no-cache; the file is
 * complete already, so a failure here is a warning only (none with -q;
 * perf says nothing).
 */
static void record__cache_build_ids(struct record *rec, const struct feat_build_id *bids, int nr)
{
	int failed = 0, err;

	if (rec->opts.no_buildid_cache || !nr)
		return;
	err = bid_cache__add_build_ids(bids, nr, &failed);
	if (err && !rec->opts.quiet)
		pr_warning("Warning: %d of %d DSOs not added to the build-id cache %s: %s\n", failed, nr,
			   dso__buildid_dir() ? dso__buildid_dir() : "(no buildid.dir, no $HOME)",
			   strerror(-err));
}

/* A file gets its feature sections (build-ids of the DSOs hit, sample
 * times) and the final header at the end. */
static void record__file_features(struct record *rec)
{
	struct feat_build_id *bids = NULL;
	struct writer_feat *feats = NULL;
	struct features_ctx ctx;
	int nr_feats = 0, nr_bids = 0, err;

	features_ctx_init(rec, &ctx);
	if (rec->hits) {
		nr_bids = rec->opts.no_buildid ? 0 : record_hits__build_ids(rec->hits, rec->opts.buildid_all, &bids);
		if (nr_bids < 0)
			nr_bids = 0;
		ctx.has_sample_time = record_hits__sample_time(rec->hits, &ctx.first_sample_time,
							      &ctx.last_sample_time);
	}
	ctx.bids = bids;
	ctx.nr_bids = nr_bids;
	if (!features__build(&ctx, &feats, &nr_feats)) {
		err = writer__finish(&rec->writer, rec->as.attrs, rec->as.nr, feats, nr_feats);
		if (err && !rec->write_failed)
			pr_warning("Warning: %s: could not write the feature sections: %s\n",
				   rec->opts.output, strerror(-err));
		else if (!err)
			record__cache_build_ids(rec, bids, nr_bids);
	} else {
		writer__finish(&rec->writer, rec->as.attrs, rec->as.nr, NULL, 0);
	}
	features__free(feats, nr_feats);
	free(bids);
}

/* ---------------- main ---------------- */

static const char *const record_usage[] = {
	"prf record [<options>] [<command>]",
	"prf record [<options>] -- <command> [<options>]",
	NULL
};

/* Every CPU of -C is online: else name the first that is not, and the
 * online ones (the kernel's EINVAL would blame the event). 0 or -1. */
static int record__check_cpus(const struct perf_cpu_map *cpus)
{
	struct perf_cpu_map *online = perf_cpu_map__new_online();
	char buf[256] = "?";
	int ret = 0;

	if (!online)
		return 0;	/* unknown: the kernel decides */
	for (int i = 0; i < perf_cpu_map__nr(cpus); i++) {
		int cpu = perf_cpu_map__cpu(cpus, i);

		if (perf_cpu_map__idx(online, cpu) < 0) {
			perf_cpu_map__snprintf(online, buf, sizeof(buf));
			pr_err("-C: CPU %d is not online (online CPUs: %s)\n", cpu, buf);
			ret = -1;
			break;
		}
	}
	perf_cpu_map__put(online);
	return ret;
}

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
	if (o->cpu_list && record__check_cpus(rec->cpus))
		return -EINVAL;
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
		/* perf.data goes to stdout: the command's output must not
		 * mix into it (perf sends it to stderr too) */
		rec->wl.stdout_to_stderr = o->output && !strcmp(o->output, "-");
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

/* --namespaces: the namespaces of the tasks there before the events (the
 * kernel writes them for tasks made later). */
static int record__synthesize_namespaces(struct record *rec)
{
	int err = 0;

	if (rec->has_workload)
		return synthesize__namespaces(synth_cb_write, rec, rec->id_hdr_size,
					      rec->wl.pid, rec->wl.pid);
	for (int i = 0; rec->threads && i < perf_thread_map__nr(rec->threads) && !err; i++) {
		pid_t tid = perf_thread_map__pid(rec->threads, i);

		if (tid > 0)
			err = synthesize__namespaces(synth_cb_write, rec, rec->id_hdr_size, tid, tid);
	}
	return err;
}

/* The side-band of the tasks there before the events (again: for a new
 * file of --switch-output, whose tasks run already). */
static int record__synthesize(struct record *rec, bool again)
{
	struct record_opts *o = &rec->opts;
	int err;

	err = 0;
	if (again) {
		/* the kernel's maps as the first file has them: /proc/kallsyms
		 * can take a second to read, and the tasks may be gone by then */
		for (size_t off = 0; off < rec->kernel_synth.len && !err;) {
			const union perf_event *ev = (const void *)(rec->kernel_synth.buf + off);

			err = synth_cb_write(rec, ev);
			off += ev->header.size;
		}
	} else {
		err = synthesize__kernel_mmap(synth_cb_keep, rec, rec->id_hdr_size);
		if (err == -ENOENT)
			pr_debug("Couldn't synthesize the kernel map: no _text in /proc/kallsyms\n");
		else if (err)
			return err;
		err = synthesize__modules(synth_cb_keep, rec, rec->id_hdr_size);
	}
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
	} else if (rec->has_workload && again) {
		/* a file after --switch-output: the workload as it runs now */
		err = synthesize__process(synth_cb_write, rec, rec->id_hdr_size, rec->wl.pid);
	} else if (rec->has_workload) {
		/* The corked child still has prf's comm; perf names it perf-exec. */
		err = synthesize__comm(synth_cb_write, rec, rec->id_hdr_size, rec->wl.pid,
				       rec->wl.pid, "prf-exec");
	}
	if (!err && o->namespaces)
		err = record__synthesize_namespaces(rec);
	if (!err && o->all_cgroups)
		err = synthesize__cgroups(synth_cb_write, rec, rec->id_hdr_size);
	return err;
}

/* ---------------- --switch-output ---------------- */

/*
 * Give the finished output file its timestamped name, OUTPUT.YYYYMMDDHHMMSScc
 * (local time to the hundredth, perf's suffix), say so, and with
 * --switch-max-files remove the oldest beyond the limit. 0 or -errno.
 */
static int record__dump_file(struct record *rec)
{
	const char *out = rec->opts.output;
	char ts[32], *name, **d;
	struct timeval tv;
	struct tm tm;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d%H%M%S", &tm);
	snprintf(ts + strlen(ts), sizeof(ts) - strlen(ts), "%02d", (int)(tv.tv_usec / 10000));
	if (asprintf(&name, "%s.%s", out, ts) < 0)
		return -ENOMEM;
	if (rename(out, name)) {
		int err = -errno;

		pr_err("prf record: cannot rename %s to %s: %s\n", out, name, strerror(-err));
		free(name);
		return err;
	}
	if (!rec->opts.quiet)	/* -q: silent, as perf's */
		fprintf(stderr, "[ prf record: Dump %s ]\n", name);
	d = realloc(rec->dumped, (rec->nr_dumped + 1) * sizeof(*d));
	if (!d) {
		free(name);
		return -ENOMEM;
	}
	rec->dumped = d;
	rec->dumped[rec->nr_dumped++] = name;
	if (rec->opts.switch_max_files && rec->nr_dumped > rec->opts.switch_max_files) {
		unlink(rec->dumped[0]);
		free(rec->dumped[0]);
		memmove(rec->dumped, rec->dumped + 1, --rec->nr_dumped * sizeof(*d));
	}
	return 0;
}

/*
 * Finish the output file as a whole perf.data (features, header), give it
 * its timestamped name, and go on in a new OUTPUT with the header and the
 * side-band of the running tasks, so that each file reads on its own.
 * 0, or -1 after a message (the recording stops).
 */
static int record__switch_output(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	int err;

	if (o->overwrite)	/* a snapshot of the flight recorder */
		record_loop__drain_backward(&rec->loop, rec->loop_ops, rec);
	writer__sync_data_size(&rec->writer);
	record__file_features(rec);
	writer__close(&rec->writer);
	if (!o->quiet)
		fprintf(stderr, "[ prf record: dump data: Woken up %llu times ]\n",
			(unsigned long long)(rec->loop.wakeups - rec->wakeups_at_switch));
	rec->wakeups_at_switch = rec->loop.wakeups;
	if (record__dump_file(rec))
		return -1;
	record_hits__delete(rec->hits);
	rec->hits = record_hits__new(o->evlist);
	if (!rec->hits || writer__open(&rec->writer, o->output, o->comp_level) ||
	    writer__write_header(&rec->writer, rec->as.attrs, rec->as.nr)) {
		pr_err("prf record: cannot start the next output file %s\n", o->output);
		return -1;
	}
	err = record__synthesize(rec, true);
	if (err && !rec->write_failed)
		pr_debug("synthesis stopped: %s\n", strerror(-err));
	record__user_record(rec, PERF_RECORD_FINISHED_INIT);
	writer__sync_data_size(&rec->writer);
	return 0;
}

/* Whether the output is to switch now: its signal came, its size or its
 * time is reached. */
static bool record__switch_due(struct record *rec)
{
	switch (rec->switch_mode) {
	case SWITCH_SIGNAL:
		return switch_req;
	case SWITCH_SIZE:
		return record__output_size(rec) >= rec->switch_size;
	case SWITCH_TIME:
		if (!rec->switch_next_ms)
			rec->switch_next_ms = now_ns() / 1000000 + rec->switch_ms;
		return now_ns() / 1000000 >= rec->switch_next_ms;
	case SWITCH_NONE:
		break;
	}
	return false;
}

/* Whether the command has exited (reaped or not): its maps are gone from
 * /proc, so a file begun now could not describe the samples it still
 * sends; the recording is ending anyway. */
static bool record__workload_gone(struct record *rec)
{
	siginfo_t si = { 0 };

	if (!rec->has_workload || rec->workload_reaped)
		return rec->has_workload;
	return !waitid(P_PID, (id_t)rec->wl.pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid;
}

/* At a round's end (the buffers drained): switch the output when due. */
static void record__maybe_switch(struct record *rec)
{
	if (!record__switch_due(rec) || record__workload_gone(rec))
		return;
	switch_req = 0;
	if (rec->switch_mode == SWITCH_TIME)
		rec->switch_next_ms += rec->switch_ms;
	if (!done && record__switch_output(rec))
		done = 1;
}


/* Parse the command line into rec->opts. The remaining argc (the
 * workload's), or -1 for a usage error (exit status 129). */
static int record__parse_options(struct record *rec, int argc, const char **argv)
{
	struct record_opts *o = &rec->opts;
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
		OPT_BOOLEAN_SET('B', "no-buildid", &o->no_buildid, &o->no_buildid_set,
				"do not collect buildids in perf.data"),
		OPT_BOOLEAN(0, "buildid-all", &o->buildid_all,
			    "Record build-id of all DSOs regardless of hits"),
		OPT_BOOLEAN(0, "buildid-mmap", &o->buildid_mmap, "Record build-id in map events"),
		OPT_BOOLEAN(0, "kernel-callchains", &o->kernel_callchains, "collect kernel callchains"),
		OPT_BOOLEAN(0, "user-callchains", &o->user_callchains, "collect user callchains"),
		OPT_BOOLEAN(0, "sample-identifier", &o->sample_identifier, "Record the sample identifier"),
		OPT_BOOLEAN(0, "running-time", &o->running_time,
			    "Record running/enabled time of read (:S) events"),
		OPT_BOOLEAN(0, "phys-data", &o->phys_data, "Record the sample physical addresses"),
		OPT_BOOLEAN(0, "data-page-size", &o->data_page_size,
			    "Record the sampled data address data page size"),
		OPT_BOOLEAN(0, "code-page-size", &o->code_page_size,
			    "Record the sampled code address (ip) page size"),
		OPT_BOOLEAN('R', "raw-samples", &o->raw_samples,
			    "collect raw sample records from all opened counters"),
		OPT_BOOLEAN(0, "no-bpf-event", &o->no_bpf_event, "do not record bpf events"),
		OPT_BOOLEAN('n', "no-samples", &o->no_samples, "don't sample"),
		OPT_BOOLEAN(0, "no-buffering", &o->no_buffering, "collect data without buffering"),
		OPT_BOOLEAN(0, "group", &o->group, "put the counters into a counter group"),
		OPT_BOOLEAN(0, "dry-run", &o->dry_run, "Parse options then exit"),
		OPT_BOOLEAN(0, "timestamp-boundary", &o->timestamp_boundary,
			    "Record timestamp boundary (time of first/last samples)"),
		OPT_BOOLEAN_SET('N', "no-buildid-cache", &o->no_buildid_cache, &o->no_buildid_cache_set,
				"do not update the buildid cache"),
		OPT_BOOLEAN(0, "all-user", &o->all_user, "Configure all used events to run in user space."),
		OPT_BOOLEAN(0, "all-kernel", &o->all_kernel,
			    "Configure all used events to run in kernel space."),
		OPT_BOOLEAN('T', "timestamp", &o->timestamp, "Record the sample timestamps"),
		OPT_BOOLEAN(0, "sample-cpu", &o->sample_cpu, "Record the sample cpu"),
		OPT_BOOLEAN('d', "data", &o->data, "Record the sample addresses"),
		OPT_BOOLEAN('P', "period", &o->period_bit, "Record the sample period"),
		OPT_BOOLEAN('W', "weight", &o->weight, "sample by weight (on special events only)"),
		OPT_BOOLEAN(0, "switch-events", &o->switch_events, "Record context switch events"),
		OPT_BOOLEAN(0, "namespaces", &o->namespaces, "Record namespaces events"),
		OPT_BOOLEAN(0, "all-cgroups", &o->all_cgroups, "Record cgroup events"),
		OPT_CALLBACK('G', "cgroup", o, "name", "monitor event in cgroup name only", opt_cgroup),
		OPT_STRING('k', "clockid", &o->clockid_str, "clockid",
			   "clockid to use for events, see clock_gettime()"),
		OPT_STRING(0, "user-regs", &o->user_regs, "register list",
			   "sample selected machine registers on user space: ax,bx,... "
			   "(use '?' to list them)"),
		OPT_STRING(0, "mmap-flush", &o->mmap_flush, "number",
			   "Minimal number of bytes that is extracted from mmap data pages"),
		OPT_STRING(0, "max-size", &o->max_size_str, "size",
			   "Limit the maximum size of the output file (B, K, M, G)"),
		OPT_UINTEGER(0, "proc-map-timeout", &o->proc_map_timeout,
			     "per thread proc mmap processing timeout in ms"),
		OPT_STRING_OPTARG(0, "switch-output", &o->switch_output, "signal or size[BKMG] or time[smhd]",
				  "Switch output when receiving SIGUSR2 (signal) or cross a size or time threshold",
				  "signal"),
		OPT_STRING(0, "control", &o->control, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
			   "Listen on ctl-fd descriptor for command to control measurement ('enable': enable events, "
			   "'disable': disable events, 'enable name', 'disable name', 'stop', 'ping', 'evlist'); "
			   "optionally send control command completion ('ack\\n') to ack-fd descriptor"),
		OPT_BOOLEAN(0, "overwrite", &o->overwrite, "use overwrite mode"),
		OPT_STRING_OPTARG(0, "aio", &o->aio, "n",
				  "Use <n> control blocks in asynchronous (Posix AIO) trace writing mode "
				  "(default: 1, max: 4); prf writes synchronously", "1"),
		OPT_UINTEGER(0, "switch-max-files", &o->switch_max_files,
			     "Limit number of switch output generated files"),
		OPT_BOOLEAN(0, "timestamp-filename", &o->timestamp_filename,
			    "append timestamp to output filename"),
		OPT_INTEGER('D', "delay", &o->delay_ms,
			    "ms to wait before starting measurement after program start "
			    "(-1: start with events disabled)"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "don't print any message"),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose"),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return -1;
	verbose = o->quiet ? -1 : o->verbose;
	if (o->comp_level < 0)
		o->comp_level = 0;
	if (!o->output) {
		struct stat st;

		/* perf writes a pipe when stdout is one and no -o is given */
		o->output = (!fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode)) ? "-" : "perf.data";
	}
	if (!argc && !o->pid_str && !o->tid_str && !o->system_wide && !o->cpu_list) {
		/* perf records system-wide here; prf asks for it (-a) */
		pr_err("prf record: nothing to record: give a command, -p/-t (a process or\n"
		       "thread), or -a/-C (all or some CPUs; perf records system-wide without one)\n");
		usage_with_options(record_usage, options);
		return -1;
	}
	return argc;
}

/* Check the options against each other and derive the settings: call
 * graph, frequency, buffer size. 0, or -1 for a usage error (129). */
static int record__check_options(struct record *rec)
{
	struct record_opts *o = &rec->opts;

	/* perf-config(1): -g records in call-graph.record-mode */
	if (o->call_graph_g && !o->call_graph && callchain_record__parse_g(&rec->cg))
		return -1;
	if (o->call_graph && callchain_record__parse(&rec->cg, o->call_graph))
		return -1;
	rec->cg.fp_mix = o->fp_mix;
	if (record__config_build_id(rec) || record__check_more(rec))
		return -1;
	/* perf writes no build-ids and caches none with --switch-output,
	 * unless --no-no-buildid or --no-no-buildid-cache asks for them */
	if (o->switch_output && !(o->no_buildid_set && !o->no_buildid) &&
	    !(o->no_buildid_cache_set && !o->no_buildid_cache))
		o->no_buildid = o->no_buildid_cache = true;
	if (o->buildid_mmap) {
		/* the maps carry the build-ids: none at the end, as perf */
		o->no_buildid = true;
		synthesize__set_build_id_mmap(true);
	}
	if (o->fp_mix && rec->cg.mode != CALLCHAIN_RECORD_DWARF) {
		pr_err("--fp-mix needs --call-graph dwarf\n");
		return -1;
	}
	if (record__freq(rec, &rec->freq) || record__mmap_pages(rec))
		return -1;
	if (o->per_thread && (o->system_wide || o->cpu_list)) {
		pr_err("--per-thread cannot be used with -a/-C\n");
		return -1;
	}
	if (o->nr_cgroups && !o->system_wide && !o->cpu_list) {
		pr_err("cgroup monitoring (-G) is only available in system-wide mode (-a or -C)\n");
		return -1;
	}
	if (o->freq_str && o->period) {
		pr_err("cannot set frequency and period at the same time\n");
		return -1;
	}
	/* a process or thread target wins over -a and -C, with a warning (as perf) */
	if ((o->pid_str || o->tid_str) && o->cpu_list) {
		pr_warning("Warning:\nPID/TID switch overriding CPU\n");
		o->cpu_list = NULL;
	}
	if ((o->pid_str || o->tid_str) && o->system_wide) {
		pr_warning("Warning:\nPID/TID switch overriding SYSTEM\n");
		o->system_wide = false;
	}
	return 0;
}

/* cycles:P when no event was given, and the off-CPU event. 0 or -ENOMEM. */
static int record__add_events(struct record *rec)
{
	struct evlist *evlist = rec->opts.evlist;

	if (!evlist->nr_entries) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_CPU_CYCLES,
			.precise_ip = 3,
		};
		struct evsel *def = evsel__new(&attr);

		if (!def)
			return -ENOMEM;
		evsel__set_name(def, "cycles:P");
		evlist__add(evlist, def);
	}
	if (rec->opts.group && evlist->nr_entries > 1) {
		struct evsel *lead = evlist__first(evlist), *evsel;

		evlist__for_each_entry(evlist, evsel)
			evsel->leader = lead;
		evlist__update_groups(evlist);
	}
	if (rec->opts.off_cpu && off_cpu__add_record_evsel(evlist))
		return -ENOMEM;
	rec->tracking = evlist__first(evlist);
	if (rec->opts.delay_ms || rec->opts.overwrite) {
		/* -D: the side-band (mmaps of the exec) from the start, in a
		 * dummy event of its own, as perf does; --overwrite: the
		 * side-band kept whole while the samples' rings are overwritten */
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_DUMMY,
			.sample_period = 1,
		};
		struct evsel *dummy = evsel__new(&attr);

		if (!dummy)
			return -ENOMEM;
		evsel__set_name(dummy, "dummy:HG");
		evlist__add(evlist, dummy);
		rec->tracking = dummy;
	}
	return 0;
}

/* Set up every attr for the targets; events whose sample_types differ
 * carry PERF_SAMPLE_IDENTIFIER instead of ID, as perf's do, so that
 * readers find the id at a fixed place in samples and in sample_id
 * trailers. */
static void record__config_events(struct record *rec)
{
	struct evlist *evlist = rec->opts.evlist;
	struct evsel *evsel;
	bool differ = false;
	uint64_t st0;

	evlist__for_each_entry(evlist, evsel)
		record__config_evsel(rec, evsel, evsel == rec->tracking, rec->freq);
	if (rec->tracking != evlist__first(evlist)) {	/* the dummy counts nothing */
		struct perf_event_attr *a = &rec->tracking->attr;

		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
		a->freq = 0;
		a->sample_period = 1;
	}
	evlist__for_each_entry(evlist, evsel)	/* --overwrite: rings of their own */
		evsel->attr.write_backward = rec->opts.overwrite && evsel != rec->tracking;
	st0 = evlist__first(evlist)->attr.sample_type;
	evlist__for_each_entry(evlist, evsel)
		differ |= evsel->attr.sample_type != st0;
	differ |= rec->opts.sample_identifier;
	evlist__for_each_entry(evlist, evsel) {
		if (!differ)
			break;
		evsel->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
		evsel->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
	}
	rec->sample_type = evlist__first(evlist)->attr.sample_type;
	rec->id_hdr_size = synthesize__id_hdr_size(rec->sample_type);
}

static void record__signals(const struct record *rec)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	if (rec->switch_mode == SWITCH_SIGNAL)
		sigaction(SIGUSR2, &sa, NULL);
}

/*
 * Everything before the events run: the output, the targets (the workload
 * forked and corked), the events opened with their ring buffers, the
 * header, the synthesized side-band records. 0, or -1 after a message.
 */
static int record__setup(struct record *rec, int argc, const char **argv)
{
	struct record_opts *o = &rec->opts;
	struct evsel *evsel;
	int err;

	if (record__add_events(rec))
		return -1;
	/* Signals before the workload exists, so SIGCHLD is never missed. */
	record__signals(rec);
	if (writer__open(&rec->writer, o->output, o->comp_level))
		return -1;
	if (record__setup_targets(rec, argc, argv))
		return -1;
	record__config_events(rec);
	evlist__for_each_entry(o->evlist, evsel) {
		if (record__open_evsel(rec, evsel))
			return -1;
	}
	if (record__apply_filters(rec))
		return -1;
	if (record_loop__mmap(&rec->loop, o->evlist, rec->cpus, rec->threads, o->per_thread,
			      rec->mmap_pages))
		return -1;
	if (!rec->writer.is_pipe) {
		rec->hits = record_hits__new(o->evlist);
		if (!rec->hits)
			return -1;
	}
	/* Header first (data.size 0): a killed prf leaves a readable file. */
	if (record__attrs(rec, &rec->as) ||
	    writer__write_header(&rec->writer, rec->as.attrs, rec->as.nr)) {
		pr_err("prf record: failed to write the header of %s: %s\n",
		       rec->writer.is_pipe ? "stdout" : o->output, strerror(-rec->writer.err));
		return -1;
	}
	if (rec->writer.is_pipe)
		record__pipe_features(rec);
	err = record__synthesize(rec, false);
	if (err && !rec->write_failed)
		pr_debug("synthesis stopped: %s\n", strerror(-err));
	record__user_record(rec, PERF_RECORD_FINISHED_INIT);
	writer__sync_data_size(&rec->writer);
	return 0;
}

/* Enable the events and let the workload exec. */
static void record__start(struct record *rec, const char **argv)
{
	struct evlist *evlist = rec->opts.evlist;
	int err;

	if (rec->has_workload && rec->tracking->attr.enable_on_exec) {
		err = workload__start(&rec->wl);
	} else {
		if (rec->opts.delay_ms)	/* the side-band only, for now */
			evsel__ioctl(rec->tracking, PERF_EVENT_IOC_ENABLE, 0);
		else
			evlist__enable(evlist);
		err = rec->has_workload ? workload__start(&rec->wl) : 0;
	}
	if (!err && rec->opts.delay_ms) {
		/* -D: the events wait; -1 leaves them disabled */
		pr_info("Events disabled\n");
		if (rec->opts.delay_ms > 0) {
			struct timespec ts = { rec->opts.delay_ms / 1000,
					       (rec->opts.delay_ms % 1000) * 1000000L };

			while (nanosleep(&ts, &ts) && errno == EINTR && !done)
				;
			if (!done) {
				evlist__enable(evlist);
				pr_info("Events enabled\n");
			}
		}
	}
	if (err) {
		/* perf's wording and exit status (-1) */
		pr_err("Failed to collect '%s' for the '%s' workload: %s\n",
		       evsel__name(evlist__first(evlist)), argv[0], strerror(-err));
		rec->has_workload = false;
		rec->workload_failed = true;
		done = 1;
	}
}

/* Record until done, then the lost-sample counts; reap the workload. */
static void record__record(struct record *rec)
{
	const struct record_loop_ops ops = {
		.write = record__loop_write,
		.event = record__loop_event,
		.round = record__loop_round,
		.woken = record__loop_woken,
		.ctl = record__loop_ctl,
		.whole_records = rec->writer.comp_level != 0,
	};

	rec->loop_ops = &ops;
	if (rec->ctl_fd >= 0)
		record_loop__set_ctl_fd(&rec->loop, rec->ctl_fd);
	record_loop__run(&rec->loop, rec->opts.evlist, &ops, rec, &done);
	if (rec->opts.overwrite)	/* the flight recorder's last window */
		record_loop__drain_backward(&rec->loop, &ops, rec);
	rec->loop_ops = NULL;
	record__write_lost_samples(rec);
	writer__sync_data_size(&rec->writer);
	if (rec->has_workload && !rec->workload_reaped) {
		if (waitpid(rec->wl.pid, &rec->wstatus, WNOHANG) != rec->wl.pid) {
			kill(rec->wl.pid, SIGTERM);
			waitpid(rec->wl.pid, &rec->wstatus, 0);
		}
		rec->workload_reaped = true;
	}
}

static int count_sample_record(void *ctx, union perf_event *ev, uint64_t off, struct rec_chunk *owner)
{
	(void)off;
	(void)owner;
	if (ev->header.type == PERF_RECORD_SAMPLE)
		(*(uint64_t *)ctx)++;
	return 0;
}

/* The samples in the finished file, read back (compressed records
 * inflated): after a failed write, what reached it rather than what was
 * drained from the ring buffers. */
static uint64_t record__samples_in_file(struct record *rec)
{
	struct perf_data d;
	uint64_t n = 0;

	memset(&d, 0, sizeof(d));
	d.ops.record = count_sample_record;
	d.ops_ctx = &n;
	if (!perf_data__open(&d, rec->opts.output))
		(void)perf_data__read(&d);
	perf_data__close(&d);
	return n;
}

/* Finish the file, print the summary; the exit status. */
static int record__finish(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	/* a workload prf stopped at --max-size ends the session well, as perf's */
	int exit_status = rec->has_workload && !rec->size_limited ?
			  workload__exit_status(rec->wstatus) : 0;

	bool dump = !rec->writer.is_pipe && (rec->switch_mode || o->timestamp_filename);
	uint64_t size;

	if (!rec->writer.is_pipe)
		record__file_features(rec);
	if (rec->write_failed && !rec->writer.is_pipe)
		rec->samples = record__samples_in_file(rec);
	size = record__output_size(rec);
	if (dump && record__dump_file(rec))
		return 1;
	if (rec->lost || rec->lost_samples)
		pr_warning("Warning:\nLost %llu samples in %llu chunks! Check IO/CPU overload; "
			   "a bigger buffer (-m) or a lower frequency (-F) helps.\n",
			   (unsigned long long)max(rec->lost, rec->lost_samples),
			   (unsigned long long)rec->lost_chunks);
	if (!o->quiet && !rec->workload_failed) {
		char samples[64] = "";

		if (rec->samples && !dump)
			snprintf(samples, sizeof(samples), " (%llu samples)",
				 (unsigned long long)rec->samples);
		fprintf(stderr, "[ prf record: Woken up %llu times to write data ]\n",
			(unsigned long long)rec->loop.wakeups);
		fprintf(stderr, "[ prf record: Captured and wrote %.3f MB %s%s%s ]\n",
			(double)size / 1024.0 / 1024.0,
			rec->writer.is_pipe ? "-" : o->output, dump ? ".<timestamp>" : "", samples);
	}
	if (rec->workload_failed)
		return 255;
	if (rec->write_failed)
		return 1;
	if (rec->has_workload || exit_status)
		return exit_status;
	if (signr)
		return 128 + signr;	/* perf dies by the signal it got */
	return 0;
}

/* After a failed setup: leave no empty file, no corked or running child. */
static void record__abort(struct record *rec)
{
	if (!rec->writer.data_size)
		writer__abort(&rec->writer);	/* nothing recorded: leave no empty file */
	if (rec->has_workload && rec->wl.pid > 0 && !rec->workload_reaped) {
		if (rec->wl.cork_fd >= 0)
			workload__abort(&rec->wl);
		else {
			kill(rec->wl.pid, SIGTERM);
			waitpid(rec->wl.pid, NULL, 0);
		}
	}
}

static int record__init(struct record *rec, int argc, const char **argv)
{
	memset(rec, 0, sizeof(*rec));
	strbuf_init(&rec->kernel_synth, 0);
	strbuf_init(&rec->ctl_buf, 0);
	rec->ctl_fd = rec->ack_fd = -1;
	rec->writer.fd = -1;
	rec->wl.pid = -1;
	rec->wl.cork_fd = rec->wl.err_fd = -1;
	rec->opts.comp_level = -1;
	rec->opts.proc_map_timeout = UINT_MAX;
	rec->opts.evlist = evlist__new();
	if (!rec->opts.evlist)
		return -ENOMEM;
	/* parse_options() reorders argv: keep the command line for CMDLINE */
	rec->argv = calloc((size_t)argc + 1, sizeof(*rec->argv));
	if (!rec->argv)
		return -ENOMEM;
	for (int i = 0; i < argc; i++)
		rec->argv[i] = argv[i];
	rec->argc = argc;
	return 0;
}

static void record__exit(struct record *rec)
{
	struct evsel *evsel;

	record_hits__delete(rec->hits);
	free(rec->as.attrs);
	free(rec->as.groups);
	free(rec->as.names);
	record_loop__munmap(&rec->loop);
	if (rec->opts.evlist) {
		evlist__for_each_entry(rec->opts.evlist, evsel)
			evsel__close(evsel);
		evlist__delete(rec->opts.evlist);
	}
	if (rec->cpus)
		perf_cpu_map__put(rec->cpus);
	if (rec->threads)
		perf_thread_map__put(rec->threads);
	writer__close(&rec->writer);
	free(rec->argv);
	for (unsigned int i = 0; i < rec->nr_dumped; i++)
		free(rec->dumped[i]);
	free(rec->dumped);
	strbuf_release(&rec->kernel_synth);
	strbuf_release(&rec->ctl_buf);
	if (rec->ctl_opened) {
		close(rec->ctl_fd);
		if (rec->ack_fd >= 0)
			close(rec->ack_fd);
	}
}

/*
 * --dry-run with -v: each event's perf_event_attr as record would open it
 * for these options, in perf evlist -v's form (perf's --dry-run prints
 * nothing; this shows what an event string became without opening it).
 * 0, or -1 after a message.
 */
static int record__dry_run(struct record *rec, int argc)
{
	struct evsel *evsel;

	if (rec->opts.verbose <= 0)
		return 0;
	if (record__add_events(rec))
		return -1;
	rec->has_workload = argc > 0;
	record__config_events(rec);
	evlist__for_each_entry(rec->opts.evlist, evsel) {
		bool first = true;

		fputs(evsel__name(evsel), stdout);
		perf_event_attr__fprintf_evlist(stdout, &evsel->attr, &first);
		putchar('\n');
	}
	return 0;
}

int cmd_record(int argc, const char **argv)
{
	struct record rec_s, *rec = &rec_s;
	int status;

	if (record__init(rec, argc, argv)) {
		record__exit(rec);
		return 1;
	}
	argc = record__parse_options(rec, argc, argv);
	if (argc < 0 || record__check_options(rec)) {
		status = 129;
	} else if (rec->opts.dry_run) {
		status = record__dry_run(rec, argc) ? 1 : 0;
	} else if (record__setup(rec, argc, argv)) {
		record__abort(rec);
		status = 1;
	} else {
		record__start(rec, argv);
		record__record(rec);
		status = record__finish(rec);
	}
	record__exit(rec);
	return status;
}

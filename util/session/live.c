// SPDX-License-Identifier: GPL-2.0
/*
 * Live session: ring-buffer records delivered to a perf_tool without a
 * file. See live.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "live.h"
#include "../format/features-write.h"
#include "../format/synthesize.h"
#include "../format/writer.h"
#include "../kernel/cpumap.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../kernel/record-loop.h"
#include "../kernel/thread_map.h"
#include "../kernel/tracefs.h"
#include "../kernel/workload.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../model/machine.h"
#include "../model/model.h"
#include "../model/record-hits.h"

struct live {
	struct evlist *evlist;		/* owned until the session takes it */
	struct perf_session *session;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct record_loop loop;
	struct workload wl;
	bool has_workload, reaped, per_thread;
	int exec_err;			/* the command could not be run */
	int wstatus;
	int err;			/* first tool error */
	uint64_t nr_records;
	size_t id_hdr_size;
	/* the records of one drain pass, delivered in time order at its end */
	char *pass;
	size_t pass_len, pass_cap;
	struct pass_rec { uint64_t time; size_t off; } *recs;
	size_t nr_recs, recs_cap;
	/* live__set_tick() */
	void (*tick)(void *arg);
	void *tick_arg;
	uint64_t tick_ns, next_tick;
	/* live__set_input() */
	void (*input)(void *arg);
	void *input_arg;
	/* live_target.record */
	struct perf_data_writer writer;
	bool writing;			/* the writer is open and has not failed */
	const struct live_record *rec;
	struct writer_attr *attrs;
	const char **names;
	int nr_attrs;
	struct record_hits *hits;	/* DSOs samples hit, for the build-ids */
	uint64_t rec_samples;
};

static int live__targets(struct live *l, const struct live_target *t, const char *const *argv)
{
	int err;

	l->wl.pid = -1;
	if (t->cpu_list)
		l->cpus = perf_cpu_map__new(t->cpu_list);
	else
		l->cpus = perf_cpu_map__new_online();
	if (!l->cpus) {
		pr_err("Invalid cpu list: %s\n", t->cpu_list ? t->cpu_list : "(online cpus)");
		return -EINVAL;
	}
	if (t->pid_str || t->tid_str) {
		const char *s = t->pid_str ? t->pid_str : t->tid_str;

		l->threads = t->pid_str ? thread_map__new_by_pid_str(s) : thread_map__new_by_tid_str(s);
		if (!l->threads) {
			pr_err("Couldn't find %s '%s': %s\n", t->pid_str ? "process" : "thread", s,
			       errno == ESRCH || !errno ? "No such process" : strerror(errno));
			return -ESRCH;
		}
	} else if (t->system_wide || t->cpu_list) {
		l->threads = perf_thread_map__new_dummy();
	}
	/* a command runs with any target: tracing ends when it does */
	if (argv && argv[0]) {
		err = workload__prepare(&l->wl, argv);
		if (err) {
			pr_err("Couldn't run the workload: %s\n", strerror(-err));
			return err;
		}
		l->has_workload = true;
		if (!l->threads)
			l->threads = thread_map__new_by_tid(l->wl.pid);
	}
	return l->threads ? 0 : -ENOMEM;
}

static void live__config(struct live *l, struct evlist *evlist, const struct live_target *t)
{
	bool cpu_wide = t->system_wide || t->cpu_list;
	bool workload_only = l->has_workload && !cpu_wide && !t->pid_str && !t->tid_str;
	struct evsel *evsel;

	uint64_t st0 = evlist__first(evlist)->attr.sample_type;
	bool differ = false;

	evlist__for_each_entry(evlist, evsel)
		differ |= evsel->attr.sample_type != st0;
	evlist__for_each_entry(evlist, evsel) {
		struct perf_event_attr *a = &evsel->attr;

		a->size = sizeof(*a);
		/* the id where every record has it when the layouts differ */
		if (differ)
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		else if (evlist->nr_entries > 1)
			a->sample_type |= PERF_SAMPLE_ID;
		a->read_format |= PERF_FORMAT_ID;
		a->disabled = 1;
		a->inherit = !t->no_inherit;
		a->enable_on_exec = workload_only;
		a->sample_id_all = 1;
		if (evsel == evlist__first(evlist)) {
			a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
			evsel->tracking = true;
		}
	}
}

/*
 * No cycles PMU (a VM): sample cpu-clock instead, named as perf names
 * it then ("cpu-clock:ppp" for cycles:P); a precise level the event
 * refuses is lowered. true when the attr changed and the open is worth
 * another try.
 */
static bool live__fallback(struct evsel *evsel, int err)
{
	struct perf_event_attr *a = &evsel->attr;

	if ((err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV) &&
	    a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES) {
		char name[32];
		bool lv = a->exclude_kernel || a->exclude_user || a->exclude_hv;

		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		snprintf(name, sizeof(name), "cpu-clock%s%s%s%s%.*s",
			 lv || a->precise_ip ? ":" : "",
			 lv && !a->exclude_kernel ? "k" : "", lv && !a->exclude_user ? "u" : "",
			 lv && !a->exclude_hv ? "h" : "", (int)a->precise_ip, "ppp");
		evsel__set_name(evsel, name);
		return true;
	}
	if ((err == -EOPNOTSUPP || err == -EINVAL) && a->precise_ip) {
		a->precise_ip--;
		return true;
	}
	return false;
}

static int live__open(struct live *l, struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		for (;;) {
			int err = evsel__open(evsel, l->cpus, l->threads);
			char msg[512];

			if (!err)
				break;
			if (live__fallback(evsel, err) || evsel__fallback_exclude_kernel(evsel, err))
				continue;
			evsel__open_strerror(evsel, err, msg, sizeof(msg));
			pr_err("Error:\n%s\n", msg);
			return err;
		}
	}
	return tracefs__apply_filters(evlist);
}

/* --record: stop writing after the first error, with one message. */
static void live__write_failed(struct live *l, int err)
{
	if (!l->writing)
		return;
	l->writing = false;
	pr_err("prf: writing %s failed: %s; the live session goes on without it\n",
	       l->rec->path, strerror(-err));
}

/* --record: one record (whole records) to the file, looked at for the
 * DSOs samples hit. */
static void live__write(struct live *l, const void *buf, size_t len)
{
	int err;

	if (!l->writing)
		return;
	err = writer__write(&l->writer, buf, len);
	if (err)
		live__write_failed(l, err);
}

static void live__write_user(struct live *l, uint32_t type)
{
	struct perf_event_header h = { .type = type, .size = sizeof(h) };

	live__write(l, &h, sizeof(h));
	if (l->writing && writer__sync_data_size(&l->writer))
		live__write_failed(l, l->writer.err ? l->writer.err : -EIO);
}

/* --record: open the file and write its header (the events are open:
 * their ids are known). 0 or -errno after a message. */
static int live__record_open(struct live *l, struct evlist *evlist, const struct live_record *r)
{
	struct evsel *evsel;
	int i = 0, err;

	l->rec = r;
	l->nr_attrs = evlist->nr_entries;
	l->attrs = calloc((size_t)l->nr_attrs + 1, sizeof(*l->attrs));
	l->names = calloc((size_t)l->nr_attrs + 1, sizeof(*l->names));
	l->hits = record_hits__new(evlist);
	if (!l->attrs || !l->names || !l->hits)
		return -ENOMEM;
	evlist__for_each_entry(evlist, evsel) {
		l->attrs[i].attr = &evsel->attr;
		l->attrs[i].ids = evsel->ids;
		l->attrs[i].nr_ids = (size_t)evsel->nr_cpus * (size_t)evsel->nr_threads;
		l->names[i++] = evsel__name(evsel);
	}
	err = writer__open(&l->writer, r->path, 0);
	if (err)
		return err;
	err = writer__write_header(&l->writer, l->attrs, l->nr_attrs);
	if (err) {
		pr_err("prf: cannot write %s: %s\n", r->path, strerror(-err));
		writer__abort(&l->writer);
		return err;
	}
	l->writing = true;
	return 0;
}

/* --record: the features (build-ids of the DSOs hit, sample times) and
 * the final header. */
static void live__record_finish(struct live *l)
{
	struct feat_build_id *bids = NULL;
	struct writer_feat *feats = NULL;
	struct features_ctx ctx = {
		.attrs = l->attrs, .names = l->names, .nr_attrs = l->nr_attrs,
		.version = l->rec->version, .argc = l->rec->argc, .argv = l->rec->argv,
	};
	int nr_feats = 0, nr_bids;

	(void)record_hits__round(l->hits);
	nr_bids = record_hits__build_ids(l->hits, false, &bids);
	ctx.bids = bids;
	ctx.nr_bids = nr_bids > 0 ? nr_bids : 0;
	ctx.has_sample_time = record_hits__sample_time(l->hits, &ctx.first_sample_time,
						      &ctx.last_sample_time);
	if (features__build(&ctx, &feats, &nr_feats))
		nr_feats = 0;
	if (writer__finish(&l->writer, l->attrs, l->nr_attrs, feats, nr_feats))
		live__write_failed(l, l->writer.err ? l->writer.err : -EIO);
	features__free(feats, nr_feats);
	free(bids);
}

static int live__synth_cb(void *arg, const union perf_event *event)
{
	struct live *l = arg;

	if (l->writing) {
		live__write(l, event, event->header.size);
		(void)record_hits__event(l->hits, event);
	}
	return perf_session__deliver_live(l->session, (union perf_event *)event);
}

static int live__synthesize(struct live *l, const struct live_target *t)
{
	int err = 0;

	if (t->synth_kernel) {
		/* _text is in the first lines of kallsyms: no read of the whole
		 * file, which the kernel's symbols are loaded from anyway */
		uint64_t text = kallsyms__text("/proc/kallsyms"), end = synthesize__modules_start();

		err = text ? synthesize__kernel_mmap_range(live__synth_cb, l, l->id_hdr_size, text,
							   end > text ? end : ~0ULL) : 0;
		if (!err)
			err = synthesize__modules(live__synth_cb, l, l->id_hdr_size);
		if (err)
			return err;
	}
	if (t->system_wide || (t->cpu_list && !t->pid_str && !t->tid_str))
		return synthesize__all_processes(live__synth_cb, l, l->id_hdr_size);
	for (int i = 0; (t->pid_str || t->tid_str) && i < perf_thread_map__nr(l->threads) && !err; i++) {
		pid_t tid = perf_thread_map__pid(l->threads, i);

		if (tid > 0)
			err = synthesize__process(live__synth_cb, l, l->id_hdr_size, tid);
	}
	return err;
}

struct live *live__new(struct evlist *evlist, const struct live_target *t,
		       const char *const *argv, struct perf_tool *tool, int *errp)
{
	struct live *l = zalloc(sizeof(*l));
	int err = -ENOMEM;

	if (!l) {
		evlist__delete(evlist);
		goto out;
	}
	l->wl.pid = -1;
	l->writer.fd = -1;
	l->evlist = evlist;
	err = live__targets(l, t, argv);
	if (err)
		goto fail;
	live__config(l, evlist, t);
	err = live__open(l, evlist);
	if (err)
		goto fail;
	err = -ENOMEM;
	l->session = zalloc(sizeof(*l->session));
	if (!l->session)
		goto fail;
	l->session->tool = tool;
	l->session->machine = machine__new_host();
	/* the session's data owns the evlist from here on, even on error;
	 * its ids are known now that the events are open */
	l->evlist = NULL;
	err = perf_data__open_live(&l->session->data, evlist);
	if (!err && !l->session->machine)
		err = -ENOMEM;
	if (err)
		goto fail;
	err = record_loop__mmap(&l->loop, evlist, l->cpus, l->threads, false,
				t->mmap_pages ? t->mmap_pages : 128);
	if (err)
		goto fail;
	l->id_hdr_size = synthesize__id_hdr_size(evlist__first(evlist)->attr.sample_type);
	if (t->record) {
		err = live__record_open(l, evlist, t->record);
		if (err)
			goto fail;
	}
	/* An existing target counts before /proc is read: an exec between
	 * the read and the enabling would leave the old image's maps and
	 * no MMAP2 of the new (disabled events get no side-band). The
	 * synthesized records are delivered before the buffers are drained. */
	if (!l->has_workload)
		evlist__enable(evlist);
	err = live__synthesize(l, t);
	if (err)
		goto fail;
	if (l->writing)
		live__write_user(l, PERF_RECORD_FINISHED_INIT);
	return l;
fail:
	live__delete(l);
	l = NULL;
out:
	if (errp)
		*errp = err;
	return NULL;
}

struct perf_session *live__session(struct live *l)
{
	return l->session;
}

int live__nr_threads(struct live *l)
{
	return perf_thread_map__nr(l->threads);
}

pid_t live__workload_pid(struct live *l)
{
	return l->has_workload ? l->wl.pid : -1;
}

uint64_t live__nr_records(struct live *l)
{
	return l->nr_records;
}

void live__set_tick(struct live *l, unsigned int interval_ms, void (*fn)(void *arg), void *arg)
{
	l->tick = fn;
	l->tick_arg = arg;
	l->tick_ns = (uint64_t)interval_ms * 1000000;
	l->next_tick = now_ns() + l->tick_ns;
	/* poll(2) wakes up often enough for the tick to be at most a tenth
	 * of its interval late (10 ms .. RECORD_LOOP_POLL_MS) */
	l->loop.poll_ms = (int)(interval_ms / 10);
	if (l->loop.poll_ms < 10)
		l->loop.poll_ms = 10;
	if (l->loop.poll_ms > RECORD_LOOP_POLL_MS)
		l->loop.poll_ms = RECORD_LOOP_POLL_MS;
}

void live__set_input(struct live *l, int fd, void (*fn)(void *arg), void *arg)
{
	l->input = fn;
	l->input_arg = arg;
	record_loop__set_ctl_fd(&l->loop, fd);
}

static void live__check_tick(struct live *l)
{
	uint64_t now;

	if (!l->tick || (now = now_ns()) < l->next_tick)
		return;
	l->next_tick += l->tick_ns;
	if (l->next_tick <= now)	/* late (stopped, slow): start again from now */
		l->next_tick = now + l->tick_ns;
	l->tick(l->tick_arg);
}

static void live__loop_ctl(void *arg)
{
	struct live *l = arg;

	if (l->input)
		l->input(l->input_arg);
}

static int live__loop_write(void *arg, const void *buf, size_t len)
{
	live__write(arg, buf, len);
	return 0;
}

/* Keep a copy of each record of the pass (the ring space is given back
 * after the pass); on failure deliver it at once. */
static void live__loop_event(void *arg, const union perf_event *event)
{
	struct live *l = arg;
	size_t size = event->header.size, need = (size + 7) & ~(size_t)7;

	l->nr_records++;
	if (l->writing) {
		(void)record_hits__event(l->hits, event);
		l->rec_samples += event->header.type == PERF_RECORD_SAMPLE;
	}
	if (l->err)
		return;
	if (buf__reserve(&l->pass, &l->pass_cap, l->pass_len + need, 1 << 20))
		goto now;
	if (l->nr_recs == l->recs_cap) {
		size_t cap = l->recs_cap ? l->recs_cap * 2 : 4096;
		struct pass_rec *r = realloc(l->recs, cap * sizeof(*r));

		if (!r)
			goto now;
		l->recs = r;
		l->recs_cap = cap;
	}
	memcpy(l->pass + l->pass_len, event, size);
	l->recs[l->nr_recs].time = perf_data__event_time(&l->session->data,
							  (union perf_event *)(l->pass + l->pass_len));
	l->recs[l->nr_recs++].off = l->pass_len;
	l->pass_len += need;
	return;
now:
	l->err = perf_session__deliver_live(l->session, (union perf_event *)event);
}

static int pass_rec_cmp(const void *a, const void *b)
{
	const struct pass_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* End of a drain pass: its records to the tool, oldest first (a task's
 * sys_enter and sys_exit may sit in two cpus' buffers). */
static void live__loop_round(void *arg)
{
	struct live *l = arg;

	if (l->writing) {
		live__write_user(l, PERF_RECORD_FINISHED_ROUND);
		(void)record_hits__round(l->hits);
	}
	if (l->nr_recs > 1)
		qsort(l->recs, l->nr_recs, sizeof(*l->recs), pass_rec_cmp);
	for (size_t i = 0; i < l->nr_recs && !l->err; i++)
		l->err = perf_session__deliver_live(l->session,
						    (union perf_event *)(l->pass + l->recs[i].off));
	l->nr_recs = 0;
	l->pass_len = 0;
	live__check_tick(l);
}

static bool live__loop_woken(void *arg)
{
	struct live *l = arg;

	if (l->err)
		return true;
	live__check_tick(l);
	if (l->has_workload && !l->reaped && waitpid(l->wl.pid, &l->wstatus, WNOHANG) == l->wl.pid)
		l->reaped = true;
	return l->has_workload && l->reaped;
}

static volatile sig_atomic_t *live_stop;

static void live__signal(int sig)
{
	if (live_stop)
		record_loop__set_stop(live_stop);
}

void live__stop_on_signals(volatile sig_atomic_t *stop)
{
	struct sigaction sa;

	live_stop = stop;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = live__signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
}

int live__run(struct live *l, volatile sig_atomic_t *stop)
{
	struct evlist *evlist = l->session->data.evlist;
	const struct record_loop_ops ops = {
		.write = live__loop_write,
		.event = live__loop_event,
		.round = live__loop_round,
		.woken = live__loop_woken,
		.ctl = live__loop_ctl,
		.whole_records = true,
	};
	int err;

	if (l->has_workload && evlist__first(evlist)->attr.enable_on_exec) {
		err = workload__start(&l->wl);
	} else if (l->has_workload) {
		evlist__enable(evlist);
		err = workload__start(&l->wl);
	} else {
		err = 0;	/* enabled by live__new() */
	}
	if (err) {
		l->has_workload = false;	/* reaped by workload__start() */
		l->exec_err = err;
		return err;
	}
	record_loop__run(&l->loop, evlist, &ops, l, stop);
	live__loop_round(l);
	if (l->has_workload && !l->reaped) {
		if (waitpid(l->wl.pid, &l->wstatus, WNOHANG) != l->wl.pid) {
			kill(l->wl.pid, SIGTERM);
			waitpid(l->wl.pid, &l->wstatus, 0);
		}
		l->reaped = true;
	}
	return l->err;
}

void live__release_workload(struct live *l)
{
	if (l->has_workload && l->wl.cork_fd < 0)
		l->has_workload = false;
}

uint64_t live__record_bytes(struct live *l)
{
	return l->rec ? writer__size(&l->writer) : 0;
}

uint64_t live__record_samples(struct live *l)
{
	return l->rec_samples;
}

int live__exec_error(struct live *l)
{
	return l->exec_err;
}

int live__exit_status(struct live *l)
{
	return l->has_workload && l->reaped ? workload__exit_status(l->wstatus) : 0;
}

void live__delete(struct live *l)
{
	if (!l)
		return;
	if (l->has_workload && l->wl.pid > 0 && !l->reaped) {
		if (l->wl.cork_fd >= 0) {
			workload__abort(&l->wl);
		} else {
			kill(l->wl.pid, SIGTERM);
			waitpid(l->wl.pid, NULL, 0);
		}
	}
	if (l->writing)
		live__record_finish(l);
	if (l->rec)
		writer__close(&l->writer);
	free(l->attrs);
	free(l->names);
	record_hits__delete(l->hits);
	record_loop__munmap(&l->loop);
	if (l->evlist) {
		evlist__close(l->evlist);
		evlist__delete(l->evlist);
	}
	if (l->session) {
		struct evlist *evlist = l->session->data.evlist;

		if (evlist)
			evlist__close(evlist);
		perf_session__delete(l->session);
	}
	free(l->pass);
	free(l->recs);
	if (l->cpus)
		perf_cpu_map__put(l->cpus);
	if (l->threads)
		perf_thread_map__put(l->threads);
	free(l);
}

// SPDX-License-Identifier: GPL-2.0
/* evsel: one perf_event_attr and its fds; see evsel.h. */
#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "evsel.h"
#include "cgroup.h"
#include "cpumap.h"
#include "event-names.h"
#include "thread_map.h"
#include "../lib/util.h"
#include "../lib/debug.h"

struct evsel *evsel__new(const struct perf_event_attr *attr)
{
	struct evsel *evsel = zalloc(sizeof(*evsel));

	if (!evsel)
		return NULL;
	if (attr)
		evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->leader = evsel;
	evsel->nr_members = 1;
	INIT_LIST_HEAD(&evsel->node);
	return evsel;
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	evsel__close(evsel);
	cgroup__put(evsel->cgrp);
	perf_cpu_map__put(evsel->own_cpus);
	free(evsel->unit);
	free(evsel->name);
	free(evsel->filter);
	free(evsel->pmu_name);
	free(evsel->tp_sys);
	free(evsel->tp_name);
	free(evsel->fds);
	free(evsel->ids);
	free(evsel);
}

int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = n;
	return 0;
}

/* ---- naming ---- */


static void evsel__fallback_name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
	};

	if (attr->type == PERF_TYPE_HARDWARE && attr->config < ARRAY_SIZE(hw))
		snprintf(buf, size, "%s", hw[attr->config]);
	else if (attr->type == PERF_TYPE_SOFTWARE && attr->config < ARRAY_SIZE(sw))
		snprintf(buf, size, "%s", sw[attr->config]);
	else
		snprintf(buf, size, "%u:%#llx", attr->type, (unsigned long long)attr->config);
}

const char *evsel__name(struct evsel *evsel)
{
	char buf[256];

	if (!evsel)
		return "unknown";
	if (evsel->name)
		return evsel->name;
	buf[0] = '\0';
	perf_event_attr__snprintf_name(&evsel->attr, buf, sizeof(buf));
	if (!buf[0])
		evsel__fallback_name(&evsel->attr, buf, sizeof(buf));
	evsel->name = strdup(buf);
	return evsel->name ? evsel->name : "unknown";
}

/* ---- open / read / close ---- */


#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)
#endif
#ifndef PERF_FLAG_PID_CGROUP
#define PERF_FLAG_PID_CGROUP (1UL << 2)
#endif

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

#define FD(e, c, t) ((e)->fds[(c) * (e)->nr_threads + (t)])

void evsel__close(struct evsel *evsel)
{
	int i;

	if (!evsel->fds)
		return;
	for (i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++)
		if (evsel->fds[i] >= 0)
			close(evsel->fds[i]);
	zfree(&evsel->fds);
	zfree(&evsel->ids);
	evsel->nr_cpus = evsel->nr_threads = 0;
}

int evsel__open(struct evsel *evsel, struct perf_cpu_map *cpus, struct perf_thread_map *threads)
{
	struct evsel *leader = evsel->leader;
	int nr_cpus = perf_cpu_map__nr(cpus), nr_threads = perf_thread_map__nr(threads);
	int c, t, err = 0, skipped = 0, foreign = 0;

	if (nr_cpus <= 0 || nr_threads <= 0)
		return -EINVAL;
	evsel__close(evsel);
	evsel->fds = malloc(sizeof(int) * nr_cpus * nr_threads);
	evsel->ids = zalloc(sizeof(uint64_t) * nr_cpus * nr_threads);
	if (!evsel->fds || !evsel->ids) {
		zfree(&evsel->fds);
		zfree(&evsel->ids);
		return -ENOMEM;
	}
	for (c = 0; c < nr_cpus * nr_threads; c++)
		evsel->fds[c] = -1;
	evsel->nr_cpus = nr_cpus;
	evsel->nr_threads = nr_threads;
	evsel->cpus = cpus;
	evsel->threads = threads;
	evsel->attr.size = sizeof(evsel->attr);

	for (c = 0; c < nr_cpus; c++) {
		for (t = 0; t < nr_threads; t++) {
			int group_fd = -1, fd;
			pid_t pid = perf_thread_map__pid(threads, t);
			int cpu = perf_cpu_map__cpu(cpus, c);
			/* a cgroup event: pid is the cgroup directory's fd */
			unsigned long flags = PERF_FLAG_FD_CLOEXEC |
					      (evsel->cgrp ? PERF_FLAG_PID_CGROUP : 0);

			if (evsel->cgrp)
				pid = evsel->cgrp->fd;
			/* an uncore PMU counts on the cpus of its cpumask */
			if (evsel->own_cpus_only && evsel->own_cpus &&
			    perf_cpu_map__idx(evsel->own_cpus, cpu) < 0) {
				foreign++;
				continue;
			}

			if (leader != evsel) {
				if (!leader->fds || leader->nr_cpus != nr_cpus ||
				    leader->nr_threads != nr_threads) {
					err = -EBADF;
					goto out_close;
				}
				group_fd = FD(leader, c, t);
				if (group_fd < 0)	/* leader's task exited: skip it too */
					continue;
			}
			fd = sys_perf_event_open(&evsel->attr, pid, cpu, group_fd, flags);
			if (fd < 0 && errno == EINVAL &&
			    (evsel->attr.exclude_guest || evsel->attr.exclude_host)) {
				/*
				 * Some PMUs (msr, older kernels) reject the
				 * guest/host exclusion bits the parser sets by
				 * default; like perf, drop them and try again.
				 */
				pr_debug("%s: EINVAL with exclude_guest/host, retrying without\n",
					 evsel__name(evsel));
				evsel->attr.exclude_guest = evsel->attr.exclude_host = 0;
				fd = sys_perf_event_open(&evsel->attr, pid, cpu, group_fd, flags);
			}
			if (fd < 0 && errno == ESRCH && nr_threads > 1) {
				/* One task of a -p process exited meanwhile: count the rest. */
				pr_debug("%s: task %d is gone, not counted\n", evsel__name(evsel), (int)pid);
				skipped++;
				continue;
			}
			if (fd < 0) {
				err = -errno;
				pr_debug("perf_event_open(%s, pid %d, cpu %d, group_fd %d) failed: %s\n",
					 evsel__name(evsel), (int)pid, cpu, group_fd, strerror(errno));
				goto out_close;
			}
			FD(evsel, c, t) = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &evsel->ids[c * nr_threads + t]) < 0)
				evsel->ids[c * nr_threads + t] = 0;
		}
	}
	if (skipped + foreign == nr_cpus * nr_threads) {
		err = skipped ? -ESRCH : -ENODEV;	/* ENODEV: none of its cpus */
		goto out_close;
	}
	evsel->supported = true;
	evsel->unsupported = false;
	return 0;

out_close:
	if (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV)
		evsel->unsupported = true;
	evsel__close(evsel);
	return err;
}

int evsel__read_counter(struct evsel *evsel, int cpu_idx, int thread_idx,
			struct perf_counts_values *count)
{
	uint64_t buf[5];
	uint64_t rf = evsel->attr.read_format;
	size_t n = 1, i = 1;
	ssize_t got;
	int fd;

	memset(count, 0, sizeof(*count));
	if (!evsel->fds || cpu_idx < 0 || cpu_idx >= evsel->nr_cpus ||
	    thread_idx < 0 || thread_idx >= evsel->nr_threads)
		return -EINVAL;
	if (rf & PERF_FORMAT_GROUP)
		return -EINVAL;
	fd = FD(evsel, cpu_idx, thread_idx);
	if (fd < 0)
		return -EBADF;
	n += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
	     !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	got = readn(fd, buf, n * sizeof(uint64_t));
	if (got < 0)
		return got;
	if (got != (ssize_t)(n * sizeof(uint64_t)))
		return -EIO;
	count->val = buf[0];
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		count->ena = buf[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		count->run = buf[i++];
	if (rf & PERF_FORMAT_ID)
		count->id = buf[i++];
	if (rf & PERF_FORMAT_LOST)
		count->lost = buf[i++];
	return 0;
}

int evsel__read_group(struct evsel *leader, int cpu_idx, int thread_idx,
		      struct perf_counts_values *counts, int nr)
{
	uint64_t rf = leader->attr.read_format;
	int per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	int hdr = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t *buf, ena = 0, run = 0;
	size_t size;
	ssize_t got;
	int i, k, fd, err = 0;

	if (!(rf & PERF_FORMAT_GROUP) || !leader->fds || cpu_idx < 0 ||
	    cpu_idx >= leader->nr_cpus || thread_idx < 0 || thread_idx >= leader->nr_threads)
		return -EINVAL;
	fd = FD(leader, cpu_idx, thread_idx);
	if (fd < 0)
		return -EBADF;
	size = sizeof(uint64_t) * (hdr + per * (size_t)leader->nr_members);
	buf = zalloc(size);
	if (!buf)
		return -ENOMEM;
	got = read(fd, buf, size);
	if (got < (ssize_t)(sizeof(uint64_t) * hdr)) {
		err = got < 0 ? -errno : -EIO;
		goto out;
	}
	k = 1;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		ena = buf[k++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		run = buf[k++];
	for (i = 0; i < nr && i < (int)buf[0]; i++) {
		uint64_t *v = buf + hdr + i * per;

		counts[i].val = v[0];
		counts[i].ena = ena;
		counts[i].run = run;
		counts[i].id = (rf & PERF_FORMAT_ID) ? v[1] : 0;
		counts[i].lost = (rf & PERF_FORMAT_LOST) ? v[per - 1] : 0;
	}
	err = i;
out:
	free(buf);
	return err;
}

int evsel__ioctl(struct evsel *evsel, unsigned long request, unsigned long arg)
{
	int i, err = 0;

	for (i = 0; evsel->fds && i < evsel->nr_cpus * evsel->nr_threads; i++)
		if (evsel->fds[i] >= 0 && ioctl(evsel->fds[i], request, arg) < 0)
			err = -errno;
	return err;
}

int evsel__open_strerror(struct evsel *evsel, int err, char *buf, size_t size)
{
	const char *name = evsel__name(evsel);
	int paranoid = 0;

	if (err < 0)
		err = -err;
	switch (err) {
	case EACCES:
	case EPERM:
		if (filename__read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid))
			paranoid = 2;
		return snprintf(buf, size,
			"No permission to open event '%s' (%s): access to performance monitoring "
			"is restricted; kernel.perf_event_paranoid is %d (-1: no restrictions, "
			"0: cpu-wide events allowed, 1: kernel profiling allowed, 2: user-space "
			"task events only); run as root, use CAP_PERFMON or lower "
			"/proc/sys/kernel/perf_event_paranoid",
			name, strerror(err), paranoid);
	case ENOENT:		/* perf 6.1's words */
		return snprintf(buf, size, "The %s event is not supported.", name);
	case EOPNOTSUPP:
	case ENODEV:
		return snprintf(buf, size, "The %s event is not supported on this system (%s).",
				name, strerror(err));
	case EMFILE:
		return snprintf(buf, size,
			"Too many open files while opening '%s': one file descriptor is needed per "
			"event, cpu and thread; raise the limit with 'ulimit -n' or count fewer "
			"events/threads.", name);
	case ESRCH:
		return snprintf(buf, size, "The task to count '%s' on does not exist (%s).",
				name, strerror(err));
	case EINVAL:
		return snprintf(buf, size,
			"Invalid argument opening '%s': the kernel rejected the event attributes "
			"(config %#llx, type %u) or the cpu/task combination.",
			name, (unsigned long long)evsel->attr.config, evsel->attr.type);
	case EBUSY:
		return snprintf(buf, size, "The %s event is busy: another user holds the PMU exclusively.",
				name);
	default:
		return snprintf(buf, size, "Opening event '%s' failed: %s (errno %d).",
				name, strerror(err), err);
	}
}

int evsel__sample_size(uint64_t sample_type)
{
	static const uint64_t fixed = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER;

	return __builtin_popcountll(sample_type & fixed) * (int)sizeof(uint64_t);
}

bool evsel__fallback_exclude_kernel(struct evsel *evsel, int err)
{
	const char *name = evsel__name(evsel);
	int paranoid = 2;
	char buf[256];

	if ((err != -EACCES && err != -EPERM) || evsel->attr.exclude_kernel ||
	    evsel->attr.exclude_user)
		return false;
	if (!filename__read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid) && paranoid <= 1)
		return false;
	snprintf(buf, sizeof(buf), "%s%su", name, strchr(name, '/') || strchr(name, ':') ? "" : ":");
	evsel->attr.exclude_kernel = 1;
	evsel__set_name(evsel, buf);
	pr_debug("kernel.perf_event_paranoid=%d, trying to fall back to excluding kernel samples\n",
		 paranoid);
	return true;
}

const struct callchain_record *evsel__callchain(const struct evsel *evsel,
						const struct callchain_record *global,
						struct callchain_record *tmp)
{
	if (evsel->config.has_callgraph)
		return &evsel->config.cg;
	if (evsel->config.max_stack && global->mode == CALLCHAIN_RECORD_NONE) {
		*tmp = (struct callchain_record){ .mode = CALLCHAIN_RECORD_FP };
		return tmp;
	}
	return global;
}

void evsel__apply_config_terms(struct evsel *evsel, bool user_period)
{
	struct perf_event_attr *a = &evsel->attr;
	const struct evsel_config *c = &evsel->config;
	/* the alias's period came last: it wins unless the user gave -c */
	bool weak = c->has_weak_period && !user_period;

	/* as perf: a fixed period needs no PERIOD in the samples */
	if (c->has_period || weak) {
		a->sample_period = weak ? c->weak_period : c->period;
		a->freq = 0;
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	}
	if (c->has_freq && !weak) {
		a->sample_freq = c->freq;
		a->freq = 1;
		a->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (c->has_time) {
		if (c->time)
			a->sample_type |= PERF_SAMPLE_TIME;
		else
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	}
	if (c->has_inherit)
		a->inherit = c->inherit;
}

// SPDX-License-Identifier: GPL-2.0
/* Synthesized COMM/FORK/MMAP/MMAP2 records; see synthesize.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "synthesize.h"
#include "event.h"
#include "features-write.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/helper-thread.h"

size_t synthesize__id_hdr_size(uint64_t st)
{
	size_t n = 0;

	if (st & PERF_SAMPLE_TID)
		n += 8;
	if (st & PERF_SAMPLE_TIME)
		n += 8;
	if (st & PERF_SAMPLE_ID)
		n += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		n += 8;
	if (st & PERF_SAMPLE_CPU)
		n += 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

/* Record buffer: the largest record plus trailer. */
union synth_buf {
	union perf_event ev;
	char raw[sizeof(struct perf_record_mmap2) + 64];
};

static int emit(synth_cb cb, void *arg, union synth_buf *b, size_t body, size_t id_hdr_size)
{
	size_t size = PERF_ALIGN(body, (size_t)8);

	memset(b->raw + body, 0, size - body + id_hdr_size);
	b->ev.header.size = (uint16_t)(size + id_hdr_size);
	return cb(arg, &b->ev);
}

int synthesize__kernel_mmap(synth_cb cb, void *arg, size_t id_hdr_size)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long text = 0, stext = 0, end = 0, maxaddr = 0;
	char line[512];

	if (!f)
		return -ENOENT;
	/* "ADDR TYPE NAME[\t[MODULE]]" lines, parsed by hand: the file has
	 * a hundred thousand and more, and sscanf() was most of the cost */
	while (fgets(line, sizeof(line), f)) {
		char *p, *sym;
		unsigned long long addr = strtoull(line, &p, 16);
		size_t n;

		if (p == line || *p != ' ' || !p[1] || p[2] != ' ')
			continue;
		sym = p + 3;
		n = strcspn(sym, " \t\n");
		if (!n || sym[n] == '\t' || strchr(sym + n, '['))	/* module symbol */
			continue;
		sym[n] = 0;
		if (!strcmp(sym, "_text"))
			text = addr;
		else if (!strcmp(sym, "_stext"))
			stext = addr;
		else if (!strcmp(sym, "_end"))
			end = addr;
		if (addr > maxaddr)
			maxaddr = addr;
	}
	fclose(f);
	if (!text)
		text = stext;
	if (!text)
		return -ENOENT;
	if (!end || end <= text)
		end = maxaddr > text ? maxaddr : ~0ULL;
	return synthesize__kernel_mmap_range(cb, arg, id_hdr_size, text, end);
}

/* record --buildid-mmap: file maps as MMAP2 records that carry the
 * file's build-id in place of device and inode. */
static bool build_id_mmap;

void synthesize__set_build_id_mmap(bool on)
{
	build_id_mmap = on;
}

/* An MMAP2 record's build-id form: true when the file at path has one. */
static bool mmap2__set_build_id(struct perf_record_mmap2 *m, const char *path, bool raw_notes)
{
	uint8_t bid[20];
	int sz = build_id_mmap ? features__read_build_id(path, raw_notes, bid) : -ENOENT;

	if (sz <= 0)
		return false;
	m->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	m->build_id_size = (u8)sz;
	memcpy(m->build_id, bid, (size_t)sz);
	return true;
}

int synthesize__kernel_mmap_range(synth_cb cb, void *arg, size_t id_hdr_size, uint64_t text,
				  uint64_t end)
{
	const char *name = "[kernel.kallsyms]_text";
	union synth_buf b;

	memset(&b, 0, sizeof(b));
	b.ev.header.misc = PERF_RECORD_MISC_KERNEL;
	if (mmap2__set_build_id(&b.ev.mmap2, "/sys/kernel/notes", true)) {
		b.ev.header.type = PERF_RECORD_MMAP2;
		b.ev.mmap2.pid = (u32)-1;
		b.ev.mmap2.start = text;
		b.ev.mmap2.len = end - text;
		b.ev.mmap2.pgoff = text;
		strcpy(b.ev.mmap2.filename, name);
		return emit(cb, arg, &b, offsetof(struct perf_record_mmap2, filename) +
			    strlen(name) + 1, id_hdr_size);
	}
	b.ev.header.type = PERF_RECORD_MMAP;
	b.ev.header.misc = PERF_RECORD_MISC_KERNEL;
	b.ev.mmap.pid = (u32)-1;
	b.ev.mmap.tid = 0;
	b.ev.mmap.start = text;
	b.ev.mmap.len = end - text;
	b.ev.mmap.pgoff = text;
	strcpy(b.ev.mmap.filename, name);
	return emit(cb, arg, &b, offsetof(struct perf_record_mmap, filename) + strlen(name) + 1,
		    id_hdr_size);
}

int synthesize__modules(synth_cb cb, void *arg, size_t id_hdr_size)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[1024];
	int ret = 0;

	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		char name[200], state[32], deps[512];
		unsigned long long size, addr;
		int refs;
		union synth_buf b;
		size_t n;

		if (sscanf(line, "%199s %llu %d %511s %31s %llx", name, &size, &refs, deps, state,
			   &addr) != 6 || !addr)
			continue;
		memset(&b, 0, sizeof(b));
		b.ev.header.type = PERF_RECORD_MMAP;
		b.ev.header.misc = PERF_RECORD_MISC_KERNEL;
		b.ev.mmap.pid = (u32)-1;
		b.ev.mmap.start = addr;
		b.ev.mmap.len = size;
		n = (size_t)snprintf(b.ev.mmap.filename, 256, "[%s]", name);
		ret = emit(cb, arg, &b, offsetof(struct perf_record_mmap, filename) + n + 1, id_hdr_size);
	}
	fclose(f);
	return ret;
}

uint64_t synthesize__modules_start(void)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[1024];
	uint64_t low = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* "name size refs deps state 0xADDR": the sixth field */
		char *p = line;
		unsigned long long addr;

		for (int i = 0; i < 5 && p; i++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		if (!p)
			continue;
		addr = strtoull(p, NULL, 16);
		if (addr && (!low || addr < low))
			low = addr;
	}
	fclose(f);
	return low;
}

int synthesize__comm(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid, pid_t tid,
		     const char *comm)
{
	union synth_buf b;
	size_t n = strnlen(comm, 15);

	memset(&b, 0, sizeof(b));
	b.ev.header.type = PERF_RECORD_COMM;
	b.ev.comm.pid = (u32)pid;
	b.ev.comm.tid = (u32)tid;
	memcpy(b.ev.comm.comm, comm, n);
	b.ev.comm.comm[n] = 0;
	return emit(cb, arg, &b, offsetof(struct perf_record_comm, comm) + n + 1, id_hdr_size);
}

static int synth_fork(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid, pid_t tid)
{
	union synth_buf b;

	memset(&b, 0, sizeof(b));
	b.ev.header.type = PERF_RECORD_FORK;
	b.ev.fork.pid = (u32)pid;
	b.ev.fork.ppid = (u32)pid;
	b.ev.fork.tid = (u32)tid;
	b.ev.fork.ptid = (u32)pid;
	return emit(cb, arg, &b, sizeof(struct perf_record_fork), id_hdr_size);
}

/* --proc-map-timeout, ms (perf's default 500); 0: no limit. */
static unsigned int proc_map_timeout_ms = 500;

void synthesize__set_proc_map_timeout(unsigned int ms)
{
	proc_map_timeout_ms = ms;
}

static int synth_maps(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid)
{
	char path[64], line[PATH_MAX + 256];
	uint64_t deadline = proc_map_timeout_ms ? now_ns() / 1000000 + proc_map_timeout_ms : 0;
	bool timed_out = false;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		if (deadline && now_ns() / 1000000 > deadline) {
			timed_out = true;
			break;
		}
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perm[8];
		int pos = 0;
		union synth_buf b;
		const char *name;
		size_t n;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perm, &pgoff,
			   &maj, &min, &ino, &pos) < 7)
			continue;
		if (perm[2] != 'x')
			continue;
		name = line + pos;
		while (*name == ' ')
			name++;
		n = strlen(name);
		while (n && name[n - 1] == '\n')
			n--;
		if (!n) {
			name = "//anon";
			n = 6;
		}
		if (n >= PATH_MAX)
			n = PATH_MAX - 1;
		memset(&b, 0, sizeof(b));
		b.ev.header.type = PERF_RECORD_MMAP2;
		b.ev.header.misc = PERF_RECORD_MISC_USER;
		b.ev.mmap2.pid = (u32)pid;
		b.ev.mmap2.tid = (u32)pid;
		b.ev.mmap2.start = start;
		b.ev.mmap2.len = end - start;
		b.ev.mmap2.pgoff = pgoff;
		b.ev.mmap2.maj = maj;
		b.ev.mmap2.min = min;
		b.ev.mmap2.ino = ino;
		b.ev.mmap2.prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
				  PROT_EXEC;
		b.ev.mmap2.flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		memcpy(b.ev.mmap2.filename, name, n);
		b.ev.mmap2.filename[n] = 0;
		if (name[0] == '/')
			mmap2__set_build_id(&b.ev.mmap2, b.ev.mmap2.filename, false);
		ret = emit(cb, arg, &b, offsetof(struct perf_record_mmap2, filename) + n + 1,
			   id_hdr_size);
	}
	fclose(f);
	if (timed_out)
		pr_warning("Reading /proc/%d/maps time out. You may want to increase the time limit "
			   "by --proc-map-timeout\n", (int)pid);
	return ret;
}

static bool read_comm(pid_t pid, pid_t tid, char *comm, size_t size)
{
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, (int)size, f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	return true;
}

int synthesize__process(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid)
{
	char path[64], comm[32];
	struct dirent *de;
	DIR *d;
	int ret = 0;
	bool kthread = true;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		pid_t tid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		tid = (pid_t)atoi(de->d_name);
		if (!read_comm(pid, tid, comm, sizeof(comm)))
			continue;
		ret = synthesize__comm(cb, arg, id_hdr_size, pid, tid, comm);
		if (!ret && tid != pid)
			ret = synth_fork(cb, arg, id_hdr_size, pid, tid);
	}
	closedir(d);
	if (ret)
		return ret;
	/* Kernel threads have an empty maps file; skip the open for pid 2's children. */
	{
		char exe[64], tgt[8];

		snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
		kthread = readlink(exe, tgt, sizeof(tgt)) < 0;
	}
	if (kthread)
		return 0;
	return synth_maps(cb, arg, id_hdr_size, pid);
}

int synthesize__all_processes(synth_cb cb, void *arg, size_t id_hdr_size)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		ret = synthesize__process(cb, arg, id_hdr_size, (pid_t)atoi(de->d_name));
	}
	closedir(d);
	return ret;
}

struct synth_worker {
	struct helper_thread thread;
	synth_cb cb;
	void *arg;
	size_t id_hdr_size;
	const pid_t *pids;
	size_t nr_pids, first, step;
	int ret;
	bool started;
};

static void *synth_worker__run(void *p)
{
	struct synth_worker *w = p;

	for (size_t i = w->first; i < w->nr_pids && !w->ret; i += w->step)
		w->ret = synthesize__process(w->cb, w->arg, w->id_hdr_size, w->pids[i]);
	return NULL;
}

int synthesize__all_processes_threaded(synth_cb cb, void *arg, size_t id_hdr_size,
				       unsigned int nr_threads)
{
	struct synth_worker *w;
	DIR *d;
	struct dirent *de;
	pid_t *pids = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	if (nr_threads <= 1)
		return synthesize__all_processes(cb, arg, id_hdr_size);
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (nr == alloc) {
			size_t na = alloc ? 2 * alloc : 256;
			pid_t *np = realloc(pids, na * sizeof(*np));

			if (!np) {
				ret = -ENOMEM;
				break;
			}
			pids = np;
			alloc = na;
		}
		pids[nr++] = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	w = ret ? NULL : calloc(nr_threads, sizeof(*w));
	if (!w) {
		free(pids);
		return ret ? ret : -ENOMEM;
	}
	for (unsigned int i = 0; i < nr_threads; i++) {
		w[i] = (struct synth_worker){ .cb = cb, .arg = arg, .id_hdr_size = id_hdr_size,
					      .pids = pids, .nr_pids = nr, .first = i,
					      .step = nr_threads };
		w[i].started = !helper_thread__start(&w[i].thread, synth_worker__run, &w[i]);
		if (!w[i].started)
			synth_worker__run(&w[i]);	/* no thread: its share done here */
	}
	for (unsigned int i = 0; i < nr_threads; i++) {
		if (w[i].started)
			helper_thread__join(&w[i].thread);
		if (w[i].ret && !ret)
			ret = w[i].ret;
	}
	free(w);
	free(pids);
	return ret;
}

/* PERF_RECORD_NAMESPACES: the namespace files in the kernel's order
 * (NET_NS_INDEX 0 ... CGROUP_NS_INDEX 6, include/uapi/linux/perf_event.h). */
static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

int synthesize__namespaces(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid, pid_t tid)
{
	union synth_buf b;
	char *p = b.raw + sizeof(struct perf_event_header);
	uint64_t nr = ARRAY_SIZE(ns_names);

	memset(&b, 0, sizeof(b));
	b.ev.header.type = PERF_RECORD_NAMESPACES;
	memcpy(p, &(uint32_t){ (uint32_t)pid }, 4);
	memcpy(p + 4, &(uint32_t){ (uint32_t)tid }, 4);
	memcpy(p + 8, &nr, 8);
	p += 16;
	for (size_t i = 0; i < ARRAY_SIZE(ns_names); i++, p += 16) {
		char path[64];
		struct stat st;
		uint64_t dev = 0, ino = 0;

		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)tid, ns_names[i]);
		if (!stat(path, &st)) {
			dev = st.st_dev;
			ino = st.st_ino;
		}
		memcpy(p, &dev, 8);
		memcpy(p + 8, &ino, 8);
	}
	return emit(cb, arg, &b, (size_t)(p - b.raw), id_hdr_size);
}

/* The cgroup v2 mount point (/proc/self/mountinfo), into buf. */
static int cgroup2_mount(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[PATH_MAX + 256];
	int ret = -ENOENT;

	if (!f)
		return -ENOENT;
	while (ret && fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], *sep = strstr(line, " - ");

		/* id parent maj:min root mount-point ... - fstype source opts */
		if (sep && !strncmp(sep, " - cgroup2 ", 11) &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 && strlen(mnt) < size) {
			strcpy(buf, mnt);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* One PERF_RECORD_CGROUP for the directory path (rel: its name below the
 * mount, "/" for the root), then its subdirectories. */
static int synth_cgroup_dir(synth_cb cb, void *arg, size_t id_hdr_size, char *path, size_t plen,
			    size_t mlen)
{
	struct { struct file_handle fh; uint64_t id; } h = { .fh.handle_bytes = sizeof(uint64_t) };
	const char *rel = plen > mlen ? path + mlen : "/";
	union synth_buf b;
	size_t n = strlen(rel);
	struct dirent *de;
	int mount_id, ret = 0;
	DIR *d;

	if (!name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) &&
	    n < sizeof(b.raw) - sizeof(struct perf_event_header) - 8 - 8 - id_hdr_size) {
		uint64_t id;

		memcpy(&id, h.fh.f_handle, sizeof(id));
		memset(&b, 0, sizeof(b));
		b.ev.header.type = PERF_RECORD_CGROUP;
		memcpy(b.raw + sizeof(struct perf_event_header), &id, 8);
		memcpy(b.raw + sizeof(struct perf_event_header) + 8, rel, n + 1);
		ret = emit(cb, arg, &b, sizeof(struct perf_event_header) + 8 + n + 1, id_hdr_size);
	}
	d = opendir(path);
	if (!d)
		return ret;
	while (!ret && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_type != DT_DIR || de->d_name[0] == '.' || plen + 1 + len >= PATH_MAX)
			continue;
		path[plen] = '/';
		memcpy(path + plen + 1, de->d_name, len + 1);
		ret = synth_cgroup_dir(cb, arg, id_hdr_size, path, plen + 1 + len, mlen);
		path[plen] = '\0';
	}
	closedir(d);
	return ret;
}

int synthesize__cgroups(synth_cb cb, void *arg, size_t id_hdr_size)
{
	char path[PATH_MAX];
	size_t len;

	if (cgroup2_mount(path, sizeof(path)))
		return 0;
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	return synth_cgroup_dir(cb, arg, id_hdr_size, path, len, len);
}

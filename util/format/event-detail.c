// SPDX-License-Identifier: GPL-2.0
/* Side-band record details in perf's words; see event-detail.h. */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "event-detail.h"
#include "../lib/util.h"

struct out {
	char *buf;
	size_t size, len;	/* len: the whole text's, also past size */
};

static __attribute__((format(printf, 2, 3))) void out_fmt(struct out *o, const char *fmt, ...)
{
	size_t at = o->len < o->size ? o->len : o->size;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + at, o->size - at, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static char prot_char(uint32_t prot, uint32_t bit, char c)
{
	return (prot & bit) ? c : '-';
}

static void mmap2_detail(struct out *o, const union perf_event *event)
{
	const struct perf_record_mmap2 *m = &event->mmap2;
	int fnlen = perf_event__strlen(event, offsetof(struct perf_record_mmap2, filename), PATH_MAX);

	out_fmt(o, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid, (int)m->tid,
		(uint64_t)m->start, (uint64_t)m->len, (uint64_t)m->pgoff);
	if (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		unsigned int n = m->build_id_size > 20 ? 20 : m->build_id_size;

		out_fmt(o, " <");
		for (unsigned int i = 0; i < n; i++)
			out_fmt(o, "%02x", m->build_id[i]);
		out_fmt(o, ">");
	} else {
		out_fmt(o, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, (uint64_t)m->ino,
			(uint64_t)m->ino_generation);
	}
	out_fmt(o, "]: %c%c%c%c %.*s\n", prot_char(m->prot, PROT_READ, 'r'),
		prot_char(m->prot, PROT_WRITE, 'w'), prot_char(m->prot, PROT_EXEC, 'x'),
		(m->flags & MAP_SHARED) ? 's' : 'p', fnlen, m->filename);
}

/* "pid/tid - nr_namespaces: N" and the "idx/name: dev/ino" pairs, four to
 * a tab-indented line */
static void namespaces_detail(struct out *o, const union perf_event *event)
{
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	const struct perf_record_namespaces *ns = &event->namespaces;
	uint64_t nr = ns->nr_namespaces, fit;

	fit = event->header.size >= sizeof(*ns) ?
	      (event->header.size - sizeof(*ns)) / sizeof(ns->link_info[0]) : 0;
	if (nr > fit)
		nr = fit;
	out_fmt(o, " %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[", (int)ns->pid, (int)ns->tid,
		(uint64_t)ns->nr_namespaces);
	for (uint64_t i = 0; i < nr; i++) {
		if (i && i % 4 == 0)
			out_fmt(o, "\n\t\t ");
		out_fmt(o, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned int)i,
			i < ARRAY_SIZE(names) ? names[i] : "UNKNOWN", (uint64_t)ns->link_info[i].dev,
			(uint64_t)ns->link_info[i].ino, i + 1 != nr ? ", " : "]\n");
	}
	if (!nr)
		out_fmt(o, "]\n");
}

int perf_event__detail(char *buf, size_t size, const union perf_event *event)
{
	const struct perf_event_header *h = &event->header;
	struct out o = { .buf = buf, .size = size };

	if (size)
		buf[0] = 0;
	switch (h->type) {
	case PERF_RECORD_MMAP:
		out_fmt(&o, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
			(int)event->mmap.pid, (int)event->mmap.tid, (uint64_t)event->mmap.start,
			(uint64_t)event->mmap.len, (uint64_t)event->mmap.pgoff,
			(h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			perf_event__strlen(event, offsetof(struct perf_record_mmap, filename), PATH_MAX),
			event->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		mmap2_detail(&o, event);
		break;
	case PERF_RECORD_COMM:
		out_fmt(&o, "%s: %.*s:%d/%d\n", (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			perf_event__strlen(event, offsetof(struct perf_record_comm, comm),
					   sizeof(event->comm.comm)),
			event->comm.comm, (int)event->comm.pid, (int)event->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		out_fmt(&o, "(%d:%d):(%d:%d)\n", (int)event->fork.pid, (int)event->fork.tid,
			(int)event->fork.ppid, (int)event->fork.ptid);
		break;
	case PERF_RECORD_SWITCH:
		out_fmt(&o, " %s\n", perf_event__switch_dir(h->misc));
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		out_fmt(&o, " %s  %s pid/tid: %5d/%-5d\n", perf_event__switch_dir(h->misc),
			(h->misc & PERF_RECORD_MISC_SWITCH_OUT) ? "next" : "prev",
			(int)event->context_switch.next_prev_pid,
			(int)event->context_switch.next_prev_tid);
		break;
	case PERF_RECORD_NAMESPACES:
		namespaces_detail(&o, event);
		break;
	case PERF_RECORD_CGROUP: {
		uint64_t id = 0;
		size_t off = sizeof(*h) + sizeof(id);

		if (h->size >= off)
			memcpy(&id, (const char *)event + sizeof(*h), sizeof(id));
		out_fmt(&o, " cgroup: %" PRIu64 " %.*s\n", id,
			h->size > off ? perf_event__strlen(event, off, PATH_MAX) : 0,
			(const char *)event + off);
		break;
	}
	default:
		return -1;
	}
	return (int)o.len;
}

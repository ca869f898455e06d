// SPDX-License-Identifier: GPL-2.0
/*
 * -D/--dump-raw-trace (see dump.h): records printed in perf 6.1's layout.
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "dump.h"
#include "session.h"
#include "../format/data.h"
#include "../format/event.h"
#include "../format/event-detail.h"
#include "../format/stat-event.h"
#include "../kernel/cpumap.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../kernel/thread_map.h"
#include "../lib/util.h"
#include "../../arch/x86/perf_regs.h"

/* The record's bytes: ". ... raw event: size N bytes", then per 16 bytes
 * ".  OFFS: " with " xx" per byte, padding, two blanks and the bytes as
 * characters ('.' unless printable ASCII); a blank line after. */
static void dump_raw(const union perf_event *event)
{
	const unsigned char *b = (const unsigned char *)event;
	unsigned int len = event->header.size;

	printf(".\n. ... raw event: size %u bytes\n", len);
	for (unsigned int i = 0; i < len; i += 16) {
		unsigned int n = len - i < 16 ? len - i : 16;

		printf(".  %04x: ", i);
		for (unsigned int j = 0; j < 16; j++) {
			if (j < n)
				printf(" %02x", b[i + j]);
			else
				fputs("   ", stdout);
		}
		fputs("  ", stdout);
		for (unsigned int j = 0; j < 16; j++)
			putchar(j >= n ? ' ' : b[i + j] >= 0x20 && b[i + j] < 0x7f ? b[i + j] : '.');
		putchar('\n');
	}
	putchar('\n');
}

static uint64_t combined_sample_type(const struct perf_session *s, bool *id_all)
{
	struct evsel *evsel;
	uint64_t t = 0;

	*id_all = false;
	if (!s->data.evlist)
		return 0;
	evlist__for_each_entry(s->data.evlist, evsel) {
		t |= evsel->attr.sample_type;
		if (evsel->attr.sample_id_all)
			*id_all = true;
	}
	return t;
}

/* "\nOFF@FILE [SIZE]: event: TYPE", the bytes, "[CPU ]TIME OFF [SIZE]:
 * PERF_RECORD_NAME" (perf's "-1 -1 " for a record without sample_id) */
static void dump_head(const struct perf_session *s, const union perf_event *event, uint64_t off,
		      const struct perf_sample *sample)
{
	bool id_all;
	uint64_t type = combined_sample_type(s, &id_all);

	/* perf counts a pipe's offsets from its first record, named "pipe" */
	if (s->data.pipe)
		off -= s->data.data_offset;
	printf("\n%#" PRIx64 "@%s [%#x]: event: %u\n", off, s->data.pipe ? "pipe" : s->data.path,
	       event->header.size, event->header.type);
	dump_raw(event);
	if (event->header.type != PERF_RECORD_SAMPLE && !id_all) {
		fputs("-1 -1 ", stdout);
	} else {
		if (type & PERF_SAMPLE_CPU)
			printf("%u ", sample ? sample->cpu : 0);
		if (type & PERF_SAMPLE_TIME)
			printf("%" PRIu64 " ", sample ? sample->time : 0);
	}
	printf("%#" PRIx64 " [%#x]: PERF_RECORD_%s", off, event->header.size,
	       perf_event__name(event->header.type));
}

static void unhandled(void)
{
	puts(": unhandled!");
}

/* perf's cpu list: runs of consecutive cpus as "a-b", joined by ',' */
static void print_cpus(const struct perf_cpu_map *cpus)
{
	int nr = perf_cpu_map__nr(cpus);

	for (int i = 0; i < nr; ) {
		int j = i;

		while (j + 1 < nr && perf_cpu_map__cpu(cpus, j + 1) == perf_cpu_map__cpu(cpus, j) + 1)
			j++;
		printf("%s%d", i ? "," : "", perf_cpu_map__cpu(cpus, i));
		if (j > i)
			printf("-%d", perf_cpu_map__cpu(cpus, j));
		i = j + 1;
	}
	putchar('\n');
}

static void dump_id_index(const union perf_event *event)
{
	const struct perf_record_id_index *ie = &event->id_index;
	size_t sz = event->header.size >= sizeof(*ie) ? event->header.size - sizeof(*ie) : 0;
	uint64_t nr = ie->nr;
	const uint64_t *e2 = NULL;

	if (event->header.size < sizeof(*ie) || nr > sz / sizeof(ie->entries[0])) {
		printf("Too big: nr %" PRIu64 " max_nr %zu\n", nr, sz / sizeof(ie->entries[0]));
		return;
	}
	/* entries of 2 more u64 (machine_pid, vcpu) follow when they fit */
	if (sz >= nr * (sizeof(ie->entries[0]) + 2 * sizeof(uint64_t)))
		e2 = (const uint64_t *)&ie->entries[nr];
	printf(" nr: %" PRIu64 "\n", nr);
	for (uint64_t i = 0; i < nr; i++) {
		const struct id_index_entry *e = &ie->entries[i];

		printf(" ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
		       (uint64_t)e->id, (uint64_t)e->idx, (int64_t)e->cpu, (int64_t)e->tid);
		if (e2)
			printf("  machine_pid: %" PRId64 "  vcpu: %" PRIu64 "\n", (int64_t)e2[2 * i],
			       e2[2 * i + 1]);
		else
			putchar('\n');
	}
}

/* EVENT_UPDATE: its id, then the unit, scale, name or cpus it sets */
static void dump_event_update(const union perf_event *event)
{
	const char *p = (const char *)event + sizeof(event->header);
	size_t len = event->header.size, at = sizeof(event->header) + 16;
	uint64_t type, id;

	if (len < at) {
		putchar('\n');
		return;
	}
	memcpy(&type, p, 8);
	memcpy(&id, p + 8, 8);
	printf("\n... id:    %" PRIu64 "\n", id);
	switch (type) {
	case EVENT_UPDATE_UNIT:
	case EVENT_UPDATE_NAME:
		printf("... %s  %.*s\n", type == EVENT_UPDATE_UNIT ? "unit:" : "name:",
		       len > at ? perf_event__strlen(event, at, 4096) : 0, (const char *)event + at);
		break;
	case EVENT_UPDATE_SCALE: {
		double scale = 0;

		if (len >= at + sizeof(scale))
			memcpy(&scale, (const char *)event + at, sizeof(scale));
		printf("... scale: %f\n", scale);
		break;
	}
	case EVENT_UPDATE_CPUS: {
		/* the payload is a CPU_MAP record's body */
		char buf[4096];
		struct perf_event_header h = { .type = PERF_RECORD_CPU_MAP };
		struct perf_cpu_map *cpus = NULL;
		size_t n = len - at;

		fputs("... ", stdout);
		if (n + sizeof(h) <= sizeof(buf)) {
			h.size = (uint16_t)(n + sizeof(h));
			memcpy(buf, &h, sizeof(h));
			memcpy(buf + sizeof(h), (const char *)event + at, n);
			if (!stat_event__parse_cpu_map((const union perf_event *)buf, &cpus) && cpus) {
				print_cpus(cpus);
				perf_cpu_map__put(cpus);
				break;
			}
		}
		puts("failed to get cpus");
		break;
	}
	default:
		puts("... unknown type");
		break;
	}
}

void session_dump__user(struct perf_session *s, const union perf_event *event, uint64_t off)
{
	struct perf_sample zero;
	bool script = s->dump_script;

	memset(&zero, 0, sizeof(zero));
	dump_head(s, event, off, &zero);
	switch (event->header.type) {
	case PERF_RECORD_ID_INDEX:
		dump_id_index(event);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		putchar('\n');
		break;
	case PERF_RECORD_THREAD_MAP: {
		struct perf_thread_map *threads = NULL;

		fputs(" nr: ", stdout);
		if (stat_event__parse_thread_map(event, &threads) || !threads) {
			puts("failed to get threads from event");
		} else {
			printf("%d thread%s: ", threads->nr, threads->nr > 1 ? "s" : "");
			for (int i = 0; i < threads->nr; i++)
				printf("%s%d", i ? ", " : "", threads->map[i].pid);
			putchar('\n');
			perf_thread_map__put(threads);
		}
		if (!script)
			unhandled();
		break;
	}
	case PERF_RECORD_CPU_MAP: {
		struct perf_cpu_map *cpus = NULL;

		fputs(": ", stdout);
		if (stat_event__parse_cpu_map(event, &cpus) || !cpus) {
			puts("failed to get cpumap from event");
		} else {
			print_cpus(cpus);
			perf_cpu_map__put(cpus);
		}
		if (!script)
			unhandled();
		break;
	}
	case PERF_RECORD_TIME_CONV: {
		const struct perf_record_time_conv *tc = &event->time_conv;

		printf("\n... Time Shift      %" PRIu64 "\n", (uint64_t)tc->time_shift);
		printf("... Time Muliplier  %" PRIu64 "\n", (uint64_t)tc->time_mult);
		printf("... Time Zero       %" PRIu64 "\n", (uint64_t)tc->time_zero);
		if (event->header.size >= offsetof(struct perf_record_time_conv, reserved)) {
			printf("... Time Cycles     %" PRIu64 "\n", (uint64_t)tc->time_cycles);
			printf("... Time Mask       %#" PRIx64 "\n", (uint64_t)tc->time_mask);
			printf("... Cap Time Zero   %" PRId32 "\n", (int32_t)tc->cap_user_time_zero);
			printf("... Cap Time Short  %" PRId32 "\n", (int32_t)tc->cap_user_time_short);
		}
		unhandled();
		break;
	}
	case PERF_RECORD_EVENT_UPDATE:
		dump_event_update(event);
		break;
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_HEADER_FEATURE:
		/* perf's report and script take these without a word */
		break;
	case PERF_RECORD_STAT:
	case PERF_RECORD_STAT_ROUND:
	case PERF_RECORD_STAT_CONFIG:
		if (!script)
			unhandled();
		break;
	default:
		unhandled();
		break;
	}
}

static const char *const regs_abi[] = { "none", "32-bit", "64-bit" };

static void dump_regs(const char *type, const struct regs_dump *r)
{
	unsigned int i = 0;

	if (!r->regs)
		return;
	printf("... %s regs: mask 0x%" PRIx64 " ABI %s\n", type, (uint64_t)r->mask,
	       r->abi < ARRAY_SIZE(regs_abi) ? regs_abi[r->abi] : "unknown");
	for (int bit = 0; bit < 64; bit++) {
		const char *name;

		if (!(r->mask & (1ULL << bit)))
			continue;
		char up[16];
		size_t k = 0;

		/* perf's dump spells the names in capitals ("AX", "R8") */
		name = perf_reg_name(bit);
		for (; name && name[k] && k + 1 < sizeof(up); k++)
			up[k] = (char)toupper((unsigned char)name[k]);
		up[k] = 0;
		printf(".... %-5s 0x%016" PRIx64 "\n", name ? up : "unknown", (uint64_t)r->regs[i++]);
	}
}

/* perf's data/code page size: "4K", "2M", ... or "N/A" */
static void print_page_size(const char *what, uint64_t size)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	printf(" .. %s page size: ", what);
	if (!size) {
		puts("N/A");
		return;
	}
	while (size >= 1024 && !(size % 1024) && u < 5) {
		size /= 1024;
		u++;
	}
	if (u < 0)
		printf("%" PRIu64 "\n", size);
	else
		printf("%" PRIu64 "%c\n", size, units[u]);
}

static void dump_read_values(const struct perf_sample *sample, uint64_t fmt)
{
	const uint64_t *v = sample->read_data;
	size_t n = sample->read_size / sizeof(uint64_t), k = 0;
	unsigned int per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);

	puts("... sample_read:");
	if (!v)
		return;
	if (fmt & PERF_FORMAT_GROUP) {
		uint64_t nr = k < n ? v[k++] : 0;

		if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && k < n)
			printf("...... time enabled %016" PRIx64 "\n", v[k++]);
		if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && k < n)
			printf("...... time running %016" PRIx64 "\n", v[k++]);
		printf(".... group nr %" PRIu64 "\n", nr);
		for (uint64_t i = 0; i < nr && k + per <= n; i++, k += per) {
			uint64_t value = v[k], id = (fmt & PERF_FORMAT_ID) ? v[k + 1] : 0;

			printf("..... id %016" PRIx64 ", value %016" PRIx64, id, value);
			if (fmt & PERF_FORMAT_LOST)
				printf(", lost %" PRIu64, v[k + per - 1]);
			putchar('\n');
		}
		return;
	}
	{
		uint64_t value = k < n ? v[k++] : 0, id = 0, lost = 0;

		if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && k < n)
			printf("...... time enabled %016" PRIx64 "\n", v[k++]);
		if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && k < n)
			printf("...... time running %016" PRIx64 "\n", v[k++]);
		if ((fmt & PERF_FORMAT_ID) && k < n)
			id = v[k++];
		if ((fmt & PERF_FORMAT_LOST) && k < n)
			lost = v[k++];
		printf("..... id %016" PRIx64 ", value %016" PRIx64, id, value);
		if (fmt & PERF_FORMAT_LOST)
			printf(", lost %" PRIu64, lost);
		putchar('\n');
	}
}

static void dump_sample(const union perf_event *event, const struct perf_sample *sample,
			const struct evsel *evsel)
{
	uint64_t type = evsel->attr.sample_type;

	printf("(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
	       event->header.misc, (int)sample->pid, (int)sample->tid, (uint64_t)sample->ip,
	       (uint64_t)sample->period, (uint64_t)sample->addr);
	if ((type & PERF_SAMPLE_CALLCHAIN) && sample->callchain) {
		printf("... FP chain: nr:%" PRIu64 "\n", (uint64_t)sample->callchain->nr);
		for (uint64_t i = 0; i < sample->callchain->nr; i++)
			printf("..... %2d: %016" PRIx64 "\n", (int)i, (uint64_t)sample->callchain->ips[i]);
	}
	if ((type & PERF_SAMPLE_BRANCH_STACK) && sample->branch_stack) {
		printf("... branch stack: nr:%" PRIu64 "\n", (uint64_t)sample->branch_stack->nr);
		for (uint64_t i = 0; i < sample->branch_stack->nr; i++) {
			const struct branch_entry *e = &sample->branch_stack->entries[i];
			uint64_t fl = e->flags;

			printf("..... %2d: %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s%s%s%s %x %s\n",
			       (int)i, (uint64_t)e->from, (uint64_t)e->to,
			       (unsigned short)((fl >> 4) & 0xffff), fl & 1 ? "M" : " ",
			       fl & 2 ? "P" : " ", fl & 8 ? "A" : " ", fl & 4 ? "T" : " ",
			       (unsigned int)(fl >> 24), "");
		}
	}
	if (type & PERF_SAMPLE_REGS_USER)
		dump_regs("user", &sample->user_regs);
	if (type & PERF_SAMPLE_REGS_INTR)
		dump_regs("intr", &sample->intr_regs);
	if (type & PERF_SAMPLE_STACK_USER)
		/* perf: the size the kernel filled, and where the record's
		 * size word (before the copy) is */
		printf("... ustack: size %" PRIu64 ", offset 0x%x\n",
		       sample->user_stack.size ? (uint64_t)sample->user_stack.dyn_size : 0,
		       sample->user_stack.data ?
		       (unsigned int)(sample->user_stack.data - (const char *)event - 8) : 0);
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		printf("... weight: %" PRIu64, (uint64_t)sample->weight);
		if (type & PERF_SAMPLE_WEIGHT_STRUCT)
			printf(",0x%" PRIx16 ",0x%" PRIx16, (uint16_t)0, (uint16_t)0);
		putchar('\n');
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		printf(" . data_src: 0x%" PRIx64 "\n", (uint64_t)sample->data_src);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		printf(" .. phys_addr: 0x%" PRIx64 "\n", (uint64_t)sample->phys_addr);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		print_page_size("data", sample->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		print_page_size("code", sample->code_page_size);
	if (type & PERF_SAMPLE_TRANSACTION)
		printf("... transaction: %" PRIx64 "\n", (uint64_t)sample->transaction);
	if (type & PERF_SAMPLE_READ)
		dump_read_values(sample, evsel->attr.read_format);
}

void session_dump__event(struct perf_session *s, const union perf_event *event, uint64_t off,
			 const struct perf_sample *sample, const struct evsel *evsel)
{
	const struct perf_event_header *h = &event->header;
	bool script = s->dump_script;
	char detail[2 * PATH_MAX];

	dump_head(s, event, off, sample);
	if (perf_event__detail(detail, sizeof(detail), event) >= 0) {
		fputs(detail, stdout);
		return;
	}
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (evsel)
			dump_sample(event, sample, evsel);
		break;
	case PERF_RECORD_LOST:
		printf(": id:%" PRIu64 ": lost:%" PRIu64 "\n", (uint64_t)event->lost.id,
		       (uint64_t)event->lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		printf(": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", (uint64_t)sample->id,
		       (uint64_t)event->lost_samples.lost);
		break;
	case PERF_RECORD_KSYMBOL:
		printf(" addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n",
		       (uint64_t)event->ksymbol.addr, event->ksymbol.len, event->ksymbol.ksym_type,
		       event->ksymbol.flags,
		       perf_event__strlen(event, offsetof(struct perf_record_ksymbol, name), 256),
		       event->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT: {
		/* u16 type, u16 flags, u32 id after the header */
		uint16_t type = 0, flags = 0;
		uint32_t id = 0;
		const char *p = (const char *)event + sizeof(*h);

		if (h->size >= sizeof(*h) + 8) {
			memcpy(&type, p, 2);
			memcpy(&flags, p + 2, 2);
			memcpy(&id, p + 4, 4);
		}
		printf(" type %u, flags %u, id %u\n", type, flags, id);
		break;
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		/* script takes them quietly (and prints nothing more) */
		if (!script)
			unhandled();
		break;
	case PERF_RECORD_READ:
		printf(": %d %d %s %" PRIu64 "\n", (int)event->read.pid, (int)event->read.tid,
		       evsel ? evsel__name((struct evsel *)evsel) : "unknown", (uint64_t)event->read.value);
		if (evsel) {
			uint64_t fmt = evsel->attr.read_format;

			if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
				printf("... time enabled : %" PRIu64 "\n", (uint64_t)event->read.time_enabled);
			if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
				printf("... time running : %" PRIu64 "\n", (uint64_t)event->read.time_running);
			if (fmt & PERF_FORMAT_ID)
				printf("... id           : %" PRIu64 "\n", (uint64_t)event->read.id);
		}
		if (script)
			unhandled();
		break;
	default:
		putchar('\n');
		break;
	}
}

void session_dump__resolved(const char *comm, int tid, const char *dso)
{
	printf(" ... thread: %s:%d\n", comm, tid);
	printf(" ...... dso: %s\n", dso ? dso : "<not found>");
}

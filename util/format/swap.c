// SPDX-License-Identifier: GPL-2.0
/*
 * Byte-swapping of perf.data written on the other byte order: attrs,
 * record headers and record payloads, in place. Layouts per
 * perf_event_open(2) and tools/perf/Documentation/perf.data-file-format.txt.
 * As in perf, sample payloads are swapped as an array of u64; the u32
 * pairs inside (pid/tid, cpu/res, raw size) are fixed up by the sample
 * parser, which knows where they are.
 */
#include <byteswap.h>
#include <stddef.h>
#include <string.h>
#include "data-internal.h"

void mem_swap64(void *p, size_t bytes)
{
	uint64_t *v = p;
	size_t i, n = bytes / 8;

	for (i = 0; i < n; i++) {
		uint64_t x;

		memcpy(&x, &v[i], 8);
		x = bswap_64(x);
		memcpy(&v[i], &x, 8);
	}
}

static void mem_swap32(void *p, size_t bytes)
{
	uint32_t *v = p;
	size_t i, n = bytes / 4;

	for (i = 0; i < n; i++)
		v[i] = bswap_32(v[i]);
}

void perf_event_header__swap(struct perf_event_header *h)
{
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
}

static uint8_t bitrev8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

#define FIELD_END(f) (offsetof(struct perf_event_attr, f) + sizeof(((struct perf_event_attr *)0)->f))
#define SW16(f) do { if (size >= FIELD_END(f)) attr->f = bswap_16(attr->f); } while (0)
#define SW32(f) do { if (size >= FIELD_END(f)) attr->f = bswap_32(attr->f); } while (0)
#define SW64(f) do { if (size >= FIELD_END(f)) attr->f = bswap_64(attr->f); } while (0)

/*
 * Swap the first `size` bytes of an attr (the writer's attr.size). The
 * flag bit-fields keep their bytes but the bit order inside each byte is
 * reversed (bit-field allocation differs between the byte orders).
 */
void perf_event_attr__swap(struct perf_event_attr *attr, size_t size)
{
	size_t flags_off = offsetof(struct perf_event_attr, read_format) + 8;
	uint8_t *fb = (uint8_t *)attr + flags_off;
	int i;

	SW32(type);
	SW32(size);
	SW64(config);
	SW64(sample_period);
	SW64(sample_type);
	SW64(read_format);
	if (size >= flags_off + 8)
		for (i = 0; i < 8; i++)
			fb[i] = bitrev8(fb[i]);
	SW32(wakeup_events);
	SW32(bp_type);
	SW64(config1);
	SW64(config2);
	SW64(branch_sample_type);
	SW64(sample_regs_user);
	SW32(sample_stack_user);
	SW32(clockid);
	SW64(sample_regs_intr);
	SW32(aux_watermark);
	SW16(sample_max_stack);
	SW32(aux_sample_size);
#ifdef PERF_ATTR_SIZE_VER7
	SW64(sig_data);
#endif
}

/* Swap a sample_id trailer (the last id_hdr_size bytes) as u64s. */
static void swap_trailer(union perf_event *ev, size_t start, bool sample_id_all, size_t id_hdr_size)
{
	size_t sz = ev->header.size;

	if (!sample_id_all || !id_hdr_size || id_hdr_size > sz || sz - id_hdr_size < start)
		return;
	mem_swap64((char *)ev + sz - id_hdr_size, id_hdr_size);
}

void perf_event__swap(union perf_event *ev, bool sample_id_all, size_t id_hdr_size)
{
	size_t sz = ev->header.size, hs = sizeof(struct perf_event_header);
	char *p = (char *)ev;

	if (sz < hs)
		return;
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		mem_swap64(p + hs, sz - hs);
		return;
	case PERF_RECORD_MMAP:
		if (sz >= offsetof(struct perf_record_mmap, filename)) {
			mem_swap32(p + hs, 8);
			mem_swap64(p + hs + 8, 24);
		}
		swap_trailer(ev, offsetof(struct perf_record_mmap, filename), sample_id_all, id_hdr_size);
		return;
	case PERF_RECORD_MMAP2:
		if (sz >= offsetof(struct perf_record_mmap2, filename)) {
			struct perf_record_mmap2 *m = &ev->mmap2;

			mem_swap32(p + hs, 8);
			mem_swap64(p + hs + 8, 24);
			if (!(m->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
				m->maj = bswap_32(m->maj);
				m->min = bswap_32(m->min);
				m->ino = bswap_64(m->ino);
				m->ino_generation = bswap_64(m->ino_generation);
			}
			m->prot = bswap_32(m->prot);
			m->flags = bswap_32(m->flags);
		}
		swap_trailer(ev, offsetof(struct perf_record_mmap2, filename), sample_id_all, id_hdr_size);
		return;
	case PERF_RECORD_COMM:
		if (sz >= hs + 8)
			mem_swap32(p + hs, 8);
		swap_trailer(ev, offsetof(struct perf_record_comm, comm), sample_id_all, id_hdr_size);
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (sz >= sizeof(struct perf_record_fork)) {
			mem_swap32(p + hs, 16);
			mem_swap64(p + hs + 16, 8);
		}
		swap_trailer(ev, sizeof(struct perf_record_fork), sample_id_all, id_hdr_size);
		return;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (sz >= hs + 8)
			mem_swap32(p + hs, 8);
		swap_trailer(ev, hs + 8, sample_id_all, id_hdr_size);
		return;
	case PERF_RECORD_KSYMBOL:
		if (sz >= offsetof(struct perf_record_ksymbol, name)) {
			ev->ksymbol.addr = bswap_64(ev->ksymbol.addr);
			ev->ksymbol.len = bswap_32(ev->ksymbol.len);
			ev->ksymbol.ksym_type = bswap_16(ev->ksymbol.ksym_type);
			ev->ksymbol.flags = bswap_16(ev->ksymbol.flags);
		}
		swap_trailer(ev, offsetof(struct perf_record_ksymbol, name), sample_id_all, id_hdr_size);
		return;
	case PERF_RECORD_READ:
		if (sz >= sizeof(struct perf_record_read)) {
			mem_swap32(p + hs, 8);
			mem_swap64(p + hs + 8, sizeof(struct perf_record_read) - hs - 8);
		}
		swap_trailer(ev, sizeof(struct perf_record_read), sample_id_all, id_hdr_size);
		return;
	case PERF_RECORD_HEADER_ATTR:
		if (sz >= hs + PERF_ATTR_SIZE_VER0) {
			uint32_t asz = bswap_32(ev->attr.attr.size);

			if (!asz)
				asz = PERF_ATTR_SIZE_VER0;
			if (asz > sz - hs)
				asz = (uint32_t)(sz - hs);
			perf_event_attr__swap(&ev->attr.attr, asz);
			asz = (asz + 7) & ~7u;
			if (hs + asz < sz)
				mem_swap64(p + hs + asz, sz - hs - asz);
		}
		return;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (sz >= sizeof(struct perf_record_header_build_id))
			ev->build_id.pid = (s32)bswap_32((u32)ev->build_id.pid);
		return;
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (sz >= sizeof(struct perf_record_header_tracing_data))
			ev->tracing_data.size = bswap_32(ev->tracing_data.size);
		return;
	case PERF_RECORD_HEADER_FEATURE:
		if (sz >= hs + 8)
			mem_swap64(p + hs, 8);	/* feat_id; payload swapped by its reader */
		return;
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
		return;
	case PERF_RECORD_EVENT_UPDATE:
		if (sz >= hs + 16)
			mem_swap64(p + hs, 16);	/* type, id; payload kept */
		return;
	default:
		/* all-u64 kernel records (LOST, THROTTLE, LOST_SAMPLES, SWITCH, ...)
		 * and u64 user records (ID_INDEX, TIME_CONV, THREAD_MAP, ...) */
		if (ev->header.type < PERF_RECORD_USER_TYPE_START || ev->header.type == PERF_RECORD_ID_INDEX ||
		    ev->header.type == PERF_RECORD_TIME_CONV)
			mem_swap64(p + hs, sz - hs);
		return;
	}
}

// SPDX-License-Identifier: GPL-2.0
/* perf ring buffer reader; see mmap.h and perf_event_open(2) "MMAP layout". */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "mmap.h"
#include "../lib/util.h"

unsigned int perf_mmap__round_pages(unsigned long pages, bool *rounded)
{
	unsigned long p = 1;

	while (p < pages && p < (1UL << 30))
		p <<= 1;
	if (rounded)
		*rounded = p != pages;
	return (unsigned int)p;
}

static int perf_mmap__map(struct perf_mmap *map, int fd, int cpu, unsigned int pages, bool backward)
{
	size_t ps = page_size();
	void *base;

	memset(map, 0, sizeof(*map));
	map->fd = -1;
	if (!pages || (pages & (pages - 1)))
		return -EINVAL;
	map->data_size = (size_t)pages * ps;
	map->mask = map->data_size - 1;
	map->backward = backward;
	base = mmap(NULL, map->data_size + ps, PROT_READ | (backward ? 0 : PROT_WRITE), MAP_SHARED,
		    fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	map->bounce = malloc(map->data_size);
	if (!map->bounce) {
		munmap(base, map->data_size + ps);
		return -ENOMEM;
	}
	map->base = base;
	map->fd = fd;
	map->cpu = cpu;
	return 0;
}

int perf_mmap__mmap(struct perf_mmap *map, int fd, int cpu, unsigned int pages)
{
	return perf_mmap__map(map, fd, cpu, pages, false);
}

int perf_mmap__mmap_backward(struct perf_mmap *map, int fd, int cpu, unsigned int pages)
{
	return perf_mmap__map(map, fd, cpu, pages, true);
}

void perf_mmap__munmap(struct perf_mmap *map)
{
	if (map->base)
		munmap(map->base, map->data_size + page_size());
	map->base = NULL;
	free(map->bounce);
	map->bounce = NULL;
}

static inline char *ring_data(struct perf_mmap *map)
{
	return (char *)map->base + page_size();
}

size_t perf_mmap__read_init(struct perf_mmap *map)
{
	/* data_head: acquire, pairs with the kernel's store after writing. */
	uint64_t head = __atomic_load_n(&map->base->data_head, __ATOMIC_ACQUIRE);

	map->start = map->base->data_tail;
	map->end = head;
	return (size_t)(map->end - map->start);
}

size_t perf_mmap__read_backward_init(struct perf_mmap *map)
{
	uint64_t head = __atomic_load_n(&map->base->data_head, __ATOMIC_ACQUIRE), pos = head;
	char *data = ring_data(map);

	/* records are 8-byte aligned and data_size a multiple of 8: a header
	 * never straddles the ring's end */
	while (pos - head + sizeof(struct perf_event_header) <= map->data_size) {
		const struct perf_event_header *hdr = (const void *)(data + (pos & map->mask));

		if (hdr->size < sizeof(*hdr) || pos - head + hdr->size > map->data_size)
			break;
		pos += hdr->size;
	}
	map->start = head;
	map->end = pos;
	return (size_t)(pos - head);
}

union perf_event *perf_mmap__read_event(struct perf_mmap *map)
{
	char *data = ring_data(map);
	struct perf_event_header *hdr;
	size_t off, size;

	if (map->end - map->start < sizeof(*hdr))
		return NULL;
	off = map->start & map->mask;
	if (off + sizeof(*hdr) <= map->data_size) {
		hdr = (struct perf_event_header *)(data + off);
		size = hdr->size;
	} else {
		struct perf_event_header h;
		size_t first = map->data_size - off;

		memcpy(&h, data + off, first);
		memcpy((char *)&h + first, data, sizeof(h) - first);
		size = h.size;
	}
	if (size < sizeof(*hdr) || size > map->end - map->start)
		return NULL;	/* corrupt or truncated: stop at the window end */
	if (off + size <= map->data_size) {
		map->start += size;
		return (union perf_event *)(data + off);
	}
	/* Wraps: bounce it. */
	{
		size_t first = map->data_size - off;

		memcpy(map->bounce, data + off, first);
		memcpy(map->bounce + first, data, size - first);
	}
	map->start += size;
	return (union perf_event *)map->bounce;
}

void perf_mmap__pieces(struct perf_mmap *map, uint64_t from, uint64_t to,
		       const void **p1, size_t *len1, const void **p2, size_t *len2)
{
	char *data = ring_data(map);
	size_t off = from & map->mask, len = (size_t)(to - from);

	*p1 = data + off;
	*p2 = data;
	if (off + len <= map->data_size) {
		*len1 = len;
		*len2 = 0;
	} else {
		*len1 = map->data_size - off;
		*len2 = len - *len1;
	}
}

void perf_mmap__consume(struct perf_mmap *map, uint64_t pos)
{
	if (map->backward)	/* read-only: the kernel does not wait for us */
		return;
	/* data_tail: release, so our reads complete before the kernel reuses. */
	__atomic_store_n(&map->base->data_tail, pos, __ATOMIC_RELEASE);
}

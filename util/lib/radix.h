/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_RADIX_H
#define PRF_LIB_RADIX_H
/*
 * Stable sort of (key, value) items by a 64-bit key: least significant
 * byte first, one counting pass per byte, skipping the bytes in which all
 * keys agree (the high bytes of the addresses of one DSO, say), so a few
 * passes over the array instead of qsort()'s n log n calls of a compare
 * function. Stable: sorting by a second key, then again by the first,
 * orders by (first, second).
 */
#include <stddef.h>
#include <stdint.h>

struct radix_item {
	uint64_t key;
	uint64_t val;		/* carried along: an index or a pointer */
};

/* Sort v[0..n) by key, ascending, equal keys kept in their order.
 * 0, or -ENOMEM (scratch of n items; v is then untouched). */
int radix_sort(struct radix_item *v, size_t n);

#endif

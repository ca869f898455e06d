// SPDX-License-Identifier: GPL-2.0
/*
 * LSD radix sort of (key, value) items; see radix.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "radix.h"

int radix_sort(struct radix_item *v, size_t n)
{
	struct radix_item *tmp, *src = v, *dst;
	uint64_t all_and = ~0ULL, all_or = 0;
	size_t i, count[256];
	unsigned int shift;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		all_and &= v[i].key;
		all_or |= v[i].key;
	}
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (shift = 0; shift < 64; shift += 8) {
		size_t sum = 0;

		/* every key has the same byte here: the order stays */
		if (!(((all_and ^ all_or) >> shift) & 0xff))
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(src[i].key >> shift) & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
		src = dst;
		dst = src == v ? tmp : v;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	return 0;
}

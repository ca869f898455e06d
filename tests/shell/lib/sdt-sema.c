// SPDX-License-Identifier: GPL-2.0
/*
 * sdt-prog.c's probe with a semaphore (in the .probes section): it fires
 * only while a uprobe with the semaphore's offset (ref_ctr_offset) holds
 * the count above zero.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

struct pt {
	long a;
	int b;
	signed char c;
};

unsigned short prfsdt_test_sema_semaphore __attribute__((section(".probes")));

long sema_work(long v, struct pt *p);

long sema_work(long v, struct pt *p)
{
	if (prfsdt_test_sema_semaphore)
		DTRACE_PROBE2(prfsdt_test, sema, v, p->b);
	return v;
}

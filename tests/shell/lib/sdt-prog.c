// SPDX-License-Identifier: GPL-2.0
/*
 * SDT probes (<sys/sdt.h>, systemtap-sdt-dev) for sdt-events.sh, provider
 * prfsdt_test (a group no other test uses: uprobe events are global).
 * Built -O2 with sdt-sema.c, whose probe has a semaphore. Arguments of
 * every size and signedness in registers of several widths (small, mid),
 * in memory (mem), none (noargs), and written out as operand strings
 * (ops: forms uprobes can fetch and forms perf leaves out: constants,
 * scaled index, a symbol, a register name too long; forms: odd ones
 * perf still translates, never probed). argv[1]: how many
 * rounds (default 3). -DVARIANT gives another build-id, same probes.
 */
#include <sys/sdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct pt {
	long a;
	int b;
	signed char c;
};

long sema_work(long v, struct pt *p);

volatile int8_t v8 = -5;
volatile uint8_t vu8 = 250;
volatile int16_t v16 = -300;
volatile uint16_t vu16 = 60000;
volatile int32_t v32 = -70000;
volatile uint32_t vu32 = 4000000000u;
volatile int64_t v64 = -5000000000ll;

__attribute__((noinline)) static long work(struct pt *p, int8_t s8, uint8_t u8, int16_t s16,
					   uint16_t u16, int32_t s32, uint32_t u32, int64_t s64,
					   uint64_t u64)
{
	DTRACE_PROBE3(prfsdt_test, small, s8, u8, s16);
	DTRACE_PROBE4(prfsdt_test, mid, u16, s32, u32, s64);
	DTRACE_PROBE3(prfsdt_test, mem, p->a, p->b, p->c);
	DTRACE_PROBE(prfsdt_test, noargs);
	__asm__ __volatile__(STAP_PROBE_ASM(prfsdt_test, ops, 4@%esi -8@-80(%rbx) 8@$5
		8@(%rax,%rsi,8) 4@foo(%rip) -1@%al 2@%r9w 8@(%rdi) 8@+24(%rdi) %rcx 2@%ah
		3@%edx +8@%r1 8@0(%rbp) 8@%eflags 1x@%rsp));
	/* operand forms only for the probes file (the kernel takes no "-(%ax)") */
	__asm__ __volatile__(STAP_PROBE_ASM(prfsdt_test, forms, +5%rax -5(%rcx 4@-(%rax)
		2@%r15w) 1@%ea @%rsi 8@@%rax -8@%r12345 a@%rdi));
#ifdef VARIANT
	DTRACE_PROBE(prfsdt_test, variant);
#endif
	return p->a + s8 + u8 + s16 + u16 + s32 + u32 + s64 + (long)u64 +
	       sema_work((long)u64, p);
}

int main(int argc, char **argv)
{
	struct pt p = { 7, -3, -1 };
	long n = argc > 1 ? atol(argv[1]) : 3, t = 0;

	for (long i = 0; i < n; i++)
		t += work(&p, v8, vu8, v16, vu16, v32, vu32, v64, (uint64_t)i);
	printf("%ld\n", t);
	return 0;
}

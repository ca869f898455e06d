/*
 * sleeper(): sleeps 200 ms making the nanosleep system call itself (an
 * inline syscall, x86_64 only), so that the user stack at the switch-out
 * starts in sleeper with frame pointers intact. Included (cc -I this
 * folder) by the programs of record-offcpu.sh and script-offcpu-order.sh.
 */
#include <sys/syscall.h>
#include <time.h>

volatile long sleeper_ret;

__attribute__((noinline)) void sleeper(void)
{
	struct timespec ts = { 0, 200000000 };	/* 200 ms */
	long ret;

	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"((long)SYS_nanosleep), "D"(&ts), "S"(0L)
			 : "rcx", "r11", "memory");
	sleeper_ret = ret;
}

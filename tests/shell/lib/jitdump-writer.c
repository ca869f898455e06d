/*
 * Shared test program (cc_prog jitdump-writer): a tiny JIT for x86-64.
 * It writes two counting loops into anonymous executable memory, describes
 * them in ./jit-PID.dump (the jitdump format: header, a CODE_DEBUG_INFO
 * with two line entries of /src/fake_jit.js before each CODE_LOAD, named
 * jitted_alpha_loop (lines 10, 11) and jitted_beta_loop (20, 21), CODE_CLOSE),
 * maps the dump executable as JITs do so the recording names it, and runs
 * alpha once and beta twice per round, argv[1] rounds (default 100).
 * Timestamps are CLOCK_MONOTONIC (record -k mono). Used by jit-jitdump.sh.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static FILE *dump;

static void rec_hdr(uint32_t id, uint32_t size)
{
	uint64_t t = now();

	fwrite(&id, 4, 1, dump);
	fwrite(&size, 4, 1, dump);
	fwrite(&t, 8, 1, dump);
}

static void debug_info(uint64_t addr, const char *file, uint32_t line)
{
	/* two entries: the loop's first instruction and its back edge */
	uint32_t fl = (uint32_t)strlen(file) + 1;
	uint32_t size = 16 + 16 + 2 * 16 + 2 * fl;
	uint64_t nr = 2, a0 = addr, a1 = addr + 5;
	uint32_t l0 = line, l1 = line + 1, zero = 0;

	rec_hdr(2, size);
	fwrite(&addr, 8, 1, dump);
	fwrite(&nr, 8, 1, dump);
	fwrite(&a0, 8, 1, dump); fwrite(&l0, 4, 1, dump); fwrite(&zero, 4, 1, dump);
	fwrite(file, fl, 1, dump);
	fwrite(&a1, 8, 1, dump); fwrite(&l1, 4, 1, dump); fwrite(&zero, 4, 1, dump);
	/* the file again, not the spec's "\xff" for "the same file", which
	 * perf 6.1 takes for a file name */
	fwrite(file, fl, 1, dump);
}

static void code_load(const char *name, uint64_t addr, const uint8_t *code, uint64_t size,
		      uint64_t index)
{
	uint32_t nl = (uint32_t)strlen(name) + 1;
	uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);

	rec_hdr(0, (uint32_t)(16 + 40 + nl + size));
	fwrite(&pid, 4, 1, dump); fwrite(&tid, 4, 1, dump);
	fwrite(&addr, 8, 1, dump); fwrite(&addr, 8, 1, dump);
	fwrite(&size, 8, 1, dump); fwrite(&index, 8, 1, dump);
	fwrite(name, nl, 1, dump);
	fwrite(code, size, 1, dump);
}

int main(int argc, char **argv)
{
	/* mov ecx, N; 1: dec ecx; jnz 1b; ret  (padded to 16 bytes) */
	uint8_t loop[16] = { 0xb9, 0, 0, 0, 0, 0xff, 0xc9, 0x75, 0xfc, 0xc3,
			     0x90, 0x90, 0x90, 0x90, 0x90, 0x90 };
	uint32_t n = 2000000;
	char path[64];
	uint8_t *mem;
	void *marker;
	struct { uint32_t magic, version, size, mach, pad, pid; uint64_t ts, flags; } h = {
		0x4A695444, 1, 40, 62, 0, (uint32_t)getpid(), now(), 0 };
	int rounds = argc > 1 ? atoi(argv[1]) : 100;

	snprintf(path, sizeof(path), "jit-%d.dump", getpid());
	dump = fopen(path, "w+");
	if (!dump)
		return 1;
	fwrite(&h, sizeof(h), 1, dump);
	fflush(dump);
	marker = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(dump), 0);
	if (marker == MAP_FAILED)
		return 1;
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(loop + 1, &n, 4);
	memcpy(mem, loop, 16);
	memcpy(mem + 64, loop, 16);
	debug_info((uint64_t)(uintptr_t)mem, "/src/fake_jit.js", 10);
	code_load("jitted_alpha_loop", (uint64_t)(uintptr_t)mem, mem, 16, 1);
	debug_info((uint64_t)(uintptr_t)(mem + 64), "/src/fake_jit.js", 20);
	code_load("jitted_beta_loop", (uint64_t)(uintptr_t)(mem + 64), mem + 64, 16, 2);
	rec_hdr(3, 16);	/* JIT_CODE_CLOSE */
	fclose(dump);
	for (int i = 0; i < rounds; i++) {
		((void (*)(void))mem)();
		((void (*)(void))(mem + 64))();
		((void (*)(void))(mem + 64))();
	}
	return 0;
}

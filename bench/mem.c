// SPDX-License-Identifier: GPL-2.0
/*
 * mem memcpy / memset: bandwidth of the C library's functions (and, on
 * x86-64, of the string instructions alone) over one buffer size. Each
 * function first runs once untimed so that page faults stay out of the
 * measurement, then LOOPS times on the clock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

static void copy_libc(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

static void set_libc(void *dst, int c, size_t n)
{
	memset(dst, c, n);
}

#ifdef __x86_64__
/* rep movsq for the 8-byte words, rep movsb for the tail */
static void copy_movsq(void *dst, const void *src, size_t n)
{
	size_t q = n / 8, r = n % 8;

	asm volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(q) : : "memory");
	asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(r) : : "memory");
}

static void copy_movsb(void *dst, const void *src, size_t n)
{
	asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void set_stosq(void *dst, int c, size_t n)
{
	uint64_t v = 0x0101010101010101ull * (uint8_t)c;
	size_t q = n / 8, r = n % 8;

	asm volatile("rep stosq" : "+D"(dst), "+c"(q) : "a"(v) : "memory");
	asm volatile("rep stosb" : "+D"(dst), "+c"(r) : "a"(v) : "memory");
}

static void set_stosb(void *dst, int c, size_t n)
{
	asm volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
}
#endif

static const struct bench_mem_fn memcpy_fns[] = {
	{ "default", "Default memcpy() provided by glibc", copy_libc, NULL },
#ifdef __x86_64__
	{ "x86-64-movsq", "movsq-based memcpy() (rep movsq, then rep movsb for the tail)", copy_movsq, NULL },
	{ "x86-64-movsb", "movsb-based memcpy() (rep movsb)", copy_movsb, NULL },
#endif
	{ NULL, NULL, NULL, NULL },
};

static const struct bench_mem_fn memset_fns[] = {
	{ "default", "Default memset() provided by glibc", NULL, set_libc },
#ifdef __x86_64__
	{ "x86-64-stosq", "stosq-based memset() (rep stosq, then rep stosb for the tail)", NULL, set_stosq },
	{ "x86-64-stosb", "stosb-based memset() (rep stosb)", NULL, set_stosb },
#endif
	{ NULL, NULL, NULL, NULL },
};

const struct bench_mem_fn *bench_mem_functions(const char *bench)
{
	if (!strcmp(bench, "memcpy"))
		return memcpy_fns;
	if (!strcmp(bench, "memset"))
		return memset_fns;
	return NULL;
}

static uint64_t mem_run(const struct bench_mem_fn *f, char *dst, const char *src,
			uint64_t size, unsigned int loops)
{
	uint64_t start;

	/* untimed pass: fault the pages in */
	if (f->copy)
		f->copy(dst, src, size);
	else
		f->set(dst, 0, size);
	start = bench_now_ns();
	for (unsigned int i = 0; i < loops; i++) {
		if (f->copy)
			f->copy(dst, src, size);
		else
			f->set(dst, (int)i, size);
	}
	return bench_now_ns() - start;
}

int bench_mem(const char *bench, const char *function, uint64_t size, const char *size_str,
	      unsigned int loops, enum bench_format fmt)
{
	const struct bench_mem_fn *fns = bench_mem_functions(bench);
	bool all = !strcmp(function, "all");
	char *src = NULL, *dst = NULL;
	int found = 0, err = 0;

	if (!fns)
		return -ENOENT;
	for (const struct bench_mem_fn *f = fns; f->name; f++)
		found += all || !strcmp(f->name, function);
	if (!found)
		return -ENOENT;
	dst = malloc(size ? size : 1);
	if (fns->copy)
		src = calloc(1, size ? size : 1);
	if (!dst || (fns->copy && !src)) {
		err = -ENOMEM;
		goto out;
	}
	for (const struct bench_mem_fn *f = fns; f->name; f++) {
		uint64_t ns;
		double bps;

		if (!all && strcmp(f->name, function))
			continue;
		printf("# function '%s' (%s)\n", f->name, f->desc);
		if (fmt == BENCH_FORMAT_DEFAULT)
			printf("# Copying %s bytes ...\n\n", size_str);
		ns = mem_run(f, dst, src, size, loops);
		bps = ns ? (double)size * loops * 1e9 / (double)ns : 1.0 / 0.0;
		if (fmt == BENCH_FORMAT_DEFAULT)
			printf(" %14f GB/sec\n", bps / (1024.0 * 1024 * 1024));
		else
			printf("%f\n", bps);
	}
out:
	free(src);
	free(dst);
	return err;
}

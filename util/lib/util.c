// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include "util.h"

int filename__read_str(const char *filename, char **bufp, size_t *sizep)
{
	size_t size = 0, alloc = 4096;
	char *buf = malloc(alloc);
	int fd, err = 0;

	if (!buf)
		return -ENOMEM;
	fd = open(filename, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	for (;;) {
		ssize_t n;

		if (size + 1 >= alloc) {
			char *nb = realloc(buf, alloc * 2);

			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
			alloc *= 2;
		}
		n = read(fd, buf + size, alloc - size - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		size += n;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[size] = '\0';
	*bufp = buf;
	if (sizep)
		*sizep = size;
	return 0;
}

int filename__read_ull(const char *filename, unsigned long long *value)
{
	char *buf, *end;
	int err = filename__read_str(filename, &buf, NULL);

	if (err)
		return err;
	errno = 0;
	*value = strtoull(buf, &end, 0);
	if (errno || end == buf)
		err = -EINVAL;
	free(buf);
	return err;
}

int filename__read_int(const char *filename, int *value)
{
	char *buf, *end;
	long v;
	int err = filename__read_str(filename, &buf, NULL);

	if (err)
		return err;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf || v < INT_MIN || v > INT_MAX)
		err = -EINVAL;
	else
		*value = (int)v;
	free(buf);
	return err;
}

int parse_size(const char *s, uint64_t *val, bool *had_unit)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	default: break;
	}
	if (shift) {
		end++;
		if (*end == 'b' || *end == 'B')
			end++;
	}
	if (*end)
		return -EINVAL;
	*val = (uint64_t)v << shift;
	*had_unit = shift != 0;
	return 0;
}

int cpus_usable(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int writen(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= w;
	}
	return 0;
}

ssize_t readn(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t left = n;

	while (left) {
		ssize_t r = read(fd, p, left);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return left == n ? 0 : -EIO;
		p += r;
		left -= r;
	}
	return n;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

const char *prf_exec_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0) {
		strcpy(dir, ".");
		return dir;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return dir;
}

int levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row = calloc(lb + 1, sizeof(int)), d;

	if (!row)
		return INT_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int cur = row[j];
			int sub = prev + (a[i - 1] != b[j - 1]);
			int del = row[j] + 1, ins = row[j - 1] + 1;

			row[j] = min(sub, min(del, ins));
			/* transposition counts as one edit */
			prev = cur;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

bool strglobmatch(const char *str, const char *pat)
{
	return fnmatch(pat, str, 0) == 0;
}

int fmt_2f(char *buf, int width, double v)
{
	char tmp[32];
	double x = v * 100.0, fl, frac;
	uint64_t r, ip;
	int n = 0, len;

	if (!(v >= 0 && v < 1e12) || width > 48)
		return snprintf(buf, 64, "%*.2f", width, v);
	fl = floor(x);
	frac = x - fl;
	if (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6)
		return snprintf(buf, 64, "%*.2f", width, v);
	r = (uint64_t)fl + (frac > 0.5);
	ip = r / 100;
	tmp[sizeof(tmp) - 1] = (char)('0' + r % 10);
	tmp[sizeof(tmp) - 2] = (char)('0' + r / 10 % 10);
	tmp[sizeof(tmp) - 3] = '.';
	len = 3;
	do {
		tmp[sizeof(tmp) - 1 - len++] = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip);
	while (n < width - len)
		buf[n++] = ' ';
	memcpy(buf + n, tmp + sizeof(tmp) - len, (size_t)len);
	buf[n + len] = '\0';
	return n + len;
}

int permute_rows(void *base, size_t size, const uint32_t *from, size_t n)
{
	unsigned char tmp[512], *b = base;
	uint64_t *done;

	if (size > sizeof(tmp))
		return -EINVAL;
	done = calloc(n / 64 + 1, sizeof(*done));
	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		if (done[i / 64] >> (i % 64) & 1 || from[i] == i)
			continue;
		memcpy(tmp, b + i * size, size);
		for (; from[j] != i; j = from[j]) {
			memcpy(b + j * size, b + (size_t)from[j] * size, size);
			done[j / 64] |= 1ULL << (j % 64);
		}
		memcpy(b + j * size, tmp, size);
		done[j / 64] |= 1ULL << (j % 64);
	}
	free(done);
	return 0;
}

size_t page_size(void)
{
	/* threads (the map-ahead helper, unwind workers) may race to set it:
	 * relaxed atomics, since every racer stores the same value */
	static size_t page;
	size_t v = __atomic_load_n(&page, __ATOMIC_RELAXED);

	if (!v) {
		long ps = sysconf(_SC_PAGESIZE);

		v = ps > 0 ? (size_t)ps : 4096;
		__atomic_store_n(&page, v, __ATOMIC_RELAXED);
	}
	return v;
}

void populate_write(void *p, size_t size)
{
	size_t page = page_size();
	uintptr_t lo, hi;

	if (size < 16 * page)
		return;		/* a few faults cost less than the call */
	lo = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	hi = ((uintptr_t)p + size) & ~((uintptr_t)page - 1);
	/* a hint: where it fails (older kernel) the first writes fault */
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
}

void *zalloc_written(size_t size)
{
	void *p = malloc(size);

	if (!p)
		return NULL;
	populate_write(p, size);
	/* opaque to the compiler, so malloc+memset does not become calloc() */
	__asm__ __volatile__("" : : "r"(p) : "memory");
	memset(p, 0, size);
	return p;
}

/*
 * thread_zalloc(): each block starts with this header, chained from the
 * thread's value of the key, whose destructor frees the chain when the
 * thread exits; THREAD_BLOCK_HDR keeps malloc's alignment for the table.
 */
#define THREAD_BLOCK_HDR 16

static pthread_key_t thread_blocks_key;
static pthread_once_t thread_blocks_once = PTHREAD_ONCE_INIT;
static bool thread_blocks_keyed;

static void thread_blocks__free(void *chain)
{
	while (chain) {
		void *next = *(void **)chain;

		free(chain);
		chain = next;
	}
}

static void thread_blocks__key(void)
{
	thread_blocks_keyed = !pthread_key_create(&thread_blocks_key, thread_blocks__free);
}

void *thread_zalloc(size_t size)
{
	char *b;

	pthread_once(&thread_blocks_once, thread_blocks__key);
	if (!thread_blocks_keyed || size > SIZE_MAX - THREAD_BLOCK_HDR ||
	    !(b = zalloc_written(THREAD_BLOCK_HDR + size)))
		return NULL;
	*(void **)b = pthread_getspecific(thread_blocks_key);
	if (pthread_setspecific(thread_blocks_key, b)) {
		free(b);
		return NULL;
	}
	return b + THREAD_BLOCK_HDR;
}

void *thread_memo__remake(struct thread_memo *m, size_t elem_size)
{
	const struct cache_size *cs = &m->size;

	thread_zfree(m->slots);
	m->slots = NULL;
	if (cs->bits < 8 * sizeof(size_t) && elem_size <= (SIZE_MAX >> cs->bits))
		m->slots = thread_zalloc(elem_size << cs->bits);
	m->bits = m->slots ? cs->bits : 0;
	return m->slots;
}

void thread_zfree(void *p)
{
	char *b = p ? (char *)p - THREAD_BLOCK_HDR : NULL;
	void **link;

	if (!b || !thread_blocks_keyed)
		return;
	/* a thread has a few blocks: the chain is short */
	if (pthread_getspecific(thread_blocks_key) == b) {
		pthread_setspecific(thread_blocks_key, *(void **)b);
		free(b);
		return;
	}
	for (link = pthread_getspecific(thread_blocks_key); link; link = *link)
		if (*link == b) {
			*link = *(void **)b;
			free(b);
			return;
		}
}

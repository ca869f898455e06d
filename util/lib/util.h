/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_UTIL_H
#define PRF_LIB_UTIL_H
/* Small helpers shared by every layer. No dependencies. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#ifndef likely
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define PERF_ALIGN(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#endif

/* calloc(1, size); NULL on failure. Caller frees. */
static inline void *zalloc(size_t size) { return calloc(1, size); }

/*
 * memset(p, 0, n) through the C library's call, for structs cleared once
 * per sample: compilers inline a constant-size clear of some hundred
 * bytes as `rep stos`, whose start-up costs more than the clearing on
 * many x86 CPUs and VMs; hiding the size keeps the call (vector stores).
 */
static inline void *memzero_call(void *p, size_t n)
{
	__asm__("" : "+r"(n));
	return memset(p, 0, n);
}
/*
 * Zeroed like zalloc(), but every page written now: for tables that are
 * read before they are first written (hash tables, caches). Fresh
 * calloc() memory reads as the shared zero page until its first write,
 * which then takes a second, copy-on-write fault that flushes the TLB of
 * every CPU running this process: with worker threads an IPI per page.
 * The pages of a big table are made in one madvise(MADV_POPULATE_WRITE)
 * (Linux 5.14) rather than a fault each. NULL on failure. Caller frees.
 */
void *zalloc_written(size_t size);
/*
 * A zeroed block of size bytes (zalloc_written()) that belongs to the
 * calling thread and is freed when it exits: for per-thread memo tables
 * made on first use, instead of __thread arrays, which glibc zeroes for
 * every thread at its creation (the map-ahead helper, inflate threads)
 * whether it uses them or not, a page fault a page. Aligned as malloc's.
 * NULL when there is no memory; never free it yourself.
 */
void *thread_zalloc(size_t size);
/* Free a block thread_zalloc() gave the calling thread (NULL: nothing). */
void thread_zfree(void *p);

/*
 * Make room for a byte buffer to hold need bytes: *cap (bytes) doubles,
 * from first when 0, until need fits, and *buf is realloc'd to it. The
 * bytes held are kept. 0, or -ENOMEM with *buf and *cap unchanged.
 */
static inline int buf__reserve(char **buf, size_t *cap, size_t need, size_t first)
{
	size_t n = *cap ? *cap : first;
	char *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/*
 * Size of a cache table that grows with use. Every slot of a hash table
 * is touched sooner or later, and fresh memory costs a page fault a page
 * (in a VM also the hypervisor's first touch): a short run that fills a
 * few hundred slots of tables sized for long runs would spend much of
 * its time making their pages. So a table starts
 * at 2^bits slots, and once it has taken twice as many fills (misses
 * stored) as it has slots, its owner makes it again 4 times bigger, up to
 * 2^max_bits, and empty: it is a cache, what it held is found again.
 */
struct cache_size {
	uint8_t bits, max_bits;
	uint32_t fills;
};

/* an initializer: struct cache_size cs = CACHE_SIZE_INIT(6, 12); */
#define CACHE_SIZE_INIT(min_bits, max_bits_) { .bits = (min_bits), .max_bits = (max_bits_) }

/* Count a fill; true when the table should now be made again at
 * 2^cs->bits slots (bits already raised). */
static inline bool cache_size__fill(struct cache_size *cs)
{
	if (cs->bits >= cs->max_bits || ++cs->fills < (2u << cs->bits))
		return false;
	cs->bits = cs->bits + 2 < cs->max_bits ? cs->bits + 2 : cs->max_bits;
	cs->fills = 0;
	return true;
}

/*
 * A thread's memo: a hash table of 2^bits slots of one type in front of
 * a slower lookup (a locked per-DSO cache, a search), made on first use
 * with thread_zalloc() and again bigger as it fills (struct cache_size;
 * min_bits == max_bits: a fixed size). Declared once per memo as
 *   static __thread struct thread_memo m = THREAD_MEMO_INIT(6, 9);
 * and probed with thread_memo__slot(); thread_memo__filled() counts a
 * slot written. No locks: every thread has its own.
 */
struct thread_memo {
	void *slots;		/* 2^bits elements, thread_zalloc()'d; NULL: none */
	unsigned int bits;	/* of the table made; 0: none */
	struct cache_size size;	/* the size it is to have */
};

#define THREAD_MEMO_INIT(min_bits, max_bits) { .size = CACHE_SIZE_INIT(min_bits, max_bits) }

/*
 * Make m's table again at the size m->size says (called when m->bits !=
 * m->size.bits): frees the old one (thread_zfree(); slots in it die
 * here) and makes a zeroed one of 2^m->size.bits elements of elem_size
 * bytes with thread_zalloc(), setting m->bits. The table, or NULL when
 * there is no memory (m->bits then 0: the next call tries again).
 */
void *thread_memo__remake(struct thread_memo *m, size_t elem_size);

/*
 * The slot of m (elements of elem_size bytes) for a 64-bit hash (its top
 * bits pick the slot: multiply the key by an odd constant first); the
 * table is made (again, bigger) here when due, so a slot is valid until
 * the next call on this thread. none when there is no memory for it
 * (a slot of the caller's, or NULL).
 */
static inline void *thread_memo__slot(struct thread_memo *m, size_t elem_size, uint64_t hash,
				      void *none)
{
	if (unlikely(m->bits != m->size.bits) && !thread_memo__remake(m, elem_size))
		return none;
	return (char *)m->slots + (size_t)(hash >> (64 - m->bits)) * elem_size;
}

/* Count a slot of m filled (a miss stored): the table is made again
 * bigger at a later thread_memo__slot() when due. */
static inline void thread_memo__filled(struct thread_memo *m)
{
	cache_size__fill(&m->size);
}
/*
 * Make the pages inside [p, p + size) (malloc'd memory about to be
 * written whole: a table, a read() buffer) present and writable in one
 * madvise(MADV_POPULATE_WRITE) (Linux 5.14) instead of a page fault each.
 * Only for 16 pages and more; a hint, nothing
 * changes on failure. Contents are unchanged.
 */
void populate_write(void *p, size_t size);
/* The system's page size in bytes (sysconf(_SC_PAGESIZE), 4096 if unknown).
 * Safe to call from any thread. */
size_t page_size(void);
/* free(*p) and set *p = NULL. */
#define zfree(pp) do { free(*(pp)); *(pp) = NULL; } while (0)

/* A spin-wait hint to the CPU (x86 pause, arm64 yield), else nothing. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * Read a whole (small, e.g. sysfs/procfs) file into a NUL-terminated malloc'd
 * buffer. *sizep gets the length in bytes when non-NULL. Returns 0 or -errno.
 * Caller frees *bufp.
 */
int filename__read_str(const char *filename, char **bufp, size_t *sizep);
/* Read an integer (decimal or 0x hex) from a file. Returns 0 or -errno. */
int filename__read_int(const char *filename, int *value);
int filename__read_ull(const char *filename, unsigned long long *value);

/* Write all of buf to fd, retrying on EINTR/short writes. 0 or -errno. */
int writen(int fd, const void *buf, size_t n);
/* Read exactly n bytes; returns n, 0 at EOF before any byte, or -errno
 * (-EIO for EOF in the middle). */
ssize_t readn(int fd, void *buf, size_t n);

/*
 * snprintf(buf, 64, "%*.2f", width, v) (buf: at least 64 bytes), the
 * text and its length, without printf for the values a report prints
 * (0 <= v < 1e12, width <= 48): rounded to two places, a value within
 * 1e-6 of a tie left to snprintf, which rounds the exact binary value.
 */
int fmt_2f(char *buf, int width, double v);

/*
 * A size as options and environment variables give it: a number (strtoull
 * base 0), optionally followed by K, M or G (binary units, either case)
 * and then optionally B, and nothing else. *val is the number times the
 * unit; *had_unit says whether a unit was given (callers whose plain
 * numbers count something else, as pages). 0, or -EINVAL (empty, negative,
 * not a number, out of range, trailing text).
 */
int parse_size(const char *s, uint64_t *val, bool *had_unit);

/*
 * CPUs this process may run on (its affinity mask: taskset, cgroup
 * cpusets), else the online CPUs; at least 1. For sizing the threads
 * that work in parallel.
 */
int cpus_usable(void);

/* Monotonic clock in ns. */
uint64_t now_ns(void);

/* Directory holding the running prf binary (for Documentation/, tests/). */
const char *prf_exec_dir(void);

/* Levenshtein distance between two strings (for "did you mean"). */
int levenshtein(const char *a, const char *b);

/*
 * Reorder n rows of size bytes at base in place so that row i becomes
 * what row from[i] was (from: a permutation of 0..n-1), cycle by cycle
 * with one row of scratch (size <= 512) and a bit per row. 0, or -ENOMEM
 * (-EINVAL for a larger row) with the rows unchanged.
 */
int permute_rows(void *base, size_t size, const uint32_t *from, size_t n);

/* Glob match with * and ? (fnmatch without flags). */
bool strglobmatch(const char *str, const char *pat);

#endif

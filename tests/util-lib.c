// SPDX-License-Identifier: GPL-2.0
/* Unit tests of util/lib: option parser, strbuf, output writer, helpers. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "../util/lib/helper-thread.h"
#include "../util/lib/out.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/psort.h"
#include "../util/lib/radix.h"
#include "../util/lib/strbuf.h"
#include "../util/lib/util.h"

struct t_opts {
	bool all;
	bool graph;
	int verbose;
	unsigned int freq;
	const char *out;
	int nev;
	const char *ev[4];
	uint64_t big;
};

static int t_event_cb(const struct option *opt, const char *arg, int unset)
{
	struct t_opts *o = opt->value;

	if (unset || o->nev == 4)
		return -1;
	o->ev[o->nev++] = arg;
	return 0;
}

static int t_parse(struct t_opts *o, int argc, const char **argv, int flags)
{
	const char *const usage[] = { "t [<options>]", NULL };
	const struct option options[] = {
		OPT_BOOLEAN('a', "all-cpus", &o->all, "system-wide"),
		OPT_BOOLEAN('g', NULL, &o->graph, "callchains"),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose"),
		OPT_UINTEGER('F', "freq", &o->freq, "frequency"),
		OPT_STRING('o', "output", &o->out, "file", "output file"),
		OPT_CALLBACK('e', "event", o, "event", "event selector", t_event_cb),
		OPT_U64(0, "mmap-bytes", &o->big, "bytes"),
		OPT_END()
	};
	int saved = dup(2), ret;

	/* keep the usage text of the error cases out of the test output */
	if (freopen("/dev/null", "w", stderr)) {}
	ret = parse_options(argc, argv, options, usage, flags);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return ret;
}

static int test__parse_options_forms(void)
{
	struct t_opts o = { 0 };
	const char *argv[] = { "t", "-ag", "-F99", "--output=x.data", "-e", "a", "--event", "b",
			       "-vv", "--mmap-bytes", "0x10", "--", "-x", "y", NULL };
	int argc = t_parse(&o, ARRAY_SIZE(argv) - 1, argv, 0);

	TEST_ASSERT_EQUAL("remaining args", argc, 2);
	TEST_ASSERT_STREQ("first remaining", argv[0], "-x");
	TEST_ASSERT_STREQ("second remaining", argv[1], "y");
	TEST_ASSERT_VAL("-a", o.all);
	TEST_ASSERT_VAL("-g", o.graph);
	TEST_ASSERT_EQUAL("-F99", o.freq, 99);
	TEST_ASSERT_STREQ("--output=", o.out, "x.data");
	TEST_ASSERT_EQUAL("repeated -e", o.nev, 2);
	TEST_ASSERT_STREQ("-e a", o.ev[0], "a");
	TEST_ASSERT_STREQ("--event b", o.ev[1], "b");
	TEST_ASSERT_EQUAL("-vv", o.verbose, 2);
	TEST_ASSERT_EQUAL("hex u64", o.big, 16);
	return TEST_OK;
}

static int test__parse_options_stop(void)
{
	struct t_opts o = { 0 };
	const char *argv[] = { "t", "-a", "sleep", "-F", "1", NULL };
	int argc = t_parse(&o, 5, argv, PARSE_OPT_STOP_AT_NON_OPTION);

	TEST_ASSERT_EQUAL("stops at workload", argc, 3);
	TEST_ASSERT_STREQ("workload", argv[0], "sleep");
	TEST_ASSERT_EQUAL("-F of the workload untouched", o.freq, 0);

	const char *argv2[] = { "t", "--no-all-cpus", "--fre", "7", "--out", "f", NULL };

	o.all = true;
	argc = t_parse(&o, 6, argv2, 0);
	TEST_ASSERT_EQUAL("no rest", argc, 0);
	TEST_ASSERT_VAL("--no-", !o.all);
	TEST_ASSERT_EQUAL("unique prefix", o.freq, 7);
	TEST_ASSERT_STREQ("prefix of output", o.out, "f");
	return TEST_OK;
}

static int test__parse_options_errors(void)
{
	struct t_opts o = { 0 };
	const char *bad1[] = { "t", "--nope", NULL };
	const char *bad2[] = { "t", "-F", "abc", NULL };
	const char *bad3[] = { "t", "-F", NULL };
	const char *bad4[] = { "t", "-F", "-1", NULL };
	const char *bad5[] = { "t", "-z", NULL };
	const char *help[] = { "t", "-h", NULL };

	TEST_ASSERT_EQUAL("unknown long", t_parse(&o, 2, bad1, 0), PARSE_OPT_EXIT);
	TEST_ASSERT_EQUAL("not a number", t_parse(&o, 3, bad2, 0), PARSE_OPT_EXIT);
	TEST_ASSERT_EQUAL("missing value", t_parse(&o, 2, bad3, 0), PARSE_OPT_EXIT);
	TEST_ASSERT_EQUAL("negative unsigned", t_parse(&o, 3, bad4, 0), PARSE_OPT_EXIT);
	TEST_ASSERT_EQUAL("unknown short", t_parse(&o, 2, bad5, 0), PARSE_OPT_EXIT);
	TEST_ASSERT_EQUAL("-h shows usage", t_parse(&o, 2, help, 0), PARSE_OPT_EXIT);
	return TEST_OK;
}

static int test__strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	TEST_ASSERT_STREQ("empty", sb.buf, "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	TEST_ASSERT_VAL("grows", sb.len > 2000);
	TEST_ASSERT_VAL("prefix", !strncmp(sb.buf, "0,1,2,", 6));
	TEST_ASSERT_EQUAL("NUL-terminated", sb.buf[sb.len], 0);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "ab");
	strbuf_addch(&sb, 'c');
	s = strbuf_detach(&sb, NULL);
	TEST_ASSERT_STREQ("detach", s, "abc");
	free(s);
	TEST_ASSERT_STREQ("reinit", sb.buf, "");
	return TEST_OK;
}

static char *out_capture(enum out_mode mode, const char *sep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct out w;

	out__init(&w, fp, mode, sep);
	out__begin_record(&w);
	out__field_u64(&w, "counter-value", 1234);
	out__field_str(&w, "event", "task \"clock\"\n");
	out__field_double(&w, "pcnt-running", "%.2f", 100.0);
	out__begin_array(&w, "list");
	out__field_s64(&w, NULL, -1);
	out__field_s64(&w, NULL, 2);
	out__end_array(&w);
	out__end_record(&w);
	fclose(fp);
	return buf;
}

static int test__out_writer(void)
{
	char *json = out_capture(OUT_JSON, NULL), *csv = out_capture(OUT_CSV, ";");

	TEST_ASSERT_STREQ("json",
		json, "{\"counter-value\" : 1234, \"event\" : \"task \\\"clock\\\"\\n\", "
		      "\"pcnt-running\" : 100.00, \"list\" : [-1, 2]}\n");
	TEST_ASSERT_STREQ("csv", csv, "1234;task \"clock\"\n;100.00;-1;2\n");
	free(json);
	free(csv);
	return TEST_OK;
}

static int test__helpers(void)
{
	TEST_ASSERT_EQUAL("levenshtein stst/stat", levenshtein("stst", "stat"), 1);
	TEST_ASSERT_EQUAL("levenshtein equal", levenshtein("report", "report"), 0);
	TEST_ASSERT_EQUAL("levenshtein empty", levenshtein("", "abc"), 3);
	TEST_ASSERT_VAL("glob", strglobmatch("sys_enter_openat", "sys_enter_*"));
	TEST_ASSERT_VAL("glob no", !strglobmatch("sys_exit_openat", "sys_enter_*"));
		{
		uint64_t v = 0;
		bool unit = true;

		TEST_ASSERT_VAL("plain", !parse_size("4096", &v, &unit) && v == 4096 && !unit);
		TEST_ASSERT_VAL("hex", !parse_size("0x10", &v, &unit) && v == 16 && !unit);
		TEST_ASSERT_VAL("K", !parse_size("512K", &v, &unit) && v == 512 << 10 && unit);
		TEST_ASSERT_VAL("mb", !parse_size("3mb", &v, &unit) && v == 3 << 20 && unit);
		TEST_ASSERT_VAL("G", !parse_size("2G", &v, &unit) && v == 2ULL << 30 && unit);
		TEST_ASSERT_VAL("trailing", parse_size("1Gx", &v, &unit) == -EINVAL);
		TEST_ASSERT_VAL("unit only", parse_size("K", &v, &unit) == -EINVAL);
		TEST_ASSERT_VAL("negative", parse_size("-1", &v, &unit) == -EINVAL);
		TEST_ASSERT_VAL("empty", parse_size("", &v, &unit) == -EINVAL);
		TEST_ASSERT_VAL("NULL", parse_size(NULL, &v, &unit) == -EINVAL);
	}
	return TEST_OK;
}

/* by the pointed-to value, then the slot's address (a total order) */
static int cmp_pointee(const void *a, const void *b, void *arg)
{
	const uint32_t *x = *(const uint32_t *const *)a, *y = *(const uint32_t *const *)b;

	(void)arg;
	if (*x != *y)
		return *x < *y ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* psort_ptrs() on 1, 2, 3 and 8 threads gives qsort_r()'s order, also for
 * sizes around the part limit and with many equal values */
static int test__psort(void)
{
	const size_t sizes[] = { 0, 1, 100, 16383, 16384, 16385, 200001 };
	const int threads[] = { 1, 2, 3, 8 };
	size_t max = 200001;
	uint32_t *vals = malloc(max * sizeof(*vals));
	void **a = malloc(max * sizeof(*a)), **b = malloc(max * sizeof(*b));
	uint64_t r = 88172645463325252ULL;

	TEST_ASSERT_VAL("alloc", vals && a && b);
	for (size_t i = 0; i < max; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		vals[i] = (uint32_t)(r % 5000);
	}
	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (size_t i = 0; i < sizes[s]; i++)
			a[i] = &vals[max - 1 - i];
		memcpy(b, a, sizes[s] * sizeof(*a));
		qsort_r(b, sizes[s], sizeof(*b), cmp_pointee, NULL);
		for (size_t t = 0; t < ARRAY_SIZE(threads); t++) {
			for (size_t i = 0; i < sizes[s]; i++)
				a[i] = &vals[max - 1 - i];
			psort_ptrs(a, sizes[s], cmp_pointee, NULL, threads[t]);
			TEST_ASSERT_VAL("qsort's order", !memcmp(a, b, sizes[s] * sizeof(*a)));
		}
	}
	free(vals);
	free(a);
	free(b);
	return TEST_OK;
}

/* fmt_2f() writes printf's "%*.2f" text: ties, widths, report-style
 * ratios and random doubles */
/* permute_rows() moves row from[i] to row i for random permutations
 * (long cycles, fixed points), rows of odd sizes; refuses rows too big */
static int test__permute_rows(void)
{
	const size_t sizes[] = { 1, 8, 24, 56, 100 };
	const size_t counts[] = { 0, 1, 2, 1000, 70001 };
	uint64_t r = 88172645463325252ULL;

	for (size_t a = 0; a < ARRAY_SIZE(sizes); a++) {
		for (size_t b = 0; b < ARRAY_SIZE(counts); b++) {
			size_t size = sizes[a], n = counts[b];
			unsigned char *rows = malloc(n * size + 1), *want = malloc(n * size + 1);
			uint32_t *from = malloc((n + 1) * sizeof(*from));

			TEST_ASSERT_VAL("alloc", rows && want && from);
			for (size_t i = 0; i < n * size; i++)
				rows[i] = (unsigned char)(i * 131 + i / size);
			for (size_t i = 0; i < n; i++)
				from[i] = (uint32_t)i;
			for (size_t i = n; i > 1; i--) {	/* shuffle, some stay */
				size_t j;

				r ^= r << 13, r ^= r >> 7, r ^= r << 17;
				j = r % i;
				if (r % 7 == 0)
					continue;
				uint32_t t = from[i - 1];
				from[i - 1] = from[j];
				from[j] = t;
			}
			for (size_t i = 0; i < n; i++)
				memcpy(want + i * size, rows + (size_t)from[i] * size, size);
			TEST_ASSERT_VAL("permute", !permute_rows(rows, size, from, n));
			TEST_ASSERT_VAL("rows moved", !n || !memcmp(rows, want, n * size));
			free(rows);
			free(want);
			free(from);
		}
	}
	{
		uint32_t id[2] = { 1, 0 };
		static unsigned char big[2 * 600];

		TEST_ASSERT_EQUAL("row too big", permute_rows(big, 600, id, 2), -EINVAL);
	}
	return TEST_OK;
}

static int test__fmt_2f(void)
{
	const double fixed[] = { 0, 0.005, 0.015, 0.125, 0.135, 1.005, 2.675, 12.345, 99.995,
				 99.9949999, 100, 1e11, 0.0049999999, 33.333333333, 66.665 };
	uint64_t r = 0x9e3779b97f4a7c15ULL;
	char a[64], b[64];

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		for (int w = 0; w < 8; w += 3) {
			int n = fmt_2f(a, w, fixed[i]);

			snprintf(b, sizeof(b), "%*.2f", w, fixed[i]);
			TEST_ASSERT_VAL("fixed value", !strcmp(a, b) && n == (int)strlen(b));
		}
	for (int i = 0; i < 2000000; i++) {
		double v;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		if (i & 1) {
			uint64_t total = 1 + (r >> 20) % 100000000, p = (r & 0xfffff) % (total + 1);

			v = 100.0 * (double)p / (double)total;
		} else {
			v = (double)(r >> 11) / (double)(1ULL << 53) * (i & 2 ? 100.0 : 1e6);
		}
		fmt_2f(a, 6, v);
		snprintf(b, sizeof(b), "%6.2f", v);
		if (strcmp(a, b)) {
			pr_err("fmt_2f(%.17g): '%s', printf: '%s'\n", v, a, b);
			TEST_ASSERT_VAL("printf's text", false);
		}
	}
	return TEST_OK;
}

static int radix_ref_cmp(const void *a, const void *b)
{
	const struct radix_item *x = a, *y = b;

	/* the stable order: key, then the original position (in val) */
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

static int test__radix(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 255, 256, 1000, 70000 };
	uint64_t r = 88172645463325252ULL;

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (int kind = 0; kind < 4; kind++) {
			size_t n = sizes[s];
			struct radix_item *v = malloc((n + 1) * sizeof(*v));
			struct radix_item *ref = malloc((n + 1) * sizeof(*ref));

			TEST_ASSERT_VAL("memory", v && ref);
			for (size_t i = 0; i < n; i++) {
				r ^= r << 13;
				r ^= r >> 7;
				r ^= r << 17;
				/* full 64-bit keys; DSO-like addresses (high bytes
				 * equal, skipped); few distinct keys (stability);
				 * all equal */
				v[i].key = kind == 0 ? r : kind == 1 ? 0x7f0000000000ULL + (r & 0xffffff) :
					   kind == 2 ? r % 7 : 42;
				v[i].val = i;
			}
			memcpy(ref, v, n * sizeof(*v));
			qsort(ref, n, sizeof(*ref), radix_ref_cmp);
			TEST_ASSERT_VAL("radix_sort", radix_sort(v, n) == 0);
			TEST_ASSERT_VAL("qsort's stable order", !n || !memcmp(v, ref, n * sizeof(*v)));
			free(v);
			free(ref);
		}
	}
	return TEST_OK;
}

/* Run fn on a thread of its own (its thread_zalloc() blocks are freed when
 * it ends); *ret: what fn returned. false when the thread could not be
 * made or joined. */
static bool run_thread(void *(*fn)(void *), void **ret)
{
	pthread_t t;

	return !pthread_create(&t, NULL, fn, NULL) && !pthread_join(t, ret);
}

/* thread_zalloc(): zeroed, aligned, per thread, and freed when the thread
 * exits. The last is seen in RSS: 48 threads each leaving 2 MB behind
 * would add 96 MB. Under ASan freed memory sits in its quarantine: the
 * RSS check is left to the plain build's run there. */
#define TZ_THREADS 48
#define TZ_BLOCK (1u << 20)

static long rss_kb(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = -1;
	fclose(f);
	return rss < 0 ? -1 : rss * (long)(page_size() / 1024);
}

static void *tz_thread(void *arg)
{
	unsigned char *b[2];
	size_t i;

	(void)arg;
	for (int k = 0; k < 2; k++) {
		b[k] = thread_zalloc(TZ_BLOCK);
		if (!b[k] || (uintptr_t)b[k] % 16)
			return (void *)1;
		for (i = 0; i < TZ_BLOCK; i++)
			if (b[k][i])
				return (void *)2;
		memset(b[k], 0xa5, TZ_BLOCK);	/* written: resident */
	}
	return b[0] == b[1] ? (void *)3 : NULL;
}

/* thread_zfree() unlinks a block from anywhere in the thread's chain: the
 * thread's exit then frees only the others (a block freed twice aborts,
 * or ASan reports it), and blocks freed and made again do not pile up. */
static void *tz_free_thread(void *arg)
{
	long before = rss_kb(), after;
	void *a, *b, *c;

	(void)arg;
	for (int i = 0; i < 64; i++) {
		a = thread_zalloc(TZ_BLOCK);
		if (!a)
			return (void *)1;
		memset(a, 0x5a, TZ_BLOCK);	/* written: resident */
		thread_zfree(a);		/* the only block: the chain's head */
	}
	/* 64 MB more if they were only freed at the thread's exit (under
	 * ASan freed memory sits in its quarantine: plain builds only) */
	after = rss_kb();
#if !defined(__SANITIZE_ADDRESS__)
	if (before > 0 && after > 0 && after - before > 16 * 1024) {
		pr_debug("RSS %ld KB before, %ld KB after 64 blocks freed\n", before, after);
		return (void *)2;
	}
#else
	(void)before;
	(void)after;
#endif
	a = thread_zalloc(64);
	b = thread_zalloc(64);
	c = thread_zalloc(64);
	if (!a || !b || !c)
		return (void *)1;
	thread_zfree(b);	/* in the middle */
	thread_zfree(c);	/* the head */
	thread_zfree(NULL);
	return NULL;
}

static int test__thread_zfree(void)
{
	void *ret;

	TEST_ASSERT_VAL("thread", run_thread(tz_free_thread, &ret));
	TEST_ASSERT_VAL("blocks made", ret != (void *)1);
	TEST_ASSERT_VAL("thread_zfree() frees the block at once", ret != (void *)2);
	return TEST_OK;
}

/* cache_size: 2^bits slots, 4 times more after twice as many fills as
 * slots, never past max_bits */
static int test__cache_size(void)
{
	struct cache_size cs = CACHE_SIZE_INIT(4, 9);
	unsigned int fills = 0, grown = 0;

	while (cs.bits < 9 && fills < 100000) {
		unsigned int bits = cs.bits;

		fills++;
		if (cache_size__fill(&cs)) {
			grown++;
			TEST_ASSERT_EQUAL("grows after 2^(bits+1) fills", fills, 2u << bits);
			TEST_ASSERT_EQUAL("4 times, up to max", cs.bits, bits + 2 < 9 ? bits + 2 : 9u);
			fills = 0;
		} else {
			TEST_ASSERT_EQUAL("same size", cs.bits, bits);
		}
	}
	TEST_ASSERT_EQUAL("4 -> 6 -> 8 -> 9", grown, 3u);
	for (int i = 0; i < 5000; i++)
		TEST_ASSERT_VAL("not past max_bits", !cache_size__fill(&cs) && cs.bits == 9);
	return TEST_OK;
}

/* Are t's n words all 0? Then fill them: ASan checks every byte is in
 * the table. */
static bool tt_empty_fill(uint64_t *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i])
			return false;
	memset(t, 0xff, n * sizeof(*t));
	return true;
}

/* thread_memo: a zeroed table of the size its cache_size says, made
 * again (empty, bigger) after it grew, the slot picked by the hash's top
 * bits; the caller's slot and bits 0 when it cannot be made. Returns NULL
 * when right, else what went wrong. */
static void *tt_thread(void *arg)
{
	struct thread_memo m = THREAD_MEMO_INIT(4, 9), big = THREAD_MEMO_INIT(40, 40);
	uint64_t *t, none;

	(void)arg;
	if (!(t = thread_memo__slot(&m, 3 * sizeof(*t), 0, NULL)) || m.bits != 4 || t != m.slots)
		return "first table not made at 2^4";
	if (!tt_empty_fill(t, 3u << 4))
		return "first table not zeroed";
	if (thread_memo__slot(&m, 3 * sizeof(*t), 5ULL << 60, NULL) != t + 3 * 5)
		return "slot not picked by the hash's top bits";
	while (m.size.bits == m.bits)
		thread_memo__filled(&m);
	if (m.size.bits != 6)
		return "cache_size did not grow";
	if (!(t = thread_memo__slot(&m, 3 * sizeof(*t), 0, NULL)) || m.bits != 6)
		return "table not made again at 2^6";
	if (!tt_empty_fill(t, 3u << 6))
		return "table made again not empty";
	if (thread_memo__slot(&m, 3 * sizeof(*t), UINT64_MAX, NULL) != t + 3 * 63)
		return "last slot not picked by the hash's top bits";
	if (thread_memo__slot(&big, SIZE_MAX / 64, 0, &none) != &none || big.bits != 0)
		return "a table past SIZE_MAX made";
	return NULL;
}

static int test__thread_table(void)
{
	void *ret;

	TEST_ASSERT_VAL("thread", run_thread(tt_thread, &ret));
	if (ret)
		pr_debug("thread_memo: %s\n", (const char *)ret);
	TEST_ASSERT_VAL("tables made at the cache_size's size, zeroed", ret == NULL);
	return TEST_OK;
}

static int test__thread_zalloc(void)
{
	long before, after;
	void *ret;

	/* a first round, so that the threads' malloc arenas exist before */
	TEST_ASSERT_VAL("thread", run_thread(tz_thread, &ret));
	TEST_ASSERT_VAL("zeroed, aligned, distinct blocks", ret == NULL);
	before = rss_kb();
	for (int i = 0; i < TZ_THREADS; i++) {
		TEST_ASSERT_VAL("thread", run_thread(tz_thread, &ret));
		TEST_ASSERT_VAL("zeroed, aligned, distinct blocks", ret == NULL);
	}
	after = rss_kb();
#if defined(__SANITIZE_ADDRESS__)
	(void)before;
	(void)after;
#else
	if (before > 0 && after > 0 && after - before > TZ_THREADS * 1024) {
		pr_debug("RSS %ld KB before, %ld KB after %d threads\n", before, after, TZ_THREADS);
		TEST_ASSERT_VAL("blocks freed when their thread exits", 0);
	}
#endif
	return TEST_OK;
}

/* What a helper thread's function saw: its affinity mask. */
struct helper_seen {
	cpu_set_t mask;
};

static void *helper_look(void *arg)
{
	struct helper_seen *seen = arg;

	sched_getaffinity(0, sizeof(seen->mask), &seen->mask);
	return seen;
}

/*
 * helper_thread__start() creates the thread on its creator's mask less the
 * creator's CPU, and the thread then has the creator's whole mask again.
 * Pinned to one CPU (taskset), a helper is an ordinary thread. (Where the
 * thread first ran is the scheduler's to say: not asserted.)
 */
static int test__helper_thread(void)
{
	cpu_set_t mine, one;
	struct helper_thread h;
	struct helper_seen seen;

	if (sched_getaffinity(0, sizeof(mine), &mine))
		return test_skip("sched_getaffinity: %s", strerror(errno));
	if (CPU_COUNT(&mine) >= 2) {
		TEST_ASSERT_VAL("start", !helper_thread__start(&h, helper_look, &seen));
		TEST_ASSERT_VAL("narrowed", h.narrowed && h.cpu >= 0);
		TEST_ASSERT_VAL("joined", helper_thread__join(&h) == &seen);
		TEST_ASSERT_VAL("widened", CPU_EQUAL(&seen.mask, &mine));
	}
	/* one CPU: nowhere else to go */
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mine)) {
			CPU_SET(c, &one);
			break;
		}
	TEST_ASSERT_VAL("pin to one", !sched_setaffinity(0, sizeof(one), &one));
	TEST_ASSERT_VAL("start on one", !helper_thread__start(&h, helper_look, &seen));
	TEST_ASSERT_VAL("not narrowed", !h.narrowed);
	TEST_ASSERT_VAL("joined on one", helper_thread__join(&h) == &seen);
	TEST_ASSERT_VAL("same mask", CPU_EQUAL(&seen.mask, &one));
	sched_setaffinity(0, sizeof(mine), &mine);
	return TEST_OK;
}

DEFINE_SUITE(util_lib, "util/lib",
	TEST_CASE(parse_options_forms, "option forms: clusters, attached values, repeated, --"),
	TEST_CASE(parse_options_stop, "stop at workload, --no-, unique prefixes"),
	TEST_CASE(parse_options_errors, "option errors fail with usage"),
	TEST_CASE(strbuf, "strbuf growth and detach"),
	TEST_CASE(out_writer, "JSON and CSV writer escaping and separators"),
	TEST_CASE(helpers, "levenshtein, glob and sizes"),
	TEST_CASE(psort, "parallel pointer sort gives qsort's order"),
	TEST_CASE(radix, "radix sort gives the stable order by key"),
	TEST_CASE(fmt_2f, "fmt_2f writes printf's %.2f text"),
	TEST_CASE(permute_rows, "rows permuted in place as a copy would"),
	TEST_CASE(thread_zalloc, "per-thread blocks: zeroed, aligned, freed at thread exit"),
	TEST_CASE(thread_zfree, "thread_zfree() unlinks a block from its thread's chain and frees it"),
	TEST_CASE(cache_size, "cache tables grow 4x after twice as many fills as slots, up to a maximum"),
	TEST_CASE(thread_table, "a thread's memo table is made again empty at the size its cache_size grew to"),
	TEST_CASE(helper_thread, "helper threads start away from their creator's CPU, then take its whole mask"));

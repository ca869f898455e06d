// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the PRF_* tunables (util/lib/tunables.h): the parser of each
 * type, the warning and default on a bad value, the table's rows, and
 * values read once and kept. Each case runs in its own child, so the
 * values it sets do not reach other cases.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "../util/lib/tunables.h"

static int test__parse_bool(void)
{
	static const char *const yes[] = { "1", "yes", "YES", "true", "True", "on", "ON" };
	static const char *const no[] = { "0", "no", "No", "false", "FALSE", "off", "Off" };
	static const char *const bad[] = { "2", "y", "n", "enable", "yes please", " 1", "", NULL };
	long long v;

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		v = -1;
		TEST_ASSERT_VAL(yes[i], !tunable__parse(TUNABLE_BOOL, yes[i], 0, 0, &v) && v == 1);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		v = -1;
		TEST_ASSERT_VAL(no[i], !tunable__parse(TUNABLE_BOOL, no[i], 0, 0, &v) && v == 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		TEST_ASSERT_VAL(bad[i] ? bad[i] : "NULL",
				tunable__parse(TUNABLE_BOOL, bad[i], 0, 0, &v) == -EINVAL);
	return TEST_OK;
}

static int test__parse_numbers(void)
{
	long long v;

	TEST_ASSERT_VAL("int", !tunable__parse(TUNABLE_INT, "12", 0, 64, &v) && v == 12);
	TEST_ASSERT_VAL("int min", !tunable__parse(TUNABLE_INT, "-3", -3, 3, &v) && v == -3);
	TEST_ASSERT_VAL("int not decimal", tunable__parse(TUNABLE_INT, "0x10", 0, 64, &v) == -EINVAL);
	TEST_ASSERT_VAL("int trailing", tunable__parse(TUNABLE_INT, "4 cpus", 0, 64, &v) == -EINVAL);
	TEST_ASSERT_VAL("int word", tunable__parse(TUNABLE_INT, "auto", 0, 64, &v) == -EINVAL);
	TEST_ASSERT_VAL("int huge",
			tunable__parse(TUNABLE_INT, "99999999999999999999", 0, 64, &v) == -EINVAL);
	TEST_ASSERT_VAL("int above", tunable__parse(TUNABLE_INT, "65", 0, 64, &v) == -ERANGE &&
				     v == 64);
	TEST_ASSERT_VAL("int below", tunable__parse(TUNABLE_INT, "-1", 0, 64, &v) == -ERANGE &&
				     v == 0);

	TEST_ASSERT_VAL("size", !tunable__parse(TUNABLE_SIZE, "4096", 0, 0, &v) && v == 4096);
	TEST_ASSERT_VAL("size K", !tunable__parse(TUNABLE_SIZE, "64K", 0, 0, &v) && v == 64 << 10);
	TEST_ASSERT_VAL("size m", !tunable__parse(TUNABLE_SIZE, "3m", 0, 0, &v) && v == 3 << 20);
	TEST_ASSERT_VAL("size GB", !tunable__parse(TUNABLE_SIZE, "2GB", 0, 0, &v) &&
				   v == 2LL << 30);
	TEST_ASSERT_VAL("size unit", tunable__parse(TUNABLE_SIZE, "12X", 0, 0, &v) == -EINVAL);
	TEST_ASSERT_VAL("size negative", tunable__parse(TUNABLE_SIZE, "-1M", 0, 0, &v) == -EINVAL);
	TEST_ASSERT_VAL("size T", tunable__parse(TUNABLE_SIZE, "1T", 0, 0, &v) == -EINVAL);
	TEST_ASSERT_VAL("empty", tunable__parse(TUNABLE_SIZE, "", 0, 0, &v) == -EINVAL);
	TEST_ASSERT_VAL("string", !tunable__parse(TUNABLE_STRING, "x", 0, 0, &v));
	return TEST_OK;
}

/* tunable__set(id, text) with stderr caught into buf (len bytes). */
static int set_caught(enum tunable_id id, const char *text, char *buf, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO), err;
	size_t n = 0;

	if (!f || saved < 0)
		return -errno;
	fflush(stderr);
	dup2(fileno(f), STDERR_FILENO);
	err = tunable__set(id, text);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return err;
}

static int test__values(void)
{
	char msg[512], buf[64];

	TEST_ASSERT_VAL("off", !set_caught(TUNABLE_DEBUG_LAZY, "off", msg, sizeof(msg)) &&
			       !tunable__bool(TUNABLE_DEBUG_LAZY) && !*msg);
	TEST_ASSERT_VAL("Yes", !set_caught(TUNABLE_DEBUG_LAZY, "Yes", msg, sizeof(msg)) &&
			       tunable__bool(TUNABLE_DEBUG_LAZY) && !*msg);
	/* a bad boolean: the default, and a message naming variable and value */
	TEST_ASSERT_VAL("bad bool", !set_caught(TUNABLE_NO_CHAIN_CACHE, "maybe", msg, sizeof(msg)) &&
				    !tunable__bool(TUNABLE_NO_CHAIN_CACHE));
	pr_debug("warning: %s", msg);
	TEST_ASSERT_VAL("bad bool message", strstr(msg, "PRF_NO_CHAIN_CACHE=maybe") &&
					    strstr(msg, "not a boolean") && strstr(msg, "default, 0"));
	TEST_ASSERT_VAL("bad bool, default 1",
			!set_caught(TUNABLE_DEBUG_IMAGE, "2", msg, sizeof(msg)) &&
			tunable__bool(TUNABLE_DEBUG_IMAGE) && strstr(msg, "PRF_DEBUG_IMAGE=2"));
	TEST_ASSERT_VAL("empty bool: default, quietly",
			!set_caught(TUNABLE_DEBUG_IMAGE, "", msg, sizeof(msg)) &&
			tunable__bool(TUNABLE_DEBUG_IMAGE) && !*msg);

	TEST_ASSERT_VAL("size", !set_caught(TUNABLE_DEBUG_CACHE_MAX, "2M", msg, sizeof(msg)) &&
				tunable__size(TUNABLE_DEBUG_CACHE_MAX) == 2u << 20 && !*msg);
	TEST_ASSERT_STREQ("size text", tunable__format(TUNABLE_DEBUG_CACHE_MAX, buf, sizeof(buf)),
			  "2M");
	TEST_ASSERT_VAL("bad size", !set_caught(TUNABLE_DEBUG_CACHE_MAX, "lots", msg, sizeof(msg)) &&
				    tunable__size(TUNABLE_DEBUG_CACHE_MAX) == 1u << 30 &&
				    strstr(msg, "PRF_DEBUG_CACHE_MAX=lots") &&
				    strstr(msg, "not a size"));
	TEST_ASSERT_STREQ("default text", tunable__format_default(TUNABLE_DEBUG_CACHE_MAX, buf,
								   sizeof(buf)), "1G");

	TEST_ASSERT_VAL("int", !set_caught(TUNABLE_UNWIND_THREADS, "3", msg, sizeof(msg)) &&
			       tunable__int(TUNABLE_UNWIND_THREADS) == 3 && !*msg);
	TEST_ASSERT_VAL("int clamped",
			!set_caught(TUNABLE_UNWIND_THREADS, "1000", msg, sizeof(msg)) &&
			tunable__int(TUNABLE_UNWIND_THREADS) == tunable__desc(TUNABLE_UNWIND_THREADS)->max &&
			strstr(msg, "PRF_UNWIND_THREADS=1000") && strstr(msg, "outside"));
	TEST_ASSERT_VAL("bad int", !set_caught(TUNABLE_THREADS, "many", msg, sizeof(msg)) &&
				   tunable__int(TUNABLE_THREADS) == 0 &&
				   strstr(msg, "PRF_THREADS=many"));

	TEST_ASSERT_VAL("string", !tunable__set(TUNABLE_PAGER, "less -S") &&
				  !strcmp(tunable__str(TUNABLE_PAGER), "less -S") &&
				  !strcmp(getenv("PRF_PAGER"), "less -S"));
	TEST_ASSERT_VAL("empty string is a value", !tunable__set(TUNABLE_PAGER, "") &&
						   tunable__str(TUNABLE_PAGER) &&
						   !*tunable__str(TUNABLE_PAGER));
	TEST_ASSERT_VAL("unset string", !tunable__set(TUNABLE_PAGER, NULL) &&
					!tunable__str(TUNABLE_PAGER) && !getenv("PRF_PAGER"));
	TEST_ASSERT_STREQ("unset text", tunable__format(TUNABLE_PAGER, buf, sizeof(buf)),
			  "(unset)");
	return TEST_OK;
}

struct reader {
	pthread_t tid;
	uint64_t seen;
};

static void *read_size(void *arg)
{
	struct reader *r = arg;

	r->seen = tunable__size(TUNABLE_DEBUG_CACHE_MAX);
	return NULL;
}

/* Read from the environment once, by whichever thread comes first, then
 * kept: a later setenv() is not seen. */
static int test__read_once(void)
{
	struct reader r[4];
	int n = 0;

	TEST_ASSERT_VAL("setenv", !setenv("PRF_DEBUG_CACHE_MAX", "5K", 1));
	for (int i = 0; i < 4; i++)
		if (!pthread_create(&r[i].tid, NULL, read_size, &r[i]))
			n++;
		else
			break;
	TEST_ASSERT_VAL("threads", n == 4);
	for (int i = 0; i < n; i++) {
		pthread_join(r[i].tid, NULL);
		TEST_ASSERT_EQUAL("value seen by a thread", r[i].seen, 5 << 10);
	}
	TEST_ASSERT_VAL("setenv", !setenv("PRF_DEBUG_CACHE_MAX", "6K", 1));
	TEST_ASSERT_EQUAL("kept", tunable__size(TUNABLE_DEBUG_CACHE_MAX), 5 << 10);
	return TEST_OK;
}

/* Every row names a PRF_ variable once, says what it does, and has a
 * default its own parser accepts. */
static int test__table(void)
{
	for (int i = 0; i < TUNABLE__NR; i++) {
		const struct tunable_desc *d = tunable__desc(i);

		TEST_ASSERT_VAL("name", d->name && !strncmp(d->name, "PRF_", 4));
		TEST_ASSERT_VAL(d->name, d->desc && *d->desc && !strchr(d->desc, '\n'));
		for (int j = 0; j < i; j++)
			TEST_ASSERT_VAL(d->name, strcmp(d->name, tunable__desc(j)->name));
		switch (d->type) {
		case TUNABLE_BOOL:
			TEST_ASSERT_VAL(d->name, d->def == 0 || d->def == 1);
			break;
		case TUNABLE_INT:
			TEST_ASSERT_VAL(d->name, d->min <= d->def && d->def <= d->max);
			break;
		case TUNABLE_SIZE:
			TEST_ASSERT_VAL(d->name, d->def >= 0);
			break;
		case TUNABLE_STRING:
		case TUNABLE_PATH:
			TEST_ASSERT_VAL(d->name, d->def_text);
			break;
		}
	}
	return TEST_OK;
}

DEFINE_SUITE(tunables, "PRF_* tunables",
	TEST_CASE(parse_bool, "booleans: 0/1, no/yes, false/true, off/on in any case, nothing else"),
	TEST_CASE(parse_numbers, "ints in their range, sizes with K, M, G; bad values refused"),
	TEST_CASE(values, "values set: bad ones warn naming the variable and take the default"),
	TEST_CASE(read_once, "read once by the first of several threads, then kept"),
	TEST_CASE(table, "every row: a PRF_ name once, a description, a valid default"));

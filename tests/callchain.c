// SPDX-License-Identifier: GPL-2.0
/*
 * Resolver pieces of util/model/callchain.c: interned inlined symbols
 * (util/model/inline-sym.h) and the truncated marker symbol.
 */
#include <string.h>
#include "tests.h"
#include "../util/model/callchain.h"
#include "../util/model/dso.h"
#include "../util/model/inline-sym.h"

static int test__inline_syms(void)
{
	struct dso *a = dso__new("/tmp/prf-test-a"), *b = dso__new("/tmp/prf-test-b");
	struct symbol *s1, *s2, *s3, *s4, *s5;

	TEST_ASSERT_VAL("dso", a && b);
	s1 = dso__inline_sym(a, "mix", 0x1000, 0x1040);
	s2 = dso__inline_sym(a, "mix", 0x1000, 0x1040);
	s3 = dso__inline_sym(a, "mix", 0x2000, 0x2080);	/* inlined elsewhere */
	s4 = dso__inline_sym(b, "mix", 0x1000, 0x1040);	/* other DSO */
	s5 = dso__inline_sym(a, "other", 0x1000, 0x1040);
	TEST_ASSERT_VAL("interned", s1 && s1 == s2);
	TEST_ASSERT_VAL("per range", s3 && s3 != s1);
	TEST_ASSERT_VAL("per dso", s4 && s4 != s1);
	TEST_ASSERT_VAL("per name", s5 && s5 != s1);
	TEST_ASSERT_VAL("inlined", s1->inlined && s3->inlined && s5->inlined);
	TEST_ASSERT_STREQ("name", s1->name, "mix");
	TEST_ASSERT_EQUAL("start", s1->start, 0x1000);
	TEST_ASSERT_EQUAL("end", s1->end, 0x1040);
	TEST_ASSERT_VAL("no name", !dso__inline_sym(a, "", 0, 1));
	TEST_ASSERT_EQUAL("count a", dso__nr_inline_syms(a), 3);
	TEST_ASSERT_EQUAL("count b", dso__nr_inline_syms(b), 1);
	/* many names: the table grows and still finds every one */
	for (int i = 0; i < 1000; i++) {
		char n[32];

		snprintf(n, sizeof(n), "f%d", i);
		TEST_ASSERT_VAL("grow", dso__inline_sym(b, n, (uint64_t)i, (uint64_t)i + 1));
	}
	TEST_ASSERT_EQUAL("count grown", dso__nr_inline_syms(b), 1001);
	TEST_ASSERT_VAL("still interned", dso__inline_sym(b, "f500", 500, 501) ==
					  dso__inline_sym(b, "f500", 500, 501));
	TEST_ASSERT_VAL("old entry", dso__inline_sym(b, "mix", 0x1000, 0x1040) == s4);
	/* the per-thread memo keys on the name pointer: one buffer with
	 * new contents is a new name, not the memoized symbol */
	{
		char buf[16] = "reused";
		struct symbol *r1 = dso__inline_sym(b, buf, 0x5000, 0x5010), *r2;

		memcpy(buf, "other2", 7);
		r2 = dso__inline_sym(b, buf, 0x5000, 0x5010);
		TEST_ASSERT_VAL("buffer reused", r1 && r2 && r1 != r2);
		TEST_ASSERT_STREQ("new name", r2->name, "other2");
		TEST_ASSERT_VAL("memo hit", dso__inline_sym(b, buf, 0x5000, 0x5010) == r2);
	}
	dso__inline_syms_delete(a);
	TEST_ASSERT_EQUAL("deleted", dso__nr_inline_syms(a), 0);
	/* a lookup after the table was freed makes a new symbol (the memo's
	 * entry of the freed one is void; ASan would flag its use) */
	s2 = dso__inline_sym(a, "mix", 0x1000, 0x1040);
	TEST_ASSERT_VAL("after delete", s2 && !strcmp(s2->name, "mix"));
	TEST_ASSERT_EQUAL("recounted", dso__nr_inline_syms(a), 1);
	dso__put(a);
	dso__put(b);	/* frees its table */
	return TEST_OK;
}

static int test__truncated_sym(void)
{
	struct symbol *s = callchain__truncated_sym();

	TEST_ASSERT_VAL("sym", s && s == callchain__truncated_sym());
	TEST_ASSERT_STREQ("name", s->name, "[truncated]");
	TEST_ASSERT_VAL("not inlined", !s->inlined);
	return TEST_OK;
}

DEFINE_SUITE(callchain, "Resolver: interned inlined symbols, truncated marker",
	     TEST_CASE(inline_syms, "one inlined symbol per (DSO, name, range), freed with the DSO"),
	     TEST_CASE(truncated_sym, "the [truncated] marker symbol"));

// SPDX-License-Identifier: GPL-2.0
/*
 * prf's DIE walker (util/model/dwarf-die.h) against the same walks done
 * with libdw on real ELF files: for every unit, the same function ranges
 * in the same order, and for every function, the same inline scope
 * ranges (depth, DIE, parent, address range) in the same order. The
 * files: this binary, or the ones $PRF_DWARF_DIE_ELF names (colon
 * separated; tests/shell/dwarf-libdw.sh passes programs built with
 * -gdwarf-2 to -5 by gcc and clang, compressed too, and glibc's and
 * python3.11's debug files when installed). Then every cut of a unit
 * and bytes of it flipped: refused or walked, never read past the unit
 * (ASan/UBSan watch in CI).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "tests.h"
#include "dwarf-files.h"
#include "../util/model/dwarf-die.h"

struct rng {
	unsigned int depth;
	uint64_t off, parent, lo, hi;
};

struct rngs {
	struct rng *r;
	size_t n, alloc;
};

static int rngs__add(void *arg, unsigned int depth, uint64_t off, uint64_t parent, uint64_t lo,
		     uint64_t hi)
{
	struct rngs *l = arg;

	if (l->n == l->alloc) {
		size_t na = l->alloc ? 2 * l->alloc : 64;
		struct rng *nr = realloc(l->r, na * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		l->r = nr;
		l->alloc = na;
	}
	l->r[l->n++] = (struct rng){ depth, off, parent, lo, hi };
	return 0;
}

/* Equal lists? Reports the first difference. */
static bool rngs__equal(const struct rngs *a, const struct rngs *b, const char *what,
			uint64_t off)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++) {
		const struct rng *x = &a->r[i], *y = &b->r[i];

		if (x->depth != y->depth || x->off != y->off || x->parent != y->parent ||
		    x->lo != y->lo || x->hi != y->hi)
			break;
	}
	if (i == a->n && i == b->n)
		return true;
	pr_err("%s of DIE %#lx: entry %zu of %zu/%zu differs:", what, (unsigned long)off, i, a->n,
	       b->n);
	if (i < a->n)
		pr_err(" prf depth %u DIE %#lx parent %#lx [%#lx, %#lx)", a->r[i].depth,
		       (unsigned long)a->r[i].off, (unsigned long)a->r[i].parent,
		       (unsigned long)a->r[i].lo, (unsigned long)a->r[i].hi);
	if (i < b->n)
		pr_err(" libdw depth %u DIE %#lx parent %#lx [%#lx, %#lx)", b->r[i].depth,
		       (unsigned long)b->r[i].off, (unsigned long)b->r[i].parent,
		       (unsigned long)b->r[i].lo, (unsigned long)b->r[i].hi);
	pr_err("\n");
	return false;
}

struct counts {
	const struct dwarf_die_secs *secs;
	size_t units, refused, funcs, scopes;
};

/* One unit: functions, then each function's scopes, both ways. */
static int check_unit(Dwarf *dw, const struct dwarf_die_secs *secs, Dwarf_Die *cudie,
		      struct counts *c)
{
	struct rngs mine = { 0 }, ref = { 0 };
	struct dwarf_unit *u = NULL;
	uint64_t cu_off = dwarf_dieoffset(cudie);
	uint8_t asz, osz;
	size_t i;
	int err, ret = TEST_FAIL;

	if (!dwarf_diecu(cudie, &(Dwarf_Die){ 0 }, &asz, &osz))
		return TEST_FAIL;
	err = dwarf_unit__new(secs, cu_off, osz, &u);
	if (err == -EOPNOTSUPP) {
		c->refused++;
		return TEST_OK;
	}
	if (err) {
		pr_err("unit %#lx: dwarf_unit__new: %d\n", (unsigned long)cu_off, err);
		return TEST_FAIL;
	}
	err = dwarf_unit__funcs(u, rngs__add, &mine);
	if (err || dwarf_die__funcs_libdw(dw, cu_off, rngs__add, &ref)) {
		pr_err("unit %#lx: function walk failed: %d\n", (unsigned long)cu_off, err);
		goto out;
	}
	if (!rngs__equal(&mine, &ref, "functions", cu_off))
		goto out;
	c->units++;
	c->funcs += mine.n;
	for (i = 0; i < ref.n; i++) {
		struct rngs s1 = { 0 }, s2 = { 0 };
		uint64_t f = ref.r[i].off;
		bool same;

		if (i && ref.r[i - 1].off == f)	/* a function in several ranges */
			continue;
		err = dwarf_unit__scopes(u, f, 63, rngs__add, &s1);
		if (!err)
			err = dwarf_die__scopes_libdw(dw, f, 63, rngs__add, &s2);
		same = !err && rngs__equal(&s1, &s2, "scopes", f);
		c->scopes += s1.n;
		free(s1.r);
		free(s2.r);
		if (!same) {
			if (err)
				pr_err("scopes of DIE %#lx: %d\n", (unsigned long)f, err);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	free(mine.r);
	free(ref.r);
	dwarf_unit__delete(u);
	return ret;
}

static int check_unit_cb(struct dwarf_file *df, Dwarf_Die *cudie, void *arg)
{
	struct counts *c = arg;

	return check_unit(df->dw, c->secs, cudie, c);
}

static int check_file(const char *path)
{
	struct dwarf_die_secs secs;
	struct dwarf_file df;
	struct counts c = { .secs = &secs };
	int ret = TEST_FAIL;

	if (dwarf_file__open(&df, path))
		return TEST_FAIL;
	if (!df.dw || dwarf_die_secs__from_elf(df.elf, &secs)) {
		pr_err("%s: no DWARF to walk\n", path);
		goto out;
	}
	if (dwarf_file__each_unit(&df, path, check_unit_cb, &c))
		goto out;
	pr_debug("%s: %zu units (%zu left to libdw), %zu function ranges, %zu scope ranges as libdw walks them\n",
		 path, c.units, c.refused, c.funcs, c.scopes);
	ret = c.units && c.funcs ? TEST_OK : TEST_FAIL;
	if (ret)
		pr_err("%s: no unit walked\n", path);
out:
	dwarf_file__close(&df);
	return ret;
}

static int test__libdw_agrees(void)
{
	return dwarf_files__each(TUNABLE_DWARF_DIE_ELF, check_file);
}

static int ignore(void *arg, unsigned int depth, uint64_t off, uint64_t parent, uint64_t lo,
		  uint64_t hi)
{
	(*(size_t *)arg)++;
	return 0;
}

/* Walk the unit in a copy of .debug_info cut or altered: no crash, no
 * read outside the copy (a malloc'd block of exactly the unit's bytes,
 * so ASan sees any overread). */
static void walk_copy(const struct dwarf_die_secs *secs, const unsigned char *bytes, size_t len,
		      uint64_t cu_rel, size_t *walked)
{
	struct dwarf_die_secs s = *secs;
	struct dwarf_unit *u;
	unsigned char *copy = malloc(len ? len : 1);

	if (!copy)
		return;
	memcpy(copy, bytes, len);
	s.info = copy;
	s.info_len = len;
	if (!dwarf_unit__new(&s, cu_rel, 4, &u)) {
		size_t n = 0;
		struct rngs fl = { 0 };

		dwarf_unit__funcs(u, rngs__add, &fl);
		for (size_t i = 0; i < fl.n; i++)
			dwarf_unit__scopes(u, fl.r[i].off, 63, ignore, &n);
		free(fl.r);
		dwarf_unit__delete(u);
		(*walked)++;
	}
	free(copy);
}

static int test__corrupt(void)
{
	struct dwarf_die_secs secs;
	struct dwarf_file df;
	Dwarf_Off off = 0, next;
	size_t hsize, walked = 0, tries = 0;
	uint8_t osz;
	int ret = TEST_FAIL;

	if (dwarf_file__self_stripped())
		return test_skip("this prf is stripped (as packages install it): no DWARF of its own to cut");
	TEST_ASSERT_VAL("open self", !dwarf_file__open(&df, "/proc/self/exe"));
	if (!df.dw || dwarf_die_secs__from_elf(df.elf, &secs)) {
		pr_err("this binary has no DWARF to walk\n");
		goto out;
	}
	/* the first unit of 32-bit DWARF, alone at offset 0 of the copy */
	if (dwarf_next_unit(df.dw, off, &next, &hsize, NULL, NULL, NULL, &osz, NULL, NULL) ||
	    osz != 4 || next > secs.info_len) {
		pr_err("no 32-bit unit to cut\n");
		goto out;
	}
	/* every cut: the unit's own length now runs past the copy */
	for (size_t len = 0; len < next - off; len += len < 256 ? 1 : 97, tries++)
		walk_copy(&secs, secs.info + off, len, hsize, &walked);
	TEST_ASSERT_VAL("every cut refused", walked == 0);
	/* each byte of the first 4 KiB set to 0xff, then to 0x80 (an
	 * unending LEB128 there) */
	for (size_t i = 0; i < next - off && i < 4096; i++, tries++)
		for (int v = 0; v < 2; v++) {
			unsigned char *copy = malloc(next - off);

			if (!copy)
				goto out;
			memcpy(copy, secs.info + off, next - off);
			copy[i] = v ? 0x80 : 0xff;
			walk_copy(&secs, copy, next - off, hsize, &walked);
			free(copy);
		}
	/* a bad unit type and version are not read here */
	{
		unsigned char *copy = malloc(next - off);

		if (!copy)
			goto out;
		memcpy(copy, secs.info + off, next - off);
		copy[4] = 9;	/* version 9 */
		walk_copy(&secs, copy, next - off, hsize, &walked);
		free(copy);
	}
	pr_debug("%zu altered units tried, %zu walked\n", tries, walked);
	ret = TEST_OK;
out:
	dwarf_file__close(&df);
	return ret;
}

DEFINE_SUITE(dwarf_die, "DWARF DIE walker",
	TEST_CASE(libdw_agrees, "function and inline scope ranges equal libdw's on real ELF files"),
	TEST_CASE(corrupt, "cut or altered units are refused or walked without overreading"));

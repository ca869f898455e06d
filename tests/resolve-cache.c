// SPDX-License-Identifier: GPL-2.0
/*
 * thread__find_symbol() keeps a per-thread (maps, address) -> (map, symbol)
 * cache. These cases check that it never returns a stale answer: after a
 * new MMAP2 over the same range, in another process at the same address, after
 * symbols are added to a DSO that had none, and across many addresses
 * that collide in the direct-mapped table.
 */
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "../util/model/dso.h"
#include "../util/model/machine.h"
#include "../util/model/map.h"
#include "../util/lib/util.h"
#include "../util/lib/debug.h"

static union perf_event *ev_buf(void)
{
	static union { union perf_event ev; char pad[sizeof(struct perf_record_mmap2) + 64]; } b;

	memset(&b, 0, sizeof(b));
	return &b.ev;
}

static int comm(struct machine *m, pid_t pid, const char *name, bool exec)
{
	union perf_event *ev = ev_buf();

	ev->header.type = PERF_RECORD_COMM;
	ev->header.misc = exec ? (1 << 13) : 0;	/* PERF_RECORD_MISC_COMM_EXEC */
	ev->header.size = sizeof(ev->comm);
	ev->comm.pid = pid;
	ev->comm.tid = pid;
	strncpy(ev->comm.comm, name, sizeof(ev->comm.comm) - 1);
	return machine__process_event(m, ev, NULL);
}

static int mmap2(struct machine *m, pid_t pid, uint64_t start, uint64_t len, const char *file)
{
	union perf_event *ev = ev_buf();
	size_t l = strlen(file) + 1;

	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = PERF_RECORD_MISC_USER;
	ev->header.size = (uint16_t)(offsetof(struct perf_record_mmap2, filename) + PERF_ALIGN(l, 8));
	ev->mmap2.pid = pid;
	ev->mmap2.tid = pid;
	ev->mmap2.start = start;
	ev->mmap2.len = len;
	ev->mmap2.prot = 5;
	ev->mmap2.flags = 2;
	memcpy(ev->mmap2.filename, file, l);
	return machine__process_event(m, ev, NULL);
}

/* A user DSO (file offsets = DSO addresses: mapped at pgoff 0, no ELF to
 * read) with symbols we choose, marked loaded now. */
static struct dso *user_dso(struct machine *m, const char *path, uint64_t base, const char *prefix,
			   int nsyms)
{
	struct dso *dso = machine__findnew_dso(m, path);
	char name[64];

	if (!dso)
		return NULL;
	dso->symbols_loaded = true;
	for (int i = 0; i < nsyms; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		dso__add_symbol(dso, base + 0x100 * (uint64_t)i, 0x100, 1, 2, name, false);
	}
	dso__symbols_finish(dso);
	return dso;
}

static const char *sym_at(struct machine *m, pid_t pid, uint64_t addr)
{
	struct addr_location al;
	struct thread *t = machine__findnew_thread(m, pid, pid);

	if (!t)
		return "(no thread)";
	thread__find_symbol(t, PERF_RECORD_MISC_USER, addr, &al);
	if (!al.map)
		return "(unmapped)";
	return al.sym ? al.sym->name : "(no symbol)";
}

static int test__remap(void)
{
	struct machine *m = machine__new_host();
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("machine", m);
	if (comm(m, 4242, "jit", false) || mmap2(m, 4242, 0x100000, 0x10000, "/nonexistent/prf-rc-a.so") ||
	    !user_dso(m, "/nonexistent/prf-rc-a.so", 0, "old", 16))
		goto out;
	/* twice: the second answer comes from the cache */
	if (strcmp(sym_at(m, 4242, 0x100250), "old2") || strcmp(sym_at(m, 4242, 0x100250), "old2")) {
		pr_err("before remap: %s\n", sym_at(m, 4242, 0x100250));
		goto out;
	}
	/* a new mapping over the range must win at once */
	if (mmap2(m, 4242, 0x100000, 0x10000, "/nonexistent/prf-rc-b.so") ||
	    !user_dso(m, "/nonexistent/prf-rc-b.so", 0, "new", 16))
		goto out;
	if (strcmp(sym_at(m, 4242, 0x100250), "new2")) {
		pr_err("after remap: %s\n", sym_at(m, 4242, 0x100250));
		goto out;
	}
	/* same address in another process: its own (empty) address space */
	if (comm(m, 4244, "other", false) || strcmp(sym_at(m, 4244, 0x100250), "(unmapped)")) {
		pr_err("other process: %s\n", sym_at(m, 4244, 0x100250));
		goto out;
	}
	ret = TEST_OK;
out:
	if (ret)
		pr_err("stale resolution after a remap\n");
	machine__delete(m);
	return ret;
}

static int test__symbols_added(void)
{
	struct machine *m = machine__new_host();
	struct dso *dso;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("machine", m);
	if (comm(m, 4300, "jit", false) || mmap2(m, 4300, 0x200000, 0x10000, "/nonexistent/prf-rc-c.so"))
		goto out;
	dso = user_dso(m, "/nonexistent/prf-rc-c.so", 0, "a", 0);	/* no symbols yet */
	if (!dso || strcmp(sym_at(m, 4300, 0x200010), "(no symbol)"))
		goto out;
	dso__add_symbol(dso, 0, 0x100, 1, 2, "late", false);
	dso__symbols_finish(dso);
	if (strcmp(sym_at(m, 4300, 0x200010), "late"))
		goto out;
	ret = TEST_OK;
out:
	if (ret)
		pr_err("symbol added after a lookup not found\n");
	machine__delete(m);
	return ret;
}

static int test__collisions(void)
{
	struct machine *m = machine__new_host();
	char want[32];
	int ret = TEST_OK;

	TEST_ASSERT_VAL("machine", m);
	TEST_ASSERT_VAL("setup", !comm(m, 4400, "jit", false) &&
			!mmap2(m, 4400, 0x300000, 0x400000, "/nonexistent/prf-rc-d.so") &&
			user_dso(m, "/nonexistent/prf-rc-d.so", 0, "f", 0x4000));
	/* 3 passes over 16K addresses: far more than the cache holds */
	for (int pass = 0; pass < 3 && ret == TEST_OK; pass++) {
		for (int i = 0; i < 0x4000; i++) {
			snprintf(want, sizeof(want), "f%d", i);
			if (strcmp(sym_at(m, 4400, 0x300000 + 0x100 * (uint64_t)i + (uint64_t)(pass * 8)), want)) {
				pr_err("address %#x: got %s, want %s\n", 0x300000 + 0x100 * i,
				       sym_at(m, 4400, 0x300000 + 0x100 * (uint64_t)i), want);
				ret = TEST_FAIL;
				break;
			}
		}
	}
	machine__delete(m);
	return ret;
}

DEFINE_SUITE(resolve_cache, "Address resolution cache (thread__find_symbol)",
	TEST_CASE(remap, "a new MMAP2 over a cached range is seen at once; other processes"),
	TEST_CASE(symbols_added, "symbols added to a DSO after a lookup are found"),
	TEST_CASE(collisions, "16K addresses colliding in the table resolve right"));

#!/bin/bash
# prf report --mem-mode and its data-address keys (symbol_daddr, dso_daddr, mem, snoop, tlb, locked, blocked, local_ins_lat), --sort addr and script's data symbols (-F addr,sym) against perf on page-fault recordings whose samples carry the faulting address (record -d), by perf and by prf (issue #26)
# The program touches a big .bss array, an initialised .data array, a
# .rodata array, a heap buffer and a stack array, one page at a time: the
# faults name the data symbols (ELF objects, "data_buf+0x...") and the
# DSOs of the data maps (the program, anon, [stack]). Also: --mem-mode on
# a recording without data sources fails as perf's does, and the memory
# keys outside --mem-mode are a usage error (perf: "Invalid --sort key").
set -u
. "$PRF_SRCDIR/tests/shell/lib/report.sh"
test_setup report-mem-mode

cat > "$T/m.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#define N (4096 * 16)
static char bss_buf[N * 4];
char data_buf[N] = { 1 };
const char ro_buf[N] = { 2 };
static int sum;
__attribute__((noinline)) void touch(volatile char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 4096)
		p[i] = (char)i;
}
__attribute__((noinline)) void readit(const volatile char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 4096)
		sum += p[i];
}
__attribute__((noinline)) void stack(void)
{
	volatile char s[4096 * 16];

	touch(s, sizeof(s));
}
int main(void)
{
	char *h = malloc(N * 8);

	touch(bss_buf, sizeof(bss_buf));
	touch(data_buf, N);
	readit(ro_buf, N);
	touch(h, N * 8);
	stack();
	printf("%d\n", sum);
	return 0;
}
C
cc -O1 -g -o "$T/m" "$T/m.c" || fail "cc m.c"
perf_record "$T/m.data" -d -e page-faults -c 1 -- "$T/m"
"$PRF" record -q -o "$T/prfm.data" -d -e page-faults -c 1 -- "$T/m" > /dev/null 2> "$T/prfrec.err" ||
	{ cat "$T/prfrec.err"; fail "prf record -d"; }
# perf's default period (not -c 1): --mem-mode counts each sample as 1
perf_record "$T/f.data" -d -e page-faults -- "$T/m"

for data in "$T/m.data" "$T/prfm.data" "$T/f.data"; do
	report_same "--mem-mode" --mem-mode
	report_same "--mem-mode -s symbol_daddr,dso_daddr -n" --mem-mode -s symbol_daddr,dso_daddr -n
	[ "$data" = "$T/m.data" ] || continue
	report_same "--mem-mode -s dso_daddr" --mem-mode -s dso_daddr
	report_same "--mem-mode -s mem,snoop,tlb,locked,blocked" --mem-mode -s mem,snoop,tlb,locked,blocked
	report_same "--mem-mode -s dso,locked" --mem-mode -s dso,locked
	report_same "--mem-mode -s local_ins_lat,dso_daddr,sym" --mem-mode -s local_ins_lat,dso_daddr,sym
	report_same "--mem-mode --sort addr,symbol_daddr" --mem-mode --sort addr,symbol_daddr
	report_same "--sort addr" --sort addr
done

# the data symbols are there: objects with their offsets, and the maps
prf_out "$T/mem.txt" report -i "$T/m.data" --stdio --mem-mode -s symbol_daddr,dso_daddr
for want in '\[\.\] data_buf\+0x[0-9a-f]+ +m ' '\[\.\] ro_buf\+0x[0-9a-f]+ +m ' ' anon ' ' \[stack\] '; do
	grep -Eq "$want" "$T/mem.txt" || { head -30 "$T/mem.txt"; fail "--mem-mode: no '$want' entry"; }
done
grep -q '^# Total weight : ' "$T/mem.txt" || fail "--mem-mode: no Total weight line"
echo "ok: --mem-mode names data_buf, ro_buf (objects with offsets), anon and [stack]"

# script: the fault address's data symbol after -F addr, as perf prints it
for data in "$T/m.data" "$T/prfm.data"; do
	for f in ip,sym,addr addr,sym,dso,symoff +addr; do
		"$PERF" script -i "$data" -F "$f" > "$T/s.perf" 2>/dev/null || fail "perf script -F $f"
		prf_out "$T/s.prf" script -i "$data" -F "$f"
		cmp -s "$T/s.perf" "$T/s.prf" ||
			{ diff "$T/s.perf" "$T/s.prf" | head; fail "script -F $f differs on $(basename "$data")"; }
		echo "ok: script -F $f on $(basename "$data") ($(wc -l < "$T/s.prf") lines)"
	done
done
grep -q ' data_buf+0x' "$T/s.prf" || fail "script -F addr,sym,symoff: no data_buf"

# --mem-mode without data sources: perf's message, a failure
perf_record "$T/nod.data" -e page-faults -- "$T/m"
"$PRF" report -i "$T/nod.data" --stdio --mem-mode > /dev/null 2> "$T/nod.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/nod.err"; fail "--mem-mode without mem data: exit $rc, not 1"; }
grep -q "Selected --mem-mode but no mem data" "$T/nod.err" || { cat "$T/nod.err"; fail "no mem-data message"; }
echo "ok: --mem-mode without data sources fails (exit 1) with perf's message"
# a memory key without --mem-mode: a usage error, as perf refuses it
"$PRF" report -i "$T/m.data" --stdio -s symbol_daddr > /dev/null 2> "$T/inv.err"
rc=$?
[ $rc -eq 129 ] || { cat "$T/inv.err"; fail "-s symbol_daddr without --mem-mode: exit $rc, not 129"; }
grep -q "Invalid --sort key: \`symbol_daddr'" "$T/inv.err" || { cat "$T/inv.err"; fail "no Invalid key message"; }
echo "ok: -s symbol_daddr without --mem-mode is refused (exit 129)"
exit 0

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_MEM_SRC_H
#define PRF_ANALYSIS_MEM_SRC_H
/*
 * A sample's data source (PERF_SAMPLE_DATA_SRC: union perf_mem_data_src
 * of linux/perf_event.h, its bit fields) as perf 6.1 spells it: the
 * pieces of script's -F data_src ("|OP op|LVL lvl|SNP snoop|TLB tlb|LCK
 * lock|BLK blk") and the columns of report's --mem-mode keys (mem, snoop,
 * tlb, locked, blocked), which print the same pieces.
 *
 * Each writer fills out (size bytes, NUL-terminated, cut to fit) and
 * returns the length written.
 */
#include <stddef.h>
#include <stdint.h>

/* The bit fields the report keys group and sort by. */
static inline unsigned int mem_src__lvl_bits(uint64_t v) { return (v >> 5) & 0x3fff; }
static inline unsigned int mem_src__snoop_bits(uint64_t v) { return (v >> 19) & 0x1f; }
static inline unsigned int mem_src__lock_bits(uint64_t v) { return (v >> 24) & 3; }
static inline unsigned int mem_src__tlb_bits(uint64_t v) { return (v >> 26) & 0x7f; }
static inline unsigned int mem_src__blk_bits(uint64_t v) { return (v >> 40) & 7; }

/* the memory level ("L1 hit", "N/A or N/A", "Remote RAM (1 hop) miss") */
size_t mem_src__lvl(uint64_t v, char *out, size_t size);
/* the snoop ("None", "HitM", "N/A") */
size_t mem_src__snoop(uint64_t v, char *out, size_t size);
/* the TLB access ("L1 or L2 hit", "N/A") */
size_t mem_src__tlb(uint64_t v, char *out, size_t size);
/* the lock ("Yes", "No", "N/A") */
size_t mem_src__lock(uint64_t v, char *out, size_t size);
/* the block (" N/A", " Data", " Data Addr", ""): perf's leading space */
size_t mem_src__blk(uint64_t v, char *out, size_t size);
/* script's -F data_src text: "|OP op|LVL lvl|SNP snoop|TLB tlb|LCK lock|BLK blk" */
size_t mem_src__decode(uint64_t v, char *out, size_t size);

#endif

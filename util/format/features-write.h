/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_FEATURES_WRITE_H
#define PRF_FORMAT_FEATURES_WRITE_H
/*
 * Payloads of the perf.data header feature sections written by prf record,
 * in the layouts of tools/perf/Documentation/perf.data-file-format.txt:
 * TRACING_DATA (through a hook), BUILD_ID, HOSTNAME, OSRELEASE, VERSION,
 * ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE, EVENT_DESC,
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, SAMPLE_TIME, STAT, COMPRESSED, GROUP_DESC. Strings are
 * perf_header_string
 * (u32 len, NUL padded to a multiple of 64 bytes).
 */
#include <stdbool.h>
#include <stdint.h>
#include "writer.h"

struct strbuf;

/* One DSO hit by samples, for HEADER_BUILD_ID. */
struct feat_build_id {
	const char *filename;	/* as in the MMAP record, "[kernel.kallsyms]" */
	uint8_t bid[20];
	uint8_t size;		/* bytes of bid used */
	bool kernel;		/* cpumode kernel (misc KERNEL) vs user */
};

/* One event group of two or more events, for HEADER_GROUP_DESC. */
struct feat_group {
	const char *name;	/* NULL: perf's "{anon_group}" */
	uint32_t leader_idx;	/* the leader's index in the attrs (EVENT_DESC order) */
	uint32_t nr_members;	/* events in the group, the leader included */
};

struct features_ctx {
	const struct writer_attr *attrs;	/* one per event */
	const char *const *names;		/* event names, same order */
	int nr_attrs;
	const char *version;			/* HEADER_VERSION text, e.g. "0.1.0" */
	int argc;				/* command line for CMDLINE */
	const char **argv;
	bool has_sample_time;
	uint64_t first_sample_time, last_sample_time;	/* ns */
	const struct feat_build_id *bids;
	int nr_bids;
	bool compressed;
	bool stat;				/* HEADER_STAT (no payload): a stat record file */
	bool numa_topology;			/* HEADER_NUMA_TOPOLOGY (stat record: --per-node) */
	uint32_t comp_level, comp_ratio, comp_mmap_len;	/* mmap_len in bytes */
	/* -k: HEADER_CLOCKID (the clock's resolution) and HEADER_CLOCK_DATA
	 * (wall-clock and clockid times read together, ns) */
	bool use_clockid;
	uint32_t clockid;
	uint64_t clockid_res_ns, clock_tod_ns, clock_clockid_ns;
	/* Hook for HEADER_TRACING_DATA (tracepoint formats); NULL: not written. */
	int (*tracing_data)(struct strbuf *sb, void *arg);
	void *tracing_arg;
	/* HEADER_GROUP_DESC, written when nr_groups > 0 (record '{a,b}') */
	const struct feat_group *groups;
	int nr_groups;
};

/*
 * Build every feature payload into *feats (malloc'd array of *nr entries
 * in increasing id order, each buf malloc'd). BUILD_ID is written only when
 * nr_bids > 0, SAMPLE_TIME when has_sample_time, COMPRESSED when compressed,
 * CLOCKID and CLOCK_DATA when use_clockid, GROUP_DESC when nr_groups > 0.
 * Returns 0 or -ENOMEM. Free with features__free().
 */
int features__build(const struct features_ctx *ctx, struct writer_feat **feats, int *nr);
void features__free(struct writer_feat *feats, int nr);

/*
 * Append one PERF_RECORD_HEADER_BUILD_ID record per entry of bids to sb
 * (pid -1, misc KERNEL or USER with the size-valid bit, the filename NUL
 * padded to 64 bytes): the HEADER_BUILD_ID payload, and in pipe mode the
 * records themselves. 0 or -ENOMEM.
 */
/* The HEADER_CMDLINE payload: this program's path (/proc/self/exe), then
 * argv[0..argc) (the command and its arguments). 0 or -ENOMEM. */
int features__cmdline(struct strbuf *sb, int argc, const char **argv);

int features__build_id_records(struct strbuf *sb, const struct feat_build_id *bids, int nr);

/*
 * Read the GNU build-id note of an ELF file (path), or of a raw notes
 * blob file such as /sys/kernel/notes when raw_notes is true. bid gets up
 * to 20 bytes. Returns the size (> 0) or -errno (-ENOENT: no note).
 */
int features__read_build_id(const char *path, bool raw_notes, uint8_t bid[20]);

#endif

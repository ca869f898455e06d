/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_HEADER_H
#define PRF_FORMAT_HEADER_H
/*
 * perf.data on-disk header, per tools/perf/Documentation/perf.data-file-format.txt.
 * File mode: perf_file_header at offset 0, attrs section (perf_file_attr
 * entries, each attr of header.attr_size bytes followed by a
 * perf_file_section pointing at its u64 ids), data section, then one
 * perf_file_section per set feature bit (in bit order) at data.offset +
 * data.size, followed by the feature payloads.
 * Pipe mode: perf_pipe_file_header, then records only (attrs, tracing data,
 * features as PERF_RECORD_HEADER_* records).
 */
#include <stdint.h>
#include <linux/perf_event.h>

#define PERF_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" little-endian */
#define PERF_MAGIC2_SW	0x50455246494c4532ULL	/* "PERFILE2" read byte-swapped */

#define HEADER_FEAT_BITS 256

enum {
	HEADER_RESERVED		= 0,
	HEADER_FIRST_FEATURE	= 1,
	HEADER_TRACING_DATA	= 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
};

struct perf_file_section {
	uint64_t offset;	/* bytes from file start */
	uint64_t size;		/* bytes */
};

struct perf_file_header {
	uint64_t magic;
	uint64_t size;		/* sizeof(struct perf_file_header) = 104 */
	uint64_t attr_size;	/* size of one perf_file_attr entry */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, zero */
	uint64_t adds_features[HEADER_FEAT_BITS / 64];
};

struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;		/* 16 */
};

/* Strings in feature sections: u32 len (incl. NUL padding to 64 bytes) + data. */
struct perf_header_string {
	uint32_t len;
	char string[];
};

#endif

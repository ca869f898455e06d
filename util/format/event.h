/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_EVENT_H
#define PRF_FORMAT_EVENT_H
/*
 * Record layouts of the perf ring buffer and of perf.data's data section.
 * Kernel records: perf_event_open(2) "MMAP layout" / linux/perf_event.h.
 * User records (type >= 64): tools/perf/Documentation/perf.data-file-format.txt.
 * The trailing sample_id (sample_id_all) of non-sample records is parsed by
 * perf_event__parse_id_sample() in the reader, not described here.
 */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
typedef int64_t s64;
typedef int32_t s32;

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif

struct perf_record_mmap {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	char filename[PATH_MAX];
};

struct perf_record_mmap2 {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	union {
		struct {
			u32 maj, min;
			u64 ino, ino_generation;
		};
		struct {
			u8 build_id_size;
			u8 __reserved_1;
			u16 __reserved_2;
			u8 build_id[20];
		};
	};
	u32 prot, flags;
	char filename[PATH_MAX];
};

struct perf_record_comm {
	struct perf_event_header header;
	u32 pid, tid;
	char comm[16];
};

struct perf_record_namespaces {
	struct perf_event_header header;
	u32 pid, tid;
	u64 nr_namespaces;
	struct { u64 dev, ino; } link_info[];
};

struct perf_record_fork {		/* FORK and EXIT */
	struct perf_event_header header;
	u32 pid, ppid, tid, ptid;
	u64 time;
};

struct perf_record_lost {
	struct perf_event_header header;
	u64 id, lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	u64 lost;
};

struct perf_record_throttle {		/* THROTTLE and UNTHROTTLE */
	struct perf_event_header header;
	u64 time, id, stream_id;
};

struct perf_record_read {
	struct perf_event_header header;
	u32 pid, tid;
	u64 value, time_enabled, time_running, id;
};

struct perf_record_switch {
	struct perf_event_header header;
	u32 next_prev_pid, next_prev_tid;	/* SWITCH_CPU_WIDE only */
};

struct perf_record_ksymbol {
	struct perf_event_header header;
	u64 addr;
	u32 len;
	u16 ksym_type, flags;
	char name[256];
};

struct perf_record_sample {
	struct perf_event_header header;
	u64 array[];
};

/* User-space records written by perf itself (type >= 64). */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START	= 64,
	PERF_RECORD_HEADER_ATTR		= 64,
	PERF_RECORD_HEADER_EVENT_TYPE	= 65,	/* deprecated */
	PERF_RECORD_HEADER_TRACING_DATA	= 66,
	PERF_RECORD_HEADER_BUILD_ID	= 67,
	PERF_RECORD_FINISHED_ROUND	= 68,
	PERF_RECORD_ID_INDEX		= 69,
	PERF_RECORD_AUXTRACE_INFO	= 70,
	PERF_RECORD_AUXTRACE		= 71,
	PERF_RECORD_AUXTRACE_ERROR	= 72,
	PERF_RECORD_THREAD_MAP		= 73,
	PERF_RECORD_CPU_MAP		= 74,
	PERF_RECORD_STAT_CONFIG		= 75,
	PERF_RECORD_STAT		= 76,
	PERF_RECORD_STAT_ROUND		= 77,
	PERF_RECORD_EVENT_UPDATE	= 78,
	PERF_RECORD_TIME_CONV		= 79,
	PERF_RECORD_HEADER_FEATURE	= 80,
	PERF_RECORD_COMPRESSED		= 81,
	PERF_RECORD_FINISHED_INIT	= 82,
	PERF_RECORD_HEADER_MAX
};

/* PERF_RECORD_HEADER_ATTR: attr (attr.size bytes) then the ids. */
struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;
	/* u64 id[]; follows attr.size bytes after attr */
};

struct perf_record_header_tracing_data {
	struct perf_event_header header;
	u32 size;
	u32 pad;
};

struct perf_record_header_build_id {
	struct perf_event_header header;	/* misc: cpumode */
	s32 pid;
	union {
		u8 build_id[24];
		struct {
			u8 data[20];
			u8 size;
			u8 reserved1__;
			u16 reserved2__;
		};
	};
	char filename[];
};

struct id_index_entry {
	u64 id, idx, cpu, tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	u64 nr;
	struct id_index_entry entries[];
};

struct perf_record_time_conv {
	struct perf_event_header header;
	u64 time_shift, time_mult, time_zero;
	u64 time_cycles, time_mask;
	u8 cap_user_time_zero, cap_user_time_short, reserved[6];
};

struct perf_record_header_feature {
	struct perf_event_header header;
	u64 feat_id;
	char data[];
};

struct perf_record_compressed {
	struct perf_event_header header;
	char data[];
};

union perf_event {
	struct perf_event_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_namespaces namespaces;
	struct perf_record_fork fork;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_throttle throttle;
	struct perf_record_read read;
	struct perf_record_switch context_switch;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_sample sample;
	struct perf_record_header_attr attr;
	struct perf_record_header_tracing_data tracing_data;
	struct perf_record_header_build_id build_id;
	struct perf_record_id_index id_index;
	struct perf_record_time_conv time_conv;
	struct perf_record_header_feature feat;
	struct perf_record_compressed pack;
};

/*
 * Length of the string that starts @off bytes into @ev (the variable tail of
 * MMAP/MMAP2 filename, COMM comm, KSYMBOL name): up to its NUL, never past
 * header.size nor @max bytes.  A record shorter than @off gives 0.  Files may
 * hold these tails unterminated or cut short; readers print and copy with
 * this length instead of trusting the fixed array sizes of the structs above.
 */
static inline int perf_event__strlen(const union perf_event *ev, size_t off, size_t max)
{
	const char *s = (const char *)ev + off;
	size_t n = 0, lim;

	if (ev->header.size <= off)
		return 0;
	lim = ev->header.size - off;
	if (lim > max)
		lim = max;
	while (n < lim && s[n])
		n++;
	return (int)n;
}

/* PERF_SAMPLE_CALLCHAIN: nr then ips (context markers PERF_CONTEXT_* inline). */
struct ip_callchain {
	u64 nr;
	u64 ips[];
};

struct branch_entry {
	u64 from, to, flags;
};

struct branch_stack {
	u64 nr;
	u64 hw_idx;		/* only when PERF_SAMPLE_BRANCH_HW_INDEX */
	struct branch_entry entries[];
};

/* PERF_SAMPLE_REGS_USER/INTR: abi then one u64 per bit set in mask. */
struct regs_dump {
	u64 abi;
	u64 mask;
	const u64 *regs;	/* points into the record */
};

/* PERF_SAMPLE_STACK_USER */
struct stack_dump {
	u64 size;		/* bytes reserved in the record (may be 0) */
	u64 dyn_size;		/* bytes the kernel copied, <= size; 0: none (the copy
				 * faulted), so there is no user stack to unwind and,
				 * as in perf, no user frames */
	const char *data;	/* points into the record */
};

struct evsel;

/*
 * One decoded sample (or the sample_id of a side-band record). Pointers
 * point into the record, valid while the record is. Fields absent from
 * sample_type are 0 (cpu/pid/tid: (u32)-1 where perf uses -1).
 */
struct perf_sample {
	u64 ip;
	u32 pid, tid;
	u64 time;		/* ns, perf clock (or clockid of the file) */
	u64 addr;
	u64 id;
	u64 stream_id;
	u64 period;
	u64 weight;
	u64 transaction;
	u64 data_src;
	u16 ins_lat;		/* PERF_SAMPLE_WEIGHT_STRUCT's var2_w, 0 without */
	u64 phys_addr;
	u64 cgroup;
	u64 code_page_size, data_page_size;
	u32 cpu;
	u32 raw_size;
	u16 misc;		/* header.misc of the record */
	u8 cpumode;		/* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	const void *raw_data;
	const struct ip_callchain *callchain;
	const struct branch_stack *branch_stack;
	struct regs_dump user_regs;
	struct regs_dump intr_regs;
	struct stack_dump user_stack;
	const void *read_data;	/* PERF_SAMPLE_READ, raw (read_format layout) */
	u32 read_size;
	struct evsel *evsel;	/* the event the record belongs to */
};

/* perf's words for a PERF_RECORD_SWITCH(_CPU_WIDE) record's direction
 * (header.misc), 11 wide: "IN         ", "OUT        ", "OUT preempt". */
static inline const char *perf_event__switch_dir(u16 misc)
{
	if (!(misc & PERF_RECORD_MISC_SWITCH_OUT))
		return "IN         ";
	return (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" : "OUT        ";
}

/* The sample has a user stack to unwind: user registers
 * (PERF_SAMPLE_REGS_USER with an ABI) and a stack copy the kernel filled
 * (dyn_size > 0). perf shows no user frames for a DWARF sample without. */
static inline bool perf_sample__has_user_stack(const struct perf_sample *s)
{
	return s->user_regs.regs && s->user_stack.dyn_size;
}

/* A build-id as perf.data carries it (HEADER_BUILD_ID, PERF_RECORD_HEADER_BUILD_ID):
 * up to 20 bytes (SHA-1 size; shorter ones with PERF_RECORD_MISC_BUILD_ID_SIZE). */
#define BUILD_ID_SIZE 20

struct build_id {
	uint8_t data[BUILD_ID_SIZE];
	size_t size;		/* bytes; 0: unknown */
};

#endif

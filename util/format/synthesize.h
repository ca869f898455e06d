/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_SYNTHESIZE_H
#define PRF_FORMAT_SYNTHESIZE_H
/*
 * Synthesized side-band records describing state that existed before the
 * events were enabled (perf_event_open(2) record layouts, as perf record
 * writes them): PERF_RECORD_COMM and PERF_RECORD_FORK for every task,
 * PERF_RECORD_MMAP2 for every executable mapping in /proc/PID/maps, the
 * kernel map "[kernel.kallsyms]_text" (PERF_RECORD_MMAP, pid -1, pgoff =
 * address of _text from /proc/kallsyms) and one map per module of
 * /proc/modules.
 *
 * Every record gets id_hdr_size zero bytes appended: the sample_id_all
 * trailer of the first event's sample_type, zero as perf writes it for
 * synthesized records.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

union perf_event;

/* Called with each record; the record is only valid during the call.
 * Return 0 to go on, non-zero (e.g. -errno) to stop the synthesis. */
typedef int (*synth_cb)(void *arg, const union perf_event *event);

/* Bytes of the sample_id_all trailer for sample_type (TID, TIME, ID,
 * STREAM_ID, CPU, IDENTIFIER). */
size_t synthesize__id_hdr_size(uint64_t sample_type);

/* Kernel map. Returns 0, -ENOENT when /proc/kallsyms has no _text/_stext
 * (or shows zero addresses: kptr_restrict), or the callback's value. */
int synthesize__kernel_mmap(synth_cb cb, void *arg, size_t id_hdr_size);
/* One PERF_RECORD_MMAP per loaded module ("[name]"), 0 when /proc/modules
 * is absent. */
/*
 * The kernel's PERF_RECORD_MMAP ("[kernel.kallsyms]_text" from text to
 * end, pgoff text) with bounds the caller knows (a live session takes
 * _text from the model's kallsyms reader and ends the map where the
 * modules begin, without reading /proc/kallsyms a second time).
 * Returns cb's result.
 */
int synthesize__kernel_mmap_range(synth_cb cb, void *arg, size_t id_hdr_size, uint64_t text,
				  uint64_t end);
/* The lowest module load address in /proc/modules (bytes), 0 when there
 * is none or the addresses are hidden. */
uint64_t synthesize__modules_start(void);
int synthesize__modules(synth_cb cb, void *arg, size_t id_hdr_size);
/* COMM of one task (comm as given, truncated to 15 chars). */
int synthesize__comm(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid, pid_t tid,
		     const char *comm);
/*
 * One process: COMM for each task of /proc/PID/task, FORK (ppid = ptid =
 * pid) for each task other than the leader, and MMAP2 of its executable
 * mappings. Returns 0 (also for a process that vanished meanwhile), or the
 * callback's value.
 */
int synthesize__process(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid);
/*
 * The time synthesize__process() may spend reading one /proc/PID/maps,
 * ms (record --proc-map-timeout, core.proc-map-timeout; perf's default
 * 500); past it, the maps read so far are written and a warning says so.
 * 0: no limit. Process-wide; set before synthesizing.
 */
void synthesize__set_proc_map_timeout(unsigned int ms);
/*
 * record --buildid-mmap: from now on the kernel map and the processes'
 * file maps are written as MMAP2 records with the file's build-id
 * (PERF_RECORD_MISC_MMAP_BUILD_ID, perf_event_open(2) "build_id") where
 * the file has one. Process-wide; set before synthesizing.
 */
void synthesize__set_build_id_mmap(bool on);
/* synthesize__process() for every process in /proc (-a). */
int synthesize__all_processes(synth_cb cb, void *arg, size_t id_hdr_size);
/*
 * The same with the processes of /proc split over nr_threads threads
 * (perf record's --num-thread-synthesize way); cb is then called from
 * several threads at once and must be thread-safe; the records of one
 * process come from one thread, in order. 0, -errno, or the first
 * callback value that stopped a thread.
 */
int synthesize__all_processes_threaded(synth_cb cb, void *arg, size_t id_hdr_size,
				       unsigned int nr_threads);
/*
 * PERF_RECORD_NAMESPACES of one task (record --namespaces): pid, tid and
 * the device and inode of each of its 7 namespaces (the files of
 * /proc/TID/ns/, in
 * the kernel's NET ... CGROUP index order; 0 for one it cannot stat).
 * 0 or the callback's value.
 */
int synthesize__namespaces(synth_cb cb, void *arg, size_t id_hdr_size, pid_t pid, pid_t tid);
/*
 * PERF_RECORD_CGROUP for every directory of the cgroup v2 hierarchy
 * (record --all-cgroups): its id (the 64-bit file handle, which the
 * kernel puts in PERF_SAMPLE_CGROUP) and its path below the mount ("/"
 * for the root). 0 (also without a cgroup2 mount) or the callback's value.
 */
int synthesize__cgroups(synth_cb cb, void *arg, size_t id_hdr_size);

#endif

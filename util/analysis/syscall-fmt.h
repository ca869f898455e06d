/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SYSCALL_FMT_H
#define PRF_ANALYSIS_SYSCALL_FMT_H
/*
 * Syscalls as `perf trace` prints them: names and numbers from libseccomp
 * (seccomp_syscall_resolve_num_arch(3)), argument names and types from the
 * syscalls:sys_enter_NAME tracepoint formats of the local tracefs
 * (Documentation/trace/events.rst), values decoded by type the way perf
 * 6.1's trace beautifiers print them: fds, *at dirfds (CWD), open/mmap/
 * access flags, protections, modes, signals, rlimit resources, pointers
 * (NULL or hex), file name pointers (the low 32 bits in hex, as perf prints
 * them without its vfs_getname probe), zero arguments left out.
 * Return values: errno names (`-1 ENOENT (No such file or directory)`,
 * glibc's strerrorname_np/strerror), hex for mmap/brk/mremap, the pid and
 * its comm for getpid/clone/wait4..., `0 (Timeout)` for poll/select.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct syscall_tbl;

/* Facts about one thread that decoding asks the consumer for. */
struct syscall_fmt_ctx {
	/* The path of fd of thread tid of process pid to print after it as
	 * "<path>", or NULL; NULL callback: none. */
	const char *(*fd_path)(void *arg, int pid, int tid, int fd);
	/* Comm of thread tid: 1 and *comm set (may be NULL: no comm known)
	 * when the thread is known, 0 when it is not. */
	int (*thread_comm)(void *arg, int tid, const char **comm);
	void *arg;
	int pid, tid;		/* the thread making the call */
	/* How the return value reads when an argument decides it (fcntl's
	 * cmd): set by syscall_tbl__format_call(), to be passed back to
	 * syscall_tbl__format_ret() for the same call (0: by syscall). */
	int ret_as;
};

/*
 * Table for the architecture named arch ("x86_64", as uname -m and the
 * perf.data HEADER_ARCH say; NULL: the native one). Returns NULL with
 * *err = -ENOMEM, or -EINVAL for an architecture libseccomp does not know.
 * Free with syscall_tbl__delete().
 */
struct syscall_tbl *syscall_tbl__new(const char *arch, int *err);
void syscall_tbl__delete(struct syscall_tbl *tbl);

/* Name of syscall nr (owned by tbl), NULL when the number is no syscall. */
const char *syscall_tbl__name(struct syscall_tbl *tbl, int nr);
/* Number of the syscall called name, -ENOENT when there is none. */
int syscall_tbl__nr(struct syscall_tbl *tbl, const char *name);
/* Whether syscall nr ends the task (exit, exit_group): no sys_exit follows. */
bool syscall_tbl__is_exit(struct syscall_tbl *tbl, int nr);

/*
 * "name(arg: value, ...": the call without its closing parenthesis, into
 * buf (size bytes, NUL-terminated, truncated). args are the six raw
 * argument registers of raw_syscalls:sys_enter. Returns the length
 * written (like snprintf, at most size - 1).
 */
size_t syscall_tbl__format_call(struct syscall_tbl *tbl, int nr, const uint64_t args[6],
				struct syscall_fmt_ctx *ctx, char *buf, size_t size);

/*
 * The return value as perf prints it after "= " (errno name and message
 * for negative values; hex, pid (comm), "0 (Timeout)" by syscall). May be
 * empty: perf prints nothing for a pid return of an unknown thread.
 * Returns the length written.
 */
size_t syscall_tbl__format_ret(struct syscall_tbl *tbl, int nr, int64_t ret,
			       const struct syscall_fmt_ctx *ctx, char *buf, size_t size);

/*
 * Name of errno value err ("ENOENT", glibc's strerrorname_np()), or
 * "(unknown)" when glibc has none.
 */
const char *syscall_errno_name(int err);

#endif

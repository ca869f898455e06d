// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall names (libseccomp), argument names (tracefs formats) and value
 * decoding in perf trace's notation. See syscall-fmt.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include "syscall-fmt.h"
#include "../format/trace-data.h"
#include "../lib/util.h"

/* How one argument's value is printed. */
enum arg_kind {
	K_LONG,		/* signed decimal */
	K_FD, K_FDAT, K_FILENAME, K_PTR, K_HEX, K_INT, K_PID, K_MODE,
	K_OPEN_FLAGS, K_MMAP_PROT, K_MMAP_FLAGS, K_MREMAP_FLAGS, K_MADV,
	K_ACCMODE, K_SIGNUM, K_PIPE_FLAGS, K_GETRANDOM_FLAGS, K_ARCH_PRCTL,
	K_FUTEX_OP, K_FUTEX_VAL3, K_CLONE_FLAGS, K_FCNTL_ARG, K_SOCK_TYPE, K_WAIT_OPTIONS, K_IOCTL_CMD,
	K_EMPTY,	/* perf 6.1 prints nothing after the name (statx flags, mask) */
	K_FLOCK, K_MSG_FLAGS, K_PRCTL_OPTION, K_PRCTL_ARG2,
	/* named values, shown even when zero */
	K_RLIMIT, K_ITIMER, K_SIGHOW, K_WHENCE, K_CLOCKID, K_EPOLL_OP, K_FCNTL_CMD,
	K_SOCK_FAMILY, K_SOCK_LEVEL,
};

static bool kind_shows_zero(uint8_t k)
{
	return k >= K_RLIMIT;
}

enum ret_kind { R_NONE, R_LONG, R_HEX, R_PID, R_TIMEOUT, R_FD, R_OPEN_FLAGS, R_GETFD };

/*
 * Syscalls whose arguments or return perf decodes beyond what the
 * tracepoint types say: per argument index, the kind (0: by type).
 */
struct sc_override {
	const char *name;
	const char *alias;	/* tracepoint name when it differs */
	uint8_t ret;
	uint8_t arg[6];
};

static const struct sc_override overrides[] = {
	{ "access", NULL, R_LONG, { [1] = K_ACCMODE } },
	{ "accept", NULL, R_LONG, { [0] = K_INT } },
	{ "arch_prctl", NULL, R_LONG, { [0] = K_ARCH_PRCTL, [1] = K_PTR } },
	{ "bind", NULL, R_LONG, { [0] = K_INT, [1] = K_HEX, [2] = K_INT } },
	{ "brk", NULL, R_HEX, { [0] = K_PTR } },
	{ "clock_gettime", NULL, R_LONG, { [0] = K_CLOCKID } },
	{ "clone", NULL, R_PID, { [0] = K_CLONE_FLAGS, [1] = K_HEX, [2] = K_HEX, [3] = K_HEX, [4] = K_HEX } },
	{ "close", NULL, R_LONG, { [0] = K_FD } },
	{ "connect", NULL, R_LONG, { [0] = K_INT, [1] = K_HEX, [2] = K_INT } },
	{ "epoll_ctl", NULL, R_LONG, { [1] = K_EPOLL_OP } },
	{ "fchmodat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "fchownat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "flock", NULL, R_LONG, { [1] = K_FLOCK } },
	{ "fcntl", NULL, R_LONG, { [1] = K_FCNTL_CMD, [2] = K_FCNTL_ARG } },
	{ "fstat", "newfstat", R_LONG, { 0 } },
	{ "futex", NULL, R_LONG, { [1] = K_FUTEX_OP, [5] = K_FUTEX_VAL3 } },
	{ "futimesat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "getitimer", NULL, R_LONG, { [0] = K_ITIMER } },
	{ "getpgid", NULL, R_PID, { 0 } },
	{ "getppid", NULL, R_PID, { 0 } },
	{ "getrandom", NULL, R_LONG, { [2] = K_GETRANDOM_FLAGS } },
	{ "getsockopt", NULL, R_LONG, { [1] = K_SOCK_LEVEL } },
	{ "getrlimit", NULL, R_LONG, { [0] = K_RLIMIT } },
	{ "gettid", NULL, R_PID, { 0 } },
	{ "ioctl", NULL, R_LONG, { [1] = K_IOCTL_CMD, [2] = K_HEX } },
	{ "kill", NULL, R_LONG, { [1] = K_SIGNUM } },
	{ "linkat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "lseek", NULL, R_LONG, { [2] = K_WHENCE } },
	{ "lstat", "newlstat", R_LONG, { 0 } },
	{ "madvise", NULL, R_LONG, { [0] = K_HEX, [2] = K_MADV } },
	{ "mkdirat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "mknodat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "mmap", NULL, R_HEX, { [2] = K_MMAP_PROT, [3] = K_MMAP_FLAGS, [5] = K_HEX } },
	{ "mprotect", NULL, R_LONG, { [0] = K_HEX, [2] = K_MMAP_PROT } },
	{ "mremap", NULL, R_HEX, { [3] = K_MREMAP_FLAGS } },
	{ "name_to_handle_at", NULL, R_LONG, { [0] = K_FDAT } },
	{ "newfstatat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "open", NULL, R_LONG, { [1] = K_OPEN_FLAGS } },
	{ "open_by_handle_at", NULL, R_LONG, { [0] = K_FDAT, [2] = K_OPEN_FLAGS } },
	{ "openat", NULL, R_LONG, { [0] = K_FDAT, [2] = K_OPEN_FLAGS } },
	{ "pipe2", NULL, R_LONG, { [1] = K_PIPE_FLAGS } },
	{ "pkey_mprotect", NULL, R_LONG, { [0] = K_HEX, [2] = K_MMAP_PROT, [3] = K_INT } },
	{ "poll", NULL, R_TIMEOUT, { 0 } },
	{ "ppoll", NULL, R_TIMEOUT, { 0 } },
	{ "pread", "pread64", R_LONG, { 0 } },
	{ "prctl", NULL, R_LONG, { [0] = K_PRCTL_OPTION, [1] = K_PRCTL_ARG2 } },
	{ "prlimit64", NULL, R_LONG, { [1] = K_RLIMIT } },
	{ "pwrite", "pwrite64", R_LONG, { 0 } },
	{ "readlinkat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "recvfrom", NULL, R_LONG, { [3] = K_MSG_FLAGS } },
	{ "recvmmsg", NULL, R_LONG, { [3] = K_MSG_FLAGS } },
	{ "recvmsg", NULL, R_LONG, { [2] = K_MSG_FLAGS } },
	{ "renameat", NULL, R_LONG, { [0] = K_FDAT, [2] = K_FDAT } },
	{ "renameat2", NULL, R_LONG, { [0] = K_FDAT, [2] = K_FDAT } },
	{ "rt_sigaction", NULL, R_LONG, { [0] = K_SIGNUM } },
	{ "rt_sigprocmask", NULL, R_LONG, { [0] = K_SIGHOW } },
	{ "rt_sigqueueinfo", NULL, R_LONG, { [1] = K_SIGNUM } },
	{ "rt_tgsigqueueinfo", NULL, R_LONG, { [2] = K_SIGNUM } },
	{ "select", NULL, R_TIMEOUT, { 0 } },
	{ "sendfile", "sendfile64", R_LONG, { 0 } },
	{ "sendmmsg", NULL, R_LONG, { [3] = K_MSG_FLAGS } },
	{ "sendmsg", NULL, R_LONG, { [2] = K_MSG_FLAGS } },
	{ "sendto", NULL, R_LONG, { [3] = K_MSG_FLAGS } },
	{ "set_tid_address", NULL, R_PID, { 0 } },
	{ "setitimer", NULL, R_LONG, { [0] = K_ITIMER } },
	{ "setsockopt", NULL, R_LONG, { [1] = K_SOCK_LEVEL } },
	{ "setrlimit", NULL, R_LONG, { [0] = K_RLIMIT } },
	{ "socket", NULL, R_LONG, { [0] = K_SOCK_FAMILY, [1] = K_SOCK_TYPE } },
	{ "socketpair", NULL, R_LONG, { [0] = K_SOCK_FAMILY, [1] = K_SOCK_TYPE } },
	{ "stat", "newstat", R_LONG, { 0 } },
	{ "statx", NULL, R_LONG, { [0] = K_FDAT, [2] = K_EMPTY, [3] = K_EMPTY } },
	{ "symlinkat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "tgkill", NULL, R_LONG, { [2] = K_SIGNUM } },
	{ "tkill", NULL, R_LONG, { [1] = K_SIGNUM } },
	{ "umount2", "umount", R_LONG, { 0 } },
	{ "uname", "newuname", R_LONG, { 0 } },
	{ "unlinkat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "utimensat", NULL, R_LONG, { [0] = K_FDAT } },
	{ "wait4", NULL, R_PID, { [2] = K_WAIT_OPTIONS } },
	{ "waitid", NULL, R_PID, { [3] = K_WAIT_OPTIONS } },
};

/* Looked up once per syscall number (sc_info caches it). */
static const struct sc_override *override_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(overrides); i++)
		if (!strcmp(overrides[i].name, name))
			return &overrides[i];
	return NULL;
}

struct sc_arg {
	char name[40];
	uint8_t kind;
};

struct sc_info {
	char *name;		/* NULL: not looked up yet or no syscall */
	bool looked_up, nonexistent, have_format, is_exit;
	uint8_t ret;		/* enum ret_kind; R_NONE: perf has no entry */
	int nr_args;
	struct sc_arg args[6];
};

struct syscall_tbl {
	uint32_t arch;
	struct sc_info *info;
	int nr_info;
	struct tep_handle *tep;	/* local tracefs formats, read on demand */
};

struct syscall_tbl *syscall_tbl__new(const char *arch, int *err)
{
	struct syscall_tbl *tbl;
	uint32_t token = arch && *arch ? seccomp_arch_resolve_name(arch) : seccomp_arch_native();

	if (!token) {
		if (err)
			*err = -EINVAL;
		return NULL;
	}
	tbl = zalloc(sizeof(*tbl));
	if (tbl)
		tbl->tep = tep_alloc();
	if (!tbl || !tbl->tep) {
		free(tbl);
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	tbl->arch = token;
	return tbl;
}

void syscall_tbl__delete(struct syscall_tbl *tbl)
{
	if (!tbl)
		return;
	for (int i = 0; i < tbl->nr_info; i++)
		free(tbl->info[i].name);
	free(tbl->info);
	tep_free(tbl->tep);
	free(tbl);
}

/* Argument kind from the tracepoint field's type and name, as perf picks
 * its beautifier for arguments it has no entry for. */
static uint8_t kind_from_field(const struct tep_format_field *f)
{
	size_t len = strlen(f->name);

	if (!strcmp(f->type, "const char *") &&
	    ((len >= 4 && !strcmp(f->name + len - 4, "name")) || strstr(f->name, "path")))
		return K_FILENAME;
	if ((f->flags & TEP_FIELD_IS_POINTER) || strstr(f->name, "addr"))
		return K_PTR;
	if (!strcmp(f->type, "pid_t"))
		return K_PID;
	if (!strcmp(f->type, "umode_t"))
		return K_MODE;
	if ((!strcmp(f->type, "int") || !strcmp(f->type, "unsigned int") || !strcmp(f->type, "long")) &&
	    len >= 2 && !strcmp(f->name + len - 2, "fd"))
		return K_FD;
	return K_LONG;
}

static struct tep_event *sc_tracepoint(struct syscall_tbl *tbl, const char *name)
{
	char tp[160];
	struct tep_event *ev;

	snprintf(tp, sizeof(tp), "sys_enter_%s", name);
	ev = tep_find_event_by_name(tbl->tep, "syscalls", tp);
	if (!ev && !trace_data__add_local_event(tbl->tep, "syscalls", tp))
		ev = tep_find_event_by_name(tbl->tep, "syscalls", tp);
	return ev;
}

static void sc_read_format(struct syscall_tbl *tbl, struct sc_info *sc)
{
	const struct sc_override *ov = override_find(sc->name);
	struct tep_event *ev = sc_tracepoint(tbl, sc->name);
	struct tep_format_field *f;
	int i = 0;

	if (!ev && ov && ov->alias)
		ev = sc_tracepoint(tbl, ov->alias);
	sc->ret = ov ? ov->ret : R_NONE;
	sc->is_exit = !strcmp(sc->name, "exit") || !strcmp(sc->name, "exit_group");
	if (!ev)
		return;
	sc->have_format = true;
	f = ev->format.fields;
	if (f && (!strcmp(f->name, "__syscall_nr") || !strcmp(f->name, "nr")))
		f = f->next;
	for (; f && i < 6; f = f->next, i++) {
		snprintf(sc->args[i].name, sizeof(sc->args[i].name), "%s", f->name);
		sc->args[i].kind = ov && ov->arg[i] ? ov->arg[i] : kind_from_field(f);
	}
	sc->nr_args = i;
}

static struct sc_info *sc_info(struct syscall_tbl *tbl, int nr)
{
	struct sc_info *sc;

	if (nr < 0 || nr > 65535)
		return NULL;
	if (nr >= tbl->nr_info) {
		int n = nr + 64;
		struct sc_info *ni = realloc(tbl->info, n * sizeof(*ni));

		if (!ni)
			return NULL;
		memset(ni + tbl->nr_info, 0, (n - tbl->nr_info) * sizeof(*ni));
		tbl->info = ni;
		tbl->nr_info = n;
	}
	sc = &tbl->info[nr];
	if (!sc->looked_up) {
		sc->looked_up = true;
		sc->name = seccomp_syscall_resolve_num_arch(tbl->arch, nr);
		if (!sc->name)
			sc->nonexistent = true;
		else
			sc_read_format(tbl, sc);
	}
	return sc->nonexistent ? NULL : sc;
}

const char *syscall_tbl__name(struct syscall_tbl *tbl, int nr)
{
	struct sc_info *sc = sc_info(tbl, nr);

	return sc ? sc->name : NULL;
}

int syscall_tbl__nr(struct syscall_tbl *tbl, const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(tbl->arch, name);

	return nr < 0 ? -ENOENT : nr;
}

bool syscall_tbl__is_exit(struct syscall_tbl *tbl, int nr)
{
	struct sc_info *sc = sc_info(tbl, nr);

	return sc && sc->is_exit;
}

/* ---- value decoders ---- */

struct out {
	char *buf;
	size_t size, len;
};

static void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len + 1 >= o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len = o->len + n < o->size ? o->len + n : o->size - 1;
}

struct flag_name {
	unsigned long bit;
	const char *name;
};

/* Names of the set bits in table order joined by '|', the rest in hex. */
static void out_flags(struct out *o, unsigned long val, const struct flag_name *t, size_t n,
		      bool started)
{
	for (size_t i = 0; i < n; i++) {
		if ((val & t[i].bit) == t[i].bit && t[i].bit) {
			out_printf(o, "%s%s", started ? "|" : "", t[i].name);
			val &= ~t[i].bit;
			started = true;
		}
	}
	if (val)
		out_printf(o, "%s%#lx", started ? "|" : "", val);
}

static const struct flag_name open_flags[] = {
	{ O_RDWR, "RDWR" }, { O_APPEND, "APPEND" }, { O_ASYNC, "ASYNC" },
	{ O_CLOEXEC, "CLOEXEC" }, { O_CREAT, "CREAT" }, { 040000, "DIRECT" },
	{ 0200000, "DIRECTORY" }, { O_EXCL, "EXCL" }, { 0100000, "LARGEFILE" },
	{ O_NOFOLLOW, "NOFOLLOW" }, { 020000000 | 0200000, "TMPFILE" },
	{ 01000000, "NOATIME" }, { O_NOCTTY, "NOCTTY" }, { O_NONBLOCK, "NONBLOCK" },
	{ 010000000, "PATH" },
};

static void out_open_flags(struct out *o, unsigned long flags)
{
	bool started = false;

	if ((flags & O_ACCMODE) == O_RDONLY) {
		out_printf(o, "RDONLY");
		started = true;
	}
	if (!flags)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(open_flags); i++) {
		if (flags & open_flags[i].bit) {
			out_printf(o, "%s%s", started ? "|" : "", open_flags[i].name);
			flags &= ~open_flags[i].bit;
			started = true;
		}
	}
	if ((flags & O_SYNC) == O_SYNC) {
		/* perf leaves the bits set: they follow in hex */
		out_printf(o, "%sSYNC", started ? "|" : "");
		started = true;
	} else if (flags & O_DSYNC) {
		out_printf(o, "%sDSYNC", started ? "|" : "");
		started = true;
		flags &= ~(unsigned long)O_DSYNC;
	}
	if (flags & O_TRUNC) {
		out_printf(o, "%sTRUNC", started ? "|" : "");
		started = true;
		flags &= ~(unsigned long)O_TRUNC;
	}
	if (flags & O_WRONLY) {
		out_printf(o, "%sWRONLY", started ? "|" : "");
		started = true;
		flags &= ~(unsigned long)O_WRONLY;
	}
	if (flags)
		out_printf(o, "%s%#lx", started ? "|" : "", flags);
}

/* perf 6.1 prints these from tables generated off the uapi headers:
 * one name per bit, in bit order */
static const struct flag_name mmap_prot[] = {
	{ PROT_READ, "READ" }, { PROT_WRITE, "WRITE" }, { PROT_EXEC, "EXEC" }, { 0x8, "SEM" },
	{ 0x01000000, "GROWSDOWN" }, { 0x02000000, "GROWSUP" },
};

static const struct flag_name mmap_flags[] = {
	{ 0x01, "SHARED" }, { 0x02, "PRIVATE" }, { 0x10, "FIXED" }, { 0x20, "ANONYMOUS" },
	{ 0x40, "32BIT" }, { 0x0100, "GROWSDOWN" }, { 0x0800, "DENYWRITE" },
	{ 0x1000, "EXECUTABLE" }, { 0x2000, "LOCKED" }, { 0x4000, "NORESERVE" },
	{ 0x8000, "POPULATE" }, { 0x10000, "NONBLOCK" }, { 0x20000, "STACK" },
	{ 0x40000, "HUGETLB" }, { 0x80000, "SYNC" }, { 0x100000, "FIXED_NOREPLACE" },
	{ 0x4000000, "UNINITIALIZED" },
};

static const struct flag_name clone_flags[] = {
	{ 0x100, "VM" }, { 0x200, "FS" }, { 0x400, "FILES" }, { 0x800, "SIGHAND" },
	{ 0x1000, "PIDFD" }, { 0x2000, "PTRACE" }, { 0x4000, "VFORK" }, { 0x8000, "PARENT" },
	{ 0x10000, "THREAD" }, { 0x20000, "NEWNS" }, { 0x40000, "SYSVSEM" },
	{ 0x80000, "SETTLS" }, { 0x100000, "PARENT_SETTID" }, { 0x200000, "CHILD_CLEARTID" },
	{ 0x400000, "DETACHED" }, { 0x800000, "UNTRACED" }, { 0x1000000, "CHILD_SETTID" },
	{ 0x2000000, "NEWCGROUP" }, { 0x4000000, "NEWUTS" }, { 0x8000000, "NEWIPC" },
	{ 0x10000000, "NEWUSER" }, { 0x20000000, "NEWPID" }, { 0x40000000, "NEWNET" },
	{ 0x80000000UL, "IO" },
};

static const struct flag_name flock_ops[] = {
	{ 1, "SH" }, { 2, "EX" }, { 4, "NB" }, { 8, "UN" }, { 32, "MAND" }, { 192, "RW" },
	{ 64, "READ" }, { 128, "WRITE" },
};

static const struct flag_name msg_flags[] = {
	{ 0x1, "OOB" }, { 0x2, "PEEK" }, { 0x4, "DONTROUTE" }, { 0x8, "CTRUNC" },
	{ 0x10, "PROBE" }, { 0x20, "TRUNC" }, { 0x40, "DONTWAIT" }, { 0x80, "EOR" },
	{ 0x100, "WAITALL" }, { 0x200, "FIN" }, { 0x400, "SYN" }, { 0x800, "CONFIRM" },
	{ 0x1000, "RST" }, { 0x2000, "ERRQUEUE" }, { 0x4000, "NOSIGNAL" }, { 0x8000, "MORE" },
	{ 0x10000, "WAITFORONE" }, { 0x20000, "SENDPAGE_NOTLAST" }, { 0x20000000, "FASTOPEN" },
	{ 0x40000000, "CMSG_CLOEXEC" },
};

/* prctl(2) options (linux/prctl.h), by value. */
static const char *const prctl_options[] = {
	NULL, "SET_PDEATHSIG", "GET_PDEATHSIG", "GET_DUMPABLE", "SET_DUMPABLE", "GET_UNALIGN",
	"SET_UNALIGN", "GET_KEEPCAPS", "SET_KEEPCAPS", "GET_FPEMU", "SET_FPEMU", "GET_FPEXC",
	"SET_FPEXC", "GET_TIMING", "SET_TIMING", "SET_NAME", "GET_NAME", NULL, NULL,
	"GET_ENDIAN", "SET_ENDIAN", "GET_SECCOMP", "SET_SECCOMP", "CAPBSET_READ",
	"CAPBSET_DROP", "GET_TSC", "SET_TSC", "GET_SECUREBITS", "SET_SECUREBITS",
	"SET_TIMERSLACK", "GET_TIMERSLACK", "TASK_PERF_EVENTS_DISABLE",
	"TASK_PERF_EVENTS_ENABLE", "MCE_KILL", "MCE_KILL_GET", "SET_MM",
	"SET_CHILD_SUBREAPER", "GET_CHILD_SUBREAPER", "SET_NO_NEW_PRIVS", "GET_NO_NEW_PRIVS",
	"GET_TID_ADDRESS", "SET_THP_DISABLE", "GET_THP_DISABLE", "MPX_ENABLE_MANAGEMENT",
	"MPX_DISABLE_MANAGEMENT", "SET_FP_MODE", "GET_FP_MODE", "CAP_AMBIENT", NULL, NULL,
	"SVE_SET_VL", "SVE_GET_VL", "GET_SPECULATION_CTRL", "SET_SPECULATION_CTRL",
	"PAC_RESET_KEYS", "SET_TAGGED_ADDR_CTRL", "GET_TAGGED_ADDR_CTRL", "SET_IO_FLUSHER",
	"GET_IO_FLUSHER", "SET_SYSCALL_USER_DISPATCH", "PAC_SET_ENABLED_KEYS",
	"PAC_GET_ENABLED_KEYS", "SCHED_CORE",
};

/* The arguments a prctl option does not use (perf hides them). */
static unsigned int prctl_mask(unsigned long option)
{
	enum { A2 = 1 << 1, A3 = 1 << 2, A4 = 1 << 3, A5 = 1 << 4, A6 = 1 << 5 };
	const unsigned int all_but2 = A3 | A4 | A5 | A6, all = A2 | all_but2;

	switch (option) {
	case 3:  /* GET_DUMPABLE */
	case 27: /* GET_SECUREBITS */
	case 2:  /* GET_PDEATHSIG */
		return all;
	case 4:  /* SET_DUMPABLE */
	case 15: /* SET_NAME */
	case 37: /* GET_CHILD_SUBREAPER */
	case 36: /* SET_CHILD_SUBREAPER */
	case 28: /* SET_SECUREBITS */
	case 1:  /* SET_PDEATHSIG */
		return all_but2;
	case 35: /* SET_MM */
		return A4 | A5 | A6;
	default:
		return 0;
	}
}

/* setsockopt/getsockopt levels (linux/socket.h SOL_*). */
static const char *sock_level_name(int level)
{
	static const struct { int v; const char *n; } t[] = {
		{ 0, "IP" }, { 6, "TCP" }, { 17, "UDP" }, { 41, "IPV6" }, { 58, "ICMPV6" },
		{ 132, "SCTP" }, { 136, "UDPLITE" }, { 255, "RAW" }, { 256, "IPX" },
		{ 257, "AX25" }, { 258, "ATALK" }, { 259, "NETROM" }, { 260, "ROSE" },
		{ 261, "DECNET" }, { 262, "X25" }, { 263, "PACKET" }, { 264, "ATM" },
		{ 265, "AAL" }, { 266, "IRDA" }, { 267, "NETBEUI" }, { 268, "LLC" },
		{ 269, "DCCP" }, { 270, "NETLINK" }, { 271, "TIPC" }, { 272, "RXRPC" },
		{ 273, "PPPOL2TP" }, { 274, "BLUETOOTH" }, { 275, "PNPIPE" }, { 276, "RDS" },
		{ 277, "IUCV" }, { 278, "CAIF" }, { 279, "ALG" }, { 280, "NFC" }, { 281, "KCM" },
		{ 282, "TLS" }, { 283, "XDP" }, { 284, "MPTCP" }, { 285, "MCTP" }, { 286, "SMC" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (t[i].v == level)
			return t[i].n;
	return NULL;
}

static const struct flag_name wait_options[] = {
	{ 1, "NOHANG" }, { 2, "UNTRACED" }, { 8, "CONTINUED" },
};

/* The tty ioctls (asm-generic/ioctls.h), 0x5401 on. */
static const char *tty_ioctl_name(unsigned int cmd)
{
	static const char *const names[] = {
		"TCGETS", "TCSETS", "TCSETSW", "TCSETSF", "TCGETA", "TCSETA", "TCSETAW",
		"TCSETAF", "TCSBRK", "TCXONC", "TCFLSH", "TIOCEXCL", "TIOCNXCL", "TIOCSCTTY",
		"TIOCGPGRP", "TIOCSPGRP", "TIOCOUTQ", "TIOCSTI", "TIOCGWINSZ", "TIOCSWINSZ",
		"TIOCMGET", "TIOCMBIS", "TIOCMBIC", "TIOCMSET", "TIOCGSOFTCAR", "TIOCSSOFTCAR",
		"FIONREAD", "TIOCLINUX", "TIOCCONS", "TIOCGSERIAL", "TIOCSSERIAL", "TIOCPKT",
		"FIONBIO", "TIOCNOTTY", "TIOCSETD", "TIOCGETD", "TCSBRKP", NULL, "TIOCSBRK",
		"TIOCCBRK", "TIOCGSID",
	};
	static const char *const names2[] = {
		"FIONCLEX", "FIOCLEX", "FIOASYNC", "TIOCSERCONFIG", "TIOCSERGWILD",
		"TIOCSERSWILD", "TIOCGLCKTRMIOS", "TIOCSLCKTRMIOS", "TIOCSERGSTRUCT",
		"TIOCSERGETLSR", "TIOCSERGETMULTI", "TIOCSERSETMULTI", "TIOCMIWAIT",
		"TIOCGICOUNT", NULL, NULL, "FIOQSIZE",
	};

	if (cmd >= 0x5401 && cmd < 0x5401 + ARRAY_SIZE(names))
		return names[cmd - 0x5401];
	if (cmd >= 0x5450 && cmd < 0x5450 + ARRAY_SIZE(names2))
		return names2[cmd - 0x5450];
	return NULL;
}

static const struct flag_name mremap_flags[] = { { 1, "MAYMOVE" }, { 2, "FIXED" } };
static const struct flag_name pipe_flags[] = { { O_CLOEXEC, "CLOEXEC" }, { O_NONBLOCK, "NONBLOCK" } };
static const struct flag_name getrandom_flags[] = { { 2, "RANDOM" }, { 1, "NONBLOCK" } };

static const struct flag_name mode_bits[] = {
	{ 07777, "IALLUGO" }, { 0777, "IRWXUGO" }, { 0444, "IRUGO" }, { 0222, "IWUGO" },
	{ 0111, "IXUGO" }, { S_IFMT, "IFMT" }, { S_IFSOCK, "IFSOCK" }, { S_IFLNK, "IFLNK" },
	{ S_IFREG, "IFREG" }, { S_IFBLK, "IFBLK" }, { S_IFDIR, "IFDIR" }, { S_IFCHR, "IFCHR" },
	{ S_IFIFO, "IFIFO" }, { S_ISUID, "ISUID" }, { S_ISGID, "ISGID" }, { S_ISVTX, "ISVTX" },
	{ S_IRWXU, "IRWXU" }, { S_IRUSR, "IRUSR" }, { S_IWUSR, "IWUSR" }, { S_IXUSR, "IXUSR" },
	{ S_IRWXG, "IRWXG" }, { S_IRGRP, "IRGRP" }, { S_IWGRP, "IWGRP" }, { S_IXGRP, "IXGRP" },
	{ S_IRWXO, "IRWXO" }, { S_IROTH, "IROTH" }, { S_IWOTH, "IWOTH" }, { S_IXOTH, "IXOTH" },
};

/* A value with a name per index, from offset on; others as intfmt. */
struct name_array {
	int offset;
	int n;
	const char *const *names;
};

static const char *const rlimits[] = {
	"CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC", "NOFILE", "MEMLOCK", "AS",
	"LOCKS", "SIGPENDING", "MSGQUEUE", "NICE", "RTPRIO", "RTTIME",
};
static const char *const itimers[] = { "REAL", "VIRTUAL", "PROF" };
static const char *const sighows[] = { "BLOCK", "UNBLOCK", "SETMASK" };
static const char *const whences[] = { "SET", "CUR", "END", "DATA", "HOLE" };
static const char *const clockids[] = {
	"REALTIME", "MONOTONIC", "PROCESS_CPUTIME_ID", "THREAD_CPUTIME_ID", "MONOTONIC_RAW",
	"REALTIME_COARSE", "MONOTONIC_COARSE", "BOOTTIME", "REALTIME_ALARM", "BOOTTIME_ALARM",
	"SGI_CYCLE", "TAI",
};
static const char *const epoll_ops[] = { "ADD", "DEL", "MOD" };
static const char *const fcntl_cmds[] = {
	"DUPFD", "GETFD", "SETFD", "GETFL", "SETFL", "GETLK", "SETLK", "SETLKW", "SETOWN",
	"GETOWN", "SETSIG", "GETSIG", "GETLK64", "SETLK64", "SETLKW64", "SETOWN_EX",
	"GETOWN_EX", "GETOWNER_UIDS",
};
static const char *const fcntl_linux_cmds[] = {
	"SETLEASE", "GETLEASE", "NOTIFY", NULL, NULL, "CANCELLK", "DUPFD_CLOEXEC",
	"SETPIPE_SZ", "GETPIPE_SZ", "ADD_SEALS", "GET_SEALS", "GET_RW_HINT", "SET_RW_HINT",
	"GET_FILE_RW_HINT", "SET_FILE_RW_HINT",
};
static const char *const sock_families[] = {
	"UNSPEC", "LOCAL", "INET", "AX25", "IPX", "APPLETALK", "NETROM", "BRIDGE", "ATMPVC",
	"X25", "INET6", "ROSE", "DECnet", "NETBEUI", "SECURITY", "KEY", "NETLINK", "PACKET",
	"ASH", "ECONET", "ATMSVC", "RDS", "SNA", "IRDA", "PPPOX", "WANPIPE", "LLC", "IB",
	"MPLS", "CAN", "TIPC", "BLUETOOTH", "IUCV", "RXRPC", "ISDN", "PHONET", "IEEE802154",
	"CAIF", "ALG", "NFC", "VSOCK", "KCM", "QIPCRTR", "SMC", "XDP", "MCTP",
};

static bool out_named(struct out *o, int val, int offset, const char *const *names, int n)
{
	int i = val - offset;

	if (i < 0 || i >= n || !names[i])
		return false;
	out_printf(o, "%s", names[i]);
	return true;
}

#define OUT_NAMED(o, v, off, arr) out_named(o, v, off, arr, (int)ARRAY_SIZE(arr))

static const char *signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "HUP", [SIGINT] = "INT", [SIGQUIT] = "QUIT", [SIGILL] = "ILL",
		[SIGTRAP] = "TRAP", [SIGABRT] = "ABRT", [SIGBUS] = "BUS", [SIGFPE] = "FPE",
		[SIGKILL] = "KILL", [SIGUSR1] = "USR1", [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
		[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM", [SIGCHLD] = "CHLD",
		[SIGCONT] = "CONT", [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP", [SIGTTIN] = "TTIN",
		[SIGTTOU] = "TTOU", [SIGURG] = "URG", [SIGXCPU] = "XCPU", [SIGXFSZ] = "XFSZ",
		[SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH", [SIGIO] = "IO",
		[SIGPWR] = "PWR", [SIGSYS] = "SYS", [SIGSTKFLT] = "STKFLT",
	};

	return sig > 0 && sig < (int)ARRAY_SIZE(names) ? names[sig] : NULL;
}

static const char *madvise_name(int b)
{
	static const char *const names[] = {
		"NORMAL", "RANDOM", "SEQUENTIAL", "WILLNEED", "DONTNEED", NULL, NULL, NULL,
		"FREE", "REMOVE", "DONTFORK", "DOFORK", "MERGEABLE", "UNMERGEABLE", "HUGEPAGE",
		"NOHUGEPAGE", "DONTDUMP", "DODUMP", "WIPEONFORK", "KEEPONFORK", "COLD", "PAGEOUT",
		"POPULATE_READ", "POPULATE_WRITE", "DONTNEED_LOCKED", "COLLAPSE",
	};

	if (b == 100)
		return "HWPOISON";
	if (b == 101)
		return "SOFT_OFFLINE";
	return b >= 0 && b < (int)ARRAY_SIZE(names) ? names[b] : NULL;
}

static const char *arch_prctl_name(unsigned long code)
{
	static const struct { unsigned long v; const char *n; } t[] = {
		{ 0x1001, "SET_GS" }, { 0x1002, "SET_FS" }, { 0x1003, "GET_FS" },
		{ 0x1004, "GET_GS" }, { 0x1011, "GET_CPUID" }, { 0x1012, "SET_CPUID" },
		{ 0x1021, "GET_XCOMP_SUPP" }, { 0x1022, "GET_XCOMP_PERM" },
		{ 0x1023, "REQ_XCOMP_PERM" }, { 0x1024, "GET_XCOMP_GUEST_PERM" },
		{ 0x1025, "REQ_XCOMP_GUEST_PERM" }, { 0x2001, "MAP_VDSO_X32" },
		{ 0x2002, "MAP_VDSO_32" }, { 0x2003, "MAP_VDSO_64" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (t[i].v == code)
			return t[i].n;
	return NULL;
}

/* futex(2) argument bits a command does not use (perf hides them). */
enum { FU_VAL = 1 << 2, FU_TIMEOUT = 1 << 3, FU_UADDR2 = 1 << 4, FU_VAL3 = 1 << 5 };

static void out_futex_op(struct out *o, unsigned long op, unsigned int *mask)
{
	static const struct { const char *n; unsigned int mask; } cmds[] = {
		[0] = { "WAIT", FU_VAL3 | FU_UADDR2 },
		[1] = { "WAKE", FU_VAL3 | FU_UADDR2 | FU_TIMEOUT },
		[2] = { "FD", FU_VAL3 | FU_UADDR2 | FU_TIMEOUT },
		[3] = { "REQUEUE", FU_VAL3 | FU_TIMEOUT },
		[4] = { "CMP_REQUEUE", FU_TIMEOUT },
		[5] = { "WAKE_OP", 0 },
		[6] = { "LOCK_PI", FU_VAL3 | FU_UADDR2 | FU_TIMEOUT },
		[7] = { "UNLOCK_PI", FU_VAL3 | FU_UADDR2 | FU_TIMEOUT },
		[8] = { "TRYLOCK_PI", FU_VAL3 | FU_UADDR2 },
		[9] = { "WAIT_BITSET", FU_UADDR2 },
		[10] = { "WAKE_BITSET", FU_UADDR2 },
		[11] = { "WAIT_REQUEUE_PI", 0 },
		[12] = { "CMP_REQUEUE_PI", FU_TIMEOUT },
	};
	unsigned int cmd = op & 0x7f;

	if (cmd < ARRAY_SIZE(cmds) && cmds[cmd].n) {
		out_printf(o, "%s", cmds[cmd].n);
		*mask |= cmds[cmd].mask;
	} else {
		out_printf(o, "%#x", cmd);
	}
	if (op & 128)
		out_printf(o, "|PRIVATE_FLAG");
	if (op & 256)
		out_printf(o, "|CLOCK_REALTIME");
}

static void out_fd(struct out *o, int fd, const struct syscall_fmt_ctx *ctx)
{
	const char *path = NULL;

	out_printf(o, "%d", fd);
	if (fd >= 0 && ctx && ctx->fd_path)
		path = ctx->fd_path(ctx->arg, ctx->pid, ctx->tid, fd);
	if (path)
		out_printf(o, "<%s>", path);
}

static void out_pid(struct out *o, int pid, const struct syscall_fmt_ctx *ctx)
{
	const char *comm = NULL;

	out_printf(o, "%d", pid);
	if (ctx && ctx->thread_comm && ctx->thread_comm(ctx->arg, pid, &comm) > 0 && comm)
		out_printf(o, " (%s)", comm);
}

/* What fcntl's cmd says of its argument (not printed when unused) and
 * of the return value (an fd, file status flags, fd flags). */
static void fcntl_cmd_effects(int cmd, unsigned int idx, unsigned int *mask,
			      struct syscall_fmt_ctx *ctx)
{
	int ret_as = 0;

	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		ret_as = R_FD;
		break;
	case F_GETFL:
		ret_as = R_OPEN_FLAGS;
		*mask |= 1u << (idx + 1);
		break;
	case F_GETFD:
		ret_as = R_GETFD;
		*mask |= 1u << (idx + 1);
		break;
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
	case F_GET_SEALS:
		*mask |= 1u << (idx + 1);
		break;
	default:
		break;
	}
	if (ctx)
		ctx->ret_as = ret_as;
}

/* prefix + name when there is one, else the value in hex. */
static void out_name_or_hex(struct out *o, const char *prefix, const char *name, unsigned long val)
{
	if (name)
		out_printf(o, "%s%s", prefix, name);
	else
		out_printf(o, "%#lx", val);
}

/* One argument's value; *mask gets the bits of later arguments to skip. */
static void out_arg(struct out *o, uint8_t kind, unsigned long val, unsigned int idx,
		    unsigned int *mask, struct syscall_fmt_ctx *ctx, const uint64_t *args)
{
	int ival = (int)val;

	switch (kind) {
	case K_FD:
		out_fd(o, ival, ctx);
		break;
	case K_FDAT:
		if (ival == -100)
			out_printf(o, "CWD");
		else
			out_fd(o, ival, ctx);
		break;
	case K_FILENAME:
		/* perf prints the pointer with %#x: its low 32 bits */
		out_printf(o, "%#x", (unsigned int)val);
		break;
	case K_PTR:
		if (!val)
			out_printf(o, "NULL");
		else
			out_printf(o, "%#lx", val);
		break;
	case K_HEX:
		out_printf(o, "%#lx", val);
		break;
	case K_INT:
		out_printf(o, "%d", ival);
		break;
	case K_PID:
		out_pid(o, ival, ctx);
		break;
	case K_MODE:
		out_flags(o, (unsigned int)ival, mode_bits, ARRAY_SIZE(mode_bits), false);
		break;
	case K_OPEN_FLAGS:
		if (!(ival & O_CREAT))
			*mask |= 1u << (idx + 1);
		out_open_flags(o, (unsigned int)ival);
		break;
	case K_MMAP_PROT:
		if (!ival)
			out_printf(o, "NONE");
		else
			out_flags(o, (unsigned int)ival, mmap_prot, ARRAY_SIZE(mmap_prot), false);
		break;
	case K_MMAP_FLAGS:
		/* an anonymous map's fd and offset are not printed */
		if (ival & 0x20)
			*mask |= (1u << (idx + 1)) | (1u << (idx + 2));
		out_flags(o, (unsigned int)ival, mmap_flags, ARRAY_SIZE(mmap_flags), false);
		break;
	case K_MREMAP_FLAGS:
		out_flags(o, (unsigned int)ival, mremap_flags, ARRAY_SIZE(mremap_flags), false);
		break;
	case K_PIPE_FLAGS:
		out_flags(o, (unsigned int)ival, pipe_flags, ARRAY_SIZE(pipe_flags), false);
		break;
	case K_GETRANDOM_FLAGS:
		out_flags(o, (unsigned int)ival, getrandom_flags, ARRAY_SIZE(getrandom_flags), false);
		break;
	case K_MADV:
		out_name_or_hex(o, "MADV_", madvise_name(ival), (unsigned int)ival);
		break;
	case K_ACCMODE:
		if (!ival) {
			out_printf(o, "F");
			break;
		}
		if (ival & R_OK)
			out_printf(o, "R");
		if (ival & W_OK)
			out_printf(o, "W");
		if (ival & X_OK)
			out_printf(o, "X");
		if (ival & ~7)
			out_printf(o, "|%#x", ival & ~7);
		break;
	case K_SIGNUM:
		out_name_or_hex(o, "", signal_name(ival), (unsigned int)ival);
		break;
	case K_ARCH_PRCTL:
		out_name_or_hex(o, "", arch_prctl_name(val), val);
		break;
	case K_CLONE_FLAGS:
		/* clone(flags, newsp, parent_tidptr, child_tidptr, tls): the
		 * pointers the flags do not use are not printed */
		if (!(val & 0x100000))
			*mask |= 1u << (idx + 2);
		if (!(val & (0x1000000 | 0x200000)))
			*mask |= 1u << (idx + 3);
		if (!(val & 0x80000))
			*mask |= 1u << (idx + 4);
		out_flags(o, val, clone_flags, ARRAY_SIZE(clone_flags), false);
		break;
	case K_SOCK_TYPE: {
		static const char *const types[] = {
			NULL, "STREAM", "DGRAM", "RAW", "RDM", "SEQPACKET", "DCCP", NULL, NULL,
			NULL, "PACKET",
		};
		unsigned int type = ival & 0xf, flags = ival & ~0xf;

		if (type < ARRAY_SIZE(types) && types[type])
			out_printf(o, "%s", types[type]);
		else
			out_printf(o, "%#x", type);
		if (flags & O_CLOEXEC) {
			out_printf(o, "|CLOEXEC");
			flags &= ~(unsigned int)O_CLOEXEC;
		}
		if (flags & O_NONBLOCK) {
			out_printf(o, "|NONBLOCK");
			flags &= ~(unsigned int)O_NONBLOCK;
		}
		if (flags)
			out_printf(o, "|%#x", flags);
		break;
	}
	case K_EMPTY:
		break;
	case K_FLOCK:
		out_flags(o, (unsigned int)ival, flock_ops, ARRAY_SIZE(flock_ops), false);
		break;
	case K_MSG_FLAGS:
		out_flags(o, (unsigned int)ival, msg_flags, ARRAY_SIZE(msg_flags), false);
		break;
	case K_PRCTL_OPTION:
		*mask |= prctl_mask(val);
		if (!OUT_NAMED(o, ival, 0, prctl_options))
			out_printf(o, "%d", ival);
		break;
	case K_PRCTL_ARG2:
		/* PR_SET_NAME's is a pointer */
		if (args[0] == 15)
			out_printf(o, "%#lx", val);
		else
			out_printf(o, "%ld", (long)val);
		break;
	case K_WAIT_OPTIONS:
		out_flags(o, (unsigned int)ival, wait_options, ARRAY_SIZE(wait_options), false);
		break;
	case K_IOCTL_CMD:
		out_name_or_hex(o, "", tty_ioctl_name((unsigned int)val), (unsigned int)val);
		break;
	case K_FCNTL_ARG:
		/* by the command before it */
		switch ((int)args[idx - 1]) {
		case F_SETFL:
			out_open_flags(o, (unsigned int)ival);
			break;
		case F_SETFD:
			/* perf 6.1's fd-flags printer, inverted as it is */
			out_printf(o, "%s", ival ? "0" : "CLOEXEC");
			break;
		case F_DUPFD:
		case F_DUPFD_CLOEXEC:
			out_fd(o, ival, ctx);
			break;
		default:
			out_printf(o, "%ld", (long)val);
			break;
		}
		break;
	case K_FUTEX_OP:
		out_futex_op(o, val, mask);
		break;
	case K_FUTEX_VAL3:
		if ((unsigned int)val == 0xffffffffu)
			out_printf(o, "MATCH_ANY");
		else
			out_printf(o, "%#x", (unsigned int)val);
		break;
	case K_RLIMIT:
	case K_ITIMER:
	case K_SIGHOW:
	case K_WHENCE:
	case K_CLOCKID:
	case K_EPOLL_OP:
	case K_SOCK_FAMILY:
	case K_SOCK_LEVEL:
	case K_FCNTL_CMD: {
		bool named;

		switch (kind) {
		case K_RLIMIT: named = OUT_NAMED(o, ival, 0, rlimits); break;
		case K_ITIMER: named = OUT_NAMED(o, ival, 0, itimers); break;
		case K_SIGHOW: named = OUT_NAMED(o, ival, 0, sighows); break;
		case K_WHENCE: named = OUT_NAMED(o, ival, 0, whences); break;
		case K_CLOCKID: named = OUT_NAMED(o, ival, 0, clockids); break;
		case K_EPOLL_OP: named = OUT_NAMED(o, ival, 1, epoll_ops); break;
		case K_SOCK_FAMILY: named = OUT_NAMED(o, ival, 0, sock_families); break;
		case K_SOCK_LEVEL: {
			const char *n = sock_level_name(ival);

			if (n)
				out_printf(o, "%s", n);
			named = n != NULL;
			break;
		}
		default:
			named = OUT_NAMED(o, ival, 0, fcntl_cmds) ||
				OUT_NAMED(o, ival, 1024, fcntl_linux_cmds);
			break;
		}
		if (!named)
			out_printf(o, "%d", ival);
		if (kind == K_FCNTL_CMD)
			fcntl_cmd_effects(ival, idx, mask, ctx);
		break;
	}
	default:
		out_printf(o, "%ld", (long)val);
		break;
	}
}

size_t syscall_tbl__format_call(struct syscall_tbl *tbl, int nr, const uint64_t args[6],
				struct syscall_fmt_ctx *ctx, char *buf, size_t size)
{
	struct sc_info *sc = sc_info(tbl, nr);
	struct out o = { buf, size, 0 };
	unsigned int mask = 0;
	bool first = true;

	if (ctx)
		ctx->ret_as = 0;
	if (!size)
		return 0;
	buf[0] = '\0';
	if (!sc)
		return 0;
	out_printf(&o, "%s(", sc->name);
	for (int i = 0; i < sc->nr_args; i++) {
		unsigned long val = args[i];

		if (mask & (1u << i))
			continue;
		if (!val && !kind_shows_zero(sc->args[i].kind))
			continue;
		out_printf(&o, "%s%s: ", first ? "" : ", ", sc->args[i].name);
		first = false;
		out_arg(&o, sc->args[i].kind, val, i, &mask, ctx, args);
	}
	return o.len;
}

const char *syscall_errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "(unknown)";
}

size_t syscall_tbl__format_ret(struct syscall_tbl *tbl, int nr, int64_t ret,
			       const struct syscall_fmt_ctx *ctx, char *buf, size_t size)
{
	struct sc_info *sc = sc_info(tbl, nr);
	struct out o = { buf, size, 0 };
	uint8_t kind = ctx && ctx->ret_as ? ctx->ret_as : sc ? sc->ret : R_NONE;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (ret < 0) {
		int e = (int)-ret;

		if (strerrorname_np(e))
			out_printf(&o, "-1 %s (%s)", syscall_errno_name(e), strerror(e));
		else	/* perf's text when strerror_r() knows no such errno */
			out_printf(&o, "-1 %s (INTERNAL ERROR: strerror_r(%d, [buf], 128)=%d)",
				   syscall_errno_name(e), e, EINVAL);
		return o.len;
	}
	switch (kind) {
	case R_TIMEOUT:
		if (ret == 0) {
			out_printf(&o, "0 (Timeout)");
			break;
		}
		out_printf(&o, "%" PRId64, ret);
		break;
	case R_HEX:
		out_printf(&o, "%#" PRIx64, ret);
		break;
	case R_FD:
		out_fd(&o, (int)ret, ctx);
		break;
	case R_OPEN_FLAGS:
		out_open_flags(&o, (unsigned long)ret);
		break;
	case R_GETFD:
		/* as perf 6.1 prints it: "0" for FD_CLOEXEC, CLOEXEC for 0 */
		out_printf(&o, "%s", ret ? "0" : "CLOEXEC");
		break;
	case R_PID: {
		const char *comm = NULL;

		/* perf prints nothing when it knows no such thread */
		if (ctx && ctx->thread_comm && ctx->thread_comm(ctx->arg, (int)ret, &comm) > 0) {
			out_printf(&o, "%" PRId64, ret);
			if (comm)
				out_printf(&o, " (%s)", comm);
		}
		break;
	}
	default:
		out_printf(&o, "%" PRId64, ret);
		break;
	}
	return o.len;
}

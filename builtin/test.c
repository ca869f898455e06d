// SPDX-License-Identifier: GPL-2.0
/*
 * prf test [-v] [-j N] [list] [NUMBER|NAME|SUBSTRING...]
 *
 * Runs the C unit tests registered with DEFINE_SUITE (tests/ *.c) and the
 * shell tests tests/shell/ *.sh (description on line 2; exit 0 pass, 2 skip,
 * anything else fail; they get $PRF, the absolute path of this binary).
 * Every test has a stable name (SUITE-CASE, or the script's file name
 * without ".sh") and runs in a forked child with a time limit; its output
 * is shown with -v or when it fails. Up to -j tests run at once; those
 * marked serial (DEFINE_SUITE_SERIAL, "# prf-test: serial" in a script's
 * leading comment) run alone after the others, which start longest first
 * (the durations of the last run). Results are printed in list
 * order whatever order they finish in; the last line is
 * "N passed, N failed[, N skipped][, N flaky ...]". With --rerun-failed the
 * failed tests run once more, alone, after all others. The shell tests are
 * those of the source tree when the binary is in one, else those installed
 * with it (make install: PRF_LIB_DIR/tests/shell); there, a test marked
 * "# prf-test: needs-source" is skipped. Documentation/prf-test.txt.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "../tests/tests.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/strbuf.h"
#include "../util/lib/tunables.h"
#include "../util/lib/util.h"

static struct test_suite *suites;
static int skip_fd = -1;

void test_suite__register(struct test_suite *suite)
{
	struct test_suite **p = &suites;

	while (*p && strcmp((*p)->name, suite->name) < 0)
		p = &(*p)->next;
	suite->next = *p;
	*p = suite;
}

struct test_suite *test_suites(void)
{
	return suites;
}

void *test_libc_func(const char *name)
{
	void *h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD), *f;

	if (!h)
		return NULL;
	f = dlsym(h, name);
	dlclose(h);
	return f;
}

int test_skip(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (skip_fd >= 0 && n > 0)
		writen(skip_fd, buf, strlen(buf));
	return TEST_SKIP;
}

struct test_opts {
	int verbose;
	unsigned int timeout;	/* seconds per test */
	int jobs;		/* tests run at once */
	bool rerun_failed;	/* run each failed test once more, alone */
	int slowest;		/* --slowest: list this many longest runs at the end */
};

/* One runnable test: a unit test case or a shell script. */
struct test_entry {
	char name[128];		/* stable name: SUITE-CASE or the script's, no ".sh" */
	char group[64];		/* the unit suite's name ("" for a script) */
	char desc[256];
	const struct test_case *tc;
	char script[PATH_MAX];
	bool serial;		/* must run alone */
	char needs_source[160];	/* why it needs the source tree ("": it does not) */
	double seed;		/* wall seconds from tests/shell/lib/durations (0: none) */
	double last;		/* wall seconds of its last run (TIMES_FILE; 0: none) */
};

/* The markers of a shell test's leading comment block: it runs alone; it
 * reads the source tree (and is skipped by an installed prf). */
#define SERIAL_MARK "# prf-test: serial"
#define SOURCE_MARK "# prf-test: needs-source"

#ifndef PRF_LIB_DIR
#define PRF_LIB_DIR "/usr/local/lib/prf"
#endif

/*
 * Where the shell tests are (ROOT/tests/shell; ROOT goes to the tests as
 * PRF_SRCDIR): the source tree the binary was built in (beside it), else
 * the tests installed with it, in the lib directory of the binary's own
 * prefix (an install moved as a whole: DESTDIR, a relocated prefix), then
 * in PRF_LIB_DIR. SOURCE: ROOT is a source tree.
 */
static struct {
	char root[PATH_MAX];
	bool source;
} shell_root;

/* An identifier as a test name: '-' for '_'. */
static void name_from(char *dst, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void name_from(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, size, fmt, ap);
	va_end(ap);
	for (; *dst; dst++)
		if (*dst == '_')
			*dst = '-';
}

static struct test_entry *entry_new(struct test_entry **entries, int *n, int *alloc)
{
	struct test_entry *e;

	if (*n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 64;
		*entries = realloc(*entries, *alloc * sizeof(**entries));
		if (!*entries) {
			pr_err("prf test: out of memory\n");
			exit(1);
		}
	}
	e = &(*entries)[(*n)++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Description (line 2, after "# "), serial and needs-source marks of a
 * shell test. */
static void read_script_head(struct test_entry *e)
{
	FILE *f = fopen(e->script, "r");
	char *line = NULL;
	size_t size = 0;
	int nr = 0;

	if (!f)
		return;
	/* whole lines: a description longer than any buffer is one line */
	while (getline(&line, &size, f) > 0 && (++nr <= 2 || line[0] == '#')) {
		if (nr == 2) {
			char *p = line;

			while (*p == '#' || *p == ' ')
				p++;
			p[strcspn(p, "\n")] = '\0';
			snprintf(e->desc, sizeof(e->desc), "%s", p);
		} else if (nr > 2 && !strncmp(line, SERIAL_MARK, strlen(SERIAL_MARK))) {
			e->serial = true;
		} else if (nr > 2 && !strncmp(line, SOURCE_MARK, strlen(SOURCE_MARK))) {
			char *why = line + strlen(SOURCE_MARK);

			why += strspn(why, ": ");
			why[strcspn(why, "\n")] = '\0';
			snprintf(e->needs_source, sizeof(e->needs_source), "%s",
				 *why ? why : "reads the source tree");
		}
	}
	free(line);
	fclose(f);
}

static bool is_dir(const char *path)
{
	DIR *d = opendir(path);

	if (d)
		closedir(d);
	return d != NULL;
}

static void find_shell_root(void)
{
	const char *roots[] = { prf_exec_dir(), NULL, PRF_LIB_DIR };
	char rel[PATH_MAX], dir[PATH_MAX + 16];

	snprintf(rel, sizeof(rel), "%s/../lib/prf", prf_exec_dir());
	roots[1] = rel;
	for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(dir, sizeof(dir), "%s/tests/shell", roots[i]);
		if (is_dir(dir)) {
			snprintf(shell_root.root, sizeof(shell_root.root), "%s", roots[i]);
			shell_root.source = i == 0;
			return;
		}
	}
	/* none: no shell tests; the unit tests still run */
	snprintf(shell_root.root, sizeof(shell_root.root), "%s", prf_exec_dir());
	shell_root.source = true;
}

static void collect_shell(struct test_entry **entries, int *n, int *alloc)
{
	char dir[3200];
	struct dirent **names;
	int cnt;

	snprintf(dir, sizeof(dir), "%.3000s/tests/shell", shell_root.root);
	cnt = scandir(dir, &names, NULL, alphasort);
	if (cnt < 0)
		return;
	for (int i = 0; i < cnt; i++) {
		const char *nm = names[i]->d_name;
		size_t len = strlen(nm);
		struct test_entry *e;

		if (len < 4 || strcmp(nm + len - 3, ".sh")) {
			free(names[i]);
			continue;
		}
		e = entry_new(entries, n, alloc);
		snprintf(e->script, sizeof(e->script), "%.3000s/%.255s", dir, nm);
		snprintf(e->name, sizeof(e->name), "%.*s", (int)(len - 3), nm);
		read_script_head(e);
		if (!e->desc[0])
			snprintf(e->desc, sizeof(e->desc), "%s", nm);
		free(names[i]);
	}
	free(names);
}

/* Every test in list order: unit cases by suite name, then the scripts. */
static struct test_entry *collect(int *np)
{
	struct test_entry *entries = NULL;
	int n = 0, alloc = 0;

	for (struct test_suite *s = suites; s; s = s->next) {
		for (const struct test_case *tc = s->cases; tc->name; tc++) {
			struct test_entry *e = entry_new(&entries, &n, &alloc);

			name_from(e->group, sizeof(e->group), "%s", s->name);
			name_from(e->name, sizeof(e->name), "%s-%s", s->name, tc->name);
			snprintf(e->desc, sizeof(e->desc), "%s: %s", s->desc, tc->desc);
			e->tc = tc;
			e->serial = s->serial;
		}
	}
	collect_shell(&entries, &n, &alloc);
	*np = n;
	return entries;
}

/* A test name or unit suite name used twice: 0, or -1 with a message. */
static int check_names(const struct test_entry *entries, int n)
{
	int ret = 0;

	for (int i = 0; i < n; i++) {
		const struct test_entry *a = &entries[i];

		for (int j = 0; j < n; j++) {
			const struct test_entry *b = &entries[j];

			if (j > i && !strcmp(a->name, b->name))
				pr_err("prf test: two tests are named '%s': %s and %s\n", a->name,
				       a->script[0] ? a->script : a->desc,
				       b->script[0] ? b->script : b->desc);
			else if (!strcmp(a->name, b->group) && (!j || strcmp(b->group, b[-1].group)))
				pr_err("prf test: '%s' names a test (%s) and a unit suite (%s)\n",
				       a->name, a->script[0] ? a->script : a->desc, b->desc);
			else
				continue;
			ret = -1;
		}
	}
	return ret;
}

/* Does ARG name a test or a unit suite exactly? */
static bool is_name(const struct test_entry *entries, int n, const char *arg)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(entries[i].name, arg) || !strcmp(entries[i].group, arg))
			return true;
	return false;
}

/*
 * An argument selects by number, by exact name (a test's or its suite's)
 * when some test has that name, and otherwise by substring of the
 * description (any case), the name, the case identifier or the script path.
 */
static bool selected(const struct test_entry *e, int num, int argc, const char **argv,
		     const bool *exact)
{
	if (argc == 0)
		return true;
	for (int i = 0; i < argc; i++) {
		char *end;
		long v = strtol(argv[i], &end, 10);

		if (!*end && end != argv[i]) {
			if (v == num)
				return true;
			continue;
		}
		if (exact[i]) {
			if (!strcmp(e->name, argv[i]) || !strcmp(e->group, argv[i]))
				return true;
			continue;
		}
		if (strcasestr(e->desc, argv[i]) || strstr(e->name, argv[i]) ||
		    (e->tc && strstr(e->tc->name, argv[i])) ||
		    (e->script[0] && strstr(e->script, argv[i])))
			return true;
	}
	return false;
}

/* A selected test: its child while it runs, then its result. */
struct test_run {
	const struct test_entry *e;
	int num;		/* number in the list, from 1 */
	pid_t pid;
	int out_fd, skip_fd;	/* read ends of the child's output and skip reason */
	int status;		/* wait status */
	struct timespec started_at, reaped_at;
	bool started, reaped, done, shown;	/* shown: its line's start is printed */
	bool again;		/* a failed test's second run, alone (--rerun-failed) */
	int result;		/* TEST_OK/TEST_FAIL/TEST_SKIP once done */
	struct strbuf out, reason;
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = sig;
}

/* Fork the child of R: a unit case runs in it, a script is exec'd by bash. */
static int run_start(struct test_run *r, const struct test_opts *o)
{
	const struct test_entry *e = r->e;
	int outp[2], skp[2], ret;
	ssize_t len;
	char buf[4096];

	r->started = true;
	clock_gettime(CLOCK_MONOTONIC, &r->started_at);
	if (pipe2(outp, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(skp, O_CLOEXEC) < 0) {
		ret = -errno;
		close(outp[0]);
		close(outp[1]);
		return ret;
	}
	fflush(stdout);
	fflush(stderr);
	r->pid = fork();
	if (r->pid < 0) {
		ret = -errno;
		close(outp[0]);
		close(outp[1]);
		close(skp[0]);
		close(skp[1]);
		return ret;
	}
	if (r->pid == 0) {
		close(outp[0]);
		close(skp[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(outp[1], STDOUT_FILENO);
		dup2(outp[1], STDERR_FILENO);
		setpgid(0, 0);
		alarm(o->timeout);
		signal(SIGPIPE, SIG_DFL);
		if (e->tc) {
			skip_fd = skp[1];
			verbose = o->verbose;
			ret = e->tc->run();
			fflush(stdout);
			fflush(stderr);
			_exit(ret == TEST_OK ? 0 : ret == TEST_SKIP ? 2 : 1);
		}
		/* the binary under test, whatever its name (prf, prf-asan, ...) */
		len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
		buf[len > 0 ? len : 0] = '\0';
		setenv("PRF", buf, 1);
		setenv("PRF_SRCDIR", shell_root.root, 1);
		/* installed tests: their directory is the package's; helpers
		 * imported from lib/ leave no __pycache__ there */
		if (!shell_root.source)
			setenv("PYTHONDONTWRITEBYTECODE", "1", 1);
		setenv("PRF_PAGER", "cat", 1);
		execlp("bash", "bash", e->script, (char *)NULL);
		_exit(127);
	}
	close(outp[1]);
	close(skp[1]);
	r->out_fd = outp[0];
	r->skip_fd = skp[0];
	return 0;
}

/* The result of R from its wait status and output, once it is over. */
static int run_result(struct test_run *r)
{
	int status = r->status;

	if (WIFSIGNALED(status)) {
		strbuf_addf(&r->out, "test killed by signal %d%s\n", WTERMSIG(status),
			    WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
		return TEST_FAIL;
	}
	if (WEXITSTATUS(status) == 0)
		return TEST_OK;
	if (WEXITSTATUS(status) == 2) {
		if (!r->reason.len && r->out.len) {
			/* shell test: the last non-empty output line says why */
			char *end = r->out.buf + r->out.len;

			while (end > r->out.buf && end[-1] == '\n')
				end--;
			char *start = end;

			while (start > r->out.buf && start[-1] != '\n')
				start--;
			strbuf_add(&r->reason, start, end - start);
		}
		return TEST_SKIP;
	}
	return TEST_FAIL;
}

/* Read what is there on *FD into SB; close it at its end. */
static void drain(int *fd, struct strbuf *sb)
{
	char buf[4096];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	strbuf_add(sb, buf, n);
}

/* Seconds from `from` to `to`. */
static double seconds_between(const struct timespec *from, const struct timespec *to)
{
	return (to->tv_sec - from->tv_sec) + (to->tv_nsec - from->tv_nsec) / 1e9;
}

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return seconds_between(t, &now);
}

/* Wall seconds of R, from its start to its reaping. */
static double run_seconds(const struct test_run *r)
{
	return seconds_between(&r->started_at, &r->reaped_at);
}

/*
 * Wait until something happens to the running tests (RUNS[0..N), those
 * started and not done): read their output, reap their children. A test is
 * done when its child is reaped and its output read to the end; whatever
 * its child left running in its process group is killed once it is
 * reaped, and a pipe some process outside it holds open is closed 2 s on.
 * Returns the number of tests done now.
 */
static int run_wait(struct test_run *runs, int n)
{
	struct pollfd pfd[2 * n > 0 ? 2 * n : 1];
	struct test_run *owner[2 * n > 0 ? 2 * n : 1];
	bool is_out[2 * n > 0 ? 2 * n : 1];
	int npfd = 0, ndone = 0, timeout = 200;

	for (int i = 0; i < n; i++) {
		struct test_run *r = &runs[i];

		if (!r->started || r->done)
			continue;
		/* output closed, child not reaped yet: it is exiting */
		if (r->out_fd < 0 && r->skip_fd < 0 && !r->reaped)
			timeout = 2;
		if (r->out_fd >= 0) {
			pfd[npfd] = (struct pollfd){ .fd = r->out_fd, .events = POLLIN };
			owner[npfd] = r;
			is_out[npfd++] = true;
		}
		if (r->skip_fd >= 0) {
			pfd[npfd] = (struct pollfd){ .fd = r->skip_fd, .events = POLLIN };
			owner[npfd] = r;
			is_out[npfd++] = false;
		}
	}
	if (poll(pfd, npfd, timeout) > 0) {
		for (int i = 0; i < npfd; i++) {
			if (!pfd[i].revents)
				continue;
			if (is_out[i])
				drain(&owner[i]->out_fd, &owner[i]->out);
			else
				drain(&owner[i]->skip_fd, &owner[i]->reason);
		}
	}
	for (int i = 0; i < n; i++) {
		struct test_run *r = &runs[i];

		if (!r->started || r->done)
			continue;
		if (!r->reaped && waitpid(r->pid, &r->status, WNOHANG) == r->pid) {
			r->reaped = true;
			clock_gettime(CLOCK_MONOTONIC, &r->reaped_at);
			/* kill anything the test left running in its process group */
			kill(-r->pid, SIGKILL);
		}
		if (r->reaped && (r->out_fd >= 0 || r->skip_fd >= 0) && since(&r->reaped_at) > 2) {
			if (r->out_fd >= 0)
				close(r->out_fd);
			if (r->skip_fd >= 0)
				close(r->skip_fd);
			r->out_fd = r->skip_fd = -1;
		}
		if (r->reaped && r->out_fd < 0 && r->skip_fd < 0) {
			r->result = run_result(r);
			r->done = true;
			ndone++;
		}
	}
	return ndone;
}

struct test_counts {
	int passed, failed, skipped;
	int flaky;		/* failed beside others, then passed alone */
};

/*
 * Print the results from RUNS[*NEXT] on that are done, in list order, and
 * the start of the line of the first one still running (as -j1 does).
 */
static void run_print(struct test_run *runs, int n, int *next, const struct test_opts *o,
		      struct test_counts *c)
{
	for (; *next < n; ++*next) {
		struct test_run *r = &runs[*next];

		if (!r->started)
			return;
		if (!r->shown) {
			printf("%3d: %-68s:", r->num, r->e->desc);
			r->shown = true;
		}
		if (!r->done) {
			fflush(stdout);
			return;
		}
		if (r->result == TEST_OK && r->again) {
			/* its failure above stays in the log and in the summary */
			printf(" Ok (failed beside others, passed alone)\n");
			c->passed++;
			c->failed--;
			c->flaky++;
		} else if (r->again) {
			printf(" FAILED! (again, alone)\n");
		} else if (r->result == TEST_OK) {
			printf(" Ok\n");
			c->passed++;
		} else if (r->result == TEST_SKIP) {
			printf(" Skip%s%s%s\n", r->reason.len ? " (" : "", r->reason.buf,
			       r->reason.len ? ")" : "");
			c->skipped++;
		} else {
			printf(" FAILED!\n");
			c->failed++;
		}
		if ((o->verbose || r->result == TEST_FAIL) && r->out.len) {
			printf("---- output of test %d (%s) ----\n%s", r->num, r->e->name, r->out.buf);
			if (r->out.buf[r->out.len - 1] != '\n')
				putchar('\n');
			printf("---- end ----\n");
		}
		strbuf_release(&r->out);
		strbuf_release(&r->reason);
		fflush(stdout);
	}
}

/* A test that needs the source tree, run by an installed prf: R is done,
 * skipped with the reason, without a child. */
static bool skip_without_source(struct test_run *r)
{
	if (shell_root.source || !r->e->needs_source[0])
		return false;
	r->started = r->done = true;
	r->result = TEST_SKIP;
	strbuf_addf(&r->reason, "needs the source tree: %s", r->e->needs_source);
	return true;
}

/*
 * Durations, for the order of a parallel run: the longest tests start
 * first, so that no long test starts near the end and runs there with the
 * other CPUs idle (longest-processing-time order). A test's duration is
 * that of its last run, kept in TIMES_FILE beside the binary (a source
 * tree only), else the rough figure of tests/shell/lib/durations (the
 * slowest tests, for a first run), else 0 (after all those known, in list
 * order). Both files have lines "NAME SECONDS"; '#' starts a comment.
 */
#define TIMES_FILE ".prf-test-times"
#define SEED_FILE "tests/shell/lib/durations"

static void times_path(char *buf, size_t size)
{
	snprintf(buf, size, "%s/" TIMES_FILE, prf_exec_dir());
}

/* Read the durations of PATH into SEED (true) or LAST of ENTRIES[0..N). */
static void read_durations(const char *path, struct test_entry *entries, int n, bool seed)
{
	FILE *f = fopen(path, "r");
	char line[512], name[128];
	double secs;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%127s %lf", name, &secs) != 2 || secs <= 0)
			continue;
		for (int i = 0; i < n; i++) {
			if (strcmp(entries[i].name, name))
				continue;
			if (seed)
				entries[i].seed = secs;
			else
				entries[i].last = secs;
			break;
		}
	}
	fclose(f);
}

static void load_durations(struct test_entry *entries, int n)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%.3000s/" SEED_FILE, shell_root.root);
	read_durations(path, entries, n, true);
	if (!shell_root.source)
		return;
	times_path(path, sizeof(path));
	read_durations(path, entries, n, false);
}

/*
 * Keep the durations of this run's tests (RUNS[0..N), first runs) with
 * those of the other tests of ENTRIES[0..NE) from earlier runs, in
 * TIMES_FILE (written whole, then renamed over the old one); nothing when
 * the tests are not those of a source tree or the file cannot be written.
 */
static void save_durations(const struct test_run *runs, int n, struct test_entry *entries, int ne)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64];
	FILE *f;

	if (!shell_root.source)
		return;
	for (int i = 0; i < n; i++)
		if (runs[i].reaped)
			entries[runs[i].e - entries].last = run_seconds(&runs[i]);
	times_path(path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "# prf test: wall seconds of each test's last run (the order of the next)\n");
	for (int i = 0; i < ne; i++)
		if (entries[i].last > 0)
			fprintf(f, "%s %.1f\n", entries[i].name, entries[i].last);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

static double duration(const struct test_entry *e)
{
	return e->last > 0 ? e->last : e->seed;
}

/* RUNS[ORDER[0..N)] longest first; equal ones in list order. */
static void longest_first(const struct test_run *runs, int *order, int n)
{
	for (int i = 1; i < n; i++) {
		int k = order[i], j = i;
		double d = duration(runs[k].e);

		for (; j > 0 && duration(runs[order[j - 1]].e) < d; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
}

/*
 * Run RUNS[0..N) (in list order): up to o->jobs at once, the serial ones
 * alone after all others, the others longest first (longest_first()); with
 * one job, every test in list order.
 */
static void run_all(struct test_run *runs, int n, const struct test_opts *o,
		    struct test_counts *c)
{
	int order[n > 0 ? n : 1], norder = 0, started = 0, running = 0, next = 0;
	bool serial_running = false;

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++)
			if (o->jobs == 1 ? pass == 0 : runs[i].e->serial == (pass == 1))
				order[norder++] = i;
		if (pass == 0 && o->jobs > 1)
			longest_first(runs, order, norder);
	}
	while (next < n && !interrupted) {
		while (started < n && !serial_running) {
			struct test_run *r = &runs[order[started]];
			bool alone = r->e->serial && o->jobs > 1;

			if (skip_without_source(r)) {
				started++;
				continue;
			}
			if (running >= o->jobs || (alone && running))
				break;
			started++;
			if (run_start(r, o) < 0) {
				strbuf_addf(&r->out, "cannot start the test: %s\n", strerror(errno));
				r->status = 1 << 8;
				r->result = TEST_FAIL;
				r->done = true;
				continue;
			}
			running++;
			serial_running = alone;
		}
		run_print(runs, n, &next, o, c);
		if (next >= n || !running)
			continue;
		running -= run_wait(runs, n);
		if (!running)
			serial_running = false;
	}
	if (interrupted) {
		for (int i = 0; i < n; i++)
			if (runs[i].started && !runs[i].reaped)
				kill(-runs[i].pid, SIGKILL);
		putchar('\n');
	}
}

/* A run of test E (number NUM in the list), not started; AGAIN: a rerun. */
static struct test_run test_run__new(const struct test_entry *e, int num, bool again)
{
	return (struct test_run){ .e = e, .num = num, .out_fd = -1, .skip_fd = -1,
				  .out = STRBUF_INIT, .reason = STRBUF_INIT, .again = again };
}

/*
 * --rerun-failed: the tests of RUNS[0..N) that failed run once more, one at
 * a time, after all others; a pass then counts as passed and flaky, and the
 * first run's failure and output stay printed above.
 */
static void rerun_failed(const struct test_run *runs, int n, const struct test_opts *o,
			 struct test_counts *c)
{
	struct test_opts alone = *o;
	struct test_run *again = calloc(n > 0 ? n : 1, sizeof(*again));
	int nagain = 0;

	if (!again) {
		pr_err("prf test: out of memory for --rerun-failed\n");
		return;
	}
	for (int i = 0; i < n; i++)
		if (runs[i].done && runs[i].result == TEST_FAIL)
			again[nagain++] = test_run__new(runs[i].e, runs[i].num, true);
	if (nagain) {
		printf("---- %d failed test%s run again, alone ----\n", nagain,
		       nagain == 1 ? "" : "s");
		alone.jobs = 1;
		run_all(again, nagain, &alone, c);
	}
	free(again);
}

static int by_seconds_desc(const void *a, const void *b)
{
	double x = run_seconds(*(const struct test_run *const *)a);
	double y = run_seconds(*(const struct test_run *const *)b);

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * --slowest: the `count` runs of RUNS[0..n) (first runs, not the reruns)
 * that took the longest, wall seconds from start to reaping, longest first;
 * serial ones ran alone, the others beside up to -j others.
 */
static void print_slowest(struct test_run *runs, int n, int count)
{
	struct test_run **order = malloc((n > 0 ? n : 1) * sizeof(*order));
	int m = 0;

	if (!order)
		return;
	for (int i = 0; i < n; i++)
		if (runs[i].reaped)
			order[m++] = &runs[i];
	qsort(order, m, sizeof(*order), by_seconds_desc);
	printf("Slowest %d of %d tests (wall seconds):\n", count < m ? count : m, m);
	for (int i = 0; i < m && i < count; i++)
		printf("%7.1f  %s%s\n", run_seconds(order[i]), order[i]->e->name,
		       order[i]->e->serial ? " (serial)" : "");
	free(order);
}

/*
 * PRF_TEST_SHARED: a directory the tests of one run share, for what several
 * of them would otherwise build each (tests/shell/lib/dwlib.sh's library),
 * made at the start of the run and removed at its end. A directory the
 * caller names in PRF_TEST_SHARED is used as it is and kept (what it holds
 * serves the next runs too). Returns the directory to remove, or NULL.
 */
static char *shared_dir_make(void)
{
	static char dir[] = "/tmp/prf-test-shared.XXXXXX";
	const char *given = tunable__str(TUNABLE_TEST_SHARED);

	if (given && *given)
		return NULL;
	if (!mkdtemp(dir))
		return NULL;	/* the tests build what they need themselves */
	setenv("PRF_TEST_SHARED", dir, 1);
	return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void shared_dir_remove(const char *dir)
{
	if (dir)
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int cmd_test(int argc, const char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct test_opts o = { .timeout = 600, .jobs = ncpu > 0 ? (int)ncpu : 1 };
	const char *const usage[] = {
		"prf test [<options>] [list] [{<test-number>|<test-name>|<substring>}...]", NULL
	};
	const struct option options[] = {
		OPT_INCR('v', "verbose", &o.verbose, "show test output"),
		OPT_UINTEGER(0, "timeout", &o.timeout, "seconds each test may take (default 600)"),
		OPT_INTEGER('j', "jobs", &o.jobs, "tests run at once (default: online CPUs; 1: one by one)"),
		OPT_BOOLEAN(0, "rerun-failed", &o.rerun_failed,
			    "run each failed test once more, alone, after all others"),
		OPT_INTEGER(0, "slowest", &o.slowest,
			    "at the end, list the N tests that took the longest"),
		OPT_END()
	};
	struct test_counts c = { 0 };
	struct test_entry *entries;
	struct test_run *runs;
	bool list = false, *exact;
	int n, nrun = 0;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc < 0)
		return 129;
	if (o.jobs < 1) {
		pr_err("prf test: -j wants a number of tests, 1 or more\n");
		return 129;
	}
	if (argc > 0 && !strcmp(argv[0], "list")) {
		list = true;
		argc--;
		argv++;
	}
	/* no on-disk debug image cache (util/model/debug-cache.h): tests
	 * compare ways of reading debug files, which a cached image would
	 * answer alike; dwarf-debug-cache.sh turns it on for itself */
	setenv("PRF_DEBUG_CACHE", "0", 1);
	/* the user's ~/.perfconfig would change what the commands print:
	 * no configuration file; config tests point PERF_CONFIG at theirs */
	setenv("PERF_CONFIG", "/dev/null", 1);
	find_shell_root();
	entries = collect(&n);
	if (check_names(entries, n) < 0) {
		free(entries);
		return 1;
	}
	exact = calloc(argc > 0 ? argc : 1, sizeof(*exact));
	runs = calloc(n > 0 ? n : 1, sizeof(*runs));
	if (!exact || !runs) {
		pr_err("prf test: out of memory\n");
		return 1;
	}
	for (int i = 0; i < argc; i++)
		exact[i] = is_name(entries, n, argv[i]);
	for (int i = 0; i < n; i++) {
		if (!selected(&entries[i], i + 1, argc, argv, exact))
			continue;
		if (list) {
			printf("%3d: %-32s %s%s%s\n", i + 1, entries[i].name, entries[i].desc,
			       entries[i].serial ? " (serial)" : "",
			       entries[i].needs_source[0] ? " (needs source)" : "");
			continue;
		}
		runs[nrun++] = test_run__new(&entries[i], i + 1, false);
	}
	if (!list) {
		char *shared = shared_dir_make();

		signal(SIGINT, on_interrupt);
		signal(SIGTERM, on_interrupt);
		load_durations(entries, n);
		run_all(runs, nrun, &o, &c);
		if (!interrupted)
			save_durations(runs, nrun, entries, n);
		if (o.slowest > 0 && !interrupted)
			print_slowest(runs, nrun, o.slowest);
		if (o.rerun_failed && !interrupted)
			rerun_failed(runs, nrun, &o, &c);
		shared_dir_remove(shared);
	}
	free(runs);
	free(exact);
	free(entries);
	if (list)
		return 0;
	if (interrupted)
		return 128 + interrupted;
	printf("%d passed, %d failed", c.passed, c.failed);
	if (c.skipped)
		printf(", %d skipped", c.skipped);
	if (c.flaky)
		printf(", %d flaky (passed only alone)", c.flaky);
	printf("\n");
	return c.failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * prf test [-v] [list] [NUMBER|SUBSTRING...]
 *
 * Runs the C unit tests registered with DEFINE_SUITE (tests/ *.c) and the
 * shell tests tests/shell/ *.sh (description on line 2; exit 0 pass, 2 skip,
 * anything else fail; they get $PRF, the absolute path of this binary).
 * Every test runs in a forked child with a time limit; its output is shown
 * with -v or when it fails. The last line is "N passed, N failed[, N skipped]".
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"
#include "../tests/tests.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/strbuf.h"
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
};

/* One runnable test: a unit test case or a shell script. */
struct test_entry {
	char desc[256];
	const struct test_case *tc;
	char script[PATH_MAX];
};

static int collect_shell(struct test_entry **entries, int *n, int *alloc)
{
	char dir[3200];
	struct dirent **names;
	int cnt;

	snprintf(dir, sizeof(dir), "%s/tests/shell", prf_exec_dir());
	cnt = scandir(dir, &names, NULL, alphasort);
	if (cnt < 0)
		return 0;
	for (int i = 0; i < cnt; i++) {
		const char *nm = names[i]->d_name;
		size_t len = strlen(nm);
		struct test_entry *e;
		char line[256] = "";
		FILE *f;

		if (len < 4 || strcmp(nm + len - 3, ".sh")) {
			free(names[i]);
			continue;
		}
		if (*n == *alloc) {
			*alloc = *alloc ? *alloc * 2 : 64;
			*entries = realloc(*entries, *alloc * sizeof(**entries));
		}
		e = &(*entries)[(*n)++];
		memset(e, 0, sizeof(*e));
		snprintf(e->script, sizeof(e->script), "%.3000s/%.255s", dir, nm);
		f = fopen(e->script, "r");
		if (f) {
			/* description: line 2, after "# " */
			if (fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f)) {
				char *p = line;

				while (*p == '#' || *p == ' ')
					p++;
				p[strcspn(p, "\n")] = '\0';
				snprintf(e->desc, sizeof(e->desc), "%s", p);
			}
			fclose(f);
		}
		if (!e->desc[0])
			snprintf(e->desc, sizeof(e->desc), "%s", nm);
		free(names[i]);
	}
	free(names);
	return 0;
}

static struct test_entry *collect(int *np)
{
	struct test_entry *entries = NULL;
	int n = 0, alloc = 0;

	for (struct test_suite *s = suites; s; s = s->next) {
		for (const struct test_case *tc = s->cases; tc->name; tc++) {
			if (n == alloc) {
				alloc = alloc ? alloc * 2 : 64;
				entries = realloc(entries, alloc * sizeof(*entries));
			}
			memset(&entries[n], 0, sizeof(entries[n]));
			snprintf(entries[n].desc, sizeof(entries[n].desc), "%s: %s", s->desc, tc->desc);
			entries[n].tc = tc;
			n++;
		}
	}
	collect_shell(&entries, &n, &alloc);
	*np = n;
	return entries;
}

static bool selected(const struct test_entry *e, int num, int argc, const char **argv)
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
		if (strcasestr(e->desc, argv[i]) || (e->tc && strstr(e->tc->name, argv[i])) ||
		    (e->script[0] && strstr(e->script, argv[i])))
			return true;
	}
	return false;
}

/* Run in a child; returns TEST_OK/TEST_FAIL/TEST_SKIP. */
static int run_entry(const struct test_entry *e, const struct test_opts *o,
		     struct strbuf *output, struct strbuf *reason)
{
	int outp[2], skp[2], status, ret;
	ssize_t len;
	pid_t pid;
	char buf[4096];

	if (pipe(outp) < 0 || pipe(skp) < 0)
		return TEST_FAIL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (pid == 0) {
		close(outp[0]);
		close(skp[0]);
		dup2(outp[1], STDOUT_FILENO);
		dup2(outp[1], STDERR_FILENO);
		close(outp[1]);
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
		close(skp[1]);
		/* the binary under test, whatever its name (prf, prf-asan, ...) */
		len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
		buf[len > 0 ? len : 0] = '\0';
		setenv("PRF", buf, 1);
		setenv("PRF_SRCDIR", prf_exec_dir(), 1);
		setenv("PRF_PAGER", "cat", 1);
		execlp("bash", "bash", e->script, (char *)NULL);
		_exit(127);
	}
	close(outp[1]);
	close(skp[1]);
	for (;;) {
		ssize_t n = read(outp[0], buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(output, buf, n);
	}
	for (;;) {
		ssize_t n = read(skp[0], buf, sizeof(buf));

		if (n <= 0)
			break;
		strbuf_add(reason, buf, n);
	}
	close(outp[0]);
	close(skp[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* kill anything the test left running in its process group */
	kill(-pid, SIGKILL);
	if (WIFSIGNALED(status)) {
		strbuf_addf(output, "test killed by signal %d%s\n", WTERMSIG(status),
			    WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
		return TEST_FAIL;
	}
	if (WEXITSTATUS(status) == 0)
		return TEST_OK;
	if (WEXITSTATUS(status) == 2) {
		if (!reason->len && output->len) {
			/* shell test: the last non-empty output line says why */
			char *end = output->buf + output->len;

			while (end > output->buf && end[-1] == '\n')
				end--;
			char *start = end;

			while (start > output->buf && start[-1] != '\n')
				start--;
			strbuf_add(reason, start, end - start);
		}
		return TEST_SKIP;
	}
	return TEST_FAIL;
}

int cmd_test(int argc, const char **argv)
{
	struct test_opts o = { .timeout = 600 };
	const char *const usage[] = { "prf test [<options>] [list] [{<test-number>|<test-name>}...]", NULL };
	const struct option options[] = {
		OPT_INCR('v', "verbose", &o.verbose, "show test output"),
		OPT_UINTEGER(0, "timeout", &o.timeout, "seconds each test may take (default 600)"),
		OPT_END()
	};
	struct test_entry *entries;
	int n, passed = 0, failed = 0, skipped = 0;
	bool list = false;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc < 0)
		return 129;
	if (argc > 0 && !strcmp(argv[0], "list")) {
		list = true;
		argc--;
		argv++;
	}
	/* no on-disk debug image cache (util/model/debug-cache.h): tests
	 * compare ways of reading debug files, which a cached image would
	 * answer alike; dwarf-debug-cache.sh turns it on for itself */
	setenv("PRF_DEBUG_CACHE", "0", 1);
	entries = collect(&n);
	for (int i = 0; i < n; i++) {
		struct strbuf out = STRBUF_INIT, reason = STRBUF_INIT;
		int ret;

		if (!selected(&entries[i], i + 1, argc, argv))
			continue;
		if (list) {
			printf("%3d: %s\n", i + 1, entries[i].desc);
			continue;
		}
		printf("%3d: %-68s:", i + 1, entries[i].desc);
		fflush(stdout);
		ret = run_entry(&entries[i], &o, &out, &reason);
		if (ret == TEST_OK) {
			printf(" Ok\n");
			passed++;
		} else if (ret == TEST_SKIP) {
			printf(" Skip%s%s%s\n", reason.len ? " (" : "", reason.buf, reason.len ? ")" : "");
			skipped++;
		} else {
			printf(" FAILED!\n");
			failed++;
		}
		if ((o.verbose || ret == TEST_FAIL) && out.len) {
			printf("---- output of test %d ----\n%s", i + 1, out.buf);
			if (out.buf[out.len - 1] != '\n')
				putchar('\n');
			printf("---- end ----\n");
		}
		strbuf_release(&out);
		strbuf_release(&reason);
	}
	free(entries);
	if (list)
		return 0;
	printf("%d passed, %d failed", passed, failed);
	if (skipped)
		printf(", %d skipped", skipped);
	printf("\n");
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the perf.data reader and session
 * (util/format/data.h, util/session/session.h) as report and script
 * drive them.
 *
 * Every input is read as a regular file (memfd): file mode, or pipe
 * format saved to a file. An input whose header is the 16-byte pipe
 * header is read a second time through a real pipe (pipe mode, chunked
 * reads). Both orderings (ordered queue and direct delivery) are used,
 * the header is printed (feature sections decoded), and every sample is
 * resolved through the session's resolver (util/session/resolve.h),
 * so compressed records, feature sections, side-band records and sample
 * parsing all see the mutated bytes.
 *
 * Symbols: an empty --symfs keeps DSO loads off the host's files, HOME
 * points at the same empty directory (no ~/.debug build-id cache: a seed
 * recorded on this host would otherwise load libc's DWARF line table on
 * every run), and a tiny kallsyms file stands in for /proc/kallsyms, so
 * runs are fast and deterministic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz-common.h"
#include "util/session/resolve.h"
#include "util/session/session.h"
#include "util/kernel/evsel.h"
#include "util/model/callchain.h"
#include "util/model/dso.h"
#include "util/model/machine.h"
#include "util/model/map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char symfs_dir[64] = "/tmp/prf-fuzz-symfs.XXXXXX";
static char kallsyms_path[128];
static FILE *devnull;

struct fuzz_tool {
	struct perf_tool tool;
	struct perf_session *session;
	struct resolved_sample rs;
	struct resolve_opts ropts;
	unsigned long sum;
};

static int fuzz_sample(struct perf_tool *tool, union perf_event *event,
		       struct perf_sample *sample, struct evsel *evsel,
		       struct machine *machine)
{
	struct fuzz_tool *ft = (struct fuzz_tool *)tool;
	struct resolved_sample *rs = &ft->rs;
	int err = sample__resolve(ft->session, sample, evsel, rs);

	(void)machine;
	if (err)
		return err;
	ft->sum += strlen(rs->comm);
	resolved_sample__location(rs, false);
	if (rs->al.sym)
		ft->sum += strlen(rs->al.sym->name);
	if (rs->al.map && rs->al.map->dso)
		ft->sum += strlen(rs->al.map->dso->short_name);
	if (resolved_sample__callchain(ft->session, rs, &ft->ropts))
		return 0;
	for (unsigned int i = 0; i < rs->cursor.nr; i++)
		if (rs->cursor.frames[i].sym)
			ft->sum += strlen(rs->cursor.frames[i].sym->name);
	return 0;
}

static void run_session(const char *path, bool ordered)
{
	struct fuzz_tool ft;
	struct perf_session *s;
	int err = 0;

	memset(&ft, 0, sizeof(ft));
	perf_tool__init(&ft.tool, ordered);
	ft.tool.sample = fuzz_sample;
	ft.ropts.max_stack = 127;
	ft.ropts.inline_frames = true;
	ft.ropts.srcline = true;
	resolved_sample__init(&ft.rs, false);
	s = perf_session__new(path, &ft.tool, &err);
	if (s) {
		ft.session = s;
		if (s->machine) {
			s->machine->symfs = symfs_dir;
			s->machine->kallsyms = kallsyms_path;
		}
		if (devnull)
			perf_data__fprintf_info(&s->data, devnull, true);
		perf_session__process_events(s);
		if (devnull)
			perf_data__fprintf_stats(&s->data, devnull);
		perf_session__delete(s);
	}
	resolved_sample__exit(&ft.rs);
}

/* Pipe mode: the whole input is written into a pipe big enough to hold it,
 * the write end closed, and the session reads /proc/self/fd/<read end>. */
static void run_pipe(const uint8_t *data, size_t size)
{
	char path[64];
	int p[2];
	size_t done = 0;

	if (pipe2(p, O_CLOEXEC))
		return;
	if (fcntl(p[1], F_SETPIPE_SZ, 1 << 20) < (int)size)
		goto out;
	while (done < size) {
		ssize_t n = write(p[1], data + done, size - done);

		if (n <= 0)
			goto out;
		done += (size_t)n;
	}
	close(p[1]);
	p[1] = -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	run_session(path, true);
out:
	close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
}

static void cleanup(void)
{
	unlink(kallsyms_path);
	rmdir(symfs_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *f;

	devnull = fopen("/dev/null", "we");
	if (!mkdtemp(symfs_dir))
		strcpy(symfs_dir, "/nonexistent-prf-fuzz-symfs");
	/* the build-id cache is looked up under $HOME/.debug */
	setenv("HOME", symfs_dir, 1);
	snprintf(kallsyms_path, sizeof(kallsyms_path), "%s.kallsyms", symfs_dir);
	f = fopen(kallsyms_path, "we");
	if (f) {
		fputs("ffffffff81000000 T _text\n"
		      "ffffffff81000100 T startup_64\n"
		      "ffffffff81100000 T do_syscall_64\n"
		      "ffffffff81200000 t schedule\n"
		      "ffffffffc0000000 t mod_func\t[fuzzmod]\n", f);
		fclose(f);
	}
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	uint64_t hsize = 0;
	int fd;

	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	run_session(path, true);
	/* the unordered path once in a while (it is the cheaper one) */
	if (size && (data[size - 1] & 7) == 0)
		run_session(path, false);
	if (size >= 16)
		memcpy(&hsize, data + 8, 8);
	if (hsize == 16 || hsize == (16ULL << 56))
		run_pipe(data, size);
	return 0;
}

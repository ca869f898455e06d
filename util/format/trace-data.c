// SPDX-License-Identifier: GPL-2.0
/* Tracing data (HEADER_TRACING_DATA) writer and reader; see trace-data.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <byteswap.h>
#include <traceevent/event-parse.h>
#include "trace-data.h"
#include "../lib/debug.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../kernel/tracefs.h"

static const unsigned char td_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

bool trace_data__has_tracepoints(struct evlist *evlist)
{
	struct evsel *evsel;

	if (!evlist)
		return false;
	evlist__for_each_entry(evlist, evsel)
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

/* ---------------- writer ---------------- */

struct tp_ref {
	char sys[128];
	char name[128];
};

/* Unique (sys, name) of the tracepoint evsels, in evlist order. */
static int collect_tracepoints(struct evlist *evlist, struct tp_ref **out, int *nr)
{
	struct evsel *evsel;
	struct tp_ref *v;
	int n = 0;

	v = calloc((size_t)evlist->nr_entries + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	evlist__for_each_entry(evlist, evsel) {
		struct tp_ref r;
		bool dup = false;

		if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		if (evsel->tp_sys && evsel->tp_name) {
			snprintf(r.sys, sizeof(r.sys), "%s", evsel->tp_sys);
			snprintf(r.name, sizeof(r.name), "%s", evsel->tp_name);
		} else if (tracefs__id_to_name(evsel->attr.config, r.sys, sizeof(r.sys),
					       r.name, sizeof(r.name))) {
			pr_err("tracing data: no tracepoint with id %llu for event %s\n",
			       (unsigned long long)evsel->attr.config, evsel__name(evsel));
			free(v);
			return -ENOENT;
		}
		for (int i = 0; i < n && !dup; i++)
			dup = !strcmp(v[i].sys, r.sys) && !strcmp(v[i].name, r.name);
		if (!dup)
			v[n++] = r;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* Append a host-order integer of width bytes (4 or 8). */
static int put_uint(struct strbuf *sb, uint64_t v, int width)
{
	if (width == 4) {
		uint32_t u = (uint32_t)v;

		return strbuf_add(sb, &u, 4);
	}
	return strbuf_add(sb, &v, 8);
}

/* Append "<size><contents>" of a tracefs/procfs file (their stat size is
 * 0, so the file is read whole first). */
static int put_file(struct strbuf *sb, const char *path, int width)
{
	char *buf = NULL;
	size_t len = 0;
	int err = filename__read_str(path, &buf, &len);

	if (err) {
		pr_err("tracing data: cannot read %s: %s\n", path, strerror(-err));
		return err;
	}
	err = put_uint(sb, len, width);
	if (!err)
		err = strbuf_add(sb, buf, len);
	free(buf);
	return err;
}

/* Optional file: size 0 when absent (perf's behaviour for printk_formats,
 * saved_cmdlines). */
static int put_file_opt(struct strbuf *sb, const char *path, int width)
{
	if (access(path, R_OK))
		return put_uint(sb, 0, width);
	return put_file(sb, path, width);
}

static int put_event_formats(struct strbuf *sb, const char *mnt, const struct tp_ref *v, int nr,
			     const char *sys)
{
	char path[PATH_MAX];
	uint32_t count = 0;
	int err;

	for (int i = 0; i < nr; i++)
		count += !strcmp(v[i].sys, sys);
	err = put_uint(sb, count, 4);
	for (int i = 0; i < nr && !err; i++) {
		if (strcmp(v[i].sys, sys))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", mnt, sys, v[i].name);
		err = put_file(sb, path, 8);
	}
	return err;
}

int trace_data__build(struct evlist *evlist, struct strbuf *sb)
{
	char path[PATH_MAX];
	struct tp_ref *v = NULL;
	int nr = 0, err, mnt_err = -ENOENT;
	uint32_t nr_sys = 0;
	const char *mnt;

	if (!trace_data__has_tracepoints(evlist))
		return -ENODATA;
	mnt = tracefs__mountpoint(&mnt_err);
	if (!mnt) {
		pr_err("tracing data: %s\n", tracefs__mount_hint());
		return mnt_err;
	}
	err = collect_tracepoints(evlist, &v, &nr);
	if (err)
		return err;

	err = strbuf_add(sb, td_magic, sizeof(td_magic));
	err = err ?: strbuf_add(sb, TRACE_DATA_VERSION, sizeof(TRACE_DATA_VERSION));
	err = err ?: strbuf_addch(sb, host_big_endian() ? 1 : 0);
	err = err ?: strbuf_addch(sb, (int)sizeof(long));
	err = err ?: put_uint(sb, page_size(), 4);

	err = err ?: strbuf_add(sb, "header_page", sizeof("header_page"));
	snprintf(path, sizeof(path), "%s/events/header_page", mnt);
	err = err ?: put_file(sb, path, 8);
	err = err ?: strbuf_add(sb, "header_event", sizeof("header_event"));
	snprintf(path, sizeof(path), "%s/events/header_event", mnt);
	err = err ?: put_file(sb, path, 8);

	/* ftrace's own events first, then every other system */
	err = err ?: put_event_formats(sb, mnt, v, nr, "ftrace");
	for (int i = 0; i < nr; i++) {
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(v[j].sys, v[i].sys);
		nr_sys += !seen && strcmp(v[i].sys, "ftrace");
	}
	err = err ?: put_uint(sb, nr_sys, 4);
	for (int i = 0; i < nr && !err; i++) {
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(v[j].sys, v[i].sys);
		if (seen || !strcmp(v[i].sys, "ftrace"))
			continue;
		err = strbuf_add(sb, v[i].sys, strlen(v[i].sys) + 1);
		err = err ?: put_event_formats(sb, mnt, v, nr, v[i].sys);
	}

	/* kallsyms: perf 6.1 stores an empty one (kernel addresses are
	 * resolved from the file's own kernel maps) */
	err = err ?: put_uint(sb, 0, 4);
	snprintf(path, sizeof(path), "%s/printk_formats", mnt);
	err = err ?: put_file_opt(sb, path, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", mnt);
	err = err ?: put_file_opt(sb, path, 8);
	free(v);
	return err;
}

int trace_data__feature_hook(struct strbuf *sb, void *arg)
{
	int err = trace_data__build(arg, sb);

	return err == -ENODATA ? 0 : err;
}

/* ---------------- reader ---------------- */

struct td_cursor {
	const unsigned char *p, *end;
	bool swap;
};

static int cur_bytes(struct td_cursor *c, size_t n, const unsigned char **out)
{
	if ((size_t)(c->end - c->p) < n)
		return -EINVAL;
	*out = c->p;
	c->p += n;
	return 0;
}

static int cur_uint(struct td_cursor *c, int width, uint64_t *v)
{
	const unsigned char *b;

	if (cur_bytes(c, (size_t)width, &b))
		return -EINVAL;
	if (width == 4) {
		uint32_t u;

		memcpy(&u, b, 4);
		*v = c->swap ? bswap_32(u) : u;
	} else {
		uint64_t u;

		memcpy(&u, b, 8);
		*v = c->swap ? bswap_64(u) : u;
	}
	return 0;
}

static int cur_string(struct td_cursor *c, const char **s)
{
	const unsigned char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));

	if (!nul)
		return -EINVAL;
	*s = (const char *)c->p;
	c->p = nul + 1;
	return 0;
}

/* A sized blob as a NUL-terminated malloc'd copy (libtraceevent parsers
 * want strings they may modify). */
static int cur_blob(struct td_cursor *c, int width, char **out, size_t *len)
{
	const unsigned char *b;
	uint64_t n;

	if (cur_uint(c, width, &n) || n > (uint64_t)(c->end - c->p) || cur_bytes(c, (size_t)n, &b))
		return -EINVAL;
	*out = malloc((size_t)n + 2);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, b, (size_t)n);
	(*out)[n] = '\0';
	/* libtraceevent's line parsers read past a text that holds a NUL or
	 * lacks its final newline: hand them clean text only */
	*len = strlen(*out);
	if (*len && (*out)[*len - 1] != '\n') {
		(*out)[(*len)++] = '\n';
		(*out)[*len] = '\0';
	}
	return 0;
}

static int parse_formats(struct tep_handle *tep, struct td_cursor *c, const char *sys)
{
	uint64_t count;

	if (cur_uint(c, 4, &count))
		return -EINVAL;
	for (uint64_t i = 0; i < count; i++) {
		char *fmt;
		size_t len;
		int err = cur_blob(c, 8, &fmt, &len);

		if (err)
			return err;
		if (tep_parse_event(tep, fmt, len, sys))
			pr_debug("tracing data: cannot parse a %s event format, skipped\n", sys);
		free(fmt);
	}
	return 0;
}

/*
 * printk_formats lines: `0xADDR : "FMT"`. Parsed here rather than with
 * tep_parse_printk_formats(), which reads out of bounds on malformed
 * lines; tep_register_print_string() strips the quotes and a final "\n"
 * itself but needs at least 3 characters after the opening quote.
 */
static void parse_printk_formats(struct tep_handle *tep, char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end, *fmt;
		unsigned long long addr = strtoull(line, &end, 16);

		if (end == line)
			continue;
		fmt = strchr(end, ':');
		if (!fmt)
			continue;
		fmt++;
		while (*fmt == ' ')
			fmt++;
		if (strlen(fmt + (*fmt == '"')) < 3)
			continue;
		if (tep_register_print_string(tep, fmt, addr))
			break;
	}
}

/* Version "M.N" as M * 100 + N. */
static int version_num(const char *v)
{
	char *end;
	long major = strtol(v, &end, 10), minor = 0;

	if (*end == '.')
		minor = strtol(end + 1, NULL, 10);
	return (int)(major * 100 + minor);
}

static struct tep_handle *td_parse(const void *buf, size_t size, int *errp)
{
	struct td_cursor c = { .p = buf, .end = (const unsigned char *)buf + size };
	const unsigned char *b;
	const char *version, *name;
	struct tep_handle *tep;
	uint64_t nr_sys, file_page_size;
	char *blob = NULL;
	size_t len;
	int err = -EINVAL, file_be, long_size;
	const char *what = "header";

	if (!buf || cur_bytes(&c, sizeof(td_magic), &b) || memcmp(b, td_magic, sizeof(td_magic))) {
		pr_err("tracing data: bad magic, not perf tracing data\n");
		if (errp)
			*errp = -EINVAL;
		return NULL;
	}
	if (cur_string(&c, &version) || cur_bytes(&c, 2, &b)) {
		pr_err("tracing data: truncated header\n");
		if (errp)
			*errp = -EINVAL;
		return NULL;
	}
	file_be = b[0];
	long_size = b[1];
	c.swap = (file_be != 0) != host_big_endian();
	tep = tep_alloc();
	if (!tep) {
		if (errp)
			*errp = -ENOMEM;
		return NULL;
	}
	tep_set_file_bigendian(tep, file_be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	if (cur_uint(&c, 4, &file_page_size))
		goto bad;
	tep_set_page_size(tep, (int)file_page_size);

	what = "header_page";
	if (cur_string(&c, &name) || strcmp(name, "header_page"))
		goto bad;
	err = cur_blob(&c, 8, &blob, &len);
	if (err)
		goto bad;
	if (tep_parse_header_page(tep, blob, len, long_size))
		pr_debug("tracing data: cannot parse header_page\n");
	zfree(&blob);
	what = "header_event";
	err = -EINVAL;
	if (cur_string(&c, &name) || strcmp(name, "header_event"))
		goto bad;
	err = cur_blob(&c, 8, &blob, &len);	/* not needed by libtraceevent */
	if (err)
		goto bad;
	zfree(&blob);

	what = "ftrace formats";
	err = parse_formats(tep, &c, "ftrace");
	if (err)
		goto bad;
	what = "event formats";
	err = -EINVAL;
	if (cur_uint(&c, 4, &nr_sys))
		goto bad;
	for (uint64_t i = 0; i < nr_sys; i++) {
		const char *sys;

		if (cur_string(&c, &sys))
			goto bad;
		err = parse_formats(tep, &c, sys);
		if (err)
			goto bad;
		err = -EINVAL;
	}

	what = "kallsyms";
	err = cur_blob(&c, 4, &blob, &len);
	if (err)
		goto bad;
	if (len && tep_parse_kallsyms(tep, blob))
		pr_debug("tracing data: cannot parse kallsyms\n");
	zfree(&blob);
	what = "printk formats";
	err = cur_blob(&c, 4, &blob, &len);
	if (err)
		goto bad;
	if (len)
		parse_printk_formats(tep, blob);
	zfree(&blob);
	if (version_num(version) >= 6 && c.p < c.end) {
		what = "saved cmdlines";
		err = cur_blob(&c, 8, &blob, &len);
		if (err)
			goto bad;
		if (len && tep_parse_saved_cmdlines(tep, blob))
			pr_debug("tracing data: cannot parse saved cmdlines\n");
		zfree(&blob);
	}
	if (errp)
		*errp = 0;
	return tep;

bad:
	free(blob);
	if (err == -ENOMEM) {
		pr_err("tracing data: out of memory\n");
	} else {
		err = -EINVAL;
		pr_err("tracing data: truncated or corrupt %s at byte %zu of %zu\n", what,
		       (size_t)(c.p - (const unsigned char *)buf), size);
	}
	tep_free(tep);
	if (errp)
		*errp = err;
	return NULL;
}

struct tep_handle *trace_data__parse(const void *buf, size_t size, int *errp)
{
	int status = 0;
	pid_t pid;

	/*
	 * libtraceevent 1.7 dereferences NULL on some malformed format texts
	 * (tep_parse_event); a damaged file must not crash prf, so the
	 * formats are first parsed once in a child (quietly).
	 */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		struct tep_handle *tep;

		if (fd >= 0)
			dup2(fd, 2);
		tep = td_parse(buf, size, NULL);
		_exit(tep ? 0 : 3);	/* anything else: it crashed */
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid &&
	    (WIFSIGNALED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3))) {
		pr_err("tracing data: the event formats are damaged (libtraceevent %s parsing them)\n",
		       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "failed");
		if (errp)
			*errp = -EINVAL;
		return NULL;
	}
	return td_parse(buf, size, errp);
}

int trace_data__add_local_event(struct tep_handle *tep, const char *sys, const char *name)
{
	char path[PATH_MAX];
	char *buf = NULL;
	size_t len = 0;
	int err;

	if (tep_get_events_count(tep) == 0) {
		int mnt_err = -ENOENT;
		const char *mnt = tracefs__mountpoint(&mnt_err);

		if (!mnt)
			return mnt_err;
		tep_set_long_size(tep, (int)sizeof(long));
		tep_set_page_size(tep, (int)page_size());
		tep_set_file_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		snprintf(path, sizeof(path), "%s/events/header_page", mnt);
		if (!filename__read_str(path, &buf, &len)) {
			tep_parse_header_page(tep, buf, len, (int)sizeof(long));
			zfree(&buf);
		}
		snprintf(path, sizeof(path), "%s/printk_formats", mnt);
		if (!filename__read_str(path, &buf, &len)) {
			if (len)
				tep_parse_printk_formats(tep, buf);
			zfree(&buf);
		}
	}
	err = tracefs__event_path(sys, name, "format", path, sizeof(path));
	if (err)
		return err;
	err = filename__read_str(path, &buf, &len);
	if (err)
		return err;
	if (tep_parse_event(tep, buf, len, sys))
		err = -EINVAL;
	free(buf);
	return err;
}

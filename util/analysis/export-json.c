// SPDX-License-Identifier: GPL-2.0
/*
 * --to-json: the layout of perf 6.1's `perf data convert --to-json`
 * (tools/perf/util/data-convert-json.c, read for the format only):
 *
 *   {
 *   	"linux-perf-json-version": 1,
 *   	"headers": { header-version, captured-on (the input's mtime, UTC),
 *   		data-offset, data-size, feat-offset, hostname, os-release,
 *   		arch, cpu-desc, cpuid, nrcpus-online, nrcpus-avail,
 *   		perf-version, cmdline [...] },
 *   	"samples": [ { timestamp, pid, tid, [cpu,] comm,
 *   		callchain [ { ip "0x..", [symbol, [dso (short name)]] } ] } ]
 *   }
 *
 * tab-indented, one key per line, "key": value. The callchain is the
 * sample's chain as the kernel wrote it (callee first, context markers
 * left out), or the sample ip alone without one; a frame names its DSO
 * only when it has a symbol, as perf's does.
 *
 * Written here rather than through util/lib/out.h: that writer's JSON is
 * one record per line with " : " between key and value (perf stat -j),
 * this file is perf's indented layout, compared byte for byte; strings
 * still go through its json__write_string(), so escaping is in one place.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "export-format.h"
#include "../lib/out.h"
#include "../session/resolve.h"
#include "../session/session.h"
#include "../model/dso.h"
#include "../model/map.h"

struct export_json_state {
	FILE *fp;
	uint64_t nr_samples;
};

static void json_str(FILE *fp, const char *s)
{
	json__write_string(fp, s ? s : "");
}

static void json_headers(FILE *fp, struct perf_session *s)
{
	const struct perf_env *env = &s->data.env;
	struct stat st;
	int i;

	fputs("\n\t\t\"header-version\": 1", fp);
	if (!s->data.pipe && fstat(s->data.fd, &st) == 0) {
		time_t t = st.st_mtime;
		struct tm tm;
		char buf[64];

		if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%FT%TZ", &tm))
			fprintf(fp, ",\n\t\t\"captured-on\": \"%s\"", buf);
	}
	fprintf(fp, ",\n\t\t\"data-offset\": %" PRIu64, s->data.data_offset);
	fprintf(fp, ",\n\t\t\"data-size\": %" PRIu64, s->data.data_size);
	fprintf(fp, ",\n\t\t\"feat-offset\": %" PRIu64, s->data.data_offset + s->data.data_size);
	fputs(",\n\t\t\"hostname\": ", fp);
	json_str(fp, env->hostname);
	fputs(",\n\t\t\"os-release\": ", fp);
	json_str(fp, env->os_release);
	fputs(",\n\t\t\"arch\": ", fp);
	json_str(fp, env->arch);
	fputs(",\n\t\t\"cpu-desc\": ", fp);
	json_str(fp, env->cpu_desc);
	fputs(",\n\t\t\"cpuid\": ", fp);
	json_str(fp, env->cpuid);
	fprintf(fp, ",\n\t\t\"nrcpus-online\": %u", (unsigned int)env->nr_cpus_online);
	fprintf(fp, ",\n\t\t\"nrcpus-avail\": %u", (unsigned int)env->nr_cpus_avail);
	fputs(",\n\t\t\"perf-version\": ", fp);
	json_str(fp, env->version);
	fputs(",\n\t\t\"cmdline\": [", fp);
	for (i = 0; i < env->nr_cmdline; i++) {
		fputs(i ? ",\n\t\t\t" : "\n\t\t\t", fp);
		json_str(fp, env->cmdline[i]);
	}
	fputs("\n\t\t]", fp);
}

static void *json_new(FILE *fp, struct perf_session *s, struct resolve_opts *ropts)
{
	struct export_json_state *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->fp = fp;
	/* the chain as recorded: no inline frames, no srclines, no cut
	 * below the kernel's own limit */
	memset(ropts, 0, sizeof(*ropts));
	ropts->max_stack = 1024;
	fputs("{\n\t\"linux-perf-json-version\": 1,\n\t\"headers\": {", fp);
	json_headers(fp, s);
	fputs("\n\t},\n\t\"samples\": [", fp);
	return j;
}

static void json_frame(FILE *fp, const struct callchain_frame *f, bool first)
{
	fprintf(fp, "%s\n\t\t\t\t{\n\t\t\t\t\t\"ip\": \"0x%" PRIx64 "\"", first ? "" : ",", f->ip);
	if (f->sym && f->sym->name[0]) {
		fputs(",\n\t\t\t\t\t\"symbol\": ", fp);
		json__write_string(fp, f->sym->name);
		if (f->map && f->map->dso && f->map->dso->short_name && f->map->dso->short_name[0]) {
			fputs(",\n\t\t\t\t\t\"dso\": ", fp);
			json__write_string(fp, f->map->dso->short_name);
		}
	}
	fputs("\n\t\t\t\t}", fp);
}

static int json_sample(void *priv, struct perf_session *s, struct resolved_sample *rs)
{
	struct export_json_state *j = priv;
	const struct perf_sample *sample = rs->sample;
	FILE *fp = j->fp;
	bool first = true;

	fputs(j->nr_samples++ ? ",\n\t\t{" : "\n\t\t{", fp);
	fprintf(fp, "\n\t\t\t\"timestamp\": %" PRId64, (int64_t)sample->time);
	fprintf(fp, ",\n\t\t\t\"pid\": %d", rs->thread ? (int)rs->thread->pid : (int)sample->pid);
	fprintf(fp, ",\n\t\t\t\"tid\": %d", rs->thread ? (int)rs->thread->tid : (int)sample->tid);
	if (sample->cpu != (uint32_t)-1)
		fprintf(fp, ",\n\t\t\t\"cpu\": %d", (int)sample->cpu);
	fputs(",\n\t\t\t\"comm\": ", fp);
	json_str(fp, rs->comm);
	fputs(",\n\t\t\t\"callchain\": [", fp);
	for (unsigned int i = 0; i < rs->cursor.nr; i++) {
		const struct callchain_frame *f = &rs->cursor.frames[i];

		if (f->inlined || f->truncated)
			continue;
		json_frame(fp, f, first);
		first = false;
	}
	fputs("\n\t\t\t]\n\t\t}", fp);
	return ferror(fp) ? -EIO : 0;
}

static int json_end(void *priv, struct perf_session *s)
{
	struct export_json_state *j = priv;

	fputs("\n\t]\n}\n", j->fp);
	return ferror(j->fp) ? -EIO : 0;
}

static void json_free(void *priv)
{
	free(priv);
}

const struct export_format export_json = {
	.name = "json",
	.new = json_new,
	.sample = json_sample,
	.end = json_end,
	.free = json_free,
};

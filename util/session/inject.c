// SPDX-License-Identifier: GPL-2.0
/* perf.data rewriting for prf inject; see inject.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inject.h"
#include "inject-jit.h"
#include "inject-sched.h"
#include "../format/data.h"
#include "../format/features-write.h"
#include "../format/writer.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"
#include "../model/dso.h"
#include "../model/record-hits.h"

#define OUT_BUF (256 * 1024)

/* A DSO an MMAP record named (--buildid-all). */
struct inj_dso {
	char *name;
	bool kernel;
	bool has_bid;
	uint8_t bid[20];
	uint8_t bid_size;
};

struct inject {
	const struct inject_opts *opts;
	struct perf_data in;
	struct perf_data_writer w;
	bool out_pipe;
	bool header_done;
	struct writer_attr *attrs;
	int nr_attrs;
	char *buf;		/* records not yet written */
	size_t len;
	struct record_hits *hits;	/* -b */
	bool saw_vdso;
	struct inj_dso *dsos;		/* --buildid-all */
	size_t nr_dsos, alloc_dsos;
	struct inject_jit *jit;		/* --jit */
	struct inject_sched *sched;	/* -s */
	int err;
};

/* ---- output ---- */

static int inject__flush(struct inject *inj)
{
	int err = 0;

	if (inj->len)
		err = writer__write(&inj->w, inj->buf, inj->len);
	inj->len = 0;
	return err;
}

static int inject__attrs(struct inject *inj)
{
	struct evlist *evlist = inj->in.evlist;
	struct evsel *evsel;
	int i = 0;

	free(inj->attrs);
	inj->attrs = calloc((size_t)evlist->nr_entries + 1, sizeof(*inj->attrs));
	if (!inj->attrs)
		return -ENOMEM;
	evlist__for_each_entry(evlist, evsel) {
		inj->attrs[i].attr = &evsel->attr;
		inj->attrs[i].ids = evsel->ids;
		inj->attrs[i].nr_ids = evsel->ids ? (size_t)evsel->nr_cpus * (size_t)evsel->nr_threads : 0;
		i++;
	}
	inj->nr_attrs = i;
	return 0;
}

/* Features to copy to a pipe (file input): as HEADER_FEATURE records; the
 * build-id table as the BUILD_ID records it is made of; tracing data in a
 * record of its own, last. */
static int inject__pipe_features(struct inject *inj)
{
	const void *buf;
	size_t len;
	int err = 0;

	for (int feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE && !err; feat++) {
		if (feat == HEADER_TRACING_DATA || feat == HEADER_COMPRESSED ||
		    perf_data__feature_raw(&inj->in, feat, &buf, &len))
			continue;
		if (feat == HEADER_BUILD_ID) {
			if (!inj->opts->build_ids && !inj->opts->buildid_all)
				err = writer__write(&inj->w, buf, len);
			continue;
		}
		if (feat == HEADER_CMDLINE) {
			struct strbuf cmd = STRBUF_INIT;

			err = features__cmdline(&cmd, inj->opts->argc, inj->opts->argv);
			if (!err)
				err = writer__write_feature_record(&inj->w, feat, cmd.buf, cmd.len);
			strbuf_release(&cmd);
			continue;
		}
		err = writer__write_feature_record(&inj->w, feat, buf, len);
	}
	if (!err && !perf_data__feature_raw(&inj->in, HEADER_TRACING_DATA, &buf, &len))
		err = writer__write_tracing_data(&inj->w, buf, len);
	return err;
}

/* The output's header: a file's once every attr is known (before the
 * first record of the data), a pipe's at once (a pipe input's attrs pass
 * through as its HEADER_ATTR records). */
static int inject__header(struct inject *inj)
{
	int err;

	if (inj->header_done)
		return 0;
	inj->header_done = true;
	if (inj->out_pipe && inj->in.pipe)
		return writer__write_header(&inj->w, NULL, 0);
	err = inject__attrs(inj);
	if (!err)
		err = writer__write_header(&inj->w, inj->attrs, inj->nr_attrs);
	if (!err && inj->out_pipe)
		err = inject__pipe_features(inj);
	return err;
}

/* Queue one record for the output. */
static int inject__emit(struct inject *inj, const void *rec, size_t size)
{
	int err = inject__header(inj);

	if (err)
		return err;
	if (inj->len + size > OUT_BUF) {
		err = inject__flush(inj);
		if (err)
			return err;
	}
	memcpy(inj->buf + inj->len, rec, size);
	inj->len += size;
	return 0;
}

/* ---- build-ids ---- */

/* Build-id of a DSO named in an MMAP record, as perf reads it. */
static int inject__read_bid(const char *name, bool kernel, uint8_t bid[20])
{
	char path[512];
	size_t l = strlen(name);

	if (kernel && !strncmp(name, "[kernel.kallsyms]", 17))
		return features__read_build_id("/sys/kernel/notes", true, bid);
	if (kernel && name[0] == '[' && l > 2) {
		snprintf(path, sizeof(path), "/sys/module/%.*s/notes/.note.gnu.build-id",
			 (int)(l - 2), name + 1);
		return features__read_build_id(path, true, bid);
	}
	if (name[0] != '/' || !strncmp(name, "//", 2))
		return -ENOENT;
	return features__read_build_id(name, false, bid);
}

/* --buildid-all: note the DSO of an MMAP/MMAP2 record (once per name). */
static int inject__note_dso(struct inject *inj, const union perf_event *ev)
{
	const char *name;
	size_t max;
	struct inj_dso *d;
	uint16_t cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA)
		return 0;
	if (ev->header.type == PERF_RECORD_MMAP) {
		name = ev->mmap.filename;
		max = ev->header.size - offsetof(struct perf_record_mmap, filename);
	} else {
		name = ev->mmap2.filename;
		max = ev->header.size - offsetof(struct perf_record_mmap2, filename);
	}
	if (!memchr(name, '\0', max))
		return 0;
	for (size_t i = 0; i < inj->nr_dsos; i++)
		if (!strcmp(inj->dsos[i].name, name))
			return 0;
	if (inj->nr_dsos == inj->alloc_dsos) {
		size_t n = inj->alloc_dsos ? inj->alloc_dsos * 2 : 64;
		void *p = realloc(inj->dsos, n * sizeof(*inj->dsos));

		if (!p)
			return -ENOMEM;
		inj->dsos = p;
		inj->alloc_dsos = n;
	}
	d = &inj->dsos[inj->nr_dsos];
	memset(d, 0, sizeof(*d));
	d->name = strdup(name);
	if (!d->name)
		return -ENOMEM;
	d->kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (ev->header.type == PERF_RECORD_MMAP2 &&
	    (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    ev->mmap2.build_id_size && ev->mmap2.build_id_size <= 20) {
		memcpy(d->bid, ev->mmap2.build_id, ev->mmap2.build_id_size);
		d->bid_size = ev->mmap2.build_id_size;
		d->has_bid = true;
	}
	inj->nr_dsos++;
	return 0;
}

static bool mmap_names_vdso(const union perf_event *ev)
{
	const char *name = ev->header.type == PERF_RECORD_MMAP ? ev->mmap.filename : ev->mmap2.filename;
	size_t off = (size_t)(name - (const char *)ev);

	return ev->header.size >= off + 7 && !memcmp(name, "[vdso]", 7);
}

/*
 * The build-ids to write: the DSOs hit (-b) or mapped (--buildid-all),
 * then [vdso] when a process mapped it (perf writes it either way).
 * *out malloc'd; its names point into inj or static storage. Count or
 * -ENOMEM.
 */
static int inject__build_ids(struct inject *inj, struct feat_build_id **out)
{
	struct feat_build_id *b = NULL;
	int n = 0;

	*out = NULL;
	if (inj->hits) {
		n = record_hits__build_ids(inj->hits, false, &b);
		if (n < 0)
			return n;
	} else {
		b = calloc(inj->nr_dsos + 2, sizeof(*b));
		if (!b)
			return -ENOMEM;
		for (size_t i = 0; i < inj->nr_dsos; i++) {
			struct inj_dso *d = &inj->dsos[i];
			int sz = d->has_bid ? d->bid_size : inject__read_bid(d->name, d->kernel, d->bid);
			const char *name = d->name;

			if (sz <= 0)
				continue;
			if (d->kernel && !strncmp(name, "[kernel.kallsyms]", 17))
				name = "[kernel.kallsyms]";
			b[n++] = (struct feat_build_id){ .filename = name, .size = (uint8_t)sz,
							 .kernel = d->kernel };
			memcpy(b[n - 1].bid, d->bid, 20);
		}
	}
	if (inj->saw_vdso) {
		struct feat_build_id vb;
		bool have = false;

		for (int i = 0; i < n; i++)
			have |= !strcmp(b[i].filename, "[vdso]");
		if (!have && !vdso__feat_build_id(&vb)) {
			void *p = realloc(b, (size_t)(n + 1) * sizeof(*b));

			if (!p) {
				free(b);
				return -ENOMEM;
			}
			b = p;
			b[n++] = vb;
		}
	}
	*out = b;
	return n;
}

/* ---- records ---- */

static int inject__user_record(struct inject *inj, union perf_event *ev, uint64_t off)
{
	bool replace_bids = inj->opts->build_ids || inj->opts->buildid_all;
	int r = perf_data__apply_user_event(&inj->in, ev, off);

	if (r)
		return r > 0 ? 0 : r;
	switch (ev->header.type) {
	case PERF_RECORD_HEADER_ATTR:
		/* a file has them in its attr section */
		return inj->out_pipe ? inject__emit(inj, ev, ev->header.size) : 0;
	case PERF_RECORD_HEADER_FEATURE:
		/* a file gets them as sections at the end */
		if (!inj->out_pipe || (replace_bids && ev->feat.feat_id == HEADER_BUILD_ID) ||
		    ev->feat.feat_id == HEADER_COMPRESSED)
			return 0;
		return inject__emit(inj, ev, ev->header.size);
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (!inj->out_pipe || !inj->in.env.tracing_data)
			return 0;
		r = inject__header(inj);
		if (!r)
			r = inject__flush(inj);
		return r ? r : writer__write_tracing_data(&inj->w, inj->in.env.tracing_data,
							  inj->in.env.tracing_data_size);
	case PERF_RECORD_FINISHED_ROUND:
		if (inj->hits)
			(void)record_hits__round(inj->hits);	/* -ENOMEM: the tracker goes on */
		if (inj->sched && (r = inject_sched__round(inj->sched)))
			return r;
		break;
	default:
		break;
	}
	return inject__emit(inj, ev, ev->header.size);
}

static int inject__record(void *ctx, union perf_event *ev, uint64_t off, struct rec_chunk *owner)
{
	struct inject *inj = ctx;
	uint32_t type = ev->header.type;
	int err;

	(void)owner;
	if (type >= PERF_RECORD_USER_TYPE_START)
		return inject__user_record(inj, ev, off);
	err = inject__header(inj);
	if (err)
		return err;
	if (inj->jit) {
		/* the JIT images' maps go in before the first record as new */
		uint64_t t = perf_data__event_time(&inj->in, ev);

		if (t != ~0ULL && (err = inject_jit__flush(inj->jit, t)))
			return err;
	}
	if ((inj->opts->build_ids && !inj->opts->buildid_all) && !inj->hits) {
		inj->hits = record_hits__new(inj->in.evlist);
		if (!inj->hits)
			return -ENOMEM;
	}
	if (inj->hits)
		(void)record_hits__event(inj->hits, ev);	/* -ENOMEM: one record less */
	if (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) {
		if (mmap_names_vdso(ev))
			inj->saw_vdso = true;
		if (inj->opts->buildid_all) {
			err = inject__note_dso(inj, ev);
			if (err)
				return err;
		}
		if (inj->jit) {
			/* a jitdump's mapping is replaced by its images' */
			err = inject_jit__mmap(inj->jit, ev, &inj->in);
			if (err <= 0)
				return err;
		}
	}
	if (inj->sched)
		return inject_sched__record(inj->sched, ev);
	return inject__emit(inj, ev, ev->header.size);
}

/* inject_jit's and inject_sched's way to add a record to the output. */
static int inject__jit_emit(void *ctx, const void *rec, size_t size)
{
	return inject__emit(ctx, rec, size);
}

/* ---- the end ---- */

/* File output: the input's features (the build-id table replaced when
 * asked), then the header rewritten. */
static int inject__file_end(struct inject *inj, const struct strbuf *bids,
			    const struct strbuf *cmdline)
{
	struct writer_feat feats[HEADER_LAST_FEATURE];
	bool replace_bids = inj->opts->build_ids || inj->opts->buildid_all;
	int nr = 0;

	for (int feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++) {
		const void *buf;
		size_t len;

		if (feat == HEADER_COMPRESSED)
			continue;
		if (feat == HEADER_CMDLINE && cmdline->len) {
			feats[nr++] = (struct writer_feat){ feat, cmdline->buf, cmdline->len };
			continue;
		}
		if (feat == HEADER_BUILD_ID && replace_bids) {
			if (bids->len)
				feats[nr++] = (struct writer_feat){ feat, bids->buf, bids->len };
			continue;
		}
		if (feat == HEADER_TRACING_DATA && inj->in.pipe) {
			if (inj->in.env.tracing_data)
				feats[nr++] = (struct writer_feat){ feat, inj->in.env.tracing_data,
								    inj->in.env.tracing_data_size };
			continue;
		}
		if (!perf_data__feature_raw(&inj->in, feat, &buf, &len))
			feats[nr++] = (struct writer_feat){ feat, buf, len };
	}
	return writer__finish(&inj->w, inj->attrs, inj->nr_attrs, feats, nr);
}

static int inject__end(struct inject *inj)
{
	struct feat_build_id *bids = NULL;
	struct strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	int n = 0, err;

	err = inject__header(inj);
	if (!err && inj->sched)
		err = inject_sched__finish(inj->sched);
	if (!err && inj->jit)
		err = inject_jit__flush(inj->jit, ~0ULL);
	if (!err)
		err = inject__flush(inj);
	if (err)
		return err;
	if (inj->opts->build_ids || inj->opts->buildid_all) {
		n = inject__build_ids(inj, &bids);
		if (n < 0)
			return n;
	}
	err = features__build_id_records(&sb, bids, n);
	if (!err && inj->out_pipe)
		err = writer__write(&inj->w, sb.buf, sb.len);
	else if (!err && !(err = features__cmdline(&cmd, inj->opts->argc, inj->opts->argv)))
		err = inject__file_end(inj, &sb, &cmd);
	strbuf_release(&sb);
	strbuf_release(&cmd);
	free(bids);
	return err;
}

int inject__run(const struct inject_opts *opts)
{
	struct inject inj = { .opts = opts };
	int err, rerr;

	inj.buf = malloc(OUT_BUF);
	if (!inj.buf)
		return -ENOMEM;
	inj.in.ops.record = inject__record;
	inj.in.ops_ctx = &inj;
	inj.w.fd = -1;
	err = perf_data__open(&inj.in, opts->input);
	if (err)
		goto out;
	if (inj.in.needs_swap) {
		pr_err("%s: written on the other byte order; prf inject copies only native files\n",
		       opts->input);
		err = -EOPNOTSUPP;
		goto out;
	}
	if (opts->jit) {
		inj.jit = inject_jit__new(inject__jit_emit, &inj);
		if (!inj.jit) {
			err = -ENOMEM;
			goto out;
		}
	}
	if (opts->sched_stat) {
		inj.sched = inject_sched__new(&inj.in, inject__jit_emit, &inj);
		if (!inj.sched) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = writer__open(&inj.w, opts->output, 0);
	if (err)
		goto out;
	inj.out_pipe = inj.w.is_pipe;
	if (inj.out_pipe || !inj.in.pipe) {
		err = inject__header(&inj);
		if (err)
			goto out_close;
	}
	rerr = perf_data__read(&inj.in);
	err = inject__end(&inj);
	if (!err)
		err = rerr;
out_close:
	if (err && err != -EIO && !inj.out_pipe && !inj.header_done)
		writer__abort(&inj.w);
	else
		writer__close(&inj.w);
out:
	if (err && err != -EINVAL && err != -EOPNOTSUPP && err != -EIO)
		pr_err("prf inject: %s\n", strerror(-err));
	inject_jit__delete(inj.jit);
	inject_sched__delete(inj.sched);
	record_hits__delete(inj.hits);
	for (size_t i = 0; i < inj.nr_dsos; i++)
		free(inj.dsos[i].name);
	free(inj.dsos);
	free(inj.attrs);
	free(inj.buf);
	perf_data__close(&inj.in);
	return err;
}

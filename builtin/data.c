// SPDX-License-Identifier: GPL-2.0
/*
 * prf data: developer views of a perf.data file through the shared reader.
 *   prf data dump   -i FILE   one line per record (like perf report -D)
 *   prf data header -i FILE   the header as perf report --header-only
 *   prf data stats  -i FILE   record counts as perf report --stats
 *   prf data convert -i FILE --to-FORMAT OUT   a profile file other tools
 *                             read (util/analysis/export-*.c)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/debug.h"
#include "../util/lib/util.h"
#include "../util/session/session.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/analysis/export-feed.h"
#include "../util/analysis/export-format.h"
#include "../util/analysis/sample-filter.h"
#include "../util/session/resolve.h"
#include "../ui/progress.h"

struct data_opts {
	const char *input;
	bool ordered;
	bool full;
	bool no_callchain;
	/* -f: a partial read of a damaged file exits 0; convert: also
	 * overwrite an existing output file */
	bool force;
	/* convert */
	const char *to[4];		/* --to-json, --to-pprof, --to-gecko, --to-speedscope */
	const char *comms, *pids, *tids, *cpus, *event, *time;
};

/* The formats in the order of data_opts.to[]. */
static const char *const convert_names[] = { "json", "pprof", "gecko", "speedscope" };

struct dump_tool {
	struct perf_tool tool;
	struct perf_session *session;
	struct data_opts *opts;
	FILE *out;
};

static void dump_line(struct dump_tool *dt, union perf_event *ev)
{
	fprintf(dt->out, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", perf_data__cur_offset(&dt->session->data),
		ev->header.size, perf_event__name(ev->header.type));
}

static void dump_sample_id(struct dump_tool *dt, struct perf_sample *s)
{
	if (s->time != ~0ULL)
		fprintf(dt->out, " time %" PRIu64, s->time);
	if (s->cpu != (u32)-1)
		fprintf(dt->out, " cpu %u", s->cpu);
	if (s->pid != (u32)-1)
		fprintf(dt->out, " pid %d/%d", (int)s->pid, (int)s->tid);
	if (s->id != ~0ULL)
		fprintf(dt->out, " id %" PRIu64, s->id);
}

/* The u64 sample fields, in the order the dump prints them. */
static const struct {
	uint64_t bit;
	const char *name;
	size_t off;
	bool hex;
} u64_fields[] = {
	{ PERF_SAMPLE_IP, "ip", offsetof(struct perf_sample, ip), true },
	{ PERF_SAMPLE_PERIOD, "period", offsetof(struct perf_sample, period), false },
	{ PERF_SAMPLE_ADDR, "addr", offsetof(struct perf_sample, addr), true },
	{ PERF_SAMPLE_STREAM_ID, "stream_id", offsetof(struct perf_sample, stream_id), false },
	{ PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "weight", offsetof(struct perf_sample, weight), false },
	{ PERF_SAMPLE_DATA_SRC, "data_src", offsetof(struct perf_sample, data_src), true },
	{ PERF_SAMPLE_TRANSACTION, "transaction", offsetof(struct perf_sample, transaction), true },
	{ PERF_SAMPLE_PHYS_ADDR, "phys_addr", offsetof(struct perf_sample, phys_addr), true },
	{ PERF_SAMPLE_CGROUP, "cgroup", offsetof(struct perf_sample, cgroup), false },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "data_page_size", offsetof(struct perf_sample, data_page_size), false },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "code_page_size", offsetof(struct perf_sample, code_page_size), false },
};

static int dump_sample(struct perf_tool *tool, union perf_event *ev, struct perf_sample *s,
		       struct evsel *evsel, struct machine *machine)
{
	struct dump_tool *dt = container_of(tool, struct dump_tool, tool);
	uint64_t t = evsel->attr.sample_type;
	FILE *o = dt->out;

	dump_line(dt, ev);
	fprintf(o, " %s misc %#x", evsel__name(evsel), s->misc);
	dump_sample_id(dt, s);
	for (size_t i = 0; i < sizeof(u64_fields) / sizeof(u64_fields[0]); i++) {
		uint64_t v;

		if (!(t & u64_fields[i].bit))
			continue;
		memcpy(&v, (const char *)s + u64_fields[i].off, sizeof(v));
		fprintf(o, u64_fields[i].hex ? " %s %#" PRIx64 : " %s %" PRIu64, u64_fields[i].name, v);
	}
	if (t & PERF_SAMPLE_READ)
		fprintf(o, " read %u bytes", s->read_size);
	if (s->callchain) {
		uint64_t i;

		fprintf(o, " callchain %" PRIu64 ":", s->callchain->nr);
		if (!dt->opts->no_callchain)
			for (i = 0; i < s->callchain->nr; i++)
				fprintf(o, " %#" PRIx64, s->callchain->ips[i]);
	}
	if (t & PERF_SAMPLE_RAW)
		fprintf(o, " raw %u bytes", s->raw_size);
	if (s->branch_stack)
		fprintf(o, " branch_stack %" PRIu64, s->branch_stack->nr);
	if (t & PERF_SAMPLE_REGS_USER)
		fprintf(o, " user_regs abi %" PRIu64 " mask %#" PRIx64, s->user_regs.abi, s->user_regs.mask);
	if (t & PERF_SAMPLE_STACK_USER)
		fprintf(o, " user_stack %" PRIu64 "/%" PRIu64, s->user_stack.dyn_size, s->user_stack.size);
	if (t & PERF_SAMPLE_REGS_INTR)
		fprintf(o, " intr_regs abi %" PRIu64, s->intr_regs.abi);
	fputc('\n', o);
	return 0;
}

static int dump_side(struct perf_tool *tool, union perf_event *ev, struct perf_sample *s,
		     struct machine *machine)
{
	struct dump_tool *dt = container_of(tool, struct dump_tool, tool);
	FILE *o = dt->out;

	dump_line(dt, ev);
	switch (ev->header.type) {
	case PERF_RECORD_MMAP:
		fprintf(o, " %u/%u: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %.*s", ev->mmap.pid, ev->mmap.tid,
			(uint64_t)ev->mmap.start, (uint64_t)ev->mmap.len, (uint64_t)ev->mmap.pgoff,
			perf_event__strlen(ev, offsetof(struct perf_record_mmap, filename), PATH_MAX), ev->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		fprintf(o, " %u/%u: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "] prot %#x flags %#x: %.*s",
			ev->mmap2.pid, ev->mmap2.tid, (uint64_t)ev->mmap2.start, (uint64_t)ev->mmap2.len,
			(uint64_t)ev->mmap2.pgoff, ev->mmap2.prot, ev->mmap2.flags,
			perf_event__strlen(ev, offsetof(struct perf_record_mmap2, filename), PATH_MAX),
			ev->mmap2.filename);
		break;
	case PERF_RECORD_COMM:
		fprintf(o, " %.*s:%u/%u%s",
			perf_event__strlen(ev, offsetof(struct perf_record_comm, comm), sizeof(ev->comm.comm)),
			ev->comm.comm, ev->comm.pid, ev->comm.tid,
			(ev->header.misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "");
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(o, " (%u:%u):(%u:%u)", ev->fork.pid, ev->fork.tid, ev->fork.ppid, ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
		fprintf(o, " lost %" PRIu64, (uint64_t)ev->lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(o, " lost %" PRIu64, (uint64_t)ev->lost_samples.lost);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(o, " addr %#" PRIx64 " len %u type %u flags %#x", (uint64_t)ev->ksymbol.addr,
			ev->ksymbol.len, ev->ksymbol.ksym_type, ev->ksymbol.flags);
		break;
	default:
		break;
	}
	fputc(' ', o);
	fputc('|', o);
	dump_sample_id(dt, s);
	fputc('\n', o);
	return 0;
}

static int dump_user(struct perf_session *session, union perf_event *ev)
{
	struct dump_tool *dt = container_of(session->tool, struct dump_tool, tool);

	dump_line(dt, ev);
	if (ev->header.type == PERF_RECORD_HEADER_ATTR)
		fprintf(dt->out, " type %u config %#" PRIx64 " sample_type %#" PRIx64, ev->attr.attr.type,
			(uint64_t)ev->attr.attr.config, (uint64_t)ev->attr.attr.sample_type);
	if (ev->header.type == PERF_RECORD_HEADER_FEATURE)
		fprintf(dt->out, " feature %" PRIu64, (uint64_t)ev->feat.feat_id);
	fputc('\n', dt->out);
	return 0;
}

static struct perf_session *open_session(struct data_opts *o, struct perf_tool *tool)
{
	struct perf_session *s;
	int err = 0;

	s = perf_session__new(o->input, tool, &err);
	if (!s && err == -ENOMEM)
		pr_err("prf data: cannot read %s: %s\n", o->input, strerror(-err));
	return s;
}

/* The end of a subcommand: the read summary and the exit status
 * (session.h: perf_session__read_status()); s is deleted. */
static int data_finish(struct data_opts *o, struct perf_session *s, const char *cmd, int err)
{
	int status = 1;

	if (err && !perf_session__input_damage(s, err))
		pr_err("prf %s: processing %s failed: %s\n", cmd, o->input, strerror(-err));
	else
		status = perf_session__read_status(s, cmd, o->force);
	perf_session__delete(s);
	return status;
}

static int data_dump(struct data_opts *o)
{
	struct dump_tool dt;
	struct perf_session *s;
	event_op *ops[] = { &dt.tool.mmap, &dt.tool.mmap2, &dt.tool.comm, &dt.tool.namespaces,
			    &dt.tool.cgroup, &dt.tool.fork, &dt.tool.exit, &dt.tool.lost,
			    &dt.tool.lost_samples, &dt.tool.aux, &dt.tool.itrace_start,
			    &dt.tool.context_switch, &dt.tool.throttle, &dt.tool.unthrottle,
			    &dt.tool.ksymbol, &dt.tool.bpf, &dt.tool.text_poke, &dt.tool.read };
	event_op2 *ops2[] = { &dt.tool.attr, &dt.tool.tracing_data, &dt.tool.build_id, &dt.tool.id_index,
			      &dt.tool.feature, &dt.tool.time_conv, &dt.tool.finished_round,
			      &dt.tool.finished_init, &dt.tool.compressed, &dt.tool.stat,
			      &dt.tool.stat_round, &dt.tool.thread_map, &dt.tool.cpu_map,
			      &dt.tool.stat_config, &dt.tool.event_update, &dt.tool.auxtrace_info };
	size_t i;
	int err;

	memset(&dt, 0, sizeof(dt));
	perf_tool__init(&dt.tool, o->ordered);
	dt.tool.sample = dump_sample;
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		*ops[i] = dump_side;
	for (i = 0; i < ARRAY_SIZE(ops2); i++)
		*ops2[i] = dump_user;
	dt.opts = o;
	dt.out = stdout;
	s = open_session(o, &dt.tool);
	if (!s)
		return 1;
	dt.session = s;
	if (!isatty(STDOUT_FILENO))	/* the bar would cut into the lines */
		s->progress = ui_progress__reading;
	err = perf_session__process_events(s);
	fflush(stdout);
	return data_finish(o, s, "data dump", err);
}

static int data_header(struct data_opts *o)
{
	struct perf_tool tool;
	struct perf_session *s;
	int err = 0;

	perf_tool__init(&tool, false);
	s = open_session(o, &tool);
	if (!s)
		return 1;
	if (s->data.pipe)	/* features arrive as records */
		err = perf_session__process_events(s);
	perf_data__fprintf_info(&s->data, stdout, o->full);
	fflush(stdout);
	return data_finish(o, s, "data header", err);
}

static int data_stats(struct data_opts *o)
{
	struct perf_tool tool;
	struct perf_session *s;
	int err;

	perf_tool__init(&tool, true);
	s = open_session(o, &tool);
	if (!s)
		return 1;
	s->progress = ui_progress__reading;
	err = perf_session__process_events(s);
	perf_data__fprintf_stats(&s->data, stdout);
	fflush(stdout);
	return data_finish(o, s, "data stats", err);
}

struct convert_tool {
	struct perf_tool tool;
	struct perf_session *session;
	const struct export_format *fmt;
	void *priv;
	struct export_feed *feed;	/* hands resolved samples to the encoder */
	struct resolved_sample rs;
	struct resolve_opts ropts;
	struct sample_filter filter;
	struct sample_time_filter time;	/* --time */
	const char *event;
	uint64_t nr_samples;
};

static int convert_sample(struct perf_tool *tool, union perf_event *ev, struct perf_sample *sample,
			  struct evsel *evsel, struct machine *machine)
{
	struct convert_tool *ct = container_of(tool, struct convert_tool, tool);
	struct resolved_sample *rs = &ct->rs;
	int err;

	if (!evsel)
		evsel = sample->evsel;
	if (!evsel)
		return 0;
	if (ct->event && strcmp(evsel__name(evsel), ct->event))
		return 0;
	if (!sample_time_filter__match(&ct->time, sample->time))
		return 0;
	sample__resolve(ct->session, sample, evsel, rs);
	if (sample_filter__active(&ct->filter) &&
	    !sample_filter__match(&ct->filter, sample->pid, sample->tid, sample->cpu, rs->comm))
		return 0;
	err = resolved_sample__callchain(ct->session, rs, &ct->ropts);
	if (err)
		return err;
	ct->nr_samples++;
	return export_feed__add(ct->feed, rs);
}

static int convert_barrier(struct perf_tool *tool)
{
	struct convert_tool *ct = container_of(tool, struct convert_tool, tool);
	int err = export_feed__sync(ct->feed);

	if (!err && ct->fmt->barrier && ct->priv)
		ct->fmt->barrier(ct->priv);
	return err;
}

/*
 * Encoding on a second thread pays for frame-pointer callchains
 * (resolving and encoding cost about the same); DWARF samples are
 * dominated by unwinding, which has workers of its own (as report's
 * hists feed).
 */
static bool convert_threaded(struct perf_session *s)
{
	struct evsel *evsel;

	if (s->data.evlist)
		evlist__for_each_entry(s->data.evlist, evsel)
			if (evsel__has_dwarf_stack(evsel))
				return false;
	return true;
}

/* Which --to-FORMAT was given: its index, -1 (message printed) unless
 * exactly one. */
static int convert_which(const struct data_opts *o)
{
	int which = -1;

	for (int i = 0; i < (int)ARRAY_SIZE(convert_names); i++) {
		if (!o->to[i])
			continue;
		if (which >= 0) {
			pr_err("prf data convert: give one of --to-json, --to-pprof, --to-gecko, --to-speedscope\n");
			return -1;
		}
		which = i;
	}
	if (which < 0)
		pr_err("prf data convert: no output format: --to-json, --to-pprof, --to-gecko or --to-speedscope FILE\n");
	return which;
}

static int data_convert(struct data_opts *o)
{
	struct sample_filter_args fa = { .cmd = "data convert", .comms = o->comms, .pids = o->pids,
					 .tids = o->tids, .cpus = o->cpus };
	struct convert_tool ct;
	struct export_file out;
	struct stat st;
	const char *path;
	bool committed = false;
	int which, err, status = 1;

	which = convert_which(o);
	if (which < 0)
		return 129;
	path = o->to[which];
	memset(&ct, 0, sizeof(ct));
	if (sample_filter__parse(&ct.filter, &fa) ||
	    sample_time_filter__parse(&ct.time, "data convert", o->time)) {
		sample_filter__exit(&ct.filter);
		sample_time_filter__exit(&ct.time);
		return 129;
	}
	ct.event = o->event;
	ct.fmt = export_format__find(convert_names[which]);
	if (!o->force && strcmp(path, "-") && stat(path, &st) == 0) {
		pr_err("prf data convert: %s exists; use --force to overwrite it\n", path);
		sample_filter__exit(&ct.filter);
		return 1;
	}
	perf_tool__init(&ct.tool, true);
	ct.tool.sample = convert_sample;
	ct.tool.model_barrier = convert_barrier;
	if (resolved_sample__init(&ct.rs, true) || export_file__open(&out, path)) {
		sample_filter__exit(&ct.filter);
		resolved_sample__exit(&ct.rs);
		return 1;
	}
	ct.session = open_session(o, &ct.tool);
	if (!ct.session)
		goto out;
	if (o->time && sample_time_filter__resolve(&ct.time, ct.session->data.env.sample_time_start,
					ct.session->data.env.sample_time_end)) {
		pr_err("prf data convert: --time %s: percent ranges need the file's sample times "
		       "(HEADER_SAMPLE_TIME), which %s has not\n", o->time, o->input);
		status = 129;
		goto out;
	}
	perf_session__enable_off_cpu(ct.session);
	ct.priv = ct.fmt->new(out.fp, ct.session, &ct.ropts);
	if (ct.priv)
		ct.feed = export_feed__new(ct.fmt, ct.priv, ct.session, convert_threaded(ct.session));
	if (!ct.feed) {
		pr_err("prf data convert: %s\n", strerror(ENOMEM));
		goto out;
	}
	ct.session->progress = ui_progress__reading;
	err = perf_session__process_events(ct.session);
	{
		int ferr = export_feed__sync(ct.feed);	/* the samples still queued */

		if (!err)
			err = ferr;
	}
	if (err && !perf_session__input_damage(ct.session, err)) {
		pr_err("prf data convert: converting %s failed: %s\n", o->input, strerror(-err));
		goto out;
	}
	err = ct.fmt->end(ct.priv, ct.session);
	if (err) {
		pr_err("prf data convert: writing %s failed: %s\n", path, strerror(-err));
		goto out;
	}
	if (export_file__commit(&out))
		goto out;
	if (!out.to_stdout) {
		if (stat(path, &st) < 0)
			st.st_size = 0;
		fprintf(stderr, "[ prf data convert: Converted '%s' into %s data '%s' ]\n", o->input,
			which == 0 ? "JSON" : convert_names[which], path);
		fprintf(stderr, "[ prf data convert: Converted and wrote %.3f MB (%" PRIu64 " samples) ]\n",
			(double)st.st_size / 1024 / 1024, ct.nr_samples);
	}
	/* a damaged input: what was read is converted; the summary, and exit 1
	 * for a partial result unless -f */
	status = perf_session__read_status(ct.session, "data convert", o->force);
	committed = true;
out:
	if (!committed)
		export_file__abort(&out);
	export_feed__delete(ct.feed);	/* before the encoder it calls */
	if (ct.priv)
		ct.fmt->free(ct.priv);
	if (ct.session)
		perf_session__delete(ct.session);
	resolved_sample__exit(&ct.rs);
	sample_filter__exit(&ct.filter);
	sample_time_filter__exit(&ct.time);
	return status;
}

int cmd_data(int argc, const char **argv)
{
	struct data_opts o = { .input = "perf.data" };
	const char *const usage[] = {
		"prf data dump [-i FILE] [--ordered] [--no-callchain] [-f]",
		"prf data header [-i FILE] [-I] [-f]",
		"prf data stats [-i FILE] [-f]",
		"prf data convert [-i FILE] [-f] --to-json|--to-pprof|--to-gecko|--to-speedscope OUT",
		NULL
	};
	const struct option options[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name ('-' for stdin)"),
		OPT_BOOLEAN(0, "ordered", &o.ordered, "dump: deliver records in time order"),
		OPT_BOOLEAN(0, "no-callchain", &o.no_callchain, "dump: print callchain depth only"),
		OPT_BOOLEAN('I', "header-full", &o.full, "header: show all feature info"),
		OPT_BOOLEAN('f', "force", &o.force,
			    "exit 0 with a partial read of a damaged file; convert: overwrite OUT"),
		OPT_STRING(0, "to-json", &o.to[0], "file", "convert: perf's JSON layout"),
		OPT_STRING(0, "to-pprof", &o.to[1], "file", "convert: pprof (gzipped profile.proto)"),
		OPT_STRING(0, "to-gecko", &o.to[2], "file", "convert: Firefox Profiler (processed format)"),
		OPT_STRING(0, "to-speedscope", &o.to[3], "file", "convert: speedscope JSON"),
		OPT_STRING(0, "comms", &o.comms, "comm[,comm...]", "convert: only samples of these comms"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]", "convert: only samples of these processes"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]", "convert: only samples of these threads"),
		OPT_STRING('C', "cpu", &o.cpus, "cpu", "convert: only samples on these cpus (list: 0-2,5)"),
		OPT_STRING(0, "event", &o.event, "name", "convert: only samples of this event"),
		OPT_STRING(0, "time", &o.time, "str",
			   "convert: only samples in these time ranges (START,STOP; 10%/2; 0%-10%,...)"),
		OPT_END()
	};
	const char *sub;

	if (argc < 2) {
		usage_with_options(usage, options);
		return 129;
	}
	sub = argv[1];
	argc = parse_options(argc - 1, argv + 1, options, usage, 0);
	if (argc < 0)
		return 129;
	if (argc > 0) {
		pr_err("prf data: unexpected argument '%s'\n", argv[1]);
		return 129;
	}
	if (!strcmp(sub, "dump"))
		return data_dump(&o);
	if (!strcmp(sub, "header"))
		return data_header(&o);
	if (!strcmp(sub, "stats"))
		return data_stats(&o);
	if (!strcmp(sub, "convert"))
		return data_convert(&o);
	pr_err("prf data: unknown subcommand '%s' (dump, header, stats, convert)\n", sub);
	return 129;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * prf annotate: per symbol, its instructions with the share of the
 * event's samples on each and its source lines, as `perf annotate
 * --stdio` prints them. Orchestration only: the session reads, the
 * resolver finds each sample's symbol, util/analysis/annotate.h counts
 * and prints (the code disassembled in process by util/model/disasm.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "../ui/pager.h"
#include "../ui/tui/annotate.h"
#include "../util/lib/config.h"
#include "../ui/tui/tui.h"
#include "../util/analysis/annotate.h"
#include "../util/session/resolve.h"
#include "../util/session/session.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/model/disasm.h"
#include "../util/model/dso.h"
#include "../util/model/map.h"
#include "../util/lib/helper-thread.h"

struct annotate {
	struct perf_tool tool;		/* first: container_of */
	const char *input, *symbol, *dsos, *disasm_style, *percent_type;
	const char *vmlinux, *symfs, *objdump, *prefix, *prefix_strip;
	bool use_stdio, use_stdio2, use_tui, force, skip_missing, group, stdio_color;
	bool source;			/* --no-source clears it */
	double percent_limit;
	struct annotate_opts aopts;
	bool demangle;			/* --demangle (default), annotate.demangle */
	const char **symbols;		/* -s and the arguments */
	int nr_symbols;

	struct perf_session *session;
	struct resolved_sample rs;
	struct annotation_set *set;
	/* with symbols asked by name, the kernel's samples wait here: its
	 * symbol table is loaded only if it may hold one of the names */
	struct deferred_sample {
		struct evsel *evsel;
		uint64_t ip, period;
		uint32_t pid, tid, cpu;
		uint8_t cpumode;
	} *deferred;
	size_t nr_deferred, alloc_deferred;
	struct dso *kernel;		/* the DSO of the deferred samples */
	/* whether the kernel may hold one of the names: looked up on a
	 * thread from the first deferred sample on, while the rest is read */
	struct helper_thread may_thread;
	bool may_started, may;
	/* with symbols asked by name, Capstone loads (on a thread) from the
	 * first sample of one that a kept disassembly may not answer */
	bool preloaded;
	const struct symbol *checked;	/* the last one found kept */
	bool prepared;			/* the first one's listing inputs started */
};

static const char *const annotate_usage[] = {
	"prf annotate [<options>] [<symbol>...]",
	NULL
};

/* Whether name is in the comma-separated list (short or long DSO name). */
static bool list__has(const char *list, const char *a, const char *b)
{
	const char *p = list;

	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if ((strlen(a) == n && !strncmp(a, p, n)) || (b && strlen(b) == n && !strncmp(b, p, n)))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

static bool annotate__wanted(const struct annotate *ann, const struct dso *dso,
			     const struct symbol *sym)
{
	int i;

	if (ann->dsos && (!dso || !list__has(ann->dsos, dso->short_name, dso->long_name)))
		return false;
	if (!ann->nr_symbols)
		return true;
	for (i = 0; sym && i < ann->nr_symbols; i++)
		if (!strcmp(ann->symbols[i], sym->name))
			return true;
	return false;
}

/* Whether the kernel DSO ann->kernel may hold one of the symbols asked
 * for (its kallsyms text searched). */
static void *annotate__kernel_may(void *arg)
{
	struct annotate *ann = arg;
	int i;

	ann->may = false;
	for (i = 0; i < ann->nr_symbols && !ann->may; i++)
		ann->may = dso__kernel_may_have_symbol(ann->kernel, ann->symbols[i]);
	return NULL;
}

/* Put a kernel sample aside (annotate__deferred() takes it up). */
static int annotate__defer(struct annotate *ann, const struct perf_sample *sample,
			   struct evsel *evsel, struct dso *kernel)
{
	struct deferred_sample *d;

	if (!ann->kernel) {
		ann->kernel = kernel;
		ann->may_started = !helper_thread__start(&ann->may_thread, annotate__kernel_may, ann);
	}
	if (ann->nr_deferred == ann->alloc_deferred) {
		size_t n = ann->alloc_deferred ? ann->alloc_deferred * 2 : 256;

		d = realloc(ann->deferred, n * sizeof(*d));
		if (!d)
			return -ENOMEM;
		ann->deferred = d;
		ann->alloc_deferred = n;
	}
	ann->deferred[ann->nr_deferred++] = (struct deferred_sample){
		.evsel = evsel, .ip = sample->ip, .period = sample->period, .pid = sample->pid,
		.tid = sample->tid, .cpu = sample->cpu, .cpumode = sample->cpumode,
	};
	return 0;
}

/* The sample's symbol and DSO address, counted when the filters let it
 * through. */
static int annotate__count(struct annotate *ann, struct perf_sample *sample, struct evsel *evsel)
{
	struct resolved_sample *rs = &ann->rs;
	struct dso *dso;

	resolved_sample__location(rs, false);
	dso = rs->al.map ? rs->al.map->dso : NULL;
	/* perf counts only the samples its filters let through, in the
	 * global percentages too */
	if (!annotate__wanted(ann, dso, rs->al.sym))
		return 0;
	if (!ann->preloaded && dso && rs->al.sym && rs->al.sym != ann->checked) {
		if (dso__disasm_may_be_kept(dso, rs->al.sym->start, rs->al.sym->end))
			ann->checked = rs->al.sym;
		else
			ann->preloaded = true;
		if (ann->preloaded)
			disasm__preload();
	}
	/* symbols asked by name: the first one's code and symbol table are
	 * made on a helper thread while the rest is read */
	if (ann->nr_symbols && !ann->prepared && dso && rs->al.sym) {
		ann->prepared = true;
		if (annotation_set__prepare(ann->set, dso, rs->al.sym, &ann->aopts))
			return -ENOMEM;
	}
	return annotation_set__add(ann->set, evsel, dso, dso ? rs->al.sym : NULL, rs->al.addr,
				   sample->period);
}

static int process_sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct annotate *ann = (struct annotate *)tool;
	struct dso *dso;

	(void)event;
	(void)machine;
	if (!evsel)
		evsel = sample->evsel;
	if (!evsel)
		return 0;
	if (sample__resolve(ann->session, sample, evsel, &ann->rs))
		return -ENOMEM;
	/* the filters that need no symbols first: a DSO left out by -d
	 * costs no symbol table */
	dso = resolved_sample__dso(&ann->rs);
	if (ann->dsos && (!dso || !list__has(ann->dsos, dso->short_name, dso->long_name)))
		return 0;
	if (ann->nr_symbols && dso && dso->kind == DSO_KERNEL && (!ann->kernel || ann->kernel == dso))
		return annotate__defer(ann, sample, evsel, dso);
	return annotate__count(ann, sample, evsel);
}

/*
 * perf's event groups: a recording of groups ({a,b}) is listed by group
 * (a column per member) with or without --group; --group over events
 * recorded ungrouped makes them one group led by the first.
 */
static void annotate__groups(struct annotate *ann)
{
	struct evlist *evlist = ann->session->data.evlist;
	struct evsel *evsel, *first;

	if (!evlist || evlist->nr_entries < 2)
		return;
	if (ann->use_stdio2 && !ann->use_stdio)	/* its layout has one column */
		return;
	if (evlist->nr_groups > 0) {
		ann->aopts.group = true;
		return;
	}
	if (!ann->group)
		return;
	first = evlist__first(evlist);
	evlist__for_each_entry(evlist, evsel)
		evsel->leader = first;
	first->nr_members = evlist->nr_entries;
	ann->aopts.group = ann->aopts.group_forced = true;
}

/* The kernel samples put aside: counted when the kernel may hold one of
 * the symbols asked for, else dropped (as the name filter would). */
static int annotate__deferred(struct annotate *ann)
{
	size_t i;
	int err = 0;

	if (!ann->kernel)
		return 0;
	if (ann->may_started)
		helper_thread__join(&ann->may_thread);
	else
		annotate__kernel_may(ann);
	ann->may_started = false;
	for (i = 0; ann->may && i < ann->nr_deferred && !err; i++) {
		const struct deferred_sample *d = &ann->deferred[i];
		struct perf_sample sample = {
			.ip = d->ip, .period = d->period, .pid = d->pid, .tid = d->tid, .cpu = d->cpu,
			.cpumode = d->cpumode, .evsel = d->evsel,
		};

		err = sample__resolve(ann->session, &sample, d->evsel, &ann->rs);
		if (!err)
			err = annotate__count(ann, &sample, d->evsel);
	}
	return err;
}

static int parse_percent_limit(const struct option *opt, const char *arg, int unset)
{
	struct annotate *ann = opt->value;
	char *end;

	if (unset || !arg)
		return 0;
	ann->percent_limit = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (*end || end == arg || ann->percent_limit < 0) {
		fprintf(stderr, "prf annotate: --percent-limit takes a percentage, not '%s'\n", arg);
		return -1;
	}
	return 0;
}

/* as's share of its event's period (of the samples counted): what perf's
 * --percent-limit compares, choosing symbols, not lines. */
static double annotate__share(const struct annotate *ann, const struct annotated_sym *as)
{
	uint64_t period, nr;

	annotation_set__totals(ann->set, as->evsel, &period, &nr);
	return period ? 100.0 * (double)as->period / (double)period : 0.0;
}

/* Why a symbol of this DSO cannot be annotated; printed once per DSO as
 * perf does (its "Couldn't annotate" error). */
static void annotate__warn(struct annotated_sym *as, int err)
{
	struct dso *dso = as->dso;

	if (dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE) {
		char sbid[2 * BUILD_ID_SIZE + 1] = "";

		/* perf's words: no vmlinux, and /proc/kcore of this kernel
		 * was not there or not readable */
		if (dso->has_build_id)
			build_id__sprintf(&dso->bid, sbid);
		fprintf(stderr, "Error:\nCouldn't annotate %s:\nNo vmlinux file %s%s\n"
			"was found in the path.\n\n"
			"Note that annotation using /proc/kcore requires CAP_SYS_RAWIO capability.\n\n"
			"Please use:\n\n  prf buildid-cache -vu vmlinux\n\nor:\n\n  --vmlinux vmlinux\n",
			as->sym->name, sbid[0] ? "with build id " : "", sbid);
	} else if (err == -EOPNOTSUPP)
		fprintf(stderr, "Error:\nCouldn't annotate %s:\n%s is no x86 code prf can disassemble.\n",
			as->sym->name, dso->long_name);
	else if (err == -ENOENT)
		fprintf(stderr, "Error:\nCouldn't annotate %s:\nno file for %s%s\n", as->sym->name,
			dso->long_name, dso->build_id_mismatch ?
			" (the file on disk differs from the recording: build-id mismatch)" : "");
	else
		fprintf(stderr, "Error:\nCouldn't annotate %s: %s\n", as->sym->name, strerror(-err));
}

/* Samples in a program or library prf found no symbols for: say so, as
 * they are in no listing. */
static void annotate__note_unresolved(struct annotate *ann)
{
	struct dso *dso;
	uint64_t nr;
	size_t i;

	for (i = 0; !annotation_set__unresolved(ann->set, i, &dso, &nr); i++) {
		if (dso->kind != DSO_USER || dso->long_name[0] != '/')
			continue;
		fprintf(stderr, "prf annotate: %" PRIu64 " sample%s in %s with no symbol: %s\n", nr,
			nr == 1 ? "" : "s", dso->long_name,
			dso->build_id_mismatch ? "the file differs from the recording (build-id)" :
			access(dso->long_name, R_OK) ? "no file for it (nor in a build-id cache)" :
			"no symbol table covers them (stripped?)");
	}
}

static int annotate__print(struct annotate *ann)
{
	struct annotated_sym **syms;
	size_t nr, i, shown = 0;
	bool *warned = NULL;

	syms = annotation_set__sorted(ann->set, &nr);
	warned = calloc(nr ? nr : 1, sizeof(*warned));
	if (!warned)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct annotated_sym *as = syms[i];
		size_t j;
		bool skip = false;
		int err;

		/* groups: the leaders' listings carry the members' columns */
		if (ann->aopts.group && as->evsel->leader != as->evsel)
			continue;
		if (ann->percent_limit > 0 && annotate__share(ann, as) < ann->percent_limit)
			continue;
		for (j = 0; j < i; j++)		/* a DSO that failed: once */
			if (warned[j] && syms[j]->dso == as->dso)
				skip = true;
		if (skip)
			continue;
		err = ann->use_stdio2 && !ann->use_stdio ?
		      annotated_sym__fprintf2(ann->set, as, &ann->aopts, stdout) :
		      annotated_sym__fprintf(ann->set, as, &ann->aopts, stdout);
		if (err == -EPIPE)
			break;
		if (err) {
			annotate__warn(as, err);
			warned[i] = true;
			continue;
		}
		shown++;
	}
	free(warned);
	annotate__note_unresolved(ann);
	/* the symbols asked for had no samples, or could not be annotated
	 * (said above): no listing, exit 1 */
	if (ann->nr_symbols && !shown && nr)
		return -ENOENT;
	if (ann->nr_symbols && !shown) {
		fprintf(stderr, "prf annotate: no samples in symbol%s", ann->nr_symbols > 1 ? "s" : "");
		for (i = 0; i < (size_t)ann->nr_symbols; i++)
			fprintf(stderr, " %s", ann->symbols[i]);
		fprintf(stderr, "\n");
		return -ENOENT;
	}
	return 0;
}

/* The TUI over the symbols with samples (no screen: stdio). */
static int annotate__browse(struct annotate *ann)
{
	struct annotated_sym **syms;
	size_t nr;
	int err;

	syms = annotation_set__sorted(ann->set, &nr);
	if (!nr) {
		fprintf(stderr, "prf annotate: no samples to annotate\n");
		return ann->nr_symbols ? -ENOENT : 0;
	}
	if (tui__init())
		return annotate__print(ann);
	err = tui__browse_annotate(ann->set, syms, nr, &ann->aopts,
				   ann->session->data.env.cpuid);
	tui__exit();
	annotate__note_unresolved(ann);
	return err;
}

static const char *default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

/* Options after parsing into ann->aopts; 0 or 129 (message printed). */
static int annotate__check(struct annotate *ann, int argc, const char **argv)
{
	int i;

	if (ann->percent_type &&
	    annotate__parse_percent_type(ann->percent_type, &ann->aopts.percent_type)) {
		fprintf(stderr, "prf annotate: --percent-type takes local-period, global-period, "
			"local-hits or global-hits, not '%s'\n", ann->percent_type);
		return 129;
	}
	if (ann->disasm_style) {
		ann->aopts.intel = !strcmp(ann->disasm_style, "intel");
		if (!ann->aopts.intel && strcmp(ann->disasm_style, "att")) {
			fprintf(stderr, "prf annotate: -M takes intel or att, not '%s'\n",
				ann->disasm_style);
			return 129;
		}
	}
	if (ann->objdump)
		fprintf(stderr, "prf annotate: --objdump ignored: prf disassembles in process\n");
	/* perf's choice: the TUI unless --stdio, on a terminal */
	ann->use_tui = !ann->use_stdio && !ann->use_stdio2 && tui__usable() == 0;
	ann->aopts.no_source = !ann->source;
	ann->aopts.percent_limit = ann->percent_limit;
	ann->symbols = calloc((size_t)argc + 1, sizeof(*ann->symbols));
	if (!ann->symbols)
		return 1;
	if (ann->symbol)
		ann->symbols[ann->nr_symbols++] = ann->symbol;
	for (i = 0; i < argc; i++)
		ann->symbols[ann->nr_symbols++] = argv[i];
	return 0;
}

/*
 * The annotate.* keys of perf's configuration files (perf-config(1)), as
 * defaults the command line overrides (annotate_opts__config(), and
 * annotate.demangle as --demangle). 0 or -1 after a message about a bad
 * value.
 */
static int annotate__config(struct annotate *ann)
{
	int err = annotate_opts__config(&ann->aopts, &ann->disasm_style);

	if (config__get_bool("annotate.demangle", &ann->demangle) < 0)
		err = -EINVAL;
	return err ? -1 : 0;
}

int cmd_annotate(int argc, const char **argv)
{
	static char outbuf[1 << 16];
	struct annotate *ann = zalloc(sizeof(*ann));
	int err = 0, status = 1;

	if (!ann)
		return 1;
	ann->source = true;
	ann->demangle = true;
	if (annotate__config(ann))
		goto out;
	{
		const struct option options[] = {
			OPT_STRING('i', "input", &ann->input, "file", "input file name"),
			OPT_STRING('d', "dsos", &ann->dsos, "dso[,dso...]",
				   "only consider symbols in these dsos"),
			OPT_STRING('s', "symbol", &ann->symbol, "symbol", "symbol to annotate"),
			OPT_BOOLEAN('f', "force", &ann->force, "don't complain, do it"),
			OPT_INCR('v', "verbose", &verbose, "be more verbose"),
			OPT_BOOLEAN(0, "stdio", &ann->use_stdio, "Use the stdio interface"),
			OPT_BOOLEAN(0, "stdio2", &ann->use_stdio2, "Use the stdio interface, non-interactive, uses the TUI formatting"),
			OPT_BOOLEAN(0, "tui", &ann->use_tui, "Use the TUI interface"),
			OPT_BOOLEAN(0, "stdio-color", &ann->stdio_color, "accepted; prints no color"),
			OPT_STRING('k', "vmlinux", &ann->vmlinux, "file", "vmlinux pathname"),
			OPT_STRING(0, "symfs", &ann->symfs, "directory",
				   "Look for files with symbols relative to this directory"),
			OPT_BOOLEAN('l', "print-line", &ann->aopts.print_line,
				    "print matching source lines (may be slow)"),
			OPT_BOOLEAN('P', "full-paths", &ann->aopts.full_paths,
				    "Don't shorten the displayed pathnames"),
			OPT_BOOLEAN(0, "skip-missing", &ann->skip_missing, "Skip symbols that cannot be annotated"),
			OPT_BOOLEAN(0, "group", &ann->group, "Show event group information together"),
			OPT_BOOLEAN(0, "source", &ann->source, "Interleave source code with assembly code (default)"),
			OPT_BOOLEAN(0, "demangle", &ann->demangle,
				    "Demangle C++ symbol names (default; --no-demangle: as in the ELF)"),
			OPT_BOOLEAN(0, "asm-raw", &ann->aopts.asm_raw, "Display raw encoding of assembly instructions"),
			OPT_STRING('M', "disassembler-style", &ann->disasm_style, "disassembler style",
				   "Specify disassembler style (intel or att)"),
			OPT_STRING(0, "prefix", &ann->prefix, "prefix", "Add prefix to source file path names in programs (with --prefix-strip)"),
			OPT_STRING(0, "prefix-strip", &ann->prefix_strip, "N", "Strip first N entries of source file path name in programs (with --prefix)"),
			OPT_STRING(0, "objdump", &ann->objdump, "path", "accepted and ignored: no objdump is run"),
			OPT_BOOLEAN('n', "show-nr-samples", &ann->aopts.show_nr_samples,
				    "Show a column with the number of samples"),
			OPT_BOOLEAN(0, "show-total-period", &ann->aopts.show_total_period,
				    "Show a column with the sum of periods"),
			OPT_STRING(0, "percent-type", &ann->percent_type, "local-period",
				   "Set percent type local/global-period/hits"),
			OPT_CALLBACK(0, "percent-limit", ann, "percent",
				     "Don't show entries under that percent", parse_percent_limit),
			OPT_END()
		};

		argc = parse_options(argc, argv, options, annotate_usage, 0);
		if (argc < 0) {
			status = 129;
			goto out;
		}
	}
	status = annotate__check(ann, argc, argv);
	if (status)
		goto out;
	status = 1;
	/* the disassembler library loads while the samples are read; for
	 * symbols asked by name, once one is seen that needs it */
	if (!ann->nr_symbols) {
		disasm__preload();
		ann->preloaded = true;
	}
	if (!ann->input)
		ann->input = default_input();
	ann->set = annotation_set__new();
	if (!ann->set)
		goto out;
	if (!ann->use_tui) {
		setup_pager();
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	}
	perf_tool__init(&ann->tool, true);
	ann->tool.sample = process_sample;
	ann->tool.samples_sparse = true;	/* ip, period, ids: no stacks */
	resolved_sample__init(&ann->rs, false);
	ann->session = perf_session__new(ann->input, &ann->tool, &err);
	if (!ann->session) {
		if (err == -ENOMEM)
			fprintf(stderr, "prf annotate: cannot open %s: %s\n", ann->input, strerror(-err));
		goto out;
	}
	if (ann->session->machine) {
		ann->session->machine->symfs = ann->symfs;
		ann->session->machine->vmlinux = ann->vmlinux;
		ann->session->machine->demangle = ann->demangle;
	}
	err = perf_session__process_events(ann->session);
	if (err && !perf_session__input_damage(ann->session, err)) {
		fprintf(stderr, "prf annotate: processing %s failed: %s\n", ann->input, strerror(-err));
		goto out;
	}
	annotate__groups(ann);
	if (annotate__deferred(ann)) {
		fprintf(stderr, "prf annotate: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (ann->use_tui)
		err = annotate__browse(ann);
	else
		err = annotate__print(ann);
	status = err && err != -EPIPE ? 1 : 0;
	fflush(stdout);
	/* the read-side rule for damaged input (session.h), after the browser */
	if (!status)
		status = perf_session__read_status(ann->session, "annotate", ann->force);
out:
	fflush(stdout);
	if (ann->may_started)	/* it reads the kernel DSO of the session */
		helper_thread__join(&ann->may_thread);
	annotation_set__delete(ann->set);
	if (ann->session)
		perf_session__delete(ann->session);
	resolved_sample__exit(&ann->rs);
	free(ann->deferred);
	free(ann->symbols);
	free(ann);
	return status;
}

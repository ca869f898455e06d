// SPDX-License-Identifier: GPL-2.0
/*
 * Running a script over a session (see scripting.h): the plugin's loading
 * and the events handed to it.
 */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <traceevent/event-parse.h>

#include "scripting.h"
#include "scripting-abi.h"
#include "scripting-db.h"
#include "../session/resolve.h"
#include "../session/trace-format.h"
#include "../model/debuginfo.h"
#include "../model/dso.h"
#include "../model/map.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#ifndef PRF_LIB_DIR
#define PRF_LIB_DIR "/usr/local/lib/prf"
#endif

/* Per evsel: the tracepoint's format, handler name, whether its flag and
 * symbolic tables went to the script. */
struct runner_evsel {
	bool looked_up;
	bool defined;			/* flag/symbolic tables handed over */
	struct tep_event *event;	/* NULL: no tracepoint or no format */
	char *handler;			/* "system__name" */
};

struct script_runner {
	struct perf_session *session;
	void *dl;
	struct prf_script_plugin plugin;
	bool started;
	int status;
	struct trace_formatter *tf;
	struct runner_evsel *evsels;	/* by evsel->idx */
	int nr_evsels;
	struct resolve_opts ropts;
	struct prf_script_frame *frames;
	size_t alloc_frames;
	struct prf_script_field *fields;
	size_t alloc_fields;
	char loc_bid[2 * BUILD_ID_SIZE + 1];
	bool want_general;		/* the script has process_event() */
	bool want_switch;		/* the script has context_switch() */
	struct script_db *db;		/* perf_db_export_mode: the table calls */
	char *cur_field;		/* define_walk(): the last field named */
	struct resolved_sample *cur_rs;	/* the sample being delivered */
	bool cur_chain, cur_located;	/* its callchain resolved; its location */
};

/* ---- the plugin ----------------------------------------------------- */

/* "<this executable>-python.so", else PRF_LIB_DIR/prf-python.so; global,
 * so that the runtime's compiled extension modules find its symbols */
static void *plugin_open(const char *lang)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	void *h = NULL;

	if (n > 0) {
		exe[n] = '\0';
		snprintf(path, sizeof(path), "%s-%s.so", exe, lang);
		h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
		if (!h)
			pr_debug("script: %s\n", dlerror());
	}
	if (!h) {
		snprintf(path, sizeof(path), "%s/prf-%s.so", PRF_LIB_DIR, lang);
		h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
		if (!h)
			pr_err("prf script: cannot load the %s scripting plugin (%s)\n", lang, dlerror());
	}
	return h;
}

static bool dir_has(const char *dir, const char *sub)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	return access(path, F_OK) == 0;
}

const char *scripting__exec_path(void)
{
	static const char *const dirs[] = {
		"/usr/lib/perf-core", "/usr/libexec/perf-core", "/usr/local/libexec/perf-core",
	};
	static char own[PATH_MAX];
	const char *env = getenv("PERF_EXEC_PATH");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return env;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (dir_has(dirs[i], "scripts/python/Perf-Trace-Util/lib"))
			return dirs[i];
	}
	/* prf's own helper modules: beside the binary in the source tree
	 * (scripting/exec), else installed */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(own, sizeof(own), "%s/scripting/exec", dirname(exe));
		if (dir_has(own, "scripts/python/Perf-Trace-Util/lib"))
			return own;
	}
	if (dir_has(PRF_LIB_DIR "/exec", "scripts/python/Perf-Trace-Util/lib"))
		return PRF_LIB_DIR "/exec";
	return NULL;
}

/*
 * A script that sets perf_db_export_mode gets perf's table calls for its
 * samples instead of process_event() (perf_db_export_callchains: with the
 * call paths), the branch types first. 0, or -1 when the script failed.
 */
static int runner_db_export(struct script_runner *r)
{
	int mode = r->plugin.global_flag("perf_db_export_mode"), chains, calls;

	if (mode <= 0)
		return mode;
	calls = r->plugin.global_flag("perf_db_export_calls");
	if (calls < 0)
		return -1;
	chains = r->plugin.global_flag("perf_db_export_callchains");
	if (chains < 0)
		return -1;
	r->db = script_db__new(r->session, &r->plugin, chains, calls);
	if (!r->db) {
		pr_err("prf script: %s\n", strerror(ENOMEM));
		return -1;
	}
	return script_db__branch_types(r->db) ? -1 : 0;
}

struct script_runner *script_runner__new(struct perf_session *session, int argc,
					 const char **argv, int *status)
{
	struct script_runner *r;
	prf_script_plugin_init_t init;
	const char *ext = strrchr(argv[0], '.');

	*status = 1;
	if (!ext || (strcmp(ext, ".py") && strcmp(ext, ".pl"))) {
		pr_err("prf script: %s: unknown script language (Python scripts end in .py)\n", argv[0]);
		return NULL;
	}
	if (!strcmp(ext, ".pl")) {
		pr_err("prf script: %s: Perl scripts are not supported yet (Python only)\n", argv[0]);
		return NULL;
	}
	if (access(argv[0], R_OK)) {
		pr_err("prf script: cannot open Python script %s: %s\n", argv[0], strerror(errno));
		return NULL;
	}
	r = zalloc(sizeof(*r));
	if (!r)
		return NULL;
	r->session = session;
	r->ropts.max_stack = 127;
	r->ropts.inline_frames = true;
	r->dl = plugin_open("python");
	if (!r->dl)
		goto fail;
	init = (prf_script_plugin_init_t)dlsym(r->dl, PRF_SCRIPT_PLUGIN_INIT);
	r->plugin.abi_version = PRF_SCRIPT_ABI_VERSION;
	r->plugin.exit_status = &r->status;
	if (!init || init(&r->plugin)) {
		pr_err("prf script: the Python scripting plugin does not match this prf\n");
		goto fail;
	}
	r->started = true;
	r->status = 0;
	if (r->plugin.start(argc, argv, scripting__exec_path())) {
		*status = r->status;
		goto fail;
	}
	r->want_general = r->plugin.has_handler("process_event");
	r->want_switch = r->plugin.has_handler("context_switch");
	if (runner_db_export(r)) {
		*status = r->status;
		goto fail;
	}
	return r;
fail:
	script_runner__delete(r);
	return NULL;
}

void script_runner__delete(struct script_runner *r)
{
	if (!r)
		return;
	script_db__delete(r->db);
	if (r->started)
		r->plugin.stop();
	/* the plugin stays mapped: the runtime may have registered exit
	 * handlers and threads that point into it */
	if (r->tf)
		trace_formatter__delete(r->tf);
	for (int i = 0; i < r->nr_evsels; i++)
		free(r->evsels[i].handler);
	free(r->evsels);
	free(r->cur_field);
	free(r->frames);
	free(r->fields);
	free(r);
}

int script_runner__status(const struct script_runner *r)
{
	return r->status;
}

int script_runner__switch(struct script_runner *r, union perf_event *event,
			  struct perf_sample *sample)
{
	struct prf_script_switch sw = {
		.np_pid = -1, .np_tid = -1, .machine_pid = -1, .vcpu = -1,
	};

	if (r->db)
		return sample ? script_db__switch(r->db, event, sample) : 0;
	if (!r->want_switch)
		return 0;
	sw.time = sample ? sample->time : 0;
	sw.cpu = sample ? (int32_t)sample->cpu : -1;
	sw.pid = sample ? (int32_t)sample->pid : -1;
	sw.tid = sample ? (int32_t)sample->tid : -1;
	if (event->header.type == PERF_RECORD_SWITCH_CPU_WIDE) {
		sw.np_pid = (int32_t)event->context_switch.next_prev_pid;
		sw.np_tid = (int32_t)event->context_switch.next_prev_tid;
	}
	sw.out = event->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
	sw.out_preempt = sw.out && (event->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	return r->plugin.context_switch(&sw) ? -ECANCELED : 0;
}

int script_runner__sideband(struct script_runner *r, union perf_event *event,
			    struct perf_sample *sample)
{
	return r->db ? script_db__sideband(r->db, event, sample) : 0;
}

int script_runner__end(struct script_runner *r)
{
	int err = r->db ? script_db__flush(r->db) : 0;

	if (err)
		return err;
	return r->plugin.end() ? -ECANCELED : 0;
}

/* ---- tracepoints ---------------------------------------------------- */

/*
 * The define_*() calls for an event's print fmt args, as perf makes them:
 * a walk of the argument tree, each node before its children and then its
 * siblings, remembering the last field named (r->cur_field, kept from
 * one event to the next as perf keeps it). A constant (atom) defines a
 * flag value 0 named by the constant's text under that field; a
 * print_flags()/print_symbolic() defines its field and its values. The
 * walk stops at an argument of a kind perf does not look into (function
 * calls, bitmasks, dynamic arrays).
 */
static int define_walk(struct script_runner *r, const char *handler, struct tep_print_arg *arg)
{
	struct tep_print_flag_sym *fs;
	int err = 0;

	for (; arg && !err; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_ATOM:
			err = r->plugin.define(PRF_DEFINE_FLAG_VALUE, handler, r->cur_field, 0,
					       arg->atom.atom);
			break;
		case TEP_PRINT_FIELD:
			free(r->cur_field);
			r->cur_field = strdup(arg->field.name);
			break;
		case TEP_PRINT_FLAGS:
			err = define_walk(r, handler, arg->flags.field);
			if (!err)
				err = r->plugin.define(PRF_DEFINE_FLAG_FIELD, handler, r->cur_field, 0,
						       arg->flags.delim ? arg->flags.delim : "");
			for (fs = arg->flags.flags; fs && !err; fs = fs->next)
				err = r->plugin.define(PRF_DEFINE_FLAG_VALUE, handler, r->cur_field,
						       strtoull(fs->value, NULL, 0), fs->str);
			break;
		case TEP_PRINT_SYMBOL:
			err = define_walk(r, handler, arg->symbol.field);
			if (!err)
				err = r->plugin.define(PRF_DEFINE_SYMBOLIC_FIELD, handler, r->cur_field, 0, NULL);
			for (fs = arg->symbol.symbols; fs && !err; fs = fs->next)
				err = r->plugin.define(PRF_DEFINE_SYMBOLIC_VALUE, handler, r->cur_field,
						       strtoull(fs->value, NULL, 0), fs->str);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			err = define_walk(r, handler, arg->hex.field);
			if (!err)
				err = define_walk(r, handler, arg->hex.size);
			break;
		case TEP_PRINT_INT_ARRAY:
			err = define_walk(r, handler, arg->int_array.field);
			if (!err)
				err = define_walk(r, handler, arg->int_array.count);
			if (!err)
				err = define_walk(r, handler, arg->int_array.el_size);
			break;
		case TEP_PRINT_STRING:
		case TEP_PRINT_NULL:
			break;
		case TEP_PRINT_TYPE:
			err = define_walk(r, handler, arg->typecast.item);
			break;
		case TEP_PRINT_OP:
			err = define_walk(r, handler, arg->op.left);
			if (!err)
				err = define_walk(r, handler, arg->op.right);
			break;
		default:
			return 0;
		}
	}
	return err ? -ECANCELED : 0;
}

static struct runner_evsel *runner_evsel(struct script_runner *r, struct evsel *evsel)
{
	struct runner_evsel *re;

	if (evsel->idx < 0)
		return NULL;
	if (evsel->idx >= r->nr_evsels) {
		int n = evsel->idx + 8;
		struct runner_evsel *e = realloc(r->evsels, sizeof(*e) * (size_t)n);

		if (!e)
			return NULL;
		memset(e + r->nr_evsels, 0, sizeof(*e) * (size_t)(n - r->nr_evsels));
		r->evsels = e;
		r->nr_evsels = n;
	}
	re = &r->evsels[evsel->idx];
	if (re->looked_up)
		return re;
	re->looked_up = true;
	if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return re;
	if (!r->tf)
		r->tf = trace_formatter__new_session(r->session);
	if (!r->tf)
		return NULL;
	re->event = trace_formatter__event(r->tf, evsel);
	if (!re->event)
		return re;
	if (asprintf(&re->handler, "%s__%s", re->event->system, re->event->name) < 0) {
		re->handler = NULL;
		re->event = NULL;
		return NULL;
	}
	return re;
}

/* A char array holding a printable NUL-terminated string: perf hands it
 * to the script as str, other arrays as bytearray. */
static bool printable_string(const char *p, size_t len)
{
	const char *end = memchr(p, '\0', len);

	if (!len || !end)
		return false;
	for (; p < end; p++) {
		if (!isprint((unsigned char)*p) && !isspace((unsigned char)*p))
			return false;
	}
	return true;
}

static uint64_t read_number(struct tep_handle *tep, const unsigned char *p, int size)
{
	return tep_read_number(tep, p, size);
}

/* Payload fields of sample, in format order, as perf's Python binding
 * converts them. Fields outside the payload are left out. */
static int tp_fields(struct script_runner *r, struct tep_event *event, const struct perf_sample *sample,
		     struct prf_script_event *ev)
{
	struct tep_handle *tep = trace_formatter__tep(r->tf);
	const unsigned char *data = sample->raw_data;
	size_t size = sample->raw_size, n = 0;
	struct tep_format_field *f;

	for (f = event->format.fields; f; f = f->next)
		n++;
	if (n > r->alloc_fields) {
		struct prf_script_field *nf = realloc(r->fields, n * sizeof(*nf));

		if (!nf)
			return -ENOMEM;
		r->fields = nf;
		r->alloc_fields = n;
	}
	n = 0;
	for (f = event->format.fields; f; f = f->next) {
		struct prf_script_field *out = &r->fields[n];
		size_t off = (size_t)f->offset, len = (size_t)f->size;

		if (f->offset < 0 || f->size <= 0 || off + len > size)
			continue;
		memset(out, 0, sizeof(*out));
		out->name = f->name;
		if (f->flags & TEP_FIELD_IS_ARRAY) {
			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				uint64_t loc = read_number(tep, data + off, f->size);

				off = loc & 0xffff;
				len = (loc >> 16) & 0xffff;
				if (f->flags & TEP_FIELD_IS_RELATIVE)
					off += (size_t)f->offset + (size_t)f->size;
				if (off > size || len > size - off)
					continue;
			}
			out->ptr = (const char *)data + off;
			out->len = len;
			out->type = (f->flags & TEP_FIELD_IS_STRING) && printable_string(out->ptr, len) ?
				    PRF_SV_STR : PRF_SV_BYTES;
		} else {
			/* read as an unsigned number of the field's size; only
			 * 64-bit signed fields come out negative (as in perf) */
			out->u = read_number(tep, data + off, f->size);
			if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size == 8) {
				out->type = PRF_SV_INT;
				out->i = (int64_t)out->u;
			} else {
				out->type = PRF_SV_UINT;
			}
		}
		n++;
	}
	ev->fields = r->fields;
	ev->nr_fields = n;
	{
		static const char *const common[] = {
			"common_pid", "common_preempt_count", "common_flags", "common_lock_depth",
		};
		int *dst[] = { &ev->common_pid, &ev->common_pc, &ev->common_flags,
			       &ev->common_lock_depth };

		for (size_t i = 0; i < ARRAY_SIZE(common); i++) {
			struct tep_format_field *cf = tep_find_common_field(event, common[i]);
			unsigned long long v;

			if (cf && cf->offset >= 0 && (size_t)cf->offset + (size_t)cf->size <= size &&
			    !tep_read_number_field(cf, data, &v))
				*dst[i] = (int)v;
		}
	}
	return 0;
}

/* ---- samples -------------------------------------------------------- */

static int fill_frames(struct script_runner *r, const struct callchain_cursor *c,
		       struct prf_script_event *ev)
{
	if (c->nr > r->alloc_frames) {
		struct prf_script_frame *nf = realloc(r->frames, c->nr * sizeof(*nf));

		if (!nf)
			return -ENOMEM;
		r->frames = nf;
		r->alloc_frames = c->nr;
	}
	for (unsigned int i = 0; i < c->nr; i++) {
		const struct callchain_frame *cf = &c->frames[i];
		struct prf_script_frame *f = &r->frames[i];

		memset(f, 0, sizeof(*f));
		f->ip = cf->ip;
		if (cf->sym && !cf->truncated) {
			f->sym = cf->sym->name;
			f->sym_start = cf->sym->start;
			f->sym_end = cf->sym->end;
			f->sym_binding = cf->sym->binding;
			f->sym_off = cf->addr - cf->sym->start;
		}
		if (cf->map && cf->map->dso)
			f->dso = cf->map->dso->long_name;
	}
	ev->frames = r->frames;
	ev->nr_frames = c->nr;
	return 0;
}

static void fill_location(struct script_runner *r, const struct addr_location *al,
			  struct prf_script_location *loc)
{
	if (al->map && al->map->dso) {
		struct dso *dso = al->map->dso;

		loc->dso = dso->long_name;
		r->loc_bid[0] = '\0';
		if (dso->has_build_id || dso->bid.size)
			build_id__sprintf(&dso->bid, r->loc_bid);
		loc->dso_bid = r->loc_bid;
		loc->map_start = al->map->start;
		loc->map_end = al->map->end;
	}
	if (al->sym) {
		loc->symbol = al->sym->name;
		loc->symoff = al->addr - al->sym->start;
	}
}

/* The sample being delivered: its location resolved on first use. */
static const struct addr_location *runner_location(struct script_runner *r)
{
	if (!r->cur_located) {
		resolved_sample__location(r->cur_rs, r->cur_chain);
		r->cur_located = true;
	}
	return &r->cur_rs->al;
}

/* prf_script_event.location */
static void event_location(const struct prf_script_event *ev, struct prf_script_location *loc)
{
	struct script_runner *r = ev->host;
	const struct addr_location *al = runner_location(r);

	memset(loc, 0, sizeof(*loc));
	fill_location(r, al, loc);
}

/* prf_script_event.srcline: the line table of the ip's DSO */
static int event_srcline(const struct prf_script_event *ev, const char **file, unsigned int *line)
{
	const struct addr_location *al = runner_location(ev->host);

	if (!al->map || !al->map->dso)
		return -ENOENT;
	return dso__srcline_full(al->map->dso, al->addr, file, line, NULL) ? -ENOENT : 0;
}

int script_runner__sample(struct script_runner *r, struct evsel *evsel,
			  struct perf_sample *sample, struct resolved_sample *rs)
{
	struct runner_evsel *re = runner_evsel(r, evsel);
	struct prf_script_event ev = { 0 };
	bool chain = evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN;
	int err;

	if (!re)
		return -ENOMEM;
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT) {
		if (!re->event)		/* no format: nothing to hand over */
			return 0;
		if (!re->defined) {
			/* flag/symbolic tables once, before the first sample */
			re->defined = true;
			err = define_walk(r, re->handler, re->event->print_fmt.args);
			if (err)
				return err;
		}
		if (!r->plugin.has_handler(re->handler) && !r->plugin.has_handler("trace_unhandled"))
			return 0;
		ev.tp_handler = re->handler;
		ev.common_pid = (int)sample->tid;	/* unless the payload says */
		err = tp_fields(r, re->event, sample, &ev);
		if (err)
			return err;
	} else if (r->db) {
		return script_db__sample(r->db, evsel, sample, rs);
	} else if (!r->want_general) {
		return 0;
	}
	if (chain) {
		err = resolved_sample__callchain(r->session, rs, &r->ropts);
		if (err)
			return err;
		err = fill_frames(r, &rs->cursor, &ev);
		if (err)
			return err;
	}
	r->cur_rs = rs;
	r->cur_chain = chain;
	r->cur_located = false;

	ev.ev_name = evsel__name(evsel);
	ev.attr = &evsel->attr;
	ev.attr_size = sizeof(evsel->attr);
	if (!ev.tp_handler)
		ev.common_pid = (int)sample->tid;
	ev.pid = (int32_t)sample->pid;
	ev.tid = (int32_t)sample->tid;
	ev.cpu = (evsel->attr.sample_type & PERF_SAMPLE_CPU) ? sample->cpu : UINT32_MAX;
	ev.ip = sample->ip;
	ev.time = sample->time;
	ev.period = sample->period;
	ev.phys_addr = sample->phys_addr;
	ev.addr = sample->addr;
	ev.weight = sample->weight;
	ev.transaction = sample->transaction;
	ev.data_src = (evsel->attr.sample_type & PERF_SAMPLE_DATA_SRC) ? sample->data_src : SCRIPT_DATA_SRC_NONE;
	ev.datasrc_decode = ev.data_src == SCRIPT_DATA_SRC_NONE ?
			    "|OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A" : "";
	ev.cpumode = sample->cpumode;
	ev.raw = sample->raw_data;
	ev.raw_size = sample->raw_data ? sample->raw_size : 0;
	ev.comm = rs->comm;
	ev.location = event_location;
	ev.srcline = event_srcline;
	ev.host = r;
	return r->plugin.event(&ev) ? -ECANCELED : 0;
}

/* ---- -l: the installed scripts -------------------------------------- */

/* "# KEY: value" of a report script's header into buf ("" when absent). */
static void script_header(const char *path, const char *key, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t klen = strlen(key);

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		if (*p != '#')
			continue;
		p++;
		while (*p == ' ')
			p++;
		if (strncmp(p, key, klen) || p[klen] != ':')
			continue;
		p += klen + 1;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = '\0';
		snprintf(buf, size, "%s", p);
		break;
	}
	fclose(f);
}

int scripting__list(FILE *fp)
{
	const char *exec_path = scripting__exec_path();
	char dir[PATH_MAX];
	DIR *langs;
	struct dirent *lang;

	fprintf(fp, "List of available trace scripts:\n");
	if (!exec_path)
		return 0;
	snprintf(dir, sizeof(dir), "%s/scripts", exec_path);
	langs = opendir(dir);
	if (!langs)
		return 0;
	/* directory order, as perf lists them */
	while ((lang = readdir(langs))) {
		char bin[PATH_MAX + 300];
		DIR *d;
		struct dirent *e;

		if (lang->d_name[0] == '.')
			continue;
		snprintf(bin, sizeof(bin), "%s/%s/bin", dir, lang->d_name);
		d = opendir(bin);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			char path[PATH_MAX + 600], desc[256], args[256], first[512];

			if (len <= 7 || strcmp(e->d_name + len - 7, "-report"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", bin, e->d_name);
			script_header(path, "description", desc, sizeof(desc));
			script_header(path, "args", args, sizeof(args));
			snprintf(first, sizeof(first), "%.*s%s%s", (int)(len - 7), e->d_name,
				 args[0] ? " " : "", args);
			fprintf(fp, "  %-36s %s\n", first, desc);
		}
		closedir(d);
	}
	closedir(langs);
	return 0;
}

/* ---- record/report NAME ------------------------------------------- */

/* scripts/LANG/bin/NAME-WHAT under the exec path into buf; 0 or -ENOENT */
static int find_installed(const char *name, const char *what, char *buf, size_t size)
{
	const char *exec_path = scripting__exec_path();
	char dir[PATH_MAX];
	struct dirent *lang;
	DIR *langs;
	int err = -ENOENT;

	if (!exec_path)
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/scripts", exec_path);
	langs = opendir(dir);
	if (!langs)
		return -ENOENT;
	while (err && (lang = readdir(langs))) {
		if (lang->d_name[0] == '.')
			continue;
		snprintf(buf, size, "%s/%s/bin/%s-%s", dir, lang->d_name, name, what);
		if (!access(buf, R_OK))
			err = 0;
	}
	closedir(langs);
	return err;
}

int scripting__run_installed(const char *name, const char *what, int argc, const char **argv)
{
	char script[PATH_MAX + 600], exe[PATH_MAX], link[PATH_MAX + 16], path_env[8192];
	char bindir[] = "/tmp/prf-script-XXXXXX";
	const char *exec_path = scripting__exec_path(), *old_path = getenv("PATH");
	ssize_t n;
	pid_t pid;
	int status = 1, wstatus;

	if (find_installed(name, what, script, sizeof(script))) {
		pr_err("prf script %s: no installed script '%s' (prf script -l lists them)\n", what, name);
		return 1;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !mkdtemp(bindir)) {
		pr_err("prf script %s: %s\n", what, strerror(errno));
		return 1;
	}
	exe[n] = '\0';
	/* the scripts call `perf`: here, this prf */
	snprintf(link, sizeof(link), "%s/perf", bindir);
	if (symlink(exe, link)) {
		pr_err("prf script %s: %s: %s\n", what, link, strerror(errno));
		goto out;
	}
	snprintf(path_env, sizeof(path_env), "%s%s%s", bindir, old_path ? ":" : "", old_path ? old_path : "");
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		pr_err("prf script %s: fork: %s\n", what, strerror(errno));
		goto out;
	}
	if (pid == 0) {
		const char **cargv = calloc((size_t)argc + 3, sizeof(*cargv));

		if (!cargv)
			_exit(127);
		cargv[0] = "/bin/sh";
		cargv[1] = script;
		memcpy(cargv + 2, argv, (size_t)argc * sizeof(*argv));
		setenv("PATH", path_env, 1);
		if (exec_path)
			setenv("PERF_EXEC_PATH", exec_path, 0);
		execv("/bin/sh", (char *const *)cargv);
		_exit(127);
	}
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			wstatus = 1 << 8;
			break;
		}
	}
	status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
out:
	unlink(link);
	rmdir(bindir);
	return status;
}

/* ---- -g python: a skeleton ------------------------------------------ */

static void gen_handler(FILE *f, struct tep_event *event)
{
	struct tep_format_field *fld;

	fprintf(f, "def %s__%s(event_name, context, common_cpu,\n"
		   "\t\tcommon_secs, common_nsecs, common_pid, common_comm,\n"
		   "\t\tcommon_callchain", event->system, event->name);
	for (fld = event->format.fields; fld; fld = fld->next)
		fprintf(f, ", %s", fld->name);
	fprintf(f, ", perf_sample_dict):\n");
	fprintf(f, "\tshow_common(event_name, common_cpu, common_secs, common_nsecs,\n"
		   "\t\t    common_pid, common_comm)\n");
	fprintf(f, "\tprint(");
	for (fld = event->format.fields; fld; fld = fld->next)
		fprintf(f, "\"%s=%%s%s\" %% (%s,)%s", fld->name, fld->next ? " " : "",
			fld->name, fld->next ? " +\n\t      " : "");
	if (!event->format.fields)
		fprintf(f, "\"\"");
	fprintf(f, ")\n\tshow_callchain(common_callchain)\n\n");
}

int scripting__generate_python(struct perf_session *session, const char *out)
{
	struct evlist *evlist = session->data.evlist;
	struct trace_formatter *tf = NULL;
	struct evsel *evsel;
	FILE *f = fopen(out, "w");

	if (!f) {
		pr_err("prf script: cannot write %s: %s\n", out, strerror(errno));
		return -errno;
	}
	fprintf(f,
		"# Handlers for the events of a perf.data file, made by `prf script -g python`.\n"
		"# Run with: prf script -s %s  (or perf script -s)\n"
		"#\n"
		"# A tracepoint sys:name goes to sys__name() below, with the common_*\n"
		"# values and the payload fields as arguments; events without a handler\n"
		"# go to trace_unhandled(), other events to process_event().\n"
		"# perf-script-python(1) describes the arguments and dictionaries.\n"
		"\n"
		"import os\n"
		"import sys\n"
		"\n"
		"sys.path.append(os.environ['PERF_EXEC_PATH'] + \\\n"
		"\t'/scripts/python/Perf-Trace-Util/lib/Perf/Trace')\n"
		"\n"
		"from perf_trace_context import *\n"
		"from Core import *\n"
		"\n"
		"\n"
		"def trace_begin():\n"
		"\tprint(\"trace_begin\")\n"
		"\n"
		"\n"
		"def trace_end():\n"
		"\tprint(\"trace_end\")\n"
		"\n"
		"\n"
		"def show_common(event_name, cpu, secs, nsecs, pid, comm):\n"
		"\tprint(\"%%-20s %%3u %%05u.%%09u %%8u %%-16s \" %% (event_name, cpu, secs,\n"
		"\t      nsecs, pid, comm), end=\"\")\n"
		"\n"
		"\n"
		"def show_callchain(callchain):\n"
		"\tfor frame in callchain:\n"
		"\t\tname = frame['sym']['name'] if 'sym' in frame else '[unknown]'\n"
		"\t\tprint(\"\\t%%16x %%s (%%s)\" %% (frame['ip'], name, frame.get('dso', '[unknown]')))\n"
		"\n"
		"\n", out);
	if (evlist) {
		evlist__for_each_entry(evlist, evsel) {
			struct tep_event *event;

			if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
				continue;
			if (!tf)
				tf = trace_formatter__new_session(session);
			event = tf ? trace_formatter__event(tf, evsel) : NULL;
			if (event)
				gen_handler(f, event);
		}
	}
	fprintf(f,
		"\n"
		"def trace_unhandled(event_name, context, event_fields_dict):\n"
		"\tprint(event_name, ' '.join('%%s=%%s' %% (k, v) for k, v in\n"
		"\t\t\t\t  sorted(event_fields_dict.items())))\n"
		"\n"
		"\n"
		"def process_event(param_dict):\n"
		"\tsample = param_dict['sample']\n"
		"\tprint(\"%%-16s %%8u %%s\" %% (param_dict['comm'], sample['pid'], param_dict['ev_name']),\n"
		"\t      param_dict.get('symbol', '[unknown]'))\n"
		"\tshow_callchain(param_dict['callchain'])\n");
	if (tf)
		trace_formatter__delete(tf);
	if (fclose(f)) {
		pr_err("prf script: cannot write %s: %s\n", out, strerror(errno));
		return -EIO;
	}
	fprintf(stderr, "generated Python script: %s\n", out);
	return 0;
}

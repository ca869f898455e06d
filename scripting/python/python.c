// SPDX-License-Identifier: GPL-2.0
/*
 * prf-python.so: perf's Python scripting interface (perf-script-python(1))
 * over embedded CPython, loaded by `prf script -s FILE.py` only.
 *
 * prf hands each sample as a struct prf_script_event
 * (util/analysis/scripting-abi.h); this file turns it into the calls and
 * objects perf's binding makes:
 *   - tracepoints: the script's `system__name(event_name, context,
 *     common_cpu, common_secs, common_nsecs, common_pid, common_comm,
 *     common_callchain, <payload fields>[, perf_sample_dict])`, else
 *     `trace_unhandled(event_name, context, event_fields_dict)`;
 *   - other events: `process_event(param_dict)`;
 *   - `trace_begin()` after the script's top level, `trace_end()` at the end;
 *   - `context_switch(...)` for PERF_RECORD_SWITCH records;
 *   - perf's db-export table calls (`evsel_table()`, `sample_table()`,
 *     ...) that util/analysis/scripting-db.c makes through call(), when
 *     the script sets perf_db_export_mode;
 *   - the module `perf_trace_context` (common_pc, common_flags,
 *     common_lock_depth, perf_sample_insn, perf_set_itrace_options,
 *     perf_sample_srcline, perf_sample_srccode, perf_script_context).
 * A missing handler is skipped. An exception in the script prints its
 * traceback and stops prf with exit status 1 (sys.exit(N): status N).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../util/analysis/scripting-abi.h"

#define MAX_HANDLER_ARGS 128

static struct {
	PyObject *main_dict;		/* __main__'s globals */
	PyObject *context;		/* capsule handed as `context` */
	PyObject *handlers;		/* name -> function or None */
	const struct prf_script_event *ev;	/* the event being delivered */
	bool started;
	bool broken_pipe;		/* the script's output was closed */
	int *exit_status;
} py;

/* ---- errors --------------------------------------------------------- */

/*
 * The pending exception: SystemExit ends prf with its code (a message
 * printed, as Python does), a closed output (BrokenPipeError) with 0;
 * anything else prints its traceback. The exit status is set; returns -1.
 */
static int py_fail(const char *what)
{
	if (PyErr_ExceptionMatches(PyExc_BrokenPipeError)) {
		/* the reader went away (| head): stop quietly, as prf's own
		 * output does */
		PyErr_Clear();
		py.broken_pipe = true;
		*py.exit_status = 0;
		return -1;
	}
	if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
		PyObject *type, *value, *tb, *code;
		int status = 0;

		PyErr_Fetch(&type, &value, &tb);
		PyErr_NormalizeException(&type, &value, &tb);
		code = value ? PyObject_GetAttrString(value, "code") : NULL;
		if (!code || code == Py_None) {
			status = 0;
		} else if (PyLong_Check(code)) {
			status = (int)PyLong_AsLong(code);
		} else {
			PyObject *s = PyObject_Str(code);

			if (s) {
				fprintf(stderr, "%s\n", PyUnicode_AsUTF8(s));
				Py_DECREF(s);
			}
			status = 1;
		}
		PyErr_Clear();
		Py_XDECREF(code);
		Py_XDECREF(type);
		Py_XDECREF(value);
		Py_XDECREF(tb);
		*py.exit_status = status;
		return -1;
	}
	PyErr_Print();
	fflush(stderr);
	fprintf(stderr, "prf script: Python %s failed\n", what);
	*py.exit_status = 1;
	return -1;
}

/* ---- perf_trace_context --------------------------------------------- */

static const struct prf_script_event *ctx_event(PyObject *args)
{
	PyObject *cap;

	if (!PyArg_ParseTuple(args, "O", &cap))
		return NULL;
	if (!PyCapsule_CheckExact(cap) || !py.ev) {
		PyErr_SetString(PyExc_TypeError, "expected the event's context");
		return NULL;
	}
	return py.ev;
}

static PyObject *ctx_common_pc(PyObject *self, PyObject *args)
{
	const struct prf_script_event *ev = ctx_event(args);

	return ev ? PyLong_FromLong(ev->common_pc) : NULL;
}

static PyObject *ctx_common_flags(PyObject *self, PyObject *args)
{
	const struct prf_script_event *ev = ctx_event(args);

	return ev ? PyLong_FromLong(ev->common_flags) : NULL;
}

static PyObject *ctx_common_lock_depth(PyObject *self, PyObject *args)
{
	const struct prf_script_event *ev = ctx_event(args);

	return ev ? PyLong_FromLong(ev->common_lock_depth) : NULL;
}

/* The sampled instruction's bytes: prf records none (no hardware trace). */
static PyObject *ctx_sample_insn(PyObject *self, PyObject *args)
{
	if (!ctx_event(args))
		return NULL;
	return PyByteArray_FromStringAndSize("", 0);
}

/* itrace options only matter to hardware-trace decoding, which prf lacks. */
static PyObject *ctx_set_itrace_options(PyObject *self, PyObject *args)
{
	PyObject *cap;
	const char *opts;

	if (!PyArg_ParseTuple(args, "Os", &cap, &opts))
		return NULL;
	PyErr_SetString(PyExc_RuntimeError, "prf: no instruction trace decoding (itrace options)");
	return NULL;
}

/* (file, line) of the sample ip; (None, 0) when unknown */
static PyObject *ctx_sample_srcline(PyObject *self, PyObject *args)
{
	const struct prf_script_event *ev = ctx_event(args);
	const char *file = NULL;
	unsigned int line = 0;

	if (!ev)
		return NULL;
	if (!ev->srcline || ev->srcline(ev, &file, &line))
		return Py_BuildValue("(OI)", Py_None, 0U);
	return Py_BuildValue("(sI)", file, line);
}

/* (file, line, text of that line without its newline); Nones for what
 * is unknown */
static PyObject *ctx_sample_srccode(PyObject *self, PyObject *args)
{
	const struct prf_script_event *ev = ctx_event(args);
	const char *file = NULL;
	unsigned int line = 0, n = 0;
	char buf[4096];
	FILE *f;

	if (!ev)
		return NULL;
	if (!ev->srcline || ev->srcline(ev, &file, &line))
		return Py_BuildValue("(OIO)", Py_None, 0U, Py_None);
	f = fopen(file, "r");
	while (f && fgets(buf, sizeof(buf), f)) {
		if (++n == line) {
			fclose(f);
			return Py_BuildValue("(sIs#)", file, line, buf, (Py_ssize_t)strcspn(buf, "\n"));
		}
	}
	if (f)
		fclose(f);
	return Py_BuildValue("(sIO)", file, line, Py_None);
}

static PyMethodDef ctx_methods[] = {
	{ "common_pc", ctx_common_pc, METH_VARARGS, "preempt count of the event" },
	{ "common_flags", ctx_common_flags, METH_VARARGS, "irq flags of the event" },
	{ "common_lock_depth", ctx_common_lock_depth, METH_VARARGS, "lock depth of the event" },
	{ "perf_sample_insn", ctx_sample_insn, METH_VARARGS, "bytes of the sampled instruction" },
	{ "perf_set_itrace_options", ctx_set_itrace_options, METH_VARARGS, "set itrace options" },
	{ "perf_sample_srcline", ctx_sample_srcline, METH_VARARGS, "(source file, line) of the sample" },
	{ "perf_sample_srccode", ctx_sample_srccode, METH_VARARGS,
	  "(source file, line, source text) of the sample" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef ctx_module = {
	PyModuleDef_HEAD_INIT, "perf_trace_context", "perf's script context functions (prf)",
	-1, ctx_methods, NULL, NULL, NULL, NULL
};

static PyObject *ctx_init(void)
{
	PyObject *m = PyModule_Create(&ctx_module);

	if (!m)
		return NULL;
	if (!py.context)
		py.context = PyCapsule_New(&py, NULL, NULL);
	if (!py.context)
		return NULL;
	Py_INCREF(py.context);
	if (PyModule_AddObject(m, "perf_script_context", py.context) < 0) {
		Py_DECREF(py.context);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}

/* ---- handlers ------------------------------------------------------- */

/* The script's function name (borrowed), or NULL; looked up once. */
static PyObject *cached_str(const char *s);

static PyObject *handler(const char *name)
{
	PyObject *k = cached_str(name), *h;

	if (!k)
		return NULL;
	h = PyDict_GetItem(py.handlers, k);
	if (!h) {
		h = PyDict_GetItem(py.main_dict, k);
		if (!h || !PyCallable_Check(h))
			h = Py_None;
		if (PyDict_SetItem(py.handlers, k, h) < 0)
			h = NULL;
	}
	Py_DECREF(k);
	return h == Py_None ? NULL : h;
}

static bool has_handler(const char *name)
{
	return py.started && handler(name) != NULL;
}

/* Positional parameters of a Python function; -1 when unknown. The
 * handlers stay referenced by py.handlers: remembered by address. */
static int arg_count_uncached(PyObject *func);

static int arg_count(PyObject *func)
{
	static struct { PyObject *func; int n; } memo[64];
	size_t i = ((uintptr_t)func >> 4) % 64;

	if (memo[i].func != func) {
		memo[i].n = arg_count_uncached(func);
		memo[i].func = func;
	}
	return memo[i].n;
}

static int arg_count_uncached(PyObject *func)
{
	PyObject *code = PyObject_GetAttrString(func, "__code__");
	PyObject *n;
	int r = -1;

	if (!code) {
		PyErr_Clear();
		return -1;
	}
	n = PyObject_GetAttrString(code, "co_argcount");
	if (n) {
		r = (int)PyLong_AsLong(n);
		Py_DECREF(n);
	}
	PyErr_Clear();
	Py_DECREF(code);
	return r;
}

static int call(const char *name, PyObject *func, PyObject *args)
{
	PyObject *r = PyObject_CallObject(func, args);

	if (!r) {
		char what[256];

		snprintf(what, sizeof(what), "handler %s", name);
		return py_fail(what);
	}
	Py_DECREF(r);
	return 0;
}

/* Call the script's name() with no arguments when it has one. */
static int call_simple(const char *name)
{
	PyObject *f = handler(name);
	PyObject *args;
	int err;

	if (!f)
		return PyErr_Occurred() ? py_fail(name) : 0;
	args = PyTuple_New(0);
	if (!args)
		return py_fail(name);
	err = call(name, f, args);
	Py_DECREF(args);
	return err;
}

/* ---- building the objects ------------------------------------------- */

/*
 * Python strings of the C strings events carry again and again (dict keys,
 * symbol, DSO, comm and event names): a direct-mapped table by address,
 * an entry reused only while its text is the same (the address of a
 * freed name may come back with another).
 */
#define STR_CACHE_SIZE 8192

struct str_entry {
	const char *ptr;
	char *copy;
	PyObject *obj;
};

static struct str_entry str_cache[STR_CACHE_SIZE];

static PyObject *decode(const char *s)
{
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "surrogateescape");
}

/* A new reference to the str of s, NULL (exception set) on failure. */
static PyObject *cached_str(const char *s)
{
	uintptr_t h = (uintptr_t)s;
	struct str_entry *e;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ULL;
	e = &str_cache[(h >> 40) % STR_CACHE_SIZE];
	if (e->ptr != s || !e->copy || strcmp(e->copy, s)) {
		PyObject *o = decode(s);
		char *copy;

		if (!o)
			return NULL;
		copy = strdup(s);
		if (!copy) {
			/* uncached, still right */
			return o;
		}
		Py_XDECREF(e->obj);
		free(e->copy);
		e->ptr = s;
		e->copy = copy;
		e->obj = o;
	}
	Py_INCREF(e->obj);
	return e->obj;
}

static void str_cache_clear(void)
{
	for (size_t i = 0; i < STR_CACHE_SIZE; i++) {
		Py_CLEAR(str_cache[i].obj);
		free(str_cache[i].copy);
		str_cache[i].copy = NULL;
		str_cache[i].ptr = NULL;
	}
}

/* dict[key] = val, val's reference taken; -1 (exception set) on failure */
static int set_item(PyObject *dict, const char *key, PyObject *val)
{
	PyObject *k;
	int r;

	if (!val)
		return -1;
	k = cached_str(key);
	if (!k) {
		Py_DECREF(val);
		return -1;
	}
	r = PyDict_SetItem(dict, k, val);
	Py_DECREF(k);
	Py_DECREF(val);
	return r;
}

static PyObject *frame_dict(const struct prf_script_frame *f)
{
	PyObject *d = PyDict_New();

	if (!d)
		return NULL;
	if (set_item(d, "ip", PyLong_FromUnsignedLongLong(f->ip)))
		goto fail;
	if (f->sym) {
		PyObject *sym = PyDict_New();

		if (!sym)
			goto fail;
		if (set_item(sym, "start", PyLong_FromUnsignedLongLong(f->sym_start)) ||
		    set_item(sym, "end", PyLong_FromUnsignedLongLong(f->sym_end)) ||
		    set_item(sym, "binding", PyLong_FromLong(f->sym_binding)) ||
		    set_item(sym, "name", cached_str(f->sym))) {
			Py_DECREF(sym);
			goto fail;
		}
		if (set_item(d, "sym", sym))
			goto fail;
		if (f->dso && set_item(d, "sym_off", PyLong_FromUnsignedLongLong(f->sym_off)))
			goto fail;
	}
	if (f->dso && set_item(d, "dso", cached_str(f->dso)))
		goto fail;
	return d;
fail:
	Py_DECREF(d);
	return NULL;
}

static PyObject *callchain_list(const struct prf_script_event *ev)
{
	PyObject *l = PyList_New((Py_ssize_t)ev->nr_frames);

	if (!l)
		return NULL;
	for (size_t i = 0; i < ev->nr_frames; i++) {
		PyObject *f = frame_dict(&ev->frames[i]);

		if (!f) {
			Py_DECREF(l);
			return NULL;
		}
		PyList_SET_ITEM(l, (Py_ssize_t)i, f);
	}
	return l;
}

static PyObject *str_or_bytes(const char *s)
{
	return cached_str(s);
}

static int set_location(PyObject *d, const struct prf_script_event *ev)
{
	struct prf_script_location l = { 0 }, *loc = &l;

	ev->location(ev, loc);
	if (loc->dso) {
		if (set_item(d, "dso", str_or_bytes(loc->dso)) ||
		    set_item(d, "dso_bid", cached_str(loc->dso_bid ? loc->dso_bid : "")) ||
		    set_item(d, "dso_map_start", PyLong_FromUnsignedLongLong(loc->map_start)) ||
		    set_item(d, "dso_map_end", PyLong_FromUnsignedLongLong(loc->map_end)))
			return -1;
	}
	if (loc->symbol) {
		if (set_item(d, "symbol", str_or_bytes(loc->symbol)) ||
		    set_item(d, "symoff", PyLong_FromUnsignedLongLong(loc->symoff)))
			return -1;
	}
	return 0;
}

/* The attr bytes of the event's evsel: one bytes object per attr. */
static const void *attr_last;
static PyObject *attr_obj, *zeros;

static PyObject *attr_bytes(const struct prf_script_event *ev)
{
	const void *last = attr_last;
	PyObject *obj = attr_obj;

	if (!obj || last != ev->attr || (size_t)PyBytes_GET_SIZE(obj) != ev->attr_size ||
	    memcmp(PyBytes_AS_STRING(obj), ev->attr, ev->attr_size)) {
		Py_XDECREF(obj);
		obj = PyBytes_FromStringAndSize(ev->attr, (Py_ssize_t)ev->attr_size);
		attr_obj = obj;
		attr_last = obj ? ev->attr : NULL;
		if (!obj)
			return NULL;
	}
	Py_INCREF(obj);
	return obj;
}

/* sample's "values" without PERF_SAMPLE_READ: a new [(0, 0, 0)] */
static PyObject *no_values(void)
{
	PyObject *l;

	if (!zeros)
		zeros = Py_BuildValue("(iii)", 0, 0, 0);
	if (!zeros)
		return NULL;
	l = PyList_New(1);
	if (!l)
		return NULL;
	Py_INCREF(zeros);
	PyList_SET_ITEM(l, 0, zeros);
	return l;
}

/* perf's perf_sample_dict / param_dict; callchain's reference is taken */
static PyObject *sample_dict(const struct prf_script_event *ev, PyObject *callchain)
{
	PyObject *d = PyDict_New(), *s = PyDict_New();

	if (!d || !s)
		goto fail;
	if (set_item(d, "ev_name", cached_str(ev->ev_name)) ||
	    set_item(d, "attr", attr_bytes(ev)) ||
	    set_item(s, "pid", PyLong_FromLong(ev->pid)) ||
	    set_item(s, "tid", PyLong_FromLong(ev->tid)) ||
	    set_item(s, "cpu", PyLong_FromUnsignedLong(ev->cpu)) ||
	    set_item(s, "ip", PyLong_FromUnsignedLongLong(ev->ip)) ||
	    set_item(s, "time", PyLong_FromUnsignedLongLong(ev->time)) ||
	    set_item(s, "period", PyLong_FromUnsignedLongLong(ev->period)) ||
	    set_item(s, "phys_addr", PyLong_FromUnsignedLongLong(ev->phys_addr)) ||
	    set_item(s, "addr", PyLong_FromUnsignedLongLong(ev->addr)) ||
	    set_item(s, "values", no_values()) ||
	    set_item(s, "weight", PyLong_FromUnsignedLongLong(ev->weight)) ||
	    set_item(s, "transaction", PyLong_FromUnsignedLongLong(ev->transaction)) ||
	    set_item(s, "datasrc", PyLong_FromUnsignedLongLong(ev->data_src)) ||
	    set_item(s, "datasrc_decode", cached_str(ev->datasrc_decode ? ev->datasrc_decode : "")))
		goto fail;
	Py_INCREF(s);
	if (set_item(d, "sample", s) ||
	    set_item(d, "raw_buf", PyBytes_FromStringAndSize(ev->raw, (Py_ssize_t)ev->raw_size)) ||
	    set_item(d, "comm", str_or_bytes(ev->comm)) ||
	    set_location(d, ev))
		goto fail_s;
	Py_INCREF(callchain);
	if (set_item(d, "callchain", callchain) ||
	    set_item(d, "brstack", PyList_New(0)) ||
	    set_item(d, "brstacksym", PyList_New(0)) ||
	    set_item(s, "cpumode", PyLong_FromLong(ev->cpumode)) ||
	    set_item(d, "iregs", cached_str("")) ||
	    set_item(d, "uregs", cached_str("")))
		goto fail_s;
	Py_DECREF(s);
	Py_DECREF(callchain);
	return d;
fail_s:
	Py_DECREF(s);
	s = NULL;
fail:
	Py_XDECREF(s);
	Py_XDECREF(d);
	Py_DECREF(callchain);
	return NULL;
}

/* The Python value of f; arrays as bytearray (tracepoint fields, as perf
 * hands them) or bytes (call() arguments) */
static PyObject *field_value(const struct prf_script_field *f, bool bytearray)
{
	switch (f->type) {
	case PRF_SV_INT:
		return PyLong_FromLongLong(f->i);
	case PRF_SV_STR:
		return str_or_bytes(f->ptr);
	case PRF_SV_BYTES:
		if (!bytearray)
			return PyBytes_FromStringAndSize(f->ptr, (Py_ssize_t)f->len);
		return PyByteArray_FromStringAndSize(f->ptr, (Py_ssize_t)f->len);
	case PRF_SV_UINT:
	default:
		return PyLong_FromUnsignedLongLong(f->u);
	}
}

static int tracepoint_event(const struct prf_script_event *ev)
{
	const char *name = ev->tp_handler;
	PyObject *func = handler(name), *unhandled = NULL;
	PyObject *callchain, *dict = NULL, *t = NULL, *o;
	uint64_t secs = ev->time / 1000000000ULL, nsecs = ev->time % 1000000000ULL;
	Py_ssize_t n = 0;
	int err = -1;

	if (!func) {
		if (PyErr_Occurred())
			return py_fail(name);
		unhandled = handler("trace_unhandled");
		if (!unhandled)
			return PyErr_Occurred() ? py_fail("trace_unhandled") : 0;
		dict = PyDict_New();
		if (!dict)
			return py_fail(name);
	}
	callchain = callchain_list(ev);
	t = PyTuple_New(MAX_HANDLER_ARGS);
	if (!callchain || !t)
		goto out;
	PyTuple_SET_ITEM(t, n++, cached_str(name));
	Py_INCREF(py.context);
	PyTuple_SET_ITEM(t, n++, py.context);
	if (!dict) {
		PyTuple_SET_ITEM(t, n++, PyLong_FromUnsignedLong(ev->cpu));
		PyTuple_SET_ITEM(t, n++, PyLong_FromUnsignedLongLong(secs));
		PyTuple_SET_ITEM(t, n++, PyLong_FromUnsignedLongLong(nsecs));
		PyTuple_SET_ITEM(t, n++, PyLong_FromLong(ev->common_pid));
		PyTuple_SET_ITEM(t, n++, str_or_bytes(ev->comm));
		Py_INCREF(callchain);
		PyTuple_SET_ITEM(t, n++, callchain);
	} else if (set_item(dict, "common_cpu", PyLong_FromUnsignedLong(ev->cpu)) ||
		   set_item(dict, "common_s", PyLong_FromUnsignedLongLong(secs)) ||
		   set_item(dict, "common_ns", PyLong_FromUnsignedLongLong(nsecs)) ||
		   set_item(dict, "common_pid", PyLong_FromLong(ev->common_pid)) ||
		   set_item(dict, "common_comm", str_or_bytes(ev->comm)) ||
		   (Py_INCREF(callchain), set_item(dict, "common_callchain", callchain))) {
		goto out;
	}
	for (size_t i = 0; i < ev->nr_fields; i++) {
		o = field_value(&ev->fields[i], true);
		if (!o)
			goto out;
		if (dict) {
			if (set_item(dict, ev->fields[i].name, o))
				goto out;
		} else if (n < MAX_HANDLER_ARGS - 1) {
			PyTuple_SET_ITEM(t, n++, o);
		} else {
			Py_DECREF(o);
		}
	}
	if (dict) {
		PyTuple_SET_ITEM(t, n++, dict);
		dict = NULL;
	} else if (arg_count(func) == (int)n + 1) {
		o = sample_dict(ev, callchain);
		callchain = NULL;
		if (!o)
			goto out;
		PyTuple_SET_ITEM(t, n++, o);
	}
	if (_PyTuple_Resize(&t, n) < 0)
		goto out;
	err = call(func ? name : "trace_unhandled", func ? func : unhandled, t);
	Py_XDECREF(callchain);
	Py_DECREF(t);
	return err;
out:
	Py_XDECREF(callchain);
	Py_XDECREF(dict);
	Py_XDECREF(t);
	return py_fail(name);
}

static int general_event(const struct prf_script_event *ev)
{
	PyObject *func = handler("process_event"), *callchain, *d, *t;
	int err;

	if (!func)
		return PyErr_Occurred() ? py_fail("process_event") : 0;
	callchain = callchain_list(ev);
	if (!callchain)
		return py_fail("process_event");
	d = sample_dict(ev, callchain);
	if (!d)
		return py_fail("process_event");
	t = PyTuple_Pack(1, d);
	Py_DECREF(d);
	if (!t)
		return py_fail("process_event");
	err = call("process_event", func, t);
	Py_DECREF(t);
	return err;
}

static int py_event(const struct prf_script_event *ev)
{
	int err;

	py.ev = ev;
	err = ev->tp_handler ? tracepoint_event(ev) : general_event(ev);
	py.ev = NULL;
	return err;
}

/* The script's define_*() named by what, when it has one (it imported
 * Core, or defines its own). */
static int py_define(enum prf_script_define what, const char *handler_name, const char *field,
		     uint64_t value, const char *str)
{
	static const char *const names[] = {
		[PRF_DEFINE_FLAG_FIELD] = "define_flag_field",
		[PRF_DEFINE_FLAG_VALUE] = "define_flag_value",
		[PRF_DEFINE_SYMBOLIC_FIELD] = "define_symbolic_field",
		[PRF_DEFINE_SYMBOLIC_VALUE] = "define_symbolic_value",
	};
	const char *name = names[what];
	PyObject *f = handler(name), *t, *fld;
	int err;

	if (!f)
		return PyErr_Occurred() ? py_fail(name) : 0;
	fld = field ? PyUnicode_FromString(field) : (Py_INCREF(Py_None), Py_None);
	switch (what) {
	case PRF_DEFINE_FLAG_FIELD:
		t = Py_BuildValue("(sNs)", handler_name, fld, str);
		break;
	case PRF_DEFINE_SYMBOLIC_FIELD:
		t = Py_BuildValue("(sN)", handler_name, fld);
		break;
	default:
		t = Py_BuildValue("(sNls)", handler_name, fld, (long)value, str);
		break;
	}
	if (!t)
		return py_fail(name);
	err = call(name, f, t);
	Py_DECREF(t);
	return err;
}

/* context_switch(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out,
 * out_preempt, sample_machine_pid, vcpu), perf's arguments */
static int py_switch(const struct prf_script_switch *sw)
{
	PyObject *f = handler("context_switch"), *t;
	int err;

	if (!f)
		return PyErr_Occurred() ? py_fail("context_switch") : 0;
	t = Py_BuildValue("(KiiiiiiNNii)", (unsigned long long)sw->time, sw->cpu, sw->pid, sw->tid,
			  sw->np_pid, sw->np_tid, sw->machine_pid, PyBool_FromLong(sw->out),
			  PyBool_FromLong(sw->out_preempt), sw->sample_machine_pid, sw->vcpu);
	if (!t)
		return py_fail("context_switch");
	err = call("context_switch", f, t);
	Py_DECREF(t);
	return err;
}

/* ---- db export ------------------------------------------------------ */

/* The truth of global name in the script's __main__: 1, 0 (false or not
 * defined), -1 after printing the error of its truth test. */
static int py_global_flag(const char *name)
{
	PyObject *v;
	int r;

	if (!py.started)
		return 0;
	v = PyDict_GetItemString(py.main_dict, name);	/* borrowed */
	if (!v)
		return 0;
	r = PyObject_IsTrue(v);
	return r < 0 ? py_fail(name) : r;
}

/* name(args...) when the script defines name: perf's table calls */
static int py_call(const char *name, const struct prf_script_field *args, size_t n)
{
	PyObject *f = handler(name), *t;
	int err;

	if (!f)
		return PyErr_Occurred() ? py_fail(name) : 0;
	t = PyTuple_New((Py_ssize_t)n);
	if (!t)
		return py_fail(name);
	for (size_t i = 0; i < n; i++) {
		PyObject *o = field_value(&args[i], false);

		if (!o) {
			Py_DECREF(t);
			return py_fail(name);
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, o);
	}
	err = call(name, f, t);
	Py_DECREF(t);
	return err;
}

/* ---- start and stop ------------------------------------------------- */

/* The script's top level, in __main__ (as `python3 FILE` runs it). */
static int run_file(const char *path)
{
	PyObject *main_mod, *code, *r, *src;
	FILE *f = fopen(path, "rb");
	char what[PATH_MAX + 16];
	char *buf = NULL;
	size_t len = 0;

	if (!f) {
		fprintf(stderr, "prf script: cannot open Python script %s: %s\n", path, strerror(errno));
		*py.exit_status = 1;
		return -1;
	}
	{
		FILE *m = open_memstream(&buf, &len);
		char chunk[65536];
		size_t n;

		if (!m) {
			fclose(f);
			*py.exit_status = 1;
			return -1;
		}
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, n, m);
		fclose(m);
		fclose(f);
	}
	main_mod = PyImport_AddModule("__main__");	/* borrowed */
	if (!main_mod) {
		free(buf);
		return py_fail("script");
	}
	py.main_dict = PyModule_GetDict(main_mod);
	src = PyUnicode_DecodeFSDefault(path);
	if (!src || PyDict_SetItemString(py.main_dict, "__file__", src) < 0) {
		Py_XDECREF(src);
		free(buf);
		return py_fail("script");
	}
	Py_DECREF(src);
	snprintf(what, sizeof(what), "script %s", path);
	code = Py_CompileStringExFlags(buf, path, Py_file_input, NULL, -1);
	free(buf);
	if (!code)
		return py_fail(what);
	r = PyEval_EvalCode(code, py.main_dict, py.main_dict);
	Py_DECREF(code);
	if (!r)
		return py_fail(what);
	Py_DECREF(r);
	return 0;
}

static int py_start(int argc, const char **argv, const char *exec_path)
{
	PyConfig config;
	PyStatus st;
	char dir[PATH_MAX];

	if (exec_path)
		setenv("PERF_EXEC_PATH", exec_path, 0);
	if (PyImport_AppendInittab("perf_trace_context", ctx_init) < 0) {
		fprintf(stderr, "prf script: cannot register perf_trace_context\n");
		*py.exit_status = 1;
		return -1;
	}
	PyConfig_InitPythonConfig(&config);
	config.parse_argv = 0;
	config.install_signal_handlers = 0;
	st = PyConfig_SetBytesArgv(&config, argc, (char *const *)argv);
	if (!PyStatus_Exception(st))
		st = Py_InitializeFromConfig(&config);
	PyConfig_Clear(&config);
	if (PyStatus_Exception(st)) {
		fprintf(stderr, "prf script: cannot start Python: %s\n",
			st.err_msg ? st.err_msg : "unknown error");
		*py.exit_status = 1;
		return -1;
	}
	py.started = true;
	py.handlers = PyDict_New();
	if (!py.context)
		py.context = PyCapsule_New(&py, NULL, NULL);
	if (!py.handlers || !py.context)
		return py_fail("start");
	/* the script's directory first on sys.path, as for `python3 FILE` */
	if (realpath(argv[0], dir)) {
		PyObject *sys_path = PySys_GetObject("path");	/* borrowed */
		PyObject *d = PyUnicode_DecodeFSDefault(dirname(dir));

		if (!d || !sys_path || PyList_Insert(sys_path, 0, d) < 0) {
			Py_XDECREF(d);
			return py_fail("start");
		}
		Py_DECREF(d);
	}
	if (run_file(argv[0]))
		return -1;	/* its traceback printed */
	return call_simple("trace_begin");
}

static int py_end(void)
{
	return call_simple("trace_end");
}

static void py_stop(void)
{
	if (!py.started)
		return;
	Py_CLEAR(py.handlers);
	Py_CLEAR(py.context);
	str_cache_clear();
	Py_CLEAR(attr_obj);
	Py_CLEAR(zeros);
	if (py.broken_pipe) {
		/* nothing left to flush to: no second error at exit */
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
	}
	/* flushes sys.stdout: a closed pipe is no error of the script */
	if (Py_FinalizeEx() < 0)
		fflush(stderr);
	py.started = false;
}

/*
 * Under LeakSanitizer (the SANITIZE=address build): CPython 3.11 does not
 * free everything at Py_FinalizeEx() once common modules are imported
 * (a program that only runs "import collections" between Py_Initialize()
 * and Py_FinalizeEx() loses 13628 bytes in 6 blocks). The allocations
 * made while Python runs, inside the entry points below, are left out of
 * the leak report; prf's own, between these calls, are still checked.
 */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define PY_ENTER() __lsan_disable()
#define PY_LEAVE() __lsan_enable()
#else
#define PY_ENTER() do { } while (0)
#define PY_LEAVE() do { } while (0)
#endif

static int entry_start(int argc, const char **argv, const char *exec_path)
{
	int r;

	PY_ENTER();
	r = py_start(argc, argv, exec_path);
	PY_LEAVE();
	return r;
}

static int entry_event(const struct prf_script_event *ev)
{
	int r;

	PY_ENTER();
	r = py_event(ev);
	PY_LEAVE();
	return r;
}

static int entry_define(enum prf_script_define what, const char *handler_name, const char *field,
			uint64_t value, const char *str)
{
	int r;

	PY_ENTER();
	r = py_define(what, handler_name, field, value, str);
	PY_LEAVE();
	return r;
}

static int entry_switch(const struct prf_script_switch *sw)
{
	int r;

	PY_ENTER();
	r = py_switch(sw);
	PY_LEAVE();
	return r;
}

static int entry_end(void)
{
	int r;

	PY_ENTER();
	r = py_end();
	PY_LEAVE();
	return r;
}

static void entry_stop(void)
{
	PY_ENTER();
	py_stop();
	PY_LEAVE();
}

static bool entry_has_handler(const char *name)
{
	bool r;

	PY_ENTER();
	r = has_handler(name);
	PY_LEAVE();
	return r;
}

static int entry_global_flag(const char *name)
{
	int r;

	PY_ENTER();
	r = py_global_flag(name);
	PY_LEAVE();
	return r;
}

static int entry_call(const char *name, const struct prf_script_field *args, size_t n)
{
	int r;

	PY_ENTER();
	r = py_call(name, args, n);
	PY_LEAVE();
	return r;
}

static int exit_status_store;

__attribute__((visibility("default")))
int prf_script_plugin_init(struct prf_script_plugin *plugin)
{
	if (plugin->abi_version != PRF_SCRIPT_ABI_VERSION)
		return -EINVAL;
	py.exit_status = plugin->exit_status ? plugin->exit_status : &exit_status_store;
	plugin->start = entry_start;
	plugin->event = entry_event;
	plugin->define = entry_define;
	plugin->context_switch = entry_switch;
	plugin->end = entry_end;
	plugin->stop = entry_stop;
	plugin->has_handler = entry_has_handler;
	plugin->global_flag = entry_global_flag;
	plugin->call = entry_call;
	return 0;
}

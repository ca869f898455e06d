// SPDX-License-Identifier: GPL-2.0
/*
 * Flamegraph HTML and SVG writers (see flamegraph.h). Own layout and
 * renderer; the only thing taken from Brendan Gregg's flame graphs is the
 * idea (frames as boxes, width by samples, callers below callees).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph.h"
#include "flamegraph-stat.h"
#include "folded.h"
#include "../format/event.h"
#include "../lib/util.h"

void flamegraph__color(const char *name, int kind, char *out)
{
	flamegraph__color_view(name, kind, false, out);
}

void flamegraph__color_view(const char *name, int kind, bool off_cpu, char *out)
{
	uint32_t h = 2166136261u;
	double v1, v2;
	int r, g, b;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	v1 = (double)(h & 0xff) / 255.0;
	v2 = (double)((h >> 8) & 0xff) / 255.0;
	if (off_cpu) {
		/* blues (FlameGraph's off-CPU "io" idea): darker for the
		 * kernel, mid blue for the program, cyan-blue for libraries */
		switch (kind) {
		case FOLDED_KIND_KERNEL:
			r = 70 + (int)(40 * v1); g = 110 + (int)(40 * v2); b = 190 + (int)(40 * v1);
			break;
		case FOLDED_KIND_MAIN:
			r = 90 + (int)(50 * v1); g = 140 + (int)(50 * v2); b = 225 + (int)(30 * v1);
			break;
		case FOLDED_KIND_LIB:
			r = 80 + (int)(50 * v1); g = 180 + (int)(50 * v2); b = 215 + (int)(40 * v1);
			break;
		case FOLDED_KIND_ROOT:
			r = 150 + (int)(40 * v1); g = 150 + (int)(30 * v2); b = 230 + (int)(25 * v2);
			break;
		default:
			r = 150 + (int)(40 * v1); g = 165 + (int)(40 * v1); b = 200 + (int)(40 * v1);
			break;
		}
		snprintf(out, 8, "#%02x%02x%02x", r & 0xff, g & 0xff, b & 0xff);
		return;
	}
	switch (kind) {
	case FOLDED_KIND_KERNEL:	/* orange */
		r = 230 + (int)(25 * v1); g = 145 + (int)(45 * v2); b = 40 + (int)(30 * v1);
		break;
	case FOLDED_KIND_MAIN:		/* red */
		r = 200 + (int)(55 * v1); g = 50 + (int)(60 * v2); b = 50 + (int)(30 * v1);
		break;
	case FOLDED_KIND_LIB:		/* yellow-green */
		r = 150 + (int)(60 * v1); g = 190 + (int)(50 * v2); b = 60 + (int)(40 * v1);
		break;
	case FOLDED_KIND_ROOT:		/* purple */
		r = 170 + (int)(40 * v1); g = 140 + (int)(30 * v2); b = 215 + (int)(40 * v2);
		break;
	default:			/* grey */
		r = g = b = 165 + (int)(45 * v1);
		break;
	}
	snprintf(out, 8, "#%02x%02x%02x", r & 0xff, g & 0xff, b & 0xff);
}

/* ---- time: samples kept for the heatmap and timeline ---- */

struct fg_rec {
	uint64_t time;			/* ns */
	const struct folded_node *leaf;
	uint64_t weight;
	uint32_t thread;		/* index into threads */
	bool off_cpu;
};

struct fg_thread {
	int32_t pid, tid;
	const char *comm_src;		/* comm pointer last copied */
	char comm[64];
};

struct flamegraph_time {
	unsigned int per_sec;
	struct fg_rec *recs;
	size_t nr, alloc;
	struct fg_thread *threads;
	uint32_t nr_threads, alloc_threads;
	uint32_t *thash;		/* thread index + 1 by (pid, tid); 0 free */
	size_t thash_alloc;		/* power of 2 */
	uint32_t last;			/* thread of the last sample */
};

struct flamegraph_time *flamegraph_time__new(unsigned int slices_per_sec)
{
	struct flamegraph_time *t = calloc(1, sizeof(*t));

	if (t)
		t->per_sec = slices_per_sec ? slices_per_sec : 50;
	return t;
}

void flamegraph_time__delete(struct flamegraph_time *t)
{
	if (!t)
		return;
	free(t->recs);
	free(t->threads);
	free(t->thash);
	free(t);
}

static size_t thread_slot(int32_t pid, int32_t tid, size_t mask)
{
	uint64_t h = ((uint64_t)(uint32_t)pid << 32 | (uint32_t)tid) * 0x9E3779B97F4A7C15ULL;

	return (size_t)(h >> 20) & mask;
}

/* Index of thread (pid, tid), added when new; -1 on ENOMEM. */
static int64_t time_thread(struct flamegraph_time *t, int32_t pid, int32_t tid)
{
	size_t j, mask;

	if (t->nr_threads && t->threads[t->last].pid == pid && t->threads[t->last].tid == tid)
		return t->last;
	if ((t->nr_threads + 1) * 2 > t->thash_alloc) {
		size_t n = t->thash_alloc ? t->thash_alloc * 2 : 64;
		uint32_t *h = calloc(n, sizeof(*h));

		if (!h)
			return -1;
		for (uint32_t i = 0; i < t->nr_threads; i++) {
			for (j = thread_slot(t->threads[i].pid, t->threads[i].tid, n - 1); h[j];
			     j = (j + 1) & (n - 1))
				;
			h[j] = i + 1;
		}
		free(t->thash);
		t->thash = h;
		t->thash_alloc = n;
	}
	mask = t->thash_alloc - 1;
	for (j = thread_slot(pid, tid, mask); t->thash[j]; j = (j + 1) & mask) {
		const struct fg_thread *th = &t->threads[t->thash[j] - 1];

		if (th->pid == pid && th->tid == tid)
			return t->last = t->thash[j] - 1;
	}
	if (t->nr_threads == t->alloc_threads) {
		uint32_t n = t->alloc_threads ? t->alloc_threads * 2 : 16;
		struct fg_thread *v = realloc(t->threads, n * sizeof(*v));

		if (!v)
			return -1;
		t->threads = v;
		t->alloc_threads = n;
	}
	memset(&t->threads[t->nr_threads], 0, sizeof(t->threads[0]));
	t->threads[t->nr_threads].pid = pid;
	t->threads[t->nr_threads].tid = tid;
	t->thash[j] = t->nr_threads + 1;
	return t->last = t->nr_threads++;
}

int flamegraph_time__observe(void *arg, const struct perf_sample *sample, const char *comm,
			     bool off_cpu, const struct folded_node *leaf, uint64_t weight)
{
	struct flamegraph_time *t = arg;
	int64_t th = time_thread(t, (int32_t)sample->pid, (int32_t)sample->tid);
	struct fg_thread *thr;

	if (th < 0)
		return -ENOMEM;
	thr = &t->threads[th];
	if (comm && comm != thr->comm_src) {	/* the latest comm names the lane */
		snprintf(thr->comm, sizeof(thr->comm), "%s", comm);
		thr->comm_src = comm;
	}
	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 4096;
		struct fg_rec *v = realloc(t->recs, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->recs = v;
		t->alloc = n;
	}
	t->recs[t->nr++] = (struct fg_rec){ .time = sample->time, .leaf = leaf, .weight = weight,
					    .thread = (uint32_t)th, .off_cpu = off_cpu };
	return 0;
}

struct fg_ctx {
	FILE *fp;
	const struct flamegraph_opts *opts;
	const struct flamegraph_view *view;
	int y0;				/* SVG: top of this view's graph */
	uint64_t total[2];
	uint64_t min_value;
	double max_delta;
	int max_depth;			/* SVG: depth of the deepest frame drawn */
	/* name table: (name, kind) -> index */
	struct fg_name { const char *name; int kind; int idx; } *names;
	size_t alloc_names;
	int nr_names;
	const char **order_names;	/* idx -> name */
	int *order_kinds;
	/* with time data: node -> id (pre-order number of the nodes
	 * written; a node left out maps to its nearest written ancestor) */
	struct fg_id { const struct folded_node *node; int id; } *ids;
	size_t alloc_ids, nr_ids;
	int next_id;
};

static size_t id_slot(const struct folded_node *n, size_t mask)
{
	return (size_t)(((uintptr_t)n * 0x9E3779B97F4A7C15ULL) >> 17) & mask;
}

static int fg_set_id(struct fg_ctx *c, const struct folded_node *n, int id)
{
	size_t j;

	if ((c->nr_ids + 1) * 2 > c->alloc_ids) {
		size_t sz = c->alloc_ids ? c->alloc_ids * 2 : 1024;
		struct fg_id *t = calloc(sz, sizeof(*t));

		if (!t)
			return -ENOMEM;
		for (size_t i = 0; i < c->alloc_ids; i++) {
			if (!c->ids[i].node)
				continue;
			for (j = id_slot(c->ids[i].node, sz - 1); t[j].node; j = (j + 1) & (sz - 1))
				;
			t[j] = c->ids[i];
		}
		free(c->ids);
		c->ids = t;
		c->alloc_ids = sz;
	}
	for (j = id_slot(n, c->alloc_ids - 1); c->ids[j].node; j = (j + 1) & (c->alloc_ids - 1))
		;
	c->ids[j].node = n;
	c->ids[j].id = id;
	c->nr_ids++;
	return 0;
}

static int fg_get_id(const struct fg_ctx *c, const struct folded_node *n)
{
	if (!c->alloc_ids)
		return -1;
	for (size_t j = id_slot(n, c->alloc_ids - 1); c->ids[j].node; j = (j + 1) & (c->alloc_ids - 1))
		if (c->ids[j].node == n)
			return c->ids[j].id;
	return -1;
}

/* A subtree left out of the page: its samples count for id. */
static int fg_set_hidden_ids(struct fg_ctx *c, const struct folded_node *n, int id)
{
	if (fg_set_id(c, n, id))
		return -ENOMEM;
	for (unsigned int i = 0; i < n->nr_children; i++)
		if (fg_set_hidden_ids(c, n->children[i], id))
			return -ENOMEM;
	return 0;
}

static bool fg_visible(struct fg_ctx *c, const struct folded_node *n)
{
	return n->total[0] > 0 && n->total[0] >= c->min_value;
}

static double share(const struct fg_ctx *c, const struct folded_node *n, int set)
{
	return c->total[set] ? (double)n->total[set] / (double)c->total[set] : 0.0;
}

/* --diff: the largest change of share over the frames drawn (colors) */
static void fg_scan_delta(struct fg_ctx *c, const struct folded_node *n)
{
	double d = fabs(share(c, n, 0) - share(c, n, 1));

	if (c->opts->stat) {	/* groups: the largest significant change */
		const struct diff_stat_entry *e = flamegraph_stat__find(c->opts->stat, n);

		d = e && e->changed ? fabs(e->delta) : 0.0;
	}

	if (d > c->max_delta)
		c->max_delta = d;
	for (unsigned int i = 0; i < n->nr_children; i++)
		if (fg_visible(c, n->children[i]))
			fg_scan_delta(c, n->children[i]);
}

static int fg_name_index(struct fg_ctx *c, const char *name, int kind)
{
	uint64_t h = ((uintptr_t)name * 0x9E3779B97F4A7C15ULL) ^ (uint64_t)kind;
	size_t j;

	if ((size_t)(c->nr_names + 1) * 2 > c->alloc_names) {
		size_t n = c->alloc_names ? c->alloc_names * 2 : 1024;
		struct fg_name *t = calloc(n, sizeof(*t));
		const char **on = realloc(c->order_names, n * sizeof(*on));
		int *ok = realloc(c->order_kinds, n * sizeof(*ok));

		if (on)
			c->order_names = on;
		if (ok)
			c->order_kinds = ok;
		if (!t || !on || !ok) {
			free(t);
			return -1;
		}
		for (size_t i = 0; i < c->alloc_names; i++) {
			struct fg_name *e = &c->names[i];
			uint64_t eh;

			if (!e->name)
				continue;
			eh = ((uintptr_t)e->name * 0x9E3779B97F4A7C15ULL) ^ (uint64_t)e->kind;
			for (j = (eh >> 9) & (n - 1); t[j].name; j = (j + 1) & (n - 1))
				;
			t[j] = *e;
		}
		free(c->names);
		c->names = t;
		c->alloc_names = n;
	}
	for (j = (h >> 9) & (c->alloc_names - 1); c->names[j].name; j = (j + 1) & (c->alloc_names - 1))
		if (c->names[j].name == name && c->names[j].kind == kind)
			return c->names[j].idx;
	c->names[j].name = name;
	c->names[j].kind = kind;
	c->names[j].idx = c->nr_names;
	c->order_names[c->nr_names] = name;
	c->order_kinds[c->nr_names] = kind;
	return c->nr_names++;
}

static void diff_color(const struct fg_ctx *c, const struct folded_node *n, char *out)
{
	double d = share(c, n, 0) - share(c, n, 1), i;
	int s;

	if (c->opts->stat) {
		const struct diff_stat_entry *e = flamegraph_stat__find(c->opts->stat, n);

		if (!e || !e->changed) {	/* inside the noise: neutral */
			snprintf(out, 8, "#dddddd");
			return;
		}
		d = e->delta;
	}
	i = c->max_delta > 0 ? fabs(d) / c->max_delta : 0.0;
	s = 255 - (int)(200 * i);

	if (d > 0)
		snprintf(out, 8, "#ff%02x%02x", s, s);
	else if (d < 0)
		snprintf(out, 8, "#%02x%02xff", s, s);
	else
		snprintf(out, 8, "#ffffff");
}

/* JSON string body escaped for use inside <script>. */
static void put_js_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

static void put_xml(FILE *fp, const char *s, size_t max)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p && n < max; p++, n++) {
		switch (*p) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default:
			if (*p < 0x20)
				fputc('?', fp);
			else
				fputc(*p, fp);
		}
	}
}

/* ,{"a":..,"b":..,"d":..,"p":..,"sig":..}: a frame's test over the runs */
static void fg_emit_stat(struct fg_ctx *c, const struct folded_node *n)
{
	const struct diff_stat_entry *e = flamegraph_stat__find(c->opts->stat, n);

	if (!e) {
		fputs(",{\"sig\":false}", c->fp);
		return;
	}
	fprintf(c->fp, ",{\"a\":%.4f,\"b\":%.4f,\"d\":%.4f", e->mean_a, e->mean_b, e->delta);
	if (e->tested)
		fprintf(c->fp, ",\"p\":%.6g", e->p_adj);
	fprintf(c->fp, ",\"sig\":%s}", e->changed ? "true" : "false");
}

static int fg_emit_node(struct fg_ctx *c, const struct folded_node *n)
{
	int idx = fg_name_index(c, n->name, n->kind), id = c->next_id++;
	bool first = true;

	if (idx < 0)
		return -ENOMEM;
	if (c->opts->time && !c->opts->diff && fg_set_id(c, n, id))
		return -ENOMEM;
	fprintf(c->fp, "[%d,%" PRIu64 ",[", idx, n->total[0]);
	for (unsigned int i = 0; i < n->nr_children; i++) {
		const struct folded_node *k = n->children[i];

		if (!fg_visible(c, k)) {
			if (c->opts->time && !c->opts->diff && fg_set_hidden_ids(c, k, id))
				return -ENOMEM;
			continue;
		}
		if (!first)
			fputc(',', c->fp);
		first = false;
		if (fg_emit_node(c, k))
			return -ENOMEM;
	}
	fputc(']', c->fp);
	if (c->opts->diff) {
		char col[8];

		diff_color(c, n, col);
		fprintf(c->fp, ",%" PRIu64 ",\"%s\"", n->total[1], col);
		if (c->opts->stat)
			fg_emit_stat(c, n);
	}
	fputc(']', c->fp);
	return 0;
}

static const char fg_css[] =
"body{font-family:Verdana,Arial,sans-serif;margin:10px;background:#fafafa;color:#222}\n"
"h1{font-size:18px;text-align:center;margin:4px 0}\n"
"h2{font-size:14px;margin:10px 0 4px 0}\n"
"#subtitle{font-size:12px;text-align:center;color:#555;margin-bottom:6px}\n"
"#bar{font-size:12px;margin:6px 0}#bar input{width:240px}\n"
".matched{margin-left:10px;font-weight:bold;font-size:12px}\n"
".chart{position:relative;width:100%;overflow-x:hidden;overflow-y:auto;max-height:85vh;background:#fff;border:1px solid #ddd}\n"
".offcpu .chart{background:#f6f9ff}\n"
".f{position:absolute;height:16px;font-size:11px;line-height:16px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;cursor:pointer;box-sizing:border-box;padding-left:2px;border-right:1px solid #fafafa;font-family:Menlo,Consolas,monospace}\n"
".f:hover{outline:1px solid #000;z-index:2}\n"
".anc{opacity:0.55}\n"
".details{font-size:12px;margin-top:6px;min-height:16px;font-family:Menlo,Consolas,monospace}\n"
"#prf-status{font-size:10px;color:#999;margin-top:4px}\n"
"#time-panel{margin:6px 0}\n"
".tbar{font-size:12px;margin:4px 0}\n"
"#hm-info{margin-left:10px;font-family:Menlo,Consolas,monospace}\n"
"#heatmap{width:100%;overflow-x:auto}\n"
"#heatmap canvas{cursor:crosshair;display:block}\n"
"#timeline{margin-top:4px;width:100%}\n"
".lane{display:flex;align-items:center;height:18px;font-size:11px}\n"
".lane-name{width:160px;flex:none;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;cursor:pointer;font-family:Menlo,Consolas,monospace}\n"
".lane canvas{cursor:crosshair;border-left:1px solid #ccc}\n"
".lane.sel{background:#dde6ff}\n"
"#range-cmd{font-size:11px;font-family:Menlo,Consolas,monospace;color:#333;min-height:14px;margin-top:4px}\n";

static const char fg_js[] =
"(function(){\n"
"'use strict';\n"
"var status=document.getElementById('prf-status');\n"
"window.addEventListener('error',function(e){status.textContent='prf-error: '+e.message;});\n"
"var G=window.PRF_FG, ROW=17, term=null, views=[];\n"
"function sfx(i){return i?'-'+i:'';}\n"
"function pct(x){return (100*x).toFixed(2)+'%';}\n"
"function amount(v,unit){\n"
"  if(unit==='ns')return v>=1e9?(v/1e9).toFixed(3)+' s':(v/1e6).toFixed(3)+' ms';\n"
"  return v+' '+unit;\n"
"}\n"
"function hit(n){return term!==null&&term.test(n.name);}\n"
"function View(D,i){\n"
"  var self=this, byId=[];\n"
"  this.D=D;\n"
"  function make(a,parent,depth){\n"
"    var nm=D.names[a[0]];\n"
"    var n={name:nm[0],color:a.length>3?a[4]:nm[1],v:a[1],v0:a[1],base:a.length>3?a[3]:0,parent:parent,depth:depth,kids:[],id:byId.length};\n"
"    byId.push(n);\n"
"    for(var k=0;k<a[2].length;k++)n.kids.push(make(a[2][k],n,depth+1));\n"
"    return n;\n"
"  }\n"
"  this.root=make(D.tree,null,0); this.zoom=this.root; this.byId=byId;\n"
"  this.section=document.getElementById('fg-view'+sfx(i));\n"
"  this.chart=document.getElementById('chart'+sfx(i));\n"
"  this.details=document.getElementById('details'+sfx(i));\n"
"  this.matchedEl=document.getElementById('matched'+sfx(i));\n"
"  this.chart.addEventListener('click',function(e){var n=e.target.prfNode;if(n){self.zoom=n;renderAll();}});\n"
"  this.chart.addEventListener('mouseover',function(e){var n=e.target.prfNode;if(n)self.details.textContent=self.label(n);});\n"
"}\n"
"View.prototype.label=function(n){\n"
"  var D=this.D, root=this.root;\n"
"  var s=n.name+' ('+amount(n.v,D.unit)+', '+pct(root.v?n.v/root.v:0)+')';\n"
"  if(G.diff){var a=D.totalBase?n.base/D.totalBase:0,b=root.v?n.v/root.v:0;\n"
"    s+=' before '+pct(a)+', after '+pct(b)+', change '+(b>=a?'+':'')+(100*(b-a)).toFixed(2)+' pts';}\n"
"  return s;\n"
"};\n"
"View.prototype.render=function(){\n"
"  var self=this, chart=this.chart, W=chart.clientWidth||1200, count=0, frag=document.createDocumentFragment();\n"
"  var deepest=this.zoom.depth;\n"
"  chart.textContent=''; this.rootEl=null;\n"
"  function place(n,x,w,anc){\n"
"    var d=document.createElement('div');\n"
"    d.className='f'+(anc?' anc':'');\n"
"    d.style.left=x+'px'; d.style.width=Math.max(w,1)+'px';\n"
"    if(w<3)d.style.borderRight='0';\n"
"    d.style.top=((G.inverted?n.depth:deepest-n.depth)*ROW)+'px';\n"
"    d.style.background=hit(n)?'#e040e0':n.color;\n"
"    if(w>28)d.textContent=n.name;\n"
"    d.title=self.label(n); d.prfNode=n; frag.appendChild(d); count++;\n"
"    if(!n.parent)self.rootEl=d;\n"
"  }\n"
"  function walk(n,x,w,visit){\n"
"    if(w<0.4)return;\n"
"    visit(n,x,w);\n"
"    var cx=x;\n"
"    for(var i=0;i<n.kids.length;i++){var k=n.kids[i],kw=n.v?w*k.v/n.v:0;walk(k,cx,kw,visit);cx+=kw;}\n"
"  }\n"
"  // as tall as the frames drawn: a deep stack too narrow to draw adds no\n"
"  // empty rows above the graph (flamegraph.pl prunes before it measures)\n"
"  walk(this.zoom,0,W,function(n){if(n.depth>deepest)deepest=n.depth;});\n"
"  chart.style.height=((deepest+1)*ROW)+'px';\n"
"  for(var p=this.zoom.parent;p;p=p.parent)place(p,0,W,true);\n"
"  walk(this.zoom,0,W,function(n,x,w){place(n,x,w,false);});\n"
"  chart.appendChild(frag);\n"
"  // the base (root and widest frames) in view: a flame graph taller than\n"
"  // the chart's box scrolls to its bottom, an icicle to its top\n"
"  chart.scrollTop=G.inverted?0:chart.scrollHeight;\n"
"  this.updateMatched();\n"
"  return count;\n"
"};\n"
"/* Values from the time slices a..b (null: all) of the threads set in mask\n"
"   (by thread index; null: all):\n"
"   each cell adds its weights to the nodes its stacks ended at; the totals\n"
"   are summed up the tree (ids are pre-order, a parent before its kids). */\n"
"View.prototype.narrow=function(a,b,mask){\n"
"  var ids=this.byId, N=ids.length, C=this.D.cells, i;\n"
"  if(!C)return;\n"
"  if(a===null&&!mask){for(i=0;i<N;i++)ids[i].v=ids[i].v0;}\n"
"  else{\n"
"    var tot=new Float64Array(N);\n"
"    for(i=0;i<C.length;i++){var c=C[i];\n"
"      if((a!==null&&(c[0]<a||c[0]>b))||(mask&&!mask[c[1]]))continue;\n"
"      for(var k=0,l=c[2];k<l.length;k+=2)tot[l[k]]+=l[k+1];}\n"
"    for(i=N-1;i>0;i--)tot[ids[i].parent.id]+=tot[i];\n"
"    for(i=0;i<N;i++)ids[i].v=tot[i];\n"
"  }\n"
"  for(var z=this.zoom;z;z=z.parent)if(!z.v)this.zoom=this.root;\n"
"};\n"
"View.prototype.updateMatched=function(){\n"
"  var el=this.matchedEl, root=this.root;\n"
"  if(!el)return;\n"
"  if(term===null){el.textContent='';return;}\n"
"  var sum=0;\n"
"  (function m(n){if(hit(n)){sum+=n.v;return;}for(var i=0;i<n.kids.length;i++)m(n.kids[i]);})(root);\n"
"  el.textContent='Matched: '+pct(root.v?sum/root.v:0);\n"
"};\n"
"function renderAll(){\n"
"  var count=0;\n"
"  for(var i=0;i<views.length;i++)\n"
"    if(views[i].section.style.display!=='none')count+=views[i].render();\n"
"  if(T){drawHeatmap();drawTimeline();}\n"
"  var lay=[];\n"
"  ['heatmap','timeline','chart'].forEach(function(id){var e=document.getElementById(id);if(!e)return;\n"
"    var r=e.getBoundingClientRect();lay.push(id+':'+[r.left+scrollX,r.top+scrollY,r.width,r.height].map(Math.round).join(','));});\n"
"  document.body.setAttribute('data-prf-layout',lay.join(';'));\n"
"  status.textContent='rendered '+count+' frames';\n"
"  document.body.setAttribute('data-prf-rendered','1');\n"
"  // time from a selection to its graph drawn (ms): the page's reaction time\n"
"  if(narrowT!==null){document.body.setAttribute('data-prf-narrow-ms',(performance.now()-narrowT).toFixed(1));narrowT=null;}\n"
"}\n"
"for(var i=0;i<G.views.length;i++)views.push(new View(G.views[i],i));\n""/* on load, the first view's base (its root frame) in the window: a flame\n"
"   graph's box is cut to the room left below the heatmap and timeline (at\n"
"   least 150 px; its render scrolls it to the bottom), and when the root\n"
"   is still below or above the window the page scrolls to it */\n"
"function baseInView(){\n"
"  var v=null,i,r;\n"
"  for(i=0;i<views.length&&!v;i++)if(views[i].section.style.display!=='none')v=views[i];\n"
"  if(!v||!v.rootEl)return;\n"
"  r=v.chart.getBoundingClientRect();\n"
"  if(!G.inverted&&r.bottom>innerHeight){v.chart.style.maxHeight=Math.max(150,Math.floor(innerHeight-r.top-8))+'px';\n"
"    v.chart.scrollTop=v.chart.scrollHeight;}\n"
"  r=v.rootEl.getBoundingClientRect();\n"
"  if(r.bottom>innerHeight)scrollBy(0,r.bottom-innerHeight+8);else if(r.top<0)scrollBy(0,r.top-8);\n"
"}\n"
"/* ---- time: heatmap (#heatmap) and per-thread timeline (#timeline) ---- */\n"
"var T=G.time, S={a:null,b:null,th:-1,pid:-1,ev:0}, LBL=160, narrowT=null;\n"
"function sliceLabel(s){return (s/T.perSec).toFixed(3)+' s';}\n"
"function weightOf(v,w){return amount(views[v].D.unit==='ns'?w:Math.round(w),views[v].D.unit);}\n"
"function cellsOf(v){return views[v].D.cells||[];}\n"
"function sum(l){var t=0;for(var k=1;k<l.length;k+=2)t+=l[k];return t;}\n"
"function countsOf(v,mask){var a=new Float64Array(T.nSlices),C=cellsOf(v);\n"
"  for(var i=0;i<C.length;i++)if(!mask||mask[C[i][1]])a[C[i][0]]+=sum(C[i][2]);return a;}\n"
"/* the threads shown: one (S.th, a thread index), a process's (S.pid), or all (null) */\n"
"function maskOf(th,pid){if(th<0&&pid<0)return null;var m=new Uint8Array(T.threads.length);\n"
"  for(var i=0;i<m.length;i++)m[i]=th>=0?i===th:T.threads[i][0]===pid;return m;}\n"
"function nsStr(x){var s=x.toString();while(s.length<10)s='0'+s;return s.slice(0,-9)+'.'+s.slice(-9);}\n"
"function narrowAll(draw){\n"
"  var t=performance.now();\n"
"  for(var i=0;i<views.length;i++)views[i].narrow(S.a,S.b,maskOf(S.th,S.pid));\n"
"  var cmd='', p=[];\n"
"  if(S.a!==null){var t0=BigInt(T.t0),ns=BigInt(T.sliceNs);\n"
"    cmd+=' --time '+nsStr(t0+BigInt(S.a)*ns)+','+nsStr(t0+BigInt(S.b+1)*ns-BigInt(1));\n"
"    p.push('range='+S.a+'-'+S.b);}\n"
"  if(S.th>=0){cmd+=' --tid '+T.threads[S.th][1];p.push('tid='+T.threads[S.th][1]);}\n"
"  else if(S.pid>=0){cmd+=' --pid '+S.pid;p.push('pid='+S.pid);}\n"
"  if(S.ev)p.push('event='+S.ev);\n"
"  document.getElementById('range-cmd').textContent=cmd?'prf flamegraph'+cmd+(S.a!==null?' ('+sliceLabel(S.a)+' to '+sliceLabel(S.b+1)+')':''):'';\n"
"  document.getElementById('hm-thread').value=S.th>=0?'t'+S.th:S.pid>=0?'p'+S.pid:'-1';\n"
"  document.getElementById('hm-event').value=String(S.ev);\n"
"  narrowT=t;\n"
"  if(draw){\n"
"    var h=location.hash.replace(/^#/,'').split('&').filter(function(x){return x&&!/^(range|tid|pid|event)=/.test(x);});\n"
"    h=h.concat(p).join('&');\n"
"    try{history.replaceState(null,'',h?'#'+h:location.pathname+location.search);}catch(err){location.hash=h;}\n"
"    renderAll();\n"
"  }\n"
"}\n"
"function heatColor(f){return 'rgb(255,'+Math.round(235-205*f)+','+Math.round(190-180*f)+')';}\n"
"var HM={cw:8,ch:3,cols:1,left:40,key:null,cnt:null};\n"
"/* the heatmap's weights by slice for the event and thread shown (kept:\n"
"   a drag redraws it at every mouse move) */\n"
"function hmCounts(){var k=S.ev+':'+S.th+':'+S.pid;if(HM.key!==k){HM.cnt=countsOf(S.ev,maskOf(S.th,S.pid));HM.key=k;}return HM.cnt;}\n"
"function drawHeatmap(){\n"
"  var cv=document.getElementById('hm-canvas'), box=document.getElementById('heatmap');\n"
"  var cols=HM.cols=Math.max(1,Math.ceil(T.nSlices/T.perSec)), rows=T.perSec;\n"
"  HM.cw=Math.max(4,Math.min(60,Math.floor(((box.clientWidth||1000)-HM.left-4)/cols)));\n"
"  HM.ch=Math.max(1,Math.min(6,Math.floor(150/rows)));\n"
"  cv.width=HM.left+cols*HM.cw; cv.height=rows*HM.ch+14;\n"
"  var g=cv.getContext('2d'), cnt=hmCounts(), max=0, i;\n"
"  for(i=0;i<cnt.length;i++)if(cnt[i]>max)max=cnt[i];\n"
"  g.fillStyle='#fff';g.fillRect(0,0,cv.width,cv.height);\n"
"  for(i=0;i<cols*rows;i++){var c=Math.floor(i/rows),r=i%rows,x=HM.left+c*HM.cw,y=r*HM.ch;\n"
"    g.fillStyle=i<cnt.length&&cnt[i]?heatColor(cnt[i]/max):'#ececec';\n"
"    g.fillRect(x,y,HM.cw-1,HM.ch);\n"
"    if(S.a!==null&&i>=S.a&&i<=S.b){g.fillStyle='rgba(30,60,230,0.45)';g.fillRect(x,y,HM.cw-1,HM.ch);}}\n"
"  g.fillStyle='#444';g.font='10px sans-serif';g.textAlign='right';\n"
"  g.fillText('0 ms',HM.left-3,9);g.fillText(Math.round(1000*(rows-1)/rows)+' ms',HM.left-3,rows*HM.ch);\n"
"  g.textAlign='left';\n"
"  for(c=0;c<cols;c+=Math.max(1,Math.ceil(30/HM.cw)))g.fillText(c+'s',HM.left+c*HM.cw,rows*HM.ch+12);\n"
"}\n"
"function hmSlice(e){var cv=e.target,r=cv.getBoundingClientRect(),x=e.clientX-r.left,y=e.clientY-r.top;\n"
"  var c=Math.floor((x-HM.left)/HM.cw),w=Math.floor(y/HM.ch);\n"
"  if(x<HM.left||c>=HM.cols||w<0||w>=T.perSec)return -1;return c*T.perSec+w;}\n"
"function tlSlice(e){var cv=e.target,r=cv.getBoundingClientRect();\n"
"  return Math.max(0,Math.min(T.nSlices-1,Math.floor((e.clientX-r.left)/(cv.width/T.nSlices))));}\n"
"/* a drag, or a click on a start and then on an end cell, selects a range */\n"
"function rangePicker(cv,at,onClick){\n"
"  var down=-1,pend=-1;\n"
"  cv.addEventListener('mousedown',function(e){var s=at(e);if(s<0)return;down=s;e.preventDefault();});\n"
"  cv.addEventListener('mousemove',function(e){var s=at(e);\n"
"    if(down>=0&&s>=0&&s!==down){S.a=Math.min(down,s);S.b=Math.max(down,s);pend=-2;drawHeatmap();drawTimeline();}\n"
"    if(cv.id==='hm-canvas'){var cnt=s<0?0:hmCounts()[s]||0;\n"
"      document.getElementById('hm-info').textContent=s<0?'':sliceLabel(s)+' to '+sliceLabel(s+1)+': '+weightOf(S.ev,cnt);}});\n"
"  window.addEventListener('mouseup',function(e){if(down<0)return;var s=at(e),d=down;down=-1;\n"
"    if(pend===-2){pend=-1;narrowAll(true);return;}\n"
"    if(s<0||s!==d)return;\n"
"    if(onClick&&onClick(e))return;\n"
"    if(pend>=0){S.a=Math.min(pend,s);S.b=Math.max(pend,s);pend=-1;}else{pend=s;S.a=S.b=s;}\n"
"    narrowAll(true);});\n"
"}\n"
"var lanes=[], dens=null, dmax=0, spans=[];\n"
"function drawTimeline(){\n"
"  var tl=document.getElementById('timeline'), W=Math.max(100,(tl.clientWidth||1000)-LBL-8);\n"
"  for(var i=0;i<lanes.length;i++){var L=lanes[i],cv=L.canvas,g=cv.getContext('2d');\n"
"    cv.width=W;cv.height=16;L.el.className='lane'+(S.th===i||(S.th<0&&T.threads[i][0]===S.pid)?' sel':'');\n"
"    g.fillStyle='#fff';g.fillRect(0,0,W,16);var sw=W/T.nSlices,d=dens?dens[i]:null;\n"
"    if(d)for(var s=0;s<d.length;s++)if(d[s]){g.fillStyle='rgba(215,70,30,'+(0.2+0.8*d[s]/dmax)+')';g.fillRect(s*sw,1,Math.max(1,sw),10);}\n"
"    g.fillStyle='#3a6fd0';\n"
"    for(var k=0;k<spans.length;k++)if(spans[k][0]===i){var us=1e6/T.perSec;\n"
"      g.fillRect(spans[k][1]/us*sw,11,Math.max(1,(spans[k][2]-spans[k][1])/us*sw),4);}\n"
"    if(S.a!==null){g.fillStyle='rgba(30,60,230,0.25)';g.fillRect(S.a*sw,0,(S.b-S.a+1)*sw,16);}\n"
"  }\n"
"}\n"
"if(T){\n"
"  var evs=document.getElementById('hm-event'), ths=document.getElementById('hm-thread'), on=-1;\n"
"  for(i=0;i<views.length;i++)if(views[i].D.cells){\n"
"    var o=document.createElement('option');o.value=String(i);\n"
"    o.textContent=views[i].D.event||(views[i].D.offcpu?'offcpu-time':'samples');evs.appendChild(o);\n"
"    if(!views[i].D.offcpu&&on<0)on=i; if(views[i].D.spans)spans=views[i].D.spans;}\n"
"  S.ev=on>=0?on:0; evs.value=String(S.ev);\n"
"  o=document.createElement('option');o.value='-1';o.textContent='all';ths.appendChild(o);\n"
"  var seen={};T.threads.forEach(function(t){if(seen[t[0]])return;seen[t[0]]=1;\n"
"    var o=document.createElement('option');o.value='p'+t[0];o.textContent='process '+t[0]+' (all its threads)';ths.appendChild(o);});\n"
"  if(on>=0){dens=[];for(i=0;i<T.threads.length;i++){dens.push(countsOf(on,maskOf(i,-1)));\n"
"    for(var s=0;s<T.nSlices;s++)if(dens[i][s]>dmax)dmax=dens[i][s];}}\n"
"  var tl=document.getElementById('timeline');\n"
"  T.threads.forEach(function(t,i){\n"
"    var o=document.createElement('option');o.value='t'+i;o.textContent=t[2]+' '+t[1];ths.appendChild(o);\n"
"    var el=document.createElement('div');el.className='lane';el.setAttribute('data-tid',String(t[1]));\n"
"    var nm=document.createElement('span');nm.className='lane-name';nm.textContent=t[2]+' '+t[1];nm.title='pid '+t[0]+', tid '+t[1];\n"
"    var cv=document.createElement('canvas');el.appendChild(nm);el.appendChild(cv);tl.appendChild(el);\n"
"    lanes.push({el:el,canvas:cv});\n"
"    nm.addEventListener('click',function(){S.th=S.th===i?-1:i;S.pid=-1;narrowAll(true);});\n"
"    rangePicker(cv,tlSlice,function(){S.th=S.th===i?-1:i;S.pid=-1;narrowAll(true);return true;});\n"
"  });\n"
"  rangePicker(document.getElementById('hm-canvas'),hmSlice,null);\n"
"  evs.addEventListener('change',function(){S.ev=+this.value;narrowAll(true);});\n"
"  ths.addEventListener('change',function(){var v=this.value;S.th=v[0]==='t'?+v.slice(1):-1;S.pid=v[0]==='p'?+v.slice(1):-1;narrowAll(true);});\n"
"  document.getElementById('hm-clear').addEventListener('click',function(){S.a=S.b=null;S.th=S.pid=-1;narrowAll(true);});\n"
"}\n"
"document.getElementById('reset').addEventListener('click',function(){\n"
"  for(var i=0;i<views.length;i++)views[i].zoom=views[i].root;\n"
"  renderAll();\n"
"});\n"
"document.getElementById('search').addEventListener('input',function(){\n"
"  var v=this.value;\n"
"  if(!v){term=null;}else{try{term=new RegExp(v);}catch(err){term=new RegExp(v.replace(/[.*+?^${}()|[\\]\\\\]/g,'\\\\$&'));}}\n"
"  renderAll();\n"
"});\n"
"document.getElementById('icicle').addEventListener('click',function(){\n"
"  G.inverted=!G.inverted; this.textContent=G.inverted?'Flame':'Icicle'; renderAll();\n"
"});\n"
"var sel=document.getElementById('view');\n"
"function showView(v){\n"
"  for(var i=0;i<views.length;i++)views[i].section.style.display=(v==='all'||v===String(i))?'':'none';\n"
"}\n"
"if(sel)sel.addEventListener('change',function(){showView(this.value);renderAll();});\n"
"window.addEventListener('resize',renderAll);\n"
"/* #search=REGEX&zoom=NAME&view=all|N in the address: start searched / zoomed / one view */\n"
"(function(){\n"
"  var h=location.hash, s=/[#&]search=([^&]*)/.exec(h), z=/[#&]zoom=([^&]*)/.exec(h), w=/[#&]view=([^&]*)/.exec(h);\n"
"  if(s){var v=decodeURIComponent(s[1]);document.getElementById('search').value=v;\n"
"    try{term=new RegExp(v);}catch(err){term=null;}}\n"
"  if(z){var name=decodeURIComponent(z[1]);\n"
"    for(var i=0;i<views.length;i++){var q=[views[i].root];\n"
"      while(q.length){var n=q.shift();if(n.name===name){views[i].zoom=n;break;}q=q.concat(n.kids);}}}\n"
"  if(w&&sel){sel.value=decodeURIComponent(w[1]);showView(sel.value);}\n"
"  if(T){var r=/[#&]range=(\\d+)-(\\d+)/.exec(h), t=/[#&]tid=(-?\\d+)/.exec(h), e=/[#&]event=(\\d+)/.exec(h);\n"
"    if(r){S.a=Math.min(+r[1],+r[2]);S.b=Math.max(+r[1],+r[2]);}\n"
"    if(t)for(var j=0;j<T.threads.length;j++)if(T.threads[j][1]===+t[1])S.th=j;\n"
"    var q=/[#&]pid=(-?\\d+)/.exec(h);if(q&&S.th<0)S.pid=+q[1];\n"
"    if(e&&+e[1]<views.length&&views[+e[1]].D.cells)S.ev=+e[1];\n"
"    narrowAll(false);}\n"
"})();\n"
"renderAll();\n"
"baseInView();\n"
"})();\n";

/*
 * --diff over groups: fg_js with these lines inserted after their
 * anchors (the frame's statistics kept from its data, the tooltip that
 * gives them), so that every other page stays as it was.
 */
static const char *const fg_stat_js[][2] = {
	{ "    byId.push(n);\n", "    n.st=a.length>5?a[5]:null;\n" },
	{ "  var s=n.name+' ('+amount(n.v,D.unit)+', '+pct(root.v?n.v/root.v:0)+')';\n",
	  "  if(G.stat&&n.st){var S=G.stat,t=n.st,pe=S.metric==='period',f=function(x){return pe?x.toFixed(0):x.toFixed(2)+'%';};\n"
	  "    if(t.a===undefined)return s;\n"
	  "    return s+'; mean of '+S.runsA+' runs before '+f(t.a)+', of '+S.runsB+' after '+f(t.b)+', change '+(t.d>=0?'+':'')+(pe?t.d.toFixed(0):t.d.toFixed(2)+' pts')+\n"
	  "      (t.p===undefined?', not tested (small)':', p (Holm) '+t.p.toPrecision(2)+(t.sig?', significant':', noise'));}\n" },
};

/* fg_js, with fg_stat_js inserted when opts->stat. 0 or -EINVAL (an
 * anchor not found: fg_js and fg_stat_js disagree). */
static int fg_put_js(const struct flamegraph_opts *opts, FILE *fp)
{
	const char *p = fg_js;

	if (!opts->stat) {
		fputs(fg_js, fp);
		return 0;
	}
	for (size_t i = 0; i < sizeof(fg_stat_js) / sizeof(fg_stat_js[0]); i++) {
		const char *at = strstr(p, fg_stat_js[i][0]);

		if (!at)
			return -EINVAL;
		at += strlen(fg_stat_js[i][0]);
		fwrite(p, 1, (size_t)(at - p), fp);
		fputs(fg_stat_js[i][1], fp);
		p = at;
	}
	fputs(p, fp);
	return 0;
}

/* The page gets the heatmap and timeline. */
static bool fg_has_time(const struct flamegraph_opts *opts)
{
	return opts->time && opts->time->nr && !opts->diff;
}

static int fg_prepare(struct fg_ctx *c, const struct flamegraph_view *view,
		      const struct flamegraph_opts *opts, FILE *fp)
{
	struct folded_node *root = folded__root(view->f);

	memset(c, 0, sizeof(*c));
	c->fp = fp;
	c->opts = opts;
	c->view = view;
	c->total[0] = root->total[0];
	c->total[1] = root->total[1];
	c->min_value = (uint64_t)ceil((double)c->total[0] * opts->minwidth_pct / 100.0);
	if (opts->diff)
		fg_scan_delta(c, root);
	return 0;
}

static void fg_release(struct fg_ctx *c)
{
	free(c->names);
	free(c->order_names);
	free(c->order_kinds);
	free(c->ids);
}

static const char *fg_title(const struct flamegraph_opts *opts)
{
	if (opts->title)
		return opts->title;
	if (opts->diff)
		return "Differential Flame Graph";
	return opts->inverted ? "Icicle Graph" : "Flame Graph";
}

static const char *view_unit(const struct flamegraph_view *v, const struct flamegraph_opts *opts)
{
	if (v->unit)
		return v->unit;
	return opts->unit ? opts->unit : "samples";
}

struct fg_cell {
	uint64_t slice;
	uint32_t thread;
	int id;
	uint64_t weight;
};

static int cmp_cell(const void *a, const void *b)
{
	const struct fg_cell *x = a, *y = b;

	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static uint64_t time_slice_ns(const struct flamegraph_time *t)
{
	return 1000000000ULL / t->per_sec;
}

/* The first sample's time: slice 0 starts there. */
static uint64_t time_t0(const struct flamegraph_time *t)
{
	uint64_t t0 = t->nr ? t->recs[0].time : 0;

	for (size_t i = 1; i < t->nr; i++)
		if (t->recs[i].time < t0)
			t0 = t->recs[i].time;
	return t0;
}

#define FG_MAX_SPANS 20000	/* off-CPU spans drawn in the timeline */

/*
 * ,"cells":[[slice,thread,[id,weight,...]],...] of this view: its samples
 * summed by slice, thread and node id (sorted by all three); an off-CPU
 * view also gets ,"spans":[[thread,start_us,end_us],...] from t0.
 */
static int fg_emit_cells(struct fg_ctx *c, uint64_t t0)
{
	const struct flamegraph_time *t = c->opts->time;
	uint64_t slice_ns = time_slice_ns(t);
	struct fg_cell *v = malloc((t->nr ? t->nr : 1) * sizeof(*v));
	size_t n = 0, nspans = 0;
	FILE *fp = c->fp;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		const struct fg_rec *r = &t->recs[i];
		int id;

		if (r->off_cpu != c->view->off_cpu || (id = fg_get_id(c, r->leaf)) < 0)
			continue;
		v[n++] = (struct fg_cell){ .slice = (r->time - t0) / slice_ns, .thread = r->thread,
					   .id = id, .weight = r->weight };
	}
	qsort(v, n, sizeof(*v), cmp_cell);
	fputs(",\n\"cells\":[", fp);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		fprintf(fp, "%s[%" PRIu64 ",%" PRIu32 ",[", i ? ",\n" : "", v[i].slice, v[i].thread);
		while (j < n && v[j].slice == v[i].slice && v[j].thread == v[i].thread) {
			size_t k = j;
			uint64_t w = 0;

			while (k < n && v[k].slice == v[j].slice && v[k].thread == v[j].thread &&
			       v[k].id == v[j].id)
				w += v[k++].weight;
			fprintf(fp, "%s%d,%" PRIu64, j > i ? "," : "", v[j].id, w);
			j = k;
		}
		fputs("]]", fp);
		i = j;
	}
	fputc(']', fp);
	free(v);
	if (!c->view->off_cpu)
		return 0;
	fputs(",\n\"spans\":[", fp);
	for (size_t i = 0; i < t->nr && nspans < FG_MAX_SPANS; i++) {
		const struct fg_rec *r = &t->recs[i];
		uint64_t end = r->time - t0, start = end > r->weight ? end - r->weight : 0;

		if (!r->off_cpu)
			continue;
		fprintf(fp, "%s[%" PRIu32 ",%" PRIu64 ",%" PRIu64 "]", nspans++ ? "," : "", r->thread,
			start / 1000, end / 1000);
	}
	fputc(']', fp);
	return 0;
}

/* ,"time":{...}: slicing, the first sample's time (ns, a string: it
 * exceeds JavaScript's exact integers) and the threads. */
static void fg_emit_time(const struct flamegraph_time *t, uint64_t t0, FILE *fp)
{
	uint64_t last = t0;

	for (size_t i = 0; i < t->nr; i++)
		if (t->recs[i].time > last)
			last = t->recs[i].time;
	fprintf(fp, ",\n\"time\":{\"perSec\":%u,\"sliceNs\":%" PRIu64 ",\"t0\":\"%" PRIu64
		"\",\"nSlices\":%" PRIu64 ",\"threads\":[", t->per_sec, time_slice_ns(t), t0,
		(last - t0) / time_slice_ns(t) + 1);
	for (uint32_t i = 0; i < t->nr_threads; i++) {
		fprintf(fp, "%s[%" PRId32 ",%" PRId32 ",", i ? "," : "", t->threads[i].pid,
			t->threads[i].tid);
		put_js_str(fp, t->threads[i].comm);
		fputc(']', fp);
	}
	fputs("]}", fp);
}

/* One view's data object: tree, names (with colors), unit, totals. */
static int fg_emit_view(struct fg_ctx *c, uint64_t t0)
{
	FILE *fp = c->fp;
	int err;

	fputs("{\"tree\":", fp);
	err = fg_emit_node(c, folded__root(c->view->f));
	if (err)
		return err;
	fputs(",\n\"names\":[", fp);
	for (int i = 0; i < c->nr_names; i++) {
		char col[8];

		flamegraph__color_view(c->order_names[i], c->order_kinds[i], c->view->off_cpu, col);
		fputs(i ? ",\n[" : "[", fp);
		put_js_str(fp, c->order_names[i]);
		fprintf(fp, ",\"%s\"]", col);
	}
	fprintf(fp, "],\n\"totalBase\":%" PRIu64 ",\"offcpu\":%s,\"unit\":", c->total[1],
		c->view->off_cpu ? "true" : "false");
	put_js_str(fp, view_unit(c->view, c->opts));
	fputs(",\"name\":", fp);
	put_js_str(fp, c->view->name ? c->view->name : "");
	if (c->view->event) {
		fputs(",\"event\":", fp);
		put_js_str(fp, c->view->event);
	}
	if (fg_has_time(c->opts)) {
		err = fg_emit_cells(c, t0);
		if (err)
			return err;
	}
	fputc('}', fp);
	return 0;
}

int flamegraph__write_views_html(const struct flamegraph_view *views, int nr,
				 const struct flamegraph_opts *opts, FILE *fp)
{
	const char *title = fg_title(opts);
	uint64_t t0;
	int err = 0;

	if (nr < 1)
		return -EINVAL;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", fp);
	put_xml(fp, title, (size_t)-1);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1 id=\"title\">", fg_css);
	put_xml(fp, title, (size_t)-1);
	fputs("</h1>\n<div id=\"subtitle\">", fp);
	if (opts->subtitle)
		put_xml(fp, opts->subtitle, (size_t)-1);
	fputs("</div>\n<div id=\"bar\">", fp);
	if (nr > 1) {
		fputs("<label>Show <select id=\"view\"><option value=\"all\">all views</option>", fp);
		for (int i = 0; i < nr; i++) {
			const char *nm = views[i].name ? views[i].name : "view";
			const char *colon = strchr(nm, ':');

			fprintf(fp, "<option value=\"%d\">", i);
			/* the heading up to its ':' ("On-CPU", "Off-CPU") */
			put_xml(fp, nm, colon ? (size_t)(colon - nm) : (size_t)-1);
			fputs("</option>", fp);
		}
		fputs("</select></label> ", fp);
	}
	fputs("<button id=\"reset\" type=\"button\">Reset zoom</button> "
	      "<button id=\"icicle\" type=\"button\">Icicle</button> "
	      "<input id=\"search\" type=\"search\" placeholder=\"Search (regular expression)\">", fp);
	if (nr == 1)
		fputs("<span class=\"matched\" id=\"matched\"></span>", fp);
	fputs("</div>\n", fp);
	if (fg_has_time(opts))
		fputs("<div id=\"time-panel\">\n<div class=\"tbar\">"
		      "<label>Event <select id=\"hm-event\"></select></label> "
		      "<label>Thread <select id=\"hm-thread\"></select></label> "
		      "<button id=\"hm-clear\" type=\"button\">All time, all threads</button> "
		      "<span id=\"hm-info\"></span></div>\n"
		      "<div id=\"heatmap\"><canvas id=\"hm-canvas\"></canvas></div>\n"
		      "<div id=\"timeline\"></div>\n<div id=\"range-cmd\"></div>\n</div>\n", fp);
	for (int i = 0; i < nr; i++) {
		char sfx[16] = "";

		if (i)
			snprintf(sfx, sizeof(sfx), "-%d", i);
		fprintf(fp, "<div class=\"view%s\" id=\"fg-view%s\">\n", views[i].off_cpu ? " offcpu" : "", sfx);
		if (nr > 1) {
			fputs("<h2>", fp);
			put_xml(fp, views[i].name ? views[i].name : "", (size_t)-1);
			fprintf(fp, "<span class=\"matched\" id=\"matched%s\"></span></h2>\n", sfx);
		}
		fprintf(fp, "<div class=\"chart\" id=\"chart%s\"></div>\n"
			"<div class=\"details\" id=\"details%s\"></div>\n</div>\n", sfx, sfx);
	}
	fputs("<div id=\"prf-status\">not rendered (JavaScript needed)</div>\n"
	      "<script>\nwindow.PRF_FG={\"views\":[", fp);
	t0 = fg_has_time(opts) ? time_t0(opts->time) : 0;
	for (int i = 0; i < nr && !err; i++) {
		struct fg_ctx c;

		fg_prepare(&c, &views[i], opts, fp);
		if (i)
			fputs(",\n", fp);
		err = fg_emit_view(&c, t0);
		fg_release(&c);
	}
	if (err)
		return err;
	fputc(']', fp);
	if (fg_has_time(opts))
		fg_emit_time(opts->time, t0, fp);
	if (opts->stat) {
		const struct flamegraph_stat_opts *so = flamegraph_stat__opts(opts->stat);
		int na, nb;

		flamegraph_stat__runs(opts->stat, &na, &nb);
		fprintf(fp, ",\n\"stat\":{\"metric\":\"%s\",\"runsA\":%d,\"runsB\":%d,\"alpha\":%g,"
			"\"test\":\"welch-t\",\"correction\":\"holm\"}", so->by_period ? "period" : "share",
			na, nb, so->alpha);
	}
	fprintf(fp, ",\n\"inverted\":%s,\"diff\":%s};\n</script>\n<script>\n",
		opts->inverted ? "true" : "false", opts->diff ? "true" : "false");
	err = fg_put_js(opts, fp);
	if (err)
		return err;
	fputs("</script>\n</body>\n</html>\n", fp);
	if (fflush(fp) || ferror(fp))
		return errno == EPIPE ? -EPIPE : -EIO;
	return 0;
}

int flamegraph__write_html(struct folded *f, const struct flamegraph_opts *opts, FILE *fp)
{
	struct flamegraph_view v = { .f = f, .off_cpu = opts->off_cpu };

	return flamegraph__write_views_html(&v, 1, opts, fp);
}

#define SVG_WIDTH 1200
#define SVG_PAD 10
#define SVG_ROW 16
#define SVG_TOP 50

/* A frame's test over the runs, in its SVG tooltip. */
static void svg_stat_title(struct fg_ctx *c, const struct folded_node *n)
{
	const struct diff_stat_entry *e = flamegraph_stat__find(c->opts->stat, n);
	bool pe = flamegraph_stat__opts(c->opts->stat)->by_period;

	if (!e)
		return;
	if (pe)
		fprintf(c->fp, "; mean %.0f before, %.0f after, change %+.0f", e->mean_a, e->mean_b,
			e->delta);
	else
		fprintf(c->fp, "; mean %.2f%% before, %.2f%% after, change %+.2f pts", e->mean_a,
			e->mean_b, e->delta);
	if (e->tested)
		fprintf(c->fp, ", p (Holm) %.2g, %s", e->p_adj, e->changed ? "significant" : "noise");
	else
		fputs(", not tested (small)", c->fp);
}

static void svg_frame(struct fg_ctx *c, const struct folded_node *n, double x, double w, int depth)
{
	const char *unit = view_unit(c->view, c->opts);
	int y = c->opts->inverted ? c->y0 + depth * SVG_ROW :
				    c->y0 + (c->max_depth - depth) * SVG_ROW;
	char col[8];
	double pct = c->total[0] ? 100.0 * (double)n->total[0] / (double)c->total[0] : 0.0;
	size_t fit = w > 6 ? (size_t)((w - 6) / 7) : 0;

	if (c->opts->diff)
		diff_color(c, n, col);
	else
		flamegraph__color_view(n->name, n->kind, c->view->off_cpu, col);
	fputs("<g class=\"frame\"><title>", c->fp);
	put_xml(c->fp, n->name, (size_t)-1);
	if (!strcmp(unit, "ns"))	/* off-CPU time */
		fprintf(c->fp, " (%.3f ms, %.2f%%", (double)n->total[0] / 1e6, pct);
	else
		fprintf(c->fp, " (%" PRIu64 " %s, %.2f%%", n->total[0], unit, pct);
	if (c->opts->diff) {
		double a = c->total[1] ? 100.0 * (double)n->total[1] / (double)c->total[1] : 0.0;

		fprintf(c->fp, ", before %.2f%%, change %+.2f pts", a, pct - a);
		if (c->opts->stat)
			svg_stat_title(c, n);
	}
	fprintf(c->fp, ")</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\" ry=\"2\"/>", x, y, w > 0.1 ? w - 0.1 : w, SVG_ROW - 1, col);
	if (fit >= 3) {
		size_t len = strlen(n->name);

		fprintf(c->fp, "<text x=\"%.1f\" y=\"%d\">", x + 3, y + SVG_ROW - 4);
		if (len <= fit) {
			put_xml(c->fp, n->name, len);
		} else {
			put_xml(c->fp, n->name, fit - 2);
			fputs("..", c->fp);
		}
		fputs("</text>", c->fp);
	}
	fputs("</g>\n", c->fp);
}

/*
 * Draw n and its callees from x, w pixels wide; with measure, draw
 * nothing and only raise c->max_depth to the depth of the frames that
 * would be drawn. Frames under 0.1 pixel are left out, and so is their
 * depth: the graph is as tall as what it shows (as flamegraph.pl prunes
 * before it sizes the image).
 */
static void svg_walk(struct fg_ctx *c, const struct folded_node *n, double x, double w, int depth,
		     bool measure)
{
	double cx = x;

	if (w < 0.1)
		return;
	if (!measure)
		svg_frame(c, n, x, w, depth);
	else if (depth > c->max_depth)
		c->max_depth = depth;
	for (unsigned int i = 0; i < n->nr_children; i++) {
		const struct folded_node *k = n->children[i];
		double kw;

		if (!fg_visible(c, k))
			continue;
		kw = n->total[0] ? w * (double)k->total[0] / (double)n->total[0] : 0;
		svg_walk(c, k, cx, kw, depth + 1, measure);
		cx += kw;
	}
}

#define SVG_HEAD 24	/* a view's heading above its graph (several views) */

int flamegraph__write_views_svg(const struct flamegraph_view *views, int nr,
				const struct flamegraph_opts *opts, FILE *fp)
{
	struct fg_ctx *c;
	const char *title = fg_title(opts);
	int height = SVG_TOP, y;

	if (nr < 1)
		return -EINVAL;
	c = calloc((size_t)nr, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		fg_prepare(&c[i], &views[i], opts, fp);
		svg_walk(&c[i], folded__root(views[i].f), SVG_PAD, SVG_WIDTH - 2 * SVG_PAD, 0, true);
		height += (nr > 1 ? SVG_HEAD : 0) + (c[i].max_depth + 1) * SVG_ROW + 10;
	}
	height += 20;
	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text{font-family:Verdana,sans-serif;font-size:11px;fill:#000}"
		".title{font-size:17px;text-anchor:middle}.sub{font-size:12px;text-anchor:middle;fill:#555}"
		".head{font-size:14px;font-weight:bold}"
		"</style>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f8\"/>\n"
		"<text class=\"title\" x=\"%d\" y=\"24\">", SVG_WIDTH, height, SVG_WIDTH, height,
		SVG_WIDTH, height, SVG_WIDTH / 2);
	put_xml(fp, title, (size_t)-1);
	fputs("</text>\n", fp);
	if (opts->subtitle) {
		fprintf(fp, "<text class=\"sub\" x=\"%d\" y=\"42\">", SVG_WIDTH / 2);
		put_xml(fp, opts->subtitle, (size_t)-1);
		fputs("</text>\n", fp);
	}
	y = SVG_TOP;
	for (int i = 0; i < nr; i++) {
		if (nr > 1) {
			fprintf(fp, "<text class=\"head\" x=\"%d\" y=\"%d\">", SVG_PAD, y + SVG_HEAD - 8);
			put_xml(fp, views[i].name ? views[i].name : "", (size_t)-1);
			fputs("</text>\n", fp);
			y += SVG_HEAD;
		}
		c[i].y0 = y;
		svg_walk(&c[i], folded__root(views[i].f), SVG_PAD, SVG_WIDTH - 2 * SVG_PAD, 0, false);
		y += (c[i].max_depth + 1) * SVG_ROW + 10;
	}
	fputs("</svg>\n", fp);
	for (int i = 0; i < nr; i++)
		fg_release(&c[i]);
	free(c);
	if (fflush(fp) || ferror(fp))
		return errno == EPIPE ? -EPIPE : -EIO;
	return 0;
}

int flamegraph__write_svg(struct folded *f, const struct flamegraph_opts *opts, FILE *fp)
{
	struct flamegraph_view v = { .f = f, .off_cpu = opts->off_cpu };

	return flamegraph__write_views_svg(&v, 1, opts, fp);
}

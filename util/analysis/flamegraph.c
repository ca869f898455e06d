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
#include "folded.h"
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
};

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
	double d = share(c, n, 0) - share(c, n, 1);
	double i = c->max_delta > 0 ? fabs(d) / c->max_delta : 0.0;
	int s = 255 - (int)(200 * i);

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

static int fg_emit_node(struct fg_ctx *c, const struct folded_node *n)
{
	int idx = fg_name_index(c, n->name, n->kind);
	bool first = true;

	if (idx < 0)
		return -ENOMEM;
	fprintf(c->fp, "[%d,%" PRIu64 ",[", idx, n->total[0]);
	for (unsigned int i = 0; i < n->nr_children; i++) {
		const struct folded_node *k = n->children[i];

		if (!fg_visible(c, k))
			continue;
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
".chart{position:relative;width:100%;overflow:hidden;background:#fff;border:1px solid #ddd}\n"
".offcpu .chart{background:#f6f9ff}\n"
".f{position:absolute;height:16px;font-size:11px;line-height:16px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;cursor:pointer;box-sizing:border-box;padding-left:2px;border-right:1px solid #fafafa;font-family:Menlo,Consolas,monospace}\n"
".f:hover{outline:1px solid #000;z-index:2}\n"
".anc{opacity:0.55}\n"
".details{font-size:12px;margin-top:6px;min-height:16px;font-family:Menlo,Consolas,monospace}\n"
"#prf-status{font-size:10px;color:#999;margin-top:4px}\n";

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
"  var self=this;\n"
"  this.D=D;\n"
"  function make(a,parent,depth){\n"
"    var nm=D.names[a[0]];\n"
"    var n={name:nm[0],color:a.length>3?a[4]:nm[1],v:a[1],base:a.length>3?a[3]:0,parent:parent,depth:depth,kids:[]};\n"
"    for(var k=0;k<a[2].length;k++)n.kids.push(make(a[2][k],n,depth+1));\n"
"    return n;\n"
"  }\n"
"  this.root=make(D.tree,null,0); this.zoom=this.root;\n"
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
"  chart.textContent='';\n"
"  function place(n,x,w,anc){\n"
"    var d=document.createElement('div');\n"
"    d.className='f'+(anc?' anc':'');\n"
"    d.style.left=x+'px'; d.style.width=Math.max(w,1)+'px';\n"
"    if(w<3)d.style.borderRight='0';\n"
"    d.style.top=((G.inverted?n.depth:deepest-n.depth)*ROW)+'px';\n"
"    d.style.background=hit(n)?'#e040e0':n.color;\n"
"    if(w>28)d.textContent=n.name;\n"
"    d.title=self.label(n); d.prfNode=n; frag.appendChild(d); count++;\n"
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
"  this.updateMatched();\n"
"  return count;\n"
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
"  status.textContent='rendered '+count+' frames';\n"
"  document.body.setAttribute('data-prf-rendered','1');\n"
"}\n"
"for(var i=0;i<G.views.length;i++)views.push(new View(G.views[i],i));\n"
"document.getElementById('reset').addEventListener('click',function(){\n"
"  for(var i=0;i<views.length;i++)views[i].zoom=views[i].root;\n"
"  renderAll();\n"
"});\n"
"document.getElementById('search').addEventListener('input',function(){\n"
"  var v=this.value;\n"
"  if(!v){term=null;}else{try{term=new RegExp(v);}catch(err){term=new RegExp(v.replace(/[.*+?^${}()|[\\]\\\\]/g,'\\\\$&'));}}\n"
"  renderAll();\n"
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
"})();\n"
"renderAll();\n"
"})();\n";

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

/* One view's data object: tree, names (with colors), unit, totals. */
static int fg_emit_view(struct fg_ctx *c)
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
	fputc('}', fp);
	return 0;
}

int flamegraph__write_views_html(const struct flamegraph_view *views, int nr,
				 const struct flamegraph_opts *opts, FILE *fp)
{
	const char *title = fg_title(opts);
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
	      "<input id=\"search\" type=\"search\" placeholder=\"Search (regular expression)\">", fp);
	if (nr == 1)
		fputs("<span class=\"matched\" id=\"matched\"></span>", fp);
	fputs("</div>\n", fp);
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
	for (int i = 0; i < nr && !err; i++) {
		struct fg_ctx c;

		fg_prepare(&c, &views[i], opts, fp);
		if (i)
			fputs(",\n", fp);
		err = fg_emit_view(&c);
		fg_release(&c);
	}
	if (err)
		return err;
	fprintf(fp, "],\n\"inverted\":%s,\"diff\":%s};\n</script>\n<script>\n%s</script>\n</body>\n</html>\n",
		opts->inverted ? "true" : "false", opts->diff ? "true" : "false", fg_js);
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

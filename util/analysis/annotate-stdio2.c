// SPDX-License-Identifier: GPL-2.0
/*
 * perf annotate --stdio2 (annotate.h: annotated_sym__fprintf2()): the
 * listing in the layout of perf's annotate browser, written as text. The
 * lines are those of annotated_sym__listing(); what changes is their
 * shape, as perf 6.1 prints it:
 *
 *  - a title "Samples: N  of event 'E', F Hz, Event count (approx.): P,
 *    [percent: T]" (the event's samples and period that the filters let
 *    through, N in K/M/G units past 1000, F the attr's sample_freq field)
 *    and "SYM() DSO";
 *  - a value column 7 wide ("%6.2f ", "%6lu " with -n) or 12 (period),
 *    blank on lines without samples, "Percent"/"Samples"/"Period" on the
 *    first line;
 *  - then a space and an address column as wide as the last offset's hex
 *    digits plus two: the offset ("1cb: ") on the targets of the symbol's
 *    own jumps, blank elsewhere; then two columns for an arrow (down or up
 *    for a jump inside the symbol, right for calls and jumps out of it,
 *    left for a return);
 *  - the instruction as "NAME OPS", NAME padded to the symbol's longest
 *    instruction name: jumps inside the symbol name their target by
 *    offset, direct calls by the symbol (the DSO's name for it, else
 *    objdump's), NOPs lose their operands, a RIP-relative operand objdump
 *    comments with "# ADDR <sym>" becomes that sym (the comment dropped);
 *  - every line padded with blanks: W = 2 * value width + 10 + 2 * address
 *    digits for instructions, W - 6 for source and text lines,
 *    2 * value width + 1 for empty ones.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "../model/dso.h"
#include "../kernel/evsel.h"

#define ARROW_DOWN	"\xe2\x86\x93"
#define ARROW_UP	"\xe2\x86\x91"
#define ARROW_RIGHT	"\xe2\x86\x92"
#define ARROW_LEFT	"\xe2\x86\x90"

/* The instruction's name and operands of a listing line's text. */
static void insn__split(const char *text, char *name, size_t nsize, const char **ops)
{
	size_t n = 0;

	while (*text == ' ')
		text++;
	while (*text && *text != ' ' && n + 1 < nsize)
		name[n++] = *text++;
	name[n] = '\0';
	while (*text == ' ')
		text++;
	*ops = text;
}

/* "<sym>" or "<sym+0x10>" at the end of s: its contents into buf. */
static bool ref__name(const char *s, char *buf, size_t size)
{
	const char *lt = strrchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (!lt || !gt || (size_t)(gt - lt - 1) >= size)
		return false;
	memcpy(buf, lt + 1, (size_t)(gt - lt - 1));
	buf[gt - lt - 1] = '\0';
	return true;
}

/*
 * The operands as perf shows them: a RIP-relative memory operand that
 * objdump comments ("0x2ed9(%rip),%rsi        # 4018 <sink>") becomes the
 * symbol ("sink,%rsi"); other operands stay as they are.
 */
static void ops__simplify(const char *ops, char *out, size_t size)
{
	const char *hash = strstr(ops, "# "), *rip = strstr(ops, "(%rip)");
	char sym[512];
	const char *start;
	size_t n;

	if (!hash || !rip || rip > hash || !ref__name(hash, sym, sizeof(sym))) {
		snprintf(out, size, "%s", ops);
		return;
	}
	/* the displacement before "(%rip)" */
	for (start = rip; start > ops && start[-1] != ',' && start[-1] != ' ' && start[-1] != '*';)
		start--;
	n = (size_t)(start - ops);
	snprintf(out, size, "%.*s%s", (int)n, ops, sym);
	n = strlen(out);
	snprintf(out + n, size - n, "%.*s", (int)(hash - (rip + 6)), rip + 6);
	/* objdump's blanks before the comment go with it */
	n = strlen(out);
	while (n && out[n - 1] == ' ')
		out[--n] = '\0';
}

/*
 * A call's operands as perf shows them: a direct call the symbol objdump
 * names; an indirect one through an absolute address ("*0x73ae00(,%r9,8)")
 * that address ("*73ae00"); others (through a register, or memory at a
 * register) as objdump wrote them.
 */
static void call__ops(struct dso *dso, const struct annotate_line *al, const char *ops, char *out,
		      size_t size)
{
	const char *star = strchr(ops, '*');
	struct symbol *sym;
	uint64_t v;

	if (al->has_target && ref__name(ops, out, size)) {
		/* perf's own name of the symbol starting there (no version) */
		sym = dso__find_symbol(dso, al->target);
		if (sym && sym->start == al->target)
			snprintf(out, size, "%s", sym->name);
		return;
	}
	if (star && !strstr(star, "(%r")) {
		v = strtoull(star + 1, NULL, 16);
		if (v) {
			snprintf(out, size, "*%" PRIx64, v);
			return;
		}
	}
	snprintf(out, size, "%s", ops);
}

/* perf's convert_unit(): K, M, G past 1000. */
static uint64_t count__unit(uint64_t v, char *unit)
{
	static const char units[] = " KMG";
	int i = 0;

	while (v > 1000 && i < 3) {
		v /= 1000;
		i++;
	}
	*unit = units[i];
	return v;
}

static void pad(FILE *fp, int n)
{
	while (n-- > 0)
		fputc(' ', fp);
}

/* Hex digits of v (1 for 0). */
static int hex__digits(uint64_t v)
{
	int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

static bool line__jump_inside(const struct annotate_layout *lay, const struct annotate_line *al)
{
	return al->is_jump && al->has_target && al->target >= lay->l->start &&
	       al->target - lay->l->start < lay->as->len;
}

int annotate_layout__init(struct annotate_layout *lay, const struct annotate_listing *l,
			  const struct annotated_sym *as, const struct annotate_opts *opts)
{
	uint64_t last = 0;
	unsigned int most = 0;
	size_t i, j;

	memset(lay, 0, sizeof(*lay));
	lay->l = l;
	lay->as = as;
	lay->opts = opts;
	lay->sources = calloc(l->nr ? l->nr : 1, sizeof(*lay->sources));
	if (!lay->sources)
		return -ENOMEM;
	for (i = 0; i < l->nr; i++) {
		const struct annotate_line *al = &l->lines[i];
		char name[64];
		const char *o;

		if (al->offset < 0)
			continue;
		last = (uint64_t)al->offset;
		insn__split(al->text, name, sizeof(name), &o);
		if ((int)strlen(name) > lay->max_name)
			lay->max_name = (int)strlen(name);
		if (!line__jump_inside(lay, al))
			continue;
		for (j = 0; j < l->nr; j++)
			if (l->lines[j].offset == (int64_t)(al->target - l->start))
				lay->sources[j]++;
	}
	for (i = 0; i < l->nr; i++)
		if (lay->sources[i] > most)
			most = lay->sources[i];
	lay->tw = hex__digits(last);
	lay->tw_addr = hex__digits(l->start + last);
	for (lay->jw = 1; most >= 10; most /= 10)
		lay->jw++;
	annotate_layout__widths(lay, opts);
	return 0;
}

void annotate_layout__widths(struct annotate_layout *lay, const struct annotate_opts *opts)
{
	int tw = opts->use_addr ? lay->tw_addr : lay->tw;

	lay->opts = opts;
	lay->vw = opts->show_total_period ? 12 : 7;
	lay->aw = tw + (opts->show_nr_jumps ? lay->jw + 1 : 0);
	lay->width = 2 * lay->vw + 10 + 2 * lay->aw;
}

void annotate_layout__exit(struct annotate_layout *lay)
{
	free(lay->sources);
	lay->sources = NULL;
}

/* snprintf that keeps *n at the bytes written, never past size. */
static void put(char *buf, size_t size, int *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t size, int *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	if ((size_t)*n >= size)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *n, size - (size_t)*n, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n = (size_t)(*n + r) < size ? *n + r : (int)size - 1;
}

/* n blanks (none when n <= 0). */
static void put_pad(char *buf, size_t size, int *len, int n)
{
	if (n > 0)
		put(buf, size, len, "%*s", n, "");
}

int annotate_layout__line(const struct annotate_layout *lay, size_t i, bool arrows,
			  char *buf, size_t size, int *text_at)
{
	const struct annotate_opts *opts = lay->opts;
	const struct annotate_line *al = &lay->l->lines[i];
	int level = opts->offset_level < 1 ? 1 : opts->offset_level > 3 ? 3 : opts->offset_level;
	int tw = opts->use_addr ? lay->tw_addr : lay->tw, n = 0, text_w, start;
	uint64_t at = opts->use_addr ? lay->l->start + (uint64_t)al->offset : (uint64_t)al->offset;
	const char *arrow = "  ", *o;
	char name[64], ops[1024];

	buf[0] = '\0';
	if (text_at)
		*text_at = -1;
	if (al->offset < 0 && !al->text[0]) {
		put_pad(buf, size, &n, lay->vw + 1);
		return n;
	}
	if (al->offset < 0) {
		if (opts->show_linenr && al->line_nr)
			put(buf, size, &n, " %-*d ", lay->aw + 1, al->line_nr);
		else
			put_pad(buf, size, &n, 1 + lay->aw + 2);
		start = n;
		put(buf, size, &n, "%s", al->text);
		put_pad(buf, size, &n, lay->width - 6 - (lay->vw + 1 + lay->aw + 2) - (n - start));
		return n;
	}
	/* the address column: every address, or the offsets of jump
	 * targets (with the jumps to them), of calls, of all, by level */
	text_w = lay->width - (lay->vw + 1 + lay->aw + 2 + 2);
	if (opts->use_addr || lay->sources[i] || (al->is_call && level >= 2) || level >= 3) {
		if (!opts->use_addr && lay->sources[i] && opts->show_nr_jumps)
			put(buf, size, &n, " %*u %*" PRIx64 ": ", lay->jw, lay->sources[i], tw, at);
		else
			put(buf, size, &n, " %*" PRIx64 ": ", tw, at);
		/* as perf pads: shorter by the jumps column where a number is */
		text_w -= lay->aw - tw;
	} else {
		put_pad(buf, size, &n, 1 + lay->aw + 2);
	}
	insn__split(al->text, name, sizeof(name), &o);
	if (line__jump_inside(lay, al)) {
		arrow = al->target > lay->l->start + (uint64_t)al->offset ? ARROW_DOWN : ARROW_UP;
		if (opts->use_addr)
			snprintf(ops, sizeof(ops), "%s", o);
		else
			snprintf(ops, sizeof(ops), "%" PRIx64, al->target - lay->l->start);
	} else if (al->is_call) {
		arrow = ARROW_RIGHT;
		if (opts->use_addr)
			snprintf(ops, sizeof(ops), "%s", o);
		else
			call__ops(lay->as->dso, al, o, ops, sizeof(ops));
	} else if (!strncmp(name, "nop", 3) && !opts->use_addr) {
		snprintf(name, sizeof(name), "nop");	/* perf: no operands */
		ops[0] = '\0';
	} else {
		if (al->is_jump)
			arrow = ARROW_RIGHT;
		else if (!strncmp(name, "ret", 3))
			arrow = ARROW_LEFT;
		if (opts->use_addr)
			snprintf(ops, sizeof(ops), "%s", o);
		else
			ops__simplify(o, ops, sizeof(ops));
	}
	if (!arrows)
		arrow = "  ";
	put(buf, size, &n, "%s%s", arrow, arrow[0] == ' ' ? "" : " ");
	start = n;
	if (text_at)
		*text_at = n;
	if (ops[0])
		put(buf, size, &n, "%-*s %s", lay->max_name, name, ops);
	else
		put(buf, size, &n, "%s", name);
	put_pad(buf, size, &n, text_w - (n - start));
	return n;
}

int annotated_sym__fprintf2(struct annotation_set *set, const struct annotated_sym *as,
			    const struct annotate_opts *opts, FILE *fp)
{
	struct annotate_listing l;
	struct annotate_layout lay;
	uint64_t tot_period, tot_samples, nr;
	int err;
	char unit, line[2048];
	size_t i;
	bool first = true;

	err = annotated_sym__listing(set, as, opts, &l);
	if (err)
		return err;
	err = annotate_layout__init(&lay, &l, as, opts);
	if (err) {
		annotate_listing__exit(&l);
		return err;
	}
	annotation_set__totals(set, as->evsel, &tot_period, &tot_samples);
	nr = count__unit(tot_samples, &unit);
	fprintf(fp, "Samples: %" PRIu64 "%c of event '%s', %" PRIu64 " Hz, Event count (approx.): %"
		PRIu64 ", [percent: %s]\n", nr, unit, evsel__name(as->evsel),
		(uint64_t)as->evsel->attr.sample_freq, tot_period,
		annotate__percent_type_str(opts->percent_type));
	fprintf(fp, "%s() %s\n", as->sym->name, as->dso->long_name);
	for (i = 0; i < l.nr; i++) {
		const struct annotate_line *al = &l.lines[i];

		if (al->offset < 0 && opts->hide_src_code)
			continue;
		/* the column's name on the first line, unless it has a value */
		if (first && (al->offset < 0 || !al->nr_samples)) {
			fprintf(fp, "%-*s", lay.vw, opts->show_total_period ? "Period" :
				opts->show_nr_samples ? "Samples" : "Percent");
		} else if (al->offset < 0 || !al->nr_samples) {
			pad(fp, lay.vw);
		} else if (opts->show_total_period) {
			fprintf(fp, "%11" PRIu64 " ", al->period);
		} else if (opts->show_nr_samples) {
			fprintf(fp, "%6" PRIu64 " ", al->nr_samples);
		} else {
			fprintf(fp, "%6.2f ", al->percent);
		}
		first = false;
		annotate_layout__line(&lay, i, true, line, sizeof(line), NULL);
		fprintf(fp, "%s\n", line);
	}
	annotate_layout__exit(&lay);
	annotate_listing__exit(&l);
	if (ferror(fp))
		return -EPIPE;
	return 0;
}

/* The instruction name (first word) of a listing text. */
static void text__name(const char *text, char *name, size_t size)
{
	const char *o;

	insn__split(text, name, size, &o);
}

static bool name__is_any(const char *name, const char *const *list, bool prefix)
{
	for (; *list; list++)
		if (prefix ? !strncmp(name, *list, strlen(*list)) : strstr(name, *list) != NULL)
			return true;
	return false;
}

bool annotate__fused(const char *cpuid, const char *first, const char *jump)
{
	static const char *const cmp_test[] = { "cmp", "test", NULL };
	static const char *const alu_intel[] = { "cmp", "test", "add", "sub", "and", "inc", "dec",
						 NULL };
	static const char *const alu_amd[] = { "cmp", "test", "add", "sub", "and", "inc", "dec",
					       "or", "xor", NULL };
	char vendor[32], a[64], b[64];
	unsigned int family, model;

	if (!cpuid || sscanf(cpuid, "%31[^,],%u,%u", vendor, &family, &model) != 3)
		return false;
	text__name(first, a, sizeof(a));
	text__name(jump, b, sizeof(b));
	if (b[0] != 'j' || strstr(b, "jmp") || strstr(a, "xchg"))
		return false;
	if (!strcmp(vendor, "GenuineIntel")) {
		if (family != 6 || model < 0x1e)
			return false;
		return name__is_any(a, model == 0x1e ? cmp_test : alu_intel, false);
	}
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		if (family < 0x15)
			return false;
		return name__is_any(a, family < 0x19 ? cmp_test : alu_amd, true);
	}
	return false;
}

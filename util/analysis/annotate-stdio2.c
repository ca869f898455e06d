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

int annotated_sym__fprintf2(struct annotation_set *set, const struct annotated_sym *as,
			    const struct annotate_opts *opts, FILE *fp)
{
	struct annotate_listing l;
	uint64_t tot_period, tot_samples, last = 0, nr;
	int vw = opts->show_total_period ? 12 : 7, aw, w, max_name = 0, err;
	unsigned int *sources;
	char unit, name[64], ops[1024], text[1200];
	size_t i, j;
	bool first = true;

	err = annotated_sym__listing(set, as, opts, &l);
	if (err)
		return err;
	sources = calloc(l.nr ? l.nr : 1, sizeof(*sources));
	if (!sources) {
		annotate_listing__exit(&l);
		return -ENOMEM;
	}
	for (i = 0; i < l.nr; i++) {
		const struct annotate_line *al = &l.lines[i];
		const char *o;

		if (al->offset < 0)
			continue;
		last = (uint64_t)al->offset;
		insn__split(al->text, name, sizeof(name), &o);
		if ((int)strlen(name) > max_name)
			max_name = (int)strlen(name);
		if (!al->is_jump || !al->has_target || al->target < l.start ||
		    al->target - l.start >= as->len)
			continue;
		for (j = 0; j < l.nr; j++)
			if (l.lines[j].offset == (int64_t)(al->target - l.start))
				sources[j]++;
	}
	for (aw = 1; last >>= 4; aw++)
		;
	w = 2 * vw + 10 + 2 * aw;

	annotation_set__totals(set, as->evsel, &tot_period, &tot_samples);
	nr = count__unit(tot_samples, &unit);
	fprintf(fp, "Samples: %" PRIu64 "%c of event '%s', %" PRIu64 " Hz, Event count (approx.): %"
		PRIu64 ", [percent: %s]\n", nr, unit, evsel__name(as->evsel),
		(uint64_t)as->evsel->attr.sample_freq, tot_period,
		annotate__percent_type_str(opts->percent_type));
	fprintf(fp, "%s() %s\n", as->sym->name, as->dso->long_name);
	for (i = 0; i < l.nr; i++) {
		const struct annotate_line *al = &l.lines[i];
		const char *arrow = "  ", *o;
		int n;

		if (first) {
			fprintf(fp, "%-*s", vw, opts->show_total_period ? "Period" :
				opts->show_nr_samples ? "Samples" : "Percent");
			first = false;
		} else if (al->offset < 0 || !al->nr_samples) {
			pad(fp, vw);
		} else if (opts->show_total_period) {
			fprintf(fp, "%11" PRIu64 " ", al->period);
		} else if (opts->show_nr_samples) {
			fprintf(fp, "%6" PRIu64 " ", al->nr_samples);
		} else {
			fprintf(fp, "%6.2f ", al->percent);
		}
		if (al->offset < 0 && !al->text[0]) {
			pad(fp, vw + 1);
			fputc('\n', fp);
			continue;
		}
		if (al->offset < 0) {
			pad(fp, 1 + aw + 2);
			n = fprintf(fp, "%s", al->text);
			pad(fp, w - 6 - (vw + 1 + aw + 2) - n);
			fputc('\n', fp);
			continue;
		}
		if (sources[i])
			fprintf(fp, " %*" PRIx64 ": ", aw, (uint64_t)al->offset);
		else
			pad(fp, 1 + aw + 2);
		insn__split(al->text, name, sizeof(name), &o);
		if (al->is_jump && al->has_target && al->target >= l.start &&
		    al->target - l.start < as->len) {
			arrow = al->target > l.start + (uint64_t)al->offset ? ARROW_DOWN : ARROW_UP;
			snprintf(ops, sizeof(ops), "%" PRIx64, al->target - l.start);
		} else if (al->is_call) {
			arrow = ARROW_RIGHT;
			call__ops(as->dso, al, o, ops, sizeof(ops));
		} else if (!strncmp(name, "nop", 3)) {
			snprintf(name, sizeof(name), "nop");	/* perf: no operands */
			ops[0] = '\0';
		} else {
			if (al->is_call || al->is_jump)
				arrow = ARROW_RIGHT;
			else if (!strncmp(name, "ret", 3))
				arrow = ARROW_LEFT;
			ops__simplify(o, ops, sizeof(ops));
		}
		if (ops[0])
			snprintf(text, sizeof(text), "%-*s %s", max_name, name, ops);
		else
			snprintf(text, sizeof(text), "%s", name);
		fprintf(fp, "%s%s", arrow, arrow[0] == ' ' ? "" : " ");
		n = fprintf(fp, "%s", text);
		pad(fp, w - (vw + 1 + aw + 2 + 2) - n);
		fputc('\n', fp);
	}
	free(sources);
	annotate_listing__exit(&l);
	if (ferror(fp))
		return -EPIPE;
	return 0;
}

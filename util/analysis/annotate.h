/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_ANNOTATE_H
#define PRF_ANALYSIS_ANNOTATE_H
/*
 * Annotation: the samples of each (event, DSO, symbol) kept per address,
 * and their printing as perf 6.1's `perf annotate --stdio` does: the
 * symbol's instructions (util/model/disasm.h, Capstone) with the share
 * of the event's samples on each, the source lines interleaved where
 * `objdump -S -l` puts them (perf's source of the listing: the function
 * name at each change, the lines since the last one shown, perf's
 * running line number beside them), and the header perf prints:
 * " Percent |\tSource code & Disassembly of DSO for EVENT (N samples,
 * percent: local period)".
 *
 * Addresses are in the DSO address space (dso.h); the DSOs are
 * referenced (dso__get) so the symbols stay valid after the model
 * changes.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct dso;
struct evsel;
struct symbol;

enum annotate_percent_type {
	PERCENT_LOCAL_PERIOD,	/* share of the symbol's period (default) */
	PERCENT_GLOBAL_PERIOD,	/* share of the event's period */
	PERCENT_LOCAL_HITS,	/* share of the symbol's samples */
	PERCENT_GLOBAL_HITS,	/* share of the event's samples */
};

/* How perf's header names t: "local period", "global hits", ... */
const char *annotate__percent_type_str(enum annotate_percent_type t);

/* "local-period" ... as perf's --percent-type; -EINVAL for others. */
int annotate__parse_percent_type(const char *s, enum annotate_percent_type *type);

struct annotate_opts {
	enum annotate_percent_type percent_type;
	bool intel;		/* -M intel */
	bool no_source;		/* --no-source: objdump without -S */
	bool print_line;	/* -l: the source-line summary and " // file:line" */
	bool full_paths;	/* -P: the DSO's full path in the header */
	bool show_nr_samples;	/* -n: sample counts instead of percent */
	bool show_total_period;	/* --show-total-period: periods */
	bool asm_raw;		/* --asm-raw: instruction bytes */
	bool stdio2;		/* --stdio2: perf's TUI layout as text */
	bool group;		/* --group (or a recording of groups): a leader's
				   listing has a column per group member */
	bool group_forced;	/* --group over events recorded ungrouped: the
				   header names them without "anon group { }" */
	double percent_limit;	/* --percent-limit: symbols with less of the
				   event's period are not listed (lines never hidden) */
	/* perf's annotate.* keys of the browser layout (perf-config(1)),
	 * used by --stdio2 and the TUI; all false/0 is perf's default */
	bool use_addr;		/* annotate.use_offset=false: every address,
				   operands as objdump wrote them */
	bool show_linenr;	/* annotate.show_linenr: line numbers on source lines */
	bool show_nr_jumps;	/* annotate.show_nr_jumps: jumps to each target */
	bool hide_src_code;	/* annotate.hide_src_code: instructions only */
	bool no_jump_arrows;	/* annotate.jump_arrows=false: TUI, no line from
				   the selected jump to its target */
	int offset_level;	/* annotate.offset_level: offsets of jump targets
				   (1, also 0), and of calls (2), of all (3 and up) */
};

/*
 * Read perf's annotate.* keys (perf-config(1)) into opts: show_nr_samples,
 * show_total_period, use_offset, show_linenr, show_nr_jumps,
 * hide_src_code, jump_arrows, offset_level, disassembler_style (intel
 * sets opts->intel, other values clear it). *style is set to
 * annotate.disassembler_style's value (the config's string) when style is
 * not NULL and the key is set. 0, or -EINVAL after a message naming a
 * bad value (that key keeps its default, the others are read).
 */
int annotate_opts__config(struct annotate_opts *opts, const char **style);

/* One symbol's samples for one event. */
struct annotated_sym {
	struct evsel *evsel;
	struct dso *dso;		/* reference held */
	struct symbol *sym;		/* owned by dso */
	uint64_t period, nr_samples;	/* in the symbol */
	uint64_t *addr_period;		/* [sym->end - sym->start], by offset */
	uint32_t *addr_hits;
	uint64_t len;			/* bytes of the symbol */
	struct annotated_sym *next;	/* hash chain */
};

struct annotation_set;

/* New empty set; NULL on ENOMEM. */
struct annotation_set *annotation_set__new(void);
/* Drop the DSO references and free. NULL is fine. */
void annotation_set__delete(struct annotation_set *set);

/*
 * Count one sample of evsel (period: its period) in the event's totals,
 * and, when sym is not NULL, at addr (DSO address space, inside sym) of
 * sym in dso. 0 or -ENOMEM.
 */
int annotation_set__add(struct annotation_set *set, struct evsel *evsel, struct dso *dso,
			struct symbol *sym, uint64_t addr, uint64_t period);

/*
 * Age every count of set for prf top, as its hist entries age
 * (util/analysis/top.h) and as perf top ages the annotation of a symbol
 * it shows: each period and sample count, per address, per symbol, per
 * DSO without symbols and per event, keeps keep/8 of itself (integer
 * division; 7 at each refresh, 0 empties the set). Symbols and DSOs whose
 * counts are all 0 leave the set (their DSO references dropped, the
 * disassembler's symbols of DSOs no symbol names any more with them);
 * pointers from annotation_set__sorted() are stale afterwards.
 */
void annotation_set__decay(struct annotation_set *set, unsigned int keep);

/*
 * The symbols with samples, in perf annotate's order: by event (evlist
 * order), then hottest first (period), then DSO short name, then symbol
 * name (the order of perf report -s dso,sym). The
 * array is the set's; *nr its length. NULL with *nr 0 when empty or on
 * ENOMEM.
 */
struct annotated_sym **annotation_set__sorted(struct annotation_set *set, size_t *nr);

/*
 * The i-th DSO (from 0) with samples that hit no symbol in it (its file
 * missing, stripped, or differing from the recording), in first-seen
 * order, and how many: 0, or -ENOENT past the last one.
 */
int annotation_set__unresolved(const struct annotation_set *set, size_t i, struct dso **dso,
			       uint64_t *nr_samples);

/* Total period and samples of evsel (every sample counted by _add). */
void annotation_set__totals(const struct annotation_set *set, const struct evsel *evsel,
			    uint64_t *period, uint64_t *nr_samples);

/*
 * Print as perf annotate --stdio: header, rule, the listing. With
 * opts->group and as of a group leader, one column per member of the
 * group (leader first), each share of that event's samples in the symbol
 * (members' global periods 0.00, as perf 6.1's hists of members have no
 * totals), the header naming the group as perf's evsel__group_desc(). set gives
 * the event totals for the global percent types. Source files are read
 * once per set. 0; -ENOENT (no file for the DSO's code), -EOPNOTSUPP
 * (not x86 code), -EIO, -ENOMEM (nothing printed then); -EPIPE when the
 * output closed.
 */
int annotated_sym__fprintf(struct annotation_set *set, const struct annotated_sym *as,
			   const struct annotate_opts *opts, FILE *fp);

/*
 * Print as perf annotate --stdio2: the layout of perf's annotate browser
 * as text (annotate-stdio2.c describes it), the title naming the event's
 * samples and period counted. Errors as annotated_sym__fprintf().
 */
int annotated_sym__fprintf2(struct annotation_set *set, const struct annotated_sym *as,
			    const struct annotate_opts *opts, FILE *fp);

/* One line of an annotated listing, as the TUI browses them. */
struct annotate_line {
	int64_t offset;		/* from the symbol start; -1: source/text line */
	uint64_t len;		/* instructions: bytes whose samples are its */
	int line_nr;		/* perf's running line number */
	char *text;		/* source line, or the instruction after "addr:";
				 * owned by the listing */
	double percent;		/* instructions: by opts->percent_type */
	uint64_t nr_samples, period;
	uint64_t target;	/* jumps/calls to an address: the target */
	bool has_target, is_call, is_jump;
};

struct annotate_text_pool;

struct annotate_listing {
	struct annotate_line *lines;
	size_t nr;
	struct annotate_text_pool *pool;	/* owned: the lines' text */
	void *map;		/* owned: a kept disassembly's mapping holding
				 * the lines' text instead (disasm-cache.h) */
	size_t map_size;
	int addr_width;		/* hex digits of the last instruction's address */
	uint64_t start;		/* the symbol's start */
};

/*
 * The layout of perf's annotate browser over one listing (the --stdio2
 * and TUI rows): widths of its columns and the jumps to each line.
 */
struct annotate_layout {
	const struct annotate_listing *l;
	const struct annotated_sym *as;
	const struct annotate_opts *opts;
	unsigned int *sources;	/* per line of l: jumps inside the symbol to it */
	int max_name;		/* longest instruction name */
	int tw, tw_addr;	/* hex digits of the last offset, of its address */
	int jw;			/* digits of the most jumps to one line */
	int vw;			/* value column, its blank included: 7 or 12 */
	int aw;			/* address column: tw (or tw_addr), + jw + 1 with
				   show_nr_jumps */
	int width;		/* perf's line width the rows are padded to */
};

/* Set up lay over l (of as) with opts (both must outlive it). 0 or
 * -ENOMEM. Free with annotate_layout__exit(). */
int annotate_layout__init(struct annotate_layout *lay, const struct annotate_listing *l,
			  const struct annotated_sym *as, const struct annotate_opts *opts);
/* The widths again after opts' fields changed (opts must outlive lay). */
void annotate_layout__widths(struct annotate_layout *lay, const struct annotate_opts *opts);
void annotate_layout__exit(struct annotate_layout *lay);
/*
 * Line i of the listing as perf's browser writes it after the value
 * column: address column, arrow (blank when !arrows), instruction or
 * source text, padded with blanks as perf pads. Into buf (NUL-terminated,
 * cut at size); returns its length in bytes. *text_at (when not NULL):
 * the byte where an instruction's text starts (after the two arrow
 * columns), -1 on other lines.
 */
int annotate_layout__line(const struct annotate_layout *lay, size_t i, bool arrows,
			  char *buf, size_t size, int *text_at);

/*
 * Whether a CPU (cpuid as the CPUID header feature: "VENDOR,FAMILY,MODEL,
 * ...") runs instruction text first and the conditional jump jump as one
 * macro-fused pair, the pairs perf's browser marks: cmp/test before a
 * jump on Intel family 6 from model 0x1e (also add, sub, and, inc, dec
 * after it) and AMD from family 0x15 (also add, sub, and, inc, dec, or,
 * xor from 0x19). false for NULL or unknown CPUs.
 */
bool annotate__fused(const char *cpuid, const char *first, const char *jump);

/*
 * Start making the inputs of sym's listing (in dso, with opts) on a helper
 * thread: its code (dso__disasm()), objdump's symbol table of dso and the
 * DWARF functions over sym, so that they are ready when the listing is
 * built, for a consumer that knows early which symbol it lists first
 * (annotate with symbols named: at their first sample, while the rest is
 * read). One at a time: nothing when one is pending. The listing of
 * another symbol (or in other options) frees them. 0; -ENOMEM.
 */
int annotation_set__prepare(struct annotation_set *set, struct dso *dso, struct symbol *sym,
			    const struct annotate_opts *opts);

/* Build the listing printed by annotated_sym__fprintf() (errors as it).
 * Free with annotate_listing__exit(). */
int annotated_sym__listing(struct annotation_set *set, const struct annotated_sym *as,
			   const struct annotate_opts *opts, struct annotate_listing *l);
void annotate_listing__exit(struct annotate_listing *l);

#endif

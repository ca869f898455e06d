/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_PROBE_INFO_H
#define PRF_MODEL_PROBE_INFO_H
/*
 * What `prf probe` needs to know of one binary: its ELF symbols, its
 * loadable segments (virtual addresses to the file offsets uprobes take),
 * and from its DWARF (the file itself or the debug file the model finds,
 * util/model/debuginfo-file.c) functions by name with their inline
 * instances, line rows, the variables in scope at an address with their
 * locations (DW_AT_location expressions and location lists, the frame
 * base through the CFI) and their types (struct members, arrays,
 * pointers, base types). Variables become fetch arguments in the syntax
 * of the kernel's Documentation/trace/uprobetracer.rst ("-24(%bp)",
 * "+8(-8(%bp)):s64"), x86-64 register names.
 *
 * All functions return 0 or a negative errno; strings handed out are
 * malloc'd for the caller unless said otherwise.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct probe_info;

/*
 * Open path (an ELF file): its symbols and segments, and its DWARF when
 * the file or its debug file has any. 0 and *pi (free with
 * probe_info__delete()); -ENOENT (no such file), -EINVAL (not ELF),
 * -ENOMEM.
 */
int probe_info__open(const char *path, struct probe_info **pi);
/* Close the files and free pi. NULL is fine. */
void probe_info__delete(struct probe_info *pi);

/* Whether DWARF (.debug_info) was found for the binary. */
bool probe_info__has_dwarf(const struct probe_info *pi);

/* A virtual address to its file offset (what uprobes take) and back,
 * through the PT_LOAD segments' file contents. 0 or -ENOENT (in no
 * segment's file bytes). */
int probe_info__vaddr_to_offset(const struct probe_info *pi, uint64_t vaddr, uint64_t *off);
int probe_info__offset_to_vaddr(const struct probe_info *pi, uint64_t off, uint64_t *vaddr);

/* Address of the defined function (or other) symbol name in .symtab or
 * .dynsym. 0 or -ENOENT. */
int probe_info__symbol(const struct probe_info *pi, const char *name, uint64_t *addr);

/* Whether name is a GNU indirect function (STT_GNU_IFUNC) symbol. */
bool probe_info__symbol_is_ifunc(const struct probe_info *pi, const char *name);

/* The function symbol containing addr (name borrowed from pi) and addr's
 * offset in it. 0 or -ENOENT. */
int probe_info__symbol_at(const struct probe_info *pi, uint64_t addr, const char **name,
			  uint64_t *off);

/* Names of the defined symbols (functions, objects, untyped; not files or
 * sections), sorted and unique; the caller frees the array, the names are
 * pi's. 0 or -ENOMEM. */
int probe_info__symbols(const struct probe_info *pi, const char ***names, size_t *n);

/* One place a probe point resolves to. */
struct probe_site {
	uint64_t addr;		/* virtual address of the probe */
	uint64_t entry;		/* entry of the function (or inline instance) */
	char *func;		/* its DWARF name (or the symbol's) */
	char *file;		/* source file of the function, NULL without DWARF */
	int decl_line;		/* its declaration line (0: unknown) */
	int line;		/* the line at addr (0: unknown) */
	bool inlined;		/* an inline instance */
	char *outer;		/* the function the code is in (func's own
				 * name unless inlined; NULL: unknown) */
	uint64_t outer_entry;	/* its entry */
	bool skipped_prologue;	/* addr is past the entry's prologue */
	uint64_t scope;		/* .debug_info offset of the function or
				 * inline instance DIE (0: none) */
};

/* Free n sites from probe_info__find() and their strings. NULL is fine. */
void probe_sites__free(struct probe_site *sites, size_t n);

enum probe_where {
	PROBE_AT_FUNC,		/* FUNC, FUNC+OFF, FUNC%return */
	PROBE_AT_FUNC_LINE,	/* FUNC:RLN (line relative to the declaration) */
	PROBE_AT_FUNC_LAZY,	/* FUNC;PTN */
	PROBE_AT_SRC_LINE,	/* SRC:ALN */
	PROBE_AT_SRC_LAZY,	/* SRC;PTN */
};

struct probe_request {
	enum probe_where where;
	const char *func;	/* PROBE_AT_FUNC* */
	const char *src;	/* FUNC@SRC, SRC:ALN, SRC;PTN (a path suffix) */
	const char *lazy;	/* the pattern of ;PTN (fnmatch after removing
				 * blanks on both sides, as perf does) */
	long line;		/* RLN or ALN */
	uint64_t offset;	/* +OFF */
	bool skip_prologue;	/* at a function's entry of an unoptimized unit,
				 * probe after its prologue (args wanted) */
	bool no_inlines;	/* leave inline instances out */
	unsigned int max_probes;	/* more sites are -E2BIG (0: no limit) */
};

/*
 * The sites of a probe point: out-of-line functions named req->func (a
 * symbol alias finds its DWARF function through the address), each
 * inline instance (unless no_inlines), or the rows of a line. Without
 * DWARF only PROBE_AT_FUNC on a symbol works. 0 with *sites and *n (n >= 1,
 * free with probe_sites__free()); -ENOENT: no such point; -EOPNOTSUPP:
 * the request needs DWARF and there is none; -E2BIG: more sites than
 * req->max_probes (or than one unit's tables hold).
 */
int probe_info__find(struct probe_info *pi, const struct probe_request *req,
		     struct probe_site **sites, size_t *n);

/* One step after the variable of an argument expression. */
struct probe_arg_step {
	char *field;		/* member name; NULL for an index */
	bool arrow;		/* "->" (else "." for a member) */
	long index;		/* [N] */
};

/*
 * The fetch argument reading variable var (then steps) at site, with
 * type (NULL: from DWARF; "string", "ustring", "x64", "u8".. "s64") as
 * the kernel's probe syntax writes it: *out is e.g. "+8(-8(%bp)):s64".
 * var "$retval" is the return value register. On -ENOENT/-EINVAL *msg
 * (malloc'd) says what is wrong, in perf's words where it has them.
 */
int probe_info__fetcharg(struct probe_info *pi, const struct probe_site *site, const char *var,
			 const struct probe_arg_step *steps, size_t nsteps, const char *type,
			 char **out, char **msg);

/* A variable as probe_info__vars() hands it over (strings valid during
 * the call only). */
struct probe_var {
	const char *type;	/* as perf prints it: "char*", "struct pt*",
				 * "(unknown_type)" */
	const char *name;
	bool is_param;
	bool valid;		/* a probe at the site can fetch it */
	bool external;		/* a global of the unit (externs) */
	const char *range;	/* with_range: where its location is known,
				 * "@<func+[0-11,11-17]>"; else NULL */
};

/*
 * The variables in scope at site that a probe there can fetch:
 * parameters (params_only) or all, innermost scopes too; with externs the
 * unit's global variables; with with_range also those whose location
 * lists leave the site out (valid false), and each one's range. cb's
 * non-zero return stops the walk.
 */
typedef int (*probe_var_cb)(const struct probe_var *var, void *arg);
int probe_info__vars(struct probe_info *pi, const struct probe_site *site, bool params_only,
		     bool externs, bool with_range, probe_var_cb cb, void *arg);

/*
 * The lines of function func for `probe -L`: its source file (malloc'd),
 * declaration line, the last line of its code, and which lines in
 * [decl, end] have code (probeable[i] for line decl + i, malloc'd,
 * end - decl + 1 entries). 0; -ENOENT: no such function;
 * -EOPNOTSUPP: no DWARF.
 */
int probe_info__func_lines(struct probe_info *pi, const char *func, char **file, int *decl,
			   int *end, bool **probeable);

/*
 * Where vaddr is in the source: the (innermost non-inline) function, the
 * line relative to its declaration and its file (both malloc'd), for
 * `probe -l`. The line is the first statement row at vaddr of the line
 * table, as perf takes it; with none (vaddr starts no statement) *rel_line
 * is -1 and the file is the function's: perf then shows FUNC+OFFSET,
 * the offset from *entry. 0 or -ENOENT.
 */
int probe_info__point_at(struct probe_info *pi, uint64_t vaddr, char **func, int *rel_line,
			 char **file, uint64_t *entry);

/*
 * Kernel function name's address and _text's from /proc/kallsyms (the
 * kernel's probes are written as _text+OFFSET). 0; -ENOENT (no such
 * symbol, or addresses hidden by kptr_restrict); -errno opening it.
 */
int probe_info__kernel_symbol(const char *name, uint64_t *addr, uint64_t *text);

/*
 * The kernel's and modules' symbols of /proc/kallsyms (types t, T, w, W,
 * d, D, b, B, as perf keeps them; not ftrace's trampolines), one entry per
 * distinct address and name, sorted by name. *names is one malloc'd array
 * of malloc'd strings: free with probe_info__free_names(). 0 or -errno.
 */
int probe_info__kernel_symbols(char ***names, size_t *n);
/* Free names from probe_info__kernel_symbols(). NULL is fine. */
void probe_info__free_names(char **names, size_t n);

#endif

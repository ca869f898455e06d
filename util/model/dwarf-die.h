/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DWARF_DIE_H
#define PRF_MODEL_DWARF_DIE_H
/*
 * prf's own walk of the DIE tree of one unit (.debug_info, DWARF 2 to 5)
 * for the two address indexes util/model/debuginfo-inline.c builds: the
 * functions of a unit, and the inline scopes of a function. It reads
 * only what those need: tags, children, DW_AT_low_pc/DW_AT_high_pc/
 * DW_AT_ranges (with .debug_ranges, .debug_rnglists, .debug_addr) and
 * DW_AT_sibling, and skips every other attribute by its form. Layouts
 * from the DWARF 5 standard: unit headers 7.5.1, abbreviations 7.5.3,
 * forms 7.5.6 (and 7.5.5's classes), range lists 2.17.3 and 7.25
 * (DWARF 2-4: .debug_ranges, DWARF 4 section 2.17.3).
 *
 * Why not libdw's dwarf_child()/dwarf_siblingof()/dwarf_ranges(): each
 * step looks the abbreviation up again and decodes attributes through
 * generic accessors, which dominates building the inline scopes of one
 * giant function (_PyEval_EvalFrameDefault of Debian's LTO python3.11,
 * tens of thousands of DIEs).
 *
 * Anything this walker does not read (split or type units, vendor forms
 * such as DW_FORM_GNU_addr_index, DW_FORM_addrx without DW_AT_addr_base)
 * gives -EOPNOTSUPP, malformed input -EINVAL: the caller then walks with
 * libdw (dwarf_die__*_libdw() below, the same callbacks), so results never
 * depend on which walker ran.
 */
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include <libelf.h>

/* The sections a DIE walk reads; NULL/0 when absent. */
struct dwarf_die_secs {
	const unsigned char *info;	/* .debug_info */
	size_t info_len;
	const unsigned char *abbrev;	/* .debug_abbrev */
	size_t abbrev_len;
	const unsigned char *ranges;	/* .debug_ranges (DWARF 2-4) */
	size_t ranges_len;
	const unsigned char *rnglists;	/* .debug_rnglists (DWARF 5) */
	size_t rnglists_len;
	const unsigned char *addr;	/* .debug_addr (DWARF 5) */
	size_t addr_len;
};

/*
 * Fill *secs from elf's sections (after dwarf_begin_elf(), which inflates
 * compressed sections in place; one still SHF_COMPRESSED is left out).
 * Pointers are elf's, valid until elf_end(); the caller may replace info
 * by an image of its own. 0; -ENOENT (no plain .debug_info or
 * .debug_abbrev); -EOPNOTSUPP (not little-endian on a little-endian host).
 */
int dwarf_die_secs__from_elf(Elf *elf, struct dwarf_die_secs *secs);

/* One unit, read for walking (abbreviation table decoded once). */
struct dwarf_unit;

/*
 * Open the unit whose unit DIE is at .debug_info offset cu_off, of
 * offset size offset_size (4: 32-bit DWARF, 8: 64-bit; libdw's
 * dwarf_diecu() gives it), which tells where its header starts. The unit
 * must lie whole in secs->info (secs is copied; the bytes are borrowed).
 * 0 and *u (free with dwarf_unit__delete()); -EOPNOTSUPP, -EINVAL,
 * -ENOMEM.
 */
int dwarf_unit__new(const struct dwarf_die_secs *secs, uint64_t cu_off, unsigned int offset_size,
		    struct dwarf_unit **u);
/* Free a unit. NULL is fine. */
void dwarf_unit__delete(struct dwarf_unit *u);

/*
 * Called for each address range [lo, hi) of a DIE found (as libdw's
 * dwarf_ranges() gives them: empty and inverted ranges too): off is the
 * DIE's .debug_info offset, depth and parent as each walk defines them.
 * Non-zero stops the walk and is returned.
 */
typedef int (*dwarf_range_cb_t)(void *arg, unsigned int depth, uint64_t off, uint64_t parent,
				uint64_t lo, uint64_t hi);

/*
 * The functions of the unit: every DW_TAG_subprogram among the unit DIE's
 * children, and among the children of DW_TAG_namespace, DW_TAG_module,
 * DW_TAG_class_type and DW_TAG_structure_type there (not below a
 * function). cb gets depth 0 and the unit DIE as parent. 0, cb's
 * non-zero value, -EINVAL, -EOPNOTSUPP.
 */
int dwarf_unit__funcs(struct dwarf_unit *u, dwarf_range_cb_t cb, void *arg);

/*
 * The scopes of the function whose DIE is at func_off: each
 * DW_TAG_inlined_subroutine or DW_TAG_subprogram below it, looking
 * through DW_TAG_lexical_block (not into other DIEs). depth is 0 for a
 * scope directly in the function, one more per enclosing scope; parent
 * is the enclosing scope's DIE (the function's at depth 0). Scopes at
 * depth max_depth and below are left out with their subtrees. 0, cb's
 * non-zero value, -EINVAL, -EOPNOTSUPP.
 */
int dwarf_unit__scopes(struct dwarf_unit *u, uint64_t func_off, unsigned int max_depth,
		       dwarf_range_cb_t cb, void *arg);

/* The same two walks done with libdw, for what dwarf_unit__new() and the
 * walks above refuse. 0, cb's non-zero value, -EINVAL (no such DIE). */
int dwarf_die__funcs_libdw(Dwarf *dw, uint64_t cu_off, dwarf_range_cb_t cb, void *arg);
int dwarf_die__scopes_libdw(Dwarf *dw, uint64_t func_off, unsigned int max_depth,
			    dwarf_range_cb_t cb, void *arg);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_UI_TUI_ANNOTATE_H
#define PRF_UI_TUI_ANNOTATE_H
/*
 * The annotate browser (slang): one symbol's listing
 * (util/analysis/annotate.h) in the layout of perf's annotate browser
 * (annotate_layout__line(), as --stdio2 prints it) with a bar after the
 * value column, in the report browser's colours (hot instructions red
 * from 5%, green from 0.5%), driven as perf's: UP/DOWN/PGUP/PGDN/HOME/END
 * move, TAB and shift-TAB go to the next and previous instruction in
 * descending share, ENTER on a jump inside the symbol goes to its target
 * and on a call to another symbol of the set annotates that one (q/ESC
 * come back), 's' toggles the source lines, 'o' the addresses, 'O' the
 * offset level, 'k' line numbers, 'J' jump counts, 'j' the line from the
 * selected jump to its target, LEFT/RIGHT the previous and next symbol,
 * 'h' the keys, q/ESC leave.
 */
#include <stddef.h>

struct annotation_set;
struct annotated_sym;
struct annotate_opts;

/*
 * Browse syms[0..nr) (hottest first) of set, starting with syms[0], in
 * the layout opts set (its annotate.* key fields: the keys' starting
 * states; cpuid: the recording's CPUID feature for the fused-jump marks,
 * or NULL for none). Needs tui__init(); does not call tui__exit(). 0 when
 * the user quit, -ENOMEM, -EIO when the terminal failed; a symbol that
 * cannot be annotated shows its error on the help line.
 */
int tui__browse_annotate(struct annotation_set *set, struct annotated_sym **syms, size_t nr,
			 const struct annotate_opts *opts, const char *cpuid);

#endif

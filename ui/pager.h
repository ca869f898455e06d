/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_UI_PAGER_H
#define PRF_UI_PAGER_H
/*
 * Pager for commands with USE_PAGER: when stdout is a terminal, stdout is
 * piped into $PRF_PAGER, $PAGER or "less" (with LESS=FRX so short output
 * exits at once). `cat` or an empty value disables it, as does --no-pager.
 * Presentation layer: cmd/ starts it for USE_PAGER commands, a builtin
 * whose choice depends on its options (report: stdio, not the TUI) itself.
 */
/* Start the pager when stdout is a terminal and it is neither disabled nor
 * "cat"/empty; stdout is redirected into its pipe. Errors leave stdout as is. */
void setup_pager(void);
/* Never start a pager (--no-pager); call before setup_pager(). */
void pager_disable(void);
/* Non-zero when stdout goes to a pager started by setup_pager(). */
int pager_in_use(void);
/* Flush stdout, close the pipe and wait for the pager to exit. */
void pager_finish(void);
/* The width perf wraps paged text to (perf list's descriptions): $COLUMNS
 * when set, else the terminal's columns minus 2 when setup_pager() started
 * a pager on it, else 78. */
int pager_get_columns(void);
#endif

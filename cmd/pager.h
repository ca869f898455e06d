/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_CMD_PAGER_H
#define PRF_CMD_PAGER_H
/*
 * Pager for commands with USE_PAGER: when stdout is a terminal, stdout is
 * piped into $PRF_PAGER, $PAGER or "less" (with LESS=FRX so short output
 * exits at once). `cat` or an empty value disables it, as does --no-pager.
 */
void setup_pager(void);
void pager_disable(void);
/* Non-zero when stdout goes to a pager started by setup_pager(). */
int pager_in_use(void);
/* Flush stdout, close the pipe and wait for the pager to exit. */
void pager_finish(void);
#endif

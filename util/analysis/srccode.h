/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SRCCODE_H
#define PRF_ANALYSIS_SRCCODE_H
/*
 * `script -F srccode`: the source line of a sample ip, as perf 6.1 prints
 * it after the sample ("|LINE     text", the line number left-aligned in
 * 8 columns), read from the source file the DSO's DWARF line table names.
 * As perf, a thread's line is printed only when it differs from the one
 * printed last for that thread.
 */
#include <sys/types.h>

struct srccode;
struct addr_location;

/* NULL when out of memory. */
struct srccode *srccode__new(void);
void srccode__delete(struct srccode *sc);

/*
 * The text to print for a sample of thread tid at al (the resolved ip:
 * map, DSO address), with its newline; NULL when there is none (no line
 * information, the source file unreadable, or the same line as the
 * thread's previous one). Valid until the next call.
 */
const char *srccode__line(struct srccode *sc, pid_t tid, const struct addr_location *al);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_PARSE_EVENTS_H
#define PRF_KERNEL_PARSE_EVENTS_H
/*
 * Event string parser shared by stat, record and list. Grammar as perf's:
 * comma-separated events, `{a,b}:mods` groups, symbolic hardware/software/
 * cache events, rNNNN raw, pmu/term=val,.../, sys:name tracepoints with
 * globs, mem:addr[/len][:rwx] breakpoints, and modifiers
 * :u :k :h :p :pp :ppp :G :H :I :S :D :W :P :e.
 */
#include <stdio.h>

struct evlist;

/* Error details: idx is the byte offset into the parsed string of the bad
 * token, str the one-line reason, help an optional hint. Owned by the
 * struct; release with parse_events_error__exit(). */
struct parse_events_error {
	int idx;
	char *str;
	char *help;
};

void parse_events_error__init(struct parse_events_error *err);
void parse_events_error__exit(struct parse_events_error *err);
/*
 * Print perf 6.1's error for `events` to fp: "event syntax error: '...'"
 * with the string cut as perf cuts it for the terminal's width (80 when
 * stdout is no terminal; a head cut so that the error is at most 13
 * characters in, and an overlong tail, marked ".."), a caret line under
 * err->idx with the reason, and the hint after an empty line.
 */
void parse_events_error__print_bare(const struct parse_events_error *err, const char *events,
				    FILE *fp);
/* The same, then "Run 'prf list' for a list of valid events" (as perf's
 * -e option does). */
void parse_events_error__print(const struct parse_events_error *err, const char *events, FILE *fp);

/*
 * Parse `str` and append the evsels to evlist (attr filled: type, config,
 * config1/2, exclude_*, precise_ip, pinned, exclusive, sample_read ...;
 * sample_period/freq left 0 for the command to set). On error evlist is
 * unchanged, err is filled and -EINVAL (syntax/unknown event) or another
 * -errno is returned.
 *
 * Details, as perf 6.1 does them:
 * - every attr starts with exclude_guest = 1 (perf's default without
 *   --guest); modifiers then follow perf's rules (":u" sets
 *   exclude_kernel and exclude_hv, each 'p' adds one to precise_ip, ...);
 * - evsel->name is the event as typed ("cs:u", "l1d-loads", "r1a8",
 *   "msr/tsc/", or the name= term); group modifiers are not added to the
 *   member names; tracepoints are named "sys:name" without modifiers;
 * - tracepoints get sample_period = 1 and sample_type RAW|TIME|CPU (every
 *   hit is a sample); PMU terms period=/freq= set sample_period or
 *   sample_freq + freq; evsel->pmu_name is "cpu" (hardware, cache, raw),
 *   "software", "tracepoint" or the PMU's sysfs name;
 * - group leaders get nr_members, members point at the leader, and
 *   evlist->nr_groups counts groups of two or more.
 * May be called repeatedly on one evlist (repeated -e).
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);

/* Callback for OPT_CALLBACK('e', "event", &evlist, ...): parses, prints the
 * error and returns -1 on failure. opt->value is a struct evlist *. */
struct option;
int parse_events_option(const struct option *opt, const char *str, int unset);
/* --filter for the last tracepoint evsel; opt->value is struct evlist *.
 * The filter goes to every tracepoint of the last -e (so a glob's
 * expansion is filtered as a whole); a second --filter is ANDed:
 * "(old) && (new)". Error (printed, -1) when the last event is not a
 * tracepoint. */
int parse_filter_option(const struct option *opt, const char *str, int unset);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_PARSE_EVENTS_H
#define PRF_KERNEL_PARSE_EVENTS_H
/*
 * Event string parser shared by stat, record and list. Grammar as perf's:
 * comma-separated events, `{a,b}:mods` groups, symbolic hardware/software/
 * cache events, rNNNN raw, pmu/term=val,.../, sys:name tracepoints with
 * globs, and modifiers :u :k :h :p :pp :ppp :G :H :I :S :D :W :P.
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
/* Print perf's style of error for `events` to fp: the event string, a
 * caret under err->idx, the reason, the hint and
 * "Run 'prf list' for a list of valid events". */
void parse_events_error__print(const struct parse_events_error *err, const char *events, FILE *fp);

/*
 * Parse `str` and append the evsels to evlist (attr filled: type, config,
 * config1/2, exclude_*, precise_ip, pinned, exclusive, sample_read ...;
 * sample_period/freq left 0 for the command to set). On error evlist is
 * unchanged, err is filled and -EINVAL (syntax/unknown event) or another
 * -errno is returned.
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);

/* Callback for OPT_CALLBACK('e', "event", &evlist, ...): parses, prints the
 * error and returns -1 on failure. opt->value is a struct evlist *. */
struct option;
int parse_events_option(const struct option *opt, const char *str, int unset);
/* --filter for the last tracepoint evsel; opt->value is struct evlist *. */
int parse_filter_option(const struct option *opt, const char *str, int unset);

#endif

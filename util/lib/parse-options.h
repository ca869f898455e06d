/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_PARSE_OPTIONS_H
#define PRF_LIB_PARSE_OPTIONS_H
/*
 * Declarative command-line options (after git's parse-options).
 *
 * A builtin declares `struct option opts[] = { OPT_...(), OPT_END() };`
 * whose value pointers point into its own options struct, then calls
 * parse_options(). Supported syntax: -a -b, -ab, -F99, -F 99, --freq=99,
 * --freq 99, --no-<long> for booleans, unique prefixes of long names, and
 * `--` to end options. The usage text is generated from the table.
 *
 * `--list-opts` anywhere before `--` (and before the workload with
 * PARSE_OPT_STOP_AT_NON_OPTION) prints the long options one per line on
 * stdout, "--name=" for those taking a value, for shell completion, and
 * returns PARSE_OPT_EXIT (the multiplexer turns that run's status into 0).
 *
 * parse_options() returns the number of remaining (non-option) arguments,
 * compacted to the front of argv, or PARSE_OPT_EXIT (negative) after it
 * printed an error and the usage (or the usage for -h). Builtins then
 * return 129, as perf and git exit on usage errors. It never exits.
 */
#include <stdbool.h>
#include <stdint.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,
	OPTION_BOOLEAN,		/* bool; data: a bool set once given (OPT_BOOLEAN_SET) */
	OPTION_INCR,		/* int, ++ for each use (-v -v) */
	OPTION_SET_INT,		/* int = defval */
	OPTION_STRING,		/* const char * */
	OPTION_INTEGER,		/* int */
	OPTION_UINTEGER,	/* unsigned int */
	OPTION_U64,		/* uint64_t */
	OPTION_CALLBACK,
};

/* flags */
#define PARSE_OPT_OPTARG	(1 << 0)	/* value is optional (--opt or --opt=val) */
#define PARSE_OPT_NOARG		(1 << 1)	/* callback takes no value */
#define PARSE_OPT_NONEG		(1 << 2)	/* no --no-<name> form */
#define PARSE_OPT_HIDDEN	(1 << 3)	/* not shown in usage */

/* parse_options() flags */
#define PARSE_OPT_STOP_AT_NON_OPTION	(1 << 0)	/* stop at the workload command */
#define PARSE_OPT_KEEP_UNKNOWN		(1 << 1)

#define PARSE_OPT_EXIT (-129)

struct option;
/*
 * Callback: arg is the value (NULL for NOARG or an absent OPTARG value);
 * unset is 1 for the --no-<name> form. Return 0, or -1 after printing an
 * error (parse_options then prints usage and fails).
 */
typedef int parse_opt_cb(const struct option *opt, const char *arg, int unset);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int flags;
	parse_opt_cb *callback;
	intptr_t defval;
	void *data;		/* extra pointer for callbacks */
};

#define OPT_END()	{ .type = OPTION_END }
#define OPT_GROUP(h)	{ .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
/* A boolean whose *os becomes true once given, either way (--x or --no-x):
 * for a default that depends on something else when it is not. */
#define OPT_BOOLEAN_SET(s, l, v, os, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .data = (os) }
#define OPT_BOOLEAN_FLAG(s, l, v, h, f) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .flags = (f) }
#define OPT_INCR(s, l, v, h) \
	{ .type = OPTION_INCR, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .flags = PARSE_OPT_NONEG }
#define OPT_SET_INT(s, l, v, h, i) \
	{ .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .defval = (i) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_OPTARG(s, l, v, a, h, d) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), \
	  .flags = PARSE_OPT_OPTARG, .defval = (intptr_t)(d) }
#define OPT_INTEGER(s, l, v, h) \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_UINTEGER(s, l, v, h) \
	{ .type = OPTION_UINTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_U64(s, l, v, h) \
	{ .type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), \
	  .callback = (cb) }
#define OPT_CALLBACK_NOOPT(s, l, v, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .help = (h), \
	  .callback = (cb), .flags = PARSE_OPT_NOARG }
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), \
	  .callback = (cb), .flags = PARSE_OPT_OPTARG }

/* See the comment at the top of this file. */
int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usagestr[], int flags);

/*
 * parse_options() (flags 0) for a command that takes options and no
 * arguments: 0 when the command goes on, else the status it exits with,
 * 129: an unknown option or a bad value (reported), an argument (usage
 * printed), or PARSE_OPT_EXIT (--list-opts, -h), whose status the
 * multiplexer makes 0.
 */
int parse_options_only(int argc, const char **argv, const struct option *options,
		       const char *const usagestr[]);

/* Print "usage: ..." lines and the option table to stderr. */
void usage_with_options(const char *const usagestr[], const struct option *options);

/* Print the one option's usage line (for callbacks' error messages). */
void parse_options_usage_opt(const struct option *options, const char *name);

#endif

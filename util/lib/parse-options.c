// SPDX-License-Identifier: GPL-2.0
/* Command-line option parser; see parse-options.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"

static int opt_error(const struct option *opt, const char *msg, int is_short)
{
	if (is_short)
		fprintf(stderr, "  Error: switch `%c' %s\n", opt->short_name, msg);
	else
		fprintf(stderr, "  Error: option `%s' %s\n", opt->long_name, msg);
	return -1;
}

static bool takes_value(const struct option *opt)
{
	switch (opt->type) {
	case OPTION_STRING:
	case OPTION_INTEGER:
	case OPTION_UINTEGER:
	case OPTION_U64:
		return true;
	case OPTION_CALLBACK:
		return !(opt->flags & PARSE_OPT_NOARG);
	default:
		return false;
	}
}

static int parse_number(const struct option *opt, const char *arg, int is_short)
{
	char *end;
	int neg = arg[0] == '-';

	errno = 0;
	switch (opt->type) {
	case OPTION_INTEGER: {
		long v = strtol(arg, &end, 0);

		if (errno || *end || end == arg || v < INT_MIN || v > INT_MAX)
			return opt_error(opt, "expects a numerical value", is_short);
		*(int *)opt->value = (int)v;
		return 0;
	}
	case OPTION_UINTEGER: {
		unsigned long v = strtoul(arg, &end, 0);

		if (errno || *end || end == arg || neg || v > UINT_MAX)
			return opt_error(opt, "expects an unsigned numerical value", is_short);
		*(unsigned int *)opt->value = (unsigned int)v;
		return 0;
	}
	case OPTION_U64: {
		unsigned long long v = strtoull(arg, &end, 0);

		if (errno || *end || end == arg || neg)
			return opt_error(opt, "expects an unsigned numerical value", is_short);
		*(uint64_t *)opt->value = v;
		return 0;
	}
	default:
		return -1;
	}
}

/*
 * Apply opt. *arg is the attached value (NULL if none); for options that
 * need a value and have none attached, the next argv element is consumed.
 */
static int get_value(const struct option *opt, const char *arg, int unset,
		     int *argc, const char ***argv, int is_short)
{
	if (unset && (opt->flags & PARSE_OPT_NONEG))
		return opt_error(opt, "isn't available", is_short);
	if (unset && arg)
		return opt_error(opt, "takes no value", is_short);

	if (!takes_value(opt) && arg && !unset)
		return opt_error(opt, "takes no value", is_short);

	if (takes_value(opt) && !unset && !arg && !(opt->flags & PARSE_OPT_OPTARG)) {
		if (*argc <= 1)
			return opt_error(opt, "requires a value", is_short);
		(*argc)--;
		(*argv)++;
		arg = (*argv)[0];
	}

	switch (opt->type) {
	case OPTION_BOOLEAN:
		*(bool *)opt->value = !unset;
		if (opt->data)
			*(bool *)opt->data = true;
		return 0;
	case OPTION_INCR:
		(*(int *)opt->value)++;
		return 0;
	case OPTION_SET_INT:
		*(int *)opt->value = unset ? 0 : (int)opt->defval;
		return 0;
	case OPTION_STRING:
		if (unset)
			*(const char **)opt->value = NULL;
		else
			*(const char **)opt->value = arg ? arg : (const char *)opt->defval;
		return 0;
	case OPTION_INTEGER:
	case OPTION_UINTEGER:
	case OPTION_U64:
		if (unset) {
			if (opt->type == OPTION_U64)
				*(uint64_t *)opt->value = 0;
			else
				*(int *)opt->value = 0;
			return 0;
		}
		return parse_number(opt, arg, is_short);
	case OPTION_CALLBACK:
		return opt->callback(opt, unset ? NULL : arg, unset) ? -1 : 0;
	default:
		return -1;
	}
}

static const struct option *find_short(const struct option *opts, int c)
{
	for (; opts->type != OPTION_END; opts++)
		if (opts->short_name == c && opts->type != OPTION_GROUP)
			return opts;
	return NULL;
}

/* Exact match, else unique prefix. *unset set for --no-<name>. */
static const struct option *find_long(const struct option *opts, const char *name,
				      size_t len, int *unset, int *ambiguous)
{
	const struct option *o, *abbrev = NULL;
	int abbrev_unset = 0, nabbrev = 0;

	*ambiguous = 0;
	for (o = opts; o->type != OPTION_END; o++) {
		const char *ln = o->long_name;

		if (!ln || o->type == OPTION_GROUP)
			continue;
		if (strlen(ln) == len && !strncmp(ln, name, len)) {
			*unset = 0;
			return o;
		}
		if (len > 3 && !strncmp(name, "no-", 3) && strlen(ln) == len - 3 &&
		    !strncmp(ln, name + 3, len - 3)) {
			*unset = 1;
			return o;
		}
		if (!strncmp(ln, name, len)) {
			nabbrev++;
			abbrev = o;
			abbrev_unset = 0;
		} else if (len > 3 && !strncmp(name, "no-", 3) &&
			   !strncmp(ln, name + 3, len - 3)) {
			nabbrev++;
			abbrev = o;
			abbrev_unset = 1;
		}
	}
	if (nabbrev == 1) {
		*unset = abbrev_unset;
		return abbrev;
	}
	if (nabbrev > 1)
		*ambiguous = 1;
	return NULL;
}

/* --list-opts: every long option, "--name=" when it takes a value. */
static void list_opts(const struct option *options)
{
	for (const struct option *o = options; o->type != OPTION_END; o++) {
		bool takes_arg;

		if (!o->long_name || (o->flags & PARSE_OPT_HIDDEN))
			continue;
		takes_arg = !(o->flags & (PARSE_OPT_NOARG | PARSE_OPT_OPTARG)) &&
			    (o->type == OPTION_STRING || o->type == OPTION_INTEGER ||
			     o->type == OPTION_UINTEGER || o->type == OPTION_U64 ||
			     o->type == OPTION_CALLBACK);
		printf("--%s%s\n", o->long_name, takes_arg ? "=" : "");
	}
}

int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usagestr[], int flags)
{
	int out = 0;
	const char **outv = argv;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--list-opts")) {
			list_opts(options);
			return PARSE_OPT_EXIT;
		}
		if (flags & PARSE_OPT_STOP_AT_NON_OPTION && argv[i][0] != '-')
			break;
	}

	/* skip argv[0], the command name */
	argc--;
	argv++;
	for (; argc > 0; argc--, argv++) {
		const char *a = argv[0];

		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			outv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			argc--;
			argv++;
			break;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int unset = 0, ambiguous = 0;
			const struct option *o;

			if (!strcmp(name, "help-all") || (len == 4 && !strncmp(name, "help", 4))) {
				usage_with_options(usagestr, options);
				return PARSE_OPT_EXIT;
			}
			o = find_long(options, name, len, &unset, &ambiguous);
			if (!o) {
				if (flags & PARSE_OPT_KEEP_UNKNOWN) {
					outv[out++] = a;
					continue;
				}
				fprintf(stderr, "  Error: %s option `%.*s'\n",
					ambiguous ? "ambiguous" : "unknown", (int)len, name);
				usage_with_options(usagestr, options);
				return PARSE_OPT_EXIT;
			}
			if (unset && o->type != OPTION_BOOLEAN && o->type != OPTION_CALLBACK &&
			    o->type != OPTION_SET_INT && o->type != OPTION_STRING &&
			    !(o->flags & PARSE_OPT_OPTARG)) {
				fprintf(stderr, "  Error: option `%s' isn't available\n", o->long_name);
				usage_with_options(usagestr, options);
				return PARSE_OPT_EXIT;
			}
			if (get_value(o, eq ? eq + 1 : NULL, unset, &argc, &argv, 0)) {
				usage_with_options(usagestr, options);
				return PARSE_OPT_EXIT;
			}
			continue;
		}
		/* cluster of short options */
		for (const char *p = a + 1; *p; p++) {
			const struct option *o;

			if (*p == 'h' && !find_short(options, 'h')) {
				usage_with_options(usagestr, options);
				return PARSE_OPT_EXIT;
			}
			o = find_short(options, *p);
			if (!o) {
				if (flags & PARSE_OPT_KEEP_UNKNOWN) {
					outv[out++] = a;
					break;
				}
				fprintf(stderr, "  Error: unknown switch `%c'\n", *p);
				usage_with_options(usagestr, options);
				return PARSE_OPT_EXIT;
			}
			if (takes_value(o)) {
				const char *arg = p[1] ? p + 1 : NULL;

				if (arg && arg[0] == '=' && (o->flags & PARSE_OPT_OPTARG))
					arg++;
				if (get_value(o, arg, 0, &argc, &argv, 1)) {
					usage_with_options(usagestr, options);
					return PARSE_OPT_EXIT;
				}
				break;
			}
			if (get_value(o, NULL, 0, &argc, &argv, 1)) {
				usage_with_options(usagestr, options);
				return PARSE_OPT_EXIT;
			}
		}
	}
	for (; argc > 0; argc--, argv++)
		outv[out++] = argv[0];
	outv[out] = NULL;
	return out;
}

static void print_option(const struct option *o)
{
	char head[128];
	int n = 0;

	if (o->short_name)
		n += snprintf(head + n, sizeof(head) - n, "-%c", o->short_name);
	else
		n += snprintf(head + n, sizeof(head) - n, "    ");
	if (o->long_name)
		n += snprintf(head + n, sizeof(head) - n, "%s--%s",
			      o->short_name ? ", " : "", o->long_name);
	if (takes_value(o)) {
		const char *argh = o->argh ? o->argh : "...";

		if (o->flags & PARSE_OPT_OPTARG)
			n += snprintf(head + n, sizeof(head) - n, "%s[<%s>]",
				      o->long_name ? "=" : "", argh);
		else
			n += snprintf(head + n, sizeof(head) - n, " <%s>", argh);
	}
	if (n <= 24)
		fprintf(stderr, "    %-24s  %s\n", head, o->help ? o->help : "");
	else
		fprintf(stderr, "    %s\n%30s%s\n", head, "", o->help ? o->help : "");
}

void usage_with_options(const char *const usagestr[], const struct option *options)
{
	const struct option *o;

	if (usagestr && *usagestr) {
		fprintf(stderr, "\n Usage: %s\n", *usagestr++);
		while (*usagestr && **usagestr)
			fprintf(stderr, "    or: %s\n", *usagestr++);
		while (*usagestr)
			fprintf(stderr, "%s%s\n", **usagestr ? "    " : "", *usagestr), usagestr++;
	}
	fputc('\n', stderr);
	for (o = options; o->type != OPTION_END; o++) {
		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		if (o->type == OPTION_GROUP) {
			fprintf(stderr, "\n%s\n", o->help ? o->help : "");
			continue;
		}
		print_option(o);
	}
	fputc('\n', stderr);
}

void parse_options_usage_opt(const struct option *options, const char *name)
{
	const struct option *o;

	for (o = options; o->type != OPTION_END; o++)
		if (o->long_name && !strcmp(o->long_name, name))
			print_option(o);
}

int parse_options_only(int argc, const char **argv, const struct option *options,
		       const char *const usagestr[])
{
	argc = parse_options(argc, argv, options, usagestr, 0);
	if (argc < 0)
		return 129;
	if (argc) {
		usage_with_options(usagestr, options);
		return 129;
	}
	return 0;
}

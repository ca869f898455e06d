/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_CONFIG_H
#define PRF_LIB_CONFIG_H
/*
 * perf's configuration files, read and written as perf does
 * (perf-config(1)): git-config syntax, "[section]" or
 * '[section "subsection"]' headers, "name = value" lines, '#' and ';'
 * comments, double quotes and backslash escapes in values, a backslash at
 * the end of a line continues the value. Section and variable names are
 * case-insensitive (kept lower case), a subsection keeps its case. A key
 * is "section.name" or "section.subsection.name".
 *
 * Files, in the order read (a later one wins for the same key):
 *   $PERF_CONFIG          if set, the only file read ("/dev/null": none);
 *   /etc/perfconfig       unless $PERF_CONFIG_NOSYSTEM is set;
 *   $HOME/.perfconfig     the user's, shared with Linux perf;
 *   $HOME/.prfconfig      prf's own keys ("prf.*"), which perf never sees.
 *
 * The command line wins over every file: builtins apply the keys they
 * honour as their defaults, before parsing options.
 */
#include <stdbool.h>
#include <stddef.h>

/* One key and its value, both owned by the set. */
struct config_item {
	char *key;		/* "section.name", lower case but a subsection */
	char *value;		/* as written, unquoted; "true" for a bare name */
};

/* The items of one file, or of all files merged, in the order read. */
struct config_set {
	struct config_item *items;
	size_t nr, alloc;
};

enum config_scope {
	CONFIG_ALL,		/* every file above, merged */
	CONFIG_SYSTEM,		/* /etc/perfconfig (or $PERF_CONFIG) */
	CONFIG_USER,		/* ~/.perfconfig and ~/.prfconfig (or $PERF_CONFIG) */
};

/*
 * Read one file into set (items appended; a key read again is replaced in
 * place). A missing file is an empty one. 0, or -EINVAL after a message
 * naming the file and line of the first bad line (the lines before it are
 * kept), or another negative errno when the file cannot be read.
 */
int config_set__read_file(struct config_set *set, const char *path);
/* Set key to value (copied), replacing it where present. 0 or -ENOMEM. */
int config_set__set(struct config_set *set, const char *key, const char *value);
/* The value of key in set, or NULL. Owned by the set. */
const char *config_set__get(const struct config_set *set, const char *key);
/*
 * Write set to path as perf writes its file: a "# this file is
 * auto-generated." line, then each section (in the order its first key
 * came) with its keys as "\tname = value". The file is replaced through a
 * temporary file and rename(). 0 or negative errno.
 */
int config_set__write(const struct config_set *set, const char *path);
/* Free the items (the set may be read into again). */
void config_set__exit(struct config_set *set);

/*
 * Check a key's shape: a section, a dot, a name ("report.children"). 0, or
 * -EINVAL with *why set to a static message for the user.
 */
int config_key__check(const char *key, const char **why);

/*
 * The files of scope, in reading order, into paths[] (at most 4; each a
 * static or process-lifetime string). Returns how many. For writing, the
 * file a key goes to is config__write_path().
 */
int config__paths(enum config_scope scope, const char *paths[4]);
/* The file `prf config KEY=VALUE` writes key to, for scope (not ALL: user). */
const char *config__write_path(enum config_scope scope, const char *key);

/*
 * Read every file of scope into set (config_set__read_file() each).
 * 0 or the first error.
 */
int config__read_scope(struct config_set *set, enum config_scope scope);

/*
 * The merged configuration of this process, read once at the first call
 * (from any thread). The value of key,
 * or NULL when no file sets it. Owned by the config (process lifetime).
 */
const char *config__get(const char *key);
/*
 * key as a boolean (true/yes/on/1 or a non-zero number; false/no/off/0 or
 * empty). 1 and *val set when the key is set and parses, 0 when unset,
 * -EINVAL after a message naming the key and value when it does not parse.
 */
int config__get_bool(const char *key, bool *val);
/* key as a number (strtod); 1, 0 or -EINVAL as config__get_bool(). */
int config__get_double(const char *key, double *val);
/* Parse a boolean value as config__get_bool() does: 1 true, 0 false, -EINVAL. */
int config__parse_bool(const char *value);

#endif

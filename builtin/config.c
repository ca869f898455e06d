// SPDX-License-Identifier: GPL-2.0
/*
 * prf config [--user | --system] [-l | KEY | KEY=VALUE ...]: get, set and
 * list the variables of perf's configuration files (util/lib/config.h),
 * as `perf config` does.
 */
#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "../util/lib/config.h"
#include "../util/lib/parse-options.h"

static const char *const config_usage[] = {
	"prf config [<file-option>] [options] [section.name[=value] ...]",
	NULL
};

static void list_set(const struct config_set *set)
{
	for (size_t i = 0; i < set->nr; i++)
		printf("%s=%s\n", set->items[i].key, set->items[i].value);
}

/* KEY=VALUE: the one file the key lives in, read, changed, written back. */
static int config_write(enum config_scope scope, const char *key, const char *value)
{
	const char *path = config__write_path(scope, key);
	struct config_set set = { 0 };
	int err;

	if (!path) {
		fprintf(stderr, "prf config: no file to write %s to (is HOME set?)\n", key);
		return -EINVAL;
	}
	err = config_set__read_file(&set, path);
	if (!err)
		err = config_set__set(&set, key, value);
	if (!err)
		err = config_set__write(&set, path);
	if (err && err != -EINVAL)
		fprintf(stderr, "prf config: cannot write %s: %s\n", path, strerror(-err));
	config_set__exit(&set);
	return err;
}

/* Section and name are case-insensitive: lower case; a subsection keeps its case. */
static void key_lower(char *key)
{
	char *first = strchr(key, '.'), *last = strrchr(key, '.');

	for (char *p = key; *p; p++)
		if (!first || p < first || p > last)
			*p = (char)tolower((unsigned char)*p);
}

int cmd_config(int argc, const char **argv)
{
	bool list = false, user = false, system = false;
	const struct option options[] = {
		OPT_BOOLEAN('l', "list", &list, "show current config variables"),
		OPT_BOOLEAN(0, "user", &user, "use user config file"),
		OPT_BOOLEAN(0, "system", &system, "use system config file"),
		OPT_END()
	};
	struct config_set set = { 0 };
	enum config_scope scope;
	int status = 0;

	argc = parse_options(argc, argv, options, config_usage, 0);
	if (argc < 0)
		return 129;
	if (user && system) {
		fprintf(stderr, "Error: only one config file at a time\n");
		usage_with_options(config_usage, options);
		return 129;
	}
	if (list && argc) {
		fprintf(stderr, "Error: -l takes no arguments\n");
		usage_with_options(config_usage, options);
		return 129;
	}
	scope = user ? CONFIG_USER : system ? CONFIG_SYSTEM : CONFIG_ALL;
	if (config__read_scope(&set, scope))
		status = 1;
	if (!argc) {
		list_set(&set);
		config_set__exit(&set);
		return status;
	}
	for (int i = 0; i < argc && !status; i++) {
		const char *eq = strchr(argv[i], '=');
		char *key = eq ? strndup(argv[i], eq - argv[i]) : strdup(argv[i]);
		const char *why;

		if (!key) {
			status = 1;
			break;
		}
		key_lower(key);
		if (config_key__check(key, &why)) {
			fprintf(stderr, "%s: %s\n", why, key);
			status = 129;
		} else if (eq) {
			if (config_write(scope, key, eq + 1))
				status = 1;
		} else {
			const char *v = config_set__get(&set, key);

			if (v)
				printf("%s=%s\n", key, v);
		}
		free(key);
	}
	config_set__exit(&set);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perf's configuration files (config.h): a small git-config reader and
 * writer, written from perf-config(1) and git-config(1)'s syntax section.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "debug.h"
#include "strbuf.h"
#include "util.h"

#define SYSTEM_CONFIG "/etc/perfconfig"

static ssize_t config_set__find(const struct config_set *set, const char *key)
{
	for (size_t i = set->nr; i-- > 0;)
		if (!strcmp(set->items[i].key, key))
			return (ssize_t)i;
	return -1;
}

int config_set__set(struct config_set *set, const char *key, const char *value)
{
	ssize_t i = config_set__find(set, key);
	char *v = strdup(value);

	if (!v)
		return -ENOMEM;
	if (i >= 0) {
		free(set->items[i].value);
		set->items[i].value = v;
		return 0;
	}
	if (set->nr == set->alloc) {
		size_t n = set->alloc ? set->alloc * 2 : 16;
		struct config_item *items = realloc(set->items, n * sizeof(*items));

		if (!items) {
			free(v);
			return -ENOMEM;
		}
		set->items = items;
		set->alloc = n;
	}
	set->items[set->nr].key = strdup(key);
	if (!set->items[set->nr].key) {
		free(v);
		return -ENOMEM;
	}
	set->items[set->nr++].value = v;
	return 0;
}

const char *config_set__get(const struct config_set *set, const char *key)
{
	ssize_t i = config_set__find(set, key);

	return i >= 0 ? set->items[i].value : NULL;
}

void config_set__exit(struct config_set *set)
{
	for (size_t i = 0; i < set->nr; i++) {
		free(set->items[i].key);
		free(set->items[i].value);
	}
	free(set->items);
	memset(set, 0, sizeof(*set));
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_';
}

/*
 * "[section]" or '[section "sub"]' at p (past the '['): the key prefix
 * into sec ("section" or "section.sub"). 0 or -EINVAL.
 */
static int parse_section(const char *p, struct strbuf *sec)
{
	strbuf_reset(sec);
	while (is_name_char((unsigned char)*p) || *p == '.')
		strbuf_addch(sec, (char)tolower((unsigned char)*p++));
	if (!sec->len)
		return -EINVAL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '"') {
		strbuf_addch(sec, '.');
		for (p++; *p && *p != '"'; p++) {
			if (*p == '\\' && p[1])
				p++;
			strbuf_addch(sec, *p);
		}
		if (*p++ != '"')
			return -EINVAL;
	}
	if (*p != ']')
		return -EINVAL;
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	return (!*p || *p == '\n' || *p == '\r' || *p == '#' || *p == ';') ? 0 : -EINVAL;
}

/*
 * The value at p, up to the end of the line or a comment outside quotes,
 * unquoted and unescaped, outer blanks dropped, into val. *cont is set when
 * the line ends in a backslash (the value goes on on the next line).
 * 0 or -EINVAL (an open quote, an unknown escape).
 */
static int parse_value(const char *p, struct strbuf *val, bool *quoted, bool *cont)
{
	size_t keep = val->len;	/* blanks before this stay (inside a value) */

	*cont = false;
	for (; *p && *p != '\n'; p++) {
		char c = *p;

		if ((!*quoted && (c == '#' || c == ';')) || (c == '\r' && p[1] == '\n'))
			break;
		if (c == '"') {
			*quoted = !*quoted;
			keep = val->len;
			continue;
		}
		if (c == '\\') {
			c = *++p;
			switch (c) {
			case '\0': case '\n':
				*cont = true;
				return 0;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'b': c = '\b'; break;
			case '\\': case '"': break;
			default: return -EINVAL;
			}
			strbuf_addch(val, c);
			keep = val->len;
			continue;
		}
		if (!*quoted && (c == ' ' || c == '\t') && !val->len)
			continue;
		strbuf_addch(val, c);
		if (*quoted || (c != ' ' && c != '\t'))
			keep = val->len;
	}
	if (*quoted)
		return -EINVAL;
	if (val->len > keep) {
		val->len = keep;
		val->buf[keep] = '\0';
	}
	return 0;
}

int config_set__read_file(struct config_set *set, const char *path)
{
	FILE *f = fopen(path, "r");
	struct strbuf sec = STRBUF_INIT, key = STRBUF_INIT, val = STRBUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0, bad = 0;
	bool cont = false, quoted = false;
	int err = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &cap, f) > 0) {
		char *p = line;

		lineno++;
		if (cont) {	/* the value goes on */
			if (parse_value(p, &val, &quoted, &cont)) {
				bad = lineno;
				break;
			}
			goto store;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#' || *p == ';')
			continue;
		if (*p == '[') {
			if (parse_section(p + 1, &sec)) {
				bad = lineno;
				break;
			}
			continue;
		}
		if (!sec.len || !isalpha((unsigned char)*p)) {
			bad = lineno;
			break;
		}
		strbuf_reset(&key);
		strbuf_add(&key, sec.buf, sec.len);
		strbuf_addch(&key, '.');
		while (is_name_char((unsigned char)*p))
			strbuf_addch(&key, (char)tolower((unsigned char)*p++));
		while (*p == ' ' || *p == '\t')
			p++;
		strbuf_reset(&val);
		quoted = false;
		if (*p == '=') {
			if (parse_value(p + 1, &val, &quoted, &cont)) {
				bad = lineno;
				break;
			}
		} else if (!*p || *p == '\n' || *p == '\r' || *p == '#' || *p == ';') {
			strbuf_addstr(&val, "true");	/* a bare name is a true boolean */
		} else {
			bad = lineno;
			break;
		}
store:
		if (cont)
			continue;
		err = config_set__set(set, key.buf, val.buf);
		if (err)
			break;
	}
	if (!bad && cont)
		bad = lineno;
	if (bad) {
		pr_err("bad config line %u in file %s\n", bad, path);
		err = -EINVAL;
	}
	free(line);
	fclose(f);
	strbuf_release(&sec);
	strbuf_release(&key);
	strbuf_release(&val);
	return err;
}

/* Length of the section part of key (up to its last dot). */
static size_t key_section_len(const char *key)
{
	const char *dot = strrchr(key, '.');

	return dot ? (size_t)(dot - key) : 0;
}

static void write_section(FILE *f, const char *key, size_t len)
{
	const char *dot = memchr(key, '.', len);

	if (!dot) {
		fprintf(f, "[%.*s]\n", (int)len, key);
		return;
	}
	fprintf(f, "[%.*s \"", (int)(dot - key), key);
	for (const char *p = dot + 1; p < key + len; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputs("\"]\n", f);
}

/* A value that would not read back as it is goes in quotes. */
static void write_value(FILE *f, const char *v)
{
	bool quote = *v == ' ' || *v == '\t' || (*v && (v[strlen(v) - 1] == ' ' ||
			     v[strlen(v) - 1] == '\t')) || strpbrk(v, "#;\"\\\n\t");

	if (!quote) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (; *v; v++) {
		switch (*v) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		default: fputc(*v, f);
		}
	}
	fputc('"', f);
}

int config_set__write(const struct config_set *set, const char *path)
{
	struct strbuf tmp = STRBUF_INIT;
	bool *done = zalloc(set->nr + 1);
	FILE *f;
	int err = 0;

	if (!done)
		return -ENOMEM;
	strbuf_addf(&tmp, "%s.tmp.%d", path, (int)getpid());
	f = fopen(tmp.buf, "w");
	if (!f) {
		err = -errno;
		goto out;
	}
	fputs("# this file is auto-generated.\n", f);
	for (size_t i = 0; i < set->nr; i++) {
		const char *key = set->items[i].key;
		size_t len = key_section_len(key);

		if (done[i])
			continue;
		write_section(f, key, len);
		for (size_t j = i; j < set->nr; j++) {
			const char *k = set->items[j].key;

			if (done[j] || key_section_len(k) != len || strncmp(k, key, len))
				continue;
			done[j] = true;
			fprintf(f, "\t%s = ", k + len + 1);
			write_value(f, set->items[j].value);
			fputc('\n', f);
		}
	}
	if (ferror(f) | fclose(f))
		err = -EIO;
	if (!err && rename(tmp.buf, path))
		err = -errno;
	if (err)
		unlink(tmp.buf);
out:
	free(done);
	strbuf_release(&tmp);
	return err;
}

int config_key__check(const char *key, const char **why)
{
	const char *dot = strrchr(key, '.');

	if (!dot || dot == key) {
		*why = "The config variable does not contain a section name";
		return -EINVAL;
	}
	if (!dot[1]) {
		*why = "The config variable does not contain a variable name";
		return -EINVAL;
	}
	for (const char *p = key; p < dot; p++)
		if (!is_name_char((unsigned char)*p) && *p != '.') {
			*why = "The config variable has a bad section name";
			return -EINVAL;
		}
	if (!isalpha((unsigned char)dot[1])) {
		*why = "The config variable has a bad variable name";
		return -EINVAL;
	}
	for (const char *p = dot + 1; *p; p++)
		if (!is_name_char((unsigned char)*p)) {
			*why = "The config variable has a bad variable name";
			return -EINVAL;
		}
	return 0;
}

/* $HOME/NAME, kept for the process. NULL without a HOME. */
static const char *home_file(const char *name, char **slot)
{
	const char *home = getenv("HOME");

	if (!*slot && home && *home && asprintf(slot, "%s/%s", home, name) < 0)
		*slot = NULL;
	return *slot;
}

int config__paths(enum config_scope scope, const char *paths[4])
{
	static char *user, *prf_user;
	const char *exclusive = getenv("PERF_CONFIG");
	int n = 0;

	if (exclusive) {
		paths[n++] = exclusive;
		return n;
	}
	if (scope != CONFIG_USER && !getenv("PERF_CONFIG_NOSYSTEM"))
		paths[n++] = SYSTEM_CONFIG;
	if (scope != CONFIG_SYSTEM) {
		if (home_file(".perfconfig", &user))
			paths[n++] = user;
		if (home_file(".prfconfig", &prf_user))
			paths[n++] = prf_user;
	}
	return n;
}

const char *config__write_path(enum config_scope scope, const char *key)
{
	static char *user, *prf_user;
	const char *exclusive = getenv("PERF_CONFIG");

	if (exclusive)
		return exclusive;
	if (scope == CONFIG_SYSTEM)
		return SYSTEM_CONFIG;
	if (!strncmp(key, "prf.", 4))
		return home_file(".prfconfig", &prf_user);
	return home_file(".perfconfig", &user);
}

int config__read_scope(struct config_set *set, enum config_scope scope)
{
	const char *paths[4];
	int n = config__paths(scope, paths), err = 0;

	for (int i = 0; i < n && !err; i++)
		err = config_set__read_file(set, paths[i]);
	return err;
}

static struct config_set process_set;

static void process_config_load(void)
{
	config__read_scope(&process_set, CONFIG_ALL);	/* a bad line was reported */
}

/* Read once, by whichever thread asks first (the tunables are read from
 * worker threads too). */
static struct config_set *process_config(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, process_config_load);
	return &process_set;
}

const char *config__get(const char *key)
{
	return config_set__get(process_config(), key);
}

int config__parse_bool(const char *v)
{
	static const char *const yes[] = { "true", "yes", "on" }, *const no[] = { "false", "no", "off", "" };
	char *end;
	long n;

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	n = strtol(v, &end, 0);
	if (end != v && !*end)
		return n != 0;
	return -EINVAL;
}

int config__get_bool(const char *key, bool *val)
{
	const char *v = config__get(key);
	int b;

	if (!v)
		return 0;
	b = config__parse_bool(v);
	if (b < 0) {
		pr_err("bad boolean config value '%s' for '%s'\n", v, key);
		return -EINVAL;
	}
	*val = b;
	return 1;
}

int config__get_double(const char *key, double *val)
{
	const char *v = config__get(key);
	char *end;
	double d;

	if (!v)
		return 0;
	d = strtod(v, &end);
	if (end == v || (*end && strcmp(end, "%"))) {
		pr_err("bad numeric config value '%s' for '%s'\n", v, key);
		return -EINVAL;
	}
	*val = d;
	return 1;
}

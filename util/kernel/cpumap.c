// SPDX-License-Identifier: GPL-2.0
/* cpu maps; see cpumap.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cpumap.h"
#include "../lib/util.h"

#define MAX_CPU 4096

static struct perf_cpu_map *cpu_map__alloc(int nr)
{
	struct perf_cpu_map *m = malloc(sizeof(*m) + sizeof(int) * (nr ? nr : 1));

	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	m->refcnt = 1;
	m->nr = nr;
	return m;
}

/* Build a map from a bitmap of MAX_CPU bits. */
static struct perf_cpu_map *cpu_map__from_bits(const unsigned char *bits)
{
	struct perf_cpu_map *m;
	int nr = 0, i;

	for (i = 0; i < MAX_CPU; i++)
		nr += bits[i];
	if (!nr) {
		errno = EINVAL;
		return NULL;
	}
	m = cpu_map__alloc(nr);
	if (!m)
		return NULL;
	nr = 0;
	for (i = 0; i < MAX_CPU; i++)
		if (bits[i])
			m->map[nr++] = i;
	return m;
}

/* Parse a list into bits; 0 or -EINVAL. */
static int cpu_list__parse(const char *s, unsigned char *bits)
{
	const char *p = s;

	while (*p) {
		char *end;
		long a, b;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a < 0 || b < a || b >= MAX_CPU)
			return -EINVAL;
		for (; a <= b; a++)
			bits[a] = 1;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

struct perf_cpu_map *perf_cpu_map__new_online(void)
{
	struct perf_cpu_map *m = NULL;
	char *buf = NULL;

	if (!filename__read_str("/sys/devices/system/cpu/online", &buf, NULL)) {
		unsigned char *bits = zalloc(MAX_CPU);

		if (bits && !cpu_list__parse(buf, bits))
			m = cpu_map__from_bits(bits);
		free(bits);
		free(buf);
	}
	if (!m) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		int i;

		if (n < 1)
			n = 1;
		m = cpu_map__alloc(n);
		if (!m)
			return NULL;
		for (i = 0; i < n; i++)
			m->map[i] = i;
	}
	return m;
}

struct perf_cpu_map *perf_cpu_map__new(const char *cpu_list)
{
	unsigned char *bits;
	struct perf_cpu_map *m = NULL;

	if (!cpu_list || !*cpu_list)
		return perf_cpu_map__new_online();
	bits = zalloc(MAX_CPU);
	if (!bits) {
		errno = ENOMEM;
		return NULL;
	}
	if (cpu_list__parse(cpu_list, bits))
		errno = EINVAL;
	else
		m = cpu_map__from_bits(bits);
	free(bits);
	return m;
}

struct perf_cpu_map *perf_cpu_map__dummy_new(void)
{
	struct perf_cpu_map *m = cpu_map__alloc(1);

	if (m)
		m->map[0] = -1;
	return m;
}

struct perf_cpu_map *perf_cpu_map__get(struct perf_cpu_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void perf_cpu_map__put(struct perf_cpu_map *map)
{
	if (map && --map->refcnt <= 0)
		free(map);
}

int perf_cpu_map__nr(const struct perf_cpu_map *map)
{
	return map ? map->nr : 0;
}

int perf_cpu_map__cpu(const struct perf_cpu_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -1;
	return map->map[idx];
}

int perf_cpu_map__idx(const struct perf_cpu_map *map, int cpu)
{
	int i;

	for (i = 0; map && i < map->nr; i++)
		if (map->map[i] == cpu)
			return i;
	return -1;
}

bool perf_cpu_map__empty(const struct perf_cpu_map *map)
{
	return !map || (map->nr == 1 && map->map[0] == -1);
}

int perf_cpu_map__snprintf(const struct perf_cpu_map *map, char *buf, int size)
{
	int i = 0, len = 0;

	if (size > 0)
		buf[0] = '\0';
	while (map && i < map->nr && len < size) {
		int j = i;

		while (j + 1 < map->nr && map->map[j + 1] == map->map[j] + 1)
			j++;
		if (j > i)
			len += snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "",
					map->map[i], map->map[j]);
		else
			len += snprintf(buf + len, size - len, "%s%d", len ? "," : "", map->map[i]);
		i = j + 1;
	}
	return len < size ? len : size - 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * JIT symbols from /tmp/perf-PID.map, the format JITs (V8/node, LuaJIT,
 * the JVM agents, ...) write for perf: one "START SIZE name" line per
 * function, START and SIZE in hex (optional 0x), absolute addresses.
 * (tools/perf/Documentation/jit-interface.txt)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"
#include "machine.h"

int dso__load_perf_map(struct dso *dso, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool dem = !dso->machine || dso->machine->demangle;
	int err = 0;

	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *p, *q;
		unsigned long long start, size;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		start = strtoull(line, &p, 16);
		if (p == line || *p != ' ')
			continue;
		size = strtoull(p + 1, &q, 16);
		if (q == p + 1 || *q != ' ' || !q[1])
			continue;
		err = dso__add_symbol(dso, start, size, 1, 2, q + 1, dem);
		if (err)
			break;
	}
	free(line);
	fclose(f);
	return err;
}

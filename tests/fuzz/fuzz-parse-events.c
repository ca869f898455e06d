// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the event-string parser (util/kernel/parse-events.c)
 * into a fresh evlist, and the error printer on failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/kernel/evlist.h"
#include "util/kernel/parse-events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parse_events_error err;
	struct evlist *evlist;
	char *str;

	if (size > 4096)
		return 0;
	/* a glob over every subsystem ("*:*", "s*:x") expands to thousands of
	 * tracepoints: slow by design, not a bug; one subsystem's globs stay */
	for (size_t i = 0; i + 1 < size; i++)
		if (data[i + 1] == ':' && (data[i] == '*' || data[i] == '?' || data[i] == ']'))
			return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	str = malloc(size + 1);
	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	evlist = evlist__new();
	if (evlist) {
		parse_events_error__init(&err);
		if (parse_events(evlist, str, &err) && devnull)
			parse_events_error__print(&err, str, devnull);
		parse_events_error__exit(&err);
		/* a second -e onto the same list, as stat/record allow */
		parse_events_error__init(&err);
		parse_events(evlist, str, &err);
		parse_events_error__exit(&err);
		evlist__delete(evlist);
	}
	free(str);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Weak fallbacks so the reader links before the machine model
 * (util/model/) and the event-name tables (util/kernel/event-names.c)
 * exist. The real definitions override these at link time.
 */
#include <stdio.h>
#include <string.h>
#include "session-internal.h"
#include "../kernel/evsel.h"
#include "../kernel/event-names.h"
#include "../model/dso.h"
#include "../model/machine.h"

__attribute__((weak)) struct machine *machine__new_host(void)
{
	return NULL;
}

__attribute__((weak)) void machine__delete(struct machine *machine)
{
}

__attribute__((weak)) int machine__process_event(struct machine *machine, union perf_event *event,
						 struct perf_sample *sample)
{
	return 0;
}

__attribute__((weak)) int machine__set_build_id(struct machine *machine, const char *path,
						const struct build_id *bid, bool kernel)
{
	return 0;
}

__attribute__((weak)) int perf_event_attr__snprintf_name(const struct perf_event_attr *attr,
							  char *buf, size_t size)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
	};
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};

	if (attr->type == PERF_TYPE_SOFTWARE && attr->config < sizeof(sw) / sizeof(sw[0]))
		return snprintf(buf, size, "%s", sw[attr->config]);
	if (attr->type == PERF_TYPE_HARDWARE && attr->config < sizeof(hw) / sizeof(hw[0]))
		return snprintf(buf, size, "%s", hw[attr->config]);
	if (attr->type == PERF_TYPE_RAW)
		return snprintf(buf, size, "raw 0x%llx", (unsigned long long)attr->config);
	return snprintf(buf, size, "unknown attr type: %u", attr->type);
}

__attribute__((weak)) const char *evsel__name(struct evsel *evsel)
{
	if (!evsel->name)
		session__name_evsel(evsel);
	return evsel->name ? evsel->name : "unknown";
}

void session__name_evsel(struct evsel *evsel)
{
	char buf[256];

	perf_event_attr__snprintf_name(&evsel->attr, buf, sizeof(buf));
	evsel__set_name(evsel, buf);
}

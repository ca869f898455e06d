// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup in the compiled PMU event/metric tables (pmu-events.h): which
 * model this CPU is (mapfile.csv's regexes against the CPU identifier),
 * and iteration over that model's records.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "pmu-events.h"
#include "../lib/debug.h"

#ifdef HAVE_PMU_EVENTS
extern const struct pmu_events_data pmu_events_data;
static const struct pmu_events_data *tables = &pmu_events_data;
#else
static const struct pmu_events_data *tables;
#endif

bool pmu_events__available(void)
{
	return tables != NULL;
}

const char *pmu_events__origin(void)
{
#if defined(HAVE_PMU_EVENTS) && defined(PMU_EVENTS_ORIGIN)
	return PMU_EVENTS_ORIGIN;
#else
	return NULL;
#endif
}

#if defined(__x86_64__) || defined(__i386__)
static char *cpuid_str(void)
{
	unsigned int lvl, a = 0, b, c, d;
	unsigned int family = -1, model = -1, step = -1;
	char vendor[13];
	char *s;

	if (!__get_cpuid(0, &lvl, &b, &c, &d))
		return NULL;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (lvl >= 1) {
		__get_cpuid(1, &a, &b, &c, &d);
		family = (a >> 8) & 0xf;
		model = (a >> 4) & 0xf;
		step = a & 0xf;
		if (family == 0xf)
			family += (a >> 20) & 0xff;
		if (family >= 0x6)
			model += ((a >> 16) & 0xf) << 4;
	}
	if (asprintf(&s, "%s-%u-%X-%X", vendor, family, model, step) < 0)
		return NULL;
	return s;
}
#elif defined(__aarch64__)
static char *cpuid_str(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long midr;
	char *s = NULL;

	if (!f)
		return NULL;
	if (fscanf(f, "%lx", &midr) == 1 && asprintf(&s, "0x%016lx", midr) < 0)
		s = NULL;
	fclose(f);
	return s;
}
#else
static char *cpuid_str(void)
{
	return NULL;
}
#endif

char *pmu_events__cpuid(void)
{
	const char *env = getenv("PERF_CPUID");

	return env ? strdup(env) : cpuid_str();
}

static int dashes(const char *s)
{
	int n = 0;

	while ((s = strchr(s, '-'))) {
		n++;
		s++;
	}
	return n;
}

int pmu_events__cpuid_cmp(const char *re, const char *cpuid)
{
	regex_t r;
	regmatch_t m[1];
	size_t want = strlen(cpuid);
	int hit;

#if defined(__x86_64__) || defined(__i386__)
	/* x86: a regex with a stepping field needs an identifier with one;
	 * a regex without matches the identifier up to its stepping */
	bool full_re = dashes(re) == 3, full_id = dashes(cpuid) == 3;

	if (full_re && !full_id) {
		pr_info("Invalid CPUID %s. Full CPUID is required, vendor-family-model-stepping\n",
			cpuid);
		return 1;
	}
	if (!full_re && full_id)
		want = strrchr(cpuid, '-') - cpuid;
#else
	(void)dashes;
#endif
	if (regcomp(&r, re, REG_EXTENDED))
		return 1;
	hit = !regexec(&r, cpuid, 1, m, 0);
	regfree(&r);
	return hit && (size_t)(m[0].rm_eo - m[0].rm_so) == want ? 0 : 1;
}

const struct pmu_events_model *pmu_events__model(void)
{
	const struct pmu_events_model *model = NULL;
	char *id;

	if (!tables)
		return NULL;
	id = pmu_events__cpuid();
	if (!id)
		return NULL;
	for (const struct pmu_events_model *m = tables->models; m->arch; m++) {
		if (!pmu_events__cpuid_cmp(m->cpuid, id)) {
			model = m;
			break;
		}
	}
	free(id);
	return model;
}

int pmu_events__for_each(const struct pmu_events_model *m,
			 int (*fn)(const struct pmu_event *pe, void *data), void *data)
{
	if (!m || !tables)
		return 0;
	for (size_t i = 0; i < m->nr; i++) {
		const uint32_t *o = m->recs[i].off;
		const char *p = tables->pool;
		struct pmu_event pe = {
#define F(x) (o[x] ? p + o[x] : NULL)
			.name = F(PE_NAME), .pmu = F(PE_PMU), .topic = F(PE_TOPIC),
			.desc = F(PE_DESC), .long_desc = F(PE_LONG_DESC), .event = F(PE_EVENT),
			.metric_name = F(PE_METRIC_NAME), .metric_group = F(PE_METRIC_GROUP),
			.metric_expr = F(PE_METRIC_EXPR),
			.metric_constraint = F(PE_METRIC_CONSTRAINT), .unit = F(PE_UNIT),
			.compat = F(PE_COMPAT), .perpkg = F(PE_PERPKG),
			.deprecated = F(PE_DEPRECATED), .aggr_mode = F(PE_AGGR_MODE),
#undef F
		};
		int ret = fn(&pe, data);

		if (ret)
			return ret;
	}
	return 0;
}

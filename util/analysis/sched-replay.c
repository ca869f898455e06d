// SPDX-License-Identifier: GPL-2.0
/* sched replay: placeholder until the replay engine lands. */
#include <errno.h>
#include <stdio.h>
#include "sched-internal.h"

int sched__replay_event(struct sched *sc, enum sched_ev kind, struct evsel *evsel,
			struct perf_sample *sample)
{
	(void)sc; (void)kind; (void)evsel; (void)sample;
	return 0;
}

int sched__replay_finish(struct sched *sc)
{
	(void)sc;
	fprintf(stderr, "prf sched replay: not supported yet\n");
	return -ENOTSUP;
}

void sched__replay_exit(struct sched *sc)
{
	(void)sc;
}

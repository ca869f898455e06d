/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_SAMPLE_PARSE_H
#define PRF_FORMAT_SAMPLE_PARSE_H
/*
 * Decoding of PERF_RECORD_SAMPLE bodies and of the sample_id trailer of
 * other records, field by field in the order perf_event_open(2) lists
 * them under PERF_RECORD_SAMPLE (sample_type bits) and sample_id_all.
 * Pure data: no model, no session.
 */
#include <stdbool.h>
#include "event.h"

struct evsel;

/* Decode a PERF_RECORD_SAMPLE (or the sample_id of another record when
 * sample_id_all) of evsel into *sample; the pointers in *sample point into
 * event. 0 or -EFAULT if the record is too short for its sample_type. */
int evsel__parse_sample(struct evsel *evsel, union perf_event *event, struct perf_sample *sample);

/* As evsel__parse_sample(); swapped: the record came from a file of the
 * other byte order and was swapped in place as u64 words (swap.c), so the
 * fields packed as two u32 (pid/tid, cpu/res, raw size) are put back in
 * their order while they are read. */
int perf_event__parse_id_sample(struct evsel *evsel, union perf_event *event,
				struct perf_sample *sample, bool swapped);

/* The cpu (PERF_SAMPLE_CPU) of a PERF_RECORD_SAMPLE of evsel, read in
 * place without parsing the rest of the record (swapped as above);
 * (u32)-1 when evsel's samples carry none or the record is too short. */
uint32_t perf_event__sample_cpu(const struct evsel *evsel, const union perf_event *event,
				bool swapped);

#endif

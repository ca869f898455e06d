/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_FEATURES_BPF_H
#define PRF_FORMAT_FEATURES_BPF_H
/*
 * The header's BPF sections as perf 6.1's --header prints them: the BPF
 * programs loaded while perf recorded (HEADER_BPF_PROG_INFO, each a
 * struct bpf_prog_info with its arrays behind it, array fields holding
 * offsets into them) and their BTF data (HEADER_BPF_BTF).
 */
#include <stdio.h>

struct perf_data;

/*
 * "# bpf_prog_info ID: bpf_prog_TAG_NAME addr 0xADDR size LEN" per program,
 * by ascending id (a program of several functions: "# bpf_prog_info ID:"
 * and a "# \tsub_prog N: ..." line each). NAME is the function's name from
 * the program's BTF (HEADER_BPF_BTF) where the file has it, else the
 * kernel's program name (a program without functions: "F"), as perf.
 * A damaged or byte-swapped section prints nothing.
 */
void perf_data__fprintf_bpf_prog_info(struct perf_data *d, FILE *fp);

/* "# btf info of id ID" per BTF object of HEADER_BPF_BTF, by ascending id. */
void perf_data__fprintf_bpf_btf(struct perf_data *d, FILE *fp);

#endif

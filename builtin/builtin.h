/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_BUILTIN_H
#define PRF_BUILTIN_H
/*
 * One entry point per subcommand: int cmd_<name>(int argc, const char **argv),
 * argv[0] being the command name. The return value is the exit status
 * (0 success, 1 failure, 129 usage; stat/record return the workload's).
 */
int cmd_help(int argc, const char **argv);
int cmd_version(int argc, const char **argv);
int cmd_test(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_data(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_config(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_annotate(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_sched(int argc, const char **argv);
int cmd_trace(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_bench(int argc, const char **argv);
int cmd_probe(int argc, const char **argv);
int cmd_evlist(int argc, const char **argv);
int cmd_buildid_list(int argc, const char **argv);
int cmd_buildid_cache(int argc, const char **argv);
int cmd_archive(int argc, const char **argv);

/* The command table, for help and "did you mean" (cmd/prf.c). */
struct cmd_struct {
	const char *cmd;
	int (*fn)(int, const char **);
	int option;
	const char *help;
};
#define USE_PAGER (1 << 0)
extern const struct cmd_struct prf_commands[];
extern const unsigned int prf_ncommands;

#define PRF_VERSION "0.1.0"

#endif

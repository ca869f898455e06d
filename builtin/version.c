// SPDX-License-Identifier: GPL-2.0
/*
 * prf version [--build-options]
 *
 * The version; with --build-options also the libraries prf is built
 * with (in perf version --build-options' layout, the version each was
 * compiled against as the comment) and the PRF_* tunables with their
 * current values and defaults (util/lib/tunables.h).
 */
#include <stdio.h>
#include <elfutils/version.h>
#include <libdeflate.h>
#include <slang.h>
#include <zlib.h>
#include <zstd.h>
#include "builtin.h"
#include "../util/kernel/pmu-events.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/tunables.h"
#include "../util/lib/util.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define ELFUTILS_VERSION_STRING "0." STR(_ELFUTILS_VERSION)

/* Every library is required by the build: all are on. */
static const struct {
	const char *name;
	const char *comment;
} libraries[] = {
	{ "libelf", "elfutils " ELFUTILS_VERSION_STRING },
	{ "libdw", "elfutils " ELFUTILS_VERSION_STRING ", DWARF line tables and inline frames" },
	{ "libtraceevent", "tracepoint formats" },
	{ "libdeflate", LIBDEFLATE_VERSION_STRING ", compressed debug sections" },
	{ "zlib", ZLIB_VERSION },
	{ "zstd", ZSTD_VERSION_STRING ", compressed perf.data records" },
	{ "libiberty", "C++ and Rust demangling" },
	{ "libslang", SLANG_VERSION_STRING ", loaded when the TUI starts" },
};

static void print_tunables(bool test)
{
	char value[64], def[64];

	printf("\n%s\n", test ? "test switches (compare code paths in tests, feed unit tests):"
			      : "tunables (environment variables, see 'prf help tunables'):");
	printf("  %-20s %-6s  %-12s  %s\n", "name", "type", "value", "default");
	for (int id = 0; id < TUNABLE__NR; id++) {
		const struct tunable_desc *d = tunable__desc(id);

		if (d->test != test)
			continue;
		printf("  %-20s %-6s  %-12s  %s\n      %s\n", d->name, tunable_type__name(d->type),
		       tunable__format(id, value, sizeof(value)),
		       tunable__format_default(id, def, sizeof(def)), d->desc);
	}
}

int cmd_version(int argc, const char **argv)
{
	bool build_options = false;
	const struct option options[] = {
		OPT_BOOLEAN(0, "build-options", &build_options,
			    "display the libraries built in and the tunables"),
		OPT_END()
	};
	const char *const usage[] = { "prf version [<options>]", NULL };

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc < 0)
		return 129;
	if (argc) {
		usage_with_options(usage, options);
		return 129;
	}
	printf("prf version %s\n", PRF_VERSION);
	if (!build_options)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(libraries); i++)
		printf("%22s: [ on  ]  # %s\n", libraries[i].name, libraries[i].comment);
	/* the metric/event tables: only when the build found the kernel source */
	if (pmu_events__available()) {
		const struct pmu_events_model *m = pmu_events__model();

		printf("%22s: [ on  ]  # %s, this CPU: %s\n", "pmu-events", pmu_events__origin(),
		       m ? m->dir : "no model");
	} else {
		printf("%22s: [ OFF ]  # no kernel source at build time: no metrics, no JSON events\n",
		       "pmu-events");
	}
	print_tunables(false);
	print_tunables(true);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perf's annotate.* configuration keys (perf-config(1)) as annotate
 * options (annotate.h: annotate_opts__config()), for prf annotate and
 * the annotate browser that report and top open.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "annotate.h"
#include "../lib/config.h"

int annotate_opts__config(struct annotate_opts *opts, const char **style)
{
	static const struct {
		const char *key;
		size_t off;
		bool negate;	/* the option is the key's opposite */
	} keys[] = {
		{ "annotate.show_nr_samples", offsetof(struct annotate_opts, show_nr_samples), false },
		{ "annotate.show_total_period", offsetof(struct annotate_opts, show_total_period), false },
		{ "annotate.use_offset", offsetof(struct annotate_opts, use_addr), true },
		{ "annotate.show_linenr", offsetof(struct annotate_opts, show_linenr), false },
		{ "annotate.show_nr_jumps", offsetof(struct annotate_opts, show_nr_jumps), false },
		{ "annotate.hide_src_code", offsetof(struct annotate_opts, hide_src_code), false },
		{ "annotate.jump_arrows", offsetof(struct annotate_opts, no_jump_arrows), true },
	};
	const char *v;
	double level;
	size_t i;
	bool b;
	int err, ret = 0;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		err = config__get_bool(keys[i].key, &b);
		if (err < 0)
			ret = err;
		else if (err > 0)
			*(bool *)((char *)opts + keys[i].off) = keys[i].negate ? !b : b;
	}
	err = config__get_double("annotate.offset_level", &level);
	if (err < 0)
		ret = err;
	else if (err > 0)	/* perf keeps it within 1..3 */
		opts->offset_level = level < 1 ? 1 : level > 3 ? 3 : (int)level;
	v = config__get("annotate.disassembler_style");
	if (v)
		opts->intel = !strcmp(v, "intel");
	if (v && style)
		*style = v;
	return ret;
}

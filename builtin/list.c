// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "builtin.h"
int cmd_list(int argc, const char **argv) { (void)argc; (void)argv; fprintf(stderr, "prf list: not yet\n"); return 1; }

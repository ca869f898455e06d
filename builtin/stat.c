// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "builtin.h"
int cmd_stat(int argc, const char **argv) { (void)argc; (void)argv; fprintf(stderr, "prf stat: not yet\n"); return 1; }

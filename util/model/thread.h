/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_THREAD_H
#define PRF_MODEL_THREAD_H
/* Private: struct thread as allocated by the machine (util/model only). */
#include "machine.h"
#include "maps.h"

struct thread_node {
	struct thread thread;		/* public part (machine.h) */
	struct thread_node *next;	/* hash chain by tid */
	struct machine *machine;	/* NULL once the machine is deleted */
	bool exit_seen;			/* dead at a machine__release_exited() */
};

static inline struct thread_node *thread__node(const struct thread *t)
{
	return (struct thread_node *)t;
}

static inline struct maps *thread__maps(const struct thread *t)
{
	return (struct maps *)t->maps;
}

/* Machine of a thread (for the kernel maps and settings). */
static inline struct machine *thread__machine(const struct thread *t)
{
	return thread__node(t)->machine;
}

/* The kernel's maps of machine (creates a kernel map from kallsyms when no
 * [kernel.kallsyms] MMAP was recorded). */
struct maps *machine__kernel_maps(struct machine *machine);

#endif

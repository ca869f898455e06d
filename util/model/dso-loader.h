/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DSO_LOADER_H
#define PRF_MODEL_DSO_LOADER_H
/*
 * dso_loader: symbols of DSOs loaded on a background thread, for a live
 * session whose thread must not wait for them (prf top's screen). The
 * thread that owns the model (the owner) attaches the loader: from then
 * on its dso__load() of an ELF file's or the kernel's DSO whose symbols
 * are not loaded queues the DSO (once) and returns -EAGAIN at once (see
 * dso__set_load_hook()). Two loader threads, in queue order, load each
 * into a private copy of the DSO (dso__load_private(), no lock shared
 * with other loads: a small DSO need not wait for a big one), and
 * the owner installs the finished tables into the model's DSOs when it
 * calls dso_loader__install(): the model's DSOs are changed by the owner
 * only, and their tables are read-only once installed. The lock and
 * wake-ups are util/lib/handoff.h's. Other kinds ([vdso], JIT
 * maps, anonymous maps) load in place as before: they are small or keep
 * process-wide state.
 */
#include <stdbool.h>
#include <stddef.h>

struct dso_loader;

/* A loader with its thread started; NULL on ENOMEM or when no thread can
 * be started (the caller then loads in place, as without one). */
struct dso_loader *dso_loader__new(void);

/* Stop the thread (a load under way is finished first), drop what is
 * queued or loaded but not installed (those DSOs stay unloaded), and
 * free l. Detach it from the owner first. NULL is ignored. */
void dso_loader__delete(struct dso_loader *l);

/* The calling thread becomes the owner: its loads of queued kinds go to l
 * (NULL: they happen in place again). */
void dso_loader__attach(struct dso_loader *l);

/*
 * Owner: install the tables loaded since the last call into their DSOs
 * and bump the maps generation (so caches keyed by address that held an
 * unresolved answer for them are made again). A single atomic read when
 * there is nothing new. Returns the number of DSOs installed.
 */
size_t dso_loader__install(struct dso_loader *l);

/* Owner: DSOs queued and not yet installed. */
size_t dso_loader__pending(const struct dso_loader *l);

/* Owner: wait until at least one queued DSO is loaded (at once when there
 * is one to install or none is pending); then call dso_loader__install(). */
void dso_loader__wait(struct dso_loader *l);

#endif

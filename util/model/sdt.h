/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_SDT_H
#define PRF_MODEL_SDT_H
/*
 * Statically defined tracing (SDT, "USDT") probes of an ELF file: the
 * NT_STAPSDT (3) notes named "stapsdt" of its non-allocated
 * `.note.stapsdt` section, as <sys/sdt.h> (systemtap-sdt-dev) emits
 * them (https://sourceware.org/systemtap/wiki/UserSpaceProbeImplementation):
 * three addresses of the ELF's class (probe, link-time `.stapsdt.base`,
 * semaphore), then the provider, name and argument strings.
 *
 * Each probe is turned into the uprobe definition perf 6.1 stores in the
 * build-id cache's `probes` file and writes to uprobe_events
 * (Documentation/trace/uprobetracer.rst):
 *
 *   p:sdt_PROVIDER/NAME PATH:0xOFFSET[(0xSEMAPHORE)] [argN=FETCH[:TYPE]]...
 *
 * OFFSET is the probe's file offset (its address moved by the difference
 * between `.stapsdt.base`'s file offset and the base address the note
 * recorded, which also undoes prelinking); SEMAPHORE the semaphore's
 * file offset (its address less the `.probes` section's address minus
 * that section's offset), printed only when the kernel's uprobe PMU has
 * ref_ctr_offset. Arguments "SIZE@OPERAND" (x86-64 AT&T operands) become
 * fetch arguments named after their position: %REG and [+-]DISP(%REG)
 * with the register's full name (%eax -> %ax), SIZE 1/2/4/8 (negative:
 * signed) giving u8..u64/s8..s64, no type for other sizes within -8..8;
 * operands uprobes cannot fetch (constants, scaled index, symbols) are
 * left out, their position number skipped, as perf does.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sdt_note {
	char *provider;
	char *name;
	char *args;		/* the argument string; NULL when there is none */
	uint64_t offset;	/* the probe's file offset */
	uint64_t semaphore;	/* the semaphore's file offset; 0: none */
};

/*
 * The SDT notes of the ELF file at path, in file order: *notes gets a
 * malloc'd array of *nr notes (free with sdt_notes__free()). 0, -ENOENT
 * (no `.note.stapsdt` section or no probe in it), -EINVAL (not an ELF
 * file, or a damaged note), -ENOMEM, or -errno from open().
 */
int sdt_notes__read(const char *path, struct sdt_note **notes, size_t *nr);

/* Free what sdt_notes__read() returned. */
void sdt_notes__free(struct sdt_note *notes, size_t nr);

/*
 * The uprobe definition of note in file path (its real path) into *out,
 * malloc'd: "p:sdt_PROVIDER/NAME PATH:0x..." as above; ref_ctr: add the
 * semaphore's "(0x...)". 0, -EINVAL (an argument size outside -8..8:
 * perf then stores no probe of the file) or -ENOMEM.
 */
int sdt_note__uprobe(const struct sdt_note *note, const char *path, bool ref_ctr, char **out);

/*
 * One SDT argument operand in x86-64 AT&T syntax ("%esi", "-80(%rbx)")
 * as a uprobe fetch argument ("%si", "-80(%bx)") into buf (size bytes).
 * 1 when translated, 0 when uprobes cannot fetch it (buf untouched).
 */
int sdt_arg__fetch(const char *op, char *buf, size_t size);

/* Whether the kernel's uprobes take a semaphore (reference counter)
 * offset: the uprobe PMU's format/ref_ctr_offset exists. */
bool sdt__uprobe_ref_ctr(void);

#endif

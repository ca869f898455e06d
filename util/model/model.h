/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_MODEL_H
#define PRF_MODEL_MODEL_H
/* Private glue between the files of util/model/ (not for other layers). */
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

struct dso;
struct machine;

/* The first section called name in elf, its header in *shdr; NULL when
 * there is none. */
Elf_Scn *elf__find_section(Elf *elf, const char *name, GElf_Shdr *shdr);
/* The ELF file at path opened for reading (libelf set up first): *fdp
 * and *elfp (the caller elf_end()s and closes them), untouched on error.
 * 0, -errno from open(2), or -EINVAL (not an ELF file). */
int elf__open(const char *path, int *fdp, Elf **elfp);
/* Name from the .gnu_debuglink section of an ELF file. 0 or -errno. */
int elf__read_debuglink(const char *path, char *buf, size_t size);
/* Kernel or module symbols: vmlinux (-k), else kallsyms. 0 or -errno. */
int dso__load_kernel(struct dso *dso);
/* [vdso] symbols from this process's own vdso image. 0 or -errno. */
int dso__load_vdso(struct dso *dso);
/* A file for bid from the build-id keyed places (SYMFS/usr/lib/debug/
 * .build-id/xx/rest.debug, perf's ~/.debug/.build-id/xx/rest/{debug,elf}).
 * 0 and the path in buf, or -ENOENT. */
struct build_id;
int dso__find_build_id_file(const struct dso *dso, const struct build_id *bid,
			    char *buf, size_t size);
/* _text address in a kallsyms file (0 if not found). */
uint64_t kallsyms__text(const char *path);
/* Path of the kallsyms file to use for machine. */
const char *machine__kallsyms_path(const struct machine *machine);

#endif

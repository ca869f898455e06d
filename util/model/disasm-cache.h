/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DISASM_CACHE_H
#define PRF_MODEL_DISASM_CACHE_H
/*
 * Disassemblies kept between runs: what dso__disasm() decoded of a range
 * of an ELF file with Capstone (its instructions, their text and facts),
 * in the debug cache (debug-cache.h, kind DEBUG_CACHE_DISASM, ".dis"),
 * so that annotating the same function again maps it instead of loading
 * Capstone and decoding again.
 *
 * One cache file per ELF file (its trailer names the file's path, device,
 * inode, size and modification time, so a changed file is never answered
 * from old data), holding the entries of the ranges runs decoded, each
 * for one syntax (AT&T or Intel). What derived them is part of the file
 * too: the prf binary (/proc/self/exe: device, inode, size, modification
 * time) and the libcapstone file it loaded (its path and the same four),
 * so a rebuilt prf or an upgraded Capstone decodes again. Only ranges of
 * at least DISASM_CACHE_MIN_BYTES are kept: below that, decoding costs
 * about what mapping the entry would.
 *
 * Layout (native byte order; the file is only read by the machine that
 * wrote it): a header (struct dc_header in disasm-cache.c), the entries'
 * offsets, then each entry: its request and result facts, its
 * instructions (struct disasm_insn with the two text pointers replaced by
 * offsets into the entry's text), its text (NUL-terminated strings), and
 * the notes a caller kept with it (dso__disasm_keep_notes(): bytes this
 * layer does not read; annotate keeps its listing's lookups there).
 * A damaged or foreign file is ignored (-v says so) and decoded again.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

struct disasm_code;

#define DISASM_CACHE_MIN_BYTES 4096

/*
 * Fill *code from the kept entry for [start, end) of the ELF file at path
 * (st: its stat()) in Intel syntax or AT&T: 0, its instructions (and
 * code->notes, when the entry has notes) pointing into a mapping the code
 * owns (disasm_code__exit() unmaps it); -ENOENT
 * (none kept, the range is below the minimum, or the entry was derived by
 * another prf or Capstone), -ENOMEM.
 */
int disasm_cache__find(const char *path, const struct stat *st, uint64_t start, uint64_t end,
		       bool intel, struct disasm_code *code);

/*
 * Remember code, decoded from [start, end) of path (st: its stat()) with
 * the libcapstone file at lib_path (NULL: code came from a kept entry,
 * whose file names it), with notes_len bytes of notes (NULL, 0: none), to
 * be kept by disasm_cache__flush() (copies are taken: code and notes stay
 * the caller's); of two for the same range and syntax, the one added last
 * is kept. Nothing below the minimum, without a cache directory
 * ($PRF_DEBUG_CACHE=0), or on ENOMEM.
 */
void disasm_cache__add(const char *path, const struct stat *st, uint64_t start, uint64_t end,
		       bool intel, const struct disasm_code *code, const char *lib_path,
		       const void *notes, size_t notes_len);

/*
 * Write the entries added since the last flush, each ELF file's cache file
 * with the entries it already held (those of the same prf and Capstone,
 * for other ranges or syntaxes).
 * Quiet on failure (-v says why). Called when the annotations are freed.
 */
void disasm_cache__flush(void);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * Per-DSO ELF/DWARF state: image, CFI (+ row cache), line table index,
 * inline chains. See debuginfo.h. Sources followed: ELF gABI (program
 * headers, notes), DWARF 5 sections 6.2 (line table) and 6.4 (CFI),
 * GDB manual "Separate Debug Files" (build-id path, .gnu_debuglink CRC).
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <gelf.h>
#include <libelf.h>
#include <libdeflate.h>

#include "debuginfo.h"
#include "debug-image.h"
#include "dwarf-die.h"
#include "dwarf-line.h"
#include "dso.h"
#include "line-cache.h"
#include "inline-cache.h"
#include "inline-sym.h"
#include "machine.h"
#include "model.h"
#include "../lib/debug.h"
#include "../lib/radix.h"
#include "../lib/util.h"

/* rows cached per DSO (direct mapped), 2^7 growing to 2^10 with use */
#define CFI_CACHE_MIN_BITS 7
#define CFI_CACHE_MAX_BITS 10

struct load_seg {
	uint64_t off, filesz, vaddr;
};

struct cfi_slot {
	uint64_t start, end;	/* [start, end) the row applies to */
	Dwarf_Frame *frame;	/* NULL: negative entry */
	void *priv;		/* caller's decoded form of frame (malloc'd) */
	bool used;
};

struct line_table {
	struct line_row *rows;	/* sorted by address (line_row__cmp) */
	size_t n;
	const char *const *names;	/* the rows' file names, by index */
	size_t nr_names;
	const char **own_names;	/* names, when the table owns the array */
	bool mapped;		/* rows in kept line tables: not freed */
};

/* The file name of row i of t ("" for an index it lacks). */
static const char *line_table__file(const struct line_table *t, size_t i)
{
	return t->rows[i].file < t->nr_names ? t->names[t->rows[i].file] : "";
}

struct cu_lines {		/* one CU's line table, built on first use */
	struct cu_lines *next;
	Dwarf_Off cu_off;
	struct line_table t;
	struct dwarf_line_files files;	/* its file table (t's file names) */
	bool to_keep;		/* read from its line program: keep it */
};

struct cu_range {		/* .debug_aranges: [lo, hi) belongs to a unit */
	uint64_t lo, hi;
	Dwarf_Off cu_off;	/* its unit DIE; 0: not known yet (then hdr_off) */
	Dwarf_Off hdr_off;	/* its unit header, while .debug_info is partial */
};

#define CU_LINES_BUCKETS 256

struct func_range {
	uint64_t lo, hi;	/* [lo, hi) */
	Dwarf_Off off;		/* DW_TAG_subprogram DIE */
};

struct cu_funcs {		/* the functions of one CU, sorted by lo */
	Dwarf_Off cu_off;
	struct func_range *r;
	size_t n, alloc;
	struct dwarf_unit *unit;	/* prf's DIE walker's, NULL: libdw's walk */
};

/*
 * Inline scope index of one function: every DW_TAG_inlined_subroutine
 * (and nested DW_TAG_subprogram) range below its DW_TAG_subprogram, by
 * nesting depth (lexical blocks do not count). Scopes of one depth never
 * overlap (siblings, or below disjoint parents), so the chain at an
 * address is one binary search per depth. Built on the function's first
 * lookup, with one walk of its DIE subtree.
 */
struct scope_range {
	uint64_t lo, hi;	/* [lo, hi) */
	Dwarf_Off off;		/* the scope's DIE */
	Dwarf_Off parent;	/* enclosing scope's DIE (the function at depth 1) */
};

struct scope_level {
	struct scope_range *r;	/* sorted by lo */
	size_t n, alloc;
};

#define FUNC_SCOPES_BUCKETS 1024

struct func_scopes {
	struct func_scopes *next;	/* hash chain */
	Dwarf_Off func_off;
	struct scope_level *levels;	/* levels[d]: depth d + 1 */
	unsigned int nr_levels;
};

/*
 * Binary search in base[0..n) (stride bytes per element, each starting
 * with its uint64_t sort key, ascending): the number of leading elements
 * whose key is <= key (the one before it, if any, is the last such).
 */
static size_t upper_bound_u64(const void *base, size_t n, size_t stride, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, (const char *)base + mid * stride, sizeof(k));
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Sort n elements of size bytes (at most 32) that start with a uint64_t
 * key (the cu_range, func_range and scope_range arrays, by lo), stable,
 * as qsort() with a compare of that key orders them here (glibc's is a
 * stable merge sort): insertion for a few, else radix_sort() of (key,
 * index) and one permutation. qsort() called a compare function n log n
 * times: 15% of a 96-sample `script -F +srcline` on python3.11-dbg.
 * Falls back to it without memory.
 */
static void sort_by_u64_key(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	unsigned char *b = base, t[32], *tmp;
	struct radix_item *v;
	uint64_t ki, kj;
	size_t i, j;

	if (size > sizeof(t)) {
		qsort(base, n, size, cmp);
		return;
	}
	if (n <= 24) {
		for (i = 1; i < n; i++) {
			memcpy(&ki, b + i * size, sizeof(ki));
			for (j = i; j > 0; j--) {
				memcpy(&kj, b + (j - 1) * size, sizeof(kj));
				if (kj <= ki)
					break;
			}
			if (j == i)
				continue;
			memcpy(t, b + i * size, size);
			memmove(b + (j + 1) * size, b + j * size, (i - j) * size);
			memcpy(b + j * size, t, size);
		}
		return;
	}
	v = malloc(n * sizeof(*v));
	tmp = malloc(n * size);
	if (!v || !tmp) {
		free(v);
		free(tmp);
		qsort(base, n, size, cmp);
		return;
	}
	for (i = 0; i < n; i++) {
		memcpy(&v[i].key, b + i * size, sizeof(v[i].key));
		v[i].val = i;
	}
	if (radix_sort(v, n)) {
		qsort(base, n, size, cmp);
	} else {
		for (i = 0; i < n; i++)
			memcpy(tmp + i * size, b + v[i].val * size, size);
		memcpy(base, tmp, n * size);
	}
	free(v);
	free(tmp);
}

_Static_assert(offsetof(struct line_row, addr) == 0, "upper_bound_u64 key");
_Static_assert(offsetof(struct cu_range, lo) == 0, "upper_bound_u64 key");
_Static_assert(offsetof(struct func_range, lo) == 0, "upper_bound_u64 key");
_Static_assert(offsetof(struct scope_range, lo) == 0, "upper_bound_u64 key");

/* addresses cached per DSO (direct mapped), 2^9 growing to 2^12 with use */
#define INLINE_CACHE_MIN_BITS 9
#define INLINE_CACHE_MAX_BITS 12

struct inline_slot {
	uint64_t addr;
	int n;			/* frames; 0: no inlined level; -1: unused */
	bool positions;		/* file/line/srcline filled */
	struct inline_frame *frames;
};

struct intern {
	struct intern *next;
	const char *file;
	unsigned int line;
	char str[];
};

#define INTERN_BUCKETS_MIN 256	/* then x4 whenever the chains average 2 */

struct debuginfo {
	pthread_mutex_t lock;
	struct dso *dso;
	bool elf_tried, dwarf_tried, lines_tried;
	bool no_dwarf;		/* atomic: DWARF was looked for and there is none */
	/* image */
	int fd;
	Elf *elf;
	char *image;		/* in-memory copy ([vdso]) */
	size_t image_size;
	struct load_seg *segs;
	size_t nr_segs;
	struct build_id bid;	/* of the image */
	/* CFI */
	Dwarf_CFI *eh_cfi;	/* dwarf_getcfi_elf(elf), ours to end */
	Dwarf_CFI *dbg_cfi;	/* dwarf_getcfi(dwarf), owned by dwarf */
	struct cfi_slot *cfi_cache;
	size_t nr_cfi_slots;		/* of cfi_cache */
	struct cache_size cfi_size;	/* the size it is to have */
	/* DWARF */
	int dbg_fd;
	Elf *dbg_elf;		/* separate debug file, or NULL */
	struct debug_image dbg_img;	/* dbg_elf's in-memory image, or zeroed */
	Dwarf *dwarf;
	char *debug_path;	/* "" own file */
	bool debug_file_known;	/* atomic: debug_path final (dso__debug_file()) */
	/* line index: per CU (found by address range), and of the whole
	 * DSO for addresses outside every CU range */
	struct cu_range *cu_ranges;
	size_t nr_cu_ranges;
	bool cu_ranges_tried;
	/* PLT sections of the image: never in a line table */
	struct { uint64_t lo, hi; } plt[4];
	unsigned int nr_plt;
	bool plt_tried;
	struct cu_lines *cu_lines[CU_LINES_BUCKETS];
	/* line tables kept between runs (line-cache.h), of the file the
	 * DWARF came from (lcache_path, identity lcache_st) */
	struct line_cache *lcache;
	char *lcache_path;
	struct stat lcache_st;
	bool lcache_tried, lcache_new;	/* lcache_new: a cu_lines to keep */
	/* inline chains kept between runs (inline-cache.h), same file; the
	 * chains worked out from the DWARF this run, to keep (their strings
	 * are libdw's and the line tables': kept before those go) */
	struct inline_cache *icache;
	bool icache_tried;
	struct inline_facts *ic_new;
	size_t nr_ic_new, ic_new_alloc;
	bool lines_keep;		/* lines read from line programs: keep */
	struct line_table lines;
	struct dwarf_line_files *lines_files;	/* the file tables of lines */
	size_t nr_lines_files;
	struct dwarf_line_secs line_secs;	/* for prf's line program reader */
	bool line_secs_tried;
	struct dwarf_die_secs die_secs;		/* for prf's DIE walker */
	bool die_secs_tried;
	struct intern **interned;	/* hash of srcline strings, or NULL */
	size_t intern_mask, nr_interned;
	/* inline chains: per-CU function index and a result cache */
	struct cu_funcs *cus;
	size_t nr_cus;
	struct func_scopes *func_scopes[FUNC_SCOPES_BUCKETS];
	struct inline_slot *inl_cache;
	size_t nr_inl_slots;		/* of inl_cache */
	struct cache_size inl_size;	/* the size it is to have */
};

static pthread_mutex_t debuginfo__create_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int debuginfo__used;	/* DEBUGINFO_USED_*, atomic */

static void debuginfo__note_use(unsigned int bits)
{
	if ((__atomic_load_n(&debuginfo__used, __ATOMIC_RELAXED) & bits) != bits)
		__atomic_fetch_or(&debuginfo__used, bits, __ATOMIC_RELAXED);
}

unsigned int debuginfo__usage(void)
{
	return __atomic_load_n(&debuginfo__used, __ATOMIC_RELAXED);
}

struct debuginfo *dso__debuginfo(struct dso *dso)
{
	struct debuginfo *di;

	di = __atomic_load_n((struct debuginfo **)&dso->debuginfo, __ATOMIC_ACQUIRE);
	if (di)
		return di;
	pthread_mutex_lock(&debuginfo__create_lock);
	di = dso->debuginfo;
	if (!di) {
		di = zalloc(sizeof(*di));
		if (di) {
			pthread_mutexattr_t attr;

			di->cfi_size = (struct cache_size)CACHE_SIZE_INIT(CFI_CACHE_MIN_BITS,
									  CFI_CACHE_MAX_BITS);
			di->inl_size = (struct cache_size)CACHE_SIZE_INIT(INLINE_CACHE_MIN_BITS,
									  INLINE_CACHE_MAX_BITS);

			/* held for short cache probes mostly: spin a little
			 * before sleeping when another thread has it */
			pthread_mutexattr_init(&attr);
			pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
			pthread_mutex_init(&di->lock, &attr);
			pthread_mutexattr_destroy(&attr);
			di->dso = dso;
			di->fd = di->dbg_fd = -1;
			__atomic_store_n((struct debuginfo **)&dso->debuginfo, di, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&debuginfo__create_lock);
	return di;
}

/* Was DWARF looked for in this DSO and not found? (No lock needed.) */
static bool debuginfo__none(struct debuginfo *di)
{
	return __atomic_load_n(&di->no_dwarf, __ATOMIC_ACQUIRE);
}

void debuginfo__lock(struct debuginfo *di)
{
	pthread_mutex_lock(&di->lock);
}

void debuginfo__unlock(struct debuginfo *di)
{
	pthread_mutex_unlock(&di->lock);
}

static void __attribute__((constructor)) debuginfo__init_libelf(void)
{
	elf_version(EV_CURRENT);
}

/* NT_GNU_BUILD_ID of an open ELF; 0 or -ENOENT. */
static int elf__read_build_id(Elf *elf, struct build_id *bid)
{
	Elf_Scn *scn = NULL;
	size_t i, n;

	bid->size = 0;
	/* sections first (files), then program headers (memory images) */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + noff, "GNU", 4)) {
				bid->size = min((size_t)nh.n_descsz, (size_t)BUILD_ID_SIZE);
				memcpy(bid->data, (char *)data->d_buf + doff, bid->size);
				return 0;
			}
		}
	}
	if (elf_getphdrnum(elf, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		Elf_Data *data;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + noff, "GNU", 4)) {
				bid->size = min((size_t)nh.n_descsz, (size_t)BUILD_ID_SIZE);
				memcpy(bid->data, (char *)data->d_buf + doff, bid->size);
				return 0;
			}
		}
	}
	return -ENOENT;
}

static void build_id__hex(const struct build_id *bid, char *buf)
{
	size_t i;

	for (i = 0; i < bid->size; i++)
		sprintf(buf + 2 * i, "%02x", bid->data[i]);
	buf[2 * bid->size] = '\0';
}

static bool build_id__equal(const struct build_id *a, const struct build_id *b)
{
	return a->size && a->size == b->size && !memcmp(a->data, b->data, a->size);
}

static int open_elf(const char *path, int *fdp, Elf **elfp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -EINVAL;
	}
	*fdp = fd;
	*elfp = elf;
	return 0;
}

static void close_elf(int *fdp, Elf **elfp)
{
	if (*elfp)
		elf_end(*elfp);
	if (*fdp >= 0)
		close(*fdp);
	*elfp = NULL;
	*fdp = -1;
}

static bool dso__is_vdso(const struct dso *dso)
{
	return dso->kind == DSO_VDSO ||
	       (dso->long_name && !strcmp(dso->long_name, "[vdso]"));
}

/* The vDSO image of this process, when it is the one recorded (same
 * build-id, or no build-id known). */
static int load_own_vdso(struct debuginfo *di)
{
	const char *base = (const char *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	size_t size;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size < sizeof(*eh) || size > (1 << 20))
		return -ENOENT;
	di->image = malloc(size);
	if (!di->image)
		return -ENOMEM;
	memcpy(di->image, base, size);
	di->image_size = size;
	di->elf = elf_memory(di->image, size);
	if (!di->elf) {
		zfree(&di->image);
		return -EINVAL;
	}
	return 0;
}

static int load_segments(struct debuginfo *di)
{
	size_t i, n;

	if (elf_getphdrnum(di->elf, &n))
		return -EINVAL;
	di->segs = calloc(n ? n : 1, sizeof(*di->segs));
	if (!di->segs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(di->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		di->segs[di->nr_segs].off = ph.p_offset;
		di->segs[di->nr_segs].filesz = ph.p_filesz;
		di->segs[di->nr_segs].vaddr = ph.p_vaddr;
		di->nr_segs++;
	}
	return di->nr_segs ? 0 : -ENOENT;
}

/*
 * The file on disk holding the DSO's image: the model's runtime_path (the
 * file dso__load() matched, under --symfs), else --symfs + long_name.
 * Loads the DSO's symbols first so runtime_path is known (they are needed
 * anyway; dso__load() never takes a debuginfo lock). NULL when none.
 */
static const char *debuginfo__elf_path(struct dso *dso, char *buf, size_t size)
{
	const char *symfs;

	if (!dso->long_name || dso->long_name[0] != '/')
		return NULL;
	if (dso->kind == DSO_USER)
		dso__load(dso);
	if (dso->runtime_path)
		return dso->runtime_path;
	symfs = dso->machine && dso->machine->symfs ? dso->machine->symfs : "";
	snprintf(buf, size, "%s%s", symfs, dso->long_name);
	return buf;
}

int debuginfo__load_elf(struct debuginfo *di)
{
	struct dso *dso = di->dso;
	char path[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1];
	const char *home;
	int err;

	if (di->elf_tried)	/* called per frame: nothing before this */
		return di->elf ? 0 : -ENOENT;
	di->elf_tried = true;
	home = getenv("HOME");
	if (dso__is_vdso(dso)) {
		err = load_own_vdso(di);
		if (!err && dso->has_build_id && dso->bid.size &&
		    (elf__read_build_id(di->elf, &di->bid) || !build_id__equal(&di->bid, &dso->bid))) {
			elf_end(di->elf);
			di->elf = NULL;
			zfree(&di->image);
			err = -ENOENT;
		}
		if (err && dso->has_build_id && home) {
			build_id__hex(&dso->bid, hex);
			snprintf(path, sizeof(path), "%s/.debug/[vdso]/%s/vdso", home, hex);
			err = open_elf(path, &di->fd, &di->elf);
		}
	} else if (dso->kind == DSO_USER || dso->kind == DSO_JIT || !dso->kind) {
		const char *file = debuginfo__elf_path(dso, path, sizeof(path));

		err = file ? open_elf(file, &di->fd, &di->elf) : -ENOENT;
		if (!err && dso->has_build_id && dso->bid.size &&
		    !elf__read_build_id(di->elf, &di->bid) &&
		    !build_id__equal(&di->bid, &dso->bid)) {
			pr_debug("unwind: %s: build-id differs from the recording\n", dso->long_name);
			close_elf(&di->fd, &di->elf);
			err = -ENOENT;
		}
		if (err && dso->has_build_id && dso->bid.size && home) {
			/* perf's build-id cache */
			build_id__hex(&dso->bid, hex);
			snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s/elf",
				 home, hex, hex + 2);
			err = open_elf(path, &di->fd, &di->elf);
		}
	} else {
		err = -ENOENT;
	}
	if (err)
		return err;
	if (!di->bid.size)
		elf__read_build_id(di->elf, &di->bid);
	err = load_segments(di);
	if (err) {
		close_elf(&di->fd, &di->elf);
		return err;
	}
	di->eh_cfi = dwarf_getcfi_elf(di->elf);
	return 0;
}

int debuginfo__offset_to_vaddr(struct debuginfo *di, uint64_t off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < di->nr_segs; i++) {
		const struct load_seg *s = &di->segs[i];

		if (off >= s->off && off < s->off + s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

int debuginfo__read(struct debuginfo *di, uint64_t off, void *buf, size_t len)
{
	if (di->image) {
		if (off > di->image_size || len > di->image_size - off)
			return -EFAULT;
		memcpy(buf, di->image + off, len);
		return 0;
	}
	if (di->fd < 0)
		return -EFAULT;
	if (pread(di->fd, buf, len, (off_t)off) != (ssize_t)len)
		return -EFAULT;
	return 0;
}

/* ---- DWARF and separate debug files ---- */

static bool elf__has_section(Elf *elf, const char *name, bool need_bits)
{
	GElf_Shdr sh;

	return elf__find_section(elf, name, &sh) && (!need_bits || sh.sh_type != SHT_NOBITS);
}

/* .gnu_debuglink: file name and CRC-32 of the debug file. */
static int elf__debuglink(Elf *elf, char *name, size_t size, uint32_t *crc)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf__find_section(elf, ".gnu_debuglink", &sh);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t len, crcoff;

	if (!data || !data->d_buf)
		return -ENOENT;
	len = strnlen(data->d_buf, data->d_size);
	crcoff = (len + 4) & ~(size_t)3;
	if (len == 0 || len >= size || crcoff + 4 > data->d_size)
		return -ENOENT;
	memcpy(name, data->d_buf, len);
	name[len] = '\0';
	memcpy(crc, (char *)data->d_buf + crcoff, 4);
	return 0;
}

static bool file__crc_matches(const char *path, uint32_t want)
{
	unsigned char buf[65536];
	uint32_t crc = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = libdeflate_crc32(crc, buf, (size_t)n);
	close(fd);
	return n == 0 && crc == want;
}

static int try_debug_file(struct debuginfo *di, const char *path)
{
	/* $PRF_DEBUG_IMAGE=0: let libdw read the file (for comparisons) */
	const char *env = getenv("PRF_DEBUG_IMAGE");
	bool image_on = !env || strcmp(env, "0");

	if (access(path, R_OK))
		return -ENOENT;
	if (image_on && !debug_image__load(path, &di->dbg_img)) {
		di->dbg_elf = elf_memory(di->dbg_img.base, di->dbg_img.size);
		if (di->dbg_elf && elf_kind(di->dbg_elf) == ELF_K_ELF)
			di->dwarf = dwarf_begin_elf(di->dbg_elf, DWARF_C_READ, NULL);
		if (!di->dwarf) {
			if (di->dbg_elf)
				elf_end(di->dbg_elf);
			di->dbg_elf = NULL;
			debug_image__free(&di->dbg_img);
		}
	}
	if (!di->dwarf) {
		if (open_elf(path, &di->dbg_fd, &di->dbg_elf))
			return -ENOENT;
		di->dwarf = dwarf_begin_elf(di->dbg_elf, DWARF_C_READ, NULL);
		if (!di->dwarf) {
			close_elf(&di->dbg_fd, &di->dbg_elf);
			return -ENOENT;
		}
	}
	di->debug_path = strdup(path);
	return 0;
}

static int debuginfo__load_dwarf(struct debuginfo *di)
{
	char path[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1], link[256], dir[PATH_MAX];
	char elfpath[PATH_MAX];
	const struct build_id *bid;
	const char *home, *symfs;
	uint32_t crc;
	char *slash;

	if (di->dwarf_tried)
		return di->dwarf ? 0 : -ENOENT;
	di->dwarf_tried = true;
	home = getenv("HOME");	/* not before the early return: called per frame */
	if (debuginfo__load_elf(di))
		goto none;
	if (elf__has_section(di->elf, ".debug_info", true) ||
	    elf__has_section(di->elf, ".debug_frame", true)) {
		di->dwarf = dwarf_begin_elf(di->elf, DWARF_C_READ, NULL);
		if (di->dwarf) {
			di->debug_path = strdup("");
			goto out;
		}
	}
	symfs = di->dso->machine && di->dso->machine->symfs ? di->dso->machine->symfs : "";
	bid = di->bid.size ? &di->bid : (di->dso->has_build_id ? &di->dso->bid : NULL);
	if (bid && bid->size) {
		build_id__hex(bid, hex);
		snprintf(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex,
			 hex + 2);
		if (!try_debug_file(di, path))
			goto out;
		if (home) {
			snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s/debug",
				 home, hex, hex + 2);
			if (!try_debug_file(di, path))
				goto out;
		}
	}
	/* the debug file the model's symbols came from (found under --symfs) */
	if (di->dso->symsrc_path && !try_debug_file(di, di->dso->symsrc_path))
		goto out;
	if (debuginfo__elf_path(di->dso, elfpath, sizeof(elfpath)) &&
	    !elf__debuglink(di->elf, link, sizeof(link), &crc)) {
		snprintf(dir, sizeof(dir), "%s", debuginfo__elf_path(di->dso, elfpath, sizeof(elfpath)));
		slash = strrchr(dir, '/');
		*slash = '\0';
		for (size_t i = 0; i < 3; i++) {
			/* next to the file, in .debug/ there (dir carries the
			 * --symfs prefix), under --symfs's /usr/lib/debug */
			if (i < 2)
				snprintf(path, sizeof(path), i ? "%s/.debug/%s" : "%s/%s", dir, link);
			else	/* the recorded path's directory */
				snprintf(path, sizeof(path), "%s/usr/lib/debug%.*s/%s", symfs,
					 (int)(strrchr(di->dso->long_name, '/') - di->dso->long_name),
					 di->dso->long_name, link);
			if (!strcmp(path, di->dso->long_name) || access(path, R_OK))
				continue;
			if (!file__crc_matches(path, crc)) {
				pr_debug("debuginfo: %s: CRC does not match %s\n", path, di->dso->long_name);
				continue;
			}
			if (!try_debug_file(di, path))
				goto out;
		}
	}
none:
	/* lookups in this DSO may now return at once, without the lock */
	__atomic_store_n(&di->no_dwarf, true, __ATOMIC_RELEASE);
	return -ENOENT;
out:
	di->dbg_cfi = dwarf_getcfi(di->dwarf);
	pr_debug("debuginfo: %s: DWARF from %s\n", di->dso->long_name,
		 di->debug_path && di->debug_path[0] ? di->debug_path : "the file itself");
	return 0;
}

const char *dso__debug_file(struct dso *dso)
{
	struct debuginfo *di = dso__debuginfo(dso);
	const char *p;

	if (!di)
		return NULL;
	/* asked per sample by srcline output: no lock once known */
	if (__atomic_load_n(&di->debug_file_known, __ATOMIC_ACQUIRE))
		return di->debug_path;
	debuginfo__lock(di);
	debuginfo__load_dwarf(di);
	p = di->debug_path;
	__atomic_store_n(&di->debug_file_known, true, __ATOMIC_RELEASE);
	debuginfo__unlock(di);
	return p;
}

/* ---- CFI ---- */

/*
 * The row at vaddr and the range [*start, *end) it is known to cover. The
 * range starts at vaddr itself: after DW_CFA_restore_state libdw (0.188)
 * reports the remembered row's start, which lies before rows in between
 * (an epilogue's: glibc has many), so only [vaddr, end) is safe to reuse.
 */
static Dwarf_Frame *cfi__frame(Dwarf_CFI *cfi, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Addr s, e;

	if (!cfi || dwarf_cfi_addrframe(cfi, vaddr, &frame) || !frame)
		return NULL;
	if (dwarf_frame_info(frame, &s, &e, NULL) < 0 || vaddr < s || vaddr >= e)
		e = vaddr + 1;
	*start = vaddr;
	*end = e;
	return frame;
}

/* .eh_frame first, .debug_frame (of the debug file too) second */
static Dwarf_Frame *debuginfo__cfi_lookup(struct debuginfo *di, uint64_t vaddr, uint64_t *start,
					  uint64_t *end)
{
	Dwarf_Frame *frame = cfi__frame(di->eh_cfi, vaddr, start, end);

	if (!frame)
		pr_debug2("debuginfo: %s: no .eh_frame CFI at %#" PRIx64 "\n", di->dso->long_name,
			  vaddr);
	if (!frame && !debuginfo__load_dwarf(di))
		frame = cfi__frame(di->dbg_cfi, vaddr, start, end);
	return frame;
}

void *debuginfo__cfi_frame_uncached(struct debuginfo *di, uint64_t vaddr)
{
	uint64_t start, end;

	return debuginfo__cfi_lookup(di, vaddr, &start, &end);
}

/* Free the CFI cache and its rows (it is made again at its next use). */
static void cfi_cache__drop(struct debuginfo *di)
{
	for (size_t i = 0; di->cfi_cache && i < di->nr_cfi_slots; i++) {
		free(di->cfi_cache[i].frame);
		free(di->cfi_cache[i].priv);
	}
	zfree(&di->cfi_cache);
	di->nr_cfi_slots = 0;
}

void *debuginfo__cfi_frame(struct debuginfo *di, uint64_t vaddr, void ***priv,
			   uint64_t *start_out, uint64_t *end_out)
{
	struct cfi_slot *slot;
	uint64_t start = vaddr, end = vaddr + 1;
	Dwarf_Frame *frame;

	/* made again bigger here, not when it filled: the last call's
	 * caller used its slot until now */
	if (di->cfi_cache && di->nr_cfi_slots != (size_t)1 << di->cfi_size.bits)
		cfi_cache__drop(di);
	if (!di->cfi_cache) {
		di->cfi_cache = zalloc_written(sizeof(*di->cfi_cache) << di->cfi_size.bits);
		if (!di->cfi_cache)
			return NULL;
		di->nr_cfi_slots = (size_t)1 << di->cfi_size.bits;
	}
	slot = &di->cfi_cache[(vaddr ^ (vaddr >> 10)) & (di->nr_cfi_slots - 1)];
	if (priv)
		*priv = &slot->priv;
	if (!(slot->used && vaddr >= slot->start && vaddr < slot->end)) {
		frame = debuginfo__cfi_lookup(di, vaddr, &start, &end);
		free(slot->frame);
		zfree(&slot->priv);
		slot->used = true;
		slot->frame = frame;
		slot->start = frame ? start : vaddr;
		slot->end = frame ? end : vaddr + 1;
		cache_size__fill(&di->cfi_size);
	}
	if (start_out)
		*start_out = slot->start;
	if (end_out)
		*end_out = slot->end;
	return slot->frame;
}

/* ---- line table index ---- */

struct line_seq {
	size_t first, n;
	uint64_t addr;
};

static int line_seq__cmp(const void *pa, const void *pb)
{
	const struct line_seq *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * Rows come in sequences, each sorted by address and closed by an end of
 * sequence row; ordering the sequences and concatenating them sorts the
 * table in O(sequences log sequences) when they do not overlap.
 * 0 on success, -EAGAIN when sequences overlap or one is not sorted
 * (the caller then sorts the rows), -ENOMEM.
 */
static int lines__sort_by_sequence(struct line_table *t)
{
	struct line_seq *seqs;
	struct line_row *sorted;
	size_t nseq = 0, i, j, k, first = 0;
	int err = -EAGAIN;

	for (i = 0; i < t->n; i++)
		if (line_row__end(&t->rows[i]))
			nseq++;
	if (!nseq || !line_row__end(&t->rows[t->n - 1]))
		return -EAGAIN;
	seqs = malloc(nseq * sizeof(*seqs));
	sorted = NULL;
	if (!seqs)
		return -ENOMEM;
	for (i = 0, j = 0; i < t->n; i++) {
		if (i > first && t->rows[i].addr < t->rows[i - 1].addr)
			goto out;	/* not sorted inside a sequence */
		if (line_row__end(&t->rows[i])) {
			seqs[j].first = first;
			seqs[j].n = i + 1 - first;
			seqs[j].addr = t->rows[first].addr;
			j++;
			first = i + 1;
		}
	}
	/* usually the sequences already come in address order: keep them */
	for (i = 1; i < nseq; i++)
		if (line_seq__cmp(&seqs[i - 1], &seqs[i]) > 0 ||
		    t->rows[seqs[i].first].addr < t->rows[seqs[i - 1].first + seqs[i - 1].n - 1].addr)
			break;
	if (i >= nseq) {
		err = 0;
		goto out;
	}
	sorted = malloc(t->n * sizeof(*sorted));
	if (!sorted) {
		err = -ENOMEM;
		goto out;
	}
	qsort(seqs, nseq, sizeof(*seqs), line_seq__cmp);
	for (i = 0, k = 0; i < nseq; i++) {
		if (k && t->rows[seqs[i].first].addr < sorted[k - 1].addr)
			goto out;	/* overlapping sequences */
		memcpy(&sorted[k], &t->rows[seqs[i].first], seqs[i].n * sizeof(*sorted));
		k += seqs[i].n;
	}
	free(t->rows);
	t->rows = sorted;
	sorted = NULL;
	err = 0;
out:
	free(seqs);
	free(sorted);
	return err;
}

/* debug_image__ensure() on the DSO's debug image, saying (-vv) when a
 * section inflated on demand has become whole, why (a lookup needed it
 * all, or the inflate ahead was done first) and for which bytes. */
static int debuginfo__ensure(struct debuginfo *di, enum debug_lazy_sec sec, uint64_t end)
{
	bool partial = debug_image__partial(&di->dbg_img, sec);
	int err = debug_image__ensure(&di->dbg_img, sec, end);

	if (partial && !debug_image__partial(&di->dbg_img, sec))
		pr_debug2("debuginfo: %s: all of %s inflated %s (bytes up to %#" PRIx64 " needed)\n",
			  di->debug_path ? di->debug_path : di->dso->long_name,
			  sec == DEBUG_LAZY_INFO ? ".debug_info" : ".debug_line",
			  di->dbg_img.lazy[sec].whole_ahead ? "ahead on another thread"
							    : "for a lookup", end);
	return err;
}

/* A 4- or 8-byte unsigned value in host byte order. */
static uint64_t read_uint(const unsigned char *p, unsigned int size)
{
	uint32_t v32;
	uint64_t v64;

	if (size == 4) {
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v64, p, 8);
	return v64;
}

/*
 * Make the line program of the CU cudie readable by libdw (inflated
 * through the end of its unit in .debug_line). Caller holds the lock.
 * false: the section is corrupt.
 */
static bool debuginfo__lines_ready(struct debuginfo *di, Dwarf_Die *cudie)
{
	struct debug_lazy *l = &di->dbg_img.lazy[DEBUG_LAZY_LINE];
	Dwarf_Attribute attr;
	Dwarf_Word off;
	uint64_t end, len;

	if (!debug_image__partial(&di->dbg_img, DEBUG_LAZY_LINE))
		return true;
	if (!dwarf_attr(cudie, DW_AT_stmt_list, &attr) || dwarf_formudata(&attr, &off))
		return true;	/* no line program: libdw reads none */
	if (off >= l->dst_len)
		return true;	/* libdw finds no line program there either */
	if (debuginfo__ensure(di, DEBUG_LAZY_LINE, off + 12))
		return false;
	len = read_uint(l->dst + off, 4);
	end = off + 4 + len;
	if (len == 0xffffffff) {
		len = read_uint(l->dst + off + 4, 8);
		end = len > l->dst_len ? l->dst_len : off + 12 + len;
	}
	return !debuginfo__ensure(di, DEBUG_LAZY_LINE, end);
}

/*
 * The sections prf's line program reader (dwarf-line.h) needs, from the
 * ELF libdw reads the DWARF of, with the image's lazily inflated
 * .debug_line in place of the section's data. false when the reader
 * cannot be used (see dwarf_line_secs__from_elf()). Caller holds the lock.
 */
static bool debuginfo__line_secs(struct debuginfo *di)
{
	struct debug_lazy *l = &di->dbg_img.lazy[DEBUG_LAZY_LINE];

	if (!di->line_secs_tried) {
		di->line_secs_tried = true;
		if (dwarf_line_secs__from_elf(di->dwarf ? dwarf_getelf(di->dwarf) : NULL,
					      &di->line_secs))
			memset(&di->line_secs, 0, sizeof(di->line_secs));
		else if (l->dst) {
			di->line_secs.line = l->dst;
			di->line_secs.line_len = l->dst_len;
		}
	}
	return di->line_secs.line != NULL;
}

/* libdw's reading of one CU's rows and file table, for line programs
 * prf's reader does not handle. 0 or -ENOMEM. */
static int line_table__add_cu_libdw(struct line_table *t, size_t *alloc, Dwarf_Die *cudie,
				    struct dwarf_line_files *files)
{
	Dwarf_Lines *lines;
	Dwarf_Files *df;
	size_t n, i;

	if (dwarf_getsrclines(cudie, &lines, &n))
		return 0;
	df = NULL;
	if (!dwarf_getsrcfiles(cudie, &df, &files->n) &&
	    (files->name = malloc((files->n ? files->n : 1) * sizeof(*files->name))))
		for (i = 0; i < files->n; i++)
			files->name[i] = dwarf_filesrc(df, i, NULL, NULL);
	else
		files->n = 0;
	if (t->n + n > *alloc) {
		struct line_row *nr = realloc(t->rows, (t->n + n) * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		t->rows = nr;
		*alloc = t->n + n;
	}
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		struct line_row *r;
		Dwarf_Files *lf;
		Dwarf_Addr addr;
		bool endseq = false;
		int lineno = 0;
		size_t idx;

		if (!l || dwarf_lineaddr(l, &addr))
			continue;
		dwarf_lineendsequence(l, &endseq);
		dwarf_lineno(l, &lineno);
		r = &t->rows[t->n];
		r->addr = addr;
		if (endseq)
			r->file = LINE_FILE_END;
		else if (!dwarf_line_file(l, &lf, &idx) && lf == df && idx < files->n)
			r->file = (uint32_t)idx;
		else
			r->file = LINE_FILE_NONE;
		r->line = lineno > 0 ? (uint32_t)lineno : 0;
		t->n++;
	}
	return 0;
}

/*
 * Append the .debug_line rows of one CU to t (unsorted, in program
 * order) and give its file table in *files (the rows' file names point
 * into it; the caller keeps it as long as t). prf's reader, or libdw's
 * for what it does not handle. 0 or -ENOMEM.
 */
static int line_table__add_cu(struct debuginfo *di, struct line_table *t, size_t *alloc,
			      Dwarf_Die *cudie, struct dwarf_line_files *files)
{
	Dwarf_Attribute attr;
	Dwarf_Word off;
	int err;

	files->name = NULL;
	files->n = 0;
	if (!debuginfo__lines_ready(di, cudie) ||
	    dwarf_formudata(dwarf_attr(cudie, DW_AT_stmt_list, &attr), &off))
		return 0;	/* corrupt, or no line program */
	if (!debuginfo__line_secs(di))
		return line_table__add_cu_libdw(t, alloc, cudie, files);
	err = dwarf_line__read(&di->line_secs, off,
			       dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr)),
			       files, &t->rows, &t->n, alloc);
	if (err == -EOPNOTSUPP)
		return line_table__add_cu_libdw(t, alloc, cudie, files);
	if (err == -EINVAL)
		pr_debug("debuginfo: %s: line program at .debug_line %#" PRIx64
			 " is malformed: rows from there on left out\n",
			 di->debug_path && *di->debug_path ? di->debug_path : di->dso->long_name,
			 (uint64_t)off);
	return err == -ENOMEM ? err : 0;
}

static void line_table__free(struct line_table *t)
{
	if (!t->mapped)
		free(t->rows);
	free(t->own_names);
	*t = (struct line_table){ 0 };
}

/* Sort the rows (see lines__sort_by_sequence; not kept ones: sorted
 * already). 0, -ENOENT (no rows), -ENOMEM. */
static int line_table__finish(struct line_table *t, const char *what)
{
	int err;

	if (!t->n)
		return -ENOENT;
	if (t->mapped) {
		pr_debug2("debuginfo: %s: %zu line rows, kept\n", what, t->n);
	} else if ((err = lines__sort_by_sequence(t))) {
		if (err == -ENOMEM || line_rows__sort(t->rows, t->n))
			goto nomem;
		pr_debug2("debuginfo: %s: %zu line rows, sorted by row\n", what, t->n);
	} else {
		pr_debug2("debuginfo: %s: %zu line rows, sorted by sequence\n", what, t->n);
	}
	return 0;
nomem:
	line_table__free(t);
	return -ENOMEM;
}

static int debuginfo__load_cu_ranges(struct debuginfo *di);

static int u64__cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/*
 * The unit DIE offsets of the units the CU ranges (.debug_aranges) list,
 * sorted, in a malloc'd array the caller frees; *n of them. NULL with *n
 * 0 when there are none (or no memory: then no unit counts as listed).
 * .debug_info must be whole. Caller holds the lock.
 */
static uint64_t *debuginfo__listed_units(struct debuginfo *di, size_t *n)
{
	uint64_t *offs;
	size_t i;

	*n = 0;
	if (debuginfo__load_cu_ranges(di) || !(offs = malloc(di->nr_cu_ranges * sizeof(*offs))))
		return NULL;
	for (i = 0; i < di->nr_cu_ranges; i++) {
		const struct cu_range *r = &di->cu_ranges[i];
		Dwarf_Off next;
		size_t hsize;

		if (r->cu_off)
			offs[(*n)++] = r->cu_off;
		else if (!dwarf_next_unit(di->dwarf, r->hdr_off, &next, &hsize, NULL, NULL, NULL,
					  NULL, NULL, NULL))
			offs[(*n)++] = r->hdr_off + hsize;
	}
	qsort(offs, *n, sizeof(*offs), u64__cmp);
	return offs;
}

/*
 * One table of the rows of every unit that the CU ranges do not list:
 * for addresses no CU range claims. A listed unit's rows lie in its
 * ranges, so it cannot hold such an address; leaving those out keeps an
 * address without line info (crt1's _start in an LTO build, say) from
 * loading every row of the DSO.
 */
static struct line_cache *debuginfo__line_cache(struct debuginfo *di);

static int debuginfo__load_lines(struct debuginfo *di)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die cudie;
	size_t alloc = 0, nlisted, skipped = 0, n0, i, nr_names = 0;
	uint64_t *listed;
	uint8_t unit_type;
	Dwarf_Half version;
	int err = 0;

	if (di->lines_tried)
		return di->lines.rows ? 0 : -ENOENT;
	di->lines_tried = true;
	if (debuginfo__load_dwarf(di))
		return -ENOENT;
	if (debuginfo__line_cache(di) && (di->lines_files = malloc(sizeof(*di->lines_files))) &&
	    !line_cache__get(di->lcache, LINE_CACHE_UNLISTED,
			     (const struct line_row **)&di->lines.rows, &di->lines.n,
			     di->lines_files)) {
		di->nr_lines_files = 1;
		di->lines.mapped = true;
		di->lines.names = di->lines_files->name;
		di->lines.nr_names = di->lines_files->n;
		pr_debug("debuginfo: %s: line table of the units without CU ranges from the kept tables\n",
			 di->dso->long_name);
		return line_table__finish(&di->lines, di->dso->long_name);
	}
	free(di->lines_files);
	di->lines_files = NULL;
	if (debuginfo__ensure(di, DEBUG_LAZY_INFO, UINT64_MAX) ||
	    debuginfo__ensure(di, DEBUG_LAZY_LINE, UINT64_MAX))
		return -ENOENT;
	listed = debuginfo__listed_units(di, &nlisted);
	while (dwarf_get_units(di->dwarf, cu, &next, &version, &unit_type, &cudie, NULL) == 0) {
		size_t k = upper_bound_u64(listed, nlisted, sizeof(*listed), dwarf_dieoffset(&cudie));

		cu = next;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		if (k && listed[k - 1] == dwarf_dieoffset(&cudie)) {
			skipped++;
			continue;
		}
		if (di->nr_lines_files % 16 == 0) {
			struct dwarf_line_files *nf = realloc(di->lines_files,
				(di->nr_lines_files + 16) * sizeof(*nf));

			if (!nf) {
				err = -ENOMEM;
				break;
			}
			di->lines_files = nf;
		}
		n0 = di->lines.n;
		err = line_table__add_cu(di, &di->lines, &alloc, &cudie,
					 &di->lines_files[di->nr_lines_files++]);
		if (err)
			break;
		/* file indexes into the names of all these units */
		for (i = n0; i < di->lines.n; i++) {
			struct line_row *r = &di->lines.rows[i];

			if (r->file < LINE_FILE_NONE)
				r->file = r->file < LINE_FILE_NONE - nr_names ?
					  (uint32_t)(r->file + nr_names) : LINE_FILE_NONE;
		}
		nr_names += di->lines_files[di->nr_lines_files - 1].n;
	}
	free(listed);
	if (!err && !(di->lines.own_names = malloc((nr_names ? nr_names : 1) * sizeof(char *))))
		err = -ENOMEM;
	if (err)
		return err;
	for (i = 0, nr_names = 0; i < di->nr_lines_files; i++) {
		memcpy(di->lines.own_names + nr_names, di->lines_files[i].name,
		       di->lines_files[i].n * sizeof(char *));
		nr_names += di->lines_files[i].n;
	}
	di->lines.names = di->lines.own_names;
	di->lines.nr_names = nr_names;
	pr_debug("debuginfo: %s: line table of the units without CU ranges loaded "
		 "(%zu units with ranges left out)\n", di->dso->long_name, skipped);
	err = line_table__finish(&di->lines, di->dso->long_name);
	/* kept empty too (python3.11's crt1 units have no rows): the next
	 * run need not read every such unit's line program to learn that */
	if (!err || err == -ENOENT)
		di->lcache_new = di->lines_keep = true;
	return err;
}

/* Index of the row covering addr in t, or -1. */
static long line_table__find(const struct line_table *t, uint64_t addr)
{
	size_t lo = upper_bound_u64(t->rows, t->n, sizeof(*t->rows), addr);

	if (lo == 0 || line_row__end(&t->rows[lo - 1]) || !t->rows[lo - 1].line)
		return -1;
	return (long)lo - 1;
}

static int cu_range__cmp(const void *pa, const void *pb)
{
	const struct cu_range *a = pa, *b = pb;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Append one range to the CU index. 0 or -ENOMEM. */
static int cu_ranges__add(struct debuginfo *di, size_t *alloc, uint64_t lo, uint64_t len,
			  Dwarf_Off cu_off, Dwarf_Off hdr_off)
{
	if (!len)
		return 0;
	if (di->nr_cu_ranges == *alloc) {
		size_t na = *alloc ? 2 * *alloc : 256;
		struct cu_range *n = realloc(di->cu_ranges, na * sizeof(*n));

		if (!n)
			return -ENOMEM;
		di->cu_ranges = n;
		*alloc = na;
	}
	di->cu_ranges[di->nr_cu_ranges++] = (struct cu_range){ lo, lo + len, cu_off, hdr_off };
	return 0;
}

/* The raw data of the section called name in elf, or NULL. */
static Elf_Data *elf__section_data(Elf *elf, const char *name)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf ? elf__find_section(elf, name, &sh) : NULL;

	return scn && sh.sh_type != SHT_NOBITS ? elf_getdata(scn, NULL) : NULL;
}

/*
 * The CU index from .debug_aranges read here (DWARF 5 section 6.1.2), for
 * a debug image (util/model/debug-image.h): libdw's dwarf_getaranges()
 * reads every unit header to turn header offsets into unit DIE offsets,
 * which would need all of a .debug_info inflated on demand, and touches
 * a page of it per unit otherwise (glibc: 2083 units over 5.8 MB). Here
 * the DIE offset is found when a unit is first used
 * (debuginfo__unit_ready()). The image is ELF64 of the host byte order,
 * so is its DWARF. Like libdw, a malformed set makes the whole index
 * unusable. 0, -ENOENT, -ENOMEM.
 */
static int debuginfo__read_aranges(struct debuginfo *di, size_t *alloc)
{
	Elf_Data *d = elf__section_data(di->dbg_elf, ".debug_aranges");
	Elf_Data *info = elf__section_data(di->dbg_elf, ".debug_info");
	const unsigned char *p, *end;
	size_t info_size = di->dbg_img.lazy[DEBUG_LAZY_INFO].dst ?
			   di->dbg_img.lazy[DEBUG_LAZY_INFO].dst_len : info ? info->d_size : 0;

	if (!d || !d->d_buf)
		return -ENOENT;
	p = d->d_buf;
	end = p + d->d_size;
	while (end - p >= 4) {
		const unsigned char *set = p, *set_end;
		uint64_t len, off, lo, sz;
		uint16_t ver;
		unsigned int osz = 4, asz;

		len = read_uint(p, 4);
		p += 4;
		if (len == 0xffffffff) {
			if (end - p < 8)
				return -ENOENT;
			len = read_uint(p, 8);
			p += 8;
			osz = 8;
		}
		if (len > (uint64_t)(end - p) || len < 2 + osz + 2)
			return -ENOENT;
		set_end = p + len;
		memcpy(&ver, p, 2);
		p += 2;
		off = read_uint(p, osz);
		p += osz;
		asz = *p++;
		p++;			/* segment selector size */
		if (ver != 2 || (asz != 4 && asz != 8) || off >= info_size)
			return -ENOENT;
		/* tuples start at a multiple of twice the address size */
		p = set + ((size_t)(p - set) + 2 * asz - 1) / (2 * asz) * (2 * asz);
		while (set_end - p >= 2 * (ptrdiff_t)asz) {
			lo = read_uint(p, asz);
			sz = read_uint(p + asz, asz);
			p += 2 * asz;
			if (!lo && !sz)
				break;
			if (cu_ranges__add(di, alloc, lo, sz, 0, off))
				return -ENOMEM;
		}
		p = set_end;
	}
	return 0;
}

/* The CU index from .debug_aranges via libdw (unit DIE offsets). 0,
 * -ENOENT, -ENOMEM. */
static int debuginfo__libdw_aranges(struct debuginfo *di, size_t *alloc)
{
	Dwarf_Aranges *ar;
	size_t n, i;

	if (dwarf_getaranges(di->dwarf, &ar, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		Dwarf_Arange *a = dwarf_onearange(ar, i);
		Dwarf_Addr start;
		Dwarf_Word len;
		Dwarf_Off off;

		if (a && !dwarf_getarangeinfo(a, &start, &len, &off) &&
		    cu_ranges__add(di, alloc, start, len, off, 0))
			return -ENOMEM;
	}
	return 0;
}

/* The CU address ranges, sorted: .debug_aranges read here for a debug
 * image, else via libdw. Caller holds the lock. 0 or -ENOENT. */
static int debuginfo__load_cu_ranges(struct debuginfo *di)
{
	size_t alloc = 0;
	int err;

	if (di->cu_ranges_tried)
		return di->cu_ranges ? 0 : -ENOENT;
	di->cu_ranges_tried = true;
	if (debuginfo__load_dwarf(di))
		return -ENOENT;
	err = di->dbg_img.base ? debuginfo__read_aranges(di, &alloc) :
				 debuginfo__libdw_aranges(di, &alloc);
	if (err || !di->nr_cu_ranges) {
		free(di->cu_ranges);
		di->cu_ranges = NULL;
		di->nr_cu_ranges = 0;
		return -ENOENT;
	}
	sort_by_u64_key(di->cu_ranges, di->nr_cu_ranges, sizeof(*di->cu_ranges), cu_range__cmp);
	return 0;
}
/* Can the unit of cudie refer to DIEs of other units (DW_FORM_ref_addr,
 * a type unit by DW_FORM_ref_sig8, or a form only known per DIE)? Any
 * abbreviation of its table using such a form says it may. */
static bool unit__refers_out(Dwarf_Die *cudie)
{
	Dwarf_Off off = 0;

	for (;;) {
		Dwarf_Abbrev *a;
		size_t len, cnt, i;

		a = dwarf_getabbrev(cudie, off, &len);
		if (a == DWARF_END_ABBREV)
			return false;
		if (!a || dwarf_getattrcnt(a, &cnt))
			return true;	/* cannot tell */
		/* libdw 0.188 counts a DW_FORM_implicit_const attribute's
		 * constant as one more attribute: the walk ends at the list's
		 * end marker (getabbrevattr fails) before cnt */
		for (i = 0; i < cnt; i++) {
			unsigned int name, form;
			Dwarf_Sword value;

			if (dwarf_getabbrevattr_data(a, i, &name, &form, &value, NULL))
				break;
			if (form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 ||
			    form == DW_FORM_indirect)
				return true;
		}
		off += len;
	}
}

#define UNIT_HEADER_MAX 40	/* bytes: 64-bit DWARF 5 type unit header */

/*
 * Make the .debug_info unit whose header is at hdr_off readable by libdw
 * (inflated through its end, and through the end of the section when it
 * may refer to other units; libdw reads the headers of the units before
 * it, which are inflated first) and give its unit DIE offset. Caller
 * holds the lock. false: a corrupt section or unit.
 */
static bool debuginfo__unit_ready(struct debuginfo *di, Dwarf_Off hdr_off, Dwarf_Off *die_off)
{
	struct debug_image *img = &di->dbg_img;
	Dwarf_Off next, abbrev;
	uint8_t asz, osz;
	Dwarf_Half ver;
	size_t hsize;
	Dwarf_Die cudie;

	if (debuginfo__ensure(di, DEBUG_LAZY_INFO, hdr_off + UNIT_HEADER_MAX) ||
	    dwarf_next_unit(di->dwarf, hdr_off, &next, &hsize, &ver, &abbrev, &asz, &osz, NULL,
			    NULL) ||
	    debuginfo__ensure(di, DEBUG_LAZY_INFO, next))
		return false;
	*die_off = hdr_off + hsize;
	if (!debug_image__partial(img, DEBUG_LAZY_INFO))
		return true;
	if (!dwarf_offdie(di->dwarf, *die_off, &cudie) || unit__refers_out(&cudie))
		return !debuginfo__ensure(di, DEBUG_LAZY_INFO, UINT64_MAX);
	return true;
}

/* DIE offset of the CU whose ranges hold addr, its unit readable, or false. */
static bool debuginfo__addr_cu(struct debuginfo *di, uint64_t addr, Dwarf_Off *cu_off)
{
	struct cu_range *r;
	size_t lo;

	if (debuginfo__load_cu_ranges(di))
		return false;
	lo = upper_bound_u64(di->cu_ranges, di->nr_cu_ranges, sizeof(*di->cu_ranges), addr);
	if (!lo || addr >= di->cu_ranges[lo - 1].hi)
		return false;
	r = &di->cu_ranges[lo - 1];
	if (!r->cu_off && !debuginfo__unit_ready(di, r->hdr_off, &r->cu_off))
		return false;
	*cu_off = r->cu_off;
	return true;
}

/* The kept line tables (line-cache.h) of the file the DWARF came from,
 * mapped on first use; NULL when there are none (or no file: [vdso]).
 * Caller holds the lock. */
static struct line_cache *debuginfo__line_cache(struct debuginfo *di)
{
	const char *path = di->debug_path;
	int err;

	if (di->lcache_tried)
		return di->lcache;
	di->lcache_tried = true;
	if (path && *path) {
		err = stat(path, &di->lcache_st);
	} else if (di->fd >= 0 && di->dso->long_name[0] == '/') {	/* its own DWARF */
		path = di->dso->long_name;
		err = fstat(di->fd, &di->lcache_st);
	} else {
		return NULL;
	}
	if (!err && (di->lcache_path = strdup(path)))
		di->lcache = line_cache__open(path, &di->lcache_st);
	return di->lcache;
}

/* Keep the line tables read from line programs this run (the units'
 * and the one of the units without CU ranges), with those kept before,
 * for the next runs (at teardown, no lock needed). */
static void debuginfo__keep_lines(struct debuginfo *di)
{
	struct dwarf_line_files all;
	struct line_cache_unit *u;
	size_t n = 0, i;

	if (!di->lcache_new || !di->lcache_path)
		return;
	for (i = 0; i < CU_LINES_BUCKETS; i++)
		for (struct cu_lines *c = di->cu_lines[i]; c; c = c->next)
			n += c->to_keep;
	u = malloc((n + 1) * sizeof(*u));
	if (!u)
		return;
	n = 0;
	for (i = 0; i < CU_LINES_BUCKETS; i++)
		for (struct cu_lines *c = di->cu_lines[i]; c; c = c->next)
			if (c->to_keep)
				u[n++] = (struct line_cache_unit){ c->cu_off, c->t.rows, c->t.n,
								   &c->files };
	/* the units no CU range lists, as one unit (their names together) */
	all = (struct dwarf_line_files){ di->lines.own_names, di->lines.nr_names };
	if (di->lines_keep)
		u[n++] = (struct line_cache_unit){ LINE_CACHE_UNLISTED, di->lines.rows, di->lines.n,
						   &all };
	line_cache__store(di->lcache_path, &di->lcache_st, di->lcache, u, n);
	free(u);
}

static struct inline_cache *debuginfo__inline_cache(struct debuginfo *di);

/* Keep the inline chains worked out from the DWARF this run, with those
 * kept before (at teardown, before the strings they point to go), and
 * unmap the kept ones (the frames pointing into them are gone). */
static void debuginfo__keep_inline(struct debuginfo *di)
{
	if (di->nr_ic_new && di->lcache_path)
		inline_cache__store(di->lcache_path, &di->lcache_st, di->icache, di->ic_new,
				    di->nr_ic_new);
	for (size_t i = 0; i < di->nr_ic_new; i++)
		free(di->ic_new[i].levels);
	free(di->ic_new);
	inline_cache__close(di->icache);
}

/* The line table and file table of the CU at cu_off (DIE offset), built
 * on first use (c->t.n is 0 when it has no rows): from the kept tables
 * when they hold it, else from its line program. NULL: no memory.
 * Caller holds the lock. */
static struct cu_lines *debuginfo__cu_lines(struct debuginfo *di, Dwarf_Off cu_off)
{
	struct cu_lines **b = &di->cu_lines[(cu_off * 0x9e3779b97f4a7c15ULL) >> 56], *c;
	Dwarf_Die cudie;
	size_t alloc = 0;
	char what[64];

	for (c = *b; c; c = c->next)
		if (c->cu_off == cu_off)
			return c;
	c = zalloc(sizeof(*c));
	if (!c)
		return NULL;
	c->cu_off = cu_off;
	c->next = *b;
	*b = c;
	snprintf(what, sizeof(what), "CU %#" PRIx64, (uint64_t)cu_off);
	if (debuginfo__line_cache(di) &&
	    !line_cache__get(di->lcache, cu_off, (const struct line_row **)&c->t.rows, &c->t.n,
			     &c->files)) {
		c->t.mapped = true;
	} else if (!dwarf_offdie(di->dwarf, cu_off, &cudie) ||
		   line_table__add_cu(di, &c->t, &alloc, &cudie, &c->files)) {
		line_table__free(&c->t);
	} else {
		c->to_keep = true;
	}
	c->t.names = c->files.name;
	c->t.nr_names = c->files.n;
	if (line_table__finish(&c->t, what)) {
		line_table__free(&c->t);
		c->to_keep = false;
	}
	di->lcache_new |= c->to_keep;
	return c;
}

/* Is vaddr in a PLT section (.plt, .plt.got, .plt.sec, .iplt) of the
 * image? Those stubs have no line info; looking for one would load the
 * line table of every CU. Caller holds the lock. */
static bool debuginfo__in_plt(struct debuginfo *di, uint64_t vaddr)
{
	unsigned int i;

	if (!di->plt_tried) {
		Elf_Scn *scn = NULL;
		size_t shstrndx;

		di->plt_tried = true;
		if (!debuginfo__load_elf(di) && !elf_getshdrstrndx(di->elf, &shstrndx)) {
			while ((scn = elf_nextscn(di->elf, scn)) != NULL &&
			       di->nr_plt < ARRAY_SIZE(di->plt)) {
				GElf_Shdr sh;
				const char *n;

				if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
					continue;
				n = elf_strptr(di->elf, shstrndx, sh.sh_name);
				if (!n || (strncmp(n, ".plt", 4) && strcmp(n, ".iplt")))
					continue;
				di->plt[di->nr_plt].lo = sh.sh_addr;
				di->plt[di->nr_plt].hi = sh.sh_addr + sh.sh_size;
				di->nr_plt++;
			}
		}
	}
	for (i = 0; i < di->nr_plt; i++)
		if (vaddr >= di->plt[i].lo && vaddr < di->plt[i].hi)
			return true;
	return false;
}

/*
 * The line table and row for addr: the table of the CU whose address
 * ranges hold addr (built for that CU alone on first use), else the whole
 * DSO's table. Caller holds the lock. Row index or -1.
 */
static long debuginfo__find_line(struct debuginfo *di, uint64_t addr, struct line_table **tp)
{
	struct line_table *t = NULL;
	Dwarf_Off cu_off;
	long i;

	if (debuginfo__load_dwarf(di))
		return -1;
	if (debuginfo__addr_cu(di, addr, &cu_off)) {
		struct cu_lines *c = debuginfo__cu_lines(di, cu_off);

		t = c && c->t.n ? &c->t : NULL;
	}
	if (!t) {
		if (debuginfo__in_plt(di, addr))
			return -1;
		if (!di->lines_tried)
			pr_debug2("debuginfo: %s: %#" PRIx64 " in no unit's address ranges\n",
				  di->dso->long_name, addr);
		if (debuginfo__load_lines(di))
			return -1;
		t = &di->lines;
	}
	i = line_table__find(t, addr);
	*tp = t;
	return i;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static size_t intern__hash(const char *file, unsigned int line)
{
	return (size_t)((((uintptr_t)file >> 3) ^ ((uint64_t)line << 40)) * 0x9e3779b97f4a7c15ULL >> 32);
}

/* Make the intern hash (first use) or make it 4x as wide. false: no
 * memory (the old table, if any, stays as it was). */
static bool debuginfo__intern_grow(struct debuginfo *di)
{
	size_t n = di->interned ? (di->intern_mask + 1) * 4 : INTERN_BUCKETS_MIN, i;
	struct intern **b = calloc(n, sizeof(*b)), *e, *next;

	if (!b)
		return false;
	for (i = 0; di->interned && i <= di->intern_mask; i++) {
		for (e = di->interned[i]; e; e = next) {
			size_t h = intern__hash(e->file, e->line) & (n - 1);

			next = e->next;
			e->next = b[h];
			b[h] = e;
		}
	}
	free(di->interned);
	di->interned = b;
	di->intern_mask = n - 1;
	return true;
}

/* "base:line" for (file, line), interned in the DSO: one string per
 * (file name, line) however many rows, units and threads ask for it.
 * Caller holds lock. NULL: no memory. */
static const char *debuginfo__intern(struct debuginfo *di, const char *file, unsigned int line)
{
	struct intern **b, *e;
	const char *base;
	size_t len;

	if ((!di->interned || di->nr_interned > 2 * (di->intern_mask + 1)) &&
	    !debuginfo__intern_grow(di) && !di->interned)
		return NULL;
	b = &di->interned[intern__hash(file, line) & di->intern_mask];
	for (e = *b; e; e = e->next)
		if (e->file == file && e->line == line)
			return e->str;
	base = basename_of(file);
	len = strlen(base) + 12;
	e = malloc(sizeof(*e) + len);
	if (!e)
		return NULL;
	e->file = file;
	e->line = line;
	snprintf(e->str, len, "%s:%u", base, line);
	e->next = *b;
	*b = e;
	di->nr_interned++;
	return e->str;
}

int dso__srcline_full(struct dso *dso, uint64_t addr, const char **file, unsigned int *line)
{
	struct debuginfo *di = dso__debuginfo(dso);
	struct line_table *t;
	long i;
	int err = -ENOENT;

	debuginfo__note_use(DEBUGINFO_USED_SRCLINE);
	if (!di)
		return -ENOMEM;
	if (debuginfo__none(di))
		return -ENOENT;
	debuginfo__lock(di);
	if ((i = debuginfo__find_line(di, addr, &t)) >= 0) {
		*file = line_table__file(t, (size_t)i);
		*line = t->rows[i].line;
		err = 0;
	}
	debuginfo__unlock(di);
	return err;
}

/* Per-thread memo of dso__srcline() answers (none found too), lock-free
 * like the inline chain memo below; void with an older
 * debuginfo__generation(). */
#define SRCLINE_MEMO_BITS 10	/* 2^10 entries */

struct srcline_memo {
	const struct debuginfo *di;
	uint64_t addr;
	unsigned int gen;
	const char *str;
};

static __thread struct thread_memo srcline_memo = THREAD_MEMO_INIT(SRCLINE_MEMO_BITS,
								   SRCLINE_MEMO_BITS);
static __thread struct srcline_memo srcline_memo_one;	/* when there is no memory for it */

const char *dso__srcline(struct dso *dso, uint64_t addr)
{
	struct debuginfo *di = dso__debuginfo(dso);
	unsigned int gen = debuginfo__generation();
	struct inline_fact_level lv[INLINE_CACHE_MAX_LEVELS];
	struct inline_cache *ic;
	struct inline_facts f;
	struct srcline_memo *m;
	struct line_table *t;
	const char *s = NULL;
	long i;

	debuginfo__note_use(DEBUGINFO_USED_SRCLINE);
	if (!di || debuginfo__none(di))
		return NULL;
	m = thread_memo__slot(&srcline_memo, sizeof(struct srcline_memo),
			      ((uintptr_t)di >> 4 ^ addr) * 0x9e3779b97f4a7c15ULL, &srcline_memo_one);
	if (m->di == di && m->addr == addr && m->gen == gen)
		return m->str;
	debuginfo__lock(di);
	if (!debuginfo__load_dwarf(di) && (ic = debuginfo__inline_cache(di)) &&
	    !inline_cache__get(ic, addr, &f, lv) && f.positions) {
		/* the kept chain has the line table's row at addr */
		if (f.file)
			s = debuginfo__intern(di, f.file, f.line);
	} else if ((i = debuginfo__find_line(di, addr, &t)) >= 0) {
		s = debuginfo__intern(di, line_table__file(t, (size_t)i), t->rows[i].line);
	}
	debuginfo__unlock(di);
	*m = (struct srcline_memo){ di, addr, gen, s };
	return s;
}

/* ---- inline frames ---- */

/* The DIE's DW_AT_linkage_name (or DW_AT_MIPS_linkage_name), its
 * abstract origin's or specification's where it has none; NULL if none. */
static const char *die__linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	return name ? name : dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
}

/*
 * The name of a chain level's DIE (see "Naming of the levels" below):
 * for an inlined level (inlined true) a mangled (C++, Rust) linkage name,
 * which dso__inline_name() demangles into the qualified name perf shows
 * (ns::W::inner, where DW_AT_name says inner); else DW_AT_name, else the
 * linkage name, else "??". *has_name: DW_AT_name was there.
 */
static const char *die__name(Dwarf_Die *die, bool inlined, bool *has_name)
{
	const char *linkage = die__linkage_name(die), *name;
	Dwarf_Attribute attr;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	*has_name = name != NULL;
	if ((inlined && name__mangled(linkage)) || !name)
		name = linkage;
	return name ? name : "??";
}

static void die__call_site(Dwarf_Die *die, const struct dwarf_line_files *files,
			   const char **file, unsigned int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &w) == 0)
		*line = (unsigned int)w;
	if (files && dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &w) == 0 &&
	    w < files->n)
		*file = files->name[w];
}

#define MAX_INLINE_DEPTH 64

static int scope_level__add(struct scope_level *l, uint64_t lo, uint64_t hi, Dwarf_Off off,
			    Dwarf_Off parent)
{
	if (l->n == l->alloc) {
		size_t na = l->alloc ? 2 * l->alloc : 16;
		struct scope_range *nr = realloc(l->r, na * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		l->r = nr;
		l->alloc = na;
	}
	l->r[l->n++] = (struct scope_range){ lo, hi, off, parent };
	return 0;
}

/* dwarf_range_cb_t of the scope index: a scope's range at its depth. */
static int func_scopes__add(void *arg, unsigned int depth, uint64_t off, uint64_t parent,
			    uint64_t lo, uint64_t hi)
{
	struct func_scopes *fs = arg;

	if (lo >= hi)
		return 0;
	if (depth >= fs->nr_levels) {
		struct scope_level *nl = realloc(fs->levels, (depth + 1) * sizeof(*nl));

		if (!nl)
			return -ENOMEM;
		memset(nl + fs->nr_levels, 0, (depth + 1 - fs->nr_levels) * sizeof(*nl));
		fs->levels = nl;
		fs->nr_levels = depth + 1;
	}
	return scope_level__add(&fs->levels[depth], lo, hi, off, parent);
}

static void func_scopes__clear(struct func_scopes *fs)
{
	for (unsigned int d = 0; d < fs->nr_levels; d++)
		free(fs->levels[d].r);
	free(fs->levels);
	fs->levels = NULL;
	fs->nr_levels = 0;
}

static int scope_range__cmp(const void *a, const void *b)
{
	const struct scope_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void func_scopes__free(struct func_scopes *fs)
{
	func_scopes__clear(fs);
	free(fs);
}

/*
 * The sections prf's DIE walker reads (dwarf-die.h), with the image's
 * .debug_info when that is inflated on demand (the walker only reads
 * units debuginfo__unit_ready() made whole). false: walk with libdw
 * (also with $PRF_DWARF_DIE=0, to compare). Caller holds the lock.
 */
static bool debuginfo__die_secs(struct debuginfo *di)
{
	struct debug_lazy *l = &di->dbg_img.lazy[DEBUG_LAZY_INFO];

	if (!di->die_secs_tried) {
		const char *env = getenv("PRF_DWARF_DIE");

		di->die_secs_tried = true;
		if ((env && !strcmp(env, "0")) ||
		    dwarf_die_secs__from_elf(di->dwarf ? dwarf_getelf(di->dwarf) : NULL,
					     &di->die_secs))
			memset(&di->die_secs, 0, sizeof(di->die_secs));
		else if (l->dst) {
			di->die_secs.info = l->dst;
			di->die_secs.info_len = l->dst_len;
		}
	}
	return di->die_secs.info != NULL;
}

/* Say (-vv) why a unit is walked with libdw. */
static void debuginfo__die_fallback(struct debuginfo *di, uint64_t off, int err)
{
	pr_debug2("debuginfo: %s: DIE at %#" PRIx64 ": %s, libdw walks it\n",
		  di->debug_path && *di->debug_path ? di->debug_path : di->dso->long_name, off,
		  err == -EOPNOTSUPP ? "a form or unit kind prf does not read" : "malformed");
}

/* The scope index of the function func (built on first use; NULL: out
 * of memory). Caller holds the lock. */
static struct func_scopes *debuginfo__func_scopes(struct debuginfo *di, struct cu_funcs *cf,
						  Dwarf_Die *func)
{
	Dwarf_Off off = dwarf_dieoffset(func);
	struct func_scopes **b = &di->func_scopes[(off ^ (off >> 10)) % FUNC_SCOPES_BUCKETS], *fs;
	int err;

	for (fs = *b; fs; fs = fs->next)
		if (fs->func_off == off)
			return fs;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return NULL;
	fs->func_off = off;
	err = cf->unit ? dwarf_unit__scopes(cf->unit, off, MAX_INLINE_DEPTH - 1, func_scopes__add, fs) :
			 -EOPNOTSUPP;
	if (err && err != -ENOMEM) {
		if (cf->unit)
			debuginfo__die_fallback(di, off, err);
		func_scopes__clear(fs);
		err = dwarf_die__scopes_libdw(di->dwarf, off, MAX_INLINE_DEPTH - 1, func_scopes__add,
					      fs);
	}
	if (err == -ENOMEM) {
		func_scopes__free(fs);
		return NULL;
	}
	for (unsigned int d = 0; d < fs->nr_levels; d++)
		if (fs->levels[d].n)	/* a depth of range-less scopes has none */
			sort_by_u64_key(fs->levels[d].r, fs->levels[d].n, sizeof(*fs->levels[d].r),
					scope_range__cmp);
	fs->next = *b;
	*b = fs;
	return fs;
}

/* The range of level l holding addr, or NULL. */
static const struct scope_range *scope_level__find(const struct scope_level *l, uint64_t addr)
{
	size_t lo = upper_bound_u64(l->r, l->n, sizeof(*l->r), addr);

	return lo && addr < l->r[lo - 1].hi ? &l->r[lo - 1] : NULL;
}

/*
 * Concrete scopes containing addr in the function chain[0], appended
 * outermost first: each nested DW_TAG_inlined_subroutine (or nested
 * DW_TAG_subprogram) down to the innermost. (libdw's dwarf_getscopes
 * continues an inline instance with its abstract origin's scopes, not
 * with the function it was inlined into.) Caller holds the lock.
 */
static void debuginfo__pc_chain(struct debuginfo *di, struct cu_funcs *cf, uint64_t addr,
				Dwarf_Die *chain, int *n)
{
	struct func_scopes *fs = debuginfo__func_scopes(di, cf, &chain[0]);
	Dwarf_Off parent = fs ? fs->func_off : 0;

	for (unsigned int d = 0; fs && d < fs->nr_levels && *n < MAX_INLINE_DEPTH; d++) {
		const struct scope_range *r = scope_level__find(&fs->levels[d], addr);

		if (!r || r->parent != parent || !dwarf_offdie(di->dwarf, r->off, &chain[*n]))
			break;
		(*n)++;
		parent = r->off;
	}
}

static int func_range__cmp(const void *a, const void *b)
{
	const struct func_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* dwarf_range_cb_t of the function index: a function's range. */
static int cu_funcs__add(void *arg, unsigned int depth, uint64_t off, uint64_t parent,
			 uint64_t lo, uint64_t hi)
{
	struct cu_funcs *cf = arg;

	if (lo >= hi)
		return 0;
	if (cf->n == cf->alloc) {
		size_t na = cf->alloc ? 2 * cf->alloc : 64;
		struct func_range *nr = realloc(cf->r, na * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		cf->r = nr;
		cf->alloc = na;
	}
	cf->r[cf->n++] = (struct func_range){ .lo = lo, .hi = hi, .off = off };
	return 0;
}

/* The function index of the CU cudie, built on first use. */
static struct cu_funcs *debuginfo__cu_funcs(struct debuginfo *di, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	struct cu_funcs *cf, *n;
	uint8_t asz, osz;
	size_t i;
	int err = -EOPNOTSUPP;

	for (i = 0; i < di->nr_cus; i++)
		if (di->cus[i].cu_off == off)
			return &di->cus[i];
	n = realloc(di->cus, (di->nr_cus + 1) * sizeof(*n));
	if (!n)
		return NULL;
	di->cus = n;
	cf = &di->cus[di->nr_cus++];
	memset(cf, 0, sizeof(*cf));
	cf->cu_off = off;
	/* the unit stays open for its functions' scope indexes */
	if (debuginfo__die_secs(di) && dwarf_diecu(cudie, &(Dwarf_Die){ 0 }, &asz, &osz) &&
	    (err = dwarf_unit__new(&di->die_secs, off, osz, &cf->unit)) == 0)
		err = dwarf_unit__funcs(cf->unit, cu_funcs__add, cf);
	if (err && err != -ENOMEM) {
		if (di->die_secs.info)
			debuginfo__die_fallback(di, off, err);
		dwarf_unit__delete(cf->unit);
		cf->unit = NULL;
		cf->n = 0;
		dwarf_die__funcs_libdw(di->dwarf, off, cu_funcs__add, cf);
	}
	if (cf->n)
		sort_by_u64_key(cf->r, cf->n, sizeof(*cf->r), func_range__cmp);
	return cf;
}

/* The DW_TAG_subprogram whose code holds addr. */
static bool cu_funcs__find(struct debuginfo *di, struct cu_funcs *cf, uint64_t addr, Dwarf_Die *die)
{
	size_t lo = upper_bound_u64(cf->r, cf->n, sizeof(*cf->r), addr), hi;

	/* ranges of different functions do not overlap; look back a little
	 * for a function split in parts (.cold) */
	for (hi = lo; lo > 0 && hi - lo < 8; lo--)
		if (addr < cf->r[lo - 1].hi)
			return dwarf_offdie(di->dwarf, cf->r[lo - 1].off, die) != NULL;
	return false;
}

/*
 * Naming of the levels, as perf 6.1 shows them (its inline list comes
 * from addr2line's function names, demangled like the ELF symbols; a
 * level whose name is the ELF symbol's is shown as that symbol, any other
 * as a new "(inlined)" symbol):
 *  - an inlined level named like the ELF symbol is shown as the symbol;
 *    a C++ (Rust) one by its demangled linkage name, as addr2line gives it
 *    (ns::W::inner, where DW_AT_name says inner);
 *  - the outermost (the DW_TAG_subprogram) is "renamed" when its DWARF
 *    name differs from the ELF symbol's (clones such as foo.constprop.0,
 *    __libc_start_main_impl behind __libc_start_main@@GLIBC_2.34), also
 *    at addresses without inlined levels. Functions with a
 *    DW_AT_linkage_name keep the ELF (demangled) name: C++, and glibc's
 *    hidden aliases, where perf shows addr2line's "__GI__Fork (inlined)"
 *    for the real function _Fork (a deliberate difference,
 *    Documentation/prf-report.txt). C linkage names of inlined levels
 *    (glibc's __GI_ names) are not used either, for the same reason.
 */
static bool name__same(const char *name, const struct symbol *sym)
{
	return sym && !strcmp(name, sym->name);
}

/* The kept inline chains (inline-cache.h) of the file the DWARF came
 * from, mapped on first use; NULL when none. Caller holds the lock. */
static struct inline_cache *debuginfo__inline_cache(struct debuginfo *di)
{
	if (!di->icache_tried) {
		di->icache_tried = true;
		debuginfo__line_cache(di);	/* finds lcache_path, lcache_st */
		if (di->lcache_path)
			di->icache = inline_cache__open(di->lcache_path, &di->lcache_st);
	}
	return di->icache;
}

/*
 * The DWARF's facts of the chain at addr into *f, its levels into lv
 * (room for MAX_INLINE_DEPTH): the function whose code holds addr and
 * the scopes inlined into it there, outermost first, with their names;
 * with positions, the call sites and the line table's row at addr. f->n
 * 0: no function there. Caller holds the lock.
 */
static void debuginfo__chain_facts(struct debuginfo *di, uint64_t addr, bool positions,
				   struct inline_facts *f, struct inline_fact_level *lv)
{
	Dwarf_Die cudie, chain[MAX_INLINE_DEPTH];
	const struct dwarf_line_files *files = NULL;
	Dwarf_Off cu_off;
	struct cu_lines *cl;
	struct cu_funcs *cf;
	struct line_table *lt;
	int n = 0, i;
	long row;

	*f = (struct inline_facts){ .addr = addr, .positions = positions, .levels = lv };
	if (debuginfo__load_dwarf(di))
		return;
	/* the line also where no function is: it answers dso__srcline() */
	if (positions && (row = debuginfo__find_line(di, addr, &lt)) >= 0) {
		f->file = line_table__file(lt, (size_t)row);	/* never NULL */
		f->line = lt->rows[row].line;
	}
	if (!debuginfo__addr_cu(di, addr, &cu_off) || !dwarf_offdie(di->dwarf, cu_off, &cudie))
		return;
	cf = debuginfo__cu_funcs(di, &cudie);
	if (!cf || !cu_funcs__find(di, cf, addr, &chain[0]))
		return;
	n = 1;
	debuginfo__pc_chain(di, cf, addr, chain, &n);
	f->n = (unsigned int)n;
	for (i = 0; i < n; i++) {
		bool has_name;

		lv[i] = (struct inline_fact_level){ .name = die__name(&chain[i], i > 0, &has_name) };
		if (i == 0)
			f->has_name0 = has_name;
	}
	f->has_linkage0 = die__linkage_name(&chain[0]) != NULL;
	if (!positions)
		return;
	/* call sites need the CU's file table */
	if ((cl = debuginfo__cu_lines(di, cu_off)))
		files = &cl->files;
	for (i = 1; i < n; i++)
		die__call_site(&chain[i], files, &lv[i].call_file, &lv[i].call_line);
}

/* Chains of one debug file kept from one run at most: a run that works
 * out more (inline_slot reuse works some out again) keeps the first. */
#define INLINE_KEEP_MAX (256u << 10)

/* Remember the chain f worked out this run, to keep it (at teardown). */
static void debuginfo__note_facts(struct debuginfo *di, const struct inline_facts *f)
{
	struct inline_facts *c;

	if (!di->lcache_path || di->nr_ic_new >= INLINE_KEEP_MAX)
		return;
	if (di->nr_ic_new == di->ic_new_alloc) {
		size_t na = di->ic_new_alloc ? 2 * di->ic_new_alloc : 64;
		struct inline_facts *nf = realloc(di->ic_new, na * sizeof(*nf));

		if (!nf)
			return;
		di->ic_new = nf;
		di->ic_new_alloc = na;
	}
	c = &di->ic_new[di->nr_ic_new];
	*c = *f;
	c->levels = NULL;
	if (f->n && !(c->levels = malloc(f->n * sizeof(*c->levels))))
		return;
	if (f->n)
		memcpy(c->levels, f->levels, f->n * sizeof(*c->levels));
	di->nr_ic_new++;
}

/*
 * The frames of the chain f into a malloc'd array, as perf 6.1 shows them
 * against the ELF symbol at the address (the naming rules above); caller holds
 * the lock. Returns the number of frames (0: no inlined level).
 */
static int inline_chain__frames(struct debuginfo *di, const struct inline_facts *f,
				bool positions, struct inline_frame **out)
{
	int n = (int)f->n, i, k;
	struct inline_frame *fr;
	const char *file = positions ? f->file : NULL;
	unsigned int line = positions ? f->line : 0;
	const char *name0;
	struct symbol *sym;
	bool renamed0;

	*out = NULL;
	if (!n)
		return 0;
	sym = dso__find_symbol(di->dso, f->addr);
	/* no inlined level: only a function whose DWARF name is not its ELF
	 * symbol's gets a (renamed) frame */
	name0 = dso__inline_name(di->dso, f->levels[0].name);
	renamed0 = sym && !name__same(name0, sym) && f->has_name0 && !f->has_linkage0;
	if (n < 2 && !renamed0)
		return 0;
	fr = calloc(n, sizeof(*fr));
	if (!fr)
		return -ENOMEM;
	for (i = n - 1, k = 0; i >= 0; i--, k++) {
		fr[k].func = i ? dso__inline_name(di->dso, f->levels[i].name) : name0;
		fr[k].inlined = i > 0 ? !name__same(fr[k].func, sym) : renamed0;
		fr[k].file = file;
		fr[k].line = line;
		fr[k].srcline = file && line ? debuginfo__intern(di, file, line) : NULL;
		/* interned once here, not per frame by every consumer */
		if (fr[k].inlined && sym &&
		    !(fr[k].sym = dso__inline_sym(di->dso, fr[k].func, sym->start, sym->end))) {
			free(fr);
			return -ENOMEM;
		}
		if (i > 0 && positions) {
			file = f->levels[i].call_file;
			line = f->levels[i].call_line;
		}
	}
	*out = fr;
	return n;
}

/* Compute the chain at addr into a malloc'd frames array: from the kept
 * chains when they hold it, else from the DWARF (then kept at teardown).
 * Caller holds the lock. Returns the number of frames (0: no inlined
 * level). */
static int debuginfo__inline_chain(struct debuginfo *di, uint64_t addr, bool positions,
				   struct inline_frame **out)
{
	struct inline_fact_level lv[MAX_INLINE_DEPTH];
	struct inline_cache *ic;
	struct inline_facts f;

	_Static_assert(MAX_INLINE_DEPTH <= INLINE_CACHE_MAX_LEVELS, "a kept chain's levels");
	*out = NULL;
	if (debuginfo__load_dwarf(di))
		return 0;
	if ((ic = debuginfo__inline_cache(di)) && !inline_cache__get(ic, addr, &f, lv) &&
	    (f.positions || !positions))
		return inline_chain__frames(di, &f, positions, out);
	debuginfo__chain_facts(di, addr, positions, &f, lv);
	debuginfo__note_facts(di, &f);
	return inline_chain__frames(di, &f, positions, out);
}

int dso__inline_frames(struct dso *dso, uint64_t addr, inline_frame_cb_t cb, void *arg)
{
	return dso__inline_frames_flags(dso, addr, 0, cb, arg);
}

/*
 * Per-thread memo in front of the DSO's inline chain cache, holding
 * copies of short chains: a hit takes no lock. (With an unwinding worker
 * resolving samples too, both threads took the same DSO's lock for every
 * frame and slept on it.) Entries of an older debuginfo__generation()
 * are void: their strings and symbols went with a freed DSO.
 */
#define INL_MEMO_MIN_BITS 6	/* entries: 2^6, growing to 2^9 with use */
#define INL_MEMO_MAX_BITS 9
#define INL_MEMO_FRAMES 6

struct inl_memo {
	const struct debuginfo *di;
	uint64_t addr;
	unsigned int gen;
	int n;			/* as the cache slot's */
	bool positions;
	struct inline_frame fr[INL_MEMO_FRAMES];
};

static __thread struct thread_memo inl_memo = THREAD_MEMO_INIT(INL_MEMO_MIN_BITS,
							       INL_MEMO_MAX_BITS);
static __thread struct inl_memo inl_memo_one;	/* when there is no memory for it */

/* The memo's entry for addr of di, valid until the next call on this
 * thread (the memo is made again, bigger, when due). */
static struct inl_memo *inl_memo__slot(const struct debuginfo *di, uint64_t addr)
{
	return thread_memo__slot(&inl_memo, sizeof(struct inl_memo),
				 ((uintptr_t)di >> 4 ^ addr) * 0x9e3779b97f4a7c15ULL, &inl_memo_one);
}

/* Free the inline chain cache (made again at its next use); locked. */
static void inline_cache__drop(struct debuginfo *di)
{
	for (size_t i = 0; di->inl_cache && i < di->nr_inl_slots; i++)
		free(di->inl_cache[i].frames);
	zfree(&di->inl_cache);
	di->nr_inl_slots = 0;
}

/* Report frames[0..n) to cb as dso__inline_frames_flags() returns. */
static int inline_frames__report(const struct inline_frame *frames, int n, inline_frame_cb_t cb,
				 void *arg)
{
	int ret = 0;

	for (int i = 0; cb && i < n && !ret; i++)
		ret = cb(&frames[i], arg);
	if (ret)
		return ret;
	/* levels reported beyond the frame itself (1: a renamed frame alone) */
	return n > 1 ? n - 1 : n;
}

int dso__inline_frames_flags(struct dso *dso, uint64_t addr, unsigned int flags,
			     inline_frame_cb_t cb, void *arg)
{
	bool positions = !(flags & INLINE_F_NO_POSITIONS);
	unsigned int gen = debuginfo__generation();
	struct inl_memo *m;

	if (cb)
		debuginfo__note_use(DEBUGINFO_USED_INLINE | (positions ? DEBUGINFO_USED_POSITIONS : 0));
	struct debuginfo *di = dso__debuginfo(dso);
	struct inline_frame *frames, local[16];
	struct inline_slot *slot;
	int n, ret = 0;

	if (!di)
		return -ENOMEM;
	if (debuginfo__none(di))
		return 0;
	m = inl_memo__slot(di, addr);
	if (m->di == di && m->addr == addr && m->gen == gen && (m->positions || !positions)) {
		/* a copy: cb may look up other addresses on this thread */
		if (m->n > 0)
			memcpy(local, m->fr, m->n * sizeof(*local));
		return inline_frames__report(local, m->n, cb, arg);
	}
	debuginfo__lock(di);
	if (di->inl_cache && di->nr_inl_slots != (size_t)1 << di->inl_size.bits)
		inline_cache__drop(di);		/* to be made bigger */
	if (!di->inl_cache) {
		size_t nr = (size_t)1 << di->inl_size.bits;

		di->inl_cache = malloc(nr * sizeof(*di->inl_cache));
		if (!di->inl_cache) {
			debuginfo__unlock(di);
			return -ENOMEM;
		}
		for (size_t k = 0; k < nr; k++) {
			di->inl_cache[k].n = -1;
			di->inl_cache[k].frames = NULL;
		}
		di->nr_inl_slots = nr;
	}
	slot = &di->inl_cache[(addr ^ (addr >> 12)) & (di->nr_inl_slots - 1)];
	if (slot->n < 0 || slot->addr != addr || (positions && !slot->positions)) {
		n = debuginfo__inline_chain(di, addr, positions, &frames);
		if (n < 0) {
			debuginfo__unlock(di);
			return n;
		}
		free(slot->frames);
		slot->addr = addr;
		slot->n = n;
		slot->positions = positions;
		slot->frames = frames;
		cache_size__fill(&di->inl_size);
	}
	n = slot->n;
	/* copy out: the slot may be reused once the lock is dropped */
	frames = NULL;
	if (n > 0 && cb) {
		frames = n <= (int)ARRAY_SIZE(local) ? local : malloc(n * sizeof(*frames));
		if (!frames) {
			debuginfo__unlock(di);
			return -ENOMEM;
		}
		memcpy(frames, slot->frames, n * sizeof(*frames));
	}
	if (n <= INL_MEMO_FRAMES) {
		if (m != &inl_memo_one)
			thread_memo__filled(&inl_memo);
		m->di = di;
		m->addr = addr;
		m->gen = gen;
		m->n = n;
		m->positions = slot->positions;
		if (n > 0)
			memcpy(m->fr, slot->frames, n * sizeof(*m->fr));
	}
	debuginfo__unlock(di);
	ret = inline_frames__report(frames, n, cb, arg);	/* frames: NULL only when unused */
	if (frames != local)
		free(frames);
	return ret;
}

/* ---- teardown ---- */

static unsigned int debuginfo_gen = 1;

unsigned int debuginfo__generation(void)
{
	return __atomic_load_n(&debuginfo_gen, __ATOMIC_RELAXED);
}

void dso__debuginfo_delete(struct dso *dso)
{
	struct debuginfo *di = dso->debuginfo;
	size_t i;

	if (!di)
		return;
	__atomic_add_fetch(&debuginfo_gen, 1, __ATOMIC_RELAXED);
	cfi_cache__drop(di);
	for (i = 0; di->interned && i <= di->intern_mask; i++) {
		struct intern *e = di->interned[i], *n;

		for (; e; e = n) {
			n = e->next;
			free(e);
		}
	}
	free(di->interned);
	inline_cache__drop(di);
	for (i = 0; i < di->nr_cus; i++) {
		free(di->cus[i].r);
		dwarf_unit__delete(di->cus[i].unit);
	}
	free(di->cus);
	for (i = 0; i < FUNC_SCOPES_BUCKETS; i++) {
		struct func_scopes *fs = di->func_scopes[i], *n;

		for (; fs; fs = n) {
			n = fs->next;
			func_scopes__free(fs);
		}
	}
	debuginfo__keep_lines(di);
	debuginfo__keep_inline(di);
	for (i = 0; i < CU_LINES_BUCKETS; i++) {
		struct cu_lines *c = di->cu_lines[i], *n;

		for (; c; c = n) {
			n = c->next;
			line_table__free(&c->t);
			dwarf_line_files__free(&c->files);
			free(c);
		}
	}
	line_cache__close(di->lcache);	/* after the tables pointing into it */
	free(di->lcache_path);
	free(di->cu_ranges);
	line_table__free(&di->lines);
	for (i = 0; i < di->nr_lines_files; i++)
		dwarf_line_files__free(&di->lines_files[i]);
	free(di->lines_files);
	if (di->eh_cfi)
		dwarf_cfi_end(di->eh_cfi);
	if (di->dwarf)
		dwarf_end(di->dwarf);
	close_elf(&di->dbg_fd, &di->dbg_elf);
	debug_image__keep(&di->dbg_img);
	debug_image__free(&di->dbg_img);
	close_elf(&di->fd, &di->elf);
	free(di->image);
	free(di->segs);
	free(di->debug_path);
	pthread_mutex_destroy(&di->lock);
	free(di);
	dso->debuginfo = NULL;
}

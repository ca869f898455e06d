// SPDX-License-Identifier: GPL-2.0
/*
 * Line tables of a DSO (debuginfo-internal.h), for srclines by binary
 * search, never addr2line: the CU whose address ranges (.debug_aranges,
 * DWARF 5 section 6.1.2) hold an address has its rows read on first use
 * (prf's line program reader, dwarf-line.h, or libdw's; DWARF 5 section
 * 6.2) and sorted; addresses outside every CU range use one table of the
 * units no range lists. Tables read from line programs are kept between
 * runs (line-cache.h). Also the DSO's "file:line" strings, interned.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <gelf.h>
#include <libelf.h>

#include "debuginfo-internal.h"
#include "line-cache.h"
#include "model.h"
#include "../lib/debug.h"
#include "../lib/util.h"

struct cu_range {		/* .debug_aranges: [lo, hi) belongs to a unit */
	uint64_t lo, hi;
	Dwarf_Off cu_off;	/* its unit DIE; 0: not known yet (then hdr_off) */
	Dwarf_Off hdr_off;	/* its unit header, while .debug_info is partial */
};

struct intern {
	struct intern *next;
	const char *file;
	unsigned int line;
	char str[];
};

#define INTERN_BUCKETS_MIN 256	/* then x4 whenever the chains average 2 */

_Static_assert(offsetof(struct line_row, addr) == 0, "upper_bound_u64 key");
_Static_assert(offsetof(struct cu_range, lo) == 0, "upper_bound_u64 key");

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
	struct debug_lazy *l = &di->file.dbg_img.lazy[DEBUG_LAZY_LINE];
	Dwarf_Attribute attr;
	Dwarf_Word off;
	uint64_t end, len;

	if (!debug_image__partial(&di->file.dbg_img, DEBUG_LAZY_LINE))
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
	struct debug_lazy *l = &di->file.dbg_img.lazy[DEBUG_LAZY_LINE];

	if (!di->line.line_secs_tried) {
		di->line.line_secs_tried = true;
		if (dwarf_line_secs__from_elf(di->file.dwarf ? dwarf_getelf(di->file.dwarf) : NULL,
					      &di->line.line_secs))
			memset(&di->line.line_secs, 0, sizeof(di->line.line_secs));
		else if (l->dst) {
			di->line.line_secs.line = l->dst;
			di->line.line_secs.line_len = l->dst_len;
		}
	}
	return di->line.line_secs.line != NULL;
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
		unsigned int disc = 0;
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
		dwarf_linediscriminator(l, &disc);
		r->line = line_row__pack(lineno > 0 ? (uint64_t)lineno : 0, disc);
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
	err = dwarf_line__read(&di->line.line_secs, off,
			       dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr)),
			       files, &t->rows, &t->n, alloc);
	if (err == -EOPNOTSUPP)
		return line_table__add_cu_libdw(t, alloc, cudie, files);
	if (err == -EINVAL)
		pr_debug("debuginfo: %s: line program at .debug_line %#" PRIx64
			 " is malformed: rows from there on left out\n",
			 di->file.debug_path && *di->file.debug_path ? di->file.debug_path : di->dso->long_name,
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
	if (debuginfo__load_cu_ranges(di) || !(offs = malloc(di->line.nr_cu_ranges * sizeof(*offs))))
		return NULL;
	for (i = 0; i < di->line.nr_cu_ranges; i++) {
		const struct cu_range *r = &di->line.cu_ranges[i];
		Dwarf_Off next;
		size_t hsize;

		if (r->cu_off)
			offs[(*n)++] = r->cu_off;
		else if (!dwarf_next_unit(di->file.dwarf, r->hdr_off, &next, &hsize, NULL, NULL, NULL,
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
static int debuginfo__load_lines(struct debuginfo *di)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die cudie;
	size_t alloc = 0, nlisted, skipped = 0, n0, i, nr_names = 0;
	uint64_t *listed;
	uint8_t unit_type;
	Dwarf_Half version;
	int err = 0;

	if (di->line.lines_tried)
		return di->line.lines.rows ? 0 : -ENOENT;
	di->line.lines_tried = true;
	if (debuginfo__load_dwarf(di))
		return -ENOENT;
	if (debuginfo__line_cache(di) && (di->line.lines_files = malloc(sizeof(*di->line.lines_files))) &&
	    !line_cache__get(di->line.lcache, LINE_CACHE_UNLISTED,
			     (const struct line_row **)&di->line.lines.rows, &di->line.lines.n,
			     di->line.lines_files)) {
		di->line.nr_lines_files = 1;
		di->line.lines.mapped = true;
		di->line.lines.names = di->line.lines_files->name;
		di->line.lines.nr_names = di->line.lines_files->n;
		pr_debug("debuginfo: %s: line table of the units without CU ranges from the kept tables\n",
			 di->dso->long_name);
		return line_table__finish(&di->line.lines, di->dso->long_name);
	}
	free(di->line.lines_files);
	di->line.lines_files = NULL;
	if (debuginfo__ensure(di, DEBUG_LAZY_INFO, UINT64_MAX) ||
	    debuginfo__ensure(di, DEBUG_LAZY_LINE, UINT64_MAX))
		return -ENOENT;
	listed = debuginfo__listed_units(di, &nlisted);
	while (dwarf_get_units(di->file.dwarf, cu, &next, &version, &unit_type, &cudie, NULL) == 0) {
		size_t k = upper_bound_u64(listed, nlisted, sizeof(*listed), dwarf_dieoffset(&cudie));

		cu = next;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		if (k && listed[k - 1] == dwarf_dieoffset(&cudie)) {
			skipped++;
			continue;
		}
		if (di->line.nr_lines_files % 16 == 0) {
			struct dwarf_line_files *nf = realloc(di->line.lines_files,
				(di->line.nr_lines_files + 16) * sizeof(*nf));

			if (!nf) {
				err = -ENOMEM;
				break;
			}
			di->line.lines_files = nf;
		}
		n0 = di->line.lines.n;
		err = line_table__add_cu(di, &di->line.lines, &alloc, &cudie,
					 &di->line.lines_files[di->line.nr_lines_files++]);
		if (err)
			break;
		/* file indexes into the names of all these units */
		for (i = n0; i < di->line.lines.n; i++) {
			struct line_row *r = &di->line.lines.rows[i];

			if (r->file < LINE_FILE_NONE)
				r->file = r->file < LINE_FILE_NONE - nr_names ?
					  (uint32_t)(r->file + nr_names) : LINE_FILE_NONE;
		}
		nr_names += di->line.lines_files[di->line.nr_lines_files - 1].n;
	}
	free(listed);
	if (!err && !(di->line.lines.own_names = malloc((nr_names ? nr_names : 1) * sizeof(char *))))
		err = -ENOMEM;
	if (err)
		return err;
	for (i = 0, nr_names = 0; i < di->line.nr_lines_files; i++) {
		memcpy(di->line.lines.own_names + nr_names, di->line.lines_files[i].name,
		       di->line.lines_files[i].n * sizeof(char *));
		nr_names += di->line.lines_files[i].n;
	}
	di->line.lines.names = di->line.lines.own_names;
	di->line.lines.nr_names = nr_names;
	pr_debug("debuginfo: %s: line table of the units without CU ranges loaded "
		 "(%zu units with ranges left out)\n", di->dso->long_name, skipped);
	err = line_table__finish(&di->line.lines, di->dso->long_name);
	/* kept empty too (python3.11's crt1 units have no rows): the next
	 * run need not read every such unit's line program to learn that */
	if (!err || err == -ENOENT)
		di->line.lcache_new = di->line.lines_keep = true;
	return err;
}

/* Index of the row covering addr in t, or -1. */
static long line_table__find(const struct line_table *t, uint64_t addr)
{
	size_t lo = upper_bound_u64(t->rows, t->n, sizeof(*t->rows), addr);

	if (lo == 0 || line_row__end(&t->rows[lo - 1]) || !line_row__line(&t->rows[lo - 1]))
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
	if (di->line.nr_cu_ranges == *alloc) {
		size_t na = *alloc ? 2 * *alloc : 256;
		struct cu_range *n = realloc(di->line.cu_ranges, na * sizeof(*n));

		if (!n)
			return -ENOMEM;
		di->line.cu_ranges = n;
		*alloc = na;
	}
	di->line.cu_ranges[di->line.nr_cu_ranges++] = (struct cu_range){ lo, lo + len, cu_off, hdr_off };
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
	Elf_Data *d = elf__section_data(di->file.dbg_elf, ".debug_aranges");
	Elf_Data *info = elf__section_data(di->file.dbg_elf, ".debug_info");
	const unsigned char *p, *end;
	size_t info_size = di->file.dbg_img.lazy[DEBUG_LAZY_INFO].dst ?
			   di->file.dbg_img.lazy[DEBUG_LAZY_INFO].dst_len : info ? info->d_size : 0;

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

	if (dwarf_getaranges(di->file.dwarf, &ar, &n))
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

	if (di->line.cu_ranges_tried)
		return di->line.cu_ranges ? 0 : -ENOENT;
	di->line.cu_ranges_tried = true;
	if (debuginfo__load_dwarf(di))
		return -ENOENT;
	err = di->file.dbg_img.base ? debuginfo__read_aranges(di, &alloc) :
				 debuginfo__libdw_aranges(di, &alloc);
	if (err || !di->line.nr_cu_ranges) {
		free(di->line.cu_ranges);
		di->line.cu_ranges = NULL;
		di->line.nr_cu_ranges = 0;
		return -ENOENT;
	}
	sort_by_u64_key(di->line.cu_ranges, di->line.nr_cu_ranges, sizeof(*di->line.cu_ranges), cu_range__cmp);
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
	struct debug_image *img = &di->file.dbg_img;
	Dwarf_Off next, abbrev;
	uint8_t asz, osz;
	Dwarf_Half ver;
	size_t hsize;
	Dwarf_Die cudie;

	if (debuginfo__ensure(di, DEBUG_LAZY_INFO, hdr_off + UNIT_HEADER_MAX) ||
	    dwarf_next_unit(di->file.dwarf, hdr_off, &next, &hsize, &ver, &abbrev, &asz, &osz, NULL,
			    NULL) ||
	    debuginfo__ensure(di, DEBUG_LAZY_INFO, next))
		return false;
	*die_off = hdr_off + hsize;
	if (!debug_image__partial(img, DEBUG_LAZY_INFO))
		return true;
	if (!dwarf_offdie(di->file.dwarf, *die_off, &cudie) || unit__refers_out(&cudie))
		return !debuginfo__ensure(di, DEBUG_LAZY_INFO, UINT64_MAX);
	return true;
}

/* DIE offset of the CU whose ranges hold addr, its unit readable, or false. */
bool debuginfo__addr_cu(struct debuginfo *di, uint64_t addr, Dwarf_Off *cu_off)
{
	struct cu_range *r;
	size_t lo;

	if (debuginfo__load_cu_ranges(di))
		return false;
	lo = upper_bound_u64(di->line.cu_ranges, di->line.nr_cu_ranges, sizeof(*di->line.cu_ranges), addr);
	if (!lo || addr >= di->line.cu_ranges[lo - 1].hi)
		return false;
	r = &di->line.cu_ranges[lo - 1];
	if (!r->cu_off && !debuginfo__unit_ready(di, r->hdr_off, &r->cu_off))
		return false;
	*cu_off = r->cu_off;
	return true;
}

/* The kept line tables (line-cache.h) of the file the DWARF came from,
 * mapped on first use; NULL when there are none (or no file: [vdso]).
 * Caller holds the lock. */
struct line_cache *debuginfo__line_cache(struct debuginfo *di)
{
	const char *path = di->file.debug_path;
	int err;

	if (di->line.lcache_tried)
		return di->line.lcache;
	di->line.lcache_tried = true;
	if (path && *path) {
		err = stat(path, &di->line.lcache_st);
	} else if (di->file.fd >= 0 && di->dso->long_name[0] == '/') {	/* its own DWARF */
		path = di->dso->long_name;
		err = fstat(di->file.fd, &di->line.lcache_st);
	} else {
		return NULL;
	}
	if (!err && (di->line.lcache_path = strdup(path)))
		di->line.lcache = line_cache__open(path, &di->line.lcache_st);
	return di->line.lcache;
}

/* Keep the line tables read from line programs this run (the units'
 * and the one of the units without CU ranges), with those kept before,
 * for the next runs (at teardown, no lock needed). */
void debuginfo__keep_lines(struct debuginfo *di)
{
	struct dwarf_line_files all;
	struct line_cache_unit *u;
	size_t n = 0, i;

	if (!di->line.lcache_new || !di->line.lcache_path)
		return;
	for (i = 0; i < CU_LINES_BUCKETS; i++)
		for (struct cu_lines *c = di->line.cu_lines[i]; c; c = c->next)
			n += c->to_keep;
	u = malloc((n + 1) * sizeof(*u));
	if (!u)
		return;
	n = 0;
	for (i = 0; i < CU_LINES_BUCKETS; i++)
		for (struct cu_lines *c = di->line.cu_lines[i]; c; c = c->next)
			if (c->to_keep)
				u[n++] = (struct line_cache_unit){ c->cu_off, c->t.rows, c->t.n,
								   &c->files };
	/* the units no CU range lists, as one unit (their names together) */
	all = (struct dwarf_line_files){ di->line.lines.own_names, di->line.lines.nr_names };
	if (di->line.lines_keep)
		u[n++] = (struct line_cache_unit){ LINE_CACHE_UNLISTED, di->line.lines.rows, di->line.lines.n,
						   &all };
	line_cache__store(di->line.lcache_path, &di->line.lcache_st, di->line.lcache, u, n);
	free(u);
}

/* The line table and file table of the CU at cu_off (DIE offset), built
 * on first use (c->t.n is 0 when it has no rows): from the kept tables
 * when they hold it, else from its line program. NULL: no memory.
 * Caller holds the lock. */
struct cu_lines *debuginfo__cu_lines(struct debuginfo *di, Dwarf_Off cu_off)
{
	struct cu_lines **b = &di->line.cu_lines[(cu_off * 0x9e3779b97f4a7c15ULL) >> 56], *c;
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
	    !line_cache__get(di->line.lcache, cu_off, (const struct line_row **)&c->t.rows, &c->t.n,
			     &c->files)) {
		c->t.mapped = true;
	} else if (!dwarf_offdie(di->file.dwarf, cu_off, &cudie) ||
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
	di->line.lcache_new |= c->to_keep;
	return c;
}

/* Is vaddr in a PLT section (.plt, .plt.got, .plt.sec, .iplt) of the
 * image? Those stubs have no line info; looking for one would load the
 * line table of every CU. Caller holds the lock. */
static bool debuginfo__in_plt(struct debuginfo *di, uint64_t vaddr)
{
	unsigned int i;

	if (!di->line.plt_tried) {
		Elf_Scn *scn = NULL;
		size_t shstrndx;

		di->line.plt_tried = true;
		if (!debuginfo__load_elf(di) && !elf_getshdrstrndx(di->file.elf, &shstrndx)) {
			while ((scn = elf_nextscn(di->file.elf, scn)) != NULL &&
			       di->line.nr_plt < ARRAY_SIZE(di->line.plt)) {
				GElf_Shdr sh;
				const char *n;

				if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
					continue;
				n = elf_strptr(di->file.elf, shstrndx, sh.sh_name);
				if (!n || (strncmp(n, ".plt", 4) && strcmp(n, ".iplt")))
					continue;
				di->line.plt[di->line.nr_plt].lo = sh.sh_addr;
				di->line.plt[di->line.nr_plt].hi = sh.sh_addr + sh.sh_size;
				di->line.nr_plt++;
			}
		}
	}
	for (i = 0; i < di->line.nr_plt; i++)
		if (vaddr >= di->line.plt[i].lo && vaddr < di->line.plt[i].hi)
			return true;
	return false;
}

/*
 * The line table and row for addr: the table of the CU whose address
 * ranges hold addr (built for that CU alone on first use), else the whole
 * DSO's table. Caller holds the lock. Row index or -1.
 */
long debuginfo__find_line(struct debuginfo *di, uint64_t addr, struct line_table **tp)
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
		if (!di->line.lines_tried)
			pr_debug2("debuginfo: %s: %#" PRIx64 " in no unit's address ranges\n",
				  di->dso->long_name, addr);
		if (debuginfo__load_lines(di))
			return -1;
		t = &di->line.lines;
	}
	i = line_table__find(t, addr);
	*tp = t;
	return i;
}

static bool full_paths;		/* --full-source-path */

void debuginfo__set_full_paths(bool full)
{
	full_paths = full;
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
	size_t n = di->line.interned ? (di->line.intern_mask + 1) * 4 : INTERN_BUCKETS_MIN, i;
	struct intern **b = calloc(n, sizeof(*b)), *e, *next;

	if (!b)
		return false;
	for (i = 0; di->line.interned && i <= di->line.intern_mask; i++) {
		for (e = di->line.interned[i]; e; e = next) {
			size_t h = intern__hash(e->file, e->line) & (n - 1);

			next = e->next;
			e->next = b[h];
			b[h] = e;
		}
	}
	free(di->line.interned);
	di->line.interned = b;
	di->line.intern_mask = n - 1;
	return true;
}

/* "base:line" for (file, line), interned in the DSO: one string per
 * (file name, line) however many rows, units and threads ask for it.
 * Caller holds lock. NULL: no memory. */
const char *debuginfo__intern(struct debuginfo *di, const char *file, unsigned int line)
{
	struct intern **b, *e;
	const char *base;
	size_t len;

	if ((!di->line.interned || di->line.nr_interned > 2 * (di->line.intern_mask + 1)) &&
	    !debuginfo__intern_grow(di) && !di->line.interned)
		return NULL;
	b = &di->line.interned[intern__hash(file, line) & di->line.intern_mask];
	for (e = *b; e; e = e->next)
		if (e->file == file && e->line == line)
			return e->str;
	base = full_paths ? file : basename_of(file);
	len = strlen(base) + 12;
	e = malloc(sizeof(*e) + len);
	if (!e)
		return NULL;
	e->file = file;
	e->line = line;
	snprintf(e->str, len, "%s:%u", base, line);
	e->next = *b;
	*b = e;
	di->line.nr_interned++;
	return e->str;
}

int dso__srcline_full(struct dso *dso, uint64_t addr, const char **file, unsigned int *line,
		      unsigned int *disc)
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
		*line = line_row__line(&t->rows[i]);
		if (disc)
			*disc = line_row__disc(&t->rows[i]);
		err = 0;
	}
	debuginfo__unlock(di);
	return err;
}

void debuginfo__lines_free(struct debuginfo *di)
{
	size_t i;

	for (i = 0; di->line.interned && i <= di->line.intern_mask; i++) {
		struct intern *e = di->line.interned[i], *n;

		for (; e; e = n) {
			n = e->next;
			free(e);
		}
	}
	free(di->line.interned);
	for (i = 0; i < CU_LINES_BUCKETS; i++) {
		struct cu_lines *c = di->line.cu_lines[i], *n;

		for (; c; c = n) {
			n = c->next;
			line_table__free(&c->t);
			dwarf_line_files__free(&c->files);
			free(c);
		}
	}
	line_cache__close(di->line.lcache);	/* after the tables pointing into it */
	free(di->line.lcache_path);
	free(di->line.cu_ranges);
	line_table__free(&di->line.lines);
	for (i = 0; i < di->line.nr_lines_files; i++)
		dwarf_line_files__free(&di->line.lines_files[i]);
	free(di->line.lines_files);
}

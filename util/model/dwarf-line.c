// SPDX-License-Identifier: GPL-2.0
/*
 * One DWARF line number program read by prf (see dwarf-line.h). Layout
 * and opcodes from the DWARF 5 standard, section 6.2 (and DWARF 2-4 for
 * the older header and file table); values in host byte order (the
 * caller hands over native-endian sections only).
 */
#include "dwarf-line.h"
#include "dwarf-rd.h"
#include "model.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include <libelf.h>

/* DW_LNS_*, DW_LNE_*, DW_LNCT_*, DW_FORM_* values of the standard */
enum {
	LNS_copy = 1, LNS_advance_pc, LNS_advance_line, LNS_set_file, LNS_set_column,
	LNS_negate_stmt, LNS_set_basic_block, LNS_const_add_pc, LNS_fixed_advance_pc,
	LNS_set_prologue_end, LNS_set_epilogue_begin, LNS_set_isa,
};
enum { LNE_end_sequence = 1, LNE_set_address, LNE_define_file, LNE_set_discriminator };
enum { LNCT_path = 1, LNCT_directory_index };
enum {
	FORM_data2 = 0x05, FORM_data4 = 0x06, FORM_data8 = 0x07, FORM_string = 0x08,
	FORM_block = 0x09, FORM_block1 = 0x0a, FORM_data1 = 0x0b, FORM_sdata = 0x0d,
	FORM_strp = 0x0e, FORM_udata = 0x0f, FORM_data16 = 0x1e, FORM_line_strp = 0x1f,
};

struct hdr {
	unsigned int version, offset_size;
	unsigned int min_inst, line_range, opcode_base;
	int line_base;
	const unsigned char *std_lens;
	const unsigned char *prog, *end;	/* the opcodes */
};

/* An entry's path (or directory index) in a DWARF 5 table, by form.
 * 0, -EINVAL, -EOPNOTSUPP (a form not read here). */
static int read_form(struct rd *r, const struct dwarf_line_secs *s, const struct hdr *h,
		     uint64_t form, const char **str, uint64_t *num)
{
	uint64_t n;

	*str = NULL;
	*num = 0;
	switch (form) {
	case FORM_string:
		*str = rd_str(r);
		break;
	case FORM_line_strp:
	case FORM_strp:
		n = rd_u(r, h->offset_size);
		*str = form == FORM_strp ? sec_str(s->str, s->str_len, n) :
					   sec_str(s->line_str, s->line_str_len, n);
		if (!*str)
			return -EINVAL;
		break;
	case FORM_data1: *num = rd_u(r, 1); break;
	case FORM_data2: *num = rd_u(r, 2); break;
	case FORM_data4: *num = rd_u(r, 4); break;
	case FORM_data8: *num = rd_u(r, 8); break;
	case FORM_udata: *num = rd_uleb(r); break;
	case FORM_sdata: *num = (uint64_t)rd_sleb(r); break;
	case FORM_data16:
		rd_u(r, 8);
		rd_u(r, 8);
		break;
	case FORM_block:
	case FORM_block1:
		n = form == FORM_block ? rd_uleb(r) : rd_u(r, 1);
		if (n > (uint64_t)(r->end - r->p))
			return -EINVAL;
		r->p += n;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return r->bad ? -EINVAL : 0;
}

struct name_ref {
	const char *dir;	/* NULL: the name alone */
	const char *name;
};

/* Make files from refs[0..n): one block, the pointer array then the
 * "dir/name" strings. */
static int files__build(struct dwarf_line_files *files, const struct name_ref *refs, size_t n)
{
	size_t bytes = n * sizeof(char *), i;
	char *cp;

	for (i = 0; i < n; i++)
		bytes += (refs[i].dir ? strlen(refs[i].dir) + 1 : 0) + strlen(refs[i].name) + 1;
	files->name = malloc(bytes ? bytes : 1);
	if (!files->name)
		return -ENOMEM;
	files->n = n;
	cp = (char *)(files->name + n);
	for (i = 0; i < n; i++) {
		files->name[i] = cp;
		if (refs[i].dir) {
			cp = stpcpy(cp, refs[i].dir);
			*cp++ = '/';
		}
		cp = stpcpy(cp, refs[i].name) + 1;
	}
	return 0;
}

/* The directory for a file: absolute names stand alone. */
static const char *dir_of(const char *name, const char **dirs, size_t ndirs, uint64_t idx)
{
	if (name[0] == '/' || idx >= ndirs)
		return NULL;
	return dirs[idx];
}

/* A DWARF 5 entry format: (content type, form) pairs. */
struct entry_fmt {
	unsigned int n;
	uint64_t ct[16], form[16];
};

static int read_fmt(struct rd *r, struct entry_fmt *f)
{
	unsigned int i;

	f->n = (unsigned int)rd_u(r, 1);
	if (f->n > 16)
		return -EOPNOTSUPP;
	for (i = 0; i < f->n; i++) {
		f->ct[i] = rd_uleb(r);
		f->form[i] = rd_uleb(r);
	}
	return r->bad ? -EINVAL : 0;
}

/* One DWARF 5 table entry: its path and directory index. */
static int read_entry(struct rd *r, const struct dwarf_line_secs *s, const struct hdr *h,
		      const struct entry_fmt *f, const char **path, uint64_t *dir)
{
	unsigned int i;
	int err;

	*path = NULL;
	*dir = 0;
	for (i = 0; i < f->n; i++) {
		const char *str;
		uint64_t num;

		if ((err = read_form(r, s, h, f->form[i], &str, &num)))
			return err;
		if (f->ct[i] == LNCT_path)
			*path = str;
		else if (f->ct[i] == LNCT_directory_index)
			*dir = num;
	}
	return *path ? 0 : -EINVAL;
}

static int read_tables_v5(struct rd *r, const struct dwarf_line_secs *s, const struct hdr *h,
			  struct dwarf_line_files *files)
{
	struct entry_fmt f;
	const char **dirs = NULL;
	struct name_ref *refs = NULL;
	uint64_t ndirs, nfiles, i, d;
	int err;

	if ((err = read_fmt(r, &f)))
		return err;
	ndirs = rd_uleb(r);
	if (ndirs > (uint64_t)(r->end - r->p))
		return -EINVAL;	/* every entry takes a byte at least */
	dirs = malloc((ndirs ? ndirs : 1) * sizeof(*dirs));
	if (!dirs)
		return -ENOMEM;
	for (i = 0; i < ndirs; i++)
		if ((err = read_entry(r, s, h, &f, &dirs[i], &d)))
			goto out;
	if ((err = read_fmt(r, &f)))
		goto out;
	nfiles = rd_uleb(r);
	err = -EINVAL;
	if (nfiles > (uint64_t)(r->end - r->p))
		goto out;
	err = -ENOMEM;
	refs = malloc((nfiles ? nfiles : 1) * sizeof(*refs));
	if (!refs)
		goto out;
	for (i = 0; i < nfiles; i++) {
		if ((err = read_entry(r, s, h, &f, &refs[i].name, &d)))
			goto out;
		refs[i].dir = dir_of(refs[i].name, dirs, ndirs, d);
	}
	err = files__build(files, refs, nfiles);
out:
	free(dirs);
	free(refs);
	return err;
}

static int read_tables_v4(struct rd *r, const char *comp_dir, struct dwarf_line_files *files)
{
	const char **dirs;
	struct name_ref *refs;
	size_t ndirs = 1, nfiles = 1, cap;
	const unsigned char *start = r->p;
	const char *str;
	int err = -EINVAL;

	/* count first: the tables end with an empty string / a 0 byte */
	while ((str = rd_str(r)) && *str)
		ndirs++;
	while (!r->bad && r->p < r->end && *r->p) {
		rd_str(r);
		rd_uleb(r);
		rd_uleb(r);
		rd_uleb(r);
		nfiles++;
	}
	if (r->bad || r->p >= r->end)
		return -EINVAL;
	r->p = start;
	cap = ndirs;
	dirs = malloc(cap * sizeof(*dirs));
	refs = malloc(nfiles * sizeof(*refs));
	if (!dirs || !refs) {
		err = -ENOMEM;
		goto out;
	}
	dirs[0] = comp_dir;
	for (ndirs = 1; (str = rd_str(r)) && *str; ndirs++)
		dirs[ndirs] = str;
	refs[0] = (struct name_ref){ NULL, "???" };
	for (nfiles = 1; *r->p; nfiles++) {
		const char *name = rd_str(r);
		uint64_t d = rd_uleb(r);

		rd_uleb(r);
		rd_uleb(r);
		refs[nfiles].name = name;
		refs[nfiles].dir = dir_of(name, dirs, ndirs, d);
	}
	r->p++;
	err = files__build(files, refs, nfiles);
out:
	free(dirs);
	free(refs);
	return err;
}

static int read_header(struct rd *r, const struct dwarf_line_secs *s, const char *comp_dir,
		       struct hdr *h, struct dwarf_line_files *files)
{
	uint64_t len, hlen;
	unsigned int max_ops;
	int err;

	h->offset_size = 4;
	len = rd_u(r, 4);
	if (len == 0xffffffff) {
		h->offset_size = 8;
		len = rd_u(r, 8);
	} else if (len >= 0xfffffff0) {
		return -EINVAL;
	}
	if (r->bad || len > (uint64_t)(r->end - r->p))
		return -EINVAL;
	h->end = r->p + len;
	r->end = h->end;
	h->version = (unsigned int)rd_u(r, 2);
	if (h->version < 2 || h->version > 5)
		return -EOPNOTSUPP;
	if (h->version >= 5) {
		rd_u(r, 1);			/* address_size: set_address says */
		if (rd_u(r, 1))			/* segment_selector_size */
			return -EOPNOTSUPP;
	}
	hlen = rd_u(r, h->offset_size);
	if (r->bad || hlen > (uint64_t)(r->end - r->p))
		return -EINVAL;
	h->prog = r->p + hlen;
	h->min_inst = (unsigned int)rd_u(r, 1);
	max_ops = h->version >= 4 ? (unsigned int)rd_u(r, 1) : 1;
	rd_u(r, 1);				/* default_is_stmt */
	h->line_base = (int8_t)rd_u(r, 1);
	h->line_range = (unsigned int)rd_u(r, 1);
	h->opcode_base = (unsigned int)rd_u(r, 1);
	if (r->bad || !h->line_range || !h->opcode_base)
		return -EINVAL;
	if (max_ops != 1)
		return -EOPNOTSUPP;		/* VLIW op_index */
	h->std_lens = r->p;
	if (h->opcode_base - 1 > (size_t)(r->end - r->p))
		return -EINVAL;
	r->p += h->opcode_base - 1;
	err = h->version >= 5 ? read_tables_v5(r, s, h, files) : read_tables_v4(r, comp_dir, files);
	if (!err && r->p > h->prog) {
		dwarf_line_files__free(files);
		err = -EINVAL;
	}
	return err;
}

/* The caller's row array, kept in locals while a program runs (written
 * back by dwarf_line__read()). */
struct rows {
	struct line_row *v;
	size_t n, alloc;
};

/* line: the line register, wrapped modulo 2^64 (a corrupt program may
 * run it anywhere); rows keep it below 2^24, else 0, with the
 * discriminator disc (line_row__pack()). */
static int rows__add(struct rows *rs, uint64_t addr, uint32_t file, uint64_t line, uint64_t disc)
{
	struct line_row *row;

	if (rs->n == rs->alloc) {
		size_t na = rs->alloc ? 2 * rs->alloc : 1024;
		struct line_row *nv = realloc(rs->v, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		rs->v = nv;
		rs->alloc = na;
	}
	row = &rs->v[rs->n];
	row->addr = addr;
	row->file = file;
	row->line = line_row__pack(line, disc);
	rs->n++;
	return 0;
}

int line_row__cmp(const void *pa, const void *pb)
{
	const struct line_row *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* an end of sequence before a row starting at the same address */
	if (line_row__end(a) != line_row__end(b))
		return line_row__end(a) ? -1 : 1;
	return 0;
}

int line_rows__sort(struct line_row *rows, size_t n)
{
	struct line_row *tmp, *src = rows, *dst, *t;
	size_t w, i;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	/* bottom-up: runs of w rows merged into runs of 2w, the left run's
	 * row first among equal ones */
	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t a = i, am = i + w < n ? i + w : n, b = am;
			size_t bm = i + 2 * w < n ? i + 2 * w : n, k = i;

			while (a < am && b < bm)
				dst[k++] = line_row__cmp(&src[b], &src[a]) < 0 ? src[b++] : src[a++];
			while (a < am)
				dst[k++] = src[a++];
			while (b < bm)
				dst[k++] = src[b++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != rows)
		memcpy(rows, src, n * sizeof(*rows));
	free(tmp);
	return 0;
}

/*
 * The row that sorts last in v[0..n) (highest address; there, a row that
 * is not an end of sequence, the latest in the program) becomes an end
 * of sequence: libdw does so, for producers that forget the final one,
 * and the lookups must agree with it (a row starting a zero-length
 * stretch at a unit's end names no line).
 */
static void rows__mark_last(struct line_row *v, size_t n)
{
	struct line_row *last = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (!last || v[i].addr > last->addr ||
		    (v[i].addr == last->addr && (!line_row__end(&v[i]) || line_row__end(last))))
			last = &v[i];
	if (last)
		last->file = LINE_FILE_END;
}

/* Run the opcodes of h, appending rows. 0, -EINVAL, -EOPNOTSUPP, -ENOMEM. */
static int run_program(const struct hdr *h, const struct dwarf_line_files *files, struct rows *rs)
{
	struct rd r = { h->prog, h->end, false };
	uint64_t addr = 0, file = 1;
	uint64_t line = 1, disc = 0;	/* disc: for the next row only */
	/* each special opcode's address and line advance, worked out once
	 * (a division per row otherwise) */
	uint64_t addr_adv[256];
	int64_t line_adv[256];
	unsigned int op;
	int err;

	for (op = h->opcode_base; op < 256; op++) {
		unsigned int adj = op - h->opcode_base;

		addr_adv[op] = (uint64_t)h->min_inst * (adj / h->line_range);
		line_adv[op] = h->line_base + (int)(adj % h->line_range);
	}
#define FILE_INDEX() (file < files->n ? (uint32_t)file : LINE_FILE_NONE)
	while (r.p < r.end) {
		op = *r.p++;
		if (op >= h->opcode_base) {
			addr += addr_adv[op];
			line += (uint64_t)line_adv[op];
			if ((err = rows__add(rs, addr, FILE_INDEX(), line, disc)))
				return err;
			disc = 0;
			continue;
		}
		switch (op) {
		case 0: {
			uint64_t len = rd_uleb(&r);
			const unsigned char *next;

			if (r.bad || !len || len > (uint64_t)(r.end - r.p))
				return -EINVAL;
			next = r.p + len;
			switch (*r.p++) {
			case LNE_end_sequence:
				if ((err = rows__add(rs, addr, LINE_FILE_END, line, 0)))
					return err;
				addr = 0;
				file = 1;
				line = 1;
				disc = 0;
				break;
			case LNE_set_address:
				if (len - 1 != 4 && len - 1 != 8)
					return -EINVAL;
				addr = rd_u(&r, (unsigned int)(len - 1));
				break;
			case LNE_define_file:
				return -EOPNOTSUPP;	/* DWARF 2-4, unused by compilers */
			case LNE_set_discriminator:
				disc = rd_uleb(&r);
				break;
			default:
				break;
			}
			r.p = next;
			break;
		}
		case LNS_copy:
			if ((err = rows__add(rs, addr, FILE_INDEX(), line, disc)))
				return err;
			disc = 0;
			break;
		case LNS_advance_pc:
			addr += (uint64_t)h->min_inst * rd_uleb(&r);
			break;
		case LNS_advance_line:
			line += (uint64_t)rd_sleb(&r);
			break;
		case LNS_set_file:
			file = rd_uleb(&r);
			break;
		case LNS_const_add_pc:
			addr += (uint64_t)h->min_inst * ((255 - h->opcode_base) / h->line_range);
			break;
		case LNS_fixed_advance_pc:
			addr += rd_u(&r, 2);
			break;
		case LNS_negate_stmt:
		case LNS_set_basic_block:
		case LNS_set_prologue_end:
		case LNS_set_epilogue_begin:
			break;
		default: {	/* set_column, set_isa, unknown: skip operands */
			unsigned int i;

			for (i = 0; i < h->std_lens[op - 1]; i++)
				rd_uleb(&r);
			break;
		}
		}
		if (r.bad)
			return -EINVAL;
	}
#undef FILE_INDEX
	return 0;
}

int dwarf_line__read(const struct dwarf_line_secs *secs, uint64_t off, const char *comp_dir,
		     struct dwarf_line_files *files, struct line_row **rows, size_t *nrows,
		     size_t *alloc)
{
	struct rd r;
	struct hdr h;
	struct rows rs;
	size_t n0 = rows ? *nrows : 0;
	int err;

	files->name = NULL;
	files->n = 0;
	if (!secs->line || off >= secs->line_len)
		return -EINVAL;
	r = (struct rd){ secs->line + off, secs->line + secs->line_len, false };
	if ((err = read_header(&r, secs, comp_dir, &h, files)))
		return err;
	if (!rows)
		return 0;
	rs = (struct rows){ *rows, *nrows, *alloc };
	err = run_program(&h, files, &rs);
	*rows = rs.v;
	*nrows = rs.n;
	*alloc = rs.alloc;
	if (err == -EOPNOTSUPP || err == -ENOMEM) {
		*nrows = n0;
		dwarf_line_files__free(files);
		return err;
	}
	if (*nrows > n0)
		rows__mark_last(*rows + n0, *nrows - n0);
	return err;
}

void dwarf_line_files__free(struct dwarf_line_files *files)
{
	free(files->name);
	files->name = NULL;
	files->n = 0;
}

int dwarf_line_secs__from_elf(Elf *elf, struct dwarf_line_secs *secs)
{
	memset(secs, 0, sizeof(*secs));
	if (!elf__le_on_le(elf))
		return -EOPNOTSUPP;
	secs->line = section_bytes(elf, ".debug_line", &secs->line_len);
	secs->line_str = section_bytes(elf, ".debug_line_str", &secs->line_str_len);
	secs->str = section_bytes(elf, ".debug_str", &secs->str_len);
	return secs->line ? 0 : -ENOENT;
}

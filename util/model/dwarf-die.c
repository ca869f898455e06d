// SPDX-License-Identifier: GPL-2.0
/*
 * prf's DIE walker for the function and inline scope indexes (see
 * dwarf-die.h), and the same walks with libdw for what it refuses.
 * Constants from <dwarf.h>; layouts from the DWARF 5 standard (7.5.1
 * unit headers, 7.5.3 abbreviations, 7.5.6 forms, 7.25 range list
 * entries; DWARF 4 2.17.3 for .debug_ranges).
 */
#include "dwarf-die.h"
#include "dwarf-rd.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#define MAX_ABBREV_CODE (1u << 20)	/* larger codes: -EOPNOTSUPP */
#define MAX_NEST 1024			/* DIE nesting walked: -EINVAL beyond */

/* Attributes a walk reads the value of; every other one is skipped. */
enum want_bit {
	WANT_SIBLING = 1, WANT_LOW = 2, WANT_HIGH = 4, WANT_RANGES = 8,
};

struct attr_spec {
	uint32_t name;		/* DW_AT_* */
	uint32_t form;		/* DW_FORM_*, DW_FORM_indirect resolved per DIE */
	int64_t implicit;	/* DW_FORM_implicit_const's value */
};

struct abbrev {
	uint32_t tag;		/* 0: no abbreviation with this code */
	bool children;
	uint8_t want;		/* enum want_bit of its attributes */
	uint32_t first, n;	/* its attributes: attrs[first, first + n) */
	int32_t fixed;		/* bytes of all its attributes when every form
				 * has a fixed size, else -1 */
};

struct dwarf_unit {
	struct dwarf_die_secs s;
	uint64_t start;			/* .debug_info offset of the unit header */
	uint64_t cu_off;		/* the unit DIE */
	uint64_t end;			/* .debug_info offset the unit ends at */
	unsigned int version, osz, asz;
	uint64_t base;			/* base address: unit DIE's low_pc/entry_pc */
	uint64_t addr_base, rnglists_base;
	bool has_addr_base, has_rnglists_base;
	struct abbrev *ab;		/* indexed by code */
	uint32_t nab;
	struct attr_spec *attrs;
};

/* A DIE as a walk sees it. */
struct die {
	uint64_t off;
	const struct abbrev *ab;	/* NULL: the null entry ending a child list */
	uint8_t have;			/* enum want_bit read */
	uint32_t low_form, high_form, ranges_form;
	uint64_t low, high, ranges, sibling;
};

/* Size of form's value when fixed (in this unit), else -1; -2: unknown. */
static int form_fixed_size(const struct dwarf_unit *u, uint32_t form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
	case DW_FORM_strx4: case DW_FORM_addrx4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return (int)u->asz;
	case DW_FORM_ref_addr:
		return (int)(u->version == 2 ? u->asz : u->osz);
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return (int)u->osz;
	case DW_FORM_string: case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4: case DW_FORM_exprloc: case DW_FORM_sdata: case DW_FORM_udata:
	case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx:
	case DW_FORM_rnglistx: case DW_FORM_indirect: case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		return -1;
	default:
		return -2;
	}
}

/*
 * Read one value of form (DW_FORM_indirect resolved here) into *v: the
 * number for constant, reference, offset, index and address forms; 0 for
 * strings and blocks, which are skipped. *form is updated to the form
 * read. 0, -EINVAL, -EOPNOTSUPP.
 */
static int form_read(const struct dwarf_unit *u, struct rd *r, uint32_t *form, int64_t implicit,
		     uint64_t *v)
{
	int size;

	if (*form == DW_FORM_indirect) {
		uint64_t f = rd_uleb(r);

		if (f == DW_FORM_indirect || f == DW_FORM_implicit_const || f > UINT32_MAX)
			return -EINVAL;
		*form = (uint32_t)f;
	}
	*v = 0;
	size = form_fixed_size(u, *form);
	if (size >= 0) {
		if (*form == DW_FORM_implicit_const)
			*v = (uint64_t)implicit;
		else if (*form == DW_FORM_flag_present)
			*v = 1;
		else if (size <= 8)
			*v = rd_u(r, (unsigned int)size);
		else
			rd_skip(r, (uint64_t)size);
	} else if (size == -2) {
		return -EOPNOTSUPP;
	} else {
		switch (*form) {
		case DW_FORM_string:
			rd_str(r);
			break;
		case DW_FORM_block:
		case DW_FORM_exprloc:
			rd_skip(r, rd_uleb(r));
			break;
		case DW_FORM_block1:
			rd_skip(r, rd_u(r, 1));
			break;
		case DW_FORM_block2:
			rd_skip(r, rd_u(r, 2));
			break;
		case DW_FORM_block4:
			rd_skip(r, rd_u(r, 4));
			break;
		case DW_FORM_sdata:
			*v = (uint64_t)rd_sleb(r);
			break;
		default:	/* the LEB128 forms */
			*v = rd_uleb(r);
			break;
		}
	}
	return r->bad ? -EINVAL : 0;
}

static uint8_t attr_want(uint32_t name)
{
	switch (name) {
	case DW_AT_sibling: return WANT_SIBLING;
	case DW_AT_low_pc: return WANT_LOW;
	case DW_AT_high_pc: return WANT_HIGH;
	case DW_AT_ranges: return WANT_RANGES;
	default: return 0;
	}
}

/* Decode the abbreviation table at .debug_abbrev offset off. */
static int unit__read_abbrevs(struct dwarf_unit *u, uint64_t off)
{
	struct rd r;
	size_t nattrs = 0, attrs_alloc = 0;

	if (!u->s.abbrev || off >= u->s.abbrev_len)
		return -EINVAL;
	r = (struct rd){ u->s.abbrev + off, u->s.abbrev + u->s.abbrev_len, false };
	for (;;) {
		uint64_t code = rd_uleb(&r), tag;
		struct abbrev *a;
		bool fixed = true;
		int32_t bytes = 0;

		if (r.bad)
			return -EINVAL;
		if (!code)
			return 0;
		if (code >= MAX_ABBREV_CODE)
			return -EOPNOTSUPP;
		if (code >= u->nab) {
			uint32_t nn = u->nab ? u->nab : 64;
			struct abbrev *na;

			while (nn <= code)
				nn *= 2;
			na = realloc(u->ab, nn * sizeof(*na));
			if (!na)
				return -ENOMEM;
			memset(na + u->nab, 0, (nn - u->nab) * sizeof(*na));
			u->ab = na;
			u->nab = nn;
		}
		a = &u->ab[code];
		tag = rd_uleb(&r);
		if (a->tag || !tag || tag > UINT32_MAX)	/* a code given twice: malformed */
			return -EINVAL;
		a->tag = (uint32_t)tag;
		a->children = rd_u(&r, 1) != 0;
		a->first = (uint32_t)nattrs;
		for (;;) {
			uint64_t name = rd_uleb(&r), form = rd_uleb(&r);
			int64_t implicit = 0;
			int size;

			if (r.bad)
				return -EINVAL;
			if (!name && !form)
				break;
			if (name > UINT32_MAX || form > UINT32_MAX)
				return -EINVAL;
			if (form == DW_FORM_implicit_const)
				implicit = rd_sleb(&r);
			if (nattrs == attrs_alloc) {
				size_t na = attrs_alloc ? 2 * attrs_alloc : 256;
				struct attr_spec *ns = realloc(u->attrs, na * sizeof(*ns));

				if (!ns)
					return -ENOMEM;
				u->attrs = ns;
				attrs_alloc = na;
			}
			u->attrs[nattrs++] = (struct attr_spec){ (uint32_t)name, (uint32_t)form,
								 implicit };
			a->want |= attr_want((uint32_t)name);
			size = form_fixed_size(u, (uint32_t)form);
			if (size == -2)
				return -EOPNOTSUPP;
			if (size < 0)
				fixed = false;
			else
				bytes += size;
		}
		a->n = (uint32_t)(nattrs - a->first);
		a->fixed = fixed ? bytes : -1;
	}
}

/*
 * Read the DIE at r->p into *d (r left after its attributes). The end of
 * the unit reads as a null entry, as libdw reads it. 0, -EINVAL,
 * -EOPNOTSUPP.
 */
static int die_read(const struct dwarf_unit *u, struct rd *r, struct die *d)
{
	const struct abbrev *a;
	uint64_t code;

	d->off = (uint64_t)(r->p - u->s.info);
	d->ab = NULL;
	d->have = 0;
	if (d->off >= u->end)
		return 0;
	code = rd_uleb(r);
	if (r->bad)
		return -EINVAL;
	if (!code)
		return 0;
	if (code >= u->nab || !u->ab[code].tag)
		return -EINVAL;
	a = d->ab = &u->ab[code];
	if (!a->want && a->fixed >= 0) {
		rd_skip(r, (uint64_t)a->fixed);
		return r->bad ? -EINVAL : 0;
	}
	for (uint32_t i = 0; i < a->n; i++) {
		const struct attr_spec *as = &u->attrs[a->first + i];
		uint32_t form = as->form;
		uint64_t v;
		int err = form_read(u, r, &form, as->implicit, &v);

		if (err)
			return err;
		switch (as->name) {
		case DW_AT_sibling:
			/* a reference within the unit (libdw follows no other) */
			if (form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4 ||
			    form == DW_FORM_ref8 || form == DW_FORM_ref_udata) {
				d->sibling = v;
				d->have |= WANT_SIBLING;
			}
			break;
		case DW_AT_low_pc:
			d->low = v;
			d->low_form = form;
			d->have |= WANT_LOW;
			break;
		case DW_AT_high_pc:
			d->high = v;
			d->high_form = form;
			d->have |= WANT_HIGH;
			break;
		case DW_AT_ranges:
			d->ranges = v;
			d->ranges_form = form;
			d->have |= WANT_RANGES;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* Entry idx of the unit's .debug_addr table. 0, -EINVAL, -EOPNOTSUPP. */
static int unit__addrx(const struct dwarf_unit *u, uint64_t idx, uint64_t *addr)
{
	uint64_t off;
	struct rd r;

	if (!u->has_addr_base || !u->s.addr)
		return -EOPNOTSUPP;
	if (idx > (UINT64_MAX - u->addr_base) / u->asz)
		return -EINVAL;
	off = u->addr_base + idx * u->asz;
	if (off >= u->s.addr_len)
		return -EINVAL;
	r = (struct rd){ u->s.addr + off, u->s.addr + u->s.addr_len, false };
	*addr = rd_u(&r, u->asz);
	return r.bad ? -EINVAL : 0;
}

/* An attribute value of address class (DW_FORM_addr, DW_FORM_addrx*).
 * 0, -ENOENT (another class), -EINVAL, -EOPNOTSUPP. */
static int unit__address(const struct dwarf_unit *u, uint32_t form, uint64_t v, uint64_t *addr)
{
	switch (form) {
	case DW_FORM_addr:
		*addr = v;
		return 0;
	case DW_FORM_addrx: case DW_FORM_addrx1: case DW_FORM_addrx2: case DW_FORM_addrx3:
	case DW_FORM_addrx4:
		return unit__addrx(u, v, addr);
	case DW_FORM_GNU_addr_index:
		return -EOPNOTSUPP;
	default:
		return -ENOENT;
	}
}

static bool form_is_constant(uint32_t form)
{
	switch (form) {
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4: case DW_FORM_data8:
	case DW_FORM_udata: case DW_FORM_sdata: case DW_FORM_implicit_const:
		return true;
	default:
		return false;
	}
}

/* DWARF 5 .debug_rnglists list at off (2.17.3, 7.25). */
static int unit__rnglist(const struct dwarf_unit *u, uint64_t off, const struct die *d,
			 unsigned int depth, uint64_t parent, dwarf_range_cb_t cb, void *arg)
{
	uint64_t base = u->base, a, b;
	struct rd r;
	int err;

	if (!u->s.rnglists || off >= u->s.rnglists_len)
		return -EINVAL;
	r = (struct rd){ u->s.rnglists + off, u->s.rnglists + u->s.rnglists_len, false };
	for (;;) {
		unsigned int kind = (unsigned int)rd_u(&r, 1);

		err = 0;
		switch (kind) {
		case DW_RLE_end_of_list:
			return r.bad ? -EINVAL : 0;
		case DW_RLE_base_addressx:
		case DW_RLE_base_address:
			if (kind == DW_RLE_base_address)
				base = rd_u(&r, u->asz);
			else
				err = unit__addrx(u, rd_uleb(&r), &base);
			if (err || r.bad)
				return err ? err : -EINVAL;
			continue;
		case DW_RLE_startx_endx:
			a = rd_uleb(&r);
			b = rd_uleb(&r);
			if (!r.bad && !(err = unit__addrx(u, a, &a)))
				err = unit__addrx(u, b, &b);
			break;
		case DW_RLE_startx_length:
			a = rd_uleb(&r);
			b = rd_uleb(&r);
			if (!r.bad && !(err = unit__addrx(u, a, &a)))
				b += a;
			break;
		case DW_RLE_offset_pair:
			a = base + rd_uleb(&r);
			b = base + rd_uleb(&r);
			break;
		case DW_RLE_start_end:
			a = rd_u(&r, u->asz);
			b = rd_u(&r, u->asz);
			break;
		case DW_RLE_start_length:
			a = rd_u(&r, u->asz);
			b = a + rd_uleb(&r);
			break;
		default:
			return -EINVAL;
		}
		if (err || r.bad)
			return err ? err : -EINVAL;
		if ((err = cb(arg, depth, d->off, parent, a, b)))
			return err;
	}
}

/* DWARF 2-4 .debug_ranges list at off (DWARF 4 section 2.17.3). */
static int unit__ranges_v4(const struct dwarf_unit *u, uint64_t off, const struct die *d,
			   unsigned int depth, uint64_t parent, dwarf_range_cb_t cb, void *arg)
{
	uint64_t base = u->base, max = u->asz == 8 ? UINT64_MAX : UINT32_MAX;
	struct rd r;
	int err;

	if (!u->s.ranges || off >= u->s.ranges_len)
		return -EINVAL;
	r = (struct rd){ u->s.ranges + off, u->s.ranges + u->s.ranges_len, false };
	for (;;) {
		uint64_t a = rd_u(&r, u->asz), b = rd_u(&r, u->asz);

		if (r.bad)
			return -EINVAL;
		if (!a && !b)
			return 0;
		if (a == max) {		/* base address selection */
			base = b;
			continue;
		}
		if ((err = cb(arg, depth, d->off, parent, base + a, base + b)))
			return err;
	}
}

/* The ranges of d, as dwarf_ranges() gives them: low_pc/high_pc when
 * both are there, else DW_AT_ranges' list, else none. */
static int die_ranges(const struct dwarf_unit *u, const struct die *d, unsigned int depth,
		      uint64_t parent, dwarf_range_cb_t cb, void *arg)
{
	uint64_t lo, hi, off;
	int err;

	if ((d->have & (WANT_LOW | WANT_HIGH)) == (WANT_LOW | WANT_HIGH)) {
		err = unit__address(u, d->low_form, d->low, &lo);
		if (!err) {
			if (form_is_constant(d->high_form)) {
				hi = lo + d->high;
			} else {
				err = unit__address(u, d->high_form, d->high, &hi);
			}
		}
		if (!err)
			return cb(arg, depth, d->off, parent, lo, hi);
		if (err != -ENOENT)
			return err;
	}
	if (!(d->have & WANT_RANGES))
		return 0;
	switch (d->ranges_form) {
	case DW_FORM_sec_offset:
	case DW_FORM_data4:
	case DW_FORM_data8:
		off = d->ranges;
		break;
	case DW_FORM_rnglistx: {
		struct rd r;

		if (!u->has_rnglists_base || !u->s.rnglists)
			return -EOPNOTSUPP;
		if (d->ranges > (UINT64_MAX - u->rnglists_base) / u->osz ||
		    u->rnglists_base + d->ranges * u->osz >= u->s.rnglists_len)
			return -EINVAL;
		r = (struct rd){ u->s.rnglists + u->rnglists_base + d->ranges * u->osz,
				 u->s.rnglists + u->s.rnglists_len, false };
		off = u->rnglists_base + rd_u(&r, u->osz);
		if (r.bad)
			return -EINVAL;
		break;
	}
	default:
		return 0;	/* not a range list reference: none, as libdw */
	}
	return u->version >= 5 ? unit__rnglist(u, off, d, depth, parent, cb, arg) :
				 unit__ranges_v4(u, off, d, depth, parent, cb, arg);
}

/* Jump r to the sibling of d (a DIE with children). */
static int die_to_sibling(const struct dwarf_unit *u, struct rd *r, const struct die *d)
{
	/* references are from the unit header; libdw takes none backwards */
	if (d->sibling >= u->end - u->start || u->start + d->sibling <= d->off)
		return -EINVAL;
	r->p = u->s.info + u->start + d->sibling;
	return 0;
}

/* Skip the children of d (a DIE with children; r after its attributes). */
static int die_skip_children(const struct dwarf_unit *u, struct rd *r, const struct die *d)
{
	unsigned int level = 1;
	struct die c;
	int err;

	if (d->have & WANT_SIBLING)
		return die_to_sibling(u, r, d);
	while (level) {
		if ((err = die_read(u, r, &c)))
			return err;
		if (!c.ab) {
			if (c.off >= u->end)
				return 0;
			level--;
		} else if (c.ab->children) {
			if (c.have & WANT_SIBLING) {
				if ((err = die_to_sibling(u, r, &c)))
					return err;
			} else if (++level > MAX_NEST) {
				return -EINVAL;
			}
		}
	}
	return 0;
}

int dwarf_unit__new(const struct dwarf_die_secs *secs, uint64_t cu_off, unsigned int offset_size,
		    struct dwarf_unit **up)
{
	struct dwarf_unit *u;
	uint64_t hdr, len, abbrev_off = 0, low = 0, entry = 0;
	uint32_t low_form = 0, entry_form = 0;
	bool has_low = false, has_entry = false;
	struct rd r;
	int err = -EINVAL;

	*up = NULL;
	if (offset_size != 4 && offset_size != 8)
		return -EOPNOTSUPP;
	if (!secs->info || !secs->abbrev || cu_off >= secs->info_len)
		return -EINVAL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->s = *secs;
	u->cu_off = cu_off;
	u->osz = offset_size;
	/* the header: DWARF 5 has a unit type byte the others have not */
	for (unsigned int v5 = 0; v5 < 2; v5++) {
		unsigned int hsize = (offset_size == 8 ? 12 : 4) + 2 + offset_size + 1 + v5;

		if (cu_off < hsize)
			continue;
		hdr = cu_off - hsize;
		r = (struct rd){ secs->info + hdr, secs->info + secs->info_len, false };
		len = rd_u(&r, 4);
		if (offset_size == 8) {
			if (len != 0xffffffff)
				continue;
			len = rd_u(&r, 8);
		} else if (len >= 0xfffffff0) {
			continue;
		}
		u->version = (unsigned int)rd_u(&r, 2);
		if (r.bad || (v5 ? u->version != 5 : (u->version < 2 || u->version > 4)))
			continue;
		if (v5) {
			unsigned int type = (unsigned int)rd_u(&r, 1);

			if (type != DW_UT_compile && type != DW_UT_partial) {
				err = -EOPNOTSUPP;
				goto out;
			}
			u->asz = (unsigned int)rd_u(&r, 1);
			abbrev_off = rd_u(&r, offset_size);
		} else {
			abbrev_off = rd_u(&r, offset_size);
			u->asz = (unsigned int)rd_u(&r, 1);
		}
		if (r.bad || len > secs->info_len - (hdr + (offset_size == 8 ? 12 : 4)))
			goto out;
		u->start = hdr;
		u->end = hdr + (offset_size == 8 ? 12 : 4) + len;
		if (u->end <= cu_off)
			goto out;
		if (u->asz != 4 && u->asz != 8) {
			err = -EOPNOTSUPP;
			goto out;
		}
		break;
	}
	if (!u->end)
		goto out;
	if ((err = unit__read_abbrevs(u, abbrev_off)))
		goto out;
	/* the unit DIE: base address and table bases */
	r = (struct rd){ secs->info + cu_off, secs->info + u->end, false };
	{
		uint64_t code = rd_uleb(&r);
		const struct abbrev *a;

		err = -EINVAL;
		if (r.bad || !code || code >= u->nab || !u->ab[code].tag)
			goto out;
		a = &u->ab[code];
		for (uint32_t i = 0; i < a->n; i++) {
			const struct attr_spec *as = &u->attrs[a->first + i];
			uint32_t form = as->form;
			uint64_t v;

			if ((err = form_read(u, &r, &form, as->implicit, &v)))
				goto out;
			switch (as->name) {
			case DW_AT_low_pc:
				low = v, low_form = form, has_low = true;
				break;
			case DW_AT_entry_pc:
				entry = v, entry_form = form, has_entry = true;
				break;
			case DW_AT_addr_base:
				u->addr_base = v, u->has_addr_base = true;
				break;
			case DW_AT_rnglists_base:
				u->rnglists_base = v, u->has_rnglists_base = true;
				break;
			case DW_AT_GNU_addr_base:
			case DW_AT_GNU_ranges_base:
				err = -EOPNOTSUPP;	/* split DWARF 4 */
				goto out;
			default:
				break;
			}
		}
	}
	/* libdw's unit base: DW_AT_low_pc, else DW_AT_entry_pc, else 0 */
	err = has_low ? unit__address(u, low_form, low, &u->base) : -ENOENT;
	if (err == -ENOENT && has_entry)
		err = unit__address(u, entry_form, entry, &u->base);
	if (err == -ENOENT) {
		u->base = 0;
		err = 0;
	}
	if (err)
		goto out;
	*up = u;
	return 0;
out:
	dwarf_unit__delete(u);
	return err;
}

void dwarf_unit__delete(struct dwarf_unit *u)
{
	if (!u)
		return;
	free(u->ab);
	free(u->attrs);
	free(u);
}

/* Position r at the DIE at off of the unit and read it. */
static int unit__die_at(const struct dwarf_unit *u, uint64_t off, struct rd *r, struct die *d)
{
	if (off < u->cu_off || off >= u->end)
		return -EINVAL;
	*r = (struct rd){ u->s.info + off, u->s.info + u->end, false };
	return die_read(u, r, d);
}

/* The child list at r (of the unit DIE or a container), for funcs. */
static int funcs_walk(const struct dwarf_unit *u, struct rd *r, unsigned int nest,
		      dwarf_range_cb_t cb, void *arg)
{
	struct die c;
	int err;

	if (nest > MAX_NEST)
		return -EINVAL;
	for (;;) {
		if ((err = die_read(u, r, &c)))
			return err;
		if (!c.ab)
			return 0;
		switch (c.ab->tag) {
		case DW_TAG_subprogram:
			if ((err = die_ranges(u, &c, 0, u->cu_off, cb, arg)))
				return err;
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			if (c.ab->children && (err = funcs_walk(u, r, nest + 1, cb, arg)))
				return err;
			continue;
		default:
			break;
		}
		if (c.ab->children && (err = die_skip_children(u, r, &c)))
			return err;
	}
}

int dwarf_unit__funcs(struct dwarf_unit *u, dwarf_range_cb_t cb, void *arg)
{
	struct rd r;
	struct die d;
	int err = unit__die_at(u, u->cu_off, &r, &d);

	if (err || !d.ab || !d.ab->children)
		return err;
	return funcs_walk(u, &r, 0, cb, arg);
}

/* The child list at r of a scope parent (DIE parent), for scopes. */
static int scopes_walk(const struct dwarf_unit *u, struct rd *r, uint64_t parent,
		       unsigned int depth, unsigned int max_depth, unsigned int nest,
		       dwarf_range_cb_t cb, void *arg)
{
	struct die c;
	int err;

	if (nest > MAX_NEST)
		return -EINVAL;
	for (;;) {
		if ((err = die_read(u, r, &c)))
			return err;
		if (!c.ab)
			return 0;
		if (c.ab->tag == DW_TAG_lexical_block) {
			if (c.ab->children &&
			    (err = scopes_walk(u, r, parent, depth, max_depth, nest + 1, cb, arg)))
				return err;
			continue;
		}
		if ((c.ab->tag == DW_TAG_inlined_subroutine || c.ab->tag == DW_TAG_subprogram) &&
		    depth < max_depth) {
			if ((err = die_ranges(u, &c, depth, parent, cb, arg)))
				return err;
			if (c.ab->children &&
			    (err = scopes_walk(u, r, c.off, depth + 1, max_depth, nest + 1, cb, arg)))
				return err;
			continue;
		}
		if (c.ab->children && (err = die_skip_children(u, r, &c)))
			return err;
	}
}

int dwarf_unit__scopes(struct dwarf_unit *u, uint64_t func_off, unsigned int max_depth,
		       dwarf_range_cb_t cb, void *arg)
{
	struct rd r;
	struct die d;
	int err = unit__die_at(u, func_off, &r, &d);

	if (err)
		return err;
	if (!d.ab)
		return -EINVAL;
	if (!d.ab->children)
		return 0;
	return scopes_walk(u, &r, func_off, 0, max_depth, 0, cb, arg);
}

int dwarf_die_secs__from_elf(Elf *elf, struct dwarf_die_secs *secs)
{
	memset(secs, 0, sizeof(*secs));
	if (!elf__le_on_le(elf))
		return -EOPNOTSUPP;
	secs->info = section_bytes(elf, ".debug_info", &secs->info_len);
	secs->abbrev = section_bytes(elf, ".debug_abbrev", &secs->abbrev_len);
	secs->ranges = section_bytes(elf, ".debug_ranges", &secs->ranges_len);
	secs->rnglists = section_bytes(elf, ".debug_rnglists", &secs->rnglists_len);
	secs->addr = section_bytes(elf, ".debug_addr", &secs->addr_len);
	return secs->info && secs->abbrev ? 0 : -ENOENT;
}

/* ---- the same walks with libdw ---- */

static int libdw_ranges(Dwarf_Die *die, unsigned int depth, uint64_t parent,
			dwarf_range_cb_t cb, void *arg)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int err;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if ((err = cb(arg, depth, dwarf_dieoffset(die), parent, lo, hi)))
			return err;
	return 0;
}

static int libdw_funcs(Dwarf_Die *parent, uint64_t cu_off, unsigned int nest,
		       dwarf_range_cb_t cb, void *arg)
{
	Dwarf_Die child;
	int err;

	if (nest > MAX_NEST)
		return -EINVAL;
	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			if ((err = libdw_ranges(&child, 0, cu_off, cb, arg)))
				return err;
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			if ((err = libdw_funcs(&child, cu_off, nest + 1, cb, arg)))
				return err;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int dwarf_die__funcs_libdw(Dwarf *dw, uint64_t cu_off, dwarf_range_cb_t cb, void *arg)
{
	Dwarf_Die cudie;

	if (!dwarf_offdie(dw, cu_off, &cudie))
		return -EINVAL;
	return libdw_funcs(&cudie, cu_off, 0, cb, arg);
}

static int libdw_scopes(Dwarf_Die *parent, uint64_t parent_off, unsigned int depth,
			unsigned int max_depth, unsigned int nest, dwarf_range_cb_t cb, void *arg)
{
	Dwarf_Die child;
	int err;

	if (nest > MAX_NEST)
		return -EINVAL;
	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		uint64_t off;

		if (tag == DW_TAG_lexical_block) {
			if ((err = libdw_scopes(&child, parent_off, depth, max_depth, nest + 1, cb,
						arg)))
				return err;
			continue;
		}
		if ((tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) ||
		    depth >= max_depth)
			continue;
		off = dwarf_dieoffset(&child);
		if ((err = libdw_ranges(&child, depth, parent_off, cb, arg)) ||
		    (err = libdw_scopes(&child, off, depth + 1, max_depth, nest + 1, cb, arg)))
			return err;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int dwarf_die__scopes_libdw(Dwarf *dw, uint64_t func_off, unsigned int max_depth,
			    dwarf_range_cb_t cb, void *arg)
{
	Dwarf_Die func;

	if (!dwarf_offdie(dw, func_off, &func))
		return -EINVAL;
	return libdw_scopes(&func, func_off, 0, max_depth, 0, cb, arg);
}

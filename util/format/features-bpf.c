// SPDX-License-Identifier: GPL-2.0
/*
 * HEADER_BPF_PROG_INFO and HEADER_BPF_BTF printed as perf 6.1's --header
 * prints them. Layouts (perf's header sections, the kernel's uapi):
 *
 *   BPF_PROG_INFO: u32 nr, then per program u32 info_len, u32 data_len,
 *     u64 arrays (bit mask of the arrays kept), info_len bytes of struct
 *     bpf_prog_info whose array fields (jited_ksyms, ...) hold offsets into
 *     the data_len bytes that follow.
 *   BPF_BTF: u32 nr, then per object u32 id, u32 size, size bytes of BTF
 *     (struct btf_header, the type section, the string section).
 *
 * Both sections are read as they are in the file (in its byte order:
 * a byte-swapped file prints nothing).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include "features-bpf.h"
#include "data.h"
#include "header.h"
#include "../lib/util.h"

struct bpf_prog_entry {
	struct bpf_prog_info info;	/* zero past the file's info_len */
	const unsigned char *data;	/* the arrays */
	uint32_t data_len;
};

struct bpf_btf_entry {
	uint32_t id, size;
	const unsigned char *data;
};

static int rd_u32(const unsigned char **p, const unsigned char *end, uint32_t *v)
{
	if (end - *p < 4)
		return -1;
	memcpy(v, *p, 4);
	*p += 4;
	return 0;
}

/* The section's BTF objects (an array the caller frees), in file order. */
static struct bpf_btf_entry *read_btfs(struct perf_data *d, uint32_t *nr)
{
	const void *buf;
	size_t len;
	const unsigned char *p, *end;
	struct bpf_btf_entry *e;
	uint32_t n, i;

	*nr = 0;
	if (d->needs_swap || perf_data__feature_raw(d, HEADER_BPF_BTF, &buf, &len))
		return NULL;
	p = buf;
	end = p + len;
	if (rd_u32(&p, end, &n) || n > len / 8)
		return NULL;
	e = calloc(n ? n : 1, sizeof(*e));
	if (!e)
		return NULL;
	for (i = 0; i < n; i++) {
		if (rd_u32(&p, end, &e[i].id) || rd_u32(&p, end, &e[i].size) ||
		    (size_t)(end - p) < e[i].size)
			break;
		e[i].data = p;
		p += e[i].size;
	}
	*nr = i;
	return e;
}

/* Bytes a BTF type record takes after its struct btf_type (by kind, the
 * uapi's layouts); -1 for a kind not known. */
static long btf_type_extra(uint32_t info)
{
	uint32_t vlen = BTF_INFO_VLEN(info);

	switch (BTF_INFO_KIND(info)) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return (long)sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return (long)vlen * (long)sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * (long)sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * (long)sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * (long)sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return (long)vlen * 12;
	default:
		return -1;
	}
}

/* Name of type id type_id (ids count from 1) of one BTF object, NULL
 * when the object does not describe it. */
static const char *btf_type_name(const struct bpf_btf_entry *b, uint32_t type_id)
{
	struct btf_header h;
	const unsigned char *t, *tend, *str;
	uint32_t id = 1;

	if (b->size < sizeof(h))
		return NULL;
	memcpy(&h, b->data, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len > b->size ||
	    (uint64_t)h.hdr_len + h.type_off + h.type_len > b->size ||
	    (uint64_t)h.hdr_len + h.str_off + h.str_len > b->size || !h.str_len)
		return NULL;
	t = b->data + h.hdr_len + h.type_off;
	tend = t + h.type_len;
	str = b->data + h.hdr_len + h.str_off;
	while (tend - t >= (long)sizeof(struct btf_type)) {
		struct btf_type bt;
		long extra;

		memcpy(&bt, t, sizeof(bt));
		if (id == type_id) {
			if (bt.name_off >= h.str_len || !memchr(str + bt.name_off, '\0',
								   h.str_len - bt.name_off))
				return NULL;
			return (const char *)str + bt.name_off;
		}
		extra = btf_type_extra(bt.info);
		if (extra < 0 || extra > tend - t - (long)sizeof(bt))
			return NULL;
		t += sizeof(bt) + (size_t)extra;
		id++;
	}
	return NULL;
}

/* The bytes of an array field (an offset into the data) for nr elements
 * of size each, or NULL when they lie outside. */
static const unsigned char *prog_array(const struct bpf_prog_entry *e, uint64_t off,
				       uint64_t nr, uint64_t size)
{
	if (off > e->data_len || nr * size > e->data_len - off)
		return NULL;
	return e->data + off;
}

/* "bpf_prog_TAG[_NAME]" of function sub of a program, perf's naming. */
static void prog_name(char *buf, size_t size, const struct bpf_prog_entry *e, uint32_t sub,
		      const unsigned char *tags, const struct bpf_btf_entry *btf)
{
	const char *name = NULL;
	int n = snprintf(buf, size, "bpf_prog_");

	for (int i = 0; i < BPF_TAG_SIZE && n > 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%02x", tags[sub * BPF_TAG_SIZE + i]);
	if (btf) {
		const unsigned char *fi = prog_array(e, e->info.func_info, (uint64_t)sub + 1,
						     e->info.func_info_rec_size);
		struct bpf_func_info f;

		if (fi && e->info.func_info_rec_size >= sizeof(f)) {
			memcpy(&f, fi + (size_t)sub * e->info.func_info_rec_size, sizeof(f));
			name = btf_type_name(btf, f.type_id);
		}
	} else if (e->info.nr_jited_ksyms == 1) {
		if (e->info.name[0])
			name = e->info.name;
	} else {
		name = "F";
	}
	if (name && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "_%s", name);
}

static void print_prog(FILE *fp, const struct bpf_prog_entry *e, const struct bpf_btf_entry *btfs,
		       uint32_t nr_btf)
{
	uint32_t nr = e->info.nr_jited_ksyms;
	const unsigned char *addrs, *lens, *tags;
	const struct bpf_btf_entry *btf = NULL;
	char name[512];

	if (nr != e->info.nr_prog_tags || nr != e->info.nr_jited_func_lens || !nr)
		return;
	addrs = prog_array(e, e->info.jited_ksyms, nr, 8);
	lens = prog_array(e, e->info.jited_func_lens, nr, 4);
	tags = prog_array(e, e->info.prog_tags, nr, BPF_TAG_SIZE);
	if (!addrs || !lens || !tags)
		return;
	for (uint32_t i = 0; e->info.btf_id && i < nr_btf; i++)
		if (btfs[i].id == e->info.btf_id)
			btf = &btfs[i];
	if (nr > 1)
		fprintf(fp, "# bpf_prog_info %u:\n", e->info.id);
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t addr;
		uint32_t len;

		memcpy(&addr, addrs + (size_t)i * 8, 8);
		memcpy(&len, lens + (size_t)i * 4, 4);
		prog_name(name, sizeof(name), e, i, tags, btf);
		if (nr == 1)
			fprintf(fp, "# bpf_prog_info %u: %s addr 0x%llx size %u\n", e->info.id, name,
				(unsigned long long)addr, len);
		else
			fprintf(fp, "# \tsub_prog %u: %s addr 0x%llx size %u\n", i, name,
				(unsigned long long)addr, len);
	}
}

static int prog_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct bpf_prog_entry *)a)->info.id;
	uint32_t y = ((const struct bpf_prog_entry *)b)->info.id;

	return x < y ? -1 : x > y;
}

void perf_data__fprintf_bpf_prog_info(struct perf_data *d, FILE *fp)
{
	const void *buf;
	size_t len;
	const unsigned char *p, *end;
	struct bpf_prog_entry *e;
	struct bpf_btf_entry *btfs;
	uint32_t n, i, nr_btf;

	if (d->needs_swap || perf_data__feature_raw(d, HEADER_BPF_PROG_INFO, &buf, &len))
		return;
	p = buf;
	end = p + len;
	if (rd_u32(&p, end, &n) || n > len / 16)
		return;
	e = calloc(n ? n : 1, sizeof(*e));
	if (!e)
		return;
	for (i = 0; i < n; i++) {
		uint32_t info_len, data_len;

		if (rd_u32(&p, end, &info_len) || rd_u32(&p, end, &data_len) ||
		    (uint64_t)(end - p) < 8 + (uint64_t)info_len + data_len)
			break;
		p += 8;		/* the arrays' mask: the offsets say enough */
		memcpy(&e[i].info, p, info_len < sizeof(e[i].info) ? info_len : sizeof(e[i].info));
		e[i].info.name[sizeof(e[i].info.name) - 1] = '\0';
		p += info_len;
		e[i].data = p;
		e[i].data_len = data_len;
		p += data_len;
	}
	n = i;
	/* by id, each id once, as perf keeps them */
	qsort(e, n, sizeof(*e), prog_cmp);
	btfs = read_btfs(d, &nr_btf);
	for (i = 0; i < n; i++)
		if (!i || e[i].info.id != e[i - 1].info.id)
			print_prog(fp, &e[i], btfs, nr_btf);
	free(btfs);
	free(e);
}

static int btf_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct bpf_btf_entry *)a)->id, y = ((const struct bpf_btf_entry *)b)->id;

	return x < y ? -1 : x > y;
}

void perf_data__fprintf_bpf_btf(struct perf_data *d, FILE *fp)
{
	uint32_t nr, i;
	struct bpf_btf_entry *b = read_btfs(d, &nr);

	if (!b)
		return;
	qsort(b, nr, sizeof(*b), btf_cmp);
	for (i = 0; i < nr; i++)
		if (!i || b[i].id != b[i - 1].id)
			fprintf(fp, "# btf info of id %u\n", b[i].id);
	free(b);
}

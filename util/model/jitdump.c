// SPDX-License-Identifier: GPL-2.0
/* jitdump files: reader and JIT symbols; see jitdump.h. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "jitdump.h"
#include "dso.h"

#define JITDUMP_MAGIC	0x4A695444U	/* "JiTD" as a u32 of the writer's order */
#define JITDUMP_HDR_SIZE 40		/* the header's fixed part */
#define JITDUMP_REC_HDR	16		/* id, total_size, timestamp */

struct jcur {
	const uint8_t *p, *end;
	bool swap;
};

static bool jcur_u32(struct jcur *c, uint32_t *v)
{
	if ((size_t)(c->end - c->p) < 4)
		return false;
	memcpy(v, c->p, 4);
	if (c->swap)
		*v = __builtin_bswap32(*v);
	c->p += 4;
	return true;
}

static bool jcur_u64(struct jcur *c, uint64_t *v)
{
	if ((size_t)(c->end - c->p) < 8)
		return false;
	memcpy(v, c->p, 8);
	if (c->swap)
		*v = __builtin_bswap64(*v);
	c->p += 8;
	return true;
}

/* A NUL-terminated string inside the cursor's range; NULL when none. */
static const char *jcur_str(struct jcur *c)
{
	const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul)
		return NULL;
	c->p = nul + 1;
	return s;
}

/* The fields of one record body (cursor over the record after its header). */
static int jitdump__parse_rec(struct jcur *c, struct jitdump_rec *r)
{
	switch (r->id) {
	case JITDUMP_CODE_LOAD:
		if (!jcur_u32(c, &r->pid) || !jcur_u32(c, &r->tid) || !jcur_u64(c, &r->vma) ||
		    !jcur_u64(c, &r->code_addr) || !jcur_u64(c, &r->code_size) ||
		    !jcur_u64(c, &r->code_index))
			return -EINVAL;
		r->name = jcur_str(c);
		if (!r->name || r->code_size > (uint64_t)(c->end - c->p))
			return -EINVAL;
		r->code = c->p;
		return 0;
	case JITDUMP_CODE_MOVE:
		if (!jcur_u32(c, &r->pid) || !jcur_u32(c, &r->tid) || !jcur_u64(c, &r->vma) ||
		    !jcur_u64(c, &r->old_code_addr) || !jcur_u64(c, &r->code_addr) ||
		    !jcur_u64(c, &r->code_size) || !jcur_u64(c, &r->code_index))
			return -EINVAL;
		return 0;
	case JITDUMP_CODE_DEBUG_INFO:
		if (!jcur_u64(c, &r->code_addr) || !jcur_u64(c, &r->nr_lines))
			return -EINVAL;
		/* an entry takes at least 18 bytes (addr, line, discrim, "") */
		if (r->nr_lines > (uint64_t)(c->end - c->p) / 18)
			return -EINVAL;
		r->lines = c->p;
		r->lines_end = c->end;
		return 0;
	case JITDUMP_CODE_UNWINDING_INFO:
		if (!jcur_u64(c, &r->unwind_size) || !jcur_u64(c, &r->eh_frame_hdr_size) ||
		    !jcur_u64(c, &r->mapped_size))
			return -EINVAL;
		if (r->unwind_size > (uint64_t)(c->end - c->p) ||
		    r->eh_frame_hdr_size > r->unwind_size)
			return -EINVAL;
		r->unwind = c->p;
		return 0;
	default:		/* CODE_CLOSE and ids of later versions */
		return 0;
	}
}

int jitdump__walk(const void *buf, size_t size, struct jitdump_header *hdr,
		  int (*cb)(void *arg, const struct jitdump_rec *rec), void *arg)
{
	struct jcur c = { .p = buf, .end = (const uint8_t *)buf + size };
	struct jitdump_header h;
	uint32_t magic, hsize, pad;
	const uint8_t *p;

	memset(&h, 0, sizeof(h));
	if (size < JITDUMP_HDR_SIZE)
		return -EINVAL;
	memcpy(&magic, buf, 4);
	if (magic == __builtin_bswap32(JITDUMP_MAGIC))
		h.swap = true;
	else if (magic != JITDUMP_MAGIC)
		return -EINVAL;
	c.swap = h.swap;
	c.p += 4;
	if (!jcur_u32(&c, &h.version) || !jcur_u32(&c, &hsize) || !jcur_u32(&c, &h.elf_mach) ||
	    !jcur_u32(&c, &pad) || !jcur_u32(&c, &h.pid) || !jcur_u64(&c, &h.timestamp) ||
	    !jcur_u64(&c, &h.flags))
		return -EINVAL;
	if (hsize < JITDUMP_HDR_SIZE || hsize > size)
		return -EINVAL;
	if (hdr)
		*hdr = h;
	p = (const uint8_t *)buf + hsize;
	while ((size_t)(c.end - p) >= JITDUMP_REC_HDR) {
		struct jcur rc = { .p = p, .end = c.end, .swap = h.swap };
		struct jitdump_rec r;
		uint32_t total = 0;
		int ret;

		memset(&r, 0, sizeof(r));
		jcur_u32(&rc, &r.id);
		jcur_u32(&rc, &total);
		jcur_u64(&rc, &r.timestamp);
		if (total < JITDUMP_REC_HDR)
			return -EINVAL;
		if (total > (size_t)(c.end - p))
			return 0;	/* the last record, cut short */
		rc.end = p + total;
		r.swap = h.swap;
		ret = jitdump__parse_rec(&rc, &r);
		if (ret)
			return ret;
		ret = cb(arg, &r);
		if (ret)
			return ret;
		p += total;
	}
	return 0;
}

int jitdump__next_line(const struct jitdump_rec *rec, const uint8_t **pos,
		       const char *prev_file, struct jitdump_line *out)
{
	struct jcur c = { .p = *pos, .end = rec->lines_end, .swap = rec->swap };

	if (c.p >= c.end)
		return 0;
	if (!jcur_u64(&c, &out->addr) || !jcur_u32(&c, &out->line) || !jcur_u32(&c, &out->discrim))
		return -EINVAL;
	if ((size_t)(c.end - c.p) >= 2 && c.p[0] == 0xff && c.p[1] == 0) {
		out->file = prev_file ? prev_file : "";
		c.p += 2;
	} else {
		out->file = jcur_str(&c);
		if (!out->file)
			return -EINVAL;
	}
	*pos = c.p;
	return 1;
}

bool jitdump__is_dump_name(const char *path, int *pid)
{
	const char *base = strrchr(path, '/');
	char tail[8];
	int n = 0;

	base = base ? base + 1 : path;
	if (strncmp(base, "jit-", 4))
		return false;	/* most names: no scanning */
	if (sscanf(base, "jit-%d.%7s%n", pid, tail, &n) != 2 || base[n] || strcmp(tail, "dump"))
		return false;
	return *pid > 0;
}

int jitdump__find(const char *recorded, int pid, char *buf, size_t size)
{
	char pattern[4096];
	glob_t g;
	time_t best_time = 0;
	int ret = -ENOENT;

	if (!access(recorded, R_OK)) {
		snprintf(buf, size, "%s", recorded);
		return 0;
	}
	snprintf(pattern, sizeof(pattern), "%s/jit/*/jit-%d.dump", dso__buildid_dir(), pid);
	if (glob(pattern, 0, NULL, &g))
		return -ENOENT;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct stat st;

		if (stat(g.gl_pathv[i], &st) || (ret == 0 && st.st_mtime <= best_time))
			continue;
		best_time = st.st_mtime;
		snprintf(buf, size, "%s", g.gl_pathv[i]);
		ret = 0;
	}
	globfree(&g);
	return ret;
}

int jitdump__map(const char *path, void **buf, size_t *size)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return -EINVAL;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	*buf = m;
	*size = (size_t)st.st_size;
	return 0;
}

void jitdump__unmap(void *buf, size_t size)
{
	if (buf)
		munmap(buf, size);
}

/* ---- symbols ---- */

struct jit_fn {
	uint64_t start, size, index;
	const char *name;
	size_t order;
};

struct jit_fns {
	struct jit_fn *v;
	size_t nr, alloc;
	struct jit_fn *loads;	/* pass 2: CODE_LOADs sorted by index */
	size_t nr_loads;
};

static int jit_fns__add(struct jit_fns *f, uint64_t start, uint64_t size, uint64_t index,
			const char *name)
{
	if (f->nr == f->alloc) {
		size_t n = f->alloc ? f->alloc * 2 : 256;
		struct jit_fn *v = realloc(f->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		f->v = v;
		f->alloc = n;
	}
	f->v[f->nr] = (struct jit_fn){ start, size, index, name, f->nr };
	f->nr++;
	return 0;
}

static int jit_fns__load(void *arg, const struct jitdump_rec *r)
{
	if (r->id != JITDUMP_CODE_LOAD)
		return 0;
	return jit_fns__add(arg, r->code_addr, r->code_size, r->code_index, r->name);
}

static int by_index(const void *a, const void *b)
{
	const struct jit_fn *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int by_start(const void *a, const void *b)
{
	const struct jit_fn *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Pass 2: a CODE_MOVE names its new address after the last load of its index. */
static int jit_fns__move(void *arg, const struct jitdump_rec *r)
{
	struct jit_fns *f = arg;
	size_t lo = 0, hi = f->nr_loads;

	if (r->id != JITDUMP_CODE_MOVE)
		return 0;
	while (lo < hi) {	/* first load with a greater index */
		size_t mid = lo + (hi - lo) / 2;

		if (f->loads[mid].index <= r->code_index)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || f->loads[lo - 1].index != r->code_index)
		return 0;
	return jit_fns__add(f, r->code_addr, r->code_size, r->code_index, f->loads[lo - 1].name);
}

int dso__load_jitdump(struct dso *dso, const char *path)
{
	struct jit_fns f = { 0 };
	void *buf;
	size_t size;
	int err = jitdump__map(path, &buf, &size);

	if (err)
		return err;
	err = jitdump__walk(buf, size, NULL, jit_fns__load, &f);
	if (!err && f.nr) {
		f.nr_loads = f.nr;
		f.loads = malloc(f.nr * sizeof(*f.loads));
		if (!f.loads) {
			err = -ENOMEM;
		} else {
			memcpy(f.loads, f.v, f.nr * sizeof(*f.loads));
			qsort(f.loads, f.nr_loads, sizeof(*f.loads), by_index);
			err = jitdump__walk(buf, size, NULL, jit_fns__move, &f);
		}
	}
	if (err == -EINVAL && f.nr)
		err = 0;	/* what was read before the damage */
	if (f.nr)
		qsort(f.v, f.nr, sizeof(*f.v), by_start);
	for (size_t i = 0; !err && i < f.nr; i++) {
		if (i + 1 < f.nr && f.v[i + 1].start == f.v[i].start)
			continue;	/* a later load at the same address names it */
		err = dso__add_symbol(dso, f.v[i].start, f.v[i].size, 1, 2, f.v[i].name, false);
	}
	free(f.loads);
	free(f.v);
	jitdump__unmap(buf, size);
	return err;
}

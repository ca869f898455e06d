// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols: /proc/kallsyms (or --kallsyms FILE) lines
 * "ADDR TYPE NAME[\t[MODULE]]", text symbols (t T w W) only; or a vmlinux
 * ELF (-k). Addresses are absolute kernel virtual addresses (the kernel and
 * module maps are identity maps); when the recording's _text (pgoff of the
 * [kernel.kallsyms]_text MMAP) differs from the symbol source's _text
 * (KASLR, another boot), the symbols are shifted by the difference.
 * Kernel build-id: /sys/kernel/notes (NT_GNU_BUILD_ID) of the running kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <gelf.h>
#include "debug-cache.h"
#include "dso.h"
#include "machine.h"
#include "model.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/helper-thread.h"

const char *machine__kallsyms_path(const struct machine *machine)
{
	return machine && machine->kallsyms ? machine->kallsyms : "/proc/kallsyms";
}

static bool is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

uint64_t kallsyms__text(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];
	uint64_t addr = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *end, *p;
		unsigned long long a = strtoull(line, &end, 16);

		p = end;
		if (*p == ' ' && p[1] && p[2] == ' ' && !strncmp(p + 3, "_text", 5) &&
		    (p[8] == '\n' || p[8] == '\0' || p[8] == '\t')) {
			addr = a;
			break;
		}
	}
	fclose(f);
	return addr;
}

/* Build-id of the running kernel from /sys/kernel/notes. */
static int kernel__running_build_id(struct build_id *bid)
{
	char *buf;
	size_t size, off = 0;

	if (filename__read_str("/sys/kernel/notes", &buf, &size))
		return -ENOENT;
	while (off + 12 <= size) {
		uint32_t namesz, descsz, type;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		if (off + PERF_ALIGN((size_t)namesz, 4) + descsz > size)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + off, "GNU", 4)) {
			size_t n = min((size_t)descsz, (size_t)BUILD_ID_SIZE);

			memcpy(bid->data, buf + off + 4, n);
			bid->size = n;
			free(buf);
			return 0;
		}
		off += PERF_ALIGN((size_t)namesz, 4) + PERF_ALIGN((size_t)descsz, 4);
	}
	free(buf);
	return -ENODATA;
}

/*
 * The text of the last kallsyms file read, kept for the process: the
 * kernel and every module DSO load from the same file. Loads are
 * serialised by the DSO loader, so no lock around the cache itself.
 */
static struct {
	char *path;
	char *text;
	size_t size;
} kallsyms_cache;

/*
 * Reading /proc/kallsyms costs tens of ms of kernel time (the kernel
 * formats every line on each read) and parsing it as much again in user
 * space, so the two overlap: a thread read()s the file into one buffer
 * reserved up front (it never moves, the parser reads behind the writer)
 * and publishes how many bytes are in; the loader parses complete lines as
 * they arrive. A file larger than the reservation is finished by the
 * loader with plain reads into a heap copy.
 */
#define KALLSYMS_RESERVE (512ul << 20)	/* bytes of address space, not memory */
#define KALLSYMS_READ (128u << 10)	/* bytes asked per read() */
#define KALLSYMS_BATCH (256u << 10)	/* bytes between wake-ups of the parser */

struct kallsyms_stream {
	int fd;
	char *buf;		/* KALLSYMS_RESERVE bytes, MAP_NORESERVE */
	size_t avail;		/* bytes read so far (under lock) */
	int err;		/* negative errno of the reader, 0 */
	bool done;		/* reader finished (EOF, error or full) */
	bool threaded;		/* a reader thread is running */
	struct helper_thread thr;
	pthread_mutex_t lock;
	pthread_cond_t more;
};

/* read() until EOF, error or a full reservation, publishing progress */
static void *kallsyms_stream__reader(void *arg)
{
	struct kallsyms_stream *ks = arg;
	size_t n = 0, published = 0;
	int err = 0;

	for (;;) {
		size_t want = KALLSYMS_RESERVE - n;
		ssize_t r;

		if (!want) {
			err = -EFBIG;
			break;
		}
		if (want > KALLSYMS_READ)
			want = KALLSYMS_READ;
		r = read(ks->fd, ks->buf + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
		/* proc files come a page per read(): wake the parser per batch */
		if (n - published < KALLSYMS_BATCH)
			continue;
		published = n;
		pthread_mutex_lock(&ks->lock);
		ks->avail = n;
		pthread_cond_signal(&ks->more);
		pthread_mutex_unlock(&ks->lock);
	}
	pthread_mutex_lock(&ks->lock);
	ks->avail = n;
	ks->err = err;
	ks->done = true;
	pthread_cond_signal(&ks->more);
	pthread_mutex_unlock(&ks->lock);
	return NULL;
}

/*
 * Wait until more than `have` bytes are in or the reader is done. Returns
 * the bytes available; *done tells whether that is all.
 */
static size_t kallsyms_stream__wait(struct kallsyms_stream *ks, size_t have, bool *done)
{
	size_t avail;

	pthread_mutex_lock(&ks->lock);
	while (ks->avail <= have && !ks->done)
		pthread_cond_wait(&ks->more, &ks->lock);
	avail = ks->avail;
	*done = ks->done;
	pthread_mutex_unlock(&ks->lock);
	return avail;
}

static int kallsyms_stream__open(struct kallsyms_stream *ks, const char *path)
{
	memset(ks, 0, sizeof(*ks));
	ks->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ks->fd < 0)
		return -errno;
	ks->buf = mmap(NULL, KALLSYMS_RESERVE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ks->buf == MAP_FAILED) {
		ks->buf = NULL;
		close(ks->fd);
		return -ENOMEM;
	}
	pthread_mutex_init(&ks->lock, NULL);
	pthread_cond_init(&ks->more, NULL);
	ks->threaded = !helper_thread__start(&ks->thr, kallsyms_stream__reader, ks);
	if (!ks->threaded)
		kallsyms_stream__reader(ks);	/* no thread: read it all here */
	return 0;
}

/*
 * Join the reader and turn the buffer into the cached text (a heap copy,
 * NUL-terminated; a file that filled the reservation is read to its end).
 * Returns 0 or a negative errno.
 */
static int kallsyms_stream__finish(struct kallsyms_stream *ks, const char *path)
{
	size_t n, alloc;
	char *text;
	int err;

	if (ks->threaded)
		helper_thread__join(&ks->thr);	/* before reading its results */
	n = ks->avail;
	err = ks->err;
	alloc = n + 1;
	text = malloc(alloc);
	if (text)
		memcpy(text, ks->buf, n);
	else
		err = -ENOMEM;
	while (text && err == -EFBIG) {	/* a file beyond the reservation */
		ssize_t r;
		char *nt;

		if (n + 1 == alloc) {
			nt = realloc(text, alloc * 2);
			if (!nt) {
				err = -ENOMEM;
				break;
			}
			text = nt;
			alloc *= 2;
		}
		r = read(ks->fd, text + n, alloc - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			break;
		}
		n += (size_t)r;
	}
	close(ks->fd);
	munmap(ks->buf, KALLSYMS_RESERVE);
	pthread_mutex_destroy(&ks->lock);
	pthread_cond_destroy(&ks->more);
	if (err) {
		free(text);
		return err;
	}
	text[n] = '\0';
	free(kallsyms_cache.path);
	free(kallsyms_cache.text);
	kallsyms_cache.path = strdup(path);
	kallsyms_cache.text = text;
	kallsyms_cache.size = n;
	if (!kallsyms_cache.path) {
		free(text);
		kallsyms_cache.text = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* hex digit value + 1, 0 for a non-digit */
static const uint8_t hex_tab[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static inline int hexval(unsigned char c)
{
	return (int)hex_tab[c] - 1;
}

/* strtoull(line, &end, 16) for one line: the value, *end after the digits
 * (line itself when there are none); saturates like strtoull. */
static uint64_t parse_hex(const char *line, const char **end)
{
	const char *q = line;
	uint64_t v = 0;
	bool over = false;
	int d;

	while (*q == ' ' || *q == '\t')
		q++;
	if (q[0] == '0' && (q[1] | 0x20) == 'x' && hexval((unsigned char)q[2]) >= 0)
		q += 2;
	if (hexval((unsigned char)*q) < 0) {
		*end = line;
		return 0;
	}
	while ((d = hexval((unsigned char)*q)) >= 0) {
		if (v >> 60)
			over = true;
		v = v << 4 | (uint64_t)d;
		q++;
	}
	*end = q;
	return over ? UINT64_MAX : v;
}

/* State of one dso__load_kallsyms() pass over the lines. */
struct kallsyms_parse {
	struct dso *dso;
	const char *mod;	/* module name for a module DSO, else NULL */
	size_t modlen;
	uint64_t text;		/* this file's _text, 0 until seen */
	bool any_nonzero;
	bool dem;
	char name[1024];
};

/* One "ADDR TYPE NAME[\t[MODULE]]" line [line, eol). 0 or -errno. */
static int kallsyms_parse__line(struct kallsyms_parse *kp, const char *line, const char *eol)
{
	const char *p, *nm, *tab;
	uint64_t a = parse_hex(line, &p);
	size_t len;
	char type;

	if (p + 3 > eol || *p != ' ' || p[2] != ' ')
		return 0;
	type = p[1];
	nm = p + 3;
	if (a)
		kp->any_nonzero = true;
	tab = memchr(nm, '\t', (size_t)(eol - nm));
	len = (size_t)((tab ? tab : eol) - nm);
	if (!kp->text && len == 5 && !memcmp(nm, "_text", 5))
		kp->text = a;
	if (!is_text_type(type) || !a)
		return 0;
	if (kp->mod) {	/* "[name]" */
		if (!tab || (size_t)(eol - tab - 1) < kp->modlen ||
		    strncmp(tab + 1, kp->mod, kp->modlen))
			return 0;
	} else if (tab) {
		return 0;
	}
	if (len >= sizeof(kp->name))
		len = sizeof(kp->name) - 1;
	memcpy(kp->name, nm, len);
	kp->name[len] = '\0';
	return dso__add_symbol(kp->dso, a, 0, type == 'w' || type == 'W' ? 2 : (type == 't' ? 0 : 1),
			       2 /* STT_FUNC */, kp->name, kp->dem);
}

/*
 * The complete lines of [*pos, end) (and the last unterminated one when
 * `last`); *pos moves past what was parsed. 0 or -errno.
 */
static int kallsyms_parse__lines(struct kallsyms_parse *kp, const char **pos, const char *end,
				 bool last)
{
	const char *line = *pos;
	int err = 0;

	while (line < end && !err) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));

		if (!nl && !last)
			break;
		err = kallsyms_parse__line(kp, line, nl ? nl : end);
		line = nl ? nl + 1 : end;
	}
	*pos = line;
	return err;
}

int dso__load_kallsyms(struct dso *dso, const char *path)
{
	struct kallsyms_parse kp = {
		.dso = dso,
		.mod = dso->kind == DSO_KMODULE ? dso->short_name : NULL,
		.dem = !dso->machine || dso->machine->demangle,
	};
	const char *pos;
	int err;

	kp.modlen = kp.mod ? strlen(kp.mod) : 0;
	dso->aliases_last = true;
	if (kallsyms_cache.path && !strcmp(kallsyms_cache.path, path)) {
		pos = kallsyms_cache.text;
		err = kallsyms_parse__lines(&kp, &pos, kallsyms_cache.text + kallsyms_cache.size, true);
	} else {
		struct kallsyms_stream ks;
		size_t avail = 0, off;
		bool done = false;

		err = kallsyms_stream__open(&ks, path);
		if (err)
			return err;
		pos = ks.buf;
		while (!err && !done) {
			avail = kallsyms_stream__wait(&ks, avail, &done);
			/* EFBIG: the rest is read by finish(); parsed from the copy */
			err = kallsyms_parse__lines(&kp, &pos, ks.buf + avail, done && !ks.err);
		}
		off = (size_t)(pos - ks.buf);
		if (err) {	/* the parse failed: join the reader, free the stream */
			(void)kallsyms_stream__finish(&ks, path);
			return err;
		}
		err = kallsyms_stream__finish(&ks, path);
		if (!err && off < kallsyms_cache.size) {	/* beyond the reservation */
			pos = kallsyms_cache.text + off;
			err = kallsyms_parse__lines(&kp, &pos, kallsyms_cache.text + kallsyms_cache.size,
						    true);
		}
	}
	if (!err && !kp.any_nonzero)
		err = -EPERM;	/* kptr_restrict: every address reads as 0 */
	/* KASLR / another boot: shift by recorded _text - this file's _text */
	if (!err && dso->kernel_text && kp.text && dso->kernel_text != kp.text) {
		uint64_t reloc = dso->kernel_text - kp.text;

		for (size_t i = 0; i < dso->nr_symbols; i++)
			dso->symbols[i]->start += reloc;
	}
	if (!err) {
		free(dso->symsrc_path);
		dso->symsrc_path = strdup(path);
	}
	return err;
}

static int dso__load_vmlinux(struct dso *dso, const char *path)
{
	int err = dso__load_elf(dso, path, path);
	uint64_t vtext = 0;

	if (err)
		return err;
	dso->text_offset = 0;
	/* the _text of the vmlinux: lowest symbol start is close; use the ELF's
	 * "_text" if present among functions, else no relocation */
	for (size_t i = 0; i < dso->nr_symbols; i++)
		if (!strcmp(dso->symbols[i]->name, "_text") ||
		    !strcmp(dso->symbols[i]->name, "startup_64")) {
			vtext = dso->symbols[i]->start;
			break;
		}
	if (dso->kernel_text && vtext && vtext != dso->kernel_text) {
		uint64_t reloc = dso->kernel_text - vtext;

		for (size_t i = 0; i < dso->nr_symbols; i++) {
			dso->symbols[i]->start += reloc;
			if (dso->symbols[i]->end)
				dso->symbols[i]->end += reloc;
		}
	}
	return 0;
}

/*
 * perf's build-id cache copy of a kernel's kallsyms, which perf record
 * writes to ~/.debug/[kernel.kallsyms]/<build-id>/kallsyms: path in buf
 * when there is one for the DSO's build-id with a _text line (to shift a
 * copy made in another boot by the KASLR difference, as any kallsyms
 * file is shifted).
 */
static bool kernel__cached_kallsyms(const struct dso *dso, char *buf, size_t size)
{
	const char *home = dso__buildid_dir();
	char hex[2 * BUILD_ID_SIZE + 1];

	if (!home || !dso->bid.size)
		return false;
	build_id__sprintf(&dso->bid, hex);
	if ((size_t)snprintf(buf, size, "%s/[kernel.kallsyms]/%s/kallsyms", home, hex) >= size)
		return false;
	return !access(buf, R_OK) && kallsyms__text(buf);
}

int dso__load_kernel(struct dso *dso)
{
	struct machine *m = dso->machine;
	const char *path = machine__kallsyms_path(m);
	bool running = false;	/* the recorded kernel is the running one */

	if (dso->kind == DSO_KERNEL && m && m->vmlinux) {
		int err = dso__load_vmlinux(dso, m->vmlinux);

		if (!err)
			return 0;
		pr_warning("%s: cannot read kernel symbols (%s), using kallsyms\n",
			   m->vmlinux, strerror(-err));
	}
	if (dso->has_build_id && !(m && m->kallsyms)) {
		struct build_id run = { .size = 0 };

		if (!kernel__running_build_id(&run) &&
		    (run.size != dso->bid.size || memcmp(run.data, dso->bid.data, run.size))) {
			dso->build_id_mismatch = true;
			if (!dso->mismatch_warned) {
				char a[2 * BUILD_ID_SIZE + 1], b[2 * BUILD_ID_SIZE + 1];

				dso->mismatch_warned = true;
				build_id__sprintf(&dso->bid, a);
				build_id__sprintf(&run, b);
				pr_warning("[kernel.kallsyms]: build-id mismatch (recorded %s, running kernel %s); use --kallsyms or -k\n",
					   a, b);
			}
			return -ESRCH;
		}
		running = run.size != 0;
	}
	/*
	 * The running kernel's core symbols from the build-id cache copy of
	 * its kallsyms: the same symbols as /proc/kallsyms (the same build,
	 * shifted to the recorded _text), read in a few ms where the kernel
	 * takes tens of ms to format /proc/kallsyms. Modules always come
	 * from /proc/kallsyms: their addresses change from load to load.
	 */
	if (running && dso->kind == DSO_KERNEL && dso->kernel_text) {
		char cached[PATH_MAX];

		if (kernel__cached_kallsyms(dso, cached, sizeof(cached))) {
			int err = dso__load_kallsyms(dso, cached);

			if (!err || err == -ENOMEM)
				return err;
			pr_debug("%s: %s, using %s\n", cached, strerror(-err), path);
		}
	}
	return dso__load_kallsyms(dso, path);
}

/*
 * The names of a kallsyms file as a sorted array of their 64-bit FNV-1a
 * hashes, kept in the debug cache (kind DEBUG_CACHE_KNAMES): whether the
 * file names a symbol is then a binary search, where a search of its text
 * (5 MB, 122,000 lines on the CI machine's kernel) took 1.2 ms and the
 * mapping about as much again. A name whose hash is there may be one of
 * the file's (64-bit hashes of 10^5 names collide about once in 10^9
 * files); one whose hash is not is certainly none of them.
 */
static uint64_t name__hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The hashes of every name of the kallsyms text [p, end) (lines "ADDR T
 * NAME[\tMODULE]"), sorted, duplicates dropped: *nr of them, malloc'd;
 * NULL on ENOMEM. */
static uint64_t *kallsyms_text__hashes(const char *p, const char *end, size_t *nr)
{
	size_t n = 0, alloc = 1 << 14;
	uint64_t *h = malloc(alloc * sizeof(*h));

	while (h && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *name, *e;

		if (!eol)
			eol = end;
		name = memchr(p, ' ', (size_t)(eol - p));
		if (name && eol - name > 3 && name[2] == ' ') {
			name += 3;
			e = memchr(name, '\t', (size_t)(eol - name));
			if (!e)
				e = eol;
			if (n == alloc) {
				uint64_t *t = realloc(h, (alloc *= 2) * sizeof(*h));

				if (!t) {
					free(h);
					return NULL;
				}
				h = t;
			}
			h[n++] = name__hash(name, (size_t)(e - name));
		}
		p = eol + 1;
	}
	if (!h)
		return NULL;
	qsort(h, n, sizeof(*h), u64_cmp);
	*nr = 0;
	for (size_t i = 0; i < n; i++)
		if (!*nr || h[*nr - 1] != h[i])
			h[(*nr)++] = h[i];
	return h;
}

/* Whether the kallsyms file at path (st: its stat()) may name sym: from
 * its kept hashes, else made from its text and kept. true when unsure. */
static bool kallsyms_file__may_name(const char *path, const struct stat *st, const char *sym)
{
	uint64_t want = name__hash(sym, strlen(sym)), *hashes;
	const uint64_t *kept;
	size_t size, nr;
	void *base, *text;
	bool may = true;
	int fd;

	if (!debug_cache__map(DEBUG_CACHE_KNAMES, path, st, &base, &size)) {
		kept = base;
		if (size >= sizeof(uint64_t) && (size / sizeof(uint64_t)) - 1 >= kept[0]) {
			may = bsearch(&want, kept + 1, kept[0], sizeof(*kept), u64_cmp) != NULL;
			munmap(base, size);
			return may;
		}
		munmap(base, size);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	text = st->st_size > 0 ? mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0) :
				 MAP_FAILED;
	close(fd);
	if (text == MAP_FAILED)
		return true;
	hashes = kallsyms_text__hashes(text, (const char *)text + st->st_size, &nr);
	munmap(text, (size_t)st->st_size);
	if (!hashes)
		return true;
	may = bsearch(&want, hashes, nr, sizeof(*hashes), u64_cmp) != NULL;
	debug_cache__store(DEBUG_CACHE_KNAMES, path, st, (struct iovec[]){
		{ .iov_base = &(uint64_t){ nr }, .iov_len = sizeof(uint64_t) },
		{ .iov_base = hashes, .iov_len = nr * sizeof(*hashes) },
	}, 2);
	free(hashes);
	return may;
}

bool dso__kernel_may_have_symbol(struct dso *dso, const char *name)
{
	char cached[PATH_MAX];
	struct stat st;

	if (__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE)) {
		for (size_t i = 0; i < dso->nr_symbols; i++)
			if (!strcmp(dso->symbols[i]->name, name))
				return true;
		return false;
	}
	/* -k or --kallsyms name another source; modules come from /proc */
	if (dso->kind != DSO_KERNEL || !*name ||
	    (dso->machine && (dso->machine->vmlinux || dso->machine->kallsyms)) ||
	    !kernel__cached_kallsyms(dso, cached, sizeof(cached)) || stat(cached, &st))
		return true;
	return kallsyms_file__may_name(cached, &st, name);
}

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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "dso.h"
#include "machine.h"
#include "model.h"
#include "../lib/debug.h"
#include "../lib/util.h"

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
 * kernel and every module DSO load from the same file, and reading
 * /proc/kallsyms costs tens of ms of kernel time each pass. Loads are
 * serialised by the DSO loader, so no lock here.
 */
static struct {
	char *path;
	char *text;
	size_t size;
} kallsyms_cache;

static int kallsyms__read(const char *path, const char **text, size_t *size)
{
	size_t alloc = 1 << 20, n = 0;
	char *buf, *nb;
	int fd;

	if (kallsyms_cache.path && !strcmp(kallsyms_cache.path, path)) {
		*text = kallsyms_cache.text;
		*size = kallsyms_cache.size;
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(alloc + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (n == alloc) {
			nb = realloc(buf, alloc * 2 + 1);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			alloc *= 2;
		}
		r = read(fd, buf + n, alloc - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	free(kallsyms_cache.path);
	free(kallsyms_cache.text);
	kallsyms_cache.path = strdup(path);
	kallsyms_cache.text = buf;
	kallsyms_cache.size = n;
	if (!kallsyms_cache.path) {
		free(buf);
		kallsyms_cache.text = NULL;
		return -ENOMEM;
	}
	*text = buf;
	*size = n;
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

int dso__load_kallsyms(struct dso *dso, const char *path)
{
	const char *mod = dso->kind == DSO_KMODULE ? dso->short_name : NULL;
	size_t modlen = mod ? strlen(mod) : 0, size = 0;
	uint64_t text = 0, reloc = 0;
	bool any_nonzero = false;
	bool dem = !dso->machine || dso->machine->demangle;
	const char *buf = NULL, *line, *end;
	char name[1024];
	int err;

	err = kallsyms__read(path, &buf, &size);
	if (err)
		return err;
	dso->aliases_last = true;
	for (line = buf, end = buf + size; line < end; ) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *eol = nl ? nl : end, *p, *nm, *tab;
		uint64_t a = parse_hex(line, &p);
		size_t len;
		char type;

		line = nl ? nl + 1 : end;
		if (p + 3 > eol || *p != ' ' || p[2] != ' ')
			continue;
		type = p[1];
		nm = p + 3;
		if (a)
			any_nonzero = true;
		tab = memchr(nm, '\t', (size_t)(eol - nm));
		len = (size_t)((tab ? tab : eol) - nm);
		if (!text && len == 5 && !memcmp(nm, "_text", 5))
			text = a;
		if (!is_text_type(type) || !a)
			continue;
		if (mod) {	/* "[name]" */
			if (!tab || (size_t)(eol - tab - 1) < modlen || strncmp(tab + 1, mod, modlen))
				continue;
		} else if (tab) {
			continue;
		}
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, nm, len);
		name[len] = '\0';
		err = dso__add_symbol(dso, a, 0,
				      type == 'w' || type == 'W' ? 2 : (type == 't' ? 0 : 1),
				      2 /* STT_FUNC */, name, dem);
		if (err)
			break;
	}
	if (!err && !any_nonzero)
		err = -EPERM;	/* kptr_restrict: every address reads as 0 */
	/* KASLR / another boot: shift by recorded _text - this file's _text */
	if (!err && dso->kernel_text && text && dso->kernel_text != text) {
		reloc = dso->kernel_text - text;
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

int dso__load_kernel(struct dso *dso)
{
	struct machine *m = dso->machine;
	const char *path = machine__kallsyms_path(m);

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
	}
	return dso__load_kallsyms(dso, path);
}

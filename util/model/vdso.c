// SPDX-License-Identifier: GPL-2.0
/*
 * [vdso] symbols. The vdso image is not a file: when the recording was made
 * on this machine (same kernel), our own process maps the same image. It is
 * copied once from the [vdso] range of /proc/self/maps and parsed in memory
 * with libelf; it is used when its build-id matches the recorded one, or
 * when none was recorded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"
#include "model.h"
#include "../format/features-write.h"
#include "../lib/debug.h"

static void *vdso_image;
static size_t vdso_size;
static bool vdso_tried;

static void vdso__read_self(void)
{
	FILE *f;
	char line[512];

	vdso_tried = true;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;

		if (!strstr(line, "[vdso]") || sscanf(line, "%llx-%llx", &s, &e) != 2 || e <= s)
			continue;
		vdso_image = malloc(e - s);
		if (vdso_image) {
			memcpy(vdso_image, (void *)(uintptr_t)s, e - s);
			vdso_size = e - s;
		}
		break;
	}
	fclose(f);
}

int vdso__build_id(struct build_id *bid)
{
	if (!vdso_tried)
		vdso__read_self();
	if (!vdso_image || elf_mem__read_build_id(vdso_image, vdso_size, bid) || !bid->size)
		return -ENOENT;
	return 0;
}

int vdso__image(const void **image, size_t *size)
{
	if (!vdso_tried)
		vdso__read_self();
	if (!vdso_image)
		return -ENOENT;
	*image = vdso_image;
	*size = vdso_size;
	return 0;
}

int vdso__feat_build_id(struct feat_build_id *b)
{
	struct build_id vb;

	if (vdso__build_id(&vb))
		return -ENOENT;
	*b = (struct feat_build_id){ .filename = "[vdso]",
				     .size = (uint8_t)(vb.size < 20 ? vb.size : 20) };
	memcpy(b->bid, vb.data, b->size);
	return 0;
}

int dso__load_vdso(struct dso *dso)
{
	struct build_id bid = { .size = 0 };

	if (!vdso_tried)
		vdso__read_self();
	if (!vdso_image)
		return -ENOENT;
	if (dso->has_build_id && !elf_mem__read_build_id(vdso_image, vdso_size, &bid) &&
	    (bid.size != dso->bid.size || memcmp(bid.data, dso->bid.data, bid.size))) {
		char path[4096];

		/* another kernel's vdso: perf keeps a copy in its build-id cache */
		if (!dso__find_build_id_file(dso, &dso->bid, path, sizeof(path)))
			return dso__load_elf(dso, path, path);
		dso->build_id_mismatch = true;
		pr_debug("[vdso]: recorded build-id differs from this kernel's vdso\n");
		return -ESRCH;
	}
	return dso__load_elf_mem(dso, vdso_image, vdso_size);
}

// SPDX-License-Identifier: GPL-2.0
/* perf.data header features for prf record; see features-write.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "features-write.h"
#include "header.h"
#include "event.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"

#define NAME_ALIGN 64

static int put_u32(struct strbuf *sb, uint32_t v) { return strbuf_add(sb, &v, sizeof(v)); }
static int put_u64(struct strbuf *sb, uint64_t v) { return strbuf_add(sb, &v, sizeof(v)); }

/* perf_header_string: u32 len (with NUL, padded to 64), string, zeros. */
static int put_string(struct strbuf *sb, const char *s)
{
	static const char zeros[NAME_ALIGN];
	size_t n = strlen(s) + 1, len = PERF_ALIGN(n, (size_t)NAME_ALIGN);

	if (put_u32(sb, (uint32_t)len) || strbuf_add(sb, s, n - 1) ||
	    strbuf_add(sb, zeros, len - (n - 1)))
		return -ENOMEM;
	return 0;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = 0;
}

/* Value of the first "key : value" line of /proc/cpuinfo; malloc'd or NULL. */
static char *cpuinfo_value(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024], *ret = NULL;
	size_t klen = strlen(key);

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, key, klen) || (line[klen] != ' ' && line[klen] != '\t' &&
						  line[klen] != ':'))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		chomp(colon);
		ret = strdup(colon);
		break;
	}
	fclose(f);
	return ret;
}

static int feat_cpudesc(struct strbuf *sb)
{
	char *v = cpuinfo_value("model name");
	char *d, *s;
	int ret;

	if (!v)
		v = strdup("unknown");
	if (!v)
		return -ENOMEM;
	/* squash runs of blanks, as perf shows the description */
	for (s = d = v; *s; s++) {
		if ((*s == ' ' || *s == '\t') && (d == v || d[-1] == ' '))
			continue;
		*d++ = *s == '\t' ? ' ' : *s;
	}
	*d = 0;
	chomp(v);
	ret = put_string(sb, v);
	free(v);
	return ret;
}

static int feat_cpuid(struct strbuf *sb)
{
	char *vendor = cpuinfo_value("vendor_id"), *fam = cpuinfo_value("cpu family");
	char *model = cpuinfo_value("model"), *step = cpuinfo_value("stepping");
	char buf[256];
	int ret;

	snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor ? vendor : "unknown",
		 fam ? fam : "0", model ? model : "0", step ? step : "0");
	ret = put_string(sb, buf);
	free(vendor);
	free(fam);
	free(model);
	free(step);
	return ret;
}

static int feat_total_mem(struct strbuf *sb)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
				break;
		fclose(f);
	}
	return put_u64(sb, kb);
}

int features__cmdline(struct strbuf *sb, int argc, const char **argv)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		strcpy(exe, "prf");
	else
		exe[n] = 0;
	if (put_u32(sb, (uint32_t)argc + 1) || put_string(sb, exe))
		return -ENOMEM;
	for (int i = 0; i < argc; i++)
		if (put_string(sb, argv[i]))
			return -ENOMEM;
	return 0;
}

static int feat_event_desc(struct strbuf *sb, const struct features_ctx *ctx)
{
	if (put_u32(sb, (uint32_t)ctx->nr_attrs) || put_u32(sb, WRITER_ATTR_SIZE))
		return -ENOMEM;
	for (int i = 0; i < ctx->nr_attrs; i++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		memcpy(&a, ctx->attrs[i].attr, WRITER_ATTR_SIZE);
		a.size = WRITER_ATTR_SIZE;
		if (strbuf_add(sb, &a, WRITER_ATTR_SIZE) ||
		    put_u32(sb, (uint32_t)ctx->attrs[i].nr_ids) ||
		    put_string(sb, ctx->names[i]) ||
		    strbuf_add(sb, ctx->attrs[i].ids, ctx->attrs[i].nr_ids * sizeof(uint64_t)))
			return -ENOMEM;
	}
	return 0;
}

/* HEADER_GROUP_DESC: u32 nr, then per group its name (string), the
 * leader's index and the number of members (u32 each). */
static int feat_group_desc(struct strbuf *sb, const struct features_ctx *ctx)
{
	if (put_u32(sb, (uint32_t)ctx->nr_groups))
		return -ENOMEM;
	for (int i = 0; i < ctx->nr_groups; i++) {
		const struct feat_group *g = &ctx->groups[i];

		if (put_string(sb, g->name ? g->name : "{anon_group}") ||
		    put_u32(sb, g->leader_idx) || put_u32(sb, g->nr_members))
			return -ENOMEM;
	}
	return 0;
}

static char *cpu_topo_str(int cpu, const char *file)
{
	char path[256], *s = NULL;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (filename__read_str(path, &s, NULL))
		return NULL;
	chomp(s);
	return s;
}

static int cpu_topo_int(int cpu, const char *file)
{
	char path[256];
	int v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (filename__read_int(path, &v))
		return -1;
	return v;
}

/* Unique sibling lists of all cpus, as u32 nr + strings. */
static int put_sibling_lists(struct strbuf *sb, int nr_cpus, const char *f1, const char *f2)
{
	char **list = calloc((size_t)nr_cpus + 1, sizeof(char *));
	int n = 0, ret = 0;

	if (!list)
		return -ENOMEM;
	for (int c = 0; c < nr_cpus; c++) {
		char *s = cpu_topo_str(c, f1);
		bool dup = false;

		if (!s && f2)
			s = cpu_topo_str(c, f2);
		if (!s)
			continue;
		for (int i = 0; i < n; i++)
			if (!strcmp(list[i], s))
				dup = true;
		if (dup)
			free(s);
		else
			list[n++] = s;
	}
	ret = put_u32(sb, (uint32_t)n);
	for (int i = 0; i < n && !ret; i++)
		ret = put_string(sb, list[i]);
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return ret;
}

static int feat_cpu_topology(struct strbuf *sb)
{
	int nr = (int)sysconf(_SC_NPROCESSORS_CONF);

	if (nr < 1)
		nr = 1;
	if (put_sibling_lists(sb, nr, "core_siblings_list", "package_cpus_list") ||
	    put_sibling_lists(sb, nr, "thread_siblings_list", "core_cpus_list"))
		return -ENOMEM;
	for (int c = 0; c < nr; c++) {
		int core = cpu_topo_int(c, "core_id"), sock = cpu_topo_int(c, "physical_package_id");

		if (put_u32(sb, (uint32_t)core) || put_u32(sb, (uint32_t)sock))
			return -ENOMEM;
	}
	if (put_sibling_lists(sb, nr, "die_cpus_list", "core_siblings_list"))
		return -ENOMEM;
	for (int c = 0; c < nr; c++) {
		int die = cpu_topo_int(c, "die_id");

		if (put_u32(sb, (uint32_t)(die < 0 ? 0 : die)))
			return -ENOMEM;
	}
	return 0;
}

/* "Node N MemTotal:   123 kB" of a node's meminfo: the kB of field, 0 if absent. */
static uint64_t node_mem_kb(const char *meminfo, const char *field)
{
	const char *p = strstr(meminfo, field);

	return p ? strtoull(p + strlen(field), NULL, 10) : 0;
}

/* HEADER_NUMA_TOPOLOGY: u32 nr, then per node u32 id, u64 total and free
 * memory (kB) and the cpu list string, from /sys/devices/system/node. */
static int feat_numa_topology(struct strbuf *sb)
{
	struct strbuf body = STRBUF_INIT;
	DIR *dir = opendir("/sys/devices/system/node");
	struct dirent *de;
	uint32_t nr = 0;
	int ret = 0;

	while (dir && (de = readdir(dir)) != NULL && !ret) {
		char path[300], *meminfo = NULL, *cpus = NULL;
		char *end;
		long node;

		if (strncmp(de->d_name, "node", 4))
			continue;
		node = strtol(de->d_name + 4, &end, 10);
		if (end == de->d_name + 4 || *end)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/%s/meminfo", de->d_name);
		filename__read_str(path, &meminfo, NULL);
		snprintf(path, sizeof(path), "/sys/devices/system/node/%s/cpulist", de->d_name);
		filename__read_str(path, &cpus, NULL);
		if (cpus)
			cpus[strcspn(cpus, "\n")] = 0;
		ret = put_u32(&body, (uint32_t)node) ||
		      put_u64(&body, meminfo ? node_mem_kb(meminfo, "MemTotal:") : 0) ||
		      put_u64(&body, meminfo ? node_mem_kb(meminfo, "MemFree:") : 0) ||
		      put_string(&body, cpus ? cpus : "") ? -ENOMEM : 0;
		free(meminfo);
		free(cpus);
		nr++;
	}
	if (dir)
		closedir(dir);
	if (!ret)
		ret = put_u32(sb, nr) || strbuf_add(sb, body.buf, body.len) ? -ENOMEM : 0;
	strbuf_release(&body);
	return ret;
}

int features__build_id_records(struct strbuf *sb, const struct feat_build_id *bids, int nr)
{
	static const char zeros[NAME_ALIGN];

	for (int i = 0; i < nr; i++) {
		const struct feat_build_id *b = &bids[i];
		struct perf_record_header_build_id r;
		size_t n = strlen(b->filename) + 1, flen = PERF_ALIGN(n, (size_t)NAME_ALIGN);

		memset(&r, 0, sizeof(r));
		r.header.type = PERF_RECORD_HEADER_BUILD_ID;
		/* MISC_BUILD_ID_SIZE (bit 15): the size byte is valid */
		r.header.misc = (b->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) | (1 << 15);
		r.header.size = (uint16_t)(sizeof(r) + flen);
		r.pid = -1;	/* host machine (perf's HOST_KERNEL_ID) */
		memcpy(r.data, b->bid, b->size);
		r.size = b->size;
		if (strbuf_add(sb, &r, sizeof(r)) || strbuf_add(sb, b->filename, n - 1) ||
		    strbuf_add(sb, zeros, flen - (n - 1)))
			return -ENOMEM;
	}
	return 0;
}

int features__build(const struct features_ctx *ctx, struct writer_feat **featsp, int *nrp)
{
	struct writer_feat *feats = calloc(HEADER_LAST_FEATURE, sizeof(*feats));
	struct utsname uts;
	int nr = 0, ret = 0;

	if (!feats)
		return -ENOMEM;
	uname(&uts);
	for (int id = HEADER_FIRST_FEATURE; id < HEADER_LAST_FEATURE && !ret; id++) {
		struct strbuf sb = STRBUF_INIT;
		bool want = true;

		switch (id) {
		case HEADER_TRACING_DATA:
			if (ctx->tracing_data)
				ret = ctx->tracing_data(&sb, ctx->tracing_arg);
			else
				want = false;
			break;
		case HEADER_BUILD_ID:
			if (ctx->nr_bids > 0)
				ret = features__build_id_records(&sb, ctx->bids, ctx->nr_bids);
			else
				want = false;
			break;
		case HEADER_HOSTNAME:
			ret = put_string(&sb, uts.nodename);
			break;
		case HEADER_OSRELEASE:
			ret = put_string(&sb, uts.release);
			break;
		case HEADER_VERSION:
			ret = put_string(&sb, ctx->version ? ctx->version : "prf");
			break;
		case HEADER_ARCH:
			ret = put_string(&sb, uts.machine);
			break;
		case HEADER_NRCPUS: {
			long conf = sysconf(_SC_NPROCESSORS_CONF), onl = sysconf(_SC_NPROCESSORS_ONLN);

			ret = put_u32(&sb, (uint32_t)(conf > 0 ? conf : 1));
			if (!ret)
				ret = put_u32(&sb, (uint32_t)(onl > 0 ? onl : 1));
			break;
		}
		case HEADER_CPUDESC:
			ret = feat_cpudesc(&sb);
			break;
		case HEADER_CPUID:
			ret = feat_cpuid(&sb);
			break;
		case HEADER_TOTAL_MEM:
			ret = feat_total_mem(&sb);
			break;
		case HEADER_CMDLINE:
			ret = features__cmdline(&sb, ctx->argc, ctx->argv);
			break;
		case HEADER_EVENT_DESC:
			ret = feat_event_desc(&sb, ctx);
			break;
		case HEADER_CPU_TOPOLOGY:
			ret = feat_cpu_topology(&sb);
			break;
		case HEADER_SAMPLE_TIME:
			if (ctx->has_sample_time) {
				ret = put_u64(&sb, ctx->first_sample_time);
				if (!ret)
					ret = put_u64(&sb, ctx->last_sample_time);
			} else {
				want = false;
			}
			break;
		case HEADER_CLOCKID:
			want = ctx->use_clockid;
			if (want)
				ret = put_u64(&sb, ctx->clockid_res_ns);
			break;
		case HEADER_CLOCK_DATA:
			/* version 1, clockid, wall-clock ns, clockid ns */
			want = ctx->use_clockid;
			if (want)
				ret = put_u32(&sb, 1) || put_u32(&sb, ctx->clockid) ||
				      put_u64(&sb, ctx->clock_tod_ns) ||
				      put_u64(&sb, ctx->clock_clockid_ns) ? -ENOMEM : 0;
			break;
		case HEADER_NUMA_TOPOLOGY:
			want = ctx->numa_topology;
			if (want)
				ret = feat_numa_topology(&sb);
			break;
		case HEADER_GROUP_DESC:
			want = ctx->nr_groups > 0;
			if (want)
				ret = feat_group_desc(&sb, ctx);
			break;
		case HEADER_STAT:
			want = ctx->stat;	/* a flag: the section is empty */
			break;
		case HEADER_COMPRESSED:
			if (ctx->compressed) {
				/* version 0, type 1 = zstd, level, ratio, mmap_len */
				ret = put_u32(&sb, 0) || put_u32(&sb, 1) ||
				      put_u32(&sb, ctx->comp_level) ||
				      put_u32(&sb, ctx->comp_ratio) ||
				      put_u32(&sb, ctx->comp_mmap_len) ? -ENOMEM : 0;
			} else {
				want = false;
			}
			break;
		default:
			want = false;
			break;
		}
		if (ret || !want) {
			strbuf_release(&sb);
			continue;
		}
		feats[nr].id = id;
		feats[nr].len = sb.len;
		feats[nr].buf = strbuf_detach(&sb, NULL);
		nr++;
	}
	if (ret) {
		features__free(feats, nr);
		return ret;
	}
	*featsp = feats;
	*nrp = nr;
	return 0;
}

void features__free(struct writer_feat *feats, int nr)
{
	if (!feats)
		return;
	for (int i = 0; i < nr; i++)
		free((void *)feats[i].buf);
	free(feats);
}

/* ---- HEADER_TRACING_DATA ---- */
/* Walk ELF-style notes in buf for NT_GNU_BUILD_ID ("GNU"). */
static int find_gnu_build_id(const char *buf, size_t len, uint8_t bid[20])
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		{
			size_t name_off = off, desc_off = off + PERF_ALIGN((size_t)namesz, (size_t)4);
			size_t next = desc_off + PERF_ALIGN((size_t)descsz, (size_t)4);

			if (next > len || next < off)
				return -ENOENT;
			if (type == NT_GNU_BUILD_ID && namesz == 4 &&
			    !memcmp(buf + name_off, "GNU", 4) && descsz > 0) {
				size_t n = descsz > 20 ? 20 : descsz;

				memcpy(bid, buf + desc_off, n);
				return (int)n;
			}
			off = next;
		}
	}
	return -ENOENT;
}

int features__read_build_id(const char *path, bool raw_notes, uint8_t bid[20])
{
	int fd, ret = -ENOENT;
	Elf *elf;
	Elf_Scn *scn = NULL;

	if (raw_notes) {
		char *buf = malloc(65536);
		size_t got = 0;

		if (!buf)
			return -ENOMEM;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			free(buf);
			return -errno;
		}
		while (got < 65536) {
			ssize_t n = read(fd, buf + got, 65536 - got);

			if (n <= 0)
				break;
			got += (size_t)n;
		}
		close(fd);
		ret = got ? find_gnu_build_id(buf, got, bid) : -ENOENT;
		free(buf);
		return ret;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -EINVAL;
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		ret = find_gnu_build_id(d->d_buf, d->d_size, bid);
		if (ret > 0)
			break;
	}
	elf_end(elf);
	close(fd);
	return ret;
}

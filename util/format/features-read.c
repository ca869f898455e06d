// SPDX-License-Identifier: GPL-2.0
/*
 * Header features: parse the sections perf 6.1 writes (layouts per
 * tools/perf/Documentation/perf.data-file-format.txt) into perf_env and
 * the evsels, keep the raw payloads, and print them in the layout of
 * `perf report --header-only` (perf_data__fprintf_info).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <byteswap.h>
#include "data-internal.h"
#include "features-bpf.h"
#define NSEC_PER_SEC ((uint64_t)1000000000)
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/strbuf.h"
#include "../kernel/evsel.h"
#include "../kernel/evlist.h"

static const char *const feat_names[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = "TRACING_DATA", [HEADER_BUILD_ID] = "BUILD_ID",
	[HEADER_HOSTNAME] = "HOSTNAME", [HEADER_OSRELEASE] = "OSRELEASE",
	[HEADER_VERSION] = "VERSION", [HEADER_ARCH] = "ARCH", [HEADER_NRCPUS] = "NRCPUS",
	[HEADER_CPUDESC] = "CPUDESC", [HEADER_CPUID] = "CPUID", [HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[HEADER_CMDLINE] = "CMDLINE", [HEADER_EVENT_DESC] = "EVENT_DESC",
	[HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HEADER_BRANCH_STACK] = "BRANCH_STACK", [HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HEADER_GROUP_DESC] = "GROUP_DESC", [HEADER_AUXTRACE] = "AUXTRACE", [HEADER_STAT] = "STAT",
	[HEADER_CACHE] = "CACHE", [HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
	[HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY", [HEADER_CLOCKID] = "CLOCKID",
	[HEADER_DIR_FORMAT] = "DIR_FORMAT", [HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[HEADER_BPF_BTF] = "BPF_BTF", [HEADER_COMPRESSED] = "COMPRESSED",
	[HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS", [HEADER_CLOCK_DATA] = "CLOCK_DATA",
	[HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY", [HEADER_PMU_CAPS] = "PMU_CAPS",
};

const char *perf_feature__name(int feat)
{
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE || !feat_names[feat])
		return "UNKNOWN";
	return feat_names[feat];
}

/* ---- bounded cursor over a feature payload ---- */

struct fcur {
	const char *p, *end;
	bool swap;
	bool bad;
};

static uint32_t get_u32(struct fcur *c)
{
	uint32_t v = 0;

	if (c->bad || c->end - c->p < 4) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 4);
	c->p += 4;
	return c->swap ? bswap_32(v) : v;
}

static uint64_t get_u64(struct fcur *c)
{
	uint64_t v = 0;

	if (c->bad || c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return c->swap ? bswap_64(v) : v;
}

/* u32 len + len bytes (NUL padded). Returns a malloc'd string or NULL. */
static char *get_str(struct fcur *c)
{
	uint32_t len = get_u32(c);
	char *s;

	if (c->bad || (uint64_t)(c->end - c->p) < len) {
		c->bad = true;
		return NULL;
	}
	s = malloc((size_t)len + 1);
	if (!s) {
		c->bad = true;
		return NULL;
	}
	memcpy(s, c->p, len);
	s[len] = '\0';
	c->p += len;
	return s;
}

static void fcur_init(struct fcur *c, struct perf_data *d, int feat)
{
	struct reader_priv *rp = data__rp(d);

	c->p = rp->feat[feat].data;
	c->end = c->p + rp->feat[feat].size;
	c->swap = d->needs_swap;
	c->bad = !rp->feat[feat].data;
}

/* ---- parsing into env ---- */

static void free_event_desc(struct feat_info *fi)
{
	uint32_t i;

	for (i = 0; i < fi->nr_events; i++) {
		free(fi->events[i].name);
		free(fi->events[i].ids);
	}
	free(fi->events);
	fi->events = NULL;
	fi->nr_events = 0;
}

static int read_event_desc(struct perf_data *d, struct fcur *c)
{
	struct feat_info *fi = &data__rp(d)->fi;
	uint32_t nre = get_u32(c), sz = get_u32(c), i, j, nr;

	if (c->bad || !sz || sz > 4096 || nre > (uint64_t)(c->end - c->p) / sz)
		return -EINVAL;
	free_event_desc(fi);
	fi->events = calloc(nre ? nre : 1, sizeof(*fi->events));
	if (!fi->events)
		return -ENOMEM;
	for (i = 0; i < nre; i++) {
		struct feat_event *e = &fi->events[i];
		size_t cp = min((size_t)sz, sizeof(e->attr));

		if ((uint64_t)(c->end - c->p) < sz)
			return -EINVAL;
		memcpy(&e->attr, c->p, cp);
		if (c->swap)
			perf_event_attr__swap(&e->attr, cp);
		c->p += sz;
		fi->nr_events = i + 1;
		nr = get_u32(c);
		e->name = get_str(c);
		if (c->bad || nr > (uint64_t)(c->end - c->p) / 8)
			return -EINVAL;
		if (nr) {
			e->ids = calloc(nr, sizeof(*e->ids));
			if (!e->ids)
				return -ENOMEM;
			for (j = 0; j < nr; j++)
				e->ids[j] = get_u64(c);
			e->nr_ids = nr;
		}
	}
	return 0;
}

/* Names from EVENT_DESC, by position (perf matches by index). */
static void apply_event_desc(struct perf_data *d)
{
	struct feat_info *fi = &data__rp(d)->fi;
	struct evsel *evsel;
	uint32_t i = 0;

	evlist__for_each_entry(d->evlist, evsel) {
		if (i >= fi->nr_events)
			break;
		if (fi->events[i].name && fi->events[i].name[0])
			evsel__set_name(evsel, fi->events[i].name);
		i++;
	}
}

static void apply_group_desc(struct perf_data *d, struct fcur *c)
{
	uint32_t nr = get_u32(c), i;

	for (i = 0; i < nr && !c->bad; i++) {
		char *name = get_str(c);
		uint32_t leader = get_u32(c), members = get_u32(c);
		struct evsel *evsel, *lead = NULL;
		uint32_t left = 0;

		free(name);
		if (c->bad)
			break;
		evlist__for_each_entry(d->evlist, evsel) {
			if ((uint32_t)evsel->idx == leader && members > 0) {
				lead = evsel;
				evsel->leader = evsel;
				evsel->nr_members = (int)members;
				left = members - 1;
			} else if (lead && left) {
				evsel->leader = lead;
				left--;
			}
		}
	}
	d->evlist->nr_groups = (int)nr;
}

static void read_build_ids(struct perf_data *d, const char *p, uint64_t size)
{
	const char *end = p + size;

	while ((uint64_t)(end - p) >= sizeof(struct perf_record_header_build_id)) {
		struct perf_record_header_build_id bev;
		char fname[4096];
		size_t flen;

		memcpy(&bev, p, sizeof(bev));
		if (d->needs_swap) {
			perf_event_header__swap(&bev.header);
			bev.pid = (s32)bswap_32((u32)bev.pid);
		}
		if (bev.header.size < sizeof(bev) || bev.header.size > end - p)
			break;
		flen = min((size_t)(bev.header.size - sizeof(bev)), sizeof(fname) - 1);
		memcpy(fname, p + sizeof(bev), flen);
		fname[flen] = '\0';
		if (d->ops.build_id) {
			struct build_id bid;
			int cpumode = bev.header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

			memset(&bid, 0, sizeof(bid));
			bid.size = (bev.header.misc & (1 << 15)) ? min((size_t)bev.size, (size_t)BUILD_ID_SIZE)
								 : BUILD_ID_SIZE;
			memcpy(bid.data, bev.data, bid.size);
			d->ops.build_id(d->ops_ctx, fname, &bid,
					cpumode == PERF_RECORD_MISC_KERNEL ||
					cpumode == PERF_RECORD_MISC_GUEST_KERNEL);
		}
		p += bev.header.size;
	}
}

/* CPU_TOPOLOGY: the sibling core and thread lists (strings), then a
 * (core id, socket id) u32 pair for each of the nr_cpus_avail cpus;
 * keeps the socket ids in env->cpu_socket (perf's header.c layout). */
static void read_cpu_sockets(struct perf_env *env, struct fcur *c)
{
	int nr_cpus = env->nr_cpus_avail;
	uint32_t nr;

	free(env->cpu_socket);
	env->cpu_socket = NULL;
	for (int list = 0; list < 2 && !c->bad; list++) {
		nr = get_u32(c);
		for (uint32_t i = 0; i < nr && !c->bad; i++)
			free(get_str(c));
	}
	if (c->bad || nr_cpus <= 0 || c->end - c->p < 8 * (long)nr_cpus)
		return;
	env->cpu_socket = malloc(nr_cpus * sizeof(*env->cpu_socket));
	for (int i = 0; env->cpu_socket && i < nr_cpus; i++) {
		get_u32(c);	/* core id */
		env->cpu_socket[i] = (int32_t)get_u32(c);
	}
}

int perf_data__process_feature(struct perf_data *d, int feat, const void *data, uint64_t size)
{
	struct reader_priv *rp = data__rp(d);
	struct perf_env *env = &d->env;
	struct fcur c;
	void *copy;

	if (feat < 0 || feat >= HEADER_FEAT_BITS)
		return -EINVAL;
	copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, size);
	free(rp->feat[feat].data);
	rp->feat[feat].data = copy;
	rp->feat[feat].size = size;
	fcur_init(&c, d, feat);

	switch (feat) {
	case HEADER_HOSTNAME: free(env->hostname); env->hostname = get_str(&c); break;
	case HEADER_OSRELEASE: free(env->os_release); env->os_release = get_str(&c); break;
	case HEADER_VERSION: free(env->version); env->version = get_str(&c); break;
	case HEADER_ARCH: free(env->arch); env->arch = get_str(&c); break;
	case HEADER_CPUDESC: free(env->cpu_desc); env->cpu_desc = get_str(&c); break;
	case HEADER_CPUID: free(env->cpuid); env->cpuid = get_str(&c); break;
	case HEADER_NRCPUS:
		env->nr_cpus_avail = (int)get_u32(&c);
		env->nr_cpus_online = (int)get_u32(&c);
		break;
	case HEADER_TOTAL_MEM: env->total_mem = get_u64(&c); break;
	case HEADER_CMDLINE: {
		uint32_t nr = get_u32(&c), i;

		if (c.bad || nr > size / 4)
			break;
		env__free_cmdline(env);	/* a pipe may carry the feature twice */
		env->cmdline = calloc(nr + 1, sizeof(char *));
		if (!env->cmdline)
			break;
		for (i = 0; i < nr; i++) {
			char *a = get_str(&c);

			if (!a)
				break;
			env->cmdline[env->nr_cmdline++] = a;
		}
		break;
	}
	case HEADER_CPU_TOPOLOGY:
		read_cpu_sockets(env, &c);
		break;
	case HEADER_EVENT_DESC:
		if (read_event_desc(d, &c))
			pr_debug("%s: bad EVENT_DESC feature\n", d->path);
		apply_event_desc(d);
		break;
	case HEADER_GROUP_DESC:
		apply_group_desc(d, &c);
		break;
	case HEADER_BUILD_ID:
		read_build_ids(d, data, size);
		break;
	case HEADER_TRACING_DATA:
		free(env->tracing_data);
		env->tracing_data = malloc(size ? size : 1);
		if (env->tracing_data) {
			memcpy(env->tracing_data, data, size);
			env->tracing_data_size = size;
		}
		break;
	case HEADER_SAMPLE_TIME:
		env->sample_time_start = get_u64(&c);
		env->sample_time_end = get_u64(&c);
		break;
	case HEADER_CLOCKID:
		env->clockid_res_ns = get_u64(&c);
		break;
	case HEADER_CLOCK_DATA:
		get_u32(&c);
		env->clockid = (int)get_u32(&c);
		env->clock_tod_ns = get_u64(&c);
		env->clock_clockid_ns = get_u64(&c);
		env->clock_data = !c.bad;
		break;
	case HEADER_COMPRESSED:
		get_u32(&c);	/* version */
		env->comp_type = (int)get_u32(&c);
		env->comp_level = (int)get_u32(&c);
		env->comp_ratio = get_u32(&c);
		env->comp_mmap_len = get_u32(&c);
		if (env->comp_mmap_len > (1u << 30))
			env->comp_mmap_len = 0;
		break;
	default:
		break;
	}
	return c.bad ? -EINVAL : 0;
}

int perf_data__feature_raw(const struct perf_data *d, int feat, const void **buf, size_t *len)
{
	const struct reader_priv *rp = d->reader;

	if (!rp || feat < 0 || feat >= HEADER_FEAT_BITS || !rp->feat[feat].data ||
	    !perf_data__has_feat(d, feat))
		return -ENOENT;
	*buf = rp->feat[feat].data;
	*len = rp->feat[feat].size;
	return 0;
}

void env__free_cmdline(struct perf_env *env)
{
	for (int i = 0; i < env->nr_cmdline; i++)
		free(env->cmdline[i]);
	free(env->cmdline);
	env->cmdline = NULL;
	env->nr_cmdline = 0;
}

void perf_data__free_features(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	int i;

	if (!rp)
		return;
	for (i = 0; i < HEADER_FEAT_BITS; i++) {
		free(rp->feat[i].data);
		rp->feat[i].data = NULL;
	}
	free_event_desc(&rp->fi);
}

/* ---- printing (perf report --header-only layout) ---- */

struct bit_name { uint64_t bit; const char *name; };

static void print_bits(FILE *fp, uint64_t v, const struct bit_name *b)
{
	bool first = true;

	for (; b->name; b++) {
		if (v & b->bit) {
			fprintf(fp, "%s%s", first ? "" : "|", b->name);
			first = false;
		}
	}
}

#define BN(p, n) { p##n, #n }
static const struct bit_name sample_type_bits[] = {
	BN(PERF_SAMPLE_, IP), BN(PERF_SAMPLE_, TID), BN(PERF_SAMPLE_, TIME), BN(PERF_SAMPLE_, ADDR),
	BN(PERF_SAMPLE_, READ), BN(PERF_SAMPLE_, CALLCHAIN), BN(PERF_SAMPLE_, ID), BN(PERF_SAMPLE_, CPU),
	BN(PERF_SAMPLE_, PERIOD), BN(PERF_SAMPLE_, STREAM_ID), BN(PERF_SAMPLE_, RAW),
	BN(PERF_SAMPLE_, BRANCH_STACK), BN(PERF_SAMPLE_, REGS_USER), BN(PERF_SAMPLE_, STACK_USER),
	BN(PERF_SAMPLE_, IDENTIFIER), BN(PERF_SAMPLE_, REGS_INTR), BN(PERF_SAMPLE_, DATA_SRC),
	BN(PERF_SAMPLE_, WEIGHT), BN(PERF_SAMPLE_, PHYS_ADDR), BN(PERF_SAMPLE_, AUX),
	BN(PERF_SAMPLE_, CGROUP), BN(PERF_SAMPLE_, DATA_PAGE_SIZE), BN(PERF_SAMPLE_, CODE_PAGE_SIZE),
	BN(PERF_SAMPLE_, WEIGHT_STRUCT), { 0, NULL }
};
static const struct bit_name branch_bits[] = {
	BN(PERF_SAMPLE_BRANCH_, USER), BN(PERF_SAMPLE_BRANCH_, KERNEL), BN(PERF_SAMPLE_BRANCH_, HV),
	BN(PERF_SAMPLE_BRANCH_, ANY), BN(PERF_SAMPLE_BRANCH_, ANY_CALL), BN(PERF_SAMPLE_BRANCH_, ANY_RETURN),
	BN(PERF_SAMPLE_BRANCH_, IND_CALL), BN(PERF_SAMPLE_BRANCH_, ABORT_TX), BN(PERF_SAMPLE_BRANCH_, IN_TX),
	BN(PERF_SAMPLE_BRANCH_, NO_TX), BN(PERF_SAMPLE_BRANCH_, COND), BN(PERF_SAMPLE_BRANCH_, CALL_STACK),
	BN(PERF_SAMPLE_BRANCH_, IND_JUMP), BN(PERF_SAMPLE_BRANCH_, CALL), BN(PERF_SAMPLE_BRANCH_, NO_FLAGS),
	BN(PERF_SAMPLE_BRANCH_, NO_CYCLES), BN(PERF_SAMPLE_BRANCH_, TYPE_SAVE), BN(PERF_SAMPLE_BRANCH_, HW_INDEX),
	{ 0, NULL }
};
static const struct bit_name read_format_bits[] = {
	BN(PERF_FORMAT_, TOTAL_TIME_ENABLED), BN(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	BN(PERF_FORMAT_, ID), BN(PERF_FORMAT_, GROUP), { 1ULL << 4, "LOST" }, { 0, NULL }
};

/* Where one perf_event_attr is being printed: the header's ", name =
 * value" list or evlist -v's ": name: value, name: value". */
struct attr_out {
	FILE *fp;
	bool evlist;
	bool *first;
};

static void attr_name(struct attr_out *o, const char *name)
{
	if (!o->evlist) {
		fprintf(o->fp, ", %s = ", name);
		return;
	}
	fprintf(o->fp, "%s %s: ", *o->first ? ":" : ",", name);
	*o->first = false;
}

#define P_U(name, v) do { if (v) { attr_name(o, name); fprintf(o->fp, "%" PRIu64, (uint64_t)(v)); } } while (0)
#define P_X(name, v) do { if (v) { attr_name(o, name); fprintf(o->fp, "%#" PRIx64, (uint64_t)(v)); } } while (0)
#define P_B(name, v, bits) do { if (v) { attr_name(o, name); print_bits(o->fp, v, bits); } } while (0)
#define P_F(f) P_U(#f, a->f)

static void attr_print(struct attr_out *o, const struct perf_event_attr *a)
{
	P_F(type);
	P_F(size);
	P_X("config", a->config);
	P_U("{ sample_period, sample_freq }", a->sample_period);
	P_B("sample_type", a->sample_type, sample_type_bits);
	P_B("read_format", a->read_format, read_format_bits);
	P_F(disabled); P_F(inherit); P_F(pinned); P_F(exclusive); P_F(exclude_user);
	P_F(exclude_kernel); P_F(exclude_hv); P_F(exclude_idle); P_F(mmap); P_F(comm); P_F(freq);
	P_F(inherit_stat); P_F(enable_on_exec); P_F(task); P_F(watermark); P_F(precise_ip);
	P_F(mmap_data); P_F(sample_id_all); P_F(exclude_host); P_F(exclude_guest);
	P_F(exclude_callchain_kernel); P_F(exclude_callchain_user); P_F(mmap2); P_F(comm_exec);
	P_F(use_clockid); P_F(context_switch); P_F(write_backward); P_F(namespaces); P_F(ksymbol);
	P_F(bpf_event); P_F(aux_output); P_F(cgroup); P_F(text_poke); P_F(build_id);
	P_F(inherit_thread); P_F(remove_on_exec); P_F(sigtrap);
	P_U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	P_F(bp_type);
	P_X("{ bp_addr, config1 }", a->bp_addr);
	P_X("{ bp_len, config2 }", a->bp_len);
	P_B("branch_sample_type", a->branch_sample_type, branch_bits);
	P_X("sample_regs_user", a->sample_regs_user);
	P_F(sample_stack_user);
	if (a->clockid) {
		attr_name(o, "clockid");
		fprintf(o->fp, "%" PRId64, (int64_t)a->clockid);
	}
	P_X("sample_regs_intr", a->sample_regs_intr);
	P_F(aux_watermark);
	P_F(sample_max_stack);
	P_F(aux_sample_size);
	P_F(sig_data);
}

void perf_event_attr__fprintf_desc(FILE *fp, const struct perf_event_attr *a)
{
	struct attr_out o = { .fp = fp };

	attr_print(&o, a);
}

void perf_event_attr__fprintf_evlist(FILE *fp, const struct perf_event_attr *a, bool *first)
{
	struct attr_out o = { .fp = fp, .evlist = true, .first = first };

	attr_print(&o, a);
}

static void print_event_desc(struct perf_data *d, FILE *fp)
{
	struct feat_info *fi = &data__rp(d)->fi;
	uint32_t i, j;

	if (!fi->events) {
		fprintf(fp, "# event desc: not available or unable to read\n");
		return;
	}
	for (i = 0; i < fi->nr_events; i++) {
		struct feat_event *e = &fi->events[i];

		fprintf(fp, "# event : name = %s, ", e->name ? e->name : "");
		if (e->nr_ids) {
			fprintf(fp, ", id = {");
			for (j = 0; j < e->nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fprintf(fp, " }");
		}
		perf_event_attr__fprintf_desc(fp, &e->attr);
		fputc('\n', fp);
	}
}

static void print_str_list(struct fcur *c, FILE *fp, const char *prefix, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr && !c->bad; i++) {
		char *str = get_str(c);

		if (str)
			fprintf(fp, "# %s : %s\n", prefix, str);
		free(str);
	}
}

static void print_cpu_topology(struct perf_data *d, struct fcur *c, FILE *fp)
{
	uint32_t nr_cores, nr_threads, nr_dies = 0, i;
	int cpu_nr = d->env.nr_cpus_avail;
	uint32_t *core = NULL, *sock = NULL, *die = NULL;
	char **dies = NULL;
	const char *save;

	nr_cores = get_u32(c);
	print_str_list(c, fp, "sibling sockets", nr_cores);
	/* dies come after the threads and core ids in the file, but perf prints
	 * them before the threads: read ahead */
	save = c->p;
	nr_threads = get_u32(c);
	for (i = 0; i < nr_threads && !c->bad; i++)
		free(get_str(c));
	if (cpu_nr > 0 && cpu_nr < 1 << 20 && c->end - c->p >= 8 * cpu_nr) {
		core = calloc(cpu_nr, 4);
		sock = calloc(cpu_nr, 4);
		for (i = 0; core && sock && i < (uint32_t)cpu_nr; i++) {
			core[i] = get_u32(c);
			sock[i] = get_u32(c);
		}
		if (c->end - c->p >= 4) {
			nr_dies = get_u32(c);
			if (nr_dies < 1 << 20)
				dies = calloc(nr_dies ? nr_dies : 1, sizeof(char *));
			for (i = 0; dies && i < nr_dies && !c->bad; i++)
				dies[i] = get_str(c);
			if (c->end - c->p >= 4 * cpu_nr) {
				die = calloc(cpu_nr, 4);
				for (i = 0; die && i < (uint32_t)cpu_nr; i++)
					die[i] = get_u32(c);
			}
		}
	}
	for (i = 0; dies && i < nr_dies; i++)
		if (dies[i])
			fprintf(fp, "# sibling dies    : %s\n", dies[i]);
	c->p = save;
	c->bad = false;
	nr_threads = get_u32(c);
	print_str_list(c, fp, "sibling threads", nr_threads);
	if (nr_dies) {
		if (core && sock && die)
			for (i = 0; i < (uint32_t)cpu_nr; i++)
				fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
					(int)core[i], (int)die[i], (int)sock[i]);
		else
			fprintf(fp, "# Core ID, Die ID and Socket ID information is not available\n");
	} else {
		if (core && sock)
			for (i = 0; i < (uint32_t)cpu_nr; i++)
				fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i, (int)core[i], (int)sock[i]);
		else
			fprintf(fp, "# Core ID and Socket ID information is not available\n");
	}
	for (i = 0; dies && i < nr_dies; i++)
		free(dies[i]);
	free(dies);
	free(core);
	free(sock);
	free(die);
}

static void print_numa(struct fcur *c, FILE *fp)
{
	uint32_t nr = get_u32(c), i;

	for (i = 0; i < nr && !c->bad; i++) {
		uint32_t node = get_u32(c);
		uint64_t total = get_u64(c), fr = get_u64(c);
		char *cpus = get_str(c);

		if (c->bad)
			break;
		fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n", node, total, fr);
		fprintf(fp, "# node%u cpu list : %s\n", node, cpus);
		free(cpus);
	}
}

static void print_pmu_mappings(struct fcur *c, FILE *fp)
{
	uint32_t nr = get_u32(c), i;
	const char *delim = "# pmu mappings: ";

	if (!nr) {
		fprintf(fp, "# pmu mappings: not available\n");
		return;
	}
	for (i = 0; i < nr; i++) {
		uint32_t type = get_u32(c);
		char *name = get_str(c);

		if (!name) {
			fprintf(fp, "\n# pmu mappings: unable to read\n");
			return;
		}
		fprintf(fp, "%s%s = %u", delim, name, type);
		delim = ", ";
		free(name);
	}
	fprintf(fp, "\n");
}

static void print_group_desc(struct perf_data *d, FILE *fp)
{
	struct evsel *evsel;
	int nr = 0;

	evlist__for_each_entry(d->evlist, evsel) {
		if (evsel->leader == evsel && evsel->nr_members > 1) {
			fprintf(fp, "# group: {%s", evsel__name(evsel));
			nr = evsel->nr_members - 1;
		} else if (nr) {
			fprintf(fp, ",%s", evsel__name(evsel));
			if (--nr == 0)
				fprintf(fp, "}\n");
		}
	}
}

static void print_cache(struct fcur *c, FILE *fp)
{
	uint32_t ver = get_u32(c), cnt, i;

	fprintf(fp, "# CPU cache info:\n");
	if (ver != 1)
		return;
	cnt = get_u32(c);
	for (i = 0; i < cnt && !c->bad; i++) {
		uint32_t level = get_u32(c);
		char *type, *size, *map;

		get_u32(c); get_u32(c); get_u32(c);	/* line_size, sets, ways */
		type = get_str(c);
		size = get_str(c);
		map = get_str(c);
		if (!c->bad)
			fprintf(fp, "#  L%d %-15s %8s [%s]\n", level, type, size, map);
		free(type);
		free(size);
		free(map);
	}
}

static void print_usec(FILE *fp, const char *label, uint64_t ns)
{
	fprintf(fp, "# %s : %" PRIu64 ".%06" PRIu64 "\n", label, ns / NSEC_PER_SEC, ns % NSEC_PER_SEC / 1000);
}

static void unit_number(char *buf, size_t sz, uint64_t n)
{
	static const char units[] = "BKMGTPEZY";
	int i = 0;

	while (n / 1024 > 1 && i < 8) {
		n /= 1024;
		i++;
	}
	snprintf(buf, sz, "%" PRIu64 "%c", n, units[i]);
}

static void print_mem_topology(struct fcur *c, FILE *fp)
{
	uint64_t ver = get_u64(c), bsize, nr, i;

	if (ver != 1)
		return;
	bsize = get_u64(c);
	nr = get_u64(c);
	if (c->bad)
		return;
	fprintf(fp, "# memory nodes (nr %d, block size %#" PRIx64 "):\n", (int)nr, bsize);
	for (i = 0; i < nr && !c->bad; i++) {
		uint64_t node = get_u64(c), nsize = get_u64(c), bits = get_u64(c), words, w, weight = 0;
		struct strbuf sb = STRBUF_INIT;
		char size[32];
		long start = -1;
		uint64_t b;

		(void)nsize;	/* node bitmap: u64 size (bits) then u64 words (do_write_bitmap) */
		words = bits / 64 + (bits % 64 != 0);	/* (bits + 63) overflows */
		if (c->bad || words > (uint64_t)(c->end - c->p) / 8)
			break;
		for (b = 0; b <= bits; b++) {
			bool set = false;

			if (b < bits) {
				memcpy(&w, c->p + (b / 64) * 8, 8);
				if (c->swap)
					w = bswap_64(w);
				set = w >> (b % 64) & 1;
			}
			if (set) {
				weight++;
				if (start < 0)
					start = (long)b;
			} else if (start >= 0) {
				if (sb.len)
					strbuf_addch(&sb, ',');
				if ((uint64_t)start == b - 1)
					strbuf_addf(&sb, "%ld", start);
				else
					strbuf_addf(&sb, "%ld-%" PRIu64, start, b - 1);
				start = -1;
			}
		}
		c->p += words * 8;
		unit_number(size, sizeof(size), bsize * weight);
		fprintf(fp, "#  %3" PRIu64 " [%s]: %s\n", node, size, sb.len ? sb.buf : "");
		strbuf_release(&sb);
	}
}

static const char *clockid_name(int id)
{
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(unknown)";
	}
}

static void print_clock_data(struct fcur *c, FILE *fp)
{
	uint32_t ver = get_u32(c), clockid = get_u32(c);
	uint64_t tod = get_u64(c), clk = get_u64(c);
	char tbuf[64], date[48];
	time_t secs;
	struct tm tm;

	if (c->bad || ver != 1)
		return;
	secs = (time_t)(tod / NSEC_PER_SEC);
	if (localtime_r(&secs, &tm) && strftime(date, sizeof(date), "%F %T", &tm))
		snprintf(tbuf, sizeof(tbuf), "%s.%06d", date, (int)(tod % NSEC_PER_SEC / 1000));
	else
		snprintf(tbuf, sizeof(tbuf), "(unknown)");
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name((int)clockid), clockid);
	fprintf(fp, "# reference time: %s = %" PRIu64 ".%06d (TOD) = %" PRIu64 ".%09" PRIu64 " (%s)\n",
		tbuf, tod / NSEC_PER_SEC, (int)(tod % NSEC_PER_SEC / 1000),
		clk / NSEC_PER_SEC, clk % NSEC_PER_SEC, clockid_name((int)clockid));
}

static void print_caps(struct fcur *c, FILE *fp, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr && !c->bad; i++) {
		char *n = get_str(c), *v = get_str(c);

		if (n && v)
			fprintf(fp, "%s%s=%s", i ? ", " : "", n, v);
		free(n);
		free(v);
	}
	fputc('\n', fp);
}

static void print_feature(struct perf_data *d, int feat, FILE *fp)
{
	struct perf_env *env = &d->env;
	struct fcur c;

	fcur_init(&c, d, feat);
	switch (feat) {
	case HEADER_HOSTNAME: fprintf(fp, "# hostname : %s\n", env->hostname ? env->hostname : ""); break;
	case HEADER_OSRELEASE: fprintf(fp, "# os release : %s\n", env->os_release ? env->os_release : ""); break;
	case HEADER_VERSION: fprintf(fp, "# perf version : %s\n", env->version ? env->version : ""); break;
	case HEADER_ARCH: fprintf(fp, "# arch : %s\n", env->arch ? env->arch : ""); break;
	case HEADER_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n", env->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", env->nr_cpus_avail);
		break;
	case HEADER_CPUDESC: fprintf(fp, "# cpudesc : %s\n", env->cpu_desc ? env->cpu_desc : ""); break;
	case HEADER_CPUID: fprintf(fp, "# cpuid : %s\n", env->cpuid ? env->cpuid : ""); break;
	case HEADER_TOTAL_MEM: fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)env->total_mem); break;
	case HEADER_CMDLINE: {
		int i;

		fprintf(fp, "# cmdline : ");
		for (i = 0; i < env->nr_cmdline; i++) {
			const char *a = env->cmdline[i];

			for (; *a; a++) {
				if (*a == '\'')
					fputs("\\'", fp);
				else
					fputc(*a, fp);
			}
			fputc(' ', fp);
		}
		fputc('\n', fp);
		break;
	}
	case HEADER_EVENT_DESC: print_event_desc(d, fp); break;
	case HEADER_CPU_TOPOLOGY: print_cpu_topology(d, &c, fp); break;
	case HEADER_NUMA_TOPOLOGY: print_numa(&c, fp); break;
	case HEADER_BRANCH_STACK: fprintf(fp, "# contains samples with branch stack\n"); break;
	case HEADER_PMU_MAPPINGS: print_pmu_mappings(&c, fp); break;
	case HEADER_GROUP_DESC: print_group_desc(d, fp); break;
	case HEADER_AUXTRACE: fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n"); break;
	case HEADER_STAT: fprintf(fp, "# contains stat data\n"); break;
	case HEADER_CACHE: print_cache(&c, fp); break;
	case HEADER_SAMPLE_TIME: {
		double d = (double)(env->sample_time_end - env->sample_time_start) / 1e6;

		print_usec(fp, "time of first sample", env->sample_time_start);
		print_usec(fp, "time of last sample", env->sample_time_end);
		fprintf(fp, "# sample duration : %10.3f ms\n", d);
		break;
	}
	case HEADER_MEM_TOPOLOGY: print_mem_topology(&c, fp); break;
	case HEADER_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", env->clockid_res_ns * 1000);
		break;
	case HEADER_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", get_u64(&c));
		break;
	case HEADER_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			env->comp_type == 1 ? "Zstd" : "Unknown", env->comp_level, (int)env->comp_ratio);
		break;
	case HEADER_CPU_PMU_CAPS: {
		uint32_t nr = get_u32(&c);

		if (!nr) {
			fprintf(fp, "# cpu pmu capabilities: not available\n");
			break;
		}
		fprintf(fp, "# cpu pmu capabilities: ");
		print_caps(&c, fp, nr);
		break;
	}
	case HEADER_CLOCK_DATA: print_clock_data(&c, fp); break;
	case HEADER_HYBRID_TOPOLOGY: {
		uint32_t nr = get_u32(&c), i;

		fprintf(fp, "# hybrid cpu system:\n");
		for (i = 0; i < nr && !c.bad; i++) {
			char *pmu = get_str(&c), *cpus = get_str(&c);

			if (pmu && cpus)
				fprintf(fp, "# %s cpu list : %s\n", pmu, cpus);
			free(pmu);
			free(cpus);
		}
		break;
	}
	case HEADER_PMU_CAPS: {
		uint32_t nr = get_u32(&c), i;

		for (i = 0; i < nr && !c.bad; i++) {
			uint32_t ncaps = get_u32(&c);
			char *pmu = get_str(&c);

			if (!pmu)
				break;
			if (!ncaps) {
				fprintf(fp, "# %s pmu capabilities: not available\n", pmu);
			} else {
				fprintf(fp, "# %s pmu capabilities: ", pmu);
				print_caps(&c, fp, ncaps);
			}
			free(pmu);
		}
		break;
	}
	case HEADER_BPF_PROG_INFO: perf_data__fprintf_bpf_prog_info(d, fp); break;
	case HEADER_BPF_BTF: perf_data__fprintf_bpf_btf(d, fp); break;
	default:	/* TRACING_DATA, BUILD_ID: nothing, as perf */
		break;
	}
}

static bool feat_full_only(int feat)
{
	return feat == HEADER_CPU_TOPOLOGY || feat == HEADER_NUMA_TOPOLOGY ||
	       feat == HEADER_CACHE || feat == HEADER_MEM_TOPOLOGY;
}

static void print_features(struct perf_data *d, FILE *fp, bool full)
{
	int feat;

	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++) {
		if (!perf_data__has_feat(d, feat) || !data__rp(d)->feat[feat].data)
			continue;
		if (feat_full_only(feat) && !full) {
			fprintf(fp, "# %s info available, use -I to display\n", perf_feature__name(feat));
			continue;
		}
		print_feature(d, feat, fp);
	}
}

void perf_data__fprintf_info(struct perf_data *d, FILE *fp, bool full)
{
	struct stat st;
	int feat;

	fprintf(fp, "# ========\n");
	if (d->fd >= 0 && fstat(d->fd, &st) == 0) {
		time_t t = st.st_mtime;

		fprintf(fp, "# captured on    : %s", ctime(&t));
	}
	if (!d->pipe) {
		fprintf(fp, "# header version : 1\n");
		fprintf(fp, "# data offset    : %" PRIu64 "\n", d->header.data.offset);
		fprintf(fp, "# data size      : %" PRIu64 "\n", d->header.data.size);
		fprintf(fp, "# feat offset    : %" PRIu64 "\n", d->header.data.offset + d->header.data.size);
	} else {
		fprintf(fp, "# header version : 1\n");
		fprintf(fp, "# data offset    : 0\n");
		fprintf(fp, "# data size      : 0\n");
		fprintf(fp, "# feat offset    : 0\n");
	}
	if (!d->pipe)
		print_features(d, fp, full);
	if (!d->pipe) {
		fprintf(fp, "# missing features: ");
		for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
			if (!perf_data__has_feat(d, feat))
				fprintf(fp, "%s ", perf_feature__name(feat));
		fprintf(fp, "\n");
	}
	fprintf(fp, "# ========\n#\n");
	/* pipe mode: perf prints the features as their records arrive, after
	 * the header block; the caller processes the events first */
	if (d->pipe)
		print_features(d, fp, full);
}

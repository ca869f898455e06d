// SPDX-License-Identifier: GPL-2.0
/* cpu -> socket/die/core/node from sysfs; see cpu-topology.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu-topology.h"
#include "cpumap.h"
#include "../lib/util.h"

static int topology_read(const char *root, int cpu, const char *file, int *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", root, cpu, file);
	return filename__read_int(path, val);
}

/* The node whose cpulist holds cpu, by the cpuN/nodeM link first. */
static int cpu__node(const char *root, int cpu)
{
	char path[256];
	struct dirent *de;
	DIR *dir;
	int node = -1;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d", root, cpu);
	dir = opendir(path);
	while (dir && (de = readdir(dir)) != NULL) {
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9') {
			node = atoi(de->d_name + 4);
			break;
		}
	}
	if (dir)
		closedir(dir);
	if (node >= 0)
		return node;
	snprintf(path, sizeof(path), "%s/devices/system/node", root);
	dir = opendir(path);
	while (dir && node < 0 && (de = readdir(dir)) != NULL) {
		struct perf_cpu_map *cpus;
		char list[600], *buf = NULL;

		if (strncmp(de->d_name, "node", 4) || de->d_name[4] < '0' || de->d_name[4] > '9')
			continue;
		snprintf(list, sizeof(list), "%s/%s/cpulist", path, de->d_name);
		if (filename__read_str(list, &buf, NULL))
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		cpus = perf_cpu_map__new(buf);
		if (cpus && perf_cpu_map__idx(cpus, cpu) >= 0)
			node = atoi(de->d_name + 4);
		perf_cpu_map__put(cpus);
		free(buf);
	}
	if (dir)
		closedir(dir);
	return node < 0 ? 0 : node;
}

int cpu__topology_id(const char *root, int cpu, struct cpu_topology_id *id)
{
	int err;

	if (!root)
		root = "/sys";
	err = topology_read(root, cpu, "physical_package_id", &id->socket);
	if (!err)
		err = topology_read(root, cpu, "core_id", &id->core);
	if (err)
		return err < 0 ? err : -ENOENT;
	if (topology_read(root, cpu, "die_id", &id->die))
		id->die = 0;
	id->node = cpu__node(root, cpu);
	return 0;
}

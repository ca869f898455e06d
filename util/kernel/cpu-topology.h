/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_CPU_TOPOLOGY_H
#define PRF_KERNEL_CPU_TOPOLOGY_H
/*
 * Where a cpu sits: socket, die, core (sysfs
 * /sys/devices/system/cpu/cpuN/topology/{physical_package_id,die_id,
 * core_id}, Documentation/admin-guide/cputopology.rst) and NUMA node
 * (the cpuN/nodeM link, else /sys/devices/system/node/nodeM/cpulist).
 */

struct cpu_topology_id {
	int socket;	/* physical_package_id */
	int die;	/* die_id; 0 when the kernel has none */
	int core;	/* core_id */
	int node;	/* NUMA node; 0 when the kernel has none */
};

/*
 * Fill *id for cpu from sysfs under root (NULL: "/sys"; tests pass a
 * fake tree). Returns 0, or -errno when the cpu's topology directory
 * cannot be read (-ENOENT: no such cpu).
 */
int cpu__topology_id(const char *root, int cpu, struct cpu_topology_id *id);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* cpus.h - CPU lists (/sys/devices/system/cpu/possible and online). */
#ifndef SWITCHSTAT_CPUS_H
#define SWITCHSTAT_CPUS_H

#include <stdbool.h>

/*
 * ss_parse_cpu_list - number of CPU slots described by a kernel cpu list
 * such as "0-3,8-11\n": highest CPU + 1 (what per-CPU maps are sized by).
 * Returns the count, or -1 on malformed input.
 */
int ss_parse_cpu_list(const char *s);

/*
 * ss_parse_cpu_mask - parse a kernel CPU list ("0-3,8\n", the format of
 * /sys/devices/system/cpu/online) into @mask[0 .. @ncpus - 1], true for
 * listed CPUs.  CPUs at or above @ncpus are ignored.  Returns 0, or -1 on
 * malformed input (then @mask is unspecified).
 */
int ss_parse_cpu_mask(const char *s, bool *mask, int ncpus);

/* ss_possible_cpus - ss_parse_cpu_list of the possible file; -1 on error. */
int ss_possible_cpus(void);

/*
 * ss_online_cpus - online[cpu] = true for each online CPU below n, from
 * /sys/devices/system/cpu/online.  Returns 0, or -1 if the file is
 * unreadable or malformed.
 */
int ss_online_cpus(bool *online, int n);

/*
 * ss_cpu_hotplug_settled - false while CPU @cpu is between hotplug steps
 * (its hotplug/state differs from hotplug/target, kernel/cpu.c): the
 * online mask shows a CPU coming up before perf's own online step, and a
 * perf event opened there before that step never counts.  True when the
 * files are absent.
 */
bool ss_cpu_hotplug_settled(int cpu);

#endif

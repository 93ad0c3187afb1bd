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

/* ss_possible_cpus - ss_parse_cpu_list of the possible file; -1 on error. */
int ss_possible_cpus(void);

/*
 * ss_online_cpus - online[cpu] = true for each online CPU below n, from
 * /sys/devices/system/cpu/online.  Returns 0, or -1 if the file is
 * unreadable or malformed.
 */
int ss_online_cpus(bool *online, int n);

#endif

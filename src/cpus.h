/* SPDX-License-Identifier: GPL-2.0 */
/* cpus.h - CPU list parsing (/sys/devices/system/cpu/possible). */
#ifndef SWITCHSTAT_CPUS_H
#define SWITCHSTAT_CPUS_H

/*
 * ss_parse_cpu_list - number of CPU slots described by a kernel cpu list
 * such as "0-3,8-11\n": highest CPU + 1 (what per-CPU maps are sized by).
 * Returns the count, or -1 on malformed input.
 */
int ss_parse_cpu_list(const char *s);

/* ss_possible_cpus - ss_parse_cpu_list of the possible file; -1 on error. */
int ss_possible_cpus(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * psi.h - a cgroup's CPU pressure (PSI, cpu.pressure in cgroupfs): the
 * share of each interval in which some task of the cgroup was runnable but
 * waited for a CPU.  The kernel's `some total=` is a cumulative count of
 * such microseconds; an interval's share is its delta over the wall time
 * between two reads.  No BPF.
 */
#ifndef SWITCHSTAT_PSI_H
#define SWITCHSTAT_PSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * ss_psi_parse_some - the `total=` (microseconds) of the `some` line of a
 * PSI file's text (Documentation/accounting/psi.rst).  Returns 0, or
 * -EINVAL when @text has no such line.
 */
int ss_psi_parse_some(const char *text, uint64_t *total_us);

/*
 * ss_psi_read_cpu_some - the `some` total of MOUNT/PATH/cpu.pressure
 * (PATH relative to the cgroup v2 mount, "/" for the root).  Returns 0,
 * or -errno (-ENOENT: no such cgroup, or a kernel without PSI).
 */
int ss_psi_read_cpu_some(const char *mount, const char *path,
			 uint64_t *total_us);

/* ss_psi_available - the kernel keeps PSI (PROC/pressure/cpu reads). */
bool ss_psi_available(const char *proc);

/* One cgroup's last read. */
struct ss_psi_ent {
	uint64_t id; /* cgroup id */
	uint64_t total_us; /* `some total=` at read_ns */
	uint64_t read_ns; /* CLOCK_MONOTONIC of the read */
	uint64_t at; /* the interval it was read for */
	double pct; /* share of the time since the read before, percent */
	bool have_pct; /* false: first read, no share yet */
};

/* The last read of each cgroup shown (unsorted; few cgroups). */
struct ss_psi_cache {
	struct ss_psi_ent *e;
	size_t n, cap;
};

/*
 * ss_psi_note - record a read of cgroup @id for interval @at (any stamp
 * unique to the interval): @total_us read at @now_ns.  The share is the
 * total's growth over the time since that cgroup's previous read, in
 * percent (100: some task waited all the time).  Returns the entry, or
 * NULL (out of memory).
 */
struct ss_psi_ent *ss_psi_note(struct ss_psi_cache *c, uint64_t id, uint64_t at,
			       uint64_t total_us, uint64_t now_ns);

/*
 * ss_psi_interval - cgroup @id's entry for interval @at: read from
 * MOUNT/PATH/cpu.pressure now unless already read for @at (the table and
 * the exporter share one read).  NULL when unreadable (or no memory).
 */
struct ss_psi_ent *ss_psi_interval(struct ss_psi_cache *c, const char *mount,
				   const char *path, uint64_t id, uint64_t at);

/* ss_psi_find - the entry of cgroup @id, or NULL. */
struct ss_psi_ent *ss_psi_find(const struct ss_psi_cache *c, uint64_t id);

/* ss_psi_free - release the cache's memory. */
void ss_psi_free(struct ss_psi_cache *c);

#endif

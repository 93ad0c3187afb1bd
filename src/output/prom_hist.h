/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_hist.h - the exporter's histogram series: cumulative log2 slot
 * counts per cgroup and kind since start, never reset by the interval.  At
 * most max_series cgroups; histograms of new cgroups past that are summed
 * into one `other` series (and counted).  A series whose cgroup is gone
 * keeps its last counts for ttl_ns after it was last seen, then is
 * dropped.  Pure: no BPF, no I/O.
 */
#ifndef SWITCHSTAT_PROM_HIST_H
#define SWITCHSTAT_PROM_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/shared.h"
#include "probes/hist_shared.h"

/* One cgroup's histograms (or the `other` series). */
struct ss_hist_series {
	uint64_t cgroup_id; /* 0 with other */
	bool other;
	unsigned int kinds; /* bit k: kind k was ever added */
	uint64_t last_seen_ns;
	uint64_t slots[SS_HK_MAX][SS_HIST_SLOTS];
};

/* Whether the cgroup of a series still exists (a live one is kept). */
typedef bool (*ss_hist_alive_fn)(uint64_t cgroup_id, void *ctx);

struct ss_hist_store {
	size_t max_series; /* cap, without the `other` series */
	uint64_t ttl_ns;
	ss_hist_alive_fn alive; /* NULL: every idle series is gone */
	void *alive_ctx;
	struct ss_hist_series *s; /* in creation order */
	size_t n, cap;
	struct ss_hist_series other;
	bool have_other;
	uint64_t overflow; /* histograms summed into `other` */
	uint64_t expired; /* series dropped after the TTL */
};

/* ss_hist_store_init - empty store: at most @max_series cgroups, @ttl_ns. */
void ss_hist_store_init(struct ss_hist_store *st, size_t max_series,
			uint64_t ttl_ns);

/*
 * ss_hist_store_add - add one interval's histogram of @kind (SS_HIST_SLOTS
 * counts) of cgroup @cgroup_id to its series, made if new and the cap
 * allows, else to `other`; @now_ns marks it seen.  Returns 0, -EINVAL for
 * a bad kind, or -ENOMEM (the counts then go to `other`).
 */
int ss_hist_store_add(struct ss_hist_store *st, uint64_t cgroup_id,
		      unsigned int kind, const uint64_t *slots,
		      uint64_t now_ns);

/*
 * ss_hist_store_expire - drop series not seen for more than ttl_ns whose
 * cgroup is gone (alive returns false, or is NULL).  Returns how many.
 */
size_t ss_hist_store_expire(struct ss_hist_store *st, uint64_t now_ns);

/* ss_hist_store_find - the series of @cgroup_id, or NULL. */
const struct ss_hist_series *ss_hist_store_find(const struct ss_hist_store *st,
						uint64_t cgroup_id);

/* ss_hist_store_free - release the store's memory. */
void ss_hist_store_free(struct ss_hist_store *st);

#endif

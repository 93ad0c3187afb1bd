/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_pairs.h - the exporter's series with labels beyond a row's
 * (--wakers: the waker; --stacks: the stack): cumulative values per
 * (label set of the row, extra label values), never reset.  At most
 * max_series of them; the rest are summed into one `other` series whose
 * labels are all "other" (and counted).  A series whose owner is gone
 * (alive() false) is dropped ttl_ns after it was last seen, as
 * prom_series.h's.  Pure: no BPF, no I/O.
 */
#ifndef SWITCHSTAT_PROM_PAIRS_H
#define SWITCHSTAT_PROM_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prom_series.h"

#define SS_PAIR_VALS 2

struct ss_pair {
	struct ss_series_key key; /* the row's label set */
	char *extra; /* extra label values, each NUL-terminated */
	size_t extra_len; /* bytes of extra, the last NUL included */
	uint64_t v[SS_PAIR_VALS];
	uint64_t last_seen_ns;
};

struct ss_pair_store {
	size_t max_series; /* cap, without `other` */
	uint64_t ttl_ns;
	ss_series_alive_fn alive; /* NULL: everything is gone when idle */
	void *alive_ctx;
	struct ss_pair *p; /* dense, in creation order */
	size_t n, cap;
	int32_t *slot; /* open-addressing index into p, -1 empty */
	size_t nslots;
	struct ss_pair other;
	bool have_other;
	uint64_t overflow; /* adds summed into `other` */
	uint64_t expired;
};

/*
 * ss_pair_init - empty store of at most @max_series series, gone ones
 * kept @ttl_ns.  Returns 0 or -ENOMEM.
 */
int ss_pair_init(struct ss_pair_store *st, size_t max_series, uint64_t ttl_ns);

/*
 * ss_pair_add - add @v (SS_PAIR_VALS values) to the series of (@key,
 * @extra: @extra_len bytes of NUL-terminated label values), created if
 * new and the cap allows, else to `other`; @now_ns marks it seen.
 * Returns 0, or -ENOMEM (added to `other`).
 */
int ss_pair_add(struct ss_pair_store *st, const struct ss_series_key *key,
		const char *extra, size_t extra_len, const uint64_t *v,
		uint64_t now_ns);

/*
 * ss_pair_expire - drop series not seen for more than ttl_ns whose owner
 * is gone.  Returns how many.
 */
size_t ss_pair_expire(struct ss_pair_store *st, uint64_t now_ns);

/*
 * ss_pair_extra - the @i-th (from 0) label value of @p's extra, or "" when
 * it has fewer.
 */
const char *ss_pair_extra(const struct ss_pair *p, int i);

/* ss_pair_free - release the store's memory. */
void ss_pair_free(struct ss_pair_store *st);

#endif

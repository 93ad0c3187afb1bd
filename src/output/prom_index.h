/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_index.h - the open-addressing index (linear probing) of the
 * exporter's series stores (prom_series.c, prom_pairs.c): slots of
 * int32_t entry numbers, -1 empty, a power of two of them; FNV-1a hashes.
 * Pure.
 */
#ifndef SWITCHSTAT_PROM_INDEX_H
#define SWITCHSTAT_PROM_INDEX_H

#include <stddef.h>
#include <stdint.h>

#define SS_FNV_BASIS 1469598103934665603ULL

/* ss_fnv1a - FNV-1a 64 of @n bytes at @b, continuing from @h. */
uint64_t ss_fnv1a(uint64_t h, const void *b, size_t n);

/*
 * ss_prom_index_build - index entries 0..@n-1 in *@slot: entry i at the
 * first empty slot from @hash(@ctx, i) on.  @nslots (a power of two,
 * more than @n) slots: *@slot is reused when *@cur equals it, else
 * replaced (and *@cur set).  Returns 0, or -ENOMEM (nothing changed).
 */
int ss_prom_index_build(int32_t **slot, size_t *cur, size_t nslots, size_t n,
			uint64_t (*hash)(const void *ctx, size_t i),
			const void *ctx);

#endif

// SPDX-License-Identifier: GPL-2.0
/* prom_index.c - see prom_index.h */
#include "prom_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ss_fnv1a - see prom_index.h */
uint64_t ss_fnv1a(uint64_t h, const void *b, size_t n)
{
	const unsigned char *p = b;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* ss_prom_index_build - see prom_index.h */
int ss_prom_index_build(int32_t **slot, size_t *cur, size_t nslots, size_t n,
			uint64_t (*hash)(const void *ctx, size_t i),
			const void *ctx)
{
	int32_t *s = nslots == *cur ? *slot : malloc(nslots * sizeof(*s));

	if (!s)
		return -ENOMEM;
	memset(s, 0xff, nslots * sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		size_t j = hash(ctx, i) & (nslots - 1);

		while (s[j] >= 0)
			j = (j + 1) & (nslots - 1);
		s[j] = (int32_t)i;
	}
	if (s != *slot)
		free(*slot);
	*slot = s;
	*cur = nslots;
	return 0;
}

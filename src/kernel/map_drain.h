/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_drain.h - read and delete the entries of a BPF hash map, as
 * libbpf-tools' map_helpers.c dump_hash reads them: batch
 * lookup-and-delete, or where the kernel lacks batch operations, walk the
 * keys, then look up and delete each.
 */
#ifndef SWITCHSTAT_MAP_DRAIN_H
#define SWITCHSTAT_MAP_DRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ss_map_drain {
	int fd; /* the hash map */
	size_t key_size, val_size;
	uint32_t cap; /* entries keys and vals hold */
	void *keys, *vals; /* cap keys and cap values */
	bool no_batch; /* set once batch ops fail as unsupported */
};

/*
 * ss_map_drain - move up to d->cap entries from the map into d->keys and
 * d->vals (entry i at index i), deleting each from the map as it is read.
 * Returns the number moved, or -errno.  A return equal to d->cap may
 * leave entries in the map: call again for the rest.
 */
int ss_map_drain(struct ss_map_drain *d);

/*
 * ss_map_drain_rows - ss_map_drain, then entry i copied into the row at
 * @rows + i * @row_size: its key at offset 0, its value at @val_off (the
 * features' (key, value) row structs).  Returns the count or -errno.
 */
int ss_map_drain_rows(struct ss_map_drain *d, void *rows, size_t row_size,
		      size_t val_off);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * map_drain.c - empty a BPF hash map into buffers (see map_drain.h).
 *
 * Batch lookup-and-delete copies each entry out and deletes it in one
 * syscall per batch, so what the probes add meanwhile stays for the next
 * drain and nothing is counted twice.  Kernels without batch operations
 * answer EINVAL/ENOTSUP/EOPNOTSUPP/ENOSYS: from then on the keys are
 * collected first (deleting while walking restarts the walk), then each
 * entry is looked up and deleted.
 */
#include "map_drain.h"

#include <errno.h>
#include <string.h>

#include <bcc/libbpf.h>

static void *at(void *base, size_t size, uint32_t i)
{
	return (char *)base + (size_t)i * size;
}

/* Did the batch call fail because the kernel has no batch operations? */
static bool batch_unsupported(int err)
{
	return err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP ||
	       err == ENOSYS;
}

static int drain_batch(struct ss_map_drain *d)
{
	uint32_t token = 0, count, total = 0;
	bool first = true;
	int err;

	while (total < d->cap) {
		count = d->cap - total;
		err = bpf_lookup_and_delete_batch(
			d->fd, first ? NULL : &token, &token,
			at(d->keys, d->key_size, total),
			at(d->vals, d->val_size, total), &count);
		if (err && errno == ENOSPC && total)
			break; /* next bucket does not fit: the caller returns */
		if (err && errno != ENOENT)
			return -errno;
		total += count;
		if (err) /* ENOENT: that was the last batch */
			break;
		first = false;
	}
	return total;
}

static int drain_iter(struct ss_map_drain *d)
{
	uint32_t n = 0, total = 0;

	if (bpf_get_next_key(d->fd, NULL, at(d->keys, d->key_size, 0)) == 0) {
		n = 1;
		while (n < d->cap &&
		       bpf_get_next_key(d->fd, at(d->keys, d->key_size, n - 1),
					at(d->keys, d->key_size, n)) == 0)
			n++;
	}
	for (uint32_t i = 0; i < n; i++) {
		void *key = at(d->keys, d->key_size, i);

		if (bpf_lookup_elem(d->fd, key,
				    at(d->vals, d->val_size, total)))
			continue; /* deleted meanwhile (task exit) */
		bpf_delete_elem(d->fd, key);
		if (total != i)
			memcpy(at(d->keys, d->key_size, total), key,
			       d->key_size);
		total++;
	}
	return total;
}

/* ss_map_drain - see map_drain.h */
int ss_map_drain(struct ss_map_drain *d)
{
	if (!d->no_batch) {
		int n = drain_batch(d);

		if (n >= 0 || !batch_unsupported(-n))
			return n;
		d->no_batch = true;
	}
	return drain_iter(d);
}

/* ss_map_drain_rows - see map_drain.h */
int ss_map_drain_rows(struct ss_map_drain *d, void *rows, size_t row_size,
		      size_t val_off)
{
	int n = ss_map_drain(d);

	for (int i = 0; i < n; i++) {
		char *r = (char *)rows + (size_t)i * row_size;

		memcpy(r, (const char *)d->keys + (size_t)i * d->key_size,
		       d->key_size);
		memcpy(r + val_off,
		       (const char *)d->vals + (size_t)i * d->val_size,
		       d->val_size);
	}
	return n;
}

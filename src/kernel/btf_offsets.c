// SPDX-License-Identifier: GPL-2.0
/*
 * btf_offsets.c - task_struct offsets and tracepoint argument counts from
 * BTF with libbpf's BTF API (see btf_offsets.h).
 */
#include "btf_offsets.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

/*
 * Find @member in composite type @t at bit offset @base, into *found;
 * a bitfield only when @bits is not NULL (its size in bits there).
 */
static int find_member_bits(const struct btf *btf, const struct btf_type *t,
			    const char *member, unsigned int base,
			    unsigned int *bit_off, __u32 *type_id,
			    unsigned int *bits, int depth)
{
	const struct btf_member *m = btf_members(t);

	if (depth > 8)
		return -ENOENT;
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		unsigned int off = base + btf_member_bit_offset(t, i);

		if (name && name[0]) {
			if (strcmp(name, member))
				continue;
			if (btf_member_bitfield_size(t, i) && !bits)
				return -EINVAL;
			if (bits)
				*bits = btf_member_bitfield_size(t, i);
			*bit_off = off;
			*type_id = m->type;
			return 0;
		}
		/* anonymous struct or union: its members are ours */
		int id = btf__resolve_type(btf, m->type);
		const struct btf_type *inner =
			id < 0 ? NULL : btf__type_by_id(btf, id);

		if (inner && btf_is_composite(inner) &&
		    !find_member_bits(btf, inner, member, off, bit_off, type_id,
				      bits, depth + 1))
			return 0;
	}
	return -ENOENT;
}

static int find_member(const struct btf *btf, const struct btf_type *t,
		       const char *member, unsigned int base,
		       unsigned int *bit_off, __u32 *type_id, int depth)
{
	return find_member_bits(btf, t, member, base, bit_off, type_id, NULL,
				depth);
}

/* ss_btf_bitfield - see btf_offsets.h */
int ss_btf_bitfield(const struct btf *btf, const char *strct,
		    const char *member, unsigned int *bit_off)
{
	int id = btf__find_by_name_kind(btf, strct, BTF_KIND_STRUCT);
	unsigned int bits = 0;
	__u32 type_id;
	int ret;

	if (id < 0)
		return -ENOENT;
	ret = find_member_bits(btf, btf__type_by_id(btf, id), member, 0,
			       bit_off, &type_id, &bits, 0);
	if (ret)
		return ret;
	return bits == 1 ? 0 : -EINVAL;
}

/* ss_btf_member - see btf_offsets.h */
int ss_btf_member(const struct btf *btf, const char *strct, const char *member,
		  unsigned int *off, unsigned int *size)
{
	int id = btf__find_by_name_kind(btf, strct, BTF_KIND_STRUCT);
	unsigned int bit_off;
	__s64 sz;
	__u32 type_id;
	int ret;

	if (id < 0)
		return -ENOENT;
	ret = find_member(btf, btf__type_by_id(btf, id), member, 0, &bit_off,
			  &type_id, 0);
	if (ret)
		return ret;
	sz = btf__resolve_size(btf, type_id);
	if (bit_off % 8 || sz <= 0)
		return -EINVAL;
	*off = bit_off / 8;
	*size = (unsigned int)sz;
	return 0;
}

/* ss_btf_task_se_u64 - see btf_offsets.h */
int ss_btf_task_se_u64(const struct btf *btf, const char *member,
		       unsigned int *off)
{
	unsigned int se, size;
	int ret = ss_btf_member(btf, "task_struct", "se", &se, &size);

	if (!ret)
		ret = ss_btf_member(btf, "sched_entity", member, off, &size);
	if (!ret && size != 8)
		ret = -EINVAL;
	if (!ret)
		*off += se;
	return ret;
}

/* One task_struct field: its offset into *off; its size must be @want. */
static int field(const struct btf *btf, const char *name, unsigned int *off,
		 unsigned int want)
{
	unsigned int size;
	int ret = ss_btf_member(btf, "task_struct", name, off, &size);

	if (ret)
		return ret;
	return size == want ? 0 : -EINVAL;
}

/* ss_btf_task_offsets - see btf_offsets.h */
int ss_btf_task_offsets(const struct btf *btf, struct ss_task_offsets *o)
{
	int ret;

	if ((ret = field(btf, "pid", &o->pid, 4)) ||
	    (ret = field(btf, "tgid", &o->tgid, 4)) ||
	    (ret = field(btf, "nvcsw", &o->nvcsw, sizeof(long))) ||
	    (ret = field(btf, "nivcsw", &o->nivcsw, sizeof(long))))
		return ret;
	return 0;
}

/* ss_btf_task_state - see btf_offsets.h */
int ss_btf_task_state(const struct btf *btf, unsigned int *off,
		      unsigned int *size, const char **name)
{
	int ret = ss_btf_member(btf, "task_struct", "__state", off, size);

	*name = "__state";
	if (ret == -ENOENT) {
		ret = ss_btf_member(btf, "task_struct", "state", off, size);
		*name = "state";
	}
	if (ret)
		return ret;
	return *size == 4 || *size == 8 ? 0 : -EINVAL;
}

/* ss_btf_tp_nargs - see btf_offsets.h */
int ss_btf_tp_nargs(const struct btf *btf, const char *tp)
{
	char name[128];
	const struct btf_type *t;
	int id;

	if (snprintf(name, sizeof(name), "btf_trace_%s", tp) >=
	    (int)sizeof(name))
		return -ENOENT;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	t = t ? btf__type_by_id(btf, t->type) : NULL;
	if (!t || !btf_is_ptr(t))
		return -EINVAL;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return -EINVAL;
	return btf_vlen(t) - 1;
}

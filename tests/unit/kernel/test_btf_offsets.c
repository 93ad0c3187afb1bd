// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/kernel/btf_offsets.c: task_struct offsets and tracepoint
 * argument counts from a tiny BTF built here (known answers), and from the
 * running kernel's BTF when there is one.
 */
#include <criterion/criterion.h>
#include <errno.h>

#include <bpf/btf.h>

#include "btf_offsets.h"

static struct btf *btf;

/*
 * struct task_struct {             (bytes)
 *	int a;                     0
 *	int pid;                   4
 *	int tgid;                  8
 *	struct { long nvcsw; };    16
 *	union { long nivcsw; };    24
 *	int bf : 3;                32
 *	int one : 1;               32, bit 3 (bit 259 of the struct)
 * };
 * typedef void (*btf_trace_sched_switch)(void *, int, int, int, int);
 * typedef void (*btf_trace_sched_wakeup)(void *, int);
 * typedef int btf_trace_bad;
 */
static void build(void)
{
	int i, l, s, u, t, fp, vp;

	btf = btf__new_empty();
	cr_assert_not_null(btf);
	i = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	l = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	s = btf__add_struct(btf, NULL, 8);
	cr_assert_eq(btf__add_field(btf, "nvcsw", l, 0, 0), 0);
	u = btf__add_union(btf, NULL, 8);
	cr_assert_eq(btf__add_field(btf, "nivcsw", l, 0, 0), 0);
	t = btf__add_struct(btf, "task_struct", 40);
	cr_assert_gt(t, 0);
	cr_assert_eq(btf__add_field(btf, "a", i, 0, 0), 0);
	cr_assert_eq(btf__add_field(btf, "pid", i, 32, 0), 0);
	cr_assert_eq(btf__add_field(btf, "tgid", i, 64, 0), 0);
	cr_assert_eq(btf__add_field(btf, NULL, s, 128, 0), 0);
	cr_assert_eq(btf__add_field(btf, NULL, u, 192, 0), 0);
	cr_assert_eq(btf__add_field(btf, "bf", i, 256, 3), 0);
	cr_assert_eq(btf__add_field(btf, "one", i, 259, 1), 0);
	vp = btf__add_ptr(btf, 0);
	fp = btf__add_func_proto(btf, 0);
	cr_assert_eq(btf__add_func_param(btf, "__data", vp), 0);
	for (int k = 0; k < 4; k++)
		cr_assert_eq(btf__add_func_param(btf, "x", i), 0);
	btf__add_typedef(btf, "btf_trace_sched_switch", btf__add_ptr(btf, fp));
	fp = btf__add_func_proto(btf, 0);
	cr_assert_eq(btf__add_func_param(btf, "__data", vp), 0);
	cr_assert_eq(btf__add_func_param(btf, "p", i), 0);
	btf__add_typedef(btf, "btf_trace_sched_wakeup", btf__add_ptr(btf, fp));
	btf__add_typedef(btf, "btf_trace_bad", i);
}

static void teardown(void)
{
	btf__free(btf);
	btf = NULL;
}

TestSuite(btf_built, .init = build, .fini = teardown);

Test(btf_built, task_offsets)
{
	struct ss_task_offsets o;

	cr_assert_eq(ss_btf_task_offsets(btf, &o), 0);
	cr_expect_eq(o.pid, 4);
	cr_expect_eq(o.tgid, 8);
	cr_expect_eq(o.nvcsw, 16, "inside an anonymous struct: %u", o.nvcsw);
	cr_expect_eq(o.nivcsw, 24, "inside an anonymous union: %u", o.nivcsw);
}

Test(btf_built, member_errors)
{
	unsigned int off, size;

	cr_expect_eq(ss_btf_member(btf, "task_struct", "a", &off, &size), 0);
	cr_expect_eq(off, 0);
	cr_expect_eq(size, 4);
	cr_expect_eq(ss_btf_member(btf, "task_struct", "nope", &off, &size),
		     -ENOENT);
	cr_expect_eq(ss_btf_member(btf, "no_struct", "pid", &off, &size),
		     -ENOENT);
	cr_expect_eq(ss_btf_member(btf, "task_struct", "bf", &off, &size),
		     -EINVAL, "a bitfield has no byte offset");
}

/* --offcpu's task_struct.in_iowait: a one-bit bitfield's bit offset */
Test(btf_built, bitfield)
{
	unsigned int bit = 0;

	cr_expect_eq(ss_btf_bitfield(btf, "task_struct", "one", &bit), 0);
	cr_expect_eq(bit, 259);
	cr_expect_eq(ss_btf_bitfield(btf, "task_struct", "bf", &bit), -EINVAL,
		     "three bits are not a flag");
	cr_expect_eq(ss_btf_bitfield(btf, "task_struct", "nope", &bit),
		     -ENOENT);
	cr_expect_eq(ss_btf_bitfield(btf, "no_struct", "one", &bit), -ENOENT);
}

Test(btf_built, tp_nargs)
{
	cr_expect_eq(ss_btf_tp_nargs(btf, "sched_switch"), 4);
	cr_expect_eq(ss_btf_tp_nargs(btf, "sched_wakeup"), 1);
	cr_expect_eq(ss_btf_tp_nargs(btf, "sched_nope"), -ENOENT);
	cr_expect_eq(ss_btf_tp_nargs(btf, "bad"), -EINVAL);
}

/*
 * prev's state on a 3-argument raw sched_switch: __state (unsigned int,
 * 5.14+) first, else state (volatile long, before 5.14), else none.
 */
static struct btf *state_btf(const char *name, int kind)
{
	struct btf *b = btf__new_empty();
	int i, t, ty;

	cr_assert_not_null(b);
	i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	ty = kind == 8 ? btf__add_volatile(
				 b, btf__add_int(b, "long", 8, BTF_INT_SIGNED))
	     : kind == 4 ? btf__add_int(b, "unsigned int", 4, 0)
			 : btf__add_int(b, "short", 2, BTF_INT_SIGNED);
	t = btf__add_struct(b, "task_struct", 24);
	cr_assert_gt(t, 0);
	cr_assert_eq(btf__add_field(b, "a", i, 0, 0), 0);
	cr_assert_eq(btf__add_field(b, name, ty, 64, 0), 0);
	return b;
}

Test(btf_state, state_fields)
{
	unsigned int off = 0, size = 0;
	const char *name = NULL;
	struct btf *b;

	b = state_btf("__state", 4);
	cr_expect_eq(ss_btf_task_state(b, &off, &size, &name), 0);
	cr_expect_eq(off, 8);
	cr_expect_eq(size, 4);
	cr_expect_str_eq(name, "__state");
	btf__free(b);
	b = state_btf("state", 8);
	cr_expect_eq(ss_btf_task_state(b, &off, &size, &name), 0);
	cr_expect_eq(off, 8);
	cr_expect_eq(size, 8, "a volatile long: %u", size);
	cr_expect_str_eq(name, "state");
	btf__free(b);
	b = state_btf("state", 2);
	cr_expect_eq(ss_btf_task_state(b, &off, &size, &name), -EINVAL);
	btf__free(b);
	b = state_btf("nope", 4);
	cr_expect_eq(ss_btf_task_state(b, &off, &size, &name), -ENOENT);
	btf__free(b);
}

/*
 * task_struct.se.<u64 member>: the offset of se plus the member's in
 * struct sched_entity { long pad; long sum_exec_runtime; int small; }
 * at byte 16 of task_struct.
 */
Test(btf_se, se_u64)
{
	struct btf *b = btf__new_empty();
	unsigned int off = 0;
	int i, l, se, t;

	cr_assert_not_null(b);
	i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	l = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	se = btf__add_struct(b, "sched_entity", 24);
	cr_assert_eq(btf__add_field(b, "pad", l, 0, 0), 0);
	cr_assert_eq(btf__add_field(b, "sum_exec_runtime", l, 64, 0), 0);
	cr_assert_eq(btf__add_field(b, "small", i, 128, 0), 0);
	t = btf__add_struct(b, "task_struct", 40);
	cr_assert_gt(t, 0);
	cr_assert_eq(btf__add_field(b, "pid", i, 0, 0), 0);
	cr_assert_eq(btf__add_field(b, "se", se, 128, 0), 0);
	cr_expect_eq(ss_btf_task_se_u64(b, "sum_exec_runtime", &off), 0);
	cr_expect_eq(off, 24);
	cr_expect_eq(ss_btf_task_se_u64(b, "small", &off), -EINVAL);
	cr_expect_eq(ss_btf_task_se_u64(b, "nope", &off), -ENOENT);
	btf__free(b);
}

/* The running kernel: pid and tgid, nvcsw and nivcsw are neighbours. */
Test(btf_live, running_kernel)
{
	struct btf *v = btf__load_vmlinux_btf();
	struct ss_task_offsets o;
	int n;

	if (!v)
		cr_skip_test("no kernel BTF (/sys/kernel/btf/vmlinux)");
	cr_assert_eq(ss_btf_task_offsets(v, &o), 0);
	cr_expect_gt(o.pid, 0);
	cr_expect_eq(o.tgid, o.pid + 4);
	cr_expect_eq(o.nivcsw, o.nvcsw + sizeof(long));
	n = ss_btf_tp_nargs(v, "sched_switch");
	cr_expect(n == 3 || n == 4, "sched_switch has %d arguments", n);
	cr_expect_eq(ss_btf_tp_nargs(v, "sched_wakeup"), 1);
	{
		unsigned int sum, prev;

		cr_expect_eq(ss_btf_task_se_u64(v, "sum_exec_runtime", &sum),
			     0);
		cr_expect_eq(
			ss_btf_task_se_u64(v, "prev_sum_exec_runtime", &prev),
			0);
		cr_expect_eq(prev, sum + 8);
	}
	{
		unsigned int off, size;
		const char *name;

		cr_expect_eq(ss_btf_task_state(v, &off, &size, &name), 0);
	}
	btf__free(v);
}

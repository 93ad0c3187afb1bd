/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf_offsets.h - what the raw tracepoint probes need to know about the
 * running kernel, from its BTF (/sys/kernel/btf/vmlinux) and never from
 * kernel headers: field offsets in task_struct and the argument count of
 * a tracepoint.  Pure lookups on a struct btf, so a unit test can feed a
 * BTF it built itself.
 */
#ifndef SWITCHSTAT_BTF_OFFSETS_H
#define SWITCHSTAT_BTF_OFFSETS_H

struct btf;

/* Byte offsets of the task_struct fields the probes read. */
struct ss_task_offsets {
	unsigned int pid; /* pid_t pid: the thread id */
	unsigned int tgid; /* pid_t tgid: the process id */
	unsigned int nvcsw; /* unsigned long nvcsw: voluntary switches */
	unsigned int nivcsw; /* unsigned long nivcsw: involuntary switches */
};

/*
 * ss_btf_member - byte offset and size of member @member of struct
 * @strct, looking into anonymous struct and union members too.
 * Returns 0 with *off and *size set, -ENOENT (no such struct or member) or
 * -EINVAL (a bitfield, or a size BTF cannot give).
 */
int ss_btf_member(const struct btf *btf, const char *strct, const char *member,
		  unsigned int *off, unsigned int *size);

/*
 * ss_btf_task_se_u64 - byte offset in task_struct of the 8-byte field
 * se.@member (struct sched_entity: sum_exec_runtime, ...).  Returns 0 with
 * *off set, -ENOENT (not in BTF) or -EINVAL (not 8 bytes).
 */
int ss_btf_task_se_u64(const struct btf *btf, const char *member,
		       unsigned int *off);

/*
 * ss_btf_bitfield - bit offset (from the struct's start) of the one-bit
 * bitfield @member of struct @strct.  Returns 0 with *bit_off set,
 * -ENOENT (no such struct or member) or -EINVAL (not a one-bit bitfield).
 */
int ss_btf_bitfield(const struct btf *btf, const char *strct,
		    const char *member, unsigned int *bit_off);

/*
 * ss_btf_task_offsets - the task_struct fields of struct ss_task_offsets,
 * each checked for its size (pid and tgid 4 bytes, nvcsw and nivcsw 8 or
 * the size of a long).  Returns 0, or the first failing ss_btf_member()
 * error (-EINVAL also for an unexpected size).
 */
int ss_btf_task_offsets(const struct btf *btf, struct ss_task_offsets *o);

/*
 * ss_btf_task_state - offset and size (bytes) of the task's run state:
 * task_struct.__state (unsigned int, Linux 5.14+), else task_struct.state
 * (volatile long, before 5.14); *name says which.  The raw path reads it
 * where the raw sched_switch has no prev_state argument (before 5.18).
 * Returns 0, or an ss_btf_member() error (-EINVAL also for a size other
 * than 4 or 8).
 */
int ss_btf_task_state(const struct btf *btf, unsigned int *off,
		      unsigned int *size, const char **name);

/*
 * ss_btf_tp_nargs - arguments of raw tracepoint @tp as its probes get
 * them in ctx->args[], from the typedef btf_trace_<tp> (a pointer to a
 * function whose first parameter is the BPF context, not counted).
 * Returns the count (>= 0), or -ENOENT (no such typedef) / -EINVAL (not a
 * pointer to a function prototype).
 */
int ss_btf_tp_nargs(const struct btf *btf, const char *tp);

#endif

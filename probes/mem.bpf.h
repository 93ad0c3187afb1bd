/* SPDX-License-Identifier: GPL-2.0 */
/* mem.bpf.h - cgroup filter and memory events (stub). */

/* 0 if the current task is outside the --cgroup filter, else 1 */
static __always_inline int ss_cgroup_selected(void)
{
	return 1;
}

/* SS_MEM_EXIT(tid): a thread exited, drop its per-thread state. */
#define SS_MEM_EXIT(tid) do { } while (0)

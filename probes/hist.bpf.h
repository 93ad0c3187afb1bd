/* SPDX-License-Identifier: GPL-2.0 */
/* hist.bpf.h - log2 histograms and interval checkpoints (stub). */

/*
 * SS_HIST_SWITCH() runs inside the sched_switch handler after the slice is
 * known, and may use its locals: args (tracepoint fields: prev_pid,
 * prev_state, next_pid, ...), cpu (struct ss_cpu *), now, last (slice start
 * ns, 0 if unknown), tgid, tid (of prev).
 */
#define SS_HIST_SWITCH() do { } while (0)

/* SS_HIST_EXIT(tid): a thread exited, drop its per-thread state. */
#define SS_HIST_EXIT(tid) do { } while (0)

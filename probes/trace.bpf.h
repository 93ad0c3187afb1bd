/* SPDX-License-Identifier: GPL-2.0 */
/* trace.bpf.h - one event per switch for --trace (stub). */

/* SS_TRACE_SWITCH(): inside sched_switch, same locals as SS_HIST_SWITCH */
#define SS_TRACE_SWITCH() do { } while (0)

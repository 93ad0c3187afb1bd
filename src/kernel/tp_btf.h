/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp_btf.h - load and attach a program compiled by libbcc as a BTF raw
 * tracepoint (tp_btf: BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP) with
 * libbpf.  Such a program gets the tracepoint's arguments as typed kernel
 * pointers it may read in place, where a plain raw tracepoint program
 * needs a bpf_probe_read_kernel() call per field.
 */
#ifndef SWITCHSTAT_TP_BTF_H
#define SWITCHSTAT_TP_BTF_H

#include <stdbool.h>
#include <stddef.h>

/* ss_tp_btf_available - does the kernel's BTF describe raw tracepoint @tp? */
bool ss_tp_btf_available(const char *tp);

/*
 * ss_tp_btf_load - load @len bytes of BPF instructions @insns (map fds
 * already in them, as libbcc leaves them) under @name and @license as a
 * BTF raw tracepoint program for @tp.  On failure the verifier's log is in
 * @log (@logsz bytes); with @stats, on success the verifier's statistics
 * (BPF_LOG_STATS).  Returns the program fd, or -1 with errno set.
 */
int ss_tp_btf_load(const void *insns, size_t len, const char *name,
		   const char *license, const char *tp, char *log, size_t logsz,
		   bool stats);

/* ss_tp_btf_attach - attach program @fd; the link fd, or -1 (errno). */
int ss_tp_btf_attach(int fd);

/*
 * ss_tp_btf_task_storage - may a BTF raw tracepoint program for @tp (whose
 * first argument is a task_struct pointer) keep per-task values in task
 * local storage (BPF_MAP_TYPE_TASK_STORAGE, bpf_task_storage_get with
 * BPF_LOCAL_STORAGE_GET_F_CREATE on that argument)?  Asks the kernel: one
 * BTF, map and program load (each released).  False when any is refused.
 */
bool ss_tp_btf_task_storage(const char *tp);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* procfs.h - validating -p / -t targets against /proc, and pid_max. */
#ifndef SWITCHSTAT_PROCFS_H
#define SWITCHSTAT_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * ss_process_alive - process pid is alive: its leader is, or (a zombie
 * leader) any of its threads in PROC/PID/task is not a zombie.
 */
bool ss_process_alive(const char *proc, uint32_t pid);

/*
 * ss_check_target - -p PID must name a live process (a tgid, not one of its
 * other threads; alive while any thread is, ss_process_alive); -t TID a
 * live thread (of PID if both given).
 * proc is the procfs root ("/proc", injectable for tests).  Returns 0, or -1
 * with one line in err.
 */
int ss_check_target(const char *proc, uint32_t pid, uint32_t tid, char *err,
		    size_t errlen);

/*
 * ss_status_field - value of "Name:" in PROC/ID/status (e.g. "Tgid") as
 * a number.  Returns 0, or -1 if the file or field is missing.
 */
int ss_status_field(const char *proc, uint32_t id, const char *name,
		    uint64_t *val);

/* ss_pid_max - /proc/sys/kernel/pid_max, or 32768 if unreadable. */
uint32_t ss_pid_max(void);

#endif

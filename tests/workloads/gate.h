/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate.h - the start gate of the workloads a test releases: SIGUSR1 is
 * blocked (in every thread created after), the pid is written to the
 * ready file, and each wl_gate_wait() returns at the next SIGUSR1.  So the
 * test attaches switchstat, then lets the workload run, and reads the
 * kernel's numbers once it is parked again.  Header only: each workload
 * is one .c file, built alone (CMakeLists.txt).
 */
#ifndef SWITCHSTAT_WORKLOAD_GATE_H
#define SWITCHSTAT_WORKLOAD_GATE_H

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/*
 * wl_gate_open - block SIGUSR1 into @set and write this process's pid and
 * a newline to @ready_file.  Returns 0, or -1 when the file cannot be
 * written (nothing is printed).
 */
static inline int wl_gate_open(sigset_t *set, const char *ready_file)
{
	FILE *f;

	sigemptyset(set);
	sigaddset(set, SIGUSR1);
	sigprocmask(SIG_BLOCK, set, NULL);
	f = fopen(ready_file, "w");
	if (!f)
		return -1;
	fprintf(f, "%d\n", (int)getpid());
	return fclose(f) ? -1 : 0;
}

/* wl_gate_wait - wait for the next SIGUSR1 (blocked by wl_gate_open) */
static inline void wl_gate_wait(const sigset_t *set)
{
	sigwaitinfo(set, NULL);
}

#endif

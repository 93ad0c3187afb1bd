// SPDX-License-Identifier: GPL-2.0
/*
 * pidreuse - two processes with the same pid, one after the other: child
 * "alpha" spins SPIN_MS ms of CPU time and exits; once it is reaped, child
 * "beta" is created with alpha's pid (clone3 with set_tid, needs
 * CAP_SYS_ADMIN) and spins SPIN_MS ms too.  The parent writes its pid to
 * READYFILE, waits for SIGUSR1, runs both, and writes one line per child to
 * RESULTFILE: "NAME PID ONCPU_NS" (on-CPU time from wait4's rusage).
 * Usage: pidreuse SPIN_MS READYFILE RESULTFILE
 * Exit 0, or 3 when the pid could not be reused (taken meanwhile).
 */
#define _GNU_SOURCE
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gate.h"

static volatile unsigned long sink;

static void child(const char *name, long spin_ms)
{
	struct timespec ts;
	unsigned long long end, now;

	prctl(PR_SET_NAME, name);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	end = ts.tv_sec * 1000000000ULL + ts.tv_nsec + spin_ms * 1000000ULL;
	do {
		for (int i = 0; i < 10000; i++)
			sink++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		now = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	} while (now < end);
	_exit(0);
}

static unsigned long long reap(pid_t pid)
{
	struct rusage ru;
	int status;

	if (wait4(pid, &status, 0, &ru) != pid)
		exit(1);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

int main(int argc, char **argv)
{
	struct clone_args ca = { .exit_signal = SIGCHLD };
	unsigned long long alpha_ns, beta_ns;
	pid_t alpha, beta, want;
	sigset_t set;
	long spin_ms;
	FILE *f;

	if (argc < 4)
		return 2;
	spin_ms = atol(argv[1]);
	if (wl_gate_open(&set, argv[2]))
		return 1;
	wl_gate_wait(&set);

	alpha = fork();
	if (alpha == 0)
		child("alpha", spin_ms);
	alpha_ns = reap(alpha);
	want = alpha;
	ca.set_tid = (uint64_t)(uintptr_t)&want;
	ca.set_tid_size = 1;
	beta = syscall(SYS_clone3, &ca, sizeof(ca));
	if (beta == 0)
		child("beta", spin_ms);
	if (beta < 0) {
		perror("clone3 set_tid");
		return 3;
	}
	beta_ns = reap(beta);
	f = fopen(argv[3], "w");
	if (!f)
		return 1;
	fprintf(f, "alpha %d %llu\nbeta %d %llu\n", alpha, alpha_ns, beta,
		beta_ns);
	fclose(f);
	return 0;
}

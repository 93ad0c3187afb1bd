// SPDX-License-Identifier: GPL-2.0
/*
 * zombieleader - a process whose main thread exits (syscall SYS_exit, not
 * exit_group) while one other thread lives on: the leader is a zombie, the
 * process is alive.  The thread waits for SIGUSR1, spins SPIN_MS ms of CPU
 * time, writes the whole process's getrusage (user + system, ns) at the
 * end and at the signal ("END START") to RESULTFILE and ends the process
 * (exit_group).  END - START is the process's CPU time in the spin: END
 * alone also holds its start-up (exec, loading, the threads), which took
 * 20-122 ms in a TCG guest.
 * Writes "PID TID" (the process and its spinning thread) to READYFILE.
 * Usage: zombieleader SPIN_MS READYFILE RESULTFILE
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long spin_ms;
static const char *ready, *result;
static atomic_long thread_tid;
static volatile unsigned long sink;

/* the whole process's user + system time so far, ns */
static unsigned long long rusage_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

static unsigned long long cpu_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *spin(void *arg)
{
	sigset_t set;
	int sig;
	FILE *f;

	(void)arg;
	atomic_store(&thread_tid, syscall(SYS_gettid));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigwait(&set, &sig);
	unsigned long long start = rusage_ns();
	unsigned long long end =
		cpu_ns(CLOCK_THREAD_CPUTIME_ID) + spin_ms * 1000000ULL;
	while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		sink++;
	end = rusage_ns();
	f = fopen(result, "w");
	if (f) {
		fprintf(f, "%llu %llu\n", end, start);
		fclose(f);
	}
	exit(0);
}

int main(int argc, char **argv)
{
	sigset_t set;
	pthread_t t;
	FILE *f;

	if (argc < 4)
		return 2;
	spin_ms = atol(argv[1]);
	ready = argv[2];
	result = argv[3];
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL); /* inherited by the thread */
	pthread_create(&t, NULL, spin, NULL);
	while (!atomic_load(&thread_tid))
		usleep(1000);
	f = fopen(ready, "w");
	if (!f)
		return 1;
	fprintf(f, "%d %ld\n", getpid(), atomic_load(&thread_tid));
	fclose(f);
	syscall(SYS_exit, 0); /* this thread only */
	return 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * zombieleader - a process whose main thread exits (syscall SYS_exit, not
 * exit_group) while one other thread lives on: the leader is a zombie, the
 * process is alive.  The thread waits for SIGUSR1, spins SPIN_MS ms of CPU
 * time and ends the process (exit_group).  It is a child: its parent
 * reaps it and writes "TOTAL START END" to RESULTFILE (by a rename, so
 * never half written), ns of the process's CPU time (user + system):
 * TOTAL from wait4, all of it up to the release of its last thread; START
 * and END from getrusage in the thread at the signal and when the spin
 * ends, sent to the parent through a pipe.  TOTAL - START is what a tracer
 * following it from before the signal to its end should see; TOTAL - END
 * is its exit (the pipe write, exit_group, exit_mm...), END alone also
 * holds its start-up (exec, loading, the threads), which took 20-122 ms in
 * a TCG guest.
 * Writes "PID TID" (the child process and its spinning thread) to
 * READYFILE.
 * Usage: zombieleader SPIN_MS READYFILE RESULTFILE
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long spin_ms;
static const char *ready, *result;
static atomic_long thread_tid;
static int pipe_w; /* to the parent: START and END */
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

	(void)arg;
	atomic_store(&thread_tid, syscall(SYS_gettid));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigwait(&set, &sig);
	unsigned long long v[2] = { rusage_ns() };
	unsigned long long end =
		cpu_ns(CLOCK_THREAD_CPUTIME_ID) + spin_ms * 1000000ULL;
	while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		sink++;
	v[1] = rusage_ns();
	if (write(pipe_w, v, sizeof(v)) != sizeof(v))
		_exit(1);
	exit(0);
}

/* the parent: reap the child, write TOTAL START END (see the top) */
static int reap(pid_t child, int pipe_r)
{
	unsigned long long v[2] = { 0 }, total;
	char tmp[4096];
	struct rusage ru;
	int status;
	FILE *f;

	if (read(pipe_r, v, sizeof(v)) != sizeof(v))
		v[0] = v[1] = 0;
	if (wait4(child, &status, 0, &ru) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || !v[1])
		return 1;
	total = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
	snprintf(tmp, sizeof(tmp), "%s.tmp", result);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	fprintf(f, "%llu %llu %llu\n", total, v[0], v[1]);
	if (fclose(f) || rename(tmp, result))
		return 1;
	return 0;
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
	{
		int p[2];
		pid_t child;

		if (pipe(p))
			return 1;
		child = fork();
		if (child < 0)
			return 1;
		if (child) {
			close(p[1]);
			return reap(child, p[0]);
		}
		close(p[0]);
		pipe_w = p[1];
		/* no orphan spinning on when a test tears the parent down */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	}
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

// SPDX-License-Identifier: GPL-2.0
/*
 * childchurn - fork N children one after another and reap each with wait4:
 * the kernel's own count of every switch of a whole process, its last
 * included.  Child i is of kind i % 3:
 *   0  single-threaded: spins 3 ms, sleeps 1 ms twice, exits;
 *   1  its main thread starts a thread (spins 1 ms, sleeps 1 ms, exits),
 *      joins it, sleeps 1 ms twice and exits: a non-final thread's exit;
 *   2  zombie leader: its main thread starts a thread (spins 3 ms, sleeps
 *      1 ms twice, exits), sleeps 1 ms and exits alone (SYS_exit), so the
 *      leader exits first and another thread is the last to exit.
 *
 * Usage: childchurn N READY_FILE RESULT_FILE
 * Writes its pid to READY_FILE and waits for SIGUSR1 (blocked in
 * sigwaitinfo); then runs the N children and writes RESULT_FILE: first
 * "children VOL INVOL", the getrusage(RUSAGE_CHILDREN) delta, then per
 * child "PID KIND VOL INVOL" from its wait4 rusage; then waits for SIGUSR1
 * again, so its own switches stop before the result is read.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gate.h"

/* burn ms of this thread's CPU time */
static void spin_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec <
	       ms * 1000000L);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static void *short_thread(void *arg)
{
	(void)arg;
	spin_ms(1);
	sleep_ms(1);
	return NULL;
}

static void *last_thread(void *arg)
{
	(void)arg;
	spin_ms(3);
	sleep_ms(1);
	sleep_ms(1);
	return NULL;
}

static void child(int kind)
{
	pthread_t t;

	if (kind == 0) {
		spin_ms(3);
		sleep_ms(1);
		sleep_ms(1);
		_exit(0);
	}
	if (pthread_create(&t, NULL, kind == 1 ? short_thread : last_thread,
			   NULL))
		_exit(1);
	if (kind == 1) {
		pthread_join(t, NULL);
		sleep_ms(1);
		sleep_ms(1);
		_exit(0);
	}
	sleep_ms(1);
	syscall(SYS_exit, 0); /* this thread only: the leader is a zombie */
}

int main(int argc, char **argv)
{
	struct rusage r0, r1, ru;
	sigset_t set;
	FILE *res;
	int n, status;

	if (argc != 4) {
		fprintf(stderr, "usage: childchurn N READY_FILE RESULT_FILE\n");
		return 2;
	}
	n = atoi(argv[1]);
	if (wl_gate_open(&set, argv[2]))
		return 1;
	wl_gate_wait(&set);

	/* one line per child, written once all are reaped */
	long(*rows)[4] = calloc(n, sizeof(*rows));

	if (!rows)
		return 1;
	getrusage(RUSAGE_CHILDREN, &r0);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("childchurn: fork");
			return 1;
		}
		if (pid == 0)
			child(i % 3);
		if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "childchurn: child %d failed\n", i);
			return 1;
		}
		rows[i][0] = pid;
		rows[i][1] = i % 3;
		rows[i][2] = ru.ru_nvcsw;
		rows[i][3] = ru.ru_nivcsw;
	}
	getrusage(RUSAGE_CHILDREN, &r1);
	/* written under another name, then renamed: it appears whole */
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[3]);
	res = fopen(tmp, "w");
	if (!res)
		return 1;
	fprintf(res, "children %ld %ld\n", r1.ru_nvcsw - r0.ru_nvcsw,
		r1.ru_nivcsw - r0.ru_nivcsw);
	for (int i = 0; i < n; i++)
		fprintf(res, "%ld %ld %ld %ld\n", rows[i][0], rows[i][1],
			rows[i][2], rows[i][3]);
	if (fclose(res) || rename(tmp, argv[3]))
		return 1;
	wl_gate_wait(&set);
	return 0;
}

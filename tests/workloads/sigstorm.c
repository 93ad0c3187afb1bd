// SPDX-License-Identifier: GPL-2.0
/*
 * sigstorm - sleeps abandoned because a signal is pending.
 *
 * Thread "sigwait" blocks in futex(FUTEX_WAIT) on a word nobody wakes, on
 * CPU B beside a spinner thread on CPU B; thread "sigkill" on CPU A sends
 * it SIGUSR1 (an empty handler) with tgkill in a loop.  Each signal wakes
 * the waiter, which runs the handler and blocks again; some of its sleeps
 * are abandoned in __schedule because the next signal is already pending:
 * the kernel counts those as voluntary switches (nvcsw), the sched_switch
 * tracepoint reports the task as R since Linux 6.16.
 * Usage: sigstorm CPU_A CPU_B READY_FILE
 * Writes the waiter's thread id to READY_FILE, then runs until killed.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int cpu_a, cpu_b;
static volatile pid_t waiter_tid;
static int word;
static volatile unsigned long sink;

static void on_usr1(int sig)
{
	(void)sig;
}

static void pin(int cpu, const char *name)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sigstorm: sched_setaffinity");
		exit(1);
	}
	prctl(PR_SET_NAME, name);
}

static void *waiter(void *arg)
{
	(void)arg;
	pin(cpu_b, "sigwait");
	waiter_tid = syscall(SYS_gettid);
	for (;;) /* EINTR after each signal: block again */
		syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	pin(cpu_b, "sigspin");
	for (;;)
		sink++;
	return NULL;
}

static void *killer(void *arg)
{
	pid_t pid = getpid();

	(void)arg;
	pin(cpu_a, "sigkill");
	for (;;)
		syscall(SYS_tgkill, pid, waiter_tid, SIGUSR1);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pthread_t t;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: sigstorm CPU_A CPU_B READY_FILE\n");
		return 2;
	}
	cpu_a = atoi(argv[1]);
	cpu_b = atoi(argv[2]);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_create(&t, NULL, waiter, NULL);
	while (!waiter_tid)
		usleep(1000);
	pthread_create(&t, NULL, spinner, NULL);
	pthread_create(&t, NULL, killer, NULL);
	f = fopen(argv[3], "w");
	if (!f) {
		perror("sigstorm: ready file");
		return 1;
	}
	fprintf(f, "%d\n", (int)waiter_tid);
	fclose(f);
	for (;;)
		pause();
}

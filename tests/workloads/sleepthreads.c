// SPDX-License-Identifier: GPL-2.0
/*
 * sleepthreads - N threads that are only ever woken, never preempted on
 * purpose: each waits for the start, sleeps 1 ms three times and then
 * blocks for good; all stay alive.  Every switch-in of theirs follows a
 * wakeup by another task (the main thread, a timer), the case of
 * run-queue latency that a tool must time from the waker's context.
 *
 * Usage: sleepthreads N READY_FILE
 * Starts the N threads, writes its pid to READY_FILE once all of them
 * wait, and waits for SIGUSR1 (blocked in sigwaitinfo); then releases the
 * threads (one condition broadcast) and waits for SIGUSR1 again.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int started, waiting;

static void *body(void *arg)
{
	struct timespec ms = { 0, 1000000 };

	(void)arg;
	pthread_mutex_lock(&mu);
	waiting++;
	while (!started)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < 3; i++)
		nanosleep(&ms, NULL);
	for (;;)
		pause(); /* alive, blocked: SIGUSR1 is blocked in every thread */
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 1000000 };
	sigset_t set;
	pthread_t t;
	FILE *f;
	int n, w;

	if (argc != 3) {
		fprintf(stderr, "usage: sleepthreads N READY_FILE\n");
		return 2;
	}
	n = atoi(argv[1]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL); /* inherited by the threads */
	for (int i = 0; i < n; i++) {
		if (pthread_create(&t, NULL, body, NULL)) {
			perror("sleepthreads: pthread_create");
			return 1;
		}
	}
	do {
		nanosleep(&tick, NULL);
		pthread_mutex_lock(&mu);
		w = waiting;
		pthread_mutex_unlock(&mu);
	} while (w < n);
	f = fopen(argv[2], "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	sigwaitinfo(&set, NULL);
	pthread_mutex_lock(&mu);
	started = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	sigwaitinfo(&set, NULL);
	return 0;
}

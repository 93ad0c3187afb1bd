// SPDX-License-Identifier: GPL-2.0
/*
 * threadchurn - create and join N threads, one after another, each of
 * which sleeps once (a voluntary switch) and exits.
 *
 * Usage: threadchurn N READY_FILE RESULT_FILE
 * Writes its pid to READY_FILE and waits for SIGUSR1 (blocked in
 * sigwaitinfo); then runs the N threads and writes to RESULT_FILE the
 * switches of the exited threads as the kernel's process totals hold
 * them, "voluntary involuntary": getrusage(RUSAGE_SELF) minus the main
 * thread's own (RUSAGE_THREAD), after minus before; then waits for
 * SIGUSR1 again, so its own switches stop before the result is read.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "gate.h"

/* Switches of exited threads in the process totals: *vol, *inv. */
static void dead_threads(long *vol, long *inv)
{
	struct rusage self, t0, t1;

	/* retry if this thread switched between the reads */
	do {
		getrusage(RUSAGE_THREAD, &t0);
		getrusage(RUSAGE_SELF, &self);
		getrusage(RUSAGE_THREAD, &t1);
	} while (t0.ru_nvcsw != t1.ru_nvcsw || t0.ru_nivcsw != t1.ru_nivcsw);
	*vol = self.ru_nvcsw - t1.ru_nvcsw;
	*inv = self.ru_nivcsw - t1.ru_nivcsw;
}

static void *body(void *arg)
{
	struct timespec ts = { 0, 50000 };

	(void)arg;
	nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	long v0, i0, v1, i1;
	sigset_t set;
	pthread_t t;
	FILE *f;
	int n;

	if (argc != 4) {
		fprintf(stderr,
			"usage: threadchurn N READY_FILE RESULT_FILE\n");
		return 2;
	}
	n = atoi(argv[1]);
	if (wl_gate_open(&set, argv[2]))
		return 1;
	wl_gate_wait(&set);

	dead_threads(&v0, &i0);
	for (int i = 0; i < n; i++) {
		if (pthread_create(&t, NULL, body, NULL)) {
			perror("threadchurn: pthread_create");
			return 1;
		}
		pthread_join(t, NULL);
	}
	dead_threads(&v1, &i1);
	f = fopen(argv[3], "w");
	if (!f)
		return 1;
	fprintf(f, "%ld %ld\n", v1 - v0, i1 - i0);
	fclose(f);
	wl_gate_wait(&set);
	return 0;
}

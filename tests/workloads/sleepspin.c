// SPDX-License-Identifier: GPL-2.0
/*
 * sleepspin - N threads, each in a loop: sleep 1 ms (nanosleep), then spin
 * for SPIN_US microseconds of its own CPU time (CLOCK_THREAD_CPUTIME_ID),
 * so each wakes often and is preempted by what shares its CPU.  The main
 * thread waits in pause().  Runs until killed.
 * Usage: sleepspin N SPIN_US [NAME]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long spin_ns;

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *body(void *arg)
{
	struct timespec ms = { 0, 1000000 };

	(void)arg;
	for (;;) {
		uint64_t end;

		nanosleep(&ms, NULL);
		end = cpu_ns() + spin_ns;
		while (cpu_ns() < end)
			;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	pthread_t t;

	spin_ns = (argc > 2 ? atol(argv[2]) : 100) * 1000L;
	if (argc > 3)
		prctl(PR_SET_NAME, argv[3]);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, NULL, body, NULL))
			return 1;
	for (;;)
		pause();
}

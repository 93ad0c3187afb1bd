// SPDX-License-Identifier: GPL-2.0
/*
 * namedthreads - a process named "mainproc" whose three threads name
 * themselves "worker-0".."worker-2" (pthread_setname_np) and loop on 200 us
 * nanosleeps, the way runtimes name their threads.  The main thread waits
 * in pause(); SIGUSR1 makes it rename itself to NEWNAME (from the handler,
 * so the main thread runs).  Writes its pid to READYFILE once every thread
 * has its name.  Runs until killed.
 * Usage: namedthreads READYFILE [NEWNAME]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static const char *newname = "renamed";
static atomic_int named;

static void on_usr1(int sig)
{
	(void)sig;
	prctl(PR_SET_NAME, newname);
}

static void *worker(void *arg)
{
	char name[16];
	struct timespec ts = { .tv_nsec = 200000 };

	snprintf(name, sizeof(name), "worker-%ld", (long)arg);
	pthread_setname_np(pthread_self(), name);
	atomic_fetch_add(&named, 1);
	for (;;)
		nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pthread_t t;
	FILE *f;

	if (argc < 2)
		return 2;
	if (argc > 2)
		newname = argv[2];
	prctl(PR_SET_NAME, "mainproc");
	sigaction(SIGUSR1, &sa, NULL);
	for (long i = 0; i < 3; i++)
		pthread_create(&t, NULL, worker, (void *)i);
	while (atomic_load(&named) < 3)
		usleep(1000);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", getpid());
	fclose(f);
	for (;;)
		pause();
}

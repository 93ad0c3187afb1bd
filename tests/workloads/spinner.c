// SPDX-License-Identifier: GPL-2.0
/*
 * spinner - N threads spin in user space while the main thread waits in
 * pause().  Runs until killed.  Usage: spinner NTHREADS [NAME]
 * With NTHREADS 0 the main thread itself spins.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

static volatile unsigned long sink;

static void *spin(void *arg)
{
	(void)arg;
	for (;;)
		sink++;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	pthread_t t;

	if (argc > 2)
		prctl(PR_SET_NAME, argv[2]);
	if (n == 0)
		spin(NULL);
	for (int i = 0; i < n; i++)
		pthread_create(&t, NULL, spin, NULL);
	for (;;)
		pause();
}

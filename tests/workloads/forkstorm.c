// SPDX-License-Identifier: GPL-2.0
/*
 * forkstorm - run a program COUNT times as fast as possible: WORKERS
 * processes each spawn (posix_spawn: clone + exec) and reap one child at a
 * time.  Every child is a new, short-lived process (a new tgid) that exits
 * at once: a load that fills maps with dead tasks.  Prints "workers: PID..." (itself and its
 * workers, which are not storm children) and "COUNT runs in S.SSS s".
 * Usage: forkstorm COUNT [WORKERS [PROGRAM]]   (default 1 worker, /bin/true)
 * Exit 0 when every child ran and exited 0, else 1.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int storm(long count, const char *prog)
{
	char *argv[] = { (char *)prog, NULL };
	int status;
	pid_t pid;

	for (long i = 0; i < count; i++) {
		if (posix_spawn(&pid, prog, NULL, NULL, argv, environ))
			return 1;
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 0;
	long workers = argc > 2 ? atol(argv[2]) : 1;
	const char *prog = argc > 3 ? argv[3] : "/bin/true";
	struct timespec t0, t1;
	int ret = 0, status;

	if (count <= 0 || workers <= 0 || workers > 64) {
		fprintf(stderr, "usage: forkstorm COUNT [WORKERS [PROGRAM]]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	printf("workers: %d", getpid());
	fflush(stdout);
	for (long w = 0; w < workers; w++) {
		long n = count / workers + (w < count % workers);
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(storm(n, prog));
		printf(" %d", pid);
	}
	printf("\n");
	fflush(stdout);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%ld runs in %.3f s\n", count,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return ret;
}

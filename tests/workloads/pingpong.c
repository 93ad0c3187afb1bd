// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong - two processes bounce a byte over two pipes: every read blocks,
 * so each round trip is two voluntary switches per process.  Runs until
 * killed.  Usage: pingpong PIDFILE  (writes "PARENT CHILD\n")
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int ab[2], ba[2];
	char c = 'x';
	pid_t child;

	if (argc != 2 || pipe(ab) || pipe(ba))
		return 2;
	child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		prctl(PR_SET_NAME, "pong");
		for (;;) {
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				return 1;
		}
	}
	prctl(PR_SET_NAME, "ping");
	FILE *f = fopen(argv[1], "w");

	if (!f)
		return 1;
	fprintf(f, "%d %d\n", getpid(), child);
	fclose(f);
	for (;;) {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
	}
}

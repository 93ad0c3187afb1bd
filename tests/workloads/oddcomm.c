// SPDX-License-Identifier: GPL-2.0
/*
 * oddcomm - renames itself (prctl PR_SET_NAME) to a comm that needs
 * escaping in every output format: a quote, a backslash, a comma, a space
 * and the control byte 0x01 (o"d\d, \x01c), then sleeps USECS in a loop so
 * it switches voluntarily.  Runs until killed.  Usage: oddcomm [USECS]
 * (default 1000).  The name is written to stdout once, as bytes, for tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#define ODD_COMM        \
	"o\"d\\d, \x01" \
	"c"

int main(int argc, char **argv)
{
	long us = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (us % 1000000) * 1000 };

	if (prctl(PR_SET_NAME, ODD_COMM))
		return 1;
	fputs(ODD_COMM "\n", stdout);
	fflush(stdout);
	for (;;)
		nanosleep(&ts, NULL);
}

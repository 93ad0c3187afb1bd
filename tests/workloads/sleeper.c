// SPDX-License-Identifier: GPL-2.0
/*
 * sleeper - nanosleep(USECS) in a loop: every sleep is one voluntary
 * switch.  Runs until killed.  Usage: sleeper [USECS] (default 1000)
 */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long us = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (us % 1000000) * 1000 };

	for (;;)
		nanosleep(&ts, NULL);
}

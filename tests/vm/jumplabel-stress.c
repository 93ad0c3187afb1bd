// SPDX-License-Identifier: GPL-2.0
/*
 * jumplabel-stress.c - flips a jump label the kernel patches at a hot site
 * while both CPUs run through that site (a guest check of the emulator, not
 * of switchstat).
 *
 * Opening the first software page-fault perf event enables the
 * perf_swevent_enabled[PAGE_FAULTS_MIN] static key, closing the last one
 * disables it: each time the kernel rewrites the jump at handle_mm_fault's
 * perf_sw_event() with text_poke_bp() (an int3 first).  Meanwhile one child
 * per CPU forks and writes copy-on-write pages, so both CPUs pass that site
 * all the time.  switchstat's page-fault events (test_faults) and its
 * start-up and exit do the same thing, more slowly.
 *
 * Usage: jumplabel-stress SECONDS.  Prints the number of flips and exits 0;
 * a guest whose emulator misses the code change locks up (the kernel's soft
 * lockup watchdog reports CPUs stuck in handle_mm_fault).
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void fault_loop(int cpu)
{
	cpu_set_t set;
	static char buf[64 << 10];

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (;;) {
		pid_t p = fork();

		if (p == 0) {
			for (size_t i = 0; i < sizeof(buf); i += 4096)
				buf[i]++;
			_exit(0);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 60;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), flips = 0;
	pid_t kids[64];
	struct perf_event_attr a;
	time_t end;

	if (ncpu > 64)
		ncpu = 64;
	for (long c = 0; c < ncpu; c++) {
		kids[c] = fork();
		if (kids[c] == 0)
			fault_loop((int)c);
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		int fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);

		if (fd < 0) {
			perror("perf_event_open");
			break;
		}
		close(fd);
		flips++;
	}
	for (long c = 0; c < ncpu; c++) {
		kill(kids[c], SIGKILL);
		waitpid(kids[c], NULL, 0);
	}
	printf("jumplabel-stress: %ld flips in %d s\n", flips, secs);
	return flips > 0 ? 0 : 1;
}

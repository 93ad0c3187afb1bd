// SPDX-License-Identifier: GPL-2.0
/*
 * offreasons - off the CPU for each reason --offcpu tells apart, timing
 * its own blocking calls with CLOCK_MONOTONIC (the test's oracle).
 *
 * Usage: offreasons FIFO [ROUNDS [PHASE_MS]]  (default 4 rounds, 100 ms)
 * Waits until a writer opens FIFO and writes a byte (not timed: before
 * the window), then ROUNDS times: nanosleep (S); vfork a child that
 * sleeps (the parent waits in D, TASK_KILLABLE); raise(SIGSTOP), a helper
 * sends SIGCONT a phase later (T); spin 2 phases pinned to CPU 0 beside a
 * hog pinned there (R: preempted).  Then a helper ptrace-seizes it and
 * holds ROUNDS signal-delivery stops a phase each (t).  Every other
 * blocking call (waits for its children) is timed as S.  R is what is
 * left: the window's wall time less its on-CPU time
 * (CLOCK_THREAD_CPUTIME_ID) less the timed blocking.  Prints one line
 *   go_ns end_ns sleep_ns d_ns stop_ns traced_ns runq_ns cpu_ns pin_ns
 * (pin_ns: the sched_setaffinity() calls that moved it to CPU 0, which
 * wait uninterruptibly (D) for the move and, behind the hog, for CPU 0)
 * (CLOCK_MONOTONIC ns; the window is go..end) and stops itself
 * (SIGSTOP): frozen, the test reads the tool and tears it down.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#define MONO() now_ns(CLOCK_MONOTONIC)

static uint64_t phase_ns;
static uint64_t sleep_ns, d_ns, stop_ns, traced_ns, pin_ns;

static void sleep_phase(void)
{
	struct timespec ts = { .tv_sec = phase_ns / 1000000000ULL,
			       .tv_nsec = phase_ns % 1000000000ULL };

	while (nanosleep(&ts, &ts))
		;
}

/* waitpid timed as S */
static void wait_child(pid_t pid, int flags)
{
	uint64_t t = MONO();
	int st;

	while (waitpid(pid, &st, flags) < 0)
		;
	sleep_ns += MONO() - t;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (cpu >= 0) {
		CPU_SET(cpu, &set);
	} else {
		for (int c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, &set);
	}
	sched_setaffinity(0, sizeof(set), &set);
}

static void on_usr1(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 4;
	pid_t self = getpid(), hog, helper, tracer;
	int cmd[2], ready[2], fd;
	uint64_t go, end, cpu0, t;
	char c;

	if (argc < 2 || rounds < 1)
		return 2;
	phase_ns = (argc > 3 ? atoi(argv[3]) : 100) * 1000000ULL;
	signal(SIGUSR1, on_usr1);
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY); /* Yama, where it is on */
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1)
		return 1;
	close(fd);
	go = MONO();
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

	hog = fork();
	if (!hog) { /* pinned to CPU 0, stopped between the R phases */
		pin(0);
		raise(SIGSTOP);
		for (;;)
			;
	}
	wait_child(hog, WUNTRACED);
	if (pipe(cmd) || pipe(ready))
		return 1;
	helper = fork();
	if (!helper) { /* each byte: one phase later, SIGCONT the parent */
		close(cmd[1]);
		while (read(cmd[0], &c, 1) == 1) {
			sleep_phase();
			kill(self, SIGCONT);
		}
		_exit(0);
	}
	close(cmd[0]);

	for (int r = 0; r < rounds; r++) {
		pid_t child;

		t = MONO(); /* S */
		sleep_phase();
		sleep_ns += MONO() - t;

		t = MONO(); /* D: vfork waits for the child's exit, killable */
		child = vfork();
		if (!child) {
			sleep_phase();
			_exit(0);
		}
		d_ns += MONO() - t;
		wait_child(child, 0);

		if (write(cmd[1], "c", 1) != 1) /* T */
			return 1;
		t = MONO();
		raise(SIGSTOP);
		stop_ns += MONO() - t;

		kill(hog, SIGCONT); /* R: beside the hog on CPU 0 */
		t = MONO();
		pin(0); /* from another CPU: waits (D) to be moved */
		pin_ns += MONO() - t;
		t = MONO();
		while (MONO() - t < 2 * phase_ns)
			;
		pin(-1);
		kill(hog, SIGSTOP);
	}

	tracer = fork();
	if (!tracer) { /* t: hold each signal-delivery stop a phase */
		int st;

		if (ptrace(PTRACE_SEIZE, self, 0, 0))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (int r = 0; r < rounds; r++) {
			if (waitpid(self, &st, __WALL) < 0)
				_exit(1);
			sleep_phase();
			ptrace(PTRACE_CONT, self, 0, 0); /* signal suppressed */
		}
		_exit(0); /* detaches */
	}
	t = MONO();
	if (read(ready[0], &c, 1) != 1)
		return 1;
	sleep_ns += MONO() - t;
	for (int r = 0; r < rounds; r++) {
		t = MONO();
		raise(SIGUSR1);
		traced_ns += MONO() - t;
	}
	wait_child(tracer, 0);
	kill(hog, SIGKILL);
	wait_child(hog, 0);
	close(cmd[1]);
	wait_child(helper, 0);
	end = MONO();

	uint64_t cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	uint64_t wall = end - go;
	uint64_t blocked = sleep_ns + d_ns + stop_ns + traced_ns + pin_ns;
	uint64_t runq = wall > cpu + blocked ? wall - cpu - blocked : 0;

	printf("%llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
	       (unsigned long long)go, (unsigned long long)end,
	       (unsigned long long)sleep_ns, (unsigned long long)d_ns,
	       (unsigned long long)stop_ns, (unsigned long long)traced_ns,
	       (unsigned long long)runq, (unsigned long long)cpu,
	       (unsigned long long)pin_ns);
	fflush(stdout);
	raise(SIGSTOP); /* frozen: the window is over */
	return 0;
}

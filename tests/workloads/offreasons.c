// SPDX-License-Identifier: GPL-2.0
/*
 * offreasons - off the CPU for each reason --offcpu tells apart, timing
 * its own blocking calls with CLOCK_MONOTONIC (the test's oracle).
 *
 * Usage: offreasons FIFO [ROUNDS [PHASE_MS]]  (default 4 rounds, 100 ms)
 * Waits until a writer opens FIFO (its open blocks since before the tool
 * started, so neither times it), then ROUNDS times: nanosleep (S); vfork a child that
 * sleeps (the parent waits in D, TASK_KILLABLE); raise(SIGSTOP), a helper
 * sends SIGCONT a phase later (T); spin 2 phases pinned to CPU 0 beside a
 * hog pinned there (R: preempted).  Then a helper ptrace-seizes it and
 * holds ROUNDS signal-delivery stops a phase each (t).  Every other
 * blocking call (waits for its children) is timed as S.  R is what is
 * left: the window's wall time less its on-CPU time
 * (CLOCK_THREAD_CPUTIME_ID) less the timed blocking.  Prints one line
 *   go_ns end_ns sleep_ns d_ns stop_ns traced_ns runq_ns cpu_ns pin_ns
 *   n_s n_d n_t pin_r_ns
 * (the blocking times are each call's wall time less its on-CPU time;
 * n_*: timed calls of S, D and T/t whose off-CPU time is in the log2 slot
 * 65536-131071 us, for --hist offcpu-*)
 * (pin_ns: the sched_setaffinity() calls that moved it to CPU 0, which
 * wait uninterruptibly (D) for the move and, behind the hog, for CPU 0;
 * a call in which the kernel switched it out only involuntarily (its
 * nvcsw did not move: Linux 6.12 preempts the caller for the migration
 * stopper, which moves it while queued) waited runnable, R, and is left
 * in runq_ns; its time is the 13th field, pin_r_ns)
 *
 * It runs SCHED_RR (priority 1, where allowed), and so do its children
 * (the hog, the helpers), so other load on the machine neither preempts
 * it inside a timed call (that wait would be R to the tracer and S, D...
 * to its own clock) nor delays its wakeups: its R is the hog's
 * round-robin slices (and RT throttling).
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
#include <sys/resource.h>
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
static uint64_t sleep_ns, d_ns, stop_ns, traced_ns, pin_ns, pin_r_ns;
/* timed calls whose off-CPU time is in the log2 slot 65536-131071 us */
static int n_s, n_d, n_t;

/* a timed blocking call: its start, wall and on-CPU clocks */
struct timed {
	uint64_t wall, cpu;
};

static struct timed t_start(void)
{
	return (struct timed){ now_ns(CLOCK_MONOTONIC),
			       now_ns(CLOCK_THREAD_CPUTIME_ID) };
}

/*
 * The call's off-CPU time (wall less on-CPU) into *@sum, and into *@n if
 * it lies in the 65536-131071 us slot.
 */
static void t_end(struct timed t, uint64_t *sum, int *n)
{
	uint64_t off = (now_ns(CLOCK_MONOTONIC) - t.wall) -
		       (now_ns(CLOCK_THREAD_CPUTIME_ID) - t.cpu);

	*sum += off;
	if (n && off >= 65536000ULL && off < 131072000ULL)
		(*n)++;
}

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
	struct timed t = t_start();
	int st;

	while (waitpid(pid, &st, flags) < 0)
		;
	t_end(t, &sleep_ns, &n_s);
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

/* SCHED_RR priority 1 (@reset: children return to SCHED_OTHER); 0 or -1 */
static int rt(int reset)
{
	struct sched_param sp = { .sched_priority = 1 };

	return sched_setscheduler(
		0, SCHED_RR | (reset ? SCHED_RESET_ON_FORK : 0), &sp);
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
	uint64_t go, end, cpu0;
	struct timed t;
	char c;

	if (argc < 2 || rounds < 1)
		return 2;
	phase_ns = (argc > 3 ? atoi(argv[3]) : 100) * 1000000ULL;
	signal(SIGUSR1, on_usr1);
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY); /* Yama, where it is on */
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) /* blocks until the writer opens: the go; kept open,
		     * so the writer's byte is not a write to no reader */
		return 1;
	rt(0); /* inherited by the children */
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

		t = t_start(); /* S */
		sleep_phase();
		t_end(t, &sleep_ns, &n_s);

		t = t_start(); /* D: vfork waits for the child's exit, killable */
		child = vfork();
		if (!child) {
			sleep_phase();
			_exit(0);
		}
		t_end(t, &d_ns, &n_d);
		wait_child(child, 0);

		if (write(cmd[1], "c", 1) != 1) /* T */
			return 1;
		t = t_start();
		raise(SIGSTOP);
		t_end(t, &stop_ns, &n_t);

		kill(hog, SIGCONT); /* R: beside the hog on CPU 0 */
		struct rusage ru0, ru1;
		uint64_t off = 0;
		int n_off = 0;

		getrusage(RUSAGE_THREAD, &ru0);
		t = t_start();
		pin(0); /* from another CPU: waits (D) to be moved */
		t_end(t, &off, &n_off);
		getrusage(RUSAGE_THREAD, &ru1);
		/* the kernel's own kind: no voluntary switch, no D */
		if (ru1.ru_nvcsw != ru0.ru_nvcsw) {
			pin_ns += off;
			n_d += n_off;
		} else {
			pin_r_ns += off;
		}
		t = t_start();
		while (MONO() - t.wall < 2 * phase_ns)
			;
		pin(-1);
		kill(hog, SIGSTOP);
	}

	/*
	 * While traced, every signal it gets stops it for the tracer, even
	 * one ignored by default: a child's SIGCHLD then took one of the
	 * tracer's rounds (a stop inside the timed read below, timed as S;
	 * the tool said t, rightly). Only SIGUSR1 may stop it now.
	 */
	{
		sigset_t chld;

		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, NULL);
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
	t = t_start();
	if (read(ready[0], &c, 1) != 1)
		return 1;
	t_end(t, &sleep_ns, &n_s);
	for (int r = 0; r < rounds; r++) {
		t = t_start();
		raise(SIGUSR1);
		t_end(t, &traced_ns, &n_t);
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

	printf("%llu %llu %llu %llu %llu %llu %llu %llu %llu %d %d %d %llu\n",
	       (unsigned long long)go, (unsigned long long)end,
	       (unsigned long long)sleep_ns, (unsigned long long)d_ns,
	       (unsigned long long)stop_ns, (unsigned long long)traced_ns,
	       (unsigned long long)runq, (unsigned long long)cpu,
	       (unsigned long long)pin_ns, n_s, n_d, n_t,
	       (unsigned long long)pin_r_ns);
	fflush(stdout);
	raise(SIGSTOP); /* frozen: the window is over */
	return 0;
}

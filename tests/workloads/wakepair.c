// SPDX-License-Identifier: GPL-2.0
/*
 * wakepair - wakeups whose wakers are known exactly, for --wakers.
 *
 * Usage: wakepair MODE N FIFO
 * Waits until a writer opens FIFO (its open blocks since before the
 * tracer started: a wait it does not time), then:
 *   pipe   forks B; A writes a byte to B and reads one back, N times (B:
 *          read, write): A wakes B N times and B wakes A N times
 *   futex  a second thread B; a futex word handed back and forth N times
 *          (FUTEX_WAIT / FUTEX_WAKE): each wakes the other N times
 *   timer  nanosleep(1 ms) N times: N wakeups, all by the timer
 *   named  as pipe, but B is forked first, then A names itself u10waker
 *          and two threads of A named wk-alpha and wk-beta take turns
 *          (even rounds alpha, odd beta): B's one waker process, two
 *          waker threads, which stay (paused) when done; prints
 *          "A B N ALPHA BETA" (their thread ids)
 * A and B run SCHED_FIFO at one priority on CPU 0, so a wakeup never
 * preempts the waker and each write or FUTEX_WAKE finds its peer asleep:
 * every one is a wakeup (B runs first, until it blocks: sched_yield).
 * Then it prints "A B N" (B: 0 for timer; the thread id for futex) and
 * both stop themselves (SIGSTOP; B of futex exits instead).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int n;
static volatile int turn; /* futex: 1 B's turn, 0 A's; named: the thread */
static volatile pid_t b_tid;
static int p1[2], p2[2], done[2];
static volatile pid_t named_tid[2];

static long futex(volatile int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void *b_thread(void *arg)
{
	(void)arg;
	b_tid = gettid();
	for (int i = 0; i < n; i++) {
		while (turn != 1)
			futex(&turn, FUTEX_WAIT_PRIVATE, 0);
		turn = 0;
		futex(&turn, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

/* named: thread k (0 alpha, 1 beta) does the rounds i with i % 2 == k */
static void *named_thread(void *arg)
{
	int k = (int)(long)arg;
	char c = 'x';

	pthread_setname_np(pthread_self(), k ? "wk-beta" : "wk-alpha");
	named_tid[k] = gettid();
	for (int i = k; i < n; i += 2) {
		while (turn != k)
			futex(&turn, FUTEX_WAIT_PRIVATE, !k);
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			_exit(1);
		turn = !k;
		futex(&turn, FUTEX_WAKE_PRIVATE, 1);
	}
	/* done; stays alive, so its name can be read while A is stopped */
	if (write(done[1], &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 1 };
	int fd;
	pid_t b = 0;
	cpu_set_t set;
	char c = 'x';

	if (argc < 4)
		return 2;
	n = atoi(argv[2]);
	/* before the go: moving to CPU 0 waits for (is woken by) the
	 * stopper thread */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp))
		return 1;
	if (!strcmp(argv[1], "named")) /* its name from the start */
		prctl(PR_SET_NAME, "u10waker");
	fd = open(argv[3], O_RDONLY);
	if (fd < 0) /* blocks until the writer opens: the go; kept open,
		     * so the writer's byte is not a write to no reader */
		return 1;
	if (!strcmp(argv[1], "pipe") || !strcmp(argv[1], "named")) {
		if (pipe(p1) || pipe(p2))
			return 1;
		b = fork();
		if (!b) {
			prctl(PR_SET_NAME, "wakepair"); /* not A's name */
			for (int i = 0; i < n; i++)
				if (read(p1[0], &c, 1) != 1 ||
				    write(p2[1], &c, 1) != 1)
					_exit(1);
			raise(SIGSTOP);
			_exit(0);
		}
		sched_yield(); /* B runs until it blocks in read */
		if (!strcmp(argv[1], "named")) {
			pthread_t t[2];

			if (pipe(done) ||
			    pthread_create(&t[0], NULL, named_thread,
					   (void *)0L) ||
			    pthread_create(&t[1], NULL, named_thread,
					   (void *)1L))
				return 1;
			if (read(done[0], &c, 1) != 1 ||
			    read(done[0], &c, 1) != 1)
				return 1;
			printf("%d %d %d %d %d\n", getpid(), (int)b, n,
			       (int)named_tid[0], (int)named_tid[1]);
			fflush(stdout);
			raise(SIGSTOP);
			return 0;
		}
		for (int i = 0; i < n; i++)
			if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
				return 1;
	} else if (!strcmp(argv[1], "futex")) {
		pthread_t t;

		if (pthread_create(&t, NULL, b_thread, NULL))
			return 1;
		sched_yield(); /* B runs until it blocks in FUTEX_WAIT */
		b = b_tid;
		for (int i = 0; i < n; i++) {
			turn = 1;
			futex(&turn, FUTEX_WAKE_PRIVATE, 1);
			while (turn != 0)
				futex(&turn, FUTEX_WAIT_PRIVATE, 1);
		}
	} else if (!strcmp(argv[1], "timer")) {
		struct timespec ts = { 0, 1000000 };

		for (int i = 0; i < n; i++)
			nanosleep(&ts, NULL);
	} else {
		return 2;
	}
	printf("%d %d %d\n", getpid(), (int)b, n);
	fflush(stdout);
	raise(SIGSTOP);
	return 0;
}

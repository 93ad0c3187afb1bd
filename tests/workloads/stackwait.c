// SPDX-License-Identifier: GPL-2.0
/*
 * stackwait - blocks in two known functions of its own, for --stacks.
 *
 * Usage: stackwait N PIPE_MS SLEEP_MS FIFO [lock]
 * Waits until a writer opens FIFO (a wait it does not time), then N
 * times: wait_in_pipe() reads a byte from a pipe that its helper thread
 * ("swhelper") writes PIPE_MS after being asked, then wait_in_sleep()
 * nanosleeps SLEEP_MS.  Each function times itself (its blocking call,
 * and wait_in_pipe's request before it) with CLOCK_MONOTONIC, and reads
 * the run-queue wait the kernel counted in that window (run_delay,
 * /proc/thread-self/schedstat's second field: a preemption inside the
 * window, or the wait after its wakeup).  Then it prints "PID PIPE_NS
 * SLEEP_NS" (the summed times), " LOCK_NS" with lock, and on a second
 * line "PIPE_RQ_NS SLEEP_RQ_NS" (the summed run_delay of those windows),
 * and stops itself (SIGSTOP).  With "lock" (switchstat_example.txt's
 * example) it also waits in wait_on_lock() for a mutex the helper holds
 * PIPE_MS.
 * The helper wakes wait_in_pipe() from wake_by_pipe() (--wakers --stacks:
 * the waker's user stack); the timer wakes wait_in_sleep().
 *
 * Built with -fno-omit-frame-pointer (CMakeLists.txt).  The system calls
 * are made inline (x86-64, arm64): glibc's wrappers set up no frame, so a frame
 * pointer walk from inside one skips its caller, and the function that
 * blocked would be missing from the user stack.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int req[2], resp[2];
static long pipe_ms;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int held; /* the helper holds lock */
static int rq_fd = -1; /* the main thread's schedstat */
static uint64_t pipe_rq, sleep_rq; /* run_delay in the timed windows, ns */

static inline __attribute__((always_inline)) long sys3(long nr, long a, long b,
						       long c)
{
#if defined(__x86_64__)
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2)
			 : "memory");
	return x0;
#else
	return syscall(nr, a, b, c); /* the caller may be missing */
#endif
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* the main thread's run_delay (ns); exits when it cannot be read */
static uint64_t run_delay(void)
{
	unsigned long long on, wait;
	char b[128];
	ssize_t n = pread(rq_fd, b, sizeof(b) - 1, 0);

	if (n <= 0)
		exit(1);
	b[n] = 0;
	if (sscanf(b, "%llu %llu", &on, &wait) != 2)
		exit(1);
	return wait;
}

/* the helper wakes wait_in_pipe(): the byte written (inline, as above) */
__attribute__((noinline)) int wake_by_pipe(char c)
{
	return sys3(SYS_write, resp[1], (long)&c, 1) == 1 ? 0 : -1;
}

/* the helper: each byte asked for is written back pipe_ms later */
static void *helper(void *arg)
{
	struct timespec d = { pipe_ms / 1000, (pipe_ms % 1000) * 1000000L };
	char c;

	(void)arg;
	prctl(PR_SET_NAME, "swhelper");
	while (read(req[0], &c, 1) == 1) {
		if (c == 'l') { /* hold the lock pipe_ms */
			pthread_mutex_lock(&lock);
			held = 1;
			nanosleep(&d, NULL);
			held = 0;
			pthread_mutex_unlock(&lock);
			continue;
		}
		nanosleep(&d, NULL);
		if (wake_by_pipe(c))
			break;
	}
	return NULL;
}

/* blocks in read() until the helper writes; the ns it took */
__attribute__((noinline)) uint64_t wait_in_pipe(void)
{
	char c = 'x';
	uint64_t t0 = now_ns(), r0 = run_delay();

	/* the request inside the window: a preemption at its return (the
	 * helper woken on this CPU) is in this function's stacks too */
	if (write(req[1], &c, 1) != 1)
		exit(1);
	if (sys3(SYS_read, resp[0], (long)&c, 1) != 1)
		exit(1);
	pipe_rq += run_delay() - r0;
	return now_ns() - t0;
}

/* blocks in nanosleep() for @ms; the ns it took */
__attribute__((noinline)) uint64_t wait_in_sleep(long ms)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
	uint64_t t0 = now_ns(), r0 = run_delay();

	while (sys3(SYS_nanosleep, (long)&d, (long)&d, 0) != 0)
		;
	sleep_rq += run_delay() - r0;
	return now_ns() - t0;
}

/* blocks on the mutex the helper holds; the ns it took */
__attribute__((noinline)) uint64_t wait_on_lock(void)
{
	char c = 'l';
	uint64_t t0;

	if (write(req[1], &c, 1) != 1)
		exit(1);
	while (!held)
		;
	t0 = now_ns();
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	uint64_t tp = 0, ts = 0, tl = 0;
	pthread_t th;
	long n, sleep_ms;
	int fd;

	if (argc != 5 && argc != 6) {
		fprintf(stderr,
			"usage: stackwait N PIPE_MS SLEEP_MS FIFO [lock]\n");
		return 2;
	}
	n = atol(argv[1]);
	pipe_ms = atol(argv[2]);
	sleep_ms = atol(argv[3]);
	prctl(PR_SET_NAME, "stackwait");
	if (pipe(req) || pipe(resp) || pthread_create(&th, NULL, helper, NULL))
		return 1;
	rq_fd = open("/proc/thread-self/schedstat", O_RDONLY);
	if (rq_fd < 0)
		return 1;
	fd = open(argv[4], O_RDONLY); /* until the test says go */
	if (fd < 0)
		return 1;
	for (long i = 0; i < n; i++) {
		tp += wait_in_pipe();
		ts += wait_in_sleep(sleep_ms);
		if (argc == 6)
			tl += wait_on_lock();
	}
	printf("%d %llu %llu", getpid(), (unsigned long long)tp,
	       (unsigned long long)ts);
	if (argc == 6)
		printf(" %llu", (unsigned long long)tl);
	printf("\n%llu %llu\n", (unsigned long long)pipe_rq,
	       (unsigned long long)sleep_rq);
	fflush(stdout);
	raise(SIGSTOP);
	return 0;
}

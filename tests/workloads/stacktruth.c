// SPDX-License-Identifier: GPL-2.0
/*
 * stacktruth - blocks at a known user stack, for checking --stacks'
 * frames against nm and gdb (test_stacks_truth).
 *
 * Usage: stacktruth MODE MS FIFO
 * Waits until a writer opens FIFO, then blocks once for MS milliseconds
 * (nanosleep, made inline: the blocking function is the innermost frame)
 * at the stack MODE names:
 *   exit     main -> outer_u01 -> block_u01; prints, then exits (0)
 *   exec     as walk for MS / 4, then execs itself in exit mode (FIFO
 *            "-": no wait)
 *   walk     main -> walker -> real_leaf
 *   fake     as walk, with %rbp (x29 on arm64) pointing at a struct whose
 *            second word is never_called_cb's address while it blocks: a
 *            frame-pointer walk of code without frame pointers reads it
 *            as a return address (never_called_cb is never called)
 *   deep:N   main -> rec -> ... -> rec (N of them), blocking in the last
 * Then it prints "PID NS" (NS: the time it measured) and, but in exit
 * mode, blocks again at the same stack, 600 s, for gdb to read.
 *
 * Built twice (CMakeLists.txt): stacktruth with -fno-omit-frame-pointer,
 * stacktruth_nofp with -fomit-frame-pointer.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long block_ms;
static int nrec;

struct fake_frame {
	void *next;
	void *ret;
};

__attribute__((noinline)) void never_called_cb(void)
{
	puts("never_called_cb");
	abort();
}

static struct fake_frame fake = { NULL, (void *)never_called_cb };

/* nanosleep(@ms) made here; with @f set, the frame register is @f */
static inline __attribute__((always_inline)) void sleep_here(long ms, void *f)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
#if defined(__x86_64__)
	long r;

	do {
		if (f)
			__asm__ volatile("mov %%rbp, %%r12\n\t"
					 "mov %[f], %%rbp\n\t"
					 "syscall\n\t"
					 "mov %%r12, %%rbp"
					 : "=a"(r)
					 : "a"(SYS_nanosleep), "D"(&d),
					   "S"(&d), [f] "r"(f)
					 : "rcx", "r11", "r12", "memory");
		else
			__asm__ volatile("syscall"
					 : "=a"(r)
					 : "a"(SYS_nanosleep), "D"(&d), "S"(&d)
					 : "rcx", "r11", "memory");
	} while (r != 0);
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_nanosleep;
	register long x0 __asm__("x0");
	register long x1 __asm__("x1") = (long)&d;

	do {
		x0 = (long)&d;
		if (f)
			__asm__ volatile("mov x20, x29\n\t"
					 "mov x29, %[f]\n\t"
					 "svc #0\n\t"
					 "mov x29, x20"
					 : "+r"(x0)
					 : "r"(x8), "r"(x1), [f] "r"(f)
					 : "x20", "memory");
		else
			__asm__ volatile("svc #0"
					 : "+r"(x0)
					 : "r"(x8), "r"(x1)
					 : "memory");
	} while (x0 != 0);
#else
	(void)f;
	while (nanosleep(&d, &d))
		;
#endif
}

__attribute__((noinline)) int block_u01(void)
{
	sleep_here(block_ms, NULL);
	__asm__ volatile("" ::: "memory");
	return 1;
}

__attribute__((noinline)) int outer_u01(void)
{
	int r = block_u01();

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline)) int real_leaf(void *f)
{
	sleep_here(block_ms, f);
	__asm__ volatile("" ::: "memory");
	return 1;
}

__attribute__((noinline)) int walker(void *f)
{
	int r = real_leaf(f);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline)) int rec(int n)
{
	volatile int r;

	if (n <= 1)
		sleep_here(block_ms, NULL);
	r = n <= 1 ? 1 : rec(n - 1);
	__asm__ volatile("" ::: "memory");
	return r + 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* block once at MODE's stack; the ns it took */
static uint64_t once(const char *mode)
{
	uint64_t t0 = now_ns();

	if (!strcmp(mode, "exit"))
		outer_u01();
	else if (!strcmp(mode, "walk"))
		walker(NULL);
	else if (!strcmp(mode, "fake"))
		walker(&fake);
	else
		rec(nrec);
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	uint64_t ns;
	int fd;

	if (argc != 4 || (strcmp(argv[1], "exit") && strcmp(argv[1], "walk") &&
			  strcmp(argv[1], "fake") && strcmp(argv[1], "exec") &&
			  strncmp(argv[1], "deep:", 5))) {
		fprintf(stderr, "usage: stacktruth exit|exec|walk|fake|deep:N "
				"MS FIFO\n");
		return 2;
	}
	if (!strncmp(argv[1], "deep:", 5))
		nrec = atoi(argv[1] + 5);
	block_ms = atol(argv[2]);
	fd = strcmp(argv[3], "-") ? open(argv[3], O_RDONLY) : 0; /* go */
	if (fd < 0)
		return 1;
	if (!strcmp(argv[1], "exec")) {
		block_ms /= 4;
		once("walk");
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0)
			return 1;
		self[n] = 0; /* its own name: the comm is the file's */
		execl(self, argv[0], "exit", argv[2], "-", NULL);
		return 1;
	}
	ns = once(argv[1]);
	printf("%d %llu\n", getpid(), (unsigned long long)ns);
	fflush(stdout);
	if (!strcmp(argv[1], "exit"))
		return 0;
	block_ms = 600000;
	once(argv[1]);
	return 0;
}

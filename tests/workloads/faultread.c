// SPDX-License-Identifier: GPL-2.0
/*
 * faultread - page faults taken in kernel mode and in user mode.  Maps
 * 2 x MIB MiB of fresh anonymous memory (MADV_NOHUGEPAGE: one fault per
 * 4 KiB page), writes its pid to READYFILE, and after SIGUSR1 fills the
 * first half with read() from /dev/zero (the kernel faults the pages in
 * while copying to user memory) and touches every page of the second half
 * from user space; then writes "done" to DONEFILE and waits until killed.
 * Usage: faultread MIB READYFILE DONEFILE
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int s)
{
	(void)s;
	go = 1;
}

static int write_file(const char *path, const char *text, long n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, text, n);
	return fclose(f);
}

int main(int argc, char **argv)
{
	long mib = argc > 3 ? atol(argv[1]) : 0, psz = sysconf(_SC_PAGESIZE);
	size_t half = (size_t)mib << 20, done = 0;
	char *p;
	int fd;

	if (mib <= 0)
		return 2;
	signal(SIGUSR1, on_usr1);
	p = mmap(NULL, 2 * half, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open("/dev/zero", O_RDONLY);
	if (p == MAP_FAILED || fd < 0)
		return 1;
	madvise(p, 2 * half, MADV_NOHUGEPAGE);
	if (write_file(argv[2], "%ld\n", getpid()))
		return 1;
	while (!go)
		pause();
	while (done < half) {
		ssize_t n = read(fd, p + done, half - done);

		if (n <= 0)
			return 1;
		done += n;
	}
	for (size_t i = 0; i < half; i += psz)
		p[half + i] = 1;
	if (write_file(argv[3], "done %ld\n", 0))
		return 1;
	for (;;)
		pause();
}

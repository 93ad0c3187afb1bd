// SPDX-License-Identifier: GPL-2.0
/*
 * touchpages - after SIGUSR1, touch NPAGES fresh anonymous pages (one minor
 * fault each), write "done" to the file, then wait until killed.
 * Usage: touchpages NPAGES READYFILE DONEFILE
 */
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

int main(int argc, char **argv)
{
	long n = argc > 3 ? atol(argv[1]) : 0, psz = sysconf(_SC_PAGESIZE);
	FILE *f;
	char *p;

	if (n <= 0)
		return 2;
	signal(SIGUSR1, on_usr1);
	p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise(p, n * psz, MADV_NOHUGEPAGE);
	f = fopen(argv[2], "w");
	fprintf(f, "%d\n", getpid());
	fclose(f);
	while (!go)
		pause();
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
	f = fopen(argv[3], "w");
	fprintf(f, "done\n");
	fclose(f);
	for (;;)
		pause();
}

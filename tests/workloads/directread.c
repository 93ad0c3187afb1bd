// SPDX-License-Identifier: GPL-2.0
/*
 * directread - an O_DIRECT read loop: every pread() of 4 KiB bypasses the
 * page cache and waits for the device (D, in io_schedule()).  Writes
 * FILE (1 MiB) first, then reads it block by block, round and round,
 * until killed.  Usage: directread FILE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLK 4096
#define NBLK 256

int main(int argc, char **argv)
{
	void *buf;
	int fd;

	if (argc < 2 || posix_memalign(&buf, BLK, BLK))
		return 2;
	memset(buf, 'x', BLK);
	fd = open(argv[1], O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0)
		return 1;
	for (int i = 0; i < NBLK; i++)
		if (write(fd, buf, BLK) != BLK)
			return 1;
	if (fsync(fd) || close(fd))
		return 1;
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0)
		return 1;
	for (long i = 0;; i++)
		if (pread(fd, buf, BLK, (i % NBLK) * BLK) != BLK)
			return 1;
}

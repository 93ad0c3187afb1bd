// SPDX-License-Identifier: GPL-2.0
/*
 * bpfhammer - bpf() map syscalls on every CPU: one thread pinned to each
 * online CPU loops on BPF_MAP_UPDATE_ELEM, BPF_MAP_LOOKUP_ELEM and
 * BPF_MAP_DELETE_ELEM on a hash map of its own.  While a map syscall runs
 * on a CPU the kernel skips regular tracepoint programs there (raw
 * tracepoint programs still run).  Needs root (CAP_BPF).
 * Usage: bpfhammer READY_FILE   (writes "ok" once every thread runs;
 * runs until killed)
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int running;

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static void *hammer(void *arg)
{
	long cpu = (long)arg;
	union bpf_attr a;
	unsigned long long val = 0;
	unsigned int key;
	cpu_set_t set;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return NULL;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH;
	a.key_size = sizeof(key);
	a.value_size = sizeof(val);
	a.max_entries = 1024;
	fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (fd < 0) {
		perror("bpfhammer: BPF_MAP_CREATE");
		exit(1);
	}
	__sync_fetch_and_add(&running, 1);
	for (key = 0;; key = (key + 1) % 1024) {
		memset(&a, 0, sizeof(a));
		a.map_fd = fd;
		a.key = (unsigned long)&key;
		a.value = (unsigned long)&val;
		sys_bpf(BPF_MAP_UPDATE_ELEM, &a);
		sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
		sys_bpf(BPF_MAP_DELETE_ELEM, &a);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 0;
	cpu_set_t online;
	pthread_t t;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: bpfhammer READY_FILE\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof(online), &online))
		return 1;
	for (long cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		pthread_create(&t, NULL, hammer, (void *)cpu);
		n++;
	}
	while (running < n)
		usleep(1000);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "ok %d\n", n);
	fclose(f);
	for (;;)
		pause();
}

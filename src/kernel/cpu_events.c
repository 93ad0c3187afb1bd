// SPDX-License-Identifier: GPL-2.0
/* cpu_events.c - per-CPU perf events that survive CPU hotplug. */
#include "cpu_events.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bcc/libbpf.h>

static int open_one(const struct ss_cpu_events *e, int cpu)
{
	int fd = syscall(SYS_perf_event_open, &e->attr, -1, cpu, -1,
			 PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Store fd in the perf array and/or attach the program. */
static int attach_one(const struct ss_cpu_events *e, int cpu)
{
	int fd = e->fd[cpu];

	if (e->map_fd >= 0 && bpf_update_elem(e->map_fd, &cpu, &fd, BPF_ANY))
		return -errno;
	if (e->prog_fd >= 0 && (ioctl(fd, PERF_EVENT_IOC_SET_BPF, e->prog_fd) ||
				ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)))
		return -errno;
	return 0;
}

/* ss_cpu_events_open - see cpu_events.h */
int ss_cpu_events_open(struct ss_cpu_events *e,
		       const struct perf_event_attr *attr, int ncpus,
		       const bool *online)
{
	int n = 0;

	e->attr = *attr;
	e->ncpus = ncpus;
	e->map_fd = -1;
	e->prog_fd = -1;
	e->fd = malloc(ncpus * sizeof(*e->fd));
	if (!e->fd)
		return -ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		e->fd[cpu] = -1;
		if (online && !online[cpu])
			continue;
		int fd = open_one(e, cpu);

		if (fd == -ENODEV)
			continue;
		if (fd < 0) {
			ss_cpu_events_close(e);
			return fd;
		}
		e->fd[cpu] = fd;
		n++;
	}
	return n;
}

/* ss_cpu_events_attach - see cpu_events.h */
int ss_cpu_events_attach(struct ss_cpu_events *e)
{
	for (int cpu = 0; cpu < e->ncpus; cpu++) {
		int ret = e->fd[cpu] >= 0 ? attach_one(e, cpu) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

/* ss_cpu_events_reopen - see cpu_events.h */
int ss_cpu_events_reopen(struct ss_cpu_events *e, int cpu)
{
	int fd, old, ret;

	if (!e->fd || cpu < 0 || cpu >= e->ncpus)
		return -EINVAL;
	fd = open_one(e, cpu);
	if (fd < 0)
		return fd;
	/* the map's slot takes the new event, then the old one is closed */
	old = e->fd[cpu];
	e->fd[cpu] = fd;
	ret = attach_one(e, cpu);
	if (old >= 0)
		close(old);
	return ret;
}

/* ss_cpu_events_close - see cpu_events.h */
void ss_cpu_events_close(struct ss_cpu_events *e)
{
	if (!e->fd)
		return;
	for (int cpu = 0; cpu < e->ncpus; cpu++)
		if (e->fd[cpu] >= 0)
			close(e->fd[cpu]);
	free(e->fd);
	e->fd = NULL;
}

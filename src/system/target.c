// SPDX-License-Identifier: GPL-2.0
/* target.c - watch the -p / -t target and end the run when it is gone. */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procfs.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* Linux 6.9+: a pidfd for one thread */
#endif
#define POLL_MS 100

static struct {
	pthread_t thread;
	bool running;
	atomic_bool stop;
	uint32_t id; /* the tid with -t, else the pid */
	bool is_thread;
	int pidfd; /* -1: check /proc */
} w = { .pidfd = -1 };

static bool thread_alive(uint32_t tid)
{
	char path[64], line[256];
	bool alive = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/status", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "State:", 6)) {
			char *p = line + 6;

			while (*p == ' ' || *p == '\t')
				p++;
			alive = *p != 'Z' && *p != 'X';
			break;
		}
	}
	fclose(f);
	return alive;
}

/* The target has exited: the pidfd is readable, or /proc says so. */
static bool gone(int timeout_ms)
{
	if (w.pidfd >= 0) {
		struct pollfd p = { .fd = w.pidfd, .events = POLLIN };

		return poll(&p, 1, timeout_ms) > 0;
	}
	usleep(timeout_ms * 1000);
	return w.is_thread ? !thread_alive(w.id)
			   : !ss_process_alive("/proc", w.id);
}

static void *watch(void *arg)
{
	(void)arg;
	while (!atomic_load(&w.stop)) {
		if (!gone(POLL_MS))
			continue;
		fprintf(stderr, "switchstat: %s %" PRIu32 " has exited\n",
			w.is_thread ? "thread" : "process", w.id);
		kill(getpid(), SIGTERM); /* the main thread takes it */
		break;
	}
	return NULL;
}

/* ss_target_watch - see target.h */
int ss_target_watch(uint32_t pid, uint32_t tid)
{
	sigset_t all, old;
	int err;

	if (!pid && !tid)
		return 0;
	w.is_thread = tid != 0;
	w.id = tid ? tid : pid;
	w.pidfd = syscall(SYS_pidfd_open, w.id, w.is_thread ? PIDFD_THREAD : 0);
	/* ESRCH: gone already (the watcher sees it); else use /proc */
	if (w.pidfd < 0 && errno == ESRCH)
		w.pidfd = -1;
	atomic_store(&w.stop, false);
	/* the watcher takes no signals: SIGINT/SIGTERM reach the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w.thread, NULL, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		errno = err;
		return -1;
	}
	w.running = true;
	return 0;
}

/* ss_target_stop - see target.h */
void ss_target_stop(void)
{
	if (!w.running)
		return;
	atomic_store(&w.stop, true);
	pthread_join(w.thread, NULL);
	w.running = false;
	if (w.pidfd >= 0)
		close(w.pidfd);
	w.pidfd = -1;
}

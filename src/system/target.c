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
#define SS_TARGETS_MAX 32 /* SS_MAX_TARGETS of options.h */

static struct {
	pthread_t thread;
	bool running;
	atomic_bool stop;
	bool is_thread; /* -t, else -p */
	uint32_t n, left; /* targets, those not yet gone */
	uint32_t id[SS_TARGETS_MAX];
	int pidfd[SS_TARGETS_MAX]; /* -1: check /proc */
	bool gone[SS_TARGETS_MAX];
} w;

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

static bool alive(uint32_t i)
{
	return w.is_thread ? thread_alive(w.id[i])
			   : ss_process_alive("/proc", w.id[i]);
}

/*
 * Wait up to @timeout_ms for a target to exit; mark and name each that
 * has.  Returns true when none is left.
 */
static bool poll_gone(int timeout_ms)
{
	struct pollfd p[SS_TARGETS_MAX];
	uint32_t np = 0, map[SS_TARGETS_MAX];

	for (uint32_t i = 0; i < w.n; i++) {
		if (!w.gone[i] && w.pidfd[i] >= 0) {
			p[np] = (struct pollfd){ .fd = w.pidfd[i],
						 .events = POLLIN };
			map[np++] = i;
		}
	}
	if (np)
		poll(p, np, timeout_ms);
	else
		usleep(timeout_ms * 1000);
	for (uint32_t k = 0, j = 0; k < w.n; k++) {
		bool now_gone;

		if (w.gone[k])
			continue;
		if (w.pidfd[k] >= 0) {
			while (j < np && map[j] < k)
				j++;
			now_gone = j < np && map[j] == k && p[j].revents;
		} else {
			now_gone = !alive(k);
		}
		if (!now_gone)
			continue;
		w.gone[k] = true;
		w.left--;
		fprintf(stderr, "switchstat: %s %" PRIu32 " has exited\n",
			w.is_thread ? "thread" : "process", w.id[k]);
	}
	return w.left == 0;
}

static void *watch(void *arg)
{
	(void)arg;
	while (!atomic_load(&w.stop)) {
		if (!poll_gone(POLL_MS))
			continue;
		kill(getpid(), SIGTERM); /* the main thread takes it */
		break;
	}
	return NULL;
}

/* ss_target_watch - see target.h */
int ss_target_watch(const uint32_t *ids, uint32_t n, bool threads)
{
	sigset_t all, old;
	int err;

	if (!n)
		return 0;
	if (n > SS_TARGETS_MAX) {
		errno = E2BIG;
		return -1;
	}
	w.is_thread = threads;
	w.n = w.left = n;
	for (uint32_t i = 0; i < n; i++) {
		w.id[i] = ids[i];
		w.gone[i] = false;
		/* ESRCH: gone already (the watcher sees it); else /proc */
		w.pidfd[i] = syscall(SYS_pidfd_open, ids[i],
				     threads ? PIDFD_THREAD : 0);
	}
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
	for (uint32_t i = 0; i < w.n; i++) {
		if (w.pidfd[i] >= 0)
			close(w.pidfd[i]);
		w.pidfd[i] = -1;
	}
	w.n = 0;
}

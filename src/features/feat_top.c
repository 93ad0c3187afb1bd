// SPDX-License-Identifier: GPL-2.0
/*
 * feat_top.c - --top: runs the interval loop itself, with the terminal's
 * keys polled between intervals.  Each interval is the same phase as the
 * table's (core collects and sorts; --csv/--json records still go to
 * stdout, the table is not printed), then the view draws it.
 *
 * The terminal is restored on q, SIGINT, SIGTERM, SIGQUIT and SIGHUP (the
 * loop ends and closes the view), on a failed interval (closed before the
 * error is shown), on exit() anywhere (top_view's atexit handler) and on a
 * crash (top_view's handlers of SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT).  What is
 * written to stderr while the view is up (-v, warnings) is kept in memory
 * and written out after the view is closed, so it cannot scramble the
 * screen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "feat_top.h"
#include "top_view.h"

struct top_state {
	struct ss_top view;
	int saved_stderr; /* -1: stderr not redirected */
	int mem_stderr;
};

static int top_check(struct ss_app *app, void *st)
{
	char err[SS_ERR_LEN];

	if (!app->o.top_view)
		return 0;
	if (ss_top_check_terminal(app->fmt != SS_FMT_TABLE, err, sizeof(err))) {
		ss_diag("%s", err);
		return 2;
	}
	return 0;
}

/* stderr into memory while the view is up (only when it is a terminal) */
static void hold_stderr(struct top_state *ts)
{
	ts->saved_stderr = ts->mem_stderr = -1;
	if (!isatty(STDERR_FILENO))
		return;
	ts->mem_stderr = memfd_create("switchstat-stderr", MFD_CLOEXEC);
	if (ts->mem_stderr < 0)
		return;
	fflush(stderr);
	ts->saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (ts->saved_stderr < 0 || dup2(ts->mem_stderr, STDERR_FILENO) < 0) {
		close(ts->mem_stderr);
		ts->mem_stderr = -1;
	}
}

static void release_stderr(struct top_state *ts)
{
	char buf[4096];
	ssize_t n;

	if (ts->mem_stderr < 0)
		return;
	fflush(stderr);
	dup2(ts->saved_stderr, STDERR_FILENO);
	close(ts->saved_stderr);
	lseek(ts->mem_stderr, 0, SEEK_SET);
	while ((n = read(ts->mem_stderr, buf, sizeof(buf))) > 0)
		if (write(STDERR_FILENO, buf, n) != n)
			break;
	close(ts->mem_stderr);
	ts->mem_stderr = ts->saved_stderr = -1;
}

static int top_run(struct ss_app *app, void *st)
{
	struct top_state *ts = st;
	struct ss_top *t = &ts->view;
	struct sigaction sa = { .sa_handler = ss_on_signal }, old_quit, old_hup;
	char err[SS_ERR_LEN];
	uint64_t interval_ns, t0, last, next, end;
	int ret = 0;

	if (!app->o.top_view)
		return -1;
	if (ss_features_phase(app, SS_PHASE_RESET))
		return 1;
	if (ss_top_open(t, &app->o, &app->out, app->fmt != SS_FMT_TABLE, err,
			sizeof(err))) {
		ss_diag("%s", err);
		return 1;
	}
	/* Ctrl-\ and a hang-up end the view as q does (not a core dump) */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGQUIT, &sa, &old_quit);
	sigaction(SIGHUP, &sa, &old_hup);
	hold_stderr(ts);
	interval_ns = t->interval_ms * 1000000ULL;
	t0 = last = ss_clock_ns(CLOCK_MONOTONIC);
	next = t0 + interval_ns;
	end = app->o.duration_s ? t0 + app->o.duration_s * 1000000000ULL
				: UINT64_MAX;
	ss_top_draw(t);
	while (!ss_exiting) {
		uint64_t wake = next < end ? next : end;
		uint64_t now = ss_clock_ns(CLOCK_MONOTONIC);
		struct pollfd pfd = { .fd = t->in_fd, .events = POLLIN };
		enum ss_top_action act;

		if (now >= wake) {
			if (ss_features_interval(app)) {
				ret = 1;
				break;
			}
			if (ss_top_update(t, &app->iv, app->hist.recs,
					  app->hist.n, app->hist.ms,
					  app->o.per_thread	    ? 2
					  : app->o.hist_per_process ? 1
					  : app->o.per_cgroup	    ? 3
								    : 0)) {
				ss_diag("out of memory");
				ret = 1;
				break;
			}
			if (app->o.blame &&
			    ss_top_set_noisy(t, app->blame.noisy)) {
				ss_diag("out of memory");
				ret = 1;
				break;
			}
			ss_top_draw(t);
			if (wake >= end)
				break;
			last = now;
			while (next <= now) /* missed deadlines are skipped */
				next += interval_ns;
			continue;
		}
		if (poll(&pfd, 1, (int)((wake - now) / 1000000ULL) + 1) < 0 &&
		    errno != EINTR) {
			ret = 1;
			break;
		}
		/* also after EINTR: SIGWINCH leaves KEY_RESIZE to read */
		act = ss_top_keys(t);
		if (act == SS_TOP_QUIT)
			break;
		if (act == SS_TOP_INTERVAL) {
			interval_ns = t->interval_ms * 1000000ULL;
			next = last + interval_ns;
			ss_top_draw(t);
		}
	}
	ss_top_close(t);
	release_stderr(ts);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	/* q, Ctrl-C, SIGTERM: the partial interval, for --csv/--json */
	app->last_interval = true;
	if (!ret && ss_clock_ns(CLOCK_MONOTONIC) < end)
		ret = ss_features_interval(app) ? 1 : 0;
	return ret;
}

static void top_close(struct ss_app *app, void *st)
{
	struct top_state *ts = st;

	ss_top_close(&ts->view);
}

const struct ss_feature ss_feat_top = {
	.name = "top",
	.state_size = sizeof(struct top_state),
	.check = top_check,
	.run = top_run,
	.close = top_close,
};

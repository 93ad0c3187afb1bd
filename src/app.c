// SPDX-License-Identifier: GPL-2.0
/* app.c - what every feature shares: the exit flag, clocks, attaches. */
#include "app.h"

#include <string.h>

#include "emit.h"

volatile sig_atomic_t ss_exiting;

/* ss_on_signal - see app.h */
void ss_on_signal(int sig)
{
	(void)sig;
	ss_exiting = 1;
}

/* ss_clock_ns - see app.h */
uint64_t ss_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ss_app_attach_sched - see app.h */
int ss_app_attach_sched(struct ss_app *app, const char *tp)
{
	char err[SS_ERR_LEN];

	if (ss_bpf_attach_sched(&app->bpf, tp, err, sizeof(err))) {
		ss_diag("%s", err);
		return 1;
	}
	return 0;
}

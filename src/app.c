// SPDX-License-Identifier: GPL-2.0
/* app.c - what every feature shares: BPF cflags, the exit flag, clocks. */
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

/* ss_app_define - see app.h */
int ss_app_define(struct ss_app *app, const char *name,
		  unsigned long long value)
{
	if (ss_app_defined(app, name, value))
		return 0;
	if (app->ncflags >= SS_MAX_CFLAGS)
		return -1;
	snprintf(app->cflag_buf[app->ncflags], sizeof(app->cflag_buf[0]),
		 "-D%s=%llu", name, value);
	app->cflags[app->ncflags] = app->cflag_buf[app->ncflags];
	app->ncflags++;
	return 0;
}

/* ss_app_defined - see app.h */
bool ss_app_defined(const struct ss_app *app, const char *name,
		    unsigned long long value)
{
	char want[64];

	snprintf(want, sizeof(want), "-D%s=%llu", name, value);
	for (int i = 0; i < app->ncflags; i++)
		if (!strcmp(app->cflags[i], want))
			return true;
	return false;
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

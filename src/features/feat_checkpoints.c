// SPDX-License-Identifier: GPL-2.0
/*
 * feat_checkpoints.c - the interval checkpoints that keep on-CPU time
 * accurate per interval.
 *
 * Checkpoints (always on, except --trace): a cpu-clock software perf event
 * on every online CPU runs probes/switch.bpf.c's ss_checkpoint every
 * period_ns, which charges the running task's slice so far, so a task
 * that never switches still shows its time in each interval.  An interval
 * boundary misplaces at most one period of each CPU's time (moved to the
 * next interval, not lost), hence period = interval / 200 (0.5%), at least
 * 1 ms and at most 10 ms: a slice whose owner is unknown because a switch
 * was missed (see SS_STAT_MISSED) is skipped, so checkpoints also bound
 * what one missed switch can lose.  A timer interrupt does not switch
 * tasks: switch counts unchanged.  A CPU that comes back online gets a
 * new event (cpu_up): the kernel leaves the old one off.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpu_events.h"
#include "cpus.h"
#include "feat_checkpoints.h"

#define CKPT_DIV 200 /* checkpoints per interval */
#define CKPT_MIN_NS 1000000ULL
#define CKPT_MAX_NS 10000000ULL

struct ckpt_state {
	uint64_t period_ns; /* checkpoint period; 0: no checkpoints */
	struct ss_cpu_events ev; /* the cpu-clock events, running the program */
};

static int ckpt_configure(struct ss_app *app, void *st)
{
	struct ckpt_state *cp = st;
	const struct ss_opts *o = &app->o;

	if (o->trace)
		return 0;
	cp->period_ns = o->interval_ms * 1000000ULL / CKPT_DIV;
	if (cp->period_ns < CKPT_MIN_NS)
		cp->period_ns = CKPT_MIN_NS;
	if (cp->period_ns > CKPT_MAX_NS)
		cp->period_ns = CKPT_MAX_NS;
	if (o->verbose)
		ss_diag("checkpoints every %.3f ms/CPU", cp->period_ns / 1e6);
	return 0;
}

/*
 * Open a cpu-clock event on each online CPU (offline ones are skipped) and
 * run ss_checkpoint at every period.
 */
static int ckpt_attach(struct ss_app *app, void *st)
{
	struct ckpt_state *cp = st;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = cp->period_ns,
		.disabled = 1,
	};
	char err[SS_ERR_LEN];
	int prog, n;

	if (!cp->period_ns)
		return 0;
	prog = ss_bpf_load(&app->bpf, "ss_checkpoint", BPF_PROG_TYPE_PERF_EVENT,
			   err, sizeof(err));
	if (prog < 0) {
		ss_diag("%s", err);
		return 1;
	}
	n = ss_cpu_events_open(&cp->ev, &attr, app->ncpus_possible, NULL);
	if (n > 0) {
		cp->ev.prog_fd = prog;
		n = ss_cpu_events_attach(&cp->ev);
		if (!n)
			return 0;
	}
	if (!n) {
		ss_diag("no online CPU for the interval "
			"checkpoints");
		return 1;
	}
	ss_diag("cannot attach the interval checkpoint (cpu-clock "
		"perf event): %s",
		strerror(-n));
	return 1;
}

/* CPU cpu is back online: a new checkpoint event there. */
static int ckpt_cpu_up(struct ss_app *app, void *st, int cpu)
{
	struct ckpt_state *cp = st;

	return cp->period_ns && cp->ev.fd ? ss_cpu_events_reopen(&cp->ev, cpu)
					  : 0;
}

static void ckpt_close(struct ss_app *app, void *st)
{
	struct ckpt_state *cp = st;

	ss_cpu_events_close(&cp->ev);
}

const struct ss_feature ss_feat_checkpoints = {
	.name = "checkpoints",
	.state_size = sizeof(struct ckpt_state),
	.configure = ckpt_configure,
	.attach = ckpt_attach,
	.close = ckpt_close,
	.cpu_up = ckpt_cpu_up,
};

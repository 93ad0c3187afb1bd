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
 *
 * Interval edges: just before each collect the core feature calls
 * ckpt_edge, which runs the probe's ss_edge on every online CPU
 * (BPF_PROG_TEST_RUN, BPF_F_TEST_RUN_ON_CPU: an IPI to each), so every
 * CPU's slice so far is charged to the interval ending now.  The periodic
 * event cannot do that on an idle CPU: with the tick stopped the kernel
 * throttles it after max_samples_per_tick periods (perf_event_max_sample_rate
 * / HZ) and unthrottles it only at that CPU's next tick, so an idle CPU's
 * slice could span several intervals (H29: swapper 1072 ms in a 500 ms
 * interval, closures 50-165 %).  A kernel without BPF_F_TEST_RUN_ON_CPU
 * (before 5.10) keeps the one-period bound only where the event runs
 * (-v says so).  At its edge each CPU also moves to the other of two
 * accumulator maps (probes/common.bpf.h ss_accum_gen), so the map the
 * core feature drains holds the ending interval's rows only, however long
 * the drain takes while the probes go on.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "cpu_events.h"
#include "cpus.h"
#include "feat_checkpoints.h"

#define CKPT_DIV 200 /* checkpoints per interval */
#define CKPT_MIN_NS 1000000ULL
#define CKPT_MAX_NS 10000000ULL

struct ckpt_state {
	uint64_t period_ns; /* checkpoint period; 0: no checkpoints */
	struct ss_cpu_events ev; /* the cpu-clock events, running the program */
	int edge_fd; /* ss_edge, run at interval edges; -1: none */
	int gen_fd; /* accum_gen: the interval the CPUs charge after an edge */
	uint64_t gen; /* its value */
	bool verbose;
	uint64_t edge_runs, edge_offline; /* CPUs run on, CPUs offline */
};

static int ckpt_configure(struct ss_app *app, void *st)
{
	struct ckpt_state *cp = st;
	const struct ss_opts *o = &app->o;

	/* two accumulator maps, one per interval parity (ckpt_edge) */
	if (!app->plan->rows.accum_gens)
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
 * ss_edge on CPU cpu now (the kernel's BPF_PROG_TEST_RUN on that CPU).
 * Returns 0, or -errno: -ENXIO when the CPU is offline, -EINVAL when the
 * kernel cannot run a program on another CPU.
 */
static int edge_run(int prog_fd, int cpu)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.flags = BPF_F_TEST_RUN_ON_CPU;
	attr.test.cpu = cpu;
	return syscall(SYS_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr)) ? -errno
									: 0;
}

/*
 * The interval edge (app->edge): every online CPU's slice so far ends
 * now, and from there on each charges the next interval's accumulator
 * map (accum_gen: set before the edges).  A CPU offline now is skipped:
 * its slice spans offline time and is dropped when it comes back
 * (probes/hotplug.bpf.h), and it moves to the current map then
 * (ckpt_cpu_up).  Returns true when the CPUs moved to the other map.
 */
static bool ckpt_edge(struct ss_app *app, void *st)
{
	struct ckpt_state *cp = st;
	uint64_t gen = cp->gen + 1;
	__u32 zero = 0;
	bool ran = false;

	if (cp->edge_fd < 0)
		return false;
	if (bpf_update_elem(cp->gen_fd, &zero, &gen, BPF_ANY))
		gen = cp->gen; /* rows stay in the map they are in */
	for (int cpu = 0; cpu < app->ncpus_possible; cpu++) {
		int ret = edge_run(cp->edge_fd, cpu);

		if (!ret) {
			cp->edge_runs++;
			ran = true;
		} else if (ret == -ENXIO) {
			cp->edge_offline++;
		} else if (!ran && cpu == app->ncpus_possible - 1) {
			if (cp->verbose)
				ss_diag("interval edges: cannot run ss_edge "
					"(%s): edges are placed by the "
					"checkpoints only",
					strerror(-ret));
			/* no CPU ever ran it: the map stays the first one */
			cp->edge_fd = -1; /* closed with the module */
			return false;
		}
	}
	if (!ran || gen == cp->gen)
		return false;
	cp->gen = gen;
	return true;
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

	cp->edge_fd = -1;
	if (!cp->period_ns)
		return 0;
	prog = ss_bpf_load(&app->bpf, "ss_checkpoint", BPF_PROG_TYPE_PERF_EVENT,
			   err, sizeof(err));
	if (prog < 0) {
		ss_diag("%s", err);
		return 1;
	}
	cp->edge_fd =
		ss_bpf_load(&app->bpf, "ss_edge", BPF_PROG_TYPE_RAW_TRACEPOINT,
			    err, sizeof(err));
	if (cp->edge_fd < 0) {
		ss_diag("%s", err);
		return 1;
	}
	cp->gen_fd = ss_bpf_map_fd(&app->bpf, "accum_gen");
	if (cp->gen_fd < 0) {
		ss_diag("BPF map accum_gen missing");
		return 1;
	}
	cp->verbose = app->o.verbose;
	app->edge = ckpt_edge;
	app->edge_st = cp;
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

/*
 * CPU cpu is back online: a new checkpoint event there, and an edge, so
 * that it charges the current interval's map (it was offline at the last
 * edge, if any).
 */
static int ckpt_cpu_up(struct ss_app *app, void *st, int cpu)
{
	struct ckpt_state *cp = st;
	int edge_fd = cp->edge_fd;

	if (edge_fd >= 0)
		edge_run(edge_fd, cpu);
	return cp->period_ns && cp->ev.fd ? ss_cpu_events_reopen(&cp->ev, cpu)
					  : 0;
}

/* -v: how often the interval edges ran */
static void ckpt_finish(struct ss_app *app, void *st)
{
	struct ckpt_state *cp = st;

	if (cp->verbose && cp->period_ns)
		ss_diag("interval edges: ss_edge ran %" PRIu64 " times on "
			"online CPUs, %" PRIu64 " CPUs offline at an edge",
			cp->edge_runs, cp->edge_offline);
}

static void ckpt_close(struct ss_app *app, void *st)
{
	struct ckpt_state *cp = st;

	app->edge = NULL;
	ss_cpu_events_close(&cp->ev);
}

const struct ss_feature ss_feat_checkpoints = {
	.name = "checkpoints",
	.state_size = sizeof(struct ckpt_state),
	.configure = ckpt_configure,
	.attach = ckpt_attach,
	.finish = ckpt_finish,
	.close = ckpt_close,
	.cpu_up = ckpt_cpu_up,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * feat_path.c - the tracepoint path (see feat_path.h).
 *
 * The raw path needs the kernel's BTF (/sys/kernel/btf/vmlinux), a raw
 * sched_switch with four arguments (preempt, prev, next, prev_state;
 * Linux 5.18+, or a backport) or three (preempt, prev, next; Linux 5.5 to
 * 5.17) and the task_struct fields of struct ss_task_offsets; their
 * offsets go to the probes as -D numbers (probes/task.bpf.h).  With three
 * arguments the probe reads prev's state itself, from task_struct.state
 * (a long, before 5.14) or __state (an unsigned int, 5.14+) at its BTF
 * offset (SS_SWITCH_NARGS 3, SS_TASK_STATE, SS_TASK_STATE_SIZE): those
 * kernels fire trace_sched_switch(preempt, prev, next) in __schedule right
 * after ++*switch_count, as 5.18+ does, and their regular tracepoint reads
 * prev->state at that moment too (__trace_sched_switch_state; 5.18's
 * fa2c3254d7cf passed the state instead).  So the nvcsw-exact kind holds
 * there; the one difference from args[3] is a sleep abandoned for a
 * pending signal: __schedule has set the state back to running, so it is
 * not "blocked" (it stays voluntary), as the regular tracepoint shows it.
 * A raw tracepoint program may not read past its arguments (the attach
 * rejects it), so args[3] is never read there.  Anything missing: the
 * regular tracepoints, whose
 * fields libbcc lays out from the format files.  The kernel skips regular
 * tracepoint programs while another BPF program or a bpf() map syscall
 * runs on the CPU (those slices are counted as missed), never raw ones.
 * The test seam no_raw forces the regular path (testseam.h);
 * raw_state_from_task takes prev_state from prev on a 4-argument kernel
 * too, as on a 3-argument one (tests of that path on a newer host).
 *
 * The kernel does not run sched_switch programs for every switch: it
 * hides some tasks from tracing (on the machines this was built on, a
 * sandbox agent's threads: ftrace and bpftrace miss their switches too).
 * The task arriving after such a switch runs the end of __schedule, the
 * raw tracepoint sched_exit_tp (recent kernels): where the kernel has it, a
 * probe there starts the arriving task's slice at once (switch.bpf.c)
 * instead of at the next checkpoint.  It costs every switch a second
 * program, so it is attached only when a feature needs every slice's
 * start (the plan's whole_slices: counter and fault deltas, histograms,
 * blame, trace lines, off-CPU spans).  Otherwise the rows need only each task's on-CPU
 * time, and the kernel's own clock gives what the window lost: the task
 * leaving after an unreported switch-in is charged its sum_exec_runtime
 * since it was picked (SS_KCLOCK, switch.bpf.c).  Even then it is attached
 * only once the kernel is seen hiding a switch (path_after_interval): a
 * kernel that hides none never runs it.  The test seams (testseam.h):
 * no_exit_tp never attaches it, exit_tp always does, at start-up (where
 * the kernel has it), no_kclock leaves the kernel's clock out (tests,
 * scripts/bench-overhead.sh).
 *
 * All of that is decided in the plan (plan.c decide_path, decide_exit_tp)
 * from the kernel's facts (kfacts.c); here the plan is said with -v and
 * sched_exit_tp is loaded and attached.
 */
#include "feat_path.h"

#include <inttypes.h>
#include <stdio.h>

struct path_state {
	int exit_tp_fd; /* sched_exit_tp loaded, to attach once the kernel
			 * hides a switch (-1: none) */
};

/* Say with -v which path and clocks the plan chose, and why. */
static int path_configure(struct ss_app *app, void *st)
{
	const struct ss_plan_path *pa = &app->plan->path;
	const struct ss_kfacts *k = &app->plan->k;

	if (!app->o.verbose)
		return 0;
	if (!pa->mode.raw_sched) {
		fprintf(stderr,
			"switchstat: sched tracepoints: regular (%s); "
			"slices during other BPF activity are missed\n",
			pa->why);
		return 0;
	}
	fprintf(stderr,
		"switchstat: sched tracepoints: raw, task_struct "
		"offsets from BTF: pid %u, tgid %u, nvcsw %u, comm %u\n",
		k->task.pid, k->task.tgid, k->task.nvcsw, k->comm);
	if (pa->nargs == 3)
		fprintf(stderr,
			"switchstat: raw sched_switch %s: prev_state read "
			"from task_struct.%s (%u bytes at offset %u)\n",
			pa->state_forced
				? "taken as having 3 arguments "
				  "(SWITCHSTAT_TEST=raw_state_from_task)"
				: "has 3 arguments (Linux 5.5-5.17)",
			k->state_name, k->state_size, k->state_off);
	else
		fprintf(stderr, "switchstat: raw sched_switch has 4 "
				"arguments: prev_state from args[3]\n");
	if (!k->kclock)
		fprintf(stderr,
			"switchstat: the kernel's slice clock: not used "
			"(task_struct policy or se.sum_exec_runtime, "
			"se.prev_sum_exec_runtime not in BTF)\n");
	if (!k->exit_tp)
		fprintf(stderr, "switchstat: no raw tracepoint "
				"sched_exit_tp in BTF\n");
	fprintf(stderr, "switchstat: sched_switch as a %s raw tracepoint\n",
		pa->mode.tp_btf ? "BTF (tp_btf)" : "plain");
	fprintf(stderr, "switchstat: on-CPU time: %s\n",
		pa->task_clock ? "the kernel's clock (se.sum_exec_runtime, "
				 "as schedstat and cpu.stat)"
			       : "the sched_switch window (bpf_ktime_get_ns)");
	return 0;
}

/*
 * After every other program is loaded (the order --self-stats lists) and
 * before sched_switch is attached (core_start, after this in the
 * table): sched_exit_tp attached, so no switch goes unseen; or only
 * loaded (verified), for path_after_interval to attach.
 */
static int path_start(struct ss_app *app, void *st)
{
	const struct ss_plan_path *pa = &app->plan->path;
	struct path_state *ps = st;
	char err[SS_ERR_LEN];
	const char *fn;

	ps->exit_tp_fd = -1;
	if (!pa->mode.raw_sched)
		return 0;
	if (app->o.verbose)
		fprintf(stderr, "switchstat: unreported switches: %s\n",
			pa->exit_tp_now ? "caught at sched_exit_tp"
			: pa->exit_tp_prog
				? "found at the next switch or checkpoint "
				  "until the kernel is seen hiding one, then "
				  "caught at sched_exit_tp (attached then)"
			: pa->kclock
				? "found at the next switch or checkpoint; "
				  "the slice before, from the task's "
				  "sum_exec_runtime (no sched_exit_tp)"
				: "found at the next switch or checkpoint "
				  "(no sched_exit_tp)");
	if (!pa->exit_tp_prog)
		return 0;
	if (pa->exit_tp_now) {
		if (ss_app_attach_sched(app, "sched_exit_tp"))
			return 1;
		app->exit_tp_attached = true;
		return 0;
	}
	fn = ss_bpf_sched_fn(&app->bpf, "sched_exit_tp");
	ps->exit_tp_fd = ss_bpf_load_as_sched(&app->bpf, fn, "sched_exit_tp",
					      err, sizeof(err));
	if (ps->exit_tp_fd < 0) {
		ss_diag("%s", err);
		return 1;
	}
	return 0;
}

/*
 * After an interval is printed and checked (its --check/-v lines say
 * what it was): the first interval in which the kernel hid a switch
 * attaches the loaded sched_exit_tp program, from then on.  A failure to
 * attach is said once and leaves things as on a kernel without it (not
 * fatal: the rows stay right, the slices after hidden switches start
 * late).
 */
static int path_after_interval(struct ss_app *app, void *st)
{
	struct path_state *ps = st;
	char err[SS_ERR_LEN];

	if (app->exit_tp_attached || ps->exit_tp_fd < 0 ||
	    !app->iv.stats[SS_STAT_UNREPORTED] || ss_exiting)
		return 0;
	if (ss_bpf_attach_raw_fd(&app->bpf, ps->exit_tp_fd, "sched_exit_tp",
				 err, sizeof(err))) {
		ss_diag("%s (the slices after switches the kernel does not "
			"report start at the next switch or checkpoint)",
			err);
		ps->exit_tp_fd = -1;
		return 0;
	}
	app->exit_tp_attached = true;
	if (app->o.verbose)
		ss_diag("the kernel hid %" PRIu64
			" switches in this interval: sched_exit_tp attached",
			app->iv.stats[SS_STAT_UNREPORTED]);
	return 0;
}

const struct ss_feature ss_feat_path = {
	.name = "path",
	.state_size = sizeof(struct path_state),
	.configure = path_configure,
	.start = path_start,
	.after_interval = path_after_interval,
};

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
 * start (app->bpf.whole_slices: counter and fault deltas, histograms,
 * blame, trace lines).  Otherwise the rows need only each task's on-CPU
 * time, and the kernel's own clock gives what the window lost: the task
 * leaving after an unreported switch-in is charged its sum_exec_runtime
 * since it was picked (SS_KCLOCK, switch.bpf.c).  Even then it is attached
 * only once the kernel is seen hiding a switch (path_exit_interval): a
 * kernel that hides none never runs it.  The test seams (testseam.h):
 * no_exit_tp never attaches it, exit_tp always does, at start-up (where
 * the kernel has it), no_kclock leaves the kernel's clock out (tests,
 * scripts/bench-overhead.sh).
 */
#include "feat_path.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_offsets.h"
#include "testseam.h"
#include "tp_btf.h"
#include "vmlinux_btf.h"

/* Where the raw sched_switch's prev_state comes from. */
struct raw_state {
	int nargs; /* of the raw sched_switch: 4 (prev_state) or 3 */
	unsigned int off, size; /* 3: task_struct.@name, @size bytes */
	const char *name;
	bool forced; /* 3 on a 4-argument kernel: the test variable */
};

/*
 * The raw path's offsets from the kernel's BTF (@exit_state: of
 * task_struct.exit_state, an int), where prev_state comes from (@st), and
 * whether it has sched_exit_tp, whose first argument is is_switch
 * (@exit_tp).  Returns 0, or -1 with why not in @why.
 */
static int raw_offsets(struct ss_task_offsets *o, unsigned int *comm,
		       unsigned int *cpu, unsigned int *exit_state,
		       struct raw_state *st, bool *exit_tp,
		       unsigned int kclock[3], char *why, size_t len)
{
	static const char *const one_arg[] = { "sched_wakeup",
					       "sched_wakeup_new",
					       "sched_process_exit",
					       "sched_migrate_task" };
	const struct btf *btf = ss_vmlinux_btf();
	unsigned int size;
	int ret = -1, n;

	if (!btf) {
		snprintf(why, len, "no kernel BTF: %s", strerror(errno));
		return -1;
	}
	*exit_tp = ss_btf_tp_nargs(btf, "sched_exit_tp") >= 1;
	n = ss_btf_tp_nargs(btf, "sched_switch");
	if (n == 4 && ss_seam(SS_SEAM_RAW_STATE_FROM_TASK)) {
		n = 3; /* test: as if it were 3 (prev_state from prev) */
		st->forced = true;
	}
	st->nargs = n;
	if (n == 3) {
		/* before 5.18: prev_state from prev itself */
		n = ss_btf_task_state(btf, &st->off, &st->size, &st->name);
		if (n) {
			snprintf(why, len,
				 "raw sched_switch has 3 arguments and "
				 "task_struct has no __state or state in "
				 "BTF: %s",
				 strerror(-n));
			goto out;
		}
	} else if (n != 4) {
		snprintf(why, len,
			 "raw sched_switch has %d arguments, not 4 (Linux "
			 "5.18+) or 3 (5.5-5.17)",
			 n);
		goto out;
	}
	for (size_t i = 0; i < sizeof(one_arg) / sizeof(one_arg[0]); i++) {
		if (ss_btf_tp_nargs(btf, one_arg[i]) < 1) {
			snprintf(why, len, "no raw tracepoint %s in BTF",
				 one_arg[i]);
			goto out;
		}
	}
	n = ss_btf_task_offsets(btf, o);
	if (!n)
		n = ss_btf_member(btf, "task_struct", "comm", comm, &size);
	if (!n && size != 16)
		n = -EINVAL;
	/*
	 * task_cpu(p), the woken task's run queue (sched_wakeup's target):
	 * p->thread_info.cpu where the thread_info is in the task (x86,
	 * arm64...), else p->cpu
	 */
	if (!n) {
		unsigned int ti, ti_size;

		if (!ss_btf_member(btf, "task_struct", "thread_info", &ti,
				   &ti_size) &&
		    !ss_btf_member(btf, "thread_info", "cpu", cpu, &size))
			*cpu += ti;
		else
			n = ss_btf_member(btf, "task_struct", "cpu", cpu,
					  &size);
	}
	if (!n && size != 4)
		n = -EINVAL;
	/* EXIT_DEAD there: the thread was released (switch.bpf.c) */
	if (!n)
		n = ss_btf_member(btf, "task_struct", "exit_state", exit_state,
				  &size);
	if (!n && size != 4)
		n = -EINVAL;
	if (n) {
		snprintf(why, len, "task_struct fields not in BTF: %s",
			 strerror(-n));
		goto out;
	}
	/*
	 * The kernel's clock of a task's slice (task.bpf.h
	 * ss_current_kslice): policy, se.sum_exec_runtime,
	 * se.prev_sum_exec_runtime; all 0 when one is missing
	 */
	if (ss_btf_member(btf, "task_struct", "policy", &kclock[0], &size) ||
	    size != 4 ||
	    ss_btf_task_se_u64(btf, "sum_exec_runtime", &kclock[1]) ||
	    ss_btf_task_se_u64(btf, "prev_sum_exec_runtime", &kclock[2]))
		kclock[0] = kclock[1] = kclock[2] = 0;
	ret = 0;
out:
	return ret;
}

/*
 * Under the kernel's task clock: where its run queue keeps what that clock
 * leaves out (steal, IRQ time), for --check (switch.bpf.c ss_kexcl_step);
 * sets app->bpf.kexcl_what ("" when none is kept or reachable).  Returns
 * 1 only when the cflags are full.
 */
static int kexcl_configure(struct ss_app *app)
{
	const struct btf *btf = ss_vmlinux_btf();
	unsigned int se, secfs, rq, steal = 0, irq = 0, size;

	app->bpf.kexcl_what = "";
	if (!btf || ss_btf_member(btf, "task_struct", "se", &se, &size) ||
	    ss_btf_member(btf, "sched_entity", "cfs_rq", &secfs, &size) ||
	    size != 8 || ss_btf_member(btf, "cfs_rq", "rq", &rq, &size) ||
	    size != 8 || !rq)
		return 0;
	if (ss_btf_member(btf, "rq", "prev_steal_time_rq", &steal, &size) ||
	    size != 8)
		steal = 0;
	if (ss_btf_member(btf, "rq", "prev_irq_time", &irq, &size) || size != 8)
		irq = 0;
	if (!steal && !irq)
		return 0;
	app->bpf.kexcl_what = steal && irq ? "irq+steal"
			      : steal	   ? "steal"
					   : "irq";
	if (ss_app_define(app, "SS_SE_CFS_RQ", se + secfs) ||
	    ss_app_define(app, "SS_CFS_RQ_RQ", rq) ||
	    ss_app_define(app, "SS_RQ_STEAL", steal) ||
	    ss_app_define(app, "SS_RQ_IRQ", irq)) {
		fprintf(stderr, "switchstat: too many BPF cflags\n");
		return 1;
	}
	return 0;
}

/* Choose the path; on the raw one, hand the offsets to the probes. */
static int path_configure(struct ss_app *app, void *st)
{
	struct ss_task_offsets o;
	unsigned int comm, cpu, exit_state, kclock[3] = { 0 };
	struct raw_state rs = { 0 };
	bool exit_tp = false;
	char why[256];

	app->bpf.raw_sched = false;
	if (ss_seam(SS_SEAM_NO_RAW))
		snprintf(why, sizeof(why), "%s=%s", SS_SEAM_ENV,
			 ss_seam_name(SS_SEAM_NO_RAW));
	else if (!raw_offsets(&o, &comm, &cpu, &exit_state, &rs, &exit_tp,
			      kclock, why, sizeof(why)))
		app->bpf.raw_sched = true;
	if (!app->bpf.raw_sched) {
		if (app->o.verbose)
			fprintf(stderr,
				"switchstat: sched tracepoints: regular (%s); "
				"slices during other BPF activity are "
				"missed\n",
				why);
		return 0;
	}
	if (app->o.verbose)
		fprintf(stderr,
			"switchstat: sched tracepoints: raw, task_struct "
			"offsets from BTF: pid %u, tgid %u, nvcsw %u, "
			"comm %u\n",
			o.pid, o.tgid, o.nvcsw, comm);
	if (app->o.verbose && rs.nargs == 3)
		fprintf(stderr,
			"switchstat: raw sched_switch %s: prev_state read "
			"from task_struct.%s (%u bytes at offset %u)\n",
			rs.forced ? "taken as having 3 arguments "
				    "(SWITCHSTAT_TEST=raw_state_from_task)"
				  : "has 3 arguments (Linux 5.5-5.17)",
			rs.name, rs.size, rs.off);
	else if (app->o.verbose)
		fprintf(stderr, "switchstat: raw sched_switch has 4 "
				"arguments: prev_state from args[3]\n");
	if (app->o.verbose && !kclock[1])
		fprintf(stderr,
			"switchstat: the kernel's slice clock: not used "
			"(task_struct policy or se.sum_exec_runtime, "
			"se.prev_sum_exec_runtime not in BTF)\n");
	if (app->o.verbose && !exit_tp)
		fprintf(stderr, "switchstat: no raw tracepoint "
				"sched_exit_tp in BTF\n");
	if (ss_app_define(app, "SS_SWITCH_NARGS", rs.nargs) ||
	    (rs.nargs == 3 &&
	     (ss_app_define(app, "SS_TASK_STATE", rs.off) ||
	      ss_app_define(app, "SS_TASK_STATE_SIZE", rs.size)))) {
		fprintf(stderr, "switchstat: too many BPF cflags\n");
		return 1;
	}
	/* typed arguments, read in place (tp_btf.h) */
	app->bpf.tp_btf = ss_tp_btf_available("sched_switch");
	if (app->o.verbose)
		fprintf(stderr,
			"switchstat: sched_switch as a %s raw tracepoint\n",
			app->bpf.tp_btf ? "BTF (tp_btf)" : "plain");
	app->bpf.exit_tp_avail = exit_tp && !ss_seam(SS_SEAM_NO_EXIT_TP);
	app->bpf.kclock = kclock[1] && !ss_seam(SS_SEAM_NO_KCLOCK);
	if (app->bpf.kclock &&
	    (ss_app_define(app, "SS_KCLOCK", 1) ||
	     ss_app_define(app, "SS_TASK_POLICY", kclock[0]) ||
	     ss_app_define(app, "SS_TASK_SUM_EXEC", kclock[1]) ||
	     ss_app_define(app, "SS_TASK_PREV_SUM_EXEC", kclock[2]))) {
		fprintf(stderr, "switchstat: too many BPF cflags\n");
		return 1;
	}
	/*
	 * Rows' on-CPU time on the kernel's clock (se.sum_exec_runtime, read
	 * in place from the typed arguments: no clock read at a switch
	 * between two tasks); the test seam window_clock keeps it on the
	 * sched_switch window (tests, scripts/bench-overhead.sh)
	 */
	app->bpf.task_clock = app->bpf.kclock && app->bpf.tp_btf &&
			      !ss_seam(SS_SEAM_WINDOW_CLOCK);
	if (app->o.verbose)
		fprintf(stderr, "switchstat: on-CPU time: %s\n",
			app->bpf.task_clock
				? "the kernel's clock (se.sum_exec_runtime, "
				  "as schedstat and cpu.stat)"
				: "the sched_switch window (bpf_ktime_get_ns)");
	if (app->bpf.task_clock && kexcl_configure(app))
		return 1;
	if (ss_app_define(app, "SS_TASK_CLOCK", app->bpf.task_clock) ||
	    ss_app_define(app, "SS_TP_BTF", app->bpf.tp_btf) ||
	    ss_app_define(app, "SS_RAW_TP", 1) ||
	    ss_app_define(app, "SS_TASK_PID", o.pid) ||
	    ss_app_define(app, "SS_TASK_TGID", o.tgid) ||
	    ss_app_define(app, "SS_TASK_NVCSW", o.nvcsw) ||
	    ss_app_define(app, "SS_TASK_NIVCSW", o.nivcsw) ||
	    ss_app_define(app, "SS_TASK_COMM", comm) ||
	    ss_app_define(app, "SS_TASK_CPU", cpu) ||
	    ss_app_define(app, "SS_TASK_EXIT_STATE", exit_state)) {
		fprintf(stderr, "switchstat: too many BPF cflags\n");
		return 1;
	}
	/*
	 * task_struct.sched_info.run_delay (schedstat's second field, ns on
	 * the run queue): --hist runq times a wait whose wakeup the kernel
	 * did not report from it (probes/hist.bpf.h SS_HIST_LATE); without
	 * it such a wait is not counted
	 */
	{
		const struct btf *btf = ss_vmlinux_btf();
		unsigned int si, rd, size;

		if (btf &&
		    !ss_btf_member(btf, "task_struct", "sched_info", &si,
				   &size) &&
		    !ss_btf_member(btf, "sched_info", "run_delay", &rd,
				   &size) &&
		    size == 8 &&
		    ss_app_define(app, "SS_TASK_RUN_DELAY", si + rd)) {
			fprintf(stderr, "switchstat: too many BPF cflags\n");
			return 1;
		}
	}
	/*
	 * task_struct.flags (PF_KTHREAD): the row cache is flushed when a CPU
	 * goes idle after a kernel thread (probes/task.bpf.h
	 * ss_current_kthread); without it, at every switch to idle
	 */
	{
		const struct btf *btf = ss_vmlinux_btf();
		unsigned int off, size;

		if (btf &&
		    !ss_btf_member(btf, "task_struct", "flags", &off, &size) &&
		    size == 4 && ss_app_define(app, "SS_TASK_FLAGS", off)) {
			fprintf(stderr, "switchstat: too many BPF cflags\n");
			return 1;
		}
	}
	return 0;
}

/*
 * Whether sched_exit_tp's program is compiled: where the kernel has it and
 * a feature needs every slice's start (app->bpf.whole_slices, set by the
 * features' configure phases, so this runs after theirs: ss_feat_path_exit's
 * place in features.c), or the kernel's clock is not there to fill in (see
 * the top of the file).  Otherwise it is not (SS_EXIT_TP): 281 instructions
 * the default mode never loads.  It is loaded (verified) at start-up and
 * attached once the kernel is seen hiding a switch (path_exit_interval):
 * a kernel that hides none (any but a tracer-hiding one) never pays for a
 * second program at every __schedule.  At once with --trace (no interval
 * loop), with the test seam exit_tp (compiled and attached in any mode:
 * the bench) and with exit_tp_now (where compiled: the tests that need
 * whole slices from the first interval on).
 */
static int path_exit_configure(struct ss_app *app, void *st)
{
	bool forced = ss_seam(SS_SEAM_EXIT_TP);

	(void)st;
	app->bpf.exit_tp_prog =
		app->bpf.raw_sched && app->bpf.exit_tp_avail &&
		(app->bpf.whole_slices || !app->bpf.kclock || forced);
	app->bpf.exit_tp_now =
		app->bpf.exit_tp_prog &&
		(forced || app->o.trace || ss_seam(SS_SEAM_EXIT_TP_NOW));
	if (app->bpf.raw_sched &&
	    ss_app_define(app, "SS_EXIT_TP", app->bpf.exit_tp_prog)) {
		fprintf(stderr, "switchstat: too many BPF cflags\n");
		return 1;
	}
	return 0;
}

/*
 * sched_exit_tp before sched_switch (core_start): no switch goes unseen;
 * or only loaded, for path_exit_interval to attach.
 */
static int path_attach(struct ss_app *app, void *st)
{
	char err[SS_ERR_LEN];
	const char *fn;

	(void)st;
	if (!app->bpf.raw_sched)
		return 0;
	if (app->o.verbose)
		fprintf(stderr, "switchstat: unreported switches: %s\n",
			app->bpf.exit_tp_now ? "caught at sched_exit_tp"
			: app->bpf.exit_tp_prog
				? "found at the next switch or checkpoint "
				  "until the kernel is seen hiding one, then "
				  "caught at sched_exit_tp (attached then)"
			: app->bpf.kclock
				? "found at the next switch or checkpoint; "
				  "the slice before, from the task's "
				  "sum_exec_runtime (no sched_exit_tp)"
				: "found at the next switch or checkpoint "
				  "(no sched_exit_tp)");
	if (!app->bpf.exit_tp_prog)
		return 0;
	if (app->bpf.exit_tp_now) {
		if (ss_app_attach_sched(app, "sched_exit_tp"))
			return 1;
		app->bpf.exit_tp = true;
		return 0;
	}
	fn = ss_bpf_sched_fn(&app->bpf, "sched_exit_tp");
	app->bpf.exit_tp_fd = ss_bpf_load_as_sched(
		&app->bpf, fn, "sched_exit_tp", err, sizeof(err));
	if (app->bpf.exit_tp_fd < 0) {
		ss_diag("%s", err);
		return 1;
	}
	return 0;
}

/*
 * At an interval's end: the first interval in which the kernel hid a
 * switch attaches the loaded sched_exit_tp program, from then on (not
 * at the run's last: nothing would run after it).  A
 * failure to attach is said once and leaves things as on a kernel
 * without it (not fatal: the rows stay right, the slices after hidden
 * switches start late).
 */
static int path_exit_interval(struct ss_app *app, void *st)
{
	char err[SS_ERR_LEN];

	(void)st;
	if (!app->bpf.exit_tp_prog || app->bpf.exit_tp ||
	    app->bpf.exit_tp_fd < 0 || !app->iv.stats[SS_STAT_UNREPORTED] ||
	    app->last_interval || ss_exiting)
		return 0;
	if (ss_bpf_attach_raw_fd(&app->bpf, app->bpf.exit_tp_fd,
				 "sched_exit_tp", err, sizeof(err))) {
		ss_diag("%s (the slices after switches the kernel does not "
			"report start at the next switch or checkpoint)",
			err);
		app->bpf.exit_tp_fd = -1;
		return 0;
	}
	app->bpf.exit_tp = true;
	if (app->o.verbose)
		ss_diag("the kernel hid %" PRIu64
			" switches in this interval: sched_exit_tp attached",
			app->iv.stats[SS_STAT_UNREPORTED]);
	return 0;
}

const struct ss_feature ss_feat_path = {
	.name = "path",
	.configure = path_configure,
};

const struct ss_feature ss_feat_path_exit = {
	.name = "path_exit",
	.configure = path_exit_configure,
	.attach = path_attach,
	.on_interval = path_exit_interval,
};

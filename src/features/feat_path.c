// SPDX-License-Identifier: GPL-2.0
/*
 * feat_path.c - the tracepoint path (see feat_path.h).
 *
 * The raw path needs the kernel's BTF (/sys/kernel/btf/vmlinux), a raw
 * sched_switch with the four arguments (preempt, prev, next, prev_state;
 * Linux 5.18+, or a backport) and the task_struct fields of struct
 * ss_task_offsets; their offsets go to the probes as -D numbers
 * (probes/task.bpf.h).  Anything missing: the regular tracepoints, whose
 * fields libbcc lays out from the format files.  The kernel skips regular
 * tracepoint programs while another BPF program or a bpf() map syscall
 * runs on the CPU (those slices are counted as missed), never raw ones.
 * SWITCHSTAT_TEST_NO_RAW=1 forces the regular path (tests).
 *
 * The kernel does not run sched_switch programs for every switch: it
 * hides some tasks from tracing (on the machines this was built on, a
 * sandbox agent's threads: ftrace and bpftrace miss their switches too).
 * The task arriving after such a switch runs the end of __schedule, the
 * raw tracepoint sched_exit_tp (recent kernels): where the kernel has it, a
 * probe there starts the arriving task's slice at once (switch.bpf.c)
 * instead of at the next checkpoint.  SWITCHSTAT_TEST_NO_EXIT_TP=1 leaves
 * it out (tests, scripts/bench-overhead.sh).
 */
#include "feat_path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_offsets.h"
#include "tp_btf.h"

/*
 * The raw path's offsets from the kernel's BTF (@exit_state: of
 * task_struct.exit_state, an int), and whether it has sched_exit_tp,
 * whose first argument is is_switch (@exit_tp).  Returns 0, or -1 with
 * why not in @why.
 */
static int raw_offsets(struct ss_task_offsets *o, unsigned int *comm,
		       unsigned int *cpu, unsigned int *exit_state,
		       bool *exit_tp, char *why, size_t len)
{
	static const char *const one_arg[] = { "sched_wakeup",
					       "sched_wakeup_new",
					       "sched_process_exit",
					       "sched_migrate_task" };
	struct btf *btf = btf__load_vmlinux_btf();
	unsigned int size;
	int ret = -1, n;

	if (!btf) {
		snprintf(why, len, "no kernel BTF: %s", strerror(errno));
		return -1;
	}
	*exit_tp = ss_btf_tp_nargs(btf, "sched_exit_tp") >= 1;
	n = ss_btf_tp_nargs(btf, "sched_switch");
	if (n != 4) {
		snprintf(why, len,
			 "raw sched_switch has %d arguments, not the 4 of "
			 "Linux 5.18+",
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
	ret = 0;
out:
	btf__free(btf);
	return ret;
}

/* Choose the path; on the raw one, hand the offsets to the probes. */
static int path_configure(struct ss_app *app, void *st)
{
	const char *env = getenv("SWITCHSTAT_TEST_NO_RAW");
	struct ss_task_offsets o;
	unsigned int comm, cpu, exit_state;
	bool exit_tp = false;
	char why[256];

	app->bpf.raw_sched = false;
	if (env && !strcmp(env, "1"))
		snprintf(why, sizeof(why), "SWITCHSTAT_TEST_NO_RAW=1");
	else if (!raw_offsets(&o, &comm, &cpu, &exit_state, &exit_tp, why,
			      sizeof(why)))
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
	/* typed arguments, read in place (tp_btf.h) */
	app->bpf.tp_btf = ss_tp_btf_available("sched_switch");
	if (app->o.verbose)
		fprintf(stderr,
			"switchstat: sched_switch as a %s raw tracepoint\n",
			app->bpf.tp_btf ? "BTF (tp_btf)" : "plain");
	env = getenv("SWITCHSTAT_TEST_NO_EXIT_TP");
	app->bpf.exit_tp = exit_tp && !(env && !strcmp(env, "1"));
	if (app->o.verbose)
		fprintf(stderr, "switchstat: unreported switches: %s\n",
			app->bpf.exit_tp ? "caught at sched_exit_tp"
					 : "found at the next switch or "
					   "checkpoint (no sched_exit_tp)");
	if (ss_app_define(app, "SS_TP_BTF", app->bpf.tp_btf) ||
	    ss_app_define(app, "SS_EXIT_TP", app->bpf.exit_tp) ||
	    ss_app_define(app, "SS_RAW_TP", 1) ||
	    ss_app_define(app, "SS_TASK_PID", o.pid) ||
	    ss_app_define(app, "SS_TASK_TGID", o.tgid) ||
	    ss_app_define(app, "SS_TASK_NVCSW", o.nvcsw) ||
	    ss_app_define(app, "SS_TASK_COMM", comm) ||
	    ss_app_define(app, "SS_TASK_CPU", cpu) ||
	    ss_app_define(app, "SS_TASK_EXIT_STATE", exit_state)) {
		fprintf(stderr, "switchstat: too many BPF cflags\n");
		return 1;
	}
	return 0;
}

/* sched_exit_tp before sched_switch (core_start): no switch goes unseen */
static int path_attach(struct ss_app *app, void *st)
{
	return app->bpf.exit_tp && ss_app_attach_sched(app, "sched_exit_tp");
}

const struct ss_feature ss_feat_path = {
	.name = "path",
	.configure = path_configure,
	.attach = path_attach,
};

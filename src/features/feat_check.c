// SPDX-License-Identifier: GPL-2.0
/*
 * feat_check.c - after each interval's other output: the --check closure
 * line (tasks + filtered + idle time against CPUs x interval: the CPUs'
 * own spans between their interval edges where known, else the CPU time
 * online once a CPU has gone offline, else the interval's length) and, with
 * -v, the interval's row count and probe statistics, both on stderr.
 */
#include <inttypes.h>

#include "feat_check.h"

static void print_check(struct ss_app *app)
{
	const struct ss_interval *iv = &app->iv;
	uint64_t rows = ss_rows_oncpu_total(iv);
	uint64_t idle = iv->stats[SS_STAT_IDLE_NS];
	uint64_t other = iv->stats[SS_STAT_FILTERED_NS];
	uint64_t missed = iv->stats[SS_STAT_MISSED_NS];
	/* what the task clock leaves out while tasks run (the idle
	 * slices, on the window, have their part of it) */
	uint64_t kexcl =
		iv->stats[SS_STAT_KEXCL_NS] > iv->stats[SS_STAT_KEXCL_IDLE_NS]
			? iv->stats[SS_STAT_KEXCL_NS] -
				  iv->stats[SS_STAT_KEXCL_IDLE_NS]
			: 0;
	uint64_t len = iv->interval_ns;
	uint64_t want = len * app->ncpus_online;
	uint64_t got = rows + idle + other + missed + kexcl;

	/* since a CPU went offline: the CPU time online, from feat_hotplug */
	if (app->hotplug_seen && app->iv_online_ns)
		want = app->iv_online_ns;
	/*
	 * Every CPU ran this edge and the one before: its data covers its own
	 * span between them, which an IPI delayed on a busy host (or a vCPU
	 * not running) makes differ from the interval's; the line shows
	 * their mean
	 */
	if (iv->edge_span_ns && app->ncpus_possible) {
		want = iv->edge_span_ns;
		len = want / app->ncpus_possible;
	}
	if (app->o.idle) /* idle rows are already in rows */
		got -= idle;
	ss_diag_raw("check: tasks %.1f ms + filtered %.1f ms + idle %.1f ms",
		    (rows - (app->o.idle ? idle : 0)) / 1e6, other / 1e6,
		    idle / 1e6);
	/* slices after a switch nobody saw: CPU time of an unknown owner */
	if (missed)
		ss_diag_raw(" + missed %.1f ms", missed / 1e6);
	/* the kernel's task clock leaves these out of tasks' time */
	if (app->plan->path.kexcl)
		ss_diag_raw(" + %s %.1f ms", app->plan->path.kexcl_what,
			    kexcl / 1e6);
	ss_diag_raw(" = ");
	if (app->hotplug_seen)
		ss_diag_raw("%.1f ms of %d CPUs x %.1f ms less %.1f ms offline",
			    got / 1e6, app->ncpus_possible, len / 1e6,
			    ((double)len * app->ncpus_possible - (double)want) /
				    1e6);
	else
		ss_diag_raw("%.1f ms of %d CPUs x %.1f ms", got / 1e6,
			    app->ncpus_online, len / 1e6);
	ss_diag_raw(" (%.1f%%)\n", want ? 100.0 * got / want : 0.0);
}

static int check_interval(struct ss_app *app, void *st)
{
	const struct ss_plan_path *pa = &app->plan->path;

	if (app->o.check)
		print_check(app);
	if (app->o.verbose)
		ss_diag_raw(
			"switchstat: %zu rows, %" PRIu64 " switches, skipped "
			"slices: %" PRIu64 " first, %" PRIu64 " missed switch, "
			"%" PRIu64 " clock; %" PRIu64 " dropped; counter "
			"deltas skipped: %" PRIu64 " first, %" PRIu64
			" backwards, %" PRIu64 " read errors",
			app->iv.n, app->iv.stats[SS_STAT_SWITCHES],
			app->iv.stats[SS_STAT_FIRST_SLICE],
			app->iv.stats[SS_STAT_MISSED],
			app->iv.stats[SS_STAT_ANOMALY],
			app->iv.stats[SS_STAT_DROPS],
			app->iv.stats[SS_STAT_CTR_FIRST],
			app->iv.stats[SS_STAT_CTR_BACKWARDS],
			app->iv.stats[SS_STAT_CTR_ERROR]);
	if (app->o.verbose && app->o.memory)
		ss_diag_raw("; fault deltas skipped: %" PRIu64,
			    app->iv.stats[SS_STAT_FLT_SKIPPED]);
	if (app->o.verbose)
		ss_diag_raw("; %" PRIu64 " thread exits (not counted)",
			    app->iv.stats[SS_STAT_EXIT_SWITCHES]);
	if (app->o.verbose && pa->mode.raw_sched)
		ss_diag_raw(", %" PRIu64 " of them a reaped leader's last",
			    app->iv.stats[SS_STAT_REAP_RACE]);
	if (app->o.verbose && pa->mode.raw_sched)
		ss_diag_raw("; %" PRIu64 " switches not reported by the kernel "
			    "(%s)",
			    app->iv.stats[SS_STAT_UNREPORTED],
			    app->exit_tp_attached
				    ? "caught at sched_exit_tp"
				    : "found late: no sched_exit_tp");
	if (app->o.verbose && pa->mode.raw_sched && !app->exit_tp_attached &&
	    pa->kclock)
		ss_diag_raw(", %" PRIu64 " slices after them charged %.3f ms "
			    "from the kernel's clock",
			    app->iv.stats[SS_STAT_RECOVERED],
			    app->iv.stats[SS_STAT_RECOVERED_NS] / 1e6);
	if (app->o.verbose && pa->mode.raw_sched)
		ss_diag_raw("; %" PRIu64 " run-queue waits whose wakeup the "
			    "kernel did not report (timed by run_delay)",
			    app->iv.stats[SS_STAT_RUNQ_LATE]);
	if (app->o.verbose && pa->mode.raw_sched)
		ss_diag_raw("; BTF offsets checked %" PRIu64 ", wrong %" PRIu64,
			    app->iv.stats[SS_STAT_BTF_OK],
			    app->iv.stats[SS_STAT_BTF_BAD]);
	if (app->o.verbose && app->hotplug_seen)
		ss_diag_raw("; CPU hotplug: %u events, %" PRIu64
			    " slices skipped (spanning offline time)",
			    app->iv_hotplug_events,
			    app->iv.stats[SS_STAT_HOTPLUG]);
	if (app->o.verbose)
		ss_diag_raw("\n");
	return 0;
}

const struct ss_feature ss_feat_check = {
	.name = "check",
	.on_interval = check_interval,
};

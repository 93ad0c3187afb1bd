// SPDX-License-Identifier: GPL-2.0
/*
 * feat_core.c - the switch accounting every run has: the collector of the
 * accumulator map (its size and settings from the plan, plan.h),
 * sched_switch (attached last, once all it feeds is in place) and, each
 * interval, the rows and the table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/libbpf.h>

#include "collect.h"
#include "feat_core.h"
#include "probes/shared.h"

struct core_state {
	struct ss_collector col;
	bool col_ready;
	uint64_t start_ns; /* CLOCK_MONOTONIC of the last collect */
};

/*
 * -p/-t lists: their ids into the probe's filter map @name (the keys are
 * what matters), before sched_switch is attached.  0, or 1 with a message.
 */
static int fill_filter(struct ss_app *app, const char *name,
		       const uint32_t *ids, uint32_t n)
{
	int fd = ss_bpf_map_fd(&app->bpf, name);
	__u8 one = 1;

	for (uint32_t i = 0; i < n; i++) {
		if (fd < 0 ||
		    bpf_update_elem(fd, (void *)&ids[i], &one, BPF_ANY)) {
			ss_diag("cannot fill the %s filter: %s", name,
				strerror(errno));
			return 1;
		}
	}
	return 0;
}

/*
 * A single -p / -t: its ids into filter_ids[0] (struct ss_filter_ids),
 * before sched_switch is attached.  0, or 1 with a message.
 */
static int fill_filter_ids(struct ss_app *app)
{
	int fd = ss_bpf_map_fd(&app->bpf, "filter_ids");
	struct ss_filter_ids ids = { .tgid = app->o.pid, .tid = app->o.tid };
	__u32 zero = 0;

	if (fd < 0 || bpf_update_elem(fd, &zero, &ids, BPF_ANY)) {
		ss_diag("cannot fill the filter_ids filter: %s",
			fd < 0 ? "no such map" : strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * The switch program's stages (probes/switch.bpf.c, enum ss_stage): each
 * one compiled in, loaded as sched_switch's type, at its index of
 * sw_stages, before sched_switch is attached.  0, or 1 with a message.
 */
static int fill_stages(struct ss_app *app)
{
	static const char *const fns[] = { "ss_stage_hist", "ss_stage_blame",
					   "ss_stage_offcpu" };
	char err[SS_ERR_LEN];
	int map = -1;

	for (__u32 i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		int fd;

		if (!ss_bpf_has_func(&app->bpf, fns[i]))
			continue;
		if (map < 0)
			map = ss_bpf_map_fd(&app->bpf, "sw_stages");
		fd = ss_bpf_load_as_sched(&app->bpf, fns[i], "sched_switch",
					  err, sizeof(err));
		if (fd < 0) {
			ss_diag("%s", err);
			return 1;
		}
		if (map < 0 || bpf_update_elem(map, &i, &fd, 0)) {
			ss_diag("cannot store %s in BPF map sw_stages: %s",
				fns[i],
				map < 0 ? "no such map" : strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int core_attach(struct ss_app *app, void *st)
{
	struct core_state *cs = st;
	int accum = ss_bpf_map_fd(&app->bpf, "accum");
	int stats = ss_bpf_map_fd(&app->bpf, "cpu_state"); /* ss_cpu.stats */

	if (accum < 0 || stats < 0) {
		ss_diag("BPF maps missing");
		return 1;
	}
	if ((app->o.npids > 1 || app->o.ntids > 1) &&
	    (fill_filter(app, "filter_tgids", app->o.pids, app->o.npids) ||
	     fill_filter(app, "filter_tids", app->o.tids, app->o.ntids)))
		return 1;
	if (app->o.npids <= 1 && app->o.ntids <= 1 &&
	    (app->o.pid || app->o.tid) && fill_filter_ids(app))
		return 1;
	if (fill_stages(app))
		return 1;
	cs->col_ready = true;
	if (ss_collect_init(&cs->col, accum, stats, app->ncpus_possible,
			    app->plan->rows.map_entries)) {
		ss_diag("cannot read BPF maps: %s", strerror(errno));
		return 1;
	}
	/* two maps, one per interval parity (SS_ACCUM_GENS): the other */
	if (app->plan->rows.accum_gens) {
		int b = ss_bpf_map_fd(&app->bpf, "accum_b");

		if (b < 0) {
			ss_diag("BPF map accum_b missing");
			return 1;
		}
		ss_collect_second(&cs->col, b);
	}
	return 0;
}

/* sched_switch last: everything it feeds is in place */
static int core_start(struct ss_app *app, void *st)
{
	char err[SS_ERR_LEN];

	if (ss_bpf_attach_sched(&app->bpf, "sched_switch", err, sizeof(err))) {
		ss_diag("%s", err);
		return 1;
	}
	return 0;
}

/*
 * The probes have run since they were attached: throw that away, so the
 * first interval, like every other, runs from one collect to the next and
 * never holds time from before it began.
 */
static int core_reset(struct ss_app *app, void *st)
{
	struct core_state *cs = st;

	ss_rows_reset(&app->iv);
	cs->start_ns = ss_clock_ns(CLOCK_MONOTONIC);
	if (app->edge)
		ss_collect_flipped(&cs->col, app->edge(app, app->edge_st));
	if (ss_collect(&cs->col, &app->iv) < 0)
		return 1;
	if (app->rows_extra && app->rows_extra(app, app->rows_extra_st))
		return 1;
	return 0;
}

/* Add each CPU's idle task as a row (--idle): pid 0, comm swapper/N. */
static void add_idle_rows(struct ss_app *app)
{
	for (int cpu = 0; cpu < app->iv.ncpus_possible; cpu++) {
		struct ss_key key = { .tgid = 0, .tid = 0 };
		struct ss_val val = { 0 };

		if (!app->iv.idle_ns[cpu])
			continue;
		snprintf(val.comm, sizeof(val.comm), "swapper/%u",
			 (unsigned int)cpu & 0xffff);
		val.oncpu_ns = app->iv.idle_ns[cpu];
		ss_rows_push(&app->iv, &key, &val);
	}
}

/*
 * Collect and print one interval.  start_ns is the previous interval's
 * edge (the start of this interval's data); it is advanced to this edge,
 * taken just before the probes end every CPU's slice there (app->edge),
 * so the interval's length and end time (the CSV/JSON time) are those of
 * its data, however long the collect and printing take.
 */
static int core_interval(struct ss_app *app, void *st)
{
	struct core_state *cs = st;
	uint64_t now;
	int n;

	ss_rows_reset(&app->iv);
	now = ss_clock_ns(CLOCK_MONOTONIC);
	app->iv.end_realtime_ns = ss_clock_ns(CLOCK_REALTIME);
	/* every CPU's slice so far, idle too, in this one; rows charged from
	 * here on go to the other map */
	if (app->edge)
		ss_collect_flipped(&cs->col, app->edge(app, app->edge_st));
	n = ss_collect(&cs->col, &app->iv);
	if (n < 0) {
		ss_diag("reading BPF maps: %s", strerror(-n));
		return 1;
	}
	if (app->rows_extra && app->rows_extra(app, app->rows_extra_st))
		return 1;
	app->iv.interval_ns = now - cs->start_ns;
	cs->start_ns = now;
	if (app->o.idle)
		add_idle_rows(app);
	if (app->o.per_cgroup)
		ss_rows_merge_by_cgroup(&app->iv);
	/* multiplexed counters: scaled once per row, over all its slices */
	ss_rows_scale_counters(&app->iv, app->info.nr_counters,
			       app->info.ctr_timed);
	ss_rows_sort(&app->iv, app->o.sort);
	/* --top draws the table itself (feat_top); CSV/JSON still print */
	/* -f: the folded stacks only (feat_stacks) */
	if (!app->o.hist_only && !app->o.quiet && !app->o.folded &&
	    !(app->o.top_view && app->fmt == SS_FMT_TABLE))
		ss_out_interval(&app->out, app->f, &app->iv);
	return 0;
}

static void core_close(struct ss_app *app, void *st)
{
	struct core_state *cs = st;

	if (cs->col_ready)
		ss_collect_free(&cs->col);
	cs->col_ready = false;
}

const struct ss_feature ss_feat_core = {
	.name = "core",
	.state_size = sizeof(struct core_state),
	.attach = core_attach,
	.start = core_start,
	.reset = core_reset,
	.on_interval = core_interval,
	.close = core_close,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * feat_hist.c - log2 histograms (--hist oncpu,offcpu,runq).
 *
 * Histograms (probes/hist.bpf.h): one per kind is kept as cumulative
 * per-CPU counts in hist_cpu, summed and diffed here each interval; per
 * process, thread or cgroup (-P/-L/-G) they are in the `hist` map, drained
 * (read and deleted) each interval.  With -G or --listen the map's key
 * also holds the cgroup (the exporter labels histograms by it); the
 * records are then summed as they are shown (ss_histmap_merge).
 * src/output/histmap.c prints them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/libbpf.h>

#include "feat_hist.h"
#include "histkind.h"
#include "histmap.h"
#include "map_drain.h"

struct hist_state {
	struct ss_map_drain map; /* hist (-P/-L) */
	int cpu_fd; /* hist_cpu (one histogram per kind) */
	uint32_t entries;
	int ncpus; /* possible CPUs: values per hist_cpu lookup */
	struct ss_hist_cpu *cpu_buf;
	uint64_t prev[SS_HK_MAX][SS_HIST_SLOTS]; /* summed slots last time */
	/*
	 * how the probes key the hist map (SS_HIST_PER; fmt.per is how they
	 * are shown): --listen without -P/-L keeps one per cgroup, for the
	 * exporter's cgroup label, and the table shows their sum
	 */
	int collect_per;
	bool by_cgroup; /* SS_HIST_CGROUP: the key holds the cgroup */
	struct ss_hist_rec *recs; /* as drained (the exporter's) */
	struct ss_hist_rec *shown; /* merged as fmt.per shows them */
	bool ready; /* attached: maps and buffers in place */
	struct ss_emit e; /* the report's stream and format */
	struct ss_hist_fmt fmt;
};

static bool waits_on(const struct ss_opts *o)
{
	return o->hist & (SS_HIST_OFFCPU | SS_HIST_RUNQ);
}

/* The plan's histograms (plan.c decide_hist): how they are kept, shown. */
static int hist_configure(struct ss_app *app, void *st)
{
	struct hist_state *hs = st;
	const struct ss_opts *o = &app->o;
	const struct ss_plan_hist *h = &app->plan->hist;

	if (!h->kinds)
		return 0;
	hs->fmt.per = h->shown_per;
	hs->by_cgroup = h->by_cgroup;
	hs->collect_per = h->per;
	hs->fmt.ms = o->milliseconds;
	hs->fmt.top = o->top;
	hs->fmt.alone = o->hist_only;
	hs->fmt.timestamp = o->hist_only && o->timestamp;
	ss_emit_init(&hs->e, app->f, app->fmt);
	hs->entries = h->entries;
	return 0;
}

static int hist_attach(struct ss_app *app, void *st)
{
	struct hist_state *hs = st;
	const struct ss_opts *o = &app->o;

	if (o->hist) {
		bool per = hs->collect_per;

		hs->ncpus = app->ncpus_possible;
		hs->map.fd = per ? ss_bpf_map_fd(&app->bpf, "hist") : -1;
		hs->map.key_size = sizeof(struct ss_hist_key);
		hs->map.val_size = sizeof(struct ss_hist_val);
		hs->map.cap = hs->entries;
		hs->cpu_fd = per ? -1 : ss_bpf_map_fd(&app->bpf, "hist_cpu");
		hs->map.keys = calloc(hs->entries, sizeof(struct ss_hist_key));
		hs->map.vals = calloc(hs->entries, sizeof(struct ss_hist_val));
		hs->recs = calloc(hs->entries, sizeof(*hs->recs));
		hs->shown = calloc(hs->entries, sizeof(*hs->shown));
		hs->cpu_buf =
			per ? NULL : calloc(hs->ncpus, sizeof(*hs->cpu_buf));
		if ((per ? hs->map.fd : hs->cpu_fd) < 0 || !hs->map.keys ||
		    !hs->map.vals || !hs->recs || !hs->shown ||
		    (!per && !hs->cpu_buf)) {
			ss_diag("histogram map missing");
			return 1;
		}
		hs->ready = true;
	}
	if (waits_on(o) && ss_app_attach_sched(app, "sched_process_exit"))
		return 1;
	if ((o->hist & SS_HIST_RUNQ) &&
	    (ss_app_attach_sched(app, "sched_wakeup") ||
	     ss_app_attach_sched(app, "sched_wakeup_new")))
		return 1;
	return 0;
}

/*
 * Per process or thread: read and delete the hist map, at most entries
 * histograms (the rest stays for the next interval).  Returns the records
 * in hs->recs, or -errno.
 */
static int drain(struct hist_state *hs)
{
	const struct ss_hist_key *keys = hs->map.keys;
	const struct ss_hist_val *vals = hs->map.vals;
	int n = ss_map_drain(&hs->map);

	for (int i = 0; i < n; i++) {
		hs->recs[i].key = keys[i];
		hs->recs[i].val = vals[i];
	}
	return n;
}

/*
 * One histogram per kind: sum this interval's slot counts over CPUs (each
 * CPU's hist_cpu entry is cumulative) into one record per enabled kind.
 */
static int read_global(struct hist_state *hs, const struct ss_opts *o)
{
	/* a kind's option bit is 1 << its id (histkind.c): same mask */
	unsigned int kinds = o->hist;
	__u32 zero = 0;

	if (bpf_lookup_elem(hs->cpu_fd, &zero, hs->cpu_buf))
		return -errno;
	return ss_hist_cpu_delta(hs->cpu_buf, hs->ncpus, hs->prev, kinds,
				 hs->recs);
}

/* After the interval's table: this interval's histograms. */
static int hist_interval(struct ss_app *app, void *st)
{
	struct hist_state *hs = st;
	const struct ss_opts *o = &app->o;
	int n;

	if (!o->hist || !hs->ready)
		return 0;
	n = hs->collect_per ? drain(hs) : read_global(hs, o);
	if (n < 0) {
		ss_diag("reading the histogram map: %s", strerror(-n));
		return 0;
	}
	ss_histmap_sort(hs->recs, n);
	app->hist.raw = hs->recs;
	app->hist.raw_n = n;
	app->hist.by_cgroup = hs->by_cgroup;
	/* as shown: the probes' finer keys summed */
	memcpy(hs->shown, hs->recs, n * sizeof(*hs->recs));
	n = ss_histmap_merge(hs->shown, n, hs->fmt.per);
	app->hist.recs = hs->shown;
	app->hist.n = n;
	app->hist.ms = hs->fmt.ms;
	hs->fmt.time_s = (double)app->iv.end_realtime_ns / 1e9;
	if (o->quiet)
		return 0; /* for the exporter only (app->hist) */
	if (o->top_view && app->fmt == SS_FMT_TABLE)
		return 0; /* the view's r pane draws them (app->hist) */
	hs->fmt.realtime_ns = app->iv.end_realtime_ns;
	hs->fmt.cg = app->info.cg; /* feat_mem's cgroup names */
	hs->e.f = app->f;
	ss_histmap_print(&hs->e, hs->shown, n, &hs->fmt);
	fflush(app->f);
	return 0;
}

/* Discard what the histograms hold so far (start of the interval loop). */
static int hist_reset(struct ss_app *app, void *st)
{
	struct hist_state *hs = st;

	if (!app->o.hist || !hs->ready)
		return 0;
	if (hs->collect_per)
		drain(hs);
	else
		read_global(hs, &app->o);
	return 0;
}

static void hist_close(struct ss_app *app, void *st)
{
	struct hist_state *hs = st;

	app->hist.recs = NULL;
	app->hist.n = 0;
	app->hist.raw = NULL;
	app->hist.raw_n = 0;
	free(hs->shown);
	hs->shown = NULL;
	free(hs->map.keys);
	free(hs->map.vals);
	free(hs->recs);
	free(hs->cpu_buf);
	hs->cpu_buf = NULL;
	hs->map.keys = NULL;
	hs->map.vals = NULL;
	hs->recs = NULL;
	hs->ready = false;
}

const struct ss_feature ss_feat_hist = {
	.name = "hist",
	.state_size = sizeof(struct hist_state),
	.configure = hist_configure,
	.attach = hist_attach,
	.reset = hist_reset,
	.on_interval = hist_interval,
	.close = hist_close,
};

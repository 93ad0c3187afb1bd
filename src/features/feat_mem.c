// SPDX-License-Identifier: GPL-2.0
/*
 * feat_mem.c - cgroups and memory events.
 *
 * Cgroups: the id -> path cache behind the CGROUP column (-G, -v, CSV,
 * JSON).  The --cgroup PATH filter is its own feature (feat_cgfilter.c).
 *
 * Memory events (-M): page faults, pages allocated and direct reclaim
 * (count and time).  Faults come from the page-faults-min and -maj software
 * perf events, opened here on every online CPU and read by the probe at
 * each switch (probes/mem.bpf.h): the kernel's own minflt + majflt, user-
 * and kernel-mode, on any architecture.  The others each come from a
 * tracepoint; a tracepoint or event the kernel lacks is left out: its
 * column prints n/a and -v says why.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/libbpf.h>

#include "cgroup.h"
#include "cpu_events.h"
#include "cpus.h"
#include "feat_mem.h"
#include "tracefs.h"

/*
 * One memory event: a tracepoint, or a begin/end pair (tp[1] set), compiled
 * in with -D`macro`=1, feeding column info.mem_na[col].
 */
struct mem_event {
	const char *macro;
	int col;
	const char *cat;
	const char *tp[2];
	const char *fn[2]; /* TRACEPOINT_PROBE function names */
};

static const struct mem_event mem_events[] = {
	{ "SS_MEM_PGALLOC",
	  1,
	  "kmem",
	  { "mm_page_alloc" },
	  { "tracepoint__kmem__mm_page_alloc" } },
	{ "SS_MEM_RECLAIM",
	  2,
	  "vmscan",
	  { "mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end" },
	  { "tracepoint__vmscan__mm_vmscan_direct_reclaim_begin",
	    "tracepoint__vmscan__mm_vmscan_direct_reclaim_end" } },
	{ "SS_MEM_MEMCG_RECLAIM",
	  2,
	  "vmscan",
	  { "mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end" },
	  { "tracepoint__vmscan__mm_vmscan_memcg_reclaim_begin",
	    "tracepoint__vmscan__mm_vmscan_memcg_reclaim_end" } },
};

#define MEM_NEVENTS (sizeof(mem_events) / sizeof(mem_events[0]))

struct mem_state {
	struct ss_cgroup_cache
		*cg; /* names for output; NULL without cgroup v2 */
	bool on[MEM_NEVENTS]; /* event compiled in */
	bool need_exit; /* reclaim starts to drop at thread exit */
	/* -M faults: page-faults-min and -maj on every CPU (flt_min, flt_maj) */
	struct ss_cpu_events flt[2];
	bool faults_on;
};

static const char *const flt_map[2] = { "flt_min", "flt_maj" };

/*
 * Open the fault events on every online CPU.  Returns true when both are
 * open; else the FAULTS column prints n/a and -v says why.
 */
static bool faults_open(struct ss_app *app, struct mem_state *mem)
{
	static const unsigned long long config[2] = {
		PERF_COUNT_SW_PAGE_FAULTS_MIN,
		PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	};
	int ncpus = app->ncpus_possible;
	bool *online = calloc(ncpus, sizeof(*online));
	int n = -ENOMEM;

	if (online) {
		if (ss_online_cpus(online, ncpus)) /* unknown: try all */
			for (int c = 0; c < ncpus; c++)
				online[c] = true;
		for (int i = 0; i < 2; i++) {
			struct perf_event_attr attr = {
				.type = PERF_TYPE_SOFTWARE,
				.size = sizeof(attr),
				.config = config[i],
			};

			n = ss_cpu_events_open(&mem->flt[i], &attr, ncpus,
					       online);
			if (n <= 0)
				break;
		}
	}
	free(online);
	if (n > 0)
		return true;
	ss_cpu_events_close(&mem->flt[0]);
	ss_cpu_events_close(&mem->flt[1]);
	if (app->o.verbose)
		fprintf(stderr,
			"switchstat: page-faults-min/-maj perf events: %s: "
			"faults left out\n",
			strerror(n ? -n : ENODEV));
	return false;
}

/* Does the kernel have every tracepoint of e? */
static bool event_exists(const struct mem_event *e)
{
	for (int i = 0; i < 2 && e->tp[i]; i++)
		if (!ss_tracepoint_exists(e->cat, e->tp[i]))
			return false;
	return true;
}

/* Choose the memory events the kernel has; others become n/a columns. */
static int events_configure(struct ss_app *app, struct mem_state *mem)
{
	bool col_on[3] = { false };

	mem->faults_on = faults_open(app, mem);
	if (mem->faults_on) {
		col_on[0] = true;
		app->bpf.whole_slices = true; /* per-slice fault deltas */
		if (ss_app_define(app, "SS_MEM_FAULTS", 1) ||
		    ss_app_define(app, "SS_MEM_NR_CPUS", app->ncpus_possible))
			return 1;
	}
	for (size_t i = 0; i < MEM_NEVENTS; i++) {
		const struct mem_event *e = &mem_events[i];

		mem->on[i] = event_exists(e);
		if (!mem->on[i]) {
			if (app->o.verbose)
				fprintf(stderr,
					"switchstat: no tracepoint %s:%s in "
					"this kernel: left out\n",
					e->cat, e->tp[0]);
			continue;
		}
		col_on[e->col] = true;
		if (ss_app_define(app, e->macro, 1))
			return 1;
		if (e->col == 2)
			mem->need_exit = true;
	}
	for (int c = 0; c < 3; c++)
		app->info.mem_na[c] = !col_on[c];
	if (!mem->need_exit)
		return 0;
	return ss_app_define(app, "SS_NEED_EXIT", 1) ? 1 : 0;
}

/* The id -> path cache for the CGROUP column; without it ids print. */
static void names_configure(struct ss_app *app, struct mem_state *mem,
			    const char *mount)
{
	int ret;

	mem->cg = calloc(1, sizeof(*mem->cg));
	if (!mem->cg)
		return;
	ret = ss_cgroup_cache_init(mem->cg, mount);
	if (ret && app->o.verbose)
		fprintf(stderr, "switchstat: reading cgroups under %s: %s\n",
			mount, strerror(-ret));
	if (app->o.verbose) /* which subtrees have no names, now and later */
		ss_cgroup_cache_set_diag(mem->cg, stderr);
	app->info.cg = mem->cg;
}

/* Cgroup names and the memory events' cflags. */
static int mem_configure(struct ss_app *app, void *st)
{
	struct mem_state *mem = st;
	const struct ss_opts *o = &app->o;
	bool names = o->per_cgroup || o->verbose || app->fmt != SS_FMT_TABLE;
	char mount[PATH_MAX];
	int ret;

	if (names) {
		ret = ss_cgroup_v2_mount(mount, sizeof(mount));
		if (ret && (o->per_cgroup || o->verbose))
			fprintf(stderr,
				"switchstat: no cgroup v2 mount (%s): "
				"cgroups shown by id\n",
				strerror(-ret));
		if (!ret)
			names_configure(app, mem, mount);
	}
	return o->memory ? events_configure(app, mem) : 0;
}

static int mem_attach(struct ss_app *app, void *st)
{
	struct mem_state *mem = st;
	char err[SS_ERR_LEN];

	for (int i = 0; mem->faults_on && i < 2; i++) {
		int ret;

		mem->flt[i].map_fd = ss_bpf_map_fd(&app->bpf, flt_map[i]);
		ret = mem->flt[i].map_fd < 0
			      ? -ENOENT
			      : ss_cpu_events_attach(&mem->flt[i]);
		if (ret) {
			fprintf(stderr,
				"switchstat: cannot store the fault events in "
				"BPF map %s: %s\n",
				flt_map[i], strerror(-ret));
			return 1;
		}
	}
	if (mem->need_exit && ss_app_attach_sched(app, "sched_process_exit"))
		return 1;
	for (size_t i = 0; i < MEM_NEVENTS; i++) {
		const struct mem_event *e = &mem_events[i];

		if (!mem->on[i])
			continue;
		for (int j = 0; j < 2 && e->tp[j]; j++) {
			if (ss_bpf_attach_tp(&app->bpf, e->fn[j], e->cat,
					     e->tp[j], err, sizeof(err))) {
				fprintf(stderr, "switchstat: %s\n", err);
				return 1;
			}
		}
	}
	return 0;
}

/* CPU cpu is back online: new fault events there (the old ones stay off). */
static int mem_cpu_up(struct ss_app *app, void *st, int cpu)
{
	struct mem_state *mem = st;
	int ret = 0;

	for (int i = 0; mem->faults_on && i < 2; i++) {
		int r = ss_cpu_events_reopen(&mem->flt[i], cpu);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

static void mem_close(struct ss_app *app, void *st)
{
	struct mem_state *mem = st;

	if (mem->cg) {
		ss_cgroup_cache_free(mem->cg);
		free(mem->cg);
	}
	if (app->info.cg == mem->cg)
		app->info.cg = NULL;
	mem->cg = NULL;
	ss_cpu_events_close(&mem->flt[0]);
	ss_cpu_events_close(&mem->flt[1]);
	mem->faults_on = false;
}

const struct ss_feature ss_feat_mem = {
	.name = "mem",
	.state_size = sizeof(struct mem_state),
	.configure = mem_configure,
	.attach = mem_attach,
	.close = mem_close,
	.cpu_up = mem_cpu_up,
};

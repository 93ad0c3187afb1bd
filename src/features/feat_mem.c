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
#include "memkind.h"

struct mem_state {
	struct ss_cgroup_cache
		*cg; /* names for output; NULL without cgroup v2 */
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

/*
 * -M: the fault events, opened on every online CPU (the plan compiles
 * their deltas in where they opened).  0.
 */
static int mem_open(struct ss_app *app, void *st)
{
	struct mem_state *mem = st;

	if (app->o.memory)
		mem->faults_on = faults_open(app, mem);
	app->facts.opened.faults = mem->faults_on;
	return 0;
}

/* -M: the events the plan compiled in; the others are n/a columns. */
static void events_configure(struct ss_app *app)
{
	const struct ss_plan_mem *m = &app->plan->mem;

	for (int i = 0; i < SS_MEM_NKINDS; i++) {
		if (!m->kind[i] && app->o.verbose)
			fprintf(stderr,
				"switchstat: no tracepoint %s:%s in this "
				"kernel: left out\n",
				ss_mem_kinds[i].cat, ss_mem_kinds[i].tp[0]);
	}
	for (int c = 0; c < 3; c++)
		app->info.mem_na[c] = m->na[c];
}

/* Whether a reclaim event is on: its begin must be dropped at exit. */
static bool reclaim_on(const struct ss_plan_mem *m)
{
	for (int i = 0; i < SS_MEM_NKINDS; i++)
		if (m->kind[i] && ss_mem_kinds[i].col == 2)
			return true;
	return false;
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

/* Cgroup names, and which memory events the plan compiled in. */
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
	if (o->memory)
		events_configure(app);
	return 0;
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
	if (reclaim_on(&app->plan->mem) &&
	    ss_app_attach_sched(app, "sched_process_exit"))
		return 1;
	for (int i = 0; i < SS_MEM_NKINDS; i++) {
		const struct ss_mem_kind_def *e = &ss_mem_kinds[i];

		if (!app->plan->mem.kind[i])
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
	.open = mem_open,
	.configure = mem_configure,
	.attach = mem_attach,
	.close = mem_close,
	.cpu_up = mem_cpu_up,
};

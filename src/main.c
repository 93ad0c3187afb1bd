// SPDX-License-Identifier: GPL-2.0
/*
 * switchstat - context switches, on-CPU time, perf counters and memory
 * events per process, thread or cgroup, from sched:sched_switch.
 *
 * Shape after libbpf-tools' runqlat.c: parse options, check the
 * environment, compile and attach, then print every interval until the
 * duration ends or Ctrl-C; the last, partial interval is printed too.
 * The work is done by the features (feature.h, listed in features.c):
 * this file runs their phases in order and owns the interval clock.
 * Exit codes: 0 done, 1 environment/BPF failure, 2 bad input.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "colfit.h"
#include "cpus.h"
#include "event_encode.h"
#include "feature.h"
#include "hostns.h"
#include "procfs.h"
#include "target.h"
#include "testseam.h"
#include "vmlinux_btf.h"

extern const char switchstat_bpf_text[];

/*
 * The decide phase: the kernel's facts and what the features opened, the
 * options and the test seams make the plan (plan.h), and the plan the
 * probes' cflags.  From here on the plan is read-only (app->plan).
 * Returns 0 or 1 (one line said).
 */
static int make_plan(struct ss_app *app)
{
	static struct ss_plan plan;
	struct ss_seams seams;
	char err[SS_ERR_LEN];

	for (int i = 0; i < SS_SEAM_COUNT; i++) {
		seams.on[i] = ss_seam(i);
		seams.val[i] = ss_seam_value(i);
	}
	if (ss_plan_decide(&plan, &app->o, &app->facts, &seams, err,
			   sizeof(err))) {
		ss_diag("%s", err);
		return 1;
	}
	app->plan = &plan;
	app->bpf.mode = &plan.path.mode;
	app->bpf.verbose = app->o.verbose;
	if (ss_plan_cflags(&plan, &app->cflags)) {
		ss_diag("too many BPF cflags");
		return 1;
	}
	return 0;
}

/*
 * Check the input, then the environment, find the kernel's facts, open,
 * plan, configure, compile, attach and start every feature.  Returns 0 or
 * the exit code.
 */
static int setup(struct ss_app *app)
{
	char err[SS_ERR_LEN];
	uint64_t t0, t_conf, t_attach, t_free;
	int ret;

	/* user input first (exit 2), then the environment (exit 1) */
	ret = ss_features_phase(app, SS_PHASE_CHECK);
	if (ret)
		return ret;
	if (ss_bpf_check_env(&app->bpf, err, sizeof(err))) {
		ss_diag("%s", err);
		return 1;
	}
	if (app->o.verbose)
		ss_diag("kernel headers for compiling: %s "
			"(probes read tracepoint fields, helpers and "
			"task_struct at offsets from BTF, never the "
			"headers' layout)",
			app->bpf.headers);
	t0 = ss_clock_ns(CLOCK_MONOTONIC);
	ss_kfacts_probe(&app->facts, &app->o);
	/* the facts have the offsets: BTF not kept through the compile */
	ss_vmlinux_btf_release();
	ret = ss_features_phase(app, SS_PHASE_OPEN);
	if (!ret)
		ret = make_plan(app);
	if (!ret)
		ret = ss_features_phase(app, SS_PHASE_CONFIGURE);
	if (ret)
		return ret;
	t_conf = ss_clock_ns(CLOCK_MONOTONIC);
	if (app->o.verbose) {
		ss_diag_raw("switchstat: BPF cflags:");
		for (int i = 0; i < app->cflags.n; i++)
			ss_diag_raw(" %s", app->cflags.v[i]);
		ss_diag_raw("\n");
	}

	if (ss_bpf_compile(&app->bpf, switchstat_bpf_text, app->cflags.v,
			   app->cflags.n, err, sizeof(err))) {
		ss_diag("%s", err);
		return 1;
	}
	if (ss_exiting)
		return 0;
	t_attach = ss_clock_ns(CLOCK_MONOTONIC);
	if (ss_features_phase(app, SS_PHASE_ATTACH) ||
	    ss_features_phase(app, SS_PHASE_START))
		return 1;
	t_free = ss_clock_ns(CLOCK_MONOTONIC);
	t_attach = t_free - t_attach;
	/*
	 * Everything is loaded and attached: clang's and LLVM's memory is no
	 * longer needed (a third of the peak RSS).
	 */
	ss_bpf_free_compiler(&app->bpf);
	if (app->o.verbose) {
		ss_diag("BPF object: %s", app->bpf.object);
		ss_diag("start-up (ms): configure and perf open "
			"%.1f, compile %.1f, load %.1f, attach %.1f, free "
			"compiler %.1f (%ld kB of its pages unmapped)",
			(t_conf - t0) / 1e6, app->bpf.compile_ns / 1e6,
			app->bpf.load_ns / 1e6,
			(t_attach - app->bpf.load_ns) / 1e6,
			(ss_clock_ns(CLOCK_MONOTONIC) - t_free) / 1e6,
			app->bpf.dropped_kb);
	}
	return 0;
}

/* The report's columns follow what the features found. */
static void out_init(struct ss_app *app)
{
	const struct ss_report_info *in = &app->info;
	struct ss_out *out = &app->out;

	out->o = &app->o;
	out->fmt = app->fmt;
	out->nr_counters = in->nr_counters;
	memcpy(out->ctr_name, in->ctr_name, sizeof(out->ctr_name));
	out->counters_na = in->counters_na;
	out->ctr_timed = in->ctr_timed;
	out->counter_na = in->counter_na;
	memcpy(out->mem_na, in->mem_na, sizeof(out->mem_na));
	out->cg = in->cg;
	out->psi = in->psi;
	/* the table fits the terminal (--top fits its own screen) */
	out->max_width = app->fmt == SS_FMT_TABLE && !app->o.top_view
				 ? ss_table_width(app->f)
				 : 0;
	ss_out_init(out);
	if (out->fit_dropped[0])
		ss_diag("%d columns: the table leaves out %s (a wider "
			"terminal, or --csv, shows them)",
			out->max_width, out->fit_dropped);
}

static int run(struct ss_app *app)
{
	uint64_t interval_ns = app->o.interval_ms * 1000000ULL;
	struct ss_emit banner;
	uint64_t t0;

	/*
	 * The first interval starts at the reset's edge (feat_core), so its
	 * deadline counts from just before it, however long the reset takes
	 */
	t0 = ss_clock_ns(CLOCK_MONOTONIC);
	if (ss_features_phase(app, SS_PHASE_RESET))
		return 1;
	uint64_t end = app->o.duration_s
			       ? t0 + app->o.duration_s * 1000000000ULL
			       : UINT64_MAX;
	uint64_t next = t0 + interval_ns;

	/* -f: stdout holds the folded lines only */
	ss_emit_init(&banner, app->o.folded ? stderr : app->f, app->fmt);
	ss_emit_banner(&banner,
		       "Tracing context switches... Hit Ctrl-C to end.", 1);

	while (!ss_exiting) {
		uint64_t wake = next < end ? next : end;
		struct timespec ts = { .tv_sec = wake / 1000000000ULL,
				       .tv_nsec = wake % 1000000000ULL };
		int err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
					  NULL);
		uint64_t now;

		if (err == EINTR && ss_exiting)
			break; /* partial interval: printed below */
		if (err && err != EINTR)
			return 1;
		now = ss_clock_ns(CLOCK_MONOTONIC);
		if (now < wake)
			continue;
		app->last_interval = wake >= end;
		if (ss_features_interval(app))
			return 1;
		if (wake >= end)
			return 0;
		/* deadlines missed while collecting are skipped, not bunched */
		while (next <= now)
			next += interval_ns;
	}
	/* Ctrl-C or SIGTERM: the final partial interval */
	app->last_interval = true;
	return ss_features_interval(app) ? 1 : 0;
}

/*
 * The kernel refused a program of the module from the compiled-BPF cache
 * (a file changed on disk under a good checksum, or a kernel rebuilt with
 * the same identity): remove the file and run again from the start, once
 * (SWITCHSTAT_BPF_CACHE_RETRY), so that start compiles.  Everything of
 * this start is closed already; every other fd is closed before the exec,
 * so no program stays attached through a leaked one.  Returns only when
 * that cannot be done.
 */
static void retry_compiled(struct ss_app *app, char **argv)
{
	const char *again = getenv("SWITCHSTAT_BPF_CACHE_RETRY");

	if (again && *again)
		return;
	if (ss_bpf_cache_drop(&app->bpf)) {
		ss_diag("cannot remove the cached probes %s: %s",
			app->bpf.cache_path, strerror(errno));
		return;
	}
	ss_diag("the kernel refused the cached probes (%s, removed): "
		"compiling them",
		app->bpf.cache_path);
	if (setenv("SWITCHSTAT_BPF_CACHE_RETRY", "1", 1))
		return;
	fflush(NULL);
	syscall(SYS_close_range, 3U, ~0U, 0);
	execv("/proc/self/exe", argv);
	ss_diag("cannot run again: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	static struct ss_app app;
	struct sigaction sa = { .sa_handler = ss_on_signal };
	char err[SS_ERR_LEN];
	int ret;

	ret = ss_parse_opts(argc, argv, &app.o, stdout, stderr);
	if (ret == SS_PARSE_EXIT_OK)
		return 0;
	if (ret != SS_PARSE_OK)
		return 2;
	if (ss_seams_load(err, sizeof(err))) {
		ss_diag("%s", err);
		return 2;
	}
	if (app.o.list_events) /* no privileges needed: nothing is opened */
		return ss_events_list(stdout) ? 1 : 0;
	/* pids mean nothing outside the host's pid namespace: before -p */
	if (ss_check_pidns(&app.o, ss_in_host_pidns("/proc/self/ns/pid"), err,
			   sizeof(err))) {
		ss_diag("%s", err);
		return 1;
	}
	app.fmt = ss_format_of(&app.o);
	for (uint32_t i = 0; i < app.o.npids || i < app.o.ntids; i++) {
		if (ss_check_target("/proc",
				    i < app.o.npids ? app.o.pids[i] : 0,
				    i < app.o.ntids ? app.o.tids[i] : 0, err,
				    sizeof(err))) {
			ss_diag("%s", err);
			fprintf(stderr,
				"Try 'switchstat -h' for more information.\n");
			return 2;
		}
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	app.f = stdout;
	app.ncpus_possible = ss_possible_cpus();
	app.ncpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	if (app.ncpus_possible <= 0) {
		ss_diag("cannot read possible CPUs");
		return 1;
	}
	app.iv.ncpus = app.ncpus_online;
	app.iv.ncpus_possible = app.ncpus_possible;
	app.iv.idle_ns = calloc(app.ncpus_possible, sizeof(uint64_t));
	if (!app.iv.idle_ns || ss_features_init(&app)) {
		ss_diag("out of memory");
		return 1;
	}

	ret = setup(&app);
	if (!ret && !ss_exiting) {
		out_init(&app);
		if (ss_target_watch(app.o.ntids ? app.o.tids : app.o.pids,
				    app.o.ntids ? app.o.ntids : app.o.npids,
				    app.o.ntids != 0))
			ss_diag("cannot watch the target: %s "
				"(the run will not end when it exits)",
				strerror(errno));
		ret = ss_features_run(&app);
		if (ret < 0)
			ret = run(&app);
	}
	ss_target_stop();
	if (!ret)
		ss_features_phase(&app, SS_PHASE_FINISH);
	ss_bpf_close(&app.bpf);
	ss_features_phase(&app, SS_PHASE_CLOSE);
	ss_features_free(&app);
	ss_rows_free(&app.iv);
	free(app.iv.idle_ns);
	if (ret && app.bpf.cache_rejected)
		retry_compiled(&app, argv);
	return ret;
}

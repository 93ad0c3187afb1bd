// SPDX-License-Identifier: GPL-2.0
/*
 * switchstat - context switches, on-CPU time, perf counters and memory
 * events per process, thread or cgroup, from sched:sched_switch.
 *
 * Shape after libbpf-tools' runqlat.c: parse options, check the
 * environment, compile and attach, then print every interval until the
 * duration ends or Ctrl-C; the last, partial interval is printed too.
 * Exit codes: 0 done, 1 environment/BPF failure, 2 bad input.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "cpus.h"
#include "hooks.h"
#include "procfs.h"

extern const char switchstat_bpf_text[];

volatile sig_atomic_t ss_exiting;

static void on_signal(int sig)
{
	(void)sig;
	ss_exiting = 1;
}

/* ss_app_define - see app.h */
int ss_app_define(struct ss_app *app, const char *name,
		  unsigned long long value)
{
	if (app->ncflags >= SS_MAX_CFLAGS)
		return -1;
	snprintf(app->cflag_buf[app->ncflags], sizeof(app->cflag_buf[0]),
		 "-D%s=%llu", name, value);
	app->cflags[app->ncflags] = app->cflag_buf[app->ncflags];
	app->ncflags++;
	return 0;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint32_t default_map_entries(void)
{
	uint32_t n = ss_pid_max();

	if (n < 8192)
		n = 8192;
	if (n > 65536)
		n = 65536;
	return n;
}

static int setup(struct ss_app *app)
{
	char err[SS_ERR_LEN];

	app->map_entries =
		app->o.map_entries ? app->o.map_entries : default_map_entries();
	ss_app_define(app, "SS_MAP_ENTRIES", app->map_entries);
	ss_app_define(app, "SS_PER_THREAD", app->o.per_thread);
	ss_app_define(app, "SS_FILTER_TGID", app->o.pid);
	ss_app_define(app, "SS_FILTER_TID", app->o.tid);
	/* test hook for the verifier-rejection test (tests/integration) */
	if (getenv("SWITCHSTAT_TEST_VERIFIER_FAIL") &&
	    !strcmp(getenv("SWITCHSTAT_TEST_VERIFIER_FAIL"), "1"))
		ss_app_define(app, "SS_TEST_VERIFIER_FAIL", 1);

	/* user input first (exit 2), then the environment (exit 1) */
	static int (*const check_input[])(struct ss_app *) = {
		counters_check,
		hist_configure,
		mem_configure,
		trace_configure,
	};
	for (size_t i = 0; i < sizeof(check_input) / sizeof(check_input[0]);
	     i++) {
		int ret = check_input[i](app);

		if (ret)
			return ret;
	}
	if (ss_bpf_check_env(&app->bpf, err, sizeof(err))) {
		fprintf(stderr, "switchstat: %s\n", err);
		return 1;
	}
	if (app->o.verbose)
		fprintf(stderr,
			"switchstat: kernel headers for compiling: %s "
			"(probes read only tracepoint fields and helpers, "
			"never kernel structs)\n",
			app->bpf.headers);
	/* these open perf events and set sysctls: root only */
	static int (*const configure[])(struct ss_app *) = {
		counters_configure,
		selfstats_configure,
	};
	for (size_t i = 0; i < sizeof(configure) / sizeof(configure[0]); i++) {
		int ret = configure[i](app);

		if (ret)
			return ret;
	}
	if (app->o.verbose) {
		fprintf(stderr, "switchstat: BPF cflags:");
		for (int i = 0; i < app->ncflags; i++)
			fprintf(stderr, " %s", app->cflags[i]);
		fprintf(stderr, "\n");
	}

	if (ss_bpf_compile(&app->bpf, switchstat_bpf_text, app->cflags,
			   app->ncflags, err, sizeof(err))) {
		fprintf(stderr, "switchstat: %s\n", err);
		return 1;
	}
	if (ss_exiting)
		return 0;
	int accum = ss_bpf_map_fd(&app->bpf, "accum");
	int stats = ss_bpf_map_fd(&app->bpf, "cpu_state"); /* ss_cpu.stats */

	if (accum < 0 || stats < 0) {
		fprintf(stderr, "switchstat: BPF maps missing\n");
		return 1;
	}
	if (ss_collect_init(&app->col, accum, stats, app->ncpus_possible,
			    app->map_entries)) {
		fprintf(stderr, "switchstat: cannot read BPF maps: %s\n",
			strerror(errno));
		return 1;
	}
	static int (*const attach[])(struct ss_app *) = {
		counters_attach,
		hist_attach,
		mem_attach,
		trace_attach,
	};
	for (size_t i = 0; i < sizeof(attach) / sizeof(attach[0]); i++)
		if (attach[i](app))
			return 1;
	/* sched_switch last: everything it feeds is in place */
	if (ss_bpf_attach_tp(&app->bpf, "tracepoint__sched__sched_switch",
			     "sched", "sched_switch", err, sizeof(err))) {
		fprintf(stderr, "switchstat: %s\n", err);
		return 1;
	}
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

static void print_check(struct ss_app *app)
{
	const struct ss_interval *iv = &app->iv;
	uint64_t rows = ss_rows_oncpu_total(iv);
	uint64_t idle = iv->stats[SS_STAT_IDLE_NS];
	uint64_t other = iv->stats[SS_STAT_FILTERED_NS];
	uint64_t want = iv->interval_ns * app->ncpus_online;
	uint64_t got = rows + idle + other;

	if (app->o.idle) /* idle rows are already in rows */
		got -= idle;
	fprintf(stderr,
		"check: tasks %.1f ms + filtered %.1f ms + idle %.1f ms = "
		"%.1f ms of %d CPUs x %.1f ms (%.1f%%)\n",
		(rows - (app->o.idle ? idle : 0)) / 1e6, other / 1e6,
		idle / 1e6, got / 1e6, app->ncpus_online, iv->interval_ns / 1e6,
		want ? 100.0 * got / want : 0.0);
}

/*
 * report - collect and print one interval.  *start_ns is when the previous
 * collect ran (the start of this interval's data); it is advanced to this
 * collect, so time spent printing belongs to the next interval.
 */
static int report(struct ss_app *app, uint64_t *start_ns)
{
	uint64_t now;
	int n;

	ss_rows_reset(&app->iv);
	n = ss_collect(&app->col, &app->iv);
	if (n < 0) {
		fprintf(stderr, "switchstat: reading BPF maps: %s\n",
			strerror(-n));
		return -1;
	}
	now = clock_ns(CLOCK_MONOTONIC);
	app->iv.interval_ns = now - *start_ns;
	*start_ns = now;
	app->iv.end_realtime_ns = clock_ns(CLOCK_REALTIME);
	if (app->o.idle)
		add_idle_rows(app);
	if (app->o.per_cgroup)
		ss_rows_merge_by_cgroup(&app->iv);
	ss_rows_sort(&app->iv, app->o.sort);
	if (!app->o.hist_only)
		ss_out_interval(&app->out, app->f, &app->iv);
	hist_interval(app);
	if (app->o.check)
		print_check(app);
	if (app->o.verbose)
		fprintf(stderr,
			"switchstat: %zu rows, %" PRIu64 " switches, skipped "
			"slices: %" PRIu64 " first, %" PRIu64 " missed switch, "
			"%" PRIu64 " clock; %" PRIu64 " dropped; counter "
			"deltas skipped: %" PRIu64 " first, %" PRIu64
			" backwards, %" PRIu64 " read errors\n",
			app->iv.n, app->iv.stats[SS_STAT_SWITCHES],
			app->iv.stats[SS_STAT_FIRST_SLICE],
			app->iv.stats[SS_STAT_MISSED],
			app->iv.stats[SS_STAT_ANOMALY],
			app->iv.stats[SS_STAT_DROPS],
			app->iv.stats[SS_STAT_CTR_FIRST],
			app->iv.stats[SS_STAT_CTR_BACKWARDS],
			app->iv.stats[SS_STAT_CTR_ERROR]);
	return 0;
}

static int run(struct ss_app *app)
{
	uint64_t interval_ns = app->o.interval_ms * 1000000ULL;
	uint64_t t0, start;

	/*
	 * The probes have run since they were attached: throw that away, so
	 * the first interval, like every other, runs from one collect to the
	 * next and never holds time from before it began (H4, H7).
	 */
	ss_rows_reset(&app->iv);
	if (ss_collect(&app->col, &app->iv) < 0)
		return 1;
	hist_reset(app);
	t0 = clock_ns(CLOCK_MONOTONIC);
	start = t0;
	uint64_t end = app->o.duration_s
			       ? t0 + app->o.duration_s * 1000000000ULL
			       : UINT64_MAX;
	uint64_t next = t0 + interval_ns;

	if (app->o.csv || app->o.json)
		fprintf(stderr,
			"Tracing context switches... Hit Ctrl-C to end.\n");
	else
		fprintf(app->f,
			"Tracing context switches... Hit Ctrl-C to end.\n\n");
	fflush(app->f);

	while (!ss_exiting) {
		uint64_t wake = next < end ? next : end;
		struct timespec ts = { .tv_sec = wake / 1000000000ULL,
				       .tv_nsec = wake % 1000000000ULL };
		int err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
					  NULL);

		if (err == EINTR && ss_exiting)
			break; /* partial interval: printed below */
		if (err && err != EINTR)
			return 1;
		if (clock_ns(CLOCK_MONOTONIC) < wake)
			continue;
		if (report(app, &start))
			return 1;
		if (wake >= end)
			return 0;
		while (next <= start)
			next += interval_ns;
	}
	/* Ctrl-C or SIGTERM: the final partial interval */
	return report(app, &start) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct ss_app app;
	struct sigaction sa = { .sa_handler = on_signal };
	char err[SS_ERR_LEN];
	int ret;

	ret = ss_parse_opts(argc, argv, &app.o, stdout, stderr);
	if (ret == SS_PARSE_EXIT_OK)
		return 0;
	if (ret != SS_PARSE_OK)
		return 2;
	if (ss_check_target("/proc", app.o.pid, app.o.tid, err, sizeof(err))) {
		fprintf(stderr, "switchstat: %s\n", err);
		fprintf(stderr, "Try 'switchstat -h' for more information.\n");
		return 2;
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	app.f = stdout;
	app.ncpus_possible = ss_possible_cpus();
	app.ncpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	if (app.ncpus_possible <= 0) {
		fprintf(stderr, "switchstat: cannot read possible CPUs\n");
		return 1;
	}
	app.iv.ncpus = app.ncpus_online;
	app.iv.ncpus_possible = app.ncpus_possible;
	app.iv.idle_ns = calloc(app.ncpus_possible, sizeof(uint64_t));
	app.out.o = &app.o;

	ret = setup(&app);
	if (!ret && !ss_exiting) {
		/*
		 * Compiling freed ~50 MB that glibc keeps resident: give it
		 * back (159 -> 105 MB RSS here), so a later leak shows in RSS.
		 */
		malloc_trim(0);
		ss_out_init(&app.out);
		ret = app.o.trace ? trace_run(&app) : run(&app);
	}
	if (!ret && app.o.self_stats)
		selfstats_report(&app);
	ss_bpf_close(&app.bpf);
	counters_close(&app);
	hist_close(&app);
	mem_close(&app);
	trace_close(&app);
	ss_collect_free(&app.col);
	ss_rows_free(&app.iv);
	free(app.iv.idle_ns);
	return ret;
}

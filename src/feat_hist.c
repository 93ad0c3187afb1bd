// SPDX-License-Identifier: GPL-2.0
/*
 * feat_hist.c - log2 histograms (--hist oncpu,offcpu,runq) and the interval
 * checkpoints that keep on-CPU time accurate per interval.
 *
 * Checkpoints (always on, except --trace): a cpu-clock software perf event
 * on every online CPU runs probes/switch.bpf.c's ss_checkpoint every
 * period_ns, which charges the running task's slice so far, so a task
 * that never switches still shows its time in each interval.  An interval
 * boundary misplaces at most one period of each CPU's time (moved to the
 * next interval, not lost), hence period = interval / 200 (0.5%), at least
 * 1 ms and at most 10 ms: a slice whose owner is unknown because a switch
 * was missed (see SS_STAT_MISSED) is skipped, so checkpoints also bound
 * what one missed switch can lose.  A timer interrupt does not switch
 * tasks: switch counts unchanged.
 *
 * Histograms (probes/hist.bpf.h): one per kind is kept as cumulative
 * per-CPU counts in hist_cpu, summed and diffed here each interval; per
 * process or thread (-P/-L) they are in the `hist` map, drained (read and
 * deleted) each interval.  src/histmap.c prints them.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "histmap.h"
#include "hooks.h"

#define CKPT_DIV 200 /* checkpoints per interval */
#define CKPT_MIN_NS 1000000ULL
#define CKPT_MAX_NS 10000000ULL
#define EXIT_PROG "tracepoint__sched__sched_process_exit"
#define HIST_MAX_KEYS 65536 /* hist map size cap (-P/-L): 15 MB */

static struct {
	uint64_t period_ns; /* checkpoint period; 0: no checkpoints */
	int map_fd; /* hist (-P/-L) */
	int cpu_fd; /* hist_cpu (one histogram per kind) */
	uint32_t entries;
	int ncpus; /* possible CPUs: values per hist_cpu lookup */
	struct ss_hist_cpu *cpu_buf;
	uint64_t prev[SS_HK_MAX][SS_HIST_SLOTS]; /* summed slots last time */
	struct ss_hist_key *keys;
	struct ss_hist_val *vals;
	struct ss_hist_rec *recs;
	bool no_batch;
	bool csv_header_done;
	struct ss_hist_fmt fmt;
} hs = { .map_fd = -1, .cpu_fd = -1 };

static bool waits_on(const struct ss_opts *o)
{
	return o->hist & (SS_HIST_OFFCPU | SS_HIST_RUNQ);
}

/* hist_configure - see hooks.h */
int hist_configure(struct ss_app *app)
{
	const struct ss_opts *o = &app->o;
	int ok = 0;

	if (!o->trace) {
		hs.period_ns = o->interval_ms * 1000000ULL / CKPT_DIV;
		if (hs.period_ns < CKPT_MIN_NS)
			hs.period_ns = CKPT_MIN_NS;
		if (hs.period_ns > CKPT_MAX_NS)
			hs.period_ns = CKPT_MAX_NS;
		if (o->verbose)
			fprintf(stderr,
				"switchstat: checkpoints every %.3f ms/CPU\n",
				hs.period_ns / 1e6);
	}
	if (!o->hist)
		return 0;
	if ((o->hist & SS_HIST_RUNQ) &&
	    (!ss_tracepoint_exists("sched", "sched_wakeup") ||
	     !ss_tracepoint_exists("sched", "sched_wakeup_new"))) {
		fprintf(stderr, "switchstat: --hist runq needs the "
				"sched:sched_wakeup and sched_wakeup_new "
				"tracepoints, not found in tracefs\n");
		return 1;
	}
	hs.fmt.per = o->per_thread ? 2 : o->hist_per_process ? 1 : 0;
	hs.fmt.ms = o->milliseconds;
	hs.fmt.top = o->top;
	/* -P/-L: one key per task and kind; capped, a value is 232 bytes */
	hs.entries = hs.fmt.per ? app->map_entries : SS_HK_MAX;
	if (hs.entries > HIST_MAX_KEYS)
		hs.entries = HIST_MAX_KEYS;

	ok |= ss_app_define(app, "SS_HIST_ONCPU", !!(o->hist & SS_HIST_ONCPU));
	ok |= ss_app_define(app, "SS_HIST_OFFCPU",
			    !!(o->hist & SS_HIST_OFFCPU));
	ok |= ss_app_define(app, "SS_HIST_RUNQ", !!(o->hist & SS_HIST_RUNQ));
	ok |= ss_app_define(app, "SS_HIST_PER", hs.fmt.per);
	ok |= ss_app_define(app, "SS_HIST_UNIT_NS",
			    o->milliseconds ? 1000000 : 1000);
	ok |= ss_app_define(app, "SS_HIST_ENTRIES", hs.entries);
	if (waits_on(o))
		ok |= ss_app_define(app, "SS_NEED_EXIT", 1);
	if (ok) {
		fprintf(stderr, "switchstat: too many BPF cflags\n");
		return 1;
	}
	return 0;
}

/*
 * Open a cpu-clock event on each online CPU (offline ones fail with
 * ENODEV and are skipped) and run ss_checkpoint at every period.
 */
static int attach_checkpoints(struct ss_app *app)
{
	char err[SS_ERR_LEN];
	int prog, n = 0;

	prog = ss_bpf_load(&app->bpf, "ss_checkpoint", BPF_PROG_TYPE_PERF_EVENT,
			   err, sizeof(err));
	if (prog < 0) {
		fprintf(stderr, "switchstat: %s\n", err);
		return 1;
	}
	for (int cpu = 0; cpu < app->ncpus_possible; cpu++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.size = sizeof(attr),
			.config = PERF_COUNT_SW_CPU_CLOCK,
			.sample_period = hs.period_ns,
			.disabled = 1,
		};
		int fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
				 PERF_FLAG_FD_CLOEXEC);

		if (fd < 0 && errno == ENODEV)
			continue;
		if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ||
		    ss_bpf_add_link(&app->bpf, fd)) {
			fprintf(stderr,
				"switchstat: cannot attach the interval "
				"checkpoint (cpu-clock perf event) on CPU %d: "
				"%s\n",
				cpu, strerror(errno));
			if (fd >= 0)
				close(fd);
			return 1;
		}
		n++;
	}
	if (!n) {
		fprintf(stderr, "switchstat: no online CPU for the interval "
				"checkpoints\n");
		return 1;
	}
	return 0;
}

static int attach_tp(struct ss_app *app, const char *fn, const char *name)
{
	char err[SS_ERR_LEN];

	if (ss_bpf_attach_tp(&app->bpf, fn, "sched", name, err, sizeof(err))) {
		fprintf(stderr, "switchstat: %s\n", err);
		return 1;
	}
	return 0;
}

/* hist_attach - see hooks.h */
int hist_attach(struct ss_app *app)
{
	const struct ss_opts *o = &app->o;

	if (o->hist) {
		bool per = hs.fmt.per;

		hs.ncpus = app->ncpus_possible;
		hs.map_fd = per ? ss_bpf_map_fd(&app->bpf, "hist") : -1;
		hs.cpu_fd = per ? -1 : ss_bpf_map_fd(&app->bpf, "hist_cpu");
		hs.keys = calloc(hs.entries, sizeof(*hs.keys));
		hs.vals = calloc(hs.entries, sizeof(*hs.vals));
		hs.recs = calloc(hs.entries, sizeof(*hs.recs));
		hs.cpu_buf = per ? NULL : calloc(hs.ncpus, sizeof(*hs.cpu_buf));
		if ((per ? hs.map_fd : hs.cpu_fd) < 0 || !hs.keys || !hs.vals ||
		    !hs.recs || (!per && !hs.cpu_buf)) {
			fprintf(stderr, "switchstat: histogram map missing\n");
			return 1;
		}
	}
	if (waits_on(o) && !ss_bpf_prog_loaded(&app->bpf, EXIT_PROG) &&
	    attach_tp(app, EXIT_PROG, "sched_process_exit"))
		return 1;
	if ((o->hist & SS_HIST_RUNQ) &&
	    (attach_tp(app, "tracepoint__sched__sched_wakeup",
		       "sched_wakeup") ||
	     attach_tp(app, "tracepoint__sched__sched_wakeup_new",
		       "sched_wakeup_new")))
		return 1;
	if (hs.period_ns && attach_checkpoints(app))
		return 1;
	return 0;
}

/* Batch read-and-delete of the hist map; -errno on failure. */
static int drain_batch(void)
{
	__u32 token = 0, count;
	bool first = true;
	int total = 0, err;

	for (;;) {
		count = hs.entries - total;
		if (!count)
			return total;
		err = bpf_lookup_and_delete_batch(
			hs.map_fd, first ? NULL : &token, &token,
			hs.keys + total, hs.vals + total, &count);
		if (err && errno != ENOENT)
			return -errno;
		total += count;
		if (err)
			return total;
		first = false;
	}
}

/* Fallback without batch ops: collect the keys, then copy and delete. */
static int drain_iter(void)
{
	struct ss_hist_key key, next;
	uint32_t n = 0;
	int total = 0;

	if (bpf_get_next_key(hs.map_fd, NULL, &next) == 0) {
		do {
			hs.keys[n++] = next;
			key = next;
		} while (n < hs.entries &&
			 bpf_get_next_key(hs.map_fd, &key, &next) == 0);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (bpf_lookup_elem(hs.map_fd, &hs.keys[i], &hs.vals[total]))
			continue;
		bpf_delete_elem(hs.map_fd, &hs.keys[i]);
		hs.keys[total++] = hs.keys[i];
	}
	return total;
}

static int drain(void)
{
	int n = -EINVAL;

	if (!hs.no_batch) {
		n = drain_batch();
		if (n == -EINVAL || n == -ENOTSUP || n == -EOPNOTSUPP ||
		    n == -ENOSYS)
			hs.no_batch = true;
	}
	if (hs.no_batch)
		n = drain_iter();
	for (int i = 0; i < n; i++) {
		hs.recs[i].key = hs.keys[i];
		hs.recs[i].val = hs.vals[i];
	}
	return n;
}

/*
 * One histogram per kind: sum this interval's slot counts over CPUs (each
 * CPU's hist_cpu entry is cumulative) into one record per enabled kind.
 */
static int read_global(const struct ss_opts *o)
{
	/* enum ss_hist_kind (option bits) in enum ss_hist_kind_id order */
	unsigned int kinds =
		(o->hist & SS_HIST_ONCPU ? 1U << SS_HK_ONCPU : 0) |
		(o->hist & SS_HIST_OFFCPU ? 1U << SS_HK_OFFCPU : 0) |
		(o->hist & SS_HIST_RUNQ ? 1U << SS_HK_RUNQ : 0);
	__u32 zero = 0;

	if (bpf_lookup_elem(hs.cpu_fd, &zero, hs.cpu_buf))
		return -errno;
	return ss_hist_cpu_delta(hs.cpu_buf, hs.ncpus, hs.prev, kinds, hs.recs);
}

static void print_timestamp(FILE *f, uint64_t realtime_ns)
{
	time_t t = realtime_ns / 1000000000ULL;
	struct tm tm;
	char buf[16];

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
	fprintf(f, "%s\n", buf);
}

/*
 * CSV: with -H the histogram rows are the whole output (header once);
 * beside the table each interval's rows form a block: a blank line, the
 * header, the rows, a blank line.
 */
static void print_csv(struct ss_app *app, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (app->o.hist_only) {
		if (!hs.csv_header_done)
			fprintf(app->f, SS_HIST_CSV_HEADER "\n");
		hs.csv_header_done = true;
		ss_histmap_csv(app->f, hs.recs, n, &hs.fmt);
		return;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		return;
	if (ss_histmap_csv(m, hs.recs, n, &hs.fmt)) {
		fclose(m);
		fprintf(app->f, "\n" SS_HIST_CSV_HEADER "\n%s\n", buf);
	} else {
		fclose(m);
	}
	free(buf);
}

/* hist_interval - see hooks.h */
void hist_interval(struct ss_app *app)
{
	const struct ss_opts *o = &app->o;
	int n;

	if (!o->hist || (hs.map_fd < 0 && hs.cpu_fd < 0))
		return;
	n = hs.fmt.per ? drain() : read_global(o);
	if (n < 0) {
		fprintf(stderr, "switchstat: reading the histogram map: %s\n",
			strerror(-n));
		return;
	}
	ss_histmap_sort(hs.recs, n);
	hs.fmt.time_s = (double)app->iv.end_realtime_ns / 1e9;
	if (o->csv) {
		print_csv(app, n);
	} else if (o->json) {
		ss_histmap_json(app->f, hs.recs, n, &hs.fmt);
	} else {
		if (o->hist_only && o->timestamp)
			print_timestamp(app->f, app->iv.end_realtime_ns);
		ss_histmap_text(app->f, hs.recs, n, &hs.fmt);
	}
	fflush(app->f);
}

/* hist_reset - see hooks.h */
void hist_reset(struct ss_app *app)
{
	const struct ss_opts *o = &app->o;

	if (!o->hist || (hs.map_fd < 0 && hs.cpu_fd < 0))
		return;
	if (hs.fmt.per)
		drain();
	else
		read_global(o);
}

/* hist_close - see hooks.h */
void hist_close(struct ss_app *app)
{
	free(hs.keys);
	free(hs.vals);
	free(hs.recs);
	free(hs.cpu_buf);
	hs.cpu_buf = NULL;
	hs.cpu_fd = -1;
	hs.keys = NULL;
	hs.vals = NULL;
	hs.recs = NULL;
	hs.map_fd = -1;
}

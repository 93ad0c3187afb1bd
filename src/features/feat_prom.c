// SPDX-License-Identifier: GPL-2.0
/*
 * feat_prom.c - --listen: a Prometheus exporter fed by the interval loop.
 *
 * Each interval's rows (already drained from the BPF maps for the table)
 * are added to cumulative series (prom_series.c), never reset; then the
 * whole exposition is rendered once in text 0.0.4 and once in OpenMetrics
 * and handed to the HTTP server (http_server.c), which serves that
 * snapshot to every scrape until the next interval.  A scrape therefore
 * never reads a BPF map, and its cost does not depend on the number of
 * scrapers.  Values lag the kernel by at most one interval (-i).
 *
 * Labels: per cgroup by default (cgroup path, container_id); with
 * --metrics-per-process also pid and comm.  At most --max-series label
 * sets; the rest is summed into one series whose labels are all "other".
 * Series of exited processes or removed cgroups are dropped --series-ttl
 * seconds after they were last seen; live ones are kept however idle.
 */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "blame.h"
#include "cgroup.h"
#include "histmap.h"
#include "feat_prom.h"
#include "http_server.h"
#include "parse.h"
#include "prom_fmt.h"
#include "prom_hist.h"
#include "prom_pairs.h"
#include "prom_series.h"
#include "psi.h"
#include "wakers.h"

#define NLAB_MAX 9 /* pid, comm, cgroup, container_id + a family's own */

/* Label values of one series, resolved once per interval. */
struct labs {
	char pid[12];
	const char *comm;
	const char *cgroup;
	char cgroup_num[24];
	char container[SS_CONTAINER_SHORT_ID_LEN + 1];
};

struct prom_state {
	struct ss_http *http;
	struct ss_series_store st;
	struct ss_cgroup_cache *cg;
	bool own_cg;
	uint64_t stats[SS_STAT_MAX]; /* cumulative since start */
	struct ss_hist_store hist; /* cumulative slots per cgroup */
	struct ss_pair_store wakers; /* --wakers: per (row, waker) */
	struct ss_pair_store stacks; /* --stacks: per (row, stack) */
	/* --blame -G: per (victim cgroup, culprit): delay, preemptions */
	struct ss_pair_store blame;
	bool hist_ms;
	uint64_t scaled; /* bit i: counter i was scaled in the last interval */
	uint64_t render_ns; /* time the previous snapshot took to build */
	uint64_t collect_realtime_ns; /* end of the last interval, or 0 */
	int stats_fd; /* BPF_ENABLE_STATS, if stats_on */
	bool stats_on;
	struct labs *labs;
	size_t labs_cap;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* With --listen: BPF run-time stats on, for the switchstat_bpf_* metrics. */
static int prom_configure(struct ss_app *app, void *st)
{
	struct prom_state *pr = st;
	union bpf_attr attr;

	if (!app->o.listen)
		return 0;
	/* run time per program for the self-monitoring metrics (optional) */
	memset(&attr, 0, sizeof(attr));
	attr.enable_stats.type = BPF_STATS_RUN_TIME;
	pr->stats_fd = syscall(SYS_bpf, BPF_ENABLE_STATS, &attr, sizeof(attr));
	pr->stats_on = pr->stats_fd >= 0;
	if (!pr->stats_on && app->o.verbose)
		fprintf(stderr,
			"switchstat: --listen: no BPF run-time stats: %s\n",
			strerror(errno));
	return 0;
}

/* The owner of a series still exists: the process, or the cgroup. */
static bool series_alive(const struct ss_series_key *k, void *ctx)
{
	const struct prom_state *pr = ctx;
	char path[PATH_MAX + 64];
	const char *rel;
	struct stat st;

	if (pr->st.per_process && k->tgid)
		return kill(k->tgid, 0) == 0 || errno == EPERM;
	if (!k->cgroup_id || !pr->cg)
		return true;
	if (!ss_cgroup_find(pr->cg, k->cgroup_id, &rel))
		return false;
	if (!rel) /* exists, path too long to name: alive while found */
		return true;
	snprintf(path, sizeof(path), "%s%s", pr->cg->mount, rel);
	return stat(path, &st) == 0 && st.st_ino == k->cgroup_id;
}

/* the histogram series' cgroup still exists (series_alive's rule) */
static bool hist_alive(uint64_t cgroup_id, void *ctx)
{
	struct ss_series_key k = { .cgroup_id = cgroup_id };

	return series_alive(&k, ctx);
}

static void resolve_labels(const struct prom_state *pr, struct labs *l,
			   const struct ss_series *s)
{
	memset(l, 0, sizeof(*l));
	if (s->key.other) {
		snprintf(l->pid, sizeof(l->pid), "other");
		l->comm = l->cgroup = "other";
		snprintf(l->container, sizeof(l->container), "other");
		return;
	}
	snprintf(l->pid, sizeof(l->pid), "%u", s->key.tgid);
	l->comm = s->key.comm;
	l->cgroup = s->key.cgroup_id && pr->cg
			    ? ss_cgroup_path(pr->cg, s->key.cgroup_id)
			    : NULL;
	if (!l->cgroup && s->key.cgroup_id) {
		/* gone, or no cgroup v2 mount: the id, as the tables show */
		snprintf(l->cgroup_num, sizeof(l->cgroup_num), "%llu",
			 (unsigned long long)s->key.cgroup_id);
		l->cgroup = l->cgroup_num;
	}
	if (l->cgroup && ss_container_id_from_path(l->cgroup, l->container,
						   sizeof(l->container)) != 1)
		l->container[0] = '\0';
}

/* The labels of series i (i == st.n: `other`) plus one extra label. */
static size_t series_labels(const struct prom_state *pr, size_t i,
			    struct ss_prom_label *out, const char *xname,
			    const char *xval)
{
	const struct labs *l = &pr->labs[i];
	size_t n = 0;

	if (pr->st.per_process) {
		out[n++] = (struct ss_prom_label){ "pid", l->pid };
		out[n++] = (struct ss_prom_label){ "comm", l->comm };
	}
	out[n++] = (struct ss_prom_label){ "cgroup", l->cgroup };
	out[n++] = (struct ss_prom_label){ "container_id", l->container };
	if (xname)
		out[n++] = (struct ss_prom_label){ xname, xval };
	return n;
}

static const struct ss_series *series_at(const struct prom_state *pr, size_t i)
{
	return i < pr->st.n ? &pr->st.s[i] : &pr->st.other;
}

static size_t nseries(const struct prom_state *pr)
{
	return pr->st.n + (pr->st.have_other ? 1 : 0);
}

enum val_kind { V_U64, V_SECONDS };

/* One sample per series of the value at byte offset @off of ss_series_val. */
static void per_series(struct ss_prom *p, const struct prom_state *pr,
		       size_t off, enum val_kind kind, const char *xname,
		       const char *xval)
{
	struct ss_prom_label l[NLAB_MAX];
	char v[SS_PROM_VAL_LEN];

	for (size_t i = 0; i < nseries(pr); i++) {
		const struct ss_series *s = series_at(pr, i);
		uint64_t x;
		size_t n = series_labels(pr, i, l, xname, xval);

		memcpy(&x, (const char *)&s->v + off, sizeof(x));
		ss_prom_sample(p, l, n,
			       kind == V_SECONDS ? ss_prom_ns_seconds(v, x)
						 : ss_prom_u64(v, x));
	}
}

#define VOFF(field) offsetof(struct ss_series_val, field)

/*
 * switchstat_perf_events_total of counter @i: series in which the event was
 * never measured (multiplexed, never on the PMU) have no sample, not a 0.
 */
static void per_counted_series(struct ss_prom *p, const struct prom_state *pr,
			       int i, const char *event)
{
	struct ss_prom_label l[NLAB_MAX];
	char v[SS_PROM_VAL_LEN];

	for (size_t k = 0; k < nseries(pr); k++) {
		const struct ss_series *s = series_at(pr, k);
		size_t n;

		if (!(s->v.counted & (1ULL << i)))
			continue;
		n = series_labels(pr, k, l, "event", event);
		ss_prom_sample(p, l, n, ss_prom_u64(v, s->v.counters[i]));
	}
}

static void one_value(struct ss_prom *p, const char *name,
		      enum ss_prom_type type, const char *help,
		      const char *unit, const char *value)
{
	ss_prom_family(p, name, type, help, unit);
	ss_prom_sample(p, NULL, 0, value);
}

static void render_bpf_stats(struct ss_prom *p, const struct ss_app *app)
{
	char v[SS_PROM_VAL_LEN];

	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			ss_prom_family(p, "switchstat_bpf_run_seconds",
				       SS_PROM_COUNTER,
				       "Time the kernel spent running each BPF "
				       "program of switchstat (bpf_stats).",
				       "seconds");
		else
			ss_prom_family(p, "switchstat_bpf_runs",
				       SS_PROM_COUNTER,
				       "Runs of each BPF program of switchstat "
				       "(bpf_stats).",
				       NULL);
		for (int i = 0; i < app->bpf.nprogs; i++) {
			struct bpf_prog_info info;
			uint32_t len = sizeof(info);
			struct ss_prom_label l = { "program",
						   app->bpf.prog_name[i] };

			memset(&info, 0, sizeof(info));
			if (bpf_obj_get_info(app->bpf.prog_fd[i], &info, &len))
				continue;
			ss_prom_sample(p, &l, 1,
				       pass == 0
					       ? ss_prom_ns_seconds(
							 v, info.run_time_ns)
					       : ss_prom_u64(v, info.run_cnt));
		}
	}
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own fd */
}

static long rss_bytes(void)
{
	long pages = -1;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return -1;
	if (fscanf(f, "%*s %ld", &pages) != 1)
		pages = -1;
	fclose(f);
	return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}

static void render_self(struct ss_prom *p, const struct prom_state *pr,
			const struct ss_app *app)
{
	char v[SS_PROM_VAL_LEN];
	struct rusage ru;
	int fds = count_fds();
	long rss = rss_bytes();

	one_value(p, "switchstat_missed_slices", SS_PROM_COUNTER,
		  "Slices not charged to anyone: a context switch on their CPU "
		  "was not seen (the kernel skips regular tracepoint programs "
		  "while a bpf() map syscall runs there, and reports no "
		  "switch of the tasks it hides from tracing).",
		  NULL,
		  ss_prom_u64(v, pr->stats[SS_STAT_MISSED] +
					 pr->stats[SS_STAT_UNREPORTED]));
	one_value(p, "switchstat_dropped_rows", SS_PROM_COUNTER,
		  "Updates lost because the BPF accumulator map was full "
		  "(raise --map-entries).",
		  NULL, ss_prom_u64(v, pr->stats[SS_STAT_DROPS]));
	one_value(p, "switchstat_switches_seen", SS_PROM_COUNTER,
		  "sched_switch events the probes handled.", NULL,
		  ss_prom_u64(v, pr->stats[SS_STAT_SWITCHES]));
	one_value(p, "switchstat_series_overflow_rows", SS_PROM_COUNTER,
		  "Interval rows (and per-cgroup histograms) summed into the "
		  "`other` series because --max-series label sets existed.",
		  NULL,
		  ss_prom_u64(v, pr->st.overflow_rows + pr->hist.overflow +
					 pr->wakers.overflow +
					 pr->stacks.overflow +
					 pr->blame.overflow));
	one_value(p, "switchstat_series_expired", SS_PROM_COUNTER,
		  "Series dropped --series-ttl seconds after their process or "
		  "cgroup was gone.",
		  NULL,
		  ss_prom_u64(v, pr->st.expired + pr->wakers.expired +
					 pr->stacks.expired +
					 pr->blame.expired));
	one_value(p, "switchstat_series", SS_PROM_GAUGE,
		  "Label sets exported now, `other` included.", NULL,
		  ss_prom_u64(v, nseries(pr)));
	one_value(p, "switchstat_scrape_duration_seconds", SS_PROM_GAUGE,
		  "Time the previous interval took to build the exposition "
		  "text that scrapes are served (a scrape itself only sends "
		  "it).",
		  "seconds", ss_prom_ns_seconds(v, pr->render_ns));
	if (pr->collect_realtime_ns)
		one_value(p, "switchstat_last_collect_timestamp_seconds",
			  SS_PROM_GAUGE,
			  "When the values of this exposition were read from "
			  "the kernel (end of the last interval, seconds since "
			  "the epoch): samples lag their scrape by up to one "
			  "interval (-i).",
			  "seconds",
			  ss_prom_ns_seconds(v, pr->collect_realtime_ns));
	one_value(p, "switchstat_http_requests", SS_PROM_COUNTER,
		  "HTTP requests answered, any path or status.", NULL,
		  ss_prom_u64(v, pr->http ? ss_http_requests(pr->http) : 0));
	if (pr->stats_on)
		render_bpf_stats(p, app);
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		uint64_t ns =
			(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
				1000000000ULL +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;

		one_value(p, "process_cpu_seconds", SS_PROM_COUNTER,
			  "User and system CPU time of the switchstat process.",
			  "seconds", ss_prom_ns_seconds(v, ns));
	}
	if (rss >= 0)
		one_value(p, "process_resident_memory_bytes", SS_PROM_GAUGE,
			  "Resident memory of the switchstat process.", "bytes",
			  ss_prom_u64(v, rss));
	if (fds >= 0)
		one_value(p, "process_open_fds", SS_PROM_GAUGE,
			  "Open file descriptors of the switchstat process.",
			  NULL, ss_prom_u64(v, fds));
	ss_prom_family(p, "switchstat_build", SS_PROM_INFO,
		       "Version of switchstat.", NULL);
	ss_prom_sample(p, &(struct ss_prom_label){ "version", SS_VERSION }, 1,
		       "1");
}

static const struct {
	const char *name, *help;
} hist_fam[SS_HK_MAX] = {
	[SS_HK_ONCPU] = { "switchstat_oncpu_slice_seconds",
			  "Length of on-CPU slices, switch-in to switch-out "
			  "(log2 buckets; _sum estimated from bucket "
			  "midpoints)." },
	[SS_HK_OFFCPU] = { "switchstat_offcpu_seconds",
			   "Time blocked, voluntary switch-out to switch-in "
			   "(log2 buckets; _sum estimated from bucket "
			   "midpoints)." },
	[SS_HK_RUNQ] = { "switchstat_runq_latency_seconds",
			 "Run-queue latency, wakeup or preemption to "
			 "switch-in (log2 buckets; _sum estimated from "
			 "bucket midpoints)." },
};

/* the label set of a pair's row (as resolve_labels): into @l, its count */
static size_t pair_labels(const struct prom_state *pr, const struct ss_pair *p,
			  struct labs *lb, struct ss_prom_label *l)
{
	struct ss_series fake = { .key = p->key };
	size_t n = 0;

	resolve_labels(pr, lb, &fake);
	if (!p->key.other)
		lb->comm = p->key.comm; /* not fake's, gone on return */
	if (pr->st.per_process) {
		l[n++] = (struct ss_prom_label){ "pid", lb->pid };
		l[n++] = (struct ss_prom_label){ "comm", lb->comm };
	}
	l[n++] = (struct ss_prom_label){ "cgroup",
					 lb->cgroup ? lb->cgroup : "" };
	l[n++] = (struct ss_prom_label){ "container_id", lb->container };
	return n;
}

/* a cgroup's label values: its path (else its id) and container id */
static void cgroup_labels(const struct prom_state *pr, uint64_t id, char *num,
			  size_t numlen, const char **path, char *container,
			  size_t clen)
{
	*path = id && pr->cg ? ss_cgroup_path(pr->cg, id) : NULL;
	if (!*path) {
		snprintf(num, numlen, "%llu", (unsigned long long)id);
		*path = num;
	}
	if (ss_container_id_from_path(*path, container, clen) != 1)
		container[0] = '\0';
}

/* what a pair's labels point into while its sample is written */
struct pair_bufs {
	struct labs lb;
	char num[2][24];
	char container[2][SS_CONTAINER_SHORT_ID_LEN + 1];
};

/*
 * A family group of a pair store (prom_pairs.h): value v of each pair is
 * family name[v], in seconds (from ns) when seconds[v], else a count;
 * labels() writes a pair's label set into l (NLAB_MAX) and returns its
 * count.  sparse[v]: a pair whose value v is 0 gets no series (the other
 * series excepted).
 */
struct pair_fams {
	int nvals;
	const char *name[SS_PAIR_VALS], *help[SS_PAIR_VALS];
	bool seconds[SS_PAIR_VALS], sparse[SS_PAIR_VALS];
	size_t (*labels)(const struct prom_state *pr, const struct ss_pair *q,
			 struct pair_bufs *b, struct ss_prom_label *l);
};

/* Write the families of @f, one sample per pair of @st (and its other). */
static void render_pairs(struct ss_prom *p, const struct prom_state *pr,
			 const struct ss_pair_store *st,
			 const struct pair_fams *f)
{
	for (int v = 0; v < f->nvals; v++) {
		ss_prom_family(p, f->name[v], SS_PROM_COUNTER, f->help[v],
			       f->seconds[v] ? "seconds" : NULL);
		for (size_t i = 0; i <= st->n; i++) {
			const struct ss_pair *q =
				i < st->n ? &st->p[i] : &st->other;
			struct ss_prom_label l[NLAB_MAX];
			char val[SS_PROM_VAL_LEN];
			struct pair_bufs b;
			size_t n;

			if (i == st->n && !st->have_other)
				continue;
			if (f->sparse[v] && !q->v[v] && !q->key.other)
				continue;
			n = f->labels(pr, q, &b, l);
			ss_prom_sample(
				p, l, n,
				f->seconds[v] ? ss_prom_ns_seconds(val, q->v[v])
					      : ss_prom_u64(val, q->v[v]));
		}
	}
}

/* --wakers: the woken row's labels, then the waker's kind and cgroup (its
 * pid and comm with --metrics-per-process); "other" for the other series */
static size_t waker_labels(const struct prom_state *pr, const struct ss_pair *q,
			   struct pair_bufs *b, struct ss_prom_label *l)
{
	size_t n = pair_labels(pr, q, &b->lb, l);
	const char *cg;
	uint64_t id;

	if (q->key.other) {
		for (int k = 0; k < (pr->st.per_process ? 4 : 2); k++)
			l[n++] =
				(struct ss_prom_label){ k == 0 ? "waker_kind"
							: k == 1
								? "waker_cgroup"
							: k == 2 ? "waker_pid"
								 : "waker_comm",
							"other" };
		return n;
	}
	l[n++] = (struct ss_prom_label){ "waker_kind", ss_pair_extra(q, 0) };
	id = strtoull(ss_pair_extra(q, 3), NULL, 10);
	cg = id && pr->cg ? ss_cgroup_path(pr->cg, id) : NULL;
	if (!cg && id) {
		snprintf(b->num[0], sizeof(b->num[0]), "%llu",
			 (unsigned long long)id);
		cg = b->num[0];
	}
	l[n++] = (struct ss_prom_label){ "waker_cgroup", cg ? cg : "" };
	if (pr->st.per_process) {
		l[n++] = (struct ss_prom_label){ "waker_pid",
						 ss_pair_extra(q, 1) };
		l[n++] = (struct ss_prom_label){ "waker_comm",
						 ss_pair_extra(q, 2) };
	}
	return n;
}

/*
 * The --wakers families: wakeups and the off-CPU time they ended, per
 * woken row and waker (kind; its pid and comm with
 * --metrics-per-process; its cgroup).
 */
static const struct pair_fams wakers_fams = {
	.nvals = 2,
	.name = { "switchstat_wakeups", "switchstat_wakeup_offcpu_seconds" },
	.help = { "Wakeups that ended an off-CPU span, by waker (--wakers; "
		  "waker_kind timer, irq, softirq, idle: interrupt context).",
		  "Off-CPU time that the waker's wakeups ended (--wakers; "
		  "whole spans, charged when the woken task runs)." },
	.seconds = { false, true },
	.labels = waker_labels,
};

/* --stacks: the row's labels and the folded stack ("other") */
static size_t stack_labels(const struct prom_state *pr, const struct ss_pair *q,
			   struct pair_bufs *b, struct ss_prom_label *l)
{
	size_t n = pair_labels(pr, q, &b->lb, l);

	l[n++] = (struct ss_prom_label){ "stack",
					 q->key.other ? "other"
						      : ss_pair_extra(q, 0) };
	return n;
}

/* The --stacks family: off-CPU time per row and folded stack. */
static const struct pair_fams stacks_fams = {
	.nvals = 1,
	.name = { "switchstat_offcpu_stack_seconds" },
	.help = { "Off-CPU time by the stack where the task blocked "
		  "(--stacks; stack: the folded line, "
		  "comm;outermost;...;innermost frame, as offcputime "
		  "-f; with --wakers the waker's after a -- frame)." },
	.seconds = { true },
	.labels = stack_labels,
};

/* --blame -G: the victim's and the culprit's cgroup and container id; a
 * culprit "(idle)" or "(unknown)" as in the table, with no container */
static size_t blame_labels(const struct prom_state *pr, const struct ss_pair *q,
			   struct pair_bufs *b, struct ss_prom_label *l)
{
	const char *vp, *cp, *x;

	if (q->key.other) {
		vp = cp = "other";
		snprintf(b->container[0], sizeof(b->container[0]), "other");
		snprintf(b->container[1], sizeof(b->container[1]), "other");
	} else {
		cgroup_labels(pr, q->key.cgroup_id, b->num[0],
			      sizeof(b->num[0]), &vp, b->container[0],
			      sizeof(b->container[0]));
		x = ss_pair_extra(q, 0);
		if (x[0] == '(') {
			cp = x;
			b->container[1][0] = '\0';
		} else {
			cgroup_labels(pr, strtoull(x, NULL, 10), b->num[1],
				      sizeof(b->num[1]), &cp, b->container[1],
				      sizeof(b->container[1]));
		}
	}
	l[0] = (struct ss_prom_label){ "cgroup", vp };
	l[1] = (struct ss_prom_label){ "container_id", b->container[0] };
	l[2] = (struct ss_prom_label){ "culprit_cgroup", cp };
	l[3] = (struct ss_prom_label){ "culprit_container_id",
				       b->container[1] };
	return 4;
}

/*
 * The --blame -G families: each victim cgroup's run-queue delay (v[0]) and
 * preemptions (v[1]) by culprit cgroup; a victim never preempted by a
 * culprit has no preemptions series.
 */
static const struct pair_fams blame_fams = {
	.nvals = 2,
	.name = { "switchstat_runq_delay_seconds", "switchstat_preemptions" },
	.help = { "Run-queue delay of the victim cgroup while the culprit's "
		  "tasks ran on its CPU (--blame -G; culprit (idle): the CPU "
		  "was idle, (unknown): not seen).",
		  "Involuntary switches of the victim cgroup's tasks by the "
		  "culprit cgroup of the task that took the CPU (--blame "
		  "-G)." },
	.seconds = { true, false },
	.sparse = { false, true },
	.labels = blame_labels,
};

/*
 * -G: each cgroup series' CPU pressure of the last interval (read for the
 * table's CPU-PSI% column), as a ratio.
 */
static void render_psi(struct ss_prom *p, const struct prom_state *pr,
		       const struct ss_app *app)
{
	char v[SS_PROM_VAL_LEN];

	ss_prom_family(p, "switchstat_cpu_pressure_ratio", SS_PROM_GAUGE,
		       "Share of the last interval in which some task of the "
		       "cgroup waited for a CPU (-G; cpu.pressure some, PSI).",
		       NULL);
	for (size_t i = 0; i < pr->st.n; i++) {
		const struct ss_series *s = &pr->st.s[i];
		const struct ss_psi_ent *e = ss_psi_interval(
			app->info.psi, pr->cg ? pr->cg->mount : "",
			pr->cg ? ss_cgroup_path(pr->cg, s->key.cgroup_id)
			       : NULL,
			s->key.cgroup_id, pr->collect_realtime_ns);
		struct ss_prom_label l[NLAB_MAX];
		size_t n;

		if (!e || !e->have_pct)
			continue;
		n = series_labels(pr, i, l, NULL, NULL);
		snprintf(v, sizeof(v), "%.6f", e->pct / 100.0);
		ss_prom_sample(p, l, n, v);
	}
}

static void render(const struct prom_state *pr, const struct ss_app *app,
		   FILE *f, enum ss_prom_format fmt)
{
	const struct ss_opts *o = &app->o;
	struct ss_prom p;

	ss_prom_init(&p, f, fmt);
	ss_prom_family(&p, "switchstat_context_switches", SS_PROM_COUNTER,
		       "Context switches, charged to the task leaving the CPU: "
		       "voluntary (it blocked) or involuntary (preempted).",
		       NULL);
	per_series(&p, pr, VOFF(voluntary), V_U64, "kind", "voluntary");
	per_series(&p, pr, VOFF(involuntary), V_U64, "kind", "involuntary");
	ss_prom_family(
		&p, "switchstat_oncpu_seconds", SS_PROM_COUNTER,
		app->plan->path.task_clock
			? "Time on a CPU, the kernel's clock of the task "
			  "(se.sum_exec_runtime, as schedstat)."
			: "Time on a CPU, from sched_switch to "
			  "sched_switch.",
		"seconds");
	per_series(&p, pr, VOFF(oncpu_ns), V_SECONDS, NULL, NULL);
	if (app->info.nr_counters && !app->info.counters_na) {
		ss_prom_family(&p, "switchstat_perf_events", SS_PROM_COUNTER,
			       "perf event counts per slice (-e); estimates "
			       "when the event was multiplexed, see "
			       "switchstat_perf_events_scaled.",
			       NULL);
		for (int i = 0; i < app->info.nr_counters; i++)
			if (!(app->info.counter_na >> i & 1))
				per_counted_series(&p, pr, i,
						   app->info.ctr_name[i]);
		ss_prom_family(&p, "switchstat_perf_events_scaled",
			       SS_PROM_GAUGE,
			       "1 if some counts of the event were scaled "
			       "for multiplexing in the last interval (the "
			       "PMU had too few counters), else 0.",
			       NULL);
		for (int i = 0; i < app->info.nr_counters; i++) {
			struct ss_prom_label l = { "event",
						   app->info.ctr_name[i] };

			if (app->info.counter_na >> i & 1)
				continue;
			ss_prom_sample(&p, &l, 1,
				       (pr->scaled >> i) & 1 ? "1" : "0");
		}
	}
	if (o->memory && !app->info.mem_na[0]) {
		ss_prom_family(&p, "switchstat_page_faults", SS_PROM_COUNTER,
			       "Page faults (exceptions:page_fault_user and "
			       "_kernel).",
			       NULL);
		per_series(&p, pr, VOFF(faults), V_U64, NULL, NULL);
	}
	if (o->memory && !app->info.mem_na[1]) {
		ss_prom_family(&p, "switchstat_page_allocs", SS_PROM_COUNTER,
			       "Page allocations (kmem:mm_page_alloc).", NULL);
		per_series(&p, pr, VOFF(pgalloc), V_U64, NULL, NULL);
	}
	if (o->memory && !app->info.mem_na[2]) {
		ss_prom_family(&p, "switchstat_direct_reclaims",
			       SS_PROM_COUNTER,
			       "Direct reclaim episodes (vmscan).", NULL);
		per_series(&p, pr, VOFF(reclaim_count), V_U64, NULL, NULL);
		ss_prom_family(&p, "switchstat_direct_reclaim_seconds",
			       SS_PROM_COUNTER, "Time in direct reclaim.",
			       "seconds");
		per_series(&p, pr, VOFF(reclaim_ns), V_SECONDS, NULL, NULL);
	}
	if (o->offcpu) {
		static const char *const state[SS_OFF_MAX] = {
			[SS_OFF_SLEEP] = "sleep",
			[SS_OFF_BLOCK] = "block",
			[SS_OFF_KILLABLE] = "killable",
			[SS_OFF_IOWAIT] = "iowait",
			[SS_OFF_IDLE] = "idle",
			[SS_OFF_STOPPED] = "stopped",
			[SS_OFF_TRACED] = "traced",
			[SS_OFF_RUNQ] = "runq",
			[SS_OFF_OTHER] = "other",
		};

		ss_prom_family(&p, "switchstat_offcpu_state_seconds",
			       SS_PROM_COUNTER,
			       "Time off a CPU, by the state the task left it "
			       "in (--offcpu; runq: preempted, waiting for a "
			       "CPU).",
			       "seconds");
		for (int k = 0; k < SS_OFF_MAX; k++)
			per_series(&p, pr, VOFF(off_ns[k]), V_SECONDS, "state",
				   state[k]);
	}
	if (o->wakers)
		render_pairs(&p, pr, &pr->wakers, &wakers_fams);
	if (o->stacks)
		render_pairs(&p, pr, &pr->stacks, &stacks_fams);
	if (o->blame && o->per_cgroup)
		render_pairs(&p, pr, &pr->blame, &blame_fams);
	if (app->info.psi)
		render_psi(&p, pr, app);
	for (int k = 0; k < SS_HK_MAX; k++) {
		static const unsigned int bit[SS_HK_MAX] = {
			[SS_HK_ONCPU] = SS_HIST_ONCPU,
			[SS_HK_OFFCPU] = SS_HIST_OFFCPU,
			[SS_HK_RUNQ] = SS_HIST_RUNQ,
		};

		if (!(o->hist & bit[k]))
			continue;
		ss_prom_family(&p, hist_fam[k].name, SS_PROM_HISTOGRAM,
			       hist_fam[k].help, "seconds");
		/* one per cgroup (its labels as the other series'), other */
		for (size_t i = 0; i <= pr->hist.n; i++) {
			const struct ss_hist_series *h =
				i < pr->hist.n ? &pr->hist.s[i]
					       : &pr->hist.other;
			struct ss_series fake = {
				.key = { .cgroup_id = h->cgroup_id,
					 .other = h->other }
			};
			struct ss_prom_label l[2];
			struct labs lb;

			if (!(h->kinds & (1U << k)) ||
			    (h->other && !pr->hist.have_other))
				continue;
			resolve_labels(pr, &lb, &fake);
			l[0] = (struct ss_prom_label){ "cgroup",
						       lb.cgroup ? lb.cgroup
								 : "" };
			l[1] = (struct ss_prom_label){ "container_id",
						       lb.container };
			ss_prom_histogram(&p, l, 2, h->slots[k], SS_HIST_SLOTS,
					  pr->hist_ms ? 1000000 : 1000);
		}
	}
	render_self(&p, pr, app);
	ss_prom_end(&p);
}

static void publish(struct prom_state *pr, const struct ss_app *app)
{
	uint64_t t0 = now_ns();
	char *buf[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	size_t n = nseries(pr);

	if (n > pr->labs_cap) {
		struct labs *l = realloc(pr->labs, n * 2 * sizeof(*l));

		if (!l)
			return;
		pr->labs = l;
		pr->labs_cap = n * 2;
	}
	for (size_t i = 0; i < n; i++)
		resolve_labels(pr, &pr->labs[i], series_at(pr, i));
	for (int fmt = 0; fmt < 2; fmt++) {
		FILE *f = open_memstream(&buf[fmt], &len[fmt]);

		if (!f)
			goto fail;
		render(pr, app, f, fmt);
		if (fclose(f))
			goto fail;
	}
	ss_http_publish(pr->http, buf[0], len[0], buf[1], len[1]);
	pr->render_ns = now_ns() - t0;
	return;
fail:
	free(buf[0]);
	free(buf[1]);
}

/*
 * After every attach (the probes run): bind and serve.  Nothing listens
 * before, so a run that fails to load its programs never answers a scrape.
 */
static int prom_start(struct ss_app *app, void *st)
{
	struct prom_state *pr = st;
	const struct ss_opts *o = &app->o;
	struct sockaddr_storage ss;
	unsigned int sslen;
	char err[256];

	if (!o->listen)
		return 0;
	if (ss_series_init(
		    &pr->st, o->metrics_per_process,
		    o->max_series ? o->max_series : SS_PROM_MAX_SERIES,
		    (o->series_ttl_s ? o->series_ttl_s : SS_PROM_SERIES_TTL_S) *
			    1000000000ULL)) {
		fprintf(stderr, "switchstat: --listen: out of memory\n");
		return 1;
	}
	pr->st.alive = series_alive;
	pr->st.alive_ctx = pr;
	if (ss_pair_init(&pr->wakers, pr->st.max_series, pr->st.ttl_ns) ||
	    ss_pair_init(&pr->stacks, pr->st.max_series, pr->st.ttl_ns) ||
	    ss_pair_init(&pr->blame, pr->st.max_series, pr->st.ttl_ns)) {
		fprintf(stderr, "switchstat: --listen: out of memory\n");
		return 1;
	}
	pr->wakers.alive = pr->stacks.alive = pr->blame.alive = series_alive;
	pr->wakers.alive_ctx = pr->stacks.alive_ctx = pr->blame.alive_ctx = pr;
	if (o->blame && !o->per_cgroup)
		ss_diag("--listen: the run-queue delay and preemption series "
			"are by cgroup: they need -G");
	ss_hist_store_init(&pr->hist, pr->st.max_series, pr->st.ttl_ns);
	pr->hist.alive = hist_alive;
	pr->hist.alive_ctx = pr;
	pr->st.ctr_timed = app->info.ctr_timed;
	pr->cg = app->info.cg;
	if (!pr->cg) {
		char mount[PATH_MAX];

		pr->cg = calloc(1, sizeof(*pr->cg));
		if (pr->cg && ss_cgroup_v2_mount(mount, sizeof(mount)) == 0) {
			ss_cgroup_cache_init(pr->cg, mount);
			if (o->verbose)
				ss_cgroup_cache_set_diag(pr->cg, stderr);
			pr->own_cg = true;
		} else {
			free(pr->cg);
			pr->cg = NULL;
		}
	}
	if (ss_parse_listen(o->listen, &ss, &sslen)) {
		fprintf(stderr, "switchstat: invalid listen address '%s'\n",
			o->listen);
		return 2;
	}
	pr->http =
		ss_http_start((struct sockaddr *)&ss, sslen, err, sizeof(err));
	if (!pr->http) {
		fprintf(stderr, "switchstat: %s\n", err);
		return 1;
	}
	publish(pr, app); /* nothing counted yet: only the self metrics */
	if (o->verbose)
		fprintf(stderr, "switchstat: serving metrics on %s/metrics\n",
			o->listen);
	return 0;
}

/* a row's label set: its cgroup, and with --metrics-per-process its tgid, comm */
static void pair_key(const struct prom_state *pr, struct ss_series_key *k,
		     uint32_t tgid, const char *comm, uint64_t cgroup_id)
{
	memset(k, 0, sizeof(*k));
	k->cgroup_id = cgroup_id;
	if (pr->st.per_process) {
		k->tgid = tgid;
		memcpy(k->comm, comm, strnlen(comm, SS_COMM_LEN - 1));
	}
}

/*
 * The interval's --wakers pairs and --stacks stacks (consumed: n set to
 * 0) into their series.  A waker's extra labels: kind, pid, comm (with
 * --metrics-per-process, else empty), cgroup id.
 */
static void add_offwake(struct prom_state *pr, struct ss_offwake_last *ow,
			uint64_t now)
{
	struct ss_series_key k;

	for (size_t i = 0; i < ow->nwakers; i++) {
		const struct ss_waker_row *r = &ow->wakers[i];
		bool task = r->k.kind == SS_WK_TASK;
		char extra[128];
		uint64_t v[SS_PAIR_VALS] = { r->v.count, r->v.off_ns };
		int len;

		pair_key(pr, &k, r->k.victim_tgid, r->v.victim_comm,
			 r->k.victim_cgroup);
		len = snprintf(extra, sizeof(extra), "%s%c",
			       ss_waker_kind_name(r->k.kind), 0);
		if (pr->st.per_process && task)
			len += snprintf(extra + len, sizeof(extra) - len,
					"%u%c%.*s%c", r->k.waker_tgid, 0,
					SS_COMM_LEN - 1, r->v.waker_comm, 0);
		else
			len += snprintf(extra + len, sizeof(extra) - len,
					"%c%c", 0, 0);
		len += snprintf(
			extra + len, sizeof(extra) - len, "%llu",
			(unsigned long long)(task ? r->k.waker_cgroup : 0));
		ss_pair_add(&pr->wakers, &k, extra, (size_t)len + 1, v, now);
	}
	ow->nwakers = 0;
	for (size_t i = 0; i < ow->nstacks; i++) {
		const struct ss_stack_rec *r = &ow->stacks[i];
		uint64_t v[SS_PAIR_VALS] = { r->ns, 0 };

		pair_key(pr, &k, r->tgid, r->comm, r->cgroup_id);
		ss_pair_add(&pr->stacks, &k, r->folded, strlen(r->folded) + 1,
			    v, now);
	}
	ow->nstacks = 0;
}

/*
 * The interval's --blame -G pairs into their series: the victim cgroup's
 * key, the culprit's cgroup id (or its label) as the extra label value.
 */
static void add_blame_pair(struct prom_state *pr,
			   const struct ss_blame_key *key, uint64_t delay_ns,
			   uint64_t preemptions, uint64_t now)
{
	const char *label = ss_blame_culprit_label(key);
	struct ss_series_key k = { .cgroup_id = key->victim_cgroup };
	uint64_t v[SS_PAIR_VALS] = { delay_ns, preemptions };
	char extra[32];
	int len;

	len = label ? snprintf(extra, sizeof(extra), "%s", label)
		    : snprintf(extra, sizeof(extra), "%llu",
			       (unsigned long long)key->culprit_cgroup);
	ss_pair_add(&pr->blame, &k, extra, (size_t)len + 1, v, now);
}

static void add_blame(struct prom_state *pr, const struct ss_blame_last *b,
		      uint64_t now)
{
	for (size_t i = 0; i < b->n; i++)
		add_blame_pair(pr, &b->rows[i].key, b->rows[i].v.delay_ns, 0,
			       now);
	for (size_t i = 0; i < b->np; i++)
		add_blame_pair(pr, &b->prows[i].key, 0, b->prows[i].v.count,
			       now);
}

/* Each interval, after the table: add its rows, publish a snapshot. */
static int prom_interval(struct ss_app *app, void *st)
{
	struct prom_state *pr = st;
	const struct ss_interval *iv = &app->iv;
	/* the probes' records, keyed by cgroup (SS_HIST_CGROUP) */
	const struct ss_hist_rec *recs = app->hist.raw;
	uint64_t now = now_ns();

	if (!pr->http)
		return 0;
	pr->scaled = 0;
	for (size_t i = 0; i < iv->n; i++) {
		ss_series_add(&pr->st, &iv->rows[i], now);
		pr->scaled |= iv->rows[i].v.counter_scaled;
	}
	for (int i = 0; i < SS_STAT_MAX; i++)
		pr->stats[i] += iv->stats[i];
	pr->hist_ms = app->hist.ms;
	for (size_t r = 0; recs && r < app->hist.raw_n; r++)
		if (ss_hist_total(&recs[r].val))
			ss_hist_store_add(&pr->hist, recs[r].key.cgroup_id,
					  recs[r].key.kind,
					  (const uint64_t *)recs[r].val.slots,
					  now);
	add_offwake(pr, &app->offwake, now);
	if (app->o.blame && app->o.per_cgroup)
		add_blame(pr, &app->blame, now);
	ss_series_expire(&pr->st, now);
	ss_hist_store_expire(&pr->hist, now);
	ss_pair_expire(&pr->wakers, now);
	ss_pair_expire(&pr->stacks, now);
	ss_pair_expire(&pr->blame, now);
	pr->collect_realtime_ns = iv->end_realtime_ns;
	publish(pr, app);
	return 0;
}

static void prom_close(struct ss_app *app, void *st)
{
	struct prom_state *pr = st;

	ss_http_stop(pr->http);
	pr->http = NULL;
	ss_series_free(&pr->st);
	ss_hist_store_free(&pr->hist);
	ss_pair_free(&pr->wakers);
	ss_pair_free(&pr->stacks);
	ss_pair_free(&pr->blame);
	free(pr->labs);
	pr->labs = NULL;
	pr->labs_cap = 0;
	if (pr->own_cg) {
		ss_cgroup_cache_free(pr->cg);
		free(pr->cg);
	}
	pr->cg = NULL;
	pr->own_cg = false;
	if (pr->stats_on)
		close(pr->stats_fd);
	pr->stats_on = false;
}

const struct ss_feature ss_feat_prom = {
	.name = "prom",
	.state_size = sizeof(struct prom_state),
	.configure = prom_configure,
	.start = prom_start,
	.on_interval = prom_interval,
	.close = prom_close,
};

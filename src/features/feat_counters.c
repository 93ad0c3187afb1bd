// SPDX-License-Identifier: GPL-2.0
/*
 * feat_counters.c - perf counters read at each context switch.
 *
 * The host opens one counting perf event per event and possible CPU
 * (perf_event_open(attr, pid -1, cpu), read_format TOTAL_TIME_ENABLED |
 * RUNNING) before the probes are compiled, and stores the fds in the
 * BPF_PERF_ARRAY maps ctr0..ctr7 (probes/counters.bpf.h), indexed by CPU.
 * At each sched_switch the probe reads the current CPU's counters and
 * charges the deltas to the task leaving the CPU.
 *
 * Without a PMU (most VMs) the default events cannot be opened: we warn
 * once, the table leaves the counter columns out (CSV/JSON keep them,
 * empty/null) and the probe compiles no counter code at all.  Events
 * named with -e must work, or the run fails (exit 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "cpus.h"
#include "feat_counters.h"
#include "event_encode.h"
#include "perf_open.h"
#include "testseam.h"

struct ctr_state {
	struct ss_event ev[SS_MAX_EVENTS];
	int nr_parsed; /* events chosen by ctr_check: ev[0 .. nr_parsed) */
	int nr; /* events opened and loaded into the probe */
	int ncpus; /* possible CPUs: columns of fd */
	int *fd; /* [nr][ncpus]; -1 where not open */
	int map[SS_MAX_EVENTS]; /* the ctrN maps holding them */
};

static int *fd_at(struct ctr_state *ctr, int ev, int cpu)
{
	return &ctr->fd[ev * ctr->ncpus + cpu];
}

static void close_all(struct ctr_state *ctr)
{
	if (!ctr->fd)
		return;
	for (int i = 0; i < SS_MAX_EVENTS * ctr->ncpus; i++)
		if (ctr->fd[i] >= 0)
			close(ctr->fd[i]);
	free(ctr->fd);
	ctr->fd = NULL;
}

/* Online CPUs; all possible CPUs count as online if the file is unreadable. */
static void read_online(bool *online, int ncpus)
{
	if (!ss_online_cpus(online, ncpus))
		return;
	for (int c = 0; c < ncpus; c++)
		online[c] = true;
}

/*
 * The test seam ctr_off=I (testseam.h): open counter I disabled, so it
 * never runs (time_enabled and time_running stay 0), as a multiplexed
 * event that is never scheduled on the PMU; lets the tests see "not
 * counted" through the probes on machines without a PMU.
 */
static bool test_off(int i)
{
	return ss_seam(SS_SEAM_CTR_OFF) &&
	       ss_seam_value(SS_SEAM_CTR_OFF) == (uint64_t)i;
}

/*
 * Open event i on every possible CPU.  Returns the number of CPUs opened
 * (offline CPUs and ENODEV skipped, said with -v), or -1 with the errno of
 * the first real failure in *err_out.
 */
static int open_event(struct ss_app *app, struct ctr_state *ctr, int i,
		      const bool *online, int *err_out)
{
	struct perf_event_attr attr;
	int opened = 0;

	ss_perf_attr(&ctr->ev[i], &attr);
	if (test_off(i))
		attr.disabled = 1;
	for (int cpu = 0; cpu < ctr->ncpus; cpu++) {
		int fd = -1, err = ENODEV;

		if (online[cpu]) {
			fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
				     PERF_FLAG_FD_CLOEXEC);
			err = errno;
		}
		if (fd >= 0) {
			*fd_at(ctr, i, cpu) = fd;
			opened++;
			continue;
		}
		if (ss_perf_classify(err, &ctr->ev[i], online[cpu]) !=
		    SS_OPEN_SKIP_CPU) {
			*err_out = err;
			return -1;
		}
		if (app->o.verbose)
			ss_diag("%s: CPU %d skipped (%s)", ctr->ev[i].name, cpu,
				online[cpu] ? strerror(err) : "offline");
	}
	if (!opened)
		*err_out = ENODEV;
	return opened ? opened : -1;
}

/* Tell the report which columns to show. */
static void set_columns(struct ss_app *app, struct ctr_state *ctr, int n,
			bool na)
{
	app->info.nr_counters = n;
	app->info.counters_na = na;
	for (int i = 0; i < n; i++)
		ss_event_canonical(&ctr->ev[i], app->info.ctr_name[i],
				   sizeof(app->info.ctr_name[i]));
}

/* Parse -e (user input): 0 or 2. */
static int ctr_check(struct ss_app *app, void *st)
{
	struct ctr_state *ctr = st;
	char err[256];

	if (app->o.no_counters)
		return 0;
	if (!app->o.events_given) {
		ctr->nr_parsed = ss_events_default(ctr->ev);
		return 0;
	}
	ctr->nr_parsed =
		ss_events_parse_with(app->o.events, ctr->ev, SS_MAX_EVENTS,
				     ss_event_resolve, err, sizeof(err));
	if (ctr->nr_parsed < 0) {
		ss_diag("-e: %s", err);
		fprintf(stderr, "Try 'switchstat -h' for more information.\n");
		return 2;
	}
	return 0;
}

/*
 * A default event (ev[i], i > 0: an earlier one opened, so there is a
 * PMU) that this PMU lacks, e.g. cache-misses on QEMU's arm64 PMUv3: say
 * so once, close what it opened and move it after the last of the n
 * events still to open, so the others are read and it shows n/a.
 * Returns true if it was moved, false if the whole set must go n/a.
 */
static bool miss_default(struct ss_app *app, struct ctr_state *ctr, int i,
			 int n, int e)
{
	struct ss_event ev = ctr->ev[i];

	if (ss_perf_classify(e, &ev, true) != SS_OPEN_NO_PMU)
		return false;
	ss_diag("hardware counter unavailable: %s: %s (%s); the table "
		"leaves out its column and the ratios needing it (CSV/JSON: "
		"empty/null)",
		ev.name, strerror(e), ss_perf_why(e, &ev));
	for (int cpu = 0; cpu < ctr->ncpus; cpu++) {
		if (*fd_at(ctr, i, cpu) >= 0)
			close(*fd_at(ctr, i, cpu));
		*fd_at(ctr, i, cpu) = -1;
	}
	/* fds of i+1 .. n-1 are not open yet: only the names move */
	memmove(&ctr->ev[i], &ctr->ev[i + 1], (n - 1 - i) * sizeof(ev));
	ctr->ev[n - 1] = ev;
	return true;
}

/*
 * Open the events ctr_check chose on every CPU; sets ctr->nr when the
 * probe must read counters.  Returns 0 or 1 (environment).
 */
static int open_counters(struct ss_app *app, struct ctr_state *ctr)
{
	int n = ctr->nr_parsed, i, ret = 1;
	bool *online;

	ctr->ncpus = app->ncpus_possible;
	ctr->fd = malloc(sizeof(int) * SS_MAX_EVENTS * ctr->ncpus);
	online = calloc(ctr->ncpus, sizeof(*online));
	if (!ctr->fd || !online) {
		ss_diag("out of memory");
		goto out;
	}
	for (i = 0; i < SS_MAX_EVENTS * ctr->ncpus; i++)
		ctr->fd[i] = -1;
	read_online(online, ctr->ncpus);

	for (i = 0; i < n; i++) {
		int e = 0;

		if (open_event(app, ctr, i, online, &e) >= 0)
			continue;
		if (!app->o.events_given && i > 0 &&
		    miss_default(app, ctr, i, n, e)) {
			/* ev[i] moved last, not loaded: the next is at i */
			n--;
			i--;
			continue;
		}
		close_all(ctr);
		if (!app->o.events_given) {
			/* start anyway, say so once, never show zeros */
			ss_diag("hardware counters unavailable: "
				"%s: %s (%s); the table leaves out the "
				"counter columns (CSV/JSON: empty/null)",
				ctr->ev[i].name, strerror(e),
				ss_perf_why(e, &ctr->ev[i]));
			set_columns(app, ctr, n, true);
			ret = 0;
			goto out;
		}
		ss_diag("cannot count \"%s\": %s%s (%s)", ctr->ev[i].name,
			ss_perf_classify(e, &ctr->ev[i], true) == SS_OPEN_NO_PMU
				? "hardware counters unavailable: "
				: "",
			strerror(e), ss_perf_why(e, &ctr->ev[i]));
		goto out;
	}
	ctr->nr = n;
	set_columns(app, ctr, ctr->nr_parsed, false);
	for (i = n; i < ctr->nr_parsed; i++)
		app->info.counter_na |= 1ULL << i;
	if (app->o.verbose)
		for (i = 0; i < n; i++)
			ss_diag("counter %d: %s (type %u config "
				"0x%llx)",
				i, app->info.ctr_name[i], ctr->ev[i].type,
				(unsigned long long)ctr->ev[i].config);
	ret = 0;
out:
	free(online);
	return ret;
}

/*
 * Open the perf events (root), and tell the plan how many opened and
 * which are not software events (those can be multiplexed: read with
 * their times).  0 or 1.
 */
static int ctr_open(struct ss_app *app, void *st)
{
	struct ctr_state *ctr = st;
	int ret = 0;

	if (!app->o.no_counters)
		ret = open_counters(app, ctr);
	if (ret)
		return ret;
	if (ss_seam(SS_SEAM_CTR_OFF) &&
	    ss_seam_value(SS_SEAM_CTR_OFF) >= (uint64_t)ctr->nr) {
		ss_diag("%s=%s=%llu: there are %d counters", SS_SEAM_ENV,
			ss_seam_name(SS_SEAM_CTR_OFF),
			(unsigned long long)ss_seam_value(SS_SEAM_CTR_OFF),
			ctr->nr);
		return 1;
	}
	/* 0: the probe compiles no counter code at all */
	app->facts.opened.counters = ctr->nr;
	for (int i = 0; i < ctr->nr; i++)
		if (ctr->ev[i].type != PERF_TYPE_SOFTWARE)
			app->facts.opened.ctr_hw |= 1ULL << i;
	return 0;
}

/* The plan's counter settings (plan.c decide_ctr) for the report. */
static int ctr_configure(struct ss_app *app, void *st)
{
	const struct ss_plan_ctr *c = &app->plan->ctr;

	if (!c->nr)
		return 0;
	app->info.ctr_timed = c->times;
	if (app->o.verbose && !c->atomic_or)
		ss_diag("no BPF atomic OR (Linux < 5.12): scaled marks "
			"are set without it, so two CPUs charging one "
			"row at once can drop one");
	return 0;
}

/* Store the perf fds in the ctrN maps the probe reads. */
static int ctr_attach(struct ss_app *app, void *st)
{
	struct ctr_state *ctr = st;

	for (int i = 0; i < ctr->nr; i++) {
		char name[16];
		int map;

		snprintf(name, sizeof(name), "ctr%d", i);
		map = ss_bpf_map_fd(&app->bpf, name);
		if (map < 0) {
			ss_diag("BPF map %s missing", name);
			return 1;
		}
		ctr->map[i] = map;
		for (int cpu = 0; cpu < ctr->ncpus; cpu++) {
			int fd = *fd_at(ctr, i, cpu);

			if (fd < 0)
				continue;
			if (bpf_update_elem(map, &cpu, &fd, BPF_ANY)) {
				ss_diag("cannot store perf event "
					"%s (CPU %d) in BPF map: %s",
					ctr->ev[i].name, cpu, strerror(errno));
				return 1;
			}
		}
	}
	return 0;
}

/*
 * CPU cpu is back online: open each counter there again and put the new
 * fd in its map (the kernel leaves the old event off).  The probe takes a
 * new baseline (probes/hotplug.bpf.h).  0 or -errno of the first failure.
 */
static int ctr_cpu_up(struct ss_app *app, void *st, int cpu)
{
	struct ctr_state *ctr = st;
	int first = 0;

	for (int i = 0; i < ctr->nr && cpu < ctr->ncpus; i++) {
		struct perf_event_attr attr;
		int *slot = fd_at(ctr, i, cpu);
		int fd;

		ss_perf_attr(&ctr->ev[i], &attr);
		fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 ||
		    bpf_update_elem(ctr->map[i], &cpu, &fd, BPF_ANY)) {
			if (!first)
				first = -errno;
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (*slot >= 0)
			close(*slot);
		*slot = fd;
	}
	return first;
}

static void ctr_close(struct ss_app *app, void *st)
{
	struct ctr_state *ctr = st;

	close_all(ctr);
	ctr->nr = 0;
}

const struct ss_feature ss_feat_counters = {
	.name = "counters",
	.state_size = sizeof(struct ctr_state),
	.check = ctr_check,
	.open = ctr_open,
	.configure = ctr_configure,
	.attach = ctr_attach,
	.close = ctr_close,
	.cpu_up = ctr_cpu_up,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * feat_trace.c - --trace: one line per context switch.
 *
 * The probe (probes/trace.bpf.h) sends a struct ss_trace_event per switch
 * through a BPF_PERF_OUTPUT map; here one perf buffer per online CPU is
 * opened with libbcc's bpf_open_perf_buffer_opts (as bcc's
 * table.py open_perf_buffer does) and drained with perf_reader_poll.
 * Records the probe could not send (buffer full) are counted by the probe
 * itself, per CPU (trace_lost): that count is the one reported, on stderr
 * as it grows ("Lost N events on CPU M", as bcc does) and in the total at
 * exit.  The kernel's own lost records are not: it writes one only when a
 * later record fits, so drops while a buffer stays full (a slow reader, or
 * the trace's end) never reach the reader; -v shows them beside the
 * probe's count (they are a part of it, never added to it).
 *
 * Events of different CPUs sit in different buffers, so lines are in time
 * order per CPU only; sort by ts_ns for a global order.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bcc/libbpf.h>
#include <bcc/perf_reader.h>

#include "cpus.h"
#include "feat_trace.h"
#include "timens.h"
#include "trace_fmt.h"

/*
 * Per-CPU buffer size in pages (power of two): 1024 pages = 4 MiB holds
 * ~40k records without counters, ~0.2 s of a busy CPU if the reader stalls.
 */
#define TRACE_PAGES 1024
/* wake the reader every this many records per CPU (fewer wakeups) */
#define TRACE_WAKEUP_EVENTS 64
/* poll timeout: partial batches are printed at least this often */
#define TRACE_POLL_MS 100
/* stdout buffer: lines leave in large writes */
#define TRACE_STDIO_BUF (1 << 20)

struct trace_state;

struct trace_cpu {
	struct trace_state *tr;
	int cpu;
	uint64_t events;
	uint64_t kernel_lost; /* the kernel's lost records (part of lost[]) */
};

struct trace_state {
	struct ss_trace_fmt fmt;
	struct ss_emit e; /* the report's stream in the run's format */
	FILE *f;
	struct perf_reader **readers;
	struct trace_cpu *cpus;
	int nreaders;
	uint64_t bad; /* records too short to decode */
	int map_fd; /* trace_events */
	int lost_fd; /* trace_lost: per-CPU records the probe could not send */
	int on_fd; /* trace_on: 1 while the probe sends records */
	uint64_t *lost; /* per possible CPU: trace_lost as last reported */
	uint64_t *lost_buf; /* one trace_lost lookup: every possible CPU */
	int ncpus; /* possible CPUs: size of cpus, readers and reopen */
	/* reopen[cpu]: the CPU came back online (set by the hotplug thread) */
	int *reopen;
	/*
	 * The trace's start, read before sched_switch is attached so that
	 * every event is after it: CLOCK_MONOTONIC and CLOCK_REALTIME, ns.
	 */
	uint64_t t0_mono_ns, t0_real_ns;
};

/* perf_reader raw callback: one record */
static void on_event(void *cookie, void *raw, int size)
{
	struct trace_cpu *c = cookie;
	struct trace_state *tr = c->tr;

	if (size < 0 || ss_trace_print(&tr->fmt, raw, size)) {
		tr->bad++;
		return;
	}
	c->events++;
}

/*
 * perf_reader lost callback: the kernel's lost record, written only once a
 * later record fits; the probe counted these drops already (report_lost)
 */
static void on_lost(void *cookie, uint64_t lost)
{
	struct trace_cpu *c = cookie;

	c->kernel_lost += lost;
}

/*
 * Read the probe's per-CPU lost counts and report what is new on stderr,
 * one "Lost N events on CPU M" line per CPU, as bcc does.  Returns 0, or
 * -1 if the map cannot be read (said once).
 */
static int report_lost(struct trace_state *tr)
{
	static int said;
	__u32 zero = 0;

	if (bpf_lookup_elem(tr->lost_fd, &zero, tr->lost_buf)) {
		if (!said++)
			ss_diag("cannot read trace_lost: %s", strerror(errno));
		return -1;
	}
	for (int cpu = 0; cpu < tr->ncpus; cpu++) {
		uint64_t n = tr->lost_buf[cpu];

		if (n <= tr->lost[cpu])
			continue;
		fprintf(stderr, "Lost %" PRIu64 " events on CPU %d\n",
			n - tr->lost[cpu], cpu);
		tr->lost[cpu] = n;
	}
	return 0;
}

/*
 * Start (1) or stop (0) the probe's records; 0 or -1 (message printed).
 * Stopping returns once no program that saw the old value still runs:
 * tracepoint programs run inside an RCU read-side section, and
 * membarrier(MEMBARRIER_CMD_GLOBAL) waits for a grace period
 * (synchronize_rcu); where it is refused (nohz_full), a 20 ms sleep, far
 * longer than any program run.
 */
static int trace_set_on(struct trace_state *tr, __u32 on)
{
	__u32 zero = 0;

	if (bpf_update_elem(tr->on_fd, &zero, &on, BPF_ANY)) {
		ss_diag("cannot set trace_on: %s", strerror(errno));
		return -1;
	}
	if (!on && syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) != 0) {
		struct timespec ts = { 0, 20 * 1000000L };

		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Options that do not apply to --trace (user input): 0 or 2. */
static int trace_check(struct ss_app *app, void *st)
{
	const struct ss_opts *o = &app->o;
	const char *clash = NULL;

	if (!o->trace)
		return 0;
	if (o->hist)
		clash = "--hist";
	else if (o->per_cgroup)
		clash = "-G";
	else if (o->memory)
		clash = "-M";
	else if (o->idle)
		clash = "--idle";
	else if (o->check)
		clash = "--check";
	if (clash) {
		ss_diag("--trace prints events, not intervals: %s "
			"does not apply\n"
			"Try 'switchstat -h' for more information.",
			clash);
		return 2;
	}
	return 0;
}

static int trace_configure(struct ss_app *app, void *st)
{
	char *stdio_buf;

	if (!app->o.trace)
		return 0;
	/*
	 * before anything is written to the stream; never freed: stdout may
	 * still be flushed at exit
	 */
	stdio_buf = malloc(TRACE_STDIO_BUF);
	if (stdio_buf)
		setvbuf(app->f, stdio_buf, _IOFBF, TRACE_STDIO_BUF);
	return 0;
}

/*
 * Open CPU cpu's perf buffer and store its fd in trace_events; c keeps the
 * CPU's counts across a reopen.  Returns the reader, or NULL (message
 * printed).
 */
static struct perf_reader *open_buffer(struct trace_state *tr,
				       struct trace_cpu *c, int cpu)
{
	struct bcc_perf_buffer_opts opts = {
		.pid = -1,
		.cpu = cpu,
		.wakeup_events = TRACE_WAKEUP_EVENTS,
	};
	struct perf_reader *r;
	int fd;

	c->tr = tr;
	c->cpu = cpu;
	r = bpf_open_perf_buffer_opts(on_event, on_lost, c, TRACE_PAGES, &opts);
	if (!r) {
		ss_diag("cannot open a %d-page perf buffer on CPU %d "
			"(perf_event_open or mmap failed: see above; "
			"perf_event_mlock_kb?)",
			TRACE_PAGES, cpu);
		return NULL;
	}
	fd = perf_reader_fd(r);
	if (bpf_update_elem(tr->map_fd, &cpu, &fd, 0)) {
		ss_diag("cannot attach the perf buffer of CPU %d: %s", cpu,
			strerror(errno));
		perf_reader_free(r);
		return NULL;
	}
	return r;
}

/* One perf buffer per online CPU, stored in the trace_events map. */
static int trace_attach(struct ss_app *app, void *st)
{
	struct trace_state *tr = st;
	int n = app->ncpus_possible;
	bool *online;

	if (!app->o.trace)
		return 0;
	/* core's start() attaches sched_switch after every attach */
	tr->t0_mono_ns = ss_clock_ns(CLOCK_MONOTONIC);
	tr->t0_real_ns = ss_clock_ns(CLOCK_REALTIME);
	tr->f = app->f;
	tr->ncpus = n;
	tr->map_fd = ss_bpf_map_fd(&app->bpf, "trace_events");
	tr->lost_fd = ss_bpf_map_fd(&app->bpf, "trace_lost");
	tr->on_fd = ss_bpf_map_fd(&app->bpf, "trace_on");
	if (tr->map_fd < 0 || tr->lost_fd < 0 || tr->on_fd < 0) {
		ss_diag("BPF map trace_events, trace_lost or trace_on missing");
		return 1;
	}
	online = calloc(n, sizeof(*online));
	tr->readers = calloc(n, sizeof(*tr->readers));
	tr->cpus = calloc(n, sizeof(*tr->cpus));
	tr->reopen = calloc(n, sizeof(*tr->reopen));
	tr->lost = calloc(n, sizeof(*tr->lost));
	/* a per-CPU value is rounded up to 8 bytes per CPU: a __u64 is */
	tr->lost_buf = calloc(n, sizeof(*tr->lost_buf));
	if (!online || !tr->readers || !tr->cpus || !tr->reopen || !tr->lost ||
	    !tr->lost_buf) {
		free(online);
		ss_diag("out of memory");
		return 1;
	}
	if (ss_online_cpus(online, n)) {
		free(online);
		ss_diag("cannot read "
			"/sys/devices/system/cpu/online");
		return 1;
	}
	for (int cpu = 0; cpu < n; cpu++) {
		struct perf_reader *r;

		if (!online[cpu])
			continue;
		r = open_buffer(tr, &tr->cpus[tr->nreaders], cpu);
		if (!r) {
			free(online);
			return 1;
		}
		tr->readers[tr->nreaders++] = r;
	}
	free(online);
	/* records start with the buffers: sched_switch is attached next */
	if (trace_set_on(tr, 1))
		return 1;
	if (app->o.verbose)
		ss_diag("trace: %d perf buffers of %d pages, "
			"wakeup every %d events",
			tr->nreaders, TRACE_PAGES, TRACE_WAKEUP_EVENTS);
	return 0;
}

/*
 * The hotplug thread: CPU cpu is back online.  Its perf buffer stays off;
 * the trace loop opens a new one within TRACE_POLL_MS (reopen_buffers).
 */
static int trace_cpu_up(struct ss_app *app, void *st, int cpu)
{
	struct trace_state *tr = st;

	if (app->o.trace && tr->reopen && cpu >= 0 && cpu < tr->ncpus)
		__atomic_store_n(&tr->reopen[cpu], 1, __ATOMIC_RELEASE);
	return 0;
}

/* In the trace loop: a new buffer for each CPU that came back online. */
static void reopen_buffers(struct trace_state *tr)
{
	for (int cpu = 0; cpu < tr->ncpus; cpu++) {
		struct perf_reader *r;
		int i;

		if (!__atomic_exchange_n(&tr->reopen[cpu], 0, __ATOMIC_ACQUIRE))
			continue;
		for (i = 0; i < tr->nreaders; i++)
			if (tr->cpus[i].cpu == cpu)
				break;
		if (i == tr->nreaders && i >= tr->ncpus)
			continue;
		r = open_buffer(tr, &tr->cpus[i], cpu);
		if (!r)
			continue;
		if (i < tr->nreaders) {
			/* what the old buffer holds from before it went off */
			perf_reader_consume(1, &tr->readers[i]);
			perf_reader_free(tr->readers[i]);
		} else {
			tr->nreaders++;
		}
		tr->readers[i] = r;
	}
}

/*
 * Switches the kernel did not run our sched_switch program for: it skips a
 * tracepoint program while another BPF program or a bpf() map operation is
 * active on that CPU (bpf_prog_active) and counts it in the program's
 * recursion_misses (struct bpf_prog_info, Linux 5.12+).  These switches
 * never reach the perf buffer, so they are not in the lost count.
 * Returns the count, or -1 if the kernel does not report it.
 */
static int64_t switch_prog_misses(const struct ss_app *app)
{
	for (int i = 0; i < app->bpf.nprogs; i++) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);

		if (strcmp(app->bpf.prog_name[i],
			   ss_bpf_sched_fn(&app->bpf, "sched_switch")))
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info(app->bpf.prog_fd[i], &info, &len) ||
		    len < offsetof(struct bpf_prog_info, recursion_misses) +
				    sizeof(info.recursion_misses))
			return -1;
		return (int64_t)info.recursion_misses;
	}
	return -1;
}

/* the --json trace's last record: the counts of the summary line */
static const struct ss_field summary_fields[] = {
	{ .key = "events", .unit = "count" },
	{ .key = "lost", .unit = "count" },
	{ .key = "missed", .unit = "count" },
	{ .key = "kernel_lost", .unit = "count" },
};

/*
 * At the end: the counts on stderr, and with --json as a last record
 * ("type":"trace_summary"; CSV has one header and no place for it).
 */
static void trace_summary(const struct ss_app *app, struct trace_state *tr)
{
	int64_t missed = switch_prog_misses(app);
	uint64_t events = 0, lost = 0, kernel_lost = 0;

	for (int cpu = 0; cpu < tr->ncpus; cpu++)
		lost += tr->lost[cpu];
	for (int i = 0; i < tr->nreaders; i++) {
		const struct trace_cpu *c = &tr->cpus[i];

		events += c->events;
		kernel_lost += c->kernel_lost;
		if (app->o.verbose)
			ss_diag("CPU %d: %" PRIu64 " events, %" PRIu64
				" lost (counted by the probe; the kernel "
				"reported %" PRIu64 " of them)",
				c->cpu, c->events, tr->lost[c->cpu],
				c->kernel_lost);
	}
	if (missed >= 0)
		ss_diag("%" PRIu64 " events traced, %" PRIu64 " lost, %" PRId64
			" missed",
			events, lost, missed);
	else /* say so: a silent "0 missed" would be wrong */
		ss_diag("%" PRIu64 " events traced, %" PRIu64 " lost, missed "
			"unknown (the kernel counts no recursion_misses for "
			"BPF programs before Linux 5.12)",
			events, lost);
	if (missed > 0)
		ss_diag("%" PRId64
			" switches missed: the kernel skipped the probe while "
			"another BPF program or bpf() call was active on the "
			"CPU",
			missed);
	if (tr->bad)
		ss_diag("%" PRIu64 " records too short, skipped", tr->bad);
	if (app->fmt != SS_FMT_JSON)
		return;
	ss_emit_begin(&tr->e, "trace_summary");
	ss_emit_u64(&tr->e, &summary_fields[0], events);
	ss_emit_u64(&tr->e, &summary_fields[1], lost);
	if (missed >= 0)
		ss_emit_u64(&tr->e, &summary_fields[2], (uint64_t)missed);
	else
		ss_emit_null(&tr->e, &summary_fields[2]);
	ss_emit_u64(&tr->e, &summary_fields[3], kernel_lost);
	ss_emit_end(&tr->e);
	fflush(app->f);
}

/* --trace replaces the interval loop: print records until the end. */
static int trace_run(struct ss_app *app, void *st)
{
	struct trace_state *tr = st;
	uint64_t now = ss_clock_ns(CLOCK_MONOTONIC);
	uint64_t end = app->o.duration_s
			       ? now + app->o.duration_s * 1000000000ULL
			       : UINT64_MAX;
	uint64_t last_flush = now;
	int ret = 0;

	if (!app->o.trace)
		return -1;
	ss_emit_init(&tr->e, app->f, app->fmt);
	ss_trace_fmt_init(&tr->fmt, &tr->e, app->o.timestamp, tr->t0_mono_ns,
			  tr->t0_real_ns, app->info.nr_counters,
			  app->info.ctr_name, app->info.counters_na,
			  app->info.counter_na);
	tr->fmt.ktime_offset_ns = ss_timens_mono_offset();
	ss_emit_banner(&tr->e, "Tracing context switches... Hit Ctrl-C to end.",
		       0);
	ss_trace_header(&tr->fmt);
	fflush(app->f);

	while (!ss_exiting) {
		int timeout = TRACE_POLL_MS, n;

		reopen_buffers(tr);
		now = ss_clock_ns(CLOCK_MONOTONIC);
		if (now >= end)
			break;
		if (end - now < TRACE_POLL_MS * 1000000ULL)
			timeout = (end - now) / 1000000ULL + 1;
		n = perf_reader_poll(tr->nreaders, tr->readers, timeout);
		if (n < 0 && errno != EINTR) {
			ss_diag("poll: %s", strerror(errno));
			ret = 1;
			break;
		}
		/*
		 * Every TRACE_POLL_MS (or when quiet): also read the CPUs
		 * below the wakeup mark and flush, so a terminal sees lines
		 * within 0.1 s even while a busy CPU keeps poll() returning,
		 * and report new losses (a map read: not at every poll, the
		 * kernel skips regular tracepoint programs during bpf() calls).
		 */
		now = ss_clock_ns(CLOCK_MONOTONIC);
		if (n == 0 || now - last_flush >= TRACE_POLL_MS * 1000000ULL) {
			perf_reader_consume(tr->nreaders, tr->readers);
			report_lost(tr);
			fflush(app->f);
			last_flush = now;
		}
		if (ferror(app->f))
			break;
	}
	/*
	 * The trace ends here: no record is sent after this, so what the
	 * buffers hold now and the probe's lost counts are all of it.
	 */
	if (trace_set_on(tr, 0))
		ret = 1;
	perf_reader_consume(tr->nreaders, tr->readers);
	if (report_lost(tr))
		ret = 1;
	if (fflush(app->f) || ferror(app->f)) {
		ss_diag("writing output: %s", strerror(errno));
		ret = 1;
	}
	trace_summary(app, tr);
	return ret;
}

static void trace_close(struct ss_app *app, void *st)
{
	struct trace_state *tr = st;

	for (int i = 0; i < tr->nreaders; i++)
		perf_reader_free(tr->readers[i]); /* also closes its fd */
	tr->nreaders = 0;
	free(tr->readers);
	tr->readers = NULL;
	free(tr->reopen);
	tr->reopen = NULL;
	free(tr->cpus);
	tr->cpus = NULL;
	free(tr->lost);
	tr->lost = NULL;
	free(tr->lost_buf);
	tr->lost_buf = NULL;
}

const struct ss_feature ss_feat_trace = {
	.name = "trace",
	.state_size = sizeof(struct trace_state),
	.check = trace_check,
	.configure = trace_configure,
	.attach = trace_attach,
	.run = trace_run,
	.close = trace_close,
	.cpu_up = trace_cpu_up,
};

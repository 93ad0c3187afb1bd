// SPDX-License-Identifier: GPL-2.0
/*
 * feat_wakers.c - who woke whom (--wakers).
 *
 * The probe (probes/wakers.bpf.h) notes the waker of every wakeup at
 * sched_waking (a task; or timer, irq, softirq, idle when it ran in
 * interrupt context) and, when the woken thread's off-CPU span ends
 * (probes/offcpu.bpf.h), adds one wakeup and the span's length to the
 * (victim, waker) pair in the wakers map.  Here the map is drained each
 * interval and printed after the table, per victim (process, thread with
 * -L, cgroup with -G), its wakers by the off-CPU time they ended; or as
 * "waker" records in CSV/JSON; with --listen the pairs go to the
 * exporter (app->offwake; -q or -f: nothing printed).  Needs the raw
 * tracepoints (kernel BTF): the interrupt-context brackets must never be
 * skipped.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "cgroup.h"
#include "feat_wakers.h"
#include "map_drain.h"
#include "probes/wakers_shared.h"
#include "wakers.h"

struct wakers_state {
	int link[SS_WAKERS_NTPS]; /* raw tracepoint attachments (0: none) */
	struct ss_map_drain map;
	struct ss_waker_row *rows;
	struct ss_emit e;
	bool ready;
};

/* The plan checked the tracepoints (plan.c decide_extra). */
static int wakers_configure(struct ss_app *app, void *st)
{
	struct wakers_state *ws = st;

	if (app->o.wakers)
		ss_emit_init(&ws->e, app->f, app->fmt);
	return 0;
}

static int wakers_attach(struct ss_app *app, void *st)
{
	struct wakers_state *ws = st;
	char err[SS_ERR_LEN];

	if (!app->o.wakers)
		return 0;
	for (size_t i = 0; i < SS_WAKERS_NTPS; i++) {
		int fd, lfd;

		fd = ss_bpf_load(&app->bpf, ss_wakers_fns[i],
				 BPF_PROG_TYPE_RAW_TRACEPOINT, err,
				 sizeof(err));
		if (fd < 0) {
			ss_diag("%s", err);
			return 1;
		}
		lfd = bpf_attach_raw_tracepoint(fd, ss_wakers_tps[i]);
		if (lfd >= 0)
			ws->link[i] = lfd;
		if (lfd < 0) {
			ss_diag("cannot attach raw tracepoint %s: %s",
				ss_wakers_tps[i], strerror(errno));
			return 1;
		}
	}
	ws->map.fd = ss_bpf_map_fd(&app->bpf, "wakers");
	ws->map.key_size = sizeof(struct ss_waker_key);
	ws->map.val_size = sizeof(struct ss_waker_val);
	ws->map.cap = app->plan->x.wakers_entries;
	ws->map.keys = calloc(ws->map.cap, sizeof(struct ss_waker_key));
	ws->map.vals = calloc(ws->map.cap, sizeof(struct ss_waker_val));
	ws->rows = calloc(ws->map.cap, sizeof(*ws->rows));
	if (ws->map.fd < 0 || !ws->map.keys || !ws->map.vals || !ws->rows) {
		ss_diag("--wakers: BPF map or memory missing");
		return 1;
	}
	ws->ready = true;
	return 0;
}

/* Read and delete the wakers map into ws->rows; the count or -errno. */
static int drain(struct wakers_state *ws)
{
	return ss_map_drain_rows(&ws->map, ws->rows, sizeof(*ws->rows),
				 offsetof(struct ss_waker_row, v));
}

/* by victim, then the off-CPU time ended, descending */
static int cmp_row(const void *a, const void *b)
{
	const struct ss_waker_row *x = a, *y = b;

	if (x->k.victim_cgroup != y->k.victim_cgroup)
		return x->k.victim_cgroup < y->k.victim_cgroup ? -1 : 1;
	if (x->k.victim_tgid != y->k.victim_tgid)
		return x->k.victim_tgid < y->k.victim_tgid ? -1 : 1;
	if (x->k.victim_tid != y->k.victim_tid)
		return x->k.victim_tid < y->k.victim_tid ? -1 : 1;
	return (x->v.off_ns < y->v.off_ns) - (x->v.off_ns > y->v.off_ns);
}

enum {
	W_TIME,
	W_VPID,
	W_VTID,
	W_VCOMM,
	W_VCG,
	W_KIND,
	W_WPID,
	W_WTID,
	W_WCOMM,
	W_WCG,
	W_COUNT,
	W_OFF,
	W_MAX,
};

static const struct ss_field wk_fields[W_MAX] = {
	[W_TIME] = { .key = "time", .unit = "s", .decimals = 3 },
	[W_VPID] = { .key = "victim_pid", .head = "PID", .width = 7 },
	[W_VTID] = { .key = "victim_tid", .head = "TID", .width = 7 },
	[W_VCOMM] = { .key = "victim_comm", .head = "VICTIM", .width = -16 },
	[W_VCG] = { .key = "victim_cgroup",
		    .head = "VICTIM",
		    .width = -28,
		    .tail = true },
	[W_KIND] = { .key = "waker_kind", .head = "BY", .width = -7 },
	[W_WPID] = { .key = "waker_pid", .head = "PID", .width = 7, .na = "" },
	[W_WTID] = { .key = "waker_tid", .head = "TID", .width = 7, .na = "" },
	[W_WCOMM] = { .key = "waker_comm",
		      .head = "WAKER",
		      .width = -16,
		      .na = "" },
	[W_WCG] = { .key = "waker_cgroup",
		    .head = "WAKER",
		    .width = -28,
		    .tail = true },
	[W_COUNT] = { .key = "count",
		      .unit = "count",
		      .head = "COUNT",
		      .width = 8 },
	[W_OFF] = { .key = "offcpu_ns",
		    .unit = "ns",
		    .head = "OFFCPU(ms)",
		    .width = 11,
		    .style = SS_TS_DIV,
		    .table_div = 1e6,
		    .table_decimals = 3 },
};

/* a cgroup's name: its path, else its id */
static const char *cg_name(const struct ss_app *app, uint64_t id, char *buf,
			   size_t len)
{
	const char *p = app->info.cg ? ss_cgroup_path(app->info.cg, id) : NULL;

	if (p)
		return p;
	snprintf(buf, len, "%llu", (unsigned long long)id);
	return buf;
}

/* the fields of one record (header when @head) */
static void emit_one(struct ss_app *app, struct ss_emit *e,
		     const struct ss_waker_row *r, bool head)
{
	const struct ss_opts *o = &app->o;
	bool machine = app->fmt != SS_FMT_TABLE, task;
	char b1[24], b2[24];
	static const int order_cg[] = { W_VCG, W_KIND, W_WCG, W_COUNT, W_OFF };
	static const int order_pid[] = { W_VPID,  W_VTID,  W_VCOMM,
					 W_KIND,  W_WPID,  W_WTID,
					 W_WCOMM, W_COUNT, W_OFF };
	const int *ord = o->per_cgroup ? order_cg : order_pid;
	size_t n = o->per_cgroup ? 5 : 9;

	if (machine && head)
		ss_emit_head(e, &wk_fields[W_TIME]);
	else if (machine)
		ss_emit_double(e, &wk_fields[W_TIME],
			       (double)app->iv.end_realtime_ns / 1e9);
	for (size_t i = 0; i < n; i++) {
		int f = ord[i];

		if ((f == W_VTID || f == W_WTID) && !o->per_thread)
			continue;
		if (head) {
			ss_emit_head(e, &wk_fields[f]);
			continue;
		}
		task = r->k.kind == SS_WK_TASK;
		switch (f) {
		case W_VPID:
			ss_emit_u64(e, &wk_fields[f], r->k.victim_tgid);
			break;
		case W_VTID:
			ss_emit_u64(e, &wk_fields[f], r->k.victim_tid);
			break;
		case W_VCOMM:
			ss_emit_str(e, &wk_fields[f], r->v.victim_comm,
				    SS_COMM_LEN);
			break;
		case W_VCG:
			ss_emit_str(e, &wk_fields[f],
				    cg_name(app, r->k.victim_cgroup, b1,
					    sizeof(b1)),
				    4096);
			break;
		case W_KIND:
			ss_emit_str(e, &wk_fields[f],
				    ss_waker_kind_name(r->k.kind), 8);
			break;
		case W_WPID:
		case W_WTID:
			if (task)
				ss_emit_u64(e, &wk_fields[f],
					    f == W_WPID ? r->k.waker_tgid
							: r->k.waker_tid);
			else
				ss_emit_null(e, &wk_fields[f]);
			break;
		case W_WCOMM:
			if (task)
				ss_emit_str(e, &wk_fields[f], r->v.waker_comm,
					    SS_COMM_LEN);
			else
				ss_emit_null(e, &wk_fields[f]);
			break;
		case W_WCG:
			if (task)
				ss_emit_str(e, &wk_fields[f],
					    cg_name(app, r->k.waker_cgroup, b2,
						    sizeof(b2)),
					    4096);
			else
				ss_emit_null(e, &wk_fields[f]);
			break;
		case W_COUNT:
			ss_emit_u64(e, &wk_fields[f], r->v.count);
			break;
		case W_OFF:
			ss_emit_u64(e, &wk_fields[f], r->v.off_ns);
			break;
		}
	}
}

static int wakers_interval(struct ss_app *app, void *st)
{
	struct wakers_state *ws = st;
	struct ss_emit *e = &ws->e;
	bool table = app->fmt == SS_FMT_TABLE, block;
	int n;

	if (!app->o.wakers || !ws->ready ||
	    ((app->o.quiet || app->o.folded) && !app->o.listen))
		return 0;
	n = drain(ws);
	if (n < 0) {
		ss_diag("reading the wakers map: %s", strerror(-n));
		return 0;
	}
	if (n > 1)
		qsort(ws->rows, n, sizeof(*ws->rows), cmp_row);
	app->offwake.wakers = ws->rows;
	app->offwake.nwakers = n;
	/* -q: the exporter only; -f: the folded stacks only */
	if (app->o.quiet || app->o.folded)
		return 0;
	e->f = app->f;
	if (table)
		ss_emit_raw(e, "Wakeups by waker (who ended each off-CPU "
			       "span; timer/irq/softirq/idle: interrupt "
			       "context):\n");
	else
		ss_emit_reset_header(e);
	block = ss_emit_begin_header(e);
	if (block) {
		if (!table)
			ss_emit_raw(e, "\n");
		emit_one(app, e, NULL, true);
		ss_emit_end(e);
	}
	for (int i = 0; i < n; i++) {
		if (table && app->o.top && (unsigned int)i >= app->o.top)
			break;
		ss_emit_begin(e, "waker");
		emit_one(app, e, &ws->rows[i], false);
		ss_emit_end(e);
	}
	if (block) /* the table, or a CSV block: a blank line after it */
		ss_emit_raw(e, "\n");
	ss_emit_flush(e);
	fflush(app->f);
	return 0;
}

static int wakers_reset(struct ss_app *app, void *st)
{
	struct wakers_state *ws = st;

	if (app->o.wakers && ws->ready)
		drain(ws);
	return 0;
}

static void wakers_close(struct ss_app *app, void *st)
{
	struct wakers_state *ws = st;

	for (size_t i = 0; i < SS_WAKERS_NTPS; i++)
		if (ws->link[i] > 0)
			close(ws->link[i]);
	free(ws->map.keys);
	free(ws->map.vals);
	if (app->offwake.wakers == ws->rows) {
		app->offwake.wakers = NULL;
		app->offwake.nwakers = 0;
	}
	free(ws->rows);
	memset(ws, 0, sizeof(*ws));
}

const struct ss_feature ss_feat_wakers = {
	.name = "wakers",
	.state_size = sizeof(struct wakers_state),
	.configure = wakers_configure,
	.attach = wakers_attach,
	.reset = wakers_reset,
	.on_interval = wakers_interval,
	.close = wakers_close,
};

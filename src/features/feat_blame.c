// SPDX-License-Identifier: GPL-2.0
/*
 * feat_blame.c - run-queue blame (--blame): each victim's run-queue wait in
 * the interval, split by the culprits that ran on its CPU meanwhile
 * (probes/blame.bpf.h), and the per-culprit view: who inflicted how much.
 * Victims and culprits are processes, threads (-L) or cgroups (-G).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include <bcc/libbpf.h>

#include "blame.h"
#include "cgroup.h"
#include "feat_blame.h"
#include "map_drain.h"
#include "output.h"

struct blame_state {
	struct ss_map_drain map, pmap; /* blame, preempt */
	struct ss_blame_row *rows, *culprits;
	struct ss_preempt_row *prows;
	struct ss_blame_row *noisy; /* --top: ss_blame_noisy's rows */
	char *noisy_text; /* --top: the noisy-neighbours pane's text */
	bool ready;
	struct ss_emit e; /* the table, CSV or JSON records */
};

static int blame_check(struct ss_app *app, void *st)
{
	if (app->o.blame && app->o.trace) {
		ss_diag("--blame and --trace cannot be "
			"used together");
		return 2;
	}
	return 0;
}

/* The plan's blame (plan.c decide_blame): where waits are kept, -v. */
static int blame_configure(struct ss_app *app, void *st)
{
	struct blame_state *bs = st;

	if (!app->o.blame)
		return 0;
	ss_emit_init(&bs->e, app->f, app->fmt);
	if (app->o.verbose)
		fprintf(stderr, "switchstat: --blame waits: %s, %s\n",
			app->plan->blame.kq ? "the kernel's run_delay"
					    : "timed from sched_wakeup",
			app->plan->blame.task_storage ? "task local storage"
						      : "hash by thread id");
	return 0;
}

/*
 * Load flush program fn as the type of the programs that tail-call it
 * (type < 0: sched_switch's, whatever the path) and put it at index 0 of
 * their prog array.  Returns 0 or 1 (message printed).
 */
static int tail(struct ss_app *app, const char *array, const char *fn, int type)
{
	char err[SS_ERR_LEN];
	int map = ss_bpf_map_fd(&app->bpf, array), zero = 0;
	int fd = type < 0 ? ss_bpf_load_as_sched(&app->bpf, fn, "sched_switch",
						 err, sizeof(err))
			  : ss_bpf_load(&app->bpf, fn, type, err, sizeof(err));

	if (fd < 0) {
		ss_diag("%s", err);
		return 1;
	}
	if (map < 0 || bpf_update_elem(map, &zero, &fd, 0)) {
		ss_diag("cannot store %s in BPF map %s: %s", fn, array,
			strerror(errno));
		return 1;
	}
	return 0;
}

static int blame_attach(struct ss_app *app, void *st)
{
	struct blame_state *bs = st;
	uint32_t n = app->plan->blame.entries;

	if (!app->o.blame)
		return 0;
	bs->map.fd = ss_bpf_map_fd(&app->bpf, "blame");
	bs->map.key_size = sizeof(struct ss_blame_key);
	bs->map.val_size = sizeof(struct ss_blame_val);
	bs->map.cap = n;
	bs->map.keys = calloc(n, sizeof(struct ss_blame_key));
	bs->map.vals = calloc(n, sizeof(struct ss_blame_val));
	bs->rows = calloc(n, sizeof(*bs->rows));
	bs->culprits = calloc(n, sizeof(*bs->culprits));
	bs->pmap.fd = ss_bpf_map_fd(&app->bpf, "preempt");
	bs->pmap.key_size = sizeof(struct ss_blame_key);
	bs->pmap.val_size = sizeof(struct ss_preempt_val);
	bs->pmap.cap = n;
	bs->pmap.keys = calloc(n, sizeof(struct ss_blame_key));
	bs->pmap.vals = calloc(n, sizeof(struct ss_preempt_val));
	bs->prows = calloc(n, sizeof(*bs->prows));
	bs->noisy = calloc(n, sizeof(*bs->noisy));
	if (bs->map.fd < 0 || !bs->map.keys || !bs->map.vals || !bs->rows ||
	    !bs->culprits || bs->pmap.fd < 0 || !bs->pmap.keys ||
	    !bs->pmap.vals || !bs->prows || !bs->noisy) {
		ss_diag("blame map missing");
		return 1;
	}
	bs->ready = true;
	if (tail(app, "blame_tail_sw", "ss_blame_flush_sw", -1) ||
	    tail(app, "blame_tail_ck", "ss_blame_flush_ck",
		 BPF_PROG_TYPE_PERF_EVENT))
		return 1;
	if (!app->plan->blame.task_storage &&
	    ss_app_attach_sched(app, "sched_process_exit"))
		return 1;
	/* SS_BLAME_KQ: the waits come from the kernel's run_delay */
	return !app->plan->blame.kq &&
	       (ss_app_attach_sched(app, "sched_wakeup") ||
		ss_app_attach_sched(app, "sched_wakeup_new") ||
		ss_app_attach_sched(app, "sched_migrate_task"));
}

/* Read and delete the blame map into bs->rows; returns the count or -errno */
static int drain(struct blame_state *bs)
{
	int n = ss_map_drain_rows(&bs->map, bs->rows, sizeof(*bs->rows),
				  offsetof(struct ss_blame_row, v));

	for (int i = 0; i < n; i++) {
		struct ss_blame_row *r = &bs->rows[i];

		r->victim_total_ns = 0;
		r->victims = 0;
		r->v.victim_comm[SS_COMM_LEN - 1] = '\0';
		r->v.culprit_comm[SS_COMM_LEN - 1] = '\0';
	}
	return n;
}

/* Read and delete the preempt map into bs->prows; the count or -errno */
static int drain_preempt(struct blame_state *bs)
{
	int n = ss_map_drain_rows(&bs->pmap, bs->prows, sizeof(*bs->prows),
				  offsetof(struct ss_preempt_row, v));

	for (int i = 0; i < n; i++) {
		bs->prows[i].v.victim_comm[SS_COMM_LEN - 1] = '\0';
		bs->prows[i].v.culprit_comm[SS_COMM_LEN - 1] = '\0';
	}
	return n;
}

/* a preemption pair as a blame row, for side_of */
static struct ss_blame_row as_blame(const struct ss_preempt_row *p)
{
	struct ss_blame_row r = { .key = p->key };

	memcpy(r.v.victim_comm, p->v.victim_comm, SS_COMM_LEN);
	memcpy(r.v.culprit_comm, p->v.culprit_comm, SS_COMM_LEN);
	return r;
}

/*
 * A task's name: its row's of this interval (the name rows show), else the
 * name the probe saw (the task is filtered out of the rows, or exited).
 */
static const char *task_comm(const struct ss_app *app, uint32_t tgid,
			     uint32_t tid, const char *seen)
{
	const struct ss_interval *iv = &app->iv;

	for (size_t i = 0; i < iv->n; i++)
		if (iv->rows[i].key.tgid == tgid &&
		    (!tid || iv->rows[i].key.tid == tid) &&
		    iv->rows[i].v.comm[0])
			return iv->rows[i].v.comm;
	return seen[0] ? seen : "?";
}

/* Text of one side (victim or culprit) for the table, CSV and JSON. */
struct side {
	bool task; /* pid/comm side (else cgroup or a label) */
	uint32_t pid;
	const char *name; /* comm, cgroup path, "(idle)" or "(unknown)" */
	char buf[64];
};

static void side_of(const struct ss_app *app, bool culprit,
		    const struct ss_blame_row *r, struct side *s)
{
	const struct ss_blame_key *k = &r->key;
	const char *label = culprit ? ss_blame_culprit_label(k) : NULL;
	uint64_t cg = culprit ? k->culprit_cgroup : k->victim_cgroup;
	uint32_t tgid = culprit ? k->culprit_tgid : k->victim_tgid;
	uint32_t tid = culprit ? k->culprit_tid : k->victim_tid;

	s->task = false;
	s->pid = 0;
	if (label) {
		s->name = label;
	} else if (app->o.per_cgroup) {
		s->name =
			app->info.cg ? ss_cgroup_path(app->info.cg, cg) : NULL;
		if (!s->name) {
			snprintf(s->buf, sizeof(s->buf), "%llu",
				 (unsigned long long)cg);
			s->name = s->buf;
		}
	} else {
		s->task = true;
		s->pid = tid ? tid : tgid;
		s->name = task_comm(app, tgid, tid,
				    culprit ? r->v.culprit_comm
					    : r->v.victim_comm);
	}
}

/* The fields of blame records: CSV/JSON keys and the table's columns. */
enum {
	B_TIME,
	B_VICTIM_PID,
	B_VICTIM_COMM,
	B_VICTIM_CGROUP,
	B_CULPRIT_PID,
	B_CULPRIT_COMM,
	B_CULPRIT_CGROUP,
	B_DELAY,
	B_WAIT_PCT,
	B_VICTIMS,
	B_COUNT,
	B_MAX,
};

/*
 * One side's three fields (victim or culprit: B_<SIDE>_PID, _COMM,
 * _CGROUP; keys <side>_pid...; table head HEAD).  An (idle) or (unknown)
 * side has no pid: blank in the table, null in CSV/JSON.  WHO heads the
 * pid column: PID, or TID with -L.
 */
#define BLAME_SIDE(SIDE, side, HEAD, WHO)                                     \
	[B_##SIDE##                                                           \
		_PID] = { .key = side "_pid",                                 \
			  .head = WHO,                                        \
			  .width = 7,                                         \
			  .na = "" },                                         \
     [B_##SIDE##_COMM] = { .key = side "_comm", .head = HEAD, .width = -16 }, \
     [B_##SIDE##_CGROUP] = {                                                  \
	     .key = side "_cgroup", .head = HEAD, .width = -32, .tail = true  \
     }

/* Time is not a table column; CSV/JSON records have no %WAIT or VICTIMS. */
#define BLAME_FIELDS(WHO)                                                    \
	{                                                                    \
		[B_TIME] = { .key = "time", .unit = "s", .decimals = 3 },    \
		BLAME_SIDE(VICTIM, "victim", "VICTIM", WHO),                 \
		BLAME_SIDE(CULPRIT, "culprit", "CULPRIT", WHO),              \
		[B_DELAY] = { .key = "delay_ns",                             \
			      .unit = "ns",                                  \
			      .head = "DELAY(ms)",                           \
			      .width = 10,                                   \
			      .style = SS_TS_DIV,                            \
			      .table_div = 1e6,                              \
			      .table_decimals = 3 },                         \
		[B_WAIT_PCT] = { .key = "wait_pct",                          \
				 .unit = "%",                                \
				 .head = "%WAIT",                            \
				 .width = 6,                                 \
				 .table_decimals = 1 },                      \
		[B_VICTIMS] = { .key = "victims",                            \
				.head = "VICTIMS",                           \
				.width = 7 },                                \
		[B_COUNT] = { .key = "count", .head = "COUNT", .width = 7 }, \
	}

static const struct ss_field blame_fields_by[2][B_MAX] = {
	BLAME_FIELDS("PID"),
	BLAME_FIELDS("TID"),
};

/* the fields of one side: its cgroup (-G), else its pid and comm */
static void emit_side(struct ss_emit *e, const struct ss_field *f,
		      const struct side *s, bool cgroup)
{
	if (cgroup) {
		ss_emit_str(e, &f[2], s->name, 4096);
		return;
	}
	if (s->task)
		ss_emit_u64(e, &f[0], s->pid);
	else
		ss_emit_null(e, &f[0]);
	ss_emit_str(e, &f[1], s->name, SS_COMM_LEN);
}

static void emit_head_side(struct ss_emit *e, const struct ss_field *f,
			   bool cgroup)
{
	if (cgroup) {
		ss_emit_head(e, &f[2]);
		return;
	}
	ss_emit_head(e, &f[0]);
	ss_emit_head(e, &f[1]);
}

/*
 * The table's last list: each victim's involuntary switches by the task
 * switched in (at most -n rows); the culprit columns headed PREEMPTOR.
 */
static void print_preempt(struct ss_app *app, struct blame_state *bs, size_t np)
{
	const struct ss_field *f = blame_fields_by[app->o.per_thread];
	struct ss_field pf[3] = { f[B_CULPRIT_PID], f[B_CULPRIT_COMM],
				  f[B_CULPRIT_CGROUP] };
	bool cg = app->o.per_cgroup;
	size_t top = app->o.top;
	struct ss_emit *e = &bs->e;

	pf[1].head = pf[2].head = "PREEMPTOR";
	ss_emit_raw(e, "\nPreemptions by preemptor (the task switched in "
		       "when the victim was preempted):\n");
	if (ss_emit_begin_header(e)) {
		emit_head_side(e, &f[B_VICTIM_PID], cg);
		emit_head_side(e, pf, cg);
		ss_emit_head(e, &f[B_COUNT]);
		ss_emit_end(e);
	}
	for (size_t i = 0; i < np && (!top || i < top); i++) {
		struct ss_blame_row r = as_blame(&bs->prows[i]);
		struct side v, c;

		side_of(app, false, &r, &v);
		side_of(app, true, &r, &c);
		ss_emit_begin(e, NULL);
		emit_side(e, &f[B_VICTIM_PID], &v, cg);
		emit_side(e, pf, &c, cg);
		ss_emit_u64(e, &f[B_COUNT], bs->prows[i].v.count);
		ss_emit_end(e);
	}
}

/*
 * The table: each victim/culprit pair with its share of the victim's
 * wait, then the delay each culprit inflicted (at most -n rows each).
 */
static void print_table(struct ss_app *app, struct blame_state *bs, size_t n,
			size_t nc, size_t np)
{
	const struct ss_field *f = blame_fields_by[app->o.per_thread];
	bool cg = app->o.per_cgroup;
	size_t top = app->o.top;
	struct ss_emit *e = &bs->e;

	e->f = app->f;
	ss_emit_raw(e, "\nRun-queue delay by culprit (what ran on the "
		       "victim's CPU while it waited):\n");
	if (ss_emit_begin_header(e)) {
		emit_head_side(e, &f[B_VICTIM_PID], cg);
		emit_head_side(e, &f[B_CULPRIT_PID], cg);
		ss_emit_head(e, &f[B_DELAY]);
		ss_emit_head(e, &f[B_WAIT_PCT]);
		ss_emit_end(e);
	}
	for (size_t i = 0; i < n && (!top || i < top); i++) {
		struct side v, c;

		side_of(app, false, &bs->rows[i], &v);
		side_of(app, true, &bs->rows[i], &c);
		ss_emit_begin(e, NULL);
		emit_side(e, &f[B_VICTIM_PID], &v, cg);
		emit_side(e, &f[B_CULPRIT_PID], &c, cg);
		ss_emit_u64(e, &f[B_DELAY], bs->rows[i].v.delay_ns);
		ss_emit_double(e, &f[B_WAIT_PCT], ss_blame_pct(&bs->rows[i]));
		ss_emit_end(e);
	}
	ss_emit_raw(e, "\nRun-queue delay inflicted, per culprit:\n");
	if (ss_emit_begin_header(e)) {
		emit_head_side(e, &f[B_CULPRIT_PID], cg);
		ss_emit_head(e, &f[B_DELAY]);
		ss_emit_head(e, &f[B_VICTIMS]);
		ss_emit_end(e);
	}
	for (size_t i = 0; i < nc && (!top || i < top); i++) {
		struct side c;

		side_of(app, true, &bs->culprits[i], &c);
		ss_emit_begin(e, NULL);
		emit_side(e, &f[B_CULPRIT_PID], &c, cg);
		ss_emit_u64(e, &f[B_DELAY], bs->culprits[i].v.delay_ns);
		ss_emit_u64(e, &f[B_VICTIMS], bs->culprits[i].victims);
		ss_emit_end(e);
	}
	print_preempt(app, bs, np);
	ss_emit_flush(e);
}

/*
 * The CSV header of a block of pair records (a blank line first): time,
 * the victim's and the culprit's sides, then @last; once per interval.
 */
static void emit_pair_header(struct ss_emit *e, bool cg,
			     const struct ss_field *last)
{
	const struct ss_field *f = blame_fields_by[0];

	ss_emit_reset_header(e);
	if (ss_emit_begin_header(e)) {
		ss_emit_raw(e, "\n");
		ss_emit_head(e, &f[B_TIME]);
		emit_head_side(e, &f[B_VICTIM_PID], cg);
		emit_head_side(e, &f[B_CULPRIT_PID], cg);
		ss_emit_head(e, last);
		ss_emit_end(e);
	}
}

/*
 * One record (type "blame") per victim/culprit pair; CSV: each interval
 * a block after a blank line, with its header.
 */
static void emit_records(struct ss_app *app, struct blame_state *bs, size_t n)
{
	const struct ss_field *f = blame_fields_by[0];
	bool cg = app->o.per_cgroup;
	double t = (double)app->iv.end_realtime_ns / 1e9;
	struct ss_emit *e = &bs->e;

	e->f = app->f;
	emit_pair_header(e, cg, &f[B_DELAY]);
	for (size_t i = 0; i < n; i++) {
		struct side v, c;

		side_of(app, false, &bs->rows[i], &v);
		side_of(app, true, &bs->rows[i], &c);
		ss_emit_begin(e, "blame");
		ss_emit_double(e, &f[B_TIME], t);
		emit_side(e, &f[B_VICTIM_PID], &v, cg);
		emit_side(e, &f[B_CULPRIT_PID], &c, cg);
		ss_emit_u64(e, &f[B_DELAY], bs->rows[i].v.delay_ns);
		ss_emit_end(e);
	}
}

/*
 * One record (type "preempt") per victim/preemptor pair (culprit_*: the
 * preemptor); CSV: its own block after the blame records.
 */
static void emit_preempt_records(struct ss_app *app, struct blame_state *bs,
				 size_t np)
{
	const struct ss_field *f = blame_fields_by[0];
	bool cg = app->o.per_cgroup;
	double t = (double)app->iv.end_realtime_ns / 1e9;
	struct ss_emit *e = &bs->e;

	emit_pair_header(e, cg, &f[B_COUNT]);
	for (size_t i = 0; i < np; i++) {
		struct ss_blame_row r = as_blame(&bs->prows[i]);
		struct side v, c;

		side_of(app, false, &r, &v);
		side_of(app, true, &r, &c);
		ss_emit_begin(e, "preempt");
		ss_emit_double(e, &f[B_TIME], t);
		emit_side(e, &f[B_VICTIM_PID], &v, cg);
		emit_side(e, &f[B_CULPRIT_PID], &c, cg);
		ss_emit_u64(e, &f[B_COUNT], bs->prows[i].v.count);
		ss_emit_end(e);
	}
}

static bool same_victim(const struct ss_blame_key *a,
			const struct ss_blame_key *b)
{
	return a->victim_cgroup == b->victim_cgroup &&
	       a->victim_tgid == b->victim_tgid &&
	       a->victim_tid == b->victim_tid;
}

#define NOISY_CULPRITS 3 /* culprits per victim in the pane */

/* a pane's name of side s: "pid comm", or a cgroup's short container id
 * (as the -G table's CGROUP column) or path */
static const char *pane_name(const struct side *s, char *buf, size_t len)
{
	if (s->task)
		snprintf(buf, len, "%u %s", s->pid, s->name);
	else if (ss_container_id_from_path(s->name, buf, len) != 1)
		snprintf(buf, len, "%s", s->name);
	return buf;
}

/*
 * --top's noisy-neighbours pane: one line per victim, the worst first by
 * the delay other tasks (cgroups with -G) caused it, with its top
 * NOISY_CULPRITS culprits and their delay (ms); into bs->noisy_text.
 */
static void noisy_text(struct ss_app *app, struct blame_state *bs, size_t n)
{
	size_t m = ss_blame_noisy(bs->rows, n, bs->noisy), len = 0;
	FILE *f;

	free(bs->noisy_text);
	bs->noisy_text = NULL;
	f = open_memstream(&bs->noisy_text, &len);
	if (!f)
		return;
	fprintf(f, "%-32s %13s  %s\n", "VICTIM", "BY OTHERS(ms)",
		"TOP CULPRITS (ms)");
	for (size_t i = 0, k = 0; i < m; i++, k++) {
		const struct ss_blame_row *r = &bs->noisy[i];
		char who[96];
		struct side s;

		if (i && !same_victim(&r->key, &bs->noisy[i - 1].key))
			k = 0;
		if (k == 0) {
			side_of(app, false, r, &s);
			fprintf(f, "%s%-32s %13.3f ", i ? "\n" : "",
				pane_name(&s, who, sizeof(who)),
				r->victim_total_ns / 1e6);
		}
		if (k >= NOISY_CULPRITS)
			continue;
		side_of(app, true, r, &s);
		fprintf(f, "%s %s %.3f", k ? "," : "",
			pane_name(&s, who, sizeof(who)), r->v.delay_ns / 1e6);
	}
	fprintf(f, m ? "\n" : "(no victim delayed by another)\n");
	fclose(f);
}

static int blame_interval(struct ss_app *app, void *st)
{
	struct blame_state *bs = st;
	int n, np;
	size_t nc;

	if (!app->o.blame || !bs->ready)
		return 0;
	n = drain(bs);
	if (n < 0) {
		ss_diag("reading the blame map: %s", strerror(-n));
		return 0;
	}
	np = drain_preempt(bs);
	if (np < 0) {
		ss_diag("reading the preempt map: %s", strerror(-np));
		np = 0;
	}
	ss_blame_finish(bs->rows, n);
	ss_preempt_sort(bs->prows, np);
	app->blame.rows = bs->rows;
	app->blame.n = n;
	app->blame.prows = bs->prows;
	app->blame.np = np;
	if (app->o.top_view) {
		noisy_text(app, bs, n);
		app->blame.noisy = bs->noisy_text;
	}
	if (app->fmt == SS_FMT_TABLE && app->o.top_view) {
		/* the view's b pane shows them (app->blame.noisy) */
	} else if (app->fmt == SS_FMT_TABLE) {
		nc = ss_blame_by_culprit(bs->rows, n, bs->culprits);
		print_table(app, bs, n, nc, np);
	} else {
		emit_records(app, bs, n);
		emit_preempt_records(app, bs, np);
	}
	fflush(app->f);
	return 0;
}

static int blame_reset(struct ss_app *app, void *st)
{
	struct blame_state *bs = st;

	if (app->o.blame && bs->ready) {
		drain(bs);
		drain_preempt(bs);
	}
	return 0;
}

static void blame_close(struct ss_app *app, void *st)
{
	struct blame_state *bs = st;

	memset(&app->blame, 0, sizeof(app->blame));
	free(bs->pmap.keys);
	free(bs->pmap.vals);
	free(bs->prows);
	free(bs->noisy);
	free(bs->noisy_text);
	free(bs->map.keys);
	free(bs->map.vals);
	free(bs->rows);
	free(bs->culprits);
	memset(bs, 0, sizeof(*bs));
}

const struct ss_feature ss_feat_blame = {
	.name = "blame",
	.state_size = sizeof(struct blame_state),
	.check = blame_check,
	.configure = blame_configure,
	.attach = blame_attach,
	.reset = blame_reset,
	.on_interval = blame_interval,
	.close = blame_close,
};

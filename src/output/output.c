// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - the interval rows: one record per row through the emitter
 * (emit.h), its fields from one column list.
 *
 * Table layout follows bcc's top-style tools (biotop, llcstat): an optional
 * HH:MM:SS line, a header, right-aligned numbers, one blank line after.
 * CSV and JSON keys are documented in the man page (FIELDS).
 */
#include "output.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgroup.h"
#include "colfit.h"
#include "events.h"
#include "format.h"
#include "psi.h"

/* ---- getters ---------------------------------------------------------- */

static void get_time(const struct ss_out *out, const struct ss_col *col,
		     const struct ss_interval *iv, const struct ss_row *r,
		     struct ss_value *c)
{
	c->kind = SS_VAL_DBL;
	c->d = (double)iv->end_realtime_ns / 1e9;
}

static void get_pid(const struct ss_out *out, const struct ss_col *col,
		    const struct ss_interval *iv, const struct ss_row *r,
		    struct ss_value *c)
{
	c->kind = SS_VAL_U64;
	c->u = r->key.tgid;
}

static void get_tid(const struct ss_out *out, const struct ss_col *col,
		    const struct ss_interval *iv, const struct ss_row *r,
		    struct ss_value *c)
{
	c->kind = SS_VAL_U64;
	c->u = r->key.tid;
}

static void get_comm(const struct ss_out *out, const struct ss_col *col,
		     const struct ss_interval *iv, const struct ss_row *r,
		     struct ss_value *c)
{
	c->kind = SS_VAL_STR;
	c->s = r->v.comm;
}

static void get_cgroup_id(const struct ss_out *out, const struct ss_col *col,
			  const struct ss_interval *iv, const struct ss_row *r,
			  struct ss_value *c)
{
	c->kind = SS_VAL_U64;
	c->u = r->v.cgroup_id;
}

/*
 * Name of a cgroup for display: the short container id when the path follows
 * a runtime's layout, else the path, else (gone, or no cgroup v2) NULL.
 */
static const char *cgroup_name(const struct ss_out *out, uint64_t id)
{
	static char cid[16];
	const char *path;

	if (!out->cg)
		return NULL;
	path = ss_cgroup_path(out->cg, id);
	if (!path)
		return NULL;
	if (out->o->per_cgroup && out->fmt == SS_FMT_TABLE &&
	    ss_container_id_from_path(path, cid, sizeof(cid)) == 1)
		return cid;
	return path;
}

static void get_cgroup(const struct ss_out *out, const struct ss_col *col,
		       const struct ss_interval *iv, const struct ss_row *r,
		       struct ss_value *c)
{
	static char num[24];
	const char *name = cgroup_name(out, r->v.cgroup_id);

	if (!name && !r->v.cgroup_id) {
		c->kind = SS_VAL_NULL; /* no cgroup: idle rows */
		return;
	}
	if (!name) { /* gone, or no cgroup v2 mount: the id, as a string */
		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)r->v.cgroup_id);
		name = num;
	}
	c->kind = SS_VAL_STR;
	c->s = name;
}

/*
 * -G: the cgroup's CPU pressure (psi.h) over the time since its last read,
 * read once per interval; null on its first interval or when unreadable.
 */
static void get_cpu_pressure(const struct ss_out *out, const struct ss_col *col,
			     const struct ss_interval *iv,
			     const struct ss_row *r, struct ss_value *c)
{
	struct ss_psi_ent *e = ss_psi_interval(
		out->psi, out->cg ? out->cg->mount : "",
		out->cg ? ss_cgroup_path(out->cg, r->v.cgroup_id) : NULL,
		r->v.cgroup_id, iv->end_realtime_ns);

	c->kind = SS_VAL_NULL;
	if (e && e->have_pct) {
		c->kind = SS_VAL_DBL;
		c->d = e->pct;
	}
}

#define GET_U64(fn, expr)                                                    \
	static void fn(const struct ss_out *out, const struct ss_col *col,   \
		       const struct ss_interval *iv, const struct ss_row *r, \
		       struct ss_value *c)                                   \
	{                                                                    \
		c->kind = SS_VAL_U64;                                        \
		c->u = (expr);                                               \
	}

GET_U64(get_switches, ss_row_switches(r))
GET_U64(get_voluntary, r->v.voluntary)
GET_U64(get_involuntary, r->v.involuntary)
GET_U64(get_oncpu, r->v.oncpu_ns)
GET_U64(get_dropped, iv->stats[SS_STAT_DROPS])

/* --rate: the row's switches of the kind in col->arg per second */
static void get_rate(const struct ss_out *out, const struct ss_col *col,
		     const struct ss_interval *iv, const struct ss_row *r,
		     struct ss_value *c)
{
	uint64_t n = col->arg == 1   ? r->v.voluntary
		     : col->arg == 2 ? r->v.involuntary
				     : ss_row_switches(r);

	c->kind = SS_VAL_DBL;
	c->d = ss_per_second(n, iv->interval_ns);
}

static void get_cpu_pct(const struct ss_out *out, const struct ss_col *col,
			const struct ss_interval *iv, const struct ss_row *r,
			struct ss_value *c)
{
	c->kind = SS_VAL_DBL;
	c->d = ss_cpu_pct(r->v.oncpu_ns, iv->interval_ns);
}

/* --offcpu: the row's off-CPU ns of the reasons in the mask col->arg */
static void get_offcpu(const struct ss_out *out, const struct ss_col *col,
		       const struct ss_interval *iv, const struct ss_row *r,
		       struct ss_value *c)
{
	c->kind = SS_VAL_U64;
	c->u = 0;
	for (int i = 0; i < SS_OFF_MAX; i++)
		if (col->arg >> i & 1)
			c->u += r->off_ns[i];
}

/*
 * How counter @i of row @r was measured (ss_rows_scale_counters ran); not
 * counted as well when it was off in one of the row's slices (its CPU
 * went down since the event was opened: probes/counters.bpf.h).
 */
static enum ss_ctr_state ctr_state(const struct ss_out *out,
				   const struct ss_row *r, int i)
{
	if (r->v.counter_lost & (1ULL << i))
		return SS_CTR_NOT_COUNTED;
	return ss_counter_state(out->ctr_timed & (1ULL << i),
				r->v.ctr_enabled_ns[i], r->v.ctr_running_ns[i]);
}

/*
 * A counter's count: n/a (CSV empty, JSON null) without a PMU or when the
 * event never ran in the row's slices (perf's <not counted>), never 0;
 * marked when it is a multiplexing estimate.
 */
static void get_counter(const struct ss_out *out, const struct ss_col *col,
			const struct ss_interval *iv, const struct ss_row *r,
			struct ss_value *c)
{
	enum ss_ctr_state st = ctr_state(out, r, col->arg);

	if (out->counters_na || (out->counter_na >> col->arg & 1) ||
	    st == SS_CTR_NOT_COUNTED) {
		c->kind = SS_VAL_NULL;
		return;
	}
	c->kind = SS_VAL_U64;
	c->u = r->v.counters[col->arg];
	c->mark = st == SS_CTR_SCALED ||
		  (r->v.counter_scaled & (1ULL << col->arg));
}

/* time_running / time_enabled of a counter over the row's slices, % */
static void get_running_pct(const struct ss_out *out, const struct ss_col *col,
			    const struct ss_interval *iv,
			    const struct ss_row *r, struct ss_value *c)
{
	int i = col->arg;
	double pct = ss_counter_running_pct(out->ctr_timed & (1ULL << i),
					    r->v.ctr_enabled_ns[i],
					    r->v.ctr_running_ns[i]);

	if (out->counters_na || isnan(pct)) {
		c->kind = SS_VAL_NULL;
		return;
	}
	c->kind = SS_VAL_DBL;
	c->d = pct;
}

static int counter_index(const struct ss_out *out, const char *name)
{
	for (int i = 0; i < out->nr_counters; i++)
		if (!strcmp(out->ctr_name[i], name))
			return i;
	return -1;
}

/*
 * arg packs two counter indexes: numerator << 8 | denominator. A ratio
 * needs both parts measured: n/a if either never ran.
 */
static void get_ratio(const struct ss_out *out, const struct ss_col *col,
		      const struct ss_interval *iv, const struct ss_row *r,
		      struct ss_value *c)
{
	int num = col->arg >> 8, den = col->arg & 0xff;
	enum ss_ctr_state sn = ctr_state(out, r, num),
			  sd = ctr_state(out, r, den);
	double v;

	if (out->counters_na ||
	    (out->counter_na & ((1ULL << num) | (1ULL << den))) ||
	    sn == SS_CTR_NOT_COUNTED || sd == SS_CTR_NOT_COUNTED) {
		c->kind = SS_VAL_NULL;
		return;
	}
	if (!strcmp(col->fd.key, "ipc"))
		v = ss_ipc(r->v.counters[num], r->v.counters[den]);
	else
		v = ss_mpki(r->v.counters[num], r->v.counters[den]);
	if (isnan(v)) {
		c->kind = SS_VAL_NULL;
		return;
	}
	c->kind = SS_VAL_DBL;
	c->d = v;
	c->mark = sn == SS_CTR_SCALED || sd == SS_CTR_SCALED ||
		  (r->v.counter_scaled & ((1ULL << num) | (1ULL << den)));
}

static void get_scaled(const struct ss_out *out, const struct ss_col *col,
		       const struct ss_interval *iv, const struct ss_row *r,
		       struct ss_value *c)
{
	bool measured = false;

	for (int i = 0; i < out->nr_counters; i++)
		if (ctr_state(out, r, i) != SS_CTR_NOT_COUNTED)
			measured = true;
	/* not measured (no PMU, or no event ran): never export a 0 */
	if (out->counters_na || !measured) {
		c->kind = SS_VAL_NULL;
		return;
	}
	c->kind = SS_VAL_U64;
	c->u = r->v.counter_scaled ? 1 : 0;
}

#define GET_MEM(fn, idx, expr)                                               \
	static void fn(const struct ss_out *out, const struct ss_col *col,   \
		       const struct ss_interval *iv, const struct ss_row *r, \
		       struct ss_value *c)                                   \
	{                                                                    \
		if (out->mem_na[idx]) {                                      \
			c->kind = SS_VAL_NULL;                               \
			return;                                              \
		}                                                            \
		c->kind = SS_VAL_U64;                                        \
		c->u = (expr);                                               \
	}

/* faults: n/a as well when the fault events were off in a slice (hotplug) */
static void get_faults(const struct ss_out *out, const struct ss_col *col,
		       const struct ss_interval *iv, const struct ss_row *r,
		       struct ss_value *c)
{
	if (out->mem_na[0] || (r->v.counter_lost & SS_LOST_FAULTS)) {
		c->kind = SS_VAL_NULL;
		return;
	}
	c->kind = SS_VAL_U64;
	c->u = r->v.faults;
}

GET_MEM(get_pgalloc, 1, r->v.pgalloc)
GET_MEM(get_reclaim_count, 2, r->v.reclaim_count)
GET_MEM(get_reclaim_ns, 2, r->v.reclaim_ns)

/* ---- column choice ---------------------------------------------------- */

/* @table: shown in the table (else CSV and JSON only) */
static struct ss_col *
add_col(struct ss_out *out, const char *head, const char *key, int width,
	bool table,
	void (*get)(const struct ss_out *, const struct ss_col *,
		    const struct ss_interval *, const struct ss_row *,
		    struct ss_value *))
{
	struct ss_col *c = &out->cols[out->ncols++];

	memset(c, 0, sizeof(*c));
	c->fd.head = table ? head : NULL;
	c->fd.key = key;
	c->fd.width = width;
	c->fd.tail = true;
	c->fd.decimals = 3;
	c->get = get;
	return c;
}

/* table decimals of a double (or divided) column; CSV/JSON get 4 */
static void set_decimals(struct ss_col *c, int table_decimals)
{
	c->fd.table_decimals = table_decimals;
	c->fd.decimals = 4;
}

/* one --offcpu column: key, table header (NULL: CSV/JSON only), reasons */
struct off_col {
	const char *key, *head;
	unsigned int mask;
};

#define OFF_BIT(r) (1u << (r))
#define OFF_D_GROUP                                         \
	(OFF_BIT(SS_OFF_BLOCK) | OFF_BIT(SS_OFF_KILLABLE) | \
	 OFF_BIT(SS_OFF_IDLE))
#define OFF_T_GROUP (OFF_BIT(SS_OFF_STOPPED) | OFF_BIT(SS_OFF_TRACED))

/* the table: five groups (D: D, D killable, I; T: T and t) */
static const struct off_col off_table[] = {
	{ "offcpu_ns", "OFFCPU(ms)", OFF_BIT(SS_OFF_MAX) - 1 },
	{ "offcpu_sleep_ns", "S(ms)", OFF_BIT(SS_OFF_SLEEP) },
	{ "offcpu_d_ns", "D(ms)", OFF_D_GROUP },
	{ "offcpu_iowait_ns", "IO(ms)", OFF_BIT(SS_OFF_IOWAIT) },
	{ "offcpu_t_ns", "T(ms)", OFF_T_GROUP },
	{ "offcpu_runq_ns", "R(ms)", OFF_BIT(SS_OFF_RUNQ) },
};

/* CSV and JSON: the total and every reason (man page, FIELDS) */
static const struct off_col off_machine[] = {
	{ "offcpu_ns", NULL, OFF_BIT(SS_OFF_MAX) - 1 },
	{ "offcpu_sleep_ns", NULL, OFF_BIT(SS_OFF_SLEEP) },
	{ "offcpu_block_ns", NULL, OFF_BIT(SS_OFF_BLOCK) },
	{ "offcpu_killable_ns", NULL, OFF_BIT(SS_OFF_KILLABLE) },
	{ "offcpu_iowait_ns", NULL, OFF_BIT(SS_OFF_IOWAIT) },
	{ "offcpu_idle_ns", NULL, OFF_BIT(SS_OFF_IDLE) },
	{ "offcpu_stopped_ns", NULL, OFF_BIT(SS_OFF_STOPPED) },
	{ "offcpu_traced_ns", NULL, OFF_BIT(SS_OFF_TRACED) },
	{ "offcpu_runq_ns", NULL, OFF_BIT(SS_OFF_RUNQ) },
	{ "offcpu_other_ns", NULL, OFF_BIT(SS_OFF_OTHER) },
};

/* --offcpu columns, after %CPU */
static void add_offcpu_cols(struct ss_out *out)
{
	bool table = out->fmt == SS_FMT_TABLE;
	const struct off_col *t = table ? off_table : off_machine;
	size_t n = table ? sizeof(off_table) / sizeof(off_table[0])
			 : sizeof(off_machine) / sizeof(off_machine[0]);

	for (size_t i = 0; i < n; i++) {
		struct ss_col *c = add_col(out, t[i].head, t[i].key, i ? 8 : 10,
					   table, get_offcpu);

		c->arg = t[i].mask;
		c->fd.unit = "ns";
		c->fd.style = SS_TS_DIV;
		c->fd.table_div = 1e6;
		set_decimals(c, 1);
	}
}

/* storage for generated header and key strings */
/* [i][2]: the running fraction's key, "<key>_running_pct" */
static char gen_names[SS_MAX_COUNTERS][3][SS_EVENT_NAME_LEN + 16];

/* drop ranks of the table's columns (colfit.h): higher goes first */
enum {
	DROP_NEVER, /* PID, TID, COMM, CGROUP (-G), VOL, INVOL, ONCPU(ms) */
	DROP_OTHER, /* the rest, rightmost first */
	DROP_MEM, /* PGALLOC, RECLAIM(ms) */
	DROP_PCT, /* %CPU: ONCPU(ms) over the interval */
	DROP_SUM, /* SWITCH = VOL + INVOL, SW/s */
	DROP_RAW, /* raw counts a shown IPC/MPKI is made of */
	DROP_CGID, /* -G: the CGROUP column names it */
	DROP_VCGROUP, /* -v's CGROUP column */
};

/* counter i is in the table: opened on this machine */
static bool counter_shown(const struct ss_out *out, int i)
{
	return !out->counters_na && !(out->counter_na >> i & 1);
}

/*
 * Fit the table's columns into out->max_width: abbreviate, then drop
 * (colfit.h); the dropped headers go to out->fit_dropped.
 */
static void fit_table(struct ss_out *out)
{
	struct ss_fit_col fc[SS_MAX_COLS] = { { 0 } };
	struct ss_fit_out fo[SS_MAX_COLS];
	int idx[SS_MAX_COLS], n = 0;
	size_t len = 0;

	out->fit_dropped[0] = '\0';
	if (out->fmt != SS_FMT_TABLE || out->max_width <= 0)
		return;
	for (int i = 0; i < out->ncols; i++) {
		const struct ss_col *c = &out->cols[i];

		if (!c->fd.head)
			continue;
		fc[n].width = abs(c->fd.width);
		if ((int)strlen(c->fd.head) > fc[n].width)
			fc[n].width = strlen(c->fd.head);
		fc[n].short_width = abs(c->short_width);
		fc[n].drop = c->drop;
		idx[n++] = i;
	}
	ss_fit_columns(fc, n, out->max_width, fo);
	for (int k = 0; k < n; k++) {
		struct ss_col *c = &out->cols[idx[k]];

		if (fo[k].shown && fo[k].abbreviated) {
			c->fd.width = c->short_width;
			if (c->short_head)
				c->fd.head = c->short_head;
		}
		if (fo[k].shown)
			continue;
		len += snprintf(out->fit_dropped + len,
				len < sizeof(out->fit_dropped)
					? sizeof(out->fit_dropped) - len
					: 0,
				"%s%s", len ? ", " : "", c->fd.head);
		if (len >= sizeof(out->fit_dropped))
			len = sizeof(out->fit_dropped) - 1;
		c->fd.head = NULL;
	}
}

/* ss_out_init - see output.h */
void ss_out_init(struct ss_out *out)
{
	const struct ss_opts *o = out->o;
	bool machine = out->fmt != SS_FMT_TABLE;
	struct ss_col *c;

	ss_emit_init(&out->e, NULL, out->fmt);
	out->ncols = 0;
	add_col(out, "TIME", "time", 0, false, get_time);
	if (o->per_cgroup) {
		add_col(out, "CGID", "cgroup_id", -8, true, get_cgroup_id)
			->drop = DROP_CGID;
		add_col(out, "CGROUP", "cgroup", -24, true, get_cgroup)
			->short_width = -16;
	} else {
		add_col(out, "PID", "pid", -7, true, get_pid);
		if (o->per_thread)
			add_col(out, "TID", "tid", -7, true, get_tid);
		c = add_col(out, "COMM", "comm", -16, true, get_comm);
		c->short_width = -12;
		c->fd.tail = false;
		c->fd.cut = true;
	}
	add_col(out, "SWITCH", "switches", 7, true, get_switches)->drop =
		DROP_SUM;
	add_col(out, "VOL", "voluntary", 7, true, get_voluntary);
	add_col(out, "INVOL", "involuntary", 7, true, get_involuntary);
	if (o->rate) {
		static const char *const rate_head[] = { "SW/s", "VOL/s",
							 "INVOL/s" };
		static const char *const rate_key[] = { "switches_per_s",
							"voluntary_per_s",
							"involuntary_per_s" };

		for (int k = 0; k < 3; k++) {
			c = add_col(out, rate_head[k], rate_key[k], 8, true,
				    get_rate);
			c->arg = k;
			c->fd.unit = "per second";
			c->drop = k ? DROP_OTHER : DROP_SUM;
			set_decimals(c, 1);
		}
	}
	c = add_col(out, "ONCPU(ms)", "oncpu_ns", 10, true, get_oncpu);
	c->fd.unit = "ns";
	c->fd.style = SS_TS_DIV;
	c->fd.table_div = 1e6;
	set_decimals(c, 2);
	c = add_col(out, "%CPU", "cpu_pct", 6, true, get_cpu_pct);
	c->fd.unit = "percent";
	c->drop = DROP_PCT;
	set_decimals(c, 1);
	if (o->per_cgroup && out->psi) {
		c = add_col(out, "CPU-PSI%", "cpu_pressure_pct", 8, true,
			    get_cpu_pressure);
		c->fd.unit = "percent";
		c->drop = DROP_OTHER;
		set_decimals(c, 1);
	}

	if (o->offcpu) { /* what was asked for: kept; the total is a sum */
		int first = out->ncols;

		add_offcpu_cols(out);
		for (int i = first; i < out->ncols; i++)
			out->cols[i].drop = i == first ? DROP_SUM : DROP_NEVER;
	}

	int cyc = counter_index(out, "cycles");
	int ins = counter_index(out, "instructions");
	int mis = counter_index(out, "cache-misses");
	/* the ratios shown in the table: both of their events opened */
	bool ipc = cyc >= 0 && ins >= 0;
	bool mpki = mis >= 0 && ins >= 0;
	bool ipc_shown =
		ipc && counter_shown(out, cyc) && counter_shown(out, ins);
	bool mpki_shown =
		mpki && counter_shown(out, mis) && counter_shown(out, ins);

	for (int i = 0; i < out->nr_counters; i++) {
		char *head = gen_names[i][0], *key = gen_names[i][1];
		const char *unit = ss_event_unit(out->ctr_name[i]);
		bool ns = unit && !strcmp(unit, "ns");
		int width;

		ss_event_head(out->ctr_name[i], head, SS_EVENT_NAME_LEN);
		ss_counter_key(out->ctr_name[i], key, SS_EVENT_NAME_LEN);
		/* CSV/JSON: how much of its enabled time it was counted */
		snprintf(gen_names[i][2], sizeof(gen_names[i][2]),
			 "%s_running_pct", key);
		if (ns) { /* a time: ns in CSV/JSON, ms in the table */
			strcat(head, "(ms)");
			strcat(key, "_ns");
		}
		width = strlen(head) > 8 ? (int)strlen(head) : 8;
		/*
		 * A counter that could not be opened (no PMU, or the PMU
		 * lacks it) leaves the table; CSV and JSON keep the field,
		 * empty / null.
		 */
		c = add_col(out, head, key, width, counter_shown(out, i),
			    get_counter);
		c->arg = i;
		if (ns) {
			c->fd.unit = "ns";
			c->fd.style = SS_TS_DIV;
			c->fd.table_div = 1e6;
			set_decimals(c, 2);
		} else {
			c->fd.unit = "count";
			c->fd.style = SS_TS_SI;
		}
		c->drop = (ipc_shown && (i == cyc || i == ins)) ||
					  (mpki_shown && (i == mis || i == ins))
				  ? DROP_RAW
				  : DROP_OTHER;
	}
	if (ipc) {
		c = add_col(out, "IPC", "ipc", 5, ipc_shown, get_ratio);
		c->arg = ins << 8 | cyc;
		c->drop = DROP_OTHER;
		set_decimals(c, 2);
	}
	if (mpki) {
		c = add_col(out, "MPKI", "mpki", 6, mpki_shown, get_ratio);
		c->arg = mis << 8 | ins;
		c->drop = DROP_OTHER;
		set_decimals(c, 2);
	}
	if (out->nr_counters)
		add_col(out, "SCALED", "scaled", 0, false, get_scaled)
			->fd.unit = "bool";

	if (o->memory) {
		c = add_col(out, "FAULTS", "faults", 8, true, get_faults);
		c->fd.unit = "count";
		c->fd.style = SS_TS_SI;
		c->drop = DROP_OTHER;
		c = add_col(out, "PGALLOC", "pgalloc", 8, true, get_pgalloc);
		c->fd.unit = "count";
		c->fd.style = SS_TS_SI;
		c->drop = DROP_MEM;
		c = add_col(out, "RECLAIMS", "reclaim_count", 0, false,
			    get_reclaim_count);
		c->fd.unit = "count";
		c = add_col(out, "RECLAIM(ms)", "reclaim_ns", 11, true,
			    get_reclaim_ns);
		c->fd.unit = "ns";
		c->fd.style = SS_TS_DIV;
		c->fd.table_div = 1e6;
		c->drop = DROP_MEM;
		c->short_width = 8;
		c->short_head = "RCLM(ms)";
		set_decimals(c, 2);
	}
	/* CSV/JSON: how much of its enabled time each event was counted
	 * (after the memory columns, so those keep their place) */
	for (int i = 0; i < out->nr_counters; i++) {
		c = add_col(out, NULL, gen_names[i][2], 0, false,
			    get_running_pct);
		c->fd.unit = "percent";
		c->arg = i;
		set_decimals(c, 1);
	}
	if (machine && !o->per_cgroup) {
		add_col(out, "CGID", "cgroup_id", 0, false, get_cgroup_id);
		add_col(out, "CGROUP", "cgroup", 0, false, get_cgroup);
	} else if (o->verbose && !o->per_cgroup) {
		c = add_col(out, "CGROUP", "cgroup", -24, true, get_cgroup);
		c->drop = DROP_VCGROUP;
		c->short_width = -16;
	}
	add_col(out, "DROPPED", "dropped", 0, false, get_dropped)->fd.unit =
		"count";
	fit_table(out);
}

/* ---- records -------------------------------------------------------- */

static size_t shown_rows(const struct ss_out *out, const struct ss_interval *iv)
{
	if (out->o->top && out->o->top < iv->n)
		return out->o->top;
	return iv->n;
}

static void emit_row(struct ss_out *out, const struct ss_interval *iv,
		     const struct ss_row *r)
{
	ss_emit_begin(&out->e, "row");
	for (int i = 0; i < out->ncols; i++) {
		const struct ss_col *col = &out->cols[i];
		struct ss_value v = { 0 };

		col->get(out, col, iv, r, &v);
		if (v.kind == SS_VAL_STR)
			v.maxlen = 4096;
		ss_emit_field(&out->e, &col->fd, &v);
	}
	ss_emit_end(&out->e);
}

/* ss_out_interval - see output.h */
void ss_out_interval(struct ss_out *out, FILE *f, const struct ss_interval *iv)
{
	struct ss_emit *e = &out->e;
	bool table = e->fmt == SS_FMT_TABLE;

	e->f = f;
	if (out->o->timestamp)
		ss_emit_timestamp(e, iv->end_realtime_ns);
	if (ss_emit_begin_header(e)) {
		for (int i = 0; i < out->ncols; i++)
			ss_emit_head(e, &out->cols[i].fd);
		ss_emit_end(e);
	}
	for (size_t r = 0; r < shown_rows(out, iv); r++)
		emit_row(out, iv, &iv->rows[r]);
	if (table) {
		char line[96];

		if (iv->stats[SS_STAT_DROPS]) {
			snprintf(line, sizeof(line),
				 "dropped %" PRIu64
				 " updates: map full (raise --map-entries)\n",
				 iv->stats[SS_STAT_DROPS]);
			ss_emit_raw(e, line);
		}
		ss_emit_raw(e, "\n");
	}
	fflush(f);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - table, CSV and NDJSON from one column list.
 *
 * Table layout follows bcc's top-style tools (biotop, llcstat): an optional
 * HH:MM:SS line, a header, right-aligned numbers, one blank line after.
 * CSV and JSON keys are documented in README.md ("Output fields").
 */
#include "output.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "cgroup.h"
#include "events.h"
#include "json.h"

/* ---- getters ---------------------------------------------------------- */

static void get_time(const struct ss_out *out, const struct ss_col *col,
		     const struct ss_interval *iv, const struct ss_row *r,
		     struct ss_cell *c)
{
	c->kind = SS_CELL_DBL;
	c->d = (double)iv->end_realtime_ns / 1e9;
}

static void get_pid(const struct ss_out *out, const struct ss_col *col,
		    const struct ss_interval *iv, const struct ss_row *r,
		    struct ss_cell *c)
{
	c->kind = SS_CELL_U64;
	c->u = r->key.tgid;
}

static void get_tid(const struct ss_out *out, const struct ss_col *col,
		    const struct ss_interval *iv, const struct ss_row *r,
		    struct ss_cell *c)
{
	c->kind = SS_CELL_U64;
	c->u = r->key.tid;
}

static void get_comm(const struct ss_out *out, const struct ss_col *col,
		     const struct ss_interval *iv, const struct ss_row *r,
		     struct ss_cell *c)
{
	c->kind = SS_CELL_STR;
	c->s = r->v.comm;
}

static void get_cgroup_id(const struct ss_out *out, const struct ss_col *col,
			  const struct ss_interval *iv, const struct ss_row *r,
			  struct ss_cell *c)
{
	c->kind = SS_CELL_U64;
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
	path = cgroup_path(out->cg, id);
	if (!path)
		return NULL;
	if (out->o->per_cgroup && !out->o->csv && !out->o->json &&
	    container_id_from_path(path, cid, sizeof(cid)) == 1)
		return cid;
	return path;
}

static void get_cgroup(const struct ss_out *out, const struct ss_col *col,
		       const struct ss_interval *iv, const struct ss_row *r,
		       struct ss_cell *c)
{
	static char num[24];
	const char *name = cgroup_name(out, r->v.cgroup_id);

	if (!name && !r->v.cgroup_id) {
		c->kind = SS_CELL_NA; /* no cgroup: idle rows */
		return;
	}
	if (!name) { /* gone, or no cgroup v2 mount: the id, as a string */
		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)r->v.cgroup_id);
		name = num;
	}
	c->kind = SS_CELL_STR;
	c->s = name;
}

#define GET_U64(fn, expr)                                                    \
	static void fn(const struct ss_out *out, const struct ss_col *col,   \
		       const struct ss_interval *iv, const struct ss_row *r, \
		       struct ss_cell *c)                                    \
	{                                                                    \
		c->kind = SS_CELL_U64;                                       \
		c->u = (expr);                                               \
	}

GET_U64(get_switches, ss_row_switches(r))
GET_U64(get_voluntary, r->v.voluntary)
GET_U64(get_involuntary, r->v.involuntary)
GET_U64(get_oncpu, r->v.oncpu_ns)
GET_U64(get_dropped, iv->stats[SS_STAT_DROPS])

static void get_cpu_pct(const struct ss_out *out, const struct ss_col *col,
			const struct ss_interval *iv, const struct ss_row *r,
			struct ss_cell *c)
{
	c->kind = SS_CELL_DBL;
	c->d = ss_cpu_pct(r->v.oncpu_ns, iv->interval_ns);
}

static void get_counter(const struct ss_out *out, const struct ss_col *col,
			const struct ss_interval *iv, const struct ss_row *r,
			struct ss_cell *c)
{
	if (out->counters_na) {
		c->kind = SS_CELL_NA;
		return;
	}
	c->kind = SS_CELL_U64;
	c->u = r->v.counters[col->arg];
	c->scaled = r->v.counter_scaled & (1ULL << col->arg);
}

static int counter_index(const struct ss_out *out, const char *name)
{
	for (int i = 0; i < out->nr_counters; i++)
		if (!strcmp(out->ctr_name[i], name))
			return i;
	return -1;
}

/* arg packs two counter indexes: numerator << 8 | denominator */
static void get_ratio(const struct ss_out *out, const struct ss_col *col,
		      const struct ss_interval *iv, const struct ss_row *r,
		      struct ss_cell *c)
{
	int num = col->arg >> 8, den = col->arg & 0xff;
	double v;

	if (out->counters_na) {
		c->kind = SS_CELL_NA;
		return;
	}
	if (!strcmp(col->key, "ipc"))
		v = ss_ipc(r->v.counters[num], r->v.counters[den]);
	else
		v = ss_mpki(r->v.counters[num], r->v.counters[den]);
	if (isnan(v)) {
		c->kind = SS_CELL_NA;
		return;
	}
	c->kind = SS_CELL_DBL;
	c->d = v;
	c->scaled = r->v.counter_scaled & ((1ULL << num) | (1ULL << den));
}

static void get_scaled(const struct ss_out *out, const struct ss_col *col,
		       const struct ss_interval *iv, const struct ss_row *r,
		       struct ss_cell *c)
{
	if (out->counters_na) { /* not measured: never export a 0 (H9) */
		c->kind = SS_CELL_NA;
		return;
	}
	c->kind = SS_CELL_U64;
	c->u = r->v.counter_scaled ? 1 : 0;
}

#define GET_MEM(fn, idx, expr)                                               \
	static void fn(const struct ss_out *out, const struct ss_col *col,   \
		       const struct ss_interval *iv, const struct ss_row *r, \
		       struct ss_cell *c)                                    \
	{                                                                    \
		if (out->mem_na[idx]) {                                      \
			c->kind = SS_CELL_NA;                                \
			return;                                              \
		}                                                            \
		c->kind = SS_CELL_U64;                                       \
		c->u = (expr);                                               \
	}

GET_MEM(get_faults, 0, r->v.faults)
GET_MEM(get_pgalloc, 1, r->v.pgalloc)
GET_MEM(get_reclaim_count, 2, r->v.reclaim_count)
GET_MEM(get_reclaim_ns, 2, r->v.reclaim_ns)

/* ---- column choice ---------------------------------------------------- */

static struct ss_col *
add_col(struct ss_out *out, const char *head, const char *key, int width,
	bool table,
	void (*get)(const struct ss_out *, const struct ss_col *,
		    const struct ss_interval *, const struct ss_row *,
		    struct ss_cell *))
{
	struct ss_col *c = &out->cols[out->ncols++];

	memset(c, 0, sizeof(*c));
	c->head = head;
	c->key = key;
	c->width = width;
	c->table = table;
	c->get = get;
	return c;
}

/* ss_counter_key - see output.h */
void ss_counter_key(const char *event, char *buf, size_t len)
{
	size_t i;

	for (i = 0; event[i] && i + 1 < len; i++)
		buf[i] = event[i] == '-' ? '_' : event[i];
	buf[i] = '\0';
}

static const char *counter_head(const char *name)
{
	static const struct {
		const char *event, *head;
	} heads[] = {
		{ "cycles", "CYCLES" },
		{ "instructions", "INSTR" },
		{ "cache-misses", "LLC-MISS" },
		{ "cache-references", "LLC-REF" },
		{ "branch-instructions", "BRANCH" },
		{ "branch-misses", "BR-MISS" },
		{ "cpu-clock", "CPU-CLK" },
		{ "task-clock", "TASK-CLK" },
		{ "page-faults", "FAULTS" },
		{ "minor-faults", "MINFLT" },
		{ "major-faults", "MAJFLT" },
		{ "context-switches", "CS" },
		{ "cpu-migrations", "MIGR" },
	};

	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (!strcmp(name, heads[i].event))
			return heads[i].head;
	return NULL;
}

/* storage for generated header and key strings */
static char gen_names[SS_MAX_COUNTERS][2][32];

/* ss_out_init - see output.h */
void ss_out_init(struct ss_out *out)
{
	const struct ss_opts *o = out->o;
	bool machine = o->csv || o->json;
	struct ss_col *c;

	out->ncols = 0;
	add_col(out, "TIME", "time", 0, false, get_time);
	if (o->per_cgroup) {
		add_col(out, "CGID", "cgroup_id", -8, true, get_cgroup_id);
		add_col(out, "CGROUP", "cgroup", -24, true, get_cgroup);
	} else {
		add_col(out, "PID", "pid", -7, true, get_pid);
		if (o->per_thread)
			add_col(out, "TID", "tid", -7, true, get_tid);
		add_col(out, "COMM", "comm", -16, true, get_comm);
	}
	add_col(out, "SWITCH", "switches", 7, true, get_switches);
	add_col(out, "VOL", "voluntary", 7, true, get_voluntary);
	add_col(out, "INVOL", "involuntary", 7, true, get_involuntary);
	c = add_col(out, "ONCPU(ms)", "oncpu_ns", 10, true, get_oncpu);
	c->table_div = 1e6;
	c->decimals = 2;
	c = add_col(out, "%CPU", "cpu_pct", 6, true, get_cpu_pct);
	c->decimals = 1;

	for (int i = 0; i < out->nr_counters; i++) {
		const char *head = counter_head(out->ctr_name[i]);

		if (!head) {
			size_t j;

			for (j = 0; out->ctr_name[i][j] && j < 10; j++)
				gen_names[i][0][j] =
					toupper(out->ctr_name[i][j]);
			gen_names[i][0][j] = '\0';
			head = gen_names[i][0];
		}
		ss_counter_key(out->ctr_name[i], gen_names[i][1], 32);
		/*
		 * Without a PMU the raw counts are all n/a: the table keeps
		 * only the derived IPC/MPKI columns (so it stays within 80
		 * columns), CSV and JSON keep every field (empty / null).
		 */
		c = add_col(out, head, gen_names[i][1], 8, !out->counters_na,
			    get_counter);
		c->si = true;
		c->arg = i;
	}
	int cyc = counter_index(out, "cycles");
	int ins = counter_index(out, "instructions");
	int mis = counter_index(out, "cache-misses");

	if (cyc >= 0 && ins >= 0) {
		c = add_col(out, "IPC", "ipc", 5, true, get_ratio);
		c->arg = ins << 8 | cyc;
		c->decimals = 2;
	}
	if (mis >= 0 && ins >= 0) {
		c = add_col(out, "MPKI", "mpki", 6, true, get_ratio);
		c->arg = mis << 8 | ins;
		c->decimals = 2;
	}
	if (out->nr_counters)
		add_col(out, "SCALED", "scaled", 0, false, get_scaled);

	if (o->memory) {
		c = add_col(out, "FAULTS", "faults", 8, true, get_faults);
		c->si = true;
		c = add_col(out, "PGALLOC", "pgalloc", 8, true, get_pgalloc);
		c->si = true;
		add_col(out, "RECLAIMS", "reclaim_count", 0, false,
			get_reclaim_count);
		c = add_col(out, "RECLAIM(ms)", "reclaim_ns", 11, true,
			    get_reclaim_ns);
		c->table_div = 1e6;
		c->decimals = 2;
	}
	if (machine && !o->per_cgroup) {
		add_col(out, "CGID", "cgroup_id", 0, false, get_cgroup_id);
		add_col(out, "CGROUP", "cgroup", 0, false, get_cgroup);
	} else if (o->verbose && !o->per_cgroup) {
		add_col(out, "CGROUP", "cgroup", -24, true, get_cgroup);
	}
	add_col(out, "DROPPED", "dropped", 0, false, get_dropped);
}

/* ---- formatting ------------------------------------------------------- */

/* ss_fmt_si - see output.h */
void ss_fmt_si(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "KMGTPE";
	double d = (double)v;
	int u = -1;

	if (v < 100000) {
		snprintf(buf, len, "%" PRIu64, v);
		return;
	}
	while (d >= 999.5 && u < 5) { /* 999.5 would print as "1000" */
		d /= 1000.0;
		u++;
	}
	if (d >= 99.95)
		snprintf(buf, len, "%.0f%c", d, units[u]);
	else if (d >= 9.995)
		snprintf(buf, len, "%.1f%c", d, units[u]);
	else
		snprintf(buf, len, "%.2f%c", d, units[u]);
}

/* ss_csv_field - see output.h */
void ss_csv_field(FILE *f, const char *s, size_t maxlen)
{
	size_t n = strnlen(s, maxlen);
	bool quote = false;

	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' ||
		    s[i] == '\r' || s[i] == ' ')
			quote = true;
	if (!quote) {
		fwrite(s, 1, n, f);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

/* Table cell text; printable copy of comm (control bytes become '?'). */
static void table_text(const struct ss_col *col, const struct ss_cell *c,
		       char *buf, size_t len)
{
	switch (c->kind) {
	case SS_CELL_NA:
		snprintf(buf, len, "n/a");
		return;
	case SS_CELL_STR: {
		size_t i, max = SS_COMM_LEN;

		if (col->width < 0 && (size_t)-col->width > max)
			max = -col->width;
		for (i = 0; c->s[i] && i < max && i + 1 < len; i++)
			buf[i] =
				isprint((unsigned char)c->s[i]) ? c->s[i] : '?';
		buf[i] = '\0';
		/* long paths: keep the tail, it is the distinctive part */
		if (col->width < 0 && strlen(c->s) > (size_t)-col->width &&
		    (size_t)-col->width < len) {
			size_t w = -col->width, l = strlen(c->s);

			snprintf(buf, len, "...%s", c->s + l - (w - 3));
			for (i = 3; buf[i]; i++)
				if (!isprint((unsigned char)buf[i]))
					buf[i] = '?';
		}
		return;
	}
	case SS_CELL_U64:
		if (col->table_div > 0)
			snprintf(buf, len, "%.*f", col->decimals,
				 (double)c->u / col->table_div);
		else if (col->si)
			ss_fmt_si(buf, len, c->u);
		else
			snprintf(buf, len, "%" PRIu64, c->u);
		break;
	case SS_CELL_DBL:
		snprintf(buf, len, "%.*f", col->decimals, c->d);
		break;
	}
	if (c->scaled && strlen(buf) + 1 < len)
		strcat(buf, "*");
}

static void print_timestamp(FILE *f, const struct ss_interval *iv)
{
	time_t t = iv->end_realtime_ns / 1000000000ULL;
	struct tm tm;
	char buf[16];

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
	fprintf(f, "%s\n", buf);
}

static size_t shown_rows(const struct ss_out *out, const struct ss_interval *iv)
{
	if (out->o->top && out->o->top < iv->n)
		return out->o->top;
	return iv->n;
}

static void print_table(struct ss_out *out, FILE *f,
			const struct ss_interval *iv)
{
	char buf[64];
	bool first = true;

	if (out->o->timestamp)
		print_timestamp(f, iv);
	for (int i = 0; i < out->ncols; i++) {
		const struct ss_col *col = &out->cols[i];

		if (!col->table)
			continue;
		fprintf(f, "%s%*s", first ? "" : " ", col->width, col->head);
		first = false;
	}
	fputc('\n', f);
	for (size_t r = 0; r < shown_rows(out, iv); r++) {
		first = true;
		for (int i = 0; i < out->ncols; i++) {
			const struct ss_col *col = &out->cols[i];
			struct ss_cell cell = { 0 };

			if (!col->table)
				continue;
			col->get(out, col, iv, &iv->rows[r], &cell);
			table_text(col, &cell, buf, sizeof(buf));
			fprintf(f, "%s%*s", first ? "" : " ", col->width, buf);
			first = false;
		}
		fputc('\n', f);
	}
	if (iv->stats[SS_STAT_DROPS])
		fprintf(f,
			"dropped %" PRIu64
			" updates: map full (raise --map-entries)\n",
			iv->stats[SS_STAT_DROPS]);
	fputc('\n', f);
}

static void print_csv(struct ss_out *out, FILE *f, const struct ss_interval *iv)
{
	if (!out->header_done) {
		for (int i = 0; i < out->ncols; i++)
			fprintf(f, "%s%s", i ? "," : "", out->cols[i].key);
		fputc('\n', f);
		out->header_done = true;
	}
	for (size_t r = 0; r < shown_rows(out, iv); r++) {
		for (int i = 0; i < out->ncols; i++) {
			const struct ss_col *col = &out->cols[i];
			struct ss_cell c = { 0 };

			if (i)
				fputc(',', f);
			col->get(out, col, iv, &iv->rows[r], &c);
			switch (c.kind) {
			case SS_CELL_U64:
				fprintf(f, "%" PRIu64, c.u);
				break;
			case SS_CELL_DBL:
				fprintf(f, "%.*f", col->decimals ? 4 : 3, c.d);
				break;
			case SS_CELL_STR:
				ss_csv_field(f, c.s, 4096);
				break;
			case SS_CELL_NA:
				break; /* empty field: not measured */
			}
		}
		fputc('\n', f);
	}
}

static void print_json(struct ss_out *out, FILE *f,
		       const struct ss_interval *iv)
{
	for (size_t r = 0; r < shown_rows(out, iv); r++) {
		struct json_obj o;

		json_begin(&o, f);
		json_key_str(&o, "type", "row", 8);
		for (int i = 0; i < out->ncols; i++) {
			const struct ss_col *col = &out->cols[i];
			struct ss_cell c = { 0 };

			col->get(out, col, iv, &iv->rows[r], &c);
			switch (c.kind) {
			case SS_CELL_U64:
				json_key_u64(&o, col->key, c.u);
				break;
			case SS_CELL_DBL:
				json_key_double(&o, col->key, c.d,
						col->decimals ? 4 : 3);
				break;
			case SS_CELL_STR:
				json_key_str(&o, col->key, c.s, 4096);
				break;
			case SS_CELL_NA:
				json_key_null(&o, col->key);
				break;
			}
		}
		json_end(&o);
	}
}

/* ss_out_interval - see output.h */
void ss_out_interval(struct ss_out *out, FILE *f, const struct ss_interval *iv)
{
	if (out->o->csv)
		print_csv(out, f, iv);
	else if (out->o->json)
		print_json(out, f, iv);
	else
		print_table(out, f, iv);
	fflush(f);
}

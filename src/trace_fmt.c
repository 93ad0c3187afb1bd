// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fmt.c - --trace lines as table, CSV or NDJSON from one column list.
 *
 * Table layout after bcc's per-event tools (runqslower, offcputime -f):
 * a header once, then one line per event, left-aligned ids and comms.
 */
#include "trace_fmt.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "json.h"
#include "output.h"

/* ---- prev_state ------------------------------------------------------- */

/* ss_trace_state_str - see trace_fmt.h */
const char *ss_trace_state_str(uint64_t prev_state, char *buf, size_t len)
{
	static const char letters[] = "SDTtXZPI"; /* bits 0x01 .. 0x80 */
	size_t n = 0;

	if (len < SS_STATE_STR_LEN) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	for (int i = 0; i < 8; i++) {
		if (!(prev_state & (1ULL << i)))
			continue;
		if (n)
			buf[n++] = '|';
		buf[n++] = letters[i];
	}
	if (!n)
		buf[n++] = 'R';
	if (prev_state & 0x100)
		buf[n++] = '+';
	buf[n] = '\0';
	return buf;
}

/* ss_trace_voluntary - see trace_fmt.h */
int ss_trace_voluntary(uint64_t prev_state)
{
	return (prev_state & SS_PREV_STATE_SLEEP_MASK) != 0;
}

/* table width of a counter column, at least */
#define CTR_WIDTH 10

/* ---- init ------------------------------------------------------------- */

/* ss_trace_fmt_init - see trace_fmt.h */
void ss_trace_fmt_init(struct ss_trace_fmt *t, const struct ss_opts *o,
		       uint64_t start_mono_ns, uint64_t start_real_ns,
		       int nr_counters, const char (*ctr_name)[32],
		       bool counters_na)
{
	memset(t, 0, sizeof(*t));
	t->csv = o->csv;
	t->json = o->json;
	t->wall_clock = o->timestamp;
	t->start_ns = start_mono_ns;
	t->mono_to_real_ns = (int64_t)(start_real_ns - start_mono_ns);
	if (!ctr_name || nr_counters < 0)
		nr_counters = 0;
	if (nr_counters > SS_MAX_COUNTERS)
		nr_counters = SS_MAX_COUNTERS;
	t->nr_counters = nr_counters;
	t->counters_na = counters_na;
	for (int i = 0; i < nr_counters; i++) {
		size_t j;

		ss_counter_key(ctr_name[i], t->ctr_key[i],
			       sizeof(t->ctr_key[i]));
		for (j = 0; ctr_name[i][j] && j + 1 < sizeof(t->ctr_head[i]);
		     j++)
			t->ctr_head[i][j] =
				toupper((unsigned char)ctr_name[i][j]);
		t->ctr_head[i][j] = '\0';
		t->ctr_width[i] = j > CTR_WIDTH ? (int)j : CTR_WIDTH;
	}
}

/* ---- line builder ----------------------------------------------------- */

/*
 * A line is built in memory and leaves in one fwrite: stdio calls per
 * character or field cost more than the formatting (> 100k lines/s).
 */
struct line {
	FILE *f;
	size_t n;
	char b[1024];
};

static void ln_flush(struct line *l)
{
	fwrite(l->b, 1, l->n, l->f);
	l->n = 0;
}

static void ln_mem(struct line *l, const char *s, size_t k)
{
	if (l->n + k > sizeof(l->b)) {
		ln_flush(l);
		if (k > sizeof(l->b)) {
			fwrite(s, 1, k, l->f);
			return;
		}
	}
	memcpy(l->b + l->n, s, k);
	l->n += k;
}

static void ln_str(struct line *l, const char *s)
{
	ln_mem(l, s, strlen(s));
}

static void ln_char(struct line *l, char c)
{
	ln_mem(l, &c, 1);
}

/* decimal digits of v into buf (>= 21 bytes, not terminated); length */
static size_t u64_digits(char *buf, uint64_t v)
{
	/* two digits per division: the lines are mostly numbers */
	static const char pairs[] = "00010203040506070809"
				    "10111213141516171819"
				    "20212223242526272829"
				    "30313233343536373839"
				    "40414243444546474849"
				    "50515253545556575859"
				    "60616263646566676869"
				    "70717273747576777879"
				    "80818283848586878889"
				    "90919293949596979899";
	char tmp[20];
	size_t n = sizeof(tmp);

	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		tmp[--n] = pairs[2 * r + 1];
		tmp[--n] = pairs[2 * r];
	}
	if (v >= 10) {
		tmp[--n] = pairs[2 * v + 1];
		tmp[--n] = pairs[2 * v];
	} else {
		tmp[--n] = '0' + v;
	}
	memcpy(buf, tmp + n, sizeof(tmp) - n);
	return sizeof(tmp) - n;
}

static void ln_u64(struct line *l, uint64_t v)
{
	char buf[24];

	ln_mem(l, buf, u64_digits(buf, v));
}

/* v / div as "int.frac" with digits decimals (div = 10^digits), exact */
static size_t fixed_text(char *buf, uint64_t v, uint64_t div, int digits)
{
	size_t n = u64_digits(buf, v / div);
	uint64_t frac = v % div;

	buf[n++] = '.';
	for (int i = digits - 1; i >= 0; i--) {
		buf[n + i] = '0' + frac % 10;
		frac /= 10;
	}
	return n + digits;
}

/* s (length k) in a field of width |w|: right-aligned, left if w < 0 */
static void ln_pad(struct line *l, const char *s, size_t k, int w)
{
	size_t width = w < 0 ? (size_t)-w : (size_t)w;
	static const char spaces[] = "                                ";
	size_t pad = width > k ? width - k : 0;

	if (w > 0)
		ln_mem(l, spaces, pad < 32 ? pad : 32);
	ln_mem(l, s, k);
	if (w < 0)
		ln_mem(l, spaces, pad < 32 ? pad : 32);
}

/* ---- columns ---------------------------------------------------------- */

enum cell_kind { CELL_U64, CELL_STR, CELL_TIME, CELL_SLICE, CELL_NA };

struct cell {
	enum cell_kind kind;
	uint64_t u;
	const char *s;
	size_t maxlen; /* for strings: comms are not always terminated */
};

/* The event with its counters known to be present. */
struct ev_view {
	const struct ss_trace_event *e;
	int nr_counters; /* counters present in the record */
	char state[SS_STATE_STR_LEN];
};

enum col_id {
	COL_TIME,
	COL_TS,
	COL_CPU,
	COL_PREV_PID,
	COL_PREV_TID,
	COL_PREV_COMM,
	COL_PREV_STATE,
	COL_VOLUNTARY,
	COL_NEXT_TID,
	COL_NEXT_COMM,
	COL_SLICE,
	COL_FIXED_MAX,
};

struct col {
	const char *head; /* table header, NULL: not in the table */
	const char *key; /* CSV / JSON */
	const char *json_key; /* ,"key": */
	int width; /* table width, negative: left-aligned */
};

#define COL(id, h, k, w) [id] = { h, k, ",\"" k "\":", w }

static const struct col cols[COL_FIXED_MAX] = {
	COL(COL_TIME, "TIME(s)", "time", -15),
	COL(COL_TS, NULL, "ts_ns", 0),
	COL(COL_CPU, "CPU", "cpu", 3),
	COL(COL_PREV_PID, "PREV_PID", "prev_pid", -8),
	COL(COL_PREV_TID, "PREV_TID", "prev_tid", -8),
	COL(COL_PREV_COMM, "PREV_COMM", "prev_comm", -16),
	COL(COL_PREV_STATE, "STATE", "prev_state", -5),
	COL(COL_VOLUNTARY, NULL, "voluntary", 0),
	COL(COL_NEXT_TID, "NEXT_TID", "next_tid", -8),
	COL(COL_NEXT_COMM, "NEXT_COMM", "next_comm", -16),
	COL(COL_SLICE, "SLICE(us)", "slice_ns", 10),
};

static void get_cell(const struct ev_view *v, int id, struct cell *c)
{
	const struct ss_trace_event *e = v->e;

	c->kind = CELL_U64;
	switch (id) {
	case COL_TIME:
		c->kind = CELL_TIME;
		c->u = e->ts_ns;
		break;
	case COL_TS:
		c->u = e->ts_ns;
		break;
	case COL_CPU:
		c->u = e->cpu;
		break;
	case COL_PREV_PID:
		c->u = e->prev_tgid;
		break;
	case COL_PREV_TID:
		c->u = e->prev_tid;
		break;
	case COL_PREV_COMM:
		c->kind = CELL_STR;
		c->s = e->prev_comm;
		c->maxlen = sizeof(e->prev_comm);
		break;
	case COL_PREV_STATE:
		c->kind = CELL_STR;
		c->s = v->state;
		c->maxlen = sizeof(v->state);
		break;
	case COL_VOLUNTARY:
		c->u = ss_trace_voluntary(e->prev_state);
		break;
	case COL_NEXT_TID:
		c->u = e->next_tid;
		break;
	case COL_NEXT_COMM:
		c->kind = CELL_STR;
		c->s = e->next_comm;
		c->maxlen = sizeof(e->next_comm);
		break;
	case COL_SLICE:
		if (!(e->flags & SS_TRACE_SLICE_KNOWN)) {
			c->kind = CELL_NA;
			break;
		}
		c->kind = CELL_SLICE;
		c->u = e->slice_ns;
		break;
	}
}

/* Counter i of the event, or n/a (no PMU, not read, no valid delta). */
static void get_counter(const struct ss_trace_fmt *t, const struct ev_view *v,
			int i, struct cell *c)
{
	if (t->counters_na || i >= v->nr_counters ||
	    !(v->e->counter_valid & (1ULL << i))) {
		c->kind = CELL_NA;
		return;
	}
	c->kind = CELL_U64;
	c->u = v->e->counters[i];
}

static void get_scaled(const struct ss_trace_fmt *t, const struct ev_view *v,
		       struct cell *c)
{
	if (t->counters_na || !v->e->counter_valid) {
		c->kind = CELL_NA;
		return;
	}
	c->kind = CELL_U64;
	c->u = v->e->counter_scaled ? 1 : 0;
}

/* wall-clock ns of a monotonic timestamp */
static uint64_t real_ns(const struct ss_trace_fmt *t, uint64_t ts_ns)
{
	return ts_ns + (uint64_t)t->mono_to_real_ns;
}

/* ---- table ------------------------------------------------------------ */

/* HH:MM:SS.uuuuuu local time; the HH:MM:SS part is cached per second */
static size_t wall_text(const struct ss_trace_fmt *t, uint64_t ts_ns, char *buf)
{
	static time_t cached_sec = -1;
	static char cached[16];
	uint64_t real = real_ns(t, ts_ns);
	time_t sec = real / 1000000000ULL;
	uint64_t us = real % 1000000000ULL / 1000;

	if (sec != cached_sec) {
		struct tm tm;

		localtime_r(&sec, &tm);
		strftime(cached, sizeof(cached), "%H:%M:%S", &tm);
		cached_sec = sec;
	}
	memcpy(buf, cached, 8);
	buf[8] = '.';
	for (int i = 14; i >= 9; i--) {
		buf[i] = '0' + us % 10;
		us /= 10;
	}
	return 15;
}

/* table text of a cell into buf (>= 48 bytes); returns its length */
static size_t table_text(const struct ss_trace_fmt *t, const struct cell *c,
			 char *buf)
{
	size_t i;

	switch (c->kind) {
	case CELL_U64:
		return u64_digits(buf, c->u);
	case CELL_STR:
		/* printable copy: control bytes and non-ASCII become '?' */
		for (i = 0; i < c->maxlen && c->s[i] && i < 47; i++)
			buf[i] =
				isprint((unsigned char)c->s[i]) ? c->s[i] : '?';
		return i;
	case CELL_TIME:
		if (t->wall_clock)
			return wall_text(t, c->u, buf);
		/* events from just before start (other CPUs' buffers): 0 */
		return fixed_text(
			buf,
			(c->u > t->start_ns ? c->u - t->start_ns : 0) / 1000,
			1000000, 6);
	case CELL_SLICE:
		return fixed_text(buf, c->u, 1000, 3); /* ns -> us */
	case CELL_NA:
		buf[0] = '-';
		return 1;
	}
	return 0;
}

static void print_table(const struct ss_trace_fmt *t, struct line *l,
			const struct ev_view *v)
{
	char buf[48];
	struct cell c;
	size_t n;

	for (int i = 0; i < COL_FIXED_MAX; i++) {
		if (!cols[i].head)
			continue;
		get_cell(v, i, &c);
		n = table_text(t, &c, buf);
		if (i)
			ln_char(l, ' ');
		ln_pad(l, buf, n, cols[i].width);
	}
	for (int i = 0; i < t->nr_counters; i++) {
		get_counter(t, v, i, &c);
		if (c.kind == CELL_NA)
			snprintf(buf, sizeof(buf), "n/a");
		else
			ss_fmt_si(buf, sizeof(buf) - 1, c.u);
		if (c.kind != CELL_NA && v->e->counter_scaled & (1ULL << i))
			strcat(buf, "*");
		ln_char(l, ' ');
		ln_pad(l, buf, strlen(buf), t->ctr_width[i]);
	}
	ln_char(l, '\n');
}

/* ---- CSV and JSON ----------------------------------------------------- */

/* epoch seconds with 6 decimals, exact (no double rounding) */
static void ln_epoch(const struct ss_trace_fmt *t, struct line *l,
		     uint64_t ts_ns)
{
	char buf[32];

	ln_mem(l, buf, fixed_text(buf, real_ns(t, ts_ns) / 1000, 1000000, 6));
}

/* a comm as a CSV field: as is, or quoted by ss_csv_field when needed */
static void ln_csv_str(struct line *l, const char *s, size_t maxlen)
{
	size_t n = strnlen(s, maxlen);

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' ||
		    s[i] == '\r' || s[i] == ' ') {
			ln_flush(l);
			ss_csv_field(l->f, s, maxlen);
			return;
		}
	}
	ln_mem(l, s, n);
}

/* a string as JSON: plain ASCII inline, anything else by json.c */
static void ln_json_str(struct line *l, const char *s, size_t maxlen)
{
	size_t n = strnlen(s, maxlen);

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\') {
			ln_flush(l);
			json_write_string(l->f, s, maxlen);
			return;
		}
	}
	ln_char(l, '"');
	ln_mem(l, s, n);
	ln_char(l, '"');
}

static void csv_cell(const struct ss_trace_fmt *t, struct line *l,
		     const struct cell *c)
{
	switch (c->kind) {
	case CELL_U64:
	case CELL_SLICE:
		ln_u64(l, c->u);
		break;
	case CELL_STR:
		ln_csv_str(l, c->s, c->maxlen);
		break;
	case CELL_TIME:
		ln_epoch(t, l, c->u);
		break;
	case CELL_NA:
		break; /* empty field: not measured */
	}
}

static void print_csv(const struct ss_trace_fmt *t, struct line *l,
		      const struct ev_view *v)
{
	struct cell c;

	for (int i = 0; i < COL_FIXED_MAX; i++) {
		get_cell(v, i, &c);
		if (i)
			ln_char(l, ',');
		csv_cell(t, l, &c);
	}
	for (int i = 0; i < t->nr_counters; i++) {
		get_counter(t, v, i, &c);
		ln_char(l, ',');
		csv_cell(t, l, &c);
	}
	if (t->nr_counters) {
		get_scaled(t, v, &c);
		ln_char(l, ',');
		csv_cell(t, l, &c);
	}
	ln_char(l, '\n');
}

/* ,"key":value ; key is a plain identifier (column keys, counter keys) */
static void json_cell(const struct ss_trace_fmt *t, struct line *l,
		      const char *key_sep, const char *key,
		      const struct cell *c)
{
	if (key_sep) {
		ln_str(l, key_sep);
	} else {
		ln_str(l, ",\"");
		ln_str(l, key);
		ln_str(l, "\":");
	}
	switch (c->kind) {
	case CELL_U64:
	case CELL_SLICE:
		ln_u64(l, c->u);
		break;
	case CELL_STR:
		ln_json_str(l, c->s, c->maxlen);
		break;
	case CELL_TIME:
		ln_epoch(t, l, c->u);
		break;
	case CELL_NA:
		ln_str(l, "null");
		break;
	}
}

static void print_json(const struct ss_trace_fmt *t, struct line *l,
		       const struct ev_view *v)
{
	struct cell c;

	ln_str(l, "{\"type\":\"switch\"");
	for (int i = 0; i < COL_FIXED_MAX; i++) {
		get_cell(v, i, &c);
		json_cell(t, l, cols[i].json_key, NULL, &c);
	}
	for (int i = 0; i < t->nr_counters; i++) {
		get_counter(t, v, i, &c);
		json_cell(t, l, NULL, t->ctr_key[i], &c);
	}
	if (t->nr_counters) {
		get_scaled(t, v, &c);
		json_cell(t, l, NULL, "scaled", &c);
	}
	ln_str(l, "}\n");
}

/* ---- public ----------------------------------------------------------- */

/* ss_trace_header - see trace_fmt.h */
void ss_trace_header(const struct ss_trace_fmt *t, FILE *f)
{
	if (t->json)
		return;
	if (t->csv) {
		for (int i = 0; i < COL_FIXED_MAX; i++)
			fprintf(f, "%s%s", i ? "," : "", cols[i].key);
		for (int i = 0; i < t->nr_counters; i++)
			fprintf(f, ",%s", t->ctr_key[i]);
		if (t->nr_counters)
			fputs(",scaled", f);
		fputc('\n', f);
		return;
	}
	for (int i = 0; i < COL_FIXED_MAX; i++) {
		const char *head = cols[i].head;

		if (!head)
			continue;
		if (i == COL_TIME && t->wall_clock)
			head = "TIME";
		fprintf(f, "%s%*s", i ? " " : "", cols[i].width, head);
	}
	for (int i = 0; i < t->nr_counters; i++)
		fprintf(f, " %*s", t->ctr_width[i], t->ctr_head[i]);
	fputc('\n', f);
}

/* ss_trace_print - see trace_fmt.h */
int ss_trace_print(const struct ss_trace_fmt *t, FILE *f, const void *raw,
		   size_t size)
{
	struct ss_trace_event e = { 0 };
	struct ev_view v = { .e = &e };
	struct line l;

	if (size < SS_TRACE_EVENT_SIZE(0))
		return -1;
	/* copy: perf records are only 8-byte aligned by luck of the layout */
	memcpy(&e, raw, size < sizeof(e) ? size : sizeof(e));
	e.ts_ns += (uint64_t)t->ktime_offset_ns; /* the user's clock */
	v.nr_counters = (size - SS_TRACE_EVENT_SIZE(0)) / sizeof(__u64);
	if (v.nr_counters > SS_MAX_COUNTERS)
		v.nr_counters = SS_MAX_COUNTERS;
	ss_trace_state_str(e.prev_state, v.state, sizeof(v.state));
	l.f = f;
	l.n = 0;
	if (t->json)
		print_json(t, &l, &v);
	else if (t->csv)
		print_csv(t, &l, &v);
	else
		print_table(t, &l, &v);
	ln_flush(&l);
	return 0;
}

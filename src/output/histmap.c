// SPDX-License-Identifier: GPL-2.0
/* histmap.c - sort and print one interval's histograms through the emitter. */
#include "histmap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "format.h"
#include "hist.h"
#include "histkind.h"

/* ss_hist_kind_name - see histmap.h */
const char *ss_hist_kind_name(unsigned int kind)
{
	const struct ss_hist_kind_def *k = ss_hist_kind_by_id(kind);

	return k ? k->name : "?";
}

/* ss_hist_total - see histmap.h */
uint64_t ss_hist_total(const struct ss_hist_val *v)
{
	uint64_t t = 0;

	for (int i = 0; i < SS_HIST_SLOTS; i++)
		t += v->slots[i];
	return t;
}

/* ss_hist_slot_bounds - see histmap.h */
void ss_hist_slot_bounds(unsigned int i, uint64_t *low, uint64_t *high)
{
	*low = i == 0 ? 0 : 1ULL << i;
	*high = i >= 63 ? UINT64_MAX : (1ULL << (i + 1)) - 1;
}

/* ss_hist_cpu_delta - see histmap.h */
int ss_hist_cpu_delta(const struct ss_hist_cpu *cpus, int ncpus,
		      uint64_t prev[SS_HK_MAX][SS_HIST_SLOTS],
		      unsigned int kinds, struct ss_hist_rec *out)
{
	int n = 0;

	for (unsigned int k = 0; k < SS_HK_MAX; k++) {
		struct ss_hist_rec *r = &out[n];

		if (!(kinds & (1U << k)))
			continue;
		memset(r, 0, sizeof(*r));
		r->key.kind = k;
		for (int s = 0; s < SS_HIST_SLOTS; s++) {
			uint64_t sum = 0;

			for (int cpu = 0; cpu < ncpus; cpu++)
				sum += cpus[cpu].slots[k][s];
			r->val.slots[s] = sum - prev[k][s];
			prev[k][s] = sum;
		}
		n++;
	}
	return n;
}

static int cmp_rec(const void *pa, const void *pb)
{
	const struct ss_hist_rec *a = pa, *b = pb;
	uint64_t ta, tb;

	if (a->key.kind != b->key.kind)
		return a->key.kind < b->key.kind ? -1 : 1;
	ta = ss_hist_total(&a->val);
	tb = ss_hist_total(&b->val);
	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->key.tgid != b->key.tgid)
		return a->key.tgid < b->key.tgid ? -1 : 1;
	if (a->key.tid != b->key.tid)
		return a->key.tid < b->key.tid ? -1 : 1;
	if (a->key.start_ns != b->key.start_ns) /* a reused pid */
		return a->key.start_ns < b->key.start_ns ? -1 : 1;
	if (a->key.cgroup_id != b->key.cgroup_id)
		return a->key.cgroup_id < b->key.cgroup_id ? -1 : 1;
	return 0;
}

/* ss_histmap_sort - see histmap.h */
void ss_histmap_sort(struct ss_hist_rec *r, size_t n)
{
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_rec);
}

/* the key a record is shown under @per ways (ss_histmap_merge) */
static struct ss_hist_key shown_key(const struct ss_hist_key *k, int per)
{
	struct ss_hist_key s = { .kind = k->kind };

	if (per == 1 || per == 2) {
		s.tgid = k->tgid;
		s.start_ns = k->start_ns;
	}
	if (per == 2)
		s.tid = k->tid;
	if (per == 3)
		s.cgroup_id = k->cgroup_id;
	return s;
}

static int cmp_shown(const void *pa, const void *pb)
{
	const struct ss_hist_key *a = pa, *b = pb;

	return memcmp(a, b, sizeof(*a));
}

/* ss_histmap_merge - see histmap.h */
size_t ss_histmap_merge(struct ss_hist_rec *r, size_t n, int per)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++)
		r[i].key = shown_key(&r[i].key, per);
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_shown); /* key first in the rec */
	for (size_t i = 0; i < n; i++) {
		if (out &&
		    !memcmp(&r[out - 1].key, &r[i].key, sizeof(r[i].key))) {
			for (int s = 0; s < SS_HIST_SLOTS; s++)
				r[out - 1].val.slots[s] += r[i].val.slots[s];
			/* the process's own name where one record has it */
			if (!r[out - 1].val.comm[0])
				memcpy(r[out - 1].val.comm, r[i].val.comm,
				       sizeof(r[i].val.comm));
			continue;
		}
		if (out != i)
			r[out] = r[i];
		out++;
	}
	ss_histmap_sort(r, out);
	return out;
}

/*
 * Name of a cgroup in a histogram: as the -G table names it (a container's
 * short id in the table), else its path, else the id.  @buf holds the id
 * or short id.
 */
static const char *cgroup_name(const struct ss_hist_fmt *fmt, uint64_t id,
			       bool table, char *buf, size_t len)
{
	const char *path = fmt->cg ? ss_cgroup_path(fmt->cg, id) : NULL;

	if (path && table && ss_container_id_from_path(path, buf, len) == 1)
		return buf;
	if (path)
		return path;
	snprintf(buf, len, "%llu", (unsigned long long)id);
	return buf;
}

/*
 * Walk state: is record i shown?  Skips empty histograms and those past
 * fmt->top within their kind (records must be sorted).
 */
struct walk {
	unsigned int kind;
	unsigned int shown;
};

static bool shown(struct walk *w, const struct ss_hist_rec *r,
		  const struct ss_hist_fmt *fmt)
{
	if (r->key.kind != w->kind) {
		w->kind = r->key.kind;
		w->shown = 0;
	}
	if (r->key.kind >= SS_HK_MAX || !ss_hist_total(&r->val))
		return false;
	if (fmt->top && w->shown >= fmt->top)
		return false;
	w->shown++;
	return true;
}

/* ss_histmap_text - see histmap.h */
void ss_histmap_text(struct ss_emit *e, const struct ss_hist_rec *r, size_t n,
		     const struct ss_hist_fmt *fmt)
{
	struct walk w = { .kind = -1U };
	unsigned int title = -1U;
	char comm[SS_COMM_LEN + 1], line[64], path[4096];

	for (size_t i = 0; i < n; i++) {
		if (!shown(&w, &r[i], fmt))
			continue;
		if (title != r[i].key.kind) {
			if (title != -1U)
				ss_emit_raw(e, "\n");
			title = r[i].key.kind;
			snprintf(line, sizeof(line), "%s:\n",
				 ss_hist_kind_by_id(title)->title);
			ss_emit_raw(e, line);
		}
		if (fmt->per == 3) {
			char id[24];
			const char *name = cgroup_name(fmt, r[i].key.cgroup_id,
						       true, id, sizeof(id));

			ss_emit_raw(e, "\ncgroup = ");
			ss_printable(path, sizeof(path), name, sizeof(path));
			ss_emit_raw(e, path);
			ss_emit_raw(e, "\n");
		} else if (fmt->per) {
			ss_printable(comm, sizeof(comm), r[i].val.comm,
				     SS_COMM_LEN);
			snprintf(line, sizeof(line), "\n%s = %" PRIu32 " %s\n",
				 fmt->per == 2 ? "tid" : "pid",
				 fmt->per == 2 ? r[i].key.tid : r[i].key.tgid,
				 comm);
			ss_emit_raw(e, line);
		}
		ss_emit_flush(e);
		ss_print_log2_hist(e->f, r[i].val.slots, SS_HIST_SLOTS,
				   fmt->ms ? "msecs" : "usecs");
	}
	if (title != -1U)
		ss_emit_raw(e, "\n");
}

enum {
	F_TIME,
	F_KIND,
	F_UNIT,
	F_PID,
	F_TID,
	F_COMM,
	F_LOW,
	F_HIGH,
	F_COUNT,
	F_MAX,
	F_CGROUP_ID = F_MAX, /* per cgroup: instead of pid, tid, comm */
	F_CGROUP,
	F_ALL,
};

/* slot records: machine formats only, so no table headers */
static const struct ss_field fields[F_ALL] = {
	[F_TIME] = { .key = "time", .unit = "s", .decimals = 3 },
	[F_KIND] = { .key = "kind" },
	[F_UNIT] = { .key = "unit" },
	[F_PID] = { .key = "pid" },
	[F_TID] = { .key = "tid" },
	[F_COMM] = { .key = "comm" },
	[F_LOW] = { .key = "low" },
	[F_HIGH] = { .key = "high" },
	[F_COUNT] = { .key = "count", .unit = "count" },
	[F_CGROUP_ID] = { .key = "cgroup_id" },
	[F_CGROUP] = { .key = "cgroup" },
};

/* the columns in order: per cgroup its id and path for pid, tid, comm */
static const int cols_task[] = { F_TIME, F_KIND, F_UNIT, F_PID,	 F_TID,
				 F_COMM, F_LOW,	 F_HIGH, F_COUNT };
static const int cols_cgroup[] = { F_TIME,   F_KIND, F_UNIT, F_CGROUP_ID,
				   F_CGROUP, F_LOW,  F_HIGH, F_COUNT };

static void header_fields(struct ss_emit *e, const struct ss_hist_fmt *fmt)
{
	const int *c = fmt->per == 3 ? cols_cgroup : cols_task;
	size_t n = fmt->per == 3 ? sizeof(cols_cgroup) / sizeof(int)
				 : sizeof(cols_task) / sizeof(int);

	for (size_t i = 0; i < n; i++)
		ss_emit_head(e, &fields[c[i]]);
}

/* ss_histmap_header - see histmap.h */
void ss_histmap_header(struct ss_emit *e, const struct ss_hist_fmt *fmt)
{
	if (!ss_emit_begin_header(e))
		return;
	header_fields(e, fmt);
	ss_emit_end(e);
}

/* ss_histmap_records - see histmap.h */
size_t ss_histmap_records(struct ss_emit *e, const struct ss_hist_rec *r,
			  size_t n, const struct ss_hist_fmt *fmt)
{
	const char *unit = fmt->ms ? "msecs" : "usecs";
	struct walk w = { .kind = -1U };
	size_t recs = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ss_hist_rec *h = &r[i];

		if (!shown(&w, h, fmt))
			continue;
		for (unsigned int s = 0; s < SS_HIST_SLOTS; s++) {
			uint64_t low, high;

			if (!h->val.slots[s])
				continue;
			ss_hist_slot_bounds(s, &low, &high);
			ss_emit_begin(e, "hist");
			ss_emit_double(e, &fields[F_TIME], fmt->time_s);
			ss_emit_str(e, &fields[F_KIND],
				    ss_hist_kind_name(h->key.kind), 16);
			ss_emit_str(e, &fields[F_UNIT], unit, 8);
			if (fmt->per == 3) {
				char id[24];

				ss_emit_u64(e, &fields[F_CGROUP_ID],
					    h->key.cgroup_id);
				ss_emit_str(e, &fields[F_CGROUP],
					    cgroup_name(fmt, h->key.cgroup_id,
							false, id, sizeof(id)),
					    4096);
				goto slot;
			}
			if (fmt->per)
				ss_emit_u64(e, &fields[F_PID], h->key.tgid);
			else
				ss_emit_null(e, &fields[F_PID]);
			if (fmt->per == 2)
				ss_emit_u64(e, &fields[F_TID], h->key.tid);
			else
				ss_emit_null(e, &fields[F_TID]);
			if (fmt->per)
				ss_emit_str(e, &fields[F_COMM], h->val.comm,
					    SS_COMM_LEN);
			else
				ss_emit_null(e, &fields[F_COMM]);
		slot:
			ss_emit_u64(e, &fields[F_LOW], low);
			ss_emit_u64(e, &fields[F_HIGH], high);
			ss_emit_u64(e, &fields[F_COUNT], h->val.slots[s]);
			ss_emit_end(e);
			recs++;
		}
	}
	return recs;
}

/* records ss_histmap_records would write */
static size_t count_records(const struct ss_hist_rec *r, size_t n,
			    const struct ss_hist_fmt *fmt)
{
	struct walk w = { .kind = -1U };
	size_t recs = 0;

	for (size_t i = 0; i < n; i++) {
		if (!shown(&w, &r[i], fmt))
			continue;
		for (unsigned int s = 0; s < SS_HIST_SLOTS; s++)
			recs += r[i].val.slots[s] != 0;
	}
	return recs;
}

/* ss_histmap_print - see histmap.h */
void ss_histmap_print(struct ss_emit *e, const struct ss_hist_rec *r, size_t n,
		      const struct ss_hist_fmt *fmt)
{
	bool block;

	if (e->fmt == SS_FMT_TABLE) {
		if (fmt->timestamp)
			ss_emit_timestamp(e, fmt->realtime_ns);
		ss_histmap_text(e, r, n, fmt);
		return;
	}
	if (fmt->alone) {
		ss_histmap_header(e, fmt);
		ss_histmap_records(e, r, n, fmt);
		return;
	}
	/* beside the interval rows: a block with its own header, if any */
	if (!count_records(r, n, fmt))
		return;
	ss_emit_reset_header(e);
	block = ss_emit_begin_header(e);
	if (block) {
		ss_emit_raw(e, "\n");
		header_fields(e, fmt);
		ss_emit_end(e);
	}
	ss_histmap_records(e, r, n, fmt);
	if (block)
		ss_emit_raw(e, "\n");
}

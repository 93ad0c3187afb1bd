// SPDX-License-Identifier: GPL-2.0
/* histmap.c - sort and print one interval's histograms (text, CSV, JSON). */
#include "histmap.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "json.h"
#include "output.h"

static const char *const kind_names[SS_HK_MAX] = { "oncpu", "offcpu", "runq" };
static const char *const kind_titles[SS_HK_MAX] = { "on-CPU time",
						    "off-CPU time",
						    "run-queue latency" };

/* ss_hist_kind_name - see histmap.h */
const char *ss_hist_kind_name(unsigned int kind)
{
	return kind < SS_HK_MAX ? kind_names[kind] : "?";
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
	return 0;
}

/* ss_histmap_sort - see histmap.h */
void ss_histmap_sort(struct ss_hist_rec *r, size_t n)
{
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_rec);
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

/* comm with control bytes as '?', always terminated */
static void printable_comm(const char *comm, char *buf)
{
	int i;

	for (i = 0; i < SS_COMM_LEN && comm[i]; i++)
		buf[i] = isprint((unsigned char)comm[i]) ? comm[i] : '?';
	buf[i] = '\0';
}

/* ss_histmap_text - see histmap.h */
void ss_histmap_text(FILE *f, const struct ss_hist_rec *r, size_t n,
		     const struct ss_hist_fmt *fmt)
{
	struct walk w = { .kind = -1U };
	unsigned int title = -1U;
	char comm[SS_COMM_LEN + 1];

	for (size_t i = 0; i < n; i++) {
		if (!shown(&w, &r[i], fmt))
			continue;
		if (title != r[i].key.kind) {
			if (title != -1U)
				fputc('\n', f);
			title = r[i].key.kind;
			fprintf(f, "%s:\n", kind_titles[title]);
		}
		if (fmt->per) {
			printable_comm(r[i].val.comm, comm);
			fprintf(f, "\n%s = %" PRIu32 " %s\n",
				fmt->per == 2 ? "tid" : "pid",
				fmt->per == 2 ? r[i].key.tid : r[i].key.tgid,
				comm);
		}
		ss_print_log2_hist(f, r[i].val.slots, SS_HIST_SLOTS,
				   fmt->ms ? "msecs" : "usecs");
	}
	if (title != -1U)
		fputc('\n', f);
}

/* ss_histmap_csv - see histmap.h */
size_t ss_histmap_csv(FILE *f, const struct ss_hist_rec *r, size_t n,
		      const struct ss_hist_fmt *fmt)
{
	struct walk w = { .kind = -1U };
	size_t lines = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ss_hist_rec *h = &r[i];

		if (!shown(&w, h, fmt))
			continue;
		for (unsigned int s = 0; s < SS_HIST_SLOTS; s++) {
			uint64_t low, high;

			if (!h->val.slots[s])
				continue;
			ss_hist_slot_bounds(s, &low, &high);
			fprintf(f, "%.3f,%s,%s,", fmt->time_s,
				ss_hist_kind_name(h->key.kind),
				fmt->ms ? "msecs" : "usecs");
			if (fmt->per)
				fprintf(f, "%" PRIu32, h->key.tgid);
			fputc(',', f);
			if (fmt->per == 2)
				fprintf(f, "%" PRIu32, h->key.tid);
			fputc(',', f);
			if (fmt->per)
				ss_csv_field(f, h->val.comm, SS_COMM_LEN);
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%llu\n", low, high,
				(unsigned long long)h->val.slots[s]);
			lines++;
		}
	}
	return lines;
}

/* ss_histmap_json - see histmap.h */
void ss_histmap_json(FILE *f, const struct ss_hist_rec *r, size_t n,
		     const struct ss_hist_fmt *fmt)
{
	struct walk w = { .kind = -1U };

	for (size_t i = 0; i < n; i++) {
		const struct ss_hist_rec *h = &r[i];

		if (!shown(&w, h, fmt))
			continue;
		for (unsigned int s = 0; s < SS_HIST_SLOTS; s++) {
			struct json_obj o;
			uint64_t low, high;

			if (!h->val.slots[s])
				continue;
			ss_hist_slot_bounds(s, &low, &high);
			json_begin(&o, f);
			json_key_str(&o, "type", "hist", 8);
			json_key_double(&o, "time", fmt->time_s, 3);
			json_key_str(&o, "kind", ss_hist_kind_name(h->key.kind),
				     16);
			json_key_str(&o, "unit", fmt->ms ? "msecs" : "usecs",
				     8);
			if (fmt->per)
				json_key_u64(&o, "pid", h->key.tgid);
			else
				json_key_null(&o, "pid");
			if (fmt->per == 2)
				json_key_u64(&o, "tid", h->key.tid);
			else
				json_key_null(&o, "tid");
			if (fmt->per)
				json_key_str(&o, "comm", h->val.comm,
					     SS_COMM_LEN);
			else
				json_key_null(&o, "comm");
			json_key_u64(&o, "low", low);
			json_key_u64(&o, "high", high);
			json_key_u64(&o, "count", h->val.slots[s]);
			json_end(&o);
		}
	}
}

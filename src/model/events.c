// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - the perf event table, list parsing and counter arithmetic.
 */
#define _GNU_SOURCE /* memrchr */
#include "events.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* perf's legacy cache config: cache | op << 8 | result << 16 */
#define HW_CACHE_CONFIG(cache, op, result)              \
	((uint64_t)PERF_COUNT_HW_CACHE_##cache |        \
	 ((uint64_t)PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_##result << 16))

/*
 * Every perf event switchstat knows, one row per distinct type/config:
 * perf list's first spelling (the canonical name used in output and for the
 * derived IPC/MPKI columns), the other spellings accepted by -e, and the
 * table column header (at most 10 characters), and the unit of a time
 * event's counts (NULL: a count).
 */
static const struct ss_event_def event_defs[] = {
	{ "cycles",
	  { "cpu-cycles" },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CPU_CYCLES,
	  "CYCLES",
	  NULL },
	{ "instructions",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_INSTRUCTIONS,
	  "INSTR",
	  NULL },
	{ "cache-references",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES,
	  "LLC-REF",
	  NULL },
	{ "cache-misses",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_MISSES,
	  "LLC-MISS",
	  NULL },
	{ "branch-instructions",
	  { "branches" },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "BRANCH",
	  NULL },
	{ "branch-misses",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_MISSES,
	  "BR-MISS",
	  NULL },
	{ "bus-cycles",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BUS_CYCLES,
	  "BUS-CYCLES",
	  NULL },
	{ "ref-cycles",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_REF_CPU_CYCLES,
	  "REF-CYCLES",
	  NULL },
	{ "stalled-cycles-frontend",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  "STALL-FE",
	  NULL },
	{ "stalled-cycles-backend",
	  { NULL },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  "STALL-BE",
	  NULL },
	{ "L1-dcache-loads",
	  { NULL },
	  PERF_TYPE_HW_CACHE,
	  HW_CACHE_CONFIG(L1D, READ, ACCESS),
	  "L1D-LD",
	  NULL },
	{ "L1-dcache-load-misses",
	  { NULL },
	  PERF_TYPE_HW_CACHE,
	  HW_CACHE_CONFIG(L1D, READ, MISS),
	  "L1D-LDMISS",
	  NULL },
	{ "LLC-loads",
	  { NULL },
	  PERF_TYPE_HW_CACHE,
	  HW_CACHE_CONFIG(LL, READ, ACCESS),
	  "LLC-LD",
	  NULL },
	/* perf decodes an LLC name with no operation as a read */
	{ "LLC-load-misses",
	  { "LLC-misses" },
	  PERF_TYPE_HW_CACHE,
	  HW_CACHE_CONFIG(LL, READ, MISS),
	  "LLC-LDMISS",
	  NULL },
	{ "cpu-clock",
	  { NULL },
	  PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CPU_CLOCK,
	  "CPU-CLK",
	  "ns" },
	{ "task-clock",
	  { NULL },
	  PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_TASK_CLOCK,
	  "TASK-CLK",
	  "ns" },
	{ "page-faults",
	  { "faults" },
	  PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_PAGE_FAULTS,
	  "PG-FAULTS",
	  NULL }, /* -M's column is FAULTS */
	{ "minor-faults",
	  { NULL },
	  PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_PAGE_FAULTS_MIN,
	  "MINFLT",
	  NULL },
	{ "major-faults",
	  { NULL },
	  PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	  "MAJFLT",
	  NULL },
	{ "context-switches",
	  { "cs" },
	  PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES,
	  "CS",
	  NULL },
	{ "cpu-migrations",
	  { "migrations" },
	  PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CPU_MIGRATIONS,
	  "MIGR",
	  NULL },
};

#define N_EVENT_DEFS (sizeof(event_defs) / sizeof(event_defs[0]))

/* ss_event_defs - see events.h */
size_t ss_event_defs(const struct ss_event_def **defs)
{
	*defs = event_defs;
	return N_EVENT_DEFS;
}

static bool spelled(const char *name, const char *s, size_t len)
{
	return name && strlen(name) == len && !memcmp(name, s, len);
}

/* the row one of whose spellings is [s, s + len), or NULL */
static const struct ss_event_def *def_named(const char *s, size_t len)
{
	for (size_t i = 0; i < N_EVENT_DEFS; i++) {
		const struct ss_event_def *d = &event_defs[i];

		if (spelled(d->name, s, len))
			return d;
		for (size_t a = 0; a < SS_EVENT_ALIASES; a++)
			if (spelled(d->alias[a], s, len))
				return d;
	}
	return NULL;
}

/* ss_event_def_of - see events.h */
const struct ss_event_def *ss_event_def_of(const struct ss_event *ev)
{
	if (ev->type == PERF_TYPE_RAW || ev->config1 || ev->config2 ||
	    ev->exclude_user || ev->exclude_kernel || ev->exclude_hv)
		return NULL;
	for (size_t i = 0; i < N_EVENT_DEFS; i++)
		if (event_defs[i].type == ev->type &&
		    event_defs[i].config == ev->config)
			return &event_defs[i];
	return NULL;
}

/* ss_event_canonical - see events.h */
void ss_event_canonical(const struct ss_event *ev, char *buf, size_t len)
{
	const struct ss_event_def *d = ss_event_def_of(ev);

	if (!len)
		return;
	snprintf(buf, len, "%s", d ? d->name : ev->name);
}

/* ss_event_head - see events.h */
void ss_event_head(const char *name, char *buf, size_t len)
{
	const struct ss_event_def *d = def_named(name, strlen(name));
	size_t i;

	if (!len)
		return;
	if (d) {
		snprintf(buf, len, "%s", d->head);
		return;
	}
	for (i = 0; name[i] && i < SS_EVENT_HEAD_LEN && i + 1 < len; i++)
		buf[i] = toupper((unsigned char)name[i]);
	buf[i] = '\0';
}

__attribute__((format(printf, 3, 4))) static void
set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Parse the hex digits after 'r' in [s, s + len). Returns 0, -1 for no or
 * non-hex digits, -2 when the value does not fit in 64 bits.
 */
static int parse_raw(const char *s, size_t len, uint64_t *config)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return -1;
	for (i = 0; i < len; i++) {
		int d = hexval(s[i]);

		if (d < 0)
			return -1;
		if (v >> 60)
			return -2;
		v = v << 4 | (uint64_t)d;
	}
	*config = v;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* ss_event_modifiers - see events.h */
int ss_event_modifiers(const char *m, size_t n, struct ss_event *ev)
{
	bool u = false, k = false, h = false;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (m[i] == 'u')
			u = true;
		else if (m[i] == 'k')
			k = true;
		else if (m[i] == 'h')
			h = true;
		else
			return -1;
	}
	ev->exclude_user = !u;
	ev->exclude_kernel = !k;
	ev->exclude_hv = !h;
	return 0;
}

/*
 * The length of [s, s + len) before ":mods" (len when there is no ':'),
 * with the modifiers applied to @ev; 0 when the part after the last ':' is
 * not perf's modifiers (libpfm4's "pmu::EVENT:UMASK" names go to the
 * resolver whole).
 */
static size_t split_modifiers(const char *s, size_t len, struct ss_event *ev)
{
	const char *colon = memrchr(s, ':', len);

	if (!colon)
		return len;
	if (colon == s || colon[-1] == ':' ||
	    ss_event_modifiers(colon + 1, (size_t)(s + len - colon - 1), ev))
		return 0;
	return (size_t)(colon - s);
}

/* ss_event_unit - see events.h */
const char *ss_event_unit(const char *name)
{
	struct ss_event ev;
	size_t len = strlen(name), base;
	const struct ss_event_def *d;

	memset(&ev, 0, sizeof(ev));
	base = split_modifiers(name, len, &ev);
	d = base ? def_named(name, base) : NULL;
	return d ? d->unit : NULL;
}

/* Fill @ev from the element [s, s + len); -1 with a message on failure. */
static int parse_one(const char *s, size_t len, struct ss_event *ev,
		     ss_event_resolve_fn resolve, char *err, size_t errlen)
{
	const struct ss_event_def *d;
	size_t base;
	int ret;

	memset(ev, 0, sizeof(*ev));
	if (len >= sizeof(ev->name)) {
		set_err(err, errlen, "event name \"%.*s\" is too long",
			(int)len, s);
		return -1;
	}
	base = split_modifiers(s, len, ev);
	d = base ? def_named(s, base) : NULL;
	if (d) {
		ev->type = d->type;
		ev->config = d->config;
		ev->hardware = d->type != PERF_TYPE_SOFTWARE;
		goto found;
	}
	ret = base && s[0] == 'r' ? parse_raw(s + 1, base - 1, &ev->config)
				  : -1;
	if (ret == -2) {
		set_err(err, errlen,
			"raw event \"%.*s\" does not fit in 64 bits", (int)len,
			s);
		return -1;
	}
	if (ret == 0) {
		ev->type = PERF_TYPE_RAW;
		ev->hardware = true;
		goto found;
	}
	if (resolve) {
		char name[SS_EVENT_NAME_LEN];

		memcpy(name, s, len);
		name[len] = '\0';
		memset(ev, 0, sizeof(*ev));
		if (resolve(name, ev, err, errlen))
			return -1;
		goto found;
	}
	if (s[0] == 'r' && base)
		set_err(err, errlen,
			"unknown event \"%.*s\" (raw events are r followed by "
			"1-16 hex digits)",
			(int)len, s);
	else
		set_err(err, errlen, "unknown event \"%.*s\"", (int)len, s);
	return -1;
found:
	memcpy(ev->name, s, len);
	ev->name[len] = '\0';
	return 0;
}

static bool same_event(const struct ss_event *a, const struct ss_event *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2 &&
	       a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv;
}

/*
 * The end of the element starting at @p: the next ',' outside a
 * pmu/.../ part (perf's terms are comma-separated inside the slashes).
 */
static const char *element_end(const char *p)
{
	bool in_pmu = false;

	for (; *p; p++) {
		if (*p == '/')
			in_pmu = !in_pmu;
		else if (*p == ',' && !in_pmu)
			break;
	}
	return p;
}

/* ss_events_parse - see events.h */
int ss_events_parse(const char *list, struct ss_event *out, int max, char *err,
		    size_t errlen)
{
	return ss_events_parse_with(list, out, max, NULL, err, errlen);
}

/* ss_events_parse_with - see events.h */
int ss_events_parse_with(const char *list, struct ss_event *out, int max,
			 ss_event_resolve_fn resolve, char *err, size_t errlen)
{
	const char *p = list ? list : "";
	int n = 0, pos = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!out || max <= 0) {
		set_err(err, errlen, "no room for events");
		return -1;
	}
	while (is_blank(*p))
		p++;
	if (*p == '\0') {
		set_err(err, errlen, "empty event list");
		return -1;
	}
	for (;;) {
		const char *start = p, *end = element_end(p);
		struct ss_event ev;
		size_t len;
		int i;

		pos++;
		while (start < end && is_blank(*start))
			start++;
		len = (size_t)(end - start);
		while (len && is_blank(start[len - 1]))
			len--;
		if (len == 0) {
			set_err(err, errlen,
				"empty event name at position %d in \"%s\"",
				pos, list);
			return -1;
		}
		if (parse_one(start, len, &ev, resolve, err, errlen))
			return -1;
		for (i = 0; i < n; i++) {
			if (same_event(&out[i], &ev)) {
				set_err(err, errlen,
					"duplicate event \"%s\" (same as "
					"\"%s\")",
					ev.name, out[i].name);
				return -1;
			}
		}
		if (n == max) {
			set_err(err, errlen,
				"too many events: at most %d can be counted",
				max);
			return -1;
		}
		out[n++] = ev;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	return n;
}

int ss_events_default(struct ss_event *out)
{
	int n = ss_events_parse("cycles,instructions,cache-misses", out, 3,
				NULL, 0);

	return n;
}

enum ss_delta_status ss_counter_delta(uint64_t prev, uint64_t cur,
				      bool have_prev, uint64_t *delta)
{
	*delta = 0;
	if ((int64_t)cur < 0)
		return SS_DELTA_ERROR;
	if (!have_prev)
		return SS_DELTA_FIRST;
	if ((int64_t)prev < 0)
		return SS_DELTA_ERROR;
	if (cur < prev)
		return SS_DELTA_BACKWARDS;
	*delta = cur - prev;
	return SS_DELTA_OK;
}

/* 128-bit intermediate for delta * enabled (GCC and Clang builtin type) */
__extension__ typedef unsigned __int128 u128;

uint64_t ss_counter_scale(uint64_t delta, uint64_t enabled_delta,
			  uint64_t running_delta, bool *scaled)
{
	u128 v;

	if (running_delta == 0) {
		*scaled = true;
		return 0;
	}
	if (running_delta >= enabled_delta) {
		*scaled = false;
		return delta;
	}
	*scaled = true;
	v = (u128)delta * enabled_delta / running_delta;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

enum ss_ctr_state ss_counter_state(bool timed, uint64_t enabled_ns,
				   uint64_t running_ns)
{
	if (!timed)
		return SS_CTR_COUNTED;
	if (running_ns == 0)
		return SS_CTR_NOT_COUNTED;
	return running_ns >= enabled_ns ? SS_CTR_COUNTED : SS_CTR_SCALED;
}

double ss_counter_running_pct(bool timed, uint64_t enabled_ns,
			      uint64_t running_ns)
{
	if (!timed)
		return 100.0;
	if (enabled_ns == 0)
		return NAN;
	if (running_ns >= enabled_ns)
		return 100.0;
	return (double)running_ns * 100.0 / (double)enabled_ns;
}

uint64_t ss_counter_estimate(bool timed, uint64_t raw, uint64_t enabled_ns,
			     uint64_t running_ns, enum ss_ctr_state *state)
{
	bool scaled;

	*state = ss_counter_state(timed, enabled_ns, running_ns);
	if (*state == SS_CTR_NOT_COUNTED)
		return 0;
	if (!timed)
		return raw;
	return ss_counter_scale(raw, enabled_ns, running_ns, &scaled);
}

double ss_ipc(uint64_t instructions, uint64_t cycles)
{
	if (cycles == 0)
		return NAN;
	return (double)instructions / (double)cycles;
}

double ss_mpki(uint64_t misses, uint64_t instructions)
{
	if (instructions == 0)
		return NAN;
	return (double)misses * 1000.0 / (double)instructions;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - perf event name table, list parsing and counter arithmetic.
 */
#include "events.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* perf's legacy cache config: cache | op << 8 | result << 16 */
#define HW_CACHE_CONFIG(cache, op, result)              \
	((uint64_t)PERF_COUNT_HW_CACHE_##cache |        \
	 ((uint64_t)PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_##result << 16))

struct event_name {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct event_name event_names[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "L1-dcache-loads", PERF_TYPE_HW_CACHE,
	  HW_CACHE_CONFIG(L1D, READ, ACCESS) },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE_CONFIG(L1D, READ, MISS) },
	{ "LLC-loads", PERF_TYPE_HW_CACHE, HW_CACHE_CONFIG(LL, READ, ACCESS) },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE_CONFIG(LL, READ, MISS) },
	/* perf falls back to the read op when none is named */
	{ "LLC-misses", PERF_TYPE_HW_CACHE, HW_CACHE_CONFIG(LL, READ, MISS) },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
};

#define N_EVENT_NAMES (sizeof(event_names) / sizeof(event_names[0]))

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

/* Fill @ev from the element [s, s + len); -1 with a message on failure. */
static int parse_one(const char *s, size_t len, struct ss_event *ev, char *err,
		     size_t errlen)
{
	size_t i;
	int ret;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < N_EVENT_NAMES; i++) {
		const struct event_name *e = &event_names[i];

		if (strlen(e->name) == len && !memcmp(e->name, s, len)) {
			ev->type = e->type;
			ev->config = e->config;
			ev->hardware = e->type != PERF_TYPE_SOFTWARE;
			goto found;
		}
	}
	if (s[0] != 'r') {
		set_err(err, errlen, "unknown event \"%.*s\"", (int)len, s);
		return -1;
	}
	ret = parse_raw(s + 1, len - 1, &ev->config);
	if (ret == -1) {
		set_err(err, errlen,
			"unknown event \"%.*s\" (raw events are r followed by "
			"1-16 hex digits)",
			(int)len, s);
		return -1;
	}
	if (ret == -2) {
		set_err(err, errlen,
			"raw event \"%.*s\" does not fit in 64 bits", (int)len,
			s);
		return -1;
	}
	ev->type = PERF_TYPE_RAW;
	ev->hardware = true;
found:
	if (len >= sizeof(ev->name)) {
		set_err(err, errlen, "event name \"%.*s\" is too long",
			(int)len, s);
		return -1;
	}
	memcpy(ev->name, s, len);
	ev->name[len] = '\0';
	return 0;
}

int events_parse(const char *list, struct ss_event *out, int max, char *err,
		 size_t errlen)
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
		const char *start = p, *end = strchr(p, ',');
		struct ss_event ev;
		size_t len;
		int i;

		if (!end)
			end = p + strlen(p);
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
		if (parse_one(start, len, &ev, err, errlen))
			return -1;
		for (i = 0; i < n; i++) {
			if (out[i].type == ev.type &&
			    out[i].config == ev.config) {
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

int events_default(struct ss_event *out)
{
	int n = events_parse("cycles,instructions,cache-misses", out, 3, NULL,
			     0);

	return n;
}

enum ss_delta_status counter_delta(uint64_t prev, uint64_t cur, bool have_prev,
				   uint64_t *delta)
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

uint64_t counter_scale(uint64_t delta, uint64_t enabled_delta,
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

double ipc(uint64_t instructions, uint64_t cycles)
{
	if (cycles == 0)
		return NAN;
	return (double)instructions / (double)cycles;
}

double mpki(uint64_t misses, uint64_t instructions)
{
	if (instructions == 0)
		return NAN;
	return (double)misses * 1000.0 / (double)instructions;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/model/events.c: event name parsing and counter arithmetic.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "events.h"

#define HWC(cache, op, result)                          \
	((uint64_t)PERF_COUNT_HW_CACHE_##cache |        \
	 ((uint64_t)PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_##result << 16))

struct name_case {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct name_case names[] = {
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
	{ "L1-dcache-loads", PERF_TYPE_HW_CACHE, HWC(L1D, READ, ACCESS) },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, HWC(L1D, READ, MISS) },
	{ "LLC-loads", PERF_TYPE_HW_CACHE, HWC(LL, READ, ACCESS) },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE, HWC(LL, READ, MISS) },
	{ "LLC-misses", PERF_TYPE_HW_CACHE, 0x10002 },
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
	{ "r0", PERF_TYPE_RAW, 0 },
	{ "r3c", PERF_TYPE_RAW, 0x3c },
	{ "r01C2", PERF_TYPE_RAW, 0x1c2 },
	{ "rffffffffffffffff", PERF_TYPE_RAW, UINT64_MAX },
	{ "r00000000000000000001", PERF_TYPE_RAW, 1 },
};

#define N_NAMES (sizeof(names) / sizeof(names[0]))

/* Parse @list expecting failure; return the message. */
static const char *parse_fail(const char *list, int max)
{
	static char err[256];
	struct ss_event ev[SS_MAX_EVENTS + 2];
	int n;

	strcpy(err, "(untouched)");
	n = ss_events_parse(list, ev, max, err, sizeof(err));
	cr_assert_eq(n, -1, "\"%s\" parsed to %d events", list, n);
	cr_assert(strchr(err, '\n') == NULL, "multi-line message: %s", err);
	return err;
}

Test(ss_events_parse, every_name_and_alias)
{
	size_t i;

	for (i = 0; i < N_NAMES; i++) {
		struct ss_event ev[SS_MAX_EVENTS];
		char err[128] = "";
		int n = ss_events_parse(names[i].name, ev, SS_MAX_EVENTS, err,
					sizeof(err));

		cr_assert_eq(n, 1, "%s: n=%d err=%s", names[i].name, n, err);
		cr_expect_str_eq(ev[0].name, names[i].name);
		cr_expect_eq(ev[0].type, names[i].type, "%s: type %u",
			     names[i].name, ev[0].type);
		cr_expect_eq(ev[0].config, names[i].config, "%s: config %#llx",
			     names[i].name, (unsigned long long)ev[0].config);
		cr_expect_eq(ev[0].hardware,
			     names[i].type != PERF_TYPE_SOFTWARE, "%s: hw",
			     names[i].name);
	}
}

Test(ss_events_parse, list_keeps_order_and_trims_blanks)
{
	struct ss_event ev[SS_MAX_EVENTS];
	char err[128] = "";
	int n = ss_events_parse(" cycles , instructions,\tcs ", ev,
				SS_MAX_EVENTS, err, sizeof(err));

	cr_assert_eq(n, 3, "err=%s", err);
	cr_expect_str_eq(ev[0].name, "cycles");
	cr_expect_str_eq(ev[1].name, "instructions");
	cr_expect_str_eq(ev[2].name, "cs");
	cr_expect_eq(ev[2].type, PERF_TYPE_SOFTWARE);
}

Test(ss_events_parse, exactly_max_events)
{
	struct ss_event ev[SS_MAX_EVENTS];
	const char *eight = "cycles,instructions,cache-misses,branch-misses,"
			    "cs,migrations,faults,r1";
	int n = ss_events_parse(eight, ev, SS_MAX_EVENTS, NULL, 0);

	cr_assert_eq(n, 8);
	cr_expect_str_eq(ev[7].name, "r1");
}

Test(ss_events_parse, more_than_max_says_the_limit)
{
	const char *err = parse_fail("cycles,instructions,cache-misses,"
				     "branch-misses,cs,migrations,faults,r1,r2",
				     SS_MAX_EVENTS);

	cr_expect(strstr(err, "too many events") != NULL, "%s", err);
	cr_expect(strstr(err, "8") != NULL, "%s", err);

	err = parse_fail("cycles,instructions,cs", 2);
	cr_expect(strstr(err, "at most 2") != NULL, "%s", err);
}

Test(ss_events_parse, empty_list)
{
	cr_expect_str_eq(parse_fail("", SS_MAX_EVENTS), "empty event list");
	cr_expect_str_eq(parse_fail("  ", SS_MAX_EVENTS), "empty event list");
	cr_expect_str_eq(parse_fail(NULL, SS_MAX_EVENTS), "empty event list");
}

Test(ss_events_parse, empty_element)
{
	const char *err = parse_fail("cycles,,instructions", SS_MAX_EVENTS);

	cr_expect(strstr(err, "empty event name at position 2") != NULL, "%s",
		  err);
	err = parse_fail("cycles,", SS_MAX_EVENTS);
	cr_expect(strstr(err, "empty event name at position 2") != NULL, "%s",
		  err);
	err = parse_fail(",cycles", SS_MAX_EVENTS);
	cr_expect(strstr(err, "empty event name at position 1") != NULL, "%s",
		  err);
	err = parse_fail("cycles, ,cs", SS_MAX_EVENTS);
	cr_expect(strstr(err, "position 2") != NULL, "%s", err);
}

Test(ss_events_parse, unknown_name_is_quoted)
{
	static const char *const bad[] = { "Cycles",	  "CYCLES",	"cycle",
					   "cycles:x",	  "LLC-Misses", "foo",
					   "cache_misses" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];
		const char *err;

		snprintf(want, sizeof(want), "unknown event \"%s\"", bad[i]);
		err = parse_fail(bad[i], SS_MAX_EVENTS);
		cr_expect(strncmp(err, want, strlen(want)) == 0, "%s: got '%s'",
			  bad[i], err);
	}
	/* the bad element is named, not the whole list */
	cr_expect_str_eq(parse_fail("cycles,bogus,cs", SS_MAX_EVENTS),
			 "unknown event \"bogus\"");
}

Test(ss_events_parse, raw_garbage_and_overflow)
{
	static const char *const garbage[] = { "r",   "rxyz", "r12g", "r0x10",
					       "r-1", "r 1",  "r1 2" };
	const char *err;
	size_t i;

	for (i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		err = parse_fail(garbage[i], SS_MAX_EVENTS);
		cr_expect(strstr(err, "hex digits") != NULL, "%s: %s",
			  garbage[i], err);
		cr_expect(strstr(err, garbage[i]) != NULL, "%s: %s", garbage[i],
			  err);
	}
	err = parse_fail("r10000000000000000", SS_MAX_EVENTS);
	cr_expect_str_eq(
		err,
		"raw event \"r10000000000000000\" does not fit in 64 bits");
	err = parse_fail("rffffffffffffffff0", SS_MAX_EVENTS);
	cr_expect(strstr(err, "does not fit in 64 bits") != NULL, "%s", err);
}

Test(ss_events_parse, duplicates_by_type_and_config)
{
	cr_expect_str_eq(
		parse_fail("cycles,instructions,cycles", SS_MAX_EVENTS),
		"duplicate event \"cycles\" (same as \"cycles\")");
	cr_expect_str_eq(parse_fail("cycles,cpu-cycles", SS_MAX_EVENTS),
			 "duplicate event \"cpu-cycles\" (same as \"cycles\")");
	cr_expect_str_eq(
		parse_fail("LLC-load-misses,LLC-misses", SS_MAX_EVENTS),
		"duplicate event \"LLC-misses\" (same as \"LLC-load-misses\")");
	cr_expect_str_eq(parse_fail("r3c,r003C", SS_MAX_EVENTS),
			 "duplicate event \"r003C\" (same as \"r3c\")");
}

Test(ss_events_parse, same_config_other_type_is_not_duplicate)
{
	struct ss_event ev[SS_MAX_EVENTS];

	/* cycles and cpu-clock are both config 0, raw r0 too */
	cr_expect_eq(ss_events_parse("cycles,cpu-clock,r0", ev, SS_MAX_EVENTS,
				     NULL, 0),
		     3);
}

Test(ss_events_parse, name_too_long)
{
	cr_expect_str_eq(
		parse_fail("r000000000000000000000000000000000000000000000000"
			   "0000000000000000000001",
			   SS_MAX_EVENTS),
		"event name \"r000000000000000000000000000000000000000000000000"
		"0000000000000000000001\" is too long");
}

/* perf's :u :k :h modifiers: naming any level excludes the others */
Test(ss_events_parse, modifiers_as_perf)
{
	static const struct {
		const char *name;
		bool xu, xk, xh;
	} cases[] = {
		{ "cycles:u", false, true, true },
		{ "cycles:k", true, false, true },
		{ "cycles:uk", false, false, true },
		{ "instructions:ukh", false, false, false },
		{ "r3c:u", false, true, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_event ev;
		char err[128] = "";

		cr_assert_eq(ss_events_parse(cases[i].name, &ev, 1, err,
					     sizeof(err)),
			     1, "%s: %s", cases[i].name, err);
		cr_expect_str_eq(ev.name, cases[i].name);
		cr_expect_eq(ev.exclude_user, cases[i].xu, "%s", cases[i].name);
		cr_expect_eq(ev.exclude_kernel, cases[i].xk, "%s",
			     cases[i].name);
		cr_expect_eq(ev.exclude_hv, cases[i].xh, "%s", cases[i].name);
		cr_expect(ev.hardware);
		/* a modified event is not the table's row: its own name */
		if (cases[i].xu || cases[i].xk || cases[i].xh)
			cr_expect_null(ss_event_def_of(&ev), "%s",
				       cases[i].name);
	}
	/* cycles and cycles:u count different things: both may be asked */
	{
		struct ss_event ev[2];

		cr_expect_eq(ss_events_parse("cycles,cycles:u", ev, 2, NULL, 0),
			     2);
		cr_expect_eq(ss_events_parse("cycles:u,cpu-cycles:u", ev, 2,
					     NULL, 0),
			     -1);
	}
	cr_expect(strstr(parse_fail("cycles:", SS_MAX_EVENTS), "unknown"));
	cr_expect(strstr(parse_fail("cycles:uz", SS_MAX_EVENTS), "unknown"));
}

static int resolver_calls;

/* a stand-in for src/kernel/event_encode.c: knows "pmu/x/" and "VENDOR.EV" */
static int fake_resolve(const char *name, struct ss_event *ev, char *err,
			size_t errlen)
{
	resolver_calls++;
	if (!strcmp(name, "cpu/event=0x3c,umask=0x1/")) {
		ev->type = 4;
		ev->config = 0x13c;
		ev->hardware = true;
		return 0;
	}
	if (!strcmp(name, "VENDOR.EV")) {
		ev->type = PERF_TYPE_RAW;
		ev->config = 0x5320d1;
		ev->hardware = true;
		return 0;
	}
	snprintf(err, errlen, "no such event \"%s\"", name);
	return -1;
}

/* names the table does not know go to the resolver; commas in pmu/../ stay */
Test(ss_events_parse, resolver_and_pmu_terms)
{
	struct ss_event ev[3];
	char err[128] = "";

	resolver_calls = 0;
	cr_assert_eq(ss_events_parse_with("cycles,cpu/event=0x3c,umask=0x1/,"
					  "VENDOR.EV",
					  ev, 3, fake_resolve, err,
					  sizeof(err)),
		     3, "%s", err);
	cr_expect_eq(resolver_calls, 2); /* not for the table's cycles */
	cr_expect_str_eq(ev[1].name, "cpu/event=0x3c,umask=0x1/");
	cr_expect_eq(ev[1].type, 4);
	cr_expect_eq(ev[1].config, 0x13c);
	cr_expect_str_eq(ev[2].name, "VENDOR.EV");
	cr_expect_eq(ev[2].config, 0x5320d1);
	cr_expect_eq(ss_events_parse_with("nope", ev, 3, fake_resolve, err,
					  sizeof(err)),
		     -1);
	cr_expect_str_eq(err, "no such event \"nope\"");
}

Test(ss_events_default, cycles_instructions_cache_misses)
{
	struct ss_event ev[3];

	cr_assert_eq(ss_events_default(ev), 3);
	cr_expect_str_eq(ev[0].name, "cycles");
	cr_expect_eq(ev[0].config, PERF_COUNT_HW_CPU_CYCLES);
	cr_expect_str_eq(ev[1].name, "instructions");
	cr_expect_eq(ev[1].config, PERF_COUNT_HW_INSTRUCTIONS);
	cr_expect_str_eq(ev[2].name, "cache-misses");
	cr_expect_eq(ev[2].config, PERF_COUNT_HW_CACHE_MISSES);
	cr_expect(ev[0].type == PERF_TYPE_HARDWARE && ev[0].hardware);
}

Test(ss_counter_delta, first_reading)
{
	uint64_t d = 123;

	cr_expect_eq(ss_counter_delta(0, 500, false, &d), SS_DELTA_FIRST);
	cr_expect_eq(d, 0);
	/* prev is ignored without have_prev, even if it looks like an error */
	cr_expect_eq(ss_counter_delta((uint64_t)-5, 500, false, &d),
		     SS_DELTA_FIRST);
}

Test(ss_counter_delta, ok)
{
	uint64_t d = 0;

	cr_expect_eq(ss_counter_delta(100, 350, true, &d), SS_DELTA_OK);
	cr_expect_eq(d, 250);
	cr_expect_eq(ss_counter_delta(7, 7, true, &d), SS_DELTA_OK);
	cr_expect_eq(d, 0);
	cr_expect_eq(ss_counter_delta(0, INT64_MAX, true, &d), SS_DELTA_OK);
	cr_expect_eq(d, (uint64_t)INT64_MAX);
}

Test(ss_counter_delta, backwards_is_not_wrapped)
{
	uint64_t d = 99;

	cr_expect_eq(ss_counter_delta(1000, 999, true, &d), SS_DELTA_BACKWARDS);
	cr_expect_eq(d, 0, "no wrap-around delta, got %llu",
		     (unsigned long long)d);
}

Test(ss_counter_delta, error_codes)
{
	uint64_t d = 99;

	/* -EINVAL / -ENOENT as bpf_perf_event_read_value() returns them */
	cr_expect_eq(ss_counter_delta(100, (uint64_t)(int64_t)-22, true, &d),
		     SS_DELTA_ERROR);
	cr_expect_eq(d, 0);
	cr_expect_eq(ss_counter_delta(100, (uint64_t)(int64_t)-2, false, &d),
		     SS_DELTA_ERROR);
	cr_expect_eq(ss_counter_delta((uint64_t)(int64_t)-2, 100, true, &d),
		     SS_DELTA_ERROR);
	cr_expect_eq(ss_counter_delta(0, (uint64_t)INT64_MAX + 1, true, &d),
		     SS_DELTA_ERROR);
}

Test(ss_counter_scale, exact_when_always_running)
{
	bool scaled = true;

	cr_expect_eq(ss_counter_scale(12345, 1000, 1000, &scaled), 12345);
	cr_expect(!scaled);
	scaled = true;
	/* running > enabled (clock skew) is not scaled down */
	cr_expect_eq(ss_counter_scale(12345, 1000, 1001, &scaled), 12345);
	cr_expect(!scaled);
	scaled = true;
	cr_expect_eq(ss_counter_scale(0, 0, 0, &scaled), 0);
	cr_expect(scaled, "running == 0 is reported as not counted");
}

Test(ss_counter_scale, multiplexed)
{
	bool scaled = false;

	/* counted half the time: doubled */
	cr_expect_eq(ss_counter_scale(1000, 2000000, 1000000, &scaled), 2000);
	cr_expect(scaled);
	/* 1000 * 3 / 2 */
	cr_expect_eq(ss_counter_scale(1000, 3, 2, &scaled), 1500);
	/* truncated: 10 * 7 / 3 = 23.3 */
	cr_expect_eq(ss_counter_scale(10, 7, 3, &scaled), 23);
}

Test(ss_counter_scale, never_ran)
{
	bool scaled = false;

	cr_expect_eq(ss_counter_scale(500, 1000, 0, &scaled), 0);
	cr_expect(scaled);
}

Test(ss_counter_scale, no_64bit_overflow)
{
	bool scaled = false;
	uint64_t delta = 1ULL << 62;

	/* delta * enabled overflows 64 bits; the quotient fits */
	cr_expect_eq(
		ss_counter_scale(delta, 3000000000ULL, 1000000000ULL, &scaled),
		3ULL << 62);
	cr_expect(scaled);
	cr_expect_eq(ss_counter_scale(UINT64_MAX - 1, UINT64_MAX,
				      UINT64_MAX - 1, &scaled),
		     UINT64_MAX);
	/* 2^40 * 10^12 / (10^12 - 1): exact integer result */
	cr_expect_eq(ss_counter_scale(1ULL << 40, 1000000000000ULL,
				      999999999999ULL, &scaled),
		     1099511627777ULL);
	/* result above 2^64 saturates */
	cr_expect_eq(ss_counter_scale(UINT64_MAX, 4, 2, &scaled), UINT64_MAX);
}

Test(ratios, ipc)
{
	cr_expect_float_eq(ss_ipc(3000, 1000), 3.0, 1e-12);
	cr_expect_float_eq(ss_ipc(500, 1000), 0.5, 1e-12);
	cr_expect_float_eq(ss_ipc(0, 1000), 0.0, 1e-12);
	cr_expect(isnan(ss_ipc(1000, 0)));
	cr_expect(isnan(ss_ipc(0, 0)));
}

Test(ratios, mpki)
{
	cr_expect_float_eq(ss_mpki(5, 1000), 5.0, 1e-12);
	cr_expect_float_eq(ss_mpki(1, 1000000), 0.001, 1e-15);
	cr_expect_float_eq(ss_mpki(0, 1000), 0.0, 1e-12);
	cr_expect(isnan(ss_mpki(5, 0)));
	cr_expect(isnan(ss_mpki(0, 0)));
}

/* ---- a row's count of a multiplexed event (H27) ------------------------- */

/* enabled/running summed over a task's slices in an interval, ns */
Test(ss_counter_state, never_partly_fully_untimed)
{
	cr_expect_eq(ss_counter_state(true, 4000000, 0), SS_CTR_NOT_COUNTED);
	cr_expect_eq(ss_counter_state(true, 0, 0), SS_CTR_NOT_COUNTED,
		     "nothing read is not measured, not 0");
	cr_expect_eq(ss_counter_state(true, 4000000, 1), SS_CTR_SCALED);
	cr_expect_eq(ss_counter_state(true, 4000000, 3999999), SS_CTR_SCALED);
	cr_expect_eq(ss_counter_state(true, 4000000, 4000000), SS_CTR_COUNTED);
	/* running a few ns past enabled (reads ns apart): not an estimate */
	cr_expect_eq(ss_counter_state(true, 4000000, 4000003), SS_CTR_COUNTED);
	/* software events (not read with times) are never multiplexed */
	cr_expect_eq(ss_counter_state(false, 0, 0), SS_CTR_COUNTED);
}

Test(ss_counter_running_pct, fractions)
{
	cr_expect_float_eq(ss_counter_running_pct(true, 4000000, 0), 0.0,
			   1e-12);
	cr_expect_float_eq(ss_counter_running_pct(true, 4000000, 1000000), 25.0,
			   1e-12);
	cr_expect_float_eq(ss_counter_running_pct(true, 3, 1), 100.0 / 3,
			   1e-12);
	cr_expect_float_eq(ss_counter_running_pct(true, 4000000, 4000000),
			   100.0, 1e-12);
	cr_expect_float_eq(ss_counter_running_pct(true, 4000000, 4000009),
			   100.0, 1e-12, "never over 100");
	cr_expect(isnan(ss_counter_running_pct(true, 0, 0)), "nothing read");
	cr_expect_float_eq(ss_counter_running_pct(false, 0, 0), 100.0, 1e-12);
}

Test(ss_counter_estimate, scales_the_sums_once)
{
	enum ss_ctr_state st;

	/* one slice counted 1 ms of 4 ms: 6000 seen, 24000 estimated */
	cr_expect_eq(ss_counter_estimate(true, 6000, 4000000, 1000000, &st),
		     24000);
	cr_expect_eq(st, SS_CTR_SCALED);
	/* never ran: 0, and said so */
	cr_expect_eq(ss_counter_estimate(true, 0, 4000000, 0, &st), 0);
	cr_expect_eq(st, SS_CTR_NOT_COUNTED);
	cr_expect_eq(ss_counter_estimate(true, 77, 4000000, 4000000, &st), 77);
	cr_expect_eq(st, SS_CTR_COUNTED);
	cr_expect_eq(ss_counter_estimate(false, 77, 0, 0, &st), 77);
	cr_expect_eq(st, SS_CTR_COUNTED);
	/*
	 * Two slices, the first never on the PMU (de 3 ms, dr 0), the second
	 * fully (de = dr = 1 ms, 1000 events): perf's per-task estimate is
	 * 1000 * 4 / 1 = 4000, where scaling each slice and summing says 1000
	 */
	cr_expect_eq(ss_counter_estimate(true, 0 + 1000, 3000000 + 1000000,
					 0 + 1000000, &st),
		     4000);
	cr_expect_eq(st, SS_CTR_SCALED);
}

/* time events count ns (their columns show ms); everything else counts */
Test(ss_event_unit, clocks_are_ns)
{
	cr_expect_str_eq(ss_event_unit("cpu-clock"), "ns");
	cr_expect_str_eq(ss_event_unit("task-clock"), "ns");
	cr_expect_str_eq(ss_event_unit("task-clock:u"), "ns");
	cr_expect_null(ss_event_unit("cycles"));
	cr_expect_null(ss_event_unit("page-faults"));
	cr_expect_null(ss_event_unit("r01c2"));
	cr_expect_null(ss_event_unit("cpu/cpu-clock/"));
	cr_expect_null(ss_event_unit(""));
}

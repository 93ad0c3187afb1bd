// SPDX-License-Identifier: GPL-2.0
/* Unit tests for src/output/trace_fmt.c: prev_state letters and --trace lines. */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "trace_fmt.h"

/* monotonic 0 is wall clock 1700000000 s */
#define REAL0 1700000000000000000ULL

static const char ctr_names[SS_MAX_COUNTERS][SS_EVENT_NAME_LEN] = {
	"cpu-clock", "page-faults"
};

/* the emitter of the format under test; print() points it at its stream */
static struct ss_emit em;

static void fmt(struct ss_trace_fmt *t, bool csv, bool json, int nr_counters,
		bool na)
{
	ss_emit_init(&em, NULL,
		     csv    ? SS_FMT_CSV
		     : json ? SS_FMT_JSON
			    : SS_FMT_TABLE);
	ss_trace_fmt_init(t, &em, false, 1000000000ULL, REAL0 + 1000000000ULL,
			  nr_counters, ctr_names, na, 0);
}

static struct ss_trace_event event(void)
{
	struct ss_trace_event e = { 0 };

	e.ts_ns = 3123456789ULL; /* 2.123456789 s after start */
	e.slice_ns = 1234567;
	e.flags = SS_TRACE_SLICE_KNOWN;
	e.prev_state = 0x1;
	e.cpu = 1;
	e.prev_tgid = 100;
	e.prev_tid = 101;
	e.next_tid = 202;
	strcpy(e.prev_comm, "ping");
	strcpy(e.next_comm, "pong");
	return e;
}

/* ss_trace_print of (e, size) as a malloc'ed string; *ret its return */
static char *print(const struct ss_trace_fmt *t, const void *e, size_t size,
		   int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	t->e->f = f;
	*ret = ss_trace_print(t, e, size);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static char *header(const struct ss_trace_fmt *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	t->e->f = f;
	ss_trace_header(t);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

#define expect_line(t, e, size, want)                  \
	do {                                           \
		int ret_;                              \
		char *got_ = print(t, e, size, &ret_); \
		cr_expect_eq(ret_, 0);                 \
		cr_expect_str_eq(got_, want);          \
		free(got_);                            \
	} while (0)

static const char *state(uint64_t s)
{
	static char buf[SS_STATE_STR_LEN];

	return ss_trace_state_str(s, buf, sizeof(buf));
}

Test(trace_state, single_letters)
{
	cr_expect_str_eq(state(0x01), "S");
	cr_expect_str_eq(state(0x02), "D");
	cr_expect_str_eq(state(0x04), "T");
	cr_expect_str_eq(state(0x08), "t");
	cr_expect_str_eq(state(0x10), "X");
	cr_expect_str_eq(state(0x20), "Z");
	cr_expect_str_eq(state(0x40), "P");
	cr_expect_str_eq(state(0x80), "I");
}

Test(trace_state, runnable_and_preempted)
{
	cr_expect_str_eq(state(0), "R");
	cr_expect_str_eq(state(0x100), "R+");
	/* bits above TASK_REPORT_MAX are not states */
	cr_expect_str_eq(state(0x200), "R");
	cr_expect_str_eq(state(0x8000000000000000ULL), "R");
}

Test(trace_state, combinations_as_the_kernel_prints_them)
{
	cr_expect_str_eq(state(0x03), "S|D");
	cr_expect_str_eq(state(0x101), "S+");
	cr_expect_str_eq(state(0xff), "S|D|T|t|X|Z|P|I");
	cr_expect_str_eq(state(0x1ff), "S|D|T|t|X|Z|P|I+");
	cr_expect_eq(strlen(state(0x1ff)) + 1, 17);
}

Test(trace_state, short_buffer_is_empty_not_overrun)
{
	char buf[8] = "xxxxxxx";

	ss_trace_state_str(0x1ff, buf, sizeof(buf));
	cr_expect_str_eq(buf, "");
}

Test(trace_state, voluntary_is_any_low_byte_bit)
{
	cr_expect_eq(ss_trace_voluntary(0), 0);
	cr_expect_eq(ss_trace_voluntary(0x100), 0);
	cr_expect_eq(ss_trace_voluntary(0x200), 0);
	cr_expect_eq(ss_trace_voluntary(0x1), 1);
	cr_expect_eq(ss_trace_voluntary(0x2), 1);
	cr_expect_eq(ss_trace_voluntary(0x80), 1);
	cr_expect_eq(ss_trace_voluntary(0x104), 1);
}

Test(trace_csv, header_without_and_with_counters)
{
	struct ss_trace_fmt t;
	char *h;

	fmt(&t, true, false, 0, false);
	h = header(&t);
	cr_expect_str_eq(h, "time,ts_ns,cpu,prev_pid,prev_tid,prev_comm,"
			    "prev_state,voluntary,next_tid,next_comm,"
			    "slice_ns\n");
	free(h);
	fmt(&t, true, false, 2, false);
	h = header(&t);
	cr_expect_str_eq(h, "time,ts_ns,cpu,prev_pid,prev_tid,prev_comm,"
			    "prev_state,voluntary,next_tid,next_comm,"
			    "slice_ns,cpu_clock_ns,page_faults,scaled\n");
	free(h);
}

Test(trace_csv, row_exact)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();

	fmt(&t, true, false, 0, false);
	expect_line(&t, &e, SS_TRACE_EVENT_SIZE(0),
		    "1700000003.123456,3123456789,1,100,101,ping,S,1,202,pong,"
		    "1234567\n");
}

Test(trace_csv, unknown_slice_and_quoted_comm)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();

	e.flags = 0;
	e.prev_state = 0x100;
	strcpy(e.prev_comm, "a,\"b\" c");
	fmt(&t, true, false, 0, false);
	expect_line(&t, &e, SS_TRACE_EVENT_SIZE(0),
		    "1700000003.123456,3123456789,1,100,101,\"a,\"\"b\"\" c\","
		    "R+,0,202,pong,\n");
}

Test(trace_csv, counters_valid_na_and_cut_records)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();
	const char *pre = "1700000003.123456,3123456789,1,100,101,ping,S,1,"
			  "202,pong,1234567,";
	char want[256];

	e.counters[0] = 1200000;
	e.counters[1] = 7;
	e.counter_valid = 0x3;
	fmt(&t, true, false, 2, false);
	snprintf(want, sizeof(want), "%s1200000,7,0\n", pre);
	expect_line(&t, &e, sizeof(e), want);

	/* counter 1 had no valid delta (first slice on the CPU) */
	e.counter_valid = 0x1;
	e.counter_scaled = 0x1;
	snprintf(want, sizeof(want), "%s1200000,,1\n", pre);
	expect_line(&t, &e, sizeof(e), want);

	/* a record cut after one counter (+4 bytes of perf padding) */
	e.counter_valid = 0x3;
	e.counter_scaled = 0;
	snprintf(want, sizeof(want), "%s1200000,,0\n", pre);
	expect_line(&t, &e, SS_TRACE_EVENT_SIZE(1) + 4, want);

	/* no PMU: never a number */
	fmt(&t, true, false, 2, true);
	snprintf(want, sizeof(want), "%s,,\n", pre);
	expect_line(&t, &e, sizeof(e), want);
}

Test(trace_json, object_exact)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();

	fmt(&t, false, true, 0, false);
	expect_line(&t, &e, SS_TRACE_EVENT_SIZE(0),
		    "{\"type\":\"switch\",\"time\":1700000003.123456,"
		    "\"ts_ns\":3123456789,\"cpu\":1,\"prev_pid\":100,"
		    "\"prev_tid\":101,\"prev_comm\":\"ping\","
		    "\"prev_state\":\"S\",\"voluntary\":1,\"next_tid\":202,"
		    "\"next_comm\":\"pong\",\"slice_ns\":1234567}\n");
}

Test(trace_json, escapes_comms_and_nulls)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();
	char *h;

	e.flags = 0;
	strcpy(e.prev_comm, "q\"b\\s\x01");
	/* 16 bytes, no NUL: the kernel's comm may fill the array */
	memcpy(e.next_comm, "0123456789abcdef", 16);
	e.counters[0] = 5;
	e.counter_valid = 0x1;
	fmt(&t, false, true, 2, false);
	expect_line(&t, &e, sizeof(e),
		    "{\"type\":\"switch\",\"time\":1700000003.123456,"
		    "\"ts_ns\":3123456789,\"cpu\":1,\"prev_pid\":100,"
		    "\"prev_tid\":101,\"prev_comm\":\"q\\\"b\\\\s\\u0001\","
		    "\"prev_state\":\"S\",\"voluntary\":1,\"next_tid\":202,"
		    "\"next_comm\":\"0123456789abcdef\",\"slice_ns\":null,"
		    "\"cpu_clock_ns\":5,\"page_faults\":null,\"scaled\":0}\n");
	h = header(&t);
	cr_expect_str_eq(h, "", "JSON has no header line");
	free(h);
}

Test(trace_table, header_and_line)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();
	char *h;

	strcpy(e.next_comm, "p\x01ng");
	fmt(&t, false, false, 0, false);
	h = header(&t);
	cr_expect_str_eq(h,
			 "TIME(s)         CPU PREV_PID PREV_TID PREV_COMM  "
			 "      STATE NEXT_TID NEXT_COMM         SLICE(us)\n");
	free(h);
	expect_line(&t, &e, SS_TRACE_EVENT_SIZE(0),
		    "2.123456          1 100      101      ping             S "
		    "    202      p?ng               1234.567\n");
	e.flags = 0;
	e.ts_ns = 5; /* before start (another CPU's buffer): 0 */
	expect_line(&t, &e, SS_TRACE_EVENT_SIZE(0),
		    "0.000000          1 100      101      ping             S "
		    "    202      p?ng                      -\n");
}

Test(trace_table, counters_si_na_and_scaled)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();
	int ret;
	char *got;

	e.counters[0] = 1234567;
	e.counters[1] = 3;
	e.counter_valid = 0x1;
	e.counter_scaled = 0x1;
	fmt(&t, false, false, 2, false);
	got = print(&t, &e, sizeof(e), &ret);
	cr_expect_eq(ret, 0);
	/*
	 * cpu-clock in us (ns in CSV/JSON), as SLICE(us): "CPU-CLK(us)", 11
	 * wide; page-faults headed PG-FAULTS as in the interval table: 10
	 */
	cr_expect(strstr(got, "   1234.567*        n/a\n") != NULL, "got %s",
		  got);
	free(got);
}

Test(trace_fmt, short_record_rejected)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();
	int ret;
	char *got;

	fmt(&t, true, false, 0, false);
	got = print(&t, &e, SS_TRACE_EVENT_SIZE(0) - 1, &ret);
	cr_expect_eq(ret, -1);
	cr_expect_str_eq(got, "");
	free(got);
}

Test(trace_csv, integer_edges)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();
	char want[256];

	e.cpu = 10;
	e.prev_tgid = 99;
	e.prev_tid = 100;
	e.next_tid = 0;
	e.slice_ns = 9;
	e.counters[0] = UINT64_MAX;
	e.counters[1] = 0;
	e.counter_valid = 0x3;
	fmt(&t, true, false, 2, false);
	snprintf(want, sizeof(want),
		 "1700000003.123456,3123456789,10,99,100,ping,S,1,0,pong,9,"
		 "18446744073709551615,0,0\n");
	expect_line(&t, &e, sizeof(e), want);
}

/* no PMU: the table has no counter columns (97, not 130 wide); CSV keeps */
Test(trace_table, counters_not_opened_leave_the_table)
{
	struct ss_trace_fmt t;
	struct ss_trace_event e = event();
	static const char names[SS_MAX_COUNTERS][SS_EVENT_NAME_LEN] = {
		"cycles", "instructions", "cache-misses"
	};
	char *h;

	ss_emit_init(&em, NULL, SS_FMT_TABLE);
	ss_trace_fmt_init(&t, &em, false, 1000000000ULL, REAL0 + 1000000000ULL,
			  3, names, true, 0);
	h = header(&t);
	cr_expect_str_eq(h,
			 "TIME(s)         CPU PREV_PID PREV_TID PREV_COMM  "
			 "      STATE NEXT_TID NEXT_COMM         SLICE(us)\n");
	free(h);
	expect_line(&t, &e, sizeof(e),
		    "2.123456          1 100      101      ping             S "
		    "    202      pong               1234.567\n");

	/* one missing (cache-misses): only its column goes */
	e.counters[0] = 2000;
	e.counters[1] = 1000;
	e.counter_valid = 0x3;
	ss_trace_fmt_init(&t, &em, false, 1000000000ULL, REAL0 + 1000000000ULL,
			  3, names, false, 1ULL << 2);
	h = header(&t);
	cr_expect(strstr(h, "SLICE(us)     CYCLES      INSTR\n"), "%s", h);
	free(h);

	/* CSV: the fields stay, empty */
	ss_emit_init(&em, NULL, SS_FMT_CSV);
	ss_trace_fmt_init(&t, &em, false, 1000000000ULL, REAL0 + 1000000000ULL,
			  3, names, true, 0);
	h = header(&t);
	cr_expect(strstr(h, ",slice_ns,cycles,instructions,cache_misses,"
			    "scaled\n"),
		  "%s", h);
	free(h);
	expect_line(&t, &e, sizeof(e),
		    "1700000003.123456,3123456789,1,100,101,ping,S,1,202,pong,"
		    "1234567,,,,\n");
}

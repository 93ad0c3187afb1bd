// SPDX-License-Identifier: GPL-2.0
/*
 * test_emit.c - src/emit*.c and src/output/format.c: the same record through the
 * table, CSV and NDJSON backends (literal expected lines), headers once or
 * per block, null, marks, table styles, string quoting and escaping,
 * exact times, long lines, the format chosen from the options, and the
 * formatting primitives.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "format.h"
#include "opts.h"

/* 2023-11-14 22:13:20.123456789 UTC */
#define REAL 1700000000123456789ULL

static const struct ss_field f_pid = { .key = "pid",
				       .head = "PID",
				       .width = -7 };
static const struct ss_field f_comm = {
	.key = "comm", .head = "COMM", .width = -8, .tail = true
};
static const struct ss_field f_ms = { .key = "oncpu_ns",
				      .head = "ONCPU(ms)",
				      .unit = "ns",
				      .width = 10,
				      .style = SS_TS_DIV,
				      .table_div = 1e6,
				      .table_decimals = 2 };
static const struct ss_field f_pct = { .key = "cpu_pct",
				       .head = "%CPU",
				       .unit = "percent",
				       .width = 6,
				       .table_decimals = 1,
				       .decimals = 4 };
static const struct ss_field f_ctr = { .key = "cycles",
				       .head = "CYCLES",
				       .unit = "count",
				       .width = 8,
				       .style = SS_TS_SI };
static const struct ss_field f_hidden = { .key = "dropped", .unit = "count" };

/* One record of every kind, in format fmt; header first when wanted. */
static char *render(enum ss_format fmt, const char *comm, bool na)
{
	struct ss_value ctr = { .kind = SS_VAL_U64,
				.u = 1234567,
				.mark = true };
	struct ss_emit e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	ss_emit_init(&e, f, fmt);
	if (ss_emit_begin_header(&e)) {
		ss_emit_head(&e, &f_pid);
		ss_emit_head(&e, &f_comm);
		ss_emit_head(&e, &f_ms);
		ss_emit_head(&e, &f_pct);
		ss_emit_head(&e, &f_ctr);
		ss_emit_head(&e, &f_hidden);
		ss_emit_end(&e);
	}
	ss_emit_begin(&e, "row");
	ss_emit_u64(&e, &f_pid, 42);
	ss_emit_str(&e, &f_comm, comm, 64);
	ss_emit_u64(&e, &f_ms, 250000000);
	ss_emit_double(&e, &f_pct, 25.0);
	if (na)
		ss_emit_null(&e, &f_ctr);
	else
		ss_emit_field(&e, &f_ctr, &ctr);
	ss_emit_u64(&e, &f_hidden, 0);
	ss_emit_end(&e);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

Test(emit, table_record)
{
	char *s = render(SS_FMT_TABLE, "sh", false);

	cr_expect_str_eq(s, "PID     COMM      ONCPU(ms)   %CPU   CYCLES\n"
			    "42      sh           250.00   25.0   1.23M*\n");
	free(s);
	s = render(SS_FMT_TABLE, "a\tb", true);
	cr_expect_str_eq(s, "PID     COMM      ONCPU(ms)   %CPU   CYCLES\n"
			    "42      a?b          250.00   25.0      n/a\n");
	free(s);
}

Test(emit, table_long_string_keeps_its_tail)
{
	char *s = render(SS_FMT_TABLE, "kworker/u4:1-events", false);

	cr_expect(strstr(s, "\n42      ...vents     250.00") != NULL, "%s", s);
	free(s);
}

Test(emit, csv_record)
{
	char *s = render(SS_FMT_CSV, "sh", false);

	cr_expect_str_eq(s, "pid,comm,oncpu_ns,cpu_pct,cycles,dropped\n"
			    "42,sh,250000000,25.0000,1234567,0\n");
	free(s);
	s = render(SS_FMT_CSV, "a \"b\",c", true);
	cr_expect_str_eq(s, "pid,comm,oncpu_ns,cpu_pct,cycles,dropped\n"
			    "42,\"a \"\"b\"\",c\",250000000,25.0000,,0\n");
	free(s);
}

Test(emit, json_record)
{
	char *s = render(SS_FMT_JSON, "sh", false);

	cr_expect_str_eq(s, "{\"type\":\"row\",\"pid\":42,\"comm\":\"sh\","
			    "\"oncpu_ns\":250000000,\"cpu_pct\":25.0000,"
			    "\"cycles\":1234567,\"dropped\":0}\n");
	free(s);
	s = render(SS_FMT_JSON, "a\"\n\xff", true);
	cr_expect_str_eq(s, "{\"type\":\"row\",\"pid\":42,"
			    "\"comm\":\"a\\\"\\n\\u00ff\","
			    "\"oncpu_ns\":250000000,\"cpu_pct\":25.0000,"
			    "\"cycles\":null,\"dropped\":0}\n");
	free(s);
}

/* CSV header once per emitter (again after a reset); table every block */
Test(emit, header_once_for_csv_every_block_for_table)
{
	struct ss_emit e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	ss_emit_init(&e, f, SS_FMT_CSV);
	cr_expect(ss_emit_begin_header(&e));
	ss_emit_head(&e, &f_pid);
	ss_emit_end(&e);
	cr_expect(!ss_emit_begin_header(&e));
	ss_emit_reset_header(&e);
	cr_expect(ss_emit_begin_header(&e));
	ss_emit_end(&e);
	ss_emit_init(&e, f, SS_FMT_TABLE);
	cr_expect(ss_emit_begin_header(&e));
	ss_emit_end(&e);
	cr_expect(ss_emit_begin_header(&e));
	ss_emit_end(&e);
	ss_emit_init(&e, f, SS_FMT_JSON);
	cr_expect(!ss_emit_begin_header(&e));
	cr_assert_eq(fclose(f), 0);
	cr_expect_str_eq(buf, "pid\n\n\n\n");
	free(buf);
}

static char *times(enum ss_format fmt, bool wall)
{
	static const struct ss_field t = {
		.key = "time", .head = "TIME", .unit = "s", .width = -15
	};
	static const struct ss_field slice = { .key = "slice_ns",
					       .head = "SLICE(us)",
					       .width = 10,
					       .style = SS_TS_FIXED,
					       .table_decimals = 3,
					       .na = "-" };
	struct ss_emit e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	ss_emit_init(&e, f, fmt);
	ss_emit_set_clock(&e, REAL - 2000000000ULL, wall);
	ss_emit_begin(&e, NULL);
	ss_emit_time(&e, &t, REAL);
	ss_emit_u64(&e, &slice, 18446744073709551615ULL);
	ss_emit_end(&e);
	ss_emit_begin(&e, NULL);
	ss_emit_time(&e, &t, REAL - 3000000000ULL); /* before t0 */
	ss_emit_null(&e, &slice);
	ss_emit_end(&e);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

Test(emit, times_exact_in_every_format)
{
	char *s;

	setenv("TZ", "UTC", 1);
	s = times(SS_FMT_TABLE, false);
	cr_expect_str_eq(s, "2.000000        18446744073709551.615\n"
			    "0.000000                 -\n");
	free(s);
	s = times(SS_FMT_TABLE, true);
	cr_expect_str_eq(s, "22:13:20.123456 18446744073709551.615\n"
			    "22:13:17.123456          -\n");
	free(s);
	s = times(SS_FMT_CSV, false);
	cr_expect_str_eq(s, "1700000000.123456,18446744073709551615\n"
			    "1699999997.123456,\n");
	free(s);
	s = times(SS_FMT_JSON, false);
	cr_expect_str_eq(s, "{\"time\":1700000000.123456,"
			    "\"slice_ns\":18446744073709551615}\n"
			    "{\"time\":1699999997.123456,\"slice_ns\":null}\n");
	free(s);
}

/* a record longer than the line buffer arrives whole and in order */
Test(emit, record_longer_than_the_line)
{
	static const struct ss_field k = { .key = "k", .head = "K" };
	char big[3000], want[4000];
	struct ss_emit e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cr_assert_not_null(f);
	ss_emit_init(&e, f, SS_FMT_CSV);
	ss_emit_begin(&e, NULL);
	for (int i = 0; i < 200; i++)
		ss_emit_u64(&e, &k, 7);
	ss_emit_str(&e, &k, big, sizeof(big));
	ss_emit_end(&e);
	cr_assert_eq(fclose(f), 0);
	want[0] = '\0';
	for (int i = 0; i < 200; i++)
		strcat(want, i ? ",7" : "7");
	strcat(want, ",");
	strcat(want, big);
	strcat(want, "\n");
	cr_expect_str_eq(buf, want);
	free(buf);
}

Test(emit, format_chosen_from_the_options)
{
	struct ss_opts o = { 0 };

	cr_expect_eq(ss_format_of(&o), SS_FMT_TABLE);
	o.csv = true;
	cr_expect_eq(ss_format_of(&o), SS_FMT_CSV);
	o.csv = false;
	o.json = true;
	cr_expect_eq(ss_format_of(&o), SS_FMT_JSON);
	cr_expect_str_eq(ss_format_name(SS_FMT_TABLE), "table");
	cr_expect_str_eq(ss_format_name(SS_FMT_CSV), "csv");
	cr_expect_str_eq(ss_format_name(SS_FMT_JSON), "json");
	o.quiet = true; /* -q wins: nothing on stdout */
	cr_expect_eq(ss_format_of(&o), SS_FMT_NONE);
	cr_expect_str_eq(ss_format_name(SS_FMT_NONE), "none");
}

/* human-readable text goes beside a machine-readable stream */
Test(emit, aside_is_stderr_for_machine_formats)
{
	struct ss_emit e;

	ss_emit_init(&e, stdout, SS_FMT_TABLE);
	cr_expect_eq(ss_emit_aside(&e), stdout);
	ss_emit_init(&e, stdout, SS_FMT_CSV);
	cr_expect_eq(ss_emit_aside(&e), stderr);
	ss_emit_init(&e, stdout, SS_FMT_JSON);
	cr_expect_eq(ss_emit_aside(&e), stderr);
	ss_emit_init(&e, stdout, SS_FMT_NONE);
	cr_expect_eq(ss_emit_aside(&e), stderr);
}

/* -q: records, headers and raw text leave nothing on the stream */
Test(emit, none_writes_nothing)
{
	char *s = render(SS_FMT_NONE, "sh", false);

	cr_expect_str_eq(s, "");
	free(s);
}

/* ---- primitives ------------------------------------------------------- */

Test(format, fixed_text_is_exact)
{
	char buf[48];

	buf[ss_fixed_text(buf, 1234567, 3)] = '\0';
	cr_expect_str_eq(buf, "1234.567");
	buf[ss_fixed_text(buf, 5, 6)] = '\0';
	cr_expect_str_eq(buf, "0.000005");
	buf[ss_fixed_text(buf, UINT64_MAX, 6)] = '\0';
	cr_expect_str_eq(buf, "18446744073709.551615");
}

Test(format, printable_and_csv_quotes)
{
	char buf[8];

	cr_expect_eq(ss_printable(buf, sizeof(buf), "a\x1b[2Jxyz", 16), 7);
	cr_expect_str_eq(buf, "a?[2Jxy");
	cr_expect_eq(ss_printable(buf, sizeof(buf), "abcdef", 3), 3);
	cr_expect_str_eq(buf, "abc");
	cr_expect(!ss_csv_needs_quotes("kworker/0:1", 16));
	cr_expect(ss_csv_needs_quotes("a b", 16));
	cr_expect(!ss_csv_needs_quotes("ab c", 2)); /* beyond maxlen */
}

Test(format, hms_in_local_time)
{
	char buf[16];

	setenv("TZ", "UTC", 1);
	cr_expect_str_eq(ss_fmt_hms(buf, REAL), "22:13:20");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test_opts_table.c - bad input, table-driven: every option that takes a
 * value, given a missing, empty, negative, huge, non-numeric or trailing-
 * garbage value, must give SS_PARSE_ERROR and exactly one message line
 * (plus the "Try 'switchstat -h'" hint), never a crash or a silent default.
 * Boundary values that are valid must parse, so the table can fail both ways.
 * -e lists go on through ss_events_parse, as the counters feature does.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "opts.h"

#include "opts_run.h"

static char *args_str(const char *const *args)
{
	static char buf[512];

	buf[0] = '\0';
	for (; *args; args++) {
		strncat(buf, "'", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, *args, 64);
		strncat(buf, "' ", sizeof(buf) - strlen(buf) - 1);
	}
	return buf;
}

/* An error: SS_PARSE_ERROR, one "switchstat: ..." line, then the hint. */
static void expect_error(const char *const *args)
{
	struct run r;
	const char *hint = "Try 'switchstat -h' for more information.\n";
	char *nl;

	parse(&r, args);
	cr_expect_eq(r.ret, SS_PARSE_ERROR, "%s: returned %d", args_str(args),
		     r.ret);
	cr_expect_eq(r.outlen, 0, "%s: wrote to stdout", args_str(args));
	cr_expect(!strncmp(r.err, "switchstat: ", 12), "%s: message '%s'",
		  args_str(args), r.err);
	nl = strchr(r.err, '\n');
	cr_expect(nl && !strcmp(nl + 1, hint),
		  "%s: want one message line then the hint, got '%s'",
		  args_str(args), r.err);
	cr_expect(nl && nl - r.err > 20, "%s: message too short: '%s'",
		  args_str(args), r.err);
	run_free(&r);
}

static void expect_ok(const char *const *args, struct ss_opts *o)
{
	struct run r;

	parse(&r, args);
	cr_expect_eq(r.ret, SS_PARSE_OK, "%s: returned %d: %s", args_str(args),
		     r.ret, r.err);
	/* the one message a valid command may print: -i below 100 ms */
	if (r.errlen && strstr(r.err, "note: -i is in milliseconds") &&
	    r.o.interval_ms < 100)
		cr_expect_eq(strchr(r.err, '\n') - r.err + 1, (long)r.errlen,
			     "%s: more than the note: '%s'", args_str(args),
			     r.err);
	else
		cr_expect_eq(r.errlen, 0, "%s: wrote '%s'", args_str(args),
			     r.err);
	if (o)
		*o = r.o;
	run_free(&r);
}

/* Values no option accepts. */
static const char *const bad_values[] = {
	"", /* empty */
	"-1", /* negative */
	"-0",
	"99999999999999999999999999", /* overflows 64 bits */
	"18446744073709551616", /* 2^64 */
	"18446744073709551615", /* UINT64_MAX: above every range */
	"abc", /* non-numeric */
	"10x", /* trailing garbage */
	"10 ", /* trailing blank */
	" 10", /* leading blank */
	"+10", /* sign */
	"0x10", /* hex */
	"1e3", /* exponent */
	"1.5", /* fraction */
	"1,2",
	"\t",
	"10\n",
	"\xff\xfe", /* not UTF-8 */
};

/* Options whose value is a number: flag, smallest and largest valid value. */
static const struct {
	const char *flag, *min, *max, *below, *above;
} numeric[] = {
	{ "-i", "1", "86400000", "0", "86400001" },
	{ "--interval", "1", "86400000", "0", "86400001" },
	{ "-d", "1", "31536000", "0", "31536001" },
	{ "--duration", "1", "31536000", "0", "31536001" },
	{ "-n", "0", "1000000", NULL, "1000001" },
	{ "--rows", "0", "1000000", NULL, "1000001" },
	{ "--map-entries", "1024", "4194304", "1023", "4194305" },
};

/* -p and -t: a number each, in a comma list ("1,2" is valid there) */
static const struct {
	const char *flag, *min, *max, *below, *above;
} id_lists[] = {
	{ "-p", "1", "4194304", "0", "4194305" },
	{ "--pid", "1", "4194304", "0", "4194305" },
	{ "-t", "1", "4194304", "0", "4194305" },
	{ "--tid", "1", "4194304", "0", "4194305" },
};

Test(opts_table, id_list_values)
{
	for (size_t i = 0; i < sizeof(id_lists) / sizeof(id_lists[0]); i++) {
		const char *min[] = { id_lists[i].flag, id_lists[i].min, NULL };
		const char *max[] = { id_lists[i].flag, id_lists[i].max, NULL };
		const char *below[] = { id_lists[i].flag, id_lists[i].below,
					NULL };
		const char *above[] = { id_lists[i].flag, id_lists[i].above,
					NULL };
		const char *two[] = { id_lists[i].flag, "1,2", NULL };

		expect_ok(min, NULL);
		expect_ok(max, NULL);
		expect_ok(two, NULL);
		expect_error(below);
		expect_error(above);
		for (size_t j = 0;
		     j < sizeof(bad_values) / sizeof(bad_values[0]); j++) {
			const char *args[] = { id_lists[i].flag, bad_values[j],
					       NULL };

			if (strcmp(bad_values[j], "1,2"))
				expect_error(args);
		}
	}
}

Test(opts_table, numeric_bad_values)
{
	for (size_t i = 0; i < sizeof(numeric) / sizeof(numeric[0]); i++) {
		for (size_t j = 0;
		     j < sizeof(bad_values) / sizeof(bad_values[0]); j++) {
			const char *args[] = { numeric[i].flag, bad_values[j],
					       NULL };

			expect_error(args);
		}
	}
}

Test(opts_table, numeric_bounds)
{
	for (size_t i = 0; i < sizeof(numeric) / sizeof(numeric[0]); i++) {
		const char *min[] = { numeric[i].flag, numeric[i].min, NULL };
		const char *max[] = { numeric[i].flag, numeric[i].max, NULL };
		const char *above[] = { numeric[i].flag, numeric[i].above,
					NULL };

		expect_ok(min, NULL);
		expect_ok(max, NULL);
		expect_error(above);
		if (numeric[i].below) {
			const char *below[] = { numeric[i].flag,
						numeric[i].below, NULL };

			expect_error(below);
		}
	}
}

/* The value must reach the field it is meant for. */
Test(opts_table, numeric_values_stored)
{
	const char *args[] = { "-i",   "250", "-d",
			       "7",    "-n",  "3",
			       "-p",   "42",  "--map-entries",
			       "2048", NULL };
	struct ss_opts o;

	expect_ok(args, &o);
	cr_expect_eq(o.interval_ms, 250);
	cr_expect_eq(o.duration_s, 7);
	cr_expect_eq(o.top, 3);
	cr_expect_eq(o.pid, 42);
	cr_expect_eq(o.map_entries, 2048);
}

/* Every option that takes a value, as the last argument: value missing. */
Test(opts_table, missing_value)
{
	static const char *const flags[] = {
		"-i",
		"--interval",
		"-d",
		"--duration",
		"-p",
		"--pid",
		"-t",
		"--tid",
		"-n",
		"--rows",
		"-s",
		"--sort",
		"-e",
		"--events",
		"--hist",
		"--cgroup",
		"--map-entries",
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const char *args[] = { flags[i], NULL };
		const char *after_v[] = { "-v", flags[i], NULL };

		expect_error(args);
		expect_error(after_v);
	}
}

/* --flag= (empty after '=') for the long forms */
Test(opts_table, long_form_empty_value)
{
	static const char *const flags[] = {
		"--interval=", "--duration=",	 "--pid=",    "--tid=",
		"--rows=",     "--sort=",	 "--events=", "--hist=",
		"--cgroup=",   "--map-entries=",
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const char *args[] = { flags[i], NULL };

		expect_error(args);
	}
}

/* Word-valued options: empty, wrong words, near misses, lists. */
Test(opts_table, word_values)
{
	static const char *const bad[][3] = {
		{ "-s", "" },
		{ "-s", "cpu" },
		{ "-s", "ONCPU" },
		{ "-s", "oncpu " },
		{ "-s", "oncpu,pid" },
		{ "-s", "-1" },
		{ "--hist", "" },
		{ "--hist", "on" },
		{ "--hist", "oncpu," },
		{ "--hist", ",oncpu" },
		{ "--hist", "oncpu,,runq" },
		{ "--hist", "oncpu,bogus" },
		{ "--hist", "," },
		{ "--hist", "RUNQ" },
		{ "-e", "" },
		{ "--cgroup", "" },
	};
	static const char *const good[][3] = {
		{ "-s", "pid" },
		{ "-s", "invol" },
		{ "--hist", "runq" },
		{ "--hist", "oncpu,offcpu,runq" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_error((const char *const *)bad[i]);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		expect_ok((const char *const *)good[i], NULL);
}

/* Unknown options, stray arguments, conflicts. */
Test(opts_table, unknown_and_conflicts)
{
	static const char *const bad[][4] = {
		{ "-Z" },
		{ "--bogus" },
		{ "--bogus=1" },
		{ "-" },
		{ "stray" },
		{ "-i", "10", "stray" },
		{ "--", "stray" },
		{ "--his", "runq" }, /* ambiguous: --hist, --hist-only */
		{ "--csv", "--json" },
		{ "-H" },
		{ "-m" },
		{ "-P" },
		{ "-e", "cycles", "--no-counters" },
		{ "-G", "-L" },
		{ "--trace=1" }, /* no value allowed */
		{ "-vZ" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_error((const char *const *)bad[i]);
}

/* A huge argument must not overflow anything. */
Test(opts_table, huge_arguments)
{
	size_t n = 1 << 20;
	char *big = malloc(n + 1);
	static const char *const flags[] = { "-i", "-s", "--hist", "-p",
					     "--map-entries" };

	cr_assert(big);
	memset(big, '9', n);
	big[n] = '\0';
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const char *args[] = { flags[i], big, NULL };
		struct run r;

		parse(&r, args);
		cr_expect_eq(r.ret, SS_PARSE_ERROR, "%s <1 MiB of 9s>",
			     flags[i]);
		cr_expect_lt(r.errlen, 1024,
			     "%s <1 MiB of 9s>: %zu bytes of message", flags[i],
			     r.errlen);
		run_free(&r);
	}
	memset(big, 'x', n);
	{
		const char *args[] = { big, NULL };
		struct run r;

		parse(&r, args);
		cr_expect_eq(r.ret, SS_PARSE_ERROR);
		cr_expect_lt(r.errlen, 1024,
			     "<1 MiB of x>: %zu bytes of message", r.errlen);
		run_free(&r);
	}
	free(big);
}

/* -h and --version win and print to stdout only. */
Test(opts_table, help_and_version)
{
	const char *h[] = { "-h", NULL };
	const char *v[] = { "--version", NULL };
	struct run r;

	parse(&r, h);
	cr_expect_eq(r.ret, SS_PARSE_EXIT_OK);
	cr_expect(r.outlen > 100 && r.errlen == 0);
	run_free(&r);
	parse(&r, v);
	cr_expect_eq(r.ret, SS_PARSE_EXIT_OK);
	cr_expect(strstr(r.out, SS_VERSION) && r.errlen == 0);
	run_free(&r);
}

/* Re-entrant: an error does not leak state into the next parse. */
Test(opts_table, reentrant_after_errors)
{
	const char *bad[] = { "-i", "x", "-d", "5", NULL };
	const char *good[] = { "-d", "5", NULL };
	struct ss_opts o;
	struct run r;

	for (int i = 0; i < 3; i++) {
		parse(&r, bad);
		cr_expect_eq(r.ret, SS_PARSE_ERROR);
		run_free(&r);
		expect_ok(good, &o);
		cr_expect_eq(o.duration_s, 5);
		cr_expect_eq(o.interval_ms, 1000);
	}
}

/*
 * Event lists the parser passes on (-e takes any non-empty text) must be
 * rejected by ss_events_parse with one line: unknown names, empty elements,
 * bad raw codes, duplicates, too many.
 */
Test(opts_table, unknown_events)
{
	static const char *const lists[] = {
		"bogus",
		"cycles,bogus",
		"cycles,,instructions",
		",cycles",
		"cycles,",
		"-1",
		"cycles:x",
		"r",
		"rxyz",
		"r12345678901234567",
		"cycles,cpu-cycles",
		"CYCLES",
		"cpu-clock,task-clock,page-faults,minor-faults,major-faults,"
		"context-switches,cpu-migrations,cycles,instructions",
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const char *args[] = { "-e", lists[i], NULL };
		struct ss_event ev[SS_MAX_EVENTS];
		char err[256] = "";
		struct ss_opts o;

		expect_ok(args, &o);
		cr_expect_eq(ss_events_parse(o.events, ev, SS_MAX_EVENTS, err,
					     sizeof(err)),
			     -1, "-e '%s' accepted", lists[i]);
		cr_expect(err[0] && !strchr(err, '\n'),
			  "-e '%s': want one line, got '%s'", lists[i], err);
	}
	{
		const char *args[] = { "-e", "cpu-clock,task-clock,page-faults",
				       NULL };
		struct ss_event ev[SS_MAX_EVENTS];
		struct ss_opts o;

		expect_ok(args, &o);
		cr_expect_eq(
			ss_events_parse(o.events, ev, SS_MAX_EVENTS, NULL, 0),
			3);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test_opts.c - src/opts.c: defaults, every option's happy path (short,
 * long, --long=value), help/version, the exact text of each class of error
 * message, exclusive combinations, re-entrancy and ss_parse_u64 edge cases.
 * Bad values per option, table-driven, are in test_opts_table.c.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "parse.h"

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOARGS ((const char *const[]){ NULL })

static const char hint[] = "Try 'switchstat -h' for more information.\n";

#include "opts_run.h"

static const char *joined(const char *const *args)
{
	static char buf[256];

	buf[0] = '\0';
	for (; *args; args++) {
		strncat(buf, *args, 40);
		strncat(buf, " ", sizeof(buf) - strlen(buf) - 1);
	}
	return buf;
}

/* The documented defaults, built independently of the parser. */
static struct ss_opts defaults(void)
{
	struct ss_opts o;

	memset(&o, 0, sizeof(o));
	o.interval_ms = 1000;
	o.top = 20;
	o.sort = SS_SORT_ONCPU;
	return o;
}

/*
 * args must parse silently into exactly *want: the option sets its own
 * field and nothing else.  String fields are compared by content.
 */
static void expect_opts(const char *const *args, const struct ss_opts *want)
{
	struct ss_opts got, exp = *want;
	struct run r;

	parse(&r, args);
	cr_expect_eq(r.ret, SS_PARSE_OK, "[%s] returned %d: %s", joined(args),
		     r.ret, r.err);
	cr_expect_eq(r.errlen, 0, "[%s] stderr: %s", joined(args), r.err);
	cr_expect_eq(r.outlen, 0, "[%s] stdout: %s", joined(args), r.out);
	got = r.o;
	cr_expect((!got.events && !exp.events) ||
			  (got.events && exp.events &&
			   !strcmp(got.events, exp.events)),
		  "[%s] events '%s'", joined(args),
		  got.events ? got.events : "(null)");
	cr_expect((!got.cgroup && !exp.cgroup) ||
			  (got.cgroup && exp.cgroup &&
			   !strcmp(got.cgroup, exp.cgroup)),
		  "[%s] cgroup '%s'", joined(args),
		  got.cgroup ? got.cgroup : "(null)");
	cr_expect((!got.listen && !exp.listen) ||
			  (got.listen && exp.listen &&
			   !strcmp(got.listen, exp.listen)),
		  "[%s] listen '%s'", joined(args),
		  got.listen ? got.listen : "(null)");
	got.events = exp.events = NULL;
	got.cgroup = exp.cgroup = NULL;
	got.listen = exp.listen = NULL;
	cr_expect(!memcmp(&got, &exp, sizeof(got)),
		  "[%s] fields differ from the expected ones", joined(args));
	run_free(&r);
}

/* args must fail with exactly "switchstat: <msg>\n" + hint on stderr. */
static void expect_msg(const char *const *args, const char *msg)
{
	char want[512];
	struct run r;

	snprintf(want, sizeof(want), "switchstat: %s\n%s", msg, hint);
	parse(&r, args);
	cr_expect_eq(r.ret, SS_PARSE_ERROR, "[%s] returned %d", joined(args),
		     r.ret);
	cr_expect_eq(r.outlen, 0, "[%s] stdout: %s", joined(args), r.out);
	cr_expect_str_eq(r.err, want, "[%s]", joined(args));
	run_free(&r);
}

/* ---- defaults and happy paths ------------------------------------------ */

Test(opts, defaults)
{
	struct ss_opts want = defaults();

	expect_opts(NOARGS, &want);
	expect_opts(ARGS("--"), &want);
	/* spelled out, so a changed default is a visible decision */
	cr_expect_eq(want.interval_ms, 1000);
	cr_expect_eq(want.top, 20);
	cr_expect_eq(want.sort, SS_SORT_ONCPU);
}

Test(opts, interval_duration_pid_tid_top_map_entries)
{
	struct ss_opts w = defaults();

	w.interval_ms = 250;
	expect_opts(ARGS("-i", "250"), &w);
	expect_opts(ARGS("-i250"), &w);
	expect_opts(ARGS("--interval", "250"), &w);
	expect_opts(ARGS("--interval=250"), &w);
	expect_opts(ARGS("-i", "7", "-i", "250"), &w); /* last one wins */

	w = defaults();
	w.duration_s = 5;
	expect_opts(ARGS("-d", "5"), &w);
	expect_opts(ARGS("--duration", "5"), &w);
	expect_opts(ARGS("--duration=5"), &w);

	w = defaults();
	w.pid = w.pids[0] = 185;
	w.npids = 1;
	expect_opts(ARGS("-p", "185"), &w);
	expect_opts(ARGS("--pid", "185"), &w);
	expect_opts(ARGS("--pid=185"), &w);

	w = defaults();
	w.tid = w.tids[0] = 186;
	w.ntids = 1;
	expect_opts(ARGS("-t", "186"), &w);
	expect_opts(ARGS("--tid", "186"), &w);
	expect_opts(ARGS("--tid=186"), &w);

	w = defaults();
	w.top = 0;
	expect_opts(ARGS("-n", "0"), &w);
	w.top = 5;
	expect_opts(ARGS("--rows", "5"), &w);
	expect_opts(ARGS("--rows=5"), &w);

	w = defaults();
	w.map_entries = 65536;
	expect_opts(ARGS("--map-entries", "65536"), &w);
	expect_opts(ARGS("--map-entries=65536"), &w);
}

Test(opts, flags_short_and_long)
{
	static const struct {
		const char *s, *l;
		size_t off; /* bool field set */
	} flags[] = {
		{ "-L", "--threads", offsetof(struct ss_opts, per_thread) },
		{ "-T", "--timestamp", offsetof(struct ss_opts, timestamp) },
		{ NULL, "--no-counters",
		  offsetof(struct ss_opts, no_counters) },
		{ "-G", "--cgroups", offsetof(struct ss_opts, per_cgroup) },
		{ "-M", "--memory", offsetof(struct ss_opts, memory) },
		{ NULL, "--trace", offsetof(struct ss_opts, trace) },
		{ NULL, "--csv", offsetof(struct ss_opts, csv) },
		{ NULL, "--json", offsetof(struct ss_opts, json) },
		{ NULL, "--idle", offsetof(struct ss_opts, idle) },
		{ NULL, "--check", offsetof(struct ss_opts, check) },
		{ NULL, "--self-stats", offsetof(struct ss_opts, self_stats) },
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct ss_opts w = defaults();

		*(bool *)((char *)&w + flags[i].off) = true;
		if (w.csv || w.json)
			w.top = 0; /* scripts get every row by default */
		if (flags[i].s)
			expect_opts(ARGS(flags[i].s), &w);
		expect_opts(ARGS(flags[i].l), &w);
	}
}

Test(opts, csv_json_default_all_rows)
{
	struct ss_opts w = defaults();

	/* CSV/JSON default to every row; the table keeps its 20 */
	cr_expect_eq(w.top, 20);
	w.csv = true;
	w.top = 0;
	expect_opts(ARGS("--csv"), &w);
	/* an explicit -n still applies, before or after the format */
	w.top = 5;
	expect_opts(ARGS("--csv", "-n", "5"), &w);
	expect_opts(ARGS("-n", "5", "--csv"), &w);
	w.top = 20;
	expect_opts(ARGS("--csv", "-n", "20"), &w);

	w = defaults();
	w.json = true;
	w.top = 0;
	expect_opts(ARGS("--json"), &w);
	w.top = 3;
	expect_opts(ARGS("--rows=3", "--json"), &w);
}

Test(opts, verbose_counts)
{
	struct ss_opts w = defaults();

	w.verbose = 1;
	expect_opts(ARGS("-v"), &w);
	expect_opts(ARGS("--verbose"), &w);
	w.verbose = 3;
	expect_opts(ARGS("-vvv"), &w);
	expect_opts(ARGS("-v", "--verbose", "-v"), &w);
}

Test(opts, clustered_short_flags)
{
	struct ss_opts w = defaults();

	w.per_thread = w.timestamp = true;
	w.verbose = 2;
	w.interval_ms = 500;
	expect_opts(ARGS("-LTvvi500"), &w);
	expect_opts(ARGS("-LTvvi", "500"), &w);
}

Test(opts, sort_keys)
{
	static const struct {
		const char *name;
		enum ss_sort_key key;
	} keys[] = {
		{ "oncpu", SS_SORT_ONCPU },   { "switch", SS_SORT_SWITCHES },
		{ "vol", SS_SORT_VOLUNTARY }, { "invol", SS_SORT_INVOLUNTARY },
		{ "pid", SS_SORT_PID },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct ss_opts w = defaults();
		char eq[32];

		w.sort = keys[i].key;
		snprintf(eq, sizeof(eq), "--sort=%s", keys[i].name);
		expect_opts(ARGS("-s", keys[i].name), &w);
		expect_opts(ARGS("--sort", keys[i].name), &w);
		expect_opts(ARGS(eq), &w);
	}
}

Test(opts, events)
{
	struct ss_opts w = defaults();

	w.events = "cycles,instructions";
	w.events_given = true;
	expect_opts(ARGS("-e", "cycles,instructions"), &w);
	expect_opts(ARGS("--events", "cycles,instructions"), &w);
	expect_opts(ARGS("--events=cycles,instructions"), &w);
	/* the parser keeps the list as given; ss_events_parse judges it */
	w.events = "whatever";
	expect_opts(ARGS("-e", "whatever"), &w);
}

Test(opts, hist_kinds_and_companions)
{
	struct ss_opts w = defaults();

	w.hist = SS_HIST_ONCPU;
	expect_opts(ARGS("--hist", "oncpu"), &w);
	expect_opts(ARGS("--hist=oncpu"), &w);
	w.hist = SS_HIST_OFFCPU;
	expect_opts(ARGS("--hist", "offcpu"), &w);
	w.hist = SS_HIST_RUNQ;
	expect_opts(ARGS("--hist", "runq"), &w);
	w.hist = SS_HIST_ONCPU | SS_HIST_OFFCPU | SS_HIST_RUNQ;
	expect_opts(ARGS("--hist", "runq,oncpu,offcpu"), &w);
	expect_opts(ARGS("--hist", "runq,runq,oncpu,offcpu"), &w);

	/* -H, -m, -P are valid with --hist, in either order */
	w = defaults();
	w.hist = SS_HIST_RUNQ;
	w.hist_only = w.milliseconds = w.hist_per_process = true;
	expect_opts(ARGS("--hist", "runq", "-H", "-m", "-P"), &w);
	expect_opts(ARGS("-HmP", "--hist=runq"), &w);
	expect_opts(ARGS("--hist-only", "--milliseconds", "--pids", "--hist",
			 "runq"),
		    &w);
}

Test(opts, cgroup_path_vs_cgroups_flag)
{
	struct ss_opts w = defaults();

	/* "--cgroup" is an exact match, not an abbreviation of --cgroups */
	w.cgroup = "/system.slice";
	expect_opts(ARGS("--cgroup", "/system.slice"), &w);
	expect_opts(ARGS("--cgroup=/system.slice"), &w);
	w = defaults();
	w.per_cgroup = true;
	expect_opts(ARGS("--cgroups"), &w);
	w.cgroup = "/a";
	w.memory = true;
	w.csv = true;
	w.top = 0; /* --csv: every row */
	expect_opts(ARGS("-G", "-M", "--csv", "--cgroup", "/a"), &w);
}

/* -p and -t take comma lists, as pidstat and libbpf-tools' offcputime */
Test(opts, pid_and_tid_lists)
{
	static const char max[] = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,"
				  "17,18,19,20,21,22,23,24,25,26,27,28,29,30,"
				  "31,32";
	struct ss_opts w = defaults();

	w.pid = w.pids[0] = 19036;
	w.pids[1] = 19034;
	w.npids = 2;
	expect_opts(ARGS("-p", "19036,19034"), &w);
	expect_opts(ARGS("-p", "7", "-p", "19036,19034"), &w); /* last wins */
	w = defaults();
	w.tid = w.tids[0] = 5;
	w.tids[1] = 6;
	w.tids[2] = 4194304;
	w.ntids = 3;
	expect_opts(ARGS("--tid=5,6,4194304"), &w);
	w = defaults();
	w.pid = 1;
	w.npids = 32;
	for (int i = 0; i < 32; i++)
		w.pids[i] = (uint32_t)i + 1;
	expect_opts(ARGS("-p", max), &w);
	/* one clear message for a bad list */
	expect_msg(ARGS("-p", "1,,2"), "invalid pid '1,,2': want a PID or a "
				       "comma list of at most 32");
	expect_msg(ARGS("-p", "1,2,"), "invalid pid '1,2,': want a PID or a "
				       "comma list of at most 32");
	expect_msg(ARGS("-p", "3,3"), "invalid pid '3,3': want a PID or a "
				      "comma list of at most 32");
	expect_msg(ARGS("-t", "1,0"), "invalid tid '1,0': want a TID or a "
				      "comma list of at most 32");
	{
		char over[sizeof(max) + 4];

		struct run r;

		snprintf(over, sizeof(over), "%s,33", max);
		parse(&r, ARGS("-p", over));
		cr_expect_eq(r.ret, SS_PARSE_ERROR);
		cr_expect(strstr(r.err, "want a PID or a comma list of at "
					"most 32"),
			  "%s", r.err);
		run_free(&r);
	}
}

/* -c is --cgroup's short form, as in libbpf-tools' runqlat and cpudist */
Test(opts, cgroup_short_alias)
{
	struct ss_opts w = defaults();

	w.cgroup = "/sys/fs/cgroup/a";
	expect_opts(ARGS("-c", "/sys/fs/cgroup/a"), &w);
	expect_opts(ARGS("-c/sys/fs/cgroup/a"), &w);
	expect_msg(ARGS("-c"), "option '-c' needs a value");
}

/* -i is milliseconds; below 100 ms one note line says so, and it still runs */
Test(opts, short_interval_note)
{
	static const char note[] = "switchstat: note: -i is in milliseconds: "
				   "a table every 1 ms\n";
	struct ss_opts w = defaults();
	struct run r;

	parse(&r, ARGS("-i", "1"));
	cr_expect_eq(r.ret, SS_PARSE_OK);
	cr_expect_eq(r.o.interval_ms, 1);
	cr_expect_str_eq(r.err, note);
	run_free(&r);
	parse(&r, ARGS("--interval=99"));
	cr_expect(strstr(r.err, "every 99 ms"), "stderr: %s", r.err);
	run_free(&r);
	/* 100 ms and the positional seconds form print nothing */
	w.interval_ms = 100;
	expect_opts(ARGS("-i", "100"), &w);
	w.interval_ms = 1000;
	expect_opts(ARGS("1"), &w);
}

Test(opts, unique_long_prefixes)
{
	struct ss_opts w = defaults();

	w.interval_ms = 100;
	expect_opts(ARGS("--interv=100"), &w);
	w = defaults();
	w.self_stats = true;
	expect_opts(ARGS("--self"), &w);
}

/* ---- help and version -------------------------------------------------- */

Test(opts, help_prints_usage_to_out)
{
	char *usage = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&usage, &len);
	const char *const *cases[] = { ARGS("-h"), ARGS("--help"),
				       ARGS("-v", "-h", "-Z"),
				       ARGS("-h", "--csv", "--json") };

	cr_assert(f);
	ss_print_usage(f);
	fclose(f);
	cr_assert(!strncmp(usage, "USAGE: switchstat ", 18), "%s", usage);
	cr_expect(strstr(usage, "\nOPTIONS:\n") && strstr(usage, "EXAMPLES:"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;

		parse(&r, cases[i]);
		cr_expect_eq(r.ret, SS_PARSE_EXIT_OK, "[%s]", joined(cases[i]));
		cr_expect_str_eq(r.out, usage, "[%s]", joined(cases[i]));
		cr_expect_eq(r.errlen, 0, "[%s] stderr: %s", joined(cases[i]),
			     r.err);
		run_free(&r);
	}
	free(usage);
}

/* Every long option is documented in the usage text. */
Test(opts, usage_lists_every_option)
{
	static const char *const names[] = {
		"-i, --interval",
		"-d, --duration",
		"-p, --pid",
		"-t, --tid",
		"-L, --threads",
		"-T, --timestamp",
		"-n, --rows",
		"--top ",
		"-c, --cgroup",
		"-s, --sort",
		"-e, --events",
		"--no-counters",
		"--hist ",
		"-H, --hist-only",
		"-m, --milliseconds",
		"-P, --pids",
		"-G, --cgroups",
		"--cgroup PATH",
		"-M, --memory",
		"--trace",
		"--csv",
		"--json",
		"--idle",
		"--check",
		"--self-stats",
		"--map-entries",
		"--listen [ADDR:]PORT",
		"-q, --quiet",
		"--metrics-per-process",
		"--max-series N",
		"--series-ttl SECONDS",
		"-v, --verbose",
		"-h, --help",
		"--version",
	};
	char *usage = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&usage, &len);

	cr_assert(f);
	ss_print_usage(f);
	fclose(f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cr_expect(strstr(usage, names[i]), "usage lacks '%s'",
			  names[i]);
	free(usage);
}

/*
 * Every option line of the usage text names an option the parser knows,
 * taking a value exactly when the usage shows one.
 */
Test(opts, every_usage_option_is_parsed)
{
	char *usage = NULL, *line, *save = NULL;
	size_t len = 0;
	int seen = 0;
	FILE *f = open_memstream(&usage, &len);

	cr_assert(f);
	ss_print_usage(f);
	fclose(f);
	for (line = strtok_r(usage, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64], arg[64] = "";
		const char *dd = strstr(line, "--");
		struct run r;

		if (strncmp(line, "  -", 3) && strncmp(line, "      --", 8))
			continue;
		cr_assert(dd, "%s", line);
		cr_assert(sscanf(dd, "%63s %63[][A-Z:]", name, arg) >= 1);
		if (!strcmp(name, "--help") || !strcmp(name, "--version"))
			continue;
		seen++;
		/* exporter options need --listen; its own value is a port */
		if (strcmp(name, "--listen") && !strcmp(arg, ""))
			parse(&r, ARGS("--listen", "1", name));
		else if (strcmp(name, "--listen"))
			parse(&r, ARGS("--listen", "1", name, "1"));
		else
			parse(&r, ARGS(name, "1"));
		cr_expect_null(strstr(r.err, "unknown option"), "%s: %s", name,
			       r.err);
		cr_expect_null(strstr(r.err, "needs a value"), "%s: %s", name,
			       r.err);
		run_free(&r);
		if (arg[0]) { /* the value is required */
			parse(&r, ARGS(name));
			cr_expect_eq(r.ret, SS_PARSE_ERROR, "%s", name);
			cr_expect(strstr(r.err, "needs a value"), "%s: %s",
				  name, r.err);
		} else { /* and a flag takes none */
			char eq[80];

			snprintf(eq, sizeof(eq), "%s=1", name);
			parse(&r, ARGS(eq));
			cr_expect(strstr(r.err, "takes no value"), "%s: %s",
				  name, r.err);
		}
		run_free(&r);
	}
	cr_expect_eq(seen, 40, "usage shows %d options besides -h/--version",
		     seen);
	free(usage);
}

Test(opts, version_prints_one_line_to_out)
{
	struct run r;

	parse(&r, ARGS("--version"));
	cr_expect_eq(r.ret, SS_PARSE_EXIT_OK);
	cr_expect_str_eq(r.out, "switchstat " SS_VERSION "\n");
	cr_expect_eq(r.errlen, 0);
	run_free(&r);
	parse(&r, ARGS("-i", "5", "--version", "--bogus"));
	cr_expect_eq(r.ret, SS_PARSE_EXIT_OK);
	cr_expect_str_eq(r.out, "switchstat " SS_VERSION "\n");
	run_free(&r);
}

/* ---- errors: one line each, exact text ---------------------------------- */

Test(opts, error_invalid_values)
{
	expect_msg(ARGS("-i", "0"),
		   "invalid interval '0': want 1..86400000 ms");
	expect_msg(ARGS("--interval=x"),
		   "invalid interval 'x': want 1..86400000 ms");
	expect_msg(ARGS("-d", "0"), "invalid duration '0': want 1..31536000 s");
	expect_msg(ARGS("-p", "0"),
		   "invalid pid '0': want a PID or a comma list of at most 32");
	expect_msg(
		ARGS("-t", "-5"),
		"invalid tid '-5': want a TID or a comma list of at most 32");
	expect_msg(ARGS("-n", "1000001"),
		   "invalid row count '1000001': want 0..1000000");
	expect_msg(ARGS("-s", "cpu"), "invalid sort key 'cpu': want oncpu, "
				      "switch, vol, invol or pid");
	expect_msg(ARGS("--hist", "oncpu,bogus"),
		   "invalid histogram kind 'oncpu,bogus': want oncpu, offcpu, "
		   "runq, offcpu-S, offcpu-D, offcpu-IO, offcpu-T or offcpu-R "
		   "(comma list)");
	expect_msg(ARGS("--hist", "offcpu-S"),
		   "--hist offcpu-S, offcpu-D, offcpu-IO, offcpu-T and "
		   "offcpu-R need --offcpu");
	expect_msg(ARGS("--map-entries", "1023"),
		   "invalid map size '1023': want 1024..4194304");
	expect_msg(ARGS("-e", ""), "empty event list");
	expect_msg(ARGS("--cgroup="), "empty cgroup path");
}

/* User text in a message stays on one line and is bounded. */
Test(opts, error_echo_is_sanitized)
{
	char big[4096];

	expect_msg(ARGS("-s", "a\nb\tc"),
		   "invalid sort key 'a?b?c': want oncpu, switch, vol, invol "
		   "or pid");
	expect_msg(ARGS("x\ry"), "invalid interval 'x?y': want 1..86400 s");
	expect_msg(ARGS("1", "2", "x\ry"), "unexpected argument 'x?y'");
	memset(big, '7', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	expect_msg(ARGS("-i", big),
		   "invalid interval '7777777777777777777777777777777777777777"
		   "7777...': want 1..86400000 ms");
	/* exactly 44 bytes still fit whole */
	big[44] = '\0';
	expect_msg(ARGS("-i", big),
		   "invalid interval '7777777777777777777777777777777777777777"
		   "7777': want 1..86400000 ms");
}

Test(opts, error_missing_value)
{
	expect_msg(ARGS("-i"), "option '-i' needs a value");
	expect_msg(ARGS("-v", "-p"), "option '-p' needs a value");
	expect_msg(ARGS("-vs"), "option '-s' needs a value");
	/* long forms are named as written, not as their short letter */
	expect_msg(ARGS("--interval"), "option '--interval' needs a value");
	expect_msg(ARGS("--hist"), "option '--hist' needs a value");
	expect_msg(ARGS("--map-entries"),
		   "option '--map-entries' needs a value");
}

Test(opts, error_unknown_option)
{
	expect_msg(ARGS("-Z"), "unknown option '-Z'");
	expect_msg(ARGS("-vZ"), "unknown option '-Z'");
	expect_msg(ARGS("-Zv"), "unknown option '-Z'");
	/* an unknown letter in a cluster after a long option */
	expect_msg(ARGS("--threads", "-ZL"), "unknown option '-Z'");
	expect_msg(ARGS("--bogus"), "unknown option '--bogus'");
	expect_msg(ARGS("--bogus=1"), "unknown option '--bogus'");
	expect_msg(ARGS("--his", "runq"), "unknown option '--his'");
}

Test(opts, error_value_not_taken)
{
	expect_msg(ARGS("--threads=1"), "option '--threads' takes no value");
	expect_msg(ARGS("--csv="), "option '--csv' takes no value");
	/* not "unknown option '-h'", and no help printed */
	expect_msg(ARGS("--help=x"), "option '--help' takes no value");
	expect_msg(ARGS("--thr=1"), "option '--thr' takes no value");
}

Test(opts, error_unexpected_argument)
{
	/* a first or second word is the bcc-style interval or count */
	expect_msg(ARGS("stray"), "invalid interval 'stray': want 1..86400 s");
	expect_msg(ARGS("--", "-v"), "invalid interval '-v': want 1..86400 s");
	expect_msg(ARGS("-"), "invalid interval '-': want 1..86400 s");
	expect_msg(ARGS("1", "x"), "invalid count 'x': want 1..31536000");
	/* a third is one too many */
	expect_msg(ARGS("1", "2", "stray"), "unexpected argument 'stray'");
	expect_msg(ARGS("1", "-v", "2", "3", "4"), "unexpected argument '3'");
}

/* ---- positional [interval [count]] ------------------------------------- */

Test(opts, positional_interval_and_count)
{
	struct ss_opts w = defaults();

	w.interval_ms = 1000;
	w.duration_s = 5;
	expect_opts(ARGS("1", "5"), &w);
	w.interval_ms = 2000;
	w.duration_s = 6;
	expect_opts(ARGS("2", "3"), &w);
	w = defaults();
	w.interval_ms = 3000;
	expect_opts(ARGS("3"), &w); /* no count: until Ctrl-C */
	w.verbose = 1;
	w.interval_ms = 1000;
	w.duration_s = 2;
	expect_opts(ARGS("1", "-v", "2"), &w); /* options may come between */
	w = defaults();
	w.interval_ms = 86400000;
	expect_opts(ARGS("86400"), &w);
	w.interval_ms = 1000;
	w.duration_s = 31536000;
	expect_opts(ARGS("1", "31536000"), &w);
}

Test(opts, positional_bounds_and_conflicts)
{
	expect_msg(ARGS("0"), "invalid interval '0': want 1..86400 s");
	expect_msg(ARGS("86401"), "invalid interval '86401': want 1..86400 s");
	expect_msg(ARGS("1.5"), "invalid interval '1.5': want 1..86400 s");
	expect_msg(ARGS("1", "0"), "invalid count '0': want 1..31536000");
	expect_msg(ARGS("2", "31536000"),
		   "invalid count '31536000': want interval * count at most "
		   "31536000 s");
	/* mixing the two forms is ambiguous: refuse it */
	expect_msg(ARGS("-i", "500", "1"),
		   "positional interval/count and -i/-d are exclusive");
	expect_msg(ARGS("1", "5", "-d", "2"),
		   "positional interval/count and -i/-d are exclusive");
	expect_msg(ARGS("--interval=10", "1", "5"),
		   "positional interval/count and -i/-d are exclusive");
}

Test(opts, error_exclusive_combinations)
{
	expect_msg(ARGS("--csv", "--json"), "--csv and --json are exclusive");
	expect_msg(ARGS("--json", "--csv"), "--csv and --json are exclusive");
	expect_msg(ARGS("-H"), "-H needs --hist");
	expect_msg(ARGS("--hist-only"), "-H needs --hist");
	expect_msg(ARGS("-m"), "-m and -P need --hist");
	expect_msg(ARGS("-P"), "-m and -P need --hist");
	expect_msg(ARGS("-e", "cycles", "--no-counters"),
		   "-e and --no-counters are exclusive");
	expect_msg(ARGS("--no-counters", "--events=cycles"),
		   "-e and --no-counters are exclusive");
	expect_msg(ARGS("-G", "-L"), "-G and -L are exclusive");
	/* the usage shows [-p PID | -t TID] (libbpf-tools refuse both too) */
	expect_msg(ARGS("-p", "185", "-t", "186"), "-p and -t are exclusive");
	expect_msg(ARGS("--tid=186", "--pid=185"), "-p and -t are exclusive");
	expect_msg(ARGS("--threads", "--cgroups"), "-G and -L are exclusive");
	expect_msg(ARGS("-q"), "-q, --metrics-per-process, --max-series and "
			       "--series-ttl need --listen");
	expect_msg(ARGS("--max-series", "5"),
		   "-q, --metrics-per-process, --max-series and "
		   "--series-ttl need --listen");
	expect_msg(ARGS("--listen", "9100", "--trace"),
		   "--listen and --trace are exclusive");
	expect_msg(ARGS("--offcpu", "--trace"),
		   "--offcpu and --wakers are not for --trace");
	expect_msg(ARGS("--wakers", "--trace"),
		   "--offcpu and --wakers are not for --trace");
	expect_msg(ARGS("-f"), "-f, -K and -U need --stacks");
	expect_msg(ARGS("--offcpu", "-K"), "-f, -K and -U need --stacks");
	expect_msg(ARGS("--stacks", "-K", "-U"), "-K and -U are exclusive");
	expect_msg(ARGS("--stacks", "--trace"), "--stacks is not for --trace");
	expect_msg(ARGS("--stacks", "--top"), "--stacks is not for --top");
	expect_msg(ARGS("--stacks", "-f", "--hist", "oncpu"),
		   "-f prints folded stacks only: not with --hist, --blame, "
		   "--check, --csv, --json, --top, -T or --self-stats");
	expect_msg(ARGS("--stacks", "-f", "--self-stats"),
		   "-f prints folded stacks only: not with --hist, --blame, "
		   "--check, --csv, --json, --top, -T or --self-stats");
	expect_msg(ARGS("--stacks", "-f", "--json"),
		   "-f prints folded stacks only: not with --hist, --blame, "
		   "--check, --csv, --json, --top, -T or --self-stats");
	expect_msg(ARGS("--top", "--trace"),
		   "--top shows the interval table only: not with --trace, "
		   "-H, --check or -q");
	expect_msg(ARGS("--hist=runq", "-H", "--top"),
		   "--top shows the interval table only: not with --trace, "
		   "-H, --check or -q");
}

Test(opts, top_view_flag)
{
	struct ss_opts w = defaults();

	w.top_view = true;
	expect_opts(ARGS("--top"), &w);
	w.top = 7;
	expect_opts(ARGS("--top", "-n", "7"), &w);
	expect_msg(ARGS("--top=1"), "option '--top' takes no value");
	w = defaults();
	w.top_view = true;
	w.hist = SS_HIST_RUNQ;
	w.hist_per_process = true;
	expect_opts(ARGS("--top", "--hist", "runq", "-P"), &w); /* r pane */
}

Test(opts, listen_and_exporter_options)
{
	struct ss_opts w = defaults();

	w.listen = "9100";
	expect_opts(ARGS("--listen", "9100"), &w);
	w.listen = "[::1]:80";
	w.quiet = true;
	w.metrics_per_process = true;
	w.max_series = 5;
	w.series_ttl_s = 7;
	expect_opts(ARGS("--listen=[::1]:80", "-q", "--metrics-per-process",
			 "--max-series", "5", "--series-ttl=7"),
		    &w);
	expect_msg(ARGS("--listen", "localhost:9100"),
		   "invalid listen address 'localhost:9100': want "
		   "[ADDR:]PORT, ADDR an IPv4 or [IPv6] address");
	expect_msg(ARGS("--listen", "9100", "--max-series", "0"),
		   "invalid series cap '0': want 1..1000000");
	expect_msg(ARGS("--listen", "9100", "--series-ttl", "0"),
		   "invalid series TTL '0': want 1..31536000 s");
}

/* ---- re-entrancy ----------------------------------------------------------- */

Test(opts, parse_twice_in_a_row)
{
	struct ss_opts want = defaults(), all = defaults();
	struct run r;

	all.interval_ms = 100;
	all.duration_s = 3;
	all.pid = all.pids[0] = 1;
	all.npids = 1;
	all.per_thread = all.timestamp = all.csv = all.memory = true;
	all.top = 0;
	all.sort = SS_SORT_PID;
	all.hist = SS_HIST_RUNQ;
	all.milliseconds = true;
	all.verbose = 2;
	expect_opts(ARGS("-i", "100", "-d", "3", "-p", "1", "-LT", "--csv",
			 "-M", "-n", "0", "-s", "pid", "--hist", "runq", "-m",
			 "-vv"),
		    &all);
	/* nothing carried over */
	expect_opts(NOARGS, &want);
	expect_opts(ARGS("-i", "100", "-d", "3", "-p", "1", "-LT", "--csv",
			 "-M", "-n", "0", "-s", "pid", "--hist", "runq", "-m",
			 "-vv"),
		    &all);

	/* an error inside a cluster leaves getopt mid-element */
	parse(&r, ARGS("-vZvv"));
	cr_expect_eq(r.ret, SS_PARSE_ERROR);
	run_free(&r);
	want.per_thread = true;
	expect_opts(ARGS("-L"), &want);

	/* an early return on -h leaves the rest of argv unread */
	parse(&r, ARGS("-h", "-G", "-vv"));
	cr_expect_eq(r.ret, SS_PARSE_EXIT_OK);
	run_free(&r);
	expect_opts(ARGS("-L"), &want);

	/* getopt permutes argv: a stray word does not stick either */
	parse(&r, ARGS("stray", "-T"));
	cr_expect_eq(r.ret, SS_PARSE_ERROR);
	run_free(&r);
	expect_opts(ARGS("-L"), &want);
}

/* ---- ss_parse_u64 ------------------------------------------------------------ */

#define U64_BAD(s, min, max)                                                 \
	do {                                                                 \
		uint64_t v_ = 12345;                                         \
		cr_expect_eq(ss_parse_u64(s, min, max, &v_), -1,             \
			     "'%s' accepted", s ? (const char *)s : "NULL"); \
		cr_expect_eq(v_, 12345, "'%s' wrote *out",                   \
			     s ? (const char *)s : "NULL");                  \
	} while (0)

#define U64_OK(s, min, max, want)                                     \
	do {                                                          \
		uint64_t v_ = 12345;                                  \
		cr_expect_eq(ss_parse_u64(s, min, max, &v_), 0,       \
			     "'%s' rejected", s);                     \
		cr_expect_eq(v_, (uint64_t)(want), "'%s' -> %llu", s, \
			     (unsigned long long)v_);                 \
	} while (0)

Test(parse_u64, rejects_non_decimal)
{
	U64_BAD(NULL, 0, UINT64_MAX);
	U64_BAD("", 0, UINT64_MAX);
	U64_BAD("-1", 0, UINT64_MAX);
	U64_BAD("-0", 0, UINT64_MAX);
	U64_BAD("+1", 0, UINT64_MAX);
	U64_BAD(" 1", 0, UINT64_MAX);
	U64_BAD("\t1", 0, UINT64_MAX);
	U64_BAD("1 ", 0, UINT64_MAX);
	U64_BAD("1\n", 0, UINT64_MAX);
	U64_BAD("0x10", 0, UINT64_MAX);
	U64_BAD("1e3", 0, UINT64_MAX);
	U64_BAD("1.0", 0, UINT64_MAX);
	U64_BAD("1,000", 0, UINT64_MAX);
	U64_BAD("x", 0, UINT64_MAX);
}

Test(parse_u64, range_of_64_bits)
{
	U64_OK("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
	U64_BAD("18446744073709551616", 0, UINT64_MAX); /* 2^64 */
	U64_BAD("99999999999999999999999", 0, UINT64_MAX);
	U64_OK("0", 0, UINT64_MAX, 0);
	U64_OK("007", 0, UINT64_MAX, 7); /* leading zeros are decimal */
	U64_OK("00000000000000000000000000042", 0, 100, 42);
}

Test(parse_u64, bounds_are_inclusive)
{
	U64_BAD("9", 10, 20);
	U64_OK("10", 10, 20, 10);
	U64_OK("20", 10, 20, 20);
	U64_BAD("21", 10, 20);
	U64_OK("5", 5, 5, 5);
	U64_BAD("4", 5, 5);
	U64_BAD("6", 5, 5);
	U64_BAD("0", 1, UINT64_MAX);
	U64_BAD("18446744073709551615", 0, UINT64_MAX - 1);
}

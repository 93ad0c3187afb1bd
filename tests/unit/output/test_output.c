// SPDX-License-Identifier: GPL-2.0
/*
 * test_output.c - src/output/output.c: the table (golden text of the core columns,
 * -L, -T, -G, top N, the "dropped" line), CSV (header names, RFC 4180
 * quoting, n/a as an empty field), NDJSON (parsed back by python3: keys are
 * "type" plus the CSV header), ss_fmt_si, ss_counter_key, and the counter,
 * IPC and MPKI columns.
 *
 * Expected headers are literal strings, never rebuilt from ss_out_init's
 * column list, so a renamed, moved or extra column fails.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "opts.h"
#include "output.h"

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOARGS ((const char *const[]){ NULL })

/* 2023-11-14 22:13:20.5 UTC */
#define END_NS 1700000000500000000ULL

/* The core columns, pinned: table header and CSV keys. */
static const char core_head[] =
	"PID     COMM              SWITCH     VOL   INVOL  ONCPU(ms)   %CPU";
static const char core_head_L[] = "PID     TID     COMM              SWITCH"
				  "     VOL   INVOL  ONCPU(ms)   %CPU";
static const char core_head_G[] = "CGID     CGROUP                    SWITCH"
				  "     VOL   INVOL  ONCPU(ms)   %CPU";
static const char csv_core[] =
	"time,pid,comm,switches,voluntary,involuntary,oncpu_ns,cpu_pct";

struct fixture {
	struct ss_opts o;
	struct ss_out out;
	struct ss_row rows[4];
	struct ss_interval iv;
};

static struct ss_opts parse_opts(const char *const *args)
{
	char *argv[16] = { "switchstat" };
	struct ss_opts o;
	int argc = 1;

	while (*args)
		argv[argc++] = (char *)*args++;
	cr_assert_eq(ss_parse_opts(argc, argv, &o, stderr, stderr),
		     SS_PARSE_OK);
	return o;
}

static struct ss_row row(uint32_t tgid, uint32_t tid, const char *comm,
			 uint64_t cgid, uint64_t oncpu, uint64_t vol,
			 uint64_t invol)
{
	struct ss_row r;

	memset(&r, 0, sizeof(r));
	r.key.tgid = tgid;
	r.key.tid = tid;
	strncpy(r.v.comm, comm, SS_COMM_LEN - 1);
	r.v.cgroup_id = cgid;
	r.v.oncpu_ns = oncpu;
	r.v.voluntary = vol;
	r.v.involuntary = invol;
	return r;
}

/*
 * Two rows, already sorted: worker (1234/1240, cgroup 7, 250 ms on-CPU of a
 * 1 s interval, 10 voluntary + 2 involuntary) and sh (42, no cgroup, 1 ms,
 * 3 + 0).  Counters and options are set by each test before out_init().
 */
static void fixture(struct fixture *fx, const char *const *args)
{
	memset(fx, 0, sizeof(*fx));
	fx->o = parse_opts(args);
	fx->rows[0] = row(1234, 1240, "worker", 7, 250000000, 10, 2);
	fx->rows[1] = row(42, 42, "sh", 0, 1000000, 3, 0);
	fx->iv.rows = fx->rows;
	fx->iv.n = 2;
	fx->iv.cap = 4;
	fx->iv.interval_ns = 1000000000;
	fx->iv.end_realtime_ns = END_NS;
	fx->out.o = &fx->o;
	fx->out.fmt = ss_format_of(&fx->o);
}

static char *render(struct fixture *fx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	ss_out_interval(&fx->out, f, &fx->iv);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

/* Split s into lines (s is modified); returns the count. */
static int lines(char *s, char **v, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *nl = strchr(s, '\n');

		cr_assert(nl, "last line not terminated: '%s'", s);
		*nl = '\0';
		v[n++] = s;
		s = nl + 1;
	}
	return n;
}

/*
 * ss_out_init on @fx, then render it: the text (free it), split into @l
 * (16 entries), which must hold @n lines.
 */
static char *init_render(struct fixture *fx, char **l, int n)
{
	char *txt;

	ss_out_init(&fx->out);
	txt = render(fx);
	cr_assert_eq(lines(txt, l, 16), n);
	return txt;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int col_index(const struct ss_out *out, const char *key)
{
	for (int i = 0; i < out->ncols; i++)
		if (!strcmp(out->cols[i].fd.key, key))
			return i;
	return -1;
}

/*
 * Field @key of a CSV row (no quoted fields), found by its header position,
 * so columns added elsewhere in the list do not matter.
 */
static void expect_field(const char *header, const char *row, const char *key,
			 const char *want)
{
	const char *h = header, *r = row;
	size_t klen = strlen(key);

	for (;;) {
		size_t hl = strcspn(h, ","), rl = strcspn(r, ",");

		if (hl == klen && !strncmp(h, key, klen)) {
			cr_expect(rl == strlen(want) && !strncmp(r, want, rl),
				  "%s: got '%.*s', want '%s' in '%s'", key,
				  (int)rl, r, want, row);
			return;
		}
		if (!h[hl] || !r[rl])
			break;
		h += hl + 1;
		r += rl + 1;
	}
	cr_expect_fail("no field %s in '%s' / '%s'", key, header, row);
}

/* ---- table ------------------------------------------------------------- */

Test(output_table, two_rows_golden)
{
	struct fixture fx;
	char *txt, *l[16];
	int n;

	fixture(&fx, NOARGS);
	ss_out_init(&fx.out);
	txt = render(&fx);
	n = lines(txt, l, 16);
	cr_assert_eq(n, 4, "header, 2 rows, blank line; got %d lines", n);
	/* pinned: the core columns and their order */
	cr_expect(starts(l[0], core_head), "header '%s'", l[0]);
	cr_expect(starts(l[1], "1234    worker                12      10  "
			       "     2     250.00   25.0"),
		  "row 1 '%s'", l[1]);
	cr_expect(starts(l[2], "42      sh                     3       3  "
			       "     0       1.00    0.1"),
		  "row 2 '%s'", l[2]);
	cr_expect_str_eq(l[3], "");
	/* without counters or -M nothing follows them */
	cr_expect_str_eq(l[0], core_head);
	free(txt);
}

Test(output_table, threads_add_tid_column)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("-L"));
	txt = init_render(&fx, l, 4);
	cr_expect(starts(l[0], core_head_L), "header '%s'", l[0]);
	cr_expect(starts(l[1], "1234    1240    worker                12  "
			       "    10       2     250.00   25.0"),
		  "row 1 '%s'", l[1]);
	cr_expect(starts(l[2], "42      42      sh                     3"),
		  "row 2 '%s'", l[2]);
	free(txt);
}

Test(output_table, timestamp_line_in_local_time)
{
	struct fixture fx;
	char *txt, *l[16];
	char *old = getenv("TZ") ? strdup(getenv("TZ")) : NULL;

	setenv("TZ", "UTC", 1);
	tzset();
	fixture(&fx, ARGS("-T", "-L"));
	txt = init_render(&fx, l, 5);
	cr_expect_str_eq(l[0], "22:13:20");
	cr_expect(starts(l[1], core_head_L), "header '%s'", l[1]);
	cr_expect(starts(l[2], "1234    1240    worker"), "row '%s'", l[2]);
	free(txt);

	/* the same instant elsewhere: the line follows TZ (a fixed POSIX TZ
	 * string, so no tzdata is needed) */
	setenv("TZ", "IST-5:30", 1);
	tzset();
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 5);
	cr_expect_str_eq(l[0], "03:43:20");
	free(txt);
	if (old)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old);
}

Test(output_table, top_n_cuts_rows)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("-n", "1"));
	txt = init_render(&fx, l, 3);
	cr_expect(starts(l[1], "1234    worker"), "row '%s'", l[1]);
	cr_expect_str_eq(l[2], "");
	free(txt);

	fixture(&fx, ARGS("-n", "0")); /* 0 = all */
	ss_out_init(&fx.out);
	txt = render(&fx);
	cr_expect_eq(lines(txt, l, 16), 4);
	free(txt);

	fixture(&fx, ARGS("-n", "5")); /* more than there are */
	ss_out_init(&fx.out);
	txt = render(&fx);
	cr_expect_eq(lines(txt, l, 16), 4);
	free(txt);
}

Test(output_table, no_rows_header_only)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, NOARGS);
	fx.iv.n = 0;
	txt = init_render(&fx, l, 2);
	cr_expect(starts(l[0], core_head));
	cr_expect_str_eq(l[1], "");
	free(txt);
}

Test(output_table, dropped_line)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("-n", "1"));
	fx.iv.stats[SS_STAT_DROPS] = 3;
	txt = init_render(&fx, l, 4);
	cr_expect_str_eq(l[2],
			 "dropped 3 updates: map full (raise --map-entries)");
	cr_expect_str_eq(l[3], "");
	free(txt);
	/* no line when nothing was dropped (other stats do not count) */
	fixture(&fx, NOARGS);
	fx.iv.stats[SS_STAT_FIRST_SLICE] = 9;
	ss_out_init(&fx.out);
	txt = render(&fx);
	cr_expect(!strstr(txt, "dropped"), "%s", txt);
	free(txt);
}

Test(output_table, comm_control_bytes_printable)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, NOARGS);
	strcpy(fx.rows[0].v.comm, "a\tb\x01\x7f");
	txt = init_render(&fx, l, 4);
	cr_expect(starts(l[1], "1234    a?b??                 12"), "row '%s'",
		  l[1]);
	free(txt);
}

/*
 * A cgroup table built by hand: the cache struct is public, entries sorted
 * by id; an endless rescan interval keeps ss_cgroup_path from scanning.
 */
static char long_path[] =
	"/user.slice/user-1000.slice/user@1000.service/app.slice/"
	"very-long-application-name.scope";
static char mid_path[] = "/system.slice/cron.service.d/x"; /* 30 */
static char docker_path[] =
	"/system.slice/docker-0123456789abcdef0123456789abcdef0123456789abcdef"
	"0123456789abcdef.scope";
static char ctl_path[] = "/system.slice/evil\nname.scope";
static struct ss_cgroup_entry ents[] = {
	{ 7, long_path },
	{ 8, mid_path },
	{ 9, docker_path },
	{ 10, ctl_path },
};

static void fake_cache(struct ss_cgroup_cache *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->mount, "/nonexistent");
	c->ents = ents;
	c->n = sizeof(ents) / sizeof(ents[0]);
	c->rescan_interval_ns = UINT64_MAX;
}

Test(output_table, per_cgroup_columns)
{
	struct fixture fx;
	struct ss_cgroup_cache cg;
	char *txt, *l[16];

	fake_cache(&cg);
	fixture(&fx, ARGS("-G"));
	fx.out.cg = &cg;
	fx.rows[0].key.tgid = fx.rows[0].key.tid = 0;
	fx.rows[0].v.cgroup_id = 9;
	fx.rows[1].key.tgid = fx.rows[1].key.tid = 0;
	fx.rows[1].v.cgroup_id = 12345; /* gone: shown as the number */
	txt = init_render(&fx, l, 4);
	cr_expect(starts(l[0], core_head_G), "header '%s'", l[0]);
	cr_expect(starts(l[1], "9        0123456789ab                  12"),
		  "row 1 '%s'", l[1]);
	cr_expect(starts(l[2], "12345    12345                          3"),
		  "row 2 '%s'", l[2]);
	free(txt);
}

/* Machine output keeps the full path, even where the table shortens it. */
Test(output_csv, per_cgroup_full_path)
{
	struct fixture fx;
	struct ss_cgroup_cache cg;
	char *txt, *l[16], want[256];

	fake_cache(&cg);
	fixture(&fx, ARGS("--csv", "-G"));
	fx.out.cg = &cg;
	fx.rows[0].key.tgid = fx.rows[0].key.tid = 0;
	fx.rows[0].v.cgroup_id = 9;
	txt = init_render(&fx, l, 3);
	snprintf(want, sizeof(want), "1700000000.500,9,%s,12,", docker_path);
	cr_expect(starts(l[1], want), "row '%s'", l[1]);
	free(txt);
}

/* -v adds the cgroup path; a path longer than the column keeps its tail. */
Test(output_table, verbose_cgroup_path_keeps_tail)
{
	struct fixture fx;
	struct ss_cgroup_cache cg;
	char *txt, *l[16];
	int i;

	fake_cache(&cg);
	fixture(&fx, ARGS("-v"));
	fx.out.cg = &cg;
	fx.rows[1].v.cgroup_id = 8;
	ss_out_init(&fx.out);
	i = col_index(&fx.out, "cgroup");
	cr_assert_geq(i, 0);
	cr_assert(fx.out.cols[i].fd.head && fx.out.cols[i].fd.width == -24);
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 4);
	cr_expect(strstr(l[0], " CGROUP"), "header '%s'", l[0]);
	/* 88 bytes: "..." and the last 21 */
	cr_expect(strstr(l[1], " ...pplication-name.scope"), "row '%s'", l[1]);
	cr_expect(strstr(l[2], " ...lice/cron.service.d/x"), "row '%s'", l[2]);
	free(txt);
	/* a control byte in the kept tail is made printable too */
	fx.rows[1].v.cgroup_id = 10;
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 4);
	cr_expect(strstr(l[2], " ...slice/evil?name.scope"), "row '%s'", l[2]);
	free(txt);
}

/* ---- CSV --------------------------------------------------------------- */

Test(output_csv, header_names_exactly)
{
	const struct {
		const char *const *args;
		const char *header;
	} cases[] = {
		{ ARGS("--csv"), "time,pid,comm,switches,voluntary,"
				 "involuntary,oncpu_ns,cpu_pct,cgroup_id,"
				 "cgroup,dropped" },
		{ ARGS("--csv", "-L"), "time,pid,tid,comm,switches,voluntary,"
				       "involuntary,oncpu_ns,cpu_pct,"
				       "cgroup_id,cgroup,dropped" },
		{ ARGS("--csv", "-G"), "time,cgroup_id,cgroup,switches,"
				       "voluntary,involuntary,oncpu_ns,"
				       "cpu_pct,dropped" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct fixture fx;
		char *txt, *l[16];

		fixture(&fx, cases[c].args);
		ss_out_init(&fx.out);
		txt = render(&fx);
		cr_assert_eq(lines(txt, l, 16), 3);
		cr_expect_str_eq(l[0], cases[c].header);
		free(txt);
	}
}

Test(output_csv, rows_and_header_once)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv"));
	txt = init_render(&fx, l, 3);
	cr_expect(starts(l[0], csv_core), "header '%s'", l[0]);
	/* sh has no cgroup: the cgroup name is n/a, an empty field */
	cr_expect_str_eq(
		l[1],
		"1700000000.500,1234,worker,12,10,2,250000000,25.0000,7,7,0");
	cr_expect_str_eq(l[2],
			 "1700000000.500,42,sh,3,3,0,1000000,0.1000,0,,0");
	free(txt);
	/* the next interval: rows only, dropped counted on every row, %CPU
	 * of the measured interval length */
	fx.iv.stats[SS_STAT_DROPS] = 5;
	fx.iv.interval_ns = 2000000000;
	fx.iv.n = 1;
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 1);
	cr_expect_str_eq(
		l[0],
		"1700000000.500,1234,worker,12,10,2,250000000,12.5000,7,7,5");
	free(txt);
}

/* --rate: counts over the measured interval length, per second */
Test(output_csv, rate_columns)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv", "--rate"));
	fx.iv.interval_ns = 500000000; /* 0.5 s */
	txt = init_render(&fx, l, 3);
	cr_expect(starts(l[0], "time,pid,comm,switches,voluntary,involuntary,"
			       "switches_per_s,voluntary_per_s,"
			       "involuntary_per_s,oncpu_ns,cpu_pct"),
		  "header '%s'", l[0]);
	cr_expect(starts(l[1], "1700000000.500,1234,worker,12,10,2,24.0000,"
			       "20.0000,4.0000,250000000,50.0000"),
		  "row '%s'", l[1]);
	free(txt);
	/* the table: SW/s VOL/s INVOL/s after INVOL */
	fixture(&fx, ARGS("--rate"));
	ss_out_init(&fx.out);
	txt = render(&fx);
	cr_expect(strstr(txt, "INVOL     SW/s    VOL/s  INVOL/s  ONCPU(ms)"),
		  "%s", txt);
	cr_expect(strstr(txt, "     12.0     10.0      2.0 "), "%s", txt);
	free(txt);
	cr_expect_eq(ss_per_second(3, 0), 0.0);
	cr_expect_eq(ss_per_second(1, 1000), 1e6);
}

Test(output_csv, top_n_applies)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv", "-n", "1"));
	ss_out_init(&fx.out);
	txt = render(&fx);
	cr_expect_eq(lines(txt, l, 16), 2);
	free(txt);
}

Test(output_csv, rfc4180_quoting)
{
	struct fixture fx;
	char *txt;

	fixture(&fx, ARGS("--csv"));
	strcpy(fx.rows[0].v.comm, "a,\"b\" c");
	strcpy(fx.rows[1].v.comm, "x\ny");
	ss_out_init(&fx.out);
	txt = render(&fx);
	cr_expect(strstr(txt, "\n1700000000.500,1234,\"a,\"\"b\"\" c\",12,"),
		  "%s", txt);
	cr_expect(strstr(txt, "\n1700000000.500,42,\"x\ny\",3,"), "%s", txt);
	free(txt);
}

static char *csv_field(const char *s, size_t maxlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	ss_csv_field(f, s, maxlen);
	fclose(f);
	return buf;
}

#define CSVF(in, maxlen, want)                                 \
	do {                                                   \
		char *got_ = csv_field(in, maxlen);            \
		cr_expect_str_eq(got_, want, "field %s", #in); \
		free(got_);                                    \
	} while (0)

Test(output_csv, field)
{
	CSVF("plain", 100, "plain");
	CSVF("", 100, "");
	CSVF("a,b", 100, "\"a,b\"");
	CSVF("say \"hi\"", 100, "\"say \"\"hi\"\"\"");
	CSVF("\"", 100, "\"\"\"\"");
	CSVF("cr\rlf\n", 100, "\"cr\rlf\n\"");
	CSVF("abcdef", 3, "abc"); /* maxlen: an unterminated comm */
	CSVF("a\"bcdef", 3, "\"a\"\"b\"");
}

Test(output_csv, counters_na_are_empty_fields)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv", "-M"));
	fx.out.nr_counters = 3;
	strcpy(fx.out.ctr_name[0], "cycles");
	strcpy(fx.out.ctr_name[1], "instructions");
	strcpy(fx.out.ctr_name[2], "cache-misses");
	fx.out.counters_na = true;
	fx.out.mem_na[0] = fx.out.mem_na[1] = fx.out.mem_na[2] = true;
	txt = init_render(&fx, l, 3);
	cr_expect(strstr(l[0], ",cycles,instructions,cache_misses,ipc,mpki,"
			       "scaled,faults,pgalloc,reclaim_count,"
			       "reclaim_ns,"),
		  "header '%s'", l[0]);
	{
		static const char *const empty[] = {
			"cycles",  "instructions",  "cache_misses",
			"ipc",	   "mpki",	    "faults",
			"pgalloc", "reclaim_count", "reclaim_ns",
		};

		for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++)
			expect_field(l[0], l[1], empty[i], "");
	}
	expect_field(l[0], l[1], "scaled", ""); /* not measured: empty */
	expect_field(l[0], l[1], "cycles_running_pct", "");
	expect_field(l[0], l[1], "cache_misses_running_pct", "");
	expect_field(l[0], l[1], "cpu_pct", "25.0000");
	expect_field(l[0], l[1], "cgroup_id", "7");
	free(txt);
}

/*
 * A PMU that lacks one default event (cache-misses on QEMU's arm64 PMUv3):
 * that counter and the ratio using it are empty, the others are shown
 */
Test(output_csv, one_counter_na_leaves_the_others)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv"));
	fx.out.nr_counters = 3;
	strcpy(fx.out.ctr_name[0], "cycles");
	strcpy(fx.out.ctr_name[1], "instructions");
	strcpy(fx.out.ctr_name[2], "cache-misses");
	fx.out.counter_na = 1ULL << 2;
	fx.rows[0].v.counters[0] = 2000;
	fx.rows[0].v.counters[1] = 1000;
	txt = init_render(&fx, l, 3);
	expect_field(l[0], l[1], "cycles", "2000");
	expect_field(l[0], l[1], "instructions", "1000");
	expect_field(l[0], l[1], "ipc", "0.5000");
	expect_field(l[0], l[1], "cache_misses", "");
	expect_field(l[0], l[1], "mpki", "");
	expect_field(l[0], l[1], "scaled", "0");
	free(txt);
}

/* ---- JSON -------------------------------------------------------------- */

/*
 * Parse NDJSON with python3: per line, the keys in order, then the comm,
 * the cgroup, the pid and %CPU as JSON.  NULL if python3 is missing.
 */
static char *python_read(const char *ndjson)
{
	static const char prog[] =
		"import json,sys\n"
		"for line in sys.stdin:\n"
		"    o = json.loads(line)\n"
		"    print(','.join(o.keys()))\n"
		"    print(json.dumps([o.get('comm'), o.get('cgroup'),"
		" o.get('pid'), o.get('cpu_pct'), o.get('ipc')]))\n";
	char path[] = "/tmp/ss_out_json_XXXXXX", cmd[256], *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *p, *m;
	int fd, st;

	if (system("python3 -c 0 >/dev/null 2>&1"))
		return NULL;
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, ndjson, strlen(ndjson)),
		     (ssize_t)strlen(ndjson));
	close(fd);
	snprintf(cmd, sizeof(cmd), "python3 -c \"$SS_PROG\" < %s", path);
	setenv("SS_PROG", prog, 1);
	p = popen(cmd, "r");
	cr_assert(p);
	m = open_memstream(&buf, &len);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	st = pclose(p);
	unlink(path);
	cr_expect_eq(st, 0, "python3 could not parse:\n%s", ndjson);
	return buf;
}

Test(output_json, lines_parse_and_keys_match_csv)
{
	struct fixture fx, fc;
	char *txt, *csv, *py, *l[16], *c[16], keys[1100];

	fixture(&fc, ARGS("--csv", "-L"));
	ss_out_init(&fc.out);
	csv = render(&fc);
	cr_assert_eq(lines(csv, c, 16), 3);
	snprintf(keys, sizeof(keys), "type,%s", c[0]);

	fixture(&fx, ARGS("--json", "-L"));
	strcpy(fx.rows[0].v.comm, "q\"b\\s\x01");
	ss_out_init(&fx.out);
	txt = render(&fx);
	py = python_read(txt);
	if (!py) {
		free(txt);
		free(csv);
		cr_skip_test("python3 not found");
	}
	cr_assert_eq(lines(py, l, 16), 4, "python3 said:\n%s", py);
	cr_expect_str_eq(l[0], keys);
	cr_expect_str_eq(l[1], "[\"q\\\"b\\\\s\\u0001\", \"7\", 1234, 25.0, "
			       "null]");
	cr_expect_str_eq(l[2], keys);
	/* no cgroup: null, not "" or 0 */
	cr_expect_str_eq(l[3], "[\"sh\", null, 42, 0.1, null]");
	free(py);
	free(txt);
	free(csv);
}

Test(output_json, one_object_per_row_type_first)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--json", "-n", "1"));
	txt = init_render(&fx, l, 1);
	cr_expect(starts(l[0], "{\"type\":\"row\",\"time\":1700000000.500,"
			       "\"pid\":1234,\"comm\":\"worker\","
			       "\"switches\":12,\"voluntary\":10,"
			       "\"involuntary\":2,\"oncpu_ns\":250000000,"
			       "\"cpu_pct\":25.0000,"),
		  "'%s'", l[0]);
	cr_expect(strstr(l[0], ",\"dropped\":0"), "'%s'", l[0]);
	free(txt);
}

Test(output_json, counters_na_are_null)
{
	struct fixture fx;
	char *txt, *py, *l[16];

	fixture(&fx, ARGS("--json"));
	fx.out.nr_counters = 2;
	strcpy(fx.out.ctr_name[0], "cycles");
	strcpy(fx.out.ctr_name[1], "instructions");
	fx.out.counters_na = true;
	ss_out_init(&fx.out);
	txt = render(&fx);
	cr_expect(strstr(txt, "\"cycles\":null,\"instructions\":null,"
			      "\"ipc\":null,\"scaled\":null"),
		  "%s", txt);
	py = python_read(txt);
	if (py) {
		cr_assert_eq(lines(py, l, 16), 4);
		free(py);
	}
	free(txt);
}

/* ---- ss_fmt_si, ss_counter_key ------------------------------------------ */

#define SI(v, want)                                           \
	do {                                                  \
		char b_[16];                                  \
		ss_fmt_si(b_, sizeof(b_), v);                 \
		cr_expect_str_eq(b_, want, "ss_fmt_si(%llu)", \
				 (unsigned long long)(v));    \
	} while (0)

Test(output_fmt, si_boundaries)
{
	SI(0, "0");
	SI(999, "999");
	SI(99999, "99999");
	SI(100000, "100K");
	SI(123456, "123K");
	SI(999499, "999K");
	/* never "1000K": at 999.5K the M unit takes over */
	SI(999500, "1.00M");
	SI(999949, "1.00M");
	SI(999950, "1.00M");
	SI(1000000, "1.00M");
	SI(1234567, "1.23M");
	SI(9994999, "9.99M");
	SI(12345678, "12.3M");
	SI(99949999, "99.9M");
	SI(99950000, "100M");
	SI(999499999, "999M");
	SI(1000000000, "1.00G");
	SI(1000000000000ULL, "1.00T");
	SI(1000000000000000ULL, "1.00P");
	SI(1000000000000000000ULL, "1.00E");
	SI(UINT64_MAX, "18.4E");
}

/* Every value fits the counter columns' width of 8 with a '*'. */
Test(output_fmt, si_width_sweep)
{
	for (uint64_t v = 1; v < UINT64_MAX / 3; v = v * 3 + 1) {
		for (uint64_t d = 0; d < 3; d++) {
			char b[16];

			ss_fmt_si(b, sizeof(b), v + d * (v / 2));
			cr_expect_leq(strlen(b), 5, "%llu -> '%s'",
				      (unsigned long long)(v + d * (v / 2)), b);
		}
	}
}

Test(output_fmt, counter_key)
{
	char b[32];

	ss_counter_key("cache-misses", b, sizeof(b));
	cr_expect_str_eq(b, "cache_misses");
	ss_counter_key("cycles", b, sizeof(b));
	cr_expect_str_eq(b, "cycles");
	ss_counter_key("branch-instructions", b, sizeof(b));
	cr_expect_str_eq(b, "branch_instructions");
	ss_counter_key("msr/tsc/", b, sizeof(b));
	cr_expect_str_eq(b, "msr_tsc");
	ss_counter_key("cycles:u", b, sizeof(b));
	cr_expect_str_eq(b, "cycles_u");
	ss_counter_key("cpu/event=0x3c,umask=0x1/", b, sizeof(b));
	cr_expect_str_eq(b, "cpu_event_0x3c_umask_0x1");
	ss_counter_key("icl::MEM_LOAD_RETIRED:L3_MISS", b, sizeof(b));
	cr_expect_str_eq(b, "icl_MEM_LOAD_RETIRED_L3_MISS");
	ss_counter_key("a-b-c", b, 4);
	cr_expect_str_eq(b, "a_b");
	ss_counter_key("abc", b, 1);
	cr_expect_str_eq(b, "");
	ss_counter_key("", b, sizeof(b));
	cr_expect_str_eq(b, "");
}

/* ---- counter columns --------------------------------------------------- */

static void set_counters(struct ss_out *out, const char *const *names)
{
	out->nr_counters = 0;
	for (; *names; names++)
		strcpy(out->ctr_name[out->nr_counters++], *names);
}

/* the default events, row 0 (worker) counting 2M cycles, 3M instructions
 * and 3000 cache misses */
static void default_counts(struct fixture *fx)
{
	set_counters(&fx->out, ARGS("cycles", "instructions", "cache-misses"));
	fx->rows[0].v.counters[0] = 2000000;
	fx->rows[0].v.counters[1] = 3000000;
	fx->rows[0].v.counters[2] = 3000;
}

Test(output_counters, table_columns_and_values)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, NOARGS);
	default_counts(&fx);
	fx.rows[0].v.counter_scaled = 1; /* cycles were scaled */
	/* sh: no cycles counted, so IPC is n/a; MPKI 0 */
	fx.rows[1].v.counters[1] = 500;
	txt = init_render(&fx, l, 4);
	cr_expect(starts(l[0], core_head), "header '%s'", l[0]);
	cr_expect(strstr(l[0], "%CPU   CYCLES    INSTR LLC-MISS   IPC   MPKI"),
		  "header '%s'", l[0]);
	cr_expect(strstr(l[1], "25.0   2.00M*    3.00M     3000 1.50*   1.00"),
		  "row '%s'", l[1]);
	cr_expect(strstr(l[2], "0.1        0      500        0   n/a   0.00"),
		  "row '%s'", l[2]);
	free(txt);
}

Test(output_counters, csv_keys_and_values)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv"));
	default_counts(&fx);
	fx.rows[0].v.counter_scaled = 4;
	txt = init_render(&fx, l, 3);
	cr_expect(strstr(l[0], ",cpu_pct,cycles,instructions,cache_misses,ipc,"
			       "mpki,scaled,"),
		  "header '%s'", l[0]);
	cr_expect(
		strstr(l[1], ",25.0000,2000000,3000000,3000,1.5000,1.0000,1,"),
		"row '%s'", l[1]);
	/* ratios with a zero denominator are n/a: empty */
	cr_expect(strstr(l[2], ",0.1000,0,0,0,,,0,"), "row '%s'", l[2]);
	free(txt);
}

Test(output_counters, ratios_only_when_inputs_exist)
{
	const struct {
		const char *const *names;
		bool ipc, mpki;
	} cases[] = {
		{ ARGS("cycles"), false, false },
		{ ARGS("instructions"), false, false },
		{ ARGS("cycles", "instructions"), true, false },
		{ ARGS("instructions", "cycles"), true, false },
		{ ARGS("cache-misses", "instructions"), false, true },
		{ ARGS("cache-misses", "cycles"), false, false },
		{ ARGS("cpu-clock", "page-faults"), false, false },
		{ ARGS("cache-misses", "cycles", "instructions"), true, true },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct fixture fx;

		fixture(&fx, NOARGS);
		set_counters(&fx.out, cases[c].names);
		ss_out_init(&fx.out);
		cr_expect_eq(col_index(&fx.out, "ipc") >= 0, cases[c].ipc,
			     "case %zu: ipc", c);
		cr_expect_eq(col_index(&fx.out, "mpki") >= 0, cases[c].mpki,
			     "case %zu: mpki", c);
		cr_expect_geq(col_index(&fx.out, "scaled"), 0);
	}
	{
		struct fixture fx;

		fixture(&fx, NOARGS);
		ss_out_init(&fx.out);
		cr_expect_lt(col_index(&fx.out, "scaled"), 0,
			     "no counters, no scaled column");
		cr_expect_lt(col_index(&fx.out, "ipc"), 0);
	}
}

/* The ratio uses the right counters whatever their order. */
Test(output_counters, ratio_inputs_by_name_not_position)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv"));
	set_counters(&fx.out, ARGS("instructions", "cache-misses", "cycles"));
	fx.rows[0].v.counters[0] = 4000; /* instructions */
	fx.rows[0].v.counters[1] = 2; /* cache-misses */
	fx.rows[0].v.counters[2] = 1000; /* cycles */
	txt = init_render(&fx, l, 3);
	cr_expect(strstr(l[0], ",instructions,cache_misses,cycles,ipc,mpki,"),
		  "header '%s'", l[0]);
	cr_expect(strstr(l[1], ",4000,2,1000,4.0000,0.5000,0,"), "row '%s'",
		  l[1]);
	free(txt);
}

Test(output_counters, unknown_event_names)
{
	struct fixture fx;
	char *txt, *l[16];
	int i;

	fixture(&fx, NOARGS);
	set_counters(&fx.out, ARGS("r01c2", "context-switches"));
	ss_out_init(&fx.out);
	i = col_index(&fx.out, "r01c2");
	cr_assert_geq(i, 0);
	cr_expect_str_eq(fx.out.cols[i].fd.head, "R01C2");
	i = col_index(&fx.out, "context_switches");
	cr_assert_geq(i, 0);
	cr_expect_str_eq(fx.out.cols[i].fd.head, "CS");
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 4);
	cr_expect(strstr(l[0], "    R01C2       CS"), "header '%s'", l[0]);
	free(txt);
}

Test(output_counters, table_na_without_pmu)
{
	struct fixture fx;
	char *txt, *l[16], want[160];

	fixture(&fx, NOARGS);
	set_counters(&fx.out, ARGS("cycles", "instructions", "cache-misses"));
	fx.out.counters_na = true;
	fx.rows[0].v.counters[0] = 77; /* ignored: not measured */
	txt = init_render(&fx, l, 4);
	/* no PMU: no counter column at all, IPC and MPKI neither */
	cr_expect_str_eq(l[0], core_head);
	snprintf(want, sizeof(want), "%-7s %-16s %7s %7s %7s %10s %6s", "1234",
		 "worker", "12", "10", "2", "250.00", "25.0");
	cr_expect_str_eq(l[1], want);
	free(txt);
}

/*
 * One default event missing (cache-misses on QEMU's arm64 PMUv3): its
 * column and MPKI leave the table, CYCLES, INSTR and IPC stay
 */
Test(output_counters, table_one_missing_event_only_its_columns)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, NOARGS);
	set_counters(&fx.out, ARGS("cycles", "instructions", "cache-misses"));
	fx.out.counter_na = 1ULL << 2;
	fx.rows[0].v.counters[0] = 2000000;
	fx.rows[0].v.counters[1] = 3000000;
	txt = init_render(&fx, l, 4);
	cr_expect(ends(l[0], "%CPU   CYCLES    INSTR   IPC"), "header '%s'",
		  l[0]);
	cr_expect(ends(l[1], "25.0    2.00M    3.00M  1.50"), "row '%s'", l[1]);
	/* instructions missing: both ratios go */
	fixture(&fx, NOARGS);
	set_counters(&fx.out, ARGS("cycles", "instructions", "cache-misses"));
	fx.out.counter_na = 1ULL << 1;
	ss_out_init(&fx.out);
	free(txt);
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 4);
	cr_expect(ends(l[0], "%CPU   CYCLES LLC-MISS"), "header '%s'", l[0]);
	free(txt);
}

/*
 * Time events (cpu-clock, task-clock): ms in the table with the unit in
 * the header, ns in CSV/JSON under <name>_ns; running_pct keeps the name
 */
Test(output_counters, time_events_in_ms_with_unit)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("-M"));
	set_counters(&fx.out, ARGS("cpu-clock", "page-faults", "task-clock"));
	fx.rows[0].v.counters[0] = 249876543;
	fx.rows[0].v.counters[1] = 12;
	fx.rows[0].v.counters[2] = 250004999;
	fx.rows[0].v.faults = 12;
	txt = init_render(&fx, l, 4);
	cr_expect(strstr(l[0], "%CPU CPU-CLK(ms) PG-FAULTS TASK-CLK(ms)   "
			       "FAULTS  PGALLOC RECLAIM(ms)"),
		  "header '%s'", l[0]);
	cr_expect(strstr(l[1], "25.0      249.88        12       250.00"),
		  "row '%s'", l[1]);
	free(txt);

	fixture(&fx, ARGS("--csv"));
	set_counters(&fx.out, ARGS("cpu-clock", "page-faults", "task-clock"));
	fx.rows[0].v.counters[0] = 249876543;
	fx.rows[0].v.counters[2] = 250004999;
	txt = init_render(&fx, l, 3);
	cr_expect(strstr(l[0], ",cpu_clock_ns,page_faults,task_clock_ns,"
			       "scaled,"),
		  "header '%s'", l[0]);
	cr_expect(strstr(l[0], ",cpu_clock_running_pct,page_faults_running_pct,"
			       "task_clock_running_pct,"),
		  "header '%s'", l[0]);
	expect_field(l[0], l[1], "cpu_clock_ns", "249876543");
	expect_field(l[0], l[1], "task_clock_ns", "250004999");
	free(txt);
}

/* every table header distinct: -M's FAULTS beside -e page-faults */
Test(output_counters, headers_unique_with_memory)
{
	struct fixture fx;

	fixture(&fx, ARGS("-M", "-v"));
	set_counters(&fx.out, ARGS("cpu-clock", "page-faults", "minor-faults",
				   "major-faults", "task-clock"));
	ss_out_init(&fx.out);
	for (int i = 0; i < fx.out.ncols; i++)
		for (int j = i + 1; j < fx.out.ncols; j++)
			if (fx.out.cols[i].fd.head && fx.out.cols[j].fd.head)
				cr_expect_str_neq(fx.out.cols[i].fd.head,
						  fx.out.cols[j].fd.head);
}

/* ---- fitting the table into the terminal (max_width) ------------------ */

/*
 * With a PMU the default table is 106 wide: in 80 the raw counts behind
 * IPC and MPKI go, rightmost first, and the note names them
 */
Test(output_fit, default_pmu_table_in_80)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, NOARGS);
	default_counts(&fx);
	fx.out.max_width = 80;
	txt = init_render(&fx, l, 4);
	cr_expect_str_eq(l[0],
			 "PID     COMM              SWITCH     VOL   INVOL"
			 "  ONCPU(ms)   %CPU   IPC   MPKI");
	cr_expect(ends(l[1], "25.0  1.50   1.00"), "row '%s'", l[1]);
	cr_expect_leq(strlen(l[0]), 80);
	cr_expect_str_eq(fx.out.fit_dropped, "CYCLES, INSTR, LLC-MISS");
	free(txt);

	/* no limit: everything, no note */
	fixture(&fx, NOARGS);
	set_counters(&fx.out, ARGS("cycles", "instructions", "cache-misses"));
	ss_out_init(&fx.out);
	cr_expect_str_eq(fx.out.fit_dropped, "");
	cr_expect_geq(col_index(&fx.out, "cycles"), 0);
	cr_expect_not_null(fx.out.cols[col_index(&fx.out, "cycles")].fd.head);
}

/*
 * Narrower: COMM is cut to 12 (its head kept, '+' where cut, as top
 * marks it) before SWITCH and %CPU go; the key columns always stay
 */
Test(output_fit, narrow_abbreviates_then_drops)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--rate"));
	strcpy(fx.rows[0].v.comm, "qemu-system-x86");
	fx.out.max_width = 56;
	txt = init_render(&fx, l, 4);
	cr_expect_leq(strlen(l[0]), 56, "'%s'", l[0]);
	cr_expect_str_eq(fx.out.fit_dropped, "SWITCH, SW/s, INVOL/s, %CPU");
	cr_expect(starts(l[0], "PID     COMM             VOL   INVOL"),
		  "header '%s'", l[0]);
	cr_expect(starts(l[1], "1234    qemu-system+      10       2"),
		  "row '%s'", l[1]);
	cr_expect(strstr(l[0], "ONCPU(ms)"), "header '%s'", l[0]);
	cr_expect(!strstr(l[0], "SWITCH") && !strstr(l[0], "SW/s"),
		  "header '%s'", l[0]);
	free(txt);

	/* 4 more: COMM gets its 16 back */
	fixture(&fx, ARGS("--rate"));
	fx.out.max_width = 60;
	txt = init_render(&fx, l, 4);
	cr_expect_str_eq(l[0], "PID     COMM                 VOL   INVOL    "
			       "VOL/s  ONCPU(ms)");
	free(txt);

	/* too narrow for the key columns: they stay, the line is wider */
	fixture(&fx, NOARGS);
	fx.out.max_width = 20;
	txt = init_render(&fx, l, 4);
	cr_expect_str_eq(l[0], "PID     COMM             VOL   INVOL  "
			       "ONCPU(ms)");
	cr_expect_str_eq(fx.out.fit_dropped, "SWITCH, %CPU");
	free(txt);
}

/* CSV and JSON are never fitted */
Test(output_fit, csv_keeps_every_column)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("--csv"));
	fx.out.max_width = 20;
	txt = init_render(&fx, l, 3);
	cr_expect(starts(l[0], csv_core), "header '%s'", l[0]);
	cr_expect_str_eq(fx.out.fit_dropped, "");
	free(txt);
}

Test(output_memory, columns_and_na)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("-M"));
	fx.rows[0].v.faults = 1234567;
	fx.rows[0].v.pgalloc = 42;
	fx.rows[0].v.reclaim_count = 2;
	fx.rows[0].v.reclaim_ns = 3500000;
	fx.out.mem_na[1] = true;
	txt = init_render(&fx, l, 4);
	cr_expect(strstr(l[0], "%CPU   FAULTS  PGALLOC RECLAIM(ms)"),
		  "header '%s'", l[0]);
	cr_expect(strstr(l[1], "25.0    1.23M      n/a        3.50"),
		  "row '%s'", l[1]);
	free(txt);
}

/* ---- multiplexed counters: measured, scaled, never ran (H27) ---------- */

/*
 * Row 0 (worker): cycles never on the PMU in its slices (enabled 4 ms,
 * running 0), instructions fully counted, cache-misses on the PMU a quarter
 * of the time (its count is the scaled estimate). Row 1 (sh): no slice was
 * read at all (enabled 0). All three are read with their times.
 */
static void multiplexed(struct fixture *fx, const char *const *args)
{
	fixture(fx, args);
	set_counters(&fx->out, ARGS("cycles", "instructions", "cache-misses"));
	fx->out.ctr_timed = 7;
	fx->rows[0].v.counters[0] = 0;
	fx->rows[0].v.ctr_enabled_ns[0] = 4000000;
	fx->rows[0].v.ctr_running_ns[0] = 0;
	fx->rows[0].v.counters[1] = 3000000;
	fx->rows[0].v.ctr_enabled_ns[1] = 4000000;
	fx->rows[0].v.ctr_running_ns[1] = 4000000;
	fx->rows[0].v.counters[2] = 6000;
	fx->rows[0].v.ctr_enabled_ns[2] = 4000000;
	fx->rows[0].v.ctr_running_ns[2] = 1000000;
	fx->rows[0].v.counter_scaled = 4;
	ss_out_init(&fx->out);
}

Test(output_counters, never_ran_is_empty_csv)
{
	struct fixture fx;
	char *txt, *l[16];

	multiplexed(&fx, ARGS("--csv"));
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 3);
	expect_field(l[0], l[1], "cycles", "");
	expect_field(l[0], l[1], "instructions", "3000000");
	expect_field(l[0], l[1], "cache_misses", "6000");
	/* IPC needs cycles: not measured; MPKI has both parts */
	expect_field(l[0], l[1], "ipc", "");
	expect_field(l[0], l[1], "mpki", "2.0000");
	expect_field(l[0], l[1], "scaled", "1");
	expect_field(l[0], l[1], "cycles_running_pct", "0.0000");
	expect_field(l[0], l[1], "instructions_running_pct", "100.0000");
	expect_field(l[0], l[1], "cache_misses_running_pct", "25.0000");
	/* sh: nothing was read, so nothing is 0 */
	expect_field(l[0], l[2], "cycles", "");
	expect_field(l[0], l[2], "instructions", "");
	expect_field(l[0], l[2], "cache_misses", "");
	expect_field(l[0], l[2], "ipc", "");
	expect_field(l[0], l[2], "mpki", "");
	expect_field(l[0], l[2], "cycles_running_pct", "");
	expect_field(l[0], l[2], "scaled", ""); /* nothing to be exact about */
	free(txt);
}

Test(output_counters, never_ran_is_na_in_the_table)
{
	struct fixture fx;
	char *txt, *l[16];

	multiplexed(&fx, NOARGS);
	txt = render(&fx);
	cr_assert_eq(lines(txt, l, 16), 4);
	cr_expect(strstr(l[0], "%CPU   CYCLES    INSTR LLC-MISS   IPC   MPKI"),
		  "header '%s'", l[0]);
	/* cycles n/a (not 0*), IPC n/a, the scaled estimate marked */
	cr_expect(strstr(l[1], "25.0      n/a    3.00M    6000*   n/a  2.00*"),
		  "row '%s'", l[1]);
	cr_expect(strstr(l[2], "0.1      n/a      n/a      n/a   n/a    n/a"),
		  "row '%s'", l[2]);
	free(txt);
}

Test(output_counters, never_ran_is_null_json)
{
	struct fixture fx;
	char *txt;

	multiplexed(&fx, ARGS("--json"));
	txt = render(&fx);
	cr_expect(strstr(txt, "\"cycles\":null,\"instructions\":3000000,"
			      "\"cache_misses\":6000,\"ipc\":null,"
			      "\"mpki\":2.0000,\"scaled\":1,"
			      "\"cycles_running_pct\":0.0000,"
			      "\"instructions_running_pct\":100.0000,"
			      "\"cache_misses_running_pct\":25.0000,"),
		  "%s", txt);
	cr_expect(strstr(txt, "\"cycles\":null,\"instructions\":null,"
			      "\"cache_misses\":null,\"ipc\":null,"
			      "\"mpki\":null,"),
		  "%s", txt);
	free(txt);
}

/* a column abbreviated and then dropped is gone, not shown short */
Test(output_fit, abbreviated_then_dropped_is_gone)
{
	struct fixture fx;
	char *txt, *l[16];

	fixture(&fx, ARGS("-M"));
	set_counters(&fx.out, ARGS("cpu-clock", "page-faults"));
	fx.out.max_width = 60;
	txt = init_render(&fx, l, 4);
	cr_expect_str_eq(l[0], "PID     COMM             VOL   INVOL  "
			       "ONCPU(ms) CPU-CLK(ms)");
	cr_expect_str_eq(fx.out.fit_dropped, "SWITCH, %CPU, PG-FAULTS, FAULTS, "
					     "PGALLOC, RECLAIM(ms)");
	free(txt);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - command line parsing.  Flag names follow bcc's tools where bcc has
 * them (-i interval, -d duration, -p PID, -t TID, -L threads, -T timestamp,
 * -m milliseconds, -P per process, -v verbose), and so does the positional
 * form [interval [count]] in seconds (runqlat, cpudist).
 *
 * Every option is one row of opt_table: getopt_long's short and long option
 * lists, the usage text and the parsing of its value are all generated from
 * that row, so they cannot disagree.  getopt_long rather than argp: argp
 * prints its own messages and hints, while every bad input here must give
 * exactly one "switchstat: ..." line plus the -h hint, and exit 2.
 */
#include "opts.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "histkind.h"
#include "parse.h"

/* How an option's value is stored. */
enum opt_kind {
	OPT_FLAG, /* no value: sets a bool */
	OPT_COUNT, /* no value: increments an int (-v -v) */
	OPT_NUM, /* decimal in [min, max] into a uint32_t or uint64_t */
	OPT_TEXT, /* non-empty text, kept as given */
	OPT_WORD, /* text checked by a parse function */
	OPT_HELP, /* print the usage, exit 0 */
	OPT_VERSION, /* print the version, exit 0 */
};

struct opt_def {
	char key; /* short option letter, or 0 for a long-only option */
	const char *name; /* long option name */
	const char *arg; /* value name in the usage; NULL: takes no value */
	const char *help; /* usage text; '\n' starts a continuation line */
	enum opt_kind kind;
	size_t off; /* field of struct ss_opts */
	size_t size; /* sizeof that field (OPT_NUM) */
	uint64_t min, max; /* OPT_NUM: accepted range */
	const char *what; /* a bad value is "invalid <what> '<value>'" */
	const char *want; /* ... ": want <want>" */
	int (*word)(const char *arg, struct ss_opts *o); /* OPT_WORD */
	bool synopsis_or_next; /* USAGE line shows "[this | next]" */
	bool hidden_from_synopsis; /* in OPTIONS only, not on the USAGE line */
};

#define FIELD(f)                            \
	.off = offsetof(struct ss_opts, f), \
	.size = sizeof(((struct ss_opts *)0)->f)
#define FLAG(k, n, f, h)                                                   \
	{                                                                  \
		.key = k, .name = n, .help = h, .kind = OPT_FLAG, FIELD(f) \
	}
#define NUM(k, n, a, f, lo, hi, w, ok, h)                                  \
	{                                                                  \
		.key = k, .name = n, .arg = a, .help = h, .kind = OPT_NUM, \
		FIELD(f), .min = lo, .max = hi, .what = w, .want = ok      \
	}
#define WORD(k, n, a, f, fn, w, ok, h)                                      \
	{                                                                   \
		.key = k, .name = n, .arg = a, .help = h, .kind = OPT_WORD, \
		FIELD(f), .word = fn, .what = w, .want = ok                 \
	}

static int parse_sort(const char *arg, struct ss_opts *o);
static int parse_hist(const char *arg, struct ss_opts *o);
static int parse_events(const char *arg, struct ss_opts *o);
static int parse_listen(const char *arg, struct ss_opts *o);
static int parse_pids(const char *arg, struct ss_opts *o);
static int parse_tids(const char *arg, struct ss_opts *o);

/* In usage order. */
static const struct opt_def opt_table[] = {
	{ .key = 'h', .name = "help", .help = "this help", .kind = OPT_HELP },
	NUM('i', "interval", "MS", interval_ms, 1, 86400000, "interval",
	    "1..86400000 ms", "print every MS milliseconds (default 1000)"),
	NUM('d', "duration", "SECONDS", duration_s, 1, 31536000, "duration",
	    "1..31536000 s", "stop after SECONDS (default: until Ctrl-C)"),
	{ .key = 'p',
	  .name = "pid",
	  .arg = "PID",
	  .kind = OPT_WORD,
	  FIELD(pid),
	  .word = parse_pids,
	  .what = "pid",
	  .want = "a PID or a comma list of at most 32",
	  .synopsis_or_next = true,
	  .help = "only these processes (tgid, comma list), all\n"
		  "their threads" },
	WORD('t', "tid", "TID", tid, parse_tids, "tid",
	     "a TID or a comma list of at most 32",
	     "only these threads (comma list)"),
	FLAG('L', "threads", per_thread,
	     "one row per thread (adds a TID column)"),
	FLAG('T', "timestamp", timestamp,
	     "print a timestamp before each interval"),
	NUM('n', "rows", "N", top, 0, 1000000, "row count", "0..1000000",
	    "rows per interval, 0 = all (default 20; csv/json: 0)"),
	FLAG(0, "top", top_view,
	     "live full-screen view (keys: h); --csv/--json\n"
	     "still write records to stdout (redirect it)"),
	WORD('s', "sort", "KEY", sort, parse_sort, "sort key",
	     "oncpu, switch, vol, invol or pid",
	     "oncpu (default), switch, vol, invol, pid"),
	WORD('e', "events", "LIST", events, parse_events, "event list", NULL,
	     "perf events, comma separated (default:\n"
	     "cycles,instructions,cache-misses if available)"),
	{ .name = "list-events",
	  .help = "list the event names -e takes here, and exit",
	  .kind = OPT_FLAG,
	  FIELD(list_events),
	  .hidden_from_synopsis = true },
	{ .name = "no-counters",
	  .help = "do not open perf events",
	  .kind = OPT_FLAG,
	  FIELD(no_counters),
	  .hidden_from_synopsis = true },
	WORD(0, "hist", "KINDS", hist, parse_hist, "histogram kind",
	     "oncpu, offcpu, runq, offcpu-S, offcpu-D, offcpu-IO, "
	     "offcpu-T or offcpu-R (comma list)",
	     "log2 histograms: oncpu,offcpu,runq (comma list);\n"
	     "with --offcpu also by state: offcpu-S,\n"
	     "offcpu-D, offcpu-IO, offcpu-T, offcpu-R"),
	FLAG('H', "hist-only", hist_only,
	     "histograms without the per-process table"),
	FLAG('m', "milliseconds", milliseconds,
	     "histograms in milliseconds (default usecs)"),
	FLAG('P', "pids", hist_per_process, "one histogram per process"),
	FLAG('G', "cgroups", per_cgroup,
	     "one row (and histogram) per cgroup (v2)"),
	{ .key = 'c',
	  .name = "cgroup",
	  .arg = "PATH",
	  .kind = OPT_TEXT,
	  FIELD(cgroup),
	  .what = "cgroup path",
	  .help = "only this cgroup (v2 path) and its descendants" },
	FLAG('M', "memory", memory,
	     "page faults, page allocations, direct reclaim"),
	FLAG(0, "trace", trace, "print one line per context switch"),
	FLAG(0, "blame", blame,
	     "run-queue delay of each task split by the tasks\n"
	     "that ran on its CPU meanwhile (who delayed whom)"),
	FLAG(0, "offcpu", offcpu,
	     "off-CPU time split by the state the task left\n"
	     "the CPU in: S, D, D killable, I/O, I, T, t, R"),
	FLAG(0, "wakers", wakers,
	     "after each interval, each task's wakers (tasks;\n"
	     "timer, irq, softirq) with the off-CPU time they ended"),
	FLAG(0, "stacks", stacks,
	     "off-CPU time by the kernel and user stacks where\n"
	     "the tasks blocked (bcc offcputime; implies the\n"
	     "--offcpu probe)"),
	FLAG('f', "folded", folded,
	     "--stacks as folded lines for flame graphs:\n"
	     "comm;user frames;kernel frames usecs"),
	FLAG('K', "kernel-stacks-only", kernel_stacks_only,
	     "--stacks: kernel stacks only"),
	FLAG('U', "user-stacks-only", user_stacks_only,
	     "--stacks: user stacks only"),
	{ .name = "csv",
	  .kind = OPT_FLAG,
	  FIELD(csv),
	  .synopsis_or_next = true,
	  .help = "comma-separated output, one header row" },
	FLAG(0, "json", json, "one JSON object per line (NDJSON)"),
	FLAG(0, "idle", idle, "show each CPU's idle task as a row"),
	FLAG(0, "rate", rate,
	     "switches per second too: SW/s, VOL/s, INVOL/s\n"
	     "(pidstat's cswch/s, nvcswch/s)"),
	FLAG(0, "check", check, "print the per-interval accounting closure"),
	FLAG(0, "self-stats", self_stats,
	     "print the probes' own cost (ns per run) at exit"),
	{ .name = "map-entries",
	  .arg = "N",
	  .kind = OPT_NUM,
	  FIELD(map_entries),
	  .min = 1024,
	  .max = 4194304,
	  .what = "map size",
	  .want = "1024..4194304",
	  .hidden_from_synopsis = true,
	  .help = "accumulator map size (default from pid_max)" },
	WORD(0, "listen", "[ADDR:]PORT", listen, parse_listen, "listen address",
	     "[ADDR:]PORT, ADDR an IPv4 or [IPv6] address",
	     "serve Prometheus metrics at http://ADDR:PORT/metrics\n"
	     "(ADDR default 127.0.0.1; [::1]:PORT for IPv6)"),
	FLAG('q', "quiet", quiet, "no interval output on stdout (--listen)"),
	{ .name = "metrics-per-process",
	  .kind = OPT_FLAG,
	  FIELD(metrics_per_process),
	  .hidden_from_synopsis = true,
	  .help = "label metrics with pid and comm too (default:\n"
		  "cgroup and container_id only)" },
	{ .name = "max-series",
	  .arg = "N",
	  .kind = OPT_NUM,
	  FIELD(max_series),
	  .min = 1,
	  .max = 1000000,
	  .what = "series cap",
	  .want = "1..1000000",
	  .hidden_from_synopsis = true,
	  .help = "at most N label sets, the rest summed as `other`\n"
		  "(default 2000)" },
	{ .name = "series-ttl",
	  .arg = "SECONDS",
	  .kind = OPT_NUM,
	  FIELD(series_ttl_s),
	  .min = 1,
	  .max = 31536000,
	  .what = "series TTL",
	  .want = "1..31536000 s",
	  .hidden_from_synopsis = true,
	  .help = "keep series of exited processes and removed\n"
		  "cgroups this long (default 300)" },
	{ .key = 'v',
	  .name = "verbose",
	  .kind = OPT_COUNT,
	  FIELD(verbose),
	  .help = "more diagnostics on stderr (repeatable)" },
	{ .name = "version",
	  .help = "print the version",
	  .kind = OPT_VERSION,
	  .hidden_from_synopsis = true },
};

#define N_OPTS (sizeof(opt_table) / sizeof(opt_table[0]))

/* -i below this gets a note that it is milliseconds, not seconds */
#define SS_INTERVAL_NOTE_MS 100
#define LONG_ONLY_BASE 256 /* getopt value of row i without a letter */

/*
 * The positional form, bcc style: [interval [count]], both in seconds
 * (count: number of intervals).  Mixing it with -i or -d is an error.
 */
#define POS_INTERVAL_MAX 86400 /* s; -i's bound in seconds */
#define POS_TOTAL_MAX 31536000 /* s; -d's bound: interval * count */

static const char pos_help[] =
	"  interval                print every interval seconds (not with -i, "
	"-d)\n"
	"  count                   stop after count intervals\n";

static const char examples[] =
	"EXAMPLES:\n"
	"    switchstat                # top processes every second, Ctrl-C to "
	"end\n"
	"    switchstat 1 5            # five 1-second intervals\n"
	"    switchstat -i 500 -d 2    # four 500 ms intervals\n"
	"    switchstat -p 185         # only process 185 (all its threads)\n"
	"    switchstat -p 185 -L      # process 185, one row per thread\n"
	"    switchstat -e cpu-clock,page-faults   # software counters per "
	"process\n"
	"    switchstat --hist runq -P # run-queue latency per process\n"
	"    switchstat --offcpu -L -p 185 # why its threads wait: off-CPU "
	"time by state\n"
	"    switchstat --stacks -f -p 185 -d 10 > out.folded # flame graph "
	"input\n"
	"    switchstat -G -M          # per cgroup, with memory events\n"
	"    switchstat --csv -d 10 > out.csv      # for scripts\n"
	"    switchstat --top -L       # live view; keys: h\n";

#define USAGE_WIDTH 78 /* wrap the USAGE line here */
#define HELP_COLUMN 26 /* option help text starts in this column */

/* "-i MS" or "--hist KINDS" as on the USAGE line */
static int synopsis_item(const struct opt_def *d, char *buf, size_t len)
{
	if (d->key)
		return snprintf(buf, len, "-%c%s%s", d->key, d->arg ? " " : "",
				d->arg ? d->arg : "");
	return snprintf(buf, len, "--%s%s%s", d->name, d->arg ? " " : "",
			d->arg ? d->arg : "");
}

/* ss_print_usage - see opts.h */
void ss_print_usage(FILE *f)
{
	static const char lead[] = "USAGE: switchstat";
	int col = fprintf(f, "%s", lead);

	for (size_t i = 0; i <= N_OPTS; i++) {
		char item[80], a[40];
		int len;

		if (i == N_OPTS) {
			snprintf(item, sizeof(item), "[interval [count]]");
		} else if (opt_table[i].hidden_from_synopsis) {
			continue;
		} else if (opt_table[i].synopsis_or_next && i + 1 < N_OPTS) {
			synopsis_item(&opt_table[i], a, sizeof(a));
			snprintf(item, sizeof(item), "[%s | ", a);
			synopsis_item(&opt_table[++i], item + strlen(item),
				      sizeof(item) - strlen(item));
			strcat(item, "]");
		} else {
			synopsis_item(&opt_table[i], a, sizeof(a));
			snprintf(item, sizeof(item), "[%s]", a);
		}
		len = (int)strlen(item);
		if (col + 1 + len > USAGE_WIDTH)
			col = fprintf(f, "\n%*s", (int)sizeof(lead) - 1, "") -
			      1;
		col += fprintf(f, " %s", item);
	}
	fputs("\n\n"
	      "Summarize context switches (voluntary/involuntary), on-CPU "
	      "time, perf\n"
	      "counters and memory events per process, thread or cgroup.\n"
	      "\n"
	      "OPTIONS:\n",
	      f);
	for (size_t i = 0; i < N_OPTS; i++) {
		const struct opt_def *d = &opt_table[i];
		const char *h = d->help;
		int col;

		if (d->key)
			col = fprintf(f, "  -%c, --%s", d->key, d->name);
		else
			col = fprintf(f, "      --%s", d->name);
		if (d->arg)
			col += fprintf(f, " %s", d->arg);
		if (col > HELP_COLUMN - 2)
			col = fprintf(f, "\n") - 1;
		fprintf(f, "%*s", HELP_COLUMN - col, "");
		for (;;) {
			size_t n = strcspn(h, "\n");

			fprintf(f, "%.*s\n", (int)n, h);
			if (!h[n])
				break;
			h += n + 1;
			fprintf(f, "%*s", HELP_COLUMN, "");
		}
	}
	fputs("\nARGUMENTS:\n", f);
	fputs(pos_help, f);
	fputs("\n", f);
	fputs(examples, f);
}

/*
 * User text as shown in a message: control bytes (a newline would break the
 * one-line rule) become '?', and more than 40 bytes end in "...".
 */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 4 < len; i++)
		buf[i] = iscntrl((unsigned char)s[i]) ? '?' : s[i];
	if (s[i])
		strcpy(buf + i, "...");
	else
		buf[i] = '\0';
	return buf;
}

/*
 * One message line "switchstat: " @fmt with @what and @arg (both shown
 * sanitized) for its two %s, then the usage hint.  Returns SS_PARSE_ERROR.
 */
static int bad(FILE *err, const char *fmt, const char *what, const char *arg)
{
	char w[48], a[48];

	fputs("switchstat: ", err);
	fprintf(err, fmt, shown(what, w, sizeof(w)),
		shown(arg ? arg : "", a, sizeof(a)));
	fputs("\nTry 'switchstat -h' for more information.\n", err);
	return SS_PARSE_ERROR;
}

/* "switchstat: invalid <what> '<arg>': want <want>" */
static int bad_value(FILE *err, const char *what, const char *arg,
		     const char *want)
{
	char fmt[128];

	snprintf(fmt, sizeof(fmt), "invalid %%s '%%s': want %s", want);
	return bad(err, fmt, what, arg);
}

/*
 * The option as the user wrote it, for error messages, without "=value".
 * getopt_long reports a long option's error after stepping past its argv
 * element, with optopt = its val (a letter for --threads, 0 if unknown), so
 * "--threads=1" must not be named "-L".  An unknown letter inside a cluster
 * ("-Zv") leaves optind on the element before: opt is not in @shortopts
 * then.
 */
static const char *opt_name(int argc, char **argv, int opt,
			    const char *shortopts, char *buf, size_t len)
{
	const char *cur =
		optind > 0 && optind <= argc ? argv[optind - 1] : NULL;

	if (cur && !strncmp(cur, "--", 2) &&
	    (opt == 0 || opt >= LONG_ONLY_BASE ||
	     (opt != ':' && strchr(shortopts, opt)))) {
		snprintf(buf, len, "%.*s", (int)strcspn(cur, "="), cur);
		return buf;
	}
	if (opt > 0 && opt < LONG_ONLY_BASE) {
		snprintf(buf, len, "-%c", opt);
		return buf;
	}
	return cur ? cur : "?";
}

static int parse_hist(const char *arg, struct ss_opts *o)
{
	const char *p = arg;
	unsigned int mask = 0;

	for (;;) {
		size_t n = strcspn(p, ",");
		const struct ss_hist_kind_def *k = ss_hist_kind_by_name(p, n);

		if (!k) /* also "", "a,,b", ",a" and "a," */
			return -1;
		mask |= k->bit;
		if (!p[n])
			break;
		p += n + 1;
	}
	o->hist = mask;
	return 0;
}

/*
 * A comma list of ids (1..4194304, pid_max's ceiling) into @ids, as
 * pidstat and libbpf-tools' offcputime take -p: no empty element, no
 * duplicate, at most SS_MAX_TARGETS.  Returns the count or -1.
 */
static int parse_id_list(const char *arg, uint32_t *ids)
{
	const char *p = arg;
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, ",");
		char num[16];
		uint64_t v;

		if (!len || len >= sizeof(num) || n == SS_MAX_TARGETS)
			return -1;
		memcpy(num, p, len);
		num[len] = '\0';
		if (ss_parse_u64(num, 1, 4194304, &v))
			return -1;
		for (int i = 0; i < n; i++)
			if (ids[i] == v)
				return -1;
		ids[n++] = (uint32_t)v;
		if (!p[len])
			return n;
		p += len + 1;
	}
}

/* -p or -t: the list into @ids / *@n, its first id into *@first */
static int parse_ids(const char *arg, uint32_t *ids, uint32_t *n,
		     uint32_t *first)
{
	int got = parse_id_list(arg, ids);

	if (got < 0)
		return -1;
	*n = (uint32_t)got;
	*first = ids[0];
	return 0;
}

static int parse_pids(const char *arg, struct ss_opts *o)
{
	return parse_ids(arg, o->pids, &o->npids, &o->pid);
}

static int parse_tids(const char *arg, struct ss_opts *o)
{
	return parse_ids(arg, o->tids, &o->ntids, &o->tid);
}

/* --listen: checked here (exit 2), bound after the probes are attached */
static int parse_listen(const char *arg, struct ss_opts *o)
{
	struct sockaddr_storage ss;
	unsigned int len;

	if (ss_parse_listen(arg, &ss, &len))
		return -1;
	o->listen = arg;
	return 0;
}

static int parse_sort(const char *arg, struct ss_opts *o)
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
		if (!strcmp(arg, keys[i].name)) {
			o->sort = keys[i].key;
			return 0;
		}
	}
	return -1;
}

/* the list is kept as given: ss_events_parse judges it later */
static int parse_events(const char *arg, struct ss_opts *o)
{
	if (!*arg)
		return -1;
	o->events = arg;
	o->events_given = true;
	return 0;
}

/* Store @arg for option @d into *@o; SS_PARSE_* */
static int apply(const struct opt_def *d, const char *arg, struct ss_opts *o,
		 FILE *out, FILE *err)
{
	char *field = (char *)o + d->off;
	uint64_t v;

	switch (d->kind) {
	case OPT_FLAG:
		*(bool *)field = true;
		break;
	case OPT_COUNT:
		(*(int *)field)++;
		break;
	case OPT_NUM:
		if (ss_parse_u64(arg, d->min, d->max, &v))
			return bad_value(err, d->what, arg, d->want);
		if (d->size == sizeof(uint32_t))
			*(uint32_t *)field = (uint32_t)v;
		else
			*(uint64_t *)field = v;
		break;
	case OPT_TEXT:
		if (!*arg)
			return bad(err, "empty %s%s", d->what, NULL);
		*(const char **)field = arg;
		break;
	case OPT_WORD:
		if (d->word(arg, o)) {
			if (!d->want)
				return bad(err, "empty %s%s", d->what, NULL);
			return bad_value(err, d->what, arg, d->want);
		}
		break;
	case OPT_HELP:
		ss_print_usage(out);
		return SS_PARSE_EXIT_OK;
	case OPT_VERSION:
		fprintf(out, "switchstat %s\n", SS_VERSION);
		return SS_PARSE_EXIT_OK;
	}
	return SS_PARSE_OK;
}

/*
 * [interval [count]] in seconds: interval_ms = interval * 1000 and, with a
 * count, duration_s = interval * count (the main loop then prints count
 * tables).  @given_i_d: -i or -d was used.
 */
static int parse_positional(int n, char **pos, bool given_i_d,
			    struct ss_opts *o, FILE *err)
{
	char want[48];
	uint64_t interval, count;

	if (n > 2)
		return bad(err, "unexpected %s '%s'", "argument", pos[2]);
	snprintf(want, sizeof(want), "1..%d s", POS_INTERVAL_MAX);
	if (ss_parse_u64(pos[0], 1, POS_INTERVAL_MAX, &interval))
		return bad_value(err, "interval", pos[0], want);
	snprintf(want, sizeof(want), "1..%d", POS_TOTAL_MAX);
	if (n == 2 && ss_parse_u64(pos[1], 1, POS_TOTAL_MAX, &count))
		return bad_value(err, "count", pos[1], want);
	if (given_i_d)
		return bad(err, "%s and -i/-d are exclusive%s",
			   "positional interval/count", NULL);
	o->interval_ms = interval * 1000;
	if (n == 2) {
		if (interval * count > POS_TOTAL_MAX) {
			snprintf(want, sizeof(want),
				 "interval * count at most %d s",
				 POS_TOTAL_MAX);
			return bad_value(err, "count", pos[1], want);
		}
		o->duration_s = interval * count;
	}
	return SS_PARSE_OK;
}

/* ss_parse_opts - see opts.h */
int ss_parse_opts(int argc, char **argv, struct ss_opts *o, FILE *out,
		  FILE *err)
{
	struct option longopts[N_OPTS + 1];
	char shortopts[2 + 2 * N_OPTS + 1], optname[48];
	bool given_i_d = false, given_i = false, given_top = false;
	size_t ns = 0;
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->interval_ms = 1000;
	o->top = 20;
	o->sort = SS_SORT_ONCPU;

	shortopts[ns++] = ':'; /* report a missing value as ':' */
	for (size_t i = 0; i < N_OPTS; i++) {
		const struct opt_def *d = &opt_table[i];

		longopts[i] = (struct option){
			d->name, d->arg ? required_argument : no_argument, NULL,
			d->key ? d->key : LONG_ONLY_BASE + (int)i
		};
		if (d->key) {
			shortopts[ns++] = d->key;
			if (d->arg)
				shortopts[ns++] = ':';
		}
	}
	longopts[N_OPTS] = (struct option){ 0 };
	shortopts[ns] = '\0';

	optind = 0; /* full reset of getopt, also of its internal state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct opt_def *d = NULL;

		if (c >= LONG_ONLY_BASE && c < LONG_ONLY_BASE + (int)N_OPTS)
			d = &opt_table[c - LONG_ONLY_BASE];
		for (size_t i = 0; !d && c != ':' && c != '?' && i < N_OPTS;
		     i++)
			if (opt_table[i].key == c)
				d = &opt_table[i];
		if (d) {
			ret = apply(d, optarg, o, out, err);
			if (ret != SS_PARSE_OK)
				return ret;
			given_i_d |= d->key == 'i' || d->key == 'd';
			given_i |= d->key == 'i';
			given_top |= d->key == 'n';
			continue;
		}
		if (c == ':')
			return bad(err, "option '%s' needs a value%s",
				   opt_name(argc, argv, optopt, shortopts,
					    optname, sizeof(optname)),
				   NULL);
		opt_name(argc, argv, optopt, shortopts, optname,
			 sizeof(optname));
		/* a known long option given "=value" it does not take */
		if (optopt && !strncmp(optname, "--", 2))
			return bad(err, "option '%s' takes no value%s", optname,
				   NULL);
		return bad(err, "unknown option '%s'%s", optname, NULL);
	}
	if (optind < argc) {
		ret = parse_positional(argc - optind, argv + optind, given_i_d,
				       o, err);
		if (ret != SS_PARSE_OK)
			return ret;
	}
	if (o->csv && o->json)
		return bad(err, "--csv and --json are exclusive%s%s", "", NULL);
	/* the usage shows [-p PID | -t TID]; -t alone already names one task */
	if (o->pid && o->tid)
		return bad(err, "-p and -t are exclusive%s%s", "", NULL);
	/* CSV and JSON are for scripts: every row unless -n says otherwise */
	if ((o->csv || o->json) && !given_top)
		o->top = 0;
	if (o->hist_only && !o->hist)
		return bad(err, "-H needs --hist%s%s", "", NULL);
	if ((o->milliseconds || o->hist_per_process) && !o->hist)
		return bad(err, "-m and -P need --hist%s%s", "", NULL);
	if (o->no_counters && o->events_given)
		return bad(err, "-e and --no-counters are exclusive%s%s", "",
			   NULL);
	if (o->per_cgroup && o->per_thread)
		return bad(err, "-G and -L are exclusive%s%s", "", NULL);
	if (!o->listen && (o->quiet || o->metrics_per_process ||
			   o->max_series || o->series_ttl_s))
		return bad(err,
			   "-q, --metrics-per-process, --max-series and "
			   "--series-ttl need --listen%s%s",
			   "", NULL);
	/* the view draws the interval table (and its panes) only; these
	 * print beside it */
	if (o->top_view && (o->trace || o->hist_only || o->check || o->quiet))
		return bad(err,
			   "--top shows the interval table only: not with "
			   "--trace, -H, --check or -q%s%s",
			   "", NULL);
	if ((o->hist & (SS_HIST_OFF_S | SS_HIST_OFF_D | SS_HIST_OFF_IO |
			SS_HIST_OFF_T | SS_HIST_OFF_R)) &&
	    !o->offcpu)
		return bad(err,
			   "--hist offcpu-S, offcpu-D, offcpu-IO, offcpu-T and "
			   "offcpu-R need --offcpu%s%s",
			   "", NULL);
	if ((o->folded || o->kernel_stacks_only || o->user_stacks_only) &&
	    !o->stacks)
		return bad(err, "-f, -K and -U need --stacks%s%s", "", NULL);
	if (o->kernel_stacks_only && o->user_stacks_only)
		return bad(err, "-K and -U are exclusive%s%s", "", NULL);
	if (o->folded &&
	    (o->hist || o->blame || o->check || o->csv || o->json ||
	     o->top_view || o->timestamp || o->self_stats))
		return bad(err,
			   "-f prints folded stacks only: not with --hist, "
			   "--blame, --check, --csv, --json, --top, "
			   "-T or --self-stats%s%s",
			   "", NULL);
	if (o->stacks && o->top_view)
		return bad(err, "--stacks is not for --top%s%s", "", NULL);
	if (o->stacks && o->trace)
		return bad(err, "--stacks is not for --trace%s%s", "", NULL);
	if ((o->offcpu || o->wakers) && o->trace)
		return bad(err, "--offcpu and --wakers are not for --trace%s%s",
			   "", NULL);
	if (o->listen && o->trace)
		return bad(err, "--listen and --trace are exclusive%s%s", "",
			   NULL);
	/* bcc's tools take seconds; -i here is ms (-i 1: 1000 tables a second) */
	if (given_i && o->interval_ms < SS_INTERVAL_NOTE_MS)
		fprintf(err,
			"switchstat: note: -i is in milliseconds: a table "
			"every "
			"%llu ms\n",
			(unsigned long long)o->interval_ms);
	return SS_PARSE_OK;
}

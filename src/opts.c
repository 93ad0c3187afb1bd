// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - command line parsing.  Flag names follow bcc's tools where bcc has
 * them (-i interval, -d duration, -p PID, -t TID, -L threads, -T timestamp,
 * -m milliseconds, -P per process, -v verbose).
 */
#include "opts.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"USAGE: switchstat [-h] [-i MS] [-d SECONDS] [-p PID | -t TID] [-L] "
	"[-T]\n"
	"                  [-n N] [-s KEY] [-e EVENTS] [--hist KINDS] [-m] "
	"[-P]\n"
	"                  [-G] [--cgroup PATH] [-M] [--trace] [--csv | "
	"--json]\n"
	"                  [--idle] [--check] [--self-stats] [-v]\n"
	"\n"
	"Summarize context switches (voluntary/involuntary), on-CPU time, "
	"perf\n"
	"counters and memory events per process, thread or cgroup.\n"
	"\n"
	"OPTIONS:\n"
	"  -i, --interval MS       print every MS milliseconds (default 1000)\n"
	"  -d, --duration SECONDS  stop after SECONDS (default: until Ctrl-C)\n"
	"  -p, --pid PID           only this process (tgid), all its threads\n"
	"  -t, --tid TID           only this thread\n"
	"  -L, --threads           one row per thread (adds a TID column)\n"
	"  -T, --timestamp         print a timestamp before each interval\n"
	"  -n, --top N             rows per interval (default 20, 0 = all)\n"
	"  -s, --sort KEY          oncpu (default), switch, vol, invol, pid\n"
	"  -e, --events LIST       perf events, comma separated (default:\n"
	"                          cycles,instructions,cache-misses if "
	"available)\n"
	"      --no-counters       do not open perf events\n"
	"      --hist KINDS        log2 histograms: oncpu,offcpu,runq (comma "
	"list)\n"
	"  -H, --hist-only         histograms without the per-process table\n"
	"  -m, --milliseconds      histograms in milliseconds (default usecs)\n"
	"  -P, --pids              one histogram per process\n"
	"  -G, --cgroups           one row per cgroup (v2) instead of per "
	"process\n"
	"      --cgroup PATH       only this cgroup (v2 path) and its "
	"descendants\n"
	"  -M, --memory            page faults, page allocations, direct "
	"reclaim\n"
	"      --trace             print one line per context switch\n"
	"      --csv               comma-separated output, one header row\n"
	"      --json              one JSON object per line (NDJSON)\n"
	"      --idle              show each CPU's idle task as a row\n"
	"      --check             print the per-interval accounting closure\n"
	"      --self-stats        print the probes' own cost (ns per run) at "
	"exit\n"
	"      --map-entries N     accumulator map size (default from "
	"pid_max)\n"
	"  -v, --verbose           more diagnostics on stderr (repeatable)\n"
	"  -h, --help              this help\n"
	"      --version           print the version\n"
	"\n"
	"EXAMPLES:\n"
	"    switchstat                # top processes every second, Ctrl-C to "
	"end\n"
	"    switchstat -i 1000 -d 5   # five 1-second intervals\n"
	"    switchstat -p 185         # only process 185 (all its threads)\n"
	"    switchstat -p 185 -L      # process 185, one row per thread\n"
	"    switchstat -e cpu-clock,page-faults   # software counters per "
	"process\n"
	"    switchstat --hist runq -P # run-queue latency per process\n"
	"    switchstat -G -M          # per cgroup, with memory events\n"
	"    switchstat --csv -d 10 > out.csv      # for scripts\n";

/* ss_print_usage - see opts.h */
void ss_print_usage(FILE *f)
{
	fputs(usage_text, f);
}

/* ss_parse_u64 - see opts.h */
int ss_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

enum {
	OPT_CSV = 256,
	OPT_JSON,
	OPT_VERSION,
	OPT_NO_COUNTERS,
	OPT_HIST,
	OPT_CGROUP,
	OPT_TRACE,
	OPT_SELF_STATS,
	OPT_CHECK,
	OPT_IDLE,
	OPT_MAP_ENTRIES,
};

static const struct option long_opts[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "duration", required_argument, NULL, 'd' },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "threads", no_argument, NULL, 'L' },
	{ "timestamp", no_argument, NULL, 'T' },
	{ "top", required_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, 's' },
	{ "events", required_argument, NULL, 'e' },
	{ "no-counters", no_argument, NULL, OPT_NO_COUNTERS },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "hist-only", no_argument, NULL, 'H' },
	{ "milliseconds", no_argument, NULL, 'm' },
	{ "pids", no_argument, NULL, 'P' },
	{ "cgroups", no_argument, NULL, 'G' },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "memory", no_argument, NULL, 'M' },
	{ "trace", no_argument, NULL, OPT_TRACE },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "idle", no_argument, NULL, OPT_IDLE },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "self-stats", no_argument, NULL, OPT_SELF_STATS },
	{ "map-entries", required_argument, NULL, OPT_MAP_ENTRIES },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

#define SHORT_OPTS ":i:d:p:t:LTn:s:e:HmPGMvh"

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

static int bad(FILE *err, const char *fmt, const char *what, const char *arg)
{
	char w[48], a[48];

	fputs("switchstat: ", err);
	fprintf(err, fmt, shown(what, w, sizeof(w)),
		shown(arg ? arg : "", a, sizeof(a)));
	fputs("\nTry 'switchstat -h' for more information.\n", err);
	return SS_PARSE_ERROR;
}

/*
 * The option as the user wrote it, for error messages, without "=value".
 * getopt_long reports a long option's error after stepping past its argv
 * element, with optopt = its val (a letter for --threads, 0 if unknown), so
 * "--threads=1" must not be named "-L".  An unknown letter inside a cluster
 * ("-Zv") leaves optind on the element before: opt is not in SHORT_OPTS then.
 */
static const char *opt_name(int argc, char **argv, int opt, char *buf,
			    size_t len)
{
	const char *cur =
		optind > 0 && optind <= argc ? argv[optind - 1] : NULL;

	if (cur && !strncmp(cur, "--", 2) &&
	    (opt == 0 || opt >= 256 ||
	     (opt != ':' && strchr(SHORT_OPTS, opt)))) {
		snprintf(buf, len, "%.*s", (int)strcspn(cur, "="), cur);
		return buf;
	}
	if (opt > 0 && opt < 256) {
		snprintf(buf, len, "-%c", opt);
		return buf;
	}
	return cur ? cur : "?";
}

static int parse_hist(const char *arg, unsigned int *mask)
{
	char buf[64], *save = NULL, *tok;

	if (!*arg || strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "oncpu"))
			*mask |= SS_HIST_ONCPU;
		else if (!strcmp(tok, "offcpu"))
			*mask |= SS_HIST_OFFCPU;
		else if (!strcmp(tok, "runq"))
			*mask |= SS_HIST_RUNQ;
		else
			return -1;
	}
	/* "a,,b" and trailing commas leave empty tokens strtok skips */
	if (strstr(arg, ",,") || arg[0] == ',' || arg[strlen(arg) - 1] == ',')
		return -1;
	return *mask ? 0 : -1;
}

static int parse_sort(const char *arg, enum ss_sort_key *key)
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
			*key = keys[i].key;
			return 0;
		}
	}
	return -1;
}

/* ss_parse_opts - see opts.h */
int ss_parse_opts(int argc, char **argv, struct ss_opts *o, FILE *out,
		  FILE *err)
{
	char optname[48];
	uint64_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval_ms = 1000;
	o->top = 20;
	o->sort = SS_SORT_ONCPU;

	optind = 0; /* full reset of getopt, also of its internal state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, SHORT_OPTS, long_opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'i':
			if (ss_parse_u64(optarg, 1, 86400000, &v))
				return bad(
					err,
					"invalid %s '%s': want 1..86400000 ms",
					"interval", optarg);
			o->interval_ms = v;
			break;
		case 'd':
			if (ss_parse_u64(optarg, 1, 31536000, &v))
				return bad(
					err,
					"invalid %s '%s': want 1..31536000 s",
					"duration", optarg);
			o->duration_s = v;
			break;
		case 'p':
			if (ss_parse_u64(optarg, 1, 4194304, &v))
				return bad(err, "invalid %s '%s': want a PID",
					   "pid", optarg);
			o->pid = v;
			break;
		case 't':
			if (ss_parse_u64(optarg, 1, 4194304, &v))
				return bad(err, "invalid %s '%s': want a TID",
					   "tid", optarg);
			o->tid = v;
			break;
		case 'L':
			o->per_thread = true;
			break;
		case 'T':
			o->timestamp = true;
			break;
		case 'n':
			if (ss_parse_u64(optarg, 0, 1000000, &v))
				return bad(err,
					   "invalid %s '%s': want 0..1000000",
					   "row count", optarg);
			o->top = v;
			break;
		case 's':
			if (parse_sort(optarg, &o->sort))
				return bad(err,
					   "invalid %s '%s': want oncpu, "
					   "switch, vol, invol or pid",
					   "sort key", optarg);
			break;
		case 'e':
			if (!*optarg)
				return bad(err, "empty %s list%s", "event",
					   NULL);
			o->events = optarg;
			o->events_given = true;
			break;
		case OPT_NO_COUNTERS:
			o->no_counters = true;
			break;
		case OPT_HIST:
			if (parse_hist(optarg, &o->hist))
				return bad(err,
					   "invalid %s '%s': want oncpu, "
					   "offcpu, runq (comma list)",
					   "histogram kind", optarg);
			break;
		case 'H':
			o->hist_only = true;
			break;
		case 'm':
			o->milliseconds = true;
			break;
		case 'P':
			o->hist_per_process = true;
			break;
		case 'G':
			o->per_cgroup = true;
			break;
		case OPT_CGROUP:
			if (!*optarg)
				return bad(err, "empty %s path%s", "cgroup",
					   NULL);
			o->cgroup = optarg;
			break;
		case 'M':
			o->memory = true;
			break;
		case OPT_TRACE:
			o->trace = true;
			break;
		case OPT_CSV:
			o->csv = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_IDLE:
			o->idle = true;
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case OPT_SELF_STATS:
			o->self_stats = true;
			break;
		case OPT_MAP_ENTRIES:
			if (ss_parse_u64(optarg, 1024, 4194304, &v))
				return bad(
					err,
					"invalid %s '%s': want 1024..4194304",
					"map size", optarg);
			o->map_entries = v;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			ss_print_usage(out);
			return SS_PARSE_EXIT_OK;
		case OPT_VERSION:
			fprintf(out, "switchstat %s\n", SS_VERSION);
			return SS_PARSE_EXIT_OK;
		case ':':
			return bad(err, "option '%s' needs a value%s",
				   opt_name(argc, argv, optopt, optname,
					    sizeof(optname)),
				   NULL);
		default:
			opt_name(argc, argv, optopt, optname, sizeof(optname));
			/* a known long option given "=value" it does not take */
			if (optopt && !strncmp(optname, "--", 2))
				return bad(err, "option '%s' takes no value%s",
					   optname, NULL);
			return bad(err, "unknown option '%s'%s", optname, NULL);
		}
	}
	if (optind < argc)
		return bad(err, "unexpected %s '%s'", "argument", argv[optind]);
	if (o->csv && o->json)
		return bad(err, "--csv and --json are exclusive%s%s", "", NULL);
	if (o->hist_only && !o->hist)
		return bad(err, "-H needs --hist%s%s", "", NULL);
	if ((o->milliseconds || o->hist_per_process) && !o->hist)
		return bad(err, "-m and -P need --hist%s%s", "", NULL);
	if (o->no_counters && o->events_given)
		return bad(err, "-e and --no-counters are exclusive%s%s", "",
			   NULL);
	if (o->per_cgroup && o->per_thread)
		return bad(err, "-G and -L are exclusive%s%s", "", NULL);
	return SS_PARSE_OK;
}

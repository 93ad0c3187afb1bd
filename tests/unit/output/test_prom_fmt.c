// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/output/prom_fmt.c: label escaping (hostile comms and cgroup
 * paths), family headers in text 0.0.4 and OpenMetrics, histograms from
 * log2 slots, Accept negotiation and the --listen parser.
 */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <criterion/criterion.h>

#include "parse.h"
#include "prom_fmt.h"

static char *esc(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	ss_prom_escape_label(f, s);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

#define expect_esc(in, want)                                   \
	do {                                                   \
		char *out_ = esc(in);                          \
		cr_expect_str_eq(out_, want, "input %s", #in); \
		free(out_);                                    \
	} while (0)

Test(prom_escape, specials)
{
	expect_esc("plain", "plain");
	expect_esc("", "");
	expect_esc(NULL, "");
	expect_esc("a\"b", "a\\\"b");
	expect_esc("a\\b", "a\\\\b");
	expect_esc("a\nb", "a\\nb");
	expect_esc("o\"d\\d, \x01"
		   "c",
		   "o\\\"d\\\\d, \x01"
		   "c");
	expect_esc("}{=,# \t\r", "}{=,# \t\r");
}

Test(prom_escape, invalid_utf8_replaced)
{
	expect_esc("\xff", "\xef\xbf\xbd");
	expect_esc("a\xc3", "a\xef\xbf\xbd"); /* truncated sequence */
	expect_esc("\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"); /* valid */
	expect_esc("\xe2\x82\xac", "\xe2\x82\xac"); /* euro sign */
	expect_esc("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"); /* overlong */
	expect_esc("\xed\xa0\x80", /* surrogate */
		   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	expect_esc("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"); /* emoji */
	expect_esc("\xf4\x90\x80\x80", /* > U+10FFFF */
		   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

Test(prom_escape, hostile_cgroup_path)
{
	expect_esc("/sys.slice/a\\x2db.service/\"x\"\n}",
		   "/sys.slice/a\\\\x2db.service/\\\"x\\\"\\n}");
}

static char *render(enum ss_prom_format fmt, void (*fn)(struct ss_prom *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ss_prom p;

	cr_assert_not_null(f);
	ss_prom_init(&p, f, fmt);
	fn(&p);
	ss_prom_end(&p);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static void one_counter(struct ss_prom *p)
{
	struct ss_prom_label l[] = { { "kind", "voluntary" },
				     { "comm", "a\"\n\\" } };
	char v[SS_PROM_VAL_LEN];

	ss_prom_family(p, "switchstat_context_switches", SS_PROM_COUNTER,
		       "Context switches.\nSecond \"line\\", NULL);
	ss_prom_sample(p, l, 2, ss_prom_u64(v, 42));
	ss_prom_family(p, "switchstat_oncpu_seconds", SS_PROM_COUNTER,
		       "On-CPU time.", "seconds");
	ss_prom_sample(p, NULL, 0, ss_prom_ns_seconds(v, 1000000002ULL));
	ss_prom_family(p, "switchstat_build", SS_PROM_INFO, "Build.", NULL);
	ss_prom_sample(p, NULL, 0, "1");
}

Test(prom_family, text_004)
{
	char *s = render(SS_PROM_TEXT, one_counter);

	cr_expect_str_eq(
		s,
		"# HELP switchstat_context_switches_total Context switches.\\n"
		"Second \"line\\\\\n"
		"# TYPE switchstat_context_switches_total counter\n"
		"switchstat_context_switches_total{kind=\"voluntary\","
		"comm=\"a\\\"\\n\\\\\"} 42\n"
		"# HELP switchstat_oncpu_seconds_total On-CPU time.\n"
		"# TYPE switchstat_oncpu_seconds_total counter\n"
		"switchstat_oncpu_seconds_total 1.000000002\n"
		"# HELP switchstat_build_info Build.\n"
		"# TYPE switchstat_build_info gauge\n"
		"switchstat_build_info 1\n");
	free(s);
}

Test(prom_family, openmetrics)
{
	char *s = render(SS_PROM_OPENMETRICS, one_counter);

	cr_expect_str_eq(
		s, "# HELP switchstat_context_switches Context switches.\\n"
		   "Second \\\"line\\\\\n"
		   "# TYPE switchstat_context_switches counter\n"
		   "switchstat_context_switches_total{kind=\"voluntary\","
		   "comm=\"a\\\"\\n\\\\\"} 42\n"
		   "# HELP switchstat_oncpu_seconds On-CPU time.\n"
		   "# TYPE switchstat_oncpu_seconds counter\n"
		   "# UNIT switchstat_oncpu_seconds seconds\n"
		   "switchstat_oncpu_seconds_total 1.000000002\n"
		   "# HELP switchstat_build Build.\n"
		   "# TYPE switchstat_build info\n"
		   "switchstat_build_info 1\n"
		   "# EOF\n");
	free(s);
}

static void one_hist(struct ss_prom *p)
{
	/* slot 0: 0..1 us, slot 1: 2..3 us, slot 2: 4..7, slot 3 clamps */
	uint64_t slots[4] = { 1, 0, 2, 5 };
	struct ss_prom_label l[] = { { "kind", "runq" } };

	ss_prom_family(p, "switchstat_runq_latency_seconds", SS_PROM_HISTOGRAM,
		       "Run-queue latency.", "seconds");
	ss_prom_histogram(p, l, 1, slots, 4, 1000);
}

Test(prom_hist, buckets_from_log2_slots)
{
	char *s = render(SS_PROM_TEXT, one_hist);
	/* sum estimate: 1*1us + 2*6us + 5*8us = 53 us */
	cr_expect_str_eq(
		s, "# HELP switchstat_runq_latency_seconds Run-queue latency.\n"
		   "# TYPE switchstat_runq_latency_seconds histogram\n"
		   "switchstat_runq_latency_seconds_bucket{kind=\"runq\","
		   "le=\"0.000002\"} 1\n"
		   "switchstat_runq_latency_seconds_bucket{kind=\"runq\","
		   "le=\"0.000004\"} 1\n"
		   "switchstat_runq_latency_seconds_bucket{kind=\"runq\","
		   "le=\"0.000008\"} 3\n"
		   "switchstat_runq_latency_seconds_bucket{kind=\"runq\","
		   "le=\"+Inf\"} 8\n"
		   "switchstat_runq_latency_seconds_sum{kind=\"runq\"} "
		   "5.3e-05\n"
		   "switchstat_runq_latency_seconds_count{kind=\"runq\"} 8\n");
	free(s);
}

Test(prom_hist, le_in_ms_and_whole_seconds)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	uint64_t slots[11] = { 0 };
	struct ss_prom p;

	ss_prom_init(&p, f, SS_PROM_OPENMETRICS);
	ss_prom_family(&p, "x_seconds", SS_PROM_HISTOGRAM, "x", NULL);
	ss_prom_histogram(&p, NULL, 0, slots, 11, 1000000);
	fclose(f);
	cr_expect(strstr(buf, "x_seconds_bucket{le=\"0.002\"} 0\n"));
	cr_expect(strstr(buf, "x_seconds_bucket{le=\"1.024\"} 0\n"));
	cr_expect(!strstr(buf, "le=\"2.048\""), "clamping slot has no le");
	cr_expect(strstr(buf, "x_seconds_sum 0\n"));
	free(buf);
	cr_expect_str_eq(ss_prom_double((char[SS_PROM_VAL_LEN]){ 0 }, INFINITY),
			 "+Inf");
}

Test(prom_negotiate, accept_headers)
{
	/* what Prometheus 2.42 sends by default */
	cr_expect_eq(ss_prom_negotiate(
			     "application/openmetrics-text;version=1.0.0,"
			     "application/openmetrics-text;version=0.0.1;"
			     "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
		     SS_PROM_OPENMETRICS);
	cr_expect_eq(ss_prom_negotiate(NULL), SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate(""), SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate("*/*"), SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate("text/plain;version=0.0.4"),
		     SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate("application/openmetrics-text"),
		     SS_PROM_OPENMETRICS);
	cr_expect_eq(ss_prom_negotiate("Application/OpenMetrics-Text ; "
				       "version=\"1.0.0\""),
		     SS_PROM_OPENMETRICS);
	cr_expect_eq(ss_prom_negotiate("application/openmetrics-text;q=0.2,"
				       "text/plain;q=0.9"),
		     SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate("application/openmetrics-text;q=0,"
				       "*/*"),
		     SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate("application/openmetrics-text;"
				       "version=2.0.0"),
		     SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate("application/json"), SS_PROM_TEXT);
	cr_expect_eq(ss_prom_negotiate(",,;;=,q=,application/"
				       "openmetrics-text;q=0.5;;"),
		     SS_PROM_OPENMETRICS);
}

Test(prom_listen, addresses)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	unsigned int len = 0;

	cr_assert_eq(ss_parse_listen("9100", &ss, &len), 0);
	cr_expect_eq(a4->sin_family, AF_INET);
	cr_expect_eq(ntohs(a4->sin_port), 9100);
	cr_expect_eq(ntohl(a4->sin_addr.s_addr), 0x7f000001);
	cr_expect_eq(len, sizeof(*a4));
	cr_assert_eq(ss_parse_listen("0.0.0.0:1", &ss, &len), 0);
	cr_expect_eq(a4->sin_addr.s_addr, 0);
	cr_expect_eq(ntohs(a4->sin_port), 1);
	cr_assert_eq(ss_parse_listen("[::1]:65535", &ss, &len), 0);
	cr_expect_eq(a6->sin6_family, AF_INET6);
	cr_expect_eq(ntohs(a6->sin6_port), 65535);
	cr_expect_eq(len, sizeof(*a6));

	const char *bad[] = { "",
			      "0",
			      "65536",
			      "-1",
			      "9100x",
			      ":9100",
			      "localhost:9100",
			      "1.2.3:9100",
			      "[::1]9100",
			      "[]:9100",
			      "::1:9100",
			      "1.2.3.4:",
			      "[::1]:",
			      " 9100",
			      NULL };
	for (int i = 0; bad[i]; i++)
		cr_expect_eq(ss_parse_listen(bad[i], &ss, &len), -1, "%s",
			     bad[i]);
	cr_expect_eq(ss_parse_listen(NULL, &ss, &len), -1);
}

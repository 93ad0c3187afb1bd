// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_opts.c - libFuzzer target for the option parser: the input, split
 * at NUL bytes, is argv[1..].  Whatever the input, ss_parse_opts must
 * return one of the three results, print at most a bounded message, and
 * leave only in-range values when it accepts; an accepted -e list then goes
 * through ss_events_parse as in the counters feature.  AddressSanitizer
 * catches overflows.  Build: clang -fsanitize=fuzzer,address -Isrc
 * tests/fuzz/fuzz_opts.c src/opts.c src/model/events.c (see run_fuzz.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "opts.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	char *out_txt = NULL, *err_txt = NULL;
	size_t out_len = 0, err_len = 0, start = 0;
	struct ss_opts o;
	int argc = 0, ret;
	FILE *out, *err;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "switchstat";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i == size || buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	out = open_memstream(&out_txt, &out_len);
	err = open_memstream(&err_txt, &err_len);
	if (!out || !err)
		abort();
	ret = ss_parse_opts(argc, argv, &o, out, err);
	fclose(out);
	fclose(err);

	if (ret != SS_PARSE_OK && ret != SS_PARSE_EXIT_OK &&
	    ret != SS_PARSE_ERROR)
		abort();
	if (ret == SS_PARSE_ERROR &&
	    (err_len == 0 || strncmp(err_txt, "switchstat: ", 12)))
		abort(); /* an error without its message */
	if (ret == SS_PARSE_OK) {
		/* accepted, yet complained: only -i below 100 ms gets a note */
		if (err_len &&
		    (o.interval_ms >= 100 ||
		     strncmp(err_txt, "switchstat: note: -i is in milliseconds",
			     39) ||
		     strchr(err_txt, '\n') != err_txt + err_len - 1))
			abort();
		if (o.npids > SS_MAX_TARGETS || o.ntids > SS_MAX_TARGETS ||
		    (o.npids && o.pid != o.pids[0]) ||
		    (o.ntids && o.tid != o.tids[0]) || (o.pid && o.tid))
			abort(); /* a list out of shape, or -p with -t */
		for (uint32_t i = 0; i < o.npids || i < o.ntids; i++)
			if ((i < o.npids &&
			     (!o.pids[i] || o.pids[i] > 4194304)) ||
			    (i < o.ntids &&
			     (!o.tids[i] || o.tids[i] > 4194304)))
				abort(); /* an id out of range accepted */
		if (o.interval_ms < 1 || o.interval_ms > 86400000 ||
		    o.duration_s > 31536000 || o.pid > 4194304 ||
		    o.tid > 4194304 || o.top > 1000000 ||
		    (o.map_entries &&
		     (o.map_entries < 1024 || o.map_entries > 4194304)) ||
		    o.hist > 7 || (o.csv && o.json))
			abort(); /* out-of-range value accepted */
		if (o.events) {
			struct ss_event ev[SS_MAX_EVENTS];
			char msg[256];
			int n = ss_events_parse(o.events, ev, SS_MAX_EVENTS,
						msg, sizeof(msg));

			if (n == 0 || n > SS_MAX_EVENTS ||
			    (n < 0 && !memchr(msg, '\0', sizeof(msg))))
				abort();
		}
	}
	free(out_txt);
	free(err_txt);
	free(buf);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* testseam.c - SWITCHSTAT_TEST, the test seams (testseam.h). */
#include "testseam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

extern char **environ;

/* name, and for a seam that takes a value its range (max 0: no value) */
static const struct {
	const char *name;
	uint64_t min, max;
} seams[SS_SEAM_COUNT] = {
	[SS_SEAM_NO_RAW] = { "no_raw", 0, 0 },
	[SS_SEAM_RAW_STATE_FROM_TASK] = { "raw_state_from_task", 0, 0 },
	[SS_SEAM_NO_EXIT_TP] = { "no_exit_tp", 0, 0 },
	[SS_SEAM_EXIT_TP] = { "exit_tp", 0, 0 },
	[SS_SEAM_EXIT_TP_NOW] = { "exit_tp_now", 0, 0 },
	[SS_SEAM_NO_KCLOCK] = { "no_kclock", 0, 0 },
	[SS_SEAM_WINDOW_CLOCK] = { "window_clock", 0, 0 },
	[SS_SEAM_NO_TASK_STORAGE] = { "no_task_storage", 0, 0 },
	[SS_SEAM_NO_BTF] = { "no_btf", 0, 0 },
	[SS_SEAM_NO_ROW_CACHE] = { "no_row_cache", 0, 0 },
	[SS_SEAM_VERIFIER_FAIL] = { "verifier_fail", 0, 0 },
	[SS_SEAM_COUNTER_TIMES] = { "counter_times", 0, 0 },
	/* the counters' indexes: SS_MAX_EVENTS (model/events.h) is 8 */
	[SS_SEAM_CTR_OFF] = { "ctr_off", 0, 7 },
	[SS_SEAM_MISS_ARRIVE] = { "miss_arrive", 2, 1000 },
	[SS_SEAM_NO_PSI] = { "no_psi", 0, 0 },
};

static struct ss_seams loaded;

/* ss_seam_name - see testseam.h */
const char *ss_seam_name(enum ss_seam s)
{
	return s < SS_SEAM_COUNT ? seams[s].name : "?";
}

/* the known names, ", "-separated, for an error message */
static void known(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < SS_SEAM_COUNT && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s%s", i ? ", " : "",
			      seams[i].name, seams[i].max ? "=N" : "");
}

/* one item "name" or "name=value" of @len bytes at @item */
static int parse_item(const char *item, size_t len, struct ss_seams *out,
		      char *err, size_t elen)
{
	const char *eq = memchr(item, '=', len);
	size_t nlen = eq ? (size_t)(eq - item) : len;
	char names[512], val[32];
	int i;

	for (i = 0; i < SS_SEAM_COUNT; i++)
		if (strlen(seams[i].name) == nlen &&
		    !memcmp(seams[i].name, item, nlen))
			break;
	if (i == SS_SEAM_COUNT) {
		known(names, sizeof(names));
		snprintf(err, elen, "%s: unknown seam '%.*s' (known: %s)",
			 SS_SEAM_ENV, (int)nlen, item, names);
		return -1;
	}
	if (out->on[i]) {
		snprintf(err, elen, "%s: seam '%s' given twice", SS_SEAM_ENV,
			 seams[i].name);
		return -1;
	}
	if (!seams[i].max && eq) {
		snprintf(err, elen, "%s: seam '%s' takes no value (got '%.*s')",
			 SS_SEAM_ENV, seams[i].name, (int)len, item);
		return -1;
	}
	if (seams[i].max) {
		size_t vlen = eq ? len - nlen - 1 : 0;
		int bad = !eq || vlen >= sizeof(val);

		if (!bad) {
			memcpy(val, eq + 1, vlen);
			val[vlen] = '\0';
			bad = ss_parse_u64(val, seams[i].min, seams[i].max,
					   &out->val[i]);
		}
		if (bad) {
			snprintf(err, elen,
				 "%s: seam '%s' takes a number %llu-%llu "
				 "(got '%.*s')",
				 SS_SEAM_ENV, seams[i].name,
				 (unsigned long long)seams[i].min,
				 (unsigned long long)seams[i].max, (int)len,
				 item);
			return -1;
		}
	}
	out->on[i] = true;
	return 0;
}

/* ss_seams_parse - see testseam.h */
int ss_seams_parse(const char *s, struct ss_seams *out, char *err, size_t len)
{
	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return 0;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);

		if (!n) {
			snprintf(err, len, "%s: an empty seam name",
				 SS_SEAM_ENV);
			return -1;
		}
		if (parse_item(s, n, out, err, len))
			return -1;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

/* ss_seams_load - see testseam.h */
int ss_seams_load(char *err, size_t len)
{
	static const char old[] = SS_SEAM_ENV "_";

	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		int n = eq ? (int)(eq - *e) : (int)strlen(*e);

		if (!strncmp(*e, old, sizeof(old) - 1) ||
		    !strncmp(*e, "SWITCHSTAT_COUNTER_TIMES=", 25)) {
			snprintf(err, len,
				 "%.*s is not read: the test seams are %s="
				 "name,... (tests/README.md)",
				 n, *e, SS_SEAM_ENV);
			return -1;
		}
	}
	return ss_seams_parse(getenv(SS_SEAM_ENV), &loaded, err, len);
}

/* ss_seam - see testseam.h */
bool ss_seam(enum ss_seam s)
{
	return s < SS_SEAM_COUNT && loaded.on[s];
}

/* ss_seam_value - see testseam.h */
uint64_t ss_seam_value(enum ss_seam s)
{
	return ss_seam(s) ? loaded.val[s] : 0;
}

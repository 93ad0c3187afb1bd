// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the event table in src/model/events.c: every spelling -e accepts,
 * its canonical name and its column header, written out literally here so
 * that a row missing from (or added to) the table, a wrong alias or a
 * changed header fails.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "events.h"

struct spelling {
	const char *name; /* as typed after -e */
	const char *canonical; /* ss_event_canonical */
	const char *head; /* ss_event_head */
};

static const struct spelling spellings[] = {
	{ "cycles", "cycles", "CYCLES" },
	{ "cpu-cycles", "cycles", "CYCLES" },
	{ "instructions", "instructions", "INSTR" },
	{ "cache-references", "cache-references", "LLC-REF" },
	{ "cache-misses", "cache-misses", "LLC-MISS" },
	{ "branch-instructions", "branch-instructions", "BRANCH" },
	{ "branches", "branch-instructions", "BRANCH" },
	{ "branch-misses", "branch-misses", "BR-MISS" },
	{ "bus-cycles", "bus-cycles", "BUS-CYCLES" },
	{ "ref-cycles", "ref-cycles", "REF-CYCLES" },
	{ "stalled-cycles-frontend", "stalled-cycles-frontend", "STALL-FE" },
	{ "stalled-cycles-backend", "stalled-cycles-backend", "STALL-BE" },
	{ "L1-dcache-loads", "L1-dcache-loads", "L1D-LD" },
	{ "L1-dcache-load-misses", "L1-dcache-load-misses", "L1D-LDMISS" },
	{ "LLC-loads", "LLC-loads", "LLC-LD" },
	{ "LLC-load-misses", "LLC-load-misses", "LLC-LDMISS" },
	{ "LLC-misses", "LLC-load-misses", "LLC-LDMISS" },
	{ "cpu-clock", "cpu-clock", "CPU-CLK" },
	{ "task-clock", "task-clock", "TASK-CLK" },
	{ "page-faults", "page-faults", "PG-FAULTS" },
	{ "faults", "page-faults", "PG-FAULTS" },
	{ "minor-faults", "minor-faults", "MINFLT" },
	{ "major-faults", "major-faults", "MAJFLT" },
	{ "context-switches", "context-switches", "CS" },
	{ "cs", "context-switches", "CS" },
	{ "cpu-migrations", "cpu-migrations", "MIGR" },
	{ "migrations", "cpu-migrations", "MIGR" },
};

#define N_SPELLINGS (sizeof(spellings) / sizeof(spellings[0]))

static struct ss_event ev_of(const char *name)
{
	struct ss_event ev[1];
	char err[128] = "";

	cr_assert_eq(ss_events_parse(name, ev, 1, err, sizeof(err)), 1,
		     "%s: %s", name, err);
	return ev[0];
}

Test(event_table, every_spelling_has_its_canonical_name)
{
	for (size_t i = 0; i < N_SPELLINGS; i++) {
		struct ss_event ev = ev_of(spellings[i].name);
		const struct ss_event_def *d = ss_event_def_of(&ev);
		char buf[SS_EVENT_NAME_LEN];

		cr_assert_not_null(d, "%s has no table row", spellings[i].name);
		cr_expect_str_eq(d->name, spellings[i].canonical);
		ss_event_canonical(&ev, buf, sizeof(buf));
		cr_expect_str_eq(buf, spellings[i].canonical, "%s",
				 spellings[i].name);
	}
}

/* two events never share a column header (perf-style tables stay readable) */
Test(event_table, headers_are_unique)
{
	const struct ss_event_def *d;
	size_t n = ss_event_defs(&d);

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			cr_expect_str_neq(d[i].head, d[j].head, "%s and %s",
					  d[i].name, d[j].name);
}

Test(event_table, every_spelling_has_its_header)
{
	for (size_t i = 0; i < N_SPELLINGS; i++) {
		char buf[32];

		ss_event_head(spellings[i].name, buf, sizeof(buf));
		cr_expect_str_eq(buf, spellings[i].head, "%s",
				 spellings[i].name);
		cr_expect_leq(strlen(buf), SS_EVENT_HEAD_LEN);
	}
}

/* The table holds exactly the spellings above, each once. */
Test(event_table, table_has_exactly_these_spellings)
{
	const struct ss_event_def *defs;
	size_t n = ss_event_defs(&defs), seen = 0;

	for (size_t i = 0; i < n; i++) {
		const char *names[1 + SS_EVENT_ALIASES] = { defs[i].name };

		memcpy(names + 1, defs[i].alias, sizeof(defs[i].alias));
		for (size_t k = 0; k < 1 + SS_EVENT_ALIASES && names[k]; k++) {
			size_t j;

			for (j = 0; j < N_SPELLINGS; j++)
				if (!strcmp(spellings[j].name, names[k]))
					break;
			cr_expect_lt(j, N_SPELLINGS, "table name %s untested",
				     names[k]);
			seen++;
		}
		for (size_t j = 0; j < i; j++)
			cr_expect(defs[j].type != defs[i].type ||
					  defs[j].config != defs[i].config,
				  "%s and %s share type/config", defs[j].name,
				  defs[i].name);
	}
	cr_expect_eq(seen, N_SPELLINGS, "table has %zu spellings, want %zu",
		     seen, N_SPELLINGS);
	cr_expect_eq(n, 21, "table has %zu rows, want 21", n);
}

Test(event_table, raw_events_keep_their_name)
{
	struct ss_event ev = ev_of("r01C2");
	char buf[32];

	cr_expect_null(ss_event_def_of(&ev));
	ss_event_canonical(&ev, buf, sizeof(buf));
	cr_expect_str_eq(buf, "r01C2");
	ss_event_head("r01C2", buf, sizeof(buf));
	cr_expect_str_eq(buf, "R01C2");
	ss_event_head("rffffffffffffffff", buf, sizeof(buf));
	cr_expect_str_eq(buf, "RFFFFFFFFF", "cut at SS_EVENT_HEAD_LEN");
}

Test(event_table, truncates_safely)
{
	struct ss_event ev = ev_of("context-switches");
	char buf[8];

	ss_event_canonical(&ev, buf, sizeof(buf));
	cr_expect_str_eq(buf, "context");
	ss_event_head("cache-misses", buf, 4);
	cr_expect_str_eq(buf, "LLC");
	ss_event_head("r01c2", buf, 3);
	cr_expect_str_eq(buf, "R0");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/feature.c: phases run over a table of features in
 * table order, each with its own zeroed state and each phase calling its
 * own op (open, after_interval too); the first non-zero return stops a
 * phase; finish and close reach every feature; run() is taken by the first
 * feature that returns >= 0; cpu_up reaches every feature that has it and
 * returns the first failure.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "feature.h"

static char trace_buf[256]; /* "<feature><op>" per call, in call order */

static void note(char who, char op)
{
	size_t n = strlen(trace_buf);

	cr_assert_lt(n + 2, sizeof(trace_buf));
	trace_buf[n] = who;
	trace_buf[n + 1] = op;
}

struct st {
	int calls;
	int ret; /* what the next op returns */
	char name;
};

#define OP(name_, op_)                                \
	static int name_(struct ss_app *app, void *p) \
	{                                             \
		struct st *s = p;                     \
		note(s->name, op_);                   \
		s->calls++;                           \
		return s->ret;                        \
	}
OP(op_check, 'c')
OP(op_open, 'o')
OP(op_configure, 'g')
OP(op_after, 'z')
OP(op_interval, 'i')
OP(op_run, 'r')

static int op_cpu_up(struct ss_app *app, void *p, int cpu)
{
	struct st *s = p;

	note(s->name, (char)('0' + cpu));
	return s->ret;
}

static void op_close(struct ss_app *app, void *p)
{
	note(((struct st *)p)->name, 'x');
}

static const struct ss_feature fa = {
	.name = "a",
	.state_size = sizeof(struct st),
	.check = op_check,
	.on_interval = op_interval,
	.close = op_close,
	.cpu_up = op_cpu_up,
};
static const struct ss_feature fb = {
	.name = "b", /* no state, no check */
	.on_interval = op_interval,
};
static const struct ss_feature fc = {
	.name = "c",
	.state_size = sizeof(struct st),
	.check = op_check,
	.open = op_open,
	.configure = op_configure,
	.after_interval = op_after,
	.run = op_run,
	.close = op_close,
	.cpu_up = op_cpu_up,
};

static const struct ss_feature *const tab[] = { &fa, &fc };
static struct ss_app app;

static void setup(void)
{
	memset(&app, 0, sizeof(app));
	memset(trace_buf, 0, sizeof(trace_buf));
	cr_assert_eq(ss_feature_table_init(tab, 2, &app), 0);
	((struct st *)app.state[0])->name = 'a';
	((struct st *)app.state[1])->name = 'c';
}

static void teardown(void)
{
	ss_feature_table_free(tab, 2, &app);
}

TestSuite(feature, .init = setup, .fini = teardown);

Test(feature, states_zeroed_and_distinct)
{
	struct st *a = app.state[0], *c = app.state[1];

	cr_assert_neq(a, c);
	cr_assert_eq(a->calls, 0);
	cr_assert_eq(c->ret, 0);
}

Test(feature, phase_in_table_order_missing_ops_skipped)
{
	cr_assert_eq(ss_feature_table_phase(tab, 2, &app, SS_PHASE_CHECK), 0);
	cr_assert_eq(ss_feature_table_phase(tab, 2, &app, SS_PHASE_CONFIGURE),
		     0);
	cr_assert_eq(ss_feature_table_phase(tab, 2, &app, SS_PHASE_ATTACH), 0);
	cr_assert_str_eq(trace_buf, "accccg");
}

Test(feature, open_and_after_interval_are_their_own_phases)
{
	cr_assert_eq(ss_feature_table_phase(tab, 2, &app, SS_PHASE_OPEN), 0);
	cr_assert_eq(ss_feature_table_phase(tab, 2, &app, SS_PHASE_INTERVAL),
		     0);
	cr_assert_eq(
		ss_feature_table_phase(tab, 2, &app, SS_PHASE_AFTER_INTERVAL),
		0);
	cr_assert_str_eq(trace_buf, "coaicz");
}

Test(feature, first_nonzero_stops_the_phase)
{
	((struct st *)app.state[0])->ret = 2;
	cr_assert_eq(ss_feature_table_phase(tab, 2, &app, SS_PHASE_CHECK), 2);
	cr_assert_str_eq(trace_buf, "ac", "c's check must not run");
}

Test(feature, close_reaches_every_feature)
{
	((struct st *)app.state[0])->ret = 1;
	ss_feature_table_phase(tab, 2, &app, SS_PHASE_CLOSE);
	cr_assert_str_eq(trace_buf, "axcx");
}

Test(feature, run_taken_or_declined)
{
	struct st *c = app.state[1];

	c->ret = -1;
	cr_assert_eq(ss_feature_table_run(tab, 2, &app), -1);
	c->ret = 0;
	cr_assert_eq(ss_feature_table_run(tab, 2, &app), 0);
	c->ret = 1;
	cr_assert_eq(ss_feature_table_run(tab, 2, &app), 1);
	cr_assert_str_eq(trace_buf, "crcrcr");
}

Test(feature, stateless_feature_gets_a_state)
{
	const struct ss_feature *const t2[] = { &fb };
	struct ss_app a2;

	memset(&a2, 0, sizeof(a2));
	cr_assert_eq(ss_feature_table_init(t2, 1, &a2), 0);
	cr_assert_not_null(a2.state[0]);
	ss_feature_table_free(t2, 1, &a2);
	cr_assert_null(a2.state[0]);
}

Test(feature, too_many_features_refused)
{
	const struct ss_feature *big[SS_MAX_FEATURES + 1];
	struct ss_app a2;

	for (int i = 0; i <= SS_MAX_FEATURES; i++)
		big[i] = &fb;
	memset(&a2, 0, sizeof(a2));
	cr_assert_eq(ss_feature_table_init(big, SS_MAX_FEATURES + 1, &a2), -1);
}

Test(feature, cpu_up_reaches_all_first_failure_returned)
{
	struct st *a = app.state[0], *c = app.state[1];

	cr_assert_eq(ss_feature_table_cpu_up(tab, 2, &app, 1), 0);
	a->ret = -19;
	c->ret = -24;
	cr_assert_eq(ss_feature_table_cpu_up(tab, 2, &app, 3), -19);
	cr_assert_str_eq(trace_buf, "a1c1a3c3", "every feature, each time");
}

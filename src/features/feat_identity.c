// SPDX-License-Identifier: GPL-2.0
/*
 * feat_identity.c - the settings of probes/identity.bpf.h: the
 * task_struct offsets of group_leader, start_time and comm from the
 * running kernel's BTF (never from headers, which may be another
 * kernel's; kfacts.c), and whether the cgroup is part of the row key
 * (-G), as the plan has them (plan.c decide_rows).  Without BTF the rows
 * still work, with the limits identity.bpf.h states; -v says which.  The
 * test seam no_btf forces that path (testseam.h).
 */
#include "feat_identity.h"

#include <stdio.h>

/* Say with -v how rows are keyed and named. */
static int identity_configure(struct ss_app *app, void *st)
{
	const struct ss_plan_rows *r = &app->plan->rows;

	(void)st;
	if (!app->o.verbose)
		return 0;
	if (r->ident_btf && !r->cg_btf)
		fprintf(stderr,
			"switchstat: %s: cgroup ids from "
			"bpf_get_current_cgroup_id\n",
			app->plan->k.cg_why);
	fprintf(stderr,
		r->ident_btf ? "switchstat: rows keyed by process start time, "
			       "named by the thread-group leader (task_struct "
			       "offsets from BTF)\n"
			     : "switchstat: %s: a reused pid shares its row, "
			       "and "
			       "a process row takes the name of its first "
			       "thread to run\n",
		r->ident_why);
	return 0;
}

const struct ss_feature ss_feat_identity = {
	.name = "identity",
	.configure = identity_configure,
};

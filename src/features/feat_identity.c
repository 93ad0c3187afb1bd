// SPDX-License-Identifier: GPL-2.0
/*
 * feat_identity.c - the settings of probes/identity.bpf.h: the
 * task_struct offsets of group_leader, start_time and comm from the
 * running kernel's BTF (never from headers, which may be another
 * kernel's), and whether the cgroup is part of the row key (-G).
 * Without BTF the rows still work, with the limits identity.bpf.h states;
 * -v says which.  The test seam no_btf forces that path (testseam.h).
 */
#include "feat_identity.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_offsets.h"
#include "testseam.h"
#include "vmlinux_btf.h"

struct member {
	const char *strct;
	const char *name;
	const char *macro;
	unsigned int size;
};

static const struct member members[] = {
	{ "task_struct", "group_leader", "SS_IDENT_LEADER", sizeof(void *) },
	{ "task_struct", "start_time", "SS_IDENT_START", 8 },
	{ "task_struct", "comm", "SS_IDENT_COMM", 16 },
};

#define NMEMBERS (sizeof(members) / sizeof(members[0]))

/*
 * The path bpf_get_current_cgroup_id() takes, for reading it in place:
 * task->cgroups->dfl_cgrp->kn->id.
 */
static const struct member cg_members[] = {
	{ "task_struct", "cgroups", "SS_CG_TASK_CGROUPS", sizeof(void *) },
	{ "css_set", "dfl_cgrp", "SS_CG_CSS_DFL", sizeof(void *) },
	{ "cgroup", "kn", "SS_CG_CGROUP_KN", sizeof(void *) },
	{ "kernfs_node", "id", "SS_CG_KN_ID", 8 },
};

#define NCG (sizeof(cg_members) / sizeof(cg_members[0]))

/* The offsets of m[0 .. n - 1] into off[]; 0, or -1 with why not in why. */
static int offsets(const struct btf *btf, const struct member *m, size_t n,
		   unsigned int *off, char *why, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		unsigned int size;
		int err = ss_btf_member(btf, m[i].strct, m[i].name, &off[i],
					&size);

		if (!err && size != m[i].size)
			err = -EINVAL;
		if (err) {
			snprintf(why, len, "%s.%s not in BTF: %s", m[i].strct,
				 m[i].name, strerror(-err));
			return -1;
		}
	}
	return 0;
}

static int identity_configure(struct ss_app *app, void *st)
{
	unsigned int off[NMEMBERS], cg_off[NCG];
	char why[160], cg_why[160];
	const struct btf *vmlinux = NULL;
	bool btf, cg = false;

	(void)st;
	ss_app_define(app, "SS_PER_CGROUP", app->o.per_cgroup);
	/* test seam: the no-BTF fallback on a kernel that has BTF */
	if (ss_seam(SS_SEAM_NO_BTF)) {
		snprintf(why, sizeof(why), "BTF not used (test seam)");
		btf = false;
	} else {
		vmlinux = ss_vmlinux_btf();
		if (!vmlinux)
			snprintf(why, sizeof(why), "no kernel BTF: %s",
				 strerror(errno));
		btf = vmlinux && offsets(vmlinux, members, NMEMBERS, off, why,
					 sizeof(why)) == 0;
		cg = btf && offsets(vmlinux, cg_members, NCG, cg_off, cg_why,
				    sizeof(cg_why)) == 0;
	}
	ss_app_define(app, "SS_IDENT_BTF", btf);
	for (size_t i = 0; btf && i < NMEMBERS; i++)
		ss_app_define(app, members[i].macro, off[i]);
	ss_app_define(app, "SS_CG_BTF", cg);
	for (size_t i = 0; cg && i < NCG; i++)
		ss_app_define(app, cg_members[i].macro, cg_off[i]);
	if (btf && !cg && app->o.verbose)
		fprintf(stderr,
			"switchstat: %s: cgroup ids from "
			"bpf_get_current_cgroup_id\n",
			cg_why);
	/* direct reads of the current task (bpf_get_current_task_btf) */
	ss_app_define(app, "SS_TASK_BTF_PTR",
		      btf && libbpf_probe_bpf_helper(
				     BPF_PROG_TYPE_TRACEPOINT,
				     BPF_FUNC_get_current_task_btf, NULL) == 1);
	/*
	 * the per-CPU row cache (probes/common.bpf.h): 16 entries a CPU;
	 * the test seam no_row_cache leaves it out (tests, the bench)
	 */
	if (btf && !ss_seam(SS_SEAM_NO_ROW_CACHE))
		ss_app_define(app, "SS_ROW_CACHE_BITS", 4);
	if (app->o.verbose)
		fprintf(stderr,
			btf ? "switchstat: rows keyed by process start time, "
			      "named by the thread-group leader (task_struct "
			      "offsets from BTF)\n"
			    : "switchstat: %s: a reused pid shares its row, "
			      "and "
			      "a process row takes the name of its first "
			      "thread to run\n",
			why);
	return 0;
}

const struct ss_feature ss_feat_identity = {
	.name = "identity",
	.configure = identity_configure,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * feat_identity.c - the settings of probes/identity.bpf.h: the
 * task_struct offsets of group_leader, start_time and comm from the
 * running kernel's BTF (never from headers, which may be another
 * kernel's), and whether the cgroup is part of the row key (-G).
 * Without BTF the rows still work, with the limits identity.bpf.h states;
 * -v says which.  SWITCHSTAT_TEST_NO_BTF=1 forces that path (tests).
 */
#include "feat_identity.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_offsets.h"

struct member {
	const char *name;
	const char *macro;
	unsigned int size;
};

static const struct member members[] = {
	{ "group_leader", "SS_IDENT_LEADER", sizeof(void *) },
	{ "start_time", "SS_IDENT_START", 8 },
	{ "comm", "SS_IDENT_COMM", 16 },
};

#define NMEMBERS (sizeof(members) / sizeof(members[0]))

/* The offsets into off[]; 0, or -1 with why not in why. */
static int offsets(unsigned int *off, char *why, size_t len)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int ret = 0;

	if (!btf) {
		snprintf(why, len, "no kernel BTF: %s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < NMEMBERS && !ret; i++) {
		unsigned int size;
		int err = ss_btf_member(btf, "task_struct", members[i].name,
					&off[i], &size);

		if (!err && size != members[i].size)
			err = -EINVAL;
		if (err) {
			snprintf(why, len, "task_struct.%s not in BTF: %s",
				 members[i].name, strerror(-err));
			ret = -1;
		}
	}
	btf__free(btf);
	return ret;
}

static int identity_configure(struct ss_app *app, void *st)
{
	unsigned int off[NMEMBERS];
	char why[160];
	bool btf;

	(void)st;
	ss_app_define(app, "SS_PER_CGROUP", app->o.per_cgroup);
	/* test hook: the no-BTF fallback on a kernel that has BTF */
	if (getenv("SWITCHSTAT_TEST_NO_BTF") &&
	    !strcmp(getenv("SWITCHSTAT_TEST_NO_BTF"), "1")) {
		snprintf(why, sizeof(why), "BTF not used (test hook)");
		btf = false;
	} else {
		btf = offsets(off, why, sizeof(why)) == 0;
	}
	ss_app_define(app, "SS_IDENT_BTF", btf);
	for (size_t i = 0; btf && i < NMEMBERS; i++)
		ss_app_define(app, members[i].macro, off[i]);
	/* direct reads of the current task (bpf_get_current_task_btf) */
	ss_app_define(app, "SS_TASK_BTF_PTR",
		      btf && libbpf_probe_bpf_helper(
				     BPF_PROG_TYPE_TRACEPOINT,
				     BPF_FUNC_get_current_task_btf, NULL) == 1);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * feat_psi.c - with -G, each cgroup's CPU pressure (cpu.pressure, PSI
 * `some`): the report's CPU-PSI% column (output.c reads each shown
 * cgroup's file once per interval through app->info.psi) and the
 * exporter's gauge.  Read from cgroupfs; no BPF.  A kernel without PSI
 * (or the no_psi test seam): the column is left out, with one note.
 */
#include <stdlib.h>

#include "emit.h"
#include "feat_psi.h"
#include "psi.h"
#include "testseam.h"

struct psi_state {
	struct ss_psi_cache cache;
};

static int psi_configure(struct ss_app *app, void *st)
{
	struct psi_state *ps = st;

	if (!app->o.per_cgroup || !app->info.cg)
		return 0;
	if (ss_seam(SS_SEAM_NO_PSI) || !ss_psi_available("/proc")) {
		ss_diag("no CPU pressure (PSI) in this kernel: the CPU-PSI%% "
			"column is left out");
		return 0;
	}
	app->info.psi = &ps->cache;
	return 0;
}

static void psi_close(struct ss_app *app, void *st)
{
	struct psi_state *ps = st;

	ss_psi_free(&ps->cache);
	app->info.psi = NULL;
}

const struct ss_feature ss_feat_psi = {
	.name = "psi",
	.state_size = sizeof(struct psi_state),
	.configure = psi_configure,
	.close = psi_close,
};

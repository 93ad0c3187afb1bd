/* SPDX-License-Identifier: GPL-2.0 */
/* feat_psi.h - -G: each cgroup's CPU pressure from cgroupfs (PSI) */
#ifndef SWITCHSTAT_FEAT_PSI_H
#define SWITCHSTAT_FEAT_PSI_H

#include "feature.h"

extern const struct ss_feature ss_feat_psi;

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* feat_mem.h - cgroups and memory events (-M, --cgroup) */
#ifndef SWITCHSTAT_FEAT_MEM_H
#define SWITCHSTAT_FEAT_MEM_H

#include "feature.h"

extern const struct ss_feature ss_feat_mem;

#endif

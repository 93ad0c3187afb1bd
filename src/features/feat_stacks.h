/* SPDX-License-Identifier: GPL-2.0 */
/* feat_stacks.h - off-CPU stacks (--stacks, -f folded) */
#ifndef SWITCHSTAT_FEAT_STACKS_H
#define SWITCHSTAT_FEAT_STACKS_H

#include "feature.h"

extern const struct ss_feature ss_feat_stacks;

#endif

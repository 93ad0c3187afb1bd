/* SPDX-License-Identifier: GPL-2.0 */
/* feat_checkpoints.h - interval checkpoints (cpu-clock perf events) */
#ifndef SWITCHSTAT_FEAT_CHECKPOINTS_H
#define SWITCHSTAT_FEAT_CHECKPOINTS_H

#include "feature.h"

extern const struct ss_feature ss_feat_checkpoints;

#endif

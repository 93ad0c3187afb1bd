/* SPDX-License-Identifier: GPL-2.0 */
/* feat_offcpu.h - off-CPU time by reason (--offcpu) */
#ifndef SWITCHSTAT_FEAT_OFFCPU_H
#define SWITCHSTAT_FEAT_OFFCPU_H

#include "feature.h"

extern const struct ss_feature ss_feat_offcpu;

#endif

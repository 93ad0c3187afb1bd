/* SPDX-License-Identifier: GPL-2.0 */
/* feat_counters.h - perf counters read at each switch (-e) */
#ifndef SWITCHSTAT_FEAT_COUNTERS_H
#define SWITCHSTAT_FEAT_COUNTERS_H

#include "feature.h"

extern const struct ss_feature ss_feat_counters;

#endif

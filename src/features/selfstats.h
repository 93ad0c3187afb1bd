/* SPDX-License-Identifier: GPL-2.0 */
/* selfstats.h - --self-stats: the BPF programs' own cost */
#ifndef SWITCHSTAT_SELFSTATS_H
#define SWITCHSTAT_SELFSTATS_H

#include "feature.h"

extern const struct ss_feature ss_feat_selfstats;

#endif

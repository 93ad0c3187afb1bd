/* SPDX-License-Identifier: GPL-2.0 */
/* feat_top.h - --top: the live full-screen view (output/top_view.h) */
#ifndef SWITCHSTAT_FEAT_TOP_H
#define SWITCHSTAT_FEAT_TOP_H

#include "feature.h"

extern const struct ss_feature ss_feat_top;

#endif

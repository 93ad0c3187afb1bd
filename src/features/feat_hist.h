/* SPDX-License-Identifier: GPL-2.0 */
/* feat_hist.h - log2 histograms (--hist) */
#ifndef SWITCHSTAT_FEAT_HIST_H
#define SWITCHSTAT_FEAT_HIST_H

#include "feature.h"

extern const struct ss_feature ss_feat_hist;

#endif

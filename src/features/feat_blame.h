/* SPDX-License-Identifier: GPL-2.0 */
/* feat_blame.h - run-queue delay by culprit (--blame) */
#ifndef SWITCHSTAT_FEAT_BLAME_H
#define SWITCHSTAT_FEAT_BLAME_H

#include "feature.h"

extern const struct ss_feature ss_feat_blame;

#endif

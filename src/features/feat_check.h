/* SPDX-License-Identifier: GPL-2.0 */
/* feat_check.h - --check closure and -v counts after each interval */
#ifndef SWITCHSTAT_FEAT_CHECK_H
#define SWITCHSTAT_FEAT_CHECK_H

#include "feature.h"

extern const struct ss_feature ss_feat_check;

#endif

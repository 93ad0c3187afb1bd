/* SPDX-License-Identifier: GPL-2.0 */
/* feat_core.h - switch accounting: interval collect and table */
#ifndef SWITCHSTAT_FEAT_CORE_H
#define SWITCHSTAT_FEAT_CORE_H

#include "feature.h"

extern const struct ss_feature ss_feat_core;

#endif

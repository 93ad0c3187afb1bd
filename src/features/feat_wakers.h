/* SPDX-License-Identifier: GPL-2.0 */
/* feat_wakers.h - who woke whom (--wakers) */
#ifndef SWITCHSTAT_FEAT_WAKERS_H
#define SWITCHSTAT_FEAT_WAKERS_H

#include "feature.h"

extern const struct ss_feature ss_feat_wakers;

#endif

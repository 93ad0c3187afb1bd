/* SPDX-License-Identifier: GPL-2.0 */
/* feat_identity.h - row identity: start times, leader names, cgroup keys */
#ifndef SWITCHSTAT_FEAT_IDENTITY_H
#define SWITCHSTAT_FEAT_IDENTITY_H

#include "feature.h"

extern const struct ss_feature ss_feat_identity;

#endif

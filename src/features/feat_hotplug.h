/* SPDX-License-Identifier: GPL-2.0 */
/* feat_hotplug.h - CPUs going offline and coming back */
#ifndef SWITCHSTAT_FEAT_HOTPLUG_H
#define SWITCHSTAT_FEAT_HOTPLUG_H

#include "feature.h"

extern const struct ss_feature ss_feat_hotplug;

#endif

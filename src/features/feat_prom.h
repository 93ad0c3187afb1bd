/* SPDX-License-Identifier: GPL-2.0 */
/* feat_prom.h - the Prometheus exporter (--listen) */
#ifndef SWITCHSTAT_FEAT_PROM_H
#define SWITCHSTAT_FEAT_PROM_H

#include "feature.h"

extern const struct ss_feature ss_feat_prom;

#endif

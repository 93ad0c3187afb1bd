/* SPDX-License-Identifier: GPL-2.0 */
/* feat_trace.h - --trace: one line per context switch */
#ifndef SWITCHSTAT_FEAT_TRACE_H
#define SWITCHSTAT_FEAT_TRACE_H

#include "feature.h"

extern const struct ss_feature ss_feat_trace;

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feat_path.h - which tracepoint path the probes take: raw tracepoints
 * with task_struct offsets from the running kernel's BTF, or regular
 * tracepoints (the plan's choice, said with -v), and sched_exit_tp.
 */
#ifndef SWITCHSTAT_FEAT_PATH_H
#define SWITCHSTAT_FEAT_PATH_H

#include "feature.h"

extern const struct ss_feature ss_feat_path;

#endif

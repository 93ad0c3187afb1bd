/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feat_cgfilter.h - the --cgroup PATH filter: the host opens PATH and puts
 * its fd in the probes' cgroup array (probes/select.bpf.h); the kernel
 * then selects tasks in PATH and in every cgroup below it, those created
 * after the start too.
 */
#ifndef SWITCHSTAT_FEAT_CGFILTER_H
#define SWITCHSTAT_FEAT_CGFILTER_H

#include "feature.h"

extern const struct ss_feature ss_feat_cgfilter;

#endif

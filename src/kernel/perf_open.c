// SPDX-License-Identifier: GPL-2.0
/* perf_open.c - attrs, CPU masks and open errors for per-CPU perf events. */
#include "perf_open.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ss_perf_attr - see perf_open.h */
void ss_perf_attr(const struct ss_event *ev, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = ev->type;
	attr->config = ev->config;
	attr->config1 = ev->config1;
	attr->config2 = ev->config2;
	attr->exclude_user = ev->exclude_user;
	attr->exclude_kernel = ev->exclude_kernel;
	attr->exclude_hv = ev->exclude_hv;
	attr->read_format =
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->disabled = 0; /* counts from the open on */
	attr->inherit = 0; /* per-CPU events cannot inherit */
}

/* ss_perf_classify - see perf_open.h */
enum ss_open_fail ss_perf_classify(int err, const struct ss_event *ev,
				   bool cpu_online)
{
	if (!cpu_online || err == ENODEV)
		return SS_OPEN_SKIP_CPU;
	if (err == ENOENT || err == EOPNOTSUPP || err == ENOSYS)
		return SS_OPEN_NO_PMU;
	if (err == EINVAL && ev->hardware)
		return SS_OPEN_NO_PMU;
	return SS_OPEN_FAILED;
}

/* ss_perf_why - see perf_open.h */
const char *ss_perf_why(int err, const struct ss_event *ev)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case EINVAL:
		if (ev->hardware)
			return "no PMU, or the PMU lacks this event; "
			       "common in VMs";
		return "event not supported by this kernel";
	case ENOSYS:
		return "kernel built without perf events";
	case EACCES:
	case EPERM:
		return "permission denied (needs CAP_PERFMON; see "
		       "kernel.perf_event_paranoid)";
	case EMFILE:
	case ENFILE:
		return "too many open files: raise ulimit -n";
	case EBUSY:
		return "the PMU is in exclusive use by another tool";
	default:
		return "perf_event_open failed";
	}
}

// SPDX-License-Identifier: GPL-2.0
/* hostns.c - the pid namespace check (see hostns.h). */
#include "hostns.h"

#include <stdio.h>
#include <sys/stat.h>

/* ss_in_host_pidns - see hostns.h */
bool ss_in_host_pidns(const char *nsfile)
{
	struct stat st;

	if (stat(nsfile, &st))
		return true;
	return st.st_ino == SS_PROC_PID_INIT_INO;
}

/* ss_check_pidns - see hostns.h */
int ss_check_pidns(const struct ss_opts *o, bool host, char *err, size_t errlen)
{
	bool pids = !o->per_cgroup || o->pid || o->tid || o->trace ||
		    o->per_thread || (o->hist && o->hist_per_process);

	if (host || !pids)
		return 0;
	snprintf(err, errlen,
		 "not in the host's pid namespace: the kernel reports host "
		 "pids, so -p/-t, the PID column and --trace would name the "
		 "wrong processes; run in the host's pid namespace (docker run "
		 "--pid=host, Kubernetes hostPID: true), or use -G alone for "
		 "cgroup rows");
	return -1;
}

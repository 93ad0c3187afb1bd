// SPDX-License-Identifier: GPL-2.0
/* tracefs.c - tracefs's place and its tracepoints (tracefs.h). */
#include "tracefs.h"

#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ss_tracefs - see tracefs.h */
const char *ss_tracefs(void)
{
	return access(SS_TRACEFS_DEBUGFS, F_OK) == 0 ? SS_TRACEFS_DEBUGFS
						     : SS_TRACEFS_OWN;
}

/* ss_tracepoint_exists - see tracefs.h */
bool ss_tracepoint_exists(const char *category, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/events/%s/%s", ss_tracefs(), category, name);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

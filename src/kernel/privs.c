// SPDX-License-Identifier: GPL-2.0
/* privs.c - capability checks (see privs.h for what is needed and why). */
#include "privs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static bool has(uint64_t eff, int cap)
{
	return (eff >> cap) & 1;
}

static void add(char *buf, size_t len, int *n, const char *name)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", *n ? " and " : "", name);
	(*n)++;
}

/* ss_caps_missing - see privs.h */
int ss_caps_missing(uint64_t eff, int last_cap, bool tracefs_readable,
		    char *buf, size_t len)
{
	bool admin = has(eff, SS_CAP_SYS_ADMIN);
	int n = 0;

	buf[0] = '\0';
	if (last_cap < SS_CAP_BPF) {
		if (!admin)
			add(buf, len, &n, "CAP_SYS_ADMIN");
	} else {
		if (!admin && !has(eff, SS_CAP_BPF))
			add(buf, len, &n, "CAP_BPF");
		if (!admin && !has(eff, SS_CAP_PERFMON))
			add(buf, len, &n, "CAP_PERFMON");
	}
	if (!tracefs_readable && !has(eff, SS_CAP_DAC_READ_SEARCH))
		add(buf, len, &n, "CAP_DAC_READ_SEARCH");
	return n;
}

static uint64_t effective(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { 0 };

	if (syscall(SYS_capget, &h, d))
		return 0;
	return d[0].effective | (uint64_t)d[1].effective << 32;
}

static int last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int n = SS_CAP_BPF; /* unreadable: assume a current kernel */

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = SS_CAP_BPF;
		fclose(f);
	}
	return n;
}

/* ss_have_cap - see privs.h */
bool ss_have_cap(int cap)
{
	return has(effective(), cap);
}

/* ss_check_privs - see privs.h */
int ss_check_privs(const char *tracefs_file, char *err, size_t errlen)
{
	char missing[128];
	/* only "permission denied" asks for CAP_DAC_READ_SEARCH */
	bool readable =
		faccessat(AT_FDCWD, tracefs_file, R_OK, AT_EACCESS) == 0 ||
		errno != EACCES;

	if (!ss_caps_missing(effective(), last_cap(), readable, missing,
			     sizeof(missing)))
		return 0;
	snprintf(err, errlen,
		 "must run as root or with the capabilities CAP_BPF, "
		 "CAP_PERFMON and CAP_DAC_READ_SEARCH: missing %s",
		 missing);
	return -1;
}

// SPDX-License-Identifier: GPL-2.0
/* procfs.c - target checks from /proc/PID/status. */
#include "procfs.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The value of field @name ("Name:", leading blanks skipped) in the status
 * file @path into @buf (@len bytes, NUL-terminated, newline kept).
 * Returns 0, or -1 when the file cannot be read or has no such field.
 */
static int status_value(const char *path, const char *name, char *buf,
			size_t len)
{
	char line[512];
	size_t nlen = strlen(name);
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, name, nlen) && line[nlen] == ':') {
			const char *p = line + nlen + 1;

			while (*p == ' ' || *p == '\t')
				p++;
			snprintf(buf, len, "%s", p);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* ss_status_field - see procfs.h */
int ss_status_field(const char *proc, uint32_t id, const char *name,
		    uint64_t *val)
{
	char path[256], v[64];

	snprintf(path, sizeof(path), "%s/%" PRIu32 "/status", proc, id);
	if (status_value(path, name, v, sizeof(v)))
		return -1;
	*val = strtoull(v, NULL, 10);
	return 0;
}

static int state_of(const char *proc, uint32_t id, char *state)
{
	char path[256], v[64];

	snprintf(path, sizeof(path), "%s/%" PRIu32 "/status", proc, id);
	if (status_value(path, "State", v, sizeof(v)))
		return -1;
	*state = v[0];
	return 0;
}

static bool gone(char state)
{
	return state == 'Z' || state == 'X';
}

/* ss_process_alive - see procfs.h */
bool ss_process_alive(const char *proc, uint32_t pid)
{
	char path[256], tpath[600], state;
	struct dirent *d;
	bool alive = false;
	DIR *dir;

	if (state_of(proc, pid, &state))
		return false;
	if (!gone(state))
		return true;
	/* a zombie leader: the process lives while any thread does */
	snprintf(path, sizeof(path), "%s/%" PRIu32 "/task", proc, pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while (!alive && (d = readdir(dir))) {
		char v[64];

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(tpath, sizeof(tpath), "%s/%s/status", path, d->d_name);
		if (!status_value(tpath, "State", v, sizeof(v)))
			alive = !gone(v[0]);
	}
	closedir(dir);
	return alive;
}

/* ss_check_target - see procfs.h */
int ss_check_target(const char *proc, uint32_t pid, uint32_t tid, char *err,
		    size_t errlen)
{
	uint64_t tgid;
	char state;

	if (pid) {
		if (ss_status_field(proc, pid, "Tgid", &tgid) ||
		    state_of(proc, pid, &state)) {
			snprintf(err, errlen, "no such process: %" PRIu32, pid);
			return -1;
		}
		if (tgid != pid) {
			snprintf(err, errlen,
				 "%" PRIu32 " is a thread of process %" PRIu64
				 ": use -p %" PRIu64 ", or -t %" PRIu32,
				 pid, tgid, tgid, pid);
			return -1;
		}
		if (!ss_process_alive(proc, pid)) {
			snprintf(err, errlen,
				 "process %" PRIu32 " has exited (zombie)",
				 pid);
			return -1;
		}
	}
	if (tid) {
		if (ss_status_field(proc, tid, "Tgid", &tgid) ||
		    state_of(proc, tid, &state)) {
			snprintf(err, errlen, "no such thread: %" PRIu32, tid);
			return -1;
		}
		if (pid && tgid != pid) {
			snprintf(err, errlen,
				 "thread %" PRIu32
				 " belongs to process %" PRIu64
				 ", not %" PRIu32,
				 tid, tgid, pid);
			return -1;
		}
		if (gone(state)) {
			snprintf(err, errlen,
				 "thread %" PRIu32 " has exited (zombie)", tid);
			return -1;
		}
	}
	return 0;
}

/* ss_pid_max - see procfs.h */
uint32_t ss_pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	unsigned long v = 32768;

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 32768;
		fclose(f);
	}
	return v;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target.h - end the run when the -p process or -t thread is gone.
 *
 * A process is alive while any of its threads is (a zombie leader does not
 * end it).  When the target has exited, switchstat says so on stderr and
 * ends as after Ctrl-C: the final partial interval, then exit 0.
 */
#ifndef SWITCHSTAT_TARGET_H
#define SWITCHSTAT_TARGET_H

#include <stdint.h>

/*
 * ss_target_watch - start watching (a thread waiting on a pidfd, or
 * checking /proc every 100 ms where pidfds are missing); on exit of the
 * target it raises SIGTERM in this process.  pid/tid as -p/-t (0: none;
 * nothing is watched without either).  Returns 0, or -1 with errno.
 */
int ss_target_watch(uint32_t pid, uint32_t tid);

/* ss_target_stop - stop the watcher (no-op if none is running). */
void ss_target_stop(void);

#endif

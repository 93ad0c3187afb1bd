/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target.h - end the run when the -p processes or -t threads are gone.
 *
 * A process is alive while any of its threads is (a zombie leader does not
 * end it).  Each target that exits is named on stderr; when the last has
 * exited, switchstat ends as after Ctrl-C: the final partial interval,
 * then exit 0 (pidstat -p goes on while any of its processes lives).
 */
#ifndef SWITCHSTAT_TARGET_H
#define SWITCHSTAT_TARGET_H

#include <stdbool.h>
#include <stdint.h>

/*
 * ss_target_watch - start watching @n targets @ids, threads when @threads
 * (-t) else processes (-p): a thread polling their pidfds, or checking
 * /proc every 100 ms for those without one; when all have exited it
 * raises SIGTERM in this process.  n == 0 watches nothing.  Returns 0, or
 * -1 with errno.
 */
int ss_target_watch(const uint32_t *ids, uint32_t n, bool threads);

/* ss_target_stop - stop the watcher (no-op if none is running). */
void ss_target_stop(void);

#endif

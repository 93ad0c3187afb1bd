/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event_encode.h - perf events by the names users know from perf and
 * tiptop, beyond the built-in table (src/model/events.c):
 *
 *  - perf's PMU syntax "pmu/event/" and "pmu/term=value,.../" with
 *    modifiers after the last slash ("cpu/cycles/u"), encoded from sysfs
 *    exactly as perf does: the PMU's type from
 *    /sys/bus/event_source/devices/PMU/type, an event alias from its
 *    events/NAME file, each term's bits from its format/TERM file
 *    ("config:0-7,21", "config1:0-15");
 *  - everything else through libpfm4 (pfm_get_os_event_encoding with
 *    PFM_OS_PERF_EVENT_EXT): vendor events such as
 *    MEM_LOAD_RETIRED.L3_MISS, "pmu::EVENT:UMASK", and its modifiers.
 */
#ifndef SWITCHSTAT_EVENT_ENCODE_H
#define SWITCHSTAT_EVENT_ENCODE_H

#include <stddef.h>
#include <stdio.h>

#include "events.h"

#define SS_SYSFS_PMUS "/sys/bus/event_source/devices"

/*
 * ss_event_resolve - an ss_event_resolve_fn (events.h) for the running
 * machine: "pmu/.../" from SS_SYSFS_PMUS, any other name from libpfm4.
 * Returns 0, or -1 with one line in @err (the library's reason, or which
 * PMU, term or alias is missing).
 */
int ss_event_resolve(const char *name, struct ss_event *ev, char *err,
		     size_t errlen);

/*
 * ss_event_resolve_sysfs - encode perf's "pmu/terms/[mods]" @name from the
 * devices folder @root (SS_SYSFS_PMUS, or a test's copy).  A name that is
 * no events/ alias of the PMU but a name of the built-in table of the same
 * type (software/cpu-clock/) takes the table's config.  Returns 0 or -1
 * with a message.
 */
int ss_event_resolve_sysfs(const char *root, const char *name,
			   struct ss_event *ev, char *err, size_t errlen);

/*
 * ss_events_list - --list-events: the built-in names, the PMUs in
 * SS_SYSFS_PMUS with their events/ aliases, and the events of every PMU
 * libpfm4 detects on this machine, to @f.  Returns 0, or -1 when libpfm4
 * cannot start (the rest is listed all the same).
 */
int ss_events_list(FILE *f);

#endif

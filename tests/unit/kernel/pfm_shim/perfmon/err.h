/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpfm4's examples (check_events.c, in Debian's libpfm4-dev docs) include
 * <perfmon/err.h>, which the package does not ship: libc's err.h has the
 * err()/errx() they use.
 */
#include <err.h>

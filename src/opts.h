/* SPDX-License-Identifier: GPL-2.0 */
/* opts.h - command line options of switchstat (getopt_long). */
#ifndef SWITCHSTAT_OPTS_H
#define SWITCHSTAT_OPTS_H

#include <stdio.h>

#include "options.h"

enum ss_parse_result {
	SS_PARSE_OK = 0,
	SS_PARSE_EXIT_OK = 1, /* -h / --version printed: exit 0 */
	SS_PARSE_ERROR = 2, /* bad input: message printed, exit 2 */
};

/*
 * ss_parse_opts - parse argv into *o.  Help and version go to out, errors
 * (one line plus a usage hint) to err.  Returns enum ss_parse_result; the
 * caller exits with 0 for SS_PARSE_EXIT_OK and 2 for SS_PARSE_ERROR.
 * Re-entrant: resets getopt's state, so tests may call it repeatedly.
 */
int ss_parse_opts(int argc, char **argv, struct ss_opts *o, FILE *out,
		  FILE *err);

/* ss_print_usage - the -h text (USAGE, options, EXAMPLES) to f. */
void ss_print_usage(FILE *f);

#endif

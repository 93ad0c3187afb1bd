/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts_run.h - run ss_parse_opts on an argument list with its stdout and
 * stderr captured; shared by the option parser tests.
 */
#ifndef SWITCHSTAT_TEST_OPTS_RUN_H
#define SWITCHSTAT_TEST_OPTS_RUN_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "opts.h"

#define OPTS_RUN_MAX_ARGS 30

struct run {
	int ret;
	struct ss_opts o;
	char *out, *err;
	size_t outlen, errlen;
};

/* ss_parse_opts on "switchstat" + args (NULL-terminated), output captured */
static inline void parse(struct run *r, const char *const *args)
{
	char *argv[OPTS_RUN_MAX_ARGS + 2];
	int argc = 0;
	FILE *out, *err;

	argv[argc++] = "switchstat";
	while (*args && argc <= OPTS_RUN_MAX_ARGS)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	out = open_memstream(&r->out, &r->outlen);
	err = open_memstream(&r->err, &r->errlen);
	cr_assert(out && err);
	r->ret = ss_parse_opts(argc, argv, &r->o, out, err);
	fclose(out);
	fclose(err);
}

/* release what parse captured */
static inline void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

#endif

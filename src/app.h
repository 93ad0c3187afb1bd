/* SPDX-License-Identifier: GPL-2.0 */
/*
 * app.h - the state of one run, shared by main.c and the feature modules
 * (counters, histograms, memory events, trace mode).
 */
#ifndef SWITCHSTAT_APP_H
#define SWITCHSTAT_APP_H

#include <signal.h>
#include <stdio.h>

#include "bpf_host.h"
#include "collect.h"
#include "opts.h"
#include "output.h"
#include "rows.h"

#define SS_MAX_CFLAGS 48

struct ss_app {
	struct ss_opts o;
	struct ss_bpf bpf;
	struct ss_collector col;
	struct ss_interval iv;
	struct ss_out out;
	FILE *f; /* report stream (stdout) */
	int ncpus_possible;
	int ncpus_online;
	uint32_t map_entries;
	const char *cflags[SS_MAX_CFLAGS];
	char cflag_buf[SS_MAX_CFLAGS][64];
	int ncflags;
};

/* Set by the SIGINT/SIGTERM handler; every loop checks it. */
extern volatile sig_atomic_t ss_exiting;

/*
 * ss_app_define - add "-DNAME=VALUE" (VALUE a number) to the BPF cflags.
 * Returns 0, or -1 when the table is full.
 */
int ss_app_define(struct ss_app *app, const char *name,
		  unsigned long long value);

#endif

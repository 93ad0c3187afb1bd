/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - strict parsers for what users type: numbers and listen
 * addresses, shared by the command line (src/opts.c) and the exporter
 * (src/features/feat_prom.c).  No state; unit tested.
 */
#ifndef SWITCHSTAT_PARSE_H
#define SWITCHSTAT_PARSE_H

#include <stdint.h>

/*
 * ss_parse_u64 - strict decimal parse of s into [min, max].  No sign, no
 * spaces, no trailing garbage, no overflow.  Returns 0 or -1.
 */
int ss_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * ss_parse_listen - parse --listen [ADDR:]PORT: PORT alone binds
 * 127.0.0.1; ADDR is an IPv4 address, or an IPv6 one in brackets
 * ([::1]:9100); PORT is 1..65535.  Fills @ss (a struct sockaddr_in or
 * sockaddr_in6) and *@sslen.  Returns 0, or -1 for bad input.
 */
struct sockaddr_storage;
int ss_parse_listen(const char *s, struct sockaddr_storage *ss,
		    unsigned int *sslen);

#endif

// SPDX-License-Identifier: GPL-2.0
/* parse.c - strict parsers for numbers and listen addresses (parse.h). */
#include "parse.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* ss_parse_u64 - see parse.h */
int ss_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* ss_parse_listen - see parse.h */
int ss_parse_listen(const char *s, struct sockaddr_storage *ss,
		    unsigned int *sslen)
{
	char addr[64] = "127.0.0.1";
	const char *port = s;
	uint64_t pnum;
	bool v6 = false;

	if (!s || !*s)
		return -1;
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || rb[1] != ':' || rb - s - 1 <= 0 ||
		    (size_t)(rb - s - 1) >= sizeof(addr))
			return -1;
		snprintf(addr, sizeof(addr), "%.*s", (int)(rb - s - 1), s + 1);
		port = rb + 2;
		v6 = true;
	} else if (strchr(s, ':')) {
		const char *colon = strrchr(s, ':');

		if (colon == s || (size_t)(colon - s) >= sizeof(addr))
			return -1;
		snprintf(addr, sizeof(addr), "%.*s", (int)(colon - s), s);
		port = colon + 1;
	}
	if (ss_parse_u64(port, 1, 65535, &pnum))
		return -1;
	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(pnum);
		if (inet_pton(AF_INET6, addr, &a->sin6_addr) != 1)
			return -1;
		*sslen = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(pnum);
		if (inet_pton(AF_INET, addr, &a->sin_addr) != 1)
			return -1;
		*sslen = sizeof(*a);
	}
	return 0;
}

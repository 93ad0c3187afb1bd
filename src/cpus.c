// SPDX-License-Identifier: GPL-2.0
/* cpus.c - CPU list parsing, as libbpf's parse_cpu_mask_str does. */
#include "cpus.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_open.h"

/* ss_parse_cpu_list - see cpus.h */
int ss_parse_cpu_list(const char *s)
{
	long max = -1, a, b;
	char *end;

	while (*s && *s != '\n') {
		if (!isdigit((unsigned char)*s))
			return -1;
		a = strtol(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				return -1;
			b = strtol(s, &end, 10);
			s = end;
			if (b < a)
				return -1;
		}
		if (b > 65535)
			return -1;
		if (b > max)
			max = b;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return max < 0 ? -1 : (int)max + 1;
}

/* ss_possible_cpus - see cpus.h */
int ss_possible_cpus(void)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int n = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		n = ss_parse_cpu_list(buf);
	fclose(f);
	return n;
}

/* ss_online_cpus - see cpus.h */
int ss_online_cpus(bool *online, int n)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	int ret = -1;

	if (!f)
		return -1;
	memset(online, 0, sizeof(*online) * n);
	if (fgets(buf, sizeof(buf), f))
		ret = ss_parse_cpu_mask(buf, online, n);
	fclose(f);
	return ret;
}

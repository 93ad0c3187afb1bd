// SPDX-License-Identifier: GPL-2.0
/* cpus.c - CPU list parsing, as libbpf's parse_cpu_mask_str does. */
#include "cpus.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ss_parse_cpu_mask - see cpus.h */
int ss_parse_cpu_mask(const char *s, bool *mask, int ncpus)
{
	const char *p = s;

	if (!s || ncpus < 0)
		return -1;
	memset(mask, 0, (size_t)ncpus * sizeof(*mask));
	while (*p && *p != '\n') {
		char *end;
		long lo, hi;

		if (*p < '0' || *p > '9')
			return -1;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -1;
			hi = strtol(p, &end, 10);
			p = end;
			if (hi < lo)
				return -1;
		}
		for (long c = lo; c <= hi && c < ncpus; c++)
			mask[c] = true;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
		else
			break;
	}
	if (p == s)
		return -1; /* empty list */
	return 0;
}

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

/* the number in /sys/devices/system/cpu/cpu@cpu/hotplug/@name, or -1 */
static long hotplug_step(int cpu, const char *name)
{
	char path[96];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/hotplug/%s",
		 cpu, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

bool ss_cpu_hotplug_settled(int cpu)
{
	long state = hotplug_step(cpu, "state");
	long target = hotplug_step(cpu, "target");

	return state < 0 || target < 0 || state == target;
}

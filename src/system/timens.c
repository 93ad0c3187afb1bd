// SPDX-License-Identifier: GPL-2.0
/* timens.c - the time namespace's CLOCK_MONOTONIC offset (see timens.h). */
#include "timens.h"

#include <stdio.h>
#include <string.h>

/* ss_timens_parse - see timens.h */
int ss_timens_parse(const char *text, int64_t *mono_ns)
{
	const char *p = text;

	*mono_ns = 0;
	while (p && *p) {
		long long sec, nsec;

		if (!strncmp(p, "monotonic", 9) &&
		    (p[9] == ' ' || p[9] == '\t')) {
			if (sscanf(p + 9, "%lld %lld", &sec, &nsec) != 2 ||
			    nsec < 0 || nsec >= 1000000000LL)
				return -1;
			*mono_ns = sec * 1000000000LL + nsec;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/* ss_timens_mono_offset - see timens.h */
int64_t ss_timens_mono_offset(void)
{
	FILE *f = fopen("/proc/self/timens_offsets", "r");
	char buf[256];
	size_t n;
	int64_t off;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return ss_timens_parse(buf, &off) ? 0 : off;
}

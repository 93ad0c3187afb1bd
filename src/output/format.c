// SPDX-License-Identifier: GPL-2.0
/* format.c - text primitives shared by every output format (format.h). */
#include "format.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

/* ss_u64_digits - see format.h */
size_t ss_u64_digits(char *buf, uint64_t v)
{
	/* two digits per division: the trace lines are mostly numbers */
	static const char pairs[] = "00010203040506070809"
				    "10111213141516171819"
				    "20212223242526272829"
				    "30313233343536373839"
				    "40414243444546474849"
				    "50515253545556575859"
				    "60616263646566676869"
				    "70717273747576777879"
				    "80818283848586878889"
				    "90919293949596979899";
	char tmp[20];
	size_t n = sizeof(tmp);

	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		tmp[--n] = pairs[2 * r + 1];
		tmp[--n] = pairs[2 * r];
	}
	if (v >= 10) {
		tmp[--n] = pairs[2 * v + 1];
		tmp[--n] = pairs[2 * v];
	} else {
		tmp[--n] = '0' + v;
	}
	memcpy(buf, tmp + n, sizeof(tmp) - n);
	return sizeof(tmp) - n;
}

/* ss_fixed_text - see format.h */
size_t ss_fixed_text(char *buf, uint64_t v, int digits)
{
	uint64_t div = 1, frac;
	size_t n;

	for (int i = 0; i < digits; i++)
		div *= 10;
	n = ss_u64_digits(buf, v / div);
	frac = v % div;
	buf[n++] = '.';
	for (int i = digits - 1; i >= 0; i--) {
		buf[n + i] = '0' + frac % 10;
		frac /= 10;
	}
	return n + digits;
}

/* ss_fmt_si - see format.h */
void ss_fmt_si(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "KMGTPE";
	double d = (double)v;
	int u = -1;

	if (v < 100000) {
		snprintf(buf, len, "%" PRIu64, v);
		return;
	}
	while (d >= 999.5 && u < 5) { /* 999.5 would print as "1000" */
		d /= 1000.0;
		u++;
	}
	if (d >= 99.95)
		snprintf(buf, len, "%.0f%c", d, units[u]);
	else if (d >= 9.995)
		snprintf(buf, len, "%.1f%c", d, units[u]);
	else
		snprintf(buf, len, "%.2f%c", d, units[u]);
}

/* ss_printable - see format.h */
size_t ss_printable(char *buf, size_t len, const char *s, size_t maxlen)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < maxlen && s[i] && i + 1 < len; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	return i;
}

/* ss_csv_needs_quotes - see format.h */
int ss_csv_needs_quotes(const char *s, size_t maxlen)
{
	for (size_t i = 0; i < maxlen && s[i]; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' ||
		    s[i] == '\r' || s[i] == ' ')
			return 1;
	return 0;
}

/* ss_csv_field - see format.h */
void ss_csv_field(FILE *f, const char *s, size_t maxlen)
{
	size_t n = strnlen(s, maxlen);

	if (!ss_csv_needs_quotes(s, n)) {
		fwrite(s, 1, n, f);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

/* ss_fmt_hms - see format.h */
char *ss_fmt_hms(char *buf, uint64_t realtime_ns)
{
	time_t sec = realtime_ns / 1000000000ULL;
	struct tm tm;

	localtime_r(&sec, &tm);
	strftime(buf, 9, "%H:%M:%S", &tm);
	return buf;
}

/* ss_counter_key - see format.h */
void ss_counter_key(const char *event, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	for (size_t i = 0; event[i] && n + 1 < len; i++) {
		unsigned char c = (unsigned char)event[i];

		if (isalnum(c))
			buf[n++] = (char)c;
		else if (n && buf[n - 1] != '_')
			buf[n++] = '_';
	}
	while (n && buf[n - 1] == '_')
		n--;
	buf[n] = '\0';
}

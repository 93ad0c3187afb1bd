// SPDX-License-Identifier: GPL-2.0
/* Tiny NDJSON writer (RFC 8259 strings, RFC 3629 UTF-8 validation). */
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "json.h"

/*
 * Length of the well-formed UTF-8 sequence at @p (at most @avail bytes
 * available), or 0 if it is not well formed. Ranges are Table 3-7
 * "Well-Formed UTF-8 Byte Sequences" of the Unicode Standard.
 */
static size_t utf8_seq_len(const unsigned char *p, size_t avail)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > avail)
		return 0;

	/* the second byte range is narrower for these lead bytes */
	if (p[0] == 0xe0)
		lo = 0xa0; /* overlong */
	else if (p[0] == 0xed)
		hi = 0x9f; /* surrogates */
	else if (p[0] == 0xf0)
		lo = 0x90; /* overlong */
	else if (p[0] == 0xf4)
		hi = 0x8f; /* above U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++) {
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	}
	return len;
}

/* Short escape for @c (RFC 8259 section 7), or NULL if it has none. */
static const char *short_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	}
	return NULL;
}

void ss_json_write_string(FILE *f, const char *s, size_t maxlen)
{
	const unsigned char *p = (const unsigned char *)s;
	const char *esc;
	size_t i = 0, n;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (i < maxlen && p[i]) {
		esc = short_escape(p[i]);
		if (esc) {
			fputs(esc, f);
			i++;
			continue;
		}
		n = 0;
		if (p[i] >= 0x20 && p[i] != 0x7f)
			n = utf8_seq_len(p + i, maxlen - i);
		if (n) {
			fwrite(p + i, 1, n, f);
			i += n;
		} else {
			/* control byte, DEL or a byte of invalid UTF-8 */
			fprintf(f, "\\u%04x", p[i]);
			i++;
		}
	}
	fputc('"', f);
}

/* Separator and "key": of the next member of @o. */
static void json_key(struct ss_json_obj *o, const char *key)
{
	if (o->n++)
		fputc(',', o->f);
	ss_json_write_string(o->f, key, SIZE_MAX);
	fputc(':', o->f);
}

void ss_json_begin(struct ss_json_obj *o, FILE *f)
{
	o->f = f;
	o->n = 0;
	fputc('{', f);
}

void ss_json_key_str(struct ss_json_obj *o, const char *key, const char *val,
		     size_t maxlen)
{
	json_key(o, key);
	ss_json_write_string(o->f, val, maxlen);
}

void ss_json_key_u64(struct ss_json_obj *o, const char *key, uint64_t v)
{
	json_key(o, key);
	fprintf(o->f, "%" PRIu64, v);
}

size_t ss_json_fmt_double(char *buf, size_t len, double v, int decimals)
{
	const char *dp;
	char *q;

	if (!isfinite(v))
		return snprintf(buf, len, "null");
	if (decimals < 0)
		decimals = 0;
	if (decimals > 17)
		decimals = 17;
	snprintf(buf, len, "%.*f", decimals, v);
	/* %f uses the LC_NUMERIC decimal point, JSON needs '.' */
	dp = localeconv()->decimal_point;
	if (dp && strcmp(dp, ".") != 0 && *dp) {
		q = strstr(buf, dp);
		if (q) {
			*q = '.';
			memmove(q + 1, q + strlen(dp),
				strlen(q + strlen(dp)) + 1);
		}
	}
	return strlen(buf);
}

void ss_json_key_double(struct ss_json_obj *o, const char *key, double v,
			int decimals)
{
	/* DBL_MAX has 309 integer digits; 17 decimals, sign, point, NUL */
	char buf[512];

	json_key(o, key);
	ss_json_fmt_double(buf, sizeof(buf), v, decimals);
	fputs(buf, o->f);
}

void ss_json_key_null(struct ss_json_obj *o, const char *key)
{
	json_key(o, key);
	fputs("null", o->f);
}

void ss_json_end(struct ss_json_obj *o)
{
	fputs("}\n", o->f);
}

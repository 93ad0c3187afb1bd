/* SPDX-License-Identifier: GPL-2.0 */
/* Tiny NDJSON writer: one JSON object per line, straight to a FILE. */
#ifndef SWITCHSTAT_JSON_H
#define SWITCHSTAT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Object being written to @f; @n counts the members written so far.
 * Errors are left in the stream: check ferror()/fflush() on @f afterwards.
 */
struct ss_json_obj {
	FILE *f;
	int n;
};

/*
 * ss_json_write_string - write @s as a quoted JSON string (RFC 8259) to @f.
 *
 * Reads at most @maxlen bytes and stops early at a NUL, so fixed-size
 * kernel buffers such as a 16-byte comm need not be terminated. '"' and
 * '\' are backslash-escaped; \b \f \n \r \t use short escapes; other bytes
 * below 0x20 and 0x7f become \u00xx. Well-formed UTF-8 (RFC 3629: no
 * overlongs, surrogates or values above U+10FFFF) is copied as is; any other
 * byte >= 0x80 becomes \u00xx, so the output is always valid UTF-8.
 * A NULL @s is written as null.
 */
void ss_json_write_string(FILE *f, const char *s, size_t maxlen);

/* ss_json_begin - start an object on @f: writes '{' and resets @o. */
void ss_json_begin(struct ss_json_obj *o, FILE *f);

/* ss_json_key_str - add "key": string member, @val as in ss_json_write_string(). */
void ss_json_key_str(struct ss_json_obj *o, const char *key, const char *val,
		     size_t maxlen);

/* ss_json_key_u64 - add "key": unsigned integer member (full 64-bit range). */
void ss_json_key_u64(struct ss_json_obj *o, const char *key, uint64_t v);

/*
 * ss_json_key_double - add "key": number member printed with @decimals digits
 * after the point (clamped to 0..17), always with '.' whatever LC_NUMERIC
 * says. NaN and +-Inf have no JSON form and are written as null.
 */
void ss_json_key_double(struct ss_json_obj *o, const char *key, double v,
			int decimals);

/*
 * ss_json_fmt_double - @v as a JSON number with @decimals digits after the
 * point (clamped to 0..17), '.' whatever LC_NUMERIC says; NaN and +-Inf as
 * null.  @len >= 512 holds any double.  Returns the length.
 */
size_t ss_json_fmt_double(char *buf, size_t len, double v, int decimals);

/* ss_json_key_null - add "key": null member. */
void ss_json_key_null(struct ss_json_obj *o, const char *key);

/* ss_json_end - close the object: writes "}\n" (one NDJSON record). */
void ss_json_end(struct ss_json_obj *o);

#endif /* SWITCHSTAT_JSON_H */

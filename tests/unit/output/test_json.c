// SPDX-License-Identifier: GPL-2.0
/* Unit tests for src/output/json.c (string escaping and the NDJSON object writer). */
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <criterion/criterion.h>

#include "json.h"

/* ss_json_write_string(@s, @maxlen) as a malloc'ed string. */
static char *jstr(const char *s, size_t maxlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	ss_json_write_string(f, s, maxlen);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

#define expect_jstr(in, maxlen, want)                          \
	do {                                                   \
		char *out_ = jstr(in, maxlen);                 \
		cr_expect_str_eq(out_, want, "input %s", #in); \
		free(out_);                                    \
	} while (0)

Test(json_string, quote_and_backslash)
{
	expect_jstr("a\"b", SIZE_MAX, "\"a\\\"b\"");
	expect_jstr("a\\b", SIZE_MAX, "\"a\\\\b\"");
	expect_jstr("/", SIZE_MAX, "\"/\"");
	expect_jstr("", SIZE_MAX, "\"\"");
}

Test(json_string, short_control_escapes)
{
	expect_jstr("a\nb", SIZE_MAX, "\"a\\nb\"");
	expect_jstr("\t\r\b\f", SIZE_MAX, "\"\\t\\r\\b\\f\"");
}

Test(json_string, other_control_bytes_and_del)
{
	expect_jstr("x\x01y", SIZE_MAX, "\"x\\u0001y\"");
	expect_jstr("\x1f", SIZE_MAX, "\"\\u001f\"");
	expect_jstr("\x0b", SIZE_MAX, "\"\\u000b\"");
	expect_jstr("a\x7f", SIZE_MAX, "\"a\\u007f\"");
}

Test(json_string, invalid_utf8_escaped)
{
	expect_jstr("a\xff", SIZE_MAX, "\"a\\u00ff\"");
	expect_jstr("\x80", SIZE_MAX, "\"\\u0080\"");
	/* overlong encodings of '/' and NUL */
	expect_jstr("\xc0\xaf", SIZE_MAX, "\"\\u00c0\\u00af\"");
	expect_jstr("\xe0\x80\xaf", SIZE_MAX, "\"\\u00e0\\u0080\\u00af\"");
	/* UTF-16 surrogate U+D800 */
	expect_jstr("\xed\xa0\x80", SIZE_MAX, "\"\\u00ed\\u00a0\\u0080\"");
	/* above U+10FFFF */
	expect_jstr("\xf4\x90\x80\x80", SIZE_MAX,
		    "\"\\u00f4\\u0090\\u0080\\u0080\"");
	/* lead byte followed by ASCII: only the lead byte is escaped */
	expect_jstr("\xc3x", SIZE_MAX, "\"\\u00c3x\"");
}

Test(json_string, valid_utf8_passes_through)
{
	/* U+00E9, U+20AC, U+1F600 and the extremes U+0080, U+10FFFF */
	expect_jstr("h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", SIZE_MAX,
		    "\"h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	expect_jstr("\xc2\x80\xf4\x8f\xbf\xbf", SIZE_MAX,
		    "\"\xc2\x80\xf4\x8f\xbf\xbf\"");
	expect_jstr("\xed\x9f\xbf", SIZE_MAX, "\"\xed\x9f\xbf\"");
}

Test(json_string, sequence_cut_by_maxlen_or_nul)
{
	/* a 2-byte sequence that maxlen cuts after its lead byte */
	expect_jstr("ab\xc3\xa9", 3, "\"ab\\u00c3\"");
	expect_jstr("\xe2\x82", SIZE_MAX, "\"\\u00e2\\u0082\"");
}

Test(json_string, maxlen_16_without_nul)
{
	struct {
		char comm[16];
		char after[8];
	} task;

	memcpy(task.comm, "0123456789abcdef", 16);
	memcpy(task.after, "OVERRUN", 8);
	expect_jstr(task.comm, sizeof(task.comm), "\"0123456789abcdef\"");
	/* NUL before maxlen ends the string */
	expect_jstr("kworker/0:1\0junk", 16, "\"kworker/0:1\"");
	expect_jstr("abc", 0, "\"\"");
}

Test(json_string, null_pointer_is_null)
{
	expect_jstr(NULL, 16, "null");
}

/* Run @fn on a fresh stream and return what it wrote. */
static char *capture(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	fn(f);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static void write_basic(FILE *f)
{
	struct ss_json_obj o;

	ss_json_begin(&o, f);
	ss_json_key_str(&o, "comm", "bash", 16);
	ss_json_key_u64(&o, "pid", 42);
	ss_json_key_null(&o, "cgroup");
	ss_json_end(&o);
}

Test(ss_json_obj, members_and_newline)
{
	char *out = capture(write_basic);

	cr_expect_str_eq(out,
			 "{\"comm\":\"bash\",\"pid\":42,\"cgroup\":null}\n");
	free(out);
}

static void write_empty(FILE *f)
{
	struct ss_json_obj o;

	ss_json_begin(&o, f);
	ss_json_end(&o);
	ss_json_begin(&o, f);
	ss_json_key_u64(&o, "a", 1);
	ss_json_end(&o);
	ss_json_begin(&o, f);
	ss_json_key_u64(&o, "b", 2);
	ss_json_end(&o);
}

Test(ss_json_obj, empty_object_then_reuse)
{
	char *out = capture(write_empty);

	cr_expect_str_eq(out, "{}\n{\"a\":1}\n{\"b\":2}\n");
	free(out);
}

static void write_extremes(FILE *f)
{
	struct ss_json_obj o;

	ss_json_begin(&o, f);
	ss_json_key_u64(&o, "umax", UINT64_MAX);
	ss_json_key_str(&o, "k\"ey\n", "v", 1);
	ss_json_end(&o);
}

Test(ss_json_obj, integer_extremes_and_escaped_key)
{
	char *out = capture(write_extremes);

	cr_expect_str_eq(out, "{\"umax\":18446744073709551615,"
			      "\"k\\\"ey\\n\":\"v\"}\n");
	free(out);
}

static void write_doubles(FILE *f)
{
	struct ss_json_obj o;

	ss_json_begin(&o, f);
	ss_json_key_double(&o, "a", 1.5, 3);
	ss_json_key_double(&o, "b", 2.4, 0);
	ss_json_key_double(&o, "c", -0.126, 2);
	ss_json_key_double(&o, "nan", NAN, 3);
	ss_json_key_double(&o, "inf", INFINITY, 3);
	ss_json_key_double(&o, "ninf", -INFINITY, 3);
	ss_json_key_double(&o, "neg_dec", 3.25, -1);
	ss_json_end(&o);
}

Test(ss_json_obj, doubles_nan_inf_null)
{
	char *out = capture(write_doubles);

	cr_expect_str_eq(out, "{\"a\":1.500,\"b\":2,\"c\":-0.13,\"nan\":null,"
			      "\"inf\":null,\"ninf\":null,\"neg_dec\":3}\n");
	free(out);
}

static void write_locale_double(FILE *f)
{
	struct ss_json_obj o;

	ss_json_begin(&o, f);
	ss_json_key_double(&o, "x", 1234.5, 2);
	ss_json_end(&o);
}

Test(ss_json_obj, double_ignores_comma_locale)
{
	char *out;

	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") &&
	    !setlocale(LC_NUMERIC, "de_DE.utf8") &&
	    !setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
		cr_skip_test("no locale with a ',' decimal point installed");
	cr_assert_str_eq(localeconv()->decimal_point, ",");
	out = capture(write_locale_double);
	setlocale(LC_NUMERIC, "C");
	cr_expect_str_eq(out, "{\"x\":1234.50}\n");
	free(out);
}

/* Objects with hostile strings for the round-trip through a real parser. */
static void write_roundtrip(FILE *f)
{
	unsigned char all[256];
	struct ss_json_obj o;
	int i;

	for (i = 0; i < 255; i++)
		all[i] = (unsigned char)(i + 1);
	all[255] = 0;

	ss_json_begin(&o, f);
	ss_json_key_str(&o, "q", "a\"b\\c\n", 64);
	ss_json_key_u64(&o, "u", UINT64_MAX);
	ss_json_end(&o);

	ss_json_begin(&o, f);
	ss_json_key_str(&o, "all", (const char *)all, sizeof(all));
	ss_json_key_double(&o, "d", 0.5, 6);
	ss_json_key_double(&o, "nan", NAN, 2);
	ss_json_end(&o);

	ss_json_begin(&o, f);
	ss_json_key_str(&o, "bad", "\xff\xfe\xc0\xaf\xed\xa0\x80\xf4\x90", 64);
	ss_json_key_str(&o, "good", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 64);
	ss_json_end(&o);

	ss_json_begin(&o, f);
	ss_json_end(&o);
}

/* Python checks: 4 lines, a few decoded values, the 255-byte string. */
#define PY_CHECK                                                           \
	"import json,sys\n"                                                \
	"o=[json.loads(l) for l in sys.stdin]\n"                           \
	"assert len(o)==4, len(o)\n"                                       \
	"assert o[0]=={'q':'a\"b\\\\c\\n','u':2**64-1}, o[0]\n"            \
	"a=o[1]['all']\n"                                                  \
	"assert len(a)==255 and a[:127]==''.join(map(chr,range(1,128)))\n" \
	"assert a[127:]==''.join(map(chr,range(128,256))), a[127:]\n"      \
	"assert o[1]['d']==0.5 and o[1]['nan'] is None\n"                  \
	"assert o[2]['good']=='\\u00e9\\u20ac\\U0001f600', o[2]\n"         \
	"assert o[3]=={}\n"

Test(ss_json_obj, roundtrip_through_python)
{
	FILE *p;
	int status;

	/* the script goes through the environment to avoid shell quoting */
	cr_assert_eq(setenv("PY_CHECK", PY_CHECK, 1), 0);
	/* strict UTF-8 decoding of stdin: invalid bytes raise an error */
	p = popen("PYTHONIOENCODING=utf-8:strict python3 -c \"$PY_CHECK\"",
		  "w");
	cr_assert_not_null(p);
	write_roundtrip(p);
	status = pclose(p);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "python3 rejected the output (status %d)", status);
}

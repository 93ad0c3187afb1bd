// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_prom.c - libFuzzer target for what the exporter takes from outside:
 * the input, split at the first NUL, is an Accept header and a label value
 * (a comm or cgroup path can hold any byte but NUL).  ss_prom_negotiate
 * must return one of the two formats; ss_prom_escape_label must write valid
 * UTF-8 with no raw newline, every backslash starting one of \\ \" \n and
 * every double quote escaped, so the value can never end its label early
 * or break the line.  A failed check aborts (a crash for libFuzzer).
 * Build: clang -fsanitize=fuzzer,address -Isrc tests/fuzz/fuzz_prom.c
 * src/output/prom_fmt.c src/opts.c src/model/events.c src/model/histkind.c (run_fuzz.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom_fmt.h"

static int valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len = c < 0x80		      ? 1
			     : c >= 0xc2 && c <= 0xdf ? 2
			     : c >= 0xe0 && c <= 0xef ? 3
			     : c >= 0xf0 && c <= 0xf4 ? 4
						      : 0;

		if (!len || i + len > n)
			return 0;
		for (size_t k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
		i += len;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *out = NULL;
	size_t len = 0, alen;
	enum ss_prom_format fmt;
	FILE *f;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	alen = strlen(buf);
	fmt = ss_prom_negotiate(buf);
	if (fmt != SS_PROM_TEXT && fmt != SS_PROM_OPENMETRICS)
		abort();
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	ss_prom_escape_label(f, alen < size ? buf + alen + 1 : buf);
	fclose(f);
	if (!valid_utf8((const unsigned char *)out, len) ||
	    memchr(out, '\n', len))
		abort();
	for (size_t i = 0; i < len; i++) {
		if (out[i] == '"')
			abort(); /* a quote not preceded by its backslash */
		if (out[i] == '\\') {
			if (i + 1 >= len || !strchr("\\\"n", out[i + 1]))
				abort();
			i++;
		}
	}
	free(out);
	free(buf);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * emit_csv.c - the CSV backend (RFC 4180): a header row of keys once, then
 * one row per record; null is an empty field, strings are quoted when they
 * hold a comma, quote, CR, LF or space.
 */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "format.h"

static bool csv_header_wanted(struct ss_emit *e)
{
	return !e->header_done;
}

static void csv_head(struct ss_emit *e, const struct ss_field *fd)
{
	if (e->nf++)
		ss_emit_putc(e, ',');
	ss_emit_puts(e, fd->key);
}

static void csv_begin(struct ss_emit *e, const char *type)
{
}

static void csv_str(struct ss_emit *e, const char *s, size_t maxlen)
{
	size_t n = strnlen(s, maxlen);

	if (!ss_csv_needs_quotes(s, n)) {
		ss_emit_put(e, s, n);
		return;
	}
	ss_emit_putc(e, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			ss_emit_putc(e, '"');
		ss_emit_putc(e, s[i]);
	}
	ss_emit_putc(e, '"');
}

static void csv_field(struct ss_emit *e, const struct ss_field *fd,
		      const struct ss_value *v)
{
	char buf[512];

	if (e->nf++)
		ss_emit_putc(e, ',');
	switch (v->kind) {
	case SS_VAL_U64:
		ss_emit_put_u64(e, v->u);
		break;
	case SS_VAL_DBL:
		snprintf(buf, sizeof(buf), "%.*f", fd->decimals, v->d);
		ss_emit_puts(e, buf);
		break;
	case SS_VAL_STR:
		csv_str(e, v->s, v->maxlen);
		break;
	case SS_VAL_TIME:
		ss_emit_put_epoch(e, v->u);
		break;
	case SS_VAL_NULL:
		break; /* empty field: not measured */
	}
}

static void csv_end(struct ss_emit *e)
{
	ss_emit_putc(e, '\n');
}

const struct ss_emit_backend ss_emit_csv = {
	.name = "csv",
	.header_wanted = csv_header_wanted,
	.head = csv_head,
	.begin = csv_begin,
	.field = csv_field,
	.end = csv_end,
};

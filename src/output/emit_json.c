// SPDX-License-Identifier: GPL-2.0
/*
 * emit_json.c - the NDJSON backend: one object per record and line,
 * "type" first, then "key":value per field; null where not measured.
 */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "json.h"

static bool json_header_wanted(struct ss_emit *e)
{
	return false;
}

static void json_head(struct ss_emit *e, const struct ss_field *fd)
{
}

/* a string: plain ASCII inline, anything else escaped by json.c */
static void json_str(struct ss_emit *e, const char *s, size_t maxlen)
{
	size_t n = strnlen(s, maxlen);

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\') {
			ss_emit_flush(e);
			ss_json_write_string(e->f, s, maxlen);
			return;
		}
	}
	ss_emit_putc(e, '"');
	ss_emit_put(e, s, n);
	ss_emit_putc(e, '"');
}

static void json_begin_rec(struct ss_emit *e, const char *type)
{
	ss_emit_putc(e, '{');
	if (!type)
		return;
	ss_emit_puts(e, "\"type\":");
	json_str(e, type, SIZE_MAX);
	e->nf = 1;
}

static void json_field(struct ss_emit *e, const struct ss_field *fd,
		       const struct ss_value *v)
{
	char buf[512];

	if (e->nf++)
		ss_emit_putc(e, ',');
	/* keys are plain identifiers: nothing to escape */
	ss_emit_putc(e, '"');
	ss_emit_puts(e, fd->key);
	ss_emit_put(e, "\":", 2);
	switch (v->kind) {
	case SS_VAL_U64:
		ss_emit_put_u64(e, v->u);
		break;
	case SS_VAL_DBL:
		ss_emit_put(e, buf,
			    ss_json_fmt_double(buf, sizeof(buf), v->d,
					       fd->decimals));
		break;
	case SS_VAL_STR:
		json_str(e, v->s, v->maxlen);
		break;
	case SS_VAL_TIME:
		ss_emit_put_epoch(e, v->u);
		break;
	case SS_VAL_NULL:
		ss_emit_puts(e, "null");
		break;
	}
}

static void json_end_rec(struct ss_emit *e)
{
	ss_emit_puts(e, "}\n");
}

const struct ss_emit_backend ss_emit_json = {
	.name = "json",
	.header_wanted = json_header_wanted,
	.head = json_head,
	.begin = json_begin_rec,
	.field = json_field,
	.end = json_end_rec,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * emit_none.c - the backend of -q: nothing reaches the stream (the
 * exporter serves the numbers); text beside the records goes to stderr.
 */
#include "emit.h"

static bool none_header_wanted(struct ss_emit *e)
{
	return false;
}

static void none_head(struct ss_emit *e, const struct ss_field *fd)
{
}

static void none_begin(struct ss_emit *e, const char *type)
{
}

static void none_field(struct ss_emit *e, const struct ss_field *fd,
		       const struct ss_value *v)
{
}

static void none_end(struct ss_emit *e)
{
}

const struct ss_emit_backend ss_emit_none = {
	.name = "none",
	.header_wanted = none_header_wanted,
	.head = none_head,
	.begin = none_begin,
	.field = none_field,
	.end = none_end,
};

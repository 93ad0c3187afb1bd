// SPDX-License-Identifier: GPL-2.0
/*
 * emit_table.c - the table backend: columns padded to their width (negative:
 * left-aligned) and separated by one space, as bcc's top-style tools print
 * them; fields without a header are not shown.
 */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "format.h"

#define CELL_LEN 64

static bool table_header_wanted(struct ss_emit *e)
{
	return true;
}

/* s (length k) in a field of width |w|: right-aligned, left if w < 0 */
static void pad(struct ss_emit *e, const char *s, size_t k, int w)
{
	static const char spaces[] = "                                ";
	size_t width = w < 0 ? (size_t)-w : (size_t)w;
	size_t n = width > k ? width - k : 0;

	for (size_t p = n; w > 0 && p; p -= p < 32 ? p : 32)
		ss_emit_put(e, spaces, p < 32 ? p : 32);
	ss_emit_put(e, s, k);
	for (size_t p = n; w < 0 && p; p -= p < 32 ? p : 32)
		ss_emit_put(e, spaces, p < 32 ? p : 32);
}

static void table_head(struct ss_emit *e, const struct ss_field *fd)
{
	if (!fd->head)
		return;
	if (e->nf++)
		ss_emit_putc(e, ' ');
	pad(e, fd->head, strlen(fd->head), fd->width);
}

static void table_begin(struct ss_emit *e, const char *type)
{
}

/* printable string; a longer one keeps its tail, the distinctive part */
static size_t str_text(const struct ss_field *fd, const struct ss_value *v,
		       char *buf)
{
	size_t n = strnlen(v->s, v->maxlen), w = fd->width < 0 ? -fd->width : 0;

	if (fd->tail && w > 3 && n > w && w < CELL_LEN) {
		memcpy(buf, "...", 3);
		return 3 + ss_printable(buf + 3, CELL_LEN - 3,
					v->s + n - (w - 3), w - 3);
	}
	if (fd->cut && w > 1 && n > w && w < CELL_LEN) {
		size_t k = ss_printable(buf, CELL_LEN - 1, v->s, w - 1);

		buf[k] = '+';
		return k + 1;
	}
	return ss_printable(buf, CELL_LEN, v->s, v->maxlen);
}

static size_t time_text(struct ss_emit *e, uint64_t real, char *buf)
{
	uint64_t us = real % 1000000000ULL / 1000;

	if (!e->wall_clock) /* before start (other CPUs' buffers): 0 */
		return ss_fixed_text(
			buf,
			(real > e->t0_real_ns ? real - e->t0_real_ns : 0) /
				1000,
			6);
	/* one localtime_r a second on the per-event path */
	if ((int64_t)(real / 1000000000ULL) != e->hms_sec) {
		e->hms_sec = real / 1000000000ULL;
		ss_fmt_hms(e->hms, real);
	}
	memcpy(buf, e->hms, 8);
	buf[8] = '.';
	for (int i = 14; i >= 9; i--) {
		buf[i] = '0' + us % 10;
		us /= 10;
	}
	return 15;
}

static size_t u64_text(const struct ss_field *fd, uint64_t u, char *buf)
{
	switch (fd->style) {
	case SS_TS_SI:
		ss_fmt_si(buf, CELL_LEN - 1, u);
		return strlen(buf);
	case SS_TS_DIV:
		return snprintf(buf, CELL_LEN, "%.*f", fd->table_decimals,
				(double)u / fd->table_div);
	case SS_TS_FIXED:
		return ss_fixed_text(buf, u, fd->table_decimals);
	case SS_TS_PLAIN:
		break;
	}
	return ss_u64_digits(buf, u);
}

static void table_field(struct ss_emit *e, const struct ss_field *fd,
			const struct ss_value *v)
{
	char buf[CELL_LEN + 1];
	size_t n = 0;

	if (!fd->head)
		return;
	if (e->nf++)
		ss_emit_putc(e, ' ');
	switch (v->kind) {
	case SS_VAL_NULL: {
		const char *na = fd->na ? fd->na : "n/a";

		pad(e, na, strlen(na), fd->width);
		return;
	}
	case SS_VAL_STR:
		n = str_text(fd, v, buf);
		break;
	case SS_VAL_U64:
		n = u64_text(fd, v->u, buf);
		break;
	case SS_VAL_DBL:
		n = snprintf(buf, CELL_LEN, "%.*f", fd->table_decimals, v->d);
		if (n >= CELL_LEN)
			n = CELL_LEN - 1;
		break;
	case SS_VAL_TIME:
		n = time_text(e, v->u, buf);
		break;
	}
	if (v->mark && n + 1 < CELL_LEN)
		buf[n++] = '*';
	pad(e, buf, n, fd->width);
}

static void table_end(struct ss_emit *e)
{
	ss_emit_putc(e, '\n');
}

const struct ss_emit_backend ss_emit_table = {
	.name = "table",
	.header_wanted = table_header_wanted,
	.head = table_head,
	.begin = table_begin,
	.field = table_field,
	.end = table_end,
};

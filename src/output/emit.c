// SPDX-License-Identifier: GPL-2.0
/* emit.c - records to a stream in one format (emit.h); backends: emit_*.c */
#include "emit.h"

#include <stdarg.h>
#include <string.h>

#include "format.h"
#include "options.h"

static const struct ss_emit_backend *const backends[SS_FMT_MAX] = {
	[SS_FMT_TABLE] = &ss_emit_table,
	[SS_FMT_CSV] = &ss_emit_csv,
	[SS_FMT_JSON] = &ss_emit_json,
	[SS_FMT_NONE] = &ss_emit_none,
};

/* ss_format_of - see emit.h */
enum ss_format ss_format_of(const struct ss_opts *o)
{
	if (o->quiet)
		return SS_FMT_NONE;
	if (o->csv)
		return SS_FMT_CSV;
	if (o->json)
		return SS_FMT_JSON;
	return SS_FMT_TABLE;
}

/* ss_format_name - see emit.h */
const char *ss_format_name(enum ss_format fmt)
{
	return fmt < SS_FMT_MAX ? backends[fmt]->name : "?";
}

/* ss_emit_init - see emit.h */
void ss_emit_init(struct ss_emit *e, FILE *f, enum ss_format fmt)
{
	memset(e, 0, sizeof(*e));
	e->f = f;
	e->fmt = fmt < SS_FMT_MAX ? fmt : SS_FMT_TABLE;
	e->be = backends[e->fmt];
	e->hms_sec = -1;
}

/* ss_emit_set_clock - see emit.h */
void ss_emit_set_clock(struct ss_emit *e, uint64_t t0_real_ns, bool wall_clock)
{
	e->t0_real_ns = t0_real_ns;
	e->wall_clock = wall_clock;
}

/* ss_emit_flush - see emit.h */
void ss_emit_flush(struct ss_emit *e)
{
	if (e->n)
		fwrite(e->b, 1, e->n, e->f);
	e->n = 0;
}

/* ss_emit_put_long - see emit.h */
void ss_emit_put_long(struct ss_emit *e, const char *s, size_t k)
{
	ss_emit_flush(e);
	if (k > sizeof(e->b)) {
		fwrite(s, 1, k, e->f);
		return;
	}
	memcpy(e->b, s, k);
	e->n = k;
}

/* ss_emit_put_u64 - see emit.h */
void ss_emit_put_u64(struct ss_emit *e, uint64_t v)
{
	char buf[24];

	ss_emit_put(e, buf, ss_u64_digits(buf, v));
}

/* ss_emit_put_epoch - see emit.h */
void ss_emit_put_epoch(struct ss_emit *e, uint64_t realtime_ns)
{
	char buf[32];

	ss_emit_put(e, buf, ss_fixed_text(buf, realtime_ns / 1000, 6));
}

/* ss_emit_begin_header - see emit.h */
bool ss_emit_begin_header(struct ss_emit *e)
{
	if (!e->be->header_wanted(e))
		return false;
	e->in_header = true;
	e->nf = 0;
	return true;
}

/* ss_emit_reset_header - see emit.h */
void ss_emit_reset_header(struct ss_emit *e)
{
	e->header_done = false;
}

/* ss_emit_head - see emit.h */
void ss_emit_head(struct ss_emit *e, const struct ss_field *fd)
{
	e->be->head(e, fd);
}

/* ss_emit_begin - see emit.h */
void ss_emit_begin(struct ss_emit *e, const char *type)
{
	e->nf = 0;
	e->in_header = false;
	e->be->begin(e, type);
}

/* ss_emit_field - see emit.h */
void ss_emit_field(struct ss_emit *e, const struct ss_field *fd,
		   const struct ss_value *v)
{
	e->be->field(e, fd, v);
}

/* ss_emit_u64 - see emit.h */
void ss_emit_u64(struct ss_emit *e, const struct ss_field *fd, uint64_t v)
{
	struct ss_value val = { .kind = SS_VAL_U64, .u = v };

	e->be->field(e, fd, &val);
}

/* ss_emit_str - see emit.h */
void ss_emit_str(struct ss_emit *e, const struct ss_field *fd, const char *s,
		 size_t maxlen)
{
	struct ss_value val = { .kind = s ? SS_VAL_STR : SS_VAL_NULL,
				.s = s,
				.maxlen = maxlen };

	e->be->field(e, fd, &val);
}

/* ss_emit_double - see emit.h */
void ss_emit_double(struct ss_emit *e, const struct ss_field *fd, double v)
{
	struct ss_value val = { .kind = SS_VAL_DBL, .d = v };

	e->be->field(e, fd, &val);
}

/* ss_emit_null - see emit.h */
void ss_emit_null(struct ss_emit *e, const struct ss_field *fd)
{
	struct ss_value val = { .kind = SS_VAL_NULL };

	e->be->field(e, fd, &val);
}

/* ss_emit_time - see emit.h */
void ss_emit_time(struct ss_emit *e, const struct ss_field *fd,
		  uint64_t realtime_ns)
{
	struct ss_value val = { .kind = SS_VAL_TIME, .u = realtime_ns };

	e->be->field(e, fd, &val);
}

/* ss_emit_end - see emit.h */
void ss_emit_end(struct ss_emit *e)
{
	if (e->in_header) {
		ss_emit_putc(e, '\n');
		e->header_done = true;
		e->in_header = false;
	} else {
		e->be->end(e);
	}
	ss_emit_flush(e);
}

/* ss_emit_raw - see emit.h */
void ss_emit_raw(struct ss_emit *e, const char *s)
{
	if (e->fmt == SS_FMT_NONE)
		return;
	ss_emit_flush(e);
	fputs(s, e->f);
}

/* ss_emit_timestamp - see emit.h */
void ss_emit_timestamp(struct ss_emit *e, uint64_t realtime_ns)
{
	char hms[16];

	if (e->fmt != SS_FMT_TABLE)
		return;
	ss_fmt_hms(hms, realtime_ns);
	ss_emit_put(e, hms, 8);
	ss_emit_putc(e, '\n');
	ss_emit_flush(e);
}

/* ss_emit_aside - see emit.h */
FILE *ss_emit_aside(const struct ss_emit *e)
{
	return e->fmt == SS_FMT_TABLE ? e->f : stderr;
}

/* ss_emit_banner - see emit.h */
void ss_emit_banner(struct ss_emit *e, const char *line, int gap)
{
	FILE *f = ss_emit_aside(e);

	ss_emit_flush(e);
	fprintf(f, "%s\n", line);
	for (int i = 0; f == e->f && i < gap; i++)
		fputc('\n', f);
	fflush(f);
	if (f != e->f)
		fflush(e->f);
}

/* ss_diag - see emit.h */
void ss_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("switchstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ss_diag_raw - see emit.h */
void ss_diag_raw(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * prom_fmt.c - Prometheus text 0.0.4 and OpenMetrics 1.0 writer, Accept
 * negotiation.
 */
#include "prom_fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ss_prom_init - see prom_fmt.h */
void ss_prom_init(struct ss_prom *p, FILE *f, enum ss_prom_format fmt)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->fmt = fmt;
}

static const char *type_suffix(enum ss_prom_type t)
{
	switch (t) {
	case SS_PROM_COUNTER:
		return "_total";
	case SS_PROM_INFO:
		return "_info";
	default:
		return "";
	}
}

static const char *type_name(enum ss_prom_type t, enum ss_prom_format fmt)
{
	switch (t) {
	case SS_PROM_COUNTER:
		return "counter";
	case SS_PROM_HISTOGRAM:
		return "histogram";
	case SS_PROM_INFO:
		return fmt == SS_PROM_OPENMETRICS ? "info" : "gauge";
	default:
		return "gauge";
	}
}

/* ss_prom_escape_help - see prom_fmt.h */
void ss_prom_escape_help(FILE *f, const char *s, enum ss_prom_format fmt)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && fmt == SS_PROM_OPENMETRICS)
			fputs("\\\"", f);
		else
			fputc(*s, f);
	}
}

/* ss_prom_family - see prom_fmt.h */
void ss_prom_family(struct ss_prom *p, const char *name, enum ss_prom_type type,
		    const char *help, const char *unit)
{
	const char *sfx = p->fmt == SS_PROM_TEXT ? type_suffix(type) : "";

	p->type = type;
	snprintf(p->name, sizeof(p->name), "%s", name);
	fprintf(p->f, "# HELP %s%s ", name, sfx);
	ss_prom_escape_help(p->f, help, p->fmt);
	fprintf(p->f, "\n# TYPE %s%s %s\n", name, sfx, type_name(type, p->fmt));
	if (unit && p->fmt == SS_PROM_OPENMETRICS)
		fprintf(p->f, "# UNIT %s %s\n", name, unit);
}

/* Length of the valid UTF-8 sequence at s, or 0 if it is not valid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* ss_prom_escape_label - see prom_fmt.h */
void ss_prom_escape_label(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");

	while (*u) {
		size_t n = utf8_len(u);

		if (n == 0) {
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			u++;
		} else if (*u == '\\') {
			fputs("\\\\", f);
			u++;
		} else if (*u == '"') {
			fputs("\\\"", f);
			u++;
		} else if (*u == '\n') {
			fputs("\\n", f);
			u++;
		} else {
			fwrite(u, 1, n, f);
			u += n;
		}
	}
}

static void write_labels(FILE *f, const struct ss_prom_label *l, size_t n,
			 const char *le)
{
	if (!n && !le)
		return;
	fputc('{', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "", l[i].name);
		ss_prom_escape_label(f, l[i].value);
		fputc('"', f);
	}
	if (le)
		fprintf(f, "%sle=\"%s\"", n ? "," : "", le);
	fputc('}', f);
}

/* ss_prom_sample - see prom_fmt.h */
void ss_prom_sample(struct ss_prom *p, const struct ss_prom_label *labels,
		    size_t nlabels, const char *value)
{
	fprintf(p->f, "%s%s", p->name, type_suffix(p->type));
	write_labels(p->f, labels, nlabels, NULL);
	fprintf(p->f, " %s\n", value);
}

/* ss_prom_u64 - see prom_fmt.h */
char *ss_prom_u64(char *buf, uint64_t v)
{
	snprintf(buf, SS_PROM_VAL_LEN, "%llu", (unsigned long long)v);
	return buf;
}

/* ss_prom_ns_seconds - see prom_fmt.h */
char *ss_prom_ns_seconds(char *buf, uint64_t ns)
{
	snprintf(buf, SS_PROM_VAL_LEN, "%llu.%09llu",
		 (unsigned long long)(ns / 1000000000ULL),
		 (unsigned long long)(ns % 1000000000ULL));
	return buf;
}

/* ss_prom_double - see prom_fmt.h */
char *ss_prom_double(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, SS_PROM_VAL_LEN, "NaN");
	else if (isinf(v))
		snprintf(buf, SS_PROM_VAL_LEN, "%s", v > 0 ? "+Inf" : "-Inf");
	else
		snprintf(buf, SS_PROM_VAL_LEN, "%.15g", v);
	return buf;
}

/* ns as seconds without trailing zeros, at least one decimal: 0.000002 */
static char *le_text(char *buf, uint64_t ns)
{
	size_t len;

	ss_prom_ns_seconds(buf, ns);
	len = strlen(buf);
	while (len > 2 && buf[len - 1] == '0' && buf[len - 2] != '.')
		buf[--len] = '\0';
	return buf;
}

/* ss_prom_histogram - see prom_fmt.h */
void ss_prom_histogram(struct ss_prom *p, const struct ss_prom_label *labels,
		       size_t nlabels, const uint64_t *slots, size_t nslots,
		       uint64_t unit_ns)
{
	char le[SS_PROM_VAL_LEN], val[SS_PROM_VAL_LEN];
	uint64_t cum = 0;
	double sum_ns = 0;

	for (size_t k = 0; k < nslots; k++) {
		double mid = k == 0 ? 1.0 : (double)(1ULL << k) * 1.5;

		if (k + 1 == nslots && k > 0)
			mid = (double)(1ULL << k);
		cum += slots[k];
		sum_ns += (double)slots[k] * mid * (double)unit_ns;
		if (k + 1 == nslots)
			break; /* the clamping slot: only in +Inf */
		le_text(le, (2ULL << k) * unit_ns);
		fprintf(p->f, "%s_bucket", p->name);
		write_labels(p->f, labels, nlabels, le);
		fprintf(p->f, " %s\n", ss_prom_u64(val, cum));
	}
	fprintf(p->f, "%s_bucket", p->name);
	write_labels(p->f, labels, nlabels, "+Inf");
	fprintf(p->f, " %s\n", ss_prom_u64(val, cum));
	fprintf(p->f, "%s_sum", p->name);
	write_labels(p->f, labels, nlabels, NULL);
	fprintf(p->f, " %s\n", ss_prom_double(val, sum_ns / 1e9));
	fprintf(p->f, "%s_count", p->name);
	write_labels(p->f, labels, nlabels, NULL);
	fprintf(p->f, " %s\n", ss_prom_u64(val, cum));
}

/* ss_prom_end - see prom_fmt.h */
void ss_prom_end(struct ss_prom *p)
{
	if (p->fmt == SS_PROM_OPENMETRICS)
		fputs("# EOF\n", p->f);
	fflush(p->f);
}

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

static size_t trim_len(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

static bool token_is(const char *s, size_t n, const char *want)
{
	return n == strlen(want) && !strncasecmp(s, want, n);
}

/*
 * Weigh one media range [s, end): sets *fmt and returns its q (0..1), or
 * -1 if we cannot serve it.
 */
static double weigh_range(const char *s, const char *end,
			  enum ss_prom_format *fmt)
{
	const char *semi = memchr(s, ';', end - s);
	const char *type_end = semi ? semi : end;
	size_t tlen;
	double q = 1.0;
	char version[16] = "";
	bool om;

	s = skip_ws(s, end);
	tlen = trim_len(s, type_end - s);
	if (token_is(s, tlen, "application/openmetrics-text"))
		om = true;
	else if (token_is(s, tlen, "text/plain") ||
		 token_is(s, tlen, "text/*") || token_is(s, tlen, "*/*"))
		om = false;
	else
		return -1;
	for (const char *p = semi; p && p < end;) {
		const char *next = memchr(p + 1, ';', end - p - 1);
		const char *pend = next ? next : end;
		const char *k = skip_ws(p + 1, pend);
		const char *eq = memchr(k, '=', pend - k);

		if (eq) {
			size_t klen = trim_len(k, eq - k);
			const char *v = skip_ws(eq + 1, pend);
			size_t vlen = trim_len(v, pend - v);

			if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
				v++;
				vlen -= 2;
			}
			if (token_is(k, klen, "q")) {
				char num[16];

				snprintf(num, sizeof(num), "%.*s",
					 (int)(vlen < 15 ? vlen : 15), v);
				q = strtod(num, NULL);
				if (!(q >= 0 && q <= 1))
					q = 0;
			} else if (token_is(k, klen, "version")) {
				snprintf(version, sizeof(version), "%.*s",
					 (int)(vlen < 15 ? vlen : 15), v);
			}
		}
		p = next;
	}
	if (om && version[0] && strcmp(version, "1.0.0") &&
	    strcmp(version, "0.0.1"))
		return -1;
	if (!om && version[0] && strcmp(version, "0.0.4"))
		return -1;
	*fmt = om ? SS_PROM_OPENMETRICS : SS_PROM_TEXT;
	return q;
}

/* ss_prom_negotiate - see prom_fmt.h */
enum ss_prom_format ss_prom_negotiate(const char *accept)
{
	enum ss_prom_format best = SS_PROM_TEXT;
	double best_q = 0;

	if (!accept)
		return SS_PROM_TEXT;
	for (const char *s = accept; *s;) {
		const char *comma = strchr(s, ',');
		const char *end = comma ? comma : s + strlen(s);
		enum ss_prom_format f = SS_PROM_TEXT;
		double q = weigh_range(s, end, &f);

		if (q > 0 &&
		    (q > best_q || (q == best_q && f == SS_PROM_OPENMETRICS))) {
			best_q = q;
			best = f;
		}
		if (!comma)
			break;
		s = comma + 1;
	}
	return best;
}

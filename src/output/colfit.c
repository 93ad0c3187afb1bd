// SPDX-License-Identifier: GPL-2.0
/* colfit.c - abbreviate and drop table columns to fit a width (colfit.h) */
#include "colfit.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int line_width(const struct ss_fit_col *c, int n,
		      const struct ss_fit_out *out)
{
	int w = 0, shown = 0;

	for (int i = 0; i < n; i++) {
		if (!out[i].shown)
			continue;
		w += out[i].abbreviated ? c[i].short_width : c[i].width;
		shown++;
	}
	return w + (shown > 1 ? shown - 1 : 0);
}

/*
 * The next column to act on: of those @ok accepts, the highest rank
 * (@lowest: the lowest), rightmost among equals (@lowest: leftmost).
 * -1 if none.
 */
static int pick(const struct ss_fit_col *c, int n, const struct ss_fit_out *out,
		bool lowest,
		bool (*ok)(const struct ss_fit_col *,
			   const struct ss_fit_out *))
{
	int best = -1;

	for (int i = 0; i < n; i++) {
		if (!ok(&c[i], &out[i]))
			continue;
		if (best < 0 || (lowest ? c[i].drop < c[best].drop
					: c[i].drop >= c[best].drop))
			best = i;
	}
	return best;
}

static bool can_abbreviate(const struct ss_fit_col *c,
			   const struct ss_fit_out *o)
{
	return o->shown && !o->abbreviated && c->short_width > 0 &&
	       c->short_width < c->width;
}

static bool can_drop(const struct ss_fit_col *c, const struct ss_fit_out *o)
{
	return o->shown && c->drop > 0;
}

static bool is_abbreviated(const struct ss_fit_col *c,
			   const struct ss_fit_out *o)
{
	return o->shown && o->abbreviated;
}

/* ss_fit_columns - see colfit.h */
int ss_fit_columns(const struct ss_fit_col *c, int n, int max,
		   struct ss_fit_out *out)
{
	int i;

	for (i = 0; i < n; i++) {
		out[i].shown = true;
		out[i].abbreviated = false;
	}
	if (max <= 0)
		return line_width(c, n, out);
	while (line_width(c, n, out) > max &&
	       (i = pick(c, n, out, false, can_abbreviate)) >= 0)
		out[i].abbreviated = true;
	while (line_width(c, n, out) > max &&
	       (i = pick(c, n, out, false, can_drop)) >= 0)
		out[i].shown = false;
	/* room left after a drop: whole columns again where they fit */
	for (;;) {
		i = pick(c, n, out, true, is_abbreviated);
		if (i < 0)
			break;
		out[i].abbreviated = false;
		if (line_width(c, n, out) > max) {
			out[i].abbreviated = true;
			break;
		}
	}
	return line_width(c, n, out);
}

/* ss_table_width - see colfit.h */
int ss_table_width(FILE *f)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	int fd = fileno(f);

	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*end && v > 0 && v < 100000)
			return (int)v;
	}
	return 0;
}

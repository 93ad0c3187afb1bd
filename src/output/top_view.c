// SPDX-License-Identifier: GPL-2.0
/*
 * top_view.c - the --top view (top_view.h): ncurses, the rows as the table
 * backend formats them, a two-line header, keys.
 */
#define _GNU_SOURCE
#include "top_view.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <ncurses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <term.h> /* tigetstr; its capability macros are not used: */
#undef lines
#include <termios.h>
#include <unistd.h>

#include "format.h"

#define MAX_INTERVAL_MS 86400000

const char ss_top_help_text[] =
	"Keys:\n"
	"  < >       sort by the column left / right of the current one\n"
	"  o s v i n sort by ONCPU(ms) (= %CPU), SWITCH, VOL, INVOL, PID\n"
	"  H         threads on/off (needs -L at start; off sums threads)\n"
	"  g         group by cgroup on/off (as -G)\n"
	"  c         counter columns on/off\n"
	"  Up Down   select a row (PgUp PgDn Home End)\n"
	"  r         histogram pane of the selected row (--hist runq -P)\n"
	"  b         noisy-neighbours pane: victims by the delay others\n"
	"            caused them, with their top culprits (--blame)\n"
	"  /         filter: a pid or tid, or text in comm; empty: all\n"
	"  space     pause / resume the display (collection goes on)\n"
	"  + -       interval x2 / /2 (not below -i: its checkpoints)\n"
	"  h ?       this help (any key closes it)\n"
	"  q         quit (also Ctrl-C, SIGTERM)\n";

/* sort keys in column order, for < and > */
static const enum ss_sort_key sort_order[] = {
	SS_SORT_PID,	     SS_SORT_SWITCHES, SS_SORT_VOLUNTARY,
	SS_SORT_INVOLUNTARY, SS_SORT_ONCPU,
};

static const char *sort_key_col(enum ss_sort_key k)
{
	switch (k) {
	case SS_SORT_PID:
		return "pid";
	case SS_SORT_SWITCHES:
		return "switches";
	case SS_SORT_VOLUNTARY:
		return "voluntary";
	case SS_SORT_INVOLUNTARY:
		return "involuntary";
	case SS_SORT_ONCPU:
		break;
	}
	return "oncpu_ns";
}

/* ss_top_check_terminal - see top_view.h */
int ss_top_check_terminal(bool records_on_stdout, char *err, size_t len)
{
	const char *term = getenv("TERM");
	int fd;

	if (!term || !*term || !strcmp(term, "dumb")) {
		snprintf(err, len,
			 "--top needs a terminal that can address the "
			 "cursor: TERM is %s",
			 term && *term ? "dumb" : "unset");
		return -1;
	}
	/* a terminal type without a terminfo entry: now, not after compiling */
	if (setupterm((char *)term, -1, &fd) != OK) {
		snprintf(err, len,
			 "--top: terminal type '%s' has no terminfo entry",
			 term);
		return -1;
	}
	del_curterm(cur_term);
	if (!records_on_stdout) {
		if (!isatty(STDOUT_FILENO)) {
			snprintf(err, len,
				 "--top needs a terminal: stdout is not a tty "
				 "(for a file use --csv or --json without "
				 "--top)");
			return -1;
		}
		return 0;
	}
	if (isatty(STDOUT_FILENO)) {
		snprintf(err, len,
			 "--top with --csv/--json writes the records to "
			 "stdout: redirect it to a file (the view uses "
			 "/dev/tty)");
		return -1;
	}
	fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "--top needs a terminal: /dev/tty: %s",
			 strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* the view's columns from vo and the counter toggle */
static void init_columns(struct ss_top *t)
{
	t->out = t->tmpl;
	t->out.o = &t->vo;
	t->out.fmt = SS_FMT_TABLE;
	t->out.max_width = 0; /* whole columns that fit are drawn */
	if (!t->counters)
		t->out.nr_counters = 0;
	ss_out_init(&t->out);
}

static struct ss_top *atexit_view;

/*
 * A crash while the view is up: put the terminal's modes back with what is
 * async-signal-safe (tcsetattr, write: the termios and the terminfo
 * strings saved at open), then die of the signal as before.
 */
static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define N_CRASH (sizeof(crash_sigs) / sizeof(crash_sigs[0]))
static struct sigaction crash_old[N_CRASH];
static struct termios crash_tio;
static int crash_fd = -1;
static char crash_seq[64]; /* rmcup, cnorm, sgr0 */
static size_t crash_seq_len;

static void on_crash(int sig)
{
	if (crash_fd >= 0) {
		tcsetattr(crash_fd, TCSANOW, &crash_tio);
		if (write(crash_fd, crash_seq, crash_seq_len) < 0)
			crash_fd = -1;
	}
	raise(sig); /* SA_RESETHAND: the default action now */
}

static void add_seq(const char *cap)
{
	char *v = tigetstr((char *)cap);
	size_t n;

	if (!v || v == (char *)-1)
		return;
	n = strlen(v);
	if (crash_seq_len + n < sizeof(crash_seq)) {
		memcpy(crash_seq + crash_seq_len, v, n);
		crash_seq_len += n;
	}
}

static void crash_handlers(bool on, int fd)
{
	struct sigaction sa = { .sa_handler = on_crash,
				.sa_flags = SA_RESETHAND | SA_NODEFER };

	if (on) {
		crash_fd = fd;
		crash_seq_len = 0;
		add_seq("sgr0");
		add_seq("cnorm");
		add_seq("rmcup");
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < N_CRASH; i++)
			sigaction(crash_sigs[i], &sa, &crash_old[i]);
		return;
	}
	if (crash_fd < 0)
		return; /* never installed */
	for (size_t i = 0; i < N_CRASH; i++)
		sigaction(crash_sigs[i], &crash_old[i], NULL);
	crash_fd = -1;
}

static void restore_at_exit(void)
{
	if (atexit_view)
		ss_top_close(atexit_view);
}

/* ss_top_open - see top_view.h */
int ss_top_open(struct ss_top *t, const struct ss_opts *o,
		const struct ss_out *out_tmpl, bool records_on_stdout,
		char *err, size_t len)
{
	static bool registered;
	FILE *in = stdin, *outf = stdout;
	struct termios tio;
	bool have_tio;
	SCREEN *scr;

	memset(t, 0, sizeof(*t));
	t->o = o;
	t->vo = *o;
	t->vo.top = 0; /* every row: the screen shows what fits */
	t->vo.timestamp = false;
	t->tmpl = *out_tmpl;
	t->counters = true;
	t->interval_ms = o->interval_ms;
	t->hist_on = o->hist != 0;
	init_columns(t);

	if (records_on_stdout) {
		t->tty = fopen("/dev/tty", "r+e");
		if (!t->tty) {
			snprintf(err, len, "/dev/tty: %s", strerror(errno));
			return -1;
		}
		in = outf = t->tty;
	}
	setlocale(LC_ALL, "");
	have_tio = !tcgetattr(fileno(outf), &tio);
	scr = newterm(NULL, outf, in);
	if (!scr) {
		snprintf(err, len, "--top: cannot use terminal type '%s'",
			 getenv("TERM") ? getenv("TERM") : "");
		if (t->tty)
			fclose(t->tty);
		t->tty = NULL;
		return -1;
	}
	t->screen = scr;
	t->in_fd = fileno(in);
	t->active = true;
	atexit_view = t;
	if (!registered)
		atexit(restore_at_exit);
	registered = true;
	set_escdelay(25);
	cbreak(); /* Ctrl-C stays SIGINT */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	if (have_tio) {
		crash_tio = tio;
		crash_handlers(true, fileno(outf));
	}
	return 0;
}

/* ss_top_close - see top_view.h */
void ss_top_close(struct ss_top *t)
{
	if (t->active) {
		crash_handlers(false, -1);
		endwin();
		delscreen(t->screen);
		t->screen = NULL;
		t->active = false;
		if (t->tty)
			fclose(t->tty);
		t->tty = NULL;
		atexit_view = NULL;
	}
	ss_rows_free(&t->snap);
	ss_rows_free(&t->shown);
	free(t->hist);
	free(t->noisy);
	t->noisy = NULL;
	t->hist = NULL;
	t->hist_n = t->hist_cap = 0;
	free(t->lines);
	free(t->text);
	t->lines = NULL;
	t->text = NULL;
	t->lines_n = 0;
}

static int copy_rows(struct ss_interval *d, const struct ss_interval *s)
{
	ss_rows_reset(d);
	for (size_t i = 0; i < s->n; i++)
		if (ss_rows_push(d, &s->rows[i].key, &s->rows[i].v))
			return -ENOMEM;
	memcpy(d->stats, s->stats, sizeof(d->stats));
	d->interval_ns = s->interval_ns;
	d->end_realtime_ns = s->end_realtime_ns;
	d->ncpus = s->ncpus;
	d->ncpus_possible = s->ncpus_possible;
	d->idle_ns = NULL;
	return 0;
}

/* a filter of digits is a pid or tid, else text in comm */
static bool row_matches(const struct ss_top *t, const struct ss_row *r)
{
	char comm[SS_COMM_LEN + 1];
	const char *f = t->filter;
	char *end;
	unsigned long id;

	if (!*f)
		return true;
	if (isdigit((unsigned char)*f)) {
		id = strtoul(f, &end, 10);
		if (!*end)
			return r->key.tgid == id || r->key.tid == id;
	}
	memcpy(comm, r->v.comm, SS_COMM_LEN);
	comm[SS_COMM_LEN] = '\0';
	return strstr(comm, f) != NULL;
}

/* shown: snap filtered, merged as the view asks, sorted; then its text */
static int derive(struct ss_top *t)
{
	FILE *mem;
	size_t n = 0, cap = 0;
	char *p;

	if (copy_rows(&t->shown, &t->snap))
		return -ENOMEM;
	for (size_t i = 0; i < t->shown.n; i++)
		if (row_matches(t, &t->shown.rows[i]))
			t->shown.rows[n++] = t->shown.rows[i];
	t->shown.n = n;
	if (t->o->per_thread && !t->vo.per_thread)
		ss_rows_merge_by_process(&t->shown);
	if (t->vo.per_cgroup && !t->o->per_cgroup)
		ss_rows_merge_by_cgroup(&t->shown);
	ss_rows_sort(&t->shown, t->vo.sort);

	free(t->text);
	t->text = NULL;
	t->text_len = 0;
	mem = open_memstream(&t->text, &t->text_len);
	if (!mem)
		return -ENOMEM;
	ss_emit_reset_header(&t->out.e);
	ss_out_interval(&t->out, mem, &t->shown);
	if (fclose(mem) || !t->text)
		return -ENOMEM;
	/* header, then one line per row (the table's blank line ends it) */
	t->lines_n = 0;
	for (p = t->text; *p; p++) {
		if (t->lines_n == cap) {
			char **l;

			cap = cap ? cap * 2 : 64;
			l = realloc(t->lines, cap * sizeof(*l));
			if (!l)
				return -ENOMEM;
			t->lines = l;
		}
		t->lines[t->lines_n++] = p;
		p = strchrnul(p, '\n');
		if (!*p)
			break;
		*p = '\0';
	}
	if (t->lines_n > t->shown.n + 1)
		t->lines_n = t->shown.n + 1;
	return 0;
}

/* ss_top_update - see top_view.h */
int ss_top_update(struct ss_top *t, const struct ss_interval *iv,
		  const struct ss_hist_rec *hist, size_t nhist, bool ms,
		  int hist_per)
{
	if (t->paused && t->have_snap)
		return 0;
	if (copy_rows(&t->snap, iv))
		return -ENOMEM;
	t->have_snap = true;
	if (nhist > t->hist_cap) {
		struct ss_hist_rec *h = realloc(t->hist, nhist * sizeof(*h));

		if (!h)
			return -ENOMEM;
		t->hist = h;
		t->hist_cap = nhist;
	}
	if (nhist)
		memcpy(t->hist, hist, nhist * sizeof(*hist));
	t->hist_n = nhist;
	t->hist_fmt.per = hist_per;
	t->hist_fmt.ms = ms;
	return derive(t);
}

/* ss_top_set_noisy - see top_view.h */
int ss_top_set_noisy(struct ss_top *t, const char *text)
{
	char *copy;

	if (t->paused && t->noisy)
		return 0;
	copy = strdup(text ? text : "");
	if (!copy)
		return -ENOMEM;
	free(t->noisy);
	t->noisy = copy;
	return 0;
}

/* x offset and width of the table column keyed @key, -1: not shown */
static int column_x(const struct ss_top *t, const char *key, int *width)
{
	int x = 0;

	for (int i = 0; i < t->out.ncols; i++) {
		const struct ss_field *fd = &t->out.cols[i].fd;
		int w = fd->width < 0 ? -fd->width : fd->width;

		if (!fd->head)
			continue;
		if (!strcmp(fd->key, key)) {
			*width = w;
			return x;
		}
		x += w + 1;
	}
	return -1;
}

static const char *sort_head(const struct ss_top *t)
{
	const char *key = sort_key_col(t->vo.sort);

	for (int i = 0; i < t->out.ncols; i++)
		if (t->out.cols[i].fd.head &&
		    !strcmp(t->out.cols[i].fd.key, key))
			return t->out.cols[i].fd.head;
	return key;
}

/* status segments flow over lines: a group starts a line, wraps at COLS */
struct flow {
	int y, x;
};

static void flow_seg(struct flow *f, bool group, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void flow_seg(struct flow *f, bool group, const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (f->x && (group || f->x + 2 + n > COLS)) {
		f->y++;
		f->x = 0;
	}
	if (f->x) {
		mvaddstr(f->y, f->x, "  ");
		f->x += 2;
	}
	mvaddnstr(f->y, f->x, buf, COLS - f->x > 0 ? COLS - f->x : 0);
	f->x += n;
}

/* the status lines; returns the first line after them */
static int draw_status(struct ss_top *t)
{
	const struct ss_interval *iv = &t->snap;
	uint64_t vol = 0, invol = 0, idle = iv->stats[SS_STAT_IDLE_NS];
	double s = iv->interval_ns / 1e9, busy = 0;
	char hms[16] = "--:--:--";
	struct flow f = { 0, 0 };

	for (size_t i = 0; i < iv->n; i++) {
		if (!iv->rows[i].key.tgid && !iv->rows[i].key.tid &&
		    !iv->rows[i].v.cgroup_id)
			continue; /* --idle's swapper rows */
		vol += iv->rows[i].v.voluntary;
		invol += iv->rows[i].v.involuntary;
	}
	if (iv->interval_ns && (uint64_t)iv->ncpus * iv->interval_ns > idle)
		busy = ((double)iv->ncpus * iv->interval_ns - idle) /
		       iv->interval_ns;
	if (t->have_snap)
		ss_fmt_hms(hms, iv->end_realtime_ns);
	if (s <= 0)
		s = 1;
	flow_seg(&f, true, "switchstat %s", hms);
	flow_seg(&f, false, "interval %" PRIu64 " ms", t->interval_ms);
	flow_seg(&f, false, "switches/s %.0f (vol %.0f, invol %.0f)",
		 (vol + invol) / s, vol / s, invol / s);
	flow_seg(&f, false, "busy %.2f/%d CPUs", busy, iv->ncpus);
	flow_seg(&f, true, "missed %" PRIu64, iv->stats[SS_STAT_MISSED]);
	flow_seg(&f, false, "unreported %" PRIu64,
		 iv->stats[SS_STAT_UNREPORTED]);
	flow_seg(&f, false, "lost rows %" PRIu64, iv->stats[SS_STAT_DROPS]);
	flow_seg(&f, false, "rows %zu", t->shown.n);
	flow_seg(&f, false, "%s",
		 t->vo.per_cgroup   ? "cgroups"
		 : t->vo.per_thread ? "threads"
				    : "processes");
	flow_seg(&f, false, "sort %s", sort_head(t));
	if (*t->filter)
		flow_seg(&f, false, "filter %s", t->filter);
	if (!t->counters)
		flow_seg(&f, false, "counters off");
	if (t->paused)
		flow_seg(&f, false, "PAUSED");
	move(f.y + 1, 0);
	if (t->editing)
		printw("filter (pid, tid or comm text; Enter, Esc): %s",
		       t->edit);
	else
		addnstr(t->msg, COLS);
	return f.y + 2;
}

static void draw_help(int y)
{
	const char *p = ss_top_help_text;

	while (*p && y < LINES) {
		const char *e = strchrnul(p, '\n');

		mvaddnstr(y++, 0, p, (int)(e - p) < COLS ? (int)(e - p) : COLS);
		clrtoeol();
		p = *e ? e + 1 : e;
	}
}

/* the width of the table columns that fit in @cols: whole columns only */
static int fitting_width(const struct ss_top *t, int cols)
{
	int x = 0, fit = 0;

	for (int i = 0; i < t->out.ncols; i++) {
		const struct ss_field *fd = &t->out.cols[i].fd;
		int w = fd->width < 0 ? -fd->width : fd->width;

		if (!fd->head)
			continue;
		if (x + w > cols)
			break;
		fit = x + w;
		x += w + 1;
	}
	return fit ? fit : cols;
}

/* the selected row's histograms, as the table prints them; NULL: a note */
static char *hist_text(const struct ss_top *t, const struct ss_row *r,
		       char *note, size_t len)
{
	struct ss_hist_rec *sel;
	struct ss_hist_fmt fmt = t->hist_fmt;
	struct ss_emit e;
	char *text = NULL;
	size_t n = 0, tlen = 0;
	FILE *mem;

	if (!t->hist_on) {
		snprintf(note, len,
			 "no histograms: start with --hist runq -P "
			 "(or -L for threads)");
		return NULL;
	}
	if (fmt.per == 3 && !t->vo.per_cgroup) {
		snprintf(note, len, "histograms are per cgroup: g to group");
		return NULL;
	}
	if ((t->vo.per_cgroup && fmt.per != 3) ||
	    (fmt.per == 2 && !t->vo.per_thread && t->o->per_thread)) {
		snprintf(note, len, "histograms are per %s: %s",
			 fmt.per == 2 ? "thread" : "process",
			 t->vo.per_cgroup ? "g to ungroup" : "H for threads");
		return NULL;
	}
	sel = calloc(t->hist_n ? t->hist_n : 1, sizeof(*sel));
	if (!sel)
		return NULL;
	for (size_t i = 0; i < t->hist_n; i++) {
		const struct ss_hist_key *k = &t->hist[i].key;

		if (fmt.per == 0 || (fmt.per == 1 && k->tgid == r->key.tgid) ||
		    (fmt.per == 2 && k->tid == r->key.tid) ||
		    (fmt.per == 3 && k->cgroup_id == r->v.cgroup_id))
			sel[n++] = t->hist[i];
	}
	mem = open_memstream(&text, &tlen);
	if (mem) {
		fmt.top = 0;
		fmt.timestamp = false;
		ss_emit_init(&e, mem, SS_FMT_TABLE);
		if (!fmt.per)
			ss_emit_raw(&e, "(one histogram of all tasks: -P or -L "
					"for this row's own)\n");
		ss_histmap_text(&e, sel, n, &fmt);
		fclose(mem);
	}
	free(sel);
	if (text && !n) {
		free(text);
		text = NULL;
		snprintf(note, len,
			 "no histogram of this row in this interval");
	}
	return text;
}

/* the pane under the table: the selected row's histograms, @h lines */
static void draw_hist_pane(struct ss_top *t, int y0, int h)
{
	const struct ss_row *r =
		t->sel < t->shown.n ? &t->shown.rows[t->sel] : NULL;
	char note[96] = "no row selected", *text = NULL, *p;
	int y = y0 + 1;

	mvhline(y0, 0, ACS_HLINE, COLS);
	if (r) {
		mvprintw(y0, 2, " histograms of pid %u", r->key.tgid);
		if (t->vo.per_thread)
			printw(" tid %u", r->key.tid);
		addstr(" ");
		text = hist_text(t, r, note, sizeof(note));
	}
	if (!text) {
		mvaddnstr(y, 0, note, COLS);
		return;
	}
	/* the table's text: skip the blank lines it starts blocks with */
	for (p = text; *p && y < y0 + h;) {
		char *e = strchrnul(p, '\n');

		if (e > p)
			mvaddnstr(y++, 0, p,
				  (int)(e - p) < COLS ? (int)(e - p) : COLS);
		p = *e ? e + 1 : e;
	}
	free(text);
}

/* the pane under the table: noisy neighbours (--blame), @h lines */
static void draw_noisy_pane(struct ss_top *t, int y0, int h)
{
	const char *p = t->noisy;
	int y = y0 + 1;

	mvhline(y0, 0, ACS_HLINE, COLS);
	mvprintw(y0, 2, " noisy neighbours: delay others caused ");
	while (p && *p && y < y0 + h) {
		const char *e = strchrnul(p, '\n');

		if (e > p)
			mvaddnstr(y++, 0, p,
				  (int)(e - p) < COLS ? (int)(e - p) : COLS);
		p = *e ? e + 1 : e;
	}
}

/* ss_top_draw - see top_view.h */
void ss_top_draw(struct ss_top *t)
{
	int y, x, w = 0, head, cut, end, nrows;

	if (!t->active)
		return;
	erase();
	head = draw_status(t);
	if (t->help) {
		draw_help(head);
		refresh();
		return;
	}
	cut = fitting_width(t, COLS);
	end = LINES;
	/* the pane: under the rows, at most half the table's room */
	if ((t->hist_pane || t->noisy_pane) && LINES - head > 6) {
		int half = (LINES - head - 1) / 2;

		end = head + 1 +
		      ((size_t)half > t->shown.n ? (int)t->shown.n : half);
	}
	if (t->lines_n && head < LINES) {
		attron(A_REVERSE);
		mvaddnstr(head, 0, t->lines[0], cut);
		for (x = getcurx(stdscr); x < cut; x++)
			addch(' ');
		attroff(A_REVERSE);
		/* the sort column: bold, out of the reverse bar */
		x = column_x(t, sort_key_col(t->vo.sort), &w);
		if (x >= 0 && x + w <= cut && (size_t)x < strlen(t->lines[0])) {
			attron(A_BOLD | A_UNDERLINE);
			mvaddnstr(head, x, t->lines[0] + x, w);
			attroff(A_BOLD | A_UNDERLINE);
		}
	}
	/* the rows, scrolled so the selected one is on the screen */
	nrows = end - head - 1;
	if (t->sel >= t->shown.n)
		t->sel = t->shown.n ? t->shown.n - 1 : 0;
	if (nrows > 0 && t->sel >= t->first + nrows)
		t->first = t->sel - nrows + 1;
	if (t->sel < t->first)
		t->first = t->sel;
	for (y = head + 1; y < end; y++) {
		size_t i = t->first + (y - head - 1);

		if (i + 1 >= t->lines_n)
			break;
		if (i == t->sel)
			attron(A_BOLD);
		mvaddnstr(y, 0, t->lines[i + 1], cut);
		if (i == t->sel)
			attroff(A_BOLD);
	}
	if (end < LINES && t->noisy_pane)
		draw_noisy_pane(t, end, LINES - end);
	else if (end < LINES)
		draw_hist_pane(t, end, LINES - end);
	refresh();
}

static void set_note(struct ss_top *t, const char *s)
{
	snprintf(t->msg, sizeof(t->msg), "%s", s);
}

static void sort_step(struct ss_top *t, int d)
{
	int n = sizeof(sort_order) / sizeof(sort_order[0]), i;

	for (i = 0; i < n && sort_order[i] != t->vo.sort; i++)
		;
	i = ((i < n ? i : 0) + d + n) % n;
	t->vo.sort = sort_order[i];
}

static bool edit_key(struct ss_top *t, int ch)
{
	size_t n = strlen(t->edit);

	if (ch == 27) { /* Esc: keep the filter as it was */
		t->editing = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		memcpy(t->filter, t->edit, sizeof(t->filter));
		t->editing = false;
		return true;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			t->edit[n - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof(t->edit)) {
		t->edit[n] = (char)ch;
		t->edit[n + 1] = '\0';
	}
	return false;
}

/* one key: true when the rows must be derived again */
static bool apply_key(struct ss_top *t, int ch, enum ss_top_action *act)
{
	t->msg[0] = '\0';
	if (t->help) { /* any key closes the help */
		t->help = false;
		return false;
	}
	switch (ch) {
	case 'q':
	case 'Q':
		*act = SS_TOP_QUIT;
		return false;
	case 'h':
	case '?':
		t->help = true;
		return false;
	case '<':
		sort_step(t, -1);
		return true;
	case '>':
		sort_step(t, 1);
		return true;
	case 'o':
	case 'P':
		t->vo.sort = SS_SORT_ONCPU;
		return true;
	case 's':
		t->vo.sort = SS_SORT_SWITCHES;
		return true;
	case 'v':
		t->vo.sort = SS_SORT_VOLUNTARY;
		return true;
	case 'i':
		t->vo.sort = SS_SORT_INVOLUNTARY;
		return true;
	case 'n':
		t->vo.sort = SS_SORT_PID;
		return true;
	case 'H':
		if (!t->o->per_thread) {
			set_note(t, "threads: start with -L (the probes key "
				    "rows by process without it)");
			return false;
		}
		t->vo.per_thread = !t->vo.per_thread;
		if (t->vo.per_thread)
			t->vo.per_cgroup = t->o->per_cgroup;
		init_columns(t);
		return true;
	case 'g':
		if (t->o->per_cgroup) {
			set_note(t, "started with -G: rows are cgroups only");
			return false;
		}
		t->vo.per_cgroup = !t->vo.per_cgroup;
		t->vo.per_thread = t->vo.per_cgroup ? false : t->o->per_thread;
		init_columns(t);
		return true;
	case 'c':
		t->counters = !t->counters;
		init_columns(t);
		return true;
	case 'r':
		t->hist_pane = !t->hist_pane;
		t->noisy_pane = false;
		return false;
	case 'b':
		if (!t->noisy) {
			set_note(t, "noisy neighbours: start with --blame");
			return false;
		}
		t->noisy_pane = !t->noisy_pane;
		t->hist_pane = false;
		return false;
	case KEY_UP:
	case 'k':
		if (t->sel)
			t->sel--;
		return false;
	case KEY_DOWN:
	case 'j':
		t->sel++; /* clamped when drawn */
		return false;
	case KEY_PPAGE:
		t->sel = t->sel > (size_t)LINES ? t->sel - LINES : 0;
		return false;
	case KEY_NPAGE:
		t->sel += LINES;
		return false;
	case KEY_HOME:
		t->sel = 0;
		return false;
	case KEY_END:
		t->sel = (size_t)-1 / 2;
		return false;
	case '/':
		t->editing = true;
		memcpy(t->edit, t->filter, sizeof(t->edit));
		return false;
	case ' ':
		t->paused = !t->paused;
		return false;
	case '+':
		if (t->interval_ms * 2 <= MAX_INTERVAL_MS) {
			t->interval_ms *= 2;
			*act = SS_TOP_INTERVAL;
		}
		return false;
	case '-':
		/*
		 * not below the start's: the checkpoint period (interval /
		 * 200, feat_checkpoints.c) that bounds an interval's error
		 * was chosen from it
		 */
		if (t->interval_ms / 2 >= t->o->interval_ms) {
			t->interval_ms /= 2;
			*act = SS_TOP_INTERVAL;
		}
		return false;
	}
	return false;
}

/* ss_top_keys - see top_view.h */
enum ss_top_action ss_top_keys(struct ss_top *t)
{
	enum ss_top_action act = SS_TOP_NONE;
	bool redraw = false, rederive = false;
	int ch;

	if (!t->active)
		return SS_TOP_NONE;
	while ((ch = getch()) != ERR) {
		redraw = true;
		if (ch == KEY_RESIZE)
			continue; /* ncurses has the new LINES, COLS */
		if (t->editing)
			rederive |= edit_key(t, ch);
		else
			rederive |= apply_key(t, ch, &act);
		if (act == SS_TOP_QUIT)
			return act;
	}
	if (rederive && t->have_snap && derive(t))
		set_note(t, "out of memory");
	if (redraw)
		ss_top_draw(t);
	return act;
}

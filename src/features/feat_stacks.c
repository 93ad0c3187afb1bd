// SPDX-License-Identifier: GPL-2.0
/*
 * feat_stacks.c - off-CPU time by stack (--stacks, -f, -K, -U), as bcc's
 * offcputime.
 *
 * The probe (probes/stacks.bpf.h, on the --offcpu probe's spans) takes
 * the kernel and user stack ids of a thread at its switch-out and, at its
 * switch-in, adds the span's length to (tgid, tid with -L, kernel id,
 * user id, comm) in the stacks map.  Here the map is drained after each
 * interval (with -d or a count: once, at the end, as offcputime prints)
 * and printed: a table, each stack innermost frame first, then its
 * process and its off-CPU time in microseconds; or with -f folded lines,
 * "comm;user frames outermost first;kernel frames value" (offcputime -f:
 * flamegraph.pl, inferno, speedscope).  Frames are named by libbcc's
 * symbolizer (bcc_syms.h: the kernel's from /proc/kallsyms, a process's
 * from its mappings), "[unknown]" when it finds none.  Stacks lost to the
 * stack map (a bucket collision: -EEXIST) or to a full stacks map are
 * counted and said on stderr.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/bcc_syms.h>
#include <bcc/libbpf.h>

#include "feat_stacks.h"
#include "map_drain.h"
#include "probes/stacks_shared.h"

#define STACKS_ENTRIES 16384 /* (thread, stacks) pairs per print */
#define STACK_TRACES 16384 /* stack map buckets (offcputime's default) */
#define STACK_DEPTH 127 /* PERF_MAX_STACK_DEPTH */
#define SYM_CACHES 64 /* per-process symbolizers kept (then all freed) */

#define SYM_LEN 256 /* a frame's name, truncated */

struct stk_row {
	struct ss_stack_key k;
	__u64 ns;
};

struct sym_cache {
	int pid;
	void *cache;
};

struct stacks_state {
	struct ss_map_drain map;
	struct stk_row *rows;
	int traces_fd, err_fd;
	void *ksyms; /* bcc_symcache_new(-1): /proc/kallsyms */
	struct sym_cache ucache[SYM_CACHES];
	int nucache;
	__u64 err_seen[SS_STKE_MAX]; /* the counts last said */
	char (*names)[SYM_LEN]; /* STACK_DEPTH frame names */
	bool ready, at_end;
};

static int stacks_configure(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;
	const struct ss_opts *o = &app->o;

	if (!o->stacks)
		return 0;
	ss->at_end = o->duration_s != 0;
	if (ss_app_define(app, "SS_STACKS", 1) ||
	    ss_app_define(app, "SS_STACKS_ENTRIES", STACKS_ENTRIES) ||
	    ss_app_define(app, "SS_STACK_TRACES", STACK_TRACES) ||
	    ss_app_define(app, "SS_STACKS_KERNEL", !o->user_stacks_only) ||
	    ss_app_define(app, "SS_STACKS_USER", !o->kernel_stacks_only) ||
	    ss_app_define(app, "SS_STACKS_PER_THREAD", o->per_thread)) {
		ss_diag("too many BPF cflags");
		return 1;
	}
	return 0;
}

static int stacks_attach(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;

	if (!app->o.stacks)
		return 0;
	ss->map.fd = ss_bpf_map_fd(&app->bpf, "stacks");
	ss->traces_fd = ss_bpf_map_fd(&app->bpf, "stack_traces");
	ss->err_fd = ss_bpf_map_fd(&app->bpf, "stack_err");
	ss->map.key_size = sizeof(struct ss_stack_key);
	ss->map.val_size = sizeof(__u64);
	ss->map.cap = STACKS_ENTRIES;
	ss->map.keys = calloc(STACKS_ENTRIES, sizeof(struct ss_stack_key));
	ss->map.vals = calloc(STACKS_ENTRIES, sizeof(__u64));
	ss->rows = calloc(STACKS_ENTRIES, sizeof(*ss->rows));
	ss->names = calloc(STACK_DEPTH, sizeof(*ss->names));
	if (!ss->names || ss->map.fd < 0 || ss->traces_fd < 0 ||
	    ss->err_fd < 0 || !ss->map.keys || !ss->map.vals || !ss->rows) {
		ss_diag("--stacks: BPF map or memory missing");
		return 1;
	}
	ss->ready = true;
	return 0;
}

/* Read and delete the stacks map into ss->rows; the count or -errno. */
static int drain(struct stacks_state *ss)
{
	const struct ss_stack_key *k = ss->map.keys;
	const __u64 *v = ss->map.vals;
	int n = ss_map_drain(&ss->map);

	for (int i = 0; i < n; i++) {
		ss->rows[i].k = k[i];
		ss->rows[i].ns = v[i];
	}
	return n;
}

/* largest off-CPU time first, then by pid */
static int cmp_row(const void *a, const void *b)
{
	const struct stk_row *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return (x->k.tgid > y->k.tgid) - (x->k.tgid < y->k.tgid);
}

/* the symbolizer of process @pid (-1: the kernel), or NULL */
static void *sym_cache(struct stacks_state *ss, int pid)
{
	if (pid < 0) {
		if (!ss->ksyms)
			ss->ksyms = bcc_symcache_new(-1, NULL);
		return ss->ksyms;
	}
	for (int i = 0; i < ss->nucache; i++)
		if (ss->ucache[i].pid == pid)
			return ss->ucache[i].cache;
	if (ss->nucache == SYM_CACHES) {
		for (int i = 0; i < ss->nucache; i++)
			bcc_free_symcache(ss->ucache[i].cache,
					  ss->ucache[i].pid);
		ss->nucache = 0;
	}
	ss->ucache[ss->nucache].pid = pid;
	ss->ucache[ss->nucache].cache = bcc_symcache_new(pid, NULL);
	return ss->ucache[ss->nucache++].cache;
}

/* the stacks' per-interval caches: processes come and go */
static void sym_flush(struct stacks_state *ss)
{
	for (int i = 0; i < ss->nucache; i++)
		bcc_free_symcache(ss->ucache[i].cache, ss->ucache[i].pid);
	ss->nucache = 0;
}

/*
 * The name of @addr in process @pid (-1: kernel) into @buf (@len bytes):
 * ';' and line breaks replaced (they would split a folded line),
 * "[unknown]" when the symbolizer finds none.
 */
static void sym_name(struct stacks_state *ss, int pid, __u64 addr, char *buf,
		     size_t len)
{
	struct bcc_symbol sym = { 0 };
	void *c = sym_cache(ss, pid);
	const char *name = NULL;
	int r = -1;

	if (c)
		r = pid < 0 ? bcc_symcache_resolve_no_demangle(c, addr, &sym)
			    : bcc_symcache_resolve(c, addr, &sym);
	if (!r)
		name = sym.demangle_name ? sym.demangle_name : sym.name;
	if (!name || !*name)
		name = "[unknown]";
	snprintf(buf, len, "%s", name);
	for (char *p = buf; *p; p++)
		if (*p == ';' || *p == '\n' || *p == '\r')
			*p = '_';
	if (!r && pid >= 0)
		bcc_symbol_free_demangle_name(&sym);
}

/*
 * The tracing machinery between __schedule() and the probe (the BPF
 * program, the tracepoint's glue): not where the task blocked.
 */
static bool tracing_frame(const char *name)
{
	static const char *const pfx[] = {
		"bpf_prog_",	  "bpf_trace_run",  "__bpf_trace_",
		"__traceiter_",	  "perf_trace_",    "perf_tp_event",
		"trace_call_bpf", "__bpf_prog_run", "bpf_dispatcher",
	};

	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (!strncmp(name, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

/*
 * The frames of stack @ips (@n, innermost first) of process @pid (-1:
 * kernel) named into @names (SYM_LEN each); a kernel stack without its
 * innermost tracing frames.  Returns how many.
 */
static int name_stack(struct stacks_state *ss, int pid, const __u64 *ips, int n,
		      char (*names)[SYM_LEN])
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		sym_name(ss, pid, ips[i], names[m], SYM_LEN);
		if (pid < 0 && !m && tracing_frame(names[m]))
			continue;
		m++;
	}
	return m;
}

/* the frames of stack @id into @ips (0-terminated); their count */
static int get_stack(struct stacks_state *ss, int id, __u64 *ips)
{
	int n = 0;

	memset(ips, 0, STACK_DEPTH * sizeof(*ips));
	if (id < 0 || bpf_lookup_elem(ss->traces_fd, &id, ips))
		return 0;
	while (n < STACK_DEPTH && ips[n])
		n++;
	return n;
}

/* a comm with ';' and line breaks replaced; "[unknown]" if empty */
static void put_comm(FILE *f, const char *comm)
{
	if (!comm[0]) {
		fputs("[unknown]", f);
		return;
	}
	for (int i = 0; i < SS_COMM_LEN && comm[i]; i++)
		fputc(comm[i] == ';' || comm[i] == '\n' || comm[i] == '\r'
			      ? '_'
			      : comm[i],
		      f);
}

/* true: the stack was asked for but lost (not -EFAULT: there is none) */
static bool stack_missed(int id)
{
	return id < 0 && id != SS_STK_NONE && id != -EFAULT;
}

/* One folded line: comm;user outermost..innermost;kernel ... usecs. */
static void put_folded(FILE *f, struct stacks_state *ss,
		       const struct stk_row *r)
{
	__u64 ips[STACK_DEPTH];
	int n;

	put_comm(f, r->k.comm);
	if (r->k.ustack != SS_STK_NONE) {
		if (stack_missed(r->k.ustack))
			fputs(";[Missed User Stack]", f);
		n = get_stack(ss, r->k.ustack, ips);
		n = name_stack(ss, (int)r->k.tgid, ips, n, ss->names);
		for (int i = n - 1; i >= 0; i--)
			fprintf(f, ";%s", ss->names[i]);
	}
	if (r->k.kstack != SS_STK_NONE) {
		if (stack_missed(r->k.kstack))
			fputs(";[Missed Kernel Stack]", f);
		n = get_stack(ss, r->k.kstack, ips);
		n = name_stack(ss, -1, ips, n, ss->names);
		for (int i = n - 1; i >= 0; i--)
			fprintf(f, ";%s", ss->names[i]);
	}
	fprintf(f, " %llu\n", (unsigned long long)(r->ns / 1000));
}

/* One stack of the table: frames innermost first, task, usecs. */
static void put_table(FILE *f, struct stacks_state *ss, const struct stk_row *r,
		      bool per_thread)
{
	__u64 ips[STACK_DEPTH];
	int n;

	if (r->k.kstack != SS_STK_NONE) {
		if (stack_missed(r->k.kstack))
			fputs("    [Missed Kernel Stack]\n", f);
		n = get_stack(ss, r->k.kstack, ips);
		n = name_stack(ss, -1, ips, n, ss->names);
		for (int i = 0; i < n; i++)
			fprintf(f, "    %s\n", ss->names[i]);
	}
	if (r->k.kstack >= 0 && r->k.ustack >= 0)
		fputs("    --\n", f);
	if (r->k.ustack != SS_STK_NONE) {
		if (stack_missed(r->k.ustack))
			fputs("    [Missed User Stack]\n", f);
		n = get_stack(ss, r->k.ustack, ips);
		n = name_stack(ss, (int)r->k.tgid, ips, n, ss->names);
		for (int i = 0; i < n; i++)
			fprintf(f, "    %s\n", ss->names[i]);
	}
	fprintf(f, "    %-16s ", "-");
	put_comm(f, r->k.comm);
	if (per_thread)
		fprintf(f, " (%u/%u)\n", r->k.tgid, r->k.tid);
	else
		fprintf(f, " (%u)\n", r->k.tgid);
	fprintf(f, "        %llu\n\n", (unsigned long long)(r->ns / 1000));
}

/* Say the stacks lost since the last time (always if any; -v: zeros). */
static void say_errors(struct ss_app *app, struct stacks_state *ss)
{
	int ncpu = app->iv.ncpus_possible > 0 ? app->iv.ncpus_possible : 1;
	__u64 tot[SS_STKE_MAX] = { 0 }, d[SS_STKE_MAX];
	__u64 *pc = calloc(ncpu, sizeof(*pc));
	bool any = false;

	if (!pc)
		return;
	for (__u32 i = 0; i < SS_STKE_MAX; i++) {
		if (bpf_lookup_elem(ss->err_fd, &i, pc))
			continue;
		for (int c = 0; c < ncpu; c++)
			tot[i] += pc[c];
		d[i] = tot[i] - ss->err_seen[i];
		ss->err_seen[i] = tot[i];
		if (i != SS_STKE_U_EFAULT && d[i])
			any = true;
	}
	free(pc);
	if (!any && !app->o.verbose)
		return;
	ss_diag("--stacks: lost %llu kernel and %llu user stacks to stack "
		"map collisions (-EEXIST), %llu kernel and %llu user to other "
		"errors, %llu spans to a full stacks map; %llu switch-outs "
		"with no user stack (-EFAULT: kernel threads)",
		(unsigned long long)d[SS_STKE_K_EEXIST],
		(unsigned long long)d[SS_STKE_U_EEXIST],
		(unsigned long long)d[SS_STKE_K_OTHER],
		(unsigned long long)d[SS_STKE_U_OTHER],
		(unsigned long long)d[SS_STKE_FULL],
		(unsigned long long)d[SS_STKE_U_EFAULT]);
}

/* Drain and print the stacks (folded with -f). */
static void print_stacks(struct ss_app *app, struct stacks_state *ss)
{
	FILE *f = app->f;
	int n = drain(ss);

	if (n < 0) {
		ss_diag("reading the stacks map: %s", strerror(-n));
		return;
	}
	if (n > 1)
		qsort(ss->rows, n, sizeof(*ss->rows), cmp_row);
	if (!app->o.folded)
		fprintf(f, "Off-CPU stacks (where tasks blocked, innermost "
			   "frame first; usecs), largest first:\n");
	for (int i = 0; i < n; i++) {
		if (!app->o.folded && app->o.top &&
		    (unsigned int)i >= app->o.top)
			break;
		if (app->o.folded)
			put_folded(f, ss, &ss->rows[i]);
		else
			put_table(f, ss, &ss->rows[i], app->o.per_thread);
	}
	if (n == (int)ss->map.cap)
		ss_diag("--stacks: more than %u stacks; the rest next time",
			ss->map.cap);
	fflush(f);
	say_errors(app, ss);
	sym_flush(ss);
}

static int stacks_interval(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;

	if (!app->o.stacks || !ss->ready || app->o.quiet || ss->at_end)
		return 0;
	print_stacks(app, ss);
	return 0;
}

static void stacks_finish(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;

	if (app->o.stacks && ss->ready && !app->o.quiet && ss->at_end)
		print_stacks(app, ss);
}

static int stacks_reset(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;

	if (app->o.stacks && ss->ready)
		drain(ss);
	return 0;
}

static void stacks_close(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;

	(void)app;
	sym_flush(ss);
	if (ss->ksyms)
		bcc_free_symcache(ss->ksyms, -1);
	free(ss->map.keys);
	free(ss->map.vals);
	free(ss->rows);
	free(ss->names);
	memset(ss, 0, sizeof(*ss));
}

const struct ss_feature ss_feat_stacks = {
	.name = "stacks",
	.state_size = sizeof(struct stacks_state),
	.configure = stacks_configure,
	.attach = stacks_attach,
	.reset = stacks_reset,
	.on_interval = stacks_interval,
	.finish = stacks_finish,
	.close = stacks_close,
};

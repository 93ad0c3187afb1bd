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
 * flamegraph.pl, inferno, speedscope); with --csv/--json "stack" records
 * (each stack a field, frames outermost first); with --listen every
 * interval, named folded lines for the exporter (app->offwake).  With
 * --wakers each stack is also keyed by its waker and the waker's stacks
 * (taken at sched_waking), printed as offwaketime does: after a "--" the
 * waker's frames innermost first, its name last.  Frames are named by
 * libbcc's symbolizer (bcc_syms.h: the kernel's from /proc/kallsyms, a
 * process's from its image, read while it ran: user_images.h),
 * "[unknown]" when it finds none; a stack the walk cut is marked at its
 * root ([truncated], [deeper], [exited]: name_stack).  Stacks lost to the
 * stack map (a bucket collision: -EEXIST) or to a full stacks map are
 * counted and said on stderr.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/bcc_syms.h>
#include <bcc/libbpf.h>

#include "feat_stacks.h"
#include "map_drain.h"
#include "probes/stacks_shared.h"
#include "user_images.h"
#include "wakers.h"

#define STACK_DEPTH 127 /* PERF_MAX_STACK_DEPTH: a stack map value's */

#define SYM_LEN 256 /* a frame's name, truncated */

struct stk_row {
	struct ss_stack_key k;
	__u64 ns;
};

struct stacks_state {
	struct ss_map_drain map;
	struct stk_row *rows;
	int traces_fd, err_fd;
	void *ksyms; /* bcc_symcache_new(-1): /proc/kallsyms */
	struct ss_uimages *uim; /* the processes' images: user frames */
	int depth; /* the walks' limit: STACK_DEPTH or the sysctl's */
	__u64 err_seen[SS_STKE_MAX]; /* the counts last said */
	char (*names)[SYM_LEN]; /* STACK_DEPTH frame names and a marker */
	struct ss_emit e; /* CSV/JSON records */
	struct ss_stack_rec *recs; /* --listen: the last print's, named */
	size_t nrecs;
	bool ready, at_end;
};

/*
 * The deepest stack a walk takes (frames): the stack map's STACK_DEPTH,
 * or kernel.perf_event_max_stack when that is lower.  A stack this deep
 * may have been cut.
 */
static int walk_depth(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "re");
	int v = STACK_DEPTH;

	if (f) {
		if (fscanf(f, "%d", &v) != 1 || v <= 0 || v > STACK_DEPTH)
			v = STACK_DEPTH;
		fclose(f);
	}
	return v;
}

static int stacks_configure(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;
	const struct ss_opts *o = &app->o;

	if (!o->stacks)
		return 0;
	/* -d or a count: once at the end, as offcputime (not --listen) */
	ss->at_end = o->duration_s != 0 && !o->listen;
	ss_emit_init(&ss->e, app->f, app->fmt);
	return 0;
}

static int stacks_attach(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;
	char err[256];

	if (!app->o.stacks)
		return 0;
	ss->map.fd = ss_bpf_map_fd(&app->bpf, "stacks");
	ss->traces_fd = ss_bpf_map_fd(&app->bpf, "stack_traces");
	ss->err_fd = ss_bpf_map_fd(&app->bpf, "stack_err");
	ss->map.key_size = sizeof(struct ss_stack_key);
	ss->map.val_size = sizeof(__u64);
	ss->map.cap = app->plan->x.stacks_entries;
	ss->map.keys = calloc(ss->map.cap, sizeof(struct ss_stack_key));
	ss->map.vals = calloc(ss->map.cap, sizeof(__u64));
	ss->rows = calloc(ss->map.cap, sizeof(*ss->rows));
	ss->names = calloc(STACK_DEPTH + 1, sizeof(*ss->names));
	ss->depth = walk_depth();
	/* images read while their processes run (none with -K) */
	ss->uim = ss_uimages_new(ss_bpf_map_fd(&app->bpf, "stk_new"),
				 ss_bpf_map_fd(&app->bpf, "stk_seen"),
				 app->ncpus_possible);
	if (ss_bpf_map_fd(&app->bpf, "stk_new") >= 0 &&
	    ss_bpf_attach_tp(&app->bpf, "tracepoint__sched__sched_process_exec",
			     "sched", "sched_process_exec", err, sizeof(err))) {
		ss_diag("--stacks: %s", err);
		return 1;
	}
	ss->recs = calloc(ss->map.cap, sizeof(*ss->recs));
	if (!ss->names || !ss->recs || !ss->uim || ss->map.fd < 0 ||
	    ss->traces_fd < 0 || ss->err_fd < 0 || !ss->map.keys ||
	    !ss->map.vals || !ss->rows) {
		ss_diag("--stacks: BPF map or memory missing");
		return 1;
	}
	ss->ready = true;
	return 0;
}

/* Read and delete the stacks map into ss->rows; the count or -errno. */
static int drain(struct stacks_state *ss)
{
	return ss_map_drain_rows(&ss->map, ss->rows, sizeof(*ss->rows),
				 offsetof(struct stk_row, ns));
}

/* largest off-CPU time first, then by pid */
static int cmp_row(const void *a, const void *b)
{
	const struct stk_row *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return (x->k.tgid > y->k.tgid) - (x->k.tgid < y->k.tgid);
}

/* ';' and line breaks in @buf replaced: they would split a folded line */
static void fold_safe(char *buf)
{
	for (char *p = buf; *p; p++)
		if (*p == ';' || *p == '\n' || *p == '\r')
			*p = '_';
}

/*
 * The name of kernel address @addr into @buf (@len bytes), "[unknown]"
 * when the symbolizer finds none.
 */
static void ksym_name(struct stacks_state *ss, __u64 addr, char *buf,
		      size_t len)
{
	struct bcc_symbol sym = { 0 };
	const char *name = NULL;

	if (!ss->ksyms)
		ss->ksyms = bcc_symcache_new(-1, NULL);
	if (ss->ksyms &&
	    !bcc_symcache_resolve_no_demangle(ss->ksyms, addr, &sym))
		name = sym.name;
	snprintf(buf, len, "%s", name && *name ? name : "[unknown]");
	fold_safe(buf);
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

#define MARK_DEEPER "[deeper]" /* the walk's depth limit was reached */
#define MARK_TRUNC "[truncated]" /* a caller frame is no return address */
#define MARK_EXITED "[exited]" /* exited before its image was read */

/*
 * A function a thread starts in (libc's, the kernel's clone, Go's): a
 * user stack whose outermost frame is not one of these stopped before
 * its root (a frame-pointer walk ends where a function kept no frame).
 */
static bool thread_entry(const char *name)
{
	static const char *const roots[] = {
		"_start",
		"__libc_start_main",
		"__libc_start_call_main",
		"start_thread",
		"clone",
		"clone3",
		"__clone",
		"__clone3",
		"thread_start",
		"runtime.goexit",
		"runtime.rt0_go",
		"runtime.mstart",
		"runtime.goexit.abi0",
	};

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strcmp(name, roots[i]))
			return true;
	return false;
}

/*
 * The frames of stack @ips (@n, innermost first) of process @pid (-1:
 * kernel) named into @names (SYM_LEN each); a kernel stack without its
 * innermost tracing frames.  A user stack ends at its first caller frame
 * that cannot be a return address, or where the walk stopped before a
 * thread's entry, with MARK_TRUNC after it (the outermost); one of an
 * exited process whose image was not read is MARK_EXITED alone; a stack
 * as deep as the walk goes ends with MARK_DEEPER.  Returns how many
 * names.
 */
static int name_stack(struct stacks_state *ss, int pid, const __u64 *ips, int n,
		      char (*names)[SYM_LEN])
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		int r = SS_UF_NAMED;

		if (pid < 0)
			ksym_name(ss, ips[i], names[m], SYM_LEN);
		else
			r = ss_uimages_name(ss->uim, pid, ips[i], i > 0,
					    names[m], SYM_LEN);
		if (r == SS_UF_EXITED) {
			snprintf(names[0], SYM_LEN, "%s", MARK_EXITED);
			return 1;
		}
		if (r == SS_UF_BAD) {
			snprintf(names[m], SYM_LEN, "%s", MARK_TRUNC);
			return m + 1;
		}
		fold_safe(names[m]);
		if (pid < 0 && !m && tracing_frame(names[m]))
			continue;
		m++;
	}
	if (n >= ss->depth)
		snprintf(names[m++], SYM_LEN, "%s", MARK_DEEPER);
	else if (pid >= 0 && m && !thread_entry(names[m - 1]) &&
		 !ss_uimages_at_start(ss->uim, pid, ips[n - 1]))
		snprintf(names[m++], SYM_LEN, "%s", MARK_TRUNC);
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

#define MISSED_K "[Missed Kernel Stack]"
#define MISSED_U "[Missed User Stack]"

/* true: the stack was asked for but lost (not -EFAULT: there is none) */
static bool stack_missed(int id)
{
	return id < 0 && id != SS_STK_NONE && id != -EFAULT;
}

/* How frames are written: folded (";f;f"), CSV/JSON ("f;f"), table. */
enum frame_style { FS_FOLDED, FS_FIELD, FS_TABLE };

/*
 * The frames of stack @id of process @pid (-1: kernel) to @m in @style,
 * outermost first when @outer; @missed first when the stack was lost.
 * Nothing when it was not taken (SS_STK_NONE).  @first: no frame was
 * written to this FS_FIELD string yet (no ';' before this one); cleared.
 */
static void put_frames(FILE *m, struct stacks_state *ss, int pid, int id,
		       bool outer, enum frame_style style, bool *first,
		       const char *missed)
{
	__u64 ips[STACK_DEPTH];
	bool one = true;
	int n;

	if (!first)
		first = &one;
	if (id == SS_STK_NONE)
		return;
	n = get_stack(ss, id, ips);
	n = name_stack(ss, pid, ips, n, ss->names);
	for (int i = -1; i < n; i++) {
		const char *name =
			i < 0 ? missed : ss->names[outer ? n - 1 - i : i];

		if (i < 0 && !stack_missed(id))
			continue;
		if (style == FS_TABLE)
			fprintf(m, "    %s\n", name);
		else
			fprintf(m, "%s%s",
				style == FS_FIELD && *first ? "" : ";", name);
		*first = false;
	}
}

/* the waker's name: its comm for a task, else its kind (timer, irq...) */
static void put_waker(FILE *f, const struct ss_stack_key *k)
{
	if (k->wk_kind == SS_WK_TASK + 1)
		put_comm(f, k->wk_comm);
	else
		fputs(ss_waker_kind_name(k->wk_kind - 1), f);
}

/*
 * One folded line without its value: comm;user outermost..innermost;
 * kernel outermost..innermost, and with a waker (--wakers, offwaketime
 * -f) ;--;its kernel innermost..outermost;its user innermost..outermost;
 * its name: the waker stands on top of the blocked task, upside down.
 */
static void put_folded(FILE *f, struct stacks_state *ss,
		       const struct ss_stack_key *k)
{
	put_comm(f, k->comm);
	put_frames(f, ss, (int)k->tgid, k->ustack, true, FS_FOLDED, NULL,
		   MISSED_U);
	put_frames(f, ss, -1, k->kstack, true, FS_FOLDED, NULL, MISSED_K);
	if (!k->wk_kind)
		return;
	fputs(";--", f);
	put_frames(f, ss, -1, k->wk_kstack, false, FS_FOLDED, NULL, MISSED_K);
	put_frames(f, ss, (int)k->wk_tgid, k->wk_ustack, false, FS_FOLDED, NULL,
		   MISSED_U);
	fputc(';', f);
	put_waker(f, k);
}

/* a task "comm (pid)", or with -L "comm (pid/tid)" */
static void put_task(FILE *f, const char *comm, __u32 tgid, __u32 tid,
		     bool per_thread)
{
	put_comm(f, comm);
	if (per_thread)
		fprintf(f, " (%u/%u)\n", tgid, tid);
	else
		fprintf(f, " (%u)\n", tgid);
}

/*
 * One side of a table entry: kernel frames innermost first, "--", user
 * frames (offcputime's layout).
 */
static void put_side(FILE *f, struct stacks_state *ss, int pid, int kid,
		     int uid)
{
	put_frames(f, ss, -1, kid, false, FS_TABLE, NULL, MISSED_K);
	if (kid >= 0 && uid >= 0)
		fputs("    --\n", f);
	put_frames(f, ss, pid, uid, false, FS_TABLE, NULL, MISSED_U);
}

/*
 * One stack of the table: frames innermost first, the task; with a waker
 * (--wakers) "--  --", its stacks and "waker:" its name; then usecs.
 */
static void put_table(FILE *f, struct stacks_state *ss,
		      const struct ss_stack_key *k, __u64 ns, bool per_thread)
{
	put_side(f, ss, (int)k->tgid, k->kstack, k->ustack);
	fprintf(f, "    %-16s ", "-");
	put_task(f, k->comm, k->tgid, k->tid, per_thread);
	if (k->wk_kind) {
		fprintf(f, "    %-16s --\n", "--");
		put_side(f, ss, (int)k->wk_tgid, k->wk_kstack, k->wk_ustack);
		fprintf(f, "    %-16s ", "waker:");
		if (k->wk_kind == SS_WK_TASK + 1)
			put_task(f, k->wk_comm, k->wk_tgid, k->wk_tid,
				 per_thread);
		else
			fprintf(f, "%s\n", ss_waker_kind_name(k->wk_kind - 1));
	}
	fprintf(f, "        %llu\n\n", (unsigned long long)(ns / 1000));
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

/* The fields of "stack" records (CSV/JSON). */
enum {
	S_TIME,
	S_PID,
	S_TID,
	S_COMM,
	S_OFF,
	S_KERNEL,
	S_USER,
	S_WKIND,
	S_WPID,
	S_WTID,
	S_WCOMM,
	S_WKERNEL,
	S_WUSER,
	S_MAX,
};

static const struct ss_field stk_fields[S_MAX] = {
	[S_TIME] = { .key = "time", .unit = "s", .decimals = 3 },
	[S_PID] = { .key = "pid" },
	[S_TID] = { .key = "tid" },
	[S_COMM] = { .key = "comm" },
	[S_OFF] = { .key = "offcpu_ns", .unit = "ns" },
	[S_KERNEL] = { .key = "kernel_stack" },
	[S_USER] = { .key = "user_stack" },
	[S_WKIND] = { .key = "waker_kind" },
	[S_WPID] = { .key = "waker_pid" },
	[S_WTID] = { .key = "waker_tid" },
	[S_WCOMM] = { .key = "waker_comm" },
	[S_WKERNEL] = { .key = "waker_kernel_stack" },
	[S_WUSER] = { .key = "waker_user_stack" },
};

/*
 * Stack @id of process @pid (-1: kernel) as one field: its frames
 * outermost first, ';' between them (the folded order); null when not
 * taken (-K, -U; no waker); "" when there is none (-EFAULT).
 */
static void emit_stack(struct ss_emit *e, const struct ss_field *fd,
		       struct stacks_state *ss, int pid, int id,
		       const char *missed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (id == SS_STK_NONE) {
		ss_emit_null(e, fd);
		return;
	}
	m = open_memstream(&buf, &len);
	if (m) {
		put_frames(m, ss, pid, id, true, FS_FIELD, &(bool){ true },
			   missed);
		fclose(m);
	}
	ss_emit_str(e, fd, buf ? buf : "", buf ? len : 0);
	free(buf);
}

/* One record's fields (the header's when @k is NULL). */
static void emit_record(struct ss_app *app, struct stacks_state *ss,
			const struct ss_stack_key *k, __u64 ns)
{
	struct ss_emit *e = &ss->e;
	const struct ss_field *f = stk_fields;
	bool task = k && k->wk_kind == SS_WK_TASK + 1;

	for (int i = 0; i < S_MAX; i++) {
		if ((i == S_TID || i == S_WTID) && !app->o.per_thread)
			continue;
		if (i >= S_WKIND && !app->o.wakers)
			break;
		if (!k) {
			ss_emit_head(e, &f[i]);
			continue;
		}
		switch (i) {
		case S_TIME:
			ss_emit_double(e, &f[i],
				       (double)app->iv.end_realtime_ns / 1e9);
			break;
		case S_PID:
			ss_emit_u64(e, &f[i], k->tgid);
			break;
		case S_TID:
			ss_emit_u64(e, &f[i], k->tid);
			break;
		case S_COMM:
			ss_emit_str(e, &f[i], k->comm, SS_COMM_LEN);
			break;
		case S_OFF:
			ss_emit_u64(e, &f[i], ns);
			break;
		case S_KERNEL:
			emit_stack(e, &f[i], ss, -1, k->kstack, MISSED_K);
			break;
		case S_USER:
			emit_stack(e, &f[i], ss, (int)k->tgid, k->ustack,
				   MISSED_U);
			break;
		case S_WKIND:
			if (k->wk_kind)
				ss_emit_str(e, &f[i],
					    ss_waker_kind_name(k->wk_kind - 1),
					    8);
			else
				ss_emit_null(e, &f[i]);
			break;
		case S_WPID:
		case S_WTID:
			if (task)
				ss_emit_u64(e, &f[i],
					    i == S_WPID ? k->wk_tgid
							: k->wk_tid);
			else
				ss_emit_null(e, &f[i]);
			break;
		case S_WCOMM:
			if (task)
				ss_emit_str(e, &f[i], k->wk_comm, SS_COMM_LEN);
			else
				ss_emit_null(e, &f[i]);
			break;
		case S_WKERNEL:
			emit_stack(e, &f[i], ss, -1,
				   k->wk_kind ? k->wk_kstack : SS_STK_NONE,
				   MISSED_K);
			break;
		case S_WUSER:
			emit_stack(e, &f[i], ss, (int)k->wk_tgid,
				   k->wk_kind ? k->wk_ustack : SS_STK_NONE,
				   MISSED_U);
			break;
		}
	}
}

/* CSV/JSON: one "stack" record per row; CSV a block after a blank line. */
static void emit_records(struct ss_app *app, struct stacks_state *ss, int n)
{
	struct ss_emit *e = &ss->e;

	e->f = app->f;
	ss_emit_reset_header(e);
	if (ss_emit_begin_header(e)) {
		ss_emit_raw(e, "\n");
		emit_record(app, ss, NULL, 0);
		ss_emit_end(e);
	}
	for (int i = 0; i < n; i++) {
		ss_emit_begin(e, "stack");
		emit_record(app, ss, &ss->rows[i].k, ss->rows[i].ns);
		ss_emit_end(e);
	}
	ss_emit_flush(e);
}

/* the exporter's records of the last print, freed */
static void recs_free(struct stacks_state *ss)
{
	for (size_t i = 0; i < ss->nrecs; i++)
		free((char *)ss->recs[i].folded);
	ss->nrecs = 0;
}

/* --listen: the @n rows as named folded stacks (app->offwake.stacks) */
static void publish_recs(struct ss_app *app, struct stacks_state *ss, int n)
{
	recs_free(ss);
	for (int i = 0; i < n; i++) {
		struct ss_stack_rec *r = &ss->recs[ss->nrecs];
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			break;
		put_folded(m, ss, &ss->rows[i].k);
		if (fclose(m)) {
			free(buf);
			break;
		}
		r->cgroup_id = ss->rows[i].k.cgroup_id;
		r->tgid = ss->rows[i].k.tgid;
		memcpy(r->comm, ss->rows[i].k.comm, SS_COMM_LEN);
		r->folded = buf;
		r->ns = ss->rows[i].ns;
		ss->nrecs++;
	}
	app->offwake.stacks = ss->recs;
	app->offwake.nstacks = ss->nrecs;
}

/* Drain and print the stacks (folded with -f; records in CSV/JSON). */
static void print_stacks(struct ss_app *app, struct stacks_state *ss)
{
	FILE *f = app->f;
	int n;

	ss_uimages_begin(ss->uim);
	n = drain(ss);
	if (n < 0) {
		ss_uimages_end(ss->uim);
		ss_diag("reading the stacks map: %s", strerror(-n));
		return;
	}
	if (n > 1)
		qsort(ss->rows, n, sizeof(*ss->rows), cmp_row);
	if (app->o.listen)
		publish_recs(app, ss, n);
	if (app->o.quiet) {
		/* nothing printed */
	} else if (app->fmt == SS_FMT_CSV || app->fmt == SS_FMT_JSON) {
		emit_records(app, ss, n);
	} else {
		if (!app->o.folded)
			fprintf(f, "Off-CPU stacks (where tasks blocked, "
				   "innermost frame first; usecs), largest "
				   "first:\n");
		for (int i = 0; i < n; i++) {
			if (!app->o.folded && app->o.top &&
			    (unsigned int)i >= app->o.top)
				break;
			if (app->o.folded) {
				put_folded(f, ss, &ss->rows[i].k);
				fprintf(f, " %llu\n",
					(unsigned long long)(ss->rows[i].ns /
							     1000));
			} else {
				put_table(f, ss, &ss->rows[i].k, ss->rows[i].ns,
					  app->o.per_thread);
			}
		}
	}
	ss_uimages_end(ss->uim);
	if (n == (int)ss->map.cap)
		ss_diag("--stacks: more than %u stacks; the rest next time",
			ss->map.cap);
	fflush(f);
	say_errors(app, ss);
}

static int stacks_interval(struct ss_app *app, void *st)
{
	struct stacks_state *ss = st;

	if (!app->o.stacks || !ss->ready || ss->at_end ||
	    (app->o.quiet && !app->o.listen))
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

	ss_uimages_free(ss->uim);
	if (ss->ksyms)
		bcc_free_symcache(ss->ksyms, -1);
	free(ss->map.keys);
	free(ss->map.vals);
	free(ss->rows);
	free(ss->names);
	if (ss->recs)
		recs_free(ss);
	free(ss->recs);
	if (app->offwake.stacks == ss->recs) {
		app->offwake.stacks = NULL;
		app->offwake.nstacks = 0;
	}
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

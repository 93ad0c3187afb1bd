// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the decide phase (src/plan.c, src/plan_cflags.c): the plan
 * for a table of kernels (their facts as src/kfacts.c finds them: 5.10 on
 * the raw path with a 3-argument sched_switch and on the regular path, 6.1
 * and 6.12 with tp_btf but no sched_exit_tp, 6.18 with sched_exit_tp and
 * task storage, also with the test seams the integration tests use, and a
 * kernel without BTF) and of option sets, checked against the rules the
 * features' comments give; and the cflags for this 6.18 host and the x86
 * guests' 5.10, 6.1 and 6.12 against those the build before the plan
 * wrote there (cflags-KERNEL.txt), name for name and in order.  No root,
 * no kernel.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "plan.h"

/* ---- kernels --------------------------------------------------------- */

/* Offsets a kernel's facts hold, as its -v cflags print them. */
struct offs {
	unsigned int pid, tgid, nvcsw, nivcsw, comm, cpu, exit_state;
	unsigned int state, state_size, policy, sum_exec, prev_sum_exec;
	unsigned int run_delay, flags, iowait_byte, iowait_bit;
	unsigned int ident[SS_IDENT_F_COUNT], cg[SS_CG_F_COUNT];
};

/* A kernel with BTF, raw tracepoints, tp_btf and the fields of @f. */
static void k_btf(struct ss_kfacts *k, const struct offs *f)
{
	memset(k, 0, sizeof(*k));
	k->ncpus_possible = 2;
	k->pid_max = 32768;
	k->btf = true;
	k->switch_nargs = 4;
	k->task = (struct ss_task_offsets){ .pid = f->pid,
					    .tgid = f->tgid,
					    .nvcsw = f->nvcsw,
					    .nivcsw = f->nivcsw };
	k->comm = f->comm;
	k->cpu = f->cpu;
	k->exit_state = f->exit_state;
	k->state_off = f->state;
	k->state_size = f->state_size;
	k->state_name = f->state_size == 8 ? "state" : "__state";
	k->kclock = k->ksum = true;
	k->policy = f->policy;
	k->sum_exec = f->sum_exec;
	/* sched_entity: exec_start just before sum_exec_runtime, 5.10-6.18 */
	k->exec_start_ok = true;
	k->exec_start = f->sum_exec - 8;
	k->prev_sum_exec = f->prev_sum_exec;
	k->run_delay_ok = k->run_delay_live = k->flags_ok = true;
	k->run_delay = f->run_delay;
	k->flags = f->flags;
	k->iowait = true;
	k->iowait_bit = f->iowait_byte * 8 + f->iowait_bit;
	k->ident_ok = k->cg_ok = true;
	memcpy(k->ident, f->ident, sizeof(k->ident));
	memcpy(k->cg, f->cg, sizeof(k->cg));
	k->tp_btf = k->task_storage = k->current_task_btf = true;
	k->atomic_or = true;
	k->tp_wakeup = k->tp_wakeup_new = k->tp_migrate = true;
	for (int i = 0; i < SS_MEM_NKINDS; i++)
		k->tp_mem[i] = true;
}

/*
 * The kernels' offsets, a row each in struct offs's order, as their -v
 * cflags print them: this 6.18 host (cflags-6.18.txt) and the x86 guests
 * of scripts/test-vm.sh, Debian's 6.12, 6.1 and 5.10 (cflags-KERNEL.txt).
 */
enum { OFFS_618, OFFS_612, OFFS_61, OFFS_510 };

/* clang-format off */
static const struct offs offs[] = {
	/* pid, tgid, nvcsw, nivcsw, comm, cpu, exit_state, state, state_size,
	 * policy, sum_exec, prev_sum_exec, run_delay, flags, iowait (byte,
	 * bit), ident (leader, start, comm), cg (task_cgroups, css_dfl,
	 * cgroup_kn, kn_id) */
	[OFFS_618] = { 1264, 1268, 1536, 1544, 1752, 20, 1160, 24, 4,
		       780, 232, 240, 1016, 44, 1193, 0,
		       { 1328, 1552, 1752 }, { 2376, 112, 256, 96 } },
	[OFFS_612] = { 2432, 2436, 2760, 2768, 2976, 20, 2328, 0, 4,
		       972, 224, 232, 2200, 44, 2360, 4,
		       { 2496, 2776, 2976 }, { 3584, 128, 256, 96 } },
	[OFFS_61] = { 2416, 2420, 2760, 2768, 2976, 20, 2308, 0, 4,
		      972, 200, 216, 2168, 44, 2344, 3,
		      { 2480, 2776, 2976 }, { 3600, 128, 248, 104 } },
	[OFFS_510] = { 2232, 2236, 2520, 2528, 2736, 64, 2132, 16, 8,
		       868, 200, 216, 1952, 36, 2168, 2,
		       { 2296, 2536, 2736 }, { 3328, 120, 248, 104 } },
};
/* clang-format on */

/*
 * The 6.18 host: sched_exit_tp, and the run queue's steal time, which the
 * task clock leaves out.
 */
static void k_618(struct ss_kfacts *k)
{
	k_btf(k, &offs[OFFS_618]);
	k->exit_tp = true;
	k->kexcl = true;
	k->se_cfs_rq = 296;
	k->cfs_rq_rq = 312;
	k->rq_steal = 3240;
	k->rq_irq = 0;
}

/* 6.12 and 6.1: no sched_exit_tp, no run queue steal or IRQ time for the
 * task clock to name */
static void k_612(struct ss_kfacts *k)
{
	k_btf(k, &offs[OFFS_612]);
}

static void k_61(struct ss_kfacts *k)
{
	k_btf(k, &offs[OFFS_61]);
}

/*
 * 5.10: a raw sched_switch of 3 arguments (prev_state from
 * task_struct.state, a long), tp_btf (5.5+), but no task storage for
 * tracing programs or bpf_get_current_task_btf (5.11), no atomic OR
 * (5.12).
 */
static void k_510(struct ss_kfacts *k)
{
	k_btf(k, &offs[OFFS_510]);
	k->switch_nargs = 3;
	k->task_storage = false;
	k->current_task_btf = false;
	k->atomic_or = false;
}

/* A kernel without BTF (CONFIG_DEBUG_INFO_BTF off): regular tracepoints. */
static void k_nobtf(struct ss_kfacts *k)
{
	memset(k, 0, sizeof(*k));
	k->ncpus_possible = 4;
	k->pid_max = 4194304;
	k->btf_errno = ENOENT;
	k->switch_nargs = -ENOENT;
	k->atomic_or = true;
	k->tp_wakeup = k->tp_wakeup_new = k->tp_migrate = true;
	for (int i = 0; i < SS_MEM_NKINDS; i++)
		k->tp_mem[i] = true;
}

struct kernel {
	const char *name;
	void (*facts)(struct ss_kfacts *k);
	const char *seams; /* SWITCHSTAT_TEST for every run on it */
};

static const struct kernel kernels[] = {
	{ "5.10", k_510, "" },
	{ "5.10 regular", k_510, "no_raw" },
	{ "6.1", k_61, "" },
	{ "6.12", k_612, "" },
	{ "6.18", k_618, "" },
	{ "no BTF", k_nobtf, "" },
	{ "6.18 regular", k_618, "no_raw" },
	{ "6.18 window clock", k_618, "window_clock,no_row_cache" },
	{ "6.18 exit_tp_now", k_618, "exit_tp_now,no_task_storage" },
};

#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

/* ---- options ----------------------------------------------------------- */

/* ss_parse_opts on "switchstat" + the blank-separated words of @args */
static void opts_of(const char *args, struct ss_opts *o)
{
	static char buf[1024];
	char *argv[64] = { "switchstat" }, *save = NULL, *w;
	int argc = 1;
	FILE *out = fopen("/dev/null", "w");
	int ret;

	snprintf(buf, sizeof(buf), "%s", args);
	for (w = strtok_r(buf, " ", &save); w && argc < 63;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	cr_assert(out);
	ret = ss_parse_opts(argc, argv, o, out, out);
	fclose(out);
	cr_assert_eq(ret, SS_PARSE_OK, "options '%s' refused", args);
}

static void seams_of(const char *s, struct ss_seams *t)
{
	char err[256];

	cr_assert_eq(ss_seams_parse(s, t, err, sizeof(err)), 0, "%s", err);
}

/*
 * What the open phase finds on a machine without a PMU (this host and the
 * x86 guests): the default events do not open, the -e software events do;
 * the fault events open; a --cgroup below the root filters.
 */
static void open_facts(const struct ss_opts *o, struct ss_kfacts *k)
{
	memset(&k->opened, 0, sizeof(k->opened));
	if (o->events_given && !o->no_counters) {
		k->opened.counters = 1;
		for (const char *c = o->events; *c; c++)
			k->opened.counters += *c == ',';
	}
	k->opened.faults = o->memory;
	k->opened.cgroup_filter = o->cgroup && strcmp(o->cgroup, "/");
}

/* Option sets of the table (the brief's, and what combines them). */
static const char *const option_sets[] = {
	"",
	"-p 1",
	"-p 1,2 -L",
	"-t 7",
	"--blame",
	"--blame -L",
	"--blame -G",
	"--offcpu",
	"--stacks",
	"--wakers",
	"--trace",
	"-e cpu-clock,page-faults",
	"--hist oncpu,offcpu,runq",
	"--hist oncpu -P -m",
	"--offcpu --hist offcpu-S,offcpu-D -L",
	"-M",
	"-G",
	"--cgroup /sys/fs/cgroup/x",
	"--listen 127.0.0.1:9000 -q",
	"--no-counters -M --hist runq",
	"--blame --stacks --offcpu --wakers -L --hist oncpu,offcpu,runq,"
	"offcpu-S,offcpu-D,offcpu-IO,offcpu-T,offcpu-R -P -M -e "
	"cpu-clock,page-faults",
};

#define NSETS (sizeof(option_sets) / sizeof(option_sets[0]))

/* ---- rules ----------------------------------------------------------------- */

/* The cflag "-DNAME=" of @c, its value in *v; false when absent. */
static bool cflag(const struct ss_cflags *c, const char *name,
		  unsigned long long *v)
{
	size_t n = strlen(name);
	int found = 0;

	for (int i = 0; i < c->n; i++) {
		if (!strncmp(c->v[i] + 2, name, n) && c->v[i][2 + n] == '=') {
			found++;
			if (v)
				*v = strtoull(c->v[i] + 3 + n, NULL, 10);
		}
	}
	cr_assert_leq(found, 1, "-D%s written %d times", name, found);
	return found;
}

static unsigned long long cflag_val(const struct ss_cflags *c, const char *name)
{
	unsigned long long v = 0;

	cr_assert(cflag(c, name, &v), "-D%s missing", name);
	return v;
}

/*
 * Every rule the features state, for one plan.  @what names the case in
 * a failure.
 */
static void check_rules(const char *what, const struct ss_plan *p,
			const struct ss_opts *o, const struct ss_kfacts *k,
			const struct ss_seams *t, const struct ss_cflags *c)
{
	const struct ss_plan_path *pa = &p->path;
	bool raw_possible = k->btf && !k->raw_missing && !k->task_err &&
			    (k->switch_nargs == 4 ||
			     (k->switch_nargs == 3 && !k->state_err));
	bool whole = p->ctr.nr || o->hist || o->trace ||
		     (o->blame && !p->blame.kq) ||
		     (o->memory && k->opened.faults) || o->offcpu ||
		     o->wakers || o->stacks;
	bool waits = o->hist & (SS_HIST_OFFCPU | SS_HIST_RUNQ);
	unsigned long long v;

	/* the path: raw wherever the kernel allows it and no seam forbids */
	cr_assert_eq(pa->mode.raw_sched, raw_possible && !t->on[SS_SEAM_NO_RAW],
		     "%s: raw path", what);
	cr_assert(!pa->mode.raw_sched || !pa->why[0], "%s: why", what);
	cr_assert(pa->mode.raw_sched || pa->why[0], "%s: why not", what);
	cr_assert_eq(pa->mode.tp_btf, pa->mode.raw_sched && k->tp_btf,
		     "%s: tp_btf only on the raw path", what);
	/* clocks: the kernel's slice clock and task clock need raw, BTF */
	cr_assert_eq(pa->kclock,
		     pa->mode.raw_sched && k->kclock &&
			     !t->on[SS_SEAM_NO_KCLOCK],
		     "%s: kclock", what);
	cr_assert_eq(pa->task_clock,
		     pa->kclock && pa->mode.tp_btf &&
			     !t->on[SS_SEAM_WINDOW_CLOCK],
		     "%s: task clock", what);
	cr_assert_eq(pa->kexcl, pa->task_clock && k->kexcl, "%s: kexcl", what);
	/* every slice's start: what needs it */
	cr_assert_eq(pa->whole_slices, whole, "%s: whole slices", what);
	/*
	 * sched_exit_tp: compiled where the kernel has it and either a
	 * feature needs whole slices or the kernel's clock cannot fill in;
	 * at once only with --trace (no interval loop) or a seam, else
	 * attached once the kernel is seen hiding a switch
	 */
	cr_assert_eq(pa->exit_tp_prog,
		     pa->mode.raw_sched && k->exit_tp &&
			     !t->on[SS_SEAM_NO_EXIT_TP] &&
			     (whole || !pa->kclock || t->on[SS_SEAM_EXIT_TP]),
		     "%s: sched_exit_tp compiled", what);
	cr_assert_eq(pa->exit_tp_now,
		     pa->exit_tp_prog && (o->trace || t->on[SS_SEAM_EXIT_TP] ||
					  t->on[SS_SEAM_EXIT_TP_NOW]),
		     "%s: sched_exit_tp at once", what);
	/* --blame's waits in task storage need tp_btf: debug info kept */
	cr_assert_eq(p->blame.task_storage,
		     o->blame && pa->mode.tp_btf && k->task_storage &&
			     !t->on[SS_SEAM_NO_TASK_STORAGE],
		     "%s: task storage", what);
	cr_assert_eq(pa->mode.keep_btf, p->blame.task_storage, "%s: keep_btf",
		     what);
	/* who needs sched_process_exit, sched_wakeup, sched_migrate_task */
	cr_assert_eq(p->need_exit,
		     waits || (o->memory && k->tp_mem[SS_MEM_K_RECLAIM]) ||
			     (o->blame && !p->blame.task_storage),
		     "%s: need exit", what);
	/* --blame times waits from sched_wakeup only where the kernel's
	 * run_delay cannot be read in place */
	cr_assert_eq(p->blame.kq,
		     o->blame && pa->mode.tp_btf && k->run_delay_ok &&
			     k->run_delay_live,
		     "%s: blame kq", what);
	cr_assert_eq(p->need_wakeup,
		     (o->hist & SS_HIST_RUNQ) || (o->blame && !p->blame.kq),
		     "%s: need wakeup", what);
	cr_assert_eq(p->need_migrate, o->blame && !p->blame.kq,
		     "%s: need migrate", what);
	cr_assert_eq(p->blame.kclock,
		     p->blame.kq && pa->task_clock && k->exec_start_ok,
		     "%s: blame kclock", what);
	/* one accumulator map per interval parity, except --trace */
	cr_assert_eq(p->rows.accum_gens, !o->trace, "%s: accum gens", what);
	/* rows keyed by start time need BTF; the row cache needs those */
	cr_assert(!p->rows.row_cache || p->rows.ident_btf, "%s: row cache",
		  what);
	cr_assert(!p->rows.cg_btf || p->rows.ident_btf, "%s: cg", what);
	/* the off-CPU probe serves --offcpu, --wakers and --stacks */
	cr_assert_eq(p->off.on, o->offcpu || o->wakers || o->stacks,
		     "%s: off-CPU probe", what);

	/* the cflags: what the probes read, each name once */
	cr_assert_eq(cflag(c, "SS_RAW_TP", &v), pa->mode.raw_sched,
		     "%s: SS_RAW_TP", what);
	cr_assert_eq(cflag(c, "SS_EXIT_TP", &v), pa->mode.raw_sched,
		     "%s: SS_EXIT_TP", what);
	if (pa->mode.raw_sched) {
		cr_assert_eq(v, pa->exit_tp_prog, "%s: SS_EXIT_TP", what);
		cr_assert_eq(cflag_val(c, "SS_SWITCH_NARGS"), pa->nargs,
			     "%s: nargs", what);
		cr_assert_eq(cflag_val(c, "SS_TASK_CLOCK"), pa->task_clock,
			     "%s: SS_TASK_CLOCK", what);
		cr_assert_eq(cflag_val(c, "SS_TP_BTF"), pa->mode.tp_btf,
			     "%s: SS_TP_BTF", what);
	}
	cr_assert_eq(cflag(c, "SS_TASK_STATE", NULL),
		     pa->mode.raw_sched && pa->nargs == 3, "%s: state", what);
	cr_assert_eq(cflag(c, "SS_KCLOCK", NULL), pa->kclock, "%s: SS_KCLOCK",
		     what);
	cr_assert_eq(cflag_val(c, "SS_MAP_ENTRIES"), p->rows.map_entries,
		     "%s: map entries", what);
	cr_assert_eq(cflag(c, "SS_ACCUM_GENS", NULL), p->rows.accum_gens,
		     "%s: SS_ACCUM_GENS", what);
	cr_assert_eq(cflag_val(c, "SS_NR_COUNTERS"), (unsigned)p->ctr.nr,
		     "%s: counters", what);
	cr_assert_eq(cflag(c, "SS_ATOMIC_OR", &v), p->ctr.nr > 0,
		     "%s: atomic or", what);
	if (p->ctr.nr)
		cr_assert_eq(v, k->atomic_or, "%s: atomic or", what);
	cr_assert_eq(cflag(c, "SS_NEED_EXIT", NULL), p->need_exit,
		     "%s: SS_NEED_EXIT", what);
	cr_assert_eq(cflag(c, "SS_NEED_WAKEUP", NULL), p->need_wakeup,
		     "%s: SS_NEED_WAKEUP", what);
	cr_assert_eq(cflag(c, "SS_BLAME_TASK_STORAGE", NULL),
		     p->blame.task_storage, "%s: storage cflag", what);
	cr_assert_eq(cflag(c, "SS_BLAME_KQ", NULL), p->blame.kq,
		     "%s: SS_BLAME_KQ", what);
	cr_assert_eq(cflag(c, "SS_TASK_EXEC_START", NULL), p->blame.kclock,
		     "%s: SS_TASK_EXEC_START", what);
	cr_assert_eq(cflag(c, "SS_OFFCPU", NULL), p->off.on, "%s: SS_OFFCPU",
		     what);
	cr_assert_eq(cflag(c, "SS_WAKERS", NULL), o->wakers, "%s: SS_WAKERS",
		     what);
	cr_assert_eq(cflag(c, "SS_TRACE", NULL), o->trace, "%s: SS_TRACE",
		     what);
	cr_assert_eq(cflag(c, "SS_MEM_FAULTS", NULL), p->mem.faults,
		     "%s: SS_MEM_FAULTS", what);
	cr_assert_eq(cflag(c, "SS_ROW_CACHE_BITS", NULL), p->rows.row_cache,
		     "%s: row cache cflag", what);
}

/* Decide for @k's kernel and @args; 0 or the decide's error. */
static int plan_for(const struct kernel *kern, const char *args,
		    struct ss_plan *p, struct ss_opts *o, struct ss_kfacts *k,
		    struct ss_seams *t, struct ss_cflags *c, char *err,
		    size_t len)
{
	int ret;

	kern->facts(k);
	opts_of(args, o);
	seams_of(kern->seams, t);
	open_facts(o, k);
	ret = ss_plan_decide(p, o, k, t, err, len);
	if (!ret)
		cr_assert_eq(ss_plan_cflags(p, c), 0, "%s %s: cflags full",
			     kern->name, args);
	return ret;
}

Test(plan, rules_hold_for_every_kernel_and_option_set)
{
	static struct ss_plan p;
	static struct ss_cflags c;
	struct ss_kfacts k;
	struct ss_seams t;
	struct ss_opts o;
	char what[512], err[256];

	for (size_t i = 0; i < NKERNELS; i++) {
		for (size_t j = 0; j < NSETS; j++) {
			int ret = plan_for(&kernels[i], option_sets[j], &p, &o,
					   &k, &t, &c, err, sizeof(err));

			snprintf(what, sizeof(what), "%s [%s]", kernels[i].name,
				 option_sets[j]);
			/* --wakers needs the raw path: refused, said why */
			if (o.wakers && !p.path.mode.raw_sched) {
				cr_assert_eq(ret, 1, "%s: accepted", what);
				cr_assert(strstr(err, "--wakers needs the raw"),
					  "%s: %s", what, err);
				continue;
			}
			cr_assert_eq(ret, 0, "%s: %s", what, err);
			check_rules(what, &p, &o, &k, &t, &c);
		}
	}
}

/* What each kernel of the matrix runs by default (the -v lines). */
Test(plan, default_per_kernel)
{
	static struct ss_plan p;
	static struct ss_cflags c;
	struct ss_kfacts k;
	struct ss_seams t;
	struct ss_opts o;
	char err[256];

	/* 6.18: tp_btf, the task clock, sched_exit_tp not compiled: the
	 * kernel's clock fills in after a hidden switch */
	cr_assert_eq(
		plan_for(&kernels[4], "", &p, &o, &k, &t, &c, err, sizeof(err)),
		0);
	cr_assert(p.path.mode.raw_sched && p.path.mode.tp_btf);
	cr_assert(p.path.task_clock && p.path.kclock);
	cr_assert_str_eq(p.path.kexcl_what, "steal");
	cr_assert(!p.path.whole_slices && !p.path.exit_tp_prog);
	/* 6.12 and 6.1: the same, without sched_exit_tp at all */
	for (int i = 2; i <= 3; i++) {
		cr_assert_eq(plan_for(&kernels[i], "--hist oncpu", &p, &o, &k,
				      &t, &c, err, sizeof(err)),
			     0);
		cr_assert(p.path.mode.tp_btf && p.path.task_clock);
		cr_assert(p.path.whole_slices && !p.path.exit_tp_prog);
		cr_assert(!p.path.kexcl && !cflag(&c, "SS_SE_CFS_RQ", NULL));
	}
	/* 5.10: raw, prev_state from task_struct.state (8 bytes) */
	cr_assert_eq(
		plan_for(&kernels[0], "", &p, &o, &k, &t, &c, err, sizeof(err)),
		0);
	cr_assert(p.path.mode.raw_sched && p.path.nargs == 3);
	cr_assert_eq(cflag_val(&c, "SS_TASK_STATE_SIZE"), 8);
	cr_assert(!p.rows.task_btf_ptr);
	/* ... regular (seam): said why; no kclock, no exit_tp */
	cr_assert_eq(
		plan_for(&kernels[1], "", &p, &o, &k, &t, &c, err, sizeof(err)),
		0);
	cr_assert(!p.path.mode.raw_sched && !p.path.kclock);
	cr_assert_str_eq(p.path.why, "SWITCHSTAT_TEST=no_raw");
	cr_assert_eq(c.n, 20);
	/* no BTF: regular, rows keyed by pid, said why */
	cr_assert_eq(
		plan_for(&kernels[5], "", &p, &o, &k, &t, &c, err, sizeof(err)),
		0);
	cr_assert(!p.path.mode.raw_sched && !p.rows.ident_btf);
	cr_assert_str_eq(p.path.why,
			 "no kernel BTF: No such file or directory");
	cr_assert_eq(p.rows.map_entries, 65536);
}

/* sched_exit_tp: lazy on 6.18 where a feature needs whole slices. */
Test(plan, exit_tp_when)
{
	static struct ss_plan p;
	static struct ss_cflags c;
	struct ss_kfacts k;
	struct ss_seams t;
	struct ss_opts o;
	char err[256];

	cr_assert_eq(plan_for(&kernels[4], "--blame", &p, &o, &k, &t, &c, err,
			      sizeof(err)),
		     0);
	/* --blame on the kernel's run_delay: the kernel's clock fills in */
	cr_assert(p.blame.kq && !p.path.exit_tp_prog);
	cr_assert(p.blame.task_storage && p.path.mode.keep_btf);
	cr_assert_eq(plan_for(&kernels[4], "--hist oncpu", &p, &o, &k, &t, &c,
			      err, sizeof(err)),
		     0);
	cr_assert(p.path.exit_tp_prog && !p.path.exit_tp_now);
	cr_assert_eq(plan_for(&kernels[4], "--trace", &p, &o, &k, &t, &c, err,
			      sizeof(err)),
		     0);
	cr_assert(p.path.exit_tp_prog && p.path.exit_tp_now);
	cr_assert(!p.rows.accum_gens);
	/* 5.10 --blame: no task storage: waits by tid, dropped at exit */
	cr_assert_eq(plan_for(&kernels[0], "--blame", &p, &o, &k, &t, &c, err,
			      sizeof(err)),
		     0);
	cr_assert(!p.blame.task_storage && !p.path.mode.keep_btf);
	cr_assert(p.need_exit);
}

/* The kernel cannot do what the options ask: one line, exit 1. */
Test(plan, refusals)
{
	static struct ss_plan p;
	static struct ss_cflags c;
	struct ss_kfacts k;
	struct ss_seams t;
	struct ss_opts o;
	char err[256];

	cr_assert_eq(plan_for(&kernels[5], "--wakers", &p, &o, &k, &t, &c, err,
			      sizeof(err)),
		     1);
	cr_assert_str_eq(err, "--wakers needs the raw tracepoints (kernel "
			      "BTF, Linux 5.5+), not used here: no kernel "
			      "BTF: No such file or directory");
	k_618(&k);
	k.wakers_missing = "softirq_exit";
	opts_of("--wakers", &o);
	seams_of("", &t);
	cr_assert_eq(ss_plan_decide(&p, &o, &k, &t, err, sizeof(err)), 1);
	cr_assert_str_eq(err, "--wakers: no raw tracepoint softirq_exit in "
			      "this kernel");
	k_618(&k);
	k.tp_migrate = false;
	opts_of("--blame", &o);
	cr_assert_eq(ss_plan_decide(&p, &o, &k, &t, err, sizeof(err)), 1);
	cr_assert(strstr(err, "--blame needs the sched:sched_wakeup"));
	k_618(&k);
	k.tp_wakeup_new = false;
	opts_of("--hist runq", &o);
	cr_assert_eq(ss_plan_decide(&p, &o, &k, &t, err, sizeof(err)), 1);
	cr_assert(strstr(err, "--hist runq needs"));
	/* ... but --hist oncpu does not need them */
	opts_of("--hist oncpu", &o);
	cr_assert_eq(ss_plan_decide(&p, &o, &k, &t, err, sizeof(err)), 0);
}

/* ---- the cflags the build before the plan wrote ------------------------ */

/*
 * The cflags of golden file @path (test_plan's folder, GOLDEN_DIR) for
 * @facts' kernel: every entry made again and compared.  Returns the count.
 */
static int golden(const char *name, void (*facts)(struct ss_kfacts *k))
{
	static struct ss_plan p;
	static struct ss_cflags c;
	char path[512], line[8192], head[1024], got[8192];
	struct ss_kfacts k;
	struct ss_seams t;
	struct ss_opts o;
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
	f = fopen(path, "r");
	cr_assert(f, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char seams[128] = "", *args, *close;
		size_t len = 0;

		if (strncmp(line, "=== [", 5))
			continue;
		snprintf(head, sizeof(head), "%s: %.900s", name, line);
		head[strcspn(head, "\n")] = '\0';
		close = strchr(line + 5, ']');
		cr_assert(close, "%s", head);
		snprintf(seams, sizeof(seams), "%.*s", (int)(close - line - 5),
			 line + 5);
		args = close + 1;
		args[strcspn(args, "\n")] = '\0';
		snprintf(got, sizeof(got), "%s", args);
		cr_assert(fgets(line, sizeof(line), f), "%s: no cflags", head);
		line[strcspn(line, "\n")] = '\0';

		facts(&k);
		opts_of(got, &o);
		seams_of(seams, &t);
		open_facts(&o, &k);
		if (ss_plan_decide(&p, &o, &k, &t, got, sizeof(got))) {
			/* a refusal: the build before said the same */
			cr_assert(strstr(line, "switchstat: --wakers needs"),
				  "%s: %s", head, got);
			continue;
		}
		cr_assert_eq(ss_plan_cflags(&p, &c), 0, "%s: full", head);
		got[0] = '\0';
		for (int i = 0; i < c.n; i++)
			len += snprintf(got + len, sizeof(got) - len, "%s%s",
					i ? " " : "", c.v[i]);
		cr_assert_str_eq(got, line, "%s\n  got  %s\n  want %s", head,
				 got, line);
		n++;
	}
	fclose(f);
	return n;
}

Test(plan, cflags_as_before_on_6_18)
{
	cr_assert_geq(golden("cflags-6.18.txt", k_618), 41);
}

Test(plan, cflags_as_before_in_the_guests)
{
	cr_assert_geq(golden("cflags-6.12.txt", k_612), 16);
	cr_assert_geq(golden("cflags-6.1.txt", k_61), 16);
	cr_assert_geq(golden("cflags-5.10.txt", k_510), 16);
}

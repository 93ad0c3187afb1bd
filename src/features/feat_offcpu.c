// SPDX-License-Identifier: GPL-2.0
/*
 * feat_offcpu.c - off-CPU time by reason (--offcpu).
 *
 * The probe (probes/offcpu.bpf.h) times each thread's off-CPU span from
 * its switch-out to its switch-in and charges it, at the switch-in, to the
 * reason its state at the switch-out gives (enum ss_off_reason), in the
 * interval's map (offcpu / offcpu_b, flipped at the interval edges with
 * the accumulator maps), from the later of the span's start and the edge
 * of the interval the CPU is in.  Here, after each edge, the part of each
 * span before the edge that the probe did not charge is added to the
 * interval that ends: the spans still open (the thread is off the CPU
 * now), and those that crossed the edge and ended since (xfrom..xto).  So
 * each interval holds the off-CPU time that fell in it, and on-CPU plus
 * off-CPU time is the time the thread existed in the interval.
 *
 * The I/O wait bit (task_struct.in_iowait, a bitfield) is found in the
 * kernel's BTF; without it I/O waits count as D.  TASK_KILLABLE is told
 * apart on the raw tracepoint path only (the regular one reports D).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/libbpf.h>

#include "feat_offcpu.h"
#include "map_drain.h"
#include "probes/offcpu_shared.h"

struct offcpu_state {
	int acc_fd[2]; /* offcpu, offcpu_b */
	int task_fd, edge_fd, gen_fd;
	struct ss_map_drain drain;
	__u32 *tids; /* drain.cap keys of offcpu_task */
	uint64_t t_prev; /* time of the last edge read (0: none yet) */
};

/*
 * The plan's off-CPU probe (plan.c): --offcpu, or the spans --wakers and
 * --stacks attribute; -v says what it tells apart.  With the test seam
 * miss_arrive=N (2-1000) the probe ignores every Nth switch-in of a
 * thread with an open span, as if the kernel had not run the program for
 * it (offcpu.bpf.h).  SS_OFF_KSUM: the probe closes a span whose switch-in
 * it did not see by the kernel's clock of the thread's time on CPU since.
 */
static int offcpu_configure(struct ss_app *app, void *vst)
{
	const struct ss_plan_off *off = &app->plan->off;

	if (!off->on)
		return 0;
	if (app->o.verbose)
		ss_diag("--offcpu: S, D, %sI, T, t, R told apart; I/O wait %s; "
			"a span whose switch-in was not seen ends %s",
			app->plan->path.mode.raw_sched ? "D killable, " : "",
			off->iowait ? "from task_struct.in_iowait (BTF)"
				    : "not known (counted as D)",
			off->ksum ? "at the thread's arrival "
				    "(se.sum_exec_runtime)"
				  : "at its next switch-out");
	return 0;
}

/*
 * Add @ns of @reason for the row (@key, @comm, @cgroup_id) as a row of
 * its own (coalesced with the interval's rows afterwards).
 */
static int push_off(struct ss_interval *iv, const struct ss_key *key,
		    const char *comm, uint64_t cgroup_id, const __u64 *ns)
{
	struct ss_val v;

	memset(&v, 0, sizeof(v));
	memcpy(v.comm, comm, sizeof(v.comm));
	v.cgroup_id = cgroup_id;
	if (ss_rows_push(iv, key, &v))
		return -ENOMEM;
	memcpy(iv->rows[iv->n - 1].off_ns, ns,
	       sizeof(iv->rows[iv->n - 1].off_ns));
	return 0;
}

/*
 * The parts before the edge at @t (after the one at st->t_prev) of the
 * spans the probe leaves to the host (offcpu.bpf.h); threads seen exiting
 * are deleted once read.  The keys are collected first: a walk whose
 * current key is deleted starts again from the first (charging twice).
 */
static int snapshot(struct ss_interval *iv, struct offcpu_state *st, uint64_t t)
{
	__u32 *keys = st->tids, *prev = NULL, next;
	uint32_t nkeys = 0, ndead = 0;
	struct ss_off_task tk;

	while (nkeys < st->drain.cap &&
	       !bpf_get_next_key(st->task_fd, prev, &next)) {
		keys[nkeys] = next;
		prev = &keys[nkeys++];
	}
	for (uint32_t i = 0; i < nkeys; i++) {
		__u64 ns[SS_OFF_MAX] = { 0 };
		uint64_t from = 0;
		__u32 reason = SS_OFF_MAX;

		if (bpf_lookup_elem(st->task_fd, &keys[i], &tk))
			continue;
		if (tk.xto == t) { /* crossed this edge, ended since */
			from = tk.xfrom;
			reason = tk.xreason;
		} else if (tk.since && tk.since < t) { /* still off the CPU */
			from = tk.since;
			reason = tk.reason;
		}
		if (from < st->t_prev)
			from = st->t_prev;
		if (reason < SS_OFF_MAX && from && from < t) {
			ns[reason] = t - from;
			if (push_off(iv, &tk.key, tk.comm, tk.cgroup_id, ns))
				return -ENOMEM;
		}
		if (tk.dead) /* keys[] before i are read: reuse them */
			keys[ndead++] = keys[i];
	}
	for (uint32_t i = 0; i < ndead; i++)
		bpf_delete_elem(st->task_fd, &keys[i]);
	return 0;
}

/*
 * After each collect (app->rows_extra): the interval's off-CPU rows, the
 * probe's (the map the CPUs left at the edge) and the host's part.
 */
static int offcpu_rows(struct ss_app *app, void *vst)
{
	struct offcpu_state *st = vst;
	struct ss_interval *iv = &app->iv;
	size_t first = iv->n;
	struct ss_off_edge e = { 0 };
	uint64_t gen = 0, t = 0;
	__u32 zero = 0, idx;
	int n;

	if (!bpf_lookup_elem(st->gen_fd, &zero, &gen)) {
		idx = gen & 1;
		if (!bpf_lookup_elem(st->edge_fd, &idx, &e) && e.gen == gen)
			t = e.ts;
	}
	if (t && st->t_prev && t > st->t_prev && snapshot(iv, st, t)) {
		ss_diag("--offcpu: out of memory");
		return 1;
	}
	if (t)
		st->t_prev = t;
	/* the map of the interval that ended: the other parity */
	st->drain.fd = st->acc_fd[(gen + 1) & 1];
	do {
		const struct ss_key *keys = st->drain.keys;
		const struct ss_off_val *vals = st->drain.vals;

		n = ss_map_drain(&st->drain);
		if (n < 0) {
			ss_diag("reading BPF map offcpu: %s", strerror(-n));
			return 1;
		}
		for (int i = 0; i < n; i++)
			if (push_off(iv, &keys[i], vals[i].comm,
				     vals[i].cgroup_id, vals[i].ns)) {
				ss_diag("--offcpu: out of memory");
				return 1;
			}
	} while ((uint32_t)n == st->drain.cap);
	ss_rows_coalesce(iv, first);
	return 0;
}

static int offcpu_attach(struct ss_app *app, void *vst)
{
	struct offcpu_state *st = vst;

	if (!app->o.offcpu && !app->o.wakers && !app->o.stacks)
		return 0;
	st->acc_fd[0] = ss_bpf_map_fd(&app->bpf, "offcpu");
	st->acc_fd[1] = ss_bpf_map_fd(&app->bpf, "offcpu_b");
	st->task_fd = ss_bpf_map_fd(&app->bpf, "offcpu_task");
	st->edge_fd = ss_bpf_map_fd(&app->bpf, "offcpu_edge");
	st->gen_fd = ss_bpf_map_fd(&app->bpf, "accum_gen");
	if (st->acc_fd[0] < 0 || st->acc_fd[1] < 0 || st->task_fd < 0 ||
	    st->edge_fd < 0 || st->gen_fd < 0) {
		ss_diag("BPF maps of --offcpu missing");
		return 1;
	}
	st->drain.key_size = sizeof(struct ss_key);
	st->drain.val_size = sizeof(struct ss_off_val);
	st->drain.cap = app->plan->rows.map_entries;
	st->drain.keys = calloc(st->drain.cap, sizeof(struct ss_key));
	st->drain.vals = calloc(st->drain.cap, sizeof(struct ss_off_val));
	st->tids = calloc(st->drain.cap, sizeof(*st->tids));
	if (!st->drain.keys || !st->drain.vals || !st->tids) {
		ss_diag("--offcpu: out of memory");
		return 1;
	}
	app->rows_extra = offcpu_rows;
	app->rows_extra_st = st;
	return 0;
}

static void offcpu_close(struct ss_app *app, void *vst)
{
	struct offcpu_state *st = vst;

	if (app->rows_extra_st == st) {
		app->rows_extra = NULL;
		app->rows_extra_st = NULL;
	}
	free(st->drain.keys);
	free(st->drain.vals);
	free(st->tids);
	st->tids = NULL;
	st->drain.keys = st->drain.vals = NULL;
}

const struct ss_feature ss_feat_offcpu = {
	.name = "offcpu",
	.state_size = sizeof(struct offcpu_state),
	.configure = offcpu_configure,
	.attach = offcpu_attach,
	.close = offcpu_close,
};

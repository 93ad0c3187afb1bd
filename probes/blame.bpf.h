/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blame.bpf.h - run-queue blame (--blame): each victim's run-queue wait,
 * split by what ran on its CPU while it waited.  Compiles to nothing unless
 * the host (src/features/feat_blame.c) sets SS_BLAME=1.
 *   SS_BLAME_BY       0: per process, 1: per thread (-L), 2: per cgroup (-G)
 *   SS_BLAME_RING     slices kept per CPU (a power of two)
 *   SS_BLAME_ENTRIES  size of the blame map (victim, culprit pairs)
 *   SS_NR_CPUS        possible CPUs (one ring each)
 *
 * Every CPU keeps a ring of its last SS_BLAME_RING slices (owner, start,
 * end); a checkpoint that splits one slice of the same owner extends it.
 * A task starts waiting when it is woken (sched_wakeup, on the target CPU)
 * or preempted (switched out runnable); it stops at its switch-in.  The
 * wait is charged at its next switch-out or checkpoint, when it is the
 * current task (so its tgid and cgroup are known from helpers): the ring
 * is walked back over the wait and each overlap charged to the slice's
 * owner, idle slices to SS_BLAME_IDLE, and the rest (slices older than the
 * ring, switches that were not seen) to SS_BLAME_UNKNOWN.  A task that
 * moves to another CPU while waiting (sched_migrate_task) keeps the part
 * before the move, walked later in the old CPU's ring; a second move
 * makes the first part unknown.  So a victim's sum is its whole measured
 * wait.
 *
 * SS_BLAME_KQ (tp_btf, where the kernel keeps sched_info): no wakeup or
 * move programs.  A wait's length is the kernel's own, the growth of the
 * thread's sched_info.run_delay (the run queue's clock: stamped at the
 * enqueue, added at the switch-in, just after sched_switch) from its
 * switch-in to its next switch-out, placed to end at the switch-in on this
 * CPU's ring.  The thread's run_delay when its waits were last charged is
 * kept (its task storage, or the hash by tid): growth before the
 * switch-in that no charge took (the part of a wait before a move to
 * another CPU, a wait ended by a switch the kernel did not report) is
 * (unknown).  So a victim's sum is its run_delay growth.
 *
 * SS_BLAME_KCLOCK (SS_BLAME_KQ with the task clock and the offset
 * SS_TASK_EXEC_START of se.exec_start): the ring's slices are on the
 * kernel's clock too, the rq_clock_task value that __schedule stamps on
 * the task it picks (next's se.exec_start; prev's, put or dequeued at the
 * same clock update, when next is the idle task), so no clock is read at
 * a switch between two tasks.  Slices are pushed at switches only.
 */
#ifndef SWITCHSTAT_BLAME_BPF_H
#define SWITCHSTAT_BLAME_BPF_H

#include "blame_shared.h"
#include "common.bpf.h"
#include "select.bpf.h"
#include "shared.h"
#include "switch_ctx.bpf.h"

#ifndef SS_BLAME
#define SS_BLAME 0
#endif
#if SS_BLAME && SS_BLAME_KQ && SS_TASK_CLOCK && defined(SS_TASK_EXEC_START)
#define SS_BLAME_KCLOCK 1
#else
#define SS_BLAME_KCLOCK 0
#endif

#if SS_BLAME
#ifndef SS_BLAME_BY
#define SS_BLAME_BY 0
#endif
#ifndef SS_BLAME_RING
#define SS_BLAME_RING 32
#endif
#ifndef SS_BLAME_ENTRIES
#define SS_BLAME_ENTRIES 16384
#endif
#ifndef SS_NR_CPUS
#define SS_NR_CPUS 64 /* possible CPUs, from the host */
#endif

struct ss_blame_slice {
	__u64 start;
	__u64 end;
	__u64 cgroup_id; /* SS_BLAME_BY 2 only */
	__u32 tgid;
	__u32 tid; /* 0: the idle task */
	char comm[SS_COMM_LEN];
};

/*
 * A wait: since when (0: none), on which CPU's run queue; and, when it
 * moved to another CPU while waiting, the part before the move (seg_*, on
 * seg_cpu) plus what is already known to be unknown (earlier moves).
 */
struct ss_blame_wait {
	__u64 since;
	__u64 seg_since;
	__u64 seg_until; /* 0: no earlier part */
	__u64 unknown_ns;
	__u32 cpu;
	__u32 seg_cpu;
};

#ifndef SS_BLAME_KQ
#define SS_BLAME_KQ 0
#endif
#if SS_BLAME_KQ && !(SS_TP_BTF && defined(SS_TASK_RUN_DELAY))
#error "SS_BLAME_KQ needs SS_TP_BTF and SS_TASK_RUN_DELAY"
#endif

#if SS_BLAME_KQ
/* SS_BLAME_KQ: a thread's run_delay when its waits were last charged */
struct ss_blame_base {
	__u64 rd;
};
typedef struct ss_blame_base ss_blame_tval;
#else
typedef struct ss_blame_wait ss_blame_tval;
#endif

#ifndef SS_BLAME_CACHE
#define SS_BLAME_CACHE 2 /* pairs cached per CPU (a power of two) */
#endif

/* A pair's delay not yet in the blame map (ns 0: an empty slot). */
struct ss_blame_cached {
	struct ss_blame_key key;
	__u64 ns;
	char victim_comm[SS_COMM_LEN];
	char culprit_comm[SS_COMM_LEN];
};

struct ss_blame_cpu {
	__u64 pushed; /* slices ever pushed; the newest is pushed - 1 */
	struct ss_blame_slice ring[SS_BLAME_RING];
	/* the wait of the task switched in last, charged at its next event */
	struct ss_blame_wait pend;
	__u64 pend_until;
	__u64 pend_rd; /* SS_BLAME_KQ: its run_delay at the switch-in */
	/* SS_BLAME_KCLOCK: the last switch here (its clock) and the task
	 * it switched in (0: the idle task) */
	__u64 last_k;
	__u32 cur_tid;
	__u32 pad3;
	__u32 pend_tid; /* 0: nothing pending */
	__u32 pad;
	/* a wait being charged now, by the tail-called ss_blame_flush_* */
	struct ss_blame_wait flush;
	__u64 flush_until;
	__u32 flush_tgid;
	__u32 flush_tid; /* 0: nothing to charge */
	/*
	 * The pairs of this CPU's last one-slice waits (ss_blame_flush's
	 * fast path), added up here with plain adds and moved to the blame
	 * map when evicted (round robin, cache_next) and at this CPU's
	 * interval edge (ss_blame_edge), before the host reads the map.
	 * cache_busy: the edge (which may run with interrupts on) is moving
	 * them; a charge then takes the walk, to the map itself.
	 */
	struct ss_blame_cached cache[SS_BLAME_CACHE];
	__u32 cache_next;
	__u32 cache_busy;
	/* 1: move them at this program's tail call (a CPU going offline) */
	__u32 cache_drain;
	__u32 pad2;
};

/*
 * One ring per CPU, indexed by CPU id: written only by its own CPU, read by
 * others for a wait that began there.  Such a read may race with a push;
 * each charge is capped by what is left of the wait, so sums stay exact.
 */
BPF_ARRAY(blame_cpu, struct ss_blame_cpu, SS_NR_CPUS);
#ifndef SS_BLAME_TASK_STORAGE
#define SS_BLAME_TASK_STORAGE 0
#endif
#if SS_BLAME_TASK_STORAGE
/*
 * Each thread's wait, in its task local storage (set by the host only
 * under tp_btf, where every program touching it has the task as a typed
 * pointer, and when the kernel allows it there: tp_btf.h
 * ss_tp_btf_task_storage).  A get is a helper call on the task's own
 * storage, no hash and no bucket; the entry goes with the task.  Made
 * zeroed (since 0: not waiting) at the first wait.  A get that returns
 * NULL (the kernel refuses one nested in another on this CPU) leaves the
 * wait unseen: charged as (unknown) or not at all, never to a culprit.
 */
BPF_TASK_STORAGE(blame_wait, ss_blame_tval);

/* @task's wait entry (@task: a typed task pointer), or NULL */
static __always_inline ss_blame_tval *ss_blame_wait_get(__u32 tid, __u64 task)
{
	return blame_wait.task_storage_get((void *)task, 0, 0);
}

/* ... made when missing */
static __always_inline ss_blame_tval *ss_blame_wait_make(__u64 task)
{
	return blame_wait.task_storage_get((void *)task, 0,
					   BPF_LOCAL_STORAGE_GET_F_CREATE);
}
#else
/*
 * Each thread's wait, by tid.  An entry stays once made (until the thread
 * exits) and is rewritten in place: a wait that ends sets since to 0.  A
 * hash update or delete takes the bucket's lock and swaps or frees an
 * element; a lookup and plain stores do not (the switch program about
 * 190 ns a run cheaper, sched_wakeup 120, measured A/B).  A thread's entry
 * is written by the CPU that runs the scheduler for it at that moment (its
 * wakeup, move, switch-out and switch-in are serialized by the kernel's
 * run queue and pi locks).
 */
BPF_HASH(blame_wait, __u32, ss_blame_tval, SS_MAP_ENTRIES);

/* @tid's wait entry, or NULL (@task: unused here) */
static __always_inline ss_blame_tval *ss_blame_wait_get(__u32 tid, __u64 task)
{
	return blame_wait.lookup(&tid);
}
#endif

/*
 * Start @tid's wait: @w into its entry, made when missing.  @task: the
 * thread as a typed pointer (task storage; 0 on the hash path).
 */
static __always_inline void ss_blame_wait_set(__u32 tid, __u64 task,
					      ss_blame_tval *w)
{
#if SS_BLAME_TASK_STORAGE
	ss_blame_tval *e = task ? ss_blame_wait_make(task) : NULL;

	if (e)
		*e = *w;
	else
		stat_add(SS_STAT_DROPS, 1);
#else
	ss_blame_tval *e = blame_wait.lookup(&tid);

	if (e)
		*e = *w;
	else
		blame_wait.update(&tid, w);
#endif
}
BPF_HASH(blame, struct ss_blame_key, struct ss_blame_val, SS_BLAME_ENTRIES);
/*
 * The charging walks run in programs of their own, tail-called at the end
 * of the switch and checkpoint programs, so the verifier checks their
 * loops apart from everything else those programs do (together they pass
 * its complexity limit).  One array per calling program type; the host
 * puts ss_blame_flush_sw / ss_blame_flush_ck at index 0.
 */
BPF_PROG_ARRAY(blame_tail_sw, 1);
BPF_PROG_ARRAY(blame_tail_ck, 1);

/* The culprit half of *key: @kind, and the owner of slice @s (or none). */
static __always_inline void ss_blame_culprit(struct ss_blame_key *key,
					     __u32 kind,
					     const struct ss_blame_slice *s)
{
	key->culprit_kind = kind;
	key->culprit_tgid = 0;
	key->culprit_tid = 0;
	key->culprit_cgroup = 0;
	if (kind == SS_BLAME_TASK && s) {
		if (SS_BLAME_BY == 2) {
			key->culprit_cgroup = s->cgroup_id;
		} else {
			key->culprit_tgid = s->tgid;
			key->culprit_tid = SS_BLAME_BY == 1 ? s->tid : 0;
		}
	}
}

/*
 * The current task's row name into dst (8-aligned): per process its
 * leader's comm (what the rows show, identity.bpf.h), per thread (-L) its
 * own; per cgroup (-G) the thread's, unused there.
 */
static __always_inline void ss_blame_cur_name(char *dst)
{
	__u64 id = bpf_get_current_pid_tgid();

	ss_ident_name(dst, id >> 32, (__u32)id, SS_BLAME_BY != 0);
}

/* Add ns to the (victim in *key, culprit) pair. */
static __always_inline void ss_blame_add(struct ss_blame_key *key, __u32 kind,
					 const struct ss_blame_slice *s,
					 __u64 ns)
{
	struct ss_blame_val zero = {}, *v;

	if (!ns)
		return;
	ss_blame_culprit(key, kind, s);
	v = blame.lookup(key);
	if (!v) {
		/* the victim is the current task (ss_blame_flush) */
		ss_blame_cur_name(zero.victim_comm);
		if (kind == SS_BLAME_TASK && s)
			__builtin_memcpy(zero.culprit_comm, s->comm,
					 SS_COMM_LEN);
		v = blame.lookup_or_try_init(key, &zero);
	}
	if (v)
		__sync_fetch_and_add(&v->delay_ns, ns);
	else
		stat_add(SS_STAT_DROPS, 1);
}

/* the 40-byte keys @a and @b are equal */
static __always_inline int ss_blame_key_eq(const struct ss_blame_key *a,
					   const struct ss_blame_key *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;

	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3] &&
	       x[4] == y[4];
}

/* Add the cached pair @c to the blame map (made with its names). */
static __always_inline void ss_blame_uncache(struct ss_blame_cached *c)
{
	struct ss_blame_val zero = {}, *v;

	if (!c->ns)
		return;
	v = blame.lookup(&c->key);
	if (!v) {
		__builtin_memcpy(zero.victim_comm, c->victim_comm, SS_COMM_LEN);
		__builtin_memcpy(zero.culprit_comm, c->culprit_comm,
				 SS_COMM_LEN);
		v = blame.lookup_or_try_init(&c->key, &zero);
	}
	if (v)
		__sync_fetch_and_add(&v->delay_ns, c->ns);
	else
		stat_add(SS_STAT_DROPS, 1);
	c->ns = 0;
}

/*
 * Add ns to the (victim in *key, culprit: @kind, slice @s) pair in this
 * CPU's cache @bc: a hit is a plain add; a miss moves the oldest slot's
 * pair to the map and takes its place, with the victim's name (the
 * current task's) and the culprit's.
 */
static __always_inline void
ss_blame_cache_add(struct ss_blame_cpu *bc, struct ss_blame_key *key,
		   __u32 kind, const struct ss_blame_slice *s, __u64 ns)
{
	struct ss_blame_cached *c;

	ss_blame_culprit(key, kind, s);
	for (__u32 i = 0; i < SS_BLAME_CACHE; i++) {
		c = &bc->cache[i];
		if (c->ns && ss_blame_key_eq(&c->key, key)) {
			c->ns += ns;
			return;
		}
	}
	c = &bc->cache[bc->cache_next++ & (SS_BLAME_CACHE - 1)];
	ss_blame_uncache(c);
	c->key = *key;
	c->ns = ns;
	ss_blame_cur_name(c->victim_comm);
	if (kind == SS_BLAME_TASK)
		__builtin_memcpy(c->culprit_comm, s->comm, SS_COMM_LEN);
	else
		__builtin_memset(c->culprit_comm, 0, SS_COMM_LEN);
}

/* Every pair in this CPU's cache @bc to the blame map (at its edge). */
static __always_inline void ss_blame_cache_flush(struct ss_blame_cpu *bc)
{
	/* the edge may be interrupted by a checkpoint's flush: in order */
	bc->cache_busy = 1;
	asm volatile("" ::: "memory");
	for (__u32 i = 0; i < SS_BLAME_CACHE; i++)
		ss_blame_uncache(&bc->cache[i]);
	asm volatile("" ::: "memory");
	bc->cache_busy = 0;
}

/*
 * Charge the wait [since, until) on CPU cpu_id's run queue to the slices
 * of its ring; what they do not cover is SS_BLAME_UNKNOWN.
 */
static __always_inline void
ss_blame_walk(struct ss_blame_key *key, __u32 cpu_id, __u64 since, __u64 until)
{
	struct ss_blame_cpu *bc = blame_cpu.lookup(&cpu_id);
	__u64 left = until > since ? until - since : 0;

	if (!left)
		return;
	if (!bc) {
		ss_blame_add(key, SS_BLAME_UNKNOWN, NULL, left);
		return;
	}

	__u64 pushed = bc->pushed;

#pragma clang loop unroll(disable)
	for (__u32 i = 0; i < SS_BLAME_RING && left; i++) {
		if (i >= pushed)
			break;

		__u32 idx = (__u32)(pushed - 1 - i) & (SS_BLAME_RING - 1);
		struct ss_blame_slice *s = &bc->ring[idx];
		__u64 lo = s->start > since ? s->start : since;
		__u64 hi = s->end < until ? s->end : until;
		__u64 ns = hi > lo ? hi - lo : 0;

		if (s->end <= since)
			break;
		if (ns > left) /* a slice read while it was rewritten */
			ns = left;
		ss_blame_add(key, s->tid ? SS_BLAME_TASK : SS_BLAME_IDLE, s,
			     ns);
		left -= ns;
		if (s->start <= since)
			break;
	}
	ss_blame_add(key, SS_BLAME_UNKNOWN, NULL, left);
}

/*
 * The current task (tgid, tid) was switched in on this CPU after the wait
 * pending in bc: stage that wait for the tail-called flush program, which
 * charges it to what ran meanwhile.  @selected: it passes the
 * -p/-t/--cgroup filters.
 */
static __always_inline void ss_blame_stage(struct ss_blame_cpu *bc, __u32 tgid,
					   __u32 tid, int selected)
{
	__u32 pend_tid = bc->pend_tid;

	bc->pend_tid = 0;
	if (!pend_tid || pend_tid != tid || !selected)
		return;
	bc->flush = bc->pend;
	bc->flush_until = bc->pend_until;
	bc->flush_tgid = tgid;
	bc->flush_tid = tid;
}

/*
 * The staged wait of the current task: charge it on each CPU it waited on.
 * Runs as its own program (ss_blame_flush_sw/_ck), still as that task.
 */
static __always_inline int ss_blame_flush(void)
{
	__u32 cpu_id = bpf_get_smp_processor_id();
	struct ss_blame_cpu *bc = blame_cpu.lookup(&cpu_id);
	struct ss_blame_key key = {};
	if (!bc)
		return 0;
	if (bc->cache_drain) {
		bc->cache_drain = 0;
		ss_blame_cache_flush(bc);
	}
	if (!bc->flush_tid)
		return 0;

	struct ss_blame_wait w = bc->flush;
	__u64 until = bc->flush_until;

	if (SS_BLAME_BY == 2) {
		key.victim_cgroup = bpf_get_current_cgroup_id();
	} else {
		key.victim_tgid = bc->flush_tgid;
		key.victim_tid = SS_BLAME_BY == 1 ? bc->flush_tid : 0;
	}
	bc->flush_tid = 0;
	/*
	 * The usual wait: on this CPU only, within one slice here (woken
	 * while it ran, switched in at its end: the newest slice but the
	 * victim's own since then): one charge, to this CPU's cache, without
	 * the walk and the map
	 */
	__u64 pushed = bc->pushed;

	if (!w.unknown_ns && !w.seg_until && w.cpu == cpu_id &&
	    until > w.since && pushed && !bc->cache_busy) {
		struct ss_blame_slice *s =
			&bc->ring[(__u32)(pushed - 1) & (SS_BLAME_RING - 1)];

		if (s->start >= until && pushed > 1)
			s = &bc->ring[(__u32)(pushed - 2) &
				      (SS_BLAME_RING - 1)];
		if (s->start <= w.since && s->end >= until) {
			ss_blame_cache_add(bc, &key,
					   s->tid ? SS_BLAME_TASK
						  : SS_BLAME_IDLE,
					   s, until - w.since);
			return 0;
		}
	}
	ss_blame_add(&key, SS_BLAME_UNKNOWN, NULL, w.unknown_ns);
	if (w.seg_until)
		ss_blame_walk(&key, w.seg_cpu, w.seg_since, w.seg_until);
	if (w.cpu == cpu_id)
		ss_blame_walk(&key, cpu_id, w.since, until);
	else if (until > w.since) /* moved, and not seen moving */
		ss_blame_add(&key, SS_BLAME_UNKNOWN, NULL, until - w.since);
	return 0;
}

/* the flush program of each calling program type (loaded by the host) */
int ss_blame_flush_sw(void *ctx)
{
	return ss_blame_flush();
}

int ss_blame_flush_ck(void *ctx)
{
	return ss_blame_flush();
}

/*
 * The current task's (tgid, tid) row name into dst (8-aligned): per
 * process (SS_BLAME_BY 0) its leader's comm, as the rows have it (a
 * culprit's threads are one process row); else the thread's comm, read in
 * place from @task (sched_switch's prev under tp_btf, a typed pointer:
 * two loads instead of a helper call at every switch) by identity.bpf.h's
 * reader, which also falls back to the helper without BTF task pointers;
 * @task 0: the helper.
 */
static __always_inline void ss_blame_comm(char *dst, __u64 task, __u32 tgid,
					  __u32 tid)
{
	if (SS_BLAME_BY == 0 && tid != tgid)
		ss_ident_name(dst, tgid, tid, 0);
	else if (task)
		ss_ident_cur_comm_of(dst, task);
	else
		bpf_get_current_comm(dst, SS_COMM_LEN);
}

/*
 * The current task (tgid, tid) ran on this CPU from start to end; @task:
 * it, as ss_blame_comm takes it.
 */
static __always_inline void ss_blame_push(struct ss_blame_cpu *bc, __u64 start,
					  __u64 end, __u32 tgid, __u32 tid,
					  __u64 task)
{
	__u64 cg = SS_BLAME_BY == 2 && tid ? bpf_get_current_cgroup_id() : 0;
	struct ss_blame_slice *s;

	if (!start || end <= start)
		return;
	if (bc->pushed) {
		s = &bc->ring[(__u32)(bc->pushed - 1) & (SS_BLAME_RING - 1)];
		if (s->tid == tid && s->tgid == tgid && s->end == start &&
		    s->cgroup_id == cg) {
			s->end = end; /* a checkpoint split it */
			return;
		}
	}
	s = &bc->ring[(__u32)bc->pushed & (SS_BLAME_RING - 1)];
	s->start = start;
	s->end = end;
	s->tgid = tgid;
	s->tid = tid;
	s->cgroup_id = cg;
	ss_blame_comm(s->comm, task, tgid, tid);
	bc->pushed++;
}

#if !SS_BLAME_KQ
/*
 * next_tid arrives on this CPU at now: its wait ends there.  It is staged
 * and charged at the thread's next switch or checkpoint, when it is the
 * current task (ss_blame_stage, ss_blame_flush).  @next_task: the thread,
 * typed (task storage; 0 on the hash path).
 */
static __always_inline void ss_blame_arrive(struct ss_blame_cpu *bc, __u64 now,
					    __u32 next_tid, __u64 next_task)
{
	struct ss_blame_wait *w;

	if (!next_tid || (SS_BLAME_TASK_STORAGE && !next_task))
		return;
	w = ss_blame_wait_get(next_tid, next_task);
	if (!w || !w->since)
		return;
	bc->pend = *w;
	bc->pend_until = now;
	bc->pend_tid = next_tid;
	w->since = 0;
}
#endif

#if SS_BLAME_KQ
/*
 * SS_BLAME_KQ: at sched_switch, the current task (tgid, tid; @task, typed)
 * leaves CPU cpu_id.  If it is the task switched in last here (pending in
 * bc), its wait is its run_delay growth since then: staged for the
 * tail-called flush, ending at its switch-in, with the growth before it
 * that no charge took as (unknown).  @selected: it passes the
 * -p/-t/--cgroup filters.  @seen 0: it arrived again by a switch the
 * kernel did not report (the slice ending has no known start), so part of
 * the growth ended there, behind a task not seen: all of it (unknown).
 */
static __always_inline void ss_blame_stage_kq(struct ss_blame_cpu *bc,
					      __u32 cpu_id, __u32 tgid,
					      __u32 tid, __u64 task,
					      int selected, int seen)
{
	__u32 pend_tid = bc->pend_tid;
	__u64 rd, rd0 = bc->pend_rd, until = bc->pend_until, len, unk = 0;
	ss_blame_tval *b;

	bc->pend_tid = 0;
	if (!pend_tid || pend_tid != tid || !selected || !task)
		return;
	rd = *(__u64 *)(task + SS_TASK_RUN_DELAY);
	len = rd > rd0 ? rd - rd0 : 0;
	b = ss_blame_wait_get(tid, task);
	if (b) {
		unk = rd0 > b->rd ? rd0 - b->rd : 0;
		b->rd = rd;
	} else { /* its first: what it waited before is not ours */
		ss_blame_tval n = { .rd = rd };

		ss_blame_wait_set(tid, task, &n);
	}
	if (!seen) {
		unk += len;
		len = 0;
	}
	if (len > until)
		len = until;
	if (!len && !unk)
		return;
	bc->flush.since = until - len;
	bc->flush.seg_since = 0;
	bc->flush.seg_until = 0;
	bc->flush.unknown_ns = unk;
	bc->flush.cpu = cpu_id;
	bc->flush.seg_cpu = 0;
	bc->flush_until = until;
	bc->flush_tgid = tgid;
	bc->flush_tid = tid;
}
#endif

/*
 * At sched_switch @sw, or a checkpoint (sw->at_switch 0, next_tid ==
 * tid): the current task (tgid, tid) ran from last to now and leaves;
 * next_tid arrives.  At a switch under tp_btf the leaving task (sw->task)
 * is read in place for its comm and wait entry (task storage), and next
 * (sw->next) for its wait entry; else the helpers and the tid.
 */
static __always_inline void ss_blame_switch(const struct ss_switch_ctx *sw)
{
	__u32 cpu_id = bpf_get_smp_processor_id();
	struct ss_blame_cpu *bc = blame_cpu.lookup(&cpu_id);
	__u32 tgid = sw->tgid, tid = sw->tid, next_tid = sw->next_tid;
	__u64 now = sw->now;
	int selected = ss_task_selected(tgid, tid);
	__u64 task = sw->at_switch && SS_TP_BTF ? sw->task : 0;
	__u64 next_task = sw->at_switch && SS_BLAME_TASK_STORAGE ? sw->next : 0;

	if (!bc)
		return;
#if SS_BLAME_KCLOCK
	/*
	 * The ring on the kernel's clock: pushed at switches only (a
	 * checkpoint has no fresh value of it); a wait stays pending until
	 * the task's switch-out
	 */
	if (!sw->at_switch || !task)
		return;
	now = *(__u64 *)((next_tid ? sw->next : task) + SS_TASK_EXEC_START);

	__u64 last = bc->last_k, d;
	int seen = bc->cur_tid == tid;

	ss_blame_stage_kq(bc, cpu_id, tgid, tid, task, tid != 0 && selected,
			  seen);
	/*
	 * The task leaving arrived by a switch the kernel did not report:
	 * its slice from the kernel's clock of it since it was picked (fair
	 * class; else none), the same clock, so no program is needed at
	 * every __schedule (sched_exit_tp) for it
	 */
	if (!seen) {
		d = tid ? ss_arg_task_kslice(task) : 0;
		last = d && d < now ? now - d : 0;
	}
	ss_blame_push(bc, last, now, tgid, tid, task);
	bc->last_k = now;
	bc->cur_tid = next_tid;
	/* next's wait is added to its run_delay just after this */
	bc->pend_tid = next_tid;
	bc->pend_until = now;
	bc->pend_rd = next_tid ? *(__u64 *)(sw->next + SS_TASK_RUN_DELAY) : 0;
#elif SS_BLAME_KQ
	/*
	 * A checkpoint leaves the wait pending, for the task's switch-out:
	 * its run_delay is read in place from the switch's typed prev
	 */
	__u64 last = sw->last;

	if (sw->at_switch)
		ss_blame_stage_kq(bc, cpu_id, tgid, tid, task,
				  tid != 0 && selected, last != 0);
#if SS_TASK_CLOCK
	/*
	 * The slice of a task that arrived by a switch the kernel did not
	 * report: its start from the kernel's clock of it since it was
	 * picked (ss_tslice_next's k_ns, fair class), so no program is
	 * needed at every __schedule (sched_exit_tp) for it
	 */
	if (!last && tid) {
		__u32 zero = 0;
		struct ss_cpu *c = cpu_state.lookup(&zero);

		if (c && c->k_charge && c->k_ns < now)
			last = now - c->k_ns;
	}
#endif
	ss_blame_push(bc, last, now, tgid, tid, task);
	if (!sw->at_switch)
		return;
	/* next's wait is added to its run_delay just after this */
	bc->pend_tid = next_tid;
	bc->pend_until = now;
	bc->pend_rd = next_tid ? *(__u64 *)(sw->next + SS_TASK_RUN_DELAY) : 0;
#else
	ss_blame_stage(bc, tgid, tid, tid != 0 && selected);
	ss_blame_push(bc, sw->last, now, tgid, tid, task);
	if (!sw->at_switch)
		return;
	if (tid) {
		if (sw->prev_state & SS_PREV_STATE_SLEEP_MASK) {
			/* a wakeup seen while it ran */
			struct ss_blame_wait *w =
				SS_BLAME_TASK_STORAGE && !task
					? NULL
					: ss_blame_wait_get(tid, task);

			if (w)
				w->since = 0;
		} else {
			struct ss_blame_wait pre = { .since = now,
						     .cpu = cpu_id };

			ss_blame_wait_set(tid, task, &pre); /* preempted */
		}
	}
	ss_blame_arrive(bc, now, next_tid, next_task);
#endif
	/*
	 * A switch to idle from a kernel thread, as a CPU's last before it
	 * goes offline (task.bpf.h ss_current_kthread), where the edge does
	 * not run: the cached pairs go to the map at the tail call, not
	 * after the CPU is back
	 */
	if (!next_tid && ss_current_kthread())
		bc->cache_drain = 1;
}

/*
 * At an interval edge (switch.bpf.c ss_edge): the slice [last, now) goes
 * into the ring like a checkpoint's, but nothing is staged: that program
 * cannot make the tail call, so a pending wait stays for the next event.
 */
static __always_inline void ss_blame_edge(const struct ss_switch_ctx *sw)
{
	__u32 cpu_id = bpf_get_smp_processor_id();
	struct ss_blame_cpu *bc = blame_cpu.lookup(&cpu_id);

	if (bc) {
		if (!SS_BLAME_KCLOCK) /* else pushed at switches only */
			ss_blame_push(bc, sw->last, sw->now, sw->tgid, sw->tid,
				      0);
		ss_blame_cache_flush(bc);
	}
}

/*
 * The current task arrived now by a switch the kernel did not report
 * (sched_exit_tp): its wait ends now, not at its next reported arrival.
 * Who ran before it is unknown: no slice is pushed, so waits over that
 * time are charged to (unknown).
 */
static __always_inline void ss_blame_unreported(const struct ss_switch_ctx *sw)
{
	__u32 cpu_id = bpf_get_smp_processor_id();
	struct ss_blame_cpu *bc = blame_cpu.lookup(&cpu_id);

	if (!bc)
		return;
#if SS_BLAME_KQ
	/* its wait is in its run_delay already: (unknown) at its next
	 * charge */
	bc->pend_tid = 0;
#else
	ss_blame_arrive(
		bc, sw->now, sw->tid,
		SS_BLAME_TASK_STORAGE ? (__u64)bpf_get_current_task_btf() : 0);
#endif
}

#if !SS_BLAME_KQ
/*
 * A thread is woken onto target CPU cpu_id's run queue: it waits now.
 * @task: it, typed (task storage; else 0).
 */
static __always_inline void ss_blame_wakeup(__u32 tid, __u32 cpu_id, __u64 task)
{
	struct ss_blame_wait w = { .since = bpf_ktime_get_ns(), .cpu = cpu_id };

	if (tid)
		ss_blame_wait_set(tid, task, &w);
}

/*
 * A thread moves from orig to dest.  If it is waiting, the part of the
 * wait so far was on orig: keep it as the wait's earlier part (one is
 * kept; an older one becomes unknown) and go on waiting on dest.
 */
static __always_inline void ss_blame_migrate(__u32 tid, __u32 orig, __u32 dest,
					     __u64 task)
{
	struct ss_blame_wait *w = !tid || (SS_BLAME_TASK_STORAGE && !task)
					  ? NULL
					  : ss_blame_wait_get(tid, task);
	__u64 now = bpf_ktime_get_ns();

	if (!w || !w->since || now < w->since)
		return;
	if (w->seg_until > w->seg_since)
		w->unknown_ns += w->seg_until - w->seg_since;
	if (w->cpu == orig) {
		w->seg_since = w->since;
		w->seg_until = now;
		w->seg_cpu = orig;
	} else { /* a move not seen: where it waited is unknown */
		w->unknown_ns += now - w->since;
		w->seg_since = 0;
		w->seg_until = 0;
	}
	w->since = now;
	w->cpu = dest;
}

#endif

/* A thread exited: drop its wait (task storage goes with the task). */
static __always_inline void ss_blame_exit(__u32 tid)
{
#if !SS_BLAME_TASK_STORAGE
	blame_wait.delete(&tid);
#endif
}

#if SS_BLAME_KQ
#define SS_BLAME_WAKEUP(pid, cpu_id, task) \
	do {                               \
	} while (0)
#define SS_BLAME_MIGRATE(tid, orig, dest, task) \
	do {                                    \
	} while (0)
#else
/* @task: the thread, typed (tp_btf), else 0 */
#define SS_BLAME_WAKEUP(pid, cpu_id, task) ss_blame_wakeup(pid, cpu_id, task)
#define SS_BLAME_MIGRATE(tid, orig, dest, task) \
	ss_blame_migrate(tid, orig, dest, task)
#endif

/*
 * At the very end of the switch (@ck 0) or checkpoint (@ck 1) program: a
 * staged wait is charged by a tail call (which does not return).
 */
static __always_inline void ss_blame_tail(void *ctx, int ck)
{
	__u32 cpu_id = bpf_get_smp_processor_id();
	struct ss_blame_cpu *bc = blame_cpu.lookup(&cpu_id);

	if (!bc || !(bc->flush_tid || bc->cache_drain))
		return;
	if (ck)
		blame_tail_ck.call(ctx, 0);
	else
		blame_tail_sw.call(ctx, 0);
	bc->flush_tid = 0; /* the tail call failed: drop the wait */
	bc->cache_drain = 0;
	stat_add(SS_STAT_DROPS, 1);
}

#define SS_BLAME_TAIL(ctx, ck) ss_blame_tail(ctx, ck)
#define SS_BLAME_EXIT(tid) ss_blame_exit(tid)
#else
static __always_inline void ss_blame_switch(const struct ss_switch_ctx *sw)
{
}

static __always_inline void ss_blame_edge(const struct ss_switch_ctx *sw)
{
}

static __always_inline void ss_blame_unreported(const struct ss_switch_ctx *sw)
{
}

#define SS_BLAME_WAKEUP(pid, cpu_id, task) \
	do {                               \
	} while (0)
#define SS_BLAME_EXIT(tid) \
	do {               \
	} while (0)
#define SS_BLAME_MIGRATE(tid, orig, dest, task) \
	do {                                    \
	} while (0)
#define SS_BLAME_TAIL(ctx, ck) \
	do {                   \
	} while (0)
#endif

#endif

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Sleeps abandoned because a signal is pending: the kernel counts them as
# voluntary switches (nvcsw) while the sched_switch tracepoint reports the
# task as R since Linux 6.16.  A thread blocked in futex(FUTEX_WAIT) beside
# a spinner on one CPU is hit by a tgkill(SIGUSR1) storm from another CPU;
# with -t THREAD its voluntary and involuntary switches must equal the
# kernel's voluntary_ctxt_switches / nonvoluntary_ctxt_switches deltas
# exactly.  The process is stopped (SIGSTOP) at both ends of the window.
# Needs the raw tracepoint path (the kernel's own split); skips without it.
# On a kernel whose raw sched_switch passes prev_state (5.18+) a second
# window takes it from the task instead, as on 5.5-5.17, where the state
# read back is R for these sleeps (SWITCHSTAT_TEST=raw_state_from_task,
# src/features/feat_path.c); the split must be the kernel's there too.
# A third window runs without the per-CPU row cache
# (SWITCHSTAT_TEST=no_row_cache), so each kind comes from the waiter's
# nvcsw at its switch-in alone: with rows on the kernel's clock that
# baseline was ignored after every switch between two tasks (the window's
# start is 0 there), and a signal-abandoned sleep whose row cache entry
# had been evicted counted involuntary (the default window failed 1 in
# about 15 guest runs; this one moved 52-75 of about 510 on this host).  There each
# switch the kernel did not report (-v's count, 0 in the guests) may move
# one switch: the task it brought in unseen is split by its state.
. "$(dirname "$0")/lib.sh"
need_root
[ -x "$WORKLOADS/sigstorm" ] || fail "workload sigstorm not built in $WORKLOADS"
two_cpus

"$SWITCHSTAT" -v -d 1 -i 500 >/dev/null 2>"$T/path.err" || fail "-v run failed: $(cat "$T/path.err")" # not a window: the -v start-up lines only
grep -q "sched tracepoints: raw" "$T/path.err" ||
	skip "no raw tracepoint path here: $(grep 'sched tracepoints' "$T/path.err")"

bg "$WORKLOADS/sigstorm" "$CPU_A" "$CPU_B" "$T/ready"
P=$BG_LAST
wait_file "$T/ready"
R=$(cat "$T/ready")
freeze "$P"

# tfield NAME: field NAME of thread R's status
tfield() { awk -v f="$1:" '$1 == f { print $2 }' /proc/"$P"/task/"$R"/status; }

# waiter_past V0: the waiter has switched 500 times since V0
waiter_past() { [ $(($(tfield voluntary_ctxt_switches) - $1)) -ge 500 ]; }

# window NAME [ALLOW]: one window of -t R, the waiter's split vs the
# kernel's; ALLOW=unreported: each switch the kernel did not report may
# move one switch between the kinds
window() {
	local name=$1 allow=${2:-} v0 i0 v1 i1 want_v want_i got_v got_i i u=0 dv di
	start_tool "$name" -t "$R" --csv -i 60000 -v
	v0=$(tfield voluntary_ctxt_switches)
	i0=$(tfield nonvoluntary_ctxt_switches)
	thaw "$P"
	# until the waiter has switched 500 times (about 1 s on a quiet machine)
	wait_for "$name: 500 voluntary switches of the waiter" waiter_past "$v0"
	freeze "$P"
	v1=$(tfield voluntary_ctxt_switches)
	i1=$(tfield nonvoluntary_ctxt_switches)
	stop_tool

	want_v=$((v1 - v0))
	want_i=$((i1 - i0))
	got_v=$(csv_sum "$T/$name.out" voluntary)
	got_i=$(csv_sum "$T/$name.out" involuntary)
	[ "$want_v" -ge 500 ] ||
		fail "$name: the waiter switched $want_v times voluntarily, short of the 500 the window waited for"
	info "$name: $(grep -o 'prev_state .*' "$T/$name.err")"
	info "$name: thread $R: voluntary $got_v (kernel $want_v), involuntary $got_i (kernel $want_i)"
	if [ "$allow" = unreported ]; then
		# -v's stats line of each interval: "N switches not reported"
		u=$(grep -o '[0-9]* switches not reported' "$T/$name.err" |
			awk '{ s += $1 } END { print s + 0 }')
		info "$name: switches the kernel did not report: $u"
	fi
	dv=$((got_v - want_v)) di=$((got_i - want_i))
	[ "${dv#-}" -le "$u" ] && [ "${di#-}" -le "$u" ] ||
		fail "$name: split differs from the kernel's: voluntary $got_v vs $want_v, involuntary $got_i vs $want_i (allowed $u)"
}

window s
if grep -q "prev_state from args" "$T/s.err"; then
	SWITCHSTAT_TEST=raw_state_from_task window task
	grep -q "prev_state read from task_struct" "$T/task.err" ||
		fail "task: prev_state not from the task: $(grep prev_state "$T/task.err")"
fi
SWITCHSTAT_TEST=no_row_cache window nocache unreported
grep -q 'SS_ROW_CACHE_BITS=[1-9]' "$T/nocache.err" &&
	fail "nocache: the row cache is still compiled in (-v's cflags)"
grep -q 'SS_TASK_CLOCK=1' "$T/nocache.err" ||
	info "nocache: rows not on the kernel's clock here"
pass "signal-abandoned sleeps: voluntary/involuntary equal the kernel's"

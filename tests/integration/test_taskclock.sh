#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_taskclock.sh - on the raw path with BTF, a row's on-CPU time is the
# kernel's own clock of its tasks (se.sum_exec_runtime: what schedstat,
# getrusage and cgroup cpu.stat report), read in place at each switch.
#
# Workloads where the two clocks part (short slices, woken often, on an
# idle CPU as well as a busy one): a pipe ping-pong free to use both CPUs,
# a 200 us nanosleep loop, and a spinner pinned to CPU 0 beside them.  Two
# instances trace the same frozen window (started while the workloads are
# stopped, so every slice in it starts and ends at a switch they see,
# unless the kernel hides the switch that ends it): the default one and
# one with SWITCHSTAT_TEST=window_clock (the sched_switch window,
# bpf_ktime_get_ns, as before).  The window lasts
# until each process has run WIN_NS on a CPU (schedstat: run_for_cpu),
# however slow the host: 0.1 % of it is 200 us.  Asserts:
#  1. the default instance says it is on the kernel's clock (-v);
#  2. each process's on-CPU time equals its schedstat delta over the
#     window within 0.1 %, less at most the CPU time the same run says
#     had no known owner (--check "missed": slices ended by a switch the
#     kernel did not report, not charged; 0 where it hides none, as in
#     the Debian guests), and so does the four's sum, where a loss in
#     every slice shows first; a failure names what the probes skipped.
#     The window instance's figure, printed beside it, differs by
#     several percent for the short-sleepers here;
#  3. the window instance says it is on the window, and its short
#     sleepers' error is printed, so a change of clock shows.
. "$(dirname "$0")/lib.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 online CPUs"

bg "$WORKLOADS/pingpong" "$T/pp.pid"
wait_file "$T/pp.pid"
read -r PP PC <"$T/pp.pid"
bg "$WORKLOADS/sleeper" 200
SL=$BG_LAST
bg taskset -c 0 "$WORKLOADS/spinner" 0 tcspin
SP=$BG_LAST
freeze "$PP" "$PC" "$SL" "$SP"

launch kern --csv -n 0 -i 1000 --no-counters -v --check
K=$LAUNCHED
SWITCHSTAT_TEST=window_clock launch win --csv -n 0 -i 1000 --no-counters -v
W=$LAUNCHED
await kern "$K"
await win "$W"
grep -q "on-CPU time: the kernel's clock" "$T/kern.err" ||
	skip "rows not on the kernel's clock here: $(grep 'on-CPU time' "$T/kern.err" || grep 'sched tracepoints' "$T/kern.err")"
grep -q "on-CPU time: the sched_switch window" "$T/win.err" ||
	fail "SWITCHSTAT_TEST=window_clock did not keep the window: $(grep 'on-CPU time' "$T/win.err")"

WIN_NS=200000000
declare -A s0 s1
for p in "$PP" "$PC" "$SL" "$SP"; do s0[$p]=$(schedstat_sum "$p"); done
thaw "$PP" "$PC" "$SL" "$SP"
run_for_cpu "$WIN_NS" "$PP" "$PC" "$SL" "$SP"
freeze "$PP" "$PC" "$SL" "$SP"
for p in "$PP" "$PC" "$SL" "$SP"; do s1[$p]=$(schedstat_sum "$p"); done
kill -INT "$K" "$W"
reap "$K" kern
reap "$W" win
# a slice ended by a switch the kernel did not report is not charged (it
# hides some tasks' switches: docs/accuracy.md); --check says how much
# CPU time had no known owner, the most any process may fall short by
SHORT=$(unowned_ns "$T/kern.err")
SKIPS=$(skip_counts "$T/kern.err")
info "kernel's clock instance: $SHORT ns unowned; skipped: $SKIPS"

sum_got=0 sum_want=0
for who in ping:"$PP" pong:"$PC" sleeper:"$SL" spinner:"$SP"; do
	name=${who%%:*} p=${who#*:}
	want=$((s1[$p] - s0[$p]))
	got=$(csv_sum "$T/kern.out" oncpu_ns pid "$p")
	sum_got=$((sum_got + ${got:-0})) sum_want=$((sum_want + want))
	[ "$want" -ge "$WIN_NS" ] ||
		fail "$name: $want ns on CPU in the window, short of the $WIN_NS ns it was run for (run_for_cpu)"
	info "$name sched_switch window: $(within_pct "$(csv_sum "$T/win.out" oncpu_ns pid "$p")" "$want" 0.1)"
	check_within_short "$name on-CPU vs schedstat (kernel's clock)" \
		"$got" "$want" 0.1 "$SHORT" "probes skipped: $SKIPS"
done
# a lost slice is one process's: the four together fall short by at most
# the unowned time too (a loss in every slice shows here first)
check_within_short "all four on-CPU vs schedstat (kernel's clock)" \
	"$sum_got" "$sum_want" 0.1 "$SHORT" "probes skipped: $SKIPS"
pass "rows on the kernel's clock match schedstat"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Involuntary switches: two spinners pinned to one CPU preempt each
# other; per-process involuntary switches must equal the kernel's
# nonvoluntary_ctxt_switches delta within 2%, and on-CPU time must equal the
# schedstat delta within 2% (the tracepoint layout comes from the running
# kernel's format file, not from headers).
. "$(dirname "$0")/lib.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

bg taskset -c 1 "$WORKLOADS/spinner" 0 hogA
A=$BG_LAST
bg taskset -c 1 "$WORKLOADS/spinner" 0 hogB
B=$BG_LAST
sleep 0.2 # not a window: workload time; the test waits for the preemptions it checks
freeze "$A" "$B"

start_tool inv --csv -n 0 -i 1000
for p in "$A" "$B"; do
	n0[$p]=$(status_sum "$p" nonvoluntary_ctxt_switches)
	s0[$p]=$(schedstat_sum "$p")
done
thaw "$A" "$B"
# until each has the 500 preemptions the check below needs (the kernel's
# own count: a loaded TCG guest's vCPU runs in bursts); a slow host only
# waits longer (SS_HANG_S is a hang)
enough_inv() {
	local p
	for p in "$A" "$B"; do
		[ $(($(status_sum "$p" nonvoluntary_ctxt_switches) - n0[$p])) -gt 500 ] || return 1
	done
}
wait_for "500 preemptions of each spinner" enough_inv
freeze "$A" "$B"
for p in "$A" "$B"; do
	n1[$p]=$(status_sum "$p" nonvoluntary_ctxt_switches)
	s1[$p]=$(schedstat_sum "$p")
done
stop_tool

for p in "$A" "$B"; do
	want=$((n1[$p] - n0[$p]))
	got=$(csv_sum "$T/inv.out" involuntary pid "$p")
	[ "$want" -gt 500 ] || fail "pid $p: too few preemptions ($want, waited for 500)"
	check_within "pid $p involuntary" "$got" "$want" 2
	vol=$(csv_sum "$T/inv.out" voluntary pid "$p")
	[ "$got" -gt "$vol" ] || fail "pid $p: involuntary should dominate"
	check_within "pid $p on-CPU ns" "$(csv_sum "$T/inv.out" oncpu_ns pid "$p")" \
		$((s1[$p] - s0[$p])) 2
done
pass "involuntary switches and on-CPU time match /proc"

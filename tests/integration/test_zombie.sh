#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_zombie.sh - -p / -t follow what is alive, and end with their target.
#
# A process whose main thread has exited (a zombie leader) while its other
# thread lives on is alive: -p PID and -t TID accept it.  When the target
# exits, the run ends by itself with exit 0 and a final interval holding
# the target's last time: the rows sum to the process's CPU time from the
# signal to its end as the kernel counts it, within 2 %: wait4's total
# (user + system, its parent reaps it: everything up to its last thread's
# release) less its getrusage at the signal.  (Not its whole total: that
# holds its start-up before the tool began, exec, loading and the threads,
# 20-122 ms of CPU time in a TCG guest, where this missed by 2.4-7.3 %
# while the tool's sum was within 0.4 % of the spin.  Nor getrusage at the
# spin's end: the tool's rows rightly hold the process's exit after it,
# exit_group's teardown, which getrusage there left out: 0.2-0.3 ms
# natively, 1.6-12 ms in TCG guests (0.1-0.8 % of the spin; the info lines
# give it).  That is part of the 2.008 % a -t -L row once read in a 6.1
# guest, not all: with the exit in this oracle the 6.1 guest still read
# +1.07-1.12 % (5.10: +0.05-0.32 %), cause open.  No IRQ time accounting
# in Debian's kernels, so IRQs are in both; the tool's clock is
# CLOCK_MONOTONIC, the kernel's sched_clock.)  --trace -p ends the same
# way.  A pid that never existed is still bad input.
. "$(dirname "$0")/lib.sh"

need_root
[ -x "$WORKLOADS/zombieleader" ] || fail "workload zombieleader not built"

# state PID: the one-letter state of /proc/PID/stat
state() { sed 's/.*) //' /proc/"$1"/stat 2>/dev/null | cut -d' ' -f1; }
is_state() { [ "$(state "$1")" = "$2" ]; }
pid_gone() { ! kill -0 "$1" 2>/dev/null; }

# run_case NAME FILTER...: a zombie-leader process spinning 1.5 s, traced
# with the filter; checks exit, final interval and on-CPU time
run_case() {
	local name=$1 pid tid rc=0 i
	shift
	rm -f "$T/ready" "$T/result"
	bg "$WORKLOADS/zombieleader" 1500 "$T/ready" "$T/result"
	wait_file "$T/ready"
	read -r pid tid <"$T/ready"
	wait_for "leader of $pid a zombie" is_state "$pid" Z
	local args=("$@")
	args=("${args[@]//PID/$pid}")
	args=("${args[@]//TID/$tid}")
	launch "$name" --csv -i 500 "${args[@]}"
	local tool=$LAUNCHED
	await "$name" "$tool"
	kill -USR1 "$pid"
	wait_for "$name: the run's end after its target's 1.5 s spin and exit" pid_gone "$tool"
	wait "$tool" || rc=$?
	[ "$rc" -eq 0 ] || fail "$name (${args[*]}): exit $rc: $(cat "$T/$name.err")"
	# written by its parent once it reaped it (a rename)
	wait_file "$T/result"
	if [ "$name" = tr ]; then
		[ "$(csv_sum "$T/$name.out" voluntary prev_pid "$pid")" -ge 0 ] &&
			grep -q "events traced" "$T/$name.err" ||
			fail "$name: no trace summary: $(cat "$T/$name.err")"
	else
		local r_total r_start r_end
		read -r r_total r_start r_end <"$T/result"
		info "$name: the process's CPU time before the spin: $((r_start / 1000)) us, in its exit after the spin: $(((r_total - r_end) / 1000)) us"
		check_within "$name ${args[*]}: on-CPU vs the kernel's, signal to end" \
			"$(csv_sum "$T/$name.out" oncpu_ns)" $((r_total - r_start)) 2
	fi
	local msg="process $pid has exited"
	[ "$name" = t ] && msg="thread $tid has exited"
	grep -q "$msg" "$T/$name.err" ||
		fail "$name: no message '$msg': $(cat "$T/$name.err")"
	info "$name: $(grep "$msg" "$T/$name.err")"
}

run_case p -p PID
run_case t -t TID -L
run_case tr --trace -p PID

rc=0
"$SWITCHSTAT" -p 999999999 -d 1 >"$T/bad.out" 2>"$T/bad.err" || rc=$? # not a window: bad input: exit code and message only
[ "$rc" -eq 2 ] || fail "-p of a pid that never existed: exit $rc, want 2"
pass "zombie leader traced; runs end with their target"

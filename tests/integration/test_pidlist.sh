#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# -p and -t take comma lists (pidstat, libbpf-tools' offcputime):
#  - -p A,B: rows for A and B only (a third spinner C and everything else
#    filtered in the kernel), each process's on-CPU within 2 % of its
#    schedstat delta over the same frozen window;
#  - -t T1,T2 -L: rows for those two threads only, each within 2 %;
#  - the run goes on while any named process lives: A exits, the tool says
#    so and keeps running; B exits, the tool prints its final interval and
#    exits 0.
. "$(dirname "$0")/lib.sh"
need_root

bg "$WORKLOADS/spinner" 1 plA
A=$BG_LAST
bg "$WORKLOADS/spinner" 1 plB
B=$BG_LAST
bg "$WORKLOADS/spinner" 1 plC
C=$BG_LAST
bg "$WORKLOADS/spinner" 3 plT
P=$BG_LAST
wait_threads "$P" 4
freeze "$A" "$B" "$C" "$P"

# rows_of FILE: the distinct pids (or tids with -L) in a CSV
rows_of() {
	python3 - "$1" "$2" <<'PY'
import csv, sys
col = sys.argv[2]
print(" ".join(sorted({r[col] for r in csv.DictReader(open(sys.argv[1], encoding="latin-1"))})))
PY
}

# each window: until every measured task has run 600 ms (schedstat; the
# 2 % below is 12 ms, a few ticks of edge lag), however slowly or
# throttled (SS_HANG_S is a hang), instead of a fixed sleep
start_tool pl --csv -n 0 -i 1000 -p "$A,$B"
a0=$(schedstat_sum "$A")
b0=$(schedstat_sum "$B")
thaw "$A" "$B" "$C"
run_for_cpu 600000000 "$A" "$B"
freeze "$A" "$B" "$C"
a1=$(schedstat_sum "$A")
b1=$(schedstat_sum "$B")
stop_tool
got=$(rows_of "$T/pl.out" pid)
want=$(printf '%s\n' "$A" "$B" | sort | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || fail "-p $A,$B: rows for pids '$got', want '$want'"
check_within "-p list: process $A on-CPU vs schedstat" \
	"$(csv_sum "$T/pl.out" oncpu_ns pid "$A")" $((a1 - a0)) 2
check_within "-p list: process $B on-CPU vs schedstat" \
	"$(csv_sum "$T/pl.out" oncpu_ns pid "$B")" $((b1 - b0)) 2

mapfile -t tids < <(ls /proc/"$P"/task | grep -vx "$P" | head -2)
T1=${tids[0]}
T2=${tids[1]}
start_tool tl --csv -n 0 -i 1000 -L -t "$T1,$T2"
t10=$(awk '{ print $1 }' /proc/"$P"/task/"$T1"/schedstat)
t20=$(awk '{ print $1 }' /proc/"$P"/task/"$T2"/schedstat)
thaw "$P"
tid_ran() {
	[ $(($(awk '{ print $1 }' /proc/"$P"/task/"$T1"/schedstat) - t10)) -ge 600000000 ] &&
		[ $(($(awk '{ print $1 }' /proc/"$P"/task/"$T2"/schedstat) - t20)) -ge 600000000 ]
}
wait_for "threads $T1 $T2: 600 ms on CPU each" tid_ran
freeze "$P"
t11=$(awk '{ print $1 }' /proc/"$P"/task/"$T1"/schedstat)
t21=$(awk '{ print $1 }' /proc/"$P"/task/"$T2"/schedstat)
stop_tool
got=$(rows_of "$T/tl.out" tid)
want=$(printf '%s\n' "$T1" "$T2" | sort | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || fail "-t $T1,$T2: rows for tids '$got', want '$want'"
check_within "-t list: thread $T1 on-CPU vs schedstat" \
	"$(csv_sum "$T/tl.out" oncpu_ns tid "$T1")" $((t11 - t10)) 2
check_within "-t list: thread $T2 on-CPU vs schedstat" \
	"$(csv_sum "$T/tl.out" oncpu_ns tid "$T2")" $((t21 - t20)) 2

# the end of the run: after the last named process, not the first
thaw "$A" "$B"
start_tool end -i 200 -v -p "$A,$B"
kill -KILL "$A"
wait "$A" 2>/dev/null || true
wait_for "word of $A's exit" grep -q "process $A has exited" "$T/end.err"
# 2 more interval edges (-v's lines) after the word: it ran on
n=$(intervals end)
ran_on() {
	intervals_ge end $((n + 2)) && return 0
	kill -0 "$TOOL_PID" 2>/dev/null || fail "the run ended with $B still alive"
	return 1
}
wait_for "2 intervals after $A exited" ran_on
kill -KILL "$B"
wait "$B" 2>/dev/null || true
tool_gone() { ! kill -0 "$TOOL_PID" 2>/dev/null; }
wait_for "the run's end after $A and $B exited" tool_gone
wait_tool
grep -q "process $B has exited" "$T/end.err" || fail "no word of $B's exit"
info "-p $A,$B: ran on after $A exited, ended 0 after $B"
pass "pid and tid lists: selection, on-CPU, end of run"

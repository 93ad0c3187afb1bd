#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# -p filters on the tgid and the process row is the sum of its
# threads.  Main thread in pause(), 4 threads spinning: -p PID on-CPU time
# equals the sum over /proc/PID/task/*/schedstat within 2%; -L gives one row
# per thread, each matching its own schedstat; -t TID shows only that thread.
# Each window lasts until the process has run WIN_NS on the CPUs
# (schedstat, its threads summed: run_for_cpu), however slow the host;
# the -t one until it and the other spinner have run 100 ms.
. "$(dirname "$0")/lib.sh"
need_root

bg "$WORKLOADS/spinner" 4 mt-spin
P=$BG_LAST
bg "$WORKLOADS/spinner" 0 other-spin
OTHER=$BG_LAST
wait_threads "$P" 5
wait_comm "$OTHER" other-spin
freeze "$P" "$OTHER"
WIN_NS=1000000000
mapfile -t TIDS < <(ls /proc/"$P"/task)
[ "${#TIDS[@]}" -eq 5 ] || fail "expected 5 threads, got ${#TIDS[@]}"

start_tool proc --csv -n 0 -i 1000 -p "$P"
s0=$(schedstat_sum "$P")
thaw "$P" "$OTHER"
run_for_cpu "$WIN_NS" "$P"
freeze "$P" "$OTHER"
s1=$(schedstat_sum "$P")
stop_tool
check_within "process on-CPU ns (-p)" "$(csv_sum "$T/proc.out" oncpu_ns pid "$P")" $((s1 - s0)) 2
pids=$(python3 -c 'import csv,sys; print(" ".join(sorted({r["pid"] for r in csv.DictReader(open(sys.argv[1], encoding="latin-1", newline=""))})))' "$T/proc.out")
[ "$pids" = "$P" ] || fail "-p $P showed other processes: $pids"

# -L: per-thread rows
start_tool thr --csv -n 0 -i 1000 -p "$P" -L
declare -A t0
for t in "${TIDS[@]}"; do t0[$t]=$(awk '{print $1}' /proc/"$P"/task/"$t"/schedstat); done
thaw "$P" "$OTHER"
run_for_cpu "$WIN_NS" "$P"
freeze "$P" "$OTHER"
stop_tool
head -1 "$T/thr.out" | grep -q ',tid,' || fail "-L CSV has no tid column"
# the busiest thread's on-CPU time in the window: the main thread's idle
# bound is scaled by it
busiest=0
for t in "${TIDS[@]}"; do
	w=$(($(awk '{print $1}' /proc/"$P"/task/"$t"/schedstat) - t0[$t]))
	[ "$w" -gt "$busiest" ] && busiest=$w
done
for t in "${TIDS[@]}"; do
	want=$(($(awk '{print $1}' /proc/"$P"/task/"$t"/schedstat) - t0[$t]))
	got=$(csv_sum "$T/thr.out" oncpu_ns tid "$t")
	if [ "$t" = "$P" ]; then
		# idle: under 1 % of the busiest thread's time in the same window
		[ "$want" -lt $((busiest / 100)) ] ||
			fail "main thread should be idle: $want ns on CPU, want < 1 % of the busiest thread's $busiest ns"
		continue
	fi
	check_within "thread $t on-CPU ns (-L)" "$got" "$want" 2
done

# -t: one thread only
T1=${TIDS[1]}
[ "$T1" != "$P" ] || T1=${TIDS[2]}
start_tool one --csv -n 0 -i 1000 -t "$T1" -L
thaw "$P" "$OTHER"
run_for_cpu 100000000 "$P" "$OTHER"
freeze "$P" "$OTHER"
stop_tool
tids=$(python3 -c 'import csv,sys; print(" ".join(sorted({r["tid"] for r in csv.DictReader(open(sys.argv[1], encoding="latin-1", newline=""))})))' "$T/one.out")
[ "$tids" = "$T1" ] || fail "-t $T1 showed threads: $tids"
pass "process = sum of threads; -p, -L, -t filter correctly"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_cgroup_move.sh - time is charged to the cgroup the task was in when
# it ran (oracle: each cgroup's cpu.stat usage_usec, within 2 %).
#  1. -G: a spinner runs in cgroup a, is moved to b and runs on, all in one
#     interval (what container runtimes do at start): a and b each get
#     their own time.
#  2. -G with threaded cgroups: the two spinning threads of one process sit
#     in two threaded cgroups x and y: each gets its thread's time.
#  3. per-process rows show the cgroup the process was in at the end.
. "$(dirname "$0")/lib.sh"

need_root
[ -x "$WORKLOADS/spinner" ] || fail "workload spinner not built"
V2=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
[ -n "$V2" ] || skip "no cgroup2 file system mounted"
REL=$CG_BASE/switchstat-move-$$
P=$V2$REL

mv_cleanup() {
	cleanup
	local d i
	for d in "$P/t/x" "$P/t/y" "$P/t" "$P/a" "$P/b" "$P"; do
		for i in $(seq 1 20); do # not a window: cleanup retry
			[ -d "$d" ] || break
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
	done
}
trap mv_cleanup EXIT
mkdir "$P" 2>/dev/null || skip "cannot create a cgroup under $V2"
mkdir "$P/a" "$P/b" "$P/t" "$P/t/x" "$P/t/y" || fail "mkdir child cgroups"
echo threaded >"$P/t/x/cgroup.type" && echo threaded >"$P/t/y/cgroup.type" ||
	fail "cannot make threaded cgroups"

usage() { awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat"; }
id() { stat -c %i "$1"; }
# oncpu_of FILE ID: the -G row's on-CPU time of cgroup id ID, in us
oncpu_of() { echo $(($(csv_sum "$1" oncpu_ns cgroup_id "$2") / 1000)); }

# sched_exit_tp from the start (exit_tp_now): the runs are one 60 s
# interval, and users get it attached only at the end of the first
# interval in which the kernel hid a switch, whose slice is lost until
# then (test_runq_unreported tests that lazy attach)
export SWITCHSTAT_TEST=exit_tp_now

# 1. a move in the middle of an interval
bg "$WORKLOADS/spinner" 0 ss_move
S=$BG_LAST
echo "$S" >"$P/a/cgroup.procs" || fail "move into a"
freeze "$S"
launch g -G --csv -i 60000
G=$LAUNCHED
launch p --csv -i 60000 -p "$S"
PR=$LAUNCHED
await g "$G"
await p "$PR"
a0=$(usage "$P/a")
b0=$(usage "$P/b")
thaw "$S"
run_for_cpu 1500000000 "$S"
echo "$S" >"$P/b/cgroup.procs" || fail "move into b"
run_for_cpu 1500000000 "$S"
freeze "$S"
a1=$(usage "$P/a")
b1=$(usage "$P/b")
kill -INT "$G" "$PR"
reap "$G" g
reap "$PR" p
[ $((a1 - a0)) -ge 1500000 ] && [ $((b1 - b0)) -ge 1500000 ] ||
	fail "spinner ran a $((a1 - a0)) us, b $((b1 - b0)) us, short of the 1.5 s run_for_cpu waited for in each"
check_within "moved: cgroup a (us)" "$(oncpu_of "$T/g.out" "$(id "$P/a")")" $((a1 - a0)) 2
check_within "moved: cgroup b (us)" "$(oncpu_of "$T/g.out" "$(id "$P/b")")" $((b1 - b0)) 2
got=$(python3 - "$T/p.out" <<'PY'
import csv, sys
print(" ".join(r["cgroup"] for r in csv.DictReader(open(sys.argv[1], encoding="latin-1", newline=""))))
PY
)
[ "$got" = "$REL/b" ] || fail "process row's cgroup '$got', want $REL/b (where it ended)"
info "process row: one row, cgroup $REL/b (where it was at the end)"
kill -KILL "$S"

# 2. threads of one process in two threaded cgroups
bg "$WORKLOADS/spinner" 2 ss_threaded
S=$BG_LAST
wait_threads "$S" 3
mapfile -t TIDS < <(ls /proc/"$S"/task | grep -vx "$S")
[ "${#TIDS[@]}" -eq 2 ] || fail "spinner has ${#TIDS[@]} spinning threads, want 2"
echo "$S" >"$P/t/cgroup.procs" || fail "move into t"
echo "${TIDS[0]}" >"$P/t/x/cgroup.threads" || fail "thread into x"
echo "${TIDS[1]}" >"$P/t/y/cgroup.threads" || fail "thread into y"
freeze "$S"
start_tool th -G --csv -i 60000
x0=$(usage "$P/t/x")
y0=$(usage "$P/t/y")
thaw "$S"
run_for_cpu 2000000000 "$S" # 2 s on CPU between the two threads, however busy
freeze "$S"
x1=$(usage "$P/t/x")
y1=$(usage "$P/t/y")
stop_tool
check_within "threaded: cgroup x (us)" "$(oncpu_of "$T/th.out" "$(id "$P/t/x")")" $((x1 - x0)) 2
check_within "threaded: cgroup y (us)" "$(oncpu_of "$T/th.out" "$(id "$P/t/y")")" $((y1 - y0)) 2
pass "cgroup moves and threaded cgroups charged as cpu.stat"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_freezer.sh - --trace prints the state letter the kernel's own
# sched_switch tracepoint prints, also for a task the freezer switches out
# (6.1+: __state TASK_FROZEN, which the tracepoint reports as D).  A
# spinner pinned to the second CPU in a cgroup v1 freezer group is frozen
# and thawed 40 times under --trace -p PID --csv; a tracefs instance of
# our own records the kernel's sched_switch event for the spinner
# (prev_pid filter) over the same switches: the window opens and closes
# with the group FROZEN, so the spinner makes no switch outside it.  The
# two sequences of prev_state strings (R+ preempted, D frozen) must be
# equal, line for line, on each sched_switch path the kernel has: the
# default, prev_state read from task_struct (the 5.5-5.17 raw path) and
# the regular tracepoint.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/spinner" ] || fail "workload spinner not built in $WORKLOADS"
command -v taskset >/dev/null || skip "taskset (util-linux) not installed"
two_cpus
N=40

TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/instances" ] || TRACEFS=/sys/kernel/debug/tracing
[ -d "$TRACEFS/instances" ] || skip "no tracefs instances"
INST=$TRACEFS/instances/ss_freezer_$$

# the cgroup v1 freezer: the mounted one, else one of ours
FZ=$(awk '$3 == "cgroup" && $4 ~ /(^|,)freezer(,|$)/ { print $2; exit }' /proc/mounts)
MOUNTED=
if [ -z "$FZ" ]; then
	mkdir -p "$T/fz"
	mount -t cgroup -o freezer none "$T/fz" 2>/dev/null ||
		skip "no cgroup v1 freezer (CONFIG_CGROUP_FREEZER, or bound elsewhere)"
	FZ=$T/fz
	MOUNTED=$FZ
fi
GRP=$FZ/ss_freezer_$$

fz_cleanup() {
	[ -d "$INST" ] && { echo 0 >"$INST/events/sched/sched_switch/enable"; rmdir "$INST"; } 2>/dev/null
	[ -d "$GRP" ] && echo THAWED >"$GRP/freezer.state" 2>/dev/null
	cleanup
	cg_remove "$GRP"
	[ -n "$MOUNTED" ] && umount "$MOUNTED" 2>/dev/null
	true
}
trap fz_cleanup EXIT

mkdir "$GRP" || fail "cannot make $GRP"
taskset -c "$CPU_B" "$WORKLOADS/spinner" 0 >/dev/null 2>&1 &
SPIN=$!
BG_PIDS+=("$SPIN")
echo "$SPIN" >"$GRP/cgroup.procs" || fail "cannot move the spinner to $GRP"

# set_state STATE: until the group reads STATE (FROZEN waits for the
# spinner to enter the refrigerator)
set_state() {
	echo "$1" >"$GRP/freezer.state"
	for _ in $(seq 1 400); do # not a window: poll for the freezer state; 2 s is a hang cap
		[ "$(cat "$GRP/freezer.state")" = "$1" ] && return 0
		sleep 0.005
	done
	fail "freezer group did not become $1"
}

# round NAME: one window of N freezes under --trace (SWITCHSTAT_TEST as
# set by the caller), compared with the tracefs instance's events
round() {
	local name=$1
	set_state FROZEN
	mkdir "$INST" || fail "cannot make $INST"
	echo mono >"$INST/trace_clock"
	echo "prev_pid == $SPIN" >"$INST/events/sched/sched_switch/filter"
	echo 1 >"$INST/events/sched/sched_switch/enable"
	start_tool "$name" --trace -p "$SPIN" --csv --no-counters
	for _ in $(seq 1 $N); do # not a window: the freeze cycles; the tool's states are compared with tracefs's for the same switches
		set_state THAWED
		sleep 0.02
		set_state FROZEN
	done
	sleep 0.1 # not a window: the last freeze reaches the tool; the states are compared one by one, not counted in a time
	stop_tool
	echo 0 >"$INST/events/sched/sched_switch/enable"
	cat "$INST/trace" >"$T/$name.kernel"
	rmdir "$INST"
	python3 - "$T/$name.out" "$T/$name.kernel" "$SPIN" "$N" <<'PY' || fail "$name: the state letters are not the kernel's"
import csv, re, sys
out, kern, pid, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ours = [r["prev_state"] for r in csv.DictReader(open(out, encoding="latin-1"))
        if r.get("prev_tid") == pid]
theirs = re.findall(r"prev_pid=%s .*?prev_state=(\S+)" % pid, open(kern).read())
def count(seq):
    return {s: seq.count(s) for s in sorted(set(seq))}
print("  switchstat: %d switch-outs %s" % (len(ours), count(ours)))
print("  tracefs:    %d switch-outs %s" % (len(theirs), count(theirs)))
bad = ours != theirs
if bad:
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            print("  first difference at switch-out %d: %s, tracefs %s" % (i, a, b))
            break
# the workload did what it should: each freeze one switch-out in D
if theirs.count("D") < n:
    print("  want at least %d D switch-outs in tracefs" % n)
    bad = True
sys.exit(1 if bad else 0)
PY
	info "$name: equal"
}

info "1. default path"
round def
info "2. prev_state read from task_struct (the 5.5-5.17 raw path)"
SEAM=${SWITCHSTAT_TEST:-}
export SWITCHSTAT_TEST=$SEAM${SEAM:+,}raw_state_from_task
round rst
info "3. the regular tracepoint"
export SWITCHSTAT_TEST=$SEAM${SEAM:+,}no_raw
round reg
pass "--trace state letters equal the kernel's tracepoint for $N freezes, 3 paths"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_onoff.sh - with --offcpu a task's on-CPU and off-CPU time never
# overlap: per interval, ONCPU + OFFCPU is the time the task existed in
# it (here the whole interval), within 0.5 %, for nanosleep loops of
# 20 us, 200 us and 1 ms and an O_DIRECT read loop, the four at once
# under one run.  The kernel's clock starts a woken task's run time at
# the wakeup when the wakeup asked for a reschedule (docs/accuracy.md,
# run-queue waits), so the off-CPU span must end there too, not at the
# switch-in.  The interval's length is the
# one the rows' %CPU is taken over (oncpu_ns / cpu_pct); ONCPU itself is
# the kernel's clock (schedstat: test_taskclock).  The first interval
# (the tool started in it) and the last, partial one are left out.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
for w in sleeper directread; do
	[ -x "$WORKLOADS/$w" ] || fail "workload $w not built in $WORKLOADS"
done

# the four workloads at once under one --offcpu -p run in 500 ms
# intervals, until 4 have ended (the first, which the tool started in,
# and 3 whole ones), then the per-interval sums of each checked
bg "$WORKLOADS/sleeper" 20
S20=$BG_LAST
bg "$WORKLOADS/sleeper" 200
S200=$BG_LAST
bg "$WORKLOADS/sleeper" 1000
S1000=$BG_LAST
bg "$WORKLOADS/directread" "$T/direct.dat"
DIRECT=$BG_LAST
start_tool onoff --offcpu -p "$S20,$S200,$S1000,$DIRECT" -i 500 --csv --no-counters -v
wait_intervals onoff 4
stop_tool
kill -KILL "$S20" "$S200" "$S1000" "$DIRECT" 2>/dev/null
wait "$S20" "$S200" "$S1000" "$DIRECT" 2>/dev/null

# check NAME PID: the interval sums of PID's rows
check() {
	local name=$1 wl=$2
	python3 - "$T/onoff.out" "$wl" "$name" <<'PY' || fail "$name: on-CPU + off-CPU is not the interval"
import csv, sys
out, pid, name = sys.argv[1], sys.argv[2], sys.argv[3]
rows = [r for r in csv.DictReader(open(out, encoding="latin-1"))
        if r.get("pid") == pid and r.get("cpu_pct") not in (None, "")]
states = {"sleep": "S", "block": "D", "killable": "K", "iowait": "IO",
          "idle": "I", "stopped": "T", "traced": "t", "runq": "R", "other": "P"}
bad = 0
mid = rows[1:-1]
if len(mid) < 3:
    print("  %s: only %d whole intervals" % (name, len(mid)))
    sys.exit(1)
worst = 0.0
for r in mid:
    on, pct = int(r["oncpu_ns"]), float(r["cpu_pct"])
    off = int(r["offcpu_ns"])
    if pct < 0.1:
        print("  %s: %%CPU %.4f too small to give the interval" % (name, pct))
        sys.exit(1)
    iv = on * 100 / pct
    err = (on + off - iv) / iv * 100
    worst = max(worst, abs(err))
    split = " ".join("%s %.1f" % (l, int(r["offcpu_%s_ns" % s]) / 1e6)
                     for s, l in states.items() if int(r["offcpu_%s_ns" % s] or 0))
    print("  %s: interval %.3f ms: on %.3f + off %.3f ms = %.3f %% (%s)%s"
          % (name, iv / 1e6, on / 1e6, off / 1e6, (on + off) / iv * 100, split,
             "" if abs(err) <= 0.5 else "  <-- want 99.5-100.5 %"))
    bad += abs(err) > 0.5
print("  %s: worst %.3f %% off" % (name, worst))
sys.exit(1 if bad else 0)
PY
}

check s20 "$S20"
check s200 "$S200"
check s1000 "$S1000"
check direct "$DIRECT"
pass "on-CPU + off-CPU = the interval within 0.5 % (20 us, 200 us, 1 ms sleeps, O_DIRECT reads)"

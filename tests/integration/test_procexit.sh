#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_procexit.sh - the last switch of a process (H25).  The kernel counts
# a thread's switches in its process's totals unless they come after it
# released the thread (exit_state EXIT_DEAD): a thread that exits while
# others live on is released in exit_notify() before its last switch
# (H12: not counted), but the thread-group leader stays a zombie until the
# parent reaps it, so its last switch (in do_task_dead()) is in wait4's
# rusage and RUSAGE_CHILDREN.  Input (childchurn): 400 children one after
# another, of three kinds: single-threaded (spin 3 ms, sleep 1 ms twice,
# exit), one that joins a thread and exits, and a zombie leader (the main
# thread exits first, another thread last).  Over the run, unfiltered:
#  - each child's process row equals its wait4 rusage, voluntary and
#    involuntary, exactly; their sum equals RUSAGE_CHILDREN's delta (with
#    the race below: up to that many more voluntary, since the kernel's
#    wait_task_zombie() reads a child's counts twice, for the parent's
#    RUSAGE_CHILDREN and then for wait4's rusage);
#  - with -L, each child's thread rows add up to the same.
# The one exception is the kernel's own: a parent that reaps a child while
# the child makes its last switch reads its nvcsw before or after that
# switch's add, which no tracer can tell (probes/shared.h).  switchstat -v
# counts those last switches ("N of them a reaped leader's last"; about 1
# in 300 children here; wait4 had the switch for 1 of 18 of them in one
# set of runs, for all 5 in another); a child may be one voluntary switch
# short only that many times, per instance.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/childchurn" ] || fail "workload childchurn not built in $WORKLOADS"
N=400

bg "$WORKLOADS/childchurn" "$N" "$T/ready" "$T/result"
P=$BG_LAST
wait_file "$T/ready"

launch thr -L --csv --no-counters -n 0 -i 60000 -v
THR=$LAUNCHED
start_tool proc --csv --no-counters -n 0 -i 60000 -v
await thr "$THR"
kill -USR1 "$P"
wait_file "$T/result"
kill -INT "$THR"
reap "$THR" thr
stop_tool

python3 - "$T/result" "$T/proc.out" "$T/thr.out" "$T/proc.err" "$T/thr.err" <<'PY' || fail "process rows differ from wait4"
import csv, re, sys
res, proc, thr, perr, terr = sys.argv[1:6]
kids, total = {}, None
for line in open(res):
    f = line.split()
    if f[0] == "children":
        total = (int(f[1]), int(f[2]))
    else:
        kids[f[0]] = (int(f[1]), int(f[2]), int(f[3]))

def rows(path):
    got = {}
    for r in csv.DictReader(open(path, encoding="latin-1", newline="")):
        if r["pid"] in kids:
            g = got.setdefault(r["pid"], [0, 0])
            g[0] += int(r["voluntary"])
            g[1] += int(r["involuntary"])
    return got

names = ("single-threaded", "joined a thread", "zombie leader")
bad = 0
def races(path):
    m = re.findall(r"(\d+) of them a reaped leader's last", open(path).read())
    if not m:  # the regular path cannot read exit_state: none counted
        print("  %s: no reap-race count (regular sched_switch path)" % path)
    return sum(int(x) for x in m)

spare = {"process rows": races(perr), "-L rows": races(terr)}
print("  last switches racing the parent's wait4: process rows %d, -L rows %d"
      % (spare["process rows"], spare["-L rows"]))
used = {"process rows": 0, "-L rows": 0}
for what, path in (("process rows", proc), ("-L rows", thr)):
    got = rows(path)
    sv = si = 0
    for kind in range(3):
        n = ok = 0
        diff = {}
        for pid, (k, v, i) in kids.items():
            if k != kind:
                continue
            n += 1
            g = got.get(pid, [0, 0])
            if (g[0], g[1]) == (v, i):
                ok += 1
            else:
                d = (g[0] - v, g[1] - i)
                diff[d] = diff.get(d, 0) + 1
                if d == (-1, 0) and spare[what]:
                    spare[what] -= 1
                    used[what] += 1
                    ok += 1
                    print("  %s, child %s: one voluntary switch short, "
                          "its last raced the reap" % (what, pid))
        kv = sum(v for k, v, i in kids.values() if k == kind)
        gv = sum(got.get(p, [0, 0])[0] for p, x in kids.items() if x[0] == kind)
        print("  %s, %s: %d/%d children exact; voluntary %d (wait4 %d)%s"
              % (what, names[kind], ok, n, gv, kv,
                 "; (vol, invol) off by " + str(diff) if diff else ""))
        bad += n - ok
    sv = sum(g[0] for g in got.values())
    si = sum(g[1] for g in got.values())
    print("  %s: all children %d/%d, RUSAGE_CHILDREN %d/%d" % (what, sv, si, *total))
    # RUSAGE_CHILDREN may or may not hold a raced switch that wait4's
    # per-child rusage held: wait_task_zombie() adds the child's counts
    # to the parent's cnvcsw first and reads them for wait4's rusage
    # (getrusage) after, so the add can land between the two reads
    if si != total[1] or not sv <= total[0] <= sv + used[what]:
        bad += 1
sys.exit(1 if bad else 0)
PY
pass "a process's switches equal its parent's wait4 rusage, its last one included"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_names.sh - row names are the kernel's names (oracle: /proc/PID/comm).
#
# A process "mainproc" whose three threads name themselves "worker-N" and
# wake every 200 us, while its main thread sleeps in pause():
#  1. per-process rows (-p, 0.3 s intervals) are named like
#     /proc/PID/comm ("mainproc") in every interval, never a thread's name;
#  2. -L rows: each thread's row is named like /proc/PID/task/TID/comm;
#  3. a rename (prctl PR_SET_NAME) in an interval shows in that interval's
#     row: the name at the end of the interval;
#  4. --trace lines name each thread by its own comm;
#  5. per-process histograms (--hist -P) are named like the process rows;
#  6. without BTF (test hook) the run still works and -v says what it lacks.
. "$(dirname "$0")/lib.sh"

need_root
[ -x "$WORKLOADS/namedthreads" ] || fail "workload namedthreads not built"

bg "$WORKLOADS/namedthreads" "$T/ready" renamed
wait_file "$T/ready"
P=$(cat "$T/ready")
[ "$(cat /proc/"$P"/comm)" = mainproc ] || fail "workload not named mainproc"

# names FILE KEYCOL KEYVAL: the comm of each row whose KEYCOL is KEYVAL, in
# row order, one a line
names() {
	python3 - "$@" <<'PY'
import csv, sys
with open(sys.argv[1], errors="surrogateescape") as fh:
    for r in csv.DictReader(fh):
        if r[sys.argv[2]] == sys.argv[3]:
            print(r["comm"])
PY
}

# 1. process rows: the process's own name in every interval
launch proc --csv -i 300 -d 3 -p "$P" # not a window: names in the rows, no count; each run is awaited
PROC=$LAUNCHED
launch thr --csv -i 300 -d 3 -p "$P" -L # not a window: names in the rows, no count; each run is awaited
THR=$LAUNCHED
launch tr --trace --csv -d 2 -p "$P" # not a window: names in the rows, no count; each run is awaited
TR=$LAUNCHED
launch hist --hist offcpu -P -H --csv -i 300 -d 3 -p "$P" # not a window: names in the rows, no count; each run is awaited
HI=$LAUNCHED
await proc "$PROC"
await thr "$THR"
await tr "$TR"
await hist "$HI"
reap "$PROC" proc
reap "$THR" thr
reap "$TR" tr
reap "$HI" hist
n=$(names "$T/proc.out" pid "$P" | wc -l)
[ "$n" -ge 5 ] || fail "only $n process rows: $(cat "$T/proc.out")"
bad=$(names "$T/proc.out" pid "$P" | grep -vx mainproc | sort | uniq -c)
[ -z "$bad" ] || fail "process rows not named mainproc: $bad"
info "$n process rows, all named mainproc (/proc/$P/comm)"

# 5. per-process histograms
n=$(names "$T/hist.out" pid "$P" | wc -l)
[ "$n" -ge 5 ] || fail "only $n histogram lines: $(head -5 "$T/hist.out")"
bad=$(names "$T/hist.out" pid "$P" | grep -vx mainproc | sort | uniq -c)
[ -z "$bad" ] || fail "histogram lines not named mainproc: $bad"
info "$n histogram lines (-P), all named mainproc"

# 2. -L: each thread by its own name
checked=0
for d in /proc/"$P"/task/*; do
	tid=${d##*/}
	want=$(cat "$d/comm")
	got=$(names "$T/thr.out" tid "$tid" | sort -u)
	[ "$tid" = "$P" ] && [ -z "$got" ] && continue # main thread slept
	[ "$got" = "$want" ] || fail "-L thread $tid named '$got', /proc says '$want'"
	checked=$((checked + 1))
done
[ "$checked" -ge 3 ] || fail "-L: only $checked threads had rows"
info "-L: $checked threads, each named as /proc/$P/task/TID/comm"

# 4. trace lines: prev_comm is the leaving thread's own name
python3 - "$T/tr.out" "$P" <<'PY' || fail "trace names: $(head -5 "$T/tr.out")"
import csv, os, sys
want = {}
for t in os.listdir("/proc/%s/task" % sys.argv[2]):
    want[t] = open("/proc/%s/task/%s/comm" % (sys.argv[2], t)).read().strip()
n = 0
with open(sys.argv[1], errors="surrogateescape") as fh:
    for r in csv.DictReader(fh):
        if r["prev_tid"] in want:
            n += 1
            if r["prev_comm"] != want[r["prev_tid"]]:
                sys.exit("tid %s: %r, want %r" % (r["prev_tid"], r["prev_comm"], want[r["prev_tid"]]))
if n < 100:
    sys.exit("only %d lines" % n)
print("  trace: %d lines, prev_comm = the thread's own comm" % n)
PY

# 3. a rename inside an interval: that interval's row has the new name
start_tool ren --csv -i 60000 -p "$P"
kill -USR1 "$P"
wait_comm "$P" renamed
stop_tool
got=$(names "$T/ren.out" pid "$P")
[ "$got" = renamed ] || fail "after a rename the row is named '$got', want renamed"
info "renamed in the interval: row named renamed"
# 6. the no-BTF fallback
rc=0
SWITCHSTAT_TEST=no_btf "$SWITCHSTAT" -v --csv -i 500 -d 1 -p "$P" >"$T/nb.out" 2>"$T/nb.err" || rc=$? # not a window: the -v start-up lines and names only
[ "$rc" -eq 0 ] || fail "no BTF: exit $rc: $(cat "$T/nb.err")"
[ "$(names "$T/nb.out" pid "$P" | wc -l)" -ge 1 ] || fail "no BTF: no rows: $(cat "$T/nb.out")"
grep -q "a reused pid shares its row" "$T/nb.err" || fail "no BTF: -v does not say so: $(cat "$T/nb.err")"
info "no BTF: rows, and -v: $(grep -o 'BTF not used.*' "$T/nb.err")"
pass "names"

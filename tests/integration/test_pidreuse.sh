#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_pidreuse.sh - a reused pid starts a new row.
#
# Process "alpha" spins 0.6 s of CPU and exits; then process "beta" gets the
# same pid (clone3 set_tid) and spins 0.6 s: all in one interval.  Per
# process and per thread (-L), there must be two rows with that pid, each
# with its own name and its own on-CPU time (oracle: wait4's rusage of each
# child, within 2 %).  Per-process histograms (--hist oncpu -P) keep them
# apart too: entries for that pid under both names.
. "$(dirname "$0")/lib.sh"

need_root
[ -x "$WORKLOADS/pidreuse" ] || fail "workload pidreuse not built"

launch proc --csv -i 60000
PROC=$LAUNCHED
launch thr --csv -i 60000 -L
THR=$LAUNCHED
launch hist --hist oncpu -P -H --csv -i 60000
HI=$LAUNCHED
await proc "$PROC"
await thr "$THR"
await hist "$HI"
rc=0
"$WORKLOADS/pidreuse" 600 "$T/ready" "$T/result" &
W=$!
BG_PIDS+=("$W")
wait_file "$T/ready"
kill -USR1 "$W"
wait "$W" || rc=$?
[ "$rc" -eq 3 ] && skip "pid was taken before it could be reused"
[ "$rc" -eq 0 ] || fail "pidreuse exit $rc: $(cat "$T/bg.log")"
kill -INT "$PROC" "$THR" "$HI"
reap "$PROC" proc
reap "$THR" thr
reap "$HI" hist
read -r _ PID A_NS < <(grep '^alpha' "$T/result")
read -r _ PID_B B_NS < <(grep '^beta' "$T/result")
[ "$PID" = "$PID_B" ] || fail "pids differ: $PID $PID_B"
info "alpha and beta both had pid $PID: $A_NS ns, $B_NS ns (rusage)"

for mode in proc thr; do
	rows=$(python3 - "$T/$mode.out" "$PID" <<'PY'
import csv, sys
with open(sys.argv[1], errors="surrogateescape") as fh:
    for r in csv.DictReader(fh):
        if r["pid"] == sys.argv[2]:
            print(r["comm"], r["oncpu_ns"])
PY
)
	[ "$(echo "$rows" | awk '{ print $1 }' | sort | tr '\n' ' ')" = "alpha beta " ] ||
		fail "$mode: rows for pid $PID: '$rows', want one alpha and one beta"
	check_within "$mode alpha on-CPU" "$(echo "$rows" | awk '$1 == "alpha" { print $2 }')" "$A_NS" 2
	check_within "$mode beta on-CPU" "$(echo "$rows" | awk '$1 == "beta" { print $2 }')" "$B_NS" 2
done
got=$(python3 - "$T/hist.out" "$PID" <<'PY'
import csv, sys
with open(sys.argv[1], errors="surrogateescape") as fh:
    print(" ".join(sorted({r["comm"] for r in csv.DictReader(fh) if r["pid"] == sys.argv[2]})))
PY
)
[ "$got" = "alpha beta" ] || fail "-P histograms for pid $PID named '$got', want alpha and beta"
info "-P histograms: pid $PID under both names"
pass "pid reuse: two rows, each its own name and time"

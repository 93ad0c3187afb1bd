#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh - run switchstat for a long time under the machine's highest
# switch rate and check that it does not grow: its RSS (/proc/PID/status
# VmRSS) and the entries of its BPF hash maps must stay flat.
#
# Load: one pipe ping-pong (tests/workloads/pingpong) pinned to each CPU,
# two tasks per CPU bouncing a byte, i.e. as many context switches as the
# machine makes; plus a trickle of short processes (forkstorm, PROCS a
# second, default 20) so new rows keep appearing and old ones going.  switchstat runs with
# --csv -n 0 (every row printed, so the rows per interval are the entries
# drained from the accumulator map).
#
# Every interval it records: seconds, VmRSS kB, rows drained, entries in
# each hash map of the tool (bpftool map dump), the tool's CPU time.
# The run must span at least 40 intervals (-t * 1000 / -i), so each
# quarter holds at least 10.  Verdict after a warm-up (the first quarter
# of the run, at least 10 intervals):
#   RSS: median of the last quarter - median of the second quarter
#        <= BOUND kB (default 512; a leak of 1 kB per interval over an hour
#        is 3.5 MB: run longer to catch smaller leaks)
#   rows and map entries: median of the last quarter <= 2x that of the
#        second quarter + 64 (they follow the load, which is steady)
# Prints a table of samples (every 10th) and the verdict with the numbers.
#
# Usage: scripts/soak.sh [-t SECONDS] [-i MS] [-g BOUND_KB] [-f PROCS]
#        [-b SWITCHSTAT] [-w WORKLOADS_DIR] [-o SAMPLES_CSV]
# Exit: 0 flat, 1 grew (or the tool died), 2 bad usage, 77 cannot run here.
set -u

DUR=600
IV=1000
BOUND=512
PROCS=20
SS=""
WL=""
SAMPLES=""
while getopts "t:i:g:f:b:w:o:h" c; do
	case $c in
	t) DUR=$OPTARG ;;
	i) IV=$OPTARG ;;
	g) BOUND=$OPTARG ;;
	f) PROCS=$OPTARG ;;
	b) SS=$OPTARG ;;
	w) WL=$OPTARG ;;
	o) SAMPLES=$OPTARG ;;
	*) sed -n '3,29p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
case $DUR$IV$BOUND$PROCS in *[!0-9]* | "") echo "soak: -t, -i, -g and -f want numbers" >&2; exit 2 ;; esac
[ "$IV" -ge 100 ] || { echo "soak: -i must be >= 100 ms" >&2; exit 2; }
# the verdict compares quarters of the run: each must be >= 10 intervals
[ $((DUR * 1000 / IV)) -ge 40 ] || { echo "soak: -t must span >= 40 intervals of -i" >&2; exit 2; }
[ "$PROCS" -ge 1 ] || { echo "soak: -f must be >= 1" >&2; exit 2; }

here=$(cd "$(dirname "$0")/.." && pwd)
SS=${SS:-${SWITCHSTAT:-$here/build/switchstat}}
WL=${WL:-${WORKLOADS:-$here/build/workloads}}
[ "$(id -u)" -eq 0 ] || { echo "soak: needs root" >&2; exit 77; }
command -v bpftool >/dev/null || { echo "soak: needs bpftool" >&2; exit 77; }
for f in "$SS" "$WL/pingpong" "$WL/forkstorm"; do
	[ -x "$f" ] || { echo "soak: missing $f" >&2; exit 1; }
done

W=$(mktemp -d /tmp/ss-soak.XXXXXX)
PIDS=()
TOOL=""
cleanup() {
	{
		[ -n "$TOOL" ] && kill -INT "$TOOL" && wait "$TOOL"
		for p in "${PIDS[@]}"; do
			pkill -KILL -P "$p"
			kill -KILL "$p"
		done
		wait
	} 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ncpu=$(nproc)
for cpu in $(seq 0 $((ncpu - 1))); do
	taskset -c "$cpu" "$WL/pingpong" "$W/pp$cpu" &
	PIDS+=($!)
done
(while :; do "$WL/forkstorm" "$PROCS" 1 >/dev/null; sleep 1; done) 2>/dev/null &
PIDS+=($!)

# -d only caps a hang: the loop below ends the run with SIGINT
"$SS" --csv -n 0 -i "$IV" -d "$((DUR * 4 + 60))" >"$W/out" 2>"$W/err" &
TOOL=$!
for i in $(seq 1 600); do
	grep -q Tracing "$W/err" && break
	kill -0 "$TOOL" 2>/dev/null || { cat "$W/err" >&2; echo "soak: switchstat exited at start" >&2; exit 1; }
	sleep 0.1
done
grep -q Tracing "$W/err" || { echo "soak: switchstat did not start within 60 s" >&2; exit 1; }
hz=$(getconf CLK_TCK)

# hash_entries: total entries over the tool's hash maps
hash_entries() {
	local id tot=0 n
	for id in $(grep -h '^map_id:' /proc/"$TOOL"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un); do
		bpftool map show id "$id" 2>/dev/null | grep -q ': [a-z_]*hash ' || continue
		n=$(bpftool -j map dump id "$id" 2>/dev/null |
			python3 -c 'import json, sys; print(len(json.load(sys.stdin)))' 2>/dev/null)
		tot=$((tot + ${n:-0}))
	done
	echo "$tot"
}

echo "soak: switchstat pid $TOOL, $DUR s, interval $IV ms, $ncpu pingpong(s) + $PROCS processes/s"
t0=$(date +%s%N)
: >"$W/samples"
while :; do
	sleep "$(awk -v ms="$IV" 'BEGIN { print ms / 1000 }')"
	now=$((($(date +%s%N) - t0) / 1000000))
	# and at least 12 samples (3 a quarter) however slow bpftool is here
	[ "$now" -ge $((DUR * 1000)) ] && [ "$(wc -l <"$W/samples")" -ge 12 ] && break
	kill -0 "$TOOL" 2>/dev/null || { cat "$W/err" >&2; echo "soak: switchstat died after $now ms" >&2; exit 1; }
	rss=$(awk '/^VmRSS:/ { print $2 }' /proc/"$TOOL"/status)
	cpu=$(sed 's/.*) //' /proc/"$TOOL"/stat | awk -v hz="$hz" '{ printf "%.2f", ($12 + $13) / hz }')
	ent=$(hash_entries)
	echo "$now $rss $ent $cpu" >>"$W/samples"
done
kill -INT "$TOOL"
wait "$TOOL"
rc=$?
TOOL=""
[ "$rc" -eq 0 ] || { cat "$W/err" >&2; echo "soak: switchstat exit code $rc" >&2; exit 1; }

python3 - "$W/samples" "$W/out" "$BOUND" "$DUR" "${SAMPLES:-}" "$IV" <<'PY'
import csv, statistics as st, sys
samples_f, out_f, bound, dur, dump = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
iv = int(sys.argv[6])
s = [list(map(float, l.split())) for l in open(samples_f) if l.strip()]
rows = {}
for r in csv.DictReader(open(out_f, encoding="latin-1", newline="")):
    rows[r["time"]] = rows.get(r["time"], 0) + 1
per_iv = list(rows.values())[1:-1]  # drop the first and the partial last
if dump:
    with open(dump, "w") as f:
        f.write("ms,rss_kb,map_entries,cpu_s\n")
        for x in s:
            f.write("%d,%d,%d,%.2f\n" % tuple(x))
print("%8s %9s %12s %9s" % ("t(s)", "RSS(kB)", "map entries", "CPU(s)"))
for i, x in enumerate(s):
    if i % 10 == 0 or i == len(s) - 1:
        print("%8.1f %9d %12d %9.2f" % (x[0] / 1000, x[1], x[2], x[3]))
n = len(s)
if n < 8 or len(per_iv) < 8:
    print("soak: too few samples (%d, %d intervals)" % (n, len(per_iv)))
    sys.exit(1)
q = n // 4
warm = max(q, next((i for i, x in enumerate(s) if x[0] >= 10 * iv), q))
mid = s[warm:warm + max(q, 3)]
last = s[-max(q, 3):]
rss_mid, rss_last = st.median(x[1] for x in mid), st.median(x[1] for x in last)
ent_mid, ent_last = st.median(x[2] for x in mid), st.median(x[2] for x in last)
qi = len(per_iv) // 4
rows_mid, rows_last = st.median(per_iv[qi:2 * qi] or per_iv), st.median(per_iv[-qi:] or per_iv)
cpu_pct = 100.0 * (s[-1][3] - s[0][3]) / ((s[-1][0] - s[0][0]) / 1000) if n > 1 else 0
nsw = "%d intervals" % len(per_iv)
ok = True
print("RSS: %d kB after warm-up, %d kB at the end: %+d kB (bound %d kB)" %
      (rss_mid, rss_last, rss_last - rss_mid, bound))
if rss_last - rss_mid > bound:
    ok = False
print("map entries (mid-interval): %d after warm-up, %d at the end" % (ent_mid, ent_last))
if ent_last > 2 * ent_mid + 64:
    ok = False
print("rows drained per interval: %d after warm-up, %d at the end (%s)" % (rows_mid, rows_last, nsw))
if rows_last > 2 * rows_mid + 64:
    ok = False
print("switchstat user+system CPU: %.2f%% of one CPU, peak RSS %d kB" % (cpu_pct, max(x[1] for x in s)))
print("verdict: %s" % ("FLAT" if ok else "GROWING"))
sys.exit(0 if ok else 1)
PY

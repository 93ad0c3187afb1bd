#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Each CPU's idle task is its own row only with --idle,
# never mixed into process rows; no row and no interval ever holds more
# on-CPU time than is possible (ncpus x interval), so nothing wrapped or was
# attributed from before the start.  The idle rows can only be asked for
# when the CPUs were idle at all inside the tool's window (/proc/stat):
# on a fully busy machine that check is skipped (exit 77), the bounds are
# still checked.
. "$(dirname "$0")/lib.sh"
need_root

# idle + iowait time of all CPUs so far, USER_HZ ticks: the idle tasks ran
idle_ticks() { awk '$1 == "cpu" { print $5 + $6 }' /proc/stat; }

bg "$WORKLOADS/sleeper" 1000
bg taskset -c 1 "$WORKLOADS/spinner" 0 idlespin # one thread: <= 1 CPU
start_tool idle --csv -n 0 -i 500 --idle -L --check
I0=$(idle_ticks)
# 4 intervals, then half of one: the final partial interval is about 250
# ms, long enough for the timestamps' jitter to stay inside its 2 % (a TCG
# guest's edges run ms late: a 32 ms final interval, after a fixed sleep,
# failed there)
csv_ivs_ge() { [ "$(awk -F, 'NR > 1 { print $1 }' "$T/idle.out" | sort -u | wc -l)" -ge "$1" ]; }
wait_for "4 intervals in the CSV" csv_ivs_ge 4
sleep 0.25 # not a window: the final partial interval
I1=$(idle_ticks)
stop_tool
start_tool noidle --csv -n 0 -i 500
# until its first interval's rows are out (the sleeper switches every
# ms), however slowly (SS_HANG_S is a hang): no count is judged
csv_rows() { [ "$(wc -l <"$T/noidle.out")" -ge 2 ]; }
wait_for "rows without --idle" csv_rows
stop_tool

IDLE=$((I1 - I0))
info "CPUs idle inside the window: $IDLE ticks (/proc/stat idle + iowait)"
rc=0
python3 - "$T/idle.out" "$T/noidle.out" "$(nproc)" "$IDLE" "$T/idle.err" <<'PY' || rc=$?
import csv, re, sys, collections
idle, noidle, ncpus = sys.argv[1], sys.argv[2], int(sys.argv[3])
idle_ticks = int(sys.argv[4])
# the first interval began at the reset's edge, which the timestamps do not
# show: its length is the CPUs' own span between their edges (--check)
spans = re.findall(r"^check: .* x ([0-9.]+) ms .*$", open(sys.argv[5], encoding="latin-1").read(), re.M)
assert spans, "no --check lines"
rows = list(csv.DictReader(open(idle, encoding="latin-1", newline="")))
assert rows, "no rows"
by_time = collections.defaultdict(list)
for r in rows:
    by_time[r["time"]].append(r)
times = sorted(by_time, key=float)
swappers = {r["comm"] for r in rows if r["pid"] == "0"}
assert not idle_ticks or any(c.startswith("swapper/") for c in swappers), \
    "no idle rows with --idle, yet the CPUs were idle %d ticks: %s" % (idle_ticks, swappers)
assert all(c.startswith("swapper/") for c in swappers), "pid 0 rows not per CPU: %s" % swappers
prev = None
for t in times:
    # interval length from the timestamps; the first one's from --check
    # (about 0.5 s; 0.65 s in a TCG guest, where the edges run late)
    ivl = (float(t) - prev) if prev else float(spans[0]) / 1e3
    prev = float(t)
    total = sum(int(r["oncpu_ns"]) for r in by_time[t])
    limit = ncpus * ivl * 1e9 * 1.02
    for r in by_time[t]:
        # a thread (-L) or a CPU's idle task runs at most one CPU, in the
        # first interval too (nothing from before it began)
        assert float(r["cpu_pct"]) <= 102, "%s/%s %s at %s%% of a CPU in interval %s" % (r["pid"], r["tid"], r["comm"], r["cpu_pct"], t)
        v = int(r["oncpu_ns"])
        assert v <= ivl * 1e9 * 1.02, "row %s/%s %s has %d ns in a %.3f s interval" % (r["pid"], r["tid"], r["comm"], v, ivl)
    assert total <= limit, "interval %s: %d ns > %d CPUs x %.3f s" % (t, total, ncpus, ivl)
    print("  interval %s: on-CPU incl. idle %.1f ms of %.1f ms possible" % (t, total / 1e6, ncpus * ivl * 1e3))
nr = list(csv.DictReader(open(noidle, encoding="latin-1", newline="")))
assert nr, "no rows without --idle"
assert not [r for r in nr if r["pid"] == "0"], "pid 0 rows without --idle"
if not swappers:
    sys.exit(77) # no idle rows, and (asserted above) no idle time
PY
[ "$rc" -eq 77 ] && skip "CPUs never idle in the window (/proc/stat) and no idle rows; bounds held"
[ "$rc" -eq 0 ] || fail "on-CPU accounting out of bounds"
pass "idle separate per CPU; no interval exceeds ncpus x interval"

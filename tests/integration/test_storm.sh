#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_storm.sh - maps that fill up: a storm of 20,000 short-lived
# processes (forkstorm: posix_spawn of /bin/true) must not fill the maps with
# dead tasks or make new processes vanish.
#
#  1. default map size: every /bin/true run shows up (rows of the storm's
#     children summed over the intervals >= runs: each child switches out
#     at least once, at exit), nothing is dropped, a named spinner started
#     after the storm appears in the first interval that ends after it has
#     run (named itself), and the rows per interval (= accumulator entries
#     drained) return to near the pre-storm baseline;
#  2. --map-entries 1024: the map overflows and says so honestly: dropped > 0
#     (CSV field, JSON field and the table's "dropped N updates" line), no
#     interval has (much) more rows than the map holds, and rows + dropped
#     account for every child.  The overflow is forced whatever the fork
#     rate: the whole storm of 6000 children runs inside one interval
#     (-i longer than the test, ended by SIGINT), so the map must hold a
#     row for each of them at once;
#  3. with --hist offcpu,runq -M (per-thread state in hash maps): after a
#     storm, every hash map of the tool holds about as many entries as
#     before it (entries of exited threads are deleted at sched_process_exit).
. "$(dirname "$0")/lib.sh"
need_root
command -v bpftool >/dev/null || skip "needs bpftool"
STORM=$WORKLOADS/forkstorm
[ -x "$STORM" ] || fail "workload missing: $STORM"

RUNS=${STORM_RUNS:-20000}

# analyze CSV WORKERS_FILE MODE: per-interval rows/dropped, storm children
analyze() {
	python3 - "$@" <<'PY'
import csv, sys
path, workers_file, spin = sys.argv[1], sys.argv[2], sys.argv[3]
workers = set()
with open(workers_file) as f:
    for line in f:
        if line.startswith("workers:"):
            workers = set(line.split()[1:])
ivs = []  # [time, rows, dropped, children, spin_oncpu]
for r in csv.DictReader(open(path, encoding="latin-1", newline="")):
    if not ivs or ivs[-1][0] != r["time"]:
        ivs.append([r["time"], 0, int(r["dropped"] or 0), 0, 0])
    iv = ivs[-1]
    iv[1] += 1
    if r["comm"] == "true" or (r["comm"] == "forkstorm" and r["pid"] not in workers):
        iv[3] += 1
    if r["comm"] == spin:
        iv[4] += int(r["oncpu_ns"])
for iv in ivs:
    print(*iv)
PY
}

# hash_entries PID: "name entries" of each hash map the process holds
hash_entries() {
	local id
	for id in $(grep -h '^map_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un); do
		bpftool -j map show id "$id" 2>/dev/null | grep -q '"type":"[a-z_]*hash"' || continue
		bpftool -j map dump id "$id" 2>/dev/null | python3 -c '
import json, sys
print(sys.argv[1], len(json.load(sys.stdin)))' "$(bpftool -j map show id "$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"])')"
	done
}

# storm NAME RUNS: run the storm, its first line (worker pids) in $T/NAME.workers
storm() {
	"$STORM" "$2" 2 >"$T/$1.workers" || fail "forkstorm failed"
	info "$(tail -1 "$T/$1.workers")"
}

# ---- 1: default map size ----------------------------------------------
# two whole intervals before the storm (the baseline), and three after
# it: the spinner's first, and the last whole one, back to the baseline
start_tool full -v --csv -n 0 -i 1000
wait_intervals full 2
storm full "$RUNS"
bg "$WORKLOADS/spinner" 0 ssstormspin
spin=$BG_LAST
wait_comm "$spin" ssstormspin
t_spin=$EPOCHREALTIME # it has run by now
wait_intervals full $(($(intervals full) + 3))
stop_tool
kill "$spin"
analyze "$T/full.out" "$T/full.workers" ssstormspin >"$T/full.iv"
read -r base_rows < <(awk 'NR == 1 || NR == 2 { s += $2; n++ } END { printf "%d\n", s / n }' "$T/full.iv")
children=$(awk '{ s += $4 } END { print s }' "$T/full.iv")
dropped=$(awk '{ s += $3 } END { print s }' "$T/full.iv")
peak=$(awk '$2 > m { m = $2 } END { print m }' "$T/full.iv")
# slices skipped after a switch missed or not reported by the kernel (-v
# lines; their owner is unknown, so a child whose only slice it was has
# no row): counted, rare
missed=$(unowned_slices "$T/full.err")
info "full map: baseline $base_rows rows/interval, peak $peak, storm children seen $children of $RUNS, dropped $dropped, missed-switch slices $missed"
[ "$dropped" -eq 0 ] || fail "default map size dropped $dropped updates"
[ $((children + missed)) -ge "$RUNS" ] || fail "only $children of $RUNS storm children appeared, $missed slices counted missed (processes vanished)"
[ "$missed" -le $((RUNS / 10)) ] || fail "$missed missed-switch slices: over 10% of the storm"
# the spinner: in the first full interval after it started, and running
n=$(wc -l <"$T/full.iv")
spin_iv=$(awk '$5 > 0 { print NR; exit }' "$T/full.iv")
[ -n "$spin_iv" ] || fail "spinner started after the storm never appeared"
storm_end=$(awk '$4 > 0 { l = NR } END { print l }' "$T/full.iv")
# the interval its run before t_spin is charged to at the latest: the
# first to end after it, or after a tick more on the kernel's clock
# (task_clock_lag_ms: a running task is charged up to a tick late)
ran_iv=$(awk -v t="$t_spin" -v lag="$(task_clock_lag_ms "$T/full.err")" \
	'$1 >= t + lag / 1000 { print NR; exit }' "$T/full.iv")
[ -n "$ran_iv" ] && [ "$spin_iv" -le "$ran_iv" ] ||
	fail "spinner appeared only in interval $spin_iv, it had run in interval ${ran_iv:-none} (storm ended in $storm_end)"
info "spinner appeared in interval $spin_iv, had run by the end of $ran_iv (storm's last interval $storm_end of $n)"
# the last full interval (before the partial one at Ctrl-C): near baseline
after=$(awk -v n=$((n - 1)) 'NR == n { print $2 }' "$T/full.iv")
info "rows (= entries drained) in the last full interval: $after (baseline $base_rows)"
[ "$after" -le $((base_rows * 2 + 50)) ] ||
	fail "rows per interval did not return to baseline: $after vs $base_rows"

# ---- 2: tiny map, honest drops (CSV, table and JSON at once) ----------
# one interval (a day long) from before the storm to SIGINT after it
start_tool table -n 1 -i 86400000 --map-entries 1024
table_pid=$TOOL_PID
start_tool json --json -n 1 -i 86400000 --map-entries 1024
json_pid=$TOOL_PID
start_tool tiny --csv -n 0 -i 86400000 --map-entries 1024
storm tiny 6000
stop_tool
for TOOL_PID in $table_pid $json_pid; do stop_tool; done
analyze "$T/tiny.out" "$T/tiny.workers" none >"$T/tiny.iv"
children=$(awk '{ s += $4 } END { print s }' "$T/tiny.iv")
dropped=$(awk '{ s += $3 } END { print s }' "$T/tiny.iv")
peak=$(awk '$2 > m { m = $2 } END { print m }' "$T/tiny.iv")
info "--map-entries 1024: peak $peak rows/interval, children seen $children, dropped $dropped"
[ "$(wc -l <"$T/tiny.iv")" -eq 1 ] || fail "--map-entries 1024: $(wc -l <"$T/tiny.iv") intervals, want the storm in one"
[ "$dropped" -gt 0 ] || fail "map of 1024 entries overflowed silently (dropped 0)"
# (entries the drain frees can be refilled before it ends: a few over 1024)
[ "$peak" -le 1100 ] || fail "$peak rows in an interval from a 1024-entry map"
[ $((children + dropped)) -ge 6000 ] ||
	fail "rows + dropped = $((children + dropped)) < 6000 children: some vanished uncounted"
# the table and JSON say it too
grep -q '^dropped [1-9][0-9]* updates' "$T/table.out" || fail "table shows no 'dropped N updates' line"
grep -q '"dropped": *[1-9]' "$T/json.out" || fail "JSON rows show no dropped > 0"
info "table: $(grep -m1 '^dropped' "$T/table.out"); JSON: $(grep -o -m1 '"dropped": *[1-9][0-9]*' "$T/json.out")"

# ---- 3: per-thread state of features does not outlive the threads ------
# an interval ended before each look at the maps
start_tool feat -v --hist offcpu,runq -M -i 500
wait_intervals feat 1
hash_entries "$TOOL_PID" >"$T/before"
storm feat 5000
wait_intervals feat $(($(intervals feat) + 1))
hash_entries "$TOOL_PID" >"$T/after"
stop_tool
# no hash map found means nothing was compared: that is a failure
[ -s "$T/before" ] || fail "no hash map of the tool found before the storm (fdinfo/bpftool)"
while read -r name b; do
	a=$(awk -v m="$name" '$1 == m { print $2 }' "$T/after")
	[ -n "$a" ] || fail "map $name: not found after the storm"
	info "map $name: $b entries before the storm, $a after"
	[ "$a" -le $((b * 3 / 2 + 500)) ] ||
		fail "map $name grew from $b to $a entries: dead threads kept"
done <"$T/before"
pass "fork storm of $RUNS: nothing vanished, drops counted, maps back to baseline"

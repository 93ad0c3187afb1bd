#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_cghist.sh - -G histograms: one per cgroup, like -P per process, in
# the table, CSV and JSON, and the exporter's histogram series labelled by
# cgroup under --max-series.  Input: two sleepthreads processes (100 and 50
# threads that sleep 1 ms three times, then block), each alone in its own
# cgroup, frozen (SIGSTOP) before the oracle is read.  Oracle: the kernel's
# pcount delta (third field of /proc/PID/task/TID/schedstat, switch-ins),
# summed over each process's threads: every switch-in ends a run-queue
# wait that began while tracing (test_runqwake.sh), so each cgroup's runq
# histogram counts exactly its process's pcount:
#   -G --hist runq --csv        per cgroup (cgroup_id, cgroup columns);
#   -G --hist runq --json       the same objects;
#   -G --hist runq (table)      one "cgroup = PATH" histogram each;
#   -G -P --hist runq --csv     -P still per process (the probes key by
#                               process and cgroup: summed per process);
#   --listen --hist runq        _count{cgroup=PATH} of each, and with
#                               --max-series 1 at most 2 label sets
#                               (one and `other`), the rest counted in
#                               switchstat_series_overflow_rows_total.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/sleepthreads" ] || fail "workload sleepthreads not built in $WORKLOADS"

V2=$(cg2_mount)
[ -n "$V2" ] || skip "no cgroup2 file system mounted"
RA=$CG_BASE/switchstat-cghist-a-$$
RB=$CG_BASE/switchstat-cghist-b-$$
cg_cleanup() {
	cleanup
	cg_remove "$V2$RA" "$V2$RB"
}
trap cg_cleanup EXIT
mkdir "$V2$RA" "$V2$RB" 2>/dev/null || skip "cannot create cgroups under $V2"

bg "$WORKLOADS/sleepthreads" 100 "$T/ready.a"
PA=$BG_LAST
bg "$WORKLOADS/sleepthreads" 50 "$T/ready.b"
PB=$BG_LAST
wait_file "$T/ready.a"
wait_file "$T/ready.b"
echo "$PA" >"$V2$RA/cgroup.procs" || fail "cannot move $PA into $RA"
echo "$PB" >"$V2$RB/cgroup.procs" || fail "cannot move $PB into $RB"

pcount() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $3 } END { printf "%.0f\n", s }'; }

H="-G -n 0 -i 60000 --no-counters --hist runq"
PORT=$(free_port)
PORT1=$(free_port)
# shellcheck disable=SC2086
{
	launch csv $H --csv
	PIDS=("$LAUNCHED")
	launch json $H --json
	PIDS+=("$LAUNCHED")
	launch table $H -H
	PIDS+=("$LAUNCHED")
	launch gp $H -P --csv -H
	PIDS+=("$LAUNCHED")
	launch prom --listen "$PORT" -q -n 0 -i 300 --no-counters --hist runq
	PIDS+=("$LAUNCHED")
	launch prom1 --listen "$PORT1" -q -n 0 -i 300 --no-counters --hist runq --max-series 1
	PIDS+=("$LAUNCHED")
}
NAMES=(csv json table gp prom prom1)
for i in "${!NAMES[@]}"; do await "${NAMES[$i]}" "${PIDS[$i]}"; done
wait_metric "$PORT" '^switchstat_last_collect_timestamp_seconds'
wait_metric "$PORT1" '^switchstat_last_collect_timestamp_seconds'

a0=$(pcount "$PA")
b0=$(pcount "$PB")
kill -USR1 "$PA" "$PB"
parked() { threads_parked "$PA" && threads_parked "$PB"; }
wait_for "the threads past their three 1 ms sleeps" parked
freeze "$PA" "$PB"
a1=$(pcount "$PA")
b1=$(pcount "$PB")
# the exporter publishes every 300 ms: scraped until its collect
# timestamp is two of its intervals (and 50 ms) past the one seen after
# the freeze, so the interval holding the last switch-in is published;
# a slow host only waits longer (SS_HANG_S is a hang)
c0=$(scrape "$PORT" | awk '/^switchstat_last_collect_timestamp_seconds/ { print $2 }')
published() {
	scrape "$PORT" >"$T/m.txt" || fail "scrape failed"
	scrape "$PORT1" >"$T/m1.txt" || fail "scrape failed"
	c1=$(awk '/^switchstat_last_collect_timestamp_seconds/ { print $2 }' "$T/m.txt")
	awk -v c0="$c0" -v c1="$c1" 'BEGIN { exit !(c1 > c0 + 0.65) }'
}
wait_for "the exporter: two intervals published after the freeze" published
kill -INT "${PIDS[@]}"
for i in "${!NAMES[@]}"; do reap "${PIDS[$i]}" "${NAMES[$i]}"; done

python3 - "$T" "$RA" "$RB" "$((a1 - a0))" "$((b1 - b0))" "$PA" "$PB" <<'PY' || fail "per-cgroup histograms differ from the kernel's pcount"
import csv, json, re, sys
d, ra, rb = sys.argv[1:4]
want = {ra: int(sys.argv[4]), rb: int(sys.argv[5])}
pids = {sys.argv[6]: ra, sys.argv[7]: rb}
assert min(want.values()) > 100, "workloads did not run: %s" % want
bad = 0
def same(what, got, exp):
    global bad
    ok = got == exp
    bad += not ok
    print("  %-38s runq waits %6d, kernel pcount %6d%s" % (what, got, exp, "" if ok else "  <-- FAIL"))

def from_csv(name, by):
    got, head = {}, None
    for line in open("%s/%s.out" % (d, name), encoding="latin-1", newline=""):
        f = next(csv.reader([line.rstrip("\n")])) if line.strip() else []
        if f[:3] == ["time", "kind", "unit"]:
            head = f
            continue
        if head is None or not f:
            if not f:
                head = None
            continue
        r = dict(zip(head, f))
        if r["kind"] == "runq":
            got[r[by]] = got.get(r[by], 0) + int(r["count"])
    return got

g = from_csv("csv", "cgroup")
for cg in (ra, rb):
    same("-G --csv %s" % cg, g.get(cg, 0), want[cg])
hdr = [l for l in open(d + "/csv.out") if l.startswith("time,kind,")]
assert hdr and hdr[0].strip() == "time,kind,unit,cgroup_id,cgroup,low,high,count", hdr[:1]

js = {}
for line in open(d + "/json.out", encoding="utf-8"):
    o = json.loads(line)
    if o.get("type") == "hist" and o["kind"] == "runq":
        assert "pid" not in o and isinstance(o["cgroup_id"], int), o
        js[o["cgroup"]] = js.get(o["cgroup"], 0) + o["count"]
for cg in (ra, rb):
    same("-G --json %s" % cg, js.get(cg, 0), want[cg])

txt, cur = {}, None
for line in open(d + "/table.out", encoding="latin-1"):
    m = re.match(r"^cgroup = (\S+)$", line)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r"^\s+\d+ -> \d+\s+: (\d+)\s+\|", line)
    if m and cur:
        txt[cur] = txt.get(cur, 0) + int(m.group(1))
for cg in (ra, rb):
    same("-G table 'cgroup = %s'" % cg, txt.get(cg, 0), want[cg])

gp = from_csv("gp", "pid")
for p, cg in pids.items():
    same("-G -P --csv pid %s" % p, gp.get(p, 0), want[cg])

def prom(name):
    got, labels = {}, set()
    for line in open("%s/%s" % (d, name), encoding="utf-8"):
        m = re.match(r'^switchstat_runq_latency_seconds_count\{cgroup="([^"]*)",container_id="[^"]*"\} (\d+)$', line)
        if m:
            got[m.group(1)] = int(m.group(2))
            labels.add(m.group(1))
        elif line.startswith("switchstat_runq_latency_seconds_count"):
            raise SystemExit("unlabelled: " + line)
    return got, labels
pg, _ = prom("m.txt")
for cg in (ra, rb):
    same("--listen _count{cgroup=%s}" % cg, pg.get(cg, 0), want[cg])
_, lab1 = prom("m1.txt")
over = [l for l in open(d + "/m1.txt") if l.startswith("switchstat_series_overflow_rows_total ")]
print("  --max-series 1: histogram label sets %s, %s" % (sorted(lab1), over[0].strip() if over else "no overflow count"))
if not (len(lab1) <= 2 and "other" in lab1 and over and int(over[0].split()[1]) > 0):
    bad += 1
    print("  <-- FAIL: --max-series 1 must give one cgroup and other")
sys.exit(1 if bad else 0)
PY
pass "-G histograms per cgroup in table, CSV, JSON and the exporter, exact against pcount"

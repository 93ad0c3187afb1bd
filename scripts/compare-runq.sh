#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compare-runq.sh - one workload's run-queue delay as perf sched, bcc's
# runqlat, switchstat (--blame, --hist runq) and the kernel's schedstat
# see it, all in the same run, and print a table.
#
# The workload: a 1 ms nanosleep loop (sleeper, SCHED_OTHER, the victim)
# pinned beside N CPU hogs (spinner) on one CPU.  Everything is stopped
# (SIGSTOP) while the tracers attach and detach, so every tracer and the
# schedstat reads (/proc/PID/schedstat: on-CPU ns, run_delay ns, pcount)
# cover the same window of workload time.
#
# Usage: scripts/compare-runq.sh [-d SECONDS] [-n HOGS] [-c CPU] [-k DIR]
#   -d  workload time traced (default 5 s)
#   -n  number of hogs beside the victim (default 5)
#   -c  the CPU they all share (default 0)
#   -k  keep the raw outputs in DIR (default: a temporary dir, removed)
# Env: SWITCHSTAT (default build/switchstat), WORKLOADS (build/workloads),
# PERF (perf), RUNQLAT (/usr/sbin/runqlat-bpfcc).  Needs root.
#
# Rows: perf sched latency's total (its avg x switches; avg printed in ms
# with three decimals, so up to 0.5 us x count of rounding) is the
# reference ("vs perf").  This script's own sums from `perf script` time
# each wait in ns from sched_wakeup and from sched_waking (or from a
# preemption) to the switch-in; "+ waits whose switch-in it missed" adds
# the waits that ended at a switch-in the kernel did not report (perf has
# no event there; timed to the next switch-out).  switchstat --blame: the
# victim's delay_ns summed over culprits.  Histograms (runqlat, --hist
# runq) keep only log2 bucket counts: their total is estimated from bucket
# midpoints (slot [2^s, 2^(s+1)) us: 1.5 x 2^s), and the bucket table puts
# perf's waits in the same buckets to compare counts.  schedstat: the
# victim's run_delay and pcount deltas (the kernel's rq clock).
set -u

SRC=$(cd "$(dirname "$0")/.." && pwd)
SWITCHSTAT=${SWITCHSTAT:-$SRC/build/switchstat}
WORKLOADS=${WORKLOADS:-$SRC/build/workloads}
PERF=${PERF:-perf}
RUNQLAT=${RUNQLAT:-/usr/sbin/runqlat-bpfcc}
DUR=5
NHOGS=5
CPU=0
KEEP=

die() {
	echo "compare-runq: $*" >&2
	exit 1
}

while getopts "d:n:c:k:h" o; do
	case $o in
	d) DUR=$OPTARG ;;
	n) NHOGS=$OPTARG ;;
	c) CPU=$OPTARG ;;
	k) KEEP=$OPTARG ;;
	*)
		sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;/^set -u/d'
		exit 2
		;;
	esac
done
[[ $DUR =~ ^[0-9]+$ && $DUR -ge 1 ]] || die "-d wants whole seconds >= 1, got '$DUR'"
[[ $NHOGS =~ ^[0-9]+$ && $NHOGS -ge 1 ]] || die "-n wants a count >= 1, got '$NHOGS'"
[[ $CPU =~ ^[0-9]+$ ]] || die "-c wants a CPU number, got '$CPU'"
[ "$(id -u)" -eq 0 ] || die "needs root"
[ -x "$SWITCHSTAT" ] || die "no switchstat at $SWITCHSTAT (build first)"
[ -x "$WORKLOADS/sleeper" ] || die "no workloads in $WORKLOADS"
command -v "$PERF" >/dev/null || die "no perf ($PERF)"
[ -x "$RUNQLAT" ] || die "no runqlat at $RUNQLAT (apt-get install bpfcc-tools)"

if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" || die "cannot create $KEEP"
	T=$KEEP
else
	T=$(mktemp -d /tmp/compare-runq.XXXXXX)
fi
WL=()    # workload pids
TOOLS=() # tracer pids
cleanup() {
	local p
	for p in "${TOOLS[@]}" "${WL[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	wait 2>/dev/null
	[ -n "$KEEP" ] || rm -rf "$T"
}
trap cleanup EXIT

# freeze: SIGSTOP the workload and wait until each is stopped (state T),
# so its last wait (to handle the signal) is over before schedstat is read
freeze() {
	local p i
	kill -STOP "${WL[@]}"
	for p in "${WL[@]}"; do
		for i in $(seq 1 400); do
			[ "$(sed 's/.*) //' /proc/"$p"/stat | cut -d' ' -f1)" = T ] && break
			sleep 0.005
		done
	done
}
thaw() { kill -CONT "${WL[@]}"; }

# wait_file FILE PATTERN PID: until FILE shows PATTERN (the tool attached)
wait_file() {
	local i
	for i in $(seq 1 1200); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || { cat "$1" >&2; die "$1: tool exited"; }
		sleep 0.05
	done
	die "$1: no '$2' within 60 s"
}

# --- the workload, frozen --------------------------------------------------
taskset -c "$CPU" "$WORKLOADS/sleeper" 1000 &
VICTIM=$!
WL+=("$VICTIM")
for i in $(seq 1 "$NHOGS"); do
	taskset -c "$CPU" "$WORKLOADS/spinner" 0 "hog$i" &
	WL+=("$!")
done
for p in "${WL[@]}"; do # until each has exec'd (comm set)
	for i in $(seq 1 200); do
		c=$(cat /proc/"$p"/comm 2>/dev/null)
		[ "$c" = sleeper ] || [[ $c == hog* ]] && break
		sleep 0.01
	done
done
freeze

# --- the tracers -----------------------------------------------------------
# perf starts disabled and is enabled through its control fifo, so it is
# recording before the workload runs
mkfifo "$T/perf.ctl" "$T/perf.ack"
# perf sched record's own event list has sched_waking but not sched_wakeup
# where the kernel has both, and perf 6.1's `perf sched latency` then sees
# no wakeups at all (each task: one switch, 0 delay): record both, as perf
# sched record does (-a -R -c 1 -m 1024), only the victim's events (on a
# busy host all switches make gigabytes)
V=$VICTIM
"$PERF" record -a -R -c 1 -m 1024 -o "$T/perf.data" -D -1 \
	--control "fifo:$T/perf.ctl,$T/perf.ack" \
	-e sched:sched_switch --filter "prev_pid == $V || next_pid == $V" \
	-e sched:sched_stat_runtime --filter "pid == $V" \
	-e sched:sched_wakeup_new --filter "pid == $V" \
	-e sched:sched_migrate_task --filter "pid == $V" \
	-e sched:sched_waking --filter "pid == $V" \
	-e sched:sched_wakeup --filter "pid == $V" >"$T/perf.out" 2>&1 &
PERF_PID=$!
TOOLS+=("$PERF_PID")
exec 8<>"$T/perf.ctl" 9<>"$T/perf.ack"
echo enable >&8
read -r -t 60 ack <&9 || die "perf record did not answer (see $T/perf.out)"

# a script's background job (and everything a script started in the
# background runs) starts with SIGINT ignored, and Python then never raises
# KeyboardInterrupt: runqlat would not print at SIGINT.  env resets it.
# bcc compiles runqlat against /lib/modules/$(uname -r)/build; where those
# headers are another kernel's, its task_struct offsets are wrong, it reads
# garbage pids and -p counts nothing (the table says so).
PYTHONUNBUFFERED=1 env --default-signal=INT "$RUNQLAT" -p "$VICTIM" \
	>"$T/runqlat.out" 2>&1 &
RQL_PID=$!
TOOLS+=("$RQL_PID")

# one switchstat for --blame and --hist runq under -p (the pair the issue
# asks about), one with -t: --hist runq -p misses waits of threads that are
# only ever woken (field case H28), -t does not
"$SWITCHSTAT" --no-counters --json -n 0 -i 1000 -p "$VICTIM" --blame \
	--hist runq -H >"$T/ss_p.out" 2>"$T/ss_p.err" &
SSP_PID=$!
TOOLS+=("$SSP_PID")
"$SWITCHSTAT" --no-counters --json -n 0 -i 1000 -t "$VICTIM" \
	--hist runq -H >"$T/ss_t.out" 2>"$T/ss_t.err" &
SST_PID=$!
TOOLS+=("$SST_PID")

wait_file "$T/runqlat.out" Tracing "$RQL_PID"
wait_file "$T/ss_p.err" Tracing "$SSP_PID"
wait_file "$T/ss_t.err" Tracing "$SST_PID"

# --- the window ------------------------------------------------------------
read -r ss0 < /proc/"$VICTIM"/schedstat
thaw
sleep "$DUR"
freeze
read -r ss1 < /proc/"$VICTIM"/schedstat

kill -INT "$SSP_PID" "$SST_PID" "$RQL_PID"
echo disable >&8
read -r -t 30 ack <&9
kill -INT "$PERF_PID"
for p in "$SSP_PID" "$SST_PID" "$RQL_PID"; do
	wait "$p" || echo "compare-runq: tracer $p exited $?" >&2
done
wait "$PERF_PID" # 130 after SIGINT
TOOLS=()
exec 8>&- 9>&-

"$PERF" sched latency -p -i "$T/perf.data" >"$T/latency.out" 2>"$T/latency.err" ||
	die "perf sched latency failed (see $T/latency.err)"
# the victim's events with ns times, to time each wait from sched_wakeup and
# from sched_waking (perf sched timehist takes the first of the two; it is
# not used here: with only the victim's switches recorded, its run and
# delay columns take the wrong previous switch)
"$PERF" script -i "$T/perf.data" --ns -F time,event,trace 2>/dev/null |
	grep -a -E "pid=$VICTIM( |\$)" >"$T/script.out"


python3 - "$T" "$VICTIM" "$ss0" "$ss1" "$DUR" "$NHOGS" "$CPU" <<'PY'
import json, re, sys

t, victim, ss0, ss1, dur, nhogs, cpu = sys.argv[1:]
oncpu0, rd0, pc0 = map(int, ss0.split())
oncpu1, rd1, pc1 = map(int, ss1.split())
run_delay, pcount, oncpu = rd1 - rd0, pc1 - pc0, oncpu1 - oncpu0


def slot(us):
    """switchstat's (and runqlat's) log2 bucket of a wait of us usecs"""
    return max(int(us), 1).bit_length() - 1


# perf sched latency: "sleeper:PID | runtime ms | switches | avg: X ms | ..."
lat = None
for line in open(f"{t}/latency.out", errors="replace"):
    m = re.match(r"\s*\S+:%s\s*\|\s*([\d.]+) ms\s*\|\s*(\d+)\s*\|\s*avg:\s*([\d.]+) ms" % victim, line)
    if m:
        lat = (float(m.group(1)), int(m.group(2)), float(m.group(3)))

# perf script: each wait from the first sched_wakeup (or sched_waking, or a
# preemption: switched out in state R) after a switch-out to the switch-in
waits = {"wakeup": [], "waking": []}
start = {"wakeup": None, "waking": None}
preempted_waits = 0
hidden = []
running = False
run_ns, run_from = 0, None
for line in open(f"{t}/script.out", errors="replace"):
    m = re.match(r"\s*(\d+)\.(\d{9}):\s+sched:(\w+):", line)
    if not m:
        continue
    ts = int(m.group(1)) * 10**9 + int(m.group(2))
    ev = m.group(3)
    if ev in ("sched_wakeup", "sched_waking", "sched_wakeup_new"):
        # a wakeup while it runs (before it blocked) starts no wait
        if not running and re.search(r"\bpid=%s\b" % victim, line):
            for k in ("waking",) if ev == "sched_waking" else ("wakeup",):
                if start[k] is None:
                    start[k] = ts
            if ev == "sched_wakeup_new" and start["waking"] is None:
                start["waking"] = ts
    elif ev == "sched_switch":
        prev = re.search(r"prev_pid=(\d+) .*prev_state=(\S+)", line)
        nxt = re.search(r"next_pid=(\d+)", line)
        if nxt and nxt.group(1) == victim:
            running = True
            run_from = ts
            for k in waits:
                if start[k] is not None:
                    waits[k].append(ts - start[k])
                start[k] = None
        if prev and prev.group(1) == victim:
            # switched out with no switch-in since its wakeup: the kernel
            # did not report that switch-in (a few a second are hidden
            # from every tracer here); its wait, to this switch-out (an
            # upper bound: its run is in it), is not in perf's figures
            if not running and start["wakeup"] is not None:
                hidden.append(ts - start["wakeup"])
            if running and run_from is not None:
                run_ns += ts - run_from
            running = False
            runnable = prev.group(2).startswith("R")
            for k in start:
                start[k] = ts if runnable else None
            preempted_waits += runnable


# switchstat NDJSON: blame records (delay_ns), hist records (low/high/count)
def ss(path):
    blame, hist, bad = 0, {}, 0
    for line in open(path, errors="replace"):
        if not line.startswith("{"):
            continue
        try:
            r = json.loads(line)
        except ValueError:
            bad += 1
            continue
        if r.get("type") == "blame" and str(r.get("victim_pid")) == victim:
            blame += r["delay_ns"]
        elif r.get("type") == "hist" and r.get("kind") == "runq":
            s = slot(r["low"]) if r["low"] else 0
            hist[s] = hist.get(s, 0) + int(r["count"])
    if bad:
        print(f"WARNING: {path}: {bad} lines are not JSON (garbled output)")
    return blame, hist


blame_p, hist_p = ss(f"{t}/ss_p.out")
_, hist_t = ss(f"{t}/ss_t.out")

# runqlat (bcc numbering, bpf_log2l = floor(log2) + 1): "lo -> hi : count"
rql = {}
for line in open(f"{t}/runqlat.out", errors="replace"):
    m = re.match(r"\s*(\d+) -> (\d+)\s*:\s*(\d+)", line)
    if m and int(m.group(3)):
        lo = int(m.group(1))
        s = slot(lo) if lo > 1 else 0
        rql[s] = rql.get(s, 0) + int(m.group(3))


def mid_ms(h):
    # slot s holds whole usecs [2^s, 2^(s+1) - 1] (slot 0: 0-1), that is
    # [2^s, 2^(s+1)) us of time: midpoint 1.5 x 2^s (slot 0: 1 us)
    return sum(c * (1.0 if s == 0 else 1.5 * (1 << s)) for s, c in h.items()) / 1000


def hist_of(ns_list):
    h = {}
    for ns in ns_list:
        s = slot(ns // 1000)
        h[s] = h.get(s, 0) + 1
    return h


ref_ns = sum(waits["wakeup"])
rows = []
if lat:
    rows.append(("perf sched latency: avg x switches", lat[1] * lat[2], lat[1], "sched_wakeup; avg printed to 1 us"))
for k in ("wakeup", "waking"):
    rows.append((f"perf script: from sched_{k}", sum(waits[k]) / 1e6, len(waits[k]), "ns, this script's own sum"))
rows.append(("perf: + waits whose switch-in it missed", (ref_ns + sum(hidden)) / 1e6, len(waits["wakeup"]) + len(hidden),
             f"{len(hidden)} waits to their switch-out"))
rows.append(("switchstat --blame -p", blame_p / 1e6, None, "exact, sched_wakeup"))
rows.append(("switchstat --hist runq -p", mid_ms(hist_p), sum(hist_p.values()), "log2 midpoints (H28: 0 if only woken)"))
rows.append(("switchstat --hist runq -t", mid_ms(hist_t), sum(hist_t.values()), "log2 midpoints"))
rows.append(("bcc runqlat -p", mid_ms(rql), sum(rql.values()),
             "log2 midpoints" if rql else "counted nothing: its headers are not this kernel's?"))
rows.append(("schedstat run_delay", run_delay / 1e6, pcount, "rq clock (sched_info)"))

# the reference: perf's total, avg x count (else this script's own sum)
ref = lat[1] * lat[2] if lat else sum(waits["wakeup"]) / 1e6
print(f"victim pid {victim}: sleeper 1000 us beside {nhogs} hogs on CPU {cpu}, {dur} s;"
      f" {preempted_waits} of its waits began with a preemption")
print(f"{'source':40} {'total(ms)':>10} {'waits':>6} {'mean(us)':>9} {'vs perf':>10}  timing")
for name, tot, n, how in rows:
    mean = f"{tot * 1000 / n:9.2f}" if n else f"{'-':>9}"
    nn = f"{n:6d}" if n is not None else f"{'-':>6}"
    rel = f"{(tot - ref) * 100 / ref:+9.2f}%" if ref else f"{'-':>10}"
    print(f"{name:40} {tot:10.3f} {nn} {mean} {rel}  {how}")
print()
n = len(waits["wakeup"]) or 1
allw = (ref_ns + sum(hidden)) / 1e6
print(f"on-CPU: schedstat {oncpu / 1e6:.3f} ms"
      + (f", perf sched latency runtime (sched_stat_runtime, the same clock) {lat[0]:.3f} ms" if lat else "")
      + f", perf's switch-in to switch-out {run_ns / 1e6:.3f} ms")
print(f"per wait: (perf + missed) - run_delay = {(allw * 1e6 - run_delay) / (n + len(hidden)) / 1000:.2f} us;"
      f" schedstat on-CPU - perf's run time = {(oncpu - run_ns) / n / 1000:.2f} us;"
      f" sched_waking - sched_wakeup = {(sum(waits['waking']) - ref_ns) / n / 1000:.2f} us")
print()
hw, hk = hist_of(waits["wakeup"]), hist_of(waits["waking"])
print(f"{'bucket(us)':>17} {'wakeup':>7} {'waking':>7} {'hist -t':>8} {'hist -p':>8} {'runqlat':>8}")
for s in sorted(set(hw) | set(hk) | set(hist_p) | set(hist_t) | set(rql)):
    lo, hi = (0, 1) if s == 0 else (1 << s, (1 << (s + 1)) - 1)
    print(f"{lo:7d} -> {hi:<7d} {hw.get(s, 0):7d} {hk.get(s, 0):7d} {hist_t.get(s, 0):8d}"
          f" {hist_p.get(s, 0):8d} {rql.get(s, 0):8d}")
PY

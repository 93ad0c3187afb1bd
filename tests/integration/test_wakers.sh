#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_wakers.sh - --wakers: who woke each task, against workloads whose
# wakers are known exactly (tests/workloads/wakepair: SCHED_FIFO at one
# priority on one CPU, so every write or FUTEX_WAKE finds its peer asleep
# and is one wakeup, and no other task wakes them).  Each workload stops
# itself when done; the tool is stopped while it is frozen.
#  1. pipe ping-pong between two processes, N round trips (JSON): A's
#     only waker is B, N times, and B's only waker is A, N times; the
#     off-CPU time each count ended (whole spans) is the victim's off-CPU
#     time in the --offcpu rows (S), within 2 %, plus up to its on-CPU
#     time (the rows' spans end where the kernel's clock starts its run).
#  2. futex handoff between two threads, -L (CSV): the same per thread.
#  3. a nanosleep loop, N sleeps: its only waker is the timer (no task
#     is charged with the interrupt's wakeups), for 98-100 % of the N: on
#     this VM 0.6-1 % of these wakeups run no sched_waking program (a
#     bpftrace count of the sched_waking tracepoint sees 1.6 % fewer
#     wakeups than S switch-outs too); the missing share is printed.
#  4. the exporter (--listen --metrics-per-process, scraped while the
#     ping-pong is frozen): switchstat_wakeups_total of A by B and of B
#     by A are N each, switchstat_wakeup_offcpu_seconds_total equal the
#     NDJSON records' offcpu_ns (to the exposition's digits); promtool
#     check metrics passes on it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
N=2000

# run NAME MODE ARGS...: wakepair MODE under switchstat --wakers ARGS
# (@WL: its pid), frozen past an interval edge; A and B its two tasks
run() {
	local name=$1 mode=$2
	shift 2
	GATED_EDGES=1 run_gated "$name" wakepair "$mode" $N @FIFO -- \
		-v --wakers --offcpu --no-counters -i 500 "$@"
	read -r A B _ <"$T/$name.wl"
	kill -KILL "$WL" 2>/dev/null
	[ "$mode" = pipe ] && kill -KILL "$B" 2>/dev/null # never kill 0
	wait "$WL" 2>/dev/null
}

# check NAME FORMAT KEY MODE: the wakers of A and B (KEY: victim_pid or
# victim_tid) against the workload's
check() {
	python3 - "$T/$1.out" "$T/$1.wl" "$2" "$3" "$4" <<'PY'
import csv, json, sys, collections
out, wl, fmt, key, mode = sys.argv[1:6]
a, b, n = map(int, open(wl).read().split())
recs, rows = [], []
if fmt == "json":
    for l in open(out, encoding="utf-8"):
        if l.startswith("{"):
            r = json.loads(l)
            (recs if r.get("type") == "waker" else rows).append(r)
else:  # one header for the rows, then after each interval's rows a
    # block: blank line, the waker header, its records
    row_hdr = hdr = None
    for line in open(out, encoding="latin-1").read().split("\n"):
        if not line:
            hdr = row_hdr
            continue
        f = next(csv.reader([line]))
        if row_hdr is None:
            row_hdr = hdr = f
            continue
        if "waker_kind" in f:
            hdr = f
            continue
        r = dict(zip(hdr, f))
        (recs if "waker_kind" in hdr else rows).append(r)
wid = "waker_tid" if key == "victim_tid" else "waker_pid"
got = collections.defaultdict(lambda: [0, 0])
for r in recs:
    v = int(r[key])
    if v not in (a, b):
        continue
    w = (r["waker_kind"], int(r[wid]) if r["waker_kind"] == "task" else None)
    got[(v, w)][0] += int(r["count"])
    got[(v, w)][1] += int(r["offcpu_ns"])
for k, (c, ns) in sorted(got.items(), key=str):
    print("  victim %d woken by %s: %d times, %.3f ms off-CPU" % (k[0], k[1], c, ns / 1e6))
if mode == "timer":
    # every waker the timer; its count is short of N by the few wakeups
    # the sched_waking program is not run for (see the note at the top)
    c = got.get((a, ("timer", None)), [0])[0]
    bad = set(got) != {(a, ("timer", None))} or not (0.98 * n <= c <= n)
    print("  timer wakeups %d of %d sleeps (%.2f %% not seen)%s" %
          (c, n, (n - c) / n * 100, "  <-- want all timer, 98-100 %" if bad else ""))
else:
    want = {(a, ("task", b)): n, (b, ("task", a)): n}
    bad = {k: v[0] for k, v in got.items()} != want
    if bad:
        print("  want exactly %s" % want)
# the off-CPU time they ended: the victim's S time in the rows
rk = "tid" if key == "victim_tid" else "pid"
for v in (a, b) if mode != "timer" else (a,):
    s = sum(int(r["offcpu_sleep_ns"] or 0) for r in rows if int(r[rk]) == v)
    on = sum(int(r["oncpu_ns"] or 0) for r in rows if int(r[rk]) == v)
    w = sum(ns for (vv, _), (c, ns) in got.items() if vv == v)
    err = (w - s) / s * 100 if s else float("inf")
    # the spans run to the switch-in; the rows' S ends where the kernel's
    # clock started the victim's run time: the wakeup latency it counts
    # as run time is in w, not in s, and is part of the victim's on-CPU
    lim = 2 if mode != "timer" else 2 + (n - c) / n * 100
    hi = lim + on / s * 100 if s else lim
    print("  victim %d: wakeups ended %.3f ms, its S time %.3f ms (%+.2f %%, want -%.2f..+%.2f: its on-CPU %.3f ms)"
          % (v, w / 1e6, s / 1e6, err, lim, hi, on / 1e6))
    bad |= not -lim <= err <= hi
sys.exit(1 if bad else 0)
PY
}

info "1. pipe ping-pong, $N round trips, JSON"
run p pipe --json
check p json victim_pid pipe || fail "pipe: the wakers are not exactly each other"

info "2. futex handoff between two threads, -L, CSV"
run f futex --csv -L -p @WL
check f csv victim_tid futex || fail "futex: the wakers are not exactly each other"

info "3. nanosleep loop: timer wakeups"
run t timer --json
check t json victim_pid timer || fail "timer: wakeups not all the timer's"

info "4. the exporter: wakeups by waker, ping-pong frozen"
if command -v promtool >/dev/null; then
	PORT=$(free_port)
	run m pipe --json --listen "$PORT" --metrics-per-process
	PORT=""
	check m json victim_pid pipe || fail "exporter run: the records are wrong"
	promtool check metrics <"$T/m.prom" >"$T/promtool.log" 2>&1 ||
		fail "promtool check metrics: $(head -5 "$T/promtool.log")"
	python3 - "$T/m.out" "$T/m.prom" "$T/m.wl" <<'PY' || fail "exporter: wakers differ from the workload's"
import json, sys
from prom_samples import samples
out, prom, wl = sys.argv[1:4]
a, b, n = map(int, open(wl).read().split())
rec = {}
for l in open(out, encoding="utf-8"):
    if l.startswith("{"):
        r = json.loads(l)
        if r.get("type") == "waker" and r["waker_kind"] == "task":
            k = (r["victim_pid"], r["waker_pid"])
            rec[k] = rec.get(k, 0) + r["offcpu_ns"]
got = {}
for name, lab, v in samples(prom, ("switchstat_wakeups_total",
                                   "switchstat_wakeup_offcpu_seconds_total")):
    if lab.get("waker_kind") != "task" or not lab.get("waker_pid"):
        continue
    k = (name, int(lab["pid"]), int(lab["waker_pid"]))
    got[k] = got.get(k, 0) + v
bad = 0
for v, w in ((a, b), (b, a)):
    c = got.get(("switchstat_wakeups_total", v, w), 0)
    s = got.get(("switchstat_wakeup_offcpu_seconds_total", v, w), 0) * 1e9
    r = rec.get((v, w), 0)
    ok = c == n and abs(s - r) <= 1e3
    bad += not ok
    print("  exporter: %d woken by %d %d times (workload %d), %.0f ns (records %d ns)%s"
          % (v, w, c, n, s, r, "" if ok else "  <-- differ"))
sys.exit(1 if bad else 0)
PY
else
	info "   skipped: no promtool (Debian package prometheus)"
fi

pass "wakers exactly the workloads' own"

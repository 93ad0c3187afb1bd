#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_hotplug.sh - a CPU going offline and coming back while tracing.
#
# The kernel turns a CPU's perf events off when it goes offline and leaves
# them off when it returns, and the slice in progress on it spans the
# offline time.  switchstat -L -e cpu-clock --check -v runs 1 s intervals
# while CPU 1 is taken offline for 3 s and brought back, then a spinner
# pinned to CPU 1 runs for 4 s, is frozen (SIGSTOP) and its schedstat read.
#  - no interval holds more than 101 % of CPUs x its length, but the one
#    after a hotplug event (below);
#  - closure: tasks + idle is at most 101 % of the CPU time online, and at
#    least 99 % less one checkpoint period (interval / 200) per slice
#    skipped for a missed switch (-v counts them; a missed switch loses its
#    slice up to the next checkpoint).  An interval with a hotplug event is
#    checked together with the one before and the one after: the dying
#    CPU's perf events (checkpoints) stop during its teardown, before it is
#    offline and the uevent says so, so its last slices can land in the
#    next interval, and a returning CPU's slices are split at no edge until
#    its checkpoint is reopened (tens of ms; more under load);
#  - no thread row over 101 % of one CPU in any interval;
#  - the spinner's on-CPU time is within 2 % of its schedstat, and its
#    cpu-clock counter, over its rows with a reading (n/a in an interval
#    where a slice began before the counter was reopened, never 0), within
#    1 % of their on-CPU time, or above it by up to CPU 1's steal over the
#    spinner's run more (cpu-clock counts stolen time, the rows' on-CPU
#    time on the kernel's task clock does not); those rows hold at least
#    half its on-CPU time (the counter was reopened on CPU 1);
#  - the interval checkpoints ran on every online CPU: their run count
#    (--self-stats) is at least 85 % of the CPU time online over the
#    checkpoint period (without a new event on CPU 1 it is near 65 %;
#    periods are lost while other BPF programs or map syscalls run);
#  - -v counted the two hotplug events;
#  - with --idle (H26): the idle rows are rows like any other, so none is
#    over 101 % of one CPU; swapper/1 is never over CPU 1's online time in
#    an interval (offline time is not idle: --check's "less ... offline" is
#    CPU 1's, the only CPU that goes offline); and in every interval CPU 1
#    was online throughout, swapper/1 is within 30 ms + 5 % of /proc/stat's cpu1
#    idle + iowait delta (sampled every 10 ms on CPU 0, interpolated at the
#    interval ends; 10 ms resolution).
# Then --trace: after CPU 1 went offline and came back, a sleeper pinned to
# CPU 1 must show up in the trace with cpu 1 (its per-CPU perf buffer was
# reopened; the old one stays off and CPU 1's events were lost).
# Then CPU 1 offline while the tool starts (its per-CPU events opened
# without it) and back before the hotplug listener runs: the spinner on
# CPU 1 has its cpu-clock (within 1 % of its on-CPU time, + CPU 1's steal
# above, never 0 or empty) and --check counts 2 CPUs, never over 101 %.
# CPU 1 is put back online on every exit path.  Skipped (77) when CPU 1
# cannot be taken offline here.
. "$(dirname "$0")/lib.sh"

need_root
hotplug_setup

# checks N: wait until the tool has printed N --check lines
checks() {
	local i
	wait_for "switchstat: $1 intervals (--check lines)" h_checks_ge "$1"
}
h_checks_ge() { [ "$(grep -c '^check:' "$T/h.err")" -ge "$1" ]; }

# CPU 1's idle (+ iowait) and irq time from /proc/stat (lib.sh)
cpu_stat_sampler 1 "$T/stat"
start_tool h -L -e cpu-clock --check -v --self-stats --csv --idle -i 1000
checks 1
cpu1_offline_for 3 # the offline time being tested
steal_begin 1 # the spinner's CPU
bg taskset -c 1 "$WORKLOADS/spinner" 0
SP=$BG_LAST
run_for_cpu 4000000000 "$SP" # the spinner's run: 4 s on CPU 1, however busy
freeze "$SP"
steal_end "the spinner's run"
sched=$(schedstat_sum "$SP")
stop_tool

python3 - "$T/h.out" "$T/h.err" "$SP" "$sched" "$T/stat" "$STEAL_NS" <<'PY' || fail "see above"
import bisect, csv, re, sys
out, err, sp, sched = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
stat = sys.argv[5]
steal = float(sys.argv[6]) # ns cpu-clock may exceed on-CPU time by
period_ms = 1000 / 200
ok = True
checks, verbose = [], []
for line in open(err, errors="replace"):
    m = re.match(r"check: .* = ([\d.]+) ms of .*\(([\d.]+)%\)", line)
    if m:
        checks.append(line.strip())
    if re.search(r"\d+ missed switch", line):
        verbose.append(line)
if len(checks) != len(verbose) or len(checks) < 8:
    print("FAIL: %d check lines, %d -v lines" % (len(checks), len(verbose)))
    sys.exit(1)
events = 0
online_ms = 0
ivs = []  # (got, want, cpus x length, missed, events) per interval
for c, v in zip(checks, verbose):
    m = re.search(r"= ([\d.]+) ms of (\d+) CPUs x ([\d.]+) ms less ([-\d.]+) ms offline", c)
    if m:
        got, cap = float(m.group(1)), int(m.group(2)) * float(m.group(3))
        want = cap - float(m.group(4))
    else:
        m = re.search(r"= ([\d.]+) ms of (\d+) CPUs x ([\d.]+) ms", c)
        got, cap = float(m.group(1)), int(m.group(2)) * float(m.group(3))
        want = cap
    # slices whose owner is unknown: a switch missed (regular path) or
    # not reported by the kernel (raw path)
    missed = int(re.search(r"(\d+) missed switch", v).group(1))
    u = re.search(r"(\d+) switches not reported", v)
    missed += int(u.group(1)) if u else 0
    h = re.search(r"CPU hotplug: (\d+) events", v)
    n = int(h.group(1)) if h else 0
    events += n
    online_ms += want
    ivs.append((got, want, cap, missed, n, c))
# the boundary of an interval misplaces at most one checkpoint period of
# each CPU's time: 1 % of a full interval here, more of a short last one
def over(got, cap, c):
    ncpus = int(re.search(r"of (\d+) CPUs", c).group(1))
    return got > max(1.01 * cap, cap + ncpus * period_ms)
k = 0
while k < len(ivs):
    got, want, cap, missed, n, c = ivs[k]
    if over(got, cap, c):
        print("FAIL: %.1f ms in an interval of %.1f ms CPU time: %s" % (got, cap, c))
        ok = False
    names = "interval %d" % k
    # an interval with a hotplug event is checked with the one before and
    # the one after: until the listener has reopened a CPU's checkpoint
    # event, no edge splits that CPU's slices, so the slice running across
    # the next edge is charged after it (docs/accuracy.md, CPU hotplug)
    if k + 1 < len(ivs) and ivs[k + 1][4] and not n:
        last = k + 1
        if k + 2 < len(ivs) and not ivs[k + 2][4]:
            last = k + 2
        for j in range(k + 1, last + 1):
            g2, w2, _, m2, _, _ = ivs[j]
            got, want, missed = got + g2, want + w2, missed + m2
        names = "intervals %d-%d" % (k, last)
        if over(ivs[k + 1][0], ivs[k + 1][2], ivs[k + 1][5]):
            print("FAIL: interval over its CPU time: %s" % ivs[k + 1][5])
            ok = False
        k = last
    pct = 100 * got / want
    ncpus = int(re.search(r"of (\d+) CPUs", c).group(1))
    high = max(101, 100 + 100 * ncpus * period_ms / want)
    # the same period either way, less the slices of missed switches
    low = min(99, 200 - high) - 100 * missed * period_ms / want
    good = low <= pct <= high
    ok &= good
    print("  %s %s: closure %.1f%% (allowed %.1f-%.1f%%, %d missed)" %
          ("ok  " if good else "FAIL", names, pct, low, high, missed))
    k += 1
for c in checks:
    print("    " + c)
rows = list(csv.DictReader(open(out, errors="surrogateescape")))
for r in rows:
    if float(r["cpu_pct"]) > 101:
        print("FAIL: thread %s (%s) at %s: %s%% of one CPU" %
              (r["tid"], r["comm"], r["time"], r["cpu_pct"]))
        ok = False
# idle rows (H26): never over CPU 1's online time; /proc/stat where it
# was online throughout
ts, idle = [], []
for line in open(stat):
    a, b, _ = line.split()
    ts.append(float(a)); idle.append(int(b))
def idle_at(t):
    i = bisect.bisect_left(ts, t)
    if i == 0 or i >= len(ts) or ts[i] - ts[i - 1] > 0.05:
        return None # CPU 1 offline around t, or no sample
    return idle[i - 1] + (idle[i] - idle[i - 1]) * (t - ts[i - 1]) / (ts[i] - ts[i - 1])
ends = sorted({r["time"] for r in rows}, key=float)
if len(ends) != len(ivs):
    print("FAIL: %d intervals in the CSV, %d check lines" % (len(ends), len(ivs)))
    ok = False
prev = None
for k, (t, iv) in enumerate(zip(ends, ivs)):
    got, want, cap, missed, n, c = iv
    length = float(re.search(r"CPUs x ([\d.]+) ms", c).group(1))
    off = re.search(r"less ([-\d.]+) ms offline", c)
    online1 = length - (float(off.group(1)) if off else 0)
    sw = sum(float(r["oncpu_ns"]) for r in rows
             if r["time"] == t and r["pid"] == "0" and r["comm"] == "swapper/1") / 1e6
    good = sw <= 1.01 * online1 + period_ms
    note = ""
    a = idle_at(prev) if prev is not None else None
    b = idle_at(float(t))
    if a is not None and b is not None and (not off or float(off.group(1)) == 0) and not n:
        st = (b - a) / 1e6
        near = abs(sw - st) <= 30 + 0.05 * st
        good &= near
        note = ", /proc/stat cpu1 idle %.1f ms%s" % (st, "" if near else " (> 30 ms + 5 % apart)")
    ok &= good
    print("  %s interval %d: swapper/1 %.1f ms, CPU 1 online %.1f ms%s" %
          ("ok  " if good else "FAIL", k, sw, online1, note))
    prev = float(t)
mine = [r for r in rows if r["tid"] == sp]
oncpu = sum(float(r["oncpu_ns"]) for r in mine)
# cpu-clock is n/a (empty) in an interval where it was off in a slice
# (CPU 1 back before its events were reopened), never 0: compared over
# the rows with a reading, which must hold most of the run
have = [r for r in mine if r["cpu_clock_ns"] not in ("", "0")]
zero = [r for r in mine if r["cpu_clock_ns"] == "0"]
on_h = sum(float(r["oncpu_ns"]) for r in have)
clock = sum(float(r["cpu_clock_ns"]) for r in have)
err_s = abs(oncpu - sched) / sched * 100 if sched else 100
err_c = abs(clock - on_h) / on_h * 100 if on_h else 100
# beyond the steal allowance where cpu-clock is the higher
err_x = (max(0, clock - on_h - steal) if clock > on_h else on_h - clock) / on_h * 100 if on_h else 100
print("  spinner: on-CPU %.1f ms, schedstat %.1f ms (%.2f%%, limit 2%%); "
      "rows with cpu-clock: on-CPU %.1f ms (want >= 50%%), cpu-clock %.1f ms "
      "(%.2f%% of on-CPU, limit 1%% + %.1f ms steal above); rows reading 0: %d" %
      (oncpu / 1e6, sched / 1e6, err_s, on_h / 1e6, clock / 1e6, err_c, steal / 1e6, len(zero)))
ok &= err_s <= 2 and err_x <= 1 and on_h >= 0.5 * oncpu and not zero
runs = [int(l.split()[1]) for l in open(err, errors="replace")
        if l.startswith("ss_checkpoint ")]
want_runs = online_ms / period_ms
print("  checkpoints: %s runs for %.0f ms of CPU time online (%.0f periods)" %
      (runs, online_ms, want_runs))
ok &= len(runs) == 1 and runs[0] >= 0.85 * want_runs
print("  CPU hotplug events counted by -v: %d (want 2)" % events)
ok &= events == 2
sys.exit(0 if ok else 1)
PY

# --- CPU 1 offline while the tool opens its per-CPU events (-e counters,
# checkpoints) and back before the hotplug listener runs: every event is
# opened on it once the listener starts, and --check counts it
echo 0 >"$ONLINE" || fail "cannot take CPU 1 offline"
cpu1_is 0
launch s -L -e cpu-clock --check -v --csv -i 500
S=$LAUNCHED
# the counters were opened without CPU 1
cpu1_skipped() {
	grep -q "cpu-clock: CPU 1 skipped (offline)" "$T/s.err" && return 0
	kill -0 "$S" 2>/dev/null || { cat "$T/s.err" >&2; fail "startup case: tool exited"; }
	return 1
}
wait_for "startup case: 'CPU 1 skipped (offline)' from -v" cpu1_skipped
echo 1 >"$ONLINE" || fail "cannot bring CPU 1 back online"
cpu1_is 1
await s "$S"
steal_begin 1 # the spinner's CPU
bg taskset -c 1 "$WORKLOADS/spinner" 0
SP2=$BG_LAST
n0=$(grep -c '^check:' "$T/s.err")
checks_ge() { [ "$(grep -c '^check:' "$T/s.err")" -ge "$1" ]; }
wait_for "startup case: 4 intervals with the spinner" checks_ge $((n0 + 4))
freeze "$SP2"
steal_end "startup case: the spinner's run"
kill -INT "$S"
reap "$S" s
python3 - "$T/s.out" "$T/s.err" "$SP2" "$(nproc)" "$STEAL_NS" <<'PY' || fail "startup case: see above"
import csv, re, sys
out, err, sp, ncpus = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
steal = float(sys.argv[5]) # ns cpu-clock may exceed on-CPU time by
ok = True
checks = [l.strip() for l in open(err, encoding="latin-1") if l.startswith("check:")]
for c in checks:
    m = re.search(r"= ([\d.]+) ms of (\d+) CPUs x ([\d.]+) ms.*\(([\d.]+)%\)", c)
    # the final, partial interval (Ctrl-C) is shorter than a checkpoint
    # period's share allows for 1 %: its CPU count is still checked
    full = m and float(m.group(3)) >= 450
    # the upper bound is for what was accounted: tasks, filtered and idle
    # (a missed slice's time is an estimate from the slice's bounds)
    mm = re.search(r"\+ missed ([\d.]+) ms", c)
    acc = float(m.group(4)) - (100 * float(mm.group(1)) / (ncpus * float(m.group(3))) if mm and m else 0)
    good = m and int(m.group(2)) == ncpus and (not full or acc <= 101)
    ok &= bool(good)
    print("  %s %s%s" % ("ok  " if good else "FAIL", c, "" if full else " (partial interval: % not judged)"))
if len(checks) < 4:
    print("FAIL: %d check lines" % len(checks))
    ok = False
mine = [r for r in csv.DictReader(open(out, encoding="latin-1", newline=""))
        if r["tid"] == sp]
# a missing reading is empty, never 0: every row of the spinner has one
na = [r["time"] for r in mine if r["cpu_clock_ns"] in ("", "0")]
oncpu = sum(float(r["oncpu_ns"]) for r in mine)
clock = sum(float(r["cpu_clock_ns"] or 0) for r in mine)
err_c = abs(clock - oncpu) / oncpu * 100 if oncpu else 100
# beyond the steal allowance where cpu-clock is the higher
err_x = (max(0, clock - oncpu - steal) if clock > oncpu else oncpu - clock) / oncpu * 100 if oncpu else 100
print("  spinner on CPU 1: on-CPU %.1f ms, cpu-clock %.1f ms (%.2f%%, limit 1%% + %.1f ms "
      "steal above), %d rows without a reading" % (oncpu / 1e6, clock / 1e6, err_c, steal / 1e6, len(na)))
ok &= err_x <= 1 and not na and oncpu > 0
sys.exit(0 if ok else 1)
PY
grep -q "CPU 1 came back online" "$T/s.err" || fail "startup case: -v did not report CPU 1 coming back"

# --trace: CPU 1's perf buffer is reopened
start_tool t --trace --csv -v -d 60 # not a window: 60 s is a hang cap; stop_tool ends the run
cpu1_offline_for 0.5 # offline for a moment
bg taskset -c 1 "$WORKLOADS/sleeper" 1000
SL=$BG_LAST
# traced_on_cpu1: trace lines of the sleeper leaving CPU 1 (fields 3 and 4,
# cpu and prev_pid, come before any name, so no quoting can shift them)
traced_on_cpu1() {
	awk -F, -v p="$SL" '$3 == 1 && $4 == p { n++ } END { print n + 0 }' "$T/t.out"
}
traced_ge() { [ "$(traced_on_cpu1)" -ge "$1" ]; }
wait_for "trace: 200 switches of the sleeper on CPU 1" traced_ge 200
freeze "$SL"
stop_tool
n=$(traced_on_cpu1)
info "trace: $n switches of the sleeper on CPU 1 after it came back"
[ "$n" -ge 200 ] || fail "trace: only $n switches on CPU 1 after it came back online"
grep -q "CPU 1 came back online" "$T/t.err" || fail "trace: -v did not report CPU 1 coming back"
pass "CPU hotplug: events reopened, no slice spans the offline time"


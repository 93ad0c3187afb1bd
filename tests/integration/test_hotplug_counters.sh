#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_hotplug_counters.sh - -e counters after CPU 1 goes offline and
# comes back, by every way the kernel takes it down (H36).
#
# The kernel turns a CPU's perf events off when it goes offline and never
# on again.  switchstat -L -e cpu-clock --idle --csv runs 500 ms intervals
# while CPU 1 goes down and up, then a spinner pinned to CPU 1 starts at
# once (before any uevent can have been handled), runs 2 s, is frozen
# (SIGSTOP) and its schedstat read.  Each way, in turn:
#  - online: cpu1/online 0 for 1 s, then 1 (uevents sent);
#  - target: cpu1/hotplug/target offline then back to its state, with no
#    pause (no uevent is sent, and the online mask is back before anyone
#    can poll it); skipped where the kernel has no writable target file
#    (CONFIG_CPU_HOTPLUG_STATE_CONTROL).
# Each way:
#  - no row of the spinner reads 0 cpu-clock: a reading is a count or n/a
#    (empty: the counter was off in one of its slices);
#  - the rows with a reading: cpu-clock within 1 % of their on-CPU time,
#    or above it by up to CPU 1's steal over the run more (cpu-clock
#    counts stolen time, on-CPU time on the kernel's task clock not);
#  - those rows hold at least half of the spinner's on-CPU time (the
#    counter counts again: n/a only until it was reopened);
#  - the spinner's on-CPU time is within 2 % of its schedstat (the
#    interval checkpoints on CPU 1 were reopened too);
#  - -M's faults (per-CPU perf events too): a process pinned to CPU 1
#    then touches 2000 fresh pages; its rows' faults are n/a in some
#    interval, or sum to at least 2000 and at most its minflt + majflt.
# Broken once (the host's reopening off): the target way reads 0 ms of
# cpu-clock, and the online way's rows are n/a throughout.
# CPU 1 is put back online on every exit path.  Skipped (77) when CPU 1
# cannot be taken offline here.
. "$(dirname "$0")/lib.sh"

need_root
hotplug_setup
TARGET=/sys/devices/system/cpu/cpu1/hotplug/target
STATE=/sys/devices/system/cpu/cpu1/hotplug/state
trap 'echo 1 >"$ONLINE" 2>/dev/null; [ -n "${UP_STATE:-}" ] && echo "$UP_STATE" >"$TARGET" 2>/dev/null; cleanup' EXIT

# run WAY: the tool, CPU 1 down and up that way, the spinner; checks
run() {
	local way=$1 sp sched tp flt
	start_tool "$way" -L -e cpu-clock -M --idle --csv -v -i 500
	sleep 0.6 # not a window: an interval before the hotplug (no count is judged on it)
	case "$way" in
	online)
		cpu1_offline_for 1
		;;
	target)
		echo 0 >"$TARGET" && echo "$UP_STATE" >"$TARGET" ||
			fail "cannot move CPU 1 through hotplug/target"
		[ "$(cat "$STATE")" = "$UP_STATE" ] || fail "CPU 1 not back at state $UP_STATE"
		;;
	esac
	steal_begin 1 # the spinner's CPU
	bg taskset -c 1 "$WORKLOADS/spinner" 0
	sp=$BG_LAST
	sleep 2 # not a window: workload time; the spinner is frozen before its oracle is read
	freeze "$sp"
	steal_end "$way: the spinner's run"
	sched=$(schedstat_sum "$sp")
	bg taskset -c 1 "$WORKLOADS/touchpages" 2000 "$T/$way.tp" "$T/$way.tpdone"
	tp=$BG_LAST
	wait_file "$T/$way.tp"
	kill -USR1 "$tp"
	wait_file "$T/$way.tpdone"
	flt=$(sed 's/.*) //' /proc/"$tp"/stat | awk '{ print $8 + $10 }')
	stop_tool
	python3 - "$T/$way.out" "$sp" "$sched" "$STEAL_NS" "$way" "$tp" "$flt" <<'PY' || fail "$way: see above"
import csv, sys
out, sp, sched, steal, way = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
tp, flt = sys.argv[6], int(sys.argv[7])
ok = True
rows = [r for r in csv.DictReader(open(out, errors="surrogateescape")) if r["tid"] == sp]
oncpu = sum(float(r["oncpu_ns"]) for r in rows)
zero = [r["time"] for r in rows if r["cpu_clock_ns"] == "0" and float(r["oncpu_ns"]) > 0]
have = [r for r in rows if r["cpu_clock_ns"] != ""]
on_h = sum(float(r["oncpu_ns"]) for r in have)
clock = sum(float(r["cpu_clock_ns"]) for r in have)
for r in rows:
    print("    %s: on-CPU %.1f ms, cpu-clock %s" % (r["time"], float(r["oncpu_ns"]) / 1e6,
          "n/a" if r["cpu_clock_ns"] == "" else "%.1f ms" % (float(r["cpu_clock_ns"]) / 1e6)))
# beyond the steal allowance where cpu-clock is the higher
err_x = ((max(0, clock - on_h - steal) if clock > on_h else on_h - clock) / on_h * 100
         if on_h else 100)
err_s = abs(oncpu - sched) / sched * 100 if sched else 100
print("  %s: spinner on-CPU %.1f ms, schedstat %.1f ms (%.2f%%, limit 2%%); rows with a "
      "reading: on-CPU %.1f ms (%.0f%%, want >= 50%%), cpu-clock %.1f ms (%.2f%% beyond "
      "%.1f ms steal, limit 1%%); rows reading 0: %d" %
      (way, oncpu / 1e6, sched / 1e6, err_s, on_h / 1e6, 100 * on_h / oncpu if oncpu else 0,
       clock / 1e6, err_x, steal / 1e6, len(zero)))
ok = not zero and err_x <= 1 and oncpu > 0 and on_h >= 0.5 * oncpu and err_s <= 2
trows = [r for r in csv.DictReader(open(out, errors="surrogateescape")) if r["tid"] == tp]
na = sum(r["faults"] == "" for r in trows)
got = sum(int(r["faults"]) for r in trows if r["faults"] != "")
good = trows and (na or 2000 <= got <= flt)
print("  %s: touchpages on CPU 1: faults %d in %d rows, %d rows n/a; the kernel's minflt + majflt %d "
      "(want n/a, or 2000 to %d)" % (way, got, len(trows), na, flt, flt))
ok &= bool(good)
sys.exit(0 if ok else 1)
PY
}

run online
if [ -w "$TARGET" ] && UP_STATE=$(cat "$STATE") && echo "$UP_STATE" >"$TARGET" 2>/dev/null; then
	run target
else
	info "target: skipped ($TARGET not writable: CONFIG_CPU_HOTPLUG_STATE_CONTROL)"
fi
pass "CPU hotplug: -e counters count again after a CPU comes back, or read n/a, never 0"

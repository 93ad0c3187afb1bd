#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# -e as perf spells events: perf's PMU syntax pmu/event/ (encoded from
# /sys/bus/event_source/devices), modifiers, and libpfm4's names.
#  - software/cpu-clock/ is cpu-clock (asking for both is a duplicate):
#    two spinners sharing CPU 0 get it within 2 % of their on-CPU ns;
#  - msr/tsc/ (the msr PMU: a counter that is not a software event, present
#    on x86 VMs without a PMU) divided by on-CPU ns is the TSC rate that
#    perf stat -a -e msr/tsc/ measures, within 2 %, for each spinner;
#    both counters may be higher by CPU 0's steal over the run (they tick
#    through stolen time, the rows' on-CPU time on the kernel's task clock
#    does not);
#  - CSV keys: a pmu/event/ the table knows takes its name (cpu_clock_ns);
#    others are derived from the spelling (msr_tsc);
#  - bad PMU syntax and unknown names exit 2 with one message naming what
#    is missing; a libpfm4 vendor name on a machine without that PMU
#    exits 1 ("hardware counters unavailable"), as a table name does;
#  - --list-events lists the sysfs PMUs and libpfm4's detected ones; an
#    event with unit masks and no default one is listed with "(needs a
#    unit mask: :A :B ...)": alone it exits 2, with the first named it
#    encodes (exit 1 without a PMU).
. "$(dirname "$0")/lib.sh"
need_root

[ -r /sys/bus/event_source/devices/software/type ] ||
	skip "no software PMU in sysfs"

# not a window: bad input: exit code and message only
expect_exit 2 'no PMU named "nosuchpmu"' -e nosuchpmu/cycles/ -d 1
expect_exit 2 'PMU software has no event "bogus"' -e software/bogus/ -d 1
expect_exit 2 'has no term .bogus.' -e software/bogus=1/ -d 1
expect_exit 2 'bad modifier "z"' -e software/cpu-clock/z -d 1
expect_exit 2 'unknown event "NO_SUCH_EVENT_ANYWHERE"' -e NO_SUCH_EVENT_ANYWHERE -d 1
expect_exit 2 'duplicate event' -e cpu-clock,software/cpu-clock/ -d 1

"$SWITCHSTAT" --list-events >"$T/list.out" 2>"$T/list.err" ||
	{ cat "$T/list.err" >&2; fail "--list-events: exit $?"; }
grep -q '^  software/' "$T/list.out" || fail "--list-events: no software PMU"
grep -q '^  cycles ' "$T/list.out" || fail "--list-events: no built-in names"
grep -q '^libpfm4' "$T/list.out" || fail "--list-events: no libpfm4 section"
info "--list-events: $(wc -l <"$T/list.out") lines"

# a vendor event through libpfm4: encoded, then no PMU here (exit 1), or
# counted where the machine has one
# counted where the machine has one: the first listed that encodes as it
# stands, and the first that needs a unit mask, with the first it names
# (alone, the list says it needs one, and libpfm4 refuses it)
pfm_event=$(awk '/^libpfm4/ { on = 1; next }
	on && /^    / && $1 !~ /^perf/ && !/needs a unit mask/ { print $1; exit }' "$T/list.out")
pfm_needy=$(awk '/^libpfm4/ { on = 1; next }
	on && /^    / && $1 !~ /^perf/ && /needs a unit mask: :/ {
		sub(/.*needs a unit mask: /, ""); print $0; exit }' "$T/list.out" | awk '{ print $1 }')
pfm_needy_name=$(awk '/^libpfm4/ { on = 1; next }
	on && /^    / && $1 !~ /^perf/ && /needs a unit mask: :/ { print $1; exit }' "$T/list.out")
if ! ls /sys/bus/event_source/devices/ |
	grep -qE '^(cpu|cpu_core|cpu_atom|armv.*)$'; then
	# not a window: exit code and message only
	[ -z "$pfm_event" ] ||
		expect_exit 1 "cannot count \"$pfm_event\": hardware counters unavailable" \
			-e "$pfm_event" -d 1
	if [ -n "$pfm_needy_name" ]; then
		expect_exit 2 "missing unit mask" -e "$pfm_needy_name" -d 1 # not a window: bad input: exit code and message only
		# not a window: exit code and message only
		expect_exit 1 "hardware counters unavailable" \
			-e "$pfm_needy_name$pfm_needy" -d 1
	fi
fi

bg taskset -c 0 "$WORKLOADS/spinner" 0 evspinA
SPIN_A=$BG_LAST
bg taskset -c 0 "$WORKLOADS/spinner" 0 evspinB
SPIN_B=$BG_LAST
events=software/cpu-clock/
tsc=0
if [ -r /sys/bus/event_source/devices/msr/events/tsc ] &&
	perf stat -a -x, -e msr/tsc/ true >/dev/null 2>&1; then
	events=$events,msr/tsc/
	tsc=1
fi
steal_begin 0 # the spinners' CPU
thaw "$SPIN_A" "$SPIN_B"
start_tool ev --csv -n 0 -i 1000 -e "$events"
run_for_cpu 200000000 "$SPIN_A" "$SPIN_B"
freeze "$SPIN_A" "$SPIN_B"
steal_end "the spinners' run"
stop_tool
head -1 "$T/ev.out" | grep -q ',cpu_clock_ns,' ||
	fail "CSV header: $(head -1 "$T/ev.out")"
for p in "$SPIN_A" "$SPIN_B"; do
	oncpu=$(csv_sum "$T/ev.out" oncpu_ns pid "$p")
	a=$(csv_sum "$T/ev.out" cpu_clock_ns pid "$p")
	# the tool's figure: at least half the 200 ms run_for_cpu waited for
	# (the slice running at the attach may be skipped), or its rows
	# missed the spinner
	[ "$oncpu" -ge 100000000 ] ||
		fail "spinner $p: $oncpu ns on CPU in its rows, under half the 200 ms run_for_cpu waited for"
	check_within "spinner $p software/cpu-clock/ vs oncpu_ns" "$a" "$oncpu" 2 "$STEAL_NS"
done
if [ "$tsc" = 1 ]; then
	# the TSC rate from perf: all CPUs over a measured wall time
	perf stat -a -x, -e msr/tsc/ -o "$T/perf.csv" sleep 1 2>/dev/null
	rate=$(python3 - "$T/perf.csv" "$(nproc)" <<'PY'
import sys
n = int(sys.argv[2])
for line in open(sys.argv[1]):
    f = line.strip().split(",")
    if len(f) > 4 and "msr/tsc/" in f[2]:
        # value, unit, event, run time (ns), ...: per CPU per ns
        print("%.6f" % (float(f[0]) / n / float(f[3]) * n))
        break
PY
)
	[ -n "$rate" ] || fail "perf stat -e msr/tsc/ gave no rate: $(cat "$T/perf.csv")"
	info "perf: TSC $rate ticks per ns"
	for p in "$SPIN_A" "$SPIN_B"; do
		oncpu=$(csv_sum "$T/ev.out" oncpu_ns pid "$p")
		t=$(csv_sum "$T/ev.out" msr_tsc pid "$p")
		want=$(python3 -c "print(int($oncpu * $rate))")
		# the TSC runs on through stolen time: up to steal x rate more
		check_within "spinner $p msr/tsc/ vs oncpu_ns x TSC rate" "$t" "$want" 2 \
			"$(python3 -c "print(int($STEAL_NS * $rate))")"
	done
else
	info "no msr/tsc/ PMU event here: TSC check skipped"
fi
pass "event syntax: pmu/event/, modifiers, libpfm4 names, --list-events"

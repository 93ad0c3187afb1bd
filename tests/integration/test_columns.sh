#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Counter columns that tell the truth, and a table that fits its terminal.
#  - without a PMU (this VM) the default run's table has no counter column
#    (no CYCLES ... IPC, MPKI, no n/a anywhere) and stderr has exactly one
#    line saying why; --trace lines have no counter columns either (97
#    characters, not 130);
#  - time events are shown in ms with the unit in the header: two spinners
#    sharing CPU 0, -e cpu-clock,page-faults,task-clock -M: CPU-CLK(ms) and
#    TASK-CLK(ms) within 2 % of ONCPU(ms) of the same rows, or above it by
#    up to CPU 0's steal over the run more (perf's time events count
#    stolen time, ONCPU on the kernel's task clock does not; were the
#    values ns they would be 10^6 times more), every header distinct
#    (PG-FAULTS beside -M's FAULTS);
#  - the same wide table (146 characters) with COLUMNS=80 (a pipe), and in
#    a pseudo-terminal of 70 columns (TIOCGWINSZ, COLUMNS unset): no line
#    is wider, PID COMM VOL INVOL ONCPU(ms) stay, one stderr line names
#    the columns left out; without COLUMNS, through a pipe, nothing is cut.
. "$(dirname "$0")/lib.sh"
need_root

has_pmu() {
	ls /sys/bus/event_source/devices/ |
		grep -qE '^(cpu|cpu_core|cpu_atom|armv.*|arm_pmu.*)$'
}

# widest TABLE-FILE: the longest line of a table's header and rows
widest() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"; }

if has_pmu; then
	info "this machine has a PMU: the no-PMU checks do not apply"
else
	# not a window: -d 1 is for the table's shape only; any task's switch
	# is a row (no count is judged)
	env -u COLUMNS "$SWITCHSTAT" -i 500 -d 1 -n 0 >"$T/na.out" 2>"$T/na.err" ||
		{ cat "$T/na.err" >&2; fail "default run: exit $?"; }
	[ "$(grep -vc '^$' "$T/na.err")" -eq 1 ] ||
		{ cat "$T/na.err" >&2; fail "want exactly one stderr line"; }
	grep -q '^switchstat: hardware counters unavailable: cycles: .*the table leaves out the counter columns' "$T/na.err" ||
		fail "the line must say why: $(cat "$T/na.err")"
	python3 - "$T/na.out" <<'PY' || fail "table without a PMU"
import sys
head, rows = None, 0
for line in open(sys.argv[1], encoding="latin-1"):
    f = line.split()
    if f and f[0] == "PID":
        head = f
        assert head == ["PID", "COMM", "SWITCH", "VOL", "INVOL", "ONCPU(ms)", "%CPU"], head
    elif head and f and f[0].isdigit():
        rows += 1
        assert "n/a" not in line, "n/a in: %s" % line.strip()
assert rows, "no rows"
print("  no PMU: %d rows, header %s" % (rows, " ".join(head)))
PY
	# traced until it has printed 10 lines (a banner, a header, 8
	# switches; flushed every 0.1 s), however slowly this host switches
	# (SS_HANG_S is a hang), then ended by SIGINT
	trace_lines_gt() { [ "$(wc -l <"$T/tr.out")" -gt "$1" ]; }
	env -u COLUMNS "$SWITCHSTAT" --trace >"$T/tr.out" 2>"$T/tr.err" &
	TR=$!
	BG_PIDS+=("$TR")
	await tr "$TR"
	wait_for "--trace: 10 lines" trace_lines_gt 10
	kill -INT "$TR"
	reap "$TR" tr
	[ "$(grep -vc '^switchstat: .* events traced' "$T/tr.err")" -eq 1 ] ||
		{ cat "$T/tr.err" >&2; fail "--trace: want one warning line"; }
	sed -n 2p "$T/tr.out" | grep -q ' SLICE(us)$' ||
		fail "--trace header: $(sed -n 2p "$T/tr.out")"
	n=$(wc -l <"$T/tr.out")
	[ "$n" -gt 10 ] || fail "--trace: only $n lines"
	# comms are at most 15 of their 16 columns: 97 wide
	w=$(widest "$T/tr.out")
	[ "$w" -le 97 ] || fail "--trace lines $w wide: $(awk 'length($0) > 97' "$T/tr.out" | head -2)"
	grep -q 'n/a' "$T/tr.out" && fail "--trace: n/a in a line"
	info "--trace: $n lines, at most $w wide, no counter columns"
fi

bg taskset -c 0 "$WORKLOADS/spinner" 0 colspinA
SPIN_A=$BG_LAST
bg taskset -c 0 "$WORKLOADS/spinner" 0 colspinB
SPIN_B=$BG_LAST
EV=(-e cpu-clock,page-faults,task-clock -M -n 0 -i 500)

# the wide run's window: until each spinner has run 300 ms on CPU 0
# (schedstat; 600 ms together, the 2 % below is 12 ms), however slowly
# or throttled (SS_HANG_S is a hang); frozen outside it; COLUMNS unset:
# no limit
freeze "$SPIN_A" "$SPIN_B"
unset COLUMNS
start_tool wide "${EV[@]}"
steal_begin 0 # the spinners' CPU
thaw "$SPIN_A" "$SPIN_B"
run_for_cpu 300000000 "$SPIN_A" "$SPIN_B"
freeze "$SPIN_A" "$SPIN_B"
steal_end "wide run"
stop_tool
thaw "$SPIN_A" "$SPIN_B"
python3 - "$T/wide.out" "$STEAL_NS" "$SPIN_A" "$SPIN_B" <<'PY' || fail "time events in ms"
import sys
steal = int(sys.argv[2]) / 1e6 # ms the time events may exceed ONCPU by
want = ["PID", "COMM", "SWITCH", "VOL", "INVOL", "ONCPU(ms)", "%CPU",
        "CPU-CLK(ms)", "PG-FAULTS", "TASK-CLK(ms)", "FAULTS", "PGALLOC", "RECLAIM(ms)"]
head, on, clk, task = None, 0.0, 0.0, 0.0
for line in open(sys.argv[1], encoding="latin-1"):
    f = line.split()
    if f and f[0] == "PID":
        head = f
        assert head == want, head
        assert len(set(head)) == len(head), "headers not unique: %s" % head
    elif head and len(f) == len(head) and f[0] in sys.argv[3:]:
        r = dict(zip(head, f))
        on += float(r["ONCPU(ms)"])
        clk += float(r["CPU-CLK(ms)"])
        task += float(r["TASK-CLK(ms)"])
assert on > 500, "spinners only %.1f ms on CPU (600 ms by schedstat)" % on
for name, v in (("CPU-CLK(ms)", clk), ("TASK-CLK(ms)", task)):
    assert -0.02 * on <= v - on <= 0.02 * on + steal, \
        "%s %.2f vs ONCPU(ms) %.2f (limit 2%% + %.3f ms steal above)" % (name, v, on, steal)
print("  spinners: ONCPU %.2f ms, CPU-CLK %.2f ms, TASK-CLK %.2f ms "
      "(limit 2%% + %.3f ms steal above)" % (on, clk, task, steal))
PY
w=$(widest "$T/wide.out")
[ "$w" -gt 100 ] || fail "the wide table is only $w wide: nothing to fit"
grep -q 'leaves out' "$T/wide.err" && fail "no COLUMNS, a pipe: nothing may be left out: $(cat "$T/wide.err")"
info "no limit: $w wide"

# fit_check FILE ERR WIDTH: lines within WIDTH, the key columns there, the
# note once
fit_check() {
	local w
	w=$(widest "$1")
	[ "$w" -le "$3" ] || fail "COLUMNS $3: lines $w wide: $(head -3 "$1")"
	grep -E '^PID +COMM +VOL +INVOL +ONCPU\(ms\)' "$1" >/dev/null ||
		fail "COLUMNS $3: key columns missing: $(sed -n 3p "$1")"
	[ "$(grep -c "^switchstat: $3 columns: the table leaves out " "$2")" -eq 1 ] ||
		fail "COLUMNS $3: want one note: $(cat "$2")"
	grep -qE '^[0-9]+ ' "$1" || fail "COLUMNS $3: no rows"
	info "$3 columns: at most $w wide; $(sed -n 's/.*leaves out \(.*\) (a wider.*/\1/p' "$2")"
}
# not a window: -d 1 is for the table's width only (rows of any task:
# the spinners sharing CPU 0 are preempted at every tick); no count is
# judged
COLUMNS=80 "$SWITCHSTAT" "${EV[@]}" -d 1 >"$T/c80.out" 2>"$T/c80.err" ||
	{ cat "$T/c80.err" >&2; fail "COLUMNS=80: exit $?"; }
fit_check "$T/c80.out" "$T/c80.err" 80

# a terminal: its own width (TIOCGWINSZ), not $COLUMNS
# not a window: the width only, as above
env -u COLUMNS script -qec "stty cols 70 rows 50; $SWITCHSTAT ${EV[*]} -d 1 2>$T/tty.err" \
	/dev/null >"$T/tty.raw" </dev/null || fail "in a pty: exit $?"
tr -d '\r' <"$T/tty.raw" >"$T/tty.out"
fit_check "$T/tty.out" "$T/tty.err" 70
freeze "$SPIN_A" "$SPIN_B"
pass "counter columns left out without a PMU, time events in ms, the table fits its terminal"

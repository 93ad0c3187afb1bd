#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_trace.sh - --trace at a pipe ping-pong's switch rate (100k+/s) is
# honest: every switch of ping and pong between two SIGSTOPs is either a
# line or counted as lost (perf buffer full, "Lost N events on CPU M") or
# missed (kernel skipped the probe) - never silently dropped.  Checked
# against the kernel's voluntary/nonvoluntary_ctxt_switches deltas, per
# kind (so the state decoding is checked too), exactly when nothing was
# lost; the slices' sum against perf's task-clock of the same window
# (within 1% + 1.5 G per switch above, 1% + 0.5 G below, G this host's
# gap between the two kernel clocks per switch measured on the same
# threads in the same window: schedstat against task-clock).  Also: the
# table has its header and decodes states, -p keeps only the process's
# own switch-outs, and --trace rejects interval-only options (exit 2).
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/pingpong" ] || skip "workload pingpong not built"

# --- bad input: one message, exit 2, before any BPF work ----------------
for opt in "--hist oncpu" "-G" "-M" "--idle" "--check"; do
	rc=0
	# shellcheck disable=SC2086
	"$SWITCHSTAT" --trace $opt -d 1 >"$T/bad.out" 2>"$T/bad.err" || rc=$? # not a window: bad input: exit code and message only
	[ "$rc" -eq 2 ] || fail "--trace $opt: exit $rc, want 2"
	grep -q "does not apply" "$T/bad.err" || fail "--trace $opt: message: $(cat "$T/bad.err")"
done
info "--trace with interval-only options: exit 2"

state_of() { sed 's/.*) //' /proc/"$1"/stat | cut -d' ' -f1; }
stop_wait() {
	kill -STOP "$@"
	for p in "$@"; do
		wait_for "pid $p stopped" stopped_state "$p"
	done
}
stopped_state() { [ "$(state_of "$1")" = T ]; }
field() { awk -v f="$2:" '$1 == f { print $2 }' /proc/"$1"/status; }
oncpu() { awk '{ print $1 }' /proc/"$1"/schedstat; }
# all context switches of the machine so far (sum of nr_switches)
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }


"$WORKLOADS/pingpong" "$T/pp.pids" &
BG_PIDS+=("$!")
wait_file "$T/pp.pids"
read -r PING PONG <"$T/pp.pids"
bg_badcomm # its switches (comm not UTF-8) are in the CSV too

# Tracers of the same window: "tr" reads freely; "stall" is stopped
# mid-run until its buffers (4 MiB per CPU: ~40k records without counters)
# must have overflowed, so the lost path is exercised.
stop_wait "$PING" "$PONG"
C0=$(ctxt)
launch stall --trace --csv --no-counters
STALL=$LAUNCHED
launch tab --trace -p "$PING" # the table, filtered: checked at the end
TAB=$LAUNCHED
start_tool tr --trace --csv
await stall "$STALL"
await tab "$TAB"
# the second oracle: perf's task-clock of ping and pong over the same
# window (they are stopped while perf attaches and detaches)
perf_start "$PING,$PONG" "$T/pstat.csv"
v0_PING=$(field "$PING" voluntary_ctxt_switches)
i0_PING=$(field "$PING" nonvoluntary_ctxt_switches)
c0_PING=$(oncpu "$PING")
v0_PONG=$(field "$PONG" voluntary_ctxt_switches)
i0_PONG=$(field "$PONG" nonvoluntary_ctxt_switches)
c0_PONG=$(oncpu "$PONG")
C1=$(ctxt)
kill -CONT "$PING" "$PONG"
sleep 1 # not a window: workload time (no bound depends on how much ran); SIGSTOP freezes the kernel's counts below
# stop the stall reader until its buffers must have overflowed: with
# 2 x 45000 x CPUs switches, one CPU had 90000 > its ~40000 records
# (waited for, however slowly this host switches)
kill -STOP "$STALL"
s0=$(ctxt) need=$((2 * 45000 * $(nproc)))
ctxt_past() { [ $(($(ctxt) - s0)) -ge "$need" ]; }
wait_for "$need context switches with the stall reader stopped" ctxt_past
kill -CONT "$STALL"
sleep 1 # not a window: workload time with the stall reader back; no bound depends on it
stop_wait "$PING" "$PONG"
v1_PING=$(field "$PING" voluntary_ctxt_switches)
i1_PING=$(field "$PING" nonvoluntary_ctxt_switches)
c1_PING=$(oncpu "$PING")
v1_PONG=$(field "$PONG" voluntary_ctxt_switches)
i1_PONG=$(field "$PONG" nonvoluntary_ctxt_switches)
c1_PONG=$(oncpu "$PONG")
C2=$(ctxt)
perf_stop
kill -INT "$TOOL_PID" "$STALL" "$TAB"
wait_tool
reap "$STALL" stall
reap "$TAB" tab
C3=$(ctxt)

# check NAME MODE: the accounting of one tracer's output (MODE: free or
# stalled); prints what it found
check() {
	local summary
	summary=$(grep -E "^switchstat: [0-9]+ events traced" "$T/$1.err") ||
		fail "$1: no trace summary on stderr"
	info "$1: $summary"
	# Linux < 5.12: no recursion_misses, so the tool cannot know how many
	# switches the kernel did not run its program for: nothing to judge
	case "$summary" in *"missed unknown"*)
		skip "the kernel does not count the switches it skipped (Linux < 5.12): $summary" ;;
	esac
	python3 - "$T/$1.out" "$T/$1.err" "$summary" "$2" "$PING" "$PONG" \
		"$((v1_PING - v0_PING))" "$((i1_PING - i0_PING))" "$((c1_PING - c0_PING))" \
		"$((v1_PONG - v0_PONG))" "$((i1_PONG - i0_PONG))" "$((c1_PONG - c0_PONG))" \
		"$((C2 - C1))" "$((C3 - C0))" \
		"$(task_clock_ns "$T/pstat.csv" "$PING")" \
		"$(task_clock_ns "$T/pstat.csv" "$PONG")" <<'PY' || fail "$1: trace accounting"
import csv, re, sys
out, err, summary, mode = sys.argv[1:5]
ping, pong = sys.argv[5:7]
kern = {ping: list(map(int, sys.argv[7:10])), pong: list(map(int, sys.argv[10:13]))}
inner, outer = int(sys.argv[13]), int(sys.argv[14])
task_clock = {ping: int(sys.argv[15]), pong: int(sys.argv[16])}
m = re.match(r"switchstat: (\d+) events traced, (\d+) lost, (\d+) missed", summary)
if not m:
    sys.exit("summary %r" % summary)
events, lost, missed = map(int, m.groups())
# the per-CPU "Lost N events on CPU M" lines add up to the total
per_cpu = sum(int(x) for x in re.findall(r"^Lost (\d+) events on CPU \d+$", open(err, encoding="latin-1").read(), re.M))
if per_cpu != lost:
    sys.exit("Lost lines sum %d != total %d" % (per_cpu, lost))
n = 0
got = {ping: [0, 0, 0], pong: [0, 0, 0]}
for r in csv.DictReader(open(out, encoding="latin-1", newline="")):
    n += 1
    g = got.get(r["prev_tid"])
    if g is None:
        continue
    if r["prev_pid"] != r["prev_tid"]:
        sys.exit("prev_pid %s != prev_tid %s (single-threaded)" % (r["prev_pid"], r["prev_tid"]))
    vol = r["voluntary"] == "1"
    # sleeping states are voluntary, preempted (R+) involuntary; plain R is
    # either: the kernel counts a sleep abandoned for a pending signal as
    # voluntary and reports R (the raw path follows the kernel's count)
    st = r["prev_state"]
    if (st == "R+" and vol) or (st not in ("R", "R+") and not vol):
        sys.exit("state %s but voluntary=%s" % (st, r["voluntary"]))
    g[0 if vol else 1] += 1
    if r["slice_ns"]:
        g[2] += int(r["slice_ns"])
if n != events:
    sys.exit("%d lines but %d events traced" % (n, events))
unseen = lost + missed
total = sum(k[0] + k[1] for k in kern.values())
lines = sum(g[0] + g[1] for g in got.values())
# all tasks: the machine's switches while surely attached <= events +
# lost + missed <= its switches from before start to after exit
print("  all tasks: %d <= %d events + %d lost + %d missed <= %d (/proc/stat ctxt)"
      % (inner, events, lost, missed, outer))
if not inner <= events + unseen <= outer:
    sys.exit("trace total does not match the kernel's context switch count")
print("  ping+pong switches: kernel %d, lines %d" % (total, lines))
for t in (ping, pong):
    (kv, ki, kc), (gv, gi, gc) = kern[t], got[t]
    print("  tid %s: voluntary %d/%d involuntary %d/%d (lines/kernel)" % (t, gv, kv, gi, ki))
    if gv > kv or gi > ki:
        sys.exit("more lines than switches: tid %s" % t)
if lines + unseen < total:
    sys.exit("%d switches neither printed nor counted as lost/missed" % (total - lines - unseen))
if mode == "stalled":
    if lost == 0:
        sys.exit("reader stopped until its buffers overflowed, yet nothing lost")
elif unseen == 0:
    # G, the control: this host's gap between the two kernel clocks per
    # switch, |schedstat - task-clock| / switches, the larger of ping's and
    # pong's (they share the switch path).  Both clocks start and stop at
    # other points of the switch than the tracepoint (schedstat at
    # update_curr/set_next_entity, task-clock at perf's sched_out/in
    # hooks), so the gap grows with what a switch costs on this host, as
    # the window's distance from task-clock does.  Measured: G 0.4-1.0 us
    # and the window +0.3..+1.1 us per switch on a host where a pipe round
    # trip costs ~6 us; G 1.1-1.7 us and +0.18..+0.55 us on one of ~2 us.
    gap = {t: abs(kern[t][2] - task_clock[t]) / (kern[t][0] + kern[t][1])
           for t in (ping, pong)}
    G = max(gap.values())
    print("  control G: schedstat vs task-clock %.2f us (ping), %.2f us (pong) "
          "per switch: G = %.2f us" % (gap[ping] / 1e3, gap[pong] / 1e3, G / 1e3))
    for t in (ping, pong):
        (kv, ki, kc), (gv, gi, gc) = kern[t], got[t]
        if (gv, gi) != (kv, ki):
            sys.exit("nothing lost, yet tid %s lines differ from the kernel" % t)
        # The slices' sum against perf's task-clock (its sched_in/out
        # hooks, inside the switch), the short-slice oracle: within
        # task-clock -1% - 0.5 G and +1% + 1.5 G per switch (the accuracy
        # rules' short-slice allowance, scaled by the control G; three
        # tracers attached here run their programs inside the same
        # switches).  A slice ends at the tracepoint, after schedstat's
        # end and before perf's: what schedstat charges this thread less
        # than task-clock (work between the two in its switch-outs, such
        # as a tracer's output for -p of it) may be missing from the
        # window too, so it widens the lower bound.  schedstat's figure
        # is printed, not judged.
        n = gv + gi
        tc = task_clock[t]
        lo = tc * 0.99 - 0.5 * G * n - max(0, tc - kc)
        hi = tc * 1.01 + 1.5 * G * n
        print("  tid %s: slices %.1f ms over %d switches; task-clock %.1f ms "
              "(%+.2f us per switch, allowed %+.2f..%+.2f: 1%% + 0.5 G + schedstat's "
              "shortfall below, 1%% + 1.5 G above); "
              "schedstat %.1f ms (%+.2f us per switch, not judged); "
              "%.2f us of task-clock per switch (not judged)"
              % (t, gc / 1e6, n, tc / 1e6, (gc - tc) / 1e3 / n,
                 (lo - tc) / 1e3 / n, (hi - tc) / 1e3 / n, kc / 1e6,
                 (gc - kc) / 1e3 / n, tc / 1e3 / n))
        if not lo <= gc <= hi:
            sys.exit("slice sum outside task-clock -1%% - 0.5 G - schedstat's shortfall "
                     ".. +1%% + 1.5 G per switch (G = %.2f us, the control gap of "
                     "this run)" % (G / 1e3))
PY
}
check tr free
check stall stalled

# --- the table: header, states decoded, filter on the leaving task ------
head -3 "$T/tab.out" | sed 's/^/  | /'
grep -q "^TIME(s) *CPU PREV_PID PREV_TID PREV_COMM *STATE NEXT_TID NEXT_COMM *SLICE(us)" "$T/tab.out" ||
	fail "table header missing"
awk -v p="$PING" 'NR > 2 && $3 != p { bad = 1 } NR > 2 { n++ }
	END { exit !(n > 0 && !bad) }' "$T/tab.out" || fail "-p $PING: lines of other processes, or none"
grep -Eq "^[0-9]+\.[0-9]{6} +[0-9]+ +$PING +$PING +ping +S " "$T/tab.out" ||
	fail "no 'ping S' line (blocked in read)"
# -p: one line per switch-out of ping, all of them (or counted as unseen)
n=$(awk 'NR > 2' "$T/tab.out" | wc -l)
k=$((v1_PING - v0_PING + i1_PING - i0_PING))
unseen=$(grep -E "^switchstat: [0-9]+ events traced" "$T/tab.err" | awk '{ print $6 + $8 }')
info "-p $PING table: $n lines, kernel $k switches, $unseen lost/missed"
if [ "$n" -gt "$k" ] || [ $((n + unseen)) -lt "$k" ]; then
	fail "-p table lines do not match the kernel"
fi

# --- the table's TIME(s): seconds from a start taken before the probes
# attach, so no event is clamped to 0 (at 100k+ switches/s, the tool's own
# start-up has switches before its loop runs) and each CPU's are in order
# (traced until 100 lines are out, flushed every 0.1 s, however slowly
# this host switches; SS_HANG_S is a hang)
kill -CONT "$PING" "$PONG"
launch t0 --trace --no-counters
T0=$LAUNCHED
await t0 "$T0"
t0_lines() { [ "$(grep -c '^[0-9]*\.[0-9]\{6\} ' "$T/t0.out")" -gt 100 ]; }
wait_for "--trace: 100 lines" t0_lines
kill -INT "$T0"
reap "$T0" t0
stop_wait "$PING" "$PONG"
awk '/^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9] / { n++; if (n > 1 && $1 == "0.000000") zero++
		if (($2 in last) && $1 + 0 < last[$2]) back++; last[$2] = $1 + 0 }
	END { printf "  %d lines, %d at 0.000000 after the first, %d back in time\n", n, zero, back
		exit !(n > 100 && !zero && !back) }' "$T/t0.out" ||
	fail "trace TIME(s): clamped to 0 or not increasing per CPU"
pass "trace lines + lost + missed account for every switch"

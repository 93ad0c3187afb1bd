#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_traceloss.sh - --trace into a slow reader (H24): lines + lost is what
# happened, exactly.  The kernel writes a lost record into a perf buffer
# only when a later record fits, so drops while the buffer stays full (the
# reader is slow, or the trace ends) never reach the reader: the probe
# counts its failed outputs itself and that count is the one reported.
# Input: a pipe ping-pong, `--trace --csv -p PING` into a reader that takes
# 4 KiB every 20 ms until told to read at full speed; the workload runs
# until it has switched more often than the rings, the pipe, the tool's
# stdout buffer and the reader can hold (then some switch was dropped,
# however fast or slow the host), and is frozen while the reader is still
# slow, so the buffer is full at its last switches.  Oracle: ping's
# voluntary + nonvoluntary_ctxt_switches delta between two SIGSTOPs (it is
# single-threaded and does not exit, so no thread-exit rule applies; the
# switches the kernel hides from tracers are another sandbox's, not ping's).
# Also: the "Lost N events on CPU M" lines add up to the summary's lost,
# and something was lost (else the test proves nothing).
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/pingpong" ] || fail "workload pingpong not built in $WORKLOADS"

"$WORKLOADS/pingpong" "$T/pp.pids" &
BG_PIDS+=("$!")
wait_file "$T/pp.pids"
read -r PING PONG <"$T/pp.pids"
freeze "$PING" "$PONG"
field() { awk -v f="$2:" '$1 == f { print $2 }' /proc/"$1"/status; }

# the slow reader: 4 KiB per 20 ms until $T/fast appears, then everything
# as fast as it comes; its copy of the stream is $T/x.out
cat >"$T/reader.py" <<'PY'
import os, sys, time
out = open(sys.argv[1], "wb", buffering=0)
fast = sys.argv[2]
while True:
    if os.path.exists(fast):
        b = os.read(0, 1 << 20)
    else:
        b = os.read(0, 4096)
        time.sleep(0.02)
    if not b:
        break
    out.write(b)
PY
mkfifo "$T/pipe"
python3 "$T/reader.py" "$T/x.out" "$T/fast" <"$T/pipe" &
READER=$!
BG_PIDS+=("$READER")
"$SWITCHSTAT" --trace --csv --no-counters -p "$PING" >"$T/pipe" 2>"$T/x.err" &
TOOL=$!
BG_PIDS+=("$TOOL")
await x "$TOOL"

# overflowed V0 I0: ping has switched (since V0 I0) more often than the
# stream can hold: every CPU's ring full of the smallest records (4 MiB /
# the 96-byte event, no perf header counted), plus the lines in the
# tool's 1 MiB stdout buffer, the pipe's 1 MiB at most and the reader's
# 4 KiB (2 MiB + 4 KiB over the shortest line so far), plus the lines the
# reader has: a count, not a time, so some record was dropped
RING_RECS=$((4 * 1024 * 1024 / 96))
NCPU=$(nproc)
overflowed() {
	local sw got minlen
	[ -e "$T/x.out" ] || return 1 # the reader has not started
	sw=$(($(field "$PING" voluntary_ctxt_switches) - $1 +
		$(field "$PING" nonvoluntary_ctxt_switches) - $2))
	read -r got minlen < <(awk 'NR > 1 { n++; if (!m || length($0) < m) m = length($0) }
		END { print n + 0, (m ? m + 1 : 1) }' "$T/x.out")
	NEED=$((NCPU * RING_RECS + (2 * 1024 * 1024 + 4096) / minlen + got))
	[ "$sw" -gt "$NEED" ]
}

v0=$(field "$PING" voluntary_ctxt_switches)
i0=$(field "$PING" nonvoluntary_ctxt_switches)
thaw "$PING" "$PONG"
# frozen while the reader is still slow, so the buffer is full at the end
# of the workload's switches: no later record brings the kernel's lost
# record for the last drops
wait_for "ping: more switches than the stream holds" overflowed "$v0" "$i0"
freeze "$PING" "$PONG"
v1=$(field "$PING" voluntary_ctxt_switches)
i1=$(field "$PING" nonvoluntary_ctxt_switches)
info "ping froze after $((v1 - v0 + i1 - i0)) switches (> $NEED: $NCPU rings of $RING_RECS records, the lines in flight and read)"
kill -INT "$TOOL"
touch "$T/fast"
rc=0
wait "$TOOL" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/x.err" >&2; fail "switchstat: exit $rc"; }
wait "$READER" || fail "the reader failed"

python3 - "$T/x.out" "$T/x.err" "$PING" "$((v1 - v0))" "$((i1 - i0))" <<'PY' ||
import csv, re, sys
out, err, ping = sys.argv[1:4]
kv, ki = int(sys.argv[4]), int(sys.argv[5])
e = open(err, encoding="latin-1").read()
m = re.search(r"^switchstat: (\d+) events traced, (\d+) lost(?:, (\d+) missed)?$", e, re.M)
if not m:
    sys.exit("no trace summary on stderr:\n" + e)
events, lost = int(m.group(1)), int(m.group(2))
missed = int(m.group(3) or 0)
per_cpu = sum(int(x) for x in re.findall(r"^Lost (\d+) events on CPU \d+$", e, re.M))
lines = vol = 0
for r in csv.DictReader(open(out, encoding="latin-1", newline="")):
    if r["prev_tid"] != ping:
        sys.exit("a line of tid %s under -p %s" % (r["prev_tid"], ping))
    lines += 1
    vol += r["voluntary"] == "1"
kern = kv + ki
print("  kernel: %d switches (%d voluntary); lines %d (%d voluntary) + lost %d"
      " + missed %d = %d; Lost lines sum %d" % (kern, kv, lines, vol, lost,
                                              missed, lines + lost + missed, per_cpu))
if lines != events:
    sys.exit("%d lines but the summary says %d events traced" % (lines, events))
if per_cpu != lost:
    sys.exit("Lost lines sum %d != the summary's %d" % (per_cpu, lost))
if lost == 0:
    sys.exit("nothing lost: the slow reader did not overflow the buffers")
if lines + lost + missed != kern:
    sys.exit("lines + lost + missed = %d, the kernel counted %d switches (%+d)"
             % (lines + lost + missed, kern, lines + lost + missed - kern))
PY
	fail "trace loss accounting"
pass "--trace into a slow reader: lines + lost = the kernel's switch count"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_json.sh - --json is NDJSON that a real consumer (python3's json
# module) accepts, line by line, for interval rows and for --trace events:
# keys equal the CSV header of the same mode ("type" in front), numbers are
# numbers, and a comm with a quote, a backslash, a comma, a space and the
# byte 0x01 (tests/workloads/oddcomm) comes back byte for byte, in JSON and
# in CSV.  The JSON values are checked against the kernel's own counts
# (voluntary/nonvoluntary_ctxt_switches of the odd-named process, 2%).
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/oddcomm" ] || skip "workload oddcomm not built"

"$WORKLOADS/oddcomm" 1000 >"$T/odd.name" &
ODD=$!
BG_PIDS+=("$ODD")
wait_file "$T/odd.name"

# state_of PID: the state letter of /proc/PID/stat
state_of() { sed 's/.*) //' /proc/"$1"/stat | cut -d' ' -f1; }
# stop_wait PID: SIGSTOP and wait until stopped (its last switch is done)
stop_wait() {
	kill -STOP "$1"
	wait_for "pid $1 stopped" stopped_state "$1"
}
stopped_state() { [ "$(state_of "$1")" = T ]; }
vol() { awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/"$1"/status; }
invol() { awk '/^nonvoluntary_ctxt_switches/ { print $2 }' /proc/"$1"/status; }

# odd_ran N: the odd-named process made N voluntary switches since v0
# (its window: counted, not timed; a slow host only waits longer,
# SS_HANG_S is a hang)
odd_ran() { [ $(($(vol "$ODD") - v0)) -ge "$1" ]; }

# --- interval rows: a --json run, all processes, ended by SIGINT -------
# the CSV run of the same mode (for its header) compiles at the same time
stop_wait "$ODD"
launch csv --csv -n 0
CSV_PID=$LAUNCHED
start_tool json --json -n 0
await csv "$CSV_PID"
v0=$(vol "$ODD") i0=$(invol "$ODD")
kill -CONT "$ODD"
wait_for "500 voluntary switches of the odd-named process" odd_ran 500
stop_wait "$ODD"
v1=$(vol "$ODD") i1=$(invol "$ODD")
kill -INT "$TOOL_PID" "$CSV_PID"
wait_tool
kill -CONT "$ODD"
reap "$CSV_PID" csv
info "$(wc -l <"$T/json.out") JSON lines, kernel: voluntary +$((v1 - v0)), involuntary +$((i1 - i0))"

python3 - "$T/json.out" "$T/csv.out" "$T/odd.name" "$ODD" "$T/sums" <<'PY' || fail "interval JSON"
import csv, json, sys
jpath, cpath, npath, pid, sums = sys.argv[1:6]
name = open(npath, "rb").read().rstrip(b"\n").decode()
pid = int(pid)
header = open(cpath, errors="surrogateescape").readline().rstrip("\n").split(",")
want_keys = ["type"] + header
ints = {"pid", "tid", "switches", "voluntary", "involuntary", "oncpu_ns",
        "cgroup_id", "dropped"}
nums = {"time", "cpu_pct"}
rows = vol = invol = 0
for n, line in enumerate(open(jpath, encoding="utf-8"), 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        sys.exit("line %d is not JSON (%s): %r" % (n, e, line))
    if not isinstance(o, dict) or o.get("type") != "row":
        sys.exit("line %d: not a row object: %r" % (n, line))
    if list(o) != want_keys:
        sys.exit("line %d: keys %s != CSV header %s" % (n, list(o), want_keys))
    for k, v in o.items():
        if k in ints and not (type(v) is int and v >= 0):
            sys.exit("line %d: %s=%r is not a count" % (n, k, v))
        if k in nums and type(v) not in (int, float):
            sys.exit("line %d: %s=%r is not a number" % (n, k, v))
    if not isinstance(o["comm"], str):
        sys.exit("line %d: comm %r" % (n, o["comm"]))
    rows += 1
    if o["pid"] == pid:
        if o["comm"] != name:
            sys.exit("comm %r != %r" % (o["comm"], name))
        vol += o["voluntary"]
        invol += o["involuntary"]
if rows == 0:
    sys.exit("no rows")
open(sums, "w").write("%d %d\n" % (vol, invol))
print("  %d row objects parsed, keys = type + %d CSV columns" % (rows, len(header)))
PY
read -r jv ji <"$T/sums"
check_within "voluntary (JSON) vs kernel" "$jv" "$((v1 - v0))" 2
check_within "switches (JSON) vs kernel" "$((jv + ji))" "$((v1 - v0 + i1 - i0))" 2

# --- trace events: --trace --json and --csv of the odd-named process ---
stop_wait "$ODD"
launch tcsv --trace --csv -p "$ODD"
CSV_PID=$LAUNCHED
start_tool tjson --trace --json -p "$ODD"
await tcsv "$CSV_PID"
v0=$(vol "$ODD") i0=$(invol "$ODD")
kill -CONT "$ODD"
wait_for "200 voluntary switches of the odd-named process" odd_ran 200
stop_wait "$ODD"
v1=$(vol "$ODD") i1=$(invol "$ODD")
kill -INT "$TOOL_PID" "$CSV_PID"
wait_tool
reap "$CSV_PID" tcsv
# "switchstat: N events traced, L lost, M missed": what did not arrive
summary=$(grep -E "^switchstat: [0-9]+ events traced" "$T/tjson.err") ||
	fail "no trace summary on stderr"
unseen=$(echo "$summary" | awk '{ print $6 + $8 }')
info "$summary"
csummary=$(grep -E "^switchstat: [0-9]+ events traced" "$T/tcsv.err") ||
	fail "no trace summary on stderr (CSV)"
cunseen=$(echo "$csummary" | awk '{ print $6 + $8 }')

python3 - "$T/tjson.out" "$T/tcsv.out" "$T/odd.name" "$ODD" "$((v1 - v0))" "$((i1 - i0))" "$unseen" "$summary" <<'PY' || fail "trace JSON"
import json, re, sys
jpath, cpath, npath, pid, dv, di, unseen, summary = sys.argv[1:9]
name = open(npath, "rb").read().rstrip(b"\n").decode()
pid, dv, di, unseen = int(pid), int(dv), int(di), int(unseen)
header = open(cpath, errors="surrogateescape").readline().rstrip("\n").split(",")
want_keys = ["type"] + header
ints = {"ts_ns", "cpu", "prev_pid", "prev_tid", "voluntary", "next_tid"}
vol = invol = 0
lines = open(jpath, encoding="utf-8").readlines()
# the last object: the summary line's counts, as JSON numbers
try:
    last = json.loads(lines.pop())
except (ValueError, IndexError) as e:
    sys.exit("no trace_summary object at the end (%s)" % e)
# before Linux 5.12 the kernel counts no misses: "missed unknown", null
m = re.match(r"switchstat: (\d+) events traced, (\d+) lost, (?:(\d+) missed|missed unknown)", summary)
if not m:
    sys.exit("trace summary %r" % summary)
known = m.group(3) is not None
want = {"type": "trace_summary", "events": int(m.group(1)), "lost": int(m.group(2)),
        "missed": int(m.group(3)) if known else None}
if list(last) != ["type", "events", "lost", "missed", "kernel_lost"] or \
        any(last[k] != v for k, v in want.items()) or type(last["kernel_lost"]) is not int:
    sys.exit("last object %r, want %r and kernel_lost" % (last, want))
for n, line in enumerate(lines, 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        sys.exit("line %d is not JSON (%s): %r" % (n, e, line))
    if o.get("type") != "switch" or list(o) != want_keys:
        sys.exit("line %d: keys %s != %s" % (n, list(o), want_keys))
    for k in ints:
        if type(o[k]) is not int:
            sys.exit("line %d: %s=%r is not an integer" % (n, k, o[k]))
    if type(o["time"]) is not float:
        sys.exit("line %d: time %r" % (n, o["time"]))
    if not (o["slice_ns"] is None or type(o["slice_ns"]) is int):
        sys.exit("line %d: slice_ns %r" % (n, o["slice_ns"]))
    if o["prev_pid"] != pid or o["prev_comm"] != name:
        sys.exit("line %d: prev %r %r, want %d %r" % (n, o["prev_pid"], o["prev_comm"], pid, name))
    if not isinstance(o["next_comm"], str) or not isinstance(o["prev_state"], str):
        sys.exit("line %d: next_comm/prev_state not strings" % n)
    if o["voluntary"]:
        vol += 1
    else:
        invol += 1
print("  %d switch objects: voluntary %d (kernel %d), involuntary %d (kernel %d)"
      % (vol + invol, vol, dv, invol, di))
# every switch is a line, or counted as lost/missed (exact when none were);
# never more lines than switches.  With the misses unknown (Linux < 5.12)
# a switch whose program the kernel skipped is not counted anywhere: the
# lower bound cannot be judged, only printed
if vol > dv or invol > di:
    sys.exit("trace events do not match the kernel's switch counts")
if vol + invol + unseen < dv + di:
    if known:
        sys.exit("trace events do not match the kernel's switch counts")
    print("  %d switches neither printed nor counted: the kernel skipped the "
          "program and does not count that before Linux 5.12" % (dv + di - vol - invol - unseen))
PY

# the same events as CSV: the comm survives RFC 4180 quoting byte for byte
cknown=1
case "$csummary" in *"missed unknown"*) cknown=0 ;; esac
python3 - "$T/tcsv.out" "$T/odd.name" "$ODD" "$((v1 - v0 + i1 - i0))" "$cunseen" "$cknown" <<'PY' || fail "trace CSV"
import csv, sys
cpath, npath, pid, dn, unseen, known = sys.argv[1:7]
name = open(npath, "rb").read().rstrip(b"\n").decode()
rows = list(csv.DictReader(open(cpath, newline="", encoding="utf-8", errors="surrogateescape")))
bad = [r["prev_comm"] for r in rows if r["prev_comm"] != name or r["prev_pid"] != pid]
if bad:
    sys.exit("CSV prev_comm %r != %r" % (bad[0], name))
n, dn, unseen = len(rows), int(dn), int(unseen)
print("  %d CSV rows with prev_comm %r (kernel %d switches)" % (n, name, dn))
if n > dn or (n + unseen < dn and known == "1"):
    sys.exit("CSV trace rows do not match the kernel's switch count")
if n + unseen < dn:
    print("  %d switches neither printed nor counted (misses unknown before "
          "Linux 5.12)" % (dn - n - unseen))
PY
pass "JSON rows and trace events parse; keys = CSV header; comm escaped"

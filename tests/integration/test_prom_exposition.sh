#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_prom_exposition.sh - switchstat --listen serves /metrics:
#  - `promtool check metrics` passes on a run with every feature on
#    (counters, memory, all histograms, --offcpu, --wakers, --stacks,
#    per-process labels) while processes
#    with hostile comms (quote, backslash, newline, invalid UTF-8, control
#    byte) run in a cgroup with a hostile name; their labels are escaped
#    exactly as the format says; OpenMetrics on request (Accept), # EOF;
#  - 404 for another path, 405 (Allow: GET, HEAD) for POST, HEAD works;
#  - binds 127.0.0.1 when no address is given; [::1]:PORT binds IPv6;
#  - -q keeps stdout empty, without it the table is printed too;
#  - counters never go backwards between scrapes;
#  - a bad address exits 2, a port in use exits 1, before serving anything.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
command -v promtool >/dev/null || skip "needs promtool (Debian package prometheus)"

# hostile comm: q"\<newline><0xff>z, in a cgroup named a"b\c d,{x}=y
cg_make 'a"b\c d,{x}=y'
bg python3 -c 'import ctypes, time
ctypes.CDLL(None).prctl(15, b"q\"\\\n\xffz", 0, 0, 0)
while True: time.sleep(0.002)'
HOSTILE=$BG_LAST
cg_move "$HOSTILE" "$CG"
bg "$WORKLOADS/oddcomm" 2000
bg "$WORKLOADS/pingpong" "$T/pp.pids"

P=$(free_port)
start_tool ex --listen "$P" -q -M --hist oncpu,offcpu,runq \
	-e cpu-clock,page-faults --metrics-per-process -i 500 \
	--offcpu --wakers --stacks
wait_metric "$P" "^switchstat_context_switches_total\{pid=\"$HOSTILE\""
scrape "$P" >"$T/m1.txt" || fail "scrape failed"
wait_metric "$P" '^switchstat_oncpu_slice_seconds_bucket\{cgroup="[^"]*",container_id="[^"]*",le="\+Inf"\} [1-9]'
# m2: an exposition built at least two intervals after m1's
c1=$(metric_value "$T/m1.txt" switchstat_last_collect_timestamp_seconds)
[ -n "$c1" ] || fail "no switchstat_last_collect_timestamp_seconds"
rebuilt() {
	scrape "$P" >"$T/m2.txt" || fail "scrape failed"
	c2=$(metric_value "$T/m2.txt" switchstat_last_collect_timestamp_seconds)
	python3 -c "import sys; sys.exit(0 if $c2 > $c1 + 0.9 else 1)"
}
wait_for "the exposition rebuilt" rebuilt
scrape "$P" 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
	>"$T/om.txt" || fail "OpenMetrics scrape failed"

# promtool: the exposition parses and passes the lint rules
promtool check metrics <"$T/m2.txt" >"$T/promtool.log" 2>&1 ||
	fail "promtool check metrics: $(head -5 "$T/promtool.log")"
info "promtool check metrics: OK ($(wc -l <"$T/m2.txt") lines, $(wc -c <"$T/m2.txt") bytes)"
for fam in switchstat_context_switches_total switchstat_oncpu_seconds_total \
	switchstat_perf_events_total switchstat_perf_events_scaled \
	switchstat_page_faults_total switchstat_page_allocs_total \
	switchstat_direct_reclaims_total switchstat_runq_latency_seconds \
	switchstat_oncpu_slice_seconds switchstat_offcpu_seconds \
	switchstat_missed_slices_total switchstat_dropped_rows_total \
	switchstat_bpf_run_seconds_total switchstat_bpf_runs_total \
	switchstat_scrape_duration_seconds switchstat_build_info \
	switchstat_offcpu_state_seconds_total switchstat_wakeups_total \
	switchstat_wakeup_offcpu_seconds_total \
	switchstat_offcpu_stack_seconds_total; do
	grep -q "^# TYPE $fam " "$T/m2.txt" || fail "no family $fam"
done

# hostile labels, escaped per the format; the original bytes come back
python3 - "$T/m2.txt" "$HOSTILE" "$CG" <<'PY' || fail "hostile labels"
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # must be UTF-8
pid, cg = sys.argv[2], sys.argv[3]
want_comm = 'q\\"\\\\\\n\ufffdz'
want_cg = cg.replace("\\", "\\\\").replace('"', '\\"')
line = 'switchstat_context_switches_total{pid="%s",comm="%s",cgroup="%s",' \
    'container_id="",kind="voluntary"} ' % (pid, want_comm, want_cg)
hits = [l for l in text.splitlines() if l.startswith(line)]
if len(hits) != 1:
    sys.exit("no exact line %r" % line)
if int(hits[0].rsplit(" ", 1)[1]) < 10:
    sys.exit("hostile process barely counted: %s" % hits[0])
# its timer wakeups and its stacks: the same labels, the stack's first
# frame its comm (';' and line breaks made '_', as the folded output)
for fam, extra in (("switchstat_wakeups_total", 'waker_kind="timer"'),
                   ("switchstat_offcpu_stack_seconds_total",
                    'stack="q\\"\\\\_\ufffdz;')):
    pre = '%s{pid="%s",comm="%s",cgroup="%s",container_id="",%s' % (
        fam, pid, want_comm, want_cg, extra)
    if not any(l.startswith(pre) for l in text.splitlines()):
        sys.exit("no line starting %r" % pre)
# the oddcomm workload: o"d\d, \x01c
odd = 'comm="o\\"d\\\\d, \x01c"'
if odd not in text:
    sys.exit("oddcomm label not found escaped")
# every sample line: name{labels} value, labels well formed
lab = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
pat = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{%s(,%s)*\})? \S+$' % (lab, lab))
for l in text.splitlines():
    if not l.startswith("#") and not pat.match(l):
        sys.exit("malformed sample line: %r" % l)
print("  hostile comm and cgroup labels escaped exactly")
PY

# OpenMetrics: negotiated, content type, family names, # EOF at the end
curl -sS -o /dev/null -D "$T/om.h" -H 'Accept: application/openmetrics-text' \
	"http://127.0.0.1:$P/metrics"
grep -qi '^Content-Type: application/openmetrics-text; version=1.0.0' "$T/om.h" ||
	fail "OpenMetrics content type: $(cat "$T/om.h")"
curl -sS -o /dev/null -D "$T/txt.h" "http://127.0.0.1:$P/metrics"
grep -qi '^Content-Type: text/plain; version=0.0.4' "$T/txt.h" ||
	fail "text content type: $(cat "$T/txt.h")"
[ "$(tail -n 1 "$T/om.txt")" = "# EOF" ] || fail "OpenMetrics does not end with # EOF"
grep -q '^# TYPE switchstat_context_switches counter$' "$T/om.txt" ||
	fail "OpenMetrics counter family name must not carry _total"
grep -q '^# UNIT switchstat_oncpu_seconds seconds$' "$T/om.txt" || fail "no UNIT line"
grep -q '^# TYPE switchstat_build info$' "$T/om.txt" || fail "build info type"
grep -q '^# EOF' "$T/m2.txt" && fail "text 0.0.4 has # EOF"

# status codes
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "http://127.0.0.1:$P/")" = 404 ] || fail "/ is not 404"
[ "$(code "http://127.0.0.1:$P/metricsx")" = 404 ] || fail "/metricsx is not 404"
[ "$(code -X POST -d x=1 "http://127.0.0.1:$P/metrics")" = 405 ] || fail "POST is not 405"
[ "$(code -X DELETE "http://127.0.0.1:$P/metrics")" = 405 ] || fail "DELETE is not 405"
curl -s -o /dev/null -D "$T/405.h" -X PUT "http://127.0.0.1:$P/metrics"
grep -qi '^Allow: GET, HEAD' "$T/405.h" || fail "405 without Allow"
[ "$(code -I "http://127.0.0.1:$P/metrics")" = 200 ] || fail "HEAD is not 200"
[ -z "$(curl -s -I "http://127.0.0.1:$P/metrics" | sed -n '/^\r$/,$p' | tr -d '\r\n')" ] ||
	fail "HEAD has a body"
info "404 / 405 (Allow: GET, HEAD) / HEAD 200 without body"

# bound to 127.0.0.1 only
if command -v ss >/dev/null; then
	ss -Hltn "sport = :$P" >"$T/ss.txt"
	grep -q "127.0.0.1:$P" "$T/ss.txt" || fail "not bound to 127.0.0.1: $(cat "$T/ss.txt")"
	[ "$(grep -c . "$T/ss.txt")" -eq 1 ] || fail "more than one socket: $(cat "$T/ss.txt")"
	info "listening on $(awk '{print $4}' "$T/ss.txt") only"
fi

# counters never go backwards, and every series of m1 is still there
python3 - "$T/m1.txt" "$T/m2.txt" <<'PY' || fail "counters went backwards"
import sys
def load(p):
    d = {}
    for l in open(p, "rb").read().decode().splitlines():
        if l.startswith("#"):
            continue
        k, v = l.rsplit(" ", 1)
        d[k] = float(v)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
n = 0
for k, v in a.items():
    name = k.split("{")[0]
    if not (name.endswith("_total") or name.endswith("_bucket") or
            name.endswith("_count")):
        continue
    if k not in b:
        sys.exit("series gone: %s" % k)
    if b[k] < v:
        sys.exit("went backwards: %s %s -> %s" % (k, v, b[k]))
    n += 1
print("  %d counter samples monotonic across scrapes" % n)
PY
[ -s "$T/ex.out" ] && fail "-q: stdout not empty: $(head -3 "$T/ex.out")"
stop_tool

# bad address: exit 2 at once; a port in use: exit 1
rc=0
"$SWITCHSTAT" --listen 70000 >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -eq 2 ] || fail "--listen 70000: exit $rc, want 2"
grep -q "invalid listen address" "$T/b.err" || fail "no message: $(cat "$T/b.err")"
python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
time.sleep(60)' "$P" &
HOLD=$!
BG_PIDS+=("$HOLD")
for i in $(seq 1 100); do ss -Hltn "sport = :$P" | grep -q . && break; sleep 0.05; done # not a window: poll for the holder's port; 5 s is a hang cap
rc=0
"$SWITCHSTAT" --listen "$P" -q -d 2 >"$T/u.out" 2>"$T/u.err" || rc=$? # not a window: port in use: exit code and message only
[ "$rc" -eq 1 ] || fail "port in use: exit $rc, want 1"
grep -q "cannot serve HTTP on 127.0.0.1 port $P" "$T/u.err" || fail "port in use: $(cat "$T/u.err")"
kill "$HOLD"
info "bad address exit 2, port in use exit 1: $(cat "$T/u.err")"

# IPv6 loopback, and the table on stdout at the same time (no -q)
if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	P6=$(free_port)
	start_tool v6 --listen "[::1]:$P6" -i 300
	for i in $(seq 1 100); do # not a window: poll for the first scrape; 10 s is a hang cap
		curl -sf -g -m 2 "http://[::1]:$P6/metrics" -o "$T/v6.txt" && break
		sleep 0.1
	done
	grep -q '^switchstat_build_info' "$T/v6.txt" || fail "no metrics on [::1]:$P6"
	stop_tool # the last interval's table is printed at exit
	grep -q "PID" "$T/v6.out" || fail "no table on stdout without -q"
	info "[::1]:$P6 served; table printed alongside"
fi
pass "exposition valid (promtool), escaped, negotiated, bound to loopback"

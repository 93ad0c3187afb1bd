#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_caps.sh - capabilities, not uid 0, decide whether switchstat runs.
#  1. A non-root user with CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH
#     (ambient, via setpriv) traces: a spinner's on-CPU time within 2 % of
#     its schedstat.
#  2. Each of the three missing: exit 1, one message naming it.
#  3. uid 0 without CAP_BPF/CAP_PERFMON/CAP_SYS_ADMIN: refused the same way.
. "$(dirname "$0")/lib.sh"

need_root
command -v setpriv >/dev/null || skip "setpriv not installed"
[ -x "$WORKLOADS/spinner" ] || fail "workload spinner not built"
NOBODY=$(id -u nobody 2>/dev/null) || skip "no user nobody"
# the binary and workloads must be reachable by nobody
chmod o+rx "$T"
for d in "$SWITCHSTAT" "$(dirname "$SWITCHSTAT")"; do
	setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups test -r "$d" ||
		skip "$d not readable by nobody"
done

# as CAPS ARGS...: run switchstat as nobody with ambient capabilities CAPS
# (exec: in the background, $! is switchstat itself)
as() {
	local caps=$1
	shift
	exec setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups \
		--inh-caps=-all,"$caps" --ambient-caps=-all,"$caps" \
		"$SWITCHSTAT" "$@"
}

# 1. enough capabilities
bg "$WORKLOADS/spinner" 0 ss_caps
S=$BG_LAST
freeze "$S"
as +bpf,+perfmon,+dac_read_search --csv -i 60000 -p "$S" >"$T/ok.out" 2>"$T/ok.err" &
TOOL_PID=$!
BG_PIDS+=("$TOOL_PID")
caps_attached() {
	grep -q Tracing "$T/ok.err" 2>/dev/null && return 0
	kill -0 "$TOOL_PID" 2>/dev/null || fail "refused with CAP_BPF+CAP_PERFMON+CAP_DAC_READ_SEARCH: $(cat "$T/ok.err")"
	return 1
}
wait_for "attach with CAP_BPF+CAP_PERFMON+CAP_DAC_READ_SEARCH" caps_attached
s0=$(schedstat_sum "$S")
thaw "$S"
# the window: until the spinner has run 500 ms (schedstat; the 2 % below
# is 10 ms), however slowly or loaded (SS_HANG_S is a hang)
run_for_cpu 500000000 "$S"
freeze "$S"
s1=$(schedstat_sum "$S")
stop_tool
check_within "non-root with capabilities: spinner on-CPU" \
	"$(csv_sum "$T/ok.out" oncpu_ns pid "$S")" $((s1 - s0)) 2

# 2. each one missing
for c in bpf perfmon dac_read_search; do
	caps=+bpf,+perfmon,+dac_read_search
	caps=${caps/+$c/-$c}
	rc=0
	(as "$caps" -d 1) >"$T/no.out" 2>"$T/no.err" || rc=$? # not a window: exit code and message of a capability refusal
	want=CAP_${c^^}
	[ "$rc" -eq 1 ] || fail "without $want: exit $rc, want 1"
	[ "$(wc -l <"$T/no.err")" -eq 1 ] || fail "without $want: not one line: $(cat "$T/no.err")"
	grep -q "missing $want\$" "$T/no.err" || fail "without $want: $(cat "$T/no.err")"
	info "without $want: $(cat "$T/no.err")"
done

# 3. uid 0 without the capabilities
rc=0
# not a window: exit code and message of a capability refusal
setpriv --inh-caps=-bpf,-perfmon,-sys_admin --bounding-set=-bpf,-perfmon,-sys_admin \
	"$SWITCHSTAT" -d 1 >"$T/r.out" 2>"$T/r.err" || rc=$?
[ "$rc" -eq 1 ] || fail "root without CAP_BPF/CAP_PERFMON: exit $rc, want 1"
grep -q "missing CAP_BPF and CAP_PERFMON" "$T/r.err" || fail "root without caps: $(cat "$T/r.err")"
info "uid 0 without them: $(cat "$T/r.err")"
pass "capabilities checked, missing ones named"

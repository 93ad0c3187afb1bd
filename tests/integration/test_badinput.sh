#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_badinput.sh - bad input to the real binary: a target that is not a
# live process (a zombie, a thread id given to -p, a pid that does not
# exist), an unknown perf event, a cgroup that does not exist, bad values.
# Each must end with exit code 2, nothing on stdout, one "switchstat: ..."
# message line on stderr (plus at most the "Try 'switchstat -h'" hint)
# that names the problem, quickly (before compiling the probes), and leave
# no BPF program behind.
. "$(dirname "$0")/lib.sh"
need_root

# expect2 WHAT PATTERN ARGS...: exit 2, one message line matching PATTERN
expect2() {
	local what=$1 pat=$2 rc=0 t0 ms lines
	shift 2
	t0=$(date +%s%N)
	timeout "$SS_HANG_S" "$SWITCHSTAT" "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$rc" -eq 2 ] || fail "$what ($*): exit code $rc, want 2; stderr: $(head -3 "$T/err")"
	[ ! -s "$T/out" ] || fail "$what ($*): wrote to stdout: $(head -3 "$T/out")"
	# the no-PMU warning may come first: it is not about the input
	lines=$(grep -v "^Try 'switchstat -h'" "$T/err" | grep -vc 'leaves out the counter columns')
	[ "$lines" -eq 1 ] || fail "$what ($*): want one message line, got $lines: $(cat "$T/err")"
	grep -q '^switchstat: ' "$T/err" || fail "$what ($*): message lacks the 'switchstat: ' prefix: $(cat "$T/err")"
	grep -Eqi "$pat" "$T/err" || fail "$what ($*): message does not say /$pat/: $(cat "$T/err")"
	info "$what: exit 2 in $ms ms: $(grep -v 'leaves out the counter columns' "$T/err" | head -1)"
	LAST_MS=$ms
}

# a zombie: its parent exec'd into sleep and never reaps it
(
	sleep 0.05 & # not a window: makes a zombie, nothing is counted
	exec sleep 60
) &
parent=$!
BG_PIDS+=("$parent")
zombie=""
is_zombie() {
	zombie=$(pgrep -P "$parent" | head -1)
	[ -n "$zombie" ] && [ "$(awk '/^State:/ { print $2 }' /proc/"$zombie"/status 2>/dev/null)" = Z ]
}
wait_for "a zombie" is_zombie
expect2 "-p zombie" "zombie|exited" -p "$zombie"
expect2 "-t zombie" "zombie|exited" -t "$zombie"

# a thread id given to -p: name the process it belongs to
bg "$WORKLOADS/spinner" 2 ssbadspin
spin=$BG_LAST
for i in $(seq 1 100); do # not a window: poll for the threads; 5 s is a hang cap
	[ "$(ls /proc/"$spin"/task | wc -l)" -ge 3 ] && break
	sleep 0.05
done
thread=$(ls /proc/"$spin"/task | grep -vx "$spin" | head -1)
[ -n "$thread" ] || fail "spinner has no threads"
expect2 "-p thread id" "thread.*$spin" -p "$thread"
expect2 "-p PID with -t TID" "p and -t are exclusive" -p "$parent" -t "$thread"

# a pid that does not exist (an exited, reaped process)
sh -c 'exit 0' &
gone=$!
wait "$gone"
kill -0 "$gone" 2>/dev/null && skip "pid $gone reused already"
expect2 "-p gone" "no such" -p "$gone"
expect2 "-t gone" "no such" -t "$gone"

# unknown events and bad lists: clear message, exit 2, before compiling
# not a window: bad input: exit code and message only
expect2 "-e unknown" "bogus" -e bogus -d 1
expect2 "-e partly unknown" "nosuchevent" -e cpu-clock,nosuchevent -d 1
expect2 "-e empty element" "empty|,," -e cpu-clock,,page-faults -d 1
# before compiling: quicker than the compile of a real start on this machine
# (-v's start-up times; about 1 s here, 10 s in a TCG guest, where the
# rejection itself, mostly loading libbcc, took up to 3 s); a compile, not
# the compiled-BPF cache's load
SWITCHSTAT_BPF_CACHE=off timeout 600 "$SWITCHSTAT" -v -i 100 -d 1 >/dev/null 2>"$T/start.err" </dev/null || # not a window: 600 s is a hang cap on the start-up
	fail "a real start failed: $(tail -3 "$T/start.err")"
compile_ms=$(sed -nE 's/.*start-up \(ms\):.* compile ([0-9]+)\..*/\1/p' "$T/start.err")
[ -n "$compile_ms" ] || fail "no compile time in -v: $(cat "$T/start.err")"
[ "$LAST_MS" -lt "$compile_ms" ] ||
	fail "-e was checked only after $LAST_MS ms, the compile alone takes $compile_ms ms (after compiling?)"
info "-e checked in $LAST_MS ms; a real start compiles for $compile_ms ms"

# a cgroup that does not exist
expect2 "--cgroup missing" "cgroup" --cgroup /no/such/cgroup/here -d 1 # not a window: bad input: exit code and message only

# values the parser refuses (the unit test covers the whole table)
expect2 "-i 0" "interval" -i 0
expect2 "-d -1" "duration" -d -1
expect2 "--map-entries 10" "map" --map-entries 10
expect2 "stray argument" "unexpected|stray" stray
# the test seams (tests/README.md): a typo or an old variable is refused,
# so a test cannot silently run the default path
# not a window: bad input: exit code and message only
SWITCHSTAT_TEST=no_rwa expect2 "unknown test seam" "unknown seam 'no_rwa'" -d 1
SWITCHSTAT_TEST=miss_arrive=1 expect2 "seam value" "miss_arrive' takes a number 2-1000" -d 1
SWITCHSTAT_TEST_NO_RAW=1 expect2 "old seam variable" "SWITCHSTAT_TEST_NO_RAW is not read" -d 1

pass "bad input: exit 2 with one clear line"

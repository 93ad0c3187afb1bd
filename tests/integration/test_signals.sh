#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_signals.sh - SIGINT or SIGTERM at any moment (while libbcc compiles,
# while it attaches, while it prints) ends the run cleanly:
#   - exit code 0 (documented: a signal is the normal way to stop),
#   - the process is gone within a few seconds of the signal,
#   - when it had started tracing, the final partial interval is printed,
#   - no BPF program is left behind: every program id it held (seen in
#     /proc/PID/fdinfo while it ran) is gone, and no program named like
#     the tool's functions (tracepoint__*) exists that no process holds
#     (an orphan, kept alive only by a leaked perf event or a pin).
# Also: the stdout pipe closing under it (switchstat | head) ends it.
. "$(dirname "$0")/lib.sh"
need_root
command -v bpftool >/dev/null || skip "needs bpftool"

# progs_held: ids of BPF programs that any process holds an fd of
progs_held() {
	grep -h '^prog_id:' /proc/[0-9]*/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un
}

# orphans: ids of programs named like ours that no process holds
orphans() {
	bpftool -j prog show 2>/dev/null | python3 -c '
import json, sys
held = set(int(x) for x in sys.argv[1].split())
for p in json.load(sys.stdin):
    if p.get("name", "").startswith("tracepoint__") and p["id"] not in held:
        print(p["id"])' "$(progs_held)"
}

# persistent_orphans: orphans seen in three looks 0.3 s apart (another
# instance of the tool may be half-way through its exit at one look)
persistent_orphans() {
	local a b c
	a=$(orphans)
	[ -z "$a" ] && return
	sleep 0.3
	b=$(orphans)
	sleep 0.3
	c=$(orphans)
	comm -12 <(echo "$a") <(echo "$b") | comm -12 - <(echo "$c")
}

before=$(persistent_orphans)
[ -z "$before" ] || info "orphan programs before the test (not ours): $before"

# watch PID FILE: record the program ids PID holds until it exits
watch_progs() {
	while kill -0 "$1" 2>/dev/null; do
		grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' >>"$2"
		sleep 0.02
	done
}

# one SIGNAL DELAY ARGS...: start, signal after DELAY s, check the exit
one() {
	local sig=$1 delay=$2 rc=0 i
	shift 2
	local name="$sig-$delay"
	: >"$T/$name.ids"
	"$SWITCHSTAT" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	local pid=$!
	watch_progs "$pid" "$T/$name.ids" &
	local watcher=$!
	sleep "$delay"
	kill -"$sig" "$pid" 2>/dev/null || fail "$name: switchstat exited before the signal: $(cat "$T/$name.err")"
	for i in $(seq 1 200); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		fail "$name: still running 10 s after SIG$sig"
	fi
	wait "$pid" || rc=$?
	wait "$watcher"
	[ "$rc" -eq 0 ] || fail "$name: exit code $rc after SIG$sig: $(cat "$T/$name.err")"
	local ids n_ids stage=compile
	ids=$(sort -un "$T/$name.ids")
	n_ids=$(echo "$ids" | grep -c .)
	[ "$n_ids" -gt 0 ] && stage=attach
	if grep -q Tracing "$T/$name.out" "$T/$name.err"; then
		stage=run
		# the final, partial interval is printed after the signal
		grep -Eq '^(PID|time,)' "$T/$name.out" ||
			fail "$name: stopped while tracing but printed no final interval"
	fi
	for i in $ids; do
		if bpftool prog show id "$i" >/dev/null 2>&1; then
			# the id may have been reused by another instance: is it held?
			progs_held | grep -qx "$i" || fail "$name: program $i left loaded after exit"
		fi
	done
	info "$name: exit 0, stage $stage, $n_ids program(s) held and released"
	echo "$stage" >>"$T/stages"
}

for d in 0.1 0.3 0.6 1 1.5 2 3; do
	one INT "$d" -i 1000
done
one TERM 0.5 -i 1000
one TERM 2.5 -i 1000
# while printing: 10 ms intervals, every row, CSV
one INT 3 --csv -n 0 -i 10
one TERM 3 -n 0 -i 10
# the stages must really have been hit, or the delays are wrong here
grep -qx compile "$T/stages" || info "note: no run was signalled during compile (fast machine)"
grep -qx run "$T/stages" || fail "no run reached tracing before its signal"

# the reader going away: switchstat | head ends promptly
start=$(date +%s)
timeout 30 bash -c "'$SWITCHSTAT' -i 10 -n 0 2>/dev/null | head -3 >/dev/null"
rc=$?
[ "$rc" -ne 124 ] || fail "switchstat | head -3 did not end within 30 s"
info "switchstat | head -3 ended after $(($(date +%s) - start)) s"

after=$(persistent_orphans)
new=$(comm -13 <(echo "$before") <(echo "$after") | grep . || true)
[ -z "$new" ] || fail "orphan BPF programs after the test: $new"
pass "signals at compile/attach/run/print: exit 0, nothing left loaded"

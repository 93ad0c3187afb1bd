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
#
# A signal that comes before main() has installed its handler (loading
# libbcc and LLVM takes a while) gets the default action: the process is
# killed by it (status 128+N), before anything was loaded.  That is also
# clean; the test checks /proc/PID/status SigCgt at the moment of the
# signal and accepts that status only then.  The tool is started with
# SIGINT at its default disposition (env --default-signal), as from a
# terminal: bash starts background jobs with SIGINT ignored.
. "$(dirname "$0")/lib.sh"
need_root
# every start compiles, as the stages below expect: from the compiled-BPF
# cache a start spends milliseconds where clang spends most of a second,
# and no signal would land in the compile
export SWITCHSTAT_BPF_CACHE=off
command -v bpftool >/dev/null || skip "needs bpftool"

# progs_held: ids of BPF programs that any process holds an fd of
progs_held() {
	prog_ids '[0-9]*'
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
	sleep 0.3 # not a window: looks 0.3 s apart at orphans, no count
	b=$(orphans)
	sleep 0.3 # not a window: looks 0.3 s apart at orphans, no count
	c=$(orphans)
	comm -12 <(echo "$a") <(echo "$b") | comm -12 - <(echo "$c")
}

# lingers ID: program ID is still loaded 5 s after its holder exited, and
# no process holds it (an id reused by another instance is held).  The
# kernel frees a raw tracepoint's program only after an RCU grace period
# once its link is closed, so it may show for a moment after the exit.
lingers() {
	local n
	for n in $(seq 1 50); do # not a window: poll for the program's release; 5 s is a hang cap
		bpftool prog show id "$1" >/dev/null 2>&1 || return 1
		progs_held | grep -qx "$1" && return 1
		sleep 0.1
	done
	return 0
}

before=$(persistent_orphans)
[ -z "$before" ] || info "orphan programs before the test (not ours): $before"

# watch PID FILE: record the program ids PID holds until it exits
watch_progs() {
	while kill -0 "$1" 2>/dev/null; do
		prog_ids "$1" >>"$2"
		sleep 0.02
	done
}

# one SIGNAL DELAY ARGS...: start, signal after DELAY s, check the exit
one() {
	local sig=$1 delay=$2 rc=0 i
	shift 2
	local name="$sig-$delay"
	: >"$T/$name.ids"
	env --default-signal=INT,TERM "$SWITCHSTAT" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	local pid=$!
	watch_progs "$pid" "$T/$name.ids" &
	local watcher=$!
	if [ "${delay#+}" != "$delay" ]; then
		# "+X": X seconds after it started tracing
		for i in $(seq 1 3000); do # not a window: poll for the Tracing line; 300 s is a hang cap
			grep -q Tracing "$T/$name.out" "$T/$name.err" && break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		sleep "${delay#+}"
	else
		sleep "$delay"
	fi
	# is the handler installed? (bit N-1 of SigCgt)
	local num caught mask
	num=$(kill -l "$sig")
	mask=$(awk '/^SigCgt:/ { print $2 }' /proc/"$pid"/status 2>/dev/null)
	caught=$(((0x${mask:-0} >> (num - 1)) & 1))
	kill -"$sig" "$pid" 2>/dev/null || fail "$name: switchstat exited before the signal: $(cat "$T/$name.err")"
	# libbcc's compile cannot be interrupted: the flag is seen when it
	# returns (1-3 s on an idle machine, far longer on a loaded one)
	local t0=$SECONDS end=$((SECONDS + SS_HANG_S))
	while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		fail "$name: hang: still running SS_HANG_S=$SS_HANG_S s after SIG$sig"
	fi
	local took=$((SECONDS - t0))
	wait "$pid" || rc=$?
	wait "$watcher"
	local ids n_ids stage=compile
	if [ "$caught" = 0 ] && [ "$rc" -eq $((128 + num)) ]; then
		stage=start # killed by the default action before main's handler
	else
		[ "$rc" -eq 0 ] || fail "$name: exit code $rc after SIG$sig: $(cat "$T/$name.err")"
	fi
	ids=$(sort -un "$T/$name.ids")
	n_ids=$(echo "$ids" | grep -c .)
	[ "$n_ids" -gt 0 ] && stage=attach
	if [ "$stage" = start ] && [ "$n_ids" -gt 0 ]; then
		fail "$name: killed before its handler, yet it held programs"
	fi
	if grep -q Tracing "$T/$name.out" "$T/$name.err"; then
		stage=run
		# the final, partial interval is printed after the signal
		grep -Eq '^(PID|time,)' "$T/$name.out" ||
			fail "$name: stopped while tracing but printed no final interval"
	fi
	for i in $ids; do
		lingers "$i" && fail "$name: program $i left loaded after exit"
	done
	info "$name: exit $rc ${took}s after the signal, stage $stage, $n_ids program(s) held and released"
	echo "$stage" >>"$T/stages"
}

# How long does it take to start tracing here?  (2-3 s on an idle machine,
# a minute on a loaded one.)  The delays below are fractions of that.
t0=$(date +%s%N)
start_tool calib -i 1000
attach_ms=$((($(date +%s%N) - t0) / 1000000))
stop_tool
info "calibration: tracing after $attach_ms ms"
frac() { awk -v ms="$attach_ms" -v f="$1" 'BEGIN { printf "%.2f", ms * f / 1000 }'; }

one INT 0.1 -i 1000
for f in 0.2 0.5 0.8 0.95; do
	one INT "$(frac "$f")" -i 1000
done
one TERM "$(frac 0.5)" -i 1000
one INT +0 -i 1000
one INT +1.5 -i 1000
one TERM +1.5 -i 1000
# while printing: 10 ms intervals, every row
one INT +1 --csv -n 0 -i 10
one TERM +1 -n 0 -i 10
# the stages must really have been hit, or the delays are wrong here
grep -qx compile "$T/stages" || info "note: no run was signalled during compile"
grep -qx run "$T/stages" || fail "no run reached tracing before its signal"

# the reader going away: switchstat | head ends promptly: within 10 times
# the start-up calibrated above (it starts, prints 3 lines of 10 ms
# intervals and must then see the closed pipe)
prompt_s=$((attach_ms * 10 / 1000 + 1))
start=$(date +%s)
timeout "$prompt_s" bash -c "'$SWITCHSTAT' -i 10 -n 0 2>/dev/null | head -3 >/dev/null"
rc=$?
[ "$rc" -ne 124 ] ||
	fail "switchstat | head -3 did not end within $prompt_s s (10 x this run's start-up, $attach_ms ms)"
info "switchstat | head -3 ended after $(($(date +%s) - start)) s (bound $prompt_s s: 10 x the start-up)"

after=$(persistent_orphans)
new=$(comm -13 <(echo "$before") <(echo "$after") | grep . || true)
[ -z "$new" ] || fail "orphan BPF programs after the test: $new"
pass "signals at compile/attach/run/print: exit 0, nothing left loaded"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers for the integration tests (sourced).
# Env from CTest: SWITCHSTAT (binary), WORKLOADS (workload dir), SRC (repo).
# Exit codes: 0 pass, 1 fail, 77 skip.
set -u

SRC=${SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SWITCHSTAT=${SWITCHSTAT:-$SRC/build/switchstat}
WORKLOADS=${WORKLOADS:-$SRC/build/workloads}
T=$(mktemp -d /tmp/ss-test.XXXXXX)
# what a test keeps for a person to look at (screenshots), after it ends
ARTIFACTS=${SS_ARTIFACTS:-/tmp/switchstat-artifacts}
BG_PIDS=()

cleanup() {
	# children first: once a parent is gone, its children are init's and
	# pkill -P no longer finds them
	for p in "${BG_PIDS[@]}"; do
		pkill -KILL -P "$p" 2>/dev/null
		kill -KILL "$p" 2>/dev/null
	done
	wait 2>/dev/null
	# a failed test's files (the tool's whole output and stderr, the
	# workloads' figures) kept for a person to read: a failure seen once
	# in CI can be read without a rerun
	if [ -n "${SS_FAILED:-}" ]; then
		local keep
		keep=$ARTIFACTS/failed/$(basename "$0" .sh)-$$
		mkdir -p "$ARTIFACTS/failed" && cp -a "$T" "$keep" 2>/dev/null &&
			echo "files of this run kept in $keep" >&2
	fi
	rm -rf "$T"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	SS_FAILED=1
	exit 1
}

# SS_HANG_S: how long a condition a test waits for (an attach, a file, a
# workload's progress) may take before the wait is called a hang and the
# test fails.  Not a bound on speed: a slow host only waits longer.
SS_HANG_S=${SS_HANG_S:-120}

# wait_for WHAT CMD...: run CMD every 50 ms until it succeeds; fails the
# test, naming WHAT, only when it has not within SS_HANG_S seconds
wait_for() {
	local what=$1 end=$((SECONDS + SS_HANG_S))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || fail "hang: $what not within SS_HANG_S=$SS_HANG_S s"
		sleep 0.05
	done
}
pass() { echo "PASS: $*"; exit 0; }
skip() { echo "SKIP: $*"; exit 77; }
info() { echo "  $*"; }

need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }

# bg CMD...: start a background process (output to $T/bg.log), remember it
# for cleanup; its pid is in BG_LAST.  Not in $(...): that would wait for it.
bg() {
	"$@" >>"$T/bg.log" 2>&1 &
	BG_LAST=$!
	BG_PIDS+=("$BG_LAST")
}

# hotplug_setup: CPU 1's online file in ONLINE, skipped (77) unless it can
# be taken offline and is online now (and taskset and the spinner are
# there); CPU 1 is put back online on every exit path
hotplug_setup() {
	ONLINE=/sys/devices/system/cpu/cpu1/online
	[ -w "$ONLINE" ] || skip "$ONLINE is not writable (no CPU hotplug here)"
	[ "$(cat "$ONLINE")" = 1 ] || skip "CPU 1 is offline already"
	[ -x "$WORKLOADS/spinner" ] || fail "workload spinner not built in $WORKLOADS"
	command -v taskset >/dev/null || skip "taskset (util-linux) not installed"
	trap hp_cleanup EXIT
}

hp_cleanup() {
	echo 1 >"$ONLINE" 2>/dev/null
	cleanup
}

# cpu_stat_sampler CPU FILE: in the background (bg), every 10 ms a line
# "wall_clock_s idle_ns irq_ns" for CPU: its /proc/stat idle + iowait and
# irq + softirq (fields 5-8, USER_HZ), until the test ends; on CPU 0 (never
# offline, so it never wakes the sampled CPU unless that is 0), real-time
# so its samples are on time under load.  Waits for the first line.
cpu_stat_sampler() {
	bg taskset -c 0 chrt -f 10 python3 -c '
import os, sys, time
want, out = "cpu%s " % sys.argv[1], open(sys.argv[2], "w", buffering=1)
hz = os.sysconf("SC_CLK_TCK")
while True:
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith(want):
                v = line.split()
                out.write("%.6f %d %d\n" % (time.time(), (int(v[4]) + int(v[5])) * 10**9 // hz,
                                             (int(v[6]) + int(v[7])) * 10**9 // hz))
    time.sleep(0.01)
' "$1" "$2"
	wait_file "$2"
}

# bg_badcomm: a background sleeper whose comm is not UTF-8 (bytes 0xff,
# 0xfe: its executable's name), as any process may be named: output
# parsers must take it
bg_badcomm() {
	local exe
	exe="$T/bad$(printf '\xff\xfe')comm"
	cp "$WORKLOADS/sleeper" "$exe"
	bg "$exe" 1000
}

# start_tool NAME ARGS...: run switchstat in the background with stdout in
# $T/NAME.out and stderr in $T/NAME.err; waits until it is attached (the
# "Tracing ..." banner), then returns.  Sets TOOL_PID.
start_tool() {
	local name=$1
	shift
	"$SWITCHSTAT" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	TOOL_PID=$!
	BG_PIDS+=("$TOOL_PID")
	await "$name" "$TOOL_PID"
}

# intervals NAME: how many intervals the tool started as NAME (with -v)
# has ended so far: its per-interval -v lines in $T/NAME.err
intervals() {
	grep -c '^switchstat: [0-9]* rows, ' "$T/$1.err"
}
# wait_intervals NAME N: until the tool NAME (-v) has ended N intervals
wait_intervals() {
	wait_for "$1: $2 intervals ended" intervals_ge "$1" "$2"
}
intervals_ge() { [ "$(intervals "$1")" -ge "$2" ]; }

# exit_tp_settle NAME: where the tool NAME (run with -v) attaches
# sched_exit_tp lazily, as users get it (-v: "until the kernel is seen
# hiding one"), wait until it has ("sched_exit_tp attached"): the slices
# after switches the kernel hides are whole from then on.  Or until 3
# intervals ended in which the kernel hid no switch (it hides none here,
# so nothing starts late).  Keep the measured workloads frozen meanwhile
# and open their window after it.
exit_tp_settle() {
	grep -q "until the kernel is seen hiding one" "$T/$1.err" 2>/dev/null || return 0
	wait_for "$1: sched_exit_tp attached, or 3 intervals without a hidden switch" \
		exit_tp_settled "$1"
}
exit_tp_settled() {
	grep -q "sched_exit_tp attached" "$T/$1.err" && return 0
	[ "$(grep -c ' 0 switches not reported' "$T/$1.err")" -ge 3 ]
}

# expect_exit WANT_RC PATTERN ARGS...: switchstat ARGS must exit WANT_RC
# and print PATTERN (grep -E) on stderr, once.
expect_exit() {
	local want=$1 pat=$2 rc=0
	shift 2
	"$SWITCHSTAT" "$@" >"$T/x.out" 2>"$T/x.err" || rc=$?
	[ "$rc" -eq "$want" ] ||
		{ cat "$T/x.err" >&2; fail "switchstat $* exited $rc, want $want"; }
	[ "$(grep -cE "$pat" "$T/x.err")" -eq 1 ] ||
		{ cat "$T/x.err" >&2; fail "switchstat $*: no '$pat' on stderr"; }
	info "switchstat $*: exit $rc, $(head -1 "$T/x.err")"
}

# wait_tool: wait for TOOL_PID; fail unless it exits 0
wait_tool() {
	local rc=0
	wait "$TOOL_PID" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T"/*.err >&2; fail "switchstat exit code $rc"; }
}

# csv_sum FILE COLUMN [KEYCOL KEYVAL]: sum of COLUMN (by header name) over the
# rows whose KEYCOL equals KEYVAL (all rows without a key)
csv_sum() {
	python3 - "$@" <<'PY'
import csv, sys
f, col = sys.argv[1], sys.argv[2]
kc = sys.argv[3] if len(sys.argv) > 3 else None
kv = sys.argv[4] if len(sys.argv) > 4 else None
tot = 0
with open(f, encoding="latin-1", newline="") as fh:
    for row in csv.DictReader(fh):
        if kc is None or row[kc] == kv:
            v = row[col]
            tot += float(v) if v not in ("", None) else 0
print(int(tot) if tot == int(tot) else tot)
PY
}

# status_sum PID FIELD: sum of FIELD over /proc/PID/task/*/status
status_sum() {
	cat /proc/"$1"/task/*/status 2>/dev/null |
		awk -v f="$2:" '$1 == f { s += $2 } END { print s + 0 }'
}

# schedstat_sum PID: on-CPU ns summed over /proc/PID/task/*/schedstat
schedstat_sum() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# thaw_for_cpu PID BASE_NS NS [WHAT]: continue the frozen PID until its
# schedstat_sum is NS past BASE_NS (polled every 50 ms; a loaded or slow
# CPU only takes longer, SS_HANG_S is a hang), then freeze it again
# (SIGSTOP)
thaw_for_cpu() {
	kill -CONT "$1"
	wait_for "${4:-pid $1}: $3 ns on CPU" cpu_past "$1" "$2" "$3"
	kill -STOP "$1"
}
# cpu_past PID BASE_NS NS: schedstat_sum of PID is NS past BASE_NS
cpu_past() { [ $(($(schedstat_sum "$1") - $2)) -ge "$3" ]; }

# run_for_cpu NS PID...: with the PIDs running, wait until each has run
# NS ns on a CPU (schedstat) since the call: a workload's window as long
# as its oracle needs, however slow or loaded the host (SS_HANG_S is a
# hang), instead of a fixed sleep
run_for_cpu() {
	local ns=$1 p
	shift
	declare -gA RFC0
	for p in "$@"; do RFC0[$p]=$(schedstat_sum "$p"); done
	wait_for "pids $*: $ns ns on CPU each" ran_for_cpu "$ns" "$@"
}
ran_for_cpu() {
	local ns=$1 p
	shift
	for p in "$@"; do cpu_past "$p" "${RFC0[$p]}" "$ns" || return 1; done
}

# minflt PID: minor faults of the process (/proc/PID/stat field 10)
minflt() {
	sed 's/.*) //' /proc/"$1"/stat | awk '{ print $8 }'
}

# two_cpus: sets CPU_A and CPU_B, the first and last online CPUs; skips
# the test when only one is online
two_cpus() {
	read -r CPU_A CPU_B < <(python3 -c '
cpus = []
for part in open("/sys/devices/system/cpu/online").read().strip().split(","):
    a, _, b = part.partition("-")
    cpus += range(int(a), int(b or a) + 1)
print(cpus[0], cpus[-1])')
	[ "$CPU_A" != "$CPU_B" ] || skip "needs 2 online CPUs"
}

# pipe_rtt_ns [LOOPS]: this host's pipe round trip between two tasks
# now, in ns (perf bench sched pipe, LOOPS round trips, default 20000,
# run with no tool attached): the control a per-switch allowance is
# scaled by (2.2 us on the host the accuracy figures were taken on, 6-13
# us on slower ones); empty when no perf here can run the bench
pipe_rtt_ns() {
	local p
	for p in perf $(cd /usr/bin && ls perf_* 2>/dev/null | sort -rV); do
		command -v "$p" >/dev/null || continue
		"$p" bench sched pipe -l "${1:-20000}" 2>/dev/null |
			awk '/usecs\/op/ { printf "%.0f\n", $1 * 1000; ok = 1 } END { exit !ok }' && return 0
	done
	return 0
}

# perf_start TIDS FILE: perf stat counting task-clock per thread of TIDS
# (a comma list) into FILE (CSV); returns once its events are open, so
# stop the threads first.  perf_stop: ends it, and FILE has the counts.
# task_clock_ns FILE TID: TID's task-clock in FILE, ns.
perf_start() {
	local n
	find_perf
	"$PERF" stat -e task-clock --per-thread -t "$1" -x, -o "$2" &
	PERF_PID=$!
	BG_PIDS+=("$PERF_PID")
	n=$(($(tr -cd , <<<"$1" | wc -c) + 1))
	wait_for "perf stat: its $n events open" perf_open "$n" "$2"
}
perf_open() {
	[ "$(ls -l /proc/"$PERF_PID"/fd 2>/dev/null | grep -c perf_event)" -ge "$1" ] && return 0
	kill -0 "$PERF_PID" 2>/dev/null || fail "perf stat exited: $(cat "$2")"
	return 1
}
perf_stop() {
	kill -INT "$PERF_PID"
	wait "$PERF_PID" || true
}
task_clock_ns() {
	awk -F, -v t="$2" '$4 == "task-clock" { n = split($1, a, "-"); if (a[n] == t) printf "%.0f\n", $2 * 1e6 }' "$1"
}

# prog_ids PID...: ids of the BPF programs whose fds the PIDs hold (a PID
# may be a glob such as [0-9]*), sorted, one per line
prog_ids() {
	local p
	for p in "$@"; do
		# shellcheck disable=SC2086 # $p may be a glob
		grep -h '^prog_id:' /proc/$p/fdinfo/* 2>/dev/null
	done | awk '{ print $2 }' | sort -un
}

# unowned_slices ERRFILE: slices whose owner switchstat could not know,
# summed over the -v lines of ERRFILE: after a switch it missed (regular
# path) or one the kernel did not report (raw path)
unowned_slices() {
	grep -oE '[0-9]+ (missed switch|switches not reported)' "$1" |
		awk '{ s += $1 } END { print s + 0 }'
}

# kernel_tick_ms: the kernel's tick (1000 / CONFIG_HZ) in ms, from the
# running kernel's config (/proc/config.gz or /boot/config-$(uname -r));
# 10 (HZ=100, the longest) when neither is there
kernel_tick_ms() {
	local hz
	hz=$({ zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
		sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' | head -n 1)
	[ -n "$hz" ] && [ "$hz" -gt 0 ] || hz=100
	awk -v hz="$hz" 'BEGIN { printf "%g\n", 1000 / hz }'
}

# task_clock_lag_ms ERRFILE: under the kernel's task clock (the tool's -v
# in ERRFILE says "on-CPU time: the kernel's clock"), how late, in ms, a
# CPU's share of an interval may be charged: the kernel updates a running
# task's se.sum_exec_runtime at its ticks, so at an interval edge the task
# running there is charged up to one tick late (in the next interval); 0
# on the window clock
task_clock_lag_ms() {
	if grep -q "on-CPU time: the kernel's clock" "$1"; then
		kernel_tick_ms
	else
		echo 0
	fi
}

# within_pct GOT WANT PCT [ABOVE]: |GOT - WANT| <= PCT% of WANT, except
# that GOT may exceed WANT by ABOVE more (same units as GOT: a steal
# allowance, steal_end); prints the error
within_pct() {
	python3 - "$1" "$2" "$3" "${4:-0}" <<'PY'
import sys
try:
    got, want, pct, above = map(float, sys.argv[1:5])
except ValueError:
    # an empty value is a helper (csv_sum...) that failed: say so
    print("not numbers: got %r want %r limit %r above %r" % tuple(sys.argv[1:5]))
    sys.exit(1)
err = abs(got - want) / want * 100 if want else (0 if got == 0 else 100)
ok = err <= pct
if above and got > want:
    # the error beyond the allowance
    ok = (got - want - above) <= pct * want / 100
print("got %.0f want %.0f error %.3f%% (limit %s%%%s)" % (got, want, err, sys.argv[3],
      " + %.0f above: steal" % above if above else ""))
sys.exit(0 if ok else 1)
PY
}

# check_within WHAT GOT WANT PCT [ABOVE]: fail the test unless within_pct
check_within() {
	local what=$1 out
	if out=$(within_pct "$2" "$3" "$4" "${5:-0}"); then
		info "$what: $out"
	else
		fail "$what: $out"
	fi
}

# cpu_steal_ns CPU...: the time the hypervisor stole from those CPUs since
# boot, summed, in ns (/proc/stat, the eighth value of each cpuN line, in
# USER_HZ ticks: each CPU's figure is rounded down to a tick)
cpu_steal_ns() {
	awk -v cpus=" $* " -v hz="$(getconf CLK_TCK)" '
		$1 ~ /^cpu[0-9]+$/ && index(cpus, " " substr($1, 4) " ") { s += $9 }
		END { printf "%.0f\n", s * 1e9 / hz }' /proc/stat
}

# steal_begin CPU...: start a steal window on those CPUs (the ones the
# workload runs on); steal_end [WHAT]: STEAL_NS, the steal allowance of
# the window: what the hypervisor stole from those CPUs since steal_begin
# plus one USER_HZ tick per CPU for the rounding of the two reads (0 where
# the CPUs report no steal at all), printed.  A time on the sched_switch
# window (bpf_ktime_get_ns: --trace slices, the tool's rows under
# SWITCHSTAT_TEST=window_clock) or of a perf time event (cpu-clock,
# task-clock) includes stolen time; the kernel's task clock
# (se.sum_exec_runtime on rq_clock_task: schedstat, and the tool's rows
# where -v says "on-CPU time: the kernel's clock") leaves it out under
# CONFIG_PARAVIRT_TIME_ACCOUNTING, so the former may exceed the latter by
# up to the steal, never fall short of it: add STEAL_NS to the upper bound
# of such a comparison only, with the window or perf figure as GOT.
steal_begin() {
	STEAL_CPUS="$*"
	STEAL0=$(cpu_steal_ns "$@")
}
steal_end() {
	local hz tick s1 c
	hz=$(getconf CLK_TCK)
	tick=$((1000000000 / hz))
	# shellcheck disable=SC2086 # a list of CPUs
	s1=$(cpu_steal_ns $STEAL_CPUS)
	STEAL_NS=$((s1 - STEAL0))
	for c in $STEAL_CPUS; do
		[ "$(cpu_steal_ns "$c")" -gt 0 ] && STEAL_NS=$((STEAL_NS + tick))
	done
	info "${1:-window}: steal allowance $((STEAL_NS / 1000)) us (CPUs $STEAL_CPUS: $(((s1 - STEAL0) / 1000)) us stolen + 1 tick per CPU)"
}

# all_cpus: the online CPUs, space separated (for steal_begin)
all_cpus() {
	python3 -c '
cpus = []
for part in open("/sys/devices/system/cpu/online").read().strip().split(","):
    a, _, b = part.partition("-")
    cpus += range(int(a), int(b or a) + 1)
print(*cpus)'
}

# wait_file FILE: wait until FILE is non-empty (workloads write their pids)
wait_file() {
	wait_for "$1 written" test -s "$1"
}

# wait_threads PID N: poll until process PID has at least N threads
wait_threads() {
	wait_for "process $1 with $2 threads" nthreads_ge "$1" "$2"
}
nthreads_ge() { [ "$(ls /proc/"$1"/task 2>/dev/null | wc -l)" -ge "$2" ]; }

# wait_comm PID NAME: poll until process PID is named NAME (its prctl ran)
wait_comm() {
	wait_for "process $1 named $2" comm_is "$1" "$2"
}
comm_is() { [ "$(cat /proc/"$1"/comm 2>/dev/null)" = "$2" ]; }

# all_stopped PID...: every thread of every PID is in state T (stopped)
all_stopped() {
	local p s
	for p in "$@"; do
		for s in /proc/"$p"/task/*/stat; do
			# LC_ALL=C: a comm that is not UTF-8 (bg_badcomm) still matches .*
			[ "$(LC_ALL=C sed 's/.*) //' "$s" | cut -d' ' -f1)" = T ] || return 1
		done
	done
}

# freeze PID...: SIGSTOP and wait until all their threads are off the CPU,
# so /proc snapshots and the tracer see the same window
freeze() {
	kill -STOP "$@"
	all_stopped "$@" || wait_for "processes $* stopped" all_stopped "$@"
}

thaw() { kill -CONT "$@"; }

# stop_tool: SIGINT the tool (it prints the final partial interval) and wait
stop_tool() {
	kill -INT "$TOOL_PID"
	wait_tool
}

# launch NAME ARGS...: switchstat in the background, output in $T/NAME.*;
# sets LAUNCHED.  await NAME PID: until it is attached (its banner).
# Unlike start_tool, several can be launched first and awaited together.
launch() {
	local name=$1
	shift
	"$SWITCHSTAT" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	LAUNCHED=$!
	BG_PIDS+=("$LAUNCHED")
}
await() {
	# SS_ATTACH_TIMEOUT_S: the hang limit of an attach alone (tests/vm)
	local SS_HANG_S=${SS_ATTACH_TIMEOUT_S:-$SS_HANG_S}
	wait_for "$1: attach (its banner)" attached "$1" "$2"
}
# attached NAME PID: its banner is out; fails the test if it has exited
attached() {
	grep -q Tracing "$T/$1.out" "$T/$1.err" 2>/dev/null && return 0
	kill -0 "$2" 2>/dev/null || { cat "$T/$1.err" >&2; fail "$1: exited before attaching"; }
	return 1
}
# reap PID NAME: wait for it, fail unless exit code 0
reap() {
	local rc=0
	wait "$1" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T/$2.err" >&2; fail "$2: exit code $rc"; }
}

# reap_shared PIDS NAMES WL: the runs whose pids and names are in the
# arrays named PIDS and NAMES traced one workload, WL, that wrote $T/many.wl:
# SIGINT them all, reap each (fail unless exit code 0), give each run its
# copy of the workload's output ($T/NAME.wl), then kill WL
reap_shared() {
	local -n rs_pids=$1 rs_names=$2
	local i
	kill -INT "${rs_pids[@]}"
	for i in "${!rs_pids[@]}"; do
		reap "${rs_pids[$i]}" "${rs_names[$i]}"
		cp "$T/many.wl" "$T/${rs_names[$i]}.wl"
	done
	kill -KILL "$3" 2>/dev/null
	wait "$3" 2>/dev/null
}

# cg2_mount: the cgroup v2 mount point (empty if none)
cg2_mount() {
	awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
		/proc/self/mountinfo | head -n 1
}

# CG_BASE: where below the cgroup v2 mount the tests make their cgroups
# (a path from the mount, "" for its root): under scripts/test.sh
# --throttled the run's own cgroup (SS_CG_BASE), so that what a test moves
# there stays in the run's cap; its children get the controllers the
# root's have
CG_BASE=${SS_CG_BASE:-}

# cg_remove DIR...: remove cgroup directories, each with its descendants
# (any names), deepest first; a cgroup whose last task is still exiting is retried for
# up to 1 s
cg_remove() {
	local top d
	for top in "$@"; do
		[ -d "$top" ] || continue
		while IFS= read -r -d '' d; do
			for _ in 1 2 3 4 5 6 7 8 9 10; do
				rmdir "$d" 2>/dev/null && break
				sleep 0.1 # not a window: cleanup retry
			done
		done < <(find "$top" -depth -type d -print0 2>/dev/null)
	done
}

# gated_done FILE: the gated workload WL printed FILE and stopped itself
gated_done() {
	[ -s "$1" ] && grep -q '^State:.*stopped' /proc/"$WL"/status 2>/dev/null
}

# run_gated NAME WORKLOAD WLARGS... -- TOOL_ARGS...: a workload that waits
# for a go FIFO (@FIFO in WLARGS), prints its figures (to $T/NAME.wl) and
# stops itself (SIGSTOP), run under switchstat TOOL_ARGS (@WL: its pid):
# the tool attached (and, with -v, sched_exit_tp: exit_tp_settle), the
# go given, until the workload has printed and
# stopped; then, frozen, GATED_EDGES more interval edges (default 0; the
# tool must run with -v: its interval lines are counted),
# the exporter scraped into $T/NAME.prom if PORT is set (prom_lib.sh),
# the tool stopped.  The workload is left stopped, its pid in WL: read
# $T/NAME.wl, then kill it.  Never signals it inside the measured window.
# GATED_WL_CPU / GATED_TOOL_CPU: pin the workload / all of switchstat's
# threads to that CPU.
run_gated() {
	local name=$1 wl=$2 a
	local wargs=() targs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		wargs+=("${1//@FIFO/$T/go.fifo}")
		shift
	done
	shift
	rm -f "$T/go.fifo"
	mkfifo "$T/go.fifo"
	local pin=()
	[ -n "${GATED_WL_CPU:-}" ] && pin=(taskset -c "$GATED_WL_CPU")
	"${pin[@]}" "$WORKLOADS/$wl" "${wargs[@]}" >"$T/$name.wl" &
	WL=$!
	BG_PIDS+=("$WL")
	for a in "$@"; do targs+=("${a//@WL/$WL}"); done
	start_tool "$name" "${targs[@]}"
	exit_tp_settle "$name"
	if [ -n "${GATED_TOOL_CPU:-}" ]; then
		taskset -a -p -c "$GATED_TOOL_CPU" "$TOOL_PID" >/dev/null ||
			fail "$name: cannot pin switchstat to CPU $GATED_TOOL_CPU"
	fi
	echo g >"$T/go.fifo"
	wait_for "$name: the workload printed and stopped" gated_done "$T/$name.wl"
	[ "${GATED_EDGES:-0}" -gt 0 ] &&
		wait_intervals "$name" $(($(intervals "$name") + GATED_EDGES))
	if [ -n "${PORT:-}" ]; then
		scrape "$PORT" >"$T/$name.prom" || fail "$name: scrape"
	fi
	stop_tool
}

# cpu1_is STATE: wait until the kernel reports CPU 1 (hotplug_setup's
# ONLINE) online (1) or offline (0); polled every 10 ms, so a test can act
# right after the change, before a uevent of it is handled
cpu1_is() {
	local end=$((SECONDS + SS_HANG_S))
	until [ "$(cat "$ONLINE")" = "$1" ]; do
		[ "$SECONDS" -lt "$end" ] || fail "hang: CPU 1 online = $1 not within SS_HANG_S=$SS_HANG_S s"
		sleep 0.01
	done
}

# cpu1_offline_for S: take CPU 1 offline, keep it offline S seconds once
# the kernel says so, bring it back; returns once it is online again
cpu1_offline_for() {
	echo 0 >"$ONLINE" || fail "cannot take CPU 1 offline"
	cpu1_is 0
	sleep "$1"
	echo 1 >"$ONLINE" || fail "cannot bring CPU 1 back online"
	cpu1_is 1
}

# find_perf [WHY]: PERF, the first perf (or Debian's perf_VERSION) that
# counts task-clock here; skips (77) the test when none does, naming WHY
find_perf() {
	local p
	PERF=""
	for p in perf $(cd /usr/bin && ls perf_* 2>/dev/null | sort -rV); do
		if command -v "$p" >/dev/null && "$p" stat -e task-clock true >/dev/null 2>&1; then
			PERF=$p
			return 0
		fi
	done
	skip "needs a working perf (linux-perf)${1:+ $1}"
}

# threads_parked PID: every thread of PID but the main one blocks for good
# in pause() (wchan __do_sys_pause; rt_sigsuspend where libc's pause() is
# that): sleepthreads' threads are past their three sleeps
threads_parked() {
	local t
	for t in /proc/"$1"/task/*; do
		[ "${t##*/}" = "$1" ] && continue
		grep -qE 'pause|sigsuspend' "$t/wchan" 2>/dev/null || return 1
	done
}

# unowned_ns ERRFILE: CPU time whose owner the tool could not know, ns,
# summed over the --check lines of ERRFILE ("+ missed X ms": slices
# ended by a switch the kernel did not report); each line's figure is
# printed to 0.1 ms, so 0.05 ms is added per line to cover its rounding
unowned_ns() {
	grep -oE '\+ missed [0-9.]+ ms' "$1" |
		awk '{ s += $3 + 0.05 } END { printf "%.0f\n", s * 1e6 }'
}

# skip_counts ERRFILE: what the -v lines of ERRFILE say the probes
# skipped (slices: first, missed switch, clock; dropped rows; switches
# not reported; slices spanning offline time), summed, one line
skip_counts() {
	python3 - "$1" <<'PY'
import re, sys
pats = [("first", r"(\d+) first,"), ("missed switch", r"(\d+) missed switch"),
        ("clock", r"(\d+) clock;"), ("dropped", r"(\d+) dropped"),
        ("not reported", r"(\d+) switches not reported"),
        ("offline", r"(\d+) slices skipped \(spanning offline")]
tot = dict.fromkeys(k for k, _ in pats)
for line in open(sys.argv[1], errors="replace"):
    if not line.startswith("switchstat: ") or " rows, " not in line:
        continue
    for k, p in pats:
        m = re.search(p, line)
        if m:
            tot[k] = (tot[k] or 0) + int(m.group(1))
print(", ".join("%s %d" % (k, v) for k, v in tot.items() if v is not None))
PY
}

# check_within_short WHAT GOT WANT PCT SHORT [NOTE]: fail the test unless
# |GOT - WANT| <= PCT% of WANT, except that GOT may fall short of WANT by
# SHORT more (same units: time the tool reported it could not own);
# NOTE is added to the failure's line
check_within_short() {
	local what=$1 out
	if out=$(python3 - "$2" "$3" "$4" "$5" <<'PY'
import sys
try:
    got, want, pct, short = map(float, sys.argv[1:5])
except ValueError:
    print("not numbers: got %r want %r limit %r short %r" % tuple(sys.argv[1:5]))
    sys.exit(1)
err = abs(got - want) / want * 100 if want else (0 if got == 0 else 100)
ok = err <= pct
if short and got < want:
    ok = (want - got - short) <= pct * want / 100
print("got %.0f want %.0f error %.3f%% (limit %s%%%s)" % (got, want, err,
      sys.argv[3], " + %.0f below: unowned" % short if short else ""))
sys.exit(0 if ok else 1)
PY
	); then
		info "$what: $out"
	else
		fail "$what: $out${6:+; $6}"
	fi
}

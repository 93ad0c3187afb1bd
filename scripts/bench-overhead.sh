#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-overhead.sh - what tracing sched_switch costs a switch-heavy program.
#
# Runs `perf bench sched pipe` pinned to CPU 0 (two tasks bouncing a pipe:
# every round trip is two context switches) under four variants, in
# alternating rounds so drift (other load, frequency) hits all alike:
#
#   base      no tracer
#   default   switchstat in its default mode
#   counters  switchstat -e cpu-clock,task-clock,page-faults (software
#             counters: this machine has no PMU)
#   bpftrace  tracepoint:sched:sched_switch { @[args->prev_comm] = count(); }
#
# CPU 1 is kept busy by a spinning shell loop during every variant: on this
# VM an idle sibling vCPU makes the pipe benchmark about 2x slower and far
# noisier (7.5 vs 15-25 usecs/op), which would swamp the tracers' cost.
# The tracers' own user space runs on CPU 1 too (it wakes once a second).
#
# Prints, per variant, the median usecs per round trip, the slowdown ratio
# to the baseline's median, and the median ns per run of each of the
# tracer's BPF programs (run_time_ns / run_cnt from bpf_stats, over the
# benchmark only).  bpf_stats (kernel.bpf_stats_enabled) is on for all
# variants, the baseline too, and restored at exit.
#
# Usage: scripts/bench-overhead.sh [-r ROUNDS] [-l LOOPS] [-b SWITCHSTAT]
#        [-o CSV] [-x VARIANT]...
#   -r ROUNDS  rounds (default 5; medians need >= 5)
#   -l LOOPS   perf bench loops per run (default 200000)
#   -b PATH    switchstat binary (default build/switchstat, then PATH)
#   -o CSV     also write every measurement as CSV
#   -x NAME    skip a variant (repeatable)
# Needs root, perf (Debian linux-perf: perf or perf_<ver>), bpftool;
# bpftrace optional (its variant is skipped with a note if missing).
set -u

ROUNDS=5
LOOPS=200000
SS=""
CSV=""
SKIP=" "
while getopts "r:l:b:o:x:h" c; do
	case $c in
	r) ROUNDS=$OPTARG ;;
	l) LOOPS=$OPTARG ;;
	b) SS=$OPTARG ;;
	o) CSV=$OPTARG ;;
	x) SKIP="$SKIP$OPTARG " ;;
	*) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
case $ROUNDS$LOOPS in *[!0-9]*) echo "bench: -r and -l want numbers" >&2; exit 2 ;; esac
[ "$ROUNDS" -ge 1 ] && [ "$LOOPS" -ge 1000 ] || { echo "bench: want -r >= 1 and -l >= 1000" >&2; exit 2; }

here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$SS" ]; then
	SS=$here/build/switchstat
	[ -x "$SS" ] || SS=$(command -v switchstat || true)
fi
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root" >&2; exit 1; }
[ -n "$SS" ] && [ -x "$SS" ] || { echo "bench: switchstat binary not found (use -b)" >&2; exit 1; }
command -v bpftool >/dev/null || { echo "bench: needs bpftool" >&2; exit 1; }

# Debian's perf is a wrapper that runs perf_<kernel version>; with another
# kernel running, call a versioned binary directly.
PERF=""
for p in perf $(cd /usr/bin && ls perf_* 2>/dev/null | sort -rV); do
	if command -v "$p" >/dev/null && "$p" bench sched pipe -l 10 >/dev/null 2>&1; then
		PERF=$p
		break
	fi
done
[ -n "$PERF" ] || { echo "bench: perf not found or not working (apt-get install linux-perf)" >&2; exit 1; }

VARIANTS="base default counters bpftrace"
if ! command -v bpftrace >/dev/null; then
	echo "bench: bpftrace not installed: skipping its variant" >&2
	SKIP="$SKIP""bpftrace "
fi
run_variants=""
for v in $VARIANTS; do
	case "$SKIP" in *" $v "*) ;; *) run_variants="$run_variants $v" ;; esac
done

W=$(mktemp -d /tmp/ss-bench.XXXXXX)
STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled)
TRACER=""
BUSY=""
cleanup() {
	[ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null
	[ -n "$TRACER" ] && kill -INT "$TRACER" 2>/dev/null && wait "$TRACER" 2>/dev/null
	sysctl -q -w kernel.bpf_stats_enabled="$STATS_WAS"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
sysctl -q -w kernel.bpf_stats_enabled=1
taskset -c 1 sh -c 'while :; do :; done' &
BUSY=$!

# prog_ids PID: ids of the BPF programs whose fds PID holds
prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un
}

# prog_stats ID: "name run_time_ns run_cnt" of one program
prog_stats() {
	bpftool -j prog show id "$1" 2>/dev/null | python3 -c '
import json, sys
p = json.load(sys.stdin)
print(p.get("name", "?"), p.get("run_time_ns", 0), p.get("run_cnt", 0))'
}

# start_tracer VARIANT: start it, wait until its programs run, then move it
# to CPU 1 (away from the benchmark; compiling there next to the busy loop
# would take long); sets TRACER (pid) and IDS (program ids)
start_tracer() {
	local i variant=$1
	case $variant in
	default) "$SS" -i 1000 >/dev/null 2>"$W/err" & ;;
	counters) "$SS" -v -i 1000 -e cpu-clock,task-clock,page-faults >/dev/null 2>"$W/err" & ;;
	bpftrace)
		ulimit -l unlimited 2>/dev/null
		bpftrace -e 'tracepoint:sched:sched_switch { @[args->prev_comm] = count(); }' >/dev/null 2>"$W/err" & ;;
	esac
	TRACER=$!
	IDS=""
	for i in $(seq 1 600); do
		kill -0 "$TRACER" 2>/dev/null || { cat "$W/err" >&2; echo "bench: $variant exited early" >&2; exit 1; }
		IDS=$(prog_ids "$TRACER")
		if [ -n "$IDS" ]; then
			# attached once the sched_switch program has run
			local id
			for id in $IDS; do
				set -- $(prog_stats "$id")
				if [ "${3:-0}" -gt 0 ]; then
					# compiled and attached: now keep it off CPU 0
					taskset -a -p -c 1 "$TRACER" >/dev/null
					sleep 0.2
					# -e must really read counters at each switch
					if [ "$variant" = counters ] && ! grep -q 'SS_NR_COUNTERS=3' "$W/err"; then
						echo "bench: this switchstat ignores -e (no SS_NR_COUNTERS=3 in its -v cflags): counters variant measures the default path" >&2
					fi
					return 0
				fi
			done
		fi
		sleep 0.1
	done
	echo "bench: $variant did not attach within 60 s" >&2
	exit 1
}

# stop_tracer: SIGINT, repeated every 2 s (bpftrace 0.17 sometimes misses
# one), SIGKILL after 10 s
stop_tracer() {
	local i
	for i in $(seq 0 99); do
		kill -0 "$TRACER" 2>/dev/null || break
		[ $((i % 20)) -eq 0 ] && kill -INT "$TRACER" 2>/dev/null
		sleep 0.1
	done
	kill -KILL "$TRACER" 2>/dev/null
	wait "$TRACER" 2>/dev/null
	TRACER=""
}

# bench: usecs per round trip of one perf bench run on CPU 0
bench() {
	taskset -c 0 "$PERF" bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1 }'
}

echo "# $(uname -r), $(nproc) CPUs, $PERF bench sched pipe -l $LOOPS on CPU 0, $ROUNDS rounds"
echo "# switchstat: $SS"
: >"$W/data"
for r in $(seq 1 "$ROUNDS"); do
	# rotate the order each round so no variant always runs first
	vs=($run_variants)
	k=$(((r - 1) % ${#vs[@]}))
	order="${vs[*]:k} ${vs[*]:0:k}"
	for v in $order; do
		IDS=""
		[ "$v" != base ] && start_tracer "$v"
		declare -A t0=() c0=()
		for id in $IDS; do
			set -- $(prog_stats "$id")
			t0[$id]=$2
			c0[$id]=$3
		done
		us=$(bench)
		[ -n "$us" ] || { echo "bench: perf bench failed" >&2; exit 1; }
		progs=""
		for id in $IDS; do
			set -- $(prog_stats "$id")
			dc=$(($3 - ${c0[$id]}))
			[ "$dc" -gt 0 ] || continue
			ns=$(awk -v t=$(($2 - ${t0[$id]})) -v c=$dc 'BEGIN { printf "%.1f", t / c }')
			progs="$progs $1=$ns"
			echo "$r,$v,$us,$1,$ns,$dc" >>"$W/data"
		done
		[ -z "$progs" ] && echo "$r,$v,$us,,," >>"$W/data"
		printf '  round %d %-9s %8s usecs/op%s\n' "$r" "$v" "$us" "$progs" >&2
		[ "$v" != base ] && stop_tracer
	done
done
[ -n "$CSV" ] && { echo "round,variant,usecs_op,prog,ns_per_run,runs"; cat "$W/data"; } >"$CSV"

python3 - "$W/data" $run_variants <<'PY'
import statistics as st, sys
rows = [l.rstrip("\n").split(",") for l in open(sys.argv[1])]
variants = sys.argv[2:]
us = {v: {} for v in variants}
ns = {v: {} for v in variants}
for r, v, u, prog, n, _ in rows:
    us[v][r] = float(u)
    if prog:
        ns[v].setdefault(prog, []).append(float(n))
base = st.median(us["base"].values()) if us.get("base") else None
print("%-9s %12s %9s  %s" % ("variant", "usecs/op", "slowdown", "BPF ns/run (median; program)"))
for v in variants:
    m = st.median(us[v].values())
    ratio = "%.3fx" % (m / base) if base else "-"
    progs = ", ".join("%.1f %s" % (st.median(x), p) for p, x in sorted(ns[v].items()))
    print("%-9s %12.3f %9s  %s" % (v, m, ratio, progs or "-"))
PY

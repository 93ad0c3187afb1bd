#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# measure-counters.sh - cost of the sched_switch program (ns per run, from
# the kernel's bpf_stats) with 0, 1 and 3 software counters, next to an
# empty sched_switch program loaded with bpftrace.
#
# Usage: scripts/measure-counters.sh [BUILD_DIR] [SECONDS] [ROUNDS]
#   (as root; defaults: build, 5, 3).  A pipe ping-pong keeps switches
#   coming.  Configurations run in turn, ROUNDS times; the median ns/run of
#   each is printed, and each counter's cost as (N counters - 0) / N.
#   Software events are read with bpf_perf_event_read; the "with times" rows
#   force the read hardware events use (bpf_perf_event_read_value) through
#   SWITCHSTAT_TEST=counter_times.  bpf_stats times are wall time inside the
#   program: on a busy machine they include cache misses, so compare rows
#   of one run, not runs on different days.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$SRC/build}
SECS=${2:-5}
ROUNDS=${3:-3}
SS=$B/switchstat
T=$(mktemp -d /tmp/ss-measure.XXXXXX)
PIDS=()

cleanup() {
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	[ -n "${OLD_STATS:-}" ] &&
		echo "$OLD_STATS" >/proc/sys/kernel/bpf_stats_enabled
	rm -rf "$T"
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || { echo "measure-counters: run as root" >&2; exit 1; }
[ -x "$SS" ] || { echo "measure-counters: no $SS (build first)" >&2; exit 1; }

# bpf_stats on for the whole measurement (switchstat --self-stats also
# turns it on by itself), the old value back at exit
OLD_STATS=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled

"$B/workloads/pingpong" "$T/pp.pids" &
PIDS+=($!)
sleep 0.5
read -r PING PONG <"$T/pp.pids"
PIDS+=("$PING" "$PONG")

# switchstat ARGS...: ns/run of the sched_switch program from --self-stats
run_ss() {
	"$SS" --self-stats --csv -n 1 -i $((SECS * 1000)) -d "$SECS" "$@" \
		>/dev/null 2>"$T/ss.err" || { cat "$T/ss.err" >&2; exit 1; }
	awk '$1 == "tracepoint__sched__sched_switch" { print $3 }' "$T/ss.err"
}

# stop_bpftrace PID: SIGINT, then SIGKILL if it is still there after 5 s
stop_bpftrace() {
	local i
	kill -INT "$1" 2>/dev/null || true
	for i in $(seq 1 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# an empty sched_switch program (bpftrace): ns/run over SECS seconds
run_empty() {
	command -v bpftrace >/dev/null && command -v bpftool >/dev/null ||
		{ echo "n/a"; return; }
	bpftrace -e 'tracepoint:sched:sched_switch { }' >/dev/null 2>&1 &
	local bt=$!
	local before="" id="" i
	for i in $(seq 1 100); do # our program: the prog_id in bpftrace's fds
		id=$(cat /proc/"$bt"/fdinfo/* 2>/dev/null |
			awk '$1 == "prog_id:" { print $2; exit }')
		[ -n "$id" ] && break
		sleep 0.1
	done
	[ -n "$id" ] && sleep 1 && before=$(bpftool prog show id "$id" -j |
		python3 -c '
import json, sys
p = json.load(sys.stdin)
print(p["id"], p.get("run_time_ns", 0), p.get("run_cnt", 0))')
	[ -n "$before" ] || { stop_bpftrace "$bt"; echo "n/a"; return; }
	sleep "$SECS"
	bpftool prog show id "$id" -j | python3 -c '
import json, sys
p = json.load(sys.stdin)
_, t0, n0 = map(int, sys.argv[1:4])
dn = p.get("run_cnt", 0) - n0
print("%.1f" % ((p.get("run_time_ns", 0) - t0) / dn) if dn else "n/a")' $before
	stop_bpftrace "$bt"
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "n/a") }'; }

declare -A R
for r in $(seq 1 "$ROUNDS"); do
	R[empty]+=" $(run_empty)"
	R[c0]+=" $(run_ss --no-counters)"
	R[c1]+=" $(run_ss -e cpu-clock)"
	R[c3]+=" $(run_ss -e cpu-clock,page-faults,context-switches)"
	# the PMU-event read (bpf_perf_event_read_value with times), forced
	R[t1]+=" $(SWITCHSTAT_TEST=counter_times run_ss -e cpu-clock)"
	R[t3]+=" $(SWITCHSTAT_TEST=counter_times run_ss -e cpu-clock,page-faults,context-switches)"
	echo "round $r: empty ${R[empty]##* } 0: ${R[c0]##* }" \
		"1: ${R[c1]##* } 3: ${R[c3]##* } 1t: ${R[t1]##* }" \
		"3t: ${R[t3]##* } (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done

e=$(echo "${R[empty]}" | median)
c0=$(echo "${R[c0]}" | median)
c1=$(echo "${R[c1]}" | median)
c3=$(echo "${R[c3]}" | median)
t1=$(echo "${R[t1]}" | median)
t3=$(echo "${R[t3]}" | median)
printf "%-44s %8s\n" "sched_switch program (median of $ROUNDS x ${SECS}s)" "ns/run"
printf "%-44s %8s\n" "empty program (bpftrace)" "$e"
printf "%-44s %8s\n" "switchstat --no-counters" "$c0"
printf "%-44s %8s\n" "switchstat -e cpu-clock" "$c1"
printf "%-44s %8s\n" "switchstat -e cpu-clock,page-faults,cs" "$c3"
printf "%-44s %8s\n" "  same, read as PMU events (with times): 1" "$t1"
printf "%-44s %8s\n" "  same, read as PMU events (with times): 3" "$t3"
awk -v a="$c0" -v b="$c1" -v c="$c3" -v d="$t1" -v e="$t3" 'BEGIN {
	printf "per counter: %.1f ns (1 event), %.1f ns (3 events)\n", b - a, (c - a) / 3
	printf "per counter read with times: %.1f ns (1), %.1f ns (3)\n", d - a, (e - a) / 3 }'

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# measure-top.sh - what the --top view costs: N live processes (default
# 1000, each a nanosleep loop waking every second, so every one is a row
# each interval), switchstat -i 1000 for SECONDS (default 60) twice: --top
# in a tmux pane (120x40), then the plain table (-n 0, every row) to
# /dev/null.  Prints each run's CPU (utime+stime of the switchstat process
# over the run, /proc/PID/stat) as % of one CPU, and compare the two for the view's own cost over the table's.
# Usage: scripts/measure-top.sh [N] [SECONDS]   (as root, after a build)
set -euo pipefail
N=${1:-1000}
SECS=${2:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
SWITCHSTAT=${SWITCHSTAT:-$here/build/switchstat}
SLEEPER=$here/build/workloads/sleeper
T=$(mktemp -d /tmp/ss-measure.XXXXXX)
TM=(tmux -L "ss-measure-$$" -f /dev/null)
pids=()
cleanup() {
	"${TM[@]}" kill-server 2>/dev/null || true
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/ss-measure-$$"
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT
for _ in $(seq 1 "$N"); do
	"$SLEEPER" 1000000 &
	pids+=($!)
done
tck=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' /proc/"$1"/stat; }
# on-CPU ns of all its threads (schedstat: finer than the ticks)
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f\n", s }'; }

# measure PID: % of one CPU over SECS, after 3 s of warm-up, from
# utime+stime (ticks) and from schedstat (ns)
measure() {
	local c0 c1 n0 n1 t0 t1
	sleep 3
	c0=$(cpu_ticks "$1")
	n0=$(cpu_ns "$1")
	t0=$(date +%s.%N)
	sleep "$SECS"
	c1=$(cpu_ticks "$1")
	n1=$(cpu_ns "$1")
	t1=$(date +%s.%N)
	python3 -c "print('%.3f %% of one CPU (utime+stime), %.3f %% (schedstat), %.2f ms CPU per second' % (100.0 * ($c1 - $c0) / $tck / ($t1 - $t0), 100.0 * ($n1 - $n0) / 1e9 / ($t1 - $t0), ($n1 - $n0) / 1e6 / ($t1 - $t0)))"
}

# --top in a pane
"${TM[@]}" new-session -d -s m -x 120 -y 40 \
	"TERM=screen $SWITCHSTAT --top -i 1000 2>$T/top.err; sleep 600"
for _ in $(seq 1 600); do
	"${TM[@]}" capture-pane -p -t m:0.0 | grep -q "^switchstat [0-9]" && break
	sleep 0.1
done
SS=$(pgrep -P "$("${TM[@]}" display -p -t m:0.0 '#{pane_pid}')" -x switchstat)
top=$(measure "$SS")
rows=$("${TM[@]}" capture-pane -p -t m:0.0 | grep -oP '(?<!lost) rows \d+' | head -1)
"${TM[@]}" send-keys -t m:0.0 q

# the table, every row, to /dev/null
"$SWITCHSTAT" -i 1000 -n 0 >/dev/null 2>"$T/table.err" &
SS=$!
sleep 5 # compile and attach
table=$(measure "$SS")
kill -INT "$SS"
wait "$SS" || true

echo "processes:         $N sleepers (1 wakeup/s each), -i 1000, ${SECS} s each"
echo "view's last status: $rows"
echo "switchstat --top:  $top"
echo "table -n 0:        $table (to /dev/null)"

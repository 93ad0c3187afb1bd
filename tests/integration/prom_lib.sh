#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# prom_lib.sh - helpers for the exporter tests (sourced after lib.sh):
# free ports, polling /metrics, a real Prometheus on 127.0.0.1 and its
# HTTP API.  Everything listens on loopback only.

command -v curl >/dev/null || skip "needs curl"
# the tests' inline Python: from prom_samples import samples
export PYTHONPATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)${PYTHONPATH:+:$PYTHONPATH}"

# free_port: a TCP port nobody listens on at 127.0.0.1 now
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# scrape PORT [ACCEPT]: GET /metrics to stdout (fails on an HTTP error)
scrape() {
	if [ $# -gt 1 ]; then
		curl -sSf -m 5 -H "Accept: $2" "http://127.0.0.1:$1/metrics"
	else
		curl -sSf -m 5 "http://127.0.0.1:$1/metrics"
	fi
}

# wait_metric PORT REGEX: poll /metrics until a line matches (30 s)
wait_metric() {
	local i
	for i in $(seq 1 300); do # not a window: poll for a metric; 30 s is a hang cap
		scrape "$1" 2>/dev/null | grep -qE "$2" && return 0
		[ -n "${TOOL_PID:-}" ] && ! kill -0 "$TOOL_PID" 2>/dev/null &&
			fail "switchstat exited: $(cat "$T"/*.err)"
		sleep 0.1
	done
	fail "no line matching '$2' on port $1 within 30 s"
}

# metric_value FILE SELECTOR: value of the one sample whose name and
# labels contain every comma-separated part of SELECTOR (exact labels:
# 'switchstat_oncpu_seconds_total,cgroup="/a"'); empty if none
metric_value() {
	python3 - "$1" "$2" <<'PY'
import sys
parts = sys.argv[2].split(",")
hits = []
with open(sys.argv[1], "rb") as f:
    for raw in f:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        if line.startswith("#"):
            continue
        name = line.split("{")[0].split(" ")[0]
        if name != parts[0]:
            continue
        if all(p in line for p in parts[1:]):
            hits.append(line.rsplit(" ", 1)[1])
if len(hits) > 1:
    sys.exit("ambiguous selector %s: %d samples" % (sys.argv[2], len(hits)))
print(hits[0] if hits else "")
PY
}

# start_prometheus TARGET_PORT: a real Prometheus on 127.0.0.1 scraping
# 127.0.0.1:TARGET_PORT every second, data in $T; waits until ready.
# Sets PROM_PORT and PROM_PID.
start_prometheus() {
	launch_prometheus "$1"
	wait_for "prometheus ready" prom_ready
}

# launch_prometheus TARGET_PORT: start_prometheus without the wait (its
# start-up then overlaps what the test does next; wait_for prom_ready
# before querying).  PROM_PORT is never TARGET_PORT.
launch_prometheus() {
	command -v prometheus >/dev/null || skip "needs prometheus (Debian package)"
	PROM_PORT=$(free_port)
	while [ "$PROM_PORT" = "$1" ]; do PROM_PORT=$(free_port); done
	mkdir -p "$T/prom-data"
	cat >"$T/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: switchstat
    static_configs:
      - targets: ["127.0.0.1:$1"]
YML
	prometheus --config.file="$T/prometheus.yml" \
		--storage.tsdb.path="$T/prom-data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" \
		--log.level=warn >"$T/prometheus.log" 2>&1 &
	PROM_PID=$!
	BG_PIDS+=("$PROM_PID")
}

# prom_ready: 0 once Prometheus answers /-/ready; fails if it exited
prom_ready() {
	kill -0 "$PROM_PID" 2>/dev/null || fail "prometheus exited: $(tail -5 "$T/prometheus.log")"
	curl -sf -m 2 "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null
}

# stop_prometheus: SIGTERM and wait
stop_prometheus() {
	kill -TERM "$PROM_PID" 2>/dev/null
	wait "$PROM_PID" 2>/dev/null
}

# promq EXPR [TIME]: instant query; prints "value" of a single-series
# result, nothing for an empty one, fails on an error or several series
promq() {
	local args=(--data-urlencode "query=$1")
	[ $# -gt 1 ] && args+=(--data-urlencode "time=$2")
	curl -sS -m 10 "http://127.0.0.1:$PROM_PORT/api/v1/query" "${args[@]}" |
		python3 -c 'import json, sys
d = json.load(sys.stdin)
if d.get("status") != "success":
    sys.exit("query failed: %s" % d)
r = d["data"]["result"]
if len(r) > 1:
    sys.exit("several series: %s" % [x["metric"] for x in r])
if r:
    print(r[0]["value"][1])'
}

# now_s: wall clock in seconds with ns digits (what Prometheus timestamps)
now_s() { date +%s.%N; }

# cg_make NAME: make a cgroup v2 directory under this test's own cgroup
# (under the root); sets CG to its path relative to the mount.  Removed at
# exit by cg_cleanup.  Not in $(...): the variables must stay set.
CG_ROOT=""
CG_MNT=$(cg2_mount)
cg_make() {
	[ -n "$CG_MNT" ] || skip "no cgroup v2 mount"
	if [ -z "$CG_ROOT" ]; then
		CG_ROOT="${CG_BASE#/}${CG_BASE:+/}switchstat-prom-$$"
		mkdir "$CG_MNT/$CG_ROOT" || fail "mkdir cgroup"
	fi
	mkdir -p "$CG_MNT/$CG_ROOT/$1" || fail "mkdir cgroup $1"
	CG="/$CG_ROOT/$1"
}

# cg_move PID REL: move every thread group PID into cgroup REL
cg_move() { echo "$1" >"$CG_MNT$2/cgroup.procs" || fail "move $1 to $2"; }

cg_cleanup() {
	[ -n "$CG_ROOT" ] || return 0
	for p in "${BG_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	cg_remove "$CG_MNT/$CG_ROOT"
}
trap 'cg_cleanup; cleanup' EXIT

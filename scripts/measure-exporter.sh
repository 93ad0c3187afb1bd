#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# measure-exporter.sh - what `switchstat --listen` costs with many series:
# N live processes (default 1000, each a nanosleep loop waking every
# second, so every one is a row each interval) exported with per-process
# labels, scraped every second by a real Prometheus on 127.0.0.1 for
# SECONDS (default 60).  Prints:
#   - the response size, text 0.0.4 and OpenMetrics (bytes, lines);
#   - scrape duration: the client's total time (curl, 20 scrapes, median and
#     max), Prometheus' own scrape_duration_seconds (median over the run),
#     and switchstat_scrape_duration_seconds (building the text, per
#     interval);
#   - switchstat's CPU: utime+stime delta over the run / the run's length.
# Usage: scripts/measure-exporter.sh [N] [SECONDS]   (as root, after a build)
# MAX_SERIES=n in the environment passes --max-series n (default 2000: the
# cap then also bounds the series of other processes on a busy machine);
# SERIES_TTL=s passes --series-ttl s (default 300: exited processes of
# other work stay exported that long).
set -euo pipefail
N=${1:-1000}
SECS=${2:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
SWITCHSTAT=${SWITCHSTAT:-$here/build/switchstat}
SLEEPER=$here/build/workloads/sleeper
T=$(mktemp -d /tmp/ss-measure.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT
port() { python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

for _ in $(seq 1 "$N"); do
	"$SLEEPER" 1000000 &
	pids+=($!)
done
P=$(port)
"$SWITCHSTAT" --listen "$P" -q --metrics-per-process -i 1000 \
	--max-series "${MAX_SERIES:-2000}" --series-ttl "${SERIES_TTL:-300}" \
	2>"$T/ss.err" &
SS=$!
pids+=($SS)
until grep -q 'comm="sleeper"' <<<"$(curl -sf "http://127.0.0.1:$P/metrics" || true)"; do
	kill -0 "$SS" || { cat "$T/ss.err"; exit 1; }
	sleep 0.2
done
sleep 2 # one more interval: every sleeper has woken at least once
PP=$(port)
cat >"$T/prom.yml" <<YML
global: { scrape_interval: 1s, scrape_timeout: 1s }
scrape_configs:
  - job_name: switchstat
    static_configs: [ { targets: ["127.0.0.1:$P"] } ]
YML
prometheus --config.file="$T/prom.yml" --storage.tsdb.path="$T/data" \
	--web.listen-address="127.0.0.1:$PP" --log.level=warn 2>"$T/prom.log" &
pids+=($!)
until curl -sf "http://127.0.0.1:$PP/-/ready" >/dev/null; do sleep 0.2; done

cpu_ticks() { awk '{ print $14 + $15 }' /proc/"$SS"/stat; }
c0=$(cpu_ticks)
t0=$(date +%s.%N)
sleep "$SECS"
c1=$(cpu_ticks)
t1=$(date +%s.%N)
tck=$(getconf CLK_TCK)

curl -s "http://127.0.0.1:$P/metrics" >"$T/text.txt"
curl -s -H 'Accept: application/openmetrics-text' "http://127.0.0.1:$P/metrics" >"$T/om.txt"
for _ in $(seq 1 20); do
	curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$P/metrics"
done >"$T/curl.txt"
q() {
	curl -s "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "n/a")'
}
echo "processes:           $N sleepers (1 wakeup/s each), per-process labels"
echo "series exported:     $(grep -m1 '^switchstat_series ' "$T/text.txt" | cut -d' ' -f2)"
echo "response text 0.0.4: $(wc -c <"$T/text.txt") bytes, $(wc -l <"$T/text.txt") lines"
echo "response OpenMetrics: $(wc -c <"$T/om.txt") bytes"
python3 - "$T/curl.txt" <<'PY'
import statistics, sys
v = [float(l) * 1000 for l in open(sys.argv[1])]
print("scrape (curl):       median %.2f ms, max %.2f ms over %d" %
      (statistics.median(v), max(v), len(v)))
PY
echo "scrape (Prometheus): median $(q "quantile_over_time(0.5, scrape_duration_seconds{job=\"switchstat\"}[${SECS}s])") s"
echo "samples per scrape:  $(q 'scrape_samples_scraped{job="switchstat"}')"
echo "building the text:   $(grep -m1 '^switchstat_scrape_duration_seconds ' "$T/text.txt" | cut -d' ' -f2) s per interval"
python3 -c "print('switchstat CPU:      %.2f %% of one CPU over %.0f s (1 s scrape, -i 1000)' % (100.0 * ($c1 - $c0) / $tck / ($t1 - $t0), $t1 - $t0))"
echo "Prometheus rate():   $(q 'rate(process_cpu_seconds_total{job="switchstat"}[30s])') CPU s/s"

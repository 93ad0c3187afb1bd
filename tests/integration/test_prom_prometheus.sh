#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_prom_prometheus.sh - a real Prometheus (Debian's 2.42) on 127.0.0.1
# scrapes switchstat --listen every second (it negotiates OpenMetrics);
# a spinner pinned to one CPU and a 1 ms nanosleep loop, each in its own
# cgroup (the default labels), run for 6 s between SIGSTOPs (a 5 s rate
# window inside, 0.9 s after the start).  Through Prometheus' HTTP API:
#  - rate(switchstat_oncpu_seconds_total{cgroup=spinner}[5s]) matches the
#    spinner's /proc rate over the same samples' window within 3 %, and is
#    1.0 +- 3 % when the kernel says the spinner had its CPU (other load on
#    that CPU lowers both); /proc is sampled every 20 ms meanwhile;
#  - the voluntary-switch rate of the sleeper equals its /proc delta / time
#    over the same window within 3 %;
#  - the stored counters after the run equal the /proc deltas (within 1 %).
# switchstat runs with -i 100: a sample is at most 0.1 s older than its
# scrape, so a rate over 4 s of samples is off by at most 2.5 % from that.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
command -v taskset >/dev/null || skip "needs taskset"
RUN_S=6
CPU=$(($(nproc) - 1))

cg_make spin
CG_SPIN=$CG
cg_make sleep
CG_SLEEP=$CG
bg taskset -c "$CPU" "$WORKLOADS/spinner" 0 promspin
SPIN=$BG_LAST
bg "$WORKLOADS/sleeper" 1000
SLEEP=$BG_LAST
cg_move "$SPIN" "$CG_SPIN"
cg_move "$SLEEP" "$CG_SLEEP"
freeze "$SPIN" "$SLEEP"

# Prometheus starts while switchstat does (its target is down until then)
P=$(free_port)
launch_prometheus "$P"
start_tool prom --listen "$P" -q -i 100
wait_metric "$P" '^switchstat_build_info'
wait_for "prometheus ready" prom_ready
target_up() { [ "$(promq 'up{job="switchstat"}')" = 1 ]; }
wait_for "prometheus: the switchstat target up" target_up

# /proc sampler: "time spinner_ns sleeper_voluntary" every 20 ms
python3 - "$SPIN" "$SLEEP" >"$T/samples.txt" <<'PY' &
import glob, sys, time
spin, sleep = sys.argv[1:3]
while True:
    ns = sum(int(open(f).read().split()[0])
             for f in glob.glob("/proc/%s/task/*/schedstat" % spin))
    vol = 0
    for f in glob.glob("/proc/%s/task/*/status" % sleep):
        for l in open(f):
            if l.startswith("voluntary_ctxt_switches:"):
                vol += int(l.split()[1])
    print("%.6f %d %d" % (time.time(), ns, vol), flush=True)
    time.sleep(0.02)
PY
SAMPLER=$!
BG_PIDS+=("$SAMPLER")

s0=$(schedstat_sum "$SPIN")
v0=$(status_sum "$SLEEP" voluntary_ctxt_switches)
t0=$(now_s)
thaw "$SPIN" "$SLEEP"
sleep "$RUN_S" # the measured window: the workloads run, nothing is signalled
freeze "$SPIN" "$SLEEP"
t1=$(now_s)
s1=$(schedstat_sum "$SPIN")
v1=$(status_sum "$SLEEP" voluntary_ctxt_switches)
kill "$SAMPLER"

# wait until Prometheus holds a sample taken after the freeze was collected
# (interval 0.1 s): then the stored counters are final
SEL_SPIN="switchstat_oncpu_seconds_total{cgroup=\"$CG_SPIN\"}"
SEL_VOL="switchstat_context_switches_total{cgroup=\"$CG_SLEEP\",kind=\"voluntary\"}"
sleeper_scraped() {
	ts=$(promq "timestamp($SEL_VOL)")
	[ -n "$ts" ] && python3 -c "import sys; sys.exit(0 if $ts > $t1 + 0.3 else 1)"
}
wait_for "a sleeper sample in Prometheus after the run" sleeper_scraped

# rate() over a 5 s window wholly inside the run: from 0.9 s after the
# thaw (its first sample was read from the kernel after it) to 0.1 s
# before the end of the RUN_S s
tq=$(python3 -c "print($t0 + $RUN_S - 0.1)")
spin_rate=$(promq "rate($SEL_SPIN[5s])" "$tq")
vol_rate=$(promq "rate($SEL_VOL[5s])" "$tq")
[ -n "$spin_rate" ] && [ -n "$vol_rate" ] || fail "empty rate() results"
# /proc over the same window: from the first to the last scrape in it,
# each 0.05 s earlier (the mean age of a sample at -i 100)
window() { # SELECTOR -> "first_ts last_ts"
	curl -sS -m 10 "http://127.0.0.1:$PROM_PORT/api/v1/query" \
		--data-urlencode "query=$1[5s]" --data-urlencode "time=$tq" |
		python3 -c 'import json, sys
v = json.load(sys.stdin)["data"]["result"][0]["values"]
print(v[0][0], v[-1][0])'
}
proc_rate() { # COLUMN FIRST_TS LAST_TS
	python3 - "$T/samples.txt" "$@" <<'PY'
import sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
col = int(sys.argv[2])
a, b = float(sys.argv[3]) - 0.05, float(sys.argv[4]) - 0.05
def at(t):
    for (t0, *v0), (t1, *v1) in zip(rows, rows[1:]):
        if t0 <= t <= t1:
            return v0[col] + (v1[col] - v0[col]) * (t - t0) / (t1 - t0)
    sys.exit("time %f outside the samples" % t)
print((at(b) - at(a)) / (b - a))
PY
}
# shellcheck disable=SC2046
spin_proc_rate=$(python3 -c "print($(proc_rate 0 $(window "$SEL_SPIN")) / 1e9)")
# shellcheck disable=SC2046
vol_proc_rate=$(proc_rate 1 $(window "$SEL_VOL"))
info "spinner: rate() $spin_rate s/s, /proc $spin_proc_rate s/s"
info "sleeper: rate() $vol_rate switches/s, /proc $vol_proc_rate switches/s"
check_within "spinner on-CPU rate vs /proc (x1e6)" \
	"$(python3 -c "print($spin_rate * 1e6)")" "$(python3 -c "print($spin_proc_rate * 1e6)")" 3
check_within "sleeper voluntary rate vs /proc (x1000)" \
	"$(python3 -c "print($vol_rate * 1000)")" "$(python3 -c "print($vol_proc_rate * 1000)")" 3
if python3 -c "import sys; sys.exit(0 if $spin_proc_rate >= 0.99 else 1)"; then
	check_within "spinner on-CPU rate vs 1.0 (x1e6)" \
		"$(python3 -c "print($spin_rate * 1e6)")" 1000000 3
else
	info "CPU $CPU was shared with other load ($spin_proc_rate s/s by /proc): 1.0 not expected"
fi

# the stored counters equal the kernel's deltas for the whole window
got_spin=$(promq "$SEL_SPIN")
got_vol=$(promq "$SEL_VOL")
check_within "spinner on-CPU total (us)" "$(python3 -c "print($got_spin * 1e6)")" \
	"$(python3 -c "print(($s1 - $s0) / 1e3)")" 1
check_within "sleeper voluntary total" "$got_vol" $((v1 - v0)) 1
[ -n "$(promq 'switchstat_build_info')" ] || fail "no build info in Prometheus"
stop_prometheus
stop_tool
pass "Prometheus rate() and totals match /proc"

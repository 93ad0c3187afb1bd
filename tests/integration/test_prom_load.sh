#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_prom_load.sh - 50 concurrent scrapers for 10 s against switchstat
# --listen: every request answered 200, no crash, no fd or memory growth
# (open fds back to the baseline, RSS within 8 MB of it), and accuracy
# unchanged: a 1 ms nanosleep loop's voluntary switches in the exported
# counter equal its /proc delta within 2 % (as test_voluntary requires).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
SCRAPERS=50
LOAD_S=10

cg_make load
bg "$WORKLOADS/sleeper" 1000
SLEEP=$BG_LAST
cg_move "$SLEEP" "$CG"
freeze "$SLEEP"

P=$(free_port)
start_tool load --listen "$P" -q -i 1000
wait_metric "$P" '^switchstat_last_collect_timestamp_seconds'
fds() { ls /proc/"$TOOL_PID"/fd | wc -l; }
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' /proc/"$TOOL_PID"/status; }
for i in 1 2 3; do scrape "$P" >/dev/null || fail "warm-up scrape"; done
fd0=$(fds)
rss0=$(rss_kb)

v0=$(status_sum "$SLEEP" voluntary_ctxt_switches)
thaw "$SLEEP"
python3 - "$P" "$SCRAPERS" "$LOAD_S" >"$T/load.txt" <<'PY' || fail "scrapers: $(cat "$T/load.txt")"
import http.client, sys, threading, time
port, n, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
ok, bad, size = [0] * n, [0] * n, [0] * n
end = time.time() + secs
def run(i):
    while time.time() < end:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", "/metrics", headers={"Accept":
                "application/openmetrics-text;version=1.0.0"})
            r = c.getresponse()
            body = r.read()
            c.close()
            if r.status == 200 and body.endswith(b"# EOF\n"):
                ok[i] += 1
                size[i] = len(body)
            else:
                bad[i] += 1
        except Exception as e:
            bad[i] += 1
threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
for t in threads: t.start()
for t in threads: t.join()
print("%d ok, %d failed, %.0f scrapes/s, %d bytes each" %
      (sum(ok), sum(bad), sum(ok) / secs, max(size)))
sys.exit(1 if sum(bad) or min(ok) == 0 else 0)
PY
freeze "$SLEEP"
t1=$(now_s)
v1=$(status_sum "$SLEEP" voluntary_ctxt_switches)
info "$SCRAPERS scrapers for ${LOAD_S} s: $(cat "$T/load.txt")"
kill -0 "$TOOL_PID" || fail "switchstat died under load"

# wait for an exposition read from the kernel after the freeze
for i in $(seq 1 100); do # not a window: poll for a fresh exposition; 100 tries is a hang cap
	scrape "$P" >"$T/final.txt" || fail "scrape after load"
	ts=$(metric_value "$T/final.txt" switchstat_last_collect_timestamp_seconds)
	python3 -c "import sys; sys.exit(0 if $ts > $t1 else 1)" && break
	sleep 0.1
done
got=$(metric_value "$T/final.txt" "switchstat_context_switches_total,cgroup=\"$CG\",kind=\"voluntary\"")
[ -n "$got" ] || fail "no series for $CG"
check_within "sleeper voluntary under load" "$got" $((v1 - v0)) 2

# connections closed: fds back to the baseline; memory did not grow
fds_back() { [ "$(fds)" -le "$fd0" ]; }
wait_for "fds back to $fd0 (were growing: $(fds))" fds_back
rss1=$(rss_kb)
info "fds $fd0 -> $(fds), RSS ${rss0} kB -> ${rss1} kB"
[ $((rss1 - rss0)) -le 8192 ] || fail "RSS grew by $((rss1 - rss0)) kB"
stop_tool
pass "50 scrapers: all answered, accuracy unchanged, no fd or memory growth"

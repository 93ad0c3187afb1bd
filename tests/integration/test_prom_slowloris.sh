#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_prom_slowloris.sh - what one client may take from the --listen
# endpoint that every other scraper needs (H37).
#
# switchstat --listen 127.0.0.1:PORT.  Five scrapes with nothing else
# connected time an unloaded scrape (the slowest of them: U).  Then, each
# attack in turn, slow-header clients (Slowloris: a request line, then one
# more header byte on each connection every second, never the blank line;
# every connection the server closed is opened again then) hold 300
# connections:
#  - one: all from one address, 127.0.0.2;
#  - many: from 30 addresses, 127.0.0.2-31, 10 each (each under any
#    per-address limit: only the total, the header deadline and eviction
#    can keep a slot for the scraper);
# while a scraper at 127.0.0.1 scrapes every 0.5 s, 8 times (over 4 of
# the attackers' rounds), starting once the attackers have opened their
# connections and sent their request lines.  Each attack:
#  - every scrape is answered 200 with the exposition (its
#    switchstat_last_collect_timestamp_seconds sample), each within 100 U
#    (the client gives up then: a scrape that waits for a slot
#    takes until an attacker's connection ends, seconds);
#  - (the premise) the attackers hold at least 50 connections at the port;
#  - the tool's RSS grows by less than 256 connections x 32 KiB (its
#    connection limit times libmicrohttpd's per-connection memory pool)
#    over its RSS before the attacks.
# Broken once (no per-address limit, no header deadline, no eviction: the
# server as libmicrohttpd's defaults with a 256-connection limit): 0 of 8
# scrapes answered under either attack.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
ip -4 addr show lo | grep -q 'inet 127.0.0.1/8' || skip "loopback is not 127.0.0.1/8 (the attackers bind 127.0.0.2-31)"

P=$(free_port)
start_tool slow --listen "127.0.0.1:$P" -q -i 1000
wait_metric "$P" '^switchstat_last_collect_timestamp_seconds'
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' /proc/"$TOOL_PID"/status; }
rss0=$(rss_kb)

# the attackers: python3 attack.py PORT WAY
cat >"$T/attack.py" <<'PY'
import errno, socket, sys, time
port, way = int(sys.argv[1]), sys.argv[2]
addrs = ["127.0.0.2"] if way == "one" else ["127.0.0.%d" % i for i in range(2, 32)]
want = 300
socks = []  # (socket, source address)
def open_one(src):
    s = socket.socket()
    s.setblocking(False)
    s.bind((src, 0))
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    except OSError:
        s.close()
        return None
    return s
def fill():
    per = {a: 0 for a in addrs}
    for s, a in socks:
        per[a] += 1
    for a in addrs:
        for _ in range(want // len(addrs) - per[a]):
            s = open_one(a)
            if s:
                socks.append((s, a))
                try:
                    s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-a: ")
                except OSError:
                    pass
ready = sys.argv[3]
while True:
    fill()
    if ready:  # the first round is out: connections opened, lines sent
        open(ready, "w").write("%d\n" % len(socks))
        ready = ""
    time.sleep(1)
    alive = []
    for s, a in socks:
        try:
            s.send(b"a")
            alive.append((s, a))
        except OSError:
            s.close()
    socks[:] = alive
PY

# attack WAY: the attackers in the background (bg), their pid in
# ATTACKER; returns once their first round is out
attack() {
	rm -f "$T/attack.$1"
	bg python3 "$T/attack.py" "$P" "$1" "$T/attack.$1"
	ATTACKER=$BG_LAST
	wait_file "$T/attack.$1"
}
# attackers_gone: no connection from the attackers' addresses at the port
attackers_gone() {
	[ "$(ss -Htn "( sport = :$P and not dst 127.0.0.1 )" | wc -l)" -eq 0 ]
}

# scrapes LIMIT_S N GAP_S: N scrapes GAP_S apart, each given LIMIT_S;
# prints "ok total slowest_s"
scrapes() {
	python3 - "$P" "$1" "$2" "$3" <<'PY'
import http.client, sys, time
port, limit, n = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
gap = float(sys.argv[4])
ok, slowest = 0, 0.0
for i in range(n):
    t0 = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=limit)
        c.request("GET", "/metrics")
        r = c.getresponse()
        body = r.read()
        c.close()
        good = r.status == 200 and b"switchstat_last_collect_timestamp_seconds" in body
    except Exception as e:
        good = False
    dt = time.monotonic() - t0
    ok += good and dt <= limit
    slowest = max(slowest, dt)
    time.sleep(max(0, gap - dt))
print(ok, n, "%.4f" % slowest)
PY
}

read -r _ _ U < <(scrapes 5 5 0.2)
LIMIT=$(python3 -c "print(100 * $U)")
info "unloaded scrape: slowest of 5 $(python3 -c "print('%.1f' % (1000 * $U))") ms; limit under attack 100 x that = $(python3 -c "print('%.0f' % (1000 * $LIMIT))") ms"
bad=0
for way in one many; do
	attack "$way"
	conns=$(ss -Htn state established "( sport = :$P )" | wc -l)
	read -r ok n slowest < <(scrapes "$LIMIT" 8 0.5)
	rss=$(rss_kb)
	kill "$ATTACKER" 2>/dev/null
	wait "$ATTACKER" 2>/dev/null
	growth=$((rss - rss0))
	info "$way: $ok of $n scrapes answered within the limit (slowest $(python3 -c "print('%.0f' % (1000 * $slowest))") ms); server-side connections $conns; RSS +$growth KiB (limit $((256 * 32)) KiB)"
	# the test's own premise: the attack holds connections at the port
	[ "$conns" -ge 50 ] || { echo "FAIL: $way: the attackers hold only $conns connections" >&2; bad=1; }
	[ "$ok" -eq "$n" ] || { echo "FAIL: $way: $((n - ok)) of $n scrapes not answered" >&2; bad=1; }
	[ "$growth" -lt $((256 * 32)) ] || { echo "FAIL: $way: RSS grew $growth KiB" >&2; bad=1; }
	wait_for "$way: the attackers' connections closed" attackers_gone
done
kill -0 "$TOOL_PID" || fail "switchstat exited"
stop_tool
[ "$bad" -eq 0 ] || fail "see above"
pass "--listen: every scrape answered while slow-header clients hold 300 connections"

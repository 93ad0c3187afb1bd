#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_noisy.sh - noisy neighbours (--blame -G, --listen, --top) against
# the kernel's numbers.  Three cgroups named as docker containers
# (docker-<id>.scope, so they have container ids) under the cgroup2 mount
# of /proc/mounts, all their tasks on CPU 0:
#   web:   20 threads in a loop of a 1 ms sleep and a short spin
#          (sleepspin), woken often, preempted often;
#   batch: 2 hogs at nice 0;
#   cron:  one hog, started halfway through the window.
# Two runs at once over one window (web and batch frozen at both ends):
# A: --blame -G --json --listen (Prometheus scraping it), B: --blame -L -p
# web,batch --json.  The window lasts until what the checks compare has
# happened, however slow the host: before cron, 2 whole intervals of A,
# 10 of web's and batch's threads preempted and web's threads 100 ms on
# the run queue (schedstat); after cron started, 2 whole intervals of A
# and 2 Prometheus scrapes of web's delay by cron.
# Then:
#  1. per thread of web and batch, B's preemptions summed over preemptors equal B's
#     INVOL for it (exactly: the same switches) and its
#     nonvoluntary_ctxt_switches delta (within 2 %, test_involuntary's
#     bound for INVOL);
#  2. web's delay in A split by culprit cgroup ((idle), (unknown)
#     included) sums to its threads' run_delay delta (schedstat) within
#     2 %, test_blame's bound;
#  3. cron is a culprit (delay and preemptions) only in intervals that end
#     after it started, and is one after;
#  4. with the workloads frozen for 2 intervals, Prometheus' stored
#     switchstat_runq_delay_seconds_total and switchstat_preemptions_total
#     of web per culprit equal A's JSON sums (to the ns, to the count);
#     deploy/README.md's top-5 query returns the culprit containers the
#     JSON has (batch and cron), the worse one first;
#  5. web's CPU-PSI% (cpu.pressure some) is higher in the intervals after
#     cron started than in those before, by their medians (cron takes
#     CPU 0 time from everyone there; each interval counted whole inside
#     its side);
#  6. --top --blame -G in tmux: b opens the noisy-neighbours pane, whose
#     web line (paused) is, to the digit, one interval of the same run's
#     JSON: the delay others caused web and its top culprits in order; b
#     again closes it.
# Also: SWITCHSTAT_TEST=no_psi leaves the CPU-PSI% column out with one
# note.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
command -v taskset >/dev/null || skip "needs taskset"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the tools run beside CPU 0)"
[ -r /proc/pressure/cpu ] || skip "no PSI in this kernel"

MNT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$MNT" ] || skip "no cgroup2 mount in /proc/mounts"
TOP="$MNT/switchstat-noisy-$$"
TM=(tmux -L "ss-noisy-$$" -f /dev/null)
noisy_cleanup() {
	"${TM[@]}" kill-server 2>/dev/null
	for p in "${BG_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	cg_remove "$TOP"
	cleanup
}
trap noisy_cleanup EXIT
id64() { head -c 64 /dev/zero | tr '\0' "$1"; }
WEB_ID=$(id64 a)
BATCH_ID=$(id64 b)
CRON_ID=$(id64 c)
for n in "$WEB_ID" "$BATCH_ID" "$CRON_ID"; do
	mkdir -p "$TOP/docker-$n.scope" || fail "mkdir cgroup under $MNT"
done
REL=${TOP#"$MNT"}
WEB_CG="$REL/docker-$WEB_ID.scope"
BATCH_CG="$REL/docker-$BATCH_ID.scope"
CRON_CG="$REL/docker-$CRON_ID.scope"
to_cg() { echo "$1" >"$MNT$2/cgroup.procs" || fail "move $1 to $2"; }

# a 30 us spin: web's pressure is below 100 % before cron (about 77 %, 92 %
# after, in one run here; with a 100 us spin it is 100 % before)
bg taskset -c 0 "$WORKLOADS/sleepspin" 20 30 web
WEB=$BG_LAST
bg taskset -c 0 "$WORKLOADS/spinner" 2 batch
BATCH=$BG_LAST
wait_threads "$WEB" 21
wait_threads "$BATCH" 3
to_cg "$WEB" "$WEB_CG"
to_cg "$BATCH" "$BATCH_CG"
freeze "$WEB" "$BATCH"

# per thread of web and batch: "tid nonvoluntary run_delay"
web_threads() {
	for d in /proc/"$WEB"/task/* /proc/"$BATCH"/task/*; do
		echo "${d##*/} $(awk '$1 == "nonvoluntary_ctxt_switches:" { print $2 }' "$d/status") $(awk '{ print $2 }' "$d/schedstat")"
	done
}

# A's and B's interval: every wait below counts intervals, so a short one
# only shortens the run (each side of cron's start still holds 2 whole ones)
IV_MS=500
IV_S=0.5
P=$(free_port)
launch_prometheus "$P" # its start-up overlaps the tools'
launch cg --blame -G --json -n 0 -i "$IV_MS" --listen "127.0.0.1:$P"
LA=$LAUNCHED
launch thr --blame -L -p "$WEB,$BATCH" --json -n 0 -i "$IV_MS"
LB=$LAUNCHED
await cg "$LA"
await thr "$LB"
wait_for "prometheus ready" prom_ready
prom_up() { [ "$(promq 'up{job="switchstat"}')" = 1 ]; }
wait_for "Prometheus scraping A" prom_up

web_threads >"$T/web0.txt"
ls /proc/"$WEB"/task >"$T/webtids.txt"
# whole_ivs_ge SINCE N: A has ended N intervals that began after SINCE
# (a row's time less IV_S + 0.05 s, as check 5 counts them)
whole_ivs_ge() {
	grep -o '^{"type":"row","time":[0-9.]*' "$T/cg.out" | sed 's/.*://' | uniq |
		awk -v s="$1" -v n="$2" -v iv="$IV_S" '$1 - iv - 0.05 >= s { k++ } END { exit !(k >= n) }'
}
# contended: since web0.txt, 10 of web's and batch's threads were
# preempted (check 1's premise) and web's threads waited 100 ms on the run
# queue (check 2's)
contended() {
	web_threads >"$T/webnow.txt"
	awk 'FILENAME ~ /webtids/ { w[$1] = 1; next }
	     FILENAME ~ /web0/ { n0[$1] = $2; d0[$1] = $3; next }
	     { if ($2 > n0[$1]) pre++; if ($1 in w) d += $3 - d0[$1] }
	     END { exit !(pre >= 10 && d >= 100000000) }' \
		"$T/webtids.txt" "$T/web0.txt" "$T/webnow.txt"
}
before_cron() { contended && whole_ivs_ge "$t_thaw" 2; }
t_thaw=$(now_s)
thaw "$WEB" "$BATCH"
wait_for "before cron: 2 whole intervals, 10 threads preempted, web 100 ms on the run queue" \
	before_cron
t_cron=$(now_s)
bg taskset -c 0 "$WORKLOADS/spinner" 0 cron
CRON=$BG_LAST
to_cg "$CRON" "$CRON_CG"
# check 4's top-5 query takes a rate: 2 scrapes of web's delay by cron
cron_scraped() {
	local n
	n=$(promq "max(count_over_time(switchstat_runq_delay_seconds_total{container_id=\"${WEB_ID:0:12}\",culprit_container_id=\"${CRON_ID:0:12}\"}[1m]))")
	[ "${n:-0}" -ge 2 ] 2>/dev/null
}
after_cron() { whole_ivs_ge "$t_cron" 2 && cron_scraped; }
wait_for "2 whole intervals after cron started, 2 scrapes of its delay of web" after_cron
freeze "$WEB" "$BATCH" "$CRON"
t_freeze=$(now_s)
web_threads >"$T/web1.txt"

# 4. two intervals with everything frozen, then a sample after them
sampled_after() {
	local ts
	ts=$(promq "timestamp(switchstat_last_collect_timestamp_seconds)")
	[ -n "$ts" ] && python3 -c "import sys; sys.exit(0 if $ts > $t_freeze + 2 * $IV_S + 0.2 else 1)"
}
wait_for "Prometheus: a sample of A 2 intervals after the freeze" sampled_after
promraw() { # EXPR: "label value" per series of an instant query
	curl -sS -m 10 "http://127.0.0.1:$PROM_PORT/api/v1/query" \
		--data-urlencode "query=$1" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
for r in d["data"]["result"]:
    m = r["metric"]
    print(m.get("culprit_cgroup", m.get("culprit_container_id", "")), r["value"][1])'
}
promraw "switchstat_runq_delay_seconds_total{cgroup=\"$WEB_CG\"}" >"$T/prom_delay.txt"
promraw "switchstat_preemptions_total{cgroup=\"$WEB_CG\"}" >"$T/prom_pre.txt"
Q="topk(5, sum by (culprit_container_id) (
  rate(switchstat_runq_delay_seconds_total{container_id=\"${WEB_ID:0:12}\",
       culprit_container_id!=\"\", culprit_container_id!=\"${WEB_ID:0:12}\"}[1m])))"
curl -sS -m 10 "http://127.0.0.1:$PROM_PORT/api/v1/query" \
	--data-urlencode "query=$Q" --data-urlencode "time=$t_freeze" >"$T/top5.json"
kill -INT "$LA" "$LB"
reap "$LA" cg
reap "$LB" thr

python3 - "$T" "$WEB_CG" "$BATCH_CG" "$CRON_CG" "$t_thaw" "$t_cron" "$t_freeze" \
	"${WEB_ID:0:12}" "${BATCH_ID:0:12}" "${CRON_ID:0:12}" "$IV_S" <<'PY' || fail "see above"
import json, statistics, sys
T, web, batch, cron = sys.argv[1:5]
t_thaw, t_cron, t_freeze = map(float, sys.argv[5:8])
wid, bid, cid = sys.argv[8:11]
iv = float(sys.argv[11])
bad = []

def recs(name):
    for line in open("%s/%s.out" % (T, name), encoding="utf-8", errors="replace"):
        if line.startswith("{"):
            yield json.loads(line)

def kernel(name):
    return {int(t): (int(n), int(d)) for t, n, d in
            (l.split() for l in open("%s/%s" % (T, name)))}

k0, k1 = kernel("web0.txt"), kernel("web1.txt")
webtids = set(int(x.split()[0]) for x in open("%s/webtids.txt" % T))
B = list(recs("thr"))
A = list(recs("cg"))

# 1. per thread: preemptions = INVOL = nonvoluntary delta
pre, invol = {}, {}
for r in B:
    if r["type"] == "preempt":
        pre[r["victim_pid"]] = pre.get(r["victim_pid"], 0) + r["count"]
    elif r["type"] == "row":
        invol[r["tid"]] = invol.get(r["tid"], 0) + r["involuntary"]
n_checked = 0
for tid in k1:
    want = k1[tid][0] - k0.get(tid, (0, 0))[0]
    got, inv = pre.get(tid, 0), invol.get(tid, 0)
    if got != inv:
        bad.append("1. tid %d: preemptions %d != INVOL %d" % (tid, got, inv))
    if abs(got - want) > max(1, want * 0.02):
        bad.append("1. tid %d: preemptions %d vs nonvoluntary delta %d (> 2 %%)"
                   % (tid, got, want))
    if want > 0:
        n_checked += 1
print("1. %d threads (web's and batch's) preempted; total preemptions %d, INVOL %d, kernel %d"
      % (n_checked, sum(pre.values()), sum(invol.values()),
         sum(k1[t][0] - k0.get(t, (0, 0))[0] for t in k1)))
if n_checked < 10:
    bad.append("1. only %d threads were preempted, the window waited for 10" % n_checked)

# 2. web's delay by culprit sums to its run_delay
split = {}
for r in A:
    if r["type"] == "blame" and r["victim_cgroup"] == web:
        split[r["culprit_cgroup"]] = split.get(r["culprit_cgroup"], 0) + r["delay_ns"]
want = sum(k1[t][1] - k0.get(t, (0, 0))[1] for t in k1 if t in webtids)
got = sum(split.values())
print("2. web's delay %d ns by culprit %s; run_delay %d ns"
      % (got, {k: v for k, v in sorted(split.items(), key=lambda x: -x[1])}, want))
if want < 100e6:
    bad.append("2. web waited only %d ns, the window waited for 100 ms" % want)
if abs(got - want) > want * 0.02:
    bad.append("2. web's delay %d ns vs run_delay %d ns: off by %.2f %%"
               % (got, want, 100.0 * (got - want) / want))

# 3. cron a culprit only after it started
times = [r["time"] for r in A if r["type"] in ("blame", "preempt")
         and r.get("culprit_cgroup") == cron]
early = [t for t in times if t < t_cron]
print("3. cron started at %.3f; culprit in %d records, first at %s"
      % (t_cron, len(times), min(times) if times else None))
if early:
    bad.append("3. cron a culprit in intervals ending at %s, before it started at %.3f"
               % (early, t_cron))
if not times:
    bad.append("3. cron never a culprit")

# 4. Prometheus' stored counters = the JSON's sums; the top-5 query
pre_cg = {}
for r in A:
    if r["type"] == "preempt" and r["victim_cgroup"] == web:
        pre_cg[r["culprit_cgroup"]] = pre_cg.get(r["culprit_cgroup"], 0) + r["count"]
for fname, want, ns in (("prom_delay.txt", split, True), ("prom_pre.txt", pre_cg, False)):
    got = {}
    for l in open("%s/%s" % (T, fname)):
        c, v = l.rsplit(" ", 1)
        got[c] = round(float(v) * 1e9) if ns else int(float(v))
    want = {k: v for k, v in want.items() if v}
    got = {k: v for k, v in got.items() if v}
    if got != want:
        bad.append("4. %s: Prometheus %s != JSON %s" % (fname, got, want))
    else:
        print("4. %s: %d series equal the JSON's sums" % (fname, len(got)))
d = json.load(open("%s/top5.json" % T))
if d.get("status") != "success":
    bad.append("4. top-5 query failed: %s" % d)
else:
    res = sorted(((float(r["value"][1]), r["metric"]["culprit_container_id"])
                  for r in d["data"]["result"]), reverse=True)
    print("4. top-5 culprits of web: %s" % res)
    if sorted(c for _, c in res) != sorted([bid, cid]):
        bad.append("4. top-5 culprits %s, want batch %s and cron %s" % (res, bid, cid))
    elif res[0][1] != (bid if split.get(batch, 0) > split.get(cron, 0) else cid):
        bad.append("4. top-5 order %s disagrees with the JSON's totals" % res)

# 5. web's CPU-PSI% before and after cron started
before, after = [], []
for r in A:
    if r["type"] != "row" or r.get("cgroup") != web or r.get("cpu_pressure_pct") is None:
        continue
    t = r["time"]
    if t - iv - 0.05 >= t_thaw and t <= t_cron:
        before.append(r["cpu_pressure_pct"])
    elif t - iv - 0.05 >= t_cron and t <= t_freeze:
        after.append(r["cpu_pressure_pct"])
print("5. web's CPU-PSI%% before cron %s, after %s" % (before, after))
if not before or not after:
    bad.append("5. no whole interval on a side of cron's start")
elif statistics.median(after) <= statistics.median(before):
    # the medians: under a CPU cap (--throttled) one interval's PSI can
    # fall by 20 points (the cap's throttled periods), where the others
    # rise 2-3 points above every interval before cron
    bad.append("5. web's pressure did not rise once cron started")
for b in bad:
    print("FAIL " + b)
sys.exit(1 if bad else 0)
PY

# --- no PSI: the column left out, one note ----------------------------------
# not a window: the column and the note only, no count
SWITCHSTAT_TEST=exit_tp_now,no_psi "$SWITCHSTAT" -G -i 300 -d 1 >"$T/nopsi.out" 2>"$T/nopsi.err" ||
	fail "no_psi run failed: $(cat "$T/nopsi.err")"
[ "$(grep -c "no CPU pressure (PSI)" "$T/nopsi.err")" -eq 1 ] || fail "no_psi: no single note: $(cat "$T/nopsi.err")"
! grep -q "CPU-PSI%" "$T/nopsi.out" || fail "no_psi: the CPU-PSI% column is shown"
info "no_psi: column left out, one note"

# --- 6. --top: the noisy-neighbours pane ------------------------------------
command -v tmux >/dev/null || { pass "noisy neighbours (no tmux: pane untested)"; }
thaw "$WEB" "$BATCH" "$CRON"
"${TM[@]}" new-session -d -s top -x 160 -y 40 \
	"TERM=screen '$SWITCHSTAT' --top --blame -G -i $IV_MS --json >'$T/top.out' 2>'$T/top.err'; echo \$? >'$T/top.rc'; exec sleep 600" ||
	fail "tmux new-session"
cap() { "${TM[@]}" capture-pane -p -t top:0.0 >"$T/$1"; }
keys() { "${TM[@]}" send-keys -t top:0.0 "$@"; }
wait_screen() { # FILE TEXT [absent]: SS_HANG_S without it is a hang
	local end=$((SECONDS + SS_HANG_S))
	while [ "$SECONDS" -lt "$end" ]; do
		cap "$1"
		if [ "${3:-}" = absent ]; then
			grep -qF -- "$2" "$T/$1" || return 0
		else
			grep -qF -- "$2" "$T/$1" && return 0
		fi
		sleep 0.05
	done
	cat "$T/$1" "$T/top.err" >&2
	fail "hang: --top: '$2' ${3:-present} not reached within SS_HANG_S=$SS_HANG_S s"
}
wait_screen s0.txt "CPU-PSI%"
# an interval with all three running: cron a culprit of web's
cron_blamed() {
	grep -F '"type":"blame"' "$T/top.out" 2>/dev/null | grep -F "\"victim_cgroup\":\"$WEB_CG\"" |
		grep -qF "\"culprit_cgroup\":\"$CRON_CG\""
}
wait_for "--top: an interval in which cron delayed web" cron_blamed
keys b
wait_screen s1.txt "noisy neighbours"
keys " "
wait_screen s2.txt "PAUSED"
cap pane.txt
keys b
wait_screen s3.txt "noisy neighbours" absent
keys q
wait_file "$T/top.rc"
[ "$(cat "$T/top.rc" 2>/dev/null)" = 0 ] || fail "--top exit $(cat "$T/top.rc" 2>/dev/null): $(cat "$T/top.err")"
freeze "$WEB" "$BATCH" "$CRON"
python3 - "$T" "$WEB_CG" "${WEB_ID:0:12}" <<'PY' || fail "pane: see above"
import json, re, sys
T, web, wid = sys.argv[1:4]
lines = open("%s/pane.txt" % T).read().split("\n")
line = next((l for l in lines if l.startswith(wid + " ")), None)
if line is None:
    sys.exit("no web line in the pane:\n" + "\n".join(lines))
m = re.match(r"^(\S+)\s+([\d.]+)\s+(.*)$", line.rstrip())
shown = (m.group(2), [tuple(c.strip().rsplit(" ", 1)) for c in m.group(3).split(",")])
# each interval of the JSON: web's delay by others, its top culprits
ivs = {}
for l in open("%s/top.out" % T, encoding="utf-8", errors="replace"):
    if not l.startswith("{"):
        continue
    r = json.loads(l)
    if r["type"] == "blame" and r["victim_cgroup"] == web and \
            r["culprit_cgroup"] not in (web, "(idle)", "(unknown)"):
        ivs.setdefault(r["time"], []).append((r["delay_ns"], r["culprit_cgroup"]))
def short(c):
    m = re.search(r"docker-([0-9a-f]{12})[0-9a-f]{52}\.scope$", c)
    return m.group(1) if m else c
for t, cs in ivs.items():
    cs.sort(key=lambda x: (-x[0], x[1]))
    want = ("%.3f" % (sum(d for d, _ in cs) / 1e6),
            [(short(c), "%.3f" % (d / 1e6)) for d, c in cs[:3]])
    if want == shown:
        print("6. pane: web %s ms by others, culprits %s = interval %.3f of the JSON"
              % (shown[0], shown[1], t))
        sys.exit(0)
sys.exit("pane's web line %s matches no interval of the JSON (%d intervals)"
         % (shown, len(ivs)))
PY
pass "noisy neighbours: preemptions, split, cron, Prometheus, PSI, --top pane"

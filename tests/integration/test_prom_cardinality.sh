#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_prom_cardinality.sh - the exporter's series stay bounded and honest:
#  - --max-series N: at most N label sets plus `other`; a spinner that
#    starts after the cap is full is summed into `other` (other's on-CPU
#    time grows by at least the spinner's /proc time), and the rows summed
#    there are counted;
#  - --series-ttl: the series of a killed process stays for the TTL after
#    it was last seen, then goes; a live but idle (stopped) process keeps
#    its series and value past the TTL; likewise per cgroup for a removed
#    cgroup.
# The three runs (cap, TTL per process, TTL per cgroup) are started
# together; the process is killed and the cgroup removed at once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root

collect_ts() { metric_value "$1" switchstat_last_collect_timestamp_seconds; }
# scrape_new PORT FILE AFTER: scrape into FILE until its values were read
# from the kernel after time AFTER (s since the epoch)
scrape_new() {
	local i ts
	local end=$((SECONDS + SS_HANG_S))
	while [ "$SECONDS" -lt "$end" ]; do
		scrape "$1" >"$2" || fail "scrape"
		ts=$(collect_ts "$2")
		[ -n "$ts" ] && python3 -c "import sys; sys.exit(0 if $ts > $3 else 1)" && return 0
		sleep 0.05
	done
	fail "hang: no exposition newer than $3 within SS_HANG_S=$SS_HANG_S s"
}

# three free ports, all different
P=$(free_port)
PT=$P
while [ "$PT" = "$P" ]; do PT=$(free_port); done
PG=$P
while [ "$PG" = "$P" ] || [ "$PG" = "$PT" ]; do PG=$(free_port); done

# the TTL runs' workloads: two sleepers, and one in a cgroup of its own
TTL=5
bg "$WORKLOADS/sleeper" 1000
GONE=$BG_LAST
bg "$WORKLOADS/sleeper" 1000
IDLE=$BG_LAST
cg_make gone
CG_GONE=$CG
bg "$WORKLOADS/sleeper" 1000
CGP=$BG_LAST
cg_move "$CGP" "$CG_GONE"

launch cap --listen "$P" -q --metrics-per-process --max-series 5 -i 200
CAP_PID=$LAUNCHED
launch ttl --listen "$PT" -q --metrics-per-process --series-ttl "$TTL" -i 200
TTL_PID=$LAUNCHED
launch cg --listen "$PG" -q --series-ttl "$TTL" -i 200
CG_PID=$LAUNCHED
await cap "$CAP_PID"
await ttl "$TTL_PID"
await cg "$CG_PID"

# --- the cap ----------------------------------------------------------------
TOOL_PID=$CAP_PID
wait_metric "$P" '^switchstat_oncpu_seconds_total\{pid="other"'
bg "$WORKLOADS/spinner" 0 capspin
SPIN=$BG_LAST
wait_comm "$SPIN" capspin # it runs the spinner (the window below is what is checked)
freeze "$SPIN"
t=$(now_s)
scrape_new "$P" "$T/c0.txt" "$t"
s0=$(schedstat_sum "$SPIN")
thaw "$SPIN"
run_for_cpu 500000000 "$SPIN" # 2.5 intervals of it
freeze "$SPIN"
s1=$(schedstat_sum "$SPIN")
t=$(now_s)
scrape_new "$P" "$T/c1.txt" "$t"
n=$(metric_value "$T/c1.txt" switchstat_series)
[ "$n" -le 6 ] || fail "switchstat_series $n with --max-series 5"
[ "$(grep -c '^switchstat_oncpu_seconds_total{' "$T/c1.txt")" -le 6 ] ||
	fail "more than 6 on-CPU series"
grep -q "^switchstat_oncpu_seconds_total{pid=\"$SPIN\"" "$T/c1.txt" &&
	fail "the spinner got a series past the cap"
o0=$(metric_value "$T/c0.txt" 'switchstat_oncpu_seconds_total,pid="other"')
o1=$(metric_value "$T/c1.txt" 'switchstat_oncpu_seconds_total,pid="other"')
grow=$(python3 -c "print(int(($o1 - $o0) * 1e9))")
[ "$grow" -ge $(((s1 - s0) * 97 / 100)) ] ||
	fail "other grew $grow ns, the spinner alone ran $((s1 - s0)) ns"
ov=$(metric_value "$T/c1.txt" switchstat_series_overflow_rows_total)
[ "$ov" -gt 0 ] || fail "no overflow rows counted"
info "cap 5: $n series, other grew $((grow / 1000000)) ms >= spinner $(((s1 - s0) / 1000000)) ms, $ov rows in other"
stop_tool
kill -KILL "$SPIN"

# --- the TTL, per process and per cgroup -------------------------------------
P=$PT
TOOL_PID=$TTL_PID
wait_metric "$P" "^switchstat_context_switches_total\{pid=\"$GONE\",comm=\"sleeper\""
wait_metric "$P" "^switchstat_context_switches_total\{pid=\"$IDLE\",comm=\"sleeper\""
wait_metric "$PG" "^switchstat_context_switches_total\{cgroup=\"$CG_GONE\""
freeze "$IDLE" # alive, but no switch from now on
# before the kill: the tool last sees the killed process (its exit) after
# this, so its series must stay until TTL s past it
t_kill=$(now_s)
kill -KILL "$GONE" "$CGP"
wait "$GONE" "$CGP" 2>/dev/null
wait_for "$CG_GONE removed" rmdir "$CG_MNT$CG_GONE"
scrape_new "$P" "$T/t0.txt" "$t_kill"
idle_v=$(metric_value "$T/t0.txt" "switchstat_context_switches_total,pid=\"$IDLE\",comm=\"sleeper\",kind=\"voluntary\"")
[ -n "$idle_v" ] || fail "no series for the idle process"
last_seen=""
# gone_scraped: an exposition without the killed process's series; the
# last one with it read sets last_seen
gone_scraped() {
	scrape "$P" >"$T/t.txt" || fail "scrape"
	grep -q "^switchstat_context_switches_total{pid=\"$GONE\",comm=\"sleeper\"" "$T/t.txt" ||
		return 0
	last_seen=$(collect_ts "$T/t.txt")
	return 1
}
wait_for "the killed process's series gone" gone_scraped
[ -n "$last_seen" ] || fail "the killed process's series vanished at once"
# the first exposition without it is stamped with its interval's end; the
# expiry ran at that interval's collect, after it: within the next
# interval (-i 200, the tool's own figure, not the host's)
gone_ts=$(collect_ts "$T/t.txt")
kept=$(python3 -c "print('%.3f' % ($gone_ts - $t_kill))")
python3 -c "import sys; sys.exit(0 if $kept >= $TTL - 0.2 else 1)" ||
	fail "gone in an exposition $kept s after the kill, before the TTL ($TTL s) less one interval (0.2 s)"
# the idle one outlives the TTL with its value: in an exposition 1 s past
# the TTL after the kill (it was last seen before the kill), through the
# expiry of every interval until then
scrape_new "$P" "$T/t2.txt" "$(python3 -c "print($t_kill + $TTL + 1)")"
v=$(metric_value "$T/t2.txt" "switchstat_context_switches_total,pid=\"$IDLE\",comm=\"sleeper\",kind=\"voluntary\"")
[ "$v" = "$idle_v" ] || fail "idle process: '$v', want '$idle_v' (kept, unchanged)"
exp=$(metric_value "$T/t2.txt" switchstat_series_expired_total)
[ "$exp" -ge 1 ] || fail "switchstat_series_expired_total $exp"
info "TTL $TTL s: killed process kept, gone in an exposition $kept s after the kill; idle process kept at $v"
stop_tool

# the removed cgroup (its process killed with the one above)
P=$PG
TOOL_PID=$CG_PID
cg_unexported() {
	scrape "$P" >"$T/g.txt" || fail "scrape"
	! grep -q "cgroup=\"$CG_GONE\"" "$T/g.txt"
}
wait_for "the removed cgroup's series gone" cg_unexported
grep -q '^switchstat_context_switches_total{cgroup="/"' "$T/g.txt" || fail "root cgroup series gone"
info "removed cgroup's series gone after the TTL; live cgroups kept"
stop_tool
pass "series cap with other, TTL of gone processes and cgroups"

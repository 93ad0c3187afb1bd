#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_prom_verifier.sh - an exporter whose BPF program the verifier
# rejects at start exits non-zero (1) with the verifier's message, and
# never serves anything meanwhile (no zeros for Prometheus to store).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root

P=$(free_port)
SWITCHSTAT_TEST=verifier_fail "$SWITCHSTAT" --listen "$P" -q \
	>"$T/vf.out" 2>"$T/vf.err" &
VF=$!
BG_PIDS+=("$VF")
tries=0
served=0
end=$((SECONDS + SS_HANG_S))
while kill -0 "$VF" 2>/dev/null; do
	# poll for as long as the process lives: a TCP connect, which a
	# scraper needs first (cheaper than curl, ~100 ms a start here, so a
	# fast failing start still sees many polls); any accept is a failure
	if (exec 3<>"/dev/tcp/127.0.0.1/$P") 2>/dev/null; then
		served=$((served + 1))
	fi
	tries=$((tries + 1))
	[ "$SECONDS" -lt "$end" ] || fail "hang: still running after SS_HANG_S=$SS_HANG_S s"
	sleep 0.01
done
rc=0
wait "$VF" || rc=$?
[ "$rc" -eq 1 ] || fail "exit $rc, want 1: $(cat "$T/vf.err")"
[ "$served" -eq 0 ] || fail "answered $served scrapes before exiting"
# how many polls fit in its life is the host's speed: informative (a poll
# while it lived is what the loop needs, and kill -0 saw it alive)
[ "$tries" -gt 0 ] || fail "never polled while it lived"
grep -q "rejected by the kernel" "$T/vf.err" || fail "no clear message: $(cat "$T/vf.err")"
# the verifier's log in the file it names, not on stderr
grep -q "processed .* insns" "$T/vf.err" && fail "the verifier's log on stderr without -v"
vlog=$(sed -n 's/.*(verifier log: \([^)]*\)).*/\1/p' "$T/vf.err")
[ -n "$vlog" ] && grep -q "processed .* insns" "$vlog" || fail "no verifier log file: $(cat "$T/vf.err")"
rm -f "$vlog"
[ -s "$T/vf.out" ] && fail "printed to stdout"
info "exit 1 after $tries scrape attempts, none answered: $(grep -m1 rejected "$T/vf.err")"
pass "verifier failure: exit 1, nothing served"

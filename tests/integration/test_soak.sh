#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_soak.sh - the CI-sized long run: scripts/soak.sh against a pipe
# ping-pong on every CPU plus a trickle of short processes; fails if
# switchstat's RSS grows more than 512 kB after the warm-up, if the rows
# drained per interval or its hash-map entries climb, or if it dies.
# Sized by what the verdict compares, not by the clock: the medians of the
# second and last quarters of the run lie half the run apart, which at
# 125 ms intervals and 120 short processes a second over 10 s is 40
# intervals and 600 processes (a leak per interval or per process shows
# as it would over 30 intervals and 600 processes at 1 s and 20/s in 60 s).
# (Run scripts/soak.sh -t 3600 by hand for the long version.)
. "$(dirname "$0")/lib.sh"
need_root
command -v bpftool >/dev/null || skip "needs bpftool"
[ -x "$WORKLOADS/pingpong" ] && [ -x "$WORKLOADS/forkstorm" ] || fail "workloads missing in $WORKLOADS"

rc=0
bash "$SRC/scripts/soak.sh" -t "${SOAK_SECONDS:-10}" -i 125 -f 120 -g 512 \
	-b "$SWITCHSTAT" -w "$WORKLOADS" || rc=$?
case $rc in
0) pass "soak: RSS, rows and map entries flat" ;;
77) skip "soak.sh cannot run here" ;;
*) fail "soak.sh verdict: exit $rc" ;;
esac

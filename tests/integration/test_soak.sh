#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_soak.sh - the CI-sized long run: scripts/soak.sh for 60 s against a
# pipe ping-pong on every CPU plus a trickle of short processes; fails if
# switchstat's RSS grows more than 512 kB after the warm-up, if the rows
# drained per interval or its hash-map entries climb, or if it dies.
# (Run scripts/soak.sh -t 3600 by hand for the long version.)
. "$(dirname "$0")/lib.sh"
need_root
command -v bpftool >/dev/null || skip "needs bpftool"
[ -x "$WORKLOADS/pingpong" ] && [ -x "$WORKLOADS/forkstorm" ] || fail "workloads missing in $WORKLOADS"

rc=0
bash "$SRC/scripts/soak.sh" -t "${SOAK_SECONDS:-60}" -i 1000 -g 512 \
	-b "$SWITCHSTAT" -w "$WORKLOADS" || rc=$?
case $rc in
0) pass "soak: RSS, rows and map entries flat" ;;
77) skip "soak.sh cannot run here" ;;
*) fail "soak.sh verdict: exit $rc" ;;
esac

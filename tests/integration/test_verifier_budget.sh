#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_verifier_budget.sh - the largest combination of options (every
# feature, -L, every --hist kind, -P, -M, two -e events) loads on each
# sched_switch path, and no program of it makes the verifier process more
# than a quarter of its limit (1M instructions a program): each feature's
# switch work is verified apart (probes/switch.bpf.c, the stages), so the
# count grows with the sum of the features; a feature that multiplies
# another's branches is caught well before a kernel refuses the program.
# The counts are the verifier's own (-v: BPF_LOG_STATS, Linux 5.2+); they
# depend on the kernel and the probe text, never on time.
. "$(dirname "$0")/lib.sh"
need_root

LIMIT=1000000
MAX=$((LIMIT / 4))
BIG="--blame --stacks --offcpu --wakers -L -P -M -e cpu-clock,page-faults"
BIG+=" --hist oncpu,offcpu,runq,offcpu-S,offcpu-D,offcpu-IO,offcpu-T,offcpu-R"
# the sched_switch paths, as environment settings
PATHS=("" "SWITCHSTAT_TEST=exit_tp_now,no_raw" "SWITCHSTAT_TEST=exit_tp_now,no_btf")

i=0
for p in "${PATHS[@]}"; do
	o=$BIG
	# --wakers needs the raw tracepoints
	[[ "$p" != *no_raw* ]] || o=${BIG/ --wakers/}
	rc=0
	# shellcheck disable=SC2086 # the options are words
	env $p SWITCHSTAT_BPF_CACHE=off "$SWITCHSTAT" -v -d 1 $o \
		>"$T/$i.out" 2>"$T/$i.err" </dev/null || rc=$?
	what="${p:-default path}: switchstat -v -d 1 $o"
	[ "$rc" -eq 0 ] || fail "$what: exit $rc: $(grep -m1 rejected "$T/$i.err")"
	read -r n prog sum < <(awk '/^switchstat: verifier: / {
			s += $4; if ($4 > m) { m = $4; p = $3 } }
		END { print m + 0, p, s + 0 }' "$T/$i.err")
	[ "$n" -gt 0 ] || fail "$what: no verifier figures in -v"
	info "${p:-default path}: largest program ${prog%:} $n insns processed" \
		"(all programs $sum)"
	[ "$n" -le "$MAX" ] || fail "$what: ${prog%:} $n insns processed > $MAX"
	i=$((i + 1))
done
pass "the largest combination: every program under $MAX insns processed on ${#PATHS[@]} paths"

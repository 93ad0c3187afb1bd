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
# the sched_switch paths the seams force, as environment settings
FORCED=("SWITCHSTAT_TEST=exit_tp_now,no_raw" "SWITCHSTAT_TEST=exit_tp_now,no_btf")

# load I ENV: switchstat -v -d 1 with the largest combination on the path
# ENV sets ("" the kernel's own); output in $T/I.out, $T/I.err, exit code
# in $T/I.rc.  The compiled-BPF cache (SWITCHSTAT_BPF_CACHE, ctest's) is
# used: a hit loads the same instructions, and the verifier's figures are
# the load's
load() {
	local o=$BIG rc=0
	# --wakers needs the raw tracepoints
	[[ "$2" != *no_raw* ]] || o=${BIG/ --wakers/}
	echo "${2:-default path}: switchstat -v -d 1 $o" >"$T/$1.what" # not a window: the run's description
	# shellcheck disable=SC2086 # the options are words
	# not a window: the verifier's verdict on the load only
	env $2 "$SWITCHSTAT" -v -d 1 $o \
		>"$T/$1.out" 2>"$T/$1.err" </dev/null || rc=$?
	echo "$rc" >"$T/$1.rc"
}

# verdict I: the load exited 0, and its largest program is under MAX
verdict() {
	local what n prog sum
	what=$(cat "$T/$1.what")
	[ "$(cat "$T/$1.rc")" -eq 0 ] ||
		fail "$what: exit $(cat "$T/$1.rc"): $(grep -m1 rejected "$T/$1.err")"
	read -r n prog sum < <(awk '/^switchstat: verifier: / {
			s += $4; if ($4 > m) { m = $4; p = $3 } }
		END { print m + 0, p, s + 0 }' "$T/$1.err")
	[ "$n" -gt 0 ] || fail "$what: no verifier figures in -v"
	info "${what%%:*}: largest program ${prog%:} $n insns processed" \
		"(all programs $sum)"
	[ "$n" -le "$MAX" ] || fail "$what: ${prog%:} $n insns processed > $MAX"
}

# the kernel's own path first; a forced path it already took (regular
# tracepoints: no raw ones with BTF; pid-keyed rows: no BTF) would load
# the same programs again and is left out.  The others differ in their
# sched_switch programs (on 5.10 the regular one is the largest of all),
# so each is loaded once, the two side by side.
load 0 ""
verdict 0
i=1
pids=()
for p in "${FORCED[@]}"; do
	if [[ "$p" == *no_raw* ]] && grep -q "^switchstat: sched tracepoints: regular" "$T/0.err"; then
		info "$p: the kernel's own path (regular tracepoints), loaded above"
		continue
	fi
	if [[ "$p" == *no_btf* ]] && ! grep -q "^switchstat: rows keyed by process start time" "$T/0.err"; then
		info "$p: the kernel's own path (no BTF identity), loaded above"
		continue
	fi
	load "$i" "$p" &
	pids+=("$!")
	i=$((i + 1))
done
for pid in "${pids[@]}"; do wait "$pid"; done
for j in $(seq 1 $((i - 1))); do verdict "$j"; done
pass "the largest combination: every program under $MAX insns processed on $i paths"

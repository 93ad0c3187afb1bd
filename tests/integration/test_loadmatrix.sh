#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_loadmatrix.sh - every meaningful combination of the features that add
# code to the probes (grouping -L/-G, histogram kinds per CPU or -P,
# -M, software perf events, --blame, --trace, the -p/-t/--cgroup filters)
# must load and attach on each sched_switch path: the raw tracepoint (the
# default where BTF allows), the regular tracepoint (SWITCHSTAT_TEST=no_raw)
# and the no-BTF identity fallback.  The verifier rejects a program whose
# branches multiply past its complexity limit (E2BIG at 1M processed
# instructions), so a feature that adds branches to the shared hot path
# can break a combination nobody else runs; each run here must print the
# "Tracing" banner (loaded and attached: its probes run from then on) and
# exit 0 when stopped by SIGINT at once after it (its partial interval
# read and printed).  Runs go JOBS at a time.
. "$(dirname "$0")/lib.sh"
need_root
[ -x "$WORKLOADS/sleeper" ] || fail "workload sleeper not built in $WORKLOADS"

JOBS=4
"$WORKLOADS/sleeper" 100000 &
SLEEPER=$!
BG_PIDS+=("$SLEEPER")
CG=
V2=$(cg2_mount)
if [ -n "$V2" ]; then
	CG=$V2$(sed -n 's/^0:://p' "/proc/$SLEEPER/cgroup")
	[ -d "$CG" ] || CG=
fi

ALLH="--hist oncpu,offcpu,runq"
EV="-e cpu-clock,page-faults"
# the largest combination: every feature, every --hist kind (its verifier
# figures: test_verifier_budget)
BIG="--blame --stacks --offcpu --wakers -L -P -M $EV --hist"
BIG+=" oncpu,offcpu,runq,offcpu-S,offcpu-D,offcpu-IO,offcpu-T,offcpu-R"
# options, one combination a line; each runs on every path below
OPTS=(
	""
	"-L"
	"-G"
	"--idle --check"
	"-M $EV"
	"-L -M $EV"
	"-G -M $EV"
	"--hist oncpu"
	"--hist offcpu -P"
	"--hist runq -P"
	"$ALLH"
	"$ALLH -P"
	"$ALLH -P -M"
	"$ALLH -P $EV"
	"$ALLH -M $EV"
	"$ALLH -P -M $EV"
	"$ALLH -L -P -M $EV"
	"$ALLH -G -P -M $EV"
	"$ALLH -G -M $EV"
	"$ALLH -L -M $EV -m"
	"--blame"
	"--blame -L"
	"--blame -G"
	"--blame -M $EV"
	"--blame --hist oncpu"
	"--blame --hist runq -P"
	"--blame $ALLH -P -M $EV"
	"--blame $ALLH -L -P -M $EV"
	"--blame $ALLH -G -P -M $EV"
	"--trace"
	"--trace -L"
	"--trace -p $SLEEPER"
	"-p $SLEEPER $ALLH -P -M $EV"
	"-t $SLEEPER $ALLH -L -P -M $EV"
	"-p $SLEEPER --blame $ALLH -P -M $EV"
	"$BIG"
)
if [ -n "$CG" ]; then
	OPTS+=(
		"--cgroup $CG"
		"--cgroup $CG -G $ALLH -P -M $EV"
		"--cgroup $CG --blame $ALLH -P -M $EV"
		"--trace --cgroup $CG"
	)
else
	info "no cgroup v2 path for the sleeper: --cgroup combinations skipped"
fi
# the sched_switch paths, as environment settings
PATHS=("" "SWITCHSTAT_TEST=no_raw" "SWITCHSTAT_TEST=no_btf")

# run N ENV OPTS: one start, stopped (SIGINT) once its banner is out or
# SS_HANG_S has gone by without it; output in $T/N.out and $T/N.err, exit
# code in $T/N.rc
run() {
	local n=$1 envs=$2 opts=$3 pid rc=0 end=$((SECONDS + SS_HANG_S))
	# shellcheck disable=SC2086
	env $envs "$SWITCHSTAT" $opts >"$T/$n.out" 2>"$T/$n.err" </dev/null &
	pid=$!
	until grep -q "^Tracing" "$T/$n.out" "$T/$n.err" 2>/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null || [ "$SECONDS" -ge "$end" ]; then
			break
		fi
		sleep 0.05
	done
	kill -INT "$pid" 2>/dev/null
	wait "$pid" || rc=$?
	echo "$rc" >"$T/$n.rc"
}

# the compiled-BPF cache (SWITCHSTAT_BPF_CACHE, CMakeLists.txt): a
# directory per path and per 30 option sets, so that each keeps all its
# objects (SS_CACHE_KEEP: 32 files) and the next run loads them all
CACHE=${SWITCHSTAT_BPF_CACHE:-off}
n=0
pi=0
declare -a DESC RUNS
for p in "${PATHS[@]}"; do
	oi=0
	for o in "${OPTS[@]}"; do
		# --wakers needs the raw tracepoints
		[[ "$o" != "$BIG" || "$p" != *no_raw* ]] || o=${BIG/ --wakers/}
		DESC[n]="${p:-default path}: switchstat $o"
		c=off
		[ "$CACHE" = off ] || c=$CACHE/$pi-$((oi / 30))
		run "$n" "$p SWITCHSTAT_BPF_CACHE=$c" "$o" &
		oi=$((oi + 1))
		BG_PIDS+=("$!")
		RUNS+=("$!")
		n=$((n + 1))
		while [ "$(jobs -rp | wc -l)" -ge $((JOBS + 1)) ]; do
			wait -n
		done
	done
	pi=$((pi + 1))
done
wait "${RUNS[@]}" # not the sleeper

failed=0
for i in $(seq 0 $((n - 1))); do
	rc=$(cat "$T/$i.rc" 2>/dev/null || echo none)
	why=
	[ "$rc" = 0 ] || why="exit $rc"
	grep -q "^Tracing" "$T/$i.out" "$T/$i.err" || why="${why:+$why, }no Tracing banner"
	if [ -n "$why" ]; then
		echo "  ${DESC[i]}: $why" >&2
		# the verifier's verdict, not its whole log
		grep -E "^processed |rejected|^switchstat:" "$T/$i.err" |
			grep -v "counters unavailable" | sed 's/^/    /' >&2
		failed=$((failed + 1))
	fi
done
[ "$failed" -eq 0 ] || fail "$failed of $n combinations did not load and attach"
pass "$n combinations (${#OPTS[@]} option sets x ${#PATHS[@]} paths) attached and exited 0 on SIGINT"

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
#
# The default path runs every option set; the two fallback paths run
# those no other set contains (COVER), each compiled and loaded once:
# the verifier checks each program apart and walks every branch of it,
# so a set whose programs hold all the code of a smaller one (the same
# row key -L/-G/process, hist key -P/none, filter and stage decision:
# stages when two or more of --hist, --blame, --offcpu, never with
# --trace; a superset of the features, or a filter more) makes it walk
# all the smaller set's branches and more.  Each REST line names the
# COVER set that holds it.  Constants the branches do not depend on (-m,
# the pid of -p) and options outside the probes (--idle, --check) add
# nothing.  Every feature, both stage decisions and $BIG load on every
# path.
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
# options, one combination a line: COVER runs on every path below, REST
# on the default path only (after each, the COVER set that holds it)
COVER=(
	"$ALLH -M $EV"
	"$ALLH -G -P -M $EV"
	"$ALLH -G -M $EV"
	"--blame -M $EV"
	"--blame -L"
	"--blame -G"
	"--blame --hist oncpu"
	"--blame $ALLH -G -P -M $EV"
	"--trace -L"
	"--trace -p $SLEEPER"
	"-p $SLEEPER $ALLH -P -M $EV"
	"-t $SLEEPER $ALLH -L -P -M $EV"
	"-p $SLEEPER --blame $ALLH -P -M $EV"
	"$BIG"
)
REST=(
	""                              # $ALLH -M $EV
	"-L"                            # -t $SLEEPER $ALLH -L -P -M $EV
	"-G"                            # $ALLH -G -M $EV
	"--idle --check"                # $ALLH -M $EV
	"-M $EV"                        # $ALLH -M $EV
	"-L -M $EV"                     # -t $SLEEPER $ALLH -L -P -M $EV
	"-G -M $EV"                     # $ALLH -G -M $EV
	"--hist oncpu"                  # $ALLH -M $EV
	"--hist offcpu -P"              # -p $SLEEPER $ALLH -P -M $EV
	"--hist runq -P"                # -p $SLEEPER $ALLH -P -M $EV
	"$ALLH"                         # $ALLH -M $EV
	"$ALLH -P"                      # -p $SLEEPER $ALLH -P -M $EV
	"$ALLH -P -M"                   # -p $SLEEPER $ALLH -P -M $EV
	"$ALLH -P $EV"                  # -p $SLEEPER $ALLH -P -M $EV
	"$ALLH -P -M $EV"               # -p $SLEEPER $ALLH -P -M $EV
	"$ALLH -L -P -M $EV"            # -t $SLEEPER $ALLH -L -P -M $EV
	"$ALLH -L -M $EV -m"            # -t $SLEEPER $ALLH -L -P -M $EV
	"--blame"                       # --blame -M $EV
	"--blame --hist runq -P"        # -p $SLEEPER --blame $ALLH -P -M $EV
	"--blame $ALLH -P -M $EV"       # -p $SLEEPER --blame $ALLH -P -M $EV
	"--blame $ALLH -L -P -M $EV"    # $BIG
	"--trace"                       # --trace -p $SLEEPER
)
if [ -n "$CG" ]; then
	COVER+=(
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

# the compiled-BPF cache: ctest's (SWITCHSTAT_BPF_CACHE and _KEEP,
# CMakeLists.txt), which keeps every key of a run, so the next run loads
# them all
n=0
declare -a DESC RUNS
for p in "${PATHS[@]}"; do
	opts=("${COVER[@]}")
	[ -n "$p" ] || opts+=("${REST[@]}")
	for o in "${opts[@]}"; do
		# --wakers needs the raw tracepoints
		[[ "$o" != "$BIG" || "$p" != *no_raw* ]] || o=${BIG/ --wakers/}
		DESC[n]="${p:-default path}: switchstat $o"
		run "$n" "$p" "$o" &
		BG_PIDS+=("$!")
		RUNS+=("$!")
		n=$((n + 1))
		while [ "$(jobs -rp | wc -l)" -ge $((JOBS + 1)) ]; do
			wait -n
		done
	done
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
pass "$n combinations (${#COVER[@]} option sets x ${#PATHS[@]} paths, ${#REST[@]} more on the default path) attached and exited 0 on SIGINT"

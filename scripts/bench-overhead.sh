#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-overhead.sh - what tracing sched_switch costs: start-up time,
# memory, and the time each switch spends in BPF, for switchstat next to an
# empty bcc program, bpftrace and bcc's runqlat, in one run.
#
# Variants, run in alternating rounds (the order rotates every round) so
# drift (other load, frequency) hits all alike:
#
#   base      no tracer
#   default   switchstat -i 1000 (its compiled probes from the cache after
#             the first round: src/kernel/bpf_cache.c)
#   cold      the same, compiled at every start (SWITCHSTAT_BPF_CACHE=off):
#             a first start's start-up and peak memory
#   exittp    the same with its sched_exit_tp program attached
#             (SWITCHSTAT_TEST=exit_tp: as features that need every
#             slice's start have it), for what catching the switches the
#             kernel does not report there costs
#   window    default with its rows on the sched_switch window
#             (SWITCHSTAT_TEST=window_clock: bpf_ktime_get_ns at every
#             switch, as before the kernel's task clock)
#   nocache   default without the per-CPU row cache
#             (SWITCHSTAT_TEST=no_row_cache: a row-map lookup and
#             atomic adds at every switch)
#   before    default as it was before the row cache and the kernel's
#             clock (sched_exit_tp attached, no row cache)
#   offcpu    switchstat -i 1000 --offcpu (off-CPU time by state)
#   wakers    switchstat -i 1000 --offcpu --wakers (its programs on
#             sched_waking and the interrupt entry/exit tracepoints listed)
#   stacks    switchstat -i 1000 --stacks -f (kernel and user stacks where
#             tasks block)
#   counters  switchstat -i 1000 -e cpu-clock,task-clock,page-faults
#             (software counters: this machine may have no PMU)
#   blame     switchstat -i 1000 --blame (run-queue blame: its switch
#             program and the tail-called ss_blame_flush_sw are listed)
#   emptybcc  an empty sched_switch tracepoint program compiled and attached
#             through libbcc (build/bench/empty_bcc, tests/bench/empty_bcc.c)
#   emptybtf  an empty tp_btf sched_switch program (the raw path switchstat's
#             default mode takes): the floor of its dispatch
#             (build/bench/empty_btf, tests/bench/empty_btf.c)
#   floor8    eight copies of it (empty_btf --copies 8): eight dispatches a
#             switch, so one program's dispatch is its added cost / 8,
#             measured far above the pipe's noise; with the bodies from
#             bpf_stats it gives each variant's derived cost a switch
#             (dispatches x runs a switch + bodies over the floor's)
#   readctr   the same with one bpf_perf_event_read_value of a per-CPU
#             cpu-clock counter: what the kernel's own counter read costs
#             (empty_btf --read)
#   ktime     the empty tp_btf program with one bpf_ktime_get_ns(): what
#             the sched_switch window's clock read costs a switch
#             (empty_btf --ktime)
#   kclock    the empty tp_btf program loading prev's and next's
#             se.sum_exec_runtime in place: what the kernel's own per-task
#             clock would cost instead (empty_btf --kclock)
#   a_default, a_offcpu, a_wakers, a_stacks, a_counters, a_blame  with -a:
#             those variants run by the other binary (say main's build),
#             so a change and what it replaces are measured in one run
#   bpftrace  tracepoint:sched:sched_switch { @[args->prev_comm] = count(); }
#   runqlat   bcc's runqlat (bpfcc-tools: runqlat-bpfcc)
#
# Per variant and round:
#   start    seconds from exec to the tracer's "Tracing..." line, printed
#            once its programs are attached (bpftrace: a BEGIN printf, which
#            fires after every probe is attached)
#   peak     VmHWM (peak resident set, MB) at the end of the round
#   steady   VmRSS (MB) at least 2 s after start-up, after the benchmark
#   usecs/op `perf bench sched pipe` pinned to CPU 0 (two tasks bouncing a
#            pipe: every round trip is two context switches), the fastest
#            of -n short runs
#   ns/run   run_time_ns / run_cnt of the tracer's sched_switch program
#            from bpf_stats, over the benchmark only (other programs of the
#            tracer listed beside it)
#   all ns/switch  every program of the tracer: run_time_ns summed over
#            them, per run of its sched_switch program (what a switch
#            costs when a tracer has more than one program on the path)
# sched_exit_tp, where a variant compiles it in (counters, blame, ...), is
# attached at start-up (SWITCHSTAT_TEST=exit_tp_now): on a kernel that
# hides switches, as this VM's, switchstat attaches it within the first
# interval anyway, so that is its steady cost there; on one that hides
# none it is never attached, and the variant costs the exittp row's
# difference (exittp - default) less.
# The timed benchmark runs with bpf_stats off (kernel.bpf_stats_enabled=0:
# with it on, the kernel reads its clock twice around every program run,
# about a ktime read each, which no user pays and which weighs on a tracer
# by its number of programs); a second, shorter run right after it (-B
# loops) with bpf_stats on gives the ns/run figures.  -k keeps bpf_stats on
# for the timed run too (as this script did before 2026-12-06).
# The summary shows medians over the rounds, the fastest round's usecs/op
# beside them (noise only adds time), the cost each variant adds a switch over the
# baseline ((usecs/op - base) / 2, by either) and the issue-22 ratios among
# the variants run.  During each benchmark CPU 1 is kept busy by a
# spinning shell loop: on a VM an idle sibling vCPU makes the pipe benchmark
# about 2x slower and far noisier, which would swamp the tracers' cost.  The
# tracer itself is moved to CPU 1 once attached.  Start-up is measured
# without the spinner, on whatever else the machine runs: the load average
# is printed before and after.  kernel.bpf_stats_enabled is restored at
# exit.
#
# Usage: scripts/bench-overhead.sh [-r ROUNDS] [-l LOOPS] [-b SWITCHSTAT]
#        [-e EMPTY_BCC] [-o CSV] [-s SUMMARY_CSV] [-x VARIANT]... [-k]
#        [-n RUNS] [-B LOOPS] [-V VARIANT]... [-a SWITCHSTAT]
#   -r ROUNDS  rounds (default 5)
#   -l LOOPS   perf bench loops per timed run (default 40000)
#   -n RUNS    timed runs per variant and round, the fastest kept
#              (default 5)
#   -B LOOPS   loops of the bpf_stats run after them (default 50000)
#   -k         bpf_stats on during the timed run too (one run per round)
#   -V NAME    run only these variants (repeatable; base is always run)
#   -b PATH    switchstat binary (default build/switchstat, then PATH)
#   -a PATH    another switchstat binary: the a_* variants
#   -e PATH    empty bcc program (default build/bench/empty_bcc)
#   -o CSV     every measurement, one row per round, variant and program
#   -s CSV     the summary table as CSV
#   -x NAME    skip a variant (repeatable)
# Needs root, perf (Debian linux-perf), bpftool; bpftrace, runqlat-bpfcc
# and empty_bcc optional (a missing one's variant is skipped with a note).
set -u

ROUNDS=5
LOOPS=40000
RUNS=5
SS=""
EMPTY=""
CSV=""
SUMCSV=""
SKIP=" "
ONLY=" "
SLOOPS=50000
KEEP_STATS=0
SSA=""
while getopts "r:l:n:b:e:o:s:x:B:V:a:kh" c; do
	case $c in
	r) ROUNDS=$OPTARG ;;
	l) LOOPS=$OPTARG ;;
	n) RUNS=$OPTARG ;;
	b) SS=$OPTARG ;;
	a) SSA=$OPTARG ;;
	e) EMPTY=$OPTARG ;;
	o) CSV=$OPTARG ;;
	s) SUMCSV=$OPTARG ;;
	x) SKIP="$SKIP$OPTARG " ;;
	B) SLOOPS=$OPTARG ;;
	V) ONLY="$ONLY$OPTARG " ;;
	k) KEEP_STATS=1 ;;
	*) sed -n '3,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
case $ROUNDS$LOOPS$SLOOPS$RUNS in *[!0-9]*) echo "bench: -r, -l, -n and -B want numbers" >&2; exit 2 ;; esac
[ "$ROUNDS" -ge 1 ] && [ "$LOOPS" -ge 1000 ] && [ "$SLOOPS" -ge 1000 ] && [ "$RUNS" -ge 1 ] ||
	{ echo "bench: want -r >= 1, -l >= 1000, -n >= 1 and -B >= 1000" >&2; exit 2; }

here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$SS" ]; then
	SS=$here/build/switchstat
	[ -x "$SS" ] || SS=$(command -v switchstat || true)
fi
[ -n "$EMPTY" ] || EMPTY=$here/build/bench/empty_bcc
RUNQLAT=$(command -v runqlat-bpfcc || echo /usr/sbin/runqlat-bpfcc)
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root" >&2; exit 1; }
[ -n "$SS" ] && [ -x "$SS" ] || { echo "bench: switchstat binary not found (use -b)" >&2; exit 1; }
command -v bpftool >/dev/null || { echo "bench: needs bpftool" >&2; exit 1; }

# Debian's perf is a wrapper that runs perf_<kernel version>; with another
# kernel running, call a versioned binary directly.
PERF=""
for p in perf $(cd /usr/bin && ls perf_* 2>/dev/null | sort -rV); do
	if command -v "$p" >/dev/null && "$p" bench sched pipe -l 10 >/dev/null 2>&1; then
		PERF=$p
		break
	fi
done
[ -n "$PERF" ] || { echo "bench: perf not found or not working (apt-get install linux-perf)" >&2; exit 1; }

VARIANTS="base default cold window before exittp nocache offcpu wakers stacks counters blame emptybcc emptybtf floor8 readctr ktime kclock bpftrace runqlat"
if [ -n "$SSA" ]; then
	[ -x "$SSA" ] || { echo "bench: -a $SSA: not an executable" >&2; exit 1; }
	VARIANTS="$VARIANTS a_default a_offcpu a_wakers a_stacks a_counters a_blame"
fi
command -v bpftrace >/dev/null || { echo "bench: bpftrace not installed: skipping it" >&2; SKIP="$SKIP""bpftrace "; }
[ -x "$EMPTY" ] || { echo "bench: $EMPTY missing (build with -DSWITCHSTAT_TESTS=ON): skipping emptybcc" >&2; SKIP="$SKIP""emptybcc "; }
EMPTYBTF=$(dirname "$EMPTY")/empty_btf
[ -x "$EMPTYBTF" ] || { echo "bench: $EMPTYBTF missing: skipping emptybtf, floor8, readctr, ktime, kclock" >&2; SKIP="$SKIP""emptybtf floor8 readctr ktime kclock "; }
[ -x "$RUNQLAT" ] || { echo "bench: runqlat-bpfcc not installed (bpfcc-tools): skipping it" >&2; SKIP="$SKIP""runqlat "; }
run_variants=""
for v in $VARIANTS; do
	case "$ONLY" in " ") ;; *" $v "*) ;; *) [ "$v" = base ] || continue ;; esac
	case "$SKIP" in *" $v "*) ;; *) run_variants="$run_variants $v" ;; esac
done

W=$(mktemp -d /tmp/ss-bench.XXXXXX)
export SWITCHSTAT_TEST=exit_tp_now
STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled)
TRACER=""
READER=""
BUSY=""
cleanup() {
	[ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null
	[ -n "$TRACER" ] && kill -KILL "$TRACER" 2>/dev/null && wait "$TRACER" 2>/dev/null
	[ -n "$READER" ] && kill "$READER" 2>/dev/null
	sysctl -q -w kernel.bpf_stats_enabled="$STATS_WAS"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
sysctl -q -w kernel.bpf_stats_enabled=$KEEP_STATS

# prog_ids PID: ids of the BPF programs whose fds PID holds
prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un
}

# prog_stats ID...: "id name run_time_ns run_cnt" per program
prog_stats() {
	local id
	for id in "$@"; do
		bpftool -j prog show id "$id" 2>/dev/null | python3 -c '
import json, sys
p = json.load(sys.stdin)
print(sys.argv[1], p.get("name", "?"), p.get("run_time_ns", 0), p.get("run_cnt", 0))' "$id"
	done
}

# status_kb PID FIELD: a /proc/PID/status field in kB
status_kb() {
	awk -v f="$2:" '$1 == f { print $2 }' /proc/"$1"/status 2>/dev/null
}

# launch VARIANT: start the tracer with stdout into a FIFO whose reader
# notes the time of the first "Tracing" line; sets TRACER
launch() {
	rm -f "$W/fifo" "$W/ready"
	mkfifo "$W/fifo"
	(
		t=""
		while IFS= read -r l; do
			case $l in *Tracing*) [ -z "$t" ] && t=$EPOCHREALTIME && echo "$t" >"$W/ready" ;; esac
		done
	) <"$W/fifo" &
	READER=$!
	T0=$EPOCHREALTIME
	case $1 in
	default) exec "$SS" -i 1000 >"$W/fifo" 2>"$W/err" & ;;
	cold) SWITCHSTAT_BPF_CACHE=off exec "$SS" -i 1000 >"$W/fifo" 2>"$W/err" & ;;
	exittp) SWITCHSTAT_TEST=exit_tp exec "$SS" -i 1000 >"$W/fifo" 2>"$W/err" & ;;
	window) SWITCHSTAT_TEST=exit_tp_now,window_clock exec "$SS" -i 1000 >"$W/fifo" 2>"$W/err" & ;;
	nocache) SWITCHSTAT_TEST=exit_tp_now,no_row_cache exec "$SS" -i 1000 >"$W/fifo" 2>"$W/err" & ;;
	before) SWITCHSTAT_TEST=exit_tp,no_row_cache,no_kclock \
		exec "$SS" -i 1000 >"$W/fifo" 2>"$W/err" & ;;
	blame) exec "$SS" -i 1000 --blame >"$W/fifo" 2>"$W/err" & ;;
	offcpu) exec "$SS" -i 1000 --offcpu >"$W/fifo" 2>"$W/err" & ;;
	wakers) exec "$SS" -i 1000 --offcpu --wakers >"$W/fifo" 2>"$W/err" & ;;
	stacks) exec "$SS" -i 1000 --stacks -f >"$W/fifo" 2>&1 & ;;
	counters) exec "$SS" -v -i 1000 -e cpu-clock,task-clock,page-faults >"$W/fifo" 2>"$W/err" & ;;
	a_default) exec "$SSA" -i 1000 >"$W/fifo" 2>"$W/err" & ;;
	a_blame) exec "$SSA" -i 1000 --blame >"$W/fifo" 2>"$W/err" & ;;
	a_offcpu) exec "$SSA" -i 1000 --offcpu >"$W/fifo" 2>"$W/err" & ;;
	a_wakers) exec "$SSA" -i 1000 --offcpu --wakers >"$W/fifo" 2>"$W/err" & ;;
	a_stacks) exec "$SSA" -i 1000 --stacks -f >"$W/fifo" 2>&1 & ;;
	a_counters) exec "$SSA" -v -i 1000 -e cpu-clock,task-clock,page-faults >"$W/fifo" 2>"$W/err" & ;;
	emptybcc) exec "$EMPTY" >"$W/fifo" 2>"$W/err" & ;;
	emptybtf) exec "$EMPTYBTF" >"$W/fifo" 2>"$W/err" & ;;
	floor8) exec "$EMPTYBTF" --copies 8 >"$W/fifo" 2>"$W/err" & ;;
	readctr) exec "$EMPTYBTF" --read >"$W/fifo" 2>"$W/err" & ;;
	ktime) exec "$EMPTYBTF" --ktime >"$W/fifo" 2>"$W/err" & ;;
	kclock) exec "$EMPTYBTF" --kclock >"$W/fifo" 2>"$W/err" & ;;
	bpftrace) (ulimit -l unlimited 2>/dev/null
		exec bpftrace -B line -e 'BEGIN { printf("Tracing\n"); }
			tracepoint:sched:sched_switch { @[args->prev_comm] = count(); }') >"$W/fifo" 2>"$W/err" & ;;
	runqlat) PYTHONUNBUFFERED=1 exec "$RUNQLAT" >"$W/fifo" 2>"$W/err" & ;;
	esac
	TRACER=$!
}

# start_tracer VARIANT: launch it, wait for its "Tracing" line, move it to
# CPU 1; sets TRACER, START (seconds) and IDS (program ids)
start_tracer() {
	local i variant=$1
	launch "$variant"
	for i in $(seq 1 6000); do
		[ -s "$W/ready" ] && break
		kill -0 "$TRACER" 2>/dev/null || { cat "$W/err" >&2; echo "bench: $variant exited early" >&2; exit 1; }
		sleep 0.01
	done
	[ -s "$W/ready" ] || { echo "bench: $variant did not attach within 60 s" >&2; exit 1; }
	START=$(awk -v a="$T0" -v b="$(cat "$W/ready")" 'BEGIN { printf "%.3f", b - a }')
	IDS=$(prog_ids "$TRACER")
	taskset -a -p -c 1 "$TRACER" >/dev/null
	# -e must really read counters at each switch
	if [ "$variant" = counters ] && ! grep -q 'SS_NR_COUNTERS=3' "$W/err"; then
		echo "bench: this switchstat ignores -e (no SS_NR_COUNTERS=3 in its -v cflags): counters variant measures the default path" >&2
	fi
}

# stop_tracer: SIGINT, repeated every 2 s (bpftrace 0.17 sometimes misses
# one; python started in the background ignores it, so SIGTERM next),
# SIGKILL after 10 s
stop_tracer() {
	local i
	for i in $(seq 0 99); do
		kill -0 "$TRACER" 2>/dev/null || break
		[ $((i % 20)) -eq 0 ] && kill -INT "$TRACER" 2>/dev/null
		[ $((i % 20)) -eq 10 ] && kill -TERM "$TRACER" 2>/dev/null
		sleep 0.1
	done
	kill -KILL "$TRACER" 2>/dev/null
	wait "$TRACER" 2>/dev/null
	wait "$READER" 2>/dev/null
	TRACER=""
	READER=""
}

# bench [LOOPS [RUNS]]: usecs per round trip of perf bench runs on CPU 0,
# with CPU 1 kept busy: the fastest of RUNS runs (this VM's pipe times
# jump by up to 40 % for a fraction of a second now and then: bursts of
# other work that only add time, and that the fastest of several short
# runs leaves out)
bench() {
	local i best="" us
	taskset -c 1 sh -c 'while :; do :; done' &
	BUSY=$!
	for i in $(seq 1 "${2:-$RUNS}"); do
		us=$(taskset -c 0 "$PERF" bench sched pipe -l "${1:-$LOOPS}" 2>/dev/null |
			awk '/usecs\/op/ { print $1 }')
		[ -n "$us" ] || { best=""; break; }
		best=$(awk -v a="$us" -v b="$best" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }')
	done
	kill "$BUSY" 2>/dev/null
	wait "$BUSY" 2>/dev/null
	BUSY=""
	echo "$best"
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
if [ "$KEEP_STATS" = 1 ]; then
	echo "# $(uname -r), $(nproc) CPUs, $PERF bench sched pipe -l $LOOPS on CPU 0, the fastest of $RUNS, $ROUNDS rounds, bpf_stats on"
else
	echo "# $(uname -r), $(nproc) CPUs, $PERF bench sched pipe -l $LOOPS on CPU 0, the fastest of $RUNS (bpf_stats off; then -l $SLOOPS with it on for ns/run), $ROUNDS rounds"
fi
echo "# switchstat: $SS"
echo "# load average at start: $LOAD0"
: >"$W/data"
for r in $(seq 1 "$ROUNDS"); do
	vs=($run_variants)
	k=$(((r - 1) % ${#vs[@]}))
	order="${vs[*]:k} ${vs[*]:0:k}"
	for v in $order; do
		IDS=""
		START=""
		peak=""
		steady=""
		if [ "$v" != base ]; then
			start_tracer "$v"
			ready=$(cat "$W/ready")
		fi
		prog_stats $IDS >"$W/s0"
		us=$(bench)
		[ -n "$us" ] || { echo "bench: perf bench failed" >&2; exit 1; }
		if [ "$KEEP_STATS" = 0 ] && [ -n "$IDS" ]; then
			# the bodies: a second run with bpf_stats on
			sysctl -q -w kernel.bpf_stats_enabled=1
			prog_stats $IDS >"$W/s0"
			bench "$SLOOPS" 1 >/dev/null
			prog_stats $IDS >"$W/s1"
			sysctl -q -w kernel.bpf_stats_enabled=0
		else
			prog_stats $IDS >"$W/s1"
		fi
		if [ "$v" != base ]; then
			# steady: at least 2 s after start-up
			while awk -v a="$ready" -v b="$EPOCHREALTIME" 'BEGIN { exit !(b - a < 2) }'; do
				sleep 0.1
			done
			steady=$(status_kb "$TRACER" VmRSS)
			peak=$(status_kb "$TRACER" VmHWM)
		fi
		progs=""
		rows=0
		while read -r id name t1 c1; do
			set -- $(awk -v id="$id" '$1 == id' "$W/s0")
			dc=$((c1 - ${4:-0}))
			[ "$dc" -gt 0 ] || continue
			ns=$(awk -v t=$((t1 - ${3:-0})) -v c=$dc 'BEGIN { printf "%.1f", t / c }')
			progs="$progs $name=$ns"
			echo "$r,$v,$START,$peak,$steady,$us,$name,$ns,$dc" >>"$W/data"
			rows=$((rows + 1))
		done <"$W/s1"
		[ "$rows" -eq 0 ] && echo "$r,$v,$START,$peak,$steady,$us,,," >>"$W/data"
		printf '  round %d %-9s start %6ss peak %7s kB steady %7s kB %8s usecs/op%s\n' \
			"$r" "$v" "${START:--}" "${peak:--}" "${steady:--}" "$us" "$progs" >&2
		[ "$v" != base ] && stop_tracer
	done
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "# load average at end: $LOAD1"
[ -n "$CSV" ] && { echo "round,variant,start_s,peak_kb,steady_kb,usecs_op,prog,ns_per_run,runs"; cat "$W/data"; } >"$CSV"

python3 - "$W/data" "${SUMCSV:-}" $run_variants <<'PY'
import statistics as st, sys
rows = [l.rstrip("\n").split(",") for l in open(sys.argv[1])]
sumcsv = sys.argv[2]
variants = sys.argv[3:]
per = {v: {"start": {}, "peak": {}, "steady": {}, "us": {}, "ns": {}, "tot": {}, "sw": {}, "cnt": {}}
       for v in variants}
for r, v, start, peak, steady, u, prog, n, runs in rows:
    d = per[v]
    if prog:
        d["tot"][r] = d["tot"].get(r, 0) + float(n) * int(runs)
        d["cnt"][r] = d["cnt"].get(r, 0) + int(runs)
        if "switch" in prog and r not in d["sw"]:
            d["sw"][r] = int(runs)
    d["us"][r] = float(u)
    if start:
        d["start"][r] = float(start)
    if peak:
        d["peak"][r] = int(peak) / 1024
    if steady:
        d["steady"][r] = int(steady) / 1024
    if prog:
        d["ns"].setdefault(prog, []).append(float(n))

def med(x):
    return st.median(x) if x else None

def fmt(x, f, none="-"):
    return f % x if x is not None else none

base = med(list(per["base"]["us"].values())) if "base" in per else None
bmin = min(per["base"]["us"].values()) if "base" in per and per["base"]["us"] else None
hdr = ("variant", "start(s)", "peak(MB)", "steady(MB)", "switch ns/run",
       "all ns/switch", "usecs/op", "min", "added ns", "(min)", "other programs ns/run")
out = []
added = {}
for v in variants:
    d = per[v]
    progs = {p: med(x) for p, x in d["ns"].items()}
    sw = [p for p in progs if "switch" in p]
    swns = progs[sw[0]] if sw else None
    others = ", ".join("%.1f %s" % (progs[p], p) for p in sorted(progs) if p not in sw[:1])
    m = med(list(d["us"].values()))
    mn = min(d["us"].values()) if d["us"] else None
    allns = med([d["tot"][r] / d["sw"][r] for r in d["sw"] if d["sw"][r]])
    # the cost a switch adds: one round trip is two switches
    add = (m - base) * 500 if base is not None and m is not None and v != "base" else None
    addmin = (mn - bmin) * 500 if bmin is not None and mn is not None and v != "base" else None
    runs = med([d["cnt"][r] / d["sw"][r] for r in d["sw"] if d["sw"][r]])
    added[v] = (add, addmin, allns, runs)
    out.append((v, med(list(d["start"].values())), med(list(d["peak"].values())),
                med(list(d["steady"].values())), swns, allns, m, mn, add, addmin, others))
fmtrow = "%-9s %8s %8s %10s %13s %13s %9s %9s %8s %8s  %s"
print(fmtrow % hdr)
for v, s, p, sd, ns, a, m, mn, ad, am, o in out:
    print(fmtrow % (
        v, fmt(s, "%.3f"), fmt(p, "%.1f"), fmt(sd, "%.1f"), fmt(ns, "%.1f"),
        fmt(a, "%.1f"), fmt(m, "%.3f"), fmt(mn, "%.3f"), fmt(ad, "%.0f"),
        fmt(am, "%.0f"), o or "-"))

# Issue 22's targets, as ratios of the added cost a switch (median rounds;
# the fastest rounds' in brackets) and of the bpf_stats bodies
def ratio(a, b, k):
    x, y = added.get(a), added.get(b)
    if not x or not y or x[k] is None or y[k] is None or y[k] <= 0:
        return None
    return x[k] / y[k]

def show(label, a, b, limit):
    r = [ratio(a, b, k) for k in (0, 1, 2)]
    if r[0] is None:
        return
    print("  %-34s %5.2fx (fastest rounds %s, bodies %s, derived %s)  target <= %s" % (
        label, r[0], fmt(r[1], "%.2fx"), fmt(r[2], "%.2fx"), fmt(dratio(a, b), "%.2fx"), limit))

# derived: the floor's added cost F (its program the first on the
# tracepoint), one more program's dispatch s from floor8's slope, and the
# bodies beyond the floor's from bpf_stats (which time only the body:
# exact to a few ns where the pipe moves by tens)
deriv = {}
f8, f1 = added.get("floor8"), added.get("emptybtf")
if f8 and f1 and f8[0] is not None and f1[0] is not None and f1[2]:
    F, body0 = f1[0], f1[2]
    slope = (f8[0] - F) / 7
    print("derived: the floor's added cost F %.1f ns (emptybtf), one more program's dispatch s %.1f ns" % (F, slope))
    print("  ((floor8 - emptybtf) / 7); a variant's cost a switch = F + (runs - 1) x s + its bodies beyond")
    print("  the floor's (all its bodies a switch - runs x the floor's body, bpf_stats):")
    for v in variants:
        a = added.get(v)
        if v == "base" or not a or a[2] is None or not a[3]:
            continue
        beyond = a[2] - a[3] * body0
        deriv[v] = F + (a[3] - 1) * slope + beyond
        print("  %-9s %6.1f ns (%.2f program runs a switch; bodies %.1f ns, %.1f beyond the floor's)" % (
            v, deriv[v], a[3], a[2], beyond))

def dratio(a, b):
    return deriv[a] / deriv[b] if a in deriv and b in deriv and deriv[b] > 0 else None

print("targets (added ns a switch over the baseline, as ratios):")
show("default / bpftrace", "default", "bpftrace", "0.5x")
show("default / empty tp_btf (floor)", "default", "emptybtf", "1.5x")
show("--blame / default", "blame", "default", "2x")
c, d, r, f = (added.get(k) for k in ("counters", "default", "readctr", "emptybtf"))
if c and d and r and f and None not in (c[0], d[0], r[0], f[0]):
    per_ctr = (c[0] - d[0]) / 3
    read = r[0] - f[0]
    body_ctr = (c[2] - d[2]) / 3 if c[2] and d[2] else None
    body_read = r[2] - f[2] if r[2] and f[2] else None
    dc = (deriv["counters"] - deriv["default"]) / 3 if "counters" in deriv and "default" in deriv else None
    dr = deriv["readctr"] - deriv["emptybtf"] if "readctr" in deriv and "emptybtf" in deriv else None
    print("  %-34s %5.0f ns (bodies %s, derived %s) against a read of %.0f ns (bodies %s, derived %s) + 20" % (
        "a counter (counters - default) / 3", per_ctr, fmt(body_ctr, "%.0f"), fmt(dc, "%.0f"),
        read, fmt(body_read, "%.0f"), fmt(dr, "%.0f")))
if sumcsv:
    with open(sumcsv, "w") as f:
        f.write("variant,start_s,peak_mb,steady_mb,switch_ns_per_run,all_ns_per_switch,usecs_op,usecs_op_min,added_ns_per_switch,added_ns_per_switch_min,other_programs\n")
        def cf(x, f):  # an empty CSV field for none (a "-" in the table)
            return fmt(x, f, "")
        for v, s, p, sd, ns, a, m, mn, ad, am, o in out:
            f.write(",".join([v, cf(s, "%.3f"), cf(p, "%.1f"), cf(sd, "%.1f"),
                              cf(ns, "%.1f"), cf(a, "%.1f"), cf(m, "%.3f"), cf(mn, "%.3f"),
                              cf(ad, "%.0f"), cf(am, "%.0f"), '"%s"' % o]) + "\n")
PY

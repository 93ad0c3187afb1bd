#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_stacks_truth.sh - --stacks' user frames against symbol truth: nm
# for the names of frame-pointer builds, gdb's backtrace (CFI) for the
# walk.  The workload (tests/workloads/stacktruth, built with frame
# pointers, and stacktruth_nofp without) blocks once at a known stack,
# prints "PID NS" (the time it measured), then blocks at the same stack
# again for gdb (which reads it after switchstat is stopped).  Where gdb
# is not installed (the VM guests) its place is taken by the chain the
# source makes (main -> once -> walker -> real_leaf), said so.
#  1. a process that exits before its stacks are printed (exit mode,
#     beside a live copy, -p both): its stack is named from its own image
#     (__libc_start_call_main;main;once;outer_u01;block_u01, each an nm
#     symbol of the binary), within 5 % of the time it measured; folded
#     and NDJSON.  1b: one that blocks (walk), execs itself and blocks
#     again (exit) before exiting: both stacks named, each from its image.
#  2. no frame pointers (stacktruth_nofp), walk and fake (the frame
#     register points at a struct whose second word is never_called_cb's
#     address): every named user frame is one gdb shows, in gdb's order;
#     never_called_cb never; a stack whose walk stopped before the
#     thread's entry says so at its root ([truncated]) in folded, table
#     (its outermost frame) and NDJSON output.  The frame-pointer build's
#     walk (walk mode) is whole: real_leaf, walker, once, main, no marker.
#  3. deeper than the walk's limit (deep:200, kernel.perf_event_max_stack
#     frames at most): the stack's root is [deeper], in folded, table and
#     NDJSON, and its frames are gdb's innermost ones; deep:20 is whole
#     (rooted, no marker, 20 rec frames as gdb shows).
# The table and NDJSON runs of 2 (fake) and 3 (deep:200) trace the
# workload of the folded run at once.
. "$(dirname "$0")/lib.sh"
need_root
# how long each workload blocks at its stack, ms: the processes that exit
# (case 1) 700, while their images are read; those alive at the print
# (cases 2, 3: an image is read then at the latest) 200, of which the 5 %
# bound is 10 ms
MS=700
MS_LIVE=200
for w in stacktruth stacktruth_nofp; do
	[ -x "$WORKLOADS/$w" ] || fail "workload $w not built in $WORKLOADS"
done
command -v nm >/dev/null || skip "nm (binutils) not installed"
GDB=$(command -v gdb || true)
FAILED=""
# wrong NAME: case NAME failed (the other cases still run)
wrong() {
	echo "FAIL: $*" >&2
	FAILED="$FAILED; $*"
}
[ -n "$GDB" ] || info "no gdb here: the source's chain stands in for gdb's backtrace"

# start_wl NAME WL MODE [BLOCK_MS]: the workload (gated by $T/NAME.fifo)
# in the background, blocking BLOCK_MS (default MS), its output in
# $T/NAME.wl; its pid in WLP
start_wl() {
	rm -f "$T/$1.fifo"
	mkfifo "$T/$1.fifo"
	"$WORKLOADS/$2" "$3" "${4:-$MS}" "$T/$1.fifo" >"$T/$1.wl" &
	WLP=$!
	BG_PIDS+=("$WLP")
}

# go NAME: release workload NAME and wait until it printed its time
go() {
	echo g >"$T/$1.fifo"
	wait_file "$T/$1.wl"
}

# blocked_again PID: the workload blocks at its stack again (in nanosleep),
# as gdb must find it
blocked_again() {
	grep -q nanosleep "/proc/$1/wchan" 2>/dev/null
}

# bt NAME PID MODE: gdb's backtrace of PID (blocked again at its stack)
# into $T/NAME.bt, one function a line, innermost first; without gdb the
# chain the source makes for MODE; then PID killed
bt() {
	if [ -n "$GDB" ]; then
		# not a window: 60 s is a hang cap on gdb
		timeout 60 "$GDB" -p "$2" -batch -ex "set backtrace limit 1000" \
			-ex "set backtrace past-main on" -ex "set backtrace past-entry on" \
			-ex bt 2>/dev/null |
			sed -nE 's/^#[0-9]+ +(0x[0-9a-f]+ in )?([^ ]+) \(.*/\2/p' >"$T/$1.bt"
	else
		case "$3" in
		walk | fake) printf '%s\n' real_leaf walker once main ;;
		deep:*) { yes rec | head -n "${3#deep:}"; printf '%s\n' once main; } ;;
		esac >"$T/$1.bt"
	fi
	kill -KILL "$2" 2>/dev/null
	wait "$2" 2>/dev/null
	[ -s "$T/$1.bt" ] || fail "$1: no backtrace from gdb"
}

# run_one NAME WL MODE ARGS...: switchstat --stacks -p ARGS while the
# workload blocks once (MS_LIVE); stopped (SIGINT: the stacks print) after
# it printed and blocked again; gdb's backtrace then
run_one() {
	local name=$1 wl=$2 mode=$3
	shift 3
	start_wl "$name" "$wl" "$mode" "$MS_LIVE"
	local p=$WLP
	start_tool "$name" --stacks -p "$p" -d 600 --no-counters "$@" # not a window: 600 s is a hang cap; the test ends the run
	go "$name"
	wait_for "$name: the workload blocked again" blocked_again "$p"
	stop_tool
	bt "$name" "$p" "$mode"
}

# run_shared WL MODE "NAME ARGS"...: as run_one NAME WL MODE ARGS for
# each, with one workload traced by all the runs at once (each attached
# before the go): the same blocking, one backtrace; the workload's
# figures and backtrace in each $T/NAME.wl and $T/NAME.bt
run_shared() {
	local wl=$1 mode=$2 spec name args p i pids=() names=()
	shift 2
	start_wl shared "$wl" "$mode" "$MS_LIVE"
	p=$WLP
	for spec in "$@"; do
		read -r name args <<<"$spec"
		# shellcheck disable=SC2086 # the run's options, split
		launch "$name" --stacks -p "$p" -d 600 --no-counters $args # not a window: 600 s is a hang cap; the test ends the run
		pids+=("$LAUNCHED")
		names+=("$name")
	done
	for i in "${!pids[@]}"; do await "${names[$i]}" "${pids[$i]}"; done
	go shared
	wait_for "shared: the workload blocked again" blocked_again "$p"
	kill -INT "${pids[@]}"
	for i in "${!pids[@]}"; do reap "${pids[$i]}" "${names[$i]}"; done
	bt shared "$p" "$mode"
	for name in "${names[@]}"; do
		cp "$T/shared.wl" "$T/$name.wl"
		cp "$T/shared.bt" "$T/$name.bt"
	done
}

# check NAME WL MODE FORMAT: the workload's user stacks in run NAME's
# output against its backtrace and time (see the cases above)
check() {
	python3 - "$T/$1.out" "$T/$1.wl" "$T/$1.bt" "$WORKLOADS/$2" "$3" "$4" <<'PY'
import json, re, subprocess, sys
out, wl, btf, exe, mode, fmt = sys.argv[1:7]
pid, ns = map(int, open(wl).read().split())
bt = [l.strip() for l in open(btf) if l.strip()]
nm = {l.split()[2] for l in subprocess.run(["nm", exe], capture_output=True, text=True).stdout.split("\n")
      if len(l.split()) == 3 and l.split()[1] in "tT"}
text = open(out, encoding="utf-8", errors="replace").read()
stacks = []  # (user frames outermost first, usecs)
if fmt == "folded":
    for l in text.split("\n"):
        if l.startswith("stacktruth"):
            st, v = l.rsplit(" ", 1)
            fr = st.split(";")[1:]
            # the user part ends before the kernel's syscall entry
            k = next((i for i, f in enumerate(fr) if f.startswith("entry_SYSCALL") or f.startswith("el0")), len(fr))
            stacks.append((fr[:k], int(v)))
elif fmt == "json":
    for l in text.split("\n"):
        if l.startswith("{"):
            r = json.loads(l)
            if r.get("type") == "stack" and r["pid"] == pid and r.get("user_stack"):
                stacks.append((r["user_stack"].split(";"), int(r["offcpu_ns"]) // 1000))
else:  # table: blocks, kernel frames, "--", user frames innermost first, task, usecs
    for b in text.split("\n\n"):
        ls = [l.strip() for l in b.strip().split("\n") if l.strip()]
        if len(ls) < 3 or "(%d)" % pid not in ls[-2] or "--" not in ls:
            continue
        stacks.append((list(reversed(ls[ls.index("--") + 1:-2])), int(ls[-1])))
marks = ("[truncated]", "[deeper]", "[exited]")
# the stack the workload measured: the one with the blocking function
leaf = {"exit": "block_u01", "walk": "real_leaf", "fake": "real_leaf"}.get(mode, "rec")
mine = [(fr, v) for fr, v in stacks if fr and fr[-1] == leaf]
got = sum(v for _, v in mine)
err = (got * 1000 - ns) / ns * 100
bad = []
print("  %s %s: %.3f ms at %s, the workload measured %.3f ms (%+.2f %%)"
      % (mode, fmt, got / 1e3, leaf, ns / 1e6, err))
if abs(err) > 5:
    bad.append("the time at %s is not within 5 %% of the workload's" % leaf)
for fr, v in mine:
    names = [f for f in fr if f not in marks and f != "[unknown]"]
    inner = list(reversed(names))
    # each named frame is one gdb shows, in gdb's order (innermost first)
    j = 0
    for f in inner if mode != "exit" else []:
        while j < len(bt) and bt[j] != f:
            j += 1
        if j == len(bt):
            bad.append("frame %s is not in gdb's backtrace (in its order): %s" % (f, ";".join(fr)[:300]))
            break
        j += 1
    if "never_called_cb" in fr:
        bad.append("a function that never ran: %s" % ";".join(fr)[:300])
    if any(f in fr[1:] for f in marks):
        bad.append("a marker not at the root: %s" % ";".join(fr)[:300])
    # unmarked, a stack must reach main (beyond it only libc's start, which
    # is [unknown] without libc's debug symbols)
    rooted = "main" in names and names.index("main") <= 1
    if not rooted and fr[0] not in marks:
        bad.append("not rooted, and no marker at its root: %s" % ";".join(fr)[:300])
    own = [f for f in names if f in nm]
    # an exited process: its frames in its binary are nm's, as the source calls them
    if mode == "exit" and own[-4:] != ["main", "once", "outer_u01", "block_u01"] and \
            own[-3:] != ["main", "outer_u01", "block_u01"]:
        bad.append("not main;...;outer_u01;block_u01 (nm): %s" % ";".join(fr)[:300])
    print("  %s %s: %d us: %s" % (mode, fmt, v, ";".join(fr[:3] + ["..."] + fr[-4:]) if len(fr) > 8 else ";".join(fr)))
    if mode.startswith("deep:"):
        print("    %d user frames, %d rec; gdb shows %d frames, %d rec, its root %s"
              % (len(names), names.count("rec"), len(bt), bt.count("rec"), bt[-1]))
    sys.stdout.flush()
if not mine:
    bad.append("no stack of the workload ends at %s" % leaf)
want = {"walk_fp": ["main", "once", "walker", "real_leaf"], "deep:20": ["main", "once"] + ["rec"] * 20}
key = mode + ("_fp" if "nofp" not in exe else "")
for fr, _ in mine:
    if key in want and [f for f in fr if f in nm] != want[key]:
        bad.append("the frame-pointer walk is not whole: %s" % ";".join(fr)[:300])
    if key in want and fr[0] in marks:
        bad.append("a whole walk marked: %s" % ";".join(fr)[:300])
    if mode == "deep:200" and fr[0] != "[deeper]":
        bad.append("cut at the walk's limit, but its root is %s" % fr[0])
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

info "1. a process that exits before its stacks are printed, beside a live copy"
for fmt in folded json; do
	start_wl live stacktruth walk
	LIVE=$WLP
	start_wl x stacktruth exit
	X=$WLP
	a=(-f)
	[ $fmt = json ] && a=(--json)
	start_tool "x$fmt" --stacks -p "$X,$LIVE" -d 600 --no-counters "${a[@]}" # not a window: 600 s is a hang cap; the test ends the run
	echo g >"$T/live.fifo"
	echo g >"$T/x.fifo"
	wait "$X" || fail "the exiting workload failed"
	go live
	# exited (reaped) before the print; the live copy blocked again
	wait_for "live: the workload blocked again" blocked_again "$LIVE"
	stop_tool
	bt live "$LIVE" walk
	cp "$T/x.wl" "$T/x$fmt.wl"
	cp "$T/live.bt" "$T/x$fmt.bt"
	check "x$fmt" stacktruth exit $fmt || wrong "the exited process's stack ($fmt)"
	cp "$T/live.wl" "$T/l$fmt.wl"
	cp "$T/live.bt" "$T/l$fmt.bt"
	cp "$T/x$fmt.out" "$T/l$fmt.out"
	check "l$fmt" stacktruth walk $fmt || wrong "the live copy's stack ($fmt)"
done

info "1b. a process that execs, then exits before the print: each stack from its image"
start_wl e stacktruth exec
E=$WLP
start_tool e --stacks -p "$E" -d 600 --no-counters -f # not a window: 600 s is a hang cap; the test ends the run
echo g >"$T/e.fifo"
wait "$E" || fail "the exec'ing workload failed"
# -p's only process exited: switchstat prints and ends by itself
for _ in $(seq 1 100); do # not a window: poll for the tool's own exit; 5 s, then it is stopped
	kill -0 "$TOOL_PID" 2>/dev/null || break
	sleep 0.05
done
if kill -0 "$TOOL_PID" 2>/dev/null; then stop_tool; else wait_tool; fi
printf '%s\n' block_u01 outer_u01 once main >"$T/e.bt"
check e stacktruth exit folded || wrong "the exec'd process's stack"
# before the exec: real_leaf under walker, from the first image
grep -q '^stacktruth;.*main;once;walker;real_leaf;' "$T/e.out" ||
	wrong "the stack before the exec: $(grep -v '^$' "$T/e.out" | cut -c1-200 | head -3)"

info "2. no frame pointers: only frames gdb shows, a cut walk marked"
run_one nwalk stacktruth_nofp walk -f
check nwalk stacktruth_nofp walk folded || wrong "stacktruth_nofp walk: folded"
run_shared stacktruth_nofp fake "nfake -f" "ntab" "njson --json"
check nfake stacktruth_nofp fake folded || wrong "stacktruth_nofp fake: folded"
check ntab stacktruth_nofp fake table || wrong "stacktruth_nofp fake: table"
check njson stacktruth_nofp fake json || wrong "stacktruth_nofp fake: NDJSON"
for mode in walk fake; do
	run_one "f$mode" stacktruth $mode -f
	check "f$mode" stacktruth $mode folded || wrong "stacktruth $mode: folded"
done

info "3. deeper than the walk's limit: [deeper] at the root"
run_one d20 stacktruth deep:20 -f
check d20 stacktruth deep:20 folded || wrong "deep:20: folded"
run_shared stacktruth deep:200 "d200 -f" "dtab" "djson --json"
check d200 stacktruth deep:200 folded || wrong "deep:200: folded"
check dtab stacktruth deep:200 table || wrong "deep:200: table"
check djson stacktruth deep:200 json || wrong "deep:200: NDJSON"

[ -z "$FAILED" ] || fail "${FAILED#; }"
pass "--stacks: names from the process's own image, only frames gdb shows, cut walks marked at their root"

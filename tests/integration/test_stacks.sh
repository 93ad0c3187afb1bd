#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_stacks.sh - --stacks -f: off-CPU time by stack against a workload
# that times its own blocking (tests/workloads/stackwait, built with
# -fno-omit-frame-pointer): N times wait_in_pipe() blocks in read() on a
# pipe its helper thread writes PIPE_MS later, and wait_in_sleep() in
# nanosleep(SLEEP_MS); 3:1.  It stops itself when done; the tool is
# stopped (SIGINT, -d not reached: the stacks print at the end) while it
# is frozen.
#  1. folded (-f -p): every line is `comm;frame;...;frame usecs`
#     (flamegraph.pl's input; checked strictly, not in a viewer); the
#     workload's thread has wait_in_pipe under main with the kernel's pipe
#     read frame (this kernel's name: anon_pipe_read, pipe_read before
#     6.16) inside it, and wait_in_sleep with do_nanosleep /
#     hrtimer_nanosleep; each value within 5 % of the time the workload
#     measured, and their ratio within 5 % of the workload's.
#  2. -K (kernel stacks only, table): no user frames; the read's kernel
#     stack with the workload's name and pid, within 5 %.
#  3. as 1 on the regular tracepoint path (the probe's other stack
#     context: the tracepoint's args; other tracing frames dropped).
. "$(dirname "$0")/lib.sh"
need_root
N=20
PIPE_MS=30
SLEEP_MS=10

# run NAME ARGS...: stackwait under switchstat --stacks -p ARGS
run() {
	local name=$1 i
	shift
	rm -f "$T/go.fifo"
	mkfifo "$T/go.fifo"
	"$WORKLOADS/stackwait" $N $PIPE_MS $SLEEP_MS "$T/go.fifo" >"$T/$name.wl" &
	WL=$!
	BG_PIDS+=("$WL")
	start_tool "$name" --stacks -p "$WL" -d 600 --no-counters "$@"
	echo g >"$T/go.fifo"
	for i in $(seq 1 400); do
		[ -s "$T/$name.wl" ] &&
			grep -q '^State:.*stopped' /proc/$WL/status 2>/dev/null && break
		sleep 0.05
	done
	[ -s "$T/$name.wl" ] || fail "$name: the workload did not finish"
	kill -INT "$TOOL_PID"
	wait_tool
	kill -KILL "$WL" 2>/dev/null
	wait "$WL" 2>/dev/null
}

# check_folded NAME: the folded output of run NAME against its workload
check_folded() {
	python3 - "$T/$1.out" "$T/$1.wl" <<'PY'

import re, sys
out, wl = sys.argv[1:3]
pid, pipe_ns, sleep_ns = map(int, open(wl).read().split())
lines = open(out, encoding="utf-8", errors="replace").read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
bad = [l for l in lines if not re.fullmatch(r"[^;]+(;[^;]+)* [0-9]+", l)]
for l in bad[:5]:
    print("  not a folded line: %r" % l)
got = {"pipe": 0, "sleep": 0}
kern = {"pipe": ("anon_pipe_read", "pipe_read"),
        "sleep": ("do_nanosleep", "hrtimer_nanosleep")}
for l in lines:
    st, v = l.rsplit(" ", 1)
    fr = st.split(";")
    if fr[0] != "stackwait":
        continue
    for k, fn in (("pipe", "wait_in_pipe"), ("sleep", "wait_in_sleep")):
        if fn in fr:
            i = fr.index(fn)
            # outermost first: main before it, the kernel's frame after it
            if "main" in fr[:i] and any(x in fr[i + 1:] for x in kern[k]):
                got[k] += int(v)
ok = not bad and len(lines) > 0
for k, want in (("pipe", pipe_ns), ("sleep", sleep_ns)):
    err = (got[k] * 1000 - want) / want * 100
    print("  %-5s %.3f ms in the stacks, the workload measured %.3f ms (%+.2f %%)"
          % (k, got[k] / 1e3, want / 1e6, err))
    ok &= abs(err) <= 5
r, rw = (got["pipe"] / got["sleep"] if got["sleep"] else 0), pipe_ns / sleep_ns
err = (r - rw) / rw * 100
print("  ratio pipe:sleep %.4f, the workload's %.4f (%+.2f %%); %d folded lines"
      % (r, rw, err, len(lines)))
ok &= abs(err) <= 5
sys.exit(0 if ok else 1)
PY
}

info "1. folded (-f): format, the workload's functions under their kernel frames, values and ratio"
run f -f
check_folded f || fail "folded stacks wrong"

info "2. -K: kernel stacks only (table)"
run k -K
python3 - "$T/k.out" "$T/k.wl" <<'PY' || fail "-K table wrong"
import sys
out, wl = sys.argv[1:3]
pid, pipe_ns, sleep_ns = map(int, open(wl).read().split())
blocks = open(out, encoding="utf-8", errors="replace").read().split("\n\n")
got, users = 0, 0
for b in blocks:
    ls = [l.strip() for l in b.strip().split("\n") if l.strip()]
    if len(ls) < 3 or not ls[-2].startswith("-"):
        continue
    who, v = ls[-2], int(ls[-1])
    if any(f in ("wait_in_pipe", "wait_in_sleep", "main") for f in ls):
        users += 1
    if who.split()[1:] == ["stackwait", "(%d)" % pid] and \
            any(f in ("anon_pipe_read", "pipe_read") for f in ls):
        got += v
err = (got * 1000 - pipe_ns) / pipe_ns * 100
print("  pipe read %.3f ms in the kernel stacks, the workload %.3f ms (%+.2f %%); "
      "stacks with user frames: %d" % (got / 1e3, pipe_ns / 1e6, err, users))
sys.exit(0 if abs(err) <= 5 and users == 0 else 1)
PY
info "3. folded on the regular tracepoint path (SWITCHSTAT_TEST_NO_RAW=1)"
export SWITCHSTAT_TEST_NO_RAW=1
run r -f
unset SWITCHSTAT_TEST_NO_RAW
check_folded r || fail "folded stacks wrong on the regular tracepoint path"
pass "--stacks: the workload's blocking functions under their kernel frames, in its ratio"

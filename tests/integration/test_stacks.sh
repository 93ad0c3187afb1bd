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
#     (flamegraph.pl's input, checked strictly; and in a viewer: 8); the
#     workload's thread has wait_in_pipe under main with the kernel's pipe
#     read frame (this kernel's name: anon_pipe_read, pipe_read before
#     6.16) inside it, and wait_in_sleep with do_nanosleep /
#     hrtimer_nanosleep; each function's spans within 5 % of the time
#     the workload measured, and their ratio within 5 % of the
#     workload's; its spans outside that kernel frame (preemptions: a
#     CPU cap throttles the workload anywhere) at most the run_delay the
#     kernel counted in the workload's timed windows.
#  2. -K -L (kernel stacks only, table): no user frames; the read's
#     kernel stack with the main thread's name and pid/tid, within 5 %
#     (less the pipe windows' run_delay)
#     (per process the helper's reads are the process's too).
#  3. as 1 on the regular tracepoint path (the probe's other stack
#     context: the tracepoint's args; other tracing frames dropped).
#  3b. as 1 with every 3rd switch-in unseen (SWITCHSTAT_TEST=miss_arrive=3),
#     on both paths: the span ends at the thread's next switch-out.
#  4. NDJSON -L: the "stack" records (kernel_stack, user_stack: folded
#     order) make the same folded lines, checked as 1.
#  5. --wakers -f (offwaketime's folded layout): as 1 for the blocked
#     part; after "--" the waker upside down: wait_in_pipe's is the
#     helper (try_to_wake_up, the pipe write's kernel frames, then its
#     user functions wake_by_pipe and helper, the process's name
#     stackwait last; with -L the thread's, swhelper), within
#     5 % of the pipe time; wait_in_sleep's the timer (see check_wakers
#     for the few timer wakeups no probe sees).
#  6. --wakers CSV -L: the waker_* fields make the same lines as 5.
#  7. the exporter (--listen --metrics-per-process --wakers, scraped
#     while frozen): promtool check metrics; each
#     switchstat_offcpu_stack_seconds_total{stack} of the workload equals
#     the NDJSON records' sum for that folded stack (to 1 usec), and its
#     series pass the checks of 1 and 5.  With --max-series 3, at most 3
#     stack series and one whose labels are all "other"; together they
#     hold all the records' time.
#  8. case 1's folded output opens in speedscope (npm, tests/viewer) in
#     headless Chromium: the screenshot (an artifact, in $ARTIFACTS) read
#     by tesseract shows stackwait, wait_in_pipe, wait_in_sleep and a
#     kernel frame of each (the pipe read; do_nanosleep or
#     hrtimer_nanosleep: OCR misses a label now and then, so one of
#     each will do).  Skipped, with the reason, when
#     speedscope, chromium or tesseract is not installed (offline).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
N=20
PIPE_MS=30
SLEEP_MS=10

# run NAME ARGS...: stackwait under switchstat --stacks -p ARGS (-d not
# reached: the stacks print at the end, except with --listen)
run() {
	local name=$1
	shift
	# not a window: 600 s is a hang cap; the workload's exit ends the run
	run_gated "$name" stackwait $N $PIPE_MS $SLEEP_MS @FIFO -- \
		--stacks -p @WL -d 600 --no-counters "$@"
	kill -KILL "$WL" 2>/dev/null
	wait "$WL" 2>/dev/null
}

# run_many "NAME ARGS..."...: one stackwait run under several switchstat
# --stacks -p ARGS at once (each as run NAME ARGS: attached before the
# go, stopped once it has printed and stopped itself), so that their
# outputs are of the same blocking; its figures in each $T/NAME.wl
run_many() {
	local spec name args pids=() names=() i
	rm -f "$T/go.fifo"
	mkfifo "$T/go.fifo"
	"$WORKLOADS/stackwait" $N $PIPE_MS $SLEEP_MS "$T/go.fifo" >"$T/many.wl" &
	WL=$!
	BG_PIDS+=("$WL")
	for spec in "$@"; do
		read -r name args <<<"$spec"
		# shellcheck disable=SC2086 # the run's options, split
		launch "$name" --stacks -p "$WL" -d 600 --no-counters $args # not a window: 600 s is a hang cap
		pids+=("$LAUNCHED")
		names+=("$name")
	done
	for i in "${!pids[@]}"; do await "${names[$i]}" "${pids[$i]}"; done
	echo g >"$T/go.fifo"
	wait_for "the workload printed and stopped" gated_done "$T/many.wl"
	reap_shared pids names "$WL"
}

# folded_of NAME: the "stack" records of run NAME (CSV or NDJSON) as folded
# lines (comm;user_stack;kernel_stack usecs) in $T/NAME.folded
folded_of() {
	python3 - "$T/$1.out" >"$T/$1.folded" <<'PY'
import csv, json, sys
recs = []
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
if text.lstrip().startswith("{"):
    recs = [json.loads(l) for l in text.split("\n") if l.startswith("{")]
    recs = [r for r in recs if r.get("type") == "stack"]
else:  # the rows' header, then blocks: blank line, the stack header, records
    hdr = None
    for line in text.split("\n"):
        if not line:
            hdr = None
            continue
        f = next(csv.reader([line]))
        if "kernel_stack" in f:
            hdr = f
        elif hdr:
            recs.append(dict(zip(hdr, f)))
for r in recs:
    fr = [r["comm"]] + [x for k in ("user_stack", "kernel_stack")
                        if r.get(k) for x in r[k].split(";")]
    if r.get("waker_kind"):  # offwaketime's: the waker upside down
        fr.append("--")
        for k in ("waker_kernel_stack", "waker_user_stack"):
            fr += reversed(r[k].split(";")) if r.get(k) else []
        fr.append(r["waker_comm"] if r["waker_kind"] == "task" else r["waker_kind"])
    print("%s %d" % (";".join(fr), int(r["offcpu_ns"]) // 1000))
PY
}

# check_wakers NAME [FILE [COMM]]: folded lines with wakers (--wakers):
# each wait_in_pipe stack's waker is the helper, upside down after "--"
# (the pipe write's kernel frames, then wake_by_pipe, helper, and its
# name last: COMM, the process's, stackwait, or with -L the thread's,
# swhelper), within 5 % of the pipe time; each wait_in_sleep's the timer.
# A timer wakeup can run no sched_waking program (the interrupt came
# while a BPF program ran on that CPU: the kernel skips the nested one;
# test_wakers case 3 sees 0.4-1.3 %), and a preemption has no waker: so
# each function's woken part plus its unwoken part is within 5 %, the
# unwoken part at most the preemptions' run_delay (and 3 of the 20 sleeps)
check_wakers() {
	python3 - "${2:-$T/$1.out}" "$T/$1.wl" "${3:-stackwait}" <<'PY'
import sys
out, wl, wcomm = sys.argv[1:4]
wls = open(wl).read().split("\n")  # stackwait's two lines
pid, pipe_ns, sleep_ns = map(int, wls[0].split()[:3])
pipe_rq, sleep_rq = map(int, wls[1].split())
got = {"pipe": 0, "sleep": 0}
other = {"pipe": 0, "sleep": 0}
unwoken = {"pipe": 0, "sleep": 0}
for l in open(out, encoding="utf-8", errors="replace").read().split("\n"):
    if not l.startswith("stackwait;"):
        continue
    st, v = l.rsplit(" ", 1)
    fr = st.split(";")
    i = fr.index("--") if "--" in fr else len(fr)
    me, wk = fr[:i], fr[i + 1:]
    for k, fn in (("pipe", "wait_in_pipe"), ("sleep", "wait_in_sleep")):
        if fn not in me:
            continue
        if not wk:
            unwoken[k] += int(v)
            continue
        if k == "pipe":
            ok = (wk[-1] == wcomm and "wake_by_pipe" in wk and "helper" in wk
                  and wk.index("wake_by_pipe") < wk.index("helper")
                  and any(x in wk[:wk.index("wake_by_pipe")]
                          for x in ("anon_pipe_write", "pipe_write"))
                  and wk[0] == "try_to_wake_up")
        else:
            ok = wk[-1] == "timer" and "wake_by_pipe" not in wk
        if ok:
            got[k] += int(v)
        else:
            other[k] += int(v)
            print("  unexpected waker of %s: %s" % (fn, ";".join(wk)[:300]))
bad = 0
# the unwoken spans: preemptions (run-queue waits: at most the run_delay
# the kernel counted in the workload's windows, + 1 % as check_folded
# says) and, for the sleep, timer wakeups that ran no program (3 of the
# 20 sleeps at most)
for k, want, rq in (("pipe", pipe_ns, pipe_rq), ("sleep", sleep_ns, sleep_rq)):
    seen = got[k] + unwoken[k]
    err = (seen * 1000 - want) / want * 100
    allow = rq + want / 100 + (0.15 * want if k == "sleep" else 0)
    print("  %-5s %.3f ms woken by its waker (%s), %.3f ms with no waker seen (at most "
          "%.3f), %.3f ms by another; the workload measured %.3f ms (%+.2f %%)"
          % (k, got[k] / 1e3, "helper" if k == "pipe" else "timer", unwoken[k] / 1e3,
             allow / 1e6, other[k] / 1e3, want / 1e6, err))
    bad += abs(err) > 5 or other[k] > 0 or unwoken[k] * 1000 > allow
sys.exit(1 if bad else 0)
PY
}

# prom_folded NAME: the exporter's stack series of the workload (scraped
# into $T/NAME.prom) as folded lines (the stack label, usecs) in
# $T/NAME.pfolded; their sum per stack equals the records' (to 1 usec
# per record: the records' usecs are rounded down each)
prom_folded() {
	python3 - "$T/$1.prom" "$T/$1.folded" "$T/$1.wl" >"$T/$1.pfolded" <<'PY'
import sys
from prom_samples import samples
prom, folded, wl = sys.argv[1:4]
pid = open(wl).read().split()[0]
got = {}
for _, lab, v in samples(prom, ("switchstat_offcpu_stack_seconds_total",)):
    if lab.get("pid") == pid:
        got[lab["stack"]] = got.get(lab["stack"], 0) + v * 1e6
want, nrec = {}, {}
for l in open(folded, encoding="utf-8", errors="replace").read().split("\n"):
    if l:
        st, v = l.rsplit(" ", 1)
        want[st] = want.get(st, 0) + int(v)
        nrec[st] = nrec.get(st, 0) + 1
# each record's usecs are rounded down: 1 us per record of the stack
bad = [k for k in set(got) | set(want) if abs(got.get(k, 0) - want.get(k, 0)) > nrec.get(k, 1)]
for k in bad[:5]:
    print("  exporter %.0f us, records %d us: %s" % (got.get(k, 0), want.get(k, 0), k[:200]), file=sys.stderr)
print("  exporter: %d stacks of the workload, %d differ from the records" % (len(got), len(bad)), file=sys.stderr)
for k, v in got.items():
    print("%s %d" % (k, round(v)))
sys.exit(1 if bad or not got else 0)
PY
}

# check_folded NAME [FILE]: the folded output of run NAME (or FILE) against
# its workload
check_folded() {
	python3 - "${2:-$T/$1.out}" "$T/$1.wl" <<'PY'

import re, sys
out, wl = sys.argv[1:3]
wls = open(wl).read().split("\n")  # stackwait's two lines
pid, pipe_ns, sleep_ns = map(int, wls[0].split()[:3])
pipe_rq, sleep_rq = map(int, wls[1].split())
lines = open(out, encoding="utf-8", errors="replace").read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
bad = [l for l in lines if not re.fullmatch(r"[^;]+(;[^;]+)* [0-9]+", l)]
for l in bad[:5]:
    print("  not a folded line: %r" % l)
got = {"pipe": 0, "sleep": 0}  # every span under the function
blk = {"pipe": 0, "sleep": 0}  # those blocked in its kernel call
kern = {"pipe": ("anon_pipe_read", "pipe_read"),
        "sleep": ("do_nanosleep", "hrtimer_nanosleep")}
for l in lines:
    st, v = l.rsplit(" ", 1)
    fr = st.split(";")
    if fr[0] != "stackwait":
        continue
    if "--" in fr:  # --wakers: the blocked task's part only
        fr = fr[:fr.index("--")]
    for k, fn in (("pipe", "wait_in_pipe"), ("sleep", "wait_in_sleep")):
        if fn in fr:
            i = fr.index(fn)
            # outermost first: main before it, the kernel's frame after it
            if "main" in fr[:i]:
                got[k] += int(v)
                if any(x in fr[i + 1:] for x in kern[k]):
                    blk[k] += int(v)
ok = not bad and len(lines) > 0
# The workload times the whole function: the span blocked in its kernel
# call (to the switch-in, the wait after the wakeup included) and any
# preemption around it (a CPU cap's throttling shows as those).  So all
# spans under the function make its time, and those not blocked in the
# call are run-queue waits: at most the run_delay the kernel counted in
# the same windows (+1 % of the time: a preemption inside the schedstat
# read that opens a window, before it reads the counter)
for k, want, rq in (("pipe", pipe_ns, pipe_rq), ("sleep", sleep_ns, sleep_rq)):
    err = (got[k] * 1000 - want) / want * 100
    nb = (got[k] - blk[k]) * 1000
    print("  %-5s %.3f ms in the stacks, the workload measured %.3f ms (%+.2f %%); "
          "%.3f ms not in %s: preempted, against the windows' run_delay %.3f ms"
          % (k, got[k] / 1e3, want / 1e6, err, nb / 1e6, kern[k][-1], rq / 1e6))
    ok &= abs(err) <= 5 and nb <= rq + want / 100
r, rw = (got["pipe"] / got["sleep"] if got["sleep"] else 0), pipe_ns / sleep_ns
err = (r - rw) / rw * 100
print("  ratio pipe:sleep %.4f, the workload's %.4f (%+.2f %%); %d folded lines"
      % (r, rw, err, len(lines)))
ok &= abs(err) <= 5
sys.exit(0 if ok else 1)
PY
}

# cases 1, 2 and 4 trace one run of the workload, 5 and 6 another
run_many "f -f" "k -K -L" "j --json -L"
info "1. folded (-f): format, the workload's functions under their kernel frames, values and ratio"
check_folded f || fail "folded stacks wrong"

info "2. -K: kernel stacks only (table), -L"
# per thread: the helper thread blocks in pipe_read too, and per process
# its stacks are the process's (named stackwait, as the process row)
python3 - "$T/k.out" "$T/k.wl" <<'PY' || fail "-K table wrong"
import sys
out, wl = sys.argv[1:3]
wls = open(wl).read().split("\n")  # stackwait's two lines
pid, pipe_ns, sleep_ns = map(int, wls[0].split()[:3])
pipe_rq, sleep_rq = map(int, wls[1].split())
blocks = open(out, encoding="utf-8", errors="replace").read().split("\n\n")
got, users = 0, 0
for b in blocks:
    ls = [l.strip() for l in b.strip().split("\n") if l.strip()]
    if len(ls) < 3 or not ls[-2].startswith("-"):
        continue
    who, v = ls[-2], int(ls[-1])
    if any(f in ("wait_in_pipe", "wait_in_sleep", "main") for f in ls):
        users += 1
    if who.split()[1:] == ["stackwait", "(%d/%d)" % (pid, pid)] and \
            any(f in ("anon_pipe_read", "pipe_read") for f in ls):
        got += v
# the spans blocked in the read: the function's time less its
# preemptions (at most its windows' run_delay, check_folded)
err = (got * 1000 - pipe_ns) / pipe_ns * 100
low = (pipe_ns - pipe_rq - pipe_ns / 100) * 0.95
print("  pipe read %.3f ms in the kernel stacks, the workload %.3f ms (%+.2f %%), "
      "%.3f ms of it run-queue waits; stacks with user frames: %d"
      % (got / 1e3, pipe_ns / 1e6, err, pipe_rq / 1e6, users))
sys.exit(0 if err <= 5 and got * 1000 >= low and users == 0 else 1)
PY
info "3. folded on the regular tracepoint path (SWITCHSTAT_TEST=no_raw)"
# The kernel skips regular tracepoint programs on a CPU while a bpf() map
# syscall is in progress there, also while its caller is preempted, and
# this VM's kernel hides some tasks' switches: a switch-in of the
# workload goes unseen now and then (1 run in 10 lost a 10 ms sleep
# before its span was closed at the next switch-out: 3b).  The workload
# on CPU 1, switchstat, which makes those calls, on CPU 0.
if [ "$(nproc)" -ge 2 ]; then
	SWITCHSTAT_TEST=no_raw GATED_WL_CPU=1 GATED_TOOL_CPU=0 run r -f
else
	SWITCHSTAT_TEST=no_raw run r -f
fi
check_folded r || fail "folded stacks wrong on the regular tracepoint path"

info "3b. every 3rd switch-in unseen (SWITCHSTAT_TEST=miss_arrive=3)"
# The span of a thread whose switch-in the probe did not see ends at its
# next switch-out, at its arrival (se.sum_exec_runtime since the span
# began): without that, a third of the blocked time was lost (-30 %).
SWITCHSTAT_TEST=miss_arrive=3 run m -f
check_folded m || fail "an unseen switch-in lost its span (raw path)"
SWITCHSTAT_TEST=miss_arrive=3,no_raw run n -f
check_folded n || fail "an unseen switch-in lost its span (regular path)"

info "4. NDJSON (-L): \"stack\" records, their stacks as in 1"
folded_of j
check_folded j "$T/j.folded" || fail "NDJSON stack records wrong"

info "5. --wakers -f: each stack with its waker's (offwaketime -f)"
run_many "w -f --wakers" "c --csv -L --wakers"
check_folded w || fail "--wakers -f: the blocked stacks wrong"
check_wakers w || fail "--wakers -f: the wakers' stacks wrong"

info "6. --wakers, CSV (-L): the waker's fields"
folded_of c
check_folded c "$T/c.folded" || fail "CSV stack records wrong"
check_wakers c "$T/c.folded" swhelper || fail "CSV waker stacks wrong"

info "7. the exporter (--listen, frozen past interval edges): stack series"
if command -v promtool >/dev/null; then
	PORT=$(free_port)
	GATED_EDGES=2 run x -v --json -i 300 --wakers --listen "$PORT" \
		--metrics-per-process
	PORT=""
	promtool check metrics <"$T/x.prom" >"$T/promtool.log" 2>&1 ||
		fail "promtool check metrics: $(head -5 "$T/promtool.log")"
	folded_of x
	prom_folded x || fail "exporter: stack series differ from the records"
	check_folded x "$T/x.pfolded" || fail "exporter: stack series wrong"
	check_wakers x "$T/x.pfolded" || fail "exporter: waker stacks wrong"
	info "7b. the exporter with --max-series 3: at most 3 stack series and one all-other"
	PORT=$(free_port)
	GATED_EDGES=2 run y -v --json -i 300 --listen "$PORT" --max-series 3
	PORT=""
	promtool check metrics <"$T/y.prom" >"$T/promtool.log" 2>&1 ||
		fail "promtool check metrics: $(head -5 "$T/promtool.log")"
	folded_of y
	python3 - "$T/y.prom" "$T/y.folded" <<'PY' || fail "exporter: --max-series not kept for stacks"
import sys
from prom_samples import samples
prom, folded = sys.argv[1:3]
s = samples(prom, ("switchstat_offcpu_stack_seconds_total",))
other = [v for _, l, v in s if set(l.values()) == {"other"}]
named = [v for _, l, v in s if l.get("stack") != "other"]
lines = [l for l in open(folded).read().split("\n") if l]
rec = sum(int(l.rsplit(" ", 1)[1]) for l in lines)
got = (sum(other) + sum(named)) * 1e6
print("  %d stack series and %d other (%.0f us), of %d stacks in the records; all %.0f us, records %d us"
      % (len(named), len(other), sum(other) * 1e6, len(set(l.rsplit(" ", 1)[0] for l in lines)), got, rec))
# every stack of the run is the exporter's, named or in other (the
# records' usecs rounded down each: 1 us per record)
ok = len(named) <= 3 and len(other) == 1 and abs(got - rec) <= len(lines) + 1
sys.exit(0 if ok else 1)
PY
else
	info "   skipped: no promtool (Debian package prometheus)"
fi
info "8. case 1's folded output in speedscope (headless Chromium): the screenshot shows the functions"
# speedscope (npm, pinned in tests/viewer) loads the file from a loopback
# HTTP server (profileURL); Chromium draws it (WebGL in SwiftShader) at 2x
# scale and saves a screenshot; tesseract reads the screenshot's text
VIEWER=$SRC/tests/viewer/node_modules/speedscope/dist/release
why=""
[ -f "$VIEWER/index.html" ] || why="no speedscope (npm ci --prefix tests/viewer: scripts/setup.sh --tests)"
command -v chromium >/dev/null || why="${why:+$why; }no chromium (Debian package chromium)"
command -v tesseract >/dev/null || why="${why:+$why; }no tesseract (Debian package tesseract-ocr)"
if [ -n "$why" ]; then
	info "   skipped: $why"
else
	mkdir -p "$T/www" "$ARTIFACTS"
	ln -s "$VIEWER" "$T/www/app"
	cp "$T/f.out" "$T/www/stacks.folded"
	HPORT=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 -m http.server "$HPORT" --bind 127.0.0.1 --directory "$T/www" \
		>"$T/http.log" 2>&1 &
	BG_PIDS+=("$!")
	for _ in $(seq 1 100); do # not a window: poll for the HTTP server; 5 s is a hang cap
		curl -sf -o /dev/null "http://127.0.0.1:$HPORT/stacks.folded" && break
		sleep 0.05
	done
	SHOT=$ARTIFACTS/test_stacks-speedscope.png
	rm -f "$SHOT"
	# a profile that speedscope cannot read shows its error page: no names
	# not a window: 120 s is a hang cap on the browser
	timeout 120 chromium --headless=new --no-sandbox --use-angle=swiftshader \
		--enable-unsafe-swiftshader --window-size=1600,900 \
		--force-device-scale-factor=2 --virtual-time-budget=15000 \
		--user-data-dir="$T/chromium" --screenshot="$SHOT" \
		"http://127.0.0.1:$HPORT/app/index.html#profileURL=http://127.0.0.1:$HPORT/stacks.folded&title=stackwait" \
		>"$T/chromium.log" 2>&1 || fail "chromium: $(tail -3 "$T/chromium.log")"
	[ -s "$SHOT" ] || fail "chromium wrote no screenshot: $(tail -3 "$T/chromium.log")"
	tesseract "$SHOT" - >"$T/ocr.txt" 2>/dev/null || fail "tesseract failed on $SHOT"
	cp "$T/f.out" "$ARTIFACTS/test_stacks.folded"
	python3 - "$T/ocr.txt" <<'PY' || fail "speedscope's screenshot ($SHOT) lacks the workload's functions"
import sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
# each a name, or names of which one will do (the kernel's frames: OCR
# misreads a few labels on some colours; the workload's own must all be)
want = (("stackwait",), ("wait_in_pipe",), ("wait_in_sleep",),
        ("anon_pipe_read", "pipe_read", "vfs_read", "ksys_read"),
        ("do_nanosleep", "hrtimer_nanosleep"))
miss = ["|".join(w) for w in want if not any(x in text for x in w)]
print("  the screenshot's text has %d of the %d names%s" % (len(want) - len(miss), len(want),
      ": missing " + ", ".join(miss) if miss else ""))
sys.exit(1 if miss else 0)
PY
	info "   screenshot: $SHOT"
fi

pass "--stacks: the workload's blocking functions under their kernel frames, in its ratio"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make-example.py - regenerate switchstat_example.txt from real runs.

Run as root from the repository after a build: starts the test workloads
(tests/workloads), runs each command shown in the file, and writes the
file with the outputs as they came (long traces cut, marked [...]).
Usage: scripts/make-example.py [BUILD_DIR]   (default: build)
"""
import os, re, subprocess, sys, time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(SRC, "build"))
SS = os.path.join(BUILD, "switchstat")
W = os.path.join(BUILD, "workloads")
procs = []


def bg(*argv, **kw):
    p = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    procs.append(p)
    return p


def cg2():
    for line in open("/proc/self/mountinfo"):
        f = line.split()
        i = f.index("-")
        if f[i + 1] == "cgroup2":
            return f[4]
    return None


def run(shown, argv, env=None, head=None, tail=None, stdin=None):
    """(shown command line, its output: stdout and stderr as a terminal shows them)"""
    e = dict(os.environ)
    e.pop("COLUMNS", None)
    e.update(env or {})
    out = subprocess.run([SS] + argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=e).stdout
    text = out.decode("latin-1").replace("\x01", "^A")
    lines = text.splitlines()
    if head is not None and len(lines) > head + (tail or 0):
        lines = lines[:head] + ["[...]"] + (lines[-tail:] if tail else [])
    return "# " + shown + "\n" + "\n".join(lines) + "\n"


def pick(text, pats):
    """the lines of text matching any of pats, and [...] between gaps"""
    out, gap = [], False
    for l in text.splitlines():
        if any(re.search(p, l) for p in pats):
            out.append(l)
            gap = False
        elif not gap:
            out.append("[...]")
            gap = True
    return "\n".join(out) + "\n"


FIFO = "/tmp/ex-go.fifo"


def gated(wl, wlargs, shown, argv, keep=None):
    """A workload of tests/workloads that waits for a go FIFO (@FIFO in
    wlargs), prints its own figures and stops itself (SIGSTOP), run under
    switchstat argv (@WL: the workload's pid): the tool attached, the go
    given, Ctrl-C (SIGINT) once the workload has stopped, so the output
    ends with the final partial interval.  Returns (the shown command and
    its output, the workload's figures as a list of ints, its pid).
    keep(lines) may cut the output's lines."""
    if os.path.exists(FIFO):
        os.unlink(FIFO)
    os.mkfifo(FIFO)
    wout = open("/tmp/ex-wl.out", "w+")
    wlp = subprocess.Popen([os.path.join(W, wl)] + [a.replace("@FIFO", FIFO) for a in wlargs],
                           stdout=wout, stderr=subprocess.DEVNULL)
    procs.append(wlp)
    argv = [a.replace("@WL", str(wlp.pid)) for a in argv]
    tout = open("/tmp/ex-tool.out", "w+b")
    e = dict(os.environ)
    e.pop("COLUMNS", None)
    tool = subprocess.Popen([SS] + argv, stdout=tout, stderr=subprocess.STDOUT, env=e)
    for _ in range(1200):
        tout.seek(0)
        if b"Tracing" in tout.read() or tool.poll() is not None:
            break
        time.sleep(0.05)
    with open(FIFO, "w") as f:
        f.write("g")
    for _ in range(1200):
        wout.seek(0)
        done = wout.read().strip()
        try:
            st = open("/proc/%d/status" % wlp.pid).read()
        except OSError:
            st = ""
        if done and re.search(r"^State:.*stopped", st, re.M):
            break
        time.sleep(0.05)
    time.sleep(0.2)
    tool.send_signal(2)
    tool.wait()
    subprocess.run(["pkill", "-KILL", "-P", str(wlp.pid)])
    wlp.kill()
    wlp.wait()
    tout.seek(0)
    lines = tout.read().decode("latin-1").splitlines()
    if keep:
        lines = keep(lines)
    wout.seek(0)
    figures = [int(x) for x in wout.read().split()]
    return ("# " + shown % wlp.pid + "\n" + "\n".join(lines) + "\n", figures, wlp.pid)


def after(marker, n=None):
    """keep(): the lines from the first holding marker on (n of them), [...] around"""
    def keep(lines):
        i = next((k for k, l in enumerate(lines) if marker in l), 0)
        out = (["[...]"] if i else []) + lines[i:]
        if n is not None and len(out) > n:
            out = out[:n] + ["[...]"]
        return out
    return keep


def ms(ns):
    return "%.1f ms" % (ns / 1e6)


def waits(o):
    """Why it waits (--offcpu), who woke it (--wakers), where (--stacks)."""
    o.append("""Off-CPU time by state: why a process waits. tests/workloads/offreasons
does 3 rounds of 300 ms of each: a nanosleep, a vfork child that sleeps
(the parent waits in D, killable), a SIGSTOP that a helper ends with
SIGCONT, 600 ms of spinning beside a hog pinned to its CPU (R), then 3
ptrace stops held by a tracer, and then stops itself. 2-second intervals:

""")
    text, f, _ = gated("offreasons", ["@FIFO", "3", "300"],
                       "switchstat --offcpu --no-counters -p %d -i 2000",
                       ["--offcpu", "--no-counters", "-p", "@WL", "-i", "2000"])
    o.append(text)
    o.append("""
Before the workload starts it is blocked (on a FIFO) since before the
start: a span whose beginning switchstat did not see, so it is not
counted. From then on each row's ONCPU + OFFCPU is the interval (2000 ms),
as spans that cross an edge are split between the intervals. The workload
measured of itself %s in nanosleep (S), %s in vfork (D), %s
stopped and %s in ptrace stops (both T here; CSV and JSON split them
as offcpu_stopped_ns and offcpu_traced_ns), and %s waiting for a CPU
(R: its window less its CPU time less its blocking). After its last
round T also holds its own final stop.


""" % (ms(f[2]), ms(f[3]), ms(f[4]), ms(f[5]), ms(f[6])))

    o.append("""Who woke it: a pipe ping-pong (tests/workloads/wakepair pipe 5000; only
its parent selected: its child is another process) and a 2 ms nanosleep
loop (sleeper). The parent's one waker is its child, once per round trip;
the sleeper's wakeups are the timer's (an hrtimer expiry, in interrupt
context), never charged to the task the interrupt hit:

""")
    slp = bg(os.path.join(W, "sleeper"), "2000")
    time.sleep(0.5)
    text, f, _ = gated("wakepair", ["pipe", "5000", "@FIFO"],
                       "switchstat --wakers --no-counters -n 4 -p %%d,%d" % slp.pid,
                       ["--wakers", "--no-counters", "-n", "4", "-p", "@WL,%d" % slp.pid])
    slp.kill()
    slp.wait()
    o.append(text)
    o.append("""
COUNT is the number of wakeups, OFFCPU(ms) the off-CPU time they ended
(whole spans, switch-out to switch-in). BY is task, or timer, irq, softirq
or idle for a wakeup in interrupt context.


""")

    sw = ["20", "30", "10", "@FIFO", "lock"]
    text, f, _ = gated("stackwait", sw, "switchstat --offcpu -L --no-counters -p %d -i 3000",
                       ["--offcpu", "-L", "--no-counters", "-p", "@WL", "-i", "3000"])
    o.append("""Where a thread waits, found from the table down to its stack: stackwait
(tests/workloads/stackwait 20 30 10 FIFO lock) blocks 20 times each in a
pipe read (wait_in_pipe, 30 ms), a nanosleep (wait_in_sleep, 10 ms) and a
mutex its helper thread swhelper holds 30 ms (wait_on_lock); it measured
%s, %s and %s. --offcpu says its main thread sleeps (S):

""" % (ms(f[1]), ms(f[2]), ms(f[3])))
    o.append(text)
    o.append("""
--stacks says where: after the per-interval tables (left out here) and
Ctrl-C, the 4 largest stacks, innermost frame first, kernel then user
frames, then comm (pid/tid) and the off-CPU time in microseconds:

""")
    text, f, _ = gated("stackwait", sw, "switchstat --stacks -L -n 4 -p %d --no-counters -d 600",
                       ["--stacks", "-L", "-n", "4", "-p", "@WL", "--no-counters", "-d", "600"],
                       keep=after("Off-CPU stacks"))
    o.append(text)
    o.append("""
This run's stackwait measured %s in wait_in_pipe, %s in
wait_in_sleep and %s in wait_on_lock. The lock wait is glibc's
__lll_lock_wait under futex_wait, called from main: Debian's glibc has no
frame pointers, so wait_on_lock and pthread_mutex_lock are missing from
the frame-pointer walk (stackwait itself is built with them). The same as
folded lines for flamegraph.pl or speedscope (comm;user frames outermost
first;kernel frames usecs), the first 5:

""" % (ms(f[1]), ms(f[2]), ms(f[3])))
    text, f, _ = gated("stackwait", sw, "switchstat --stacks -f -p %d -d 600 --no-counters 2>/dev/null",
                       ["--stacks", "-f", "-p", "@WL", "-d", "600", "--no-counters"],
                       keep=lambda ls: [l for l in ls if ";" in l][:5] + ["[...]"])
    o.append(text)
    o.append("""
Who woke them, and from where (--wakers --stacks, as bcc's offwaketime):
after each blocked stack a "--  --" line, the waker's stack (innermost
first) and "waker:" its name; the helper's wake_by_pipe() woke
wait_in_pipe() (stackwait with 10 rounds and no lock; the 2 largest):

""")
    sw = ["10", "30", "10", "@FIFO"]
    text, f, _ = gated("stackwait", sw, "switchstat --stacks --wakers -L -n 2 -p %d --no-counters -d 600",
                       ["--stacks", "--wakers", "-L", "-n", "2", "-p", "@WL", "--no-counters", "-d", "600"],
                       keep=after("Off-CPU stacks"))
    o.append(text)
    o.append("""
Folded (-f), the waker upside down after a "--" frame, its name last
(the first 2 lines):

""")
    text, f, _ = gated("stackwait", sw, "switchstat --stacks --wakers -f -p %d -d 600 --no-counters 2>/dev/null",
                       ["--stacks", "--wakers", "-f", "-p", "@WL", "-d", "600", "--no-counters"],
                       keep=lambda ls: [l for l in ls if ";" in l][:2] + ["[...]"])
    o.append(text)
    o.append("""
And as NDJSON records (--json; CSV has the same columns), the pipe wait's:

""")
    text, f, _ = gated("stackwait", sw, "switchstat --stacks --wakers --json -d 600 --no-counters -p %d",
                       ["--stacks", "--wakers", "--json", "-d", "600", "--no-counters", "-p", "@WL"],
                       keep=lambda ls: [l for l in ls if '"type":"stack"' in l and "wait_in_pipe" in l][:1])
    o.append(text)


def main():
    mount = cg2()
    cgs = []
    if mount:
        for name in ("ex-batch", "ex-web"):
            d = os.path.join(mount, name)
            os.makedirs(d, exist_ok=True)
            cgs.append(d)

    def into(cg, p):
        if mount:
            open(os.path.join(mount, cg, "cgroup.procs"), "w").write(str(p.pid))

    spin = bg(os.path.join(W, "spinner"), "2", "spinner")
    into("ex-batch", spin)
    pf = "/tmp/ex-pingpong.pids"
    if os.path.exists(pf):  # a stale one would name processes long gone
        os.unlink(pf)
    pp = bg(os.path.join(W, "pingpong"), pf)
    sl = bg(os.path.join(W, "sleeper"), "1000")
    odd = bg(os.path.join(W, "oddcomm"), "1000")
    for _ in range(100):
        if os.path.exists(pf) and open(pf).read().strip():
            break
        time.sleep(0.05)
    ping, pong = open(pf).read().split()
    into("ex-web", pp)
    if mount:  # the child too: it was forked before the move
        open(os.path.join(mount, "ex-web", "cgroup.procs"), "w").write(pong)
        open(os.path.join(mount, "ex-web", "cgroup.procs"), "w").write(str(sl.pid))
    time.sleep(1)
    o = []
    o.append("""Demonstrations of switchstat, the Linux eBPF/libbcc tool.


switchstat summarizes context switches, split into voluntary and
involuntary, and on-CPU time per process, thread or cgroup, from the
sched:sched_switch tracepoint. Optional: perf counter deltas per slice,
memory events, histograms, and a trace of every switch. The examples below
are from a 2-vCPU virtual machine (Linux 6.18, no hardware PMU) shared with
other work; the workloads named spinner (2 spinning threads), sleeper (a 1
ms nanosleep loop) and ping/pong (two processes bouncing a byte over a
pipe) are the test programs of tests/workloads, run in the cgroups
/ex-batch (spinner) and /ex-web (ping, pong, sleeper). The file is made by
scripts/make-example.py: every output below is a real run.

""")
    o.append(run("switchstat -d 3 -n 8", ["-d", "3", "-n", "8"]))
    o.append("""
Each interval (1 second by default) prints the busiest processes first, by
on-CPU time. SWITCH is VOL + INVOL: a voluntary switch is one where the task
blocked or slept (ping and pong wait in read() on their pipes, tens of
thousands of times a second), an involuntary one is where it was preempted
while still runnable (spinner never blocks, so all of its switches are
involuntary). These counts are the kernel's own voluntary_ctxt_switches and
nonvoluntary_ctxt_switches of /proc/PID/status over the same time.

ONCPU(ms) is the time the process ran in the interval and %CPU is that
relative to one CPU (spinner's two threads can reach 200 on this 2-CPU
machine, if nothing else wants the CPUs).

This machine has no PMU, so the default hardware counters (cycles,
instructions, cache-misses) cannot be read: the table leaves their columns
out, IPC and MPKI too, and the one line on stderr says why (CSV and JSON
keep the fields, empty or null). With a PMU they show as CYCLES, INSTR,
LLC-MISS, IPC and MPKI. Software events work everywhere:


""")
    o.append(run("switchstat -p %d -L -d 2 -e cpu-clock,page-faults" % spin.pid,
                 ["-p", str(spin.pid), "-L", "-d", "2", "-e", "cpu-clock,page-faults"]))
    o.append("""
-p shows one process (filtered in kernel, on the process id, so all of its
threads), -L one row per thread. -e reads the listed perf events at every
switch and charges each slice's delta to the task leaving the CPU. Time
events are shown in ms, like ONCPU(ms), with the unit in the header:
CPU-CLK(ms) (cpu-clock) equals ONCPU(ms); CSV and JSON have it in ns as
cpu_clock_ns. -e page-faults is PG-FAULTS (-M has its own FAULTS column):
the spinning threads take no page faults. The main thread (%d) waits in
pause() and did not run.


A wide table fits the terminal: its width comes from the terminal itself
(or $COLUMNS when stdout is not one; through a pipe with neither, nothing is
cut). First COMM is shortened (a '+' marks the cut, as top does), then the
columns that matter least go first; one line says which:

""" % spin.pid)
    wide = ["-M", "-e", "cpu-clock,page-faults,task-clock", "-d", "1", "-n", "4"]
    o.append(run("switchstat -M -e cpu-clock,page-faults,task-clock -d 1 -n 4 | cat", wide))
    o.append("\n")
    o.append(run("COLUMNS=80 switchstat -M -e cpu-clock,page-faults,task-clock -d 1 -n 4",
                 wide, env={"COLUMNS": "80"}))
    o.append("""
Sums and the raw counts behind a ratio go first; PID, COMM, VOL, INVOL
and ONCPU(ms) always stay. The man page (FIELDS) has the whole order.


""")
    o.append(run("switchstat --hist runq -H -d 1 --no-counters", ["--hist", "runq", "-H", "-d", "1", "--no-counters"]))
    o.append("""
--hist prints log2 histograms like bcc's runqlat (runq: time from wakeup to
running), cpudist (oncpu: slice lengths) and cpudist -O (offcpu: blocked
time); -H leaves out the table, -m uses milliseconds, -P splits by process
and -G by cgroup:

""")
    o.append(run("switchstat -G --hist runq -d 1 -n 4 --no-counters",
                 ["-G", "--hist", "runq", "-d", "1", "-n", "4", "--no-counters"]))
    o.append("""
One histogram per cgroup, named as the -G table names the cgroup (a
container's short id for docker, containerd, CRI-O or podman layouts); -n
limits how many. CSV and JSON carry cgroup_id and cgroup instead of pid,
tid and comm, and the exporter (--listen) labels its histograms by cgroup.


Which container delays which: --blame with -G splits each cgroup's
run-queue delay by the cgroups whose tasks ran on the CPU meanwhile:

""")
    o.append(run("switchstat -G --blame --no-counters -n 4 1 1",
                 ["-G", "--blame", "--no-counters", "-n", "4", "1", "1"]))
    o.append("""
A cgroup delayed mostly by itself has more runnable tasks than CPUs for
them (/ex-batch's two spinning threads here); a large DELAY(ms) charged to
another cgroup is a noisy neighbour, and the second list sums what each
cgroup inflicted, on how many victims. Per process, further below.


--trace prints one line per context switch instead of intervals:

""")
    o.append(run("switchstat --trace -p %s -d 1" % ping, ["--trace", "-p", ping, "-d", "1"], head=9, tail=3))
    o.append("""
TIME(s) is seconds since tracing started. Each line is a switch on CPU: the
task leaving (PREV_PID is its process id, PREV_TID its thread id), its
STATE, and the thread coming on (NEXT_TID: the tracepoint carries no process
id for it). SLICE(us) is how long the leaving task ran. With -p only the
switches where that process leaves the CPU are printed: here ping (%s)
blocks in read() (S) and hands the CPU to pong. Without a PMU the lines have
no counter columns.

STATE is printed as the kernel's own sched_switch trace does: S sleeping,
D uninterruptible (usually disk I/O), T stopped, t traced, X dead, Z zombie,
P parked, I idle kernel thread; R means the task was still runnable, and
R+ that it was preempted. Here is the whole machine with wall-clock times
(-T), without counters:

""" % ping)
    o.append(run("switchstat --trace -T --no-counters -d 1", ["--trace", "-T", "--no-counters", "-d", "1"], head=10, tail=1))
    o.append("""
The first slice on a CPU is unknown (-): it began before tracing started.
pong is switched out in state R after each write(): waking ping makes the
scheduler prefer ping at once, so pong is preempted while runnable, an
involuntary switch (which is why the ping/pong rows above show involuntary
switches).

Lines are ordered per CPU: each CPU has its own perf buffer, so sort by
ts_ns (CSV/JSON) for one global order.


--csv and --json give the same fields for scripts. JSON is one object per
line (NDJSON), with a "type" key ("row", "switch" or "hist") and the other
keys equal to the CSV columns. Comms are escaped properly: here the test
program oddcomm has renamed itself to o"d\\d, followed by the byte 0x01 and
c (shown as ^A):

""")
    o.append(run("switchstat --json -d 1 -n 3 --no-counters", ["--json", "-d", "1", "-n", "3", "--no-counters"]))
    o.append("\n")
    o.append(run("switchstat --trace --csv -p %d -d 1 --no-counters" % odd.pid,
                 ["--trace", "--csv", "-p", str(odd.pid), "-d", "1", "--no-counters"], head=4))
    o.append("\n")
    o.append(run("switchstat --trace --json -p %d -d 1 --no-counters" % odd.pid,
                 ["--trace", "--json", "-p", str(odd.pid), "-d", "1", "--no-counters"], head=3))
    o.append("""
CSV fields are quoted per RFC 4180 when needed; JSON strings escape quotes,
backslashes and control bytes (\\u0001). The man page (FIELDS) describes
every column. The trace's last line (JSON:
"type":"trace_summary") counts the events traced, lost and missed: a trace
of every switch can outrun its reader, and then switchstat says how many
records were lost, per CPU as it happens and in total at exit, never
silently. Filter with -p, -t or --cgroup to trace less.


Intervals can also be given bcc style, as runqlat and cpudist take them:
"switchstat 1 5" prints five 1-second intervals, exactly like "switchstat
-i 1000 -d 5", and "switchstat 2" prints every 2 seconds until Ctrl-C.
Mixing the two forms ("switchstat -i 500 1") is refused with exit code 2.


Run-queue blame: who delayed whom. A 1 ms nanosleep loop (sleeper) and two
CPU hogs at nice 0 and nice 5, all pinned to CPU 0, for one second:

""")
    for p in (spin, pp, odd, sl):
        p.kill()
        p.wait()
    subprocess.run(["pkill", "-KILL", "-P", str(pp.pid)])
    try:
        os.kill(int(pong), 9)
    except OSError:
        pass
    time.sleep(0.3)
    bsl = bg("taskset", "-c", "0", os.path.join(W, "sleeper"), "1000")
    h0 = bg("taskset", "-c", "0", os.path.join(W, "spinner"), "0", "hog_nice0")
    h5 = bg("taskset", "-c", "0", "nice", "-n", "5", os.path.join(W, "spinner"), "0", "hog_nice5")
    time.sleep(1)
    o.append("# taskset -c 0 ./sleeper 1000 & taskset -c 0 ./spinner 0 hog_nice0 &\n"
             "# taskset -c 0 nice -n 5 ./spinner 0 hog_nice5 &\n")
    # taskset execs the workload: its pid is the workload's
    three = "%d,%d,%d" % (h0.pid, h5.pid, bsl.pid)
    # other work on the machine can crowd the top rows: retry until the
    # three pinned tasks lead the table (at most 3 runs)
    for _ in range(3):
        blame = run("switchstat --no-counters --blame -n 5 -p %s 1 1" % three,
                    ["--no-counters", "--blame", "-n", "5", "-p", three, "1", "1"])
        top = [l.split()[1] for l in blame.splitlines()[4:7] if len(l.split()) > 1]
        if sorted(top) == ["hog_nice0", "hog_nice5", "sleeper"]:
            break
        time.sleep(2)
    o.append(blame)
    o.append("""
-p selects the victims (the three pinned tasks); the culprits are
whatever ran on their CPU. Each victim's wait is split by what ran on its
CPU meanwhile (%WAIT: the share of the victim's whole run-queue wait): the
hogs wait for each other, the sleeper mostly behind the nice-0 hog, and on
this shared machine other work running at the same time delays them too.
The second list sums the delay each culprit inflicted, on how many
victims. (idle) is wakeup latency on an idle CPU; (unknown) is wait the
probe could not pin on a task. The same for one victim, as CSV:

""")
    o.append(run("switchstat --no-counters --blame --csv -p %d 1 1" % bsl.pid,
                 ["--no-counters", "--blame", "--csv", "-p", str(bsl.pid), "1", "1"], head=12))
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
    subprocess.run(["pkill", "-KILL", "-f", "^%s/spinner 0 hog_nice" % W])
    o.append("""

As a Prometheus exporter, on 127.0.0.1:9479 (no tables with -q), with the
run-queue latency histogram:

""")
    ex = subprocess.Popen([SS, "--listen", "9479", "-q", "--hist", "runq"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    metrics = ""
    for _ in range(200):
        time.sleep(0.1)
        r = subprocess.run(["curl", "-s", "127.0.0.1:9479/metrics"], stdout=subprocess.PIPE)
        metrics = r.stdout.decode("utf-8", "replace")
        if "switchstat_runq_latency_seconds_count{" in metrics:
            time.sleep(5)
            metrics = subprocess.run(["curl", "-s", "127.0.0.1:9479/metrics"],
                                     stdout=subprocess.PIPE).stdout.decode("utf-8", "replace")
            break
    ex.terminate()
    ex.wait()
    o.append("# switchstat --listen 9479 -q --hist runq &\n# curl -s 127.0.0.1:9479/metrics\n")
    o.append(pick(metrics, [r"^# (HELP|TYPE) switchstat_context_switches_total",
                            r"^switchstat_context_switches_total\{cgroup=\"/\"",
                            r"^# TYPE switchstat_runq_latency_seconds",
                            r"^switchstat_runq_latency_seconds_bucket\{cgroup=\"/\",container_id=\"\",le=\"0.0000(16|32|64)\"",
                            r"^switchstat_runq_latency_seconds_bucket\{cgroup=\"/\",.*\+Inf",
                            r"^switchstat_runq_latency_seconds_(sum|count)\{cgroup=\"/\"",
                            r"^switchstat_missed_slices_total", r"^switchstat_scrape_duration_seconds ",
                            r"^switchstat_bpf_run(s|_seconds)_total\{program=\"[a-z_]*sched_switch",
                            r"^process_cpu_seconds_total", r"^switchstat_build_info"]))
    o.append("""
Every value counts from the start of the run and is never reset, so
Prometheus' rate() gives per-second figures at any scrape interval. Here
most of the machine runs in the root cgroup "/"; processes in containers
get their own series, with the container's short id in container_id. The
histograms are per cgroup too, with the same labels; their buckets are the
log2 slots in seconds (le is a slot's upper bound), and _sum is estimated
from the slot midpoints. switchstat_bpf_run_seconds_total over
switchstat_bpf_runs_total is the probe's cost per switch, and
switchstat_scrape_duration_seconds the time it took to build this text,
once per interval: a scrape only sends it. With --metrics-per-process each
series also carries pid and comm, up to --max-series label sets (default
2000; the rest are summed into a series labelled "other").
deploy/README.md has the DaemonSet and example queries.


""")
    waits(o)
    o.append("""

USAGE message:

""")
    o.append(run("switchstat -h", ["-h"]))
    for d in cgs:
        for _ in range(20):
            try:
                os.rmdir(d)
                break
            except OSError:
                time.sleep(0.1)
    sys.stdout.write("".join(o))


try:
    main()
finally:
    for p in procs:
        if p.poll() is None:
            p.kill()

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_wakernames.sh - a process row carries the process's name (its
# leader's comm, /proc/PID/comm), never one of its threads', in every
# feature that shows a process: --wakers (waker and victim), --blame
# (culprit and victim), --stacks (the task and its waker) and the
# exporter's labels; thread names show with -L only.  Workload:
# tests/workloads/wakepair named: process u10waker, whose threads
# wk-alpha and wk-beta take turns waking a process B N times (SCHED_FIFO
# on one CPU: every write finds B asleep).
#  1. per process (JSON, exporter): every record naming A says u10waker;
#     B's waker is A, N times, one record per interval, and one
#     switchstat_wakeups_total series for (B, A), N.
#  2. -L (CSV): B's wakers are A's two threads, N/2 each, each named as
#     /proc/A/task/TID/comm says.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/wakepair" ] || fail "workload wakepair not built in $WORKLOADS"
N=200

# run NAME ARGS...: wakepair named under switchstat ARGS, frozen past an
# interval edge; the kernel's names into $T/NAME.names; A, B killed
run() {
	local name=$1
	shift
	GATED_EDGES=2 run_gated "$name" wakepair named $N @FIFO -- -v \
		--wakers --offcpu --blame --stacks --no-counters -i 500 "$@"
	read -r A B _ ALPHA BETA <"$T/$name.wl"
	{
		echo "A $(cat /proc/"$A"/comm)"
		echo "$ALPHA $(cat /proc/"$A"/task/"$ALPHA"/comm)"
		echo "$BETA $(cat /proc/"$A"/task/"$BETA"/comm)"
	} >"$T/$name.names"
	kill -KILL "$WL" 2>/dev/null
	[ "$B" -gt 0 ] && kill -KILL "$B" 2>/dev/null
	wait "$WL" 2>/dev/null
}

# check NAME FORMAT PER: the records of $T/NAME.out (FORMAT json or csv;
# PER process or thread) against the workload and the kernel's names
check() {
	python3 - "$T/$1.out" "$T/$1.wl" "$T/$1.names" "$2" "$3" "$T/$1.prom" <<'PY'
import csv, json, os, sys, collections
out, wl, names, fmt, per, prom = sys.argv[1:7]
a, b, n, alpha, beta = map(int, open(wl).read().split())
kn = {}
for l in open(names):
    k, v = l.rstrip("\n").split(" ", 1)
    kn[k] = v
pname = kn["A"]
tname = {alpha: kn[str(alpha)], beta: kn[str(beta)]}
print("  kernel: process %d is %s, threads %s" % (a, pname, tname))
recs = []
if fmt == "json":
    recs = [json.loads(l) for l in open(out, encoding="utf-8") if l.startswith("{")]
else:  # the rows' header, then blocks (a blank line, a header, its
    # records) and more rows: a header is a line whose first field is
    # not a number
    hdr = row_hdr = None
    for line in open(out, encoding="latin-1").read().split("\n"):
        if not line:
            hdr = row_hdr
            continue
        f = next(csv.reader([line]))
        try:
            float(f[0])
        except ValueError:
            hdr = f
            row_hdr = row_hdr or f
            continue
        if len(f) != len(hdr) and len(f) == len(row_hdr):
            hdr = row_hdr  # the next interval's rows
        recs.append(dict(zip(hdr, f)))
bad = 0
def num(r, k):
    v = r.get(k)
    return int(v) if v not in (None, "", "null") else None
# every (pid or tid, comm) pair any record shows for A's tasks
seen = collections.Counter()
pairs = (("victim_pid", "victim_comm"), ("waker_pid", "waker_comm"),
         ("culprit_pid", "culprit_comm"), ("pid", "comm"),
         ("victim_tid", "victim_comm"), ("waker_tid", "waker_comm"),
         ("culprit_tid", "culprit_comm"), ("tid", "comm"))
for r in recs:
    for ik, ck in pairs:
        i = num(r, ik)
        if i in (a, alpha, beta) and ck in r:
            if per == "process" and ik.endswith("tid"):
                continue
            if per == "thread" and ik.endswith("pid") and ik.replace("pid", "tid") in r:
                continue
            seen[(r.get("type", "row"), ik, i, r[ck])] += 1
for k, c in sorted(seen.items(), key=str):
    want = pname if per == "process" or k[2] == a else tname.get(k[2], pname)
    ok = k[3] == want
    bad += not ok
    print("  %s %s=%d named %s (%d records)%s" % (k[0], k[1], k[2], k[3], c,
          "" if ok else "  <-- want " + want))
if not seen:
    print("  no record names A")
    bad += 1
# B's wakers
wk = collections.Counter()
for r in recs:
    if r.get("waker_kind") == "task" and "count" in r and \
       num(r, "victim_tid" if per == "thread" else "victim_pid") == b:
        w = num(r, "waker_tid" if per == "thread" else "waker_pid")
        wk[(w, r["waker_comm"])] += int(r["count"])
print("  B woken by %s" % dict(wk))
want = {(a, pname): n} if per == "process" else \
       {(alpha, tname[alpha]): n // 2, (beta, tname[beta]): n - n // 2}
if dict(wk) != want:
    print("  want %s" % want)
    bad += 1
if per == "process" and os.path.exists(prom):
    from prom_samples import samples
    ser = [(lab, v) for name, lab, v in samples(prom, ("switchstat_wakeups_total",))
           if lab.get("pid") == str(b) and lab.get("waker_kind") == "task"]
    for lab, v in ser:
        print("  exporter: %s %d" % (lab, v))
    if len(ser) != 1 or ser[0][0].get("waker_pid") != str(a) or \
       ser[0][0].get("waker_comm") != pname or ser[0][1] != n:
        print("  want one series for B by %d, waker_comm=%s, %d" % (a, pname, n))
        bad += 1
sys.exit(1 if bad else 0)
PY
}

# diag NAME: what a failing check read: the output's first lines, and the
# run's -v summary lines (skipped slices, drops, attach)
diag() {
	echo "  $1.out, first lines:" >&2
	head -n 4 "$T/$1.out" | cut -c1-200 | sed 's/^/    /' >&2
	echo "  $1.err, last lines:" >&2
	tail -n 6 "$T/$1.err" | cut -c1-200 | sed 's/^/    /' >&2
}

info "1. per process, JSON and the exporter"
PORT=$(free_port)
run p --json --listen "$PORT" --metrics-per-process
PORT=""
check p json process || { diag p; fail "per process: a process row is not named as the process"; }

info "2. per thread (-L), CSV"
run t --csv -L
check t csv thread || { diag t; fail "-L: a thread row is not named as the thread"; }

pass "process rows carry the process's name, thread rows the thread's"

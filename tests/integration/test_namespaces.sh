#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_namespaces.sh - right, or refused with one message, in any namespace.
#  1. time: under unshare --time --monotonic 100000, --trace times are the
#     namespace's clocks: ts_ns between CLOCK_MONOTONIC read in the
#     namespace before and after the run, time between the wall clock
#     before and after; the table's TIME(s) counts from the start.
#  2. pid: in a new pid namespace, runs that show or take pids exit 1 with
#     one message; -G alone (no pids) works.
#  3. cgroup: in a new cgroup namespace with its own cgroup2 mount, -G
#     paths are the namespace's, as /proc/PID/cgroup shows them there.
#  4. mount: with tracefs only at /sys/kernel/tracing (no debugfs, as in
#     many containers) it runs; with no tracefs at all, exit 1 and one
#     message.
. "$(dirname "$0")/lib.sh"

need_root
command -v unshare >/dev/null || skip "unshare not installed"
[ -x "$WORKLOADS/sleeper" ] || fail "workload sleeper not built"
bg "$WORKLOADS/sleeper" 1000
S=$BG_LAST

# 1. time namespace
unshare --time --monotonic 100000 true 2>/dev/null || skip "no time namespaces"
cat >"$T/timens.sh" <<EOS
python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC), time.time_ns())' >"$T/before"
# not a window: timestamps against the clocks read around it, no count
"$SWITCHSTAT" --trace --csv -d 1 -p $S >"$T/tr.csv" 2>"$T/tr.err" || exit 1
"$SWITCHSTAT" --trace -d 1 -p $S >"$T/tr.txt" 2>>"$T/tr.err" || exit 1
python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC), time.time_ns())' >"$T/after"
EOS
unshare --time --monotonic 100000 --fork bash "$T/timens.sh" ||
	fail "switchstat in a time namespace: $(cat "$T/tr.err")"
python3 - "$T" <<'PY' || fail "time namespace: $(head -3 "$T/tr.csv")"
import csv, sys
t = sys.argv[1]
m0, r0 = map(int, open(t + "/before").read().split())
m1, r1 = map(int, open(t + "/after").read().split())
rows = list(csv.DictReader(open(t + "/tr.csv", encoding="latin-1", newline="")))
if len(rows) < 100:
    sys.exit("only %d trace lines" % len(rows))
ts = [int(r["ts_ns"]) for r in rows]
wall = [float(r["time"]) for r in rows]
if not (m0 <= min(ts) and max(ts) <= m1):
    sys.exit("ts_ns %d..%d outside the namespace's CLOCK_MONOTONIC %d..%d"
             % (min(ts), max(ts), m0, m1))
if not (r0 / 1e9 - 1e-6 <= min(wall) and max(wall) <= r1 / 1e9 + 1e-6):
    sys.exit("time %.6f..%.6f outside the wall clock %.6f..%.6f"
             % (min(wall), max(wall), r0 / 1e9, r1 / 1e9))
secs = [float(l.split()[0]) for l in open(t + "/tr.txt", encoding="latin-1")
        if l.split() and l.split()[0][0].isdigit()]
if len(secs) < 100 or max(secs) < 0.5 or max(secs) > 1.5:
    sys.exit("table TIME(s) %s..%s over %d lines, want up to ~1 s"
             % (min(secs or [0]), max(secs or [0]), len(secs)))
print("  time ns: %d lines; ts_ns within the namespace's CLOCK_MONOTONIC, "
      "time within the wall clock, TIME(s) up to %.3f" % (len(rows), max(secs)))
PY

# 2. pid namespace
for args in "-d 1" "-p 1 -d 1" "--trace -d 1" "-G -t 1 -d 1"; do # not a window: rows and exit code in a pid namespace, no count
	rc=0
	# shellcheck disable=SC2086
	unshare --pid --fork --mount-proc "$SWITCHSTAT" $args >"$T/pid.out" 2>"$T/pid.err" || rc=$?
	[ "$rc" -eq 1 ] || fail "pid ns, $args: exit $rc, want 1"
	[ "$(wc -l <"$T/pid.err")" -eq 1 ] && grep -q "host's pid namespace" "$T/pid.err" ||
		fail "pid ns, $args: $(cat "$T/pid.err")"
done
info "pid ns: refused: $(cat "$T/pid.err")"
rc=0
unshare --pid --fork --mount-proc "$SWITCHSTAT" -G --csv -d 1 >"$T/pg.out" 2>"$T/pg.err" || rc=$? # not a window: exit code and rows only
[ "$rc" -eq 0 ] && [ "$(wc -l <"$T/pg.out")" -ge 2 ] ||
	fail "pid ns, -G: exit $rc: $(cat "$T/pg.err")"
info "pid ns: -G works ($(($(wc -l <"$T/pg.out") - 1)) cgroup rows)"

# 4. mount namespace (before 3, which may end the test early)
if [ -d /sys/kernel/tracing/events/sched ]; then
	rc=0
	unshare --mount sh -c "umount -l /sys/kernel/debug 2>/dev/null
		exec '$SWITCHSTAT' --csv -d 1 -p $S" >"$T/mnt.out" 2>"$T/mnt.err" || rc=$? # not a window: exit code and message only
	[ "$rc" -eq 0 ] && grep -q "^[0-9.]*,$S," "$T/mnt.out" ||
		fail "tracefs only at /sys/kernel/tracing: exit $rc: $(cat "$T/mnt.err")"
	info "mount ns: tracefs only at /sys/kernel/tracing: traced"
	rc=0
	unshare --mount sh -c "umount -l /sys/kernel/debug 2>/dev/null
		umount -l /sys/kernel/tracing 2>/dev/null
		exec '$SWITCHSTAT' -d 1" >"$T/mnt.out" 2>"$T/mnt.err" || rc=$? # not a window: exit code and message only
	[ "$rc" -eq 1 ] && [ "$(wc -l <"$T/mnt.err")" -eq 1 ] &&
		grep -q "tracefs not found" "$T/mnt.err" ||
		fail "no tracefs: exit $rc: $(cat "$T/mnt.err")"
	info "mount ns: no tracefs: $(cat "$T/mnt.err")"
fi

# 3. cgroup namespace
V2=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
[ -n "$V2" ] || { info "no cgroup2: cgroup namespace part skipped"; pass "namespaces"; }
P=$V2/switchstat-ns-$$
ns_cleanup() {
	cleanup
	for d in "$P/a" "$P"; do
		for _ in $(seq 1 20); do # not a window: cleanup retry
			[ -d "$d" ] || break
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
	done
}
trap ns_cleanup EXIT
mkdir -p "$P/a" || fail "mkdir $P/a"
echo "$S" >"$P/a/cgroup.procs" || fail "move the sleeper"
cat >"$T/cgns.sh" <<EOS
echo \$\$ >"$P/cgroup.procs" || exit 1
# not a window: cgroup names in the rows, no count
exec unshare --cgroup --mount sh -c 'umount -l "$V2" && mount -t cgroup2 none "$V2" &&
	grep "^0::" /proc/$S/cgroup >"$T/inside" &&
	"$SWITCHSTAT" -G --csv -d 1 >"$T/cg.csv" 2>"$T/cg.err"'
EOS
bash "$T/cgns.sh" || fail "cgroup ns run: $(cat "$T/cg.err" 2>/dev/null)"
want=$(sed 's/^0:://' "$T/inside")
[ "$want" = /a ] || fail "inside the namespace the sleeper's cgroup is '$want', want /a"
got=$(python3 - "$T/cg.csv" "$(stat -c %i "$P/a")" <<'PY'
import csv, sys
print(" ".join(r["cgroup"] for r in csv.DictReader(open(sys.argv[1], encoding="latin-1", newline=""))
               if r["cgroup_id"] == sys.argv[2]))
PY
)
[ "$got" = "$want" ] || fail "cgroup ns: -G path '$got', /proc/$S/cgroup says '$want'"
info "cgroup ns: -G path $got, as /proc/$S/cgroup shows it in the namespace"
pass "namespaces"

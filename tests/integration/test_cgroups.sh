#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_cgroups.sh - cgroup v2 rows (-G), the --cgroup filter, cgroup names.
#
# Two spinners, each in its own child cgroup under the cgroup2 mount, are
# stopped (SIGSTOP) while switchstat starts and stops, so the kernel's
# on-CPU time (schedstat) over the window is exactly what the tool saw:
#  1. -G -M --csv: each cgroup's oncpu_ns within 2% of its spinner's schedstat
#     delta; a touchpages run in cgroup a: a's faults within 2% of its minflt
#     delta; the cgroup column is the path.
#  2. --cgroup PATH (absolute, child a): only a's spinner, its on-CPU time
#     within 2%; b is filtered out.
#  3. --cgroup PATH (relative, the parent): both spinners and nothing else.
#  4. bad --cgroup paths: exit 2 with one message, before compiling.
#  5. -G table: a cgroup named like a docker scope shows the short container
#     id; a cgroup removed before the report prints its id as the number.
#  6. --cgroup PATH follows a child cgroup made after the tool attached: a
#     spinner pinned to CPU 0 in it runs 1 s; its on-CPU time within 2% of
#     its schedstat.
#  7. container ids of runc's systemd layout made as one directory,
#     <pod>.slice:cri-containerd:<id> (at the top and under system.slice)
#     and ...:crio:<id> under kubepods.slice, a spinner in each: -G --listen
#     labels them container_id=<12 hex> and the -G table shows that id; a
#     crio-conmon-<id>.scope with a sleeper in it has container_id="".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh" # sets its own EXIT trap: ours follows

need_root
for w in spinner touchpages; do
	[ -x "$WORKLOADS/$w" ] || fail "workload $w not built in $WORKLOADS"
done

V2=$(cg2_mount)
[ -n "$V2" ] || skip "no cgroup2 file system mounted"
REL=$CG_BASE/switchstat-test-$$
P=$V2$REL
CID=4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8
B=$P/docker-$CID.scope # cgroup b: a docker (systemd driver) layout

cgs_cleanup() {
	cleanup # lib.sh: kill the workloads, remove $T
	cg_remove "$P"
}
trap cgs_cleanup EXIT
mkdir "$P" 2>/dev/null || skip "cannot create a cgroup under $V2"
mkdir "$P/a" "$B" || fail "mkdir child cgroups"
ID_A=$(stat -c %i "$P/a")
ID_B=$(stat -c %i "$B")

# into CG PID: move process PID (all its threads) into cgroup CG
into() { echo "$2" >"$1/cgroup.procs" || fail "cannot move $2 into $1"; }

bg "$WORKLOADS/spinner" 0 ss_cg_a
SPIN_A=$BG_LAST
bg "$WORKLOADS/spinner" 0 ss_cg_b
SPIN_B=$BG_LAST
into "$P/a" "$SPIN_A"
into "$B" "$SPIN_B"
kill -STOP "$SPIN_A" "$SPIN_B"

# window NAME ARGS...: run switchstat while both spinners run, until each
# has run 300 ms (schedstat: run_for_cpu, however slow the host); sets
# DA / DB, the spinners' schedstat on-CPU deltas (ns) over the window
window() {
	local name=$1 a0 b0
	shift
	start_tool "$name" "$@"
	a0=$(schedstat_sum "$SPIN_A")
	b0=$(schedstat_sum "$SPIN_B")
	kill -CONT "$SPIN_A" "$SPIN_B"
	run_for_cpu 300000000 "$SPIN_A" "$SPIN_B"
	kill -STOP "$SPIN_A" "$SPIN_B"
	DA=$(($(schedstat_sum "$SPIN_A") - a0))
	DB=$(($(schedstat_sum "$SPIN_B") - b0))
}

# column FILE KEY: the distinct values of CSV column KEY, one a line
column() {
	python3 - "$1" "$2" <<'PY'
import csv, sys
with open(sys.argv[1], encoding="latin-1", newline="") as fh:
    print("\n".join(sorted({r[sys.argv[2]] for r in csv.DictReader(fh)})))
PY
}

# 1. rows per cgroup, with memory events
bg "$WORKLOADS/touchpages" 20000 "$T/tp.ready" "$T/tp.done"
wait_file "$T/tp.ready"
TP=$(cat "$T/tp.ready")
into "$P/a" "$TP"
start_tool g -G -M --csv -i 60000
a0=$(schedstat_sum "$SPIN_A")
b0=$(schedstat_sum "$SPIN_B")
f0=$(minflt "$TP")
t0=$(schedstat_sum "$TP")
kill -CONT "$SPIN_A" "$SPIN_B"
kill -USR1 "$TP"
run_for_cpu 300000000 "$SPIN_A" "$SPIN_B"
wait_file "$T/tp.done"
kill -STOP "$SPIN_A" "$SPIN_B" "$TP"
DA=$(($(schedstat_sum "$SPIN_A") - a0))
DB=$(($(schedstat_sum "$SPIN_B") - b0))
DF=$(($(minflt "$TP") - f0))
DT=$(($(schedstat_sum "$TP") - t0))
kill -INT "$TOOL_PID"
wait_tool
[ "$DA" -ge 300000000 ] && [ "$DB" -ge 300000000 ] ||
	fail "spinners ran $DA ns, $DB ns, short of the 300 ms run_for_cpu waited for"
check_within "-G on-CPU of cgroup a (spinner + touchpages)" \
	"$(csv_sum "$T/g.out" oncpu_ns cgroup_id "$ID_A")" "$((DA + DT))" 2
check_within "-G on-CPU of cgroup b" \
	"$(csv_sum "$T/g.out" oncpu_ns cgroup_id "$ID_B")" "$DB" 2
check_within "-G -M faults of cgroup a (touchpages minflt)" \
	"$(csv_sum "$T/g.out" faults cgroup_id "$ID_A")" "$DF" 2
[ "$(python3 - "$T/g.out" "$ID_A" <<'PY'
import csv, sys
print([r["cgroup"] for r in csv.DictReader(open(sys.argv[1], encoding="latin-1", newline=""))
       if r["cgroup_id"] == sys.argv[2]])
PY
)" = "['$REL/a']" ] || fail "-G --csv: cgroup a not one row named $REL/a: $(cat "$T/g.out")"
info "-G --csv: cgroup a is one row named $REL/a"
kill -KILL "$TP"

# 2. --cgroup with an absolute path: only a's spinner
window fa --cgroup "$P/a" --csv -i 60000
kill -INT "$TOOL_PID"
wait_tool
[ "$(column "$T/fa.out" pid)" = "$SPIN_A" ] ||
	fail "--cgroup $P/a: pids $(column "$T/fa.out" pid | tr '\n' ' '), want $SPIN_A only (spinner a ran $DA ns): $(cat "$T/fa.out" "$T/fa.err")"
[ "$(column "$T/fa.out" cgroup_id)" = "$ID_A" ] ||
	fail "--cgroup $P/a: rows from other cgroups"
check_within "--cgroup a: spinner a on-CPU" \
	"$(csv_sum "$T/fa.out" oncpu_ns pid "$SPIN_A")" "$DA" 2
info "--cgroup $P/a: only pid $SPIN_A"

# 3. --cgroup with a path relative to the mount: the parent and descendants
window fp --cgroup "$REL" --csv -i 60000
kill -INT "$TOOL_PID"
wait_tool
want=$(printf '%s\n' "$SPIN_A" "$SPIN_B" | sort)
[ "$(column "$T/fp.out" pid)" = "$want" ] ||
	fail "--cgroup $REL: pids $(column "$T/fp.out" pid | tr '\n' ' '), want $SPIN_A $SPIN_B"
check_within "--cgroup parent: spinner b on-CPU" \
	"$(csv_sum "$T/fp.out" oncpu_ns pid "$SPIN_B")" "$DB" 2
info "--cgroup $REL: both spinners, nothing else"

# 4. bad paths: exit 2 and one line naming the path
for bad in "$P/nope" "$P/a/cgroup.procs" /proc; do
	rc=0
	"$SWITCHSTAT" --cgroup "$bad" -d 1 >"$T/bad.out" 2>"$T/bad.err" || rc=$? # not a window: bad input: exit code and message only
	[ "$rc" -eq 2 ] || fail "--cgroup $bad: exit $rc, want 2"
	grep -q -- "--cgroup $bad: " "$T/bad.err" ||
		fail "--cgroup $bad: no message naming it: $(cat "$T/bad.err")"
	! grep -q Tracing "$T/bad.out" "$T/bad.err" || fail "--cgroup $bad: traced"
	info "--cgroup $bad: exit 2, $(grep -- "--cgroup $bad" "$T/bad.err")"
done

# 5. table names: the short container id; a removed cgroup prints its id.
# Cgroup c is made after the start (not in the name cache) and removed
# before the report; stopped spinner a runs its whole interval in c.
start_tool t -G -i 60000
mkdir "$P/c" || fail "mkdir $P/c"
ID_C=$(stat -c %i "$P/c")
into "$P/c" "$SPIN_A"
kill -CONT "$SPIN_A" "$SPIN_B"
run_for_cpu 100000000 "$SPIN_A" "$SPIN_B" # a in c
kill -STOP "$SPIN_A" "$SPIN_B"
into "$P/a" "$SPIN_A"
for i in $(seq 1 50); do rmdir "$P/c" 2>/dev/null && break; sleep 0.1; done # not a window: cleanup retry
[ -d "$P/c" ] && fail "cannot remove $P/c"
kill -INT "$TOOL_PID"
wait_tool
row_b=$(awk -v id="$ID_B" '$1 == id { print $2 }' "$T/t.out")
[ "$row_b" = "${CID:0:12}" ] ||
	fail "-G table: cgroup b shows '$row_b', want ${CID:0:12}: $(cat "$T/t.out")"
info "-G table: docker-<id>.scope shows as ${CID:0:12}"
row_c=$(awk -v id="$ID_C" '$1 == id { print $2 }' "$T/t.out")
[ "$row_c" = "$ID_C" ] ||
	fail "-G table: removed cgroup c shows '$row_c', want its id $ID_C: $(cat "$T/t.out")"
info "-G table: removed cgroup prints its id $ID_C"

# 6. a child cgroup created after the start is followed
kill -KILL "$SPIN_A" "$SPIN_B"
start_tool fd --cgroup "$P" --csv -i 60000
mkdir "$P/d" || fail "mkdir $P/d"
bg taskset -c 0 "$WORKLOADS/spinner" 0 ss_cg_d
SPIN_D=$BG_LAST
kill -STOP "$SPIN_D"
into "$P/d" "$SPIN_D"
d0=$(schedstat_sum "$SPIN_D")
# until it has run 1 s of CPU (schedstat; longer when others load it)
thaw_for_cpu "$SPIN_D" "$d0" 1000000000 "spinner d"
DD=$(($(schedstat_sum "$SPIN_D") - d0))
kill -INT "$TOOL_PID"
wait_tool
[ "$DD" -ge 1000000000 ] || fail "spinner d ran $DD ns, short of the 1 s thaw_for_cpu waited for"
check_within "--cgroup $REL: child d made after the start, spinner on-CPU" \
	"$(csv_sum "$T/fd.out" oncpu_ns pid "$SPIN_D")" "$DD" 2
kill -KILL "$SPIN_D"

# 7. the colon-separated systemd layout, under -G --listen and the table
POD=kubepods-besteffort-pod72f7f152_440c_66ac_9084_e0fc1d8a910c.slice
C1=b2a102854b4969b2ce98dc329c86b4fb2b06e4ad2cc8da9d8a7578c9cd2004a2
C2=0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9
C3=b7e2c1d0a9f8e7d6c5b4a3928170f6e5d4c3b2a1908f7e6d5c4b3a2918070605
K1=$REL/$POD:cri-containerd:$C1
K2=$REL/system.slice/$POD:cri-containerd:$C2
K3=$REL/kubepods.slice/$POD:crio:$C3
KM=$REL/system.slice/crio-conmon-$C1.scope
mkdir -p "$V2$K1" "$V2$K2" "$V2$K3" "$V2$KM" || fail "mkdir colon-layout cgroups"
SPINS=()
for k in "$K1" "$K2" "$K3"; do
	bg "$WORKLOADS/spinner" 0 ss_cg_colon
	SPINS+=("$BG_LAST")
	into "$V2$k" "$BG_LAST"
done
bg "$WORKLOADS/sleeper" 2000
into "$V2$KM" "$BG_LAST"
PORT=$(free_port)
start_tool colon -G --listen "$PORT" -i 300
want_label() { # SELECTOR-CGROUP WANT-CONTAINER-ID
	local v
	v=$(metric_value "$T/colon.prom" 		"switchstat_oncpu_seconds_total,cgroup=\"$1\",container_id=\"$2\"")
	[ -n "$v" ] || fail "-G --listen: no series cgroup=\"$1\" with container_id=\"$2\": $(grep -F "$1" "$T/colon.prom" | head -3)"
	info "-G --listen: ${1##*/}: container_id=\"$2\" ($v s on-CPU)"
}
wait_metric "$PORT" "cgroup=\"${K3//./\\.}\""
wait_metric "$PORT" "cgroup=\"${KM//./\\.}\""
scrape "$PORT" >"$T/colon.prom" || fail "scrape failed"
kill -STOP "${SPINS[@]}"
want_label "$K1" "${C1:0:12}"
want_label "$K2" "${C2:0:12}"
want_label "$K3" "${C3:0:12}"
want_label "$KM" ""
kill -INT "$TOOL_PID"
wait_tool
for k in "$K1:${C1:0:12}" "$K2:${C2:0:12}" "$K3:${C3:0:12}"; do
	id=$(stat -c %i "$V2${k%:*}")
	row=$(awk -v id="$id" '$1 == id { print $2 }' "$T/colon.out" | sort -u)
	[ "$row" = "${k##*:}" ] ||
		fail "-G table: ${k%:*} shows '$row', want ${k##*:}"
done
info "-G table: the colon-layout cgroups show their short ids"
kill -KILL "${SPINS[@]}"
pass "cgroups"

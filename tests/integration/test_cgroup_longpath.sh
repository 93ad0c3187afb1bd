#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_cgroup_longpath.sh - one cgroup whose path is longer than PATH_MAX
# (as a delegated user can make, libbpf/bpftool#159) costs only its own
# subtree its names (H23):
#  - under the test cgroup P: a chain P/long/<250 bytes> x 17 (4306 bytes
#    below P/long, made with mkdirat relative to each parent), a sleeper in
#    its deepest level; spinners in P/a and P/b; P/c made after the start
#    with a spinner in it;
#  - -G -v --csv --listen: a, b and c rows have their paths in CSV and in
#    the Prometheus cgroup label (c, made later, by id only until the next
#    rescan, at most 1 s, never after), the deepest level's row its id; one -v
#    line names the last named level (the parent) and the number of cgroups
#    below it that have no name.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"

need_root
for w in spinner sleeper; do
	[ -x "$WORKLOADS/$w" ] || fail "workload $w not built in $WORKLOADS"
done
V2=$(cg2_mount)
[ -n "$V2" ] || skip "no cgroup2 file system mounted"
REL=$CG_BASE/switchstat-test-$$
P=$V2$REL
LEVELS=17
NAMELEN=250

# chain_do make|remove|procs PID: the chain below $P/long, walked relative
# to each parent (paths past PATH_MAX); remove goes deepest first
chain_do() {
	python3 - "$P" "$LEVELS" "$NAMELEN" "$@" <<'PY'
import os, sys
top, levels, namelen, op = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
names = [chr(ord("a") + i) * namelen for i in range(levels)]
if op == "make":
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for n in ["long"] + names:
        os.mkdir(n, 0o755, dir_fd=fd)
        nfd = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    print(os.fstat(fd).st_ino)
elif op == "procs":
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for n in ["long"] + names:
        nfd = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    w = os.open("cgroup.procs", os.O_WRONLY, dir_fd=fd)
    os.write(w, sys.argv[5].encode())
elif op == "remove":
    fds = []
    try:
        fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        sys.exit(0)
    for n in ["long"] + names:
        try:
            nfd = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        except FileNotFoundError:
            break
        fds.append((fd, n))
        fd = nfd
    os.close(fd)
    for parent, n in reversed(fds):
        for _ in range(50):
            try:
                os.rmdir(n, dir_fd=parent)
                break
            except OSError:
                import time; time.sleep(0.02)
        os.close(parent)
PY
}

lp_cleanup() {
	cleanup # lib.sh: kill the workloads, remove $T
	chain_do remove
	cg_remove "$P"
}
trap lp_cleanup EXIT
mkdir "$P" 2>/dev/null || skip "cannot create a cgroup under $V2"
mkdir "$P/a" "$P/b" || fail "mkdir child cgroups"
ID_DEEP=$(chain_do make) || fail "cannot make the chain below $P/long"
ID_A=$(stat -c %i "$P/a")
ID_B=$(stat -c %i "$P/b")

# the levels whose mount + relative path fit in PATH_MAX - 1 (4095) bytes
base=$((${#V2} + ${#REL} + 5)) # + "/long"
NAMED=0
for i in $(seq 1 $LEVELS); do
	[ $((base + i * (NAMELEN + 1))) -le 4095 ] && NAMED=$i
done
UNNAMED=$((LEVELS - NAMED))
PARENT=$P/long
for i in $(seq 0 $((NAMED - 1))); do
	PARENT=$PARENT/$(printf "\\x$(printf %x $((97 + i)))%.0s" $(seq 1 $NAMELEN))
done
info "chain: $LEVELS levels, $NAMED named, $UNNAMED past PATH_MAX"

into() { echo "$2" >"$1/cgroup.procs" || fail "cannot move $2 into $1"; }
bg "$WORKLOADS/spinner" 0 ss_lp_a
SPIN_A=$BG_LAST
bg "$WORKLOADS/spinner" 0 ss_lp_b
SPIN_B=$BG_LAST
bg "$WORKLOADS/sleeper" 2000
DEEP=$BG_LAST
into "$P/a" "$SPIN_A"
into "$P/b" "$SPIN_B"
chain_do procs "$DEEP" || fail "cannot move the sleeper into the deepest level"

PORT=$(free_port)
start_tool lp -G -v --csv -i 300 --listen "$PORT"
mkdir "$P/c" || fail "mkdir $P/c"
ID_C=$(stat -c %i "$P/c")
bg "$WORKLOADS/spinner" 0 ss_lp_c
SPIN_C=$BG_LAST
into "$P/c" "$SPIN_C"
wait_metric "$PORT" "cgroup=\"$REL/c\""
wait_metric "$PORT" "cgroup=\"$ID_DEEP\""
scrape "$PORT" >"$T/lp.prom" || fail "scrape failed"
kill -STOP "$SPIN_A" "$SPIN_B" "$SPIN_C"
kill -INT "$TOOL_PID"
wait_tool

# CSV: a, b, c by path (c made after the start), the deepest level by id
python3 - "$T/lp.out" "$ID_A=$REL/a" "$ID_B=$REL/b" "$ID_C=$REL/c" \
	"$ID_DEEP=$ID_DEEP" <<'PY' || fail "-G --csv names: $(head -c 2000 "$T/lp.out")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="latin-1", newline="")))
late = sys.argv[4].split("=", 1)[0]  # c, made after the start
for pair in sys.argv[2:]:
    cid, want = pair.split("=", 1)
    mine = [r["cgroup"] for r in rows if r["cgroup_id"] == cid]
    if cid == late and want in mine:
        # the cache rescans for an unknown id at most once a second
        # (SS_CGROUP_RESCAN_INTERVAL_NS): c may show by id until then,
        # never after its path is known
        first = mine.index(want)
        if any(n != cid for n in mine[:first]):
            sys.exit("cgroup %s: names %s before its path" % (cid, mine[:first]))
        mine = mine[first:]
    got = set(mine)
    if got != {want}:
        sys.exit("cgroup %s: names %s, want %s" % (cid, sorted(got), want))
named = {r["cgroup"] for r in rows if r["cgroup"] and not r["cgroup"].isdigit()}
if len(named) < 4:
    sys.exit("only %d cgroups named: %s" % (len(named), sorted(named)))
print("  -G --csv: %d cgroups by path; a, b, c (made later) by path, the "
      "deepest level by id" % len(named))
PY
for cg in "$REL/a" "$REL/b" "$REL/c" "$ID_DEEP"; do
	[ -n "$(metric_value "$T/lp.prom" "switchstat_oncpu_seconds_total,cgroup=\"$cg\"")" ] ||
		fail "--listen: no series with cgroup=\"$cg\": $(grep -c cgroup= "$T/lp.prom") series"
done
info "--listen: labels cgroup=\"$REL/a\", \"$REL/b\", \"$REL/c\", \"$ID_DEEP\""
n=$(grep -F "cgroups under $P/" "$T/lp.err" | grep -c "not named")
[ "$n" -eq 1 ] || fail "-v: $n 'not named' lines under $P, want 1: $(cat "$T/lp.err")"
grep -qF "switchstat: cgroups under $PARENT: $UNNAMED not named" "$T/lp.err" ||
	fail "-v line does not name the parent and the count $UNNAMED: $(grep 'not named' "$T/lp.err" | cut -c1-300)"
info "-v: $(grep 'not named' "$T/lp.err" | sed "s|$PARENT|<parent: ${#PARENT} bytes>|")"
pass "cgroup longpath"

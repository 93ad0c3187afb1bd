#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_bpf_cache.sh - the compiled-BPF cache (src/kernel/bpf_cache.c), in a
# fresh SWITCHSTAT_BPF_CACHE directory: the first run compiles and saves
# one file; a second with the same options loads it (-v: cached; its
# compile phase at most a quarter of the first run's: a hit runs no clang)
# and counts a sleeper's voluntary switches as the kernel does
# (/proc, as test_voluntary), with programs of the same tags (the kernel's
# hash of their instructions, map fds left out) as the compiled run's;
# other options make another key; a damaged file is detected, recompiled
# and rewritten (exit 0); a group-writable or symlinked directory is
# refused with a reason and the run still works; old files beyond 32 are
# removed (beyond SWITCHSTAT_BPF_CACHE_KEEP where set); "off" writes
# nothing; --blame (its task storage map needs BTF
# of key and value, made at create time on a hit) is cached on a second
# start, with the compiled run's program tags, and still blames a victim's
# waits; the default directory is created 0700; -p of a second process
# loads the object the first -p saved (the target's id is in a map) and
# its rows are the target's only.
. "$(dirname "$0")/lib.sh"
need_root
[ -x "$WORKLOADS/sleeper" ] || skip "workload sleeper not built"
[ -x "$WORKLOADS/spinner" ] || skip "workload spinner not built"

C=$T/cache # not there yet: the tool creates it
export SWITCHSTAT_BPF_CACHE=$C
unset SWITCHSTAT_BPF_CACHE_KEEP # ctest's (CMakeLists.txt): the default here

# cache_files: the cache files (64 hex digits) in $C, one a line
cache_files() {
	ls "$C" 2>/dev/null | grep -E '^[0-9a-f]{64}$' || true
}

# object NAME: what -v said of the BPF object in $T/NAME.err
object() {
	sed -n 's/^switchstat: BPF object: //p' "$T/$1.err"
}

# compile_ms NAME: the compile phase of -v's start-up line, ms
compile_ms() {
	grep -o 'start-up (ms):.*compile [0-9.]*' "$T/$1.err" | sed 's/.*compile //'
}

# hit_faster HIT COLD WHAT: a hit reads a file and runs no clang, so its
# compile phase (-v) is at most a quarter of the cold compile of the same
# options in the same run (the bound is scaled by that compile: on this
# host a hit takes 1-5 % of it, plus any cpu.max throttle stall); fails
# naming both
hit_faster() {
	local hit cold
	hit=$(compile_ms "$1")
	cold=$(compile_ms "$2")
	awk -v h="$hit" -v c="$cold" 'BEGIN { exit !(h != "" && c != "" && h <= c / 4) }' ||
		fail "$3: compile $hit ms on a hit, want <= 1/4 of the cold compile of this run ($cold ms)"
	info "$3: compile $hit ms on a hit, cold $cold ms (bound: 1/4 of the cold compile)"
}

# prog_tags PID: the tags of the BPF programs PID holds, sorted
prog_tags() {
	grep -h '^prog_tag:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort
}

# run NAME ARGS...: switchstat -v -i 100 ARGS, stopped (SIGINT) once it
# has printed rows (a hang if none within SS_HANG_S), must exit 0 and
# have printed rows; its stderr in $T/NAME.err
run() {
	local name=$1 rc=0 pid end=$((SECONDS + SS_HANG_S))
	shift
	"$SWITCHSTAT" -v -i 100 "$@" >"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
	until grep -qE '^[0-9]+ ' "$T/$name.out" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null || break
		[ "$SECONDS" -lt "$end" ] ||
			{ kill -KILL "$pid"; fail "hang: $name ($*): no rows within SS_HANG_S=$SS_HANG_S s"; }
		sleep 0.05
	done
	kill -INT "$pid" 2>/dev/null
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T/$name.err" >&2; fail "$name ($*): exit $rc"; }
	grep -qE '^[0-9]+ ' "$T/$name.out" || fail "$name ($*): no rows: $(head -3 "$T/$name.out")"
	info "$name: $(object "$name")"
}

# run_bg NAME ARGS...: run in the background (two side by side on a
# 2-CPU host: each is a compile and a run); run_join: wait for them,
# fail if any did (its own FAIL line is out)
RUN_BG=()
run_bg() {
	run "$@" &
	RUN_BG+=("$!")
}
run_join() {
	local p bad=0
	for p in "${RUN_BG[@]}"; do wait "$p" || bad=1; done
	RUN_BG=()
	[ "$bad" -eq 0 ] || exit 1
}

# vol_past PID V0 N: PID has had N voluntary switches since V0
vol_past() { [ $(($(status_sum "$1" voluntary_ctxt_switches) - $2)) -ge "$3" ]; }

# vol_run NAME [ARGS...]: switchstat -v --csv ARGS (@S: the sleeper's
# pid) on a frozen sleeper, thawed for at least 300 voluntary switches
# (the kernel's count); the tool's count of them must be the kernel's
# (within 2 %, as test_voluntary); the programs' tags in $T/NAME.tags;
# the sleeper's pid in $VOL_PID
vol_run() {
	local name=$1 s v0 v1 got a args=()
	shift
	bg "$WORKLOADS/sleeper" 1000
	s=$BG_LAST
	VOL_PID=$s
	for a in "$@"; do args+=("${a//@S/$s}"); done
	freeze "$s"
	start_tool "$name" -v --csv -n 0 -i 1000 "${args[@]}"
	prog_tags "$TOOL_PID" >"$T/$name.tags"
	v0=$(status_sum "$s" voluntary_ctxt_switches)
	thaw "$s"
	wait_for "$name: 300 voluntary switches of the sleeper" vol_past "$s" "$v0" 300
	freeze "$s"
	v1=$(status_sum "$s" voluntary_ctxt_switches)
	stop_tool
	{ kill -KILL "$s" && wait "$s"; } 2>/dev/null
	[ $((v1 - v0)) -ge 300 ] || fail "$name: sleeper too slow ($((v1 - v0)) switches)"
	got=$(csv_sum "$T/$name.out" voluntary pid "$s")
	check_within "$name: sleeper voluntary" "$got" $((v1 - v0)) 2
	[ -s "$T/$name.tags" ] || fail "$name: no BPF program tags"
	info "$name: $(object "$name"); compile $(compile_ms "$name") ms"
}

# 1. a miss: compiled, saved as one file; dir 0700, file 0600
vol_run compiled
[ "$(cache_files | wc -l)" -eq 1 ] || fail "first run: want 1 cache file, have: $(ls -la "$C")"
KEY=$(cache_files)
[ "$(object compiled)" = "compiled (saved to $C/$KEY)" ] || fail "first run: -v says '$(object compiled)'"
[ "$(stat -c %a "$C")" = 700 ] || fail "cache dir mode $(stat -c %a "$C"), want 700"
[ "$(stat -c %a "$C/$KEY")" = 600 ] || fail "cache file mode $(stat -c %a "$C/$KEY"), want 600"

# 2. a hit: same options, no clang, the same programs, right counts
vol_run cached
[ "$(object cached)" = "cached ($C/$KEY)" ] || fail "second run: -v says '$(object cached)'"
hit_faster cached compiled "second run"
cmp -s "$T/compiled.tags" "$T/cached.tags" ||
	fail "cached programs differ from compiled ones: $(diff "$T/compiled.tags" "$T/cached.tags" | head -5)"
info "program tags equal ($(wc -l <"$T/cached.tags") programs)"
[ "$(cache_files | wc -l)" -eq 1 ] || fail "a hit wrote a file"

# 2b. -p: the target's id is in a map, not compiled in, so -p of another
# process is a hit on the object the first -p saved; only its rows
vol_run p1 -p @S
KEYP=$(cache_files | grep -vx "$KEY")
[ "$(object p1)" = "compiled (saved to $C/$KEYP)" ] || fail "-p, first run: -v says '$(object p1)'"
P1=$VOL_PID
vol_run p2 -p @S
[ "$VOL_PID" != "$P1" ] || fail "-p: the two sleepers had one pid"
[ "$(object p2)" = "cached ($C/$KEYP)" ] ||
	fail "-p of another process: -v says '$(object p2)', want the first -p's object"
hit_faster p2 p1 "-p of another process"
for r in p1 p2; do
	others=$(python3 - "$T/$r.out" <<'PY'
import csv, sys
print(len({row["pid"] for row in csv.DictReader(open(sys.argv[1], encoding="latin-1", newline=""))}))
PY
	)
	[ "$others" = 1 ] || fail "-p ($r): rows of $others processes, want the target's only"
done
info "-p of another process: cached, only its rows"
[ "$(cache_files | wc -l)" -eq 2 ] || fail "-p: want 2 cache files, have: $(cache_files | wc -l)"

# 3. other options, other keys
run_bg threads -L
run_bg faults -e page-faults
run_join
[ "$(cache_files | wc -l)" -eq 4 ] || fail "-L and -e page-faults: want 4 cache files, have $(cache_files | wc -l)"
object threads | grep -q "^compiled (saved to $C/" || fail "-L: $(object threads)"
object faults | grep -q "^compiled (saved to $C/" || fail "-e page-faults: $(object faults)"

# 4. damage: bytes flipped in the middle, then a cut-off file; each is
# detected, recompiled and rewritten whole (the same bytes: a compile is
# deterministic and map references are kept as table indexes)
cp "$C/$KEY" "$T/good"
size=$(stat -c %s "$C/$KEY")
python3 - "$C/$KEY" "$((size / 2))" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    b = f.read(4)
    f.seek(int(sys.argv[2]))
    f.write(bytes(x ^ 0xA5 for x in b))
PY
cmp -s "$C/$KEY" "$T/good" && fail "the file was not damaged"
run flipped
object flipped | grep -qF "$C/$KEY rejected: checksum mismatch; saved to $C/$KEY" ||
	fail "flipped bytes: -v says '$(object flipped)'"
cmp -s "$C/$KEY" "$T/good" || fail "flipped bytes: the file was not rewritten as before"
truncate -s $((size - 100)) "$C/$KEY"
run cut
object cut | grep -qF "rejected: truncated" || fail "cut-off file: -v says '$(object cut)'"
cmp -s "$C/$KEY" "$T/good" || fail "cut-off file: not rewritten"
run again
[ "$(object again)" = "cached ($C/$KEY)" ] || fail "after the rewrite: -v says '$(object again)'"

# 4b. a file whose checksum is right but whose program the kernel refuses
# (changed on disk and summed again, or a kernel rebuilt under the same
# identity): the start removes it, runs again from the start, compiles
# (one "refused ... compiling them" line), exits 0 with rows, and the
# file is rewritten as before
python3 - "$C/$KEY" <<'PY'
import hashlib, sys
b = bytearray(open(sys.argv[1], "rb").read())
HDR = 56  # magic 8, version 4, byte order 4, payload length 8, SHA-256 32
name = b"ss_edge"
i = b.find(len(name).to_bytes(4, "little") + name, HDR)
assert i > 0, "no function ss_edge in the file"
b[i + 4 + len(name) + 4] = 0xFF  # its first instruction: no such opcode
b[24:56] = hashlib.sha256(bytes(b[HDR:])).digest()
open(sys.argv[1], "wb").write(bytes(b))
PY
cmp -s "$C/$KEY" "$T/good" && fail "the file was not changed"
run refused
[ "$(grep -c 'the kernel refused the cached probes' "$T/refused.err")" -eq 1 ] ||
	fail "refused program: want one 'refused ... compiling them' line: $(grep -i refused "$T/refused.err")"
object refused | grep -q "^compiled (saved to $C/$KEY)$" || fail "refused program: -v says '$(object refused)'"
cmp -s "$C/$KEY" "$T/good" || fail "refused program: the file was not rewritten as before"
info "a program the kernel refuses from the cache: removed, compiled, rewritten"

# 5. refused: a group-writable dir, a symlink to it; nothing written
ls -l --time-style=full-iso "$C" >"$T/ls.before"
# the "off" run (6) beside the group-writable one: it reads nothing there
def=/var/cache/switchstat/bpf
ls -l --time-style=full-iso "$def" >"$T/def.before" 2>&1
chmod 0770 "$C"
run_bg groupw -G
SWITCHSTAT_BPF_CACHE=off run_bg off -G
run_join
object groupw | grep -q "^compiled (cache refused: $C is group/other writable" ||
	fail "group-writable dir: -v says '$(object groupw)'"
chmod 0700 "$C"
ln -s cache "$T/link"
SWITCHSTAT_BPF_CACHE=$T/link run symlink -G
object symlink | grep -q "^compiled (cache refused: $T/link: link in it is a symlink)$" ||
	fail "symlinked dir: -v says '$(object symlink)'"
ls -l --time-style=full-iso "$C" | cmp -s - "$T/ls.before" || fail "a refused dir was written to"

# 6. off (run beside 5's group-writable dir): nothing read or written,
# here or in the default dir
[ "$(object off)" = "compiled (cache off: SWITCHSTAT_BPF_CACHE=off)" ] || fail "off: -v says '$(object off)'"
ls -l --time-style=full-iso "$C" | cmp -s - "$T/ls.before" || fail "off: the cache dir was written to"
ls -l --time-style=full-iso "$def" 2>&1 | cmp -s - "$T/def.before" || fail "off: $def was written to"

# 7. --blame: its task storage map needs BTF of key and value, which a
# hit makes for the map's sizes; the module is compiled with debug info.
# Compiled and saved once, cached after: the compiled run's programs, and
# the victim's waits behind a hog blamed.
# blame_run NAME: a victim (a 1 ms nanosleep loop, SCHED_BATCH) and a hog,
# both on CPU 0, thawed for 50 of the victim's sleeps (each wake-up waits
# behind the hog) under switchstat -v --json --blame; the programs' tags
# in $T/NAME.tags, the victim's blamed delay (ns) in BLAMED.
# With "try": a tool that exits before attaching (--blame not available
# on this kernel) returns 1 with its exit code in BLAME_RC
blame_run() {
	local name=$1 try=${2:-} v h v0
	bg taskset -c 0 chrt -b 0 "$WORKLOADS/sleeper" 1000
	v=$BG_LAST
	bg taskset -c 0 "$WORKLOADS/spinner" 0 blame_hog
	h=$BG_LAST
	wait_comm "$h" blame_hog
	freeze "$v" "$h"
	if [ -n "$try" ]; then
		launch "$name" -v --json -n 0 -i 1000 --blame
		TOOL_PID=$LAUNCHED
		wait_for "$name: attach (its banner) or exit" started_or_exited "$name" "$TOOL_PID"
		if ! kill -0 "$TOOL_PID" 2>/dev/null; then
			BLAME_RC=0
			wait "$TOOL_PID" || BLAME_RC=$?
			{ kill -KILL "$v" "$h" && wait "$v" "$h"; } 2>/dev/null
			return 1
		fi
	else
		start_tool "$name" -v --json -n 0 -i 1000 --blame
	fi
	prog_tags "$TOOL_PID" >"$T/$name.tags"
	v0=$(status_sum "$v" voluntary_ctxt_switches)
	thaw "$v" "$h"
	# each wake-up of the victim waits behind the hog: 50 of them
	wait_for "$name: 50 voluntary switches of the victim" vol_past "$v" "$v0" 50
	freeze "$v" "$h"
	stop_tool
	{ kill -KILL "$v" "$h" && wait "$v" "$h"; } 2>/dev/null
	BLAMED=$(python3 - "$T/$name.out" "$v" <<'PY'
import json, sys
tot = 0
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if line.startswith("{"):
        r = json.loads(line)
        if r.get("type") == "blame" and str(r.get("victim_pid")) == sys.argv[2]:
            tot += r["delay_ns"]
print(tot)
PY
)
	info "$name: $(object "$name"); compile $(compile_ms "$name") ms; $(grep -o -- '--blame waits: .*' "$T/$name.err"); victim's blamed delay $BLAMED ns"
}

# started_or_exited NAME PID: its banner is out, or it has exited
started_or_exited() {
	grep -q Tracing "$T/$1.out" "$T/$1.err" 2>/dev/null || ! kill -0 "$2" 2>/dev/null
}

if blame_run blame_compiled try; then
	object blame_compiled | grep -q "^compiled (saved to $C/[0-9a-f]\{64\})$" ||
		fail "--blame, first run: -v says '$(object blame_compiled)'"
	BKEY=$(object blame_compiled | sed 's/.*\/\([0-9a-f]\{64\}\))$/\1/')
	[ "$BKEY" != "$KEY" ] || fail "--blame: the default options' key"
	[ "$BLAMED" -gt 0 ] || fail "--blame, compiled: no wait blamed"
	blame_run blame_cached
	[ "$(object blame_cached)" = "cached ($C/$BKEY)" ] ||
		fail "--blame, second run: -v says '$(object blame_cached)'"
	hit_faster blame_cached blame_compiled "--blame, second run"
	cmp -s "$T/blame_compiled.tags" "$T/blame_cached.tags" ||
		fail "--blame: cached programs differ from compiled ones: $(diff "$T/blame_compiled.tags" "$T/blame_cached.tags" | head -5)"
	[ "$BLAMED" -gt 0 ] || fail "--blame, cached: no wait blamed"
	info "--blame program tags equal ($(wc -l <"$T/blame_cached.tags") programs)"
	NOURS=6 # first run, -p, -L, -e, --blame, and -M below
else
	info "--blame not available here (exit $BLAME_RC: $(grep -m1 '^switchstat:' "$T/blame_compiled.err")): not checked"
	NOURS=5
fi

# 8. at most 32 files: 40 old ones (cache files: copies of one), then a
# save removes the oldest; a key-named file that is not a cache file (no
# magic: someone else's, in a directory the cache was pointed at) stays,
# however old
for i in $(seq 10 49); do
	f=$C/$(printf '%064d' "$i")
	cp "$C/$KEY" "$f"
	touch -d "2001-01-01 00:00:$i" "$f"
done
FOREIGN=$C/f$(printf '%063d' 0)
echo "not switchstat's" >"$FOREIGN"
touch -d "2000-01-01" "$FOREIGN"
run prune -M
[ "$(cache_files | wc -l)" -eq 33 ] || fail "want 32 cache files and the foreign one after a save, have $(cache_files | wc -l)"
[ -e "$FOREIGN" ] || fail "pruning removed a file that is not a cache file"
# $NOURS of ours and 40 old: the oldest $((NOURS + 8)) go
keep=$((10 + NOURS + 8))
[ -e "$C/$KEY" ] && [ -e "$C/$(printf '%064d' "$keep")" ] || fail "a newer file was removed"
[ -e "$C/$(printf '%064d' $((keep - 1)))" ] && fail "an old file beyond 32 was kept"
info "40 old files + $NOURS of ours: the $((NOURS + 8)) oldest removed, the foreign file kept"

# 8b. the clock set back: every file's mtime a day ahead; a new save is
# still kept (it is the newest, though its mtime is the oldest)
for f in $(cache_files); do touch -d "+1 day" "$C/$f"; done
run clockback -L -M
NEW=$(object clockback | sed -n 's/.*saved to .*\/\([0-9a-f]\{64\}\))$/\1/p')
[ -n "$NEW" ] || fail "clockback: -L -M did not save a new file: $(object clockback)"
[ -e "$C/$NEW" ] || fail "clockback: the file just saved was pruned at once ($NEW)"
rm -f "$FOREIGN"

# 8c. SWITCHSTAT_BPF_CACHE_KEEP: a save keeps that many files; a value
# that is not a count of 1..100000 is ignored, the note says so, and 32
# are kept
export SWITCHSTAT_BPF_CACHE_KEEP=32x
run keepbad -G -M
object keepbad | grep -q "SWITCHSTAT_BPF_CACHE_KEEP=32x ignored (want 1..100000)" ||
	fail "keepbad: -v says '$(object keepbad)'"
[ "$(cache_files | wc -l)" -eq 32 ] || fail "keepbad: want 32 cache files, have $(cache_files | wc -l)"
export SWITCHSTAT_BPF_CACHE_KEEP=4
run keep4 -G
[ "$(cache_files | wc -l)" -eq 4 ] || fail "SWITCHSTAT_BPF_CACHE_KEEP=4: have $(cache_files | wc -l) cache files"
unset SWITCHSTAT_BPF_CACHE_KEEP
info "SWITCHSTAT_BPF_CACHE_KEEP: 4 kept; a bad value ignored with a note, 32 kept"

# 9. the default directory: created on first use, 0700 (what every other
# run of the suite uses)
unset SWITCHSTAT_BPF_CACHE
run default
object default | grep -qE "^(cached \(|compiled \(saved to )$def/[0-9a-f]{64}\)$" ||
	fail "default dir: -v says '$(object default)'"
[ "$(stat -c '%a %u' "$def")" = "700 0" ] || fail "$def: mode and owner $(stat -c '%a %u' "$def")"

pass "compiled once, cached after: same programs, counts as the kernel's; damage, refusal and off handled"

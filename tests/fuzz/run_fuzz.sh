#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run_fuzz.sh OUTDIR [SECONDS [TARGET...]] - build tests/fuzz/fuzz_opts.c
# and fuzz_prom.c (TARGET opts, prom; default both) with clang's libFuzzer
# and AddressSanitizer and run each for a bounded time (default 20 s) from
# a seed corpus: valid and invalid command lines; Accept headers and
# hostile label values.  Exit 0 when no crash was found, 1 on a crash (the
# reproducer is in OUTDIR) or when a target does not build, 77 (skip) when
# clang or libFuzzer is not available.
set -u
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
OUT=${1:?usage: run_fuzz.sh OUTDIR [SECONDS]}
SECS=${2:-20}
shift $(($# < 2 ? $# : 2))
TARGETS=" ${*:-opts prom} "
want() { [[ "$TARGETS" == *" $1 "* ]]; }
CC=${FUZZ_CC:-clang}

command -v "$CC" >/dev/null || { echo "SKIP: $CC not installed"; exit 77; }
mkdir -p "$OUT/corpus" "$OUT/crashes"
# skip only when the toolchain cannot fuzz at all; our sources failing to
# build is a failure, not a skip
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$OUT/probe.c"
if ! "$CC" -fsanitize=fuzzer,address "$OUT/probe.c" -o "$OUT/probe" 2>"$OUT/build.log"; then
	echo "SKIP: $CC cannot build with -fsanitize=fuzzer,address (libclang-rt-dev missing?):"
	head -3 "$OUT/build.log"
	exit 77
fi
# the layers' folders (CMakeLists.txt ss_layer) and the root for probes/
inc=(-I"$SRC" -I"$SRC/src")
for d in base model system kernel output; do inc+=(-I"$SRC/src/$d"); done
common=("$SRC/src/opts.c" "$SRC/src/base/parse.c" "$SRC/src/model/events.c"
	"$SRC/src/model/histkind.c" "$SRC/src/output/prom_fmt.c")
: >"$OUT/build.log"
if { want opts && ! "$CC" -g -O1 -fsanitize=fuzzer,address "${inc[@]}" \
	"$SRC/tests/fuzz/fuzz_opts.c" "${common[@]}" \
	-o "$OUT/fuzz_opts" -lm 2>>"$OUT/build.log"; } ||
	{ want prom && ! "$CC" -g -O1 -fsanitize=fuzzer,address "${inc[@]}" \
		"$SRC/tests/fuzz/fuzz_prom.c" "${common[@]}" \
		-o "$OUT/fuzz_prom" -lm 2>>"$OUT/build.log"; }; then
	echo "FAIL: a fuzz target does not build (a source file missing from its list?):"
	head -5 "$OUT/build.log"
	exit 1
fi
# seeds: NUL-separated argument lists
i=0
while IFS= read -r line; do
	printf '%s' "$line" | tr ' ' '\0' >"$OUT/corpus/seed$i"
	i=$((i + 1))
done <<'SEEDS'  # not a window: fuzz seeds, data
-i 1000 -d 5
-p 1 -L -T -n 0
-s invol --csv
--hist oncpu,offcpu,runq -m -P -H
-e cycles,instructions,cache-misses
-e cpu-clock,task-clock,page-faults --json
--map-entries 1024 -G -M --cgroup /sys
--trace --idle --check --self-stats -v -v
--interval=5 --duration=1 --rows=3 --sort=pid
-i 10x
--hist oncpu,,runq
1 5
2 -v 3
-i 500 1
1 2 3
-e r01c2,LLC-misses
--listen 9479 -q --metrics-per-process --max-series 5 --series-ttl 1
--listen [::1]:80 -q
--listen 1.2.3.4:
SEEDS
# fuzz_prom seeds: Accept header, NUL, label value
mkdir -p "$OUT/corpus_prom"
printf 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\0o"d\\d, \001c' >"$OUT/corpus_prom/s0"
printf '*/*;q=0.1\0/sys.slice/a\nb\377\300\257' >"$OUT/corpus_prom/s1"
printf 'text/plain;version=0.0.4\0\360\237\230\200\355\240\200' >"$OUT/corpus_prom/s2"
cd "$OUT/crashes" || exit 1
# fuzz NAME CORPUS LOG TAIL: run $OUT/NAME for SECS on CORPUS into LOG,
# print LOG's last TAIL lines; exit 1 on a crash, naming the reproducer
fuzz() {
	local rc=0
	"$OUT/$1" -max_total_time="$SECS" -max_len=512 -timeout=5 \
		-rss_limit_mb=1024 -print_final_stats=1 "$2" >"$3" 2>&1 || rc=$?
	tail -"$4" "$3"
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $1 found a crash (exit $rc); reproducer: $(ls "$OUT/crashes")"
		exit 1
	fi
}
want prom && fuzz fuzz_prom "$OUT/corpus_prom" "$OUT/fuzz_prom.log" 3
want opts && fuzz fuzz_opts "$OUT/corpus" "$OUT/fuzz.log" 15
names=""
for t in prom opts; do want "$t" && names+=" fuzz_$t"; done
echo "PASS:$names ran ${SECS} s each without a crash"

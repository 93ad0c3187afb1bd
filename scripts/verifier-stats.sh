#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# verifier-stats.sh - what the kernel's verifier does for each feature: for
# each option set below, one run of `switchstat -v ... -d 1` with the
# compiled-BPF cache off, and from its -v lines (BPF_LOG_STATS) a row of
# the instructions the verifier processed (all programs, and the largest
# program with its name: the 1M limit is per program), its time (ms, all
# programs), and the start-up's compile and load time (ms).  A report for
# a person, nothing asserted.  Root; run it alone on the machine:
#   flock /tmp/ss-machine.lock scripts/verifier-stats.sh [BINARY]
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build/switchstat}
[ -x "$bin" ] || { echo "verifier-stats: no binary $bin" >&2; exit 1; }

ALLH="oncpu,offcpu,runq,offcpu-S,offcpu-D,offcpu-IO,offcpu-T,offcpu-R"
EV="-e cpu-clock,page-faults"
# label|options
SETS=(
	"default|"
	"-L|-L"
	"-M|-M"
	"-e (2 sw events)|$EV"
	"--hist oncpu|--hist oncpu"
	"--hist runq -P|--hist runq -P"
	"--hist (all) --offcpu -P|--hist $ALLH --offcpu -P"
	"--blame|--blame"
	"--offcpu|--offcpu"
	"--stacks|--stacks"
	"--wakers|--wakers"
	"--trace|--trace"
	"largest combination|--blame --stacks --offcpu --wakers -L --hist $ALLH -P -M $EV"
)

printf '%-24s %10s %8s %-26s %10s %10s %9s\n' "options" "insns" "max" \
	"(program)" "verify ms" "compile ms" "load ms"
for s in "${SETS[@]}"; do
	label=${s%%|*}
	opts=${s#*|}
	# shellcheck disable=SC2086 # the options are words
	out=$(SWITCHSTAT_BPF_CACHE=off timeout 300 "$bin" -v $opts -d 1 \
		2>&1 >/dev/null) || {
		printf '%-24s failed: %s\n' "$label" \
			"$(grep -m1 'rejected\|switchstat:' <<<"$out")"
		continue
	}
	awk -v label="$label" '
	/^switchstat: verifier: / {
		name = $3; sub(/:$/, "", name)
		n = $4; us = $7
		insns += n; vus += us
		if (n > max) { max = n; maxp = name }
	}
	/^switchstat: start-up \(ms\)/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "compile") comp = $(i + 1)
			if ($i == "load") load = $(i + 1)
		}
		sub(/,$/, "", comp); sub(/,$/, "", load)
	}
	END {
		printf "%-24s %10d %8d %-26s %10.1f %10s %9s\n", label, insns,
		       max, "(" maxp ")", vus / 1000, comp, load
	}' <<<"$out"
done
echo "kernel $(uname -r); insns: processed by the verifier, all programs;" \
	"max: the largest program (limit 1000000 each)"

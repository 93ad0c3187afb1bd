#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_smoke.sh - like bcc's tests/python/test_tools_smoke.py: run the tool
# for a second with common option combinations; each must exit 0 and print
# a header and at least one row (a sleeper workload guarantees activity).
# The runs start together so their BPF compiles overlap.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
[ -x "$WORKLOADS/sleeper" ] || skip "workload sleeper not built"

"$WORKLOADS/sleeper" 1000 &
SLEEPER=$!
BG_PIDS+=("$SLEEPER")

# name|format|options (format: table, csv, json, trace, tracecsv, tracejson)
COMBOS=(
	"default|table|-d 1"
	"threads|table|-d 1 -L -T -n 5 -s switch --hist oncpu -m"
	"pid|csv|-d 1 --csv -p $SLEEPER -M --no-counters"
	"cgroups|json|-d 1 --json -G -e cpu-clock,page-faults"
	"trace|trace|-d 1 --trace -p $SLEEPER"
	"tracejson|tracejson|-d 1 --trace --json -t $SLEEPER"
)

declare -A PIDS
for c in "${COMBOS[@]}"; do
	IFS='|' read -r name _ opts <<<"$c"
	# shellcheck disable=SC2086
	"$SWITCHSTAT" $opts >"$T/$name.out" 2>"$T/$name.err" &
	PIDS[$name]=$!
	BG_PIDS+=("$!")
done

failed=0
for c in "${COMBOS[@]}"; do
	IFS='|' read -r name format opts <<<"$c"
	rc=0
	wait "${PIDS[$name]}" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "  $name ($opts): exit $rc" >&2
		sed 's/^/    /' "$T/$name.err" >&2
		failed=1
		continue
	fi
	if ! why=$(python3 - "$format" "$T/$name.out" <<'PY'
import json, re, sys
fmt, path = sys.argv[1:3]
lines = [l.rstrip("\n") for l in open(path, encoding="utf-8", errors="replace")]
lines = [l for l in lines if l and not l.startswith("Tracing ")]
def header_then_row(head_re, row_re):
    for i, l in enumerate(lines):
        if re.match(head_re, l):
            if any(re.match(row_re, r) for r in lines[i + 1:]):
                return None
            return "header but no row"
    return "no header"
if fmt == "table":
    err = header_then_row(r"^(PID|CGID) ", r"^\d+ ")
elif fmt == "csv":
    err = header_then_row(r"^time,", r"^\d+(\.\d+)?,")
elif fmt == "trace":
    err = header_then_row(r"^TIME\(s\) +CPU ", r"^\d+\.\d{6} +\d+ ")
elif fmt == "tracecsv":
    err = header_then_row(r"^time,ts_ns,cpu,", r"^\d+\.\d{6},\d+,\d+,")
else:
    objs = [json.loads(l) for l in lines]
    want = "switch" if fmt == "tracejson" else "row"
    err = None if any(o.get("type") == want for o in objs) else "no %s object" % want
if err:
    sys.exit(err)
PY
	); then
		echo "  $name ($opts): $why" >&2
		sed 's/^/    | /' "$T/$name.out" | head -5 >&2
		failed=1
		continue
	fi
	info "$name ($opts): ok, $(wc -l <"$T/$name.out") lines"
done
[ "$failed" -eq 0 ] || fail "some option combinations failed"
pass "${#COMBOS[@]} option combinations: exit 0, header and rows"

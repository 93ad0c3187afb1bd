#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_hotplug_flush.sh - a CPU that goes offline hands over what its row
# cache holds (probes/common.bpf.h).  A switch to idle flushes the CPU's
# entries only after a kernel thread: the last switch of a CPU going
# offline is from its hotplug thread (cpuhp/N) or stopper (migration/N),
# while an ordinary task's sleep leaves them for the next interval edge,
# which skips an offline CPU.  Input: a spinner pinned to CPU 1, frozen
# before the tool starts, thawed until it has run 0.3 s and frozen again (its
# charges stay in CPU 1's entry: CPU 1 goes idle after it); then CPU 1
# goes offline and the tool ends (Ctrl-C) while it is offline, in one
# 60 s interval.  The spinner's row must hold its schedstat delta over the
# thaw (within 2 %): without the offline flush it lost the whole 0.3 s.
# CPU 1 is put back online on every exit path.  Skipped (77) when CPU 1
# cannot be taken offline here.
. "$(dirname "$0")/lib.sh"

need_root
command -v python3 >/dev/null || skip "needs python3"
hotplug_setup

bg taskset -c 1 "$WORKLOADS/spinner" 0 ss_hpflush
SP=$BG_LAST
freeze "$SP"
before=$(schedstat_sum "$SP")

start_tool f -L --csv --no-counters -n 0 -i 60000 -v
# until it has run 0.3 s of CPU (schedstat; longer when CPU 1 is busy)
thaw_for_cpu "$SP" "$before" 300000000 "the spinner on CPU 1"
sleep 0.05 # not a window: lets the spinner's last switch land; thaw_for_cpu above waited for its CPU
after=$(schedstat_sum "$SP")
echo 0 >"$ONLINE" || skip "cannot take CPU 1 offline"
wait_for "CPU 1 offline" grep -qx 0 "$ONLINE"
stop_tool
echo 1 >"$ONLINE" || fail "cannot bring CPU 1 back online"

python3 - "$T/f.out" "$SP" "$before" "$after" <<'PY' || fail "see above"
import csv, sys
out, sp, before, after = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
want = after - before
got = sum(int(r["oncpu_ns"]) for r in csv.DictReader(open(out, encoding="latin-1"))
          if r["pid"] == sp)
err = abs(got - want) / want * 100 if want else 100
print("  spinner on CPU 1: %.1f ms in its rows, schedstat %.1f ms (%.2f %%)"
      % (got / 1e6, want / 1e6, err))
if want < 300e6:
    sys.exit("the spinner ran only %.1f ms, want 300 (thaw_for_cpu)" % (want / 1e6))
sys.exit(0 if err <= 2 else 1)
PY
pass "an offline CPU's row cache reached the rows (spinner within 2 % of schedstat)"

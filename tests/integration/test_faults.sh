#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_faults.sh - -M FAULTS equals the kernel's minflt + majflt, for faults
# taken in kernel mode on user memory as well as in user mode.
#
# faultread maps 2 x 32 MiB of fresh anonymous memory (no huge pages), fills
# the first half with read() from /dev/zero (the kernel faults each page in
# while copying to it) and touches every page of the second half from user
# space.  switchstat -M -p PID runs one long interval around it; the faults
# it shows must equal the process's minflt + majflt delta in /proc/PID/stat,
# read after the process is frozen (SIGSTOP), exactly: every fault happens
# in a slice of faultread that begins and ends with a switch the probe sees
# (the interval is longer than the test, so no map reads run meanwhile).
# The kernel must have made at least one fault per page in each half.
. "$(dirname "$0")/lib.sh"

need_root
[ -x "$WORKLOADS/faultread" ] || fail "workload faultread not built in $WORKLOADS"

MIB=32
PAGES=$((MIB * 1048576 / $(getconf PAGESIZE)))

# flt PID: minflt + majflt of the process (/proc/PID/stat fields 10 and 12)
flt() {
	sed 's/.*) //' /proc/"$1"/stat | awk '{ print $8 + $10 }'
}

bg "$WORKLOADS/faultread" "$MIB" "$T/ready" "$T/done"
wait_file "$T/ready"
FR=$(cat "$T/ready")
start_tool f -M -v --csv -i 600000 -p "$FR"
f0=$(flt "$FR")
kill -USR1 "$FR"
wait_file "$T/done"
freeze "$FR"
df=$(($(flt "$FR") - f0))
stop_tool
[ "$df" -ge $((2 * PAGES)) ] ||
	fail "faultread made $df faults for 2 x $PAGES fresh pages"
got=$(csv_sum "$T/f.out" faults pid "$FR")
info "faultread: -M faults $got, kernel minflt+majflt $df (${PAGES} pages x 2; $(unowned_slices "$T/f.err") slices of unknown owner on all CPUs)"
[ "$got" -eq "$df" ] || fail "-M faults $got != kernel minflt+majflt $df"
pass "-M faults equal minflt + majflt, kernel- and user-mode"

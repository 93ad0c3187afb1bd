#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test.sh - set up this machine, build, and run every test (unit and, as
# root, integration against the live kernel).  The README's test command.
# Usage: scripts/test.sh [--throttled] [ctest args...]   e.g. -L unit
#
# --throttled: the whole run (ctest, the tests, switchstat and every
# workload: all inherit it) in a cgroup capped at half a CPU, as in a
# CPU-limited container: cpu.max "50000 100000" in cgroup v2 where v2 has
# the cpu controller, else cpu.cfs_quota_us 50000 per 100000 in the v1 cpu
# hierarchy (a hybrid host).  The run also gets its own v2 cgroup, and the
# tests make theirs below it (SS_CG_BASE, tests/integration/lib.sh).  All
# are removed at exit.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
throttled=0
if [ "${1:-}" = --throttled ]; then
	throttled=1
	shift
fi
"$here/scripts/setup.sh" --tests
cd "$here"
if [ "$(id -u)" -ne 0 ]; then
	[ "$throttled" = 0 ] || { echo "test: --throttled needs root" >&2; exit 2; }
	echo "test: not root: running the unit tests only" >&2
	set -- -L unit "$@"
fi
# two at a time: one integration test that takes the lock "machine" and a
# light one beside it, or two light ones; INTEG_ALONE alone
# (CMakeLists.txt); the user's -j wins
jobs=(-j 2)
for a in "$@"; do
	case "$a" in -j* | --parallel*) jobs=() ;; esac
done
run=(ctest --test-dir build --output-on-failure --timeout 900 "${jobs[@]}" "$@")
[ "$throttled" = 1 ] || exec "${run[@]}"

# ---- --throttled
# mount_of FSTYPE [OPTION]: the first mount point of FSTYPE (with OPTION
# among its mount options) in /proc/mounts
mount_of() {
	awk -v t="$1" -v o="${2:-}" '$3 == t && (o == "" || ("," $4 ",") ~ ("," o ",")) {
		print $2; exit }' /proc/mounts
}
V2=$(mount_of cgroup2)
V1CPU=$(mount_of cgroup cpu)
REL=/switchstat-throttled-$$
# this shell's cgroups (/proc/self/cgroup): v2's "0::PATH", v1 cpu's
HOME2=$(sed -n 's/^0:://p' /proc/$$/cgroup)
HOME1=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/$$/cgroup)
V2DIR="" V1DIR=""
die() { echo "test: --throttled: $*" >&2; exit 2; }

# back_out DIR HOME: move this shell back to HOME, its cgroup before the
# run, and remove DIR and what the run left in it (a leftover process is
# named and killed)
back_out() {
	local top=$1 home=$2 d p
	[ -n "$top" ] && [ -d "$top" ] || return 0
	echo $$ >"$home/cgroup.procs" 2>/dev/null || true
	while IFS= read -r d; do
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do
			echo "test: --throttled: killing leftover $p ($(cat /proc/"$p"/comm 2>/dev/null)) in $d" >&2
			kill -KILL "$p" 2>/dev/null || true
		done
	done < <(find "$top" -type d)
	while IFS= read -r d; do
		for _ in $(seq 1 20); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
		[ ! -d "$d" ] || echo "test: --throttled: cannot remove $d" >&2
	done < <(find "$top" -depth -type d)
}
throttle_exit() {
	local st=${V1DIR:-$V2DIR}/cpu.stat
	[ -n "${cap:-}" ] && [ -r "$st" ] && awk '$1 == "nr_periods" { n = $2 }
		$1 == "nr_throttled" { t = $2 }
		END { printf "test: --throttled: capped in %d of %d periods of 100 ms\n", t, n }' "$st" >&2
	back_out "$V2DIR" "$V2$HOME2"
	back_out "$V1DIR" "$V1CPU$HOME1"
}
trap throttle_exit EXIT
trap 'exit 130' INT TERM

[ -n "$V2" ] || [ -n "$V1CPU" ] || die "no cgroup2 and no cgroup v1 cpu mount in /proc/mounts"
if [ -n "$V2" ]; then
	# the cap on V2DIR, the run in V2DIR/run: V2DIR holds no process, so
	# the controllers the root gives its children it may give the tests'
	# cgroups, made beside run (test_memory needs memory)
	V2DIR=$V2$REL
	mkdir "$V2DIR" "$V2DIR/run" 2>/dev/null || die "cannot create $V2DIR/run"
	if grep -qw cpu "$V2/cgroup.controllers"; then
		grep -qw cpu "$V2/cgroup.subtree_control" ||
			echo +cpu >"$V2/cgroup.subtree_control" ||
			die "cannot enable the cpu controller in $V2/cgroup.subtree_control"
		echo "50000 100000" >"$V2DIR/cpu.max" || die "cannot write $V2DIR/cpu.max"
		cap="$V2DIR/cpu.max $(cat "$V2DIR/cpu.max")"
	fi
	for c in $(cat "$V2DIR/cgroup.controllers"); do
		echo "+$c" >"$V2DIR/cgroup.subtree_control" 2>/dev/null || true
	done
	echo $$ >"$V2DIR/run/cgroup.procs" || die "cannot move into $V2DIR/run"
	export SS_CG_BASE=$REL
fi
if [ -z "${cap:-}" ]; then
	[ -n "$V1CPU" ] || die "no cpu controller in $V2/cgroup.controllers nor in cgroup v1"
	V1DIR=$V1CPU$REL
	mkdir "$V1DIR" || die "cannot create $V1DIR"
	echo 100000 >"$V1DIR/cpu.cfs_period_us" && echo 50000 >"$V1DIR/cpu.cfs_quota_us" ||
		die "cannot set the quota in $V1DIR"
	# with RT group scheduling a new cgroup has no real-time budget, and
	# chrt -f there fails (EPERM): half of each CPU for its SCHED_FIFO
	# tasks, which the CFS quota does not cap (lib.sh's samplers, the
	# spinners of test_adversary and test_checkpoint)
	if [ -w "$V1DIR/cpu.rt_runtime_us" ]; then
		echo 500000 >"$V1DIR/cpu.rt_runtime_us" ||
			die "cannot give $V1DIR a real-time budget (cpu.rt_runtime_us)"
	fi
	echo $$ >"$V1DIR/cgroup.procs" || die "cannot move into $V1DIR"
	cap="$V1DIR cpu.cfs_quota_us 50000 per cpu.cfs_period_us 100000"
	[ -w "$V1DIR/cpu.rt_runtime_us" ] && cap+=", real-time 500000 us per $(cat "$V1DIR/cpu.rt_period_us")"
fi
echo "test: --throttled: half a CPU: $cap${V2DIR:+; the tests make their cgroups in $V2DIR}" >&2
rc=0
"${run[@]}" || rc=$?
exit "$rc"

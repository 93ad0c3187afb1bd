#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guest-run.sh - runs inside a test guest (started by guest-init from the
# second disk, the checkout at /src, built by the host in the image's
# chroot).  Runs the quick start and the chosen integration tests; writes
# /src/.vm/results/{summary,ctest.log,quickstart.log} and echoes the summary
# to the console between VM-SUMMARY markers.
# Parameters from /src/.vm/params: TARGET, TESTS (ctest -R regex),
# CTEST_TIMEOUT (s per test).
set -u
. /src/.vm/params
R=/src/.vm/results
mkdir -p "$R"
: >"$R/summary"
sum() { echo "$*" >>"$R/summary"; echo "VM: $*" >/dev/console; }
export HOME=/root LC_ALL=C.UTF-8
# the tool's start-up compile is 5-10x slower under TCG (tests/integration/lib.sh)
export SS_ATTACH_TIMEOUT_S=600
# and every wait a test makes under TCG may take as long before it is a hang
export SS_HANG_S=600
cd /src || exit 1
# the tests' compiled-BPF cache (one for all, as ctest sets), kept by the host
# for this target: on the second disk (the root disk is a snapshot), off it
# again before the end so guest-init can unmount /src cleanly
if [ -d .vm/bpf-tests ]; then
	mkdir -p /var/cache/switchstat/suite
	mount --bind .vm/bpf-tests /var/cache/switchstat/suite
fi
# the integration tests write temporary files under /tmp (a tmpfs here)
sum "kernel $(uname -r)"
sum "cpus $(nproc) mem_kb $(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
if [ -d /sys/bus/event_source/devices/armv8_pmuv3_0 ] ||
	ls /sys/bus/event_source/devices/ | grep -q pmu; then
	sum "pmu $(ls /sys/bus/event_source/devices/ | tr '\n' ' ')"
fi

# a heartbeat on the console every 30 s while the guest runs: load, free
# memory and the biggest processes (a guest that stops printing it is hung
# in the kernel, not in a test)
(
	while sleep 30; do
		echo "VM: beat $(cut -d' ' -f1-4 /proc/loadavg) memavail_kb" \
			"$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)" \
			"top: $(ps -eo rss=,comm= --sort=-rss | head -3 | tr -s ' \n' ' ')"
	done >/dev/console 2>&1
) &
beat=$!

# a build cross-compiled on the host (arm64) names the host's path of the
# checkout in its CTest files: that path is /src here (the root disk is a
# snapshot: the link goes with the guest)
home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/CMakeCache.txt 2>/dev/null)
cross=$(sed -n 's/^CMAKE_TOOLCHAIN_FILE:[A-Z]*=//p' build/CMakeCache.txt 2>/dev/null)
if [ -n "$home" ] && [ "$home" != /src ]; then
	mkdir -p "$(dirname "$home")"
	ln -sfn /src "$home"
fi

# 1. the quick start: setup (packages present: installs nothing, mounts
# tracefs, finds the headers), build (done in the chroot: a no-op check
# here; a cross build has no compiler here: the binary must be there), one
# 5 s run at 1 s intervals with -v for the path chosen
t0=$(date +%s)
qs=FAIL
build_check() {
	if [ -n "$cross" ]; then
		echo "cross-compiled on the host ($cross): not rebuilt here"
		[ -x build/switchstat ]
	else
		cmake --build build -j"$(nproc)" --target switchstat
	fi
}
{
	# not a window: 600 s is a hang cap on the quick start
	scripts/setup.sh --no-build &&
		build_check &&
		timeout 600 ./build/switchstat -v -i 1000 -d 5 >"$R/quickstart.out"
} >"$R/quickstart.log" 2>&1 && grep -q '^PID ' "$R/quickstart.out" && qs=PASS
sum "quickstart $qs $(($(date +%s) - t0))s"
grep '^switchstat:' "$R/quickstart.log" | sed 's/^/detect /' >>"$R/summary"
sed -n 's/^switchstat: sched tracepoints: /path /p;s/^switchstat: sched_switch as a /path /p' \
	"$R/quickstart.log" >/dev/console


# 2. development (test-vm.sh --run): one command instead of the tests
if [ -n "${RUN:-}" ]; then
	bash -c "$RUN" >"$R/run.log" 2>&1
	sum "run rc $?"
	sed 's/^/VM: run: /' "$R/run.log" | tail -20 >/dev/console
fi

# 3. the integration tests
if [ -n "${TESTS:-}" ]; then
	# progress on the console, a line as each test ends (read from the
	# pipe, not polled: the guest powers off as soon as the last ends)
	ctest --test-dir build -R "$TESTS" --output-on-failure \
		--timeout "${CTEST_TIMEOUT:-900}" 2>&1 | tee "$R/ctest.log" |
		grep --line-buffered -E 'Test +#[0-9]+: ' | sed -u 's/^/VM: /' >/dev/console
	sum "ctest rc ${PIPESTATUS[0]}"
	# "  3/17 Test  #5: integration.test_hist ......   Passed   12.34 sec"
	sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.*[ *]*(Passed|Skipped|[*]*Failed|Failed|[*]*Timeout|[*]*Exception[^0-9]*|Not Run)[^0-9]*([0-9.]+) sec.*/test \1 \2 \3/p' \
		"$R/ctest.log" | sed 's/\*//g' >>"$R/summary"
	# the skip reasons
	awk '/^[0-9]+\/[0-9]+ Testing: / { t = $3 }
		/^SKIP: / { sub(/^SKIP: /, ""); print "skipreason " t " " $0 }' \
		build/Testing/Temporary/LastTest.log >>"$R/summary" 2>/dev/null
	cp build/Testing/Temporary/LastTest.log "$R/" 2>/dev/null
fi
kill "$beat" 2>/dev/null
umount /var/cache/switchstat/suite 2>/dev/null
sum "done"
echo "VM-SUMMARY-BEGIN" >/dev/console
cat "$R/summary" >/dev/console
echo "VM-SUMMARY-END" >/dev/console
sync

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# setup.sh - make this machine ready to build and run switchstat.  Idempotent.
#  - installs the Debian packages needed to build, run and test
#  - mounts debugfs/tracefs when missing (libbcc looks in
#    /sys/kernel/debug/tracing first)
#  - only when no headers exist for the running kernel: installs the
#    distribution's headers and links /lib/modules/$(uname -r)/build (and
#    source) to them, saying so.  switchstat's probes read tracepoint
#    fields, BPF helpers and task_struct fields at offsets from the running
#    kernel's BTF, never at a header's offsets, so mismatched headers are
#    safe for it; they are NOT safe for other bcc tools that read
#    task_struct.
# Usage: scripts/setup.sh [--no-build] [--tests]
set -euo pipefail

build=1
tests=0
for a in "$@"; do
	case "$a" in
	--no-build) build=0 ;;
	--tests) tests=1 ;;
	*) echo "usage: $0 [--no-build] [--tests]" >&2; exit 2 ;;
	esac
done

say() { echo "setup: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
	say "must run as root (installs packages, mounts tracefs)"
	exit 1
fi

here=$(cd "$(dirname "$0")/.." && pwd)
rel=$(uname -r)

# libncurses-dev: --top (pkg-config ncursesw, the wide-character library)
pkgs=(build-essential cmake pkg-config libbpfcc-dev libbpf-dev bpfcc-tools libmicrohttpd-dev
	libpfm4-dev libncurses-dev)
# prometheus (promtool and a real server for the exporter tests), curl, and
# node/npm for the offline Kubernetes schema validation (tests/deploy), tmux
# (test_top drives --top in a real terminal), chromium and tesseract-ocr
# (test_stacks opens the folded output in speedscope and reads the screenshot)
[ "$tests" = 1 ] && pkgs+=(libcriterion-dev python3 bpftool linux-perf bpftrace man-db
	prometheus curl iproute2 tmux chromium tesseract-ocr)
[ "$tests" = 1 ] && ! command -v npm >/dev/null && pkgs+=(nodejs npm)

# one dpkg-query for all (apt only for what is missing)
missing=()
have=" $(dpkg-query -W -f='${Package}:${Status}\n' "${pkgs[@]}" 2>/dev/null |
	sed -n 's/:install ok installed$//p' | tr '\n' ' ')"
for p in "${pkgs[@]}"; do
	[[ "$have" == *" $p "* ]] || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
	say "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# tracefs: libbcc's bpf_attach_tracepoint uses /sys/kernel/debug/tracing
if [ ! -d /sys/kernel/debug/tracing/events ]; then
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	if [ ! -d /sys/kernel/debug/tracing/events ]; then
		mount -t tracefs tracefs /sys/kernel/debug/tracing 2>/dev/null || true
	fi
	say "mounted debugfs at /sys/kernel/debug"
fi
if [ ! -d /sys/kernel/tracing/events ]; then
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || true
fi
if [ ! -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
	say "tracefs is still not available at /sys/kernel/debug/tracing"
	exit 1
fi

# kernel headers: libbcc compiles the probes against /lib/modules/$rel/build
if [ -z "${BCC_KERNEL_SOURCE:-}" ] && [ ! -d "/lib/modules/$rel/build" ] &&
	[ ! -e /sys/kernel/kheaders.tar.xz ]; then
	if ! dpkg-query -W -f='${Status}' "linux-headers-$rel" 2>/dev/null | grep -q "ok installed" &&
		apt-cache show "linux-headers-$rel" >/dev/null 2>&1; then
		say "installing linux-headers-$rel"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "linux-headers-$rel" >&2
	fi
fi
if [ -z "${BCC_KERNEL_SOURCE:-}" ] && [ ! -d "/lib/modules/$rel/build" ] &&
	[ ! -e /sys/kernel/kheaders.tar.xz ]; then
	arch=$(dpkg --print-architecture)
	if ! ls -d /usr/src/linux-headers-*-"$arch" >/dev/null 2>&1; then
		say "no headers for $rel; installing the distribution's linux-headers-$arch"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "linux-headers-$arch" >&2
	fi
	hdr=$(ls -d /usr/src/linux-headers-*-"$arch" | sort -V | tail -n 1)
	common=${hdr%-"$arch"}-common
	mkdir -p "/lib/modules/$rel"
	ln -sfn "$hdr" "/lib/modules/$rel/build"
	[ -d "$common" ] && ln -sfn "$common" "/lib/modules/$rel/source"
	say "WARNING: no kernel headers for the running kernel $rel;"
	say "  linked /lib/modules/$rel/build -> $hdr (headers of another version)."
	say "  switchstat reads kernel structs only at offsets from the kernel's BTF,"
	say "  so this is safe for it; other bcc tools that read kernel structs at"
	say "  the headers' offsets may be silently wrong."
fi

# schema validator of deploy/kubernetes, pinned by tests/deploy/package-lock.json,
# and speedscope, the flame graph viewer of test_stacks, pinned by
# tests/viewer: both at once (npm's cache first, the registry for what it
# lacks)
npm_ci=(npm ci --no-audit --no-fund --prefer-offline --prefix)
deploy_pid=""
if [ "$tests" = 1 ] && [ ! -d "$here/tests/deploy/node_modules/kubernetes-models" ]; then
	say "installing the Kubernetes schema validator (npm ci in tests/deploy)"
	"${npm_ci[@]}" "$here/tests/deploy" >&2 &
	deploy_pid=$!
fi
if [ "$tests" = 1 ] && [ ! -f "$here/tests/viewer/node_modules/speedscope/dist/release/index.html" ]; then
	say "installing speedscope (npm ci in tests/viewer)"
	"${npm_ci[@]}" "$here/tests/viewer" >&2 ||
		say "WARNING: npm ci in tests/viewer failed (offline?): test_stacks skips its viewer check"
fi
[ -z "$deploy_pid" ] || wait "$deploy_pid"

if [ "$build" = 1 ]; then
	bt=-DSWITCHSTAT_TESTS=OFF
	[ "$tests" = 1 ] && bt=-DSWITCHSTAT_TESTS=ON
	cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$bt" >/dev/null
	cmake --build "$here/build" -j"$(nproc)" >&2
	say "built $here/build/switchstat"
fi

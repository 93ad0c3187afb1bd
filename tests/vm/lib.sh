#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lib.sh - shared by scripts/test-vm.sh and tests/vm/*.sh (sourced).
# The image cache lives at a fixed path so a warm machine reuses it.
set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_SRC=$(cd "$VM_DIR/../.." && pwd)
VM_CACHE=${SWITCHSTAT_VM_CACHE:-/var/cache/switchstat-vm}
# the mirror this machine's apt sources already name
VM_MIRROR=${SWITCHSTAT_VM_MIRROR:-$( (grep -rhoE 'https?://[^ ]*/debian/?( |$)' \
	/etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true) | head -n 1 | tr -d ' ')}
VM_MIRROR=${VM_MIRROR:-http://deb.debian.org/debian}
VM_NICE=${SWITCHSTAT_VM_NICE:-15}

vm_say() { echo "test-vm: $*" >&2; }
vm_die() { echo "test-vm: $*" >&2; exit 1; }
vm_nice() { nice -n "$VM_NICE" "$@"; }

# vm_targets: the target table without comments: NAME ARCH SUITE PKG EXTRA
vm_targets() { grep -vE '^[[:space:]]*(#|$)' "$VM_DIR/targets.txt"; }

# vm_target_field NAME COL: one column (2 arch, 3 suite, 4 pkg, 5 extra)
vm_target_field() {
	vm_targets | awk -v n="$1" -v c="$2" '$1 == n { print $c; f = 1 } END { exit !f }'
}

# vm_packages: the userland package list
vm_packages() { grep -vE '^[[:space:]]*(#|$)' "$VM_DIR/packages.txt"; }

# A private apt (state under the cache) that knows the suites of the targets
# for amd64 and arm64, to resolve kernel packages and download them.
VM_APT="$VM_CACHE/apt"
vm_apt_opts() {
	echo -o Dir::State="$VM_APT/state" -o Dir::Cache="$VM_APT/cache" \
		-o Dir::Etc::SourceList="$VM_APT/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent -o Dir::Etc::Preferences=/nonexistent \
		-o Dir::Etc::PreferencesParts=/nonexistent \
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64 \
		-o Debug::NoLocking=1
}
vm_apt_update() {
	local stamp="$VM_APT/updated" suites s
	if [ -f "$stamp" ] && [ -z "${VM_APT_REFRESH:-}" ]; then
		return 0
	fi
	mkdir -p "$VM_APT/state/lists/partial" "$VM_APT/cache/archives/partial"
	suites=$(vm_targets | awk '{ print $3 }' | sort -u)
	: >"$VM_APT/sources.list"
	for s in $suites; do
		echo "deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $VM_MIRROR $s main" \
			>>"$VM_APT/sources.list"
	done
	# shellcheck disable=SC2046
	apt-get $(vm_apt_opts) -qq update >&2
	touch "$stamp"
}

# vm_kernel_pkg TARGET: the versioned kernel image package the metapackage of
# the target's suite points at, e.g. "linux-image-5.10.0-35-amd64 5.10.237-1"
vm_kernel_pkg() {
	local arch suite pkg dep ver memo="$VM_APT/resolved-$1"
	# resolved once per apt update (apt-cache is slow on three suites)
	if [ -s "$memo" ] && [ "$memo" -nt "$VM_APT/updated" ]; then
		cat "$memo"
		return 0
	fi
	arch=$(vm_target_field "$1" 2) suite=$(vm_target_field "$1" 3)
	pkg=$(vm_target_field "$1" 4)
	# shellcheck disable=SC2046
	dep=$(apt-cache $(vm_apt_opts) show "$pkg:$arch/$suite" 2>/dev/null |
		awk -F': ' '/^Depends:/ { print $2; exit }' | tr ',' '\n' |
		grep -oE 'linux-image-[0-9][^ ]*' | head -n 1)
	[ -n "$dep" ] || vm_die "cannot resolve $pkg in $suite for $arch"
	# shellcheck disable=SC2046
	ver=$(apt-cache $(vm_apt_opts) show "$dep:$arch/$suite" 2>/dev/null |
		awk '/^Version:/ { print $2; exit }')
	echo "$dep $ver" | tee "$memo"
}

# vm_key ARCH: the cache key of an arch's image: a hash of the recipe
# scripts, the package list, the target table and the resolved kernel
# package versions of that arch's targets
vm_key() {
	local arch=$1 t
	{
		cat "$VM_DIR/build-image.sh" "$VM_DIR/packages.txt" "$VM_DIR/targets.txt" \
			"$VM_DIR/guest-init"
		for t in $(vm_targets | awk -v a="$arch" '$2 == a { print $1 }'); do
			echo "$t $(vm_kernel_pkg "$t")"
		done
	} | sha256sum | cut -c1-16
}

vm_image_dir() { echo "$VM_CACHE/$1-$(vm_key "$1")"; }

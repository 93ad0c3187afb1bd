#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-image.sh ARCH - build (once) the guest image of one architecture
# (amd64 or arm64) from Debian packages and cache it under
# $VM_CACHE/ARCH-KEY (KEY: see vm_key in lib.sh):
#   tree/            the rootfs (debootstrap minbase bookworm + packages.txt
#                    + every kernel of that arch's targets, with headers)
#   rootfs.img       ext4 image of tree/ (booted read-only: -snapshot)
#   kernel-TARGET/   vmlinuz, initrd.img, release
#   done             written last; its presence means the image is complete
# Prints the image directory on stdout.  Idempotent: an existing complete
# image is reused as is.
. "$(dirname "$0")/lib.sh"
# (one brace group: bash reads it whole, so editing this file while an
# image builds does not derail the build)
{

arch=${1:?usage: build-image.sh amd64|arm64}
case "$arch" in amd64 | arm64) ;; *) vm_die "unknown arch $arch" ;; esac

mkdir -p "$VM_CACHE"
exec 9>"$VM_CACHE/lock-$arch"
flock 9
vm_apt_update
dir=$(vm_image_dir "$arch")
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi
vm_say "building the $arch image in $dir (cold cache)"
t0=$(date +%s)
tree="$dir/tree"
# stages done are stamped (stage-*): an interrupted build resumes there
if [ ! -f "$dir/stage-debootstrap" ]; then
	rm -rf "$dir"
fi
mkdir -p "$dir"

mounted=()
umount_all() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[$i]}" 2>/dev/null || true
	done
	mounted=()
}
trap umount_all EXIT
chroot_mounts() {
	mount -t proc proc "$tree/proc" && mounted+=("$tree/proc")
	mount -t sysfs sysfs "$tree/sys" && mounted+=("$tree/sys")
	mount --bind /dev "$tree/dev" && mounted+=("$tree/dev")
	mount -t devpts devpts "$tree/dev/pts" && mounted+=("$tree/dev/pts")
}
in_chroot() { vm_nice chroot "$tree" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }

if [ ! -f "$dir/stage-packages" ]; then
if [ ! -f "$dir/stage-debootstrap" ]; then
# 1. debootstrap minbase bookworm (arm64: foreign, second stage through
# qemu-user-static's binfmt handler, flags F: no qemu copy in the tree)
if [ "$arch" = arm64 ]; then
	[ -d /proc/sys/fs/binfmt_misc ] || vm_die "no binfmt_misc"
	mountpoint -q /proc/sys/fs/binfmt_misc ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
	update-binfmts --enable qemu-aarch64 2>/dev/null || true
	grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
		vm_die "qemu-aarch64 binfmt handler not enabled (qemu-user-static, binfmt-support)"
	vm_nice debootstrap --arch=arm64 --foreign --variant=minbase bookworm "$tree" \
		"$VM_MIRROR" >"$dir/debootstrap.log" 2>&1 ||
		{ tail -20 "$dir/debootstrap.log" >&2; vm_die "debootstrap failed"; }
	in_chroot /debootstrap/debootstrap --second-stage >>"$dir/debootstrap.log" 2>&1 ||
		{ tail -20 "$dir/debootstrap.log" >&2; vm_die "debootstrap second stage failed"; }
else
	vm_nice debootstrap --arch=amd64 --variant=minbase bookworm "$tree" "$VM_MIRROR" \
		>"$dir/debootstrap.log" 2>&1 ||
		{ tail -20 "$dir/debootstrap.log" >&2; vm_die "debootstrap failed"; }
fi
touch "$dir/stage-debootstrap"
vm_say "$arch: debootstrap done ($(($(date +%s) - t0)) s)"
fi

# 2. apt and initramfs settings, then the packages
echo "deb $VM_MIRROR bookworm main" >"$tree/etc/apt/sources.list"
echo force-unsafe-io >"$tree/etc/dpkg/dpkg.cfg.d/unsafe-io"
printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
	>"$tree/etc/apt/apt.conf.d/90norecommends"
printf '#!/bin/sh\nexit 101\n' >"$tree/usr/sbin/policy-rc.d"
chmod +x "$tree/usr/sbin/policy-rc.d"
mkdir -p "$tree/etc/initramfs-tools/conf.d"
echo MODULES=list >"$tree/etc/initramfs-tools/conf.d/modules-list"
printf 'virtio_pci\nvirtio_mmio\nvirtio_blk\next4\n' >>"$tree/etc/initramfs-tools/modules"
chroot_mounts
in_chroot apt-get -qq update >"$dir/apt.log" 2>&1
# shellcheck disable=SC2046
in_chroot apt-get -y -q install $(vm_packages) >>"$dir/apt.log" 2>&1 ||
	{ tail -20 "$dir/apt.log" >&2; vm_die "apt-get install failed in the $arch chroot"; }
in_chroot apt-get clean
touch "$dir/stage-packages"
vm_say "$arch: packages installed ($(($(date +%s) - t0)) s)"
else
	chroot_mounts
fi

# 3. the kernels: image and headers packages, extracted (not installed: a
# bullseye kernel's headers depend on a gcc that bookworm does not have;
# libbcc needs only the header files), then depmod and a small initramfs
# qual_pkg PKG ARCH SUITE: PKG:ARCH/SUITE, or PKG/SUITE for an arch "all"
# package (apt does not take a foreign arch qualifier on those).  grep reads
# all of apt-cache's output (no -q): under pipefail, apt-cache killed by
# SIGPIPE after an early match failed the test (5 runs in 6 here), and the
# package was asked for as PKG:ARCH ("Release 'bookworm' for
# 'linux-headers-...-common:arm64' was not found")
qual_pkg() {
	# shellcheck disable=SC2046
	if apt-cache $(vm_apt_opts) show "$1/$3" 2>/dev/null | grep '^Architecture: all' >/dev/null; then
		echo "$1/$3"
	else
		echo "$1:$2/$3"
	fi
}
debs="$VM_CACHE/debs"
mkdir -p "$debs"
for t in $(vm_targets | awk -v a="$arch" '$2 == a { print $1 }'); do
	read -r img ver < <(vm_kernel_pkg "$t")
	suite=$(vm_target_field "$t" 3)
	hdr=${img/linux-image-/linux-headers-}
	# shellcheck disable=SC2046
	deps=$(apt-cache $(vm_apt_opts) show "$hdr:$arch/$suite" |
		awk -F': ' '/^Depends:/ { print $2; exit }' | tr ',' '\n' |
		grep -oE 'linux-(headers|kbuild)-[^ ]*' | sort -u)
	(cd "$debs" &&
		# shellcheck disable=SC2046
		vm_nice apt-get $(vm_apt_opts) -qq download "$img:$arch/$suite" \
			"$hdr:$arch/$suite" $(for d in $deps; do qual_pkg "$d" "$arch" "$suite"; done) \
			>>"$dir/apt.log" 2>&1) ||
		{ tail -5 "$dir/apt.log" >&2; vm_die "cannot download $img ($t)"; }
	for p in "$img" "$hdr" $deps; do
		f=$( (ls "$debs/${p}_"*"_$arch.deb" "$debs/${p}_"*"_all.deb" 2>/dev/null || true) |
			sort -V | tail -n 1)
		[ -n "$f" ] || vm_die "downloaded no $p"
		# bullseye's packages are not merged-/usr: keep /lib -> usr/lib
		dpkg-deb --fsys-tarfile "$f" | tar -C "$tree" -x --keep-directory-symlink
	done
	rel=${img#linux-image-}
	rel=${rel%-unsigned}
	[ -f "$tree/boot/vmlinuz-$rel" ] || vm_die "$img has no /boot/vmlinuz-$rel"
	in_chroot depmod "$rel"
	in_chroot mkinitramfs -o "/boot/initrd.img-$rel" "$rel" >>"$dir/apt.log" 2>&1 ||
		vm_die "mkinitramfs $rel failed"
	mkdir -p "$dir/kernel-$t"
	cp "$tree/boot/vmlinuz-$rel" "$dir/kernel-$t/vmlinuz"
	cp "$tree/boot/initrd.img-$rel" "$dir/kernel-$t/initrd.img"
	echo "$rel $img $ver" >"$dir/kernel-$t/release"
	vm_say "$arch: kernel $t: $img $ver ($(($(date +%s) - t0)) s)"
done

# 4. the guest's init, then the image
install -m 0755 "$VM_DIR/guest-init" "$tree/sbin/switchstat-vm-init"
echo switchstat-vm >"$tree/etc/hostname"
umount_all
vm_nice mke2fs -q -t ext4 -d "$tree" "$dir/rootfs.img" 8G >&2 ||
	vm_die "mke2fs of the $arch image failed"
date -u +%FT%TZ >"$dir/done"
vm_say "$arch: image ready in $(($(date +%s) - t0)) s: $dir"
echo "$dir"
exit 0
}

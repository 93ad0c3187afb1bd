#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The CI image: the workflows pass actionlint, the Dockerfile builds with buildah
# against a local debootstrapped base image, and the image's switchstat
# answers --version and -h.  scripts/check-image.sh exits 77 (skip) with the
# reason where the tools cannot be had; it never fakes a pass.
set -u
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
exec bash "$SRC/scripts/check-image.sh"

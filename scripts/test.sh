#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test.sh - set up this machine, build, and run every test (unit and, as
# root, integration against the live kernel).  The README's test command.
# Usage: scripts/test.sh [ctest args...]   e.g. scripts/test.sh -L unit
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh" --tests
cd "$here"
if [ "$(id -u)" -ne 0 ]; then
	echo "test: not root: running the unit tests only" >&2
	set -- -L unit "$@"
fi
exec ctest --test-dir build --output-on-failure --timeout 900 "$@"

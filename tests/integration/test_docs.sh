#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_docs.sh - the documentation matches the program (no root needed):
#  - man/man8/switchstat.8 renders with man -l, no groff warnings, and has
#    the bcc man page sections; it documents every option of switchstat -h;
#  - switchstat_example.txt ends with the USAGE message, equal to
#    `switchstat -h` byte for byte;
#  - tests/check_docs.py (also ctest unit.docs, without a build): every
#    option, output field, metric and user-facing environment variable of
#    src/ is in the man page and no test seam is; no block of more than 5
#    lines is repeated between the README files, docs/, the man page and
#    the example; every document is reachable from README.md.
. "$(dirname "$0")/lib.sh"
command -v man >/dev/null || skip "needs man (man-db)"
command -v python3 >/dev/null || skip "needs python3"
[ -x "$SWITCHSTAT" ] || fail "no binary at $SWITCHSTAT"

MAN=$SRC/man/man8/switchstat.8
EXAMPLE=$SRC/switchstat_example.txt
[ -f "$MAN" ] || fail "missing $MAN"
[ -f "$EXAMPLE" ] || fail "missing $EXAMPLE"

"$SWITCHSTAT" -h >"$T/usage.txt" || fail "switchstat -h: exit $?"

# --- man page renders, no warnings, all sections -------------------------
MANWIDTH=80 man --warnings -l "$MAN" >"$T/man.txt" 2>"$T/man.err" ||
	fail "man -l: exit $?: $(cat "$T/man.err")"
[ -s "$T/man.err" ] && fail "man -l warnings: $(head -3 "$T/man.err")"
for s in NAME SYNOPSIS DESCRIPTION REQUIREMENTS OPTIONS EXAMPLES FIELDS \
	OVERHEAD ENVIRONMENT FILES "EXIT STATUS" SOURCE OS STABILITY "SEE ALSO"; do
	grep -q "^$s\$" "$T/man.txt" || fail "man page: no $s section"
done
info "man page renders ($(wc -l <"$T/man.txt") lines), all sections present"

# --- every option of -h is documented in OPTIONS, and nothing else -------
python3 - "$T/usage.txt" "$T/man.txt" <<'PY' || fail "man OPTIONS vs -h"
import re, sys
usage, man = (open(p).read() for p in sys.argv[1:3])
def opts(text):
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])", text))
opt_text = usage.split("OPTIONS:", 1)[1].split("EXAMPLES:", 1)[0]
want = opts(opt_text)
sec = man.split("\nOPTIONS\n", 1)[1].split("\nEXAMPLES\n", 1)[0]
# option lines of the man page: "       -i MS, --interval MS"
have = set()
for line in sec.splitlines():
    if re.match(r"^ {7}-", line):
        have |= opts(line)
missing, extra = want - have, have - want
if missing or extra:
    sys.exit("man OPTIONS: missing %s, not in -h %s" % (sorted(missing), sorted(extra)))
print("  %d options of -h documented in the man page" % len(want))
PY

# --- example file ends with the usage message ---------------------------
python3 - "$EXAMPLE" "$T/usage.txt" <<'PY' || fail "switchstat_example.txt"
import sys
text, usage = (open(p).read() for p in sys.argv[1:3])
mark = "\n# switchstat -h\n"
if mark not in text:
    sys.exit("no '# switchstat -h' line")
tail = text.rsplit(mark, 1)[1]
if tail != usage:
    import difflib
    sys.stdout.writelines(difflib.unified_diff(
        usage.splitlines(True), tail.splitlines(True), "switchstat -h", "example"))
    sys.exit("USAGE message differs from switchstat -h")
print("  example file ends with the exact -h output (%d lines)" % usage.count("\n"))
PY

# --- options, fields, environment, repeated blocks, links (pure) --------
python3 "$SRC/tests/check_docs.py" "$SRC" || fail "tests/check_docs.py"
pass "man page, example file and documents match the program"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check_timing.py [--self-test] [ROOT] - no fixed time window in the
test scripts that a verdict could depend on.

Scans the shell scripts the tests run (ROOT/tests/integration/*.sh,
tests/fuzz/*.sh, tests/vm/*.sh and tests/vm/guest-init; here-documents
are scanned too: a marker on the line that opens one covers its body)
for fixed-time constructs:
  - `sleep NUMBER` as a command;
  - `-d NUMBER` / `--duration NUMBER` (a run of the tool for a fixed time);
  - `timeout NUMBER`;
  - a `for VAR in $(seq ...)` loop whose body sleeps (a poll counted in
    fixed steps); the sleep in it, or in a while/until loop (which ends
    on its condition), is the poll's step and no hit of its own.
Each one must carry the marker MARKER followed by a few words why it is
not a window a count, share, rate or time is checked against (a bad-input
or format-only run, a final partial interval, workload time no assert
depends on, a hang cap ...).  The marker counts when it is on the same
line or in the comment block just above; one marker covers a run of
consecutive lines with hits and the continuation lines of one command.
Waits for a condition (wait_for, run_for_cpu, wait_intervals, with
SS_HANG_S as the hang) contain none of the constructs and need no marker.

Exit 0 when every hit is marked, 1 with one line per unmarked hit.
--self-test copies the scanned scripts to a temporary folder, plants an
unmarked `sleep 2` before an assert, an unmarked `-d 3` run and an
unmarked polling loop, and checks that each is reported and is not once
marked, and that a marker without a reason is refused.
"""
import glob
import os
import re
import shutil
import sys
import tempfile

MARKER = "# not a window:"
GLOBS = ["tests/integration/*.sh", "tests/fuzz/*.sh", "tests/vm/*.sh",
         "tests/vm/guest-init"]
CMD = r"(?:^\s*|[;&|(!{]\s*|\b(?:then|do|else)\s+)"
FIXED = re.compile(CMD + r"(?P<w>sleep\s+[0-9.]+)\b"
                   r"|\s(?P<d>(?:-d\s*|--duration[= ])[0-9]+)\b"
                   r"|\b(?P<t>timeout\s+(?:-\S+\s+)*[0-9.]+)")
SEQ_LOOP = re.compile(r"\bfor\s+\w+\s+in\s+\$\(seq\b")
SLEEP = re.compile(CMD + r"sleep\b")
LOOP_WORD = re.compile(r"\b(while|until|for|do|done)\b")
HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")


def code_of(line):
    """The line without its comment (a # at the start or after a blank)."""
    m = re.search(r"(^|\s)#", line)
    return line[:m.start()] if m else line


def marked(line):
    """True when the line carries the marker with a reason after it."""
    i = line.find(MARKER)
    return i >= 0 and line[i + len(MARKER):].strip() != ""


def walk(code, loops, pending, upto=None):
    """The loops (their kinds: for, seq, while, until) open after the
    loop words of code before upto, from loops; pending: the kind of the
    next do."""
    for w in LOOP_WORD.finditer(code):
        if upto is not None and w.start() >= upto:
            break
        if w.group(1) == "do":
            loops = loops + [pending]
        elif w.group(1) == "done":
            loops = loops[:-1]
        elif w.group(1) == "for" and SEQ_LOOP.match(code, w.start()):
            pending = "seq"
        else:
            pending = w.group(1)
    return loops, pending


def hits_of(lines):
    """{line index: what} of the fixed-time constructs in a script, and
    {line index: index of the line opening its here-document}."""
    hits, opener, tag = {}, {}, None
    loops, pending = [], "for"  # the kinds of the loops the line is in
    for i, line in enumerate(lines):
        if tag is not None:
            if line.strip() == tag[0]:
                tag = None
                continue
            opener[i] = tag[1]
        code = code_of(line)
        m = FIXED.search(code)
        kinds = walk(code, loops, pending, m.start())[0] if m else loops
        loops, pending = walk(code, loops, pending)
        # a sleep in a loop that ends on a condition is a poll's step
        if m and not (m.group("w") and kinds and
                      kinds[-1] in ("while", "until", "seq")):
            hits[i] = m.group("w") or m.group("d") or m.group("t")
        if SEQ_LOOP.search(code):
            depth, j = 0, i
            while j < len(lines):
                c = code_of(lines[j])
                depth += len(re.findall(r"\bdo\b", c))
                depth -= len(re.findall(r"\bdone\b", c))
                if SLEEP.search(c):
                    hits[i] = "polling loop: for $(seq) with a sleep"
                    break
                if depth <= 0 and j > i or depth <= 0 and "done" in c:
                    break
                j += 1
        h = HEREDOC.search(code)
        if h and tag is None:
            tag = (h.group(1), i)
    return hits, opener


def check_file(path, rel):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    hits, opener = hits_of(lines)
    errors = []
    for i in sorted(hits):
        j, ok = i, marked(lines[i])
        while not ok and j > 0:
            j -= 1
            prev = lines[j]
            if not (prev.lstrip().startswith("#") or j in hits or
                    prev.rstrip().endswith(("\\", "|", "&&", "||"))):
                break
            ok = marked(prev)
        if not ok and i in opener:
            ok = marked(lines[opener[i]])
        if not ok:
            if MARKER in "\n".join(lines[max(j, 0):i + 1]):
                why = "its marker gives no reason"
            else:
                why = f'add "{MARKER} <why>" or wait for the condition'
            errors.append(f"{rel}:{i + 1}: fixed time '{hits[i]}': {why}")
    return errors


def scripts(root):
    out = []
    for g in GLOBS:
        out += sorted(glob.glob(os.path.join(root, g)))
    return out


def check(root):
    errors = []
    for p in scripts(root):
        errors += check_file(p, os.path.relpath(p, root))
    return errors


def self_test(root):
    tmp = tempfile.mkdtemp(prefix="check_timing.")
    try:
        for p in scripts(root):
            rel = os.path.relpath(p, root)
            os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
            shutil.copy(p, os.path.join(tmp, rel))
        base = set(check(tmp))  # unit.timing judges these, not the self-test
        rel = "tests/integration/test_smoke.sh"
        bad = [
            ("sleep 2\n[ \"$(count)\" -gt 10 ] || fail few\n", "'sleep 2'"),
            ('"$SWITCHSTAT" --csv -d 3 -p "$P" >"$T/o.csv"\n', "'-d 3'"),
            ("for _ in $(seq 1 20); do\n\tgrep -q x f && break\n"
             "\tsleep 0.1\ndone\n", "polling loop"),
            ("# not a window:\nsleep 2\n", "gives no reason"),
        ]
        p = os.path.join(tmp, rel)
        with open(p, encoding="utf-8") as f:
            text = f.read()
        status = 0
        for plant, want in bad:
            with open(p, "w", encoding="utf-8") as f:
                f.write(text + plant)
            errs = set(check(tmp)) - base
            if not any(rel in e and want in e for e in errs):
                print(f"self-test: {plant.splitlines()[0]!r} not reported")
                status = 1
            with open(p, "w", encoding="utf-8") as f:
                f.write(text + f"{MARKER} a planted exit-code run\n" + plant)
            if plant[0] != "#" and set(check(tmp)) != base:
                print(f"self-test: marked {plant.splitlines()[0]!r} reported")
                status = 1
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        print("self-test: " + ("FAILED" if status else
                               "each planted fixed window was reported"))
        return status
    finally:
        shutil.rmtree(tmp)


def main(argv):
    args = [a for a in argv if a != "--self-test"]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    if "--self-test" in argv:
        return self_test(root)
    errors = check(root)
    for e in errors:
        print(e)
    print(f"timing: {len(errors)} unmarked fixed time(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

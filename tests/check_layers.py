#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check_layers.py [--self-test] [ROOT] - the layer rule on #include lines.

Every file under ROOT/src belongs to the layer of its folder (src/base,
src/model, ...; the files directly in src/ are the core).  A quoted
#include names a header by its bare file name (header names are unique
across src/, checked here too) or a shared probe header as "probes/NAME.h";
any other path is refused.  A header may be included only from its own
layer or from a layer allowed to use it (ALLOWED below, the same table as
src/README.md and CMakeLists.txt's ss_layer calls).  The table is a DAG, so
no two folders can include each other.

Within a layer, no two units may include each other, directly or around a
circle.  A unit is a header and the .c files that implement it: NAME.c, or
NAME_PART.c where no NAME_PART.h exists (bpf_cache_key.c belongs to
bpf_cache.h); a .c file of neither kind is a unit of its own.  An include
from one unit of a layer to another is an arrow; an arrow back to where a
path of arrows started is reported with the includes that make it.

Exit 0 when every include is allowed, 1 with one line per violation.
--self-test copies ROOT/src to a temporary folder, adds one forbidden
include (output including a feature header), one cycle-making include
across layers (model including core's opts.h) and one within a layer
(bpf_cache_key.c including bpf_host.h, whose bpf_host.c includes
bpf_cache.h), and checks that each is reported.
"""
import os
import re
import shutil
import sys
import tempfile

# layer -> the layers it may include (besides itself)
ALLOWED = {
    "base": set(),
    "model": {"base"},
    "system": {"base"},
    "kernel": {"base", "model"},
    "output": {"base", "model", "system"},
    "core": {"base", "model", "system", "kernel", "output"},
    "features": {"core", "base", "model", "system", "kernel", "output"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    """Layer of a path relative to src/: its first folder, or core."""
    parts = rel.split(os.sep)
    return "core" if len(parts) == 1 else parts[0]


def unit_of(rel, headers):
    """Unit of a file: the header it is or implements (see the top)."""
    d, n = os.path.split(rel)
    stem = n[:-2]
    if n.endswith(".h") or os.path.join(d, stem + ".h") in headers:
        return os.path.join(d, stem)
    best = None
    for h in headers:
        hd, hn = os.path.split(h)
        hs = hn[:-2]
        if hd == d and stem.startswith(hs + "_") and \
                (best is None or len(hs) > len(os.path.basename(best))):
            best = os.path.join(d, hs)
    return best or os.path.join(d, stem)


def cycles(arrows):
    """Circles in {unit: {unit: why}}: each as its list of units."""
    found, state, path = [], {}, []

    def visit(u):
        state[u] = 1
        path.append(u)
        for v in sorted(arrows.get(u, {})):
            if state.get(v) == 1:
                found.append(path[path.index(v):] + [v])
            elif v not in state:
                visit(v)
        path.pop()
        state[u] = 2

    for u in sorted(arrows):
        if u not in state:
            visit(u)
    return found


def check(root):
    src = os.path.join(root, "src")
    where = {}  # header name -> layer
    files = []
    errors = []
    for dirpath, _, names in os.walk(src):
        for n in sorted(names):
            if not n.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, n), src)
            lay = layer_of(rel)
            if lay not in ALLOWED:
                errors.append(f"src/{rel}: folder '{lay}' is not a layer")
                continue
            files.append((rel, lay))
            if n.endswith(".h"):
                if n in where:
                    errors.append(f"src/{rel}: header name also in {where[n]}")
                where[n] = lay
    headers = {rel for rel, _ in files if rel.endswith(".h")}
    arrows = {}  # unit -> {unit: "file includes header"} within a layer
    for rel, lay in files:
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                at = f"src/{rel}:{lineno}"
                if "/" in inc:
                    if not re.fullmatch(r"probes/[A-Za-z0-9_]+\.h", inc):
                        errors.append(f'{at}: "{inc}": include by bare name '
                                      '(or probes/NAME.h)')
                    continue
                to = where.get(inc)
                if to is None:
                    errors.append(f'{at}: "{inc}" is no header under src/')
                elif to != lay and to not in ALLOWED[lay]:
                    errors.append(f'{at}: {lay} may not include "{inc}" '
                                  f'({to}); {lay} may use: '
                                  f'{", ".join(sorted(ALLOWED[lay])) or "nothing"}')
                elif to == lay:
                    d = os.path.dirname(rel)
                    a = unit_of(rel, headers)
                    b = unit_of(os.path.join(d, inc), headers)
                    if a != b:
                        arrows.setdefault(a, {}).setdefault(
                            b, f"src/{rel} includes {inc}")
    for c in cycles(arrows):
        why = "; ".join(arrows[a][b] for a, b in zip(c, c[1:]))
        errors.append(f"include cycle: {' -> '.join(c)} ({why})")
    return errors


def self_test(root):
    tmp = tempfile.mkdtemp(prefix="check_layers.")
    try:
        shutil.copytree(os.path.join(root, "src"), os.path.join(tmp, "src"))
        if check(tmp):
            print("self-test: the unmodified copy already fails")
            return 1
        bad = {
            "output/emit.c": ("feat_core.h", "output may not include"),
            "model/rows.c": ("opts.h", "model may not include"),
            "kernel/privs.c": ("../features/feat_core.h", "bare name"),
            "kernel/bpf_cache_key.c": ("bpf_host.h", "include cycle"),
        }
        status = 0
        for rel, (inc, want) in bad.items():
            p = os.path.join(tmp, "src", rel)
            with open(p, encoding="utf-8") as f:
                text = f.read()
            with open(p, "w", encoding="utf-8") as f:
                f.write(f'#include "{inc}"\n' + text)
            errs = check(tmp)
            if not any(rel in e and want in e for e in errs):
                print(f'self-test: #include "{inc}" in src/{rel} not reported')
                status = 1
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)
        print("self-test: " + ("FAILED" if status else
                               "each forbidden include and cycle was "
                               "reported"))
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
    print(f"layers: {len(errors)} violation(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

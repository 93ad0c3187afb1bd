# SPDX-License-Identifier: GPL-2.0
"""prom_samples.py - the samples of a scraped exposition (prom_lib.sh puts
this folder on PYTHONPATH for the tests' inline Python)."""
import re

_LINE = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def samples(path, names):
    """(name, labels, value) of each sample in file PATH whose metric name
    is one of NAMES; label values unescaped (\\\\, \\", \\n)."""
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = _LINE.match(line.rstrip("\n"))
        if not m or m.group(1) not in names:
            continue
        lab = {k: v.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")
               for k, v in _LABEL.findall(m.group(2) or "")}
        out.append((m.group(1), lab, float(m.group(3))))
    return out

#!/usr/bin/env python3
"""Check that no source file includes a header of a layer above its own.

Usage: scripts/check-layers.py [ROOT]   (default: the project root)

The layers, top first (DESIGN.md): cmd, builtin, ui, util/analysis,
util/session, util/model, util/format, util/kernel, util/lib, with bench/
(prf bench's workloads) below builtin and including util/lib only. A file may
include headers of its own layer and of the layers below it. arch/ plugs
into the kernel and model layers: it may include util/lib, util/kernel and
util/format only, and only util/model and the layers above it may include
arch/. tests/ may include anything. Prints one line per upward include
("FILE:LINE: includes HEADER (LAYER above LAYER)") and a count; exit 1 when
there is any.
"""
import os
import re
import sys

LAYERS = ["cmd", "builtin", "bench", "ui", "util/analysis", "util/session",
          "util/model", "util/format", "util/kernel", "util/lib"]
RANK = {name: i for i, name in enumerate(LAYERS)}
ARCH_MAY_INCLUDE = {"util/lib", "util/kernel", "util/format"}
# bench/ (the workloads of prf bench) uses the base layer only
BENCH_MAY_INCLUDE = {"util/lib"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    rel = os.path.normpath(rel)
    if rel.startswith("arch" + os.sep):
        return "arch"
    best = None
    for name in LAYERS:
        if rel.startswith(name + os.sep) and (best is None or len(name) > len(best)):
            best = name
    return best


def allowed(src, dst):
    if dst is None or src == dst:
        return True
    if src == "arch":
        return dst in ARCH_MAY_INCLUDE
    if src == "bench":
        return dst in BENCH_MAY_INCLUDE
    if dst == "arch":
        return RANK[src] <= RANK["util/model"]
    return RANK[dst] >= RANK[src]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    bad = 0
    for top in LAYERS + ["arch"]:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                src = layer_of(rel)
                with open(path, errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = os.path.relpath(
                            os.path.normpath(os.path.join(dirpath, m.group(1))), root)
                        dst = layer_of(target)
                        if not allowed(src, dst):
                            print(f"{rel}:{lineno}: includes {target} ({dst} above {src})")
                            bad += 1
    print(f"{bad} upward includes")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

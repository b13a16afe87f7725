#!/bin/bash
# The layers of src/: a folder calls only the ones before it (lib, engines, bpf, probe, disk,
# out, cli), tui/ calls into src/ and never the other way, and no two source files call each other
# in a cycle. Read from the object files of this build (nm: what each file defines and takes),
# so a call that runs upward fails here the day it is written.
. "$(dirname "$0")/lib.sh"

require_cmd nm
require_cmd python3

BUILD=$(dirname "$IOPROBE")
python3 - "$BUILD" >"$T_TMP/layers.out" 2>&1 <<'PY'
import collections, glob, os, re, subprocess, sys

build = sys.argv[1]
order = ["lib", "engines", "bpf", "probe", "disk", "out", "cli", "tui"]
objs = glob.glob(os.path.join(build, "src", "libioprobe-core.a.p", "*.c.o")) + \
       glob.glob(os.path.join(build, "tui", "libioprobe-tui.a.p", "*.c.o"))
if not objs:
    print("no object files under", build)
    sys.exit(2)

def name(o):
    # meson names an object after its source path, '/' as '_': lib_sbuf.c.o, tui_x.c.o
    base = os.path.basename(o)[:-len(".c.o")]
    if "/tui/" in o:
        return "tui", base
    layer, _, rest = base.partition("_")
    return layer, rest

defs, takes = {}, collections.defaultdict(set)
for o in objs:
    f = name(o)
    for line in subprocess.run(["nm", o], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "TDBRC":
            defs[p[2]] = f
        elif len(p) == 2 and p[0] == "U":
            takes[f].add(p[1])

bad, edges = [], collections.defaultdict(set)
for f, syms in takes.items():
    for s in syms:
        g = defs.get(s)
        if not g or g == f:
            continue
        edges[f].add(g)
        if f[0] not in order or g[0] not in order:
            bad.append(f"{f[0]}/{f[1]}.c -> {g[0]}/{g[1]}.c: a folder outside the layers")
        elif order.index(g[0]) > order.index(f[0]):
            bad.append(f"{f[0]}/{f[1]}.c -> {g[0]}/{g[1]}.c ({s}): calls upward")

# cycles: Tarjan's strongly connected components over the file graph
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v:
                break
        if len(c) > 1:
            sccs.append(c)
sys.setrecursionlimit(10000)
for v in list(edges):
    if v not in index:
        visit(v)
for c in sccs:
    bad.append("cycle: " + " ".join(f"{a}/{b}.c" for a, b in sorted(c)))
print(f"{len(objs)} objects, {sum(len(e) for e in edges.values())} file-to-file edges")
for b in sorted(set(bad)):
    print(b)
sys.exit(1 if bad else 0)
PY
RC=$?
sed 's/^/# /' "$T_TMP/layers.out"
check "src/ and tui/: no call runs upward, no cycle between files" test "$RC" = 0
check "the layers' objects were found (a build of the layered tree)" \
	grep -q "^[0-9]* objects" "$T_TMP/layers.out"

finish

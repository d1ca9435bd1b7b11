#!/usr/bin/env python3
"""check_stack.py - worst-case stack per loader function from gcc's
-fcallgraph-info=su output (.ci files), with recursion detection.

usage: check_stack.py [--csv] [--helper N] DIR BOUND

Reads every DIR/*.ci, builds the static call graph, and for each public
function (rr_ prefix) computes own frame + deepest callee chain. Fails
(exit 1) on: recursion (a cycle in the graph), an indirect call (the graph
would be incomplete), a dynamic/unbounded frame, a dynamic frame without a bound
(alloca, VLA), or a public function whose worst case exceeds BOUND bytes. Calls to library helpers outside loader/
(libgcc's 64-bit division, memcpy) are charged HELPER_ALLOWANCE bytes each
(--helper N: N instead; Cortex-M0's 64-bit division chain needs ~120 bytes,
measured by tests/footprint/fp_stack.c).
Prints one line per public function ("# stack: N passed, M failed" summary),
or CSV with --csv.
"""
import glob, os, re, sys

HELPER_ALLOWANCE = 64
node_re = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
edge_re = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')


def load(d):
    frames, edges, dynamic = {}, {}, set()
    for ci in sorted(glob.glob(os.path.join(d, "*.ci"))):
        for line in open(ci, encoding="utf-8", errors="replace"):
            m = node_re.search(line)
            if m:
                title, label = m.group(1), m.group(2)
                f = re.search(r"\\n(\d+) bytes \(([\w,]+)\)", label)
                if f:
                    frames[title] = int(f.group(1))
                    # "dynamic,bounded" (e.g. x86-64 stack realignment) has a known
                    # maximum, which gcc reports; only unbounded frames fail.
                    if f.group(2) not in ("static", "dynamic,bounded"):
                        dynamic.add(title)
                continue
            m = edge_re.search(line)
            if m:
                edges.setdefault(m.group(1), []).append(m.group(2))
    return frames, edges, dynamic


def worst(fn, frames, edges, memo, path, problems, helper=HELPER_ALLOWANCE):
    """Iterative DFS (no Python recursion limits) with cycle detection."""
    stack = [(fn, 0)]
    onpath = []
    while stack:
        node, state = stack.pop()
        if state == 0:
            if node in memo:
                continue
            if node in onpath:
                problems.append("recursion: " + " -> ".join(onpath + [node]))
                memo[node] = 0
                continue
            onpath.append(node)
            stack.append((node, 1))
            for callee in edges.get(node, []):
                if callee == "__indirect_call":
                    problems.append("indirect call in %s" % node)
                    continue
                if callee in onpath:
                    problems.append("recursion: " + " -> ".join(onpath[onpath.index(callee):] + [callee]))
                    continue
                if callee in frames and callee not in memo:
                    stack.append((callee, 0))
        else:
            best = 0
            for callee in edges.get(node, []):
                if callee == "__indirect_call":
                    continue
                best = max(best, memo.get(callee, helper if callee not in frames else 0))
            memo[node] = frames.get(node, 0) + best
            onpath.pop()
    return memo.get(fn, 0)


def main(argv):
    csv = "--csv" in argv
    args = [a for a in argv if a != "--csv"]
    helper = HELPER_ALLOWANCE
    if "--helper" in args:
        i = args.index("--helper")
        helper = int(args[i + 1])
        del args[i:i + 2]
    d, bound = args[0], int(args[1])
    frames, edges, dynamic = load(d)
    if not frames:
        print("FAIL stack: no .ci files in %s" % d)
        print("# stack: 0 passed, 1 failed")
        return 1
    memo, problems = {}, []
    public = sorted(f for f in frames if f.startswith("rr_") and ":" not in f)
    passed = failed = 0
    if csv:
        print("function,frame_bytes,worst_case_bytes,bound")
    for f in public:
        w = worst(f, frames, edges, memo, [], problems, helper)
        ok = w <= bound
        if csv:
            print("%s,%d,%d,%d" % (f, frames[f], w, bound))
        elif not ok:
            print("FAIL stack %s: %s needs %d bytes > bound %d" % (d, f, w, bound))
        passed += ok
        failed += not ok
    for f in sorted(dynamic):
        problems.append("dynamic stack frame in %s" % f)
    for p in sorted(set(problems)):
        if not csv:
            print("FAIL stack %s: %s" % (d, p))
        failed += 1
    if not csv:
        top = max(public, key=lambda f: memo.get(f, 0)) if public else "-"
        print("# stack %s: %d passed, %d failed (deepest %s = %d bytes, bound %d)" % (
            d, passed, failed, top, memo.get(top, 0), bound))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""stack.py - stack depth per query, two ways, per board.

usage: stack.py BUILD "BOARDS"

1. Static worst case from gcc -fcallgraph-info=su (BUILD/<board>/stack.csv,
   written by tests/check_stack.py --csv in `make stack` / `make size`):
   own frame + deepest callee chain, libgcc helpers charged 64 bytes each.
2. Measured by stack painting in QEMU (tests/footprint/fp_stack.c) on the
   ARM QEMU boards among BOARDS that have a built BUILD/<board>/t_micro.elf
   (its baked blobs are reused): the deepest byte each query touched on the
   rooms of tests/target/micro.blobs, libgcc helpers included.
3. The RAM of the micro:bit demo: data + bss of t_micro.elf + the stack
   peak of the whole t_micro run, painted (tests/footprint/fp_micro_ram.c).

Prints a table (target: <= 512 bytes for any query) and writes
BUILD/footprint/stack.csv.
"""
import csv, os, re, subprocess, sys

BOUND = 512
PAINT_BOARDS = ("microbit", "mps2-an385")


def board_var(board, var):
    out = subprocess.run(["make", "-s", "--no-print-directory", "BOARD=" + board,
                          "print-" + var], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def static(build, board):
    path = os.path.join(build, board, "stack.csv")
    if not os.path.exists(path):
        return {}
    with open(path) as fh:
        return {r["function"]: int(r["worst_case_bytes"]) for r in csv.DictReader(fh)}


def painted(build, board):
    if not os.path.exists(os.path.join(build, board, "blobs", "micro", "blobs.c")):
        return {}
    res = {}
    for line in link_run(board, build, "tests/footprint/fp_stack.c", "fp_stack.elf").splitlines():
        name, _, val = line.rpartition(",")
        if name:
            res[name] = int(val)
    return res


def link_run(board, build, src, elf_name):
    """Link src with the micro blobs for board, run it, return its stdout."""
    blobs = os.path.join(build, board, "blobs", "micro")
    out = os.path.join(build, "footprint", board)
    os.makedirs(out, exist_ok=True)
    elf = os.path.join(out, elf_name)
    cmd = ([board_var(board, "BOARD_CC")] + board_var(board, "BOARD_CFLAGS").split() +
           ["-std=c99", "-Iloader", "-Iplatform", "-Itests", "-Itests/target", src,
            os.path.join(blobs, "blobs.S"), os.path.join(blobs, "blobs.c")] +
           board_var(board, "BOARD_PLAT_SRCS").split() +
           [os.path.join(build, board, "librr.a")] + board_var(board, "BOARD_LDFLAGS").split() +
           board_var(board, "BOARD_LIBS").split() + ["-o", elf])
    subprocess.run(cmd, check=True)
    r = subprocess.run(board_var(board, "BOARD_RUN").split() + [elf], capture_output=True,
                       text=True)
    if r.returncode:
        raise SystemExit("stack: %s failed on %s (status %d)" % (elf, board, r.returncode))
    return r.stdout


def micro_ram(build):
    """RAM of the micro:bit demo: data + bss from its symbols (the arena is
    in bss) + the stack peak of the whole run, measured by painting."""
    elf = os.path.join(build, "microbit", "t_micro.elf")
    if not os.path.exists(os.path.join(build, "microbit", "blobs", "micro", "blobs.c")):
        return None
    out = subprocess.run(["arm-none-eabi-nm", "-S", elf], capture_output=True, text=True).stdout
    sym, size = {}, {}
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 3:
            sym[p[-1]] = int(p[0], 16)
            if len(p) == 4:
                size[p[-1]] = int(p[1], 16)
    run = link_run("microbit", build, "tests/footprint/fp_micro_ram.c", "fp_micro_ram.elf")
    peak = int(re.search(r"peak_stack=(\d+)", run).group(1))
    ram = sym.get("__ram", 0x20000000)
    return {"data": sym["__data_end"] - ram, "bss": sym["__bss_end"] - sym["__data_end"],
            "arena": size.get("arena", 0), "stack": peak, "ram": sym.get("__ram_size", 0x4000)}


def main(argv):
    build, boards = argv[0], argv[1].split()
    st = {b: static(build, b) for b in boards}
    pt = {b: painted(build, b) for b in boards if b in PAINT_BOARDS}
    queries = list(next((p for p in pt.values() if p), {}).keys())
    if not queries:
        queries = sorted(f for f in st.get(boards[0], {}) if not f.startswith("rr__"))
    cols = ["static " + b for b in boards] + ["painted " + b for b in pt]
    print("%-30s " % "query" + " ".join("%9s" % c.split()[1][:9] for c in cols) +
          "   (bytes; first %d static, then painted)" % len(boards))
    rows = [["query"] + cols]
    over = []
    for q in queries:
        fn = q.split(" ")[0]
        vals = [st[b].get(fn, -1) for b in boards] + [pt[b].get(q, -1) for b in pt]
        rows.append([q] + [str(v) for v in vals])
        print("%-30s " % q + " ".join("%9d" % v for v in vals))
        for how, b, v in zip(["static"] * len(boards) + ["painted"] * len(pt),
                             boards + list(pt), vals):
            if v > BOUND:
                over.append("%s on %s: %s %d (+%d)" % (q, b, how, v, v - BOUND))
    os.makedirs(os.path.join(build, "footprint"), exist_ok=True)
    with open(os.path.join(build, "footprint", "stack.csv"), "w") as fh:
        fh.write("\n".join(",".join(r) for r in rows) + "\n")
    print("queries over %d bytes: %s" % (BOUND, "; ".join(over) or "none"))
    r = micro_ram(build) if "microbit" in boards else None
    if r:
        total = r["data"] + r["bss"] + r["stack"]
        print("microbit t_micro RAM: data %d + bss %d (arena %d inside) + stack peak %d "
              "(painted) = %d of %d bytes: target < %d %s" % (
                  r["data"], r["bss"], r["arena"], r["stack"], total, r["ram"], r["ram"],
                  "met" if total < r["ram"] else "MISSED"))
        with open(os.path.join(build, "footprint", "ram.csv"), "w") as fh:
            fh.write("program,data,bss,arena,stack_peak,total,ram\n")
            fh.write("t_micro,%d,%d,%d,%d,%d,%d\n" % (r["data"], r["bss"], r["arena"],
                                                      r["stack"], total, r["ram"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

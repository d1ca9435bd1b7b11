#!/usr/bin/env python3
"""report.py - write the measured tables of docs/footprint.md from the CSV
files `make size` leaves in BUILD/footprint, so that the document's figures
are always the last measurement and never hand-copied.

usage: report.py BUILD DOC

Every table lives between two marker lines of DOC:

    <!-- make size: NAME -->
    ... (replaced) ...
    <!-- end NAME -->

NAME is one of the blocks below. Text outside the markers is left as it is;
a marker pair that DOC lacks is an error (the document and this script must
agree), so is a CSV that `make size` did not write.
"""
import csv, datetime, os, re, subprocess, sys

FORMATS = ["roo", "rmesh", "rmf", "emi"]
ONE, ALL = 8 * 1024, 24 * 1024     # code targets, Thumb-2 (mps2-an385), bytes
ARENA_MAX, STACK_MAX = 4096, 512


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def n(v):
    return "{:,}".format(int(v))


def table(head, body, right_from=1):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" if i < right_from else "---:" for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in body]
    return out


def compiler_version():
    try:
        out = subprocess.run(["arm-none-eabi-gcc", "-dumpversion"], capture_output=True,
                             text=True, check=True).stdout.strip()
        return "arm-none-eabi-gcc " + out
    except (OSError, subprocess.CalledProcessError):
        return "the boards' gcc"


def block_measured(fp):
    return ["Measured by `make size` on %s (%s, loader `-O2`, and `-Os` for the "
            "`-Os` columns)." % (datetime.date.today().isoformat(), compiler_version())]


def code_rows(fp):
    return rows(os.path.join(fp, "size.csv"))


def block_targets(fp):
    code = {(r["board"], r["program"]): r for r in code_rows(fp)}
    m3 = {p: code[("mps2-an385", p)] for p in FORMATS + ["all"] if ("mps2-an385", p) in code}
    body = []

    def status(v, lim):
        return ("met (%s to spare)" % n(lim - v)) if v <= lim else "**missed** by %s" % n(v - lim)

    for p in FORMATS:
        if p in m3:
            o2, os_ = int(m3[p]["runtime_code"]), int(m3[p]["runtime_code_Os"])
            body.append(["%s runtime ≤ 8 KB (Cortex-M3)" % p, n(o2), status(o2, ONE),
                         n(os_), status(os_, ONE)])
    if "all" in m3:
        o2, os_ = int(m3["all"]["runtime_code"]), int(m3["all"]["runtime_code_Os"])
        body.append(["all four runtimes ≤ 24 KB (Cortex-M3)", n(o2), status(o2, ALL), n(os_),
                     status(os_, ALL)])
        o2 += int(m3["all"]["core_code"])
        os_ += int(m3["all"]["core_code_Os"])
        body.append(["whole loader (runtimes + core) ≤ 24 KB (Cortex-M3)", n(o2), status(o2, ALL),
                     n(os_), status(os_, ALL)])
    out = table(["target", "-O2 bytes", "-O2", "-Os bytes", "-Os"], body)
    arena = [r for r in rows(os.path.join(fp, "corpus.csv")) if r["arena_bytes"]]
    worst = max(arena, key=lambda r: int(r["arena_bytes"]))
    stack = rows(os.path.join(fp, "stack.csv"))
    deepest = (0, "", "")
    for r in stack:
        if not r["query"].startswith("rr_"):
            continue
        for k, v in r.items():
            if k.startswith("static ") and int(v) > deepest[0]:
                deepest = (int(v), r["query"], k[len("static "):])
    ram = rows(os.path.join(fp, "ram.csv"))[0]
    out += [""] + table(["target", "figure (worst)", "status"], [
        ["arena ≤ 4 KB for every corpus room", "%s bytes (`%s`)" % (n(worst["arena_bytes"]),
                                                                   worst["file"]),
         status(int(worst["arena_bytes"]), ARENA_MAX)],
        ["stack ≤ 512 bytes for every query on every board (static bound)",
         "%s bytes (`%s` on %s)" % (n(deepest[0]), deepest[1], deepest[2]),
         status(deepest[0], STACK_MAX)],
        ["micro:bit demo RAM < 16 KB", "%s bytes of %s" % (n(ram["total"]), n(ram["ram"])),
         status(int(ram["total"]), int(ram["ram"]))],
    ])
    return out


def block_code(fp):
    body = []
    for r in code_rows(fp):
        rt, core = int(r["runtime_code"]), int(r["core_code"])
        body.append([r["board"], r["program"], n(rt), n(core), n(r["libgcc_code"]), n(rt + core),
                     n(r["runtime_code_Os"]), n(r["core_code_Os"])])
    return table(["board", "program", "runtime", "core", "libgcc", "runtime + core",
                  "runtime `-Os`", "core `-Os`"], body, right_from=2)


def block_stack(fp):
    data = rows(os.path.join(fp, "stack.csv"))
    head = list(data[0].keys())
    body = [[r[h] if r[h] != "-1" else "–" for h in head] for r in data]
    return table(head, body)


def block_arena(fp):
    ranges = {}
    for r in rows(os.path.join(fp, "corpus.csv")):
        if not r["arena_bytes"]:
            continue
        ext = os.path.splitext(r["file"])[1].lstrip(".")
        lo, hi = ranges.get(ext, (None, None))
        a = int(r["arena_bytes"])
        ranges[ext] = (a if lo is None else min(lo, a), a if hi is None else max(hi, a))
    order = ["roo", "rmesh", "rmf", "emi"]
    return table(["format", "arena declared by the corpus blobs (bytes)"],
                 [[f, "%s–%s" % (n(ranges[f][0]), n(ranges[f][1]))] for f in order
                  if f in ranges])


def block_corpus(fp):
    body = []
    for r in rows(os.path.join(fp, "corpus.csv")):
        if r["blob_bytes"] == "rejected":
            body.append([r["file"], n(r["source_bytes"]), "rejected", "", "", "", "", ""])
            continue
        body.append([r["file"], n(r["source_bytes"]), n(r["blob_bytes"]),
                     n(r["collision_only_bytes"]), r["ratio_full"], r["ratio_collision"],
                     n(r["arena_bytes"]), r["max_depth"]])
    return table(["file", "source", "blob", "collision-only", "blob/source",
                  "c.-only/source", "arena", "depth"], body)


def block_ram(fp):
    r = rows(os.path.join(fp, "ram.csv"))[0]
    return table(["program", "data", "bss (arena included)", "arena", "stack peak (painted)",
                  "total", "RAM"],
                 [[r["program"], n(r["data"]), n(r["bss"]), n(r["arena"]),
                   n(r["stack_peak"]), n(r["total"]), n(r["ram"])]])


BLOCKS = {"measured": block_measured, "targets": block_targets, "code": block_code,
          "stack": block_stack, "arena": block_arena, "corpus": block_corpus, "ram": block_ram}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fp, doc = os.path.join(sys.argv[1], "footprint"), sys.argv[2]
    text = open(doc, encoding="utf-8").read()
    for name, make in BLOCKS.items():
        pat = re.compile(r"(<!-- make size: %s -->\n).*?(<!-- end %s -->)" % (name, name), re.S)
        if not pat.search(text):
            sys.exit("report.py: %s has no '<!-- make size: %s -->' ... '<!-- end %s -->' block"
                     % (doc, name, name))
        lines = make(fp)
        text = pat.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text)
    with open(doc, "w", encoding="utf-8") as f:
        f.write(text)
    print("%s: tables rewritten from %s/*.csv" % (doc, fp))


if __name__ == "__main__":
    main()

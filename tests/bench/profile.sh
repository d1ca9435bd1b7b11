#!/bin/sh
# profile.sh BUILD BOARD PROG [LABEL] - where the instructions of a bench
# program's measured regions go, per function (make profile). Runs
# BUILD/BOARD/PROG.elf twice on the board's QEMU under icount.so: once to
# learn which region is which (the "BENCH <label> ..." line printed before
# each), then in its profile mode, counting per instruction address only the
# regions whose label is LABEL (all regions without it). Prints one row per function: instructions in
# those regions, per region, and the share; the last row is the total.
# Counts are per translated block (see tests/bench/plugin/icount.c): the
# exact per-region totals are make bench's.
set -eu
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: $0 BUILD BOARD PROG [LABEL]" >&2
    exit 2
fi
build=$1 board=$2 prog=$3 label=${4:-}
elf=$build/$board/$prog.elf
[ -f "$elf" ] || { echo "profile.sh: no $elf (build it: make BOARD=$board $elf)" >&2; exit 2; }
mkdir -p "$build/bench"
so=$build/bench/icount.so
if [ ! -f "$so" ] || [ tests/bench/plugin/icount.c -nt "$so" ]; then
    gcc -O2 -shared -fPIC -o "$so" tests/bench/plugin/icount.c
fi
out=$build/bench/profile-$board-$prog
ICOUNT_SO=$so sh tests/bench/icount.sh "$board" "$elf" "$out.icount" > /dev/null 2> "$out.log"
grep '^BENCH ' "$out.log" | awk -v l="$label" 'l == "" || $2 == l { print NR - 1 }' > "$out.keep"
regions=$(wc -l < "$out.keep")
if [ "$regions" -eq 0 ]; then
    echo "profile.sh: no region labelled '$label'; the program's labels:" >&2
    grep '^BENCH ' "$out.log" | awk '{ print "  " $2 }' | sort -u >&2
    exit 1
fi
ICOUNT_SO=$so ICOUNT_EXTRA="keep=$out.keep,pcs=$out.pcs" \
    sh tests/bench/icount.sh "$board" "$elf" "$out.icount2" > /dev/null 2>> "$out.log"
nm=$(make -s --no-print-directory -f platform/board-vars.mk BOARD="$board" print-BOARD_NM)
echo "$board $prog ${label:-(every region)}: $regions regions"
"$nm" -n "$elf" | python3 -c '
import bisect, sys
regions, pcs = int(sys.argv[1]), sys.argv[2]
syms = []
for line in sys.stdin:
    f = line.split()
    if len(f) == 3 and f[1] in "tTwW":
        syms.append(((int(f[0], 16) & 0xffffffff) & ~1, f[2]))
syms.sort()
starts = [a for a, _ in syms]
per, total = {}, 0
for line in open(pcs):
    pc, n = line.split()
    i = bisect.bisect_right(starts, int(pc, 16)) - 1
    name = syms[i][1] if i >= 0 else "?"
    per[name] = per.get(name, 0) + int(n)
    total += int(n)
print("%-32s %12s %10s %6s" % ("function", "insns", "per region", "share"))
for name, n in sorted(per.items(), key=lambda kv: -kv[1]):
    print("%-32s %12d %10.1f %5.1f%%" % (name, n, n / regions, 100.0 * n / total))
print("%-32s %12d %10.1f %5.1f%%" % ("total", total, total / regions, 100.0))
' "$regions" "$out.pcs"

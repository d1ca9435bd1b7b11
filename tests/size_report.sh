#!/bin/sh
# size_report.sh BUILD "BOARDS" [RRBAKE CORPUS] - the footprint report of
# `make size` (docs/footprint.md explains every figure):
#   1. code (.text + .rodata), data and bss of each loader object per board,
#      from the board's own `size` tool (build/<board>/size.csv);
#   2. code of the common core and of each format runtime as a program using
#      only that format links it (tests/footprint/footprint.py), with the
#      targets (<= 8 KB each, <= 24 KB together) and the micro:bit demo's RAM;
#   3. stack per query: static worst case (build/<board>/stack.csv) and
#      measured by stack painting in QEMU (tests/footprint/stack.py);
#   4. with RRBAKE and CORPUS: per corpus file, source and blob sizes and the
#      arena each room needs (tests/footprint/corpus.sh);
#   5. then docs/footprint.md's tables are rewritten from the CSV files
#      (tests/footprint/report.py), so the document is the last measurement.
# Everything is also kept in build/footprint/*.csv.
build=$1 boards=$2 rrbake=$3 corpus=$4
echo "== loader objects (whole objects, before --gc-sections)"
printf '%-12s %-16s %8s %8s %8s\n' board object text+ro data bss
for b in $boards; do
    nm=$(make -s --no-print-directory BOARD="$b" print-BOARD_NM)
    sz=$(printf '%s' "$nm" | sed 's/nm$/size/')
    csv=$build/$b/size.csv
    echo "object,text_rodata,data,bss" > "$csv"
    total=0
    for o in "$build/$b"/loader/*.o; do
        set -- $($sz "$o" | awk 'NR==2 {print $1, $2, $3}')
        name=$(basename "$o" .o)
        echo "$name,$1,$2,$3" >> "$csv"
        printf '%-12s %-16s %8d %8d %8d\n' "$b" "$name" "$1" "$2" "$3"
        total=$((total + $1))
    done
    printf '%-12s %-16s %8d\n' "$b" "TOTAL" "$total"
done
echo "== code per format, as linked by a program using only that format (bytes)"
python3 tests/footprint/footprint.py "$build" "$boards" || exit 1
echo "== stack per query (bytes)"
python3 tests/footprint/stack.py "$build" "$boards" || exit 1
if [ -n "$rrbake" ] && [ -n "$corpus" ]; then
    echo "== corpus: source and blob sizes, arena per room (bytes)"
    sh tests/footprint/corpus.sh "$rrbake" "$corpus" "$build/footprint" || exit 1
    # docs/footprint.md's tables are this run's figures
    python3 tests/footprint/report.py "$build" docs/footprint.md || exit 1
fi

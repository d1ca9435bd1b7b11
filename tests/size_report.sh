#!/bin/sh
# size_report.sh BUILD "BOARDS" - code size (.text + .rodata) and data of
# each loader object per board, from the board's own `size` tool, as CSV
# (build/<board>/size.csv) and a table on stdout.
build=$1 boards=$2
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

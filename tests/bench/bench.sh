#!/bin/sh
# shellcheck disable=SC2059  # one format variable serves the header and the rows
# bench.sh BUILD "BOARDS" "PROGRAMS" - run each bench program on each QEMU
# board under the icount plugin and print one table: exact executed
# instructions per measured operation (identical on every run), minus the
# cost of the empty start/stop markers (2 instructions on ARM, 4 on MIPS),
# with the smallest and largest single region, the units the operation
# covered (bytes for rr_open, joints or vertex influences for EMI; 0 = "-"),
# instructions per unit, and the ratio to the baseline operation the program
# measured in the same run (ratio < 1: faster than the baseline).
# Programs print "BENCH <label> <units> <baseline>" before each region (see
# tests/bench/b_open.c); the i-th line goes with the i-th region. Then the
# (blob size against source size: `make size`, which `make bench` runs after this).
# BENCH_SIZES=0 leaves the size table out.
build=$1 boards=$2 progs=$3
so=$build/bench/icount.so
mkdir -p "$build/bench"
if [ ! -f "$so" ] || [ tests/bench/plugin/icount.c -nt "$so" ]; then
    gcc -O2 -shared -fPIC -o "$so" tests/bench/plugin/icount.c || exit 1
fi
fmt='%-12s %-36s %5s %10s %10s %10s %7s %9s %-34s %8s\n'
printf "$fmt" board operation runs insns/op min max units insn/unit baseline ratio
status=0
for b in $boards; do
    case "$b" in malta*) marker=4 ;; *) marker=2 ;; esac
    for p in $progs; do
        elf=$build/$b/$p.elf
        [ -f "$elf" ] || { echo "$b: $p skipped (does not fit this board)"; continue; }
        out=$build/bench/$b-$p
        ICOUNT_SO=$so sh tests/bench/icount.sh "$b" "$elf" "$out.icount" > /dev/null 2> "$out.log" ||
            { echo "FAIL bench $b/$p (see $out.log)"; status=1; continue; }
        grep '^BENCH ' "$out.log" > "$out.labels"
        grep '^region ' "$out.icount" | awk '{print $3}' > "$out.counts"
        if [ "$(wc -l < "$out.labels")" != "$(wc -l < "$out.counts")" ]; then
            echo "FAIL bench $b/$p: $(wc -l < "$out.labels") labels, $(wc -l < "$out.counts") regions"
            status=1
            continue
        fi
        paste -d' ' "$out.labels" "$out.counts" | awk -v board="$b" -v marker="$marker" -v fmt="$fmt" '
            function r3(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : x >= 1 ? sprintf("%.2f", x) : sprintf("%.3g", x) }
            { label=$2; c=$5-marker; n[label]++; sum[label]+=c; units[label]=$3; base[label]=$4
              if (!(label in mn) || c < mn[label]) mn[label]=c
              if (!(label in mx) || c > mx[label]) mx[label]=c
              if (!(label in seen)) { seen[label]=1; order[++k]=label } }
            END {
                for (i=1; i<=k; i++) {
                    l=order[i]; avg=sum[l]/n[l]
                    ipu = units[l] > 0 ? r3(avg/units[l]) : "-"
                    if (base[l] != "-" && (base[l] in sum)) {
                        ratio=r3(avg/(sum[base[l]]/n[base[l]]))
                    } else { ratio="-" }
                    u = (units[l] > 0) ? units[l] : "-"
                    printf(fmt, board, l, n[l], sprintf("%.0f", avg), mn[l], mx[l], u, ipu, base[l], ratio)
                }
            }'
    done
done
# What the programs say besides BENCH lines (room facts, agreement of each
# query with its brute-force reference), from the first board each ran on,
# and the boards whose notes differ from it (the answers are the same on
# every board: only the EMI float comparison is missing where no float runs).
echo
echo "notes (first board; boards with other notes are named):"
for p in $progs; do
    first="" others=""
    for b in $boards; do
        log=$build/bench/$b-$p.log
        if [ ! -f "$log" ] || [ ! -f "$build/$b/$p.elf" ]; then continue; fi
        grep -v '^BENCH ' "$log" > "$log.notes"
        if [ -z "$first" ]; then
            first=$b
        elif ! cmp -s "$build/bench/$first-$p.log.notes" "$log.notes"; then
            others="$others $b"
        fi
    done
    [ -n "$first" ] || continue
    sed "s|^|  $p ($first): |" "$build/bench/$first-$p.log.notes"
    [ -z "$others" ] || echo "  $p: other notes on:$others"
done
exit $status

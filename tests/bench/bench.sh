#!/bin/sh
# bench.sh BUILD "BOARDS" "PROGRAMS" - run each bench program on each QEMU
# board under the icount plugin and print one table: exact executed
# instructions per measured operation (identical on every run), the bytes it
# covered, instructions per byte, and the ratio to the baseline operation the
# program measured in the same run. Programs print "BENCH <label> <bytes>
# <baseline>" before each region (see tests/bench/b_open.c).
build=$1 boards=$2 progs=$3
so=$build/bench/icount.so
mkdir -p "$build/bench"
if [ ! -f "$so" ] || [ tests/bench/plugin/icount.c -nt "$so" ]; then
    gcc -O2 -shared -fPIC -o "$so" tests/bench/plugin/icount.c || exit 1
fi
printf '%-12s %-34s %6s %12s %10s %9s %-28s %8s\n' board operation runs insns/op bytes insn/byte baseline ratio
for b in $boards; do
    for p in $progs; do
        elf=$build/$b/$p.elf
        [ -f "$elf" ] || { echo "$b: $p skipped (does not fit this board)"; continue; }
        out=$build/bench/$b-$p
        ICOUNT_SO=$so sh tests/bench/icount.sh "$b" "$elf" "$out.icount" > /dev/null 2> "$out.log" ||
            { echo "FAIL bench $b/$p (see $out.log)"; continue; }
        grep '^BENCH ' "$out.log" > "$out.labels"
        grep '^region ' "$out.icount" | awk '{print $3}' > "$out.counts"
        paste -d' ' "$out.labels" "$out.counts" | awk -v board="$b" '
            { label=$2; n[label]++; sum[label]+=$5; bytes[label]=$3; base[label]=$4
              if (!(label in seen)) { seen[label]=1; order[++k]=label } }
            END {
                for (i=1; i<=k; i++) {
                    l=order[i]; avg=sum[l]/n[l]
                    ipb = bytes[l] > 0 ? sprintf("%.2f", avg/bytes[l]) : "-"
                    if (base[l] != "-" && (base[l] in sum)) {
                        bavg=sum[base[l]]/n[base[l]]; ratio=sprintf("%.2f", avg/bavg)
                    } else { ratio="-" }
                    printf "%-12s %-34s %6d %12.0f %10d %9s %-28s %8s\n", board, l, n[l], avg, bytes[l], ipb, base[l], ratio
                }
            }'
    done
done

#!/bin/sh
# corpus.sh RRBAKE CORPUS OUTDIR - per corpus file: source size, blob size
# baked in full and with --collision-only, their ratio to the source, the
# arena the blob declares and its deepest tree. Writes OUTDIR/corpus.csv and
# prints a Markdown table (docs/footprint.md quotes it).
# EMI has no public files: the project's own sample figures stand in.
set -e
rrbake=$1 corpus=$2 out=$3
mkdir -p "$out/corpus"
csv=$out/corpus.csv
echo "file,source_bytes,blob_bytes,collision_only_bytes,ratio_full,ratio_collision,arena_bytes,max_depth" > "$csv"
printf '| file | source | blob | collision-only | blob/source | c.-only/source | arena | depth |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
files=$(cd "$corpus" && find . -type f \( -name '*.roo' -o -name '*.rmf' -o -name '*.rmesh' \) | sed 's|^\./||' | sort)
samples=$(cd "$out/../samples" 2>/dev/null && ls *.emi 2>/dev/null | sed 's|^|samples/|')
for f in $files $samples; do
    case "$f" in samples/*) src=$out/../$f ;; *) src=$corpus/$f ;; esac
    o=$out/corpus/$(printf '%s' "$f" | tr '/' '_')
    if ! "$rrbake" bake "$src" -o "$o.rrb" -q 2> "$o.err" ||
       ! "$rrbake" bake "$src" -o "$o.c.rrb" --collision-only -q 2>> "$o.err"; then
        why=$(head -1 "$o.err" | sed "s|^$corpus/||; s/|/\\|/g")
        echo "$f,$(wc -c < "$src"),rejected,rejected,,,," >> "$csv"
        printf '| %s | %d | rejected: %s | | | | | |\n' "$f" "$(wc -c < "$src")" "$why"
        continue
    fi
    # an EMI figure's source is its manifest plus the three files it names
    case "$f" in
    *.emi) d=$(dirname "$src"); b=$(basename "$src" .emi)
           s=$(($(wc -c < "$src") + $(wc -c < "$d/$b.sklb") + $(wc -c < "$d/$b.meshb")))
           for a in $(grep -o '[A-Za-z0-9_]*\.animb' "$src"); do s=$((s + $(wc -c < "$d/$a"))); done ;;
    *) s=$(wc -c < "$src") ;;
    esac
    full=$(wc -c < "$o.rrb") col=$(wc -c < "$o.c.rrb")
    set -- $("$rrbake" info "$o.rrb" | sed -n 's/.*arena \([0-9]*\) bytes, max tree depth \([0-9]*\).*/\1 \2/p')
    rf=$(awk -v a="$full" -v b="$s" 'BEGIN {printf "%.2f", a / b}')
    rc=$(awk -v a="$col" -v b="$s" 'BEGIN {printf "%.2f", a / b}')
    echo "$f,$s,$full,$col,$rf,$rc,$1,$2" >> "$csv"
    printf '| %s | %d | %d | %d | %s | %s | %d | %d |\n' "$f" "$s" "$full" "$col" "$rf" "$rc" "$1" "$2"
done

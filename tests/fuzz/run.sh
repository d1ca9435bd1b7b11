#!/bin/sh
# run.sh BUILD SECONDS [TARGET...] - build each libFuzzer target with clang
# (-fsanitize=fuzzer,address,undefined), replay its regression files
# (tests/fuzz/regress/<target>/, crashes found earlier, kept forever), then
# fuzz it for SECONDS seconds from a corpus seeded with the baked blobs and
# sample files (build/fuzz/<target>/corpus). A crash is copied into the
# regression folder and fails the run. Prints "# fuzz <t>: N passed, M failed".
# Targets: open (rr_open + queries, seeded with every baked blob), reader
# (every source reader), and open-rmesh, open-rmf, open-roo, open-emi: the
# open target seeded with the little-endian blobs of one format only, so
# that each runtime gets its own fuzzing time (make fuzz-formats).
build=$1 secs=$2
shift 2
targets=${*:-"open reader"}
srcs_loader=$(ls loader/*.c)
srcs_tools=$(ls tools/*.c | grep -v 'tools/rrbake.c')
status=0
for t in $targets; do
    d=$build/fuzz/$t
    mkdir -p "$d/corpus" "$d/crashes" "tests/fuzz/regress/$t"
    src=$t
    if [ "$t" = open ]; then
        extra="" seeds=$(find "$build" -path "$build/fuzz" -prune -o -name '*.rrb' -print 2>/dev/null | head -200)
    elif [ "${t#open-}" != "$t" ]; then
        # header word 6 (byte 24) is the format: 1 rmesh, 2 rmf, 3 roo, 4 emi
        case ${t#open-} in rmesh) want=1 ;; rmf) want=2 ;; roo) want=3 ;; emi) want=4 ;; esac
        src=open extra="" seeds=$(find "$build" -path "$build/fuzz" -prune -o -name '*.rrb' \
            -size -1024k -print 2>/dev/null | while read -r b; do
                [ "$(od -An -tu4 -j4 -N4 "$b" | tr -d ' ')" = 16909060 ] &&
                [ "$(od -An -tu4 -j24 -N4 "$b" | tr -d ' ')" = "$want" ] && echo "$b"; done | head -200)
    else
        # the project's samples and the small real files of every format
        extra=$srcs_tools seeds=$(find "$build/samples" "${CORPUS:-../shared/corpus}" -type f \
            ! -name '.*' ! -name '*.md' -size -64k 2>/dev/null)
    fi
    # shellcheck disable=SC2086
    clang -std=gnu99 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -Iloader -Itools -Itests/fuzz -o "$d/fuzz_$t" "tests/fuzz/fuzz_$src.c" $extra $srcs_loader -lm \
        > "$d/build.log" 2>&1 || { echo "FAIL fuzz $t: build failed (see $d/build.log)"
             echo "# fuzz $t: 0 passed, 1 failed"; status=1; continue; }
    for s in $seeds; do cp "$s" "$d/corpus/" 2>/dev/null; done
    p=0 f=0
    if [ -n "$(ls "tests/fuzz/regress/$t")" ]; then  # .keep is hidden
        if "$d/fuzz_$t" -runs=0 tests/fuzz/regress/$t/* > "$d/replay.log" 2>&1; then
            p=$((p + 1)); else f=$((f + 1)); echo "FAIL fuzz $t: a regression file crashes again"; fi
    fi
    if "$d/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
        -artifact_prefix="$d/crashes/" "$d/corpus" > "$d/fuzz.log" 2>&1; then
        p=$((p + 1))
    else
        f=$((f + 1)); status=1
        echo "FAIL fuzz $t: crash (see $d/fuzz.log); saved to tests/fuzz/regress/$t/"
        cp "$d"/crashes/* "tests/fuzz/regress/$t/" 2>/dev/null
    fi
    execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$d/fuzz.log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$d/fuzz.log" | tail -1)
    echo "# fuzz $t: $p passed, $f failed ($secs s, ${execs:-?} executions, ${cov:-cov: ?})"
done
exit $status

#!/bin/sh
# runner.sh BUILD CORPUS "BOARDS" "HOST_TESTS" "TARGET_TESTS" STACK_BOUND FUZZ_SECONDS "GOLDEN_ROOMS" JOBS
# Runs everything `make test` built and prints one summary line at the end:
#   N passed, N failed
# Counted: every check of every host test, target program and golden program
# (their "# suite: N passed, M failed" lines; a golden program's on the host
# only, since its whole output is then compared), the build checks per board
# (symbols, stack, recursion), the checker self-test, one comparison per
# target program per QEMU board (its output must equal the host's byte for
# byte), and one comparison per golden room per QEMU board (its output must
# equal the golden the host wrote, build/golden/<room>.txt, byte for byte),
# the example project's builds from an installed prefix (one per board
# and build system; a build that fails counts as a failure), and rrbake
# emulate's checks from that prefix (tests/check_emulate.sh).
# A program that crashes, times out or exits non-zero counts as one failure.
build=$1 corpus=$2 boards=$3 host_tests=$4 target_tests=$5 bound=$6 fuzz_secs=${7:-10}
golden_rooms=$8 jobs=${9:-2}
logs=$build/logs
mkdir -p "$logs"
P=0 F=0

count() {  # count LOGFILE: add up the suite lines of one run
    c=$(sed -n 's/^# .*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1 \2/p' "$1" |
        awk '{p+=$1; f+=$2} END {print p+0, f+0}')
    P=$((P + ${c% *})); F=$((F + ${c#* }))
}
show() {  # the suite lines and failures of a log
    grep -E '^(# |FAIL)' "$1" | head -40
}

echo "== host unit tests (ASan + UBSan)"
for t in $host_tests; do
    log=$logs/host-$t.log
    if timeout 900 "$build/hosttest/$t" "$corpus" > "$log" 2>&1; then :; else
        echo "FAIL $t: exit status $?"; F=$((F + 1)); fi
    show "$log"; count "$log"
done

echo "== generated documentation (docs/blob-format.md from the schemas: make docs)"
if "$build/tools/rrbake" schema --markdown | cmp -s - docs/blob-format.md; then
    echo "# docs: docs/blob-format.md matches the schemas"; P=$((P + 1))
else
    echo "FAIL docs/blob-format.md is stale: run make docs and commit it"; F=$((F + 1))
fi

echo "== fuzzing, $fuzz_secs s per target (make fuzz runs longer), regressions replayed"
CORPUS="$corpus" sh tests/fuzz/run.sh "$build" "$fuzz_secs" > "$logs/fuzz.log" 2>&1
show "$logs/fuzz.log"; count "$logs/fuzz.log"

echo "== build checks (symbols, recursion, stack <= $bound bytes per public function unless the board says otherwise)"
sh tests/check_selftest.sh > "$logs/check-selftest.log" 2>&1 || true
show "$logs/check-selftest.log"; count "$logs/check-selftest.log"
for b in $boards; do
    nm=$(make -s --no-print-directory BOARD="$b" print-BOARD_NM)
    bb=$(make -s --no-print-directory BOARD="$b" print-BOARD_STACK_BOUND)
    bb=${bb:-$bound}
    hs=$(make -s --no-print-directory BOARD="$b" print-BOARD_HELPER_STACK)
    log=$logs/checks-$b.log
    { python3 tests/check_symbols.py "$nm" "$build/$b/librr.a"
      python3 tests/check_stack.py ${hs:+--helper $hs} "$build/$b/loader" "$bb"
      if [ "$b" != host ]; then  # no FPU instruction in any linked test program
          od=$(printf '%s' "$nm" | sed 's/nm$/objdump/')
          sh tests/check_fpu.sh "$b" "$od" $(for t in $target_tests; do
              [ -f "$build/$b/$t.elf" ] && echo "$build/$b/$t.elf"; done) \
              $(find "$build/$b/golden" -name '*.elf' 2>/dev/null | sort)
      fi; } > "$log" 2>&1
    show "$log"; count "$log"
done

echo "== target test programs"
for b in $boards; do
    run=$(make -s --no-print-directory BOARD="$b" print-BOARD_RUN)
    [ "$b" = host ] && run="timeout 600"
    skip=" $(make -s --no-print-directory BOARD="$b" print-BOARD_SKIP_TESTS) "
    for t in $target_tests; do
        case "$skip" in *" $t "*) echo "$b/$t: skipped (does not fit this board, see platform/$b/board.mk)"; continue ;; esac
        out=$build/$b/$t.out
        # shellcheck disable=SC2086
        $run "$build/$b/$t.elf" > "$out" 2> "$build/$b/$t.err"
        rc=$?
        if [ $rc != 0 ]; then
            echo "FAIL $b/$t: exit status $rc"; F=$((F + 1))
            tail -3 "$build/$b/$t.err"
        fi
        grep -E '^FAIL' "$out" | sed "s|^|$b: |" | head -20
        count "$out"
        if [ "$b" != host ]; then
            if cmp -s "$out" "$build/host/$t.out"; then
                P=$((P + 1))
                echo "$b/$t: output identical to host ($(wc -l < "$out") lines)"
            else
                F=$((F + 1))
                echo "FAIL $b/$t: output differs from host:"
                diff "$build/host/$t.out" "$out" | head -10
            fi
        fi
    done
done
# ---- Goldens: one program per room and board (Makefile, "Golden outputs") ----
golden_src() {  # the source file of a golden room
    case "$1" in
    emi/*) echo "$build/samples/${1#emi/}.emi" ;;
    *) for f in "$corpus/$1".*; do echo "$f"; done ;;
    esac
}
golden_check() {  # golden_check BOARD ROOM VARIANT: compare one output with its golden
    o=$build/$1/golden/$2.$3
    g=$build/golden/$2.txt
    [ "$3" = co ] && g=$build/golden/$2.collision-only.txt
    rc=$(cat "$o.rc" 2>/dev/null || echo missing)
    if [ "$rc" != 0 ]; then
        echo "FAIL $1/$2 ($3 blob): exit status $rc"; F=$((F + 1)); tail -3 "$o.err"
    fi
    grep -E '^FAIL' "$o.out" | sed "s|^|$1/$2: |" | head -20
    if [ "$1" = host ]; then   # the program's own checks count once, on the host
        count "$o.out"; cp "$o.out" "$g"; return
    fi
    if [ ! -f "$g" ]; then
        echo "FAIL $1/$2: no golden $g (host program missing)"; F=$((F + 1))
    elif cmp -s "$o.out" "$g"; then
        P=$((P + 1)); same=$((same + 1))
    else
        F=$((F + 1))
        echo "FAIL $1/$2 ($3 blob): output differs from the golden $g:"
        diff "$g" "$o.out" | head -10
    fi
}

t0=$(date +%s)
echo "== goldens: $(echo $golden_rooms | wc -w) rooms (the host's output is the golden, build/golden/), each board byte for byte"
for b in $boards; do
    run=$(make -s --no-print-directory BOARD="$b" print-BOARD_RUN)
    [ "$b" = host ] && run="timeout 600" && rm -rf "$build/golden"
    # every program of the board, $jobs at a time (QEMU is the cost)
    find "$build/$b/golden" -name '*.elf' | sort | RUN=$run xargs -r -P "$jobs" -n 1 sh -c \
        '$RUN "$1" > "${1%.elf}.out" 2> "${1%.elf}.err"; echo $? > "${1%.elf}.rc"' sh
    same=0 skipped=0
    for r in $golden_rooms; do
        p=$build/$b/golden/$r
        mkdir -p "$build/golden/$(dirname "$r")"
        src=$(golden_src "$r")
        if [ -f "$p.refused" ]; then
            if [ "$b" != host ]; then continue; fi
            # refused, once: right only for an empty source (nothing to bake)
            cp "$p.refused" "$build/golden/$r.txt"
            if [ -f "$src" ] && [ ! -s "$src" ]; then
                P=$((P + 1)); echo "host/$r: refused by the baker, as an empty source must be: $(cat "$p.refused")"
            else
                F=$((F + 1)); echo "FAIL host/$r: the baker refuses a non-empty source: $(cat "$p.refused")"
            fi
        elif [ -f "$p.skip" ]; then
            echo "$b/$r: $(cat "$p.skip")"; skipped=$((skipped + 1))
        elif [ ! -f "$p.full.elf" ] && [ ! -f "$p.co.elf" ]; then
            echo "FAIL $b/$r: no golden program built"; F=$((F + 1))
        else
            if [ "$b" = host ] && [ -f "$src" ] && [ ! -s "$src" ]; then
                echo "FAIL host/$r: an empty source was baked"; F=$((F + 1))
            fi
            for v in full co; do
                [ -f "$p.$v.elf" ] && golden_check "$b" "$r" "$v"
            done
        fi
    done
    if [ "$b" = host ]; then
        echo "host: $(find "$build/golden" -name '*.txt' | wc -l) goldens written"
    else
        echo "$b: $same rooms identical to their golden, $skipped skipped"
    fi
done
echo "goldens: ran in $(($(date +%s) - t0)) s"

# ---- The example project (issue 19): built from `make install`'s prefix
# only, with its Makefile (pkg-config) and its CMakeLists.txt, on every board;
# one check per build whose output must equal the host's (tests/example-project/check.sh).
echo "== example project from the installed prefix (make + pkg-config, CMake), each board byte for byte"
sh tests/example-project/check.sh "$build" "$boards" > "$logs/example-project.log" 2>&1
grep -vE '^# ' "$logs/example-project.log"; count "$logs/example-project.log"
grep -q '^# example-project:' "$logs/example-project.log" ||
    { echo "FAIL example project: check.sh ended without its summary"; F=$((F + 1)); }

# ---- rrbake emulate from that prefix: a file of queries per room answered on
# every QEMU board, compared with the host's (tests/check_emulate.sh).
echo "== rrbake emulate from the installed prefix: queries answered on each board, compared with the host's"
sh tests/check_emulate.sh "$build/example/prefix" "$boards" "$build/emulate" > "$logs/emulate.log" 2>&1
grep -vE '^# ' "$logs/emulate.log"; count "$logs/emulate.log"
grep -q '^# emulate:' "$logs/emulate.log" ||
    { echo "FAIL emulate: check_emulate.sh ended without its summary"; F=$((F + 1)); }

echo "$P passed, $F failed"
[ $F = 0 ]

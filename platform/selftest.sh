#!/bin/sh
# selftest.sh - build platform/selftest on every board from board.mk alone; check output, exit status 3 and icount numbers.
#
# Usage: platform/selftest.sh [BOARD...]      (default: all five boards)
# For each board: make -f platform/selftest.mk builds the program (and a
# static library) with nothing but the board.mk variables; BOARD_RUN runs
# it; its stdout must equal platform/selftest.expected byte for byte and
# its exit status must be 3. On the QEMU boards tests/bench/icount.sh then
# runs it twice under the icount plugin; both results must equal the
# expected count below. Logs are left in build/selftest/<board>/.
set -u
cd "$(dirname "$0")/.." || exit 2

boards=${*:-host mps2-an385 versatilepb malta-be malta-le}
top=build/selftest
so=$top/icount.so
failed=0

fail() {
    echo "FAIL $1: $2"
    failed=1
    board_ok=0
}

# The two bench regions of selftest.c, as "insns regions":
#   ARM (Thumb-2 and ARM state alike): empty region 2 (bx lr; bl stop) +
#   loop region 2003 (bx lr; mov #1000; 1000 x (subs; bne); bl stop).
#   MIPS: empty region 4 (jr ra; nop; jal stop; nop) + loop region 3005
#   (jr ra; nop; li 1000; 1000 x (addiu; bnez; nop); jal stop; nop).
expected_icount() {
    case $1 in
    mps2-an385 | versatilepb) echo "2005 2" ;;
    malta-be | malta-le) echo "3009 2" ;;
    esac
}

mkdir -p "$top"
if ! gcc -O2 -shared -fPIC -Wall -Wextra -Werror -o "$so" tests/bench/plugin/icount.c; then
    echo "FAIL: icount plugin does not build"
    exit 1
fi

for b in $boards; do
    board_ok=1
    dir=$top/$b
    elf=$dir/selftest.elf
    mkdir -p "$dir"
    if ! make -s -f platform/selftest.mk BOARD="$b" >"$dir/build.log" 2>&1; then
        fail "$b" "build (see $dir/build.log)"
        continue
    fi
    run=$(make -s -f platform/board-vars.mk BOARD="$b" print-BOARD_RUN)
    # $run is a command prefix: word splitting intended.
    $run "$elf" >"$dir/output.txt" 2>"$dir/stderr.txt"
    status=$?
    [ "$status" -eq 3 ] || fail "$b" "exit status $status, expected 3"
    cmp -s "$dir/output.txt" platform/selftest.expected ||
        fail "$b" "output differs: diff platform/selftest.expected $dir/output.txt"
    [ -s "$dir/stderr.txt" ] && fail "$b" "unexpected stderr: $dir/stderr.txt"

    what="output, exit 3"
    if [ -n "$(make -s -f platform/board-vars.mk BOARD="$b" print-BOARD_QEMU)" ]; then
        want=$(expected_icount "$b")
        got1=$(ICOUNT_SO=$so tests/bench/icount.sh "$b" "$elf" "$dir/icount1.txt" 2>/dev/null)
        got2=$(ICOUNT_SO=$so tests/bench/icount.sh "$b" "$elf" "$dir/icount2.txt" 2>/dev/null)
        if [ "$got1" != "$want" ] || [ "$got2" != "$want" ]; then
            fail "$b" "icount '$got1' then '$got2', expected '$want'"
        fi
        what="$what, icount $want (insns regions) twice"
    fi
    [ "$board_ok" -eq 1 ] && echo "ok   $b: $what"
done

[ "$failed" -eq 0 ] && echo "selftest: all boards pass"
exit "$failed"

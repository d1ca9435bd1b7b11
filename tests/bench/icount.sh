#!/bin/sh
# icount.sh - run a built ELF on BOARD's QEMU with the icount plugin and print "insns regions".
#
# Usage: ICOUNT_SO=path/to/icount.so tests/bench/icount.sh BOARD ELF OUTFILE
# (ICOUNT_EXTRA=key=value,... adds plugin arguments: profile.sh turns on
# the plugin's profile mode this way)
# Builds nothing. Finds rr_bench_start/rr_bench_stop with the board's nm,
# runs QEMU as platform/BOARD/board.mk says (program output goes to stderr,
# so stdout carries only the result), leaves "insns=N regions=M" in OUTFILE
# and prints "N M". Exits with the program's own exit status (so a caller
# can check it), or 1 if the plugin wrote nothing, or 2 on bad arguments.
set -eu

if [ $# -ne 3 ]; then
    echo "usage: ICOUNT_SO=icount.so $0 BOARD ELF OUTFILE" >&2
    exit 2
fi
board=$1 elf=$2 out=$3
: "${ICOUNT_SO:?set ICOUNT_SO to the built plugin (gcc -O2 -shared -fPIC tests/bench/plugin/icount.c)}"
top=$(cd "$(dirname "$0")/../.." && pwd)

var() {
    make -s --no-print-directory -C "$top" -f platform/board-vars.mk \
        BOARD="$board" "print-$1"
}
qemu=$(var BOARD_QEMU)
args=$(var BOARD_QEMU_ARGS)
nm=$(var BOARD_NM)
if [ -z "$qemu" ]; then
    echo "icount.sh: board $board has no QEMU" >&2
    exit 2
fi

addr() {
    a=$("$nm" "$elf" | awk -v s="$1" '$3 == s { print $1; exit }')
    if [ -z "$a" ]; then
        echo "icount.sh: $elf has no symbol $1" >&2
        exit 2
    fi
    echo "$a"
}
start=$(addr rr_bench_start)
stop=$(addr rr_bench_stop)

rm -f "$out"
status=0
# $args is a list of words on purpose (no word has spaces).
# shellcheck disable=SC2086
timeout 120 "$qemu" $args \
    -plugin "$ICOUNT_SO,start=$start,stop=$stop,out=$out${ICOUNT_EXTRA:+,$ICOUNT_EXTRA}" \
    -kernel "$elf" >&2 || status=$?
if [ ! -s "$out" ]; then
    echo "icount.sh: the plugin wrote no result to $out (exit status $status)" >&2
    exit 1
fi
sed -n "s/^insns=\([0-9]*\) regions=\([0-9]*\)$/\1 \2/p" "$out"
exit "$status"

#!/bin/sh
# run_demo.sh BOARD [ROOM] - the demo of `make run`: bake the project's own
# sample rooms (or the user's ROOM) for BOARD, link them into the demo program
# as const data, and run it in QEMU. Files the linked runtimes cannot bake yet
# are listed and skipped; with nothing bakeable, a synthetic blob is used.
board=$1 room=$2 build=build
list=$build/demo.blobs
rrbake=$build/tools/rrbake
tmp=$build/demo-check
mkdir -p "$tmp"
: > "$list.new"
if [ -n "$room" ]; then
    [ -f "$room" ] || { echo "make run: ROOM=$room: no such file" >&2; exit 1; }
    set -- "$room"
else
    # one sample room per format, made by the project's own writers
    set --
    for f in sample.rmesh sample.rmf sample.roo figure.emi; do
        [ -f "$build/samples/$f" ] && set -- "$@" "$build/samples/$f"
    done
fi
i=0
for f in "$@"; do
    if "$rrbake" bake "$f" -o "$tmp/check.rrb" -q 2> "$tmp/err"; then
        echo "$(basename "$f") $f" >> "$list.new"
        echo "baked  $f"
        i=$((i + 1))
    else
        echo "skip   $f: $(head -1 "$tmp/err")"
        [ -n "$room" ] && exit 1
    fi
done
[ $i = 0 ] && { echo "synthetic synth:4096" >> "$list.new"; echo "baked  synthetic blob (no sample bakeable yet)"; }
cmp -s "$list.new" "$list" 2>/dev/null || mv "$list.new" "$list"
rm -f "$list.new"
make --no-print-directory -s BOARD="$board" board-demo >/dev/null || exit 1
run=$(make -s --no-print-directory BOARD="$board" print-BOARD_RUN)
[ "$board" = host ] && run=""
echo "== running the demo on $board"
# shellcheck disable=SC2086
$run "$build/$board/demo.elf"

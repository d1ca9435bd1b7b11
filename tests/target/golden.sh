#!/bin/sh
# golden.sh PREFIX NAME SOURCE LIMIT BOARD RRBAKE ENDIAN_OPT CORPUS BUILD
# Choose and bake the blob of one room's golden program for one board (the
# Makefile's "Golden outputs" links PREFIX.full.elf and/or PREFIX.co.elf from
# what this leaves behind):
#   PREFIX.full/   the blob as `rrbake bake` writes it, and its one-room
#                  table (tests/gen_blobs.sh; the table names it NAME);
#   PREFIX.co/     the --collision-only blob, used instead when the full one
#                  is larger than LIMIT (the board's BOARD_BLOB_MAX, bytes;
#                  empty = no limit) and this one fits. The host prepares it
#                  too whenever it differs from the full blob, so that the
#                  host writes the golden of every blob a board may use;
#   PREFIX.skip    when no blob fits: "skipped (blob N bytes > M available)",
#                  N the smallest blob;
#   PREFIX.refused when the baker refuses SOURCE: its message (the runner
#                  checks on the host that only an empty source is refused).
set -e
p=$1 name=$2 src=$3 limit=$4 board=$5 rrbake=$6 endian=$7 corpus=$8 build=$9
rm -rf "$p.full" "$p.co" "$p.skip" "$p.refused" "$p.full.elf" "$p.co.elf"
mkdir -p "$(dirname "$p")"

bake() {  # bake VARIANT [rrbake options]: PREFIX.VARIANT/{blob, blobs.S, blobs.c}
    d=$p.$1
    shift
    mkdir -p "$d"
    printf '%s %s %s\n' "$name" "$src" "$*" > "$d/list"
    sh tests/gen_blobs.sh "$d/list" "$d" "$rrbake" "$endian" "$corpus" "$build" 2> "$d/err"
}
size() {  # size VARIANT: bytes of its blob
    for f in "$p.$1"/*.rrb; do wc -c < "$f" | tr -d ' '; done
}

if ! bake full; then
    { printf 'source %s bytes: ' "$(wc -c < "$src" | tr -d ' ')"; cat "$p.full/err"; } > "$p.refused"
    rm -rf "$p.full"
    exit 0
fi
full=$(size full)
if [ "$board" = host ]; then
    bake co --collision-only
    if cmp -s "$p.full"/*.rrb "$p.co"/*.rrb; then   # no render data to leave out
        rm -rf "$p.co"
    fi
    exit 0
fi
if [ -z "$limit" ] || [ "$full" -le "$limit" ]; then
    exit 0
fi
bake co --collision-only
co=$(size co)
rm -rf "$p.full"
if [ "$co" -le "$limit" ]; then
    exit 0
fi
rm -rf "$p.co"
echo "skipped (blob $co bytes > $limit available)" > "$p.skip"

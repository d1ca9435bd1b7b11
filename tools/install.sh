#!/bin/sh
# install.sh install|uninstall PREFIX BUILD "BOARDS" - what `make install` does:
#   PREFIX/bin/rrbake
#   PREFIX/include/romroom/*.h          public headers (rr.h + each runtime's)
#   PREFIX/lib/romroom/<board>/librr.a  one static library per board
#   PREFIX/lib/pkgconfig/romroom-<board>.pc
# uninstall removes exactly those files.
set -e
mode=$1 prefix=$2 build=$3 boards=$4
inc=$prefix/include/romroom
headers=$(ls loader/*.h | grep -v 'rr_int.h')
if [ "$mode" = uninstall ]; then
    rm -f "$prefix/bin/rrbake"
    for h in $headers; do rm -f "$inc/$(basename "$h")"; done
    rmdir "$inc" 2>/dev/null || true
    for b in $boards; do
        rm -f "$prefix/lib/romroom/$b/librr.a" "$prefix/lib/pkgconfig/romroom-$b.pc"
        rmdir "$prefix/lib/romroom/$b" 2>/dev/null || true
    done
    rmdir "$prefix/lib/romroom" 2>/dev/null || true
    echo "romroom removed from $prefix"
    exit 0
fi
mkdir -p "$prefix/bin" "$inc" "$prefix/lib/pkgconfig"
install -m 755 "$build/tools/rrbake" "$prefix/bin/rrbake"
for h in $headers; do install -m 644 "$h" "$inc/"; done
for b in $boards; do
    mkdir -p "$prefix/lib/romroom/$b"
    install -m 644 "$build/$b/librr.a" "$prefix/lib/romroom/$b/librr.a"
    cflags=$(make -s --no-print-directory BOARD="$b" print-BOARD_CFLAGS | sed 's/--specs=[^ ]*//')
    cat > "$prefix/lib/pkgconfig/romroom-$b.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include/romroom
libdir=\${prefix}/lib/romroom/$b

Name: romroom-$b
Description: romroom runtime (baked game rooms, fixed point, zero malloc) for $b
Version: 0.1.0
Cflags: -I\${includedir} $cflags
Libs: -L\${libdir} -lrr
PC
done
echo "romroom installed in $prefix (rrbake, headers, librr.a and romroom-<board>.pc for: $boards)"

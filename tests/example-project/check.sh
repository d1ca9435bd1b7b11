#!/bin/sh
# check.sh BUILD "BOARDS" - the example project built from an installed prefix only.
#
# Run from the repository root (make test runs it from tests/runner.sh):
#   1. make install PREFIX=BUILD/example/prefix
#   2. copies this folder to BUILD/example/src, so that no relative path can
#      reach the source tree, and builds it there for every board twice: with
#      its Makefile (pkg-config) and with its CMakeLists.txt (find_package and
#      the board's toolchain file). Both bake their pack of sample rooms of
#      three formats with the installed rrbake.
#   3. runs every program (QEMU boards with the run command the .pc names)
#      and compares its output byte for byte with the host program's (made
#      with the Makefile).
# Checks, one each: the host program runs and opens every room of the pack
# (at least two formats); per other board, the Makefile build's output equals
# the host's; per board (host too), the CMake build's output equals the
# host's. A build that fails, a program that fails or times out, or a
# compile or link command naming the source tree's loader/, platform/ or
# linker/ counts as a failure of that check. One more: make uninstall from a
# prefix that holds a file of its own leaves exactly that file. Logs:
# BUILD/example/.
# Last line: "# example-project: N passed, M failed".
build=$1 boards=$2
repo=$(pwd)
case $build in /*) ;; *) build=$repo/$build ;; esac
ex=$build/example
prefix=$ex/prefix
P=0 F=0
pass() { P=$((P + 1)); echo "$1"; }
fail() { F=$((F + 1)); echo "FAIL $1"; }

rm -rf "$ex"
mkdir -p "$ex/src"
cp tests/example-project/Makefile tests/example-project/CMakeLists.txt tests/example-project/main.c \
   "$ex/src/"
for tool in pkg-config cmake; do
    command -v $tool > /dev/null || fail "example-project: $tool is not installed (apt-get install $tool)"
done
if ! make -s --no-print-directory install PREFIX="$prefix" BUILD="$build" > "$ex/install.log" 2>&1; then
    fail "example-project: make install PREFIX=$prefix failed (see $ex/install.log)"
    tail -5 "$ex/install.log"
fi
gen=
command -v ninja > /dev/null && gen="-G Ninja"

uses_tree() {  # uses_tree LOG: the build log names the source tree's library folders
    grep -qE "$repo/(loader|platform|linker)([/ ]|$)|(^| )-I *(\.\./)*(loader|platform)( |$)" "$1"
}
# build_make BOARD / build_cmake BOARD: build one way, print the program's path
build_make() {
    make --no-print-directory -C "$ex/src" ROMROOM="$prefix" BOARD="$1" OUT="$ex/make-$1" \
        > "$ex/make-$1.log" 2>&1 && ! uses_tree "$ex/make-$1.log" && echo "$ex/make-$1/example.elf"
}
build_cmake() {
    d=$ex/cmake-$1
    # shellcheck disable=SC2086
    cmake -S "$ex/src" -B "$d" $gen -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/romroom/toolchain-$1.cmake" \
        > "$d.log" 2>&1 && cmake --build "$d" -v >> "$d.log" 2>&1 && ! uses_tree "$d.log" &&
        for f in "$d/example.elf" "$d/example"; do [ -f "$f" ] && echo "$f" && break; done
}
run() {  # run BOARD ELF OUT: the board's run command from its .pc, 120 s at most
    cmd=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=run "romroom-$1")
    # shellcheck disable=SC2086
    timeout 120 $cmd "$2" > "$3" 2> "$3.err"
}
# check WAY BOARD: build, run and compare with the host's output
check() {
    elf=$(build_$1 "$2")
    out=$ex/$1-$2.out
    if [ -z "$elf" ]; then
        fail "$2 ($1): build failed or used the source tree (see $ex/$1-$2.log)"
        grep -E 'rror' "$ex/$1-$2.log" | head -5
        return
    fi
    run "$2" "$elf" "$out"
    rc=$?
    if [ $rc != 0 ]; then
        fail "$2 ($1): $elf exited with status $rc"; tail -3 "$out.err"
    elif [ "$1-$2" = make-host ]; then
        # the reference: every room opened, and rooms of two formats or more
        fmts=$(sed -n 's/^[^ ].*: format \([0-9]*\),.*/\1/p' "$out" | sort -u | wc -l)
        if grep -q '^# example: [1-9][0-9]* passed, 0 failed' "$out" && [ "$fmts" -ge 2 ]; then
            pass "host (make): $(grep -c ': format' "$out") rooms of $fmts formats opened and queried"
        else
            fail "host (make): rooms failed or fewer than two formats:"; grep -E '^(FAIL|#)' "$out"
        fi
    elif [ ! -s "$ex/make-host.out" ]; then
        fail "$2 ($1): no host output to compare with"
    elif cmp -s "$out" "$ex/make-host.out"; then
        pass "$2 ($1): output identical to host ($(wc -l < "$out") lines)"
    else
        fail "$2 ($1): output differs from host:"; diff "$ex/make-host.out" "$out" | head -10
    fi
}

check make host
for b in $boards; do
    [ "$b" = host ] || check make "$b"
done
for b in $boards; do
    check cmake "$b"
done
# make uninstall removes exactly what make install wrote: into a prefix that
# already holds a file of someone else's, install, uninstall, and only that
# file (and its folder) is left.
other=$ex/prefix-shared
mkdir -p "$other/lib/pkgconfig" && echo keep > "$other/lib/pkgconfig/other.pc"
if make -s --no-print-directory install PREFIX="$other" BUILD="$build" > "$ex/install2.log" 2>&1 &&
   [ -f "$other/lib/pkgconfig/romroom-host.pc" ] &&
   make -s --no-print-directory uninstall PREFIX="$other" BUILD="$build" >> "$ex/install2.log" 2>&1 &&
   [ "$(cd "$other" && find . | sort | tr '\n' ' ')" = ". ./lib ./lib/pkgconfig ./lib/pkgconfig/other.pc " ]
then
    pass "make uninstall: removed every file and folder install made, kept the prefix's own"
else
    fail "make uninstall: left or removed other files:"; (cd "$other" && find . | sort | head -20)
fi
echo "# example-project: $P passed, $F failed"

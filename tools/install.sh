#!/bin/sh
# install.sh install|uninstall PREFIX BUILD "BOARDS" [DESTDIR] - what `make install` does.
#
# Installs, under DESTDIR/PREFIX (the files name PREFIX alone, so a staged
# DESTDIR install works once copied to PREFIX):
#   bin/rrbake
#   include/romroom/*.h                    the loader's public headers, and
#                                          rr_plat.h (the platform layer's API)
#   lib/romroom/<board>/librr.a            the loader, nothing else
#   lib/romroom/<board>/librrplat.a        console, plat_printf, exit (and on
#                                          malta memcpy & co.): optional, replaceable
#   lib/romroom/<board>/*.o, *.ld          start-up objects and linker script,
#                                          where the board has them
#   lib/romroom/<board>/include/           malta only: its string.h, limits.h
#   lib/romroom/<board>/rr-emulate.elf     QEMU boards: the program `rrbake emulate` runs
#   lib/pkgconfig/romroom-<board>.pc       Cflags / Libs to compile and link a
#                                          firmware; variables cc and run
#   lib/cmake/romroom/romroomConfig.cmake  find_package(romroom): romroom::<board>
#   lib/cmake/romroom/romroomConfigVersion.cmake
#   lib/cmake/romroom/toolchain-<board>.cmake
#   lib/romroom/install-manifest.txt       every file above (and .dirs: the
#                                          directories install made)
# uninstall removes the files the manifest lists, the manifest, and then the
# directories install made, each if it is empty.
# Flags come from platform/<board>/board.mk (one source of truth with the
# project's own build), minus what is the user's choice: -O, -ffunction- and
# -fdata-sections. See docs/install.md.
set -e
mode=$1 prefix=$2 build=$3 boards=$4 destdir=$5
# The files name the prefix, so it must be absolute: a relative one is taken
# from the current folder (romroom's tree).
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
root=$destdir$prefix
manifest=lib/romroom/install-manifest.txt
version=0.1.0

if [ "$mode" = uninstall ]; then
    if [ ! -f "$root/$manifest" ]; then
        echo "romroom: nothing to remove in $root (no $manifest)"; exit 0
    fi
    # files first, then the directories install made (listed with a
    # trailing /), deepest first, each only if it is empty now
    grep -v '/$' "$root/$manifest" | while read -r f; do rm -f "$root/$f"; done
    rm -f "$root/$manifest"
    dirs=$(sort -r "$root/$manifest.dirs" 2>/dev/null || true)
    rm -f "$root/$manifest.dirs"
    for d in $dirs; do rmdir "$root/${d#./}" 2>/dev/null || true; done
    echo "romroom removed from $root"
    exit 0
fi

[ "$mode" = install ] || { echo "usage: install.sh install|uninstall PREFIX BUILD BOARDS [DESTDIR]" >&2; exit 2; }
newfiles=$(mktemp) newdirs=$(mktemp)
trap 'rm -f "$newfiles" "$newdirs"' EXIT
if [ ! -d "$root" ]; then   # the prefix itself, when install makes it ("./" sorts last)
    mkdir -p "$root"
    echo "./" >> "$newdirs"
fi
mkd() {  # mkd DIR (relative to the prefix): make it, recording each level made
    [ -d "$root/$1" ] && return 0
    [ "$(dirname "$1")" = . ] || mkd "$(dirname "$1")"
    mkdir "$root/$1"
    echo "$1/" >> "$newdirs"
}
mkd lib/romroom; mkd lib/pkgconfig; mkd lib/cmake/romroom; mkd bin; mkd include/romroom
put() {  # put MODE SRC DEST (DEST relative to the prefix)
    mkd "$(dirname "$3")"
    install -m "$1" "$2" "$root/$3"
    echo "$3" >> "$newfiles"
}
wrote() {  # wrote DEST: a file written in place, recorded
    echo "$1" >> "$newfiles"
}
var() {  # var BOARD NAME: one variable of platform/<board>/board.mk
    make -s --no-print-directory -f platform/board-vars.mk BOARD="$1" "print-$2"
}

put 755 "$build/tools/rrbake" bin/rrbake
for h in $(ls loader/*.h | grep -v 'rr_int.h') platform/rr_plat.h; do
    put 644 "$h" "include/romroom/$(basename "$h")"
done

cfg=lib/cmake/romroom/romroomConfig.cmake
cat > "$root/$cfg" <<EOF
# romroomConfig.cmake - find_package(romroom), written by romroom's make install.
# Targets: romroom::rrbake (the host tool) and, per board, romroom::<board>:
# the loader (librr.a) with the board's compile options, start-up, linker
# script and platform layer (librrplat.a: plat_printf, plat_exit). Use a
# board's target with that board's toolchain file (toolchain-<board>.cmake,
# which also sets ROMROOM_BOARD). romroom_<board>_RUN is the command that
# runs a program of that board (QEMU; empty on the host). See docs/install.md.
set(romroom_VERSION $version)
set(romroom_BOARDS $boards)
if(NOT TARGET romroom::rrbake)
  add_executable(romroom::rrbake IMPORTED)
  set_target_properties(romroom::rrbake PROPERTIES IMPORTED_LOCATION "$prefix/bin/rrbake")
endif()
EOF
wrote "$cfg"

for b in $boards; do
    lib=lib/romroom/$b
    libdir=$prefix/$lib
    cc=$(var "$b" BOARD_CC)
    put 644 "$build/$b/librr.a" "$lib/librr.a"
    put 644 "$build/$b/plat/librrplat.a" "$lib/librrplat.a"
    # the board program of `rrbake emulate` (QEMU boards)
    if [ -n "$(var "$b" BOARD_QEMU)" ]; then put 644 "$build/$b/rr-emulate.elf" "$lib/rr-emulate.elf"; fi

    # Compile flags: arch and ABI kept; picolibc's --specs becomes its
    # header path (the specs file may appear only once on a command line,
    # and it must be on the link line); malta's header folder moves into
    # the prefix.
    cflags= mflags= specs= isys=
    for w in $(var "$b" BOARD_CFLAGS); do
        if [ -n "$isys" ]; then
            isys=
            case $w in
            */malta/include)
                for h in "$w"/*.h; do put 644 "$h" "$lib/include/$(basename "$h")"; done
                cflags="$cflags -isystem $libdir/include" ;;
            *) cflags="$cflags -isystem $w" ;;
            esac
            continue
        fi
        case $w in
        -O*|-ffunction-sections|-fdata-sections) ;;
        -isystem) isys=1 ;;
        --specs=*)
            specs=$w
            inc=$(echo | $cc $mflags "$w" -xc -E -v - 2>&1 | sed -n '/search starts here:/,/End of search/p' |
                  grep -m1 picolibc | tr -d ' ')
            cflags="$cflags -isystem $inc -ftls-model=local-exec" ;;
        -m*|-G*|-fno-pic) cflags="$cflags $w"; mflags="$mflags $w" ;;
        *) cflags="$cflags $w" ;;
        esac
    done
    # Link flags: the arch flags again (they pick the C library's and
    # libgcc's multilib), the specs, the board's start-up and linker script.
    ldflags= t=
    for w in $(var "$b" BOARD_LDFLAGS); do
        if [ -n "$t" ]; then
            t=; put 644 "$w" "$lib/$(basename "$w")"; ldflags="$ldflags -T $libdir/$(basename "$w")"; continue
        fi
        case $w in -T) t=1 ;; *) ldflags="$ldflags $w" ;; esac
    done
    startobjs=
    for s in $(var "$b" BOARD_PLAT_SRCS); do
        case $s in *.S)
            o=${s#*platform/}; o=$build/$b/plat/${o%.S}.o
            put 644 "$o" "$lib/$(basename "$o")"
            startobjs="$startobjs $libdir/$(basename "$o")" ;;
        esac
    done
    libs=$(var "$b" BOARD_LIBS)
    run=$(var "$b" BOARD_QEMU)
    [ -n "$run" ] && run="$run $(var "$b" BOARD_QEMU_ARGS) -kernel"
    cflags=${cflags# } mflags=${mflags# } ldflags=${ldflags# } startobjs=${startobjs# }

    pc=lib/pkgconfig/romroom-$b.pc
    pcflags() { echo "$*" | sed "s|$libdir|\${libdir}|g" | tr -s ' '; }
    cat > "$root/$pc" <<PC
prefix=$prefix
includedir=\${prefix}/include/romroom
libdir=\${prefix}/$lib
board=$b
cc=$cc
run=$run

Name: romroom-$b
Description: romroom loader (baked game rooms, fixed point, no malloc) and platform layer for $b
Version: $version
Cflags: $(pcflags "-I\${includedir} $cflags")
Libs: $(pcflags "$mflags $specs $ldflags $startobjs -L\${libdir} -lrr -lrrplat $libs")
PC
    wrote "$pc"

    # CMake: options as lists; a flag with its argument stays one SHELL: item
    # (CMake removes repeated options, which would split such pairs).
    cm_list() {  # cm_list FLAGS: a CMake list, "-isystem DIR" and "-T FILE" kept as one item
        out= pair=
        for w in $1; do
            if [ -n "$pair" ]; then w="SHELL:$pair $w"; pair=
            else case $w in -isystem|-T) pair=$w; continue ;; esac; fi
            out="$out${out:+;}$w"
        done
        echo "$out"
    }
    cm_libs=$(for x in $startobjs; do printf '%s;' "$x"; done)$libdir/librrplat.a$(for x in $libs; do printf ';%s' "$x"; done)
    cat >> "$root/$cfg" <<EOF

if(NOT TARGET romroom::$b)
  add_library(romroom::$b STATIC IMPORTED)
  set_target_properties(romroom::$b PROPERTIES
    IMPORTED_LOCATION "$libdir/librr.a"
    INTERFACE_INCLUDE_DIRECTORIES "$prefix/include/romroom"
    INTERFACE_COMPILE_OPTIONS "$(cm_list "$cflags")"
    INTERFACE_LINK_OPTIONS "$(cm_list "$mflags $specs $ldflags")"
    INTERFACE_LINK_LIBRARIES "$cm_libs")
endif()
set(romroom_${b}_RUN "$run")
EOF

    tc=lib/cmake/romroom/toolchain-$b.cmake
    {
        echo "# toolchain-$b.cmake - cmake -DCMAKE_TOOLCHAIN_FILE=<this file>: build for romroom's board $b."
        echo "# Link with the target romroom::$b (find_package(romroom)); ROMROOM_BOARD names the board."
        echo "set(ROMROOM_BOARD $b)"
        if [ "$b" != host ]; then
            echo "set(CMAKE_SYSTEM_NAME Generic)"
            echo "set(CMAKE_SYSTEM_PROCESSOR $(echo "$cc" | sed 's/-.*//'))"
            echo "# bare metal: CMake's compiler check builds a library, not a program"
            echo "set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)"
        fi
        echo "set(CMAKE_C_COMPILER $cc)"
        echo "set(CMAKE_ASM_COMPILER $cc)"
        echo "set(CMAKE_C_FLAGS_INIT \"$mflags\")"
        echo "set(CMAKE_ASM_FLAGS_INIT \"$mflags\")"
        echo "list(APPEND CMAKE_PREFIX_PATH \"$prefix\")"
    } > "$root/$tc"
    wrote "$tc"
done

vf=lib/cmake/romroom/romroomConfigVersion.cmake
cat > "$root/$vf" <<EOF
# romroomConfigVersion.cmake - find_package(romroom [version]): same major version, not older.
set(PACKAGE_VERSION $version)
string(REGEX MATCH "^[0-9]+" _romroom_major "\${PACKAGE_FIND_VERSION}")
if(PACKAGE_FIND_VERSION AND (PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION
                             OR NOT _romroom_major STREQUAL "${version%%.*}"))
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF
wrote "$vf"
# A file of an earlier install that this one no longer writes stays listed,
# so that uninstall still removes it.
# The directories install made go to a second list (install-manifest.txt.dirs).
if [ -f "$root/$manifest" ]; then cat "$root/$manifest" >> "$newfiles"; fi
if [ -f "$root/$manifest.dirs" ]; then cat "$root/$manifest.dirs" >> "$newdirs"; fi
sort -u "$newfiles" > "$root/$manifest"
sort -u "$newdirs" > "$root/$manifest.dirs"
rm -f "$newfiles" "$newdirs"
echo "romroom installed in $root: rrbake, headers, and per board librr.a, librrplat.a, start-up," \
     "romroom-<board>.pc, CMake package and toolchain file for: $boards"

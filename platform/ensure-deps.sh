#!/bin/sh
# ensure-deps.sh - install the Debian packages romroom needs, if missing.
# Called by every top-level make goal; costs one dpkg-query when all is there.
set -e
PKGS="gcc make python3 clang libclang-rt-14-dev gcc-arm-none-eabi libnewlib-arm-none-eabi picolibc-arm-none-eabi \
qemu-system-arm qemu-system-mips gcc-mips-linux-gnu gcc-mipsel-linux-gnu \
binutils-mips-linux-gnu binutils-mipsel-linux-gnu"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
echo "romroom: installing missing packages:$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "romroom: packages installed"

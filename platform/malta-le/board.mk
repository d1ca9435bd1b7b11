# malta-le/board.mk - MIPS32 little-endian (mipsel-linux-gnu-gcc, freestanding) on QEMU malta; code in platform/malta/.
# Variable contract: see platform/README.md. Include as platform/malta-le/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CROSS := mipsel-linux-gnu-
BOARD_QEMU  := qemu-system-mipsel
BOARD_APT   := gcc-mipsel-linux-gnu binutils-mipsel-linux-gnu qemu-system-mips
include $(BOARD_PLAT_DIR)/malta/malta.mk
# Largest blob (bytes) a test program may link here: linker/malta.ld has one
# 127 MB region for code, const data, .bss and the 512 KB stack; 126 MB for
# the blob leaves the rest about 512 KB (see tests/target/golden.sh).
BOARD_BLOB_MAX := 132120576

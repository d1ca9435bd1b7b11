# malta-be/board.mk - MIPS32 big-endian (mips-linux-gnu-gcc, freestanding) on QEMU malta; code in platform/malta/.
# Variable contract: see platform/README.md. Include as platform/malta-be/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CROSS := mips-linux-gnu-
BOARD_QEMU  := qemu-system-mips
BOARD_APT   := gcc-mips-linux-gnu binutils-mips-linux-gnu qemu-system-mips
include $(BOARD_PLAT_DIR)/malta/malta.mk
# Largest blob (bytes) a test program may link here: linker/malta.ld has one
# 127 MB region for code, const data, .bss and the 512 KB stack; 126 MB for
# the blob leaves the rest about 512 KB (see tests/target/golden.sh).
BOARD_BLOB_MAX := 132120576

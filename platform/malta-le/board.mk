# malta-le/board.mk - MIPS32 little-endian (mipsel-linux-gnu-gcc, freestanding) on QEMU malta; code in platform/malta/.
# Variable contract: see platform/README.md. Include as platform/malta-le/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CROSS := mipsel-linux-gnu-
BOARD_QEMU  := qemu-system-mipsel
BOARD_APT   := gcc-mipsel-linux-gnu binutils-mipsel-linux-gnu qemu-system-mips
include $(BOARD_PLAT_DIR)/malta/malta.mk

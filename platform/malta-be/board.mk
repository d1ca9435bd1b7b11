# malta-be/board.mk - MIPS32 big-endian (mips-linux-gnu-gcc, freestanding) on QEMU malta; code in platform/malta/.
# Variable contract: see platform/README.md. Include as platform/malta-be/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CROSS := mips-linux-gnu-
BOARD_QEMU  := qemu-system-mips
BOARD_APT   := gcc-mips-linux-gnu binutils-mips-linux-gnu qemu-system-mips
include $(BOARD_PLAT_DIR)/malta/malta.mk

# host/board.mk - native build (gcc, glibc stdio); programs run directly, no QEMU.
# Variable contract: see platform/README.md. Include as platform/host/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CC      := gcc
BOARD_AR      := ar
BOARD_NM      := nm
BOARD_OBJDUMP := objdump
BOARD_CFLAGS  := -O2 -ffunction-sections -fdata-sections
BOARD_LDFLAGS := -Wl,--gc-sections
BOARD_LIBS    :=
BOARD_PLAT_SRCS := $(BOARD_PLAT_DIR)/common/plat_printf.c \
                   $(BOARD_PLAT_DIR)/common/bench_markers.c \
                   $(BOARD_PLAT_DIR)/common/plat_stdio.c
# No emulator: "$(BOARD_RUN) ./prog.elf" runs the program itself (give a
# path with a slash). There is no QEMU and so no icount for this board.
BOARD_QEMU      :=
BOARD_QEMU_ARGS :=
BOARD_RUN       :=
BOARD_APT       := gcc libc6-dev make
# Largest blob a test program may link here: no limit (empty).
BOARD_BLOB_MAX :=

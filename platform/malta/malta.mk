# malta/malta.mk - settings shared by malta-be and malta-le (MIPS32, soft-float, freestanding); included by their board.mk.
# The including board.mk sets BOARD_PLAT_DIR, BOARD_CROSS (tool prefix),
# BOARD_QEMU and BOARD_APT before including this file.
BOARD_CC      := $(BOARD_CROSS)gcc
BOARD_AR      := $(BOARD_CROSS)ar
BOARD_NM      := $(BOARD_CROSS)nm
BOARD_OBJDUMP := $(BOARD_CROSS)objdump
# No C library: -ffreestanding, and -nostdinc so that only GCC's own headers
# (stdint.h, stddef.h, stdarg.h, limits.h, ...) and platform/malta/include
# (string.h subset) are seen; Debian's cross GCC would otherwise fall back
# to the host's /usr/include.
# -mno-abicalls -fno-pic -G0: plain absolute addressing, no $gp small data.
BOARD_CFLAGS  := -march=mips32 -msoft-float -mno-abicalls -fno-pic -G0 \
                 -ffreestanding -fno-stack-protector -fno-asynchronous-unwind-tables \
                 -nostdinc -isystem $(BOARD_PLAT_DIR)/malta/include \
                 -isystem $(shell $(BOARD_CC) -print-file-name=include) \
                 -O2 -ffunction-sections -fdata-sections
BOARD_LDFLAGS := -nostdlib -static -no-pie -T $(BOARD_PLAT_DIR)/../linker/malta.ld \
                 -Wl,--build-id=none \
                 -Wl,--gc-sections
# libgcc supplies the 64-bit helpers (__divdi3, __udivdi3, __moddi3, ...).
# Debian builds it PIC and hard-float, so ld warns "linking abicalls files
# with non-abicalls files" and "uses -mhard-float": harmless for these
# integer-only, $gp-free routines. --no-warn-mismatch would hide the warnings
# but also let objects of the other byte order link silently, so it is not used.
BOARD_LIBS    := -lgcc
BOARD_PLAT_SRCS := $(BOARD_PLAT_DIR)/common/plat_printf.c \
                   $(BOARD_PLAT_DIR)/common/bench_markers.c \
                   $(BOARD_PLAT_DIR)/malta/start.S \
                   $(BOARD_PLAT_DIR)/malta/plat_malta.c \
                   $(BOARD_PLAT_DIR)/malta/libc_min.c
# Serial port 0 (the 16550) on stdout; no monitor, display or network.
BOARD_QEMU_ARGS := -M malta -display none -vga none -nic none -monitor none \
                   -serial stdio -semihosting
BOARD_RUN       := timeout 120 $(BOARD_QEMU) $(BOARD_QEMU_ARGS) -kernel

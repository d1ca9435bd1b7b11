# mps2-an385/board.mk - Cortex-M3 (no FPU) on QEMU mps2-an385, picolibc, semihosting console and exit.
# Variable contract: see platform/README.md. Include as platform/mps2-an385/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CC      := arm-none-eabi-gcc
BOARD_AR      := arm-none-eabi-ar
BOARD_NM      := arm-none-eabi-nm
BOARD_OBJDUMP := arm-none-eabi-objdump
# --specs is needed when compiling too: it puts picolibc's headers on the path.
BOARD_CFLAGS  := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft --specs=picolibc.specs \
                 -O2 -ffunction-sections -fdata-sections
# Memory map in linker/mps2-an385.ld: code 4 MB, const data 16 MB,
# data+bss+heap+stack 4 MB (stack 512 KB).
BOARD_LDFLAGS := --oslib=semihost --crt0=semihost \
                 -T $(BOARD_PLAT_DIR)/../linker/mps2-an385.ld -Wl,--gc-sections
BOARD_LIBS    :=
BOARD_PLAT_SRCS := $(BOARD_PLAT_DIR)/common/plat_printf.c \
                   $(BOARD_PLAT_DIR)/common/bench_markers.c \
                   $(BOARD_PLAT_DIR)/common/plat_stdio.c
# Semihosting output goes to the chardev on stdout; no serial, monitor or
# display, so stdout carries the program's bytes only.
BOARD_QEMU      := qemu-system-arm
BOARD_QEMU_ARGS := -M mps2-an385 -display none -serial none -monitor none \
                   -chardev stdio,id=sh0 \
                   -semihosting-config enable=on,target=native,chardev=sh0
BOARD_RUN       := timeout 120 $(BOARD_QEMU) $(BOARD_QEMU_ARGS) -kernel
BOARD_APT       := gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm
# Largest blob (bytes) a test program may link here: linker/mps2-an385.ld
# puts all read-only data in the 16 MB PSRAM region; 64 KB of it are left
# for the program's other constants (see tests/target/golden.sh).
BOARD_BLOB_MAX := 16711680

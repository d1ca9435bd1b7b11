# versatilepb/board.mk - ARM926EJ-S (ARMv5TE, no FPU, ARM state) on QEMU versatilepb, newlib + rdimon semihosting.
# Variable contract: see platform/README.md. Include as platform/versatilepb/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CC      := arm-none-eabi-gcc
BOARD_AR      := arm-none-eabi-ar
BOARD_NM      := arm-none-eabi-nm
BOARD_OBJDUMP := arm-none-eabi-objdump
BOARD_CFLAGS  := -mcpu=arm926ej-s -marm -mfloat-abi=soft \
                 -O2 -ffunction-sections -fdata-sections
# newlib's default link script: the image from 0x8000 in the 128 MB of RAM;
# rdimon's crt0 asks QEMU (SYS_HEAPINFO) for heap and stack, which take the
# rest of RAM (the stack at its top).
BOARD_LDFLAGS := --specs=rdimon.specs -Wl,--gc-sections
BOARD_LIBS    :=
# vectors.S turns CPU exceptions into a report and exit status 1.
BOARD_PLAT_SRCS := $(BOARD_PLAT_DIR)/common/plat_printf.c \
                   $(BOARD_PLAT_DIR)/common/bench_markers.c \
                   $(BOARD_PLAT_DIR)/common/plat_stdio.c \
                   $(BOARD_PLAT_DIR)/versatilepb/vectors.S
# Semihosting output to the chardev on stdout; the PL041 sound device gets
# a silent backend so QEMU prints no audio warnings.
BOARD_QEMU      := qemu-system-arm
BOARD_QEMU_ARGS := -M versatilepb -cpu arm926 -display none -serial none -monitor none \
                   -audiodev none,id=snd0 -global pl041.audiodev=snd0 \
                   -chardev stdio,id=sh0 \
                   -semihosting-config enable=on,target=native,chardev=sh0
BOARD_RUN       := timeout 120 $(BOARD_QEMU) $(BOARD_QEMU_ARGS) -kernel
BOARD_APT       := gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
# Largest blob (bytes) a test program may link here: the image (code, blob,
# data) loads at 0x8000 into the 128 MB of RAM, whose rest is heap and
# stack; 120 MB for the blob leaves them about 8 MB (see tests/target/golden.sh).
BOARD_BLOB_MAX := 125829120

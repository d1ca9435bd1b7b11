# microbit/board.mk - Cortex-M0 (ARMv6-M: no 32x32->64 multiply, no divide) on QEMU microbit
# (nRF51: 256 KB flash at 0, 16 KB RAM at 0x20000000), picolibc, semihosting console and exit.
# Variable contract: see platform/README.md. Include as platform/microbit/board.mk.
BOARD_PLAT_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BOARD_CC      := arm-none-eabi-gcc
BOARD_AR      := arm-none-eabi-ar
BOARD_NM      := arm-none-eabi-nm
BOARD_OBJDUMP := arm-none-eabi-objdump
BOARD_CFLAGS  := -mcpu=cortex-m0 -mthumb -mfloat-abi=soft --specs=picolibc.specs \
                 -O2 -ffunction-sections -fdata-sections
# picolibc's own linker script, told the nRF51's memory: everything const
# (code and linked blobs) stays in flash; RAM holds data, bss, heap, stack.
BOARD_LDFLAGS := --oslib=semihost --crt0=semihost \
                 -Wl,--defsym=__flash=0 -Wl,--defsym=__flash_size=0x40000 \
                 -Wl,--defsym=__ram=0x20000000 -Wl,--defsym=__ram_size=0x4000 \
                 -Wl,--defsym=__stack_size=0x1000 -Wl,--gc-sections
BOARD_LIBS    :=
BOARD_PLAT_SRCS := $(BOARD_PLAT_DIR)/common/plat_printf.c \
                   $(BOARD_PLAT_DIR)/common/bench_markers.c \
                   $(BOARD_PLAT_DIR)/common/plat_stdio.c
BOARD_QEMU      := qemu-system-arm
BOARD_QEMU_ARGS := -M microbit -display none -serial none -monitor none \
                   -chardev stdio,id=sh0 \
                   -semihosting-config enable=on,target=native,chardev=sh0
BOARD_RUN       := timeout 120 $(BOARD_QEMU) $(BOARD_QEMU_ARGS) -kernel
BOARD_APT       := gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm
# Target test programs that do not fit this board (256 KB flash, 16 KB RAM),
# each with its reason; the runner reports them as skipped.
#   t_rmesh: its rooms bake to ~900 KB of blobs (flash is 256 KB)
#   t_roo:   its rooms bake to ~560 KB of blobs
#   b_roo:   its rooms bake to ~3.2 MB of blobs
#   b_rmesh: ~2.4 MB of blobs, and a 2 MB RAM copy of a blob
#   b_rmf:   ~425 KB of blobs, and a 32 KB arena
BOARD_SKIP_TESTS := t_rmesh t_roo b_roo b_rmesh b_rmf
# Largest blob (bytes) a test program may link here: the 256 KB of flash
# minus 40 KB for the program itself (a golden program, tests/target/g_room.c
# with one runtime, picolibc's printf and crt0, is 28-33 KB of Cortex-M0
# code). A golden room whose blob is larger uses its --collision-only blob
# if that fits, else the runner reports it as skipped (tests/target/golden.sh).
BOARD_BLOB_MAX := 221184
# The project-wide stack bound (512 bytes per public loader function) holds
# here too since 2026-11-23, although ARMv6-M has 8 low registers and no long
# multiply (every 64-bit product is an __aeabi_lmul call): the build check
# enforces it on this board like on every other (no BOARD_STACK_BOUND).
# Stack charged per call into libgcc by the stack check: Cortex-M0 has no
# 64-bit divide, and __aeabi_uldivmod's helper chain needs about 120 bytes
# (measured by stack painting, tests/footprint/fp_stack.c); 64 elsewhere.
BOARD_HELPER_STACK := 128

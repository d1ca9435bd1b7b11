# selftest.mk - build platform/selftest for one board from its board.mk variables only: make -f platform/selftest.mk BOARD=<b>
# Run from the repository root. Output: build/selftest/<board>/selftest.elf
BOARD ?= host
include platform/$(BOARD)/board.mk

SELFTEST_DIR  := build/selftest/$(BOARD)
# The strict warning set of STYLE.md, so the platform code is held to it too.
SELFTEST_WARN := -std=c99 -Wall -Wextra -Wshadow -Wconversion -Wdouble-promotion \
                 -Wvla -Wmissing-prototypes -Werror

all: $(SELFTEST_DIR)/selftest.elf

$(SELFTEST_DIR)/selftest_lib.o: platform/selftest_lib.c platform/selftest.h
	@mkdir -p $(@D)
	$(BOARD_CC) $(BOARD_CFLAGS) $(SELFTEST_WARN) -Iplatform -c $< -o $@

$(SELFTEST_DIR)/libselftest.a: $(SELFTEST_DIR)/selftest_lib.o
	rm -f $@
	$(BOARD_AR) rcs $@ $<

$(SELFTEST_DIR)/selftest.elf: platform/selftest.c platform/selftest.h platform/rr_plat.h \
                              $(SELFTEST_DIR)/libselftest.a $(BOARD_PLAT_SRCS)
	$(BOARD_CC) $(BOARD_CFLAGS) $(SELFTEST_WARN) -Iplatform platform/selftest.c \
	    $(SELFTEST_DIR)/libselftest.a $(BOARD_PLAT_SRCS) $(BOARD_LDFLAGS) $(BOARD_LIBS) -o $@

.PHONY: all

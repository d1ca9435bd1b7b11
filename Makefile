# romroom - one entry point.
#
#   make            rrbake (host tool) + the loader library for every board
#   make run        bake the sample rooms, run the demo on a QEMU board
#   make test       host unit tests, build checks, target tests on all boards
#   make bench      instruction counts in QEMU (table)
#   make profile PROG=b_rmesh LABEL=rmesh.ray:r173 [PROFILE_BOARD=mps2-an385]
#                   where one bench row's instructions go, per function
#   make fuzz       libFuzzer on rr_open+queries and every reader (FUZZ_SECONDS each)
#   make fuzz-formats  the same on rr_open+queries, one run per room format
#   make stack      per-function stack usage report per board (CSV)
#   make size       code / stack / arena / RAM / blob-size report (rewrites docs/footprint.md's tables)
#   make docs       docs/blob-format.md from the blob schemas (make test checks it)
#   make install PREFIX=/usr/local / make uninstall
#
# Missing Debian packages (cross compilers, picolibc, newlib, QEMU) are
# installed with apt-get on first use (see platform/ensure-deps.sh).

CORPUS  ?= ../shared/corpus
BOARDS  := mps2-an385 versatilepb malta-be malta-le microbit
ALL_BOARDS := host $(BOARDS)
RUN_BOARD ?= mps2-an385
BUILD   := build
PREFIX  ?= /usr/local
ROOM    ?=
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
# Fuzzing: seconds per target for `make fuzz`, and the short run in `make test`.
FUZZ_SECONDS ?= 600
FUZZ_TEST_SECONDS ?= 10

# Warnings for everything; CI (CI=true) turns them into errors.
WARN    := -Wall -Wextra -Wshadow -Wconversion -Wdouble-promotion -Wvla
ifeq ($(CI),true)
WERROR  := -Werror
endif

# Worst-case stack bytes any public loader function may use (checked by
# tests/check_stack.py from gcc -fcallgraph-info=su on every board).
STACK_BOUND ?= 512

# Optimisation of the loader for the boards: -O2, or -Os for the smallest
# code (make size reports both sizes; make bench LOADER_OPT=-Os BUILD=build-os
# measures what -Os costs in speed).
# Build it in its own directory: make LOADER_OPT=-Os BUILD=build-os ...
LOADER_OPT ?= -O2

# Loader sources: the freestanding runtime library.
LOADER_SRCS := $(sort $(wildcard loader/*.c))
LOADER_HDRS := $(wildcard loader/*.h)
TOOL_SRCS   := $(sort $(wildcard tools/*.c))
TOOL_LIB_SRCS := $(filter-out tools/rrbake.c,$(TOOL_SRCS))
HOST_TESTS  := $(patsubst tests/host/%.c,%,$(sort $(wildcard tests/host/test_*.c)))
TARGET_TESTS := $(patsubst tests/target/%.c,%,$(sort $(wildcard tests/target/t_*.c)))
BENCH_PROGS := $(patsubst tests/bench/%.c,%,$(sort $(wildcard tests/bench/b_*.c)))
# Golden outputs (see "Golden outputs" below): every file of these corpus
# folders, the EMI figures `rrbake sample` writes (no public EMI file
# exists) and its RMesh rooms in CBRE-EX's `RM` layout and with CBRE-EX
# custom entities (no public file has either), each named <folder>/<file
# name without extension>.
GOLDEN_DIRS := roo rmf scpcb-rmesh cbre-rmesh rmesh-variants
GOLDEN_EMI  := figure emi_gen1 emi_gen2
GOLDEN_RM   := sample_rm.rm sample_custom.rmesh
GOLDEN_SRCS := $(sort $(wildcard $(addprefix $(CORPUS)/,$(addsuffix /*.*,$(GOLDEN_DIRS)))))
GOLDEN_ROOMS := $(patsubst $(CORPUS)/%,%,$(basename $(GOLDEN_SRCS))) $(addprefix emi/,$(GOLDEN_EMI)) \
                $(addprefix rmesh-samples/,$(basename $(GOLDEN_RM)))

HOST_CC     ?= gcc
HOST_CFLAGS := -std=gnu99 -O2 -g $(WARN) $(WERROR) -Iloader -Itools -Iplatform -Itests
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

RRBAKE := $(BUILD)/tools/rrbake

.PHONY: all deps tools run test bench profile fuzz fuzz-formats stack size docs clean install uninstall \
        board-lib board-plat board-tests board-bench board-goldens help FORCE

# ------------------------------------------------------------------------
.SECONDEXPANSION:

ifeq ($(BOARD),)
# Top level: no board selected.

all: deps tools
	@for b in $(ALL_BOARDS); do $(MAKE) --no-print-directory BOARD=$$b board-lib board-plat || exit 1; done

help:
	@sed -n '3,14p' Makefile | sed 's/^# *//'

deps:
	@sh platform/ensure-deps.sh $(ALL_BOARDS)

tools: $(RRBAKE)

$(RRBAKE): $(TOOL_SRCS) $(LOADER_SRCS) $(wildcard tools/*.h) $(LOADER_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $(TOOL_SRCS) $(LOADER_SRCS) -lm

# Sample source files, written by the project's own writers.
$(BUILD)/samples/.stamp: $(RRBAKE)
	@mkdir -p $(BUILD)/samples
	$(RRBAKE) sample all -o $(BUILD)/samples || true
	@touch $@

samples: $(BUILD)/samples/.stamp

# Host unit tests, with AddressSanitizer and UBSan.
include platform/host/board.mk
HOST_PLAT_SRCS := $(BOARD_PLAT_SRCS)
# The tool, loader and platform sources are compiled once (ASan + UBSan) into
# $(BUILD)/hostobj and linked into every test.
HOSTOBJS := $(patsubst %.c,$(BUILD)/hostobj/%.o,$(TOOL_LIB_SRCS) $(LOADER_SRCS) $(HOST_PLAT_SRCS))
$(BUILD)/hostobj/%.o: %.c $(wildcard tools/*.h) $(LOADER_HDRS) $(wildcard platform/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -DRR_DEBUG -c -o $@ $<
$(BUILD)/hosttest/%: tests/host/%.c $(HOSTOBJS) $(wildcard tools/*.h) $(LOADER_HDRS) tests/rr_test.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -DRR_DEBUG -o $@ $< $(HOSTOBJS) -lm

host-tests: $(addprefix $(BUILD)/hosttest/,$(HOST_TESTS))

run: deps tools samples
	@sh tests/run_demo.sh "$(RUN_BOARD)" "$(ROOM)"

test: deps tools samples
	@$(MAKE) --no-print-directory -j$(JOBS) host-tests
	@for b in $(ALL_BOARDS); do \
	    $(MAKE) --no-print-directory -j$(JOBS) BOARD=$$b board-tests board-goldens || exit 1; done
	@sh tests/runner.sh "$(BUILD)" "$(CORPUS)" "$(ALL_BOARDS)" "$(HOST_TESTS)" \
	    "$(TARGET_TESTS)" "$(STACK_BOUND)" "$(FUZZ_TEST_SECONDS)" "$(GOLDEN_ROOMS)" "$(JOBS)"

fuzz: deps tools samples
	@for b in $(ALL_BOARDS); do \
	    $(MAKE) --no-print-directory -s -j$(JOBS) BOARD=$$b board-tests || exit 1; done
	@CORPUS="$(CORPUS)" sh tests/fuzz/run.sh "$(BUILD)" "$(FUZZ_SECONDS)"

# rr_open + queries fuzzed per format (FUZZ_SECONDS each, JOBS at a time).
FUZZ_FORMATS := open-rmesh open-rmf open-roo open-emi
fuzz-formats: deps tools samples
	@for b in $(ALL_BOARDS); do \
	    $(MAKE) --no-print-directory -s -j$(JOBS) BOARD=$$b board-tests board-goldens || exit 1; done
	@echo $(FUZZ_FORMATS) | tr ' ' '\n' | CORPUS="$(CORPUS)" xargs -P $(JOBS) -I{} \
	    sh tests/fuzz/run.sh "$(BUILD)" "$(FUZZ_SECONDS)" {}

bench: deps tools samples
	@for b in $(BOARDS); do $(MAKE) --no-print-directory BOARD=$$b board-bench || exit 1; done
	@CORPUS="$(CORPUS)" sh tests/bench/bench.sh "$(BUILD)" "$(BOARDS)" "$(BENCH_PROGS)"
	@$(MAKE) --no-print-directory size

# One bench program's regions labelled LABEL (every region without it) on one
# board, per function (tests/bench/profile.sh; the labels are make bench's rows).
PROFILE_BOARD ?= mps2-an385
PROG ?= b_rmesh
LABEL ?=
profile: deps tools samples
	@$(MAKE) --no-print-directory BOARD=$(PROFILE_BOARD) $(BUILD)/$(PROFILE_BOARD)/$(PROG).elf
	@sh tests/bench/profile.sh "$(BUILD)" "$(PROFILE_BOARD)" "$(PROG)" "$(LABEL)"

stack size: all samples
	@for b in $(ALL_BOARDS); do \
	    bb=$$($(MAKE) -s --no-print-directory BOARD=$$b print-BOARD_STACK_BOUND); \
	    hs=$$($(MAKE) -s --no-print-directory BOARD=$$b print-BOARD_HELPER_STACK); \
	    python3 tests/check_stack.py --csv $${hs:+--helper $$hs} $(BUILD)/$$b/loader $${bb:-$(STACK_BOUND)} \
	        > $(BUILD)/$$b/stack.csv; echo "$(BUILD)/$$b/stack.csv"; done
	@for b in microbit mps2-an385; do \
	    $(MAKE) -s --no-print-directory BOARD=$$b $(BUILD)/$$b/t_micro.elf || exit 1; done
	@LOADER_OPT="$(LOADER_OPT)" sh tests/size_report.sh "$(BUILD)" "$(ALL_BOARDS)" "$(RRBAKE)" "$(CORPUS)"

docs: tools
	$(RRBAKE) schema --markdown -o docs/blob-format.md

install: all
	@sh tools/install.sh install "$(PREFIX)" "$(BUILD)" "$(ALL_BOARDS)" "$(DESTDIR)"

uninstall:
	@sh tools/install.sh uninstall "$(PREFIX)" "$(BUILD)" "$(ALL_BOARDS)" "$(DESTDIR)"

clean:
	rm -rf $(BUILD)

# ------------------------------------------------------------------------
else
# One board: BOARD=<name>. Variables come from platform/<board>/board.mk.
include platform/$(BOARD)/board.mk

B := $(BUILD)/$(BOARD)
LOADER_CFLAGS := -std=c99 $(LOADER_OPT) $(WARN) $(WERROR) -ffreestanding -fno-common \
    -ffunction-sections -fdata-sections -fstack-usage -fcallgraph-info=su \
    -Wstack-usage=$(STACK_BOUND) -Iloader
LOADER_OBJS := $(patsubst loader/%.c,$(B)/loader/%.o,$(LOADER_SRCS))

board-lib: $(B)/librr.a

$(B)/loader/%.o: loader/%.c $(LOADER_HDRS)
	@mkdir -p $(dir $@)
	$(BOARD_CC) $(BOARD_CFLAGS) $(LOADER_CFLAGS) -c $< -o $@

$(B)/librr.a: $(LOADER_OBJS)
	@rm -f $@
	$(BOARD_AR) rcs $@ $^

# What `make install` adds for a user's firmware (tools/install.sh): the
# board's platform layer (console, printf, exit; plat_*.c, and memcpy & co.
# on malta) as librrplat.a, kept apart so librr.a stays the pure loader, and
# its start-up objects (the .S files: malta's entry, versatilepb's vectors),
# which must be linked as objects since nothing refers to them by name.
PLAT_C_SRCS := $(filter %.c,$(BOARD_PLAT_SRCS))
PLAT_S_SRCS := $(filter %.S,$(BOARD_PLAT_SRCS))
PLAT_CFLAGS := -std=c99 -Wall -Wextra $(WERROR) -Iplatform
$(B)/plat/%.o: $(BOARD_PLAT_DIR)/%.c platform/rr_plat.h
	@mkdir -p $(dir $@)
	$(BOARD_CC) $(BOARD_CFLAGS) $(PLAT_CFLAGS) -c $< -o $@
$(B)/plat/%.o: $(BOARD_PLAT_DIR)/%.S
	@mkdir -p $(dir $@)
	$(BOARD_CC) $(BOARD_CFLAGS) -c $< -o $@
$(B)/plat/librrplat.a: $(patsubst $(BOARD_PLAT_DIR)/%.c,$(B)/plat/%.o,$(PLAT_C_SRCS))
	@rm -f $@
	$(BOARD_AR) rcs $@ $^

board-plat: $(B)/plat/librrplat.a $(patsubst $(BOARD_PLAT_DIR)/%.S,$(B)/plat/%.o,$(PLAT_S_SRCS)) \
            $(if $(BOARD_QEMU),$(B)/rr-emulate.elf)

# The board program of `rrbake emulate` (tools/emulate/rr_emulate.c, installed
# as lib/romroom/<board>/rr-emulate.elf): QEMU boards only. Its arena is
# 8 KB on the microbit (16 KB of RAM), 1 MB elsewhere; on the microbit it is
# linked into the first 64 KB of flash, the input image takes the rest
# (tools/rrb_emu.c, rre_input_place).
EMU_ARENA := 1048576
EMU_LDFLAGS :=
ifeq ($(BOARD),microbit)
EMU_ARENA := 8192
EMU_LDFLAGS := -Wl,--defsym=__flash_size=0x10000
endif
$(B)/rr-emulate.elf: tools/emulate/rr_emulate.c tools/rrb_emu.c tools/rrb_emu.h $(B)/librr.a \
                     $(BOARD_PLAT_SRCS)
	$(BOARD_CC) $(BOARD_CFLAGS) $(PLAT_CFLAGS) -Iloader -Itools -DRRE_BOARD='"$(BOARD)"' \
	    -DRRE_ARENA_BYTES=$(EMU_ARENA) -o $@ tools/emulate/rr_emulate.c tools/rrb_emu.c \
	    $(BOARD_PLAT_SRCS) $(B)/librr.a $(BOARD_LDFLAGS) $(EMU_LDFLAGS) $(BOARD_LIBS)

# Target test programs: tests/target/t_<name>.c, with the blobs listed in
# tests/target/<name>.blobs baked for this board and linked as const data.
ENDIAN_OPT := --target $(BOARD)
TEST_CFLAGS := -std=c99 -O2 -Wall -Wextra $(WERROR) -ffunction-sections -fdata-sections \
    -Iloader -Iplatform -Itests -Itests/target

$(B)/blobs/%.stamp: $$(firstword $$(wildcard tests/target/$$*.blobs tests/bench/$$*.blobs)) \
                    $(RRBAKE) $(BUILD)/samples/.stamp
	@mkdir -p $(B)/blobs/$*
	@sh tests/gen_blobs.sh "$<" "$(B)/blobs/$*" "$(RRBAKE)" "$(ENDIAN_OPT)" "$(CORPUS)" "$(BUILD)"
	@touch $@

# A test without a .blobs file gets an empty table.
$(B)/blobs/%.empty:
	@mkdir -p $(B)/blobs/$*
	@sh tests/gen_blobs.sh /dev/null "$(B)/blobs/$*" "$(RRBAKE)" "$(ENDIAN_OPT)" "$(CORPUS)" "$(BUILD)"
	@touch $@

# $(1) = program name (t_x or b_x), $(2) = its folder; blobs from
# tests/target/x.blobs for t_x and tests/bench/b_x.blobs for b_x (a bench
# program and the test of the same format bake different rooms).
blob_name = $(patsubst t_%,%,$(1))
blob_stamp = $(if $(wildcard $(2)/$(call blob_name,$(1)).blobs),$(B)/blobs/$(call blob_name,$(1)).stamp,$(B)/blobs/$(call blob_name,$(1)).empty)

# A program t_x links the per-room query code tests/target/q_x.c if there is
# one (shared with the golden programs below).
q_src = $(wildcard tests/target/q_$(call blob_name,$(1)).c)

define target_prog
$(B)/$(1).elf: $(2)/$(1).c $(call q_src,$(1)) $(B)/librr.a $(BOARD_PLAT_SRCS) $(call blob_stamp,$(1),$(2)) \
               tests/rr_test.h tests/target/q_room.h
	$$(BOARD_CC) $$(BOARD_CFLAGS) $$(TEST_CFLAGS) -o $$@ $$< $(call q_src,$(1)) \
	    $(B)/blobs/$(call blob_name,$(1))/blobs.S $(B)/blobs/$(call blob_name,$(1))/blobs.c \
	    $$(BOARD_PLAT_SRCS) $(B)/librr.a $$(BOARD_LDFLAGS) $$(BOARD_LIBS)
endef
$(foreach t,$(filter-out t_example,$(TARGET_TESTS)),$(eval $(call target_prog,$(t),tests/target)))

# t_example: the README's pattern, a blob compiled in with rrbake --c-array.
$(B)/example/room_blob.c: $(RRBAKE) $(BUILD)/samples/.stamp
	@mkdir -p $(dir $@)
	$(RRBAKE) bake $(BUILD)/samples/sample.roo --target $(BOARD) --c-array room_blob -o $@ -q

$(B)/t_example.elf: tests/target/t_example.c $(B)/example/room_blob.c $(B)/librr.a $(BOARD_PLAT_SRCS)
	$(BOARD_CC) $(BOARD_CFLAGS) $(TEST_CFLAGS) -o $@ $< $(B)/example/room_blob.c \
	    $(BOARD_PLAT_SRCS) $(B)/librr.a $(BOARD_LDFLAGS) $(BOARD_LIBS)
$(foreach t,$(BENCH_PROGS),$(eval $(call target_prog,$(t),tests/bench)))

# Programs listed in the board's BOARD_SKIP_TESTS do not fit it (see board.mk).
board-tests: $(B)/librr.a $(addprefix $(B)/,$(addsuffix .elf,$(filter-out $(BOARD_SKIP_TESTS),$(TARGET_TESTS))))

board-bench: $(B)/librr.a $(addprefix $(B)/,$(addsuffix .elf,$(filter-out $(BOARD_SKIP_TESTS),$(BENCH_PROGS))))

# Golden outputs (issue 8, "Determinism"): one program per room of
# GOLDEN_ROOMS and board, built from tests/target/g_room.c and the room's
# query code q_<fmt>.c with a one-room blob table. tests/target/golden.sh
# picks the blob: the full one, or --collision-only when the full one is
# larger than BOARD_BLOB_MAX (platform/<board>/board.mk) and that fits, or
# none ($(B)/golden/<room>.skip says why). The host builds both variants
# where they differ; its outputs are the goldens the runner compares every
# board's output with (build/golden/<folder>/<room>.txt).
# GOLDEN_SCALE multiplies the query counts of q_roo, q_rmesh and q_rmf
# (t_<fmt> uses 1; docs/footprint.md, "Determinism", lists the counts).
GOLDEN_SCALE ?= 8
golden_fmt = $(if $(findstring rmesh,$(1)),rmesh,$(firstword $(subst /, ,$(1))))
golden_src = $(if $(filter emi/%,$(1)),$(BUILD)/samples/$(notdir $(1)).emi,$(if $(filter rmesh-samples/%,$(1)),$(addprefix $(BUILD)/samples/,$(filter $(notdir $(1)).%,$(GOLDEN_RM))),$(filter $(CORPUS)/$(1).%,$(GOLDEN_SRCS))))
GOLDEN_OBJ := $(B)/golden/obj
GOLDEN_PLAT_OBJS := $(addprefix $(GOLDEN_OBJ)/plat_,$(addsuffix .o,$(notdir $(basename $(BOARD_PLAT_SRCS)))))

# The scale the objects were built with: rewritten only when it changes.
$(GOLDEN_OBJ)/scale: FORCE
	@mkdir -p $(dir $@)
	@echo $(GOLDEN_SCALE) | cmp -s - $@ || echo $(GOLDEN_SCALE) > $@
FORCE:

$(GOLDEN_OBJ)/q_%.o: tests/target/q_%.c tests/target/q_room.h tests/rr_test.h $(LOADER_HDRS) \
                     $(GOLDEN_OBJ)/scale
	@mkdir -p $(dir $@)
	$(BOARD_CC) $(BOARD_CFLAGS) $(TEST_CFLAGS) -DQ_SCALE=$(GOLDEN_SCALE) -c $< -o $@

$(GOLDEN_OBJ)/g_%.o: tests/target/g_room.c tests/target/q_room.h
	@mkdir -p $(dir $@)
	$(BOARD_CC) $(BOARD_CFLAGS) $(TEST_CFLAGS) -DG_FMT=$* -c $< -o $@

define golden_plat_obj
$(GOLDEN_OBJ)/plat_$(notdir $(basename $(1))).o: $(1)
	@mkdir -p $$(dir $$@)
	$$(BOARD_CC) $$(BOARD_CFLAGS) $$(TEST_CFLAGS) -c $$< -o $$@
endef
$(foreach s,$(BOARD_PLAT_SRCS),$(eval $(call golden_plat_obj,$(s))))

# $(1) = room, $(2) = its source, $(3) = its format
define golden_room
$(B)/golden/$(1).stamp: $(2) $(RRBAKE) $(BUILD)/samples/.stamp tests/target/golden.sh tests/gen_blobs.sh \
        $(GOLDEN_OBJ)/q_$(3).o $(GOLDEN_OBJ)/g_$(3).o $(GOLDEN_PLAT_OBJS) $(B)/librr.a
	@sh tests/target/golden.sh "$(B)/golden/$(1)" "$(1)" "$(2)" "$(BOARD_BLOB_MAX)" "$(BOARD)" \
	    "$(RRBAKE)" "$(ENDIAN_OPT)" "$(CORPUS)" "$(BUILD)"
	@for v in full co; do d=$(B)/golden/$(1).$$$$v; [ -d $$$$d ] || continue; \
	    $(BOARD_CC) $(BOARD_CFLAGS) $(TEST_CFLAGS) -o $$$$d.elf $(GOLDEN_OBJ)/g_$(3).o \
	        $(GOLDEN_OBJ)/q_$(3).o $$$$d/blobs.S $$$$d/blobs.c $(GOLDEN_PLAT_OBJS) $(B)/librr.a \
	        $(BOARD_LDFLAGS) $(BOARD_LIBS) || exit 1; done
	@touch $$@
endef
$(foreach r,$(GOLDEN_ROOMS),$(eval $(call golden_room,$(r),$(call golden_src,$(r)),$(call golden_fmt,$(r)))))

board-goldens: $(addprefix $(B)/golden/,$(addsuffix .stamp,$(GOLDEN_ROOMS)))

# The demo of `make run`: the blobs listed in $(BUILD)/demo.blobs (written by
# tests/run_demo.sh), opened and queried by tests/demo/demo.c.
$(B)/blobs/demo.stamp: $(BUILD)/demo.blobs $(RRBAKE)
	@mkdir -p $(B)/blobs/demo
	@sh tests/gen_blobs.sh "$<" "$(B)/blobs/demo" "$(RRBAKE)" "$(ENDIAN_OPT)" "$(CORPUS)" "$(BUILD)"
	@touch $@

$(B)/demo.elf: tests/demo/demo.c $(B)/librr.a $(BOARD_PLAT_SRCS) $(B)/blobs/demo.stamp
	$(BOARD_CC) $(BOARD_CFLAGS) $(TEST_CFLAGS) -o $@ $< $(B)/blobs/demo/blobs.S \
	    $(B)/blobs/demo/blobs.c $(BOARD_PLAT_SRCS) $(B)/librr.a $(BOARD_LDFLAGS) $(BOARD_LIBS)

board-demo: $(B)/demo.elf

endif

# Print a variable (used by the test scripts: make BOARD=x print-BOARD_RUN).
print-%:
	@echo '$($*)'

# board-vars.mk - print one board.mk variable for scripts: make -s -f platform/board-vars.mk BOARD=<b> print-<VAR>
BOARD ?= host
include $(dir $(lastword $(MAKEFILE_LIST)))$(BOARD)/board.mk

print-%:
	@:$(info $($*))

#!/bin/sh
# check_fpu.sh LABEL OBJDUMP FILE... - no FPU instruction in the given
# programs or objects (ARM VFP or MIPS FPU mnemonics in the disassembly).
# Prints "# fpu-free LABEL: 1 passed, 0 failed" or a FAIL line.
label=$1 od=$2
shift 2
n=$(for f in "$@"; do $od -d "$f"; done | grep -cE \
    '\s(v(ldr|str|add|sub|mul|div|mov|cvt|cmp|sqrt|fma|neg|abs|push|pop)[a-z0-9.]*|vmrs|vmsr|lwc1|swc1|ldc1|sdc1|mtc1|mfc1|ctc1|cfc1|(add|sub|mul|div|mov|neg|abs|sqrt|madd)\.[sd]|cvt\.[a-z]+\.[a-z]+|c\.[a-z]+\.[sd])\s')
if [ "$n" = 0 ]; then
    echo "# fpu-free $label: 1 passed, 0 failed"
else
    echo "FAIL fpu-free $label: $n FPU instructions"
    echo "# fpu-free $label: 0 passed, 1 failed"
    exit 1
fi

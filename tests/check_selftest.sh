#!/bin/sh
# check_selftest.sh - the build checks must catch what they claim to catch:
# build tests/bad/bad_loader.c for the Cortex-M3 (soft-float) and expect the
# symbol check to report malloc and a float helper, and the stack check to
# report recursion and an oversized frame; a runtime's query object that does
# not lead to its validator; hard-float code.
d=build/check-selftest
mkdir -p "$d"
rm -f "$d"/*.ci
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -mfloat-abi=soft -O1 -fno-optimize-sibling-calls \
    -fno-ipa-icf -fstack-usage -fcallgraph-info=su -c tests/bad/bad_loader.c -o "$d/bad.o" ||
    { echo "FAIL check-selftest: cannot build the bad object"; echo "# check-selftest: 0 passed, 1 failed"; exit 1; }
( cd "$d" && rm -f bad.a && arm-none-eabi-ar rcs bad.a bad.o )
p=0 f=0
sym=$(python3 tests/check_symbols.py arm-none-eabi-nm "$d/bad.a")
stk=$(python3 tests/check_stack.py "$d" 512)
for want in "forbidden symbol malloc" "soft-float helper __aeabi_dmul"; do
    if echo "$sym" | grep -q "$want"; then p=$((p + 1)); else f=$((f + 1)); echo "FAIL check-selftest: symbol check missed: $want"; fi
done
for want in "recursion: rr_bad_recursive" "rr_bad_big_frame needs"; do
    if echo "$stk" | grep -q "$want"; then p=$((p + 1)); else f=$((f + 1)); echo "FAIL check-selftest: stack check missed: $want"; fi
done
# a runtime whose query object does not lead to its validator (rr_open finds
# validators through weak references, which do not pull archive members)
echo 'int rr_bad_query(int x) { return x + 1; }' > "$d/rr_bad.c"
echo 'int rr__bad_validate(int x) { return x - 1; }' > "$d/rr_bad_open.c"
for o in rr_bad rr_bad_open; do
    arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -O2 -c "$d/$o.c" -o "$d/$o.o"
done
( cd "$d" && rm -f runtime.a && arm-none-eabi-ar rcs runtime.a rr_bad.o rr_bad_open.o )
if python3 tests/check_symbols.py arm-none-eabi-nm "$d/runtime.a" | grep -q "rr_bad.o: a program that calls only its functions links without rr__bad_validate"; then
    p=$((p + 1)); else f=$((f + 1)); echo "FAIL check-selftest: symbol check missed a runtime object cut off from its validator"; fi
# the FPU check must see hard-float code (ARM VFP and MIPS FPU)
echo 'float mul(float a, float b) { return a * b + 1.0f; }' > "$d/fpu.c"
arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -c "$d/fpu.c" -o "$d/fpu-arm.o"
mips-linux-gnu-gcc -O2 -mhard-float -c "$d/fpu.c" -o "$d/fpu-mips.o"
for pair in "arm-none-eabi-objdump $d/fpu-arm.o" "mips-linux-gnu-objdump $d/fpu-mips.o"; do
    # shellcheck disable=SC2086
    if sh tests/check_fpu.sh selftest $pair > /dev/null; then
        f=$((f + 1)); echo "FAIL check-selftest: FPU check missed hard-float code in ${pair#* }"
    else p=$((p + 1)); fi
done
echo "# check-selftest: $p passed, $f failed"
[ $f = 0 ]

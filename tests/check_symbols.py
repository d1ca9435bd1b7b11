#!/usr/bin/env python3
"""check_symbols.py - the loader links nothing it must not.

usage: check_symbols.py NM LIB.a

Lists the undefined symbols of every object in the loader library and fails
on anything outside the allowlist: the loader's own symbols, libgcc's
integer helpers (64-bit shifts, multiply, divide; 32-bit divide on cores
without a divide instruction) and memcpy/memset/memmove/memcmp (which GCC may
emit for struct copies). In particular this rejects heap functions, stdio and
every soft-float helper (__aeabi_f*, __aeabi_d*, __addsf3, __muldf3, ...).
"""
import re, subprocess, sys

ALLOWED = re.compile(r"^(rr_\w+|rr__\w+|memcpy|memset|memmove|memcmp|"
                     r"__aeabi_(l|ul)divmod|__aeabi_u?idiv(mod)?|__aeabi_l(mul|lsl|lsr|asr)|"
                     r"__aeabi_(u)?lcmp|__(u)?(div|mod)di3|__udivmoddi4|__muldi3|"
                     r"__(ash|lsh)(l|r)di3|__ashrdi3|__clz[sd]i2|__ctz[sd]i2|"
                     r"__(u)?(div|mod)si3|__mulsi3|__gnu_thumb1_case_\w+|"
                     r"__stack_chk_(fail|guard)|_GLOBAL_OFFSET_TABLE_)$")
FLOAT = re.compile(r"^(__aeabi_[fd]\w*|__\w*[sdtx]f\d?\w*|__\w*(float|fix)\w*)$")


def main(nm, lib):
    out = subprocess.run([nm, "-u", "-A", lib], capture_output=True, text=True, check=True).stdout
    bad = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        sym = parts[-1]
        where = parts[0].rstrip(":")
        if not ALLOWED.match(sym):
            kind = "soft-float helper" if FLOAT.match(sym) else "forbidden symbol"
            bad.append("%s: %s %s" % (where, kind, sym))
    for b in bad:
        print("FAIL symbols %s" % b)
    print("# symbols %s: %d passed, %d failed" % (lib, 0 if bad else 1, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

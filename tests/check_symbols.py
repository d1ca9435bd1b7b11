#!/usr/bin/env python3
"""check_symbols.py - the loader links nothing it must not.

usage: check_symbols.py NM LIB.a

Lists the undefined symbols of every object in the loader library and fails
on anything outside the allowlist: the loader's own symbols, libgcc's
integer helpers (64-bit shifts, multiply, divide; 32-bit divide on cores
without a divide instruction) and memcpy/memset/memmove/memcmp (which GCC may
emit for struct copies). In particular this rejects heap functions, stdio and
every soft-float helper (__aeabi_f*, __aeabi_d*, __addsf3, __muldf3, ...).

Second, every runtime links its validator: rr_open reaches each format's
rr__<fmt>_validate through a weak reference (rr_open.c), and a weak
reference does not take an object out of the archive. So every object of a
runtime (rr_<fmt>.o, rr_<fmt>_*.o) that defines functions must define the
validator itself or use a symbol of the object that does; otherwise a
program calling only that object's functions links without the validator
and rr_open refuses every blob of the format (RR_ERR_FORMAT).
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
    bad += validator_links(nm, lib)
    for b in bad:
        print("FAIL symbols %s" % b)
    print("# symbols %s: %d passed, %d failed" % (lib, 0 if bad else 1, len(bad)))
    return 1 if bad else 0


def validator_links(nm, lib):
    """The runtime objects from which no path leads to their validator."""
    out = subprocess.run([nm, "-A", lib], capture_output=True, text=True, check=True).stdout
    defined, undefined = {}, {}
    for line in out.splitlines():
        m = re.match(r"^(?:.*?:)?(\S+\.o):\s*(?:[0-9a-fA-F]+\s+)?([A-Za-z])\s+(\S+)$", line)
        if not m:
            continue
        obj, kind, sym = m.groups()
        if kind == "U":
            undefined.setdefault(obj, set()).add(sym)
        elif kind in "TDRB":
            defined.setdefault(obj, set()).add(sym)
    bad = []
    for obj, syms in sorted(defined.items()):
        m = re.match(r"^rr_([a-z]+)(_\w+)?\.o$", obj)
        if not m or not any(s.startswith("rr_") for s in syms):
            continue
        validator = "rr__%s_validate" % m.group(1)
        home = [o for o, d in defined.items() if validator in d]
        if not home:
            continue   # not a runtime (rr_open.o, rr_fix.o, ...)
        if obj == home[0] or undefined.get(obj, set()) & defined[home[0]]:
            continue
        bad.append("%s: a program that calls only its functions links without %s (%s): "
                   "rr_open would refuse every blob of the format" % (obj, validator, home[0]))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

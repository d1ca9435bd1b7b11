#!/usr/bin/env python3
"""check_json.py - check `rrbake query ... --json` answers read from stdin.

Every line must be exactly one JSON object with the fields every answer has
(file, format, query, args, coord_frac), and every value printed in units
beside its raw fixed-point word ("key" and "key_raw") must agree with it:
  Q16.16 values (fraction, normal, duration, time): key == key_raw / 65536,
  2.30 quaternions (local_q): key == key_raw / 2^30,
  coordinates (everything else): key == key_raw / 2^coord_frac,
to the 6 significant digits (%.6g) or 6 decimals (%.6f) the text form prints.
Prints one line per failure and a summary; exits 1 on any failure."""
import json, sys

FIX16 = {"fraction", "normal", "duration", "time"}
fails = []
answers = 0
pairs = 0

def close(v, want, key):
    if key in FIX16 or key == "local_q":
        return abs(v - want) <= 0.5e-6 + 1e-12
    return abs(v - want) <= 0.5e-5 * max(1.0, abs(want))   # %.6g: 6 significant digits

def walk(obj, frac, where):
    global pairs
    if isinstance(obj, list):
        for i, x in enumerate(obj):
            walk(x, frac, "%s[%d]" % (where, i))
        return
    if not isinstance(obj, dict):
        return
    for key, val in obj.items():
        if isinstance(val, (dict, list)):
            walk(val, frac, where + "." + key)
        if key.endswith("_raw") or key + "_raw" not in obj:
            continue
        raw = obj[key + "_raw"]
        shift = 16 if key in FIX16 else 30 if key == "local_q" else frac
        vals = val if isinstance(val, list) else [val]
        raws = raw if isinstance(raw, list) else [raw]
        if len(vals) != len(raws):
            fails.append("%s.%s: %d values, %d raw" % (where, key, len(vals), len(raws)))
            continue
        for v, r in zip(vals, raws):
            pairs += 1
            if not isinstance(r, int) or not close(v, r / float(1 << shift), key):
                fails.append("%s.%s: %r is not %r / 2^%d" % (where, key, v, r, shift))

for n, line in enumerate(sys.stdin, 1):
    try:
        a = json.loads(line)
    except ValueError as e:
        fails.append("line %d: not one JSON object: %s" % (n, e))
        continue
    answers += 1
    for k in ("file", "format", "query", "args", "coord_frac"):
        if k not in a:
            fails.append("line %d: no %s" % (n, k))
    walk(a, a.get("coord_frac", 0), "line %d %s" % (n, a.get("query")))
for f in fails:
    print("check_json: FAIL", f)
print("check_json: %d answers, %d unit/raw pairs, %d failures" % (answers, pairs, len(fails)))
sys.exit(1 if fails or answers == 0 else 0)

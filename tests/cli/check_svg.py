#!/usr/bin/env python3
"""check_svg.py SVG [JSON] - check an rrbake plan, and the query drawn on it.

SVG: must be well-formed XML (xml.etree), an <svg> root with a viewBox, the
plan's groups "grid" and "legend"; each grid label "x=V" / "y=V" / "z=V" on
the line of that source coordinate; an RMF plan's filled faces drawn largest
first. JSON (rrbake query ... --json, the same
query run with --svg SVG): every element of the group "query" whose
class is "q-hit" (where the query stopped or hit: its data-label names the
answer's point, stop, position, end or origin) must sit where that point lies on the plan, computed here from the answer's
raw coords: the plan is a top view, ROO (x, y), RMesh (x, -z), RMF (x, -y),
in source units (raw / 2^coord_frac); its <title> must carry the point in
source units. A located leaf (data-label "leaf") must contain the query
point. Prints a summary; exits 1 on any failure."""
import json, re, sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
fails = []
def check(ok, what):
    if not ok:
        fails.append(what)

root = ET.parse(sys.argv[1]).getroot()          # raises on malformed XML
check(root.tag == NS + "svg", "root is <svg>")
check(len(root.get("viewBox", "").split()) == 4, "viewBox")
groups = {g.get("id"): g for g in root.iter(NS + "g") if g.get("id")}
check("grid" in groups and "legend" in groups, "grid and legend groups")
matched = 0

# The grid's labels name the source coordinate of their line: "x=V" on the
# vertical line at plan x = V, "y=V" / "z=V" on the horizontal line at plan
# y = V (ROO: y south, down the page) or -V (RMesh z, RMF y: up the page).
title = root.find(NS + "title").text
flip = not title.startswith("Meridian")
yname = "z" if title.startswith("RMesh") else "y"
labels = 0
vb = [float(v) for v in root.get("viewBox").split()]
tol = 0.01 * max(vb[2], vb[3])   # labels sit 2 pixels beside their line (1000 pixels wide)
for t in groups["grid"].iter(NS + "text") if "grid" in groups else []:
    name, val = t.text.split("=")
    x, y, v = float(t.get("x")), float(t.get("y")), float(val)
    if name == "x":
        check(abs(x - v) < tol, "x label %s at x %g" % (val, x))
    else:
        check(name == yname, "y label names %s, not %s" % (yname, name))
        check(abs(y - (-v if flip else v)) < tol, "%s label %s at y %g" % (name, val, y))
    labels += 1
check(labels >= 4, "grid labels")

# RMF: filled top faces are drawn largest first (so big ground brushes do not
# hide what stands on them): areas from the drawn points, non-increasing.
if title.startswith("RMF"):
    last = float("inf")
    for el in root:
        if el.tag == NS + "g":
            break
        if el.tag != NS + "polygon" or el.get("fill") == "none":
            continue
        pts = [tuple(map(float, p.split(","))) for p in el.get("points").split()]
        area = abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))) / 2
        # the points are printed to 4 decimals: the area is known to about perimeter x 1e-4
        per = sum(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))
        check(area <= last + 2e-4 * per + 1e-6 * area, "faces drawn largest first (%.6f after %.6f)" % (area, last))
        last = min(last, area)
if len(sys.argv) > 2:
    ans = json.loads(open(sys.argv[2]).read())
    fmt, frac = ans["format"], ans["coord_frac"]
    def plan(raw):
        u = [c / float(1 << frac) for c in raw]
        if fmt == "roo":
            return (u[0], u[1])
        return (u[0], -u[2]) if fmt == "rmesh" else (u[0], -u[1])
    def values(obj, key, out):                  # every answer value named key, any depth
        if isinstance(obj, dict):
            for k, v in obj.items():
                if k == key and key + "_raw" in obj:
                    out.append((v, obj[key + "_raw"]))
                values(v, key, out)
        elif isinstance(obj, list):
            for v in obj:
                values(v, key, out)
        return out
    q = groups.get("query")
    check(q is not None, "query group")
    for el in (q if q is not None else []):
        label = el.get("data-label")
        title = el.find(NS + "title")
        tnums = [float(x) for x in re.findall(r"-?[0-9.]+(?:e[-+]?[0-9]+)?", title.text)] if title is not None else []
        if el.get("class") == "q-hit":
            cands = values(ans, label, [])
            if label == "blocked":   # ROO sight: A + fraction (B - A), from the arguments
                a = [float(v) for v in ans["args"]]
                f = ans["fraction_raw"] / 65536.0
                pt = [a[k] + f * (a[3 + k] - a[k]) for k in range(3)]
                cands = [(pt, [round(v * (1 << frac)) for v in pt])]
            check(cands, "answer has %s" % label)
            x, y = float(el.get("cx")), float(el.get("cy"))
            ok = False
            for shown, raw in cands:
                px, py = plan(raw)
                tol = 1e-3 if label != "blocked" else 2.0 / (1 << frac)
                ok |= (abs(x - px) < tol and abs(y - py) < tol and len(tnums) == len(shown) and
                       all(t == v if label != "blocked" else abs(t - v) <= tol + 0.5e-5 * abs(v)
                           for t, v in zip(tnums, shown)))
            check(ok, "%s drawn at %.4f,%.4f with title %s: not at any answer %s" % (label, x, y, tnums, cands))
            matched += ok
        if el.tag == NS + "polygon" and label == "leaf":
            pts = [tuple(map(float, p.split(","))) for p in el.get("points").split()]
            px, py = plan(values(ans, "point", [])[0][1])
            inside = False                           # even-odd rule, border counts
            for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
                cross = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)
                if abs(cross) < 1e-6 and min(x1, x2) - 1e-6 <= px <= max(x1, x2) + 1e-6 and min(y1, y2) - 1e-6 <= py <= max(y1, y2) + 1e-6:
                    inside = True
                    break
                if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
                    inside = not inside
            check(inside, "located leaf contains the point")
            matched += inside
    check(matched > 0, "at least one answer point drawn")
for f in fails:
    print("check_svg: FAIL", f)
print("check_svg: %s: %d answer elements matched, %d failures" % (sys.argv[1], matched, len(fails)))
sys.exit(1 if fails else 0)

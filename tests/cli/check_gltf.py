#!/usr/bin/env python3
"""check_gltf.py GLTF|GLB EXPECT - check an rrbake glTF against facts from the
EMI source readers (written by tests/host/test_cli.c):
  joints N / joint NAME PARENT tx ty tz qx qy qz qw   (.sklb)
  verts N / tris N                                     (.meshb)
  anim NAME / track JOINT OP NKEYS / key T v0 v1 v2 v3 (.animb)
Checks: node names, parents and bind transforms; vertex and index counts
(the triangles of all primitives, one per material);
every accessor inside its buffer view; inverse bind matrix x global bind
transform = identity for every joint; every source key of every track present
as a sampler key (same time, same value; quaternions up to sign).
Prints one line per failure and exits 1 if there was any."""
import base64, json, math, struct, sys

fails = []
def check(ok, what):
    if not ok:
        fails.append(what)

raw = open(sys.argv[1], "rb").read()
if raw[:4] == b"glTF":   # .glb: JSON chunk, then the BIN chunk (check_gltf_file.py checks the container)
    jlen = struct.unpack_from("<I", raw, 12)[0]
    g = json.loads(raw[20:20 + jlen].decode("utf-8"))
    blen = struct.unpack_from("<I", raw, 20 + jlen)[0]
    buf = raw[28 + jlen:28 + jlen + g["buffers"][0]["byteLength"]]
else:
    g = json.loads(raw.decode("utf-8"))
    uri = g["buffers"][0]["uri"]
    buf = base64.b64decode(uri.split(",", 1)[1])
exp = [l.split() for l in open(sys.argv[2]) if l.strip()]
check(len(buf) == g["buffers"][0]["byteLength"], "buffer length")

SIZES = {5126: 4, 5123: 2, 5125: 4}
COMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
def read(ai):
    a = g["accessors"][ai]
    v = g["bufferViews"][a["bufferView"]]
    n = a["count"] * COMP[a["type"]]
    fmt = {5126: "f", 5123: "H", 5125: "I"}[a["componentType"]]
    off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    check(n * SIZES[a["componentType"]] <= v["byteLength"], "accessor %d fits its view" % ai)
    check(off + v["byteLength"] <= len(buf), "view of accessor %d inside the buffer" % ai)
    vals = struct.unpack_from("<%d%s" % (n, fmt), buf, off)
    c = COMP[a["type"]]
    return [vals[i:i + c] for i in range(0, n, c)]

def qmul(a, b):
    ax, ay, az, aw = a; bx, by, bz, bw = b
    return (aw*bx + ax*bw + ay*bz - az*by, aw*by - ax*bz + ay*bw + az*bx,
            aw*bz + ax*by - ay*bx + az*bw, aw*bw - ax*bx - ay*by - az*bz)
def qrot(q, v):
    x, y, z, w = qmul(qmul(q, (v[0], v[1], v[2], 0.0)), (-q[0], -q[1], -q[2], q[3]))
    return (x, y, z)

nodes = g["nodes"]
joints_exp = [e for e in exp if e[0] == "joint"]
by_name = {n.get("name"): i for i, n in enumerate(nodes)}
parent = {}
for i, n in enumerate(nodes):
    for c in n.get("children", []):
        parent[c] = i
skin = g["skins"][0]
check(len(skin["joints"]) == len(joints_exp), "joint count")
for k, e in enumerate(joints_exp):
    name, par = e[1], int(e[2])
    t = [float(x) for x in e[3:6]]; q = [float(x) for x in e[6:10]]
    ni = skin["joints"][k]
    n = nodes[ni]
    check(n.get("name") == name, "joint %d name %s" % (k, name))
    want_parent = skin["joints"][par] if par >= 0 else None
    check(parent.get(ni) == want_parent, "joint %s parent" % name)
    check(all(abs(a - b) < 1e-3 for a, b in zip(n.get("translation", [0, 0, 0]), t)), "joint %s translation" % name)
    r = n.get("rotation", [0, 0, 0, 1])
    d = min(sum(abs(a - b) for a, b in zip(r, q)), sum(abs(a + b) for a, b in zip(r, q)))
    check(d < 2e-3, "joint %s rotation" % name)

# global bind transforms, parents first (children have higher indices in the skin)
glob = {}
for ni in skin["joints"]:
    n = nodes[ni]
    t = n.get("translation", [0, 0, 0]); q = n.get("rotation", [0, 0, 0, 1])
    if ni in parent and parent[ni] in glob:
        pt, pq = glob[parent[ni]]
        rt = qrot(pq, t)
        glob[ni] = ((pt[0] + rt[0], pt[1] + rt[1], pt[2] + rt[2]), qmul(pq, q))
    else:
        glob[ni] = (tuple(t), tuple(q))
ibm = read(skin["inverseBindMatrices"])
for k, ni in enumerate(skin["joints"]):
    m = ibm[k]                                   # column-major
    t, q = glob[ni]
    # apply the global transform to the basis and origin, then the IBM: must give identity
    for v in ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)):
        r = qrot(q, v); p = (r[0] + t[0], r[1] + t[1], r[2] + t[2])
        o = [m[0]*p[0] + m[4]*p[1] + m[8]*p[2] + m[12], m[1]*p[0] + m[5]*p[1] + m[9]*p[2] + m[13],
             m[2]*p[0] + m[6]*p[1] + m[10]*p[2] + m[14]]
        check(all(abs(a - b) < 2e-3 for a, b in zip(o, v)), "inverse bind of joint %d" % k)

prims = g["meshes"][0]["primitives"]   # one per material: the same vertices, split triangles
prim = prims[0]
nverts = int([e for e in exp if e[0] == "verts"][0][1])
ntris = int([e for e in exp if e[0] == "tris"][0][1])
check(all(g["accessors"][p["attributes"]["POSITION"]]["count"] == nverts for p in prims),
      "vertex count")
check(sum(g["accessors"][p["indices"]]["count"] for p in prims) == 3 * ntris, "index count")
for p in prims:
    check(all(i[0] < nverts for i in read(p["indices"])), "indices in range")
w = read(prim["attributes"]["WEIGHTS_0"])
check(all(abs(sum(x) - 1) < 1e-3 for x in w), "weights sum to 1")

# animations: every source track's keys
anim_name = [e for e in exp if e[0] == "anim"][0][1]
anims = {a["name"]: a for a in g.get("animations", [])}
check(anim_name in anims, "animation %s present" % anim_name)
a = anims.get(anim_name, {"channels": [], "samplers": []})
chan = {}
for c in a["channels"]:
    s = a["samplers"][c["sampler"]]
    chan.setdefault((nodes[c["target"]["node"]]["name"].lower(), c["target"]["path"]), []).append(
        (read(s["input"]), read(s["output"])))
i = 0
tracks = 0
while i < len(exp):
    e = exp[i]
    if e[0] != "track":
        i += 1
        continue
    joint, op, nk = e[1], int(e[2]), int(e[3])
    keys = [[float(x) for x in k[1:]] for k in exp[i + 1:i + 1 + nk]]
    i += 1 + nk
    path = "translation" if op == 3 else "rotation"
    cands = chan.get((joint.lower(), path), [])  # the game matches names case-insensitively
    ok = False
    for ins, outs in cands:
        if len(ins) != nk:
            continue
        good = True
        for (t,), v, k in zip(ins, outs, keys):
            good &= abs(t - k[0]) < 1e-4
            if op == 3:
                good &= all(abs(a - b) < 1e-3 for a, b in zip(v, k[1:4]))
            else:
                d = min(sum(abs(a - b) for a, b in zip(v, k[1:5])), sum(abs(a + b) for a, b in zip(v, k[1:5])))
                good &= d < 2e-3
        ok |= good
    check(ok, "track %s %s: %d keys" % (joint, path, nk))
    tracks += 1
check(tracks > 0, "the source animation has tracks")
for f in fails:
    print("check_gltf: FAIL", f)
print("check_gltf: %d tracks, %d joints, %d vertices, %d triangles, %d failures"
      % (tracks, len(joints_exp), nverts, ntris, len(fails)))
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
"""check_gltf_file.py FILE [EXPECT] - check a .gltf or .glb written by rrbake.

The container: a .glb has the 12-byte header (magic "glTF", version 2, the
file's length), a JSON chunk and a BIN chunk, each of a length that is a
multiple of 4, the JSON padded with spaces, the BIN with zeros, the buffer's
byteLength within the last 3 bytes of the BIN chunk; a .gltf has its buffer
as a base64 data URI of byteLength bytes.
The tables: every buffer view inside the buffer, every accessor inside its
view and aligned to its component size, min/max (where given) equal to the
values in the buffer, POSITION with min/max, indices below the primitive's
vertex count, primitives grouped by material, every material's texture and
image present.
EXPECT (tab-separated lines, from the source reader, rrb_rmesh_read):
  name NAME                       a texture name the source has
  surf DIFFUSE LIGHTMAP NTRIS U0 V0 U1 V1   a surface: its textures ("" none),
                                  triangles and lightmap UV range
then: every image's URI (unescaped) is a name of the source, there is one
material per diffuse texture, and for each (diffuse, lightmap) pair the
triangles equal the source's and TEXCOORD_1 lies in the source's lightmap UV
range (give or take the blob's UV quantisation, 2^-9).
Prints one line per failure and a summary; exits 1 on any failure."""
import base64, json, struct, sys, urllib.parse

fails = []
def check(ok, what):
    if not ok:
        fails.append(what)

data = open(sys.argv[1], "rb").read()
if data[:4] == b"glTF":
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    check(version == 2, "glb version 2")
    check(length == len(data), "glb length %d = file %d" % (length, len(data)))
    jlen, jtype = struct.unpack_from("<II", data, 12)
    check(jtype == 0x4E4F534A, "first chunk is JSON")
    check(jlen % 4 == 0, "JSON chunk length multiple of 4")
    jtext = data[20:20 + jlen]
    body = jtext.rstrip(b" ")
    check(len(jtext) - len(body) < 4, "JSON padded with at most 3 spaces")
    g = json.loads(body.decode("utf-8"))
    off = 20 + jlen
    blen, btype = struct.unpack_from("<II", data, off)
    check(btype == 0x004E4942, "second chunk is BIN")
    check(blen % 4 == 0, "BIN chunk length multiple of 4")
    check(off + 8 + blen == len(data), "BIN chunk ends the file")
    buf = data[off + 8:off + 8 + blen]
    bl = g["buffers"][0]["byteLength"]
    check(bl <= blen < bl + 4, "buffer byteLength %d within the BIN chunk %d" % (bl, blen))
    check(all(b == 0 for b in buf[bl:]), "BIN padded with zeros")
    check("uri" not in g["buffers"][0], "glb buffer has no uri")
else:
    g = json.loads(data.decode("utf-8"))
    uri = g["buffers"][0]["uri"]
    check(uri.startswith("data:application/octet-stream;base64,"), "data URI")
    buf = base64.b64decode(uri.split(",", 1)[1])
    check(len(buf) == g["buffers"][0]["byteLength"], "buffer length")
check(g["asset"]["version"] == "2.0", "asset version")

SIZE = {5126: 4, 5125: 4, 5123: 2, 5121: 1}
FMT = {5126: "f", 5125: "I", 5123: "H", 5121: "B"}
NCOMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
for i, v in enumerate(g["bufferViews"]):
    check(v.get("byteOffset", 0) + v["byteLength"] <= g["buffers"][v["buffer"]]["byteLength"],
          "view %d inside the buffer" % i)
def read(ai):
    a = g["accessors"][ai]
    v = g["bufferViews"][a["bufferView"]]
    n, c = a["count"], NCOMP[a["type"]]
    off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    check(off % SIZE[a["componentType"]] == 0, "accessor %d aligned" % ai)
    check(a.get("byteOffset", 0) + n * c * SIZE[a["componentType"]] <= v["byteLength"],
          "accessor %d inside its view" % ai)
    vals = struct.unpack_from("<%d%s" % (n * c, FMT[a["componentType"]]), buf, off)
    rows = [vals[k:k + c] for k in range(0, n * c, c)]
    if "min" in a:   # the JSON's decimals read as float32 (9 digits identify a float)
        f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0] if a["componentType"] == 5126 else x
        check([f32(x) for x in a["min"]] == [min(r[k] for r in rows) for k in range(c)], "accessor %d min" % ai)
        check([f32(x) for x in a["max"]] == [max(r[k] for r in rows) for k in range(c)], "accessor %d max" % ai)
    return rows

exp = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])] if len(sys.argv) > 2 else []
names = {e[1] for e in exp if e[0] == "name"}
tris = 0
last_mat = -1
got = {}                     # (diffuse, lightmap) -> triangles, lightmap UV range
images = g.get("images", [])
textures = g.get("textures", [])
materials = g.get("materials", [])
def image_name(ti):
    return urllib.parse.unquote(images[textures[ti]["source"]]["uri"])
for m in g["meshes"]:
    for p in m["primitives"]:
        at = p["attributes"]
        check("min" in g["accessors"][at["POSITION"]], "POSITION has min/max")
        nv = g["accessors"][at["POSITION"]]["count"]
        read(at["POSITION"])
        idx = read(p["indices"])
        check(all(i[0] < nv for i in idx), "indices below the vertex count")
        tris += len(idx) // 3
        mat = p.get("material", -1)
        check(mat >= last_mat, "primitives grouped by material")
        last_mat = mat
        tex = ""
        if mat >= 0:
            bct = materials[mat].get("pbrMetallicRoughness", {}).get("baseColorTexture")
            tex = image_name(bct["index"]) if bct else ""
        lm = p.get("extras", {}).get("lightmap", "")
        if lm:
            check(image_name(p["extras"]["lightmap_texture"]) == lm, "lightmap texture %s" % lm)
        uv1 = read(at["TEXCOORD_1"]) if "TEXCOORD_1" in at else []
        if "TEXCOORD_0" in at:
            check(len(read(at["TEXCOORD_0"])) == nv, "TEXCOORD_0 per vertex")
        t, lo, hi = got.get((tex, lm), (0, [9e9, 9e9], [-9e9, -9e9]))
        for u in uv1:
            lo = [min(lo[k], u[k]) for k in range(2)]
            hi = [max(hi[k], u[k]) for k in range(2)]
        got[(tex, lm)] = (t + len(idx) // 3, lo, hi)
for i, im in enumerate(images):
    name = urllib.parse.unquote(im["uri"])
    check(not exp or name in names, "image %d URI %s is a texture the source names" % (i, name))
if exp:
    diffuse = {e[1] for e in exp if e[0] == "surf" and e[1]}
    mat_tex = [m.get("pbrMetallicRoughness", {}).get("baseColorTexture") for m in materials]
    mat_names = [image_name(b["index"]) for b in mat_tex if b]
    check(sorted(mat_names) == sorted(diffuse), "one material per diffuse texture (%d, source %d)"
          % (len(mat_names), len(diffuse)))
    want = {}
    for e in exp:
        if e[0] != "surf":
            continue
        key = (e[1], e[2])
        t, lo, hi = want.get(key, (0, [9e9, 9e9], [-9e9, -9e9]))
        u = [float(x) for x in e[4:8]]
        want[key] = (t + int(e[3]), [min(lo[0], u[0]), min(lo[1], u[1])], [max(hi[0], u[2]), max(hi[1], u[3])])
    check(set(got) == set(want), "the same (diffuse, lightmap) pairs as the source")
    for key in want:
        if key not in got:
            continue
        check(got[key][0] == want[key][0], "%s: %d triangles, source %d" % (key, got[key][0], want[key][0]))
        if key[1]:
            q = 2.0 ** -9
            check(all(got[key][1][k] >= want[key][1][k] - q and got[key][2][k] <= want[key][2][k] + q
                      for k in range(2)), "%s: TEXCOORD_1 %s..%s in the source's lightmap UVs %s..%s"
                  % (key, got[key][1], got[key][2], want[key][1], want[key][2]))
for f in fails:
    print("check_gltf_file: FAIL", f)
print("check_gltf_file: %s: %d primitives, %d materials, %d images, %d triangles, %d failures"
      % (sys.argv[1], sum(len(m["primitives"]) for m in g["meshes"]), len(materials), len(images),
         tris, len(fails)))
sys.exit(1 if fails else 0)

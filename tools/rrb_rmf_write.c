/* rrb_rmf_write.c - RMF writer (every version), the sample map and the
 * malformed-variant generator the tests feed back to the reader.
 *
 * The writer walks m->objs in pre-order with an explicit stack (no
 * recursion): an object's head, then its children, then its class tail.
 * Written in the map's own version, a map read from a file comes back byte
 * for byte (every unexplained byte is kept by the reader). Written in another
 * version, fields that version lacks are dropped (2.2 texture axes, the >= 1.6
 * entity bytes, long texture names are cut) and missing ones get defaults.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_rmf.h"

static void put_i32(rrb_buf *b, int32_t v)
{
    rrb_buf_u32le(b, (uint32_t)v);
}

static void put_str(rrb_buf *b, const rrb_rmf_str *s)
{
    rrb_buf_u8(b, s->len);
    if (s->len)
        rrb_buf_put(b, s->s, s->len);
}

static void put_vec(rrb_buf *b, const float v[3])
{
    rrb_buf_f32le(b, v[0]);
    rrb_buf_f32le(b, v[1]);
    rrb_buf_f32le(b, v[2]);
}

static void put_kvs(rrb_buf *b, const rrb_rmf_kv *kv, int n)
{
    int i;
    put_i32(b, n);
    for (i = 0; i < n; i++) {
        put_str(b, &kv[i].key);
        put_str(b, &kv[i].value);
    }
}

static void put_ent(rrb_buf *b, const rrb_rmf_ent *e, int v)
{
    put_str(b, &e->classname);
    rrb_buf_put(b, e->unknown4, 4);
    put_i32(b, e->spawnflags);
    put_kvs(b, e->kv, e->nkv);
    if (v >= RRB_RMF_V16)
        rrb_buf_put(b, e->unknown12, 12);
}

static void put_face(rrb_buf *b, const rrb_rmf_face *f, int v)
{
    int i;
    rrb_buf_put(b, f->tex, rrb_rmf_tex_len(v));
    if (v == RRB_RMF_V22) {
        put_vec(b, f->uaxis);
        rrb_buf_f32le(b, f->shift_x);
        put_vec(b, f->vaxis);
        rrb_buf_f32le(b, f->shift_y);
        rrb_buf_f32le(b, f->rotation);
    } else {
        rrb_buf_f32le(b, f->rotation);
        rrb_buf_f32le(b, f->shift_x);
        rrb_buf_f32le(b, f->shift_y);
    }
    rrb_buf_f32le(b, f->scale_x);
    rrb_buf_f32le(b, f->scale_y);
    rrb_buf_put(b, f->unknown, rrb_rmf_unk_len(v));
    put_i32(b, f->nverts);
    for (i = 0; i < f->nverts; i++)
        put_vec(b, f->verts[i]);
    for (i = 0; i < 3; i++)
        put_vec(b, f->plane[i]);
}

static void put_visgroups(rrb_buf *b, const rrb_rmf_map *m)
{
    int old = m->version <= RRB_RMF_V09, i;
    put_i32(b, m->nvisgroups);
    for (i = 0; i < m->nvisgroups; i++) {
        const rrb_rmf_visgroup *g = &m->visgroups[i];
        rrb_buf_put(b, g->name, 128);
        rrb_buf_put(b, g->color, 4);
        if (old)
            rrb_buf_u8(b, (uint8_t)g->id);
        else
            put_i32(b, g->id);
        rrb_buf_u8(b, g->visible);
        rrb_buf_put(b, g->pad, old ? 2 : 3);
    }
}

static void put_paths(rrb_buf *b, const rrb_rmf_map *m)
{
    int i, j;
    put_i32(b, m->npaths);
    for (i = 0; i < m->npaths; i++) {
        const rrb_rmf_path *p = &m->paths[i];
        rrb_buf_put(b, p->name, 128);
        rrb_buf_put(b, p->classname, 128);
        put_i32(b, p->type);
        put_i32(b, p->nnodes);
        for (j = 0; j < p->nnodes; j++) {
            put_vec(b, p->nodes[j].pos);
            put_i32(b, p->nodes[j].index);
            rrb_buf_put(b, p->nodes[j].name_override, 128);
            put_kvs(b, p->nodes[j].kv, p->nodes[j].nkv);
        }
    }
}

static void put_head(rrb_buf *b, const rrb_rmf_map *m, const rrb_rmf_obj *o)
{
    put_str(b, &o->classname);
    if (m->version >= RRB_RMF_V14) {
        put_i32(b, o->visgroup);
    } else if (o->nvislist > 0) {
        put_i32(b, o->nvislist);
        rrb_buf_put(b, o->vislist, (size_t)o->nvislist);
    } else {
        uint8_t list[8] = {0};
        list[0] = (uint8_t)o->visgroup;
        put_i32(b, 8);
        rrb_buf_put(b, list, 8);
    }
    rrb_buf_put(b, o->color, 3);
    put_i32(b, o->nchildren);
}

static void put_tail(rrb_buf *b, const rrb_rmf_map *m, const rrb_rmf_obj *o)
{
    int i;
    if (o->kind == RRB_RMF_SOLID) {
        put_i32(b, o->nfaces);
        for (i = 0; i < o->nfaces; i++)
            put_face(b, &m->faces[o->first_face + i], m->version);
    } else if (o->kind == RRB_RMF_ENTITY) {
        put_ent(b, &o->ent, m->version);
        rrb_buf_put(b, o->flags, 2);
        put_vec(b, o->origin);
        rrb_buf_put(b, o->tail4, 4);
    } else if (o->kind == RRB_RMF_WORLD) {
        put_ent(b, &o->ent, m->version);
        if (m->version <= RRB_RMF_V09)
            put_visgroups(b, m);
        else
            put_paths(b, m);
    }
}

static uint32_t version_bits(const rrb_rmf_map *m)
{
    float f;
    uint32_t u;
    memcpy(&f, &m->version_bits, 4);
    if (isfinite(f) && fabsf(f) < 100 && lroundf(f * 10) == m->version)
        return m->version_bits;
    f = (float)m->version / 10.0f;
    memcpy(&u, &f, 4);
    return u;
}

void rrb_rmf_write(const rrb_rmf_map *m, rrb_buf *out)
{
    int *left = rrb_xmalloc(((size_t)m->nobjs + 1) * sizeof *left);
    int *objs = rrb_xmalloc(((size_t)m->nobjs + 1) * sizeof *objs);
    int sp = 0, i;
    rrb_buf_u32le(out, version_bits(m));
    rrb_buf_put(out, "RMF", 3);
    if (m->version >= RRB_RMF_V14)
        put_visgroups(out, m);
    for (i = 0; i < m->nobjs; i++) {
        put_head(out, m, &m->objs[i]);
        if (sp > 0)
            left[sp - 1]--;
        objs[sp] = i, left[sp] = m->objs[i].nchildren, sp++;
        while (sp > 0 && left[sp - 1] == 0)
            put_tail(out, m, &m->objs[objs[--sp]]);
    }
    free(left);
    free(objs);
    if (m->has_docinfo) {
        rrb_buf_put(out, "DOCINFO", 8);
        rrb_buf_f32le(out, m->docinfo_version);
        put_i32(out, m->active_camera);
        put_i32(out, m->ncameras);
        for (i = 0; i < m->ncameras; i++) {
            put_vec(out, m->cameras[i].eye);
            put_vec(out, m->cameras[i].look);
        }
    }
}

/* ---- the sample map ---------------------------------------------------- */

static rrb_rmf_str mkstr(const char *s)
{
    rrb_rmf_str r;
    r.len = (uint8_t)(strlen(s) + 1);
    r.s = rrb_xstrdup(s);
    return r;
}

typedef struct builder {
    rrb_rmf_map *m;
    size_t cap_objs, cap_faces;
} builder;

static int add_obj(builder *b, int kind, int parent, const char *cls)
{
    rrb_rmf_map *m = b->m;
    rrb_rmf_obj *o;
    m->objs = rrb_grow(m->objs, &b->cap_objs, (size_t)m->nobjs + 1, sizeof *m->objs);
    o = &m->objs[m->nobjs];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->parent = parent;
    o->depth = parent < 0 ? 0 : m->objs[parent].depth + 1;
    o->classname = mkstr(cls);
    o->color[0] = 0, o->color[1] = (uint8_t)(40 + 20 * m->nobjs), o->color[2] = 200;
    if (parent >= 0) {
        m->objs[parent].nchildren++;
        o->visgroup = m->objs[parent].kind == RRB_RMF_WORLD ? 0 : m->objs[parent].visgroup;
    }
    if (o->depth > m->max_depth)
        m->max_depth = o->depth;
    if (kind == RRB_RMF_SOLID)
        o->kind_index = m->nsolids++;
    else if (kind == RRB_RMF_ENTITY)
        o->kind_index = m->nentities++;
    else if (kind == RRB_RMF_GROUP)
        o->kind_index = m->ngroups++;
    return m->nobjs++;
}

static void set_ent(rrb_rmf_ent *e, const char *cls, const char *const *kv)
{
    int n = 0, i;
    while (kv && kv[2 * n])
        n++;
    e->classname = mkstr(cls);
    e->nkv = n;
    e->kv = n ? rrb_xcalloc((size_t)n, sizeof *e->kv) : NULL;
    for (i = 0; i < n; i++) {
        e->kv[i].key = mkstr(kv[2 * i]);
        e->kv[i].value = mkstr(kv[2 * i + 1]);
    }
}

/* One face from a polygon given counter-clockwise seen from outside; it is
 * stored clockwise (§2.7) with the first three vertices as plane points. */
static void add_face(builder *b, float (*ccw)[3], int n, const char *tex)
{
    rrb_rmf_map *m = b->m;
    rrb_rmf_face *f;
    double nn[3];
    int i, ax;
    m->faces = rrb_grow(m->faces, &b->cap_faces, (size_t)m->nfaces + 1, sizeof *m->faces);
    f = &m->faces[m->nfaces++];
    memset(f, 0, sizeof *f);
    snprintf(f->tex, sizeof f->tex, "%s", tex);
    f->nverts = n;
    f->verts = rrb_xmalloc((size_t)n * sizeof *f->verts);
    for (i = 0; i < n; i++)
        memcpy(f->verts[i], ccw[n - 1 - i], sizeof f->verts[i]);
    for (i = 0; i < 3; i++)
        memcpy(f->plane[i], f->verts[i], sizeof f->plane[i]);
    rrb_rmf_newell(f, nn);
    ax = fabs(nn[2]) >= fabs(nn[0]) && fabs(nn[2]) >= fabs(nn[1]) ? 2
         : fabs(nn[0]) >= fabs(nn[1]) ? 0 : 1;
    f->uaxis[ax == 0 ? 1 : 0] = 1;
    f->vaxis[ax == 2 ? 1 : 2] = -1;
    f->scale_x = f->scale_y = 1;
}

/* A prism over a polygon (counter-clockwise seen from +z) from z0 to z1. */
static int add_prism(builder *b, int parent, const float (*p)[2], int n, float z0, float z1,
                     const char *tex)
{
    int s = add_obj(b, RRB_RMF_SOLID, parent, "CMapSolid"), i;
    float q[16][3];
    b->m->objs[s].first_face = b->m->nfaces;
    for (i = 0; i < n; i++)
        q[i][0] = p[i][0], q[i][1] = p[i][1], q[i][2] = z1;
    add_face(b, q, n, tex);
    for (i = 0; i < n; i++)
        q[i][0] = p[n - 1 - i][0], q[i][1] = p[n - 1 - i][1], q[i][2] = z0;
    add_face(b, q, n, tex);
    for (i = 0; i < n; i++) {
        const float *a = p[i], *c = p[(i + 1) % n];
        float side[4][3] = {{a[0], a[1], z0}, {c[0], c[1], z0}, {c[0], c[1], z1},
                            {a[0], a[1], z1}};
        add_face(b, side, 4, tex);
    }
    b->m->objs[s].nfaces = n + 2;
    return s;
}

static int add_box(builder *b, int parent, float x0, float y0, float z0, float x1, float y1,
                   float z1, const char *tex)
{
    const float p[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    return add_prism(b, parent, p, 4, z0, z1, tex);
}

static int add_point(builder *b, int parent, const char *cls, float x, float y, float z,
                     const char *const *kv)
{
    int e = add_obj(b, RRB_RMF_ENTITY, parent, "CMapEntity");
    rrb_rmf_obj *o = &b->m->objs[e];
    set_ent(&o->ent, cls, kv);
    o->flags[0] = 2;
    o->origin[0] = x, o->origin[1] = y, o->origin[2] = z;
    b->m->npoint++;
    return e;
}

static int add_brush_ent(builder *b, const char *cls, const char *const *kv)
{
    int e = add_obj(b, RRB_RMF_ENTITY, 0, "CMapEntity");
    set_ent(&b->m->objs[e].ent, cls, kv);
    b->m->nbrush_ent++;
    return e;
}

static void sample_visgroups(rrb_rmf_map *m)
{
    static const char *const names[2] = {"walls", "hidden crates"};
    int i;
    m->nvisgroups = 2;
    m->visgroups = rrb_xcalloc(2, sizeof *m->visgroups);
    for (i = 0; i < 2; i++) {
        snprintf(m->visgroups[i].name, sizeof m->visgroups[i].name, "%s", names[i]);
        m->visgroups[i].id = i + 1;
        m->visgroups[i].visible = (uint8_t)(i == 0);
        m->visgroups[i].color[0] = (uint8_t)(i ? 255 : 0);
        m->visgroups[i].color[1] = 128;
    }
}

static void sample_room(builder *b)
{
    static const float oct[8][2] = {{-112, -136}, {-104, -136}, {-96, -128}, {-96, -120},
                                    {-104, -112}, {-112, -112}, {-120, -120}, {-120, -128}};
    static const char *const kv_spawn[] = {"targetname", "spawn1", "angle", "90", NULL};
    static const char *const kv_light[] = {"_light", "255 255 200 300", NULL};
    static const char *const kv_water[] = {"renderamt", "128", NULL};
    static const char *const kv_trig[] = {"target", "door1", "wait", "1", NULL};
    static const char *const kv_tgt[] = {"targetname", "door1", NULL};
    int w[6], i, g;
    w[0] = add_box(b, 0, -272, -272, -16, 272, 272, 0, "FLOOR");
    w[1] = add_box(b, 0, -272, -272, 256, 272, 272, 272, "CEILING");
    w[2] = add_box(b, 0, -272, -272, 0, -256, 272, 256, "WALL");
    w[3] = add_box(b, 0, 256, -272, 0, 272, 272, 256, "WALL");
    w[4] = add_box(b, 0, -256, -272, 0, 256, -256, 256, "WALL");
    w[5] = add_box(b, 0, -256, 256, 0, 256, 272, 256, "WALL");
    for (i = 0; i < 6; i++)
        b->m->objs[w[i]].visgroup = 1;
    g = add_obj(b, RRB_RMF_GROUP, 0, "CMapGroup");
    add_prism(b, g, oct, 8, 0, 256, "PILLAR");
    add_box(b, g, -120, -100, 0, -96, -76, 24, "CRATE");
    i = add_box(b, 0, 200, -240, 0, 240, -200, 40, "CRATE");
    b->m->objs[i].visgroup = 2;
    add_point(b, 0, "info_player_start", 0, -128, 36, kv_spawn);
    add_point(b, 0, "light", 0, 0, 200, kv_light);
    add_point(b, 0, "info_target", 100, 160, 64, kv_tgt);
    add_box(b, add_brush_ent(b, "func_water", kv_water), 64, 64, 0, 192, 192, 48, "!WATER");
    add_box(b, add_brush_ent(b, "trigger_multiple", kv_trig), -64, 128, 0, 64, 192, 128,
            "AAATRIGGER");
    add_box(b, add_brush_ent(b, "func_illusionary", NULL), 128, -192, 0, 192, -128, 96,
            "FAKEWALL");
}

/* A circular path of three path_track corners (layout unverified: NOTES §2.5). */
static void sample_path(rrb_rmf_map *m)
{
    static const float pos[3][3] = {{-200, 0, 64}, {0, 200, 64}, {200, 0, 64}};
    rrb_rmf_path *p;
    int i;
    m->npaths = 1;
    m->paths = rrb_xcalloc(1, sizeof *m->paths);
    p = &m->paths[0];
    snprintf(p->name, sizeof p->name, "track");
    snprintf(p->classname, sizeof p->classname, "path_track");
    p->type = 1;
    p->nnodes = 3;
    p->nodes = rrb_xcalloc(3, sizeof *p->nodes);
    for (i = 0; i < 3; i++) {
        memcpy(p->nodes[i].pos, pos[i], sizeof pos[i]);
        p->nodes[i].index = i;
        p->nodes[i].nkv = 1;
        p->nodes[i].kv = rrb_xcalloc(1, sizeof *p->nodes[i].kv);
        p->nodes[i].kv[0].key = mkstr("speed");
        p->nodes[i].kv[0].value = mkstr(i ? "100" : "50");
    }
    snprintf(p->nodes[1].name_override, sizeof p->nodes[1].name_override, "track_top");
}

/* An empty version 2.2 map with its world object (worldspawn, keys kv). */
static void begin_map(rrb_rmf_map *m, builder *b, const char *const *kv)
{
    float v = 2.2f;
    memset(m, 0, sizeof *m);
    memset(b, 0, sizeof *b);
    b->m = m;
    m->version = RRB_RMF_V22;
    memcpy(&m->version_bits, &v, 4);
    add_obj(b, RRB_RMF_WORLD, -1, "CMapWorld");
    set_ent(&m->objs[0].ent, "worldspawn", kv);
}

void rrb_rmf_sample_map(rrb_rmf_map *m)
{
    static const char *const kv_world[] = {"wad", "sample.wad", "message", "romroom sample",
                                           NULL};
    builder b;
    begin_map(m, &b, kv_world);
    sample_visgroups(m);
    sample_room(&b);
    sample_path(m);
    m->has_docinfo = 1;
    memcpy(m->docinfo_magic, "DOCINFO", 8);
    m->docinfo_version = 0.2f;
    m->active_camera = 0;
    m->ncameras = 1;
    m->cameras = rrb_xcalloc(1, sizeof *m->cameras);
    m->cameras[0].eye[1] = -200, m->cameras[0].eye[2] = 100;
    m->cameras[0].look[2] = 64;
}

/* Two floor tiles that touch at x = 0 (A: x -256..0, B: x 0..256, z -16..0)
 * and a wall on B (x 256..272, z 0..256): the seam cases of Quake III's
 * start-inside rule (tests/host/test_rmf_bake.c). */
void rrb_rmf_seam_map(rrb_rmf_map *m)
{
    builder b;
    begin_map(m, &b, NULL);
    add_box(&b, 0, -256, -256, -16, 0, 256, 0, "FLOOR_A");
    add_box(&b, 0, 0, -256, -16, 256, 256, 0, "FLOOR_B");
    add_box(&b, 0, 256, -256, 0, 272, 256, 256, "WALL");
}

int rrb_rmf_sample(const char *dir, char *err, size_t errcap)
{
    rrb_rmf_map m;
    rrb_buf b = {0};
    char path[4096];
    int rc;
    rrb_rmf_sample_map(&m);
    rrb_rmf_write(&m, &b);
    rrb_rmf_free(&m);
    snprintf(path, sizeof path, "%s/sample.rmf", dir);
    rc = rrb_save_file(path, b.data, b.size, err, errcap);
    rrb_buf_free(&b);
    return rc;
}

/* ---- malformed variants ------------------------------------------------ */

static void copy_in(rrb_buf *out, const uint8_t *data, size_t n)
{
    out->size = 0;
    rrb_buf_put(out, data, n);
}

static void poke32(rrb_buf *out, size_t off, uint32_t v)
{
    if (off + 4 <= out->size) {
        out->data[off] = (uint8_t)v, out->data[off + 1] = (uint8_t)(v >> 8);
        out->data[off + 2] = (uint8_t)(v >> 16), out->data[off + 3] = (uint8_t)(v >> 24);
    }
}

/* Objects nested deeper than the reader's cap. */
static void depth_bomb(rrb_buf *out, size_t *expect)
{
    static const uint8_t head22[4] = {0xcd, 0xcc, 0x0c, 0x40};
    int i;
    out->size = 0;
    rrb_buf_put(out, head22, 4);
    rrb_buf_put(out, "RMF", 3);
    rrb_buf_u32le(out, 0);
    for (i = 0; i <= RRB_RMF_MAX_NEST + 8; i++) {
        if (i == RRB_RMF_MAX_NEST)
            *expect = out->size;
        rrb_buf_u8(out, 10);
        rrb_buf_put(out, i ? "CMapGroup" : "CMapWorld", 10);
        rrb_buf_u32le(out, 0);
        rrb_buf_put(out, "\0\0\0", 3);
        rrb_buf_u32le(out, 1);
    }
}

static int first_solid(const rrb_rmf_map *m)
{
    int i;
    for (i = 0; i < m->nobjs; i++)
        if (m->objs[i].kind == RRB_RMF_SOLID && m->objs[i].nfaces)
            return i;
    return -1;
}

/* Variants that patch the first face (fc = that face). */
static int face_variant(rrb_buf *out, const rrb_rmf_face *fc, int k, char *desc,
                        size_t cap, size_t *expect)
{
    size_t vo = fc->nverts_off + 4, po = vo + 12 * (size_t)fc->nverts;
    size_t i;
    switch (k) {
    case 0: poke32(out, fc->nverts_off, 2); *expect = fc->nverts_off;
        snprintf(desc, cap, "face with 2 vertices"); return 0;
    case 1: poke32(out, fc->nverts_off, 0x10000000u); *expect = fc->nverts_off;
        snprintf(desc, cap, "vertex count past the end"); return 0;
    case 2: poke32(out, vo, 0x7fc00000u); *expect = vo;
        snprintf(desc, cap, "NaN vertex"); return 0;
    case 3: poke32(out, po + 4, 0x7f800000u); *expect = po + 4;
        snprintf(desc, cap, "Inf plane point"); return 0;
    case 4:
        for (i = 1; i < (size_t)fc->nverts; i++)
            memcpy(out->data + vo + 12 * i, out->data + vo, 12);
        *expect = fc->off;
        snprintf(desc, cap, "zero-area face"); return 0;
    case 5:
        memcpy(out->data + po + 12, out->data + po, 12);
        *expect = fc->off;
        snprintf(desc, cap, "collinear plane points"); return 0;
    case 6: poke32(out, fc->off - 4, 0x7ffffff0u); *expect = fc->off - 4;
        snprintf(desc, cap, "face count past the end"); return 0;
    case 7: out->size = vo + 6;  /* a count check may fire first: any offset */
        snprintf(desc, cap, "truncated inside a vertex"); return 0;
    }
    return -1;
}

static int header_variant(rrb_buf *out, const rrb_rmf_map *m, size_t size, int k,
                          char *desc, size_t cap, size_t *expect)
{
    switch (k) {
    case 0: out->data[4] = 'X'; *expect = 4; snprintf(desc, cap, "bad magic"); return 0;
    case 1: poke32(out, 0, 0x3f800000u); *expect = 0;
        snprintf(desc, cap, "unknown version 1.0"); return 0;
    case 2: poke32(out, 0, 0x7fc00000u); *expect = 0;
        snprintf(desc, cap, "NaN version"); return 0;
    case 3: poke32(out, m->objs[0].count_off, 0x7fffffffu); *expect = m->objs[0].count_off;
        snprintf(desc, cap, "world child count past the end"); return 0;
    case 4: poke32(out, m->objs[0].count_off, 0xfffffffbu); *expect = m->objs[0].count_off;
        snprintf(desc, cap, "negative child count"); return 0;
    case 5: rrb_buf_put(out, "junk!", 5); *expect = size;
        snprintf(desc, cap, "trailing bytes"); return 0;
    case 6: depth_bomb(out, expect);
        snprintf(desc, cap, "nesting deeper than %d", RRB_RMF_MAX_NEST); return 0;
    case 7:
        if (m->nobjs < 2)
            return 1;
        out->data[m->objs[1].off + 5] ^= 0x20;
        *expect = m->objs[1].off;
        snprintf(desc, cap, "unknown class name"); return 0;
    case 8: out->size = 5; *expect = 4; snprintf(desc, cap, "truncated magic"); return 0;
    case 9:
        if (m->version < RRB_RMF_V14)
            return 1;
        poke32(out, 7, 0x01000000u); *expect = 7;
        snprintf(desc, cap, "visgroup count past the end"); return 0;
    }
    return -1;
}

int rrb_rmf_malformed(const uint8_t *data, size_t size, const rrb_rmf_map *m, int k,
                      rrb_buf *out, char *desc, size_t desccap, size_t *expect_off)
{
    int fs = first_solid(m), r, ntrunc = m->nobjs < 40 ? m->nobjs : 40;
    copy_in(out, data, size);
    *expect_off = (size_t)-1;
    if (k < 10) {
        r = header_variant(out, m, size, k, desc, desccap, expect_off);
        if (r == 1)  /* not applicable to this file: a harmless truncation instead */
            out->size = size - 1, snprintf(desc, desccap, "truncated by one byte");
        return 0;
    }
    k -= 10;
    if (k < 8) {
        if (fs < 0) {
            out->size = size / 2;
            snprintf(desc, desccap, "truncated to half");
            return 0;
        }
        return face_variant(out, &m->faces[m->objs[fs].first_face], k, desc, desccap,
                            expect_off);
    }
    k -= 8;
    if (k < ntrunc) {
        int o = (int)((long)k * m->nobjs / ntrunc);
        out->size = m->objs[o].off + 3;  /* any offset (an earlier count may fail) */
        snprintf(desc, desccap, "truncated inside the class name of object %d", o);
        return 0;
    }
    return -1;
}

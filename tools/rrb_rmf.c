/* rrb_rmf.c - RMF reader (all six versions) and the info / verify / dump
 * hooks of rrbake. Layout: specs/NOTES.md §2 (wins over specs/rmf.txt).
 *
 * The object tree is read without recursion: an explicit, growable stack of
 * {object, children still to read}. An object is its head (class, visgroup,
 * colour, child count), then its children, then its class tail (faces,
 * entity data, world tail), so a frame reads its tail when its children are
 * done. Objects land in m->objs in file pre-order.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_rmf.h"

typedef struct frame {
    int obj, left;
} frame;

typedef struct reader {
    rrb_cur c;
    rrb_rmf_map *m;
    int v;
    size_t cap_objs, cap_faces;
    char what[128];
} reader;

static const char *obj_name(const rrb_rmf_obj *o, char *buf, size_t cap)
{
    static const char *const kinds[] = {"world", "group", "solid", "entity"};
    if (o->kind == RRB_RMF_WORLD)
        snprintf(buf, cap, "world");
    else
        snprintf(buf, cap, "%s %d", kinds[o->kind], o->kind_index);
    return buf;
}

/* Set the context text for the next reads: "solid 12 face 3 vertex 2". */
static const char *ctx(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *ctx(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->what, sizeof r->what, fmt, ap);
    va_end(ap);
    return r->what;
}

static void read_str(reader *r, rrb_rmf_str *s, const char *what)
{
    size_t at = r->c.pos;
    uint8_t n = rrb_u8(&r->c, what);
    s->len = n;
    s->s = NULL;
    if (r->c.failed)
        return;
    if (n > rrb_left(&r->c)) {
        rrb_fail(&r->c, at, "expected %s of %u bytes, found only %zu bytes left", what, n,
                 rrb_left(&r->c));
        return;
    }
    s->s = rrb_xmalloc((size_t)n + 1);
    rrb_bytes(&r->c, s->s, n, what);
    s->s[n] = 0;
}

static void read_fixed(reader *r, char *out, size_t n, const char *what)
{
    memset(out, 0, n + 1);
    rrb_bytes(&r->c, out, n, what);
}

static void read_vec(reader *r, float v[3], const char *what)
{
    v[0] = rrb_f32(&r->c, what);
    v[1] = rrb_f32(&r->c, what);
    v[2] = rrb_f32(&r->c, what);
}

static int read_count(reader *r, size_t min_bytes, const char *what)
{
    size_t at = r->c.pos;
    int32_t n = rrb_i32(&r->c, what);
    if (rrb_check_count(&r->c, at, n, min_bytes, what))
        return -1;
    return n;
}

static void read_kvs(reader *r, int *n, rrb_rmf_kv **kv, const char *who)
{
    int i;
    char what[160];
    snprintf(what, sizeof what, "%s key/value count", who);
    *kv = NULL;
    *n = read_count(r, 2, what);
    if (*n <= 0) {
        *n = 0;
        return;
    }
    *kv = rrb_xcalloc((size_t)*n, sizeof **kv);
    for (i = 0; i < *n && !r->c.failed; i++) {
        snprintf(what, sizeof what, "%s key %d", who, i);
        read_str(r, &(*kv)[i].key, what);
        snprintf(what, sizeof what, "%s value %d", who, i);
        read_str(r, &(*kv)[i].value, what);
    }
}

static void read_ent(reader *r, rrb_rmf_ent *e, const char *who)
{
    char what[160];
    snprintf(what, sizeof what, "%s classname", who);
    read_str(r, &e->classname, what);
    rrb_bytes(&r->c, e->unknown4, 4, "entity unknown bytes");
    e->spawnflags = rrb_i32(&r->c, "spawnflags");
    read_kvs(r, &e->nkv, &e->kv, who);
    if (r->v >= RRB_RMF_V16)
        rrb_bytes(&r->c, e->unknown12, 12, "entity 12 unknown bytes (>= 1.6)");
}

size_t rrb_rmf_tex_len(int v)
{
    return v == RRB_RMF_V08 ? 16 : v <= RRB_RMF_V16 ? 40 : 260;
}

size_t rrb_rmf_unk_len(int v)
{
    return v <= RRB_RMF_V09 ? 0 : v <= RRB_RMF_V16 ? 4 : 16;
}

/* Smallest face of this version (3 vertices). */
static size_t face_min(int v)
{
    return rrb_rmf_tex_len(v) + (v == RRB_RMF_V22 ? 36 : 12) + 8 + rrb_rmf_unk_len(v) + 4 +
           36 + 36;
}

void rrb_rmf_newell(const rrb_rmf_face *f, double n[3])
{
    int i;
    n[0] = n[1] = n[2] = 0;
    for (i = 0; i < f->nverts; i++) {
        const float *a = f->verts[i], *b = f->verts[(i + 1) % f->nverts];
        n[0] += ((double)a[1] - (double)b[1]) * ((double)a[2] + (double)b[2]);
        n[1] += ((double)a[2] - (double)b[2]) * ((double)a[0] + (double)b[0]);
        n[2] += ((double)a[0] - (double)b[0]) * ((double)a[1] + (double)b[1]);
    }
    /* Stored order is clockwise from outside: the right-hand normal points in. */
    n[0] = -n[0];
    n[1] = -n[1];
    n[2] = -n[2];
}

int rrb_rmf_face_plane(const rrb_rmf_face *f, double n[3], double *d)
{
    double len, c[3] = {0, 0, 0};
    int i;
    rrb_rmf_newell(f, n);
    len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len / 2 >= RRB_RMF_MIN_AREA))
        return -1;
    for (i = 0; i < 3; i++)
        n[i] /= len;
    for (i = 0; i < f->nverts; i++) {
        c[0] += (double)f->verts[i][0];
        c[1] += (double)f->verts[i][1];
        c[2] += (double)f->verts[i][2];
    }
    *d = (n[0] * c[0] + n[1] * c[1] + n[2] * c[2]) / f->nverts;
    return 0;
}

static int plane_points_collinear(const rrb_rmf_face *f)
{
    const float *p0 = f->plane[0], *p1 = f->plane[1], *p2 = f->plane[2];
    double a[3], b[3], x, y, z;
    int i;
    for (i = 0; i < 3; i++) {
        a[i] = (double)p1[i] - (double)p0[i];
        b[i] = (double)p2[i] - (double)p0[i];
    }
    x = a[1] * b[2] - a[2] * b[1];
    y = a[2] * b[0] - a[0] * b[2];
    z = a[0] * b[1] - a[1] * b[0];
    return sqrt(x * x + y * y + z * z) / 2 < RRB_RMF_MIN_AREA;
}

static void read_face_tex(reader *r, rrb_rmf_face *f, const char *who)
{
    read_fixed(r, f->tex, rrb_rmf_tex_len(r->v), ctx(r, "%s texture name", who));
    ctx(r, "%s texture fields", who);
    if (r->v == RRB_RMF_V22) {
        read_vec(r, f->uaxis, r->what);
        f->shift_x = rrb_f32(&r->c, r->what);
        read_vec(r, f->vaxis, r->what);
        f->shift_y = rrb_f32(&r->c, r->what);
        f->rotation = rrb_f32(&r->c, r->what);
    } else {
        f->rotation = rrb_f32(&r->c, r->what);
        f->shift_x = rrb_f32(&r->c, r->what);
        f->shift_y = rrb_f32(&r->c, r->what);
    }
    f->scale_x = rrb_f32(&r->c, r->what);
    f->scale_y = rrb_f32(&r->c, r->what);
    rrb_bytes(&r->c, f->unknown, rrb_rmf_unk_len(r->v), ctx(r, "%s unknown bytes", who));
}

static void read_face(reader *r, rrb_rmf_face *f, const char *who)
{
    size_t at;
    int i, n;
    double nn[3];
    f->off = r->c.pos;
    read_face_tex(r, f, who);
    at = f->nverts_off = r->c.pos;
    n = read_count(r, 12, ctx(r, "%s vertex count", who));
    if (r->c.failed)
        return;
    if (n < 3) {
        rrb_fail(&r->c, at, "expected at least 3 vertices in %s, found %d", who, n);
        return;
    }
    f->nverts = n;
    f->verts = rrb_xmalloc((size_t)n * sizeof *f->verts);
    for (i = 0; i < n && !r->c.failed; i++)
        read_vec(r, f->verts[i], ctx(r, "%s vertex %d", who, i));
    for (i = 0; i < 3 && !r->c.failed; i++)
        read_vec(r, f->plane[i], ctx(r, "%s plane point %d", who, i));
    if (r->c.failed)
        return;
    rrb_rmf_newell(f, nn);
    if (sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]) / 2 < RRB_RMF_MIN_AREA)
        rrb_fail(&r->c, f->off, "expected a polygon of non-zero area in %s, found a "
                 "degenerate face (collinear or coincident vertices)", who);
    else if (plane_points_collinear(f))
        rrb_fail(&r->c, f->off, "expected 3 non-collinear plane points in %s, found "
                 "collinear ones", who);
}

static void read_faces(reader *r, int idx)
{
    rrb_rmf_map *m = r->m;
    char who[64], what[96];
    int n, i;
    obj_name(&m->objs[idx], who, sizeof who);
    snprintf(what, sizeof what, "%s face count", who);
    n = read_count(r, face_min(r->v), what);
    if (n < 0)
        return;
    m->faces = rrb_grow(m->faces, &r->cap_faces, (size_t)m->nfaces + (size_t)n,
                        sizeof *m->faces);
    m->objs[idx].first_face = m->nfaces;
    m->objs[idx].nfaces = n;
    for (i = 0; i < n && !r->c.failed; i++) {
        rrb_rmf_face *f = &m->faces[m->nfaces++];
        memset(f, 0, sizeof *f);
        snprintf(what, sizeof what, "%s face %d", who, i);
        read_face(r, f, what);
    }
}

static void read_visgroups(reader *r)
{
    rrb_rmf_map *m = r->m;
    int old = r->v <= RRB_RMF_V09, i, n;
    n = read_count(r, old ? 136 : 140, "visgroup count");
    if (n <= 0)
        return;
    m->visgroups = rrb_xcalloc((size_t)n, sizeof *m->visgroups);
    m->nvisgroups = n;
    for (i = 0; i < n && !r->c.failed; i++) {
        rrb_rmf_visgroup *g = &m->visgroups[i];
        read_fixed(r, g->name, 128, ctx(r, "visgroup %d name", i));
        rrb_bytes(&r->c, g->color, 4, ctx(r, "visgroup %d colour", i));
        g->id = old ? rrb_u8(&r->c, r->what) : rrb_i32(&r->c, r->what);
        g->visible = rrb_u8(&r->c, ctx(r, "visgroup %d visible flag", i));
        rrb_bytes(&r->c, g->pad, old ? 2 : 3, r->what);
    }
}

static void read_paths(reader *r)
{
    rrb_rmf_map *m = r->m;
    int i, j, n = read_count(r, 264, "path count");
    if (n <= 0)
        return;
    m->paths = rrb_xcalloc((size_t)n, sizeof *m->paths);
    m->npaths = n;
    for (i = 0; i < n && !r->c.failed; i++) {
        rrb_rmf_path *p = &m->paths[i];
        read_fixed(r, p->name, 128, ctx(r, "path %d name", i));
        read_fixed(r, p->classname, 128, ctx(r, "path %d classname", i));
        p->type = rrb_i32(&r->c, ctx(r, "path %d type", i));
        p->nnodes = read_count(r, 148, ctx(r, "path %d node count", i));
        if (p->nnodes <= 0) {
            p->nnodes = 0;
            continue;
        }
        p->nodes = rrb_xcalloc((size_t)p->nnodes, sizeof *p->nodes);
        for (j = 0; j < p->nnodes && !r->c.failed; j++) {
            rrb_rmf_pathnode *nd = &p->nodes[j];
            char who[64];
            snprintf(who, sizeof who, "path %d node %d", i, j);
            read_vec(r, nd->pos, ctx(r, "%s position", who));
            nd->index = rrb_i32(&r->c, ctx(r, "%s index", who));
            read_fixed(r, nd->name_override, 128, ctx(r, "%s name", who));
            read_kvs(r, &nd->nkv, &nd->kv, who);
        }
    }
}

/* Object head: class name, visgroup(s), colour, child count. */
static int read_head(reader *r, int parent, int depth, const char *who)
{
    rrb_rmf_map *m = r->m;
    rrb_rmf_obj *o;
    size_t at = r->c.pos;
    int idx = m->nobjs;
    rrb_rmf_str cls;
    read_str(r, &cls, ctx(r, "object class name of %s", who));
    if (r->c.failed)
        return -1;
    m->objs = rrb_grow(m->objs, &r->cap_objs, (size_t)m->nobjs + 1, sizeof *m->objs);
    o = &m->objs[m->nobjs++];
    memset(o, 0, sizeof *o);
    o->classname = cls;
    o->parent = parent;
    o->depth = depth;
    o->off = at;
    o->kind = -1;
    if (strcmp(cls.s, "CMapWorld") == 0 && parent < 0)
        o->kind = RRB_RMF_WORLD;
    else if (strcmp(cls.s, "CMapGroup") == 0 && parent >= 0 &&
             m->objs[parent].kind != RRB_RMF_ENTITY)
        o->kind = RRB_RMF_GROUP, o->kind_index = m->ngroups++;
    else if (strcmp(cls.s, "CMapSolid") == 0 && parent >= 0)
        o->kind = RRB_RMF_SOLID, o->kind_index = m->nsolids++;
    else if (strcmp(cls.s, "CMapEntity") == 0 && parent >= 0 &&
             m->objs[parent].kind != RRB_RMF_ENTITY)
        o->kind = RRB_RMF_ENTITY, o->kind_index = m->nentities++;
    if (o->kind < 0) {
        rrb_fail(&r->c, at, "expected %s as %s, found \"%s\"",
                 parent < 0 ? "CMapWorld" : m->objs[parent].kind == RRB_RMF_ENTITY
                     ? "CMapSolid" : "CMapGroup, CMapSolid or CMapEntity", who, cls.s);
        return -1;
    }
    return idx;
}

static int read_head_rest(reader *r, int idx)
{
    rrb_rmf_obj *o = &r->m->objs[idx];
    char who[64];
    int n;
    obj_name(o, who, sizeof who);
    if (r->v <= RRB_RMF_V09) {
        int i;
        o->nvislist = read_count(r, 1, ctx(r, "%s visgroup list length", who));
        if (o->nvislist < 0)
            return -1;
        o->vislist = rrb_xmalloc((size_t)o->nvislist + 1);
        rrb_bytes(&r->c, o->vislist, (size_t)o->nvislist, r->what);
        for (i = 0; i < o->nvislist && !o->visgroup; i++)
            o->visgroup = o->vislist[i];
    } else {
        o->visgroup = rrb_i32(&r->c, ctx(r, "%s visgroup id", who));
    }
    rrb_bytes(&r->c, o->color, 3, ctx(r, "%s colour", who));
    o->count_off = r->c.pos;
    n = read_count(r, 12, ctx(r, "%s child count", who));
    if (n < 0)
        return -1;
    if (n > 0 && o->kind == RRB_RMF_SOLID)
        return rrb_fail(&r->c, o->count_off, "expected 0 children in %s, found %d", who, n);
    o->nchildren = n;
    return 0;
}

static void read_tail(reader *r, int idx)
{
    rrb_rmf_obj *o = &r->m->objs[idx];
    char who[64];
    obj_name(o, who, sizeof who);
    if (o->kind == RRB_RMF_SOLID) {
        read_faces(r, idx);
    } else if (o->kind == RRB_RMF_ENTITY) {
        read_ent(r, &o->ent, who);
        rrb_bytes(&r->c, o->flags, 2, ctx(r, "%s flags", who));
        read_vec(r, o->origin, ctx(r, "%s origin", who));
        rrb_bytes(&r->c, o->tail4, 4, ctx(r, "%s last 4 bytes", who));
        if (o->nchildren)
            r->m->nbrush_ent++;
        else
            r->m->npoint++;
    } else if (o->kind == RRB_RMF_WORLD) {
        read_ent(r, &o->ent, who);
        if (r->v <= RRB_RMF_V09)
            read_visgroups(r);
        else
            read_paths(r);
    }
}

/* The object tree, without recursion. */
static void read_tree(reader *r)
{
    frame *st = NULL;
    size_t cap = 0;
    int sp = 0, idx;
    idx = read_head(r, -1, 0, "the root object");
    if (idx < 0 || read_head_rest(r, idx))
        return;
    st = rrb_grow(st, &cap, 1, sizeof *st);
    st[sp].obj = idx, st[sp].left = r->m->objs[idx].nchildren, sp++;
    while (sp > 0 && !r->c.failed) {
        frame *t = &st[sp - 1];
        char who[96], pn[64];
        if (t->left == 0) {
            read_tail(r, t->obj);
            sp--;
            continue;
        }
        snprintf(who, sizeof who, "child %d of %s", r->m->objs[t->obj].nchildren - t->left,
                 obj_name(&r->m->objs[t->obj], pn, sizeof pn));
        t->left--;
        if (sp >= RRB_RMF_MAX_NEST) {
            rrb_fail(&r->c, r->c.pos, "expected objects nested at most %d deep, found "
                     "deeper nesting at %s", RRB_RMF_MAX_NEST, who);
            break;
        }
        idx = read_head(r, t->obj, sp, who);
        if (idx < 0 || read_head_rest(r, idx))
            break;
        if (sp > r->m->max_depth)
            r->m->max_depth = sp;
        st = rrb_grow(st, &cap, (size_t)sp + 1, sizeof *st);
        st[sp].obj = idx, st[sp].left = r->m->objs[idx].nchildren, sp++;
    }
    free(st);
}

static void read_docinfo(reader *r)
{
    rrb_rmf_map *m = r->m;
    size_t at = r->c.pos, cam_at;
    int32_t ncam;
    int i;
    if (rrb_left(&r->c) == 0)
        return;
    rrb_bytes(&r->c, m->docinfo_magic, 8, "DOCINFO block or end of file");
    if (!r->c.failed && memcmp(m->docinfo_magic, "DOCINFO", 8) != 0) {
        rrb_fail(&r->c, at, "expected \"DOCINFO\\0\" or end of file, found %zu more bytes",
                 r->c.size - at);
        return;
    }
    m->has_docinfo = 1;
    m->docinfo_version = rrb_f32(&r->c, "docinfo version");
    cam_at = r->c.pos;
    m->active_camera = rrb_i32(&r->c, "active camera");
    m->ncameras = read_count(r, 24, "camera count");
    ncam = m->ncameras > 0 ? m->ncameras : 0;
    rrb_trace_index(&r->c, cam_at, ncam, "active camera");
    if (!r->c.failed && (m->active_camera < -1 || m->active_camera >= ncam))
        rrb_fail(&r->c, cam_at, "expected active camera -1 (none) .. %d, found %d", ncam - 1,
                 (int)m->active_camera);
    if (m->ncameras <= 0) {
        m->ncameras = 0;
    } else {
        m->cameras = rrb_xcalloc((size_t)m->ncameras, sizeof *m->cameras);
        for (i = 0; i < m->ncameras && !r->c.failed; i++) {
            read_vec(r, m->cameras[i].eye, ctx(r, "camera %d eye", i));
            read_vec(r, m->cameras[i].look, ctx(r, "camera %d look-at", i));
        }
    }
    if (!r->c.failed && rrb_left(&r->c))
        rrb_fail(&r->c, r->c.pos, "expected end of file after the docinfo, found %zu more "
                 "bytes", rrb_left(&r->c));
}

static void read_header(reader *r)
{
    uint8_t magic[3];
    float fv;
    int v;
    r->m->version_bits = rrb_u32(&r->c, "version float");
    memcpy(&fv, &r->m->version_bits, 4);
    rrb_bytes(&r->c, magic, 3, "magic \"RMF\"");
    if (r->c.failed)
        return;
    if (memcmp(magic, "RMF", 3) != 0) {
        rrb_fail(&r->c, 4, "expected magic \"RMF\", found %02x %02x %02x", magic[0],
                 magic[1], magic[2]);
        return;
    }
    v = isfinite(fv) && fabsf(fv) < 100 ? (int)lroundf(fv * 10) : -1;
    if (v != 8 && v != 9 && v != 14 && v != 16 && v != 18 && v != 22) {
        rrb_fail(&r->c, 0, "expected version 0.8, 0.9, 1.4, 1.6, 1.8 or 2.2, found %g "
                 "(bits %08x)", (double)fv, r->m->version_bits);
        return;
    }
    r->v = r->m->version = v;
    if (v >= RRB_RMF_V14)
        read_visgroups(r);
}

int rrb_rmf_read_off(const uint8_t *data, size_t size, const char *path, rrb_rmf_map *m,
                     char *err, size_t errcap, size_t *erroff)
{
    reader r;
    memset(m, 0, sizeof *m);
    memset(&r, 0, sizeof r);
    rrb_cur_init(&r.c, data, size, path);
    r.m = m;
    read_header(&r);
    if (!r.c.failed)
        read_tree(&r);
    if (!r.c.failed)
        read_docinfo(&r);
    if (r.c.failed) {
        if (err && errcap)
            snprintf(err, errcap, "%s", r.c.err);
        if (erroff)
            *erroff = r.c.err_off;
        rrb_rmf_free(m);
        return -1;
    }
    return 0;
}

int rrb_rmf_read(const uint8_t *data, size_t size, const char *path, rrb_rmf_map *m,
                 char *err, size_t errcap)
{
    return rrb_rmf_read_off(data, size, path, m, err, errcap, NULL);
}

static void free_kvs(rrb_rmf_kv *kv, int n)
{
    int i;
    for (i = 0; kv && i < n; i++) {
        free(kv[i].key.s);
        free(kv[i].value.s);
    }
    free(kv);
}

void rrb_rmf_free(rrb_rmf_map *m)
{
    int i, j;
    for (i = 0; i < m->nobjs; i++) {
        free(m->objs[i].classname.s);
        free(m->objs[i].vislist);
        free(m->objs[i].ent.classname.s);
        free_kvs(m->objs[i].ent.kv, m->objs[i].ent.nkv);
    }
    for (i = 0; i < m->nfaces; i++)
        free(m->faces[i].verts);
    for (i = 0; i < m->npaths; i++) {
        for (j = 0; j < m->paths[i].nnodes; j++)
            free_kvs(m->paths[i].nodes[j].kv, m->paths[i].nodes[j].nkv);
        free(m->paths[i].nodes);
    }
    free(m->objs);
    free(m->faces);
    free(m->visgroups);
    free(m->paths);
    free(m->cameras);
    memset(m, 0, sizeof *m);
}

int rrb_rmf_owner(const rrb_rmf_map *m, int obj)
{
    while (obj > 0 && m->objs[obj].kind != RRB_RMF_ENTITY)
        obj = m->objs[obj].parent;
    return obj < 0 ? 0 : obj;
}

const char *rrb_rmf_value(const rrb_rmf_ent *e, const char *key)
{
    int i;
    for (i = 0; i < e->nkv; i++)
        if (e->kv[i].key.s && rrb_strieq(e->kv[i].key.s, key))
            return e->kv[i].value.s ? e->kv[i].value.s : "";
    return NULL;
}

static int visgroup_hidden(const rrb_rmf_map *m, int32_t id)
{
    int i;
    if (id == 0)
        return 0;
    for (i = 0; i < m->nvisgroups; i++)
        if (m->visgroups[i].id == id)
            return !m->visgroups[i].visible;
    return 0;
}

int rrb_rmf_hidden(const rrb_rmf_map *m, int obj)
{
    for (; obj >= 0; obj = m->objs[obj].parent)
        if (visgroup_hidden(m, m->objs[obj].visgroup))
            return 1;
    return 0;
}

/* ---- rrbake hooks ---------------------------------------------------- */

int rrb_rmf_probe(const uint8_t *data, size_t size, const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (size >= 7 && memcmp(data + 4, "RMF", 3) == 0)
        return 1;
    return n >= 4 && rrb_strieq(path + n - 4, ".rmf");
}

static long total_vertices(const rrb_rmf_map *m)
{
    long n = 0;
    int i;
    for (i = 0; i < m->nfaces; i++)
        n += m->faces[i].nverts;
    return n;
}

static int rmf_info_any(const uint8_t *data, size_t size, const char *path, FILE *out,
                        char *err, size_t errcap, int json)
{
    rrb_rmf_map m;
    if (rrb_rmf_read(data, size, path, &m, err, errcap))
        return -1;
    if (json)
        fprintf(out, "{\"format\": \"rmf\", \"version\": \"%d.%d\", \"visgroups\": %d, "
                "\"solids\": %d, \"faces\": %d, \"vertices\": %ld, \"entities\": %d, "
                "\"point_entities\": %d, \"brush_entities\": %d, \"groups\": %d, "
                "\"paths\": %d, \"cameras\": %d, \"docinfo\": %s, \"max_nesting\": %d}\n",
                m.version / 10, m.version % 10, m.nvisgroups, m.nsolids, m.nfaces,
                total_vertices(&m), m.nentities, m.npoint, m.nbrush_ent, m.ngroups,
                m.npaths, m.ncameras, m.has_docinfo ? "true" : "false", m.max_depth);
    else
        fprintf(out, "%s: rmf %d.%d\n  visgroups %d\n  solids %d\n  faces %d\n"
                "  vertices %ld\n  entities %d (%d point, %d brush)\n  groups %d\n"
                "  paths %d\n  cameras %d%s\n  max nesting %d\n", path, m.version / 10,
                m.version % 10, m.nvisgroups, m.nsolids, m.nfaces, total_vertices(&m),
                m.nentities, m.npoint, m.nbrush_ent, m.ngroups, m.npaths, m.ncameras,
                m.has_docinfo ? "" : " (no docinfo)", m.max_depth);
    rrb_rmf_free(&m);
    return 0;
}

int rrb_rmf_info(const uint8_t *d, size_t s, const char *p, FILE *o, char *e, size_t c)
{
    return rmf_info_any(d, s, p, o, e, c, 0);
}

int rrb_rmf_info_json(const uint8_t *d, size_t s, const char *p, FILE *o, char *e,
                      size_t c)
{
    return rmf_info_any(d, s, p, o, e, c, 1);
}

/* Largest vertex distance from the face's Newell plane. */
static double face_warp(const rrb_rmf_face *f)
{
    double n[3], d, worst = 0;
    int i;
    if (rrb_rmf_face_plane(f, n, &d))
        return HUGE_VAL;
    for (i = 0; i < f->nverts; i++) {
        double e = fabs(n[0] * (double)f->verts[i][0] + n[1] * (double)f->verts[i][1] +
                        n[2] * (double)f->verts[i][2] - d);
        if (e > worst)
            worst = e;
    }
    return worst;
}

void rrb_rmf_centroid(const rrb_rmf_map *m, const rrb_rmf_obj *o, double c[3])
{
    long nv = 0;
    int i, j;
    c[0] = c[1] = c[2] = 0;
    for (i = 0; i < o->nfaces; i++) {
        const rrb_rmf_face *f = &m->faces[o->first_face + i];
        for (j = 0; j < f->nverts; j++, nv++) {
            c[0] += (double)f->verts[j][0];
            c[1] += (double)f->verts[j][1];
            c[2] += (double)f->verts[j][2];
        }
    }
    for (i = 0; i < 3 && nv; i++)
        c[i] /= (double)nv;
}

/* Signed distance of the vertex centroid of a solid to its faces: the most
 * positive value (must be < 0: the centroid is inside its own brush). */
static double centroid_out(const rrb_rmf_map *m, const rrb_rmf_obj *o)
{
    double c[3], worst = -HUGE_VAL;
    int i;
    rrb_rmf_centroid(m, o, c);
    for (i = 0; i < o->nfaces; i++) {
        double n[3], d, s;
        if (rrb_rmf_face_plane(&m->faces[o->first_face + i], n, &d))
            continue;
        s = n[0] * c[0] + n[1] * c[1] + n[2] * c[2] - d;
        if (s > worst)
            worst = s;
    }
    return worst;
}

int rrb_rmf_verify(const uint8_t *data, size_t size, const char *path, FILE *out,
                   char *err, size_t errcap)
{
    rrb_rmf_map m;
    double worst = 0;
    int i, bad = 0, wf = -1, outside = 0;
    if (rrb_rmf_read(data, size, path, &m, err, errcap))
        return -1;
    fprintf(out, "ok parse: version %d.%d, %d objects, %d solids, %d faces, read to EOF "
            "(%zu bytes)\n", m.version / 10, m.version % 10, m.nobjs, m.nsolids, m.nfaces,
            size);
    for (i = 0; i < m.nfaces; i++) {
        double w = face_warp(&m.faces[i]);
        if (w > worst)
            worst = w, wf = i;
        bad += w > RRB_RMF_PLANE_TOL;
    }
    for (i = 0; i < m.nobjs; i++)
        if (m.objs[i].kind == RRB_RMF_SOLID && m.objs[i].nfaces &&
            centroid_out(&m, &m.objs[i]) >= 0)
            outside++;
    fprintf(out, "%s planes: largest vertex distance from its Newell plane %.4f "
            "(face %d), %d faces over %.2f\n", bad ? "FAIL" : "ok", worst, wf, bad,
            RRB_RMF_PLANE_TOL);
    fprintf(out, "%s convexity: %d of %d solids have their vertex centroid outside "
            "their own planes\n", outside ? "FAIL" : "ok", outside, m.nsolids);
    rrb_rmf_free(&m);
    if (bad || outside) {
        snprintf(err, errcap, "%s: %d warped faces, %d inside-out solids", path, bad,
                 outside);
        return -1;
    }
    return 0;
}

static void json_vec(FILE *f, const float v[3])
{
    fprintf(f, "[%.9g, %.9g, %.9g]", (double)v[0], (double)v[1], (double)v[2]);
}

static void json_kvs(FILE *f, const rrb_rmf_kv *kv, int n)
{
    int i;
    fputc('{', f);
    for (i = 0; i < n; i++) {
        if (i)
            fputs(", ", f);
        rrb_json_str(f, kv[i].key.s);
        fputs(": ", f);
        rrb_json_str(f, kv[i].value.s);
    }
    fputc('}', f);
}

static void json_face(FILE *f, const rrb_rmf_face *fc)
{
    int i;
    fputs("{\"texture\": ", f);
    rrb_json_str(f, fc->tex);
    fputs(", \"u_axis\": ", f);
    json_vec(f, fc->uaxis);
    fputs(", \"v_axis\": ", f);
    json_vec(f, fc->vaxis);
    fprintf(f, ", \"shift\": [%.9g, %.9g], \"rotation\": %.9g, \"scale\": [%.9g, %.9g], "
            "\"vertices\": [", (double)fc->shift_x, (double)fc->shift_y,
            (double)fc->rotation, (double)fc->scale_x, (double)fc->scale_y);
    for (i = 0; i < fc->nverts; i++) {
        if (i)
            fputs(", ", f);
        json_vec(f, fc->verts[i]);
    }
    fputs("], \"plane_points\": [", f);
    for (i = 0; i < 3; i++) {
        if (i)
            fputs(", ", f);
        json_vec(f, fc->plane[i]);
    }
    fputs("]}", f);
}

static void json_obj(FILE *f, const rrb_rmf_map *m, int i)
{
    static const char *const kinds[] = {"world", "group", "solid", "entity"};
    const rrb_rmf_obj *o = &m->objs[i];
    int j;
    fprintf(f, "  {\"index\": %d, \"kind\": \"%s\", \"parent\": %d, \"depth\": %d, "
            "\"visgroup\": %d, \"color\": [%u, %u, %u], \"children\": %d", i,
            kinds[o->kind], o->parent, o->depth, (int)o->visgroup, o->color[0], o->color[1],
            o->color[2], o->nchildren);
    if (o->kind == RRB_RMF_ENTITY || o->kind == RRB_RMF_WORLD) {
        fputs(", \"classname\": ", f);
        rrb_json_str(f, o->ent.classname.s);
        fprintf(f, ", \"spawnflags\": %d, \"keys\": ", (int)o->ent.spawnflags);
        json_kvs(f, o->ent.kv, o->ent.nkv);
    }
    if (o->kind == RRB_RMF_ENTITY) {
        fputs(", \"origin\": ", f);
        json_vec(f, o->origin);
    }
    if (o->kind == RRB_RMF_SOLID) {
        fputs(", \"faces\": [\n", f);
        for (j = 0; j < o->nfaces; j++) {
            fputs(j ? ",\n    " : "    ", f);
            json_face(f, &m->faces[o->first_face + j]);
        }
        fputs("]", f);
    }
    fputs("}", f);
}

static void json_paths(FILE *f, const rrb_rmf_map *m)
{
    int i, j;
    fputs("\"paths\": [", f);
    for (i = 0; i < m->npaths; i++) {
        const rrb_rmf_path *p = &m->paths[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        rrb_json_str(f, p->name);
        fputs(", \"classname\": ", f);
        rrb_json_str(f, p->classname);
        fprintf(f, ", \"type\": %d, \"nodes\": [", (int)p->type);
        for (j = 0; j < p->nnodes; j++) {
            fputs(j ? ", {\"position\": " : "{\"position\": ", f);
            json_vec(f, p->nodes[j].pos);
            fprintf(f, ", \"index\": %d, \"name\": ", (int)p->nodes[j].index);
            rrb_json_str(f, p->nodes[j].name_override);
            fputs(", \"keys\": ", f);
            json_kvs(f, p->nodes[j].kv, p->nodes[j].nkv);
            fputs("}", f);
        }
        fputs("]}", f);
    }
    fputs("],\n", f);
}

int rrb_rmf_dump_json(const uint8_t *data, size_t size, const char *path, FILE *out,
                      char *err, size_t errcap)
{
    rrb_rmf_map m;
    int i;
    if (rrb_rmf_read(data, size, path, &m, err, errcap))
        return -1;
    fprintf(out, "{\"format\": \"rmf\", \"version\": \"%d.%d\",\n\"visgroups\": [",
            m.version / 10, m.version % 10);
    for (i = 0; i < m.nvisgroups; i++) {
        const rrb_rmf_visgroup *g = &m.visgroups[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", out);
        rrb_json_str(out, g->name);
        fprintf(out, ", \"id\": %d, \"color\": [%u, %u, %u, %u], \"visible\": %u}",
                (int)g->id, g->color[0], g->color[1], g->color[2], g->color[3], g->visible);
    }
    fputs("],\n", out);
    json_paths(out, &m);
    fprintf(out, "\"active_camera\": %d, \"cameras\": [", (int)m.active_camera);
    for (i = 0; i < m.ncameras; i++) {
        fputs(i ? ", {\"eye\": " : "{\"eye\": ", out);
        json_vec(out, m.cameras[i].eye);
        fputs(", \"look_at\": ", out);
        json_vec(out, m.cameras[i].look);
        fputs("}", out);
    }
    fputs("],\n\"objects\": [\n", out);
    for (i = 0; i < m.nobjs; i++) {
        json_obj(out, &m, i);
        fputs(i + 1 < m.nobjs ? ",\n" : "\n", out);
    }
    fputs("]}\n", out);
    rrb_rmf_free(&m);
    return 0;
}

/* rrb_rmesh_write.c - the .rmesh writer (exact inverse of the reader), the
 * project's sample room, and the malformed-file generator used by the tests. */
#include "rrb_rmesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- writer ---- */

static void put_str(rrb_buf *b, const rrb_rm_str *s)
{
    rrb_buf_u32le(b, s->len);
    rrb_buf_put(b, s->s, s->len);
}

static void put_idx(rrb_buf *b, const uint32_t *idx, uint32_t ntris)
{
    uint32_t i;
    rrb_buf_u32le(b, ntris);
    for (i = 0; i < 3 * ntris; i++)
        rrb_buf_u32le(b, idx[i]);
}

static void put_surfs(rrb_buf *b, const rrb_rm_surf *s, uint32_t n)
{
    uint32_t i, k;
    int j;
    rrb_buf_u32le(b, n);
    for (i = 0; i < n; i++) {
        for (j = 0; j < 2; j++) {
            rrb_buf_u8(b, s[i].flag[j]);
            if (s[i].flag[j])
                put_str(b, &s[i].tex[j]);
        }
        rrb_buf_u32le(b, s[i].nverts);
        for (k = 0; k < s[i].nverts; k++) {
            const rrb_rm_vert *v = &s[i].verts[k];
            rrb_buf_put(b, v->pos, 12);
            rrb_buf_put(b, v->uv0, 8);
            rrb_buf_put(b, v->uv1, 8);
            rrb_buf_put(b, v->rgb, 3);
        }
        put_idx(b, s[i].idx, s[i].ntris);
    }
}

static void put_mesh(rrb_buf *b, const rrb_rm_mesh *m)
{
    rrb_buf_u32le(b, m->nverts);
    rrb_buf_put(b, m->pos, (size_t)m->nverts * 12);
    put_idx(b, m->idx, m->ntris);
}

static void put_prop(rrb_buf *b, const rrb_rm_prop *p)
{
    switch (p->type) {
    case RRB_RM_BOOL: rrb_buf_u8(b, p->b); break;
    case RRB_RM_INTEGER: rrb_buf_u32le(b, (uint32_t)p->i); break;
    case RRB_RM_FLOAT: rrb_buf_put(b, p->v, 4); break;
    case RRB_RM_VECTOR: rrb_buf_put(b, p->v, 12); break;
    case RRB_RM_STRING:
    case RRB_RM_COLOR255: put_str(b, &p->s); break;
    default: break;   /* Choices: nothing */
    }
}

static void put_entity(rrb_buf *b, const rrb_rm_entity *e)
{
    uint32_t k;
    put_str(b, &e->classname);
    if (e->cls >= RRB_RM_NCLASSES) {   /* custom: position, then the properties */
        rrb_buf_put(b, e->pos, 12);
        for (k = 0; k < e->nprops; k++)
            put_prop(b, &e->props[k]);
        return;
    }
    if (e->cls == RRB_RM_MODEL) {
        put_str(b, &e->str);
        rrb_buf_put(b, e->pos, 12);
        rrb_buf_put(b, e->rot, 12);
        rrb_buf_put(b, e->scale, 12);
        return;
    }
    rrb_buf_put(b, e->pos, 12);
    if (e->cls == RRB_RM_SCREEN || e->cls == RRB_RM_PLAYERSTART)
        put_str(b, &e->str);
    if (e->cls == RRB_RM_LIGHT || e->cls == RRB_RM_SPOTLIGHT) {
        rrb_buf_f32le(b, e->range);
        put_str(b, &e->str);
        rrb_buf_f32le(b, e->intensity);
    }
    if (e->cls == RRB_RM_SPOTLIGHT) {
        put_str(b, &e->str2);
        rrb_buf_u32le(b, (uint32_t)e->inner);
        rrb_buf_u32le(b, (uint32_t)e->outer);
    }
    if (e->cls == RRB_RM_SOUNDEMITTER) {
        rrb_buf_u32le(b, (uint32_t)e->sound);
        rrb_buf_f32le(b, e->range);
    }
}

static void put_triggers(rrb_buf *b, const rrb_rmesh *m)
{
    uint32_t i, j;
    rrb_buf_u32le(b, m->ntrig);
    for (i = 0; i < m->ntrig; i++) {
        rrb_buf_u32le(b, m->trig[i].nsurf);
        for (j = 0; j < m->trig[i].nsurf; j++)
            put_mesh(b, &m->trig[i].surf[j]);
        put_str(b, &m->trig[i].name);
    }
}

static void put_invis(rrb_buf *b, const rrb_rmesh *m)
{
    uint32_t i;
    rrb_buf_u32le(b, m->ninvis);
    for (i = 0; i < m->ninvis; i++)
        put_mesh(b, &m->invis[i]);
}

/* Everything up to (not including) the entity count, in the variant's order. */
static void put_body(rrb_buf *b, const rrb_rmesh *m)
{
    put_str(b, &m->header);
    if (m->rm) {   /* RM (NOTES §3.9): version, visible, no-collision, invisible, triggers */
        rrb_buf_u8(b, m->rm_version);
        put_surfs(b, m->surf, m->nsurf);
        put_surfs(b, m->nocoll, m->nnocoll);
        put_invis(b, m);
        put_triggers(b, m);
        return;
    }
    put_surfs(b, m->surf, m->nsurf);
    put_invis(b, m);
    if (m->has_nocoll)
        put_surfs(b, m->nocoll, m->nnocoll);
    if (m->has_trigger)
        put_triggers(b, m);
    if (m->redux_trigcount)
        rrb_buf_u32le(b, 0);
}

void rrb_rmesh_write(const rrb_rmesh *m, rrb_buf *out)
{
    static const rrb_rm_str eof = {3, "EOF"};
    uint32_t i;
    put_body(out, m);
    rrb_buf_u32le(out, m->nents + m->undecoded);
    for (i = 0; i < m->nents; i++)
        put_entity(out, &m->ents[i]);
    if (m->ntail)   /* records left undecoded, as they were */
        rrb_buf_put(out, m->tail, m->ntail);
    if (m->eof_trailer)
        put_str(out, &eof);
}

/* ---- sample room ---- */

static void set_str(rrb_rm_str *s, const char *v)
{
    s->len = (uint32_t)strlen(v);
    s->s = rrb_xstrdup(v);
}

/* A quad p0 p1 p2 p3 (two triangles 0-1-2, 0-2-3) appended to surface s. */
static void add_quad(rrb_rm_surf *s, const float q[4][3], uint8_t shade)
{
    static const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    static const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
    uint32_t base = s->nverts, k;
    s->verts = realloc(s->verts, (s->nverts + 4) * sizeof *s->verts);
    s->idx = realloc(s->idx, (s->ntris + 2) * 3 * sizeof *s->idx);
    if (!s->verts || !s->idx)
        abort();
    for (k = 0; k < 4; k++) {
        rrb_rm_vert *v = &s->verts[base + k];
        memcpy(v->pos, q[k], 12);
        memcpy(v->uv0, uv[k], 8);
        v->uv1[0] = uv[k][0] * 0.5f;
        v->uv1[1] = uv[k][1] * 0.5f;
        v->rgb[0] = v->rgb[1] = v->rgb[2] = shade;
    }
    for (k = 0; k < 6; k++)
        s->idx[s->ntris * 3 + k] = base + tri[k];
    s->nverts += 4;
    s->ntris += 2;
}

static void set_surf(rrb_rm_surf *s, uint8_t f0, const char *t0, uint8_t f1, const char *t1)
{
    memset(s, 0, sizeof *s);
    s->flag[0] = f0;
    s->flag[1] = f1;
    set_str(&s->tex[0], f0 ? t0 : "");
    set_str(&s->tex[1], f1 ? t1 : "");
}

/* An axis-aligned box as an 8-vertex, 12-triangle simple mesh. */
static void box_mesh(rrb_rm_mesh *m, const float lo[3], const float hi[3])
{
    static const uint32_t tri[36] = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                                     2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
    uint32_t k;
    m->nverts = 8;
    m->ntris = 12;
    m->pos = rrb_xmalloc(8 * 12);
    m->idx = rrb_xmalloc(36 * 4);
    for (k = 0; k < 8; k++) {
        m->pos[3 * k] = (k & 4) ? hi[0] : lo[0];
        m->pos[3 * k + 1] = (k & 2) ? hi[1] : lo[1];
        m->pos[3 * k + 2] = (k & 1) ? hi[2] : lo[2];
    }
    memcpy(m->idx, tri, sizeof tri);
}

static void sample_surfaces(rrb_rmesh *m)
{
    const float F[4][3] = {{-512, 0, -512}, {-512, 0, 512}, {512, 0, 512}, {512, 0, -512}};
    const float C[4][3] = {{-512, 384, -512}, {512, 384, -512}, {512, 384, 512}, {-512, 384, 512}};
    const float W[4][4][3] = {
        {{-512, 0, -512}, {512, 0, -512}, {512, 384, -512}, {-512, 384, -512}},
        {{512, 0, 512}, {-512, 0, 512}, {-512, 384, 512}, {512, 384, 512}},
        {{-512, 0, 512}, {-512, 0, -512}, {-512, 384, -512}, {-512, 384, 512}},
        {{512, 0, -512}, {512, 0, 512}, {512, 384, 512}, {512, 384, -512}}};
    const float G[4][3] = {{0, 0, -256}, {0, 0, 256}, {0, 256, 256}, {0, 256, -256}};
    int k;
    m->nsurf = 4;
    m->surf = rrb_xcalloc(4, sizeof *m->surf);
    set_surf(&m->surf[0], 2, "sample_lm1.png", 1, "concretefloor.jpg");
    add_quad(&m->surf[0], F, 255);
    set_surf(&m->surf[1], 1, "", 1, "whitewall.jpg");
    for (k = 0; k < 4; k++)
        add_quad(&m->surf[1], W[k], (uint8_t)(160 + 20 * k));
    set_surf(&m->surf[2], 2, "sample_lm1.png", 1, "ceiling.jpg");
    add_quad(&m->surf[2], C, 200);
    set_surf(&m->surf[3], 1, "", 3, "glass.png");
    add_quad(&m->surf[3], G, 255);
}

static void sample_entity(rrb_rm_entity *e, int cls, float x, float y, float z, const char *s)
{
    memset(e, 0, sizeof *e);
    e->cls = cls;
    set_str(&e->classname, rrb_rm_class_names[cls]);
    e->pos[0] = x;
    e->pos[1] = y;
    e->pos[2] = z;
    set_str(&e->str, s);
    set_str(&e->str2, "");
}

static void sample_entities(rrb_rmesh *m)
{
    rrb_rm_entity *e;
    m->nents = 7;
    m->ents = e = rrb_xcalloc(7, sizeof *m->ents);
    sample_entity(&e[0], RRB_RM_SCREEN, 0, 224, -500, "screen/008");
    sample_entity(&e[1], RRB_RM_WAYPOINT, 256, 32, 256, "");
    sample_entity(&e[2], RRB_RM_LIGHT, -256, 352, -256, "255 240 200");
    e[2].range = 600;
    e[2].intensity = 2;
    sample_entity(&e[3], RRB_RM_SPOTLIGHT, 256, 352, -256, "255 255 255");
    e[3].range = 800;
    e[3].intensity = 1.2f;
    free(e[3].str2.s);
    set_str(&e[3].str2, "90 0 0");
    e[3].inner = 35;
    e[3].outer = 45;
    sample_entity(&e[4], RRB_RM_SOUNDEMITTER, -384, 128, 384, "");
    e[4].sound = 1;
    e[4].range = 500;
    sample_entity(&e[5], RRB_RM_PLAYERSTART, -256, 64, 256, "0 45 0");
    sample_entity(&e[6], RRB_RM_MODEL, 384, 0, 384, "crate.x");
    e[6].rot[1] = 90;
    e[6].scale[0] = e[6].scale[1] = e[6].scale[2] = 1;
}

void rrb_rmesh_sample_model(rrb_rmesh *m)
{
    const float ilo[3] = {256, 0, -448}, ihi[3] = {448, 128, -256};
    const float tlo[3] = {-448, 0, -448}, thi[3] = {-192, 256, -192};
    memset(m, 0, sizeof *m);
    set_str(&m->header, "RoomMesh.HasTriggerBox");
    m->has_trigger = 1;
    sample_surfaces(m);
    m->ninvis = 1;
    m->invis = rrb_xcalloc(1, sizeof *m->invis);
    box_mesh(&m->invis[0], ilo, ihi);
    m->ntrig = 1;
    m->trig = rrb_xcalloc(1, sizeof *m->trig);
    m->trig[0].nsurf = 1;
    m->trig[0].surf = rrb_xcalloc(1, sizeof *m->trig[0].surf);
    box_mesh(&m->trig[0].surf[0], tlo, thi);
    set_str(&m->trig[0].name, "sample_trigger");
    sample_entities(m);
    m->eof_trailer = 1;
    m->variant = RRB_RM_VANILLA;
}

/* The sample room as CBRE-EX's "1.3.12" export would lay it out (NOTES §3.9):
 * header "RM" + version byte, the trigger block always present (empty when
 * with_triggers is 0), no "EOF" trailer. */
void rrb_rmesh_sample_rm_model(rrb_rmesh *m, int version, int with_triggers)
{
    uint32_t i;
    rrb_rmesh_sample_model(m);
    free(m->header.s);
    set_str(&m->header, "RM");
    m->rm = 1;
    m->rm_version = (uint8_t)version;
    m->has_trigger = m->has_nocoll = 1;
    m->eof_trailer = 0;
    m->variant = RRB_RM_CBRE;
    if (!with_triggers) {
        for (i = 0; i < m->ntrig; i++) {
            free(m->trig[i].surf[0].pos);
            free(m->trig[i].surf[0].idx);
            free(m->trig[i].surf);
            free(m->trig[i].name.s);
        }
        free(m->trig);
        m->trig = NULL;
        m->ntrig = 0;
    }
}

static void set_prop(rrb_rm_prop *p, const char *name, int type)
{
    memset(p, 0, sizeof *p);
    p->name = rrb_xstrdup(name);
    p->type = type;
    set_str(&p->s, "");
}

/* The sample room with a CBRE-EX door and item after its entities, in the
 * fixed layouts of the RoomMesh export path (NOTES §3.7; property names as
 * the reader gives them). */
void rrb_rmesh_sample_custom_model(rrb_rmesh *m)
{
    static const char *const door[] = {"type", "keycard", "code", "angle", "open",
                                       "allow_remote_control"};
    static const int door_t[] = {RRB_RM_INTEGER, RRB_RM_INTEGER, RRB_RM_STRING, RRB_RM_FLOAT,
                                 RRB_RM_BOOL, RRB_RM_BOOL};
    static const char *const item[] = {"name", "name2", "use_custom_rotation", "angles", "state",
                                       "state2", "chance"};
    static const int item_t[] = {RRB_RM_STRING, RRB_RM_STRING, RRB_RM_BOOL, RRB_RM_VECTOR,
                                 RRB_RM_FLOAT, RRB_RM_FLOAT, RRB_RM_FLOAT};
    rrb_rm_entity *e;
    int j, k;
    rrb_rmesh_sample_model(m);
    e = rrb_xcalloc(m->nents + 2, sizeof *e);   /* the sample's entities, then these two */
    memcpy(e, m->ents, m->nents * sizeof *e);
    free(m->ents);
    m->ents = e;
    e = &m->ents[m->nents];
    memset(e, 0, 2 * sizeof *e);
    e[0].cls = RRB_RM_DOOR, e[1].cls = RRB_RM_ITEM;
    set_str(&e[0].classname, "door");
    set_str(&e[1].classname, "item");
    e[0].nprops = 6, e[1].nprops = 7;
    e[0].props = rrb_xcalloc(6, sizeof *e[0].props);
    e[1].props = rrb_xcalloc(7, sizeof *e[1].props);
    for (k = 0; k < 7; k++) {
        if (k < 6)
            set_prop(&e[0].props[k], door[k], door_t[k]);
        set_prop(&e[1].props[k], item[k], item_t[k]);
    }
    for (j = 0; j < 2; j++) {
        set_str(&e[j].str, "");
        set_str(&e[j].str2, "");
        e[j].pos[0] = 100.0f * (float)j, e[j].pos[1] = 32, e[j].pos[2] = -64;
    }
    e[0].props[0].i = 1, e[0].props[1].i = 3, e[0].props[3].v[0] = 90, e[0].props[4].b = 1;
    free(e[0].props[2].s.s);
    set_str(&e[0].props[2].s, "0451");
    free(e[1].props[0].s.s);
    set_str(&e[1].props[0].s, "Level 2 Key Card");
    free(e[1].props[1].s.s);
    set_str(&e[1].props[1].s, "Level 2 Key Card");
    e[1].props[3].v[1] = 45, e[1].props[4].v[0] = e[1].props[5].v[0] = 1;
    e[1].props[6].v[0] = 50;
    m->nents += 2;
    m->eof_trailer = 0;
    m->variant = RRB_RM_CBRE;
}

static int save_model(const rrb_rmesh *m, const char *dir, const char *name, char *err,
                      size_t errcap)
{
    rrb_buf b = {0};
    char path[4096];
    int r;
    rrb_rmesh_write(m, &b);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    r = rrb_save_file(path, b.data, b.size, err, errcap);
    rrb_buf_free(&b);
    return r;
}

/* sample.rmesh (vanilla layout), sample_rm.rm (the RM variant, version 1,
 * with its trigger box) and sample_custom.rmesh (CBRE-EX, with a door and an
 * item). */
int rrb_rmesh_sample(const char *dir, char *err, size_t errcap)
{
    rrb_rmesh m;
    int r;
    rrb_rmesh_sample_model(&m);
    r = save_model(&m, dir, "sample.rmesh", err, errcap);
    rrb_rmesh_free(&m);
    if (r)
        return r;
    rrb_rmesh_sample_rm_model(&m, 1, 1);
    r = save_model(&m, dir, "sample_rm.rm", err, errcap);
    rrb_rmesh_free(&m);
    if (r)
        return r;
    rrb_rmesh_sample_custom_model(&m);
    r = save_model(&m, dir, "sample_custom.rmesh", err, errcap);
    rrb_rmesh_free(&m);
    return r;
}

/* ---- malformed variants ---- */

static const char *const labels[] = {
    "empty", "truncated-half", "truncated-last-byte", "rm-unknown-version", "bad-header",
    "huge-surface-count", "negative-vertex-count", "index-out-of-range", "nan-vertex",
    "inf-uv", "bad-texture-flag", "garbage-entity-class", "trailing-garbage",
    "huge-header-length", "huge-entity-count", "triangle-count-past-end", "invisible-index"};

int rrb_rmesh_malformed_count(void)
{
    return (int)(sizeof labels / sizeof labels[0]);
}

static void set32(rrb_buf *b, size_t off, uint32_t v)
{
    if (off + 4 > b->size)
        return;
    b->data[off] = (uint8_t)v;
    b->data[off + 1] = (uint8_t)(v >> 8);
    b->data[off + 2] = (uint8_t)(v >> 16);
    b->data[off + 3] = (uint8_t)(v >> 24);
}

/* Offset of the visible surface count (after the header, and RM's version byte). */
static size_t body_off(const rrb_rmesh *m)
{
    return 4 + m->header.len + (m->rm ? 1u : 0u);
}

/* Offset of the first surface's vertex count. */
static size_t first_nverts_off(const rrb_rmesh *m)
{
    size_t off = body_off(m) + 4;
    int j;
    for (j = 0; j < 2; j++)
        off += 1 + (m->surf[0].flag[j] ? 4 + m->surf[0].tex[j].len : 0);
    return off;
}

/* Model-level damage; returns 0 when the model has nothing to damage. */
static int damage_model(rrb_rmesh *m, int k)
{
    rrb_rm_entity *e;
    if (k == 7 || k == 8 || k == 9 || k == 10) {
        uint32_t i;
        for (i = 0; i < m->nsurf && (!m->surf[i].ntris || !m->surf[i].nverts); i++)
            ;
        if (i == m->nsurf)
            return 0;
        if (k == 7)
            m->surf[i].idx[2] = m->surf[i].nverts;
        if (k == 8)
            m->surf[i].verts[0].pos[0] = NAN;
        if (k == 9)
            m->surf[i].verts[0].uv0[0] = INFINITY;
        if (k == 10)
            m->surf[i].flag[1] = 9;
        return 1;
    }
    if (k == 16) {
        if (!m->ninvis || !m->invis[0].ntris)
            return 0;
        m->invis[0].idx[0] = 0x7fffffff;
        return 1;
    }
    /* k == 11: rename (or add) an entity to a name that is no class name at
     * all (a NUL and bytes above 0x7f): garbage, not a custom entity */
    if (!m->nents) {
        free(m->ents);
        m->ents = rrb_xcalloc(1, sizeof *m->ents);
        m->nents = 1;
        m->ents[0].cls = RRB_RM_WAYPOINT;
        m->ents[0].str.s = rrb_xstrdup("");
        m->ents[0].str2.s = rrb_xstrdup("");
    } else {
        free(m->ents[0].classname.s);
    }
    e = &m->ents[0];
    e->classname.len = 4;
    e->classname.s = rrb_xmalloc(5);
    memcpy(e->classname.s, "d\0\xff\x10", 5);
    return 1;
}

static void damage_bytes(const rrb_rmesh *m, const uint8_t *src, size_t size, int k, rrb_buf *out)
{
    static const uint8_t rm[7] = {2, 0, 0, 0, 'R', 'M', 7};   /* an RM version nobody knows */
    rrb_rmesh copy = *m;
    rrb_buf pre = {0};
    if (k == 0)
        return;
    if (k == 1 || k == 2) {
        rrb_buf_put(out, src, k == 1 ? size / 2 : size - 1);
        return;
    }
    if (k == 3) {
        rrb_buf_put(out, rm, 7);
        rrb_buf_put(out, src + body_off(m), size - body_off(m));
        return;
    }
    rrb_buf_put(out, src, size);
    if (k == 4)
        out->data[m->rm ? 5 : 8] = 'X';  /* "RX" or "RoomXesh" */
    if (k == 5 || ((k == 6 || k == 15) && !m->nsurf))
        set32(out, body_off(m), 0x7fffffffu);
    else if (k == 6)
        set32(out, first_nverts_off(m), 0xfffffff0u);
    else if (k == 15)
        set32(out, first_nverts_off(m) + 4 + 31 * (size_t)m->surf[0].nverts, 0x10000000u);
    if (k == 12)
        rrb_buf_put(out, "xyz", 3);
    if (k == 13)
        set32(out, 0, 0x7ffffff0u);
    if (k == 14) {
        copy.nents = 0;
        copy.eof_trailer = 0;
        copy.redux_trigcount = 0;
        rrb_rmesh_write(&copy, &pre);
        set32(out, pre.size - 4, 0x10000000u);
        rrb_buf_free(&pre);
    }
}

int rrb_rmesh_malformed(const uint8_t *src, size_t size, int k, rrb_buf *out,
                        const char **label)
{
    rrb_rmesh m;
    char err[RRB_ERR_MAX];
    if (k < 0 || k >= rrb_rmesh_malformed_count())
        return -1;
    *label = labels[k];
    if (rrb_rmesh_read(src, size, "<src>", &m, err, sizeof err))
        return -1;
    if (k == 7 || k == 8 || k == 9 || k == 10 || k == 11 || k == 16) {
        if (damage_model(&m, k)) {
            rrb_rmesh_write(&m, out);
            rrb_rmesh_free(&m);
            return 0;
        }
        k = 2;  /* nothing of that kind in this file: fall back to a truncation */
        *label = labels[k];
    }
    damage_bytes(&m, src, size, k, out);
    rrb_rmesh_free(&m);
    return 0;
}

/* verify (rrbake verify): full parse (every count, index and float is
 * checked by the reader), then the writer must reproduce the bytes exactly. */
int rrb_rmesh_verify(const uint8_t *data, size_t size, const char *path, FILE *out,
                     char *err, size_t errcap)
{
    rrb_rmesh m;
    rrb_buf b = {0};
    rrb_rmesh_stat st;
    int same;
    rrb_opts o = rrb_text_opts;
    o.quiet = 1;
    if (rrb_rmesh_load(data, size, path, &o, NULL, &m, err, errcap))
        return -1;
    rrb_rmesh_stats(&m, &st);
    fprintf(out, "ok parse: %zu/%zu bytes, variant %s\n", m.parse_end, m.size,
            rrb_rm_variant_names[m.variant]);
    fprintf(out, "ok indices: %llu visible + %llu invisible triangles in range\n",
            (unsigned long long)st.tris, (unsigned long long)st.invis_tris);
    rrb_rmesh_write(&m, &b);
    same = b.size == size && memcmp(b.data, data, size) == 0;
    fprintf(out, "%s roundtrip: writer %s the file (%zu bytes)\n", same ? "ok" : "FAIL",
            same ? "reproduces" : "does not reproduce", b.size);
    if (st.zero_area)
        fprintf(out, "note: %llu zero-area collision triangles (dropped by bake)\n",
                (unsigned long long)st.zero_area);
    if (st.ignored)
        fprintf(out, "note: %u light/spotlight/screen entities at (0,0,0), ignored by the game\n",
                st.ignored);
    if (st.custom)
        fprintf(out, "ok entities: %u custom entities decoded\n", st.custom);
    if (m.undecoded) {   /* the warning is a line of the report here, not on stderr */
        char msg[RRB_ERR_MAX];
        rrb_rmesh_undecoded_msg(&m, path, 0, msg, sizeof msg);
        fprintf(out, "%s\n", msg);
    }
    rrb_buf_free(&b);
    rrb_rmesh_free(&m);
    if (!same)
        snprintf(err, errcap, "%s: writer roundtrip differs", path);
    return same ? 0 : -1;
}

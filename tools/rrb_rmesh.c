/* rrb_rmesh.c - the .rmesh reader (every variant of NOTES.md §3) and the
 * info / verify / dump hooks of rrbake. Layout summary in rrb_rmesh.h. */
#include "rrb_rmesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const rrb_rm_class_names[RRB_RM_NCLASSES] = {
    "screen", "waypoint", "light", "spotlight", "soundemitter", "playerstart", "model"};
const char *const rrb_rm_variant_names[4] = {"vanilla", "cbre", "scpcbredux", "vbp"};

/* Minimum bytes of one element, for rrb_check_count: a hostile count can
 * never make the reader allocate more than the file size justifies. */
#define MIN_SURF 10u      /* flag, flag, nverts, ntris */
#define VERT_BYTES 31u
#define TRI_BYTES 12u
#define MIN_MESH 8u       /* nverts, ntris */
#define MIN_TRIGGER 8u    /* nsurf, name length */
#define MIN_ENTITY 17u    /* any record: name length + >= 1 char + 3 floats */

/* ---- strings ---- */

static int read_str(rrb_cur *c, rrb_rm_str *out, const char *what)
{
    size_t at = c->pos;
    uint32_t n = rrb_u32(c, what);
    out->len = 0;
    out->s = NULL;
    if (c->failed)
        return -1;
    if (n > rrb_left(c))
        return rrb_fail(c, at, "expected %s of %u bytes, found only %zu bytes left", what, n,
                        rrb_left(c));
    out->s = rrb_xmalloc((size_t)n + 1);
    rrb_bytes(c, out->s, n, what);
    out->s[n] = 0;
    out->len = n;
    return 0;
}

static void empty_str(rrb_rm_str *s)
{
    s->len = 0;
    s->s = rrb_xstrdup("");
}

static int str_is(const rrb_rm_str *s, const char *lit)
{
    return s->len == strlen(lit) && memcmp(s->s, lit, s->len) == 0;
}

/* Printable, truncated copy of a stored string for messages. */
static const char *shown(const rrb_rm_str *s, char *buf, size_t cap)
{
    size_t i, o = 0;
    for (i = 0; i < s->len && o + 5 < cap; i++) {
        unsigned char ch = (unsigned char)s->s[i];
        if (ch >= 0x20 && ch < 0x7f && ch != '"')
            buf[o++] = (char)ch;
        else
            o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", ch);
    }
    if (i < s->len && o + 4 < cap)
        o += (size_t)snprintf(buf + o, cap - o, "...");
    buf[o < cap ? o : cap - 1] = 0;
    return buf;
}

/* ---- header ---- */

/* The RM header: B3D string "RM", then one version byte. Versions 0 and 1
 * have the same layout in every file seen (NOTES §3.9); any other value is
 * a version nobody has described, refused rather than guessed. */
static int read_rm_header(rrb_cur *c, rrb_rmesh *m)
{
    size_t at;
    if (read_str(c, &m->header, "header B3D string"))
        return -1;
    at = c->pos;
    m->rm_version = rrb_u8(c, "RM version byte");
    if (c->failed)
        return -1;
    if (m->rm_version > 1)
        return rrb_fail(c, at, "expected RM version byte 0 or 1 (CBRE-EX \"1.3.12\" export), "
                        "found %u: an RM version this reader does not know", m->rm_version);
    m->rm = 1;
    m->has_nocoll = m->has_trigger = 1;   /* both blocks are always there */
    return 0;
}

static int read_header(rrb_cur *c, rrb_rmesh *m)
{
    const char *p, *end;
    char b[96];
    if (c->size >= 6 && c->data[0] == 2 && !c->data[1] && !c->data[2] && !c->data[3] &&
        c->data[4] == 'R' && c->data[5] == 'M')
        return read_rm_header(c, m);
    if (read_str(c, &m->header, "header B3D string"))
        return -1;
    p = m->header.s;
    end = p + m->header.len;
    if (m->header.len < 8 || memcmp(p, "RoomMesh", 8) != 0)
        goto bad;
    for (p += 8; p < end;) {
        if (!m->has_trigger && (size_t)(end - p) >= 14 && !memcmp(p, ".HasTriggerBox", 14)) {
            m->has_trigger = 1;
            p += 14;
        } else if (!m->has_nocoll && (size_t)(end - p) >= 10 && !memcmp(p, ".HasNoColl", 10)) {
            m->has_nocoll = 1;
            p += 10;
        } else {
            goto bad;
        }
    }
    return 0;
bad:
    return rrb_fail(c, 0, "expected header \"RoomMesh\"[.HasTriggerBox][.HasNoColl] or \"RM\" + "
                    "version byte, found \"%s\"",
                    shown(&m->header, b, sizeof b));
}

/* ---- meshes ---- */

static int read_count(rrb_cur *c, uint32_t *n, size_t min_elem, const char *what)
{
    size_t at = c->pos;
    int32_t v = rrb_i32(c, what);
    if (c->failed || rrb_check_count(c, at, v, min_elem, what))
        return -1;
    *n = (uint32_t)v;
    return 0;
}

static int read_indices(rrb_cur *c, uint32_t *idx, uint32_t ntris, uint32_t nverts)
{
    uint32_t i;
    for (i = 0; i < 3 * ntris; i++) {
        size_t at = c->pos;
        int32_t v = rrb_i32(c, "triangle vertex index");
        if (c->failed)
            return -1;
        rrb_trace_index(c, at, nverts, "triangle vertex index");
        if (v < 0 || (uint32_t)v >= nverts)
            return rrb_fail(c, at, "expected a vertex index < %u (triangle %u), found %d",
                            nverts, i / 3, v);
        idx[i] = (uint32_t)v;
    }
    return 0;
}

static int read_slot(rrb_cur *c, uint8_t *flag, rrb_rm_str *tex, int slot)
{
    size_t at = c->pos;
    *flag = rrb_u8(c, slot ? "diffuse texture flag" : "lightmap texture flag");
    if (c->failed)
        return -1;
    if (*flag > 3)
        return rrb_fail(c, at, "expected texture flag 0..3 (slot %d), found %u", slot, *flag);
    if (*flag == 0) {
        empty_str(tex);
        return 0;
    }
    return read_str(c, tex, "texture name");
}

static int read_surf(rrb_cur *c, rrb_rm_surf *s)
{
    uint32_t i;
    if (read_slot(c, &s->flag[0], &s->tex[0], 0) || read_slot(c, &s->flag[1], &s->tex[1], 1))
        return -1;
    if (read_count(c, &s->nverts, VERT_BYTES, "surface vertices"))
        return -1;
    s->verts = rrb_xcalloc(s->nverts, sizeof *s->verts);
    for (i = 0; i < s->nverts && !c->failed; i++) {
        rrb_rm_vert *v = &s->verts[i];
        v->pos[0] = rrb_f32(c, "vertex x");
        v->pos[1] = rrb_f32(c, "vertex y");
        v->pos[2] = rrb_f32(c, "vertex z");
        v->uv0[0] = rrb_f32(c, "diffuse u");
        v->uv0[1] = rrb_f32(c, "diffuse v");
        v->uv1[0] = rrb_f32(c, "lightmap u");
        v->uv1[1] = rrb_f32(c, "lightmap v");
        rrb_bytes(c, v->rgb, 3, "vertex colour");
    }
    if (c->failed || read_count(c, &s->ntris, TRI_BYTES, "surface triangles"))
        return -1;
    s->idx = rrb_xcalloc((size_t)s->ntris * 3, sizeof *s->idx);
    return read_indices(c, s->idx, s->ntris, s->nverts);
}

static int read_mesh(rrb_cur *c, rrb_rm_mesh *m)
{
    uint32_t i;
    if (read_count(c, &m->nverts, 12, "collision mesh vertices"))
        return -1;
    m->pos = rrb_xcalloc((size_t)m->nverts * 3, sizeof *m->pos);
    for (i = 0; i < 3 * m->nverts && !c->failed; i++)
        m->pos[i] = rrb_f32(c, i % 3 == 0 ? "vertex x" : i % 3 == 1 ? "vertex y" : "vertex z");
    if (c->failed || read_count(c, &m->ntris, TRI_BYTES, "collision mesh triangles"))
        return -1;
    m->idx = rrb_xcalloc((size_t)m->ntris * 3, sizeof *m->idx);
    return read_indices(c, m->idx, m->ntris, m->nverts);
}

static int read_surfs(rrb_cur *c, rrb_rm_surf **out, uint32_t *n, const char *what)
{
    uint32_t i;
    if (read_count(c, n, MIN_SURF, what))
        return -1;
    *out = rrb_xcalloc(*n, sizeof **out);
    for (i = 0; i < *n; i++)
        if (read_surf(c, &(*out)[i]))
            return -1;
    return 0;
}

static int read_invis(rrb_cur *c, rrb_rmesh *m)
{
    uint32_t i;
    if (read_count(c, &m->ninvis, MIN_MESH, "invisible collision meshes"))
        return -1;
    m->invis = rrb_xcalloc(m->ninvis, sizeof *m->invis);
    for (i = 0; i < m->ninvis; i++)
        if (read_mesh(c, &m->invis[i]))
            return -1;
    return 0;
}

static int read_triggers(rrb_cur *c, rrb_rmesh *m)
{
    uint32_t i, j;
    if (read_count(c, &m->ntrig, MIN_TRIGGER, "trigger boxes"))
        return -1;
    m->trig = rrb_xcalloc(m->ntrig, sizeof *m->trig);
    for (i = 0; i < m->ntrig; i++) {
        rrb_rm_trigger *t = &m->trig[i];
        if (read_count(c, &t->nsurf, MIN_MESH, "trigger box surfaces"))
            return -1;
        t->surf = rrb_xcalloc(t->nsurf, sizeof *t->surf);
        for (j = 0; j < t->nsurf; j++)
            if (read_mesh(c, &t->surf[j]))
                return -1;
        if (read_str(c, &t->name, "trigger box name"))
            return -1;
    }
    return 0;
}

/* ---- entities ---- */

static void read_xyz(rrb_cur *c, float *v, const char *what)
{
    v[0] = rrb_f32(c, what);
    v[1] = rrb_f32(c, what);
    v[2] = rrb_f32(c, what);
}

static int find_class(const rrb_rm_str *name)
{
    int k;
    for (k = 0; k < RRB_RM_NCLASSES; k++)
        if (str_is(name, rrb_rm_class_names[k]))
            return k;
    return -1;
}

static void read_entity_fields(rrb_cur *c, rrb_rm_entity *e)
{
    if (e->cls == RRB_RM_MODEL) {
        read_str(c, &e->str, "model file name");
        read_xyz(c, e->pos, "model position");
        read_xyz(c, e->rot, "model rotation");
        read_xyz(c, e->scale, "model scale");  /* always 9 floats (NOTES 3.6) */
        return;
    }
    read_xyz(c, e->pos, "entity position");
    switch (e->cls) {
    case RRB_RM_SCREEN: read_str(c, &e->str, "screen image path"); break;
    case RRB_RM_LIGHT:
    case RRB_RM_SPOTLIGHT:
        e->range = rrb_f32(c, "light range");
        read_str(c, &e->str, "light colour");
        e->intensity = rrb_f32(c, "light intensity");
        if (e->cls == RRB_RM_SPOTLIGHT) {
            read_str(c, &e->str2, "spotlight angles");
            e->inner = rrb_i32(c, "spotlight inner cone angle");
            e->outer = rrb_i32(c, "spotlight outer cone angle");
        }
        break;
    case RRB_RM_SOUNDEMITTER:
        e->sound = rrb_i32(c, "sound emitter sound index");
        e->range = rrb_f32(c, "sound emitter range");
        break;
    case RRB_RM_PLAYERSTART: read_str(c, &e->str, "player start angles"); break;
    default: break;
    }
}

/* ---- custom entities (NOTES §3.7) ---- */

const char *const rrb_rm_ptype_names[RRB_RM_NPTYPES] = {
    "", "Bool", "Color255", "Float", "Integer", "String", "Vector", "Choices"};

/* The two classes CBRE-EX's RoomMesh export path writes in fixed layouts
 * (after the class name and the X, Z, Y position). The item's name and
 * state are written twice; the copies are kept as name2 and state2. */
static const rrb_rm_propdef door_props[] = {
    {"type", RRB_RM_INTEGER}, {"keycard", RRB_RM_INTEGER}, {"code", RRB_RM_STRING},
    {"angle", RRB_RM_FLOAT}, {"open", RRB_RM_BOOL}, {"allow_remote_control", RRB_RM_BOOL}};
static const rrb_rm_propdef item_props[] = {
    {"name", RRB_RM_STRING}, {"name2", RRB_RM_STRING}, {"use_custom_rotation", RRB_RM_BOOL},
    {"angles", RRB_RM_VECTOR}, {"state", RRB_RM_FLOAT}, {"state2", RRB_RM_FLOAT},
    {"chance", RRB_RM_FLOAT}};

static int read_prop(rrb_cur *c, rrb_rm_prop *p, const rrb_rm_propdef *d)
{
    p->name = rrb_xstrdup(d->name);
    p->type = d->type;
    switch (d->type) {
    case RRB_RM_BOOL: p->b = rrb_u8(c, "custom entity Bool property"); break;
    case RRB_RM_INTEGER: p->i = rrb_i32(c, "custom entity Integer property"); break;
    case RRB_RM_FLOAT: p->v[0] = rrb_f32(c, "custom entity Float property"); break;
    case RRB_RM_VECTOR: read_xyz(c, p->v, "custom entity Vector property"); break;
    case RRB_RM_STRING: read_str(c, &p->s, "custom entity String property"); break;
    case RRB_RM_COLOR255: read_str(c, &p->s, "custom entity Color255 property"); break;
    default: break;   /* Choices: CBRE-EX writes nothing */
    }
    if (!p->s.s)
        empty_str(&p->s);
    return c->failed ? -1 : 0;
}

/* Position (X, Z, Y as stored), then the properties in definition order. */
static int read_custom(rrb_cur *c, rrb_rm_entity *e, const rrb_rm_propdef *props, uint32_t n)
{
    uint32_t k;
    read_xyz(c, e->pos, "custom entity position");
    e->props = rrb_xcalloc(n, sizeof *e->props);
    for (k = 0; k < n && !c->failed; k++) {
        e->nprops = k + 1;
        read_prop(c, &e->props[k], &props[k]);
    }
    return c->failed ? -1 : 0;
}

/* A class name CBRE-EX could have written: 1 to 64 printable ASCII
 * characters without spaces (the JSON "Name" of a class). */
static int plausible_class(const rrb_rm_str *s)
{
    uint32_t i;
    if (s->len < 1 || s->len > 64)
        return 0;
    for (i = 0; i < s->len; i++)
        if ((unsigned char)s->s[i] <= 0x20 || (unsigned char)s->s[i] >= 0x7f)
            return 0;
    return 1;
}

/* 1 if the record at c->pos, whose class name (name, ending at c->pos) no
 * one can decode, looks like a custom entity and not like damage: a
 * plausible class name, then a position of three finite floats, and room
 * for the records still announced (each at least 17 bytes). */
static int looks_custom(const rrb_cur *c, size_t at, const rrb_rm_str *name, uint32_t left)
{
    float f;
    int k;
    if (!plausible_class(name) || c->size - c->pos < 12 || (c->size - at) / MIN_ENTITY < left)
        return 0;
    for (k = 0; k < 3; k++) {
        const uint8_t *p = c->data + c->pos + 4 * k;
        uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                        (uint32_t)p[3] << 24;
        memcpy(&f, &bits, 4);
        if (!isfinite(f))
            return 0;
    }
    return 1;
}

/* Returns 0 (decoded), 1 (a custom class that cannot be decoded: the
 * caller stops there) or -1 (error). */
static int read_entity(rrb_cur *c, rrb_rmesh *m, rrb_rm_entity *e, uint32_t i,
                       const rrb_rm_defs *defs, int after_defs)
{
    size_t at = c->pos;
    char b[96];
    const rrb_rm_classdef *d;
    if (read_str(c, &e->classname, "entity class name"))
        return -1;
    e->cls = find_class(&e->classname);
    if (e->cls >= 0) {
        read_entity_fields(c, e);
    } else if (!m->rm && str_is(&e->classname, "door")) {
        e->cls = RRB_RM_DOOR;
        read_custom(c, e, door_props, sizeof door_props / sizeof door_props[0]);
    } else if (!m->rm && str_is(&e->classname, "item")) {
        e->cls = RRB_RM_ITEM;
        read_custom(c, e, item_props, sizeof item_props / sizeof item_props[0]);
    } else if (defs && (d = rrb_rm_defs_find(defs, e->classname.s, e->classname.len)) != NULL) {
        e->cls = RRB_RM_CUSTOM;
        read_custom(c, e, d->props, d->nprops);
    } else if (looks_custom(c, at, &e->classname, m->nents - i)) {
        m->undecoded = m->nents - i;
        m->undecoded_at = at;
        m->undecoded_class = e->classname;
        e->classname.s = NULL;
        e->classname.len = 0;
        return 1;
    } else {
        return rrb_fail(c, at, "expected an entity class (screen, waypoint, light, spotlight, "
                        "soundemitter, playerstart, model, or a custom class name followed by a "
                        "position), found \"%s\" (entity %u)%s", shown(&e->classname, b, sizeof b),
                        i, after_defs ? ": it follows a custom entity decoded with the entity "
                        "definitions, which may not match the ones the file was written with" : "");
    }
    if (!e->str.s)
        empty_str(&e->str);
    if (!e->str2.s)
        empty_str(&e->str2);
    return c->failed ? -1 : 0;
}

static int read_entities(rrb_cur *c, rrb_rmesh *m, const rrb_rm_defs *defs)
{
    uint32_t i, n;
    int r, after_defs = 0;
    if (read_count(c, &m->nents, MIN_ENTITY, "entities"))
        return -1;
    m->ents = rrb_xcalloc(m->nents, sizeof *m->ents);
    n = m->nents;
    for (i = 0; i < n; i++) {
        r = read_entity(c, m, &m->ents[i], i, defs, after_defs);
        if (r < 0)
            return -1;
        if (r == 1) {   /* keep the rest of the file as it is */
            free(m->ents[i].classname.s);
            memset(&m->ents[i], 0, sizeof m->ents[i]);
            m->nents = i;
            m->ntail = c->size - m->undecoded_at;
            m->tail = rrb_xmalloc(m->ntail ? m->ntail : 1);
            memcpy(m->tail, c->data + m->undecoded_at, m->ntail);
            c->pos = c->size;
            return 0;
        }
        after_defs = m->ents[i].cls == RRB_RM_CUSTOM;
    }
    return 0;
}

static const uint8_t eof_trailer[7] = {3, 0, 0, 0, 'E', 'O', 'F'};

/* After the entity list: the vanilla "EOF" string, the scpcbredux layout
 * (a 0 trigger count was taken for the entity count), or nothing. */
static int read_tail(rrb_cur *c, rrb_rmesh *m)
{
    size_t left = rrb_left(c);
    if (m->undecoded) {   /* the reading stopped at an undecodable custom entity */
        m->parse_end = m->undecoded_at;
        return 0;
    }
    if (left == 7 && memcmp(c->data + c->pos, eof_trailer, 7) == 0) {
        m->eof_trailer = 1;
        c->pos += 7;
        m->parse_end = c->pos;
        return 0;
    }
    m->parse_end = c->pos;
    if (left >= 4 && m->nents == 0 && !m->has_trigger && !m->has_nocoll) {
        free(m->ents);
        m->ents = NULL;
        m->redux_trigcount = 1;
        if (read_entities(c, m, NULL))
            return -1;
        left = rrb_left(c);
    }
    if (left)
        return rrb_fail(c, c->pos, "expected end of file (or the \"EOF\" trailer), found %zu "
                        "more bytes", left);
    return 0;
}

/* Every block between the header and the entities, in the variant's order. */
static int read_blocks(rrb_cur *c, rrb_rmesh *m)
{
    if (read_surfs(c, &m->surf, &m->nsurf, "visible surfaces"))
        return -1;
    if (m->rm)   /* RM: no-collision surfaces come before the invisible block */
        return read_surfs(c, &m->nocoll, &m->nnocoll, "no-collision surfaces") ||
               read_invis(c, m) || read_triggers(c, m) ? -1 : 0;
    return read_invis(c, m) ||
           (m->has_nocoll && read_surfs(c, &m->nocoll, &m->nnocoll, "no-collision surfaces")) ||
           (m->has_trigger && read_triggers(c, m)) ? -1 : 0;
}

static int detect_variant(const rrb_rmesh *m)
{
    uint32_t i;
    if (m->rm)
        return RRB_RM_CBRE;   /* CBRE-EX's "1.3.12" export (NOTES §3.9) */
    if (m->has_nocoll)
        return RRB_RM_VBP;
    if (m->eof_trailer)
        return RRB_RM_VANILLA;
    if (m->redux_trigcount)
        return RRB_RM_SCPCBREDUX;
    for (i = 0; i < m->nsurf; i++)
        if (m->surf[i].flag[0] == 2)
            return RRB_RM_VBP;
    return RRB_RM_CBRE;
}

int rrb_rmesh_read_defs(const uint8_t *data, size_t size, const char *path,
                        const rrb_rm_defs *defs, rrb_rmesh *m, char *err, size_t errcap)
{
    rrb_cur c;
    memset(m, 0, sizeof *m);
    rrb_cur_init(&c, data, size, path);
    m->size = size;
    if (size == 0)
        rrb_fail(&c, 0, "expected a room mesh header, found an empty file (0 bytes)");
    else if (!read_header(&c, m) && !read_blocks(&c, m) && !read_entities(&c, m, defs))
        read_tail(&c, m);
    if (c.failed) {
        snprintf(err, errcap, "%s", c.err);
        rrb_rmesh_free(m);
        return -1;
    }
    m->variant = detect_variant(m);
    return 0;
}

int rrb_rmesh_read(const uint8_t *data, size_t size, const char *path, rrb_rmesh *m,
                   char *err, size_t errcap)
{
    return rrb_rmesh_read_defs(data, size, path, NULL, m, err, errcap);
}

void rrb_rmesh_undecoded_msg(const rrb_rmesh *m, const char *path, int strict, char *out,
                             size_t cap)
{
    char b[96];
    if (strict)
        snprintf(out, cap, "%s:0x%zx: expected an entity this reader can decode, found custom "
                 "class \"%s\" (%u entity record%s left undecoded; --entity-defs FILE decodes "
                 "them, or leave out --strict to keep the room without them)", path,
                 m->undecoded_at, shown(&m->undecoded_class, b, sizeof b), m->undecoded,
                 m->undecoded == 1 ? "" : "s");
    else
        snprintf(out, cap, "%s:0x%zx: warning: custom entity class \"%s\" cannot be decoded "
                 "without its definitions (--entity-defs FILE): %u entity record%s from here "
                 "left undecoded; geometry, collision, triggers and the %u entit%s before it "
                 "are kept", path, m->undecoded_at, shown(&m->undecoded_class, b, sizeof b),
                 m->undecoded, m->undecoded == 1 ? "" : "s", m->nents, m->nents == 1 ? "y" : "ies");
}

/* Definitions are loaded once per path (a folder bake reads many rooms). */
static rrb_rm_defs cached_defs;
static char *cached_path;

int rrb_rmesh_load(const uint8_t *data, size_t size, const char *path, const rrb_opts *opts,
                   FILE *warn, rrb_rmesh *m, char *err, size_t errcap)
{
    const rrb_rm_defs *defs = NULL;
    int quiet = opts && opts->quiet;
    if (opts && opts->entity_defs) {
        if (!cached_path || strcmp(cached_path, opts->entity_defs)) {
            rrb_rm_defs_free(&cached_defs);
            free(cached_path);
            cached_path = NULL;
            if (rrb_rm_defs_load(opts->entity_defs, &cached_defs, quiet ? NULL : warn, err,
                                 errcap)) {
                memset(m, 0, sizeof *m);
                return -1;
            }
            cached_path = rrb_xstrdup(opts->entity_defs);
        }
        defs = &cached_defs;
    }
    if (rrb_rmesh_read_defs(data, size, path, defs, m, err, errcap))
        return -1;
    if (m->undecoded && opts && opts->strict) {
        rrb_rmesh_undecoded_msg(m, path, 1, err, errcap);
        rrb_rmesh_free(m);
        return -1;
    }
    if (m->undecoded && !quiet && warn) {
        char msg[RRB_ERR_MAX];
        rrb_rmesh_undecoded_msg(m, path, 0, msg, sizeof msg);
        fprintf(warn, "%s\n", msg);
    }
    return 0;
}

/* ---- free / compare ---- */

static void free_surfs(rrb_rm_surf *s, uint32_t n)
{
    uint32_t i;
    for (i = 0; s && i < n; i++) {
        free(s[i].tex[0].s);
        free(s[i].tex[1].s);
        free(s[i].verts);
        free(s[i].idx);
    }
    free(s);
}

static void free_meshes(rrb_rm_mesh *s, uint32_t n)
{
    uint32_t i;
    for (i = 0; s && i < n; i++) {
        free(s[i].pos);
        free(s[i].idx);
    }
    free(s);
}

void rrb_rmesh_free(rrb_rmesh *m)
{
    uint32_t i;
    free(m->header.s);
    free_surfs(m->surf, m->nsurf);
    free_surfs(m->nocoll, m->nnocoll);
    free_meshes(m->invis, m->ninvis);
    for (i = 0; m->trig && i < m->ntrig; i++) {
        free_meshes(m->trig[i].surf, m->trig[i].nsurf);
        free(m->trig[i].name.s);
    }
    free(m->trig);
    for (i = 0; m->ents && i < m->nents; i++) {
        rrb_rm_entity *e = &m->ents[i];
        uint32_t k;
        free(e->classname.s);
        free(e->str.s);
        free(e->str2.s);
        for (k = 0; k < e->nprops; k++) {
            free(e->props[k].name);
            free(e->props[k].s.s);
        }
        free(e->props);
    }
    free(m->ents);
    free(m->undecoded_class.s);
    free(m->tail);
    memset(m, 0, sizeof *m);
}

static int str_eq(const rrb_rm_str *a, const rrb_rm_str *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->s, b->s, a->len) == 0);
}

static int surfs_eq(const rrb_rm_surf *a, const rrb_rm_surf *b, uint32_t n)
{
    uint32_t i, k;
    for (i = 0; i < n; i++) {
        if (a[i].flag[0] != b[i].flag[0] || a[i].flag[1] != b[i].flag[1] ||
            !str_eq(&a[i].tex[0], &b[i].tex[0]) || !str_eq(&a[i].tex[1], &b[i].tex[1]) ||
            a[i].nverts != b[i].nverts || a[i].ntris != b[i].ntris)
            return 0;
        for (k = 0; k < a[i].nverts; k++) {
            const rrb_rm_vert *x = &a[i].verts[k], *y = &b[i].verts[k];
            if (memcmp(x->pos, y->pos, 12) || memcmp(x->uv0, y->uv0, 8) ||
                memcmp(x->uv1, y->uv1, 8) || memcmp(x->rgb, y->rgb, 3))
                return 0;
        }
        if (a[i].ntris && memcmp(a[i].idx, b[i].idx, (size_t)a[i].ntris * 12))
            return 0;
    }
    return 1;
}

static int meshes_eq(const rrb_rm_mesh *a, const rrb_rm_mesh *b, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (a[i].nverts != b[i].nverts || a[i].ntris != b[i].ntris ||
            (a[i].nverts && memcmp(a[i].pos, b[i].pos, (size_t)a[i].nverts * 12)) ||
            (a[i].ntris && memcmp(a[i].idx, b[i].idx, (size_t)a[i].ntris * 12)))
            return 0;
    return 1;
}

static int props_eq(const rrb_rm_entity *a, const rrb_rm_entity *b)
{
    uint32_t k;
    if (a->nprops != b->nprops)
        return 0;
    for (k = 0; k < a->nprops; k++) {
        const rrb_rm_prop *x = &a->props[k], *y = &b->props[k];
        if (strcmp(x->name, y->name) || x->type != y->type || x->b != y->b || x->i != y->i ||
            memcmp(x->v, y->v, sizeof x->v) || !str_eq(&x->s, &y->s))
            return 0;
    }
    return 1;
}

static int ents_eq(const rrb_rm_entity *a, const rrb_rm_entity *b, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (!props_eq(&a[i], &b[i]))
            return 0;
    for (i = 0; i < n; i++)
        if (a[i].cls != b[i].cls || !str_eq(&a[i].classname, &b[i].classname) ||
            memcmp(a[i].pos, b[i].pos, 12) || !str_eq(&a[i].str, &b[i].str) ||
            !str_eq(&a[i].str2, &b[i].str2) || memcmp(&a[i].range, &b[i].range, 4) ||
            memcmp(&a[i].intensity, &b[i].intensity, 4) || a[i].inner != b[i].inner ||
            a[i].outer != b[i].outer || a[i].sound != b[i].sound ||
            memcmp(a[i].rot, b[i].rot, 12) || memcmp(a[i].scale, b[i].scale, 12))
            return 0;
    return 1;
}

int rrb_rmesh_equal(const rrb_rmesh *a, const rrb_rmesh *b)
{
    uint32_t i;
    if (!str_eq(&a->header, &b->header) || a->rm != b->rm || a->rm_version != b->rm_version ||
        a->nsurf != b->nsurf || a->ninvis != b->ninvis ||
        a->nnocoll != b->nnocoll || a->ntrig != b->ntrig || a->nents != b->nents ||
        a->eof_trailer != b->eof_trailer || a->redux_trigcount != b->redux_trigcount ||
        a->variant != b->variant || a->undecoded != b->undecoded || a->ntail != b->ntail ||
        (a->ntail && memcmp(a->tail, b->tail, a->ntail)))
        return 0;
    if (!surfs_eq(a->surf, b->surf, a->nsurf) || !surfs_eq(a->nocoll, b->nocoll, a->nnocoll) ||
        !meshes_eq(a->invis, b->invis, a->ninvis) || !ents_eq(a->ents, b->ents, a->nents))
        return 0;
    for (i = 0; i < a->ntrig; i++)
        if (a->trig[i].nsurf != b->trig[i].nsurf || !str_eq(&a->trig[i].name, &b->trig[i].name) ||
            !meshes_eq(a->trig[i].surf, b->trig[i].surf, a->trig[i].nsurf))
            return 0;
    return 1;
}

/* ---- semantics ---- */

int rrb_rmesh_surf_alpha(const rrb_rm_surf *s)
{
    int k, last = 0;
    for (k = 0; k < 2; k++)
        if (s->flag[k] != 0 && s->tex[k].len > 0)
            last = s->flag[k];
    return last == 3;
}

int rrb_rmesh_entity_ignored(const rrb_rm_entity *e)
{
    return (e->cls == RRB_RM_LIGHT || e->cls == RRB_RM_SPOTLIGHT || e->cls == RRB_RM_SCREEN) &&
           e->pos[0] == 0.0f && e->pos[1] == 0.0f && e->pos[2] == 0.0f;
}

static void soup_add(rrb_rm_soup *s, size_t *cap, const float *p0, const float *p1,
                     const float *p2, uint32_t surface, double scale)
{
    const float *p[3];
    size_t k;
    p[0] = p0; p[1] = p1; p[2] = p2;
    s->v = rrb_grow(s->v, cap, (s->ntris + 1) * 9, sizeof *s->v);
    for (k = 0; k < 9; k++)
        s->v[s->ntris * 9 + k] = (double)p[k / 3][k % 3] * scale;
    s->surface = realloc(s->surface, (s->ntris + 1) * sizeof *s->surface);
    if (!s->surface)
        abort();
    s->surface[s->ntris++] = surface;
}

void rrb_rmesh_soup(const rrb_rmesh *m, double scale, rrb_rm_soup *s)
{
    size_t cap = 0;
    uint32_t i, t;
    memset(s, 0, sizeof *s);
    for (i = 0; i < m->nsurf; i++) {
        const rrb_rm_surf *f = &m->surf[i];
        if (rrb_rmesh_surf_alpha(f))
            continue;
        for (t = 0; t < f->ntris; t++)
            soup_add(s, &cap, f->verts[f->idx[3 * t]].pos, f->verts[f->idx[3 * t + 1]].pos,
                     f->verts[f->idx[3 * t + 2]].pos, i, scale);
    }
    for (i = 0; i < m->ninvis; i++) {
        const rrb_rm_mesh *f = &m->invis[i];
        for (t = 0; t < f->ntris; t++)
            soup_add(s, &cap, f->pos + 3 * f->idx[3 * t], f->pos + 3 * f->idx[3 * t + 1],
                     f->pos + 3 * f->idx[3 * t + 2], m->nsurf + i, scale);
    }
}

void rrb_rmesh_soup_free(rrb_rm_soup *s)
{
    free(s->v);
    free(s->surface);
    memset(s, 0, sizeof *s);
}

/* ---- statistics for info / verify ---- */

static void grow_box(rrb_rmesh_stat *st, const float *p)
{
    int k;
    for (k = 0; k < 3; k++) {
        if ((double)p[k] < st->bmin[k])
            st->bmin[k] = p[k];
        if ((double)p[k] > st->bmax[k])
            st->bmax[k] = p[k];
    }
}

static int zero_area(const double *v)
{
    double a[3], b[3], c[3];
    int k;
    for (k = 0; k < 3; k++) {
        a[k] = v[3 + k] - v[k];
        b[k] = v[6 + k] - v[k];
    }
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
    return c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0;
}

void rrb_rmesh_stats(const rrb_rmesh *m, rrb_rmesh_stat *st)
{
    uint32_t i, k;
    rrb_rm_soup soup;
    memset(st, 0, sizeof *st);
    for (k = 0; k < 3; k++) {
        st->bmin[k] = HUGE_VAL;
        st->bmax[k] = -HUGE_VAL;
    }
    for (i = 0; i < m->nsurf; i++) {
        const rrb_rm_surf *s = &m->surf[i];
        st->verts += s->nverts;
        st->tris += s->ntris;
        if (rrb_rmesh_surf_alpha(s))
            st->alpha_tris += s->ntris;
        st->flags_seen[0][s->flag[0]] = st->flags_seen[1][s->flag[1]] = 1;
        for (k = 0; k < s->nverts; k++)
            grow_box(st, s->verts[k].pos);
    }
    for (i = 0; i < m->nnocoll; i++)
        st->nocoll_tris += m->nocoll[i].ntris;
    for (i = 0; i < m->ninvis; i++) {
        st->invis_tris += m->invis[i].ntris;
        st->invis_verts += m->invis[i].nverts;
        for (k = 0; k < m->invis[i].nverts; k++)
            grow_box(st, m->invis[i].pos + 3 * k);
    }
    for (i = 0; i < m->nents; i++) {
        if (m->ents[i].cls >= RRB_RM_NCLASSES) {
            st->custom++;
            continue;
        }
        st->by_class[m->ents[i].cls]++;
        st->ignored += (uint32_t)rrb_rmesh_entity_ignored(&m->ents[i]);
    }
    rrb_rmesh_soup(m, 1.0, &soup);
    for (i = 0; i < soup.ntris; i++)
        st->zero_area += (uint64_t)zero_area(soup.v + 9 * (size_t)i);
    rrb_rmesh_soup_free(&soup);
}

/* The text commands (info, verify, dump) read with the command line's
 * options: entity definitions, --strict; the warning goes to stderr. */
static int load_model(const uint8_t *data, size_t size, const char *path, rrb_rmesh *m,
                      char *err, size_t errcap)
{
    return rrb_rmesh_load(data, size, path, &rrb_text_opts, stderr, m, err, errcap);
}

/* Custom entities by class, in order of first appearance: "door 2, item 1"
 * (json: "door":2,"item":1). */
static void custom_counts(FILE *out, const rrb_rmesh *m, int json)
{
    uint32_t i, j, n;
    int first = 1;
    for (i = 0; i < m->nents; i++) {
        const rrb_rm_entity *e = &m->ents[i];
        if (e->cls < RRB_RM_NCLASSES)
            continue;
        for (j = 0; j < i && !(m->ents[j].cls >= RRB_RM_NCLASSES &&
                               str_eq(&m->ents[j].classname, &e->classname)); j++)
            ;
        if (j < i)
            continue;   /* counted at its first appearance */
        for (n = 0, j = i; j < m->nents; j++)
            n += m->ents[j].cls >= RRB_RM_NCLASSES && str_eq(&m->ents[j].classname, &e->classname);
        if (json) {
            fputs(first ? "" : ",", out);
            rrb_json_str(out, e->classname.s);
            fprintf(out, ":%u", n);
        } else {
            fprintf(out, "%s%s %u", first ? "" : ", ", e->classname.s, n);
        }
        first = 0;
    }
}

int rrb_rmesh_info(const uint8_t *data, size_t size, const char *path, FILE *out, char *err,
                   size_t errcap)
{
    rrb_rmesh m;
    rrb_rmesh_stat st;
    int k;
    if (load_model(data, size, path, &m, err, errcap))
        return -1;
    rrb_rmesh_stats(&m, &st);
    fprintf(out, "%s: rmesh, variant %s, header \"%s\"", path, rrb_rm_variant_names[m.variant],
            m.header.s);
    if (m.rm)
        fprintf(out, " version %u (CBRE-EX \"1.3.12\" export)", m.rm_version);
    fprintf(out, "\n");
    fprintf(out, "  textures %u, vertices %llu, triangles %llu (alpha %llu)\n", m.nsurf,
            (unsigned long long)st.verts, (unsigned long long)st.tris,
            (unsigned long long)st.alpha_tris);
    fprintf(out, "  invisible meshes %u (%llu triangles), no-collision surfaces %u (%llu "
            "triangles)\n", m.ninvis, (unsigned long long)st.invis_tris, m.nnocoll,
            (unsigned long long)st.nocoll_tris);
    fprintf(out, "  zero-area collision triangles %llu\n", (unsigned long long)st.zero_area);
    fprintf(out, "  trigger boxes %u, entities %u:", m.ntrig, m.nents);
    for (k = 0; k < RRB_RM_NCLASSES; k++)
        if (st.by_class[k])
            fprintf(out, " %s %u", rrb_rm_class_names[k], st.by_class[k]);
    if (st.custom) {
        fprintf(out, "\n  custom entities %u: ", st.custom);
        custom_counts(out, &m, 0);
    }
    if (m.undecoded) {
        char b[96];
        fprintf(out, "\n  undecoded: %u entity record%s from 0x%zx (custom class \"%s\"; "
                "--entity-defs FILE decodes them)", m.undecoded, m.undecoded == 1 ? "" : "s",
                m.undecoded_at, shown(&m.undecoded_class, b, sizeof b));
    }
    fprintf(out, "\n  ignored by the game (light/spotlight/screen at origin): %u\n", st.ignored);
    fprintf(out, "  trailer %s, parse end %zu/%zu\n",
            m.eof_trailer ? "EOF" : m.redux_trigcount ? "scpcbredux trigger count" : "none",
            m.parse_end, m.size);
    rrb_rmesh_free(&m);
    return 0;
}

static void json_counts(FILE *out, const rrb_rmesh *m, const rrb_rmesh_stat *st)
{
    int k;
    fprintf(out, "\"textures\":%u,\"vertices\":%llu,\"triangles\":%llu,\"alpha_triangles\":%llu,"
            "\"invisible_meshes\":%u,\"invisible_triangles\":%llu,\"nocoll_surfaces\":%u,"
            "\"nocoll_triangles\":%llu,\"zero_area_collision_triangles\":%llu,"
            "\"trigger_boxes\":%u,\"entities\":%u,\"entities_by_type\":{",
            m->nsurf, (unsigned long long)st->verts, (unsigned long long)st->tris,
            (unsigned long long)st->alpha_tris, m->ninvis, (unsigned long long)st->invis_tris,
            m->nnocoll, (unsigned long long)st->nocoll_tris, (unsigned long long)st->zero_area,
            m->ntrig, m->nents);
    for (k = 0; k < RRB_RM_NCLASSES; k++)
        fprintf(out, "%s\"%s\":%u", k ? "," : "", rrb_rm_class_names[k], st->by_class[k]);
    fprintf(out, "},\"custom_entities\":{");
    custom_counts(out, m, 1);
    fprintf(out, "},\"undecoded_entities\":%u,", m->undecoded);
    if (m->undecoded) {
        fprintf(out, "\"undecoded_at\":%zu,\"undecoded_class\":", m->undecoded_at);
        rrb_json_str(out, m->undecoded_class.s);
        fputc(',', out);
    }
    fprintf(out, "\"entities_ignored_at_origin\":%u,", st->ignored);
}

int rrb_rmesh_info_json(const uint8_t *data, size_t size, const char *path, FILE *out, char *err,
                        size_t errcap)
{
    rrb_rmesh m;
    rrb_rmesh_stat st;
    int s, f, first = 1;
    if (load_model(data, size, path, &m, err, errcap))
        return -1;
    rrb_rmesh_stats(&m, &st);
    fprintf(out, "{\"format\":\"rmesh\",\"variant\":\"%s\",\"header\":",
            rrb_rm_variant_names[m.variant]);
    rrb_json_str(out, m.header.s);
    if (m.rm)
        fprintf(out, ",\"rm_version\":%u,", m.rm_version);
    else
        fprintf(out, ",\"rm_version\":null,");
    json_counts(out, &m, &st);
    fprintf(out, "\"texture_flags\":[");
    for (s = 0; s < 2; s++)
        for (f = 0; f < 4; f++)
            if (st.flags_seen[s][f]) {
                fprintf(out, "%s[%d,%d]", first ? "" : ",", s, f);
                first = 0;
            }
    fprintf(out, "],\"trailer\":\"%s\",\"parse_end\":%zu,\"size\":%zu", m.eof_trailer ? "EOF" :
            m.redux_trigcount ? "scpcbredux" : "none", m.parse_end, m.size);
    if (st.verts + st.invis_verts)
        fprintf(out, ",\"bbox\":[[%.9g,%.9g,%.9g],[%.9g,%.9g,%.9g]]", st.bmin[0], st.bmin[1],
                st.bmin[2], st.bmax[0], st.bmax[1], st.bmax[2]);
    fprintf(out, "}\n");
    rrb_rmesh_free(&m);
    return 0;
}

/* ---- dump ---- */

static void jf(FILE *out, float v)
{
    fprintf(out, "%.9g", (double)v);
}

static void jstr(FILE *out, const rrb_rm_str *s)
{
    rrb_json_str(out, s->s);
}

static void dump_mesh(FILE *out, const rrb_rm_mesh *m)
{
    uint32_t i;
    fprintf(out, "{\"positions\":[");
    for (i = 0; i < 3 * m->nverts; i++) {
        fputs(i ? "," : "", out);
        jf(out, m->pos[i]);
    }
    fprintf(out, "],\"triangles\":[");
    for (i = 0; i < 3 * m->ntris; i++)
        fprintf(out, "%s%u", i ? "," : "", m->idx[i]);
    fprintf(out, "]}");
}

static void dump_surf(FILE *out, const rrb_rm_surf *s)
{
    uint32_t i;
    int k;
    fprintf(out, "{\"flags\":[%u,%u],\"textures\":[", s->flag[0], s->flag[1]);
    jstr(out, &s->tex[0]);
    fputc(',', out);
    jstr(out, &s->tex[1]);
    fprintf(out, "],\"alpha\":%s,\"vertices\":[", rrb_rmesh_surf_alpha(s) ? "true" : "false");
    for (i = 0; i < s->nverts; i++) {
        const rrb_rm_vert *v = &s->verts[i];
        fputs(i ? ",[" : "[", out);
        for (k = 0; k < 7; k++) {
            fputs(k ? "," : "", out);
            jf(out, k < 3 ? v->pos[k] : k < 5 ? v->uv0[k - 3] : v->uv1[k - 5]);
        }
        fprintf(out, ",%u,%u,%u]", v->rgb[0], v->rgb[1], v->rgb[2]);
    }
    fprintf(out, "],\"triangles\":[");
    for (i = 0; i < 3 * s->ntris; i++)
        fprintf(out, "%s%u", i ? "," : "", s->idx[i]);
    fprintf(out, "]}");
}

/* A custom entity: class, position and its properties with their types. */
static void dump_custom(FILE *out, const rrb_rm_entity *e)
{
    uint32_t k;
    fprintf(out, "{\"class\":");
    jstr(out, &e->classname);
    fprintf(out, ",\"custom\":\"%s\",\"pos\":[%.9g,%.9g,%.9g],\"properties\":[",
            e->cls == RRB_RM_CUSTOM ? "definitions" : "fixed layout", (double)e->pos[0],
            (double)e->pos[1], (double)e->pos[2]);
    for (k = 0; k < e->nprops; k++) {
        const rrb_rm_prop *p = &e->props[k];
        fprintf(out, "%s{\"name\":", k ? "," : "");
        rrb_json_str(out, p->name);
        fprintf(out, ",\"type\":\"%s\",\"value\":", rrb_rm_ptype_names[p->type]);
        switch (p->type) {
        case RRB_RM_BOOL: fprintf(out, "%u", p->b); break;
        case RRB_RM_INTEGER: fprintf(out, "%d", p->i); break;
        case RRB_RM_FLOAT: jf(out, p->v[0]); break;
        case RRB_RM_VECTOR:
            fprintf(out, "[%.9g,%.9g,%.9g]", (double)p->v[0], (double)p->v[1], (double)p->v[2]);
            break;
        case RRB_RM_STRING:
        case RRB_RM_COLOR255: jstr(out, &p->s); break;
        default: fprintf(out, "null"); break;   /* Choices: nothing stored */
        }
        fputc('}', out);
    }
    fprintf(out, "]}");
}

static void dump_entity(FILE *out, const rrb_rm_entity *e)
{
    if (e->cls >= RRB_RM_NCLASSES) {
        dump_custom(out, e);
        return;
    }
    fprintf(out, "{\"class\":\"%s\",\"pos\":[", rrb_rm_class_names[e->cls]);
    jf(out, e->pos[0]); fputc(',', out); jf(out, e->pos[1]); fputc(',', out); jf(out, e->pos[2]);
    fputc(']', out);
    if (e->cls == RRB_RM_LIGHT || e->cls == RRB_RM_SPOTLIGHT || e->cls == RRB_RM_SOUNDEMITTER) {
        fprintf(out, ",\"range\":");
        jf(out, e->range);
    }
    if (e->cls == RRB_RM_LIGHT || e->cls == RRB_RM_SPOTLIGHT) {
        fprintf(out, ",\"color\":");
        jstr(out, &e->str);
        fprintf(out, ",\"intensity\":");
        jf(out, e->intensity);
    }
    if (e->cls == RRB_RM_SPOTLIGHT) {
        fprintf(out, ",\"angles\":");
        jstr(out, &e->str2);
        fprintf(out, ",\"inner\":%d,\"outer\":%d", e->inner, e->outer);
    }
    if (e->cls == RRB_RM_SOUNDEMITTER)
        fprintf(out, ",\"sound\":%d", e->sound);
    if (e->cls == RRB_RM_SCREEN || e->cls == RRB_RM_PLAYERSTART || e->cls == RRB_RM_MODEL) {
        fprintf(out, e->cls == RRB_RM_SCREEN ? ",\"image\":" : e->cls == RRB_RM_MODEL ?
                ",\"file\":" : ",\"angles\":");
        jstr(out, &e->str);
    }
    if (e->cls == RRB_RM_MODEL)
        fprintf(out, ",\"rotation\":[%.9g,%.9g,%.9g],\"scale\":[%.9g,%.9g,%.9g]",
                (double)e->rot[0], (double)e->rot[1], (double)e->rot[2], (double)e->scale[0],
                (double)e->scale[1], (double)e->scale[2]);
    fprintf(out, ",\"ignored_by_game\":%s}", rrb_rmesh_entity_ignored(e) ? "true" : "false");
}

static void dump_list(FILE *out, const char *key, uint32_t n, int kind, const rrb_rmesh *m)
{
    uint32_t i, j;
    fprintf(out, ",\"%s\":[", key);
    for (i = 0; i < n; i++) {
        fputs(i ? ",\n" : "\n", out);
        if (kind == 0)
            dump_surf(out, &m->surf[i]);
        else if (kind == 1)
            dump_surf(out, &m->nocoll[i]);
        else if (kind == 2)
            dump_mesh(out, &m->invis[i]);
        else if (kind == 4)
            dump_entity(out, &m->ents[i]);
        else {
            fprintf(out, "{\"name\":");
            jstr(out, &m->trig[i].name);
            fprintf(out, ",\"surfaces\":[");
            for (j = 0; j < m->trig[i].nsurf; j++) {
                fputs(j ? "," : "", out);
                dump_mesh(out, &m->trig[i].surf[j]);
            }
            fprintf(out, "]}");
        }
    }
    fprintf(out, "]");
}

int rrb_rmesh_dump_json(const uint8_t *data, size_t size, const char *path, FILE *out, char *err,
                        size_t errcap)
{
    rrb_rmesh m;
    if (load_model(data, size, path, &m, err, errcap))
        return -1;
    fprintf(out, "{\"format\":\"rmesh\",\"variant\":\"%s\",\"header\":",
            rrb_rm_variant_names[m.variant]);
    jstr(out, &m.header);
    if (m.rm)
        fprintf(out, ",\"rm_version\":%u", m.rm_version);
    dump_list(out, "surfaces", m.nsurf, 0, &m);
    dump_list(out, "invisible", m.ninvis, 2, &m);
    if (m.has_nocoll)
        dump_list(out, "nocoll_surfaces", m.nnocoll, 1, &m);
    if (m.has_trigger)
        dump_list(out, "trigger_boxes", m.ntrig, 3, &m);
    dump_list(out, "entities", m.nents, 4, &m);
    if (m.undecoded) {
        fprintf(out, ",\"undecoded_entities\":%u,\"undecoded_at\":%zu,\"undecoded_class\":",
                m.undecoded, m.undecoded_at);
        jstr(out, &m.undecoded_class);
    }
    fprintf(out, ",\"trailer\":\"%s\"}\n", m.eof_trailer ? "EOF" :
            m.redux_trigcount ? "scpcbredux" : "none");
    rrb_rmesh_free(&m);
    return 0;
}

int rrb_rmesh_probe(const uint8_t *data, size_t size, const char *path)
{
    size_t n = path ? strlen(path) : 0;
    /* B3D header string "RoomMesh[...]": length 8..64, then the name */
    if (size >= 12 && data[0] >= 8 && data[0] <= 64 && !data[1] && !data[2] && !data[3] &&
        !memcmp(data + 4, "RoomMesh", 8))
        return 1;
    /* the RM variant: B3D string "RM" and a version byte */
    if (size >= 7 && data[0] == 2 && !data[1] && !data[2] && !data[3] && !memcmp(data + 4, "RM", 2))
        return 1;
    return n >= 6 && rrb_strieq(path + n - 6, ".rmesh");
}

/* rrb_emi_gen.c - writers of .sklb / .meshb / .animb (NOTES.md §4 byte for
 * byte), the seeded generator of valid figures, the catalogue of malformed
 * files (each with the offset where a reader must stop or warn) and the
 * walking-figure sample.
 *
 * The generator is the project's only source of EMI data (the game is
 * commercial), so it writes every field the reader reads, in the order
 * ScummVM reads it.
 */
#include "rrb_emi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ writers */

static void put_str(rrb_buf *b, const char *s)
{
    uint32_t n = (uint32_t)strlen(s) + 1;  /* the stored length counts the NUL */
    rrb_buf_u32le(b, n);
    rrb_buf_put(b, s, n);
}

static void put_fixed32(rrb_buf *b, const char *s)
{
    char tmp[32];
    size_t n = strlen(s);
    memset(tmp, 0, sizeof tmp);
    memcpy(tmp, s, n > 31 ? 31 : n);
    rrb_buf_put(b, tmp, 32);
}

static void put_floats(rrb_buf *b, const float *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        rrb_buf_f32le(b, v[i]);
}

void rrb_emi_write_skel(const rrb_emi_skel *s, rrb_buf *b)
{
    uint32_t i;
    rrb_buf_u32le(b, s->njoints);
    for (i = 0; i < s->njoints; i++) {
        const rrb_emi_joint *j = &s->joints[i];
        put_fixed32(b, j->name);
        put_fixed32(b, j->parent_name);
        put_floats(b, j->t, 3);
        put_floats(b, j->q, 4);
    }
}

/* Offsets of fields the malformed cases patch. */
typedef struct mesh_offs {
    size_t radius, ntex, layout, nverts, g0_tex, g0_count, g0_idx, ninfl, infl0;
} mesh_offs;

typedef struct anim_offs {
    size_t duration, ntracks, t_op[2], t_prio[2], t_nkeys[2], t_keys[2], t_start[2];
} anim_offs;

static void write_mesh_offs(const rrb_emi_mesh *m, rrb_buf *b, mesh_offs *o)
{
    uint32_t i, k;
    put_str(b, m->name);
    o->radius = b->size;
    rrb_buf_f32le(b, m->radius);
    put_floats(b, m->center, 3);
    put_floats(b, m->box_a, 3);
    put_floats(b, m->box_b, 3);
    rrb_buf_u32le(b, m->num_tex_sets);
    rrb_buf_u32le(b, m->set_type);
    o->ntex = b->size;
    rrb_buf_u32le(b, m->ntex);
    for (i = 0; i < m->ntex; i++) {
        put_str(b, m->tex[i]);
        rrb_buf_u32le(b, m->tex_flags[i]);
    }
    o->layout = b->size;
    rrb_buf_u32le(b, m->layout);
    o->nverts = b->size;
    rrb_buf_u32le(b, m->nverts);
    put_floats(b, m->pos, (size_t)m->nverts * 3);
    if (m->layout != 18)
        put_floats(b, m->nrm, (size_t)m->nverts * 3);
    rrb_buf_put(b, m->rgba, (size_t)m->nverts * 4);
    if (m->layout != 3)
        put_floats(b, m->uv, (size_t)m->nverts * 2);
    if (!m->has_groups)
        return;
    rrb_buf_u32le(b, m->ngroups);
    for (i = 0; i < m->ngroups; i++) {
        const rrb_emi_group *g = &m->groups[i];
        rrb_buf_u32le(b, g->flags);
        rrb_buf_u32le(b, g->has_texture);
        if (i == 0)
            o->g0_tex = b->size;
        if (g->has_texture)
            rrb_buf_u32le(b, g->texture);
        if (i == 0)
            o->g0_count = b->size;
        rrb_buf_u32le(b, g->nindices);
        if (i == 0)
            o->g0_idx = b->size;
        for (k = 0; k < g->nindices; k++)
            rrb_buf_u16le(b, g->indices[k]);
    }
    rrb_buf_u32le(b, m->has_bones);
    if (m->has_bones != 1)
        return;
    rrb_buf_u32le(b, m->nbones);
    for (i = 0; i < m->nbones; i++)
        put_str(b, m->bones[i]);
    o->ninfl = b->size;
    rrb_buf_u32le(b, m->ninfl);
    o->infl0 = b->size;
    for (i = 0; i < m->ninfl; i++) {
        rrb_buf_u32le(b, m->infl[i].inc);
        rrb_buf_u32le(b, m->infl[i].bone);
        rrb_buf_f32le(b, m->infl[i].weight);
    }
}

void rrb_emi_write_mesh(const rrb_emi_mesh *m, rrb_buf *b)
{
    mesh_offs o;
    write_mesh_offs(m, b, &o);
}

static void write_anim_offs(const rrb_emi_anim *a, rrb_buf *b, anim_offs *o)
{
    uint32_t i, k;
    memset(o, 0, sizeof *o);
    put_str(b, a->name);
    o->duration = b->size;
    rrb_buf_f32le(b, a->duration);
    o->ntracks = b->size;
    rrb_buf_u32le(b, a->ntracks);
    for (i = 0; i < a->ntracks; i++) {
        const rrb_emi_track *t = &a->tracks[i];
        unsigned s = i < 2 ? i : 1;
        size_t start = b->size;
        put_str(b, t->joint);
        if (i < 2) {
            o->t_start[s] = start;
            o->t_op[s] = b->size;
            o->t_prio[s] = b->size + 4;
            o->t_nkeys[s] = b->size + 12;
            o->t_keys[s] = b->size + 16;
        }
        rrb_buf_u32le(b, t->op);
        rrb_buf_u32le(b, t->priority);
        rrb_buf_u32le(b, t->unknown);
        rrb_buf_u32le(b, t->nkeys);
        for (k = 0; k < t->nkeys; k++) {
            put_floats(b, t->keys[k].v, t->op == RRB_EMI_OP_POS ? 3 : 4);
            rrb_buf_f32le(b, t->keys[k].time);
        }
    }
}

void rrb_emi_write_anim(const rrb_emi_anim *a, rrb_buf *b)
{
    anim_offs o;
    write_anim_offs(a, b, &o);
}

/* ------------------------------------------------------------------ generator */

typedef struct rng { uint64_t s; } rng;

static uint32_t rnd(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static uint32_t rnd_in(rng *r, uint32_t lo, uint32_t hi)  /* inclusive */
{
    return lo + rnd(r) % (hi - lo + 1);
}

static double rnd_f(rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (rnd(r) / 4294967296.0);
}

static void rnd_quat(rng *r, float q[4])
{
    double v[4], n;
    int i;
    do {
        n = 0;
        for (i = 0; i < 4; i++) {
            v[i] = rnd_f(r, -1, 1);
            n += v[i] * v[i];
        }
    } while (n < 0.01 || n > 1);
    n = sqrt(n);
    for (i = 0; i < 4; i++)
        q[i] = (float)(v[i] / n);
}

/* The name with letters flipped in case at random (lookups are case-insensitive). */
static char *recase(rng *r, const char *s)
{
    char *d = rrb_xstrdup(s);
    char *p;
    for (p = d; *p; p++)
        if (((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) && (rnd(r) & 3) == 0)
            *p = (char)(*p ^ 0x20);
    return d;
}

void rrb_emi_gen_defaults(rrb_emi_gen_params *p)
{
    p->max_joints = 40;
    p->max_depth = 12;
    p->max_verts = 120;
    p->max_infl = 6;
    p->max_keys = 8;
    p->scale = 2.0f;
}

static void gen_skel(rng *r, const rrb_emi_gen_params *p, rrb_emi_skel *s)
{
    uint32_t i, nj = rnd_in(r, 1, p->max_joints);
    uint32_t *depth = rrb_xcalloc(nj, sizeof *depth);
    s->njoints = nj;
    s->joints = rrb_xcalloc(nj, sizeof *s->joints);
    for (i = 0; i < nj; i++) {
        rrb_emi_joint *j = &s->joints[i];
        int k, par = -1;
        snprintf(j->name, sizeof j->name, "Joint_%u_%c%c", i, 'a' + rnd(r) % 26,
                 'a' + rnd(r) % 26);
        if (i > 0 && rnd(r) % 12 != 0) {
            par = (int)rnd_in(r, i > 6 ? i - 6 : 0, i - 1);  /* mostly recent: deep chains */
            while (par >= 0 && depth[par] + 1 > p->max_depth)
                par = s->joints[par].parent;
        }
        j->parent = par;
        depth[i] = par < 0 ? 0 : depth[par] + 1;
        if (par >= 0) {
            char *rc = recase(r, s->joints[par].name);
            snprintf(j->parent_name, sizeof j->parent_name, "%s", rc);
            free(rc);
        }
        for (k = 0; k < 3; k++)
            j->t[k] = (float)rnd_f(r, -p->scale / 4, p->scale / 4);
        rnd_quat(r, j->q);
    }
    free(depth);
}

static void gen_vertices(rng *r, const rrb_emi_gen_params *p, rrb_emi_mesh *m)
{
    static const uint32_t layouts[3] = {19, 18, 3};
    uint32_t v, k;
    m->layout = layouts[rnd(r) % 3];
    m->nverts = rnd_in(r, 3, p->max_verts);
    m->pos = rrb_xcalloc((size_t)m->nverts * 3, sizeof(float));
    m->rgba = rrb_xcalloc((size_t)m->nverts * 4, 1);
    if (m->layout != 18)
        m->nrm = rrb_xcalloc((size_t)m->nverts * 3, sizeof(float));
    if (m->layout != 3)
        m->uv = rrb_xcalloc((size_t)m->nverts * 2, sizeof(float));
    for (v = 0; v < m->nverts; v++) {
        float q[4];
        for (k = 0; k < 3; k++)
            m->pos[3 * v + k] = (float)rnd_f(r, -p->scale, p->scale);
        for (k = 0; k < 4; k++)
            m->rgba[4 * v + k] = (uint8_t)rnd(r);
        rnd_quat(r, q);   /* a random direction: the unit vector part of a random quaternion */
        if (m->nrm) {
            double n = sqrt((double)q[0] * (double)q[0] + (double)q[1] * (double)q[1] + (double)q[2] * (double)q[2]);
            if (n < 1e-3) {
                q[0] = 1;
                n = 1;
            }
            for (k = 0; k < 3; k++)
                m->nrm[3 * v + k] = (float)((double)q[k] / n);
        }
        if (m->uv)
            for (k = 0; k < 2; k++)
                m->uv[2 * v + k] = (float)rnd_f(r, 0, 1);
    }
}

static void gen_groups(rng *r, rrb_emi_mesh *m)
{
    uint32_t i, k;
    m->ntex = rnd_in(r, 1, 4);
    m->tex = rrb_xcalloc(m->ntex, sizeof *m->tex);
    m->tex_flags = rrb_xcalloc(m->ntex, sizeof *m->tex_flags);
    for (i = 0; i < m->ntex; i++) {
        char name[64];
        snprintf(name, sizeof name, "textures/gen_%u.til", i);
        m->tex[i] = rrb_xstrdup(name);
        m->tex_flags[i] = rnd(r) % 3 == 0 ? 0x400u : 0u;
    }
    m->has_groups = 1;
    m->ngroups = rnd_in(r, 1, 4);
    m->groups = rrb_xcalloc(m->ngroups, sizeof *m->groups);
    for (i = 0; i < m->ngroups; i++) {
        rrb_emi_group *g = &m->groups[i];
        g->flags = rnd(r) % 2 ? 0x0304u : 0x10000u;
        g->has_texture = rnd(r) % 4 != 0;
        g->texture = g->has_texture ? rnd_in(r, 0, m->ntex - 1) : 0;
        g->nindices = 3 * rnd_in(r, 1, 24);
        g->indices = rrb_xcalloc(g->nindices, 2);
        for (k = 0; k < g->nindices; k++)
            g->indices[k] = (uint16_t)rnd_in(r, 0, m->nverts - 1);
    }
}

static void gen_influences(rng *r, const rrb_emi_gen_params *p, const rrb_emi_skel *s,
                           rrb_emi_mesh *m)
{
    uint32_t i, v, k, *pick = rrb_xcalloc(s->njoints, sizeof *pick);
    m->has_bones = 1;
    m->nbones = rnd_in(r, 1, s->njoints < 12 ? s->njoints : 12);
    m->bones = rrb_xcalloc(m->nbones, sizeof *m->bones);
    for (i = 0; i < s->njoints; i++)
        pick[i] = i;
    for (i = 0; i < m->nbones; i++) {   /* distinct joints, partial Fisher-Yates */
        uint32_t j = rnd_in(r, i, s->njoints - 1), t = pick[i];
        pick[i] = pick[j];
        pick[j] = t;
        m->bones[i] = recase(r, s->joints[pick[i]].name);
    }
    m->infl = rrb_xcalloc((size_t)m->nverts * p->max_infl, sizeof *m->infl);
    m->vert_infl = rrb_xcalloc((size_t)m->nverts + 1, sizeof *m->vert_infl);
    for (v = 0; v < m->nverts; v++) {
        uint32_t n = rnd_in(r, 1, p->max_infl < m->nbones ? p->max_infl : m->nbones);
        double w[RRB_EMI_MAX_SRC_INFL], sum = 0;
        for (i = 0; i < m->nbones; i++)
            pick[i] = i;
        m->vert_infl[v] = m->ninfl;
        for (k = 0; k < n; k++) {
            uint32_t j = rnd_in(r, k, m->nbones - 1), t = pick[k];
            pick[k] = pick[j];
            pick[j] = t;
            w[k] = rnd_f(r, 0.05, 1.0);
            sum += w[k];
        }
        for (k = 0; k < n; k++) {
            rrb_emi_infl *f = &m->infl[m->ninfl++];
            f->inc = k == 0;
            f->bone = pick[k];
            f->weight = (float)(w[k] / sum);
        }
    }
    m->vert_infl[m->nverts] = m->ninfl;
    free(pick);
}

static void gen_mesh(rng *r, const rrb_emi_gen_params *p, const rrb_emi_skel *s,
                     rrb_emi_mesh *m)
{
    int k;
    m->name = rrb_xstrdup("gen/figure.meshb");
    m->radius = p->scale;
    for (k = 0; k < 3; k++) {
        m->box_a[k] = -p->scale;
        m->box_b[k] = p->scale;
    }
    m->num_tex_sets = 1;
    gen_vertices(r, p, m);
    gen_groups(r, m);
    gen_influences(r, p, s, m);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* next = prev turned by up to 100 degrees about a random axis, with a random
 * sign (q and -q are the same rotation: exercises the shortest-arc rule).
 * Consecutive keys never come near 180 degrees apart, where the shortest arc
 * is ambiguous. */
static void turn_quat(rng *r, const float prev[4], float next[4])
{
    float axis[4];
    double h = rnd_f(r, 0, 100) * 3.14159265358979 / 360.0, d[4], n = 0, sgn;
    double a[3], s, p[4];
    int i;
    rnd_quat(r, axis);
    for (i = 0; i < 3; i++)
        n += (double)axis[i] * (double)axis[i];
    n = sqrt(n) > 1e-6 ? sqrt(n) : 1;
    s = sin(h);
    for (i = 0; i < 3; i++)
        a[i] = (double)axis[i] / n * s;
    for (i = 0; i < 4; i++)
        p[i] = prev[i];
    /* d = p * (a, cos h) */
    d[3] = p[3] * cos(h) - (p[0] * a[0] + p[1] * a[1] + p[2] * a[2]);
    d[0] = p[3] * a[0] + p[0] * cos(h) + p[1] * a[2] - p[2] * a[1];
    d[1] = p[3] * a[1] + p[1] * cos(h) + p[2] * a[0] - p[0] * a[2];
    d[2] = p[3] * a[2] + p[2] * cos(h) + p[0] * a[1] - p[1] * a[0];
    sgn = rnd(r) & 1 ? -1.0 : 1.0;
    n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
    for (i = 0; i < 4; i++)
        next[i] = (float)(sgn * d[i] / n);
}

static void gen_track(rng *r, const rrb_emi_gen_params *p, const rrb_emi_skel *s, uint32_t j,
                      uint32_t op, float duration, rrb_emi_track *t)
{
    uint32_t k;
    float *times;
    t->joint = recase(r, s->joints[j].name);
    t->op = op;
    t->priority = rnd_in(r, 0, 5);
    t->nkeys = rnd_in(r, 1, p->max_keys);
    t->keys = rrb_xcalloc(t->nkeys, sizeof *t->keys);
    times = rrb_xcalloc(t->nkeys, sizeof *times);
    for (k = 0; k < t->nkeys; k++)   /* uneven times, sometimes not covering [0, duration] */
        times[k] = (float)rnd_f(r, -0.1, 1.1 * (double)duration);
    qsort(times, t->nkeys, sizeof *times, cmp_float);
    for (k = 0; k < t->nkeys; k++) {
        int i;
        t->keys[k].time = times[k] < 0 ? 0.0f : times[k];
        if (op == RRB_EMI_OP_POS)
            for (i = 0; i < 3; i++)
                t->keys[k].v[i] = s->joints[j].t[i] + (float)rnd_f(r, -p->scale / 8,
                                                                    p->scale / 8);
        else if (k == 0)
            rnd_quat(r, t->keys[k].v);
        else
            turn_quat(r, t->keys[k - 1].v, t->keys[k].v);
    }
    free(times);
}

static void gen_anim(rng *r, const rrb_emi_gen_params *p, const rrb_emi_skel *s,
                     rrb_emi_anim *a, uint32_t seed)
{
    uint32_t j, op, n = 0;
    char name[48];
    snprintf(name, sizeof name, "gen_anim_%u", seed);
    a->name = rrb_xstrdup(name);
    a->duration = (float)rnd_f(r, 0.5, 3.0);
    a->tracks = rrb_xcalloc((size_t)s->njoints * 2, sizeof *a->tracks);
    for (j = 0; j < s->njoints; j++)
        for (op = RRB_EMI_OP_POS; op <= RRB_EMI_OP_ROT; op++)
            if (rnd(r) % 3 != 0)
                gen_track(r, p, s, j, op, a->duration, &a->tracks[n++]);
    a->ntracks = n;
}

void rrb_emi_gen_figure(uint32_t seed, const rrb_emi_gen_params *p, rrb_emi_skel *s,
                        rrb_emi_mesh *m, rrb_emi_anim *a)
{
    rng r;
    r.s = 0x5eed0000ull + seed;
    memset(s, 0, sizeof *s);
    memset(m, 0, sizeof *m);
    memset(a, 0, sizeof *a);
    gen_skel(&r, p, s);
    gen_mesh(&r, p, s, m);
    gen_anim(&r, p, s, a, seed);
}

/* ------------------------------------------------------------------ malformed cases */

static void set_joint(rrb_emi_joint *j, const char *name, const char *parent, float x, float y,
                      float z)
{
    memset(j, 0, sizeof *j);
    snprintf(j->name, sizeof j->name, "%s", name);
    snprintf(j->parent_name, sizeof j->parent_name, "%s", parent);
    j->t[0] = x;
    j->t[1] = y;
    j->t[2] = z;
    j->q[3] = 1;
}

/* The small valid figure every malformed case starts from: joints root, a
 * (child of root), b (child of a), c (child of root); a 4-vertex mesh bound to
 * root and a; an animation with a translation track and a rotation track. */
static void base_skel(rrb_emi_skel *s)
{
    s->njoints = 4;
    s->joints = rrb_xcalloc(4, sizeof *s->joints);
    set_joint(&s->joints[0], "root", "", 0, 1, 0);
    set_joint(&s->joints[1], "a", "root", 0, 0.5f, 0);
    set_joint(&s->joints[2], "b", "a", 0.25f, 0, 0);
    set_joint(&s->joints[3], "c", "root", 0, -0.5f, 0);
}

static void base_mesh(rrb_emi_mesh *m, uint32_t nbones_extra)
{
    static const float w[5] = {1, 0.5f, 0.5f, 1, 1};
    static const uint32_t bone[5] = {0, 0, 1, 1, 0}, inc[5] = {1, 1, 0, 1, 1};
    uint32_t i;
    memset(m, 0, sizeof *m);
    m->name = rrb_xstrdup("base.meshb");
    m->num_tex_sets = 1;
    m->ntex = 1;
    m->tex = rrb_xcalloc(1, sizeof *m->tex);
    m->tex[0] = rrb_xstrdup("base.til");
    m->tex_flags = rrb_xcalloc(1, sizeof *m->tex_flags);
    m->layout = 19;
    m->nverts = 4;
    m->pos = rrb_xcalloc(12, sizeof(float));
    m->nrm = rrb_xcalloc(12, sizeof(float));
    m->uv = rrb_xcalloc(8, sizeof(float));
    m->rgba = rrb_xcalloc(16, 1);
    for (i = 0; i < 4; i++) {
        m->pos[3 * i + i % 3] = 1;
        m->nrm[3 * i + 1] = 1;
    }
    m->has_groups = 1;
    m->ngroups = 1;
    m->groups = rrb_xcalloc(1, sizeof *m->groups);
    m->groups[0].flags = 0x0304;
    m->groups[0].has_texture = 1;
    m->groups[0].nindices = 6;
    m->groups[0].indices = rrb_xcalloc(6, 2);
    for (i = 0; i < 6; i++)
        m->groups[0].indices[i] = (uint16_t)((i + i / 3) % 4);
    m->has_bones = 1;
    m->nbones = 2 + nbones_extra;
    m->bones = rrb_xcalloc(m->nbones, sizeof *m->bones);
    m->bones[0] = rrb_xstrdup("ROOT");
    m->bones[1] = rrb_xstrdup("A");
    for (i = 2; i < m->nbones; i++)
        m->bones[i] = rrb_xstrdup("root");
    m->ninfl = 5;
    m->infl = rrb_xcalloc(5 + 32, sizeof *m->infl);
    for (i = 0; i < 5; i++) {
        m->infl[i].inc = inc[i];
        m->infl[i].bone = bone[i];
        m->infl[i].weight = w[i];
    }
}

static void base_anim(rrb_emi_anim *a)
{
    uint32_t k;
    memset(a, 0, sizeof *a);
    a->name = rrb_xstrdup("base");
    a->duration = 1;
    a->ntracks = 2;
    a->tracks = rrb_xcalloc(2, sizeof *a->tracks);
    a->tracks[0].joint = rrb_xstrdup("Root");
    a->tracks[0].op = RRB_EMI_OP_POS;
    a->tracks[1].joint = rrb_xstrdup("a");
    a->tracks[1].op = RRB_EMI_OP_ROT;
    for (k = 0; k < 2; k++) {
        rrb_emi_track *t = &a->tracks[k];
        uint32_t i;
        t->priority = 1;
        t->nkeys = 3;
        t->keys = rrb_xcalloc(3, sizeof *t->keys);
        for (i = 0; i < 3; i++) {
            t->keys[i].time = 0.5f * (float)i;
            t->keys[i].v[1] = k == 0 ? 1.0f + 0.1f * (float)i : 0;
            t->keys[i].v[3] = k == 0 ? 0 : 1;
        }
    }
}

static void patch32(rrb_buf *b, size_t off, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    memcpy(b->data + off, t, 4);
}

static void patchf(rrb_buf *b, size_t off, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    patch32(b, off, u);
}

#define J(k) (4 + 92 * (size_t)(k))   /* joint record k of a .sklb */

enum { BAD_SKLB = 12, BAD_MESHB = 17, BAD_ANIMB = 13 };
const unsigned rrb_emi_nbad = BAD_SKLB + BAD_MESHB + BAD_ANIMB;

static const char *bad_skel(unsigned i, rrb_buf *b, size_t *off, int *warn)
{
    rrb_emi_skel s;
    const char *name = "?";
    size_t k;
    base_skel(&s);
    *warn = 0;
    switch (i) {
    case 3: strcpy(s.joints[2].parent_name, "nosuch"); *off = J(2) + 32; *warn = 1;
        name = "sklb_parent_missing"; break;
    case 4: strcpy(s.joints[1].parent_name, "c"); *off = J(1) + 32; *warn = 1;
        name = "sklb_parent_later"; break;
    case 5: strcpy(s.joints[2].parent_name, "B"); *off = J(2) + 32; *warn = 1;
        name = "sklb_parent_self"; break;
    case 6: strcpy(s.joints[1].parent_name, "b"); *off = J(1) + 32; *warn = 1;
        name = "sklb_parent_cycle"; break;   /* a -> b -> a: a becomes a root */
    case 7: strcpy(s.joints[3].name, "A"); *off = J(3); name = "sklb_duplicate_name"; break;
    case 8: s.joints[1].name[0] = 0; *off = J(1); name = "sklb_empty_name"; break;
    case 9: s.joints[1].q[3] = 0; *off = J(1) + 76; name = "sklb_zero_quaternion"; break;
    case 10: for (k = 0; k < 4; k++) s.joints[1].q[k] = 0.5f * (k == 3 ? 2.0f : 0.0f) + 0.5f;
        *off = J(1) + 76; *warn = 1; name = "sklb_nonunit_quaternion"; break;
    case 11: s.joints[2].t[0] = NAN; *off = J(2) + 64; name = "sklb_nan_translation"; break;
    default: break;
    }
    if (i == 2) {   /* a complete file with one joint too many */
        rrb_emi_skel_free(&s);
        s.njoints = RRB_EMI_MAX_JOINTS + 1;
        s.joints = rrb_xcalloc(s.njoints, sizeof *s.joints);
        for (k = 0; k < s.njoints; k++) {
            set_joint(&s.joints[k], "", "", 0, 0, 0);
            snprintf(s.joints[k].name, 32, "j%zu", k);
        }
        *off = 0;
        name = "sklb_too_many_joints";
    }
    rrb_emi_write_skel(&s, b);
    rrb_emi_skel_free(&s);
    if (i == 0) {
        b->size = J(2) + 40;   /* the joint count no longer fits: caught at the count */
        *off = 0;
        name = "sklb_truncated";
    } else if (i == 1) {
        patch32(b, 0, 1000);
        *off = 0;
        name = "sklb_count_past_end";
    }
    return name;
}

static const char *bad_mesh(unsigned i, rrb_buf *b, size_t *off, int *warn)
{
    rrb_emi_mesh m;
    mesh_offs o;
    const char *name = "?";
    uint32_t k;
    base_mesh(&m, i == 12 ? 16 : 0);
    *warn = 0;
    if (i == 12) {   /* vertex 1 gets 17 influences */
        for (k = 0; k < 17; k++) {
            m.infl[1 + k].inc = k == 0;
            m.infl[1 + k].bone = k + 1;
            m.infl[1 + k].weight = 1.0f / 17;
        }
        m.infl[18].inc = 1, m.infl[18].bone = 1, m.infl[18].weight = 1;
        m.infl[19].inc = 1, m.infl[19].bone = 0, m.infl[19].weight = 1;
        m.ninfl = 20;
    }
    if (i == 14)
        m.ninfl = 4;   /* the last vertex has no influence */
    if (i == 15)
        m.infl[2].bone = 0;
    write_mesh_offs(&m, b, &o);
    rrb_emi_mesh_free(&m);
    switch (i) {
    case 0: b->size = o.radius + 2; *off = o.radius; name = "meshb_truncated"; break;
    case 1: patch32(b, o.nverts, 0x10000000u); *off = o.nverts;
        name = "meshb_vertex_count_past_end"; break;
    case 2: patch32(b, o.layout, 7); *off = o.layout; name = "meshb_unknown_layout"; break;
    case 3: b->data[o.g0_idx + 8] = 4; *off = o.g0_idx + 8; name = "meshb_index_out_of_range";
        break;
    case 4: patch32(b, o.g0_tex, 5); *off = o.g0_tex; name = "meshb_texture_out_of_range"; break;
    case 5: patch32(b, o.g0_count, 100000); *off = o.g0_count;
        name = "meshb_index_count_past_end"; break;
    case 6: patch32(b, o.g0_count, 5); *off = o.g0_count; name = "meshb_index_count_not_3n";
        break;
    case 7: patch32(b, o.infl0 + 12 + 4, 7); *off = o.infl0 + 16;
        name = "meshb_bone_out_of_range"; break;
    case 8: patchf(b, o.infl0 + 12 + 8, NAN); *off = o.infl0 + 20; name = "meshb_weight_nan";
        break;
    case 9: patchf(b, o.infl0 + 12 + 8, -0.5f); *off = o.infl0 + 20;
        name = "meshb_weight_negative"; break;
    case 10: patchf(b, o.infl0 + 24 + 8, 0); *off = o.infl0 + 32; *warn = 1;
        name = "meshb_weight_zero"; break;
    case 11: patchf(b, o.infl0 + 8, 0.5f); *off = o.infl0; *warn = 1;
        name = "meshb_weight_sum"; break;
    case 12: *off = o.infl0 + 12 * 17; name = "meshb_too_many_influences"; break;
    case 13: patch32(b, o.infl0, 0); *off = o.infl0; name = "meshb_first_inc_zero"; break;
    case 14: *off = o.ninfl; name = "meshb_vertex_without_influence"; break;
    case 15: *off = o.infl0 + 24; *warn = 1; name = "meshb_bone_twice_in_vertex"; break;
    case 16: patch32(b, o.ntex, 0x7fffffffu); *off = o.ntex;
        name = "meshb_texture_count_past_end"; break;
    default: break;
    }
    return name;
}

static const char *bad_anim(unsigned i, rrb_buf *b, size_t *off, int *warn)
{
    rrb_emi_anim a;
    anim_offs o;
    const char *name = "?";
    base_anim(&a);
    *warn = 0;
    if (i == 12) {
        free(a.tracks[0].joint);
        a.tracks[0].joint = rrb_xstrdup("nobody");
    }
    write_anim_offs(&a, b, &o);
    rrb_emi_anim_free(&a);
    switch (i) {
    case 0: b->size = o.duration + 1; *off = o.duration; name = "animb_truncated"; break;
    case 1: patch32(b, o.ntracks, 1000000); *off = o.ntracks;
        name = "animb_track_count_past_end"; break;
    case 2: patch32(b, o.t_nkeys[0], 1000000); *off = o.t_nkeys[0];
        name = "animb_key_count_past_end"; break;
    case 3: patch32(b, o.t_op[0], 5); *off = o.t_op[0]; name = "animb_unknown_operation"; break;
    case 4: patch32(b, o.t_prio[1], 8); *off = o.t_prio[1];
        name = "animb_priority_out_of_range"; break;
    case 5: patchf(b, o.t_keys[0] + 2 * 16 + 12, 0.25f); *off = o.t_keys[0] + 2 * 16 + 12;
        name = "animb_keys_out_of_order"; break;
    case 6: patchf(b, o.t_keys[1] + 12, 0); *off = o.t_keys[1];
        name = "animb_zero_quaternion"; break;
    case 7: patchf(b, o.t_keys[1] + 20 + 12, 3); *off = o.t_keys[1] + 20; *warn = 1;
        name = "animb_nonunit_quaternion"; break;
    case 8: patchf(b, o.t_keys[0], NAN); *off = o.t_keys[0]; name = "animb_nan_position"; break;
    case 9: patchf(b, o.duration, -1); *off = o.duration; name = "animb_negative_duration";
        break;
    case 10: patch32(b, o.t_nkeys[0], 0); *off = o.t_nkeys[0]; name = "animb_zero_keys"; break;
    case 11: patch32(b, 0, 0xffffu); *off = 0; name = "animb_name_past_end"; break;
    case 12: *off = o.t_start[0]; *warn = 2; name = "animb_unmatched_track"; break;
    default: break;
    }
    return name;
}

const char *rrb_emi_gen_bad(unsigned i, rrb_buf *b, int *kind, size_t *expect_off,
                            int *expect_warn)
{
    b->size = 0;
    if (i < BAD_SKLB) {
        *kind = RRB_EMI_SKLB;
        return bad_skel(i, b, expect_off, expect_warn);
    }
    i -= BAD_SKLB;
    if (i < BAD_MESHB) {
        *kind = RRB_EMI_MESHB;
        return bad_mesh(i, b, expect_off, expect_warn);
    }
    *kind = RRB_EMI_ANIMB;
    return bad_anim(i - BAD_MESHB, b, expect_off, expect_warn);
}

/* The base skeleton (for the unmatched-track case, expect_warn == 2). */
void rrb_emi_gen_base_skel(rrb_emi_skel *s)
{
    base_skel(s);
}

/* ------------------------------------------------------------------ sample */

/* The walking figure: 15 joints (y up, 2.11 units tall, bind pose standing),
 * one box per body part, far-end box corners blended 70/30 with the child
 * joint, and a 1-second walk cycle with uneven key times. */
typedef struct part {
    const char *name, *parent;
    float t[3], end[3], w;
    int blend;   /* joint index blended into the far corners, or -1 */
    int skin;    /* 1: skin texture / colour, 0: cloth */
} part;

static const part parts[15] = {
    {"hips", "", {0, 1.0f, 0}, {0, 0.25f, 0}, 0.12f, 1, 0},
    {"spine", "hips", {0, 0.25f, 0}, {0, 0.25f, 0}, 0.11f, 2, 0},
    {"chest", "spine", {0, 0.25f, 0}, {0, 0.2f, 0}, 0.13f, -1, 0},
    {"neck", "chest", {0, 0.2f, 0}, {0, 0.1f, 0}, 0.04f, 4, 1},
    {"head", "neck", {0, 0.1f, 0}, {0, 0.22f, 0}, 0.09f, -1, 1},
    {"l_upper_arm", "chest", {0.18f, 0.15f, 0}, {0, -0.28f, 0}, 0.05f, 6, 0},
    {"l_forearm", "l_upper_arm", {0, -0.28f, 0}, {0, -0.26f, 0}, 0.04f, -1, 1},
    {"r_upper_arm", "chest", {-0.18f, 0.15f, 0}, {0, -0.28f, 0}, 0.05f, 8, 0},
    {"r_forearm", "r_upper_arm", {0, -0.28f, 0}, {0, -0.26f, 0}, 0.04f, -1, 1},
    {"l_thigh", "hips", {0.1f, 0, 0}, {0, -0.45f, 0}, 0.07f, 10, 0},
    {"l_shin", "l_thigh", {0, -0.45f, 0}, {0, -0.45f, 0}, 0.055f, 11, 0},
    {"l_foot", "l_shin", {0, -0.45f, 0}, {0, -0.05f, 0.16f}, 0.045f, -1, 0},
    {"r_thigh", "hips", {-0.1f, 0, 0}, {0, -0.45f, 0}, 0.07f, 13, 0},
    {"r_shin", "r_thigh", {0, -0.45f, 0}, {0, -0.45f, 0}, 0.055f, 14, 0},
    {"r_foot", "r_shin", {0, -0.45f, 0}, {0, -0.05f, 0.16f}, 0.045f, -1, 0},
};

static void figure_skel(rrb_emi_skel *s)
{
    uint32_t i;
    s->njoints = 15;
    s->joints = rrb_xcalloc(15, sizeof *s->joints);
    for (i = 0; i < 15; i++) {
        rrb_emi_skel earlier;
        set_joint(&s->joints[i], parts[i].name, parts[i].parent, parts[i].t[0], parts[i].t[1],
                  parts[i].t[2]);
        earlier.njoints = i;   /* parents are looked up among earlier joints only */
        earlier.joints = s->joints;
        s->joints[i].parent = parts[i].parent[0] ? rrb_emi_find_joint(&earlier, parts[i].parent)
                                                 : -1;
    }
}

static void figure_box(rrb_emi_mesh *m, const float *origin, uint32_t j)
{
    static const uint8_t quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                        {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    const part *p = &parts[j];
    rrb_emi_group *g = &m->groups[p->skin];
    uint32_t c, k, base = m->nverts;
    for (c = 0; c < 8; c++) {
        float *v = m->pos + 3 * (base + c), *n = m->nrm + 3 * (base + c), far = 0, len = 0;
        for (k = 0; k < 3; k++) {
            float a = origin[k], b = origin[k] + p->end[k];
            v[k] = ((c >> k) & 1) ? (a > b ? a : b) + p->w : (a < b ? a : b) - p->w;
            n[k] = ((c >> k) & 1) ? 1.0f : -1.0f;
            far += (v[k] - a) * p->end[k];
            len += p->end[k] * p->end[k];
        }
        for (k = 0; k < 3; k++)
            n[k] = n[k] / sqrtf(3.0f);
        m->uv[2 * (base + c)] = (float)(c & 1);
        m->uv[2 * (base + c) + 1] = (float)((c >> 1) & 1);
        memcpy(m->rgba + 4 * (base + c), p->skin ? "\xe6\xbe\x96\xff" : "\x3c\x5a\xc8\xff", 4);
        m->infl[m->ninfl].inc = 1;
        m->infl[m->ninfl].bone = j;
        m->infl[m->ninfl++].weight = 1;
        if (p->blend >= 0 && far > 0.5f * len) {
            m->infl[m->ninfl - 1].weight = 0.7f;
            m->infl[m->ninfl].bone = (uint32_t)p->blend;
            m->infl[m->ninfl++].weight = 0.3f;
        }
    }
    for (c = 0; c < 6; c++) {
        static const uint8_t tri[6] = {0, 1, 2, 0, 2, 3};
        for (k = 0; k < 6; k++)
            g->indices[g->nindices++] = (uint16_t)(base + quads[c][tri[k]]);
    }
    m->nverts += 8;
}

static void figure_mesh(const rrb_emi_skel *s, rrb_emi_mesh *m)
{
    float origin[15][3];
    uint32_t i, k;
    memset(m, 0, sizeof *m);
    m->name = rrb_xstrdup("figure/figure.meshb");
    m->radius = 1.0f;
    m->center[1] = 0.9f;
    m->box_a[0] = m->box_a[2] = -0.3f;
    m->box_b[0] = m->box_b[2] = 0.3f;
    m->box_b[1] = 2.11f;
    m->num_tex_sets = 1;
    m->ntex = 2;
    m->tex = rrb_xcalloc(2, sizeof *m->tex);
    m->tex[0] = rrb_xstrdup("figure/cloth.til");
    m->tex[1] = rrb_xstrdup("figure/skin.til");
    m->tex_flags = rrb_xcalloc(2, sizeof *m->tex_flags);
    m->layout = 19;
    m->pos = rrb_xcalloc(120 * 3, sizeof(float));
    m->nrm = rrb_xcalloc(120 * 3, sizeof(float));
    m->uv = rrb_xcalloc(120 * 2, sizeof(float));
    m->rgba = rrb_xcalloc(120 * 4, 1);
    m->has_groups = 1;
    m->ngroups = 2;
    m->groups = rrb_xcalloc(2, sizeof *m->groups);
    for (i = 0; i < 2; i++) {
        m->groups[i].flags = 0x0304;
        m->groups[i].has_texture = 1;
        m->groups[i].texture = i;
        m->groups[i].indices = rrb_xcalloc(15 * 36, 2);
    }
    m->has_bones = 1;
    m->nbones = 15;
    m->bones = rrb_xcalloc(15, sizeof *m->bones);
    m->infl = rrb_xcalloc(240, sizeof *m->infl);
    for (i = 0; i < 15; i++) {
        int p = s->joints[i].parent;
        m->bones[i] = rrb_xstrdup(parts[i].name);
        for (k = 0; k < 3; k++)
            origin[i][k] = (p < 0 ? 0 : origin[p][k]) + parts[i].t[k];
        figure_box(m, origin[i], i);
    }
}

static void rot_x(float q[4], double deg)
{
    double h = deg * 3.14159265358979 / 360.0;
    q[0] = (float)sin(h);
    q[1] = q[2] = 0;
    q[3] = (float)cos(h);
}

/* A rotation track about x: angle(t) = amp * sin(2 pi (t + phase)) + bias, in degrees. */
static void walk_rot(rrb_emi_track *t, const char *joint, const float *times, uint32_t n,
                     double amp, double phase, double bias, int clamp_neg)
{
    uint32_t k;
    t->joint = rrb_xstrdup(joint);
    t->op = RRB_EMI_OP_ROT;
    t->priority = 1;
    t->nkeys = n;
    t->keys = rrb_xcalloc(n, sizeof *t->keys);
    for (k = 0; k < n; k++) {
        double a = amp * sin(2 * 3.14159265358979 * ((double)times[k] + phase));
        if (clamp_neg && a < 0)
            a = 0;
        t->keys[k].time = times[k];
        rot_x(t->keys[k].v, a + bias);
    }
}

static void walk_anim(rrb_emi_anim *a)
{
    static const float even[9] = {0, 0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f, 0.875f, 1};
    static const float uneven[7] = {0, 0.1f, 0.3f, 0.5f, 0.6f, 0.8f, 1};
    static const float bob[5] = {0, 0.2f, 0.5f, 0.7f, 1};
    uint32_t k;
    rrb_emi_track *t;
    memset(a, 0, sizeof *a);
    a->name = rrb_xstrdup("walk");
    a->duration = 1;
    a->ntracks = 9;
    a->tracks = rrb_xcalloc(9, sizeof *a->tracks);
    walk_rot(&a->tracks[0], "l_thigh", even, 9, 25, 0, 0, 0);
    walk_rot(&a->tracks[1], "r_thigh", even, 9, 25, 0.5, 0, 0);
    walk_rot(&a->tracks[2], "l_shin", uneven, 7, -40, 0.5, 0, 1);
    walk_rot(&a->tracks[3], "r_shin", uneven, 7, -40, 0, 0, 1);
    walk_rot(&a->tracks[4], "l_upper_arm", even, 9, 20, 0.5, 0, 0);
    walk_rot(&a->tracks[5], "r_upper_arm", even, 9, 20, 0, 0, 0);
    walk_rot(&a->tracks[6], "L_FOREARM", bob, 5, 10, 0.5, -15, 0);  /* names are case-insensitive */
    walk_rot(&a->tracks[7], "r_forearm", bob, 5, 10, 0, -15, 0);
    t = &a->tracks[8];
    t->joint = rrb_xstrdup("hips");
    t->op = RRB_EMI_OP_POS;
    t->priority = 1;
    t->nkeys = 5;
    t->keys = rrb_xcalloc(5, sizeof *t->keys);
    for (k = 0; k < 5; k++) {   /* absolute local values: bind (0, 1, 0) plus a bob */
        t->keys[k].time = bob[k];
        t->keys[k].v[1] = (float)(1.0 + 0.03 * cos(4 * 3.14159265358979 * (double)bob[k]));
        t->keys[k].v[2] = 0.1f * bob[k];
    }
}

static int save(const char *dir, const char *name, const rrb_buf *b, char *err, size_t errcap)
{
    char path[1400];
    snprintf(path, sizeof path, "%.1023s/%.255s", dir, name);
    return rrb_save_file(path, b->data, b->size, err, errcap);
}

static int save_figure(const char *dir, const char *stem, const char *anim,
                       const rrb_emi_skel *s, const rrb_emi_mesh *m, const rrb_emi_anim *a,
                       char *err, size_t errcap)
{
    rrb_buf b = {0};
    char name[256];
    int rc;
    rrb_emi_write_skel(s, &b);
    snprintf(name, sizeof name, "%s.sklb", stem);
    rc = save(dir, name, &b, err, errcap);
    b.size = 0;
    rrb_emi_write_mesh(m, &b);
    snprintf(name, sizeof name, "%s.meshb", stem);
    rc = rc ? rc : save(dir, name, &b, err, errcap);
    b.size = 0;
    rrb_emi_write_anim(a, &b);
    snprintf(name, sizeof name, "%s.animb", anim);
    rc = rc ? rc : save(dir, name, &b, err, errcap);
    b.size = 0;
    snprintf(name, sizeof name,
             "# romroom EMI figure manifest (docs/emi.md): paths relative to this file\n"
             "skeleton %s.sklb\nmesh %s.meshb\nanim %s.animb\n", stem, stem, anim);
    rrb_buf_put(&b, name, strlen(name));
    snprintf(name, sizeof name, "%s.emi", stem);
    rc = rc ? rc : save(dir, name, &b, err, errcap);
    rrb_buf_free(&b);
    return rc;
}

static int save_bad(const char *dir, char *err, size_t errcap)
{
    static const char *const ext[4] = {"", "meshb", "sklb", "animb"};
    char sub[1024], name[128];
    rrb_buf b = {0};
    unsigned i;
    int rc = 0, kind, warn;
    size_t off;
    snprintf(sub, sizeof sub, "%s/emi_bad", dir);
    mkdir(sub, 0777);
    for (i = 0; i < rrb_emi_nbad && !rc; i++) {
        const char *n = rrb_emi_gen_bad(i, &b, &kind, &off, &warn);
        snprintf(name, sizeof name, "%s.%s", n, ext[kind]);
        rc = save(sub, name, &b, err, errcap);
    }
    rrb_buf_free(&b);
    return rc;
}

int rrb_emi_sample(const char *dir, char *err, size_t errcap)
{
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    rrb_emi_gen_params p;
    uint32_t seed;
    int rc;
    figure_skel(&s);
    figure_mesh(&s, &m);
    walk_anim(&a);
    rc = save_figure(dir, "figure", "walk", &s, &m, &a, err, errcap);
    rrb_emi_skel_free(&s);
    rrb_emi_mesh_free(&m);
    rrb_emi_anim_free(&a);
    rrb_emi_gen_defaults(&p);
    p.max_joints = 24;
    p.max_verts = 64;
    for (seed = 1; seed <= 2 && !rc; seed++) {
        char stem[32];
        snprintf(stem, sizeof stem, "emi_gen%u", seed);
        rrb_emi_gen_figure(seed, &p, &s, &m, &a);
        rc = save_figure(dir, stem, stem, &s, &m, &a, err, errcap);
        rrb_emi_skel_free(&s);
        rrb_emi_mesh_free(&m);
        rrb_emi_anim_free(&a);
    }
    return rc ? rc : save_bad(dir, err, errcap);
}

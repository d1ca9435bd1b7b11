/* rrb_emi.c - readers of Escape from Monkey Island .sklb, .meshb and .animb
 * (NOTES.md §4, as ScummVM reads them) and the info / verify / dump hooks of
 * the "emi" rrb_format.
 *
 * Every read goes through rrb_cur. Counts are checked against the bytes left
 * (rrb_check_count) before anything is allocated. Errors stop the read;
 * normalizations the game would also accept are warnings (rrb_emi_warns).
 */
#include "rrb_emi.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

size_t rrb_emi_last_err_off;

void rrb_emi_warn(rrb_emi_warns *w, size_t off, const char *fmt, ...)
{
    va_list ap;
    char msg[160];
    if (!w)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (w->count < RRB_EMI_WARN_KEEP) {
        w->off[w->count] = off;
        memcpy(w->msg[w->count], msg, sizeof msg);
    }
    w->count++;
    if (w->out)
        fprintf(w->out, "%s:0x%zx: warning: %s\n", w->path ? w->path : "<memory>", off, msg);
}

static int finish(rrb_cur *c, char *err, size_t errcap)
{
    if (!c->failed)
        return 0;
    rrb_emi_last_err_off = c->err_off;
    snprintf(err, errcap, "%s", c->err);
    return -1;
}

static void trailing(rrb_cur *c, rrb_emi_warns *w)
{
    if (!c->failed && rrb_left(c))
        rrb_emi_warn(w, c->pos, "%zu bytes after the end of the data ignored", rrb_left(c));
}

/* Normalize a quaternion read at off: zero -> error, non-unit -> warning. */
static void read_quat(rrb_cur *c, float q[4], rrb_emi_warns *w, const char *what)
{
    size_t at = c->pos;
    double n;
    int i;
    for (i = 0; i < 4; i++)
        q[i] = rrb_f32(c, what);
    if (c->failed)
        return;
    n = sqrt((double)q[0] * (double)q[0] + (double)q[1] * (double)q[1] + (double)q[2] * (double)q[2] +
             (double)q[3] * (double)q[3]);
    if (n < RRB_EMI_QUAT_MIN) {
        rrb_fail(c, at, "expected a non-zero quaternion for %s, found length %g", what, n);
        return;
    }
    if (fabs(n - 1.0) > RRB_EMI_QUAT_TOL) {
        rrb_emi_warn(w, at, "%s has length %g, normalized", what, n);
        for (i = 0; i < 4; i++)
            q[i] = (float)((double)q[i] / n);
    }
}

/* ------------------------------------------------------------------ sklb */

void rrb_emi_skel_free(rrb_emi_skel *s)
{
    free(s->joints);
    memset(s, 0, sizeof *s);
}

int rrb_emi_find_joint(const rrb_emi_skel *s, const char *name)
{
    uint32_t i;
    for (i = 0; i < s->njoints; i++)
        if (rrb_strieq(s->joints[i].name, name))
            return (int)i;
    return -1;
}

static void copy_name(char dst[33], char *src)
{
    if (src) {
        snprintf(dst, 33, "%s", src);
        free(src);
    } else {
        dst[0] = 0;
    }
}

static void read_joint(rrb_cur *c, rrb_emi_skel *s, uint32_t i, rrb_emi_warns *w)
{
    rrb_emi_joint *j = &s->joints[i];
    size_t at = c->pos;
    int k;
    if (rrb_need(c, 92, "92-byte joint record"))
        return;
    copy_name(j->name, rrb_str_fixed(c, 32, "joint name"));
    copy_name(j->parent_name, rrb_str_fixed(c, 32, "parent name"));
    for (k = 0; k < 3; k++)
        j->t[k] = rrb_f32(c, "joint translation");
    read_quat(c, j->q, w, "joint rotation");
    if (c->failed)
        return;
    if (!j->name[0]) {
        rrb_fail(c, at, "expected a joint name, found an empty name (joint %u)", i);
        return;
    }
    for (k = 0; k < (int)i; k++)
        if (rrb_strieq(s->joints[k].name, j->name)) {
            rrb_fail(c, at, "expected a unique joint name, found \"%s\" again (joints %d and %u)",
                     j->name, k, i);
            return;
        }
    j->parent = -1;
    for (k = 0; k < (int)i && j->parent_name[0]; k++)
        if (rrb_strieq(s->joints[k].name, j->parent_name)) {
            j->parent = k;
            break;
        }
    if (j->parent < 0 && j->parent_name[0])
        rrb_emi_warn(w, at + 32,
                     "parent \"%s\" of joint %u \"%s\" is not an earlier joint: made a root "
                     "(as the game does)", j->parent_name, i, j->name);
}

int rrb_emi_read_skel(const uint8_t *d, size_t n, const char *path, rrb_emi_skel *out,
                      rrb_emi_warns *w, char *err, size_t errcap)
{
    rrb_cur c;
    uint32_t i, nj;
    memset(out, 0, sizeof *out);
    rrb_cur_init(&c, d, n, path);
    nj = rrb_u32(&c, "joint count");
    if (rrb_check_count(&c, 0, nj, 92, "joints") == 0 && (nj == 0 || nj > RRB_EMI_MAX_JOINTS))
        rrb_fail(&c, 0, "expected 1..%d joints, found %u", RRB_EMI_MAX_JOINTS, nj);
    if (!c.failed) {
        out->njoints = nj;
        out->joints = rrb_xcalloc(nj, sizeof *out->joints);
    }
    for (i = 0; !c.failed && i < nj; i++)
        read_joint(&c, out, i, w);
    trailing(&c, w);
    if (finish(&c, err, errcap)) {
        rrb_emi_skel_free(out);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ meshb */

void rrb_emi_mesh_free(rrb_emi_mesh *m)
{
    uint32_t i;
    free(m->name);
    for (i = 0; m->tex && i < m->ntex; i++)
        free(m->tex[i]);
    free(m->tex);
    free(m->tex_flags);
    free(m->pos);
    free(m->nrm);
    free(m->uv);
    free(m->rgba);
    for (i = 0; m->groups && i < m->ngroups; i++)
        free(m->groups[i].indices);
    free(m->groups);
    for (i = 0; m->bones && i < m->nbones; i++)
        free(m->bones[i]);
    free(m->bones);
    free(m->infl);
    free(m->vert_infl);
    memset(m, 0, sizeof *m);
}

static void read_floats(rrb_cur *c, float *dst, size_t n, const char *what)
{
    size_t i;
    for (i = 0; i < n && !c->failed; i++)
        dst[i] = rrb_f32(c, what);
}

static void mesh_header(rrb_cur *c, rrb_emi_mesh *m)
{
    uint32_t i, nt;
    size_t at;
    char *s = rrb_str_u32len(c, "mesh name");
    m->name = s;
    for (; s && *s; s++)
        if (*s == '\\')
            *s = '/';
    m->radius = rrb_f32_raw(c, "radius");
    read_floats(c, m->center, 3, "center");
    read_floats(c, m->box_a, 3, "box corner");
    read_floats(c, m->box_b, 3, "box corner");
    m->num_tex_sets = rrb_u32(c, "texture set count");
    m->set_type = rrb_u32(c, "set type");
    at = c->pos;
    nt = rrb_u32(c, "texture count");
    if (rrb_check_count(c, at, nt, 8, "textures"))
        return;
    m->ntex = nt;
    m->tex = rrb_xcalloc(nt, sizeof *m->tex);
    m->tex_flags = rrb_xcalloc(nt, sizeof *m->tex_flags);
    for (i = 0; i < nt && !c->failed; i++) {
        m->tex[i] = rrb_str_u32len(c, "texture name");
        m->tex_flags[i] = rrb_u32(c, "texture flags");
    }
}

static void mesh_vertices(rrb_cur *c, rrb_emi_mesh *m)
{
    size_t at = c->pos, per;
    uint32_t nv;
    m->layout = rrb_u32(c, "vertex layout");
    if (!c->failed && m->layout != 19 && m->layout != 18 && m->layout != 3) {
        rrb_fail(c, at, "expected vertex layout 19, 18 or 3, found %u", m->layout);
        return;
    }
    per = (size_t)(12 + (m->layout != 18 ? 12 : 0) + 4 + (m->layout != 3 ? 8 : 0));
    at = c->pos;
    nv = rrb_u32(c, "vertex count");
    if (rrb_check_count(c, at, nv, per, "vertices"))
        return;
    m->nverts = nv;
    m->pos = rrb_xcalloc((size_t)nv * 3, sizeof(float));
    read_floats(c, m->pos, (size_t)nv * 3, "vertex position");
    if (m->layout != 18) {
        m->nrm = rrb_xcalloc((size_t)nv * 3, sizeof(float));
        read_floats(c, m->nrm, (size_t)nv * 3, "vertex normal");
    }
    m->rgba = rrb_xcalloc((size_t)nv * 4, 1);
    rrb_bytes(c, m->rgba, (size_t)nv * 4, "vertex colours");
    if (m->layout != 3) {
        m->uv = rrb_xcalloc((size_t)nv * 2, sizeof(float));
        read_floats(c, m->uv, (size_t)nv * 2, "vertex UV");
    }
}

static void mesh_group(rrb_cur *c, rrb_emi_mesh *m, rrb_emi_group *g)
{
    size_t at;
    uint32_t k;
    g->flags = rrb_u32(c, "face group flags");
    g->has_texture = rrb_u32(c, "face group has_texture");
    if (g->has_texture) {
        at = c->pos;
        g->texture = rrb_u32(c, "face group texture index");
        rrb_trace_index(c, at, m->ntex, "face group texture index");
        if (!c->failed && g->texture >= m->ntex) {
            rrb_fail(c, at, "expected a texture index below %u, found %u", m->ntex, g->texture);
            return;
        }
    }
    at = c->pos;
    g->nindices = rrb_u32(c, "index count");
    if (rrb_check_count(c, at, g->nindices, 2, "u16 indices"))
        return;
    if (g->nindices % 3) {
        rrb_fail(c, at, "expected an index count that is a multiple of 3, found %u",
                 g->nindices);
        return;
    }
    g->indices = rrb_xcalloc(g->nindices, 2);
    for (k = 0; k < g->nindices && !c->failed; k++) {
        at = c->pos;
        g->indices[k] = rrb_u16(c, "vertex index");
        rrb_trace_index(c, at, m->nverts, "vertex index");
        if (!c->failed && g->indices[k] >= m->nverts)
            rrb_fail(c, at, "expected a vertex index below %u, found %u", m->nverts,
                     g->indices[k]);
    }
}

static void mesh_groups(rrb_cur *c, rrb_emi_mesh *m)
{
    size_t at = c->pos;
    uint32_t ng, i;
    if (c->failed || rrb_left(c) == 0)
        return;   /* NOTES: the stream may end here: no faces */
    m->has_groups = 1;
    ng = rrb_u32(c, "face group count");
    if (rrb_check_count(c, at, ng, 12, "face groups"))
        return;
    m->ngroups = ng;
    m->groups = rrb_xcalloc(ng, sizeof *m->groups);
    for (i = 0; i < ng && !c->failed; i++)
        mesh_group(c, m, &m->groups[i]);
}

/* Close the influence run of vertex v: weights > 0 summing to 1 (renormalized). */
static void close_vertex(rrb_cur *c, rrb_emi_mesh *m, uint32_t v, uint32_t from, uint32_t to,
                         size_t at, rrb_emi_warns *w)
{
    double sum = 0;
    uint32_t k, j;
    for (k = from; k < to; k++)
        sum += (double)m->infl[k].weight;
    for (k = from + 1; k < to; k++)
        for (j = from; j < k; j++)
            if (m->infl[j].bone == m->infl[k].bone) {
                rrb_emi_warn(w, at + 12 * (k - from),
                             "vertex %u names bone %u twice: the bake merges the weights", v,
                             m->infl[k].bone);
                break;
            }
    if (sum <= 0) {
        rrb_fail(c, at, "expected influence weights of vertex %u summing to 1, found %g", v,
                 sum);
        return;
    }
    if (fabs(sum - 1.0) > RRB_EMI_WEIGHT_TOL) {
        rrb_emi_warn(w, at, "influence weights of vertex %u sum to %g, normalized", v, sum);
        for (k = from; k < to; k++)
            m->infl[k].weight = (float)((double)m->infl[k].weight / sum);
    }
}

static void read_infl(rrb_cur *c, rrb_emi_mesh *m, uint32_t i, rrb_emi_warns *w)
{
    rrb_emi_infl *f = &m->infl[i];
    size_t at = c->pos;
    f->inc = rrb_u32(c, "influence inc");
    if (!c->failed && (f->inc > 1 || (i == 0 && f->inc != 1))) {
        rrb_fail(c, at, "expected inc %s, found %u", i == 0 ? "1 (first influence)" : "0 or 1",
                 f->inc);
        return;
    }
    at = c->pos;
    f->bone = rrb_u32(c, "influence bone");
    rrb_trace_index(c, at, m->nbones, "influence bone");
    if (!c->failed && f->bone >= m->nbones) {
        rrb_fail(c, at, "expected a bone index below %u, found %u", m->nbones, f->bone);
        return;
    }
    at = c->pos;
    f->weight = rrb_f32(c, "influence weight");
    if (!c->failed && f->weight < 0)
        rrb_fail(c, at, "expected a non-negative weight, found %g", (double)f->weight);
    else if (!c->failed && f->weight == 0)
        rrb_emi_warn(w, at, "influence %u has weight 0 (kept; it contributes nothing)", i);
}

static void mesh_influences(rrb_cur *c, rrb_emi_mesh *m, rrb_emi_warns *w)
{
    size_t at = c->pos, vstart = 0;
    uint32_t n, i, v = 0, from = 0;
    n = rrb_u32(c, "influence count");
    if (rrb_check_count(c, at, n, 12, "influences"))
        return;
    m->ninfl = n;
    m->infl = rrb_xcalloc(n, sizeof *m->infl);
    for (i = 0; i < n && !c->failed; i++) {
        size_t here = c->pos;
        read_infl(c, m, i, w);
        if (c->failed)
            break;
        if (m->infl[i].inc == 1) {
            if (i > 0)
                close_vertex(c, m, v - 1, from, i, vstart, w);
            if (!c->failed && v >= m->nverts)
                rrb_fail(c, here, "expected influences for %u vertices, found more", m->nverts);
            if (c->failed)
                break;
            m->vert_infl[v++] = i;
            from = i;
            vstart = here;
        } else if (i - from >= RRB_EMI_MAX_SRC_INFL) {
            rrb_fail(c, here, "expected at most %d influences for vertex %u, found more",
                     RRB_EMI_MAX_SRC_INFL, v - 1);
        }
    }
    if (!c->failed && n > 0)
        close_vertex(c, m, v - 1, from, n, vstart, w);
    if (!c->failed && v != m->nverts)
        rrb_fail(c, at, "expected influences for all %u vertices, found %u", m->nverts, v);
    m->vert_infl[m->nverts] = n;
}

static void mesh_bones(rrb_cur *c, rrb_emi_mesh *m, rrb_emi_warns *w)
{
    size_t at = c->pos;
    uint32_t i, nb;
    if (c->failed || rrb_left(c) == 0)
        return;
    m->has_bones = rrb_u32(c, "has_bones");
    if (m->has_bones != 1) {
        if (m->has_bones != 0)
            rrb_emi_warn(w, at, "has_bones is %u (not 1): no bone data, as in the game",
                         m->has_bones);
        return;
    }
    at = c->pos;
    nb = rrb_u32(c, "bone count");
    if (rrb_check_count(c, at, nb, 4, "bone names"))
        return;
    m->nbones = nb;
    m->bones = rrb_xcalloc(nb, sizeof *m->bones);
    for (i = 0; i < nb && !c->failed; i++)
        m->bones[i] = rrb_str_u32len(c, "bone name");
    if (!c->failed)
        mesh_influences(c, m, w);
}

int rrb_emi_read_mesh(const uint8_t *d, size_t n, const char *path, rrb_emi_mesh *out,
                      rrb_emi_warns *w, char *err, size_t errcap)
{
    rrb_cur c;
    memset(out, 0, sizeof *out);
    rrb_cur_init(&c, d, n, path);
    mesh_header(&c, out);
    if (!c.failed)
        mesh_vertices(&c, out);
    out->vert_infl = rrb_xcalloc((size_t)out->nverts + 1, sizeof *out->vert_infl);
    mesh_groups(&c, out);
    mesh_bones(&c, out, w);
    trailing(&c, w);
    if (finish(&c, err, errcap)) {
        rrb_emi_mesh_free(out);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ animb */

void rrb_emi_anim_free(rrb_emi_anim *a)
{
    uint32_t i;
    for (i = 0; a->tracks && i < a->ntracks; i++) {
        free(a->tracks[i].joint);
        free(a->tracks[i].keys);
    }
    free(a->tracks);
    free(a->name);
    memset(a, 0, sizeof *a);
}

static void read_keys(rrb_cur *c, rrb_emi_track *t, rrb_emi_warns *w)
{
    uint32_t k;
    int i;
    for (k = 0; k < t->nkeys && !c->failed; k++) {
        rrb_emi_key *key = &t->keys[k];
        size_t at;
        if (t->op == RRB_EMI_OP_POS)
            for (i = 0; i < 3; i++)
                key->v[i] = rrb_f32(c, "position key");
        else
            read_quat(c, key->v, w, "rotation key");
        at = c->pos;
        key->time = rrb_f32(c, "key time");
        if (c->failed)
            return;
        if (k > 0 && key->time < t->keys[k - 1].time)
            rrb_fail(c, at, "expected key times in order, found %g after %g (key %u)",
                     (double)key->time, (double)t->keys[k - 1].time, k);
        else if (key->time < 0)
            rrb_fail(c, at, "expected a key time >= 0, found %g", (double)key->time);
    }
}

static void read_track(rrb_cur *c, rrb_emi_track *t, rrb_emi_warns *w)
{
    size_t at;
    t->offset = c->pos;
    t->joint = rrb_str_u32len(c, "track joint name");
    at = c->pos;
    t->op = rrb_u32(c, "track operation");
    if (!c->failed && t->op != RRB_EMI_OP_POS && t->op != RRB_EMI_OP_ROT) {
        rrb_fail(c, at, "expected track operation 3 or 4, found %u", t->op);
        return;
    }
    at = c->pos;
    t->priority = rrb_u32(c, "track priority");
    if (!c->failed && t->priority >= RRB_EMI_MAX_PRIORITY) {
        rrb_fail(c, at, "expected a track priority below %d, found %u", RRB_EMI_MAX_PRIORITY,
                 t->priority);
        return;
    }
    t->unknown = rrb_u32(c, "track unknown word");
    at = c->pos;
    t->nkeys = rrb_u32(c, "key count");
    if (rrb_check_count(c, at, t->nkeys, t->op == RRB_EMI_OP_POS ? 16 : 20, "keys"))
        return;
    if (t->nkeys == 0) {
        rrb_fail(c, at, "expected at least 1 key, found 0");
        return;
    }
    t->keys = rrb_xcalloc(t->nkeys, sizeof *t->keys);
    read_keys(c, t, w);
}

int rrb_emi_read_anim(const uint8_t *d, size_t n, const char *path, rrb_emi_anim *out,
                      rrb_emi_warns *w, char *err, size_t errcap)
{
    rrb_cur c;
    size_t at;
    uint32_t i, nt;
    memset(out, 0, sizeof *out);
    rrb_cur_init(&c, d, n, path);
    out->name = rrb_str_u32len(&c, "animation name");
    at = c.pos;
    out->duration = rrb_f32(&c, "duration");
    if (!c.failed && !(out->duration > 0))
        rrb_fail(&c, at, "expected a duration > 0 seconds, found %g", (double)out->duration);
    at = c.pos;
    nt = rrb_u32(&c, "track count");
    if (rrb_check_count(&c, at, nt, 24, "tracks") == 0) {
        out->ntracks = nt;
        out->tracks = rrb_xcalloc(nt, sizeof *out->tracks);
    }
    for (i = 0; i < out->ntracks && !c.failed; i++)
        read_track(&c, &out->tracks[i], w);
    trailing(&c, w);
    if (finish(&c, err, errcap)) {
        rrb_emi_anim_free(out);
        return -1;
    }
    return 0;
}

unsigned rrb_emi_unmatched_tracks(const rrb_emi_anim *a, const rrb_emi_skel *s,
                                  rrb_emi_warns *w)
{
    unsigned n = 0;
    uint32_t i;
    for (i = 0; i < a->ntracks; i++)
        if (rrb_emi_find_joint(s, a->tracks[i].joint) < 0) {
            rrb_emi_warn(w, a->tracks[i].offset,
                         "track %u names joint \"%s\", which the skeleton lacks: ignored", i,
                         a->tracks[i].joint);
            n++;
        }
    return n;
}

/* ------------------------------------------------------------------ format hooks */

static const char *ext_of(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    const char *slash = path ? strrchr(path, '/') : NULL;
    return dot && (!slash || dot > slash) ? dot : "";
}

/* No magic: the extension decides. A truncated or damaged file of the right
 * kind (even one whose first count asks for a billion joints) reaches its
 * reader, which names the offset, instead of being called "unrecognised" or
 * taken for a manifest. */
int rrb_emi_kind(const uint8_t *d, size_t n, const char *path)
{
    const char *e = ext_of(path);
    (void)d, (void)n;
    return rrb_strieq(e, ".sklb") ? RRB_EMI_SKLB
           : rrb_strieq(e, ".meshb") ? RRB_EMI_MESHB
           : rrb_strieq(e, ".animb") ? RRB_EMI_ANIMB : 0;
}

static int is_manifest(const uint8_t *d, size_t n, const char *path)
{
    return rrb_strieq(ext_of(path), ".emi") &&
           ((n >= 1 && d[0] == '#') || (n >= 8 && memcmp(d, "skeleton", 8) == 0));
}

int rrb_emi_probe(const uint8_t *d, size_t n, const char *path)
{
    return rrb_emi_kind(d, n, path) != 0 || is_manifest(d, n, path);
}

/* Everything read from one file. */
typedef struct emi_any {
    int kind;
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    rrb_emi_warns w;
} emi_any;

static int read_any(const uint8_t *d, size_t n, const char *path, emi_any *x, FILE *warn,
                    char *err, size_t errcap)
{
    memset(x, 0, sizeof *x);
    x->w.out = warn;
    x->w.path = path;
    x->kind = rrb_emi_kind(d, n, path);
    switch (x->kind) {
    case RRB_EMI_SKLB: return rrb_emi_read_skel(d, n, path, &x->s, &x->w, err, errcap);
    case RRB_EMI_MESHB: return rrb_emi_read_mesh(d, n, path, &x->m, &x->w, err, errcap);
    case RRB_EMI_ANIMB: return rrb_emi_read_anim(d, n, path, &x->a, &x->w, err, errcap);
    default:
        snprintf(err, errcap, "%s:0x0: expected a .meshb, .sklb or .animb file, found %s",
                 path, is_manifest(d, n, path) ? "a figure manifest (bake it)" : "other data");
        return -1;
    }
}

static void free_any(emi_any *x)
{
    rrb_emi_skel_free(&x->s);
    rrb_emi_mesh_free(&x->m);
    rrb_emi_anim_free(&x->a);
}

static uint32_t mesh_faces(const rrb_emi_mesh *m)
{
    uint32_t i, f = 0;
    for (i = 0; i < m->ngroups; i++)
        f += m->groups[i].nindices / 3;
    return f;
}

static uint32_t mesh_max_infl(const rrb_emi_mesh *m)
{
    uint32_t v, best = 0;
    for (v = 0; m->ninfl && v < m->nverts; v++)
        if (m->vert_infl[v + 1] - m->vert_infl[v] > best)
            best = m->vert_infl[v + 1] - m->vert_infl[v];
    return best;
}

static void skel_stats(const rrb_emi_skel *s, uint32_t *roots, uint32_t *depth)
{
    uint32_t i, *dep = rrb_xcalloc(s->njoints + 1, sizeof *dep);
    *roots = 0;
    *depth = 0;
    for (i = 0; i < s->njoints; i++) {
        int p = s->joints[i].parent;
        dep[i] = p < 0 ? 0 : dep[p] + 1;
        *roots += p < 0;
        if (dep[i] > *depth)
            *depth = dep[i];
    }
    free(dep);
}

static void anim_stats(const rrb_emi_anim *a, uint32_t *ntr, uint32_t *nrot, uint32_t *keys)
{
    uint32_t i;
    *ntr = *nrot = *keys = 0;
    for (i = 0; i < a->ntracks; i++) {
        *ntr += a->tracks[i].op == RRB_EMI_OP_POS;
        *nrot += a->tracks[i].op == RRB_EMI_OP_ROT;
        *keys += a->tracks[i].nkeys;
    }
}

static void print_info(FILE *out, const emi_any *x, int json)
{
    uint32_t a, b, c;
    if (x->kind == RRB_EMI_SKLB) {
        skel_stats(&x->s, &a, &b);
        fprintf(out, json ? "{\"format\":\"sklb\",\"joints\":%u,\"roots\":%u,\"max_depth\":%u"
                          : "format: sklb\njoints: %u\nroots: %u\nmax depth: %u\n",
                x->s.njoints, a, b);
    } else if (x->kind == RRB_EMI_MESHB) {
        const rrb_emi_mesh *m = &x->m;
        fprintf(out, json ? "{\"format\":\"meshb\",\"vertex_layout\":%u,\"vertices\":%u,"
                            "\"faces\":%u,\"face_groups\":%u,\"textures\":%u,\"bones\":%u,"
                            "\"influences\":%u,\"max_influences_per_vertex\":%u"
                          : "format: meshb\nvertex layout: %u\nvertices: %u\nfaces: %u\n"
                            "face groups: %u\ntextures: %u\nbones: %u\ninfluences: %u\n"
                            "max influences per vertex: %u\n",
                m->layout, m->nverts, mesh_faces(m), m->ngroups, m->ntex, m->nbones, m->ninfl,
                mesh_max_infl(m));
    } else {
        anim_stats(&x->a, &a, &b, &c);
        fprintf(out, json ? "{\"format\":\"animb\",\"tracks\":%u,\"translation_tracks\":%u,"
                            "\"rotation_tracks\":%u,\"keys\":%u,\"duration\":%.9g"
                          : "format: animb\ntracks: %u\ntranslation tracks: %u\n"
                            "rotation tracks: %u\nkeys: %u\nduration: %.9g s\n",
                x->a.ntracks, a, b, c, (double)x->a.duration);
    }
    if (json) {
        const char *name = x->kind == RRB_EMI_MESHB ? x->m.name : x->a.name;
        if (x->kind != RRB_EMI_SKLB) {
            fputs(",\"name\":", out);
            rrb_json_str(out, name);
        }
        fprintf(out, ",\"warnings\":%u}\n", x->w.count);
    } else {
        if (x->kind != RRB_EMI_SKLB)
            fprintf(out, "name: %s\n", x->kind == RRB_EMI_MESHB ? x->m.name : x->a.name);
        fprintf(out, "warnings: %u\n", x->w.count);
    }
}

static int hook_info_any(const uint8_t *d, size_t n, const char *path, FILE *out, char *err,
                         size_t errcap, int json)
{
    emi_any x;
    if (read_any(d, n, path, &x, stderr, err, errcap))
        return 1;
    print_info(out, &x, json);
    free_any(&x);
    return 0;
}

int rrb_emi_info(const uint8_t *d, size_t n, const char *path, FILE *out, char *err,
                 size_t errcap)
{
    return hook_info_any(d, n, path, out, err, errcap, 0);
}

int rrb_emi_info_json(const uint8_t *d, size_t n, const char *path, FILE *out, char *err,
                      size_t errcap)
{
    return hook_info_any(d, n, path, out, err, errcap, 1);
}

int rrb_emi_verify(const uint8_t *d, size_t n, const char *path, FILE *out, char *err,
                   size_t errcap)
{
    emi_any x;
    unsigned i;
    if (read_any(d, n, path, &x, NULL, err, errcap)) {
        fprintf(out, "FAIL %s\n", err);
        return 1;
    }
    fprintf(out, "ok %s: %s read to end of file (%zu bytes)\n", path,
            x.kind == RRB_EMI_SKLB ? "sklb" : x.kind == RRB_EMI_MESHB ? "meshb" : "animb", n);
    for (i = 0; i < x.w.count && i < RRB_EMI_WARN_KEEP; i++)
        fprintf(out, "warning %s:0x%zx: %s\n", path, x.w.off[i], x.w.msg[i]);
    if (x.w.count > RRB_EMI_WARN_KEEP)
        fprintf(out, "warning %s: %u more warnings\n", path, x.w.count - RRB_EMI_WARN_KEEP);
    fprintf(out, "ok %s: %u warnings (normalized as the game would)\n", path, x.w.count);
    free_any(&x);
    return 0;
}

static void json_floats(FILE *out, const float *v, unsigned n)
{
    unsigned i;
    fputc('[', out);
    for (i = 0; i < n; i++)
        fprintf(out, "%s%.9g", i ? "," : "", (double)v[i]);
    fputc(']', out);
}

static void dump_skel(FILE *out, const rrb_emi_skel *s)
{
    uint32_t i;
    fprintf(out, "{\"format\":\"sklb\",\"joints\":[");
    for (i = 0; i < s->njoints; i++) {
        const rrb_emi_joint *j = &s->joints[i];
        fprintf(out, "%s\n{\"name\":", i ? "," : "");
        rrb_json_str(out, j->name);
        fputs(",\"parent_name\":", out);
        rrb_json_str(out, j->parent_name);
        fprintf(out, ",\"parent\":%d,\"t\":", j->parent);
        json_floats(out, j->t, 3);
        fputs(",\"q\":", out);
        json_floats(out, j->q, 4);
        fputc('}', out);
    }
    fputs("]}\n", out);
}

static void dump_mesh_vertices(FILE *out, const rrb_emi_mesh *m)
{
    uint32_t v, k;
    fputs(",\"vertices\":[", out);
    for (v = 0; v < m->nverts; v++) {
        fprintf(out, "%s\n{\"p\":", v ? "," : "");
        json_floats(out, m->pos + 3 * v, 3);
        if (m->nrm) {
            fputs(",\"n\":", out);
            json_floats(out, m->nrm + 3 * v, 3);
        }
        if (m->uv) {
            fputs(",\"uv\":", out);
            json_floats(out, m->uv + 2 * v, 2);
        }
        fprintf(out, ",\"rgba\":[%u,%u,%u,%u]", m->rgba[4 * v], m->rgba[4 * v + 1],
                m->rgba[4 * v + 2], m->rgba[4 * v + 3]);
        if (m->ninfl) {
            fputs(",\"influences\":[", out);
            for (k = m->vert_infl[v]; k < m->vert_infl[v + 1]; k++)
                fprintf(out, "%s[%u,%.9g]", k > m->vert_infl[v] ? "," : "", m->infl[k].bone,
                        (double)m->infl[k].weight);
            fputc(']', out);
        }
        fputc('}', out);
    }
    fputc(']', out);
}

static void dump_mesh(FILE *out, const rrb_emi_mesh *m)
{
    uint32_t i, k;
    fputs("{\"format\":\"meshb\",\"name\":", out);
    rrb_json_str(out, m->name);
    fprintf(out, ",\"radius\":%.9g,\"center\":", (double)m->radius);
    json_floats(out, m->center, 3);
    fprintf(out, ",\"num_tex_sets\":%u,\"set_type\":%u,\"textures\":[", m->num_tex_sets,
            m->set_type);
    for (i = 0; i < m->ntex; i++) {
        fprintf(out, "%s{\"name\":", i ? "," : "");
        rrb_json_str(out, m->tex[i]);
        fprintf(out, ",\"flags\":%u}", m->tex_flags[i]);
    }
    fprintf(out, "],\"vertex_layout\":%u", m->layout);
    dump_mesh_vertices(out, m);
    fputs(",\"face_groups\":[", out);
    for (i = 0; i < m->ngroups; i++) {
        const rrb_emi_group *g = &m->groups[i];
        fprintf(out, "%s\n{\"flags\":%u,\"texture\":%d,\"indices\":[", i ? "," : "", g->flags,
                g->has_texture ? (int)g->texture : -1);
        for (k = 0; k < g->nindices; k++)
            fprintf(out, "%s%u", k ? "," : "", g->indices[k]);
        fputs("]}", out);
    }
    fputs("],\"bones\":[", out);
    for (i = 0; i < m->nbones; i++) {
        fputs(i ? "," : "", out);
        rrb_json_str(out, m->bones[i]);
    }
    fputs("]}\n", out);
}

static void dump_anim(FILE *out, const rrb_emi_anim *a)
{
    uint32_t i, k;
    fputs("{\"format\":\"animb\",\"name\":", out);
    rrb_json_str(out, a->name);
    fprintf(out, ",\"duration\":%.9g,\"tracks\":[", (double)a->duration);
    for (i = 0; i < a->ntracks; i++) {
        const rrb_emi_track *t = &a->tracks[i];
        fprintf(out, "%s\n{\"joint\":", i ? "," : "");
        rrb_json_str(out, t->joint);
        fprintf(out, ",\"op\":\"%s\",\"priority\":%u,\"unknown\":%u,\"keys\":[",
                t->op == RRB_EMI_OP_POS ? "translation" : "rotation", t->priority, t->unknown);
        for (k = 0; k < t->nkeys; k++) {
            fprintf(out, "%s{\"time\":%.9g,\"v\":", k ? "," : "", (double)t->keys[k].time);
            json_floats(out, t->keys[k].v, t->op == RRB_EMI_OP_POS ? 3 : 4);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs("]}\n", out);
}

int rrb_emi_dump_json(const uint8_t *d, size_t n, const char *path, FILE *out, char *err,
                      size_t errcap)
{
    emi_any x;
    if (read_any(d, n, path, &x, stderr, err, errcap))
        return 1;
    if (x.kind == RRB_EMI_SKLB)
        dump_skel(out, &x.s);
    else if (x.kind == RRB_EMI_MESHB)
        dump_mesh(out, &x.m);
    else
        dump_anim(out, &x.a);
    free_any(&x);
    return 0;
}

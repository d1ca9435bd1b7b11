/* rrb_emi_bake.c - bake an EMI figure (skeleton + optional skinned mesh +
 * animations) into the sections of loader/rr_emi_blob.h.
 *
 * Input (docs/emi.md): `rrbake bake figure.emi`, a manifest naming one
 * skeleton, at most one mesh and any number of animations; or `rrbake bake
 * x.sklb`, which picks up x.meshb and x.animb beside it when they exist.
 *
 * What the bake decides:
 *   - coord_frac: the largest <= 16 keeping (mesh radius + 2 * longest joint
 *     chain) * 2^coord_frac <= RR_EMI_COORD_MAX, so the runtime never saturates;
 *   - joints keep file order (the reader already made parents come first);
 *   - influences: same joint merged, sorted by weight, more than
 *     RR_EMI_MAX_INFL merged into the largest ones (renormalized) and reported,
 *     weights rounded to Q15 so that every vertex sums to exactly
 *     RR_EMI_WEIGHT_ONE;
 *   - mesh positions: 16 bits each, vpos << vert_shift coords with the
 *     smallest vert_shift that holds every vertex; normals snorm16;
 *   - tracks: unmatched ones reported and ignored (as the game does); of
 *     several for one joint and operation the highest priority is kept (ties:
 *     first in file) and the others reported;
 *   - keys: times rounded to 1/65536 s, positions to coords, rotations to
 *     four snorm16 components (sign chosen so that w >= 0).
 */
#include "rrb_emi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/rr_emi_blob.h"


typedef struct dmat { double r[9], t[3]; } dmat;

static void quat_mat(const double q[4], double r[9])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    r[0] = 1 - 2 * (y * y + z * z), r[1] = 2 * (x * y - z * w), r[2] = 2 * (x * z + y * w);
    r[3] = 2 * (x * y + z * w), r[4] = 1 - 2 * (x * x + z * z), r[5] = 2 * (y * z - x * w);
    r[6] = 2 * (x * z - y * w), r[7] = 2 * (y * z + x * w), r[8] = 1 - 2 * (x * x + y * y);
}

static void unit_quat(const float *f, double q[4])
{
    double n = 0;
    int i;
    for (i = 0; i < 4; i++)
        n += (double)f[i] * (double)f[i];
    n = sqrt(n);
    for (i = 0; i < 4; i++)
        q[i] = n > 0 ? (double)f[i] / n : (i == 3);
}

/* Model-space bind matrices (parents come first). */
static void bind_model(const rrb_emi_skel *s, dmat *m)
{
    uint32_t i;
    int r, c, k;
    for (i = 0; i < s->njoints; i++) {
        const rrb_emi_joint *j = &s->joints[i];
        double q[4], lr[9];
        unit_quat(j->q, q);
        quat_mat(q, lr);
        if (j->parent < 0) {
            memcpy(m[i].r, lr, sizeof lr);
            for (k = 0; k < 3; k++)
                m[i].t[k] = j->t[k];
            continue;
        }
        for (r = 0; r < 3; r++) {
            const dmat *p = &m[j->parent];
            m[i].t[r] = p->t[r];
            for (c = 0; c < 3; c++) {
                m[i].r[3 * r + c] = 0;
                for (k = 0; k < 3; k++)
                    m[i].r[3 * r + c] += p->r[3 * r + k] * lr[3 * k + c];
                m[i].t[r] += p->r[3 * r + c] * (double)j->t[c];
            }
        }
    }
}

static double len3(const float *v)
{
    return sqrt((double)v[0] * (double)v[0] + (double)v[1] * (double)v[1] + (double)v[2] * (double)v[2]);
}

static int32_t qround(double v, double scale)
{
    double x = v * scale;
    return (int32_t)(x >= 0 ? floor(x + 0.5) : -floor(-x + 0.5));
}

/* Largest magnitude any stored or computed coordinate can reach, in units. */
static double figure_bound(const rrb_emi_skel *s, const rrb_emi_mesh *m,
                           const rrb_emi_anim *const *anims, unsigned nanims, const int *const *tj)
{
    double *len = rrb_xcalloc(s->njoints, sizeof *len), chain = 0, vmax = 0;
    double *acc = rrb_xcalloc(s->njoints, sizeof *acc);
    uint32_t i, k, a;
    for (i = 0; i < s->njoints; i++)
        len[i] = len3(s->joints[i].t);
    for (a = 0; a < nanims; a++)
        for (i = 0; i < anims[a]->ntracks; i++) {
            const rrb_emi_track *t = &anims[a]->tracks[i];
            if (t->op != RRB_EMI_OP_POS || tj[a][i] < 0)
                continue;
            for (k = 0; k < t->nkeys; k++)
                if (len3(t->keys[k].v) > len[tj[a][i]])
                    len[tj[a][i]] = len3(t->keys[k].v);
        }
    for (i = 0; i < s->njoints; i++) {
        int p = s->joints[i].parent;
        acc[i] = (p < 0 ? 0 : acc[p]) + len[i];
        chain = acc[i] > chain ? acc[i] : chain;
    }
    for (i = 0; m && i < m->nverts; i++)
        vmax = len3(m->pos + 3 * i) > vmax ? len3(m->pos + 3 * i) : vmax;
    free(len);
    free(acc);
    return vmax + 2 * chain;
}

static int pick_frac(double bound, uint32_t *frac, char *err, size_t errcap)
{
    int f = 16;
    while (f >= 0 && bound * ldexp(1.0, f) > (double)RR_EMI_COORD_MAX)
        f--;
    if (f < 0) {
        snprintf(err, errcap, "figure spans %g units: at most %ld fit the baked coordinates",
                 bound, (long)RR_EMI_COORD_MAX);
        return -1;
    }
    *frac = (uint32_t)f;
    return 0;
}

/* ------------------------------------------------------------------ joints */

static int bake_joints(const rrb_emi_skel *s, rrb_blob *b, double scale, uint32_t *depth_out,
                       char *err, size_t errcap)
{
    rr_emi_joint *out = rrb_xcalloc(s->njoints, sizeof *out);
    dmat *m = rrb_xcalloc(s->njoints, sizeof *m);
    uint32_t i, maxd = 0;
    int k, c;
    bind_model(s, m);
    for (i = 0; i < s->njoints; i++) {
        const rrb_emi_joint *j = &s->joints[i];
        double q[4];
        out[i].name = rrb_blob_string(b, j->name);
        out[i].parent = (int16_t)j->parent;
        out[i].depth = (uint16_t)(j->parent < 0 ? 0 : out[j->parent].depth + 1);
        maxd = out[i].depth > maxd ? out[i].depth : maxd;
        unit_quat(j->q, q);
        for (k = 0; k < 4; k++)
            out[i].bind_q[k] = qround(q[k], (double)RR_EMI_Q30_ONE);
        for (k = 0; k < 3; k++) {
            double it = 0;
            out[i].bind_t[k] = qround(j->t[k], scale);
            for (c = 0; c < 3; c++) {   /* inverse: R^T and -R^T t */
                out[i].inv_r[3 * k + c] = qround(m[i].r[3 * c + k], (double)RR_EMI_Q30_ONE);
                it -= m[i].r[3 * c + k] * m[i].t[c];
            }
            out[i].inv_t[k] = qround(it, scale);
        }
    }
    free(m);
    if (maxd > RR_MAX_DEPTH) {
        free(out);
        snprintf(err, errcap, "skeleton is %u levels deep: the runtime allows %d", maxd,
                 RR_MAX_DEPTH);
        return -1;
    }
    *depth_out = maxd;
    rrb_blob_add(b, RR_SEC_EMI_JOINTS, out, s->njoints, sizeof *out, NULL);
    free(out);
    return 0;
}

/* ------------------------------------------------------------------ mesh */

typedef struct winf { uint32_t joint; double w; } winf;

static int cmp_winf(const void *a, const void *b)
{
    const winf *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return x->joint < y->joint ? -1 : x->joint > y->joint;
}

/* Influences of one vertex: merged by joint, sorted, capped, in Q15 summing to
 * exactly RR_EMI_WEIGHT_ONE. Returns the count (<= RR_EMI_MAX_INFL); *capped set when
 * more than the cap were present. */
static uint32_t vertex_influences(const rrb_emi_mesh *m, const int *bone_joint, uint32_t v,
                                  rr_emi_infl *out, int *capped)
{
    winf w[RRB_EMI_MAX_SRC_INFL];
    uint32_t n = 0, k, i;
    double sum = 0;
    int32_t total = 0;
    for (k = m->vert_infl[v]; k < m->vert_infl[v + 1]; k++) {
        uint32_t j = (uint32_t)bone_joint[m->infl[k].bone];
        for (i = 0; i < n && w[i].joint != j; i++)
            ;
        if (i == n)
            w[n].joint = j, w[n++].w = 0;
        w[i].w += (double)m->infl[k].weight;
    }
    qsort(w, n, sizeof *w, cmp_winf);
    while (n > 0 && w[n - 1].w <= 0)
        n--;   /* zero weights (reader warned) contribute nothing */
    *capped = n > RR_EMI_MAX_INFL;
    if (n > RR_EMI_MAX_INFL)
        n = RR_EMI_MAX_INFL;
    for (k = 0; k < n; k++)
        sum += w[k].w;
    for (k = 0; k < n; k++) {
        int32_t q = (int32_t)floor(w[k].w / sum * RR_EMI_WEIGHT_ONE + 0.5);
        out[k].joint = (uint16_t)w[k].joint;
        out[k].weight = (uint16_t)(q < 1 ? 1 : q);
        total += out[k].weight;
    }
    if (n)   /* the largest absorbs the rounding */
        out[0].weight = (uint16_t)(out[0].weight + RR_EMI_WEIGHT_ONE - total);
    return n;
}

static int resolve_bones(const rrb_emi_skel *s, const rrb_emi_mesh *m, int *bone_joint,
                         char *err, size_t errcap)
{
    uint32_t i;
    for (i = 0; i < m->nbones; i++) {
        bone_joint[i] = rrb_emi_find_joint(s, m->bones[i]);
        if (bone_joint[i] < 0) {
            snprintf(err, errcap, "mesh bone %u \"%s\" names no joint of the skeleton", i,
                     m->bones[i]);
            return -1;
        }
    }
    return 0;
}

static void bake_faces(const rrb_emi_mesh *m, rrb_blob *b, uint32_t *ntris)
{
    rr_emi_tri *t;
    uint32_t g, k, n = 0;
    for (g = 0; g < m->ngroups; g++)
        n += m->groups[g].nindices / 3;
    t = rrb_xcalloc(n, sizeof *t);
    n = 0;
    for (g = 0; g < m->ngroups; g++)
        for (k = 0; k + 2 < m->groups[g].nindices; k += 3, n++) {
            t[n].v[0] = m->groups[g].indices[k];
            t[n].v[1] = m->groups[g].indices[k + 1];
            t[n].v[2] = m->groups[g].indices[k + 2];
            t[n].group = (uint16_t)g;
        }
    if (n)
        rrb_blob_add(b, RR_SEC_EMI_TRIS, t, n, sizeof *t, NULL);
    *ntris = n;
    free(t);
}

static void bake_vattr(const rrb_emi_mesh *m, rrb_blob *b)
{
    rr_emi_vattr *a = rrb_xcalloc(m->nverts, sizeof *a);
    uint32_t v, k;
    for (v = 0; v < m->nverts; v++) {
        for (k = 0; k < 2 && m->uv; k++) {
            double u = (double)m->uv[2 * v + k];
            a[v].uv[k] = qround(u > 32767 ? 32767 : u < -32767 ? -32767 : u, 65536.0);
        }
        memcpy(a[v].rgba, m->rgba + 4 * v, 4);
    }
    if (m->nverts)
        rrb_blob_add(b, RR_SEC_EMI_VATTR, a, m->nverts, sizeof *a, NULL);
    free(a);
}

static int bake_mesh(const rrb_emi_skel *s, const rrb_emi_mesh *m, rrb_blob *b, double scale,
                     rr_emi_figure *fig, rrb_emi_warns *w, rrb_emi_bake_report *rep,
                     char *err, size_t errcap)
{
    int *bone_joint = rrb_xcalloc(m->nbones + 1, sizeof *bone_joint);
    rr_emi_vert *vs = rrb_xcalloc(m->nverts, sizeof *vs);
    rr_emi_infl *in = rrb_xcalloc((size_t)m->nverts * RR_EMI_MAX_INFL, sizeof *in);
    uint32_t v, k, first_capped = 0;
    int capped, rc = -1;
    if (m->nverts > 65535) {
        snprintf(err, errcap, "mesh has %u vertices: at most 65535", m->nverts);
        goto out;
    }
    if (resolve_bones(s, m, bone_joint, err, errcap))
        goto out;
    /* the smallest vert_shift that fits every position's coords in 16 bits */
    for (v = 0; v < m->nverts; v++)
        for (k = 0; k < 3; k++)
            while (fig->vert_shift < RR_EMI_VERT_SHIFT_MAX &&
                   abs(qround((double)m->pos[3 * v + k], scale / (1 << fig->vert_shift))) > 32767)
                fig->vert_shift++;
    for (v = 0; v < m->nverts; v++) {
        double nl = m->nrm ? len3(m->nrm + 3 * v) : 0;
        for (k = 0; k < 3; k++) {
            int32_t p = qround((double)m->pos[3 * v + k], scale / (1 << fig->vert_shift));
            vs[v].pos[k] = (int16_t)(p > 32767 ? 32767 : p < -32767 ? -32767 : p);
            vs[v].nrm[k] = (int16_t)(nl > 0 ? qround((double)m->nrm[3 * v + k] / nl,
                                                     RR_EMI_SNORM_ONE) : 0);
        }
        vs[v].infl_first = fig->ninfl;
        vs[v].infl_count = (uint8_t)(m->ninfl ? vertex_influences(m, bone_joint, v,
                                                                    in + fig->ninfl, &capped)
                                               : 0);
        if (m->ninfl && capped && rep->merged_vertices++ == 0)
            first_capped = v;
        vs[v].single = (int16_t)(vs[v].infl_count == 1 ? in[fig->ninfl].joint : -1);
        fig->ninfl += vs[v].infl_count;
        fig->max_infl = vs[v].infl_count > fig->max_infl ? vs[v].infl_count : fig->max_infl;
    }
    /* runs, from the last vertex back: a vertex starts a run one longer than
     * the next one's when the same joints move both (at most 255: a longer
     * run is stored as several) */
    for (v = m->nverts; v-- > 0;) {
        const rr_emi_vert *cur = &vs[v], *next = &vs[v + 1];
        int same = v + 1 < m->nverts && next->infl_count == cur->infl_count && next->run < 255;
        for (k = 0; same && k < cur->infl_count; k++)
            same = in[cur->infl_first + k].joint == in[next->infl_first + k].joint;
        vs[v].run = (uint8_t)(same ? next->run + 1 : 1);
    }
    if (rep->merged_vertices)
        rrb_emi_warn(w, 0, "%u vertices (first: %u) had more than %d influences: the largest %d "
                     "kept, the others' weight spread over them", rep->merged_vertices,
                     first_capped, RR_EMI_MAX_INFL, RR_EMI_MAX_INFL);
    fig->nverts = m->nverts;
    fig->flags |= RR_EMI_HAS_MESH | (m->nrm ? RR_EMI_HAS_NORMALS : 0u);
    fig->source_layout = m->layout;
    if (m->nverts)
        rrb_blob_add(b, RR_SEC_EMI_VERTS, vs, m->nverts, sizeof *vs, NULL);
    if (fig->ninfl)
        rrb_blob_add(b, RR_SEC_EMI_INFL, in, fig->ninfl, sizeof *in, NULL);
    bake_faces(m, b, &fig->ntris);
    bake_vattr(m, b);
    rc = 0;
out:
    free(bone_joint);
    free(vs);
    free(in);
    return rc;
}

/* ------------------------------------------------------------------ animations */

/* A rotation key: the unit quaternion, w >= 0 (q and -q are the same
 * rotation), each component snorm16. */
static void encode_rot(const float *f, int16_t out[4])
{
    double q[4];
    uint32_t c;
    unit_quat(f, q);
    for (c = 0; c < 4; c++)
        out[c] = (int16_t)qround(q[3] < 0 ? -q[c] : q[c], RR_EMI_SNORM_ONE);
}

typedef struct anim_out {
    rrb_buf anims, tracks, pkeys, rkeys;
    uint32_t ntracks, npkeys, nrkeys;
} anim_out;

static void bake_track(const rrb_emi_track *t, uint32_t joint, anim_out *o, double scale)
{
    rr_emi_track rec;
    uint32_t k;
    int c;
    rec.joint = (uint16_t)joint;
    rec.op = (uint8_t)t->op;
    rec.priority = (uint8_t)t->priority;
    rec.first_key = t->op == RRB_EMI_OP_POS ? o->npkeys : o->nrkeys;
    rec.nkeys = t->nkeys;
    rrb_buf_put(&o->tracks, &rec, sizeof rec);
    o->ntracks++;
    for (k = 0; k < t->nkeys; k++) {
        int32_t time = qround(t->keys[k].time, 65536.0);
        if (t->op == RRB_EMI_OP_POS) {
            rr_emi_pkey pk;
            pk.time = time;
            for (c = 0; c < 3; c++)
                pk.p[c] = qround(t->keys[k].v[c], scale);
            rrb_buf_put(&o->pkeys, &pk, sizeof pk);
            o->npkeys++;
        } else {
            rr_emi_rkey rk;
            rk.time = time;
            encode_rot(t->keys[k].v, rk.q);
            rrb_buf_put(&o->rkeys, &rk, sizeof rk);
            o->nrkeys++;
        }
    }
}

/* The track that wins joint j / op in a: highest priority, first in file. */
static int winner(const rrb_emi_anim *a, const int *tj, int j, uint32_t op)
{
    int best = -1;
    uint32_t i;
    for (i = 0; i < a->ntracks; i++)
        if (tj[i] == j && a->tracks[i].op == op &&
            (best < 0 || a->tracks[i].priority > a->tracks[best].priority))
            best = (int)i;
    return best;
}

static int bake_anim(const rrb_emi_skel *s, const rrb_emi_anim *a, const int *tj, rrb_blob *b,
                     anim_out *o, double scale, rrb_emi_warns *w, rrb_emi_bake_report *rep,
                     char *err, size_t errcap)
{
    rr_emi_anim rec;
    uint32_t i, op;
    if (a->duration > 32767.0f) {
        snprintf(err, errcap, "animation \"%s\" lasts %g s: at most 32767 s", a->name,
                 (double)a->duration);
        return -1;
    }
    for (i = 0; i < a->ntracks; i++)
        if (a->tracks[i].keys[a->tracks[i].nkeys - 1].time > 32767.0f) {
            snprintf(err, errcap, "animation \"%s\" track %u has a key at %g s: at most 32767 s",
                     a->name, i, (double)a->tracks[i].keys[a->tracks[i].nkeys - 1].time);
            return -1;
        }
    rec.name = rrb_blob_string(b, a->name);
    rec.duration = qround(a->duration, 65536.0);
    rec.duration = rec.duration < 1 ? 1 : rec.duration;
    rec.first_track = o->ntracks;
    for (i = 0; i < s->njoints; i++)
        for (op = RRB_EMI_OP_POS; op <= RRB_EMI_OP_ROT; op++) {
            int t = winner(a, tj, (int)i, op);
            if (t >= 0)
                bake_track(&a->tracks[t], i, o, scale);
        }
    rec.ntracks = o->ntracks - rec.first_track;
    for (i = 0; i < a->ntracks; i++)
        if (tj[i] >= 0 && winner(a, tj, tj[i], a->tracks[i].op) != (int)i) {
            rep->dropped_tracks++;
            rrb_emi_warn(w, a->tracks[i].offset, "animation \"%s\" track %u (joint \"%s\", op %u) "
                         "is hidden by a higher-priority track: not baked", a->name, i,
                         a->tracks[i].joint, a->tracks[i].op);
        }
    rrb_buf_put(&o->anims, &rec, sizeof rec);
    return 0;
}

static void add_anim_sections(rrb_blob *b, anim_out *o, unsigned nanims)
{
    if (nanims)
        rrb_blob_add(b, RR_SEC_EMI_ANIMS, o->anims.data, nanims, sizeof(rr_emi_anim), NULL);
    if (o->ntracks)
        rrb_blob_add(b, RR_SEC_EMI_TRACKS, o->tracks.data, o->ntracks, sizeof(rr_emi_track), NULL);
    if (o->npkeys)
        rrb_blob_add(b, RR_SEC_EMI_PKEYS, o->pkeys.data, o->npkeys, sizeof(rr_emi_pkey), NULL);
    if (o->nrkeys)
        rrb_blob_add(b, RR_SEC_EMI_RKEYS, o->rkeys.data, o->nrkeys, sizeof(rr_emi_rkey), NULL);
    rrb_buf_free(&o->anims);
    rrb_buf_free(&o->tracks);
    rrb_buf_free(&o->pkeys);
    rrb_buf_free(&o->rkeys);
}

/* Track -> joint index (or -1, reported) for every animation. */
static int **resolve_tracks(const rrb_emi_skel *s, const rrb_emi_anim *const *anims,
                            unsigned nanims, rrb_emi_warns *w, rrb_emi_bake_report *rep)
{
    int **tj = rrb_xcalloc(nanims + 1, sizeof *tj);
    unsigned a;
    uint32_t i;
    for (a = 0; a < nanims; a++) {
        tj[a] = rrb_xcalloc(anims[a]->ntracks + 1, sizeof **tj);
        for (i = 0; i < anims[a]->ntracks; i++)
            tj[a][i] = rrb_emi_find_joint(s, anims[a]->tracks[i].joint);
        rep->unmatched_tracks += rrb_emi_unmatched_tracks(anims[a], s, w);
    }
    return tj;
}

static void free_tj(int **tj, unsigned n)
{
    unsigned a;
    for (a = 0; a < n; a++)
        free(tj[a]);
    free(tj);
}

static int joint_count_bad(const rrb_emi_skel *s, char *err, size_t errcap)
{
    if (s->njoints > 0 && s->njoints <= RR_EMI_MAX_JOINTS)
        return 0;
    snprintf(err, errcap, "skeleton has %u joints: expected 1..%d", s->njoints,
             RR_EMI_MAX_JOINTS);
    return -1;
}

rrb_blob *rrb_emi_bake_models(const rrb_emi_skel *s, const rrb_emi_mesh *m,
                              const rrb_emi_anim *const *anims, unsigned nanims,
                              const char *name, const rrb_opts *opts, rrb_emi_warns *w,
                              rrb_emi_bake_report *rep, char *err, size_t errcap)
{
    rr_emi_figure fig;
    anim_out ao;
    rrb_blob *b = NULL;
    uint32_t frac, depth;
    unsigned a;
    int **tj;
    double scale;
    rrb_emi_bake_report unused;
    (void)opts;
    if (!rep)
        rep = &unused;
    memset(rep, 0, sizeof *rep);
    memset(&fig, 0, sizeof fig);
    memset(&ao, 0, sizeof ao);
    if (joint_count_bad(s, err, errcap))
        return NULL;
    tj = resolve_tracks(s, anims, nanims, w, rep);
    if (pick_frac(figure_bound(s, m, anims, nanims, (const int *const *)tj), &frac, err, errcap))
        goto fail;
    rep->coord_frac = frac;
    scale = ldexp(1.0, (int)frac);
    b = rrb_blob_new(RR_FMT_EMI, frac);
    fig.njoints = s->njoints;
    fig.name = rrb_blob_string(b, name);
    if (bake_joints(s, b, scale, &depth, err, errcap))
        goto fail;
    if (m && bake_mesh(s, m, b, scale, &fig, w, rep, err, errcap))
        goto fail;
    for (a = 0; a < nanims; a++)
        if (bake_anim(s, anims[a], tj[a], b, &ao, scale, w, rep, err, errcap))
            goto fail;
    fig.nanims = nanims;
    fig.ntracks = ao.ntracks;
    fig.npkeys = ao.npkeys;
    fig.nrkeys = ao.nrkeys;
    add_anim_sections(b, &ao, nanims);
    rrb_blob_add(b, RR_SEC_EMI_FIGURE, &fig, 1, sizeof fig, NULL);
    rrb_blob_set_depth(b, depth);
    rrb_blob_set_arena(b, 0);
    free_tj(tj, nanims);
    return b;
fail:
    rrb_buf_free(&ao.anims), rrb_buf_free(&ao.tracks);
    rrb_buf_free(&ao.pkeys), rrb_buf_free(&ao.rkeys);
    rrb_blob_free(b);
    free_tj(tj, nanims);
    return NULL;
}

/* ------------------------------------------------------------------ inputs */

typedef struct inputs {
    uint8_t *data[3 + 64];
    size_t size[3 + 64];
    char path[3 + 64][1024];
    int have_mesh;
    unsigned nanims;
} inputs;

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int file_exists(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* slot 0 skeleton, 1 mesh, 3.. animations */
static int add_input(inputs *in, int slot, const char *dir, const char *file, char *err,
                     size_t errcap)
{
    char *p = in->path[slot];
    size_t dl = file[0] == '/' ? 0 : strlen(dir);
    if (dl + strlen(file) >= sizeof in->path[0]) {
        snprintf(err, errcap, "%s: path too long", file);
        return -1;
    }
    memcpy(p, dir, dl);
    memcpy(p + dl, file, strlen(file) + 1);
    return rrb_load_file(p, &in->data[slot], &in->size[slot], err, errcap);
}

int rrb_emi_manifest_next(const uint8_t *d, size_t n, size_t *pos, size_t *at,
                          char key[16], char file[1024], char line[1100])
{
    while (*pos < n) {
        size_t end = *pos;
        *at = *pos;
        while (end < n && d[end] != '\n')
            end++;
        snprintf(line, 1100, "%.*s", (int)(end - *pos), (const char *)d + *pos);
        *pos = end + 1;
        if (line[0] == '#' || strspn(line, " \t\r") == strlen(line))
            continue;
        file[0] = 0;
        if (sscanf(line, "%15s %1023s", key, file) != 2 ||
            (strcmp(key, "skeleton") && strcmp(key, "mesh") && strcmp(key, "anim")))
            return -1;
        return 1;
    }
    return 0;
}

static int parse_manifest(const uint8_t *d, size_t n, const char *path, const char *dir,
                          inputs *in, char *err, size_t errcap)
{
    size_t pos = 0, at;
    char line[1100], key[16], file[1024];
    int rc;
    while ((rc = rrb_emi_manifest_next(d, n, &pos, &at, key, file, line)) != 0) {
        if (rc < 0 || (strcmp(key, "anim") == 0 && in->nanims >= 64) ||
            (strcmp(key, "skeleton") == 0 && in->data[0]) ||
            (strcmp(key, "mesh") == 0 && in->have_mesh)) {
            snprintf(err, errcap, "%s:0x%zx: expected \"skeleton FILE\", \"mesh FILE\" or "
                     "\"anim FILE\" (one skeleton, one mesh, up to 64 anims), found \"%s\"",
                     path, at, line);
            return -1;
        }
        if (add_input(in, key[0] == 's' ? 0 : key[0] == 'm' ? 1 : 3 + (int)in->nanims, dir,
                      file, err, errcap))
            return -1;
        in->have_mesh |= key[0] == 'm';
        in->nanims += key[0] == 'a';
    }
    if (!in->data[0]) {
        snprintf(err, errcap, "%s:0x%zx: expected a \"skeleton FILE\" line, found none", path, n);
        return -1;
    }
    return 0;
}

int rrb_emi_parts(const uint8_t *data, size_t size, const char *path,
                  void (*each)(void *ctx, const char *part), void *ctx)
{
    size_t dl = (size_t)(base_name(path) - path), pos = 0, at;
    char line[1100], key[16], file[1024], part[2100];
    int kind = rrb_emi_kind(data, size, path);
    if (kind == RRB_EMI_MESHB || kind == RRB_EMI_ANIMB)
        return 0;
    if (kind == RRB_EMI_SKLB) {
        size_t stem = strlen(path) - 5;   /* without ".sklb" */
        snprintf(part, sizeof part, "%.*s.meshb", (int)stem, path);
        each(ctx, part);
        snprintf(part, sizeof part, "%.*s.animb", (int)stem, path);
        each(ctx, part);
        return 1;
    }
    while (rrb_emi_manifest_next(data, size, &pos, &at, key, file, line) > 0) {
        snprintf(part, sizeof part, "%.*s%s", file[0] == '/' ? 0 : (int)dl, path, file);
        each(ctx, part);
    }
    return 1;
}

static int gather(const uint8_t *data, size_t size, const char *path, inputs *in, char *err,
                  size_t errcap)
{
    char dir[1024], stem[1024];
    size_t dl = (size_t)(base_name(path) - path);
    snprintf(dir, sizeof dir, "%.*s", (int)dl, path);
    int kind = rrb_emi_kind(data, size, path);
    if (kind == RRB_EMI_MESHB || kind == RRB_EMI_ANIMB) {
        snprintf(err, errcap, "%s:0x0: expected a .sklb or a figure manifest (.emi) to bake, "
                 "found a .%s (name it in a manifest, docs/emi.md)", path,
                 kind == RRB_EMI_MESHB ? "meshb" : "animb");
        return -1;
    }
    if (kind != RRB_EMI_SKLB)
        return parse_manifest(data, size, path, dir, in, err, errcap);
    in->data[0] = rrb_xmalloc(size + 1);
    memcpy(in->data[0], data, size);
    in->size[0] = size;
    snprintf(in->path[0], sizeof in->path[0], "%s", path);
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(path) - 5), path);
    snprintf(in->path[1], sizeof in->path[1], "%.1000s.meshb", stem);
    if (file_exists(in->path[1])) {
        if (rrb_load_file(in->path[1], &in->data[1], &in->size[1], err, errcap))
            return -1;
        in->have_mesh = 1;
    }
    snprintf(in->path[3], sizeof in->path[3], "%.1000s.animb", stem);
    if (file_exists(in->path[3])) {
        if (rrb_load_file(in->path[3], &in->data[3], &in->size[3], err, errcap))
            return -1;
        in->nanims = 1;
    }
    return 0;
}

rrb_blob *rrb_emi_bake(const uint8_t *data, size_t size, const char *path,
                       const rrb_opts *opts, char *err, size_t errcap)
{
    inputs *in = rrb_xcalloc(1, sizeof *in);
    rrb_emi_skel s = {0, 0};
    rrb_emi_mesh m;
    rrb_emi_anim an[64];
    const rrb_emi_anim *ap[64];
    rrb_emi_warns w;
    rrb_emi_bake_report rep;
    rrb_blob *b = NULL;
    unsigned i, nread = 0;
    int rc;
    memset(&m, 0, sizeof m);
    memset(&w, 0, sizeof w);
    w.out = opts && opts->quiet ? NULL : stderr;
    rc = gather(data, size, path, in, err, errcap);
    if (!rc) {
        w.path = in->path[0];
        rc = rrb_emi_read_skel(in->data[0], in->size[0], in->path[0], &s, &w, err, errcap);
    }
    if (!rc && in->have_mesh) {
        w.path = in->path[1];
        rc = rrb_emi_read_mesh(in->data[1], in->size[1], in->path[1], &m, &w, err, errcap);
    }
    for (i = 0; !rc && i < in->nanims; i++, nread++) {
        w.path = in->path[3 + i];
        rc = rrb_emi_read_anim(in->data[3 + i], in->size[3 + i], in->path[3 + i], &an[i], &w,
                               err, errcap);
        ap[i] = &an[i];
    }
    if (!rc) {
        w.path = path;
        b = rrb_emi_bake_models(&s, in->have_mesh ? &m : NULL, ap, in->nanims,
                                in->have_mesh ? m.name : base_name(in->path[0]), opts, &w, &rep,
                                err, errcap);
        if (!b) {   /* figure-level problems have no single offset: name the input */
            char tmp[RRB_ERR_MAX];
            snprintf(tmp, sizeof tmp, "%s: %s", path, err);
            snprintf(err, errcap, "%s", tmp);
        }
    }
    for (i = 0; i < nread; i++)
        rrb_emi_anim_free(&an[i]);
    rrb_emi_skel_free(&s);
    rrb_emi_mesh_free(&m);
    for (i = 0; i < 3 + 64; i++)
        free(in->data[i]);
    free(in);
    return b;
}

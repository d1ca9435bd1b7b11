/* test_emi_runtime.c - the EMI bake and the fixed-point runtime against a
 * double-precision reference of the same pipeline.
 *
 * For many generated figures (tools/rrb_emi_gen.c) and times: bake -> rr_open
 * -> sample -> model -> skinning matrices -> skin, and the same from the
 * source model in double (source floats; the only shared decisions are the
 * documented rounding of key times to 1/65536 s and the time wrap). Checks:
 * joint positions and skinned vertices within the bound stated in rr_emi.h,
 * normals within the stated angle; blend; bake reports (merged influences,
 * unmatched and hidden tracks) against counts taken from the generator's
 * model; every job's validation; corrupted blobs refused with exact codes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rr_test.h"
#include "rrb_emi.h"

static char id[160];
#define ID(...) (snprintf(id, sizeof id, __VA_ARGS__), id)

/* ------------------------------------------------------------ baking helpers */

typedef struct baked {
    uint8_t *bytes;
    size_t size;
    rr_room room;
    uint32_t arena[RR_EMI_ARENA_BYTES / 4];   /* the room's section view */
    rrb_emi_bake_report rep;
    rrb_emi_warns w;
} baked;

static int bake(const rrb_emi_skel *s, const rrb_emi_mesh *m, const rrb_emi_anim *a,
                baked *out)
{
    const rrb_emi_anim *ap[1];
    char err[RRB_ERR_MAX];
    rrb_opts opts;
    rrb_blob *b;
    memset(&opts, 0, sizeof opts);
    memset(out, 0, sizeof *out);
    ap[0] = a;
    b = rrb_emi_bake_models(s, m, ap, a ? 1u : 0u, "test", &opts, &out->w, &out->rep, err,
                            sizeof err);
    if (!b) {
        printf("bake failed: %s\n", err);
        return -1;
    }
    if (rrb_blob_finish(b, 0, &out->bytes, &out->size)) {
        rrb_blob_free(b);
        return -1;
    }
    rrb_blob_free(b);
    if (rr_open(out->bytes, (uint32_t)out->size, out->arena, sizeof out->arena, &out->room))
        return -2;
    return 0;
}

/* ------------------------------------------------------------ double reference */

typedef struct dpose { double t[3], q[4]; } dpose;
typedef struct dx { double r[9], t[3]; } dx;

static double tick(float seconds)   /* the bake's documented time rounding */
{
    return floor((double)seconds * 65536.0 + 0.5) / 65536.0;
}

static void dnorm(double *v, int n)
{
    double l = 0;
    int i;
    for (i = 0; i < n; i++)
        l += v[i] * v[i];
    l = sqrt(l);
    for (i = 0; i < n && l > 0; i++)
        v[i] /= l;
}

static void dnlerp(const double *a, const double *b, double f, double *o)
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], s = d < 0 ? -1 : 1;
    int i;
    for (i = 0; i < 4; i++)
        o[i] = a[i] + (s * b[i] - a[i]) * f;
    dnorm(o, 4);
}

static void ref_track(const rrb_emi_track *tr, double t, double *out)
{
    uint32_t i, n = tr->nkeys, c, nc = tr->op == RRB_EMI_OP_POS ? 3 : 4;
    double a[4], b[4], f;
    for (i = 0; i < n && tick(tr->keys[i].time) < t; i++)
        ;
    if (i == 0 || i == n) {
        for (c = 0; c < nc; c++)
            out[c] = tr->keys[i == 0 ? 0 : n - 1].v[c];
        if (nc == 4)
            dnorm(out, 4);
        return;
    }
    f = (t - tick(tr->keys[i - 1].time)) / (tick(tr->keys[i].time) - tick(tr->keys[i - 1].time));
    for (c = 0; c < nc; c++)
        a[c] = tr->keys[i - 1].v[c], b[c] = tr->keys[i].v[c];
    if (nc == 3) {
        for (c = 0; c < 3; c++)
            out[c] = a[c] + (b[c] - a[c]) * f;
        return;
    }
    dnorm(a, 4);
    dnorm(b, 4);
    dnlerp(a, b, f, out);
}

/* tq: time in ticks (already wrapped by the same rule as the runtime). */
static void ref_sample(const rrb_emi_skel *s, const rrb_emi_anim *a, int32_t tq, dpose *p)
{
    uint32_t i, j;
    int c;
    for (j = 0; j < s->njoints; j++) {
        for (c = 0; c < 4; c++) {
            if (c < 3)
                p[j].t[c] = s->joints[j].t[c];
            p[j].q[c] = s->joints[j].q[c];
        }
        dnorm(p[j].q, 4);
    }
    for (i = 0; a && i < a->ntracks; i++) {
        int jj = rrb_emi_find_joint(s, a->tracks[i].joint);
        if (jj >= 0)
            ref_track(&a->tracks[i], tq / 65536.0,
                      a->tracks[i].op == RRB_EMI_OP_POS ? p[jj].t : p[jj].q);
    }
}

static void qmat(const double *q, double *r)
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    r[0] = 1 - 2 * (y * y + z * z), r[1] = 2 * (x * y - z * w), r[2] = 2 * (x * z + y * w);
    r[3] = 2 * (x * y + z * w), r[4] = 1 - 2 * (x * x + z * z), r[5] = 2 * (y * z - x * w);
    r[6] = 2 * (x * z - y * w), r[7] = 2 * (y * z + x * w), r[8] = 1 - 2 * (x * x + y * y);
}

static void ref_model(const rrb_emi_skel *s, const dpose *p, dx *m)
{
    uint32_t j;
    int r, c, k;
    for (j = 0; j < s->njoints; j++) {
        double lr[9];
        int par = s->joints[j].parent;
        qmat(p[j].q, lr);
        for (r = 0; r < 3; r++) {
            m[j].t[r] = par < 0 ? p[j].t[r] : m[par].t[r];
            for (c = 0; c < 3; c++) {
                m[j].r[3 * r + c] = 0;
                for (k = 0; k < 3; k++)
                    m[j].r[3 * r + c] += (par < 0 ? (r == k) : m[par].r[3 * r + k]) * lr[3 * k + c];
                if (par >= 0)
                    m[j].t[r] += m[par].r[3 * r + c] * p[j].t[c];
            }
        }
    }
}

/* Reference skinning of vertex v: position and normal (unnormalized length in *nlen). */
static void ref_skin(const rrb_emi_skel *s, const rrb_emi_mesh *m, const dx *model,
                     const dx *bind, uint32_t v, double pos[3], double nrm[3], double *nlen)
{
    double n0[3] = {0, 0, 0};
    uint32_t k;
    int r, c;
    for (c = 0; c < 3; c++)
        pos[c] = nrm[c] = 0, n0[c] = m->nrm ? (double)m->nrm[3 * v + (uint32_t)c] : 0;
    dnorm(n0, 3);
    for (k = m->vert_infl[v]; k < m->vert_infl[v + 1]; k++) {
        int j = rrb_emi_find_joint(s, m->bones[m->infl[k].bone]);
        double w = m->infl[k].weight, loc[3], ln[3];
        for (r = 0; r < 3; r++) {   /* inverse bind: R^T (p - t) */
            loc[r] = ln[r] = 0;
            for (c = 0; c < 3; c++) {
                loc[r] += bind[j].r[3 * c + r] * ((double)m->pos[3 * v + (uint32_t)c] - bind[j].t[c]);
                ln[r] += bind[j].r[3 * c + r] * n0[c];
            }
        }
        for (r = 0; r < 3; r++) {
            double pr = model[j].t[r], nr = 0;
            for (c = 0; c < 3; c++)
                pr += model[j].r[3 * r + c] * loc[c], nr += model[j].r[3 * r + c] * ln[c];
            pos[r] += w * pr;
            nrm[r] += w * nr;
        }
    }
    *nlen = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    dnorm(nrm, 3);
}

/* ------------------------------------------------------------ accuracy */

typedef struct stats {
    double joint_err, vert_err, nrm_err, joint_ratio, vert_ratio, nrm_ratio, joint_rel, vert_rel;
    double nrm_len;   /* largest | |normal| - 1 | */
    unsigned joints, verts, nrms, figures, times;
    unsigned blended;   /* vertices with several influences checked by check_blend_rounding */
    unsigned in_runs;   /* one-influence vertices next to one of the same joint, positions only */
    uint32_t two_runs;  /* two-influence vertices in runs of two joints, positions only */
} stats;

static uint32_t depth_of(const rrb_emi_skel *s, int j)
{
    uint32_t d = 0;
    while (s->joints[j].parent >= 0)
        j = s->joints[j].parent, d++;
    return d;
}

/* D: the figure size the bounds scale with (mesh radius + 2 x longest chain). */
static double figure_size(const rrb_emi_skel *s, const rrb_emi_mesh *m, const rrb_emi_anim *a)
{
    double *len = calloc(s->njoints, sizeof *len), *acc = calloc(s->njoints, sizeof *acc);
    double chain = 0, vmax = 0;
    uint32_t i, k;
    for (i = 0; i < s->njoints; i++)
        len[i] = sqrt((double)s->joints[i].t[0] * (double)s->joints[i].t[0] +
                      (double)s->joints[i].t[1] * (double)s->joints[i].t[1] +
                      (double)s->joints[i].t[2] * (double)s->joints[i].t[2]);
    for (i = 0; a && i < a->ntracks; i++) {
        int j = rrb_emi_find_joint(s, a->tracks[i].joint);
        for (k = 0; j >= 0 && a->tracks[i].op == RRB_EMI_OP_POS && k < a->tracks[i].nkeys; k++) {
            const float *v = a->tracks[i].keys[k].v;
            double l = sqrt((double)v[0] * (double)v[0] + (double)v[1] * (double)v[1] + (double)v[2] * (double)v[2]);
            len[j] = l > len[j] ? l : len[j];
        }
    }
    for (i = 0; i < s->njoints; i++) {
        int p = s->joints[i].parent;
        acc[i] = (p < 0 ? 0 : acc[p]) + len[i];
        chain = acc[i] > chain ? acc[i] : chain;
    }
    for (i = 0; m && i < m->nverts; i++) {
        const float *v = m->pos + 3 * i;
        double l = sqrt((double)v[0] * (double)v[0] + (double)v[1] * (double)v[1] + (double)v[2] * (double)v[2]);
        vmax = l > vmax ? l : vmax;
    }
    free(len);
    free(acc);
    return vmax + 2 * chain;
}

static double pos_bound(uint32_t d, double D, uint32_t frac)
{
    return (d + 2) * 2.0 * ldexp(1.0, -(int)frac) + 2e-4 * (d + 1) * D + 6 * ldexp(1.0, -15) * D;
}

static int32_t wrap(int32_t t, int32_t dur, int loop)
{
    if (loop) {
        int32_t r = t % dur;
        return r < 0 ? r + dur : r;
    }
    return t < 0 ? 0 : t > dur ? dur : t;
}

static void check_joints(uint32_t seed, const rrb_emi_skel *s, const rr_emi_xform *fx,
                         const dx *model, double D, uint32_t frac, stats *st)
{
    uint32_t j;
    int c;
    double sc = ldexp(1.0, -(int)frac);
    for (j = 0; j < s->njoints; j++) {
        double e = 0, b = pos_bound(depth_of(s, (int)j), D, frac);
        for (c = 0; c < 3; c++)
            e = fmax(e, fabs(fx[j].t[c] * sc - model[j].t[c]));
        st->joint_err = fmax(st->joint_err, e);
        st->joint_ratio = fmax(st->joint_ratio, e / b);
        st->joint_rel = fmax(st->joint_rel, e / D);
        st->joints++;
        if (e > b)
            RT_EXPECT(ID("acc.%u.joint.%u", seed, j), e <= b);
    }
}

static void check_verts(uint32_t seed, const rrb_emi_skel *s, const rrb_emi_mesh *m,
                        const rr_vec3 *pos, const rr_vec3 *nrm, const dx *model, const dx *bind,
                        double D, uint32_t frac, stats *st)
{
    uint32_t v, k;
    double sc = ldexp(1.0, -(int)frac);
    for (v = 0; v < m->nverts; v++) {
        double rp[3], rn[3], nl, e, b, an;
        uint32_t d = 0;
        for (k = m->vert_infl[v]; k < m->vert_infl[v + 1]; k++) {
            uint32_t dj = depth_of(s, rrb_emi_find_joint(s, m->bones[m->infl[k].bone]));
            d = dj > d ? dj : d;
        }
        ref_skin(s, m, model, bind, v, rp, rn, &nl);
        e = fmax(fmax(fabs(pos[v].x * sc - rp[0]), fabs(pos[v].y * sc - rp[1])),
                 fabs(pos[v].z * sc - rp[2]));
        b = pos_bound(d, D, frac);
        st->vert_err = fmax(st->vert_err, e);
        st->vert_ratio = fmax(st->vert_ratio, e / b);
        st->vert_rel = fmax(st->vert_rel, e / D);
        st->verts++;
        if (e > b)
            RT_EXPECT(ID("acc.%u.vert.%u", seed, v), e <= b);
        if (!m->nrm || nl < 0.2)
            continue;   /* the blend nearly cancels: the direction is ill-conditioned */
        an = acos(fmin(1.0, (nrm[v].x * rn[0] + nrm[v].y * rn[1] + nrm[v].z * rn[2]) /
                                sqrt((double)nrm[v].x * (double)nrm[v].x + (double)nrm[v].y * (double)nrm[v].y +
                                     (double)nrm[v].z * (double)nrm[v].z)));
        b = 2e-4 * (d + 1) + 4e-4;
        {   /* unit length: renormalized blends, or rotated unit normals (rr_emi.h: 2^-12) */
            double len = sqrt((double)nrm[v].x * nrm[v].x + (double)nrm[v].y * nrm[v].y +
                              (double)nrm[v].z * nrm[v].z) / 65536.0;
            st->nrm_len = fmax(st->nrm_len, fabs(len - 1));
            if (!(fabs(len - 1) <= ldexp(1.0, -12)))
                RT_EXPECT(ID("acc.%u.normal_len.%u", seed, v), fabs(len - 1) <= ldexp(1.0, -12));
        }
        st->nrm_err = fmax(st->nrm_err, an);
        st->nrm_ratio = fmax(st->nrm_ratio, an / b);
        st->nrms++;
        if (!(an <= b))
            RT_EXPECT(ID("acc.%u.normal.%u", seed, v), an <= b);
    }
}

/* Run the fixed-point pipeline at tick time t and compare everything. */
/* The blend rule of docs/emi.md, exactly: a vertex with several influences
 * is the weighted sum of its influences' points, each the documented
 * one-influence transform (Q14 row . vpos shifted into coords, truncating,
 * plus the translation), rounded once to the nearest coord, half up. The
 * reference sums in plain int64 from the blob's VERTS and INFL; the runtime
 * may compute it in any form but must give these bits. Returns the number
 * of vertices with several influences it checked. */
static uint32_t check_blend_rounding(uint32_t seed, const baked *bk, const rr_emi_xform *skin,
                                     const rr_vec3 *pos)
{
    const rr_emi_vert *vs;
    const rr_emi_infl *in;
    rr_emi_info info;
    uint32_t v, k, c, nv = 0, ni = 0, checked = 0, bad = 0;
    rr_emi_get_info(&bk->room, &info);
    rr_section(&bk->room, RR_SEC_EMI_VERTS, (const void **)&vs, &nv);
    rr_section(&bk->room, RR_SEC_EMI_INFL, (const void **)&in, &ni);
    for (v = 0; v < nv; v++) {
        if (vs[v].infl_count < 2)
            continue;
        for (c = 0; c < 3; c++) {
            int64_t sum = 0, want;
            for (k = 0; k < vs[v].infl_count; k++) {
                const rr_emi_infl *f = &in[vs[v].infl_first + k];
                const int32_t *r = skin[f->joint].r + 3 * c;
                int64_t dot = (int64_t)r[0] * vs[v].pos[0] + (int64_t)r[1] * vs[v].pos[1] +
                              (int64_t)r[2] * vs[v].pos[2];
                int64_t point = (dot >> (14 - info.vert_shift)) + skin[f->joint].t[c];
                sum += (int64_t)f->weight * point;
            }
            want = (sum + (1 << 14)) >> 15;   /* floor: half up */
            bad += (int64_t)(&pos[v].x)[c] != want;
        }
        checked++;
    }
    RT_EXPECT_EQ(ID("blend_round.%u", seed), bad, 0);
    return checked;
}

/* The one-influence transform of docs/emi.md, in plain int64 from the
 * blob: (Q14 row . vpos) >> (14 - vert_shift), truncating, plus the
 * translation, for vertex v of vs moved by joint j alone. */
static int32_t one_influence(const rr_emi_vert *v, const rr_emi_xform *m, uint32_t vert_shift,
                             int c)
{
    const int32_t *r = m->r + 3 * c;
    int64_t dot = (int64_t)r[0] * v->pos[0] + (int64_t)r[1] * v->pos[1] + (int64_t)r[2] * v->pos[2];
    return (int32_t)((dot >> (14 - vert_shift)) + m->t[c]);
}

/* Positions-only skinning (the job without normals, which skins the
 * vertices of a run of one joint or of two joints two at a time): every
 * one-influence vertex equals the documented transform bit for bit, every
 * vertex equals what the job with normals gave (pos: one vertex at a time),
 * and jobs over pieces of 1..7 vertices, which start and end inside runs,
 * give the same bits as the whole job. Returns the number of one-influence
 * vertices checked whose neighbour has the same joint (those that can be
 * skinned in pairs), and adds to *two_runs the two-influence vertices in
 * runs of two or more. */
static uint32_t check_positions_only(const char *what, uint32_t seed, const rr_room *room,
                                     const rr_emi_xform *skin, const rr_vec3 *pos,
                                     uint32_t *two_runs)
{
    const rr_emi_vert *vs;
    rr_emi_info info;
    uint32_t nv = 0, v, c, first, count, in_runs = 0, bad_doc = 0, bad_same = 0, bad_piece = 0;
    rr_vec3 *all, piece[8];
    rr_emi_get_info(room, &info);
    rr_section(room, RR_SEC_EMI_VERTS, (const void **)&vs, &nv);
    all = calloc(nv + 1, sizeof *all);
    {
        rr_emi_skin_job j = {room, skin, 0, nv, all, NULL};
        RT_EXPECT_EQ(ID("%s.%u.pos_only.run", what, seed), rr_emi_skin_job_run(&j), RR_OK);
    }
    for (v = 0; v < nv; v++) {
        bad_same += memcmp(&all[v], &pos[v], sizeof all[v]) != 0;
        *two_runs += vs[v].infl_count == 2 && (vs[v].run > 1 || (v > 0 && vs[v - 1].run > 1));
        if (vs[v].infl_count != 1)
            continue;
        for (c = 0; c < 3; c++)
            bad_doc += (&all[v].x)[c] != one_influence(&vs[v], &skin[vs[v].single],
                                                       info.vert_shift, (int)c);
        in_runs += (v > 0 && vs[v - 1].single == vs[v].single) ||
                   (v + 1 < nv && vs[v + 1].single == vs[v].single);
    }
    for (first = 0; first < nv; first += 3)
        for (count = 1; count <= 7 && first + count <= nv; count++) {
            rr_emi_skin_job j = {room, skin, first, count, piece, NULL};
            piece[count] = (rr_vec3){0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a};   /* past the piece */
            RT_EXPECT_EQ(ID("%s.%u.pos_only.piece", what, seed), rr_emi_skin_job_run(&j), RR_OK);
            bad_piece += memcmp(piece, &all[first], count * sizeof *piece) != 0 ||
                         piece[count].x != 0x5a5a5a5a || piece[count].z != 0x5a5a5a5a;
        }
    RT_EXPECT_EQ(ID("%s.%u.pos_only.documented", what, seed), bad_doc, 0);
    RT_EXPECT_EQ(ID("%s.%u.pos_only.same_as_with_normals", what, seed), bad_same, 0);
    RT_EXPECT_EQ(ID("%s.%u.pos_only.pieces", what, seed), bad_piece, 0);
    free(all);
    return in_runs;
}

static void one_time(uint32_t seed, const baked *bk, const rrb_emi_skel *s, const rrb_emi_mesh *m,
                     const rrb_emi_anim *a, int32_t t, int loop, double D, const dx *bind,
                     stats *st)
{
    uint32_t nj = s->njoints, nv = m->nverts;
    rr_emi_local *loc = calloc(nj, sizeof *loc);
    rr_emi_xform *mod = calloc(nj, sizeof *mod), *skin = calloc(nj, sizeof *skin);
    rr_vec3 *pos = calloc(nv + 1, sizeof *pos), *nrm = calloc(nv + 1, sizeof *nrm);
    dpose *rp = calloc(nj, sizeof *rp);
    dx *rm = calloc(nj, sizeof *rm);
    rr_emi_sample_job sj = {&bk->room, 0, t, loop ? RR_EMI_LOOP : RR_EMI_CLAMP, loc, nj, NULL};
    rr_emi_model_job mj = {&bk->room, loc, mod, nj};
    rr_emi_skin_matrices_job kj = {&bk->room, mod, skin, nj};
    rr_emi_skin_job vj = {&bk->room, skin, 0, nv, pos, nrm};
    rr_fix dur;
    rr_emi_anim_get(&bk->room, 0, NULL, &dur);
    RT_EXPECT_EQ(ID("run.%u.sample", seed), rr_emi_sample_job_run(&sj), RR_OK);
    RT_EXPECT_EQ(ID("run.%u.model", seed), rr_emi_model_job_run(&mj), RR_OK);
    RT_EXPECT_EQ(ID("run.%u.skinmat", seed), rr_emi_skin_matrices_job_run(&kj), RR_OK);
    RT_EXPECT_EQ(ID("run.%u.skin", seed), rr_emi_skin_job_run(&vj), RR_OK);
    ref_sample(s, a, wrap(t, dur, loop), rp);
    ref_model(s, rp, rm);
    check_joints(seed, s, mod, rm, D, bk->room.coord_frac, st);
    check_verts(seed, s, m, pos, nrm, rm, bind, D, bk->room.coord_frac, st);
    st->blended += check_blend_rounding(seed, bk, skin, pos);
    st->in_runs += check_positions_only("run", seed, &bk->room, skin, pos, &st->two_runs);
    st->times++;
    free(loc), free(mod), free(skin), free(pos), free(nrm), free(rp), free(rm);
}

/* The documented snorm16 layout, decoded independently in double. */
static void rkey_decode(const rr_emi_rkey *k, double q[4])
{
    unsigned c;
    for (c = 0; c < 4; c++)
        q[c] = k->q[c] / 32767.0;
}

/* Bake step checks: positions within half a step of 2^vert_shift coords,
 * normals within half a snorm16 step per component, key times rounded to
 * 1/65536 s, rotation keys within half a snorm16 step per component (up to
 * the sign of the quaternion). */
static void bake_quant(uint32_t seed, const baked *bk, const rrb_emi_skel *s,
                       const rrb_emi_mesh *m, const rrb_emi_anim *a)
{
    const rr_emi_vert *vs;
    const rr_emi_track *tr;
    const rr_emi_pkey *pk;
    const rr_emi_rkey *rk;
    uint32_t nv = 0, nt = 0, np = 0, nr = 0, v, i, k, bad_pos = 0, bad_nrm = 0, bad_key = 0;
    double sc = ldexp(1.0, (int)bk->room.coord_frac), half_step = 0.5 / 32767 + 1e-9;
    const rr_emi_figure *fig;
    double vsc;   /* source units -> vpos */
    if (rr_section(&bk->room, RR_SEC_EMI_FIGURE, (const void **)&fig, &nv) != RR_OK)
        return;
    vsc = sc * ldexp(1.0, -(int)fig->vert_shift);
    int c;
    uint32_t want_tracks = 0;
    for (k = 0; k < a->ntracks; k++)
        want_tracks += rrb_emi_find_joint(s, a->tracks[k].joint) >= 0;
    if (rr_section(&bk->room, RR_SEC_EMI_VERTS, (const void **)&vs, &nv) != RR_OK)
        nv = 0;
    if (rr_section(&bk->room, RR_SEC_EMI_TRACKS, (const void **)&tr, &nt) != RR_OK)
        nt = 0;   /* an animation may have no track at all */
    if (rr_section(&bk->room, RR_SEC_EMI_PKEYS, (const void **)&pk, &np) != RR_OK)
        np = 0;
    if (rr_section(&bk->room, RR_SEC_EMI_RKEYS, (const void **)&rk, &nr) != RR_OK)
        nr = 0;
    RT_EXPECT_EQ(ID("bake.%u.tracks", seed), nt, want_tracks);
    RT_EXPECT_EQ(ID("bake.%u.verts", seed), nv, m->nverts);
    for (v = 0; v < nv; v++) {
        double n[3];
        for (c = 0; c < 3; c++)
            n[c] = m->nrm ? (double)m->nrm[3 * v + (uint32_t)c] : 0;
        dnorm(n, 3);
        for (c = 0; c < 3; c++) {
            bad_pos += fabs(vs[v].pos[c] - (double)m->pos[3 * v + (uint32_t)c] * vsc) > 0.5 + 1e-6;
            bad_nrm += fabs(vs[v].nrm[c] / 32767.0 - n[c]) > half_step;
        }
    }
    for (i = 0; i < nt; i++) {   /* the baked track of joint j / op is the source one */
        const rrb_emi_track *src = NULL;
        for (k = 0; k < a->ntracks; k++)
            if (rrb_emi_find_joint(s, a->tracks[k].joint) == tr[i].joint &&
                a->tracks[k].op == tr[i].op)
                src = &a->tracks[k];
        if (!src || src->nkeys != tr[i].nkeys) {
            bad_key++;
            continue;
        }
        for (k = 0; k < tr[i].nkeys; k++) {
            int32_t t = tr[i].op == 3 ? pk[tr[i].first_key + k].time : rk[tr[i].first_key + k].time;
            double q[4], src_q[4], dot = 0;
            bad_key += t != (int32_t)floor((double)src->keys[k].time * 65536.0 + 0.5);
            if (tr[i].op == 3) {
                for (c = 0; c < 3; c++)
                    bad_key += fabs(pk[tr[i].first_key + k].p[c] -
                                    (double)src->keys[k].v[c] * sc) > 0.5 + 1e-6;
                continue;
            }
            rkey_decode(&rk[tr[i].first_key + k], q);
            for (c = 0; c < 4; c++)
                src_q[c] = src->keys[k].v[c];
            dnorm(src_q, 4);
            for (c = 0; c < 4; c++)
                dot += q[c] * src_q[c];
            for (c = 0; c < 4; c++)
                bad_key += fabs(q[c] - (dot < 0 ? -src_q[c] : src_q[c])) > half_step;
        }
    }
    RT_EXPECT_EQ(ID("bake.%u.positions", seed), bad_pos, 0);
    RT_EXPECT_EQ(ID("bake.%u.normals", seed), bad_nrm, 0);
    RT_EXPECT_EQ(ID("bake.%u.keys", seed), bad_key, 0);
}

static void accuracy(uint32_t seed, const rrb_emi_gen_params *p, stats *st)
{
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    baked bk;
    dpose *bp;
    dx *bind;
    double D;
    uint64_t x = 0x9e3779b9ull * seed + 1;
    unsigned i;
    rrb_emi_gen_figure(seed, p, &s, &m, &a);
    if (bake(&s, &m, &a, &bk) != 0) {
        RT_EXPECT(ID("acc.%u.bake", seed), 0);
        return;
    }
    bake_quant(seed, &bk, &s, &m, &a);
    D = figure_size(&s, &m, &a);
    bp = calloc(s.njoints, sizeof *bp);
    bind = calloc(s.njoints, sizeof *bind);
    ref_sample(&s, NULL, 0, bp);
    ref_model(&s, bp, bind);
    for (i = 0; i < 12; i++) {
        int32_t dur = (int32_t)floor((double)a.duration * 65536.0 + 0.5), t;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        t = i == 0 ? 0 : i == 1 ? dur : (int32_t)(x % (uint64_t)(2 * dur)) - dur / 2;
        one_time(seed, &bk, &s, &m, &a, t, (int)(i & 1), D, bind, st);
    }
    st->figures++;
    free(bp), free(bind), free(bk.bytes);
    rrb_emi_skel_free(&s), rrb_emi_mesh_free(&m), rrb_emi_anim_free(&a);
}

/* ------------------------------------------------------------ blend */

static double qangle(const int32_t *q, const double *r)
{
    double d = 0, n = 0;
    int c;
    for (c = 0; c < 4; c++)
        d += q[c] / 1073741824.0 * r[c], n += (q[c] / 1073741824.0) * (q[c] / 1073741824.0);
    return 2 * acos(fmin(1.0, fabs(d) / sqrt(n)));
}

static void blend(uint32_t seed, const rrb_emi_gen_params *p, stats *st)
{
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    baked bk;
    uint32_t j, nj;
    int c;
    rrb_emi_gen_figure(seed, p, &s, &m, &a);
    if (bake(&s, &m, &a, &bk) != 0) {
        RT_EXPECT(ID("blend.%u.bake", seed), 0);
        return;
    }
    nj = s.njoints;
    {
        rr_emi_local *l1 = calloc(nj, sizeof *l1), *l2 = calloc(nj, sizeof *l2);
        dpose *r1 = calloc(nj, sizeof *r1), *r2 = calloc(nj, sizeof *r2);
        int32_t t1 = (int32_t)(seed * 7919u % 65536u), t2 = t1 + 40000, w = (int32_t)(seed * 104729u % 65537u);
        int32_t dur;
        rr_emi_sample_job j1 = {&bk.room, 0, t1, RR_EMI_LOOP, l1, nj, NULL};
        rr_emi_sample_job j2 = {&bk.room, 0, t2, RR_EMI_LOOP, l2, nj, NULL};
        rr_emi_blend_job bj = {&bk.room, l1, l2, w, l1, nj, NULL};   /* out aliases a */
        double D = figure_size(&s, &m, &a), sc = ldexp(1.0, -(int)bk.room.coord_frac);
        rr_emi_anim_get(&bk.room, 0, NULL, &dur);
        rr_emi_sample_job_run(&j1);
        rr_emi_sample_job_run(&j2);
        RT_EXPECT_EQ(ID("blend.%u.run", seed), rr_emi_blend_job_run(&bj), RR_OK);
        ref_sample(&s, &a, wrap(t1, dur, 1), r1);
        ref_sample(&s, &a, wrap(t2, dur, 1), r2);
        for (j = 0; j < nj; j++) {
            double rt[3], rq[4], e = 0, f = w / 65536.0, an;
            for (c = 0; c < 3; c++) {
                rt[c] = r1[j].t[c] + (r2[j].t[c] - r1[j].t[c]) * f;
                e = fmax(e, fabs(l1[j].t[c] * sc - rt[c]));
            }
            dnlerp(r1[j].q, r2[j].q, f, rq);
            an = qangle(l1[j].q, rq);
            if (e > pos_bound(0, D, bk.room.coord_frac) || an > 4e-4)
                RT_EXPECT(ID("blend.%u.%u", seed, j), 0);
            st->joint_ratio = fmax(st->joint_ratio, e / pos_bound(0, D, bk.room.coord_frac));
        }
        RT_EXPECT(ID("blend.%u.ok", seed), 1);
        free(l1), free(l2), free(r1), free(r2);
    }
    free(bk.bytes);
    rrb_emi_skel_free(&s), rrb_emi_mesh_free(&m), rrb_emi_anim_free(&a);
}

/* Priority layers on the walking figure: bind pose below, walk above with its
 * channel mask at full weight: driven channels are walk's, the rest stay bind. */
static void layers(const rr_room *room)
{
    static const char *const rot[8] = {"l_thigh", "r_thigh", "l_shin", "r_shin", "l_upper_arm",
                                       "r_upper_arm", "l_forearm", "r_forearm"};
    rr_emi_local bind[15], walk[15], out[15];
    uint32_t mask[RR_EMI_MASK_WORDS(15)], want[RR_EMI_MASK_WORDS(15)] = {0}, j, i;
    rr_emi_sample_job s = {room, 0, RR_FIX(0.4), RR_EMI_LOOP, walk, 15, mask};
    rr_emi_blend_job b = {room, bind, walk, RR_FIX_ONE, out, 15, mask};
    int bad = 0, c;
    for (i = 0; i < 8; i++)   /* the sample's tracks (tools/rrb_emi_gen.c walk_anim) */
        if (rr_emi_joint_find(room, rot[i], &j) == RR_OK)
            want[(2 * j + 1) / 32] |= 1u << ((2 * j + 1) % 32);
    rr_emi_joint_find(room, "hips", &j);
    want[(2 * j) / 32] |= 1u << ((2 * j) % 32);
    RT_EXPECT_EQ("layer.sample", rr_emi_sample_job_run(&s), RR_OK);
    RT_EXPECT("layer.mask", memcmp(mask, want, sizeof mask) == 0);
    rr_emi_bind_pose(room, bind, 15);
    RT_EXPECT_EQ("layer.blend", rr_emi_blend_job_run(&b), RR_OK);
    for (j = 0; j < 15; j++) {
        int dt = mask[(2 * j) / 32] >> ((2 * j) % 32) & 1;
        int dr = mask[(2 * j + 1) / 32] >> ((2 * j + 1) % 32) & 1;
        for (c = 0; c < 3; c++)
            bad += out[j].t[c] != (dt ? walk[j].t[c] : bind[j].t[c]);
        for (c = 0; c < 4; c++)
            bad += abs(out[j].q[c] - (dr ? walk[j].q[c] : bind[j].q[c])) > (dr ? 2 : 0);
    }
    RT_EXPECT_EQ("layer.channels", bad, 0);
}

/* ------------------------------------------------------------ bake policy */

static void influences(uint32_t seed)
{
    rrb_emi_gen_params p;
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    baked bk;
    const rr_emi_vert *vs;
    const rr_emi_infl *in;
    uint32_t v, k, nv = 0, ni = 0, over = 0, bad = 0;
    rrb_emi_gen_defaults(&p);
    p.max_infl = 8;
    rrb_emi_gen_figure(seed, &p, &s, &m, &a);
    for (v = 0; v < m.nverts; v++)   /* generator: distinct bones = distinct joints */
        over += m.vert_infl[v + 1] - m.vert_infl[v] > RR_EMI_MAX_INFL;
    if (bake(&s, &m, &a, &bk) != 0) {
        RT_EXPECT(ID("infl.%u.bake", seed), 0);
        return;
    }
    RT_EXPECT_EQ(ID("infl.%u.merged", seed), bk.rep.merged_vertices, over);
    RT_EXPECT(ID("infl.%u.warned", seed), (over == 0) == (bk.w.count == 0));
    rr_section(&bk.room, RR_SEC_EMI_VERTS, (const void **)&vs, &nv);
    rr_section(&bk.room, RR_SEC_EMI_INFL, (const void **)&in, &ni);
    RT_EXPECT_EQ(ID("infl.%u.nverts", seed), nv, m.nverts);
    for (v = 0; v < nv; v++) {
        int32_t sum = 0;
        uint32_t want = m.vert_infl[v + 1] - m.vert_infl[v];
        want = want > RR_EMI_MAX_INFL ? RR_EMI_MAX_INFL : want;
        bad += vs[v].infl_count != want;
        for (k = 0; k < vs[v].infl_count; k++) {
            sum += in[vs[v].infl_first + k].weight;
            if (k && in[vs[v].infl_first + k].weight > in[vs[v].infl_first + k - 1].weight + 1)
                bad++;   /* sorted by weight (the rounding fix-up may move the first by 1..n) */
        }
        bad += sum != RR_EMI_WEIGHT_ONE;
    }
    RT_EXPECT_EQ(ID("infl.%u.sorted_capped_exact", seed), bad, 0);
    free(bk.bytes);
    rrb_emi_skel_free(&s), rrb_emi_mesh_free(&m), rrb_emi_anim_free(&a);
}

static void tracks_policy(void)
{
    rrb_emi_gen_params p;
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    baked bk;
    rrb_emi_track *t, dup;
    uint32_t seed = 7, nt0, ntr;
    const void *tr;
    rrb_emi_gen_defaults(&p);
    rrb_emi_gen_figure(seed, &p, &s, &m, &a);
    nt0 = a.ntracks;
    RT_EXPECT("tracks.have", nt0 >= 2);
    /* a duplicate of track 0 with higher priority and shifted values, and one unmatched */
    a.tracks = realloc(a.tracks, (nt0 + 2) * sizeof *a.tracks);
    t = &a.tracks[0];
    dup = *t;
    dup.joint = strdup(t->joint);
    dup.priority = t->priority + 1;
    dup.keys = malloc(t->nkeys * sizeof *t->keys);
    memcpy(dup.keys, t->keys, t->nkeys * sizeof *t->keys);
    a.tracks[nt0] = dup;
    a.tracks[nt0 + 1] = a.tracks[1];
    a.tracks[nt0 + 1].joint = strdup("no_such_joint");
    a.tracks[nt0 + 1].keys = malloc(a.tracks[1].nkeys * sizeof *t->keys);
    memcpy(a.tracks[nt0 + 1].keys, a.tracks[1].keys, a.tracks[1].nkeys * sizeof *t->keys);
    a.ntracks = nt0 + 2;
    RT_EXPECT("tracks.bake", bake(&s, &m, &a, &bk) == 0);
    RT_EXPECT_EQ("tracks.unmatched", bk.rep.unmatched_tracks, 1);
    RT_EXPECT_EQ("tracks.hidden", bk.rep.dropped_tracks, 1);
    RT_EXPECT_EQ("tracks.section", rr_section(&bk.room, RR_SEC_EMI_TRACKS, &tr, &ntr), RR_OK);
    RT_EXPECT_EQ("tracks.count", ntr, nt0);
    free(bk.bytes);
    rrb_emi_skel_free(&s), rrb_emi_mesh_free(&m), rrb_emi_anim_free(&a);
}

/* ------------------------------------------------------------ job validity */

static void job_validity(const rr_room *room, const rr_room *raw)
{
    rr_emi_info info;
    rr_emi_local loc[16];
    rr_emi_xform x[16];
    rr_vec3 pos[4];
    uint32_t idx = 99;
    rr_emi_sample_job s = {room, 0, 0, RR_EMI_LOOP, loc, 16, NULL};
    rr_emi_blend_job b = {room, loc, loc, RR_FIX_HALF, loc, 16, NULL};
    rr_emi_model_job m = {room, loc, x, 16};
    rr_emi_skin_matrices_job k = {room, x, x, 16};
    rr_emi_skin_job v = {room, x, 0, 4, pos, NULL};
    RT_EXPECT_EQ("job.info", rr_emi_get_info(room, &info), RR_OK);
    RT_EXPECT_EQ("job.info.raw", rr_emi_get_info(raw, &info), RR_ERR_FORMAT);
    RT_EXPECT_EQ("job.sample.ok", rr_emi_sample_job_validate(&s), RR_OK);
    RT_EXPECT_EQ("job.sample.null", rr_emi_sample_job_validate(NULL), RR_ERR_ARG);
    s.anim = info.nanims;
    RT_EXPECT_EQ("job.sample.anim", rr_emi_sample_job_validate(&s), RR_ERR_RANGE);
    s.anim = 0, s.mode = 2;
    RT_EXPECT_EQ("job.sample.mode", rr_emi_sample_job_validate(&s), RR_ERR_RANGE);
    s.mode = 0, s.out_count = info.njoints - 1;
    RT_EXPECT_EQ("job.sample.short", rr_emi_sample_job_run(&s), RR_ERR_RANGE);
    s.out_count = 16, s.out = NULL;
    RT_EXPECT_EQ("job.sample.out", rr_emi_sample_job_run(&s), RR_ERR_ARG);
    s.out = loc, s.room = raw;
    RT_EXPECT_EQ("job.sample.raw", rr_emi_sample_job_run(&s), RR_ERR_FORMAT);
    b.weight = RR_FIX_ONE + 1;
    RT_EXPECT_EQ("job.blend.weight", rr_emi_blend_job_validate(&b), RR_ERR_RANGE);
    b.weight = -1;
    RT_EXPECT_EQ("job.blend.neg", rr_emi_blend_job_validate(&b), RR_ERR_RANGE);
    b.weight = 0, b.b = NULL;
    RT_EXPECT_EQ("job.blend.null", rr_emi_blend_job_validate(&b), RR_ERR_ARG);
    m.count = info.njoints - 1;
    RT_EXPECT_EQ("job.model.short", rr_emi_model_job_validate(&m), RR_ERR_RANGE);
    m.count = 16, m.local = NULL;
    RT_EXPECT_EQ("job.model.bind", rr_emi_model_job_run(&m), RR_OK);
    k.model = NULL;
    RT_EXPECT_EQ("job.skinmat.null", rr_emi_skin_matrices_job_validate(&k), RR_ERR_ARG);
    k.model = x;
    RT_EXPECT_EQ("job.skinmat.alias", rr_emi_skin_matrices_job_run(&k), RR_OK);
    RT_EXPECT_EQ("job.skin.ok", rr_emi_skin_job_run(&v), RR_OK);
    v.first = info.nverts - 1;
    RT_EXPECT_EQ("job.skin.range", rr_emi_skin_job_validate(&v), RR_ERR_RANGE);
    v.first = 1, v.count = 0xffffffffu;
    RT_EXPECT_EQ("job.skin.wrap", rr_emi_skin_job_validate(&v), RR_ERR_RANGE);
    {   /* garbage caller poses and matrices: meaningless results, but no overflow (UBSan) */
        static const int32_t junk[4] = {0x7fffffff, -0x7fffffff - 1, 0x40000001, -1};
        unsigned i2, c;
        for (i2 = 0; i2 < 16; i2++) {
            for (c = 0; c < 4; c++) {
                loc[i2].q[c] = junk[(i2 + c) % 4];
                if (c < 3)
                    loc[i2].t[c] = junk[(i2 * 3 + c) % 4];
            }
            for (c = 0; c < 12; c++)
                ((int32_t *)&x[i2])[c] = junk[(i2 + c * 5) % 4];
        }
        b.b = loc, b.weight = RR_FIX_HALF, m.local = loc;
        RT_EXPECT_EQ("job.junk.blend", rr_emi_blend_job_run(&b), RR_OK);
        RT_EXPECT_EQ("job.junk.model", rr_emi_model_job_run(&m), RR_OK);
        for (i2 = 0; i2 < 16; i2++)
            for (c = 0; c < 12; c++)
                ((int32_t *)&x[i2])[c] = junk[(i2 + c * 5) % 4];
        RT_EXPECT_EQ("job.junk.skinmat", rr_emi_skin_matrices_job_run(&k), RR_OK);
        for (i2 = 0; i2 < 16; i2++)
            for (c = 0; c < 12; c++)
                ((int32_t *)&x[i2])[c] = junk[(i2 + c * 7) % 4];
        v.first = 0, v.count = 4, v.nrm_out = pos;
        RT_EXPECT_EQ("job.junk.skin", rr_emi_skin_job_run(&v), RR_OK);
    }
    RT_EXPECT_EQ("job.find.case", rr_emi_joint_find(room, "L_ThIgH", &idx), RR_OK);
    RT_EXPECT_EQ("job.find.index", idx, 9);
    RT_EXPECT_EQ("job.find.none", rr_emi_joint_find(room, "l_thig", &idx), RR_ERR_NOTFOUND);
    RT_EXPECT_EQ("job.find.null", rr_emi_joint_find(room, NULL, &idx), RR_ERR_ARG);
    RT_EXPECT_EQ("job.anim.find", rr_emi_anim_find(room, "WALK", &idx), RR_OK);
    RT_EXPECT_EQ("job.anim.get", rr_emi_anim_get(room, 1, NULL, NULL), RR_ERR_RANGE);
}

/* ------------------------------------------------------------ evil blobs */


static uint8_t *section_at(uint8_t *blob, uint32_t type)
{
    uint32_t off = rt_section(blob, type, NULL, NULL);
    return off ? blob + off : NULL;
}

/* One corruption: the value val (size bytes) at byte off of section sec, the
 * code rr_open must return, and where its diagnostic must point: the
 * corrupted field itself, or (at_sec != 0) the field at_off of section
 * at_sec that the failed check judges. */
typedef struct evil {
    const char *name;
    uint32_t sec;
    size_t off;
    int size;
    int32_t val;
    rr_err want;
    uint32_t at_sec;
    size_t at_off;
} evil;

/* The first vertex with two influences gets its two weights swapped (the sum
 * still 1, the larger second): rr_open refuses it at the second weight, the
 * one the two-influence blend requires to be at most half. And with the
 * other vertices' single (the joint of a one-influence vertex, -1 else) set
 * to a joint, at that field. */
static void evil_two_weights(const baked *bk, void *arena, uint32_t arena_size)
{
    const rr_emi_vert *vs;
    const rr_emi_infl *in;
    uint32_t nv, ni, v, crc;
    rr_room r;
    rr_diag d;
    int round;
    rr_section(&bk->room, RR_SEC_EMI_VERTS, (const void **)&vs, &nv);
    rr_section(&bk->room, RR_SEC_EMI_INFL, (const void **)&in, &ni);
    for (v = 0; v < nv && vs[v].infl_count != 2; v++)
        ;
    RT_EXPECT(ID("evil.two.found"), v < nv && in[vs[v].infl_first + 1].weight < 16384);
    if (v == nv)
        return;
    for (round = 0; round < 2; round++) {
        uint8_t *b = malloc(bk->size);
        size_t at;
        memcpy(b, bk->bytes, bk->size);
        if (round == 0) {   /* swap the weights */
            rr_emi_infl *bi = (rr_emi_infl *)(b + ((const uint8_t *)in - bk->bytes)) +
                              vs[v].infl_first;
            uint16_t w = bi[0].weight;
            bi[0].weight = bi[1].weight, bi[1].weight = w;
            at = (size_t)((const uint8_t *)&bi[1].weight - b);
        } else {   /* a blended vertex with a single joint */
            rr_emi_vert *bv = (rr_emi_vert *)(b + ((const uint8_t *)vs - bk->bytes)) + v;
            bv->single = (int16_t)in[vs[v].infl_first].joint;
            at = (size_t)((const uint8_t *)&bv->single - b);
        }
        crc = rr_crc32(0, b + 24, (uint32_t)bk->size - 24);
        memcpy(b + 20, &crc, 4);
        RT_EXPECT_EQ(ID("evil.two.%d", round),
                     rr_open_diag(b, (uint32_t)bk->size, arena, arena_size, &r, &d), RR_ERR_RANGE);
        RT_EXPECT_EQ(ID("evil.two.%d.diag_offset", round), d.offset, (uint32_t)at);
        free(b);
    }
}

/* A run extended over the next vertices, each of its vertices' runs raised
 * so that the chain holds up to the last one (rr_open then judges only the
 * last vertex's step): past the end of VERTS (refused at the last vertex,
 * whose run can only be 1), onto a vertex with another influence count,
 * onto one with another joint. On the sample figure:
 * vertices 0-1 are a run of joint 0 and 2-3 one of two influences, 16-23 a
 * run of one joint and 24-25 one of another, 112-119 the last run. */
static void evil_runs(const baked *bk, void *arena, uint32_t arena_size)
{
    static const struct {
        const char *name;
        uint32_t first, last;   /* the run's vertices, their runs raised */
        rr_err want;
        uint32_t at;   /* the vertex whose run the diagnostic names */
    } cases[] = {
        /* every raised run passes the end: the last vertex is refused */
        {"run_past_end", 112, 119, RR_ERR_RANGE, 119},
        {"run_other_count", 0, 1, RR_ERR_RANGE, 1},
        {"run_other_joint", 16, 23, RR_ERR_RANGE, 23},
    };
    const rr_emi_vert *vs;
    uint32_t nv, i, k, crc;
    rr_section(&bk->room, RR_SEC_EMI_VERTS, (const void **)&vs, &nv);
    RT_EXPECT_EQ(ID("evil.runs.nverts"), nv, 120);
    if (nv != 120)
        return;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *b = malloc(bk->size);
        rr_emi_vert *bv;
        uint32_t last = cases[i].last, after = last + 1 < nv ? vs[last + 1].run : 1u; /* past the end: as if one more vertex */
        rr_room r;
        rr_diag d;
        memcpy(b, bk->bytes, bk->size);
        bv = (rr_emi_vert *)(b + ((const uint8_t *)vs - bk->bytes));
        RT_EXPECT_EQ(ID("evil.%s.last", cases[i].name), vs[last].run, 1);
        for (k = cases[i].first; k <= last; k++)
            bv[k].run = (uint8_t)(after + 1 + last - k);
        crc = rr_crc32(0, b + 24, (uint32_t)bk->size - 24);
        memcpy(b + 20, &crc, 4);
        RT_EXPECT_EQ(ID("evil.%s", cases[i].name),
                     rr_open_diag(b, (uint32_t)bk->size, arena, arena_size, &r, &d),
                     cases[i].want);
        RT_EXPECT_EQ(ID("evil.%s.diag_offset", cases[i].name), d.offset,
                     (uint32_t)((const uint8_t *)&bv[cases[i].at].run - b));
        free(b);
    }
}

static void evil_blobs(const baked *bk)
{
    static uint32_t arena[RR_EMI_ARENA_BYTES / 4];
    static const evil cases[] = {
        {"parent_self", RR_SEC_EMI_JOINTS, 84 + 4, 2, 1, RR_ERR_CYCLE, 0, 0},
        {"parent_later", RR_SEC_EMI_JOINTS, 84 + 4, 2, 5, RR_ERR_CYCLE, 0, 0},
        {"parent_neg", RR_SEC_EMI_JOINTS, 84 + 4, 2, -2, RR_ERR_INDEX, 0, 0},
        {"parent_past", RR_SEC_EMI_JOINTS, 84 + 4, 2, 15, RR_ERR_INDEX, 0, 0},
        {"depth", RR_SEC_EMI_JOINTS, 84 + 6, 2, 7, RR_ERR_DEPTH, 0, 0},
        {"joint_name", RR_SEC_EMI_JOINTS, 0, 4, 0x7fffff, RR_ERR_INDEX, 0, 0},
        {"bind_coord", RR_SEC_EMI_JOINTS, 8, 4, 0x7fffffff, RR_ERR_RANGE, 0, 0},
        {"infl_joint", RR_SEC_EMI_INFL, 0, 2, 15, RR_ERR_INDEX, 0, 0},
        /* the vertex's weights no longer sum to 1: reported at its run */
        {"infl_weight", RR_SEC_EMI_INFL, 2, 2, 30000, RR_ERR_RANGE, RR_SEC_EMI_VERTS, 12},
        {"infl_weight_over", RR_SEC_EMI_INFL, 2, 2, 32769, RR_ERR_RANGE, 0, 0},
        {"infl_weight_zero", RR_SEC_EMI_INFL, 2, 2, 0, RR_ERR_RANGE, 0, 0},
        {"infl_run", RR_SEC_EMI_VERTS, 16, 1, 5, RR_ERR_INDEX, 0, 0},
        {"infl_first", RR_SEC_EMI_VERTS, 12, 4, 1000000, RR_ERR_INDEX, 0, 0},
        /* single: vertex 0 (a hips corner) has one influence, of joint 0 */
        {"vert_single_other", RR_SEC_EMI_VERTS, 18, 2, 3, RR_ERR_RANGE, 0, 0},
        {"vert_single_none", RR_SEC_EMI_VERTS, 18, 2, -1, RR_ERR_RANGE, 0, 0},
        {"vert_single_past", RR_SEC_EMI_VERTS, 18, 2, 15, RR_ERR_RANGE, 0, 0},
        /* runs (schema 4; byte 17 of a vertex, 20 bytes each): the figure's
         * vertices 0-1 are a run of joint 0 (more in evil_runs) */
        {"run_zero", RR_SEC_EMI_VERTS, 17, 1, 0, RR_ERR_RANGE, 0, 0},
        {"run_next_not_one_less", RR_SEC_EMI_VERTS, 17, 1, 3, RR_ERR_RANGE, 0, 0},
        /* vertices 2-3 are a run of two joints (influences 2-3 and 4-5):
         * vertex 3 reads vertex 2's influences (the same joints and weights,
         * so its own checks pass): vertex 2's run no longer walks INFL in
         * step; or vertex 3's first influence names another joint */
        {"run_infl_not_following", RR_SEC_EMI_VERTS, 3 * 20 + 12, 4, 2, RR_ERR_RANGE,
         RR_SEC_EMI_VERTS, 2 * 20 + 17},
        {"run_other_blend_joint", RR_SEC_EMI_INFL, 4 * 4, 2, 14, RR_ERR_RANGE,
         RR_SEC_EMI_VERTS, 2 * 20 + 17},
        /* or vertex 3 counts one influence (its own checks come after
         * vertex 2's run) */
        {"run_other_blend_count", RR_SEC_EMI_VERTS, 3 * 20 + 16, 1, 1, RR_ERR_RANGE,
         RR_SEC_EMI_VERTS, 2 * 20 + 17},
        {"track_joint", RR_SEC_EMI_TRACKS, 0, 2, 15, RR_ERR_INDEX, 0, 0},
        {"track_op", RR_SEC_EMI_TRACKS, 2, 1, 5, RR_ERR_RANGE, 0, 0},
        {"track_op_low", RR_SEC_EMI_TRACKS, 2, 1, 2, RR_ERR_RANGE, 0, 0},
        {"track_priority", RR_SEC_EMI_TRACKS, 3, 1, 8, RR_ERR_RANGE, 0, 0},
        {"track_keys", RR_SEC_EMI_TRACKS, 4, 4, 1000000, RR_ERR_INDEX, 0, 0},
        {"track_nokeys", RR_SEC_EMI_TRACKS, 8, 4, 0, RR_ERR_INDEX, 0, 0},
        {"key_order", RR_SEC_EMI_PKEYS, 16, 4, -1, RR_ERR_RANGE, 0, 0},
        {"key_coord", RR_SEC_EMI_PKEYS, 4, 4, -0x1000001, RR_ERR_RANGE, 0, 0},
        {"rkey_order", RR_SEC_EMI_RKEYS, 12, 4, -1, RR_ERR_RANGE, 0, 0},
        {"duration", RR_SEC_EMI_ANIMS, 4, 4, 0, RR_ERR_RANGE, 0, 0},
        {"anim_tracks", RR_SEC_EMI_ANIMS, 12, 4, 100, RR_ERR_INDEX, 0, 0},
        {"fig_joints", RR_SEC_EMI_FIGURE, 0, 4, 16, RR_ERR_SECTION, 0, 0},
        {"fig_max_infl", RR_SEC_EMI_FIGURE, 28, 4, 5, RR_ERR_RANGE, 0, 0},
        {"fig_flags", RR_SEC_EMI_FIGURE, 32, 4, 4, RR_ERR_RANGE, 0, 0},
        {"fig_name", RR_SEC_EMI_FIGURE, 36, 4, 0x7fffff, RR_ERR_INDEX, 0, 0},
        {"fig_tris", RR_SEC_EMI_FIGURE, 40, 4, 0, RR_ERR_SECTION, 0, 0},
        {"fig_vert_shift", RR_SEC_EMI_FIGURE, 48, 4, RR_EMI_VERT_SHIFT_MAX + 1, RR_ERR_RANGE, 0, 0},
        {"tri_vertex", RR_SEC_EMI_TRIS, 0, 2, 120, RR_ERR_INDEX, 0, 0},
    };
    unsigned i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const evil *c = &cases[i];
        uint8_t *b = malloc(bk->size);
        uint8_t *sec, *at;
        rr_room r;
        rr_diag d;
        uint32_t crc;
        memcpy(b, bk->bytes, bk->size);
        sec = section_at(b, c->sec);
        at = c->at_sec ? section_at(b, c->at_sec) + c->at_off : sec + c->off;
        RT_EXPECT(ID("evil.%s.section", c->name), sec != NULL);
        if (!sec) {
            free(b);
            continue;
        }
        if (c->size == 1)
            sec[c->off] = (uint8_t)c->val;
        else if (c->size == 2) {
            uint16_t v = (uint16_t)c->val;
            memcpy(sec + c->off, &v, 2);
        } else
            memcpy(sec + c->off, &c->val, 4);
        crc = rr_crc32(0, b + 24, (uint32_t)bk->size - 24);
        memcpy(b + 20, &crc, 4);
        RT_EXPECT_EQ(ID("evil.%s", c->name),
                     rr_open_diag(b, (uint32_t)bk->size, arena, sizeof arena, &r, &d), c->want);
        /* the diagnostic names the field that failed its check */
        RT_EXPECT_EQ(ID("evil.%s.diag_section", c->name), d.section,
                     c->at_sec ? c->at_sec : c->sec);
        RT_EXPECT_EQ(ID("evil.%s.diag_offset", c->name), d.offset, (uint32_t)(at - b));
        free(b);
    }
    evil_two_weights(bk, arena, sizeof arena);
    evil_runs(bk, arena, sizeof arena);
}

/* Random corruption with a fixed-up checksum: rr_open refuses it, or every job
 * runs on it without reading out of bounds (ASan/UBSan watch). */
static void random_blobs(const baked *bk)
{
    static rr_emi_local loc[RR_EMI_MAX_JOINTS];
    static rr_emi_xform x[RR_EMI_MAX_JOINTS];
    static rr_vec3 pos[256], nrm[256];
    static uint32_t arena[RR_EMI_ARENA_BYTES / 4];
    uint64_t r = 0x243f6a8885a308d3ull;
    unsigned it, opened = 0, ran = 0;
    for (it = 0; it < 3000; it++) {
        uint8_t *b = malloc(bk->size);
        rr_room room;
        rr_emi_info info;
        uint32_t crc, a, f;
        memcpy(b, bk->bytes, bk->size);
        for (f = 0; f < 1 + it % 3; f++) {
            size_t at;
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            at = 48 + (size_t)((r >> 11) % (bk->size - 48));   /* leave the header alone */
            b[at] = (uint8_t)(it & 1 ? r >> 3 : b[at] ^ (1u << (r % 8)));
        }
        crc = rr_crc32(0, b + 24, (uint32_t)bk->size - 24);
        memcpy(b + 20, &crc, 4);
        if (rr_open(b, (uint32_t)bk->size, arena, sizeof arena, &room) == RR_OK &&
            rr_emi_get_info(&room, &info) == RR_OK) {
            opened++;
            for (a = 0; a < info.nanims && info.njoints <= RR_EMI_MAX_JOINTS; a++) {
                rr_emi_sample_job sj = {&room, a, (int32_t)(r % 200000) - 50000, it & 1, loc,
                                        RR_EMI_MAX_JOINTS, NULL};
                rr_emi_model_job mj = {&room, loc, x, RR_EMI_MAX_JOINTS};
                rr_emi_skin_matrices_job kj = {&room, x, x, RR_EMI_MAX_JOINTS};
                rr_emi_skin_job vj = {&room, x, 0, info.nverts < 256 ? info.nverts : 256, pos, nrm};
                rr_emi_skin_job pj = vj;   /* positions only: the run kernels */
                pj.nrm_out = NULL;
                ran += rr_emi_sample_job_run(&sj) == RR_OK && rr_emi_model_job_run(&mj) == RR_OK &&
                       rr_emi_skin_matrices_job_run(&kj) == RR_OK &&
                       rr_emi_skin_job_run(&vj) == RR_OK && rr_emi_skin_job_run(&pj) == RR_OK;
            }
        }
        free(b);
    }
    printf("# random corruption: 3000 blobs, %u opened, %u pipelines ran\n", opened, ran);
    RT_EXPECT_EQ("random.all_ran", ran, opened);   /* one animation: every open blob runs */
}

/* ------------------------------------------------------------ sample figure through the hook */

static int bake_file(const char *path, baked *out, int big)
{
    uint8_t *data;
    size_t size;
    char err[RRB_ERR_MAX];
    rrb_opts opts;
    rrb_blob *b;
    memset(out, 0, sizeof *out);
    memset(&opts, 0, sizeof opts);
    opts.quiet = 1;
    if (rrb_load_file(path, &data, &size, err, sizeof err))
        return -1;
    RT_EXPECT(ID("hook.probe.%s", path), rrb_format_emi.probe(data, size, path));
    b = rrb_format_emi.bake(data, size, path, &opts, err, sizeof err);
    free(data);
    if (!b) {
        printf("bake %s: %s\n", path, err);
        return -1;
    }
    rrb_blob_finish(b, big, &out->bytes, &out->size);
    rrb_blob_free(b);
    return big ? 0 : rr_open(out->bytes, (uint32_t)out->size, out->arena, sizeof out->arena,
                             &out->room);
}

/* The walking figure in bind pose: inside its 0.62 x 2.12 x 0.62 box, and skinning
 * with the bind pose gives back every bind vertex (within 2 units of the last place). */
static void sample_bind_pose(const rr_room *room, const rr_emi_info *info)
{
    rr_emi_xform x[15];
    rr_vec3 pos[120];
    const rr_emi_vert *vs;
    uint32_t nv = 0, v, bad_box = 0, bad_bind = 0;
    double sc = ldexp(1.0, (int)info->vert_shift - (int)info->coord_frac);   /* vpos -> units */
    int32_t step = 1 << info->vert_shift;   /* vpos -> coords */
    rr_emi_model_job m = {room, NULL, x, 15};
    rr_emi_skin_matrices_job k = {room, x, x, 15};
    rr_emi_skin_job j = {room, x, 0, 120, pos, NULL};
    RT_EXPECT_EQ("sample.bind.jobs", rr_emi_model_job_run(&m) | rr_emi_skin_matrices_job_run(&k) |
                                         rr_emi_skin_job_run(&j), RR_OK);
    rr_section(room, RR_SEC_EMI_VERTS, (const void **)&vs, &nv);
    for (v = 0; v < nv && v < 120; v++) {
        bad_box += fabs(vs[v].pos[0] * sc) > 0.31 || fabs(vs[v].pos[2] * sc) > 0.31 ||
                   vs[v].pos[1] * sc < 0 || vs[v].pos[1] * sc > 2.12;
        bad_bind += abs(pos[v].x - vs[v].pos[0] * step) > 2 ||
                    abs(pos[v].y - vs[v].pos[1] * step) > 2 || abs(pos[v].z - vs[v].pos[2] * step) > 2;
    }
    RT_EXPECT_EQ("sample.bind.box", bad_box, 0);
    RT_EXPECT_EQ("sample.bind.identity", bad_bind, 0);
}

/* The walking figure at five times of its walk: positions-only skinning
 * checked as check_positions_only says. Its 84 one-influence vertices
 * (docs/emi.md) all lie in runs of one joint, of 2 and 8 vertices, and its
 * 36 two-influence vertices in runs of two joints, of 2. */
static void sample_positions_only(const rr_room *room)
{
    rr_emi_local loc[15];
    rr_emi_xform mod[15], skin[15];
    rr_vec3 pos[120], nrm[120];
    uint32_t i, two_runs;
    for (i = 0; i < 5; i++) {
        rr_emi_sample_job sj = {room, 0, (rr_fix)(i * 19661), RR_EMI_LOOP, loc, 15, NULL};
        rr_emi_model_job mj = {room, loc, mod, 15};
        rr_emi_skin_matrices_job kj = {room, mod, skin, 15};
        rr_emi_skin_job vj = {room, skin, 0, 120, pos, nrm};
        RT_EXPECT_EQ(ID("sample.%u.pos_only.pose", i),
                     rr_emi_sample_job_run(&sj) | rr_emi_model_job_run(&mj) |
                         rr_emi_skin_matrices_job_run(&kj) | rr_emi_skin_job_run(&vj),
                     RR_OK);
        two_runs = 0;
        RT_EXPECT_EQ(ID("sample.%u.pos_only.in_runs", i),
                     check_positions_only("sample", i, room, skin, pos, &two_runs), 84);
        RT_EXPECT_EQ(ID("sample.%u.pos_only.two_runs", i), two_runs, 36);
    }
}

static void sample_figure(void)
{
    char dir[] = "/tmp/emi_sampleXXXXXX", path[256], err[RRB_ERR_MAX];
    baked bk, raw, be;
    rr_emi_info info;
    rrb_blob *rb;
    uint8_t *rbytes;
    size_t rsize;
    rr_room rawroom;
    RT_EXPECT("sample.dir", mkdtemp(dir) != NULL);
    RT_EXPECT_EQ("sample.write", rrb_emi_sample(dir, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/figure.emi", dir);
    RT_EXPECT_EQ("sample.bake", bake_file(path, &bk, 0), 0);
    RT_EXPECT_EQ("sample.info", rr_emi_get_info(&bk.room, &info), RR_OK);
    RT_EXPECT_EQ("sample.joints", info.njoints, 15);
    RT_EXPECT_EQ("sample.verts", info.nverts, 120);
    RT_EXPECT_EQ("sample.tris", info.ntris, 180);
    RT_EXPECT_EQ("sample.anims", info.nanims, 1);
    RT_EXPECT_EQ("sample.normals", info.has_normals, 1);
    RT_EXPECT_EQ("sample.max_infl", info.max_infl, 2);
    printf("# sample figure: %zu bytes baked, coord_frac %u\n", bk.size, info.coord_frac);
    sample_bind_pose(&bk.room, &info);
    sample_positions_only(&bk.room);
    /* the arena holds the section view and nothing else */
    RT_EXPECT_EQ("sample.arena", rr_arena_size(bk.bytes, (uint32_t)bk.size),
                 (int32_t)RR_EMI_ARENA_BYTES);
    RT_EXPECT_EQ("sample.arena.short",
                 rr_open(bk.bytes, (uint32_t)bk.size, raw.arena, RR_EMI_ARENA_BYTES - 4,
                         &raw.room),
                 RR_ERR_ARENA);
    snprintf(path, sizeof path, "%s/figure.emi", dir);
    RT_EXPECT_EQ("sample.bake_be", bake_file(path, &be, 1), 0);
    RT_EXPECT_EQ("sample.endian",
                 rr_open(be.bytes, (uint32_t)be.size, be.arena, sizeof be.arena, &raw.room),
                 RR_ERR_ENDIAN);
    free(be.bytes);
    snprintf(path, sizeof path, "%s/emi_gen1.sklb", dir);
    RT_EXPECT_EQ("sample.sklb_direct", bake_file(path, &raw, 0), 0);
    RT_EXPECT("sample.sklb_direct.parts", rr_emi_get_info(&raw.room, &info) == RR_OK &&
                                              info.nanims == 1 && info.nverts > 0);
    free(raw.bytes);
    rb = rrb_blob_new(RR_FMT_RAW, 0);
    rrb_blob_finish(rb, 0, &rbytes, &rsize);
    rrb_blob_free(rb);
    RT_EXPECT_EQ("sample.raw", rr_open(rbytes, (uint32_t)rsize, 0, 0, &rawroom), RR_OK);
    job_validity(&bk.room, &rawroom);
    layers(&bk.room);
    evil_blobs(&bk);
    random_blobs(&bk);
    free(rbytes);
    free(bk.bytes);
    /* the sample's files (figure, generated figures, the emi_bad corpus) are
     * only this test's: leave no directory behind in /tmp */
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    RT_EXPECT_EQ("sample.cleanup", system(path), 0);
}

static void print_stats(const stats *st)
{
    printf("# accuracy: %u figures, %u times, %u joint / %u vertex / %u normal checks\n",
           st->figures, st->times, st->joints, st->verts, st->nrms);
    printf("# max error: joint %.3g units (%.3f of bound), vertex %.3g (%.3f), normal %.3g rad "
           "(%.3f)\n", st->joint_err, st->joint_ratio, st->vert_err, st->vert_ratio,
           st->nrm_err, st->nrm_ratio);
    printf("# max error / figure size D: joint %.3g, vertex %.3g; normal length %.3g\n",
           st->joint_rel, st->vert_rel, st->nrm_len);
    printf("# blend rounding: %u blended vertex positions checked bit for bit\n", st->blended);
    printf("# positions only: %u one-influence vertices next to one of the same joint and %u "
           "two-influence vertices in runs of two joints checked bit for bit\n", st->in_runs,
           st->two_runs);
}

int main(int argc, char **argv)
{
    rrb_emi_gen_params p;
    stats st;
    uint32_t seed;
    (void)argc, (void)argv;
    memset(&st, 0, sizeof st);
    sample_figure();
    for (seed = 1; seed <= 150; seed++) {
        rrb_emi_gen_defaults(&p);
        p.max_infl = 4;
        if (seed % 10 == 0) {
            p.max_joints = 200;
            p.max_depth = 60;
            p.max_verts = 400;
        }
        if (seed % 7 == 0)
            p.scale = 150.0f;   /* large figures: coord_frac below 16 */
        accuracy(seed, &p, &st);
        if (seed <= 40)
            blend(seed, &p, &st);
    }
    for (seed = 1; seed <= 30; seed++)
        influences(seed);
    tracks_policy();
    RT_EXPECT("blend_round.some", st.blended > 1000);   /* the check above is not vacuous */
    RT_EXPECT("pos_only.runs.some", st.in_runs > 1000);   /* nor this one */
    print_stats(&st);
    return rt_done("test_emi_runtime");
}

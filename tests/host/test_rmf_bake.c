/* test_rmf_bake.c - baked RMF rooms against independent references.
 *
 *  - every corpus map and the sample bake, open, and keep their counts;
 *  - evil blobs (bad child link, cycle, index, arena, depth) get exact codes;
 *  - point queries through the tree = brute force over every baked brush
 *    (exact: same integer test, no tree);
 *  - point contents and traces against a double-precision reference built
 *    from the SOURCE map (Newell planes through the vertex centroid + axial
 *    bevels, every brush, no tree). A trace's stop distance must lie between
 *    the reference hit against brushes grown by TOL and shrunk by TOL
 *    (TOL = 0.25 units, span * 2^-15 beyond 8,192 units: warped faces 0.15,
 *    Q16.16 normal tilt, the 1/32 clip
 *    epsilon); where the reference is unambiguous (no second brush, grown by
 *    TOL, is reached within 4 TOL of the first hit) the hit brush must match;
 *  - no ray or box trace ends inside a brush of the mask (exact test with the
 *    baked planes).
 *
 * usage: test_rmf_bake CORPUS_DIR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_rmf.h"
#include "rr_test.h"
#include "rrb_rmf.h"

/* Tolerance in units: 0.25 (warped faces 0.15, the 1/32 clip epsilon,
 * coordinate rounding), or span * 2^-15 for maps over 8,192 units, where the
 * tilt of a Q16.16 normal (up to sqrt(3) * 2^-17 rad) across a face that long
 * dominates. */
static double TOL = 0.25;
#define NTRACE 600   /* per category and per shape (ray, box) */

static const char *const files[] = {
    "sledge_08.rmf", "sledge_09.rmf", "sledge_14.rmf", "sledge_16.rmf", "sledge_18.rmf",
    "sledge_22.rmf", "sledge_test-cube-2.2.rmf",
    "msr_dunno_what_this_is_just_bored_experimenting.rmf", "msr_tomb2.rmf", "msr_tower.rmf",
    "msr_calisle.rmf", "msr_ms_soccer.rmf", "msr_LostCaverns.rmf", "msr_lodagond-4.rmf"};
#define NFILES (int)(sizeof files / sizeof files[0])

static char id[256];
static const char *cid(const char *f, const char *what)
{
    snprintf(id, sizeof id, "rmf.bake.%s.%s", f, what);
    return id;
}

/* ---- reference brushes from the source map -------------------------------- */

typedef struct rplane {
    double n[3], d;
} rplane;

typedef struct rbrush {
    rplane *p;
    int np;
    double lo[3], hi[3], c[3];
    uint32_t contents;
    int blob_index;
} rbrush;

typedef struct ref {
    rbrush *b;
    int nb;
    double lo[3], hi[3];
} ref;

static uint32_t contents_for(const char *cls)
{
    if (!strcmp(cls, "func_water") || !strcmp(cls, "func_lava") || !strcmp(cls, "func_slime"))
        return RR_RMF_WATER;
    if (!strncmp(cls, "trigger_", 8))
        return RR_RMF_TRIGGER;
    if (!strcmp(cls, "func_illusionary"))
        return RR_RMF_NONSOLID;
    return RR_RMF_SOLID;
}

static double ref_max_dot(const rrb_rmf_map *m, const rrb_rmf_obj *o, const double n[3])
{
    double mx = -HUGE_VAL;
    int i, j;
    for (i = 0; i < o->nfaces; i++)
        for (j = 0; j < m->faces[o->first_face + i].nverts; j++) {
            const float *v = m->faces[o->first_face + i].verts[j];
            mx = fmax(mx, n[0] * (double)v[0] + n[1] * (double)v[1] + n[2] * (double)v[2]);
        }
    return mx;
}

/* Edge bevels, the rule q3map uses: edge x axis planes with the whole solid
 * behind them (0.1 units), non-axial ones only. */
static void ref_edge_bevels(const rrb_rmf_map *m, const rrb_rmf_obj *o, rbrush *rb, int cap)
{
    int i, j, a, s, k;
    for (i = 0; i < o->nfaces; i++) {
        const rrb_rmf_face *f = &m->faces[o->first_face + i];
        for (j = 0; j < f->nverts; j++) {
            const float *v1 = f->verts[j], *v2 = f->verts[(j + 1) % f->nverts];
            for (a = 0; a < 3; a++)
                for (s = -1; s <= 1; s += 2) {
                    double e[3], n[3], len;
                    for (k = 0; k < 3; k++)
                        e[k] = (double)v2[k] - (double)v1[k];
                    n[0] = a == 1 ? -e[2] * s : a == 2 ? e[1] * s : 0;
                    n[1] = a == 0 ? e[2] * s : a == 2 ? -e[0] * s : 0;
                    n[2] = a == 0 ? -e[1] * s : a == 1 ? e[0] * s : 0;
                    len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                    if (len < 0.01 || rb->np >= cap)
                        continue;
                    for (k = 0; k < 3; k++)
                        n[k] /= len;
                    if (fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2]))) > 1 - 1e-5)
                        continue;
                    if (ref_max_dot(m, o, n) -
                            (n[0] * (double)v1[0] + n[1] * (double)v1[1] + n[2] * (double)v1[2]) >
                        0.1)
                        continue;
                    memcpy(rb->p[rb->np].n, n, sizeof n);
                    rb->p[rb->np++].d = ref_max_dot(m, o, n);
                }
        }
    }
}

static void ref_brush(const rrb_rmf_map *m, const rrb_rmf_obj *o, rbrush *rb)
{
    int i, j, a, s, nv = 0, cap = o->nfaces + 6;
    for (i = 0; i < o->nfaces; i++)
        cap += 6 * m->faces[o->first_face + i].nverts;
    rb->p = calloc((size_t)cap, sizeof *rb->p);
    for (a = 0; a < 3; a++)
        rb->lo[a] = HUGE_VAL, rb->hi[a] = -HUGE_VAL, rb->c[a] = 0;
    for (i = 0; i < o->nfaces; i++) {
        const rrb_rmf_face *f = &m->faces[o->first_face + i];
        rplane *p = &rb->p[rb->np];
        if (rrb_rmf_face_plane(f, p->n, &p->d) == 0)
            rb->np++;
        for (j = 0; j < f->nverts; j++, nv++)
            for (a = 0; a < 3; a++) {
                rb->lo[a] = fmin(rb->lo[a], f->verts[j][a]);
                rb->hi[a] = fmax(rb->hi[a], f->verts[j][a]);
                rb->c[a] += (double)f->verts[j][a];
            }
    }
    for (a = 0; a < 3; a++)
        rb->c[a] /= nv;
    for (a = 0; a < 3; a++)
        for (s = -1; s <= 1; s += 2) {
            int have = 0;
            for (i = 0; i < rb->np && !have; i++)
                have = fabs(rb->p[i].n[a]) > 1 - 1e-5 && rb->p[i].n[a] * s > 0;
            if (!have) {
                rplane *p = &rb->p[rb->np++];
                memset(p, 0, sizeof *p);
                p->n[a] = s;
                p->d = s > 0 ? rb->hi[a] : -rb->lo[a];
            }
        }
    ref_edge_bevels(m, o, rb, cap);
}

/* Reference brushes in the baker's order (world first, then each entity). */
static void build_ref(const rrb_rmf_map *m, ref *r)
{
    int e, i, a;
    r->b = calloc((size_t)m->nsolids + 1, sizeof *r->b);
    r->nb = 0;
    for (e = 0; e < m->nobjs; e++) {
        if (m->objs[e].kind != RRB_RMF_WORLD && m->objs[e].kind != RRB_RMF_ENTITY)
            continue;
        for (i = e + 1; i < m->nobjs && m->objs[i].depth > m->objs[e].depth; i++)
            if (m->objs[i].kind == RRB_RMF_SOLID && rrb_rmf_owner(m, i) == e) {
                rbrush *rb = &r->b[r->nb];
                ref_brush(m, &m->objs[i], rb);
                rb->contents = contents_for(m->objs[e].ent.classname.s);
                rb->blob_index = r->nb++;
            }
    }
    for (a = 0; a < 3; a++) {
        r->lo[a] = HUGE_VAL, r->hi[a] = -HUGE_VAL;
        for (i = 0; i < r->nb; i++)
            r->lo[a] = fmin(r->lo[a], r->b[i].lo[a]), r->hi[a] = fmax(r->hi[a], r->b[i].hi[a]);
    }
}

static void free_ref(ref *r)
{
    int i;
    for (i = 0; i < r->nb; i++)
        free(r->b[i].p);
    free(r->b);
}

/* Entering fraction of the segment a->b (box half extents h) into brush rb
 * grown by g units; 2 = no hit. A start inside (Quake III's rule): -1 when
 * the end is inside too (all solid), 3 when it is not (the brush does not
 * block). */
static double ref_hit(const rbrush *rb, const double a[3], const double b[3],
                      const double h[3], double g)
{
    double enter = -HUGE_VAL, leave = HUGE_VAL;
    int i, end_out = 0;
    for (i = 0; i < rb->np; i++) {
        const rplane *p = &rb->p[i];
        double off = fabs(p->n[0]) * h[0] + fabs(p->n[1]) * h[1] + fabs(p->n[2]) * h[2];
        end_out |= p->n[0] * b[0] + p->n[1] * b[1] + p->n[2] * b[2] - (p->d + off + g) > 0;
    }
    for (i = 0; i < rb->np; i++) {
        const rplane *p = &rb->p[i];
        double off = fabs(p->n[0]) * h[0] + fabs(p->n[1]) * h[1] + fabs(p->n[2]) * h[2];
        double d = p->d + off + g;
        double d1 = p->n[0] * a[0] + p->n[1] * a[1] + p->n[2] * a[2] - d;
        double d2 = p->n[0] * b[0] + p->n[1] * b[1] + p->n[2] * b[2] - d;
        if (d1 > 0 && d2 >= 0)
            return 2;
        if (d1 <= 0 && d2 <= 0)
            continue;
        if (d1 > d2)
            enter = fmax(enter, d1 / (d1 - d2));
        else
            leave = fmin(leave, d1 / (d1 - d2));
    }
    if (enter == -HUGE_VAL)
        return end_out ? 3 : -1;
    return enter <= leave ? enter : 2;
}

typedef struct refres {
    double f;        /* nearest entering fraction (2 = none, -1 = all solid) */
    int brush;
    double second;   /* next brush's fraction */
    int inside;      /* brushes containing the start (3 or -1) */
    int all_in;      /* ... and the end (-1) */
} refres;

static refres ref_trace(const ref *r, const double a[3], const double b[3], const double h[3],
                        double g, uint32_t mask)
{
    refres res = {2, -1, 2, 0, 0};
    int i;
    for (i = 0; i < r->nb; i++) {
        double f;
        if (!(r->b[i].contents & mask))
            continue;
        f = ref_hit(&r->b[i], a, b, h, g);
        res.inside += f == 3 || f == -1;
        res.all_in += f == -1;
        if (f == 3)
            continue;
        if (f < res.f)
            res.second = res.f, res.f = f, res.brush = i;
        else if (f < res.second)
            res.second = f;
    }
    return res;
}

/* ---- fixed-point helpers --------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double urand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Exact: does the box (half h, coords) at p overlap baked brush b? */
/* Is the box (half extents h) at p in brush bi? strict: only when it
 * penetrates (touching a side is outside, the trace's rule); otherwise
 * touching counts as in (the point-contents rule). */
static int blob_box_in(const rr_room *room, uint32_t bi, const int32_t p[3], const int32_t h[3],
                       int strict)
{
    const rr_rmf_brush *b;
    uint32_t i;
    if (rr_rmf_get_brush(room, bi, &b) != RR_OK)
        return -1000000;
    for (i = 0; i < b->nsides; i++) {
        const rr_rmf_plane *pl;
        const uint32_t *sides;
        uint32_t ns;
        int64_t s = 0;
        int k;
        rr_section(room, RR_SEC_RMF_SIDES, (const void **)&sides, &ns);
        rr_rmf_get_plane(room, sides[b->first_side + i], &pl);
        for (k = 0; k < 3; k++)
            s += (int64_t)pl->normal[k] * p[k] - (int64_t)llabs(pl->normal[k]) * h[k];
        if (s - (int64_t)pl->dist * 65536 > (strict ? -1 : 0))
            return 0;
    }
    return 1;
}

/* The same fixed-point brush test as the loader's, over EVERY brush (no
 * tree): the nearest entering fraction (Q2.30), and the start-solid flags.
 * The tree walk must give the very same answer. */
typedef struct brute {
    int64_t best;
    int start_solid, all_solid;
} brute;

static int64_t floor256(int64_t s)
{
    return s >= 0 ? s / 256 : -((-s + 255) / 256);
}

static int64_t frac30(int64_t d1, int64_t adj, int64_t d2)
{
    int64_t den = d1 - d2, f;
    if (den == 0)
        den = d1 > d2 ? 1 : -1;
    f = (d1 + adj) * (1 << 30) / den;
    return f < 0 ? 0 : f > (1 << 30) ? (1 << 30) : f;
}

static brute brute_trace(const rr_room *room, const int32_t a[3], const int32_t b[3],
                         const int32_t h[3], uint32_t mask)
{
    brute r = {1 << 30, 0, 0};
    const uint32_t *sides;
    uint32_t ns, bi, nb, i;
    int64_t eps = ((1 << room->coord_frac) >> 5) ? ((1 << room->coord_frac) >> 5) : 1;
    rr_rmf_counts cn;
    rr_rmf_get_counts(room, &cn);
    nb = cn.brushes;
    rr_section(room, RR_SEC_RMF_SIDES, (const void **)&sides, &ns);
    for (bi = 0; bi < nb; bi++) {
        const rr_rmf_brush *br;
        int64_t enter = -(1 << 30), leave = 1 << 30;
        int out = 0, getout = 0, skip = 0;
        rr_rmf_get_brush(room, bi, &br);
        if (!(br->contents & mask))
            continue;
        for (i = 0; i < br->nsides && !skip; i++) {
            const rr_rmf_plane *p;
            int64_t s1 = 0, s2 = 0;
            int k;
            rr_rmf_get_plane(room, sides[br->first_side + i], &p);
            for (k = 0; k < 3; k++) {
                int64_t off = (int64_t)llabs(p->normal[k]) * h[k];
                s1 += (int64_t)p->normal[k] * a[k] - off;
                s2 += (int64_t)p->normal[k] * b[k] - off;
            }
            s1 -= (int64_t)p->dist * 65536, s2 -= (int64_t)p->dist * 65536;
            getout |= s2 > 0, out |= s1 >= 0;   /* touching counts as outside */
            if (s1 >= 0 && (s2 >= eps * 65536 || s2 >= s1))
                skip = 1;
            else if (s1 >= 0 || s2 > 0) {
                int64_t f = frac30(floor256(s1), s1 > s2 ? -eps * 256 : eps * 256,
                                   floor256(s2));
                if (s1 > s2 && f > enter)
                    enter = f;
                else if (s1 <= s2 && f < leave)
                    leave = f;
            }
        }
        if (skip)
            continue;
        if (!out) {
            r.start_solid = 1;
            if (!getout)   /* Quake III: blocks only a trace that ends inside too */
                r.all_solid = 1, r.best = 0;
        } else if (enter < leave && enter > -(1 << 30) && enter < r.best) {
            r.best = enter < 0 ? 0 : enter;
        }
    }
    return r;
}

typedef struct stats {
    long tree_vs_brute;
    long traces, hits, unambiguous, brush_mismatch, sandwich_fail, end_inside, start_solid;
    long start_ambiguous;
    double worst_early, worst_late;
} stats;

static void to_coords(const rr_room *room, const double v[3], int32_t out[3])
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = (int32_t)lround(v[k] * (double)(1 << room->coord_frac));
}

static void one_trace(const rr_room *room, const ref *r, const double a[3], const double b[3],
                      const double h[3], stats *st, const char *fn)
{
    double sc = (double)(1 << room->coord_frac), len, fd, lo_d, hi_d;
    int32_t ia[3], ib[3], ih[3];
    rr_rmf_trace_result tr;
    refres grow, shrink, exact;
    uint32_t i, nb = (uint32_t)r->nb;
    int k;
    to_coords(room, a, ia);
    to_coords(room, b, ib);
    for (k = 0; k < 3; k++)
        ih[k] = (int32_t)lround(h[k] * sc);
    if (rr_rmf_trace(room, ia, ib, ih, RR_RMF_SOLID, &tr) != RR_OK) {
        RT_EXPECT(cid(fn, "trace.call"), 0);
        return;
    }
    st->traces++;
    {
        brute bt = brute_trace(room, ia, ib, ih, RR_RMF_SOLID);
        int same = (int32_t)(bt.best >> 14) == tr.fraction && bt.start_solid == tr.start_solid &&
                   bt.all_solid == tr.all_solid;
        st->tree_vs_brute += !same;
        if (!same && st->tree_vs_brute < 4)
            printf("  %s: tree %08x ss %d as %d vs brute %08x ss %d as %d\n", fn,
                   (unsigned)tr.fraction, tr.start_solid, tr.all_solid,
                   (unsigned)(bt.best >> 14), bt.start_solid, bt.all_solid);
    }
    len = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
               (b[2] - a[2]) * (b[2] - a[2]));
    grow = ref_trace(r, a, b, h, TOL, RR_RMF_SOLID);
    shrink = ref_trace(r, a, b, h, -TOL, RR_RMF_SOLID);
    exact = ref_trace(r, a, b, h, 0, RR_RMF_SOLID);
    if (grow.inside != shrink.inside || grow.all_in != shrink.all_in) {
        st->start_ambiguous++;   /* the start or end within TOL of a side it is in */
        return;
    }
    if (grow.inside) {   /* Quake III: only brushes it also ends in block */
        st->start_solid++;
        if (!tr.start_solid || tr.all_solid != (grow.all_in > 0) ||
            (tr.all_solid && tr.fraction != 0)) {
            st->sandwich_fail++;
            if (st->sandwich_fail < 5)
                printf("  %s: start inside %d brushes (ending in %d): start_solid %d all_solid "
                       "%d fraction %08x\n", fn, grow.inside, grow.all_in, tr.start_solid,
                       tr.all_solid, (unsigned)tr.fraction);
        }
        if (tr.all_solid)
            return;
    } else if (tr.start_solid) {
        st->sandwich_fail++;
        return;
    }
    /* No end inside a solid brush (exact, baked planes) the start was not
     * in already. */
    for (i = 0; i < nb; i++)
        if ((r->b[i].contents & RR_RMF_SOLID) && blob_box_in(room, i, ia, ih, 1) != 1)
            st->end_inside += blob_box_in(room, i, tr.end, ih, 1);
    fd = (double)tr.fraction / 65536.0 * len;
    /* The reported fraction is Q16.16, rounded down: up to len / 2^16 early
     * (0.26 units on the 17,000-unit traces across LostCaverns' grown
     * bounds). */
    lo_d = (grow.f > 1 ? 1 : grow.f) * len - 0.01 - len / 65536.0;
    hi_d = (shrink.f > 1 ? 1 : shrink.f) * len + 0.01;
    if (fd < lo_d || fd > hi_d) {
        st->sandwich_fail++;
        if (st->sandwich_fail < 5)
            printf("  %s: stop %.3f not in [%.3f, %.3f] (len %.1f)\n", fn, fd, lo_d, hi_d, len);
    }
    if (tr.brush >= 0)
        st->hits++;
    if (exact.f <= 1 && shrink.f <= 1 && (grow.second - exact.f) * len > 4 * TOL &&
        fabs(shrink.f - grow.f) * len < 4 * TOL) {
        st->unambiguous++;
        st->worst_early = fmax(st->worst_early, exact.f * len - fd);
        st->worst_late = fmax(st->worst_late, fd - exact.f * len);
        if (tr.brush != r->b[exact.brush].blob_index) {
            st->brush_mismatch++;
            printf("  %s: brush %d (ref %.4f) vs ref brush %d at %.4f second %.4f grow %.4f "
                   "shrink %.4f len %.1f fixed %.4f\n", fn, tr.brush,
                   tr.brush >= 0 ? ref_hit(&r->b[tr.brush], a, b, h, 0) : -9.0,
                   r->b[exact.brush].blob_index, exact.f, exact.second, grow.f, shrink.f,
                   len, (double)tr.fraction / 65536);
        }
    }
}

/* Trace categories: random, from inside a brush, into a corner, grazing a face. */
static void trace_set(const rr_room *room, const rrb_rmf_map *m, const ref *r, const char *fn,
                      stats *st)
{
    int cat, n, k, shape;
    double span = fmax(r->hi[0] - r->lo[0], fmax(r->hi[1] - r->lo[1], r->hi[2] - r->lo[2]));
    double hb = span > 1000 ? 16 : 4;
    for (cat = 0; cat < 4; cat++)
        for (shape = 0; shape < 2; shape++)
            for (n = 0; n < NTRACE; n++) {
                double a[3], b[3], h[3] = {0, 0, 0};
                const rbrush *rb = &r->b[(int)(urand() * r->nb) % r->nb];
                for (k = 0; k < 3 && shape; k++)
                    h[k] = hb * (k == 2 ? 1.5 : 1);
                for (k = 0; k < 3; k++) {
                    a[k] = r->lo[k] - 32 + urand() * (r->hi[k] - r->lo[k] + 64);
                    b[k] = r->lo[k] - 32 + urand() * (r->hi[k] - r->lo[k] + 64);
                }
                if (cat == 1)
                    memcpy(a, rb->c, sizeof a);
                if (cat == 2)
                    for (k = 0; k < 3; k++)
                        b[k] = (urand() < 0.5 ? rb->lo[k] : rb->hi[k]) + (urand() - 0.5);
                if (cat == 3) {
                    const rplane *p = &rb->p[(int)(urand() * rb->np) % rb->np];
                    double g = (n % 3) * 0.2 + 0.001, t[3] = {p->n[1], -p->n[0], p->n[2] * 0.1};
                    double off = fabs(p->n[0]) * h[0] + fabs(p->n[1]) * h[1] + fabs(p->n[2]) * h[2];
                    if (fabs(p->n[2]) > 0.9)
                        t[0] = 1, t[1] = urand() - 0.5, t[2] = 0;
                    for (k = 0; k < 3; k++) {
                        a[k] = rb->c[k] + p->n[k] * (p->d + off + g -
                               (p->n[0] * rb->c[0] + p->n[1] * rb->c[1] + p->n[2] * rb->c[2]));
                        b[k] = a[k] + t[k] * span * 0.3;
                    }
                }
                one_trace(room, r, a, b, h, st, fn);
            }
    (void)m;
}

/* Issue 18, coordinate range: every query whose points lie within the
 * room's bounds grown by its box is answered. rr_open holds the header
 * bounds within RR_RMF_MAX_BOUNDS (2^20 coords) and queries may reach
 * RR_RMF_MAX_COORD (2^21), so boxes up to 2^20 coords (4,096 units at
 * coord_frac 8) are covered. Traces between points on and just inside the
 * grown bounds (corners, faces, anywhere between), rays and boxes up to
 * that largest one, must all be answered, agree with the brute force and
 * stay within the double reference's sandwich; one coord past the query
 * limit is refused. */
static void grown_set(const rr_room *room, const ref *r, const char *fn)
{
    double sc = (double)(1 << room->coord_frac);
    const int32_t boxes[4][3] = {{0, 0, 0}, {16, 16, 36}, {512, 512, 512}, {-1, -1, -1}};
    int32_t lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, hi[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    rr_rmf_counts cn;
    stats st;
    uint32_t i, c;
    int n, k, bx, refused = 0, answered = 0;
    memset(&st, 0, sizeof st);
    rr_rmf_get_counts(room, &cn);
    for (i = 0; i < cn.brushes; i++) {   /* the room's bounds, coords */
        const rr_rmf_brush *b;
        rr_rmf_get_brush(room, i, &b);
        for (k = 0; k < 3; k++) {
            lo[k] = b->mins[k] < lo[k] ? b->mins[k] : lo[k];
            hi[k] = b->maxs[k] > hi[k] ? b->maxs[k] : hi[k];
        }
    }
    for (k = 0; k < 3; k++)
        RT_EXPECT(cid(fn, "grown.bounds_within_limit"),
                  lo[k] >= -RR_RMF_MAX_BOUNDS && hi[k] <= RR_RMF_MAX_BOUNDS);
    for (bx = 0; bx < 4; bx++)
        for (n = 0; n < 150; n++) {
            int32_t h[3], ia[3], ib[3];
            double a[3], b[3], hd[3];
            for (k = 0; k < 3; k++) {
                h[k] = boxes[bx][k] < 0 ? RR_RMF_MAX_BOUNDS : (int32_t)(boxes[bx][k] * sc);
                hd[k] = h[k] / sc;
            }
            for (k = 0; k < 3; k++) {   /* each end: the low or high grown face, or between */
                int32_t glo = lo[k] - h[k], ghi = hi[k] + h[k];
                int32_t in = (int32_t)(urand() * sc);   /* up to 1 unit inside, half the time */
                int ma = (int)(urand() * 3), mb = (int)(urand() * 3);
                ia[k] = ma == 0 ? glo + (n % 2) * in : ma == 1 ? ghi - (n % 2) * in
                        : glo + (int32_t)(urand() * (double)(ghi - glo));
                ib[k] = mb == 0 ? glo + (n % 2) * in : mb == 1 ? ghi - (n % 2) * in
                        : glo + (int32_t)(urand() * (double)(ghi - glo));
                a[k] = ia[k] / sc, b[k] = ib[k] / sc;
            }
            one_trace(room, r, a, b, hd, &st, fn);   /* expects RR_OK */
            answered += rr_rmf_point_contents(room, ia, &c) == RR_OK &&
                        rr_rmf_point_contents(room, ib, &c) == RR_OK;
        }
    RT_EXPECT_EQ(cid(fn, "grown.traces_answered"), st.traces, 4 * 150);
    RT_EXPECT_EQ(cid(fn, "grown.points_answered"), answered, 4 * 150);
    RT_EXPECT_EQ(cid(fn, "grown.tree_vs_brute_fixed"), st.tree_vs_brute, 0);
    RT_EXPECT_EQ(cid(fn, "grown.sandwich"), st.sandwich_fail, 0);
    RT_EXPECT_EQ(cid(fn, "grown.same_brush"), st.brush_mismatch, 0);
    RT_EXPECT_EQ(cid(fn, "grown.end_not_inside"), st.end_inside, 0);
    for (k = 0; k < 3; k++) {   /* one coord past the query limit, on each axis */
        int32_t p[3] = {0, 0, 0}, q[3] = {0, 0, 0};
        rr_rmf_trace_result tr;
        q[k] = RR_RMF_MAX_COORD + 1;
        refused += rr_rmf_trace(room, p, q, NULL, RR_RMF_SOLID, &tr) == RR_ERR_RANGE;
        q[k] = -RR_RMF_MAX_COORD;   /* the limit itself is answered */
        refused += rr_rmf_trace(room, p, q, NULL, RR_RMF_SOLID, &tr) == RR_OK;
    }
    RT_EXPECT_EQ(cid(fn, "grown.limit_exact"), refused, 6);
    printf("  %-40s grown bounds: %ld traces (rays, boxes up to %.0f units), %ld hits, "
           "%ld unambiguous, early %.3f late %.3f\n", fn, st.traces, RR_RMF_MAX_BOUNDS / sc,
           st.hits, st.unambiguous, st.worst_early, st.worst_late);
}

/* Point queries: tree vs brute force over baked brushes (exact), and
 * contents vs the source reference away from brush surfaces. */
static void point_set(const rr_room *room, const ref *r, const char *fn)
{
    uint32_t items[256], i;
    long tree_bad = 0, ref_bad = 0, checked = 0;
    int n, k;
    for (n = 0; n < 3000; n++) {
        double p[3], zero[3] = {0, 0, 0};
        int32_t ip[3];
        rr_rmf_list l = {items, 256, 0, 0};
        uint32_t cont = 0, want = 0, all = 0;
        int ambiguous = 0;
        const rbrush *rb = &r->b[(int)(urand() * r->nb) % r->nb];
        for (k = 0; k < 3; k++)
            p[k] = n % 2 ? rb->lo[k] + urand() * (rb->hi[k] - rb->lo[k])
                         : r->lo[k] + urand() * (r->hi[k] - r->lo[k]);
        to_coords(room, p, ip);
        rr_rmf_point_contents(room, ip, &cont);
        rr_rmf_point_brushes(room, ip, &l);
        for (i = 0; i < (uint32_t)r->nb; i++) {
            int32_t zh[3] = {0, 0, 0};
            int in = blob_box_in(room, i, ip, zh, 0);
            int found = 0;
            uint32_t j;
            for (j = 0; j < l.count; j++)
                found |= items[j] == i;
            tree_bad += in != found;
            all |= in ? r->b[i].contents : 0;
            if (ref_hit(&r->b[i], p, p, zero, TOL) == -1)
                want |= ref_hit(&r->b[i], p, p, zero, -TOL) == -1 ? r->b[i].contents : 0;
            ambiguous |= ref_hit(&r->b[i], p, p, zero, TOL) == -1 &&
                         ref_hit(&r->b[i], p, p, zero, -TOL) != -1;
        }
        tree_bad += cont != all;
        if (!ambiguous) {
            checked++;
            ref_bad += cont != want;
        }
    }
    RT_EXPECT_EQ(cid(fn, "points.tree_vs_brute"), tree_bad, 0);
    RT_EXPECT_EQ(cid(fn, "points.vs_reference"), ref_bad, 0);
    RT_EXPECT(cid(fn, "points.checked"), checked > 2000);
}

static void refresh_crc(uint8_t *b, size_t n);

/* rr_rmf_box_brushes (through the tree) = brute force over the brush bounds;
 * a water-only trace on the sample stops at the water brush. */
static void box_set(const rr_room *room, const ref *r, const char *fn)
{
    static uint32_t items[8192];
    long bad = 0, found = 0;
    int n, k;
    uint32_t i, j;
    for (n = 0; n < 500; n++) {
        int32_t lo[3], hi[3];
        rr_rmf_list l = {items, 8192, 0, 0};
        double a[3], b[3];
        for (k = 0; k < 3; k++) {
            a[k] = r->lo[k] + urand() * (r->hi[k] - r->lo[k]);
            b[k] = a[k] + urand() * (r->hi[k] - r->lo[k]) / 8;
        }
        to_coords(room, a, lo);
        to_coords(room, b, hi);
        rr_rmf_box_brushes(room, lo, hi, &l);
        for (i = 0; i < (uint32_t)r->nb; i++) {
            const rr_rmf_brush *br;
            int want = 1, got = 0;
            rr_rmf_get_brush(room, i, &br);
            for (k = 0; k < 3; k++)
                want &= br->mins[k] <= hi[k] && br->maxs[k] >= lo[k];
            for (j = 0; j < l.count; j++)
                got += items[j] == i;
            bad += want != got;
            found += got;
        }
        bad += l.count != l.total;
    }
    RT_EXPECT_EQ(cid(fn, "box_brushes.vs_brute"), bad, 0);
    RT_EXPECT(cid(fn, "box_brushes.found"), found > 0);
}

/* Random damage inside the sections (checksum refreshed so it reaches the
 * validator): rr_open either refuses or the queries stay in bounds (ASan). */
static void blob_fuzz(const uint8_t *blob, size_t n, const char *fn)
{
    static uint8_t arena[1 << 20] __attribute__((aligned(8)));
    uint8_t *b = malloc(n);
    long accepted = 0, refused = 0;
    int it, q;
    for (it = 0; it < 3000; it++) {
        rr_room room;
        size_t at;
        memcpy(b, blob, n);
        at = 48 + (size_t)(urand() * (double)(n - 48));
        b[at] = (uint8_t)(urand() * 256);
        if (it % 3 == 0 && at - at % 4 + 4 <= n) {  /* or a whole random word */
            uint32_t v = (uint32_t)(urand() * 4294967295.0);
            memcpy(b + at - at % 4, &v, 4);
        }
        refresh_crc(b, n);
        if (rr_open(b, (uint32_t)n, arena, sizeof arena, &room) != RR_OK) {
            refused++;
            continue;
        }
        accepted++;
        for (q = 0; q < 20; q++) {
            int32_t p[3], e[3], h[3] = {64, 64, 64};
            rr_rmf_trace_result t;
            uint32_t c;
            int k;
            for (k = 0; k < 3; k++)
                p[k] = (int32_t)(urand() * 200000) - 100000, e[k] = -p[k];
            rr_rmf_point_contents(&room, p, &c);
            rr_rmf_trace(&room, p, e, q & 1 ? h : 0, 0xffffffffu, &t);
        }
    }
    printf("  blob fuzz %s: %ld opened, %ld refused\n", fn, accepted, refused);
    RT_EXPECT(cid(fn, "blob_fuzz.refuses_some"), refused > 0);
    free(b);
}

/* ---- evil blobs ------------------------------------------------------------ */

static void refresh_crc(uint8_t *b, size_t n)
{
    uint32_t c = rr_crc32(0, b + 24, (uint32_t)(n - 24));
    memcpy(b + 20, &c, 4);
}

static uint32_t *sec(uint8_t *b, uint32_t type, uint32_t *count)
{
    uint32_t off = rt_section(b, type, count, NULL);
    if (!off)
        *count = 0;
    return off ? (uint32_t *)(void *)(b + off) : NULL;
}

/* Damage one word of a valid blob: rr_open must fail with the code and name
 * the damaged field exactly (its section, record and blob offset). */
static void evil(const uint8_t *blob, size_t n, const char *fn)
{
    static uint8_t arena[1 << 20] __attribute__((aligned(8)));
    uint8_t *b = malloc(n);
    uint32_t cnt, *p;
    rr_room room;
    int k;
    for (k = 0; k < 12; k++) {
        rr_err want = RR_OK;
        uint32_t *at = NULL, section = 0, record = 0;
        char what[64];
        rr_diag dg;
        memcpy(b, blob, n);
        switch (k) {
        case 0: /* node 0's front child points back at node 0 */
            p = sec(b, section = RR_SEC_RMF_NODES, &cnt);
            if (cnt) at = &p[1], *at = 0, want = RR_ERR_CYCLE;
            break;
        case 1: /* node 0's back child past the last node */
            p = sec(b, section = RR_SEC_RMF_NODES, &cnt);
            if (cnt) at = &p[2], *at = 0x7fffff, want = RR_ERR_INDEX;
            break;
        case 2: /* side 0's plane */
            p = sec(b, section = RR_SEC_RMF_SIDES, &cnt);
            at = &p[0], *at = 0xffffff, want = RR_ERR_INDEX;
            break;
        case 3: /* leaf 0's brush count runs past the leaf brushes */
            p = sec(b, section = RR_SEC_RMF_LEAVES, &cnt);
            at = &p[1], *at = 0xfffffff, want = RR_ERR_INDEX;
            break;
        case 4: /* entity 0's classname string */
            p = sec(b, section = RR_SEC_RMF_ENTITIES, &cnt);
            at = &p[0], *at = 0xfffffff, want = RR_ERR_INDEX;
            break;
        case 5: /* tree depth beyond the blob's max depth */
            p = sec(b, section = RR_SEC_RMF_HEADER, &cnt);
            at = &p[2], *at += 1, want = RR_ERR_DEPTH;
            break;
        case 6: /* declared arena (blob header) too small */
            p = (uint32_t *)(void *)b;
            at = &p[7], *at = 64, want = RR_ERR_ARENA, record = RR_NO_RECORD;
            break;
        case 7: /* brush 0 without sides */
            p = sec(b, section = RR_SEC_RMF_BRUSHES, &cnt);
            at = &p[1], *at = 0, want = RR_ERR_INDEX;
            break;
        case 8: /* an unknown header flag */
            p = sec(b, section = RR_SEC_RMF_HEADER, &cnt);
            at = &p[11], *at = 2, want = RR_ERR_RANGE;
            break;
        case 9: /* plane 0's pad not zero: bytes 18-19 of the record, the high half of
                 * the little-endian word at 16 (type, signbits, pad) */
            p = sec(b, section = RR_SEC_RMF_PLANES, &cnt);
            at = &p[4], *at |= 0x10000u, want = RR_ERR_RANGE;
            break;
        case 10: /* brush 0's maxs[0] one coord further out: its +x side (one of its
                  * first six) is no longer one coord inside the bounds; rr_open
                  * names that side's plane field */
        case 11: { /* ... or the side's plane swapped for a sloped one */
            uint32_t *planes = sec(b, RR_SEC_RMF_PLANES, &cnt), np = cnt, j, sloped = np;
            uint32_t *brushes = sec(b, RR_SEC_RMF_BRUSHES, &cnt);
            uint32_t *sides = sec(b, section = RR_SEC_RMF_SIDES, &cnt);
            for (j = 0; j < np && sloped == np; j++)   /* plane record: 5 words, type byte 16 */
                if ((planes[5 * j + 4] & 0xffu) == 3)
                    sloped = j;
            for (j = 0; j < 6; j++) {
                const uint32_t *pl = &planes[5 * sides[brushes[0] + j]];
                if ((pl[4] & 0xffu) == 0 && (int32_t)pl[0] > 0)
                    break;
            }
            record = brushes[0] + j, at = &sides[record];
            if (k == 10) {
                brushes[7] += 1;
                want = RR_ERR_RANGE;
            } else if (sloped < np) {
                *at = sloped;
                want = RR_ERR_RANGE;
            }
            break;
        }
        }
        if (want == RR_OK)
            continue;
        refresh_crc(b, n);
        snprintf(what, sizeof what, "evil.%d", k);
        RT_EXPECT_EQ(cid(fn, what), rr_open_diag(b, (uint32_t)n, arena, sizeof arena, &room, &dg),
                     want);
        snprintf(what, sizeof what, "evil.%d.diag", k);
        RT_EXPECT(cid(fn, what), dg.section == section && dg.record == record &&
                                     dg.offset == (uint32_t)((uint8_t *)at - b) +
                                                      (k == 9 ? 2u : 0u));
    }
    free(b);
}

/* ---- per file ---------------------------------------------------------------- */

static void check_map(const char *fn, const rrb_rmf_map *m, size_t srcsize)
{
    static uint8_t arena[1 << 20] __attribute__((aligned(8)));
    char err[RRB_ERR_MAX];
    rrb_opts o;
    rrb_blob *bl;
    uint8_t *blob;
    size_t n;
    rr_room room;
    rr_rmf_counts cn;
    ref r;
    stats st;
    memset(&o, 0, sizeof o);
    memset(&st, 0, sizeof st);
    bl = rrb_rmf_bake_map(m, srcsize, fn, &o, err, sizeof err);
    RT_EXPECT(cid(fn, "bake"), bl != NULL);
    if (!bl) {
        printf("  %s\n", err);
        return;
    }
    RT_EXPECT_EQ(cid(fn, "finish"), rrb_blob_finish(bl, 0, &blob, &n), 0);
    rrb_blob_free(bl);
    {
        rr_diag dg;
        rr_err e = rr_open_diag(blob, (uint32_t)n, arena, sizeof arena, &room, &dg);
        RT_EXPECT_EQ(cid(fn, "open"), e, RR_OK);
        if (e) {
            printf("  open: %s at section 0x%x +0x%x: %s %u / %u\n", rr_strerror(e),
                   dg.section, dg.offset, dg.what, dg.value, dg.limit);
            free(blob);
            return;
        }
    }
    rr_rmf_get_counts(&room, &cn);
    RT_EXPECT_EQ(cid(fn, "brushes"), cn.brushes, m->nsolids);
    RT_EXPECT_EQ(cid(fn, "entities"), cn.entities, m->nentities + 1);
    RT_EXPECT(cid(fn, "depth"), cn.tree_depth <= RR_MAX_DEPTH);
    build_ref(m, &r);
    TOL = fmax(0.25, fmax(r.hi[0] - r.lo[0], fmax(r.hi[1] - r.lo[1], r.hi[2] - r.lo[2])) /
                         32768.0);
    point_set(&room, &r, fn);
    trace_set(&room, m, &r, fn, &st);
    grown_set(&room, &r, fn);
    printf("  %-40s %7zu -> %7zu bytes frac %u planes %5u brushes %4u nodes %4u depth %2u | "
           "%ld traces %ld hits, %ld start-solid (%ld near a side), %ld unambiguous, early %.3f "
           "late %.3f\n",
           fn, srcsize, n, room.coord_frac, cn.planes, cn.brushes, cn.nodes, cn.tree_depth,
           st.traces, st.hits, st.start_solid, st.start_ambiguous, st.unambiguous, st.worst_early,
           st.worst_late);
    RT_EXPECT_EQ(cid(fn, "trace.tree_vs_brute_fixed"), st.tree_vs_brute, 0);
    RT_EXPECT_EQ(cid(fn, "trace.sandwich"), st.sandwich_fail, 0);
    RT_EXPECT(cid(fn, "trace.start_inside_checked"), st.start_solid >= NTRACE / 4);
    RT_EXPECT_EQ(cid(fn, "trace.same_brush"), st.brush_mismatch, 0);
    RT_EXPECT_EQ(cid(fn, "trace.end_not_inside"), st.end_inside, 0);
    RT_EXPECT(cid(fn, "trace.count"), st.traces >= 4 * 2 * NTRACE);
    evil(blob, n, fn);
    box_set(&room, &r, fn);
    if (n < 100000)
        blob_fuzz(blob, n, fn);
    free_ref(&r);
    free(blob);
}

static void check_sample_queries(void)
{
    static uint8_t arena[1 << 16] __attribute__((aligned(8)));
    rrb_rmf_map m;
    rrb_blob *bl;
    uint8_t *blob;
    size_t n;
    rr_room room;
    char err[RRB_ERR_MAX];
    rrb_opts o;
    uint32_t c, e;
    int32_t water[3] = {(128) * 256, (128) * 256, (24) * 256}, trig[3] = {0, (160) * 256, (64) * 256};
    int32_t air[3] = {0, 0, (128) * 256}, ill[3] = {(160) * 256, (-160) * 256, (48) * 256};
    int32_t hidden[3] = {(220) * 256, (-220) * 256, (20) * 256};
    const rr_rmf_entity *ent;
    memset(&o, 0, sizeof o);
    rrb_rmf_sample_map(&m);
    bl = rrb_rmf_bake_map(&m, 0, "sample.rmf", &o, err, sizeof err);
    rrb_blob_finish(bl, 0, &blob, &n);
    rrb_blob_free(bl);
    RT_EXPECT_EQ("rmf.sample.open", rr_open(blob, (uint32_t)n, arena, sizeof arena, &room), 0);
    RT_EXPECT_EQ("rmf.sample.frac", room.coord_frac, 8);
    rr_rmf_point_contents(&room, water, &c);
    RT_EXPECT_EQ("rmf.sample.water", c, RR_RMF_WATER);
    rr_rmf_point_contents(&room, trig, &c);
    RT_EXPECT_EQ("rmf.sample.trigger", c, RR_RMF_TRIGGER);
    rr_rmf_point_contents(&room, air, &c);
    RT_EXPECT_EQ("rmf.sample.air", c, 0);
    rr_rmf_point_contents(&room, ill, &c);
    RT_EXPECT_EQ("rmf.sample.illusionary", c, RR_RMF_NONSOLID);
    rr_rmf_point_contents(&room, hidden, &c);
    RT_EXPECT_EQ("rmf.sample.hidden_kept", c, RR_RMF_SOLID);
    RT_EXPECT_EQ("rmf.sample.find_spawn", rr_rmf_find_entity(&room, "targetname", "spawn1", 0, &e), 0);
    rr_rmf_get_entity(&room, e, &ent);
    RT_EXPECT("rmf.sample.spawn_class", !strcmp(rr_string(&room, ent->classname), "info_player_start"));
    RT_EXPECT_EQ("rmf.sample.spawn_z", ent->origin[2], (36) * 256);
    RT_EXPECT("rmf.sample.angle", !strcmp(rr_rmf_entity_value(&room, e, "angle"), "90"));
    {
        int32_t a[3] = {128 * 256, 128 * 256, 200 * 256}, z[3] = {128 * 256, 128 * 256, 10 * 256};
        rr_rmf_trace_result t;
        rr_rmf_trace(&room, a, z, 0, RR_RMF_WATER, &t);
        RT_EXPECT_EQ("rmf.sample.water_trace", t.contents, RR_RMF_WATER);
        RT_EXPECT("rmf.sample.water_surface", t.end[2] >= 48 * 256 + 8 && t.end[2] <= 48 * 256 + 9);
        rr_rmf_trace(&room, a, z, 0, RR_RMF_SOLID, &t);
        RT_EXPECT_EQ("rmf.sample.water_not_solid", t.brush, -1);
    }
    {   /* the sample's path: 3 corners, circular, speeds 50/100/100 */
        const rr_rmf_path *pa;
        const rr_rmf_pathnode *pn;
        const rr_rmf_keyvalue *kv;
        RT_EXPECT_EQ("rmf.sample.path", rr_rmf_get_path(&room, 0, &pa), RR_OK);
        RT_EXPECT("rmf.sample.path_fields", pa->nnodes == 3 && pa->type == 1 &&
                                                !strcmp(rr_string(&room, pa->classname),
                                                        "path_track"));
        RT_EXPECT_EQ("rmf.sample.pathnode", rr_rmf_get_pathnode(&room, pa->first_node + 1, &pn),
                     RR_OK);
        RT_EXPECT("rmf.sample.pathnode_fields", pn->pos[1] == 200 * 256 && pn->nkv == 1 &&
                                                    !strcmp(rr_string(&room, pn->name),
                                                            "track_top"));
        RT_EXPECT_EQ("rmf.sample.pathnode_kv", rr_rmf_get_keyvalue(&room, pn->first_kv, &kv),
                     RR_OK);
        RT_EXPECT("rmf.sample.pathnode_speed", !strcmp(rr_string(&room, kv->value), "100"));
        RT_EXPECT_EQ("rmf.sample.path_end", rr_rmf_get_path(&room, 1, &pa), RR_ERR_NOTFOUND);
    }
    RT_EXPECT_EQ("rmf.sample.nofind", rr_rmf_find_entity(&room, "classname", "nope", 0, &e),
                 RR_ERR_NOTFOUND);
    free(blob);
    o.skip_hidden = 1;
    bl = rrb_rmf_bake_map(&m, 0, "sample.rmf", &o, err, sizeof err);
    rrb_blob_finish(bl, 0, &blob, &n);
    rrb_blob_free(bl);
    RT_EXPECT_EQ("rmf.sample.open_skip", rr_open(blob, (uint32_t)n, arena, sizeof arena, &room), 0);
    rr_rmf_point_contents(&room, hidden, &c);
    RT_EXPECT_EQ("rmf.sample.hidden_skipped", c, 0);
    free(blob);
    check_map("sample.rmf", &m, 0);
    {   /* a solid of 3 faces cannot be a brush: a clear error, not a blob */
        int saved = m.objs[1].nfaces;
        m.objs[1].nfaces = 3;
        bl = rrb_rmf_bake_map(&m, 0, "sample.rmf", &o, err, sizeof err);
        RT_EXPECT("rmf.sample.open_solid_rejected", bl == NULL && strstr(err, "solid 0") != NULL);
        if (bl)
            rrb_blob_free(bl);
        m.objs[1].nfaces = saved;
    }
    rrb_rmf_free(&m);
}

/* Big maps: the sample scaled by 64 (+-17,408 units) gets coord_frac 5 and
 * the same answers; scaled by 4,096 (+-1.1 million units) it is refused. */
static void scale_map(rrb_rmf_map *m, float k)
{
    int i, j, a;
    for (i = 0; i < m->nfaces; i++) {
        for (j = 0; j < m->faces[i].nverts; j++)
            for (a = 0; a < 3; a++)
                m->faces[i].verts[j][a] *= k;
        for (j = 0; j < 3; j++)
            for (a = 0; a < 3; a++)
                m->faces[i].plane[j][a] *= k;
    }
    for (i = 0; i < m->nobjs; i++)
        for (a = 0; a < 3; a++)
            m->objs[i].origin[a] *= k;
}

static void check_big(void)
{
    static uint8_t arena[1 << 16] __attribute__((aligned(8)));
    rrb_rmf_map m;
    rrb_opts o;
    rrb_blob *bl;
    uint8_t *blob;
    size_t n;
    rr_room room;
    char err[RRB_ERR_MAX];
    uint32_t c;
    memset(&o, 0, sizeof o);
    rrb_rmf_sample_map(&m);
    scale_map(&m, 64);
    bl = rrb_rmf_bake_map(&m, 0, "big.rmf", &o, err, sizeof err);
    RT_EXPECT("rmf.big.bake", bl != NULL);
    if (bl) {
        int32_t water[3] = {128 * 64 * 32, 128 * 64 * 32, 24 * 64 * 32};
        int32_t a[3] = {0, 0, 128 * 64 * 32}, b[3] = {0, -400 * 64 * 32, 128 * 64 * 32};
        rr_rmf_trace_result t;
        rrb_blob_finish(bl, 0, &blob, &n);
        rrb_blob_free(bl);
        RT_EXPECT_EQ("rmf.big.open", rr_open(blob, (uint32_t)n, arena, sizeof arena, &room), 0);
        RT_EXPECT_EQ("rmf.big.frac", room.coord_frac, 5);
        rr_rmf_point_contents(&room, water, &c);
        RT_EXPECT_EQ("rmf.big.water", c, RR_RMF_WATER);
        rr_rmf_trace(&room, a, b, 0, RR_RMF_SOLID, &t);
        RT_EXPECT("rmf.big.wall", t.end[1] >= -256 * 64 * 32 + 1 && t.end[1] <= -256 * 64 * 32 + 2 &&
                                      t.normal.y == RR_FIX_ONE);
        free(blob);
        check_map("sample_x64", &m, 0);   /* the whole reference suite at frac 5 */
    }
    scale_map(&m, 64);
    bl = rrb_rmf_bake_map(&m, 0, "huge.rmf", &o, err, sizeof err);
    RT_EXPECT("rmf.huge.refused", bl == NULL && strstr(err, "huge.rmf:0x0: expected coordinates") != NULL);
    if (bl)
        rrb_blob_free(bl);
    rrb_rmf_free(&m);
}

/* Quake III's start-inside rule on a seam: a map of two touching floor
 * tiles and a wall, written by rrb_rmf_write and read back, baked; a player
 * box sunk d = 0.06-0.25 units into the floor. Each trace's fixed-point
 * answer is checked against the double reference (every brush, the same
 * rule): start_solid, all_solid, and the stop within TOL of the reference's. */
static void check_seam(void)
{
    static uint8_t arena[1 << 16] __attribute__((aligned(8)));
    static const double depth[4] = {0.06, 0.1, 0.18, 0.25};
    /* start x, end x, end y, end z offset, expected all_solid, expected fraction (< 0: any) */
    static const double cases[][6] = {
        {-100, -100, 200, 0, 1, 0},     /* along y, staying in tile A: stuck (both rules) */
        {-100, -100, 200, 8, 0, 1},     /* along y and up out of A: free (the old rule
                                           let it out only straight away from A's top) */
        {0, 0, 200, 0, 1, 0},           /* on the seam, along it, still in both: stuck */
        {0, 0, 200, 1, 0, 1},           /* along the seam, rising out of both: free */
        {-100, 100, 0, 0, 0, -1},       /* from A into B, sunk: B (started outside it) stops
                                           it at the seam, A does not */
        {-100, 100, 0, 1, 0, 1},        /* ... rising out of the floor before the seam: free */
        {-100, 300, 0, 0.5, 0, -1},     /* ... on to the wall: stops in front of it */
        {100, -100, 0, 0.3, 0, -1},     /* from B back over A, rising: A stops it at the
                                           seam while it is still sunk below A's top */
    };
    rrb_rmf_map m, back;
    rrb_buf wb = {0};
    rrb_opts o;
    rrb_blob *bl;
    uint8_t *blob;
    size_t n;
    rr_room room;
    ref r;
    char err[RRB_ERR_MAX];
    int di, ci, k;
    long bad = 0, checked = 0;
    memset(&o, 0, sizeof o);
    o.quiet = 1;
    rrb_rmf_seam_map(&m);
    rrb_rmf_write(&m, &wb);
    rrb_rmf_free(&m);
    RT_EXPECT("rmf.seam.read", rrb_rmf_read(wb.data, wb.size, "seam.rmf", &back, err,
                                            sizeof err) == 0);
    bl = rrb_rmf_bake_map(&back, wb.size, "seam.rmf", &o, err, sizeof err);
    RT_EXPECT("rmf.seam.bake", bl != NULL);
    if (!bl)
        return;
    rrb_blob_finish(bl, 0, &blob, &n);
    rrb_blob_free(bl);
    RT_EXPECT_EQ("rmf.seam.open", rr_open(blob, (uint32_t)n, arena, sizeof arena, &room), 0);
    build_ref(&back, &r);
    for (di = 0; di < 4; di++)
        for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++) {
            const double *c = cases[ci];
            double a[3] = {c[0], 0, 36 - depth[di]}, b[3] = {c[1], c[2], 36 - depth[di] + c[3]};
            double h[3] = {16, 16, 36}, sc = (double)(1 << room.coord_frac), len;
            int32_t ia[3], ib[3], ih[3];
            rr_rmf_trace_result tr;
            refres ref0;
            int ok;
            for (k = 0; k < 3; k++)
                ia[k] = (int32_t)lround(a[k] * sc), ib[k] = (int32_t)lround(b[k] * sc),
                ih[k] = (int32_t)lround(h[k] * sc);
            rr_rmf_trace(&room, ia, ib, ih, RR_RMF_SOLID, &tr);
            ref0 = ref_trace(&r, a, b, h, 0, RR_RMF_SOLID);
            len = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                       (b[2] - a[2]) * (b[2] - a[2]));
            ok = tr.start_solid && ref0.inside > 0 && tr.all_solid == (c[4] != 0) &&
                 tr.all_solid == (ref0.all_in > 0);
            if (c[5] >= 0)
                ok &= tr.fraction == (int32_t)(c[5] * 65536);
            if (!tr.all_solid)   /* the stop: the reference's within TOL (+ the clip epsilon) */
                ok &= fabs((ref0.f > 1 ? 1 : ref0.f) * len - tr.fraction / 65536.0 * len) <=
                      0.25 + 1.0 / 32;
            checked++;
            if (!ok && bad++ < 4)
                printf("  seam case %d depth %.2f: start_solid %d all_solid %d fraction %.5f; "
                       "reference inside %d all_in %d f %.5f\n", ci, depth[di], tr.start_solid,
                       tr.all_solid, tr.fraction / 65536.0, ref0.inside, ref0.all_in, ref0.f);
        }
    RT_EXPECT_EQ("rmf.seam.traces", bad, 0);
    RT_EXPECT_EQ("rmf.seam.count", checked, 32);
    free_ref(&r);
    free(blob);
    rrb_rmf_free(&back);
    rrb_buf_free(&wb);
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("CORPUS");
    int i;
    if (!corpus)
        corpus = "../shared/corpus";
    setvbuf(stdout, NULL, _IONBF, 0);
    check_sample_queries();
    check_big();
    check_seam();
    for (i = 0; i < NFILES; i++) {
        char path[1024], err[RRB_ERR_MAX];
        uint8_t *d;
        size_t n;
        rrb_rmf_map m;
        snprintf(path, sizeof path, "%s/rmf/%s", corpus, files[i]);
        if (rrb_load_file(path, &d, &n, err, sizeof err) ||
            rrb_rmf_read(d, n, path, &m, err, sizeof err)) {
            RT_EXPECT(cid(files[i], "read"), 0);
            continue;
        }
        check_map(files[i], &m, n);
        rrb_rmf_free(&m);
        free(d);
    }
    return rt_done("test_rmf_bake");
}

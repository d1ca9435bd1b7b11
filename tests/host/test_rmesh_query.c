/* test_rmesh_query.c - RMesh bake + runtime queries against a double-precision
 * brute-force reference over every collision triangle of the source file.
 *
 * Rays (NOTES §7.5: many origins, not only the room centre): per room, half
 * of them start anywhere in the bounds grown by 10 %, half just in front of a
 * random collision triangle; random directions; random max distances.
 *
 * Tolerance: EPS = 4 coords (4 / 2^coord_frac world units; quantization moves
 * a vertex by at most 0.87 coord). The reference classifies each triangle
 * crossing by its margin inside the triangle: "strict" (inside by >= EPS) and
 * "loose" (outside by < EPS). A fixed-point hit must be a loose crossing, its
 * distance within EPS/|cos| of the nearest one, and its point within 2 EPS of
 * the source triangle it names; a fixed-point miss must have no strict
 * crossing (misses agree exactly outside the band). Rays with loose but no
 * strict crossing are the grazing band; their number is printed.
 *
 * usage: test_rmesh_query [CORPUS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_rmesh.h"
#include "rr_test.h"
#include "rrb_rmesh.h"

#define EPS_COORDS 4.0

static const char *const rooms[] = {
    "scpcb-rmesh/room2_3_opt.rmesh", "scpcb-rmesh/mt2.rmesh", "scpcb-rmesh/room2z3_2_opt.rmesh",
    "scpcb-rmesh/room1archive.rmesh", "scpcb-rmesh/pocketdimension1_opt.rmesh",
    "scpcb-rmesh/room2test1074_opt.rmesh", "scpcb-rmesh/room2tesla_hcz_opt.rmesh",
    "scpcb-rmesh/room966_opt.rmesh", "scpcb-rmesh/room2servers_opt.rmesh",
    "scpcb-rmesh/mt_generator.rmesh", "scpcb-rmesh/1499object0_opt.rmesh",
    "scpcb-rmesh/room3servers_opt.rmesh", "scpcb-rmesh/173_opt.rmesh",
    "scpcb-rmesh/exit1_opt.rmesh", "cbre-rmesh/forest_wall.rmesh", "cbre-rmesh/room966_opt.rmesh",
    "cbre-rmesh/endroom3_opt.rmesh", "cbre-rmesh/room079.rmesh",
    "cbre-rmesh/testroom_opt_lm4.rmesh", "rmesh-variants/scpcbredux_cube.rmesh"};

static char id[256];
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double rnd(void)  /* [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static const char *cid(const char *room, const char *what)
{
    snprintf(id, sizeof id, "rmesh.q.%s.%s", room, what);
    return id;
}

typedef struct room {
    const char *name;
    rrb_rmesh m;
    rrb_rm_soup soup;
    uint8_t *blob;
    size_t size;
    rr_room r;
    uint32_t arena[256];
    double unit;          /* world units per coord */
    double max_verr;      /* largest vertex error seen, coords */
    double bmin[3], bmax[3];
    long rays, hits, band, fails, box_checks, trig_checks;
} room;

/* ---- double reference ---- */

static void sub(double *r, const double *a, const double *b)
{
    r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; r[2] = a[2] - b[2];
}
static void crs(double *r, const double *a, const double *b)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
static double dt(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Signed margin of point p inside triangle v (plane normal n unit): min over
 * edges of the in-plane distance to the edge line, positive inside. */
static double margin(const double *v, const double *n, const double *p)
{
    double m = HUGE_VAL, e[3], w[3], c[3];
    int i;
    for (i = 0; i < 3; i++) {
        const double *a = v + 3 * i, *b = v + 3 * ((i + 1) % 3);
        double len, d;
        sub(e, b, a);
        sub(w, p, a);
        crs(c, n, e);          /* inward edge normal for CCW around n */
        len = sqrt(dt(c, c));
        d = dt(c, w) / len;
        if (d < m)
            m = d;
    }
    return m;
}

typedef struct refres {
    int strict, loose, parallel_band;
    double lo, hi;   /* allowed range for the hit distance */
} refres;

/* Reference for the ray o + s*dir, s in [0, maxd] (dir unit). */
static void reference(const room *rm, const double *o, const double *dir, double maxd,
                      refres *r)
{
    double eps = EPS_COORDS * rm->unit;
    size_t t;
    memset(r, 0, sizeof *r);
    r->lo = r->hi = HUGE_VAL;
    for (t = 0; t < rm->soup.ntris; t++) {
        const double *v = rm->soup.v + 9 * t;
        double e1[3], e2[3], n[3], w[3], p[3], len, cs, s, dist, m, slack;
        sub(e1, v + 3, v);
        sub(e2, v + 6, v);
        crs(n, e1, e2);
        len = sqrt(dt(n, n));
        if (len == 0)
            continue;
        n[0] /= len; n[1] /= len; n[2] /= len;
        sub(w, v, o);
        dist = dt(w, n);
        cs = dt(dir, n);
        if (fabs(cs) < 1e-3) {
            if (fabs(dist) < eps * 4)
                r->parallel_band = 1;
            continue;
        }
        s = dist / cs;
        slack = eps / fabs(cs);
        if (s < -slack || s > maxd + slack)
            continue;
        p[0] = o[0] + s * dir[0]; p[1] = o[1] + s * dir[1]; p[2] = o[2] + s * dir[2];
        m = margin(v, n, p);
        if (m < -eps)
            continue;
        r->loose = 1;
        if (s - slack < r->lo)
            r->lo = s - slack;
        if (m >= eps && s >= slack && s <= maxd - slack) {
            r->strict = 1;
            if (s + slack < r->hi)
                r->hi = s + slack;
        }
    }
}

/* Distance from p to triangle t of the soup (brute, via margin + plane). */
static double point_tri(const room *rm, size_t t, const double *p)
{
    const double *v = rm->soup.v + 9 * t;
    double e1[3], e2[3], n[3], w[3], len, h, m;
    sub(e1, v + 3, v);
    sub(e2, v + 6, v);
    crs(n, e1, e2);
    len = sqrt(dt(n, n));
    n[0] /= len; n[1] /= len; n[2] /= len;
    sub(w, p, v);
    h = fabs(dt(w, n));
    m = margin(v, n, p);
    return m >= 0 ? h : sqrt(h * h + m * m);
}

/* ---- setup ---- */

static int open_room(room *rm, const char *corpus, const char *name)
{
    char path[2048], err[RRB_ERR_MAX];
    uint8_t *data;
    size_t size;
    rrb_blob *b;
    rr_diag dg;
    rr_err e;
    int k;
    memset(rm, 0, sizeof *rm);
    rm->name = name;
    snprintf(path, sizeof path, "%s/%s", corpus, name);
    if (!strcmp(name, "sample"))
        rrb_rmesh_sample_model(&rm->m);
    else if (rrb_load_file(path, &data, &size, err, sizeof err) ||
             rrb_rmesh_read(data, size, path, &rm->m, err, sizeof err)) {
        plat_printf("%s\n", err);
        return -1;
    } else
        free(data);
    b = rrb_rmesh_bake_model(&rm->m, name, NULL, err, sizeof err);
    if (!b || rrb_blob_finish(b, 0, &rm->blob, &rm->size)) {
        plat_printf("bake %s: %s\n", name, err);
        rrb_blob_free(b);
        return -1;
    }
    rrb_blob_free(b);
    e = rr_open_diag(rm->blob, (uint32_t)rm->size, rm->arena, sizeof rm->arena, &rm->r, &dg);
    RT_EXPECT_EQ(cid(name, "open"), e, RR_OK);
    if (e) {
        plat_printf("  %s at 0x%x: %u vs %u\n", dg.what, dg.offset, dg.value, dg.limit);
        return -1;
    }
    rrb_rmesh_soup(&rm->m, 1.0, &rm->soup);
    rm->unit = ldexp(1.0, -(int)rm->r.coord_frac);
    for (k = 0; k < 3; k++) {
        rm->bmin[k] = HUGE_VAL;
        rm->bmax[k] = -HUGE_VAL;
    }
    for (size = 0; size < rm->soup.ntris * 9; size++) {
        k = (int)(size % 3);
        rm->bmin[k] = fmin(rm->bmin[k], rm->soup.v[size]);
        rm->bmax[k] = fmax(rm->bmax[k], rm->soup.v[size]);
    }
    return 0;
}

static void close_room(room *rm)
{
    rrb_rmesh_soup_free(&rm->soup);
    rrb_rmesh_free(&rm->m);
    free(rm->blob);
}

/* Head counts against the reader's own model (independent of the blob). */
static void check_counts(room *rm)
{
    const rr_rmesh_head *h;
    uint32_t i, nz = 0, vbad = 0, nbad = 0, sbad = 0, tvbad = 0, nverts = 0;
    const void *verts = NULL;
    RT_EXPECT_EQ(cid(rm->name, "head"), rr_rmesh_head_get(&rm->r, &h), RR_OK);
    RT_EXPECT_EQ(cid(rm->name, "verts"), rr_section(&rm->r, RR_SEC_RMESH_VERTS, &verts, &nverts),
                 RR_OK);
    RT_EXPECT_EQ(cid(rm->name, "tris+dropped"), h->ntris + h->dropped, rm->soup.ntris);
    RT_EXPECT_EQ(cid(rm->name, "triggers"), h->ntriggers, rm->m.ntrig);
    RT_EXPECT_EQ(cid(rm->name, "ents"), h->nents, rm->m.nents);
    RT_EXPECT_EQ(cid(rm->name, "surfs"), h->nsurfs, rm->m.nsurf + rm->m.ninvis + rm->m.nnocoll);
    for (i = 0; i < h->ntris; i++) {
        uint32_t tsrc;
        int32_t v[3][3];
        rr_vec3 n;
        double dv, bound = h->vshift ? (double)(1u << h->vshift) / 2 : 0.5, nerr = 0;
        int k;
        uint32_t surf = 0xffffffffu;
        rr_rmesh_triangle(&rm->r, i, &tsrc, v, &n);
        /* its vertex numbers name the same corners, decoded from VERTS as
         * the blob format says (coords = origin + q << vshift) */
        {
            uint32_t tv[3];
            int c;
            if (rr_rmesh_triangle_vertices(&rm->r, i, tv) != RR_OK)
                tvbad++;
            else
                for (c = 0; c < 9; c++) {
                    const rr_rmesh_vert *vx = (const rr_rmesh_vert *)verts + tv[c / 3];
                    tvbad += tv[c / 3] >= nverts ||
                             h->origin[c % 3] + ((int32_t)vx->q[c % 3] << h->vshift) !=
                                 v[c / 3][c % 3];
                }
        }
        if (tsrc >= rm->soup.ntris) {
            nz++;
            continue;
        }
        /* its surface (from the surfaces' runs of source triangles) is the
         * one the reader's collision soup gives its source triangle */
        rr_rmesh_triangle_surface(&rm->r, i, &surf);
        sbad += surf != rm->soup.surface[tsrc];
        /* each corner within the lattice bound of its source point: round
         * to the nearest lattice point, 2^vshift coords apart (0.5 coord at
         * vshift 0), plus the double's own error */
        for (k = 0; k < 9; k++) {
            dv = fabs(v[k / 3][k % 3] - rm->soup.v[9 * tsrc + (uint32_t)k] / rm->unit);
            if (dv > rm->max_verr)
                rm->max_verr = dv;
            vbad += dv > bound + 1e-6;
        }
        /* the normal, worked out by the loader from the corners (the blob
         * stores none): the unit normal of the corners in double, each
         * component within 2^-13 (the bound of docs/rmesh.md) */
        {
            double e1[3], e2[3], c[3], len, nv[3] = {n.x, n.y, n.z};
            for (k = 0; k < 3; k++) {
                e1[k] = (double)v[1][k] - v[0][k];
                e2[k] = (double)v[2][k] - v[0][k];
            }
            crs(c, e1, e2);
            len = sqrt(dt(c, c));
            for (k = 0; k < 3; k++)
                nerr = fmax(nerr, fabs(nv[k] / 65536.0 - c[k] / len));
            nbad += nerr > 1.0 / 8192 + 1e-12;
        }
    }
    RT_EXPECT_EQ(cid(rm->name, "src_range"), nz, 0);
    RT_EXPECT_EQ(cid(rm->name, "triangle_vertices"), tvbad, 0);
    /* A full blob names its triangles by key (rr_rmesh_tref), and the
     * queries break ties by comparing keys instead of source indices: that
     * is the same rule only if the keys are in source order. Each
     * triangle's source index (rr_rmesh_triangle, from the key; the corner
     * and surface checks above hold it to the reader's own soup) must grow
     * with its key, and two triangles never share a key. */
    {
        const void *p;
        uint32_t ntref = 0, *by_key, nkeys = 0, last = 0, first = 1, order_bad = 0;
        RT_EXPECT_EQ(cid(rm->name, "tref"), rr_section(&rm->r, RR_SEC_RMESH_TREF, &p, &ntref),
                     RR_OK);
        RT_EXPECT_EQ(cid(rm->name, "tref_count"), ntref, h->ntris);
        for (i = 0; i < ntref; i++)
            nkeys = ((const rr_rmesh_tref *)p)[i].key >= nkeys
                        ? ((const rr_rmesh_tref *)p)[i].key + 1u : nkeys;
        by_key = malloc((nkeys + 1) * sizeof *by_key);
        memset(by_key, 0xff, (nkeys + 1) * sizeof *by_key);
        for (i = 0; i < ntref; i++) {
            uint32_t s, key = ((const rr_rmesh_tref *)p)[i].key;
            int32_t v[3][3];
            rr_vec3 n;
            rr_rmesh_triangle(&rm->r, i, &s, v, &n);
            order_bad += by_key[key] != 0xffffffffu;   /* a key used twice */
            by_key[key] = s;
        }
        for (i = 0; i < nkeys; i++) {
            if (by_key[i] == 0xffffffffu)   /* no triangle: dropped, alpha or no-collision */
                continue;
            order_bad += !first && by_key[i] <= last;
            last = by_key[i];
            first = 0;
        }
        RT_EXPECT_EQ(cid(rm->name, "key_order"), order_bad, 0);
        free(by_key);
    }
    RT_EXPECT_EQ(cid(rm->name, "vertex_lattice_bound"), vbad, 0);
    RT_EXPECT_EQ(cid(rm->name, "normal_bound"), nbad, 0);
    RT_EXPECT_EQ(cid(rm->name, "surface"), sbad, 0);
    plat_printf("# %s: vertex lattice 2^%u coords, largest vertex error %d/1000 coords (bound "
                "%d/1000)\n", rm->name, h->vshift, (int)(rm->max_verr * 1000),
                (int)((h->vshift ? (double)(1u << h->vshift) / 2 : 0.5) * 1000));
    plat_printf("# %s: %zu collision tris, %u kept, %u zero-area dropped, %u nodes, depth %u, "
                "coord_frac %u, blob %zu bytes (source %zu)\n", rm->name, rm->soup.ntris,
                h->ntris, h->dropped, h->nnodes, rm->r.max_depth, rm->r.coord_frac, rm->size,
                rm->m.size);
}

/* Render data against the source surfaces: same triangles, exact colours,
 * diffuse UVs within 2^-(uv_frac+1), lightmap UVs within half the group's
 * step and within 2^-13 wherever the group's source lightmap UVs span less
 * than 65,519 / 65,536 per axis (rr_rmesh_blob.h; the span is measured
 * here from the source floats), each position within half a step of its
 * encoding (rr_rmesh_blob.h): 2^(vshift-1) coords for a vertex on a
 * collision vertex, 2^(pos_shift-1) for a render position (the source
 * floats are the reference; the decoded values come from
 * rr_rmesh_render_vertex, the encoding is read from the raw record). */
static void check_render(room *rm)
{
    const rr_rmesh_rhead *rh;
    const rr_rmesh_head *h;
    const rr_rmesh_rvert *raw;
    const void *p;
    uint32_t i, v, bad = 0, nraw = 0, ncoll = 0, lm_wide = 0;
    double perr = 0, uerr = 0, lmerr = 0, lbound, pbound;
    RT_EXPECT_EQ(cid(rm->name, "render"), rr_rmesh_render_head(&rm->r, &rh), RR_OK);
    if (!rh)
        return;
    rr_rmesh_head_get(&rm->r, &h);
    rr_section(&rm->r, RR_SEC_RMESH_RVERTS, &p, &nraw);
    raw = p;
    RT_EXPECT_EQ(cid(rm->name, "render.groups"), rh->ngroups, rm->m.nsurf + rm->m.nnocoll);
    lbound = ldexp(1.0, (int)h->vshift - 1) * rm->unit + 1e-9;
    pbound = ldexp(1.0, (int)rh->pos_shift - 1) * rm->unit + 1e-9;
    for (i = 0; i < rh->ngroups; i++) {
        const rr_rmesh_rgroup *g;
        const rrb_rm_surf *s = i < rm->m.nsurf ? &rm->m.surf[i] : &rm->m.nocoll[i - rm->m.nsurf];
        double ub0, ub1[2], lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
        int ax;
        rr_rmesh_render_group(&rm->r, i, &g);
        ub0 = ldexp(1.0, -(int)g->uv_frac - 1) + 1e-9;
        for (v = 0; v < s->nverts; v++)
            for (ax = 0; ax < 2; ax++) {
                lo[ax] = fmin(lo[ax], (double)s->verts[v].uv1[ax]);
                hi[ax] = fmax(hi[ax], (double)s->verts[v].uv1[ax]);
            }
        for (ax = 0; ax < 2; ax++) {   /* the record's half step, and the stated bound */
            ub1[ax] = ldexp((double)g->lm_step[ax], -17) + 1e-12;
            if (s->nverts && hi[ax] - lo[ax] < 65519.0 / 65536.0)
                ub1[ax] = fmin(ub1[ax], ldexp(1.0, -13) + 1e-12);
            else
                lm_wide += s->nverts > 0;
        }
        bad += g->nverts != s->nverts || g->nindices != 3 * s->ntris ||
               ((g->flags & RR_RMESH_GROUP_ALPHA) != 0) != rrb_rmesh_surf_alpha(s);
        if (g->nverts != s->nverts || g->nindices != 3 * s->ntris)
            continue;
        for (v = 0; v < g->nindices; v++) {   /* render vertex numbers: the group's from first_vert */
            uint32_t ix[3];
            rr_rmesh_render_triangle(&rm->r, i, v / 3, ix);
            bad += ix[v % 3] != g->first_vert + s->idx[v];
        }
        for (v = 0; v < g->nverts; v++) {
            rr_rmesh_vertex d;
            int k, on_lattice = raw[g->first_vert + v].pos < h->nverts;
            rr_rmesh_render_vertex(&rm->r, i, g->first_vert + v, &d);
            ncoll += (uint32_t)on_lattice;
            for (k = 0; k < 3; k++) {
                double c = d.pos[k] * rm->unit, e = fabs(c - (double)s->verts[v].pos[k]);
                perr = fmax(perr, e / (on_lattice ? lbound : pbound));
            }
            for (k = 0; k < 2; k++) {
                double lm = fabs(ldexp(d.uv1[k], -16) - (double)s->verts[v].uv1[k]);
                uerr = fmax(uerr, fabs(ldexp(d.uv0[k], -16) - (double)s->verts[v].uv0[k]) / ub0);
                uerr = fmax(uerr, lm / ub1[k]);
                lmerr = fmax(lmerr, lm);
            }
            bad += memcmp(d.rgb, s->verts[v].rgb, 3) != 0;
        }
    }
    RT_EXPECT_EQ(cid(rm->name, "render.exact"), bad, 0);
    RT_EXPECT(cid(rm->name, "render.pos_bound"), perr <= 1.0);
    RT_EXPECT(cid(rm->name, "render.uv_bound"), uerr <= 1.0);
    RT_EXPECT_EQ(cid(rm->name, "render.nverts"), nraw, rh->nverts);
    plat_printf("# %s: render %u groups, %u verts (%u on collision vertices, step 2^%u coords; "
                "%u render positions, step 2^%u), worst position error %u/1000 of its bound, "
                "smallest uv frac %u, largest lightmap UV error %u x 10^-7 (%u group axes span >= "
                "65519/65536)\n", rm->name, rh->ngroups, rh->nverts, ncoll, h->vshift,
                rh->npos, rh->pos_shift, (unsigned)(perr * 1000), rh->uv_frac, (unsigned)(lmerr * 1e7), lm_wide);
}

/* ---- rays ---- */

static void random_dir(double *d)
{
    double l;
    do {
        d[0] = rnd() * 2 - 1;
        d[1] = rnd() * 2 - 1;
        d[2] = rnd() * 2 - 1;
        l = dt(d, d);
    } while (l < 1e-4 || l > 1);
    l = sqrt(l);
    d[0] /= l; d[1] /= l; d[2] /= l;
}

static void random_origin(const room *rm, int k, double *o)
{
    int j;
    if (k % 2 == 0 || rm->soup.ntris == 0) {
        for (j = 0; j < 3; j++) {
            double ext = rm->bmax[j] - rm->bmin[j];
            o[j] = rm->bmin[j] - 0.1 * ext + rnd() * 1.2 * ext;
        }
        return;
    }
    /* a point near a random collision triangle (inside or outside it) */
    {
        size_t t = (size_t)(rnd() * (double)rm->soup.ntris);
        const double *v = rm->soup.v + 9 * t;
        double a = rnd(), b = rnd() * (1 - a), c = 1 - a - b, d[3];
        random_dir(d);
        for (j = 0; j < 3; j++)
            o[j] = a * v[j] + b * v[3 + j] + c * v[6 + j] + d[j] * (rm->bmax[j] - rm->bmin[j]) * 0.05;
    }
}

static int32_t qc(const room *rm, double v)
{
    return (int32_t)lround(v / rm->unit);
}

static void one_ray(room *rm, int k)
{
    double o[3], d[3], diag = 0, maxd, od[3], dd[3], len, p[3], dist;
    rr_rmesh_ray ray;
    rr_rmesh_hit hit;
    refres ref;
    int j, ok;
    random_origin(rm, k, o);
    random_dir(d);
    for (j = 0; j < 3; j++)
        diag += (rm->bmax[j] - rm->bmin[j]) * (rm->bmax[j] - rm->bmin[j]);
    maxd = sqrt(diag) * (0.05 + rnd() * 1.5);
    ray.origin[0] = qc(rm, o[0]); ray.origin[1] = qc(rm, o[1]); ray.origin[2] = qc(rm, o[2]);
    ray.dir.x = (rr_fix)lround(d[0] * 65536); ray.dir.y = (rr_fix)lround(d[1] * 65536);
    ray.dir.z = (rr_fix)lround(d[2] * 65536);
    ray.max_dist = qc(rm, maxd);
    /* the reference sees exactly the ray the loader gets */
    for (j = 0; j < 3; j++)
        od[j] = ray.origin[j] * rm->unit;
    dd[0] = ray.dir.x; dd[1] = ray.dir.y; dd[2] = ray.dir.z;
    len = sqrt(dt(dd, dd));
    dd[0] /= len; dd[1] /= len; dd[2] /= len;
    RT_EXPECT_EQ(cid(rm->name, "ray.err"), rr_rmesh_raycast(&rm->r, &ray, &hit), RR_OK);
    reference(rm, od, dd, ray.max_dist * rm->unit, &ref);
    rm->rays++;
    if (!ref.strict && (ref.loose || ref.parallel_band))
        rm->band++;
    if (!hit.hit) {
        ok = !ref.strict;
    } else {
        rm->hits++;
        dist = hit.dist * rm->unit;
        for (j = 0; j < 3; j++)
            p[j] = hit.point[j] * rm->unit;
        ok = (ref.loose || ref.parallel_band) &&
             (ref.parallel_band || (dist >= ref.lo - 2 * rm->unit && dist <= ref.hi + 2 * rm->unit)) &&
             point_tri(rm, hit.src, p) <= 2 * EPS_COORDS * rm->unit;
        /* its surface is the source triangle's, and its normal the unit
         * normal of the hit triangle's corners (double), within 2^-13 per
         * component, turned to face the ray's origin (d . n <= 0) */
        {
            uint32_t tsrc;
            int32_t v[3][3];
            rr_vec3 tn;
            double e1[3], e2[3], c[3], l, hn[3] = {hit.normal.x, hit.normal.y, hit.normal.z};
            double err = 0, side;
            rr_rmesh_triangle(&rm->r, hit.tri, &tsrc, v, &tn);
            for (j = 0; j < 3; j++) {
                e1[j] = (double)v[1][j] - v[0][j];
                e2[j] = (double)v[2][j] - v[0][j];
            }
            crs(c, e1, e2);
            l = sqrt(dt(c, c));
            side = dt(c, dd) > 0 ? -1 : 1;
            for (j = 0; j < 3; j++)
                err = fmax(err, fabs(hn[j] / 65536.0 - side * c[j] / l));
            ok = ok && hit.surface == rm->soup.surface[hit.src] && err <= 1.0 / 8192;
        }
    }
    if (!ok) {
        rm->fails++;
        if (rm->fails <= 5)
            plat_printf("  ray %d: fixed hit=%d dist=%.4f src=%u; ref strict=%d loose=%d "
                        "par=%d lo=%.4f hi=%.4f\n", k, hit.hit, hit.dist * rm->unit, hit.src,
                        ref.strict, ref.loose, ref.parallel_band, ref.lo, ref.hi);
    }
}

/* ---- box query ---- */

/* Triangle t (baked coords as doubles) vs box, separating axes with a
 * tolerance: returns 1 overlap by more than tol, 0 separated by more, -1 unsure. */
static int ref_tri_box(const double v[9], const double lo[3], const double hi[3], double tol)
{
    double c[3], e[3], p[9], f[9], ax[3], r, a, b, x, mn, mx;
    int i, j, k, unsure = 0, n;
    for (k = 0; k < 3; k++) {
        c[k] = (lo[k] + hi[k]) / 2;
        e[k] = (hi[k] - lo[k]) / 2;
    }
    for (i = 0; i < 9; i++)
        p[i] = v[i] - c[i % 3];
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            f[3 * i + k] = p[3 * ((i + 1) % 3) + k] - p[3 * i + k];
    for (n = 0; n < 13; n++) {
        if (n < 3) {
            ax[0] = ax[1] = ax[2] = 0;
            ax[n] = 1;
        } else if (n == 3) {
            crs(ax, f, f + 3);
        } else {
            double u[3] = {0, 0, 0};
            u[(n - 4) % 3] = 1;
            crs(ax, u, f + 3 * ((n - 4) / 3));
        }
        r = e[0] * fabs(ax[0]) + e[1] * fabs(ax[1]) + e[2] * fabs(ax[2]);
        a = dt(p, ax); b = dt(p + 3, ax); x = dt(p + 6, ax);
        mn = fmin(a, fmin(b, x));
        mx = fmax(a, fmax(b, x));
        j = (int)sqrt(dt(ax, ax) + 0.0);  /* scale of the axis */
        if (dt(ax, ax) == 0)
            continue;
        if (mn > r + tol * sqrt(dt(ax, ax)) || mx < -r - tol * sqrt(dt(ax, ax)))
            return 0;
        if (mn > r - tol * sqrt(dt(ax, ax)) || mx < -r + tol * sqrt(dt(ax, ax)))
            unsure = 1;
        (void)j;
    }
    return unsure ? -1 : 1;
}

static void one_box(room *rm)
{
    const rr_rmesh_head *h;
    uint32_t items[512], i, k, want = 0, got_ok = 1;
    int32_t lo[3], hi[3];
    double dl[3], dh[3], o[3];
    rr_rmesh_list out;
    char *mark;
    rr_rmesh_head_get(&rm->r, &h);
    random_origin(rm, 1, o);
    for (k = 0; k < 3; k++) {
        double ext = (rm->bmax[k] - rm->bmin[k]) * rnd() * 0.1;
        lo[k] = qc(rm, o[k] - ext);
        hi[k] = qc(rm, o[k] + ext);
        dl[k] = lo[k];
        dh[k] = hi[k];
    }
    out.items = items;
    out.cap = 512;
    RT_EXPECT_EQ(cid(rm->name, "box.err"), rr_rmesh_box_tris(&rm->r, lo, hi, &out), RR_OK);
    mark = calloc(h->ntris + 1, 1);
    for (i = 0; i < out.count; i++)
        mark[items[i]] = 1;
    for (i = 0; i < h->ntris; i++) {
        uint32_t tsrc;
        int32_t v[3][3];
        rr_vec3 n;
        double dv[9];
        int r;
        rr_rmesh_triangle(&rm->r, i, &tsrc, v, &n);
        for (k = 0; k < 9; k++)
            dv[k] = v[k / 3][k % 3];
        r = ref_tri_box(dv, dl, dh, 1e-3);
        want += r != 0;
        if (!out.truncated && ((r == 1 && !mark[i]) || (r == 0 && mark[i])))
            got_ok = 0;
    }
    RT_EXPECT(cid(rm->name, "box.match"), got_ok);
    RT_EXPECT(cid(rm->name, "box.truncated"), out.truncated ? want > 512 : out.count <= want);
    rm->box_checks++;
    free(mark);
}

/* ---- triggers, entities ---- */

static void trigger_points(room *rm)
{
    uint32_t t, j, v, n;
    for (n = 0; n < 500 && rm->m.ntrig; n++) {
        double p[3], lo[3], hi[3];
        int32_t q[3];
        uint32_t got, want = UINT32_MAX;
        int k, near = 0;
        random_origin(rm, 0, p);
        if (n % 2) {   /* half of the points inside the vertex box of a random trigger */
            const rrb_rm_mesh *s = &rm->m.trig[(size_t)(rnd() * rm->m.ntrig)].surf[0];
            if (s->nverts)
                for (k = 0; k < 3; k++) {
                    double a = s->pos[3 * (size_t)(rnd() * s->nverts) + (size_t)k];
                    double b = s->pos[3 * (size_t)(rnd() * s->nverts) + (size_t)k];
                    p[k] = a + rnd() * (b - a);
                }
        }
        for (k = 0; k < 3; k++)
            q[k] = qc(rm, p[k]);
        for (t = 0; t < rm->m.ntrig && want == UINT32_MAX; t++) {
            for (k = 0; k < 3; k++) {
                lo[k] = HUGE_VAL;
                hi[k] = -HUGE_VAL;
            }
            for (j = 0; j < rm->m.trig[t].nsurf; j++)
                for (v = 0; v < rm->m.trig[t].surf[j].nverts; v++)
                    for (k = 0; k < 3; k++) {
                        lo[k] = fmin(lo[k], rm->m.trig[t].surf[j].pos[3 * v + (uint32_t)k]);
                        hi[k] = fmax(hi[k], rm->m.trig[t].surf[j].pos[3 * v + (uint32_t)k]);
                    }
            for (k = 0; k < 3; k++)
                near |= fabs(q[k] * rm->unit - lo[k]) < 2 * rm->unit ||
                        fabs(q[k] * rm->unit - hi[k]) < 2 * rm->unit;
            if (q[0] * rm->unit > lo[0] && q[0] * rm->unit < hi[0] && q[1] * rm->unit > lo[1] &&
                q[1] * rm->unit < hi[1] && q[2] * rm->unit > lo[2] && q[2] * rm->unit < hi[2])
                want = t;
        }
        if (near)
            continue;
        if (rr_rmesh_trigger_at(&rm->r, q, &got) != RR_OK)
            got = UINT32_MAX;
        RT_EXPECT_EQ(cid(rm->name, "trigger"), got, want);
        rm->trig_checks += want != UINT32_MAX;
    }
}

static void nearest_entities(room *rm)
{
    int n, cls;
    for (n = 0; n < 50 && rm->m.nents; n++) {
        double p[3], best = HUGE_VAL;
        int32_t q[3];
        uint32_t i, got = UINT32_MAX, want = UINT32_MAX;
        random_origin(rm, 0, p);
        cls = n % (RR_RMESH_NCLASSES + 1);   /* RR_RMESH_NCLASSES: any class */
        for (i = 0; i < 3; i++)
            q[i] = qc(rm, p[i]);
        for (i = 0; i < rm->m.nents; i++) {
            const rrb_rm_entity *e = &rm->m.ents[i];
            double d = 0;
            int k;
            if ((cls != RR_RMESH_NCLASSES && e->cls != cls) || rrb_rmesh_entity_ignored(e))
                continue;
            for (k = 0; k < 3; k++)
                d += ((double)e->pos[k] - q[k] * rm->unit) * ((double)e->pos[k] - q[k] * rm->unit);
            if (d < best - 1e-9) {
                best = d;
                want = i;
            }
        }
        if (rr_rmesh_entity_nearest(&rm->r, (uint32_t)cls, q, &got) != RR_OK)
            got = UINT32_MAX;
        if (want != UINT32_MAX && got != want) {
            /* equal up to quantization? compare reference distances */
            const rrb_rm_entity *e = &rm->m.ents[got];
            double d = 0;
            int k;
            for (k = 0; k < 3; k++)
                d += ((double)e->pos[k] - q[k] * rm->unit) * ((double)e->pos[k] - q[k] * rm->unit);
            RT_EXPECT(cid(rm->name, "nearest.tie"), fabs(sqrt(d) - sqrt(best)) < 2 * rm->unit);
        } else {
            RT_EXPECT_EQ(cid(rm->name, "nearest"), got, want);
        }
    }
}

static void run_room(const char *corpus, const char *name, int nrays)
{
    room *rm = calloc(1, sizeof *rm);
    int k;
    if (open_room(rm, corpus, name)) {
        RT_EXPECT(cid(name, "setup"), 0);
        free(rm);
        return;
    }
    check_counts(rm);
    check_render(rm);
    for (k = 0; k < nrays; k++)
        one_ray(rm, k);
    for (k = 0; k < 40; k++)
        one_box(rm);
    trigger_points(rm);
    nearest_entities(rm);
    RT_EXPECT_EQ(cid(name, "ray.fails"), rm->fails, 0);
    plat_printf("# %s: %ld rays, %ld hits, %ld in the grazing band, %ld disagreements; "
                "%ld boxes; %ld in-trigger points\n", name, rm->rays, rm->hits, rm->band,
                rm->fails, rm->box_checks, rm->trig_checks);
    close_room(rm);
    free(rm);
}


/* ---- the tie rule: coplanar overlapping triangles ---- */

/* A writer-made room, one invisible mesh: two overlapping triangles in the
 * plane y = 0, A (source 0, x and z in 0..100) and B (source 1, -20..80),
 * plus TIE_FAR small far triangles along x (mirror -1: along -x): more
 * triangles in all than a leaf holds (the baker's 8), so the tree splits on
 * x and sorts B before A (mirror 1) or A before B (mirror -1). A
 * ray straight down at (10 mirror, 50, 10) meets both at distance 50, and so
 * does an ellipsoid falling there: the answer must be A, the lower source
 * index, whichever of the two the tree holds first. */
#define TIE_FAR 14
#define TIE_TRIS (2 + TIE_FAR)
static void tie_room(rrb_rmesh *m, float mirror, float *pos, uint32_t *idx, int visible)
{
    static const float ab[6][3] = {{0, 0, 0}, {100, 0, 0}, {0, 0, 100},
                                   {-20, 0, -20}, {80, 0, -20}, {-20, 0, 80}};
    uint32_t i;
    int k;
    memset(m, 0, sizeof *m);
    m->ninvis = 1;
    m->invis = calloc(1, sizeof *m->invis);
    m->invis->nverts = 3 * TIE_TRIS;
    m->invis->ntris = TIE_TRIS;
    m->invis->pos = pos;
    m->invis->idx = idx;
    for (i = 0; i < 6; i++)
        for (k = 0; k < 3; k++)
            pos[3 * i + (uint32_t)k] = (k == 0 ? mirror : 1.0f) * ab[i][k];
    for (i = 0; i < TIE_FAR; i++) {   /* far triangle i at x = 1000 + 100 i */
        float x = mirror * (1000.0f + 100.0f * (float)i);
        float t[9] = {x, 0, 0, x + mirror * 10.0f, 0, 0, x, 0, 10};
        memcpy(pos + 18 + 9 * i, t, sizeof t);
    }
    for (i = 0; i < 3 * TIE_TRIS; i++)
        idx[i] = i;
    if (!visible)
        return;
    /* the same triangles as one opaque visible surface: render triangles
     * too, so a full blob reads them by key (rr_rmesh_tref) */
    {
        static char empty[1];
        static rrb_rm_vert verts[3 * TIE_TRIS];
        static rrb_rm_surf s;
        memset(&s, 0, sizeof s);
        for (i = 0; i < 3 * TIE_TRIS; i++)
            memcpy(verts[i].pos, pos + 3 * i, 12);
        s.tex[0].s = s.tex[1].s = empty;
        s.nverts = 3 * TIE_TRIS;
        s.ntris = TIE_TRIS;
        s.verts = verts;
        s.idx = idx;
        m->ninvis = 0;
        m->nsurf = 1;
        m->surf = &s;
    }
}

/* Passes 0 and 1: the pair in an invisible mesh, baked --collision-only
 * (ties compare source indices); 2 and 3: in a visible surface, baked full
 * (ties compare keys, which follow the source order). */
static void check_ties(void)
{
    int pass;
    for (pass = 0; pass < 4; pass++) {
        float mirror = pass & 1 ? -1.0f : 1.0f, pos[3 * 3 * TIE_TRIS];
        uint32_t idx[3 * TIE_TRIS], a = 99, b = 99, i;
        rrb_rmesh m;
        rrb_opts o;
        rrb_blob *bb;
        uint8_t *blob;
        size_t size;
        char err[RRB_ERR_MAX];
        rr_room r;
        uint32_t ar[256];
        rr_rmesh_ray ray;
        rr_rmesh_hit hit;
        rr_rmesh_sweep sw;
        rr_rmesh_sweep_out so;
        uint32_t tsrc;
        int32_t f;
        tie_room(&m, mirror, pos, idx, pass >= 2);
        memset(&o, 0, sizeof o);
        o.collision_only = pass < 2;
        bb = rrb_rmesh_bake_model(&m, "tie.rmesh", &o, err, sizeof err);
        free(m.invis);
        RT_EXPECT(pass & 1 ? "rmesh.tie.bake_mirror" : "rmesh.tie.bake", bb != NULL);
        if (!bb)
            plat_printf("# tie pass %d: %s\n", pass, err);
        if (!bb)
            continue;
        rrb_blob_finish(bb, 0, &blob, &size);
        rrb_blob_free(bb);
        RT_EXPECT_EQ("rmesh.tie.open", rr_open(blob, (uint32_t)size, ar, sizeof ar, &r), RR_OK);
        for (i = 0; i < TIE_TRIS; i++) {
            int32_t v[3][3];
            rr_vec3 n;
            RT_EXPECT_EQ("rmesh.tie.tri", rr_rmesh_triangle(&r, i, &tsrc, v, &n), RR_OK);
            if (tsrc == 0)
                a = i;
            if (tsrc == 1)
                b = i;
        }
        /* the two builds hold the pair in opposite orders (else the test
         * could not tell the rules apart) */
        RT_EXPECT(pass & 1 ? "rmesh.tie.order_mirror" : "rmesh.tie.order", pass & 1 ? a < b : b < a);
        RT_EXPECT_EQ("rmesh.tie.full", rr_section(&r, RR_SEC_RMESH_TREF, &(const void *){0}, &i),
                     pass >= 2 ? RR_OK : RR_ERR_MISSING);
        f = (int32_t)r.coord_frac;
        memset(&ray, 0, sizeof ray);
        ray.origin[0] = (int32_t)mirror * (10 << f);
        ray.origin[1] = 50 << f;
        ray.origin[2] = 10 << f;
        ray.dir.y = -RR_FIX_ONE;
        ray.max_dist = 100 << f;
        RT_EXPECT_EQ("rmesh.tie.ray", rr_rmesh_raycast(&r, &ray, &hit), RR_OK);
        RT_EXPECT_EQ("rmesh.tie.ray.hit", hit.hit, 1);
        RT_EXPECT_EQ("rmesh.tie.ray.dist", hit.dist, 50 << f);
        RT_EXPECT_EQ("rmesh.tie.ray.src", hit.src, 0);
        RT_EXPECT_EQ("rmesh.tie.ray.tri", hit.tri, a);
        memset(&sw, 0, sizeof sw);
        memcpy(sw.from, ray.origin, sizeof sw.from);
        memcpy(sw.to, ray.origin, sizeof sw.to);
        sw.to[1] = -(50 << f);
        sw.radius[0] = sw.radius[1] = sw.radius[2] = 5 << f;
        sw.max_slides = 1;
        RT_EXPECT_EQ("rmesh.tie.sweep", rr_rmesh_sweep_move(&r, &sw, &so), RR_OK);
        RT_EXPECT_EQ("rmesh.tie.sweep.hit", so.hit, 1);
        RT_EXPECT_EQ("rmesh.tie.sweep.tri", so.tri, a);
        free(blob);
    }
}

/* ---- The ray cast's node test and hit rounding against exact references.
 * The loader's hooks (RR_DEBUG builds, rr_rmesh.c): */
int rr__rmesh_probe_seg_box(const int32_t ol[3], const int32_t d[3], int32_t nt,
                            uint32_t shift, const uint16_t l[6], const uint16_t r[6],
                            int *both);
int32_t rr__rmesh_probe_frac(int32_t m, uint32_t nt, uint32_t nd);
int32_t rr__rmesh_probe_scale(int32_t v, uint32_t m, uint32_t len);

/* a/b <= c/d for b, d > 0 (|a|, |c| < 2^40, b, d < 2^22) */
static int frac_le(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return a * d <= c * b;
}

/* floor(x / 2^30), written out (not a shift) */
static int64_t floor_q30(int64_t x)
{
    int64_t q = x / (1 << 30);
    return q * (1 << 30) > x ? q - 1 : q;
}

/* Does the segment ol + t h, t in [0, 1], meet the box [q_min 2^shift - 2,
 * q_max 2^shift + 2] (b: min[3], max[3])? Exact: the slabs' parameter
 * intervals as fractions. */
static int seg_meets_box(const int32_t ol[3], const int64_t h[3], uint32_t shift,
                         const uint16_t b[6])
{
    int64_t lo_n = 0, lo_d = 1, hi_n = 1, hi_d = 1;   /* t in [lo, hi] */
    int k;
    for (k = 0; k < 3; k++) {
        int64_t b0 = ((int64_t)b[k] << shift) - 2, b1 = ((int64_t)b[3 + k] << shift) + 2;
        int64_t n0 = b0 - ol[k], n1 = b1 - ol[k], dd = h[k];
        if (dd == 0) {
            if (n0 > 0 || n1 < 0)
                return 0;
            continue;
        }
        if (dd < 0) {   /* t from n1 / dd to n0 / dd: negate to a positive denominator */
            int64_t t = -n0;
            n0 = -n1;
            n1 = t;
            dd = -dd;
        }
        if (!frac_le(n0, dd, lo_n, lo_d)) {
            lo_n = n0;
            lo_d = dd;
        }
        if (frac_le(n1, dd, hi_n, hi_d)) {
            hi_n = n1;
            hi_d = dd;
        }
    }
    return frac_le(lo_n, lo_d, hi_n, hi_d);
}

static int32_t rnd_in(int32_t lo, int32_t hi)   /* [lo, hi] */
{
    return lo + (int32_t)(rt_rand() % (uint32_t)(hi - lo + 1));
}

/* Random segments and node pairs, small (many touching or just missing the
 * 2-coord margin) and at the overflow budget's limits: seg_box must equal
 * the exact reference (it is exact, so never rejects a box the segment
 * meets), seg_box2 must give both children's answers and, when both are
 * met, the order: the child that holds the origin first when just one
 * does, else the nearer-centre-first order ((c_l - c_r) . d <= 0 on the
 * lattice bounds). */
static void check_node_test(void)
{
    long met = 0, missed = 0, bad = 0, bad2 = 0, oin = 0, oedge = 0;
    int i;
    rt_seed = 12345u;
    for (i = 0; i < 400000; i++) {
        int big = i % 4 == 3;
        uint32_t shift = (uint32_t)rnd_in(0, big ? 2 : 3);
        int32_t qmax = big ? 65535 : 40, ext = big ? 65535 : 12, span = qmax << shift;
        int32_t ol[3], d[3], nt;
        int64_t h[3];
        uint16_t b[2][6];
        int k, j, got, both, want_l, want_r, lf, want2, inside = 0;
        int64_t s = 0;
        for (k = 0; k < 3; k++) {
            ol[k] = big ? rnd_in(-(1 << 19) + 1, (1 << 19) - 1) : rnd_in(-8, span + 8);
            d[k] = rt_rand() % 5 == 0 ? 0 : big ? rnd_in(-(1 << 20), 1 << 20) : rnd_in(-span - 16, span + 16);
            for (j = 0; j < 2; j++) {
                int32_t lo = rnd_in(0, qmax), hi = lo + rnd_in(0, ext);
                b[j][k] = (uint16_t)lo;
                b[j][3 + k] = (uint16_t)(hi > 65535 ? 65535 : hi);
            }
        }
        if (i % 3 == 1) {   /* the origin in l's box grown by 2, on its faces or just out */
            int edge = 0;
            for (k = 0; k < 3; k++) {
                int32_t lo = ((int32_t)b[0][k] << shift) - 2, hi = ((int32_t)b[0][3 + k] << shift) + 2;
                switch (rt_rand() % 6) {
                case 0: ol[k] = lo; edge = 1; break;
                case 1: ol[k] = hi; edge = 1; break;
                case 2: ol[k] = lo - 1; break;
                case 3: ol[k] = hi + 1; break;
                default: ol[k] = rnd_in(lo, hi); break;
                }
            }
            inside = 1;
            for (k = 0; k < 3; k++)
                if (ol[k] < ((int32_t)b[0][k] << shift) - 2 || ol[k] > ((int32_t)b[0][3 + k] << shift) + 2)
                    inside = 0;
            oin += inside;
            oedge += inside && edge;
        }
        if (i % 2)   /* aimed through near l's centre at about t = 1/2: many touch or just miss */
            for (k = 0; k < 3; k++)
                d[k] = 2 * ((((int32_t)b[0][k] + b[0][3 + k]) << shift) / 2 - ol[k]) +
                       rnd_in(-6, 6);
        for (k = 0; k < 3; k++)   /* the cast's bound on the segment vector */
            d[k] = d[k] > (1 << 20) ? (1 << 20) : d[k] < -(1 << 20) ? -(1 << 20) : d[k];
        nt = rt_rand() % 3 == 0 ? (1 << 30) : rnd_in(0, (1 << 30) + 1);
        for (k = 0; k < 3; k++)
            h[k] = floor_q30((int64_t)d[k] * nt);
        got = rr__rmesh_probe_seg_box(ol, d, nt, shift, b[0], b[1], &both);
        want_l = seg_meets_box(ol, h, shift, b[0]);
        want_r = seg_meets_box(ol, h, shift, b[1]);
        for (k = 0; k < 3; k++)
            s += ((int64_t)b[0][k] + b[0][3 + k] - b[1][k] - b[1][3 + k]) * d[k];
        lf = s <= 0;
        {   /* which of l and r hold the origin (their boxes grown by 2 coords) */
            int in[2] = {1, 1};
            for (j = 0; j < 2; j++)
                for (k = 0; k < 3; k++)
                    if (ol[k] < ((int32_t)b[j][k] << shift) - 2 ||
                        ol[k] > ((int32_t)b[j][3 + k] << shift) + 2)
                        in[j] = 0;
            if (in[0] != in[1])
                lf = in[0];
        }
        want2 = want_l | want_r << 1 | (want_l && want_r && lf) << 2;
        met += want_l;
        missed += !want_l;
        if (got != want_l && bad++ < 5)
            printf("FAIL seg_box: ol %d %d %d d %d %d %d nt %d shift %u box %u..%u %u..%u %u..%u: "
                   "got %d, exact %d\n", ol[0], ol[1], ol[2], d[0], d[1], d[2], nt, shift,
                   b[0][0], b[0][3], b[0][1], b[0][4], b[0][2], b[0][5], got, want_l);
        if (both != want2 && bad2++ < 5)
            printf("FAIL seg_box2: got %d, want %d\n", both, want2);
    }
    printf("# node test: %ld segment-box pairs met, %ld missed (origin in the box %ld times, "
           "%ld on its faces); %ld differ from the exact reference, %ld pair answers differ\n",
           met, missed, oin, oedge, bad, bad2);
    RT_EXPECT("rmesh.segbox.exact", bad == 0);
    RT_EXPECT("rmesh.segbox2.exact", bad2 == 0);
    RT_EXPECT("rmesh.segbox.both_kinds", met > 10000 && missed > 10000);
    /* the shortcut for a box that holds the origin (box_meets), on its
     * faces too */
    RT_EXPECT("rmesh.segbox.origin_inside", oin > 10000 && oedge > 5000);
}

/* The reference of both rounding checks below: a b / den by plain 64-bit
 * long division (a b < 2^53, den < 2^32), rounded half away from zero,
 * negated when neg (the loader's rule, rr__div_round64). */
static int64_t ref_round(uint64_t a, uint64_t b, uint64_t den, int neg)
{
    uint64_t num = a * b, q = num / den, rem = num % den;
    if (2 * rem >= den)
        q++;
    return neg ? -(int64_t)q : (int64_t)q;
}

/* One value of both rounding checks below: got against v b / den by
 * ref_round; counted in *n, a mismatch in *bad (the first five printed). */
static void check_one_round(const char *what, int32_t v, uint32_t b, uint32_t den, int32_t got,
                            long *n, long *bad)
{
    int64_t want = ref_round((uint64_t)(v < 0 ? -(int64_t)v : v), b, den, v < 0);
    (*n)++;
    if (got != want && (*bad)++ < 5)
        printf("FAIL %s: %d * %u / %u: got %d, want %lld\n", what, v, b, den, got,
               (long long)want);
}

/* The random cases of both rounding checks below: a divisor *den below
 * 2^32 (half of them large and odd, half of any size down to 1) and a
 * value *num in [0, *den], *den itself one time in eight. */
static void random_fraction(uint32_t *den, uint32_t *num)
{
    uint32_t d = rt_rand() % 2 ? rt_rand() | 1u : (rt_rand() >> (rt_rand() % 31)) + 1u;
    uint32_t x = (uint32_t)(((uint64_t)rt_rand() * d) >> 32);
    if (rt_rand() % 8 == 0)
        x = d;
    *den = d, *num = x;
}

/* The hit's values m nt / nd (|m| <= 2^20, nt <= nd < 2^32), rounded half
 * away from zero, against plain long division. */
static void check_hit_rounding(void)
{
    static const uint32_t nds[] = {1u, 2u, 3u, 7u, 65536u, 0x7fffffffu, 0x80000000u,
                                   0xfffffffeu, 0xffffffffu};
    static const int32_t ms[] = {0, 1, -1, 2, -3, 65536, 1 << 20, -(1 << 20), 12345, -54321};
    long bad = 0, n = 0;
    int i;
    rt_seed = 777u;
    for (i = 0; i < 300000; i++) {
        uint32_t nd, nt;
        int32_t m;
        if (i < 9 * 10 * 4) {   /* every pair of edge values, nt 0, nd, nd / 2 and nd - 1 */
            nd = nds[i % 9];
            m = ms[(i / 9) % 10];
            nt = (i / 90) == 0 ? 0 : (i / 90) == 1 ? nd : (i / 90) == 2 ? nd / 2 : nd - 1;
        } else {
            random_fraction(&nd, &nt);
            m = rnd_in(-(1 << 20), 1 << 20);
        }
        check_one_round("hit rounding", m, nt, nd, rr__rmesh_probe_frac(m, nt, nd), &n, &bad);
    }
    printf("# hit rounding: %ld values, %ld wrong\n", n, bad);
    RT_EXPECT("rmesh.hit_rounding", bad == 0);
}

/* The segment vector's components v m / len (|v| <= len < 2^32, 0 <= m <=
 * 2^20), rounded half away from zero, against plain long division of the
 * 52-bit product: edge values (v at 0, +-1, +-len, len - 1, INT32_MIN; len 1
 * to 2^32 - 1; m 0 to 2^20) and random ones. */
static void check_dir_scale(void)
{
    static const uint32_t lens[] = {1u, 2u, 3u, 65536u, 0x7fffffffu, 0x80000000u,
                                    0xdddb3d74u, 0xfffffffeu, 0xffffffffu};
    static const uint32_t ms[] = {0u, 1u, 2u, 3u, 1000u, 65536u, (1u << 20) - 1u, 1u << 20};
    long bad = 0, n = 0;
    int i;
    rt_seed = 4242u;
    for (i = 0; i < 300000; i++) {
        uint32_t len, m, a;
        int32_t v;
        if (i < 9 * 8 * 6) {   /* every pair of edge values, each v kind */
            len = lens[i % 9];
            m = ms[(i / 9) % 8];
            switch (i / 72) {
            case 0: a = 0; break;
            case 1: a = 1; break;
            case 2: a = len; break;
            case 3: a = len - 1; break;
            case 4: a = len / 2; break;
            default: a = len / 3; break;
            }
        } else {
            random_fraction(&len, &a);
            m = (uint32_t)rnd_in(0, 1 << 20);
        }
        if (a > 0x80000000u)   /* |v| of an int32 */
            a = 0x80000000u;
        v = (int32_t)(i % 2 ? 0u - a : a);
        if (i % 2 && a == 0x80000000u)
            v = INT32_MIN;
        else if (a == 0x80000000u)
            v = INT32_MAX, a = 0x7fffffffu;
        check_one_round("dir scale", v, m, len, rr__rmesh_probe_scale(v, m, len), &n, &bad);
    }
    printf("# segment vector rounding: %ld values, %ld wrong\n", n, bad);
    RT_EXPECT("rmesh.dir_scale", bad == 0);
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : getenv("CORPUS");
    const char *only = getenv("RT_ONLY");
    size_t i;
    if (!c)
        c = "../shared/corpus";
    check_ties();
    check_node_test();
    check_hit_rounding();
    check_dir_scale();
    run_room(c, "sample", 3000);
    for (i = 0; i < sizeof rooms / sizeof rooms[0]; i++)
        if (!only || strstr(rooms[i], only))
            run_room(c, rooms[i], 2000);
    return rt_done("test_rmesh_query");
}

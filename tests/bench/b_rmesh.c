/* b_rmesh.c - instruction counts of the RMesh queries (loader/rr_rmesh.h) on
 * the largest SCP - Containment Breach rooms (exit1_opt, 173_opt), each baked
 * twice: with --collision-only (rows exit1, r173: the TRIS records) and full
 * (rows exit1_full, r173_full: the default bake, whose collision triangles
 * are read through the render data), each against a brute-force pass over
 * every collision triangle measured in the same run on the same queries:
 *
 *   ray        rr_rmesh_raycast (BVH walk)
 *   ray_flat   rr_rmesh_raycast on the "flat" copy of the blob: the same room
 *              with its BVH cut to one leaf holding every triangle (made in
 *              RAM by make_flat below and opened with rr_open), so the
 *              loader's own code tests every triangle: brute force with the
 *              very same per-triangle math. The baseline of the ray rows.
 *   ray_bf     written here, a brute force that uses the loader only
 *              through its public API: each triangle's corner vertex
 *              numbers (rr_rmesh_triangle_vertices) and source index
 *              (rr_rmesh_triangle), gathered into RAM before anything is
 *              measured, the vertex array from rr_section(), the segment
 *              set up exactly as rr_rmesh_raycast does (dir scaled to
 *              max_dist with rr_isqrt64 / rr_shr_round64), then EVERY
 *              triangle through the same exact-integer double-sided
 *              Moeller-Trumbore test (64-bit products, hit when 0 <= u, v,
 *              u + v <= det and 0 <= t <= det), the nearest kept by an
 *              exact 128-bit comparison of t/det (ties: lowest source
 *              index), the distance
 *              rounded as the loader does. Vertices are decoded from the
 *              head's lattice (origin + q << vshift), as documented.
 *   sweep      rr_rmesh_sweep_move (the game's player collider, <= 4 slides)
 *   sweep_flat the same sweep on the flat copy: every triangle tested at
 *              every step (the loader has no brute-force sweep, and its
 *              contact tests are not public, so this is the brute force).
 * The answers are compared (ray_bf and ray_flat against ray: hit, triangle,
 * distance; sweep_flat against sweep: end point) and the agreement printed.
 *
 * Queries (the same xorshift seed on every board): rays start 64 units in
 * front of the centre of a random collision triangle (drawn by its source
 * index, so any blob layout gets the same queries) along its normal, in a
 * random direction, max_dist 2048 units; sweeps start 160 units in front of a
 * random triangle and move by up to +-256 units per axis, with the game's
 * player collider (radius 0.15 x 0.30 game units = 38 x 77 file units).
 * Protocol: "BENCH <label> <units> <baseline>" before each region (see
 * tests/bench/bench.sh). */
#include "rr.h"
#include "rr_rmesh.h"
#include "rr_plat.h"
#include "rr_test.h"
#include "rr_test_blobs.h"
#include "rt_rmesh_flat.h"

#define NRAYS 64
#define NSWEEPS 24

static int32_t spread(int32_t m)
{
    return (int32_t)(rt_rand() % (2u * (uint32_t)m + 1u)) - m;
}

static uint32_t arena[256], flat_arena[256];

/* The "flat" copy of a blob: the same room with a BVH of one leaf that
 * holds every triangle (see make_flat), so the loader's own ray cast and
 * sweep test every triangle with their own exact per-triangle code. */
#define FLAT_MAX (2u << 20)
static uint64_t flat[FLAT_MAX / 8];

/* The collision triangles as the public API gives them, gathered once per
 * room before anything is measured (rr_rmesh_triangle_vertices and the
 * source index of rr_rmesh_triangle), so the brute force and the query
 * choice read both kinds of blob alike: a collision-only blob's TRIS
 * records and a full blob's triangles read through its render data. */
#define MAX_TRIS 32768   /* the flat copy's one leaf holds at most 32,767 */
static uint16_t tri_v[MAX_TRIS][3];   /* corner vertex numbers (VERTS) */
static uint32_t tri_src[MAX_TRIS];    /* source triangle index */

typedef struct mesh {
    const rr_room *room;   /* for the triangles' normals (rr_rmesh_triangle) */
    const rr_rmesh_vert *v;
    uint32_t ntris;
    int32_t origin[3];   /* the vertex lattice (rr_rmesh_head) */
    uint32_t shift;
} mesh;

/* Corner j of triangle i in coords. */
static void corner(const mesh *m, uint32_t i, int j, int32_t p[3])
{
    int k;
    for (k = 0; k < 3; k++)
        p[k] = m->origin[k] + ((int32_t)m->v[tri_v[i][j]].q[k] << m->shift);
}

typedef struct bf_hit {
    int hit;
    uint32_t tri;
    int32_t dist;
} bf_hit;

/* a < b for unsigned 128-bit products: a1 * a2 < b1 * b2 (all < 2^63). */
static int prod_less(uint64_t a1, uint64_t a2, uint64_t b1, uint64_t b2)
{
    uint64_t x[2], y[2];
    uint64_t p[2][4];
    int k;
    for (k = 0; k < 2; k++) {
        uint64_t u = k ? b1 : a1, w = k ? b2 : a2;
        uint64_t u0 = u & 0xffffffffu, u1 = u >> 32, w0 = w & 0xffffffffu, w1 = w >> 32;
        uint64_t mid;
        p[k][0] = u0 * w0;
        p[k][1] = u0 * w1;
        p[k][2] = u1 * w0;
        p[k][3] = u1 * w1;
        mid = (p[k][0] >> 32) + (p[k][1] & 0xffffffffu) + (p[k][2] & 0xffffffffu);
        (k ? y : x)[0] = (mid << 32) | (p[k][0] & 0xffffffffu);
        (k ? y : x)[1] = p[k][3] + (p[k][1] >> 32) + (p[k][2] >> 32) + (mid >> 32);
    }
    return x[1] < y[1] || (x[1] == y[1] && x[0] < y[0]);
}

/* Brute-force ray cast (see the top of the file). */
__attribute__((noinline)) static void ray_bf(const mesh *m, const rr_rmesh_ray *ray, bf_hit *out)
{
    int64_t dx = ray->dir.x, dy = ray->dir.y, dz = ray->dir.z, md = ray->max_dist;
    uint64_t len = rr_isqrt64((uint64_t)(dx * dx) + (uint64_t)(dy * dy) + (uint64_t)(dz * dz));
    int32_t d[3];
    const int32_t *o = ray->origin;
    uint64_t bt = 0, bd = 0;
    uint32_t i, best = 0, best_src = 0;
    if (md > (1 << 20))
        md = 1 << 20;
    d[0] = (int32_t)rr_shr_round64(dx * md * 2 / (int64_t)len, 1);
    d[1] = (int32_t)rr_shr_round64(dy * md * 2 / (int64_t)len, 1);
    d[2] = (int32_t)rr_shr_round64(dz * md * 2 / (int64_t)len, 1);
    for (i = 0; i < m->ntris; i++) {
        int32_t v0[3], v1[3], v2[3], e1[3], e2[3], s[3];
        int64_t p0, p1, p2, a, u, v, tn;
        int k;
        corner(m, i, 0, v0);
        corner(m, i, 1, v1);
        corner(m, i, 2, v2);
        for (k = 0; k < 3; k++) {
            e1[k] = v1[k] - v0[k];
            e2[k] = v2[k] - v0[k];
            s[k] = o[k] - v0[k];
        }
        p0 = (int64_t)d[1] * e2[2] - (int64_t)d[2] * e2[1];
        p1 = (int64_t)d[2] * e2[0] - (int64_t)d[0] * e2[2];
        p2 = (int64_t)d[0] * e2[1] - (int64_t)d[1] * e2[0];
        a = p0 * e1[0] + p1 * e1[1] + p2 * e1[2];
        if (a == 0)
            continue;
        u = p0 * s[0] + p1 * s[1] + p2 * s[2];
        p0 = (int64_t)s[1] * e1[2] - (int64_t)s[2] * e1[1];
        p1 = (int64_t)s[2] * e1[0] - (int64_t)s[0] * e1[2];
        p2 = (int64_t)s[0] * e1[1] - (int64_t)s[1] * e1[0];
        v = p0 * d[0] + p1 * d[1] + p2 * d[2];
        tn = p0 * e2[0] + p1 * e2[1] + p2 * e2[2];
        if (a < 0) {
            a = -a;
            u = -u;
            v = -v;
            tn = -tn;
        }
        if (u < 0 || v < 0 || u + v > a || tn < 0 || tn > a)
            continue;
        /* nearer, or as near with a lower source index */
        if (bd && !prod_less((uint64_t)tn, bd, bt, (uint64_t)a) &&
            (prod_less(bt, (uint64_t)a, (uint64_t)tn, bd) || tri_src[i] >= best_src))
            continue;
        bt = (uint64_t)tn;
        bd = (uint64_t)a;
        best = i;
        best_src = tri_src[i];
    }
    out->hit = bd != 0;
    out->tri = best;
    out->dist = (int32_t)md;
    if (bd) {
        while (bd > 0xffffffffu) {
            bd >>= 1;
            bt >>= 1;
        }
        if (!bd)
            bd = 1;
        out->dist = (int32_t)((bt * (uint64_t)md + bd / 2) / bd);
    }
}

/* Copy the blob into RAM with its BVH cut down to the root turned into one
 * leaf of all triangles: NODES keeps 1 entry (the section table entry says
 * so; the rest of its bytes become an unused gap, which the container
 * allows), head.nnodes = 1, and the checksum is recomputed. rr_open checks
 * the result like any blob. Returns 0 on success. */
static int make_flat(const rr_test_blob *b, rr_room *out)
{
    uint32_t size = rt_rmesh_flat(b->data, b->size, (uint8_t *)flat, sizeof flat, 0);
    return size && rr_open(flat, size, flat_arena, sizeof flat_arena, out) == RR_OK ? 0 : -1;
}

/* The collision triangle with the lowest source index >= s (zero-area
 * source triangles are not baked): queries are chosen by source triangle,
 * so every blob layout of the same room gets the same queries (a layout
 * that drops other zero-area triangles changes only the queries that fall
 * on those). */
static uint32_t by_source(const mesh *m, uint32_t r)
{
    uint32_t i, s, best = 0, nsrc = 0;
    for (i = 0; i < m->ntris; i++)   /* the source triangles: the highest index + 1 */
        nsrc = tri_src[i] >= nsrc ? tri_src[i] + 1u : nsrc;
    s = r % nsrc;
    for (i = 0; i < m->ntris; i++)
        if (tri_src[i] >= s && (tri_src[best] < s || tri_src[i] < tri_src[best]))
            best = i;
    return best;
}

/* A point `units` file units in front of the centre of a random triangle. */
static void near_tri(const mesh *m, int32_t units, uint32_t frac, int32_t p[3])
{
    uint32_t i = by_source(m, rt_rand());
    uint32_t src;
    int32_t v[3][3];
    rr_vec3 nq;
    int k;
    rr_rmesh_triangle(m->room, i, &src, v, &nq);
    for (k = 0; k < 3; k++) {
        int32_t n16 = k == 0 ? nq.x : k == 1 ? nq.y : nq.z;
        /* the unit normal rounded to Q2.14, as blobs before schema 4 stored
         * it, so that the queries stay those of earlier runs */
        int64_t c = ((int64_t)v[0][k] + v[1][k] + v[2][k]) / 3;
        int64_t n14 = rr_shr_round64(n16, 2);
        p[k] = (int32_t)(c + ((n14 * units) << frac) / 16384);
    }
}

/* One room's queries and answers. */
typedef struct bench {
    rr_room room, flat_room;
    int flat_ok;
    mesh m;
    rr_rmesh_ray rays[NRAYS];
    rr_rmesh_sweep sw[NSWEEPS];
    rr_rmesh_hit hits[NRAYS];
    int32_t end[NSWEEPS][3];
} bench;

/* The queries (see the top of the file). */
static void make_queries(bench *q, uint32_t f)
{
    uint32_t i;
    int k;
    rt_seed = 0x6a09e667u;
    for (i = 0; i < NRAYS; i++) {
        rr_rmesh_ray *r = &q->rays[i];
        near_tri(&q->m, 64, f, r->origin);
        do {
            r->dir.x = spread(RR_FIX_ONE);
            r->dir.y = spread(RR_FIX_ONE);
            r->dir.z = spread(RR_FIX_ONE);
        } while (!r->dir.x && !r->dir.y && !r->dir.z);
        r->max_dist = 2048 << f;
    }
    for (i = 0; i < NSWEEPS; i++) {
        rr_rmesh_sweep *w = &q->sw[i];
        near_tri(&q->m, 160, f, w->from);
        for (k = 0; k < 3; k++)
            w->to[k] = w->from[k] + spread(256) * (1 << f);
        w->radius[0] = w->radius[2] = 38 << f;
        w->radius[1] = 77 << f;
        w->max_slides = 4;
    }
}

static int same_hit(int hit, uint32_t tri, int32_t dist, const rr_rmesh_hit *h)
{
    return hit == h->hit && (!hit || (tri == h->tri && dist == h->dist));
}

/* Rays: BVH, program's brute force, flat blob. Agreement into agree[0..1]. */
static uint32_t measure_rays(bench *q, const char *name, uint32_t agree[2])
{
    uint32_t i, hits = 0;
    for (i = 0; i < NRAYS; i++) {
        plat_printf("BENCH rmesh.ray:%s 0 rmesh.ray_flat:%s\n", name, name);
        rr_bench_start();
        rr_rmesh_raycast(&q->room, &q->rays[i], &q->hits[i]);
        rr_bench_stop();
        hits += (uint32_t)q->hits[i].hit;
    }
    for (i = 0; i < NRAYS; i++) {
        bf_hit bh;
        plat_printf("BENCH rmesh.ray_bf:%s 0 rmesh.ray_flat:%s\n", name, name);
        rr_bench_start();
        ray_bf(&q->m, &q->rays[i], &bh);
        rr_bench_stop();
        agree[0] += (uint32_t)same_hit(bh.hit, bh.tri, bh.dist, &q->hits[i]);
    }
    for (i = 0; q->flat_ok && i < NRAYS; i++) {
        rr_rmesh_hit fh;
        plat_printf("BENCH rmesh.ray_flat:%s 0 -\n", name);
        rr_bench_start();
        rr_rmesh_raycast(&q->flat_room, &q->rays[i], &fh);
        rr_bench_stop();
        agree[1] += (uint32_t)same_hit(fh.hit, fh.tri, fh.dist, &q->hits[i]);
    }
    return hits;
}

/* Sweeps: BVH, then flat blob; returns the slides, agreement into *agree. */
static uint32_t measure_sweeps(bench *q, const char *name, uint32_t *agree)
{
    uint32_t i, slides = 0;
    rr_rmesh_sweep_out so;
    int k;
    for (i = 0; i < NSWEEPS; i++) {
        plat_printf("BENCH rmesh.sweep:%s 0 rmesh.sweep_flat:%s\n", name, name);
        rr_bench_start();
        rr_rmesh_sweep_move(&q->room, &q->sw[i], &so);
        rr_bench_stop();
        slides += so.slides;
        for (k = 0; k < 3; k++)
            q->end[i][k] = so.pos[k];
    }
    for (i = 0; q->flat_ok && i < NSWEEPS; i++) {
        plat_printf("BENCH rmesh.sweep_flat:%s 0 -\n", name);
        rr_bench_start();
        rr_rmesh_sweep_move(&q->flat_room, &q->sw[i], &so);
        rr_bench_stop();
        *agree += so.pos[0] == q->end[i][0] && so.pos[1] == q->end[i][1] &&
                  so.pos[2] == q->end[i][2];
    }
    return slides;
}

static void bench_room(const rr_test_blob *b)
{
    static bench q;
    const rr_rmesh_head *h;
    const void *d;
    uint32_t n, agree[3] = {0, 0, 0}, hits, slides;
    rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &q.room);
    if (e) {
        plat_printf("%s: rr_open: %s\n", b->name, rr_strerror(e));
        return;
    }
    rr_rmesh_head_get(&q.room, &h);
    if (h->ntris > MAX_TRIS) {
        plat_printf("%s: %lu triangles, more than this bench holds\n", b->name,
                    (unsigned long)h->ntris);
        return;
    }
    for (n = 0; n < h->ntris; n++) {
        uint32_t v[3], k;
        int32_t p[3][3];
        rr_vec3 nq;
        if (rr_rmesh_triangle_vertices(&q.room, n, v) ||
            rr_rmesh_triangle(&q.room, n, &tri_src[n], p, &nq)) {
            plat_printf("%s: triangle %lu unreadable\n", b->name, (unsigned long)n);
            return;
        }
        for (k = 0; k < 3; k++)
            tri_v[n][k] = (uint16_t)v[k];
    }
    q.m.room = &q.room;
    q.m.ntris = h->ntris;
    rr_section(&q.room, RR_SEC_RMESH_VERTS, &d, &n);
    q.m.v = d;
    for (n = 0; n < 3; n++)
        q.m.origin[n] = h->origin[n];
    q.m.shift = h->vshift;
    q.flat_ok = make_flat(b, &q.flat_room) == 0;
    plat_printf("%s: %lu triangles, %lu vertices, %lu BVH nodes, depth %lu, coord_frac %lu\n",
                b->name, (unsigned long)h->ntris, (unsigned long)h->nverts,
                (unsigned long)h->nnodes, (unsigned long)q.room.max_depth,
                (unsigned long)q.room.coord_frac);
    make_queries(&q, q.room.coord_frac);
    hits = measure_rays(&q, b->name, agree);
    slides = measure_sweeps(&q, b->name, &agree[2]);
    plat_printf("%s: rays hit %lu/%d; BVH ray cast agrees with ray_bf on %lu/%d, with the "
                "flat blob on %lu/%d; sweeps slid %lu times, end at the same point as on the "
                "flat blob %lu/%d%s\n", b->name, (unsigned long)hits, NRAYS,
                (unsigned long)agree[0], NRAYS, (unsigned long)agree[1], NRAYS,
                (unsigned long)slides, (unsigned long)agree[2], NSWEEPS,
                q.flat_ok ? "" : " (no flat blob: too big)");
}

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        bench_room(&rr_test_blobs[i]);
    return 0;
}

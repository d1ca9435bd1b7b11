/* rr_rmesh.c - RMesh runtime: the ray cast and the box query of rr_rmesh.h,
 * what their answers are worked out with (plane normals, source indices,
 * surfaces) and the two accessors of one triangle's answers that read them.
 * The ellipsoid sweep is in rr_rmesh_sweep.c; rr_open's checks, reading the
 * mesh and the other accessors in rr_rmesh_open.c; what they share in
 * rr_rmesh_int.h. The overflow budget below is every query's.
 *
 * Data: collision vertices (16-bit points of the head's lattice: coords =
 * origin + q << vshift), triangles in BVH leaf order (16-bit vertex numbers
 * and source index in a collision-only blob; in a full blob a key that
 * names a render triangle or an explicit one, see tri_verts; plane normals
 * and surfaces are worked out, see plane_normal and surface_of),
 * a BVH in pre-order (left child = parent + 1, right child > left child,
 * bounds on the same lattice), see rr_rmesh_blob.h, whose schema rr_open
 * checks record by record (and rr_rmesh_open.c what a single field cannot
 * say).
 *
 * Overflow budget (why int64 is enough, and where int32 is): collision
 * vertices and node bounds are any 16-bit lattice points, origin + q <<
 * vshift with |origin| <= 2^17 (COORD-checked) and q << vshift < 2^18, so
 * |v| < 2^17 + 2^18 < 2^19 and edges |e| < 2^18 (the lattice's span);
 * nothing else about them needs checking. Ray cast (relative to the lattice
 * origin, edges in lattice steps |e| < 2^16): ray origins |o| <= 2^18, so
 * |o - origin| < 2^19 and s = o - v < 2^20; ray vectors |D| <= 2^20 per
 * component. Then p = D x e < 2^37, det = p . e < 2^55, u = p . s < 2^59,
 * q = s x e < 2^37, v = q . D < 2^59, u + v < 2^60 and det << vshift <
 * 2^57. The segment-box test's doubled coordinates stay below 2^22 (int32)
 * and their products below 2^45. Box query: doubled corners minus the
 * doubled centre < 2^21, SAT axes (edge x edge) < 2^37, their dot products
 * < 2^60. Sweeps: radii <= 2^14, steps <= the smallest radius; the
 * centre moves by the motion |to - from| < 2^20 plus at most 8 slides, each
 * removing at most the remaining motion (unit normals within 2^-13 of
 * length 1, see unit_normal), so it stays within 2^18 + 10 * 2^20 < 2^24
 * (int32 differences with stored points); plane distances are plane
 * normals (components <= 2^15, see plane_normal) x coords < 2^42; e-space values (1.0 = 2^12) of
 * the features a step can touch stay below 2^15, so the quadratics'
 * coefficients stay below 2^31 (int32, see rr_rmesh_sweep.c) and their
 * discriminants below 2^61.
 */
#define RR_INTERNAL
#include "rr_rmesh_int.h"

/* The longest ray segment, in coords (max_dist is clamped to it). */
#define DIST_MAX (1 << 20)

/* ------------------------------------------------------------------ */
/* Source indices, surfaces, corners (what the answers are made of)   */
/* ------------------------------------------------------------------ */

/* Of n records whose runs start at the 32-bit field first[k * stride]
 * (stride in words: the record size / 4), from 0 and never going back, the
 * last one whose run starts at or before key: the run that holds key. A
 * binary search (surfaces and render groups number up to 65,535); 0 when
 * n is 0. */
NOINLINE static uint32_t last_run_at(const uint32_t *first, uint32_t stride, uint32_t n,
                                     uint32_t key)
{
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {   /* run lo starts at or before key, run hi after it */
        uint32_t mid = lo + (hi - lo) / 2;
        if (first[mid * stride] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The surface of a triangle with source index src: the last surface whose
 * run of source triangles starts at or before src (rr_open checked that the
 * runs start at 0 and never go back, and that a room with triangles has a
 * surface). */
NOINLINE static uint32_t surface_of(const rr_room *room, uint32_t src)
{
    return last_run_at(&surfs_of(room)->first_src, sizeof(rr_rmesh_surf) / 4,
                       rr__count(room, RR_RMESH_S_surfs), src);
}

/* The source index of triangle t, once per answer: stored in TRIS, or for
 * a render triangle its place in its group's surface's run of source
 * triangles (the group's triangles are the surface's, in source order).
 * The groups tile the render indices in order (rr_open), so the group that
 * holds render triangle key is the last one that starts at or before it. */
NOINLINE static uint32_t tri_src(const rr_room *room, const mesh *m, uint32_t t)
{
    const rr_rmesh_rgroup *g = rgroups_of(room);
    uint32_t key;
    if (!m->tref)
        return m->tris[t].src;
    key = m->tref[t].key;
    if (key >= m->nrtris)
        return m->tris[key - m->nrtris].src;
    /* the group whose index run holds the key's first index 3 key (runs
     * of whole triangles from 0, so each starts at a multiple of 3) */
    g += last_run_at(&g->first_index, sizeof(rr_rmesh_rgroup) / 4,
                     rr__count(room, RR_RMESH_S_rgroups), 3 * key);
    return surfs_of(room)[g->surface].first_src + key - g->first_index / 3;
}

/* The three corners v (collision vertex numbers) of a triangle, in coords. */
NOINLINE static void corners(const mesh *m, const uint32_t v[3], int32_t p[3][3])
{
    int i;
    for (i = 0; i < 3; i++)
        vertex_coords(m, v[i], p[i]);
}

/* Small vectors: int32 inputs (differences of coords fit, see the budget),
 * int64 products. */
NOINLINE static void cross3(int64_t r[3], const int32_t a[3], const int32_t b[3])
{
    r[0] = (int64_t)a[1] * b[2] - (int64_t)a[2] * b[1];
    r[1] = (int64_t)a[2] * b[0] - (int64_t)a[0] * b[2];
    r[2] = (int64_t)a[0] * b[1] - (int64_t)a[1] * b[0];
}

NOINLINE static int64_t dot3(const int64_t a[3], const int32_t b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The plane normal of a triangle with edges e1, e2 (|e| < 2^18, in coords
 * or lattice steps), which the blob does not store: e1 x e2 (each component
 * below 2^37, exact in int64) scaled by a power of two and rounded so that
 * its largest component lies in [2^14, 2^15]. Every test that reads it is
 * the same for any positive multiple of it, and the scale keeps the
 * sweep's arithmetic in int32; its direction is within sqrt(3) / 2^15 of
 * the exact one. Zero only for a zero cross product (corners on one line),
 * which rr_open refuses. scale_normal (rr_rmesh_int.h) is the scaling,
 * shared with the sweep's own plane normal (sweep_plane). */

NOINLINE static void plane_normal(const int32_t e1[3], const int32_t e2[3], int32_t n[3])
{
    int64_t c[3];
    cross3(c, e1, e2);
    scale_normal(c, n);
}

/* ------------------------------------------------------------------ */
/* Ray cast                                                            */
/* ------------------------------------------------------------------ */

/* The earliest contact or hit so far: fraction t / d (d == 0: none yet) of
 * triangle i, whose tie key is key (tri_key, the tie rule below). */
typedef struct earliest {
    uint64_t t, d;
    uint32_t i, key;
} earliest;

/* The tests run relative to the lattice origin: ol = o - origin, and a
 * vertex is then q * step, which saves an addition per coordinate. */
typedef struct ray_work {
    int32_t o[3], d[3];     /* origin, whole segment vector (coords) */
    int32_t ol[3];          /* origin relative to the lattice origin (|ol| < 2^19) */
    /* The still-interesting part of the segment, ol to its end (relative
     * too), as the node test reads it: the sum of its ends (its doubled
     * centre), their difference and its size. Set up once per ray and again
     * only when a hit shortens the segment (set_end), not per node. */
    int32_t sum[3], h[3], ah[3];
    /* and its box grown by 2 coords, as lattice numbers (lattice_box): the
     * first test of a node (box_meets) and of a triangle (tri_outside) */
    int32_t blo[3], bhi[3];
    /* and the origin's box grown by 2 coords, as lattice numbers: a node
     * whose box holds the origin meets the segment (box_meets) */
    int32_t olo[3], ohi[3];
    earliest b;             /* nearest hit so far */
    uint32_t hits;          /* how many times a hit shortened the segment (< 2^16) */
    int32_t r[5];           /* ray_result's values, out of the cast's frame */
    uint32_t tv[3];         /* the corners (vertex numbers) of the triangle under test,
                             * out of the leaf loop's frame */
    mesh m;                 /* the room's arrays (out of the cast's frame) */
} ray_work;
typedef char rr__ray_area_fits[(sizeof(ray_work) + 4 <= RR_RMESH_SWEEP_BYTES) ? 1 : -1];

/* Take t / d of triangle i (tie key key) if it is earlier than b; 1 if
 * taken. Equal fractions (coplanar overlapping triangles, or a shared edge)
 * go to the lower key, that is the lower source index (tri_key), so the
 * answer does not depend on the order
 * in which the tree visits the leaves, that is on how it was built. The
 * fractions are compared exactly, as the 128-bit products t d_b and t_b d
 * (all values < 2^62, d > 0); the first hit of a ray is taken without
 * them. */
NOINLINE static int take(earliest *b, uint64_t t, uint64_t d, uint32_t i, uint32_t key)
{
    if (b->d) {
        uint64_t l1, l2, h1 = rr__mul128(t, b->d, &l1), h2 = rr__mul128(b->t, d, &l2);
        if (h1 > h2 || (h1 == h2 && (l1 > l2 || (l1 == l2 && key >= b->key))))
            return 0;
    }
    b->t = t;
    b->d = d;
    b->i = i;
    b->key = key;
    return 1;
}

/* Reduce t/d (t <= d) to 32-bit numbers with the same ratio up to 2^-31. */
static void narrow(uint64_t *t, uint64_t *d)
{
    while (*d > 0xffffffffu) {
        *d >>= 1;
        *t >>= 1;
    }
    if (*d == 0)
        *d = 1;
}

/* Moeller-Trumbore in exact integers, double-sided, with the edges in
 * lattice steps (e = q1 - q0, a load and a subtraction per coordinate) and
 * s = o - v0 in coords. Against the same test in coords each quantity is
 * scaled by a power of the step f = 2^shift: p = D x e2, u = p . s, q = s x
 * e1 and v = q . D by 1 / f, det = p . e1 and tn = q . e2 by 1 / f^2. So the
 * fraction t = tn / det is the same (and exact), and the barycentric test
 * u + v <= det in coords reads u + v <= det * f here. On a hit at
 * fraction *t / det in [0, 1], returns det > 0; 0 on a miss. */
NOINLINE static uint64_t ray_tri(const ray_work *w, const mesh *m, const uint32_t tv[3],
                                 uint64_t *t)
{
    const uint16_t *q0 = m->verts[tv[0]].q, *q1 = m->verts[tv[1]].q, *q2 = m->verts[tv[2]].q;
    int32_t e1[3], e2[3], s[3];
    int64_t p[3], a, a_f, u, v, tn;
    int k;
    for (k = 0; k < 3; k++) {   /* the edges, in lattice steps (|e| < 2^16) */
        e1[k] = q1[k] - q0[k];
        e2[k] = q2[k] - q0[k];
    }
    cross3(p, w->d, e2);            /* p = D x e2 */
    a = dot3(p, e1);
    if (a == 0)
        return 0;
    /* s = o - v0; on the back side v0 - o, which turns u, v and t (linear in s) */
    for (k = 0; k < 3; k++) {
        int32_t v0 = (int32_t)q0[k] << m->shift;
        s[k] = a < 0 ? v0 - w->ol[k] : w->ol[k] - v0;
    }
    if (a < 0)
        a = -a;
    a_f = a << m->shift;            /* det * f */
    u = dot3(p, s);
    if (u < 0 || u > a_f)           /* most misses end here, before q */
        return 0;
    cross3(p, s, e1);               /* q = s x e1 */
    v = dot3(p, w->d);
    if (v < 0 || u + v > a_f)
        return 0;
    tn = dot3(p, e2);
    if (tn < 0 || tn > a)
        return 0;
    *t = (uint64_t)tn;
    return (uint64_t)a;
}

/* The segment's end at fraction nt / 2^30 of d (nt <= 2^30 + 1): its sum,
 * difference and size for box_meets, and its box grown by 2 coords on the
 * lattice. Why 2 coords hold every point the walk still looks for: the
 * nearest hit so far lies at fraction tau <= nt / 2^30 (ray_leaf rounds
 * up), so on each axis between ol and ol + d nt / 2^30, and h = floor(d nt
 * / 2^30) is below the latter by less than one coord; a point of a later
 * hit at the same or an earlier fraction lies there too. */
NOINLINE static void set_end(ray_work *w, int32_t nt)
{
    int32_t lo[3], hi[3];
    int k;
    for (k = 0; k < 3; k++) {
        int32_t h = (int32_t)(((int64_t)w->d[k] * nt) >> 30);
        w->sum[k] = 2 * w->ol[k] + h;
        w->h[k] = h;
        w->ah[k] = h < 0 ? -h : h;
        lo[k] = h < 0 ? w->ol[k] + h : w->ol[k];
        hi[k] = h < 0 ? w->ol[k] : w->ol[k] + h;
        /* lattice_box's rule, in line (once per hit) */
        w->bhi[k] = (hi[k] + 2) >> w->m.shift;
        w->blo[k] = -((2 - lo[k]) >> w->m.shift);
    }
}

/* |c| > r: one test of box_meets' cross axes, in line (it runs for every
 * node the ray walk reaches, and a call per axis cost more than the test on
 * the ARM926). */
static inline int apart64(int64_t c, int64_t r)
{
    return (c < 0 ? -c : c) > r;
}

/* Does the segment (coords relative to the lattice origin) meet the bounds
 * of node nd (lattice steps: q << shift in the same coords) grown by 2
 * coords? Separating axes: the box axes x, y and z, then the three axes
 * edge x segment. Conservative in the sense that matters (never 0 for a box
 * that the segment meets within the 2-coord margin), because it is exact:
 *
 * - The box axes, on the lattice: the segment's interval [lo, hi] on an
 *   axis misses the box's [min << shift - 2, max << shift + 2] exactly when
 *   max << shift < lo - 2 or min << shift > hi + 2, that is (integers)
 *   max < blo = ceil((lo - 2) / 2^shift) or min > bhi = floor((hi + 2) /
 *   2^shift), set_end's lattice_box. Two halfword compares an axis, and
 *   the same answer as the doubled-coordinates form |c| > e + |h| that
 *   the cross axes use below (tests/host/test_rmesh_query.c checks both
 *   against an exact reference on random segments and boxes).
 * - The cross axes, doubled: c is the doubled distance of the centres, e
 *   the doubled box size (grown by 4), h the segment's difference; exact
 *   integers (budget at the top of the file).
 *
 * c receives the doubled centre distance when the box axes pass (seg_box2
 * orders the children by it). Returns 0 (missed), 1 (met) or 2 (met, and
 * the box holds the origin). In line: each call site is its own copy. */
static inline __attribute__((always_inline)) int box_meets(const ray_work *w,
                                                           const rr_rmesh_node *nd,
                                                           uint32_t shift, int32_t c[3])
{
    const int32_t *h = w->h, *ah = w->ah;
    int32_t cx, cy, cz, ex, ey, ez;
    /* The origin in the box (grown by 2 coords, on the lattice as below):
     * then the segment, which starts there, meets it, and every axis below
     * would pass. Near the root this holds for most nodes the walk tests
     * (about 60 % of the boxes that pass the box axes on 173_opt), and it
     * is six halfword compares against the three cross axes' 64-bit
     * products. The origin stays the segment's start when a hit shortens
     * the segment, so its box is set once per ray (ray_setup). */
    if (nd->min[0] <= w->ohi[0] && nd->max[0] >= w->olo[0] &&
        nd->min[1] <= w->ohi[1] && nd->max[1] >= w->olo[1] &&
        nd->min[2] <= w->ohi[2] && nd->max[2] >= w->olo[2]) {
        c[0] = w->sum[0] - (((int32_t)nd->min[0] + nd->max[0]) << shift);
        c[1] = w->sum[1] - (((int32_t)nd->min[1] + nd->max[1]) << shift);
        c[2] = w->sum[2] - (((int32_t)nd->min[2] + nd->max[2]) << shift);
        return 2;
    }
    if (nd->min[0] > w->bhi[0] || nd->max[0] < w->blo[0] ||
        nd->min[1] > w->bhi[1] || nd->max[1] < w->blo[1] ||
        nd->min[2] > w->bhi[2] || nd->max[2] < w->blo[2])
        return 0;
    c[0] = cx = w->sum[0] - (((int32_t)nd->min[0] + nd->max[0]) << shift);
    c[1] = cy = w->sum[1] - (((int32_t)nd->min[1] + nd->max[1]) << shift);
    c[2] = cz = w->sum[2] - (((int32_t)nd->min[2] + nd->max[2]) << shift);
    ex = (((int32_t)nd->max[0] - nd->min[0]) << shift) + 4;
    ey = (((int32_t)nd->max[1] - nd->min[1]) << shift) + 4;
    ez = (((int32_t)nd->max[2] - nd->min[2]) << shift) + 4;
    return !(apart64((int64_t)cy * h[2] - (int64_t)cz * h[1],
                     (int64_t)ey * ah[2] + (int64_t)ez * ah[1]) ||
             apart64((int64_t)cz * h[0] - (int64_t)cx * h[2],
                     (int64_t)ex * ah[2] + (int64_t)ez * ah[0]) ||
             apart64((int64_t)cx * h[1] - (int64_t)cy * h[0],
                     (int64_t)ex * ah[1] + (int64_t)ey * ah[0]));
}

/* One node: the root, and a pushed node popped after a hit. */
NOINLINE static int seg_box(const ray_work *w, const rr_rmesh_node *nd, uint32_t shift)
{
    int32_t c[3];
    return box_meets(w, nd, shift, c) != 0;
}

/* Both children l and r of a node, in one call (the walk's step): bit 0 set
 * when the segment meets l, bit 1 when it meets r, and when it meets both,
 * bit 2 when l goes first. When just one of them holds the origin, it goes
 * first: the ray is in it from the start, in the other only later (front to
 * back; on the M3 173_opt's rays -1.3 %, exit1_opt's +1.2 %). Otherwise the
 * child whose centre lies less far along the ray goes first: (C_l - C_r) . d <= 0 with doubled centres C, and C_l -
 * C_r = c_r - c_l with box_meets' doubled distances c = sum - C (|c| <
 * 2^22, |d| <= 2^20: the products fit int64). */
/* cl is read only when box_meets(l) returned 1, which wrote it; GCC cannot
 * see that through the merged returns (and zeroing cl first costs ~4 % of
 * a ray on the Cortex-M3: it moves cl out of registers). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
NOINLINE static int seg_box2(const ray_work *w, const rr_rmesh_node *l, const rr_rmesh_node *r,
                             uint32_t shift)
{
    int32_t cl[3], cr[3];
    int hit = box_meets(w, l, shift, cl), hr = box_meets(w, r, shift, cr);
    if (!hr)
        return hit != 0;
    if (!hit)
        return 2;
    if (hit != hr)   /* the one that holds the origin first */
        return 3 | (hit == 2) << 2;
    return 3 | ((int64_t)(cr[0] - cl[0]) * w->d[0] + (int64_t)(cr[1] - cl[1]) * w->d[1] +
                    (int64_t)(cr[2] - cl[2]) * w->d[2] <= 0) << 2;
}
#pragma GCC diagnostic pop

NOINLINE static void ray_leaf(ray_work *w, const mesh *m, const rr_rmesh_node *nd)
{
    uint32_t i, end = (uint32_t)nd->first + (nd->count & ~RR_RMESH_LEAF);
    uint64_t t, det;
    for (i = nd->first; i < end; i++) {
        tri_verts(m, i, w->tv);
        if (tri_outside(m, w->tv, w->blo, w->bhi) || !(det = ray_tri(w, m, w->tv, &t)) ||
            !take(&w->b, t, det, i, tri_key(m, i)))
            continue;
        /* the hit is kept (take); t / det, narrowed in place, now ends the
         * segment: ceil(t / det) in Q30, plus one step, so the box test stays
         * conservative (t <= det, so the end is <= 2^30 + 1) */
        narrow(&t, &det);
        t = (((t << 30) + det - 1) / det) + 1;
        set_end(w, (int32_t)t);
        w->hits++;
    }
}

/* Depth first, nearer child first. Both children of a node are tested
 * when the walk reaches it: one that the segment misses is never pushed,
 * and the order is worked out only when both are hit. A pushed node is
 * tested again when it is popped only if a hit has shortened the segment
 * since (the stack holds the hit count of its push in the high half).
 * Out of line, as is ray_result: the cast's frame then stays small (the
 * micro:bit's chain through the walk is 480 bytes of 512, 504 with both
 * merged into the cast), and the walk's loop keeps its registers whatever
 * the cast calls before and after it. */
NOINLINE static void ray_walk(const rr_room *room, const mesh *m, ray_work *w)
{
    const rr_rmesh_node *nodes = nodes_of(room);
    uint32_t *stack = query_stack(room), sp = 0, node = 0, e;
    if (!rr__count(room, RR_RMESH_S_nodes) || !seg_box(w, &nodes[0], m->shift))
        return;
    for (;;) {
        const rr_rmesh_node *nd = &nodes[node];
        if (nd->count & RR_RMESH_LEAF) {
            ray_leaf(w, m, nd);
        } else {
            uint32_t l = node + 1, r = nd->count;
            int met = seg_box2(w, &nodes[l], &nodes[r], m->shift);
            if (met >= 3) {   /* both: the nearer first, the other pushed */
                int lf = met == 7;
                stack[sp++] = (lf ? r : l) | w->hits << 16;
                node = lf ? l : r;
                continue;
            }
            if (met) {
                node = met == 1 ? l : r;
                continue;
            }
        }
        do {   /* the next pushed node the segment still meets */
            if (!sp)
                return;
            e = stack[--sp];
            node = e & 0xffffu;
        } while (e >> 16 != w->hits && !seg_box(w, &nodes[node], m->shift));
    }
}

/* The unit normal of triangle t, facing against direction d (d . n <= 0;
 * as its corners turn when d is zero): a ray hit's faces the ray's origin.
 * Out of line: its edges stay out of the cast's frame, which the deepest
 * chain (the walk, the leaf and the triangle test) runs under. */
NOINLINE static void facing_normal(const mesh *m, uint32_t t, const int32_t d[3],
                                   rr_vec3 *normal)
{
    int32_t e1[3], e2[3], n[3];
    uint32_t v[3];
    tri_verts(m, t, v);
    lattice_edges(m, v, e1, e2);
    plane_normal(e1, e2, n);
    unit_normal(n, dot64(n, d) > 0 ? -1 : 1, n);
    normal->x = n[0];
    normal->y = n[1];
    normal->z = n[2];
}

/* The accessors of one triangle's answers (rr_rmesh.h): they read what a
 * ray hit reads, its source index, surface and facing normal. */
rr_err rr_rmesh_triangle(const rr_room *room, uint32_t i, uint32_t *src, int32_t p[3][3],
                         rr_vec3 *normal)
{
    static const int32_t no_direction[3] = {0, 0, 0};
    mesh m;
    uint32_t v[3];
    rr_err e = rr__rmesh_triangle_args(room, src && p && normal, i, &m);
    if (e)
        return e;
    *src = tri_src(room, &m, i);
    rr__rmesh_tri_verts(&m, i, v);
    corners(&m, v, p);
    facing_normal(&m, i, no_direction, normal);
    return RR_OK;
}

rr_err rr_rmesh_triangle_surface(const rr_room *room, uint32_t i, uint32_t *surface)
{
    mesh m;
    rr_err e = rr__rmesh_triangle_args(room, surface != 0, i, &m);
    if (e)
        return e;
    *surface = surface_of(room, tri_src(room, &m, i));
    return RR_OK;
}

/* v b / den rounded half away from zero (rr__div_round64's value) for den
 * > 0, given recip = floor(b 2^s / den) worked out once for several v (one
 * 64-bit division instead of one per value), when a = |v| <= 2^s, a b <
 * 2^63 and a recip < 2^64. With x = a b / den, q = floor(a recip / 2^s) is
 * floor(x) or floor(x) - 1: recip is below b 2^s / den by less than 1, so
 * a recip / 2^s is below x by less than a / 2^s <= 1. The remainder r = a b
 * - q den (0 <= r < 2 den, exact) then says which: r >= den means q + 1.
 * Last the rounding: up when 2r >= den. Its two uses:
 * - ray_result: v = m (|m| <= 2^20), b / den = nt / nd (a narrowed hit
 *   fraction, nt <= nd < 2^32), s = 31: recip <= 2^31;
 * - ray_setup: v = a direction component, b = max_dist <= 2^20, den = its
 *   length (|v| <= den < 2^32), s = 32: a recip < b 2^32 <= 2^52.
 * Both are checked against long division on random and edge values by
 * test_rmesh_query. */
static int32_t mul_div_round(int32_t v, uint32_t b, uint32_t den, uint64_t recip, unsigned s)
{
    uint32_t a = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    uint32_t q = (uint32_t)((a * recip) >> s);
    uint64_t r = (uint64_t)a * b - (uint64_t)q * den;
    if (r >= den) {
        q++;
        r -= den;
    }
    if (r >= den - r)
        q++;
    return v < 0 ? -(int32_t)q : (int32_t)q;
}

/* The hit's answers, once per ray (out of line: see ray_walk). */
NOINLINE static void ray_result(const rr_room *room, ray_work *w, int32_t max_dist,
                                rr_rmesh_hit *hit)
{
    uint32_t src = tri_src(room, &w->m, w->b.i);
    uint64_t nt = w->b.t, nd = w->b.d;
    /* fraction (Q16), distance, the point o + d t: each a multiple of t */
    int32_t m[5] = {65536, max_dist, w->d[0], w->d[1], w->d[2]}, *r = w->r;
    int k;
    uint64_t f;
    narrow(&nt, &nd);
    f = (nt << 31) / nd;   /* nt <= nd < 2^32: f <= 2^31 */
    for (k = 0; k < 5; k++)   /* |m| <= 2^20 */
        r[k] = mul_div_round(m[k], (uint32_t)nt, (uint32_t)nd, f, 31);
    hit->hit = 1;
    hit->tri = w->b.i;
    hit->src = src;
    hit->surface = surface_of(room, src);
    hit->frac = r[0];
    hit->dist = r[1];
    for (k = 0; k < 3; k++)
        hit->point[k] = w->o[k] + r[2 + k];
    facing_normal(&w->m, w->b.i, w->d, &hit->normal);
}

/* The room's arrays into w->m, then the segment vector: dir scaled to
 * length max_dist (coords), rounded; the origin also relative to the
 * lattice origin. Out of line: its 64-bit
 * temporaries stay out of the cast's frame, which the deepest chain (the
 * walk, the leaf, the triangle test) runs under (micro:bit: 512 bytes). */
NOINLINE static rr_err ray_setup(const rr_room *room, const rr_rmesh_ray *ray, ray_work *w,
                                 int32_t *max_dist)
{
    const mesh *msh = &w->m;
    int32_t v[3] = {ray->dir.x, ray->dir.y, ray->dir.z}, m = ray->max_dist;
    /* |v_k|^2 <= 2^62 each: the sum of three needs the unsigned range; len
     * < 2^32 (sqrt(3) 2^31), and |v_k| <= len */
    uint32_t len = rr_isqrt64((uint64_t)((int64_t)v[0] * v[0]) +
                              (uint64_t)((int64_t)v[1] * v[1]) + (uint64_t)((int64_t)v[2] * v[2]));
    uint64_t g;
    int k;
    if (len == 0 || m < 0)
        return RR_ERR_ARG;
    rr__rmesh_mesh(room, &w->m);
    for (k = 0; k < 3; k++)
        if (ray->origin[k] < -ORIGIN_MAX || ray->origin[k] > ORIGIN_MAX)
            return RR_ERR_RANGE;
    if (m > DIST_MAX)
        m = DIST_MAX;
    *max_dist = m;
    g = ((uint64_t)m << 32) / len;
    for (k = 0; k < 3; k++) {
        w->d[k] = mul_div_round(v[k], (uint32_t)m, len, g, 32);   /* v m / len, rounded */
        w->o[k] = ray->origin[k];
        w->ol[k] = w->o[k] - msh->origin[k];
    }
    set_end(w, 1 << 30);   /* the whole segment */
    lattice_box(w->ol, w->ol, 2, msh->shift, w->olo, w->ohi);
    w->b.t = w->b.d = 0;   /* no hit yet (i is compared only when d != 0) */
    w->hits = 0;
    return RR_OK;
}

#ifdef RR_DEBUG
/* Test hooks (host builds with RR_DEBUG only; tests/host/test_rmesh_query.c
 * declares them): the node test and the hit's rounding, outside a room, so
 * a test can compare them with exact references on inputs it chooses. */

/* The segment from ol along d to fraction nt / 2^30 (set_end) against
 * nodes l and r (lattice numbers, step 2^shift): seg_box of l, and
 * seg_box2 of the pair in *both. */
int rr__rmesh_probe_seg_box(const int32_t ol[3], const int32_t d[3], int32_t nt,
                            uint32_t shift, const uint16_t l[6], const uint16_t r[6],
                            int *both);
int rr__rmesh_probe_seg_box(const int32_t ol[3], const int32_t d[3], int32_t nt,
                            uint32_t shift, const uint16_t l[6], const uint16_t r[6],
                            int *both)
{
    ray_work w;
    rr_rmesh_node nd[2];
    int k;
    for (k = 0; k < 3; k++) {
        w.ol[k] = ol[k];
        w.d[k] = d[k];
        nd[0].min[k] = l[k];
        nd[0].max[k] = l[3 + k];
        nd[1].min[k] = r[k];
        nd[1].max[k] = r[3 + k];
    }
    w.m.shift = (uint16_t)shift;   /* a lattice step, 0..RR_RMESH_VSHIFT_MAX */
    set_end(&w, nt);
    lattice_box(w.ol, w.ol, 2, shift, w.olo, w.ohi);   /* as ray_setup */
    *both = seg_box2(&w, &nd[0], &nd[1], shift);
    return seg_box(&w, &nd[0], shift);
}

/* ray_result's m nt / nd (mul_div_round with its recip). */
int32_t rr__rmesh_probe_frac(int32_t m, uint32_t nt, uint32_t nd);
int32_t rr__rmesh_probe_frac(int32_t m, uint32_t nt, uint32_t nd)
{
    return mul_div_round(m, nt, nd, ((uint64_t)nt << 31) / nd, 31);
}

/* ray_setup's segment vector component v m / len (mul_div_round with its recip;
 * |v| <= len, 0 <= m <= 2^20). */
int32_t rr__rmesh_probe_scale(int32_t v, uint32_t m, uint32_t len);
int32_t rr__rmesh_probe_scale(int32_t v, uint32_t m, uint32_t len)
{
    return mul_div_round(v, m, len, ((uint64_t)m << 32) / len, 32);
}
#endif

rr_err rr_rmesh_raycast(const rr_room *room, const rr_rmesh_ray *ray, rr_rmesh_hit *hit)
{
    ray_work *w;
    int32_t max_dist;
    rr_err e;
    if (!hit || !ray)
        return RR_ERR_ARG;
    hit->hit = 0;
    hit->frac = RR_FIX_ONE;
    if (!rr__rmesh_is(room))
        return RR_ERR_ARG;
    w = work_area(room);
    e = ray_setup(room, ray, w, &max_dist);
    if (e)
        return e;
    hit->dist = max_dist;
    ray_walk(room, &w->m, w);
    if (w->b.d)
        ray_result(room, w, max_dist, hit);
    return RR_OK;
}

/* ------------------------------------------------------------------ */
/* Box query                                                           */
/* ------------------------------------------------------------------ */

typedef struct box_work {
    int32_t c2[3], e2[3];   /* doubled centre and half extents (< 2^20) */
    int32_t rlo[3], rhi[3]; /* the box's lattice box (next_leaf) */
    int32_t v[3][3];        /* the corners of the triangle under test (coords) */
    mesh m;                 /* the room's arrays (out of the query's frame: the box
                             * query's chain is at the micro:bit's stack bound) */
} box_work;
typedef char rr__box_area_fits[(sizeof(box_work) + 4 <= RR_RMESH_SWEEP_BYTES) ? 1 : -1];

/* Separation along L of the doubled corners p[3][3] against the doubled
 * box: every corner beyond +r, or every corner beyond -r. */
static int separated(const box_work *b, const int32_t p[3][3], const int64_t l[3])
{
    int64_t r = 0;
    int i, above = 0, below = 0;
    for (i = 0; i < 3; i++)
        r += b->e2[i] * abs64(l[i]);
    for (i = 0; i < 3; i++) {
        int64_t d = dot3(l, p[i]);
        above += d > r;
        below += d < -r;
    }
    return above == 3 || below == 3;
}

/* The 13 separating axes of the SAT, one loop, each the cross product of
 * two of the vectors f: the triangle's edges f0..f2 (plain coords) and the
 * unit axes x, y, z (f3..f5). First the box axes (y x z = x, z x x = y,
 * x x y = z), then the triangle normal f0 x f1, then u x f_i for each edge
 * f_i and unit axis u = y, z, x. Any axis that separates rejects, so the
 * order only matters for speed: the cheap box axes first. */
NOINLINE static int tri_box(box_work *b, const mesh *m, uint32_t ti)
{
    static const uint8_t axes[13] = {0x45, 0x53, 0x34, 0x01, 0x40, 0x50, 0x30,
                                     0x41, 0x51, 0x31, 0x42, 0x52, 0x32};
    int32_t p[3][3], f[6][3];
    int64_t l[3];
    uint32_t tv[3];
    int i, a, k;
    rr__rmesh_tri_verts(m, ti, tv);
    corners(m, tv, b->v);
    for (i = 0; i < 3; i++) {
        const int32_t *v = b->v[i], *w = b->v[i == 2 ? 0 : i + 1];
        for (k = 0; k < 3; k++) {
            p[i][k] = 2 * v[k] - b->c2[k];
            f[i][k] = w[k] - v[k];
            f[3 + i][k] = i == k;
        }
    }
    for (a = 0; a < 13; a++) {
        cross3(l, f[axes[a] >> 4], f[axes[a] & 15]);
        if (separated(b, p, l))
            return 0;
    }
    return 1;
}

/* Returns 0 when the output is full. */
static int box_leaf(box_work *b, const mesh *m, const rr_rmesh_node *nd, rr_rmesh_list *out)
{
    uint32_t i, end = (uint32_t)nd->first + (nd->count & ~RR_RMESH_LEAF);
    for (i = nd->first; i < end; i++) {
        if (!tri_box(b, m, i))
            continue;
        if (out->count >= out->cap) {
            out->truncated = 1;
            return 0;
        }
        out->items[out->count++] = i;
    }
    return 1;
}

rr_err rr_rmesh_box_tris(const rr_room *room, const int32_t min[3], const int32_t max[3],
                         rr_rmesh_list *out)
{
    box_work *b;
    const rr_rmesh_node *nd;
    uint32_t sp = 0, node = 0;
    int k;
    if (!rr__rmesh_is(room) || !min || !max || !out || (out->cap && !out->items))
        return RR_ERR_ARG;
    out->count = 0;
    out->truncated = 0;
    b = work_area(room);
    rr__rmesh_mesh(room, &b->m);
    for (k = 0; k < 3; k++) {
        if (min[k] > max[k] || min[k] < -ORIGIN_MAX || max[k] > ORIGIN_MAX)
            return RR_ERR_RANGE;
        b->c2[k] = min[k] + max[k];
        b->e2[k] = max[k] - min[k];
        b->rlo[k] = min[k] - b->m.origin[k];
        b->rhi[k] = max[k] - b->m.origin[k];
    }
    lattice_box(b->rlo, b->rhi, 0, b->m.shift, b->rlo, b->rhi);
    while ((nd = next_leaf(room, &sp, &node, b->rlo, b->rhi)) != 0)
        if (!box_leaf(b, &b->m, nd, out))
            break;
    return RR_OK;
}

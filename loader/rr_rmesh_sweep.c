/* rr_rmesh_sweep.c - RMesh runtime: the ellipsoid sweep with sliding
 * (rr_rmesh_sweep_move), the game's player collider: collide and slide in
 * steps of at most the smallest radius, each tested against the triangles
 * near it in "e-space". The tree walk, the triangle reject and the small
 * vector helpers it shares with the ray cast and the box query
 * (rr_rmesh.c) are in rr_rmesh_int.h; reading the mesh is in
 * rr_rmesh_open.c. The overflow budget of every query is at the top of
 * rr_rmesh.c.
 */
#define RR_INTERNAL
#include "rr_rmesh_int.h"

/* ------------------------------------------------------------------ */
/* Ellipsoid sweep with sliding                                        */
/* ------------------------------------------------------------------ */

/* Contact tests run per step of at most the smallest radius, in "e-space":
 * relative to the ellipsoid centre and divided by the radii, with 1.0 = K.
 * Far-reaching triangles are handled without e-space vertices: the face test
 * uses the triangle's plane in world coords, edges are first clipped to the
 * region the step can touch.
 *
 * Ranges, which let e-space values and the quadratics' coefficients be int32
 * (the checks of rr_rmesh_sweep_move and rr_open give r_k in [16, 2^14] and
 * stored lattice points |p| < 2^19, edges shorter than 2^18):
 * - a step is at most the smallest radius, so |vel_k| <= r_k and the step
 *   motion in e-space |ve_k| <= K;
 * - the region is [lo, hi] = the swept box grown by r_k + SKIN, so a vertex
 *   in it is within 2 r_k + 2 of pos: e-space |b_k| <= 2K + 2K/16 = 8704;
 * - a clipped edge point is within 9 coords of the region (see clip): its
 *   offset is at most 2 r_k + 11, e-space |bv_k| <= 2K + 11K/16 = 11008, and
 *   the edge vector |e_k| <= 22016;
 * - so sums of three products stay below 2^31 (the tightest is the edge's
 *   b <= 2 (3 K 11008) + 2 (3K) (3 * 11008) < 1.1e9, see sweep_edge); only
 *   the discriminant and the root's multiples need int64. */
#define K_SHIFT 12
#define KK ((int32_t)1 << K_SHIFT)
#define SWEEP_RMIN 16
#define SWEEP_RMAX (1 << 14)
#define SKIN 2

/* Leaves sweep_list lists for the steps after it (node numbers, 16-bit
 * like the tree's links), and how many steps' motion its box covers. */
#define LEAVES 32
#define GATHER 4

typedef struct sweep_work {
    int32_t pos[3], vel[3], r[3];   /* step start, step motion, radii (coords) */
    int32_t ve[3];                  /* step motion in e-space, |ve_k| <= K */
    int32_t vv;                     /* and its squared length ve.ve <= 3 K^2 (the vertex and
                                     * edge quadratics' a) */
    int32_t lo[3], hi[3];           /* region the step can touch */
    int32_t bv[3], e[3];            /* scratch: clipped edge start and vector, e-space
                                     * (sweep_edge turns e into its unit vector) */
    uint32_t bt, bd, bi;            /* earliest contact so far: bt / bd (bd == 0: none) of
                                     * triangle bi, */
    int32_t n[3];                   /* its normal, Q16.16, facing the centre (written
                                     * once earlier() has said a contact is taken) */
    uint16_t bkey;                  /* its tie key (tri_key: keys and source indices are
                                     * 16-bit), */
    uint16_t ckey;                  /* and the one of the triangle tested (scratch) */
    int16_t q0[3], qj[3];           /* the e-space offsets of the triangle's corner 0 and
                                     * of the corner whose vertex and edge are tested
                                     * (|q_k| <= 8704; q_0 = OUTSIDE: not in the region) */
    int32_t tp[3][3], tn[3];        /* the triangle tested: corners (coords), normal (Q16) */
    int32_t rlo[3], rhi[3];         /* the region's lattice box (next_leaf) */
    int32_t tlo[3], thi[3];         /* and grown by REACH (tri_outside) */
    int32_t glo[3], ghi[3];         /* a lattice box that holds it, */
    uint16_t nleaf;                 /* the number of leaves whose bounds meet that box
                                     * (more than LEAVES: not listed), */
    uint16_t leaf[LEAVES];          /* and those leaves' node numbers, in the walk's order
                                     * (sweep_list) */
    mesh m;                         /* the room's arrays (out of the deep frames) */
} sweep_work;

/* Is the contact t / d of the triangle under test (tie key w->ckey)
 * earlier than the earliest so far (the rule of take(): equal fractions go
 * to the lower source index; two contacts of one triangle keep the first)?
 * Asked before the contact's unit normal is worked out, which most contacts
 * that are not the earliest then never need; the answer is the same in
 * any order of the triangles. Every sweep contact has t <= d < 2^31
 * (sweep_face, lowest_root), so the exact comparison needs only 64-bit
 * products. */
NOINLINE static int earlier(const sweep_work *w, uint32_t t, uint32_t d)
{
    uint64_t a = (uint64_t)t * w->bd, b = (uint64_t)w->bt * d;
    return !w->bd || a < b || (a == b && w->ckey < w->bkey);
}

/* Take the contact t / d (earlier() said so) of triangle ti; its normal
 * goes into w->n (the callers). */
NOINLINE static void offer(sweep_work *w, uint32_t t, uint32_t d, uint32_t ti)
{
    w->bt = t;
    w->bd = d;
    w->bi = ti;
    w->bkey = w->ckey;
}

static int32_t quot16(int64_t x, uint32_t d);

/* World unit normal (Q16) of an e-space direction g (any scale), into w->n.
 * g is first halved, truncating towards zero, until its largest |g_k| is
 * below 2^15: that is n = (bit length of the largest |g_k|) - 15 halvings,
 * done as one truncated division by 2^n (the same value as n truncated
 * halvings). The unit vector's components h_k 2^16 / |h| are at most 2^16
 * (len = floor(|h|) >= |h_k|), exactly 2^16 only when |h_k| = len; the
 * others are quotients below 2^16, which quot16 gives exactly without a
 * 64-bit division. */
NOINLINE static void world_normal(sweep_work *w, const int64_t g[3])
{
    uint64_t m = (uint64_t)(abs64(g[0]) | abs64(g[1]) | abs64(g[2]));
    int32_t h[3];   /* |h| < 2^15 * 2^14 / 16 = 2^25 */
    uint32_t len;
    int k, n = m >> 15 ? rr__top_bit64(m) - 14 : 0;
    for (k = 0; k < 3; k++) {
        /* |g_k| / 2^n < 2^15 */
        int32_t v = (int32_t)((uint64_t)(g[k] < 0 ? -g[k] : g[k]) >> n);
        h[k] = ((g[k] < 0 ? -v : v) * 16384) / w->r[k];   /* e-space -> world gradient */
    }
    len = len3(h);
    for (k = 0; k < 3; k++) {
        uint32_t a = (uint32_t)(h[k] < 0 ? -h[k] : h[k]);
        if (!len)
            w->n[k] = 0;
        else if (a == len)
            w->n[k] = h[k] < 0 ? -65536 : 65536;
        else
            w->n[k] = quot16((int64_t)h[k] * 65536, len);
    }
}

/* A contact at num / den whose direction (centre minus feature point, any
 * scale) is g: take it if it is the earliest. An edge or vertex lies in
 * its triangle's plane, so its contact comes no earlier than the plane's
 * (pt / pd, pd == 0: none, the ellipsoid already cuts the plane); when
 * rounding puts it earlier (by a fraction of a coord), it is taken at the
 * plane's time. That is what lets sweep_tri skip the edges of a triangle
 * whose plane is reached no earlier than the earliest contact so far. */
static void contact(sweep_work *w, const int64_t g[3], uint32_t num, uint32_t den,
                    uint32_t ti, uint32_t pt, uint32_t pd)
{
    if (pd && (uint64_t)num * pd < (uint64_t)pt * den) {   /* all < 2^31 */
        num = pt;
        den = pd;
    }
    if (!earlier(w, num, den))
        return;
    world_normal(w, g);
    offer(w, num, den, ti);
}

/* Lowest root in [0, 1] of a t^2 + b t + c = 0 as num / den; 0 if none.
 * For every feature a = -|v|^2 (a vertex) or -|v x e|^2 (an edge, e its
 * unit vector) is at most 0; rounding can lift an edge's a above 0 when
 * the step runs along it, which counts as 0: no motion relative to the
 * edge's line (its ends are vertices of their own). Turned over so that
 * c < 0 means "already inside" (then b < 0 = getting deeper, which is a
 * contact at t = 0). The callers' |a| <= 1.6e8 and |b|, |c| <= 1.2e9, so
 * b^2 - 4 a c < 1.5e18 + 7.7e17 stays below 2^63. */
NOINLINE static int lowest_root(const sweep_work *w, int32_t a, int32_t b, int32_t c,
                                uint32_t *num, uint32_t *den)
{
    int64_t disc, t;
    if (a >= 0)                   /* no motion relative to the feature */
        return 0;
    a = -a;
    b = -b;
    c = -c;
    if (c < 0) {                  /* already closer than 1: contact now if approaching */
        if (b >= 0)
            return 0;
        *num = 0;
        *den = 1;
        return 1;
    }
    /* the lower root -b - sqrt(disc) (doubled) is negative when b > 0 (c >= 0
     * here, so sqrt(disc) <= |b|) */
    if (b > 0)
        return 0;
    /* The lower root t1 is at least c / -b: t1 (-b + sqrt(disc)) = 2c and
     * sqrt(disc) <= -b. The root worked out below, with the square root
     * rounded down, is no earlier than t1. So when c / -b is already later
     * than the earliest contact so far (c, -b, bt, bd < 2^31), the contact
     * would not be taken (earlier()): no need for its square root. */
    if (w->bd && (uint64_t)c * w->bd > (uint64_t)w->bt * (uint32_t)-b)
        return 0;
    disc = (int64_t)b * b - 4 * (int64_t)a * c;
    if (disc < 0)
        return 0;
    /* and beyond 1 (t > 2a) unless isqrt(disc) >= m = -b - 2a, that is disc >=
     * m^2 (m < 2^31): both decided without the square root, which most edges
     * and vertices the step reaches then never need */
    t = -(int64_t)b - 2 * (int64_t)a;
    if (t > 0 && disc < t * t)
        return 0;
    t = -(int64_t)b - (int64_t)rr_isqrt64((uint64_t)disc);
    if (t < 0 || t > 2 * (int64_t)a)
        return 0;
    *num = (uint32_t)t;
    *den = 2 * (uint32_t)a;
    return 1;
}

static int32_t dot3i(const int32_t a[3], const int32_t b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Clip segment a-b to the region and store its e-space start w->bv and
 * vector w->e; 0 if nothing is left. The kept part is widened by one step
 * of 2^-16 at each end, and rounding adds less than one coord, so with
 * |b - a| <= 2^18 every kept point lies within 2 * 2^18 / 2^16 + 1 = 9
 * coords of the region: its offset from pos is at most 2 r_k + 11 < 2^15,
 * times K below 2^28. */
/* An edge whose ends both lie beyond the same side of the region on one
 * axis, the nearer end m >= 1 coords beyond it, keeps nothing in clip()
 * when m 2^15 >= |d|, d its extent along that axis. Say both ends lie
 * above hi. If the edge runs upwards (d > 0, a the nearer end) it leaves
 * the slab at (hi - a) 2^16 / d = -m 2^16 / d <= -2, at most -2 after
 * truncation towards zero and -1 widened: s1 < 0 <= s0. If it runs
 * downwards (b the nearer end, a - hi = m + |d|) it enters at (a - hi)
 * 2^16 / |d| = 2^16 + m 2^16 / |d| >= 2^16 + 2, at least 2^16 + 1 widened:
 * s0 > 2^16 >= s1. If d = 0, clip() drops it as outside the slab. Below
 * lo likewise; the other axes only narrow [s0, s1]. Every m > CLIP_OUT
 * qualifies (|d| < 2^18 = 8 * 2^15), which keeps m 2^15 within 32 bits.
 * sweep_tri asks this (clip_out, the three axes at once) before it calls
 * clip() for an edge with neither end in the region: it drops about 60 %
 * of them, which then skip clip()'s call and set-up. */
#define CLIP_OUT 8
NOINLINE static int clip(sweep_work *w, const int32_t a[3], const int32_t b[3])
{
    int64_t s[2] = {0, 65536};   /* the kept part [s0, s1] of a-b, in 2^-16 */
    int k, j;
    for (k = 0; k < 3; k++) {
        int32_t d = b[k] - a[k];   /* |d| <= 2^18, |lo|, |hi| < 2^25 */
        int inside_a = a[k] >= w->lo[k] && a[k] <= w->hi[k];
        if (d == 0) {
            if (!inside_a)
                return 0;
            continue;
        }
        /* both ends inside the slab: the divisions below would leave s as it
         * is (entering at <= -1, leaving at >= 65537), so skip them */
        if (inside_a && b[k] >= w->lo[k] && b[k] <= w->hi[k])
            continue;
        for (j = 0; j < 2; j++) {   /* where a-b enters the slab (j = 0), leaves it (1) */
            int32_t to = (j ^ (d < 0) ? w->hi[k] : w->lo[k]) - a[k];
            /* to 2^16 / d, widened by one step (conservative); in 32 bits
             * when to 2^16 fits them (the same quotient, truncated towards
             * zero either way), which spares most edges a 64-bit division */
            int64_t x = (to > -32768 && to < 32768 ? (to * 65536) / d
                                                   : ((int64_t)to * 65536) / d) + 2 * j - 1;
            if (j ? x < s[1] : x > s[0])
                s[j] = x;
        }
    }
    if (s[0] > s[1])
        return 0;
    for (k = 0; k < 3; k++) {
        int32_t d = b[k] - a[k], q[2];
        for (j = 0; j < 2; j++) {   /* 0 <= s0 <= s1 <= 2^16: 32 x 32-bit products */
            int32_t p = (int32_t)(a[k] + ((int64_t)d * (int32_t)s[j]) / 65536 - w->pos[k]);
            q[j] = (p * KK) / w->r[k];
            if (d == 0) {   /* a vertex, or an edge across this axis: one point */
                q[1] = q[0];
                break;
            }
        }
        w->bv[k] = q[0];
        w->e[k] = q[1] - q[0];
    }
    return 1;
}

/* Both ends of a-b beyond one side of the region on some axis, the nearer
 * m coords beyond it with m 2^15 >= |d| (see CLIP_OUT): clip() would keep
 * nothing of it. */
static inline int clip_out(const sweep_work *w, const int32_t a[3], const int32_t b[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        int32_t d = b[k] - a[k], m;
        if (a[k] > w->hi[k] && b[k] > w->hi[k])
            m = (a[k] < b[k] ? a[k] : b[k]) - w->hi[k];
        else if (a[k] < w->lo[k] && b[k] < w->lo[k])
            m = w->lo[k] - (a[k] > b[k] ? a[k] : b[k]);
        else
            continue;
        if (m > CLIP_OUT || m * 32768 >= (d < 0 ? -d : d))
            return 1;
    }
    return 0;
}

/* clip() for an edge with one end in the region: END_A, a is (its e-space
 * offset, from corner_q, is in w->bv); END_B, b is (offset in w->qj).
 * clip() keeps such an edge from that end on, and only the crossings at
 * the other end's side are worked out here. When a is in the region, each
 * slab's entering crossing lies at or before a (the boundary behind a is
 * at to = lo - a <= 0 for d > 0, hi - a >= 0 for d < 0: a quotient <= 0,
 * widened to <= -1, below s0 = 0) and each leaving one after it (a
 * quotient >= 0, widened to >= 1): clip() ends with s0 = 0 <= s1, the
 * kept part starts at a, and its offset (a + 0 - pos) K / r_k is
 * corner_q's. When b is in it, each leaving crossing lies at or beyond b
 * (|to| >= |d| with the sign of d: a quotient >= 2^16, widened to >= 2^16
 * + 1) and each entering one before it: s1 = 2^16 >= s0, and the kept part
 * ends at b (a + d - pos). So w->bv and w->e get clip()'s values. */
#define END_A 1
#define END_B 2
NOINLINE static void clip_end(sweep_work *w, const int32_t a[3], const int32_t b[3], int ends)
{
    int64_t s = ends == END_A ? 65536 : 0;   /* clip()'s s1 (END_A) or s0 (END_B) */
    int k;
    for (k = 0; k < 3; k++) {
        int32_t d = b[k] - a[k], out = ends == END_A ? b[k] : a[k], to;
        int64_t x;
        /* an axis along which the edge does not move, or whose slab holds the
         * other end too (then both ends): no crossing, as in clip() */
        if (d == 0 || (out >= w->lo[k] && out <= w->hi[k]))
            continue;
        /* where a-b leaves the slab (END_A) or enters it (END_B): clip()'s
         * quotient, widened by one step */
        to = ((ends == END_A) ^ (d < 0) ? w->hi[k] : w->lo[k]) - a[k];
        x = to > -32768 && to < 32768 ? (to * 65536) / d : ((int64_t)to * 65536) / d;
        if (ends == END_A) {
            x += 1;
            s = x < s ? x : s;
        } else {
            x -= 1;
            s = x > s ? x : s;
        }
    }
    for (k = 0; k < 3; k++) {   /* 0 <= s <= 2^16: a 32 x 32-bit product */
        int32_t d = b[k] - a[k], in = ends == END_A ? w->bv[k] : w->qj[k], q = in;
        if (d != 0)   /* clip()'s point a + d s / 2^16 */
            q = ((int32_t)(a[k] + ((int64_t)d * (int32_t)s) / 65536 - w->pos[k]) * KK) /
                w->r[k];
        w->bv[k] = ends == END_A ? in : q;
        w->e[k] = ends == END_A ? q - in : in - q;
    }
}

/* The clipped edge (w->bv, w->e): 1 with the contact num / den and its
 * direction g. |e_k| <= 22016, so e.e < 1.5e9 and len < 38200; the unit
 * edge has |e_k| <= K, so |ev| <= 3K, |ebv| <= 3 * 11008, and the
 * coefficients a = ev^2 - v.v, b = 2 v.bv - 2 ev ebv, c = K^2 - bv.bv +
 * ebv^2 and every partial sum stay below 1.2e9. With e = ev = ebv = f = 0
 * this would be the sphere-point test of a vertex, which sweep_vertex
 * (below) runs: lowest_root's normalisation gives the roots of v.v t^2 -
 * 2 v.bv t + bv.bv - K^2, and g = v num - bv den. */
NOINLINE static int sweep_edge(sweep_work *w, int64_t g[3], uint32_t *num, uint32_t *den)
{
    const int32_t *v = w->ve, *bv = w->bv;
    int32_t *e = w->e;   /* the clipped edge, made its unit vector in place */
    int32_t ev, ebv, len, n, d;
    uint32_t ee = (uint32_t)dot3i(e, e);   /* < 1.5e9 */
    int64_t f;
    int k, s = 0;
    if (ee == 0) {   /* an edge clipped to one point has no contact */
        return 0;
    } else {
        /* The unit edge must be a unit vector to within the rounding of its
         * components: the quadratic below takes |e| = K, and an e that is
         * 1 % too long (a short edge's length rounded down, 69 for 69.8)
         * made a step along the edge report a contact 1.08 radii away (see
         * lowest_root). So the length is taken of e scaled up by 2^s to at
         * least 2^14 (ee by 4^s to [2^28, 2^30) when below 2^28), and is then
         * within 2^-14 of |e| 2^s. */
        if (ee < ((uint32_t)1 << 28)) {
            s = (29 - rr__top_bit64(ee)) >> 1;
            ee <<= 2 * s;
        }
        len = (int32_t)rr__isqrt32(ee);   /* |e| 2^s */
    }
    for (k = 0; k < 3; k++)   /* |e_k| 2^s < 2^15.5 (ee < 2^31): the products fit */
        e[k] = (e[k] * ((int32_t)1 << s) * KK) / len;   /* unit edge, |e| = K */
    ev = dot3i(e, v) >> K_SHIFT;
    ebv = dot3i(e, bv) >> K_SHIFT;
    if (!lowest_root(w, ev * ev - w->vv, 2 * dot3i(v, bv) - 2 * ev * ebv,
                     KK * KK - dot3i(bv, bv) + ebv * ebv, num, den))
        return 0;
    n = (int32_t)*num;   /* num <= den = 2a < 2^29 */
    d = (int32_t)*den;
    f = (int64_t)ev * n - (int64_t)ebv * d;   /* position on the edge, times den */
    /* the edge's length in e-space is len / 2^s */
    if (f < 0 || f * ((int64_t)1 << s) > (int64_t)len * d)
        return 0;
    for (k = 0; k < 3; k++)   /* centre at contact minus the edge point, times den */
        g[k] = (int64_t)v[k] * n - (int64_t)bv[k] * d - ((e[k] * (f >> 8)) >> (K_SHIFT - 8));
    return 1;
}

/* The vertex w->bv (e-space): sweep_edge's test for e = 0, written out
 * (ev = ebv = f = 0 there): 1 with the contact num / den and its direction
 * g = v num - bv den. */
NOINLINE static int sweep_vertex(sweep_work *w, int64_t g[3], uint32_t *num, uint32_t *den)
{
    const int32_t *v = w->ve, *bv = w->bv;
    int32_t n, d;
    int k;
    if (!lowest_root(w, -w->vv, 2 * dot3i(v, bv), KK * KK - dot3i(bv, bv), num, den))
        return 0;
    n = (int32_t)*num;   /* num <= den = 2a < 2^29 */
    d = (int32_t)*den;
    for (k = 0; k < 3; k++)
        g[k] = (int64_t)v[k] * n - (int64_t)bv[k] * d;
    return 1;
}

/* Is p (coords) inside triangle t, edges included? For each edge a-b the
 * sign of ((b - a) x (p - a)) . n, each component of the cross product
 * shifted down by 8 bits first (|b - a|, |p - a| < 2^19: the products
 * below 2^38, and with |n_k| <= 2^15 the sum stays below 2^48; the same
 * arithmetic as cross3 and dot3 gave it before), written
 * out rather than with the vector helpers (their calls cost more than the
 * arithmetic). p is outside as soon as two edges see it on opposite sides,
 * so the loop stops there (most touching points the sweep asks about lie
 * outside: the third edge's products are then not needed; the answer is
 * the same). Out of line: its 64-bit temporaries stay out of the sweep's
 * frame. */
NOINLINE static int inside(const sweep_work *w, const int32_t p[3])
{
    const int32_t *n = w->tn;
    int i, pos = 0, neg = 0;
    for (i = 0; i < 3 && !(pos && neg); i++) {
        const int32_t *a = w->tp[i], *b = w->tp[i == 2 ? 0 : i + 1];
        int32_t u0 = b[0] - a[0], u1 = b[1] - a[1], u2 = b[2] - a[2];
        int32_t q0 = p[0] - a[0], q1 = p[1] - a[1], q2 = p[2] - a[2];
        int64_t s = (((int64_t)u1 * q2 - (int64_t)u2 * q1) >> 8) * n[0] +
                    (((int64_t)u2 * q0 - (int64_t)u0 * q2) >> 8) * n[1] +
                    (((int64_t)u0 * q1 - (int64_t)u1 * q0) >> 8) * n[2];
        pos |= s > 0;
        neg |= s < 0;
    }
    return !(pos && neg);
}

/* Is x > floor(sqrt(rr)) for rr < 2^60 (so floor(sqrt(rr)) < 2^30)? For a
 * whole number x that is x > sqrt(rr), that is x > 0 and x^2 > rr; any x >=
 * 2^30 is, and below that x^2 fits 64 bits unsigned (one 32 x 32-bit
 * multiply). The same answer as comparing x with rr_isqrt64(rr), without
 * the square root. */
NOINLINE static int beyond_root(int64_t x, uint64_t rr)
{
    return x > 0 && (x >= ((int64_t)1 << 30) || (uint64_t)(uint32_t)x * (uint32_t)x > rr);
}

/* x / d truncated towards zero, as C divides, for 0 < d < 2^31 and a
 * quotient below 2^16 (|x| < 2^16 d): the touching point's two divisions,
 * whose quotients are at most a radius (< 2^15). Exact, with one 32-bit
 * division instead of a 64-bit one (a libgcc loop on every board). With
 * |x| = a:
 * - d < 2^16: a < 2^32, so the division is a 32-bit one;
 * - else d is cut to its top 16 bits, dh = floor(d / 2^s) in [2^15, 2^16),
 *   and a likewise, ah = floor(a / 2^s) < 2^16 (dh + 1) <= 2^32. Then
 *   q = floor(ah / (dh + 1)) is at most a / d (dh + 1 > d / 2^s) and short
 *   of it by less than a / d / (dh + 1) + 1 < 2^16 / 2^15 + 1 = 3, so at
 *   most three steps of q + 1 (while the remainder a - q d >= d) end at
 *   floor(a / d). q d < 2^47: one 32 x 32-bit product. */
NOINLINE static int32_t quot16(int64_t x, uint32_t d)
{
    uint64_t a = (uint64_t)(x < 0 ? -x : x), left;
    int s = rr__top_bit64(d) - 15;
    uint32_t q;
    if (s <= 0) {
        q = (uint32_t)a / d;
    } else {
        q = (uint32_t)(a >> s) / ((d >> s) + 1u);
        left = a - (uint64_t)q * d;
        while (left >= d) {
            left -= d;
            q++;
        }
    }
    return x < 0 ? -(int32_t)q : (int32_t)q;
}

/* Face contact: 1 when the triangle is done (a face contact, offered with
 * its unit normal in w->n, or the plane is not reached in this step or no
 * earlier than the earliest contact so far), 0
 * when edges and vertices must be tried; then *pt / *pd is the time the
 * plane is reached (*pd == 0 when the ellipsoid already cuts it). The plane normal w->tn is the
 * one of plane_normal (|n_k| <= 2^15): the plane distance d0, the
 * speed vn towards the plane, the support radius rn, the fraction of the
 * step and the touching point are all the same for any positive multiple
 * of n, so it need not be a unit vector; only the contact's normal is
 * (unit_normal, once per face contact). Not noinline: merged into the sweep it
 * is 32 bytes smaller and the sweep's stack stays within the bound (microbit
 * 496). */
static int sweep_face(sweep_work *w, uint32_t ti, uint32_t *pt, uint32_t *pd)
{
    const int32_t *v0 = w->tp[0], *n = w->tn;
    int64_t d0, rn;
    uint64_t rr;
    int32_t p[3], vn, num, sg;
    int k;
    for (k = 0; k < 3; k++)
        p[k] = w->pos[k] - v0[k];   /* |pos| < 2^24, see the budget */
    d0 = (int64_t)n[0] * p[0] + (int64_t)n[1] * p[1] + (int64_t)n[2] * p[2];
    sg = d0 < 0 ? -1 : 1;           /* the side of the centre */
    d0 *= sg;
    /* |n| <= 2^15 sqrt(3), |vel| <= 2^14 (the step): |vn| < 2^31 */
    vn = sg * dot3i(n, w->vel);
    for (k = 0; k < 3; k++)
        p[k] = n[k] * w->r[k];   /* |n_k| <= 2^15, r <= 2^14 */
    /* The support radius along n, times |n|, is rn = floor(sqrt(rr)) (>= 2^14
     * r >= 2^18). Both tests below compare a whole number with rn, which
     * beyond_root decides from rr alone: the square root is taken only
     * when the step reaches the plane. */
    rr = (uint64_t)((int64_t)p[0] * p[0] + (int64_t)p[1] * p[1] + (int64_t)p[2] * p[2]);
    *pd = 0;
    if (vn >= 0)   /* moving away: the plane is not reached, or the centre is */
        return beyond_root(d0 + 1, rr);   /* d0 >= rn: straddling it and only edges
                                           * and vertices can be hit */
    if (beyond_root(d0 + vn, rr))   /* d0 - rn > -vn: plane not reached in this step */
        return 1;
    rn = rr_isqrt64(rr);
    d0 -= rn;
    num = d0 > 0 ? (int32_t)d0 : 0;
    /* Neither the face nor (see contact) an edge or vertex of this triangle
     * can be taken when the plane is reached no earlier than the earliest
     * contact so far: then the touching point is not needed (nearly half
     * of the planes a step reaches, on the bench's rooms). */
    if (!earlier(w, (uint32_t)num, (uint32_t)-vn))   /* num <= -vn < 2^31 */
        return 1;
    /* touching point: centre at t, minus r^2 n / rn; the quotients are at
     * most |vel_k| (num <= -vn) and r_k (rn >= r_k |n_k|), both <= 2^14 */
    for (k = 0; k < 3; k++)
        p[k] = w->pos[k] + quot16((int64_t)w->vel[k] * num, (uint32_t)-vn) -
               quot16((int64_t)(w->r[k] * w->r[k]) * (sg * n[k]), (uint32_t)rn);
    if (!inside(w, p)) {
        *pt = (uint32_t)num;
        *pd = (uint32_t)-vn;
        return 0;
    }
    unit_normal(n, sg, w->n);   /* earlier, as asked above */
    offer(w, (uint32_t)num, (uint32_t)-vn, ti);
    return 1;
}

/* The corners v (collision vertex numbers) into w->tp, in coords: origin
 * + q << shift, as vertex_coords (corners), with the three axes
 * written out (the loops cost about 40 instructions a triangle on the M3,
 * for each of the triangles the sweep decodes). Out of line, so that the
 * reject path before it (sweep_corners, every triangle of a leaf) keeps
 * its short frame. */
NOINLINE static void sweep_decode(sweep_work *w, const uint32_t v[3])
{
    const int32_t *o = w->m.origin;
    uint32_t sh = w->m.shift;
    int i;
    for (i = 0; i < 3; i++) {
        const uint16_t *q = w->m.verts[v[i]].q;
        w->tp[i][0] = o[0] + ((int32_t)q[0] << sh);
        w->tp[i][1] = o[1] + ((int32_t)q[1] << sh);
        w->tp[i][2] = o[2] + ((int32_t)q[2] << sh);
    }
}

/* Triangle ti's corners (collision vertex numbers v) into w->tp and its
 * tie key into w->ckey, unless it lies outside the step's region (then 0). */
static inline int sweep_take(sweep_work *w, uint32_t ti, const uint32_t v[3])
{
    if (tri_outside(&w->m, v, w->tlo, w->thi))
        return 0;
    w->ckey = (uint16_t)tri_key(&w->m, ti);
    sweep_decode(w, v);
    return 1;
}

/* sweep_corners for a full blob (TREF keys), out of line so that the
 * collision-only path below stays as short as it was before schema 7 (on
 * MIPS the key path's set-up otherwise lengthened it by 3 instructions a
 * triangle). */
NOINLINE static int sweep_corners_keyed(sweep_work *w, uint32_t ti)
{
    uint32_t v[3];
    tri_verts(&w->m, ti, v);
    return sweep_take(w, ti, v);
}

/* Triangle ti's corners into w->tp, unless it lies outside the step's
 * region (then 0). Out of sweep_tri's frame, which the contact tests run
 * under: the corner numbers are not needed after this. */
NOINLINE static int sweep_corners(sweep_work *w, uint32_t ti)
{
    uint32_t v[3];
    const uint16_t *c;
    if (w->m.tref)
        return sweep_corners_keyed(w, ti);
    c = w->m.tris[ti].v;   /* collision-only: TRIS holds the corners */
    v[0] = c[0];
    v[1] = c[1];
    v[2] = c[2];
    return sweep_take(w, ti, v);
}

#define OUTSIDE INT16_MIN

/* Corner p (coords): when it is in the step's region [lo, hi], its e-space
 * offset from pos into q (|q_k| <= 8704, see the ranges above), else q_0 =
 * OUTSIDE. For a point in the region clip() keeps all of it and works out
 * the same q (an edge whose ends are both in the region is kept whole: its
 * e-space start and end are those of its corners), so the vertex and edge
 * tests below take this short way for them, and clip() only for edges
 * that leave the region. */
NOINLINE static void corner_q(const sweep_work *w, const int32_t p[3], int16_t q[3])
{
    int k;
    for (k = 0; k < 3; k++)
        if (p[k] < w->lo[k] || p[k] > w->hi[k]) {
            q[0] = OUTSIDE;
            return;
        }
    for (k = 0; k < 3; k++)   /* |p - pos| <= 2 r_k + 2 */
        q[k] = (int16_t)(((p[k] - w->pos[k]) * KK) / w->r[k]);
}

/* The edge tests' start w->bv from a corner's offset q (in the region). */
static void start_at(sweep_work *w, const int16_t q[3])
{
    w->bv[0] = q[0];
    w->bv[1] = q[1];
    w->bv[2] = q[2];
}

/* The plane normal of the triangle in w->tp into w->tn: plane_normal of
 * its edges tp1 - tp0 and tp2 - tp0 (each component below 2^18, see the
 * budget), the same value, with the edges and their cross product written
 * out (the vector helpers are out of line for the stack bound, and four
 * calls for each triangle the sweep decodes cost more than the
 * arithmetic). */
NOINLINE static void sweep_plane(sweep_work *w)
{
    const int32_t *p0 = w->tp[0], *p1 = w->tp[1], *p2 = w->tp[2];
    int32_t a0 = p1[0] - p0[0], a1 = p1[1] - p0[1], a2 = p1[2] - p0[2];
    int32_t b0 = p2[0] - p0[0], b1 = p2[1] - p0[1], b2 = p2[2] - p0[2];
    int64_t c[3];
    c[0] = (int64_t)a1 * b2 - (int64_t)a2 * b1;
    c[1] = (int64_t)a2 * b0 - (int64_t)a0 * b2;
    c[2] = (int64_t)a0 * b1 - (int64_t)a1 * b0;
    scale_normal(c, w->tn);
}

/* Face, then each vertex and edge, in this order (a tie between two
 * contacts of one triangle keeps the first). The triangle is decoded once
 * into the work area (w->tp, w->tn) for all of them. The edges and
 * vertices of a triangle whose plane is reached no earlier than the
 * earliest contact so far are not tried: their contacts come no earlier
 * than the plane's (contact), so none of them could be taken. Called for
 * the triangles that sweep_corners decoded (in the step's region); out of
 * line, so that the leaf loop, which mostly rejects, keeps its few values
 * in registers. */
NOINLINE static void sweep_tri(sweep_work *w, uint32_t ti)
{
    int64_t g[3];
    uint32_t num, den, pt, pd;
    int j, k;
    sweep_plane(w);
    if (sweep_face(w, ti, &pt, &pd))
        return;
    /* Each corner goes into e-space once (corner_q): corner 0 is kept for
     * the last edge, corner j is the one tested. An edge whose ends are both
     * in the region is kept whole (see corner_q), one with one end in it is
     * clipped from that end (clip_end), one with neither is dropped by
     * clip_out when it lies beyond one side, else clipped by clip() */
    corner_q(w, w->tp[0], w->q0);
    for (k = 0; k < 3; k++)
        w->qj[k] = w->q0[k];
    for (j = 0; j < 3; j++) {   /* vertex j, then the edge from it */
        const int32_t *a = w->tp[j], *b = w->tp[j == 2 ? 0 : j + 1];
        int ends = w->qj[0] != OUTSIDE ? END_A : 0, edge = 1;   /* the ends in the region */
        if (ends) {   /* the vertex */
            start_at(w, w->qj);
            if (sweep_vertex(w, g, &num, &den))
                contact(w, g, num, den, ti, pt, pd);
        }
        /* the edge's end b becomes the corner tested next; w->bv still holds a */
        if (j < 2) {
            corner_q(w, b, w->qj);
        } else {
            for (k = 0; k < 3; k++)
                w->qj[k] = w->q0[k];
        }
        if (w->qj[0] != OUTSIDE)
            ends |= END_B;
        if (ends == (END_A | END_B)) {
            for (k = 0; k < 3; k++)
                w->e[k] = w->qj[k] - w->bv[k];
        } else if (ends) {
            clip_end(w, a, b, ends);
        } else {
            edge = !clip_out(w, a, b) && clip(w, a, b);
        }
        if (edge && sweep_edge(w, g, &num, &den))
            contact(w, g, num, den, ti, pt, pd);
    }
}

/* The tree is walked for a box G that holds the regions of several steps
 * (sweep_list), and its leaves are listed in w->leaf; a step whose region R
 * lies in G (both as lattice boxes) takes its leaves from that list: those
 * whose bounds meet R (next_listed), instead of walking the tree again.
 * They are the leaves next_leaf's walk of R finds, in the same order, so
 * the same triangles reach the same tests in the same order, and the
 * answer is the same bit for bit. The walk of a box finds, in pre-order,
 * the leaves that meet it and whose every ancestor meets it; as rr_open
 * checked that each node's bounds lie within its parent's (check_child),
 * that is every leaf that meets it. So the walk of G lists every leaf
 * that meets G, which holds every leaf that meets R (R in G), in
 * pre-order, and keeping those that meet R keeps the walk of R's leaves
 * in its order. The list is kept only when it holds every leaf of G (at
 * most LEAVES), and only within one sweep (other queries use these bytes,
 * and other sweeps other rooms and places: rr_rmesh_sweep_move marks it
 * empty).
 *
 * G (whole) is the box from pos to pos + rem (the motion left) grown like
 * a region, cut to GATHER times the step's motion on each axis: the free
 * steps of a straight motion stay in it (each moves by at most rem, with
 * its signs), and after a slide it may still hold the next regions. When
 * it has more than LEAVES leaves, G is the step's region alone (not
 * whole), and when that has too many the step walks the tree itself. On
 * the bench this saves half of the tree walk's cost; with GATHER 2 or 8
 * (fewer steps a walk, or more leaves to filter at every step) the sweep
 * is dearer than with 4. */
NOINLINE static void sweep_list(const rr_room *room, sweep_work *w, const int32_t rem[3],
                                int whole)
{
    const rr_rmesh_node *nd, *nodes = nodes_of(room);
    uint32_t sp = 0, node = 0, n = 0;
    int32_t lo[3], hi[3];
    int k;
    for (k = 0; k < 3; k++) {   /* |d| <= GATHER |vel_k| <= 2^16: within 2^16 of a region */
        int32_t d = whole ? rem[k] : w->vel[k], c = GATHER * w->vel[k], a = w->pos[k], b;
        if ((d < 0 ? -d : d) > (c < 0 ? -c : c))
            d = c;
        b = a + d;
        lo[k] = (a < b ? a : b) - w->r[k] - SKIN - w->m.origin[k];
        hi[k] = (a < b ? b : a) + w->r[k] + SKIN - w->m.origin[k];
    }
    lattice_box(lo, hi, 0, w->m.shift, w->glo, w->ghi);
    while (n <= LEAVES && (nd = next_leaf(room, &sp, &node, w->glo, w->ghi)) != 0)
        if (n++ < LEAVES)
            w->leaf[n - 1] = (uint16_t)(nd - nodes);
    w->nleaf = (uint16_t)n;
}

/* The next leaf of the list, from *i on, whose bounds meet the step's
 * region; 0 when none is left. */
static const rr_rmesh_node *next_listed(const sweep_work *w, const rr_rmesh_node *nodes,
                                        uint32_t *i)
{
    while (*i < w->nleaf) {
        const rr_rmesh_node *nd = &nodes[w->leaf[(*i)++]];
        if (node_meets(nd, w->rlo, w->rhi))
            return nd;
    }
    return 0;
}

/* Does the list hold every leaf that meets the step's region? (It lists
 * every leaf of a box that holds the region.) */
static int listed(const sweep_work *w)
{
    int k;
    if (w->nleaf > LEAVES)
        return 0;
    for (k = 0; k < 3; k++)
        if (w->rlo[k] < w->glo[k] || w->rhi[k] > w->ghi[k])
            return 0;
    return 1;
}

/* The triangles of leaf nd in the step's region through the contact tests. */
static inline void sweep_leaf(sweep_work *w, const rr_rmesh_node *nd)
{
    /* the leaf's end read once: the tests' 16-bit stores into w could alias
     * nd's fields for the compiler, which then read them again for every
     * triangle (the one-leaf blob's whole cost) */
    uint32_t i, end = (uint32_t)nd->first + (nd->count & ~RR_RMESH_LEAF);
    for (i = nd->first; i < end; i++)
        if (sweep_corners(w, i))
            sweep_tri(w, i);
}

#ifdef RR_DEBUG
static void check_listed(const rr_room *room, const sweep_work *w);
#endif

/* Earliest contact of one step (motion w->vel from w->pos; rem: the motion
 * left, this step's included). Its leaves come from the list (listed;
 * walked anew for several steps' box, or when that has too many leaves
 * for this step's region alone), or else from a walk of the tree. */
static void sweep_step(const rr_room *room, sweep_work *w, const int32_t rem[3])
{
    const rr_rmesh_node *nd, *nodes = nodes_of(room);
    uint32_t sp = 0, node = 0, i = 0;
    int k;
    for (k = 0; k < 3; k++) {
        int32_t a = w->pos[k], b = w->pos[k] + w->vel[k];
        w->lo[k] = (a < b ? a : b) - w->r[k] - SKIN;
        w->hi[k] = (a < b ? b : a) + w->r[k] + SKIN;
        w->ve[k] = (w->vel[k] * KK) / w->r[k];   /* |vel_k| <= r_k <= 2^14 */
        w->rlo[k] = w->lo[k] - w->m.origin[k];
        w->rhi[k] = w->hi[k] - w->m.origin[k];
    }
    w->vv = dot3i(w->ve, w->ve);
    lattice_box(w->rlo, w->rhi, REACH, w->m.shift, w->tlo, w->thi);
    lattice_box(w->rlo, w->rhi, 0, w->m.shift, w->rlo, w->rhi);
    w->bd = 0;
    if (!listed(w))
        sweep_list(room, w, rem, 1);
    if (!listed(w))
        sweep_list(room, w, rem, 0);
    if (!listed(w)) {
        while ((nd = next_leaf(room, &sp, &node, w->rlo, w->rhi)) != 0)
            sweep_leaf(w, nd);
        return;
    }
#ifdef RR_DEBUG
    check_listed(room, w);
#endif
    while ((nd = next_listed(w, nodes, &i)) != 0)
        sweep_leaf(w, nd);
}

/* End the step: without a contact, make the whole step (tq = 1.0 moves by
 * exactly vel); with one, move to the contact (backed off by SKIN coords),
 * turn the rest of the motion into a slide along the contact plane and
 * return 1. */
NOINLINE static int slide(sweep_work *w, int32_t rem[3])
{
    int64_t dn;
    int32_t tq = 65536, back;
    uint32_t l;
    int k;
    if (w->bd) {
        l = len3(w->vel);
        /* a contact fraction is at most 1: tq <= 2^16, below it a quotient
         * quot16 gives exactly (bt < bd < 2^31) */
        tq = w->bt < w->bd ? quot16((int64_t)w->bt << 16, w->bd) : 65536;
        back = (int32_t)(((uint32_t)SKIN << 16) / l);   /* l >= 1: a step moves */
        tq = tq > back ? tq - back : 0;
    }
    for (k = 0; k < 3; k++) {
        int32_t mv = (w->vel[k] * tq) / 65536;   /* tq <= 2^16, |vel| <= 2^14 + 1 */
        w->pos[k] += mv;
        rem[k] -= mv;
    }
    if (!w->bd)
        return 0;
    dn = dot64(rem, w->n);
    if (dn < 0)   /* only the part going into the plane is removed */
        for (k = 0; k < 3; k++)
            rem[k] -= (int32_t)rr_shr_round64(dn * w->n[k], 32);
    return 1;
}

static rr_err sweep_check(const rr_rmesh_sweep *in)
{
    int k;
    if (!in->max_slides || in->max_slides > RR_RMESH_MAX_SLIDES)
        return RR_ERR_ARG;
    for (k = 0; k < 3; k++)
        if (in->radius[k] < SWEEP_RMIN || in->radius[k] > SWEEP_RMAX ||
            in->from[k] < -ORIGIN_MAX || in->from[k] > ORIGIN_MAX || in->to[k] < -ORIGIN_MAX ||
            in->to[k] > ORIGIN_MAX)
            return RR_ERR_RANGE;
    return RR_OK;
}

typedef char rr__sweep_area_fits[(sizeof(sweep_work) + 4 <= RR_RMESH_SWEEP_BYTES) ? 1 : -1];
/* rr_open's tree check keeps its stack (8 bytes a level) in the bytes of
 * the queries' stack and work area (RR_RMESH_ARENA). */
typedef char rr__tree_stack_fits[(8u * (RR_MAX_DEPTH + 2u) <= RR_RMESH_ARENA(RR_MAX_DEPTH)) ? 1 : -1];

rr_err rr_rmesh_sweep_move(const rr_room *room, const rr_rmesh_sweep *in,
                           rr_rmesh_sweep_out *out)
{
    sweep_work *w;
    int32_t rem[3], step;
    uint32_t budget, k;
    rr_err e;
    if (!rr__rmesh_is(room) || !in || !out)
        return RR_ERR_ARG;
    e = sweep_check(in);
    if (e)
        return e;
    w = work_area(room);
    rr__rmesh_mesh(room, &w->m);
    w->nleaf = LEAVES + 1;   /* no leaves listed yet (sweep_list) */
    step = in->radius[0];
    for (k = 0; k < 3; k++) {
        step = in->radius[k] < step ? in->radius[k] : step;   /* the smallest radius */
        w->pos[k] = in->from[k];
        w->r[k] = in->radius[k];
        rem[k] = in->to[k] - in->from[k];
    }
    out->hit = 0;
    out->slides = 0;
    out->tri = 0;
    out->normal.x = out->normal.y = out->normal.z = 0;
    /* Free steps are at least step - 2 coords long (truncation), so 2 len / step
     * + 4 of them cover the motion, once per slide (slides only shorten it). */
    budget = (in->max_slides + 1) * (2 * (len3(rem) / (uint32_t)step) + 4);
    while (budget-- && (rem[0] || rem[1] || rem[2])) {
        uint32_t l = len3(rem);
        /* this step: at most one radius long; |rem_k| step < 2^16 l (step <=
         * 2^14), l < 2^31: quot16 gives the truncated quotient exactly */
        for (k = 0; k < 3; k++)
            w->vel[k] = l > (uint32_t)step ? quot16((int64_t)rem[k] * step, l) : rem[k];
        sweep_step(room, w, rem);
        if (!slide(w, rem))
            continue;
        out->hit = 1;
        out->tri = w->bi;
        out->normal.x = w->n[0];
        out->normal.y = w->n[1];
        out->normal.z = w->n[2];
        if (++out->slides >= in->max_slides)
            break;
    }
    for (k = 0; k < 3; k++)
        out->pos[k] = w->pos[k];
    return RR_OK;
}

#ifdef RR_DEBUG
/* Test hook (host builds with RR_DEBUG only; test_rmesh_sweep reads the
 * counts): the steps that took their leaves from the list, and those of
 * them for which the listed leaves that meet the step's region
 * (next_listed, as sweep_step takes them) were not, one for one and in
 * order, the leaves next_leaf's walk of the region finds. */
extern uint32_t rr__rmesh_listed_steps, rr__rmesh_listed_wrong;
uint32_t rr__rmesh_listed_steps, rr__rmesh_listed_wrong;
static void check_listed(const rr_room *room, const sweep_work *w)
{
    const rr_rmesh_node *nd, *nodes = nodes_of(room);
    uint32_t sp = 0, node = 0, i = 0;
    int wrong = 0;
    while ((nd = next_leaf(room, &sp, &node, w->rlo, w->rhi)) != 0)
        wrong |= next_listed(w, nodes, &i) != nd;
    wrong |= next_listed(w, nodes, &i) != 0;
    rr__rmesh_listed_steps++;
    rr__rmesh_listed_wrong += (uint32_t)wrong;
}

/* Test hook: listed() on a list of nleaf leaves of the lattice box
 * [glo, ghi] and a step region [rlo, rhi] a test chooses (the boundary
 * cases no walk of a room reliably meets). */
int rr__rmesh_probe_listed(const int32_t glo[3], const int32_t ghi[3], const int32_t rlo[3],
                           const int32_t rhi[3], uint32_t nleaf);
int rr__rmesh_probe_listed(const int32_t glo[3], const int32_t ghi[3], const int32_t rlo[3],
                           const int32_t rhi[3], uint32_t nleaf)
{
    sweep_work w;
    int k;
    for (k = 0; k < 3; k++) {
        w.glo[k] = glo[k];
        w.ghi[k] = ghi[k];
        w.rlo[k] = rlo[k];
        w.rhi[k] = rhi[k];
    }
    w.nleaf = (uint16_t)nleaf;
    return listed(&w);
}

/* Test hook (host builds with RR_DEBUG only; tests/host/test_rmesh_sweep.c
 * declares it): the touching point's exact division, on inputs a test
 * chooses, against C's division. */
int32_t rr__rmesh_probe_quot16(int64_t x, uint32_t d);
int32_t rr__rmesh_probe_quot16(int64_t x, uint32_t d)
{
    return quot16(x, d);
}

/* The test hooks' step from pos by vel with radii r: its region as
 * sweep_step sets it (the swept box grown by r_k + SKIN). */
static void probe_region(sweep_work *w, const int32_t pos[3], const int32_t vel[3],
                         const int32_t r[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        int32_t e = pos[k] + vel[k];
        w->pos[k] = pos[k];
        w->r[k] = r[k];
        w->lo[k] = (pos[k] < e ? pos[k] : e) - r[k] - SKIN;
        w->hi[k] = (pos[k] < e ? e : pos[k]) + r[k] + SKIN;
    }
}

/* Test hook: the edge a-b of a step from pos by vel (|vel_k| <= the
 * smallest radius) with radii r: -1 when clip_out() keeps it for clip(),
 * else 1 when clip() (whose divisions alone decide) keeps nothing of it
 * either, 0 when clip() keeps a part that clip_out() dropped. */
int rr__rmesh_probe_clip_out(const int32_t pos[3], const int32_t vel[3], const int32_t r[3],
                             const int32_t a[3], const int32_t b[3]);
int rr__rmesh_probe_clip_out(const int32_t pos[3], const int32_t vel[3], const int32_t r[3],
                             const int32_t a[3], const int32_t b[3])
{
    sweep_work w;
    probe_region(&w, pos, vel, r);
    if (!clip_out(&w, a, b))
        return -1;
    return !clip(&w, a, b);
}

/* Test hook: the edge a-b of a step from pos by vel (|vel_k| <= the
 * smallest radius) with radii r, clipped by clip() and, when exactly one
 * end is in the step's region, by clip_end() with that end's offset from
 * corner_q, as sweep_tri does. Returns -1 when no end or both ends are in
 * the region (clip_end is not asked), 1 when clip() keeps a part and both
 * give the same start w->bv and vector w->e, 0 otherwise. */
int rr__rmesh_probe_clip_end(const int32_t pos[3], const int32_t vel[3], const int32_t r[3],
                             const int32_t a[3], const int32_t b[3]);
int rr__rmesh_probe_clip_end(const int32_t pos[3], const int32_t vel[3], const int32_t r[3],
                             const int32_t a[3], const int32_t b[3])
{
    sweep_work w1, w2;
    int16_t qa[3];
    int k, ends;
    probe_region(&w1, pos, vel, r);
    w2 = w1;
    corner_q(&w1, a, qa);
    corner_q(&w1, b, w2.qj);
    ends = (qa[0] != OUTSIDE ? END_A : 0) | (w2.qj[0] != OUTSIDE ? END_B : 0);
    if (ends == 0 || ends == (END_A | END_B))
        return -1;
    if (!clip(&w1, a, b))
        return 0;
    if (ends == END_A)
        for (k = 0; k < 3; k++)
            w2.bv[k] = qa[k];
    clip_end(&w2, a, b, ends);
    for (k = 0; k < 3; k++)
        if (w1.bv[k] != w2.bv[k] || w1.e[k] != w2.e[k])
            return 0;
    return 1;
}
#endif

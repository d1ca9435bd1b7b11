/* rr_emi.c - EMI figure runtime: validation of the baked sections, joint and
 * animation lookup, keyframe sampling, pose blending, local->model, skinning
 * matrices and linear blend skinning (rr_emi.h).
 *
 * Layout (rr_emi_blob.h): joints are parent-before-child, so every pass over
 * them is one forward loop. rr_open checks every field the schema describes
 * (indices, runs, ranges, counts) and then, in rr__emi_validate, what a
 * field alone cannot say (tree order and depths, weight sums, key runs and
 * key order), so the jobs below check only their own arguments. Every
 * section is reached through the view rr_open built: O(1), no lookup.
 * Fixed point only: coords (blob coord_frac), Q30 rotations, Q16.16 rest.
 */
#define RR_INTERNAL
#include "rr_int.h"
#include "rr_emi.h"
#include "rr_emi_blob.h"

#define Q30 30u
/* Skinning matrices keep their rotation in Q14 (rr_emi.h): a row times a
 * 16-bit mesh position is one 32-bit sum of three products. */
#define SKIN_FRAC 14u

/* Helpers kept out of line so that no job's frame holds all of them at once
 * (the 64-bit temporaries weigh on Cortex-M0 registers). */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NOINLINE
#define ALWAYS_INLINE
#endif

/* ------------------------------------------------------------ arithmetic */

/* Rounding, saturation, division and square roots are the core's (rr_fix.c:
 * rr_shr_round64, rr__sat32, rr__div_round64, rr_isqrt64), with its one
 * rounding rule: half away from zero. The per-joint and per-vertex loops
 * (quat_to_mat, lerp, xform_mul, skin_dot) use this inlined copy of
 * rr_shr_round64 (same result for s >= 1): there a call cost more than the
 * rounding itself (make bench: EMI pose +33 % with calls). */
static int64_t shr_round(int64_t v, unsigned s)
{
    /* Branch-free: for v < 0, -((-v + half) >> s) == (v + half - 1) >> s
     * (write v = q 2^s + r: both are q + (r > half)). >> of a negative
     * value is an arithmetic shift with GCC, as rr_rmesh.c relies on too.
     * Adding half overflows only where rr_shr_round64's form did as well. */
    return (v + ((int64_t)1 << (s - 1)) - (v < 0)) >> s;
}

/* v clamped to int32 (inline: the per-joint loops call it a dozen times). */
static int32_t sat32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* 1 / sqrt(x) for x in Q30 within (1/4, 2) (RSQRT_LO < x < RSQRT_HI), as
 * Q30 (in (0.7, 2)): a first guess from a table over sixteenths of x, then
 * three Newton steps y' = y (3 - x y^2) / 2, each of which squares the
 * relative error (times 1.5): from at most 6 % to below 1e-8. A Newton step
 * never overshoots 1 / sqrt(x), so y < 2^31 and every product is one
 * unsigned 32 x 32-bit multiply. Integer arithmetic only, so every board
 * computes the same bits; no division and no bit-by-bit square root. */
#define RSQRT_LO (1u << 28)
#define RSQRT_HI (1u << 31)
static const uint32_t rsqrt_seed[28] = {   /* 2^30 / sqrt((i + 4.5) / 16) */
    2024667000u, 1831380208u, 1684624773u, 1568300315u, 1473161629u, 1393471397u,
    1325455684u, 1266516759u, 1214800200u, 1168942037u, 1127913670u, 1090922784u,
    1057347856u, 1026693558u, 998559613u,  972618566u,  948599586u,  926276469u,
    905458609u,  885984104u,  867714429u,  850530263u,  834328203u,  819018128u,
    804521086u,  790767575u,  777696137u,  765252196u};

/* One Newton step y' = y (3 - x y^2) / 2 of rsqrt_q30 (x and y Q30). */
static ALWAYS_INLINE uint32_t rsqrt_step(uint32_t x, uint32_t y)
{
    uint32_t y2 = (uint32_t)(((uint64_t)y * y) >> 31);            /* Q29, < 2^31 */
    uint32_t xy2 = (uint32_t)(((uint64_t)x * y2) >> 29);          /* Q30, about 1 */
    return (uint32_t)(((uint64_t)y * ((3u << Q30) - xy2)) >> 31); /* Q30 */
}

static uint32_t rsqrt_q30(uint32_t x)
{
    uint32_t y = rsqrt_seed[(x >> 26) - 4u];
    int i;
    for (i = 0; i < 3; i++) {
        uint32_t y2 = (uint32_t)(((uint64_t)y * y) >> 31);            /* Q29, < 2^31 */
        uint32_t xy2 = (uint32_t)(((uint64_t)x * y2) >> 29);          /* Q30, about 1 */
        y = (uint32_t)(((uint64_t)y * ((3u << Q30) - xy2)) >> 31);    /* Q30 */
    }
    return y;
}

/* out = v / |v| with one (2^shift) as the unit, for n components; returns
 * |v| and leaves out alone when it is 0. out may be v (each component is
 * read before it is written). The exact (square root and division) path
 * for quaternions (Q30) and skinned normals (Q16) whose squared length is
 * outside what rsqrt_q30 covers: arbitrary caller poses, blends that nearly
 * cancel. */
static NOINLINE uint32_t unit(const int32_t *v, int32_t *out, int n, unsigned shift)
{
    uint64_t l2 = 0;
    uint32_t len;
    int c;
    for (c = 0; c < n; c++)
        l2 += (uint64_t)((int64_t)v[c] * v[c]);
    len = rr_isqrt64(l2);
    for (c = 0; len && c < n; c++)
        out[c] = rr__sat32(rr__div_round64((int64_t)v[c] * ((int64_t)1 << shift), len));
    return len;
}

/* Unit quaternion (Q30) in place; a zero quaternion becomes the identity.
 * Interpolated keys and blends have |q|^2 in [1/2, 1] (shortest arc) and take
 * the Newton path; anything else (caller poses) the exact one. */
static NOINLINE void quat_normalize(int32_t q[4])
{
    uint64_t l2 = 0;
    int c;
    for (c = 0; c < 4; c++)
        l2 += (uint64_t)((int64_t)q[c] * q[c]);
    l2 >>= Q30;   /* Q30 */
    if (l2 > RSQRT_LO && l2 < RSQRT_HI) {
        int32_t y = (int32_t)rsqrt_q30((uint32_t)l2);   /* < 2^31 */
        for (c = 0; c < 4; c++)   /* Q30 * Q30 -> Q30, |result| <= 1 */
            q[c] = (int32_t)shr_round((int64_t)q[c] * y, Q30);
    } else if (unit(q, q, 4, Q30) == 0) {
        q[0] = q[1] = q[2] = 0;
        q[3] = (int32_t)RR_EMI_Q30_ONE;
    }
}

/* Caller-supplied poses are meant to hold unit quaternions; clamping each
 * component to a little over 1 keeps every product below 2^61 even when they
 * do not, so no job can overflow (results of such input are meaningless). */
#define QCLAMP (RR_EMI_Q30_ONE + 4096)

/* v clamped to [-lim, lim]. */
static int32_t clamp(int32_t v, int32_t lim)
{
    return v > lim ? lim : v < -lim ? -lim : v;
}

static int32_t qclamp(int32_t v)
{
    return clamp(v, (int32_t)QCLAMP);
}

/* out[c] = a[c] + (b[c] - a[c]) * f for c < n, f in Q16 [0, 1] (translations
 * and quaternion components): out may alias a or b. Out of line: inlined
 * into its three callers (a translation track, nlerp, blend) it was three
 * copies, and the call is a small part of a track's sampling. */
static NOINLINE void lerp(const int32_t *a, const int32_t *b, int32_t f, int32_t *out, int n)
{
    int c;
    for (c = 0; c < n; c++)
        out[c] = sat32(a[c] + shr_round(((int64_t)b[c] - a[c]) * f, 16));
}

/* out = nlerp(a, b, f), f in Q16 [0, 1], shortest arc. out may alias a or b. */
static void quat_nlerp(const int32_t a[4], const int32_t b[4], int32_t f, int32_t out[4])
{
    int64_t dot = 0;
    int32_t aa[4], bb[4];
    int i;
    for (i = 0; i < 4; i++) {
        aa[i] = qclamp(a[i]);
        bb[i] = qclamp(b[i]);
        dot += (int64_t)aa[i] * bb[i];
    }
    for (i = 0; i < 4; i++)
        bb[i] = dot < 0 ? -bb[i] : bb[i];
    lerp(aa, bb, f, out, 4);
    quat_normalize(out);
}

/* 2 (a b + c d) for Q30 a, b, c, d (|each| <= QCLAMP): Q30. */
static int64_t twice_sum(int32_t a, int32_t b, int32_t c, int32_t d)
{
    return shr_round((int64_t)a * b + (int64_t)c * d, Q30 - 1u);
}

/* Rotation matrix of a unit quaternion (x, y, z, w) = q[0..3], Q30, row
 * major. The textbook formula is the same under the cyclic permutation
 * x -> y -> z -> x, so one pass per axis pair (a, b) = (x, y), (y, z),
 * (z, x), with c the third axis, writes three entries:
 *   r[a][b] = 2 (a b - c w),  r[b][a] = 2 (a b + c w),  r[c][c] = 1 - 2 (a a + b b).
 * The products are 32 x 32 bits. */
static NOINLINE void quat_to_mat(const int32_t q[4], int32_t r[9])
{
    int32_t v[3], w = qclamp(q[3]);
    int64_t one = RR_EMI_Q30_ONE;
    int i, a = 0, b = 1, c = 2;
    for (i = 0; i < 3; i++)
        v[i] = qclamp(q[i]);
    for (i = 0; i < 3; i++) {
        int next = a;
        r[3 * a + b] = sat32(twice_sum(v[a], v[b], -v[c], w));
        r[3 * b + a] = sat32(twice_sum(v[a], v[b], v[c], w));
        r[4 * c] = sat32(one - twice_sum(v[a], v[a], v[b], v[b]));
        a = b, b = c, c = next;   /* the next pair: (b, c) */
    }
}

/* Row a . column b, three 32 x 32-bit products, rounded by 2^shift and
 * saturated. */
static ALWAYS_INLINE int32_t dot3(int32_t a0, int32_t a1, int32_t a2, int32_t b0, int32_t b1,
                                  int32_t b2, unsigned shift)
{
    return sat32(shr_round((int64_t)a0 * b0 + (int64_t)a1 * b1 + (int64_t)a2 * b2, shift));
}

/* out = a * b for rotation (Q30) + translation (coords) transforms, the
 * rotation written in Q(30 + 30 - rshift): rshift 30 keeps Q30, 46 gives the
 * skinning matrices' Q14. out may not alias a or b (b is the rotation br and
 * translation bt). Inlined into its two wrappers below, so each shift is a
 * constant (a variable 64-bit shift costs more than the products). */
static ALWAYS_INLINE void xform_mul(const rr_emi_xform *a, const int32_t br[9],
                                    const int32_t bt[3], unsigned rshift, rr_emi_xform *out)
{
    int i;
    for (i = 0; i < 3; i++) {
        int32_t a0 = a->r[3 * i], a1 = a->r[3 * i + 1], a2 = a->r[3 * i + 2];
        out->r[3 * i] = dot3(a0, a1, a2, br[0], br[3], br[6], rshift);
        out->r[3 * i + 1] = dot3(a0, a1, a2, br[1], br[4], br[7], rshift);
        out->r[3 * i + 2] = dot3(a0, a1, a2, br[2], br[5], br[8], rshift);
        out->t[i] = sat32((int64_t)dot3(a0, a1, a2, bt[0], bt[1], bt[2], Q30) + a->t[i]);
    }
}

/* The two products the jobs need, each out of line with its constant shift
 * (the unrolled product's temporaries would otherwise sit in the job's
 * frame: on Cortex-M0 that passed the 512-byte stack bound). */
static NOINLINE void model_mul(const rr_emi_xform *a, const int32_t br[9], const int32_t bt[3],
                               rr_emi_xform *out)
{
    xform_mul(a, br, bt, Q30, out);
}

static NOINLINE void skin_mul(const rr_emi_xform *a, const int32_t br[9], const int32_t bt[3],
                              rr_emi_xform *out)
{
    xform_mul(a, br, bt, 2u * Q30 - SKIN_FRAC, out);   /* rotation in Q14 */
}

/* ------------------------------------------------------------ sections */

RR_FORMAT_SCHEMA(emi_schema, RR_EMI);
typedef char rr__emi_arena_bytes[RR_EMI_ARENA_BYTES == RR_VIEW_BYTES(RR_EMI_S_COUNT) ? 1 : -1];

/* The records of each section of an open EMI room, through its view
 * (joints_of(room), ...). An absent section (count 0 in the figure) has no
 * records to read. */
RR_SECTION_ACCESSORS(RR_EMI)

/* RR_OK when room is an open EMI room, as every query needs. */
static rr_err emi_room(const rr_room *room)
{
    if (!room)
        return RR_ERR_ARG;
    return room->format == RR_FMT_EMI ? RR_OK : RR_ERR_FORMAT;
}

/* RR_OK when room is an open EMI room and count records (a pose, an array
 * of matrices) cover its joints, as every job over the joints needs. Out
 * of line: it is the common part of five argument checks. */
static NOINLINE rr_err joints_room(const rr_room *room, uint32_t count)
{
    rr_err e = emi_room(room);
    if (e)
        return e;
    return count < figure_of(room)->njoints ? RR_ERR_RANGE : RR_OK;
}

/* ------------------------------------------------------------ validation */

/* Everything below runs after rr__schema_open: every count of the figure
 * matches its section, every index, run, string, range, flag and pad field
 * has been checked. What is left is what one field alone cannot say. */

static rr_err check_figure(const rr_room *room, rr_diag *diag)
{
    const rr_emi_figure *f = figure_of(room);
    if (f->njoints == 0 || f->njoints > RR_EMI_MAX_JOINTS)
        return rr__fail(room, diag, RR_ERR_RANGE, &f->njoints, "joint count", f->njoints,
                        RR_EMI_MAX_JOINTS);
    return RR_OK;
}

/* Parents before children (so one forward pass builds the model matrices
 * and no parent chain can loop), and every depth one more than its
 * parent's, within the header's max_depth (which rr_open bounded by
 * RR_MAX_DEPTH). */
static rr_err check_joints(const rr_room *room, rr_diag *diag)
{
    const rr_emi_joint *joints = joints_of(room);
    uint32_t i, n = figure_of(room)->njoints;
    for (i = 0; i < n; i++) {
        const rr_emi_joint *j = &joints[i];
        uint32_t depth = 0;   /* a root's */
        if (j->parent >= 0) {   /* -1, or an index (the schema checked it) */
            if ((uint32_t)j->parent >= i)
                return rr__fail(room, diag, RR_ERR_CYCLE, &j->parent,
                                "joint parent (must be < own index)", (uint32_t)j->parent, i);
            depth = joints[j->parent].depth + 1u;
        }
        if (j->depth != depth)
            return rr__fail(room, diag, RR_ERR_DEPTH, &j->depth, "joint depth (parent's + 1)",
                            j->depth, depth);
        if (j->depth > room->max_depth)
            return rr__fail(room, diag, RR_ERR_DEPTH, &j->depth, "joint depth (header max_depth)",
                            j->depth, room->max_depth);
    }
    return RR_OK;
}

/* Vertex v's run (rr_emi_blob.h), above 1 (end: the end of VERTS): the
 * next vertex continues it, with a run one less and the same single, so a
 * run of one joint is that joint's throughout (single names it, checked for
 * every vertex); for a run of blends the next vertex's influences also
 * follow v's, as many, naming the same joints in the same order. By
 * induction every vertex of a run has the run's joints and the run ends
 * within VERTS (the last vertex's run can only be 1), so the skinning
 * kernels pick the matrices from its first vertex and walk a blend run's
 * influences in step. A run of 0 fails here too (next's is never
 * 2^32 - 1), and so does a run past the end (end: VERTS's), all as
 * RR_ERR_RANGE with one text. */
#define RUN_TEXT "vertex run (the next vertex's one less, the same joints)"
static ALWAYS_INLINE rr_err check_run(const rr_room *room, const rr_emi_vert *v,
                                      const rr_emi_vert *end, const rr_emi_infl *in,
                                      rr_diag *diag)
{
    const rr_emi_vert *next = v + 1;
    uint32_t more = v->run - 1u, n = v->infl_count, k;   /* the run's vertices after v */
    int same;
    if (next == end || next->run != more || next->single != v->single)
        return rr__fail(room, diag, RR_ERR_RANGE, &v->run, RUN_TEXT, v->run,
                        next == end ? 1u : next->run + 1u);
    if (v->single >= 0)
        return RR_OK;
    same = next->infl_count == n && next->infl_first == v->infl_first + n;
    for (k = 0; same && k < n; k++)   /* in[n + k]: the next vertex's, within INFL (schema) */
        same = in[n + k].joint == in[k].joint;
    if (!same)   /* reported as the next vertex's first influence against the one due */
        return rr__fail(room, diag, RR_ERR_RANGE, &v->run, RUN_TEXT, next->infl_first,
                        v->infl_first + n);
    return RR_OK;
}

/* The n influences in of vertex v (a run of INFL the schema checked, n at
 * most the figure's max_infl): weights > 0 (the schema bounded them by 1)
 * and together exactly 1 (RR_EMI_WEIGHT_ONE), so skinning never scales a
 * vertex and its weighted sums stay within int32; of two, the second at
 * most the first (at most half: the baker sorts them by weight), as
 * blend_two needs. */
static rr_err check_weights(const rr_room *room, const rr_emi_vert *v, const rr_emi_infl *in,
                            uint32_t n, rr_diag *diag)
{
    uint32_t k, sum = 0;   /* at most 4 weights of at most 1 */
    for (k = 0; k < n; k++) {
        if (in[k].weight == 0)
            return rr__fail(room, diag, RR_ERR_RANGE, &in[k].weight,
                            "influence weight (must be > 0)", in[k].weight, 0);
        sum += in[k].weight;
    }
    if (n != 0 && sum != RR_EMI_WEIGHT_ONE)
        return rr__fail(room, diag, RR_ERR_RANGE, &v->infl_first,
                        "weight sum of the influence run", sum, RR_EMI_WEIGHT_ONE);
    if (n == 2 && in[1].weight > in[0].weight)   /* blend_two's W */
        return rr__fail(room, diag, RR_ERR_RANGE, &in[1].weight,
                        "second weight of two (at most the first)", in[1].weight, in[0].weight);
    return RR_OK;
}

/* Every vertex: its influence count within the figure's max_infl, its
 * weights (check_weights; a one-influence vertex, most of them, passes
 * with its weight exactly 1 without the general walk), single the joint of
 * a one-influence vertex and -1 for the others, and its run (check_run),
 * all in one pass over VERTS. */
static rr_err check_vertices(const rr_room *room, rr_diag *diag)
{
    const rr_emi_figure *f = figure_of(room);
    const rr_emi_vert *v = verts_of(room), *end = v + f->nverts;
    const rr_emi_infl *infl = infl_of(room);
    uint32_t n, max_infl = f->max_infl;
    for (; v < end; v++) {
        const rr_emi_infl *in = infl + v->infl_first;
        int32_t single = -1;
        if ((n = v->infl_count) > max_infl)
            return rr__fail(room, diag, RR_ERR_INDEX, &v->infl_count,
                            "influence count (figure max_infl)", n, max_infl);
        if (n == 1 && in[0].weight == RR_EMI_WEIGHT_ONE) {
            single = in[0].joint;
        } else {
            rr_err e = check_weights(room, v, in, n, diag);
            if (e)
                return e;
        }
        if (v->single != single)
            return rr__fail(room, diag, RR_ERR_RANGE, &v->single,
                            "single (the joint of the one influence, else -1)",
                            (uint32_t)(uint16_t)v->single, (uint32_t)(uint16_t)single);
        if (v->run != 1) {
            rr_err e = check_run(room, v, end, in, diag);
            if (e)
                return e;
        }
    }
    return RR_OK;
}

/* Time of key i of track tr: in PKEYS or RKEYS by its op. */
static const rr_fix *key_time(const rr_room *room, const rr_emi_track *tr, uint32_t i)
{
    if (tr->op == RR_EMI_OP_POS)
        return &pkeys_of(room)[tr->first_key + i].time;
    return &rkeys_of(room)[tr->first_key + i].time;
}

/* A track's keys: a non-empty run of the key section of its op (n keys). */
static rr_err check_key_run(const rr_room *room, const rr_emi_track *t, uint32_t n,
                            rr_diag *diag)
{
    if (t->nkeys == 0)
        return rr__fail(room, diag, RR_ERR_INDEX, &t->nkeys, "key count (must be >= 1)", 0, 1);
    if (t->first_key > n)
        return rr__fail(room, diag, RR_ERR_INDEX, &t->first_key, "key run start", t->first_key,
                        n);
    if (t->nkeys > n - t->first_key)
        return rr__fail(room, diag, RR_ERR_INDEX, &t->nkeys, "key run end", t->nkeys,
                        n - t->first_key);
    return RR_OK;
}

/* Key times of a track start at 0 or later and never decrease (sampling
 * searches them). Position keys: the schema checked their coordinates;
 * rotation keys: any four components are a quaternion the sampler can
 * normalize. The keys are walked by their record size from the first one's
 * time (check_key_run checked the run), not looked up one by one. */
static rr_err check_key_times(const rr_room *room, const rr_emi_track *t, rr_diag *diag)
{
    const uint8_t *key = (const uint8_t *)key_time(room, t, 0);
    uint32_t k, size = t->op == RR_EMI_OP_POS ? sizeof(rr_emi_pkey) : sizeof(rr_emi_rkey);
    rr_fix prev = 0;
    for (k = 0; k < t->nkeys; k++, key += size) {
        const rr_fix *time = (const rr_fix *)(const void *)key;
        if (*time < prev)
            return rr__fail(room, diag, RR_ERR_RANGE, time, "key time order", (uint32_t)*time,
                            (uint32_t)prev);
        prev = *time;
    }
    return RR_OK;
}

/* Every track: a translation or rotation track, with a valid run of keys of
 * that kind. (Joint and priority: the schema.) */
static rr_err check_tracks(const rr_room *room, rr_diag *diag)
{
    const rr_emi_figure *f = figure_of(room);
    const rr_emi_track *tracks = tracks_of(room);
    uint32_t i;
    for (i = 0; i < f->ntracks; i++) {
        const rr_emi_track *t = &tracks[i];
        rr_err e;
        if (t->op != RR_EMI_OP_POS && t->op != RR_EMI_OP_ROT)
            return rr__fail(room, diag, RR_ERR_RANGE, &t->op, "track operation (3 or 4)", t->op,
                            RR_EMI_OP_ROT);
        e = check_key_run(room, t, t->op == RR_EMI_OP_POS ? f->npkeys : f->nrkeys, diag);
        if (!e)
            e = check_key_times(room, t, diag);
        if (e)
            return e;
    }
    return RR_OK;
}

/* Every animation lasts a positive time (looping divides by it). Its track
 * run: the schema. */
static rr_err check_anims(const rr_room *room, rr_diag *diag)
{
    const rr_emi_anim *anims = anims_of(room);
    uint32_t i, n = figure_of(room)->nanims;
    for (i = 0; i < n; i++)
        if (anims[i].duration <= 0)
            return rr__fail(room, diag, RR_ERR_RANGE, &anims[i].duration,
                            "duration (must be > 0)", (uint32_t)anims[i].duration, 0);
    return RR_OK;
}

/* VATTR, when present, has one record per vertex (the figure has no count
 * of its own for it). */
static rr_err check_vattr(const rr_room *room, rr_diag *diag)
{
    uint32_t n = rr__count(room, RR_EMI_S_vattr), nverts = figure_of(room)->nverts;
    if (n != 0 && n != nverts)
        return rr__fail_in(diag, RR_ERR_SECTION, RR_SEC_EMI_VATTR,
                           rr__offset(room, rr__records(room, RR_EMI_S_vattr)),
                           "vertex attribute count", n, nverts);
    return RR_OK;
}

/* The format's own checks, in one function out of line: rr_open's deepest
 * chain runs through rr__schema_open, and the caller's frame adds to it (on
 * Cortex-M0 the 512-byte bound leaves rr__emi_validate a few words). */
static RR_VALIDATION NOINLINE rr_err check_semantics(const rr_room *room, rr_diag *diag)
{
    rr_err e = check_figure(room, diag);
    if (!e)
        e = check_joints(room, diag);
    if (!e)
        e = check_vertices(room, diag);
    if (!e)
        e = check_tracks(room, diag);
    if (!e)
        e = check_anims(room, diag);
    if (!e)
        e = check_vattr(room, diag);
    return e;
}

RR_VALIDATION rr_err rr__emi_validate(rr_room *room, rr_diag *diag)
{
    rr_err e = rr__schema_open(room, &emi_schema, diag);
    if (e)
        return e;
    return check_semantics(room, diag);
}

/* ------------------------------------------------------------ lookup */

rr_err rr_emi_get_info(const rr_room *room, rr_emi_info *out)
{
    const rr_emi_figure *f;
    rr_err e = out ? emi_room(room) : RR_ERR_ARG;
    if (e)
        return e;
    f = figure_of(room);
    out->njoints = f->njoints;
    out->nverts = f->nverts;
    out->ntris = f->ntris;
    out->nanims = f->nanims;
    out->max_infl = f->max_infl;
    out->has_normals = (f->flags & RR_EMI_HAS_NORMALS) ? 1u : 0u;
    out->coord_frac = room->coord_frac;
    out->vert_shift = f->vert_shift;
    out->name = rr_string(room, f->name);
    return RR_OK;
}

/* ASCII lower case (the game's rule for names). */
static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static NOINLINE int name_ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = lower(*a);
        if (x != lower(*b))
            return 0;
        if (!x)
            return 1;
    }
}

/* The index of the first joint (of_anims 0) or animation (1) whose name is
 * name: the two lookups differ only in the section they search. */
static NOINLINE rr_err find_name(const rr_room *room, int of_anims, const char *name,
                                 uint32_t *index)
{
    const char *field;   /* the name field of record i (first in both records) */
    uint32_t i, n, stride;
    rr_err e = name && index ? emi_room(room) : RR_ERR_ARG;
    if (e)
        return e;
    if (of_anims) {
        field = (const char *)&anims_of(room)->name;
        n = figure_of(room)->nanims, stride = sizeof(rr_emi_anim);
    } else {
        field = (const char *)&joints_of(room)->name;
        n = figure_of(room)->njoints, stride = sizeof(rr_emi_joint);
    }
    for (i = 0; i < n; i++, field += stride)
        if (name_ieq(rr_string(room, *(const uint32_t *)field), name)) {
            *index = i;
            return RR_OK;
        }
    return RR_ERR_NOTFOUND;
}

rr_err rr_emi_joint_find(const rr_room *room, const char *name, uint32_t *index)
{
    return find_name(room, 0, name, index);
}

rr_err rr_emi_anim_find(const rr_room *room, const char *name, uint32_t *index)
{
    return find_name(room, 1, name, index);
}

rr_err rr_emi_joint_get(const rr_room *room, uint32_t index, const char **name,
                        int32_t *parent)
{
    const rr_emi_joint *j;
    rr_err e = emi_room(room);
    if (e)
        return e;
    if (index >= figure_of(room)->njoints)
        return RR_ERR_RANGE;
    j = &joints_of(room)[index];
    if (name)
        *name = rr_string(room, j->name);
    if (parent)
        *parent = j->parent;
    return RR_OK;
}

rr_err rr_emi_anim_get(const rr_room *room, uint32_t index, const char **name,
                       rr_fix *duration)
{
    const rr_emi_anim *a;
    rr_err e = emi_room(room);
    if (e)
        return e;
    if (index >= figure_of(room)->nanims)
        return RR_ERR_RANGE;
    a = &anims_of(room)[index];
    if (name)
        *name = rr_string(room, a->name);
    if (duration)
        *duration = a->duration;
    return RR_OK;
}

/* The bind pose into out[0 .. njoints). */
static void bind_pose(const rr_room *room, rr_emi_local *out)
{
    const rr_emi_joint *joints = joints_of(room);
    uint32_t i, n = figure_of(room)->njoints;
    int k;
    for (i = 0; i < n; i++) {
        for (k = 0; k < 3; k++)
            out[i].t[k] = joints[i].bind_t[k];
        for (k = 0; k < 4; k++)
            out[i].q[k] = joints[i].bind_q[k];
    }
}

rr_err rr_emi_bind_pose(const rr_room *room, rr_emi_local *out, uint32_t out_count)
{
    rr_err e = out ? joints_room(room, out_count) : RR_ERR_ARG;
    if (e)
        return e;
    bind_pose(room, out);
    return RR_OK;
}

/* ------------------------------------------------------------ sampling */

/* Q16 fraction (t - t0) / (t1 - t0) for t0 < t <= t1, rounded half up.
 * Keys less than a second apart (all but the rarest) take one 32-bit
 * division; the 64-bit one gives the same quotient for longer spans. */
static int32_t key_frac(int32_t t, int32_t t0, int32_t t1)
{
    uint32_t dt = (uint32_t)(t - t0), span = (uint32_t)(t1 - t0);
    if (span < 65536u)   /* dt <= span: dt * 2^16 + span / 2 < 2^32 */
        return (int32_t)(((dt << 16) + span / 2u) / span);
    return (int32_t)rr__div_round64((int64_t)dt * 65536, span);
}

/* The keys of track tr around t: with i the first key whose time >= t
 * (binary search), key i - 1 and the fraction of the way to key i (Q16, in
 * (0, 1]); or, when i is 0 or past the last key, the key to copy (the first
 * or the last) and -1. */
static NOINLINE int32_t key_span(const rr_room *room, const rr_emi_track *tr, rr_fix t,
                                 uint32_t *at)
{
    uint32_t lo = 0, hi = tr->nkeys;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (*key_time(room, tr, mid) >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    *at = lo ? lo - 1 : 0;   /* the last key when lo == nkeys */
    if (lo == 0 || lo == tr->nkeys)
        return -1;
    return key_frac(t, *key_time(room, tr, lo - 1), *key_time(room, tr, lo));
}

/* A key's snorm16 components as Q30 (v * 2^15: the length is 32767/32768 of
 * the key's, which the normalization after it removes). */
static void decode_rkey(const rr_emi_rkey *k, int32_t q[4])
{
    int c;
    for (c = 0; c < 4; c++)
        q[c] = k->q[c] * (1 << 15);
}

/* Track tr at time t into its channel of the local pose l: the
 * translation (op 3, keys lerped; a copied key is a lerp by 0, exact) or the
 * rotation (op 4, nlerped; a copied key is renormalized). */
static NOINLINE void sample_track(const rr_room *room, const rr_emi_track *tr, rr_fix t,
                                  rr_emi_local *l)
{
    uint32_t i;
    int32_t f = key_span(room, tr, t, &i);
    if (tr->op == RR_EMI_OP_POS) {
        const rr_emi_pkey *keys = pkeys_of(room) + tr->first_key;
        if (f < 0)
            lerp(keys[i].p, keys[i].p, 0, l->t, 3);
        else
            lerp(keys[i].p, keys[i + 1].p, f, l->t, 3);
    } else {
        const rr_emi_rkey *keys = rkeys_of(room) + tr->first_key;
        int32_t b[4];
        decode_rkey(&keys[i], l->q);
        if (f < 0) {
            quat_normalize(l->q);
        } else {
            decode_rkey(&keys[i + 1], b);
            quat_nlerp(l->q, b, f, l->q);
        }
    }
}

static rr_fix wrap_time(rr_fix t, rr_fix d, uint32_t mode)
{
    if (mode == RR_EMI_LOOP) {
        int32_t r = t % d;
        return r < 0 ? r + d : r;
    }
    return t < 0 ? 0 : t > d ? d : t;
}

rr_err rr_emi_sample_job_validate(const rr_emi_sample_job *job)
{
    rr_err e = job && job->out ? joints_room(job->room, job->out_count) : RR_ERR_ARG;
    if (e)
        return e;
    if (job->anim >= figure_of(job->room)->nanims || job->mode > RR_EMI_LOOP)
        return RR_ERR_RANGE;
    return RR_OK;
}

rr_err rr_emi_sample_job_run(const rr_emi_sample_job *job)
{
    const rr_room *room;
    const rr_emi_anim *a;
    const rr_emi_track *tracks;
    rr_fix t;
    uint32_t i;
    rr_err e = rr_emi_sample_job_validate(job);
    if (e)
        return e;
    room = job->room;
    bind_pose(room, job->out);
    if (job->mask)
        for (i = 0; i < RR_EMI_MASK_WORDS(figure_of(room)->njoints); i++)
            job->mask[i] = 0;
    a = &anims_of(room)[job->anim];
    tracks = tracks_of(room) + a->first_track;
    t = wrap_time(job->time, a->duration, job->mode);
    for (i = 0; i < a->ntracks; i++) {
        const rr_emi_track *tr = &tracks[i];
        /* channel 2 joint (translation) or 2 joint + 1 (rotation) */
        uint32_t bit = 2u * tr->joint + (tr->op == RR_EMI_OP_ROT ? 1u : 0u);
        sample_track(room, tr, t, &job->out[tr->joint]);
        if (job->mask)
            job->mask[bit / 32u] |= 1u << (bit % 32u);
    }
    return RR_OK;
}

/* ------------------------------------------------------------ blend */

rr_err rr_emi_blend_job_validate(const rr_emi_blend_job *job)
{
    rr_err e = job && job->a && job->b && job->out ? joints_room(job->room, job->count)
                                                   : RR_ERR_ARG;
    if (e)
        return e;
    if (job->weight < 0 || job->weight > RR_FIX_ONE)
        return RR_ERR_RANGE;
    return RR_OK;
}

rr_err rr_emi_blend_job_run(const rr_emi_blend_job *job)
{
    uint32_t i, n;
    int c;
    rr_err e = rr_emi_blend_job_validate(job);
    if (e)
        return e;
    n = figure_of(job->room)->njoints;
    for (i = 0; i < n; i++) {
        const rr_emi_local *a = &job->a[i], *b = &job->b[i];
        rr_emi_local *o = &job->out[i];
        /* which of joint i's channels b drives: bit 2i translation, 2i + 1 rotation */
        uint32_t ch = 2u * i;
        int drives_t = !job->b_mask || (job->b_mask[ch / 32u] >> (ch % 32u) & 1u);
        int drives_r = !job->b_mask || (job->b_mask[ch / 32u] >> (ch % 32u + 1u) & 1u);
        lerp(a->t, b->t, drives_t ? job->weight : 0, o->t, 3);
        if (drives_r && job->weight != 0) {
            quat_nlerp(a->q, b->q, job->weight, o->q);
        } else {   /* a's rotation exactly, not renormalized */
            for (c = 0; c < 4; c++)
                o->q[c] = a->q[c];
        }
    }
    return RR_OK;
}

/* ------------------------------------------------------------ model and skinning matrices */

rr_err rr_emi_model_job_validate(const rr_emi_model_job *job)
{
    return job && job->out ? joints_room(job->room, job->count) : RR_ERR_ARG;
}

rr_err rr_emi_model_job_run(const rr_emi_model_job *job)
{
    const rr_emi_joint *joints;
    uint32_t i, n;
    rr_err e = rr_emi_model_job_validate(job);
    if (e)
        return e;
    joints = joints_of(job->room);
    n = figure_of(job->room)->njoints;
    for (i = 0; i < n; i++) {
        const rr_emi_joint *j = &joints[i];
        const int32_t *lt = job->local ? job->local[i].t : j->bind_t;
        rr_emi_xform local;
        int c;
        quat_to_mat(job->local ? job->local[i].q : j->bind_q, local.r);
        for (c = 0; c < 3; c++)   /* valid poses stay within 2^24; see QCLAMP */
            local.t[c] = clamp(lt[c], (int32_t)1 << 28);
        if (j->parent < 0)
            job->out[i] = local;
        else   /* the parent's model matrix is done: parents come first */
            model_mul(&job->out[j->parent], local.r, local.t, &job->out[i]);
    }
    return RR_OK;
}

rr_err rr_emi_skin_matrices_job_validate(const rr_emi_skin_matrices_job *job)
{
    return job && job->model && job->out ? joints_room(job->room, job->count) : RR_ERR_ARG;
}

rr_err rr_emi_skin_matrices_job_run(const rr_emi_skin_matrices_job *job)
{
    const rr_emi_joint *joints;
    uint32_t i, n;
    rr_err e = rr_emi_skin_matrices_job_validate(job);
    if (e)
        return e;
    joints = joints_of(job->room);
    n = figure_of(job->room)->njoints;
    for (i = 0; i < n; i++) {
        rr_emi_xform tmp;   /* out may alias model; rotation in Q14, the skinning form */
        skin_mul(&job->model[i], joints[i].inv_r, joints[i].inv_t, &tmp);
        job->out[i] = tmp;
    }
    return RR_OK;
}

/* ------------------------------------------------------------ skinning */

rr_err rr_emi_skin_job_validate(const rr_emi_skin_job *job)
{
    uint32_t nverts;
    rr_err e = job && job->skin && job->pos_out ? emi_room(job->room) : RR_ERR_ARG;
    if (e)
        return e;
    nverts = figure_of(job->room)->nverts;
    if (job->first > nverts || job->count > nverts - job->first)
        return RR_ERR_RANGE;
    return RR_OK;
}

/* Skinning matrices act on 16-bit mesh vectors (vpos positions, snorm16
 * normals): row i of the rotation (Q14) dotted with one is one 32-bit sum
 * of three products, below 2^31 for matrices from
 * rr_emi_skin_matrices_job (|row| <= 1 + rounding: |r . v| < 1.74 x 2^29).
 * Other caller matrices wrap around (unsigned arithmetic) rather than
 * overflow: their results are meaningless but defined. */
static ALWAYS_INLINE int32_t row_dot(const int32_t *r, int32_t x, int32_t y, int32_t z)
{
    return (int32_t)((uint32_t)r[0] * (uint32_t)x + (uint32_t)r[1] * (uint32_t)y +
                     (uint32_t)r[2] * (uint32_t)z);
}

/* Component i of matrix m applied to the mesh position (x, y, z): the row
 * dot product (Q14 x vpos) shifted by 14 - vert_shift into coords
 * (truncating: towards -inf, at most one coord), plus the translation. */
static ALWAYS_INLINE int32_t skin_coord(const rr_emi_xform *m, int i, int32_t x, int32_t y,
                                        int32_t z, unsigned shift)
{
    return (int32_t)((uint32_t)(row_dot(m->r + 3 * i, x, y, z) >> shift) + (uint32_t)m->t[i]);
}

/* Component i of the rotated normal (x, y, z) (snorm16): Q14 x Q15 = Q29. */
static ALWAYS_INLINE int32_t skin_normal(const rr_emi_xform *m, int i, int32_t x, int32_t y,
                                         int32_t z)
{
    return row_dot(m->r + 3 * i, x, y, z);
}

/* Blending. A vertex with several influences is the weighted sum of what
 * each joint's matrix makes of it, with Q15 weights that sum to exactly 1
 * (RR_EMI_WEIGHT_ONE), so nothing is scaled. The sum is taken in 64 bits
 * and rounded once: each term is value x w, one SMULL/SMLAL (MULT on MIPS)
 * (w <= 2^15 fits an int32, so one influence of weight 1 blends too: the
 * value itself); the sum starts at 2^14, half of the unit 2^15 that
 * blend_end divides by, so the result is the weighted sum rounded to
 * nearest (half up). Unsigned additions: a junk matrix wraps instead of
 * overflowing. */
#define BLEND_HALF ((uint64_t)1 << 14)
#define BLEND_HALF_WORD ((uint64_t)1 << 31)   /* the same half, for blend_two's 2^32 unit */

static ALWAYS_INLINE uint64_t blend_add(uint64_t acc, int32_t value, int32_t w)
{
    return acc + (uint64_t)((int64_t)value * w);
}

static ALWAYS_INLINE int32_t blend_end(uint64_t acc)
{
    return (int32_t)(uint32_t)(acc >> 15);
}

/* Two influences: (w0 a + w1 b + 2^14) >> 15 = a + ((w1 (b - a) + 2^14) >> 15)
 * because w0 + w1 = 2^15 exactly; the same bits as the general blend with one
 * product instead of two. The product lands in the high word of a 64-bit
 * multiply-accumulate (one SMLAL on ARM) that starts from a itself: with
 * W = -(w1 << 17) and e = a - b, the 64-bit value a 2^32 + 2^31 + e W has
 * high word a + floor((w1 (b - a) 2^17 + 2^31) / 2^32), which is the blend
 * rounded half up: no separate rounding add, shift or final addition.
 * W fits an int32 because rr_open checked that the second weight of a
 * two-influence vertex is at most half (w1 <= w0, so w1 <= 2^14). */
static ALWAYS_INLINE int32_t blend_weight(uint32_t w1)
{
    return (int32_t)(0u - (w1 << 17));
}

static ALWAYS_INLINE int32_t blend_two(int32_t a, int32_t b, int32_t W)
{
    int32_t e = (int32_t)((uint32_t)a - (uint32_t)b);
    uint64_t acc = ((uint64_t)(uint32_t)a << 32 | BLEND_HALF_WORD) + (uint64_t)((int64_t)e * W);
    return (int32_t)(uint32_t)(acc >> 32);
}

/* normal_unit's exact path (out of line: it needs n in memory). */
static NOINLINE void normal_unit_exact(int32_t x, int32_t y, int32_t z, rr_vec3 *out)
{
    int32_t n[3], u[3] = {0, 0, 0};
    n[0] = x, n[1] = y, n[2] = z;
    unit(n, u, 3, 16);
    out->x = u[0], out->y = u[1], out->z = u[2];
}

/* The blended normal n (Q29 components, |n| <= 1) as a unit rr_fix vector
 * in out: Newton reciprocal square root when |n|^2 >= 1/4 (influences less
 * than 120 degrees apart), normal_unit_exact below that; zero stays zero.
 * One copy for every blended normal (two influences: skin_two_normal, which
 * ends in a jump here; three or four: skin_many_normal), so that its Newton
 * steps can be written out (rsqrt_q30's bits, without its loop) within the
 * code budget: on the Cortex-M3 rr_emi.o 8,171 bytes where the copy inlined
 * into skin_two_normal and the general blend's call took 8,247 with the
 * steps as a loop (make bench, M3, with normals: figure 14,558 -> 14,522,
 * emi_gen1 18,192 -> 16,400). In ARM code (ARM926) the call costs the
 * figure's two-influence normals more than the steps save (14,666 ->
 * 14,775), so there it is inlined into both (14,451); that board has no
 * code budget of its own. Each component is
 * n y / 2^43 rounded half up from the high word of the product alone:
 * (hi 2^32 + lo + 2^42) >> 43 == (hi + 2^10) >> 11 for any lo < 2^32. It
 * differs from rounding half away from zero only when n y is exactly an odd
 * multiple of 2^42, which a Newton y (< 2^31) and a rotated normal do not
 * meet in practice; either way the result is within half a Q16 step. */
#if defined(__arm__) && !defined(__thumb__)
#define NORMAL_UNIT ALWAYS_INLINE
#else
#define NORMAL_UNIT NOINLINE
#endif
static NORMAL_UNIT void normal_unit(int32_t nx, int32_t ny, int32_t nz, rr_vec3 *out)
{
    uint64_t l2 = (uint64_t)((int64_t)nx * nx) + (uint64_t)((int64_t)ny * ny) +
                  (uint64_t)((int64_t)nz * nz);   /* Q58 */
    uint32_t x = (uint32_t)(l2 >> (2u * 29u - Q30));   /* Q30 (exact when l2 < 2^60) */
    if ((l2 >> 59) == 0 && x > RSQRT_LO) {   /* RSQRT_LO < |n|^2 < RSQRT_HI (2^31 in Q30) */
        uint32_t y = rsqrt_seed[(x >> 26) - 4u];
        y = rsqrt_step(x, y);
        y = rsqrt_step(x, y);
        y = rsqrt_step(x, y);   /* Q30, < 2^31: rsqrt_q30's bits */
        out->x = (int32_t)(((int32_t)(((int64_t)nx * (int32_t)y) >> 32) + (1 << 10)) >> 11);
        out->y = (int32_t)(((int32_t)(((int64_t)ny * (int32_t)y) >> 32) + (1 << 10)) >> 11);
        out->z = (int32_t)(((int32_t)(((int64_t)nz * (int32_t)y) >> 32) + (1 << 10)) >> 11);
    } else {
        normal_unit_exact(nx, ny, nz, out);
    }
}

/* The position of vertex v that the matrices m0 and m1 move, the second
 * with weight w1 (at most half: rr_open checked it). */
static ALWAYS_INLINE void skin_two_at(const rr_emi_xform *m0, const rr_emi_xform *m1,
                                      uint32_t w1, const rr_emi_vert *v, unsigned shift,
                                      rr_vec3 *pos)
{
    int32_t x = v->pos[0], y = v->pos[1], z = v->pos[2], W = blend_weight(w1);
    pos->x = blend_two(skin_coord(m0, 0, x, y, z, shift), skin_coord(m1, 0, x, y, z, shift), W);
    pos->y = blend_two(skin_coord(m0, 1, x, y, z, shift), skin_coord(m1, 1, x, y, z, shift), W);
    pos->z = blend_two(skin_coord(m0, 2, x, y, z, shift), skin_coord(m1, 2, x, y, z, shift), W);
}

/* A vertex with two influences (the common blend): its position (on
 * Thumb-1 only: elsewhere an unpaired one is skin_many's, the same bits),
 * and apart (each out of line with only its own registers) its normal,
 * blended and then renormalized by normal_unit. */
static NOINLINE void skin_two(const rr_emi_infl *in, const rr_emi_xform *skin,
                              const rr_emi_vert *v, unsigned shift, rr_vec3 *pos)
{
    skin_two_at(&skin[in[0].joint], &skin[in[1].joint], in[1].weight, v, shift, pos);
}

static NOINLINE void skin_two_normal(const rr_emi_vert *v, const rr_emi_infl *infl,
                                     const rr_emi_xform *skin, rr_vec3 *nrm)
{
    const rr_emi_infl *in = infl + v->infl_first;
    const rr_emi_xform *m0 = &skin[in[0].joint], *m1 = &skin[in[1].joint];
    int32_t x = v->nrm[0], y = v->nrm[1], z = v->nrm[2], W = blend_weight(in[1].weight);
    normal_unit(blend_two(skin_normal(m0, 0, x, y, z), skin_normal(m1, 0, x, y, z), W),
                blend_two(skin_normal(m0, 1, x, y, z), skin_normal(m1, 1, x, y, z), W),
                blend_two(skin_normal(m0, 2, x, y, z), skin_normal(m1, 2, x, y, z), W), nrm);
}

/* The general blend, one function for positions and one for normals (a
 * position's shift and translation would take two of the registers that
 * hold the three 64-bit sums; session 15's shared loop spilled two of the
 * sums and masked the translation out for normals: make bench, M3, emi_gen1
 * positions 7,109 -> 6,669, 46 -> 41 instructions an influence, with
 * normals 46 -> 30 in the normals' loop).
 *
 * Each takes the vertex itself and the figure's INFL (infl): it reads the
 * vertex's influence run and vector, so a call passes four or five
 * registers instead of their values (make bench, M3: emi_gen1 6,669 ->
 * 6,590, with normals 16,400 -> 16,190, figure with normals 14,522 ->
 * 14,446 through skin_two_normal, taking the same).
 *
 * A vertex's position over its n influences: the sum of w * (M p) over
 * them (each matrix applied: skin_coord), taken in 64 bits and rounded once
 * (blend_add). Without influences (n = 0) the vertex stays in the bind
 * pose: vpos << vert_shift coords. */
static NOINLINE void skin_many(const rr_emi_vert *v, const rr_emi_infl *infl,
                               const rr_emi_xform *skin, unsigned shift, rr_vec3 *pos)
{
    uint32_t n = v->infl_count;
    const rr_emi_infl *in = infl + v->infl_first, *end = in + n;
    int32_t x = v->pos[0], y = v->pos[1], z = v->pos[2];
    uint64_t ax = BLEND_HALF, ay = BLEND_HALF, az = BLEND_HALF;
    if (n == 0) {
        int32_t step = 1 << (SKIN_FRAC - shift);
        pos->x = x * step, pos->y = y * step, pos->z = z * step;
        return;
    }
    do {
        const rr_emi_xform *m = &skin[in->joint];
        int32_t w = in->weight;
        ax = blend_add(ax, skin_coord(m, 0, x, y, z, shift), w);
        ay = blend_add(ay, skin_coord(m, 1, x, y, z, shift), w);
        az = blend_add(az, skin_coord(m, 2, x, y, z, shift), w);
    } while (++in < end);
    pos->x = blend_end(ax), pos->y = blend_end(ay), pos->z = blend_end(az);
}

/* The same blend of a vertex's normal, rotated only (skin_normal: Q29),
 * then renormalized (normal_unit); without influences the bind normal,
 * Q15 -> Q16. */
static NOINLINE void skin_many_normal(const rr_emi_vert *v, const rr_emi_infl *infl,
                                      const rr_emi_xform *skin, rr_vec3 *nrm)
{
    uint32_t n = v->infl_count;
    const rr_emi_infl *in = infl + v->infl_first, *end = in + n;
    int32_t x = v->nrm[0], y = v->nrm[1], z = v->nrm[2];
    uint64_t ax = BLEND_HALF, ay = BLEND_HALF, az = BLEND_HALF;
    if (n == 0) {
        nrm->x = x * 2, nrm->y = y * 2, nrm->z = z * 2;
        return;
    }
    do {
        const rr_emi_xform *m = &skin[in->joint];
        int32_t w = in->weight;
        ax = blend_add(ax, skin_normal(m, 0, x, y, z), w);
        ay = blend_add(ay, skin_normal(m, 1, x, y, z), w);
        az = blend_add(az, skin_normal(m, 2, x, y, z), w);
    } while (++in < end);
    normal_unit(blend_end(ax), blend_end(ay), blend_end(az), nrm);
}

/* Pairs and runs pay where the registers hold a row of the matrix and both
 * vertices (13 values): ARM, Thumb-2 and MIPS. Thumb-1 (Cortex-M0) reaches
 * only 8 registers with most instructions; there the pair spills and costs
 * more than two single vertices (make bench: micro:bit skin_pos 106 -> 116
 * per influence on the sample figure), so it skins one vertex at a time and
 * does not read the runs. The results are the same bits either way. */
#if defined(__thumb__) && !defined(__thumb2__)
#define SKIN_PAIRS 0
#else
#define SKIN_PAIRS 1
#endif
/* Two vertices of a run of two joints (skin_two_pair) are done row by row,
 * each word of both matrices loaded once for the two, where the registers
 * hold it (Thumb-2, MIPS: make bench, M3 figure 7,078 -> 6,556). On ARM
 * code for ARMv5 (ARM926) a multiply's destination must differ from its
 * first operand and GCC copies registers to obey, so the row-wise pair costs
 * 182 where two vertices one after the other cost 158: there the pair is
 * two vertices, each with both matrices (figure 6,962 -> 6,608). */
#if defined(__arm__) && !defined(__thumb__)
#define SKIN_TWO_ROWS 0
#else
#define SKIN_TWO_ROWS 1
#endif

/* The position of vertex v that the matrix m alone moves. */
static ALWAYS_INLINE void skin_one(const rr_emi_xform *m, const rr_emi_vert *v, unsigned shift,
                                   rr_vec3 *pos)
{
    int32_t x = v->pos[0], y = v->pos[1], z = v->pos[2];
    pos->x = skin_coord(m, 0, x, y, z, shift);
    pos->y = skin_coord(m, 1, x, y, z, shift);
    pos->z = skin_coord(m, 2, x, y, z, shift);
}

/* Positions of two consecutive vertices v[0], v[1] that the same joint
 * alone moves (matrix m): each word of the matrix is loaded once for both.
 * The whole matrix does not fit the registers with a vertex, but a row of
 * it does with two vertices; out of line, so that the pair has the
 * registers to itself. */
static NOINLINE void skin_pair(const rr_emi_xform *m, const rr_emi_vert *v, unsigned shift,
                               rr_vec3 *pos)
{
    int32_t x0 = v[0].pos[0], y0 = v[0].pos[1], z0 = v[0].pos[2];
    int32_t x1 = v[1].pos[0], y1 = v[1].pos[1], z1 = v[1].pos[2];
    int32_t a, b;   /* both before either is stored: else m is read again after the store */
    a = skin_coord(m, 0, x0, y0, z0, shift), b = skin_coord(m, 0, x1, y1, z1, shift);
    pos[0].x = a, pos[1].x = b;
    a = skin_coord(m, 1, x0, y0, z0, shift), b = skin_coord(m, 1, x1, y1, z1, shift);
    pos[0].y = a, pos[1].y = b;
    a = skin_coord(m, 2, x0, y0, z0, shift), b = skin_coord(m, 2, x1, y1, z1, shift);
    pos[0].z = a, pos[1].z = b;
}

/* Positions of two consecutive vertices v[0], v[1] that the same two joints
 * move, their influences in[0..3] (rr_open checked that a run's influences
 * follow one another and name the same joints): each word of both matrices
 * is loaded once for the two. */
static NOINLINE void skin_two_pair(const rr_emi_infl *in, const rr_emi_xform *skin,
                                   const rr_emi_vert *v, unsigned shift, rr_vec3 *pos)
{
    const rr_emi_xform *m0 = &skin[in[0].joint], *m1 = &skin[in[1].joint];
    int32_t x0, y0, z0, x1, y1, z1, W0, W1, a, b;
    if (!SKIN_TWO_ROWS) {
        skin_two_at(m0, m1, in[1].weight, v, shift, pos);
        skin_two_at(m0, m1, in[3].weight, v + 1, shift, pos + 1);
        return;
    }
    x0 = v[0].pos[0], y0 = v[0].pos[1], z0 = v[0].pos[2];
    x1 = v[1].pos[0], y1 = v[1].pos[1], z1 = v[1].pos[2];
    W0 = blend_weight(in[1].weight), W1 = blend_weight(in[3].weight);
    /* both before either is stored: else m is read again after the store */
    a = blend_two(skin_coord(m0, 0, x0, y0, z0, shift), skin_coord(m1, 0, x0, y0, z0, shift), W0);
    b = blend_two(skin_coord(m0, 0, x1, y1, z1, shift), skin_coord(m1, 0, x1, y1, z1, shift), W1);
    pos[0].x = a, pos[1].x = b;
    a = blend_two(skin_coord(m0, 1, x0, y0, z0, shift), skin_coord(m1, 1, x0, y0, z0, shift), W0);
    b = blend_two(skin_coord(m0, 1, x1, y1, z1, shift), skin_coord(m1, 1, x1, y1, z1, shift), W1);
    pos[0].y = a, pos[1].y = b;
    a = blend_two(skin_coord(m0, 2, x0, y0, z0, shift), skin_coord(m1, 2, x0, y0, z0, shift), W0);
    b = blend_two(skin_coord(m0, 2, x1, y1, z1, shift), skin_coord(m1, 2, x1, y1, z1, shift), W1);
    pos[0].z = a, pos[1].z = b;
}

/* Positions of vertices v .. end, two at a time where a vertex's run
 * (rr_emi_blob.h) says that the next vertex has its joints and the job
 * holds both: one joint (most vertices: skin_pair) or the same two
 * (skin_two_pair); every other vertex one at a time, out of line. Pair by
 * pair rather than run by run: the figures' runs are mostly of 2, which then
 * cost one test of the run and one call, and a longer run is taken pair
 * after pair, its end or the job's met wherever they fall. Inlined into the
 * job (make bench: M3 figure 6,247 -> 6,201, no arguments to pass); on
 * Thumb-1, where the runs are not read (SKIN_PAIRS), out of line (inlined
 * there it cost the micro:bit 16,310 -> 16,544). */
#if SKIN_PAIRS
#define SKIN_POSITIONS ALWAYS_INLINE
#else
#define SKIN_POSITIONS NOINLINE
#endif
static SKIN_POSITIONS void skin_positions(const rr_emi_vert *v, const rr_emi_vert *end,
                                    const rr_emi_infl *infl, const rr_emi_xform *skin,
                                    unsigned shift, rr_vec3 *pos)
{
    const rr_emi_vert *last;   /* the job's last vertex: a pair starts before it */
    if (v == end)
        return;
    last = end - 1;
    while (v <= last) {
        int32_t single = v->single;
        if (SKIN_PAIRS && v->run > 1 && v < last) {   /* v + 1: v's joints (rr_open) */
            if (single >= 0) {   /* and while the run goes on past the pair, the next */
                const rr_emi_xform *m = &skin[single];
                skin_pair(m, v, shift, pos);
                for (; v->run > 3 && v + 2 < last; v += 2, pos += 2)
                    skin_pair(m, v + 2, shift, pos + 2);
                v += 2, pos += 2;
                continue;
            }
            if (v->infl_count == 2) {
                skin_two_pair(infl + v->infl_first, skin, v, shift, pos);
                v += 2, pos += 2;
                continue;
            }
        }
        if (!SKIN_PAIRS && single >= 0)   /* one influence, of joint single */
            skin_one(&skin[single], v, shift, pos);
        else if (!SKIN_PAIRS && v->infl_count == 2)
            skin_two(infl + v->infl_first, skin, v, shift, pos);
        else   /* unpaired (off Thumb-1), three or four influences, or none */
            skin_many(v, infl, skin, shift, pos);
        v++, pos++;
    }
}

/* Normals of vertices v .. end (the positions are skin_positions'). A
 * vertex with one influence (most vertices) has its normal rotated, Q29 ->
 * Q16 (unit within the rotation's rounding, docs/emi.md, so not
 * renormalized), in the loop; blends are out of line, so that their 64-bit
 * sums do not take this loop's registers. */
static NOINLINE void skin_normals(const rr_emi_vert *v, const rr_emi_vert *end,
                                  const rr_emi_infl *infl, const rr_emi_xform *skin,
                                  rr_vec3 *nrm)
{
    for (; v < end; v++, nrm++) {
        int32_t single = v->single;
        if (single >= 0) {   /* one influence, of joint single */
            const rr_emi_xform *m = &skin[single];
            int32_t x = v->nrm[0], y = v->nrm[1], z = v->nrm[2];
            nrm->x = skin_normal(m, 0, x, y, z) >> (29 - 16);
            nrm->y = skin_normal(m, 1, x, y, z) >> (29 - 16);
            nrm->z = skin_normal(m, 2, x, y, z) >> (29 - 16);
        } else if (v->infl_count == 2) {
            skin_two_normal(v, infl, skin, nrm);
        } else {
            skin_many_normal(v, infl, skin, nrm);
        }
    }
}

/* Linear blend skinning of a range of vertices (rr_emi.h): positions, then
 * normals when the job asks for them. */
rr_err rr_emi_skin_job_run(const rr_emi_skin_job *job)
{
    const rr_emi_vert *v, *end;
    const rr_emi_infl *infl;
    unsigned shift;
    rr_err e = rr_emi_skin_job_validate(job);
    if (e)
        return e;
    v = verts_of(job->room) + job->first, end = v + job->count;
    infl = infl_of(job->room);
    shift = SKIN_FRAC - figure_of(job->room)->vert_shift;   /* Q14 * vpos -> coords */
    skin_positions(v, end, infl, job->skin, shift, job->pos_out);
    if (job->nrm_out)
        skin_normals(v, end, infl, job->skin, job->nrm_out);
    return RR_OK;
}

/* rr_emi.c - EMI figure runtime: validation of the baked sections, joint and
 * animation lookup, keyframe sampling, pose blending, local->model, skinning
 * matrices and linear blend skinning (rr_emi.h).
 *
 * Layout (rr_emi_blob.h): joints are parent-before-child, so every pass over
 * them is one forward loop; every index, run and key order is checked once
 * in rr__emi_validate, so the jobs below check only their own arguments.
 * Fixed point only: coords (blob coord_frac), Q30 rotations, Q16.16 rest.
 */
#define RR_INTERNAL
#include "rr_int.h"
#include "rr_emi.h"
#include "rr_emi_blob.h"

/* Smallest-three decoding constants: step sqrt2/32767 in Q46, 1/sqrt2 in Q30. */
#define RKEY_STEP_Q46 3037093185LL
#define INV_SQRT2_Q30 759250125LL
#define Q30 30u

/* Helpers kept out of line so that no job's frame holds all of them at once
 * (the 64-bit temporaries weigh on Cortex-M0 registers). */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* The sections of an open EMI room (pointers only; validated at open):
 * typed in s, and as p[k] the section FIGURE + k (TRIS as k = 8), which
 * sections() fills
 * (reading another member of a union than the one written is defined in
 * C99 TC3, 6.5.2.3 note 82; all object pointers here share one
 * representation); then the room and where its failures go (rr_open's
 * diag, or NULL for a query), so that a failure site needs only g. */
typedef union fig {
    struct fig_sections {
        const rr_emi_figure *f;
        const rr_emi_joint *j;
        const rr_emi_vert *v;
        const rr_emi_infl *in;
        const rr_emi_anim *a;
        const rr_emi_track *t;
        const rr_emi_pkey *pk;
        const rr_emi_rkey *rk;
        const rr_emi_tri *tri;   /* validation only (sections() k = 8) */
        const rr_room *room;
        rr_diag *diag;
    } s;
    const void *p[9];
} fig;

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

/* out = v / |v| with one (2^shift) as the unit, for n components; returns
 * |v| and leaves out alone when it is 0. out may be v (each component is
 * read before it is written). One body for quaternions (Q30) and skinned
 * normals (Q16). */
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

/* Unit quaternion (Q30) in place; a zero quaternion becomes the identity. */
static NOINLINE void quat_normalize(int32_t q[4])
{
    if (unit(q, q, 4, Q30) == 0) {
        q[0] = q[1] = q[2] = 0;
        q[3] = (int32_t)RR_EMI_Q30_ONE;
    }
}

/* Caller-supplied poses are meant to hold unit quaternions; clamping each
 * component to a little over 1 keeps every product below 2^61 even when they
 * do not, so no job can overflow (results of such input are meaningless). */
#define QCLAMP (RR_EMI_Q30_ONE + 4096)

/* v clamped to [-lim, lim]; out of line, as qclamp: one copy for the
 * quaternion and translation clamps. */
static NOINLINE int32_t clamp(int32_t v, int32_t lim)
{
    return v > lim ? lim : v < -lim ? -lim : v;
}

static NOINLINE int32_t qclamp(int32_t v)
{
    return clamp(v, (int32_t)QCLAMP);
}

/* out[c] = a[c] + (b[c] - a[c]) * f for c < n, f in Q16 [0, 1] (translations
 * and quaternion components): out may alias a or b. */
static NOINLINE void lerp(const int32_t *a, const int32_t *b, int32_t f, int32_t *out, int n)
{
    int c;
    for (c = 0; c < n; c++)
        out[c] = rr__sat32(a[c] + shr_round(((int64_t)b[c] - a[c]) * f, 16));
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

/* Rotation matrix of a unit quaternion (x, y, z, w) = q[0..3], Q30, row
 * major: entry i is 2 (q[a] q[b] + q[c] q[d]), or 2 (q[a] q[b] - q[c] q[d])
 * when QM_MINUS, or 1 - 2 (q[a] q[b] + q[c] q[d]) on the diagonal (QM_DIAG),
 * with {a, b, c, d} = qm[i]. */
#define QM_MINUS 1u
#define QM_DIAG 2u
static const uint8_t qm[9][5] = {
    {1, 1, 2, 2, QM_DIAG}, {0, 1, 2, 3, QM_MINUS}, {0, 2, 1, 3, 0},
    {0, 1, 2, 3, 0},       {0, 0, 2, 2, QM_DIAG},  {1, 2, 0, 3, QM_MINUS},
    {0, 2, 1, 3, QM_MINUS}, {1, 2, 0, 3, 0},       {0, 0, 1, 1, QM_DIAG}};

static NOINLINE void quat_to_mat(const int32_t q[4], int32_t r[9])
{
    int32_t v[4];
    int64_t s, t;
    int i;
    for (i = 0; i < 4; i++)
        v[i] = qclamp(q[i]);
    for (i = 0; i < 9; i++) {   /* 32 x 32-bit products: |v| <= QCLAMP < 2^31 */
        const uint8_t *e = qm[i];
        s = (int64_t)v[e[2]] * v[e[3]];
        s = (int64_t)v[e[0]] * v[e[1]] + ((e[4] & QM_MINUS) ? -s : s);
        t = shr_round(2 * s, Q30);
        r[i] = rr__sat32((e[4] & QM_DIAG) ? RR_EMI_Q30_ONE - t : t);
    }
}

/* out = a * b for rotation (Q30) + translation (coords) transforms. out may
 * not alias a or b (b is the rotation br and translation bt). */
static NOINLINE void xform_mul(const rr_emi_xform *a, const int32_t br[9], const int32_t bt[3],
                               rr_emi_xform *out)
{
    int i, k;
    for (i = 0; i < 3; i++) {
        const int32_t *row = a->r + 3 * i;
        for (k = 0; k < 4; k++) {   /* columns 0..2 of br, then bt (+ a->t[i]) */
            const int32_t *col = k < 3 ? br + k : bt;
            int s = k < 3 ? 3 : 1;
            int64_t v = shr_round((int64_t)row[0] * col[0] + (int64_t)row[1] * col[s] +
                                      (int64_t)row[2] * col[2 * s], Q30);
            if (k < 3)
                out->r[3 * i + k] = rr__sat32(v);
            else
                out->t[i] = rr__sat32(v + a->t[i]);
        }
    }
}

/* ------------------------------------------------------------ sections */

/* Fill diag (rr__fail_at) with the offset of p in the blob (rr__offset
 * inline: a call costs more than the subtraction), and return e. */
#define FAIL(e, s, p, what, v, lim) \
    rr__fail_at(diag, RR_ES(e, s), (uint32_t)((const uint8_t *)(p) - room->blob), (what), \
                (uint32_t)(v), (uint32_t)(lim))

/* The validator's failure sites: each check passes a small index instead of
 * its code, section and what (about 18 bytes less per site on Cortex-M3).
 * A site's byte holds -code (5 bits) and its section as FIGURE + k (3 bits). */
#define SITE(code, sec) (uint8_t)(-(code) | (RR_SEC_EMI_##sec - RR_SEC_EMI_FIGURE) << 5)
enum {
    S_FIGURE, S_JNAME, S_CYCLE, S_PARENT, S_DEPTH, S_INFL_RUN, S_INFL_JOINT, S_WEIGHT, S_SUM,
    S_PORDER, S_RORDER, S_RFLAG, S_PCOORD, S_TJOINT, S_TOP, S_KRUN, S_ANAME, S_DURATION, S_TRUN
};
static const uint8_t site_es[] = {
    SITE(RR_ERR_RANGE, FIGURE), SITE(RR_ERR_INDEX, JOINTS), SITE(RR_ERR_CYCLE, JOINTS),
    SITE(RR_ERR_INDEX, JOINTS), SITE(RR_ERR_DEPTH, JOINTS), SITE(RR_ERR_INDEX, VERTS),
    SITE(RR_ERR_INDEX, INFL), SITE(RR_ERR_RANGE, INFL), SITE(RR_ERR_RANGE, VERTS),
    SITE(RR_ERR_RANGE, PKEYS), SITE(RR_ERR_RANGE, RKEYS), SITE(RR_ERR_RANGE, RKEYS),
    SITE(RR_ERR_RANGE, PKEYS), SITE(RR_ERR_INDEX, TRACKS), SITE(RR_ERR_RANGE, TRACKS),
    SITE(RR_ERR_INDEX, TRACKS), SITE(RR_ERR_INDEX, ANIMS), SITE(RR_ERR_RANGE, ANIMS),
    SITE(RR_ERR_INDEX, ANIMS),
};
/* The sites' what texts in site order, one copy for the two sites that share
 * one (S_CYCLE and S_PARENT, S_PORDER and S_RORDER): one array, no pointer
 * table and no padding between the strings. */
static const char site_whats[] =
    "figure record\0"
    "joint name\0"
    "joint parent (must be < own index)\0"
    "joint depth\0"
    "influence run\0"
    "influence joint\0"
    "influence weight\0"
    "weight sum\0"
    "key time order\0"
    "rotation key flag bit\0"
    "key coordinate\0"
    "track joint\0"
    "track operation\0"
    "key run\0"
    "animation name\0"
    "duration\0"
    "track run";
typedef char rr__emi_site_codes[-RR_ERR_MISSING < 32 && RR_SEC_EMI_RKEYS - RR_SEC_EMI_FIGURE < 8
                                ? 1 : -1];

/* The words of the figure that hold the counts. */
enum { N_JOINTS, N_VERTS, N_INFL, N_ANIMS, N_TRACKS, N_PKEYS, N_RKEYS };

/* The limit each failure site reports (its value is the argument x):
 *   L_ZERO  0   L_FIG + k  word k of the figure (its counts from njoints)
 *   L_POW + k  2^(2k)
 * or L_X32, L_XS16, L_XU16: the limit is x, and the value the u32, int16 or
 * u16 field at p (no member of g for such limits keeps rr_open's stack low). */
enum { L_ZERO, L_X32, L_XS16, L_XU16, L_FIG = 8, L_POW = 16 };
static const uint8_t site_lim[] = {
    L_POW + 5,   /* figure: RR_EMI_MAX_JOINTS */
    L_ZERO, L_XS16, L_XS16, L_XU16, L_FIG + N_INFL, L_FIG + N_JOINTS,
    L_POW + 8, L_POW + 8,   /* weight and sum: RR_FIX_ONE */
    L_X32, L_X32, L_ZERO,
    L_POW + 12,   /* key coordinate: RR_EMI_COORD_MAX */
    L_FIG + N_JOINTS, L_POW + 1, L_X32, L_ZERO, L_ZERO, L_FIG + N_TRACKS,
};
typedef char rr__emi_site_pows[RR_EMI_MAX_JOINTS == 1 << 10 && RR_FIX_ONE == 1L << 16 &&
                               RR_EMI_COORD_MAX == 1L << 24 &&
                               sizeof site_lim == sizeof site_es ? 1 : -1];

/* Fill g's diag for failure site at the blob bytes p (value or limit x),
 * and return its code. Four arguments: registers on every ABI here, which
 * the site's own six (value, limit, room and diag) would not be. */
static NOINLINE rr_err bad(const fig *g, unsigned site, const void *p, uint32_t x)
{
    unsigned es = site_es[site], l = site_lim[site];
    unsigned n = site - (site > S_CYCLE) - (site > S_PORDER);   /* its text */
    const char *what = site_whats;
    uint32_t v = x, lim = l >= L_POW ? 1u << 2 * (l - L_POW)
                        : l >= L_FIG ? (&g->s.f->njoints)[l - L_FIG] : 0;
    while (n)   /* past n NULs */
        n -= !*what++;
    if (l != L_ZERO && l < L_FIG) {
        lim = x;
        v = l == L_X32    ? *(const uint32_t *)p
            : l == L_XS16 ? (uint32_t) * (const int16_t *)p
                          : *(const uint16_t *)p;
    }
    return rr__fail_at(g->s.diag, (RR_SEC_EMI_FIGURE + (es >> 5)) << 8 | (es & 31u),
                       (uint32_t)((const uint8_t *)p - g->s.room->blob), what, v, lim);
}
#define BAD(site, p, x) bad(g, (site), (p), (uint32_t)(x))

/* Element sizes of the sections FIGURE + k (k < 8: the order of fig's
 * pointers), and of TRIS as k = 8; then the word of rr_emi_figure that
 * holds each one's count (k >= 1: njoints .. nrkeys, then ntris). */
static const uint8_t sec_info[2][9] = {
    {sizeof(rr_emi_figure), sizeof(rr_emi_joint), sizeof(rr_emi_vert), sizeof(rr_emi_infl),
     sizeof(rr_emi_anim), sizeof(rr_emi_track), sizeof(rr_emi_pkey), sizeof(rr_emi_rkey),
     sizeof(rr_emi_tri)},
    {0, 0, 1, 2, 3, 4, 5, 6, offsetof(rr_emi_figure, ntris) / 4}};
typedef char rr__emi_tris_type[RR_SEC_EMI_TRIS == (RR_SEC_EMI_FIGURE + 8) + 0x8000 ? 1 : -1];

/* Sections k .. end - 1 of the list above into g (TRIS: validation only),
 * checked as rr_open does (after rr__sections_known): k = 0 is the one
 * FIGURE record, every other section holds the count the figure gives it,
 * or is absent when that is 0. One body for the validator (0 .. 8, then
 * TRIS after the records) and for every query (0 .. 8), which meet only
 * rooms that passed it; no call in between keeps rr_open's stack low. */
static NOINLINE rr_err sections(fig *g, uint32_t k, uint32_t end)
{
    const rr_room *room = g->s.room;
    rr_diag *diag = g->s.diag;
    for (; k < end; k++) {
        const rr_emi_figure *f = g->s.f;
        uint32_t type = RR_SEC_EMI_FIGURE + k + (k >> 3 << 15), n, count;   /* TRIS at 8 */
        const void *p;   /* NULL when absent (rr__section) */
        rr_err e = rr__section(room, type, sec_info[0][k], &p, &n, diag);
        if (k == 0) {
            if (e)
                return e;
            g->p[0] = f = (const rr_emi_figure *)p;
            if (n != 1 || f->njoints == 0 || f->njoints > RR_EMI_MAX_JOINTS ||
                !rr__string_ok(room, f->name))
                return BAD(S_FIGURE, f, f->njoints);
            continue;
        }
        count = (&f->njoints)[sec_info[1][k]];
        if (e && !(e == RR_ERR_MISSING && count == 0))
            return e;
        if (!e && n != count)
            return FAIL(RR_ERR_SECTION, type, p, "element count", n, count);
        g->p[k] = p;
    }
    return RR_OK;
}

/* The sections of an EMI room for a query. */
static NOINLINE rr_err load(const rr_room *room, fig *g)
{
    if (!room || room->format != RR_FMT_EMI)
        return room ? RR_ERR_FORMAT : RR_ERR_ARG;
    g->s.room = room;
    g->s.diag = 0;
    return sections(g, 0, 8) ? RR_ERR_FORMAT : RR_OK;
}

/* ------------------------------------------------------------ validation */


static int coord_ok(int32_t v)
{
    return v >= -RR_EMI_COORD_MAX && v <= RR_EMI_COORD_MAX;
}

/* Field tables for rr__check_fields: counts are the words of the figure
 * (N_*, above). */
#define Q30_MAX (RR_EMI_Q30_ONE + 64)

/* All RR_ERR_RANGE (any order gives the same code). */
static const rr_field joint_fields[] = {
    RR_SECTION_CHECK(RR_SEC_EMI_JOINTS, rr_emi_joint),
    RR_FIELDS(rr_emi_joint, bind_t, 3, RR_F_ABS, RR_ERR_RANGE, RR_EMI_COORD_MAX,
              "joint coordinate"),
    RR_FIELDS(rr_emi_joint, inv_t, 3, RR_F_ABS, RR_ERR_RANGE, RR_EMI_COORD_MAX,
              "joint coordinate"),
    RR_FIELDS(rr_emi_joint, inv_r, 9, RR_F_ABS, RR_ERR_RANGE, Q30_MAX, "joint rotation entry"),
    RR_FIELDS(rr_emi_joint, bind_q, 4, RR_F_ABS | RR_F_END, RR_ERR_RANGE, Q30_MAX,
              "joint rotation entry")};

static rr_err check_joint(const fig *g, uint32_t i)
{
    const rr_room *room = g->s.room;
    const rr_emi_joint *j = &g->s.j[i];
    uint32_t want_depth;
    if (!rr__string_ok(room, j->name))
        return BAD(S_JNAME, &j->name, j->name);
    if (j->parent >= (int32_t)i || j->parent < -1)
        return BAD(j->parent >= (int32_t)i ? S_CYCLE : S_PARENT, &j->parent, i);
    want_depth = j->parent < 0 ? 0u : g->s.j[j->parent].depth + 1u;
    if (j->depth != want_depth || j->depth > room->max_depth || j->depth > RR_MAX_DEPTH)
        return BAD(S_DEPTH, &j->depth, room->max_depth);
    return rr__check_fields(room, joint_fields, j, 0, g->s.diag);
}

static const rr_field vertex_fields[] = {
    RR_SECTION_CHECK(RR_SEC_EMI_VERTS, rr_emi_vert),
    RR_FIELDS(rr_emi_vert, pos, 3, RR_F_ABS, RR_ERR_RANGE, RR_EMI_COORD_MAX, "vertex coordinate"),
    RR_FIELDS(rr_emi_vert, nrm, 3, RR_F_ABS, RR_ERR_RANGE, RR_FIX_ONE + 1, "vertex normal"),
    RR_FIELD(rr_emi_vert, infl_count, RR_F_MAX | RR_F_U16 | RR_F_END, RR_ERR_INDEX,
             RR_EMI_MAX_INFL, "influence count")};

/* Out of line, as check_track: check_records' one frame then holds fewer
 * values across its loops (24 bytes less code on Cortex-M3, 88 on M0). */
static NOINLINE rr_err check_vertex(const fig *g, uint32_t i)
{
    const rr_emi_vert *v = &g->s.v[i];
    int32_t sum = 0;
    uint32_t k;
    rr_err e = rr__check_fields(g->s.room, vertex_fields, v, 0, g->s.diag);
    if (e)
        return e;
    if (v->infl_first > g->s.f->ninfl || v->infl_count > g->s.f->ninfl - v->infl_first)
        return BAD(S_INFL_RUN, &v->infl_first, v->infl_first);
    for (k = 0; k < v->infl_count; k++) {
        const rr_emi_infl *in = &g->s.in[v->infl_first + k];
        if (in->joint >= g->s.f->njoints)
            return BAD(S_INFL_JOINT, in, in->joint);
        if (in->weight <= 0 || in->weight > RR_FIX_ONE)
            return BAD(S_WEIGHT, &in->weight, in->weight);
        sum += in->weight;
    }
    if (v->infl_count && sum != RR_FIX_ONE)
        return BAD(S_SUM, v, sum);
    return RR_OK;
}

/* Keys of track t: times non-decreasing; position keys (op 3) within the
 * coordinate range, rotation keys (op 4) with q[2] bit 0 clear. Both key
 * records start with their time. */
typedef char rr__emi_key_time_first[offsetof(rr_emi_pkey, time) + offsetof(rr_emi_rkey, time) == 0
                                    ? 1 : -1];
static rr_err check_keys(const fig *g, const rr_emi_track *t)
{
    int pos = t->op == 3;
    uint32_t stride = pos ? sizeof(rr_emi_pkey) : sizeof(rr_emi_rkey), k;
    const uint8_t *key = pos ? (const uint8_t *)(g->s.pk + t->first_key)
                             : (const uint8_t *)(g->s.rk + t->first_key);
    int32_t prev = 0;
    int c;
    for (k = 0; k < t->nkeys; k++, key += stride) {
        const int32_t *time = (const int32_t *)(const void *)key;
        if (*time < prev)
            return BAD(pos ? S_PORDER : S_RORDER, time, prev);
        prev = *time;
        if (!pos && (((const rr_emi_rkey *)(const void *)key)->q[2] & 1u))
            return BAD(S_RFLAG, time, 1);
        for (c = 1; pos && c <= 3; c++)
            if (!coord_ok(time[c]))
                return BAD(S_PCOORD, time, time[c]);
    }
    return RR_OK;
}

static NOINLINE rr_err check_track(const fig *g, const rr_emi_track *t)
{
    uint32_t nk = t->op == 3 ? g->s.f->npkeys : g->s.f->nrkeys;
    if (t->joint >= g->s.f->njoints)
        return BAD(S_TJOINT, t, t->joint);
    if ((t->op != 3 && t->op != 4) || t->priority > 7)
        return BAD(S_TOP, t, t->op);
    if (t->nkeys == 0 || t->first_key > nk || t->nkeys > nk - t->first_key)
        return BAD(S_KRUN, &t->first_key, nk);
    return check_keys(g, t);
}

static rr_err check_anim(const fig *g, const rr_emi_anim *a)
{
    uint32_t k;
    rr_err e;
    if (!rr__string_ok(g->s.room, a->name))
        return BAD(S_ANAME, a, a->name);
    if (a->duration <= 0)
        return BAD(S_DURATION, &a->duration, a->duration);
    if (a->first_track > g->s.f->ntracks || a->ntracks > g->s.f->ntracks - a->first_track)
        return BAD(S_TRUN, &a->first_track, a->first_track);
    for (k = 0; k < a->ntracks; k++) {
        e = check_track(g, &g->s.t[a->first_track + k]);
        if (e)
            return e;
    }
    return RR_OK;
}

static const uint32_t emi_types[8] = {RR_SEC_EMI_FIGURE, RR_SEC_EMI_JOINTS, RR_SEC_EMI_VERTS,
                                      RR_SEC_EMI_INFL, RR_SEC_EMI_ANIMS, RR_SEC_EMI_TRACKS,
                                      RR_SEC_EMI_PKEYS, RR_SEC_EMI_RKEYS};

static rr_err check_tris(rr_room *room, fig *g, rr_diag *diag)
{
    static const rr_field tri_fields[] = {
        RR_SECTION_CHECK(RR_SEC_EMI_TRIS, rr_emi_tri),
        RR_FIELDS(rr_emi_tri, v, 3, RR_F_IDX | RR_F_U16 | RR_F_END, RR_ERR_INDEX, N_VERTS,
                  "triangle vertex")};
    const void *p;
    uint32_t n;
    rr_err e = sections(g, 8, 9);
    if (!e)
        e = rr__check_fields(room, tri_fields, 0, &g->s.f->njoints, diag);
    if (!e && rr__section(room, RR_SEC_EMI_VATTR, sizeof(rr_emi_vattr), &p, &n, 0) == RR_OK &&
        n != g->s.f->nverts)
        return FAIL(RR_ERR_SECTION, RR_SEC_EMI_VATTR, p, "vertex attribute count", n,
                    g->s.f->nverts);
    return e;
}

/* Every joint, vertex and animation record, in that order. Out of line:
 * the validator's frame, which holds g while sections() runs, stays small
 * (rr_open's deepest chain). */
static NOINLINE rr_err check_records(const fig *g)
{
    uint32_t i;
    rr_err e = RR_OK;
    for (i = 0; !e && i < g->s.f->njoints; i++)
        e = check_joint(g, i);
    for (i = 0; !e && i < g->s.f->nverts; i++)
        e = check_vertex(g, i);
    for (i = 0; !e && i < g->s.f->nanims; i++)
        e = check_anim(g, &g->s.a[i]);
    return e;
}

rr_err rr__emi_validate(rr_room *room, rr_diag *diag)
{
    fig g;
    rr_err e = rr__sections_known(room, emi_types, 8, diag);
    g.s.room = room;
    g.s.diag = diag;
    if (!e)
        e = sections(&g, 0, 8);
    if (!e)
        e = check_records(&g);
    if (!e)
        e = check_tris(room, &g, diag);
    return e;
}

/* ------------------------------------------------------------ lookup */

rr_err rr_emi_get_info(const rr_room *room, rr_emi_info *out)
{
    fig g;
    rr_err e;
    if (!out)
        return RR_ERR_ARG;
    e = load(room, &g);
    if (e)
        return e;
    out->njoints = g.s.f->njoints;
    out->nverts = g.s.f->nverts;
    out->ntris = g.s.f->ntris;
    out->nanims = g.s.f->nanims;
    out->max_infl = g.s.f->max_infl;
    out->has_normals = (g.s.f->flags & RR_EMI_HAS_NORMALS) ? 1u : 0u;
    out->coord_frac = room->coord_frac;
    out->name = rr_string(room, g.s.f->name);
    return RR_OK;
}

/* ASCII lower case (the game's rule for names). */
static NOINLINE int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int name_ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = lower(*a);
        if (x != lower(*b))
            return 0;
        if (!x)
            return 1;
    }
}

/* Joints and animations both start with their name's string offset. */
typedef char rr__emi_joint_name_first[offsetof(rr_emi_joint, name) == 0 ? 1 : -1];
typedef char rr__emi_anim_name_first[offsetof(rr_emi_anim, name) == 0 ? 1 : -1];

/* The joint (anims 0) or animation (anims 1) records of room: one body for
 * the four lookups below. */
static rr_err records(const rr_room *room, int anims, const uint8_t **recs, uint32_t *stride,
                      uint32_t *count)
{
    fig g;
    rr_err e = load(room, &g);
    if (e)
        return e;
    *recs = anims ? (const uint8_t *)g.s.a : (const uint8_t *)g.s.j;
    *stride = anims ? sizeof *g.s.a : sizeof *g.s.j;
    *count = anims ? g.s.f->nanims : g.s.f->njoints;
    return RR_OK;
}

/* Index of the first record whose name matches name, ignoring ASCII case. */
static NOINLINE rr_err find_name(const rr_room *room, int anims, const char *name,
                                 uint32_t *index)
{
    const uint8_t *p;
    uint32_t stride, count, i;
    rr_err e = (name && index) ? records(room, anims, &p, &stride, &count) : RR_ERR_ARG;
    if (e)
        return e;
    for (i = 0; i < count; i++, p += stride)
        if (name_ieq(rr_string(room, *(const uint32_t *)(const void *)p), name)) {
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

/* Record index of the joints or animations, its name (if name is not NULL)
 * and the field after the name (if field is not NULL): a joint's parent or
 * an animation's duration. RR_ERR_RANGE past the end. */
typedef char rr__emi_field_after_name[offsetof(rr_emi_joint, parent) == 4 &&
                                      offsetof(rr_emi_anim, duration) == 4 ? 1 : -1];
static NOINLINE rr_err get_rec(const rr_room *room, int anims, uint32_t index,
                               const char **name, int32_t *field)
{
    const uint8_t *p;
    uint32_t stride, count;
    rr_err e = records(room, anims, &p, &stride, &count);
    if (e)
        return e;
    if (index >= count)
        return RR_ERR_RANGE;
    p += (size_t)index * stride;
    if (name)
        *name = rr_string(room, *(const uint32_t *)(const void *)p);
    if (field)
        *field = anims ? *(const int32_t *)(const void *)(p + 4)
                       : *(const int16_t *)(const void *)(p + 4);
    return RR_OK;
}

rr_err rr_emi_joint_get(const rr_room *room, uint32_t index, const char **name,
                        int32_t *parent)
{
    return get_rec(room, 0, index, name, parent);
}

rr_err rr_emi_anim_get(const rr_room *room, uint32_t index, const char **name,
                       rr_fix *duration)
{
    return get_rec(room, 1, index, name, duration);
}

/* Every job's checks as data, one row per job (J_*): the byte offsets of
 * three pointers that must not be NULL (RR_ERR_ARG; a job with fewer names
 * its room again, which load() rejects with the same code), then three
 * range checks (RR_ERR_RANGE), each a field's offset and JC(op, arg):
 *   JC_LT  u32 field <  figure count arg (an index)
 *   JC_GE  u32 field >= figure count arg (a buffer holds every joint)
 *   JC_RUN u32 first and u32 count after it: a run inside figure count arg
 *   JC_LE  u32 field <= 2^arg (a mode, or a weight in [0, RR_FIX_ONE] read
 *          as unsigned: a negative one is above 2^31), as field < 2^arg + 1
 * Figure counts are rr_emi_figure's words from njoints (0 joints, 1 vertices,
 * 3 animations). A job with fewer checks repeats one (same result). The
 * room is each job's first member (C99 6.7.2.1: a struct pointer converts to
 * a pointer to its first member). */
typedef char rr__emi_room_first[offsetof(rr_emi_sample_job, room) +
                                offsetof(rr_emi_blend_job, room) +
                                offsetof(rr_emi_model_job, room) +
                                offsetof(rr_emi_skin_matrices_job, room) +
                                offsetof(rr_emi_skin_job, room) == 0 ? 1 : -1];
enum { J_SAMPLE, J_BLEND, J_MODEL, J_SKINMAT, J_SKIN };
enum { JC_LT, JC_GE, JC_RUN, JC_LE = 4 };
#define JC(op, arg) (uint8_t)((op) << 5 | (arg))
#define JO(type, member) (uint8_t)offsetof(type, member)
static const uint8_t job_desc[5][9] = {
    {JO(rr_emi_sample_job, room), JO(rr_emi_sample_job, room), JO(rr_emi_sample_job, out),
     JO(rr_emi_sample_job, anim), JC(JC_LT, 3), JO(rr_emi_sample_job, out_count), JC(JC_GE, 0),
     JO(rr_emi_sample_job, mode), JC(JC_LE, 0)},
    {JO(rr_emi_blend_job, a), JO(rr_emi_blend_job, b), JO(rr_emi_blend_job, out),
     JO(rr_emi_blend_job, count), JC(JC_GE, 0), JO(rr_emi_blend_job, weight), JC(JC_LE, 16),
     JO(rr_emi_blend_job, count), JC(JC_GE, 0)},
    {JO(rr_emi_model_job, room), JO(rr_emi_model_job, room), JO(rr_emi_model_job, out),
     JO(rr_emi_model_job, count), JC(JC_GE, 0), JO(rr_emi_model_job, count), JC(JC_GE, 0),
     JO(rr_emi_model_job, count), JC(JC_GE, 0)},
    {JO(rr_emi_skin_matrices_job, room), JO(rr_emi_skin_matrices_job, model),
     JO(rr_emi_skin_matrices_job, out), JO(rr_emi_skin_matrices_job, count), JC(JC_GE, 0),
     JO(rr_emi_skin_matrices_job, count), JC(JC_GE, 0), JO(rr_emi_skin_matrices_job, count),
     JC(JC_GE, 0)},
    {JO(rr_emi_skin_job, room), JO(rr_emi_skin_job, skin), JO(rr_emi_skin_job, pos_out),
     JO(rr_emi_skin_job, first), JC(JC_RUN, 1), JO(rr_emi_skin_job, first), JC(JC_RUN, 1),
     JO(rr_emi_skin_job, first), JC(JC_RUN, 1)}};
typedef char rr__emi_skin_run[offsetof(rr_emi_skin_job, count) ==
                              offsetof(rr_emi_skin_job, first) + 4 && RR_FIX_ONE == 1L << 16
                              ? 1 : -1];

/* The checks of job kind on job (rr_emi_*_job_validate), the sections of its
 * room into g. */
static NOINLINE rr_err job_check(const void *job, unsigned kind, fig *g)
{
    const uint8_t *d = job_desc[kind], *b = job;
    const uint32_t *n;
    rr_err e;
    int i;
    for (i = 0; i < 3; i++)
        if (!job || !*(const void *const *)(const void *)(b + d[i]))
            return RR_ERR_ARG;
    e = load(*(const rr_room *const *)job, g);
    for (n = &g->s.f->njoints; !e && i < 9; i += 2) {
        const uint32_t *v = (const uint32_t *)(const void *)(b + d[i]);
        unsigned op = d[i + 1] >> 5, arg = d[i + 1] & 31u;
        uint32_t x = v[0], lim = op == JC_LE ? (1u << arg) + 1u : n[arg];
        int fails = op == JC_RUN ? x > lim || v[1] > lim - x : (x < lim) ^ (op != JC_GE);
        e = fails ? RR_ERR_RANGE : RR_OK;
    }
    return e;
}

/* rr_emi_*_job_validate: one body, each a tail call (the sections loaded
 * here are not needed after). */
static NOINLINE rr_err job_validate(const void *job, unsigned kind)
{
    fig g;
    return job_check(job, kind, &g);
}

/* The bind pose into out[0 .. njoints), and every word of a sample job's
 * channel mask (if not NULL) cleared: joint i's two bits are in word i / 16,
 * so the joints' words are all RR_EMI_MASK_WORDS(njoints) of them. */
static void bind_pose(const fig *g, rr_emi_local *out, uint32_t *mask)
{
    uint32_t i;
    int k;
    for (i = 0; i < g->s.f->njoints; i++) {
        if (mask)
            mask[i / 16u] = 0;
        for (k = 0; k < 4; k++) {
            if (k < 3)
                out[i].t[k] = g->s.j[i].bind_t[k];
            out[i].q[k] = g->s.j[i].bind_q[k];
        }
    }
}

rr_err rr_emi_bind_pose(const rr_room *room, rr_emi_local *out, uint32_t out_count)
{
    fig g;
    rr_err e = out ? load(room, &g) : RR_ERR_ARG;
    if (e)
        return e;
    if (out_count < g.s.f->njoints)
        return RR_ERR_RANGE;
    bind_pose(&g, out, 0);
    return RR_OK;
}

/* ------------------------------------------------------------ sampling */

/* Q16 fraction (t - t0) / (t1 - t0) for t0 < t <= t1. */
static int32_t key_frac(int32_t t, int32_t t0, int32_t t1)
{
    return (int32_t)rr__div_round64(((int64_t)t - t0) * 65536, (int64_t)t1 - t0);
}

/* Time of key i of records of stride bytes that start with their time. */
#define KEY_TIME(keys, stride, i) (*(const int32_t *)(const void *)((keys) + (i) * (stride)))

/* The keys around t for one track (n records of stride bytes, each starting
 * with its time): with i the first key whose time >= t (binary search), key
 * i - 1 and the fraction of the way to key i (Q16, in (0, 1]); or, when i is
 * 0 or n, the key to copy (0 or n - 1) and -1. */
static NOINLINE int32_t key_span(const uint8_t *keys, uint32_t stride, uint32_t n, rr_fix t,
                                 uint32_t *at)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (KEY_TIME(keys, stride, mid) >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    *at = lo ? lo - 1 : 0;   /* n - 1 when lo == n */
    if (lo == 0 || lo == n)
        return -1;
    return key_frac(t, KEY_TIME(keys, stride, lo - 1), KEY_TIME(keys, stride, lo));
}

static void decode_rkey(const rr_emi_rkey *k, int32_t q[4])
{
    uint32_t big = (k->q[0] & 1u) | (uint32_t)(k->q[1] & 1u) << 1, c, s = 0;
    int64_t rest = (int64_t)1 << 60;
    for (c = 0; c < 4; c++) {
        int64_t v;
        if (c == big)
            continue;
        /* c * step >= 0 and < 2^47: rounding half up is the library's rule
         * here; |v| < 2^30, so the square is one 32 x 32-bit product */
        uint64_t m = (uint64_t)(uint32_t)(k->q[s++] >> 1) * (uint32_t)RKEY_STEP_Q46;
        v = (int64_t)((m + 32768u) >> 16) - INV_SQRT2_Q30;
        q[c] = (int32_t)v;
        rest -= (int64_t)q[c] * q[c];
    }
    q[big] = (int32_t)rr_isqrt64(rest > 0 ? (uint64_t)rest : 0u);
}

/* Track tr at time t into its channel of the local pose l: the
 * translation (op 3, keys lerped; a copied key is a lerp by 0, exact) or the
 * rotation (op 4, nlerped; a copied key is renormalized). */
static NOINLINE void sample_track(const fig *g, const rr_emi_track *tr, rr_fix t,
                                  rr_emi_local *l)
{
    int pos = tr->op == 3;
    const uint8_t *keys = pos ? (const uint8_t *)(g->s.pk + tr->first_key)
                              : (const uint8_t *)(g->s.rk + tr->first_key);
    const rr_emi_pkey *pk = (const rr_emi_pkey *)(const void *)keys;
    const rr_emi_rkey *rk = (const rr_emi_rkey *)(const void *)keys;
    int32_t b[4];
    uint32_t i;
    int32_t f = key_span(keys, pos ? sizeof *pk : sizeof *rk, tr->nkeys, t, &i);
    if (pos) {
        lerp(pk[i].p, pk[f < 0 ? i : i + 1].p, f < 0 ? 0 : f, l->t, 3);
        return;
    }
    decode_rkey(&rk[i], l->q);
    if (f < 0) {
        quat_normalize(l->q);
        return;
    }
    decode_rkey(&rk[i + 1], b);
    quat_nlerp(l->q, b, f, l->q);
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
    return job_validate(job, J_SAMPLE);
}

rr_err rr_emi_sample_job_run(const rr_emi_sample_job *job)
{
    fig g;
    const rr_emi_anim *a;
    rr_fix t;
    uint32_t i;
    rr_err e = job_check(job, J_SAMPLE, &g);
    if (e)
        return e;
    bind_pose(&g, job->out, job->mask);
    a = &g.s.a[job->anim];
    t = wrap_time(job->time, a->duration, job->mode);
    for (i = 0; i < a->ntracks; i++) {
        const rr_emi_track *tr = &g.s.t[a->first_track + i];
        uint32_t bit = 2u * tr->joint + tr->op - 3u;   /* op 3 or 4 (validated) */
        sample_track(&g, tr, t, &job->out[tr->joint]);
        if (job->mask)
            job->mask[bit / 32u] |= 1u << (bit % 32u);
    }
    return RR_OK;
}

/* ------------------------------------------------------------ blend */

rr_err rr_emi_blend_job_validate(const rr_emi_blend_job *job)
{
    return job_validate(job, J_BLEND);
}

rr_err rr_emi_blend_job_run(const rr_emi_blend_job *job)
{
    fig g;
    uint32_t i;
    int c;
    rr_err e = job_check(job, J_BLEND, &g);
    if (e)
        return e;
    for (i = 0; i < g.s.f->njoints; i++) {
        const rr_emi_local *a = &job->a[i], *b = &job->b[i];
        rr_emi_local *o = &job->out[i];
        const uint32_t *m = job->b_mask;
        /* channels 2i and 2i + 1 are one bit pair of one word */
        uint32_t bits = m ? m[i / 16u] >> (2u * i % 32u) : 3u;
        rr_fix wt = job->weight & -(rr_fix)(bits & 1u);   /* weight or 0 */
        rr_fix wr = job->weight & -(rr_fix)(bits >> 1 & 1u);
        lerp(a->t, b->t, wt, o->t, 3);
        if (wr)
            quat_nlerp(a->q, b->q, wr, o->q);
        else   /* a's rotation exactly, not renormalized */
            for (c = 0; c < 4; c++)
                o->q[c] = a->q[c];
    }
    return RR_OK;
}

/* ------------------------------------------------------------ model and skinning matrices */

rr_err rr_emi_model_job_validate(const rr_emi_model_job *job)
{
    return job_validate(job, J_MODEL);
}

rr_err rr_emi_model_job_run(const rr_emi_model_job *job)
{
    fig g;
    uint32_t i;
    rr_err e = job_check(job, J_MODEL, &g);
    if (e)
        return e;
    for (i = 0; i < g.s.f->njoints; i++) {
        const int32_t *lt = job->local ? job->local[i].t : g.s.j[i].bind_t;
        rr_emi_xform local;
        int c;
        quat_to_mat(job->local ? job->local[i].q : g.s.j[i].bind_q, local.r);
        for (c = 0; c < 3; c++)   /* valid poses stay within 2^24; see QCLAMP */
            local.t[c] = clamp(lt[c], (int32_t)1 << 28);
        if (g.s.j[i].parent < 0) {
            job->out[i] = local;
        } else {
            const rr_emi_xform *p = &job->out[g.s.j[i].parent];
            xform_mul(p, local.r, local.t, &job->out[i]);
        }
    }
    return RR_OK;
}

rr_err rr_emi_skin_matrices_job_validate(const rr_emi_skin_matrices_job *job)
{
    return job_validate(job, J_SKINMAT);
}

rr_err rr_emi_skin_matrices_job_run(const rr_emi_skin_matrices_job *job)
{
    fig g;
    uint32_t i;
    rr_err e = job_check(job, J_SKINMAT, &g);
    if (e)
        return e;
    for (i = 0; i < g.s.f->njoints; i++) {
        rr_emi_xform tmp;   /* out may alias model */
        xform_mul(&job->model[i], g.s.j[i].inv_r, g.s.j[i].inv_t, &tmp);
        job->out[i] = tmp;
    }
    return RR_OK;
}

/* ------------------------------------------------------------ skinning */

rr_err rr_emi_skin_job_validate(const rr_emi_skin_job *job)
{
    return job_validate(job, J_SKIN);
}

/* Component c of the blended position (c < 3, coords: the sum of
 * w * (r_c . pos + t_c)) or normal (c - 3, rr_fix: the sum of w * r . nrm,
 * not renormalized), Q16 times that unit: one kernel for both. A vertex
 * without influences stays in its bind pose: the component itself. */
static NOINLINE int64_t skin_dot(const fig *g, const rr_emi_xform *skin, const rr_emi_vert *v,
                                 int c)
{
    const int32_t *vec = c < 3 ? v->pos : v->nrm;
    int i = c < 3 ? c : c - 3;
    int64_t acc = 0;
    uint32_t k;
    for (k = 0; k < v->infl_count; k++) {
        const rr_emi_infl *in = &g->s.in[v->infl_first + k];
        const int32_t *r = skin[in->joint].r + 3 * i;
        int64_t q = shr_round((int64_t)r[0] * vec[0] + (int64_t)r[1] * vec[1] +
                                  (int64_t)r[2] * vec[2], Q30) + (c < 3 ? skin[in->joint].t[i] : 0);
        acc += q * in->weight;
    }
    return v->infl_count ? shr_round(acc, 16) : vec[i];
}

static void skin_vertex(const fig *g, const rr_emi_xform *skin, const rr_emi_vert *v,
                        rr_vec3 *pos, rr_vec3 *nrm)
{
    int32_t n[3], p[3];
    int c;
    for (c = 0; c < 3; c++) {
        p[c] = rr__sat32(skin_dot(g, skin, v, c));
        if (nrm)   /* |w r . nrm| < 2^21 even for any r: |nrm| <= 1 + 2^-16 */
            n[c] = (int32_t)skin_dot(g, skin, v, c + 3);
    }
    pos->x = p[0], pos->y = p[1], pos->z = p[2];
    if (nrm) {   /* renormalized (zero stays zero), or the bind normal */
        p[0] = p[1] = p[2] = 0;
        if (v->infl_count)
            unit(n, p, 3, 16);
        else
            for (c = 0; c < 3; c++)
                p[c] = n[c];
        nrm->x = p[0], nrm->y = p[1], nrm->z = p[2];
    }
}

rr_err rr_emi_skin_job_run(const rr_emi_skin_job *job)
{
    fig g;
    uint32_t k;
    rr_err e = job_check(job, J_SKIN, &g);
    if (e)
        return e;
    for (k = 0; k < job->count; k++)
        skin_vertex(&g, job->skin, &g.s.v[job->first + k], &job->pos_out[k],
                    job->nrm_out ? &job->nrm_out[k] : 0);
    return RR_OK;
}

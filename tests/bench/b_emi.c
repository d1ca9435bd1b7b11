/* b_emi.c - instruction counts of the EMI animation pipeline (loader/rr_emi.h)
 * against the same pipeline written in soft-float C (float is allowed in
 * bench programs, never in loader/), on the same board in the same run:
 *
 *   pose      rr_emi_sample_job_run + rr_emi_model_job_run: local pose at
 *             time t, then model matrices         units: joints
 *   skinmat   rr_emi_skin_matrices_job_run        units: joints
 *   skin_pos  rr_emi_skin_job_run, positions only units: vertex influences
 *   skin_pos_each  the same, one job per vertex (no pairs), against skin_pos
 *   skin_pn   the same with normals (renormalized) units: vertex influences
 *   *_float   the float version of each: keys, bind pose, inverse bind
 *             matrices, vertices and weights converted to float before the
 *             run (rotation keys decoded from smallest-three into float
 *             quaternions, normalized, once, so the float pipeline does LESS
 *             work per key than the fixed one); per track the same binary search for the
 *             first key at or after t, lerp / shortest-arc nlerp; quaternion
 *             to matrix; parent * local; model * inverse bind; weighted sums.
 *             Square roots: Newton iterations in float (the boards have no
 *             common libm: malta has no C library at all). Float helpers:
 *             libgcc's on ARM, this program's own on MIPS (see below); no
 *             float rows on the microbit (RAM).
 * The program prints the largest difference between the two pipelines'
 * skinned positions and normals.
 * Figures: the sample walking figure and the generated emi_gen2 (24 joints,
 * depth 8), at NT times spread over the animation (looping).
 * Protocol: "BENCH <label> <units> <baseline>" (see tests/bench/bench.sh). */
#include "rr.h"
#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rr_plat.h"
#include "rr_test_blobs.h"

/* The float baseline needs soft-float helpers. The MIPS cross libgcc here
 * is built hard-float (its float helpers use the FPU, which the soft-float
 * malta boards leave off: "coprocessor unusable"), so on MIPS this program
 * brings its own (soft_float_mips below). The microbit's 16 KB of RAM cannot
 * hold both pipelines' buffers: fixed-point rows only there. */
#if defined(__ARM_ARCH_6M__)
#define BENCH_FLOAT 0
#else
#define BENCH_FLOAT 1
#endif

#if BENCH_FLOAT && defined(__mips__)
/* Minimal IEEE-754 single-precision helpers with the libgcc names, for the
 * MIPS boards only: round to nearest even, denormals flushed to zero,
 * overflow to infinity, no NaN handling (the float pipeline makes none).
 * Simpler, so no dearer, than a full soft-float library: the float rows on
 * MIPS are, if anything, a flattering baseline. */
typedef union fbits { float f; uint32_t u; } fbits;
#define F_SIGN 0x80000000u
#define F_EXP(u) ((int32_t)(((u) >> 23) & 0xffu))
#define F_MANT(u) (((u) & 0x7fffffu) | 0x800000u)

static uint32_t fb(float f) { fbits x; x.f = f; return x.u; }
static float bf(uint32_t u) { fbits x; x.u = u; return x.f; }

/* m: 27 bits (24 + guard, round, sticky) with its top bit at 26, or 27
 * after a carry; e: biased exponent. Rounds and packs. */
static float pack(uint32_t sign, int32_t e, uint32_t m)
{
    uint32_t g;
    if (m & (1u << 27)) {
        m = (m >> 1) | (m & 1u);
        e++;
    }
    g = m & 7u;
    m >>= 3;
    if (g > 4u || (g == 4u && (m & 1u)))
        m++;
    if (m & (1u << 24)) {
        m >>= 1;
        e++;
    }
    if (e <= 0)
        return bf(sign);
    if (e >= 255)
        return bf(sign | 0x7f800000u);
    return bf(sign | (uint32_t)e << 23 | (m & 0x7fffffu));
}

static uint32_t shr_sticky(uint32_t m, int32_t d)
{
    if (d >= 27)
        return m != 0;
    return (m >> d) | ((m & ((1u << d) - 1u)) != 0);
}

float __addsf3(float fa, float fbb);
float __addsf3(float fa, float fbb)
{
    uint32_t a = fb(fa), b = fb(fbb), t, ma, mb, m;
    int32_t ea, eb;
    if ((a & ~F_SIGN) < (b & ~F_SIGN))
        t = a, a = b, b = t;
    ea = F_EXP(a), eb = F_EXP(b);
    if (eb == 0)
        return ea == 0 ? bf(a & b & F_SIGN) : bf(a);
    ma = F_MANT(a) << 3;
    mb = shr_sticky(F_MANT(b) << 3, ea - eb);
    if ((a ^ b) & F_SIGN) {
        m = ma - mb;
        if (m == 0)
            return bf(0);
        while (!(m & (1u << 26)))
            m <<= 1, ea--;
    } else {
        m = ma + mb;
    }
    return pack(a & F_SIGN, ea, m);
}

float __subsf3(float fa, float fbb);
float __subsf3(float fa, float fbb)
{
    return __addsf3(fa, bf(fb(fbb) ^ F_SIGN));
}

float __mulsf3(float fa, float fbb);
float __mulsf3(float fa, float fbb)
{
    uint32_t a = fb(fa), b = fb(fbb), sign = (a ^ b) & F_SIGN;
    int32_t ea = F_EXP(a), eb = F_EXP(b), e = ea + eb - 127, sh = 20;
    uint64_t p;
    if (ea == 0 || eb == 0)
        return bf(sign);
    p = (uint64_t)F_MANT(a) * F_MANT(b);
    if (p & ((uint64_t)1 << 47))
        sh = 21, e++;
    return pack(sign, e, (uint32_t)(p >> sh) | ((p & (((uint64_t)1 << sh) - 1u)) != 0));
}

float __divsf3(float fa, float fbb);
float __divsf3(float fa, float fbb)
{
    uint32_t a = fb(fa), b = fb(fbb), sign = (a ^ b) & F_SIGN, ma, mb;
    int32_t ea = F_EXP(a), eb = F_EXP(b), e = ea - eb + 127;
    uint64_t n, q;
    if (eb == 0)
        return bf(sign | 0x7f800000u);
    if (ea == 0)
        return bf(sign);
    ma = F_MANT(a), mb = F_MANT(b);
    n = (uint64_t)ma << 26;
    if (ma < mb)
        n <<= 1, e--;
    q = n / mb;
    return pack(sign, e, (uint32_t)q | (q * mb != n));
}

float __floatsisf(int32_t i);
float __floatsisf(int32_t i)
{
    uint32_t sign = i < 0 ? F_SIGN : 0u, u = i < 0 ? 0u - (uint32_t)i : (uint32_t)i;
    int32_t s;
    if (u == 0)
        return bf(0);
    s = __builtin_clz(u);
    u <<= s;
    return pack(sign, 127 + 31 - s, (u >> 5) | ((u & 31u) != 0));
}

/* Unsigned values (GCC uses it for 16-bit unsigned fields such as the
 * weights): halved with a sticky bit above 2^31, so the rounding is right. */
float __floatunsisf(uint32_t u);
float __floatunsisf(uint32_t u)
{
    if (u >> 31)
        return __floatsisf((int32_t)(u >> 1 | (u & 1u))) * 2.0f;
    return __floatsisf((int32_t)u);
}

int32_t __fixsfsi(float fa);
int32_t __fixsfsi(float fa)
{
    uint32_t a = fb(fa), m = F_MANT(a);
    int32_t e = F_EXP(a) - 127, v;
    if (e < 0)
        return 0;
    if (e >= 31)
        return (a & F_SIGN) ? INT32_MIN : INT32_MAX;
    v = (int32_t)(e >= 23 ? m << (e - 23) : m >> (23 - e));
    return (a & F_SIGN) ? -v : v;
}

/* -1, 0, 1 as a < b, a == b, a > b (+0 == -0). */
static int fcmp(float fa, float fbb)
{
    uint32_t a = fb(fa), b = fb(fbb);
    int32_t ka, kb;
    if (((a | b) & ~F_SIGN) == 0)
        return 0;
    ka = (a & F_SIGN) ? -(int32_t)(a & ~F_SIGN) : (int32_t)a;
    kb = (b & F_SIGN) ? -(int32_t)(b & ~F_SIGN) : (int32_t)b;
    return ka < kb ? -1 : ka > kb;
}
int __ltsf2(float a, float b);
int __lesf2(float a, float b);
int __gtsf2(float a, float b);
int __gesf2(float a, float b);
int __ltsf2(float a, float b) { return fcmp(a, b); }
int __lesf2(float a, float b) { return fcmp(a, b); }
int __gtsf2(float a, float b) { return fcmp(a, b); }
int __gesf2(float a, float b) { return fcmp(a, b); }
#endif

#define NT 12
#define MAXJ 32
#define MAXV 128
#define MAXI 192
#define MAXK 128
#define MAXT 64

/* A section's data (the figure was opened: every section is there). */
static const void *sec(const rr_room *room, uint32_t type)
{
    const void *d = 0;
    uint32_t n;
    rr_section(room, type, &d, &n);
    return d;
}

#if BENCH_FLOAT
typedef struct flocal { float t[3], q[4]; } flocal;
typedef struct fxform { float r[9], t[3]; } fxform;
typedef struct fkey { float time, v[4]; } fkey;

static struct ffig {
    uint32_t nj, nv, ntracks;
    float duration;
    int16_t parent[MAXJ];
    flocal bind[MAXJ];
    fxform inv[MAXJ];
    float pos[MAXV][3], nrm[MAXV][3];
    uint16_t ifirst[MAXV], icount[MAXV], ij[MAXI];
    float iw[MAXI];
    uint16_t tj[MAXT], top[MAXT], tfirst[MAXT], tn[MAXT];
    fkey pk[MAXK], rk[MAXK];
} F;

#endif
static rr_emi_local local[MAXJ];
static rr_emi_xform model[MAXJ], skin[MAXJ];
static rr_vec3 opos[MAXV], onrm[MAXV];
#if BENCH_FLOAT
static flocal flocal_[MAXJ];
static fxform fmodel[MAXJ], fskin[MAXJ];
static float fpos[MAXV][3], fnrm[MAXV][3];

__attribute__((noinline)) static float fsqrt(float x)
{
    union { float f; uint32_t u; } c;
    float y;
    if (x <= 0.0f)
        return 0.0f;
    c.f = x;
    c.u = 0x1fbd1df5u + (c.u >> 1);
    y = c.f;
    y = 0.5f * (y + x / y);
    y = 0.5f * (y + x / y);
    y = 0.5f * (y + x / y);
    return y;
}

/* ---- float pipeline ---- */

static uint32_t first_at_or_after(const fkey *k, uint32_t n, float t)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (k[mid].time >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static void fnormalize4(float q[4])
{
    float l = fsqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    int i;
    if (l > 0.0f)
        for (i = 0; i < 4; i++)
            q[i] /= l;
}

__attribute__((noinline)) static void fsample(float time, flocal *out)
{
    uint32_t i, j, c;
    float t = time - (float)(int32_t)(time / F.duration) * F.duration;
    if (t < 0.0f)
        t += F.duration;
    for (j = 0; j < F.nj; j++)
        out[j] = F.bind[j];
    for (i = 0; i < F.ntracks; i++) {
        const fkey *k = (F.top[i] == 3 ? F.pk : F.rk) + F.tfirst[i];
        uint32_t n = F.tn[i], nc = F.top[i] == 3 ? 3 : 4;
        float *dst = F.top[i] == 3 ? out[F.tj[i]].t : out[F.tj[i]].q;
        uint32_t at = first_at_or_after(k, n, t);
        if (at == 0 || at == n) {
            for (c = 0; c < nc; c++)
                dst[c] = k[at == 0 ? 0 : n - 1].v[c];
        } else {
            const fkey *a = &k[at - 1], *b = &k[at];
            float f = (t - a->time) / (b->time - a->time), s = 1.0f;
            if (nc == 4 && a->v[0] * b->v[0] + a->v[1] * b->v[1] + a->v[2] * b->v[2] +
                               a->v[3] * b->v[3] < 0.0f)
                s = -1.0f;
            for (c = 0; c < nc; c++)
                dst[c] = a->v[c] + (s * b->v[c] - a->v[c]) * f;
        }
        if (nc == 4)
            fnormalize4(dst);
    }
}

static void fquat_mat(const float q[4], float r[9])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    r[0] = 1 - 2 * (y * y + z * z);
    r[1] = 2 * (x * y - z * w);
    r[2] = 2 * (x * z + y * w);
    r[3] = 2 * (x * y + z * w);
    r[4] = 1 - 2 * (x * x + z * z);
    r[5] = 2 * (y * z - x * w);
    r[6] = 2 * (x * z - y * w);
    r[7] = 2 * (y * z + x * w);
    r[8] = 1 - 2 * (x * x + y * y);
}

static void fxmul(const fxform *a, const float br[9], const float bt[3], fxform *o)
{
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++)
            o->r[3 * i + j] = a->r[3 * i] * br[j] + a->r[3 * i + 1] * br[3 + j] +
                              a->r[3 * i + 2] * br[6 + j];
        o->t[i] = a->r[3 * i] * bt[0] + a->r[3 * i + 1] * bt[1] + a->r[3 * i + 2] * bt[2] +
                  a->t[i];
    }
}

__attribute__((noinline)) static void fmodel_run(const flocal *l, fxform *out)
{
    uint32_t j;
    for (j = 0; j < F.nj; j++) {
        float r[9];
        int k;
        fquat_mat(l[j].q, r);
        if (F.parent[j] < 0) {
            for (k = 0; k < 9; k++)
                out[j].r[k] = r[k];
            for (k = 0; k < 3; k++)
                out[j].t[k] = l[j].t[k];
        } else {
            fxmul(&out[F.parent[j]], r, l[j].t, &out[j]);
        }
    }
}

__attribute__((noinline)) static void fskinmat_run(const fxform *m, fxform *out)
{
    uint32_t j;
    for (j = 0; j < F.nj; j++)
        fxmul(&m[j], F.inv[j].r, F.inv[j].t, &out[j]);
}

__attribute__((noinline)) static void fskin_run(const fxform *s, int normals)
{
    uint32_t v, i;
    int c;
    for (v = 0; v < F.nv; v++) {
        const float *p = F.pos[v], *n = F.nrm[v];
        float ap[3] = {0, 0, 0}, an[3] = {0, 0, 0};
        if (!F.icount[v]) {
            for (c = 0; c < 3; c++)
                fpos[v][c] = p[c], fnrm[v][c] = n[c];
            continue;
        }
        for (i = F.ifirst[v]; i < (uint32_t)F.ifirst[v] + F.icount[v]; i++) {
            const fxform *x = &s[F.ij[i]];
            float w = F.iw[i];
            for (c = 0; c < 3; c++) {
                ap[c] += w * (x->r[3 * c] * p[0] + x->r[3 * c + 1] * p[1] +
                              x->r[3 * c + 2] * p[2] + x->t[c]);
                if (normals)
                    an[c] += w * (x->r[3 * c] * n[0] + x->r[3 * c + 1] * n[1] +
                                  x->r[3 * c + 2] * n[2]);
            }
        }
        for (c = 0; c < 3; c++)
            fpos[v][c] = ap[c];
        if (normals) {
            float l = fsqrt(an[0] * an[0] + an[1] * an[1] + an[2] * an[2]);
            for (c = 0; c < 3; c++)
                fnrm[v][c] = l > 0.0f ? an[c] / l : 0.0f;
        }
    }
}

/* ---- conversion of the blob into the float figure (not measured) ---- */

static float q30(int32_t v) { return (float)v / 1073741824.0f; }

static void decode_rkey(const rr_emi_rkey *k, float q[4])
{
    uint32_t c;
    for (c = 0; c < 4; c++)
        q[c] = (float)k->q[c] / (float)RR_EMI_SNORM_ONE;
    fnormalize4(q);
}

/* The float copies of the animation keys. */
static void load_keys(const rr_room *room, const rr_emi_figure *fg, float cs)
{
    const rr_emi_pkey *pk = sec(room, RR_SEC_EMI_PKEYS);
    const rr_emi_rkey *rk = sec(room, RR_SEC_EMI_RKEYS);
    uint32_t i, c;
    for (i = 0; i < fg->npkeys; i++) {
        F.pk[i].time = (float)pk[i].time / 65536.0f;
        for (c = 0; c < 3; c++)
            F.pk[i].v[c] = (float)pk[i].p[c] * cs;
    }
    for (i = 0; i < fg->nrkeys; i++) {
        F.rk[i].time = (float)rk[i].time / 65536.0f;
        decode_rkey(&rk[i], F.rk[i].v);
    }
}

static int load_float(const rr_room *room)
{
    const rr_emi_figure *fg = sec(room, RR_SEC_EMI_FIGURE);
    const rr_emi_joint *jt = sec(room, RR_SEC_EMI_JOINTS);
    const rr_emi_vert *vt = sec(room, RR_SEC_EMI_VERTS);
    const rr_emi_infl *in = sec(room, RR_SEC_EMI_INFL);
    const rr_emi_anim *an = sec(room, RR_SEC_EMI_ANIMS);
    const rr_emi_track *tr = sec(room, RR_SEC_EMI_TRACKS);
    uint32_t i, c;
    float cs = 1.0f / (float)(1L << room->coord_frac);
    float vs = cs * (float)(1L << fg->vert_shift);   /* mesh positions: vpos << vert_shift */
    if (fg->njoints > MAXJ || fg->nverts > MAXV || fg->ninfl > MAXI || fg->npkeys > MAXK ||
        fg->nrkeys > MAXK || fg->nanims < 1 || an[0].ntracks > MAXT)
        return -1;
    F.nj = fg->njoints;
    F.nv = fg->nverts;
    for (i = 0; i < F.nj; i++) {
        F.parent[i] = jt[i].parent;
        for (c = 0; c < 3; c++) {
            F.bind[i].t[c] = (float)jt[i].bind_t[c] * cs;
            F.inv[i].t[c] = (float)jt[i].inv_t[c] * cs;
        }
        for (c = 0; c < 4; c++)
            F.bind[i].q[c] = q30(jt[i].bind_q[c]);
        for (c = 0; c < 9; c++)
            F.inv[i].r[c] = q30(jt[i].inv_r[c]);
    }
    for (i = 0; i < F.nv; i++) {
        for (c = 0; c < 3; c++) {
            F.pos[i][c] = (float)vt[i].pos[c] * vs;
            F.nrm[i][c] = (float)vt[i].nrm[c] / (float)RR_EMI_SNORM_ONE;
        }
        F.ifirst[i] = (uint16_t)vt[i].infl_first;
        F.icount[i] = vt[i].infl_count;
    }
    for (i = 0; i < fg->ninfl; i++) {
        F.ij[i] = in[i].joint;
        F.iw[i] = (float)in[i].weight / (float)RR_EMI_WEIGHT_ONE;
    }
    F.duration = (float)an[0].duration / 65536.0f;
    F.ntracks = an[0].ntracks;
    for (i = 0; i < F.ntracks; i++) {
        const rr_emi_track *t = &tr[an[0].first_track + i];
        F.tj[i] = t->joint;
        F.top[i] = t->op;
        F.tfirst[i] = (uint16_t)t->first_key;
        F.tn[i] = (uint16_t)t->nkeys;
    }
    load_keys(room, fg, cs);
    return 0;
}

/* The two pipelines agree: largest difference of skinned positions (coords)
 * and normals (rr_fix units) over every pose; printed after the last pose. */
static void compare(const char *name, const rr_room *room, uint32_t nverts, int last)
{
    static int32_t worst_p, worst_n;
    uint32_t j;
    int c;
    for (j = 0; j < nverts; j++) {
        const int32_t *p = &opos[j].x, *n = &onrm[j].x;
        for (c = 0; c < 3; c++) {
            float dp = (float)p[c] - fpos[j][c] * (float)(1L << room->coord_frac);
            float dn = (float)n[c] - fnrm[j][c] * 65536.0f;
            int32_t ip = (int32_t)(dp < 0 ? -dp : dp), in = (int32_t)(dn < 0 ? -dn : dn);
            worst_p = ip > worst_p ? ip : worst_p;
            worst_n = in > worst_n ? in : worst_n;
        }
    }
    if (last) {
        plat_printf("%s: fixed vs float: largest difference %ld coords (coord_frac %lu) in "
                    "positions, %ld/65536 in normals\n", name, (long)worst_p,
                    (unsigned long)room->coord_frac, (long)worst_n);
        worst_p = worst_n = 0;
    }
}
#endif /* BENCH_FLOAT */

/* Floating-point region with its label, when the board has soft float. */
#if BENCH_FLOAT
#define FLOAT_REGION(label, units, code)                                          \
    do {                                                                          \
        plat_printf("BENCH " label ":%s %lu -\n", name, (unsigned long)(units));    \
        rr_bench_start();                                                         \
        code;                                                                     \
        rr_bench_stop();                                                          \
    } while (0)
#else
#define FLOAT_REGION(label, units, code) ((void)0)
#endif

/* Every row at one time t of the animation (one region each). */
static void one_time(const char *name, const rr_room *room, const rr_emi_info *info,
                     uint32_t ninfl, rr_fix t)
{
    rr_emi_sample_job sj = {room, 0, t, RR_EMI_LOOP, local, MAXJ, 0};
    rr_emi_model_job mj = {room, local, model, MAXJ};
    rr_emi_skin_matrices_job kj = {room, model, skin, MAXJ};
    rr_emi_skin_job vj = {room, skin, 0, info->nverts, opos, 0};
    unsigned long nj = info->njoints, ni = ninfl;
    uint32_t v;
#if BENCH_FLOAT
    float tf = (float)t / 65536.0f;
#endif
    plat_printf("BENCH emi.pose:%s %lu emi.pose_float:%s\n", name, nj, name);
    rr_bench_start();
    rr_emi_sample_job_run(&sj);
    rr_emi_model_job_run(&mj);
    rr_bench_stop();
    FLOAT_REGION("emi.pose_float", nj, fsample(tf, flocal_); fmodel_run(flocal_, fmodel));
    plat_printf("BENCH emi.skinmat:%s %lu emi.skinmat_float:%s\n", name, nj, name);
    rr_bench_start();
    rr_emi_skin_matrices_job_run(&kj);
    rr_bench_stop();
    FLOAT_REGION("emi.skinmat_float", nj, fskinmat_run(fmodel, fskin));
    plat_printf("BENCH emi.skin_pos:%s %lu emi.skin_pos_float:%s\n", name, ni, name);
    rr_bench_start();
    rr_emi_skin_job_run(&vj);
    rr_bench_stop();
    FLOAT_REGION("emi.skin_pos_float", ni, fskin_run(fskin, 0));
    /* the same positions, one job per vertex: no vertex has a neighbour in
     * its job, so none is skinned in a pair (the cost of a mesh whose
     * neighbouring vertices never share their joints) */
    plat_printf("BENCH emi.skin_pos_each:%s %lu emi.skin_pos:%s\n", name, ni, name);
    rr_bench_start();
    for (v = 0; v < info->nverts; v++) {
        rr_emi_skin_job one = {room, skin, v, 1, opos + v, 0};
        rr_emi_skin_job_run(&one);
    }
    rr_bench_stop();
    vj.nrm_out = onrm;
    plat_printf("BENCH emi.skin_pn:%s %lu emi.skin_pn_float:%s\n", name, ni, name);
    rr_bench_start();
    rr_emi_skin_job_run(&vj);
    rr_bench_stop();
    FLOAT_REGION("emi.skin_pn_float", ni, fskin_run(fskin, 1));
}

static void bench_figure(const rr_test_blob *b)
{
    rr_room room;
    rr_emi_info info;
    const char *aname;
    rr_fix dur;
    uint32_t i, ninfl = 0;
    const rr_emi_vert *vt;
    static uint32_t arena[RR_EMI_ARENA_BYTES / 4];   /* the room's section view */
    rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &room);
    if (e || rr_emi_get_info(&room, &info) || info.nanims < 1 || info.njoints > MAXJ ||
        info.nverts > MAXV) {
        plat_printf("%s: cannot open or too big for this bench (%s)\n", b->name, rr_strerror(e));
        return;
    }
#if BENCH_FLOAT
    if (load_float(&room)) {
        plat_printf("%s: too big for the float pipeline of this bench\n", b->name);
        return;
    }
#endif
    rr_emi_anim_get(&room, 0, &aname, &dur);
    vt = sec(&room, RR_SEC_EMI_VERTS);
    for (i = 0; i < info.nverts; i++)
        ninfl += vt[i].infl_count;
    plat_printf("%s: %lu joints, %lu vertices, %lu influences, animation %s\n", b->name,
                (unsigned long)info.njoints, (unsigned long)info.nverts, (unsigned long)ninfl,
                aname);
    for (i = 0; i < NT; i++) {
        one_time(b->name, &room, &info, ninfl,
                 (rr_fix)(((int64_t)dur * (2 * i + 1)) / (2 * NT)) + (rr_fix)i * dur / 3);
#if BENCH_FLOAT
        compare(b->name, &room, info.nverts, i + 1 == NT);
#endif
    }
}

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        bench_figure(&rr_test_blobs[i]);
    return 0;
}

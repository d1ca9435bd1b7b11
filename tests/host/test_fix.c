/* test_fix.c - the fixed-point core against an independent reference:
 * long double (64-bit mantissa on x86-64: exact for every 32x32-bit product)
 * and exact 128-bit integer checks of the rounding rule, over a table of edge
 * values (0, +-1 ulp, +-0.5, +-1, the overflow boundaries, INT32_MIN/MAX)
 * crossed with itself, plus random values. Rule under test: round to
 * nearest, ties away from zero; "_sat" clamps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define RR_INTERNAL
#include "rr_int.h"
#include "rr_test.h"

static const int32_t edges[] = {
    0, 1, -1, 2, -2, 3, 0x7fff, -0x7fff, 0x8000, -0x8000, 0x8001, -0x8001, 0xffff, -0xffff,
    0x10000, -0x10000, 0x10001, -0x10001, 0x18000, -0x18000, 0x20000, -0x20000,
    0xb504f3, -0xb504f3, 0xb504f4, 0x1000000, -0x1000000, 0x7fffffff, -0x7fffffff,
    INT32_MIN, 0x40000000, -0x40000000, 0x12345678, -0x12345678, 0x7fff0000, 0x00ff00ff};
#define NE (int)(sizeof edges / sizeof edges[0])

static uint32_t rng = 12345;
static int32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    switch (rng & 3) {  /* mix magnitudes */
    case 0: return (int32_t)rng;
    case 1: return (int32_t)rng >> 8;
    case 2: return (int32_t)rng >> 16;
    default: return (int32_t)rng >> 24;
    }
}

/* Exact: round(n / 2^s) half away from zero, with __int128. */
static __int128 shr_ref(__int128 n, int s)
{
    __int128 m = n < 0 ? -n : n, h = (__int128)1 << (s - 1);
    __int128 r = (m + h) >> s;
    return n < 0 ? -r : r;
}

/* Exact: round(n / d) half away from zero. */
static __int128 div_ref(__int128 n, __int128 d)
{
    int neg = (n < 0) != (d < 0);
    __int128 un = n < 0 ? -n : n, ud = d < 0 ? -d : d;
    __int128 q = un / ud, r = un % ud;
    if (2 * r >= ud)
        q++;
    return neg ? -q : q;
}

static int64_t clamp(__int128 v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int64_t)v;
}

static void check_pair(const char *tag, int32_t a, int32_t b)
{
    char id[96];
    __int128 p = (__int128)a * b, q;
    long double ld = (long double)a * (long double)b / 65536.0L;
    snprintf(id, sizeof id, "%s.mul(%d,%d)", tag, a, b);
    q = shr_ref(p, 16);
    /* long double cross-check of the exact reference itself */
    RT_EXPECT(id, fabsl((long double)q - ld) <= 0.5L);
    RT_EXPECT_EQ(id, rr_fix_mul_sat(a, b), clamp(q));
    if (q >= INT32_MIN && q <= INT32_MAX)
        RT_EXPECT_EQ(id, rr_fix_mul(a, b), (int64_t)q);
    snprintf(id, sizeof id, "%s.div(%d,%d)", tag, a, b);
    if (b == 0) {
        RT_EXPECT_EQ(id, rr_fix_div(a, b), a > 0 ? INT32_MAX : a < 0 ? INT32_MIN : 0);
    } else {
        long double lq = (long double)a * 65536.0L / (long double)b;
        q = div_ref((__int128)a * 65536, b);
        RT_EXPECT(id, fabsl((long double)q - lq) <= 0.5L + 1e-9L * fabsl(lq));
        RT_EXPECT_EQ(id, rr_fix_div(a, b), clamp(q));
    }
    snprintf(id, sizeof id, "%s.muldiv(%d,%d,%d)", tag, a, b, a ^ b);
    if ((a ^ b) != 0)
        RT_EXPECT_EQ(id, rr_muldiv(a, b, a ^ b), clamp(div_ref(p, a ^ b)));
    snprintf(id, sizeof id, "%s.mulshift(%d,%d)", tag, a, b);
    q = shr_ref(p, 31);
    if (q >= INT32_MIN && q <= INT32_MAX)  /* plain: defined when the result fits */
        RT_EXPECT_EQ(id, rr_mul_shift(a, b, 31), (int64_t)q);
}

static void check_one(const char *tag, int32_t a)
{
    char id[96];
    uint64_t v;
    uint32_t r;
    snprintf(id, sizeof id, "%s.sqrt(%d)", tag, a);
    if (a <= 0) {
        RT_EXPECT_EQ(id, rr_fix_sqrt(a), 0);
    } else {
        long double ref = sqrtl((long double)a / 65536.0L) * 65536.0L;
        int64_t got = rr_fix_sqrt(a);
        __int128 n = (__int128)a << 16, lo = 2 * (__int128)got - 1, hi = 2 * (__int128)got + 1;
        RT_EXPECT(id, fabsl((long double)got - ref) <= 0.5L);
        /* nearest: (got - 1/2)^2 <= n < (got + 1/2)^2, i.e. lo^2 <= 4n < hi^2 */
        RT_EXPECT(id, lo * lo <= 4 * n && 4 * n < hi * hi);
    }
    snprintf(id, sizeof id, "%s.recip(%d)", tag, a);
    RT_EXPECT_EQ(id, rr_fix_recip(a), a ? clamp(div_ref((__int128)1 << 32, a)) : INT32_MAX);
    v = (uint64_t)(uint32_t)a * (uint64_t)(uint32_t)a + (uint32_t)a;
    r = rr_isqrt64(v);
    snprintf(id, sizeof id, "%s.isqrt64(%llu)", tag, (unsigned long long)v);
    RT_EXPECT(id, (__int128)r * r <= v && ((__int128)r + 1) * ((__int128)r + 1) > v);
    /* the 32-bit square root (rr_int.h), on a itself: floor of the root */
    r = rr__isqrt32((uint32_t)a);
    snprintf(id, sizeof id, "%s.isqrt32(%u)", tag, (uint32_t)a);
    RT_EXPECT(id, (uint64_t)r * r <= (uint32_t)a && ((uint64_t)r + 1) * ((uint64_t)r + 1) > (uint32_t)a);
}

static void check_vec(int i, rr_vec3 a, rr_vec3 b)
{
    char id[64];
    rr_vec3 n, c;
    double len, ax = a.x / 65536.0, ay = a.y / 65536.0, az = a.z / 65536.0;
    double bx = b.x / 65536.0, by = b.y / 65536.0, bz = b.z / 65536.0;
    snprintf(id, sizeof id, "vec.%d.dot", i);
    RT_EXPECT(id, fabs(rr_vec3_dot(a, b) / 65536.0 - (ax * bx + ay * by + az * bz)) <= 0.5 / 65536 + 1e-9);
    c = rr_vec3_cross(a, b);
    snprintf(id, sizeof id, "vec.%d.cross", i);
    RT_EXPECT(id, fabs(c.x / 65536.0 - (ay * bz - az * by)) <= 0.5 / 65536 + 1e-9 &&
                  fabs(c.y / 65536.0 - (az * bx - ax * bz)) <= 0.5 / 65536 + 1e-9 &&
                  fabs(c.z / 65536.0 - (ax * by - ay * bx)) <= 0.5 / 65536 + 1e-9);
    snprintf(id, sizeof id, "vec.%d.normalize", i);
    if (a.x == 0 && a.y == 0 && a.z == 0) {
        RT_EXPECT_EQ(id, rr_vec3_normalize(a, &n), RR_ERR_RANGE);
        return;
    }
    RT_EXPECT_EQ(id, rr_vec3_normalize(a, &n), RR_OK);
    len = sqrt(ax * ax + ay * ay + az * az);
    /* each component within 2 ulp of the exact unit vector */
    RT_EXPECT(id, fabs(n.x / 65536.0 - ax / len) <= 2.0 / 65536 &&
                  fabs(n.y / 65536.0 - ay / len) <= 2.0 / 65536 &&
                  fabs(n.z / 65536.0 - az / len) <= 2.0 / 65536);
}

/* rr_isqrt64 at every width of v: around each power of two from 2^30 to
 * 2^63 (where it hands over from the 32-bit loop to the cut at an even bit)
 * and around perfect squares of roots of every width, the floor property
 * checked in 128 bits. */
static void check_isqrt64_widths(void)
{
    char id[64];
    int k, d;
    for (k = 30; k < 64; k++) {
        uint64_t p = (uint64_t)1 << k;
        uint64_t root = (uint64_t)1 << (k / 2);
        uint64_t vs[6];
        vs[0] = p - 1, vs[1] = p, vs[2] = p + 1;
        vs[3] = root * root - 1, vs[4] = (root + 3) * (root + 3), vs[5] = (root + 3) * (root + 3) - 1;
        for (d = 0; d < 6; d++) {
            uint64_t v = vs[d];
            uint32_t r = rr_isqrt64(v);
            snprintf(id, sizeof id, "isqrt64.width(%llu)", (unsigned long long)v);
            RT_EXPECT(id, (__int128)r * r <= v && ((__int128)r + 1) * ((__int128)r + 1) > v);
        }
    }
    RT_EXPECT_EQ("isqrt64.max", rr_isqrt64(UINT64_MAX), 0xffffffffu);
    RT_EXPECT_EQ("isqrt64.max_square", rr_isqrt64((uint64_t)0xffffffffu * 0xffffffffu), 0xffffffffu);
    RT_EXPECT_EQ("isqrt64.below_max_square", rr_isqrt64((uint64_t)0xffffffffu * 0xffffffffu - 1),
                 0xfffffffeu);
    for (k = 0; k < 20000; k++) {
        /* random values of random width */
        uint64_t v = ((uint64_t)(uint32_t)rnd() << 32 | (uint32_t)rnd()) >> (k % 64);
        uint32_t r = rr_isqrt64(v);
        snprintf(id, sizeof id, "isqrt64.rand(%llu)", (unsigned long long)v);
        RT_EXPECT(id, (__int128)r * r <= v && ((__int128)r + 1) * ((__int128)r + 1) > v);
    }
}

int main(void)
{
    int i, j;
    plat_init();
    for (i = 0; i < NE; i++) {
        check_one("edge", edges[i]);
        for (j = 0; j < NE; j++)
            check_pair("edge", edges[i], edges[j]);
    }
    for (i = 0; i < 20000; i++) {
        int32_t a = rnd(), b = rnd();
        check_pair("rand", a, b);
        check_one("rand", a);
    }
    check_isqrt64_widths();
    /* ties: exactly half an ulp, both signs, go away from zero */
    RT_EXPECT_EQ("tie.mul+", rr_fix_mul(RR_FIX_HALF, 1), 1);
    RT_EXPECT_EQ("tie.mul-", rr_fix_mul(-RR_FIX_HALF, 1), -1);
    RT_EXPECT_EQ("tie.div+", rr_fix_div(1, 2 * RR_FIX_ONE), 1);
    RT_EXPECT_EQ("tie.div-", rr_fix_div(-1, 2 * RR_FIX_ONE), -1);
    RT_EXPECT_EQ("tie.shr", rr_shr_round64(-3, 1), -2);
    for (i = 0; i < 5000; i++) {
        rr_vec3 a, b;
        /* |components| < 2^21 (+-32.0) keeps dot and cross in range and
         * exact in double; normalize is also checked on wide vectors below */
        a.x = rnd() >> 10, a.y = rnd() >> 10, a.z = rnd() >> 10;
        b.x = rnd() >> 10, b.y = rnd() >> 10, b.z = rnd() >> 10;
        if (i == 0)
            a.x = a.y = a.z = 0;
        check_vec(i, a, b);
    }
    for (i = 0; i < 5000; i++) {
        rr_vec3 a, n;
        double ax, ay, az, len;
        a.x = rnd(), a.y = rnd(), a.z = rnd();
        ax = a.x, ay = a.y, az = a.z;
        len = sqrt(ax * ax + ay * ay + az * az);
        if (len == 0)
            continue;
        RT_EXPECT("vec.wide.normalize", rr_vec3_normalize(a, &n) == RR_OK &&
                  fabs(n.x / 65536.0 - ax / len) <= 2.0 / 65536 &&
                  fabs(n.y / 65536.0 - ay / len) <= 2.0 / 65536 &&
                  fabs(n.z / 65536.0 - az / len) <= 2.0 / 65536);
    }
    return rt_done("test_fix");
}

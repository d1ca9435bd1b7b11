/* rr_fix.c - fixed-point arithmetic shared by every runtime.
 *
 * One type, rr_fix = Q16.16 in an int32_t. World coordinates use the blob's
 * own number of fractional bits; products of a coordinate and a Q16.16 unit
 * value are taken with rr_mul_shift(c, u, 16) and stay in coordinate units.
 *
 * One rounding rule everywhere: round to nearest, ties away from zero, so that
 * f(-x) == -f(x) for every odd function here. Intermediates are 64-bit; the
 * only helpers they may pull in are libgcc's 64-bit integer division and
 * multiplication (never a float helper: the build checks the symbols).
 */
#define RR_INTERNAL
#include "rr_int.h"

int32_t rr__sat32(int64_t v)
{
    if (v > INT32_MAX)
        return INT32_MAX;
    if (v < INT32_MIN)
        return INT32_MIN;
    return (int32_t)v;
}

int64_t rr_shr_round64(int64_t v, unsigned shift)
{
    uint64_t m = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    uint64_t r;
    if (shift == 0)
        return v;
    r = (m + ((uint64_t)1 << (shift - 1))) >> shift;
    return v < 0 ? -(int64_t)r : (int64_t)r;
}

int32_t rr_mul_shift(int32_t a, int32_t b, unsigned shift)
{
    return (int32_t)rr_shr_round64((int64_t)a * b, shift);
}

rr_fix rr_fix_mul(rr_fix a, rr_fix b)
{
    return (rr_fix)rr_shr_round64((int64_t)a * b, RR_FIX_SHIFT);
}

rr_fix rr_fix_mul_sat(rr_fix a, rr_fix b)
{
    return rr__sat32(rr_shr_round64((int64_t)a * b, RR_FIX_SHIFT));
}

/* |n| / |d| rounded half away from zero, sign applied. d must not be 0, and
 * the rounded quotient must stay below 2^63. One unsigned 64-bit division. */
__attribute__((noinline)) int64_t rr__div_round64(int64_t n, int64_t d)
{
    int neg = (n < 0) != (d < 0);
    uint64_t un = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
    uint64_t ud = d < 0 ? 0u - (uint64_t)d : (uint64_t)d;
    uint64_t q = un / ud, r = un - q * ud;
    if (r >= ud - r)  /* 2r >= d without overflow */
        q++;
    return neg ? -(int64_t)q : (int64_t)q;
}

uint64_t rr__mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
    /* four 32 x 32 -> 64 partial products (schoolbook) */
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (p00 & 0xffffffffu) | (mid << 32);
    return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* The same, saturated to int32 (every caller's quotient is below 2^63). */
static int32_t div_round(int64_t n, int64_t d)
{
    return rr__sat32(rr__div_round64(n, d));
}

static int32_t div_zero(int64_t n)
{
    return n > 0 ? INT32_MAX : (n < 0 ? INT32_MIN : 0);
}

rr_fix rr_fix_div(rr_fix a, rr_fix b)
{
    int64_t n = (int64_t)a * RR_FIX_ONE;
    return b ? div_round(n, b) : div_zero(n);
}

rr_fix rr_fix_recip(rr_fix a)
{
    return rr_fix_div(RR_FIX_ONE, a);
}

int32_t rr_muldiv(int32_t a, int32_t b, int32_t c)
{
    int64_t n = (int64_t)a * b;
    return c ? div_round(n, c) : div_zero(n);
}

/* Floor of the square root of a 32-bit value (it does most of the work of
 * rr_isqrt64 too, which calls it for the root's top bits). Two exact
 * methods, the same answer everywhere; which one runs depends only on
 * whether the core divides in one instruction:
 *
 * - Newton's iteration x' = (x + v / x) / 2 in integers, on cores with a
 *   divide instruction (Cortex-M3, MIPS32, x86-64). Started from one step
 *   past 2^k, where 4^k <= v < 4^(k+1), it never goes below floor(sqrt(v))
 *   (for any x > 0, floor((x + floor(v / x)) / 2) >= floor(sqrt(v))) and
 *   falls while it is above it, so the first step that does not fall ends
 *   it: about four divisions for a 30-bit v, against fifteen steps of the
 *   bitwise loop (make bench: b_fix, and the RMesh sweep's unit edges).
 * - Bit by bit elsewhere (ARM926, Cortex-M0: a division is a libgcc loop):
 *   shifts and adds only, one step per two bits of v from its highest set
 *   bit down. bit runs over the powers 4^k <= v; res holds the root found
 *   so far times 2^(k+1), and v what is left of v after subtracting its
 *   square, so "v >= res + bit" asks whether the next bit of the root still
 *   fits.
 *
 * Out of line so that rr_isqrt64 calls it instead of carrying a second
 * copy. t_core checks it against squares and their neighbours on every
 * board. */
#if defined(__ARM_FEATURE_IDIV) || defined(__mips__) || defined(__x86_64__) || \
    defined(__aarch64__)
#define HW_DIVIDE 1   /* a 32-bit division is one instruction (rr_isqrt64 too) */
#else
#define HW_DIVIDE 0
#endif
#if HW_DIVIDE
__attribute__((noinline)) uint32_t rr__isqrt32(uint32_t v)
{
    uint32_t x, next;
    unsigned k;
    if (v < 2)
        return v;
    k = (unsigned)rr__top_bit64(v) >> 1;
    /* (2^k + v / 2^k) / 2 < 2^(k+2) <= 2^17: no sum below overflows */
    x = ((1u << k) + (v >> k)) >> 1;
    next = (x + v / x) >> 1;
    while (next < x) {
        x = next;
        next = (x + v / x) >> 1;
    }
    return x;
}
#else
__attribute__((noinline)) uint32_t rr__isqrt32(uint32_t v)
{
    uint32_t res = 0, bit;
    if (v == 0)
        return 0;
    bit = (uint32_t)1 << (rr__top_bit64(v) & ~1);   /* the highest 4^k <= v */
    while (bit) {
        if (v >= res + bit) {
            v -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return res;
}
#endif

uint32_t rr_isqrt64(uint64_t v)
{
    /* Cut v at an even bit, v = hi * 4^h + lo with hi < 2^32 (h = 0 below
     * 2^32). The root of hi is exactly the root of v shifted down by h bits
     * (floor(sqrt(floor(v / 4^h))) = floor(floor(sqrt(v)) / 2^h)), so the
     * 32-bit loop finds the root's top bits and only its h lowest bits
     * (h <= 16) remain, each kept when the square still fits under v. */
    unsigned h = v >> 32 ? (unsigned)(rr__top_bit64(v) - 30) / 2 : 0, b;
    uint32_t top = rr__isqrt32((uint32_t)(v >> (2 * h)));   /* < 2^16 */
    uint32_t r = top << h;
    uint64_t left;
    if (h == 0)
        return r;
    /* v - r^2, with r^2 = top^2 * 4^h: a 32-bit product (no 64-bit multiply,
     * a libgcc call on the Cortex-M0 that the stack bound charges) */
    left = v - ((uint64_t)(top * top) << (2 * h));
    if (HW_DIVIDE && h < 16) {
        /* The h low bits d at once, with one 32-bit division: r = top 2^h
         * (top in [2^15, 2^16)) and d < 2^h satisfy 2 r d + d^2 <= left <
         * 2 r (d + 1) + (d + 1)^2, and (d + 1)^2 <= 4^h <= 2r 2^(h-16) < 2r
         * for h <= 15 (v < 2^62), so floor(left / 2r) is d or d + 1. It is
         * floor(floor(left / 2^h) / 2 top), and left / 2^h < (2 top + 1) 2^h
         * < 2^32. One square, r + d < 2^31, tells which. */
        uint32_t d = (uint32_t)(left >> h) / (2 * top);
        r += d;
        if ((uint64_t)r * r > v)
            r--;
        return r;
    }
    for (b = h; b-- > 0;) {
        /* (r + 2^b)^2 - r^2 = r * 2^(b+1) + 4^b */
        uint64_t grow = ((uint64_t)r << (b + 1)) + ((uint32_t)1 << (2 * b));
        if (left >= grow) {
            left -= grow;
            r |= (uint32_t)1 << b;
        }
    }
    return r;
}

rr_fix rr_fix_sqrt(rr_fix a)
{
    uint64_t v;
    uint32_t r;
    if (a <= 0)
        return 0;
    v = (uint64_t)a << RR_FIX_SHIFT;
    r = rr_isqrt64(v);
    if (v - (uint64_t)r * r > r)  /* nearest: v >= r^2 + r + 1 */
        r++;
    return (rr_fix)r;
}

/* Precondition for dot64/cross: the exact result fits in int64, which holds
 * whenever every component is below 2^30 in magnitude (+-16384.0). */
int64_t rr_vec3_dot64(rr_vec3 a, rr_vec3 b)
{
    return (int64_t)a.x * b.x + (int64_t)a.y * b.y + (int64_t)a.z * b.z;
}

rr_fix rr_vec3_dot(rr_vec3 a, rr_vec3 b)
{
    return rr__sat32(rr_shr_round64(rr_vec3_dot64(a, b), RR_FIX_SHIFT));
}

static rr_fix cross1(rr_fix a, rr_fix b, rr_fix c, rr_fix d)
{
    return rr__sat32(rr_shr_round64((int64_t)a * b - (int64_t)c * d, RR_FIX_SHIFT));
}

rr_vec3 rr_vec3_cross(rr_vec3 a, rr_vec3 b)
{
    rr_vec3 r;
    r.x = cross1(a.y, b.z, a.z, b.y);
    r.y = cross1(a.z, b.x, a.x, b.z);
    r.z = cross1(a.x, b.y, a.y, b.x);
    return r;
}

static uint64_t mag(int64_t v)
{
    return v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
}

rr_err rr_vec3_normalize(rr_vec3 v, rr_vec3 *out)
{
    /* Scale first so the largest component is in [2^29, 2^30): direction is
     * scale-invariant and small vectors keep full precision. Then |v| is the
     * square root of the sum of squares (< 3 * 2^60, fits in 64 bits). */
    int64_t x = v.x, y = v.y, z = v.z;
    uint64_t m = mag(x), s;
    uint32_t len;
    if (mag(y) > m)
        m = mag(y);
    if (mag(z) > m)
        m = mag(z);
    if (!out)
        return RR_ERR_ARG;
    if (m == 0) {
        out->x = out->y = out->z = 0;
        return RR_ERR_RANGE;
    }
    while (m < ((uint64_t)1 << 29)) {
        m <<= 1, x *= 2, y *= 2, z *= 2;
    }
    while (m >= ((uint64_t)1 << 30)) {  /* only INT32_MIN..-2^30 / 2^30.. */
        m >>= 1, x = rr_shr_round64(x, 1), y = rr_shr_round64(y, 1), z = rr_shr_round64(z, 1);
    }
    s = mag(x) * mag(x) + mag(y) * mag(y) + mag(z) * mag(z);
    len = rr_isqrt64(s);
    if (s - (uint64_t)len * len > len)
        len++;
    out->x = div_round(x * RR_FIX_ONE, len);
    out->y = div_round(y * RR_FIX_ONE, len);
    out->z = div_round(z * RR_FIX_ONE, len);
    return RR_OK;
}

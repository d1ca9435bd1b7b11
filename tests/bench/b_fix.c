/* b_fix.c - instruction counts of the fixed-point core (loader/rr_fix.c):
 * rr_fix_mul, rr_fix_div, rr_fix_sqrt, rr_vec3_normalize, rr_muldiv, each
 * on NCALLS pseudo-random operands (the same on every board), one region per
 * call. The point is the Cortex-M0 (microbit: no 32x32->64 multiply, no
 * divide instruction, so 64-bit products and quotients are libgcc calls)
 * next to the Cortex-M3 (mps2-an385: umull/smull, udiv) and the others.
 * Baseline per row: the bare 32x32->64 product (int64 multiply, the floor
 * of every rounded product) measured in the same run.
 * Protocol: "BENCH <label> <units> <baseline>" before each region (see
 * tests/bench/b_open.c and tests/bench/bench.sh). */
#include "rr.h"
#include "rr_plat.h"
#include "rr_test.h"

#define NCALLS 64


/* A signed value of magnitude < 2^bits, never 0. */
static int32_t rnd(unsigned bits)
{
    int32_t v = (int32_t)(rt_rand() & ((1u << bits) - 1u)) + 1;
    return (rt_rand() & 1u) ? -v : v;
}

static volatile int32_t sink;
static volatile int64_t sink64;

/* The bare product, for scale: a 32x32->64 multiply and nothing else. */
__attribute__((noinline, noipa)) static int64_t mul64(int32_t a, int32_t b)
{
    return (int64_t)a * b;
}

int main(void)
{
    static int32_t a[NCALLS], b[NCALLS], c[NCALLS];
    rr_vec3 v, n;
    unsigned i;
    plat_init();
    rt_seed = 0x9e3779b9u;
    for (i = 0; i < NCALLS; i++) {
        a[i] = rnd(23);          /* |a| < 128.0 */
        b[i] = rnd(22);          /* |b| < 64.0: a * b and a / b fit Q16.16 mostly */
        c[i] = rnd(30);
    }
    for (i = 0; i < NCALLS; i++) {
        plat_printf("BENCH fix.mul64 0 -\n");
        rr_bench_start();
        sink64 = mul64(a[i], b[i]);
        rr_bench_stop();
    }
    for (i = 0; i < NCALLS; i++) {
        plat_printf("BENCH fix.rr_fix_mul 0 fix.mul64\n");
        rr_bench_start();
        sink = rr_fix_mul(a[i], b[i]);
        rr_bench_stop();
    }
    for (i = 0; i < NCALLS; i++) {
        plat_printf("BENCH fix.rr_fix_div 0 fix.mul64\n");
        rr_bench_start();
        sink = rr_fix_div(a[i], b[i]);
        rr_bench_stop();
    }
    for (i = 0; i < NCALLS; i++) {
        int32_t x = a[i] < 0 ? -a[i] : a[i];
        plat_printf("BENCH fix.rr_fix_sqrt 0 fix.mul64\n");
        rr_bench_start();
        sink = rr_fix_sqrt(x);
        rr_bench_stop();
    }
    for (i = 0; i < NCALLS; i++) {
        v.x = a[i];
        v.y = b[i];
        v.z = c[i] >> 8;
        plat_printf("BENCH fix.rr_vec3_normalize 0 fix.mul64\n");
        rr_bench_start();
        sink = (int32_t)rr_vec3_normalize(v, &n);
        rr_bench_stop();
        sink = n.x;
    }
    for (i = 0; i < NCALLS; i++) {
        plat_printf("BENCH fix.rr_muldiv 0 fix.mul64\n");
        rr_bench_start();
        sink = rr_muldiv(c[i], a[i], b[i] | 1);
        rr_bench_stop();
    }
    return 0;
}

/* t_core.c - the core on every board: fixed-point results over an edge table
 * (printed; the runner compares them byte for byte with the host, whose
 * values test_fix checks against a long double / 128-bit reference), and the
 * container: open each linked blob, then corrupted copies in RAM with the
 * exact codes expected. */
#include "rr.h"
#include "rr_test.h"
#include "rr_test_blobs.h"

static const int32_t edges[] = {
    0, 1, -1, 0x7fff, -0x8000, 0x8001, 0xffff, 0x10000, -0x10000, 0x18000, -0x18000,
    0xb504f3, 0x1000000, -0x1000000, 0x7fffffff, -0x7fffffff, (-0x7fffffff - 1),
    0x12345678, -0x12345678, 0x00ff00ff};
#define NE (int)(sizeof edges / sizeof edges[0])

static uint32_t ram[1024 / 4 + 4]; /* copy of the 1k blob to corrupt (fits 16 KB RAM) */
static uint32_t arena[64];

static void fix_table(void)
{
    int i, j;
    uint32_t h = 0;
    for (i = 0; i < NE; i++) {
        plat_printf("sqrt %d = %d, recip = %d\n", (int)edges[i], (int)rr_fix_sqrt(edges[i]),
                    (int)rr_fix_recip(edges[i]));
        for (j = 0; j < NE; j++) {
            /* fold the pair results into a hash line per row to keep output short */
            h = h * 31u + (uint32_t)rr_fix_mul_sat(edges[i], edges[j]);
            h = h * 31u + (uint32_t)rr_fix_div(edges[i], edges[j]);
            h = h * 31u + (uint32_t)rr_muldiv(edges[i], edges[j], edges[(i + j) % NE]);
            h = h * 31u + (uint32_t)rr_mul_shift(edges[i] >> 8, edges[j], 20);
        }
        plat_printf("row %d hash %08x\n", i, (unsigned)h);
    }
    {
        rr_vec3 v = {RR_FIX(3), RR_FIX(-4), RR_FIX(12)}, n;
        rr_err e = rr_vec3_normalize(v, &n);
        plat_printf("normalize(3,-4,12) = %d (%d %d %d)\n", (int)e, (int)n.x, (int)n.y, (int)n.z);
        RT_EXPECT_EQ("core.normalize", e, RR_OK);
    }
}

/* The floor square root below 2^32 (rr_isqrt64 there is rr__isqrt32, which
 * runs Newton's iteration where the core divides and a bitwise loop where
 * it does not: rr_fix.c) at every square and both its neighbours, n^2 - 1,
 * n^2 and n^2 + 2n: each must give the largest r with r^2 <= v, on every
 * board, whichever method it runs. */
static void isqrt_squares(void)
{
    uint32_t n, k, wrong = 0, checked = 0;
    for (n = 1; n < 65536; n++) {
        uint32_t sq = n * n, v[3] = {sq - 1, sq, sq + 2 * n}, want[3] = {n - 1, n, n};
        for (k = 0; k < 3; k++, checked++)
            wrong += rr_isqrt64(v[k]) != want[k];
    }
    plat_printf("isqrt: %lu values checked at squares, %lu wrong\n", (unsigned long)checked,
                (unsigned long)wrong);
    RT_EXPECT_EQ("core.isqrt_squares", wrong, 0);
}

static void blobs(void)
{
    unsigned i, k;
    rr_room room;
    for (i = 0; i < rr_test_nblobs; i++) {
        const rr_test_blob *b = &rr_test_blobs[i];
        rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &room);
        plat_printf("open %s (%u bytes) = %d %s\n", b->name, b->size, (int)e, rr_strerror(e));
        if (b->name[0] == 'o')
            RT_EXPECT_EQ("core.other-endian", e, RR_ERR_ENDIAN);
        else
            RT_EXPECT_EQ("core.open", e, RR_OK);
    }
    /* corrupt copies of the 1k blob (in RAM: the originals are in flash) */
    for (k = 0; k < 1024; k += 37) {
        const rr_test_blob *b = &rr_test_blobs[0];
        unsigned n = b->size < sizeof ram ? b->size : (unsigned)sizeof ram, j;
        rr_err e;
        /* not the header's fixed field: which of its bytes is coord_frac
         * depends on the byte order, and a flip there may give another valid
         * coord_frac (a RAW blob has no coordinates), so boards would differ */
        if (k % n >= 12 && k % n < 16)
            continue;
        for (j = 0; j < n; j++)
            ((uint8_t *)ram)[j] = b->data[j];
        ((uint8_t *)ram)[k % n] ^= 0x10;
        e = rr_open(ram, n, arena, sizeof arena, &room);
        plat_printf("flip %u = %d\n", k % n, (int)e);
        RT_EXPECT("core.flip-rejected", e != RR_OK);
    }
}

int main(void)
{
    plat_init();
    fix_table();
    isqrt_squares();
    blobs();
    return rt_done("t_core");
}

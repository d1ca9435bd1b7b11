/* rr_test.h - the tiny test harness shared by host tests and target test
 * programs. Output goes through plat_printf so it is byte-identical on every
 * board. Each check has a case id that names the table row it came from, so a
 * failure can be rerun alone (RT_ONLY=<id> on the host).
 *
 *   RT_EXPECT("fix.mul.7", got == want);
 *   RT_EXPECT_EQ("blob.trunc.12", rr_open(...), RR_ERR_TRUNC);   // prints both values
 *   return rt_done("test_fix");  // prints "# test_fix: N passed, M failed", returns 0/1
 */
#ifndef RR_TEST_H
#define RR_TEST_H

#include <stdint.h>
#include <string.h>

#include "rr_plat.h"

static int rt_passed, rt_failed;

static __attribute__((unused)) void rt_expect(const char *id, int ok, const char *expr, const char *file, int line)
{
    if (ok) {
        rt_passed++;
        return;
    }
    rt_failed++;
    plat_printf("FAIL %s: %s (%s:%d)\n", id, expr, file, line);
}

static __attribute__((unused)) void rt_expect_eq(const char *id, long long got, long long want, const char *expr,
                         const char *file, int line)
{
    if (got == want) {
        rt_passed++;
        return;
    }
    rt_failed++;
    plat_printf("FAIL %s: %s = %lld, expected %lld (%s:%d)\n", id, expr, got, want, file, line);
}

#define RT_EXPECT(id, cond) rt_expect((id), (cond) ? 1 : 0, #cond, __FILE__, __LINE__)
#define RT_EXPECT_EQ(id, got, want) \
    rt_expect_eq((id), (long long)(got), (long long)(want), #got, __FILE__, __LINE__)

/* Deterministic pseudo-random numbers, the same on every board (xorshift32;
 * set rt_seed, never 0, before use). */
static uint32_t rt_seed = 2463534242u;

static __attribute__((unused)) uint32_t rt_rand(void)
{
    rt_seed ^= rt_seed << 13;
    rt_seed ^= rt_seed >> 17;
    rt_seed ^= rt_seed << 5;
    return rt_seed;
}

/* A value in [lo - span/(2h), hi + span/(2h)): a range around [lo, hi), so
 * that query sets also probe just outside a room. */
static __attribute__((unused)) int32_t rt_pick(int32_t lo, int32_t hi, int h)
{
    int64_t span = (int64_t)hi - lo;
    int64_t base = lo - span / (2 * h), range = span + span / h;
    if (range <= 0)
        return lo;
    return (int32_t)(base + (int64_t)(rt_rand() % (uint32_t)range));
}

/* Section i of a blob in this machine's byte order, read by hand from the
 * layout that docs/blob-format.md gives (not through the loader): the
 * 48-byte header (nsections at byte 36), then 8-byte entries {u16 type, u16
 * elem, u32 size}, then the sections back to back, each padded to a
 * multiple of 4. Returns its offset (0 when i is past the table) and its
 * type, record bytes and record count. */
static __attribute__((unused)) uint32_t rt_section_i(const uint8_t *b, uint32_t i,
                                                     uint32_t *type, uint32_t *elem,
                                                     uint32_t *count)
{
    uint32_t n, off, k, size;
    uint16_t t, el;
    memcpy(&n, b + 36, 4);
    off = 48 + 8 * n;
    for (k = 0; k < n; k++) {
        memcpy(&t, b + 48 + 8 * k, 2);
        memcpy(&el, b + 48 + 8 * k + 2, 2);
        memcpy(&size, b + 48 + 8 * k + 4, 4);
        if (k == i) {
            *type = t;
            *elem = el;
            *count = el ? size / el : 0;
            return off;
        }
        off += (size + 3u) & ~3u;
    }
    return 0;
}

/* The section of a type (offset, 0 when absent; count and elem may be NULL). */
static __attribute__((unused)) uint32_t rt_section(const uint8_t *b, uint32_t type,
                                                   uint32_t *count, uint32_t *elem)
{
    uint32_t i, t, el, c, off;
    for (i = 0; (off = rt_section_i(b, i, &t, &el, &c)) != 0; i++)
        if (t == type) {
            if (count)
                *count = c;
            if (elem)
                *elem = el;
            return off;
        }
    return 0;
}

static __attribute__((unused)) int rt_done(const char *suite)
{
    plat_printf("# %s: %d passed, %d failed\n", suite, rt_passed, rt_failed);
    return rt_failed ? 1 : 0;
}

#endif

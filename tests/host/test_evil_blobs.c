/* test_evil_blobs.c - systematic hostile blobs for every format runtime.
 *
 * For each sample room (the project's own writers) and a few small corpus
 * rooms, bake a valid little-endian blob, then, with the checksum fixed up so
 * the damage reaches the validators:
 *   - every field of every section table entry set to hostile values;
 *   - every 32-bit word of the first 48 and the last 16 elements of every
 *     section set to 0, -1, INT32_MAX, INT32_MIN, 0x00010000, and the
 *     section's own element count and count + 1 (an index one past the end);
 *   - the byte order flipped, the checksum off by one.
 * rr_open must return a code, never crash (ASan/UBSan); a blob it accepts
 * must survive every query of its runtime (tests/fuzz/fuzz_queries.h). The
 * test prints how often each code was seen per format, and checks that the
 * validators reject damage with their own codes (INDEX, RANGE, SECTION...),
 * not only with the container's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fuzz/fuzz_queries.h"
#include "rr_test.h"
#include "rrb_format.h"

#define NCODES 32

static uint32_t work[1 << 20];     /* 4 MB: aligned copy of the blob */
static uint32_t arena[1 << 16];

typedef struct tally {
    unsigned long tried, accepted, codes[NCODES];
} tally;

static void fix_crc(uint8_t *p, size_t n)
{
    uint32_t c = rr_crc32(0, p + 24, (uint32_t)(n - 24));
    memcpy(p + 20, &c, 4);
}

/* Open the damaged copy in work; run every query if it opens. */
static void try_blob(size_t n, tally *t, const uint8_t *seed, size_t seedn)
{
    rr_room room;
    rr_err e = rr_open(work, (uint32_t)n, arena, sizeof arena, &room);
    t->tried++;
    t->codes[(unsigned)(-e) % NCODES]++;
    if (e == RR_OK) {
        t->accepted++;
        rr_fuzz_queries(&room, seed, seedn);
    }
}

static void put_word(const uint8_t *blob, size_t n, size_t off, uint32_t v, tally *t)
{
    memcpy(work, blob, n);
    memcpy((uint8_t *)work + off, &v, 4);
    fix_crc((uint8_t *)work, n);
    try_blob(n, t, (const uint8_t *)&v, 4);
}

static void damage_table(const uint8_t *blob, size_t n, uint32_t ns, tally *t)
{
    static const uint32_t vals[] = {0, 1, 3, 0xffffffffu, 0x7fffffffu, 0x80000000u, 48};
    uint32_t i, f, k;
    for (i = 0; i < ns; i++)   /* the words {type, elem} and {size} of entry i */
        for (f = 0; f < 2; f++)
            for (k = 0; k < sizeof vals / sizeof vals[0]; k++)
                put_word(blob, n, 48 + 8 * i + 4 * f, vals[k], t);
}

static void damage_section(const uint8_t *blob, size_t n, uint32_t i, tally *t)
{
    uint32_t type, elem, count, off = rt_section_i(blob, i, &type, &elem, &count), e, w, k;
    uint32_t vals[7] = {0, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x00010000u, 0, 0};
    if (type == RR_SEC_STRINGS || count == 0)
        return;
    vals[5] = count, vals[6] = count + 1;
    for (e = 0; e < count; e++) {
        if (e >= 48 && e + 16 < count)
            continue;
        for (w = 0; w + 4 <= elem; w += 4)
            for (k = 0; k < 7; k++)
                put_word(blob, n, off + e * elem + w, vals[k], t);
    }
}

static void one_room(const char *name, const uint8_t *blob, size_t n, tally *t)
{
    uint32_t ns, i, swapped[1];
    memcpy(work, blob, n);
    RT_EXPECT_EQ(name, rr_open(work, (uint32_t)n, arena, sizeof arena, &(rr_room){0}), RR_OK);
    memcpy(&ns, blob + 36, 4);
    damage_table(blob, n, ns, t);
    for (i = 0; i < ns; i++)
        damage_section(blob, n, i, t);
    memcpy(work, blob, n);  /* byte order flipped */
    swapped[0] = 0x04030201u;
    memcpy((uint8_t *)work + 4, swapped, 4);
    RT_EXPECT_EQ(name, rr_open(work, (uint32_t)n, arena, sizeof arena, &(rr_room){0}), RR_ERR_ENDIAN);
    memcpy(work, blob, n);  /* checksum off by one */
    ((uint8_t *)work)[20] ^= 1;
    RT_EXPECT_EQ(name, rr_open(work, (uint32_t)n, arena, sizeof arena, &(rr_room){0}), RR_ERR_CHECKSUM);
}

static int bake(const char *path, uint8_t **blob, size_t *n)
{
    char err[RRB_ERR_MAX];
    uint8_t *src;
    size_t sn;
    const rrb_format *f;
    rrb_blob *b;
    rrb_opts o = {0};
    o.quiet = 1;
    if (rrb_load_file(path, &src, &sn, err, sizeof err))
        return -1;
    f = rrb_detect(src, sn, path);
    b = f && f->bake ? f->bake(src, sn, path, &o, err, sizeof err) : NULL;
    free(src);
    if (!b || rrb_blob_finish(b, 0, blob, n) || *n > sizeof work) {
        rrb_blob_free(b);
        return -1;
    }
    rrb_blob_free(b);
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const corpus[] = {"roo/v12_guest5.roo", "roo/v14_outgrace.roo",
                                         "rmf/sledge_22.rmf", "scpcb-rmesh/room2_3_opt.rmesh",
                                         "rmesh-variants/scpcbredux_cube.rmesh"};
    static const char *const samples[] = {"sample.roo", "sample.rmf", "sample.rmesh", "figure.emi",
                                          "emi_gen1.emi"};
    static const char *const fmt_names[] = {"raw", "rmesh", "rmf", "roo", "emi"};
    const char *dir = "/tmp/rr_test_evil_blobs", *cdir = argc > 1 ? argv[1] : "../shared/corpus";
    char path[512], err[RRB_ERR_MAX];
    tally t[5];
    size_t i, k, n;
    uint8_t *blob;
    plat_init();
    memset(t, 0, sizeof t);
    mkdir(dir, 0777);
    for (i = 0; i < RRB_NFORMATS; i++)
        if (rrb_formats[i] && rrb_formats[i]->sample)
            rrb_formats[i]->sample(dir, err, sizeof err);
    for (i = 0; i < 10; i++) {
        uint32_t fmt;
        if (i < 5)
            snprintf(path, sizeof path, "%s/%s", dir, samples[i]);
        else
            snprintf(path, sizeof path, "%s/%s", cdir, corpus[i - 5]);
        if (bake(path, &blob, &n)) {
            RT_EXPECT(path, 0);
            continue;
        }
        memcpy(&fmt, blob + 24, 4);
        one_room(path, blob, n, &t[fmt < 5 ? fmt : 0]);
        free(blob);
    }
    for (i = 1; i < 5; i++) {
        unsigned long own = t[i].codes[-RR_ERR_INDEX % NCODES] + t[i].codes[-RR_ERR_RANGE % NCODES] +
                            t[i].codes[-RR_ERR_CYCLE % NCODES] + t[i].codes[-RR_ERR_DEPTH % NCODES];
        plat_printf("# %s: %lu damaged blobs, %lu accepted (all queries ran);", fmt_names[i],
                    t[i].tried, t[i].accepted);
        for (k = 0; k < NCODES; k++)
            if (t[i].codes[k] && k)
                plat_printf(" %s=%lu", rr_strerror((rr_err) - (int)k), t[i].codes[k]);
        plat_printf("\n");
        RT_EXPECT(fmt_names[i], t[i].tried > 1000);
        /* the format's validator itself must catch damage inside sections */
        RT_EXPECT(fmt_names[i], own > 100);
    }
    return rt_done("test_evil_blobs");
}

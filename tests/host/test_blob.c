/* test_blob.c - the blob container: JobValidity-style walk through every
 * rejection rr_open promises (each with its exact code), then hostile input:
 * every truncation of a valid blob, every single-byte corruption of the
 * header and section table (with and without a fixed-up checksum), and
 * random buffers. Built with ASan/UBSan: no crash, no report, always a code.
 * Blobs are made with the real writer (tools/rrb_blob.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr.h"
#include "rr_test.h"
#include "rrb_blob.h"

static uint8_t *blob;       /* a valid little-endian RAW blob */
static size_t blob_n;
static uint32_t work[1 << 16]; /* aligned scratch copy */
static uint32_t arena_mem[256];

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void fix_crc(uint8_t *p, size_t n)
{
    put32(p + 20, rr_crc32(0, p + 24, (uint32_t)(n - 24)));
}

static uint8_t *make(int be, uint32_t arena, uint32_t depth, uint32_t extra_type, size_t *n)
{
    rrb_blob *b = rrb_blob_new(RR_FMT_RAW, 4);
    rr_blob_info bi;
    uint32_t words[40];
    uint8_t *out;
    int i;
    memset(&bi, 0, sizeof bi);
    bi.source_name = rrb_blob_string(b, "unit-test");
    bi.source_size = 1234;
    rrb_blob_add(b, RR_SEC_INFO, &bi, 1, sizeof bi, NULL);
    for (i = 0; i < 40; i++)
        words[i] = (uint32_t)i * 2654435761u;
    rrb_blob_add(b, extra_type, words, 40, 4, "4");
    rrb_blob_set_arena(b, arena);
    rrb_blob_set_depth(b, depth);
    if (rrb_blob_finish(b, be, &out, n))
        abort();
    rrb_blob_free(b);
    return out;
}

static rr_err open_copy(const uint8_t *p, size_t n)
{
    rr_room room;
    memcpy(work, p, n);
    return rr_open(work, (uint32_t)n, arena_mem, sizeof arena_mem, &room);
}

/* Modify a copy of the valid blob, optionally fix the checksum, open it. */
static rr_err open_mod(uint32_t off, uint32_t value, int fixcrc)
{
    uint8_t *p = (uint8_t *)work;
    rr_room room;
    memcpy(p, blob, blob_n);
    put32(p + off, value);
    if (fixcrc)
        fix_crc(p, blob_n);
    return rr_open(work, (uint32_t)blob_n, arena_mem, sizeof arena_mem, &room);
}

static void validity(void)
{
    rr_room room;
    rr_diag d;
    uint8_t *p = (uint8_t *)work, *be;
    size_t ben;
    uint32_t sect0 = 48, i, ent1, info;
    RT_EXPECT_EQ("valid.open", open_copy(blob, blob_n), RR_OK);
    RT_EXPECT_EQ("valid.arena_size", rr_arena_size(blob, (uint32_t)blob_n), 16);
    RT_EXPECT_EQ("crc32.check-vector", rr_crc32(0, "123456789", 9), 0xcbf43926u);
    RT_EXPECT_EQ("arg.null-blob", rr_open(NULL, 100, arena_mem, 64, &room), RR_ERR_ARG);
    RT_EXPECT_EQ("arg.null-room", rr_open(work, (uint32_t)blob_n, arena_mem, 64, NULL), RR_ERR_ARG);
    memcpy(p + 1, blob, blob_n);
    RT_EXPECT_EQ("align.blob", rr_open(p + 1, (uint32_t)blob_n, arena_mem, 64, &room), RR_ERR_ALIGN);
    memcpy(p, blob, blob_n);
    RT_EXPECT_EQ("arena.small", rr_open(work, (uint32_t)blob_n, arena_mem, 15, &room), RR_ERR_ARENA);
    RT_EXPECT_EQ("arena.null", rr_open(work, (uint32_t)blob_n, NULL, 64, &room), RR_ERR_ARG);
    RT_EXPECT_EQ("arena.align", rr_open(work, (uint32_t)blob_n, (uint8_t *)arena_mem + 2, 64, &room),
                 RR_ERR_ALIGN);
    RT_EXPECT_EQ("size.short", rr_open(work, 40, arena_mem, 64, &room), RR_ERR_TRUNC);
    RT_EXPECT_EQ("size.larger", rr_open(work, (uint32_t)blob_n + 4, arena_mem, 64, &room), RR_ERR_SIZE);
    RT_EXPECT_EQ("magic", open_mod(0, 0x21425252u, 0), RR_ERR_MAGIC);
    RT_EXPECT_EQ("endian.garbage", open_mod(4, 0x11111111u, 0), RR_ERR_MAGIC);
    RT_EXPECT_EQ("version", open_mod(8, 1, 0), RR_ERR_VERSION);   /* 16-byte table entries */
    RT_EXPECT_EQ("fixed.frac17", open_mod(12, 0x5111, 0), RR_ERR_FIXED);
    RT_EXPECT_EQ("fixed.probe", open_mod(12, 0x6104, 0), RR_ERR_FIXED);
    RT_EXPECT_EQ("checksum", open_mod(20, get32(blob + 20) ^ 1, 0), RR_ERR_CHECKSUM);
    RT_EXPECT_EQ("format.unknown", open_mod(24, 99, 1), RR_ERR_FORMAT);
    RT_EXPECT_EQ("arena.declared", open_mod(28, sizeof arena_mem + 4, 1), RR_ERR_ARENA);
    RT_EXPECT_EQ("depth.declared", open_mod(32, 65, 1), RR_ERR_DEPTH);
    RT_EXPECT_EQ("sections.too-many", open_mod(36, 65, 1), RR_ERR_SECTION);
    RT_EXPECT_EQ("sections.table-past-end", open_mod(36, 60, 1), RR_ERR_TRUNC);
    /* The table: entry 0 INFO, 1 the optional payload (40 words), 2 STRINGS;
     * each {u16 type, u16 elem, u32 size}, the sections back to back. */
    ent1 = get32(blob + sect0 + 8);   /* type | elem << 16 of the payload */
    RT_EXPECT_EQ("section.elem-zero", open_mod(sect0, RR_SEC_INFO, 1), RR_ERR_SECTION);
    RT_EXPECT_EQ("section.partial-record", open_mod(sect0 + 4, get32(blob + sect0 + 4) + 2, 1),
                 RR_ERR_SECTION);
    RT_EXPECT_EQ("section.past-end", open_mod(sect0 + 4, (uint32_t)blob_n, 1), RR_ERR_SECTION);
    RT_EXPECT_EQ("section.huge-size", open_mod(sect0 + 12, 0xfffffff0u, 1), RR_ERR_SECTION);
    RT_EXPECT_EQ("section.bytes-after-last", open_mod(sect0 + 12, get32(blob + sect0 + 12) - 4, 1),
                 RR_ERR_SIZE);
    RT_EXPECT_EQ("section.duplicate", open_mod(sect0 + 8, (ent1 & 0xffff0000u) | RR_SEC_INFO, 1),
                 RR_ERR_SECTION);
    RT_EXPECT_EQ("section.unknown-required", open_mod(sect0 + 8, (ent1 & 0xffff0000u) | 0x0777, 1),
                 RR_ERR_SECTION);
    RT_EXPECT_EQ("section.unknown-optional", open_mod(sect0 + 8, (ent1 & 0xffff0000u) | 0x8777, 1),
                 RR_OK);
    /* two info records: INFO grows by one record, the payload shrinks by as
     * much, so every later section stays where it was */
    memcpy(p, blob, blob_n);
    put32(p + sect0 + 4, 2 * (uint32_t)sizeof(rr_blob_info));
    put32(p + sect0 + 12, get32(blob + sect0 + 12) - (uint32_t)sizeof(rr_blob_info));
    fix_crc(p, blob_n);
    RT_EXPECT_EQ("info.count", rr_open(work, (uint32_t)blob_n, arena_mem, 64, &room), RR_ERR_SECTION);
    /* the info record's string offset, then an unterminated string table */
    info = rt_section(blob, RR_SEC_INFO, NULL, NULL);
    RT_EXPECT_EQ("info.at-table-end", info, sect0 + 3 * 8);
    RT_EXPECT_EQ("info.string", open_mod(info + 4, 4096, 1), RR_ERR_INDEX);
    for (i = 0; i < 3; i++) {
        uint32_t type, elem, count, off = rt_section_i(blob, i, &type, &elem, &count);
        if (type == RR_SEC_STRINGS) {
            memcpy(p, blob, blob_n);
            p[off + count - 1] = 'x';
            fix_crc(p, blob_n);
            RT_EXPECT_EQ("strings.unterminated", rr_open(work, (uint32_t)blob_n, arena_mem, 64, &room),
                         RR_ERR_RANGE);
        }
    }
    be = make(1, 16, 3, 0x8010, &ben);
    RT_EXPECT_EQ("endian.swapped", open_copy(be, ben), RR_ERR_ENDIAN);
    memcpy(work, be, ben);
    RT_EXPECT_EQ("endian.arena_size", rr_arena_size(work, (uint32_t)ben), RR_ERR_ENDIAN);
    free(be);
    memset(&d, 0, sizeof d);
    memcpy(p, blob, blob_n);
    put32(p + sect0 + 4, (uint32_t)blob_n);
    fix_crc(p, blob_n);
    RT_EXPECT_EQ("diag.code", rr_open_diag(work, (uint32_t)blob_n, arena_mem, 64, &room, &d), RR_ERR_SECTION);
    RT_EXPECT("diag.where", d.offset == sect0 + 4 && d.section == RR_SEC_INFO && d.what != NULL);
    for (i = 0; i <= 19; i++) {
        const char *m = rr_strerror((rr_err) - (int)i);
        RT_EXPECT("strerror.nonempty", m && m[0]);
        if (i > 0)
            RT_EXPECT("strerror.distinct", strcmp(m, rr_strerror((rr_err) - (int)i + 1)) != 0);
    }
    RT_EXPECT("strerror.unknown", strcmp(rr_strerror((rr_err)-1000), "unknown error") == 0);
}

static void hostile(void)
{
    uint8_t *p = (uint8_t *)work;
    rr_room room;
    size_t k, end = 48 + 8 * get32(blob + 36);
    unsigned bit, fix, wrong_ok = 0, trunc_bad = 0, crc_missed = 0, codes[32] = {0};
    uint32_t x = 99;
    int i;
    for (k = 0; k < blob_n; k++)  /* every truncation */
        if (open_copy(blob, k) != RR_ERR_TRUNC)
            trunc_bad++;
    RT_EXPECT_EQ("hostile.every-truncation", trunc_bad, 0);
    for (fix = 0; fix < 2; fix++)
        for (k = 0; k < end; k++)
            for (bit = 0; bit < 8; bit++) {
                rr_err e;
                memcpy(p, blob, blob_n);
                p[k] ^= (uint8_t)(1u << bit);
                if (fix && k >= 24)
                    fix_crc(p, blob_n);
                e = rr_open(work, (uint32_t)blob_n, arena_mem, sizeof arena_mem, &room);
                codes[-e & 31]++;
                if (!fix && k >= 24 && e != RR_ERR_CHECKSUM)
                    crc_missed++;
                /* A corruption may only be accepted in fields whose other values are
                 * also valid for this RAW blob: coord_frac (12), declared arena and
                 * depth (28-35: RAW uses neither), flags/schema (40-47), section
                 * types (an optional type stays optional), and the type and record
                 * size of the optional payload section (56..59: its size stays a
                 * whole number of records), which RAW never reads; and the low
                 * byte of the last section's size (68: the string table), where a
                 * size that stays within its padding takes in one more NUL. */
                if (e == RR_OK && k != 12 && !(k >= 28 && k < 36) && !(k >= 40 && k < 48) &&
                    !(k >= 48 && (k - 48) % 8 < 2) && !(k >= 56 && k < 60) && k != 68)
                    wrong_ok++, plat_printf("# accepted k=%u bit=%u fix=%u\n", (unsigned)k, bit, fix);
            }
    RT_EXPECT_EQ("hostile.single-byte.crc-detects", crc_missed, 0);
    RT_EXPECT_EQ("hostile.single-byte.only-harmless-accepted", wrong_ok, 0);
    for (i = 0; i < 20000; i++) {  /* random buffers, some with a plausible header */
        size_t n = (size_t)(x % 600), j;
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        n = x % 600;
        for (j = 0; j < n; j++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            p[j] = (uint8_t)x;
        }
        if (i & 1 && n >= 48) {
            memcpy(p, blob, 16);
            put32(p + 16, (uint32_t)n);
            put32(p + 28, 0);
            put32(p + 32, 0);
            put32(p + 36, x % 8);
            fix_crc(p, n);
        }
        (void)rr_open(work, (uint32_t)n, arena_mem, sizeof arena_mem, &room);
        (void)rr_arena_size(work, (uint32_t)n);
    }
    RT_EXPECT("hostile.random-survived", 1);
    plat_printf("# hostile codes seen:");
    for (k = 0; k < 32; k++)
        if (codes[k])
            plat_printf(" %s=%u", k ? rr_strerror((rr_err) - (int)k) : "ok", codes[k]);
    plat_printf("\n");
}

int main(void)
{
    plat_init();
    blob = make(0, 16, 3, 0x8010, &blob_n);
    validity();
    hostile();
    free(blob);
    return rt_done("test_blob");
}

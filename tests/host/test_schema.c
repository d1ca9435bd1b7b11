/* test_schema.c - the blob schemas against real baked rooms.
 *
 *  - Per-field diagnostics: for every checked field of every format's schema
 *    (every kind but DATA and SEMANTIC), in the first and the last record of
 *    its section in real baked rooms, a value that breaks the field's rule
 *    (one past an index range, past a coordinate bound, a bit outside the
 *    allowed flags, a count one off...) is written into the blob, the
 *    checksum is fixed, and rr_open must fail with a diagnostic that names
 *    exactly that section (type), record (index) and field (its byte offset),
 *    and rrbake's text of it must say "<section>[<record>].<field>".
 *    The value that breaks the rule is derived from the rule alone (the
 *    schema's kind and bound, and the target section's count in the blob),
 *    not from the loader's code.
 *  - Byte order: every room baked big-endian and swapped back to host order
 *    through the schema equals the little-endian blob byte for byte (but for
 *    the header's flags and checksum), and opens.
 *
 * Rooms: real corpus files of every format but EMI, and the project's own
 * samples (`rrbake sample`; the only EMI files there are). Fields of
 * sections that are empty in every room used here cannot be
 * corrupted; they are listed ("not exercised") so that the gap is visible.
 *
 * usage: test_schema CORPUS_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_test.h"
#include "rrb_format.h"
#include "rrb_schema.h"

static const char *const rooms[] = {
    "roo/v12_outgrace.roo", "roo/v13_jashall.roo", "roo/v14_cornoth.roo",
    "rmf/sledge_14.rmf", "rmf/msr_tower.rmf", "rmf/sledge_22.rmf",
    "scpcb-rmesh/room1archive.rmesh", "cbre-rmesh/forest_wall.rmesh", "scpcb-rmesh/mt2.rmesh",
    "scpcb-rmesh/room2test1074_opt.rmesh",
    "@emi/figure.emi", "@emi/emi_gen1.emi", "@rmesh/sample.rmesh", "@rmf/sample.rmf",
    "@roo/sample_v12.roo", "@roo/sample.roo"};

static uint8_t *bake(const char *path, int be, size_t *n)
{
    uint8_t *d, *out;
    size_t len;
    char err[512];
    const rrb_format *f;
    rrb_opts o;
    rrb_blob *b;
    if (rrb_load_file(path, &d, &len, err, sizeof err))
        return NULL;
    f = rrb_detect(d, len, path);
    memset(&o, 0, sizeof o);
    o.quiet = 1;
    b = f && f->bake ? f->bake(d, len, path, &o, err, sizeof err) : NULL;
    free(d);
    if (!b || rrb_blob_finish(b, be, &out, n)) {
        rrb_blob_free(b);
        return NULL;
    }
    rrb_blob_free(b);
    return out;
}

static rr_err open_diag(uint8_t *d, size_t n, rr_diag *dg)
{
    static uint8_t arena[1 << 20];
    rr_room room;
    int32_t need = rr_arena_size(d, (uint32_t)n);
    memset(dg, 0, sizeof *dg);
    if (need < 0 || need > (int32_t)sizeof arena)
        return need < 0 ? (rr_err)need : RR_ERR_ARENA;
    return rr_open_diag(d, (uint32_t)n, arena, sizeof arena, &room, dg);
}

static void fix_crc(uint8_t *d, size_t n)
{
    uint32_t crc = rr_crc32(0, d + RR_CHECKSUM_FROM, (uint32_t)(n - RR_CHECKSUM_FROM));
    memcpy(d + offsetof(rr_blob_header, checksum), &crc, 4);
}

static uint32_t get(const uint8_t *p, uint32_t type)
{
    uint32_t w = type & 7u, v = 0;
    memcpy(&v, p, w);  /* little-endian host */
    if ((type & RR_T_SIGNED) && w < 4 && (v >> (w * 8 - 1)) & 1u)
        v |= ~0u << (w * 8);
    return v;
}

static void put(uint8_t *p, uint32_t type, uint32_t v)
{
    memcpy(p, &v, type & 7u);
}

/* A value of the field's width that breaks its rule, or 0 with *ok = 0 when
 * no value of that width can (e.g. an index whose section holds 65,536 records
 * in a u16). counts: the records of each slot in this blob. */
static uint32_t breaking(const rrb_field *f, const uint32_t *counts, uint32_t nslots,
                         uint32_t value, uint32_t first, int *ok)
{
    uint32_t w = f->type & 7u, sgn = f->type & RR_T_SIGNED;
    uint64_t umax = w == 4 ? 0xffffffffu : (1u << (w * 8)) - 1u;
    int64_t smax = (int64_t)(umax >> 1);
    uint64_t v = 0;
    uint32_t count = f->arg < nslots ? counts[f->arg] : 0;
    *ok = 1;
    switch (f->kind) {
    case RR_K_ZERO: v = 1; break;
    case RR_K_COORD:
    case RR_K_FIX:
    case RR_K_ABS:
        if ((int64_t)f->arg + 1 > (sgn ? smax : (int64_t)umax))
            *ok = 0;
        v = (uint64_t)f->arg + 1;
        break;
    case RR_K_MAX: v = (uint64_t)f->arg + 1; *ok = v <= umax; break;
    case RR_K_FLAGS:
        v = ~(uint64_t)f->arg & umax;
        v &= ~v + 1;  /* the lowest bit not allowed */
        *ok = v != 0;
        break;
    case RR_K_INDEX: v = count; *ok = v <= umax; break;
    case RR_K_INDEX_OPT: v = count; *ok = v < umax; break;   /* all ones means none */
    case RR_K_INDEX1:
    case RR_K_FIRST: v = (uint64_t)count + 1; *ok = v <= umax; break;
    case RR_K_COUNT: v = (uint64_t)count - first + 1; *ok = first <= count && v <= umax; break;
    case RR_K_STRING: v = counts[RR_S_STRINGS]; *ok = v <= umax; break;
    case RR_K_COUNTOF: v = (uint64_t)value + 1; *ok = v <= umax; break;
    default: *ok = 0; break;
    }
    return (uint32_t)v;
}

typedef struct cover {
    const rrb_field *f;
    const char *fmt, *sec;
    int hit;
} cover;
static cover covered[1024];
static int ncovered;

static void mark(const char *fmt, const rrb_section *sec, const rrb_field *f, int hit)
{
    int i;
    for (i = 0; i < ncovered; i++)
        if (covered[i].f == f) {
            covered[i].hit |= hit;
            return;
        }
    if (ncovered < 1024)
        covered[ncovered++] = (cover){f, fmt, sec->name, hit};
}

/* Corrupt each checked field of records first and last of every section. */
static void corrupt_fields(const char *room, uint8_t *blob, size_t n)
{
    const rr_blob_header *h = (const rr_blob_header *)(const void *)blob;
    const rrb_schema *s = rrb_schema_of(h->format);
    uint32_t counts[64] = {0}, offs[64] = {0}, k;
    uint8_t *work = malloc(n);
    if (!s || s->nsections > 64) {
        printf("# %s: no schema for format %u\n", room, h->format);
        free(work);
        return;
    }
    for (k = 0; k < s->nsections; k++)
        offs[k] = rt_section(blob, s->sections[k].type, &counts[k], NULL);
    for (k = 0; k < s->nsections; k++) {
        const rrb_section *sec = &s->sections[k];
        uint32_t recs[2] = {0, counts[k] ? counts[k] - 1 : 0}, r, fi, e;
        for (fi = 0; fi < sec->nfields; fi++) {
            const rrb_field *f = &sec->fields[fi];
            if (f->kind == RR_K_DATA || f->kind == RR_K_SEMANTIC)
                continue;
            mark(s->name, sec, f, 0);
            for (r = 0; r < (counts[k] > 1 ? 2u : counts[k]); r++)
                for (e = 0; e < f->n; e++) {
                    uint32_t at = offs[k] + recs[r] * sec->elem + f->off + e * (f->type & 7u);
                    uint32_t first = f->kind == RR_K_COUNT && fi > 0
                        ? get(blob + at - (f->off - sec->fields[fi - 1].off) - e * (f->type & 7u),
                              sec->fields[fi - 1].type)
                        : 0;
                    int ok;
                    uint32_t v = breaking(f, counts, s->nsections, get(blob + at, f->type), first,
                                          &ok);
                    char id[160], text[300], want[160];
                    rr_diag dg;
                    rr_err err;
                    if (!ok)
                        continue;
                    memcpy(work, blob, n);
                    put(work + at, f->type, v);
                    fix_crc(work, n);
                    err = open_diag(work, n, &dg);
                    snprintf(id, sizeof id, "schema.%s.%s[%u].%s[%u]", room, sec->name, recs[r],
                             f->name, e);
                    RT_EXPECT(id, err != RR_OK);
                    RT_EXPECT_EQ(id, dg.section, sec->type);
                    RT_EXPECT_EQ(id, dg.record, recs[r]);
                    RT_EXPECT_EQ(id, dg.offset, at);
                    rrb_diag_text(work, n, err, &dg, text, sizeof text);
                    snprintf(want, sizeof want, "%s[%u].%s", sec->name, recs[r], f->name);
                    if (!strstr(text, want))
                        printf("# %s: text \"%s\" lacks \"%s\"\n", id, text, want);
                    RT_EXPECT(id, strstr(text, want) != NULL);
                    /* an index must stay below its count, a run may end at it */
                    if (err == RR_ERR_INDEX && (f->kind == RR_K_INDEX || f->kind == RR_K_INDEX_OPT ||
                                                f->kind == RR_K_STRING))
                        RT_EXPECT(id, strstr(text, ": ") && strstr(strstr(text, ": "), " >= "));
                    if (err == RR_ERR_INDEX && (f->kind == RR_K_INDEX1 || f->kind == RR_K_FIRST ||
                                                f->kind == RR_K_COUNT))
                        RT_EXPECT(id, strstr(text, ": ") && strstr(strstr(text, ": "), " > "));
                    mark(s->name, sec, f, 1);
                }
        }
    }
    free(work);
}

/* Two faults in one section: rr_open names the one a walk record by record,
 * field by field meets first, whatever order it checks them in. The last
 * checked field of record 0 is broken together with the first checked field
 * of the last record (record 0 is named), then together with the first
 * checked field of record 0 (that first field is named). */
static void two_faults(const char *room, uint8_t *blob, size_t n)
{
    const rrb_schema *s = rrb_schema_of(((const rr_blob_header *)(const void *)blob)->format);
    uint32_t counts[64] = {0}, offs[64] = {0}, k, fi;
    uint8_t *work = malloc(n);
    for (k = 0; k < s->nsections; k++)
        offs[k] = rt_section(blob, s->sections[k].type, &counts[k], NULL);
    for (k = 0; k < s->nsections; k++) {
        const rrb_section *sec = &s->sections[k];
        const rrb_field *a = NULL, *b = NULL;
        uint32_t va = 0, vb = 0, last = counts[k] - 1u, round;
        if (counts[k] < 2)
            continue;
        for (fi = 0; fi < sec->nfields; fi++) {
            const rrb_field *f = &sec->fields[fi];
            int ok;
            uint32_t v;
            if (f->kind == RR_K_DATA || f->kind == RR_K_SEMANTIC || f->kind == RR_K_COUNT ||
                f->kind == RR_K_COUNTOF)
                continue;
            v = breaking(f, counts, s->nsections, 0, 0, &ok);
            if (!ok)
                continue;
            if (!a)
                a = f, va = v;
            b = f, vb = v;
        }
        if (!a || a == b)
            continue;
        for (round = 0; round < 2; round++) {
            uint32_t at_b = offs[k] + b->off, rec_a = round ? 0 : last;
            uint32_t at_a = offs[k] + rec_a * sec->elem + a->off;
            const rrb_field *named = round ? a : b;
            char id[160], text[300], want[160];
            rr_diag dg;
            memcpy(work, blob, n);
            put(work + at_b, b->type, vb);
            put(work + at_a, a->type, va);
            fix_crc(work, n);
            snprintf(id, sizeof id, "schema.two_faults.%s.%s.%u", room, sec->name, round);
            RT_EXPECT(id, open_diag(work, n, &dg) != RR_OK);
            RT_EXPECT_EQ(id, dg.record, 0u);
            RT_EXPECT_EQ(id, dg.offset, round ? at_a : at_b);
            rrb_diag_text(work, n, open_diag(work, n, &dg), &dg, text, sizeof text);
            snprintf(want, sizeof want, "%s[0].%s", sec->name, named->name);
            RT_EXPECT(id, strstr(text, want) != NULL);
        }
    }
    free(work);
}

/* The big-endian blob, swapped back through the schema, is the little one. */
static void check_swap(const char *room, const uint8_t *le, size_t n, uint8_t *be, size_t nb)
{
    char id[160];
    rr_diag dg;
    snprintf(id, sizeof id, "swap.%s", room);
    RT_EXPECT_EQ(id, nb, n);
    if (nb != n)
        return;
    RT_EXPECT(id, memcmp(le, be, n) != 0);
    rrb_swap_blob(be, nb, 1);
    /* flags say big-endian; the checksum is that of the big-endian bytes */
    memcpy(be + offsetof(rr_blob_header, flags), le + offsetof(rr_blob_header, flags), 4);
    memcpy(be + offsetof(rr_blob_header, checksum), le + offsetof(rr_blob_header, checksum), 4);
    RT_EXPECT(id, memcmp(le, be, n) == 0);
    RT_EXPECT_EQ(id, open_diag(be, nb, &dg), RR_OK);
}

/* A blob whose header names another schema version than the loader's (an
 * older rrbake's blob) is refused at the header's schema field. The version
 * expected is the registry's, which the tools write; off by one either way. */
static void check_version(const char *room, const uint8_t *le, size_t n)
{
    const rrb_schema *s = rrb_schema_of(((const rr_blob_header *)(const void *)le)->format);
    uint8_t *work = malloc(n);
    uint32_t v, k;
    char id[160];
    rr_diag dg;
    snprintf(id, sizeof id, "version.%s", room);
    memcpy(&v, le + offsetof(rr_blob_header, schema), 4);
    RT_EXPECT_EQ(id, v, s->version);
    for (k = 0; k < 2; k++) {
        uint32_t bad = k ? v + 1 : v - 1;
        memcpy(work, le, n);
        memcpy(work + offsetof(rr_blob_header, schema), &bad, 4);
        fix_crc(work, n);
        RT_EXPECT_EQ(id, open_diag(work, n, &dg), RR_ERR_VERSION);
        RT_EXPECT_EQ(id, dg.offset, (uint32_t)offsetof(rr_blob_header, schema));
        RT_EXPECT(id, dg.value == bad && dg.limit == v);
    }
    free(work);
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
    char path[1024], err[512], tmp[] = "/tmp/rr_schema_XXXXXX";
    size_t i;
    int j, missing = 0;
    /* The project's own samples (EMI has no public file; the RMesh sample
     * has the trigger boxes no corpus room has). */
    if (!mkdtemp(tmp)) {
        printf("FAIL cannot make a temporary folder\n");
        return 1;
    }
    for (i = 0; i < RRB_NFORMATS; i++)
        if (rrb_formats[i] && rrb_formats[i]->sample &&
            rrb_formats[i]->sample(tmp, err, sizeof err)) {
            printf("FAIL cannot write the %s samples: %s\n", rrb_formats[i]->name, err);
            return 1;
        }
    for (i = 0; i < sizeof rooms / sizeof rooms[0]; i++) {
        uint8_t *le, *be;
        size_t n, nb;
        rr_diag dg;
        if (rooms[i][0] == '@')
            snprintf(path, sizeof path, "%s/%s", tmp, strchr(rooms[i], '/') + 1);
        else
            snprintf(path, sizeof path, "%s/%s", corpus, rooms[i]);
        le = bake(path, 0, &n);
        be = bake(path, 1, &nb);
        RT_EXPECT(rooms[i], le != NULL && be != NULL);
        if (!le || !be) {
            free(le), free(be);
            continue;
        }
        RT_EXPECT_EQ(rooms[i], open_diag(le, n, &dg), RR_OK);
        if (rrb_schema_of(((const rr_blob_header *)(const void *)le)->format)) {
            corrupt_fields(rooms[i], le, n);
            two_faults(rooms[i], le, n);
            check_version(rooms[i], le, n);
            check_swap(rooms[i], le, n, be, nb);
        } else {
            printf("# %s: format without a schema yet: skipped\n", rooms[i]);
        }
        free(le);
        free(be);
    }
    for (j = 0; j < ncovered; j++)
        if (!covered[j].hit) {
            printf("# not exercised (empty in every room here): %s %s.%s\n", covered[j].fmt,
                   covered[j].sec, covered[j].f->name);
            missing++;
        }
    printf("# %d checked fields, %d exercised\n", ncovered, ncovered - missing);
    snprintf(path, sizeof path, "rm -rf '%s'", tmp);
    if (system(path)) {
    }
    return rt_done("test_schema");
}

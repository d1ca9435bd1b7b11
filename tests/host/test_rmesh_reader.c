/* test_rmesh_reader.c - the .rmesh reader and writer against independent facts:
 * the "header check" column of corpus/SOURCES.md (texture counts, flag
 * combinations, invisible/trigger/entity counts, trailer, parse end) and the
 * counts NOTES.md §6.4 / §7.5 give; byte-exact writer roundtrip; every
 * malformed variant rejected with an offset; the sample room.
 *
 * usage: test_rmesh_reader [CORPUS]   (default $CORPUS or ../shared/corpus)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_test.h"
#include "rrb_rmesh.h"

/* Flag pairs (slot, flag) as a bit mask: bit slot*4+flag. */
#define F(s, f) (1u << ((s) * 4 + (f)))

typedef struct fact {
    const char *file;
    const char *header;
    uint32_t tex, flags, invis, trig, ents;
    int trailer;          /* 1 = "EOF", 0 = none */
    size_t parse_end, size;
    int variant;
} fact;

/* Copied from corpus/SOURCES.md ("header check" column). */
static const fact facts[] = {
    {"scpcb-rmesh/room2_3_opt.rmesh", "RoomMesh", 4, F(0, 2) | F(1, 1), 0, 0, 3, 1, 6558, 6558, RRB_RM_VANILLA},
    {"scpcb-rmesh/mt2.rmesh", "RoomMesh", 4, F(0, 2) | F(1, 1), 1, 0, 1, 1, 7356, 7356, RRB_RM_VANILLA},
    {"scpcb-rmesh/room2z3_2_opt.rmesh", "RoomMesh", 11, F(0, 2) | F(1, 1), 0, 0, 4, 1, 15206, 15206, RRB_RM_VANILLA},
    {"scpcb-rmesh/room1archive.rmesh", "RoomMesh", 4, F(0, 2) | F(1, 1), 0, 0, 2, 1, 22219, 22219, RRB_RM_VANILLA},
    {"scpcb-rmesh/pocketdimension1_opt.rmesh", "RoomMesh", 1, F(0, 2) | F(1, 1), 0, 0, 1, 1, 23217, 23217, RRB_RM_VANILLA},
    {"scpcb-rmesh/room2test1074_opt.rmesh", "RoomMesh", 10, F(0, 2) | F(1, 1), 1, 0, 13, 1, 30587, 30587, RRB_RM_VANILLA},
    {"scpcb-rmesh/room2tesla_hcz_opt.rmesh", "RoomMesh", 10, F(0, 1) | F(0, 2) | F(1, 1), 0, 0, 14, 1, 74719, 74719, RRB_RM_VANILLA},
    {"scpcb-rmesh/room966_opt.rmesh", "RoomMesh", 13, F(0, 1) | F(0, 2) | F(1, 1), 0, 0, 11, 1, 97292, 97292, RRB_RM_VANILLA},
    {"scpcb-rmesh/room2servers_opt.rmesh", "RoomMesh", 12, F(0, 1) | F(0, 2) | F(1, 1) | F(1, 3), 0, 0, 17, 1, 112452, 112452, RRB_RM_VANILLA},
    {"scpcb-rmesh/mt_generator.rmesh", "RoomMesh", 6, F(0, 2) | F(1, 1), 0, 0, 1, 1, 167310, 167310, RRB_RM_VANILLA},
    {"scpcb-rmesh/1499object0_opt.rmesh", "RoomMesh", 6, F(0, 2) | F(1, 1), 2, 0, 0, 1, 245043, 245043, RRB_RM_VANILLA},
    {"scpcb-rmesh/room3servers_opt.rmesh", "RoomMesh", 9, F(0, 2) | F(1, 1), 2, 0, 25, 1, 310633, 310633, RRB_RM_VANILLA},
    {"scpcb-rmesh/173_opt.rmesh", "RoomMesh.HasTriggerBox", 22, F(0, 1) | F(0, 2) | F(1, 1) | F(1, 3), 1, 3, 65, 1, 911680, 911680, RRB_RM_VANILLA},
    {"scpcb-rmesh/exit1_opt.rmesh", "RoomMesh", 62, F(0, 1) | F(0, 2) | F(1, 1) | F(1, 3), 1, 0, 88, 1, 1989438, 1989438, RRB_RM_VANILLA},
    {"cbre-rmesh/forest_wall.rmesh", "RoomMesh", 1, F(0, 1) | F(1, 1), 0, 0, 0, 0, 1841, 1841, RRB_RM_CBRE},
    {"cbre-rmesh/room966_opt.rmesh", "RoomMesh", 11, F(0, 1) | F(1, 1), 1, 0, 24, 0, 56554, 56554, RRB_RM_CBRE},
    {"cbre-rmesh/endroom3_opt.rmesh", "RoomMesh", 11, F(0, 0) | F(0, 1) | F(1, 1) | F(1, 3), 0, 0, 11, 0, 120255, 120255, RRB_RM_CBRE},
    {"cbre-rmesh/room079.rmesh", "RoomMesh", 20, F(0, 0) | F(0, 1) | F(1, 1) | F(1, 3), 1, 0, 28, 0, 283218, 283218, RRB_RM_CBRE},
    {"cbre-rmesh/testroom_opt_lm4.rmesh", "RoomMesh", 29, F(0, 0) | F(0, 1) | F(1, 1) | F(1, 3), 1, 0, 51, 0, 570797, 570797, RRB_RM_CBRE},
    {"rmesh-variants/scpcbredux_cube.rmesh", "RoomMesh", 1, F(0, 0) | F(1, 0), 0, 0, 0, 0, 922, 926, RRB_RM_SCPCBREDUX},
};
#define NFACTS (sizeof facts / sizeof facts[0])

/* NOTES.md §7.5: zero-area collision triangles in real rooms. */
static const struct { const char *file; unsigned n; } zero_area[] = {
    {"scpcb-rmesh/exit1_opt.rmesh", 44}, {"scpcb-rmesh/173_opt.rmesh", 12},
    {"scpcb-rmesh/1499object0_opt.rmesh", 20}, {"scpcb-rmesh/room3servers_opt.rmesh", 4},
    {"scpcb-rmesh/room966_opt.rmesh", 4}};

static char corpus[1024];
static char id[256];

static int load(const char *rel, uint8_t **data, size_t *size)
{
    char path[2048], err[RRB_ERR_MAX];
    snprintf(path, sizeof path, "%s/%s", corpus, rel);
    if (rrb_load_file(path, data, size, err, sizeof err)) {
        plat_printf("cannot load %s: %s\n", path, err);
        return -1;
    }
    return 0;
}

static const char *cid(const char *file, const char *what)
{
    snprintf(id, sizeof id, "rmesh.%s.%s", file, what);
    return id;
}

static uint32_t flag_mask(const rrb_rmesh *m)
{
    uint32_t i, mask = 0;
    for (i = 0; i < m->nsurf; i++)
        mask |= F(0, m->surf[i].flag[0]) | F(1, m->surf[i].flag[1]);
    return mask;
}

static uint64_t alpha_tris(const rrb_rmesh *m)
{
    uint64_t n = 0;
    uint32_t i;
    for (i = 0; i < m->nsurf; i++)
        if (rrb_rmesh_surf_alpha(&m->surf[i]))
            n += m->surf[i].ntris;
    return n;
}

static unsigned count_zero_area(const rrb_rmesh *m)
{
    rrb_rm_soup s;
    unsigned n = 0;
    size_t t;
    rrb_rmesh_soup(m, 1.0, &s);
    for (t = 0; t < s.ntris; t++) {
        const double *v = s.v + 9 * t;
        double a[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]};
        double b[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
        double c0 = a[1] * b[2] - a[2] * b[1], c1 = a[2] * b[0] - a[0] * b[2],
               c2 = a[0] * b[1] - a[1] * b[0];
        n += (c0 == 0 && c1 == 0 && c2 == 0);
    }
    rrb_rmesh_soup_free(&s);
    return n;
}

/* Every malformed variant of a valid file must be rejected with an offset. */
static void check_malformed(const char *name, const uint8_t *data, size_t size)
{
    int k;
    for (k = 0; k < rrb_rmesh_malformed_count(); k++) {
        rrb_buf b = {0};
        rrb_rmesh m;
        const char *label = "";
        char err[RRB_ERR_MAX] = "";
        int r = rrb_rmesh_malformed(data, size, k, &b, &label);
        RT_EXPECT_EQ(cid(name, "malformed.gen"), r, 0);
        snprintf(id, sizeof id, "rmesh.%s.malformed.%s", name, label);
        r = rrb_rmesh_read(b.data ? b.data : (const uint8_t *)"", b.size, "bad.rmesh", &m, err,
                           sizeof err);
        RT_EXPECT(id, r == -1 && strstr(err, "bad.rmesh:0x") == err);
        if (r == 0)
            rrb_rmesh_free(&m);
        if (!strcmp(label, "rm-unknown-version"))
            RT_EXPECT(id, strstr(err, "bad.rmesh:0x6: expected RM version byte 0 or 1") == err &&
                          strstr(err, "found 7") != NULL);
        if (!strcmp(label, "empty"))
            RT_EXPECT(id, strstr(err, "expected a room mesh header, found an empty file (0 bytes)") != NULL);
        if (!strcmp(label, "garbage-entity-class"))
            RT_EXPECT(id, strstr(err, "entity class") != NULL);
        if (!strcmp(label, "nan-vertex") || !strcmp(label, "inf-uv"))
            RT_EXPECT(id, strstr(err, "finite float") != NULL);
        if (!strcmp(label, "index-out-of-range") || !strcmp(label, "invisible-index"))
            RT_EXPECT(id, strstr(err, "vertex index") != NULL);
        if (getenv("RT_VERBOSE"))
            plat_printf("  %s: %s\n", label, err);
        rrb_buf_free(&b);
    }
}

static void check_roundtrip(const char *name, const uint8_t *data, size_t size,
                            const rrb_rmesh *m)
{
    rrb_buf b = {0};
    rrb_rmesh m2;
    char err[RRB_ERR_MAX];
    rrb_rmesh_write(m, &b);
    RT_EXPECT_EQ(cid(name, "write.size"), b.size, size);
    RT_EXPECT(cid(name, "write.bytes"), b.size == size && memcmp(b.data, data, size) == 0);
    RT_EXPECT_EQ(cid(name, "reread"), rrb_rmesh_read(b.data, b.size, name, &m2, err, sizeof err), 0);
    RT_EXPECT(cid(name, "reread.equal"), rrb_rmesh_equal(m, &m2));
    rrb_rmesh_free(&m2);
    rrb_buf_free(&b);
}

static void check_fact(const fact *f)
{
    uint8_t *data;
    size_t size, i;
    rrb_rmesh m;
    char err[RRB_ERR_MAX];
    if (load(f->file, &data, &size)) {
        RT_EXPECT(cid(f->file, "load"), 0);
        return;
    }
    RT_EXPECT_EQ(cid(f->file, "size"), size, f->size);
    if (rrb_rmesh_read(data, size, f->file, &m, err, sizeof err)) {
        plat_printf("%s\n", err);
        RT_EXPECT(cid(f->file, "read"), 0);
        free(data);
        return;
    }
    RT_EXPECT(cid(f->file, "header"), strcmp(m.header.s, f->header) == 0);
    RT_EXPECT_EQ(cid(f->file, "tex"), m.nsurf, f->tex);
    RT_EXPECT_EQ(cid(f->file, "flags"), flag_mask(&m), f->flags);
    RT_EXPECT_EQ(cid(f->file, "invis"), m.ninvis, f->invis);
    RT_EXPECT_EQ(cid(f->file, "trig"), m.ntrig, f->trig);
    RT_EXPECT_EQ(cid(f->file, "ents"), m.nents, f->ents);
    RT_EXPECT_EQ(cid(f->file, "trailer"), m.eof_trailer, f->trailer);
    RT_EXPECT_EQ(cid(f->file, "parse_end"), m.parse_end, f->parse_end);
    RT_EXPECT_EQ(cid(f->file, "variant"), m.variant, f->variant);
    /* alpha surfaces exist exactly when slot 1 flag 3 appears (NOTES §6.6) */
    RT_EXPECT_EQ(cid(f->file, "alpha"), alpha_tris(&m) > 0, (f->flags & F(1, 3)) != 0);
    for (i = 0; i < sizeof zero_area / sizeof zero_area[0]; i++)
        if (!strcmp(zero_area[i].file, f->file))
            RT_EXPECT_EQ(cid(f->file, "zero_area"), count_zero_area(&m), zero_area[i].n);
    check_roundtrip(f->file, data, size, &m);
    check_malformed(f->file, data, size);
    rrb_rmesh_free(&m);
    free(data);
}

/* exit1_opt: 52 of its 65 light records sit at the origin (NOTES §6.4). */
static void check_exit1_lights(void)
{
    uint8_t *data;
    size_t size;
    rrb_rmesh m;
    char err[RRB_ERR_MAX];
    uint32_t i, lights = 0, ignored = 0;
    if (load("scpcb-rmesh/exit1_opt.rmesh", &data, &size))
        return;
    if (rrb_rmesh_read(data, size, "exit1", &m, err, sizeof err) == 0) {
        for (i = 0; i < m.nents; i++)
            if (m.ents[i].cls == RRB_RM_LIGHT) {
                lights++;
                ignored += (uint32_t)rrb_rmesh_entity_ignored(&m.ents[i]);
            }
        rrb_rmesh_free(&m);
    }
    RT_EXPECT_EQ("rmesh.exit1.lights", lights, 65);
    RT_EXPECT_EQ("rmesh.exit1.lights_at_origin", ignored, 52);
    free(data);
}

static void check_empty(void)
{
    uint8_t *data;
    size_t size;
    rrb_rmesh m;
    char err[RRB_ERR_MAX] = "";
    if (load("scpcb-rmesh/room2.rmesh", &data, &size))
        return;
    RT_EXPECT_EQ("rmesh.room2.size", size, 0);
    RT_EXPECT_EQ("rmesh.room2.read", rrb_rmesh_read(data, size, "room2.rmesh", &m, err, sizeof err), -1);
    RT_EXPECT("rmesh.room2.msg", strstr(err, "room2.rmesh:0x0: expected a room mesh header, found an empty file (0 bytes)") != NULL);
    free(data);
}

/* The .HasNoColl variants (not in the corpus): the sample with a copy of
 * its glass surface as the no-collision block, with and without triggers. */
static void check_nocoll(rrb_rmesh *mp)
{
    rrb_rmesh m = *mp;
    rrb_buf b = {0};
    char err[RRB_ERR_MAX];
    int k;
    char *hdr = m.header.s;
    uint32_t hlen = m.header.len;
    /* the .HasNoColl variants: a copy of the visible block after the invisible one */
    for (k = 0; k < 2; k++) {
        rrb_rmesh v;
        m.header.s = (char *)(k ? "RoomMesh.HasTriggerBox.HasNoColl" : "RoomMesh.HasNoColl");
        m.header.len = (uint32_t)strlen(m.header.s);
        m.has_trigger = k;
        m.ntrig = (uint32_t)k;
        m.has_nocoll = 1;
        m.nnocoll = 1;
        m.nocoll = m.surf + 3;  /* borrowed: written, not freed */
        m.eof_trailer = 0;
        m.variant = RRB_RM_VBP;
        rrb_rmesh_write(&m, &b);
        RT_EXPECT_EQ(cid("nocoll", k ? "trig.read" : "read"),
                     rrb_rmesh_read(b.data, b.size, "nocoll", &v, err, sizeof err), 0);
        RT_EXPECT(cid("nocoll", k ? "trig.equal" : "equal"), rrb_rmesh_equal(&m, &v));
        RT_EXPECT_EQ(cid("nocoll", k ? "trig.n" : "n"), v.ntrig, (uint32_t)k);
        rrb_rmesh_free(&v);
        rrb_buf_free(&b);
        m.nocoll = NULL;
        m.nnocoll = 0;
    }
    m.header.s = hdr;
    m.header.len = hlen;
}

/* The sample: hand-made room with one of everything. */
static void check_sample(void)
{
    rrb_rmesh m, r;
    rrb_buf b = {0};
    char err[RRB_ERR_MAX], path[64];
    uint8_t *data;
    size_t size;
    int k, seen[RRB_RM_NCLASSES] = {0};
    uint32_t i;
    RT_EXPECT_EQ("rmesh.sample.write", rrb_rmesh_sample("/tmp", err, sizeof err), 0);
    snprintf(path, sizeof path, "/tmp/sample.rmesh");
    RT_EXPECT_EQ("rmesh.sample.load", rrb_load_file(path, &data, &size, err, sizeof err), 0);
    RT_EXPECT_EQ("rmesh.sample.read", rrb_rmesh_read(data, size, path, &r, err, sizeof err), 0);
    rrb_rmesh_sample_model(&m);
    RT_EXPECT("rmesh.sample.equal", rrb_rmesh_equal(&m, &r));
    RT_EXPECT_EQ("rmesh.sample.variant", r.variant, RRB_RM_VANILLA);
    RT_EXPECT_EQ("rmesh.sample.trig", r.ntrig, 1);
    RT_EXPECT_EQ("rmesh.sample.invis", r.ninvis, 1);
    RT_EXPECT_EQ("rmesh.sample.alpha", alpha_tris(&r), 2);
    for (i = 0; i < r.nents; i++)
        seen[r.ents[i].cls]++;
    for (k = 0; k < RRB_RM_NCLASSES; k++)
        RT_EXPECT_EQ(cid("sample", rrb_rm_class_names[k]), seen[k], 1);
    check_malformed("sample", data, size);
    check_nocoll(&m);
    /* a model with an empty file name still has 9 floats (NOTES §3.6) */
    free(m.ents[6].str.s);
    m.ents[6].str.s = rrb_xstrdup("");
    m.ents[6].str.len = 0;
    m.has_nocoll = 0;
    free(m.header.s);
    m.header.s = rrb_xstrdup("RoomMesh.HasTriggerBox");
    m.header.len = 22;
    m.has_trigger = 1;
    m.ntrig = 1;
    m.eof_trailer = 1;
    m.variant = RRB_RM_VANILLA;
    rrb_rmesh_write(&m, &b);
    {
        rrb_rmesh v;
        RT_EXPECT_EQ("rmesh.sample.emptymodel", rrb_rmesh_read(b.data, b.size, "e", &v, err,
                     sizeof err), 0);
        RT_EXPECT("rmesh.sample.emptymodel.equal", rrb_rmesh_equal(&m, &v));
        rrb_rmesh_free(&v);
    }
    rrb_buf_free(&b);
    rrb_rmesh_free(&r);
    rrb_rmesh_free(&m);
    free(data);
}

/* ---- the RM variant (NOTES §3.9), built byte by byte here ---- */

static void put32(rrb_buf *b, uint32_t v)
{
    rrb_buf_u32le(b, v);
}

static void putf(rrb_buf *b, float f)
{
    rrb_buf_f32le(b, f);
}

static void putstr(rrb_buf *b, const char *s)
{
    put32(b, (uint32_t)strlen(s));
    rrb_buf_put(b, s, strlen(s));
}

/* A small RM file in the layout of NOTES §3.9, written from the notes (not
 * by the project's writer): one lightmapped triangle, no no-collision
 * surfaces, one invisible triangle, ntrig trigger boxes of one triangle,
 * one waypoint and one light. */
static void rm_bytes(rrb_buf *b, uint8_t version, int ntrig, uint32_t nocoll_count)
{
    int t, k;
    put32(b, 2);
    rrb_buf_put(b, "RM", 2);
    rrb_buf_u8(b, version);
    put32(b, 1);                                   /* visible surfaces */
    rrb_buf_u8(b, 1), putstr(b, "room_lm.png");    /* slot 0 */
    rrb_buf_u8(b, 1), putstr(b, "floor.jpg");      /* slot 1 */
    put32(b, 3);
    for (k = 0; k < 3; k++) {
        putf(b, (float)(k == 1) * 64), putf(b, 0), putf(b, (float)(k == 2) * 64);
        putf(b, 0.5f * (float)k), putf(b, 0), putf(b, 0.25f), putf(b, 0.75f);
        rrb_buf_put(b, "\xff\xff\xff", 3);
    }
    put32(b, 1), put32(b, 0), put32(b, 1), put32(b, 2);
    put32(b, nocoll_count);                        /* no-collision surfaces */
    put32(b, 1);                                   /* invisible meshes */
    put32(b, 3);
    for (k = 0; k < 9; k++)
        putf(b, (float)(k % 4) * 16);
    put32(b, 1), put32(b, 2), put32(b, 1), put32(b, 0);
    put32(b, (uint32_t)ntrig);                     /* trigger boxes: always there */
    for (t = 0; t < ntrig; t++) {
        put32(b, 1);
        put32(b, 3);
        for (k = 0; k < 9; k++)
            putf(b, (float)(k + t));
        put32(b, 1), put32(b, 0), put32(b, 1), put32(b, 2);
        putstr(b, t ? "second" : "first");
    }
    put32(b, 2);                                   /* entities */
    putstr(b, "waypoint"), putf(b, 1), putf(b, 2), putf(b, 3);
    putstr(b, "light"), putf(b, 4), putf(b, 5), putf(b, 6), putf(b, 600);
    putstr(b, "255 128 0"), putf(b, 2);
}

static void check_rm(void)
{
    int version, ntrig;
    for (version = 0; version < 2; version++)
        for (ntrig = 0; ntrig < 3; ntrig += 2) {
            rrb_buf b = {0}, w = {0};
            rrb_rmesh m;
            char err[RRB_ERR_MAX] = "", name[32];
            snprintf(name, sizeof name, "rm.v%d.trig%d", version, ntrig);
            rm_bytes(&b, (uint8_t)version, ntrig, 0);
            RT_EXPECT_EQ(cid(name, "read"), rrb_rmesh_read(b.data, b.size, name, &m, err,
                                                           sizeof err), 0);
            if (err[0])
                plat_printf("  %s\n", err);
            RT_EXPECT_EQ(cid(name, "rm"), m.rm, 1);
            RT_EXPECT_EQ(cid(name, "version"), m.rm_version, version);
            RT_EXPECT_EQ(cid(name, "variant"), m.variant, RRB_RM_CBRE);
            RT_EXPECT_EQ(cid(name, "nsurf"), m.nsurf, 1);
            RT_EXPECT_EQ(cid(name, "nverts"), m.nsurf ? m.surf[0].nverts : 0, 3);
            RT_EXPECT_EQ(cid(name, "ninvis"), m.ninvis, 1);
            RT_EXPECT_EQ(cid(name, "nnocoll"), m.nnocoll, 0);
            RT_EXPECT_EQ(cid(name, "ntrig"), m.ntrig, ntrig);
            if (ntrig == 2)
                RT_EXPECT(cid(name, "trig.name"), !strcmp(m.trig[1].name.s, "second") &&
                          m.trig[1].surf[0].pos[8] == 9.0f);
            RT_EXPECT_EQ(cid(name, "nents"), m.nents, 2);
            if (m.nents == 2)
                RT_EXPECT(cid(name, "light"), m.ents[1].cls == RRB_RM_LIGHT &&
                          m.ents[1].range == 600.0f && !strcmp(m.ents[1].str.s, "255 128 0"));
            RT_EXPECT_EQ(cid(name, "parse_end"), m.parse_end, b.size);
            rrb_rmesh_write(&m, &w);
            RT_EXPECT(cid(name, "roundtrip"), w.size == b.size && !memcmp(w.data, b.data, b.size));
            rrb_rmesh_free(&m);
            rrb_buf_free(&w);
            /* an unknown version byte is named, at its offset */
            b.data[6] = 2;
            RT_EXPECT_EQ(cid(name, "v2"), rrb_rmesh_read(b.data, b.size, "v2.rm", &m, err,
                                                         sizeof err), -1);
            RT_EXPECT(cid(name, "v2.msg"), strstr(err, "v2.rm:0x6: expected RM version byte 0 or "
                                                       "1") == err && strstr(err, "found 2"));
            rrb_buf_free(&b);
        }
    {   /* a no-collision surface: read with the visible layout, before the invisible block */
        rrb_rmesh s, r;
        rrb_buf w = {0}, w2 = {0};
        char err[RRB_ERR_MAX] = "";
        rrb_rmesh_sample_rm_model(&s, 0, 1);
        s.nnocoll = 1;
        s.nocoll = s.surf + 3;   /* borrowed: written, not freed */
        rrb_rmesh_write(&s, &w);
        RT_EXPECT_EQ("rmesh.rm.nocoll.read", rrb_rmesh_read(w.data, w.size, "nc", &r, err,
                                                            sizeof err), 0);
        RT_EXPECT("rmesh.rm.nocoll.equal", rrb_rmesh_equal(&s, &r));
        rrb_rmesh_write(&r, &w2);
        RT_EXPECT("rmesh.rm.nocoll.bytes", w2.size == w.size && !memcmp(w.data, w2.data, w.size));
        s.nocoll = NULL;
        s.nnocoll = 0;
        rrb_rmesh_free(&s);
        rrb_rmesh_free(&r);
        rrb_buf_free(&w);
        rrb_buf_free(&w2);
    }
    {   /* the RM sample: both versions, with and without its trigger box */
        int v, t;
        for (v = 0; v < 2; v++)
            for (t = 0; t < 2; t++) {
                rrb_rmesh s, r;
                rrb_buf w = {0}, w2 = {0};
                char err[RRB_ERR_MAX] = "", name[32];
                snprintf(name, sizeof name, "rm.sample.v%d.t%d", v, t);
                rrb_rmesh_sample_rm_model(&s, v, t);
                rrb_rmesh_write(&s, &w);
                RT_EXPECT(cid(name, "header"), w.size > 7 && !memcmp(w.data, "\2\0\0\0RM", 6) &&
                          w.data[6] == v);
                RT_EXPECT_EQ(cid(name, "read"), rrb_rmesh_read(w.data, w.size, name, &r, err,
                                                               sizeof err), 0);
                RT_EXPECT(cid(name, "equal"), rrb_rmesh_equal(&s, &r));
                RT_EXPECT_EQ(cid(name, "ntrig"), r.ntrig, (uint32_t)t);
                rrb_rmesh_write(&r, &w2);
                RT_EXPECT(cid(name, "bytes"), w2.size == w.size && !memcmp(w.data, w2.data, w.size));
                if (v == 1 && t == 1)
                    check_malformed(name, w.data, w.size);
                rrb_rmesh_free(&s);
                rrb_rmesh_free(&r);
                rrb_buf_free(&w);
                rrb_buf_free(&w2);
            }
    }
}

/* ---- custom entities (NOTES §3.7) ---- */

/* A minimal file up to the entity count: header, no visible surfaces, no
 * invisible meshes (RM: no no-collision surfaces, no trigger boxes). */
static void head_bytes(rrb_buf *b, int rm)
{
    if (rm) {
        putstr(b, "RM");
        rrb_buf_u8(b, 0);
        put32(b, 0), put32(b, 0), put32(b, 0), put32(b, 0);
    } else {
        putstr(b, "RoomMesh");
        put32(b, 0), put32(b, 0);
    }
}

/* door: f32 X Z Y; i32 type; i32 keycard; string code; f32 angle; u8 open; u8 remote */
static void door_bytes(rrb_buf *b)
{
    putstr(b, "door");
    putf(b, 10), putf(b, 20), putf(b, 30);
    put32(b, 2), put32(b, (uint32_t)-1);
    putstr(b, "1234");
    putf(b, 90);
    rrb_buf_u8(b, 1), rrb_buf_u8(b, 0);
}

/* item: f32 X Z Y; string name; the same again; u8 custom rotation; 3 f32
 * angles; f32 state; the same again; f32 chance */
static void item_bytes(rrb_buf *b)
{
    putstr(b, "item");
    putf(b, -1), putf(b, -2), putf(b, -3);
    putstr(b, "Level 3 Key Card"), putstr(b, "Level 3 Key Card");
    rrb_buf_u8(b, 1);
    putf(b, 0), putf(b, 45), putf(b, 180);
    putf(b, 0.5f), putf(b, 0.5f), putf(b, 75);
}

static const rrb_rm_prop *prop(const rrb_rm_entity *e, const char *name)
{
    uint32_t k;
    for (k = 0; k < e->nprops; k++)
        if (!strcmp(e->props[k].name, name))
            return &e->props[k];
    return NULL;
}

static int same_bytes(const rrb_rmesh *m, const rrb_buf *b)
{
    rrb_buf w = {0};
    int same;
    rrb_rmesh_write(m, &w);
    same = w.size == b->size && !memcmp(w.data, b->data, b->size);
    rrb_buf_free(&w);
    return same;
}

static void check_door_item(void)
{
    rrb_buf b = {0};
    rrb_rmesh m;
    char err[RRB_ERR_MAX] = "";
    const rrb_rm_prop *p;
    head_bytes(&b, 0);
    put32(&b, 3);
    putstr(&b, "waypoint"), putf(&b, 1), putf(&b, 2), putf(&b, 3);
    door_bytes(&b);
    item_bytes(&b);
    RT_EXPECT_EQ("rmesh.door.read", rrb_rmesh_read(b.data, b.size, "d", &m, err, sizeof err), 0);
    if (err[0])
        plat_printf("  %s\n", err);
    RT_EXPECT_EQ("rmesh.door.n", m.nents, 3);
    RT_EXPECT_EQ("rmesh.door.undecoded", m.undecoded, 0);
    RT_EXPECT_EQ("rmesh.door.end", m.parse_end, b.size);
    if (m.nents == 3) {
        const rrb_rm_entity *d = &m.ents[1], *it = &m.ents[2];
        RT_EXPECT("rmesh.door.cls", d->cls == RRB_RM_DOOR && d->pos[2] == 30.0f);
        RT_EXPECT("rmesh.door.type", (p = prop(d, "type")) && p->i == 2);
        RT_EXPECT("rmesh.door.keycard", (p = prop(d, "keycard")) && p->i == -1);
        RT_EXPECT("rmesh.door.code", (p = prop(d, "code")) && !strcmp(p->s.s, "1234"));
        RT_EXPECT("rmesh.door.angle", (p = prop(d, "angle")) && p->v[0] == 90.0f);
        RT_EXPECT("rmesh.door.open", (p = prop(d, "open")) && p->b == 1);
        RT_EXPECT("rmesh.door.remote", (p = prop(d, "allow_remote_control")) && p->b == 0);
        RT_EXPECT("rmesh.item.cls", it->cls == RRB_RM_ITEM && it->pos[0] == -1.0f);
        RT_EXPECT("rmesh.item.name", (p = prop(it, "name2")) && !strcmp(p->s.s, "Level 3 Key Card"));
        RT_EXPECT("rmesh.item.rot", (p = prop(it, "use_custom_rotation")) && p->b == 1);
        RT_EXPECT("rmesh.item.angles", (p = prop(it, "angles")) && p->v[1] == 45.0f &&
                                           p->v[2] == 180.0f);
        RT_EXPECT("rmesh.item.state", (p = prop(it, "state2")) && p->v[0] == 0.5f);
        RT_EXPECT("rmesh.item.chance", (p = prop(it, "chance")) && p->v[0] == 75.0f);
    }
    RT_EXPECT("rmesh.door.roundtrip", same_bytes(&m, &b));
    rrb_rmesh_free(&m);
    rrb_buf_free(&b);
    /* in the RM path door and item are generic (NOTES §3.9): without
     * definitions the reading stops there, with a warning */
    head_bytes(&b, 1);
    put32(&b, 2);
    putstr(&b, "waypoint"), putf(&b, 1), putf(&b, 2), putf(&b, 3);
    door_bytes(&b);
    RT_EXPECT_EQ("rmesh.rm.door.read", rrb_rmesh_read(b.data, b.size, "d", &m, err, sizeof err), 0);
    RT_EXPECT("rmesh.rm.door.stop", m.nents == 1 && m.undecoded == 1 &&
                                        m.undecoded_at == 7 + 16 + 4 + 12 + 12 &&
                                        !strcmp(m.undecoded_class.s, "door"));
    RT_EXPECT("rmesh.rm.door.roundtrip", same_bytes(&m, &b));
    rrb_rmesh_free(&m);
    rrb_buf_free(&b);
}

/* A file whose entity list reaches a class nobody can decode keeps what
 * comes before; damage is still an error. */
static void check_graceful(void)
{
    rrb_buf b = {0};
    rrb_rmesh m;
    rrb_opts o = {0};
    char err[RRB_ERR_MAX] = "";
    size_t at, size;
    head_bytes(&b, 0);
    put32(&b, 4);
    putstr(&b, "waypoint"), putf(&b, 1), putf(&b, 2), putf(&b, 3);
    at = b.size;
    putstr(&b, "scp_914_knob"), putf(&b, 5), putf(&b, 6), putf(&b, 7);
    put32(&b, 3), rrb_buf_u8(&b, 1);    /* its properties, unknown to the reader */
    putstr(&b, "waypoint"), putf(&b, 1), putf(&b, 2), putf(&b, 3);
    putstr(&b, "waypoint"), putf(&b, 4), putf(&b, 5), putf(&b, 6);
    size = b.size;
    RT_EXPECT_EQ("rmesh.graceful.read", rrb_rmesh_read(b.data, size, "g.rmesh", &m, err,
                                                       sizeof err), 0);
    RT_EXPECT("rmesh.graceful.kept", m.nents == 1 && m.ents[0].cls == RRB_RM_WAYPOINT);
    RT_EXPECT_EQ("rmesh.graceful.left", m.undecoded, 3);
    RT_EXPECT_EQ("rmesh.graceful.at", m.undecoded_at, at);
    RT_EXPECT("rmesh.graceful.class", m.undecoded_class.s &&
                                          !strcmp(m.undecoded_class.s, "scp_914_knob"));
    RT_EXPECT("rmesh.graceful.roundtrip", same_bytes(&m, &b));
    rrb_rmesh_undecoded_msg(&m, "g.rmesh", 0, err, sizeof err);
    snprintf(id, sizeof id, "g.rmesh:0x%zx: warning: custom entity class \"scp_914_knob\"", at);
    RT_EXPECT("rmesh.graceful.warning", strstr(err, id) == err && strstr(err, " 3 entity records"));
    rrb_rmesh_free(&m);
    /* --strict: the same file is an error naming the offset, class and count */
    o.strict = 1;
    RT_EXPECT_EQ("rmesh.graceful.strict", rrb_rmesh_load(b.data, size, "g.rmesh", &o, NULL, &m,
                                                         err, sizeof err), -1);
    snprintf(id, sizeof id, "g.rmesh:0x%zx: expected an entity this reader can decode, found "
             "custom class \"scp_914_knob\" (3 entity records", at);
    RT_EXPECT("rmesh.graceful.strict.msg", strstr(err, id) == err);
    /* the bake keeps the geometry and the waypoint before it */
    o.strict = 0, o.quiet = 1;
    {
        rrb_blob *bl = rrb_rmesh_bake(b.data, size, "g.rmesh", &o, err, sizeof err);
        RT_EXPECT("rmesh.graceful.bake", bl != NULL);
        rrb_blob_free(bl);
    }
    /* damage is not a custom entity: garbage class name, a position that is
     * not three finite floats, more records announced than bytes can hold,
     * a cut inside the position */
    b.data[at + 4] = 0x01;
    RT_EXPECT_EQ("rmesh.graceful.garbage", rrb_rmesh_read(b.data, size, "g.rmesh", &m, err,
                                                          sizeof err), -1);
    snprintf(id, sizeof id, "g.rmesh:0x%zx: expected an entity class", at);
    RT_EXPECT("rmesh.graceful.garbage.msg", strstr(err, id) == err);
    b.data[at + 4] = 's';
    memcpy(b.data + at + 4 + 12 + 4, "\x00\x00\xc0\x7f", 4);   /* y = NaN */
    RT_EXPECT_EQ("rmesh.graceful.nan", rrb_rmesh_read(b.data, size, "g.rmesh", &m, err,
                                                      sizeof err), -1);
    RT_EXPECT("rmesh.graceful.nan.msg", strstr(err, id) == err);
    memcpy(b.data + at + 4 + 12 + 4, "\x00\x00\xc0\x40", 4);
    b.data[4 + 8 + 8] = 40;   /* entity count 40: 39 records cannot fit */
    RT_EXPECT_EQ("rmesh.graceful.count", rrb_rmesh_read(b.data, size, "g.rmesh", &m, err,
                                                        sizeof err), -1);
    b.data[4 + 8 + 8] = 4;
    RT_EXPECT_EQ("rmesh.graceful.cut", rrb_rmesh_read(b.data, at + 4 + 12 + 6, "g.rmesh", &m, err,
                                                      sizeof err), -1);
    RT_EXPECT_EQ("rmesh.graceful.intact", rrb_rmesh_read(b.data, size, "g.rmesh", &m, err,
                                                         sizeof err), 0);
    rrb_rmesh_free(&m);
    rrb_buf_free(&b);
}

/* Definitions with every property type (and what CBRE-EX skips), and an RM
 * file whose custom entity is written by hand from NOTES §3.7. */
static const char defs_json[] =
    "\xef\xbb\xbf// test definitions\n"
    "[{\"Name\": \"keypad\", \"Description\": \"every type\", \"UseModelRendering\": false,\n"
    "  \"properties\": [\n"
    "   {\"Name\": \"locked\", \"Type\": \"Bool\", \"DefaultValue\": \"True\"},\n"
    "   {\"Name\": \"code\", \"Type\": \"Integer\"},\n"
    "   {\"Name\": \"mode\", \"Type\": \"Choices\"},\n"
    "   {\"Name\": \"delay\", \"Type\": \"Float\"},\n"
    "   {\"Name\": \"position\", \"Type\": \"Vector\"},\n"
    "   {\"Name\": \"label\", \"Type\": \"String\", \"HelpText\": \"a \\\"quoted\\\" \\u00e9\"},\n"
    "   {\"Name\": \"glow\", \"Type\": \"Color255\"},\n"
    "   {\"Name\": \"\", \"Type\": \"Float\"},\n"
    "   {\"Name\": \"weird\", \"Type\": \"float\"},\n"
    "   {\"Name\": \"offset\", \"Type\": \"Vector\"},\n"
    "   {\"Name\": \"count\", \"Type\": \"4\"}\n"
    "  ]},\n"
    " {\"Name\": \"keypad\", \"Properties\": []},\n"
    " {\"Name\": \"marker\", \"Properties\": []} /* no properties */\n"
    "]\n";

static void check_defs(void)
{
    rrb_rm_defs d;
    rrb_buf b = {0};
    rrb_rmesh m;
    char err[RRB_ERR_MAX] = "";
    const rrb_rm_classdef *c;
    static const char *const names[] = {"locked", "code", "mode", "delay", "label", "glow",
                                        "offset", "count"};
    static const int types[] = {RRB_RM_BOOL, RRB_RM_INTEGER, RRB_RM_CHOICES, RRB_RM_FLOAT,
                                RRB_RM_STRING, RRB_RM_COLOR255, RRB_RM_VECTOR, RRB_RM_INTEGER};
    FILE *null = fopen("/dev/null", "w");
    uint32_t k;
    int ok = 1;
    RT_EXPECT_EQ("rmesh.defs.parse", rrb_rm_defs_parse(defs_json, sizeof defs_json - 1, "d.json",
                                                       &d, null, err, sizeof err), 0);
    if (err[0])
        plat_printf("  %s\n", err);
    RT_EXPECT_EQ("rmesh.defs.n", d.n, 2);   /* the second keypad is skipped */
    c = rrb_rm_defs_find(&d, "keypad", 6);
    RT_EXPECT("rmesh.defs.keypad", c && c->nprops == 8);
    for (k = 0; c && k < c->nprops && k < 8; k++)
        ok &= !strcmp(c->props[k].name, names[k]) && c->props[k].type == types[k];
    RT_EXPECT("rmesh.defs.order", ok);
    RT_EXPECT("rmesh.defs.marker", (c = rrb_rm_defs_find(&d, "marker", 6)) && c->nprops == 0);
    /* RM file: a waypoint, a keypad, a marker; keypad written per NOTES §3.7 */
    head_bytes(&b, 1);
    put32(&b, 3);
    putstr(&b, "waypoint"), putf(&b, 1), putf(&b, 2), putf(&b, 3);
    putstr(&b, "keypad"), putf(&b, 100), putf(&b, 200), putf(&b, 300);
    rrb_buf_u8(&b, 1);                 /* locked */
    put32(&b, 4711);                   /* code */
    putf(&b, 2.5f);                    /* delay (mode: Choices, nothing) */
    putstr(&b, "Door \"A\"");          /* label */
    putstr(&b, "255 0 64");            /* glow */
    putf(&b, 1), putf(&b, -2), putf(&b, 3);   /* offset, X Y Z unswapped */
    put32(&b, (uint32_t)-7);           /* count */
    putstr(&b, "marker"), putf(&b, 7), putf(&b, 8), putf(&b, 9);
    RT_EXPECT_EQ("rmesh.defs.read", rrb_rmesh_read_defs(b.data, b.size, "k.rm", &d, &m, err,
                                                        sizeof err), 0);
    if (err[0])
        plat_printf("  %s\n", err);
    RT_EXPECT("rmesh.defs.ents", m.nents == 3 && m.undecoded == 0 && m.parse_end == b.size);
    if (m.nents == 3) {
        const rrb_rm_entity *e = &m.ents[1];
        const rrb_rm_prop *p;
        RT_EXPECT("rmesh.defs.keypad.cls", e->cls == RRB_RM_CUSTOM && e->pos[1] == 200.0f &&
                                               e->nprops == 8);
        RT_EXPECT("rmesh.defs.bool", (p = prop(e, "locked")) && p->b == 1);
        RT_EXPECT("rmesh.defs.int", (p = prop(e, "code")) && p->i == 4711);
        RT_EXPECT("rmesh.defs.float", (p = prop(e, "delay")) && p->v[0] == 2.5f);
        RT_EXPECT("rmesh.defs.string", (p = prop(e, "label")) && !strcmp(p->s.s, "Door \"A\""));
        RT_EXPECT("rmesh.defs.color", (p = prop(e, "glow")) && !strcmp(p->s.s, "255 0 64"));
        RT_EXPECT("rmesh.defs.vector", (p = prop(e, "offset")) && p->v[0] == 1.0f &&
                                           p->v[1] == -2.0f && p->v[2] == 3.0f);
        RT_EXPECT("rmesh.defs.int2", (p = prop(e, "count")) && p->i == -7);
        RT_EXPECT("rmesh.defs.marker.ent", m.ents[2].cls == RRB_RM_CUSTOM &&
                                               m.ents[2].pos[2] == 9.0f);
    }
    RT_EXPECT("rmesh.defs.roundtrip", same_bytes(&m, &b));
    rrb_rmesh_free(&m);
    /* definitions that do not match the file: the desync is an error that says so */
    c = rrb_rm_defs_find(&d, "keypad", 6);
    ((rrb_rm_classdef *)c)->props[1].type = RRB_RM_BOOL;
    RT_EXPECT_EQ("rmesh.defs.mismatch", rrb_rmesh_read_defs(b.data, b.size, "k.rm", &d, &m, err,
                                                            sizeof err), -1);
    RT_EXPECT("rmesh.defs.mismatch.msg", strstr(err, "k.rm:0x") == err);
    rrb_buf_free(&b);
    rrb_rm_defs_free(&d);
    /* \u escapes: one in the BMP, a surrogate pair (4 UTF-8 bytes) and a lone
     * surrogate (U+FFFD), decoded in a class name */
    {
        static const char uj[] = "[{\"Name\": \"a\\u00e9\\ud83d\\ude00\\ud800x\", \"Properties\": []}]";
        static const char want[] = "a\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx";
        RT_EXPECT_EQ("rmesh.defs.escapes", rrb_rm_defs_parse(uj, sizeof uj - 1, "u.json", &d, null,
                                                             err, sizeof err), 0);
        RT_EXPECT("rmesh.defs.escapes.utf8",
                  rrb_rm_defs_find(&d, want, (uint32_t)(sizeof want - 1)) != NULL);
        rrb_rm_defs_free(&d);
    }
    /* JSON errors name the file, line and column */
    {
        static const struct { const char *text, *want; } bad[] = {
            {"{\"Name\": \"x\", \"Properties\": [}", "b.json:1:30: expected a JSON value"},
            {"{\"Name\": \"x\",\n \"Properties\": 3}", "b.json:2:16: expected a \"Properties\" array"},
            {"{\"Name\": \"x\"}", "b.json:1:1: expected a \"Properties\" array"},
            {"[1]", "b.json:1:2: expected an entity definition object, found a number"},
            {"{\"Name\": \"x\", \"Properties\": []} x", "b.json:1:33: expected the end of the file"},
            {"{\"Name\": \"x\\q\"}", "b.json:1:12: expected an escape"},
            {"\"abc", "b.json:1:5: expected a closing '\"'"},
            {"/* open", "b.json:1:8: expected the end of a comment"},
            {"", "b.json:1:1: expected a value"},
        };
        for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            snprintf(id, sizeof id, "rmesh.defs.bad.%u", k);
            err[0] = 0;
            RT_EXPECT(id, rrb_rm_defs_parse(bad[k].text, strlen(bad[k].text), "b.json", &d, null,
                                            err, sizeof err) == -1 &&
                              strstr(err, bad[k].want) == err);
            if (strstr(err, bad[k].want) != err)
                plat_printf("  got: %s\n", err);
            rrb_rm_defs_free(&d);
        }
    }
    fclose(null);
}

/* Random damage (byte flips, random truncation) on small files: the reader
 * must never crash (ASan/UBSan) and must either reject the file with an
 * offset or accept it and write back exactly the same bytes. */
static void check_fuzz(const char *rel, int rounds)
{
    uint8_t *data, *bad;
    size_t size;
    int n, ok = 1, accepted = 0;
    uint32_t seed = 12345;
    if (load(rel, &data, &size))
        return;
    bad = malloc(size + 1);
    for (n = 0; n < rounds; n++) {
        rrb_rmesh m;
        char err[RRB_ERR_MAX] = "";
        size_t len = size, k, flips;
        memcpy(bad, data, size);
        seed = seed * 1103515245u + 12345u;
        flips = 1 + (seed >> 16) % 4;
        for (k = 0; k < flips; k++) {
            seed = seed * 1103515245u + 12345u;
            bad[(seed >> 8) % size] ^= (uint8_t)(1u << ((seed >> 3) & 7));
        }
        if (n % 5 == 0)
            len = (seed >> 4) % size;
        if (rrb_rmesh_read(bad, len, "fuzz", &m, err, sizeof err) == 0) {
            rrb_buf b = {0};
            rrb_rmesh_write(&m, &b);
            ok &= b.size == len && memcmp(b.data, bad, len) == 0;
            rrb_buf_free(&b);
            rrb_rmesh_free(&m);
            accepted++;
        } else {
            ok &= strncmp(err, "fuzz:0x", 7) == 0;
        }
    }
    RT_EXPECT(cid(rel, "fuzz"), ok);
    plat_printf("# fuzz %s: %d damaged copies, %d still valid (and written back identically)\n",
                rel, rounds, accepted);
    free(bad);
    free(data);
}

int main(int argc, char **argv)
{
    size_t i;
    const char *c = argc > 1 ? argv[1] : getenv("CORPUS");
    snprintf(corpus, sizeof corpus, "%s", c ? c : "../shared/corpus");
    for (i = 0; i < NFACTS; i++)
        check_fact(&facts[i]);
    check_exit1_lights();
    check_empty();
    check_sample();
    check_rm();
    check_door_item();
    check_graceful();
    check_defs();
    check_fuzz("scpcb-rmesh/room2_3_opt.rmesh", 3000);
    check_fuzz("scpcb-rmesh/mt2.rmesh", 3000);
    check_fuzz("cbre-rmesh/forest_wall.rmesh", 3000);
    check_fuzz("rmesh-variants/scpcbredux_cube.rmesh", 3000);
    return rt_done("test_rmesh_reader");
}

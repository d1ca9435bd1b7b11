/* q_emi.c - the per-figure query set of t_emi (and of the EMI goldens,
 * tests/target/g_room.c): open one blob, then sample its animation at a
 * fixed set of times (looping and clamped), build model and skinning
 * matrices, skin the mesh, and print joint positions, skinned vertices and
 * hashes. The runner compares the output byte for byte with the host's;
 * tests/host/test_emi_runtime.c checks the same pipeline against a double
 * reference. q_emi_evil corrupts RAM copies of a small blob and expects the
 * exact codes. */
#include "rr.h"
#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rr_test.h"
#include "rr_test_blobs.h"
#include "q_room.h"

/* Sized for the smallest board (micro:bit, 16 KB RAM): 32 joints, vertices
 * skinned in chunks of CHUNK, corruption tests on a linked blob <= 4 KB. */
#define MAXJ 32
#define CHUNK 16

static rr_emi_local loc[MAXJ], loc2[MAXJ];
static rr_emi_xform model[MAXJ];   /* model matrices, then skinning matrices in place */
static rr_vec3 pos[CHUNK], nrm[CHUNK], pos2[CHUNK];
static uint32_t mask[RR_EMI_MASK_WORDS(MAXJ)];
static uint32_t ram[4096 / 4];
static uint32_t arena[RR_EMI_ARENA_BYTES / 4];   /* the open room's section view */

static uint32_t fnv(uint32_t h, int32_t v)
{
    int i;
    for (i = 0; i < 4; i++) {
        h ^= (uint32_t)v >> (8 * i) & 0xffu;
        h *= 16777619u;
    }
    return h;
}

static void print_joints(const rr_room *room, const char *name, uint32_t nj, int all)
{
    uint32_t j, h = 2166136261u;
    for (j = 0; j < nj; j++) {
        const char *jn = "";
        h = fnv(fnv(fnv(h, model[j].t[0]), model[j].t[1]), model[j].t[2]);
        if (all || j < 3) {
            rr_emi_joint_get(room, j, &jn, 0);
            plat_printf("  %s joint %s %ld %ld %ld\n", name, jn, (long)model[j].t[0],
                        (long)model[j].t[1], (long)model[j].t[2]);
        }
    }
    plat_printf("  %s joints hash %08lx\n", name, (unsigned long)h);
}

/* Skin all vertices in chunks (model[] holds the skinning matrices). */
static void print_vertices(const rr_room *room, const char *name, uint32_t nv)
{
    rr_emi_skin_job v;
    uint32_t first, k, h = 2166136261u;
    v.room = room, v.skin = model, v.pos_out = pos, v.nrm_out = nrm;
    for (first = 0; first < nv; first += CHUNK) {
        v.first = first;
        v.count = nv - first < CHUNK ? nv - first : CHUNK;
        RT_EXPECT_EQ("emi.skin", rr_emi_skin_job_run(&v), RR_OK);
        for (k = 0; k < v.count; k++) {
            uint32_t i = first + k;
            h = fnv(fnv(fnv(h, pos[k].x), pos[k].y), pos[k].z);
            h = fnv(fnv(fnv(h, nrm[k].x), nrm[k].y), nrm[k].z);
            if (i < 4 || i % 29 == 0)
                plat_printf("  %s vertex %lu %ld %ld %ld n %ld %ld %ld\n", name,
                            (unsigned long)i, (long)pos[k].x, (long)pos[k].y, (long)pos[k].z,
                            (long)nrm[k].x, (long)nrm[k].y, (long)nrm[k].z);
        }
    }
    plat_printf("  %s vertices hash %08lx\n", name, (unsigned long)h);
}

static void pipeline(const rr_room *room, const char *name, const rr_emi_info *info,
                     rr_fix t, uint32_t mode)
{
    rr_emi_sample_job s;
    rr_emi_model_job m;
    rr_emi_skin_matrices_job k;
    s.room = room, s.anim = 0, s.time = t, s.mode = mode, s.out = loc, s.out_count = MAXJ;
    s.mask = 0;
    m.room = room, m.local = loc, m.out = model, m.count = MAXJ;
    k.room = room, k.model = model, k.out = model, k.count = MAXJ;
    plat_printf(" %s t=%ld %s\n", name, (long)t, mode ? "loop" : "clamp");
    RT_EXPECT_EQ("emi.sample", rr_emi_sample_job_run(&s), RR_OK);
    RT_EXPECT_EQ("emi.model", rr_emi_model_job_run(&m), RR_OK);
    print_joints(room, name, info->njoints, info->njoints <= 16);
    RT_EXPECT_EQ("emi.skinmat", rr_emi_skin_matrices_job_run(&k), RR_OK);
    print_vertices(room, name, info->nverts);
}

static void blend(const rr_room *room, const char *name, const rr_emi_info *info, rr_fix dur)
{
    rr_emi_sample_job s;
    rr_emi_blend_job b;
    rr_emi_model_job m;
    uint32_t j, h = 2166136261u;
    int c;
    s.room = room, s.anim = 0, s.time = dur / 3, s.mode = RR_EMI_LOOP, s.out = loc;
    s.out_count = MAXJ, s.mask = 0;
    rr_emi_sample_job_run(&s);
    s.time = dur - dur / 5, s.out = loc2;
    rr_emi_sample_job_run(&s);
    b.room = room, b.a = loc, b.b = loc2, b.weight = RR_FIX(0.3), b.out = loc, b.count = MAXJ;
    b.b_mask = 0;
    m.room = room, m.local = loc, m.out = model, m.count = MAXJ;
    RT_EXPECT_EQ("emi.blend", rr_emi_blend_job_run(&b), RR_OK);
    rr_emi_model_job_run(&m);
    for (j = 0; j < info->njoints; j++)
        for (c = 0; c < 3; c++)
            h = fnv(fnv(h, loc[j].q[c]), model[j].t[c]);
    plat_printf(" %s blend 0.3 hash %08lx\n", name, (unsigned long)h);
    /* priority layers: bind pose below, the animation above with its mask, weight 0.7 */
    s.time = dur / 2, s.out = loc2, s.mask = mask;
    rr_emi_sample_job_run(&s);
    rr_emi_bind_pose(room, loc, MAXJ);
    b.weight = RR_FIX(0.7), b.b_mask = mask;
    RT_EXPECT_EQ("emi.layer", rr_emi_blend_job_run(&b), RR_OK);
    h = 2166136261u;
    for (j = 0; j < info->njoints; j++)
        for (c = 0; c < 4; c++)
            h = fnv(fnv(h, loc[j].q[c]), c < 3 ? loc[j].t[c] : 0);
    plat_printf(" %s layer 0.7 mask %08lx hash %08lx\n", name, (unsigned long)mask[0],
                (unsigned long)h);
}

/* One figure: open, counts, eight sampled and skinned poses, the end pose,
 * blends and layers. */
void q_emi_room(const rr_test_blob *tb)
{
    rr_room room;
    rr_emi_info info;
    const char *an = "";
    rr_fix dur = 0;
    uint32_t k, idx = 0;
    rr_err e = rr_open(tb->data, tb->size, arena, sizeof arena, &room);
    plat_printf("emi %s: open %d\n", tb->name, (int)e);
    RT_EXPECT_EQ("emi.open", e, RR_OK);
    if (e || rr_emi_get_info(&room, &info) != RR_OK)
        return;
    plat_printf("emi %s: joints %lu verts %lu tris %lu anims %lu max_infl %lu frac %lu name %s\n",
                tb->name, (unsigned long)info.njoints, (unsigned long)info.nverts,
                (unsigned long)info.ntris, (unsigned long)info.nanims,
                (unsigned long)info.max_infl, (unsigned long)info.coord_frac, info.name);
    RT_EXPECT("emi.fits", info.njoints <= MAXJ && info.nanims > 0);
    if (info.njoints > MAXJ || info.nanims == 0) {
        plat_printf("emi %s: skipped (too big for this program)\n", tb->name);
        return;
    }
    rr_emi_anim_get(&room, 0, &an, &dur);
    plat_printf("emi %s: anim %s duration %ld\n", tb->name, an, (long)dur);
    e = rr_emi_joint_find(&room, "L_FOOT", &idx);
    plat_printf("emi %s: find L_FOOT = %d index %lu\n", tb->name, (int)e, (unsigned long)idx);
    for (k = 0; k < 8; k++)
        pipeline(&room, tb->name, &info, (rr_fix)((int32_t)k * (dur / 5) - dur / 4), k & 1u);
    pipeline(&room, tb->name, &info, dur, RR_EMI_CLAMP);
    blend(&room, tb->name, &info, dur);
}

/* Positions-only skinning (off Thumb-1: run by run, rr_emi.c) against the
 * job with normals (one vertex at a time) at five times, in jobs of 7 and of
 * 16 vertices, which start and end inside runs: the same bits on every
 * board. t_emi only (the goldens print the job with normals). */
void q_emi_positions_only(const rr_test_blob *tb)
{
    rr_room room;
    rr_emi_info info;
    rr_emi_skin_job v;
    rr_fix dur = 0;
    uint32_t t, first, k, size, checked = 0, bad = 0;
    if (rr_open(tb->data, tb->size, arena, sizeof arena, &room) != RR_OK ||
        rr_emi_get_info(&room, &info) != RR_OK || info.njoints > MAXJ || info.nanims == 0)
        return;
    rr_emi_anim_get(&room, 0, 0, &dur);
    v.room = &room, v.skin = model;
    for (t = 0; t < 5; t++) {
        rr_emi_sample_job s;
        rr_emi_model_job m;
        rr_emi_skin_matrices_job sk;
        s.room = &room, s.anim = 0, s.time = (rr_fix)((int32_t)t * (dur / 5)), s.mode = RR_EMI_LOOP;
        s.out = loc, s.out_count = MAXJ, s.mask = 0;
        m.room = &room, m.local = loc, m.out = model, m.count = MAXJ;
        sk.room = &room, sk.model = model, sk.out = model, sk.count = MAXJ;
        rr_emi_sample_job_run(&s);
        rr_emi_model_job_run(&m);
        rr_emi_skin_matrices_job_run(&sk);
        for (size = 7; size <= CHUNK; size += CHUNK - 7)
            for (first = 0; first < info.nverts; first += size) {
                v.first = first, v.count = info.nverts - first < size ? info.nverts - first : size;
                v.pos_out = pos2, v.nrm_out = nrm;
                rr_emi_skin_job_run(&v);
                v.pos_out = pos, v.nrm_out = 0;
                RT_EXPECT_EQ("emi.pos_only", rr_emi_skin_job_run(&v), RR_OK);
                for (k = 0; k < v.count; k++, checked++)
                    bad += pos[k].x != pos2[k].x || pos[k].y != pos2[k].y || pos[k].z != pos2[k].z;
            }
    }
    plat_printf("emi %s: positions only: %lu vertices, %lu differ from the job with normals\n",
                tb->name, (unsigned long)checked, (unsigned long)bad);
    RT_EXPECT_EQ("emi.pos_only.same", bad, 0);
}

/* Corrupt a RAM copy of a blob at (section, byte offset) and re-checksum. */
static void corrupt(const rr_test_blob *tb, uint32_t sec, uint32_t off, uint32_t val,
                    int width, rr_err want, const char *id)
{
    rr_room room;
    const void *p;
    uint32_t n, at, crc;
    unsigned char *b = (unsigned char *)ram;
    unsigned i;
    if (tb->size > sizeof ram || rr_open(tb->data, tb->size, arena, sizeof arena, &room) != RR_OK ||
        rr_section(&room, sec, &p, &n) != RR_OK)
        return;
    at = (uint32_t)((const unsigned char *)p - tb->data) + off;
    for (i = 0; i < tb->size; i++)
        b[i] = tb->data[i];
    if (width == 2)
        *(uint16_t *)(void *)(b + at) = (uint16_t)val;
    else
        *(uint32_t *)(void *)(b + at) = val;
    crc = rr_crc32(0, b + 24, tb->size - 24);
    *(uint32_t *)(void *)(b + 20) = crc;
    plat_printf("corrupt %s = %d\n", id, (int)rr_open(b, tb->size, arena, sizeof arena, &room));
    RT_EXPECT_EQ(id, rr_open(b, tb->size, arena, sizeof arena, &room), want);
}

int q_emi_evil(const rr_test_blob *tb)
{
    if (tb->size > sizeof ram)
        return 0;
    plat_printf("corrupting copies of %s\n", tb->name);
    corrupt(tb, RR_SEC_EMI_JOINTS, 84 + 4, 1, 2, RR_ERR_CYCLE, "emi.evil.parent");
    corrupt(tb, RR_SEC_EMI_JOINTS, 84 + 6, 9, 2, RR_ERR_DEPTH, "emi.evil.depth");
    corrupt(tb, RR_SEC_EMI_INFL, 2, 65535, 2, RR_ERR_RANGE, "emi.evil.weight");
    corrupt(tb, RR_SEC_EMI_TRACKS, 4, 99999, 4, RR_ERR_INDEX, "emi.evil.keys");
    return 1;
}

int q_emi_done(const char *suite)
{
    return rt_done(suite);
}

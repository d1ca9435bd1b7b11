/* test_emi_reader.c - the EMI readers against the generator's own intent.
 *
 * Independent facts: the generator's model (what it meant to write) for many
 * seeds and parameter sets, and the byte offset each malformed case records
 * while it plants its defect. Also: every prefix of a valid file is refused or
 * is a legal early end, and random corruption never crashes (ASan/UBSan).
 *
 * Usage: test_emi_reader [CORPUS]   (no corpus is needed: EMI has no public files)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_test.h"
#include "rrb_emi.h"

static char id[128];

#define ID(...) (snprintf(id, sizeof id, __VA_ARGS__), id)

static int feq(const float *a, const float *b, size_t n)
{
    return n == 0 || memcmp(a, b, n * sizeof(float)) == 0;
}

static void check_skel(uint32_t seed, const rrb_emi_skel *g, const rrb_emi_skel *r)
{
    uint32_t i;
    RT_EXPECT_EQ(ID("skel.%u.count", seed), r->njoints, g->njoints);
    for (i = 0; i < g->njoints && i < r->njoints; i++) {
        const rrb_emi_joint *a = &g->joints[i], *b = &r->joints[i];
        RT_EXPECT(ID("skel.%u.%u.name", seed, i), strcmp(a->name, b->name) == 0);
        RT_EXPECT_EQ(ID("skel.%u.%u.parent", seed, i), b->parent, a->parent);
        RT_EXPECT(ID("skel.%u.%u.tq", seed, i), feq(a->t, b->t, 3) && feq(a->q, b->q, 4));
    }
}

static void check_mesh(uint32_t seed, const rrb_emi_mesh *g, const rrb_emi_mesh *r)
{
    uint32_t i, nv = g->nverts;
    int ok = 1;
    RT_EXPECT_EQ(ID("mesh.%u.layout", seed), r->layout, g->layout);
    RT_EXPECT_EQ(ID("mesh.%u.nverts", seed), r->nverts, nv);
    if (r->nverts != nv || r->layout != g->layout)
        return;
    RT_EXPECT(ID("mesh.%u.name", seed), strcmp(r->name, g->name) == 0);
    RT_EXPECT(ID("mesh.%u.pos", seed), feq(r->pos, g->pos, 3 * (size_t)nv));
    RT_EXPECT(ID("mesh.%u.nrm", seed), (g->nrm == NULL) == (r->nrm == NULL) &&
                                           (!g->nrm || feq(r->nrm, g->nrm, 3 * (size_t)nv)));
    RT_EXPECT(ID("mesh.%u.uv", seed), (g->uv == NULL) == (r->uv == NULL) &&
                                          (!g->uv || feq(r->uv, g->uv, 2 * (size_t)nv)));
    RT_EXPECT(ID("mesh.%u.rgba", seed), memcmp(r->rgba, g->rgba, 4 * (size_t)nv) == 0);
    RT_EXPECT_EQ(ID("mesh.%u.ntex", seed), r->ntex, g->ntex);
    for (i = 0; i < g->ntex && i < r->ntex; i++)
        ok &= strcmp(r->tex[i], g->tex[i]) == 0 && r->tex_flags[i] == g->tex_flags[i];
    RT_EXPECT_EQ(ID("mesh.%u.ngroups", seed), r->ngroups, g->ngroups);
    for (i = 0; i < g->ngroups && i < r->ngroups; i++) {
        const rrb_emi_group *a = &g->groups[i], *b = &r->groups[i];
        ok &= a->flags == b->flags && a->has_texture == b->has_texture &&
              a->texture == b->texture && a->nindices == b->nindices &&
              memcmp(a->indices, b->indices, 2 * (size_t)a->nindices) == 0;
    }
    RT_EXPECT_EQ(ID("mesh.%u.nbones", seed), r->nbones, g->nbones);
    for (i = 0; i < g->nbones && i < r->nbones; i++)
        ok &= strcmp(r->bones[i], g->bones[i]) == 0;
    RT_EXPECT_EQ(ID("mesh.%u.ninfl", seed), r->ninfl, g->ninfl);
    for (i = 0; i < g->ninfl && i < r->ninfl; i++)
        ok &= r->infl[i].inc == g->infl[i].inc && r->infl[i].bone == g->infl[i].bone &&
              r->infl[i].weight == g->infl[i].weight;
    for (i = 0; i <= nv; i++)
        ok &= r->vert_infl[i] == g->vert_infl[i];
    RT_EXPECT(ID("mesh.%u.fields", seed), ok);
}

static void check_anim(uint32_t seed, const rrb_emi_anim *g, const rrb_emi_anim *r)
{
    uint32_t i, k;
    int ok = 1;
    RT_EXPECT(ID("anim.%u.name", seed), strcmp(r->name, g->name) == 0);
    RT_EXPECT(ID("anim.%u.duration", seed), r->duration == g->duration);
    RT_EXPECT_EQ(ID("anim.%u.ntracks", seed), r->ntracks, g->ntracks);
    for (i = 0; i < g->ntracks && i < r->ntracks; i++) {
        const rrb_emi_track *a = &g->tracks[i], *b = &r->tracks[i];
        ok &= strcmp(a->joint, b->joint) == 0 && a->op == b->op &&
              a->priority == b->priority && a->nkeys == b->nkeys;
        for (k = 0; ok && k < a->nkeys; k++)
            ok &= a->keys[k].time == b->keys[k].time &&
                  feq(a->keys[k].v, b->keys[k].v, a->op == RRB_EMI_OP_POS ? 3 : 4);
    }
    RT_EXPECT(ID("anim.%u.tracks", seed), ok);
}

/* info --json counts equal the generator's counts. */
static void check_info(uint32_t seed, const rrb_buf *b, const char *path, const char *want)
{
    char out[1024] = {0}, err[RRB_ERR_MAX];
    FILE *f = fmemopen(out, sizeof out - 1, "w");
    int rc = rrb_format_emi.info_json(b->data, b->size, path, f, err, sizeof err);
    fclose(f);
    RT_EXPECT(ID("info.%u.%s", seed, path), rc == 0 && strstr(out, want) != NULL);
    if (rc || !strstr(out, want))
        printf("  got %s  want %s\n", out, want);
}

static void one_seed(uint32_t seed, const rrb_emi_gen_params *p, unsigned layouts[20])
{
    rrb_emi_skel gs, rs;
    rrb_emi_mesh gm, rm;
    rrb_emi_anim ga, ra;
    rrb_buf b = {0};
    char err[RRB_ERR_MAX], want[512];
    uint32_t faces = 0, keys = 0, i;
    rrb_emi_gen_figure(seed, p, &gs, &gm, &ga);
    layouts[gm.layout]++;
    rrb_emi_write_skel(&gs, &b);
    RT_EXPECT(ID("skel.%u.read", seed),
              rrb_emi_read_skel(b.data, b.size, "g.sklb", &rs, NULL, err, sizeof err) == 0);
    check_skel(seed, &gs, &rs);
    snprintf(want, sizeof want, "\"format\":\"sklb\",\"joints\":%u,", gs.njoints);
    check_info(seed, &b, "g.sklb", want);
    b.size = 0;
    rrb_emi_write_mesh(&gm, &b);
    RT_EXPECT(ID("mesh.%u.read", seed),
              rrb_emi_read_mesh(b.data, b.size, "g.meshb", &rm, NULL, err, sizeof err) == 0);
    check_mesh(seed, &gm, &rm);
    for (i = 0; i < gm.ngroups; i++)
        faces += gm.groups[i].nindices / 3;
    snprintf(want, sizeof want, "\"vertices\":%u,\"faces\":%u,\"face_groups\":%u,"
             "\"textures\":%u,\"bones\":%u,\"influences\":%u,", gm.nverts, faces, gm.ngroups,
             gm.ntex, gm.nbones, gm.ninfl);
    check_info(seed, &b, "g.meshb", want);
    b.size = 0;
    rrb_emi_write_anim(&ga, &b);
    RT_EXPECT(ID("anim.%u.read", seed),
              rrb_emi_read_anim(b.data, b.size, "g.animb", &ra, NULL, err, sizeof err) == 0);
    check_anim(seed, &ga, &ra);
    for (i = 0; i < ga.ntracks; i++)
        keys += ga.tracks[i].nkeys;
    snprintf(want, sizeof want, "\"tracks\":%u,", ga.ntracks);
    check_info(seed, &b, "g.animb", want);
    snprintf(want, sizeof want, "\"keys\":%u,\"duration\":%.9g", keys, (double)ga.duration);
    check_info(seed, &b, "g.animb", want);
    RT_EXPECT_EQ(ID("anim.%u.unmatched", seed), rrb_emi_unmatched_tracks(&ra, &rs, NULL), 0);
    rrb_emi_skel_free(&gs), rrb_emi_skel_free(&rs);
    rrb_emi_mesh_free(&gm), rrb_emi_mesh_free(&rm);
    rrb_emi_anim_free(&ga), rrb_emi_anim_free(&ra);
    rrb_buf_free(&b);
}

static int read_kind(int kind, const rrb_buf *b, rrb_emi_warns *w, char *err, size_t cap,
                     rrb_emi_skel *s, rrb_emi_anim *a)
{
    rrb_emi_mesh m;
    int rc;
    memset(s, 0, sizeof *s);
    memset(a, 0, sizeof *a);
    if (kind == RRB_EMI_SKLB)
        return rrb_emi_read_skel(b->data, b->size, "bad.sklb", s, w, err, cap);
    if (kind == RRB_EMI_ANIMB)
        return rrb_emi_read_anim(b->data, b->size, "bad.animb", a, w, err, cap);
    rc = rrb_emi_read_mesh(b->data, b->size, "bad.meshb", &m, w, err, cap);
    if (rc == 0)
        rrb_emi_mesh_free(&m);
    return rc;
}

static void bad_cases(void)
{
    rrb_buf b = {0};
    unsigned i;
    for (i = 0; i < rrb_emi_nbad; i++) {
        int kind, warn, rc;
        size_t off;
        char err[RRB_ERR_MAX] = "", tag[32];
        rrb_emi_warns w;
        rrb_emi_skel s;
        rrb_emi_anim a;
        const char *name = rrb_emi_gen_bad(i, &b, &kind, &off, &warn);
        memset(&w, 0, sizeof w);
        RT_EXPECT(ID("bad.%s.probe", name),   /* rrbake routes it to the reader */
                  rrb_format_emi.probe(b.data, b.size, kind == RRB_EMI_SKLB ? "x.sklb"
                                                       : kind == RRB_EMI_MESHB ? "x.MESHB"
                                                                               : "x.animb"));
        rrb_emi_last_err_off = (size_t)-1;
        rc = read_kind(kind, &b, &w, err, sizeof err, &s, &a);
        snprintf(tag, sizeof tag, ":0x%zx: ", off);
        if (warn == 0) {
            RT_EXPECT(ID("bad.%s.rejected", name), rc != 0);
            RT_EXPECT_EQ(ID("bad.%s.offset", name), rrb_emi_last_err_off, off);
            RT_EXPECT(ID("bad.%s.message", name), strstr(err, tag) && strstr(err, "expected"));
            printf("  %-34s error   %s\n", name, err);
        } else {
            if (warn == 2) {
                rrb_emi_skel base;
                rrb_emi_gen_base_skel(&base);
                RT_EXPECT_EQ(ID("bad.%s.unmatched", name), rrb_emi_unmatched_tracks(&a, &base, &w),
                             1);
                rrb_emi_skel_free(&base);
            }
            RT_EXPECT(ID("bad.%s.accepted", name), rc == 0);
            RT_EXPECT(ID("bad.%s.warned", name), w.count >= 1);
            RT_EXPECT_EQ(ID("bad.%s.warn_offset", name), w.count ? w.off[0] : 0, off);
            printf("  %-34s warning 0x%zx: %s\n", name, w.count ? w.off[0] : 0,
                   w.count ? w.msg[0] : "(none)");
        }
        rrb_emi_skel_free(&s);
        rrb_emi_anim_free(&a);
    }
    rrb_buf_free(&b);
}

/* Every prefix of each file of one figure: the read fails, except where NOTES
 * lets a .meshb end (after the vertices: no faces; after the groups: no bones). */
static void prefixes(uint32_t seed, const rrb_emi_gen_params *p)
{
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    rrb_buf b[3] = {{0}, {0}, {0}};
    unsigned k, bad = 0, legal = 0;
    size_t n;
    rrb_emi_gen_figure(seed, p, &s, &m, &a);
    rrb_emi_write_mesh(&m, &b[0]);
    rrb_emi_write_skel(&s, &b[1]);
    rrb_emi_write_anim(&a, &b[2]);
    for (k = 0; k < 3; k++)
        for (n = 0; n < b[k].size; n++) {
            rrb_buf t = b[k];
            rrb_emi_skel rs;
            rrb_emi_anim ra;
            char err[RRB_ERR_MAX];
            t.size = n;
            if (read_kind((int)k + 1, &t, NULL, err, sizeof err, &rs, &ra) == 0) {
                if (k == 0)
                    legal++;
                else
                    bad++;
            }
            rrb_emi_skel_free(&rs);
            rrb_emi_anim_free(&ra);
        }
    RT_EXPECT_EQ(ID("prefix.%u.accepted", seed), bad, 0);
    RT_EXPECT(ID("prefix.%u.mesh_ends", seed), legal <= 2);
    for (k = 0; k < 3; k++)
        rrb_buf_free(&b[k]);
    rrb_emi_skel_free(&s);
    rrb_emi_mesh_free(&m);
    rrb_emi_anim_free(&a);
}

/* Random corruption: must never crash; count how many still read. */
static void corrupt(uint32_t seed, const rrb_emi_gen_params *p)
{
    rrb_emi_skel s;
    rrb_emi_mesh m;
    rrb_emi_anim a;
    rrb_buf b[3] = {{0}, {0}, {0}};
    uint64_t x = 0x1234567ull + seed;
    unsigned k, it, ok = 0;
    rrb_emi_gen_figure(seed, p, &s, &m, &a);
    rrb_emi_write_mesh(&m, &b[0]);
    rrb_emi_write_skel(&s, &b[1]);
    rrb_emi_write_anim(&a, &b[2]);
    for (k = 0; k < 3; k++)
        for (it = 0; it < 300; it++) {
            rrb_buf t = {0};
            rrb_emi_skel rs;
            rrb_emi_anim ra;
            char err[RRB_ERR_MAX];
            unsigned f;
            rrb_buf_put(&t, b[k].data, b[k].size);
            for (f = 0; f < 1 + it % 4; f++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                t.data[(x >> 8) % t.size] = (uint8_t)(x >> 40);
            }
            ok += read_kind((int)k + 1, &t, NULL, err, sizeof err, &rs, &ra) == 0;
            rrb_emi_skel_free(&rs);
            rrb_emi_anim_free(&ra);
            rrb_buf_free(&t);
        }
    RT_EXPECT(ID("corrupt.%u.survived", seed), 1);
    for (k = 0; k < 3; k++)
        rrb_buf_free(&b[k]);
    rrb_emi_skel_free(&s);
    rrb_emi_mesh_free(&m);
    rrb_emi_anim_free(&a);
    (void)ok;
}

int main(int argc, char **argv)
{
    rrb_emi_gen_params p;
    unsigned layouts[20] = {0};
    uint32_t seed;
    (void)argc, (void)argv;
    for (seed = 1; seed <= 300; seed++) {
        rrb_emi_gen_defaults(&p);
        if (seed % 10 == 0) {   /* big ones: long chains, many joints */
            p.max_joints = 300;
            p.max_depth = 60;
            p.max_verts = 2000;
            p.max_infl = 16;
        }
        one_seed(seed, &p, layouts);
    }
    RT_EXPECT("layouts.all", layouts[19] && layouts[18] && layouts[3]);
    printf("# layouts seen: 19 x%u, 18 x%u, 3 x%u\n", layouts[19], layouts[18], layouts[3]);
    bad_cases();
    rrb_emi_gen_defaults(&p);
    p.max_joints = 6;
    p.max_verts = 8;
    p.max_keys = 3;
    for (seed = 1; seed <= 5; seed++) {
        prefixes(seed, &p);
        corrupt(seed, &p);
    }
    return rt_done("test_emi_reader");
}

/* test_rmesh_blob.c - the RMesh validator against hostile blobs: each case
 * plants one bad value in a valid blob (checksum recomputed, so only the
 * format validator can catch it) and expects an exact rr_err. Also: the
 * baker's limits (a room too large for the coordinate range is refused),
 * the room-scale option, both byte orders, and query argument checks.
 *
 * usage: test_rmesh_blob [CORPUS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_rmesh.h"
#include "rr_test.h"
#include "rrb_rmesh.h"

static uint32_t arena[512];

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* Offset of section `type` in a little-endian blob (0 if absent). */
static uint32_t sec_off(const uint8_t *b, uint32_t type, uint32_t *count)
{
    return rt_section(b, type, count, NULL);
}

static void reseal(uint8_t *b, size_t size)
{
    put32(b + 20, rr_crc32(0, b + RR_CHECKSUM_FROM, (uint32_t)(size - RR_CHECKSUM_FROM)));
}

/* How many of the first n collision triangles two rooms give differently
 * (source index, corners or normal): a full blob against its collision-only
 * twin, which store them in two ways. */
static uint32_t triangles_differ(const rr_room *a, const rr_room *b, uint32_t n)
{
    uint32_t i, bad = 0;
    for (i = 0; i < n; i++) {
        uint32_t sa, sb;
        int32_t pa[3][3], pb[3][3];
        rr_vec3 na, nb;
        bad += rr_rmesh_triangle(a, i, &sa, pa, &na) != RR_OK ||
               rr_rmesh_triangle(b, i, &sb, pb, &nb) != RR_OK || sa != sb ||
               memcmp(pa, pb, sizeof pa) != 0 || na.x != nb.x || na.y != nb.y || na.z != nb.z;
    }
    return bad;
}

/* Make section `type` of blob b an unknown optional one (type 0x0fff, or
 * 0x0fff - k for the k-th of several): rr_open skips it, as a loader that
 * does not know it would. */
static void unknown_section_k(uint8_t *b, uint32_t type, uint32_t k)
{
    uint32_t i;
    for (i = 0; i < get32(b + 36); i++) {   /* the u16 type of entry i */
        uint8_t *entry = b + RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES;
        if ((get32(entry) & 0xffffu) == type)
            put32(entry, (get32(entry) & 0xffff0000u) | RR_SEC_OPTIONAL | (0x0fffu - k));
    }
}

static void unknown_section(uint8_t *b, uint32_t type)
{
    unknown_section_k(b, type, 0);
}

static int bake(const rrb_rmesh *m, const rrb_opts *o, int be, uint8_t **out, size_t *size)
{
    char err[RRB_ERR_MAX];
    rrb_blob *b = rrb_rmesh_bake_model(m, "t.rmesh", o, err, sizeof err);
    int r;
    if (!b) {
        plat_printf("bake: %s\n", err);
        return -1;
    }
    r = rrb_blob_finish(b, be, out, size);
    rrb_blob_free(b);
    return r;
}

typedef struct evil {
    const char *name;
    uint32_t sec;      /* section type */
    uint32_t elem;     /* element index (elements of the section's struct) */
    uint32_t field;    /* byte offset in the element of the 32-bit word written */
    uint32_t value;    /* V_* or a literal */
    uint32_t keep;     /* bits of the old word kept (narrow fields) */
    rr_err want;
    uint32_t at;       /* the diag names the field at word + at (same element) */
} evil;

#define V_NNODES 0xfffffff0u    /* replaced by the node count */
#define V_NVERTS 0xfffffff1u    /* replaced by the vertex count */
#define V_NTRIS 0xfffffff2u     /* replaced by the triangle count */
#define V_LESS1 0xfffffff3u     /* the old value minus 1 */
#define FIRST_LEAF 0xffffffffu  /* element: the first leaf node */

static const evil cases[] = {
    /* 16-bit fields: a 32-bit word is written, keep = the other half (the
     * next field, or the next record's first bytes) */
    {"right-child-out-of-range", RR_SEC_RMESH_NODES, 0, 14, V_NNODES, 0xffff0000u, RR_ERR_CYCLE, 0},
    {"right-child-is-parent", RR_SEC_RMESH_NODES, 0, 14, 0, 0xffff0000u, RR_ERR_CYCLE, 0},
    {"left-child-not-next", RR_SEC_RMESH_NODES, 0, 12, 2, 0xffff0000u, RR_ERR_CYCLE, 0},
    /* first = ntris is a valid run start: its count is what breaks the run */
    {"leaf-range-past-end", RR_SEC_RMESH_NODES, FIRST_LEAF, 12, V_NTRIS, 0xffff0000u,
     RR_ERR_INDEX, 2},
    /* min.x above any max.x: the diag names max.x (byte 6) */
    {"node-bounds-inverted", RR_SEC_RMESH_NODES, 0, 0, 0xffff, 0xffff0000u, RR_ERR_RANGE, 6},
    /* the root's left child (node 1) reaching beyond the root on max.x */
    {"child-bounds-outside", RR_SEC_RMESH_NODES, 1, 6, 0xffff, 0xffff0000u, RR_ERR_RANGE, 0},
    {"vertex-index", RR_SEC_RMESH_TRIS, 0, 0, V_NVERTS, 0xffff0000u, RR_ERR_INDEX, 0},
    /* v[0] = v[1] = 0: corners on one line, no plane (the diag names v) */
    {"degenerate-triangle", RR_SEC_RMESH_TRIS, 0, 0, 0, 0, RR_ERR_RANGE, 0},
    /* the surfaces' runs of source triangles: the first starts at 0, and a
     * run that starts before the one ahead of it (surface 1 has triangles) */
    {"surface-run-start", RR_SEC_RMESH_SURFS, 0, 12, 1, 0, RR_ERR_RANGE, 0},
    {"surface-run-back", RR_SEC_RMESH_SURFS, 2, 12, 0, 0, RR_ERR_RANGE, 0},
    {"head-origin", RR_SEC_RMESH_HEAD, 0, 64, RR_RMESH_COORD_MAX + 1, 0, RR_ERR_RANGE, 0},
    {"head-vshift", RR_SEC_RMESH_HEAD, 0, 76, RR_RMESH_VSHIFT_MAX + 1, 0, RR_ERR_RANGE, 0},
    {"trigger-name", RR_SEC_RMESH_TRIGGERS, 0, 24, 0x7fffffff, 0, RR_ERR_INDEX, 0},
    {"entity-class", RR_SEC_RMESH_ENTS, 0, 0, 9, 0xffff0000u, RR_ERR_RANGE, 0},
    {"entity-flags", RR_SEC_RMESH_ENTS, 0, 0, 0x40000, 0xffff, RR_ERR_RANGE, 2},
    {"entity-string", RR_SEC_RMESH_ENTS, 0, 16, 0x7fffffff, 0, RR_ERR_INDEX, 0},
    {"surface-name", RR_SEC_RMESH_SURFS, 0, 4, 0x7fffffff, 0, RR_ERR_INDEX, 0},
    {"surface-kind", RR_SEC_RMESH_SURFS, 0, 8, 0x03000000u, 0x00ffffffu, RR_ERR_RANGE, 3},
    {"head-ntris", RR_SEC_RMESH_HEAD, 0, 0, 1, 0, RR_ERR_SECTION, 0},
    {"head-nnodes", RR_SEC_RMESH_HEAD, 0, 8, 1, 0, RR_ERR_SECTION, 0},
    {"head-flags", RR_SEC_RMESH_HEAD, 0, 32, 2, 0, RR_ERR_RANGE, 0},
    {"head-variant", RR_SEC_RMESH_HEAD, 0, 36, 4, 0, RR_ERR_RANGE, 0},
    /* rhead.ishift (byte 14) past RR_RMESH_ISHIFT_MAX; base and byte
     * damage of RINDEX: check_tref */
    {"render-ishift", RR_SEC_RMESH_RHEAD, 0, 12, (RR_RMESH_ISHIFT_MAX + 1) << 16, 0xff00ffffu,
     RR_ERR_RANGE, 2},
    {"render-group-surface", RR_SEC_RMESH_RGROUPS, 0, 0, 0xffffffu, 0, RR_ERR_INDEX, 0},
    {"render-group-range", RR_SEC_RMESH_RGROUPS, 0, 8, 0x7fffffffu, 0, RR_ERR_INDEX, 0},
    {"render-group-triangles", RR_SEC_RMESH_RGROUPS, 0, 16, V_LESS1, 0, RR_ERR_RANGE, 0},
    {"render-shift", RR_SEC_RMESH_RHEAD, 0, 12, RR_RMESH_POS_SHIFT_MAX + 1, 0, RR_ERR_RANGE, 0},
    /* vertex 0's position number past the collision vertices and render
     * positions (both rooms have far fewer than 65535) */
    {"render-vertex-position", RR_SEC_RMESH_RVERTS, 0, 0, 0xffff, 0xffff0000u, RR_ERR_INDEX, 0},
    /* group 0's colour run past the colour records (none in the sample) */
    {"render-group-colours", RR_SEC_RMESH_RGROUPS, 0, 20, 0x7fffffffu, 0, RR_ERR_INDEX, 0},
};

static uint32_t elem_size(uint32_t sec)
{
    switch (sec) {
    case RR_SEC_RMESH_NODES: return sizeof(rr_rmesh_node);
    case RR_SEC_RMESH_TRIS: return sizeof(rr_rmesh_tri);
    case RR_SEC_RMESH_VERTS: return sizeof(rr_rmesh_vert);
    case RR_SEC_RMESH_TRIGGERS: return sizeof(rr_rmesh_trigger);
    case RR_SEC_RMESH_ENTS: return sizeof(rr_rmesh_ent);
    case RR_SEC_RMESH_SURFS: return sizeof(rr_rmesh_surf);
    case RR_SEC_RMESH_RGROUPS: return sizeof(rr_rmesh_rgroup);
    case RR_SEC_RMESH_RINDEX: return 1;
    case RR_SEC_RMESH_RVERTS: return sizeof(rr_rmesh_rvert);
    case RR_SEC_RMESH_RHEAD: return sizeof(rr_rmesh_rhead);
    default: return sizeof(rr_rmesh_head);
    }
}

static void run_evil(const uint8_t *good, size_t size)
{
    size_t i;
    uint8_t *b = malloc(size);
    const rr_rmesh_head *h = (const rr_rmesh_head *)(good + sec_off(good, RR_SEC_RMESH_HEAD, 0));
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const evil *c = &cases[i];
        uint32_t v = c->value, off;
        rr_room room;
        rr_diag d;
        char id[96];
        uint32_t el = c->elem;
        memcpy(b, good, size);
        if (el == FIRST_LEAF)
            for (el = 0; !((get32(b + sec_off(b, c->sec, 0) + el * 16 + 12) >> 16) & RR_RMESH_LEAF);
                 el++)
                ;
        off = sec_off(b, c->sec, 0) + el * elem_size(c->sec) + c->field;
        if (v == V_NNODES) v = h->nnodes;
        if (v == V_NVERTS) v = h->nverts;
        if (v == V_NTRIS) v = h->ntris;   /* first = ntris with a non-zero count */
        if (v == V_LESS1) v = get32(b + off) - 1;
        put32(b + off, (get32(b + off) & c->keep) | v);
        reseal(b, size);
        snprintf(id, sizeof id, "rmesh.evil.%s", c->name);
        RT_EXPECT_EQ(id, rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &room, &d), c->want);
        /* the diagnostic names the damaged field: its section, record and offset */
        snprintf(id, sizeof id, "rmesh.evil.%s.diag", c->name);
        RT_EXPECT(id, d.section == c->sec && d.record == el && d.offset == off + c->at);
    }
    /* render sections without the render head: its type made an unknown optional one */
    memcpy(b, good, size);
    unknown_section(b, RR_SEC_RMESH_RHEAD);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.evil.render-head-missing",
                 rr_open(b, (uint32_t)size, arena, sizeof arena, &(rr_room){0}), RR_ERR_MISSING);
    /* declared depth one less than the tree: RR_ERR_DEPTH (arena still large) */
    memcpy(b, good, size);
    put32(b + 32, get32(b + 32) - 1);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.evil.depth", rr_open(b, (uint32_t)size, arena, sizeof arena, &(rr_room){0}),
                 RR_ERR_DEPTH);
    /* declared arena too small for the tree stack */
    memcpy(b, good, size);
    put32(b + 28, 8);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.evil.arena", rr_open(b, (uint32_t)size, arena, sizeof arena, &(rr_room){0}),
                 RR_ERR_ARENA);
    free(b);
}

/* Corners on one line with edges of 2^15 lattice steps or more (rr_open's
 * plane check then takes its 64-bit path; the planted degenerate-triangle
 * case above takes the 32-bit one): triangle 0's corners moved to (0,0,0),
 * (40000,20000,0), (60000,30000,0). */
static void check_long_degenerate(const uint8_t *good, size_t size)
{
    static const uint16_t q[3][3] = {{0, 0, 0}, {40000, 20000, 0}, {60000, 30000, 0}};
    uint8_t *b = malloc(size);
    uint32_t toff, voff;
    rr_room room;
    rr_diag d;
    int k;
    memcpy(b, good, size);
    toff = sec_off(b, RR_SEC_RMESH_TRIS, 0);
    voff = sec_off(b, RR_SEC_RMESH_VERTS, 0);
    for (k = 0; k < 3; k++) {   /* host order: the blob is baked little-endian on an LE host */
        uint16_t v;
        memcpy(&v, b + toff + 2 * (uint32_t)k, 2);
        memcpy(b + voff + 6u * v, q[k], 6);
    }
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.evil.degenerate-long",
                 rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &room, &d), RR_ERR_RANGE);
    RT_EXPECT("rmesh.evil.degenerate-long.diag",
              d.section == RR_SEC_RMESH_TRIS && d.record == 0 && d.offset == toff);
    free(b);
}

/* Any 16-bit lattice point is a valid vertex or node bound: the lattice
 * itself bounds it (origin within +-2^17, q << vshift below 2^18), and the
 * queries' overflow budget (rr_rmesh.c) is stated for that range, so rr_open
 * has nothing to reject. Put the lattice at the far corner of the coordinate
 * range (origin +2^17 on every axis, step 4), make the triangles span it
 * (every vertex coordinate 0 or 65535), open every node to the whole
 * lattice so that every triangle is tested, and run rays, boxes and sweeps
 * from the corners of the query range across it: under the host tests'
 * sanitizers a signed overflow anywhere aborts the test. */
static void check_lattice_extremes(const uint8_t *good, size_t size)
{
    uint8_t *b = malloc(size);
    uint32_t i, nverts, nnodes, ntris, hoff, voff, noff, toff;
    rr_room r;
    rr_rmesh_hit hit;
    rr_rmesh_sweep_out so;
    uint32_t items[64];
    int k, c;
    memcpy(b, good, size);
    hoff = sec_off(b, RR_SEC_RMESH_HEAD, 0);
    voff = sec_off(b, RR_SEC_RMESH_VERTS, &nverts);
    noff = sec_off(b, RR_SEC_RMESH_NODES, &nnodes);
    toff = sec_off(b, RR_SEC_RMESH_TRIS, &ntris);
    for (k = 0; k < 3; k++)
        put32(b + hoff + 64 + 4 * (uint32_t)k, RR_RMESH_COORD_MAX);
    put32(b + hoff + 76, RR_RMESH_VSHIFT_MAX);
    /* vertex i: corner i & 7 of the lattice's box; triangle j: corners j,
     * j + 1 and j + 3 (mod 8), three distinct corners of a box, which never
     * lie on one line (rr_open refuses triangles without a plane) */
    for (i = 0; i < nverts; i++) {
        uint8_t *v = b + voff + i * sizeof(rr_rmesh_vert);
        for (k = 0; k < 3; k++) {
            uint16_t q = ((i >> k) & 1) ? 0xffff : 0;
            memcpy(v + 2 * k, &q, 2);
        }
    }
    RT_EXPECT("rmesh.lattice.eight_vertices", nverts >= 8);
    for (i = 0; i < ntris; i++) {
        uint8_t *t = b + toff + i * sizeof(rr_rmesh_tri);
        uint16_t v3[3] = {(uint16_t)(i & 7), (uint16_t)((i + 1) & 7), (uint16_t)((i + 3) & 7)};
        memcpy(t, v3, 6);
    }
    for (i = 0; i < nnodes; i++) {
        uint8_t *n = b + noff + i * sizeof(rr_rmesh_node);
        memset(n, 0, 6);        /* min = 0 */
        memset(n + 6, 0xff, 6);  /* max = 65535 */
    }
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.lattice.open", rr_open(b, (uint32_t)size, arena, sizeof arena, &r), RR_OK);
    for (c = 0; c < 8; c++) {   /* from each corner of the query range to the opposite one */
        rr_rmesh_ray ray;
        rr_rmesh_sweep sw;
        rr_rmesh_list l = {items, 64, 0, 0};
        int32_t lo[3], hi[3];
        int32_t s[3] = {(c & 1) ? 1 : -1, (c & 2) ? 1 : -1, (c & 4) ? 1 : -1};
        memset(&sw, 0, sizeof sw);
        for (k = 0; k < 3; k++) {
            ray.origin[k] = s[k] * (1 << 18);
            sw.from[k] = s[k] * (1 << 18);
            sw.to[k] = -s[k] * (1 << 18);
            sw.radius[k] = 1 << 14;
            lo[k] = -(1 << 18);
            hi[k] = 1 << 18;
        }
        ray.dir.x = -s[0] * RR_FIX_ONE;
        ray.dir.y = -s[1] * RR_FIX_ONE;
        ray.dir.z = -s[2] * RR_FIX_ONE;
        ray.max_dist = 1 << 20;
        sw.max_slides = 4;
        RT_EXPECT_EQ("rmesh.lattice.ray", rr_rmesh_raycast(&r, &ray, &hit), RR_OK);
        RT_EXPECT_EQ("rmesh.lattice.box", rr_rmesh_box_tris(&r, lo, hi, &l), RR_OK);
        RT_EXPECT_EQ("rmesh.lattice.sweep", rr_rmesh_sweep_move(&r, &sw, &so), RR_OK);
    }
    free(b);
}

static void check_queries_args(const uint8_t *blob, size_t size)
{
    rr_room r;
    rr_rmesh_ray ray = {{0, 0, 0}, {0, 0, 0}, 100};
    rr_rmesh_hit hit;
    rr_rmesh_list l = {0, 0, 0, 0};
    int32_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, far[3] = {1 << 19, 0, 0};
    uint32_t idx;
    RT_EXPECT_EQ("rmesh.args.open", rr_open(blob, (uint32_t)size, arena, sizeof arena, &r), RR_OK);
    RT_EXPECT_EQ("rmesh.args.zero_dir", rr_rmesh_raycast(&r, &ray, &hit), RR_ERR_ARG);
    ray.dir.y = RR_FIX_ONE;
    ray.origin[0] = (1 << 18) + 1;
    RT_EXPECT_EQ("rmesh.args.origin", rr_rmesh_raycast(&r, &ray, &hit), RR_ERR_RANGE);
    ray.origin[0] = 0;
    ray.max_dist = -1;
    RT_EXPECT_EQ("rmesh.args.neg_dist", rr_rmesh_raycast(&r, &ray, &hit), RR_ERR_ARG);
    RT_EXPECT_EQ("rmesh.args.null", rr_rmesh_raycast(&r, NULL, &hit), RR_ERR_ARG);
    RT_EXPECT_EQ("rmesh.args.box_inverted", rr_rmesh_box_tris(&r, hi, lo, &l), RR_ERR_RANGE);
    RT_EXPECT_EQ("rmesh.args.box_cap0", rr_rmesh_box_tris(&r, lo, hi, &l), RR_OK);
    l.cap = 4;   /* capacity without storage */
    RT_EXPECT_EQ("rmesh.args.box_nostore", rr_rmesh_box_tris(&r, lo, hi, &l), RR_ERR_ARG);
    RT_EXPECT_EQ("rmesh.args.nearest_far", rr_rmesh_entity_nearest(&r, 0, far, &idx), RR_ERR_RANGE);
    RT_EXPECT_EQ("rmesh.args.nearest_cls", rr_rmesh_entity_nearest(&r, RR_RMESH_NCLASSES + 1, lo, &idx),
                 RR_ERR_ARG);
}

/* Sample room: trigger and entity lookups. */
static void check_sample_lookups(const rr_room *rp)
{
    rr_room r = *rp;
    uint32_t idx = 99, it, n;
    const rr_rmesh_trigger *box;
    const char *name;
    int32_t p[3];
    uint32_t f = r.coord_frac;
    /* trigger (-448..-192 on x and z, 0..256 on y), strict */
    p[0] = -300 * (1 << f); p[1] = 100 << f; p[2] = -300 * (1 << f);
    RT_EXPECT_EQ("rmesh.sample.trigger", rr_rmesh_trigger_at(&r, p, &idx), RR_OK);
    rr_rmesh_trigger_get(&r, idx, &box, &name);
    RT_EXPECT("rmesh.sample.trigger.name", strcmp(name, "sample_trigger") == 0);
    p[0] = -192 * (1 << f);
    RT_EXPECT_EQ("rmesh.sample.trigger.edge", rr_rmesh_trigger_at(&r, p, &idx), RR_ERR_NOTFOUND);
    /* entities: one of each class */
    for (it = 0, n = 0; rr_rmesh_entity_next(&r, RR_RMESH_NCLASSES, &it) == RR_OK; it++)
        n++;
    RT_EXPECT_EQ("rmesh.sample.entities", n, 7);
    it = 0;
    RT_EXPECT_EQ("rmesh.sample.spot", rr_rmesh_entity_next(&r, RR_RMESH_SPOTLIGHT, &it), RR_OK);
    RT_EXPECT_EQ("rmesh.sample.spot.index", it, 3);
    p[0] = p[1] = p[2] = 0;
    RT_EXPECT_EQ("rmesh.sample.nearest", rr_rmesh_entity_nearest(&r, RR_RMESH_WAYPOINT, p, &idx), RR_OK);
    RT_EXPECT_EQ("rmesh.sample.nearest.index", idx, 1);
    /* any class: the nearest of all entities, by a brute force over them */
    {
        uint64_t best = ~(uint64_t)0, d2;
        uint32_t want = 99, i, k;
        const rr_rmesh_ent *e;
        p[0] = 100 * (1 << f); p[1] = 50 * (1 << f); p[2] = -20 * (1 << f);
        for (i = 0; rr_rmesh_entity(&r, i, &e) == RR_OK; i++) {
            if (e->flags & RR_RMESH_ENT_IGNORED)
                continue;
            for (d2 = 0, k = 0; k < 3; k++)
                d2 += (uint64_t)(((int64_t)e->pos[k] - p[k]) * ((int64_t)e->pos[k] - p[k]));
            if (d2 < best)
                best = d2, want = i;
        }
        RT_EXPECT_EQ("rmesh.sample.nearest.any",
                     rr_rmesh_entity_nearest(&r, RR_RMESH_NCLASSES, p, &idx), RR_OK);
        RT_EXPECT_EQ("rmesh.sample.nearest.any.index", idx, want);
    }
}

/* Sample room: exact answers known by construction (docs/rmesh.md). */
static void check_sample_answers(const uint8_t *blob, size_t size)
{
    rr_room r;
    rr_rmesh_ray ray;
    rr_rmesh_hit hit;
    const char *t0, *t1;
    const rr_rmesh_surf *s;
    uint32_t f;
    rr_open(blob, (uint32_t)size, arena, sizeof arena, &r);
    f = r.coord_frac;
    /* straight down from (100, 200, 100): the floor at y = 0, 200 units away */
    memset(&ray, 0, sizeof ray);
    ray.origin[0] = 100 << f; ray.origin[1] = 200 << f; ray.origin[2] = 100 << f;
    ray.dir.y = -RR_FIX_ONE;
    ray.max_dist = 1000 << f;
    RT_EXPECT_EQ("rmesh.sample.down", rr_rmesh_raycast(&r, &ray, &hit), RR_OK);
    RT_EXPECT_EQ("rmesh.sample.down.hit", hit.hit, 1);
    RT_EXPECT_EQ("rmesh.sample.down.dist", hit.dist, 200 << f);
    RT_EXPECT_EQ("rmesh.sample.down.normal", hit.normal.y, RR_FIX_ONE);
    rr_rmesh_surface(&r, hit.surface, &s, &t0, &t1);
    RT_EXPECT("rmesh.sample.down.tex", strcmp(t1, "concretefloor.jpg") == 0);
    /* along +x through the glass pane at x = 0 (alpha: no collision) to the wall at 512 */
    memset(&ray, 0, sizeof ray);
    ray.origin[0] = -300 * (1 << f); ray.origin[1] = 100 << f;
    ray.dir.x = RR_FIX_ONE;
    ray.max_dist = 2000 << f;
    rr_rmesh_raycast(&r, &ray, &hit);
    RT_EXPECT_EQ("rmesh.sample.glass", hit.dist, 812 << f);
    RT_EXPECT_EQ("rmesh.sample.glass.normal", hit.normal.x, -RR_FIX_ONE);
    /* into the invisible box (256..448, 0..128, -448..-256) from above */
    memset(&ray, 0, sizeof ray);
    ray.origin[0] = 300 << f; ray.origin[1] = 300 << f; ray.origin[2] = -300 * (1 << f);
    ray.dir.y = -RR_FIX_ONE;
    ray.max_dist = 1000 << f;
    rr_rmesh_raycast(&r, &ray, &hit);
    RT_EXPECT_EQ("rmesh.sample.invisible", hit.dist, 172 << f);
    RT_EXPECT_EQ("rmesh.sample.invisible.surface", hit.surface, 4);
    /* max distance shorter than the floor: miss */
    ray.max_dist = 100 << f;
    rr_rmesh_raycast(&r, &ray, &hit);
    RT_EXPECT_EQ("rmesh.sample.short", hit.hit, 0);
    check_sample_lookups(&r);
}

/* Sweeps in the sample room: a fall onto the floor, a slide along it. */
static void check_sample_sweeps(const uint8_t *blob, size_t size)
{
    rr_room r;
    rr_rmesh_sweep in;
    rr_rmesh_sweep_out out;
    int32_t f;
    rr_open(blob, (uint32_t)size, arena, sizeof arena, &r);
    f = (int32_t)r.coord_frac;
    memset(&in, 0, sizeof in);
    in.radius[0] = in.radius[2] = 40 << f;
    in.radius[1] = 80 << f;
    in.max_slides = 4;
    in.from[0] = -200 * (1 << f); in.from[1] = 300 << f; in.from[2] = 200 << f;
    in.to[0] = in.from[0]; in.to[1] = -100 * (1 << f); in.to[2] = in.from[2];
    RT_EXPECT_EQ("rmesh.sweep.fall", rr_rmesh_sweep_move(&r, &in, &out), RR_OK);
    RT_EXPECT_EQ("rmesh.sweep.fall.hit", out.hit, 1);
    RT_EXPECT("rmesh.sweep.fall.y", out.pos[1] >= 80 << f && out.pos[1] <= (80 << f) + 4);
    RT_EXPECT_EQ("rmesh.sweep.fall.x", out.pos[0], in.from[0]);
    RT_EXPECT_EQ("rmesh.sweep.fall.normal", out.normal.y, RR_FIX_ONE);
    /* down and sideways: lands, then slides along the floor to x = -100 */
    in.from[1] = 100 << f;
    in.to[0] = -100 * (1 << f);
    RT_EXPECT_EQ("rmesh.sweep.slide", rr_rmesh_sweep_move(&r, &in, &out), RR_OK);
    RT_EXPECT("rmesh.sweep.slide.y", out.pos[1] >= 80 << f && out.pos[1] <= (80 << f) + 4);
    RT_EXPECT("rmesh.sweep.slide.x", out.pos[0] >= in.to[0] - 4 && out.pos[0] <= in.to[0]);
    /* into the wall at x = 512 from x = 400: stops 40 units short of it */
    in.from[0] = 400 << f; in.from[1] = 200 << f; in.from[2] = 0;
    in.to[0] = 700 << f; in.to[1] = 200 << f; in.to[2] = 0;
    rr_rmesh_sweep_move(&r, &in, &out);
    RT_EXPECT("rmesh.sweep.wall", out.pos[0] <= 472 << f && out.pos[0] >= (472 << f) - 4);
    RT_EXPECT_EQ("rmesh.sweep.wall.normal", out.normal.x, -RR_FIX_ONE);
    /* free move: exactly the target */
    in.to[0] = 300 << f;
    rr_rmesh_sweep_move(&r, &in, &out);
    RT_EXPECT("rmesh.sweep.free", out.hit == 0 && out.pos[0] == in.to[0] && out.pos[1] == in.to[1]);
    /* a long free move with the smallest radius: ~32,000 steps, must arrive */
    in.radius[0] = in.radius[1] = in.radius[2] = 16;
    in.from[0] = -260000; in.from[1] = 100000; in.from[2] = 7;
    in.to[0] = 260000; in.to[1] = 100000; in.to[2] = -7;
    RT_EXPECT_EQ("rmesh.sweep.long", rr_rmesh_sweep_move(&r, &in, &out), RR_OK);
    RT_EXPECT("rmesh.sweep.long.arrives", out.hit == 0 && out.pos[0] == in.to[0] &&
              out.pos[1] == in.to[1] && out.pos[2] == in.to[2]);
    in.radius[0] = in.radius[2] = 40 << f;
    in.radius[1] = 80 << f;
    /* arguments */
    in.max_slides = 0;
    RT_EXPECT_EQ("rmesh.sweep.args.slides", rr_rmesh_sweep_move(&r, &in, &out), RR_ERR_ARG);
    in.max_slides = RR_RMESH_MAX_SLIDES + 1;
    RT_EXPECT_EQ("rmesh.sweep.args.slides_max", rr_rmesh_sweep_move(&r, &in, &out), RR_ERR_ARG);
    in.max_slides = 1;
    in.radius[0] = 15;
    RT_EXPECT_EQ("rmesh.sweep.args.radius", rr_rmesh_sweep_move(&r, &in, &out), RR_ERR_RANGE);
    in.radius[0] = 40 << f;
    in.to[2] = (1 << 18) + 1;
    RT_EXPECT_EQ("rmesh.sweep.args.to", rr_rmesh_sweep_move(&r, &in, &out), RR_ERR_RANGE);
}

static void check_limits(void)
{
    rrb_rmesh m;
    rrb_opts o;
    char err[RRB_ERR_MAX];
    rrb_blob *b;
    uint8_t *blob;
    size_t size;
    rr_room r;
    rrb_rmesh_sample_model(&m);
    memset(&o, 0, sizeof o);
    /* room scale: 8/2048 of every length; coordinates get more fraction bits */
    o.room_scale = 1;
    RT_EXPECT_EQ("rmesh.scale.bake", bake(&m, &o, 0, &blob, &size), 0);
    RT_EXPECT_EQ("rmesh.scale.open", rr_open(blob, (uint32_t)size, arena, sizeof arena, &r), RR_OK);
    RT_EXPECT_EQ("rmesh.scale.frac", r.coord_frac, 15);  /* 2 units * 2^15 < 2^17 */
    free(blob);
    /* collision only: no render sections, and the loader says so */
    o.room_scale = 0;
    o.collision_only = 1;
    RT_EXPECT_EQ("rmesh.colonly.bake", bake(&m, &o, 0, &blob, &size), 0);
    RT_EXPECT_EQ("rmesh.colonly.open", rr_open(blob, (uint32_t)size, arena, sizeof arena, &r), RR_OK);
    {
        const rr_rmesh_rhead *rh;
        RT_EXPECT_EQ("rmesh.colonly.render", rr_rmesh_render_head(&r, &rh), RR_ERR_MISSING);
    }
    free(blob);
    /* big-endian blob: refused on this (little-endian) host with RR_ERR_ENDIAN */
    RT_EXPECT_EQ("rmesh.be.bake", bake(&m, NULL, 1, &blob, &size), 0);
    RT_EXPECT_EQ("rmesh.be.open", rr_open(blob, (uint32_t)size, arena, sizeof arena, &r), RR_ERR_ENDIAN);
    free(blob);
    /* a vertex beyond what coord_frac 0 holds */
    m.surf[0].verts[0].pos[0] = 200000.0f;
    b = rrb_rmesh_bake_model(&m, "big.rmesh", NULL, err, sizeof err);
    RT_EXPECT("rmesh.limit.too_big", b == NULL && strstr(err, "exceeds") != NULL);
    rrb_blob_free(b);
    rrb_rmesh_free(&m);
}

/* Offset of field `field` of record `el` of the first section of `type`. */
static uint32_t rec_off(const uint8_t *b, uint32_t type, uint32_t size, uint32_t el, uint32_t field)
{
    return sec_off(b, type, 0) + el * size + field;
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* Open b (size bytes, resealed) and expect code `want` with the diagnostic
 * at section sec, record rec, blob offset off. */
static void expect_diag(const char *name, uint8_t *b, size_t size, rr_err want, uint32_t sec,
                        uint32_t rec, uint32_t off)
{
    rr_room r;
    rr_diag d;
    char id[96];
    rr_err e;
    reseal(b, size);
    e = rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &r, &d);
    snprintf(id, sizeof id, "rmesh.tref.%s", name);
    RT_EXPECT_EQ(id, e, want);
    snprintf(id, sizeof id, "rmesh.tref.%s.diag", name);
    RT_EXPECT(id, d.section == sec && d.record == rec && d.offset == off);
    if (e != want || d.section != sec || d.record != rec || d.offset != off)
        plat_printf("# %s: %d at %x/%u 0x%x: %s\n", id, e, d.section, d.record, d.offset, d.what);
}

/* The 8-bit render index layout of blob b (rr_rmesh_rindex, written out
 * here from rr_rmesh_blob.h, not taken from the loader): index j's byte
 * is at RINDEX offset 2 nblocks + j, its block's base the byte pair at
 * 2 ((j / 3) >> ishift). */
typedef struct ix_layout {
    uint32_t off, nindices, ishift, nblocks;
} ix_layout;

static ix_layout ix_layout_of(const uint8_t *b)
{
    ix_layout l;
    uint32_t rh = sec_off(b, RR_SEC_RMESH_RHEAD, 0);
    l.off = sec_off(b, RR_SEC_RMESH_RINDEX, 0);
    l.nindices = get32(b + rh + offsetof(rr_rmesh_rhead, nindices));
    l.ishift = b[rh + offsetof(rr_rmesh_rhead, ishift)];
    l.nblocks = (l.nindices / 3 + (1u << l.ishift) - 1) >> l.ishift;
    return l;
}

static uint32_t ix_byte(const ix_layout *l, uint32_t j)
{
    return l->off + 2 * l->nblocks + j;
}

static uint32_t ix_base(const ix_layout *l, uint32_t j)
{
    return l->off + 2 * ((j / 3) >> l->ishift);
}

static uint32_t ix_vertex(const uint8_t *b, const ix_layout *l, uint32_t j)
{
    return get16(b + ix_base(l, j)) + b[ix_byte(l, j)];
}

/* A full blob's collision triangles by key (rr_rmesh_tref) and the render
 * index checks the keys rely on, each planted in a copy of the good full
 * blob `good` (the sample or 173_opt: both have render-only positions and
 * explicit triangles) and named by its diagnostic:
 * - a key past the render and explicit triangles;
 * - a render triangle with a corner on a render-only position (no
 *   collision vertex), and one with two corners on one point (no plane);
 * - the render groups' index runs: one that does not start where the group
 *   before ends, and runs that end before RINDEX does;
 * - a render index of another group's vertex (past the group's, and before it),
 *   by its block's base and by its byte;
 * - the index layout (schema 7): ishift past RR_RMESH_ISHIFT_MAX, and
 *   another block size or 16 bits for the same bytes (the section's length
 *   then disagrees); a group whose run goes past rhead.nindices;
 * - TREF left as the only render section (its render head gone).
 * Also: the same room baked --collision-only has no TREF and all its
 * triangles in TRIS, and every triangle reads the same corners and source
 * index from both blobs. */
static void check_tref(const uint8_t *good, size_t size, const uint8_t *co, size_t co_size)
{
    uint8_t *b = malloc(size);
    uint32_t ntref, ntris, nindex, nrverts, ngroups, nverts, key0 = 0, i, off, c, bad = 0;
    uint32_t toff = sec_off(good, RR_SEC_RMESH_TREF, &ntref);
    ix_layout ix = ix_layout_of(good);
    uint32_t rhoff = sec_off(good, RR_SEC_RMESH_RHEAD, 0);
    uint32_t voff = sec_off(good, RR_SEC_RMESH_RVERTS, &nrverts);
    uint32_t goff = sec_off(good, RR_SEC_RMESH_RGROUPS, &ngroups);
    uint32_t hoff = sec_off(good, RR_SEC_RMESH_HEAD, 0), corner[3];
    static const uint32_t render_secs[] = {RR_SEC_RMESH_RHEAD, RR_SEC_RMESH_RGROUPS,
        RR_SEC_RMESH_RVERTS, RR_SEC_RMESH_RINDEX, RR_SEC_RMESH_RPOS, RR_SEC_RMESH_RCOLORS,
        RR_SEC_RMESH_RLMUV};
    rr_room rf, rc;
    sec_off(good, RR_SEC_RMESH_TRIS, &ntris);
    nverts = get32(good + hoff + 4);
    nindex = ix.nindices;
    RT_EXPECT("rmesh.tref.8bit", ix.ishift <= RR_RMESH_ISHIFT_MAX);
    RT_EXPECT("rmesh.tref.present", toff != 0 && ntref == get32(good + hoff) && ntris < ntref &&
                                        ngroups >= 2 && nindex % 3 == 0);
    /* the first key that names a render triangle, and its corners' render vertices */
    for (i = 0; i < ntref && (key0 = get16(good + toff + 2 * i)) >= nindex / 3; i++)
        ;
    RT_EXPECT("rmesh.tref.render_key", i == 0 && key0 < nindex / 3);
    for (c = 0; c < 3; c++)
        corner[c] = ix_vertex(good, &ix, 3 * key0 + c);
    /* key past the render triangles and the explicit ones */
    memcpy(b, good, size);
    put16(b + toff, nindex / 3 + ntris);
    expect_diag("key_range", b, size, RR_ERR_INDEX, RR_SEC_RMESH_TREF, 0, toff);
    put16(b + toff, nindex / 3 + ntris - 1);   /* the last explicit triangle is one */
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.tref.key_last", rr_open(b, (uint32_t)size, arena, sizeof arena, &rf), RR_OK);
    /* corner 0 of TREF[0]'s render triangle on the first render-only position */
    memcpy(b, good, size);
    put16(b + voff + 6 * corner[0], nverts);
    expect_diag("corner", b, size, RR_ERR_INDEX, RR_SEC_RMESH_TREF, 0, toff);
    /* corner 1 on corner 0's point: no plane */
    memcpy(b, good, size);
    put16(b + voff + 6 * corner[1], get16(good + voff + 6 * corner[0]));
    expect_diag("plane", b, size, RR_ERR_RANGE, RR_SEC_RMESH_TREF, 0, toff);
    /* group 1's index run 3 later (and 3 shorter, so it stays in RINDEX) */
    memcpy(b, good, size);
    off = goff + sizeof(rr_rmesh_rgroup) + (uint32_t)offsetof(rr_rmesh_rgroup, first_index);
    for (i = 1; i < ngroups && get32(good + off + 4) < 3; i++)   /* a group with a triangle */
        off += sizeof(rr_rmesh_rgroup);
    put32(b + off, get32(b + off) + 3);
    put32(b + off + 4, get32(b + off + 4) - 3);
    expect_diag("group_start", b, size, RR_ERR_RANGE, RR_SEC_RMESH_RGROUPS, i, off);
    /* the last group with triangles 3 indices short of RINDEX's end */
    memcpy(b, good, size);
    for (i = ngroups; i-- > 0 &&
         get32(good + goff + i * sizeof(rr_rmesh_rgroup) + offsetof(rr_rmesh_rgroup, nindices)) < 3;)
        ;
    off = goff + i * (uint32_t)sizeof(rr_rmesh_rgroup) + (uint32_t)offsetof(rr_rmesh_rgroup, nindices);
    put32(b + off, get32(b + off) - 3);
    expect_diag("groups_end", b, size, RR_ERR_RANGE, RR_SEC_RMESH_RHEAD, 0,
                sec_off(b, RR_SEC_RMESH_RHEAD, 0) + (uint32_t)offsetof(rr_rmesh_rhead, nindices));
    /* the last group's run 3 indices past rhead.nindices */
    memcpy(b, good, size);
    off = goff + (ngroups - 1) * (uint32_t)sizeof(rr_rmesh_rgroup) +
          (uint32_t)offsetof(rr_rmesh_rgroup, nindices);
    put32(b + off, get32(b + off) + 3);
    expect_diag("group_past", b, size, RR_ERR_RANGE, RR_SEC_RMESH_RGROUPS, ngroups - 1, off);
    /* index 0 (group 0's) one past group 0's vertices (group 1's first),
     * by block 0's base */
    memcpy(b, good, size);
    off = goff + (uint32_t)offsetof(rr_rmesh_rgroup, nverts);
    put16(b + ix_base(&ix, 0), get32(good + off - 4) + get32(good + off) - good[ix_byte(&ix, 0)]);
    expect_diag("index_past", b, size, RR_ERR_INDEX, RR_SEC_RMESH_RINDEX, ix_byte(&ix, 0) - ix.off,
                ix_byte(&ix, 0));
    /* ... and by its byte, as far as a byte reaches (255 past the base) */
    memcpy(b, good, size);
    b[ix_byte(&ix, 0)] = 255;
    if (get16(good + ix_base(&ix, 0)) + 255u >= get32(good + off - 4) + get32(good + off))
        expect_diag("index_byte", b, size, RR_ERR_INDEX, RR_SEC_RMESH_RINDEX,
                    ix_byte(&ix, 0) - ix.off, ix_byte(&ix, 0));
    else {   /* still group 0's vertex: a valid blob */
        reseal(b, size);
        RT_EXPECT_EQ("rmesh.tref.index_byte_ok", rr_open(b, (uint32_t)size, arena, sizeof arena, &rf),
                     RR_OK);
    }
    /* rhead.nindices not whole triangles (one short) */
    memcpy(b, good, size);
    put32(b + rhoff + offsetof(rr_rmesh_rhead, nindices), nindex - 1);
    expect_diag("rhead_nindices", b, size, RR_ERR_RANGE, RR_SEC_RMESH_RHEAD, 0,
                rhoff + (uint32_t)offsetof(rr_rmesh_rhead, nindices));
    /* ishift past RR_RMESH_ISHIFT_MAX (and not the 16-bit mark) */
    memcpy(b, good, size);
    b[rhoff + offsetof(rr_rmesh_rhead, ishift)] = RR_RMESH_ISHIFT_MAX + 1;
    expect_diag("ishift", b, size, RR_ERR_RANGE, RR_SEC_RMESH_RHEAD, 0,
                rhoff + (uint32_t)offsetof(rr_rmesh_rhead, ishift));
    /* another layout for the same bytes: blocks of one triangle (more
     * bases), and 16 bits */
    memcpy(b, good, size);
    b[rhoff + offsetof(rr_rmesh_rhead, ishift)] = 0;
    RT_EXPECT("rmesh.tref.several_triangles", ix.ishift > 0 && nindex / 3 > ix.nblocks);
    expect_diag("ishift_one", b, size, RR_ERR_SECTION, RR_SEC_RMESH_RHEAD, 0,
                rhoff + (uint32_t)offsetof(rr_rmesh_rhead, nindices));
    b[rhoff + offsetof(rr_rmesh_rhead, ishift)] = RR_RMESH_ISHIFT_WIDE;
    expect_diag("ishift_wide", b, size, RR_ERR_SECTION, RR_SEC_RMESH_RHEAD, 0,
                rhoff + (uint32_t)offsetof(rr_rmesh_rhead, nindices));
    /* the first index of the first group after group 0 with triangles, one before its vertices */
    memcpy(b, good, size);
    for (i = 1; i < ngroups && get32(good + goff + i * sizeof(rr_rmesh_rgroup) +
                                     offsetof(rr_rmesh_rgroup, nindices)) < 3; i++)
        ;
    off = get32(good + goff + i * sizeof(rr_rmesh_rgroup) + offsetof(rr_rmesh_rgroup, first_index));
    c = get32(good + goff + i * sizeof(rr_rmesh_rgroup) + offsetof(rr_rmesh_rgroup, first_vert)) - 1;
    if (get16(good + ix_base(&ix, off)) <= c)   /* its block starts in an earlier group: the byte */
        b[ix_byte(&ix, off)] = (uint8_t)(c - get16(good + ix_base(&ix, off)));
    else   /* its block starts with it (the groups before hold lower vertices): the base */
        put16(b + ix_base(&ix, off), c - good[ix_byte(&ix, off)]);
    expect_diag("index_before", b, size, RR_ERR_INDEX, RR_SEC_RMESH_RINDEX,
                ix_byte(&ix, off) - ix.off, ix_byte(&ix, off));
    /* TREF the only render section left: it needs the render head too */
    memcpy(b, good, size);
    for (i = 0; i < sizeof render_secs / sizeof render_secs[0]; i++)
        unknown_section_k(b, render_secs[i], i);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.tref.no_render_head",
                 rr_open(b, (uint32_t)size, arena, sizeof arena, &rf), RR_ERR_MISSING);
    free(b);
    /* both kinds of blob give every triangle the same source index and corners */
    RT_EXPECT_EQ("rmesh.tref.open_full", rr_open(good, (uint32_t)size, arena, sizeof arena, &rf),
                 RR_OK);
    {
        static uint32_t arena2[512];
        RT_EXPECT_EQ("rmesh.tref.open_co", rr_open(co, (uint32_t)co_size, arena2, sizeof arena2, &rc),
                     RR_OK);
        RT_EXPECT("rmesh.tref.co_no_tref", sec_off(co, RR_SEC_RMESH_TREF, 0) == 0);
        sec_off(co, RR_SEC_RMESH_TRIS, &i);
        RT_EXPECT_EQ("rmesh.tref.co_tris", i, ntref);
        RT_EXPECT_EQ("rmesh.tref.same_triangles", bad + triangles_differ(&rf, &rc, ntref), 0);
    }
}

/* The render records of the sample with one group whose colours vary: one
 * colour record per vertex of that group, the others none; decoded colours
 * and positions as the source has them; group 0's lightmap UVs put on a
 * box of 4,096 points 16/65,536 apart, so that one vertex's UV is exactly
 * the 12-bit numbers (0xabc, 0x123), stored as the bytes rr_rmesh_blob.h
 * gives (bc 3a 12) and decoded exactly; the semantic checks of the colour
 * run, the position numbers and the lightmap UV count name the damaged
 * field. */
static void check_render_records(void)
{
    rrb_rmesh m;
    uint8_t *blob, *b;
    size_t size;
    rr_room r;
    rr_diag d;
    uint32_t i, v, bad = 0, nv1, off, ncoll;
    const rr_rmesh_rhead *rh;
    const rr_rmesh_head *h;
    rrb_rmesh_sample_model(&m);
    nv1 = m.surf[1].nverts;
    for (v = 0; v < nv1; v++)
        m.surf[1].verts[v].rgb[0] = (uint8_t)(10 + v);   /* group 1 varies */
    for (v = 0; v < m.surf[0].nverts; v++)   /* box 0 .. 4095 * 16 / 65536 */
        m.surf[0].verts[v].uv1[0] = m.surf[0].verts[v].uv1[1] = v == 1 ? 4095.0f / 4096 : 0.0f;
    m.surf[0].verts[2].uv1[0] = 0xabc / 4096.0f;
    m.surf[0].verts[2].uv1[1] = 0x123 / 4096.0f;
    RT_EXPECT_EQ("rmesh.rrec.bake", bake(&m, NULL, 0, &blob, &size), 0);
    RT_EXPECT_EQ("rmesh.rrec.open", rr_open(blob, (uint32_t)size, arena, sizeof arena, &r), RR_OK);
    rr_rmesh_render_head(&r, &rh);
    rr_rmesh_head_get(&r, &h);
    RT_EXPECT_EQ("rmesh.rrec.ncolors", rh->ncolors, nv1);
    for (i = 0; i < rh->ngroups; i++) {
        const rr_rmesh_rgroup *g;
        rr_rmesh_render_group(&r, i, &g);
        bad += g->ncolors != (i == 1 ? nv1 : 0);
        for (v = 0; v < g->nverts; v++) {
            rr_rmesh_vertex x;
            int k;
            RT_EXPECT_EQ("rmesh.rrec.vertex", rr_rmesh_render_vertex(&r, i, g->first_vert + v, &x),
                         RR_OK);
            bad += memcmp(x.rgb, m.surf[i].verts[v].rgb, 3) != 0;
            /* sample coordinates are multiples of 1/8 unit: within one step */
            for (k = 0; k < 3; k++)
                bad += fabs(ldexp(x.pos[k], -(int)r.coord_frac) - (double)m.surf[i].verts[v].pos[k]) >
                       ldexp(1.0, 2 - (int)r.coord_frac);
        }
        {
            rr_rmesh_vertex x;
            /* past the group's vertices, and before them: another group's */
            RT_EXPECT_EQ("rmesh.rrec.vertex_range",
                          rr_rmesh_render_vertex(&r, i, g->first_vert + g->nverts, &x), RR_ERR_RANGE);
            if (g->first_vert)
                RT_EXPECT_EQ("rmesh.rrec.vertex_before",
                             rr_rmesh_render_vertex(&r, i, g->first_vert - 1, &x), RR_ERR_RANGE);
        }
    }
    RT_EXPECT_EQ("rmesh.rrec.decoded", bad, 0);
    {
        rr_rmesh_vertex x;
        RT_EXPECT_EQ("rmesh.rrec.group_range", rr_rmesh_render_vertex(&r, rh->ngroups, 0, &x),
                     RR_ERR_RANGE);
    }
    RT_EXPECT_EQ("rmesh.rrec.null", rr_rmesh_render_vertex(&r, 0, 0, NULL), RR_ERR_ARG);
    {
        const rr_rmesh_rgroup *g;
        const uint8_t *lm;
        rr_rmesh_vertex x;
        rr_rmesh_render_group(&r, 0, &g);
        RT_EXPECT("rmesh.rrec.lm_box", g->lm_min[0] == 0 && g->lm_min[1] == 0 &&
                                           g->lm_step[0] == 16 && g->lm_step[1] == 16);
        lm = blob + rec_off(blob, RR_SEC_RMESH_RLMUV, 3, g->first_vert + 2, 0);
        RT_EXPECT("rmesh.rrec.lm_bytes", lm[0] == 0xbc && lm[1] == 0x3a && lm[2] == 0x12);
        rr_rmesh_render_vertex(&r, 0, g->first_vert + 2, &x);
        RT_EXPECT("rmesh.rrec.lm_uv", x.uv1[0] == 0xabc * 16 && x.uv1[1] == 0x123 * 16);
        rr_rmesh_render_vertex(&r, 0, g->first_vert + 1, &x);
        RT_EXPECT("rmesh.rrec.lm_uv_last", x.uv1[0] == 4095 * 16 && x.uv1[1] == 4095 * 16);
    }
    ncoll = h->nverts;
    b = malloc(size);
    /* group 1 with one colour fewer than its vertices */
    memcpy(b, blob, size);
    off = rec_off(b, RR_SEC_RMESH_RGROUPS, sizeof(rr_rmesh_rgroup), 1, 24);
    put32(b + off, nv1 - 1);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.rrec.colour_count", rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &r, &d),
                 RR_ERR_RANGE);
    RT_EXPECT("rmesh.rrec.colour_count.diag", d.section == RR_SEC_RMESH_RGROUPS && d.record == 1 &&
                                                d.offset == off);
    /* the last vertex's position number one past the points (the first
     * invalid one: collision vertices + render positions) */
    memcpy(b, blob, size);
    off = rec_off(b, RR_SEC_RMESH_RVERTS, sizeof(rr_rmesh_rvert), rh->nverts - 1, 0);
    b[off] = (uint8_t)(ncoll + rh->npos), b[off + 1] = (uint8_t)((ncoll + rh->npos) >> 8);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.rrec.position", rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &r, &d),
                 RR_ERR_INDEX);
    RT_EXPECT("rmesh.rrec.position.diag", d.section == RR_SEC_RMESH_RVERTS &&
                                            d.record == rh->nverts - 1 && d.offset == off);
    /* ... and the last valid one is accepted */
    b[off] = (uint8_t)(ncoll + rh->npos - 1), b[off + 1] = (uint8_t)((ncoll + rh->npos - 1) >> 8);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.rrec.position_last", rr_open(b, (uint32_t)size, arena, sizeof arena, &r),
                 RR_OK);
    /* the lightmap UV section missing, the render head's count of it made
     * to agree (0): fewer lightmap UVs than render vertices */
    memcpy(b, blob, size);
    unknown_section(b, RR_SEC_RMESH_RLMUV);
    off = rec_off(b, RR_SEC_RMESH_RHEAD, sizeof(rr_rmesh_rhead), 0,
                  (uint32_t)offsetof(rr_rmesh_rhead, nlmuv));
    put32(b + off, 0);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.rrec.lm_missing", rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &r, &d),
                 RR_ERR_RANGE);
    RT_EXPECT("rmesh.rrec.lm_missing.diag", d.section == RR_SEC_RMESH_RHEAD && d.record == 0 &&
                                              d.offset == off && d.value == 0 &&
                                              d.limit == rh->nverts);
    /* the colour section missing while the render head counts colours */
    memcpy(b, blob, size);
    unknown_section(b, RR_SEC_RMESH_RCOLORS);
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.rrec.colours_missing",
                 rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &r, &d), RR_ERR_SECTION);
    RT_EXPECT("rmesh.rrec.colours_missing.diag", d.section == RR_SEC_RMESH_RHEAD);
    free(b);
    free(blob);
    rrb_rmesh_free(&m);
}

/* The 16-bit layout of the render indices (rr_rmesh_rindex), which the
 * baker writes when a triangle's corners are more than 255 render vertices
 * apart: the sample's surface 0 given 300 more vertices, copies of its
 * first triangle's third corner, and that corner moved to the last copy
 * (the same point, so the room's geometry is the sample's). The blob holds
 * byte pairs (2 bytes an index, ishift RR_RMESH_ISHIFT_WIDE), every render
 * triangle reads back the source's corners, every collision triangle the
 * corners, source index and normal of the same room baked
 * --collision-only, and an index one past its group's vertices is refused
 * at its byte pair. Big-endian: the same bytes (byte pairs are
 * little-endian in either order). */
static void check_wide_indices(void)
{
    rrb_rmesh m;
    rrb_rm_surf *s;
    rrb_opts co;
    uint8_t *blob, *coblob, *be, *b;
    size_t size, cosize, besize;
    uint32_t i, t, c, n0, bad = 0, ioff, nb, off;
    rr_room r, rc;
    rr_diag d;
    const rr_rmesh_rhead *rh;
    const rr_rmesh_head *h;
    static uint32_t arena2[512];
    rrb_rmesh_sample_model(&m);
    s = &m.surf[0];
    n0 = s->nverts;
    s->verts = realloc(s->verts, (n0 + 300) * sizeof *s->verts);
    for (i = 0; i < 300; i++)
        s->verts[n0 + i] = s->verts[s->idx[2]];
    s->nverts = n0 + 300;
    s->idx[2] = n0 + 299;
    memset(&co, 0, sizeof co);
    co.collision_only = 1;
    RT_EXPECT_EQ("rmesh.wide.bake", bake(&m, NULL, 0, &blob, &size), 0);
    RT_EXPECT_EQ("rmesh.wide.bake_co", bake(&m, &co, 0, &coblob, &cosize), 0);
    RT_EXPECT_EQ("rmesh.wide.bake_be", bake(&m, NULL, 1, &be, &besize), 0);
    RT_EXPECT_EQ("rmesh.wide.open", rr_open(blob, (uint32_t)size, arena, sizeof arena, &r), RR_OK);
    RT_EXPECT_EQ("rmesh.wide.open_co", rr_open(coblob, (uint32_t)cosize, arena2, sizeof arena2, &rc),
                 RR_OK);
    rr_rmesh_render_head(&r, &rh);
    RT_EXPECT_EQ("rmesh.wide.layout", rh->ishift, RR_RMESH_ISHIFT_WIDE);
    ioff = sec_off(blob, RR_SEC_RMESH_RINDEX, &nb);
    RT_EXPECT_EQ("rmesh.wide.bytes", nb, 2 * rh->nindices);
    RT_EXPECT("rmesh.wide.be_same_bytes",
              besize == size && memcmp(be + ioff, blob + ioff, nb) == 0);   /* same layout */
    for (i = 0; i < rh->ngroups; i++) {
        const rr_rmesh_rgroup *g;
        const rrb_rm_surf *ss = &m.surf[i];
        rr_rmesh_render_group(&r, i, &g);
        for (t = 0; t < ss->ntris; t++) {
            uint32_t v[3];
            bad += rr_rmesh_render_triangle(&r, i, t, v) != RR_OK;
            for (c = 0; c < 3; c++)
                bad += v[c] != g->first_vert + ss->idx[3 * t + c];
        }
        bad += rr_rmesh_render_triangle(&r, i, ss->ntris, (uint32_t[3]){0, 0, 0}) != RR_ERR_RANGE;
    }
    RT_EXPECT_EQ("rmesh.wide.render_triangles", bad, 0);
    rr_rmesh_head_get(&r, &h);
    RT_EXPECT_EQ("rmesh.wide.same_triangles", triangles_differ(&r, &rc, h->ntris), 0);
    /* index 0 (group 0's) one past group 0's vertices */
    b = malloc(size);
    memcpy(b, blob, size);
    off = rec_off(b, RR_SEC_RMESH_RGROUPS, sizeof(rr_rmesh_rgroup), 0,
                  (uint32_t)offsetof(rr_rmesh_rgroup, nverts));
    put16(b + ioff, get32(b + off - 4) + get32(b + off));
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.wide.index_past", rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &r, &d),
                 RR_ERR_INDEX);
    RT_EXPECT("rmesh.wide.index_past.diag", d.section == RR_SEC_RMESH_RINDEX && d.record == 0 &&
                                              d.offset == ioff);
    free(b);
    free(blob);
    free(coblob);
    free(be);
    rrb_rmesh_free(&m);
}

/* A full blob's 16-bit numbers, each limit refused by the baker with a
 * message that names the file and the limit, while --collision-only
 * still bakes the room:
 * - render vertex numbers (RINDEX): surfaces 2 and 3 made 40,000 distinct
 *   points each (no triangles), 80,000 render vertices;
 * - position numbers (collision vertices + render-only positions): those
 *   surfaces 20,000 points each, and an invisible mesh of 10,000 triangles
 *   with 30,000 vertices of its own (no render vertices);
 * - triangle keys (render triangles + explicit triangles): an alpha
 *   surface (no collision) of 70,000 triangles. */
static void bake_limit(rrb_rmesh *m, const char *id, const char *what)
{
    rrb_opts o;
    char err[RRB_ERR_MAX], name[96];
    rrb_blob *b = rrb_rmesh_bake_model(m, "many.rmesh", NULL, err, sizeof err);
    snprintf(name, sizeof name, "rmesh.limit.%s", id);
    RT_EXPECT(name, b == NULL && strstr(err, "many.rmesh: ") == err && strstr(err, what) != NULL);
    if (b == NULL && strstr(err, what) == NULL)
        plat_printf("# %s: %s\n", name, err);
    rrb_blob_free(b);
    memset(&o, 0, sizeof o);
    o.collision_only = 1;
    b = rrb_rmesh_bake_model(m, "many.rmesh", &o, err, sizeof err);
    snprintf(name, sizeof name, "rmesh.limit.%s_colonly", id);
    RT_EXPECT(name, b != NULL);
    rrb_blob_free(b);
}

static void check_position_limit(void)
{
    rrb_rmesh m;
    rrb_rm_vert *keep[2], *big[2];
    rrb_rm_mesh *keep_inv, inv;
    uint32_t nkeep[2], ntkeep[2], i, s, *keep_idx, nkeep_inv;
    rrb_rmesh_sample_model(&m);
    for (s = 0; s < 2; s++) {   /* surfaces 2 and 3: 40,000 distinct points each, no triangles */
        keep[s] = m.surf[2 + s].verts, nkeep[s] = m.surf[2 + s].nverts;
        ntkeep[s] = m.surf[2 + s].ntris;
        big[s] = calloc(40000, sizeof *big[s]);
        for (i = 0; i < 40000; i++) {
            uint32_t n = 40000 * s + i;
            big[s][i].pos[0] = (float)(1000 + n % 50);
            big[s][i].pos[1] = (float)(n / 50 % 50);
            big[s][i].pos[2] = (float)(n / 2500);
        }
        m.surf[2 + s].verts = big[s], m.surf[2 + s].nverts = 40000, m.surf[2 + s].ntris = 0;
    }
    bake_limit(&m, "render_vertices", "65,536 render vertex numbers");
    /* 20,000 each, and 30,000 collision vertices of an invisible mesh:
     * triangle j at (3 (j % 100), 3 (j / 100), 500) + 0, x, y */
    memset(&inv, 0, sizeof inv);
    inv.nverts = 30000, inv.ntris = 10000;
    inv.pos = calloc(3 * 30000, sizeof *inv.pos);
    inv.idx = calloc(3 * 10000, sizeof *inv.idx);
    for (i = 0; i < 30000; i++) {
        uint32_t j = i / 3;
        inv.pos[3 * i] = (float)(3 * (j % 100) + (i % 3 == 1));
        inv.pos[3 * i + 1] = (float)(3 * (j / 100) + (i % 3 == 2));
        inv.pos[3 * i + 2] = 500;
        inv.idx[i] = i;
    }
    keep_inv = m.invis, nkeep_inv = m.ninvis;
    m.invis = &inv, m.ninvis = 1;
    m.surf[2].nverts = m.surf[3].nverts = 20000;
    bake_limit(&m, "positions", "65,536 position numbers");
    m.invis = keep_inv, m.ninvis = nkeep_inv;
    free(inv.pos);
    free(inv.idx);
    for (s = 0; s < 2; s++) {
        m.surf[2 + s].verts = keep[s], m.surf[2 + s].nverts = nkeep[s];
        m.surf[2 + s].ntris = ntkeep[s];
        free(big[s]);
    }
    /* surface 3 (glass, alpha): 70,000 triangles over its four vertices */
    keep_idx = m.surf[3].idx;
    m.surf[3].idx = calloc(3 * 70000, sizeof *m.surf[3].idx);
    for (i = 0; i < 70000; i++)
        m.surf[3].idx[3 * i + 1] = 1, m.surf[3].idx[3 * i + 2] = 2;
    m.surf[3].ntris = 70000;
    bake_limit(&m, "keys", "65,536 triangle keys");
    free(m.surf[3].idx);
    m.surf[3].idx = keep_idx, m.surf[3].ntris = ntkeep[1];
    rrb_rmesh_free(&m);
}

/* Random byte damage in a baked blob, checksum recomputed: rr_open must
 * refuse it or, when the damage is harmless, every query must still run
 * (ASan/UBSan watch for any out-of-bounds read or overflow). */
static void fuzz_blob(const uint8_t *good, size_t size, int rounds)
{
    uint8_t *b = malloc(size);
    uint32_t seed = 777, accepted = 0;
    int n, k;
    for (n = 0; n < rounds; n++) {
        rr_room r;
        memcpy(b, good, size);
        for (k = 0; k < 3; k++) {
            seed = seed * 1103515245u + 12345u;
            b[RR_HEADER_BYTES + (seed >> 8) % (size - RR_HEADER_BYTES)] ^=
                (uint8_t)(1u << ((seed >> 3) & 7));
        }
        reseal(b, size);
        if (rr_open(b, (uint32_t)size, arena, sizeof arena, &r) == RR_OK) {
            rr_rmesh_ray ray = {{0, 0, 0}, {RR_FIX_ONE / 3, -RR_FIX_ONE, RR_FIX_ONE / 5}, 1 << 20};
            rr_rmesh_hit hit;
            rr_rmesh_sweep in = {{0, 6400, 0}, {9000, -3000, 4000}, {2000, 4000, 2000}, 8};
            rr_rmesh_sweep_out out;
            uint32_t items[16], idx;
            rr_rmesh_list l = {items, 16, 0, 0};
            int32_t lo[3] = {-60000, -100, -60000}, hi[3] = {60000, 100, 60000};
            rr_rmesh_raycast(&r, &ray, &hit);
            rr_rmesh_sweep_move(&r, &in, &out);
            rr_rmesh_box_tris(&r, lo, hi, &l);
            rr_rmesh_trigger_at(&r, lo, &idx);
            rr_rmesh_entity_nearest(&r, RR_RMESH_LIGHT, lo, &idx);
            accepted++;
        }
    }
    plat_printf("# blob fuzz: %d damaged blobs, %u still valid, queries ran on them\n", rounds,
                accepted);
    RT_EXPECT("rmesh.blob.fuzz", accepted < (uint32_t)rounds);
    free(b);
}

/* A room with triangles but no surface (the SURFS section emptied, the
 * head's count 0, the blob closed up and resealed): every triangle needs
 * a surface to answer with, so rr_open refuses it at head.nsurfs. Baked
 * --collision-only, so no render group names a surface either. */
static void check_no_surfaces(void)
{
    rrb_rmesh m;
    rrb_opts o;
    uint8_t *blob, *b;
    size_t size;
    uint32_t i, n, off, cut = 0, head;
    rr_room r;
    rr_diag d;
    memset(&o, 0, sizeof o);
    o.collision_only = 1;
    rrb_rmesh_sample_model(&m);
    RT_EXPECT_EQ("rmesh.nosurf.bake", bake(&m, &o, 0, &blob, &size), 0);
    rrb_rmesh_free(&m);
    n = get32(blob + 36);
    off = RR_HEADER_BYTES + n * RR_SECTION_ENTRY_BYTES;   /* the first section */
    b = malloc(size);
    for (i = 0; i < n; i++) {   /* find SURFS: sections follow each other, 4-aligned */
        uint8_t *entry = blob + RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES;
        uint32_t bytes = get32(entry + 4);
        if ((get32(entry) & 0xffffu) == RR_SEC_RMESH_SURFS) {
            cut = bytes;
            put32(entry + 4, 0);
            break;
        }
        off += (bytes + 3u) & ~3u;
    }
    RT_EXPECT("rmesh.nosurf.found", cut > 0 && cut % 4 == 0);
    memcpy(b, blob, off);
    memcpy(b + off, blob + off + cut, size - off - cut);
    size -= cut;
    put32(b + 16, (uint32_t)size);   /* total_size */
    head = sec_off(b, RR_SEC_RMESH_HEAD, NULL);
    put32(b + head + 12, 0);         /* head.nsurfs */
    reseal(b, size);
    RT_EXPECT_EQ("rmesh.nosurf.open", rr_open_diag(b, (uint32_t)size, arena, sizeof arena, &r, &d),
                 RR_ERR_INDEX);
    RT_EXPECT("rmesh.nosurf.where", d.offset == head + 12 && strstr(d.what, "surfaces") != NULL);
    free(b);
    free(blob);
}

int main(int argc, char **argv)
{
    rrb_rmesh m;
    uint8_t *blob, *data;
    size_t size, dsize;
    char path[2048], err[RRB_ERR_MAX];
    const char *c = argc > 1 ? argv[1] : getenv("CORPUS");
    rrb_opts co;
    uint8_t *coblob;
    size_t cosize;
    memset(&co, 0, sizeof co);
    co.collision_only = 1;
    rrb_rmesh_sample_model(&m);
    RT_EXPECT_EQ("rmesh.blob.bake", bake(&m, NULL, 0, &blob, &size), 0);
    RT_EXPECT_EQ("rmesh.blob.bake_co", bake(&m, &co, 0, &coblob, &cosize), 0);
    run_evil(blob, size);
    check_tref(blob, size, coblob, cosize);
    /* TRIS holds every triangle of a collision-only blob (the corners these
     * two move), only the explicit ones of a full blob */
    check_lattice_extremes(coblob, cosize);
    check_long_degenerate(coblob, cosize);
    check_long_degenerate(blob, size);
    free(coblob);
    fuzz_blob(blob, size, 3000);
    check_queries_args(blob, size);
    check_sample_answers(blob, size);
    check_sample_sweeps(blob, size);
    free(blob);
    rrb_rmesh_free(&m);
    check_limits();
    check_render_records();
    check_wide_indices();
    check_position_limit();
    check_no_surfaces();
    snprintf(path, sizeof path, "%s/scpcb-rmesh/173_opt.rmesh", c ? c : "../shared/corpus");
    if (rrb_load_file(path, &data, &dsize, err, sizeof err) == 0 &&
        rrb_rmesh_read(data, dsize, path, &m, err, sizeof err) == 0) {
        RT_EXPECT_EQ("rmesh.blob.bake173", bake(&m, NULL, 0, &blob, &size), 0);
        RT_EXPECT_EQ("rmesh.blob.bake173_co", bake(&m, &co, 0, &coblob, &cosize), 0);
        run_evil(blob, size);
        check_tref(blob, size, coblob, cosize);
        free(coblob);
        fuzz_blob(blob, size, 150);
        free(blob);
        rrb_rmesh_free(&m);
        free(data);
    } else {
        RT_EXPECT("rmesh.blob.load173", 0);
    }
    return rt_done("test_rmesh_blob");
}

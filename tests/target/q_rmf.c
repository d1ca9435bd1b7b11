/* q_rmf.c - the per-room query set of t_rmf (and of the RMF goldens,
 * tests/target/g_room.c): open one blob, run a deterministic query set
 * (rt_rand, tests/rr_test.h) through rr_rmf_point_contents, rr_rmf_trace
 * (ray and box) and rr_rmf_find_entity, and print the results (every 64th in
 * full, all of them in a hash); the runner compares the output byte for byte
 * with the host's, whose answers test_rmf_bake checks against a
 * double-precision reference. Invariants (a ray never ends in solid, the
 * fraction is in [0, 1]), the sample map's known answers and the equal
 * answers of the Sledge files (t_rmf's v08 ... v22) are checked here. */
#include "rr.h"
#include "rr_rmf.h"
#include "rr_test.h"
#include "rr_test_blobs.h"
#include "q_room.h"

#define NQUERIES (1024 * Q_SCALE)
#define PRINT_EVERY 64

static uint32_t arena[1024];  /* 4 KB (microbit has 16 KB RAM): soccer needs 2.3 KB */
/* The Sledge files v08 ... v22 hold the same three solids: same answers. */
static uint32_t sledge_hash[2];

static void pick_point(const rr_rmf_header *h, int32_t p[3])
{
    int k;
    for (k = 0; k < 3; k++)
        p[k] = rt_pick(h->mins[k], h->maxs[k], 4);
}

static uint32_t mix(uint32_t h, uint32_t v)
{
    return (h ^ v) * 16777619u;
}

static void same_as_sledge(const char *name, int which, uint32_t h)
{
    if (name[0] != 'v' || name[1] < '0' || name[1] > '9')
        return;
    if (!sledge_hash[which])
        sledge_hash[which] = h;
    RT_EXPECT_EQ(which ? "rmf.t.sledge_same_traces" : "rmf.t.sledge_same_points", h,
                 sledge_hash[which]);
}

static void run_points(const char *name, const rr_room *room, const rr_rmf_header *hd)
{
    uint32_t h = 2166136261u, solid = 0, items[16];
    int i;
    rt_seed = 0x2545f491u;
    for (i = 0; i < NQUERIES; i++) {
        int32_t p[3];
        uint32_t c = 0, j, acc = 0;
        rr_rmf_list l = {items, 16, 0, 0};
        pick_point(hd, p);
        RT_EXPECT_EQ("rmf.t.contents", rr_rmf_point_contents(room, p, &c), RR_OK);
        RT_EXPECT_EQ("rmf.t.brushes", rr_rmf_point_brushes(room, p, &l), RR_OK);
        for (j = 0; j < l.count; j++) {
            const rr_rmf_brush *b;
            rr_rmf_get_brush(room, items[j], &b);
            acc |= b->contents;
            h = mix(h, items[j]);
        }
        RT_EXPECT("rmf.t.contents_or", l.total > l.count || acc == c);
        solid += (c & RR_RMF_SOLID) != 0;
        h = mix(mix(h, c), l.total);
        if (i % PRINT_EVERY == 0)
            plat_printf("%s p%d (%ld %ld %ld): contents %lu brushes %lu\n", name, i,
                        (long)p[0], (long)p[1], (long)p[2], (unsigned long)c,
                        (unsigned long)l.total);
    }
    plat_printf("%s %d points, %lu solid, hash %08lx\n", name, NQUERIES,
                (unsigned long)solid, (unsigned long)h);
    same_as_sledge(name, 0, h);
}

static void check_trace(const rr_room *room, const rr_rmf_trace_result *t, int box)
{
    uint32_t c = 0;
    RT_EXPECT("rmf.t.fraction", t->fraction >= 0 && t->fraction <= RR_FIX_ONE);
    RT_EXPECT("rmf.t.hit_fields", (t->brush < 0) == (t->fraction == RR_FIX_ONE) ||
                                      t->all_solid);
    if (!box && !t->start_solid) {
        rr_rmf_point_contents(room, t->end, &c);
        RT_EXPECT("rmf.t.ray_end_not_solid", (c & RR_RMF_SOLID) == 0);
    }
}

static void run_traces(const char *name, const rr_room *room, const rr_rmf_header *hd)
{
    uint32_t h = 2166136261u, hits = 0;
    int32_t half[3];
    int i, k;
    rt_seed = 0x9e3779b9u;
    for (k = 0; k < 3; k++)  /* a player-sized box, 1/64 of the map at most */
        half[k] = (hd->maxs[k] - hd->mins[k]) / 64 + 1;
    for (i = 0; i < NQUERIES; i++) {
        int32_t a[3], b[3];
        rr_rmf_trace_result t;
        int box = i & 1;
        pick_point(hd, a);
        pick_point(hd, b);
        RT_EXPECT_EQ("rmf.t.trace", rr_rmf_trace(room, a, b, box ? half : 0, RR_RMF_SOLID, &t),
                     RR_OK);
        check_trace(room, &t, box);
        hits += t.brush >= 0;
        h = mix(mix(mix(h, (uint32_t)t.fraction), (uint32_t)t.brush), (uint32_t)t.plane);
        for (k = 0; k < 3; k++)
            h = mix(h, (uint32_t)t.end[k]);
        h = mix(h, (uint32_t)(t.start_solid | t.all_solid << 1));
        if (i % PRINT_EVERY == 0)
            plat_printf("%s t%d %s: fraction %08lx end (%ld %ld %ld) brush %ld normal "
                        "(%ld %ld %ld) contents %lu solid %d/%d\n", name, i, box ? "box" : "ray",
                        (unsigned long)t.fraction, (long)t.end[0], (long)t.end[1],
                        (long)t.end[2], (long)t.brush, (long)t.normal.x, (long)t.normal.y,
                        (long)t.normal.z, (unsigned long)t.contents, t.start_solid, t.all_solid);
    }
    plat_printf("%s %d traces, %lu hits, hash %08lx\n", name, NQUERIES, (unsigned long)hits,
                (unsigned long)h);
    same_as_sledge(name, 1, h);
}

static void run_entities(const char *name, const rr_room *room)
{
    static const char *const classes[] = {"worldspawn", "info_player_start", "light",
                                          "func_water", "trigger_multiple", "func_door"};
    unsigned i;
    for (i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        uint32_t at = 0, n = 0, first = 0xffffffffu, e;
        while (rr_rmf_find_entity(room, "classname", classes[i], at, &e) == RR_OK) {
            if (!n)
                first = e;
            n++;
            at = e + 1;
        }
        plat_printf("%s entities %s: %lu (first %ld)\n", name, classes[i], (unsigned long)n,
                    (long)(int32_t)first);
    }
}

/* The sample map (tools/rrb_rmf_write.c): known answers, coord_frac 8. */
static void check_sample(const rr_room *room)
{
    static const int32_t water[3] = {128 * 256, 128 * 256, 24 * 256};
    static const int32_t trig[3] = {0, 160 * 256, 64 * 256};
    static const int32_t wall[3] = {-264 * 256, 0, 128 * 256};
    static const int32_t a[3] = {0, 0, 128 * 256}, b[3] = {0, -400 * 256, 128 * 256};
    static const int32_t half[3] = {16 * 256, 16 * 256, 36 * 256};
    rr_rmf_trace_result t;
    uint32_t c, e;
    rr_rmf_point_contents(room, water, &c);
    RT_EXPECT_EQ("rmf.t.sample.water", c, RR_RMF_WATER);
    rr_rmf_point_contents(room, trig, &c);
    RT_EXPECT_EQ("rmf.t.sample.trigger", c, RR_RMF_TRIGGER);
    rr_rmf_point_contents(room, wall, &c);
    RT_EXPECT_EQ("rmf.t.sample.wall", c, RR_RMF_SOLID);
    rr_rmf_trace(room, a, b, 0, RR_RMF_SOLID, &t);   /* into the -y wall at y = -256 */
    /* eps = 1/32 unit = 8 coords in front; the end is rounded toward the start */
    RT_EXPECT("rmf.t.sample.ray_end_y", t.end[1] >= -256 * 256 + 8 && t.end[1] <= -256 * 256 + 9);
    RT_EXPECT_EQ("rmf.t.sample.ray_normal_y", t.normal.y, RR_FIX_ONE);
    rr_rmf_trace(room, a, b, half, RR_RMF_SOLID, &t);  /* box stops 16 units earlier */
    RT_EXPECT("rmf.t.sample.box_end_y", t.end[1] >= -240 * 256 + 8 && t.end[1] <= -240 * 256 + 9);
    RT_EXPECT_EQ("rmf.t.sample.spawn", rr_rmf_find_entity(room, "targetname", "spawn1", 0, &e),
                 RR_OK);
}

/* One room: open, counts, points, traces, entities (and the sample map's
 * known answers). */
void q_rmf_room(const rr_test_blob *tb)
{
    rr_room room;
    rr_diag d;
    rr_rmf_counts n;
    const rr_rmf_header *hd;
    uint32_t cnt;
    rr_err e = rr_open_diag(tb->data, tb->size, arena, sizeof arena, &room, &d);
    RT_EXPECT_EQ("rmf.t.open", e, RR_OK);
    if (e) {
        plat_printf("%s: open failed: %s (%s)\n", tb->name, rr_strerror(e), d.what);
        return;
    }
    rr_rmf_get_counts(&room, &n);
    rr_section(&room, RR_SEC_RMF_HEADER, (const void **)&hd, &cnt);
    plat_printf("%s: rmf %lu, %lu bytes, frac %lu, %lu planes, %lu brushes, %lu nodes, "
                "depth %lu, %lu entities\n", tb->name, (unsigned long)n.version,
                (unsigned long)tb->size, (unsigned long)room.coord_frac,
                (unsigned long)n.planes, (unsigned long)n.brushes, (unsigned long)n.nodes,
                (unsigned long)n.tree_depth, (unsigned long)n.entities);
    run_points(tb->name, &room, hd);
    run_traces(tb->name, &room, hd);
    run_entities(tb->name, &room);
    if (tb->name[0] == 's' && tb->name[1] == 'a')
        check_sample(&room);
}

int q_rmf_done(const char *suite)
{
    return rt_done(suite);
}

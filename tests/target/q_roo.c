/* q_roo.c - the per-room query set of t_roo (and of the roo goldens, see
 * tests/target/g_room.c): open one blob, print its counts, run a
 * deterministic point set (rt_rand, tests/rr_test.h) through rr_roo_locate /
 * rr_roo_height, moves / sight lines through rr_roo_can_move /
 * rr_roo_line_of_sight, render order and grid cells, and print the results;
 * the runner compares the output byte for byte with the host's (whose
 * answers test_roo_query checks against a double-precision reference). The
 * sample room's answers are also checked here, by hand value. */
#include "rr.h"
#include "rr_roo.h"
#include "rr_test.h"
#include "rr_test_blobs.h"
#include "q_room.h"

#define NPOINTS (2048 * Q_SCALE)
#define PRINT_EVERY 64
#define NMOVES (256 * Q_SCALE)

static uint32_t arena[128]; /* >= the view (128) + RR_ROO_ARENA_STATE (152) + 2 * (RR_MAX_DEPTH + 1) bytes */

static void run_points(const char *name, const rr_room *room, const rr_roo_info *info)
{
    uint32_t h = 2166136261u, outside = 0;
    int i;
    rt_seed = 0x2545f491u;
    for (i = 0; i < NPOINTS; i++) {
        int32_t x = rt_pick(info->rect[0], info->rect[2], 2), y = rt_pick(info->rect[1], info->rect[3], 2);
        rr_roo_where w;
        rr_roo_heights ht;
        rr_err e = rr_roo_locate(room, x, y, &w);
        rr_err e2 = rr_roo_height(room, x, y, &ht);
        RT_EXPECT("roo.t.same_sector", e == e2 && ht.sector == w.sector);
        if (e != RR_OK)
            outside++;
        h = (h ^ (uint32_t)w.sector) * 16777619u;
        h = (h ^ (uint32_t)w.node) * 16777619u;
        h = (h ^ (uint32_t)ht.floor) * 16777619u;
        h = (h ^ (uint32_t)ht.ceiling) * 16777619u;
        if (i % PRINT_EVERY == 0)
            plat_printf("%s p%d (%ld, %ld): %d sector %ld leaf %ld floor %ld surface %ld "
                        "ceiling %ld flags %lx\n", name, i, (long)x, (long)y, (int)e,
                        (long)w.sector, (long)w.leaf, (long)ht.floor, (long)ht.floor_surface,
                        (long)ht.ceiling, (unsigned long)ht.flags);
    }
    plat_printf("%s %d points, %lu outside, hash %08lx\n", name, NPOINTS,
                (unsigned long)outside, (unsigned long)h);
}

/* Moves (radius, step, height cycling over small tables) and sight lines
 * between random points, folded into a hash; every 32nd printed. */
static void run_moves(const char *name, const rr_room *room, const rr_roo_info *info)
{
    static const int32_t radius[3] = {0, 64, 256}, step[3] = {0, 256, 1024},
                         height[3] = {0, 1024, 2048};
    uint32_t h = 2166136261u, blocked = 0, hidden = 0;
    int32_t f = (int32_t)room->coord_frac;
    int i;
    rt_seed = 0x9e3779b9u;
    for (i = 0; i < NMOVES; i++) {
        int32_t a[3], b[3];
        rr_roo_move m;
        rr_roo_sight s;
        a[0] = rt_pick(info->rect[0], info->rect[2], 2), a[1] = rt_pick(info->rect[1], info->rect[3], 2);
        b[0] = a[0] + (int32_t)(rt_rand() % 8192u) * (1 << f) - 4096 * (1 << f);
        b[1] = a[1] + (int32_t)(rt_rand() % 8192u) * (1 << f) - 4096 * (1 << f);
        a[2] = (int32_t)(rt_rand() % 4096u) * (1 << f);
        b[2] = (int32_t)(rt_rand() % 4096u) * (1 << f);
        RT_EXPECT_EQ("roo.t.move", rr_roo_can_move(room, a[0], a[1], b[0], b[1],
                                                   radius[i % 3] * (1 << f),
                                                   step[(i / 3) % 3] * (1 << f),
                                                   height[(i / 9) % 3] * (1 << f), &m), RR_OK);
        RT_EXPECT_EQ("roo.t.sight", rr_roo_line_of_sight(room, a, b, &s), RR_OK);
        if (i % 4 == 0) {
            rr_roo_move m1, m2;
            RT_EXPECT_EQ("roo.t.slide", rr_roo_slide(room, a[0], a[1], b[0], b[1],
                                                     64 * (1 << f), 0, 0, &m1, &m2), RR_OK);
            h = (h ^ (uint32_t)m2.x) * 16777619u;
            h = (h ^ (uint32_t)m2.y) * 16777619u;
        }
        blocked += m.block != RR_ROO_FREE;
        hidden += !s.visible;
        h = (h ^ (uint32_t)m.block) * 16777619u;
        h = (h ^ (uint32_t)m.wall) * 16777619u;
        h = (h ^ (uint32_t)m.fraction) * 16777619u;
        h = (h ^ (uint32_t)s.wall) * 16777619u;
        h = (h ^ (uint32_t)s.fraction) * 16777619u;
        if (i % 32 == 0)
            plat_printf("%s m%d (%ld, %ld) -> (%ld, %ld): block %ld wall %ld frac %ld at (%ld, %ld)"
                        "; sight %d wall %ld frac %ld\n", name, i, (long)a[0], (long)a[1],
                        (long)b[0], (long)b[1], (long)m.block, (long)m.wall, (long)m.fraction,
                        (long)m.x, (long)m.y, s.visible, (long)s.wall, (long)s.fraction);
    }
    plat_printf("%s %d moves, %lu blocked, %lu sight lines hidden, hash %08lx\n", name, NMOVES,
                (unsigned long)blocked, (unsigned long)hidden, (unsigned long)h);
}

/* Render order from a few viewpoints (hash of the whole order) and grid
 * cells under a few points. */
static uint16_t order[4096];

static void run_order_grids(const char *name, const rr_room *room, const rr_roo_info *info)
{
    uint32_t h = 2166136261u, count = 0, k;
    int i;
    rt_seed = 0x1234567u;
    for (i = 0; i < 16; i++) {
        int32_t x = rt_pick(info->rect[0], info->rect[2], 2), y = rt_pick(info->rect[1], info->rect[3], 2);
        rr_roo_cell c;
        rr_err e = rr_roo_leaf_order(room, x, y, order, sizeof order / sizeof order[0], &count);
        RT_EXPECT_EQ("roo.t.order", e, RR_OK);
        RT_EXPECT_EQ("roo.t.order_count", count, info->leaves);
        for (k = 0; k < count && k < sizeof order / sizeof order[0]; k++)
            h = (h ^ order[k]) * 16777619u;
        e = rr_roo_grid_at(room, x, y, &c);
        if (e == RR_OK)
            h = (h ^ (c.move | (uint32_t)c.flags << 8 | (uint32_t)c.monster << 16)) * 16777619u,
            h = (h ^ c.hires) * 16777619u;
        if (i % 4 == 0)
            plat_printf("%s view (%ld, %ld): first leaves %u %u %u; grid %d move %x flags %x "
                        "monster %x hires %lx\n", name, (long)x, (long)y, order[0],
                        count > 1 ? order[1] : 0, count > 2 ? order[2] : 0, (int)e,
                        e ? 0 : c.move, e ? 0 : c.flags, e ? 0 : c.monster,
                        (unsigned long)(e ? 0 : c.hires));
    }
    plat_printf("%s order/grid hash %08lx\n", name, (unsigned long)h);
}

/* The sample room (tools/rrb_roo_write.c drawing), in client units. */
static void check_sample(const rr_room *room)
{
    static const struct { int32_t x, y, sector, floor, ceil; } want[] = {
        {1000, 1000, 0, 0, 2048}, {3000, 1000, 1, 238, 4096}, {2048, 1000, 1, 0, 4096},
        {2500, 3000, 2, 256 - 409, 2048}, {3500, 3000, 3, 0, 1024}, {-5, 100, -1, 0, 0}};
    unsigned i, f = room->coord_frac;
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        rr_roo_heights h;
        rr_err e = rr_roo_height(room, want[i].x * (1 << f), want[i].y * (1 << f), &h);
        RT_EXPECT_EQ("roo.t.sample.code", e, want[i].sector < 0 ? RR_ERR_NOTFOUND : RR_OK);
        RT_EXPECT_EQ("roo.t.sample.sector", h.sector, want[i].sector);
        RT_EXPECT_EQ("roo.t.sample.floor", h.floor, want[i].floor * (1 << f));
        RT_EXPECT_EQ("roo.t.sample.ceiling", h.ceiling, want[i].ceil * (1 << f));
    }
}

/* One room: open, counts, the three query sets. */
void q_roo_room(const rr_test_blob *b)
{
    rr_room room;
    rr_roo_info info;
    rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &room);
    plat_printf("open %s (%u bytes) = %d\n", b->name, b->size, (int)e);
    RT_EXPECT_EQ("roo.t.open", e, RR_OK);
    if (e != RR_OK)
        return;
    RT_EXPECT_EQ("roo.t.info", rr_roo_get_info(&room, &info), RR_OK);
    plat_printf("%s v%lu frac %lu: %lu nodes %lu leaves %lu sectors %lu slopes %lu walls "
                "depth %lu rect %ld %ld %ld %ld grid %ldx%ld security %d\n", b->name,
                (unsigned long)info.version, (unsigned long)room.coord_frac,
                (unsigned long)info.nodes, (unsigned long)info.leaves,
                (unsigned long)info.sectors, (unsigned long)info.slopes,
                (unsigned long)info.walls, (unsigned long)info.bsp_depth,
                (long)info.rect[0], (long)info.rect[1], (long)info.rect[2],
                (long)info.rect[3], (long)info.grid_rows, (long)info.grid_cols,
                info.security_ok);
    if (b->name[0] == 's' && b->name[1] == 'a')
        check_sample(&room);
    run_points(b->name, &room, &info);
    run_moves(b->name, &room, &info);
    run_order_grids(b->name, &room, &info);
}

int q_roo_done(const char *suite)
{
    return rt_done(suite);
}

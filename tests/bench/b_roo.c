/* b_roo.c - instruction counts of the Meridian 59 room queries (loader/rr_roo.h)
 * on the largest corpus rooms, each against a brute-force variant measured
 * in the same run on the same query points:
 *   locate         rr_roo_locate (BSP descent)   vs  locate_bf: every leaf
 *                  polygon tested in turn (no such function in the loader;
 *                  written here: the first leaf whose convex polygon holds the
 *                  point, 64-bit edge cross products, on the boundary counts)
 *   height         rr_roo_height                 vs  height_bf: locate_bf +
 *                  rr_roo_sector_height
 *   can_move       rr_roo_can_move (BSP walk)    vs  rr_roo_can_move_all
 *   sight          rr_roo_line_of_sight          vs  rr_roo_line_of_sight_all
 * Query points: NQ points inside random leaves (a random convex combination
 * of the leaf polygon's corners), moves from such a point by up to +-1536
 * client units in x and y (radius 64, step 256, height 256 client units),
 * sight lines from 128 units above the floor at such a point to a point up
 * to +-3072 units away in x and y and +-256 in z. The same xorshift seed on
 * every board. The program also prints how many answers agree between the
 * two variants (they must: the brute-force functions are the reference).
 * Protocol: "BENCH <label> <units> <baseline>" before each region (see
 * tests/bench/bench.sh). The program also prints the mean depth of the
 * located leaves (nodes visited per locate). */
#include "rr.h"
#include "rr_roo.h"
#include "rr_roo_blob.h"
#include "rr_plat.h"
#include "rr_test.h"
#include "rr_test_blobs.h"

#define NQ 64

/* Uniform in [-m, m]. */
static int32_t spread(int32_t m)
{
    return (int32_t)(rt_rand() % (2u * (uint32_t)m + 1u)) - m;
}

static uint32_t arena[512];
static volatile int32_t sink;

/* The leaf polygons of the (full) blob: corner k of leaf i is the point
 * v = corners[polys[i].first + k].vert: a wall point (v < nwall) or
 * verts[v - nwall]. */
typedef struct rooms {
    const rr_roo_leaf_rec *leaves;
    const rr_roo_polygon_rec *polys;
    const rr_roo_corner_rec *corners;
    const rr_roo_vert_rec *verts, *wall;
    uint32_t nleaves, nwall;
} rooms;

static const rr_roo_vert_rec *corner(const rooms *r, const rr_roo_polygon_rec *l, uint32_t k)
{
    uint32_t v = r->corners[l->first + k].vert;
    return v < r->nwall ? &r->wall[v] : &r->verts[v - r->nwall];
}

/* Brute-force locate: the first leaf whose polygon contains (x, y). */
__attribute__((noinline)) static int32_t locate_bf(const rooms *r, int32_t x, int32_t y)
{
    uint32_t i, k;
    for (i = 0; i < r->nleaves; i++) {
        const rr_roo_polygon_rec *l = &r->polys[i];
        int pos = 0, neg = 0;
        for (k = 0; k < l->count; k++) {
            const rr_roo_vert_rec *a = corner(r, l, k), *b = corner(r, l, k + 1 < l->count ? k + 1 : 0);
            int64_t c = (int64_t)(b->x - a->x) * (y - a->y) - (int64_t)(b->y - a->y) * (x - a->x);
            pos |= c > 0;
            neg |= c < 0;
            if (pos && neg)
                break;
        }
        if (!(pos && neg) && l->count >= 3)
            return (int32_t)r->leaves[i].sector;
    }
    return -1;
}

/* A point strictly inside a random leaf (weights 1..256 on every corner). */
static void leaf_point(const rooms *r, int32_t *x, int32_t *y)
{
    const rr_roo_polygon_rec *l;
    int64_t sx = 0, sy = 0, sw = 0;
    uint32_t k;
    do
        l = &r->polys[rt_rand() % r->nleaves];
    while (l->count < 3);
    for (k = 0; k < l->count; k++) {
        int64_t w = (int64_t)(rt_rand() % 256u) + 1;
        sx += w * corner(r, l, k)->x;
        sy += w * corner(r, l, k)->y;
        sw += w;
    }
    *x = (int32_t)(sx / sw);
    *y = (int32_t)(sy / sw);
}

/* One room's queries and what its run needs. The room comes last, so the
 * offsets of the query points (loaded inside each measured region) do not
 * move when rr_room grows. */
typedef struct bench {
    rooms r;
    uint8_t leaf_depth[4096]; /* depth of each leaf (root = 1) */
    int32_t px[NQ], py[NQ], mx[NQ], my[NQ], sa[NQ][3], sb[NQ][3];
    int32_t f;
    uint32_t depth_sum;
    rr_room room;
} bench;

static const char *const kinds[4][2] = {
    {"locate", "locate_bf"}, {"height", "height_bf"},
    {"can_move", "can_move_all"}, {"sight", "sight_all"}};

/* One measured region around exactly the statement given. */
#define TIMED(stmt)        \
    do {                   \
        rr_bench_start();  \
        stmt;              \
        rr_bench_stop();   \
    } while (0)

/* Query i of one kind, tree (brute = 0) or brute force, as one measured
 * region; returns a digest of the answer to compare the two. */
static int32_t query(bench *q, int kind, int brute, uint32_t i)
{
    int32_t s = 0, f = q->f;
    rr_roo_where w;
    rr_roo_heights h;
    rr_roo_move m;
    rr_roo_sight v;
    h.floor = 0;
    switch (kind * 2 + brute) {
    case 0: TIMED(rr_roo_locate(&q->room, q->px[i], q->py[i], &w)); break;
    case 1: TIMED(s = locate_bf(&q->r, q->px[i], q->py[i])); break;
    case 2: TIMED(rr_roo_height(&q->room, q->px[i], q->py[i], &h)); break;
    case 3:
        TIMED(if ((s = locate_bf(&q->r, q->px[i], q->py[i])) >= 0)
                  rr_roo_sector_height(&q->room, s, q->px[i], q->py[i], &h));
        break;
    case 4:
        TIMED(rr_roo_can_move(&q->room, q->px[i], q->py[i], q->mx[i], q->my[i], 64 << f,
                              256 << f, 256 << f, &m));
        break;
    case 5:
        TIMED(rr_roo_can_move_all(&q->room, q->px[i], q->py[i], q->mx[i], q->my[i], 64 << f,
                                  256 << f, 256 << f, &m));
        break;
    case 6: TIMED(rr_roo_line_of_sight(&q->room, q->sa[i], q->sb[i], &v)); break;
    default: TIMED(rr_roo_line_of_sight_all(&q->room, q->sa[i], q->sb[i], &v)); break;
    }
    switch (kind) {
    case 0:
        if (!brute && w.leaf >= 0)
            q->depth_sum += q->leaf_depth[w.leaf];
        return brute ? s : w.sector;
    case 1: return h.floor;
    case 2: return m.x ^ (m.y << 3) ^ m.block ^ m.wall;
    default: return v.visible ^ (v.wall << 1) ^ v.fraction;
    }
}

/* Every query of one kind with the tree, then by brute force; returns how
 * many answers agree. */
static uint32_t measure(bench *q, int kind, const char *name)
{
    int32_t first[NQ];
    uint32_t i, agree = 0;
    for (i = 0; i < NQ; i++) {
        plat_printf("BENCH roo.%s:%s 0 roo.%s:%s\n", kinds[kind][0], name, kinds[kind][1],
                    name);
        first[i] = query(q, kind, 0, i);
    }
    for (i = 0; i < NQ; i++) {
        plat_printf("BENCH roo.%s:%s 0 -\n", kinds[kind][1], name);
        agree += query(q, kind, 1, i) == first[i];
    }
    return agree;
}

/* The query points (see the top of the file). */
static void make_queries(bench *q)
{
    uint32_t i;
    int32_t f = q->f;
    rt_seed = 0x2545f491u;
    for (i = 0; i < NQ; i++) {
        rr_roo_heights h;
        leaf_point(&q->r, &q->px[i], &q->py[i]);
        q->mx[i] = q->px[i] + spread(1536) * (1 << f);
        q->my[i] = q->py[i] + spread(1536) * (1 << f);
        q->sa[i][0] = q->px[i];
        q->sa[i][1] = q->py[i];
        q->sa[i][2] = (rr_roo_height(&q->room, q->px[i], q->py[i], &h) == RR_OK ? h.floor : 0) +
                      (128 << f);
        q->sb[i][0] = q->px[i] + spread(3072) * (1 << f);
        q->sb[i][1] = q->py[i] + spread(3072) * (1 << f);
        q->sb[i][2] = q->sa[i][2] + spread(256) * (1 << f);
    }
}

static void bench_room(const rr_test_blob *b)
{
    static bench q;
    rr_roo_info info;
    const void *d;
    static uint8_t node_depth[RR_ROO_MAX_TREE + 1]; /* internal node (1-based) -> depth */
    uint32_t agree[4], nn;
    int k;
    rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &q.room);
    if (e) {
        plat_printf("%s: rr_open: %s\n", b->name, rr_strerror(e));
        return;
    }
    rr_roo_get_info(&q.room, &info);
    rr_section(&q.room, RR_SEC_ROO_LEAVES, &d, &q.r.nleaves);
    q.r.leaves = d;
    rr_section(&q.room, RR_SEC_ROO_POLYGONS, &d, &nn);
    q.r.polys = d;
    rr_section(&q.room, RR_SEC_ROO_CORNERS, &d, &nn);
    q.r.corners = d;
    rr_section(&q.room, RR_SEC_ROO_VERTS, &d, &nn);
    q.r.verts = d;
    rr_section(&q.room, RR_SEC_ROO_WALL_POINTS, &d, &q.r.nwall);
    q.r.wall = d;
    rr_section(&q.room, RR_SEC_ROO_NODES, &d, &nn);
    node_depth[1] = 1; /* the root; children come after their parents */
    for (k = 0; k < (int)nn; k++) { /* a child lies one level below its parent */
        const rr_roo_node_rec *p = (const rr_roo_node_rec *)d + k;
        uint8_t depth = (uint8_t)(node_depth[k + 1] + 1);
        if (p->pos && !(p->pos & RR_ROO_CHILD_LEAF))
            node_depth[p->pos] = depth;
        if (p->neg && !(p->neg & RR_ROO_CHILD_LEAF))
            node_depth[p->neg] = depth;
        if (p->pos & RR_ROO_CHILD_LEAF)
            q.leaf_depth[(p->pos & ~RR_ROO_CHILD_LEAF) % 4096u] = depth;
        if (p->neg & RR_ROO_CHILD_LEAF)
            q.leaf_depth[(p->neg & ~RR_ROO_CHILD_LEAF) % 4096u] = depth;
    }
    if (nn == 0)
        q.leaf_depth[0] = 1;
    q.f = (int32_t)q.room.coord_frac;
    q.depth_sum = 0;
    plat_printf("%s: version %lu, %lu nodes, %lu leaves, %lu walls, %lu sectors, depth %lu\n",
                b->name, (unsigned long)info.version, (unsigned long)info.nodes,
                (unsigned long)info.leaves, (unsigned long)info.walls,
                (unsigned long)info.sectors, (unsigned long)info.bsp_depth);
    make_queries(&q);
    for (k = 0; k < 4; k++)
        agree[k] = measure(&q, k, b->name);
    plat_printf("%s: located leaves lie %lu.%02lu nodes deep on average\n", b->name,
                (unsigned long)(q.depth_sum / NQ), (unsigned long)(q.depth_sum % NQ * 100 / NQ));
    plat_printf("%s: tree and brute force agree: locate %lu/%d, height %lu/%d, "
                "can_move %lu/%d, sight %lu/%d\n", b->name, (unsigned long)agree[0], NQ,
                (unsigned long)agree[1], NQ, (unsigned long)agree[2], NQ,
                (unsigned long)agree[3], NQ);
}

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        bench_room(&rr_test_blobs[i]);
    return 0;
}

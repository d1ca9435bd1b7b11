/* test_roo_query.c - baked .roo blobs: rr_open validation (good and evil
 * blobs) and the locate / height queries against a double-precision
 * reference built from the source file (not from the blob).
 *
 * Reference (NOTES.md §1.12, §7.1, §7.3):
 *   walk:   the client's BSPFindLeafByPoint on the file's own a, b, c in double;
 *           v12/13 (integers) must agree exactly on every point; v14/15 (f32
 *           coefficients rounded by the baker) must agree wherever
 *           |a*x + b*y + c| > 2^-24 * (|a*x| + |b*y| + |c|).
 *   polygon: every point more than 1 client unit inside a leaf polygon must
 *           locate to that leaf's sector.
 *   height: flat = file height * 16, slope z = -(a*x + b*y + d)/c in double,
 *           minus {0, 204, 409, 614} for the depth bits; tolerance 1 coord step
 *           (2^-coord_frac client units) + 1e-6 * |z|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_roo.h"
#include "rr_roo_blob.h"
#include "rr_test.h"
#include "rrb_roo.h"

#define NPOINTS 5000
#define NINSIDE 3000

static const char *const corpus_files[] = {
    "v12_MarDun02", "v12_guest5", "v12_i7", "v12_outgrace", "v13_g6", "v13_guildh5",
    "v13_jashall", "v13_jixabc", "v14_cornoth", "v14_elementaldungeon", "v14_marhall",
    "v14_outgrace", "v15_a5", "v15_h3", "v15_jasab7"};
#define NFILES (sizeof corpus_files / sizeof corpus_files[0])

static char id[256];
static const char *cid(const char *file, const char *what)
{
    snprintf(id, sizeof id, "roo.q.%s.%s", file, what);
    return id;
}

static int expect(const char *case_id, int cond)
{
    RT_EXPECT(case_id, cond);
    return cond;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t xs(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static double urand(void) { return (double)(xs() >> 11) / 9007199254740992.0; }

typedef struct baked {
    uint8_t *blob;
    size_t size;
    rr_room room;
    double scale; /* 2^coord_frac */
} baked;

static int bake(const rrb_roo *r, const char *name, int big_endian, baked *b)
{
    char err[RRB_ERR_MAX];
    rrb_blob *bl = rrb_roo_bake_model(r, 0, name, NULL, err, sizeof err);
    memset(b, 0, sizeof *b);
    if (!bl) {
        printf("  bake %s: %s\n", name, err);
        return -1;
    }
    int rc = rrb_blob_finish(bl, big_endian, &b->blob, &b->size);
    rrb_blob_free(bl);
    return rc;
}

/* Reference walk: -1 = outside, else the 0-based node of the leaf. */
static int ref_walk(const rrb_roo *r, double x, double y, double *min_rel, int *left)
{
    uint32_t n = 1;
    *min_rel = INFINITY;
    *left = -1; /* outside: the 0-based node whose child is missing */
    if (!r->nnodes)
        return -1;
    for (;;) {
        const rrb_roo_node *p = &r->nodes[n - 1];
        if (p->type == RRB_ROO_NODE_LEAF)
            return (int)n - 1;
        double s = p->a * x + p->b * y + p->c;
        double mag = fabs(p->a * x) + fabs(p->b * y) + fabs(p->c);
        if (mag > 0 && fabs(s) / mag < *min_rel)
            *min_rel = fabs(s) / mag;
        uint32_t next = s > 0 ? p->pos : s < 0 ? p->neg : (p->pos ? p->pos : p->neg);
        if (!next) {
            *left = (int)n - 1;
            return -1;
        }
        n = next;
    }
}

static double ref_plane(const rrb_roo_slope *s, double x, double y)
{
    return -(s->a * x + s->b * y + s->d) / s->c;
}

static void ref_heights(const rrb_roo *r, int sector, double x, double y, double *floor,
                        double *ceil)
{
    static const double depth[4] = {0, 204, 409, 614};
    const rrb_roo_sector *s = &r->sectors[sector];
    *floor = s->flags & RRB_ROO_SF_SLOPED_FLOOR ? ref_plane(&s->floor, x, y) : s->floor_h * 16.0;
    *ceil = s->flags & RRB_ROO_SF_SLOPED_CEILING ? ref_plane(&s->ceiling, x, y)
                                                  : s->ceiling_h * 16.0;
    *floor -= depth[s->flags & 3];
}

typedef struct stats {
    long points, agree, near_line, bad, outside, heights, height_bad;
    double max_herr;
} stats;

static void check_point(const rrb_roo *r, const baked *b, int32_t X, int32_t Y, stats *st)
{
    double x = X / b->scale, y = Y / b->scale, rel, f, c;
    rr_roo_where w;
    rr_roo_heights h;
    int left, ref = ref_walk(r, x, y, &rel, &left);
    rr_err e = rr_roo_locate(&b->room, X, Y, &w);
    /* outside: the node where the walk left the tree (the blob finds its
     * file number from the first leaf below it, or NODE_NUMBERS) */
    int got = e == RR_OK ? w.node : w.node == left ? -1 : -2 - w.node;
    st->points++;
    if (got == ref)
        st->agree++;
    else if (r->version >= 14 && rel <= ldexp(1, -24))
        st->near_line++;
    else if (st->bad++ < 5)
        printf("  locate (%d, %d): got node %d, reference %d (rel %.3g)\n", X, Y, got, ref, rel);
    if (e != RR_OK) {
        st->outside++;
        return;
    }
    if (got != ref)
        return;
    ref_heights(r, w.sector, x, y, &f, &c);
    if (rr_roo_height(&b->room, X, Y, &h) != RR_OK)
        return;
    double ef = fabs(h.floor / b->scale - f), ec = fabs(h.ceiling / b->scale - c);
    double tol = 1.0 / b->scale + 1e-6 * (fabs(f) + fabs(c));
    st->heights++;
    if (fmax(ef, ec) > st->max_herr)
        st->max_herr = fmax(ef, ec);
    if ((ef > tol || ec > tol) && st->height_bad++ < 5)
        printf("  height (%d, %d) sector %d: got %d/%d, reference %.3f/%.3f\n", X, Y, w.sector,
               h.floor, h.ceiling, f * b->scale, c * b->scale);
}

/* Random points over the geometry's box (1.1x), and the start point of every
 * node's first wall (on the line: the s == 0 rule). */
static void check_random(const char *name, const rrb_roo *r, const baked *b)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    stats st;
    memset(&st, 0, sizeof st);
    for (uint32_t i = 0; i < 2 * r->npoints; i++) {
        lo[i & 1] = fmin(lo[i & 1], r->points[i]);
        hi[i & 1] = fmax(hi[i & 1], r->points[i]);
    }
    for (int i = 0; i < NPOINTS; i++) {
        double x = lo[0] + (hi[0] - lo[0]) * (1.1 * urand() - 0.05);
        double y = lo[1] + (hi[1] - lo[1]) * (1.1 * urand() - 0.05);
        int whole = i & 1; /* half on whole client units */
        int32_t X = (int32_t)floor((whole ? floor(x) : x) * b->scale);
        int32_t Y = (int32_t)floor((whole ? floor(y) : y) * b->scale);
        check_point(r, b, X, Y, &st);
    }
    for (uint32_t i = 0; i < r->nnodes; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        if (n->type != RRB_ROO_NODE_INTERNAL || !n->first_wall)
            continue;
        const rrb_roo_wall *w = &r->walls[n->first_wall - 1];
        check_point(r, b, (int32_t)lrint(w->x0 * b->scale), (int32_t)lrint(w->y0 * b->scale), &st);
    }
    printf("  %-22s locate %ld points: %ld agree, %ld within 2^-24 of a v14/15 line, %ld "
           "outside; heights %ld, max error %.4f client units\n", name, st.points, st.agree,
           st.near_line, st.outside, st.heights, st.max_herr);
    RT_EXPECT_EQ(cid(name, "locate_vs_ref"), st.bad, 0);
    RT_EXPECT(cid(name, "locate_near_few"), st.near_line * 100 <= st.points);
    RT_EXPECT_EQ(cid(name, "height_vs_ref"), st.height_bad, 0);
    RT_EXPECT(cid(name, "some_inside"), st.heights > st.points / 10);
}

/* Minimum signed distance of (x, y) to the edges of a clockwise (y down) polygon. */
static double inside_margin(const double *p, uint32_t n, double x, double y)
{
    double m = INFINITY;
    for (uint32_t k = 0; k < n; k++) {
        const double *a = p + 2 * k, *c = p + 2 * ((k + 1) % n);
        double dx = c[0] - a[0], dy = c[1] - a[1], len = hypot(dx, dy);
        if (len == 0)
            continue;
        /* interior is on the right going a -> c with y down: cross(d, p - a) > 0 */
        double d = (dx * (y - a[1]) - dy * (x - a[0])) / len;
        m = fmin(m, d);
    }
    return m;
}

/* Does leaf node `leaf` (0-based) have a polygon vertex more than 1 client
 * unit on the wrong side of a separator on its own BSP path? (A data anomaly:
 * such a polygon reaches outside the BSP cell that owns it.) */
static int polygon_exceeds_cell(const rrb_roo *r, const uint32_t *parent, uint32_t leaf)
{
    const rrb_roo_node *l = &r->nodes[leaf];
    const double *p = r->points + 2 * l->first_point;
    for (uint32_t child = leaf + 1, up = parent[leaf]; up; child = up, up = parent[up - 1]) {
        const rrb_roo_node *n = &r->nodes[up - 1];
        double side = n->pos == child ? 1 : -1, len = hypot(n->a, n->b);
        for (uint32_t k = 0; k < l->npoints; k++)
            if (side * (n->a * p[2 * k] + n->b * p[2 * k + 1] + n->c) < -len) {
                if (getenv("RT_VERBOSE"))
                    printf("  leaf node %u vertex (%.0f, %.0f) is %.1f units outside node %u\n",
                           leaf + 1, p[2 * k], p[2 * k + 1],
                           -side * (n->a * p[2 * k] + n->b * p[2 * k + 1] + n->c) / len, up);
                return 1;
            }
    }
    return 0;
}

static void check_polygons(const char *name, const rrb_roo *r, const baked *b)
{
    long tried = 0, bad = 0, same_leaf = 0, anomalies = 0;
    uint32_t *leaf_nodes = malloc(sizeof(uint32_t) * (r->nleaves + 1)), nl = 0;
    uint32_t *parent = calloc(r->nnodes + 1, sizeof *parent); /* 1-based parent, 0 = root */
    for (uint32_t i = 0; i < r->nnodes; i++)
        if (r->nodes[i].type == RRB_ROO_NODE_INTERNAL) {
            if (r->nodes[i].pos)
                parent[r->nodes[i].pos - 1] = i + 1;
            if (r->nodes[i].neg)
                parent[r->nodes[i].neg - 1] = i + 1;
        }
    for (uint32_t i = 0; i < r->nnodes; i++)
        if (r->nodes[i].type == RRB_ROO_NODE_LEAF) {
            if (polygon_exceeds_cell(r, parent, i))
                anomalies++;
            else
                leaf_nodes[nl++] = i;
        }
    for (int t = 0; t < NINSIDE && nl; t++) {
        const rrb_roo_node *n = &r->nodes[leaf_nodes[xs() % nl]];
        const double *p = r->points + 2 * n->first_point;
        double wsum = 0, x = 0, y = 0;
        for (uint32_t k = 0; k < n->npoints; k++) {
            double wt = urand() + 1e-3;
            x += wt * p[2 * k], y += wt * p[2 * k + 1], wsum += wt;
        }
        x /= wsum, y /= wsum;
        int32_t X = (int32_t)floor(x * b->scale), Y = (int32_t)floor(y * b->scale);
        if (inside_margin(p, n->npoints, X / b->scale, Y / b->scale) <= 1.0)
            continue;
        rr_roo_where w;
        tried++;
        rr_err e = rr_roo_locate(&b->room, X, Y, &w);
        if (e != RR_OK || w.sector != n->sector - 1) {
            if (bad++ < 5)
                printf("  inside leaf (%d, %d): want sector %d, got %d\n", X, Y, n->sector - 1,
                       w.sector);
        } else if (&r->nodes[w.node] == n)
            same_leaf++;
    }
    printf("  %-22s %ld points inside leaf polygons: %ld wrong sector, %ld same leaf "
           "(%ld leaf polygons reach > 1 unit outside their BSP cell: skipped)\n", name, tried,
           bad, same_leaf, anomalies);
    RT_EXPECT(cid(name, "anomalies_rare"), anomalies * 20 <= (long)r->nleaves);
    RT_EXPECT_EQ(cid(name, "inside_polygon"), bad, 0);
    RT_EXPECT(cid(name, "inside_tried"), tried > NINSIDE / 4);
    free(leaf_nodes);
    free(parent);
}

static void check_open(const char *name, const rrb_roo *r, baked *b)
{
    static uint32_t arena[128];
    rr_diag d;
    rr_roo_info info;
    memset(&d, 0, sizeof d);
    rr_err e = rr_open_diag(b->blob, (uint32_t)b->size, arena, sizeof arena, &b->room, &d);
    if (!expect(cid(name, "open"), e == RR_OK)) {
        printf("  rr_open: %s (%s at 0x%x, value %u limit %u)\n", rr_strerror(e),
               d.what ? d.what : "", d.offset, d.value, d.limit);
        return;
    }
    b->scale = ldexp(1, (int)b->room.coord_frac);
    RT_EXPECT_EQ(cid(name, "info"), rr_roo_get_info(&b->room, &info), RR_OK);
    RT_EXPECT_EQ(cid(name, "info_nodes"), info.nodes, r->nnodes);
    RT_EXPECT_EQ(cid(name, "info_leaves"), info.leaves, r->nleaves);
    RT_EXPECT_EQ(cid(name, "info_sectors"), info.sectors, r->nsectors);
    RT_EXPECT_EQ(cid(name, "info_slopes"), info.slopes, r->nslopes);
    RT_EXPECT_EQ(cid(name, "info_walls"), info.walls, r->nwalls);
    RT_EXPECT_EQ(cid(name, "info_width"), info.rect[2], (int64_t)r->width << b->room.coord_frac);
    RT_EXPECT_EQ(cid(name, "info_grid"), info.grid_rows, r->rows);
    RT_EXPECT(cid(name, "security_ok"), info.security_ok);
}

/* Evil blobs: patch one field of a good blob, fix the CRC, expect the code. */
static void patch_open(const char *name, const baked *b, uint32_t type, uint32_t index,
                       size_t field, int32_t value, size_t width, rr_err want)
{
    const void *p;
    uint32_t n, elem = 0;
    uint8_t *copy;
    static uint32_t arena[128];
    rr_room room;
    char what[96];
    if (rr_section(&b->room, type, &p, &n) != RR_OK || index >= n)
        return;
    rt_section(b->blob, type, NULL, &elem);
    copy = malloc(b->size);
    memcpy(copy, b->blob, b->size);
    size_t at = (size_t)((const uint8_t *)p - b->blob) + (size_t)index * elem + field;
    memcpy(copy + at, &value, width); /* little-endian host: low bytes first */
    uint32_t crc = rr_crc32(0, copy + RR_CHECKSUM_FROM, (uint32_t)(b->size - RR_CHECKSUM_FROM));
    memcpy(copy + 20, &crc, 4);
    snprintf(what, sizeof what, "evil_%04x_%u_%zu", type, index, field);
    RT_EXPECT_EQ(cid(name, what), rr_open(copy, (uint32_t)b->size, arena, sizeof arena, &room),
                 want);
    free(copy);
}

/* Records of a section of the baked blob. */
static uint32_t blob_count(const baked *b, uint32_t type)
{
    const void *p;
    uint32_t n = 0;
    return rr_section(&b->room, type, &p, &n) == RR_OK ? n : 0;
}

/* Bits the loader gives n indices (rr_roo_blob.h: at least w). */
static uint32_t index_bits(uint32_t n, uint32_t w)
{
    while ((1u << w) < n)
        w++;
    return w;
}

/* The server grids (schema 4): dimensions that the map's bytes (or, untiled,
 * the palette) do not hold,
 * and the first map and tile index set to all ones (both 16-bit patches
 * cover its bits): refused when that value names no tile / palette entry. */
static void check_evil_grids(const char *name, const rrb_roo *r, const baked *b)
{
    uint32_t npal = blob_count(b, RR_SEC_ROO_GRID_PALETTE), wp = index_bits(npal, 2);
    uint32_t ntiles = 2u * blob_count(b, RR_SEC_ROO_GRID_TILES) / wp;
    uint32_t wt = index_bits(ntiles, 1);
    if (!npal)
        return;
    /* 8 more block rows: at least 8 more map bits, so more bytes */
    patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, grid_rows), r->rows + 16,
               4, RR_ERR_SECTION);
    patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, grid_cols), -1, 4,
               RR_ERR_SECTION);
    if (!blob_count(b, RR_SEC_ROO_GRID_TILES)) { /* untiled: a palette entry a cell */
        RT_EXPECT_EQ(cid(name, "grid_untiled_cells"), npal, (uint32_t)(r->rows * r->cols));
        return;
    }
    if (blob_count(b, RR_SEC_ROO_GRID_MAP) >= 2)
        patch_open(name, b, RR_SEC_ROO_GRID_MAP, 0, 0, 0xffff, 2,
                   (1u << wt) - 1u >= ntiles ? RR_ERR_INDEX : RR_OK);
    patch_open(name, b, RR_SEC_ROO_GRID_TILES, 0, 0, 0xffff, 2,
               (1u << wp) - 1u >= npal ? RR_ERR_INDEX : RR_OK);
    RT_EXPECT(cid(name, "grid_tiles_whole"), ntiles >= 1 && (ntiles * 4u * wp + 7u) / 8u ==
                                                  blob_count(b, RR_SEC_ROO_GRID_TILES));
}

static void check_evil(const char *name, const rrb_roo *r, const baked *b)
{
    int32_t ni = (int32_t)blob_count(b, RR_SEC_ROO_NODES), nl = (int32_t)r->nleaves;
    size_t pos = offsetof(rr_roo_node_rec, pos), neg = offsetof(rr_roo_node_rec, neg);
    /* the root (internal node 1): children out of range, backward, wrong depth */
    patch_open(name, b, RR_SEC_ROO_NODES, 0, pos, ni + 1, 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_NODES, 0, pos, (int32_t)(RR_ROO_CHILD_LEAF | (uint32_t)nl), 2,
               RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_NODES, 0, pos, 1, 2, RR_ERR_CYCLE);
    patch_open(name, b, RR_SEC_ROO_NODES, 0, neg, 1, 2, RR_ERR_CYCLE);
    /* a room record that claims a shallower tree than it has: the walk of
     * rr_open finds a node deeper */
    if (ni > 1) /* the root has an internal child, at depth 2 */
        patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, bsp_depth), 1, 4,
                   RR_ERR_DEPTH);
    patch_open(name, b, RR_SEC_ROO_NODES, 0, offsetof(rr_roo_node_rec, line),
               (int32_t)blob_count(b, RR_SEC_ROO_LINES), 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_LINES, 0, offsetof(rr_roo_line_rec, a), 1 << 30, 4,
               RR_ERR_RANGE);
    patch_open(name, b, RR_SEC_ROO_LEAVES, 0, offsetof(rr_roo_leaf_rec, sector),
               (int32_t)r->nsectors, 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_POLYGONS, 0, offsetof(rr_roo_polygon_rec, count),
               (int32_t)r->npoints + 1, 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_CORNERS, 0, offsetof(rr_roo_corner_rec, vert),
               (int32_t)(blob_count(b, RR_SEC_ROO_WALL_POINTS) + blob_count(b, RR_SEC_ROO_VERTS)),
               2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_WALL_SIDES, 0, offsetof(rr_roo_wall_sides_rec, pos_sector),
               (int32_t)r->nsectors, 2, RR_ERR_INDEX);
    /* a wall's end is the point after its start: the last point has none */
    patch_open(name, b, RR_SEC_ROO_WALLS, 0, offsetof(rr_roo_wall_rec, pt),
               (int32_t)blob_count(b, RR_SEC_ROO_WALL_POINTS) - 1, 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_WALLS, 0, offsetof(rr_roo_wall_rec, sides),
               (int32_t)blob_count(b, RR_SEC_ROO_WALL_SIDES), 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_WALL_POINTS, 0, offsetof(rr_roo_vert_rec, y),
               RR_ROO_COORD_LIMIT, 4, RR_ERR_RANGE);
    patch_open(name, b, RR_SEC_ROO_SECTORS, 0, offsetof(rr_roo_sector_rec, floor_slope),
               (int32_t)r->nslopes, 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_SLOPES, 0, offsetof(rr_roo_slope_rec, c), 0, 4, RR_ERR_RANGE);
    patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, nnodes), ni + 1, 4,
               RR_ERR_SECTION);
    patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, root), 2, 4,
               RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, bsp_depth), 65, 4,
               RR_ERR_DEPTH);
    patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, wall_slack), -1, 4,
               RR_ERR_RANGE);
    patch_open(name, b, RR_SEC_ROO_ROOM, 0, offsetof(rr_roo_room_rec, hires_rows),
               r->rows_hr + 4, 4, blob_count(b, RR_SEC_ROO_HIRES_MAP) ? RR_ERR_SECTION : RR_OK);
    patch_open(name, b, RR_SEC_ROO_HIRES_MAP, 0, offsetof(rr_roo_hires_map_entry, tile),
               (int32_t)blob_count(b, RR_SEC_ROO_HIRES_TILES), 2, RR_ERR_INDEX);
    patch_open(name, b, RR_SEC_ROO_HIRES_TILES, 0, offsetof(rr_roo_hires_tile, cell[15]),
               (int32_t)blob_count(b, RR_SEC_ROO_HIRES_PALETTE), 2, RR_ERR_INDEX);
    if (r->nwalls > 1)
        patch_open(name, b, RR_SEC_ROO_WALLS, 1, offsetof(rr_roo_wall_rec, next), 1, 2,
                   RR_ERR_CYCLE);
    check_evil_grids(name, r, b);
}

/* Reference render walk: leaves in order, nearest side first (recursion is
 * fine on the host). Returns the smallest |s| / magnitude seen (near-line). */
static double ref_order(const rrb_roo *r, const uint32_t *leaf_of, uint32_t node, double x,
                        double y, uint16_t *out, uint32_t *n)
{
    const rrb_roo_node *p = &r->nodes[node - 1];
    if (p->type == RRB_ROO_NODE_LEAF) {
        out[(*n)++] = (uint16_t)leaf_of[node - 1];
        return INFINITY;
    }
    double s = p->a * x + p->b * y + p->c;
    double mag = fabs(p->a * x) + fabs(p->b * y) + fabs(p->c), rel = mag > 0 ? fabs(s) / mag : 1;
    uint32_t near = s >= 0 ? p->pos : p->neg, far = near == p->pos ? p->neg : p->pos;
    if (near)
        rel = fmin(rel, ref_order(r, leaf_of, near, x, y, out, n));
    if (far)
        rel = fmin(rel, ref_order(r, leaf_of, far, x, y, out, n));
    return rel;
}

static void check_order(const char *name, const rrb_roo *r, const baked *b)
{
    uint32_t *leaf_of = calloc(r->nnodes + 1, sizeof *leaf_of), nl = 0;
    uint16_t *got = malloc(2 * (r->nleaves + 1)), *want = malloc(2 * (r->nleaves + 1));
    long bad = 0, near = 0, first_ok = 0, inside = 0;
    for (uint32_t i = 0; i < r->nnodes; i++)
        if (r->nodes[i].type == RRB_ROO_NODE_LEAF)
            leaf_of[i] = nl++;
    for (int t = 0; t < 200; t++) {
        double x = -0.05 * r->width + 1.1 * r->width * urand();
        double y = -0.05 * r->height + 1.1 * r->height * urand();
        int32_t X = (int32_t)floor(x * b->scale), Y = (int32_t)floor(y * b->scale);
        uint32_t n = 0, count = 0;
        rr_roo_where w;
        double rel = ref_order(r, leaf_of, 1, X / b->scale, Y / b->scale, want, &n);
        RT_EXPECT_EQ(cid(name, "order_call"),
                     rr_roo_leaf_order(&b->room, X, Y, got, r->nleaves, &count), RR_OK);
        RT_EXPECT_EQ(cid(name, "order_count"), count, r->nleaves);
        if (count != n || memcmp(got, want, 2 * n) != 0) {
            if (rel <= ldexp(1, -24))
                near++;
            else
                bad++;
        }
        if (rr_roo_locate(&b->room, X, Y, &w) == RR_OK) {
            inside++;
            first_ok += count > 0 && got[0] == w.leaf;
        }
    }
    uint32_t count = 0;
    uint16_t three[3] = {0, 0, 0};
    RT_EXPECT_EQ(cid(name, "order_truncated"), rr_roo_leaf_order(&b->room, 0, 0, three, 3, &count),
                 RR_OK);
    RT_EXPECT_EQ(cid(name, "order_truncated_count"), count, r->nleaves);
    printf("  %-22s leaf order: 200 viewpoints, %ld differ from the reference walk (%ld near a "
           "line), first leaf = located leaf %ld/%ld\n", name, bad + near, near, first_ok, inside);
    RT_EXPECT_EQ(cid(name, "order_vs_ref"), bad, 0);
    RT_EXPECT_EQ(cid(name, "order_first"), first_ok, inside);
    free(leaf_of), free(got), free(want);
}

/* Player move bits of each square whose floor flag is set, against
 * rr_roo_can_move between the square centres (radius FINENESS/4 = 256, a
 * generous step of 1024, no height): counted, not asserted. */
static void grid_moves(const rrb_roo *r, const baked *b, long *n, long *agree)
{
    static const int dr[8] = {-1, -1, 0, 1, 1, 1, 0, -1}, dc[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    int32_t k = 1 << b->room.coord_frac;
    for (int32_t i = 0; i < r->rows; i++)
        for (int32_t j = 0; j < r->cols; j++) {
            uint8_t bits = r->move_grid[(size_t)i * (size_t)r->cols + (size_t)j];
            if (!(r->flag_grid[(size_t)i * (size_t)r->cols + (size_t)j] & 1))
                continue;
            for (int d = 0; d < 8; d++) {
                int32_t i2 = i + dr[d], j2 = j + dc[d];
                rr_roo_move m;
                if (i2 < 0 || j2 < 0 || i2 >= r->rows || j2 >= r->cols)
                    continue;
                rr_roo_can_move(&b->room, (j * 1024 + 512) * k, (i * 1024 + 512) * k,
                                (j2 * 1024 + 512) * k, (i2 * 1024 + 512) * k, 256 * k, 1024 * k,
                                0, &m);
                (*n)++;
                *agree += ((bits >> d) & 1) == (m.block == RR_ROO_FREE);
            }
        }
}

/* Grid cells (v12-14): rr_roo_grid_at returns the file's bytes for every
 * square; then, reported only (the issue asks for the rate; the grids encode
 * the editor's own walkability, not just "a floor exists"), the flag grid's
 * bit 0 vs locate at the square centre, the high-res walkable bit vs locate +
 * no-move, and its height (bits 9-31, units of 256) vs the floor there. */
static void check_grids(const char *name, const rrb_roo *r, const baked *b)
{
    long cells = 0, flag_agree = 0, hr = 0, walk_agree = 0, h_agree = 0, hfloor = 0, wrong = 0;
    rr_roo_cell cell;
    if (!r->has_grids) {
        RT_EXPECT_EQ(cid(name, "no_grid"), rr_roo_grid_at(&b->room, 0, 0, &cell), RR_ERR_MISSING);
        return;
    }
    int hires = r->has_hires;
    int32_t size = hires ? 256 : 1024, rows = hires ? r->rows_hr : r->rows;
    int32_t cols = hires ? r->cols_hr : r->cols;
    for (int32_t i = 0; i < rows; i++)
        for (int32_t j = 0; j < cols; j++) {
            int32_t X = (int32_t)((j * size + size / 2) * b->scale);
            int32_t Y = (int32_t)((i * size + size / 2) * b->scale);
            int32_t gi = (i * size) / 1024, gj = (j * size) / 1024;
            size_t k = (size_t)gi * (size_t)r->cols + (size_t)gj;
            int in_grid = gi < r->rows && gj < r->cols;
            rr_roo_heights h;
            int in = rr_roo_height(&b->room, X, Y, &h) == RR_OK;
            if (rr_roo_grid_at(&b->room, X, Y, &cell) != RR_OK || cell.has_grid != in_grid ||
                cell.has_hires != hires ||
                (in_grid && (cell.flags != r->flag_grid[k] || cell.move != r->move_grid[k] ||
                             cell.monster != r->monster_grid[k])) ||
                (hires && cell.hires != r->hires_grid[(size_t)i * (size_t)cols + (size_t)j])) {
                wrong++;
                continue;
            }
            if (in_grid && (size == 1024 || (i % 4 == 1 && j % 4 == 1))) { /* square centre */
                cells++;
                flag_agree += (cell.flags & 1) == in;
            }
            if (!hires)
                continue;
            hr++;
            int walk = in && !(h.flags & RRB_ROO_SF_NOMOVE);
            walk_agree += (int)(cell.hires & 1) == walk;
            if (walk && (cell.hires & 1)) {
                hfloor++;
                long want = lround(h.floor_surface / b->scale / 256);
                h_agree += labs((long)(cell.hires >> 9) - want) <= 1;
            }
        }
    long moves = 0, move_agree = 0;
    grid_moves(r, b, &moves, &move_agree);
    printf("  %-22s grids: floor flag agrees with locate at %ld/%ld square centres (%.1f%%)",
           name, flag_agree, cells, 100.0 * (double)flag_agree / (double)(cells ? cells : 1));
    if (hr)
        printf("; high-res walkable %.1f%% of %ld, height within 1 step %.1f%% of %ld",
               100.0 * (double)walk_agree / (double)hr, hr,
               100.0 * (double)h_agree / (double)(hfloor ? hfloor : 1), hfloor);
    printf("; move bits vs can-move (radius 256, step 1024) %.1f%% of %ld\n",
           100.0 * (double)move_agree / (double)(moves ? moves : 1), moves);
    RT_EXPECT_EQ(cid(name, "grid_cells_as_file"), wrong, 0);
    RT_EXPECT_EQ(cid(name, "grid_cells_seen"), cells, (long)r->rows * r->cols);
    RT_EXPECT_EQ(cid(name, "grid_outside"),
                 rr_roo_grid_at(&b->room, -1, 0, &cell), RR_ERR_NOTFOUND);
}

/* The same room with its nodes numbered in pre-order with the - child
 * first (children still after their parents): the file numbers no longer
 * follow the rule the loader derives them by, so the baker must keep
 * NODE_NUMBERS, and locate must still report the file's numbers (checked
 * against the reference walk of the renumbered model, outside points
 * included). */
static void check_renumbered(const char *name, const rrb_roo *r)
{
    rrb_roo m = *r;
    uint16_t *order = calloc(r->nnodes + 1, sizeof *order), *stack = calloc(r->nnodes + 1, 2);
    uint16_t *new_of = calloc(r->nnodes + 1, sizeof *new_of);
    uint32_t n = 0, sp = 0, moved = 0;
    baked b;
    char what[300];
    stack[sp++] = 1;
    while (sp) { /* pre-order, - child first: push + then - */
        uint16_t k = stack[--sp];
        const rrb_roo_node *p = &r->nodes[k - 1];
        order[n] = k, new_of[k] = (uint16_t)++n;
        if (p->type == RRB_ROO_NODE_INTERNAL) {
            if (p->pos)
                stack[sp++] = p->pos;
            if (p->neg)
                stack[sp++] = p->neg;
        }
    }
    m.nodes = calloc(r->nnodes + 1, sizeof *m.nodes);
    for (uint32_t i = 0; i < n; i++) {
        moved += order[i] != i + 1; /* 0 when no node has two children */
        m.nodes[i] = r->nodes[order[i] - 1];
        if (m.nodes[i].type == RRB_ROO_NODE_INTERNAL) {
            m.nodes[i].pos = m.nodes[i].pos ? new_of[m.nodes[i].pos] : 0;
            m.nodes[i].neg = m.nodes[i].neg ? new_of[m.nodes[i].neg] : 0;
        }
    }
    snprintf(what, sizeof what, "%s (- first)", name);
    if (n == r->nnodes && expect(cid(name, "bake_renumbered"), bake(&m, what, 0, &b) == 0)) {
        check_open(what, &m, &b);
        RT_EXPECT_EQ(cid(name, "renumbered_keeps_numbers"),
                     blob_count(&b, RR_SEC_ROO_NODE_NUMBERS),
                     moved ? blob_count(&b, RR_SEC_ROO_NODES) : 0);
        if (b.scale > 0)
            check_random(what, &m, &b);
        free(b.blob);
    }
    free(m.nodes), free(order), free(stack), free(new_of);
}

/* Every leaf polygon corner the blob names (a wall point or a vert) is the
 * model's point, rounded to coords. */
static void check_corners(const char *name, const rrb_roo *r, const baked *b)
{
    const void *p;
    const rr_roo_corner_rec *corners;
    const rr_roo_vert_rec *verts, *wall;
    uint32_t nc = 0, nv = 0, nw = 0, bad = 0, on_walls = 0;
    if (rr_section(&b->room, RR_SEC_ROO_CORNERS, &p, &nc) != RR_OK)
        return;
    corners = p;
    rr_section(&b->room, RR_SEC_ROO_VERTS, &p, &nv);
    verts = p;
    rr_section(&b->room, RR_SEC_ROO_WALL_POINTS, &p, &nw);
    wall = p;
    RT_EXPECT_EQ(cid(name, "corners_count"), nc, r->npoints);
    for (uint32_t i = 0; i < nc && i < r->npoints; i++) {
        uint32_t v = corners[i].vert;
        const rr_roo_vert_rec *q = v < nw ? &wall[v] : &verts[v - nw];
        on_walls += v < nw;
        bad += q->x != (int32_t)rrb_roo_round_scaled(r->points[2 * i], (int)b->room.coord_frac) ||
               q->y != (int32_t)rrb_roo_round_scaled(r->points[2 * i + 1], (int)b->room.coord_frac);
    }
    printf("  %-22s %u leaf corners: %u at wall points, the others at %u verts; %u wrong\n",
           name, nc, on_walls, nv, bad);
    RT_EXPECT_EQ(cid(name, "corners_points"), bad, 0);
}

static void check_room(const char *name, const rrb_roo *r)
{
    baked b, be;
    static uint32_t arena[128];
    rr_room room;
    if (!expect(cid(name, "bake"), bake(r, name, 0, &b) == 0))
        return;
    check_open(name, r, &b);
    if (b.scale > 0) {
        check_random(name, r, &b);
        check_polygons(name, r, &b);
        check_order(name, r, &b);
        check_grids(name, r, &b);
        check_corners(name, r, &b);
        check_evil(name, r, &b);
        /* pre-order numbering (every corpus room): no NODE_NUMBERS */
        RT_EXPECT_EQ(cid(name, "preorder_no_numbers"), blob_count(&b, RR_SEC_ROO_NODE_NUMBERS), 0);
        if (r->nnodes > 1)
            check_renumbered(name, r);
    }
    if (b.scale > 0)
        RT_EXPECT_EQ(cid(name, "arena_small"),
                     rr_open(b.blob, (uint32_t)b.size, arena, b.room.arena_need - 4, &room),
                     RR_ERR_ARENA);
    if (expect(cid(name, "bake_be"), bake(r, name, 1, &be) == 0)) {
        RT_EXPECT_EQ(cid(name, "open_be_on_le"),
                     rr_open(be.blob, (uint32_t)be.size, arena, sizeof arena, &room),
                     RR_ERR_ENDIAN);
        free(be.blob);
    }
    free(b.blob);
}

/* The sample room's answers, worked out by hand from its drawing. */
static void check_sample(void)
{
    static const struct { double x, y; int sector; double floor, ceil; } want[] = {
        {1000, 1000, 0, 0, 2048},       /* S1 flat */
        {3000, 1000, 1, 238, 4096},     /* S2 slope z = x/4 - 512 */
        {2048, 1000, 1, 0, 4096},       /* on x = 2048: s == 0 takes the + child */
        {2500, 3000, 2, 256 - 409, 2048}, /* S3 depth 2 */
        {3500, 3000, 3, 0, 1024},       /* S4 no-move */
        {-5, 100, -1, 0, 0},            /* - side of the outer wall: outside */
        {0, 100, 0, 0, 2048}};          /* on the outer line, + child exists */
    rrb_roo r;
    baked b;
    rrb_roo_make_sample(&r, 15);
    if (bake(&r, "sample", 0, &b) == 0) {
        check_open("sample", &r, &b);
        for (size_t i = 0; b.scale > 0 && i < sizeof want / sizeof want[0]; i++) {
            rr_roo_heights h;
            char what[32];
            int32_t X = (int32_t)(want[i].x * b.scale), Y = (int32_t)(want[i].y * b.scale);
            rr_err e = rr_roo_height(&b.room, X, Y, &h);
            snprintf(what, sizeof what, "point%zu", i);
            RT_EXPECT_EQ(cid("sample", what), h.sector, want[i].sector);
            RT_EXPECT_EQ(cid("sample", what), e, want[i].sector < 0 ? RR_ERR_NOTFOUND : RR_OK);
            RT_EXPECT_EQ(cid("sample", what), h.floor, (int32_t)(want[i].floor * b.scale));
            RT_EXPECT_EQ(cid("sample", what), h.ceiling, (int32_t)(want[i].ceil * b.scale));
        }
        if (b.scale > 0) {
            check_random("sample", &r, &b);
            check_evil("sample", &r, &b);
        }
        free(b.blob);
    }
    rrb_roo_free(&r);
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("CORPUS");
    if (!corpus)
        corpus = "../shared/corpus";
    check_sample();
    for (size_t i = 0; i < NFILES; i++) {
        char path[1024], err[RRB_ERR_MAX];
        uint8_t *data;
        size_t size;
        rrb_roo r;
        snprintf(path, sizeof path, "%s/roo/%s.roo", corpus, corpus_files[i]);
        if (!expect(cid(corpus_files[i], "load"),
                    rrb_load_file(path, &data, &size, err, sizeof err) == 0))
            continue;
        if (expect(cid(corpus_files[i], "read"),
                   rrb_roo_read(data, size, path, &r, err, sizeof err) == 0)) {
            check_room(corpus_files[i], &r);
            rrb_roo_free(&r);
        }
        free(data);
    }
    return rt_done("test_roo_query");
}

/* rr_roo.c - Meridian 59 rooms: blob validation, point location, heights,
 * movement, line of sight, render order and the server grids.
 *
 * Data (rr_roo_blob.h): nodes in pre-order with the root first; a child's
 * number is always greater than its parent's and its depth is the parent's
 * plus one (checked by the validator), so the BSP walk is a forward loop
 * that ends after at most bsp_depth nodes. Everything else is an index that
 * rr_open range-checks once (the schema, then the semantic checks below);
 * the queries trust it and reach every section through the view rr_open
 * built in the arena.
 */
#define RR_INTERNAL
#include "rr_int.h"
#include "rr_roo.h"
#include "rr_roo_blob.h"

/* Three uses, all measured (make size, make stack):
 * - keeps a helper's 64-bit temporaries out of its caller's frame: on
 *   Cortex-M0 (8 low registers, no long multiply) inlining them into the
 *   wall walk made rr_roo_slide need 712 bytes of stack (static bound, 64
 *   per libgcc call); with these, 472 at 128 per call;
 * - one copy of a helper that -O2 would otherwise inline at every call
 *   (orient, near_seg, ratio_lerp, ...). The hot tests that call orient
 *   stop as early as they can (cross_wall, straddles);
 * - the validator's relational checks out of rr__roo_validate's frame
 *   (check_relations). */
#define NOINLINE __attribute__((noinline))

/* The loader's tables of the ROO schema (rr_roo_blob.h). */
RR_FORMAT_SCHEMA(roo_schema, RR_ROO);

/* The sections of an open room, through its view: O(1) (walls_of(room)...). */
RR_SECTION_ACCESSORS(RR_ROO)
/* Is the optional section of slot k in the blob? (A view entry's offset
 * is 0 only for an absent section: sections follow the header.) */
static int present(const rr_room *room, uint32_t k)
{
    return room->view[k].offset != 0;
}

static int64_t join64(uint32_t lo, int32_t hi)
{
    return (int64_t)(((uint64_t)(uint32_t)hi << 32) | (uint64_t)lo);
}

static int coord_ok(int32_t v)
{
    return v > -RR_ROO_COORD_LIMIT && v < RR_ROO_COORD_LIMIT;
}

/// Validation ///
/* rr__schema_open has checked presence, sizes, the room's counts
 * (COUNTOF) and every field's own range and index (rr_roo_blob.h); what
 * follows are the checks that relate records to each other. Each failure
 * names the field it judges. */

/* The room record: 16-bit indices can address every section they point
 * into, the BSP is no deeper than the blob says, the arena holds the query
 * state and the walk stack, the coordinate scale is one the baker picks. */
static rr_err check_room(const rr_room *room, rr_diag *diag)
{
    const rr_roo_room_rec *r = room_of(room);
    const uint32_t *const counts16[9] = {&r->nnodes,       &r->nleaves,     &r->nlines,
                                          &r->nsectors,     &r->nslopes,     &r->nwalls,
                                          &r->nwall_points, &r->nwall_sides, &r->nsidedefs};
    uint32_t k, need = RR_ROO_ARENA_STATE + 2u * (r->bsp_depth + 1u);
    for (k = 0; k < 9; k++) {
        /* internal nodes and leaves: child references; the others: 16-bit indices */
        uint32_t limit = k < 2 ? RR_ROO_MAX_TREE : RR_ROO_NONE - 1u;
        if (*counts16[k] > limit)
            return rr__fail(room, diag, RR_ERR_RANGE, counts16[k],
                            "record count (16-bit indices)", *counts16[k], limit);
    }
    /* node numbers, when present, one per internal node */
    if (present(room, RR_ROO_S_node_numbers) &&
        rr__count(room, RR_ROO_S_node_numbers) != r->nnodes)
        return rr__fail(room, diag, RR_ERR_SECTION, &r->nnodes, "node numbers vs nodes",
                        rr__count(room, RR_ROO_S_node_numbers), r->nnodes);
    /* the root: internal node 1, or the one leaf of a room without internal
     * nodes, or nothing in an empty room */
    if (r->root != (r->nnodes ? 1u : r->nleaves ? RR_ROO_CHILD_LEAF : 0u))
        return rr__fail(room, diag, RR_ERR_INDEX, &r->root, "bsp root", r->root, r->nnodes);
    if (r->bsp_depth > room->max_depth)
        return rr__fail(room, diag, RR_ERR_DEPTH, &r->bsp_depth, "bsp depth", r->bsp_depth,
                        room->max_depth);
    /* The header declares the view too; rr_open has taken it off arena_need. */
    if (room->arena_need < need)
        return rr__fail_in(diag, RR_ERR_ARENA, 0, (uint32_t)offsetof(rr_blob_header, arena),
                           "roo arena (view + query state + walk stack)",
                           room->arena_need + RR_VIEW_BYTES(RR_ROO_S_COUNT),
                           need + RR_VIEW_BYTES(RR_ROO_S_COUNT));
    if (room->coord_frac > RR_ROO_MAX_FRAC)
        return rr__fail_in(diag, RR_ERR_FIXED, 0, (uint32_t)offsetof(rr_blob_header, fixed),
                           "roo coord_frac", room->coord_frac, RR_ROO_MAX_FRAC);
    return RR_OK;
}

/* A child reference of internal node i (0-based): 0, a leaf that exists, or
 * a later internal node. */
static rr_err check_child(const rr_room *room, rr_diag *diag, uint32_t i, const uint16_t *child)
{
    uint32_t c = *child;
    if (c == 0)
        return RR_OK;
    if (c & RR_ROO_CHILD_LEAF) {
        if ((c & ~RR_ROO_CHILD_LEAF) >= rr__count(room, RR_ROO_S_leaves))
            return rr__fail(room, diag, RR_ERR_INDEX, child, "child leaf",
                            c & ~RR_ROO_CHILD_LEAF, rr__count(room, RR_ROO_S_leaves));
        return RR_OK;
    }
    if (c > rr__count(room, RR_ROO_S_nodes))
        return rr__fail(room, diag, RR_ERR_INDEX, child, "child node", c,
                        rr__count(room, RR_ROO_S_nodes));
    if (c <= i + 1)
        return rr__fail(room, diag, RR_ERR_CYCLE, child, "child not after its parent", c,
                        i + 1);
    return RR_OK;
}

/* Internal node i: its children; without NODE_NUMBERS at least one of them
 * (its number is found through its first child, rr_roo_node_number). */
static rr_err check_node(const rr_room *room, rr_diag *diag, uint32_t i)
{
    const rr_roo_node_rec *n = &nodes_of(room)[i];
    rr_err e = check_child(room, diag, i, &n->pos);
    if (!e)
        e = check_child(room, diag, i, &n->neg);
    if (!e && !n->pos && !n->neg && !present(room, RR_ROO_S_node_numbers))
        return rr__fail(room, diag, RR_ERR_INDEX, &n->pos,
                        "internal node without children (and no node numbers)", 0, 0);
    return e;
}

static uint16_t *walk_stack(const rr_room *room);

/* No internal node lies deeper than bsp_depth (the root is 1), so the BSP
 * walks' stack of bsp_depth + 1 entries never overflows: a depth-first walk
 * of the tree on that very stack, the depth of each waiting child in the
 * arena's query state (free during rr_open; bsp_depth <= RR_MAX_DEPTH
 * < RR_ROO_ARENA_STATE, checked first by check_room). Children come after
 * their parents (check_node), so the walk ends; it stops early when it
 * has met more nodes than there are (a node with two parents). */
static rr_err check_depths(const rr_room *room, rr_diag *diag)
{
    const rr_roo_room_rec *r = room_of(room);
    const rr_roo_node_rec *nodes = nodes_of(room);
    uint16_t *stack = walk_stack(room);
    uint8_t *waiting_depth = room->arena; /* the query state's bytes */
    uint32_t c = r->nnodes ? 1u : 0u, depth = 1, sp = 0, met = 0;
    while (c) {
        const rr_roo_node_rec *n = &nodes[c - 1];
        uint32_t pos = (n->pos & RR_ROO_CHILD_LEAF) ? 0u : n->pos;
        uint32_t neg = (n->neg & RR_ROO_CHILD_LEAF) ? 0u : n->neg;
        if (depth > r->bsp_depth)
            return rr__fail(room, diag, RR_ERR_DEPTH, &r->bsp_depth,
                            "bsp depth (an internal node lies deeper)", depth, r->bsp_depth);
        if (++met > r->nnodes)
            return rr__fail(room, diag, RR_ERR_CYCLE, &n->pos,
                            "internal node reached twice", c, r->nnodes);
        if (pos && neg) { /* sp < depth <= bsp_depth: the stack holds it */
            stack[sp] = (uint16_t)neg;
            waiting_depth[sp++] = (uint8_t)(depth + 1u);
        }
        if (pos || neg) {
            c = pos ? pos : neg;
            depth++;
        } else if (sp) {
            c = stack[--sp];
            depth = waiting_depth[sp];
        } else {
            c = 0;
        }
    }
    return RR_OK;
}

/* Leaf polygons, when present, one per leaf; each corner a wall point or a
 * vertex. */
static rr_err check_polygons(const rr_room *room, rr_diag *diag)
{
    const rr_roo_room_rec *r = room_of(room);
    const rr_roo_corner_rec *corners = corners_of(room);
    uint32_t i, n = rr__count(room, RR_ROO_S_polygons);
    uint32_t points = r->nwall_points + rr__count(room, RR_ROO_S_verts);
    if (present(room, RR_ROO_S_polygons) && n != r->nleaves)
        return rr__fail(room, diag, RR_ERR_SECTION, &r->nleaves, "leaf polygons vs leaves", n,
                        r->nleaves);
    for (i = 0; i < rr__count(room, RR_ROO_S_corners); i++)
        if (corners[i].vert >= points)
            return rr__fail(room, diag, RR_ERR_INDEX, &corners[i].vert,
                            "corner point (wall points, then verts)", corners[i].vert, points);
    return RR_OK;
}

/* A slope plane is not vertical: its height divides by c. */
static rr_err check_slopes(const rr_room *room, rr_diag *diag)
{
    const rr_roo_slope_rec *slopes = slopes_of(room);
    uint32_t i;
    for (i = 0; i < rr__count(room, RR_ROO_S_slopes); i++)
        if (slopes[i].c == 0)
            return rr__fail(room, diag, RR_ERR_RANGE, &slopes[i].c, "slope c (vertical plane)",
                            0, 0);
    return RR_OK;
}

/* A wall's end point (pt + 1) exists, and its next comes after it, so
 * every wall list ends. */
static rr_err check_walls(const rr_room *room, rr_diag *diag)
{
    const rr_roo_wall_rec *walls = walls_of(room);
    uint32_t i, npoints = rr__count(room, RR_ROO_S_wall_points);
    for (i = 0; i < rr__count(room, RR_ROO_S_walls); i++) {
        if (walls[i].pt + 1u >= npoints)
            return rr__fail(room, diag, RR_ERR_INDEX, &walls[i].pt, "wall end point (pt + 1)",
                            walls[i].pt + 1u, npoints);
        if (walls[i].next != RR_ROO_NONE && walls[i].next <= i)
            return rr__fail(room, diag, RR_ERR_CYCLE, &walls[i].next,
                            "wall next not after the wall", walls[i].next, i);
    }
    return RR_OK;
}

/* A server grid that is present holds rows x cols cells (or, for the
 * high-res map, 4 x 4 tiles) (the room record's dimensions). */
static rr_err check_grid(const rr_room *room, rr_diag *diag, uint32_t k, const int32_t *rows,
                         const int32_t *cols, uint32_t tile_shift)
{
    uint32_t cells = rr__count(room, k), round = (1u << tile_shift) - 1u;
    if (!present(room, k))
        return RR_OK;
    if (*rows < 0 || *cols < 0 || *rows >= RR_ROO_COORD_LIMIT || *cols >= RR_ROO_COORD_LIMIT ||
        (uint64_t)(((uint32_t)*rows + round) >> tile_shift) *
                (((uint32_t)*cols + round) >> tile_shift) != cells)
        return rr__fail(room, diag, RR_ERR_SECTION, rows, "grid rows x cols vs the grid's cells",
                        (uint32_t)*rows, cells);
    return RR_OK;
}

/* The server grids' index widths (rr_roo_blob.h): palette indices in the
 * bits the palette count needs, at least 2 (so a tile is at least 8 bits
 * and the tile count follows from the tiles' bytes), tile indices in the
 * bits the tile count needs, at least 1. Byte counts are below 2^24
 * (checked), so no product here overflows. */
typedef struct grid_shape {
    uint32_t palette_bits, ntiles, tile_bits;
} grid_shape;

static uint32_t bits_for(uint32_t n, uint32_t w)
{
    while ((1u << w) < n)
        w++;
    return w;
}

static NOINLINE void grid_shape_of(const rr_room *room, grid_shape *g)
{
    g->palette_bits = bits_for(rr__count(room, RR_ROO_S_grid_palette), 2);
    g->ntiles = 2u * rr__count(room, RR_ROO_S_grid_tiles) / g->palette_bits; /* 8 b / 4 w */
    g->tile_bits = bits_for(g->ntiles, 1);
}

/* Index i of w bits (w <= 16) from bit-packed bytes: bits i*w .. i*w + w - 1,
 * LSB first, so byte order does not matter. Reads only the (at most three)
 * bytes that hold them. */
static NOINLINE uint32_t grid_index(const rr_roo_grid_byte *bytes, uint32_t i, uint32_t w)
{
    uint32_t bit = i * w, first = bit >> 3, k = ((bit + w - 1u) >> 3) + 1u, v = 0;
    while (k > first) /* the last byte first: it holds the highest bits */
        v = (v << 8) | bytes[--k].bits;
    return (v >> (bit & 7u)) & ((1u << w) - 1u);
}

/* Every one of n bit-packed indices of w bits is below limit. */
static rr_err check_indices(const rr_room *room, rr_diag *diag, const rr_roo_grid_byte *bytes,
                            uint32_t n, uint32_t w, uint32_t limit, const char *what)
{
    uint32_t i, v;
    for (i = 0; i < n; i++) {
        v = grid_index(bytes, i, w);
        if (v >= limit)
            return rr__fail(room, diag, RR_ERR_INDEX, &bytes[(i * w) >> 3], what, v, limit);
    }
    return RR_OK;
}

/* The server grids: none, the palette alone (untiled: one entry a cell), or
 * palette, tiles and map: 1..0xffff palette entries and tiles, exactly the
 * bytes their indices need, every index names a tile or palette entry (one
 * pass, so queries need no check). */
static RR_VALIDATION NOINLINE rr_err check_server_grids(const rr_room *room, rr_diag *diag)
{
    const rr_roo_room_rec *r = room_of(room);
    uint32_t npal = rr__count(room, RR_ROO_S_grid_palette);
    uint32_t ntb = rr__count(room, RR_ROO_S_grid_tiles), nmb = rr__count(room, RR_ROO_S_grid_map);
    uint32_t tiled = (uint32_t)present(room, RR_ROO_S_grid_tiles) +
                     (uint32_t)present(room, RR_ROO_S_grid_map);
    uint32_t blocks;
    grid_shape g;
    rr_err e;
    if (!present(room, RR_ROO_S_grid_palette))
        return tiled ? rr__fail(room, diag, RR_ERR_SECTION, &r->grid_rows,
                                "grid tiles or map without a palette", tiled, 0)
                     : RR_OK;
    /* 32-bit arithmetic only (no 64-bit helper on the Cortex-M0's stack):
     * rows, cols <= 0xffff; tile and map bytes below 2^24 */
    if (r->grid_rows < 0 || r->grid_cols < 0 || r->grid_rows > 0xffff || r->grid_cols > 0xffff)
        return rr__fail(room, diag, RR_ERR_SECTION, &r->grid_rows, "grid rows x cols",
                        (uint32_t)r->grid_rows, 0xffffu);
    if (tiled == 0) /* untiled: the palette is the cells, row-major */
        return (uint32_t)r->grid_rows * (uint32_t)r->grid_cols == npal
                   ? RR_OK
                   : rr__fail(room, diag, RR_ERR_SECTION, &r->grid_rows,
                              "grid rows x cols vs palette (untiled)",
                              (uint32_t)r->grid_rows, npal);
    if (tiled != 2)
        return rr__fail(room, diag, RR_ERR_SECTION, &r->grid_rows,
                        "grid tiles and map together", tiled, 2);
    if (npal < 1u || npal > 0xffffu)
        return rr__fail(room, diag, RR_ERR_SECTION, grid_palette_of(room),
                        "grid palette entries", npal, 0xffffu);
    if (ntb >= (1u << 24) || nmb >= (1u << 24))
        return rr__fail(room, diag, RR_ERR_SECTION, grid_tiles_of(room),
                        "grid tile or map bytes", ntb > nmb ? ntb : nmb,
                        1u << 24);
    grid_shape_of(room, &g);
    if (g.ntiles < 1u || g.ntiles > 0xffffu ||
        (g.ntiles * 4u * g.palette_bits + 7u) / 8u != ntb) /* <= 2^16 * 64 bits */
        return rr__fail(room, diag, RR_ERR_SECTION, grid_tiles_of(room),
                        "grid tiles (whole, 1..0xffff)",
                        g.ntiles, 0xffffu);
    blocks = (((uint32_t)r->grid_rows + 1u) >> 1) * (((uint32_t)r->grid_cols + 1u) >> 1);
    if (blocks > 8u * nmb || (blocks * g.tile_bits + 7u) / 8u != nmb) /* then < 2^31 bits */
        return rr__fail(room, diag, RR_ERR_SECTION, &r->grid_rows,
                        "grid rows x cols vs map bytes", (uint32_t)r->grid_rows, nmb);
    e = check_indices(room, diag, grid_map_of(room), (uint32_t)blocks, g.tile_bits, g.ntiles,
                      "grid map tile index");
    return e ? e : check_indices(room, diag, grid_tiles_of(room), 4u * g.ntiles, g.palette_bits,
                                 npal, "grid tile palette index");
}

static rr_err check_grids(const rr_room *room, rr_diag *diag)
{
    const rr_roo_room_rec *r = room_of(room);
    return check_grid(room, diag, RR_ROO_S_hires_map, &r->hires_rows, &r->hires_cols,
                      RR_ROO_TILE_SHIFT);
}

/* Out of line (NOINLINE): rr__schema_open's chain is the deepest of
 * rr_open, so rr__roo_validate's own frame must stay small (inlined, these
 * checks put rr_open at 552 bytes of stack on Cortex-M0). */
static RR_VALIDATION NOINLINE rr_err check_relations(const rr_room *room, rr_diag *diag)
{
    uint32_t i;
    rr_err e = check_room(room, diag);
    for (i = 0; !e && i < rr__count(room, RR_ROO_S_nodes); i++)
        e = check_node(room, diag, i);
    if (!e)
        e = check_depths(room, diag);
    if (!e)
        e = check_polygons(room, diag);
    if (!e)
        e = check_slopes(room, diag);
    if (!e)
        e = check_walls(room, diag);
    if (!e)
        e = check_grids(room, diag);
    return e;
}

RR_VALIDATION rr_err rr__roo_validate(rr_room *room, rr_diag *diag)
{
    rr_err e = rr__schema_open(room, &roo_schema, diag);
    if (!e)
        e = check_relations(room, diag);
    /* a sibling of check_relations, not below it: its division (a libgcc
     * helper on the Cortex-M0) would put rr_open past 512 bytes of stack */
    return e ? e : check_server_grids(room, diag);
}

/// Queries ///

/* Every query starts here: false when its own argument check failed
 * (ok == 0) or room is not a ROO room (RR_ERR_ARG). A ROO room that
 * rr_open did not fill in has no view: a caller bug. */
static int query_ok(const rr_room *room, int ok)
{
    if (!ok || !room || room->format != RR_FMT_ROO)
        return 0;
    RR_ASSERT(room->view != 0);
    return 1;
}

/* A*x + B*y + C of a separator line: > 0 on its + side. */
static int64_t line_side(const rr_roo_line_rec *l, int32_t x, int32_t y)
{
    return (int64_t)l->a * x + (int64_t)l->b * y + join64(l->c_lo, l->c_hi);
}

/* The client's BSPFindLeafByPoint: from the root, take the child on the
 * point's side of each separator (s == 0: the + child if there is one)
 * until a leaf, or a missing child (outside). *c is a child reference
 * (rr_roo_blob.h), the root on entry and the leaf or 0 on return; internal
 * children come later than their parent (validated), so the loop ends. The
 * side test looks at the sign first: s < 0 is the common way to the -
 * child, s == 0 with no + child is rare. Returns the internal node tested
 * last (NULL if none). The sections come in as pointers so that the loop
 * addresses records from them directly. */
static NOINLINE const rr_roo_node_rec *descend_point(const rr_roo_node_rec *nodes,
                                                     const rr_roo_line_rec *lines,
                                                     uint32_t *child, int32_t x, int32_t y)
{
    const rr_roo_node_rec *p = 0;
    uint32_t c = *child, k = c - 1u; /* k: c's 0-based node index */
    /* c is an internal node (1..nnodes) as long as k = c - 1 < RR_ROO_MAX_TREE:
     * 0 (none) wraps around, leaf references are >= RR_ROO_CHILD_LEAF, and
     * internal ones at most nnodes <= RR_ROO_MAX_TREE (validated) */
    while (k < RR_ROO_MAX_TREE) {
        int64_t s;
        p = nodes + k;
        s = line_side(&lines[p->line], x, y);
        c = p->pos;
        if (s < 0 || (c == 0 && s == 0))
            c = p->neg;
        k = c - 1u;
    }
    *child = c;
    return p;
}

/* The file's number of internal node i (0-based): from NODE_NUMBERS, or,
 * when the file numbers its nodes in pre-order with the + child first (the
 * baker leaves NODE_NUMBERS out only then), one less than that of its
 * first child, the + child if it has one (validated: one at least): down
 * that chain (child after parent: at most bsp_depth steps) to a leaf,
 * whose file number the leaf record holds. Only an outside point asks. */
static int32_t node_number(const rr_room *room, uint32_t i)
{
    const rr_roo_node_rec *nodes = nodes_of(room);
    uint32_t c = i + 1u, steps = 0;
    if (present(room, RR_ROO_S_node_numbers))
        return node_numbers_of(room)[i].number;
    while (!(c & RR_ROO_CHILD_LEAF)) {
        const rr_roo_node_rec *n = &nodes[c - 1u];
        c = n->pos ? n->pos : n->neg;
        steps++;
    }
    return (int32_t)leaves_of(room)[c & ~RR_ROO_CHILD_LEAF].node - (int32_t)steps;
}

/* Locate (x, y): its leaf, sector and file node (or the node where the
 * walk left the tree, RR_ERR_NOTFOUND). */
static NOINLINE rr_err walk(const rr_room *room, int32_t x, int32_t y, rr_roo_where *out)
{
    const rr_roo_node_rec *nodes = nodes_of(room), *p;
    const rr_roo_leaf_rec *leaf;
    uint32_t c = room_of(room)->root;
    p = descend_point(nodes, lines_of(room), &c, x, y);
    if (c == 0) {
        out->sector = out->leaf = -1;
        out->node = p ? node_number(room, (uint32_t)(p - nodes)) : -1;
        return RR_ERR_NOTFOUND;
    }
    leaf = &leaves_of(room)[c & ~RR_ROO_CHILD_LEAF];
    out->leaf = (int32_t)(c & ~RR_ROO_CHILD_LEAF);
    out->sector = leaf->sector;
    out->node = leaf->node;
    return RR_OK;
}

rr_err rr_roo_locate(const rr_room *room, int32_t x, int32_t y, rr_roo_where *out)
{
    if (!query_ok(room, out != 0))
        return RR_ERR_ARG;
    return walk(room, x, y, out);
}

/* z = -(a*x + b*y + d) / c, rounded half away from zero and saturated to
 * int32. |numerator| < 2^62.5; c != 0 (validated). */
static int32_t slope_z(const rr_roo_slope_rec *p, int32_t x, int32_t y)
{
    int64_t num = -((int64_t)p->a * x + (int64_t)p->b * y + join64(p->d_lo, p->d_hi));
    return rr__sat32(rr__div_round64(num, p->c));
}

/* A sector's floor surface or ceiling at (x, y): its slope's height, or
 * else its flat height. */
static int32_t surface_z(const rr_room *room, uint32_t slope, int32_t flat, int32_t x, int32_t y)
{
    return slope != RR_ROO_NONE ? slope_z(&slopes_of(room)[slope], x, y) : flat;
}

/* Floor surface and ceiling of a sector at (x, y): fc[0], fc[1]. */
static void floor_ceiling(const rr_room *room, uint32_t sector, int32_t x, int32_t y,
                          int32_t fc[2])
{
    const rr_roo_sector_rec *s = &sectors_of(room)[sector];
    fc[0] = surface_z(room, s->floor_slope, s->floor_z, x, y);
    fc[1] = surface_z(room, s->ceiling_slope, s->ceiling_z, x, y);
}

/* How far an object sinks into a sector of the given depth (flags bits
 * 0-1): {0, 204, 409, 614} client units (NOTES §7.3), in coords. */
static int32_t depth_offset(const rr_room *room, uint32_t flags)
{
    static const int32_t units[4] = {0, 1024 / 5, 2 * 1024 / 5, 3 * 1024 / 5};
    return units[flags & 3u] * (1 << room->coord_frac);
}

/* The heights of a sector at (x, y); sector -1 (outside: what walk gives
 * when it fails) zeroes them and returns RR_ERR_NOTFOUND. */
static NOINLINE rr_err sector_heights(const rr_room *room, int32_t sector, int32_t x, int32_t y,
                                      rr_roo_heights *out)
{
    int32_t fc[2] = {0, 0};
    const rr_roo_sector_rec *s = sector >= 0 ? &sectors_of(room)[sector] : 0;
    if (s)
        floor_ceiling(room, (uint32_t)sector, x, y, fc);
    out->floor_surface = fc[0];
    /* most sectors have no depth: their floor is the surface */
    out->floor = s && (s->flags & 3u) ? rr__sat32((int64_t)fc[0] - depth_offset(room, s->flags))
                                      : fc[0];
    out->ceiling = fc[1];
    out->sector = sector;
    out->flags = s ? s->flags : 0;
    return s ? RR_OK : RR_ERR_NOTFOUND;
}

rr_err rr_roo_sector_height(const rr_room *room, int32_t sector, int32_t x, int32_t y,
                            rr_roo_heights *out)
{
    if (!query_ok(room, out != 0))
        return RR_ERR_ARG;
    if (sector < 0 || (uint32_t)sector >= rr__count(room, RR_ROO_S_sectors))
        return RR_ERR_ARG;
    return sector_heights(room, sector, x, y, out);
}

rr_err rr_roo_height(const rr_room *room, int32_t x, int32_t y, rr_roo_heights *out)
{
    rr_roo_where w;
    if (!query_ok(room, out != 0))
        return RR_ERR_ARG;
    walk(room, x, y, &w); /* RR_ERR_NOTFOUND leaves w.sector = -1 */
    return sector_heights(room, w.sector, x, y, out);
}

rr_err rr_roo_get_info(const rr_room *room, rr_roo_info *out)
{
    const rr_roo_room_rec *r;
    uint32_t k;
    if (!query_ok(room, out != 0))
        return RR_ERR_ARG;
    r = room_of(room);
    out->version = r->version;
    out->nodes = r->nnodes + r->nleaves; /* as in the file */
    out->leaves = r->nleaves;
    out->sectors = r->nsectors;
    out->slopes = r->nslopes;
    out->walls = r->nwalls;
    out->sidedefs = r->nsidedefs;
    out->bsp_depth = r->bsp_depth;
    for (k = 0; k < 4; k++)
        out->rect[k] = r->rect[k];
    out->grid_rows = r->grid_rows;
    out->grid_cols = r->grid_cols;
    out->hires_rows = r->hires_rows;
    out->hires_cols = r->hires_cols;
    out->security_ok = (r->flags & RR_ROO_ROOM_SECURITY_OK) != 0;
    return RR_OK;
}

/// Exact 2D predicates for movement and sight ///
/* Coordinates are validated (walls) or required (arguments) to lie within
 * +-2^29, so differences fit 2^30, products 2^60 and a cross product 2^61. */

/* a * b <= c * d, exactly (128-bit products). */
static int mul_le(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t lo1, lo2, hi1 = rr__mul128(a, b, &lo1), hi2 = rr__mul128(c, d, &lo2);
    return hi1 < hi2 || (hi1 == hi2 && lo1 <= lo2);
}

static uint64_t abs64(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* A wall's line as four int32 x0, y0, x1, y1: its start point and the next
 * one in the chain of wall points (rr_roo_blob.h), read in place, so a wall
 * and a path p = (ax, ay, bx, by) are both "lines" l[4] and a point is a
 * pair c[2] (p, p + 2, l, l + 2). Pointer arguments keep every call below
 * at two or three registers (six int32 put two on the Arm stack). */
typedef char rr__roo_wall_point[(sizeof(rr_roo_vert_rec) == 8 &&
                                 offsetof(rr_roo_vert_rec, y) == 4) ? 1 : -1];
static const int32_t *wall_line(const rr_roo_vert_rec *points, const rr_roo_wall_rec *w)
{
    /* validated: pt + 1 is a point too; x, y of pt then x, y of pt + 1 */
    return (const int32_t *)(const void *)(points + w->pt);
}

/* (b - a) x (c - a) for the line a -> b = l: > 0 when c is on its + side
 * (the same sign as the separator a*x + b*y + c of a wall's line, NOTES
 * §1.12). Every point here is a wall end (validated) or on a query's
 * segment (arguments checked, args_ok), so within +-2^29: each difference
 * fits an int32 (as in near_seg) and each product is one 32 x 32 -> 64
 * multiply. */
static NOINLINE int64_t orient(const int32_t l[4], const int32_t c[2])
{
    int32_t ex = l[2] - l[0], ey = l[3] - l[1], vx = c[0] - l[0], vy = c[1] - l[1];
    return (int64_t)ex * vy - (int64_t)ey * vx;
}

/* Is the point c within sqrt(r2) of the segment l? v = c - start, e = end -
 * start (each component < 2^30 in magnitude: coordinates are within
 * +-2^29). Exact. */
static NOINLINE int near_seg(const int32_t l[4], const int32_t c[2], uint64_t r2)
{
    int32_t vx = c[0] - l[0], vy = c[1] - l[1], ex = l[2] - l[0], ey = l[3] - l[1];
    int64_t u = (int64_t)ex * vx + (int64_t)ey * vy, ee = (int64_t)ex * ex + (int64_t)ey * ey;
    int32_t x = vx, y = vy;
    int64_t d;
    if (u > 0 && ee != 0) {
        if (u < ee) { /* nearest point inside the segment: compare d^2 / ee with r2 */
            d = orient(l, c); /* ex * vy - ey * vx */
            return mul_le(abs64(d), abs64(d), r2, (uint64_t)ee);
        }
        x = c[0] - l[2], y = c[1] - l[3]; /* nearest point: the end */
    }
    return (uint64_t)((int64_t)x * x + (int64_t)y * y) <= r2;
}

/* Where the ends of the segment c lie against the line l: 1 both strictly
 * on one side, 2 both on the line, -1 strictly on both sides, 0 one end on
 * the line. */
static NOINLINE int ends_side(const int32_t l[4], const int32_t c[4])
{
    int64_t o1 = orient(l, c), o2 = orient(l, c + 2);
    int s1 = (o1 > 0) - (o1 < 0), s2 = (o2 > 0) - (o2 < 0);
    return s1 || s2 ? s1 * s2 : 2;
}

/* Do the segment p = (ax, ay, bx, by) and wall line l cross or touch (not
 * both collinear)? */
static int straddles(const int32_t p[4], const int32_t l[4])
{
    return ends_side(p, l) <= 0 && ends_side(l, p) != 1;
}

/* Do the segment p = (ax, ay, bx, by) and wall line l come within sqrt(r2)
 * of each other? (They cross, or an endpoint of one is near the other.) */
static int seg_near_wall(const int32_t p[4], const int32_t l[4], uint64_t r2)
{
    uint32_t k;
    if (straddles(p, l))
        return 1;
    for (k = 0; k < 4; k++) /* the ends of p against l, then the ends of l against p */
        if (near_seg(k < 2 ? l : p, (k < 2 ? p : l) + 2 * (k & 1), r2))
            return 1;
    return 0;
}

/* Where a segment crosses a wall: the ratio num/den in [0, 1] along a -> b,
 * both reduced below 2^31 so that coordinate * num fits 2^61. */
typedef struct crossing {
    int64_t num, den;
    int side;             /* 1: a is on the wall's + side (s >= 0) */
} crossing;

/* Halve num and den of c (both >= 0) until both are below 2^31. */
static NOINLINE void reduce(crossing *c)
{
    while (c->den >= 0x80000000LL || c->num >= 0x80000000LL) {
        c->num >>= 1;
        c->den >>= 1;
    }
}

static int cross_wall(const int32_t p[4], const int32_t l[4], crossing *c)
{
    int64_t sa = orient(l, p), sb = orient(l, p + 2);
    c->side = sa >= 0;
    if (c->side == (sb >= 0))
        return 0; /* both ends on one side of the wall's line */
    if (ends_side(p, l) == 1)
        return 0;
    c->num = (int64_t)abs64(sa);
    c->den = (int64_t)abs64(sa - sb); /* sa, sb of opposite signs */
    reduce(c);
    return 1;
}

/* a + (b - a) * num / den, rounded: b - a fits an int32 (a and b are both
 * within +-2^29, or S and S + E in slide_target) and so does num (reduced),
 * so the product is one 32 x 32 -> 64 multiply. */
static NOINLINE int32_t ratio_lerp(int32_t a, int32_t b, const crossing *c)
{
    return (int32_t)(a + rr__div_round64((int64_t)(b - a) * (int32_t)c->num, c->den));
}

static rr_fix ratio_fix(const crossing *c)
{
    return (rr_fix)((c->num << 16) / c->den);
}

/* Are the n arguments at v all within the coordinate range? */
static NOINLINE int args_ok(const int32_t *v, uint32_t n)
{
    while (n--)
        if (!coord_ok(v[n]))
            return 0;
    return 1;
}

/// Per-query state in the arena ///

/* can-move and line of sight keep their state in the arena (first
 * RR_ROO_ARENA_STATE bytes; the BSP walk's stack follows), so their stack
 * frames stay small. Only 32-bit fields and pointers: the arena is only
 * guaranteed 4-byte alignment. */
typedef struct mover {
    int32_t radius, step, height;
    int32_t best;         /* time of the best event so far, 0x10001 = none */
    int32_t probe[4];     /* first_contact's trial segment (off the stack) */
} mover;

typedef struct sighter {
    const int32_t *a, *b;
} sighter;

typedef struct qstate {
    const rr_room *room;  /* the room queried */
    /* The sections every visited wall or BSP node reads, taken from the
     * room's view once per query (query_setup); the others, read once per
     * crossing, go through the view. */
    const rr_roo_wall_rec *walls;
    const rr_roo_vert_rec *points;
    const rr_roo_wall_sides_rec *sides;
    const rr_roo_sidedef_rec *sidedefs;
    const rr_roo_node_rec *nodes;
    const rr_roo_line_rec *lines;
    int32_t seg[4];       /* the path (ax, ay, bx, by) or the sight line in 2D; the
                             corridor's centre line */
    int32_t box[4];       /* min x, min y, max x, max y of q->seg grown by the radius (0
                             for sight): a wall wholly outside it can neither touch nor
                             cross the path */
    int32_t width;        /* the corridor's half width: radius (0 for sight) + wall slack */
    uint32_t node, sp;    /* the wall walk: next internal node (1-based, 0 = done), stack depth */
    uint32_t wall;        /* next wall to hand out, or RR_ROO_NONE */
    void *out;            /* the caller's rr_roo_move or rr_roo_sight */
    union {
        mover m;
        sighter s;
    } u;
} qstate;

typedef char rr__roo_qstate_fits[(sizeof(qstate) <= RR_ROO_ARENA_STATE) ? 1 : -1];
/* check_depths keeps a depth byte per waiting child in the state's bytes */
typedef char rr__roo_depths_fit[(RR_MAX_DEPTH < RR_ROO_ARENA_STATE) ? 1 : -1];

static qstate *query_state(const rr_room *room)
{
    return (qstate *)(void *)room->arena; /* validated: 4-byte aligned, big enough */
}

static uint16_t *walk_stack(const rr_room *room)
{
    return (uint16_t *)(void *)(room->arena + RR_ROO_ARENA_STATE);
}

/* The next node of a depth-first BSP walk (the walls walk, and
 * rr_roo_leaf_order) that leaves a node: child first, else child second,
 * else the node on top of the stack (0: the walk is over); second waits on
 * the stack when both are to be visited (depth-bounded: sp < bsp_depth).
 * Children are 0 when absent or not to be visited. */
static NOINLINE uint32_t descend(uint16_t *stack, uint32_t *sp, uint32_t first, uint32_t second)
{
    if (first && second)
        stack[(*sp)++] = (uint16_t)second;
    return first ? first : second ? second : *sp ? stack[--*sp] : 0u;
}

/// Walls near a segment ///

/* q->box: the bounding box of q->seg grown by margin (0 <= margin < 2^29,
 * coordinates within +-2^29, so it fits an int32). */
static NOINLINE void set_box(qstate *q, int32_t margin)
{
    const int32_t *p = q->seg;
    q->box[0] = (p[0] < p[2] ? p[0] : p[2]) - margin;
    q->box[1] = (p[1] < p[3] ? p[1] : p[3]) - margin;
    q->box[2] = (p[0] > p[2] ? p[0] : p[2]) + margin;
    q->box[3] = (p[1] > p[3] ? p[1] : p[3]) + margin;
}

/* Is the wall line l wholly outside q->box? Then it is farther than the
 * margin from every point of the path: no contact, no crossing (touching
 * the box edge is inside, so the exact tests still decide every tie). */
static int outside_box(const qstate *q, const int32_t l[4])
{
    const int32_t *b = q->box;
    return (l[0] < b[0] && l[2] < b[0]) || (l[0] > b[2] && l[2] > b[2]) ||
           (l[1] < b[1] && l[3] < b[1]) || (l[1] > b[3] && l[3] > b[3]);
}

/* The walk over every wall that can come within q->width of the segment
 * q->seg: the walls listed at each node whose cell the corridor reaches (s of
 * the endpoints against width * norm), with the arena stack as in
 * rr_roo_leaf_order. Rooms flagged RR_ROO_ROOM_NO_WALL_TREE, and brute force,
 * get every wall. Visit order varies; visitors keep the (time, index)
 * minimum. */

/* A child reference as the wall walk sees it: a leaf lists no walls, so
 * only internal nodes are worth a visit (0 = nothing to visit). */
static uint32_t wall_child(uint32_t c)
{
    return (c & RR_ROO_CHILD_LEAF) ? 0u : c;
}

/* An upper bound of the line's length sqrt(A^2 + B^2): M + ceil(m / 2) for
 * M = max(|A|, |B|), m = min (>= the length because M >= 3m/4; at most 12 %
 * above it). |A|, |B| < 2^30 (validated), so it is below 2^31. A wider
 * corridor only visits more walls: the answers do not change. */
static int32_t line_norm(const rr_roo_line_rec *l)
{
    int32_t a = l->a < 0 ? -l->a : l->a, b = l->b < 0 ? -l->b : l->b;
    return a > b ? a + (b + 1) / 2 : b + (a + 1) / 2;
}

/* Take one internal node off the walk: queue its walls, pick the children
 * to visit. */
static NOINLINE void walk_node(const rr_room *room, qstate *q)
{
    const rr_roo_node_rec *p = &q->nodes[q->node - 1];
    const rr_roo_line_rec *l = &q->lines[p->line];
    int64_t sa, sb, lim;
    q->wall = p->first_wall;
    sa = line_side(l, q->seg[0], q->seg[1]), sb = line_side(l, q->seg[2], q->seg[3]);
    /* < 2^30 * 2^31 (line_norm < 2^31) */
    lim = (int64_t)q->width * line_norm(l);
    q->node = descend(walk_stack(room), &q->sp,
                      sa >= -lim || sb >= -lim ? wall_child(p->pos) : 0u,
                      sa <= lim || sb <= lim ? wall_child(p->neg) : 0u);
}

/* The next wall, or RR_ROO_NONE when the walk is over. */
static uint32_t walk_next(const rr_room *room, qstate *q)
{
    uint32_t w;
    while (q->wall == RR_ROO_NONE && q->node)
        walk_node(room, q);
    w = q->wall;
    if (w != RR_ROO_NONE)
        q->wall = q->walls[w].next; /* validated: next > w, so lists end */
    return w;
}

static void move_visit(qstate *q, uint32_t i);
static void sight_visit(qstate *q, uint32_t i);

/* Wall i to the query's visitor (direct calls, so the static call graph of
 * tests/check_stack.py stays exact). */
static void visit(qstate *q, uint32_t i, int sight)
{
    if (sight)
        sight_visit(q, i);
    else
        move_visit(q, i);
}

/* Hand every wall of the walk to the query's visitor; brute force, every
 * wall in index order. */
static NOINLINE void visit_walls(const rr_room *room, qstate *q, int brute, int sight)
{
    uint32_t i, nwalls = rr__count(room, RR_ROO_S_walls);
    if (brute || (room_of(room)->flags & RR_ROO_ROOM_NO_WALL_TREE)) {
        for (i = 0; i < nwalls; i++)
            visit(q, i, sight);
        return;
    }
    q->node = wall_child(room_of(room)->root);
    q->sp = 0;
    q->wall = RR_ROO_NONE;
    while ((i = walk_next(room, q)) != RR_ROO_NONE)
        visit(q, i, sight);
}

/// Movement ///

/* The sidedef of a wall with sides w facing a point on side `side`, or
 * NULL. */
static const rr_roo_sidedef_rec *facing(const qstate *q, const rr_roo_wall_sides_rec *w,
                                        int side)
{
    uint16_t sd = side ? w->pos_sidedef : w->neg_sidedef;
    return sd == RR_ROO_NONE ? 0 : &q->sidedefs[sd];
}

static int one_sided(const rr_roo_wall_sides_rec *w)
{
    return w->pos_sector == RR_ROO_NONE || w->neg_sector == RR_ROO_NONE;
}

static uint64_t radius2(const mover *m)
{
    return (uint64_t)((int64_t)m->radius * m->radius);
}

/* The point a + t (b - a) of the path p = (ax, ay, bx, by), t in Q16
 * (b - a fits an int32: the path is range-checked). */
static NOINLINE void path_at(const int32_t p[4], int32_t t, int32_t out[2])
{
    out[0] = (int32_t)(p[0] + rr_shr_round64((int64_t)(p[2] - p[0]) * t, 16));
    out[1] = (int32_t)(p[1] + rr_shr_round64((int64_t)(p[3] - p[1]) * t, 16));
}

/* Smallest t (Q16, 1..65536) with the path a .. a + t(b - a) within radius
 * of the wall line l, or 0x10001 when the whole path stays out of reach; the predicate
 * grows with t, so bisection is exact on the grid. The first trial is the
 * whole path (path_at gives b exactly for t = 65536). */
static int32_t first_contact(qstate *q, const int32_t l[4])
{
    mover *m = &q->u.m;
    int32_t lo = 0, hi = 0x10001, mid = 0x10000, *pr = m->probe;
    pr[0] = q->seg[0], pr[1] = q->seg[1];
    while (hi - lo > 1) { /* a miss at t = 65536 ends it at once: lo = 65536 */
        path_at(q->seg, mid, pr + 2);
        if (seg_near_wall(pr, l, radius2(m)))
            hi = mid;
        else
            lo = mid;
        mid = lo + (hi - lo) / 2;
    }
    return hi;
}

/* The floor and ceiling of both sectors of a two-sided wall (sides w) where
 * the segment q->seg crosses it at c: h[0], h[1] on its + side
 * (pos_sector), h[2], h[3] on its - side. */
static NOINLINE void cross_heights(const qstate *q, const rr_roo_wall_sides_rec *w,
                                   const crossing *c, int32_t h[4])
{
    int32_t x = ratio_lerp(q->seg[0], q->seg[2], c), y = ratio_lerp(q->seg[1], q->seg[3], c);
    floor_ceiling(q->room, w->pos_sector, x, y, h);
    floor_ceiling(q->room, w->neg_sector, x, y, h + 2);
}

/* A portal crossing: the block reason, or RR_ROO_FREE. */
static int32_t portal_block(const qstate *q, const rr_roo_wall_sides_rec *w,
                            const crossing *c)
{
    const mover *m = &q->u.m;
    int32_t h[4], *near = c->side ? h : h + 2, *far = c->side ? h + 2 : h;
    cross_heights(q, w, c, h);
    if ((int64_t)far[0] - near[0] > m->step)
        return RR_ROO_STEP;
    if ((int64_t)far[1] - far[0] < m->height)
        return RR_ROO_CEILING;
    if (sectors_of(q->room)[c->side ? w->neg_sector : w->pos_sector].flags & 0x2000u)
        return RR_ROO_NOMOVE;
    return RR_ROO_FREE;
}

/* A solid wall's (line l) contact time (Q16, 0x10001 = none). */
static NOINLINE int32_t solid_event(qstate *q, const int32_t l[4])
{
    /* already touching at A (point-to-segment): no event */
    if (near_seg(l, q->seg, radius2(&q->u.m)))
        return 0x10001;
    return first_contact(q, l);
}

/* Keep the earliest event; equal times go to the lower wall index. */
static void keep(qstate *q, uint32_t i, int32_t t, int32_t block, rr_fix stop)
{
    mover *m = &q->u.m;
    rr_roo_move *out = q->out;
    if (t < m->best || (t == m->best && t <= 0x10000 && (int32_t)i < out->wall)) {
        m->best = t;
        out->block = block, out->wall = (int32_t)i, out->fraction = stop;
    }
}

/* A two-sided wall (line l, sides w): a block event where the path crosses
 * into a sector it cannot enter. */
static NOINLINE void portal_event(qstate *q, uint32_t i, const int32_t l[4],
                                  const rr_roo_wall_sides_rec *w)
{
    crossing c;
    int32_t block;
    if (!cross_wall(q->seg, l, &c))
        return;
    block = portal_block(q, w, &c);
    if (block != RR_ROO_FREE)
        keep(q, i, ratio_fix(&c), block, ratio_fix(&c));
}

static NOINLINE void move_visit(qstate *q, uint32_t i)
{
    const rr_roo_wall_rec *wall = &q->walls[i];
    const int32_t *l = wall_line(q->points, wall);
    const rr_roo_wall_sides_rec *w;
    const rr_roo_sidedef_rec *sd;
    int32_t t;
    if (outside_box(q, l))
        return; /* the common case: no event */
    w = &q->sides[wall->sides];
    sd = facing(q, w, orient(l, q->seg) >= 0);
    if (one_sided(w) || (sd && sd->normal_bitmap && !(sd->flags & 0x4u))) {
        t = solid_event(q, l);
        if (t <= 0x10000)
            keep(q, i, t, RR_ROO_WALL, t - 1);
        return;
    }
    portal_event(q, i, l, w);
}

/* The arguments are already in q->seg and q->u.m. */
static rr_err can_move(const rr_room *room, qstate *q, int brute)
{
    mover *m = &q->u.m;
    rr_roo_move *out = q->out;
    int32_t xy[2];
    if (!args_ok(q->seg, 4) || m->radius < 0 || !args_ok(&m->radius, 3)) /* radius, step, height */
        return RR_ERR_RANGE;
    m->best = 0x10001;
    out->block = RR_ROO_FREE, out->wall = -1, out->fraction = RR_FIX_ONE;
    q->width = m->radius + room_of(room)->wall_slack; /* both < 2^29 */
    set_box(q, m->radius);
    visit_walls(room, q, brute, 0);
    path_at(q->seg, out->fraction, xy);
    out->x = xy[0], out->y = xy[1];
    return RR_OK;
}

/* Fill the arena state for a move or a sight line (a, b): NULL on a bad
 * room or out. */
static NOINLINE qstate *query_setup(const rr_room *room, void *out, int32_t ax, int32_t ay,
                                    int32_t bx, int32_t by)
{
    qstate *q;
    if (!query_ok(room, out != 0))
        return 0;
    q = query_state(room);
    q->room = room;
    q->walls = walls_of(room);
    q->points = wall_points_of(room);
    q->sides = wall_sides_of(room);
    q->sidedefs = sidedefs_of(room);
    q->nodes = nodes_of(room);
    q->lines = lines_of(room);
    q->seg[0] = ax, q->seg[1] = ay, q->seg[2] = bx, q->seg[3] = by;
    q->out = out;
    return q;
}

rr_err rr_roo_can_move(const rr_room *room, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                       int32_t radius, int32_t step, int32_t height, rr_roo_move *out)
{
    qstate *q = query_setup(room, out, ax, ay, bx, by);
    if (!q)
        return RR_ERR_ARG;
    q->u.m.radius = radius, q->u.m.step = step, q->u.m.height = height;
    return can_move(room, q, 0);
}

rr_err rr_roo_can_move_all(const rr_room *room, int32_t ax, int32_t ay, int32_t bx,
                           int32_t by, int32_t radius, int32_t step, int32_t height,
                           rr_roo_move *out)
{
    qstate *q = query_setup(room, out, ax, ay, bx, by);
    if (!q)
        return RR_ERR_ARG;
    q->u.m.radius = radius, q->u.m.step = step, q->u.m.height = height;
    return can_move(room, q, 1);
}

/* Slide target: S + E * ((B - S) . E) / |E|^2 for the wall direction E,
 * |ratio| reduced below 2^31 as in cross_wall, each coordinate by
 * ratio_lerp from S to S + E (|S| < 2^29, |E| < 2^30: no overflow).
 * |T - S| <= |B - S| < 2^30 (a projection is never longer than the vector),
 * so nothing overflows. */
static NOINLINE void slide_target(const int32_t l[4], int32_t st[4], int32_t bx,
                                  int32_t by)
{
    int32_t sx = st[0], sy = st[1], *t = st + 2; /* S in, T out */
    int32_t ex = l[2] - l[0], ey = l[3] - l[1];
    int64_t num = (int64_t)(bx - sx) * ex + (int64_t)(by - sy) * ey;
    crossing c;
    c.num = (int64_t)abs64(num), c.den = (int64_t)ex * ex + (int64_t)ey * ey;
    reduce(&c);
    t[0] = sx, t[1] = sy;
    if (c.den == 0 || c.num == 0)
        return; /* no motion along the wall */
    if (num < 0)
        c.num = -c.num;
    t[0] = ratio_lerp(sx, sx + ex, &c);
    t[1] = ratio_lerp(sy, sy + ey, &c);
}

rr_err rr_roo_slide(const rr_room *room, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                    int32_t radius, int32_t step, int32_t height, rr_roo_move *first,
                    rr_roo_move *second)
{
    qstate *q = second ? query_setup(room, first, ax, ay, bx, by) : 0;
    int32_t *st;
    rr_err e;
    if (!q)
        return RR_ERR_ARG;
    q->u.m.radius = radius, q->u.m.step = step, q->u.m.height = height;
    e = can_move(room, q, 0);
    *second = *first;
    if (e || first->block != RR_ROO_WALL)
        return e;
    /* the second leg S -> T, built in place in the arena state */
    st = q->seg;
    st[0] = first->x, st[1] = first->y;
    slide_target(wall_line(q->points, &q->walls[first->wall]), st, bx, by);
    if (!args_ok(st + 2, 2))
        return RR_OK; /* cannot slide that far: stay at the first stop */
    q->out = second;
    return can_move(room, q, 0);
}

/// Line of sight ///

/* Does the wall with sides w, crossed at c by the sight line a -> b, block
 * it? */
static int sight_blocked(const qstate *q, const rr_roo_wall_sides_rec *w, const crossing *c)
{
    const sighter *s = &q->u.s;
    const rr_roo_sidedef_rec *sd = facing(q, w, c->side);
    int32_t h[4], z;
    if (one_sided(w))
        return 1;
    if (sd && ((sd->normal_bitmap && !(sd->flags & 0x2u)) || (sd->flags & 0x20u)))
        return 1;
    cross_heights(q, w, c, h); /* q->seg is a -> b in 2D */
    z = ratio_lerp(s->a[2], s->b[2], c);
    return z < h[0] || z < h[2] || z > h[1] || z > h[3];
}

static NOINLINE void sight_visit(qstate *q, uint32_t i)
{
    const rr_roo_wall_rec *w = &q->walls[i];
    const int32_t *l = wall_line(q->points, w);
    rr_roo_sight *out;
    crossing c;
    rr_fix t;
    if (outside_box(q, l) || !cross_wall(q->seg, l, &c))
        return; /* the common case: out is read only after it */
    out = q->out, t = ratio_fix(&c);
    if (!out->visible && (t > out->fraction || (t == out->fraction && (int32_t)i > out->wall)))
        return;
    if (sight_blocked(q, &q->sides[w->sides], &c))
        out->visible = 0, out->wall = (int32_t)i, out->fraction = t;
}

static rr_err sight(const rr_room *room, const int32_t a[3], const int32_t b[3],
                    rr_roo_sight *out, int brute)
{
    /* the 2D sight line in q->seg */
    qstate *q = a && b ? query_setup(room, out, a[0], a[1], b[0], b[1]) : 0;
    if (!q)
        return RR_ERR_ARG;
    if (!args_ok(a, 3) || !args_ok(b, 3))
        return RR_ERR_RANGE;
    out->visible = 1, out->wall = -1, out->fraction = RR_FIX_ONE;
    q->u.s.a = a, q->u.s.b = b;
    q->width = room_of(room)->wall_slack;
    set_box(q, 0);
    visit_walls(room, q, brute, 1);
    return RR_OK;
}

rr_err rr_roo_line_of_sight(const rr_room *room, const int32_t a[3], const int32_t b[3],
                            rr_roo_sight *out)
{
    return sight(room, a, b, out, 0);
}

rr_err rr_roo_line_of_sight_all(const rr_room *room, const int32_t a[3], const int32_t b[3],
                                rr_roo_sight *out)
{
    return sight(room, a, b, out, 1);
}

/// Render order ///

rr_err rr_roo_leaf_order(const rr_room *room, int32_t x, int32_t y, uint16_t *out,
                         uint32_t cap, uint32_t *count)
{
    const rr_roo_node_rec *nodes;
    const rr_roo_line_rec *lines;
    uint16_t *stack;
    uint32_t sp = 0, n = 0, c;
    if (!query_ok(room, count && (out || cap == 0)))
        return RR_ERR_ARG;
    nodes = nodes_of(room);
    lines = lines_of(room);
    stack = walk_stack(room); /* validated: 2 * (depth + 1) bytes */
    c = room_of(room)->root;  /* a child reference (rr_roo_blob.h) */
    while (c) {
        const rr_roo_node_rec *p;
        uint32_t near, far;
        if (c & RR_ROO_CHILD_LEAF) {
            if (n < cap)
                out[n] = (uint16_t)(c & ~RR_ROO_CHILD_LEAF);
            n++;
            c = descend(stack, &sp, 0, 0);
            continue;
        }
        p = &nodes[c - 1];
        near = p->pos, far = p->neg;
        if (line_side(&lines[p->line], x, y) < 0)
            near = p->neg, far = p->pos;
        c = descend(stack, &sp, near, far);
    }
    *count = n;
    return RR_OK;
}


/// Server grids ///

/* Row and column of (x, y) in a grid of rows x cols squares of 2^shift
 * coords (row 0 at y = 0): 0 when it lies outside. Shifting is dividing
 * here: x, y >= 0. */
static int grid_cell(int32_t x, int32_t y, uint32_t shift, int32_t rows, int32_t cols,
                     uint32_t rc[2])
{
    if (x < 0 || y < 0 || (y >> shift) >= rows || (x >> shift) >= cols)
        return 0;
    rc[0] = (uint32_t)(y >> shift), rc[1] = (uint32_t)(x >> shift);
    return 1;
}

/* The high-res cell at row, column: its 4 x 4 tile from the map, its palette
 * entry from the tile, its value from the palette (all validated indices). */
static uint32_t hires_cell(const rr_room *room, const rr_roo_room_rec *r, const uint32_t rc[2])
{
    uint32_t tcols = ((uint32_t)r->hires_cols + RR_ROO_TILE - 1u) >> RR_ROO_TILE_SHIFT;
    uint32_t t = (rc[0] >> RR_ROO_TILE_SHIFT) * tcols + (rc[1] >> RR_ROO_TILE_SHIFT);
    uint32_t within = (rc[0] & (RR_ROO_TILE - 1u)) * RR_ROO_TILE + (rc[1] & (RR_ROO_TILE - 1u));
    const rr_roo_hires_tile *tile = &hires_tiles_of(room)[hires_map_of(room)[t].tile];
    return hires_palette_of(room)[tile->cell[within]].hires;
}

rr_err rr_roo_grid_at(const rr_room *room, int32_t x, int32_t y, rr_roo_cell *out)
{
    const rr_roo_room_rec *r;
    uint32_t rc[2], c;
    if (!query_ok(room, out != 0))
        return RR_ERR_ARG;
    /* palette and cells come together (validated); the high-res grid is optional */
    if (!present(room, RR_ROO_S_grid_palette))
        return RR_ERR_MISSING;
    r = room_of(room);
    out->move = out->flags = out->monster = 0;
    out->has_grid = out->has_hires = 0;
    out->hires = 0;
    /* validated: a palette entry per cell, or a map of a tile per 2 x 2
     * block with every index in range */
    if (grid_cell(x, y, room->coord_frac + 10, r->grid_rows, r->grid_cols, rc)) {
        const rr_roo_grid_entry *e;
        grid_shape g;
        c = rc[0] * (uint32_t)r->grid_cols + rc[1];
        if (present(room, RR_ROO_S_grid_map)) {
            /* the cell's 2 x 2 block, its tile from the map, its palette
             * index from the tile (row-major within) */
            grid_shape_of(room, &g);
            c = (rc[0] >> 1) * (((uint32_t)r->grid_cols + 1u) >> 1) + (rc[1] >> 1);
            c = grid_index(grid_map_of(room), c, g.tile_bits) * 4u + (rc[0] & 1u) * 2u +
                (rc[1] & 1u);
            c = grid_index(grid_tiles_of(room), c, g.palette_bits);
        }
        e = &grid_palette_of(room)[c];
        out->has_grid = 1;
        out->move = e->move;
        out->flags = e->flags;
        out->monster = e->monster;
    }
    if (present(room, RR_ROO_S_hires_map) &&
        grid_cell(x, y, room->coord_frac + 8, r->hires_rows, r->hires_cols, rc)) {
        out->has_hires = 1;
        out->hires = hires_cell(room, r, rc);
    }
    return out->has_grid || out->has_hires ? RR_OK : RR_ERR_NOTFOUND;
}

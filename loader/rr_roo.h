/* rr_roo.h - queries on a baked Meridian 59 room (RR_FMT_ROO).
 *
 * USAGE
 *   rr_room room;                        // opened with rr_open, with an arena of
 *                                        // rr_arena_size() bytes (the section view,
 *                                        // the query state, the BSP walk stack)
 *   rr_roo_where w;
 *   if (rr_roo_locate(&room, x, y, &w) == RR_OK) ... w.sector ...
 *   rr_roo_heights h;
 *   rr_roo_height(&room, x, y, &h);      // floor / ceiling under a point
 *   rr_roo_can_move(&room, ax, ay, bx, by, radius, step, height, &m);
 *   rr_roo_line_of_sight(&room, a, b, &s);
 *
 * UNITS  x, y, z are client units (1024 per server grid square; x east,
 *   y SOUTH as in the file, z up) in coords: int32 with room->coord_frac
 *   fractional bits (rr_roo_blob.h says how the baker picks it). Convert a
 *   client-unit value v with v << coord_frac.
 *
 * COST   locate: one pass down the BSP, at most bsp_depth nodes, three
 *   64-bit multiply-adds per node. height: locate + one 64-bit division on a
 *   slope. can-move and line of sight: a BSP walk to the walls near the
 *   path (the _all variants: every wall). No recursion, no malloc; leaf
 *   order, can-move and line of sight use the arena as their walk stack
 *   (2 bytes per BSP level). Deepest stack chain: < 512 bytes (docs/roo.md).
 */
#ifndef RR_ROO_H
#define RR_ROO_H

#include "rr.h"

/// Locate ///

/* Where a point is: its BSP leaf and sector. */
typedef struct rr_roo_where {
    int32_t sector;    /* 0-based sector, -1 when outside */
    int32_t leaf;      /* 0-based leaf record, -1 when outside */
    int32_t node;      /* 0-based node where the walk ended (the leaf's node,
                          or the node whose needed child is missing) */
} rr_roo_where;

/* The client's BSPFindLeafByPoint: at each internal node s = a*x + b*y + c;
 * s > 0 goes to the + child, s < 0 to the - child, s == 0 to the + child if
 * it exists, else the - child. A missing child (or an empty tree) means
 * "outside": RR_ERR_NOTFOUND with sector = leaf = -1.
 * Every query of this header takes a room that rr_open filled in: a room
 * of another format gets RR_ERR_ARG; a ROO room that rr_open did not fill
 * in (no section view) is a caller bug, trapped by RR_ASSERT in RR_DEBUG
 * builds.
 * Returns RR_OK, RR_ERR_NOTFOUND or RR_ERR_ARG. */
rr_err rr_roo_locate(const rr_room *room, int32_t x, int32_t y, rr_roo_where *out);

/// Heights ///

typedef struct rr_roo_heights {
    int32_t floor;          /* where an object stands: surface - depth offset */
    int32_t floor_surface;  /* the floor plane itself (flat or sloped) */
    int32_t ceiling;        /* flat or sloped ceiling */
    int32_t sector;         /* 0-based sector (as rr_roo_locate) */
    uint32_t flags;         /* the sector's file flags (depth bits 0-1, 0x2000 no-move) */
} rr_roo_heights;

/* Floor and ceiling at (x, y): the sector from rr_roo_locate, then the flat
 * height (file value * 16 client units) or the slope plane
 * z = -(a*x + b*y + d) / c rounded half away from zero; the floor also drops
 * by the depth offset {0, 204, 409, 614} client units (sloped floors too).
 * Results saturate to the int32 range. No clamping of floor against ceiling.
 * Returns RR_OK, RR_ERR_NOTFOUND (outside; *out zeroed, sector -1) or RR_ERR_ARG. */
rr_err rr_roo_height(const rr_room *room, int32_t x, int32_t y, rr_roo_heights *out);

/* The same for a known sector (0-based), without locating. RR_ERR_ARG when
 * sector is out of range. */
rr_err rr_roo_sector_height(const rr_room *room, int32_t sector, int32_t x, int32_t y,
                            rr_roo_heights *out);

/// Movement ///

/* Why a move stopped. */
enum rr_roo_block {
    RR_ROO_FREE = 0,      /* reached B */
    RR_ROO_WALL = 1,      /* came within radius of a solid wall */
    RR_ROO_STEP = 2,      /* the floor beyond a wall rises more than step */
    RR_ROO_CEILING = 3,   /* the space beyond a wall is lower than height */
    RR_ROO_NOMOVE = 4     /* the sector beyond a wall is no-move (flag 0x2000) */
};

typedef struct rr_roo_move {
    int32_t block;        /* enum rr_roo_block */
    int32_t wall;         /* 0-based wall that stopped the move, -1 if free */
    rr_fix fraction;      /* how far along A->B the mover gets, RR_FIX_ONE = all */
    int32_t x, y;         /* where it stops: A + fraction * (B - A), rounded */
} rr_roo_move;

/* Can a mover (a circle of the given radius, its feet climbing at most
 * `step`, needing `height` of headroom) go straight from A to B?
 *
 * Solid walls: a wall with no sector on one side, or whose sidedef facing
 * the mover has a middle texture and is not passable (wall flag 0x4). The
 * mover stops at the last position (on a 2^-16 grid of the move) where its
 * path A..P stays farther than radius from every solid wall; walls it
 * already touches at A are ignored (it may always back out of contact).
 * Other walls are portals: when the centre crosses one (the side rule of
 * rr_roo_locate, s >= 0 is the + side), the sectors on both sides are
 * compared at the crossing point: a far floor more than step above the near
 * floor, a far ceiling less than height above the far floor, or a no-move
 * far sector stop the mover at the crossing. The earliest event wins (ties:
 * the lower wall index). Heights use the floor surface (no depth offset).
 * All inputs in coords; |x|, |y|, radius, step, height < 2^29.
 * Cost: the walls listed at the BSP nodes whose cells the path's corridor
 * (radius + the room's wall slack) reaches, + 16 bisection steps per touched
 * solid wall; the arena is the walk's stack (as rr_roo_leaf_order).
 * Returns RR_OK (see out->block), RR_ERR_RANGE or RR_ERR_ARG. */
rr_err rr_roo_can_move(const rr_room *room, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                       int32_t radius, int32_t step, int32_t height, rr_roo_move *out);

/* The same answer, testing every wall instead of walking the BSP (the
 * reference the BSP walk is checked and benchmarked against). */
rr_err rr_roo_can_move_all(const rr_room *room, int32_t ax, int32_t ay, int32_t bx,
                           int32_t by, int32_t radius, int32_t step, int32_t height,
                           rr_roo_move *out);

/* rr_roo_can_move, then, if a solid wall stopped the mover, a second move
 * from where it stopped along that wall: the target is the stop point plus
 * the remaining motion projected onto the wall's direction (rounded half
 * away from zero; no slide when that projection is zero or the target
 * leaves +-2^29). *first
 * is the first move, *second the slide (equal to *first when there is none);
 * second->x, y is where the mover ends. Same cost as two can-moves. */
rr_err rr_roo_slide(const rr_room *room, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                    int32_t radius, int32_t step, int32_t height, rr_roo_move *first,
                    rr_roo_move *second);

/// Line of sight ///

typedef struct rr_roo_sight {
    int visible;          /* 1 when nothing is in the way */
    int32_t wall;         /* 0-based first blocking wall, -1 if visible */
    rr_fix fraction;      /* where along A->B it is blocked, RR_FIX_ONE if visible */
} rr_roo_sight;

/* Can a viewer at A see B (3D points, z up)? Every wall the segment crosses
 * in 2D (side rule as in rr_roo_can_move) is tested at the crossing: it
 * blocks when it has no sector on one side, when its sidedef facing A has a
 * middle texture that is not transparent (flag 0x2), when that sidedef is
 * "no look-through" (0x20), or when the sight line's z there is below
 * either side's floor surface or above either side's ceiling. Floors and
 * ceilings are planes, so testing them where the line enters and leaves each
 * sector covers the whole sector. The earliest blocking wall is reported
 * (equal fractions: the lower index). |coordinates| < 2^29. Walls are found
 * by the BSP walk of rr_roo_can_move (corridor = the wall slack).
 * Returns RR_OK (see out->visible), RR_ERR_RANGE or RR_ERR_ARG. */
rr_err rr_roo_line_of_sight(const rr_room *room, const int32_t a[3], const int32_t b[3],
                            rr_roo_sight *out);
/* The same answer, testing every wall. */
rr_err rr_roo_line_of_sight_all(const rr_room *room, const int32_t a[3], const int32_t b[3],
                                rr_roo_sight *out);

/// Render order ///

/* The renderer's walk (client WalkBSPtree): every leaf of the tree, nearest
 * side first from the viewpoint (x, y): at each internal node the child on
 * the viewer's side (s >= 0: the + child) is visited before the other.
 * Writes up to cap 0-based leaf indices to out and the number of leaves in
 * the walk to *count (which may exceed cap: the output is then truncated).
 * Uses the arena as its stack (2 bytes per tree level; rr_arena_size() says
 * how much). Returns RR_OK or RR_ERR_ARG (out may be NULL only if cap is 0). */
rr_err rr_roo_leaf_order(const rr_room *room, int32_t x, int32_t y, uint16_t *out,
                         uint32_t cap, uint32_t *count);

/// Server grids (v12-14) ///

typedef struct rr_roo_cell {
    uint8_t move;         /* player move bits N, NE, E, SE, S, SW, W, NW (bit 0 = N) */
    uint8_t flags;        /* bit 0: a floor covers the square centre */
    uint8_t monster;      /* monster move bits, as move */
    uint8_t has_grid;     /* 1 when the point lies in the 1024-unit grid (else
                             move, flags, monster are 0) */
    uint8_t has_hires;    /* 1 when it lies in the v13/14 high-res grid */
    uint32_t hires;       /* the high-res cell under the point (bit 0 walkable,
                             bits 1-8 move, bits 9-31 floor height / 256 client units) */
} rr_roo_cell;

/* The grid cells under (x, y): the 1024-unit square and the 256-unit
 * high-res square (row 0 = north, y = 0; the two grids may cover slightly
 * different areas: rows = height/1024 vs height/256). RR_ERR_MISSING when the
 * room has no grids (v15), RR_ERR_NOTFOUND when the point lies in neither. */
rr_err rr_roo_grid_at(const rr_room *room, int32_t x, int32_t y, rr_roo_cell *out);

/// Room facts ///

/* Counts and the room rectangle as baked. */
typedef struct rr_roo_info {
    uint32_t version;       /* source file version 12..15 */
    uint32_t nodes, leaves, sectors, slopes, walls, sidedefs, bsp_depth;
    int32_t rect[4];        /* x0, y0, x1, y1 in coords */
    int32_t grid_rows, grid_cols, hires_rows, hires_cols;
    int security_ok;        /* the source file's checksum matched */
} rr_roo_info;

rr_err rr_roo_get_info(const rr_room *room, rr_roo_info *out);

#endif

/* rr_roo_blob.h - the sections of a baked Meridian 59 room (RR_FMT_ROO),
 * shared by the loader (rr_roo.c) and the baker (tools/rrb_roo_bake.c), in
 * the schema vocabulary of rr_blobfmt.h: every record below is the one
 * definition of its struct, of rr_open's per-field checks, of the baker's
 * byte swapping and of its lines in docs/blob-format.md.
 *
 * Units. World coordinates are client units (1024 per server grid square,
 * x east, y SOUTH, z up) stored as int32 with the blob's coord_frac
 * fractional bits. The baker picks the largest coord_frac in 0..8 for which
 * every coordinate of the room (leaf points, walls, node boxes, the room
 * rectangle) stays below 2^29 in magnitude, so sums and differences of two
 * coordinates still fit an int32; a room reaching 2^29 client units is
 * rejected. (±2^18 client units, NOTES §7.2, gets coord_frac 8 = 1/256 unit.)
 *
 * Separator lines (nodes) and slope planes keep the file's coefficients with
 * a per-record power-of-two scale, so only their sign / ratio matters:
 *   v12/13 (integers): A = a, B = b, C = c * 2^coord_frac            (exact)
 *   v14/15 (f32):      k = 29 - floor(log2(max(|a|,|b|)))  (per line),
 *                      A = rnd(a*2^k), B = rnd(b*2^k), C = rnd(c*2^(k+coord_frac))
 *   rnd = round half away from zero. For a point (X, Y) in coords,
 *   s = A*X + B*Y + C (int64) has the sign of a*x + b*y + c (exactly for
 *   v12/13; for v14/15 up to the 2^-30 relative rounding of the coefficients).
 * Slopes the same way with max(|a|,|b|,|c|) and D = rnd(d*2^(k+coord_frac));
 * v12/13 planes are stored unscaled (A=a, B=b, C=c, D=d*2^coord_frac).
 * |A|, |B| (and a slope's |C|) < 2^30 and |C| (|D|) < 2^61, so
 * A*X + B*Y + C never overflows an int64 for any int32 point.
 *
 * The BSP (issue 18): the internal nodes in their own section, in pre-order
 * (root first), each naming its separator in a table of distinct lines
 * (NODES -> LINES), and the leaves in another (leaf k = the k-th leaf node of
 * the file). A child reference (node pos / neg, the room's root) is a u16:
 * 0 = none (outside), 1..nnodes = internal node (1-based), RR_ROO_CHILD_LEAF
 * | k = leaf k. Every other index is 0-based with RR_ROO_NONE (0xffff) = none
 * where the field says so. 16-bit indices need fewer than 0xffff records in
 * the section they point into (the validator checks the room's counts;
 * internal nodes and leaves fewer than 0x8000).
 *
 * Grids: the three byte grids (move, flags, monster) as one palette of
 * their distinct cells (279 in v12_i7), the distinct 2 x 2 tiles of palette
 * indices (281) and a tile index per 2 x 2 block (700), indices bit-packed
 * (9 bits each here): 2,053 + 837 bytes instead of 8,250 (schema 4); the
 * high-res grid (u32 cells,
 * 262-526 distinct values in a room of up to 425,984 cells) as 4 x 4 tiles of
 * u16 indices into a palette of its distinct cells, each distinct tile stored
 * once and a map of u16 tile indices: 2 bytes per 16 cells plus the distinct
 * tiles, read in place (cell = palette[tiles[map[tile]].cell[within]]).
 */
#ifndef RR_ROO_BLOB_H
#define RR_ROO_BLOB_H

#include <stdint.h>

#include "rr_blobfmt.h"

/* Section type ids. Issue 18 gave the room, the nodes, the leaves and the
 * sectors new layouts, so they have new ids (a blob of the old layout fails
 * with RR_ERR_SECTION instead of being misread); 0x0300-0x0304, 0x830b and
 * (schema 3: walls as point chains; node depths checked by a walk instead of
 * stored; line norms bounded from the line instead of stored) 0x0306,
 * 0x0317 and 0x0318 are retired. */
#define RR_SEC_ROO_SLOPES   0x0305u
#define RR_SEC_ROO_WALLS    0x0319u
#define RR_SEC_ROO_WALL_POINTS 0x031au
#define RR_SEC_ROO_WALL_SIDES  0x031bu
#define RR_SEC_ROO_SIDEDEFS 0x0307u
#define RR_SEC_ROO_ROOM     0x030cu
#define RR_SEC_ROO_NODES    0x030du
#define RR_SEC_ROO_LINES    0x030eu
#define RR_SEC_ROO_LEAVES   0x030fu
#define RR_SEC_ROO_SECTORS  0x0310u
/* Internal nodes' file numbers, optional (schema 3): only when the file's
 * node numbers are not its pre-order (rr_roo_node_number in rr_roo.c). */
#define RR_SEC_ROO_NODE_NUMBERS (RR_SEC_OPTIONAL | 0x031cu)
/* Leaf polygons (floor outlines: render data, no query reads them), optional:
 * left out by --collision-only. */
#define RR_SEC_ROO_POLYGONS (RR_SEC_OPTIONAL | 0x0311u)
#define RR_SEC_ROO_CORNERS  (RR_SEC_OPTIONAL | 0x0312u)
#define RR_SEC_ROO_VERTS    (RR_SEC_OPTIONAL | 0x0313u)
/* Server grids (v12-14), optional, all three or none (schema 4): the distinct
 * (move, flags, monster) cells, the distinct 2 x 2 tiles of their palette
 * indices, per 2 x 2 block (row-major, row 0 = north) its tile; indices
 * bit-packed (RR_ROO_GRID_BYTE). */
#define RR_SEC_ROO_GRID_PALETTE (RR_SEC_OPTIONAL | 0x031du)
#define RR_SEC_ROO_GRID_TILES   (RR_SEC_OPTIONAL | 0x031eu)
#define RR_SEC_ROO_GRID_MAP     (RR_SEC_OPTIONAL | 0x031fu)
#define RR_SEC_ROO_HIRES_PALETTE (RR_SEC_OPTIONAL | 0x0314u)
#define RR_SEC_ROO_HIRES_TILES   (RR_SEC_OPTIONAL | 0x0315u)
#define RR_SEC_ROO_HIRES_MAP     (RR_SEC_OPTIONAL | 0x0316u)

#define RR_ROO_NONE 0xffffu
#define RR_ROO_CHILD_LEAF 0x8000u   /* child reference to a leaf: | leaf index */
#define RR_ROO_MAX_TREE 0x7fffu     /* internal nodes, leaves: at most this many */
#define RR_ROO_TILE 4u              /* high-res grid tiles: 4 x 4 cells */
#define RR_ROO_TILE_SHIFT 2u
#define RR_ROO_MAX_FRAC 8u          /* largest coord_frac the baker picks */
#define RR_ROO_COORD_LIMIT (1L << 29) /* |coordinate| bound in coords */
#define RR_ROO_COEF_LIMIT (1L << 30)  /* |A|, |B| (and slope |C|) bound */
/* |C| (lines) and |D| (slopes) bound: 2^61, so A*X + B*Y + C fits int64. */
#define RR_ROO_CONST_LIMIT_HI (1L << 29) /* bound on the high word: |hi| < 2^29 */
/* The same bounds as the largest value allowed (the schema's arg). */
#define RR_ROO_COORD_MAX (RR_ROO_COORD_LIMIT - 1)
#define RR_ROO_COEF_MAX (RR_ROO_COEF_LIMIT - 1)
#define RR_ROO_CONST_HI_MAX (RR_ROO_CONST_LIMIT_HI - 1)

/* Arena (after the section view rr_open puts first): the first
 * RR_ROO_ARENA_STATE bytes hold the state of a can-move or line-of-sight
 * query (rr_roo.c checks at compile time that it fits, pointers of a
 * 64-bit host included), then 2 bytes per BSP level (+1) are the stack of
 * the BSP walks. The baker declares RR_ROO_ARENA_STATE + 2 * (bsp_depth +
 * 1), rounded up to 4 (rrb_blob_finish adds the view); the validator
 * refuses less. */
#define RR_ROO_ARENA_STATE 152u

/* Room flags (rr_roo_room_rec.flags). */
#define RR_ROO_ROOM_SECURITY_OK 1u  /* the file's security value matched */
#define RR_ROO_ROOM_HAS_ROOM_ID 2u
/* Walls are not all reachable through the nodes' wall lists (first_wall +
 * next), or the lists are not forward chains: can-move and line of sight
 * then test every wall instead of walking the BSP. */
#define RR_ROO_ROOM_NO_WALL_TREE 4u
#define RR_ROO_ROOM_FLAGS \
    (RR_ROO_ROOM_SECURITY_OK | RR_ROO_ROOM_HAS_ROOM_ID | RR_ROO_ROOM_NO_WALL_TREE)

/* ---- the records ---------------------------------------------------------
 * F(T, name, type, dim, kind, arg, doc): see rr_blobfmt.h. The slots
 * RR_ROO_S_* named as args come from the section list at the end. */

/* RR_SEC_ROO_ROOM, exactly one: the room as a whole. */
#define RR_ROO_ROOM(F, T)                                                              \
    F(T, version, U32, , DATA, 0, "source .roo version 12..15")                        \
    F(T, flags, U32, , FLAGS, RR_ROO_ROOM_FLAGS, "RR_ROO_ROOM_*: 1 security value "    \
      "matched, 2 has a room id, 4 no wall tree (can-move and sight test every wall)") \
    F(T, security, I32, , DATA, 0, "security value as stored in the file")            \
    F(T, room_id, I32, , DATA, 0, "room id as stored in the file (flag 2)")           \
    F(T, rect, I32, [4], COORD, RR_ROO_COORD_MAX, "room rectangle x0, y0, x1, y1 in "  \
      "coords: (0, 0, width, height)")                                                 \
    F(T, nnodes, U32, , COUNTOF, RR_ROO_S_nodes, "records of each section, in "        \
      "section order: internal nodes and leaves below 0x8000, the others below "       \
      "0xffff (16-bit indices)")                                                       \
    F(T, nlines, U32, , COUNTOF, RR_ROO_S_lines, "")                                   \
    F(T, nleaves, U32, , COUNTOF, RR_ROO_S_leaves, "")                                 \
    F(T, nsectors, U32, , COUNTOF, RR_ROO_S_sectors, "")                               \
    F(T, nslopes, U32, , COUNTOF, RR_ROO_S_slopes, "")                                 \
    F(T, nwalls, U32, , COUNTOF, RR_ROO_S_walls, "")                                   \
    F(T, nwall_points, U32, , COUNTOF, RR_ROO_S_wall_points, "")                       \
    F(T, nwall_sides, U32, , COUNTOF, RR_ROO_S_wall_sides, "")                         \
    F(T, nsidedefs, U32, , COUNTOF, RR_ROO_S_sidedefs, "")                             \
    F(T, root, U32, , SEMANTIC, 0, "child reference of the root: 0 (no tree), 1 "      \
      "(internal node 1) or RR_ROO_CHILD_LEAF | 0 (one leaf)")                         \
    F(T, bsp_depth, U32, , SEMANTIC, 0, "deepest internal node, root = 1 (checked "    \
      "by a walk of the tree); at most the blob's max_depth; the arena holds a walk "  \
      "stack of 2 * (bsp_depth + 1) bytes")                                            \
    F(T, grid_rows, I32, , SEMANTIC, 0, "server grid rows: the grid map, if present, "  \
      "holds ceil(grid_rows / 2) x ceil(grid_cols / 2) tiles (0 when absent)")                             \
    F(T, grid_cols, I32, , SEMANTIC, 0, "")                                            \
    F(T, hires_rows, I32, , SEMANTIC, 0, "high-res grid rows: its map, if present, "   \
      "holds ceil(hires_rows / 4) x ceil(hires_cols / 4) tiles (0 when absent)")       \
    F(T, hires_cols, I32, , SEMANTIC, 0, "")                                           \
    F(T, wall_slack, I32, , MAX, RR_ROO_COORD_MAX, "coords, 0..2^29-1: how far any "   \
      "wall reaches outside the BSP cell of the node that lists it, rounded up, + 1 "  \
      "client unit (the BSP wall walk widens its corridor by this)")
RR_RECORD(rr_roo_room_rec, RR_ROO_ROOM, 96);

/* RR_SEC_ROO_NODES: the internal nodes of the BSP, root first, in pre-order
 * (+ child's subtree before the - child's). An internal child's number is
 * greater than its parent's (checked), and rr_open walks the tree once to
 * check that no node lies deeper than bsp_depth, so a walk is a forward
 * loop of at most bsp_depth nodes. */
#define RR_ROO_NODE(F, T)                                                              \
    F(T, line, U16, , INDEX, RR_ROO_S_lines, "its separator line")                     \
    F(T, pos, U16, , SEMANTIC, 0, "child on the + side (s > 0): 0 = none (outside), "  \
      "1..nnodes = internal node (1-based, later than this one), RR_ROO_CHILD_LEAF | " \
      "k = leaf k (checked)")                                                          \
    F(T, neg, U16, , SEMANTIC, 0, "the same on the - side")                            \
    F(T, first_wall, U16, , INDEX_OPT, RR_ROO_S_walls, "first wall on this line, or "  \
      "none; the list goes on through the walls' next")
RR_RECORD(rr_roo_node_rec, RR_ROO_NODE, 8);

/* RR_SEC_ROO_NODE_NUMBERS (optional): one per internal node, in the same
 * order. Absent when the file numbers its nodes in pre-order, + child first
 * (every corpus room): then an internal node's number is found from the
 * first leaf below it (rr_roo.c) and every internal node has a child
 * (checked). */
#define RR_ROO_NODE_NUMBER(F, T)                                                       \
    F(T, number, U16, , DATA, 0, "0-based node number in the file (locate reports "    \
      "it when the point is outside)")
RR_RECORD(rr_roo_node_number_rec, RR_ROO_NODE_NUMBER, 2);

/* RR_SEC_ROO_LINES: the distinct separator lines of the nodes, scaled as
 * described at the top: s = A*X + B*Y + C > 0 on the + side. The wall walk
 * bounds the line's length sqrt(A^2 + B^2) by max(|A|,|B|) + ceil(min/2)
 * (at most 12 % above it, < 2^31). */
#define RR_ROO_LINE(F, T)                                                              \
    F(T, a, I32, , ABS, RR_ROO_COEF_MAX, "scaled separator A*x + B*y + C (see "        \
      "rr_roo_blob.h), |A|, |B| < 2^30")                                               \
    F(T, b, I32, , ABS, RR_ROO_COEF_MAX, "")                                           \
    F(T, c_lo, U32, , DATA, 0, "C, an int64 in two words: low word")                   \
    F(T, c_hi, I32, , ABS, RR_ROO_CONST_HI_MAX, "high word, |c_hi| < 2^29")
RR_RECORD(rr_roo_line_rec, RR_ROO_LINE, 16);

/* RR_SEC_ROO_LEAVES: the leaves, in the file's node order. */
#define RR_ROO_LEAF(F, T)                                                              \
    F(T, node, U16, , DATA, 0, "0-based node number in the file (locate reports it)")  \
    F(T, sector, U16, , INDEX, RR_ROO_S_sectors, "its sector")
RR_RECORD(rr_roo_leaf_rec, RR_ROO_LEAF, 4);

/* RR_SEC_ROO_POLYGONS (optional, one per leaf when present): the leaf's
 * floor polygon, convex, clockwise seen from above (x east, y south), as a
 * run of corners. */
#define RR_ROO_POLYGON(F, T)                                                           \
    F(T, first, U16, , FIRST, RR_ROO_S_corners, "first corner")                        \
    F(T, count, U16, , COUNT, RR_ROO_S_corners, "corners")
RR_RECORD(rr_roo_polygon_rec, RR_ROO_POLYGON, 4);

/* RR_SEC_ROO_CORNERS (optional): a polygon corner, as a point of the room:
 * the points of the walls first, then the corners that are no wall's point
 * (schema 3: most leaf corners are wall ends, stored once). */
#define RR_ROO_CORNER(F, T)                                                            \
    F(T, vert, U16, , SEMANTIC, 0, "its point: < nwall_points: WALL_POINTS[vert], "    \
      "else VERTS[vert - nwall_points] (checked)")
RR_RECORD(rr_roo_corner_rec, RR_ROO_CORNER, 2);

/* A point (x, y): the records of WALL_POINTS and VERTS. */
#define RR_ROO_VERT(F, T)                                                              \
    F(T, x, I32, , COORD, RR_ROO_COORD_MAX, "coords")                                  \
    F(T, y, I32, , COORD, RR_ROO_COORD_MAX, "")
RR_RECORD(rr_roo_vert_rec, RR_ROO_VERT, 8);
/* RR_SEC_ROO_VERTS (optional): the distinct polygon corners that are not
 * wall points. RR_SEC_ROO_WALL_POINTS: the wall chains' points (below). */

/* RR_SEC_ROO_SECTORS. The depth offset {0, 204, 409, 614} client units
 * follows from flags bits 0-1. */
#define RR_ROO_SECTOR(F, T)                                                            \
    F(T, floor_z, I32, , COORD, RR_ROO_COORD_MAX, "flat floor, coords (file height "   \
      "* 16 client units)")                                                            \
    F(T, ceiling_z, I32, , COORD, RR_ROO_COORD_MAX, "flat ceiling, coords")            \
    F(T, flags, U32, , DATA, 0, "file sector flags (depth bits 0-1, 0x400 sloped "     \
      "floor, 0x800 sloped ceiling, 0x2000 no-move, ...)")                             \
    F(T, floor_slope, U16, , INDEX_OPT, RR_ROO_S_slopes, "floor plane, or none = "     \
      "flat")                                                                          \
    F(T, ceiling_slope, U16, , INDEX_OPT, RR_ROO_S_slopes, "ceiling plane, or none = " \
      "flat")
RR_RECORD(rr_roo_sector_rec, RR_ROO_SECTOR, 16);

/* RR_SEC_ROO_SLOPES: z = -(A*x + B*y + D) / C. */
#define RR_ROO_SLOPE(F, T)                                                             \
    F(T, a, I32, , ABS, RR_ROO_COEF_MAX, "scaled plane (see rr_roo_blob.h), "          \
      "|A|, |B|, |C| < 2^30")                                                          \
    F(T, b, I32, , ABS, RR_ROO_COEF_MAX, "")                                           \
    F(T, c, I32, , ABS, RR_ROO_COEF_MAX, "not 0 (checked): the plane is not vertical") \
    F(T, d_lo, U32, , DATA, 0, "D, an int64 in two words: low word")                   \
    F(T, d_hi, I32, , ABS, RR_ROO_CONST_HI_MAX, "high word, |d_hi| < 2^29")
RR_RECORD(rr_roo_slope_rec, RR_ROO_SLOPE, 20);

/* RR_SEC_ROO_WALLS: the client walls (schema 3). A wall goes from point pt
 * to point pt + 1 of WALL_POINTS: the baker lays the walls out as chains
 * (a wall that starts where the previous one ended shares its point), so a
 * room of n walls in c chains stores n + c points instead of 2n, and the
 * wall's line is still four consecutive int32 x0, y0, x1, y1 that the
 * queries read in place. What a wall separates (sidedefs and sectors) is
 * one of the room's distinct WALL_SIDES records. */
#define RR_ROO_WALL(F, T)                                                              \
    F(T, pt, U16, , INDEX, RR_ROO_S_wall_points, "its start point; it ends at pt + 1 " \
      "(checked < the point count); the + side is on the right going from start to "   \
      "end")                                                                           \
    F(T, sides, U16, , INDEX, RR_ROO_S_wall_sides, "what it separates")                \
    F(T, next, U16, , INDEX_OPT, RR_ROO_S_walls, "next wall on the same line, or "     \
      "none; greater than this wall's index (checked), so every list ends")
RR_RECORD(rr_roo_wall_rec, RR_ROO_WALL, 6);

/* RR_SEC_ROO_WALL_SIDES: the distinct (sidedef, sector) pairs of the walls. */
#define RR_ROO_WALL_SIDES(F, T)                                                        \
    F(T, pos_sidedef, U16, , INDEX_OPT, RR_ROO_S_sidedefs, "sidedef on the + side, "   \
      "or none")                                                                       \
    F(T, neg_sidedef, U16, , INDEX_OPT, RR_ROO_S_sidedefs, "sidedef on the - side, "   \
      "or none")                                                                       \
    F(T, pos_sector, U16, , INDEX_OPT, RR_ROO_S_sectors, "sector on the + side, or "   \
      "none (then the wall is solid)")                                                 \
    F(T, neg_sector, U16, , INDEX_OPT, RR_ROO_S_sectors, "sector on the - side, or "   \
      "none")
RR_RECORD(rr_roo_wall_sides_rec, RR_ROO_WALL_SIDES, 8);

/* RR_SEC_ROO_SIDEDEFS. */
#define RR_ROO_SIDEDEF(F, T)                                                           \
    F(T, flags, U32, , DATA, 0, "file wall flags: 0x4 passable, 0x2 transparent, "     \
      "0x20 no look-through, ...")                                                     \
    F(T, id, U16, , DATA, 0, "server id")                                              \
    F(T, normal_bitmap, U16, , DATA, 0, "middle texture, 0 = none")
RR_RECORD(rr_roo_sidedef_rec, RR_ROO_SIDEDEF, 8);

/* The server grids: the three byte grids of grid_rows x grid_cols 1024-unit
 * squares, one cell per record; the high-res grid of hires_rows x hires_cols
 * 256-unit squares as palette, tiles and map (top of this file). */
#define RR_ROO_GRID_ENTRY(F, T)                                                        \
    F(T, move, U8, , DATA, 0, "player move bits N, NE, E, SE, S, SW, W, NW (bit 0 = N)") \
    F(T, flags, U8, , DATA, 0, "bit 0: a floor covers the square's centre")            \
    F(T, monster, U8, , DATA, 0, "monster move bits, as the move grid's")
RR_RECORD(rr_roo_grid_entry, RR_ROO_GRID_ENTRY, 3);
#define RR_ROO_GRID_BYTE(F, T)                                                         \
    F(T, bits, U8, , DATA, 0, "bit-packed indices, w bits each: index i is bits "     \
      "i*w .. i*w+w-1 (bit k = bit k % 8 of byte k / 8), as few bytes as they need. "  \
      "Tiles: 4 palette indices a tile (rows 2r, 2r+1 x cols 2c, 2c+1, row-major; "   \
      "cells past the grid's edge index 0), w = the bits of the palette count, at "    \
      "least 2, so the tiles are 8 * bytes / (4 * w). Map: ceil(grid_rows / 2) x "     \
      "ceil(grid_cols / 2) tile indices, w = the bits of the tile count, at least 1")
RR_RECORD(rr_roo_grid_byte, RR_ROO_GRID_BYTE, 1);
#define RR_ROO_HIRES_CELL(F, T)                                                        \
    F(T, hires, U32, , DATA, 0, "a distinct high-res cell: bit 0 walkable, bits 1-8 "  \
      "move, bits 9-31 floor height / 256 client units")
RR_RECORD(rr_roo_hires_cell, RR_ROO_HIRES_CELL, 4);
#define RR_ROO_HIRES_TILE(F, T)                                                        \
    F(T, cell, U16, [16], INDEX, RR_ROO_S_hires_palette, "4 x 4 cells, row-major "     \
      "(row 0 north), each its palette entry; cells past the grid's edge are 0")
RR_RECORD(rr_roo_hires_tile, RR_ROO_HIRES_TILE, 32);
#define RR_ROO_HIRES_MAP_ENTRY(F, T)                                                   \
    F(T, tile, U16, , INDEX, RR_ROO_S_hires_tiles, "the tile of each 4 x 4 block, "    \
      "row-major, ceil(hires_cols / 4) a row")
RR_RECORD(rr_roo_hires_map_entry, RR_ROO_HIRES_MAP_ENTRY, 2);

/* The version of this format's sections and records: the baker writes it
 * in the header's schema field and rr_open refuses a blob whose schema
 * differs (RR_ERR_VERSION: rebake it). Any change of a record, a section or
 * a field's meaning bumps it. */
#define RR_ROO_SCHEMA_VERSION 4u

/* ---- the sections --------------------------------------------------------
 * The room record first (its counts are checked against the others). */
#define RR_ROO_SECTIONS(S, P)                                                               \
    S(P, room, RR_SEC_ROO_ROOM, rr_roo_room_rec, RR_ROO_ROOM, ONE)                          \
    S(P, nodes, RR_SEC_ROO_NODES, rr_roo_node_rec, RR_ROO_NODE, REQ)                        \
    S(P, lines, RR_SEC_ROO_LINES, rr_roo_line_rec, RR_ROO_LINE, REQ)                        \
    S(P, leaves, RR_SEC_ROO_LEAVES, rr_roo_leaf_rec, RR_ROO_LEAF, REQ)                      \
    S(P, sectors, RR_SEC_ROO_SECTORS, rr_roo_sector_rec, RR_ROO_SECTOR, REQ)                \
    S(P, slopes, RR_SEC_ROO_SLOPES, rr_roo_slope_rec, RR_ROO_SLOPE, REQ)                    \
    S(P, walls, RR_SEC_ROO_WALLS, rr_roo_wall_rec, RR_ROO_WALL, REQ)                        \
    S(P, wall_points, RR_SEC_ROO_WALL_POINTS, rr_roo_vert_rec, RR_ROO_VERT, REQ)            \
    S(P, wall_sides, RR_SEC_ROO_WALL_SIDES, rr_roo_wall_sides_rec, RR_ROO_WALL_SIDES, REQ)  \
    S(P, sidedefs, RR_SEC_ROO_SIDEDEFS, rr_roo_sidedef_rec, RR_ROO_SIDEDEF, REQ)            \
    S(P, polygons, RR_SEC_ROO_POLYGONS, rr_roo_polygon_rec, RR_ROO_POLYGON, OPT)            \
    S(P, corners, RR_SEC_ROO_CORNERS, rr_roo_corner_rec, RR_ROO_CORNER, OPT)                \
    S(P, verts, RR_SEC_ROO_VERTS, rr_roo_vert_rec, RR_ROO_VERT, OPT)                        \
    S(P, grid_palette, RR_SEC_ROO_GRID_PALETTE, rr_roo_grid_entry, RR_ROO_GRID_ENTRY, OPT)  \
    S(P, grid_tiles, RR_SEC_ROO_GRID_TILES, rr_roo_grid_byte, RR_ROO_GRID_BYTE, OPT)        \
    S(P, grid_map, RR_SEC_ROO_GRID_MAP, rr_roo_grid_byte, RR_ROO_GRID_BYTE, OPT)            \
    S(P, hires_palette, RR_SEC_ROO_HIRES_PALETTE, rr_roo_hires_cell, RR_ROO_HIRES_CELL,     \
      OPT)                                                                                  \
    S(P, hires_tiles, RR_SEC_ROO_HIRES_TILES, rr_roo_hires_tile, RR_ROO_HIRES_TILE, OPT)    \
    S(P, hires_map, RR_SEC_ROO_HIRES_MAP, rr_roo_hires_map_entry, RR_ROO_HIRES_MAP_ENTRY,   \
      OPT)                                                                                  \
    S(P, node_numbers, RR_SEC_ROO_NODE_NUMBERS, rr_roo_node_number_rec, RR_ROO_NODE_NUMBER, \
      OPT)
RR_SECTION_SLOTS(RR_ROO);

#endif

/* rr_roo_blob.h - the sections of a baked Meridian 59 room (RR_FMT_ROO),
 * shared by the loader (rr_roo.c) and the baker (tools/rrb_roo_bake.c).
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
 *
 * Indices: node children are 1-based node numbers with 0 = none (as in the
 * file); every other index is 0-based with 0xffff = none unless noted.
 */
#ifndef RR_ROO_BLOB_H
#define RR_ROO_BLOB_H

#include <stdint.h>

#include "rr_blobfmt.h"

#define RR_SEC_ROO_ROOM     0x0300u /* rr_roo_room_rec x 1 */
#define RR_SEC_ROO_NODES    0x0301u /* rr_roo_node_rec, root first, pre-order */
#define RR_SEC_ROO_LEAVES   0x0302u /* rr_roo_leaf_rec */
#define RR_SEC_ROO_POINTS   0x0303u /* rr_roo_point_rec: leaf polygons */
#define RR_SEC_ROO_SECTORS  0x0304u /* rr_roo_sector_rec */
#define RR_SEC_ROO_SLOPES   0x0305u /* rr_roo_slope_rec */
#define RR_SEC_ROO_WALLS    0x0306u /* rr_roo_wall_rec (client walls) */
#define RR_SEC_ROO_SIDEDEFS 0x0307u /* rr_roo_sidedef_rec */
/* Server grids (v12-14), optional: u8 cells row-major, row 0 = north. */
#define RR_SEC_ROO_MOVE_GRID    (RR_SEC_OPTIONAL | 0x0308u)
#define RR_SEC_ROO_FLAG_GRID    (RR_SEC_OPTIONAL | 0x0309u)
#define RR_SEC_ROO_MONSTER_GRID (RR_SEC_OPTIONAL | 0x030au)
#define RR_SEC_ROO_HIRES_GRID   (RR_SEC_OPTIONAL | 0x030bu) /* u32 cells */

#define RR_ROO_NONE 0xffffu
#define RR_ROO_NODE_INTERNAL 1u
#define RR_ROO_NODE_LEAF 2u
#define RR_ROO_MAX_FRAC 8u          /* largest coord_frac the baker picks */
#define RR_ROO_COORD_LIMIT (1L << 29) /* |coordinate| bound in coords */
#define RR_ROO_COEF_LIMIT (1L << 30)  /* |A|, |B| (and slope |C|) bound */
/* |C| (lines) and |D| (slopes) bound: 2^61, so A*X + B*Y + C fits int64. */
#define RR_ROO_CONST_LIMIT_HI (1L << 29) /* bound on the high word: |hi| < 2^29 */

/* Arena: the first RR_ROO_ARENA_STATE bytes hold the state of a can-move or
 * line-of-sight query, then 2 bytes per BSP level (+1) are the stack of the
 * BSP walks. The baker declares RR_ROO_ARENA_STATE + 2 * (bsp_depth + 1),
 * rounded up to 4; the validator refuses less. */
#define RR_ROO_ARENA_STATE 256u

/* Room flags (rr_roo_room_rec.flags). */
#define RR_ROO_ROOM_SECURITY_OK 1u  /* the file's security value matched */
#define RR_ROO_ROOM_HAS_ROOM_ID 2u
/* Walls are not all reachable through the nodes' wall lists (first_wall +
 * next), or the lists are not forward chains: can-move and line of sight
 * then test every wall instead of walking the BSP. */
#define RR_ROO_ROOM_NO_WALL_TREE 4u

typedef struct rr_roo_room_rec {
    uint32_t version;       /* source .roo version 12..15 */
    uint32_t flags;         /* RR_ROO_ROOM_* */
    int32_t security;       /* as stored in the file */
    int32_t room_id;
    int32_t rect[4];        /* room rectangle x0, y0, x1, y1 in coords (0,0,W,H) */
    uint32_t nnodes, nleaves, npoints, nsectors, nslopes, nwalls, nsidedefs;
    uint32_t bsp_depth;     /* deepest node, root = 1; <= blob max_depth */
    int32_t grid_rows, grid_cols, hires_rows, hires_cols; /* 0 when absent */
    int32_t wall_slack;     /* coords: how far any wall reaches outside the BSP cell
                               of the node that lists it, rounded up, + 1 client unit
                               (the BSP wall walk widens its corridor by this) */
} rr_roo_room_rec;
RR_STATIC_SIZE(rr_roo_room_rec, 84);
#define RR_LAYOUT_ROO_ROOM "444444444444444444444"

typedef struct rr_roo_node_rec {
    int32_t a, b;           /* scaled separator (see top) */
    uint32_t c_lo;          /* C, int64 split in two words */
    int32_t c_hi;
    uint32_t norm;          /* internal: >= sqrt(a^2 + b^2) (checked), < 2^31 */
    uint16_t pos, neg;      /* 1-based child node, 0 = none ("outside") */
    uint16_t sector;        /* leaf: 0-based sector; internal: RR_ROO_NONE */
    uint16_t first_wall;    /* internal: 0-based first wall on this line, or NONE;
                               the list goes on through rr_roo_wall_rec.next */
    uint16_t leaf;          /* leaf: 0-based leaf record; internal: NONE */
    uint8_t kind;           /* RR_ROO_NODE_INTERNAL / _LEAF */
    uint8_t depth;          /* root = 1; a child is its parent's depth + 1 */
} rr_roo_node_rec;
RR_STATIC_SIZE(rr_roo_node_rec, 32);
#define RR_LAYOUT_ROO_NODE "444442222211"

typedef struct rr_roo_leaf_rec {
    uint16_t node;          /* 0-based node of this leaf */
    uint16_t sector;        /* 0-based */
    uint32_t first_point;   /* into RR_SEC_ROO_POINTS */
    uint32_t npoints;       /* convex, clockwise seen from above (x east, y south) */
} rr_roo_leaf_rec;
RR_STATIC_SIZE(rr_roo_leaf_rec, 12);
#define RR_LAYOUT_ROO_LEAF "2244"

typedef struct rr_roo_point_rec { int32_t x, y; } rr_roo_point_rec;
RR_STATIC_SIZE(rr_roo_point_rec, 8);
#define RR_LAYOUT_ROO_POINT "44"

typedef struct rr_roo_sector_rec {
    int32_t floor_z;        /* flat floor, coords (file height * 16) */
    int32_t ceiling_z;      /* flat ceiling, coords */
    int32_t depth_z;        /* {0, 204, 409, 614} client units by depth, in coords */
    uint32_t flags;         /* file sector flags (depth bits 0-1, 0x2000 no-move, ...) */
    uint16_t id;            /* server id */
    uint16_t floor_slope;   /* 0-based slope, or NONE = flat */
    uint16_t ceiling_slope;
    uint8_t light;
    uint8_t depth;          /* 0..3 */
} rr_roo_sector_rec;
RR_STATIC_SIZE(rr_roo_sector_rec, 24);
#define RR_LAYOUT_ROO_SECTOR "444422211"

typedef struct rr_roo_slope_rec {
    int32_t a, b, c;        /* scaled plane; c != 0, z = -(a*x + b*y + d) / c */
    uint32_t d_lo;
    int32_t d_hi;
} rr_roo_slope_rec;
RR_STATIC_SIZE(rr_roo_slope_rec, 20);
#define RR_LAYOUT_ROO_SLOPE "44444"

typedef struct rr_roo_wall_rec {
    int32_t x0, y0, x1, y1; /* coords; + side is on the right going 0 -> 1 */
    uint16_t pos_sidedef, neg_sidedef; /* 0-based or NONE */
    uint16_t pos_sector, neg_sector;   /* 0-based or NONE */
    uint16_t next;          /* next wall on the same line, 0-based or NONE; always
                               greater than this wall's index (checked) */
    uint16_t pad;
} rr_roo_wall_rec;
RR_STATIC_SIZE(rr_roo_wall_rec, 28);
#define RR_LAYOUT_ROO_WALL "4444222222"

typedef struct rr_roo_sidedef_rec {
    uint32_t flags;         /* wall flags: 0x4 passable, 0x2 transparent, 0x20 no look-through */
    uint16_t id;            /* server id */
    uint16_t normal_bitmap; /* 0 = no middle texture */
} rr_roo_sidedef_rec;
RR_STATIC_SIZE(rr_roo_sidedef_rec, 8);
#define RR_LAYOUT_ROO_SIDEDEF "422"

#endif

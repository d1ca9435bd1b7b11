/* rr_rmf_blob.h - the sections of an RMF room blob (types 0x0200-0x02ff),
 * shared by the loader (rr_rmf.c) and the baker (tools/rrb_rmf_bake.c).
 *
 * Units: coordinates are int32 with the blob's coord_frac fractional bits
 * ("coords"); normals are rr_fix Q16.16 unit vectors. Every index below is
 * checked by rr_open (rr__rmf_validate); string fields are offsets into the
 * string table.
 *
 *   HEADER      1 x rr_rmf_header
 *   PLANES      rr_rmf_plane     deduplicated: brush sides and tree nodes
 *   SIDES       uint32           plane index of each brush side
 *   BRUSHES     rr_rmf_brush     convex brushes: sides[first_side .. +nsides)
 *   NODES       rr_rmf_node      brush BSP; node 0 is the root when root >= 0
 *   LEAVES      rr_rmf_leaf      a list of brush refs
 *   LEAFBRUSHES uint32           brush index
 *   ENTITIES    rr_rmf_entity    entity 0 is worldspawn
 *   KEYVALUES   rr_rmf_keyvalue
 *   CAMERAS     rr_rmf_camera    (optional, may be empty)
 *   PATHS       rr_rmf_path, PATHNODES rr_rmf_pathnode (optional)
 */
#ifndef RR_RMF_BLOB_H
#define RR_RMF_BLOB_H

#include <stdint.h>

#include "rr_blobfmt.h"

#define RR_SEC_RMF_HEADER      0x0200u
#define RR_SEC_RMF_PLANES      0x0201u
#define RR_SEC_RMF_SIDES       0x0202u
#define RR_SEC_RMF_BRUSHES     0x0203u
#define RR_SEC_RMF_NODES       0x0204u
#define RR_SEC_RMF_LEAVES      0x0205u
#define RR_SEC_RMF_LEAFBRUSHES 0x0206u
#define RR_SEC_RMF_ENTITIES    0x0207u
#define RR_SEC_RMF_KEYVALUES   0x0208u
#define RR_SEC_RMF_CAMERAS     0x0209u
#define RR_SEC_RMF_PATHS       0x020au
#define RR_SEC_RMF_PATHNODES   0x020bu

/* Largest |coordinate| (in coords) any stored or queried point may have:
 * 2^21, so that a Q16.16 normal times a coordinate, summed over three axes,
 * stays below 2^39 and a fraction numerator shifted by 30 stays in int64. */
#define RR_RMF_MAX_COORD (1 << 21)

/* Arena bytes the queries use: the section pointers rr_open caches and the
 * trace's work struct (RR_RMF_CTX_BYTES), a stamp counter and one stamp per brush (so a brush
 * listed in several leaves is tested once per query), then the tree stack
 * (per level: a node index and the part [t0, t1] of the trace still to
 * walk, 12 bytes). rr_open also uses max(this, nodes) bytes as scratch while
 * it checks the tree. */
#define RR_RMF_CTX_BYTES 320u
#define RR_RMF_QUERY_ARENA(nbrushes, depth) \
    (RR_RMF_CTX_BYTES + 8u + (((nbrushes) + 3u) & ~3u) + 12u * ((depth) + 1u))
#define RR_RMF_ARENA(nbrushes, depth, nnodes) \
    ((RR_RMF_QUERY_ARENA(nbrushes, depth) > RR_RMF_CTX_BYTES + (((nnodes) + 3u) & ~3u)) \
         ? RR_RMF_QUERY_ARENA(nbrushes, depth) : RR_RMF_CTX_BYTES + (((nnodes) + 3u) & ~3u))

typedef struct rr_rmf_header {
    uint32_t version;       /* RMF version x 10 (8, 9, 14, 16, 18, 22) */
    int32_t root;           /* >= 0: node index; < 0: leaf -1 - root */
    uint32_t tree_depth;    /* nodes on the longest root-to-leaf path */
    int32_t active_camera;  /* -1 = none */
    int32_t mins[3];        /* bounds of every brush, coords */
    int32_t maxs[3];
    uint32_t nvisgroups;
    uint32_t flags;         /* bit 0: hidden visgroups were skipped */
} rr_rmf_header;
RR_STATIC_SIZE(rr_rmf_header, 48);
#define RR_LAYOUT_RMF_HEADER "444444444444"

/* A plane n.x = dist. type: 0, 1, 2 when the normal is +-1 on that axis
 * (Quake III's PLANE_X..Z), 3 otherwise. signbits: bit i set when normal[i]
 * < 0 (selects the box corner in box traces). Tree nodes use only planes of
 * type 0-2 with a positive normal. */
typedef struct rr_rmf_plane {
    int32_t normal[3];      /* Q16.16, unit length */
    int32_t dist;           /* coords */
    uint8_t type;
    uint8_t signbits;
    uint16_t pad;
} rr_rmf_plane;
RR_STATIC_SIZE(rr_rmf_plane, 20);
#define RR_LAYOUT_RMF_PLANE "4444112"

/* Contents bits of a brush (rr_rmf_brush.contents). */
#define RR_RMF_SOLID    0x1u   /* world and ordinary brush entities */
#define RR_RMF_WATER    0x2u   /* func_water and other liquids */
#define RR_RMF_TRIGGER  0x4u   /* trigger_* */
#define RR_RMF_NONSOLID 0x8u   /* func_illusionary: visible, not solid */

/* A convex brush: the points p with n.p <= dist for every side. Every brush
 * has its six axial sides (bevels added by the baker where the source has
 * none), so mins/maxs bound it exactly; the stored bounds are widened by one
 * coord on every side. */
typedef struct rr_rmf_brush {
    uint32_t first_side, nsides;
    uint32_t contents;
    uint32_t entity;        /* owning entity (0 = worldspawn) */
    int32_t mins[3], maxs[3];
} rr_rmf_brush;
RR_STATIC_SIZE(rr_rmf_brush, 40);
#define RR_LAYOUT_RMF_BRUSH "4444444444"

/* A tree node: p goes to child[0] (front) when p[axis] >= dist, else to
 * child[1] (back). A child >= 0 is a node index greater than this node's;
 * a child < 0 is leaf -1 - child. Brushes that straddle the plane are in
 * both subtrees. */
typedef struct rr_rmf_node {
    uint32_t plane;
    int32_t child[2];
} rr_rmf_node;
RR_STATIC_SIZE(rr_rmf_node, 12);
#define RR_LAYOUT_RMF_NODE "444"

typedef struct rr_rmf_leaf {
    uint32_t first, count;  /* LEAFBRUSHES[first .. first + count) */
} rr_rmf_leaf;
RR_STATIC_SIZE(rr_rmf_leaf, 8);
#define RR_LAYOUT_RMF_LEAF "44"

typedef struct rr_rmf_entity {
    uint32_t classname, targetname;   /* strings ("" when absent) */
    uint32_t first_kv, nkv;
    uint32_t first_brush, nbrushes;   /* brushes of a brush entity (contiguous) */
    int32_t origin[3];                /* coords (point entities) */
    int32_t visgroup;
    uint32_t spawnflags;
} rr_rmf_entity;
RR_STATIC_SIZE(rr_rmf_entity, 44);
#define RR_LAYOUT_RMF_ENTITY "44444444444"

typedef struct rr_rmf_keyvalue {
    uint32_t key, value;
} rr_rmf_keyvalue;
RR_STATIC_SIZE(rr_rmf_keyvalue, 8);
#define RR_LAYOUT_RMF_KEYVALUE "44"

typedef struct rr_rmf_camera {
    int32_t eye[3], look[3];
} rr_rmf_camera;
RR_STATIC_SIZE(rr_rmf_camera, 24);
#define RR_LAYOUT_RMF_CAMERA "444444"

typedef struct rr_rmf_path {
    uint32_t name, classname;
    int32_t type;           /* 0 one-way, 1 circular, 2 ping-pong */
    uint32_t first_node, nnodes;
} rr_rmf_path;
RR_STATIC_SIZE(rr_rmf_path, 20);
#define RR_LAYOUT_RMF_PATH "44444"

typedef struct rr_rmf_pathnode {
    int32_t pos[3];
    int32_t index;
    uint32_t name, first_kv, nkv;
} rr_rmf_pathnode;
RR_STATIC_SIZE(rr_rmf_pathnode, 28);
#define RR_LAYOUT_RMF_PATHNODE "4444444"

#endif

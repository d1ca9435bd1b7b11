/* rr_rmesh_blob.h - the sections of an RMesh blob (format RR_FMT_RMESH),
 * shared by the baker (tools/rrb_rmesh_bake.c) and the runtime (rr_rmesh.c).
 *
 * Coordinates are int32 "coords" with the blob's coord_frac fractional bits.
 * The baker picks the largest coord_frac (<= 16) for which every collision
 * vertex, trigger bound and entity position fits in |c| <= RR_RMESH_COORD_MAX,
 * and rejects rooms that do not fit even at coord_frac 0. rr_open checks the
 * bound again, because the queries' 64-bit arithmetic relies on it (see the
 * overflow budget in rr_rmesh.c).
 *
 *   section                 element            notes
 *   RR_SEC_RMESH_HEAD       rr_rmesh_head x 1  counts, bounds
 *   RR_SEC_RMESH_VERTS      rr_rmesh_vert      collision vertices (deduplicated)
 *   RR_SEC_RMESH_TRIS       rr_rmesh_tri       collision triangles in BVH leaf order
 *   RR_SEC_RMESH_NODES      rr_rmesh_node      BVH, pre-order: node 0 is the root,
 *                                              left child = parent + 1, right > left
 *   RR_SEC_RMESH_SURFS      rr_rmesh_surf      surface table (texture names)
 *   RR_SEC_RMESH_TRIGGERS   rr_rmesh_trigger   trigger boxes in file order
 *   RR_SEC_RMESH_ENTS       rr_rmesh_ent       entities in file order
 * Render data (optional sections; absent when baked with --collision-only):
 *   RR_SEC_RMESH_RHEAD      rr_rmesh_rhead x 1 quantization parameters
 *   RR_SEC_RMESH_RGROUPS    rr_rmesh_rgroup    one per visible / no-collision surface
 *   RR_SEC_RMESH_RVERTS     rr_rmesh_rvert     quantized vertices, by group
 *   RR_SEC_RMESH_RINDEX     uint16_t           triangle indices, local to the group
 * Every string is an offset into RR_SEC_STRINGS.
 */
#ifndef RR_RMESH_BLOB_H
#define RR_RMESH_BLOB_H

#include <stdint.h>

#include "rr_blobfmt.h"

#define RR_SEC_RMESH_HEAD     0x0101u
#define RR_SEC_RMESH_VERTS    0x0102u
#define RR_SEC_RMESH_TRIS     0x0103u
#define RR_SEC_RMESH_NODES    0x0104u
#define RR_SEC_RMESH_SURFS    0x0105u
#define RR_SEC_RMESH_TRIGGERS 0x0106u
#define RR_SEC_RMESH_ENTS     0x0107u
#define RR_SEC_RMESH_RHEAD    (RR_SEC_OPTIONAL | 0x0108u)
#define RR_SEC_RMESH_RGROUPS  (RR_SEC_OPTIONAL | 0x0109u)
#define RR_SEC_RMESH_RVERTS   (RR_SEC_OPTIONAL | 0x010au)
#define RR_SEC_RMESH_RINDEX   (RR_SEC_OPTIONAL | 0x010bu)

/* Largest |coordinate| of any stored point, in coords (2^17). */
#define RR_RMESH_COORD_MAX 131072

/* Arena bytes an RMesh blob declares for tree depth d: the validator's
 * stack (8 bytes a level), which also holds the queries' stack (4 bytes a
 * level) followed by the work area of a sweep, ray cast or box query
 * (RR_RMESH_SWEEP_BYTES, sized by the sweep's, the largest). */
#define RR_RMESH_SWEEP_BYTES 160u
#define RR_RMESH_ARENA(d) (8u * ((d) + 2u) + RR_RMESH_SWEEP_BYTES)

/* Flags of rr_rmesh_head.flags. */
#define RR_RMESH_ROOM_SCALE 1u   /* lengths were multiplied by RoomScale = 8/2048 */

typedef struct rr_rmesh_head {
    uint32_t ntris, nverts, nnodes, nsurfs, ntriggers, nents;
    uint32_t dropped;         /* zero-area triangles left out by the baker */
    uint32_t alpha_tris;      /* alpha triangles of the source (no collision) */
    uint32_t flags;           /* RR_RMESH_* */
    uint32_t variant;         /* 0 vanilla, 1 cbre, 2 scpcbredux, 3 vbp */
    int32_t bmin[3], bmax[3]; /* bounds of the collision vertices (coords) */
} rr_rmesh_head;
RR_STATIC_SIZE(rr_rmesh_head, 64);
#define RR_LAYOUT_RMESH_HEAD "4444444444444444"

typedef struct rr_rmesh_vert {
    int32_t p[3];
} rr_rmesh_vert;
RR_STATIC_SIZE(rr_rmesh_vert, 12);
#define RR_LAYOUT_RMESH_VERT "444"

/* Triangle flags. */
#define RR_RMESH_TRI_INVISIBLE 1u  /* from an invisible collision mesh */

typedef struct rr_rmesh_tri {
    uint32_t v[3];      /* < nverts */
    uint16_t surface;   /* < nsurfs */
    uint16_t flags;     /* RR_RMESH_TRI_* */
    int32_t n[3];       /* unit normal of (v1-v0) x (v2-v0), Q16.16 */
    uint32_t src;       /* index in the source collision order (opaque surfaces
                           in file order, then invisible meshes), before zero-area
                           triangles were dropped */
} rr_rmesh_tri;
RR_STATIC_SIZE(rr_rmesh_tri, 32);
#define RR_LAYOUT_RMESH_TRI "444224444"

/* Node: a leaf when count has RR_RMESH_LEAF set: triangles [first, first + n).
 * Otherwise first = left child (= own index + 1) and count = right child. */
#define RR_RMESH_LEAF 0x80000000u
typedef struct rr_rmesh_node {
    int32_t min[3], max[3];  /* bounds of every triangle below (coords) */
    uint32_t first, count;
} rr_rmesh_node;
RR_STATIC_SIZE(rr_rmesh_node, 32);
#define RR_LAYOUT_RMESH_NODE "44444444"

/* Surface kinds. */
#define RR_RMESH_SURF_VISIBLE 0u
#define RR_RMESH_SURF_INVISIBLE 1u
#define RR_RMESH_SURF_NOCOLL 2u      /* .HasNoColl block: drawn, no collision */
typedef struct rr_rmesh_surf {
    uint32_t tex[2];    /* lightmap slot, diffuse slot names ("" when flag 0) */
    uint8_t flag[2];    /* texture flags as stored */
    uint8_t alpha;      /* 1 = alpha surface (has no collision triangles) */
    uint8_t kind;       /* RR_RMESH_SURF_* */
} rr_rmesh_surf;
RR_STATIC_SIZE(rr_rmesh_surf, 12);
#define RR_LAYOUT_RMESH_SURF "441111"

typedef struct rr_rmesh_trigger {
    int32_t min[3], max[3];  /* AABB of all vertices of the box's surfaces */
    uint32_t name;
} rr_rmesh_trigger;
RR_STATIC_SIZE(rr_rmesh_trigger, 28);
#define RR_LAYOUT_RMESH_TRIGGER "4444444"

/* Entity classes (rr_rmesh_ent.cls). */
enum rr_rmesh_class {
    RR_RMESH_SCREEN, RR_RMESH_WAYPOINT, RR_RMESH_LIGHT, RR_RMESH_SPOTLIGHT,
    RR_RMESH_SOUNDEMITTER, RR_RMESH_PLAYERSTART, RR_RMESH_MODEL, RR_RMESH_NCLASSES
};
/* Entity flags. */
#define RR_RMESH_ENT_IGNORED 1u  /* light/spotlight/screen at (0,0,0): the game skips it */

typedef struct rr_rmesh_ent {
    uint16_t cls;        /* enum rr_rmesh_class */
    uint16_t flags;      /* RR_RMESH_ENT_* */
    int32_t pos[3];      /* coords */
    uint32_t str;        /* screen: image; light/spotlight: colour "R G B";
                            playerstart: angles; model: file name */
    uint32_t str2;       /* spotlight: angles "pitch yaw roll"; else "" */
    int32_t ival[2];     /* spotlight: inner, outer cone; soundemitter: sound, 0 */
    int32_t range;       /* light, spotlight, soundemitter: range in coords */
    int32_t intensity;   /* light, spotlight: Q16.16 */
    int32_t rot[3];      /* model: pitch, yaw, roll in degrees, Q16.16 */
    int32_t scale[3];    /* model: scale, Q16.16 */
} rr_rmesh_ent;
RR_STATIC_SIZE(rr_rmesh_ent, 64);
#define RR_LAYOUT_RMESH_ENT "22444444444444444"

/* Render quantization. A vertex position in coords is
 *   center[k] + pos[k] * 2^pos_shift
 * (pos_shift the smallest that fits every vertex in int16; error <= 2^(pos_shift-1)
 * coords plus the coords' own rounding); a UV is uv / 2^uv_frac[set] of its group
 * (uv_frac the largest <= 15 that fits the group's UVs in int16; error
 * <= 2^-(uv_frac+1)). Colours are exact. */
typedef struct rr_rmesh_rhead {
    int32_t center[3];      /* coords */
    uint32_t pos_shift;     /* 0..16 */
    uint32_t uv_frac[2];    /* smallest group uv_frac of each set (0 = diffuse, 1 = lightmap) */
    uint32_t ngroups, nverts, nindices;
} rr_rmesh_rhead;
RR_STATIC_SIZE(rr_rmesh_rhead, 36);
#define RR_LAYOUT_RMESH_RHEAD "444444444"

/* Group flags. */
#define RR_RMESH_GROUP_ALPHA 1u    /* alpha-blended: draw after the opaque groups */
#define RR_RMESH_GROUP_NOCOLL 2u   /* from the .HasNoColl block */

typedef struct rr_rmesh_rgroup {
    uint32_t surface;       /* < head.nsurfs: texture names */
    uint32_t first_vert, nverts;     /* nverts <= 65536 */
    uint32_t first_index, nindices;  /* nindices a multiple of 3; each < nverts */
    uint16_t flags;         /* RR_RMESH_GROUP_* */
    uint8_t uv_frac[2];     /* 0..15: this group's UV = uv / 2^uv_frac[set] */
} rr_rmesh_rgroup;
RR_STATIC_SIZE(rr_rmesh_rgroup, 24);
#define RR_LAYOUT_RMESH_RGROUP "44444211"

typedef struct rr_rmesh_rvert {
    int16_t pos[3];
    int16_t uv0[2], uv1[2];
    uint8_t rgb[3], pad;
} rr_rmesh_rvert;
RR_STATIC_SIZE(rr_rmesh_rvert, 18);
#define RR_LAYOUT_RMESH_RVERT "22222221111"

#endif

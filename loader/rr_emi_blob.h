/* rr_emi_blob.h - blob sections of a baked EMI figure (skeleton + skinned
 * mesh + animations), shared by loader/rr_emi.c and tools/rrb_emi_bake.c.
 *
 * Number formats (the blob header's coord_frac applies to "coords"):
 *   coords  int32, coord_frac fractional bits (the baker picks the largest
 *           coord_frac <= 16 that keeps every stored coordinate within
 *           +-RR_EMI_COORD_MAX, so model-space sums over 64 levels still fit)
 *   Q30     int32 with 30 fractional bits: quaternion components and rotation
 *           matrix entries (|x| <= 1)
 *   rr_fix  Q16.16: normals, weights, times (seconds)
 *
 * Sections (all required when their count is > 0):
 *   FIGURE  1 x rr_emi_figure: the counts of every other section
 *   JOINTS  parent-before-child order: parent < index (or -1), depth checked
 *   VERTS   bind-pose positions and normals, each with a run of influences
 *   INFL    per vertex: joints sorted by weight (desc, ties by joint), weights
 *           > 0 summing to exactly RR_FIX_ONE, at most RR_EMI_MAX_INFL
 *   ANIMS   each a run of TRACKS
 *   TRACKS  each a run of PKEYS (op 3) or RKEYS (op 4), times non-decreasing
 *   PKEYS   translation keys (absolute local values, coords)
 *   RKEYS   rotation keys, 48-bit smallest-three (see rr_emi_rkey)
 *   TRIS    optional (0x8408): triangles for drawing, with their face group
 *   VATTR   optional (0x8409): UVs (rr_fix) and RGBA colours per vertex
 */
#ifndef RR_EMI_BLOB_H
#define RR_EMI_BLOB_H

#include <stdint.h>

#include "rr_blobfmt.h"

#define RR_SEC_EMI_FIGURE 0x0400u
#define RR_SEC_EMI_JOINTS 0x0401u
#define RR_SEC_EMI_VERTS 0x0402u
#define RR_SEC_EMI_INFL 0x0403u
#define RR_SEC_EMI_ANIMS 0x0404u
#define RR_SEC_EMI_TRACKS 0x0405u
#define RR_SEC_EMI_PKEYS 0x0406u
#define RR_SEC_EMI_RKEYS 0x0407u
#define RR_SEC_EMI_TRIS 0x8408u
#define RR_SEC_EMI_VATTR 0x8409u

/* Influences kept per vertex; the baker merges more and reports it. */
#define RR_EMI_MAX_INFL 4
/* Joints in one figure (u16 indices). */
#define RR_EMI_MAX_JOINTS 1024
/* Largest magnitude of a stored coordinate (bind, inverse bind, vertex, key). */
#define RR_EMI_COORD_MAX (1L << 24)
#define RR_EMI_Q30_ONE (1L << 30)
/* Smallest-three: components in [-1/sqrt2, 1/sqrt2] on 15 bits. */
#define RR_EMI_RKEY_STEPS 32767

/* rr_emi_figure.flags */
#define RR_EMI_HAS_MESH 1u
#define RR_EMI_HAS_NORMALS 2u

typedef struct rr_emi_figure {
    uint32_t njoints, nverts, ninfl, nanims, ntracks, npkeys, nrkeys;
    uint32_t max_infl;     /* largest influence run of any vertex */
    uint32_t flags;        /* RR_EMI_HAS_* */
    uint32_t name;         /* string offset: the figure (mesh or skeleton) name */
    uint32_t ntris;        /* triangles in RR_SEC_EMI_TRIS (0 if absent) */
    uint32_t source_layout;/* the .meshb vertex layout (19, 18, 3) or 0 */
} rr_emi_figure;
RR_STATIC_SIZE(rr_emi_figure, 48);
#define RR_LAYOUT_EMI_FIGURE "444444444444"

typedef struct rr_emi_joint {
    uint32_t name;         /* string offset; lookups are case-insensitive */
    int16_t parent;        /* < own index, or -1 for a root */
    uint16_t depth;        /* 0 for a root, parent's depth + 1 otherwise */
    int32_t bind_t[3];     /* local bind translation, coords */
    int32_t bind_q[4];     /* local bind rotation x, y, z, w, Q30, unit */
    int32_t inv_r[9];      /* inverse of the model-space bind matrix: rotation, Q30, row-major */
    int32_t inv_t[3];      /*   and translation, coords */
} rr_emi_joint;
RR_STATIC_SIZE(rr_emi_joint, 84);
#define RR_LAYOUT_EMI_JOINT "4224444444444444444444"

typedef struct rr_emi_vert {
    int32_t pos[3];        /* bind-pose model-space position, coords */
    int32_t nrm[3];        /* unit normal, rr_fix (0,0,0 without normals) */
    uint32_t infl_first;   /* first entry in INFL */
    uint16_t infl_count;   /* 0..RR_EMI_MAX_INFL; 0 = not skinned (stays in bind pose) */
    uint16_t reserved;
} rr_emi_vert;
RR_STATIC_SIZE(rr_emi_vert, 32);
#define RR_LAYOUT_EMI_VERT "444444422"

typedef struct rr_emi_infl {
    uint16_t joint;
    uint16_t reserved;
    int32_t weight;        /* rr_fix, > 0 */
} rr_emi_infl;
RR_STATIC_SIZE(rr_emi_infl, 8);
#define RR_LAYOUT_EMI_INFL "224"

typedef struct rr_emi_anim {
    uint32_t name;         /* string offset */
    int32_t duration;      /* rr_fix seconds, > 0 */
    uint32_t first_track, ntracks;
} rr_emi_anim;
RR_STATIC_SIZE(rr_emi_anim, 16);
#define RR_LAYOUT_EMI_ANIM "4444"

/* One track per (joint, op) in an animation: the baker keeps the one with the
 * highest priority (NOTES §4.4) and reports the others. */
typedef struct rr_emi_track {
    uint16_t joint;
    uint8_t op;            /* 3 translation, 4 rotation */
    uint8_t priority;      /* 0..7, informational after the bake */
    uint32_t first_key;    /* in PKEYS (op 3) or RKEYS (op 4) */
    uint32_t nkeys;        /* >= 1 */
} rr_emi_track;
RR_STATIC_SIZE(rr_emi_track, 12);
#define RR_LAYOUT_EMI_TRACK "21144"

typedef struct rr_emi_pkey {
    int32_t time;          /* rr_fix seconds */
    int32_t p[3];          /* coords */
} rr_emi_pkey;
RR_STATIC_SIZE(rr_emi_pkey, 16);
#define RR_LAYOUT_EMI_PKEY "4444"

/* Rotation key, 48-bit smallest-three. The quaternion (sign chosen so the
 * largest-magnitude component is positive) drops that component; the other
 * three, in x,y,z,w order, are c = round((v + 1/sqrt2) * 32767 / sqrt2) in
 * 0..32767, stored as q[i] = c << 1 | bit. The index (0..3) of the dropped
 * component is q[0] bit 0 (low) and q[1] bit 0 (high); q[2] bit 0 is 0. */
typedef struct rr_emi_rkey {
    int32_t time;          /* rr_fix seconds */
    uint16_t q[3];
    uint16_t reserved;
} rr_emi_rkey;
RR_STATIC_SIZE(rr_emi_rkey, 12);
#define RR_LAYOUT_EMI_RKEY "42222"

typedef struct rr_emi_tri {
    uint16_t v[3];         /* vertex indices */
    uint16_t group;        /* face group, in source order */
} rr_emi_tri;
RR_STATIC_SIZE(rr_emi_tri, 8);
#define RR_LAYOUT_EMI_TRI "2222"

typedef struct rr_emi_vattr {
    int32_t uv[2];         /* rr_fix (0 without UVs) */
    uint8_t rgba[4];
} rr_emi_vattr;
RR_STATIC_SIZE(rr_emi_vattr, 12);
#define RR_LAYOUT_EMI_VATTR "441111"

#endif

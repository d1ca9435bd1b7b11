/* rr_emi_blob.h - blob sections of a baked EMI figure (skeleton + skinned
 * mesh + animations), shared by loader/rr_emi.c and tools/rrb_emi_bake.c.
 * Each record is written in the schema vocabulary of rr_blobfmt.h: the
 * structs, the checks rr_open makes of each field, the baker's byte swapping
 * and the format doc all come from the lists below.
 *
 * Number formats (the blob header's coord_frac applies to "coords"):
 *   coords  int32, coord_frac fractional bits (the baker picks the largest
 *           coord_frac <= 16 that keeps every stored coordinate within
 *           +-RR_EMI_COORD_MAX, so model-space sums over 64 levels still fit)
 *   Q30     int32 with 30 fractional bits: quaternion components and rotation
 *           matrix entries (|x| <= 1)
 *   rr_fix  Q16.16: times (seconds), UVs
 *   vpos    int16: a mesh position is vpos << vert_shift coords (the figure's
 *           vert_shift: the smallest that fits every vertex in 16 bits)
 *   snorm16 int16 v / 32767: unit normals and rotation keys
 *   Q15     uint16 with 15 fractional bits: influence weights
 *
 * Sections: FIGURE (exactly one record) holds the count of every other
 * section, and JOINTS is required (a figure has at least one joint). Every
 * other section is present exactly when the figure's count for it is > 0
 * (VATTR, which has no count of its own, holds one record per vertex):
 *   FIGURE  1 x rr_emi_figure: the counts of every other section
 *   JOINTS  parent-before-child order: parent < index (or -1), depth checked
 *   VERTS   bind-pose positions (vpos) and normals (snorm16), each with a run
 *           of influences, and the run of vertices the same joints move
 *   INFL    per vertex: joints sorted by weight (desc, ties by joint), weights
 *           > 0 summing to exactly RR_EMI_WEIGHT_ONE, at most RR_EMI_MAX_INFL
 *   ANIMS   each a run of TRACKS
 *   TRACKS  each a run of PKEYS (op 3) or RKEYS (op 4), times non-decreasing
 *   PKEYS   translation keys (absolute local values, coords)
 *   RKEYS   rotation keys, four snorm16 components (see RR_EMI_RKEY)
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
/* Largest magnitude of a stored Q30 entry: 1 and the baker's rounding. */
#define RR_EMI_Q30_MAX (RR_EMI_Q30_ONE + 64)
/* Weights are Q15: one influence of a vertex weighs 1..RR_EMI_WEIGHT_ONE, and
 * a vertex's weights sum to exactly RR_EMI_WEIGHT_ONE (1.0). */
#define RR_EMI_WEIGHT_ONE 32768
/* snorm16: a unit vector or quaternion component v is stored as
 * round(v * RR_EMI_SNORM_ONE). */
#define RR_EMI_SNORM_ONE 32767
/* Largest vert_shift: a mesh position is vpos << vert_shift coords, and
 * every coordinate stays within RR_EMI_COORD_MAX = 2^24 = 2^15 << 9. */
#define RR_EMI_VERT_SHIFT_MAX 9
/* Track operations. */
#define RR_EMI_OP_POS 3
#define RR_EMI_OP_ROT 4
/* Track priorities (NOTES §4.4). */
#define RR_EMI_MAX_PRIORITY 7

/* rr_emi_figure.flags */
#define RR_EMI_HAS_MESH 1u
#define RR_EMI_HAS_NORMALS 2u

/* The version of this format's sections and records: the baker writes it
 * in the header's schema field and rr_open refuses a blob whose schema
 * differs (RR_ERR_VERSION: rebake it). Any change of a record, a section or
 * a field's meaning bumps it. */
#define RR_EMI_SCHEMA_VERSION 4u

/* The section list (rr_blobfmt.h): slot names RR_EMI_S_figure ... */
#define RR_EMI_SECTIONS(S, P)                                                     \
    S(P, figure, RR_SEC_EMI_FIGURE, rr_emi_figure, RR_EMI_FIGURE, ONE)            \
    S(P, joints, RR_SEC_EMI_JOINTS, rr_emi_joint, RR_EMI_JOINT, REQ)              \
    S(P, verts, RR_SEC_EMI_VERTS, rr_emi_vert, RR_EMI_VERT, OPT)                  \
    S(P, infl, RR_SEC_EMI_INFL, rr_emi_infl, RR_EMI_INFL, OPT)                    \
    S(P, anims, RR_SEC_EMI_ANIMS, rr_emi_anim, RR_EMI_ANIM, OPT)                  \
    S(P, tracks, RR_SEC_EMI_TRACKS, rr_emi_track, RR_EMI_TRACK, OPT)              \
    S(P, pkeys, RR_SEC_EMI_PKEYS, rr_emi_pkey, RR_EMI_PKEY, OPT)                  \
    S(P, rkeys, RR_SEC_EMI_RKEYS, rr_emi_rkey, RR_EMI_RKEY, OPT)                  \
    S(P, tris, RR_SEC_EMI_TRIS, rr_emi_tri, RR_EMI_TRI, OPT)                      \
    S(P, vattr, RR_SEC_EMI_VATTR, rr_emi_vattr, RR_EMI_VATTR, OPT)

#define RR_EMI_FIGURE(F, T)                                                                  \
    F(T, njoints, U32, , COUNTOF, RR_EMI_S_joints, "joints: 1..RR_EMI_MAX_JOINTS (1024)")    \
    F(T, nverts, U32, , COUNTOF, RR_EMI_S_verts, "mesh vertices (0: no VERTS section)")      \
    F(T, ninfl, U32, , COUNTOF, RR_EMI_S_infl, "influences of all vertices")                \
    F(T, nanims, U32, , COUNTOF, RR_EMI_S_anims, "animations")                              \
    F(T, ntracks, U32, , COUNTOF, RR_EMI_S_tracks, "tracks of all animations")              \
    F(T, npkeys, U32, , COUNTOF, RR_EMI_S_pkeys, "translation keys of all tracks")          \
    F(T, nrkeys, U32, , COUNTOF, RR_EMI_S_rkeys, "rotation keys of all tracks")             \
    F(T, max_infl, U32, , MAX, RR_EMI_MAX_INFL, "largest influence run of any vertex")      \
    F(T, flags, U32, , FLAGS, RR_EMI_HAS_MESH | RR_EMI_HAS_NORMALS,                        \
      "RR_EMI_HAS_MESH 1, RR_EMI_HAS_NORMALS 2")                                             \
    F(T, name, U32, , STRING, 0, "the figure (mesh or skeleton) name")                      \
    F(T, ntris, U32, , COUNTOF, RR_EMI_S_tris, "triangles in TRIS (0: no TRIS section)")    \
    F(T, source_layout, U32, , DATA, 0, "the .meshb vertex layout (19, 18, 3) or 0")      \
    F(T, vert_shift, U32, , MAX, RR_EMI_VERT_SHIFT_MAX,                                     \
      "mesh positions are vpos << vert_shift coords")
RR_RECORD(rr_emi_figure, RR_EMI_FIGURE, 52);

#define RR_EMI_JOINT(F, T)                                                                   \
    F(T, name, U32, , STRING, 0, "lookups are case-insensitive")                            \
    F(T, parent, I16, , INDEX_OPT, RR_EMI_S_joints, "< own index, or -1 for a root")         \
    F(T, depth, U16, , SEMANTIC, 0, "0 for a root, parent's depth + 1 otherwise; "           \
      "<= the header's max_depth")                                                           \
    F(T, bind_t, I32, [3], COORD, RR_EMI_COORD_MAX, "local bind translation, coords")        \
    F(T, bind_q, I32, [4], ABS, RR_EMI_Q30_MAX, "local bind rotation x, y, z, w, Q30, unit") \
    F(T, inv_r, I32, [9], ABS, RR_EMI_Q30_MAX,                                               \
      "inverse of the model-space bind matrix: rotation, Q30, row-major")                   \
    F(T, inv_t, I32, [3], COORD, RR_EMI_COORD_MAX, "  and translation, coords")
RR_RECORD(rr_emi_joint, RR_EMI_JOINT, 84);

/* A mesh vertex: 16-bit position relative to the model-space origin (its
 * coords are pos << vert_shift), snorm16 normal, and its run of influences.
 * single repeats the joint of a vertex that one joint alone moves (most
 * vertices): the skinning loop reads it instead of the vertex's count and
 * first influence, and -1 sends the vertex to the blends. run (schema 4)
 * counts the vertices from this one on, itself included, that the same
 * joints move (the same single; for blends, the same influence count and
 * the same joints in the same order, their influences one after another in
 * INFL): meshes list the vertices of a joint, and of a seam between two
 * joints, together, and the skinning loop takes such a run in one kernel
 * (the matrices picked once). A run longer than 255 is stored as several;
 * rr_open checks, in its pass over the vertices, that each vertex's run is
 * at least 1 and that the next vertex's is one less when it is above 1 and
 * names the same joints (so the last vertex's run is 1). */
#define RR_EMI_VERT(F, T)                                                                    \
    F(T, pos, I16, [3], DATA, 0, "bind-pose model-space position: pos << vert_shift coords") \
    F(T, nrm, I16, [3], DATA, 0, "unit normal, snorm16 (0,0,0 without normals)")             \
    F(T, infl_first, U32, , FIRST, RR_EMI_S_infl, "first entry in INFL")                     \
    F(T, infl_count, U8, , COUNT, RR_EMI_S_infl,                                             \
      "0..RR_EMI_MAX_INFL; 0 = not skinned (stays in bind pose)")                            \
    F(T, run, U8, , SEMANTIC, 0, "1..255 vertices from this one on with the same joints; "   \
      "the next vertex's is one less")                                                       \
    F(T, single, I16, , SEMANTIC, 0,                                                         \
      "the joint of its one influence when infl_count is 1, else -1")
RR_RECORD(rr_emi_vert, RR_EMI_VERT, 20);

#define RR_EMI_INFL(F, T)                                                                    \
    F(T, joint, U16, , INDEX, RR_EMI_S_joints, "the joint that moves the vertex")            \
    F(T, weight, U16, , MAX, RR_EMI_WEIGHT_ONE, "Q15, > 0; a vertex's weights sum to "       \
      "exactly RR_EMI_WEIGHT_ONE")
RR_RECORD(rr_emi_infl, RR_EMI_INFL, 4);

#define RR_EMI_ANIM(F, T)                                                                    \
    F(T, name, U32, , STRING, 0, "lookups are case-insensitive")                            \
    F(T, duration, I32, , SEMANTIC, 0, "rr_fix seconds, > 0")                                \
    F(T, first_track, U32, , FIRST, RR_EMI_S_tracks, "its tracks")                           \
    F(T, ntracks, U32, , COUNT, RR_EMI_S_tracks, "")
RR_RECORD(rr_emi_anim, RR_EMI_ANIM, 16);

/* One track per (joint, op) in an animation: the baker keeps the one with the
 * highest priority (NOTES §4.4) and reports the others. Its keys are in PKEYS
 * or RKEYS by op, so their run is checked by the validator. */
#define RR_EMI_TRACK(F, T)                                                                   \
    F(T, joint, U16, , INDEX, RR_EMI_S_joints, "the joint it drives")                        \
    F(T, op, U8, , MAX, RR_EMI_OP_ROT, "3 translation, 4 rotation")                          \
    F(T, priority, U8, , MAX, RR_EMI_MAX_PRIORITY, "0..7, informational after the bake")     \
    F(T, first_key, U32, , SEMANTIC, 0, "first key in PKEYS (op 3) or RKEYS (op 4)")         \
    F(T, nkeys, U32, , SEMANTIC, 0, ">= 1, times non-decreasing")
RR_RECORD(rr_emi_track, RR_EMI_TRACK, 12);

#define RR_EMI_PKEY(F, T)                                                                    \
    F(T, time, I32, , SEMANTIC, 0, "rr_fix seconds, >= the previous key's of its track")     \
    F(T, p, I32, [3], COORD, RR_EMI_COORD_MAX, "local translation, coords")
RR_RECORD(rr_emi_pkey, RR_EMI_PKEY, 16);

/* Rotation key: the unit quaternion x, y, z, w, each component snorm16 (the
 * runtime renormalizes what it interpolates, so no bit pattern is invalid;
 * four components instead of smallest-three cost the same 12 bytes with the
 * time and save a square root per key). */
#define RR_EMI_RKEY(F, T)                                                                    \
    F(T, time, I32, , SEMANTIC, 0, "rr_fix seconds, >= the previous key's of its track")     \
    F(T, q, I16, [4], DATA, 0, "x, y, z, w, snorm16")
RR_RECORD(rr_emi_rkey, RR_EMI_RKEY, 12);

#define RR_EMI_TRI(F, T)                                                                     \
    F(T, v, U16, [3], INDEX, RR_EMI_S_verts, "vertex indices")                               \
    F(T, group, U16, , DATA, 0, "face group, in source order")
RR_RECORD(rr_emi_tri, RR_EMI_TRI, 8);

#define RR_EMI_VATTR(F, T)                                                                   \
    F(T, uv, I32, [2], DATA, 0, "rr_fix (0 without UVs)")                                    \
    F(T, rgba, U8, [4], DATA, 0, "colour")
RR_RECORD(rr_emi_vattr, RR_EMI_VATTR, 12);
RR_SECTION_SLOTS(RR_EMI);

#endif

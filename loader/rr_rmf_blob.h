/* rr_rmf_blob.h - the sections of an RMF room blob (types 0x0200-0x02ff),
 * shared by the loader (rr_rmf.c) and the baker (tools/rrb_rmf_bake.c).
 * Each record is written once as an X-macro (rr_blobfmt.h): the structs,
 * the checks rr_open makes of every field and the baker's byte swapping
 * (tools/rrb_schema.c) all come from it.
 *
 * Units: coordinates are int32 with the blob's coord_frac fractional bits
 * ("coords"), within +-RR_RMF_MAX_COORD; normals are rr_fix Q16.16 unit
 * vectors. String fields are offsets into the string table.
 *
 *   header      1 x rr_rmf_header
 *   planes      rr_rmf_plane      deduplicated: brush sides and tree nodes
 *   sides       rr_rmf_side       the plane of each brush side
 *   brushes     rr_rmf_brush      convex brushes: sides[first_side .. +nsides)
 *   nodes       rr_rmf_node       brush BSP; node 0 is the root when root >= 0
 *   leaves      rr_rmf_leaf       a run of leafbrushes
 *   leafbrushes rr_rmf_leafbrush  the brushes of the leaves
 *   entities    rr_rmf_entity     entity 0 is worldspawn
 *   keyvalues   rr_rmf_keyvalue
 *   cameras     rr_rmf_camera     (may be empty)
 *   paths       rr_rmf_path, pathnodes rr_rmf_pathnode (may be empty)
 * Every section is present, even when it has no records.
 */
#ifndef RR_RMF_BLOB_H
#define RR_RMF_BLOB_H

#include <stdint.h>

#include "rr.h"
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
 * stays below 2^39 and a fraction numerator shifted by 30 stays in int64.
 * (The baker keeps every coordinate within 2^20 coords.) */
#define RR_RMF_MAX_COORD (1 << 21)

/* Largest |coordinate| of the room's bounds (rr_rmf_header.mins/maxs; the
 * baker's limit, checked by rr_open): half the query limit, so that every
 * query whose points lie within the bounds grown by up to 2^20 coords on
 * each side is answered. In units that growth is 2^20 / 2^coord_frac:
 * 4,096 units at the corpus's coord_frac 8, and never less than the room's
 * own largest |coordinate|, which is why the blob declares no separate
 * query limit: RR_RMF_MAX_COORD and coord_frac give it. */
#define RR_RMF_MAX_BOUNDS (1 << 20)

/* Contents bits of a brush (rr_rmf_brush.contents). */
#define RR_RMF_SOLID    0x1u   /* world and ordinary brush entities */
#define RR_RMF_WATER    0x2u   /* func_water and other liquids */
#define RR_RMF_TRIGGER  0x4u   /* trigger_* */
#define RR_RMF_NONSOLID 0x8u   /* func_illusionary: visible, not solid */

/* Header flags (rr_rmf_header.flags). */
#define RR_RMF_SKIPPED_HIDDEN 0x1u   /* solids and entities of hidden visgroups
                                        were left out (--skip-hidden) */

/* Arena bytes the queries use, after the section view rr_open puts first:
 * the trace's work struct (RR_RMF_WORK_BYTES), the query stamp counter, one
 * stamp byte per brush (so a brush listed in several leaves is tested once
 * per query), then the tree stack (per level: a node index and the part
 * [t0, t1] of the trace still to walk, 12 bytes). While it checks the tree,
 * rr_open uses one byte per node of the same arena instead (each node's
 * depth); RR_RMF_ARENA is the larger of the two. */
#define RR_RMF_WORK_BYTES 144u
#define RR_RMF_QUERY_ARENA(nbrushes, depth) \
    (RR_RMF_WORK_BYTES + 4u + (((nbrushes) + 3u) & ~3u) + 12u * ((depth) + 1u))
#define RR_RMF_CHECK_ARENA(nnodes) (((nnodes) + 3u) & ~3u)
#define RR_RMF_ARENA(nbrushes, depth, nnodes)                                     \
    (RR_RMF_QUERY_ARENA(nbrushes, depth) > RR_RMF_CHECK_ARENA(nnodes)             \
         ? RR_RMF_QUERY_ARENA(nbrushes, depth) : RR_RMF_CHECK_ARENA(nnodes))

/* ---- the records ----------------------------------------------------------
 * F(T, name, type, dim, kind, arg, doc): see rr_blobfmt.h. Index kinds name
 * the section they point into by its slot (RR_RMF_S_*, below). SEMANTIC
 * fields are checked by rr__rmf_validate (rr_rmf.c). */

#define RR_RMF_HEADER(F, T)                                                              \
    F(T, version, U32, , DATA, 0, "RMF version x 10 (8, 9, 14, 16, 18, 22)")              \
    F(T, root, I32, , SEMANTIC, 0, ">= 0: node 0 (there are nodes); < 0: leaf -1 - root")  \
    F(T, tree_depth, U32, , SEMANTIC, 0, "nodes on the longest root-to-leaf path; "        \
      "<= the blob's max_depth")                                                          \
    F(T, active_camera, I32, , INDEX_OPT, RR_RMF_S_cameras, "-1 = none")                  \
    F(T, mins, I32, [3], COORD, RR_RMF_MAX_BOUNDS, "bounds of every brush, coords; "      \
      "queries may reach RR_RMF_MAX_COORD")                                               \
    F(T, maxs, I32, [3], COORD, RR_RMF_MAX_BOUNDS, "")                                    \
    F(T, nvisgroups, U32, , DATA, 0, "visgroups of the source map")                       \
    F(T, flags, U32, , FLAGS, RR_RMF_SKIPPED_HIDDEN, "RR_RMF_SKIPPED_HIDDEN")
RR_RECORD(rr_rmf_header, RR_RMF_HEADER, 48);

/* A plane n.x = dist. type: 0, 1, 2 when the normal is +-1 on that axis
 * (Quake III's PLANE_X..Z), 3 otherwise. signbits: bit i set when normal[i]
 * < 0 (selects the box corner in box traces). Tree nodes use only planes of
 * type 0-2 with a positive normal. rr_open checks that type and signbits
 * agree with the normal. */
#define RR_RMF_PLANE(F, T)                                                               \
    F(T, normal, I32, [3], FIX, RR_FIX_ONE, "Q16.16, unit length")                        \
    F(T, dist, I32, , COORD, RR_RMF_MAX_COORD, "coords")                                  \
    F(T, type, U8, , SEMANTIC, 0, "0, 1, 2: the normal is +-1 on that axis; 3 otherwise")  \
    F(T, signbits, U8, , SEMANTIC, 0, "bit i set when normal[i] < 0")                      \
    F(T, pad, U16, , ZERO, 0, "")
RR_RECORD(rr_rmf_plane, RR_RMF_PLANE, 20);

/* One side of a brush: its plane (outward normal). */
#define RR_RMF_SIDE(F, T) \
    F(T, plane, U32, , INDEX, RR_RMF_S_planes, "plane of this brush side")
RR_RECORD(rr_rmf_side, RR_RMF_SIDE, 4);

/* A convex brush: the points p with n.p <= dist for every side. Every brush
 * has its six axial sides (bevels added by the baker where the source has
 * none), so mins/maxs bound it exactly; the stored bounds are widened by one
 * coord on every side. rr_open checks nsides >= 6, mins <= maxs, and that
 * the first six sides are the axial ones, one per axis and direction, at
 * maxs[a] - 1 and -(mins[a] + 1): the queries test those six against the
 * bounds. */
#define RR_RMF_BRUSH(F, T)                                                               \
    F(T, first_side, U32, , FIRST, RR_RMF_S_sides, "its sides")                           \
    F(T, nsides, U32, , COUNT, RR_RMF_S_sides, "at least one")                             \
    F(T, contents, U32, , DATA, 0, "RR_RMF_SOLID / _WATER / _TRIGGER / _NONSOLID, or "     \
      "any bits a --contents rule gave")                                                  \
    F(T, entity, U32, , INDEX, RR_RMF_S_entities, "owning entity (0 = worldspawn)")       \
    F(T, mins, I32, [3], COORD, RR_RMF_MAX_COORD, "bounds, coords, widened by one coord")  \
    F(T, maxs, I32, [3], COORD, RR_RMF_MAX_COORD, "")
RR_RECORD(rr_rmf_brush, RR_RMF_BRUSH, 40);

/* A tree node: p goes to child[0] (front) when p[axis] >= dist, else to
 * child[1] (back). A child >= 0 is a node index greater than this node's;
 * a child < 0 is leaf -1 - child. Brushes that straddle the plane are in
 * both subtrees. rr_open checks the order, one parent per node, the depth
 * and that the plane is axial with a positive normal. */
#define RR_RMF_NODE(F, T)                                                                \
    F(T, plane, U32, , INDEX, RR_RMF_S_planes, "an axial plane, positive normal")         \
    F(T, child, I32, [2], SEMANTIC, 0, "front, back: a later node, or leaf -1 - child")
RR_RECORD(rr_rmf_node, RR_RMF_NODE, 12);

/* A leaf: the brushes that reach into its cell. */
#define RR_RMF_LEAF(F, T)                                                                \
    F(T, first, U32, , FIRST, RR_RMF_S_leafbrushes, "its brushes")                         \
    F(T, count, U32, , COUNT, RR_RMF_S_leafbrushes, "")
RR_RECORD(rr_rmf_leaf, RR_RMF_LEAF, 8);

/* One entry of a leaf's brush list. */
#define RR_RMF_LEAFBRUSH(F, T) \
    F(T, brush, U32, , INDEX, RR_RMF_S_brushes, "a brush of the leaf")
RR_RECORD(rr_rmf_leafbrush, RR_RMF_LEAFBRUSH, 4);

/* An entity; entity 0 is worldspawn (rr_open requires it). */
#define RR_RMF_ENTITY(F, T)                                                              \
    F(T, classname, U32, , STRING, 0, "")                                                 \
    F(T, targetname, U32, , STRING, 0, "\"\" when absent")                                \
    F(T, first_kv, U32, , FIRST, RR_RMF_S_keyvalues, "its key/values")                    \
    F(T, nkv, U32, , COUNT, RR_RMF_S_keyvalues, "")                                       \
    F(T, first_brush, U32, , FIRST, RR_RMF_S_brushes, "brushes of a brush entity "         \
      "(contiguous)")                                                                     \
    F(T, nbrushes, U32, , COUNT, RR_RMF_S_brushes, "")                                    \
    F(T, origin, I32, [3], COORD, RR_RMF_MAX_COORD, "coords (point entities; 0 for "       \
      "worldspawn)")                                                                      \
    F(T, visgroup, I32, , DATA, 0, "visgroup id of the source map")                       \
    F(T, spawnflags, U32, , DATA, 0, "as in the source map")
RR_RECORD(rr_rmf_entity, RR_RMF_ENTITY, 44);

/* An entity key/value pair: the common rr_kv record (rr_blobfmt.h). */
#define RR_RMF_KEYVALUE(F, T) RR_KV(F, T)
typedef rr_kv rr_rmf_keyvalue;

/* A camera of the editor's camera tool. */
#define RR_RMF_CAMERA(F, T)                                                              \
    F(T, eye, I32, [3], COORD, RR_RMF_MAX_COORD, "coords")                                \
    F(T, look, I32, [3], COORD, RR_RMF_MAX_COORD, "the point looked at, coords")
RR_RECORD(rr_rmf_camera, RR_RMF_CAMERA, 24);

/* A path drawn with the Path tool (path_corner / path_track chains). */
#define RR_RMF_PATH(F, T)                                                                \
    F(T, name, U32, , STRING, 0, "")                                                      \
    F(T, classname, U32, , STRING, 0, "class of its nodes")                               \
    F(T, type, I32, , DATA, 0, "0 one-way, 1 circular, 2 ping-pong (as in the source)")   \
    F(T, first_node, U32, , FIRST, RR_RMF_S_pathnodes, "its nodes")                        \
    F(T, nnodes, U32, , COUNT, RR_RMF_S_pathnodes, "")
RR_RECORD(rr_rmf_path, RR_RMF_PATH, 20);

#define RR_RMF_PATHNODE(F, T)                                                            \
    F(T, pos, I32, [3], COORD, RR_RMF_MAX_COORD, "coords")                                \
    F(T, index, I32, , DATA, 0, "the node's number in the source")                        \
    F(T, name, U32, , STRING, 0, "name override (\"\" when none)")                        \
    F(T, first_kv, U32, , FIRST, RR_RMF_S_keyvalues, "its key/values")                    \
    F(T, nkv, U32, , COUNT, RR_RMF_S_keyvalues, "")
RR_RECORD(rr_rmf_pathnode, RR_RMF_PATHNODE, 28);

/* ---- the sections --------------------------------------------------------- */

/* The version of this format's sections and records: the baker writes it
 * in the header's schema field and rr_open refuses a blob whose schema
 * differs (RR_ERR_VERSION: rebake it). Any change of a record, a section or
 * a field's meaning bumps it. */
#define RR_RMF_SCHEMA_VERSION 2u

#define RR_RMF_SECTIONS(S, P)                                                          \
    S(P, header, RR_SEC_RMF_HEADER, rr_rmf_header, RR_RMF_HEADER, ONE)                 \
    S(P, planes, RR_SEC_RMF_PLANES, rr_rmf_plane, RR_RMF_PLANE, REQ)                   \
    S(P, sides, RR_SEC_RMF_SIDES, rr_rmf_side, RR_RMF_SIDE, REQ)                       \
    S(P, brushes, RR_SEC_RMF_BRUSHES, rr_rmf_brush, RR_RMF_BRUSH, REQ)                 \
    S(P, nodes, RR_SEC_RMF_NODES, rr_rmf_node, RR_RMF_NODE, REQ)                       \
    S(P, leaves, RR_SEC_RMF_LEAVES, rr_rmf_leaf, RR_RMF_LEAF, REQ)                     \
    S(P, leafbrushes, RR_SEC_RMF_LEAFBRUSHES, rr_rmf_leafbrush, RR_RMF_LEAFBRUSH, REQ) \
    S(P, entities, RR_SEC_RMF_ENTITIES, rr_rmf_entity, RR_RMF_ENTITY, REQ)             \
    S(P, keyvalues, RR_SEC_RMF_KEYVALUES, rr_rmf_keyvalue, RR_RMF_KEYVALUE, REQ)       \
    S(P, cameras, RR_SEC_RMF_CAMERAS, rr_rmf_camera, RR_RMF_CAMERA, REQ)               \
    S(P, paths, RR_SEC_RMF_PATHS, rr_rmf_path, RR_RMF_PATH, REQ)                       \
    S(P, pathnodes, RR_SEC_RMF_PATHNODES, rr_rmf_pathnode, RR_RMF_PATHNODE, REQ)
RR_SECTION_SLOTS(RR_RMF);

#endif

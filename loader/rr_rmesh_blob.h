/* rr_rmesh_blob.h - the sections of an RMesh blob (format RR_FMT_RMESH),
 * shared by the baker (tools/rrb_rmesh_bake.c), the runtime (rr_rmesh.c) and
 * the tools' schema registry (tools/rrb_schema.c): each record below is the
 * one description of its bytes, its checks (rr_blobfmt.h, enum rr_kind), its
 * byte swapping and its documentation (the doc strings).
 *
 * Coordinates are int32 "coords" with the blob's coord_frac fractional bits.
 * The baker picks the largest coord_frac (<= 16) for which every collision
 * vertex, trigger bound and entity position fits in |c| <= RR_RMESH_COORD_MAX
 * (less the 2 coords the vertex lattice below may add), and rejects rooms
 * that do not fit even at coord_frac 0. rr_open checks the bound again (kind
 * COORD), because the queries' 64-bit arithmetic relies on it (see the
 * overflow budget in rr_rmesh.c). A collision vertex or node bound is any
 * 16-bit lattice point, which the lattice itself keeps within 2^17 + 2^18
 * coords of 0 (origin within 2^17, q << vshift below 2^18): the budget is
 * stated for that range, so no stored lattice point can be out of range.
 *
 * Collision vertices and BVH node bounds are 16-bit points of one lattice:
 * coords = head.origin + q << head.vshift, vshift (0..2) the smallest that
 * spans the room's collision vertices with q <= 65535. Node bounds on the
 * lattice are exact (the vertices lie on it), so no rounding outward is
 * needed; triangle, vertex and node numbers are 16-bit (the baker refuses a
 * room with more than 65,535 collision triangles or 65,536 vertices).
 *
 * The sections (RR_RMESH_SECTIONS below): the head (counts, bounds), the
 * collision vertices (deduplicated), the collision triangles in BVH leaf
 * order (TRIS in a collision-only blob; in a full blob TREF, which reads
 * most triangles' corners through the render data, see rr_rmesh_tref
 * below), the BVH in pre-order (node 0 is the root, left child = parent + 1,
 * right child > left), the surface table (texture names), the trigger boxes
 * and the entities in file order. Render data, optional (absent when baked
 * with --collision-only): the render head (quantization parameters), one
 * group per visible or no-collision surface, the vertices by group (a
 * position number and the diffuse UV; their lightmap UVs in a section of
 * their own, same numbering), the 16-bit triangle indices (global render
 * vertex numbers, each within its group's vertices), the render-only positions and the per-vertex colours of the
 * groups whose colour varies. Every string is an offset into RR_SEC_STRINGS.
 *
 * What rr_open checks beyond the kinds (rr_rmesh.c): the declared arena
 * (RR_RMESH_ARENA), head.ntris (the TREF records of a full blob, the TRIS
 * records of a collision-only one), triangles with a plane (corners not on
 * one line) and, in a full blob, every TREF key (a render triangle whose
 * corners are collision vertices, or a TRIS record), the surfaces' runs of
 * source triangles (first_src from 0, never decreasing), the tree
 * (pre-order, depth, node bounds min <= max, leaf triangle runs), the
 * render head at most once and present whenever another render section
 * (TREF included) is, and each render group's index run (right after the
 * previous group's: the groups tile RINDEX), index count (a multiple of
 * 3), indices (within its vertex run), colour count (0 or its vertex count)
 * and its vertices' position numbers (< head.nverts + rhead.npos), and one
 * lightmap UV per render vertex.
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
#define RR_SEC_RMESH_PROPS    (RR_SEC_OPTIONAL | 0x010cu)
#define RR_SEC_RMESH_RPOS     (RR_SEC_OPTIONAL | 0x010du)
#define RR_SEC_RMESH_RCOLORS  (RR_SEC_OPTIONAL | 0x010eu)
#define RR_SEC_RMESH_RLMUV    (RR_SEC_OPTIONAL | 0x0110u)
/* Not optional: a loader that skipped it could not find the corners of a
 * full blob's collision triangles. */
#define RR_SEC_RMESH_TREF     0x0111u

/* Largest |coordinate| of any stored point, in coords (2^17). */
#define RR_RMESH_COORD_MAX 131072

/* Arena bytes an RMesh blob declares for tree depth d (after the section
 * view, which rr_open places first): the queries' stack (4 bytes a level)
 * followed by the work area of a sweep, ray cast or box query
 * (RR_RMESH_SWEEP_BYTES, sized by the sweep's, the largest, alignment
 * included; it holds the decoded corners of the triangle under test, the
 * section pointers the triangle tests read and the sweep's list of leaves
 * (96 bytes): 404 bytes with a 64-bit host's pointers, 372 on the 32-bit
 * boards; one size for every blob; 308 before the list of leaves).
 * rr_open's tree check runs before any query and uses the same bytes for
 * its stack of 8 bytes a level, which they always hold: 8 (d + 2) <=
 * 4 (d + 2) + 404 for every d <= RR_MAX_DEPTH (64). */
#define RR_RMESH_SWEEP_BYTES 404u
#define RR_RMESH_ARENA(d) (4u * ((d) + 2u) + RR_RMESH_SWEEP_BYTES)

/* Largest vertex lattice shift: 65,535 << 2 spans any room within the
 * coordinate bound (2 x 2^17). */
#define RR_RMESH_VSHIFT_MAX 2u

/* ---- collision data ------------------------------------------------------ */

/* Flags of rr_rmesh_head.flags. */
#define RR_RMESH_ROOM_SCALE 1u   /* lengths were multiplied by RoomScale = 8/2048 */
/* Writers of the source file (rr_rmesh_head.variant). */
#define RR_RMESH_VARIANT_MAX 3u  /* 0 vanilla, 1 cbre, 2 scpcbredux, 3 vbp */

#define RR_RMESH_HEAD(F, T)                                                                    \
    F(T, ntris, U32, , SEMANTIC, 0, "collision triangles: the TREF records of a full blob, "      \
      "the TRIS records of a collision-only one")                                               \
    F(T, nverts, U32, , COUNTOF, RR_RMESH_S_verts, "collision vertices")                        \
    F(T, nnodes, U32, , COUNTOF, RR_RMESH_S_nodes, "BVH nodes (0 only when there are no "        \
      "triangles)")                                                                             \
    F(T, nsurfs, U32, , COUNTOF, RR_RMESH_S_surfs, "surfaces")                                  \
    F(T, ntriggers, U32, , COUNTOF, RR_RMESH_S_triggers, "trigger boxes")                       \
    F(T, nents, U32, , COUNTOF, RR_RMESH_S_ents, "entities")                                    \
    F(T, dropped, U32, , DATA, 0, "zero-area triangles left out by the baker")                  \
    F(T, alpha_tris, U32, , DATA, 0, "alpha triangles of the source (no collision)")            \
    F(T, flags, U32, , FLAGS, RR_RMESH_ROOM_SCALE, "RR_RMESH_ROOM_SCALE: lengths were "          \
      "multiplied by RoomScale = 8/2048")                                                       \
    F(T, variant, U32, , MAX, RR_RMESH_VARIANT_MAX, "writer of the source: 0 vanilla, 1 cbre, "  \
      "2 scpcbredux, 3 vbp")                                                                    \
    F(T, bmin, I32, [3], COORD, RR_RMESH_COORD_MAX, "bounds of the collision vertices, coords "  \
      "(0 without triangles)")                                                                  \
    F(T, bmax, I32, [3], COORD, RR_RMESH_COORD_MAX, "")                                          \
    F(T, origin, I32, [3], COORD, RR_RMESH_COORD_MAX, "vertex lattice: coords = origin + q << "  \
      "vshift")                                                                                 \
    F(T, vshift, U32, , MAX, RR_RMESH_VSHIFT_MAX, "vertex lattice step, 2^vshift coords")
RR_RECORD(rr_rmesh_head, RR_RMESH_HEAD, 80);

#define RR_RMESH_VERT(F, T)                                                                    \
    F(T, q, U16, [3], SEMANTIC, 0, "collision vertex: coords = head.origin + q << head.vshift (the "  \
      "baker keeps it inside head.bmin..bmax)")
RR_RECORD(rr_rmesh_vert, RR_RMESH_VERT, 6);

/* A collision triangle is its three corners and its source index, nothing
 * more: its plane normal is the cross product (v1 - v0) x (v2 - v0) of its
 * lattice corners, worked out by the query that needs it (rr_rmesh.c), and
 * its surface is the one whose run of source indices holds src
 * (rr_rmesh_surf.first_src). rr_open refuses a triangle whose corners lie
 * on one line (zero cross product: it has no plane). A collision-only blob
 * holds every collision triangle here, in BVH leaf order; a full blob only
 * the ones that have no render twin (the invisible meshes'), in source
 * order, reached through TREF (rr_rmesh_tref). */
#define RR_RMESH_TRI(F, T)                                                                     \
    F(T, v, U16, [3], INDEX, RR_RMESH_S_verts, "its vertices (not on one line)")                \
    F(T, src, U16, , DATA, 0, "index in the source collision order (opaque surfaces in file "    \
      "order, then invisible meshes), before zero-area triangles were dropped; its surface "     \
      "is the last one whose first_src <= src")
RR_RECORD(rr_rmesh_tri, RR_RMESH_TRI, 8);

/* Node: a leaf when count has RR_RMESH_LEAF set: triangles [first, first + n).
 * Otherwise first = left child (= own index + 1) and count = right child.
 * Bounds are lattice points like the vertices (the min and max of the
 * vertices below, so exact). */
#define RR_RMESH_LEAF 0x8000u
#define RR_RMESH_NODE(F, T)                                                                    \
    F(T, min, U16, [3], SEMANTIC, 0, "bounds of every triangle below, vertex lattice (min <= "   \
      "max)")                                                                                   \
    F(T, max, U16, [3], SEMANTIC, 0, "")                                                        \
    F(T, first, U16, , SEMANTIC, 0, "leaf: first triangle; inner node: left child, the next "    \
      "node")                                                                                   \
    F(T, count, U16, , SEMANTIC, 0, "leaf: RR_RMESH_LEAF | triangles; inner node: right child, " \
      "the node after the left subtree")
RR_RECORD(rr_rmesh_node, RR_RMESH_NODE, 16);

/* Surface kinds. */
#define RR_RMESH_SURF_VISIBLE 0u
#define RR_RMESH_SURF_INVISIBLE 1u
#define RR_RMESH_SURF_NOCOLL 2u      /* .HasNoColl block: drawn, no collision */

#define RR_RMESH_SURF(F, T)                                                                    \
    F(T, tex, U32, [2], STRING, 0, "lightmap slot, diffuse slot names (\"\" when flag 0)")      \
    F(T, flag, U8, [2], DATA, 0, "texture flags as stored")                                     \
    F(T, alpha, U8, , MAX, 1, "1 = alpha surface (has no collision triangles)")                  \
    F(T, kind, U8, , MAX, RR_RMESH_SURF_NOCOLL, "0 visible, 1 invisible, 2 no collision "         \
      "(.HasNoColl: drawn, no collision)")                                     \
    F(T, first_src, U32, , SEMANTIC, 0, "the source index (rr_rmesh_tri.src) of its first "      \
      "collision triangle; the surfaces' runs follow each other (0 for the first surface, "     \
      "never decreasing; a surface without collision triangles starts where the next one "     \
      "does)")
RR_RECORD(rr_rmesh_surf, RR_RMESH_SURF, 16);

#define RR_RMESH_TRIGGER(F, T)                                                                 \
    F(T, min, I32, [3], DATA, 0, "AABB of all vertices of the box's surfaces, coords (a box "    \
      "without vertices is empty: min INT32_MAX, max INT32_MIN)")                               \
    F(T, max, I32, [3], DATA, 0, "")                                                            \
    F(T, name, U32, , STRING, 0, "name of the trigger")
RR_RECORD(rr_rmesh_trigger, RR_RMESH_TRIGGER, 28);

/* Entity classes (rr_rmesh_ent.cls). */
enum rr_rmesh_class {
    RR_RMESH_SCREEN, RR_RMESH_WAYPOINT, RR_RMESH_LIGHT, RR_RMESH_SPOTLIGHT,
    RR_RMESH_SOUNDEMITTER, RR_RMESH_PLAYERSTART, RR_RMESH_MODEL,
    RR_RMESH_CUSTOM,   /* a CBRE-EX custom entity (door, item, or one of an entity
                        * definitions file): class name in str, its properties
                        * the props [ival[0], ival[0] + ival[1]) */
    RR_RMESH_NCLASSES
};
/* Entity flags. */
#define RR_RMESH_ENT_IGNORED 1u  /* light/spotlight/screen at (0,0,0): the game skips it */

#define RR_RMESH_ENT(F, T)                                                                     \
    F(T, cls, U16, , MAX, RR_RMESH_NCLASSES - 1, "enum rr_rmesh_class")                         \
    F(T, flags, U16, , FLAGS, RR_RMESH_ENT_IGNORED, "RR_RMESH_ENT_IGNORED: a light, spotlight "  \
      "or screen at (0,0,0), which the game skips")                                             \
    F(T, pos, I32, [3], COORD, RR_RMESH_COORD_MAX, "position, coords")                          \
    F(T, str, U32, , STRING, 0, "screen: image; light/spotlight: colour \"R G B\"; "             \
      "playerstart: angles; model: file name; custom: class name")                              \
    F(T, str2, U32, , STRING, 0, "spotlight: angles \"pitch yaw roll\"; else \"\"")             \
    F(T, ival, I32, [2], SEMANTIC, 0, "spotlight: inner, outer cone; soundemitter: sound, 0; "    \
      "custom: first property, property count (within props)")                                  \
    F(T, range, I32, , DATA, 0, "light, spotlight, soundemitter: range in coords")              \
    F(T, intensity, I32, , DATA, 0, "light, spotlight: Q16.16")                                 \
    F(T, rot, I32, [3], DATA, 0, "model: pitch, yaw, roll in degrees, Q16.16")                  \
    F(T, scale, I32, [3], DATA, 0, "model: scale, Q16.16")
RR_RECORD(rr_rmesh_ent, RR_RMESH_ENT, 64);

/* A property of a custom entity: its name and its value as text, as the
 * source has them (numbers, colours and vectors formatted; NOTES.md 3.7),
 * in the common rr_kv record (rr_blobfmt.h). */
#define RR_RMESH_PROP(F, T) RR_KV(F, T)
typedef rr_kv rr_rmesh_prop;

/* ---- render data (optional) ---------------------------------------------- */

/* Render data. A render vertex is 9 bytes in two sections of one record
 * per vertex, same numbering: RVERTS (a position number and the diffuse
 * UV, 6 bytes) and RLMUV (the lightmap UV, 3 bytes). Most render positions
 * are collision vertices (the opaque surfaces' triangles are the collision
 * triangles), so the position number pos addresses one space of points:
 *   pos <  head.nverts: collision vertex VERTS[pos], coords = head.origin +
 *        q << head.vshift (the baker snaps the render vertex to the lattice
 *        point nearest its source position and uses it when that point is a
 *        collision vertex: error <= 2^(vshift-1) coords per axis);
 *   pos >= head.nverts: render position RPOS[pos - head.nverts] (points of
 *        alpha and no-collision surfaces, and any other point that is not a
 *        collision vertex), coords = rhead.center + p * 2^rhead.pos_shift
 *        (pos_shift the smallest that fits every render position in int16;
 *        error <= 2^(pos_shift-1) coords per axis).
 * Both errors are on top of the source floats' exact value in coords. The
 * collision lattice and VERTS are the same with and without render data:
 * render-only points never go into VERTS. head.nverts + rhead.npos is at
 * most 65,536 (16-bit pos); the baker refuses a room with more (baked
 * --collision-only it still fits).
 * A diffuse UV is uv0 / 2^uv_frac of its group (uv_frac the largest <= 15
 * that fits the group's diffuse UVs in int16; error <= 2^-(uv_frac+1)).
 * A lightmap UV is two 12-bit numbers n on its group's lightmap UV box, in
 * Q16.16: UV = group.lm_min + n * group.lm_step, per axis (lm_min the
 * floor of the group's smallest UV, lm_step the smallest step whose 4,095
 * steps span its largest; error <= lm_step / 2, which is <= 2^-13 for a
 * group whose lightmap UVs span less than 65,519 / 65,536 per axis, and
 * 17 / 2^17 for one spanning all of an atlas [0, 1]). The baker clamps
 * lightmap UVs to +-8,192 (never reached by an atlas). The 24 bits are three bytes, the same in either byte order:
 * u = b[0] | (b[1] & 15) << 8, v = b[1] >> 4 | b[2] << 4.
 * Colours are exact: a group whose vertices share one colour holds it in
 * rgb (ncolors 0); a group whose colours vary has one RCOLORS record per
 * vertex (ncolors = nverts, from first_color).
 * rr_rmesh_render_vertex() decodes a vertex into plain numbers. */
#define RR_RMESH_UV_FRAC_MAX 15
/* Lightmap UV box bounds (Q16.16): |lm_min| <= 2^30 and lm_step <= 2^18,
 * so lm_min + 4095 * lm_step stays within int32. */
#define RR_RMESH_LM_MIN_MAX (1 << 30)
#define RR_RMESH_LM_STEP_MAX (1u << 18)
/* Largest rhead.pos_shift: 32,767 << 4 spans any two points within the
 * coordinate bound (2 x 2^17). */
#define RR_RMESH_POS_SHIFT_MAX 4u
#define RR_RMESH_RHEAD(F, T)                                                                   \
    F(T, center, I32, [3], COORD, RR_RMESH_COORD_MAX, "centre of the render positions (RPOS), "  \
      "coords")                                                                                 \
    F(T, pos_shift, U8, , MAX, RR_RMESH_POS_SHIFT_MAX, "render position = center + p << "       \
      "pos_shift")                                                                              \
    F(T, uv_frac, U8, , MAX, RR_RMESH_UV_FRAC_MAX, "smallest group uv_frac (diffuse UVs)")      \
    F(T, ishift, U8, , SEMANTIC, 0, "render indices (RINDEX): 8-bit in blocks of 2^ishift "     \
      "triangles (ishift <= 8), or 16-bit (ishift 255)")                                       \
    F(T, pad, U8, , ZERO, 0, "")                                                                \
    F(T, ngroups, U32, , COUNTOF, RR_RMESH_S_rgroups, "render groups")                          \
    F(T, nverts, U32, , COUNTOF, RR_RMESH_S_rverts, "render vertices")                          \
    F(T, nindices, U32, , SEMANTIC, 0, "render triangle indices n (a multiple of 3; RINDEX "  \
      "holds 2 n bytes when 16-bit, n bytes plus 2 a block when 8-bit)")                        \
    F(T, npos, U32, , COUNTOF, RR_RMESH_S_rpos, "render-only positions (head.nverts + npos "    \
      "<= 65536)")                                                                              \
    F(T, ncolors, U32, , COUNTOF, RR_RMESH_S_rcolors, "per-vertex colours")                     \
    F(T, nlmuv, U32, , COUNTOF, RR_RMESH_S_rlmuv, "lightmap UVs (= nverts: one per render "      \
      "vertex)")
RR_RECORD(rr_rmesh_rhead, RR_RMESH_RHEAD, 40);

/* Group flags. */
#define RR_RMESH_GROUP_ALPHA 1u    /* alpha-blended: draw after the opaque groups */
#define RR_RMESH_GROUP_NOCOLL 2u   /* from the .HasNoColl block */

#define RR_RMESH_RGROUP(F, T)                                                                  \
    F(T, surface, U16, , INDEX, RR_RMESH_S_surfs, "its surface (texture names)")                \
    F(T, flags, U8, , FLAGS, RR_RMESH_GROUP_ALPHA | RR_RMESH_GROUP_NOCOLL,                       \
      "RR_RMESH_GROUP_ALPHA: alpha-blended, draw after the opaque groups; "                     \
      "RR_RMESH_GROUP_NOCOLL: from the .HasNoColl block")                                       \
    F(T, uv_frac, U8, , MAX, RR_RMESH_UV_FRAC_MAX, "this group's diffuse UV = uv0 / 2^uv_frac")  \
    F(T, first_vert, U32, , FIRST, RR_RMESH_S_rverts, "its vertices (RVERTS and RLMUV)")        \
    F(T, nverts, U32, , COUNT, RR_RMESH_S_rverts, "")                                           \
    F(T, first_index, U32, , SEMANTIC, 0, "its triangles' indices (rr_rmesh_rindex): where "      \
      "the previous group's end (0 for the first)")                                             \
    F(T, nindices, U32, , SEMANTIC, 0, "a multiple of 3, within rhead.nindices; each index one "  \
      "of the group's vertices")                                                                \
    F(T, first_color, U32, , FIRST, RR_RMESH_S_rcolors, "its per-vertex colours")               \
    F(T, ncolors, U32, , COUNT, RR_RMESH_S_rcolors, "0 (every vertex has colour rgb) or nverts") \
    F(T, lm_min, I32, [2], ABS, RR_RMESH_LM_MIN_MAX, "lightmap UV box: UV = lm_min + n * "       \
      "lm_step, Q16.16, n the vertex's 12-bit number (RLMUV)")                                  \
    F(T, lm_step, U32, [2], MAX, RR_RMESH_LM_STEP_MAX, "")                                      \
    F(T, rgb, U8, [3], DATA, 0, "colour of every vertex when ncolors is 0 (else 0)")            \
    F(T, pad, U8, , ZERO, 0, "")
RR_RECORD(rr_rmesh_rgroup, RR_RMESH_RGROUP, 48);

#define RR_RMESH_RVERT(F, T)                                                                   \
    F(T, pos, U16, , SEMANTIC, 0, "position: collision vertex VERTS[pos] when pos < "           \
      "head.nverts, else render position RPOS[pos - head.nverts]")                              \
    F(T, uv0, I16, [2], DATA, 0, "diffuse UV: uv0 / 2^group.uv_frac")
RR_RECORD(rr_rmesh_rvert, RR_RMESH_RVERT, 6);

/* The lightmap UV of the render vertex of the same number (RVERTS). */
#define RR_RMESH_RLMUV(F, T)                                                                   \
    F(T, uv, U8, [3], DATA, 0, "two 12-bit numbers u = uv[0] | (uv[1] & 15) << 8, v = uv[1] "   \
      ">> 4 | uv[2] << 4; UV = group.lm_min + n * group.lm_step (Q16.16)")
RR_RECORD(rr_rmesh_rlmuv, RR_RMESH_RLMUV, 3);

/* The render triangle indices (RINDEX, schema 7): bytes, the same in
 * either byte order, in one of two layouts (rhead.ishift says which). Index
 * j names render vertex number vertex(j), one of its group's vertices
 * (checked per group), and render triangle k's corners are indices 3k ..
 * 3k + 2, found without finding k's group (a collision triangle reads its
 * corners that way, see rr_rmesh_tref). A full blob holds at most 65,536
 * render vertices (the baker refuses more). With n = rhead.nindices:
 *   8-bit (ishift <= RR_RMESH_ISHIFT_MAX): the render triangles are cut
 *        into blocks of 2^ishift (block b: triangles b << ishift ..), and
 *        the section is the blocks' base vertices, nblocks = (n / 3 +
 *        2^ishift - 1) >> ishift 16-bit numbers as byte pairs (low byte
 *        first: base(b) = B[2b] | B[2b + 1] << 8), then n bytes:
 *        vertex(j) = base((j / 3) >> ishift) + B[2 nblocks + j].
 *        A room's triangles use nearby vertices (a group's vertices are
 *        numbered in a run, its triangles follow in order), so the baker
 *        picks the largest ishift for which every block's vertices lie
 *        within 255 of its lowest one (the base);
 *   16-bit (ishift = RR_RMESH_ISHIFT_WIDE), when no ishift fits (a
 *        triangle whose corners are more than 255 vertices apart): 2n
 *        bytes, vertex(j) = B[2j] | B[2j + 1] << 8 (schema 6's numbers).
 * Corpus: every room 8-bit (ishift 5 to 8), 3 bytes a triangle instead
 * of 6. */
#define RR_RMESH_ISHIFT_MAX 8u
#define RR_RMESH_ISHIFT_WIDE 255u
#define RR_RMESH_RINDEX(F, T) \
    F(T, b, U8, , SEMANTIC, 0, "8-bit layout: block bases (byte pairs), then one byte an "      \
      "index; 16-bit layout: a byte pair an index (see rhead.ishift)")
RR_RECORD(rr_rmesh_rindex, RR_RMESH_RINDEX, 1);

/* A render-only position (not a collision vertex). */
#define RR_RMESH_RPOS(F, T) \
    F(T, p, I16, [3], DATA, 0, "coords = rhead.center + p << rhead.pos_shift")
RR_RECORD(rr_rmesh_rpos, RR_RMESH_RPOS, 6);

/* The colour of one vertex of a group whose colours vary. */
#define RR_RMESH_RCOLOR(F, T) \
    F(T, rgb, U8, [3], DATA, 0, "vertex colour")
RR_RECORD(rr_rmesh_rcolor, RR_RMESH_RCOLOR, 3);

/* A full blob's collision triangle (TREF, one record per collision
 * triangle, in BVH leaf order): most collision triangles are opaque render
 * triangles (the collision soup is the opaque visible surfaces' triangles,
 * then the invisible meshes'), so a full blob reads their corners through
 * the render data instead of storing them twice. With nrtris = the render
 * triangles (rhead.nindices / 3):
 *   key <  nrtris: render triangle key, corners RVERTS[vertex(3 key + c)].pos
 *        (vertex(j): the render vertex index j names, rr_rmesh_rindex)
 *        (each a collision vertex, < head.nverts); its source index is
 *        surfs[g.surface].first_src + key - g.first_index / 3 for the group
 *        g that holds it;
 *   key >= nrtris: the explicit triangle TRIS[key - nrtris] (corners and src).
 * The baker numbers both kinds in source order (render groups in file
 * order, the explicit triangles after them), so comparing keys compares
 * source indices (the queries' tie rule). */
#define RR_RMESH_TREF(F, T) \
    F(T, key, U16, , SEMANTIC, 0, "render triangle key (< rhead.nindices / 3, its corners "   \
      "collision vertices), else TRIS[key - rhead.nindices / 3]")
RR_RECORD(rr_rmesh_tref, RR_RMESH_TREF, 2);

/* ---- the sections -------------------------------------------------------- */

/* The version of this format's sections and records: the baker writes it
 * in the header's schema field and rr_open refuses a blob whose schema
 * differs (RR_ERR_VERSION: rebake it). Any change of a record, a section or
 * a field's meaning bumps it. Schema 8 has schema 7's records; what changed
 * is the arena a blob declares (the sweep's list of leaves, 96 bytes more)
 * and rr_open's tree check (a child's bounds within its parent's), so that
 * a blob baked for schema 7 gets "bake it again" rather than an arena
 * error. */
#define RR_RMESH_SCHEMA_VERSION 8u

#define RR_RMESH_SECTIONS(S, P)                                                    \
    S(P, head, RR_SEC_RMESH_HEAD, rr_rmesh_head, RR_RMESH_HEAD, ONE)               \
    S(P, verts, RR_SEC_RMESH_VERTS, rr_rmesh_vert, RR_RMESH_VERT, REQ)             \
    S(P, tris, RR_SEC_RMESH_TRIS, rr_rmesh_tri, RR_RMESH_TRI, REQ)                 \
    S(P, nodes, RR_SEC_RMESH_NODES, rr_rmesh_node, RR_RMESH_NODE, REQ)             \
    S(P, surfs, RR_SEC_RMESH_SURFS, rr_rmesh_surf, RR_RMESH_SURF, REQ)             \
    S(P, triggers, RR_SEC_RMESH_TRIGGERS, rr_rmesh_trigger, RR_RMESH_TRIGGER, REQ) \
    S(P, ents, RR_SEC_RMESH_ENTS, rr_rmesh_ent, RR_RMESH_ENT, REQ)                 \
    S(P, rhead, RR_SEC_RMESH_RHEAD, rr_rmesh_rhead, RR_RMESH_RHEAD, OPT)           \
    S(P, rgroups, RR_SEC_RMESH_RGROUPS, rr_rmesh_rgroup, RR_RMESH_RGROUP, OPT)     \
    S(P, rverts, RR_SEC_RMESH_RVERTS, rr_rmesh_rvert, RR_RMESH_RVERT, OPT)         \
    S(P, rindex, RR_SEC_RMESH_RINDEX, rr_rmesh_rindex, RR_RMESH_RINDEX, OPT)       \
    S(P, props, RR_SEC_RMESH_PROPS, rr_rmesh_prop, RR_RMESH_PROP, OPT)             \
    S(P, rpos, RR_SEC_RMESH_RPOS, rr_rmesh_rpos, RR_RMESH_RPOS, OPT)               \
    S(P, rcolors, RR_SEC_RMESH_RCOLORS, rr_rmesh_rcolor, RR_RMESH_RCOLOR, OPT)     \
    S(P, rlmuv, RR_SEC_RMESH_RLMUV, rr_rmesh_rlmuv, RR_RMESH_RLMUV, OPT)           \
    S(P, tref, RR_SEC_RMESH_TREF, rr_rmesh_tref, RR_RMESH_TREF, OPT)

/* Slot of each section in the view rr_open builds (RR_RMESH_S_head ...),
 * after the two common ones: the index kinds above name by its slot the
 * section they point into. */
RR_SECTION_SLOTS(RR_RMESH);

#endif

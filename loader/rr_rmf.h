/* rr_rmf.h - queries on a baked Worldcraft / Hammer map (RR_FMT_RMF).
 *
 * USAGE
 *   rr_open(blob, size, arena, sizeof arena, &room);    // validates everything
 *   uint32_t c;
 *   rr_rmf_point_contents(&room, p, &c);                 // c & RR_RMF_SOLID ...
 *   rr_rmf_trace_result tr;
 *   rr_rmf_trace(&room, start, end, half, RR_RMF_SOLID, &tr);   // half = NULL: a ray
 *   uint32_t e;
 *   rr_rmf_find_entity(&room, "targetname", "door1", 0, &e);
 *
 * GLOSSARY
 *   coords   world coordinates: int32 with room.coord_frac fractional bits
 *            (the baker picks 8 for small maps, fewer for large ones).
 *   brush    a convex solid: the points p with n.p <= dist for all its
 *            sides. Points on a side count as inside.
 *   contents RR_RMF_SOLID / _WATER / _TRIGGER / _NONSOLID bits, set per brush
 *            by the baker from the owning entity's class.
 *
 * LIMITS AND COSTS
 *   Query points and extents must lie within +-RR_RMF_MAX_COORD coords
 *   (RR_ERR_RANGE otherwise); the room's bounds lie within
 *   +-RR_RMF_MAX_BOUNDS (half that, checked by rr_open), so any query
 *   within the bounds grown by 2^20 coords is answered. Queries walk the baked brush BSP with a stack
 *   in the arena (12 bytes per tree level, depth <= RR_MAX_DEPTH) and mark
 *   tested brushes with a per-query stamp in the arena: a room is not
 *   re-entrant (one query at a time per arena). Arena (rr_arena_size): the
 *   section view (112 bytes), then RR_RMF_ARENA() in rr_rmf_blob.h: 148
 *   bytes of query state, one byte per brush and 12 per tree level; 276 to
 *   2,172 bytes for the corpus maps (`make size`).
 *   C stack (gcc -O2 -fcallgraph-info, worst chain rr_rmf_trace, `make size`):
 *   488 bytes on Cortex-M0 (128 per libgcc call), 336 on Cortex-M3, 348 on
 *   ARM926, 384 on MIPS32, 344 on x86-64 (the trace's state lives in the
 *   arena); nothing recurses; no floating point.
 *
 * TRACES (learned from Quake III's cm_trace.c)
 *   The trace walks the tree like CM_TraceThroughTree: each node splits the
 *   part [t0, t1] of the trace it reaches, the far part waits on the arena
 *   stack, and parts that start beyond the nearest hit so far are dropped.
 *   A trace moves a point or an axis-aligned box (half extents `half`,
 *   centred on the traced point) from start to end and stops
 *   the clip epsilon (1/32 unit, RR_RMF_CLIP_SHIFT) in front of the first side it would
 *   cross, so a following trace from the end point neither sticks to that
 *   side nor passes through it. Brushes are expanded by the box along each
 *   plane; every brush carries its axial bevels and its edge bevels (the
 *   baker adds them, as q3map does), so a box is not stopped early near the
 *   outside edges of sloped brushes.
 *   A trace that starts inside a brush (start_solid) is blocked by it only
 *   when it also ends inside it (all_solid, fraction 0), as in Quake III's
 *   CM_TraceThroughBrush; a start exactly on a side counts as outside.
 */
#ifndef RR_RMF_H
#define RR_RMF_H

#include <stdint.h>

#include "rr.h"
#include "rr_rmf_blob.h"

/* Trace clip distance: 1/32 unit, in coords = (1 << coord_frac) >> 5, at
 * least one coord. */
#define RR_RMF_CLIP_SHIFT 5

/* A caller-supplied bounded list of indices. */
typedef struct rr_rmf_list {
    uint32_t *items;     /* caller storage of max entries (may be NULL if max = 0) */
    uint32_t max;
    uint32_t count;      /* entries written (<= max) */
    uint32_t total;      /* entries found; > count when the list overflowed */
} rr_rmf_list;

typedef struct rr_rmf_trace_result {
    rr_fix fraction;     /* Q16.16 of the way to end; RR_FIX_ONE = nothing hit */
    int32_t end[3];      /* coords where the trace stopped */
    rr_vec3 normal;      /* Q16.16 outward normal of the side hit (0 if none) */
    int32_t plane;       /* plane index of the side hit, -1 if none */
    int32_t brush;       /* brush hit, -1 if none */
    uint32_t contents;   /* contents of the brush hit */
    uint8_t start_solid; /* the start lies inside a brush */
    uint8_t all_solid;   /* ... and the whole trace does: fraction 0 */
    uint16_t pad;
} rr_rmf_trace_result;

/// Points ///

/* OR of the contents of every brush containing p (0 = empty). Cost: one
 * tree descent plus the brushes of one leaf. */
rr_err rr_rmf_point_contents(const rr_room *room, const int32_t p[3], uint32_t *contents);
/* The brushes containing p, into list (count <= max; total = all found). */
rr_err rr_rmf_point_brushes(const rr_room *room, const int32_t p[3], rr_rmf_list *list);

/// Trace ///

/* Trace a ray (half = NULL) or a box of half extents half[] (coords, >= 0)
 * from start to end against the brushes whose contents & mask != 0. */
rr_err rr_rmf_trace(const rr_room *room, const int32_t start[3], const int32_t end[3],
                    const int32_t half[3], uint32_t mask, rr_rmf_trace_result *out);
/* Brushes whose (widened) bounds overlap the box [mins, maxs], into list. */
rr_err rr_rmf_box_brushes(const rr_room *room, const int32_t mins[3], const int32_t maxs[3],
                          rr_rmf_list *list);

/// Records ///

typedef struct rr_rmf_counts {
    uint32_t planes, sides, brushes, nodes, leaves, entities, keyvalues, cameras, paths;
    uint32_t version, tree_depth;
} rr_rmf_counts;

rr_err rr_rmf_get_counts(const rr_room *room, rr_rmf_counts *out);
/* Pointers into the blob (read-only records, see rr_rmf_blob.h). */
rr_err rr_rmf_get_brush(const rr_room *room, uint32_t i, const rr_rmf_brush **out);
rr_err rr_rmf_get_plane(const rr_room *room, uint32_t i, const rr_rmf_plane **out);
rr_err rr_rmf_get_entity(const rr_room *room, uint32_t i, const rr_rmf_entity **out);
rr_err rr_rmf_get_camera(const rr_room *room, uint32_t i, const rr_rmf_camera **out);
rr_err rr_rmf_get_keyvalue(const rr_room *room, uint32_t i, const rr_rmf_keyvalue **out);
/* Paths (path_corner / path_track chains drawn with the Path tool): nodes
 * path->first_node .. + nnodes in rr_rmf_get_pathnode; their key/values in
 * rr_rmf_get_keyvalue. i past the end gives RR_ERR_NOTFOUND. */
rr_err rr_rmf_get_path(const rr_room *room, uint32_t i, const rr_rmf_path **out);
rr_err rr_rmf_get_pathnode(const rr_room *room, uint32_t i, const rr_rmf_pathnode **out);

/// Entities ///

/* First entity at index >= from whose key equals value ("classname",
 * "targetname" or any key/value key; case-sensitive), or RR_ERR_NOTFOUND. */
rr_err rr_rmf_find_entity(const rr_room *room, const char *key, const char *value,
                          uint32_t from, uint32_t *index);
/* Value of key of entity i, or NULL when the entity has no such key. */
const char *rr_rmf_entity_value(const rr_room *room, uint32_t i, const char *key);

#endif

/* rr_rmesh.h - SCP - Containment Breach / CBRE-EX rooms (RR_FMT_RMESH blobs):
 * ray casts, trigger boxes, box queries and entities, in fixed point.
 *
 * USAGE
 *   rr_room room;                       // rr_open()ed RMesh blob
 *   rr_rmesh_ray ray = {{x, y, z}, {0, -RR_FIX_ONE, 0}, 4096};
 *   rr_rmesh_hit hit;
 *   if (rr_rmesh_raycast(&room, &ray, &hit) == RR_OK && hit.hit) ...
 *
 * UNITS
 *   Positions and distances are "coords": int32 world units with
 *   room.coord_frac fractional bits (world = coord / 2^coord_frac). World
 *   units are .rmesh file units (Blitz3D space: left-handed, +Y up), or game
 *   units when the blob was baked with the room scale (8/2048).
 *   The baker keeps every stored point within |c| <= RR_RMESH_COORD_MAX
 *   (2^17) coords; rr_open holds every stored point but the 16-bit lattice
 *   points (collision vertices, BVH bounds) to it, and those stay within
 *   2^17 + 2^18 by their encoding.
 *   Directions and normals are rr_fix Q16.16.
 *
 * COST
 *   Every query walks the BVH with an explicit stack in the room's arena
 *   (4 bytes per level; rr_open checked the arena and the tree depth), so
 *   there is no recursion and no allocation; each query's whole call chain
 *   stays within the 512-byte stack bound on every board (figures in
 *   docs/rmesh.md). Queries share the arena: do not run two at once on one
 *   room.
 */
#ifndef RR_RMESH_H
#define RR_RMESH_H

#include "rr.h"
#include "rr_rmesh_blob.h"

/// Room ///

/* Every function below returns RR_ERR_ARG for a room that is not an
 * rr_open()ed RMesh room or a NULL pointer argument. The accessors of
 * records then return RR_ERR_MISSING when the blob has no render data
 * (render accessors only) and RR_ERR_RANGE for a record number past the
 * count. Each reaches its sections in constant time (rr_open built the
 * view); only the searches (trigger_at, entity_next, entity_nearest) walk
 * their section. */

/* The blob's head section (counts, bounds, flags). */
rr_err rr_rmesh_head_get(const rr_room *room, const rr_rmesh_head **head);

/* Collision triangle i (< head->ntris, BVH leaf order): its source index
 * (the collision soup's order, rr_rmesh_tri.src), its three corners in
 * coords (decoded from the vertex lattice) and its unit normal in Q16.16
 * (worked out from the corners: within 2^-13 per component of the exact
 * unit normal of (p1 - p0) x (p2 - p0)). The same for both kinds of blob:
 * a full blob reads most corners through its render data (rr_rmesh_tref). */
rr_err rr_rmesh_triangle(const rr_room *room, uint32_t i, uint32_t *src, int32_t p[3][3],
                         rr_vec3 *normal);
/* The collision vertex numbers of triangle i's corners (each < head->nverts:
 * records of section RR_SEC_RMESH_VERTS, coords = head->origin + q <<
 * head->vshift), for a program that shares vertices between triangles (an
 * OBJ export, a wireframe): the corners rr_rmesh_triangle decodes, for
 * both kinds of blob. */
rr_err rr_rmesh_triangle_vertices(const rr_room *room, uint32_t i, uint32_t v[3]);
/* The surface of triangle i (rr_rmesh_surface): the blob gives it through
 * the triangle's source index (rr_rmesh_surf.first_src). */
rr_err rr_rmesh_triangle_surface(const rr_room *room, uint32_t i, uint32_t *surface);

/// Ray cast ///

typedef struct rr_rmesh_ray {
    int32_t origin[3];   /* coords; each |component| <= 2^18, else RR_ERR_RANGE */
    rr_vec3 dir;         /* any non-zero length (normalised internally) */
    int32_t max_dist;    /* coords, >= 0; values above 2^20 are clamped to 2^20 */
} rr_rmesh_ray;

typedef struct rr_rmesh_hit {
    int hit;             /* 1 if a collision triangle was hit within max_dist */
    uint32_t tri;        /* blob triangle index */
    uint32_t src;        /* source triangle index (rr_rmesh_tri.src) */
    uint32_t surface;    /* surface id: texture names via rr_rmesh_surface() */
    rr_fix frac;         /* hit distance / max_dist, RR_FIX_ONE when no hit */
    int32_t dist;        /* coords along the ray (rounded) */
    int32_t point[3];    /* hit point, coords (rounded) */
    rr_vec3 normal;      /* unit normal of the triangle, facing the ray origin */
} rr_rmesh_hit;

/* First hit of the ray on the collision triangles (opaque + invisible; alpha
 * surfaces do not collide), double-sided. The test is exact integer
 * arithmetic on the stored coordinates: a hit on an edge or vertex counts;
 * a ray in the plane of a triangle does not hit it. Equal distances go to
 * the lowest source triangle index (rr_rmesh_tri.src), so the answer does
 * not depend on how the baker built the tree. Returns RR_OK (hit->hit tells hit or miss),
 * RR_ERR_ARG (NULL, zero dir, negative max_dist) or RR_ERR_RANGE (origin). */
rr_err rr_rmesh_raycast(const rr_room *room, const rr_rmesh_ray *ray, rr_rmesh_hit *hit);

/// Trigger boxes ///

/* The first trigger box (file order) that strictly contains p, as the game's
 * CheckTriggers does. RR_ERR_NOTFOUND when none does. */
rr_err rr_rmesh_trigger_at(const rr_room *room, const int32_t p[3], uint32_t *index);
/* Trigger box i and its name. */
rr_err rr_rmesh_trigger_get(const rr_room *room, uint32_t i, const rr_rmesh_trigger **box,
                        const char **name);

/// Box query ///

typedef struct rr_rmesh_list {
    uint32_t *items;     /* caller storage for cap triangle indices */
    uint32_t cap;
    uint32_t count;      /* filled: how many were stored */
    int truncated;       /* 1 if more triangles overlap than cap */
} rr_rmesh_list;

/* Collision triangles that touch the closed box [min, max] (exact
 * separating-axis test). The search stops at the first triangle that does
 * not fit (truncated = 1). |components| <= 2^18, min <= max. */
rr_err rr_rmesh_box_tris(const rr_room *room, const int32_t min[3], const int32_t max[3],
                         rr_rmesh_list *out);

/// Ellipsoid sweep ///

/* Most slide iterations one sweep may take. */
#define RR_RMESH_MAX_SLIDES 8

typedef struct rr_rmesh_sweep {
    int32_t from[3], to[3];   /* ellipsoid centre, coords; |component| <= 2^18 */
    int32_t radius[3];        /* semi-axes x, y, z in coords, 16 .. 2^14 each */
    uint32_t max_slides;      /* 1 .. RR_RMESH_MAX_SLIDES */
} rr_rmesh_sweep;

typedef struct rr_rmesh_sweep_out {
    int32_t pos[3];           /* final centre, coords */
    int hit;                  /* 1 if any contact happened */
    uint32_t slides;          /* contacts handled (<= max_slides) */
    uint32_t tri;             /* triangle of the last contact */
    rr_vec3 normal;           /* unit normal of the last contact, facing the centre */
} rr_rmesh_sweep_out;

/* Move an axis-aligned ellipsoid from `from` toward `to` against the
 * collision triangles with Blitz3D-like "full sliding": at each contact the
 * centre stops 2 coords short (along the motion), the remaining motion loses
 * its component into the contact plane, and the move goes on, until the
 * motion is used up or max_slides contacts were handled (then it stops at the
 * last contact). Contacts are found per step of at most the smallest radius
 * (face, then edges and vertices; exact integer tests with e-space values in
 * Q12 of the radii; equal contact fractions go to the lowest source triangle
 * index, as in the ray cast). A start that already overlaps a triangle can move away
 * from it but not deeper. Cost: one BVH walk per step.
 * Returns RR_OK, RR_ERR_ARG or RR_ERR_RANGE. */
rr_err rr_rmesh_sweep_move(const rr_room *room, const rr_rmesh_sweep *in,
                           rr_rmesh_sweep_out *out);

/// Surfaces and entities ///

/* Surface id s (rr_rmesh_triangle_surface, hit.surface): record and texture names (slot 0 =
 * lightmap, slot 1 = diffuse; "" when absent). */
rr_err rr_rmesh_surface(const rr_room *room, uint32_t s, const rr_rmesh_surf **surf,
                        const char **tex0, const char **tex1);

/* Entity i (file order). */
rr_err rr_rmesh_entity(const rr_room *room, uint32_t i, const rr_rmesh_ent **ent);

/* Iterate entities of one class: start with *i = 0; on RR_OK *i is the next
 * entity of class cls (RR_RMESH_NCLASSES = any class) at or after *i; call
 * again with *i + 1. RR_ERR_NOTFOUND when there is no more. */
rr_err rr_rmesh_entity_next(const rr_room *room, uint32_t cls, uint32_t *i);

/* The entity of class cls (RR_RMESH_NCLASSES = any class) nearest to p
 * (squared distance, ties to the lower index), skipping entities flagged
 * RR_RMESH_ENT_IGNORED. |p| <= 2^18. */
rr_err rr_rmesh_entity_nearest(const rr_room *room, uint32_t cls, const int32_t p[3],
                               uint32_t *index);

/* CBRE-EX custom entities (class RR_RMESH_CUSTOM: door, item, or a class of
 * the entity definitions the room was baked with): its class name is
 * rr_string(room, ent->str), its properties are key/value texts.
 * Iterate the custom entities of class name cls (NULL = any class) like
 * rr_rmesh_entity_next: start with *i = 0, call again with *i + 1. */
rr_err rr_rmesh_custom_next(const rr_room *room, const char *cls, uint32_t *i);

/* The custom entity of class name cls nearest to p (as rr_rmesh_entity_nearest). */
rr_err rr_rmesh_custom_nearest(const rr_room *room, const char *cls, const int32_t p[3],
                               uint32_t *index);

/* Property key of entity i as text, or NULL when entity i is not a custom
 * entity or has no such property (case-sensitive). */
const char *rr_rmesh_entity_value(const rr_room *room, uint32_t i, const char *key);

/// Render data ///

/* Quantization parameters of the render data (see rr_rmesh_rhead), or
 * RR_ERR_MISSING when the blob was baked with --collision-only. */
rr_err rr_rmesh_render_head(const rr_room *room, const rr_rmesh_rhead **rhead);

/* Render group i (< rhead->ngroups): one per visible or no-collision surface,
 * in file order, with group->nindices / 3 triangles (rr_rmesh_render_triangle)
 * on the vertices group->first_vert .. group->first_vert + group->nverts - 1. */
rr_err rr_rmesh_render_group(const rr_room *room, uint32_t i, const rr_rmesh_rgroup **group);

/* Triangle t (< group->nindices / 3) of render group `group`: its corners'
 * render vertex numbers v[0..2], each one of the group's vertices (rr_open
 * checked them). Read a vertex, by such a number, with
 * rr_rmesh_render_vertex. The blob stores them in 8 or 16 bits
 * (rr_rmesh_rindex); this is the one way to read them. */
rr_err rr_rmesh_render_triangle(const rr_room *room, uint32_t group, uint32_t t, uint32_t v[3]);

/* A render vertex, decoded. */
typedef struct rr_rmesh_vertex {
    int32_t pos[3];   /* coords */
    rr_fix uv0[2];    /* diffuse UV, Q16.16 (exactly the stored uv / 2^uv_frac) */
    rr_fix uv1[2];    /* lightmap UV, Q16.16 (exactly lm_min + n * lm_step of its group) */
    uint8_t rgb[3];   /* vertex colour */
} rr_rmesh_vertex;

/* Render vertex v of render group `group` (a number its indices give:
 * group->first_vert <= v < group->first_vert + group->nverts): position,
 * UVs and colour (RR_ERR_RANGE for another group's vertex or past the
 * groups). The position is within
 * 2^(head.vshift-1) coords of the source for a vertex on a collision vertex,
 * 2^(rhead.pos_shift-1) for the others (rr_rmesh_blob.h, docs/rmesh.md). */
rr_err rr_rmesh_render_vertex(const rr_room *room, uint32_t group, uint32_t v,
                              rr_rmesh_vertex *out);

#endif

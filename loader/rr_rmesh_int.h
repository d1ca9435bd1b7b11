/* rr_rmesh_int.h - what the two halves of the RMesh runtime share (internal:
 * included only by rr_rmesh.c and rr_rmesh_open.c, not part of the API).
 *
 *   rr_rmesh_open.c  the blob: rr_open's checks, reading the mesh (the
 *                    out-of-line decoders declared at the end) and the
 *                    accessors (triggers, surfaces, entities, render data,
 *                    a triangle's corner numbers);
 *   rr_rmesh.c       the queries (ray cast, box query, ellipsoid sweep), the
 *                    plane normals, source indices and surfaces their answers
 *                    are made of, and the accessors of one triangle's answers.
 *
 * rr_rmesh.c uses rr_rmesh_open.c, never the other way round. The
 * per-triangle decoders are inline here, so that both halves read a
 * triangle the one way the blob stores it (rr_rmesh_blob.h). */
#ifndef RR_RMESH_INT_H
#define RR_RMESH_INT_H

#include "rr_int.h"
#include "rr_rmesh.h"

/* Query points (ray origins, box corners, sweep ends, entity searches)
 * lie within +-ORIGIN_MAX coords (RR_ERR_RANGE otherwise). */
#define ORIGIN_MAX (1 << 18)

/* Keep the big helpers out of their callers: merged frames add up, separate
 * ones are reused along the call chain (see the stack bound in rr.h). */
#define NOINLINE __attribute__((noinline))

/* ------------------------------------------------------------------ */
/* The sections of an open room                                        */
/* ------------------------------------------------------------------ */

/* rr_open checked every record and built the view: each section is one
 * lookup away (verts_of(room), ...), its record count
 * rr__count(room, RR_RMESH_S_<name>) (equal to the head's count of it). */
RR_SECTION_ACCESSORS(RR_RMESH)

/* The work area of a ray cast, box query or sweep (rr_open checked the
 * arena; queries share it, see rr_rmesh.h): after the query stack (4 bytes a
 * level), 8-byte aligned; RR_RMESH_SWEEP_BYTES covers each work struct plus
 * the padding (checked where each is defined). Keeping them out of the C
 * stack keeps the deepest frames small. */
static inline void *work_area(const rr_room *room)
{
    uintptr_t p = (uintptr_t)(room->arena + 4 * (room->max_depth + 2));
    return (void *)((p + 7u) & ~(uintptr_t)7u);
}

/* The query stack of the tree walks: 4 bytes a level at the start of the
 * arena, before the work area. */
static inline uint32_t *query_stack(const rr_room *room)
{
    return (uint32_t *)(void *)room->arena;
}

/* The arrays the per-triangle tests read (ray, box, sweep), taken from the
 * view once per query (once per step in the sweep), not at every triangle.
 * The tree walks take the nodes from the view once per call. */
typedef struct mesh {
    const rr_rmesh_vert *verts;
    const rr_rmesh_tri *tris;      /* collision-only: every triangle; full: the explicit ones */
    const rr_rmesh_tref *tref;     /* full blob: each triangle's key; 0 in a collision-only one */
    const uint8_t *ribase;         /* full blob, 8-bit indices: the block bases (byte pairs,
                                    * rr_rmesh_rindex); 0 with 16-bit indices */
    const uint8_t *rix;            /* full blob: the render triangles' corners (one byte an
                                    * index, or a byte pair when ribase is 0) */
    const rr_rmesh_rvert *rverts;  /* and their render vertices */
    uint32_t nrtris;               /* full blob: render triangles (keys below it) */
    int32_t origin[3];   /* the vertex lattice: coords = origin + q << shift */
    uint16_t shift;      /* head.vshift: the lattice step is 2^shift coords */
    uint16_t ishift;     /* rhead.ishift: 8-bit indices in blocks of 2^ishift triangles */
} mesh;

/* Blocks of 2^ishift render triangles, each with a base (8-bit render
 * indices, rr_rmesh_rindex). */
static inline uint32_t render_blocks(uint32_t nrtris, uint32_t ishift)
{
    return (nrtris + ((1u << ishift) - 1u)) >> ishift;
}

/* A 16-bit render vertex number stored as a byte pair, low byte first (the
 * same bytes in either byte order: rr_rmesh_rindex). */
static inline uint32_t pair16(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8;
}

/* 8-bit indices: the base vertex of the block that holds render triangle t. */
static inline uint32_t block_base(const mesh *m, uint32_t t)
{
    return pair16(&m->ribase[2u * (t >> m->ishift)]);
}

/* The corners of render triangle key (< nrtris): the collision vertices
 * its render vertices stand on (rr_open checked them). The three indices
 * of render_index, with the block's base read once (the ray's and the
 * sweep's per-triangle path). */
static inline void render_corners_at(const mesh *m, uint32_t key, uint32_t v[3])
{
    if (m->ribase) {   /* 8-bit: its block's base plus a byte (every corpus room) */
        const uint8_t *ix = &m->rix[3 * key];
        const rr_rmesh_rvert *rv = &m->rverts[block_base(m, key)];
        v[0] = rv[ix[0]].pos;
        v[1] = rv[ix[1]].pos;
        v[2] = rv[ix[2]].pos;
    } else {           /* 16-bit: byte pairs */
        const uint8_t *w = &m->rix[6 * key];
        v[0] = m->rverts[pair16(&w[0])].pos;
        v[1] = m->rverts[pair16(&w[2])].pos;
        v[2] = m->rverts[pair16(&w[4])].pos;
    }
}

/* The collision vertex numbers of triangle t's corners, the one place that
 * knows how a triangle is stored (rr_rmesh_tref). A collision-only blob
 * holds them (TRIS); in a full blob t's key names render triangle key,
 * whose render vertices stand on collision vertices, or, from nrtris on,
 * the explicit triangle TRIS[key - nrtris]. rr_open checked every key and
 * every corner it reaches. The branch on the blob kind goes the same way
 * for every triangle of a query. */
static inline void tri_verts(const mesh *m, uint32_t t, uint32_t v[3])
{
    const uint16_t *c;
    if (m->tref) {
        uint32_t key = m->tref[t].key;
        if (key < m->nrtris) {
            render_corners_at(m, key, v);
            return;
        }
        t = key - m->nrtris;
    }
    c = m->tris[t].v;
    v[0] = c[0];
    v[1] = c[1];
    v[2] = c[2];
}

/* The tie key of triangle t: equal distances go to the lowest source
 * index, and keys are in source order (the key of a full blob, the source
 * index of a collision-only one; see rr_rmesh_tref), so comparing keys is
 * comparing source indices without working them out per triangle. */
static inline uint32_t tri_key(const mesh *m, uint32_t t)
{
    return m->tref ? m->tref[t].key : m->tris[t].src;
}

/* Collision vertex v in coords: origin + q << shift (q << shift < 2^18). */
static inline void vertex_coords(const mesh *m, uint32_t v, int32_t p[3])
{
    const uint16_t *q = m->verts[v].q;
    int k;
    for (k = 0; k < 3; k++)
        p[k] = m->origin[k] + ((int32_t)q[k] << m->shift);
}

/* The edges v1 - v0 and v2 - v0 of the triangle with corners v in lattice
 * steps (|e| < 2^16). */
static inline void lattice_edges(const mesh *m, const uint32_t v[3], int32_t e1[3],
                                 int32_t e2[3])
{
    const uint16_t *q0 = m->verts[v[0]].q, *q1 = m->verts[v[1]].q, *q2 = m->verts[v[2]].q;
    int k;
    for (k = 0; k < 3; k++) {
        e1[k] = q1[k] - q0[k];
        e2[k] = q2[k] - q0[k];
    }
}

/* ---- out of line, in rr_rmesh_open.c ------------------------------------ */

/* The first check of every query and accessor: an rr_open()ed RMesh room
 * (RR_ERR_ARG otherwise). It sits beside the validator on purpose: rr_open
 * reaches rr__rmesh_validate through a weak reference (rr_open.c), which
 * does not take rr_rmesh_open.o out of librr.a, so a program that calls
 * only queries of rr_rmesh.c links the validator through this function;
 * without it rr_open would refuse every RMesh blob there (RR_ERR_FORMAT). */
int rr__rmesh_is(const rr_room *room);
/* The arrays of an open room that the per-triangle code reads. */
void rr__rmesh_mesh(const rr_room *room, mesh *m);
/* tri_verts out of line (the callers outside the per-triangle loops). */
void rr__rmesh_tri_verts(const mesh *m, uint32_t t, uint32_t v[3]);
/* The checks every collision-triangle accessor makes (an RMesh room, its
 * outputs given: ok non-zero; triangle i of the room), then the room's
 * arrays into m. */
rr_err rr__rmesh_triangle_args(const rr_room *room, int ok, uint32_t i, mesh *m);

#endif

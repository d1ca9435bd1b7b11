/* rr_rmesh_int.h - what the files of the RMesh runtime share (internal:
 * included only by them, not part of the API).
 *
 *   rr_rmesh_open.c   the blob: rr_open's checks, reading the mesh (the
 *                     out-of-line decoders declared at the end) and the
 *                     accessors (triggers, surfaces, entities, render data,
 *                     a triangle's corner numbers);
 *   rr_rmesh.c        the ray cast and the box query, the plane normals,
 *                     source indices and surfaces their answers are made of,
 *                     and the accessors of one triangle's answers;
 *   rr_rmesh_sweep.c  the ellipsoid sweep.
 *
 * The query files use rr_rmesh_open.c, never the other way round, and not
 * each other: what they share is here. The per-triangle decoders are
 * inline, so that every file reads a triangle the one way the blob stores
 * it (rr_rmesh_blob.h). */
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

/* ---- query helpers, in every query file -------------------------------- */

/* What the ray cast and box query (rr_rmesh.c) and the sweep
 * (rr_rmesh_sweep.c) share. Each is out of line (its frame is not added to
 * its caller's) but static: every query file that calls one has its own
 * copy, so the per-triangle and per-node calls stay calls within the file,
 * which the compiler fits to the caller's registers. */
#define QUERY_HELPER static __attribute__((noinline, unused))

/* |a| */
QUERY_HELPER int64_t abs64(int64_t a)
{
    return a < 0 ? -a : a;
}

/* a . b of two int32 vectors (each product below 2^62 in every use). */
QUERY_HELPER int64_t dot64(const int32_t a[3], const int32_t b[3])
{
    return (int64_t)a[0] * b[0] + (int64_t)a[1] * b[1] + (int64_t)a[2] * b[2];
}

/* Length of an int32 vector (|v|^2 < 2^63 in every use), rounded down. */
QUERY_HELPER uint32_t len3(const int32_t v[3])
{
    return rr_isqrt64((uint64_t)dot64(v, v));
}

/* plane_normal's scaling (rr_rmesh.c), shared with the sweep's own plane
 * normal (sweep_plane): e1 x e2 scaled by a power of two and rounded so
 * that its largest component lies in [2^14, 2^15]. */
static inline void scale_normal(const int64_t c[3], int32_t n[3])
{
    uint64_t big = 0;
    int k, s;
    for (k = 0; k < 3; k++)
        big |= (uint64_t)(c[k] < 0 ? -c[k] : c[k]);
    /* the shift that brings the highest set bit of big to bit 14 */
    s = big ? rr__top_bit64(big) - 14 : 0;
    for (k = 0; k < 3; k++)
        n[k] = (int32_t)(s > 0 ? (c[k] + ((int64_t)1 << (s - 1))) >> s : c[k] * ((int64_t)1 << -s));
}

/* The unit normal in Q16.16 of a plane normal n of plane_normal, turned by
 * sign (+1 or -1), for the answers (ray hit, sweep face contact,
 * rr_rmesh_triangle): n / |n|, with |n| (>= 2^14) rounded to the nearest
 * integer and each component rounded. Each component is within 2^-13 of the
 * exact unit normal of the triangle's corners (docs/rmesh.md): n's rounding
 * turns it by at most sqrt(3) / 2^15, |n|'s changes its length by at most
 * 2^-15, and the last rounding adds 2^-17. */
QUERY_HELPER void unit_normal(const int32_t n[3], int32_t sign, int32_t out[3])
{
    /* each n_k^2 <= 2^30: the sum fits 32 bits unsigned */
    uint32_t v = (uint32_t)(n[0] * n[0]) + (uint32_t)(n[1] * n[1]) + (uint32_t)(n[2] * n[2]);
    uint32_t len = rr__isqrt32(v);
    int k;
    if (v - len * len > len)   /* v >= len^2 + len + 1 > (len + 1/2)^2: round up */
        len++;
    for (k = 0; k < 3; k++) {
        /* |n_k| * 2^16 + len / 2 < 2^32 */
        uint32_t a = (uint32_t)(n[k] < 0 ? -n[k] : n[k]);
        int32_t u = len ? (int32_t)((a * 65536u + len / 2) / len) : 0;
        out[k] = (n[k] < 0 ? -sign : sign) * u;
    }
}

/* The lattice points within the box [lo, hi] (coords relative to the
 * lattice origin, |lo|, |hi| < 2^25) grown by `grow` coords: q from qlo to
 * qhi on each axis, where qhi is the largest q with q << shift <= hi +
 * grow and qlo the smallest with q << shift >= lo - grow (floor and
 * ceiling, by arithmetic shifts). Comparing a lattice number q with them
 * is the same as comparing q << shift with the box, one shift per query
 * instead of two per node or triangle. */
QUERY_HELPER void lattice_box(const int32_t lo[3], const int32_t hi[3], int32_t grow,
                              uint32_t shift, int32_t qlo[3], int32_t qhi[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        qhi[k] = (hi[k] + grow) >> shift;
        qlo[k] = -((grow - lo[k]) >> shift);
    }
}

/* Does triangle t lie wholly outside a box [lo, hi] (coords relative to
 * the lattice origin) grown by some coords, given as its lattice box qlo,
 * qhi (lattice_box)? Decided on the 16-bit lattice points before the
 * triangle is decoded. The ray cast asks it for the box of the
 * still-interesting part of its segment grown by 2 coords (a hit lies on
 * the segment, within a coord of that box: see set_end), the sweep for the
 * region of its step grown by REACH coords: every contact
 * point lies in the region (the swept ellipsoid's box grown by SKIN); the
 * face test's touching point is rounded by less than 2 coords and lies
 * within rounding of the plane, so REACH leaves a margin. Most triangles of
 * a leaf that the walk reaches are rejected here. */
#define REACH 8
QUERY_HELPER int tri_outside(const mesh *m, const uint32_t v[3], const int32_t qlo[3],
                             const int32_t qhi[3])
{
    const uint16_t *a = m->verts[v[0]].q, *b = m->verts[v[1]].q, *c = m->verts[v[2]].q;
    int k;
    for (k = 0; k < 3; k++)   /* all three corners above the box, or all below */
        if ((a[k] > qhi[k] && b[k] > qhi[k] && c[k] > qhi[k]) ||
            (a[k] < qlo[k] && b[k] < qlo[k] && c[k] < qlo[k]))
            return 1;
    return 0;
}

/* Do the bounds of node nd meet the lattice box [lo, hi]? The first axis
 * on which they miss decides: most nodes a walk reaches are missed, on one
 * axis. */
static inline int node_meets(const rr_rmesh_node *nd, const int32_t lo[3], const int32_t hi[3])
{
    int k;
    for (k = 0; k < 3; k++)
        if (nd->min[k] > hi[k] || nd->max[k] < lo[k])
            return 0;
    return 1;
}

/* The BVH leaves whose bounds meet the closed box [lo, hi] (coords relative
 * to the lattice origin, |lo|, |hi| < 2^25: the sweep's region), given as
 * its lattice box qlo, qhi (lattice_box, grown by 0; the node bounds are
 * lattice numbers), in pre-order, one per call (box query and sweep): start
 * with *sp = *node = 0; returns 0 when the walk is done. The stack is the
 * arena's (4 bytes a level). */
QUERY_HELPER const rr_rmesh_node *next_leaf(const rr_room *room, uint32_t *sp,
                                            uint32_t *node, const int32_t qlo[3],
                                            const int32_t qhi[3])
{
    const rr_rmesh_node *nodes = nodes_of(room);
    uint32_t *stack = query_stack(room), n = rr__count(room, RR_RMESH_S_nodes);
    uint32_t at = *node, top = *sp;   /* in registers for the walk, stored on return */
    const rr_rmesh_node *nd = 0;
    while (at < n) {
        int meets;
        nd = &nodes[at];
        meets = node_meets(nd, qlo, qhi);
        if (meets && !(nd->count & RR_RMESH_LEAF)) {
            stack[top++] = nd->count;
            at = nd->first;
            continue;
        }
        at = top ? stack[--top] : n;
        if (meets)
            break;
        nd = 0;
    }
    *node = at;
    *sp = top;
    return nd;
}

/* ---- out of line, in rr_rmesh_open.c ------------------------------------ */

/* The first check of every query and accessor: an rr_open()ed RMesh room
 * (RR_ERR_ARG otherwise). It sits beside the validator on purpose: rr_open
 * reaches rr__rmesh_validate through a weak reference (rr_open.c), which
 * does not take rr_rmesh_open.o out of librr.a, so a program that calls
 * only queries (rr_rmesh.c, rr_rmesh_sweep.c) links the validator through
 * this function;
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

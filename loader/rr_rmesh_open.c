/* rr_rmesh_open.c - RMesh runtime: the blob. rr_open's checks of an RMesh
 * blob, reading the mesh (the decoders the queries use out of line), and
 * the accessors of rr_rmesh.h (triangles, triggers, surfaces, entities,
 * render data) but the two that need a query's arithmetic
 * (rr_rmesh_triangle, rr_rmesh_triangle_surface). The queries are in
 * rr_rmesh.c and rr_rmesh_sweep.c, which use this file (never the other
 * way round), what they share in rr_rmesh_int.h.
 *
 * rr_open checks the blob against the schema of rr_rmesh_blob.h record by
 * record; rr__rmesh_validate adds what a single field cannot say. It walks
 * the tree once in index order with an explicit stack, which proves that
 * every node is reached exactly once (no cycle, no sharing) and that the
 * depth is within the declared bound.
 */
#define RR_INTERNAL
#include "rr_rmesh_int.h"

/* The loader's tables of the RMesh schema (rr_rmesh_blob.h). */
RR_FORMAT_SCHEMA(rmesh_schema, RR_RMESH);

NOINLINE int rr__rmesh_is(const rr_room *room)
{
    return room && room->format == RR_FMT_RMESH && room->view;
}

/* ------------------------------------------------------------------ */
/* Reading the mesh (the query files use these too)                   */
/* ------------------------------------------------------------------ */

/* A blob with render data is a full blob: its triangles are TREF keys. */
NOINLINE void rr__rmesh_mesh(const rr_room *room, mesh *m)
{
    const rr_rmesh_head *h = head_of(room);
    int full = rr__count(room, RR_RMESH_S_rhead) != 0;
    int k;
    m->verts = verts_of(room);
    m->tris = tris_of(room);
    m->tref = full ? tref_of(room) : 0;
    m->rverts = rverts_of(room);
    m->rix = (const uint8_t *)rindex_of(room);
    m->ribase = 0;
    m->nrtris = 0;
    m->ishift = 0;
    if (full) {
        const rr_rmesh_rhead *rh = rhead_of(room);
        m->nrtris = rh->nindices / 3;
        if (rh->ishift <= RR_RMESH_ISHIFT_MAX) {   /* 8-bit: the indices follow the bases */
            m->ishift = rh->ishift;
            m->ribase = m->rix;
            m->rix += 2u * render_blocks(m->nrtris, rh->ishift);
        }
    }
    for (k = 0; k < 3; k++)
        m->origin[k] = h->origin[k];
    m->shift = (uint16_t)h->vshift;
}

/* tri_verts (rr_rmesh_int.h) out of line: one copy for the callers outside
 * the per-triangle loops of the ray cast and the sweep (box query, answers,
 * accessors, rr_open's triangle check). */
NOINLINE void rr__rmesh_tri_verts(const mesh *m, uint32_t t, uint32_t v[3])
{
    tri_verts(m, t, v);
}

/* Render vertex number of render index j (rr_rmesh_rindex): its block's
 * base plus its byte, or its byte pair. */
static uint32_t render_index(const mesh *m, uint32_t j)
{
    if (m->ribase)
        return block_base(m, j / 3u) + m->rix[j];
    return pair16(&m->rix[2u * j]);
}

/* ------------------------------------------------------------------ */
/* Validation                                                          */
/* ------------------------------------------------------------------ */

/* rr_open's checks below run once per blob, not per query: they are
 * compiled for size (the issue 18 budget of 8 KB per runtime at -O2 allows
 * that for run-once validation), the queries for speed. */
#define RUN_ONCE __attribute__((optimize("Os")))

/* The schema has checked every field that a kind describes: counts, index
 * and string fields, coordinate ranges, normal components, flags, enums and
 * quantization limits. What follows judges what no single field shows;
 * each failure names the field it judged. */

/* Do the corners lie on one line, e1 x e2 = 0 (plane_normal is zero exactly
 * then)? Lattice edges are below 2^16 a component; when every component is
 * below 2^15, as for nearly every triangle (its edges span a small part of
 * the room), each product is below 2^30 and the test needs only 32-bit
 * multiplies, which the Cortex-M0 has as one instruction (a 64-bit product
 * is a libgcc call there). */
static int on_one_line(const int32_t e1[3], const int32_t e2[3])
{
    int32_t big = 0;
    int k;
    for (k = 0; k < 3; k++)
        big |= (e1[k] < 0 ? -e1[k] : e1[k]) | (e2[k] < 0 ? -e2[k] : e2[k]);
    if (big < 32768)
        return e1[1] * e2[2] == e1[2] * e2[1] && e1[2] * e2[0] == e1[0] * e2[2] &&
               e1[0] * e2[1] == e1[1] * e2[0];
    return (int64_t)e1[1] * e2[2] == (int64_t)e1[2] * e2[1] &&
           (int64_t)e1[2] * e2[0] == (int64_t)e1[0] * e2[2] &&
           (int64_t)e1[0] * e2[1] == (int64_t)e1[1] * e2[0];
}

/* Does the triangle with corners v have a plane (rr_open's check_tris)? */
static int has_plane(const mesh *m, const uint32_t v[3])
{
    int32_t e1[3], e2[3];
    lattice_edges(m, v, e1, e2);
    return !on_one_line(e1, e2);
}

/* The collision triangles (runs after check_render_groups, whose checks the keys
 * rely on). head.ntris counts them: the TREF records of a full blob, the
 * TRIS records of a collision-only one. Every triangle has a plane: its
 * corners do not lie on one line (the baker drops such triangles), so its
 * plane normal is not zero. In a full blob each key names a render
 * triangle or a TRIS record, and a render triangle's corners are render
 * vertices that stand on collision vertices (rr_rmesh_tref). */
static RR_VALIDATION RUN_ONCE NOINLINE rr_err check_tris(const rr_room *room, rr_diag *diag)
{
    static const char no_plane[] = "triangle plane normal (zero: its corners lie on one line)";
    const rr_rmesh_head *h = head_of(room);
    const rr_rmesh_tri *t = tris_of(room);
    uint32_t i, c, v[3], n = rr__count(room, RR_RMESH_S_tris);
    mesh *m = work_area(room);   /* in the arena: no query runs yet, and the frame stays small */
    rr__rmesh_mesh(room, m);
    i = m->tref ? rr__count(room, RR_RMESH_S_tref) : n;
    if (h->ntris != i)
        return rr__fail(room, diag, RR_ERR_SECTION, &h->ntris,
                        "head ntris (TREF records with render data, else TRIS)", h->ntris, i);
    for (i = 0; i < n; i++, t++) {
        for (c = 0; c < 3; c++)
            v[c] = t->v[c];
        if (!has_plane(m, v))
            return rr__fail(room, diag, RR_ERR_RANGE, t->v, no_plane, 0, 1);
    }
    for (i = 0; m->tref && i < h->ntris; i++) {
        const rr_rmesh_tref *r = &m->tref[i];
        if (r->key >= m->nrtris + n)
            return rr__fail(room, diag, RR_ERR_INDEX, r, "triangle key (render + TRIS triangles)",
                            r->key, m->nrtris + n);
        if (r->key >= m->nrtris)   /* an explicit triangle, checked above */
            continue;
        /* its corners as every query reads them: check_render_groups proved each
         * index a render vertex, so only their positions are left to check */
        rr__rmesh_tri_verts(m, i, v);
        for (c = 0; c < 3; c++)
            if (v[c] >= h->nverts)
                return rr__fail(room, diag, RR_ERR_INDEX, r, "triangle key corner (collision vertex)",
                                v[c], h->nverts);
        if (!has_plane(m, v))
            return rr__fail(room, diag, RR_ERR_RANGE, r, no_plane, 0, 1);
    }
    return RR_OK;
}

/* The surfaces' runs of source triangles (rr_rmesh_surf.first_src, which
 * gives a triangle its surface): the first starts at 0 and none starts
 * before the one ahead of it. A room with triangles has a surface. */
static RR_VALIDATION RUN_ONCE NOINLINE rr_err check_surfs(const rr_room *room, rr_diag *diag)
{
    const rr_rmesh_surf *s = surfs_of(room);
    uint32_t i, n = rr__count(room, RR_RMESH_S_surfs);
    if (n == 0) {
        if (rr__count(room, RR_RMESH_S_tris))
            return rr__fail(room, diag, RR_ERR_INDEX, &head_of(room)->nsurfs,
                            "surfaces (triangles without one)", 0, 1);
        return RR_OK;
    }
    if (s[0].first_src != 0)
        return rr__fail(room, diag, RR_ERR_RANGE, &s[0].first_src,
                        "surface first_src (the first run starts at 0)", s[0].first_src, 0);
    for (i = 1; i < n; i++)
        if (s[i].first_src < s[i - 1].first_src)
            return rr__fail(room, diag, RR_ERR_RANGE, &s[i].first_src,
                            "surface first_src (below the one before)", s[i].first_src,
                            s[i - 1].first_src);
    return RR_OK;
}

/* A child's bounds lie within its parent's (the baker's are the min and
 * max of the lattice points below), so a leaf whose bounds meet a box has
 * every node above it meeting the box too, and a walk of the tree finds
 * every leaf that meets the box: the sweep lists the leaves of one box for
 * several steps whose regions lie in it, and finds each step's leaves
 * among them by their own bounds (rr_rmesh_sweep.c, sweep_list). */
static int within(const rr_rmesh_node *parent, const rr_rmesh_node *child)
{
    return child->min[0] >= parent->min[0] && child->min[1] >= parent->min[1] &&
           child->min[2] >= parent->min[2] && child->max[0] <= parent->max[0] &&
           child->max[1] <= parent->max[1] && child->max[2] <= parent->max[2];
}

/* The diagnostic of a child outside its parent (within() said so): the
 * first bound that lies outside, and the parent's. */
static RR_VALIDATION RUN_ONCE NOINLINE rr_err child_outside(const rr_room *room, rr_diag *diag,
                                                            const rr_rmesh_node *parent,
                                                            const rr_rmesh_node *child)
{
    int k;
    for (k = 0; k < 3; k++) {
        int low = child->min[k] < parent->min[k];
        const uint16_t *c = low ? &child->min[k] : &child->max[k];
        const uint16_t *p = low ? &parent->min[k] : &parent->max[k];
        if (low || *c > *p)
            return rr__fail(room, diag, RR_ERR_RANGE, c, "child bounds (outside the parent's)",
                            *c, *p);
    }
    return RR_OK;
}

/* The BVH, walked once in index order, which must be the tree's pre-order:
 * an inner node's left child is the next node, and its right child the node
 * that follows the last leaf of the left subtree. The stack (in the arena)
 * holds one pair per pending right child: the parent that names it and the
 * child's depth. It never holds more entries than the current depth, which
 * stays <= max_depth, and the arena has 8 bytes a level for it (the arena
 * formula, checked before: the queries' stack and work area, which no
 * query uses before rr_open returns, hold it; see rr__tree_stack_fits).
 * Each node's bounds have min <= max and lie within its parent's
 * (within), and a leaf's triangles are a run of the triangle array. */
static RR_VALIDATION RUN_ONCE NOINLINE rr_err check_tree(const rr_room *room, rr_diag *diag)
{
    const rr_rmesh_head *h = head_of(room);
    const rr_rmesh_node *nodes = nodes_of(room);
    uint32_t *stack = (uint32_t *)(void *)room->arena;
    uint32_t n = h->nnodes, sp = 0, depth = 1, i, parent;
    int k;
    if (n == 0 && h->ntris)
        return rr__fail(room, diag, RR_ERR_INDEX, &h->nnodes, "tree (triangles without nodes)",
                        0, 1);
    for (i = 0; i < n; i++) {
        const rr_rmesh_node *nd = &nodes[i];
        uint32_t ntris;
        if (depth > room->max_depth)
            return rr__fail(room, diag, RR_ERR_DEPTH, nd, "node depth", depth, room->max_depth);
        for (k = 0; k < 3; k++)
            if (nd->min[k] > nd->max[k])
                return rr__fail(room, diag, RR_ERR_RANGE, &nd->max[k], "node bounds (max < min)",
                                (uint32_t)nd->max[k], (uint32_t)nd->min[k]);
        if (!(nd->count & RR_RMESH_LEAF)) {
            /* inner node: the left child comes next, the right one waits */
            if (nd->first != i + 1)
                return rr__fail(room, diag, RR_ERR_CYCLE, &nd->first, "left child (the next node)",
                                nd->first, i + 1);
            if (nd->count <= i + 1 || nd->count >= n)
                return rr__fail(room, diag, RR_ERR_CYCLE, &nd->count,
                                "right child (after the left one, below nnodes)", nd->count, n);
            if (!within(nd, &nodes[i + 1]))
                return child_outside(room, diag, nd, &nodes[i + 1]);
            if (!within(nd, &nodes[nd->count]))
                return child_outside(room, diag, nd, &nodes[nd->count]);
            depth++;
            stack[2 * sp] = i;
            stack[2 * sp + 1] = depth;
            sp++;
            continue;
        }
        ntris = nd->count & ~RR_RMESH_LEAF;
        /* 16-bit first and count: their sum cannot wrap */
        if (nd->first + ntris > h->ntris)
            return rr__fail(room, diag, RR_ERR_INDEX, &nd->count,
                            "leaf triangle run (first + count)", nd->first + ntris, h->ntris);
        if (sp == 0) {   /* the root's subtree is complete: no node may follow */
            if (i + 1 < n)
                return rr__fail(room, diag, RR_ERR_CYCLE, &nodes[i + 1], "node outside the tree",
                                i + 1, n);
            return RR_OK;
        }
        /* after a leaf: the right child of the nearest pending parent */
        sp--;
        parent = stack[2 * sp];
        depth = stack[2 * sp + 1];
        if (nodes[parent].count != i + 1)
            return rr__fail(room, diag, RR_ERR_CYCLE, &nodes[parent].count,
                            "right child (the node after the left subtree)", nodes[parent].count,
                            i + 1);
    }
    return RR_OK;   /* no nodes and no triangles */
}

/* Render data, in two steps. The render head comes at most once, and whenever any other
 * render section (TREF included) is present (the schema checked its counts
 * of them, and each group's surface, vertex, index and colour runs and UV
 * fractions). The groups' index runs follow each other from 0 to the end
 * of RINDEX (so every render triangle has one group, the one tri_src (rr_rmesh.c)
 * finds), each group's indices make whole triangles, each index is one of
 * the group's vertices, a group has no colours of its own (ncolors 0) or
 * one per vertex, each vertex's position number is a collision vertex or a
 * render position, and every vertex has its lightmap UV (RLMUV, numbered
 * as RVERTS). */
static RR_VALIDATION RUN_ONCE NOINLINE rr_err check_render_head(const rr_room *room,
                                                                rr_diag *diag)
{
    const rr_rmesh_rhead *rh = rhead_of(room);
    uint32_t nrhead = rr__count(room, RR_RMESH_S_rhead);
    uint32_t nlmuv = rr__count(room, RR_RMESH_S_rlmuv);
    uint32_t nbytes = rr__count(room, RR_RMESH_S_rindex), want;
    if (nrhead > 1)
        return rr__fail(room, diag, RR_ERR_SECTION, rhead_of(room) + 1, "render head count",
                        nrhead, 1);
    if (nrhead == 0) {
        /* a section is present when the view has an offset for it */
        if (room->view[RR_RMESH_S_rgroups].offset || room->view[RR_RMESH_S_rverts].offset ||
            room->view[RR_RMESH_S_rindex].offset || room->view[RR_RMESH_S_rpos].offset ||
            room->view[RR_RMESH_S_rcolors].offset || room->view[RR_RMESH_S_rlmuv].offset ||
            room->view[RR_RMESH_S_tref].offset)
            return rr__fail_in(diag, RR_ERR_MISSING, RR_SEC_RMESH_RHEAD, 0,
                               "render head (other render sections are present)", 0, 0);
        return RR_OK;
    }
    if (nlmuv != rr__count(room, RR_RMESH_S_rverts))
        return rr__fail(room, diag, RR_ERR_RANGE, &rhead_of(room)->nlmuv,
                        "render lightmap UVs (one per render vertex)", nlmuv,
                        rr__count(room, RR_RMESH_S_rverts));
    /* the indices' layout (rr_rmesh_rindex): whole triangles, at most
     * 65,536 of them (a full blob's keys are 16-bit; this also bounds the
     * products below), and the section exactly as long as its layout says */
    if (rh->nindices % 3u || rh->nindices > 3u * 65536u)
        return rr__fail(room, diag, RR_ERR_RANGE, &rh->nindices,
                        "render indices (whole triangles, at most 65,536)", rh->nindices,
                        3u * 65536u);
    if (rh->ishift > RR_RMESH_ISHIFT_MAX && rh->ishift != RR_RMESH_ISHIFT_WIDE)
        return rr__fail(room, diag, RR_ERR_RANGE, &rh->ishift,
                        "render index layout (ishift: 8-bit blocks or 16-bit)", rh->ishift,
                        RR_RMESH_ISHIFT_MAX);
    if (rh->ishift == RR_RMESH_ISHIFT_WIDE)
        want = 2u * rh->nindices;
    else
        want = 2u * render_blocks(rh->nindices / 3u, rh->ishift) + rh->nindices;
    if (nbytes != want)
        return rr__fail(room, diag, RR_ERR_SECTION, &rh->nindices,
                        "render index bytes (the layout of nindices and ishift)", nbytes, want);
    return RR_OK;
}

/* The render groups and vertices, once check_render_head has passed. */
static RR_VALIDATION RUN_ONCE NOINLINE rr_err check_render_groups(const rr_room *room,
                                                                  rr_diag *diag)
{
    const rr_rmesh_rgroup *g = rgroups_of(room);
    const rr_rmesh_rhead *rh = rhead_of(room);
    const rr_rmesh_rvert *v = rverts_of(room);
    uint32_t n = rr__count(room, RR_RMESH_S_rgroups), i, j, next = 0;
    uint32_t npoints = rr__count(room, RR_RMESH_S_verts) + rr__count(room, RR_RMESH_S_rpos);
    mesh *m = work_area(room);   /* in the arena: no query runs yet, and the frame stays small */
    if (!rr__count(room, RR_RMESH_S_rhead))
        return RR_OK;   /* no render data (check_render_head: then no render section) */
    rr__rmesh_mesh(room, m);
    for (i = 0; i < n; i++, g++) {
        if (g->first_index != next)
            return rr__fail(room, diag, RR_ERR_RANGE, &g->first_index,
                            "render group first index (the end of the one before)",
                            g->first_index, next);
        if (g->nindices > rh->nindices - next)
            return rr__fail(room, diag, RR_ERR_RANGE, &g->nindices,
                            "render group indices (past rhead.nindices)", g->nindices,
                            rh->nindices - next);
        next += g->nindices;
        if (g->nindices % 3u)
            return rr__fail(room, diag, RR_ERR_RANGE, &g->nindices,
                            "render group indices (whole triangles)", g->nindices, 3);
        if (g->ncolors != 0 && g->ncolors != g->nverts)
            return rr__fail(room, diag, RR_ERR_RANGE, &g->ncolors,
                            "render group colours (0 or one per vertex)", g->ncolors, g->nverts);
        /* one of the group's vertices: first_vert <= i < first_vert + nverts
         * (below first_vert the unsigned difference wraps past nverts) */
        for (j = g->first_index; j < g->first_index + g->nindices; j++) {
            uint32_t vj = render_index(m, j);
            if (vj - g->first_vert >= g->nverts)
                return rr__fail(room, diag, RR_ERR_INDEX, m->ribase ? &m->rix[j] : &m->rix[2u * j],
                                "render index (a vertex of its group)", vj,
                                g->first_vert + g->nverts);
        }
    }
    if (next != rh->nindices)
        return rr__fail(room, diag, RR_ERR_RANGE, &rh->nindices,
                        "render indices (past the groups' runs)", next, rh->nindices);
    /* every vertex, whether or not a group holds it */
    for (j = 0; j < rr__count(room, RR_RMESH_S_rverts); j++)
        if (v[j].pos >= npoints)
            return rr__fail(room, diag, RR_ERR_INDEX, &v[j].pos,
                            "render vertex position (collision vertices + render positions)",
                            v[j].pos, npoints);
    return RR_OK;
}

/* A custom entity's properties are a run of the props section (the schema
 * checked each key and value string). */
static RR_VALIDATION RUN_ONCE NOINLINE rr_err check_custom(const rr_room *room, rr_diag *diag)
{
    const rr_rmesh_ent *t = ents_of(room);
    uint32_t i, n = rr__count(room, RR_RMESH_S_ents), np = rr__count(room, RR_RMESH_S_props);
    for (i = 0; i < n; i++, t++) {
        uint32_t first = (uint32_t)t->ival[0], count = (uint32_t)t->ival[1];
        if (t->cls != RR_RMESH_CUSTOM)
            continue;
        if (first > np)
            return rr__fail(room, diag, RR_ERR_INDEX, &t->ival[0], "custom entity first property",
                            first, np);
        if (count > np - first)
            return rr__fail(room, diag, RR_ERR_INDEX, &t->ival[1], "custom entity property count",
                            count, np - first);
    }
    return RR_OK;
}

RR_VALIDATION RUN_ONCE rr_err rr__rmesh_validate(rr_room *room, rr_diag *diag)
{
    const rr_blob_header *bh = (const rr_blob_header *)(const void *)room->blob;
    rr_err e = rr__schema_open(room, &rmesh_schema, diag);
    if (e)
        return e;
    /* The arena after the view: the validator's tree stack, the queries'
     * stack and work area (RR_RMESH_ARENA). */
    if (room->arena_need < RR_RMESH_ARENA(room->max_depth))
        return rr__fail(room, diag, RR_ERR_ARENA, &bh->arena, "arena for the tree stack and sweep",
                        bh->arena,
                        RR_RMESH_ARENA(room->max_depth) + RR_VIEW_BYTES(RR_RMESH_S_COUNT));
    e = check_render_head(room, diag);
    if (!e)
        e = check_render_groups(room, diag);
    if (!e)
        e = check_tris(room, diag);
    if (!e)
        e = check_surfs(room, diag);
    if (!e)
        e = check_tree(room, diag);
    if (!e)
        e = check_custom(room, diag);
    return e;
}

/* ------------------------------------------------------------------ */
/* Triggers, surfaces, entities                                        */
/* ------------------------------------------------------------------ */

/* The accessors check, in this order: an open RMesh room and non-NULL
 * outputs (RR_ERR_ARG), render data present (RR_ERR_MISSING, render
 * accessors only), the record number (RR_ERR_RANGE). */

rr_err rr_rmesh_head_get(const rr_room *room, const rr_rmesh_head **head)
{
    if (!rr__rmesh_is(room) || !head)
        return RR_ERR_ARG;
    *head = head_of(room);
    return RR_OK;
}

/* rr_rmesh_int.h; its two other callers are in rr_rmesh.c. */
NOINLINE rr_err rr__rmesh_triangle_args(const rr_room *room, int ok, uint32_t i, mesh *m)
{
    if (!rr__rmesh_is(room) || !ok)
        return RR_ERR_ARG;
    if (i >= head_of(room)->ntris)
        return RR_ERR_RANGE;
    rr__rmesh_mesh(room, m);
    return RR_OK;
}

rr_err rr_rmesh_triangle_vertices(const rr_room *room, uint32_t i, uint32_t v[3])
{
    mesh m;
    rr_err e = rr__rmesh_triangle_args(room, v != 0, i, &m);
    if (e)
        return e;
    rr__rmesh_tri_verts(&m, i, v);
    return RR_OK;
}

/* Strictly inside on every axis, as the game's CheckTriggers. */
rr_err rr_rmesh_trigger_at(const rr_room *room, const int32_t p[3], uint32_t *index)
{
    const rr_rmesh_trigger *t;
    uint32_t i, n;
    int k;
    if (!rr__rmesh_is(room) || !p || !index)
        return RR_ERR_ARG;
    t = triggers_of(room);
    n = rr__count(room, RR_RMESH_S_triggers);
    for (i = 0; i < n; i++, t++) {
        for (k = 0; k < 3 && p[k] > t->min[k] && p[k] < t->max[k]; k++)
            ;
        if (k == 3) {
            *index = i;
            return RR_OK;
        }
    }
    return RR_ERR_NOTFOUND;
}

rr_err rr_rmesh_trigger_get(const rr_room *room, uint32_t i, const rr_rmesh_trigger **box,
                            const char **name)
{
    if (!rr__rmesh_is(room) || !box || !name)
        return RR_ERR_ARG;
    if (i >= rr__count(room, RR_RMESH_S_triggers))
        return RR_ERR_RANGE;
    *box = &triggers_of(room)[i];
    *name = rr_string(room, (*box)->name);
    return RR_OK;
}

rr_err rr_rmesh_surface(const rr_room *room, uint32_t s, const rr_rmesh_surf **surf,
                        const char **tex0, const char **tex1)
{
    if (!rr__rmesh_is(room) || !surf || !tex0 || !tex1)
        return RR_ERR_ARG;
    if (s >= rr__count(room, RR_RMESH_S_surfs))
        return RR_ERR_RANGE;
    *surf = &surfs_of(room)[s];
    *tex0 = rr_string(room, (*surf)->tex[0]);
    *tex1 = rr_string(room, (*surf)->tex[1]);
    return RR_OK;
}

rr_err rr_rmesh_entity(const rr_room *room, uint32_t i, const rr_rmesh_ent **ent)
{
    if (!rr__rmesh_is(room) || !ent)
        return RR_ERR_ARG;
    if (i >= rr__count(room, RR_RMESH_S_ents))
        return RR_ERR_RANGE;
    *ent = &ents_of(room)[i];
    return RR_OK;
}

/* Is entity t of class cls (RR_RMESH_NCLASSES = any), and when name is not
 * NULL a custom entity of that class name? */
NOINLINE static int entity_is(const rr_room *room, const rr_rmesh_ent *t, uint32_t cls,
                              const char *name)
{
    if (name)
        return t->cls == RR_RMESH_CUSTOM && rr__str_eq(rr_string(room, t->str), name);
    return cls == RR_RMESH_NCLASSES || t->cls == cls;
}

/* The next entity at or after *i that entity_is(cls, name), for the two
 * public iterators. */
NOINLINE static rr_err next_entity(const rr_room *room, uint32_t cls, const char *name,
                                   uint32_t *i)
{
    const rr_rmesh_ent *t;
    uint32_t k, n;
    if (!rr__rmesh_is(room) || !i || cls > RR_RMESH_NCLASSES)
        return RR_ERR_ARG;
    t = ents_of(room);
    n = rr__count(room, RR_RMESH_S_ents);
    for (k = *i; k < n; k++)
        if (entity_is(room, &t[k], cls, name)) {
            *i = k;
            return RR_OK;
        }
    return RR_ERR_NOTFOUND;
}

rr_err rr_rmesh_entity_next(const rr_room *room, uint32_t cls, uint32_t *i)
{
    return next_entity(room, cls, 0, i);
}

rr_err rr_rmesh_custom_next(const rr_room *room, const char *cls, uint32_t *i)
{
    return next_entity(room, RR_RMESH_CUSTOM, cls, i);
}

/* The nearest entity that entity_is(cls, name), for the two public forms. */
static rr_err nearest(const rr_room *room, uint32_t cls, const char *name, const int32_t p[3],
                      uint32_t *index)
{
    const rr_rmesh_ent *t;
    uint64_t best = ~(uint64_t)0;   /* no distance reaches it: d2 < 2^40 */
    uint32_t k, n;
    int j;
    if (!rr__rmesh_is(room) || !p || !index || cls > RR_RMESH_NCLASSES)
        return RR_ERR_ARG;
    for (j = 0; j < 3; j++)
        if (p[j] < -ORIGIN_MAX || p[j] > ORIGIN_MAX)
            return RR_ERR_RANGE;
    t = ents_of(room);
    n = rr__count(room, RR_RMESH_S_ents);
    for (k = 0; k < n; k++) {
        uint64_t d2 = 0;
        if (!entity_is(room, &t[k], cls, name) || (t[k].flags & RR_RMESH_ENT_IGNORED))
            continue;
        for (j = 0; j < 3; j++) {
            int64_t d = (int64_t)t[k].pos[j] - p[j];   /* |pos| <= 2^17, |p| <= 2^18 */
            d2 += (uint64_t)(d * d);
        }
        if (d2 < best) {
            best = d2;
            *index = k;
        }
    }
    return best != ~(uint64_t)0 ? RR_OK : RR_ERR_NOTFOUND;
}

rr_err rr_rmesh_entity_nearest(const rr_room *room, uint32_t cls, const int32_t p[3],
                               uint32_t *index)
{
    return nearest(room, cls, 0, p, index);
}

rr_err rr_rmesh_custom_nearest(const rr_room *room, const char *cls, const int32_t p[3],
                               uint32_t *index)
{
    if (!cls)
        return RR_ERR_ARG;
    return nearest(room, RR_RMESH_CUSTOM, cls, p, index);
}

const char *rr_rmesh_entity_value(const rr_room *room, uint32_t i, const char *key)
{
    const rr_rmesh_ent *t;
    if (!rr__rmesh_is(room) || !key || i >= rr__count(room, RR_RMESH_S_ents))
        return 0;
    t = &ents_of(room)[i];
    if (t->cls != RR_RMESH_CUSTOM)
        return 0;
    /* a run of props (rr_open checked it) */
    return rr__kv_value(room, props_of(room) + t->ival[0], (uint32_t)t->ival[1], key);
}

/* Render data is there when the blob has its render head (rr_open checked
 * that the other render sections come with it). */
rr_err rr_rmesh_render_head(const rr_room *room, const rr_rmesh_rhead **rhead)
{
    if (!rr__rmesh_is(room) || !rhead)
        return RR_ERR_ARG;
    if (!rr__count(room, RR_RMESH_S_rhead)) {
        *rhead = 0;
        return RR_ERR_MISSING;
    }
    *rhead = rhead_of(room);
    return RR_OK;
}

rr_err rr_rmesh_render_group(const rr_room *room, uint32_t i, const rr_rmesh_rgroup **group)
{
    if (!rr__rmesh_is(room) || !group)
        return RR_ERR_ARG;
    if (!rr__count(room, RR_RMESH_S_rhead))
        return RR_ERR_MISSING;
    if (i >= rr__count(room, RR_RMESH_S_rgroups))
        return RR_ERR_RANGE;
    *group = &rgroups_of(room)[i];
    return RR_OK;
}

rr_err rr_rmesh_render_triangle(const rr_room *room, uint32_t group, uint32_t t, uint32_t v[3])
{
    const rr_rmesh_rgroup *g;
    mesh m;
    uint32_t c;
    rr_err e = rr_rmesh_render_group(room, group, &g);
    if (e)
        return e;
    if (!v)
        return RR_ERR_ARG;
    if (t >= g->nindices / 3u)
        return RR_ERR_RANGE;
    rr__rmesh_mesh(room, &m);
    for (c = 0; c < 3; c++)
        v[c] = render_index(&m, g->first_index + 3u * t + c);
    return RR_OK;
}

/* Render vertex v of render group `group`, decoded (the layout is in
 * rr_rmesh_blob.h). Every number fits: positions are within 2^17 + 2^18
 * coords (a lattice point) or 2^17 + 32768 << 4 (a render position), a
 * diffuse UV |uv0| <= 32768 times 2^(16 - uv_frac) <= 2^16 is within int32,
 * a lightmap UV |lm_min| + 4095 * lm_step <= 2^30 + 4095 * 2^18 too. */
rr_err rr_rmesh_render_vertex(const rr_room *room, uint32_t group, uint32_t vi,
                              rr_rmesh_vertex *out)
{
    const rr_rmesh_rgroup *g;
    const rr_rmesh_rvert *v;
    const uint8_t *rgb, *lm;
    uint32_t n[2];
    uint32_t ncoll, i;
    int k;
    rr_err e = rr_rmesh_render_group(room, group, &g);
    if (e)
        return e;
    if (!out)
        return RR_ERR_ARG;
    if (vi - g->first_vert >= g->nverts)   /* below first_vert it wraps past nverts */
        return RR_ERR_RANGE;
    i = vi - g->first_vert;   /* its place in the group (colours) */
    v = &rverts_of(room)[vi];
    ncoll = rr__count(room, RR_RMESH_S_verts);
    if (v->pos < ncoll) {   /* a collision vertex */
        mesh m;
        rr__rmesh_mesh(room, &m);
        vertex_coords(&m, v->pos, out->pos);
    } else {                /* a render position: center + p * 2^pos_shift */
        const rr_rmesh_rhead *rh = rhead_of(room);
        const int16_t *p = rpos_of(room)[v->pos - ncoll].p;
        for (k = 0; k < 3; k++)
            out->pos[k] = rh->center[k] + p[k] * ((int32_t)1 << rh->pos_shift);
    }
    /* the lightmap UV's two 12-bit numbers on the group's box */
    lm = rlmuv_of(room)[vi].uv;
    n[0] = lm[0] | (uint32_t)(lm[1] & 15u) << 8;
    n[1] = (uint32_t)lm[1] >> 4 | (uint32_t)lm[2] << 4;
    for (k = 0; k < 2; k++) {   /* both as Q16.16 */
        out->uv0[k] = v->uv0[k] * ((int32_t)1 << (16 - g->uv_frac));
        out->uv1[k] = g->lm_min[k] + (int32_t)(n[k] * g->lm_step[k]);
    }
    /* the group's colour, or the vertex's when the group's colours vary */
    rgb = g->ncolors ? rcolors_of(room)[g->first_color + i].rgb : g->rgb;
    for (k = 0; k < 3; k++)
        out->rgb[k] = rgb[k];
    return RR_OK;
}

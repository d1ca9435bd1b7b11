/* rr_rmf.c - RMF room runtime: blob validation, point contents, ray and box
 * traces through the baked brush BSP, entity lookup.
 *
 * Arena layout (sizes from RR_RMF_ARENA in rr_rmf_blob.h):
 *   [0, RR_RMF_CTX_BYTES)   ctx: section pointers and counts, set by rr_open;
 *                           then the trace work (per-query state)
 *   u32 stamp               the current query's stamp (1..255)
 *   u32 pad
 *   u8  stamps[nbrushes]    last query that tested each brush, padded to 4
 *                           (one byte a brush keeps the arena of the largest
 *                           corpus map under 4 KB; every 255 queries the
 *                           array is cleared once)
 *   i32 stack[3 (depth + 1)] tree walk: pending far parts {node, t0, t1}
 * While validating, the bytes after the ctx hold one byte per node (its depth).
 *
 * Fixed point: a side test is s = n.p - (dist << 16) in int64 (Q16 coords,
 * |s| < 2^39). Fractions along a trace are Q2.30 from d = s >> 8, so the
 * numerator d * 2^30 stays below 2^62; the result is reported in Q16.16.
 */
#define RR_INTERNAL
#include <stddef.h>

#include "rr_int.h"
#include "rr_rmf.h"

#define FRAC_ONE ((int32_t)1 << 30)

/* The section pointers in section order (HEADER .. PATHNODES), then their
 * counts in the same order: section k's pointer and count are entry k of
 * each run (load_sections and get_record index them so). */
typedef struct ctx {
    const rr_rmf_header *h;
    const rr_rmf_plane *planes;
    const uint32_t *sides;
    const rr_rmf_brush *brushes;
    const rr_rmf_node *nodes;
    const rr_rmf_leaf *leaves;
    const uint32_t *refs;
    const rr_rmf_entity *ents;
    const rr_rmf_keyvalue *kv;
    const rr_rmf_camera *cams;
    const rr_rmf_path *paths;
    const rr_rmf_pathnode *pnodes;
    uint32_t nheader, nplanes, nsides, nbrushes, nnodes, nleaves, nrefs, nents, nkv, ncams,
        npaths, npnodes;
} ctx;
/* Indices of the counts in ctx (from nplanes on), for rr__check_fields. */
enum { N_PLANES, N_SIDES, N_BRUSHES, N_NODES, N_LEAVES, N_REFS, N_ENTS, N_KV, N_CAMS, N_PATHS,
       N_PNODES };
#define COUNTS(c) (&(c)->nplanes)
#define NSECS 12
typedef char rr__rmf_ctx_order[(offsetof(ctx, pnodes) == 11 * sizeof(const void *) &&
                                offsetof(ctx, nheader) == NSECS * sizeof(const void *) &&
                                offsetof(ctx, npnodes) == offsetof(ctx, nheader) + 44)
                                   ? 1 : -1];

/* Section k's pointer and count (k: 0 = HEADER .. 11 = PATHNODES). */
static const void **sec_ptr(const ctx *c, uint32_t k)
{
    return (const void **)(uintptr_t)c + k;
}

static uint32_t *sec_count(const ctx *c, uint32_t k)
{
    return (uint32_t *)(uintptr_t)&c->nheader + k;
}

/* The ctx sits at the first 8-byte boundary of the arena (arenas are only
 * guaranteed 4-byte aligned; pointers may need 8), the trace work after it. */

static ctx *ctx_at(uint8_t *arena)
{
    return (ctx *)(void *)(arena + ((8u - ((uintptr_t)arena & 7u)) & 7u));
}

static const ctx *get_ctx(const rr_room *room)
{
    return ctx_at(room->arena);
}

/* The ctx of an open RMF room, or NULL for a NULL or other room: every
 * public function's first check, in one place. */
static __attribute__((noinline)) const ctx *rmf_ctx(const rr_room *room)
{
    return room && room->format == RR_FMT_RMF ? get_ctx(room) : 0;
}

static uint32_t *stamps(const rr_room *room)
{
    return (uint32_t *)(void *)(room->arena + RR_RMF_CTX_BYTES);
}

static uint8_t *seen_marks(const rr_room *room)
{
    return room->arena + RR_RMF_CTX_BYTES + 8;
}

static int32_t *tree_stack(const rr_room *room)
{
    return (int32_t *)(void *)(seen_marks(room) + ((get_ctx(room)->nbrushes + 3u) & ~3u));
}

/* No brush seen yet (at open, and when the stamp wraps). */
static __attribute__((noinline)) void clear_marks(const rr_room *room)
{
    uint8_t *seen = seen_marks(room);
    uint32_t i, n = get_ctx(room)->nbrushes;
    for (i = 0; i < n; i++)
        seen[i] = 0;
}

/* ---- validation ---------------------------------------------------------- */

/* Section k of an RMF blob has type RR_SEC_RMF_HEADER + k and elements of
 * sec_size[k] bytes. */
static const uint32_t sec_types[NSECS] = {
    RR_SEC_RMF_HEADER, RR_SEC_RMF_PLANES, RR_SEC_RMF_SIDES, RR_SEC_RMF_BRUSHES,
    RR_SEC_RMF_NODES, RR_SEC_RMF_LEAVES, RR_SEC_RMF_LEAFBRUSHES, RR_SEC_RMF_ENTITIES,
    RR_SEC_RMF_KEYVALUES, RR_SEC_RMF_CAMERAS, RR_SEC_RMF_PATHS, RR_SEC_RMF_PATHNODES};
static const uint8_t sec_size[NSECS] = {
    sizeof(rr_rmf_header), sizeof(rr_rmf_plane), 4, sizeof(rr_rmf_brush), sizeof(rr_rmf_node),
    sizeof(rr_rmf_leaf), 4, sizeof(rr_rmf_entity), sizeof(rr_rmf_keyvalue),
    sizeof(rr_rmf_camera), sizeof(rr_rmf_path), sizeof(rr_rmf_pathnode)};

/* What the checks below share: fewer arguments per call. */
typedef struct vstate {
    const rr_room *room;
    rr_diag *diag;
    const ctx *c;            /* set once load_sections has filled it */
} vstate;

/* The validator's own failures (the field tables report theirs through
 * rr__check_fields): the error code and section of each (one byte, see FES)
 * and its diag->what, by F_ index. One call with an index costs a third of
 * an inlined rr__fail. */
enum { F_HEADER_COUNT, F_TREE_DEPTH, F_ARENA, F_WORLDSPAWN, F_CAMERA, F_ROOT, F_PLANE,
       F_BOUNDS, F_UNREACHABLE, F_NODE_PLANE, F_AXIAL, F_LEAF_CHILD, F_ORDER_CYCLE,
       F_ORDER_INDEX, F_TWO_PARENTS, F_NODE_DEPTH, F_COUNT };
#define ES_BASE RR_ES(0, RR_SEC_RMF_HEADER)
/* One byte each: the section less RMF_HEADER in the top 3 bits (every F_
 * failure is in sections 0-7), -code (< 32) below; fail makes it RR_ES. */
#define FES(e, type) (uint8_t)(((type) - RR_SEC_RMF_HEADER) << 5 | (uint32_t) - (e))
typedef char rr__rmf_fes_fits[(RR_SEC_RMF_ENTITIES - RR_SEC_RMF_HEADER < 8 &&
                               -RR_ERR_NOTFOUND < 32) ? 1 : -1];
static const uint8_t fail_es[F_COUNT] = {
    FES(RR_ERR_SECTION, RR_SEC_RMF_HEADER), FES(RR_ERR_DEPTH, RR_SEC_RMF_HEADER),
    FES(RR_ERR_ARENA, RR_SEC_RMF_HEADER), FES(RR_ERR_MISSING, RR_SEC_RMF_ENTITIES),
    FES(RR_ERR_INDEX, RR_SEC_RMF_HEADER), FES(RR_ERR_INDEX, RR_SEC_RMF_HEADER),
    FES(RR_ERR_RANGE, RR_SEC_RMF_PLANES), FES(RR_ERR_RANGE, RR_SEC_RMF_BRUSHES),
    FES(RR_ERR_INDEX, RR_SEC_RMF_NODES), FES(RR_ERR_INDEX, RR_SEC_RMF_NODES),
    FES(RR_ERR_RANGE, RR_SEC_RMF_NODES), FES(RR_ERR_INDEX, RR_SEC_RMF_NODES),
    FES(RR_ERR_CYCLE, RR_SEC_RMF_NODES), FES(RR_ERR_INDEX, RR_SEC_RMF_NODES),
    FES(RR_ERR_CYCLE, RR_SEC_RMF_NODES), FES(RR_ERR_DEPTH, RR_SEC_RMF_NODES)};
/* The messages in one block (no pointer table, no padding between them),
 * each a member of fail_texts so that the compiler computes its offset; the
 * longest goes last so every offset fits a byte. The two order failures
 * share one text. */
#define RMF_TEXTS(T)                                                   \
    T(t_header_count, "header count")                                  \
    T(t_tree_depth, "tree depth")                                      \
    T(t_arena, "declared arena bytes")                                 \
    T(t_worldspawn, "worldspawn entity")                               \
    T(t_camera, "active camera")                                       \
    T(t_root, "root")                                                  \
    T(t_plane, "plane type, signbits or dist")                         \
    T(t_bounds, "brush bounds")                                        \
    T(t_unreachable, "unreachable node")                               \
    T(t_node_plane, "node plane")                                      \
    T(t_leaf_child, "leaf child")                                      \
    T(t_order, "child node must follow its parent")                    \
    T(t_two_parents, "node with two parents")                          \
    T(t_node_depth, "node depth")                                      \
    T(t_axial, "node plane must be axial and positive")
#define TEXT_MEMBER(id, s) char id[sizeof(s)];
#define TEXT_INIT(id, s) s,
static const struct fail_texts {
    RMF_TEXTS(TEXT_MEMBER)
} fail_text = {RMF_TEXTS(TEXT_INIT)};
#define TEXT_AT(id) (uint8_t)offsetof(struct fail_texts, id)
typedef char rr__rmf_text_at_fits[offsetof(struct fail_texts, t_axial) < 256 ? 1 : -1];
/* Offset of each F_ message in fail_text, in F_ order. */
static const uint8_t fail_at[F_COUNT] = {
    TEXT_AT(t_header_count), TEXT_AT(t_tree_depth), TEXT_AT(t_arena), TEXT_AT(t_worldspawn),
    TEXT_AT(t_camera),       TEXT_AT(t_root),       TEXT_AT(t_plane), TEXT_AT(t_bounds),
    TEXT_AT(t_unreachable),  TEXT_AT(t_node_plane), TEXT_AT(t_axial), TEXT_AT(t_leaf_child),
    TEXT_AT(t_order),        TEXT_AT(t_order),      TEXT_AT(t_two_parents),
    TEXT_AT(t_node_depth)};

/* Failure f at the field at (its blob offset goes to diag). */
static __attribute__((cold, noinline)) rr_err fail(const vstate *v, uint32_t f, const void *at,
                                                   uint32_t value, uint32_t limit)
{
    uint32_t es = ES_BASE + ((uint32_t)(fail_es[f] >> 5) << 8) + (fail_es[f] & 31u);
    return rr__fail_at(v->diag, es, rr__offset(v->room, at),
                       (const char *)&fail_text + fail_at[f], value, limit);
}

/* The field table t on element elem, or on its whole section (elem NULL). */
static __attribute__((noinline)) rr_err fields(const vstate *v, const rr_field *t,
                                               const void *elem)
{
    return rr__check_fields(v->room, t, elem, COUNTS(v->c), v->diag);
}

/* The header count needs no check here: check_arena, which runs first, has
 * already failed unless it is 1. */
static __attribute__((noinline)) rr_err load_sections(const vstate *v, ctx *c)
{
    uint32_t k;
    rr_err e = rr__sections_known(v->room, sec_types, NSECS, v->diag);
    for (k = 0; k < NSECS && !e; k++)
        e = rr__section(v->room, sec_types[k], sec_size[k], sec_ptr(c, k), sec_count(c, k),
                        v->diag);
    if (!e && c->nents == 0)
        e = fail(v, F_WORLDSPAWN, c->ents, 0, 1);
    return e;
}

/* Before anything is written to the arena: the tree depth and the declared
 * arena size, from the header, brush and node sections alone. */
static __attribute__((noinline)) rr_err check_arena(const vstate *v)
{
    const rr_room *room = v->room;
    const void *p;
    const rr_rmf_header *h;
    uint32_t n, nb, nn, need;
    rr_err e = rr__section(room, RR_SEC_RMF_HEADER, sizeof(rr_rmf_header), &p, &n, v->diag);
    if (!e && n != 1)
        e = fail(v, F_HEADER_COUNT, p, n, 1);
    h = p;
    if (!e)
        e = rr__section(room, RR_SEC_RMF_BRUSHES, sizeof(rr_rmf_brush), &p, &nb, v->diag);
    if (!e)
        e = rr__section(room, RR_SEC_RMF_NODES, sizeof(rr_rmf_node), &p, &nn, v->diag);
    if (e)
        return e;
    if (h->tree_depth > room->max_depth || h->tree_depth > RR_MAX_DEPTH)
        return fail(v, F_TREE_DEPTH, &h->tree_depth, h->tree_depth, room->max_depth);
    need = RR_RMF_ARENA(nb, h->tree_depth, nn);
    if (nb > 0x1000000u || nn > 0x1000000u || room->arena_need < need)
        return fail(v, F_ARENA, h, room->arena_need, need);
    return RR_OK;
}

/* active_camera in [-1, ncams), root node 0 or a leaf. */
static rr_err check_header(const vstate *v)
{
    const ctx *c = v->c;
    const rr_rmf_header *h = c->h;
    const int32_t *at;
    uint32_t f, limit;
    if ((uint32_t)h->active_camera + 1u > c->ncams)
        f = F_CAMERA, at = &h->active_camera, limit = c->ncams;
    else if (h->root >= 0 ? (uint32_t)h->root != 0 || c->nnodes == 0
                          : (uint32_t)(-1 - h->root) >= c->nleaves)
        f = F_ROOT, at = &h->root, limit = c->nnodes;
    else
        return RR_OK;
    return fail(v, f, at, (uint32_t)*at, limit);   /* one call for both */
}

/* Every plane check gives RR_ERR_RANGE, so the table pass may come first. */
static const rr_field plane_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_PLANES, rr_rmf_plane),
    RR_FIELDS(rr_rmf_plane, normal, 3, RR_F_ABS, RR_ERR_RANGE, RR_FIX_ONE, "normal component"),
    RR_FIELD(rr_rmf_plane, dist, RR_F_ABS | RR_F_END, RR_ERR_RANGE, RR_RMF_MAX_COORD,
             "plane dist")};

static __attribute__((noinline)) rr_err check_planes(const vstate *v)
{
    const ctx *c = v->c;
    uint32_t i, k;
    rr_err e = fields(v, plane_fields, 0);
    for (i = 0; i < c->nplanes && !e; i++) {
        const rr_rmf_plane *p = &c->planes[i];
        uint32_t sb = 0, axial = 3;
        for (k = 0; k < 3; k++) {   /* |normal| <= 1: the table pass checked it */
            int32_t n = p->normal[k];
            sb |= (uint32_t)n >> 31 << k;
            if ((n < 0 ? -n : n) == RR_FIX_ONE)
                axial = k;
        }
        if (p->signbits != sb || p->type != axial)
            return fail(v, F_PLANE, p, p->type, axial);
    }
    return e;
}

static const rr_field side_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_SIDES, uint32_t),
    {0, RR_F_IDX | RR_F_END, (uint8_t)-RR_ERR_INDEX, 0, N_PLANES /* "side plane" */}};
static const rr_field brush_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_BRUSHES, rr_rmf_brush),
    RR_FIELD(rr_rmf_brush, first_side, RR_F_RUN | RR_F_NZ, RR_ERR_INDEX, N_SIDES, "brush sides"),
    RR_FIELD(rr_rmf_brush, entity, RR_F_IDX, RR_ERR_INDEX, N_ENTS, "brush entity"),
    RR_FIELDS(rr_rmf_brush, mins, 6, RR_F_ABS | RR_F_END, RR_ERR_RANGE, RR_RMF_MAX_COORD,
              "brush bounds")};

static rr_err check_brushes(const vstate *v)
{
    const ctx *c = v->c;
    uint32_t i, k;
    rr_err e = fields(v, side_fields, 0);
    for (i = 0; i < c->nbrushes && !e; i++) {
        const rr_rmf_brush *b = &c->brushes[i];
        if ((e = fields(v, brush_fields, b)))
            return e;
        for (k = 0; k < 3; k++)
            if (b->mins[k] > b->maxs[k])
                return fail(v, F_BOUNDS, &b->mins[k], (uint32_t)b->mins[k],
                            (uint32_t)b->maxs[k]);
    }
    return e;
}

/* One child link of node i: a later node seen for the first time, or a leaf.
 * The failures share one fail call (f, value and limit picked first). */
static rr_err check_child(const vstate *v, uint8_t *depth, uint32_t i, uint32_t k)
{
    const ctx *c = v->c;
    const int32_t *at = &c->nodes[i].child[k];
    int32_t ch = *at;
    uint32_t f, value = (uint32_t)ch, limit = i;
    if (ch < 0) {
        value = (uint32_t)(-1 - ch), limit = c->nleaves;
        if (value < limit)
            return RR_OK;
        f = F_LEAF_CHILD;
    } else if ((uint32_t)ch <= i) {
        f = F_ORDER_CYCLE;
    } else if ((uint32_t)ch >= c->nnodes) {
        f = F_ORDER_INDEX;
    } else if (depth[ch]) {
        f = F_TWO_PARENTS, limit = 0;
    } else if ((uint32_t)depth[i] + 1 > c->h->tree_depth) {
        f = F_NODE_DEPTH, value = (uint32_t)depth[i] + 1, limit = c->h->tree_depth;
    } else {
        depth[ch] = (uint8_t)(depth[i] + 1);
        return RR_OK;
    }
    return fail(v, f, at, value, limit);
}

/* Nodes in index order: every child comes later and has one parent, so the
 * tree has no cycle and each node's depth is known before its children's. */
static __attribute__((noinline)) rr_err check_nodes(const vstate *v, uint8_t *depth)
{
    const ctx *c = v->c;
    uint32_t i, k;
    rr_err e;
    for (i = 0; i < c->nnodes; i++)
        depth[i] = 0;
    if (c->nnodes)
        depth[0] = 1;
    for (i = 0; i < c->nnodes; i++) {
        const rr_rmf_node *n = &c->nodes[i];
        const rr_rmf_plane *p;
        if (!depth[i])
            return fail(v, F_UNREACHABLE, n, i, 0);
        if (n->plane >= c->nplanes)
            return fail(v, F_NODE_PLANE, n, n->plane, c->nplanes);
        p = &c->planes[n->plane];
        if (p->type > 2 || p->normal[p->type] != RR_FIX_ONE)
            return fail(v, F_AXIAL, n, n->plane, p->type);
        for (k = 0; k < 2; k++)
            if ((e = check_child(v, depth, i, k)) != RR_OK)
                return e;
    }
    return RR_OK;
}

static const rr_field leaf_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_LEAVES, rr_rmf_leaf),
    RR_FIELD(rr_rmf_leaf, first, RR_F_RUN | RR_F_END, RR_ERR_INDEX, N_REFS, "leaf brush range")};
static const rr_field ref_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_LEAFBRUSHES, uint32_t),
    {0, RR_F_IDX | RR_F_END, (uint8_t)-RR_ERR_INDEX, 0, N_BRUSHES /* "leaf brush" */}};
static const rr_field kv_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_KEYVALUES, rr_rmf_keyvalue),
    RR_FIELDS(rr_rmf_keyvalue, key, 2, RR_F_STR | RR_F_END, RR_ERR_INDEX, 0, "string offset")};
static const rr_field ent_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_ENTITIES, rr_rmf_entity),
    RR_FIELDS(rr_rmf_entity, classname, 2, RR_F_STR, RR_ERR_INDEX, 0, "string offset"),
    RR_FIELD(rr_rmf_entity, first_kv, RR_F_RUN, RR_ERR_INDEX, N_KV, "key/value range"),
    RR_FIELD(rr_rmf_entity, first_brush, RR_F_RUN | RR_F_END, RR_ERR_INDEX, N_BRUSHES,
             "entity brush range")};
static const rr_field path_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_PATHS, rr_rmf_path),
    RR_FIELDS(rr_rmf_path, name, 2, RR_F_STR, RR_ERR_INDEX, 0, "string offset"),
    RR_FIELD(rr_rmf_path, first_node, RR_F_RUN | RR_F_END, RR_ERR_INDEX, N_PNODES,
             "path node range")};
static const rr_field pnode_fields[] = {
    RR_SECTION_CHECK(RR_SEC_RMF_PATHNODES, rr_rmf_pathnode),
    RR_FIELD(rr_rmf_pathnode, name, RR_F_STR, RR_ERR_INDEX, 0, "string offset"),
    RR_FIELD(rr_rmf_pathnode, first_kv, RR_F_RUN | RR_F_END, RR_ERR_INDEX, N_KV,
             "key/value range")};

/* Whole-section field tables, in check order; the node tree goes between
 * the leaf tables and the key/value ones (NULL marks the place). */
static const rr_field *const section_tables[] = {
    leaf_fields, ref_fields, 0, kv_fields, ent_fields, path_fields, pnode_fields};

/* The ctx is built in the arena once check_arena has shown the arena is big
 * enough; the node depths go after it (RR_RMF_ARENA counts both). */
rr_err rr__rmf_validate(rr_room *room, rr_diag *diag)
{
    vstate v;
    ctx *c = ctx_at(room->arena);
    uint32_t i;
    rr_err e;
    v.room = room, v.diag = diag, v.c = c;
    e = check_arena(&v);
    if (!e)
        e = load_sections(&v, c);
    if (!e)
        e = check_header(&v);
    if (!e)
        e = check_planes(&v);
    if (!e)
        e = check_brushes(&v);
    for (i = 0; i < sizeof section_tables / sizeof section_tables[0] && !e; i++)
        e = section_tables[i] ? fields(&v, section_tables[i], 0)
                              : check_nodes(&v, room->arena + RR_RMF_CTX_BYTES);
    if (e)
        return e;
    stamps(room)[0] = stamps(room)[1] = 0;
    clear_marks(room);
    return RR_OK;
}

/* ---- points -------------------------------------------------------------- */

static __attribute__((noinline)) int64_t side_dist(const rr_rmf_plane *p, const int32_t v[3])
{
    if (p->type < 3) {   /* normal +-1 on its axis: 65536 (+-v - dist), no product */
        int32_t x = v[p->type];
        return (int64_t)((p->normal[p->type] < 0 ? -x : x) - p->dist) * 65536;
    }
    return (int64_t)p->normal[0] * v[0] + (int64_t)p->normal[1] * v[1] +
           (int64_t)p->normal[2] * v[2] - (int64_t)p->dist * 65536;
}

/* p is on or behind every side of b. An axial side (type < 3: its normal is
 * exactly +-1 on that axis, checked at open) has side_dist 65536 (+-v -
 * dist), so its test is the 32-bit +-v > dist (|v|, |dist| <= 2^21); only
 * the other sides take the 64-bit side_dist (out of line: one copy). */
static int brush_contains(const ctx *c, const rr_rmf_brush *b, const int32_t p[3])
{
    uint32_t i;
    for (i = 0; i < b->nsides; i++) {
        const rr_rmf_plane *pl = &c->planes[c->sides[b->first_side + i]];
        if (pl->type < 3) {
            int32_t v = p[pl->type];
            if ((pl->normal[pl->type] < 0 ? -v : v) > pl->dist)
                return 0;
        } else if (side_dist(pl, p) > 0) {
            return 0;
        }
    }
    return 1;
}

/* Both points non-NULL with every coordinate in [lo, RR_RMF_MAX_COORD]: the
 * queries' one range check (a point query passes its point twice). */
static __attribute__((noinline)) int pair_ok(const int32_t a[3], const int32_t b[3], int32_t lo)
{
    uint32_t span = (uint32_t)RR_RMF_MAX_COORD - (uint32_t)lo, k;
    if (!a || !b)
        return 0;
    for (k = 0; k < 3; k++)     /* v in [lo, max] <=> v - lo in [0, span], unsigned */
        if ((uint32_t)a[k] - (uint32_t)lo > span || (uint32_t)b[k] - (uint32_t)lo > span)
            return 0;
    return 1;
}

/* The leaf containing p. */
static const rr_rmf_leaf *find_leaf(const ctx *c, const int32_t p[3])
{
    int32_t n = c->h->root;
    while (n >= 0) {
        const rr_rmf_node *nd = &c->nodes[n];
        const rr_rmf_plane *pl = &c->planes[nd->plane];
        n = nd->child[p[pl->type] >= pl->dist ? 0 : 1];
    }
    return &c->leaves[-1 - n];
}

/* Out of line (point and box queries share it); callers skip it without a
 * list, so the contents query pays no call. */
static __attribute__((noinline)) void list_add(rr_rmf_list *l, uint32_t v)
{
    if (l->count < l->max && l->items)
        l->items[l->count++] = v;
    l->total++;
}

/* Both point queries: contents or list may be NULL (the callers checked
 * their own output argument). */
static __attribute__((noinline)) rr_err point_query(const rr_room *room, const int32_t p[3],
                                                   uint32_t *contents, rr_rmf_list *list)
{
    const ctx *c;
    const rr_rmf_leaf *lf;
    uint32_t i, acc = 0;
    /* rmf_ctx inline here: this is the most frequent query */
    if (!room || room->format != RR_FMT_RMF || !pair_ok(p, p, -RR_RMF_MAX_COORD))
        return p && room ? RR_ERR_RANGE : RR_ERR_ARG;
    c = get_ctx(room);
    lf = find_leaf(c, p);
    if (list)
        list->count = list->total = 0;
    for (i = 0; i < lf->count; i++) {
        uint32_t b = c->refs[lf->first + i];
        if (brush_contains(c, &c->brushes[b], p)) {
            acc |= c->brushes[b].contents;
            if (list)
                list_add(list, b);
        }
    }
    if (contents)
        *contents = acc;
    return RR_OK;
}

rr_err rr_rmf_point_contents(const rr_room *room, const int32_t p[3], uint32_t *contents)
{
    if (!contents)
        return RR_ERR_ARG;
    return point_query(room, p, contents, 0);
}

rr_err rr_rmf_point_brushes(const rr_room *room, const int32_t p[3], rr_rmf_list *list)
{
    if (!list || (list->max && !list->items))
        return RR_ERR_ARG;
    return point_query(room, p, 0, list);
}

/* ---- traces -------------------------------------------------------------- */

/* Per-query state, filled once (like Quake III's traceWork_t). */
typedef struct work {
    const ctx *c;
    int32_t start[3], end[3], half[3];
    int32_t lo[3], hi[3];      /* swept bounds (coords), widened by the epsilon;
                                  the box of a box query */
    uint8_t *seen;             /* the brush stamps and this query's stamp */
    uint32_t cur;
    rr_rmf_list *list;         /* a box query's list; NULL for a trace */
    int64_t eps_s;             /* clip epsilon in side units (Q16 coords) */
    int32_t eps_d;             /* ... in fraction units (side >> 8) */
    int32_t margin;            /* eps + 1 coord: widening of the swept box */
    uint32_t mask;
    int32_t best;              /* Q2.30 fraction of the nearest hit */
    int32_t plane, brush;
    uint8_t start_solid, all_solid;
} work;
#define CTX_ROUNDED ((sizeof(ctx) + 7u) & ~(size_t)7u)
typedef char rr__rmf_ctx_fits[(4 + CTX_ROUNDED + sizeof(work) <= RR_RMF_CTX_BYTES) ? 1 : -1];

/* The trace's work lives in the arena, not on the C stack (Cortex-M0 keeps
 * every 64-bit temporary in memory; the stack bound is 512 bytes). */
static work *work_at(const rr_room *room)
{
    return (work *)(void *)((uint8_t *)ctx_at(room->arena) + CTX_ROUNDED);
}

/* floor(s / 256): both trace ends use the same rounding. GCC's >> on a
 * negative value is arithmetic, i.e. floor (rr_rmesh relies on it too). */
static int64_t shr8(int64_t s)
{
    return s >> 8;
}

/* How far the box reaches along the plane normal, in side units: the box
 * corner picked by the plane's signbits (Quake III's offsets[signbits]). */
static int64_t box_offset(const rr_rmf_plane *p, const int32_t half[3])
{
    int64_t o = 0;
    int k;
    for (k = 0; k < 3; k++) {
        int32_t h = (p->signbits >> k) & 1u ? -half[k] : half[k];
        o += (int64_t)p->normal[k] * h;
    }
    return o;
}

/* num / d rounded up when up, else down, clamped to [0, FRAC_ONE]: the
 * tree walk's clip fractions (rounded outward) and the brush sides' hit
 * fractions (down: C's division truncates instead, but the two differ only
 * for a negative quotient, which the clamp makes 0 either way). */
static __attribute__((noinline)) int32_t solve_t(int64_t num, int64_t d, int up)
{
    int64_t q = num / d, r = num % d;
    /* Inexact: C truncated toward 0, so floor is q - 1 when the quotient is
     * negative (r and d of opposite signs), and ceil is floor + 1. */
    if (r != 0)
        q += ((r < 0) != (d < 0) ? -1 : 0) + (up ? 1 : 0);
    return (int32_t)(q < 0 ? 0 : q > FRAC_ONE ? FRAC_ONE : q);
}

/* The trace's two ends against one side, box offset included (kept out of
 * line so its 64-bit temporaries do not sit in trace_brush's frame). */
static __attribute__((noinline)) int64_t side_pair(const work *w, const rr_rmf_plane *p,
                                                   int64_t *s2)
{
    int64_t off = box_offset(p, w->half);
    *s2 = side_dist(p, w->end) - off;
    return side_dist(p, w->start) - off;
}

/* One fraction (Q2.30) of a crossing side, stopping eps short when entering:
 * (d1 -+ eps) / (d1 - d2) with d = s >> 8, so the numerator (d1 -+ eps) 2^30
 * stays below 2^62. A zero denominator (d1 == d2) counts as -1. */
static __attribute__((noinline)) int32_t side_frac(const work *w, int64_t s1, int64_t s2)
{
    int64_t d1 = shr8(s1), den = d1 - shr8(s2);
    return solve_t((d1 + (s1 > s2 ? -w->eps_d : w->eps_d)) * FRAC_ONE, den ? den : -1, 0);
}

/* Quake III's CM_TraceThroughBrush in fixed point. */
static __attribute__((noinline)) void trace_brush(work *w, uint32_t bi)
{
    const rr_rmf_brush *b = &w->c->brushes[bi];
    int32_t enter = -FRAC_ONE, leave = FRAC_ONE, clip = -1;
    int startout = 0, getout = 0;
    int64_t near_s1 = INT64_MIN, near_s2 = 0;
    uint32_t i;
    for (i = 0; i < b->nsides; i++) {
        uint32_t pi = w->c->sides[b->first_side + i];
        const rr_rmf_plane *p = &w->c->planes[pi];
        int64_t s2, s1 = side_pair(w, p, &s2);
        int32_t f;
        /* A start exactly on a side (s1 == 0: a box resting on a floor)
         * counts as outside, so moving into the brush stops at once; in
         * Quake III such a start is "inside", and a long trace that ends
         * beyond a thin brush would then pass through it. */
        getout |= s2 > 0;
        startout |= s1 >= 0;
        if (s1 > near_s1)
            near_s1 = s1, near_s2 = s2;   /* the side the start is nearest to */
        if (s1 >= 0 && (s2 >= w->eps_s || s2 >= s1))
            return;                       /* wholly in front of this side */
        if (s1 < 0 && s2 <= 0)
            continue;                     /* wholly behind it */
        f = side_frac(w, s1, s2);
        if (s1 > s2 && f > enter)         /* entering: stop eps in front */
            enter = f, clip = (int32_t)pi;
        else if (s1 <= s2 && f < leave)   /* leaving */
            leave = f;
    }
    if (!startout) {
        /* Started inside: it may only get out by moving away from the
         * side it is nearest to (depenetration); going deeper, or out
         * through the far side of a thin brush, is blocked at once. */
        w->start_solid = 1;
        if (!getout || near_s2 <= near_s1)
            w->all_solid = 1, w->best = 0, w->brush = (int32_t)bi, w->plane = -1;
        return;
    }
    if (enter < leave && enter > -FRAC_ONE && enter < w->best)
        w->best = enter < 0 ? 0 : enter, w->plane = clip, w->brush = (int32_t)bi;
}

static int bounds_overlap(const rr_rmf_brush *b, const int32_t lo[3], const int32_t hi[3])
{
    int k;
    for (k = 0; k < 3; k++)
        if (b->mins[k] > hi[k] || b->maxs[k] < lo[k])
            return 0;
    return 1;
}

/* A new stamp: brushes stamped with it were seen by this query. */
static uint32_t next_stamp(const rr_room *room)
{
    uint32_t *st = stamps(room);
    if (++st[0] > 255u) {
        clear_marks(room);
        st[0] = 1;
    }
    return st[0];
}

/* The brushes of one leaf not seen yet in this query that overlap [lo, hi]:
 * into the list (a box query) or to trace_brush. */
static __attribute__((noinline)) void visit_leaf(work *w, int32_t n)
{
    const ctx *c = w->c;
    const rr_rmf_leaf *lf = &c->leaves[-1 - n];
    uint32_t i;
    for (i = 0; i < lf->count; i++) {
        uint32_t b = c->refs[lf->first + i];
        if (w->seen[b] == w->cur || !bounds_overlap(&c->brushes[b], w->lo, w->hi))
            continue;
        w->seen[b] = (uint8_t)w->cur;
        if (w->list)
            list_add(w->list, b);
        else if (c->brushes[b].contents & w->mask)
            trace_brush(w, b);
    }
}

/* The work of a query: its ctx and a new stamp. */
static work *start_work(const rr_room *room)
{
    work *w = work_at(room);
    w->c = get_ctx(room);
    w->seen = seen_marks(room);
    w->cur = next_stamp(room);
    return w;
}

/* A part of the trace waiting to be walked: a node or leaf and the
 * segment [t0, t1] (Q2.30 of the whole trace) that reaches it. */
typedef struct part {
    int32_t node, t0, t1;
} part;

/* Part p at its node: which children it reaches and over which parts,
 * near child first. Along the node's axis the swept box spans P(t) +- r
 * with P(t) = start + d.t; the front child (x >= v) needs P(t) + r >= v, the
 * back one P(t) - r <= v. Interval ends are rounded outward. A box query
 * (w->list set) reaches the children its box [lo, hi] touches, front child
 * first, over all of [t0, t1]. p becomes the part walked first; returns 1
 * when *far (the next free stack slot) holds a second part to push. */
static __attribute__((noinline)) int split_segment(const work *w, const rr_rmf_node *nd,
                                                  const rr_rmf_plane *pl, part *p, part *far)
{
    int a = pl->type, front, back;
    int32_t t0 = p->t0, t1 = p->t1, d, r, x;
    int64_t nf, nb, m0, m1;
    far->t0 = t0, far->t1 = t1;
    if (w->list) {
        front = w->hi[a] >= pl->dist, back = w->lo[a] <= pl->dist;
        p->node = nd->child[front ? 0 : 1], far->node = nd->child[1];
        return front && back;
    }
    /* The box reaches r = half + margin either side of P(t), so the front
     * child needs d.t >= nf = v - start - r for some t of the part, the back
     * one d.t <= nb = v - start + r. Scaled by 2^30 (t is Q2.30): below 2^54. */
    d = w->end[a] - w->start[a];
    r = w->half[a] + w->margin, x = pl->dist - w->start[a];
    nf = (int64_t)(x - r) * FRAC_ONE, nb = (int64_t)(x + r) * FRAC_ONE;
    m0 = (int64_t)d * t0, m1 = (int64_t)d * t1;
    front = (m0 > m1 ? m0 : m1) >= nf, back = (m0 < m1 ? m0 : m1) <= nb;
    if (!front || !back) {
        p->node = nd->child[front ? 0 : 1];
        return 0;
    }
    p->node = nd->child[d >= 0], far->node = nd->child[d < 0];   /* d >= 0: back near */
    if (d != 0) {   /* the near part ends where the box leaves its child (t
                     * rounded up), the far one starts where it reaches its own
                     * (rounded down) */
        int32_t tn = solve_t(d > 0 ? nb : nf, d, 1), tx = solve_t(d > 0 ? nf : nb, d, 0);
        p->t1 = tn < t1 ? tn : t1, far->t0 = tx > t0 ? tx : t0;
    }
    return 1;
}

/* Quake III's CM_TraceThroughTree without recursion: the far part of each
 * split waits on the arena stack; a part starting beyond the nearest hit so
 * far is dropped. The box query walks here too (its parts all span [0, 1],
 * it never hits: best stays 1, all_solid 0). */
static __attribute__((noinline)) void walk_tree(const rr_room *room, work *w)
{
    part *stack = (part *)(void *)tree_stack(room);   /* {node, t0, t1} per level */
    uint32_t sp = 0;
    part p;
    p.node = w->c->h->root, p.t0 = 0, p.t1 = FRAC_ONE;
    for (;;) {
        while (p.node >= 0 && p.t0 <= w->best) {
            const rr_rmf_node *nd = &w->c->nodes[p.node];
            sp += (uint32_t)split_segment(w, nd, &w->c->planes[nd->plane], &p, &stack[sp]);
        }
        if (p.node < 0 && p.t0 <= w->best)
            visit_leaf(w, p.node);
        if (sp == 0 || w->all_solid)
            return;
        p = stack[--sp];
    }
}

/* a + (b - a) * f30, the product's magnitude rounded down (toward a: never
 * past the hit). |b - a| <= 2^22 and f30 <= 2^30, so it fits 53 bits and,
 * being non-negative, / 2^30 is >> 30. */
static int32_t move_along(int32_t a, int32_t b, int32_t f30)
{
    uint32_t d = b < a ? (uint32_t)a - (uint32_t)b : (uint32_t)b - (uint32_t)a;
    int32_t m = (int32_t)(((uint64_t)d * (uint32_t)f30) >> 30);
    return b < a ? a - m : a + m;
}

static __attribute__((noinline)) void init_work(const rr_room *room, work *w,
                                                const int32_t start[3], const int32_t end[3],
                                                const int32_t half[3], uint32_t mask)
{
    int32_t eps = ((int32_t)1 << room->coord_frac) >> RR_RMF_CLIP_SHIFT;
    int k;
    w->eps_d = eps < 1 ? 1 : eps;
    w->eps_s = (int64_t)w->eps_d * 65536;
    w->eps_d <<= 8;
    w->mask = mask;
    w->list = 0;
    w->best = FRAC_ONE;
    w->plane = w->brush = -1;
    w->start_solid = w->all_solid = 0;
    w->margin = (eps < 1 ? 1 : eps) + 1;
    for (k = 0; k < 3; k++) {
        int32_t h = half ? half[k] : 0, a = start[k], b = end[k];
        w->start[k] = a, w->end[k] = b, w->half[k] = h;
        w->lo[k] = (a < b ? a : b) - h - (eps < 1 ? 1 : eps) - 1;
        w->hi[k] = (a < b ? b : a) + h + (eps < 1 ? 1 : eps) + 1;
    }
}

rr_err rr_rmf_trace(const rr_room *room, const int32_t start[3], const int32_t end[3],
                    const int32_t half[3], uint32_t mask, rr_rmf_trace_result *out)
{
    work *w;
    int k;
    if (!rmf_ctx(room) || !out || !start || !end)
        return RR_ERR_ARG;
    if (!pair_ok(start, end, -RR_RMF_MAX_COORD) || (half && !pair_ok(half, half, 0)))
        return RR_ERR_RANGE;
    w = start_work(room);
    init_work(room, w, start, end, half, mask);
    walk_tree(room, w);
    out->fraction = w->best >> 14;
    for (k = 0; k < 3; k++)
        out->end[k] = move_along(start[k], end[k], w->best);   /* best = 1: end exactly */
    out->plane = w->plane;
    out->brush = w->brush;
    out->normal.x = out->normal.y = out->normal.z = 0;
    if (w->plane >= 0) {
        const rr_rmf_plane *p = &w->c->planes[w->plane];
        out->normal.x = p->normal[0], out->normal.y = p->normal[1], out->normal.z = p->normal[2];
    }
    out->contents = w->brush >= 0 ? w->c->brushes[w->brush].contents : 0;
    out->start_solid = w->start_solid;
    out->all_solid = w->all_solid;
    out->pad = 0;
    return RR_OK;
}

rr_err rr_rmf_box_brushes(const rr_room *room, const int32_t mins[3], const int32_t maxs[3],
                          rr_rmf_list *list)
{
    work *w;
    int k;
    if (!rmf_ctx(room) || !list || (list->max && !list->items))
        return RR_ERR_ARG;
    if (!pair_ok(mins, maxs, -RR_RMF_MAX_COORD))
        return RR_ERR_RANGE;
    w = start_work(room);
    for (k = 0; k < 3; k++)
        w->lo[k] = mins[k], w->hi[k] = maxs[k];
    w->list = list;
    w->best = FRAC_ONE;
    w->all_solid = 0;
    list->count = list->total = 0;
    walk_tree(room, w);
    return RR_OK;
}

/* ---- records and entities ------------------------------------------------ */

rr_err rr_rmf_get_counts(const rr_room *room, rr_rmf_counts *out)
{
    const ctx *c;
    uint32_t k;
    c = rmf_ctx(room);
    if (!c || !out)
        return RR_ERR_ARG;
    for (k = 0; k < 9; k++)   /* planes .. paths: the counts of sections 1-5 and 7-10 */
        (&out->planes)[k] = (&c->nplanes)[k + (k >= 5)];
    out->version = c->h->version, out->tree_depth = c->h->tree_depth;
    return RR_OK;
}

/* The record getters share one body: record i of section k. */
static __attribute__((noinline)) rr_err get_record(const rr_room *room, uint32_t i,
                                                  const void **out, uint32_t k)
{
    const ctx *c;
    c = rmf_ctx(room);
    if (!c || !out)
        return RR_ERR_ARG;
    if (i >= *sec_count(c, k))
        return RR_ERR_NOTFOUND;
    *out = (const uint8_t *)*sec_ptr(c, k) + i * sec_size[k];
    return RR_OK;
}

#define GETTER(name, type, k)                                            \
    rr_err name(const rr_room *room, uint32_t i, const type **out)      \
    {                                                                   \
        return get_record(room, i, (const void **)(void *)out, k);      \
    }
GETTER(rr_rmf_get_plane, rr_rmf_plane, 1)
GETTER(rr_rmf_get_brush, rr_rmf_brush, 3)
GETTER(rr_rmf_get_entity, rr_rmf_entity, 7)
GETTER(rr_rmf_get_keyvalue, rr_rmf_keyvalue, 8)
GETTER(rr_rmf_get_camera, rr_rmf_camera, 9)
GETTER(rr_rmf_get_path, rr_rmf_path, 10)
GETTER(rr_rmf_get_pathnode, rr_rmf_pathnode, 11)

static __attribute__((noinline)) int str_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        if (*a != *b)
            return 0;
        if (!*a)
            return 1;
    }
}

const char *rr_rmf_entity_value(const rr_room *room, uint32_t i, const char *key)
{
    const ctx *c;
    const rr_rmf_keyvalue *kv;
    uint32_t k;
    c = rmf_ctx(room);
    if (!c || !key || i >= c->nents)
        return 0;
    kv = &c->kv[c->ents[i].first_kv];
    for (k = 0; k < c->ents[i].nkv; k++)
        if (str_eq(rr_string(room, kv[k].key), key))
            return rr_string(room, kv[k].value);
    return 0;
}

/* The key is classified once: classname and targetname are entity fields,
 * any other key is looked up among the key/values. */
rr_err rr_rmf_find_entity(const rr_room *room, const char *key, const char *value,
                          uint32_t from, uint32_t *index)
{
    const ctx *c;
    uint32_t i;
    int field;
    c = rmf_ctx(room);
    if (!c || !key || !value || !index)
        return RR_ERR_ARG;
    field = str_eq(key, "classname") ? 1 : str_eq(key, "targetname") ? 2 : 0;
    for (i = from; i < c->nents; i++) {
        const rr_rmf_entity *en = &c->ents[i];
        const char *v = field ? rr_string(room, field == 1 ? en->classname : en->targetname)
                              : rr_rmf_entity_value(room, i, key);
        if (v && str_eq(v, value)) {
            *index = i;
            return RR_OK;
        }
    }
    return RR_ERR_NOTFOUND;
}

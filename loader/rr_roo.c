/* rr_roo.c - Meridian 59 rooms: blob validation, point location and heights.
 *
 * Data (rr_roo_blob.h): nodes in pre-order with the root first; a child's
 * number is always greater than its parent's and its depth is the parent's
 * plus one (checked by the validator), so the BSP walk is a forward loop
 * that ends after at most bsp_depth nodes. Everything else is an index that
 * the validator range-checks once; the queries trust it.
 */
#define RR_INTERNAL
#include "rr_int.h"
#include "rr_roo.h"
#include "rr_roo_blob.h"

/* Three uses, all measured (make size, make bench):
 * - keeps a helper's 64-bit temporaries out of its caller's frame: on
 *   Cortex-M0 (8 low registers, no long multiply) inlining them into the
 *   wall walk made rr_roo_slide need 712 bytes of stack (static bound, 64
 *   per libgcc call); with these, 472 at 128 per call;
 * - one copy of a helper that -O2 would otherwise inline at every call
 *   (orient, near_seg, ratio_lerp, ...). The hot tests that call orient
 *   stop as early as they can (cross_wall, straddles);
 * - a validator step out of rr__roo_validate's loop (check_node,
 *   check_room): inlined, they cost 64 + 9 more bytes of Thumb-2 code. */
#define NOINLINE __attribute__((noinline))

/* The sections of an open room; n[S_x] counts the records of section S_x
 * (the section types are RR_SEC_ROO_ROOM + S_x). */
enum { S_ROOM, S_NODES, S_LEAVES, S_POINTS, S_SECTORS, S_SLOPES, S_WALLS, S_SIDEDEFS, S_N };
typedef struct view {
    const void *sec[S_N]; /* section data, in the same order */
    uint32_t n[S_N];
} view;
/* Typed access to a view's sections. */
#define ROOM(v) ((const rr_roo_room_rec *)(v)->sec[S_ROOM])
#define NODES(v) ((const rr_roo_node_rec *)(v)->sec[S_NODES])
#define LEAVES(v) ((const rr_roo_leaf_rec *)(v)->sec[S_LEAVES])
#define SECTORS(v) ((const rr_roo_sector_rec *)(v)->sec[S_SECTORS])
#define SLOPES(v) ((const rr_roo_slope_rec *)(v)->sec[S_SLOPES])
#define WALLS(v) ((const rr_roo_wall_rec *)(v)->sec[S_WALLS])
#define SIDEDEFS(v) ((const rr_roo_sidedef_rec *)(v)->sec[S_SIDEDEFS])

/* Sections a ROO blob may carry besides the common and optional ones. */
static const uint32_t known_types[] = {
    RR_SEC_ROO_ROOM, RR_SEC_ROO_NODES, RR_SEC_ROO_LEAVES, RR_SEC_ROO_POINTS,
    RR_SEC_ROO_SECTORS, RR_SEC_ROO_SLOPES, RR_SEC_ROO_WALLS, RR_SEC_ROO_SIDEDEFS};

static int64_t join64(uint32_t lo, int32_t hi)
{
    return (int64_t)(((uint64_t)(uint32_t)hi << 32) | (uint64_t)lo);
}

/* Element size of each section, in type order from RR_SEC_ROO_ROOM (the
 * section types are consecutive, and so are the view's pointers). */
static const uint8_t elem_size[8] = {
    sizeof(rr_roo_room_rec), sizeof(rr_roo_node_rec), sizeof(rr_roo_leaf_rec),
    sizeof(rr_roo_point_rec), sizeof(rr_roo_sector_rec), sizeof(rr_roo_slope_rec),
    sizeof(rr_roo_wall_rec), sizeof(rr_roo_sidedef_rec)};

/* The eight sections in one loop; the room record must be exactly one. */
static NOINLINE rr_err get_view(const rr_room *room, view *v, rr_diag *diag)
{
    uint32_t k;
    for (k = 0; k < S_N; k++) {
        rr_err e = rr__section(room, RR_SEC_ROO_ROOM + k, elem_size[k], &v->sec[k], &v->n[k],
                               diag);
        if (e)
            return e;
        if (v->n[S_ROOM] != 1)
            return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, RR_SEC_ROO_ROOM),
                               rr__offset(room, v->sec[0]), "room record count", v->n[S_ROOM], 1);
    }
    return RR_OK;
}

/* The validator's faults: id, error code, section (S_x, or HDR(o) for the
 * blob header's word at byte o) and what. Each failure path is then one
 * call bad(s, id, value, limit) with the record under check in s->rec: four
 * arguments in registers instead of six, two of them pushed, and one
 * rr__offset call in bad (make size: about 16 bytes less per failure path). */
#define HDR(o) (0x80u | (o))
#define ROO_FAULTS(X)                                                        \
    X(F_ROOM_COUNTS, SECTION, S_ROOM, "room counts")                         \
    X(F_RECORD_COUNT, RANGE, S_ROOM, "record count")                         \
    X(F_BSP_DEPTH, DEPTH, S_ROOM, "bsp depth")                               \
    X(F_ARENA, ARENA, HDR(28), "roo arena (query state + walk stack)")           \
    X(F_WALL_SLACK, RANGE, S_ROOM, "wall slack")                             \
    X(F_COORD_FRAC, FIXED, HDR(12), "roo coord_frac")                        \
    X(F_NODE_DEPTH, DEPTH, S_NODES, "node depth")                            \
    X(F_LEAF_SECTOR, INDEX, S_NODES, "leaf sector")                          \
    X(F_LEAF_RECORD, INDEX, S_NODES, "leaf record")                          \
    X(F_NODE_KIND, RANGE, S_NODES, "node kind")                              \
    X(F_SEPARATOR, RANGE, S_NODES, "separator coefficient")                  \
    X(F_FIRST_WALL, INDEX, S_NODES, "first wall")                            \
    X(F_CHILD_NODE, INDEX, S_NODES, "child node")                            \
    X(F_CHILD_ORDER, CYCLE, S_NODES, "child not after its parent")           \
    X(F_CHILD_DEPTH, DEPTH, S_NODES, "child depth")                          \
    X(F_LEAF_NODE, INDEX, S_LEAVES, "leaf node")                             \
    X(F_SLOPE_C, RANGE, S_SLOPES, "slope coefficient")                       \
    X(F_WALL_NEXT, CYCLE, S_WALLS, "wall next not after the wall")
#define FAULT_ID(id, code, sec, what) id,
#define FAULT_TEXT(id, code, sec, what) char id[sizeof(what)];
#define FAULT_INIT(id, code, sec, what) what,
#define FAULT_REC(id, code, sec, what) \
    {(uint8_t)-RR_ERR_##code, (uint8_t)(sec), (uint16_t)offsetof(struct fault_texts, id)},
enum { ROO_FAULTS(FAULT_ID) F_N };
/* The texts in one block, so a fault names its text by a 16-bit offset. */
static const struct fault_texts {
    ROO_FAULTS(FAULT_TEXT)
} fault_text = {ROO_FAULTS(FAULT_INIT)};
static const struct fault {
    uint8_t code, sec;
    uint16_t what;
} faults[F_N] = {ROO_FAULTS(FAULT_REC)};

/* What every validator step needs. */
typedef struct vstate {
    view v;
    const rr_room *room;
    rr_diag *diag;
    const void *rec; /* the record under check */
    uint32_t cells;  /* check_grids: the cells of the grid under check */
} vstate;

static NOINLINE rr_err bad(const vstate *s, uint32_t id, uint32_t value, uint32_t limit)
{
    const struct fault *f = &faults[id];
    uint32_t hdr = f->sec & 0x80u, type = hdr ? 0u : RR_SEC_ROO_ROOM + f->sec;
    return rr__fail_at(s->diag, type << 8 | f->code,
                       hdr ? f->sec & 0x7fu : rr__offset(s->room, s->rec),
                       (const char *)&fault_text + f->what, value, limit);
}

static int coord_ok(int32_t v)
{
    return v > -RR_ROO_COORD_LIMIT && v < RR_ROO_COORD_LIMIT;
}

/* Counts in the room record (words 8..14, nnodes on, in section order) must
 * match the sections; 16-bit indices need counts below RR_ROO_NONE. */
typedef char rr__roo_room_counts[(offsetof(rr_roo_room_rec, nnodes) == 32) ? 1 : -1];
static NOINLINE rr_err check_room(vstate *s)
{
    const rr_roo_room_rec *r = ROOM(&s->v);
    const uint32_t *counts = (const uint32_t *)(const void *)r + 7; /* [S_NODES] = nnodes */
    const rr_room *room = s->room;
    uint32_t k, need = RR_ROO_ARENA_STATE + 2u * (r->bsp_depth + 1u);
    s->rec = r;
    for (k = S_NODES; k < S_N; k++)
        if (counts[k] != s->v.n[k])
            return bad(s, F_ROOM_COUNTS, r->nnodes, s->v.n[S_NODES]);
    for (k = S_NODES; k < S_N; k++)
        if (k != S_POINTS && s->v.n[k] >= RR_ROO_NONE)
            return bad(s, F_RECORD_COUNT, s->v.n[S_NODES], RR_ROO_NONE - 1);
    if (r->bsp_depth > room->max_depth || r->bsp_depth > RR_MAX_DEPTH)
        return bad(s, F_BSP_DEPTH, r->bsp_depth, room->max_depth);
    if (room->arena_need < need)
        return bad(s, F_ARENA, room->arena_need, need);
    if (r->wall_slack < 0 || !coord_ok(r->wall_slack))
        return bad(s, F_WALL_SLACK, (uint32_t)r->wall_slack, RR_ROO_COORD_LIMIT);
    if (room->coord_frac > RR_ROO_MAX_FRAC)
        return bad(s, F_COORD_FRAC, room->coord_frac, RR_ROO_MAX_FRAC);
    return RR_OK;
}

static int coef_ok(int32_t a)
{
    return a > -RR_ROO_COEF_LIMIT && a < RR_ROO_COEF_LIMIT;
}

static int const_ok(int32_t hi)
{
    return hi > -RR_ROO_CONST_LIMIT_HI && hi < RR_ROO_CONST_LIMIT_HI;
}

/* A child link of node i: 0, or a later node whose depth is one more
 * than the parent's (out of line: one copy for pos and neg). */
static NOINLINE rr_err check_child(const vstate *s, uint32_t i, uint32_t child)
{
    uint32_t depth = NODES(&s->v)[i].depth + 1u;
    if (child == 0)
        return RR_OK;
    if (child > s->v.n[S_NODES])
        return bad(s, F_CHILD_NODE, child, s->v.n[S_NODES]);
    if (child <= i + 1)
        return bad(s, F_CHILD_ORDER, child, i + 1);
    if (NODES(&s->v)[child - 1].depth != depth)
        return bad(s, F_CHILD_DEPTH, NODES(&s->v)[child - 1].depth, depth);
    return RR_OK;
}

static NOINLINE rr_err check_node(vstate *s, uint32_t i)
{
    const view *v = &s->v;
    const rr_roo_node_rec *n = &NODES(v)[i];
    rr_err e;
    s->rec = n;
    if (n->depth < 1 || n->depth > ROOM(v)->bsp_depth || (i == 0 && n->depth != 1))
        return bad(s, F_NODE_DEPTH, n->depth, ROOM(v)->bsp_depth);
    if (n->kind == RR_ROO_NODE_LEAF) {
        if (n->sector >= v->n[S_SECTORS])
            return bad(s, F_LEAF_SECTOR, n->sector, v->n[S_SECTORS]);
        if (n->leaf >= v->n[S_LEAVES] || LEAVES(v)[n->leaf].node != i)
            return bad(s, F_LEAF_RECORD, n->leaf, v->n[S_LEAVES]);
        return RR_OK;
    }
    if (n->kind != RR_ROO_NODE_INTERNAL)
        return bad(s, F_NODE_KIND, n->kind, 2);
    if (!coef_ok(n->a) || !coef_ok(n->b) || !const_ok(n->c_hi) || n->norm >= 0x80000000u ||
        (uint64_t)n->norm * n->norm <
            (uint64_t)((int64_t)n->a * n->a + (int64_t)n->b * n->b))
        return bad(s, F_SEPARATOR, (uint32_t)n->a, RR_ROO_COEF_LIMIT);
    if (n->first_wall != RR_ROO_NONE && n->first_wall >= v->n[S_WALLS])
        return bad(s, F_FIRST_WALL, n->first_wall, v->n[S_WALLS]);
    e = check_child(s, i, n->pos);
    return e ? e : check_child(s, i, n->neg);
}

/* Field tables for rr__check_fields: counts are the view's n[S_x]. */
#define COORD_MAX (RR_ROO_COORD_LIMIT - 1)
#define IDX16(member, n, what) \
    RR_FIELD(rr_roo_wall_rec, member, RR_F_IDX | RR_F_U16 | RR_F_NONE, RR_ERR_INDEX, n, what)

/* Every leaf check gives RR_ERR_INDEX, so the table pass may come first. */
static const rr_field leaf_fields[] = {
    RR_SECTION_CHECK(RR_SEC_ROO_LEAVES, rr_roo_leaf_rec),
    RR_FIELD(rr_roo_leaf_rec, sector, RR_F_IDX | RR_F_U16, RR_ERR_INDEX, S_SECTORS,
             "leaf sector"),
    RR_FIELD(rr_roo_leaf_rec, first_point, RR_F_RUN | RR_F_END, RR_ERR_INDEX, S_POINTS,
             "leaf points")};

/* rr__check_fields on the validator's view and diag. */
static NOINLINE rr_err fields(const vstate *s, const rr_field *t, const void *elem)
{
    return rr__check_fields(s->room, t, elem, s->v.n, s->diag);
}

static rr_err check_leaves(vstate *s)
{
    const view *v = &s->v;
    uint32_t i;
    rr_err e = fields(s, leaf_fields, 0);
    for (i = 0; i < v->n[S_LEAVES] && !e; i++) {
        const rr_roo_leaf_rec *l = &LEAVES(v)[i];
        if (l->node >= v->n[S_NODES] || NODES(v)[l->node].kind != RR_ROO_NODE_LEAF ||
            NODES(v)[l->node].leaf != i) {
            s->rec = l;
            return bad(s, F_LEAF_NODE, l->node, v->n[S_NODES]);
        }
    }
    return e;
}

static const rr_field sector_fields[] = {
    RR_SECTION_CHECK(RR_SEC_ROO_SECTORS, rr_roo_sector_rec),
    RR_FIELD(rr_roo_sector_rec, floor_slope, RR_F_IDX | RR_F_U16 | RR_F_NONE, RR_ERR_INDEX,
             S_SLOPES, "sector slope"),
    RR_FIELD(rr_roo_sector_rec, ceiling_slope, RR_F_IDX | RR_F_U16 | RR_F_NONE, RR_ERR_INDEX,
             S_SLOPES, "sector slope"),
    RR_FIELD(rr_roo_sector_rec, depth, RR_F_MAX | RR_F_U8, RR_ERR_RANGE, 3, "sector depth"),
    RR_FIELDS(rr_roo_sector_rec, floor_z, 2, RR_F_ABS | RR_F_END, RR_ERR_RANGE, COORD_MAX,
              "sector height")};
/* Every slope check gives RR_ERR_RANGE, so the table pass may come first. */
static const rr_field slope_fields[] = {
    RR_SECTION_CHECK(RR_SEC_ROO_SLOPES, rr_roo_slope_rec),
    RR_FIELDS(rr_roo_slope_rec, a, 3, RR_F_ABS, RR_ERR_RANGE, RR_ROO_COEF_LIMIT - 1,
              "slope coefficient"),
    RR_FIELD(rr_roo_slope_rec, d_hi, RR_F_ABS | RR_F_END, RR_ERR_RANGE,
             RR_ROO_CONST_LIMIT_HI - 1, "slope constant")};

static rr_err check_sectors(vstate *s)
{
    const view *v = &s->v;
    uint32_t i;
    rr_err e = fields(s, sector_fields, 0);
    if (!e)
        e = fields(s, slope_fields, 0);
    for (i = 0; i < v->n[S_SLOPES] && !e; i++) {
        const rr_roo_slope_rec *p = &SLOPES(v)[i];
        if (p->c == 0) {
            s->rec = p;
            return bad(s, F_SLOPE_C, (uint32_t)p->c, RR_ROO_COEF_LIMIT);
        }
    }
    return e;
}

static const rr_field wall_links[] = {
    RR_SECTION_CHECK(RR_SEC_ROO_WALLS, rr_roo_wall_rec),
    IDX16(pos_sidedef, S_SIDEDEFS, "wall sidedef"), IDX16(neg_sidedef, S_SIDEDEFS, "wall sidedef"),
    IDX16(pos_sector, S_SECTORS, "wall sector"), IDX16(neg_sector, S_SECTORS, "wall sector"),
    RR_FIELD(rr_roo_wall_rec, next, RR_F_IDX | RR_F_U16 | RR_F_NONE | RR_F_END, RR_ERR_INDEX,
             S_WALLS, "wall next")};
static const rr_field wall_coords[] = {
    RR_SECTION_CHECK(RR_SEC_ROO_WALLS, rr_roo_wall_rec),
    RR_FIELDS(rr_roo_wall_rec, x0, 4, RR_F_ABS | RR_F_END, RR_ERR_RANGE, COORD_MAX,
              "wall coordinate")};

static rr_err check_walls(vstate *s)
{
    uint32_t i;
    rr_err e = RR_OK;
    for (i = 0; i < s->v.n[S_WALLS] && !e; i++) {
        const rr_roo_wall_rec *w = &WALLS(&s->v)[i];
        if ((e = fields(s, wall_links, w)))
            return e;
        if (w->next != RR_ROO_NONE && w->next <= i) {
            s->rec = w;
            return bad(s, F_WALL_NEXT, w->next, i);
        }
        e = fields(s, wall_coords, w);
    }
    return e;
}

/* The optional grids: the three byte grids of grid_rows x grid_cols, then
 * the u32 high-res grid of hires_rows x hires_cols. */
static const uint32_t grid_types[4] = {RR_SEC_ROO_MOVE_GRID, RR_SEC_ROO_FLAG_GRID,
                                       RR_SEC_ROO_MONSTER_GRID, RR_SEC_ROO_HIRES_GRID};

typedef char rr__roo_grid_dims[(offsetof(rr_roo_room_rec, hires_cols) ==
                                offsetof(rr_roo_room_rec, grid_rows) + 12) ? 1 : -1];
/* Each optional grid present must hold rows * cols cells of its size (the
 * section lands in s->rec and s->cells, off the stack). */
static NOINLINE rr_err check_grids(vstate *s)
{
    const int32_t *dims = (const int32_t *)(const void *)((const uint8_t *)ROOM(&s->v) +
        offsetof(rr_roo_room_rec, grid_rows)); /* grid rows, cols, hires rows, cols */
    uint32_t k;
    for (k = 0; k < 4; k++) {
        uint32_t hires = (k + 1) >> 2; /* 1 for k = 3 */
        int32_t rows = dims[2 * hires], cols = dims[2 * hires + 1];
        rr_err e = rr__section(s->room, grid_types[k], 1u + 3u * hires, &s->rec, &s->cells,
                               s->diag);
        if (e == RR_ERR_MISSING)
            continue;
        if (e)
            return e;
        if (rows < 0 || cols < 0 || (uint64_t)(uint32_t)rows * (uint32_t)cols != s->cells)
            return rr__fail_at(s->diag, RR_ES(RR_ERR_SECTION, grid_types[k]),
                               rr__offset(s->room, s->rec), "grid cells", s->cells,
                               (uint32_t)rows);
    }
    return RR_OK;
}

rr_err rr__roo_validate(rr_room *room, rr_diag *diag)
{
    vstate s;
    uint32_t i;
    rr_err e = rr__sections_known(room, known_types,
                                  sizeof known_types / sizeof known_types[0], diag);
    s.room = room, s.diag = diag;
    if (!e)
        e = get_view(room, &s.v, diag);
    if (!e)
        e = check_room(&s);
    for (i = 0; !e && i < s.v.n[S_NODES]; i++)
        e = check_node(&s, i);
    if (!e)
        e = check_leaves(&s);
    if (!e)
        e = check_sectors(&s);
    if (!e)
        e = check_walls(&s);
    if (!e)
        e = check_grids(&s); /* out of line: x86-64 rr_open stays within 512 bytes */
    return e;
}

/// Queries ///

/* Every query starts here: RR_ERR_ARG when its own argument check failed
 * (ok == 0) or room is not an open ROO room, else the room's view. */
static NOINLINE rr_err query_view(const rr_room *room, view *v, int ok)
{
    if (!ok || !room || room->format != RR_FMT_ROO)
        return RR_ERR_ARG;
    return get_view(room, v, 0);
}

/* a*x + b*y + c of node p's separator: > 0 on its + side. */
static int64_t node_side(const rr_roo_node_rec *p, int32_t x, int32_t y)
{
    return (int64_t)p->a * x + (int64_t)p->b * y + join64(p->c_lo, p->c_hi);
}

static NOINLINE rr_err walk(const view *v, int32_t x, int32_t y, rr_roo_where *out)
{
    uint32_t n = 1; /* 1-based node number */
    out->sector = out->leaf = -1;
    out->node = -1;
    if (v->n[S_NODES] == 0)
        return RR_ERR_NOTFOUND;
    for (;;) {
        const rr_roo_node_rec *p = &NODES(v)[n - 1];
        int64_t s;
        uint32_t next;
        out->node = (int32_t)(n - 1);
        if (p->kind == RR_ROO_NODE_LEAF) {
            out->sector = p->sector;
            out->leaf = p->leaf;
            return RR_OK;
        }
        s = node_side(p, x, y);
        if (s > 0)
            next = p->pos;
        else if (s < 0)
            next = p->neg;
        else
            next = p->pos ? p->pos : p->neg;
        if (next == 0)
            return RR_ERR_NOTFOUND; /* validated: next > n, so the loop ends */
        n = next;
    }
}

rr_err rr_roo_locate(const rr_room *room, int32_t x, int32_t y, rr_roo_where *out)
{
    view v;
    rr_err e = query_view(room, &v, out != 0);
    return e ? e : walk(&v, x, y, out);
}

/* z = -(a*x + b*y + d) / c, rounded half away from zero and saturated to
 * int32. |numerator| < 2^62.5; c != 0 (validated). */
static int32_t slope_z(const rr_roo_slope_rec *p, int32_t x, int32_t y)
{
    int64_t num = -((int64_t)p->a * x + (int64_t)p->b * y + join64(p->d_lo, p->d_hi));
    return rr__sat32(rr__div_round64(num, p->c));
}

/* Floor surface and ceiling of a sector at (x, y): fc[0], fc[1], each its
 * slope's height or else its flat height. */
typedef char rr__roo_sector_pairs[(offsetof(rr_roo_sector_rec, ceiling_z) == 4 &&
                                   offsetof(rr_roo_sector_rec, ceiling_slope) ==
                                       offsetof(rr_roo_sector_rec, floor_slope) + 2) ? 1 : -1];
static void floor_ceiling(const view *v, uint32_t sector, int32_t x, int32_t y, int32_t fc[2])
{
    const rr_roo_sector_rec *s = &SECTORS(v)[sector];
    const uint8_t *b = (const uint8_t *)s;
    const uint16_t *slope = (const uint16_t *)(const void *)(
        b + offsetof(rr_roo_sector_rec, floor_slope)); /* floor_slope, ceiling_slope */
    const int32_t *flat = (const int32_t *)(const void *)b; /* floor_z, ceiling_z */
    uint32_t k;
    for (k = 0; k < 2; k++)
        fc[k] = slope[k] != RR_ROO_NONE ? slope_z(&SLOPES(v)[slope[k]], x, y) : flat[k];
}

/* The heights of a sector at (x, y); sector -1 (outside: what walk gives
 * when it fails) zeroes them and returns RR_ERR_NOTFOUND. */
static NOINLINE rr_err sector_heights(const view *v, int32_t sector, int32_t x, int32_t y,
                                      rr_roo_heights *out)
{
    int32_t fc[2] = {0, 0};
    const rr_roo_sector_rec *s = sector >= 0 ? &SECTORS(v)[sector] : 0;
    if (s)
        floor_ceiling(v, (uint32_t)sector, x, y, fc);
    out->floor_surface = fc[0];
    out->floor = s ? rr__sat32((int64_t)fc[0] - s->depth_z) : 0;
    out->ceiling = fc[1];
    out->sector = sector;
    out->flags = s ? s->flags : 0;
    return s ? RR_OK : RR_ERR_NOTFOUND;
}

rr_err rr_roo_sector_height(const rr_room *room, int32_t sector, int32_t x, int32_t y,
                            rr_roo_heights *out)
{
    view v;
    rr_err e = query_view(room, &v, out != 0);
    if (e)
        return e;
    if (sector < 0 || (uint32_t)sector >= v.n[S_SECTORS])
        return RR_ERR_ARG;
    return sector_heights(&v, sector, x, y, out);
}

rr_err rr_roo_height(const rr_room *room, int32_t x, int32_t y, rr_roo_heights *out)
{
    view v;
    rr_roo_where w;
    rr_err e = query_view(room, &v, out != 0);
    if (e)
        return e;
    walk(&v, x, y, &w); /* RR_ERR_NOTFOUND leaves w.sector = -1 */
    return sector_heights(&v, w.sector, x, y, out);
}

/* rr_roo_info word k is room record word info_src[k] (version, the counts
 * but npoints, bsp_depth, rect, grid sizes); security_ok follows. */
static const uint8_t info_src[16] = {0, 8, 9, 11, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19};
typedef char rr__roo_info_words[(offsetof(rr_roo_info, security_ok) == 64 &&
                                 offsetof(rr_roo_room_rec, hires_cols) == 76) ? 1 : -1];

rr_err rr_roo_get_info(const rr_room *room, rr_roo_info *out)
{
    view v;
    uint32_t k;
    rr_err e = query_view(room, &v, out != 0);
    if (e)
        return e;
    for (k = 0; k < 16; k++)
        ((uint32_t *)(void *)out)[k] = ((const uint32_t *)(const void *)ROOM(&v))[info_src[k]];
    out->security_ok = (ROOM(&v)->flags & RR_ROO_ROOM_SECURITY_OK) != 0;
    return RR_OK;
}

/// Exact 2D predicates for movement and sight ///
/* Coordinates are validated (walls) or required (arguments) to lie within
 * +-2^29, so differences fit 2^30, products 2^60 and a cross product 2^61. */

/* High and low 64 bits of a * b. */
static uint64_t mul_hi(uint64_t a, uint64_t b, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (p00 & 0xffffffffu) | (mid << 32);
    return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* a * b <= c * d, exactly (128-bit products). */
static int mul_le(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t lo1, lo2, hi1 = mul_hi(a, b, &lo1), hi2 = mul_hi(c, d, &lo2);
    return hi1 < hi2 || (hi1 == hi2 && lo1 <= lo2);
}

static uint64_t abs64(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* A wall's line as four int32 x0, y0, x1, y1: the record starts with them,
 * so a wall and a path p = (ax, ay, bx, by) are both "lines" l[4] and a point
 * is a pair c[2] (p, p + 2, l, l + 2). Pointer arguments keep every call
 * below at two or three registers (six int32 put two on the Arm stack). */
typedef char rr__roo_wall_line[(offsetof(rr_roo_wall_rec, y1) == 12) ? 1 : -1];
static const int32_t *wall_line(const rr_roo_wall_rec *w)
{
    return (const int32_t *)(const void *)w;
}

/* (b - a) x (c - a) for the line a -> b = l: > 0 when c is on its + side
 * (the same sign as the separator a*x + b*y + c of a wall's line, NOTES
 * §1.12). Every point here is a wall end (validated) or on a query's
 * segment (arguments checked, args_ok), so within +-2^29: each difference
 * fits an int32 (as in near_seg) and each product is one 32 x 32 -> 64
 * multiply. */
static NOINLINE int64_t orient(const int32_t l[4], const int32_t c[2])
{
    int32_t ex = l[2] - l[0], ey = l[3] - l[1], vx = c[0] - l[0], vy = c[1] - l[1];
    return (int64_t)ex * vy - (int64_t)ey * vx;
}

/* Is the point c within sqrt(r2) of the segment l? v = c - start, e = end -
 * start (each component < 2^30 in magnitude: coordinates are within
 * +-2^29). Exact. */
static NOINLINE int near_seg(const int32_t l[4], const int32_t c[2], uint64_t r2)
{
    int32_t vx = c[0] - l[0], vy = c[1] - l[1], ex = l[2] - l[0], ey = l[3] - l[1];
    int64_t u = (int64_t)ex * vx + (int64_t)ey * vy, ee = (int64_t)ex * ex + (int64_t)ey * ey;
    int32_t x = vx, y = vy;
    int64_t d;
    if (u > 0 && ee != 0) {
        if (u < ee) { /* nearest point inside the segment: compare d^2 / ee with r2 */
            d = orient(l, c); /* ex * vy - ey * vx */
            return mul_le(abs64(d), abs64(d), r2, (uint64_t)ee);
        }
        x = c[0] - l[2], y = c[1] - l[3]; /* nearest point: the end */
    }
    return (uint64_t)((int64_t)x * x + (int64_t)y * y) <= r2;
}

/* Where the ends of the segment c lie against the line l: 1 both strictly
 * on one side, 2 both on the line, -1 strictly on both sides, 0 one end on
 * the line. */
static NOINLINE int ends_side(const int32_t l[4], const int32_t c[4])
{
    int64_t o1 = orient(l, c), o2 = orient(l, c + 2);
    int s1 = (o1 > 0) - (o1 < 0), s2 = (o2 > 0) - (o2 < 0);
    return s1 || s2 ? s1 * s2 : 2;
}

/* Do the segment p = (ax, ay, bx, by) and wall line l cross or touch (not
 * both collinear)? */
static int straddles(const int32_t p[4], const int32_t l[4])
{
    return ends_side(p, l) <= 0 && ends_side(l, p) != 1;
}

/* Do the segment p = (ax, ay, bx, by) and wall w come within sqrt(r2) of
 * each other? (They cross, or an endpoint of one is near the other.) */
static int seg_near_wall(const int32_t p[4], const rr_roo_wall_rec *w, uint64_t r2)
{
    const int32_t *l = wall_line(w);
    uint32_t k;
    if (straddles(p, l))
        return 1;
    for (k = 0; k < 4; k++) /* the ends of p against l, then the ends of l against p */
        if (near_seg(k < 2 ? l : p, (k < 2 ? p : l) + 2 * (k & 1), r2))
            return 1;
    return 0;
}

/* Where a segment crosses a wall: the ratio num/den in [0, 1] along a -> b,
 * both reduced below 2^31 so that coordinate * num fits 2^61. */
typedef struct crossing {
    int64_t num, den;
    int side;             /* 1: a is on the wall's + side (s >= 0) */
} crossing;

/* Halve num and den of c (both >= 0) until both are below 2^31. */
static NOINLINE void reduce(crossing *c)
{
    while (c->den >= 0x80000000LL || c->num >= 0x80000000LL) {
        c->num >>= 1;
        c->den >>= 1;
    }
}

static int cross_wall(const int32_t p[4], const rr_roo_wall_rec *w, crossing *c)
{
    const int32_t *l = wall_line(w);
    int64_t sa = orient(l, p), sb = orient(l, p + 2);
    c->side = sa >= 0;
    if (c->side == (sb >= 0))
        return 0; /* both ends on one side of the wall's line */
    if (ends_side(p, l) == 1)
        return 0;
    c->num = (int64_t)abs64(sa);
    c->den = (int64_t)abs64(sa - sb); /* sa, sb of opposite signs */
    reduce(c);
    return 1;
}

/* a + (b - a) * num / den, rounded: b - a fits an int32 (a and b are both
 * within +-2^29, or S and S + E in slide_target) and so does num (reduced),
 * so the product is one 32 x 32 -> 64 multiply. */
static NOINLINE int32_t ratio_lerp(int32_t a, int32_t b, const crossing *c)
{
    return (int32_t)(a + rr__div_round64((int64_t)(b - a) * (int32_t)c->num, c->den));
}

static rr_fix ratio_fix(const crossing *c)
{
    return (rr_fix)((c->num << 16) / c->den);
}

/* Are the n arguments at v all within the coordinate range? */
static NOINLINE int args_ok(const int32_t *v, uint32_t n)
{
    while (n--)
        if (!coord_ok(v[n]))
            return 0;
    return 1;
}

/// Per-query state in the arena ///

/* can-move and line of sight keep their state in the arena (first
 * RR_ROO_ARENA_STATE bytes; the BSP walk's stack follows), so their stack
 * frames stay small. Only 32-bit fields and pointers: the arena is only
 * guaranteed 4-byte alignment. */
typedef struct mover {
    int32_t radius, step, height;
    int32_t best;         /* time of the best event so far, 0x10001 = none */
    int32_t probe[4];     /* first_contact's trial segment (off the stack) */
} mover;

typedef struct sighter {
    const int32_t *a, *b;
} sighter;

typedef struct qstate {
    view v;
    int32_t seg[4];       /* the path (ax, ay, bx, by) or the sight line in 2D; the
                             corridor's centre line */
    int32_t width;        /* the corridor's half width: radius (0 for sight) + wall slack */
    uint32_t node, sp;    /* the wall walk: next node (1-based, 0 = done), stack depth */
    uint32_t wall;        /* next wall to hand out, or RR_ROO_NONE */
    int32_t brute;        /* 1: hand out every wall in index order */
    void *out;            /* the caller's rr_roo_move or rr_roo_sight */
    union {
        mover m;
        sighter s;
    } u;
} qstate;

typedef char rr__roo_qstate_fits[(sizeof(qstate) <= RR_ROO_ARENA_STATE) ? 1 : -1];

static qstate *query_state(const rr_room *room)
{
    return (qstate *)(void *)room->arena; /* validated: 4-byte aligned, big enough */
}

static uint16_t *walk_stack(const rr_room *room)
{
    return (uint16_t *)(void *)(room->arena + RR_ROO_ARENA_STATE);
}

/* The next node of a depth-first BSP walk (the walls walk, and
 * rr_roo_leaf_order) that leaves a node: child first, else child second,
 * else the node on top of the stack (0: the walk is over); second waits on
 * the stack when both are to be visited (depth-bounded: sp < bsp_depth).
 * Children are 0 when absent or not to be visited. */
static NOINLINE uint32_t descend(uint16_t *stack, uint32_t *sp, uint32_t first, uint32_t second)
{
    if (first && second)
        stack[(*sp)++] = (uint16_t)second;
    return first ? first : second ? second : *sp ? stack[--*sp] : 0u;
}

/// Walls near a segment ///

/* The walk over every wall that can come within q->width of the segment
 * q->seg: the walls listed at each node whose cell the corridor reaches (s of
 * the endpoints against width * norm), with the arena stack as in
 * rr_roo_leaf_order. Rooms flagged RR_ROO_ROOM_NO_WALL_TREE, and brute force,
 * get every wall. Visit order varies; visitors keep the (time, index)
 * minimum. */

/* Take one node off the walk: queue its walls, pick the children to visit. */
static NOINLINE void walk_node(const rr_room *room, qstate *q)
{
    const rr_roo_node_rec *p = &NODES(&q->v)[q->node - 1];
    uint16_t *stack = walk_stack(room);
    int64_t sa, sb, lim;
    if (p->kind == RR_ROO_NODE_LEAF) {
        q->node = q->sp ? stack[--q->sp] : 0u;
        return;
    }
    q->wall = p->first_wall;
    sa = node_side(p, q->seg[0], q->seg[1]), sb = node_side(p, q->seg[2], q->seg[3]);
    lim = (int64_t)q->width * (int32_t)p->norm; /* < 2^30 * 2^31 (norm < 2^31, validated) */
    q->node = descend(stack, &q->sp, sa >= -lim || sb >= -lim ? p->pos : 0u,
                      sa <= lim || sb <= lim ? p->neg : 0u);
}

/* The next wall, or RR_ROO_NONE when the walk is over. */
static uint32_t walk_next(const rr_room *room, qstate *q)
{
    uint32_t w;
    if (q->brute)
        return q->wall < q->v.n[S_WALLS] ? q->wall++ : RR_ROO_NONE;
    while (q->wall == RR_ROO_NONE && q->node)
        walk_node(room, q);
    w = q->wall;
    if (w != RR_ROO_NONE)
        q->wall = WALLS(&q->v)[w].next; /* validated: next > w, so lists end */
    return w;
}

static void move_visit(qstate *q, uint32_t i);
static void sight_visit(qstate *q, uint32_t i);

/* Hand every wall of the walk to the query's visitor (direct calls, so the
 * static call graph of tests/check_stack.py stays exact). */
static NOINLINE void visit_walls(const rr_room *room, qstate *q, int brute, int sight)
{
    uint32_t i;
    q->brute = brute || (ROOM(&q->v)->flags & RR_ROO_ROOM_NO_WALL_TREE);
    q->node = q->v.n[S_NODES] ? 1u : 0u;
    q->sp = 0;
    q->wall = q->brute ? 0u : RR_ROO_NONE;
    while ((i = walk_next(room, q)) != RR_ROO_NONE) {
        if (sight)
            sight_visit(q, i);
        else
            move_visit(q, i);
    }
}

/// Movement ///

/* The sidedef of w facing a point on side `side`, or NULL. */
static const rr_roo_sidedef_rec *facing(const view *v, const rr_roo_wall_rec *w, int side)
{
    uint16_t sd = side ? w->pos_sidedef : w->neg_sidedef;
    return sd == RR_ROO_NONE ? 0 : &SIDEDEFS(v)[sd];
}

static int one_sided(const rr_roo_wall_rec *w)
{
    return w->pos_sector == RR_ROO_NONE || w->neg_sector == RR_ROO_NONE;
}

static uint64_t radius2(const mover *m)
{
    return (uint64_t)((int64_t)m->radius * m->radius);
}

/* The point a + t (b - a) of the path p = (ax, ay, bx, by), t in Q16
 * (b - a fits an int32: the path is range-checked). */
static NOINLINE void path_at(const int32_t p[4], int32_t t, int32_t out[2])
{
    out[0] = (int32_t)(p[0] + rr_shr_round64((int64_t)(p[2] - p[0]) * t, 16));
    out[1] = (int32_t)(p[1] + rr_shr_round64((int64_t)(p[3] - p[1]) * t, 16));
}

/* Smallest t (Q16, 1..65536) with the path a .. a + t(b - a) within radius
 * of w, or 0x10001 when the whole path stays out of reach; the predicate
 * grows with t, so bisection is exact on the grid. The first trial is the
 * whole path (path_at gives b exactly for t = 65536). */
static int32_t first_contact(qstate *q, const rr_roo_wall_rec *w)
{
    mover *m = &q->u.m;
    int32_t lo = 0, hi = 0x10001, mid = 0x10000, *pr = m->probe;
    pr[0] = q->seg[0], pr[1] = q->seg[1];
    while (hi - lo > 1) { /* a miss at t = 65536 ends it at once: lo = 65536 */
        path_at(q->seg, mid, pr + 2);
        if (seg_near_wall(pr, w, radius2(m)))
            hi = mid;
        else
            lo = mid;
        mid = lo + (hi - lo) / 2;
    }
    return hi;
}

/* The floor and ceiling of both sectors of a two-sided wall w where the
 * segment q->seg crosses it at c: h[0], h[1] on its + side (pos_sector),
 * h[2], h[3] on its - side. */
static NOINLINE void cross_heights(const qstate *q, const rr_roo_wall_rec *w,
                                   const crossing *c, int32_t h[4])
{
    int32_t x = ratio_lerp(q->seg[0], q->seg[2], c), y = ratio_lerp(q->seg[1], q->seg[3], c);
    floor_ceiling(&q->v, w->pos_sector, x, y, h);
    floor_ceiling(&q->v, w->neg_sector, x, y, h + 2);
}

/* A portal crossing: the block reason, or RR_ROO_FREE. */
static int32_t portal_block(const qstate *q, const rr_roo_wall_rec *w, const crossing *c)
{
    const mover *m = &q->u.m;
    int32_t h[4], *near = c->side ? h : h + 2, *far = c->side ? h + 2 : h;
    cross_heights(q, w, c, h);
    if ((int64_t)far[0] - near[0] > m->step)
        return RR_ROO_STEP;
    if ((int64_t)far[1] - far[0] < m->height)
        return RR_ROO_CEILING;
    if (SECTORS(&q->v)[c->side ? w->neg_sector : w->pos_sector].flags & 0x2000u)
        return RR_ROO_NOMOVE;
    return RR_ROO_FREE;
}

/* A solid wall's contact time (Q16, 0x10001 = none). */
static NOINLINE int32_t solid_event(qstate *q, const rr_roo_wall_rec *w)
{
    /* already touching at A (point-to-segment): no event */
    if (near_seg(wall_line(w), q->seg, radius2(&q->u.m)))
        return 0x10001;
    return first_contact(q, w);
}

/* Keep the earliest event; equal times go to the lower wall index. */
static void keep(qstate *q, uint32_t i, int32_t t, int32_t block, rr_fix stop)
{
    mover *m = &q->u.m;
    rr_roo_move *out = q->out;
    if (t < m->best || (t == m->best && t <= 0x10000 && (int32_t)i < out->wall)) {
        m->best = t;
        out->block = block, out->wall = (int32_t)i, out->fraction = stop;
    }
}

/* A two-sided wall: a block event where the path crosses into a sector it
 * cannot enter. */
static NOINLINE void portal_event(qstate *q, uint32_t i, const rr_roo_wall_rec *w)
{
    crossing c;
    int32_t block;
    if (!cross_wall(q->seg, w, &c))
        return;
    block = portal_block(q, w, &c);
    if (block != RR_ROO_FREE)
        keep(q, i, ratio_fix(&c), block, ratio_fix(&c));
}

static NOINLINE void move_visit(qstate *q, uint32_t i)
{
    const rr_roo_wall_rec *w = &WALLS(&q->v)[i];
    int side = orient(wall_line(w), q->seg) >= 0;
    const rr_roo_sidedef_rec *sd = facing(&q->v, w, side);
    int32_t t;
    if (one_sided(w) || (sd && sd->normal_bitmap && !(sd->flags & 0x4u))) {
        t = solid_event(q, w);
        if (t <= 0x10000)
            keep(q, i, t, RR_ROO_WALL, t - 1);
        return;
    }
    portal_event(q, i, w);
}

/* The arguments are already in q->seg and q->u.m. */
static rr_err can_move(const rr_room *room, qstate *q, int brute)
{
    mover *m = &q->u.m;
    rr_roo_move *out = q->out;
    int32_t xy[2];
    if (!args_ok(q->seg, 4) || m->radius < 0 || !args_ok(&m->radius, 3)) /* radius, step, height */
        return RR_ERR_RANGE;
    m->best = 0x10001;
    out->block = RR_ROO_FREE, out->wall = -1, out->fraction = RR_FIX_ONE;
    q->width = m->radius + ROOM(&q->v)->wall_slack; /* both < 2^29 */
    visit_walls(room, q, brute, 0);
    path_at(q->seg, out->fraction, xy);
    out->x = xy[0], out->y = xy[1];
    return RR_OK;
}

/* Fill the arena state for a move or a sight line (a, b): NULL on a bad
 * room or out. */
static NOINLINE qstate *query_setup(const rr_room *room, void *out, int32_t ax, int32_t ay,
                                    int32_t bx, int32_t by)
{
    qstate *q;
    if (!out || !room || room->format != RR_FMT_ROO)
        return 0;
    q = query_state(room);
    if (get_view(room, &q->v, 0))
        return 0;
    q->seg[0] = ax, q->seg[1] = ay, q->seg[2] = bx, q->seg[3] = by;
    q->out = out;
    return q;
}

rr_err rr_roo_can_move(const rr_room *room, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                       int32_t radius, int32_t step, int32_t height, rr_roo_move *out)
{
    qstate *q = query_setup(room, out, ax, ay, bx, by);
    if (!q)
        return RR_ERR_ARG;
    q->u.m.radius = radius, q->u.m.step = step, q->u.m.height = height;
    return can_move(room, q, 0);
}

rr_err rr_roo_can_move_all(const rr_room *room, int32_t ax, int32_t ay, int32_t bx,
                           int32_t by, int32_t radius, int32_t step, int32_t height,
                           rr_roo_move *out)
{
    qstate *q = query_setup(room, out, ax, ay, bx, by);
    if (!q)
        return RR_ERR_ARG;
    q->u.m.radius = radius, q->u.m.step = step, q->u.m.height = height;
    return can_move(room, q, 1);
}

/* Slide target: S + E * ((B - S) . E) / |E|^2 for the wall direction E,
 * |ratio| reduced below 2^31 as in cross_wall, each coordinate by
 * ratio_lerp from S to S + E (|S| < 2^29, |E| < 2^30: no overflow).
 * |T - S| <= |B - S| < 2^30 (a projection is never longer than the vector),
 * so nothing overflows. */
static NOINLINE void slide_target(const rr_roo_wall_rec *w, int32_t st[4], int32_t bx,
                                  int32_t by)
{
    int32_t sx = st[0], sy = st[1], *t = st + 2; /* S in, T out */
    int32_t ex = w->x1 - w->x0, ey = w->y1 - w->y0;
    int64_t num = (int64_t)(bx - sx) * ex + (int64_t)(by - sy) * ey;
    crossing c;
    c.num = (int64_t)abs64(num), c.den = (int64_t)ex * ex + (int64_t)ey * ey;
    reduce(&c);
    t[0] = sx, t[1] = sy;
    if (c.den == 0 || c.num == 0)
        return; /* no motion along the wall */
    if (num < 0)
        c.num = -c.num;
    t[0] = ratio_lerp(sx, sx + ex, &c);
    t[1] = ratio_lerp(sy, sy + ey, &c);
}

rr_err rr_roo_slide(const rr_room *room, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                    int32_t radius, int32_t step, int32_t height, rr_roo_move *first,
                    rr_roo_move *second)
{
    qstate *q = second ? query_setup(room, first, ax, ay, bx, by) : 0;
    int32_t *st;
    rr_err e;
    if (!q)
        return RR_ERR_ARG;
    q->u.m.radius = radius, q->u.m.step = step, q->u.m.height = height;
    e = can_move(room, q, 0);
    *second = *first;
    if (e || first->block != RR_ROO_WALL)
        return e;
    /* the second leg S -> T, built in place in the arena state */
    st = q->seg;
    st[0] = first->x, st[1] = first->y;
    slide_target(&WALLS(&q->v)[first->wall], st, bx, by);
    if (!args_ok(st + 2, 2))
        return RR_OK; /* cannot slide that far: stay at the first stop */
    q->out = second;
    return can_move(room, q, 0);
}

/// Line of sight ///

/* Does wall w, crossed at c by the sight line a -> b, block it? */
static int sight_blocked(const qstate *q, const rr_roo_wall_rec *w, const crossing *c)
{
    const sighter *s = &q->u.s;
    const rr_roo_sidedef_rec *sd = facing(&q->v, w, c->side);
    int32_t h[4], z;
    if (one_sided(w))
        return 1;
    if (sd && ((sd->normal_bitmap && !(sd->flags & 0x2u)) || (sd->flags & 0x20u)))
        return 1;
    cross_heights(q, w, c, h); /* q->seg is a -> b in 2D */
    z = ratio_lerp(s->a[2], s->b[2], c);
    return z < h[0] || z < h[2] || z > h[1] || z > h[3];
}

static NOINLINE void sight_visit(qstate *q, uint32_t i)
{
    const rr_roo_wall_rec *w = &WALLS(&q->v)[i];
    rr_roo_sight *out;
    crossing c;
    rr_fix t;
    if (!cross_wall(q->seg, w, &c))
        return; /* the common case: out is read only after it */
    out = q->out, t = ratio_fix(&c);
    if (!out->visible && (t > out->fraction || (t == out->fraction && (int32_t)i > out->wall)))
        return;
    if (sight_blocked(q, w, &c))
        out->visible = 0, out->wall = (int32_t)i, out->fraction = t;
}

static rr_err sight(const rr_room *room, const int32_t a[3], const int32_t b[3],
                    rr_roo_sight *out, int brute)
{
    /* the 2D sight line in q->seg (get_view, which cannot fail on an open
       room, now comes before the range check) */
    qstate *q = a && b ? query_setup(room, out, a[0], a[1], b[0], b[1]) : 0;
    if (!q)
        return RR_ERR_ARG;
    if (!args_ok(a, 3) || !args_ok(b, 3))
        return RR_ERR_RANGE;
    out->visible = 1, out->wall = -1, out->fraction = RR_FIX_ONE;
    q->u.s.a = a, q->u.s.b = b;
    q->width = ROOM(&q->v)->wall_slack;
    visit_walls(room, q, brute, 1);
    return RR_OK;
}

rr_err rr_roo_line_of_sight(const rr_room *room, const int32_t a[3], const int32_t b[3],
                            rr_roo_sight *out)
{
    return sight(room, a, b, out, 0);
}

rr_err rr_roo_line_of_sight_all(const rr_room *room, const int32_t a[3], const int32_t b[3],
                                rr_roo_sight *out)
{
    return sight(room, a, b, out, 1);
}

/// Render order ///

rr_err rr_roo_leaf_order(const rr_room *room, int32_t x, int32_t y, uint16_t *out,
                         uint32_t cap, uint32_t *count)
{
    view v;
    uint16_t *stack;
    uint32_t sp = 0, n = 0, node;
    rr_err e = query_view(room, &v, count && (out || cap == 0));
    if (e)
        return e;
    stack = walk_stack(room); /* validated: 2 * (depth + 1) bytes */
    node = v.n[S_NODES] ? 1u : 0u;
    while (node) {
        const rr_roo_node_rec *p = &NODES(&v)[node - 1];
        uint32_t near, far;
        if (p->kind == RR_ROO_NODE_LEAF) {
            if (n < cap)
                out[n] = p->leaf;
            n++;
            node = descend(stack, &sp, 0, 0);
            continue;
        }
        near = node_side(p, x, y) >= 0 ? p->pos : p->neg;
        far = near == p->pos ? p->neg : p->pos;
        node = descend(stack, &sp, near, far);
    }
    *count = n;
    return RR_OK;
}

/// Server grids ///

/* Cell index of (x, y) in a grid of squares of 2^shift coords (row 0 at
 * y = 0), or -1 outside. Shifting is dividing here: x, y >= 0. */
static int32_t cell_of(int32_t x, int32_t y, uint32_t shift, int32_t rows, int32_t cols)
{
    if (x < 0 || y < 0 || (x >> shift) >= cols || (y >> shift) >= rows)
        return -1;
    return (int32_t)((uint32_t)(y >> shift) * (uint32_t)cols + (uint32_t)(x >> shift));
}

rr_err rr_roo_grid_at(const rr_room *room, int32_t x, int32_t y, rr_roo_cell *out)
{
    view v;
    const void *g[4]; /* move, flag, monster, hires (as grid_types) */
    uint32_t k, n;
    int32_t c;
    rr_err e = query_view(room, &v, out != 0);
    if (e)
        return e;
    for (k = 0; k < 4; k++)
        if (rr_section(room, grid_types[k], &g[k], &n) != RR_OK) {
            if (k < 3)
                return RR_ERR_MISSING; /* the hires grid alone is optional */
            g[k] = 0;
        }
    out->move = out->flags = out->monster = 0;
    out->has_grid = out->has_hires = 0;
    out->hires = 0;
    c = cell_of(x, y, room->coord_frac + 10, ROOM(&v)->grid_rows, ROOM(&v)->grid_cols);
    if (c >= 0) {
        out->has_grid = 1;
        out->move = ((const uint8_t *)g[0])[c], out->flags = ((const uint8_t *)g[1])[c];
        out->monster = ((const uint8_t *)g[2])[c];
    }
    c = g[3] ? cell_of(x, y, room->coord_frac + 8, ROOM(&v)->hires_rows, ROOM(&v)->hires_cols) : -1;
    if (c >= 0) {
        out->has_hires = 1;
        out->hires = ((const uint32_t *)g[3])[c];
    }
    return out->has_grid || out->has_hires ? RR_OK : RR_ERR_NOTFOUND;
}

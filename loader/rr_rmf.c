/* rr_rmf.c - RMF room runtime: blob validation, point contents, ray and box
 * traces through the baked brush BSP, entity lookup.
 *
 * Sections are reached through the view rr_open builds (rr__records,
 * rr__count: O(1)), with one typed accessor per section below.
 *
 * Arena layout after the view (sizes from RR_RMF_ARENA in rr_rmf_blob.h):
 *   [0, RR_RMF_WORK_BYTES)  the trace's work (per-query state), at the
 *                           first 8-byte boundary
 *   u32 stamp               the current query's stamp (1..255)
 *   u8  marks[nbrushes]     last query that tested each brush, padded to 4
 *                           (one byte a brush keeps the arena small; every
 *                           255 queries the array is cleared once)
 *   part stack[depth + 1]   tree walk: pending far parts {node, t0, t1}
 * While validating, the arena holds one byte per node instead (its depth).
 *
 * Fixed point: a side test is s = n.p - (dist << 16) in int64 (Q16 coords,
 * |s| < 2^39). Fractions along a trace are Q2.30 from d = s >> 8, so the
 * numerator d * 2^30 stays below 2^62; the result is reported in Q16.16.
 */
#define RR_INTERNAL
#include "rr_int.h"
#include "rr_rmf.h"

#define FRAC_ONE ((int32_t)1 << 30)

/* The loader's tables of the schema in rr_rmf_blob.h. */
RR_FORMAT_SCHEMA(rmf_schema, RR_RMF);

/* The records of each section of an open room: header_of(room),
 * planes_of(room), ... pathnodes_of(room); counts by rr__count. */
RR_SECTION_ACCESSORS(RR_RMF)

/* A room the RMF queries accept: every public function's first check. */
static int is_rmf(const rr_room *room)
{
    return room && room->format == RR_FMT_RMF;
}

/* ---- the arena ------------------------------------------------------------ */

/* A part of the trace waiting to be walked: a node or leaf and the
 * segment [t0, t1] (Q2.30 of the whole trace) that reaches it. */
typedef struct part {
    int32_t node, t0, t1;
} part;

/* The sections a tree walk reads, as plain pointers: read from the view
 * once per query by walk_tree (on its stack) and handed to visit_leaf and
 * trace_brush, which then index a pointer instead of reaching each record
 * through blob + view offset (make bench: rmf.trace). */
typedef struct sections {
    const rr_rmf_node *nodes;
    const rr_rmf_plane *planes;
    const rr_rmf_leaf *leaves;
    const rr_rmf_leafbrush *refs;
    const rr_rmf_brush *brushes;
    const rr_rmf_side *sides;
} sections;

static void sections_of(const rr_room *room, sections *s)
{
    s->nodes = nodes_of(room);
    s->planes = planes_of(room);
    s->leaves = leaves_of(room);
    s->refs = leafbrushes_of(room);
    s->brushes = brushes_of(room);
    s->sides = sides_of(room);
}

/* Per-query state, filled once (like Quake III's traceWork_t). It lives in
 * the arena, not on the C stack (Cortex-M0 keeps every 64-bit temporary in
 * memory; the stack bound is 512 bytes). */
typedef struct work {
    int32_t start[3], end[3], half[3];
    int32_t lo[3], hi[3];      /* swept bounds (coords), widened by the epsilon;
                                  the box of a box query */
    uint8_t *seen;             /* the brush stamps */
    uint32_t cur;              /* this query's stamp */
    rr_rmf_list *list;         /* a box query's list; NULL for a trace */
    int64_t eps_s;             /* clip epsilon in side units (Q16 coords) */
    int32_t eps_d;             /* ... in fraction units (side >> 8) */
    int32_t eps;               /* ... in coords */
    int32_t margin;            /* eps + 1 coord: widening of the swept box */
    uint32_t mask;
    int32_t best;              /* Q2.30 fraction of the nearest hit */
    int32_t plane, brush;
    uint8_t start_solid, all_solid;
} work;
/* The work is placed at the arena's first 8-byte boundary (the arena is
 * only 4-byte aligned; pointers and int64 may need 8): 4 bytes of slack. */
typedef char rr__rmf_work_fits[(4 + sizeof(work) <= RR_RMF_WORK_BYTES) ? 1 : -1];

static work *work_of(const rr_room *room)
{
    uintptr_t at = ((uintptr_t)room->arena + 7u) & ~(uintptr_t)7u;
    return (work *)(void *)at;
}

static uint32_t *stamp_of(const rr_room *room)
{
    return (uint32_t *)(void *)(room->arena + RR_RMF_WORK_BYTES);
}

static uint8_t *marks_of(const rr_room *room)
{
    return room->arena + RR_RMF_WORK_BYTES + 4;
}

static part *stack_of(const rr_room *room)
{
    uint32_t marks = (rr__count(room, RR_RMF_S_brushes) + 3u) & ~3u;
    return (part *)(void *)(marks_of(room) + marks);
}

/* No brush seen yet (at open, and when the stamp wraps). */
static __attribute__((noinline)) void clear_marks(const rr_room *room)
{
    uint8_t *seen = marks_of(room);
    uint32_t i, n = rr__count(room, RR_RMF_S_brushes);
    for (i = 0; i < n; i++)
        seen[i] = 0;
}

/* ---- validation ------------------------------------------------------------
 * rr__schema_open has checked every field the schema can (indices, runs,
 * strings, coordinate ranges, zero pads, the header count); what follows
 * are the checks that need more than one field. Each is out of line so that
 * rr__rmf_validate's own frame stays small: its call of rr__schema_open is
 * the deepest chain of rr_open on Cortex-M0 (512-byte stack bound). */

/* The tree depth, then the declared arena against what the queries (and the
 * tree check below) will use. */
static __attribute__((noinline)) rr_err check_arena(const rr_room *room, rr_diag *diag)
{
    const rr_rmf_header *h = header_of(room);
    const rr_blob_header *bh = (const rr_blob_header *)(const void *)room->blob;
    uint32_t view = RR_VIEW_BYTES(rmf_schema.nsections), need;
    /* rr_open has checked max_depth <= RR_MAX_DEPTH (64): a node's depth
     * fits the byte check_nodes keeps for it. */
    if (h->tree_depth > room->max_depth)
        return rr__fail(room, diag, RR_ERR_DEPTH, &h->tree_depth, "tree depth", h->tree_depth,
                        room->max_depth);
    /* No overflow: records of 12 bytes or more in a blob of < 2^32 bytes
     * make both counts < 2^29. */
    need = RR_RMF_ARENA(rr__count(room, RR_RMF_S_brushes), h->tree_depth,
                        rr__count(room, RR_RMF_S_nodes));
    if (room->arena_need < need)
        return rr__fail(room, diag, RR_ERR_ARENA, &bh->arena, "declared arena bytes", bh->arena,
                        view + need);
    return RR_OK;
}

/* Worldspawn exists; the root is node 0 or a leaf. */
static __attribute__((noinline)) rr_err check_header(const rr_room *room, rr_diag *diag)
{
    const rr_rmf_header *h = header_of(room);
    uint32_t nnodes = rr__count(room, RR_RMF_S_nodes), nleaves = rr__count(room, RR_RMF_S_leaves);
    if (rr__count(room, RR_RMF_S_entities) == 0)
        return rr__fail_in(diag, RR_ERR_MISSING, RR_SEC_RMF_ENTITIES,
                           room->view[RR_RMF_S_entities].offset, "worldspawn entity", 0, 1);
    if (h->root >= 0 && (h->root != 0 || nnodes == 0))
        return rr__fail(room, diag, RR_ERR_INDEX, &h->root, "root node must be node 0",
                        (uint32_t)h->root, nnodes);
    if (h->root < 0 && (uint32_t)(-1 - h->root) >= nleaves)
        return rr__fail(room, diag, RR_ERR_INDEX, &h->root, "root leaf", (uint32_t)(-1 - h->root),
                        nleaves);
    return RR_OK;
}

/* A plane's type and signbits agree with its normal (|normal[k]| <= 1: the
 * schema checked it). */
static __attribute__((noinline)) rr_err check_planes(const rr_room *room, rr_diag *diag)
{
    const rr_rmf_plane *planes = planes_of(room);
    uint32_t i, k, n = rr__count(room, RR_RMF_S_planes);
    for (i = 0; i < n; i++) {
        const rr_rmf_plane *p = &planes[i];
        uint32_t signbits = 0, type = 3;
        for (k = 0; k < 3; k++) {
            if (p->normal[k] < 0)
                signbits |= 1u << k;
            if (p->normal[k] == RR_FIX_ONE || p->normal[k] == -RR_FIX_ONE)
                type = k;
        }
        if (p->type != type)
            return rr__fail(room, diag, RR_ERR_RANGE, &p->type, "plane type", p->type, type);
        if (p->signbits != signbits)
            return rr__fail(room, diag, RR_ERR_RANGE, &p->signbits, "plane signbits",
                            p->signbits, signbits);
    }
    return RR_OK;
}

/* Every brush has a side (a brush without sides would contain every point)
 * and bounds with mins <= maxs. Its first six sides are its axial ones, one
 * per axis and direction, each one coord inside its bounds (+axis a at
 * maxs[a] - 1, -axis a at -(mins[a] + 1)), as the baker writes them: the
 * queries test these six against the bounds (axial_outside) instead of
 * reaching each through its plane. */
static __attribute__((noinline)) rr_err check_brushes(const rr_room *room, rr_diag *diag)
{
    const rr_rmf_brush *brushes = brushes_of(room);
    const rr_rmf_side *sides = sides_of(room);
    const rr_rmf_plane *planes = planes_of(room);
    uint32_t i, k, n = rr__count(room, RR_RMF_S_brushes);
    for (i = 0; i < n; i++) {
        const rr_rmf_brush *b = &brushes[i];
        uint32_t seen = 0;
        if (b->nsides == 0)
            return rr__fail(room, diag, RR_ERR_INDEX, &b->nsides, "brush without sides", 0, 1);
        for (k = 0; k < 3; k++)
            if (b->mins[k] > b->maxs[k])
                return rr__fail(room, diag, RR_ERR_RANGE, &b->mins[k], "brush bounds",
                                (uint32_t)b->mins[k], (uint32_t)b->maxs[k]);
        if (b->nsides < 6)
            return rr__fail(room, diag, RR_ERR_RANGE, &b->nsides, "brush sides (six axial ones)",
                            b->nsides, 6);
        for (k = 0; k < 6; k++) {
            const rr_rmf_side *sd = &sides[b->first_side + k];
            const rr_rmf_plane *p = &planes[sd->plane];
            uint32_t a = p->type, neg, bit;
            int32_t want;
            if (a > 2)
                return rr__fail(room, diag, RR_ERR_RANGE, &sd->plane,
                                "brush side k < 6 must be axial", k, 6);
            neg = p->normal[a] < 0, bit = 1u << (2 * a + neg);
            want = neg ? -(b->mins[a] + 1) : b->maxs[a] - 1;
            if ((seen & bit) || p->dist != want)
                return rr__fail(room, diag, RR_ERR_RANGE, &sd->plane,
                                "axial side one coord inside the brush bounds",
                                (uint32_t)p->dist, (uint32_t)want);
            seen |= bit;
        }
    }
    return RR_OK;
}

/* Child k of node i: a leaf, or a later node seen for the first time whose
 * depth stays within the declared tree depth. */
static rr_err check_child(const rr_room *room, rr_diag *diag, uint8_t *depth, uint32_t i,
                          uint32_t k)
{
    const int32_t *at = &nodes_of(room)[i].child[k];
    uint32_t nnodes = rr__count(room, RR_RMF_S_nodes);
    uint32_t tree_depth = header_of(room)->tree_depth;
    if (*at < 0) {
        uint32_t leaf = (uint32_t)(-1 - *at), nleaves = rr__count(room, RR_RMF_S_leaves);
        if (leaf >= nleaves)
            return rr__fail(room, diag, RR_ERR_INDEX, at, "leaf child", leaf, nleaves);
        return RR_OK;
    }
    if ((uint32_t)*at <= i)
        return rr__fail(room, diag, RR_ERR_CYCLE, at, "child node must follow its parent",
                        (uint32_t)*at, i);
    if ((uint32_t)*at >= nnodes)
        return rr__fail(room, diag, RR_ERR_INDEX, at, "child node", (uint32_t)*at, nnodes);
    if (depth[*at] != 0)
        return rr__fail(room, diag, RR_ERR_CYCLE, at, "node with two parents", (uint32_t)*at, 0);
    if (depth[i] + 1u > tree_depth)
        return rr__fail(room, diag, RR_ERR_DEPTH, at, "node depth", depth[i] + 1u, tree_depth);
    depth[*at] = (uint8_t)(depth[i] + 1u);
    return RR_OK;
}

/* Nodes in index order: every child comes later and has one parent, so the
 * tree has no cycle and each node's depth is known before its children's.
 * depth: one byte per node (0 = not reached yet; node 0 is the root). */
static __attribute__((noinline)) rr_err check_nodes(const rr_room *room, rr_diag *diag, uint8_t *depth)
{
    const rr_rmf_node *nodes = nodes_of(room);
    const rr_rmf_plane *planes = planes_of(room);
    uint32_t i, k, n = rr__count(room, RR_RMF_S_nodes);
    rr_err e;
    for (i = 0; i < n; i++)
        depth[i] = 0;
    if (n)
        depth[0] = 1;
    for (i = 0; i < n; i++) {
        const rr_rmf_node *nd = &nodes[i];
        const rr_rmf_plane *p = &planes[nd->plane];
        if (!depth[i])
            return rr__fail(room, diag, RR_ERR_INDEX, nd, "unreachable node", i, 0);
        if (p->type > 2 || p->normal[p->type] != RR_FIX_ONE)
            return rr__fail(room, diag, RR_ERR_RANGE, &nd->plane,
                            "node plane must be axial and positive", nd->plane, p->type);
        for (k = 0; k < 2; k++)
            if ((e = check_child(room, diag, depth, i, k)) != RR_OK)
                return e;
    }
    return RR_OK;
}

/* The schema first (it writes the view at the start of the arena and moves
 * room->arena past it), then the checks above; the node depths use the
 * arena after the view, which check_arena has shown is big enough. */
RR_VALIDATION rr_err rr__rmf_validate(rr_room *room, rr_diag *diag)
{
    rr_err e = rr__schema_open(room, &rmf_schema, diag);
    if (!e)
        e = check_arena(room, diag);
    if (!e)
        e = check_header(room, diag);
    if (!e)
        e = check_planes(room, diag);
    if (!e)
        e = check_brushes(room, diag);
    if (!e)
        e = check_nodes(room, diag, room->arena);
    if (e)
        return e;
    *stamp_of(room) = 0;
    clear_marks(room);
    return RR_OK;
}

/* ---- points -------------------------------------------------------------- */

/* n.v - dist of a side that is not axial (type 3), in side units (Q16
 * coords). Both callers test an axial side in 32 bits themselves (see
 * brush_contains and trace_brush), so it never comes here. */
static __attribute__((noinline)) int64_t side_dist(const rr_rmf_plane *p, const int32_t v[3])
{
    return (int64_t)p->normal[0] * v[0] + (int64_t)p->normal[1] * v[1] +
           (int64_t)p->normal[2] * v[2] - (int64_t)p->dist * 65536;
}

/* Whether the box v +- half lies in front of one of brush b's six axial
 * sides by more than `by` coords (the sides' own test is s > by, s the
 * box's distance in front: by = 0 for "in front", -1 for "on or in
 * front"). rr_open checked that these are the brush's first six sides, one
 * coord inside its bounds, so each is a compare with a bound: +axis a has
 * s = v - half - (maxs[a] - 1), -axis a has s = (mins[a] + 1) - (v + half). */
static int axial_outside(const rr_rmf_brush *b, const int32_t v[3], const int32_t half[3],
                         int32_t by)
{
    int k;
    for (k = 0; k < 3; k++)
        if (v[k] - half[k] - (b->maxs[k] - 1) > by || b->mins[k] + 1 - (v[k] + half[k]) > by)
            return 1;
    return 0;
}

static const int32_t no_half[3] = {0, 0, 0};

/* p is on or behind every side of b. An axial side (type < 3: its normal is
 * exactly +-1 on that axis, checked at open) has side_dist 65536 (+-v -
 * dist), so its test is the 32-bit +-v > dist (|v|, |dist| <= 2^21); only
 * the other sides take the 64-bit side_dist (out of line: one copy). */
static int brush_contains(const rr_rmf_plane *planes, const rr_rmf_side *sides,
                          const rr_rmf_brush *b, const int32_t p[3])
{
    uint32_t i;
    if (axial_outside(b, p, no_half, 0))
        return 0;
    sides += b->first_side;
    for (i = 6; i < b->nsides; i++) {
        const rr_rmf_plane *pl = &planes[sides[i].plane];
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

/* The index of the leaf containing p: at each node, the front child when p
 * is on or in front of its plane, else the back one. Out of line, so that
 * the descent indexes the pointers it is given (inlined into point_query,
 * GCC rebuilds blob + offset + index at every node). */
static __attribute__((noinline)) uint32_t find_leaf(const rr_rmf_node *nodes,
                                                    const rr_rmf_plane *planes, int32_t root,
                                                    const int32_t p[3])
{
    int32_t n = root;
    while (n >= 0) {
        const rr_rmf_node *nd = &nodes[n];
        const rr_rmf_plane *pl = &planes[nd->plane];
        n = p[pl->type] >= pl->dist ? nd->child[0] : nd->child[1];
    }
    return (uint32_t)(-1 - n);
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
    const rr_rmf_plane *planes;
    const rr_rmf_side *sides;
    const rr_rmf_brush *brushes;
    const rr_rmf_leaf *lf;
    const rr_rmf_leafbrush *refs;
    uint32_t i, acc = 0;
    if (!is_rmf(room))
        return RR_ERR_ARG;
    if (!pair_ok(p, p, -RR_RMF_MAX_COORD))
        return p ? RR_ERR_RANGE : RR_ERR_ARG;
    planes = planes_of(room);
    sides = sides_of(room);
    brushes = brushes_of(room);
    lf = &leaves_of(room)[find_leaf(nodes_of(room), planes, header_of(room)->root, p)];
    refs = leafbrushes_of(room) + lf->first;
    if (list)
        list->count = list->total = 0;
    for (i = 0; i < lf->count; i++) {
        uint32_t b = refs[i].brush;
        if (brush_contains(planes, sides, &brushes[b], p)) {
            acc |= brushes[b].contents;
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

/* floor(n 2^30 / d) for 0 < n < d <= 2^22, and whether it is exact, by
 * long division in three 32-bit steps of 10 bits (the remainder stays
 * below d, so shifted by 10 it stays below 2^32). Each step is one divide
 * instruction on the Cortex-M3 and MIPS32, where a 64-bit division is a
 * library call; the trace's axial sides and tree splits always come here
 * (their d is the difference of two coordinates within +-2^21). */
static uint32_t frac30_small(uint32_t n, uint32_t d, int *exact)
{
    uint32_t q, r = n << 10;
    q = r / d, r = r % d << 10;
    q = q << 10 | r / d, r = r % d << 10;
    q = q << 10 | r / d;
    *exact = r % d == 0;
    return q;
}

/* n 2^30 / d rounded up when up, else down, clamped to [lo, hi] (0 <= lo,
 * hi <= FRAC_ONE), for |n| < 2^24, |d| <= 2^22: the trace's axial sides
 * (|n| < 3 2^21 + eps, |d| = |end - start|) and the tree walk's clip fractions (rounded
 * outward). The callers pass the range of fractions that can still change
 * their answer (the part being split, the brush's latest entry and earliest
 * exit so far, the nearest hit), and the clamps are tested first with
 * 32 x 32-bit products t.d: most fractions asked for fall outside that
 * range, and a division costs more than the products. */
static __attribute__((noinline)) int32_t solve_t(int32_t n, int32_t d, int up, int32_t lo,
                                                 int32_t hi)
{
    int64_t num;
    uint32_t q;
    int exact;
    if (lo >= hi)
        return lo;
    if (d < 0)
        n = -n, d = -d;   /* the same quotient, now over d > 0 */
    num = (int64_t)n * FRAC_ONE;
    /* Rounded down, num / d < lo + 1 gives lo; rounded up, num / d <= lo. */
    if (up ? num <= (int64_t)lo * d : num < (int64_t)(lo + 1) * d)
        return lo;
    /* Rounded down, num / d >= hi gives hi; rounded up, num / d > hi - 1. */
    if (up ? num > (int64_t)(hi - 1) * d : num >= (int64_t)hi * d)
        return hi;
    /* Here num > lo.d >= 0 and num / d < hi <= 2^30: 0 < n < d. */
    q = frac30_small((uint32_t)n, (uint32_t)d, &exact);
    return (int32_t)(q + (up && !exact));
}

/* The same for a side that is not axial, in 64 bits: n = d1 -+ eps and d =
 * d1 - d2 from d = s >> 8 (|d| < 2^31), so n 2^30 stays below 2^62 and the
 * products t.d (|t| <= 2^30) below 2^62; rounded down. */
static __attribute__((noinline)) int32_t solve_t64(int64_t n, int64_t d, int32_t lo, int32_t hi)
{
    int64_t num;
    if (lo >= hi)
        return lo;
    if (d < 0)
        n = -n, d = -d;
    num = n * FRAC_ONE;
    if (num < (lo + 1) * d)
        return lo;
    if (num >= hi * d)
        return hi;
    return (int32_t)(num / d);   /* num > lo.d >= 0: C's truncation is the floor */
}

/* The trace's two ends against a side that is not axial, box offset
 * included, in side units (kept out of line so its 64-bit temporaries do
 * not sit in trace_brush's frame). */
static __attribute__((noinline)) int64_t slanted_pair(const work *w, const rr_rmf_plane *p,
                                                      int64_t *s2)
{
    int64_t off = box_offset(p, w->half);
    *s2 = side_dist(p, w->end) - off;
    return side_dist(p, w->start) - off;
}

/* After a hit at fraction best, only a brush the box reaches before best
 * can change the answer: the swept bounds [lo, hi] shrink to the box swept
 * over [0, best] (the point at best rounded away from the start), widened
 * by the same margin, so that the rest of the walk rejects by bounds the
 * nodes and brushes beyond it. A brush whose clipped entry is before best
 * has the box, at that entry, within eps of each of its axial sides, so
 * within its bounds grown by the margin: it is never rejected. */
static __attribute__((noinline)) void shrink_bounds(work *w)
{
    int k;
    for (k = 0; k < 3; k++) {
        int32_t a = w->start[k], b = w->end[k];
        uint32_t d = b < a ? (uint32_t)a - (uint32_t)b : (uint32_t)b - (uint32_t)a;
        int32_t m = (int32_t)(((uint64_t)d * (uint32_t)w->best + (FRAC_ONE - 1)) >> 30);
        int32_t q = b < a ? a - m : a + m;
        w->lo[k] = (a < q ? a : q) - w->half[k] - w->margin;
        w->hi[k] = (a < q ? q : a) + w->half[k] + w->margin;
    }
}

/* Whether the box starts inside brush b: behind every side (s1 < 0), in
 * the same side distances as trace_brush below (the six axial sides from
 * the bounds, any later axial side in 32-bit coords, any other in side
 * units). If so, *end_out tells whether it ends in front of some side
 * (s2 > 0). */
static int starts_inside(const work *w, const sections *s, const rr_rmf_brush *b,
                         int *end_out)
{
    const rr_rmf_side *sides = s->sides + b->first_side;
    uint32_t i;
    int out;
    if (axial_outside(b, w->start, w->half, -1))
        return 0;
    out = axial_outside(b, w->end, w->half, 0);
    for (i = 6; i < b->nsides; i++) {
        const rr_rmf_plane *p = &s->planes[sides[i].plane];
        if (p->type < 3) {
            int a = p->type;
            int32_t c1 = w->start[a], c2 = w->end[a], off = p->dist + w->half[a];
            if (p->normal[a] < 0)
                c1 = -c1, c2 = -c2;
            if (c1 >= off)
                return 0;
            out |= c2 > off;
        } else {
            int64_t s2, s1 = slanted_pair(w, p, &s2);
            if (s1 >= 0)
                return 0;
            out |= s2 > 0;
        }
    }
    *end_out = out;
    return 1;
}

/* Quake III's CM_TraceThroughBrush in fixed point. A brush that contains
 * the start blocks only a trace that ends inside it too (all_solid); one
 * that ends outside it gets out freely (start_solid only). Which of these
 * holds is found first, from the two ends alone (starts_inside): a start
 * inside needs no fraction at all, and for a start outside, the early outs
 * below hold from the first side on.
 *
 * A start exactly on a side (s1 == 0: a box resting on a floor) counts as
 * outside, so moving into the brush stops at once; in Quake III such a
 * start is "inside", and a long trace that ends beyond a thin brush would
 * then pass through it.
 *
 * Each side gives the two ends' signed distances s1, s2 (box offset
 * included) and, when the trace crosses it, the fraction (s1 -+ eps) /
 * (s1 - s2) in Q2.30, in one of two exact scales:
 *  - an axial side (normal exactly +-1 on axis a, checked at open; the
 *    baker puts these first in every brush) in coords: s = +-v[a] - dist -
 *    half[a], 32-bit sums (|s| < 2^23), no products;
 *  - any other side in side units (Q16 coords, 64-bit), its fraction from
 *    d = s >> 8 so that the numerator (d1 -+ eps) 2^30 stays below 2^62.
 * The same side in side units is exactly 65536 times its coords, and the
 * fraction's d exactly 256 times, so both scales give the same answers.
 *
 * One function of 71 lines, over STYLE's 60, on purpose: the two kinds of
 * side as inline helpers over a span struct (session 14) gave the same
 * answers but cost MIPS 4-7 instructions a trace (GCC allocates the loop's
 * registers differently), so the trace's kernel stays whole. */
static __attribute__((noinline)) void trace_brush(work *w, const sections *s, uint32_t bi)
{
    const rr_rmf_brush *b = &s->brushes[bi];
    const rr_rmf_side *sides = s->sides + b->first_side;
    const rr_rmf_plane *planes = s->planes;
    int32_t enter = -FRAC_ONE, clip = -1;
    int32_t ln = 1, ld = 1;   /* the earliest exit so far, ln / ld (ld > 0) */
    uint32_t i;
    int end_out;
    if (starts_inside(w, s, b, &end_out)) {
        w->start_solid = 1;
        if (!end_out)
            w->all_solid = 1, w->best = 0, w->brush = (int32_t)bi, w->plane = -1;
        return;
    }
    for (i = 0; i < b->nsides; i++) {
        uint32_t pi = sides[i].plane;
        const rr_rmf_plane *p = &planes[pi];
        int32_t f;
        if (p->type < 3) {
            int a = p->type;
            int32_t c1 = w->start[a], c2 = w->end[a], off = p->dist + w->half[a];
            if (p->normal[a] < 0)
                c1 = -c1, c2 = -c2;
            c1 -= off, c2 -= off;
            if (c1 >= 0 && (c2 >= w->eps || c2 >= c1))
                return;                   /* wholly in front of this side */
            if (c1 < 0 && c2 <= 0)
                continue;                 /* wholly behind it */
            if (c1 > c2) {
                /* Entering: stop eps in front. Only an entry later than
                 * the latest so far counts, and one at or past the nearest
                 * hit ends this brush (below), so the fraction is needed
                 * only within [enter, best]. */
                f = solve_t(c1 - w->eps, c1 - c2, 0, enter > 0 ? enter : 0, w->best);
                if (f > enter)
                    enter = f, clip = (int32_t)pi;
            } else if ((int64_t)-(c1 + w->eps) * ld < (int64_t)ln * (c2 - c1)) {
                /* Leaving at (c1 + eps) / (c1 - c2), earlier than the
                 * earliest exit so far (products below 2^47). */
                ln = -(c1 + w->eps), ld = c2 - c1;
            }
        } else {
            int64_t s2, s1 = slanted_pair(w, p, &s2), d1 = shr8(s1), den = d1 - shr8(s2);
            if (s1 >= 0 && (s2 >= w->eps_s || s2 >= s1))
                return;
            if (s1 < 0 && s2 <= 0)
                continue;
            if (den == 0)
                den = -1;                 /* d1 == d2: the fraction counts as -1 */
            if (s1 > s2) {
                f = solve_t64(d1 - w->eps_d, den, enter > 0 ? enter : 0, w->best);
                if (f > enter)
                    enter = f, clip = (int32_t)pi;
            } else {
                /* Its exit as f / 2^30, f clamped to [0, 1] (products
                 * below 2^61) */
                f = solve_t64(d1 + w->eps_d, den, 0, FRAC_ONE);
                if ((int64_t)f * ld < (int64_t)ln * FRAC_ONE)
                    ln = f, ld = FRAC_ONE;
            }
        }
        /* Enter only grows and the exit only shrinks: a brush entered no
         * earlier than it is left (the entry's floor at least the exit's,
         * both in Q2.30: (enter + 1) / 2^30 > ln / ld), or no nearer than
         * the nearest hit so far, can no longer count. */
        if (enter >= w->best || (enter >= 0 && (int64_t)ln * FRAC_ONE < (int64_t)(enter + 1) * ld))
            return;
    }
    if (enter > -FRAC_ONE && enter < w->best) {
        w->best = enter < 0 ? 0 : enter, w->plane = clip, w->brush = (int32_t)bi;
        shrink_bounds(w);
    }
}

static int bounds_overlap(const rr_rmf_brush *b, const int32_t lo[3], const int32_t hi[3])
{
    return b->mins[0] <= hi[0] && b->maxs[0] >= lo[0] && b->mins[1] <= hi[1] &&
           b->maxs[1] >= lo[1] && b->mins[2] <= hi[2] && b->maxs[2] >= lo[2];
}

/* A new stamp: brushes stamped with it were seen by this query. */
static uint32_t next_stamp(const rr_room *room)
{
    uint32_t *stamp = stamp_of(room);
    if (++*stamp > 255u) {
        clear_marks(room);
        *stamp = 1;
    }
    return *stamp;
}

/* The brushes of one leaf not seen yet in this query that overlap [lo, hi]:
 * into the list (a box query) or to trace_brush. */
static __attribute__((noinline)) void visit_leaf(work *w, const sections *s, int32_t n)
{
    const rr_rmf_leaf *lf = &s->leaves[-1 - n];
    const rr_rmf_leafbrush *ref = s->refs + lf->first, *end = ref + lf->count;
    const rr_rmf_brush *brushes = s->brushes;
    uint8_t *seen = w->seen, cur = (uint8_t)w->cur;
    for (; ref < end; ref++) {
        uint32_t b = ref->brush;
        if (seen[b] == cur)
            continue;
        /* Stamped whether or not it overlaps: [lo, hi] only shrinks during
         * a query (shrink_bounds), so a brush outside it stays outside. */
        seen[b] = cur;
        if (!bounds_overlap(&brushes[b], w->lo, w->hi))
            continue;
        if (w->list)
            list_add(w->list, b);
        else if (brushes[b].contents & w->mask)
            trace_brush(w, s, b);
    }
}

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
        p->t1 = solve_t(d > 0 ? x + r : x - r, d, 1, 0, t1);
        far->t0 = solve_t(d > 0 ? x - r : x + r, d, 0, t0, FRAC_ONE);
    }
    return 1;
}

/* Quake III's CM_TraceThroughTree without recursion: the far part of each
 * split waits on the arena stack; a part starting beyond the nearest hit so
 * far is dropped. The box query walks here too (its parts all span [0, 1],
 * it never hits: best stays 1, all_solid 0). The caller has filled the
 * rest of the work; the walk takes a new brush stamp and the section
 * pointers here, one copy for both queries. */
static __attribute__((noinline)) void walk_tree(const rr_room *room, work *w)
{
    part *stack = stack_of(room);   /* {node, t0, t1} per level */
    sections s;
    uint32_t sp = 0;
    part p;
    w->seen = marks_of(room);
    w->cur = next_stamp(room);
    sections_of(room, &s);
    p.node = header_of(room)->root, p.t0 = 0, p.t1 = FRAC_ONE;
    for (;;) {
        while (p.node >= 0 && p.t0 <= w->best) {
            const rr_rmf_node *nd = &s.nodes[p.node];
            const rr_rmf_plane *pl = &s.planes[nd->plane];
            /* Most nodes a query meets lie wholly beside its swept box
             * [lo, hi] (the whole trace, not only this part): then the part
             * goes on whole to the one child it reaches, which is what
             * split_segment would find, without its 64-bit arithmetic. */
            if (w->hi[pl->type] < pl->dist)
                p.node = nd->child[1];
            else if (w->lo[pl->type] > pl->dist)
                p.node = nd->child[0];
            else
                sp += (uint32_t)split_segment(w, nd, pl, &p, &stack[sp]);
        }
        if (p.node < 0 && p.t0 <= w->best)
            visit_leaf(w, &s, p.node);
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

/* The trace's work, and its one range check: 0 when an end lies outside
 * +-RR_RMF_MAX_COORD or a half extent outside [0, RR_RMF_MAX_COORD] (v in
 * [-max, max] <=> v + max in [0, 2 max], unsigned). */
static __attribute__((noinline)) int init_work(const rr_room *room, work *w,
                                               const int32_t start[3], const int32_t end[3],
                                               const int32_t half[3], uint32_t mask)
{
    /* the clip epsilon: 2^-RR_RMF_CLIP_SHIFT units, at least 1 coord */
    int32_t eps = ((int32_t)1 << room->coord_frac) >> RR_RMF_CLIP_SHIFT;
    const uint32_t max = RR_RMF_MAX_COORD;
    int k;
    if (eps < 1)
        eps = 1;
    w->eps_s = (int64_t)eps * 65536;
    w->eps_d = eps << 8;
    w->eps = eps;
    w->margin = eps + 1;
    w->mask = mask;
    w->list = 0;
    w->best = FRAC_ONE;
    w->plane = w->brush = -1;
    w->start_solid = w->all_solid = 0;
    for (k = 0; k < 3; k++) {
        int32_t h = half ? half[k] : 0, a = start[k], b = end[k];
        if ((uint32_t)a + max > 2u * max || (uint32_t)b + max > 2u * max || (uint32_t)h > max)
            return 0;
        w->start[k] = a, w->end[k] = b, w->half[k] = h;
        w->lo[k] = (a < b ? a : b) - h - w->margin;
        w->hi[k] = (a < b ? b : a) + h + w->margin;
    }
    return 1;
}

rr_err rr_rmf_trace(const rr_room *room, const int32_t start[3], const int32_t end[3],
                    const int32_t half[3], uint32_t mask, rr_rmf_trace_result *out)
{
    work *w;
    int k;
    if (!is_rmf(room) || !out || !start || !end)
        return RR_ERR_ARG;
    w = work_of(room);
    if (!init_work(room, w, start, end, half, mask))
        return RR_ERR_RANGE;
    walk_tree(room, w);
    out->fraction = w->best >> 14;
    for (k = 0; k < 3; k++)
        out->end[k] = move_along(start[k], end[k], w->best);   /* best = 1: end exactly */
    out->plane = w->plane;
    out->brush = w->brush;
    out->normal.x = out->normal.y = out->normal.z = 0;
    if (w->plane >= 0) {
        const rr_rmf_plane *p = &planes_of(room)[w->plane];
        out->normal.x = p->normal[0], out->normal.y = p->normal[1], out->normal.z = p->normal[2];
    }
    out->contents = w->brush >= 0 ? brushes_of(room)[w->brush].contents : 0;
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
    if (!is_rmf(room) || !list || (list->max && !list->items))
        return RR_ERR_ARG;
    if (!pair_ok(mins, maxs, -RR_RMF_MAX_COORD))
        return RR_ERR_RANGE;
    w = work_of(room);
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
    if (!is_rmf(room) || !out)
        return RR_ERR_ARG;
    out->planes = rr__count(room, RR_RMF_S_planes);
    out->sides = rr__count(room, RR_RMF_S_sides);
    out->brushes = rr__count(room, RR_RMF_S_brushes);
    out->nodes = rr__count(room, RR_RMF_S_nodes);
    out->leaves = rr__count(room, RR_RMF_S_leaves);
    out->entities = rr__count(room, RR_RMF_S_entities);
    out->keyvalues = rr__count(room, RR_RMF_S_keyvalues);
    out->cameras = rr__count(room, RR_RMF_S_cameras);
    out->paths = rr__count(room, RR_RMF_S_paths);
    out->version = header_of(room)->version;
    out->tree_depth = header_of(room)->tree_depth;
    return RR_OK;
}

/* The record getters share one body: record i of section slot k, whose
 * record size the schema gives. */
static __attribute__((noinline)) rr_err get_record(const rr_room *room, uint32_t k, uint32_t i,
                                                  const void **out)
{
    if (!is_rmf(room) || !out)
        return RR_ERR_ARG;
    if (i >= rr__count(room, k))
        return RR_ERR_NOTFOUND;
    *out = (const uint8_t *)rr__records(room, k) + i * rmf_schema_sections[k].elem;
    return RR_OK;
}

#define GETTER(fn, T, slot)                                                   \
    rr_err fn(const rr_room *room, uint32_t i, const T **out)                 \
    {                                                                         \
        return get_record(room, slot, i, (const void **)(void *)out);         \
    }
GETTER(rr_rmf_get_plane, rr_rmf_plane, RR_RMF_S_planes)
GETTER(rr_rmf_get_brush, rr_rmf_brush, RR_RMF_S_brushes)
GETTER(rr_rmf_get_entity, rr_rmf_entity, RR_RMF_S_entities)
GETTER(rr_rmf_get_keyvalue, rr_rmf_keyvalue, RR_RMF_S_keyvalues)
GETTER(rr_rmf_get_camera, rr_rmf_camera, RR_RMF_S_cameras)
GETTER(rr_rmf_get_path, rr_rmf_path, RR_RMF_S_paths)
GETTER(rr_rmf_get_pathnode, rr_rmf_pathnode, RR_RMF_S_pathnodes)

const char *rr_rmf_entity_value(const rr_room *room, uint32_t i, const char *key)
{
    const rr_rmf_entity *en;
    if (!is_rmf(room) || !key || i >= rr__count(room, RR_RMF_S_entities))
        return 0;
    en = &entities_of(room)[i];
    return rr__kv_value(room, keyvalues_of(room) + en->first_kv, en->nkv, key);
}

/* The key is classified once: classname and targetname are entity fields,
 * any other key is looked up among the key/values. */
rr_err rr_rmf_find_entity(const rr_room *room, const char *key, const char *value,
                          uint32_t from, uint32_t *index)
{
    uint32_t i, n;
    int field;
    if (!is_rmf(room) || !key || !value || !index)
        return RR_ERR_ARG;
    n = rr__count(room, RR_RMF_S_entities);
    field = rr__str_eq(key, "classname") ? 1 : rr__str_eq(key, "targetname") ? 2 : 0;
    for (i = from; i < n; i++) {
        const rr_rmf_entity *en = &entities_of(room)[i];
        const char *v = field ? rr_string(room, field == 1 ? en->classname : en->targetname)
                              : rr_rmf_entity_value(room, i, key);
        if (v && rr__str_eq(v, value)) {
            *index = i;
            return RR_OK;
        }
    }
    return RR_ERR_NOTFOUND;
}

/* rrb_roo_bake.c - .roo model -> RR_FMT_ROO blob (layout and the coordinate /
 * coefficient rules: loader/rr_roo_blob.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/rr_limits.h"
#include "../loader/rr_roo_blob.h"
#include "rrb_roo.h"

#define LIMIT61 ((double)((int64_t)1 << 61))

int64_t rrb_roo_round_scaled(double v, int shift)
{
    double s = ldexp(v, shift);
    return (int64_t)(s >= 0 ? floor(s + 0.5) : -floor(-s + 0.5));
}

static void track(double *m, double v)
{
    if (fabs(v) > *m)
        *m = fabs(v);
}

int rrb_roo_coord_frac(const rrb_roo *r, double *max_abs)
{
    double m = fabs((double)r->width);
    int f;
    track(&m, (double)r->height);
    for (uint32_t i = 0; i < 2 * r->npoints; i++)
        track(&m, r->points[i]);
    for (uint32_t i = 0; i < r->nnodes; i++)
        for (int k = 0; k < 4; k++)
            track(&m, r->nodes[i].box[k]);
    for (uint32_t i = 0; i < r->nwalls; i++) {
        track(&m, r->walls[i].x0), track(&m, r->walls[i].y0);
        track(&m, r->walls[i].x1), track(&m, r->walls[i].y1);
    }
    *max_abs = m;
    for (f = (int)RR_ROO_MAX_FRAC; f >= 0; f--)
        if (ldexp(m, f) < (double)RR_ROO_COORD_LIMIT)
            return f;
    return -1;
}

static int32_t to_coord(double v, int f)
{
    return (int32_t)rrb_roo_round_scaled(v, f);
}

/* Per-record power-of-two scale of v12-15 coefficients (rr_roo_blob.h). */
static int coef_shift(const rrb_roo *r, double m)
{
    int e;
    if (r->version < 14 || m == 0)
        return 0;
    frexp(m, &e);           /* m = q * 2^e, q in [0.5, 1): floor(log2 m) = e - 1 */
    return 29 - (e - 1);
}

/* Node i's separator as a blob line (scaling: rr_roo_blob.h). */
static int bake_line(const rrb_roo *r, uint32_t i, int f, rr_roo_line_rec *o, const char *path,
                     char *err, size_t errcap)
{
    const rrb_roo_node *n = &r->nodes[i];
    int k = coef_shift(r, fmax(fabs(n->a), fabs(n->b)));
    int64_t a = rrb_roo_round_scaled(n->a, k), b = rrb_roo_round_scaled(n->b, k);
    double c = ldexp(n->c, k + f);
    memset(o, 0, sizeof *o);
    if (llabs(a) >= RR_ROO_COEF_LIMIT || llabs(b) >= RR_ROO_COEF_LIMIT || fabs(c) >= LIMIT61) {
        snprintf(err, errcap, "%s:0x%zx: expected a separator line that fits the blob "
                 "(|a|,|b| < 2^30, |c| < 2^61 after scaling), found %.9g %.9g %.9g",
                 path, n->off, n->a, n->b, n->c);
        return -1;
    }
    int64_t cc = rrb_roo_round_scaled(n->c, k + f);
    o->a = (int32_t)a, o->b = (int32_t)b;
    o->c_lo = (uint32_t)((uint64_t)cc & 0xffffffffu);
    o->c_hi = (int32_t)(cc >> 32);
    return 0;
}

/* The index of line l in lines[0..*n), added at the end if it is new
 * (linear search: a few thousand lines at most, baked once). */
static uint16_t line_index(rr_roo_line_rec *lines, uint32_t *n, const rr_roo_line_rec *l)
{
    uint32_t i;
    for (i = 0; i < *n; i++)
        if (!memcmp(&lines[i], l, sizeof *l))
            return (uint16_t)i;
    lines[*n] = *l;
    (*n)++;
    return (uint16_t)i;
}

/* The walls as the blob stores them (rr_roo_blob.h): the wall records,
 * the points of their chains and their distinct sides. */
typedef struct wall_tables {
    rr_roo_wall_rec *walls;
    rr_roo_vert_rec *points;
    rr_roo_wall_sides_rec *sides;
    uint32_t npoints, nsides;
} wall_tables;

/* The point (x, y) as a corner names it: a wall point if one is there
 * (index < npoints), else its place in verts[0..*n) (added if new) after
 * the wall points. */
static uint32_t vert_index(const rr_roo_vert_rec *points, uint32_t npoints,
                           rr_roo_vert_rec *verts, uint32_t *n, int32_t x, int32_t y)
{
    uint32_t i;
    for (i = 0; i < npoints; i++)
        if (points[i].x == x && points[i].y == y)
            return i;
    for (i = 0; i < *n; i++)
        if (verts[i].x == x && verts[i].y == y)
            return npoints + i;
    verts[*n].x = x, verts[*n].y = y;
    return npoints + (*n)++;
}

/* Does the loader's rule (rr_roo.c, node_number) give every internal node
 * its file number: one less than its first child's (the + child if any),
 * down to a leaf? True when the file numbers its nodes in pre-order with the
 * + child first; then NODE_NUMBERS is left out. */
static int numbers_follow_preorder(const rr_roo_node_rec *nodes,
                                   const rr_roo_node_number_rec *numbers,
                                   const rr_roo_leaf_rec *leaves, uint32_t ni)
{
    for (uint32_t i = 0; i < ni; i++) {
        uint32_t c = i + 1, steps = 0;
        while (c && !(c & RR_ROO_CHILD_LEAF)) {
            c = nodes[c - 1].pos ? nodes[c - 1].pos : nodes[c - 1].neg;
            steps++;
        }
        if (!c || (int32_t)leaves[c & ~RR_ROO_CHILD_LEAF].node - (int32_t)steps !=
                      (int32_t)numbers[i].number)
            return 0;
    }
    return 1;
}

/* The BSP: internal nodes (with their lines) and leaves in separate
 * sections, child links as child references (rr_roo_blob.h); leaf polygons
 * unless collision_only. */
typedef struct tree_counts {
    uint32_t nodes, lines, leaves, root;
} tree_counts;

/* Child references (rr_roo_blob.h) of the file's nodes into ref[1..]:
 * internal nodes and leaves are each numbered in file order; *ni and *nl
 * their counts. */
static void child_refs(const rrb_roo *r, uint16_t *ref, uint32_t *ni, uint32_t *nl)
{
    for (uint32_t i = 0; i < r->nnodes; i++)
        ref[i + 1] = r->nodes[i].type == RRB_ROO_NODE_INTERNAL
                         ? (uint16_t)(++*ni)
                         : (uint16_t)(RR_ROO_CHILD_LEAF | (*nl)++);
}

/* The leaf polygons' corners: each names its point among the vertices the
 * walls' points start (VERTS), in 16 bits. */
static int bake_corners(const rrb_roo *r, int f, const wall_tables *wt, rr_roo_corner_rec *corners,
                        rr_roo_vert_rec *verts, uint32_t *nverts, const char *path, char *err,
                        size_t errcap)
{
    for (uint32_t i = 0; i < r->npoints; i++) {
        uint32_t v = vert_index(wt->points, wt->npoints, verts, nverts,
                                to_coord(r->points[2 * i], f), to_coord(r->points[2 * i + 1], f));
        if (v > 0xffffu) { /* a corner names its point in 16 bits */
            snprintf(err, errcap, "%s:0x%x: expected at most 65536 wall points and leaf "
                     "corners together, found more", path, (unsigned)r->offsets[0]);
            return -1;
        }
        corners[i].vert = (uint16_t)v;
    }
    return 0;
}

static int bake_nodes(const rrb_roo *r, int f, int collision_only, const wall_tables *wt,
                      rrb_blob *bl, tree_counts *tc, const char *path, char *err,
                      size_t errcap)
{
    rr_roo_node_rec *nodes = rrb_xcalloc(r->nnodes + 1, sizeof *nodes);
    rr_roo_node_number_rec *numbers = rrb_xcalloc(r->nnodes + 1, sizeof *numbers);
    rr_roo_line_rec *lines = rrb_xcalloc(r->nnodes + 1, sizeof *lines);
    rr_roo_leaf_rec *leaves = rrb_xcalloc(r->nleaves + 1, sizeof *leaves);
    rr_roo_polygon_rec *polys = rrb_xcalloc(r->nleaves + 1, sizeof *polys);
    rr_roo_corner_rec *corners = rrb_xcalloc(r->npoints + 1, sizeof *corners);
    rr_roo_vert_rec *verts = rrb_xcalloc(r->npoints + 1, sizeof *verts);
    uint16_t *ref = rrb_xcalloc(r->nnodes + 2, sizeof *ref); /* file node -> child reference */
    uint32_t ni = 0, nl = 0, nlines = 0, nverts = 0;
    int rc = 0;
    child_refs(r, ref, &ni, &nl);
    if (ni > RR_ROO_MAX_TREE || nl > RR_ROO_MAX_TREE ||
        (!collision_only && r->npoints > 0xffffu)) {
        snprintf(err, errcap, "%s:0x%x: expected at most %u internal nodes, %u leaves and "
                 "65535 leaf points, found %u, %u and %u", path, (unsigned)r->offsets[0],
                 RR_ROO_MAX_TREE, RR_ROO_MAX_TREE, ni, nl, r->npoints);
        rc = -1;
    }
    tc->root = r->nnodes ? ref[1] : 0u;
    ni = nl = 0;
    for (uint32_t i = 0; i < r->nnodes && !rc; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        if (n->type == RRB_ROO_NODE_LEAF) {
            leaves[nl].node = (uint16_t)i;
            leaves[nl].sector = (uint16_t)(n->sector - 1);
            polys[nl].first = (uint16_t)n->first_point;
            polys[nl].count = (uint16_t)n->npoints;
            nl++;
            continue;
        }
        rr_roo_line_rec line;
        rr_roo_node_rec *o = &nodes[ni];
        numbers[ni++].number = (uint16_t)i;
        rc = bake_line(r, i, f, &line, path, err, errcap);
        o->line = line_index(lines, &nlines, &line);
        o->pos = ref[n->pos], o->neg = ref[n->neg]; /* ref[0] = 0: none */
        o->first_wall = n->first_wall ? (uint16_t)(n->first_wall - 1) : (uint16_t)RR_ROO_NONE;
    }
    if (!rc && !collision_only)
        rc = bake_corners(r, f, wt, corners, verts, &nverts, path, err, errcap);
    tc->nodes = ni, tc->lines = nlines, tc->leaves = nl;
    if (!rc) {
        rrb_blob_add(bl, RR_SEC_ROO_NODES, nodes, ni, sizeof *nodes, NULL);
        rrb_blob_add(bl, RR_SEC_ROO_LINES, lines, nlines, sizeof *lines, NULL);
        rrb_blob_add(bl, RR_SEC_ROO_LEAVES, leaves, nl, sizeof *leaves, NULL);
        if (!numbers_follow_preorder(nodes, numbers, leaves, ni))
            rrb_blob_add(bl, RR_SEC_ROO_NODE_NUMBERS, numbers, ni, sizeof *numbers, NULL);
        if (!collision_only && nl) {
            rrb_blob_add(bl, RR_SEC_ROO_POLYGONS, polys, nl, sizeof *polys, NULL);
            rrb_blob_add(bl, RR_SEC_ROO_CORNERS, corners, r->npoints, sizeof *corners, NULL);
            rrb_blob_add(bl, RR_SEC_ROO_VERTS, verts, nverts, sizeof *verts, NULL);
        }
    }
    free(nodes), free(numbers), free(lines), free(leaves), free(polys), free(corners), free(verts);
    free(ref);
    return rc;
}

static int bake_slope(const rrb_roo *r, const rrb_roo_slope *s, int f, rr_roo_slope_rec *o,
                      size_t off, const char *path, char *err, size_t errcap)
{
    int k = coef_shift(r, fmax(fabs(s->a), fmax(fabs(s->b), fabs(s->c))));
    int64_t a = rrb_roo_round_scaled(s->a, k), b = rrb_roo_round_scaled(s->b, k);
    int64_t c = rrb_roo_round_scaled(s->c, k);
    double d = ldexp(s->d, k + f);
    if (c == 0 || llabs(a) >= RR_ROO_COEF_LIMIT || llabs(b) >= RR_ROO_COEF_LIMIT ||
        llabs(c) >= RR_ROO_COEF_LIMIT || fabs(d) >= LIMIT61) {
        snprintf(err, errcap, "%s:0x%zx: expected a non-vertical slope plane that fits the "
                 "blob, found %.9g %.9g %.9g %.9g", path, off, s->a, s->b, s->c, s->d);
        return -1;
    }
    int64_t dd = rrb_roo_round_scaled(s->d, k + f);
    o->a = (int32_t)a, o->b = (int32_t)b, o->c = (int32_t)c;
    o->d_lo = (uint32_t)((uint64_t)dd & 0xffffffffu);
    o->d_hi = (int32_t)(dd >> 32);
    return 0;
}

static int bake_sectors(const rrb_roo *r, int f, rrb_blob *bl, const char *path, char *err,
                        size_t errcap)
{
    rr_roo_sector_rec *sec = rrb_xcalloc(r->nsectors + 1, sizeof *sec);
    rr_roo_slope_rec *sl = rrb_xcalloc(r->nslopes + 1, sizeof *sl);
    uint32_t ns = 0;
    int rc = 0;
    for (uint32_t i = 0; i < r->nsectors && !rc; i++) {
        const rrb_roo_sector *s = &r->sectors[i];
        rr_roo_sector_rec *o = &sec[i];
        o->floor_z = (int32_t)s->floor_h * 16 * (1 << f);
        o->ceiling_z = (int32_t)s->ceiling_h * 16 * (1 << f);
        o->flags = s->flags;
        o->floor_slope = o->ceiling_slope = RR_ROO_NONE;
        if (s->flags & RRB_ROO_SF_SLOPED_FLOOR) {
            o->floor_slope = (uint16_t)ns;
            rc = bake_slope(r, &s->floor, f, &sl[ns++], s->off, path, err, errcap);
        }
        if (!rc && (s->flags & RRB_ROO_SF_SLOPED_CEILING)) {
            o->ceiling_slope = (uint16_t)ns;
            rc = bake_slope(r, &s->ceiling, f, &sl[ns++], s->off, path, err, errcap);
        }
    }
    if (!rc) {
        rrb_blob_add(bl, RR_SEC_ROO_SECTORS, sec, r->nsectors, sizeof *sec, NULL);
        rrb_blob_add(bl, RR_SEC_ROO_SLOPES, sl, ns, sizeof *sl, NULL);
    }
    free(sec), free(sl);
    return rc;
}

/* Lay the walls out as chains of points: a wall goes from point pt to pt +
 * 1, so a wall that starts where the previous one of its chain ended
 * shares that point. Greedy: chains start first at the walls that no other
 * wall leads into (in index order), then at any wall still unplaced (the
 * rest lie on cycles), and go on with the first unplaced wall that starts
 * where the chain ends. Quadratic searches: a few thousand walls at most,
 * baked once. Wall indices do not change (queries report them); only the
 * points are shared. Returns -1 when the points do not fit 16-bit indices. */
static int chain_walls(const rrb_roo *r, int f, wall_tables *wt, const char *path, char *err,
                       size_t errcap)
{
    uint32_t n = r->nwalls;
    int32_t *e = rrb_xcalloc(4 * n + 1, sizeof *e); /* x0, y0, x1, y1 of each wall, coords */
    uint8_t *placed = rrb_xcalloc(n + 1, 1), *led_into = rrb_xcalloc(n + 1, 1);
    int rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        const rrb_roo_wall *s = &r->walls[i];
        e[4 * i] = to_coord(s->x0, f), e[4 * i + 1] = to_coord(s->y0, f);
        e[4 * i + 2] = to_coord(s->x1, f), e[4 * i + 3] = to_coord(s->y1, f);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n && !led_into[i]; j++)
            led_into[i] = j != i && e[4 * j + 2] == e[4 * i] && e[4 * j + 3] == e[4 * i + 1];
    wt->npoints = 0;
    for (uint32_t pass = 0; pass < 2 && !rc; pass++)
        for (uint32_t start = 0; start < n && !rc; start++) {
            if (placed[start] || (pass == 0 && led_into[start]))
                continue;
            if (wt->npoints + 1 + (n - start) > 2u * n) /* cannot happen: n + chains <= 2n */
                break;
            /* the chain's first point, then each wall's end */
            wt->points[wt->npoints].x = e[4 * start], wt->points[wt->npoints].y = e[4 * start + 1];
            wt->npoints++;
            for (uint32_t i = start; i < n;) {
                uint32_t j;
                placed[i] = 1;
                wt->walls[i].pt = (uint16_t)(wt->npoints - 1);
                wt->points[wt->npoints].x = e[4 * i + 2], wt->points[wt->npoints].y = e[4 * i + 3];
                wt->npoints++;
                for (j = 0; j < n; j++)
                    if (!placed[j] && e[4 * j] == e[4 * i + 2] && e[4 * j + 1] == e[4 * i + 3])
                        break;
                i = j; /* n: the chain ends */
            }
            if (wt->npoints > RR_ROO_NONE - 1u) {
                snprintf(err, errcap, "%s:0x%x: expected walls whose chains need at most "
                         "65534 points, found %u walls needing more", path,
                         (unsigned)r->offsets[1], (unsigned)n);
                rc = -1;
            }
        }
    free(e), free(placed), free(led_into);
    return rc;
}

static uint16_t idx0(uint16_t one_based)
{
    return one_based ? (uint16_t)(one_based - 1) : (uint16_t)RR_ROO_NONE;
}

/* The index of sides o in sides[0..*n), added if new. */
static uint16_t sides_index(rr_roo_wall_sides_rec *sides, uint32_t *n,
                            const rr_roo_wall_sides_rec *o)
{
    uint32_t i;
    for (i = 0; i < *n; i++)
        if (!memcmp(&sides[i], o, sizeof *o))
            return (uint16_t)i;
    sides[(*n)++] = *o;
    return (uint16_t)i;
}

static int build_walls(const rrb_roo *r, int f, wall_tables *wt, const char *path, char *err,
                       size_t errcap)
{
    wt->walls = rrb_xcalloc(r->nwalls + 1, sizeof *wt->walls);
    wt->points = rrb_xcalloc(2 * r->nwalls + 1, sizeof *wt->points);
    wt->sides = rrb_xcalloc(r->nwalls + 1, sizeof *wt->sides);
    wt->nsides = 0;
    for (uint32_t i = 0; i < r->nwalls; i++) {
        const rrb_roo_wall *s = &r->walls[i];
        rr_roo_wall_sides_rec o;
        memset(&o, 0, sizeof o);
        o.pos_sidedef = idx0(s->pos_sidedef), o.neg_sidedef = idx0(s->neg_sidedef);
        o.pos_sector = idx0(s->pos_sector), o.neg_sector = idx0(s->neg_sector);
        wt->walls[i].sides = sides_index(wt->sides, &wt->nsides, &o);
        /* forward chains only (the loader checks next > index) */
        wt->walls[i].next = s->next > i + 1 ? (uint16_t)(s->next - 1) : (uint16_t)RR_ROO_NONE;
    }
    return chain_walls(r, f, wt, path, err, errcap);
}

static void free_walls(wall_tables *wt)
{
    free(wt->walls), free(wt->points), free(wt->sides);
}

static void bake_walls(const rrb_roo *r, const wall_tables *wt, rrb_blob *bl)
{
    rr_roo_sidedef_rec *sd = rrb_xcalloc(r->nsidedefs + 1, sizeof *sd);
    for (uint32_t i = 0; i < r->nsidedefs; i++) {
        sd[i].flags = r->sidedefs[i].flags;
        sd[i].id = r->sidedefs[i].id;
        sd[i].normal_bitmap = r->sidedefs[i].normal;
    }
    rrb_blob_add(bl, RR_SEC_ROO_WALLS, wt->walls, r->nwalls, sizeof *wt->walls, NULL);
    rrb_blob_add(bl, RR_SEC_ROO_WALL_POINTS, wt->points, wt->npoints, sizeof *wt->points, NULL);
    rrb_blob_add(bl, RR_SEC_ROO_WALL_SIDES, wt->sides, wt->nsides, sizeof *wt->sides, NULL);
    rrb_blob_add(bl, RR_SEC_ROO_SIDEDEFS, sd, r->nsidedefs, sizeof *sd, NULL);
    free(sd);
}

/* Which node lists each wall (first_wall + next chains); 0 if none. Returns
 * 0 when every wall is listed exactly once through forward chains. */
static int wall_owners(const rrb_roo *r, uint32_t *owner)
{
    int ok = 1;
    for (uint32_t i = 0; i < r->nwalls; i++)
        if (r->walls[i].next && r->walls[i].next <= i + 1)
            ok = 0;
    for (uint32_t i = 0; ok && i < r->nnodes; i++) {
        if (r->nodes[i].type != RRB_ROO_NODE_INTERNAL)
            continue;
        for (uint32_t w = r->nodes[i].first_wall; w && ok; w = r->walls[w - 1].next) {
            if (owner[w - 1])
                ok = 0;
            owner[w - 1] = i + 1;
        }
    }
    for (uint32_t i = 0; ok && i < r->nwalls; i++)
        if (!owner[i])
            ok = 0;
    return ok ? 0 : -1;
}

/* Farthest any wall endpoint lies outside the BSP cell of its owner node,
 * client units (double reference of the file's lines). */
static double wall_excursion(const rrb_roo *r, const uint32_t *owner)
{
    uint32_t *parent = rrb_xcalloc(r->nnodes + 1, sizeof *parent);
    double worst = 0;
    for (uint32_t i = 0; i < r->nnodes; i++)
        if (r->nodes[i].type == RRB_ROO_NODE_INTERNAL) {
            if (r->nodes[i].pos)
                parent[r->nodes[i].pos - 1] = i + 1;
            if (r->nodes[i].neg)
                parent[r->nodes[i].neg - 1] = i + 1;
        }
    for (uint32_t w = 0; w < r->nwalls; w++) {
        const rrb_roo_wall *wl = &r->walls[w];
        double px[2] = {wl->x0, wl->x1}, py[2] = {wl->y0, wl->y1};
        for (uint32_t ch = owner[w], up = parent[ch - 1]; up; ch = up, up = parent[up - 1]) {
            const rrb_roo_node *p = &r->nodes[up - 1];
            double side = p->pos == ch ? 1 : -1, len = hypot(p->a, p->b);
            for (int k = 0; k < 2 && len > 0; k++)
                worst = fmax(worst, -side * (p->a * px[k] + p->b * py[k] + p->c) / len);
        }
    }
    free(parent);
    return worst;
}

/* Append index v in w bits to bit-packed bytes at bit *at (LSB first). */
static void put_bits(uint8_t *bytes, size_t *at, uint32_t v, uint32_t w)
{
    uint32_t k;
    for (k = 0; k < w; k++, (*at)++)
        if (v >> k & 1u)
            bytes[*at >> 3] |= (uint8_t)(1u << (*at & 7u));
}

static uint32_t bits_for(uint32_t n, uint32_t w)
{
    while ((1u << w) < n)
        w++;
    return w;
}

/* Cell i of the three byte grids as one palette entry. */
static rr_roo_grid_entry server_cell(const rrb_roo *r, uint32_t i)
{
    rr_roo_grid_entry e;
    memset(&e, 0, sizeof e);
    e.move = r->move_grid[i];
    e.flags = r->flag_grid[i];
    e.monster = r->monster_grid[i];
    return e;
}

/* The grid's 2 x 2 blocks as tiles of palette indices (cells past the
 * grid's edge 0): the distinct tiles into tiles[4 t..], each block's tile
 * into map; returns the tiles. A linear search is fine for a baker (blocks
 * x distinct tiles). */
static uint32_t grid_tiles(uint32_t rows, uint32_t cols, const uint32_t *index, uint32_t *tiles,
                           uint32_t *map)
{
    uint32_t bcols = (cols + 1u) / 2u, nblocks = (rows + 1u) / 2u * bcols, ntiles = 0, i, j, k;
    for (i = 0; i < nblocks; i++) {
        uint32_t t[4];
        for (k = 0; k < 4u; k++) {
            uint32_t row = (i / bcols) * 2u + k / 2u, col = (i % bcols) * 2u + k % 2u;
            t[k] = row < rows && col < cols ? index[row * cols + col] : 0u;
        }
        for (j = 0; j < ntiles && memcmp(&tiles[j * 4u], t, sizeof t) != 0; j++)
            ;
        if (j == ntiles)
            memcpy(&tiles[ntiles++ * 4u], t, sizeof t);
        map[i] = j;
    }
    return ntiles;
}

/* n values of w bits each, packed (put_bits) into a byte section. */
static void add_packed(rrb_blob *bl, uint32_t type, const uint32_t *v, uint32_t n, uint32_t w)
{
    size_t bytes = ((size_t)n * w + 7u) / 8u, at = 0;
    uint8_t *b = rrb_xcalloc(bytes, 1);
    uint32_t i;
    for (i = 0; i < n; i++)
        put_bits(b, &at, v[i], w);
    rrb_blob_add(bl, type, b, (uint32_t)bytes, 1, NULL);
    free(b);
}

/* The three byte grids (rr_roo_blob.h): a palette of their distinct (move,
 * flags, monster) cells, the distinct 2 x 2 tiles of palette indices and a
 * tile index per 2 x 2 block, each in order of first appearance, indices
 * bit-packed; or, when that is no smaller, the palette alone, one entry a
 * cell. Real rooms have 6..476 distinct cells; the loader takes up to
 * 0xffff palette entries and tiles, more fails here. */
static int bake_server_grids(const rrb_roo *r, rrb_blob *bl, const char *path, char *err,
                             size_t errcap)
{
    uint32_t rows = (uint32_t)r->rows, cols = (uint32_t)r->cols, n = rows * cols;
    uint32_t brows = (rows + 1u) / 2u, bcols = (cols + 1u) / 2u, nblocks = brows * bcols;
    uint32_t npal = 0, ntiles, i;
    uint32_t *slot = rrb_xcalloc(1u << 24, sizeof *slot); /* triple -> index + 1 */
    uint32_t *index = rrb_xcalloc(n, sizeof *index);
    uint32_t *tiles = rrb_xcalloc((size_t)nblocks * 4u, sizeof *tiles); /* distinct */
    uint32_t *map = rrb_xcalloc(nblocks, sizeof *map);
    rr_roo_grid_entry *pal = rrb_xcalloc(n, sizeof *pal);
    int rc = 0;
    for (i = 0; i < n; i++) {
        uint32_t key = (uint32_t)r->move_grid[i] | (uint32_t)r->flag_grid[i] << 8 |
                       (uint32_t)r->monster_grid[i] << 16;
        if (!slot[key]) {
            pal[npal] = server_cell(r, i);
            slot[key] = ++npal;
        }
        index[i] = slot[key] - 1u;
    }
    ntiles = grid_tiles(rows, cols, index, tiles, map);
    if (npal > 0xffffu || ntiles > 0xffffu) {
        snprintf(err, errcap, "%s:0x%x: expected at most 65535 distinct server grid cells "
                 "(move, flags, monster) and 2 x 2 tiles of them, found %u and %u", path,
                 (unsigned)r->server_offset, (unsigned)npal, (unsigned)ntiles);
        rc = -1;
    } else if ((size_t)npal * 3u + ((size_t)ntiles * 4u * bits_for(npal, 2) + 7u) / 8u +
                   ((size_t)nblocks * bits_for(ntiles, 1) + 7u) / 8u >= (size_t)n * 3u) {
        /* tiny grids of (nearly) all distinct cells: untiled, the palette
         * is the cells (v12_guest5: 25 cells, 25 distinct) */
        for (i = 0; i < n; i++)
            pal[i] = server_cell(r, i);
        rrb_blob_add(bl, RR_SEC_ROO_GRID_PALETTE, pal, n, sizeof *pal, NULL);
    } else {
        rrb_blob_add(bl, RR_SEC_ROO_GRID_PALETTE, pal, npal, sizeof *pal, NULL);
        add_packed(bl, RR_SEC_ROO_GRID_TILES, tiles, ntiles * 4u, bits_for(npal, 2));
        add_packed(bl, RR_SEC_ROO_GRID_MAP, map, nblocks, bits_for(ntiles, 1));
    }
    free(slot), free(index), free(tiles), free(map), free(pal);
    return rc;
}

/* The high-res grid as palette, 4 x 4 tiles and map (rr_roo_blob.h). The
 * palette holds the distinct cells in order of first appearance, the tiles
 * the distinct blocks in order of first appearance (linear searches: a few
 * hundred of each in the corpus, baked once). */
static void bake_hires(const rrb_roo *r, rrb_blob *bl)
{
    uint32_t rows = (uint32_t)r->rows_hr, cols = (uint32_t)r->cols_hr, cells = rows * cols;
    uint32_t trows = (rows + RR_ROO_TILE - 1) / RR_ROO_TILE;
    uint32_t tcols = (cols + RR_ROO_TILE - 1) / RR_ROO_TILE;
    rr_roo_hires_cell *pal = rrb_xcalloc(cells + 1, sizeof *pal);
    rr_roo_hires_tile *tiles = rrb_xcalloc(trows * tcols + 1, sizeof *tiles);
    rr_roo_hires_map_entry *map = rrb_xcalloc(trows * tcols + 1, sizeof *map);
    uint32_t npal = 0, ntiles = 0;
    for (uint32_t t = 0; t < trows * tcols; t++) {
        rr_roo_hires_tile tile;
        uint32_t k, i;
        memset(&tile, 0, sizeof tile);
        for (k = 0; k < RR_ROO_TILE * RR_ROO_TILE; k++) {
            uint32_t row = t / tcols * RR_ROO_TILE + k / RR_ROO_TILE;
            uint32_t col = t % tcols * RR_ROO_TILE + k % RR_ROO_TILE;
            uint32_t v;
            if (row >= rows || col >= cols)
                continue; /* past the edge: palette entry 0 */
            v = r->hires_grid[row * cols + col];
            for (i = 0; i < npal && pal[i].hires != v; i++)
                ;
            if (i == npal)
                pal[npal++].hires = v;
            tile.cell[k] = (uint16_t)i;
        }
        for (i = 0; i < ntiles && memcmp(&tiles[i], &tile, sizeof tile); i++)
            ;
        if (i == ntiles)
            tiles[ntiles++] = tile;
        map[t].tile = (uint16_t)i;
    }
    rrb_blob_add(bl, RR_SEC_ROO_HIRES_PALETTE, pal, npal, sizeof *pal, NULL);
    rrb_blob_add(bl, RR_SEC_ROO_HIRES_TILES, tiles, ntiles, sizeof *tiles, NULL);
    rrb_blob_add(bl, RR_SEC_ROO_HIRES_MAP, map, trows * tcols, sizeof *map, NULL);
    free(pal), free(tiles), free(map);
}

static void bake_room(const rrb_roo *r, int f, const tree_counts *tc, const wall_tables *wt,
                      rrb_blob *bl)
{
    rr_roo_room_rec o;
    memset(&o, 0, sizeof o);
    o.version = (uint32_t)r->version;
    o.flags = (r->security == r->security_calc ? RR_ROO_ROOM_SECURITY_OK : 0) |
              (r->has_room_id ? RR_ROO_ROOM_HAS_ROOM_ID : 0);
    o.security = r->security;
    o.room_id = r->room_id;
    o.rect[2] = to_coord(r->width, f);
    o.rect[3] = to_coord(r->height, f);
    o.nnodes = tc->nodes, o.nlines = tc->lines, o.nleaves = tc->leaves, o.root = tc->root;
    o.nsectors = r->nsectors, o.nslopes = r->nslopes, o.nwalls = r->nwalls;
    o.nwall_points = wt->npoints, o.nwall_sides = wt->nsides;
    o.nsidedefs = r->nsidedefs, o.bsp_depth = r->depth;
    o.grid_rows = r->rows, o.grid_cols = r->cols;
    o.hires_rows = r->rows_hr, o.hires_cols = r->cols_hr;
    uint32_t *owner = rrb_xcalloc(r->nwalls + 1, sizeof *owner);
    if (wall_owners(r, owner) == 0) {
        double slack = ceil(wall_excursion(r, owner)) + 1;
        if (ldexp(slack, f) < (double)RR_ROO_COORD_LIMIT)
            o.wall_slack = to_coord(slack, f);
        else
            o.flags |= RR_ROO_ROOM_NO_WALL_TREE;
    } else {
        o.flags |= RR_ROO_ROOM_NO_WALL_TREE;
    }
    free(owner);
    rrb_blob_add(bl, RR_SEC_ROO_ROOM, &o, 1, sizeof o, NULL);
    if (r->has_hires && r->rows_hr * r->cols_hr > 0)
        bake_hires(r, bl);
}

rrb_blob *rrb_roo_bake_model(const rrb_roo *r, size_t source_size, const char *path,
                             const rrb_opts *opts, char *err, size_t errcap)
{
    double m;
    int f = rrb_roo_coord_frac(r, &m);
    rrb_blob *bl;
    rr_blob_info info;
    if (f < 0) {
        snprintf(err, errcap, "%s:0x14: expected coordinates within +-2^29 client units, "
                 "found %.0f", path, m);
        return NULL;
    }
    if (r->depth > RR_MAX_DEPTH) {
        snprintf(err, errcap, "%s:0x%x: expected a BSP at most %d levels deep (RR_MAX_DEPTH), "
                 "found %u", path, (unsigned)r->offsets[0], RR_MAX_DEPTH, r->depth);
        return NULL;
    }
    if (r->security != r->security_calc && opts && opts->strict) {
        snprintf(err, errcap, "%s:0x8: expected security 0x%08lx (computed), found 0x%08lx",
                 path, (unsigned long)(uint32_t)r->security_calc,
                 (unsigned long)(uint32_t)r->security);
        return NULL;
    }
    if (r->security != r->security_calc && !(opts && opts->quiet))
        fprintf(stderr, "%s: warning: security value mismatch (stored 0x%08lx, computed "
                "0x%08lx)\n", path, (unsigned long)(uint32_t)r->security,
                (unsigned long)(uint32_t)r->security_calc);
    bl = rrb_blob_new(RR_FMT_ROO, (uint32_t)f);
    tree_counts tc;
    wall_tables wt;
    if (build_walls(r, f, &wt, path, err, errcap) ||
        bake_nodes(r, f, opts && opts->collision_only, &wt, bl, &tc, path, err, errcap) ||
        bake_sectors(r, f, bl, path, err, errcap)) {
        free_walls(&wt);
        rrb_blob_free(bl);
        return NULL;
    }
    bake_room(r, f, &tc, &wt, bl);
    bake_walls(r, &wt, bl);
    free_walls(&wt);
    if (r->has_grids && r->rows * r->cols > 0 && bake_server_grids(r, bl, path, err, errcap)) {
        rrb_blob_free(bl);
        return NULL;
    }
    memset(&info, 0, sizeof info);
    info.source_size = (uint32_t)source_size;
    /* the file name only, so a blob does not depend on where it was baked */
    info.source_name = rrb_blob_string(bl, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    info.variant = (uint32_t)r->version;
    info.bbox_max[0] = to_coord(r->width, f);
    info.bbox_max[1] = to_coord(r->height, f);
    rrb_blob_add(bl, RR_SEC_INFO, &info, 1, sizeof info, NULL);
    rrb_blob_set_depth(bl, r->depth);
    /* query state + BSP walk stack (rr_roo_blob.h) */
    rrb_blob_set_arena(bl, RR_ROO_ARENA_STATE + ((2 * (r->depth + 1) + 3) & ~3u));
    return bl;
}

rrb_blob *rrb_roo_bake(const uint8_t *data, size_t size, const char *path,
                       const rrb_opts *opts, char *err, size_t errcap)
{
    rrb_roo r;
    rrb_blob *bl;
    if (rrb_roo_read(data, size, path, &r, err, errcap))
        return NULL;
    bl = rrb_roo_bake_model(&r, size, path, opts, err, errcap);
    rrb_roo_free(&r);
    return bl;
}

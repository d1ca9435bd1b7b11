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

static int bake_node(const rrb_roo *r, uint32_t i, int f, uint8_t depth, uint16_t leaf,
                     rr_roo_node_rec *o, const char *path, char *err, size_t errcap)
{
    const rrb_roo_node *n = &r->nodes[i];
    memset(o, 0, sizeof *o);
    o->kind = n->type;
    o->depth = depth;
    o->sector = o->first_wall = o->leaf = RR_ROO_NONE;
    if (n->type == RRB_ROO_NODE_LEAF) {
        o->sector = (uint16_t)(n->sector - 1);
        o->leaf = leaf;
        return 0;
    }
    int k = coef_shift(r, fmax(fabs(n->a), fabs(n->b)));
    int64_t a = rrb_roo_round_scaled(n->a, k), b = rrb_roo_round_scaled(n->b, k);
    double c = ldexp(n->c, k + f);
    if (llabs(a) >= RR_ROO_COEF_LIMIT || llabs(b) >= RR_ROO_COEF_LIMIT || fabs(c) >= LIMIT61) {
        snprintf(err, errcap, "%s:0x%zx: expected a separator line that fits the blob "
                 "(|a|,|b| < 2^30, |c| < 2^61 after scaling), found %.9g %.9g %.9g",
                 path, n->off, n->a, n->b, n->c);
        return -1;
    }
    int64_t cc = rrb_roo_round_scaled(n->c, k + f);
    uint64_t n2 = (uint64_t)(a * a + b * b), nn = (uint64_t)sqrt((double)n2);
    while (nn * nn < n2)
        nn++;
    o->norm = (uint32_t)nn; /* ceil(sqrt(a^2 + b^2)) < 2^30.5 */
    o->a = (int32_t)a, o->b = (int32_t)b;
    o->c_lo = (uint32_t)((uint64_t)cc & 0xffffffffu);
    o->c_hi = (int32_t)(cc >> 32);
    o->pos = n->pos, o->neg = n->neg;
    if (n->first_wall)
        o->first_wall = (uint16_t)(n->first_wall - 1);
    return 0;
}

static int bake_nodes(const rrb_roo *r, int f, rrb_blob *bl, const char *path, char *err,
                      size_t errcap)
{
    rr_roo_node_rec *nodes = rrb_xcalloc(r->nnodes + 1, sizeof *nodes);
    rr_roo_leaf_rec *leaves = rrb_xcalloc(r->nleaves + 1, sizeof *leaves);
    rr_roo_point_rec *pts = rrb_xcalloc(r->npoints + 1, sizeof *pts);
    uint8_t *depth = rrb_xcalloc(r->nnodes + 2, 1);
    uint16_t nl = 0;
    int rc = 0;
    if (r->nnodes)
        depth[1] = 1;
    for (uint32_t i = 0; i < r->nnodes && !rc; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        rc = bake_node(r, i, f, depth[i + 1], nl, &nodes[i], path, err, errcap);
        if (n->type == RRB_ROO_NODE_INTERNAL) {
            if (n->pos)
                depth[n->pos] = (uint8_t)(depth[i + 1] + 1);
            if (n->neg)
                depth[n->neg] = (uint8_t)(depth[i + 1] + 1);
            continue;
        }
        leaves[nl].node = (uint16_t)i;
        leaves[nl].sector = (uint16_t)(n->sector - 1);
        leaves[nl].first_point = n->first_point;
        leaves[nl].npoints = n->npoints;
        nl++;
    }
    for (uint32_t i = 0; i < r->npoints; i++) {
        pts[i].x = to_coord(r->points[2 * i], f);
        pts[i].y = to_coord(r->points[2 * i + 1], f);
    }
    if (!rc) {
        rrb_blob_add(bl, RR_SEC_ROO_NODES, nodes, r->nnodes, sizeof *nodes, NULL);
        rrb_blob_add(bl, RR_SEC_ROO_LEAVES, leaves, nl, sizeof *leaves, NULL);
        rrb_blob_add(bl, RR_SEC_ROO_POINTS, pts, r->npoints, sizeof *pts, NULL);
    }
    free(nodes), free(leaves), free(pts), free(depth);
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
    static const int32_t depth_units[4] = {0, 1024 / 5, 2 * 1024 / 5, 3 * 1024 / 5};
    rr_roo_sector_rec *sec = rrb_xcalloc(r->nsectors + 1, sizeof *sec);
    rr_roo_slope_rec *sl = rrb_xcalloc(r->nslopes + 1, sizeof *sl);
    uint32_t ns = 0;
    int rc = 0;
    for (uint32_t i = 0; i < r->nsectors && !rc; i++) {
        const rrb_roo_sector *s = &r->sectors[i];
        rr_roo_sector_rec *o = &sec[i];
        o->floor_z = (int32_t)s->floor_h * 16 * (1 << f);
        o->ceiling_z = (int32_t)s->ceiling_h * 16 * (1 << f);
        o->depth = (uint8_t)(s->flags & RRB_ROO_SF_DEPTH_MASK);
        o->depth_z = depth_units[o->depth] * (1 << f);
        o->flags = s->flags;
        o->id = s->id;
        o->light = s->light;
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

static uint16_t idx0(uint16_t one_based)
{
    return one_based ? (uint16_t)(one_based - 1) : (uint16_t)RR_ROO_NONE;
}

static void bake_walls(const rrb_roo *r, int f, rrb_blob *bl)
{
    rr_roo_wall_rec *w = rrb_xcalloc(r->nwalls + 1, sizeof *w);
    rr_roo_sidedef_rec *sd = rrb_xcalloc(r->nsidedefs + 1, sizeof *sd);
    for (uint32_t i = 0; i < r->nwalls; i++) {
        const rrb_roo_wall *s = &r->walls[i];
        w[i].x0 = to_coord(s->x0, f), w[i].y0 = to_coord(s->y0, f);
        w[i].x1 = to_coord(s->x1, f), w[i].y1 = to_coord(s->y1, f);
        w[i].pos_sidedef = idx0(s->pos_sidedef), w[i].neg_sidedef = idx0(s->neg_sidedef);
        w[i].pos_sector = idx0(s->pos_sector), w[i].neg_sector = idx0(s->neg_sector);
        /* forward chains only (the loader checks next > index) */
        w[i].next = s->next > i + 1 ? (uint16_t)(s->next - 1) : (uint16_t)RR_ROO_NONE;
    }
    for (uint32_t i = 0; i < r->nsidedefs; i++) {
        sd[i].flags = r->sidedefs[i].flags;
        sd[i].id = r->sidedefs[i].id;
        sd[i].normal_bitmap = r->sidedefs[i].normal;
    }
    rrb_blob_add(bl, RR_SEC_ROO_WALLS, w, r->nwalls, sizeof *w, NULL);
    rrb_blob_add(bl, RR_SEC_ROO_SIDEDEFS, sd, r->nsidedefs, sizeof *sd, NULL);
    free(w), free(sd);
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

static void bake_room(const rrb_roo *r, int f, rrb_blob *bl)
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
    o.nnodes = r->nnodes, o.nleaves = r->nleaves, o.npoints = r->npoints;
    o.nsectors = r->nsectors, o.nslopes = r->nslopes, o.nwalls = r->nwalls;
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
    if (r->has_grids && r->rows * r->cols > 0) {
        uint32_t n = (uint32_t)(r->rows * r->cols);
        rrb_blob_add(bl, RR_SEC_ROO_MOVE_GRID, r->move_grid, n, 1, NULL);
        rrb_blob_add(bl, RR_SEC_ROO_FLAG_GRID, r->flag_grid, n, 1, NULL);
        rrb_blob_add(bl, RR_SEC_ROO_MONSTER_GRID, r->monster_grid, n, 1, NULL);
    }
    if (r->has_hires && r->rows_hr * r->cols_hr > 0)
        rrb_blob_add(bl, RR_SEC_ROO_HIRES_GRID, r->hires_grid,
                     (uint32_t)(r->rows_hr * r->cols_hr), 4, NULL);
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
    bake_room(r, f, bl);
    if (bake_nodes(r, f, bl, path, err, errcap) || bake_sectors(r, f, bl, path, err, errcap)) {
        rrb_blob_free(bl);
        return NULL;
    }
    bake_walls(r, f, bl);
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

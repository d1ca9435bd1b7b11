/* rrb_roo_write.c - .roo writer (model -> bytes, versions 12-15), the
 * project's hand-made sample room and the malformed variants the tests feed
 * back to the reader. Layout: NOTES.md §1; sections are written contiguously
 * from offset 20 in the order the room editor uses, so a file read from the
 * corpus is written back byte for byte. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_roo.h"

static void put_i32(rrb_buf *b, int32_t v) { rrb_buf_u32le(b, (uint32_t)v); }
static void put_u16(rrb_buf *b, uint16_t v) { rrb_buf_u16le(b, v); }

static void put_geo(rrb_buf *b, int flt, double v)
{
    if (flt)
        rrb_buf_f32le(b, (float)v);
    else
        put_i32(b, (int32_t)v);
}

static void patch_i32(rrb_buf *b, size_t at, int32_t v)
{
    uint32_t u = (uint32_t)v;
    for (int i = 0; i < 4; i++)
        b->data[at + (size_t)i] = (uint8_t)(u >> (8 * i));
}

static void write_nodes(const rrb_roo *r, rrb_buf *b, int flt)
{
    put_u16(b, (uint16_t)r->nnodes);
    for (uint32_t i = 0; i < r->nnodes; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        rrb_buf_u8(b, n->type);
        for (int k = 0; k < 4; k++)
            put_geo(b, flt, n->box[k]);
        if (n->type == RRB_ROO_NODE_LEAF) {
            put_u16(b, n->sector);
            put_u16(b, n->npoints);
            for (uint32_t k = 0; k < 2u * n->npoints; k++)
                put_geo(b, flt, r->points[2 * n->first_point + k]);
            continue;
        }
        put_geo(b, flt, n->a);
        put_geo(b, flt, n->b);
        put_geo(b, flt, n->c);
        put_u16(b, n->pos);
        put_u16(b, n->neg);
        put_u16(b, n->first_wall);
    }
}

static void write_walls(const rrb_roo *r, rrb_buf *b, int flt)
{
    put_u16(b, (uint16_t)r->nwalls);
    for (uint32_t i = 0; i < r->nwalls; i++) {
        const rrb_roo_wall *w = &r->walls[i];
        put_u16(b, w->next);
        put_u16(b, w->pos_sidedef);
        put_u16(b, w->neg_sidedef);
        put_geo(b, flt, w->x0);
        put_geo(b, flt, w->y0);
        put_geo(b, flt, w->x1);
        put_geo(b, flt, w->y1);
        if (flt)
            rrb_buf_f32le(b, (float)w->length);
        else
            put_u16(b, (uint16_t)w->length);
        put_u16(b, w->pos_xoff);
        put_u16(b, w->neg_xoff);
        put_u16(b, w->pos_yoff);
        put_u16(b, w->neg_yoff);
        put_u16(b, w->pos_sector);
        put_u16(b, w->neg_sector);
    }
}

static void write_ewalls(const rrb_roo *r, rrb_buf *b)
{
    put_u16(b, (uint16_t)r->newalls);
    for (uint32_t i = 0; i < r->newalls; i++) {
        const rrb_roo_ewall *w = &r->ewalls[i];
        put_u16(b, w->sidedef1);
        put_u16(b, w->sidedef2);
        put_u16(b, (uint16_t)w->xoff1);
        put_u16(b, (uint16_t)w->xoff2);
        put_u16(b, (uint16_t)w->yoff1);
        put_u16(b, (uint16_t)w->yoff2);
        put_u16(b, (uint16_t)w->sector1);
        put_u16(b, (uint16_t)w->sector2);
        put_i32(b, w->x0);
        put_i32(b, w->y0);
        put_i32(b, w->x1);
        put_i32(b, w->y1);
    }
}

static void write_sidedefs(const rrb_roo *r, rrb_buf *b)
{
    put_u16(b, (uint16_t)r->nsidedefs);
    for (uint32_t i = 0; i < r->nsidedefs; i++) {
        const rrb_roo_sidedef *s = &r->sidedefs[i];
        put_u16(b, s->id);
        put_u16(b, s->normal);
        put_u16(b, s->above);
        put_u16(b, s->below);
        rrb_buf_u32le(b, s->flags);
        rrb_buf_u8(b, s->speed);
    }
}

static void write_slope(rrb_buf *b, int flt, const rrb_roo_slope *s)
{
    put_geo(b, flt, s->a);
    put_geo(b, flt, s->b);
    put_geo(b, flt, s->c);
    put_geo(b, flt, s->d);
    put_i32(b, s->tex_x);
    put_i32(b, s->tex_y);
    put_i32(b, s->tex_angle);
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++)
            put_u16(b, (uint16_t)s->vert[v][k]);
}

static void write_sectors(const rrb_roo *r, rrb_buf *b, int flt)
{
    put_u16(b, (uint16_t)r->nsectors);
    for (uint32_t i = 0; i < r->nsectors; i++) {
        const rrb_roo_sector *s = &r->sectors[i];
        put_u16(b, s->id);
        put_u16(b, s->floor_bitmap);
        put_u16(b, s->ceiling_bitmap);
        put_u16(b, s->tex_x);
        put_u16(b, s->tex_y);
        put_u16(b, s->floor_h);
        put_u16(b, s->ceiling_h);
        rrb_buf_u8(b, s->light);
        rrb_buf_u32le(b, s->flags);
        rrb_buf_u8(b, s->speed);
        if (s->flags & RRB_ROO_SF_SLOPED_FLOOR)
            write_slope(b, flt, &s->floor);
        if (s->flags & RRB_ROO_SF_SLOPED_CEILING)
            write_slope(b, flt, &s->ceiling);
    }
}

static void write_things(const rrb_roo *r, rrb_buf *b)
{
    int ext = r->nthings > 2;
    put_u16(b, (uint16_t)r->nthings);
    for (uint32_t i = 0; i < r->nthings; i++) {
        const rrb_roo_thing *t = &r->things[i];
        if (ext) {
            put_i32(b, t->type);
            put_i32(b, t->angle);
        }
        put_i32(b, t->x);
        put_i32(b, t->y);
        if (ext) {
            put_i32(b, t->when);
            put_i32(b, t->exit_x);
            put_i32(b, t->exit_y);
            put_i32(b, t->flags);
            rrb_buf_put(b, t->comment, 64);
        }
    }
    if (r->has_room_id)
        put_i32(b, r->room_id);
}

static void write_server(const rrb_roo *r, rrb_buf *b)
{
    size_t n = (size_t)r->rows * (size_t)r->cols;
    if (r->version >= 15)
        return;
    put_i32(b, r->rows);
    put_i32(b, r->cols);
    rrb_buf_put(b, r->move_grid, n);
    rrb_buf_put(b, r->flag_grid, n);
    rrb_buf_put(b, r->monster_grid, n);
    if (r->version == 12)
        return;
    put_i32(b, r->rows_hr);
    put_i32(b, r->cols_hr);
    n = (size_t)r->rows_hr * (size_t)r->cols_hr;
    for (size_t i = 0; i < n; i++)
        rrb_buf_u32le(b, r->hires_grid[i]);
}

void rrb_roo_write(const rrb_roo *r, rrb_buf *b)
{
    int flt = r->version >= 14;
    size_t base = b->size;
    rrb_buf_u32le(b, RRB_ROO_MAGIC);
    put_i32(b, r->version);
    put_i32(b, r->security);
    put_i32(b, 20);
    put_i32(b, 0); /* server offset, patched */
    put_i32(b, r->width);
    put_i32(b, r->height);
    for (int i = 0; i < 6; i++)
        put_i32(b, 0);
    patch_i32(b, base + 28, (int32_t)(b->size - base));
    write_nodes(r, b, flt);
    patch_i32(b, base + 32, (int32_t)(b->size - base));
    write_walls(r, b, flt);
    patch_i32(b, base + 36, (int32_t)(b->size - base));
    write_ewalls(r, b);
    patch_i32(b, base + 40, (int32_t)(b->size - base));
    write_sidedefs(r, b);
    patch_i32(b, base + 44, (int32_t)(b->size - base));
    write_sectors(r, b, flt);
    patch_i32(b, base + 48, (int32_t)(b->size - base));
    write_things(r, b);
    patch_i32(b, base + 16, (int32_t)(b->size - base));
    write_server(r, b);
}

/* ---- the sample room ------------------------------------------------------
 * 4096 x 4096 client units (4 x 4 grid squares), y grows south:
 *
 *   x=0        2048      3072      4096
 *   +----------+---------+---------+ y=0
 *   | S1 flat  | S2 sloped floor   |
 *   |          | z = x/4 - 512     |
 *   |          +---------+---------+ y=2048
 *   |          | S3 deep | S4 no-  |
 *   |   solid->| water   | move    |
 *   +----------+---------+---------+ y=4096
 *
 * BSP (pre-order): 1 x=0 (- side outside), 2 x=2048, 3 y=2048, 4 x=3072,
 * 5 leaf S4, 6 leaf S3, 7 leaf S2, 8 leaf S1. The wall x=2048 is passable
 * above y=2048 and solid below it; y=2048 east of x=2048 is a passable,
 * transparent texture; x=3072 is passable but "no look-through". */
typedef struct { double a, b, c; uint16_t pos, neg, wall; } sample_split;
typedef struct { uint16_t sector; double x0, y0, x1, y1; } sample_leaf;
typedef struct {
    uint16_t next, psd, nsd;
    double x0, y0, x1, y1;
    uint16_t psec, nsec;
} sample_wall;

static const sample_split sample_splits[4] = {
    {1, 0, 0, 2, 0, 1}, {1, 0, -2048, 3, 8, 2}, {0, 1, -2048, 4, 7, 4}, {1, 0, -3072, 5, 6, 6}};
static const sample_leaf sample_leaves[4] = {
    {4, 3072, 2048, 4096, 4096}, {3, 2048, 2048, 3072, 4096},
    {2, 2048, 0, 4096, 2048}, {1, 0, 0, 2048, 4096}};
static const sample_wall sample_walls[6] = {
    {0, 1, 0, 0, 4096, 0, 0, 1, 0},          /* outer wall, + side = S1 */
    {3, 2, 2, 2048, 2048, 2048, 0, 2, 1},    /* passable S1 | S2 */
    {0, 3, 3, 2048, 4096, 2048, 2048, 3, 1}, /* solid S1 | S3 */
    {5, 4, 4, 2048, 2048, 3072, 2048, 3, 2}, /* transparent, passable */
    {0, 4, 4, 3072, 2048, 4096, 2048, 4, 2},
    {0, 5, 5, 3072, 4096, 3072, 2048, 4, 3}};
static const rrb_roo_sidedef sample_sidedefs[5] = {
    {10, 100, 0, 0, 0, 0}, {11, 0, 101, 102, RRB_ROO_WF_PASSABLE, 0},
    {12, 103, 0, 0, 0, 5}, {13, 104, 0, 0, RRB_ROO_WF_PASSABLE | RRB_ROO_WF_TRANSPARENT, 0},
    {14, 105, 0, 0, RRB_ROO_WF_PASSABLE | RRB_ROO_WF_TRANSPARENT | RRB_ROO_WF_NOLOOKTHROUGH, 0}};

static void sample_nodes(rrb_roo *r)
{
    r->nnodes = 8;
    r->nodes = rrb_xcalloc(9, sizeof *r->nodes);
    r->points = rrb_xcalloc(4 * 8, sizeof(double));
    for (int i = 0; i < 4; i++) {
        rrb_roo_node *n = &r->nodes[i];
        const sample_split *s = &sample_splits[i];
        n->type = RRB_ROO_NODE_INTERNAL;
        n->box[0] = i <= 1 ? 0 : 2048;
        n->box[1] = i == 2 ? 0 : (i == 3 ? 2048 : 0);
        n->box[2] = n->box[3] = 4096;
        n->a = s->a, n->b = s->b, n->c = s->c;
        n->pos = s->pos, n->neg = s->neg, n->first_wall = s->wall;
    }
    for (int i = 0; i < 4; i++) {
        rrb_roo_node *n = &r->nodes[4 + i];
        const sample_leaf *l = &sample_leaves[i];
        double *p = r->points + 8 * i;
        n->type = RRB_ROO_NODE_LEAF;
        n->box[0] = l->x0, n->box[1] = l->y0, n->box[2] = l->x1, n->box[3] = l->y1;
        n->sector = l->sector;
        n->npoints = 4;
        n->first_point = (uint32_t)(4 * i);
        p[0] = l->x0, p[1] = l->y0, p[2] = l->x1, p[3] = l->y0; /* clockwise, y down */
        p[4] = l->x1, p[5] = l->y1, p[6] = l->x0, p[7] = l->y1;
    }
    r->nleaves = 4;
    r->npoints = 16;
    r->depth = 5;
}

/* Editor coordinates: y up, room corner things at (0,0) and (256,256). */
static void sample_walls_fill(rrb_roo *r)
{
    r->nwalls = r->newalls = 6;
    r->walls = rrb_xcalloc(7, sizeof *r->walls);
    r->ewalls = rrb_xcalloc(7, sizeof *r->ewalls);
    for (int i = 0; i < 6; i++) {
        const sample_wall *s = &sample_walls[i];
        rrb_roo_wall *w = &r->walls[i];
        rrb_roo_ewall *e = &r->ewalls[i];
        w->next = s->next, w->pos_sidedef = s->psd, w->neg_sidedef = s->nsd;
        w->x0 = s->x0, w->y0 = s->y0, w->x1 = s->x1, w->y1 = s->y1;
        w->length = floor(hypot(s->x1 - s->x0, s->y1 - s->y0) / 16);
        w->pos_sector = s->psec, w->neg_sector = s->nsec;
        e->sidedef1 = s->psd, e->sidedef2 = s->nsd;
        e->sector1 = (int16_t)(s->psec - 1), e->sector2 = (int16_t)(s->nsec - 1);
        e->x0 = (int32_t)(s->x0 / 16), e->y0 = (int32_t)(256 - s->y0 / 16);
        e->x1 = (int32_t)(s->x1 / 16), e->y1 = (int32_t)(256 - s->y1 / 16);
    }
    r->nsidedefs = 5;
    r->sidedefs = rrb_xcalloc(6, sizeof *r->sidedefs);
    memcpy(r->sidedefs, sample_sidedefs, sizeof sample_sidedefs);
}

static void sample_sectors(rrb_roo *r)
{
    static const uint16_t fh[4] = {0, 0, 16, 0}, ch[4] = {128, 256, 128, 64};
    static const uint32_t fl[4] = {0, RRB_ROO_SF_SLOPED_FLOOR, 2, RRB_ROO_SF_NOMOVE};
    rrb_roo_slope *s;
    r->nsectors = 4;
    r->sectors = rrb_xcalloc(5, sizeof *r->sectors);
    for (int i = 0; i < 4; i++) {
        rrb_roo_sector *d = &r->sectors[i];
        d->id = (uint16_t)(20 + i), d->floor_bitmap = (uint16_t)(200 + i);
        d->ceiling_bitmap = 210, d->floor_h = fh[i], d->ceiling_h = ch[i];
        d->light = 192, d->flags = fl[i];
    }
    /* z = x/4 - 512 client units: -256 x + 1024 z + 524288 = 0 */
    s = &r->sectors[1].floor;
    s->a = -256, s->b = 0, s->c = 1024, s->d = 524288;
    s->tex_x = 2048, s->tex_y = 0;
    s->vert[0][0] = 128, s->vert[0][1] = 256, s->vert[0][2] = 0;
    s->vert[1][0] = 256, s->vert[1][1] = 256, s->vert[1][2] = 32;
    s->vert[2][0] = 256, s->vert[2][1] = 128, s->vert[2][2] = 32;
    r->nslopes = 1;
}

/* Floor in client units at (x, y) of the sample, for its grids. */
static int sample_floor(double x, double y)
{
    if (x < 2048)
        return 0;
    if (y < 2048)
        return (int)(x / 4 - 512);
    return x < 3072 ? 256 : 0;
}

/* Movement between two points crosses the solid wall x=2048, y in [2048,4096]? */
static int sample_blocked(double x0, double y0, double x1, double y1)
{
    if ((x0 < 2048) == (x1 < 2048))
        return 0;
    double t = (2048 - x0) / (x1 - x0), y = y0 + t * (y1 - y0);
    return y >= 2048;
}

static uint32_t sample_dirs(int32_t row, int32_t col, int32_t rows, int32_t cols, double f)
{
    static const int dr[8] = {-1, -1, 0, 1, 1, 1, 0, -1}, dc[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    uint32_t bits = 0;
    for (int d = 0; d < 8; d++) {
        int32_t r2 = row + dr[d], c2 = col + dc[d];
        if (r2 < 0 || c2 < 0 || r2 >= rows || c2 >= cols)
            continue;
        if (!sample_blocked(col * f + f / 2, row * f + f / 2, c2 * f + f / 2, r2 * f + f / 2))
            bits |= 1u << d;
    }
    return bits;
}

static void sample_grids(rrb_roo *r)
{
    r->has_grids = 1;
    r->rows = r->cols = 4;
    r->move_grid = rrb_xcalloc(16, 1);
    r->flag_grid = rrb_xcalloc(16, 1);
    r->monster_grid = rrb_xcalloc(16, 1);
    for (int32_t i = 0; i < 16; i++) {
        r->move_grid[i] = r->monster_grid[i] = (uint8_t)sample_dirs(i / 4, i % 4, 4, 4, 1024);
        r->flag_grid[i] = 1;
    }
    if (r->version == 12)
        return;
    r->has_hires = 1;
    r->rows_hr = r->cols_hr = 16;
    r->hires_grid = rrb_xcalloc(256, 4);
    for (int32_t i = 0; i < 256; i++) {
        double x = (i % 16) * 256 + 128, y = (i / 16) * 256 + 128;
        uint32_t walk = !(x >= 3072 && y >= 2048);
        uint32_t z = (uint32_t)(sample_floor(x, y) / 256);
        r->hires_grid[i] = walk | sample_dirs(i / 16, i % 16, 16, 16, 256) << 1 | z << 9;
    }
}

void rrb_roo_make_sample(rrb_roo *r, int32_t version)
{
    memset(r, 0, sizeof *r);
    r->version = version;
    r->main_offset = 20;
    r->width = r->height = 4096;
    sample_nodes(r);
    sample_walls_fill(r);
    sample_sectors(r);
    r->nthings = 2;
    r->things = rrb_xcalloc(2, sizeof *r->things);
    r->things[0].x = 0, r->things[0].y = 256;
    r->things[1].x = 256, r->things[1].y = 0;
    r->has_room_id = 1;
    r->room_id = 42;
    if (version < 15)
        sample_grids(r);
    r->security = r->security_calc = rrb_roo_security(r);
}

int rrb_roo_sample(const char *dir, char *err, size_t errcap)
{
    static const int32_t versions[4] = {15, 12, 13, 14};
    for (int i = 0; i < 4; i++) {
        rrb_roo r;
        rrb_buf b = {0};
        char path[1024];
        rrb_roo_make_sample(&r, versions[i]);
        rrb_roo_write(&r, &b);
        if (i == 0)
            snprintf(path, sizeof path, "%s/sample.roo", dir);
        else
            snprintf(path, sizeof path, "%s/sample_v%d.roo", dir, (int)versions[i]);
        int rc = rrb_save_file(path, b.data, b.size, err, errcap);
        rrb_buf_free(&b);
        rrb_roo_free(&r);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- malformed variants ----------------------------------------------- */
typedef struct vlist {
    rrb_roo_variant *v;
    size_t n, cap;
    const uint8_t *src;
    size_t size;
} vlist;

/* A copy of the source cut to `size` bytes (size may exceed the source by 8:
 * the tail is zero-filled). */
static rrb_roo_variant *vadd(vlist *l, const char *name, size_t size, const char *expect)
{
    rrb_roo_variant *v;
    l->v = rrb_grow(l->v, &l->cap, l->n + 1, sizeof *l->v);
    v = &l->v[l->n++];
    snprintf(v->name, sizeof v->name, "%s", name);
    v->data = rrb_xcalloc(size + 1, 1);
    memcpy(v->data, l->src, size < l->size ? size : l->size);
    v->size = size;
    v->expect = expect;
    return v;
}

static void vpatch(vlist *l, const char *name, size_t at, uint32_t val, int bytes,
                   const char *expect)
{
    rrb_roo_variant *v = vadd(l, name, l->size, expect);
    for (int i = 0; i < bytes && at + (size_t)i < v->size; i++)
        v->data[at + (size_t)i] = (uint8_t)(val >> (8 * i));
}

static void add_truncations(vlist *l, const rrb_roo *r)
{
    size_t cut[16];
    int n = 0;
    char name[64];
    cut[n++] = 4, cut[n++] = 20, cut[n++] = 36;
    for (int i = 0; i < 6; i++)
        cut[n++] = (size_t)r->offsets[i];
    cut[n++] = (size_t)r->offsets[0] + 2;
    cut[n++] = (size_t)r->server_offset;
    cut[n++] = (size_t)r->server_offset + 8;
    cut[n++] = l->size - 1;
    for (int i = 0; i < n; i++) {
        if (cut[i] >= l->size)
            continue;
        snprintf(name, sizeof name, "truncated at 0x%zx", cut[i]);
        vadd(l, name, cut[i], ":0x");
        /* the same with the server offset moved inside the cut, so that the
         * section reader itself meets the end of the file */
        if (cut[i] >= 20) {
            snprintf(name, sizeof name, "truncated at 0x%zx, server offset inside", cut[i]);
            rrb_roo_variant *v = vadd(l, name, cut[i], ":0x");
            size_t sv = (size_t)r->server_offset;
            uint32_t so = (uint32_t)(cut[i] < sv ? cut[i] : sv);
            for (int k = 0; k < 4; k++)
                v->data[16 + k] = (uint8_t)(so >> (8 * k));
        }
    }
}

static void add_index_variants(vlist *l, const rrb_roo *r)
{
    uint32_t in1 = 0, in2 = 0, leaf = 0;
    for (uint32_t i = 1; i <= r->nnodes; i++) {
        const rrb_roo_node *n = &r->nodes[i - 1];
        if (n->type == RRB_ROO_NODE_LEAF && !leaf)
            leaf = i;
        if (n->type == RRB_ROO_NODE_INTERNAL && n->pos && !in1)
            in1 = i;
        else if (n->type == RRB_ROO_NODE_INTERNAL && !in2)
            in2 = i;
    }
    if (in1) {
        size_t o = r->nodes[in1 - 1].off + 29;
        vpatch(l, "child index past the end", o, r->nnodes + 1, 2, "child node");
        vpatch(l, "cyclic child (self)", o, in1, 2, "cyclic");
        vpatch(l, "first wall past the end", o + 4, r->nwalls + 1, 2, "first wall");
        vpatch(l, "node type 3", r->nodes[in1 - 1].off, 3, 1, "node type");
    }
    if (in2)
        vpatch(l, "cyclic child (back to root)", r->nodes[in2 - 1].off + 31, 1, 2, "cyclic");
    if (in1)
        vpatch(l, "child link removed (orphan subtree)", r->nodes[in1 - 1].off + 29, 0, 2,
               "reachable");
    if (leaf)
        vpatch(l, "leaf sector past the end", r->nodes[leaf - 1].off + 17, r->nsectors + 1, 2,
               "sector");
    if (r->nwalls) {
        const rrb_roo_wall *w = &r->walls[0];
        vpatch(l, "wall sidedef past the end", w->off + 2, r->nsidedefs + 1, 2, "sidedef");
        vpatch(l, "wall sector past the end", w->off + (r->version >= 14 ? 34 : 32),
               r->nsectors + 1, 2, "sector");
    }
}

static void add_header_variants(vlist *l, const rrb_roo *r)
{
    vpatch(l, "bad magic", 0, 0x584F4F52u, 4, "magic");
    vpatch(l, "version 11", 4, 11, 4, "unsupported version 11");
    vpatch(l, "version 16", 4, 16, 4, "unsupported version 16");
    vpatch(l, "encrypted (width -1)", 20, 0xffffffffu, 4, "Crush32");
    vpatch(l, "node count past the end", (size_t)r->offsets[0], 0xffffu, 2, "node");
    vpatch(l, "sidedef offset past the end", 40, (uint32_t)l->size + 100, 4, "offset");
    vpatch(l, "server offset past the end", 16, (uint32_t)l->size + 1, 4, "server offset");
    vadd(l, "trailing bytes", l->size + 3, "end of file");
}

/* NaN/Inf need float fields: v12/13 models are written as v14 first. */
static void add_float_variants(vlist *l, const rrb_roo *r)
{
    rrb_roo f = *r, g;
    rrb_buf b = {0};
    char err[RRB_ERR_MAX];
    f.version = r->version < 14 ? 14 : r->version;
    rrb_roo_write(&f, &b);
    if (rrb_roo_read(b.data, b.size, "float copy", &g, err, sizeof err) == 0) {
        vlist m = {l->v, l->n, l->cap, b.data, b.size};
        if (g.nnodes)
            vpatch(&m, "NaN in v14 node box", g.nodes[0].off + 1, 0x7fc00000u, 4, "NaN");
        if (g.nwalls)
            vpatch(&m, "Inf in v14 wall x0", g.walls[0].off + 6, 0x7f800000u, 4, "Inf");
        l->v = m.v, l->n = m.n, l->cap = m.cap;
        rrb_roo_free(&g);
    }
    rrb_buf_free(&b);
}

size_t rrb_roo_variants(const rrb_roo *r0, rrb_roo_variant **out)
{
    rrb_buf b = {0};
    rrb_roo r;
    char err[RRB_ERR_MAX];
    vlist l = {0};
    rrb_roo_write(r0, &b);
    *out = NULL;
    if (rrb_roo_read(b.data, b.size, "variant source", &r, err, sizeof err) != 0) {
        rrb_buf_free(&b);
        return 0;
    }
    l.src = b.data, l.size = b.size;
    add_truncations(&l, &r);
    add_index_variants(&l, &r);
    add_header_variants(&l, &r);
    add_float_variants(&l, &r);
    rrb_roo_free(&r);
    rrb_buf_free(&b);
    *out = l.v;
    return l.n;
}

void rrb_roo_variants_free(rrb_roo_variant *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].data);
    free(v);
}

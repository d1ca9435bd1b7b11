/* rrb_roo.c - Meridian 59 .roo reader (versions 12-15) and the rrbake hooks
 * info / info_json / verify / dump_json. Layout: NOTES.md §1; every read goes
 * through the rrb_cur cursor, so every error names its byte offset. */
#include "rrb_roo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_format.h"

/* Geometry field: i32 in v12/13, finite f32 in v14/15. */
static double geo(rrb_cur *c, int flt, const char *what)
{
    return flt ? (double)rrb_f32(c, what) : (double)rrb_i32(c, what);
}

/* Move the cursor to an absolute offset read from the file at field_off. */
static int seek(rrb_cur *c, int32_t off, size_t field_off, const char *what)
{
    if (c->failed)
        return -1;
    if (off < 0 || (size_t)off > c->size)
        return rrb_fail(c, field_off, "expected offset of %s within the %zu-byte file, found %ld",
                        what, c->size, (long)off);
    c->pos = (size_t)off;
    return 0;
}

static int read_header(rrb_cur *c, rrb_roo *r)
{
    uint32_t magic = rrb_u32(c, "magic ROO\\xB1");
    if (c->failed)
        return -1;
    if (magic != RRB_ROO_MAGIC)
        return rrb_fail(c, 0, "expected magic 52 4F 4F B1, found %02X %02X %02X %02X",
                        c->data[0], c->data[1], c->data[2], c->data[3]);
    r->version = rrb_i32(c, "version");
    if (!c->failed && (r->version < 12 || r->version > 15))
        return rrb_fail(c, 4, "expected version 12..15, found unsupported version %ld",
                        (long)r->version);
    r->security = rrb_i32(c, "security");
    r->main_offset = rrb_i32(c, "main info offset");
    r->server_offset = rrb_i32(c, "server info offset");
    if (!c->failed && (r->server_offset < 0 || (size_t)r->server_offset > c->size))
        return rrb_fail(c, 16, "expected server offset within the %zu-byte file, found %ld",
                        c->size, (long)r->server_offset);
    if (seek(c, r->main_offset, 12, "main info"))
        return -1;
    r->width = rrb_i32(c, "room width");
    if (!c->failed && r->width == -1)
        return rrb_fail(c, (size_t)r->main_offset,
                        "expected an unencrypted room, found width -1: the room is encrypted "
                        "with the proprietary Crush32 scheme, which is not supported");
    r->height = rrb_i32(c, "room height");
    static const char *const names[6] = {"node", "client wall", "editor wall", "sidedef",
                                         "sector", "thing"};
    for (int i = 0; i < 6; i++) {
        size_t at = c->pos;
        r->offsets[i] = rrb_i32(c, "section offset");
        if (!c->failed && (r->offsets[i] < 0 || (size_t)r->offsets[i] > c->size))
            return rrb_fail(c, at, "expected offset of the %s section within the %zu-byte "
                            "file, found %ld", names[i], c->size, (long)r->offsets[i]);
    }
    return c->failed ? -1 : 0;
}

static int read_leaf(rrb_cur *c, rrb_roo *r, rrb_roo_node *n, int flt, size_t *pcap)
{
    n->sector = rrb_u16(c, "leaf sector");
    size_t at = c->pos;
    n->npoints = rrb_u16(c, "leaf point count");
    if (rrb_check_count(c, at, n->npoints, 8, "leaf points"))
        return -1;
    n->first_point = r->npoints;
    r->points = rrb_grow(r->points, pcap, 2 * ((size_t)r->npoints + n->npoints), sizeof(double));
    for (uint32_t i = 0; i < n->npoints; i++) {
        r->points[2 * r->npoints] = geo(c, flt, "leaf point x");
        r->points[2 * r->npoints + 1] = geo(c, flt, "leaf point y");
        r->npoints++;
    }
    r->nleaves++;
    return c->failed ? -1 : 0;
}

static int read_nodes(rrb_cur *c, rrb_roo *r)
{
    int flt = r->version >= 14;
    size_t pcap = 0;
    if (seek(c, r->offsets[0], 28, "node section"))
        return -1;
    size_t at = c->pos;
    r->nnodes = rrb_u16(c, "node count");
    if (rrb_check_count(c, at, r->nnodes, 21, "BSP nodes"))
        return -1;
    r->nodes = rrb_xcalloc(r->nnodes + 1, sizeof *r->nodes);
    for (uint32_t i = 0; i < r->nnodes; i++) {
        rrb_roo_node *n = &r->nodes[i];
        n->off = c->pos;
        n->type = rrb_u8(c, "node type");
        if (!c->failed && n->type != RRB_ROO_NODE_INTERNAL && n->type != RRB_ROO_NODE_LEAF)
            return rrb_fail(c, n->off, "expected node type 1 (internal) or 2 (leaf) for node %u, "
                            "found %u", i + 1, n->type);
        for (int k = 0; k < 4; k++)
            n->box[k] = geo(c, flt, "node bounding box");
        if (n->type == RRB_ROO_NODE_LEAF) {
            if (read_leaf(c, r, n, flt, &pcap))
                return -1;
            continue;
        }
        n->a = geo(c, flt, "separator a");
        n->b = geo(c, flt, "separator b");
        n->c = geo(c, flt, "separator c");
        n->pos = rrb_u16(c, "+ child");
        n->neg = rrb_u16(c, "- child");
        n->first_wall = rrb_u16(c, "first wall");
        if (c->failed)
            return -1;
    }
    return c->failed ? -1 : 0;
}

static int read_walls(rrb_cur *c, rrb_roo *r)
{
    int flt = r->version >= 14;
    if (seek(c, r->offsets[1], 32, "client wall section"))
        return -1;
    size_t at = c->pos;
    r->nwalls = rrb_u16(c, "client wall count");
    if (rrb_check_count(c, at, r->nwalls, flt ? 38 : 36, "client walls"))
        return -1;
    r->walls = rrb_xcalloc(r->nwalls + 1, sizeof *r->walls);
    for (uint32_t i = 0; i < r->nwalls; i++) {
        rrb_roo_wall *w = &r->walls[i];
        w->off = c->pos;
        w->next = rrb_u16(c, "wall next");
        w->pos_sidedef = rrb_u16(c, "wall + sidedef");
        w->neg_sidedef = rrb_u16(c, "wall - sidedef");
        w->x0 = geo(c, flt, "wall x0");
        w->y0 = geo(c, flt, "wall y0");
        w->x1 = geo(c, flt, "wall x1");
        w->y1 = geo(c, flt, "wall y1");
        w->length = flt ? (double)rrb_f32(c, "wall length") : (double)rrb_u16(c, "wall length");
        w->pos_xoff = rrb_u16(c, "texture offset");
        w->neg_xoff = rrb_u16(c, "texture offset");
        w->pos_yoff = rrb_u16(c, "texture offset");
        w->neg_yoff = rrb_u16(c, "texture offset");
        w->pos_sector = rrb_u16(c, "wall + sector");
        w->neg_sector = rrb_u16(c, "wall - sector");
    }
    return c->failed ? -1 : 0;
}

static int read_ewalls(rrb_cur *c, rrb_roo *r)
{
    if (seek(c, r->offsets[2], 36, "editor wall section"))
        return -1;
    size_t at = c->pos;
    r->newalls = rrb_u16(c, "editor wall count");
    if (rrb_check_count(c, at, r->newalls, 32, "editor walls"))
        return -1;
    r->ewalls = rrb_xcalloc(r->newalls + 1, sizeof *r->ewalls);
    for (uint32_t i = 0; i < r->newalls; i++) {
        rrb_roo_ewall *w = &r->ewalls[i];
        w->sidedef1 = rrb_u16(c, "editor wall sidedef");
        w->sidedef2 = rrb_u16(c, "editor wall sidedef");
        w->xoff1 = rrb_i16(c, "editor wall offset");
        w->xoff2 = rrb_i16(c, "editor wall offset");
        w->yoff1 = rrb_i16(c, "editor wall offset");
        w->yoff2 = rrb_i16(c, "editor wall offset");
        w->sector1 = rrb_i16(c, "editor wall sector");
        w->sector2 = rrb_i16(c, "editor wall sector");
        w->x0 = rrb_i32(c, "editor wall x0");
        w->y0 = rrb_i32(c, "editor wall y0");
        w->x1 = rrb_i32(c, "editor wall x1");
        w->y1 = rrb_i32(c, "editor wall y1");
    }
    return c->failed ? -1 : 0;
}

static int read_sidedefs(rrb_cur *c, rrb_roo *r)
{
    if (seek(c, r->offsets[3], 40, "sidedef section"))
        return -1;
    size_t at = c->pos;
    r->nsidedefs = rrb_u16(c, "sidedef count");
    if (rrb_check_count(c, at, r->nsidedefs, 13, "sidedefs"))
        return -1;
    r->sidedefs = rrb_xcalloc(r->nsidedefs + 1, sizeof *r->sidedefs);
    for (uint32_t i = 0; i < r->nsidedefs; i++) {
        rrb_roo_sidedef *s = &r->sidedefs[i];
        s->id = rrb_u16(c, "sidedef id");
        s->normal = rrb_u16(c, "sidedef normal bitmap");
        s->above = rrb_u16(c, "sidedef above bitmap");
        s->below = rrb_u16(c, "sidedef below bitmap");
        s->flags = rrb_u32(c, "sidedef flags");
        s->speed = rrb_u8(c, "sidedef speed");
    }
    return c->failed ? -1 : 0;
}

static void read_slope(rrb_cur *c, int flt, rrb_roo_slope *s)
{
    s->a = geo(c, flt, "slope a");
    s->b = geo(c, flt, "slope b");
    s->c = geo(c, flt, "slope c");
    s->d = geo(c, flt, "slope d");
    s->tex_x = rrb_i32(c, "slope texture origin x");
    s->tex_y = rrb_i32(c, "slope texture origin y");
    s->tex_angle = rrb_i32(c, "slope texture angle");
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++)
            s->vert[v][k] = rrb_i16(c, "slope vertex");
}

static int read_sectors(rrb_cur *c, rrb_roo *r)
{
    int flt = r->version >= 14;
    if (seek(c, r->offsets[4], 44, "sector section"))
        return -1;
    size_t at = c->pos;
    r->nsectors = rrb_u16(c, "sector count");
    if (rrb_check_count(c, at, r->nsectors, 20, "sectors"))
        return -1;
    r->sectors = rrb_xcalloc(r->nsectors + 1, sizeof *r->sectors);
    for (uint32_t i = 0; i < r->nsectors && !c->failed; i++) {
        rrb_roo_sector *s = &r->sectors[i];
        s->off = c->pos;
        s->id = rrb_u16(c, "sector id");
        s->floor_bitmap = rrb_u16(c, "sector floor bitmap");
        s->ceiling_bitmap = rrb_u16(c, "sector ceiling bitmap");
        s->tex_x = rrb_u16(c, "sector texture x");
        s->tex_y = rrb_u16(c, "sector texture y");
        s->floor_h = rrb_u16(c, "sector floor height");
        s->ceiling_h = rrb_u16(c, "sector ceiling height");
        s->light = rrb_u8(c, "sector light");
        s->flags = rrb_u32(c, "sector flags");
        s->speed = rrb_u8(c, "sector speed");
        if (s->flags & RRB_ROO_SF_SLOPED_FLOOR) {
            read_slope(c, flt, &s->floor);
            r->nslopes++;
        }
        if (s->flags & RRB_ROO_SF_SLOPED_CEILING) {
            read_slope(c, flt, &s->ceiling);
            r->nslopes++;
        }
    }
    return c->failed ? -1 : 0;
}

static int read_things(rrb_cur *c, rrb_roo *r)
{
    if (seek(c, r->offsets[5], 48, "thing section"))
        return -1;
    size_t at = c->pos;
    r->nthings = rrb_u16(c, "thing count");
    if (rrb_check_count(c, at, r->nthings, r->nthings > 2 ? 96 : 8, "things"))
        return -1;
    r->things = rrb_xcalloc(r->nthings + 1, sizeof *r->things);
    for (uint32_t i = 0; i < r->nthings; i++) {
        rrb_roo_thing *t = &r->things[i];
        if (r->nthings > 2) {
            t->type = rrb_i32(c, "thing type");
            t->angle = rrb_i32(c, "thing angle");
        }
        t->x = rrb_i32(c, "thing x");
        t->y = rrb_i32(c, "thing y");
        if (r->nthings > 2) {
            t->when = rrb_i32(c, "thing when");
            t->exit_x = rrb_i32(c, "thing exit x");
            t->exit_y = rrb_i32(c, "thing exit y");
            t->flags = rrb_i32(c, "thing flags");
            rrb_bytes(c, t->comment, 64, "thing comment");
        }
    }
    if (!c->failed && c->pos > (size_t)r->server_offset)
        return rrb_fail(c, 16, "expected the server section after the things (0x%zx), found "
                        "server offset 0x%lx", c->pos, (long)r->server_offset);
    if (!c->failed && (size_t)r->server_offset - c->pos >= 4) {
        r->has_room_id = 1;
        r->room_id = rrb_i32(c, "room id");
    }
    if (!c->failed && c->pos != (size_t)r->server_offset)
        return rrb_fail(c, c->pos, "expected the server section at 0x%lx, found %zu unexplained "
                        "bytes before it", (long)r->server_offset,
                        (size_t)r->server_offset - c->pos);
    return c->failed ? -1 : 0;
}

/* rows, cols and a rows*cols grid of elem-byte cells, checked against the bytes left. */
static int grid_dims(rrb_cur *c, int32_t *rows, int32_t *cols, size_t grids, size_t elem)
{
    size_t at = c->pos;
    *rows = rrb_i32(c, "grid rows");
    *cols = rrb_i32(c, "grid columns");
    if (c->failed)
        return -1;
    if (*rows < 0 || *cols < 0)
        return rrb_fail(c, at, "expected non-negative grid dimensions, found %ld x %ld",
                        (long)*rows, (long)*cols);
    return rrb_check_count(c, at, (int64_t)*rows * *cols, grids * elem, "grid cells");
}

static int read_server(rrb_cur *c, rrb_roo *r)
{
    c->pos = (size_t)r->server_offset;
    if (r->version >= 15)
        return 0;
    if (grid_dims(c, &r->rows, &r->cols, 3, 1))
        return -1;
    size_t n = (size_t)r->rows * (size_t)r->cols;
    r->has_grids = 1;
    r->move_grid = rrb_xmalloc(n + 1);
    r->flag_grid = rrb_xmalloc(n + 1);
    r->monster_grid = rrb_xmalloc(n + 1);
    rrb_bytes(c, r->move_grid, n, "player move grid");
    rrb_bytes(c, r->flag_grid, n, "square flag grid");
    rrb_bytes(c, r->monster_grid, n, "monster move grid");
    if (r->version == 12)
        return c->failed ? -1 : 0;
    if (grid_dims(c, &r->rows_hr, &r->cols_hr, 1, 4))
        return -1;
    n = (size_t)r->rows_hr * (size_t)r->cols_hr;
    r->has_hires = 1;
    r->hires_grid = rrb_xmalloc(4 * n + 4);
    for (size_t i = 0; i < n; i++)
        r->hires_grid[i] = rrb_u32(c, "high-res grid cell");
    return c->failed ? -1 : 0;
}

/* Field offsets inside records, for messages about indices. */
static size_t node_child_off(const rrb_roo *r, const rrb_roo_node *n, int which)
{
    (void)r;
    return n->off + 1 + 16 + 12 + (size_t)(2 * which);
}

static size_t wall_sector_off(const rrb_roo *r, const rrb_roo_wall *w)
{
    return w->off + (r->version >= 14 ? 34 : 32);
}

/* Children must exist, come after their parent (pre-order: no cycle) and have
 * exactly one parent (so every node is reachable from the root); leaves need
 * a sector, internal nodes a valid first wall. */
static int check_nodes(rrb_cur *c, rrb_roo *r)
{
    uint32_t *depth = rrb_xcalloc(r->nnodes + 1, sizeof *depth);
    int rc = 0;
    if (r->nnodes)
        depth[1] = r->depth = 1;
    for (uint32_t i = 1; i <= r->nnodes && !rc; i++) {
        rrb_roo_node *n = &r->nodes[i - 1];
        if (n->type == RRB_ROO_NODE_LEAF) {
            rrb_trace_index(c, n->off + 17, (int64_t)r->nsectors + 1, "leaf sector");
            if (n->sector == 0 || n->sector > r->nsectors)
                rc = rrb_fail(c, n->off + 17, "expected a sector 1..%u for leaf node %u, found %u",
                              r->nsectors, i, n->sector);
            continue;
        }
        rrb_trace_index(c, node_child_off(r, n, 2), (int64_t)r->nwalls + 1, "node first wall");
        if (n->first_wall > r->nwalls)
            rc = rrb_fail(c, node_child_off(r, n, 2), "expected first wall 0..%u in node %u, "
                          "found %u", r->nwalls, i, n->first_wall);
        for (int k = 0; k < 2 && !rc; k++) {
            uint32_t ch = k ? n->neg : n->pos;
            rrb_trace_index(c, node_child_off(r, n, k), (int64_t)r->nnodes + 1, "node child");
            if (ch == 0)
                continue;
            if (ch > r->nnodes)
                rc = rrb_fail(c, node_child_off(r, n, k), "expected child node 1..%u in node %u, "
                              "found %u", r->nnodes, i, ch);
            else if (ch <= i)
                rc = rrb_fail(c, node_child_off(r, n, k), "expected a child after node %u "
                              "(pre-order), found %u: cyclic or backward tree link", i, ch);
            else if (depth[ch])
                rc = rrb_fail(c, node_child_off(r, n, k), "expected node %u to have one parent, "
                              "found a second link from node %u", ch, i);
            else if ((depth[ch] = depth[i] + 1) > r->depth)
                r->depth = depth[ch];
        }
    }
    for (uint32_t i = 2; i <= r->nnodes && !rc; i++)
        if (!depth[i])
            rc = rrb_fail(c, r->nodes[i - 1].off, "expected node %u to be reachable from the "
                          "root (every node has a parent), found no link to it", i);
    free(depth);
    return rc;
}

static int check_index(rrb_cur *c, size_t off, uint32_t v, uint32_t max, const char *what,
                       uint32_t rec)
{
    rrb_trace_index(c, off, (int64_t)max + 1, what);
    if (v <= max)
        return 0;
    return rrb_fail(c, off, "expected %s 0..%u in record %u, found %u", what, max, rec, v);
}

static int check_walls(rrb_cur *c, rrb_roo *r)
{
    for (uint32_t i = 0; i < r->nwalls; i++) {
        const rrb_roo_wall *w = &r->walls[i];
        size_t so = wall_sector_off(r, w);
        if (check_index(c, w->off, w->next, r->nwalls, "client wall next", i + 1) ||
            check_index(c, w->off + 2, w->pos_sidedef, r->nsidedefs, "wall + sidedef", i + 1) ||
            check_index(c, w->off + 4, w->neg_sidedef, r->nsidedefs, "wall - sidedef", i + 1) ||
            check_index(c, so, w->pos_sector, r->nsectors, "wall + sector", i + 1) ||
            check_index(c, so + 2, w->neg_sector, r->nsectors, "wall - sector", i + 1))
            return -1;
    }
    return 0;
}

int32_t rrb_roo_security(const rrb_roo *r)
{
    uint32_t s = (uint32_t)r->version;
    int ints = r->version < 14;
    for (uint32_t i = 0; i < r->nnodes; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        if (n->type == RRB_ROO_NODE_INTERNAL) {
            if (ints)
                s += (uint32_t)(int32_t)n->a + (uint32_t)(int32_t)n->b + (uint32_t)(int32_t)n->c;
            s += n->first_wall;
        } else if (ints) {
            for (uint32_t k = 0; k < 2u * n->npoints; k++)
                s += (uint32_t)(int32_t)r->points[2 * n->first_point + k];
        }
    }
    for (uint32_t i = 0; i < r->nwalls; i++) {
        const rrb_roo_wall *w = &r->walls[i];
        s += (uint32_t)w->pos_sidedef + w->neg_sidedef + w->pos_sector + w->neg_sector;
        if (ints)
            s += (uint32_t)(int32_t)w->x0 + (uint32_t)(int32_t)w->y0 + (uint32_t)(int32_t)w->x1 +
                 (uint32_t)(int32_t)w->y1;
    }
    for (uint32_t i = 0; i < r->nsidedefs; i++) {
        const rrb_roo_sidedef *d = &r->sidedefs[i];
        s += (uint32_t)d->id + d->normal + d->above + d->below + d->flags;
    }
    for (uint32_t i = 0; i < r->nsectors; i++) {
        const rrb_roo_sector *d = &r->sectors[i];
        s += (uint32_t)d->id + d->floor_bitmap + d->ceiling_bitmap + d->floor_h + d->ceiling_h +
             d->light + d->flags;
    }
    return (int32_t)(s ^ RRB_ROO_SECURITY_XOR);
}

/* Section k (offsets[k]) was just read: it must end by the next section
 * start (or the end of the file). The tables are addressed by offset, so a
 * count that is too large but still fits in the file would otherwise read
 * the following sections as records. */
static int section_fits(rrb_cur *c, const rrb_roo *r, int k, const char *what)
{
    size_t start = (size_t)r->offsets[k], end = c->size;
    int32_t next[8] = {r->main_offset, r->server_offset};
    memcpy(next + 2, r->offsets, sizeof r->offsets);
    for (int i = 0; i < 8; i++)
        if (next[i] > 0 && (size_t)next[i] > start && (size_t)next[i] < end)
            end = (size_t)next[i];
    if (c->failed)
        return -1;
    if (c->pos > end)
        return rrb_fail(c, start, "expected the %s to end by 0x%zx, where the next section "
                        "starts, found them running to 0x%zx (is the count here too large?)",
                        what, end, c->pos);
    if (c->pos < end)
        return rrb_fail(c, start, "expected the %s to fill their section up to 0x%zx, where "
                        "the next section starts, found %zu bytes left over (is the count here "
                        "too small?)", what, end, end - c->pos);
    return 0;
}

int rrb_roo_read(const uint8_t *data, size_t size, const char *path, rrb_roo *r,
                 char *err, size_t errcap)
{
    rrb_cur c;
    memset(r, 0, sizeof *r);
    rrb_cur_init(&c, data, size, path);
    if (read_header(&c, r) || read_nodes(&c, r) || section_fits(&c, r, 0, "BSP nodes") ||
        read_walls(&c, r) || section_fits(&c, r, 1, "client walls") || read_ewalls(&c, r) ||
        section_fits(&c, r, 2, "editor walls") || read_sidedefs(&c, r) ||
        section_fits(&c, r, 3, "sidedefs") || read_sectors(&c, r) ||
        section_fits(&c, r, 4, "sectors") || read_things(&c, r) ||
        read_server(&c, r) || check_nodes(&c, r) || check_walls(&c, r)) {
        snprintf(err, errcap, "%s", c.err);
        rrb_roo_free(r);
        return -1;
    }
    r->end = c.pos;
    if (r->end != size) {
        rrb_fail(&c, r->end, "expected end of file after the server section, found %zu more "
                 "bytes", size - r->end);
        snprintf(err, errcap, "%s", c.err);
        rrb_roo_free(r);
        return -1;
    }
    r->security_calc = rrb_roo_security(r);
    return 0;
}

void rrb_roo_free(rrb_roo *r)
{
    free(r->nodes);
    free(r->points);
    free(r->walls);
    free(r->ewalls);
    free(r->sidedefs);
    free(r->sectors);
    free(r->things);
    free(r->move_grid);
    free(r->flag_grid);
    free(r->monster_grid);
    free(r->hires_grid);
    memset(r, 0, sizeof *r);
}

/* ---- rrbake hooks ---------------------------------------------------- */

int rrb_roo_probe(const uint8_t *data, size_t size, const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (size >= 4 && data[0] == 0x52 && data[1] == 0x4F && data[2] == 0x4F && data[3] == 0xB1)
        return 1;
    return n >= 4 && (strcmp(path + n - 4, ".roo") == 0 || strcmp(path + n - 4, ".ROO") == 0);
}

static int load(const uint8_t *data, size_t size, const char *path, rrb_roo *r, char *err,
                size_t errcap)
{
    return rrb_roo_read(data, size, path, r, err, errcap);
}

int rrb_roo_info(const uint8_t *data, size_t size, const char *path, FILE *out, char *err,
                 size_t errcap)
{
    rrb_roo r;
    if (load(data, size, path, &r, err, errcap))
        return -1;
    fprintf(out, "%s: Meridian 59 room, version %d, %zu bytes\n", path, (int)r.version, size);
    fprintf(out, "  room        %ld x %ld client units (%ld x %ld grid squares)\n",
            (long)r.width, (long)r.height, (long)r.width / 1024, (long)r.height / 1024);
    fprintf(out, "  bsp         %u nodes (%u leaves, %u leaf points), depth %u\n", r.nnodes,
            r.nleaves, r.npoints, r.depth);
    fprintf(out, "  walls       %u client, %u editor; %u sidedefs\n", r.nwalls, r.newalls,
            r.nsidedefs);
    fprintf(out, "  sectors     %u (%u slopes)\n", r.nsectors, r.nslopes);
    fprintf(out, "  things      %u%s; room id %s%ld\n", r.nthings,
            r.nthings > 2 ? " (extended)" : "",
            r.has_room_id ? "" : "absent ", (long)r.room_id);
    if (r.has_grids)
        fprintf(out, "  grids       %ld x %ld", (long)r.rows, (long)r.cols);
    if (r.has_hires)
        fprintf(out, ", high-res %ld x %ld", (long)r.rows_hr, (long)r.cols_hr);
    fprintf(out, r.has_grids ? "\n" : "  grids       none (version 15)\n");
    fprintf(out, "  security    stored 0x%08lx, computed 0x%08lx: %s\n",
            (unsigned long)(uint32_t)r.security, (unsigned long)(uint32_t)r.security_calc,
            r.security == r.security_calc ? "ok" : "MISMATCH");
    rrb_roo_free(&r);
    return 0;
}

int rrb_roo_info_json(const uint8_t *data, size_t size, const char *path, FILE *out, char *err,
                      size_t errcap)
{
    rrb_roo r;
    if (load(data, size, path, &r, err, errcap))
        return -1;
    fprintf(out, "{\"format\": \"roo\", \"file\": ");
    rrb_json_str(out, path);
    fprintf(out, ", \"size\": %zu, \"version\": %d, \"encrypted\": false, \"width\": %ld, "
            "\"height\": %ld, \"nodes\": %u, \"leaves\": %u, \"walls\": %u, \"editor_walls\": %u, "
            "\"sidedefs\": %u, \"sectors\": %u, \"slopes\": %u, \"things\": %u, "
            "\"bsp_depth\": %u, \"security\": %ld, \"security_computed\": %ld, "
            "\"security_ok\": %s, \"grid_rows\": %ld, \"grid_cols\": %ld, "
            "\"grid_rows_hires\": %ld, \"grid_cols_hires\": %ld",
            size, (int)r.version, (long)r.width, (long)r.height, r.nnodes, r.nleaves, r.nwalls,
            r.newalls, r.nsidedefs, r.nsectors, r.nslopes, r.nthings, r.depth, (long)r.security,
            (long)r.security_calc, r.security == r.security_calc ? "true" : "false",
            (long)r.rows, (long)r.cols, (long)r.rows_hr, (long)r.cols_hr);
    if (r.has_room_id)
        fprintf(out, ", \"room_id\": %ld", (long)r.room_id);
    fprintf(out, "}\n");
    rrb_roo_free(&r);
    return 0;
}

/* Encrypted files fail in the reader; report it as such in verify output. */
int rrb_roo_verify(const uint8_t *data, size_t size, const char *path, FILE *out, char *err,
                   size_t errcap)
{
    rrb_roo r;
    if (load(data, size, path, &r, err, errcap))
        return -1;
    fprintf(out, "ok   %s: version %d parsed to end of file (%zu bytes)\n", path,
            (int)r.version, size);
    fprintf(out, "ok   indices: %u nodes (tree, depth %u), %u walls, %u sidedefs, %u sectors\n",
            r.nnodes, r.depth, r.nwalls, r.nsidedefs, r.nsectors);
    if (r.security != r.security_calc) {
        snprintf(err, errcap, "%s:0x8: expected security 0x%08lx (computed), found 0x%08lx",
                 path, (unsigned long)(uint32_t)r.security_calc,
                 (unsigned long)(uint32_t)r.security);
        rrb_roo_free(&r);
        return -1;
    }
    fprintf(out, "ok   security 0x%08lx\n", (unsigned long)(uint32_t)r.security);
    rrb_roo_free(&r);
    return 0;
}

static void dump_nodes(const rrb_roo *r, FILE *o)
{
    fprintf(o, "  \"nodes\": [");
    for (uint32_t i = 0; i < r->nnodes; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        fprintf(o, "%s\n    {\"n\": %u, \"box\": [%.17g, %.17g, %.17g, %.17g], ", i ? "," : "",
                i + 1, n->box[0], n->box[1], n->box[2], n->box[3]);
        if (n->type == RRB_ROO_NODE_INTERNAL) {
            fprintf(o, "\"line\": [%.17g, %.17g, %.17g], \"pos\": %u, \"neg\": %u, "
                    "\"first_wall\": %u}", n->a, n->b, n->c, n->pos, n->neg, n->first_wall);
            continue;
        }
        fprintf(o, "\"sector\": %u, \"points\": [", n->sector);
        for (uint32_t k = 0; k < n->npoints; k++)
            fprintf(o, "%s[%.17g, %.17g]", k ? ", " : "", r->points[2 * (n->first_point + k)],
                    r->points[2 * (n->first_point + k) + 1]);
        fprintf(o, "]}");
    }
    fprintf(o, "\n  ],\n");
}

static void dump_walls(const rrb_roo *r, FILE *o)
{
    fprintf(o, "  \"walls\": [");
    for (uint32_t i = 0; i < r->nwalls; i++) {
        const rrb_roo_wall *w = &r->walls[i];
        fprintf(o, "%s\n    {\"n\": %u, \"next\": %u, \"sidedefs\": [%u, %u], "
                "\"p0\": [%.17g, %.17g], \"p1\": [%.17g, %.17g], \"length\": %.17g, "
                "\"xoff\": [%u, %u], \"yoff\": [%u, %u], \"sectors\": [%u, %u]}",
                i ? "," : "", i + 1, w->next, w->pos_sidedef, w->neg_sidedef, w->x0, w->y0,
                w->x1, w->y1, w->length, w->pos_xoff, w->neg_xoff, w->pos_yoff, w->neg_yoff,
                w->pos_sector, w->neg_sector);
    }
    fprintf(o, "\n  ],\n  \"editor_walls\": [");
    for (uint32_t i = 0; i < r->newalls; i++) {
        const rrb_roo_ewall *w = &r->ewalls[i];
        fprintf(o, "%s\n    {\"sidedefs\": [%u, %u], \"xoff\": [%d, %d], \"yoff\": [%d, %d], "
                "\"sectors\": [%d, %d], \"p0\": [%ld, %ld], \"p1\": [%ld, %ld]}", i ? "," : "",
                w->sidedef1, w->sidedef2, w->xoff1, w->xoff2, w->yoff1, w->yoff2, w->sector1,
                w->sector2, (long)w->x0, (long)w->y0, (long)w->x1, (long)w->y1);
    }
    fprintf(o, "\n  ],\n  \"sidedefs\": [");
    for (uint32_t i = 0; i < r->nsidedefs; i++) {
        const rrb_roo_sidedef *s = &r->sidedefs[i];
        fprintf(o, "%s\n    {\"n\": %u, \"id\": %u, \"bitmaps\": [%u, %u, %u], \"flags\": %lu, "
                "\"speed\": %u}", i ? "," : "", i + 1, s->id, s->normal, s->above, s->below,
                (unsigned long)s->flags, s->speed);
    }
    fprintf(o, "\n  ],\n");
}

static void dump_slope(FILE *o, const char *name, const rrb_roo_slope *s)
{
    fprintf(o, ", \"%s\": {\"plane\": [%.17g, %.17g, %.17g, %.17g], \"tex\": [%ld, %ld, %ld], "
            "\"verts\": [[%d, %d, %d], [%d, %d, %d], [%d, %d, %d]]}", name, s->a, s->b, s->c,
            s->d, (long)s->tex_x, (long)s->tex_y, (long)s->tex_angle, s->vert[0][0],
            s->vert[0][1], s->vert[0][2], s->vert[1][0], s->vert[1][1], s->vert[1][2],
            s->vert[2][0], s->vert[2][1], s->vert[2][2]);
}

static void dump_sectors(const rrb_roo *r, FILE *o)
{
    fprintf(o, "  \"sectors\": [");
    for (uint32_t i = 0; i < r->nsectors; i++) {
        const rrb_roo_sector *s = &r->sectors[i];
        fprintf(o, "%s\n    {\"n\": %u, \"id\": %u, \"bitmaps\": [%u, %u], \"tex\": [%u, %u], "
                "\"floor\": %u, \"ceiling\": %u, \"light\": %u, \"flags\": %lu, \"speed\": %u",
                i ? "," : "", i + 1, s->id, s->floor_bitmap, s->ceiling_bitmap, s->tex_x,
                s->tex_y, s->floor_h, s->ceiling_h, s->light, (unsigned long)s->flags, s->speed);
        if (s->flags & RRB_ROO_SF_SLOPED_FLOOR)
            dump_slope(o, "floor_slope", &s->floor);
        if (s->flags & RRB_ROO_SF_SLOPED_CEILING)
            dump_slope(o, "ceiling_slope", &s->ceiling);
        fprintf(o, "}");
    }
    fprintf(o, "\n  ],\n  \"things\": [");
    for (uint32_t i = 0; i < r->nthings; i++) {
        const rrb_roo_thing *t = &r->things[i];
        char comment[65];
        memcpy(comment, t->comment, 64);
        comment[64] = 0;
        fprintf(o, "%s\n    {\"x\": %ld, \"y\": %ld", i ? "," : "", (long)t->x, (long)t->y);
        if (r->nthings > 2) {
            fprintf(o, ", \"type\": %ld, \"angle\": %ld, \"when\": %ld, \"exit\": [%ld, %ld], "
                    "\"flags\": %ld, \"comment\": ", (long)t->type, (long)t->angle, (long)t->when,
                    (long)t->exit_x, (long)t->exit_y, (long)t->flags);
            rrb_json_str(o, comment);
        }
        fprintf(o, "}");
    }
    fprintf(o, "\n  ],\n");
}

static void dump_grid(FILE *o, const char *name, const uint8_t *g, const uint32_t *g32,
                      int32_t rows, int32_t cols)
{
    fprintf(o, ",\n  \"%s\": [", name);
    for (int32_t i = 0; i < rows; i++) {
        fprintf(o, "%s\n    [", i ? "," : "");
        for (int32_t j = 0; j < cols; j++) {
            size_t k = (size_t)i * (size_t)cols + (size_t)j;
            fprintf(o, "%s%lu", j ? "," : "", g ? (unsigned long)g[k] : (unsigned long)g32[k]);
        }
        fprintf(o, "]");
    }
    fprintf(o, "\n  ]");
}

int rrb_roo_dump_json(const uint8_t *data, size_t size, const char *path, FILE *o, char *err,
                      size_t errcap)
{
    rrb_roo r;
    if (load(data, size, path, &r, err, errcap))
        return -1;
    fprintf(o, "{\n  \"format\": \"roo\", \"version\": %d, \"security\": %ld, "
            "\"security_ok\": %s, \"width\": %ld, \"height\": %ld,\n", (int)r.version,
            (long)r.security, r.security == r.security_calc ? "true" : "false", (long)r.width,
            (long)r.height);
    dump_nodes(&r, o);
    dump_walls(&r, o);
    dump_sectors(&r, o);
    if (r.has_room_id)
        fprintf(o, "  \"room_id\": %ld", (long)r.room_id);
    else
        fprintf(o, "  \"room_id\": null");
    fprintf(o, ",\n  \"grid_rows\": %ld, \"grid_cols\": %ld", (long)r.rows, (long)r.cols);
    if (r.has_grids) {
        dump_grid(o, "move_grid", r.move_grid, NULL, r.rows, r.cols);
        dump_grid(o, "flag_grid", r.flag_grid, NULL, r.rows, r.cols);
        dump_grid(o, "monster_grid", r.monster_grid, NULL, r.rows, r.cols);
    }
    if (r.has_hires) {
        fprintf(o, ",\n  \"hires_rows\": %ld, \"hires_cols\": %ld", (long)r.rows_hr,
                (long)r.cols_hr);
        dump_grid(o, "hires_grid", NULL, r.hires_grid, r.rows_hr, r.cols_hr);
    }
    fprintf(o, "\n}\n");
    rrb_roo_free(&r);
    return 0;
}

/* rrb_roo_cli.c - the rrbake commands on a Meridian 59 room blob: queries
 * (locate, height, move, slide, sight, grid), the info summary, the OBJ
 * (floors, ceilings and walls extruded from floor to ceiling) and the SVG
 * plan (leaves by floor height, walls by passability). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_roo.h"
#include "rr_roo_blob.h"
#include "rrb_cli.h"
#include "rrb_roo.h"

/* ---- query ---- */

typedef struct roo_polys roo_polys;
static void roo_get_polys(const rr_room *room, roo_polys *p);
static uint32_t roo_ncorners(const roo_polys *p, uint32_t i);
static const rr_roo_vert_rec *roo_corner(const roo_polys *p, uint32_t i, uint32_t k);

/* --svg: the leaf's polygon (a full blob has one per leaf). */
static void mark_leaf(rrb_query *q, int32_t leaf);

/* What locate and height answer first: the point, and whether it is inside
 * the room (RR_ERR_NOTFOUND: outside, an answer too). Any other failure
 * ends the query: returns 1 then. */
static int point_answer(rrb_query *q, rr_err e, const char *what)
{
    if (e && e != RR_ERR_NOTFOUND)
        return rrb_query_fail(q, e, what);
    rrb_q_point(q, "point", q->c, 2);
    rrb_q_mark(q, RRB_MARK_FROM, "point", q->c, 1, 2);
    rrb_q_bool(q, "inside", e != RR_ERR_NOTFOUND);
    return 0;
}

static int q_locate(rrb_query *q, int argc, char **argv)
{
    rr_roo_where w;
    rr_err e = rr_roo_locate(q->room, q->c[0], q->c[1], &w);
    (void)argc, (void)argv;
    if (point_answer(q, e, "locate"))
        return 1;
    if (e == RR_ERR_NOTFOUND) {
        rrb_q_line(q, "outside (walk ended at node %d)", w.node);
        if (q->json)
            rrb_q_int(q, "node", w.node);
        return 0;
    }
    rrb_q_int(q, "sector", w.sector);
    rrb_q_int(q, "leaf", w.leaf);
    rrb_q_int(q, "node", w.node);
    mark_leaf(q, w.leaf);
    return 0;
}

static int q_height(rrb_query *q, int argc, char **argv)
{
    rr_roo_heights h;
    rr_err e = rr_roo_height(q->room, q->c[0], q->c[1], &h);
    (void)argc, (void)argv;
    if (point_answer(q, e, "height"))
        return 1;
    if (e == RR_ERR_NOTFOUND) {
        rrb_q_line(q, "outside");
        return 0;
    }
    rrb_q_int(q, "sector", h.sector);
    rrb_q_hex(q, "flags", h.flags, 1);
    rrb_q_coord(q, "floor", h.floor);
    rrb_q_coord(q, "floor_surface", h.floor_surface);
    rrb_q_coord(q, "ceiling", h.ceiling);
    return 0;
}

static const char *block_name(int32_t b)
{
    static const char *const n[] = {"free", "wall", "step", "ceiling", "nomove"};
    return b >= 0 && b < 5 ? n[b] : "?";
}

/* One move's answer, and on the plan the path from `from` to where it was
 * headed and the point where it stopped. */
static void put_move(rrb_query *q, const rr_roo_move *m, const int32_t *from, const int32_t *to)
{
    int32_t p[2], path[2][3];
    p[0] = m->x, p[1] = m->y;
    rrb_q_str(q, "block", block_name(m->block));
    rrb_q_int(q, "wall", m->wall);
    rrb_q_fix(q, "fraction", m->fraction);
    rrb_q_point(q, "stop", p, 2);
    path[0][0] = from[0], path[0][1] = from[1], path[1][0] = to[0], path[1][1] = to[1];
    rrb_q_mark(q, RRB_MARK_PATH, "path", &path[0][0], 2, 2);
    rrb_q_mark(q, RRB_MARK_HIT, "stop", p, 1, 2);
}

static int q_move(rrb_query *q, int argc, char **argv)
{
    rr_roo_move m;
    const int32_t *c = q->c;
    rr_err e = rr_roo_can_move(q->room, c[0], c[1], c[2], c[3], c[4], c[5], c[6], &m);
    (void)argc, (void)argv;
    if (e)
        return rrb_query_fail(q, e, "move");
    rrb_q_mark(q, RRB_MARK_FROM, "from", c, 1, 2);
    put_move(q, &m, c, c + 2);
    return 0;
}

static int q_slide(rrb_query *q, int argc, char **argv)
{
    rr_roo_move a, b;
    const int32_t *c = q->c;
    int32_t first_stop[2];
    rr_err e = rr_roo_slide(q->room, c[0], c[1], c[2], c[3], c[4], c[5], c[6], &a, &b);
    (void)argc, (void)argv;
    if (e)
        return rrb_query_fail(q, e, "slide");
    first_stop[0] = a.x, first_stop[1] = a.y;
    rrb_q_mark(q, RRB_MARK_FROM, "from", c, 1, 2);
    rrb_q_open(q, "first", 0, "first ");
    put_move(q, &a, c, c + 2);
    rrb_q_close(q);
    rrb_q_open(q, "slide", 0, "slide ");
    {
        int32_t to[2];
        to[0] = b.x, to[1] = b.y;   /* the slide goes where it stops or beyond: draw to its stop */
        put_move(q, &b, first_stop, to);
    }
    rrb_q_close(q);
    return 0;
}

static int q_sight(rrb_query *q, int argc, char **argv)
{
    rr_roo_sight s;
    int32_t hit[3];
    int k;
    rr_err e = rr_roo_line_of_sight(q->room, q->c, q->c + 3, &s);
    (void)argc, (void)argv;
    if (e)
        return rrb_query_fail(q, e, "sight");
    rrb_q_int(q, "visible", s.visible);
    rrb_q_int(q, "wall", s.wall);
    rrb_q_fix(q, "fraction", s.fraction);
    rrb_q_mark_segment(q, "from", "path");
    if (!s.visible) {   /* where the line is blocked: A + fraction (B - A) */
        for (k = 0; k < 3; k++)
            hit[k] = (int32_t)(q->c[k] + (((int64_t)q->c[3 + k] - q->c[k]) * s.fraction >> 16));
        rrb_q_mark(q, RRB_MARK_HIT, "blocked", hit, 1, 3);
    }
    return 0;
}

static int q_grid(rrb_query *q, int argc, char **argv)
{
    rr_roo_cell cell;
    rr_err e = rr_roo_grid_at(q->room, q->c[0], q->c[1], &cell);
    (void)argc, (void)argv;
    rrb_q_mark(q, RRB_MARK_FROM, "point", q->c, 1, 2);
    if (e == RR_ERR_MISSING || e == RR_ERR_NOTFOUND) {
        rrb_q_line(q, "%s", e == RR_ERR_MISSING ? "no grids (v15 room)" : "outside the grids");
        if (q->json)
            rrb_q_str(q, "grid", e == RR_ERR_MISSING ? "none" : "outside");
        return 0;
    }
    if (e)
        return rrb_query_fail(q, e, "grid");
    rrb_q_int(q, "grid", cell.has_grid);
    rrb_q_hex(q, "move", cell.move, 2);
    rrb_q_hex(q, "flags", cell.flags, 2);
    rrb_q_hex(q, "monster", cell.monster, 2);
    rrb_q_int(q, "hires", cell.has_hires);
    rrb_q_hex(q, "hires_cell", cell.hires, 8);
    return 0;
}

static const rrb_query_cmd queries[] = {
    {"locate", 2, 2, 0, q_locate, "X Y", "BSP leaf and sector under a point"},
    {"height", 2, 2, 0, q_height, "X Y", "floor and ceiling at a point"},
    {"move", 7, 7, 0, q_move, "AX AY BX BY RADIUS STEP HEIGHT", "can a mover go from A to B"},
    {"slide", 7, 7, 0, q_slide, "AX AY BX BY RADIUS STEP HEIGHT",
     "move, then slide along the wall hit"},
    {"sight", 6, 6, 0, q_sight, "AX AY AZ BX BY BZ", "line of sight between two 3D points"},
    {"grid", 2, 2, 0, q_grid, "X Y", "server grid cells under a point"},
    {0},
};

/* ---- info ---- */

static void roo_summary(const rr_room *room, FILE *o, int json)
{
    unsigned f = room->coord_frac;
    rr_roo_info i;
    if (rr_roo_get_info(room, &i))
        return;
    if (json) {
        fprintf(o, "\"version\":%u,\"nodes\":%u,\"leaves\":%u,\"sectors\":%u,\"slopes\":%u,"
                "\"walls\":%u,\"sidedefs\":%u,\"bsp_depth\":%u,\"rect\":[%.6g,%.6g,%.6g,%.6g],"
                "\"grid\":[%d,%d],\"hires_grid\":[%d,%d],\"security_ok\":%s",
                i.version, i.nodes, i.leaves, i.sectors, i.slopes, i.walls, i.sidedefs, i.bsp_depth,
                rrb_cli_unit(i.rect[0], f), rrb_cli_unit(i.rect[1], f), rrb_cli_unit(i.rect[2], f),
                rrb_cli_unit(i.rect[3], f), i.grid_rows, i.grid_cols, i.hires_rows, i.hires_cols,
                i.security_ok ? "true" : "false");
        return;
    }
    fprintf(o, "  Meridian 59 room v%u: %u nodes (depth %u), %u leaves, %u sectors, %u slopes,\n"
            "  %u walls, %u sidedefs; rectangle %.6g,%.6g .. %.6g,%.6g client units\n",
            i.version, i.nodes, i.bsp_depth, i.leaves, i.sectors, i.slopes, i.walls, i.sidedefs,
            rrb_cli_unit(i.rect[0], f), rrb_cli_unit(i.rect[1], f), rrb_cli_unit(i.rect[2], f),
            rrb_cli_unit(i.rect[3], f));
    fprintf(o, "  grids %d x %d, high-res %d x %d; source checksum %s\n", i.grid_rows,
            i.grid_cols, i.hires_rows, i.hires_cols, i.security_ok ? "matched" : "did NOT match");
}

/* A wall with its ends and sides gathered from the blob's WALLS,
 * WALL_POINTS and WALL_SIDES (rr_roo_blob.h): what the drawings read. */
typedef struct cli_wall {
    int32_t x0, y0, x1, y1;
    uint16_t pos_sidedef, neg_sidedef, pos_sector, neg_sector;
} cli_wall;

/* The walls of an open (validated) room, gathered; free() the result. */
static cli_wall *roo_cli_walls(const rr_room *room, uint32_t *nw)
{
    const rr_roo_wall_rec *w;
    const rr_roo_vert_rec *pt;
    const rr_roo_wall_sides_rec *sd;
    const void *p;
    uint32_t n = 0, i;
    cli_wall *out;
    rr_section(room, RR_SEC_ROO_WALL_POINTS, &p, &n);
    pt = p;
    rr_section(room, RR_SEC_ROO_WALL_SIDES, &p, &n);
    sd = p;
    n = 0;
    rr_section(room, RR_SEC_ROO_WALLS, &p, &n);
    w = p;
    out = calloc(n + 1, sizeof *out);
    if (!out) {
        *nw = 0;
        return NULL;
    }
    for (i = 0; i < n; i++) {
        const rr_roo_wall_sides_rec *ws = &sd[w[i].sides];
        out[i].x0 = pt[w[i].pt].x, out[i].y0 = pt[w[i].pt].y;
        out[i].x1 = pt[w[i].pt + 1].x, out[i].y1 = pt[w[i].pt + 1].y;
        out[i].pos_sidedef = ws->pos_sidedef, out[i].neg_sidedef = ws->neg_sidedef;
        out[i].pos_sector = ws->pos_sector, out[i].neg_sector = ws->neg_sector;
    }
    *nw = n;
    return out;
}

/* ---- SVG ---- */

/* Walls by passability: white one-sided, red impassable two-sided (a middle
 * texture without the passable flag on either side), thin green passable. */
static void roo_walls(rrb_svg *s, const rr_room *room, const cli_wall *w, uint32_t nw)
{
    const rr_roo_sidedef_rec *sd;
    const void *p;
    uint32_t nsd = 0, i, k;
    double f = ldexp(1.0, -(int)room->coord_frac);
    rr_section(room, RR_SEC_ROO_SIDEDEFS, &p, &nsd);
    sd = p;
    for (i = 0; i < nw; i++) {
        int one = w[i].pos_sector == RR_ROO_NONE || w[i].neg_sector == RR_ROO_NONE;
        int solid = 0;
        uint16_t sds[2];
        const char *c;
        double width = 2.5;
        sds[0] = w[i].pos_sidedef, sds[1] = w[i].neg_sidedef;
        for (k = 0; k < 2; k++)
            if (sds[k] < nsd && sd[sds[k]].normal_bitmap && !(sd[sds[k]].flags & 0x4u))
                solid = 1;
        c = one ? "#ffffff" : solid ? "#ff4040" : "#60ff60";
        if (!one && !solid)
            width = 1.0;
        fprintf(s->f, "<line x1=\"%.4f\" y1=\"%.4f\" x2=\"%.4f\" y2=\"%.4f\" stroke=\"%s\" "
                "stroke-width=\"%.4f\" stroke-linecap=\"round\"><title>wall %u</title></line>\n",
                w[i].x0 * f, w[i].y0 * f, w[i].x1 * f, w[i].y1 * f, c, s->sw * width, i);
    }
}

/* The leaf polygons of a full blob (none in a --collision-only one): the
 * k-th corner of leaf i is point corner[poly[i].first + k].vert, a wall
 * point (< nwall) or vert[that - nwall]. */
struct roo_polys {
    const rr_roo_leaf_rec *leaf;
    const rr_roo_polygon_rec *poly;
    const rr_roo_corner_rec *corner;
    const rr_roo_vert_rec *vert, *wall;
    uint32_t nleaves, npolys, nverts, nwall;
};

static void roo_get_polys(const rr_room *room, roo_polys *p)
{
    const void *d;
    uint32_t n;
    memset(p, 0, sizeof *p);
    if (rr_section(room, RR_SEC_ROO_LEAVES, &d, &p->nleaves) == RR_OK)
        p->leaf = d;
    if (rr_section(room, RR_SEC_ROO_POLYGONS, &d, &p->npolys) == RR_OK)
        p->poly = d;
    if (rr_section(room, RR_SEC_ROO_CORNERS, &d, &n) == RR_OK)
        p->corner = d;
    if (rr_section(room, RR_SEC_ROO_VERTS, &d, &p->nverts) == RR_OK)
        p->vert = d;
    if (rr_section(room, RR_SEC_ROO_WALL_POINTS, &d, &p->nwall) == RR_OK)
        p->wall = d;
    if (!p->poly || !p->corner || !p->vert || !p->wall)
        p->npolys = 0;
}

/* Corners of leaf i (0 without polygons) and its k-th corner. */
static uint32_t roo_ncorners(const roo_polys *p, uint32_t i)
{
    return i < p->npolys ? p->poly[i].count : 0u;
}

static const rr_roo_vert_rec *roo_corner(const roo_polys *p, uint32_t i, uint32_t k)
{
    uint32_t v = p->corner[p->poly[i].first + k].vert;
    return v < p->nwall ? &p->wall[v] : &p->vert[v - p->nwall];
}

static void mark_leaf(rrb_query *q, int32_t leaf)
{
    roo_polys pl;
    int32_t *pts;
    uint32_t n, k;
    if (!q->marks || leaf < 0)
        return;
    roo_get_polys(q->room, &pl);
    n = roo_ncorners(&pl, (uint32_t)leaf);
    if (n < 3)
        return;
    pts = rrb_xcalloc(n, 3 * sizeof *pts);
    for (k = 0; k < n; k++)
        pts[k * 3] = roo_corner(&pl, (uint32_t)leaf, k)->x,
        pts[k * 3 + 1] = roo_corner(&pl, (uint32_t)leaf, k)->y;
    rrb_q_mark(q, RRB_MARK_AREA, "leaf", pts, (int)n, 2);
    free(pts);
}

static int roo_svg(rrb_svg *s, const rrb_cli_room *r, char *err, size_t cap)
{
    const rr_room *room = &r->room;
    cli_wall *w;
    roo_polys pl;
    uint32_t nw = 0, nl, i, k;
    double f = ldexp(1.0, -(int)room->coord_frac);
    char col[64], text[256];
    rr_roo_info info;
    (void)err, (void)cap;
    rr_roo_get_info(room, &info);
    w = roo_cli_walls(room, &nw);
    roo_get_polys(room, &pl);
    nl = pl.nleaves;
    s->x0 = s->y0 = 1e300, s->x1 = s->y1 = -1e300, s->zmin = 1e300, s->zmax = -1e300;
    for (i = 0; i < pl.nverts; i++) {
        s->x0 = fmin(s->x0, pl.vert[i].x * f), s->x1 = fmax(s->x1, pl.vert[i].x * f);
        s->y0 = fmin(s->y0, pl.vert[i].y * f), s->y1 = fmax(s->y1, pl.vert[i].y * f);
    }
    for (i = 0; i < nw; i++) { /* walls too: a --collision-only blob has no polygons */
        s->x0 = fmin(s->x0, fmin(w[i].x0, w[i].x1) * f), s->x1 = fmax(s->x1, fmax(w[i].x0, w[i].x1) * f);
        s->y0 = fmin(s->y0, fmin(w[i].y0, w[i].y1) * f), s->y1 = fmax(s->y1, fmax(w[i].y0, w[i].y1) * f);
    }
    for (i = 0; i < nl; i++) {
        rr_roo_heights h;
        rr_roo_sector_height(room, pl.leaf[i].sector, 0, 0, &h);
        s->zmin = fmin(s->zmin, h.floor_surface * f), s->zmax = fmax(s->zmax, h.floor_surface * f);
    }
    if (pl.nverts == 0 && nw == 0)
        s->x0 = s->y0 = 0, s->x1 = s->y1 = 1;
    snprintf(text, sizeof text, "Meridian 59 room v%u: %u leaves, %u walls", info.version, nl, nw);
    s->xname = "x", s->yname = "y";   /* client units: x east, y south, as the plan */
    rrb_svg_head(s, text);
    for (i = 0; i < pl.npolys; i++) {
        double cx = 0, cy = 0;
        uint32_t nc = roo_ncorners(&pl, i);
        rr_roo_heights h;
        for (k = 0; k < nc; k++)
            cx += roo_corner(&pl, i, k)->x, cy += roo_corner(&pl, i, k)->y;
        cx /= nc ? nc : 1, cy /= nc ? nc : 1;
        rr_roo_sector_height(room, pl.leaf[i].sector, (int32_t)cx, (int32_t)cy, &h);
        rrb_svg_ramp(col, sizeof col, s, h.floor_surface * f);
        fprintf(s->f, "<polygon fill=\"%s\" stroke=\"%s\" stroke-width=\"%.4f\" points=\"", col,
                col, s->sw * 0.5);
        for (k = 0; k < nc; k++)
            fprintf(s->f, "%s%.4f,%.4f", k ? " " : "", roo_corner(&pl, i, k)->x * f,
                    roo_corner(&pl, i, k)->y * f);
        fprintf(s->f, "\"><title>leaf %u sector %u floor %.6g</title></polygon>\n", i,
                pl.leaf[i].sector, h.floor_surface * f);
    }
    roo_walls(s, room, w, nw);
    free(w);
    rrb_svg_legend(s, "top view, client units (x east, y south); leaves filled by floor "
                   "height");
    snprintf(text, sizeof text, "floor height %.6g .. %.6g", s->zmin, s->zmax);
    rrb_svg_key(s, RRB_KEY_RAMP, "", text);
    rrb_svg_key(s, RRB_KEY_LINE, "#ffffff", "one-sided wall");
    rrb_svg_key(s, RRB_KEY_LINE, "#ff4040", "impassable two-sided wall");
    rrb_svg_key(s, RRB_KEY_LINE, "#60ff60", "passable two-sided wall");
    return 0;
}

/* ---- OBJ ---- */

static int32_t roo_z(const rr_room *room, uint32_t sector, int32_t x, int32_t y, int ceil)
{
    rr_roo_heights h;
    if (rr_roo_sector_height(room, (int32_t)sector, x, y, &h))
        return 0;
    return ceil ? h.ceiling : h.floor_surface;
}

static void roo_quad(rrb_obj *o, const cli_wall *w, int32_t za0, int32_t za1,
                     int32_t zb0, int32_t zb1)
{
    /* za = bottom at ends 0/1, zb = top at ends 0/1; skip when empty. */
    if (za0 >= zb0 && za1 >= zb1)
        return;
    rrb_obj_vertex(o, rrb_obj_unit(o, w->x0), rrb_obj_unit(o, za0), rrb_obj_unit(o, w->y0));
    rrb_obj_vertex(o, rrb_obj_unit(o, w->x1), rrb_obj_unit(o, za1), rrb_obj_unit(o, w->y1));
    rrb_obj_vertex(o, rrb_obj_unit(o, w->x1), rrb_obj_unit(o, zb1), rrb_obj_unit(o, w->y1));
    rrb_obj_vertex(o, rrb_obj_unit(o, w->x0), rrb_obj_unit(o, zb0), rrb_obj_unit(o, w->y0));
    fprintf(o->f, "f %u %u %u %u\n", o->nv - 3, o->nv - 2, o->nv - 1, o->nv);
    o->nf++;
}

static const float col_floor[3] = {0.6f, 0.55f, 0.45f}, col_ceil[3] = {0.5f, 0.5f, 0.6f},
                   col_wall[3] = {0.75f, 0.7f, 0.65f}, col_step[3] = {0.8f, 0.6f, 0.4f};

static int roo_obj(rrb_obj *o, const rrb_cli_room *r, int render, char *err, size_t cap)
{
    const rr_room *room = &r->room;
    cli_wall *w;
    roo_polys pl;
    uint32_t nw = 0, i, k, side;
    (void)render, (void)err, (void)cap;
    w = roo_cli_walls(room, &nw);
    roo_get_polys(room, &pl);
    for (side = 0; side < 2; side++) {
        fprintf(o->f, "g %s\n", side ? "ceilings" : "floors");
        rrb_obj_material(o, side ? "ceiling" : "floor", NULL, side ? col_ceil : col_floor);
        for (i = 0; i < pl.npolys; i++) {
            uint32_t nc = roo_ncorners(&pl, i);
            for (k = 0; k < nc; k++) {
                /* leaves are clockwise seen from above (y south): reverse for
                 * floors so their normal points up in the OBJ's axes */
                const rr_roo_vert_rec *q = roo_corner(&pl, i, side ? k : nc - 1 - k);
                rrb_obj_vertex(o, rrb_obj_unit(o, q->x),
                               rrb_obj_unit(o, roo_z(room, pl.leaf[i].sector, q->x, q->y, (int)side)),
                               rrb_obj_unit(o, q->y));
            }
            fprintf(o->f, "f");
            for (k = 0; k < nc; k++)
                fprintf(o->f, " %u", o->nv - nc + 1 + k);
            fprintf(o->f, "\n");
            o->nf++;
        }
    }
    fprintf(o->f, "g walls\n");
    for (i = 0; i < nw; i++) {
        uint32_t sa = w[i].pos_sector, sb = w[i].neg_sector;
        if (sa == RR_ROO_NONE && sb == RR_ROO_NONE)
            continue;
        if (sa == RR_ROO_NONE || sb == RR_ROO_NONE) {
            uint32_t s = sa == RR_ROO_NONE ? sb : sa;
            rrb_obj_material(o, "wall", NULL, col_wall);
            roo_quad(o, &w[i], roo_z(room, s, w[i].x0, w[i].y0, 0),
                     roo_z(room, s, w[i].x1, w[i].y1, 0), roo_z(room, s, w[i].x0, w[i].y0, 1),
                     roo_z(room, s, w[i].x1, w[i].y1, 1));
            continue;
        }
        rrb_obj_material(o, "step", NULL, col_step);
        {
            int32_t fa0 = roo_z(room, sa, w[i].x0, w[i].y0, 0), fa1 = roo_z(room, sa, w[i].x1, w[i].y1, 0);
            int32_t fb0 = roo_z(room, sb, w[i].x0, w[i].y0, 0), fb1 = roo_z(room, sb, w[i].x1, w[i].y1, 0);
            int32_t ca0 = roo_z(room, sa, w[i].x0, w[i].y0, 1), ca1 = roo_z(room, sa, w[i].x1, w[i].y1, 1);
            int32_t cb0 = roo_z(room, sb, w[i].x0, w[i].y0, 1), cb1 = roo_z(room, sb, w[i].x1, w[i].y1, 1);
            /* lower part: between the two floors; upper: between the ceilings */
            roo_quad(o, &w[i], fa0 < fb0 ? fa0 : fb0, fa1 < fb1 ? fa1 : fb1,
                     fa0 < fb0 ? fb0 : fa0, fa1 < fb1 ? fb1 : fa1);
            roo_quad(o, &w[i], ca0 < cb0 ? ca0 : cb0, ca1 < cb1 ? ca1 : cb1,
                     ca0 < cb0 ? cb0 : ca0, ca1 < cb1 ? cb1 : ca1);
        }
    }
    free(w);
    return 0;
}

/* The plan is drawn in client units, x east and y south as stored. */
static void roo_plan_xy(const rr_room *room, const int32_t *c, double xy[2])
{
    xy[0] = ldexp((double)c[0], -(int)room->coord_frac);
    xy[1] = ldexp((double)c[1], -(int)room->coord_frac);
}

/* ---- the hooks ---- */

const rrb_room_hooks rrb_roo_room = {
    RR_FMT_ROO, roo_summary, queries, "roo (Meridian 59)",
    roo_obj, roo_svg, NULL, NULL, roo_plan_xy,
};

/* The module: reading and inspecting (rrb_roo.c), the sample (rrb_roo_write.c),
 * baking (rrb_roo_bake.c) and the commands on its blobs (above). */
const rrb_format rrb_format_roo = {
    "roo", "Meridian 59 room (.roo v12-15)", rrb_roo_probe, rrb_roo_info, rrb_roo_info_json,
    rrb_roo_verify, rrb_roo_dump_json, rrb_roo_bake, rrb_roo_sample, &rrb_roo_room, NULL, NULL};

/* rrb_rmesh_cli.c - the rrbake commands on an RMesh room blob (SCP-CB /
 * CBRE-EX): queries (ray, sweep, trigger, box, nearest), the info summary,
 * the OBJ (collision triangles, or the render groups with UVs) and the SVG
 * plan (floors by height, walls, trigger boxes, entities). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_blobfmt.h"
#include "rr_rmesh.h"
#include "rrb_cli.h"
#include "rrb_rmesh.h"

/* ---- query ---- */

/* --svg: a collision triangle as a polygon. */
static void mark_tri(rrb_query *q, uint32_t tri, const char *label)
{
    uint32_t src;
    int32_t p[3][3];
    rr_vec3 n;
    if (!q->marks || rr_rmesh_triangle(q->room, tri, &src, p, &n))
        return;
    rrb_q_mark(q, RRB_MARK_AREA, label, &p[0][0], 3, 3);
}

static int q_ray(rrb_query *q, int argc, char **argv)
{
    rr_rmesh_ray ray;
    rr_rmesh_hit hit;
    const char *t0 = "", *t1 = "";
    const rr_rmesh_surf *surf;
    int32_t path[2][3];
    double len;
    int k;
    rr_err e;
    (void)argc, (void)argv;
    memcpy(ray.origin, q->c, sizeof ray.origin);
    ray.dir.x = rrb_cli_to_fix(q->v[3]), ray.dir.y = rrb_cli_to_fix(q->v[4]),
    ray.dir.z = rrb_cli_to_fix(q->v[5]);
    ray.max_dist = q->c[6];
    e = rr_rmesh_raycast(q->room, &ray, &hit);
    if (e)
        return rrb_query_fail(q, e, "ray");
    /* the plan: origin, the ray up to MAXDIST along the unit direction */
    len = sqrt(q->v[3] * q->v[3] + q->v[4] * q->v[4] + q->v[5] * q->v[5]);
    memcpy(path[0], q->c, sizeof path[0]);
    for (k = 0; k < 3; k++)
        path[1][k] = (int32_t)lround(q->c[k] + (len > 0 ? q->v[3 + k] / len : 0) * q->c[6]);
    rrb_q_mark(q, RRB_MARK_FROM, "origin", q->c, 1, 3);
    rrb_q_mark(q, RRB_MARK_PATH, "ray", &path[0][0], 2, 3);
    rrb_q_int(q, "hit", hit.hit);
    if (!hit.hit)
        return 0;
    rr_rmesh_surface(q->room, hit.surface, &surf, &t0, &t1);
    rrb_q_int(q, "triangle", hit.tri);
    rrb_q_int(q, "source_triangle", hit.src);
    if (q->json) {
        rrb_q_int(q, "surface", hit.surface);
        rrb_q_str(q, "texture", t1);
        rrb_q_str(q, "lightmap", t0);
    } else {
        rrb_q_line(q, "surface: %u (%s%s%s)", hit.surface, t1, *t0 ? ", lightmap " : "", t0);
    }
    rrb_q_coord(q, "distance", hit.dist);
    rrb_q_fix(q, "fraction", hit.frac);
    rrb_q_point(q, "point", hit.point, 3);
    rrb_q_vec(q, "normal", hit.normal);
    mark_tri(q, hit.tri, "triangle");
    rrb_q_mark(q, RRB_MARK_HIT, "point", hit.point, 1, 3);
    return 0;
}

static int q_sweep(rrb_query *q, int argc, char **argv)
{
    rr_rmesh_sweep s;
    rr_rmesh_sweep_out o;
    rr_err e;
    (void)argv;
    memcpy(s.from, q->c, sizeof s.from);
    memcpy(s.to, q->c + 3, sizeof s.to);
    memcpy(s.radius, q->c + 6, sizeof s.radius);
    s.max_slides = argc > 9 ? (uint32_t)q->v[9] : RR_RMESH_MAX_SLIDES;
    e = rr_rmesh_sweep_move(q->room, &s, &o);
    if (e)
        return rrb_query_fail(q, e, "sweep");
    rrb_q_point(q, "position", o.pos, 3);
    rrb_q_int(q, "hit", o.hit);
    rrb_q_int(q, "slides", o.slides);
    if (o.hit) {
        rrb_q_int(q, "triangle", o.tri);
        rrb_q_vec(q, "normal", o.normal);
        mark_tri(q, o.tri, "triangle");
    }
    rrb_q_mark_segment(q, "from", "path");
    rrb_q_mark(q, RRB_MARK_HIT, "position", o.pos, 1, 3);
    return 0;
}

static int q_trigger(rrb_query *q, int argc, char **argv)
{
    uint32_t i;
    const rr_rmesh_trigger *box;
    const char *name = "";
    rr_err e = rr_rmesh_trigger_at(q->room, q->c, &i);
    (void)argc, (void)argv;
    rrb_q_mark(q, RRB_MARK_FROM, "point", q->c, 1, 3);
    if (e == RR_ERR_NOTFOUND) {
        rrb_q_line(q, "trigger: none");
        rrb_q_bool(q, "found", 0);
        return 0;
    }
    if (e || (e = rr_rmesh_trigger_get(q->room, i, &box, &name)) != RR_OK)
        return rrb_query_fail(q, e, "trigger");
    rrb_q_bool(q, "found", 1);
    rrb_q_int(q, "trigger", i);
    rrb_q_str(q, "name", name);
    rrb_q_point(q, "min", box->min, 3);
    rrb_q_point(q, "max", box->max, 3);
    {
        int32_t b[2][3];
        memcpy(b[0], box->min, sizeof b[0]);
        memcpy(b[1], box->max, sizeof b[1]);
        rrb_q_mark(q, RRB_MARK_BOX, "trigger", &b[0][0], 2, 3);
    }
    return 0;
}

static int q_box(rrb_query *q, int argc, char **argv)
{
    uint32_t items[64], k;
    rr_rmesh_list l;
    int32_t b[2][3];
    rr_err e;
    (void)argc, (void)argv;
    l.items = items, l.cap = 64, l.count = 0, l.truncated = 0;
    e = rr_rmesh_box_tris(q->room, q->c, q->c + 3, &l);
    if (e)
        return rrb_query_fail(q, e, "box");
    rrb_q_ids(q, "triangles", l.count, l.truncated ? " (list full: more touch)" : "", items,
              l.count);
    rrb_q_bool(q, "truncated", l.truncated != 0);
    memcpy(b[0], q->c, sizeof b[0]);
    memcpy(b[1], q->c + 3, sizeof b[1]);
    rrb_q_mark(q, RRB_MARK_BOX, "box", &b[0][0], 2, 3);
    for (k = 0; k < l.count; k++)
        mark_tri(q, items[k], "triangle");
    return 0;
}

static const char *const rmesh_classes[RR_RMESH_NCLASSES] = {
    "screen", "waypoint", "light", "spotlight", "soundemitter", "playerstart", "model", "custom"};

static int q_nearest(rrb_query *q, int argc, char **argv)
{
    uint32_t cls, i;
    const rr_rmesh_ent *ent;
    int32_t p[3], path[2][3];
    rr_err e;
    (void)argc;
    for (cls = 0; cls < RR_RMESH_NCLASSES && strcmp(argv[0], rmesh_classes[cls]); cls++)
        ;
    /* any other name: a CBRE-EX custom class (door, item, a class of the definitions) */
    for (i = 0; i < 3; i++) {
        double v;
        if (rrb_cli_num(argv[1 + i], &v) || rrb_cli_to_coord(v, q->frac, &p[i])) {
            fprintf(q->errf, "%s: query nearest: argument %u: expected a coordinate, found "
                    "'%s'\n", q->path, i + 2, argv[1 + i]);
            return 2;
        }
    }
    rrb_q_mark(q, RRB_MARK_FROM, "point", p, 1, 3);
    if (cls == RR_RMESH_NCLASSES && strcmp(argv[0], "any"))
        e = rr_rmesh_custom_nearest(q->room, argv[0], p, &i);
    else
        e = rr_rmesh_entity_nearest(q->room, cls, p, &i);   /* cls NCLASSES: any */
    if (e == RR_ERR_NOTFOUND) {
        rrb_q_line(q, "entity: none");
        rrb_q_bool(q, "found", 0);
        return 0;
    }
    if (e || (e = rr_rmesh_entity(q->room, i, &ent)) != RR_OK)
        return rrb_query_fail(q, e, "nearest");
    rrb_q_bool(q, "found", 1);
    rrb_q_int(q, "entity", i);
    rrb_q_str(q, "class", ent->cls == RR_RMESH_CUSTOM ? rr_string(q->room, ent->str)
                          : ent->cls < RR_RMESH_NCLASSES ? rmesh_classes[ent->cls] : "?");
    rrb_q_point(q, "position", ent->pos, 3);
    if (ent->cls == RR_RMESH_CUSTOM) {   /* its properties: a run of the props section */
        const rr_rmesh_prop *pr;
        const void *d;
        uint32_t np, k;
        rrb_q_open(q, "properties", 0, "");
        if (rr_section(q->room, RR_SEC_RMESH_PROPS, &d, &np) == RR_OK)
            for (pr = (const rr_rmesh_prop *)d + ent->ival[0], k = 0; k < (uint32_t)ent->ival[1];
                 k++)
                rrb_q_str(q, rr_string(q->room, pr[k].key), rr_string(q->room, pr[k].value));
        rrb_q_close(q);
    }
    memcpy(path[0], p, sizeof path[0]);
    memcpy(path[1], ent->pos, sizeof path[1]);
    rrb_q_mark(q, RRB_MARK_PATH, "distance", &path[0][0], 2, 3);
    rrb_q_mark(q, RRB_MARK_HIT, "position", ent->pos, 1, 3);
    return 0;
}

static const rrb_query_cmd queries[] = {
    /* plain: the ray's direction (arguments 3-5) and the sweep's slide count
     * (argument 9) are no coordinates */
    {"ray", 7, 7, 0x38, q_ray, "OX OY OZ DX DY DZ MAXDIST", "first collision triangle along a ray"},
    {"sweep", 9, 10, 0x200, q_sweep, "FX FY FZ TX TY TZ RX RY RZ [SLIDES]",
     "ellipsoid move with sliding"},
    {"trigger", 3, 3, 0, q_trigger, "X Y Z", "trigger box containing a point"},
    {"box", 6, 6, 0, q_box, "X0 Y0 Z0 X1 Y1 Z1", "collision triangles touching a box"},
    {"nearest", -4, -4, 0, q_nearest, "CLASS X Y Z",
     "nearest entity of a class (light, model,\nplayerstart, waypoint, ... or any; or a CBRE-EX "
     "custom class:\ndoor, item, a class of --entity-defs), with its properties"},
    {0},
};

/* ---- info ---- */

static void rmesh_summary(const rr_room *room, FILE *o, int json)
{
    unsigned f = room->coord_frac;
    static const char *const var[] = {"vanilla", "cbre", "scpcbredux", "vbp"};
    const rr_rmesh_head *h;
    const rr_rmesh_rhead *rh = NULL;
    const char *v;
    if (rr_rmesh_head_get(room, &h))
        return;
    v = h->variant < 4 ? var[h->variant] : "?";
    rr_rmesh_render_head(room, &rh);
    if (json) {
        fprintf(o, "\"variant_name\":\"%s\",\"triangles\":%u,\"vertices\":%u,\"bvh_nodes\":%u,"
                "\"surfaces\":%u,\"triggers\":%u,\"entities\":%u,\"dropped\":%u,"
                "\"alpha_triangles\":%u,\"room_scale\":%s,\"bounds\":[%.6g,%.6g,%.6g,%.6g,%.6g,"
                "%.6g],\"render\":",
                v, h->ntris, h->nverts, h->nnodes, h->nsurfs, h->ntriggers, h->nents, h->dropped,
                h->alpha_tris, h->flags & RR_RMESH_ROOM_SCALE ? "true" : "false",
                rrb_cli_unit(h->bmin[0], f), rrb_cli_unit(h->bmin[1], f),
                rrb_cli_unit(h->bmin[2], f), rrb_cli_unit(h->bmax[0], f),
                rrb_cli_unit(h->bmax[1], f), rrb_cli_unit(h->bmax[2], f));
        if (rh)
            fprintf(o, "{\"groups\":%u,\"vertices\":%u,\"indices\":%u,\"positions\":%u,"
                    "\"colors\":%u}", rh->ngroups, rh->nverts, rh->nindices, rh->npos,
                    rh->ncolors);
        else
            fprintf(o, "null");
        return;
    }
    fprintf(o, "  RMesh (%s%s): %u collision triangles, %u vertices, %u BVH nodes,\n"
            "  %u surfaces, %u trigger boxes, %u entities; %u zero-area triangles dropped,\n"
            "  %u alpha triangles (no collision)\n", v,
            h->flags & RR_RMESH_ROOM_SCALE ? ", room scale" : "", h->ntris, h->nverts,
            h->nnodes, h->nsurfs, h->ntriggers, h->nents, h->dropped, h->alpha_tris);
    fprintf(o, "  bounds %.6g %.6g %.6g .. %.6g %.6g %.6g\n", rrb_cli_unit(h->bmin[0], f),
            rrb_cli_unit(h->bmin[1], f), rrb_cli_unit(h->bmin[2], f), rrb_cli_unit(h->bmax[0], f),
            rrb_cli_unit(h->bmax[1], f), rrb_cli_unit(h->bmax[2], f));
    if (rh)
        fprintf(o, "  render data: %u groups, %u vertices, %u triangles; %u render-only "
                "positions, %u vertex colours\n", rh->ngroups, rh->nverts, rh->nindices / 3,
                rh->npos, rh->ncolors);
    else
        fprintf(o, "  render data: none (baked --collision-only)\n");
}

/* ---- OBJ ---- */

/* The render groups (positions, diffuse UVs), one material each. */
static void rmesh_render_obj(rrb_obj *o, const rr_room *room, const rr_rmesh_rhead *rh)
{
    uint32_t i;
    char name[300];
    for (i = 0; i < rh->ngroups; i++) {
        const rr_rmesh_rgroup *g;
        const rr_rmesh_surf *sf;
        const char *t0, *t1;
        uint32_t k, base = o->nv;
        rr_rmesh_render_group(room, i, &g);
        rr_rmesh_surface(room, g->surface, &sf, &t0, &t1);
        for (k = 0; k < g->nverts; k++) {
            rr_rmesh_vertex v;
            rr_rmesh_render_vertex(room, i, g->first_vert + k, &v);
            rrb_obj_vertex(o, rrb_obj_unit(o, v.pos[0]), rrb_obj_unit(o, v.pos[1]),
                           -rrb_obj_unit(o, v.pos[2]));
            fprintf(o->f, "vt %.6f %.6f\n", ldexp(v.uv0[0], -16), 1.0 - ldexp(v.uv0[1], -16));
        }
        rrb_obj_mat_name(name, sizeof name, "", t1);
        rrb_obj_material(o, name, t1, rrb_obj_grey);
        for (k = 0; k < g->nindices / 3; k++) {   /* render vertex numbers: the group's from base */
            uint32_t ix[3], a, b, c;
            rr_rmesh_render_triangle(room, i, k, ix);
            a = base + ix[0] - g->first_vert + 1u;
            b = base + ix[1] - g->first_vert + 1u;
            c = base + ix[2] - g->first_vert + 1u;
            fprintf(o->f, "f %u/%u %u/%u %u/%u\n", c, c, b, b, a, a);
            o->nf++;
        }
    }
}

static int rmesh_obj(rrb_obj *o, const rrb_cli_room *r, int render, char *err, size_t cap)
{
    const rr_room *room = &r->room;
    const rr_rmesh_head *h;
    const rr_rmesh_rhead *rh;
    const void *p;
    uint32_t nv = 0, i, s;
    char name[300];
    (void)err, (void)cap;
    rr_rmesh_head_get(room, &h);
    if (render && rr_rmesh_render_head(room, &rh) == RR_OK) {
        rmesh_render_obj(o, room, rh);
        return 0;
    }
    rr_section(room, RR_SEC_RMESH_VERTS, &p, &nv);
    for (i = 0; i < nv; i++) {   /* coords = origin + q << vshift */
        const rr_rmesh_vert *v = (const rr_rmesh_vert *)p + i;
        int32_t c[3];
        int k;
        for (k = 0; k < 3; k++)
            c[k] = h->origin[k] + ((int32_t)v->q[k] << h->vshift);
        rrb_obj_vertex(o, rrb_obj_unit(o, c[0]), rrb_obj_unit(o, c[1]), -rrb_obj_unit(o, c[2]));
    }
    for (s = 0; s < h->nsurfs; s++) {
        const rr_rmesh_surf *sf;
        const char *t0, *t1;
        int first = 1;
        rr_rmesh_surface(room, s, &sf, &t0, &t1);
        for (i = 0; i < h->ntris; i++) {
            uint32_t ts, tv[3];
            rr_rmesh_triangle_surface(room, i, &ts);
            if (ts != s)
                continue;
            if (first) {
                rrb_obj_mat_name(name, sizeof name,
                                 sf->kind == RR_RMESH_SURF_INVISIBLE ? "invisible_" : "", t1);
                rrb_obj_material(o, name, t1, rrb_obj_grey);
                first = 0;
            }
            rr_rmesh_triangle_vertices(room, i, tv);
            fprintf(o->f, "f %u %u %u\n", tv[2] + 1, tv[1] + 1, tv[0] + 1);
            o->nf++;
        }
    }
    return 0;
}

/* ---- SVG ---- */

typedef struct ftri { double z; double p[3][2]; } ftri;

static int by_z(const void *a, const void *b)
{
    double d = ((const ftri *)a)->z - ((const ftri *)b)->z;
    return d < 0 ? -1 : d > 0;
}

/* Entity dots by class: screen, waypoint, light, spotlight, soundemitter,
 * playerstart, model, custom (CBRE-EX). */
static const char *const rmesh_ent_colour[RR_RMESH_NCLASSES] = {
    "#ff0", "#0ff", "#ffa", "#fa0", "#f0f", "#0f0", "#88f", "#f66"};

/* Trigger boxes (dashed) and entities (dots coloured by class). */
static void rmesh_marks(rrb_svg *s, const rr_room *room, const rr_rmesh_head *h)
{
    uint32_t i;
    double f = ldexp(1.0, -(int)room->coord_frac);
    for (i = 0; i < h->ntriggers; i++) {
        const rr_rmesh_trigger *b;
        const char *name;
        rr_rmesh_trigger_get(room, i, &b, &name);
        fprintf(s->f, "<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" height=\"%.4f\" fill=\"none\" "
                "stroke=\"#f80\" stroke-dasharray=\"%.4f\" stroke-width=\"%.4f\"/>\n",
                b->min[0] * f, -b->max[2] * f, (b->max[0] - b->min[0]) * f,
                (b->max[2] - b->min[2]) * f, s->sw * 6, s->sw * 1.5);
    }
    for (i = 0; i < h->nents; i++) {
        const rr_rmesh_ent *e;
        rr_rmesh_entity(room, i, &e);
        fprintf(s->f, "<circle cx=\"%.4f\" cy=\"%.4f\" r=\"%.4f\" fill=\"%s\"/>\n", e->pos[0] * f,
                -e->pos[2] * f, s->sw * 4, rmesh_ent_colour[e->cls < RR_RMESH_NCLASSES ? e->cls : 6]);
    }
}

/* The floors (triangles facing up, |ny| > 0.4), filled by height, lowest
 * first; then the walls (the rest, but ceilings) as white outlines. */
static void rmesh_svg_tris(rrb_svg *s, const rr_room *room, const rr_rmesh_head *h, double f)
{
    ftri *ft = rrb_xcalloc(h->ntris + 1, sizeof *ft);
    uint32_t i, nf = 0, k;
    char col[64];
    for (i = 0; i < h->ntris; i++) {
        uint32_t src;
        int32_t v[3][3];
        rr_vec3 n;
        rr_rmesh_triangle(room, i, &src, v, &n);
        if (n.y > 26214 || n.y < -26214) {   /* |ny| > 0.4: floor or ceiling */
            if (n.y < 0)
                continue;
            ft[nf].z = -1e300;
            for (k = 0; k < 3; k++) {
                ft[nf].p[k][0] = v[k][0] * f, ft[nf].p[k][1] = -v[k][2] * f;
                ft[nf].z = fmax(ft[nf].z, v[k][1] * f);
            }
            nf++;
        }
    }
    qsort(ft, nf, sizeof *ft, by_z);
    for (i = 0; i < nf; i++) {
        rrb_svg_ramp(col, sizeof col, s, ft[i].z);
        fprintf(s->f, "<polygon fill=\"%s\" stroke=\"%s\" stroke-width=\"%.4f\" points=\"%.4f,%.4f "
                "%.4f,%.4f %.4f,%.4f\"/>\n", col, col, s->sw * 0.5, ft[i].p[0][0], ft[i].p[0][1],
                ft[i].p[1][0], ft[i].p[1][1], ft[i].p[2][0], ft[i].p[2][1]);
    }
    free(ft);
    for (i = 0; i < h->ntris; i++) {
        uint32_t src;
        int32_t v[3][3];
        rr_vec3 n;
        rr_rmesh_triangle(room, i, &src, v, &n);
        if (n.y > 26214 || n.y < -26214)
            continue;
        fprintf(s->f, "<polygon fill=\"none\" stroke=\"#fff\" stroke-width=\"%.4f\" "
                "points=\"%.4f,%.4f %.4f,%.4f %.4f,%.4f\"/>\n", s->sw * 0.8, v[0][0] * f,
                -v[0][2] * f, v[1][0] * f, -v[1][2] * f, v[2][0] * f, -v[2][2] * f);
    }
}

/* The plan's key: the height ramp, walls, triggers, one entry per entity
 * class the room has. */
static void rmesh_svg_key(rrb_svg *s, const rr_room *room, const rr_rmesh_head *h)
{
    uint32_t count[RR_RMESH_NCLASSES] = {0}, c, i;
    char text[256];
    snprintf(text, sizeof text, "floor height (y) %.6g .. %.6g", s->zmin, s->zmax);
    rrb_svg_key(s, RRB_KEY_RAMP, "", text);
    rrb_svg_key(s, RRB_KEY_LINE, "#ffffff", "wall");
    if (h->ntriggers)
        rrb_svg_key(s, RRB_KEY_DASH, "#f80", "trigger box");
    for (i = 0; i < h->nents; i++) {
        const rr_rmesh_ent *e;
        if (rr_rmesh_entity(room, i, &e) == RR_OK && e->cls < RR_RMESH_NCLASSES)
            count[e->cls]++;
    }
    for (c = 0; c < RR_RMESH_NCLASSES; c++)
        if (count[c]) {
            snprintf(text, sizeof text, "%s (%u)", rmesh_classes[c], count[c]);
            rrb_svg_key(s, RRB_KEY_DOT, rmesh_ent_colour[c], text);
        }
}

static int rmesh_svg(rrb_svg *s, const rrb_cli_room *r, char *err, size_t cap)
{
    const rr_room *room = &r->room;
    const rr_rmesh_head *h;
    double f = ldexp(1.0, -(int)room->coord_frac);
    char text[256];
    (void)err, (void)cap;
    rr_rmesh_head_get(room, &h);
    s->x0 = h->bmin[0] * f, s->x1 = h->bmax[0] * f;
    s->y0 = -h->bmax[2] * f, s->y1 = -h->bmin[2] * f;
    s->zmin = h->bmin[1] * f, s->zmax = h->bmax[1] * f;
    snprintf(text, sizeof text, "RMesh: %u collision triangles, %u triggers, %u entities",
             h->ntris, h->ntriggers, h->nents);
    s->xname = "x", s->yname = "z", s->yflip = 1;   /* looking down -Y: z grows up the page */
    rrb_svg_head(s, text);
    rmesh_svg_tris(s, room, h, f);
    rmesh_marks(s, room, h);
    rrb_svg_legend(s, "top view, file units (x right, z up the page); floors filled by height");
    rmesh_svg_key(s, room, h);
    return 0;
}

/* The plan looks down the Y axis: x right, -z down the page (z mirrored). */
static void rmesh_plan_xy(const rr_room *room, const int32_t *c, double xy[2])
{
    xy[0] = ldexp((double)c[0], -(int)room->coord_frac);
    xy[1] = -ldexp((double)c[2], -(int)room->coord_frac);
}

/* ---- glTF ---- */

/* The render mesh as glTF 2.0: positions in file units mirrored to glTF's
 * right-handed axes (x, y, -z, every triangle's winding reversed, as the
 * OBJ), diffuse UVs as TEXCOORD_0 and lightmap UVs as TEXCOORD_1 (both with
 * the origin at the top left, as Blitz3D and glTF have it). One material per
 * diffuse texture, its image the texture's file name as a relative URI (put
 * the textures beside the file); the render groups with the same diffuse
 * texture and lightmap are one primitive, the primitives in material order,
 * the lightmap's image named in the primitive's extras. */
typedef struct gl_prim {
    uint32_t material;
    const char *tex, *lm;       /* diffuse, lightmap ("" none) */
    uint32_t pos, uv0, uv1, idx;
} gl_prim;

/* Index of name in list (adding it), or -1 for "". */
static int name_index(const char ***list, size_t *n, size_t *cap, const char *name)
{
    size_t i;
    if (!*name)
        return -1;
    for (i = 0; i < *n; i++)
        if (!strcmp((*list)[i], name))
            return (int)i;
    *list = rrb_grow(*list, cap, *n + 1, sizeof **list);
    (*list)[*n] = name;
    return (int)(*n)++;
}

static void group_names(const rr_room *room, uint32_t gi, const char **tex, const char **lm)
{
    const rr_rmesh_rgroup *g;
    const rr_rmesh_surf *sf;
    *tex = *lm = "";
    if (rr_rmesh_render_group(room, gi, &g) == RR_OK)
        rr_rmesh_surface(room, g->surface, &sf, lm, tex);
}

/* The accessors of one primitive: every render group with its textures. */
static void prim_accessors(rrb_gltf *gl, const rr_room *room, const rr_rmesh_rhead *rh,
                           gl_prim *p)
{
    uint32_t gi, k, nv = 0, ni = 0, base;
    double f = ldexp(1.0, -(int)room->coord_frac), x[3];
    int set, a;
    for (set = 0; set < 4; set++) {
        uint32_t acc = set == 3 ? rrb_gltf_begin(gl, 5125, "SCALAR", 34963)
                                : rrb_gltf_begin(gl, 5126, set == 0 ? "VEC3" : "VEC2", 34962);
        base = 0;
        for (gi = 0; gi < rh->ngroups; gi++) {
            const rr_rmesh_rgroup *g;
            const char *tex, *lm;
            group_names(room, gi, &tex, &lm);
            if (strcmp(tex, p->tex) || strcmp(lm, p->lm) ||
                rr_rmesh_render_group(room, gi, &g) != RR_OK)
                continue;
            if (set == 3) {         /* indices: a b c -> c b a (the z mirror) */
                for (k = 0; k < g->nindices / 3; k++) {   /* the group's vertices from base */
                    uint32_t ix[3];
                    rr_rmesh_render_triangle(room, gi, k, ix);
                    rrb_buf_u32le(&gl->buf, base + ix[2] - g->first_vert);
                    rrb_buf_u32le(&gl->buf, base + ix[1] - g->first_vert);
                    rrb_buf_u32le(&gl->buf, base + ix[0] - g->first_vert);
                }
                ni += g->nindices / 3 * 3;
            }
            for (k = 0; k < g->nverts && set < 3; k++) {
                rr_rmesh_vertex v;
                rr_rmesh_render_vertex(room, gi, g->first_vert + k, &v);
                if (set == 0) {
                    for (a = 0; a < 3; a++)
                        x[a] = v.pos[a] * f;
                    x[2] = -x[2];
                    rrb_gltf_floats(gl, acc, x, 3);
                } else {
                    const rr_fix *uv = set == 1 ? v.uv0 : v.uv1;
                    x[0] = ldexp(uv[0], -16);
                    x[1] = ldexp(uv[1], -16);
                    rrb_gltf_floats(gl, acc, x, 2);
                }
            }
            if (set == 0)
                nv += g->nverts;
            base += g->nverts;
        }
        rrb_gltf_end(gl, acc, set == 3 ? ni : nv, set == 0);
        if (set == 0) p->pos = acc;
        if (set == 1) p->uv0 = acc;
        if (set == 2) p->uv1 = acc;
        if (set == 3) p->idx = acc;
    }
}

/* What the glTF of a room is made of: its primitives (one per pair of
 * diffuse texture and lightmap, grouped by material), its materials (one
 * per diffuse texture, plus "untextured" last when a group has none) and
 * its images (every diffuse texture and lightmap, by name). */
typedef struct gl_room {
    gl_prim *pr;
    size_t np, cp;
    const char **mats, **imgs;
    size_t nmats, cmats, nimgs, cimgs;
    int has_untextured;
} gl_room;

static void gather_prims(const rr_room *room, const rr_rmesh_rhead *rh, gl_room *g)
{
    uint32_t gi;
    size_t i, k;
    for (gi = 0; gi < rh->ngroups; gi++) {
        const char *tex, *lm;
        group_names(room, gi, &tex, &lm);
        g->has_untextured |= name_index(&g->mats, &g->nmats, &g->cmats, tex) < 0;
        name_index(&g->imgs, &g->nimgs, &g->cimgs, tex);
        name_index(&g->imgs, &g->nimgs, &g->cimgs, lm);
        for (i = 0; i < g->np && (strcmp(g->pr[i].tex, tex) || strcmp(g->pr[i].lm, lm)); i++)
            ;
        if (i == g->np) {
            g->pr = rrb_grow(g->pr, &g->cp, g->np + 1, sizeof *g->pr);
            memset(&g->pr[g->np], 0, sizeof g->pr[g->np]);
            g->pr[g->np].tex = tex, g->pr[g->np].lm = lm;
            g->np++;
        }
    }
    for (i = 0; i < g->np; i++) {   /* the material of each: its texture's, or the untextured last */
        int m = name_index(&g->mats, &g->nmats, &g->cmats, g->pr[i].tex);
        g->pr[i].material = m < 0 ? (uint32_t)g->nmats : (uint32_t)m;
    }
    for (i = 1; i < g->np; i++) {   /* primitives grouped by material (stable insertion sort) */
        gl_prim t = g->pr[i];
        for (k = i; k > 0 && g->pr[k - 1].material > t.material; k--)
            g->pr[k] = g->pr[k - 1];
        g->pr[k] = t;
    }
}

/* The glTF JSON but its buffer tables: the scene, the mesh's primitives,
 * the materials, textures and images. Returns the triangles written. */
static uint32_t write_gltf_json(FILE *jf, const char *path, gl_room *g, const rrb_gltf *gl)
{
    uint32_t ntris = 0;
    size_t i;
    fprintf(jf, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"rrbake (romroom)\"},"
            "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":");
    rrb_json_str(jf, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    fprintf(jf, ",\"mesh\":0}],\"meshes\":[{\"primitives\":[");
    for (i = 0; i < g->np; i++) {
        const gl_prim *p = &g->pr[i];
        fprintf(jf, "%s{\"attributes\":{\"POSITION\":%u,\"TEXCOORD_0\":%u,\"TEXCOORD_1\":%u},"
                "\"indices\":%u,\"material\":%u,\"mode\":4", i ? "," : "", p->pos, p->uv0,
                p->uv1, p->idx, p->material);
        if (*p->lm) {
            fprintf(jf, ",\"extras\":{\"lightmap\":");
            rrb_json_str(jf, p->lm);
            fprintf(jf, ",\"lightmap_texture\":%d,\"lightmap_texcoord\":1}",
                    name_index(&g->imgs, &g->nimgs, &g->cimgs, p->lm));
        }
        fprintf(jf, "}");
        ntris += gl->a[p->idx].count / 3;
    }
    fprintf(jf, "]}],\"materials\":[");
    for (i = 0; i < g->nmats; i++) {
        fprintf(jf, "%s{\"name\":", i ? "," : "");
        rrb_json_str(jf, g->mats[i]);
        fprintf(jf, ",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%d,"
                "\"texCoord\":0},\"metallicFactor\":0,\"roughnessFactor\":1}}",
                name_index(&g->imgs, &g->nimgs, &g->cimgs, g->mats[i]));
    }
    if (g->has_untextured)
        fprintf(jf, "%s{\"name\":\"untextured\",\"pbrMetallicRoughness\":{\"baseColorFactor\":"
                "[0.7,0.7,0.7,1],\"metallicFactor\":0,\"roughnessFactor\":1}}",
                g->nmats ? "," : "");
    fprintf(jf, "]");
    if (g->nimgs) {
        fprintf(jf, ",\"samplers\":[{\"wrapS\":10497,\"wrapT\":10497}],\"textures\":[");
        for (i = 0; i < g->nimgs; i++)
            fprintf(jf, "%s{\"sampler\":0,\"source\":%zu}", i ? "," : "", i);
        fprintf(jf, "],\"images\":[");
        for (i = 0; i < g->nimgs; i++) {
            fprintf(jf, "%s{\"name\":", i ? "," : "");
            rrb_json_str(jf, g->imgs[i]);
            fprintf(jf, ",\"uri\":");
            rrb_gltf_uri(jf, g->imgs[i]);
            fprintf(jf, "}");
        }
        fprintf(jf, "]");
    }
    return ntris;
}

static int rmesh_gltf(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t cap)
{
    const rr_room *room = &r->room;
    const rr_rmesh_rhead *rh;
    gl_room g;
    rrb_gltf gl;
    char *json = NULL;
    size_t jlen = 0, i;
    uint32_t ntris;
    int rc;
    FILE *jf;
    if (rr_rmesh_render_head(room, &rh) != RR_OK) {
        snprintf(err, cap, "%s: expected a room with render data for glTF, found none (baked "
                 "--collision-only)", r->path);
        return -1;
    }
    memset(&gl, 0, sizeof gl);
    memset(&g, 0, sizeof g);
    gather_prims(room, rh, &g);
    for (i = 0; i < g.np; i++)
        prim_accessors(&gl, room, rh, &g.pr[i]);
    jf = open_memstream(&json, &jlen);
    ntris = write_gltf_json(jf, r->path, &g, &gl);
    rrb_gltf_tables(jf, &gl);
    fclose(jf);
    rc = rrb_gltf_save(out_path, json, 0, &gl, rrb_gltf_binary(out_path, r->glb));
    if (rc)
        snprintf(err, cap, "%s: cannot write the output file", out_path);
    else if (log)
        fprintf(log, "%s: %zu primitives, %zu materials, %zu images, %u triangles, %zu buffer "
                "bytes\n", out_path, g.np, g.nmats + (size_t)g.has_untextured, g.nimgs, ntris,
                gl.buf.size);
    free(json), free(g.pr), free((void *)g.mats), free((void *)g.imgs);
    rrb_gltf_free(&gl);
    return rc;
}

/* ---- the hooks ---- */

const rrb_room_hooks rrb_rmesh_room = {
    RR_FMT_RMESH, rmesh_summary, queries, "rmesh (SCP-CB / CBRE-EX)",
    rmesh_obj, rmesh_svg, "gltf", rmesh_gltf, rmesh_plan_xy,
};

/* The module: reading and inspecting (rrb_rmesh.c), writing, the samples
 * and verify's round trip (rrb_rmesh_write.c), baking (rrb_rmesh_bake.c)
 * and the commands on its blobs (above). */
const rrb_format rrb_format_rmesh = {
    "rmesh",
    "SCP - Containment Breach / CBRE-EX room mesh (.rmesh)",
    rrb_rmesh_probe, rrb_rmesh_info, rrb_rmesh_info_json, rrb_rmesh_verify,
    rrb_rmesh_dump_json, rrb_rmesh_bake, rrb_rmesh_sample, &rrb_rmesh_room, NULL, NULL};

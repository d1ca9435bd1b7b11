/* rrb_rmf_cli.c - the rrbake commands on an RMF (Worldcraft / Hammer) room:
 * queries (contents, trace, box, entity), the info summary, the OBJ (brush
 * faces of the .rmf, or rebuilt from a blob's planes), the SVG plan (needs
 * the .rmf) and the Valve-220 .map.
 *
 * The .map keeps every number of the source: plane points, texture axes,
 * shifts, rotation and scales are written with %.9g, which reads back with
 * strtof to the very same float (9 significant digits identify any float).
 * The RMF stores each face's three plane points; they are written as stored,
 * and in the same order (Hammer's own .map export does the same). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_blobfmt.h"
#include "rr_rmf.h"
#include "rrb_cli.h"
#include "rrb_rmf.h"

/* ---- query ---- */

/* "contents: 0x1 solid" (JSON: the bits and their names). */
static void put_contents(rrb_query *q, uint32_t c)
{
    char names[64];
    snprintf(names, sizeof names, "%s%s%s%s%s", c & RR_RMF_SOLID ? " solid" : "",
             c & RR_RMF_WATER ? " water" : "", c & RR_RMF_TRIGGER ? " trigger" : "",
             c & RR_RMF_NONSOLID ? " nonsolid" : "", c ? "" : " empty");
    if (q->json) {
        rrb_q_int(q, "contents", c);
        rrb_q_str(q, "contents_names", names + 1);
    } else {
        rrb_q_line(q, "contents: 0x%x%s", c, names);
    }
}

/* --svg: a brush's bounds as a box. */
static void mark_brush(rrb_query *q, uint32_t brush)
{
    const rr_rmf_brush *b;
    int32_t box[2][3];
    if (!q->marks || rr_rmf_get_brush(q->room, brush, &b))
        return;
    memcpy(box[0], b->mins, sizeof box[0]);
    memcpy(box[1], b->maxs, sizeof box[1]);
    rrb_q_mark(q, RRB_MARK_BOX, "brush", &box[0][0], 2, 3);
}

static int q_contents(rrb_query *q, int argc, char **argv)
{
    uint32_t c, items[64], k;
    rr_rmf_list l;
    rr_err e = rr_rmf_point_contents(q->room, q->c, &c);
    (void)argc, (void)argv;
    if (e)
        return rrb_query_fail(q, e, "contents");
    l.items = items, l.max = 64, l.count = l.total = 0;
    if ((e = rr_rmf_point_brushes(q->room, q->c, &l)) != RR_OK)
        return rrb_query_fail(q, e, "contents");
    put_contents(q, c);
    if (q->json) {
        rrb_q_ids(q, "brushes", l.total, NULL, items, l.count);
    } else {
        fprintf(q->out, "brushes: %u", l.total);
        for (k = 0; k < l.count; k++)
            fprintf(q->out, " %u", items[k]);
        fprintf(q->out, "\n");
    }
    for (k = 0; k < l.count; k++)
        mark_brush(q, items[k]);
    rrb_q_mark(q, RRB_MARK_FROM, "point", q->c, 1, 3);
    return 0;
}

static int q_trace(rrb_query *q, int argc, char **argv)
{
    rr_rmf_trace_result t;
    rr_err e;
    (void)argv;
    e = rr_rmf_trace(q->room, q->c, q->c + 3, argc > 6 ? q->c + 6 : NULL, 0xffffffffu, &t);
    if (e)
        return rrb_query_fail(q, e, "trace");
    rrb_q_fix(q, "fraction", t.fraction);
    rrb_q_point(q, "end", t.end, 3);
    rrb_q_int(q, "start_solid", t.start_solid);
    rrb_q_int(q, "all_solid", t.all_solid);
    if (t.brush >= 0) {
        rrb_q_int(q, "brush", t.brush);
        rrb_q_int(q, "plane", t.plane);
        rrb_q_vec(q, "normal", t.normal);
        put_contents(q, t.contents);
        mark_brush(q, (uint32_t)t.brush);
    } else if (q->json) {
        rrb_q_int(q, "brush", -1);
    }
    rrb_q_mark_segment(q, "start", "trace");
    rrb_q_mark(q, RRB_MARK_HIT, "end", t.end, 1, 3);
    return 0;
}

static int q_entity(rrb_query *q, int argc, char **argv)
{
    uint32_t i;
    const rr_rmf_entity *ent;
    rr_err e;
    (void)argc;
    e = rr_rmf_find_entity(q->room, argv[0], argv[1], 0, &i);
    if (e == RR_ERR_NOTFOUND) {
        rrb_q_line(q, "entity: none");
        rrb_q_bool(q, "found", 0);
        return 0;
    }
    if (e || (e = rr_rmf_get_entity(q->room, i, &ent)) != RR_OK)
        return rrb_query_fail(q, e, "entity");
    rrb_q_bool(q, "found", 1);
    rrb_q_int(q, "entity", i);
    rrb_q_str(q, "classname", rr_string(q->room, ent->classname));
    rrb_q_str(q, "targetname", rr_string(q->room, ent->targetname));
    rrb_q_int(q, "brushes", ent->nbrushes);
    rrb_q_point(q, "origin", ent->origin, 3);
    rrb_q_mark(q, RRB_MARK_HIT, "origin", ent->origin, 1, 3);
    return 0;
}

static int q_rmf_box(rrb_query *q, int argc, char **argv)
{
    uint32_t items[64], k;
    rr_rmf_list l;
    int32_t b[2][3];
    rr_err e;
    (void)argc, (void)argv;
    l.items = items, l.max = 64, l.count = l.total = 0;
    if ((e = rr_rmf_box_brushes(q->room, q->c, q->c + 3, &l)) != RR_OK)
        return rrb_query_fail(q, e, "box");
    rrb_q_ids(q, "brushes", l.total, l.total > l.count ? " (first 64 listed)" : "", items,
              l.count);
    for (k = 0; k < l.count; k++)
        mark_brush(q, items[k]);
    memcpy(b[0], q->c, sizeof b[0]);
    memcpy(b[1], q->c + 3, sizeof b[1]);
    rrb_q_mark(q, RRB_MARK_BOX, "box", &b[0][0], 2, 3);
    return 0;
}

static const rrb_query_cmd queries[] = {
    {"contents", 3, 3, 0, q_contents, "X Y Z", "contents bits at a point, and its brushes"},
    {"trace", 6, 9, 0, q_trace, "SX SY SZ EX EY EZ [HX HY HZ]",
     "ray (or box of half extents H) trace\nagainst every brush (any contents)"},
    {"box", 6, 6, 0, q_rmf_box, "X0 Y0 Z0 X1 Y1 Z1", "brushes whose bounds touch a box"},
    {"entity", -2, -2, 0, q_entity, "KEY VALUE", "first entity whose KEY is VALUE"},
    {0},
};

/* ---- info ---- */

static void rmf_summary(const rr_room *room, FILE *o, int json)
{
    unsigned f = room->coord_frac;
    rr_rmf_counts c;
    const void *p;
    uint32_t n;
    const rr_rmf_header *h;
    if (rr_rmf_get_counts(room, &c) || rr_section(room, RR_SEC_RMF_HEADER, &p, &n) || !n)
        return;
    h = p;
    if (json) {
        fprintf(o, "\"version\":%.1f,\"planes\":%u,\"sides\":%u,\"brushes\":%u,\"nodes\":%u,"
                "\"leaves\":%u,\"entities\":%u,\"keyvalues\":%u,\"cameras\":%u,\"paths\":%u,"
                "\"tree_depth\":%u,\"visgroups\":%u,\"bounds\":[%.6g,%.6g,%.6g,%.6g,%.6g,%.6g]",
                c.version / 10.0, c.planes, c.sides, c.brushes, c.nodes, c.leaves, c.entities,
                c.keyvalues, c.cameras, c.paths, c.tree_depth, h->nvisgroups,
                rrb_cli_unit(h->mins[0], f), rrb_cli_unit(h->mins[1], f),
                rrb_cli_unit(h->mins[2], f), rrb_cli_unit(h->maxs[0], f),
                rrb_cli_unit(h->maxs[1], f), rrb_cli_unit(h->maxs[2], f));
        return;
    }
    fprintf(o, "  RMF v%.1f: %u brushes, %u sides, %u planes; brush tree %u nodes, %u leaves, "
            "depth %u\n  %u entities, %u key/values, %u cameras, %u paths, %u visgroups\n",
            c.version / 10.0, c.brushes, c.sides, c.planes, c.nodes, c.leaves, c.tree_depth,
            c.entities, c.keyvalues, c.cameras, c.paths, h->nvisgroups);
    fprintf(o, "  bounds %.6g %.6g %.6g .. %.6g %.6g %.6g\n", rrb_cli_unit(h->mins[0], f),
            rrb_cli_unit(h->mins[1], f), rrb_cli_unit(h->mins[2], f), rrb_cli_unit(h->maxs[0], f),
            rrb_cli_unit(h->maxs[1], f), rrb_cli_unit(h->maxs[2], f));
}

/* ---- OBJ from a blob: brush polygons rebuilt from the planes ---- */

#define RMF_MAXV 64

/* Clip the convex polygon v[0..n) to n.p <= d; returns the new count. */
static int clip_poly(double (*v)[3], int n, const double nn[3], double d, double (*tmp)[3])
{
    int i, k = 0;
    for (i = 0; i < n && k < RMF_MAXV - 1; i++) {
        const double *a = v[i], *b = v[(i + 1) % n];
        double da = nn[0] * a[0] + nn[1] * a[1] + nn[2] * a[2] - d;
        double db = nn[0] * b[0] + nn[1] * b[1] + nn[2] * b[2] - d;
        if (da <= 0)
            memcpy(tmp[k++], a, sizeof tmp[0]);
        if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
            double t = da / (da - db);
            int c;
            for (c = 0; c < 3; c++)
                tmp[k][c] = a[c] + t * (b[c] - a[c]);
            k++;
        }
    }
    memcpy(v, tmp, (size_t)k * sizeof v[0]);
    return k;
}

/* The face of plane (n, d) of a brush: a large square on the plane clipped by
 * the other sides. Returns the vertex count (0: the side touches the brush
 * only along an edge or a point, like the baker's bevels). */
static int brush_face(const rr_room *room, const uint32_t *sides, const rr_rmf_brush *b,
                      uint32_t k, double unit, double (*v)[3])
{
    double tmp[RMF_MAXV][3], nn[3], d, u[3], w[3], c[3], big = 1e7, area = 0, longest = 0;
    const rr_rmf_plane *pl;
    uint32_t j;
    int n = 4, i, a;
    rr_rmf_get_plane(room, sides[b->first_side + k], &pl);
    for (a = 0; a < 3; a++)
        nn[a] = pl->normal[a] / 65536.0;
    d = pl->dist * unit / (nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
    for (a = 0; a < 3; a++)
        c[a] = nn[a] * d;                       /* the plane's point nearest the origin */
    a = fabs(nn[2]) > 0.9 ? 0 : 2;              /* u: perpendicular to n and axis a */
    u[0] = a == 0 ? 0 : -nn[1], u[1] = a == 0 ? -nn[2] : nn[0], u[2] = a == 0 ? nn[1] : 0;
    {
        double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        for (a = 0; a < 3; a++)
            u[a] /= l;
    }
    w[0] = nn[1] * u[2] - nn[2] * u[1], w[1] = nn[2] * u[0] - nn[0] * u[2];
    w[2] = nn[0] * u[1] - nn[1] * u[0];
    for (i = 0; i < 4; i++)          /* counter-clockwise seen from outside */
        for (a = 0; a < 3; a++)
            v[i][a] = c[a] + big * ((i == 0 || i == 3 ? -1 : 1) * u[a] + (i < 2 ? -1 : 1) * w[a]);
    for (j = 0; j < b->nsides && n >= 3; j++) {
        double on[3];
        if (j == k)
            continue;
        rr_rmf_get_plane(room, sides[b->first_side + j], &pl);
        for (a = 0; a < 3; a++)
            on[a] = pl->normal[a] / 65536.0;
        n = clip_poly(v, n, on, pl->dist * unit, tmp);
    }
    for (i = 0, j = 0; i < n; i++) {  /* merge vertices closer than 1/64 unit */
        double e = 0;
        for (a = 0; a < 3; a++)
            e += (v[i][a] - v[(i + 1) % n][a]) * (v[i][a] - v[(i + 1) % n][a]);
        if (e >= 1.0 / 4096)
            memmove(v[j++], v[i], sizeof v[0]);
    }
    n = (int)j;
    for (i = 1; i + 1 < n; i++) {    /* drop slivers thinner than 1/4 unit */
        double e1[3], e2[3], x[3];
        for (a = 0; a < 3; a++)
            e1[a] = v[i][a] - v[0][a], e2[a] = v[i + 1][a] - v[0][a];
        x[0] = e1[1] * e2[2] - e1[2] * e2[1], x[1] = e1[2] * e2[0] - e1[0] * e2[2];
        x[2] = e1[0] * e2[1] - e1[1] * e2[0];
        area += sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / 2;
    }
    for (i = 0; i < n; i++) {
        double e = 0;
        for (a = 0; a < 3; a++)
            e += (v[(i + 1) % n][a] - v[i][a]) * (v[(i + 1) % n][a] - v[i][a]);
        longest = fmax(longest, sqrt(e));
    }
    return n >= 3 && longest > 0 && area / longest > 0.25 ? n : 0;
}

static void rmf_blob_obj(rrb_obj *o, const rr_room *room)
{
    rr_rmf_counts cnt;
    const void *p;
    const uint32_t *sides;
    uint32_t ns, i, k;
    double v[RMF_MAXV][3], unit = ldexp(1.0, -(int)room->coord_frac);
    int n, j;
    rr_rmf_get_counts(room, &cnt);
    rr_section(room, RR_SEC_RMF_SIDES, &p, &ns);
    sides = p;
    rrb_obj_material(o, "brush", NULL, rrb_obj_grey);
    for (i = 0; i < cnt.brushes; i++) {
        const rr_rmf_brush *b;
        rr_rmf_get_brush(room, i, &b);
        fprintf(o->f, "g brush_%u\n", i);
        for (k = 0; k < b->nsides; k++) {
            if ((n = brush_face(room, sides, b, k, unit, v)) == 0)
                continue;
            for (j = 0; j < n; j++)
                rrb_obj_vertex(o, v[j][0], v[j][2], -v[j][1]);
            /* counter-clockwise from outside already; (x, z, -y) is a rotation */
            fprintf(o->f, "f");
            for (j = 0; j < n; j++)
                fprintf(o->f, " %u", o->nv - (uint32_t)n + 1 + (uint32_t)j);
            fprintf(o->f, "\n");
            o->nf++;
        }
    }
}

/* ---- OBJ (source faces; from a blob, rebuilt) ---- */

static int rmf_obj(rrb_obj *o, const rrb_cli_room *r, int render, char *err, size_t cap)
{
    rrb_rmf_map m;
    int i, k, j;
    char name[300];
    (void)render;
    if (!r->src) {
        rmf_blob_obj(o, &r->room);
        return 0;
    }
    if (rrb_rmf_read(r->src, r->src_size, r->path, &m, err, cap))
        return -1;
    for (i = 0; i < m.nobjs; i++) {
        const rrb_rmf_obj *ob = &m.objs[i];
        if (ob->kind != RRB_RMF_SOLID)
            continue;
        fprintf(o->f, "g solid_%d\n", ob->kind_index);
        for (k = 0; k < ob->nfaces; k++) {
            const rrb_rmf_face *f = &m.faces[ob->first_face + k];
            rrb_obj_mat_name(name, sizeof name, "", f->tex);
            rrb_obj_material(o, name, f->tex, rrb_obj_grey);
            for (j = 0; j < f->nverts; j++)
                rrb_obj_vertex(o, (double)f->verts[j][0], (double)f->verts[j][2],
                               -(double)f->verts[j][1]);
            /* stored clockwise seen from outside (Z up); the mirror to Y up
             * keeps handedness, so reverse for counter-clockwise OBJ faces */
            fprintf(o->f, "f");
            for (j = f->nverts - 1; j >= 0; j--)
                fprintf(o->f, " %u", o->nv - (uint32_t)f->nverts + 1 + (uint32_t)j);
            fprintf(o->f, "\n");
            o->nf++;
        }
    }
    rrb_rmf_free(&m);
    return 0;
}

/* ---- SVG ---- */

/* A face to draw: z is its top (-1e300: a wall, drawn as lines), area its
 * area seen from above. */
typedef struct fpoly { double z, area; int face; int trigger; } fpoly;

/* Largest first: a big ground or terrain brush goes under the smaller
 * brushes standing on it instead of hiding them (the fills are also a little
 * transparent); equal areas lowest first. */
static int by_area(const void *a, const void *b)
{
    const fpoly *p = a, *q = b;
    if (p->area != q->area)
        return p->area > q->area ? -1 : 1;
    return p->z < q->z ? -1 : p->z > q->z;
}

/* Area of a face projected on the XY plane (shoelace). */
static double face_area_xy(const rrb_rmf_face *f)
{
    double a = 0;
    int j;
    for (j = 0; j < f->nverts; j++) {
        const float *p = f->verts[j], *q = f->verts[(j + 1) % f->nverts];
        a += (double)p[0] * (double)q[1] - (double)q[0] * (double)p[1];
    }
    return fabs(a) / 2;
}

/* Point entities are dotted by class: the most common classes get their own
 * colour and a legend entry, the rest share the last one. */
#define RMF_NCLS 9
typedef struct ent_classes {
    const char *name[RMF_NCLS];
    int count[RMF_NCLS];
    int n;                  /* named classes (the last slot: "other") */
} ent_classes;

static const char *const rmf_class_colour[RMF_NCLS] = {
    "#ff0", "#0ff", "#f0f", "#0f0", "#fa0", "#88f", "#f66", "#fff", "#999"};

static int is_point_entity(const rrb_rmf_obj *o)
{
    return o->kind == RRB_RMF_ENTITY && o->nchildren == 0;
}

static const char *class_of(const rrb_rmf_obj *o)
{
    return o->ent.classname.s && *o->ent.classname.s ? o->ent.classname.s : "(no class)";
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The classes of the point entities, most common first: the names sorted,
 * counted run by run, and the longest runs kept. */
static void rmf_classes(const rrb_rmf_map *m, ent_classes *c)
{
    const char **names = rrb_xcalloc((size_t)m->nobjs + 1, sizeof *names);
    int i, j, k, nn = 0, total = 0;
    memset(c, 0, sizeof *c);
    for (i = 0; i < m->nobjs; i++)
        if (is_point_entity(&m->objs[i]))
            names[nn++] = class_of(&m->objs[i]);
    qsort(names, (size_t)nn, sizeof *names, by_name);
    for (i = 0; i < nn; i = j) {
        for (j = i; j < nn && !strcmp(names[j], names[i]); j++)
            ;
        /* insert run [i, j) among the named ones, largest first */
        for (k = c->n; k > 0 && c->count[k - 1] < j - i; k--)
            if (k < RMF_NCLS - 1)
                c->name[k] = c->name[k - 1], c->count[k] = c->count[k - 1];
        if (k < RMF_NCLS - 1) {
            c->name[k] = names[i], c->count[k] = j - i;
            if (c->n < RMF_NCLS - 1)
                c->n++;
        }
    }
    for (k = 0; k < c->n; k++)
        total += c->count[k];
    c->count[RMF_NCLS - 1] = nn - total;   /* the rest: "other" */
    free(names);
}

static const char *class_colour(const ent_classes *c, const char *name)
{
    int j;
    for (j = 0; j < c->n; j++)
        if (!strcmp(c->name[j], name))
            return rmf_class_colour[j];
    return rmf_class_colour[RMF_NCLS - 1];
}

/* Height above which faces are left out of the plan, so that a sealed map's
 * roof does not hide its floors: 128 units above the highest point entity
 * (lights and spawn points sit inside the rooms); no cut without entities. */
static double rmf_cut(const rrb_rmf_map *m)
{
    double cut = -1e300;
    int i;
    for (i = 0; i < m->nobjs; i++)
        if (m->objs[i].kind == RRB_RMF_ENTITY && m->objs[i].nchildren == 0)
            cut = fmax(cut, (double)m->objs[i].origin[2] + 128.0);
    return cut > -1e300 ? cut : 1e300;
}

static double face_zmin(const rrb_rmf_face *f, double *zmax)
{
    double lo = 1e300, hi = -1e300;
    int j;
    for (j = 0; j < f->nverts; j++)
        lo = fmin(lo, (double)f->verts[j][2]), hi = fmax(hi, (double)f->verts[j][2]);
    *zmax = hi;
    return lo;
}

static void rmf_poly(rrb_svg *s, const rrb_rmf_face *f, const char *attrs)
{
    int j;
    fprintf(s->f, "<polygon %s points=\"", attrs);
    for (j = 0; j < f->nverts; j++)
        fprintf(s->f, "%s%.4f,%.4f", j ? " " : "", (double)f->verts[j][0],
                -(double)f->verts[j][1]);
    fprintf(s->f, "\"/>\n");
}

/* The faces to draw (top faces and walls below the cut) and the bounds. */
static int rmf_collect(rrb_svg *s, const rrb_rmf_map *m, double cut, fpoly *fp)
{
    int i, k, j, n = 0;
    double zhi;
    s->x0 = s->y0 = s->zmin = 1e300, s->x1 = s->y1 = s->zmax = -1e300;
    for (i = 0; i < m->nobjs; i++) {
        const rrb_rmf_obj *ob = &m->objs[i];
        const char *cls;
        if (ob->kind != RRB_RMF_SOLID)
            continue;
        cls = m->objs[rrb_rmf_owner(m, i)].ent.classname.s;
        for (k = 0; k < ob->nfaces; k++) {
            const rrb_rmf_face *f = &m->faces[ob->first_face + k];
            double nn[3], d;
            for (j = 0; j < f->nverts; j++) {
                s->x0 = fmin(s->x0, (double)f->verts[j][0]), s->x1 = fmax(s->x1, (double)f->verts[j][0]);
                s->y0 = fmin(s->y0, -(double)f->verts[j][1]), s->y1 = fmax(s->y1, -(double)f->verts[j][1]);
            }
            if (rrb_rmf_face_plane(f, nn, &d) || face_zmin(f, &zhi) > cut)
                continue;
            fp[n].face = ob->first_face + k;
            fp[n].trigger = cls && !strncmp(cls, "trigger", 7);
            fp[n].z = nn[2] >= 0.1 ? zhi : -1e300;   /* -1e300: a wall, drawn as lines */
            fp[n].area = face_area_xy(f);
            if (!fp[n].trigger && nn[2] >= 0.1)
                s->zmin = fmin(s->zmin, zhi), s->zmax = fmax(s->zmax, zhi);
            if (nn[2] >= 0.1 || fabs(nn[2]) < 0.1)
                n++;
        }
    }
    return n;
}

/* The faces of the plan: top faces filled by height, larger ones first
 * (triggers dashed), then side faces as white outlines; returns the
 * trigger faces drawn. */
static int rmf_svg_faces(rrb_svg *s, const rrb_rmf_map *m, fpoly *fp, int n)
{
    char col[64], attrs[200];
    int i, ntrig = 0;
    qsort(fp, (size_t)n, sizeof *fp, by_area);
    for (i = 0; i < n; i++) {
        const rrb_rmf_face *f = &m->faces[fp[i].face];
        if (fp[i].z == -1e300)
            continue;
        rrb_svg_ramp(col, sizeof col, s, fp[i].z);
        if (fp[i].trigger) {
            snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"#f80\" stroke-width=\"%.4f\" "
                     "stroke-dasharray=\"%.4f\"", s->sw * 1.5, s->sw * 6);
            ntrig++;
        } else
            snprintf(attrs, sizeof attrs, "fill=\"%s\" fill-opacity=\"0.8\" stroke=\"#000\" "
                     "stroke-opacity=\"0.5\" stroke-width=\"%.4f\"", col, s->sw * 0.6);
        rmf_poly(s, f, attrs);
    }
    snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"#fff\" stroke-width=\"%.4f\"",
             s->sw * 0.8);
    for (i = 0; i < n; i++)
        if (fp[i].z == -1e300 && !fp[i].trigger)
            rmf_poly(s, &m->faces[fp[i].face], attrs);
    return ntrig;
}

/* The legend and key: the cut, the height ramp, walls, triggers, the
 * entity classes. */
static void rmf_svg_key(rrb_svg *s, double cut, int ntrig, const ent_classes *cls)
{
    char text[320];
    int i;
    if (cut < 1e300)
        snprintf(text, sizeof text, "top view, map units (x right, y up the page), faces below "
                 "z %.6g; top faces filled by height, larger faces first", cut);
    else
        snprintf(text, sizeof text, "top view, map units (x right, y up the page); top faces "
                 "filled by height, larger faces first");
    rrb_svg_legend(s, text);
    snprintf(text, sizeof text, "top face height (z) %.6g .. %.6g", s->zmin, s->zmax);
    rrb_svg_key(s, RRB_KEY_RAMP, "", text);
    rrb_svg_key(s, RRB_KEY_LINE, "#fff", "wall (side face)");
    if (ntrig)
        rrb_svg_key(s, RRB_KEY_DASH, "#f80", "trigger brush");
    for (i = 0; i < cls->n; i++) {
        snprintf(text, sizeof text, "%s (%d)", cls->name[i], cls->count[i]);
        rrb_svg_key(s, RRB_KEY_DOT, rmf_class_colour[i], text);
    }
    if (cls->count[RMF_NCLS - 1]) {
        snprintf(text, sizeof text, "other classes (%d)", cls->count[RMF_NCLS - 1]);
        rrb_svg_key(s, RRB_KEY_DOT, rmf_class_colour[RMF_NCLS - 1], text);
    }
}

static int rmf_svg(rrb_svg *s, const rrb_cli_room *r, char *err, size_t cap)
{
    rrb_rmf_map m;
    fpoly *fp;
    ent_classes cls;
    int i, n, ntrig;
    double cut;
    char text[320];
    if (!r->src) {
        snprintf(err, cap, "%s:0x0: expected the .rmf source for an RMF plan (the blob has "
                 "no texture or entity class names), found a blob", r->path);
        return -1;
    }
    if (rrb_rmf_read(r->src, r->src_size, r->path, &m, err, cap))
        return -1;
    cut = rmf_cut(&m);
    fp = rrb_xcalloc((size_t)m.nfaces + 1, sizeof *fp);
    n = rmf_collect(s, &m, cut, fp);
    if (s->x0 > s->x1)
        s->x0 = s->y0 = 0, s->x1 = s->y1 = 1;
    snprintf(text, sizeof text, "RMF v%.1f: %d solids, %d entities", m.version / 10.0, m.nsolids,
             m.nentities);
    s->xname = "x", s->yname = "y", s->yflip = 1;   /* looking down -Z: y grows up the page */
    rrb_svg_head(s, text);
    ntrig = rmf_svg_faces(s, &m, fp, n);
    rmf_classes(&m, &cls);
    for (i = 0; i < m.nobjs; i++)
        if (is_point_entity(&m.objs[i])) {
            fprintf(s->f, "<circle cx=\"%.4f\" cy=\"%.4f\" r=\"%.4f\" fill=\"%s\" stroke=\"#000\" "
                    "stroke-width=\"%.4f\"><title>", (double)m.objs[i].origin[0],
                    -(double)m.objs[i].origin[1], s->sw * 4,
                    class_colour(&cls, class_of(&m.objs[i])), s->sw * 0.5);
            rrb_xml_text(s->f, class_of(&m.objs[i]));
            fprintf(s->f, "</title></circle>\n");
        }
    rmf_svg_key(s, cut, ntrig, &cls);
    free(fp);
    rrb_rmf_free(&m);
    return 0;
}

/* ---- Valve-220 .map ---- */

static void map_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++)
        fputc(*s == '"' ? '\'' : *s, f);
    fputc('"', f);
}

static void map_face(FILE *f, const rrb_rmf_face *fc)
{
    int k;
    char tex[262];
    size_t i;
    for (k = 0; k < 3; k++)
        fprintf(f, "( %.9g %.9g %.9g ) ", (double)fc->plane[k][0], (double)fc->plane[k][1],
                (double)fc->plane[k][2]);
    snprintf(tex, sizeof tex, "%s", fc->tex[0] ? fc->tex : "NULL");
    for (i = 0; tex[i]; i++)
        if (tex[i] == ' ' || tex[i] == '\t')
            tex[i] = '_';
    fprintf(f, "%s [ %.9g %.9g %.9g %.9g ] [ %.9g %.9g %.9g %.9g ] %.9g %.9g %.9g\n", tex,
            (double)fc->uaxis[0], (double)fc->uaxis[1], (double)fc->uaxis[2],
            (double)fc->shift_x, (double)fc->vaxis[0], (double)fc->vaxis[1],
            (double)fc->vaxis[2], (double)fc->shift_y, (double)fc->rotation,
            (double)fc->scale_x, (double)fc->scale_y);
}

static void map_entity(FILE *f, const rrb_rmf_map *m, int e, int *nbrush)
{
    const rrb_rmf_obj *ob = &m->objs[e];
    int i, k, has_origin = 0;
    fprintf(f, "// entity %d\n{\n\"classname\" ", e ? ob->kind_index + 1 : 0);
    map_str(f, ob->ent.classname.s && *ob->ent.classname.s ? ob->ent.classname.s
                                                           : "worldspawn");
    fprintf(f, "\n");
    if (e == 0)
        fprintf(f, "\"mapversion\" \"220\"\n");
    if (ob->ent.spawnflags)
        fprintf(f, "\"spawnflags\" \"%d\"\n", ob->ent.spawnflags);
    for (i = 0; i < ob->ent.nkv; i++) {
        const char *key = ob->ent.kv[i].key.s ? ob->ent.kv[i].key.s : "";
        if (!strcmp(key, "classname") || !strcmp(key, "mapversion") ||
            (!strcmp(key, "spawnflags") && ob->ent.spawnflags))
            continue;
        has_origin |= !strcmp(key, "origin");
        map_str(f, key);
        fputc(' ', f);
        map_str(f, ob->ent.kv[i].value.s);
        fputc('\n', f);
    }
    if (e && ob->nchildren == 0 && !has_origin)
        fprintf(f, "\"origin\" \"%.9g %.9g %.9g\"\n", (double)ob->origin[0],
                (double)ob->origin[1], (double)ob->origin[2]);
    for (i = 0; i < m->nobjs; i++) {
        if (m->objs[i].kind != RRB_RMF_SOLID || rrb_rmf_owner(m, i) != e)
            continue;
        fprintf(f, "// brush %d\n{\n", (*nbrush)++);
        for (k = 0; k < m->objs[i].nfaces; k++)
            map_face(f, &m->faces[m->objs[i].first_face + k]);
        fprintf(f, "}\n");
    }
    fprintf(f, "}\n");
}

static int write_map(const rrb_cli_room *r, const char *out_path, FILE *log, char *err, size_t cap)
{
    rrb_rmf_map m;
    FILE *f;
    int i, nbrush = 0, nent = 0, rc = 0;
    if (r->room.format != RR_FMT_RMF || !r->src) {
        snprintf(err, cap, "%s:0x0: expected an .rmf source file for a .map, found %s", r->path,
                 r->src ? "another format" : "a blob (the blob has no plane points)");
        return -1;
    }
    if (rrb_rmf_read(r->src, r->src_size, r->path, &m, err, cap))
        return -1;
    f = fopen(out_path, "w");
    if (!f) {
        rrb_rmf_free(&m);
        snprintf(err, cap, "%s: cannot create the output file", out_path);
        return -1;
    }
    fprintf(f, "// Valve 220 map converted by rrbake from %s (RMF v%.1f)\n", r->path,
            m.version / 10.0);
    for (i = 0; i < m.nobjs; i++)
        if (i == 0 || m.objs[i].kind == RRB_RMF_ENTITY) {
            map_entity(f, &m, i, &nbrush);
            nent++;
        }
    if (fclose(f)) {
        snprintf(err, cap, "%s: write error", out_path);
        rc = -1;
    }
    if (!rc && log)
        fprintf(log, "%s: %d entities, %d brushes, %d faces\n", out_path, nent, nbrush,
                m.nfaces);
    rrb_rmf_free(&m);
    return rc;
}

/* The plan looks down the Z axis: x right, y up the page (-y down). */
static void rmf_plan_xy(const rr_room *room, const int32_t *c, double xy[2])
{
    xy[0] = ldexp((double)c[0], -(int)room->coord_frac);
    xy[1] = -ldexp((double)c[1], -(int)room->coord_frac);
}

/* ---- the hooks ---- */

const rrb_room_hooks rrb_rmf_room = {
    RR_FMT_RMF, rmf_summary, queries, "rmf (Worldcraft / Hammer)",
    rmf_obj, rmf_svg, "map", write_map, rmf_plan_xy,
};

/* The module: reading and inspecting (rrb_rmf.c), the sample (rrb_rmf_write.c),
 * baking (rrb_rmf_bake.c) and the commands on its blobs (above). */
const rrb_format rrb_format_rmf = {
    "rmf", "Worldcraft / Hammer RMF map, versions 0.8-2.2", rrb_rmf_probe, rrb_rmf_info,
    rrb_rmf_info_json, rrb_rmf_verify, rrb_rmf_dump_json, rrb_rmf_bake, rrb_rmf_sample,
    &rrb_rmf_room, NULL, NULL,
};

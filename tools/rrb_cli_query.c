/* rrb_cli_query.c - `rrbake query`: run the runtime's queries from the shell.
 * Arguments are in source units (converted with the blob's coord_frac);
 * results are printed in source units with the raw coords in brackets. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_emi.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"
#include "rrb_cli.h"

const char rrb_cli_usage_query[] =
    "usage: rrbake query BLOB COMMAND ARGS...\n"
    "\n"
    "Run a runtime query on the host and print its result. BLOB is a little-endian\n"
    ".rrb blob or any source file rrbake can bake (baked in memory first).\n"
    "Coordinates are in source units (ROO client units, RMesh file units, RMF\n"
    "map units); results show source units and the raw coords [in brackets].\n"
    "\n"
    "roo (Meridian 59):\n"
    "  locate X Y                          BSP leaf and sector under a point\n"
    "  height X Y                          floor and ceiling at a point\n"
    "  move AX AY BX BY RADIUS STEP HEIGHT can a mover go from A to B\n"
    "  slide AX AY BX BY RADIUS STEP HEIGHT  move, then slide along the wall hit\n"
    "  sight AX AY AZ BX BY BZ             line of sight between two 3D points\n"
    "  grid X Y                            server grid cells under a point\n"
    "rmesh (SCP-CB / CBRE-EX):\n"
    "  ray OX OY OZ DX DY DZ MAXDIST       first collision triangle along a ray\n"
    "  sweep FX FY FZ TX TY TZ RX RY RZ [SLIDES]  ellipsoid move with sliding\n"
    "  trigger X Y Z                       trigger box containing a point\n"
    "  box X0 Y0 Z0 X1 Y1 Z1               collision triangles touching a box\n"
    "  nearest CLASS X Y Z                 nearest entity of a class (light, model,\n"
    "                                      playerstart, waypoint, ... or any)\n"
    "rmf (Worldcraft / Hammer):\n"
    "  contents X Y Z                      contents bits at a point, and its brushes\n"
    "  trace SX SY SZ EX EY EZ [HX HY HZ]  ray (or box of half extents H) trace\n"
    "                                      against every brush (any contents)\n"
    "  box X0 Y0 Z0 X1 Y1 Z1               brushes whose bounds touch a box\n"
    "  entity KEY VALUE                    first entity whose KEY is VALUE\n"
    "emi (Escape from Monkey Island):\n"
    "  pose ANIM T [--clamp]               joint transforms of ANIM (name or index)\n"
    "                                      at T seconds (looped unless --clamp)\n"
    "  joints                              the skeleton\n"
    "  anims                               the animations and their durations\n";

typedef struct qctx {
    const rr_room *room;
    FILE *out, *errf;
    const char *path;
    unsigned frac;
    int32_t c[12];          /* the coordinate arguments, converted */
    double v[12];           /* the numeric arguments as given */
} qctx;

typedef int (*query_fn)(qctx *q, int argc, char **argv);

typedef struct qcmd {
    uint32_t format;
    const char *name;
    int nmin, nmax;         /* numeric argument counts (-1: not numeric) */
    query_fn fn;
} qcmd;

/* A coordinate as "source units [coords]". */
static void put_c(FILE *o, int32_t c, unsigned frac)
{
    fprintf(o, "%.6g [%d]", ldexp((double)c, -(int)frac), c);
}

static void put_pt(FILE *o, const char *label, const int32_t *c, int n, unsigned frac)
{
    int i;
    fprintf(o, "%s:", label);
    for (i = 0; i < n; i++)
        fprintf(o, " %.6g", ldexp((double)c[i], -(int)frac));
    fprintf(o, " [");
    for (i = 0; i < n; i++)
        fprintf(o, "%s%d", i ? " " : "", c[i]);
    fprintf(o, "]\n");
}

static void put_fix(FILE *o, const char *label, rr_fix f)
{
    fprintf(o, "%s: %.6f [0x%08x]\n", label, (double)f / 65536.0, (uint32_t)f);
}

static void put_vec(FILE *o, const char *label, rr_vec3 v)
{
    fprintf(o, "%s: %.6f %.6f %.6f\n", label, (double)v.x / 65536.0, (double)v.y / 65536.0,
            (double)v.z / 65536.0);
}

static int qfail(qctx *q, rr_err e, const char *what)
{
    fprintf(q->errf, "%s: %s: %s\n", q->path, what, rr_strerror(e));
    return 1;
}

/* ---- ROO ---- */

static int q_locate(qctx *q, int argc, char **argv)
{
    rr_roo_where w;
    rr_err e = rr_roo_locate(q->room, q->c[0], q->c[1], &w);
    (void)argc, (void)argv;
    if (e && e != RR_ERR_NOTFOUND)
        return qfail(q, e, "locate");
    put_pt(q->out, "point", q->c, 2, q->frac);
    if (e == RR_ERR_NOTFOUND)
        fprintf(q->out, "outside (walk ended at node %d)\n", w.node);
    else
        fprintf(q->out, "sector: %d\nleaf: %d\nnode: %d\n", w.sector, w.leaf, w.node);
    return 0;
}

static int q_height(qctx *q, int argc, char **argv)
{
    rr_roo_heights h;
    rr_err e = rr_roo_height(q->room, q->c[0], q->c[1], &h);
    (void)argc, (void)argv;
    if (e && e != RR_ERR_NOTFOUND)
        return qfail(q, e, "height");
    put_pt(q->out, "point", q->c, 2, q->frac);
    if (e == RR_ERR_NOTFOUND) {
        fprintf(q->out, "outside\n");
        return 0;
    }
    fprintf(q->out, "sector: %d\nflags: 0x%x\nfloor: ", h.sector, h.flags);
    put_c(q->out, h.floor, q->frac);
    fprintf(q->out, "\nfloor_surface: ");
    put_c(q->out, h.floor_surface, q->frac);
    fprintf(q->out, "\nceiling: ");
    put_c(q->out, h.ceiling, q->frac);
    fprintf(q->out, "\n");
    return 0;
}

static const char *block_name(int32_t b)
{
    static const char *const n[] = {"free", "wall", "step", "ceiling", "nomove"};
    return b >= 0 && b < 5 ? n[b] : "?";
}

static void put_move(qctx *q, const char *pre, const rr_roo_move *m)
{
    int32_t p[2];
    char label[32];
    p[0] = m->x, p[1] = m->y;
    fprintf(q->out, "%sblock: %s\n%swall: %d\n", pre, block_name(m->block), pre, m->wall);
    snprintf(label, sizeof label, "%sfraction", pre);
    put_fix(q->out, label, m->fraction);
    snprintf(label, sizeof label, "%sstop", pre);
    put_pt(q->out, label, p, 2, q->frac);
}

static int q_move(qctx *q, int argc, char **argv)
{
    rr_roo_move m;
    const int32_t *c = q->c;
    rr_err e = rr_roo_can_move(q->room, c[0], c[1], c[2], c[3], c[4], c[5], c[6], &m);
    (void)argc, (void)argv;
    if (e)
        return qfail(q, e, "move");
    put_move(q, "", &m);
    return 0;
}

static int q_slide(qctx *q, int argc, char **argv)
{
    rr_roo_move a, b;
    const int32_t *c = q->c;
    rr_err e = rr_roo_slide(q->room, c[0], c[1], c[2], c[3], c[4], c[5], c[6], &a, &b);
    (void)argc, (void)argv;
    if (e)
        return qfail(q, e, "slide");
    put_move(q, "first ", &a);
    put_move(q, "slide ", &b);
    return 0;
}

static int q_sight(qctx *q, int argc, char **argv)
{
    rr_roo_sight s;
    rr_err e = rr_roo_line_of_sight(q->room, q->c, q->c + 3, &s);
    (void)argc, (void)argv;
    if (e)
        return qfail(q, e, "sight");
    fprintf(q->out, "visible: %d\nwall: %d\n", s.visible, s.wall);
    put_fix(q->out, "fraction", s.fraction);
    return 0;
}

static int q_grid(qctx *q, int argc, char **argv)
{
    rr_roo_cell cell;
    rr_err e = rr_roo_grid_at(q->room, q->c[0], q->c[1], &cell);
    (void)argc, (void)argv;
    if (e == RR_ERR_MISSING || e == RR_ERR_NOTFOUND) {
        fprintf(q->out, "%s\n", e == RR_ERR_MISSING ? "no grids (v15 room)" : "outside the grids");
        return 0;
    }
    if (e)
        return qfail(q, e, "grid");
    fprintf(q->out, "grid: %d\nmove: 0x%02x\nflags: 0x%02x\nmonster: 0x%02x\n", cell.has_grid,
            cell.move, cell.flags, cell.monster);
    fprintf(q->out, "hires: %d\nhires_cell: 0x%08x\n", cell.has_hires, cell.hires);
    return 0;
}

/* ---- RMesh ---- */

static rr_fix to_fix(double v)
{
    double f = v * 65536.0;
    if (f > 2147483647.0)
        return RR_FIX_MAX;
    if (f < -2147483648.0)
        return RR_FIX_MIN;
    return (rr_fix)(f >= 0 ? floor(f + 0.5) : -floor(-f + 0.5));
}

static int q_ray(qctx *q, int argc, char **argv)
{
    rr_rmesh_ray ray;
    rr_rmesh_hit hit;
    const char *t0 = "", *t1 = "";
    const rr_rmesh_surf *surf;
    rr_err e;
    (void)argc, (void)argv;
    memcpy(ray.origin, q->c, sizeof ray.origin);
    ray.dir.x = to_fix(q->v[3]), ray.dir.y = to_fix(q->v[4]), ray.dir.z = to_fix(q->v[5]);
    ray.max_dist = q->c[6];
    e = rr_rmesh_raycast(q->room, &ray, &hit);
    if (e)
        return qfail(q, e, "ray");
    fprintf(q->out, "hit: %d\n", hit.hit);
    if (!hit.hit)
        return 0;
    rr_rmesh_surface(q->room, hit.surface, &surf, &t0, &t1);
    fprintf(q->out, "triangle: %u\nsource_triangle: %u\nsurface: %u (%s%s%s)\n", hit.tri,
            hit.src, hit.surface, t1, *t0 ? ", lightmap " : "", t0);
    fprintf(q->out, "distance: ");
    put_c(q->out, hit.dist, q->frac);
    fprintf(q->out, "\n");
    put_fix(q->out, "fraction", hit.frac);
    put_pt(q->out, "point", hit.point, 3, q->frac);
    put_vec(q->out, "normal", hit.normal);
    return 0;
}

static int q_sweep(qctx *q, int argc, char **argv)
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
        return qfail(q, e, "sweep");
    put_pt(q->out, "position", o.pos, 3, q->frac);
    fprintf(q->out, "hit: %d\nslides: %u\n", o.hit, o.slides);
    if (o.hit) {
        fprintf(q->out, "triangle: %u\n", o.tri);
        put_vec(q->out, "normal", o.normal);
    }
    return 0;
}

static int q_trigger(qctx *q, int argc, char **argv)
{
    uint32_t i;
    const rr_rmesh_trigger *box;
    const char *name = "";
    rr_err e = rr_rmesh_trigger_at(q->room, q->c, &i);
    (void)argc, (void)argv;
    if (e == RR_ERR_NOTFOUND) {
        fprintf(q->out, "trigger: none\n");
        return 0;
    }
    if (e || (e = rr_rmesh_trigger_get(q->room, i, &box, &name)) != RR_OK)
        return qfail(q, e, "trigger");
    fprintf(q->out, "trigger: %u\nname: %s\n", i, name);
    put_pt(q->out, "min", box->min, 3, q->frac);
    put_pt(q->out, "max", box->max, 3, q->frac);
    return 0;
}

static int q_box(qctx *q, int argc, char **argv)
{
    uint32_t items[64], k;
    rr_rmesh_list l;
    rr_err e;
    (void)argc, (void)argv;
    l.items = items, l.cap = 64, l.count = 0, l.truncated = 0;
    e = rr_rmesh_box_tris(q->room, q->c, q->c + 3, &l);
    if (e)
        return qfail(q, e, "box");
    fprintf(q->out, "triangles: %u%s\n", l.count, l.truncated ? " (list full: more touch)" : "");
    for (k = 0; k < l.count; k++)
        fprintf(q->out, "%s%u", k ? " " : "", items[k]);
    if (l.count)
        fprintf(q->out, "\n");
    return 0;
}

/* ---- RMF ---- */

static void put_contents(FILE *o, uint32_t c)
{
    fprintf(o, "contents: 0x%x", c);
    if (c & RR_RMF_SOLID) fprintf(o, " solid");
    if (c & RR_RMF_WATER) fprintf(o, " water");
    if (c & RR_RMF_TRIGGER) fprintf(o, " trigger");
    if (c & RR_RMF_NONSOLID) fprintf(o, " nonsolid");
    fprintf(o, "%s\n", c ? "" : " empty");
}

static int q_contents(qctx *q, int argc, char **argv)
{
    uint32_t c, items[64], k;
    rr_rmf_list l;
    rr_err e = rr_rmf_point_contents(q->room, q->c, &c);
    (void)argc, (void)argv;
    if (e)
        return qfail(q, e, "contents");
    put_contents(q->out, c);
    l.items = items, l.max = 64, l.count = l.total = 0;
    if ((e = rr_rmf_point_brushes(q->room, q->c, &l)) != RR_OK)
        return qfail(q, e, "contents");
    fprintf(q->out, "brushes: %u", l.total);
    for (k = 0; k < l.count; k++)
        fprintf(q->out, " %u", items[k]);
    fprintf(q->out, "\n");
    return 0;
}

static int q_trace(qctx *q, int argc, char **argv)
{
    rr_rmf_trace_result t;
    rr_err e;
    (void)argv;
    e = rr_rmf_trace(q->room, q->c, q->c + 3, argc > 6 ? q->c + 6 : NULL, 0xffffffffu, &t);
    if (e)
        return qfail(q, e, "trace");
    put_fix(q->out, "fraction", t.fraction);
    put_pt(q->out, "end", t.end, 3, q->frac);
    fprintf(q->out, "start_solid: %u\nall_solid: %u\n", t.start_solid, t.all_solid);
    if (t.brush >= 0) {
        fprintf(q->out, "brush: %d\nplane: %d\n", t.brush, t.plane);
        put_vec(q->out, "normal", t.normal);
        put_contents(q->out, t.contents);
    }
    return 0;
}

static int q_entity(qctx *q, int argc, char **argv)
{
    uint32_t i;
    const rr_rmf_entity *ent;
    rr_err e;
    (void)argc;
    e = rr_rmf_find_entity(q->room, argv[0], argv[1], 0, &i);
    if (e == RR_ERR_NOTFOUND) {
        fprintf(q->out, "entity: none\n");
        return 0;
    }
    if (e || (e = rr_rmf_get_entity(q->room, i, &ent)) != RR_OK)
        return qfail(q, e, "entity");
    fprintf(q->out, "entity: %u\nclassname: %s\ntargetname: %s\nbrushes: %u\n", i,
            rr_string(q->room, ent->classname), rr_string(q->room, ent->targetname),
            ent->nbrushes);
    put_pt(q->out, "origin", ent->origin, 3, q->frac);
    return 0;
}

static int q_rmf_box(qctx *q, int argc, char **argv)
{
    uint32_t items[64], k;
    rr_rmf_list l;
    rr_err e;
    (void)argc, (void)argv;
    l.items = items, l.max = 64, l.count = l.total = 0;
    if ((e = rr_rmf_box_brushes(q->room, q->c, q->c + 3, &l)) != RR_OK)
        return qfail(q, e, "box");
    fprintf(q->out, "brushes: %u%s\n", l.total, l.total > l.count ? " (first 64 listed)" : "");
    for (k = 0; k < l.count; k++)
        fprintf(q->out, "%s%u", k ? " " : "", items[k]);
    if (l.count)
        fprintf(q->out, "\n");
    return 0;
}

static const char *const rmesh_classes[RR_RMESH_NCLASSES] = {
    "screen", "waypoint", "light", "spotlight", "soundemitter", "playerstart", "model"};

static int q_nearest(qctx *q, int argc, char **argv)
{
    uint32_t cls, i;
    const rr_rmesh_ent *ent;
    int32_t p[3];
    rr_err e;
    (void)argc;
    for (cls = 0; cls < RR_RMESH_NCLASSES && strcmp(argv[0], rmesh_classes[cls]); cls++)
        ;
    if (strcmp(argv[0], "any") && cls == RR_RMESH_NCLASSES) {
        fprintf(q->errf, "%s: query nearest: expected an entity class (screen waypoint light "
                "spotlight soundemitter playerstart model any), found '%s'\n", q->path, argv[0]);
        return 2;
    }
    for (i = 0; i < 3; i++) {
        double v;
        if (rrb_cli_num(argv[1 + i], &v) || rrb_cli_to_coord(v, q->frac, &p[i])) {
            fprintf(q->errf, "%s: query nearest: argument %u: expected a coordinate, found "
                    "'%s'\n", q->path, i + 2, argv[1 + i]);
            return 2;
        }
    }
    e = rr_rmesh_entity_nearest(q->room, cls, p, &i);
    if (e == RR_ERR_NOTFOUND) {
        fprintf(q->out, "entity: none\n");
        return 0;
    }
    if (e || (e = rr_rmesh_entity(q->room, i, &ent)) != RR_OK)
        return qfail(q, e, "nearest");
    fprintf(q->out, "entity: %u\nclass: %s\n", i,
            ent->cls < RR_RMESH_NCLASSES ? rmesh_classes[ent->cls] : "?");
    put_pt(q->out, "position", ent->pos, 3, q->frac);
    return 0;
}

/* ---- EMI ---- */

static int q_joints(qctx *q, int argc, char **argv)
{
    rr_emi_info info;
    uint32_t j;
    (void)argc, (void)argv;
    rr_emi_get_info(q->room, &info);
    fprintf(q->out, "joints: %u\n", info.njoints);
    for (j = 0; j < info.njoints; j++) {
        const char *name;
        int32_t parent;
        rr_emi_joint_get(q->room, j, &name, &parent);
        fprintf(q->out, "%u %s parent %d\n", j, name, parent);
    }
    return 0;
}

static int q_anims(qctx *q, int argc, char **argv)
{
    rr_emi_info info;
    uint32_t a;
    (void)argc, (void)argv;
    rr_emi_get_info(q->room, &info);
    fprintf(q->out, "anims: %u\n", info.nanims);
    for (a = 0; a < info.nanims; a++) {
        const char *name;
        rr_fix d;
        rr_emi_anim_get(q->room, a, &name, &d);
        fprintf(q->out, "%u %s %.6f s\n", a, name, (double)d / 65536.0);
    }
    return 0;
}

static int q_pose(qctx *q, int argc, char **argv)
{
    rr_emi_info info;
    rr_emi_local *local;
    rr_emi_xform *model;
    rr_emi_sample_job s;
    rr_emi_model_job m;
    uint32_t anim, j;
    double t;
    char *end;
    rr_err e;
    int clamp = argc > 2 && !strcmp(argv[2], "--clamp");
    rr_emi_get_info(q->room, &info);
    if (rr_emi_anim_find(q->room, argv[0], &anim) != RR_OK) {
        anim = (uint32_t)strtoul(argv[0], &end, 10);
        if (*end || !*argv[0] || anim >= info.nanims) {
            fprintf(q->errf, "%s: pose: expected an animation name or index below %u, "
                    "found '%s'\n", q->path, info.nanims, argv[0]);
            return 1;
        }
    }
    if (rrb_cli_num(argv[1], &t) || fabs(t) > 32767.0) {
        fprintf(q->errf, "%s: pose: expected a time in seconds, found '%s'\n", q->path, argv[1]);
        return 1;
    }
    local = rrb_xcalloc(info.njoints + 1, sizeof *local);
    model = rrb_xcalloc(info.njoints + 1, sizeof *model);
    s.room = q->room, s.anim = anim, s.time = to_fix(t);
    s.mode = clamp ? RR_EMI_CLAMP : RR_EMI_LOOP;
    s.out = local, s.out_count = info.njoints, s.mask = NULL;
    m.room = q->room, m.local = local, m.out = model, m.count = info.njoints;
    if ((e = rr_emi_sample_job_run(&s)) != RR_OK || (e = rr_emi_model_job_run(&m)) != RR_OK) {
        free(local), free(model);
        return qfail(q, e, "pose");
    }
    {
        const char *aname;
        rr_fix dur;
        rr_emi_anim_get(q->room, anim, &aname, &dur);
        fprintf(q->out, "anim: %u %s (%.6f s)\ntime: %.6f [0x%08x] %s\n", anim, aname,
                (double)dur / 65536.0, (double)s.time / 65536.0, (uint32_t)s.time,
                clamp ? "clamped" : "looped");
    }
    for (j = 0; j < info.njoints; j++) {
        const char *name;
        int32_t parent;
        rr_emi_joint_get(q->room, j, &name, &parent);
        fprintf(q->out, "joint %u %s parent %d\n", j, name, parent);
        put_pt(q->out, "  local_t", local[j].t, 3, q->frac);
        fprintf(q->out, "  local_q: %.6f %.6f %.6f %.6f\n", ldexp(local[j].q[0], -30),
                ldexp(local[j].q[1], -30), ldexp(local[j].q[2], -30), ldexp(local[j].q[3], -30));
        put_pt(q->out, "  model_t", model[j].t, 3, q->frac);
    }
    free(local), free(model);
    return 0;
}

static const qcmd cmds[] = {
    {RR_FMT_ROO, "locate", 2, 2, q_locate},
    {RR_FMT_ROO, "height", 2, 2, q_height},
    {RR_FMT_ROO, "move", 7, 7, q_move},
    {RR_FMT_ROO, "slide", 7, 7, q_slide},
    {RR_FMT_ROO, "sight", 6, 6, q_sight},
    {RR_FMT_ROO, "grid", 2, 2, q_grid},
    {RR_FMT_RMESH, "ray", 7, 7, q_ray},
    {RR_FMT_RMESH, "sweep", 9, 10, q_sweep},
    {RR_FMT_RMESH, "trigger", 3, 3, q_trigger},
    {RR_FMT_RMESH, "box", 6, 6, q_box},
    {RR_FMT_RMF, "contents", 3, 3, q_contents},
    {RR_FMT_RMF, "trace", 6, 9, q_trace},
    {RR_FMT_RMESH, "nearest", -4, -4, q_nearest},
    {RR_FMT_RMF, "box", 6, 6, q_rmf_box},
    {RR_FMT_RMF, "entity", -2, -2, q_entity},
    {RR_FMT_EMI, "pose", -2, -3, q_pose},
    {RR_FMT_EMI, "joints", 0, 0, q_joints},
    {RR_FMT_EMI, "anims", 0, 0, q_anims},
};

static const char *fmt_name(uint32_t f)
{
    static const char *const n[] = {"raw", "rmesh", "rmf", "roo", "emi"};
    return f < 5 ? n[f] : "unknown";
}

/* Convert the numeric arguments: every one is a coordinate except the ray
 * direction (RMesh ray args 3-5) and the sweep's slide count. */
static int convert_args(qctx *q, const qcmd *c, int argc, char **argv)
{
    int i;
    for (i = 0; i < argc; i++) {
        int plain = (!strcmp(c->name, "ray") && i >= 3 && i <= 5) ||
                    (!strcmp(c->name, "sweep") && i == 9);
        if (rrb_cli_num(argv[i], &q->v[i])) {
            fprintf(q->errf, "%s: query %s: argument %d: expected a number, found '%s'\n",
                    q->path, c->name, i + 1, argv[i]);
            return -1;
        }
        if (!plain && rrb_cli_to_coord(q->v[i], q->frac, &q->c[i])) {
            fprintf(q->errf, "%s: query %s: argument %d: expected a coordinate that fits "
                    "int32 at %u fractional bits, found %s\n", q->path, c->name, i + 1,
                    q->frac, argv[i]);
            return -1;
        }
    }
    return 0;
}

int rrb_cli_query(int argc, char **argv, FILE *out, FILE *errf)
{
    rrb_cli_room r;
    qctx q;
    char err[RRB_ERR_MAX];
    size_t k;
    int n, rc, lo, hi;
    const qcmd *c = NULL;
    if (argc < 2) {
        fputs(rrb_cli_usage_query, errf);
        return 2;
    }
    if (rrb_cli_open(argv[0], &r, err, sizeof err)) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        if (cmds[k].format == r.room.format && !strcmp(cmds[k].name, argv[1]))
            c = &cmds[k];
    n = argc - 2;
    lo = c ? abs(c->nmin) : 0, hi = c ? abs(c->nmax) : 0;
    if (!c || n < lo || n > hi) {
        fprintf(errf, "%s: query: expected %s for a %s room, found '%s'%s\n"
                "(rrbake query --help lists the commands and their arguments)\n",
                argv[0], c ? "a different number of arguments" : "a command", fmt_name(r.room.format),
                argv[1], c ? " with that count" : "");
        rrb_cli_close(&r);
        return 2;
    }
    memset(&q, 0, sizeof q);
    q.room = &r.room, q.out = out, q.errf = errf, q.path = argv[0];
    q.frac = r.room.coord_frac;
    if (c->nmin >= 0 && convert_args(&q, c, n, argv + 2)) {
        rrb_cli_close(&r);
        return 2;
    }
    rc = c->fn(&q, n, argv + 2);
    rrb_cli_close(&r);
    return rc;
}

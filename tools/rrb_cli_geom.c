/* rrb_cli_geom.c - OBJ (+MTL) and SVG plans of an opened room.
 *
 * Axes in the OBJ (right-handed, +Y up, what Blender's importer expects):
 *   ROO   (x, z, y)  client units: x east, y south, z up
 *   RMesh (x, y, -z) Blitz3D is left-handed +Y up: z is mirrored and every
 *                    triangle's winding reversed so normals stay outward
 *   RMF   (x, z, -y) Hammer is right-handed +Z up
 *   EMI   (x, y, z)  as stored
 * Positions are written in source units (coords / 2^coord_frac).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_blobfmt.h"
#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rr_rmf.h"
#include "rr_rmesh.h"
#include "rr_roo.h"
#include "rr_roo_blob.h"
#include "rrb_cli.h"
#include "rrb_rmf.h"

typedef struct obj_out {
    FILE *f, *mtl;
    unsigned frac;
    uint32_t nv, nf;            /* vertices written, faces written */
    char **mats;                /* material names written to the MTL */
    size_t nmats, cap;
} obj_out;

static double un(const obj_out *o, int32_t c)
{
    return ldexp((double)c, -(int)o->frac);
}

static void vtx(obj_out *o, double x, double y, double z)
{
    fprintf(o->f, "v %.6f %.6f %.6f\n", x, y, z);
    o->nv++;
}

/* usemtl NAME, adding NAME (with its texture, if any) to the MTL once. */
static void use_mat(obj_out *o, const char *name, const char *tex, const float rgb[3])
{
    size_t i;
    for (i = 0; i < o->nmats && strcmp(o->mats[i], name); i++)
        ;
    if (i == o->nmats) {
        o->mats = rrb_grow(o->mats, &o->cap, o->nmats + 1, sizeof *o->mats);
        o->mats[o->nmats++] = rrb_xstrdup(name);
        fprintf(o->mtl, "newmtl %s\nKd %.3f %.3f %.3f\n", name, (double)rgb[0], (double)rgb[1],
                (double)rgb[2]);
        if (tex && *tex)
            fprintf(o->mtl, "map_Kd %s\n", tex);
        fprintf(o->mtl, "\n");
    }
    fprintf(o->f, "usemtl %s\n", name);
}

/* A material name without spaces (OBJ splits on blanks). */
static void mat_name(char *dst, size_t cap, const char *prefix, const char *tex)
{
    size_t i;
    snprintf(dst, cap, "%s%s", prefix, tex && *tex ? tex : "none");
    for (i = 0; dst[i]; i++)
        if (dst[i] == ' ' || dst[i] == '\t' || dst[i] == '/' || dst[i] == '\\')
            dst[i] = '_';
}

/* ---- ROO ---- */

static int32_t roo_z(const rr_room *room, uint32_t sector, int32_t x, int32_t y, int ceil)
{
    rr_roo_heights h;
    if (rr_roo_sector_height(room, (int32_t)sector, x, y, &h))
        return 0;
    return ceil ? h.ceiling : h.floor_surface;
}

static void roo_quad(obj_out *o, const rr_roo_wall_rec *w, int32_t za0, int32_t za1,
                     int32_t zb0, int32_t zb1)
{
    /* za = bottom at ends 0/1, zb = top at ends 0/1; skip when empty. */
    if (za0 >= zb0 && za1 >= zb1)
        return;
    vtx(o, un(o, w->x0), un(o, za0), un(o, w->y0));
    vtx(o, un(o, w->x1), un(o, za1), un(o, w->y1));
    vtx(o, un(o, w->x1), un(o, zb1), un(o, w->y1));
    vtx(o, un(o, w->x0), un(o, zb0), un(o, w->y0));
    fprintf(o->f, "f %u %u %u %u\n", o->nv - 3, o->nv - 2, o->nv - 1, o->nv);
    o->nf++;
}

static const float col_floor[3] = {0.6f, 0.55f, 0.45f}, col_ceil[3] = {0.5f, 0.5f, 0.6f},
                   col_wall[3] = {0.75f, 0.7f, 0.65f}, col_step[3] = {0.8f, 0.6f, 0.4f};

static void roo_obj(obj_out *o, const rr_room *room)
{
    const rr_roo_wall_rec *w;
    const rr_roo_leaf_rec *lf;
    const rr_roo_point_rec *pt;
    const void *p;
    uint32_t nw = 0, nl = 0, np = 0, i, k, side;
    rr_section(room, RR_SEC_ROO_WALLS, &p, &nw);
    w = p;
    rr_section(room, RR_SEC_ROO_LEAVES, &p, &nl);
    lf = p;
    rr_section(room, RR_SEC_ROO_POINTS, &p, &np);
    pt = p;
    (void)np;
    for (side = 0; side < 2; side++) {
        fprintf(o->f, "g %s\n", side ? "ceilings" : "floors");
        use_mat(o, side ? "ceiling" : "floor", NULL, side ? col_ceil : col_floor);
        for (i = 0; i < nl; i++) {
            for (k = 0; k < lf[i].npoints; k++) {
                /* leaves are clockwise seen from above (y south): reverse for
                 * floors so their normal points up in the OBJ's axes */
                uint32_t j = side ? k : lf[i].npoints - 1 - k;
                const rr_roo_point_rec *q = &pt[lf[i].first_point + j];
                vtx(o, un(o, q->x), un(o, roo_z(room, lf[i].sector, q->x, q->y, (int)side)),
                    un(o, q->y));
            }
            fprintf(o->f, "f");
            for (k = 0; k < lf[i].npoints; k++)
                fprintf(o->f, " %u", o->nv - lf[i].npoints + 1 + k);
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
            use_mat(o, "wall", NULL, col_wall);
            roo_quad(o, &w[i], roo_z(room, s, w[i].x0, w[i].y0, 0),
                     roo_z(room, s, w[i].x1, w[i].y1, 0), roo_z(room, s, w[i].x0, w[i].y0, 1),
                     roo_z(room, s, w[i].x1, w[i].y1, 1));
            continue;
        }
        use_mat(o, "step", NULL, col_step);
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
}

/* ---- RMesh ---- */

static const float grey[3] = {0.7f, 0.7f, 0.7f};

/* The render groups (quantized positions, diffuse UVs), one material each. */
static void rmesh_render_obj(obj_out *o, const rr_room *room, const rr_rmesh_rhead *rh)
{
    uint32_t i;
    char name[300];
    for (i = 0; i < rh->ngroups; i++) {
        const rr_rmesh_rgroup *g;
        const rr_rmesh_rvert *rv;
        const uint16_t *ix;
        const rr_rmesh_surf *sf;
        const char *t0, *t1;
        uint32_t k, base = o->nv;
        rr_rmesh_render_group(room, i, &g, &rv, &ix);
        rr_rmesh_surface(room, g->surface, &sf, &t0, &t1);
        for (k = 0; k < g->nverts; k++) {
            double c[3];
            int a;
            for (a = 0; a < 3; a++)
                c[a] = un(o, rh->center[a]) +
                       ldexp((double)rv[k].pos[a], (int)rh->pos_shift - (int)o->frac);
            vtx(o, c[0], c[1], -c[2]);
            fprintf(o->f, "vt %.6f %.6f\n", ldexp(rv[k].uv0[0], -(int)g->uv_frac[0]),
                    1.0 - ldexp(rv[k].uv0[1], -(int)g->uv_frac[0]));
        }
        mat_name(name, sizeof name, "", t1);
        use_mat(o, name, t1, grey);
        for (k = 0; k + 2 < g->nindices; k += 3) {
            uint32_t a = base + ix[k] + 1u, b = base + ix[k + 1] + 1u, c = base + ix[k + 2] + 1u;
            fprintf(o->f, "f %u/%u %u/%u %u/%u\n", c, c, b, b, a, a);
            o->nf++;
        }
    }
}

static void rmesh_obj(obj_out *o, const rr_room *room, int render)
{
    const rr_rmesh_head *h;
    const rr_rmesh_rhead *rh;
    const void *p;
    uint32_t nv = 0, i, s;
    char name[300];
    rr_rmesh_head_get(room, &h);
    if (render && rr_rmesh_render_head(room, &rh) == RR_OK) {
        rmesh_render_obj(o, room, rh);
        return;
    }
    rr_section(room, RR_SEC_RMESH_VERTS, &p, &nv);
    for (i = 0; i < nv; i++) {
        const rr_rmesh_vert *v = (const rr_rmesh_vert *)p + i;
        vtx(o, un(o, v->p[0]), un(o, v->p[1]), -un(o, v->p[2]));
    }
    for (s = 0; s < h->nsurfs; s++) {
        const rr_rmesh_surf *sf;
        const char *t0, *t1;
        int first = 1;
        rr_rmesh_surface(room, s, &sf, &t0, &t1);
        for (i = 0; i < h->ntris; i++) {
            const rr_rmesh_tri *t;
            const rr_rmesh_vert *v3[3];
            rr_rmesh_triangle(room, i, &t, v3);
            if (t->surface != s)
                continue;
            if (first) {
                mat_name(name, sizeof name, sf->kind == RR_RMESH_SURF_INVISIBLE ? "invisible_" : "",
                         t1);
                use_mat(o, name, t1, grey);
                first = 0;
            }
            fprintf(o->f, "f %u %u %u\n", t->v[2] + 1, t->v[1] + 1, t->v[0] + 1);
            o->nf++;
        }
    }
}

/* ---- RMF from a blob: brush polygons rebuilt from the planes ---- */

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

static void rmf_blob_obj(obj_out *o, const rr_room *room)
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
    use_mat(o, "brush", NULL, grey);
    for (i = 0; i < cnt.brushes; i++) {
        const rr_rmf_brush *b;
        rr_rmf_get_brush(room, i, &b);
        fprintf(o->f, "g brush_%u\n", i);
        for (k = 0; k < b->nsides; k++) {
            if ((n = brush_face(room, sides, b, k, unit, v)) == 0)
                continue;
            for (j = 0; j < n; j++)
                vtx(o, v[j][0], v[j][2], -v[j][1]);
            /* counter-clockwise from outside already; (x, z, -y) is a rotation */
            fprintf(o->f, "f");
            for (j = 0; j < n; j++)
                fprintf(o->f, " %u", o->nv - (uint32_t)n + 1 + (uint32_t)j);
            fprintf(o->f, "\n");
            o->nf++;
        }
    }
}

/* ---- RMF (source faces) ---- */

static int rmf_obj(obj_out *o, const rrb_cli_room *r, char *err, size_t cap)
{
    rrb_rmf_map m;
    int i, k, j;
    char name[300];
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
            mat_name(name, sizeof name, "", f->tex);
            use_mat(o, name, f->tex, grey);
            for (j = 0; j < f->nverts; j++)
                vtx(o, (double)f->verts[j][0], (double)f->verts[j][2], -(double)f->verts[j][1]);
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

/* ---- EMI (bind pose) ---- */

static void emi_obj(obj_out *o, const rr_room *room)
{
    const void *p;
    uint32_t nv = 0, nt = 0, na = 0, i;
    const rr_emi_vert *v;
    const rr_emi_tri *t;
    const rr_emi_vattr *va = NULL;
    rr_section(room, RR_SEC_EMI_VERTS, &p, &nv);
    v = p;
    if (rr_section(room, RR_SEC_EMI_TRIS, &p, &nt))
        nt = 0;
    t = p;
    if (rr_section(room, RR_SEC_EMI_VATTR, &p, &na) == RR_OK && na == nv)
        va = p;
    for (i = 0; i < nv; i++) {
        vtx(o, un(o, v[i].pos[0]), un(o, v[i].pos[1]), un(o, v[i].pos[2]));
        if (va)
            fprintf(o->f, "vt %.6f %.6f\n", (double)va[i].uv[0] / 65536.0,
                    1.0 - (double)va[i].uv[1] / 65536.0);
    }
    use_mat(o, "figure", NULL, grey);
    for (i = 0; i < nt; i++) {
        if (va)
            fprintf(o->f, "f %u/%u %u/%u %u/%u\n", t[i].v[0] + 1, t[i].v[0] + 1, t[i].v[1] + 1,
                    t[i].v[1] + 1, t[i].v[2] + 1, t[i].v[2] + 1);
        else
            fprintf(o->f, "f %u %u %u\n", t[i].v[0] + 1, t[i].v[1] + 1, t[i].v[2] + 1);
        o->nf++;
    }
}

int rrb_cli_write_obj(const rrb_cli_room *r, const char *out_path, int render, FILE *log,
                      char *err, size_t cap)
{
    obj_out o;
    char mtl[4096];
    const char *slash, *dot;
    size_t i;
    int rc = 0;
    memset(&o, 0, sizeof o);
    o.frac = r->room.coord_frac;
    dot = strrchr(out_path, '.');
    slash = strrchr(out_path, '/');
    snprintf(mtl, sizeof mtl, "%.*s.mtl",
             dot && (!slash || dot > slash) ? (int)(dot - out_path) : (int)strlen(out_path),
             out_path);
    o.f = fopen(out_path, "w");
    o.mtl = o.f ? fopen(mtl, "w") : NULL;
    if (!o.f || !o.mtl) {
        snprintf(err, cap, "%s: cannot create the output file", o.f ? mtl : out_path);
        if (o.f)
            fclose(o.f);
        return -1;
    }
    slash = strrchr(mtl, '/');
    fprintf(o.f, "# romroom preview of %s (rrbake)\nmtllib %s\n", r->path, slash ? slash + 1 : mtl);
    fprintf(o.mtl, "# materials of %s (texture names as stored in the room)\n\n", r->path);
    if (r->room.format == RR_FMT_ROO)
        roo_obj(&o, &r->room);
    else if (r->room.format == RR_FMT_RMESH)
        rmesh_obj(&o, &r->room, render);
    else if (r->room.format == RR_FMT_RMF)
        rc = rmf_obj(&o, r, err, cap);
    else if (r->room.format == RR_FMT_EMI)
        emi_obj(&o, &r->room);
    else {
        snprintf(err, cap, "%s:0x18: expected a roo, rmesh, rmf or emi room, found format %u",
                 r->path, r->room.format);
        rc = -1;
    }
    for (i = 0; i < o.nmats; i++)
        free(o.mats[i]);
    free(o.mats);
    if ((fclose(o.f) | fclose(o.mtl)) && !rc) {
        snprintf(err, cap, "%s: write error", out_path);
        rc = -1;
    }
    if (!rc && log)
        fprintf(log, "%s: %u vertices, %u faces, %zu materials (%s)\n", out_path, o.nv, o.nf,
                o.nmats, mtl);
    return rc;
}

/* rrb_cli_svg.c - top-down SVG plans.
 *   ROO:   leaves filled by floor height, walls coloured by passability
 *   RMesh: upward-facing collision triangles filled by height (seen from +Y,
 *          x right, z up the page), walls as lines, trigger boxes, entities
 *   RMF:   upward-facing brush faces filled by height (seen from +Z), trigger
 *          brushes outlined, point entities as dots (needs the .rmf source)
 * Heights map to a ramp from blue (lowest) to red (highest). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_rmesh.h"
#include "rr_roo.h"
#include "rr_roo_blob.h"
#include "rrb_cli.h"
#include "rrb_rmf.h"

typedef struct svg {
    FILE *f;
    double x0, y0, x1, y1;      /* drawn area, source units */
    double zmin, zmax;          /* height range for the ramp */
    double sw;                  /* stroke width for 1 "pixel" */
} svg;

static void ramp(char *dst, size_t cap, const svg *s, double z)
{
    double t = s->zmax > s->zmin ? (z - s->zmin) / (s->zmax - s->zmin) : 0.5;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    snprintf(dst, cap, "hsl(%d,65%%,%d%%)", (int)(240.0 * (1.0 - t)), 45 + (int)(20.0 * t));
}

static void head(svg *s, const char *title)
{
    double w = s->x1 - s->x0, h = s->y1 - s->y0, pad = (w > h ? w : h) * 0.03 + 1e-6;
    double px = 1000.0 / (w > h ? w : h);
    s->x0 -= pad, s->y0 -= pad, s->x1 += pad, s->y1 += pad;
    w = s->x1 - s->x0, h = s->y1 - s->y0;
    s->sw = 1.0 / px;
    fprintf(s->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"%.4f %.4f %.4f %.4f\">\n", w * px, h * px + 40, s->x0, s->y0, w,
            h + 40.0 / px);
    fprintf(s->f, "<title>");
    for (; *title; title++)
        fputs(*title == '<' ? "&lt;" : *title == '&' ? "&amp;" : (char[2]){*title, 0}, s->f);
    fprintf(s->f, "</title>\n<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" height=\"%.4f\" "
            "fill=\"#222\"/>\n", s->x0, s->y0, w, h + 40.0 / px);
}

static void legend(svg *s, const char *text)
{
    fprintf(s->f, "<text x=\"%.4f\" y=\"%.4f\" font-family=\"sans-serif\" font-size=\"%.4f\" "
            "fill=\"#ddd\">%s</text>\n", s->x0 + 8 * s->sw, s->y1 + 26 * s->sw, 14 * s->sw, text);
}

/* ---- ROO ---- */

/* Walls by passability: white one-sided, red impassable two-sided (a middle
 * texture without the passable flag on either side), thin green passable. */
static void roo_walls(svg *s, const rr_room *room, const rr_roo_wall_rec *w, uint32_t nw)
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

static void roo_svg(svg *s, const rr_room *room)
{
    const rr_roo_wall_rec *w;
    const rr_roo_leaf_rec *lf;
    const rr_roo_point_rec *pt;
    const void *p;
    uint32_t nw = 0, nl = 0, np = 0, i, k;
    double f = ldexp(1.0, -(int)room->coord_frac);
    char col[64], text[256];
    rr_roo_info info;
    rr_roo_get_info(room, &info);
    rr_section(room, RR_SEC_ROO_WALLS, &p, &nw);
    w = p;
    rr_section(room, RR_SEC_ROO_LEAVES, &p, &nl);
    lf = p;
    rr_section(room, RR_SEC_ROO_POINTS, &p, &np);
    pt = p;
    s->x0 = s->y0 = 1e300, s->x1 = s->y1 = -1e300, s->zmin = 1e300, s->zmax = -1e300;
    for (i = 0; i < np; i++) {
        s->x0 = fmin(s->x0, pt[i].x * f), s->x1 = fmax(s->x1, pt[i].x * f);
        s->y0 = fmin(s->y0, pt[i].y * f), s->y1 = fmax(s->y1, pt[i].y * f);
    }
    for (i = 0; i < nl; i++) {
        rr_roo_heights h;
        rr_roo_sector_height(room, lf[i].sector, 0, 0, &h);
        s->zmin = fmin(s->zmin, h.floor_surface * f), s->zmax = fmax(s->zmax, h.floor_surface * f);
    }
    if (np == 0)
        s->x0 = s->y0 = 0, s->x1 = s->y1 = 1;
    snprintf(text, sizeof text, "Meridian 59 room v%u: %u leaves, %u walls", info.version, nl, nw);
    head(s, text);
    for (i = 0; i < nl; i++) {
        double cx = 0, cy = 0;
        rr_roo_heights h;
        for (k = 0; k < lf[i].npoints; k++)
            cx += pt[lf[i].first_point + k].x, cy += pt[lf[i].first_point + k].y;
        cx /= lf[i].npoints ? lf[i].npoints : 1, cy /= lf[i].npoints ? lf[i].npoints : 1;
        rr_roo_sector_height(room, lf[i].sector, (int32_t)cx, (int32_t)cy, &h);
        ramp(col, sizeof col, s, h.floor_surface * f);
        fprintf(s->f, "<polygon fill=\"%s\" stroke=\"%s\" stroke-width=\"%.4f\" points=\"", col,
                col, s->sw * 0.5);
        for (k = 0; k < lf[i].npoints; k++)
            fprintf(s->f, "%s%.4f,%.4f", k ? " " : "", pt[lf[i].first_point + k].x * f,
                    pt[lf[i].first_point + k].y * f);
        fprintf(s->f, "\"><title>leaf %u sector %u floor %.6g</title></polygon>\n", i,
                lf[i].sector, h.floor_surface * f);
    }
    roo_walls(s, room, w, nw);
    snprintf(text, sizeof text, "white: one-sided wall, red: impassable two-sided, green: "
             "passable; fill: floor %.4g (blue) .. %.4g (red)", s->zmin, s->zmax);
    legend(s, text);
}

/* ---- RMesh ---- */

typedef struct ftri { double z; double p[3][2]; } ftri;

static int by_z(const void *a, const void *b)
{
    double d = ((const ftri *)a)->z - ((const ftri *)b)->z;
    return d < 0 ? -1 : d > 0;
}

/* Trigger boxes (dashed) and entities (dots coloured by class). */
static void rmesh_marks(svg *s, const rr_room *room, const rr_rmesh_head *h)
{
    uint32_t i;
    double f = ldexp(1.0, -(int)room->coord_frac);
    static const char *const ecol[] = {"#ff0", "#0ff", "#ffa", "#fa0", "#f0f", "#0f0", "#88f"};
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
                -e->pos[2] * f, s->sw * 4, ecol[e->cls < 7 ? e->cls : 6]);
    }
}

static void rmesh_svg(svg *s, const rr_room *room)
{
    const rr_rmesh_head *h;
    ftri *ft;
    uint32_t i, nf = 0, k;
    double f = ldexp(1.0, -(int)room->coord_frac);
    char col[64], text[256];
    rr_rmesh_head_get(room, &h);
    s->x0 = h->bmin[0] * f, s->x1 = h->bmax[0] * f;
    s->y0 = -h->bmax[2] * f, s->y1 = -h->bmin[2] * f;
    s->zmin = h->bmin[1] * f, s->zmax = h->bmax[1] * f;
    snprintf(text, sizeof text, "RMesh: %u collision triangles, %u triggers, %u entities",
             h->ntris, h->ntriggers, h->nents);
    head(s, text);
    ft = rrb_xcalloc(h->ntris + 1, sizeof *ft);
    for (i = 0; i < h->ntris; i++) {
        const rr_rmesh_tri *t;
        const rr_rmesh_vert *v[3];
        rr_rmesh_triangle(room, i, &t, v);
        if (t->n[1] > 26214 || t->n[1] < -26214) {   /* |ny| > 0.4: floor or ceiling */
            if (t->n[1] < 0)
                continue;
            ft[nf].z = -1e300;
            for (k = 0; k < 3; k++) {
                ft[nf].p[k][0] = v[k]->p[0] * f, ft[nf].p[k][1] = -v[k]->p[2] * f;
                ft[nf].z = fmax(ft[nf].z, v[k]->p[1] * f);
            }
            nf++;
        }
    }
    qsort(ft, nf, sizeof *ft, by_z);
    for (i = 0; i < nf; i++) {
        ramp(col, sizeof col, s, ft[i].z);
        fprintf(s->f, "<polygon fill=\"%s\" stroke=\"%s\" stroke-width=\"%.4f\" points=\"%.4f,%.4f "
                "%.4f,%.4f %.4f,%.4f\"/>\n", col, col, s->sw * 0.5, ft[i].p[0][0], ft[i].p[0][1],
                ft[i].p[1][0], ft[i].p[1][1], ft[i].p[2][0], ft[i].p[2][1]);
    }
    free(ft);
    for (i = 0; i < h->ntris; i++) {
        const rr_rmesh_tri *t;
        const rr_rmesh_vert *v[3];
        rr_rmesh_triangle(room, i, &t, v);
        if (t->n[1] > 26214 || t->n[1] < -26214)
            continue;
        fprintf(s->f, "<polygon fill=\"none\" stroke=\"#fff\" stroke-width=\"%.4f\" "
                "points=\"%.4f,%.4f %.4f,%.4f %.4f,%.4f\"/>\n", s->sw * 0.8, v[0]->p[0] * f,
                -v[0]->p[2] * f, v[1]->p[0] * f, -v[1]->p[2] * f, v[2]->p[0] * f, -v[2]->p[2] * f);
    }
    rmesh_marks(s, room, h);
    snprintf(text, sizeof text, "top view (x right, z up); fill: floor height %.4g (blue) .. "
             "%.4g (red); white: walls; orange dashed: triggers; dots: entities", s->zmin, s->zmax);
    legend(s, text);
}

/* ---- RMF ---- */

typedef struct fpoly { double z; int face; int trigger; } fpoly;

static int by_zp(const void *a, const void *b)
{
    double d = ((const fpoly *)a)->z - ((const fpoly *)b)->z;
    return d < 0 ? -1 : d > 0;
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

static void rmf_poly(svg *s, const rrb_rmf_face *f, const char *attrs)
{
    int j;
    fprintf(s->f, "<polygon %s points=\"", attrs);
    for (j = 0; j < f->nverts; j++)
        fprintf(s->f, "%s%.4f,%.4f", j ? " " : "", (double)f->verts[j][0],
                -(double)f->verts[j][1]);
    fprintf(s->f, "\"/>\n");
}

/* The faces to draw (top faces and walls below the cut) and the bounds. */
static int rmf_collect(svg *s, const rrb_rmf_map *m, double cut, fpoly *fp)
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
            if (!fp[n].trigger && nn[2] >= 0.1)
                s->zmin = fmin(s->zmin, zhi), s->zmax = fmax(s->zmax, zhi);
            if (nn[2] >= 0.1 || fabs(nn[2]) < 0.1)
                n++;
        }
    }
    return n;
}

static int rmf_svg(svg *s, const rrb_cli_room *r, char *err, size_t cap)
{
    rrb_rmf_map m;
    fpoly *fp;
    int i, n;
    double cut;
    char col[64], text[320], attrs[160];
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
    head(s, text);
    qsort(fp, (size_t)n, sizeof *fp, by_zp);
    for (i = 0; i < n; i++) {
        const rrb_rmf_face *f = &m.faces[fp[i].face];
        if (fp[i].z == -1e300)
            continue;
        ramp(col, sizeof col, s, fp[i].z);
        if (fp[i].trigger)
            snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"#f80\" stroke-width=\"%.4f\" "
                     "stroke-dasharray=\"%.4f\"", s->sw * 1.5, s->sw * 6);
        else
            snprintf(attrs, sizeof attrs, "fill=\"%s\" stroke=\"#000\" stroke-opacity=\"0.5\" "
                     "stroke-width=\"%.4f\"", col, s->sw * 0.6);
        rmf_poly(s, f, attrs);
    }
    snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"#fff\" stroke-width=\"%.4f\"",
             s->sw * 0.8);
    for (i = 0; i < n; i++)
        if (fp[i].z == -1e300 && !fp[i].trigger)
            rmf_poly(s, &m.faces[fp[i].face], attrs);
    for (i = 0; i < m.nobjs; i++)
        if (m.objs[i].kind == RRB_RMF_ENTITY && m.objs[i].nchildren == 0)
            fprintf(s->f, "<circle cx=\"%.4f\" cy=\"%.4f\" r=\"%.4f\" fill=\"#ff0\"><title>%s"
                    "</title></circle>\n", (double)m.objs[i].origin[0],
                    -(double)m.objs[i].origin[1], s->sw * 4,
                    m.objs[i].ent.classname.s ? m.objs[i].ent.classname.s : "");
    if (cut < 1e300)
        snprintf(text, sizeof text, "top view (x right, y up), faces below z %.6g; fill: top "
                 "faces by height %.4g (blue) .. %.4g (red); white: walls; orange: triggers; "
                 "yellow: entities", cut, s->zmin, s->zmax);
    else
        snprintf(text, sizeof text, "top view (x right, y up); fill: top faces by height %.4g "
                 "(blue) .. %.4g (red); white: walls; orange: triggers", s->zmin, s->zmax);
    legend(s, text);
    free(fp);
    rrb_rmf_free(&m);
    return 0;
}

int rrb_cli_write_svg(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t cap)
{
    svg s;
    int rc = 0;
    memset(&s, 0, sizeof s);
    if (r->room.format != RR_FMT_ROO && r->room.format != RR_FMT_RMESH &&
        r->room.format != RR_FMT_RMF) {
        snprintf(err, cap, "%s:0x18: expected a roo, rmesh or rmf room for a plan, found "
                 "format %u (use an .obj preview)", r->path, r->room.format);
        return -1;
    }
    s.f = fopen(out_path, "w");
    if (!s.f) {
        snprintf(err, cap, "%s: cannot create the output file", out_path);
        return -1;
    }
    if (r->room.format == RR_FMT_ROO)
        roo_svg(&s, &r->room);
    else if (r->room.format == RR_FMT_RMESH)
        rmesh_svg(&s, &r->room);
    else
        rc = rmf_svg(&s, r, err, cap);
    fprintf(s.f, "</svg>\n");
    if (fclose(s.f) && !rc) {
        snprintf(err, cap, "%s: write error", out_path);
        rc = -1;
    }
    if (!rc && log)
        fprintf(log, "%s: plan %.6g x %.6g units\n", out_path, s.x1 - s.x0, s.y1 - s.y0);
    return rc;
}

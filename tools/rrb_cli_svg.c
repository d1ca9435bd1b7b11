/* rrb_cli_svg.c - top-down SVG plans: the file, its header, legend and
 * height ramp; the room format's write_svg hook draws the plan (roo:
 * leaves and walls, rmesh: floors, walls, triggers, entities, rmf: brush
 * faces from the .rmf). Heights map to a ramp from blue (lowest) to red
 * (highest). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_cli.h"

void rrb_svg_ramp(char *dst, size_t cap, const rrb_svg *s, double z)
{
    double t = s->zmax > s->zmin ? (z - s->zmin) / (s->zmax - s->zmin) : 0.5;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    snprintf(dst, cap, "hsl(%d,65%%,%d%%)", (int)(240.0 * (1.0 - t)), 45 + (int)(20.0 * t));
}

/* Pixels: the plan's longer side is PLAN_PX wide, the picture at least
 * MIN_PX (room for the legend); the legend takes FOOT_PX below the plan. */
#define PLAN_PX 1000.0
#define MIN_PX 760.0
#define FOOT_PX 140.0

/* Text for an XML element or attribute. */
void rrb_xml_text(FILE *f, const char *t)
{
    for (; *t; t++)
        fputs(*t == '<' ? "&lt;" : *t == '>' ? "&gt;" : *t == '&' ? "&amp;"
              : *t == '"' ? "&quot;" : (char[2]){*t, 0}, f);
}

void rrb_svg_head(rrb_svg *s, const char *title)
{
    double w = s->x1 - s->x0, h = s->y1 - s->y0, pad = (w > h ? w : h) * 0.03 + 1e-6, px;
    s->x0 -= pad, s->y0 -= pad, s->x1 += pad, s->y1 += pad;
    w += 2 * pad, h += 2 * pad;
    px = PLAN_PX / (w > h ? w : h);         /* pixels per unit: the longer side PLAN_PX */
    if (w * px < MIN_PX) {                  /* a tall plan: room for the legend at its right */
        s->x1 = s->x0 + MIN_PX / px;
        w = s->x1 - s->x0;
    }
    s->sw = 1.0 / px;
    s->plan_y1 = s->y1;
    if (!s->xname)
        s->xname = "x", s->yname = "y";
    fprintf(s->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"%.4f %.4f %.4f %.4f\">\n<title>", w * px, h * px + FOOT_PX, s->x0, s->y0,
            w, h + FOOT_PX / px);
    rrb_xml_text(s->f, title);
    fprintf(s->f, "</title>\n<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" height=\"%.4f\" "
            "fill=\"#222\"/>\n", s->x0, s->y0, w, h + FOOT_PX / px);
}

void rrb_svg_legend(rrb_svg *s, const char *text)
{
    snprintf(s->text, sizeof s->text, "%s", text);
}

void rrb_svg_key(rrb_svg *s, int kind, const char *colour, const char *label)
{
    rrb_svg_keyent *k;
    if (s->nkeys >= RRB_SVG_KEYS)
        return;
    k = &s->keys[s->nkeys++];
    k->kind = kind;
    snprintf(k->colour, sizeof k->colour, "%s", colour);
    snprintf(k->label, sizeof k->label, "%s", label);
}


/* A round grid step: 1, 2 or 5 times a power of ten, about span / 8. */
static double grid_step(double span)
{
    double raw = span / 8, p = pow(10.0, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* Grid lines every round step over the plan, labelled with the source
 * coordinate along the top (x) and the left edge (y, or the axis the plan's
 * y shows, negated where the plan mirrors it). */
static void draw_grid(rrb_svg *s)
{
    double w = s->x1 - s->x0, h = s->plan_y1 - s->y0, step = grid_step(w > h ? w : h), v;
    double fs = 11 * s->sw;
    if (!(step > 0) || !isfinite(step))
        return;
    fprintf(s->f, "<g id=\"grid\">\n<path fill=\"none\" stroke=\"#fff\" stroke-opacity=\"0.18\" "
            "stroke-width=\"%.4f\" d=\"", s->sw);
    for (v = ceil(s->x0 / step) * step; v <= s->x1; v += step)
        fprintf(s->f, "M%.4f %.4fV%.4f", v, s->y0, s->plan_y1);
    for (v = ceil(s->y0 / step) * step; v <= s->plan_y1; v += step)
        fprintf(s->f, "M%.4f %.4fH%.4f", s->x0, v, s->x1);
    fprintf(s->f, "\"/>\n<g font-family=\"sans-serif\" font-size=\"%.4f\" fill=\"#bbb\">\n", fs);
    for (v = ceil(s->x0 / step) * step; v <= s->x1; v += step)
        fprintf(s->f, "<text x=\"%.4f\" y=\"%.4f\">%s=%.6g</text>\n", v + 2 * s->sw,
                s->y0 + fs, s->xname, fabs(v) < step * 1e-9 ? 0.0 : v);
    for (v = ceil((s->y0 + 2 * fs) / step) * step; v <= s->plan_y1; v += step)   /* below x's */
        fprintf(s->f, "<text x=\"%.4f\" y=\"%.4f\">%s=%.6g</text>\n", s->x0 + 2 * s->sw,
                v - 2 * s->sw, s->yname, fabs(v) < step * 1e-9 ? 0.0 : s->yflip ? -v : v);
    fprintf(s->f, "</g>\n</g>\n");
}

/* Below the plan: the text line, then the entries left to right in rows. */
static void draw_legend(rrb_svg *s)
{
    double x = s->x0 + 8 * s->sw, y = s->plan_y1 + 44 * s->sw, sw = s->sw;
    int i, k;
    fprintf(s->f, "<g id=\"legend\" font-family=\"sans-serif\" font-size=\"%.4f\" "
            "fill=\"#ddd\">\n<text x=\"%.4f\" y=\"%.4f\">", 13 * sw, s->x0 + 8 * sw,
            s->plan_y1 + 24 * sw);
    rrb_xml_text(s->f, s->text);
    fprintf(s->f, "</text>\n");
    for (i = 0; i < s->nkeys; i++) {
        const rrb_svg_keyent *e = &s->keys[i];
        double wpx = 24 + 7.0 * (double)strlen(e->label) + 18 + (e->kind == RRB_KEY_RAMP ? 24 : 0);
        if (x + wpx * sw > s->x1 && x > s->x0 + 8 * sw + 1e-9)
            x = s->x0 + 8 * sw, y += 19 * sw;
        switch (e->kind) {
        case RRB_KEY_FILL:
            fprintf(s->f, "<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" height=\"%.4f\" "
                    "fill=\"%s\"/>", x, y - 10 * sw, 18 * sw, 11 * sw, e->colour);
            break;
        case RRB_KEY_LINE:
            fprintf(s->f, "<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" height=\"%.4f\" "
                    "fill=\"%s\"/>", x, y - 6 * sw, 18 * sw, 3 * sw, e->colour);
            break;
        case RRB_KEY_DASH:
            fprintf(s->f, "<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" height=\"%.4f\" "
                    "fill=\"none\" stroke=\"%s\" stroke-width=\"%.4f\" stroke-dasharray=\"%.4f\"/>",
                    x + sw, y - 9 * sw, 16 * sw, 9 * sw, e->colour, 1.5 * sw, 4 * sw);
            break;
        case RRB_KEY_DOT:
            fprintf(s->f, "<circle cx=\"%.4f\" cy=\"%.4f\" r=\"%.4f\" fill=\"%s\"/>",
                    x + 9 * sw, y - 4.5 * sw, 4.5 * sw, e->colour);
            break;
        default:   /* the height ramp: low .. high in eight steps */
            for (k = 0; k < 8; k++) {
                char col[64];
                rrb_svg_ramp(col, sizeof col, s, s->zmin + (s->zmax - s->zmin) * k / 7.0);
                fprintf(s->f, "<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" height=\"%.4f\" "
                        "fill=\"%s\"/>", x + k * 5 * sw, y - 10 * sw, 5 * sw, 11 * sw, col);
            }
            x += 24 * sw;
            break;
        }
        fprintf(s->f, "<text x=\"%.4f\" y=\"%.4f\">", x + 24 * sw, y);
        rrb_xml_text(s->f, e->label);
        fprintf(s->f, "</text>\n");
        x += (wpx - (e->kind == RRB_KEY_RAMP ? 24 : 0)) * sw;
    }
    fprintf(s->f, "</g>\n");
}

/* ---- a query drawn over the plan (rrbake query --svg) ---- */

void rrb_q_mark(rrb_query *q, int kind, const char *label, const int32_t *pts, int npts,
                int dims)
{
    rrb_marks *m = q->marks;
    rrb_mark *k;
    int i, d;
    if (!m || npts <= 0)
        return;
    m->v = rrb_grow(m->v, &m->cap, m->n + 1, sizeof *m->v);
    k = &m->v[m->n++];
    memset(k, 0, sizeof *k);
    k->kind = kind, k->npts = npts, k->dims = dims;
    snprintf(k->label, sizeof k->label, "%s", label);
    k->p = rrb_xcalloc((size_t)npts, sizeof *k->p);
    for (i = 0; i < npts; i++)   /* stride 3, except a single point: just its dims */
        for (d = 0; d < dims && d < 3; d++)
            k->p[i][d] = pts[i * 3 + d];
}

void rrb_q_mark_segment(rrb_query *q, const char *from, const char *path)
{
    rrb_q_mark(q, RRB_MARK_FROM, from, q->c, 1, 3);
    rrb_q_mark(q, RRB_MARK_PATH, path, q->c, 2, 3);   /* q->c[0..2] to q->c[3..5] */
}

void rrb_marks_free(rrb_marks *m)
{
    size_t i;
    for (i = 0; i < m->n; i++)
        free(m->v[i].p);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* <title>: the label and the points in source units, as the query prints them. */
static void mark_title(FILE *f, const rrb_mark *k, unsigned frac)
{
    int i, d;
    fprintf(f, "<title>%s", k->label);
    for (i = 0; i < k->npts; i++)
        for (d = 0; d < k->dims; d++)
            fprintf(f, "%s%.6g", d == 0 && i ? ", " : " ", ldexp((double)k->p[i][d], -(int)frac));
    fprintf(f, "</title>");
}

/* One mark: query colours are cyan paths, a green start, a red stop or hit,
 * magenta areas and boxes. */
static void draw_mark(rrb_svg *s, const rr_room *room, const rrb_room_hooks *h,
                      const rrb_mark *mk)
{
    double xy[2], a[2], b[2];
    int k, area = mk->kind == RRB_MARK_AREA;
    switch (mk->kind) {
    case RRB_MARK_AREA:
    case RRB_MARK_PATH:
        fprintf(s->f, "<%s class=\"q-%s\" data-label=\"%s\" fill=\"%s\" fill-opacity=\"0.35\" "
                "stroke=\"%s\" stroke-width=\"%.4f\" points=\"", area ? "polygon" : "polyline",
                area ? "area" : "path", mk->label, area ? "#f0f" : "none", area ? "#f0f" : "#0ff",
                s->sw * 2.5);
        for (k = 0; k < mk->npts; k++) {
            h->plan_xy(room, mk->p[k], xy);
            fprintf(s->f, "%s%.4f,%.4f", k ? " " : "", xy[0], xy[1]);
        }
        fprintf(s->f, "\">");
        mark_title(s->f, mk, room->coord_frac);
        fprintf(s->f, "</%s>\n", area ? "polygon" : "polyline");
        break;
    case RRB_MARK_BOX:
        h->plan_xy(room, mk->p[0], a);
        h->plan_xy(room, mk->p[mk->npts > 1 ? 1 : 0], b);
        fprintf(s->f, "<rect class=\"q-box\" data-label=\"%s\" x=\"%.4f\" y=\"%.4f\" "
                "width=\"%.4f\" height=\"%.4f\" fill=\"#f0f\" fill-opacity=\"0.15\" "
                "stroke=\"#f0f\" stroke-width=\"%.4f\">", mk->label, fmin(a[0], b[0]),
                fmin(a[1], b[1]), fabs(b[0] - a[0]), fabs(b[1] - a[1]), s->sw * 1.5);
        mark_title(s->f, mk, room->coord_frac);
        fprintf(s->f, "</rect>\n");
        break;
    default:   /* FROM, HIT: a dot at the point */
        h->plan_xy(room, mk->p[0], xy);
        fprintf(s->f, "<circle class=\"q-%s\" data-label=\"%s\" cx=\"%.4f\" cy=\"%.4f\" "
                "r=\"%.4f\" fill=\"%s\" stroke=\"#000\" stroke-width=\"%.4f\">",
                mk->kind == RRB_MARK_FROM ? "from" : "hit", mk->label, xy[0], xy[1], s->sw * 6,
                mk->kind == RRB_MARK_FROM ? "#0f0" : "#f22", s->sw);
        mark_title(s->f, mk, room->coord_frac);
        fprintf(s->f, "</circle>\n");
        break;
    }
}

static void draw_marks(rrb_svg *s, const rr_room *room, const rrb_room_hooks *h,
                       const rrb_marks *m)
{
    size_t i;
    int pass;
    fprintf(s->f, "<g id=\"query\">\n");
    for (pass = 0; pass < 2; pass++) {   /* areas, boxes and paths first, the dots over them */
        for (i = 0; i < m->n; i++) {
            int dot = m->v[i].kind == RRB_MARK_FROM || m->v[i].kind == RRB_MARK_HIT;
            if (dot == pass)
                draw_mark(s, room, h, &m->v[i]);
        }
    }
    fprintf(s->f, "</g>\n");
}

static int has_svg(const rrb_room_hooks *h)
{
    return h->write_svg != NULL;
}

int rrb_cli_write_svg_marks(const rrb_cli_room *r, const char *out_path, const rrb_marks *marks,
                            FILE *log, char *err, size_t cap)
{
    rrb_svg s;
    const rrb_room_hooks *h = rrb_room_hooks_of(r->room.format);
    char names[64];
    int rc;
    memset(&s, 0, sizeof s);
    if (!h || !h->write_svg) {
        rrb_format_names(names, sizeof names, has_svg);
        snprintf(err, cap, "%s:0x18: expected a %s room for a plan, found format %u (use an "
                 ".obj preview)", r->path, names, r->room.format);
        return -1;
    }
    s.f = fopen(out_path, "w");
    if (!s.f) {
        snprintf(err, cap, "%s: cannot create the output file", out_path);
        return -1;
    }
    rc = h->write_svg(&s, r, err, cap);
    if (!rc) {
        draw_grid(&s);
        draw_legend(&s);
    }
    if (!rc && marks && h->plan_xy)
        draw_marks(&s, &r->room, h, marks);
    fprintf(s.f, "</svg>\n");
    if (fclose(s.f) && !rc) {
        snprintf(err, cap, "%s: write error", out_path);
        rc = -1;
    }
    if (!rc && log)
        fprintf(log, "%s: plan %.6g x %.6g units\n", out_path, s.x1 - s.x0, s.y1 - s.y0);
    return rc;
}

int rrb_cli_write_svg(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t cap)
{
    return rrb_cli_write_svg_marks(r, out_path, NULL, log, err, cap);
}

/* rrb_cli_svg.c - top-down SVG plans: the file, its header, legend and
 * height ramp; the room format's write_svg hook draws the plan (roo:
 * leaves and walls, rmesh: floors, walls, triggers, entities, rmf: brush
 * faces from the .rmf). Heights map to a ramp from blue (lowest) to red
 * (highest). */
#include <string.h>

#include "rrb_cli.h"

void rrb_svg_ramp(char *dst, size_t cap, const rrb_svg *s, double z)
{
    double t = s->zmax > s->zmin ? (z - s->zmin) / (s->zmax - s->zmin) : 0.5;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    snprintf(dst, cap, "hsl(%d,65%%,%d%%)", (int)(240.0 * (1.0 - t)), 45 + (int)(20.0 * t));
}

void rrb_svg_head(rrb_svg *s, const char *title)
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

void rrb_svg_legend(rrb_svg *s, const char *text)
{
    fprintf(s->f, "<text x=\"%.4f\" y=\"%.4f\" font-family=\"sans-serif\" font-size=\"%.4f\" "
            "fill=\"#ddd\">%s</text>\n", s->x0 + 8 * s->sw, s->y1 + 26 * s->sw, 14 * s->sw, text);
}

static int has_svg(const rrb_room_hooks *h)
{
    return h->write_svg != NULL;
}

int rrb_cli_write_svg(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t cap)
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
    fprintf(s.f, "</svg>\n");
    if (fclose(s.f) && !rc) {
        snprintf(err, cap, "%s: write error", out_path);
        rc = -1;
    }
    if (!rc && log)
        fprintf(log, "%s: plan %.6g x %.6g units\n", out_path, s.x1 - s.x0, s.y1 - s.y0);
    return rc;
}

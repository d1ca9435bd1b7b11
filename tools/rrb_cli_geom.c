/* rrb_cli_geom.c - OBJ (+MTL) of an opened room: the files, the header and
 * the material table; the room format's write_obj hook writes the geometry.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_cli.h"

const float rrb_obj_grey[3] = {0.7f, 0.7f, 0.7f};

double rrb_obj_unit(const rrb_obj *o, int32_t c)
{
    return ldexp((double)c, -(int)o->frac);
}

void rrb_obj_vertex(rrb_obj *o, double x, double y, double z)
{
    fprintf(o->f, "v %.6f %.6f %.6f\n", x, y, z);
    o->nv++;
}

/* usemtl NAME, adding NAME (with its texture, if any) to the MTL once. */
void rrb_obj_material(rrb_obj *o, const char *name, const char *tex, const float rgb[3])
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
void rrb_obj_mat_name(char *dst, size_t cap, const char *prefix, const char *tex)
{
    size_t i;
    snprintf(dst, cap, "%s%s", prefix, tex && *tex ? tex : "none");
    for (i = 0; dst[i]; i++)
        if (dst[i] == ' ' || dst[i] == '\t' || dst[i] == '/' || dst[i] == '\\')
            dst[i] = '_';
}

static int has_obj(const rrb_room_hooks *h)
{
    return h->write_obj != NULL;
}

int rrb_cli_write_obj(const rrb_cli_room *r, const char *out_path, int render, FILE *log,
                      char *err, size_t cap)
{
    rrb_obj o;
    const rrb_room_hooks *h = rrb_room_hooks_of(r->room.format);
    char names[64];
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
    if (h && h->write_obj)
        rc = h->write_obj(&o, r, render, err, cap);
    else {
        rrb_format_names(names, sizeof names, has_obj);
        snprintf(err, cap, "%s:0x18: expected a %s room, found format %u", r->path, names,
                 r->room.format);
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

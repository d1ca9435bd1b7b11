/* rrb_cli_convert.c - `rrbake preview` and `rrbake convert`, and the RMF ->
 * Valve-220 .map writer.
 *
 * The .map keeps every number of the source: plane points, texture axes,
 * shifts, rotation and scales are written with %.9g, which reads back with
 * strtof to the very same float (9 significant digits identify any float).
 * The RMF stores each face's three plane points; they are written as stored,
 * and in the same order (Hammer's own .map export does the same). */
#include <stdlib.h>
#include <string.h>

#include "rrb_cli.h"
#include "rrb_rmf.h"

const char rrb_cli_usage_preview[] =
    "usage: rrbake preview FILE -o OUT.obj|OUT.svg [--render]\n"
    "\n"
    "FILE is a source room file or a little-endian blob. An RMF blob keeps planes,\n"
    "not polygons: its OBJ is rebuilt from the planes (no texture names), and its\n"
    "SVG plan needs the .rmf.\n"
    "  OUT.obj   geometry for Blender (+ OUT.mtl naming each texture):\n"
    "            rmesh: collision triangles (--render: the render groups with UVs),\n"
    "            rmf: brush faces (from a blob: rebuilt from the brush planes),\n"
    "            roo: floors, ceilings and walls extruded from\n"
    "            floor to ceiling, emi: the bind-pose mesh\n"
    "  OUT.svg   top-down plan: roo leaves by floor height, walls by passability;\n"
    "            rmesh / rmf floors by height, walls, triggers, entities\n"
    "OBJ axes are right-handed, +Y up (roo: x, z, y; rmesh: x, y, -z; rmf: x, z, -y).\n";

const char rrb_cli_usage_convert[] =
    "usage: rrbake convert FILE -o OUT\n"
    "\n"
    "  FILE.rmf          -> OUT.map   Valve-220 .map: plane points and texture axes\n"
    "                                 written exactly as stored (no re-snapping)\n"
    "  FILE.rmesh / .roo -> OUT.obj   (+ OUT.mtl), as `preview`\n"
    "  FILE.emi / .rrb   -> OUT.gltf  glTF 2.0, embedded buffer: mesh, skin,\n"
    "                                 skeleton, every animation\n"
    "FILE may also be a little-endian blob (not for .map: it needs the source).\n";

static const char *ext(const char *p)
{
    const char *d = strrchr(p, '.'), *s = strrchr(p, '/');
    return d && (!s || d > s) ? d + 1 : "";
}

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

int rrb_cli_write_map(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t cap)
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

static int parse_out(int argc, char **argv, const char **in, const char **out, int *render,
                     const char *usage, FILE *errf)
{
    int i;
    *in = *out = NULL;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            *out = argv[++i];
        else if (render && !strcmp(argv[i], "--render"))
            *render = 1;
        else if (argv[i][0] == '-' || *in) {
            fprintf(errf, "rrbake: unexpected argument '%s'\n%s", argv[i], usage);
            return -1;
        } else
            *in = argv[i];
    }
    if (!*in || !*out) {
        fputs(usage, errf);
        return -1;
    }
    return 0;
}

int rrb_cli_preview(int argc, char **argv, FILE *out, FILE *errf)
{
    const char *in, *o;
    int render = 0, rc;
    rrb_cli_room r;
    char err[RRB_ERR_MAX];
    if (parse_out(argc, argv, &in, &o, &render, rrb_cli_usage_preview, errf))
        return 2;
    if (strcmp(ext(o), "obj") && strcmp(ext(o), "svg")) {
        fprintf(errf, "%s: expected an output name ending in .obj or .svg, found '.%s'\n", o,
                ext(o));
        return 2;
    }
    if (rrb_cli_open(in, &r, err, sizeof err)) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    rc = !strcmp(ext(o), "svg") ? rrb_cli_write_svg(&r, o, out, err, sizeof err)
                                : rrb_cli_write_obj(&r, o, render, out, err, sizeof err);
    if (rc)
        fprintf(errf, "%s\n", err);
    rrb_cli_close(&r);
    return rc ? 1 : 0;
}

int rrb_cli_convert(int argc, char **argv, FILE *out, FILE *errf)
{
    const char *in, *o, *e;
    int rc;
    rrb_cli_room r;
    char err[RRB_ERR_MAX];
    if (parse_out(argc, argv, &in, &o, NULL, rrb_cli_usage_convert, errf))
        return 2;
    if (rrb_cli_open(in, &r, err, sizeof err)) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    e = ext(o);
    if (r.room.format == RR_FMT_RMF && !strcmp(e, "map"))
        rc = rrb_cli_write_map(&r, o, out, err, sizeof err);
    else if (r.room.format == RR_FMT_EMI && !strcmp(e, "gltf"))
        rc = rrb_cli_write_gltf(&r, o, out, err, sizeof err);
    else if (!strcmp(e, "obj"))
        rc = rrb_cli_write_obj(&r, o, 0, out, err, sizeof err);
    else {
        snprintf(err, sizeof err, "%s: expected %s, found '.%s'", o,
                 r.room.format == RR_FMT_RMF ? "an output ending in .map or .obj"
                 : r.room.format == RR_FMT_EMI ? "an output ending in .gltf or .obj"
                                               : "an output ending in .obj", e);
        rc = -1;
    }
    if (rc)
        fprintf(errf, "%s\n", err);
    rrb_cli_close(&r);
    return rc ? 1 : 0;
}

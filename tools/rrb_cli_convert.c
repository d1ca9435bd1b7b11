/* rrb_cli_convert.c - `rrbake preview` and `rrbake convert`: arguments and
 * the output kind; the geometry comes from the room format's hooks (.obj
 * and .svg through rrb_cli_geom.c / rrb_cli_svg.c, other convert targets
 * such as RMF -> .map or EMI -> .gltf from rrb_room_hooks.convert). */
#include <string.h>

#include "rrb_cli.h"

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
    "            rmesh / rmf floors by height, walls, triggers, entities; with a\n"
    "            coordinate grid and a legend (rrbake query ... --svg draws a query)\n"
    "OBJ axes are right-handed, +Y up (roo: x, z, y; rmesh: x, y, -z; rmf: x, z, -y).\n";

const char rrb_cli_usage_convert[] =
    "usage: rrbake convert FILE -o OUT [--glb]\n"
    "\n"
    "  FILE.rmf          -> OUT.map   Valve-220 .map: plane points and texture axes\n"
    "                                 written exactly as stored (no re-snapping)\n"
    "  FILE.rmesh / .roo -> OUT.obj   (+ OUT.mtl), as `preview`\n"
    "  FILE.rmesh        -> OUT.gltf  glTF 2.0: the render mesh, one material per\n"
    "                                 texture (its file name as the image URI),\n"
    "                                 diffuse UVs and lightmap UVs (TEXCOORD_1)\n"
    "  FILE.emi / .rrb   -> OUT.gltf  glTF 2.0, embedded buffer: mesh, skin,\n"
    "                                 skeleton, every animation\n"
    "  OUT.glb or --glb               binary glTF (.glb) instead of .gltf\n"
    "FILE may also be a little-endian blob (not for .map: it needs the source).\n";

static const char *ext(const char *p)
{
    const char *d = strrchr(p, '.'), *s = strrchr(p, '/');
    return d && (!s || d > s) ? d + 1 : "";
}

/* -o OUT and the input; render: --render (preview), glb: --glb (convert). */
static int parse_out(int argc, char **argv, const char **in, const char **out, int *render,
                     int *glb, const char *usage, FILE *errf)
{
    int i;
    *in = *out = NULL;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            *out = argv[++i];
        else if (render && !strcmp(argv[i], "--render"))
            *render = 1;
        else if (glb && !strcmp(argv[i], "--glb"))
            *glb = 1;
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
    if (parse_out(argc, argv, &in, &o, &render, NULL, rrb_cli_usage_preview, errf))
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

static int has_gltf(const rrb_room_hooks *h)
{
    return h->convert && !strcmp(h->convert_ext, "gltf");
}

int rrb_cli_convert(int argc, char **argv, FILE *out, FILE *errf)
{
    const char *in, *o, *e;
    int rc, glb = 0, gltf_target;
    rrb_cli_room r;
    const rrb_room_hooks *h;
    char err[RRB_ERR_MAX];
    if (parse_out(argc, argv, &in, &o, NULL, &glb, rrb_cli_usage_convert, errf))
        return 2;
    if (rrb_cli_open(in, &r, err, sizeof err)) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    r.glb = glb;
    e = ext(o);
    h = rrb_room_hooks_of(r.room.format);
    /* a glTF target writes .gltf or, named .glb or with --glb, binary .glb */
    gltf_target = h && h->convert && !strcmp(h->convert_ext, "gltf");
    if (glb && !gltf_target) {
        char names[64];
        rrb_format_names(names, sizeof names, has_gltf);
        snprintf(err, sizeof err, "%s: --glb: expected a room with a glTF target (%s), found a "
                 "%s room", in, names, rrb_room_format_name(r.room.format));
        rc = -1;
    } else if (h && h->convert && (!strcmp(e, h->convert_ext) ||
                                   (gltf_target && (glb || !strcmp(e, "glb")))))
        rc = h->convert(&r, o, out, err, sizeof err);
    else if (!strcmp(e, "obj"))
        rc = rrb_cli_write_obj(&r, o, 0, out, err, sizeof err);
    else {
        snprintf(err, sizeof err, "%s: expected an output ending in %s%s%s.obj, found '.%s'", o,
                 h && h->convert ? "." : "", h && h->convert ? h->convert_ext : "",
                 h && h->convert ? " or " : "", e);
        rc = -1;
    }
    if (rc)
        fprintf(errf, "%s\n", err);
    rrb_cli_close(&r);
    return rc ? 1 : 0;
}

/* test_cli.c - rrbake's query / info / preview / convert commands.
 *
 * Every check compares the command's output with an independent fact:
 *   query    the printed values equal the loader's own answer for the same
 *            coords (random points, every format), and the printed source
 *            units equal coords / 2^coord_frac;
 *   info     counts equal the source readers' counts (rrb_roo_read, ...);
 *   preview  OBJ face counts equal the source's triangles / faces / leaves,
 *            each RMesh OBJ face has the positions of its source triangle
 *            (tri.src) mirrored to +Y-up right-handed axes; SVG element counts
 *            equal leaves and walls;
 *   convert  the .map read back gives every plane point and texture number
 *            bit-identical to the RMF's floats, and its plane-point order
 *            gives outward normals (Quake rule) for every non-degenerate face;
 *            the glTF is checked by tests/cli/check_gltf.py against the
 *            .animb keys and the .sklb / .meshb counts;
 *   errors   "path:0xOFFSET: expected ..., found ..." for bad blobs and
 *            files; --help of every subcommand exits 0 (runs build/tools/rrbake);
 *   --json   query answers' fields equal the loader's; every command's JSON
 *            read by tests/cli/check_json.py (units = raw / 2^bits);
 *   --svg    plans and drawn queries read by tests/cli/check_svg.py (XML,
 *            grid labels, RMF face order, answer points where the plan puts them);
 *   glTF     RMesh .gltf / .glb against the source reader's surfaces
 *            (tests/cli/check_gltf_file.py).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"
#include "rr_roo_blob.h"
#include "rr_test.h"
#include "rrb_cli.h"
#include "rrb_emi.h"
#include "rrb_rmesh.h"
#include "rrb_rmf.h"
#include "rrb_roo.h"

static char corpus[1024], tmpdir[256];
static char idbuf[256];
static int sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int expect(const char *id, int cond)
{
    RT_EXPECT(id, cond);
    return cond;
}

static const char *cid(const char *a, const char *b)
{
    snprintf(idbuf, sizeof idbuf, "cli.%s.%s", a, b);
    return idbuf;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static double urand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Run a CLI function, return its stdout (and rc, stderr). */
typedef int (*cli_fn)(int, char **, FILE *, FILE *);
static char *run(cli_fn fn, int *rc, char **errtext, const char *a0, ...)
{
    char *argv[24], *outs = NULL, *errs = NULL;
    size_t on = 0, en = 0;
    int argc = 0;
    const char *s;
    va_list ap;
    FILE *o = open_memstream(&outs, &on), *e = open_memstream(&errs, &en);
    va_start(ap, a0);
    for (s = a0; s && argc < 23; s = va_arg(ap, const char *))
        argv[argc++] = (char *)s;
    va_end(ap);
    argv[argc] = NULL;
    *rc = fn(argc, argv, o, e);
    fclose(o);
    fclose(e);
    if (errtext)
        *errtext = errs;
    else
        free(errs);
    return outs;
}

/* Value after "key: " on its line, as a long long / double. */
static int field(const char *text, const char *key, double *v)
{
    char pat[64];
    const char *p;
    snprintf(pat, sizeof pat, "%s: ", key);
    for (p = text; (p = strstr(p, pat)) != NULL; p++)
        if (p == text || p[-1] == '\n') {
            *v = strtod(p + strlen(pat), NULL);
            return 0;
        }
    return -1;
}

/* The bracketed raw coords after "key: ..." */
static int raw(const char *text, const char *key, long long *out, int n)
{
    char pat[64];
    const char *p;
    int i;
    snprintf(pat, sizeof pat, "%s: ", key);
    for (p = text; (p = strstr(p, pat)) != NULL; p++)
        if (p == text || p[-1] == '\n') {
            const char *b = strchr(p, '[');
            char *end;
            if (!b)
                return -1;
            b++;
            for (i = 0; i < n; i++) {
                out[i] = strtoll(b, &end, 0);
                b = end;
            }
            return 0;
        }
    return -1;
}

/* The numbers of JSON field "key" (a number or an array of numbers) of a
 * query --json answer; -1 when the key is missing. */
static int jnum(const char *text, const char *key, long long *out, int n)
{
    char pat[80];
    const char *p;
    char *end;
    int i;
    snprintf(pat, sizeof pat, "\"%s\":", key);
    if (!text || (p = strstr(text, pat)) == NULL)
        return -1;
    p += strlen(pat);
    if (*p == '[')
        p++;
    for (i = 0; i < n; i++) {
        out[i] = strtoll(p, &end, 10);
        if (end == p)
            return -1;
        p = end + (*end == ',');
    }
    return 0;
}

/* Save the opened room's blob next to the other outputs; queries then run
 * on the blob file (the source path is checked once, by the open). */
static void blob_copy(const rrb_cli_room *r, const char *name, char *out, size_t cap)
{
    char err[RRB_ERR_MAX];
    snprintf(out, cap, "%s/%s.rrb", tmpdir, name);
    if (rrb_save_file(out, r->blob, r->size, err, sizeof err))
        fprintf(stderr, "%s\n", err);
}

/* Read an OBJ: for every face, its Newell normal's Y and its signed volume
 * term; *vol gets the total signed volume (> 0 when closed solids face
 * outward with counter-clockwise faces); up/down count faces of group g
 * ("" = any) whose normal points to +Y / -Y. Returns the face count. */
static long obj_scan(const char *path, const char *g, double *vol, long *up, long *down)
{
    FILE *f = fopen(path, "r");
    char line[8192], group[64] = "";
    double *v = NULL;
    size_t nv = 0, cap = 0;
    long nf = 0;
    *vol = 0, *up = *down = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "v ", 2)) {
            v = rrb_grow(v, &cap, (nv + 1) * 3, sizeof *v);
            sscanf(line + 2, "%lf %lf %lf", &v[nv * 3], &v[nv * 3 + 1], &v[nv * 3 + 2]);
            nv++;
        } else if (!strncmp(line, "g ", 2)) {
            sscanf(line + 2, "%63s", group);
        } else if (!strncmp(line, "f ", 2)) {
            size_t idx[256], n = 0, i;
            char *t = line + 1;
            double ny = 0;
            while (n < 256 && *t) {
                char *end;
                unsigned long x = strtoul(t, &end, 10);
                if (end == t)
                    break;
                idx[n++] = x - 1;
                t = end;
                while (*t && *t != ' ')
                    t++;
            }
            for (i = 0; i < n && idx[i] < nv; i++) {
                const double *a = &v[idx[i] * 3], *b = &v[idx[(i + 1) % n] * 3], *o = &v[idx[0] * 3];
                ny += (a[2] - b[2]) * (a[0] + b[0]);
                if (i > 0 && i + 1 < n) {
                    const double *c = &v[idx[i + 1] * 3];
                    *vol += (o[0] * (a[1] * c[2] - a[2] * c[1]) - o[1] * (a[0] * c[2] - a[2] * c[0]) +
                             o[2] * (a[0] * c[1] - a[1] * c[0])) / 6;
                }
            }
            if (!*g || !strcmp(g, group))
                *up += ny > 0, *down += ny < 0;
            nf++;
        }
    }
    if (f)
        fclose(f);
    free(v);
    return nf;
}

/* Occurrences of needle in a file (-1 if it cannot be read). */
static long count_in(const char *path, const char *needle)
{
    char err[RRB_ERR_MAX], *txt;
    size_t n;
    long c = 0;
    const char *p;
    if (rrb_load_file(path, (uint8_t **)&txt, &n, err, sizeof err))
        return -1;
    txt = realloc(txt, n + 1);
    txt[n] = 0;
    if (!strstr(txt, "</svg>"))
        c = -2;
    if ((p = strstr(txt, "<g id=\"grid\"")) != NULL)   /* the plan only: not grid, legend */
        txt[p - txt] = 0;
    for (p = txt; c >= 0 && (p = strstr(p, needle)) != NULL; p++)
        c++;
    free(txt);
    return c;
}

/* tests/cli/check_svg.py on a plan (and the query --json answer drawn on
 * it): well-formed XML, grid labels on their lines, RMF faces largest first,
 * the answer's points where the plan shows them. 1 if it passed. */
static int check_svg(const char *svg, const char *json)
{
    char cmd[1400];
    int st;
    snprintf(cmd, sizeof cmd, "python3 tests/cli/check_svg.py %s %s >%s.check 2>&1", svg,
             json ? json : "", svg);
    st = system(cmd);
    if (st != 0) {
        snprintf(cmd, sizeof cmd, "cat %s.check >&2", svg);
        if (system(cmd) != 0)
            fprintf(stderr, "check_svg failed on %s\n", svg);
    }
    return st == 0;
}

static void fmtnum(char *dst, double v)
{
    snprintf(dst, 32, "%.17g", v);
}

/* ---------------- ROO ---------------- */

static void test_roo(const char *name)
{
    char path[1200], err[RRB_ERR_MAX], a[8][32], *out, bp[600];
    rrb_cli_room r;
    rr_roo_info info;
    uint8_t *d;
    size_t n;
    rrb_roo src;
    int i, rc, ok_loc = 1, ok_h = 1, ok_mv = 1, ok_units = 1, ok_sight = 1, ok_json = 1;
    double scale;
    snprintf(path, sizeof path, "%s/roo/%s.roo", corpus, name);
    if (!expect(cid(name, "open"), rrb_cli_open(path, &r, err, sizeof err) == 0)) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    blob_copy(&r, name, bp, sizeof bp);
    scale = ldexp(1.0, (int)r.room.coord_frac);
    rr_roo_get_info(&r.room, &info);
    for (i = 0; i < 200; i++) {
        double x = info.rect[0] / scale + urand() * (info.rect[2] - info.rect[0]) / scale;
        double y = info.rect[1] / scale + urand() * (info.rect[3] - info.rect[1]) / scale;
        int32_t cx, cy, c2x, c2y;
        rr_roo_where w;
        rr_roo_heights h;
        rr_roo_move m;
        double v;
        long long p[2];
        x = floor(x * 16) / 16, y = floor(y * 16) / 16;
        fmtnum(a[0], x), fmtnum(a[1], y);
        rrb_cli_to_coord(x, r.room.coord_frac, &cx);
        rrb_cli_to_coord(y, r.room.coord_frac, &cy);
        out = run(rrb_cli_query, &rc, NULL, bp, "locate", a[0], a[1], NULL);
        if (rr_roo_locate(&r.room, cx, cy, &w) == RR_OK)
            ok_loc &= rc == 0 && field(out, "sector", &v) == 0 && (int)v == w.sector &&
                      field(out, "leaf", &v) == 0 && (int)v == w.leaf;
        else
            ok_loc &= rc == 0 && strstr(out, "outside") != NULL;
        ok_units &= raw(out, "point", p, 2) == 0 && p[0] == cx && p[1] == cy;
        free(out);
        out = run(rrb_cli_query, &rc, NULL, bp, "height", a[0], a[1], NULL);
        if (rr_roo_height(&r.room, cx, cy, &h) == RR_OK) {
            ok_h &= raw(out, "floor", p, 1) == 0 && p[0] == h.floor &&
                    raw(out, "ceiling", p, 1) == 0 && p[0] == h.ceiling &&
                    field(out, "floor", &v) == 0 && fabs(v - h.floor / scale) < 1e-3 * (1 + fabs(v));
        }
        free(out);
        /* a move to another random point */
        fmtnum(a[2], floor((info.rect[0] / scale + urand() * (info.rect[2] - info.rect[0]) / scale) * 16) / 16);
        fmtnum(a[3], floor((info.rect[1] / scale + urand() * (info.rect[3] - info.rect[1]) / scale) * 16) / 16);
        rrb_cli_to_coord(strtod(a[2], NULL), r.room.coord_frac, &c2x);
        rrb_cli_to_coord(strtod(a[3], NULL), r.room.coord_frac, &c2y);
        out = run(rrb_cli_query, &rc, NULL, bp, "move", a[0], a[1], a[2], a[3], "64", "96",
                  "200", NULL);
        if (rr_roo_can_move(&r.room, cx, cy, c2x, c2y, (int32_t)(64 * scale), (int32_t)(96 * scale),
                            (int32_t)(200 * scale), &m) == RR_OK) {
            ok_mv &= rc == 0 && field(out, "wall", &v) == 0 && (int)v == m.wall &&
                     raw(out, "fraction", p, 1) == 0 && (int32_t)p[0] == m.fraction &&
                     raw(out, "stop", p, 2) == 0 && p[0] == m.x && p[1] == m.y;
            if (i % 10 == 0) {   /* --json: the same answer, raw words beside the units */
                long long jw, jf, js[2];
                free(out);
                out = run(rrb_cli_query, &rc, NULL, bp, "move", a[0], a[1], a[2], a[3], "64",
                          "96", "200", "--json", NULL);
                ok_json &= rc == 0 && out[0] == '{' && jnum(out, "wall", &jw, 1) == 0 &&
                           jw == m.wall && jnum(out, "fraction_raw", &jf, 1) == 0 &&
                           jf == m.fraction && jnum(out, "stop_raw", js, 2) == 0 &&
                           js[0] == m.x && js[1] == m.y;
            }
        }
        free(out);
        {
            rr_roo_sight s;
            int32_t pa[3] = {cx, cy, (int32_t)(100 * scale)}, pb[3] = {c2x, c2y, (int32_t)(100 * scale)};
            out = run(rrb_cli_query, &rc, NULL, bp, "sight", a[0], a[1], "100", a[2], a[3], "100",
                      NULL);
            if (rr_roo_line_of_sight(&r.room, pa, pb, &s) == RR_OK)
                ok_sight &= rc == 0 && field(out, "visible", &v) == 0 && (int)v == s.visible &&
                            field(out, "wall", &v) == 0 && (int)v == s.wall;
            free(out);
        }
    }
    {
        char *o1 = run(rrb_cli_query, &rc, NULL, path, "height", "1000.5", "2000.25", NULL);
        char *o2 = run(rrb_cli_query, &rc, NULL, bp, "height", "1000.5", "2000.25", NULL);
        RT_EXPECT(cid(name, "query.source_eq_blob"), !strcmp(o1, o2) && strlen(o1) > 10);
        free(o1), free(o2);
    }
    RT_EXPECT(cid(name, "query.locate"), ok_loc);
    RT_EXPECT(cid(name, "query.units"), ok_units);
    RT_EXPECT(cid(name, "query.height"), ok_h);
    RT_EXPECT(cid(name, "query.move"), ok_mv);
    RT_EXPECT(cid(name, "query.move_json"), ok_json);
    RT_EXPECT(cid(name, "query.sight"), ok_sight);
    /* info: counts as the source reader sees them */
    if (rrb_load_file(path, &d, &n, err, sizeof err) == 0) {
        if (rrb_roo_read(d, n, path, &src, err, sizeof err) == 0) {
            char *o2 = NULL;
            size_t on = 0;
            FILE *f = open_memstream(&o2, &on);
            char want[128];
            rrb_cli_room_info(&r.room, f, 1);
            fclose(f);
            snprintf(want, sizeof want, "\"leaves\":%u,\"sectors\":%u", src.nleaves, src.nsectors);
            RT_EXPECT(cid(name, "info.counts"), strstr(o2, want) != NULL);
            snprintf(want, sizeof want, "\"walls\":%u,\"sidedefs\":%u", src.nwalls, src.nsidedefs);
            RT_EXPECT(cid(name, "info.walls"), strstr(o2, want) != NULL);
            free(o2);
            /* preview OBJ: one floor and one ceiling polygon per leaf with its points */
            {
                char obj[600];
                FILE *of;
                char line[4096];
                uint32_t floors = 0, ceils = 0, group = 0, pts_ok = 1, k = 0;
                snprintf(obj, sizeof obj, "%s/%s.obj", tmpdir, name);
                free(run(rrb_cli_preview, &rc, NULL, path, "-o", obj, NULL));
                RT_EXPECT(cid(name, "preview.obj.rc"), rc == 0);
                of = fopen(obj, "r");
                while (of && fgets(line, sizeof line, of)) {
                    if (!strncmp(line, "g ", 2))
                        group = !strncmp(line, "g floors", 8) ? 1 : !strncmp(line, "g ceilings", 10) ? 2 : 3;
                    if (line[0] == 'f' && line[1] == ' ' && group < 3) {
                        uint32_t nv = 0;
                        char *t = line + 1;
                        while ((t = strchr(t, ' ')) != NULL)
                            nv++, t++;
                        if (src.nodes && k < src.nleaves * 2) {
                            /* leaves are the source's leaf nodes in node order */
                            uint32_t li = 0, ni;
                            for (ni = 0; ni < src.nnodes; ni++)
                                if (src.nodes[ni].type == RRB_ROO_NODE_LEAF) {
                                    if (li == k % src.nleaves) {
                                        pts_ok &= nv == src.nodes[ni].npoints;
                                        break;
                                    }
                                    li++;
                                }
                        }
                        k++;
                        if (group == 1)
                            floors++;
                        else
                            ceils++;
                    }
                }
                if (of)
                    fclose(of);
                {
                    double vol;
                    long up, down;
                    obj_scan(obj, "floors", &vol, &up, &down);
                    RT_EXPECT_EQ(cid(name, "preview.obj.floors_up"), up, src.nleaves);
                    obj_scan(obj, "ceilings", &vol, &up, &down);
                    RT_EXPECT_EQ(cid(name, "preview.obj.ceilings_down"), down, src.nleaves);
                }
                RT_EXPECT_EQ(cid(name, "preview.obj.floors"), floors, src.nleaves);
                RT_EXPECT_EQ(cid(name, "preview.obj.ceilings"), ceils, src.nleaves);
                RT_EXPECT(cid(name, "preview.obj.leafpoints"), pts_ok);
            }
            /* preview SVG: one polygon per leaf, one line per wall */
            {
                char svgp[600], *txt;
                size_t sn;
                uint32_t polys = 0, lines = 0;
                const char *p;
                snprintf(svgp, sizeof svgp, "%s/%s.svg", tmpdir, name);
                free(run(rrb_cli_preview, &rc, NULL, path, "-o", svgp, NULL));
                RT_EXPECT(cid(name, "preview.svg.rc"), rc == 0);
                if (rrb_load_file(svgp, (uint8_t **)&txt, &sn, err, sizeof err) == 0) {
                    txt = realloc(txt, sn + 1);
                    txt[sn] = 0;
                    RT_EXPECT(cid(name, "preview.svg.closed"), strstr(txt, "</svg>") != NULL);
                    if ((p = strstr(txt, "<g id=\"grid\"")) != NULL)   /* the plan only */
                        txt[p - txt] = 0;
                    for (p = txt; (p = strstr(p, "<polygon")) != NULL; p++)
                        polys++;
                    for (p = txt; (p = strstr(p, "<line")) != NULL; p++)
                        lines++;
                    free(txt);
                }
                RT_EXPECT_EQ(cid(name, "preview.svg.leaves"), polys, src.nleaves);
                RT_EXPECT_EQ(cid(name, "preview.svg.walls"), lines, src.nwalls);
                RT_EXPECT(cid(name, "preview.svg.check"), check_svg(svgp, NULL));
            }
            rrb_roo_free(&src);
        }
        free(d);
    }
    rrb_cli_close(&r);
}

/* ---------------- RMesh ---------------- */

static void test_rmesh(const char *dir, const char *name)
{
    char path[1200], err[RRB_ERR_MAX], a[8][32], *out, obj[600], line[512], bp[600];
    rrb_cli_room r;
    const rr_rmesh_head *h;
    rrb_rmesh src;
    rrb_rm_soup soup;
    uint8_t *d;
    size_t n;
    int i, rc, ok_ray = 1, ok_trig = 1, ok_sweep = 1, ok_json = 1;
    double scale, bmin[3], bmax[3];
    uint32_t k, s, src_tris = 0, nf = 0, face_ok = 1, nv = 0;
    double *verts = NULL;
    size_t vcap = 0;
    FILE *of;
    snprintf(path, sizeof path, "%s/%s/%s.rmesh", corpus, dir, name);
    if (!expect(cid(name, "open"), rrb_cli_open(path, &r, err, sizeof err) == 0)) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    blob_copy(&r, name, bp, sizeof bp);
    scale = ldexp(1.0, (int)r.room.coord_frac);
    rr_rmesh_head_get(&r.room, &h);
    for (k = 0; k < 3; k++)
        bmin[k] = h->bmin[k] / scale, bmax[k] = h->bmax[k] / scale;
    for (i = 0; i < 100; i++) {
        double o[3], dir3[3];
        int32_t c[3];
        rr_rmesh_ray ray;
        rr_rmesh_hit hit;
        double v;
        long long p[3];
        for (k = 0; k < 3; k++) {
            o[k] = floor((bmin[k] + urand() * (bmax[k] - bmin[k])) * 8) / 8;
            dir3[k] = floor((urand() * 2 - 1) * 1000) / 1000;
            fmtnum(a[k], o[k]);
            fmtnum(a[3 + k], dir3[k]);
            rrb_cli_to_coord(o[k], r.room.coord_frac, &c[k]);
        }
        if (dir3[0] == 0 && dir3[1] == 0 && dir3[2] == 0)
            continue;
        fmtnum(a[6], (bmax[0] - bmin[0]) * 2);
        out = run(rrb_cli_query, &rc, NULL, bp, "ray", a[0], a[1], a[2], a[3], a[4], a[5], a[6],
                  NULL);
        memcpy(ray.origin, c, sizeof c);
        ray.dir.x = (rr_fix)lround(dir3[0] * 65536), ray.dir.y = (rr_fix)lround(dir3[1] * 65536);
        ray.dir.z = (rr_fix)lround(dir3[2] * 65536);
        rrb_cli_to_coord((bmax[0] - bmin[0]) * 2, r.room.coord_frac, &ray.max_dist);
        if (rr_rmesh_raycast(&r.room, &ray, &hit) == RR_OK) {
            ok_ray &= rc == 0 && field(out, "hit", &v) == 0 && (int)v == hit.hit;
            if (hit.hit)
                ok_ray &= field(out, "triangle", &v) == 0 && (uint32_t)v == hit.tri &&
                          raw(out, "point", p, 3) == 0 && p[0] == hit.point[0] &&
                          p[1] == hit.point[1] && p[2] == hit.point[2];
            if (i % 5 == 0) {   /* --json: the same answer */
                long long jh, jt, jp[3];
                free(out);
                out = run(rrb_cli_query, &rc, NULL, bp, "ray", a[0], a[1], a[2], a[3], a[4], a[5],
                          a[6], "--json", NULL);
                ok_json &= rc == 0 && jnum(out, "hit", &jh, 1) == 0 && jh == hit.hit;
                if (hit.hit)
                    ok_json &= jnum(out, "triangle", &jt, 1) == 0 && jt == hit.tri &&
                               jnum(out, "point_raw", jp, 3) == 0 && jp[0] == hit.point[0] &&
                               jp[1] == hit.point[1] && jp[2] == hit.point[2];
            }
        }
        free(out);
        {
            uint32_t ti;
            rr_err e = rr_rmesh_trigger_at(&r.room, c, &ti);
            out = run(rrb_cli_query, &rc, NULL, bp, "trigger", a[0], a[1], a[2], NULL);
            ok_trig &= e == RR_ERR_NOTFOUND ? strstr(out, "trigger: none") != NULL
                                            : field(out, "trigger", &v) == 0 && (uint32_t)v == ti;
            free(out);
        }
        if (i < 20) {
            rr_rmesh_sweep sw;
            rr_rmesh_sweep_out so;
            memcpy(sw.from, c, sizeof c);
            for (k = 0; k < 3; k++) {
                double t = floor((bmin[k] + urand() * (bmax[k] - bmin[k])) * 8) / 8;
                fmtnum(a[3 + k], t);
                rrb_cli_to_coord(t, r.room.coord_frac, &sw.to[k]);
                sw.radius[k] = (int32_t)(k == 1 ? 40 * scale : 20 * scale);
            }
            sw.max_slides = RR_RMESH_MAX_SLIDES;
            out = run(rrb_cli_query, &rc, NULL, bp, "sweep", a[0], a[1], a[2], a[3], a[4], a[5],
                      "20", "40", "20", NULL);
            if (rr_rmesh_sweep_move(&r.room, &sw, &so) == RR_OK)
                ok_sweep &= rc == 0 && raw(out, "position", p, 3) == 0 && p[0] == so.pos[0] &&
                            p[1] == so.pos[1] && p[2] == so.pos[2];
            free(out);
        }
    }
    {
        /* nearest light to the middle of the room, against the loader */
        int32_t c[3];
        uint32_t ei;
        double v;
        char m3[3][32];
        for (k = 0; k < 3; k++) {
            fmtnum(m3[k], floor((bmin[k] + bmax[k]) / 2));
            rrb_cli_to_coord(floor((bmin[k] + bmax[k]) / 2), r.room.coord_frac, &c[k]);
        }
        out = run(rrb_cli_query, &rc, NULL, bp, "nearest", "light", m3[0], m3[1], m3[2], NULL);
        if (rr_rmesh_entity_nearest(&r.room, RR_RMESH_LIGHT, c, &ei) == RR_OK)
            RT_EXPECT(cid(name, "query.nearest"), rc == 0 && field(out, "entity", &v) == 0 &&
                      (uint32_t)v == ei && strstr(out, "class: light"));
        else
            RT_EXPECT(cid(name, "query.nearest"), strstr(out, "entity: none") != NULL);
        free(out);
    }
    RT_EXPECT(cid(name, "query.ray"), ok_ray);
    RT_EXPECT(cid(name, "query.ray_json"), ok_json);
    RT_EXPECT(cid(name, "query.trigger"), ok_trig);
    RT_EXPECT(cid(name, "query.sweep"), ok_sweep);
    /* preview OBJ: collision faces = source collision triangles - dropped,
     * each face = its source triangle mirrored (x, y, -z), winding reversed */
    if (rrb_load_file(path, &d, &n, err, sizeof err) || rrb_rmesh_read(d, n, path, &src, err, sizeof err)) {
        RT_EXPECT(cid(name, "source"), 0);
        rrb_cli_close(&r);
        return;
    }
    free(d);
    for (s = 0; s < src.nsurf; s++)
        if (!rrb_rmesh_surf_alpha(&src.surf[s]))
            src_tris += src.surf[s].ntris;
    for (s = 0; s < src.ninvis; s++)
        src_tris += src.invis[s].ntris;
    RT_EXPECT_EQ(cid(name, "blob.tris"), h->ntris + h->dropped, src_tris);
    {
        /* glTF and .glb of the render mesh, against the source reader's
         * surfaces: texture names, triangles per (diffuse, lightmap), the
         * lightmap UV range (tests/cli/check_gltf_file.py) */
        char ex[600], gl[600], out_path[600], *o;
        FILE *ef;
        snprintf(ex, sizeof ex, "%s/%s.gltf.expect", tmpdir, name);
        ef = fopen(ex, "w");
        for (s = 0; ef && s < src.nsurf; s++) {
            const rrb_rm_surf *sf = &src.surf[s];
            double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
            for (k = 0; k < 2; k++)
                if (sf->tex[k].len)
                    fprintf(ef, "name\t%s\n", sf->tex[k].s);
            for (k = 0; k < sf->nverts; k++)
                for (i = 0; i < 2; i++)
                    lo[i] = fmin(lo[i], sf->verts[k].uv1[i]), hi[i] = fmax(hi[i], sf->verts[k].uv1[i]);
            fprintf(ef, "surf\t%s\t%s\t%u\t%.9g\t%.9g\t%.9g\t%.9g\n", sf->tex[1].s ? sf->tex[1].s : "",
                    sf->tex[0].s ? sf->tex[0].s : "", sf->ntris, lo[0], lo[1], hi[0], hi[1]);
        }
        if (ef)
            fclose(ef);
        /* the same check of the text and the binary container */
        for (i = 0; i < 2; i++) {
            const char *ext = i ? "glb" : "gltf";
            snprintf(out_path, sizeof out_path, "%s/%s.%s", tmpdir, name, ext);
            rc = sh(&o, "build/tools/rrbake convert %s -o %s && python3 tests/cli/check_gltf_file.py "
                    "%s %s", path, out_path, out_path, ex);
            RT_EXPECT(cid(name, ext), rc == 0);
            if (rc)
                fprintf(stderr, "%s", o);
            free(o);
        }
        snprintf(gl, sizeof gl, "%s/%s.gltf", tmpdir, name);
        /* --glb: binary whatever the name */
        rc = sh(&o, "build/tools/rrbake convert %s -o %s.bin --glb >/dev/null && head -c 4 %s.bin",
                path, gl, gl);
        RT_EXPECT(cid(name, "glb_flag"), rc == 0 && !strncmp(o, "glTF", 4));
        free(o);
    }
    {
        /* SVG plan: one dashed box per trigger, one dot per entity (reader counts) */
        char svgp[600];
        snprintf(svgp, sizeof svgp, "%s/%s.svg", tmpdir, name);
        free(run(rrb_cli_preview, &rc, NULL, path, "-o", svgp, NULL));
        RT_EXPECT(cid(name, "svg.rc"), rc == 0);
        RT_EXPECT_EQ(cid(name, "svg.triggers"), count_in(svgp, "stroke-dasharray"), src.ntrig);
        RT_EXPECT_EQ(cid(name, "svg.entities"), count_in(svgp, "<circle"), src.nents);
        RT_EXPECT(cid(name, "svg.check"), check_svg(svgp, NULL));
    }
    rrb_rmesh_soup(&src, 1.0, &soup);
    snprintf(obj, sizeof obj, "%s/%s.obj", tmpdir, name);
    free(run(rrb_cli_preview, &rc, NULL, path, "-o", obj, NULL));
    RT_EXPECT(cid(name, "preview.rc"), rc == 0);
    of = fopen(obj, "r");
    {
        /* the OBJ lists faces surface by surface, blob order within a surface */
        uint32_t *order = calloc(h->ntris + 1, sizeof *order), no = 0;
        for (s = 0; s < h->nsurfs; s++)
            for (k = 0; k < h->ntris; k++) {
                uint32_t tsrc;
                int32_t v3[3][3];
                rr_vec3 n3;
                uint32_t ts;
                rr_rmesh_triangle(&r.room, k, &tsrc, v3, &n3);
                rr_rmesh_triangle_surface(&r.room, k, &ts);
                if (ts == s)
                    order[no++] = tsrc;
            }
        while (of && fgets(line, sizeof line, of)) {
            if (line[0] == 'v' && line[1] == ' ') {
                verts = rrb_grow(verts, &vcap, (nv + 1) * 3, sizeof *verts);
                sscanf(line + 2, "%lf %lf %lf", &verts[nv * 3], &verts[nv * 3 + 1], &verts[nv * 3 + 2]);
                nv++;
            } else if (line[0] == 'f' && line[1] == ' ') {
                unsigned fi[3];
                if (sscanf(line + 2, "%u %u %u", &fi[0], &fi[1], &fi[2]) == 3 && nf < no &&
                    order[nf] < soup.ntris) {
                    const double *sv = &soup.v[order[nf] * 9];
                    int c;
                    for (k = 0; k < 3; k++) {
                        const double *ov = &verts[(fi[2 - k] - 1) * 3];
                        double want[3] = {sv[k * 3], sv[k * 3 + 1], -sv[k * 3 + 2]};
                        for (c = 0; c < 3; c++)
                            /* the vertex lattice moves a point by <= 2^(vshift-1) coords */
                            face_ok &= fabs(ov[c] - want[c]) <= (double)(1u << h->vshift) / scale +
                                                                    1e-6 * fabs(want[c]) + 1e-6;
                    }
                } else
                    face_ok = 0;
                nf++;
            }
        }
        free(order);
    }
    if (of)
        fclose(of);
    RT_EXPECT_EQ(cid(name, "preview.faces"), nf, h->ntris);
    {
        /* winding: a face's OBJ normal points up exactly when the blob's
         * triangle normal (the file's front side) does */
        double vol;
        long up, down, want_up = 0, want_down = 0;
        for (k = 0; k < h->ntris; k++) {
            uint32_t tsrc;
            int32_t v3[3][3];
            rr_vec3 n3;
            rr_rmesh_triangle(&r.room, k, &tsrc, v3, &n3);
            want_up += n3.y > 64, want_down += n3.y < -64;
        }
        obj_scan(obj, "", &vol, &up, &down);
        RT_EXPECT(cid(name, "preview.winding"), up >= want_up && down >= want_down &&
                  up - want_up + down - want_down < (long)h->ntris / 100 + 1);
    }
    RT_EXPECT(cid(name, "preview.positions"), face_ok);
    free(verts);
    rrb_rmesh_soup_free(&soup);
    rrb_rmesh_free(&src);
    rrb_cli_close(&r);
}

/* ---------------- RMF ---------------- */

static int readf(const char **p, float *out)
{
    char *end;
    *out = strtof(*p, &end);
    if (end == *p)
        return -1;
    *p = end;
    return 0;
}

static int skip_to(const char **p, char c)
{
    const char *q = strchr(*p, c);
    if (!q)
        return -1;
    *p = q + 1;
    return 0;
}

static int feq(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (a == 0 && b == 0);
}

static void test_rmf(const char *name)
{
    char path[1200], err[RRB_ERR_MAX], a[9][32], *out, mapp[600], *txt, bp[600];
    rrb_cli_room r;
    rr_rmf_counts cnt;
    rrb_rmf_map m;
    uint8_t *d;
    size_t n, sn;
    int i, rc, ok_c = 1, ok_t = 1, ok_json = 1, k, nsolid_faces = 0;
    double scale;
    const void *hp;
    uint32_t hn;
    const rr_rmf_header *hdr;
    snprintf(path, sizeof path, "%s/rmf/%s.rmf", corpus, name);
    if (!expect(cid(name, "open"), rrb_cli_open(path, &r, err, sizeof err) == 0)) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    blob_copy(&r, name, bp, sizeof bp);
    scale = ldexp(1.0, (int)r.room.coord_frac);
    rr_rmf_get_counts(&r.room, &cnt);
    rr_section(&r.room, RR_SEC_RMF_HEADER, &hp, &hn);
    hdr = hp;
    for (i = 0; i < 100; i++) {
        int32_t c[9];
        uint32_t cont;
        double v;
        long long p[3];
        rr_rmf_trace_result tr;
        for (k = 0; k < 6; k++) {
            double t = floor((hdr->mins[k % 3] / scale +
                              urand() * (hdr->maxs[k % 3] - hdr->mins[k % 3]) / scale) * 4) / 4;
            fmtnum(a[k], t);
            rrb_cli_to_coord(t, r.room.coord_frac, &c[k]);
        }
        out = run(rrb_cli_query, &rc, NULL, bp, "contents", a[0], a[1], a[2], NULL);
        if (rr_rmf_point_contents(&r.room, c, &cont) == RR_OK)
            ok_c &= rc == 0 && field(out, "contents", &v) == 0 && strtoul(strstr(out, "0x"), NULL, 16) == cont;
        free(out);
        out = i & 1 ? run(rrb_cli_query, &rc, NULL, bp, "trace", a[0], a[1], a[2], a[3], a[4],
                          a[5], "16", "16", "36", NULL)
                    : run(rrb_cli_query, &rc, NULL, bp, "trace", a[0], a[1], a[2], a[3], a[4],
                          a[5], NULL);
        {
            int32_t half[3] = {(int32_t)(16 * scale), (int32_t)(16 * scale), (int32_t)(36 * scale)};
            if (rr_rmf_trace(&r.room, c, c + 3, i & 1 ? half : NULL, 0xffffffffu, &tr) == RR_OK)
                ok_t &= rc == 0 && raw(out, "fraction", p, 1) == 0 && (int32_t)p[0] == tr.fraction &&
                        raw(out, "end", p, 3) == 0 && p[0] == tr.end[0] && p[1] == tr.end[1] &&
                        p[2] == tr.end[2] &&
                        (tr.brush < 0 || (field(out, "brush", &v) == 0 && (int)v == tr.brush));
            if (i % 5 == 0 && !(i & 1)) {   /* --json: the same ray trace */
                long long jf, je[3], jb;
                free(out);
                out = run(rrb_cli_query, &rc, NULL, bp, "trace", a[0], a[1], a[2], a[3], a[4],
                          a[5], "--json", NULL);
                ok_json &= rc == 0 && jnum(out, "fraction_raw", &jf, 1) == 0 &&
                           jf == tr.fraction && jnum(out, "end_raw", je, 3) == 0 &&
                           je[0] == tr.end[0] && je[1] == tr.end[1] && je[2] == tr.end[2] &&
                           (tr.brush < 0 || (jnum(out, "brush", &jb, 1) == 0 && jb == tr.brush));
            }
        }
        free(out);
    }
    {
        /* brushes touching the middle third of the map */
        int32_t lo[3], hi[3];
        uint32_t items[64];
        rr_rmf_list l = {items, 64, 0, 0};
        char bx[6][32];
        double v;
        for (k = 0; k < 3; k++) {
            double a0 = floor((hdr->mins[k] * 2.0 + hdr->maxs[k]) / 3 / scale);
            double a1 = floor((hdr->mins[k] + hdr->maxs[k] * 2.0) / 3 / scale);
            fmtnum(bx[k], a0), fmtnum(bx[3 + k], a1);
            rrb_cli_to_coord(a0, r.room.coord_frac, &lo[k]);
            rrb_cli_to_coord(a1, r.room.coord_frac, &hi[k]);
        }
        out = run(rrb_cli_query, &rc, NULL, bp, "box", bx[0], bx[1], bx[2], bx[3], bx[4], bx[5], NULL);
        RT_EXPECT(cid(name, "query.box"), rr_rmf_box_brushes(&r.room, lo, hi, &l) == RR_OK &&
                  rc == 0 && field(out, "brushes", &v) == 0 && (uint32_t)v == l.total);
        free(out);
    }
    RT_EXPECT(cid(name, "query.contents"), ok_c);
    RT_EXPECT(cid(name, "query.trace"), ok_t);
    RT_EXPECT(cid(name, "query.trace_json"), ok_json);
    if (rrb_load_file(path, &d, &n, err, sizeof err) || rrb_rmf_read(d, n, path, &m, err, sizeof err)) {
        RT_EXPECT(cid(name, "source"), 0);
        rrb_cli_close(&r);
        return;
    }
    free(d);
    /* .map: brushes and faces in source order; numbers bit-identical */
    snprintf(mapp, sizeof mapp, "%s/%s.map", tmpdir, name);
    free(run(rrb_cli_convert, &rc, NULL, path, "-o", mapp, NULL));
    RT_EXPECT(cid(name, "map.rc"), rc == 0);
    if (rrb_load_file(mapp, (uint8_t **)&txt, &sn, err, sizeof err) == 0) {
        const char *p;
        int nbrush = 0, nface = 0, exact = 1, outward = 1, order_ok = 1, fi = 0, oi;
        int *face_of = calloc((size_t)m.nfaces + 1, sizeof *face_of);
        txt = realloc(txt, sn + 1);
        txt[sn] = 0;
        /* the .map lists, per entity (world first, then entities in file
         * order), that entity's solids in file order */
        for (oi = 0; oi < m.nobjs; oi++) {
            int e2, j;
            if (oi != 0 && m.objs[oi].kind != RRB_RMF_ENTITY)
                continue;
            for (j = 0; j < m.nobjs; j++)
                if (m.objs[j].kind == RRB_RMF_SOLID && rrb_rmf_owner(&m, j) == oi)
                    for (e2 = 0; e2 < m.objs[j].nfaces; e2++)
                        face_of[fi++] = m.objs[j].first_face + e2;
        }
        for (p = txt; (p = strstr(p, "// brush ")) != NULL; p++)
            nbrush++;
        for (p = txt; *p; ) {
            const char *nl = strchr(p, '\n');
            if (*p == '(') {
                float pts[9], ax[8], rs[3];
                const rrb_rmf_face *f;
                int ok = 1, c;
                const char *q = p;
                for (c = 0; c < 3; c++) {
                    ok &= skip_to(&q, '(') == 0;
                    ok &= readf(&q, &pts[c * 3]) == 0 && readf(&q, &pts[c * 3 + 1]) == 0 &&
                          readf(&q, &pts[c * 3 + 2]) == 0;
                }
                ok &= skip_to(&q, '[') == 0;
                for (c = 0; c < 4; c++)
                    ok &= readf(&q, &ax[c]) == 0;
                ok &= skip_to(&q, '[') == 0;
                for (c = 4; c < 8; c++)
                    ok &= readf(&q, &ax[c]) == 0;
                ok &= skip_to(&q, ']') == 0;
                for (c = 0; c < 3; c++)
                    ok &= readf(&q, &rs[c]) == 0;
                if (!ok || nface >= fi) {
                    order_ok = 0;
                    break;
                }
                f = &m.faces[face_of[nface]];
                for (c = 0; c < 9; c++)
                    exact &= feq(pts[c], f->plane[c / 3][c % 3]);
                for (c = 0; c < 3; c++)
                    exact &= feq(ax[c], f->uaxis[c]) && feq(ax[4 + c], f->vaxis[c]);
                exact &= feq(ax[3], f->shift_x) && feq(ax[7], f->shift_y) &&
                         feq(rs[0], f->rotation) && feq(rs[1], f->scale_x) && feq(rs[2], f->scale_y);
                {
                    /* Quake: normal = (p0 - p1) x (p2 - p1) must point outward */
                    double u[3], w[3], nq[3], nn[3], dd;
                    for (c = 0; c < 3; c++)
                        u[c] = (double)pts[c] - (double)pts[3 + c], w[c] = (double)pts[6 + c] - (double)pts[3 + c];
                    nq[0] = u[1] * w[2] - u[2] * w[1];
                    nq[1] = u[2] * w[0] - u[0] * w[2];
                    nq[2] = u[0] * w[1] - u[1] * w[0];
                    if (rrb_rmf_face_plane(f, nn, &dd) == 0 &&
                        sqrt(nq[0] * nq[0] + nq[1] * nq[1] + nq[2] * nq[2]) > 1e-3)
                        outward &= nq[0] * nn[0] + nq[1] * nn[1] + nq[2] * nn[2] > 0;
                }
                nface++;
            }
            p = nl ? nl + 1 : p + strlen(p);
        }
        for (k = 0; k < m.nobjs; k++)
            if (m.objs[k].kind == RRB_RMF_SOLID)
                nsolid_faces += m.objs[k].nfaces;
        RT_EXPECT_EQ(cid(name, "map.brushes"), nbrush, m.nsolids);
        RT_EXPECT_EQ(cid(name, "map.faces"), nface, nsolid_faces);
        RT_EXPECT(cid(name, "map.parsed"), order_ok);
        RT_EXPECT(cid(name, "map.exact"), exact);
        RT_EXPECT(cid(name, "map.outward"), outward);
        RT_EXPECT(cid(name, "map.valve220"), strstr(txt, "\"mapversion\" \"220\"") != NULL);
        free(face_of);
        free(txt);
    }
    /* preview OBJ: one face per brush face with its vertex count */
    {
        char obj[600], line[8192];
        FILE *of;
        int nf = 0, vc_ok = 1, fi = 0;
        snprintf(obj, sizeof obj, "%s/%s.obj", tmpdir, name);
        free(run(rrb_cli_preview, &rc, NULL, path, "-o", obj, NULL));
        of = fopen(obj, "r");
        for (k = 0; k < m.nobjs && of; k++) {
            int j;
            if (m.objs[k].kind != RRB_RMF_SOLID)
                continue;
            for (j = 0; j < m.objs[k].nfaces; j++) {
                int cnt2 = 0;
                char *t;
                while (fgets(line, sizeof line, of) && strncmp(line, "f ", 2))
                    ;
                for (t = line + 1; (t = strchr(t, ' ')) != NULL; t++)
                    cnt2++;
                vc_ok &= cnt2 == m.faces[m.objs[k].first_face + j].nverts;
                fi++;
            }
        }
        if (of) {
            rewind(of);
            while (fgets(line, sizeof line, of))
                nf += !strncmp(line, "f ", 2);
            fclose(of);
        }
        RT_EXPECT_EQ(cid(name, "preview.faces"), nf, nsolid_faces);
        {
            double vol;
            long up, down;
            obj_scan(obj, "", &vol, &up, &down);
            RT_EXPECT(cid(name, "preview.outward"), vol > 0);
        }
        {
            /* from the blob: faces rebuilt from the planes (bevels drop out),
             * every vertex inside the source's vertex bounds + 1/8 unit */
            double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300}, x[3];
            int bf = 0, inside = 1, c2;
            for (k = 0; k < m.nfaces; k++) {
                int j;
                for (j = 0; j < m.faces[k].nverts; j++)
                    for (c2 = 0; c2 < 3; c2++) {
                        lo[c2] = fmin(lo[c2], (double)m.faces[k].verts[j][c2]);
                        hi[c2] = fmax(hi[c2], (double)m.faces[k].verts[j][c2]);
                    }
            }
            free(run(rrb_cli_preview, &rc, NULL, bp, "-o", obj, NULL));
            of = fopen(obj, "r");
            while (of && fgets(line, sizeof line, of)) {
                bf += !strncmp(line, "f ", 2);
                if (!strncmp(line, "v ", 2) && sscanf(line + 2, "%lf %lf %lf", &x[0], &x[2], &x[1]) == 3) {
                    x[1] = -x[1];   /* OBJ (x, z, -y) back to map axes */
                    for (c2 = 0; c2 < 3; c2++)
                        inside &= x[c2] >= lo[c2] - 0.125 && x[c2] <= hi[c2] + 0.125;
                }
            }
            if (of)
                fclose(of);
            RT_EXPECT(cid(name, "preview.blob.rc"), rc == 0);
            RT_EXPECT_EQ(cid(name, "preview.blob.faces"), bf, nsolid_faces);
            RT_EXPECT(cid(name, "preview.blob.inside"), inside);
            {
                double vol;
                long up, down;
                obj_scan(obj, "", &vol, &up, &down);
                RT_EXPECT(cid(name, "preview.blob.outward"), vol > 0);
            }
        }
        RT_EXPECT(cid(name, "preview.vertcounts"), vc_ok && fi == nsolid_faces);
    }
    {
        /* SVG plan: one dot per point entity (the reader's count) */
        char svgp[600];
        snprintf(svgp, sizeof svgp, "%s/%s.svg", tmpdir, name);
        free(run(rrb_cli_preview, &rc, NULL, path, "-o", svgp, NULL));
        RT_EXPECT(cid(name, "svg.rc"), rc == 0);
        RT_EXPECT_EQ(cid(name, "svg.entities"), count_in(svgp, "<circle"), m.npoint);
        RT_EXPECT(cid(name, "svg.check"), check_svg(svgp, NULL));
    }
    /* info: counts against the reader */
    {
        char *o2 = NULL, want[96];
        size_t on = 0;
        FILE *f = open_memstream(&o2, &on);
        rrb_cli_room_info(&r.room, f, 1);
        fclose(f);
        snprintf(want, sizeof want, "\"visgroups\":%d", m.nvisgroups);
        RT_EXPECT(cid(name, "info.visgroups"), strstr(o2, want) != NULL);
        snprintf(want, sizeof want, "\"entities\":%d", m.nentities + 1);
        RT_EXPECT(cid(name, "info.entities"), strstr(o2, want) != NULL);
        free(o2);
    }
    rrb_rmf_free(&m);
    rrb_cli_close(&r);
}

/* ---------------- EMI ---------------- */

/* The facts check_gltf.py compares the glTF with, from the source readers. */
static int write_expect(const char *dir)
{
    char p[600], err[RRB_ERR_MAX];
    uint8_t *d;
    size_t n;
    rrb_emi_skel sk;
    rrb_emi_mesh me;
    rrb_emi_anim an;
    uint32_t i, k, g, nt = 0;
    FILE *f;
    snprintf(p, sizeof p, "%s/expect.txt", dir);
    if (!(f = fopen(p, "w")))
        return -1;
    snprintf(p, sizeof p, "%s/figure.sklb", dir);
    if (rrb_load_file(p, &d, &n, err, sizeof err) || rrb_emi_read_skel(d, n, p, &sk, NULL, err, sizeof err))
        return fclose(f), -1;
    free(d);
    fprintf(f, "joints %u\n", sk.njoints);
    for (i = 0; i < sk.njoints; i++) {
        const rrb_emi_joint *j = &sk.joints[i];
        fprintf(f, "joint %s %d %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", j->name, j->parent,
                (double)j->t[0], (double)j->t[1], (double)j->t[2], (double)j->q[0],
                (double)j->q[1], (double)j->q[2], (double)j->q[3]);
    }
    rrb_emi_skel_free(&sk);
    snprintf(p, sizeof p, "%s/figure.meshb", dir);
    if (rrb_load_file(p, &d, &n, err, sizeof err) || rrb_emi_read_mesh(d, n, p, &me, NULL, err, sizeof err))
        return fclose(f), -1;
    free(d);
    for (g = 0; g < me.ngroups; g++)
        nt += me.groups[g].nindices / 3;
    fprintf(f, "verts %u\ntris %u\n", me.nverts, nt);
    rrb_emi_mesh_free(&me);
    snprintf(p, sizeof p, "%s/walk.animb", dir);
    if (rrb_load_file(p, &d, &n, err, sizeof err) || rrb_emi_read_anim(d, n, p, &an, NULL, err, sizeof err))
        return fclose(f), -1;
    free(d);
    fprintf(f, "anim %s\n", an.name);
    for (i = 0; i < an.ntracks; i++) {
        const rrb_emi_track *t = &an.tracks[i];
        fprintf(f, "track %s %u %u\n", t->joint, t->op, t->nkeys);
        for (k = 0; k < t->nkeys; k++)
            fprintf(f, "key %.9g %.9g %.9g %.9g %.9g\n", (double)t->keys[k].time,
                    (double)t->keys[k].v[0], (double)t->keys[k].v[1], (double)t->keys[k].v[2],
                    (double)t->keys[k].v[3]);
    }
    rrb_emi_anim_free(&an);
    return fclose(f);
}

static void test_emi(void)
{
    char err[RRB_ERR_MAX], path[600], gl[600], cmd[2000], *out, obj[600], line[512], bp[600];
    rrb_cli_room r;
    rr_emi_info info;
    rrb_emi_mesh mesh;
    uint8_t *d;
    size_t n;
    int rc, ok = 1, i;
    uint32_t g, src_tris = 0, nf = 0;
    char mats[1000] = "";
    FILE *of;
    if (!expect("cli.emi.sample", rrb_emi_sample(tmpdir, err, sizeof err) == 0))
        return;
    snprintf(path, sizeof path, "%s/figure.emi", tmpdir);
    if (!expect("cli.emi.open", rrb_cli_open(path, &r, err, sizeof err) == 0)) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    blob_copy(&r, "figure", bp, sizeof bp);
    rr_emi_get_info(&r.room, &info);
    for (i = 0; i < 40; i++) {
        double t = floor((urand() * 3 - 1) * 1000) / 1000;
        char ts[32];
        rr_emi_local local[RR_EMI_MAX_JOINTS > 64 ? 64 : RR_EMI_MAX_JOINTS];
        rr_emi_xform model[64];
        rr_emi_sample_job s = {&r.room, 0, (rr_fix)lround(t * 65536), RR_EMI_LOOP, local, 64, NULL};
        rr_emi_model_job mj = {&r.room, local, model, 64};
        uint32_t j;
        const char *p;
        fmtnum(ts, t);
        out = run(rrb_cli_query, &rc, NULL, bp, "pose", "0", ts, NULL);
        if (info.njoints > 64 || rr_emi_sample_job_run(&s) || rr_emi_model_job_run(&mj)) {
            ok = 0;
            free(out);
            break;
        }
        p = out;
        for (j = 0; j < info.njoints; j++) {
            long long v[3];
            p = strstr(p, "  model_t: ");
            if (!p || raw(p, "  model_t", v, 3)) {
                ok = 0;
                break;
            }
            ok &= v[0] == model[j].t[0] && v[1] == model[j].t[1] && v[2] == model[j].t[2];
            p++;
        }
        ok &= rc == 0;
        free(out);
    }
    RT_EXPECT("cli.emi.query.pose", ok);
    /* the manifest answers dump --json with each file's dump, and verify */
    {
        char *o2 = NULL, *e2 = NULL;
        size_t on = 0, en = 0;
        FILE *fo = open_memstream(&o2, &on), *fe = open_memstream(&e2, &en);
        const rrb_format *f;
        int vrc;
        if (rrb_load_file(path, &d, &n, err, sizeof err) == 0) {
            f = rrb_detect(d, n, path);
            RT_EXPECT("cli.emi.manifest.is", f && f->members);
            RT_EXPECT("cli.emi.manifest.dump", f && f->members(d, n, path, 2, 1, fo, fe) == 0);
            vrc = f ? f->members(d, n, path, 1, 0, fo, fe) : 1;
            fclose(fo), fclose(fe);
            RT_EXPECT("cli.emi.manifest.verify", vrc == 0 && strstr(o2, "bakes and opens"));
            RT_EXPECT("cli.emi.manifest.files", strstr(o2, "\"role\":\"skeleton\"") &&
                      strstr(o2, "\"role\":\"mesh\"") && strstr(o2, "\"role\":\"anim\""));
            free(d);
        } else
            fclose(fo), fclose(fe);
        free(o2), free(e2);
    }
    /* a .sklb is no manifest: members leaves it to the text hooks (-1) */
    snprintf(cmd, sizeof cmd, "%s/figure.sklb", tmpdir);
    if (rrb_load_file(cmd, &d, &n, err, sizeof err) == 0) {
        const rrb_format *f = rrb_detect(d, n, cmd);
        RT_EXPECT("cli.emi.manifest.not_sklb",
                  f && f->members && f->members(d, n, cmd, 0, 0, stdout, stderr) == -1);
        free(d);
    } else
        RT_EXPECT("cli.emi.manifest.sklb_load", 0);
    /* OBJ faces = the .meshb's triangles */
    snprintf(cmd, sizeof cmd, "%s/figure.meshb", tmpdir);
    if (rrb_load_file(cmd, &d, &n, err, sizeof err) == 0 &&
        rrb_emi_read_mesh(d, n, cmd, &mesh, NULL, err, sizeof err) == 0) {
        for (g = 0; g < mesh.ngroups; g++) {
            /* the glTF's materials: one per texture the groups name, with
             * their triangles, in group order (from the source reader) */
            const char *tex = mesh.groups[g].has_texture && mesh.groups[g].texture < mesh.ntex
                                  ? mesh.tex[mesh.groups[g].texture] : "untextured";
            uint32_t h, t = 0;
            src_tris += mesh.groups[g].nindices / 3;
            for (h = 0; h < g; h++)
                if (mesh.groups[h].has_texture && mesh.groups[h].texture < mesh.ntex &&
                    !strcmp(mesh.tex[mesh.groups[h].texture], tex))
                    break;
            if (h < g)
                continue;   /* counted with its first group */
            for (h = g; h < mesh.ngroups; h++)
                if (mesh.groups[h].has_texture && mesh.groups[h].texture < mesh.ntex &&
                    !strcmp(mesh.tex[mesh.groups[h].texture], tex))
                    t += mesh.groups[h].nindices / 3;
            snprintf(mats + strlen(mats), sizeof mats - strlen(mats), "%s:%u;", tex, t);
        }
        snprintf(obj, sizeof obj, "%s/figure.obj", tmpdir);
        free(run(rrb_cli_preview, &rc, NULL, path, "-o", obj, NULL));
        of = fopen(obj, "r");
        while (of && fgets(line, sizeof line, of))
            nf += !strncmp(line, "f ", 2);
        if (of)
            fclose(of);
        RT_EXPECT_EQ("cli.emi.preview.faces", nf, src_tris);
        RT_EXPECT("cli.emi.preview.some", nf > 0);
        rrb_emi_mesh_free(&mesh);
        free(d);
    } else
        RT_EXPECT("cli.emi.meshb", 0);
    /* glTF, checked by a separate reader of the glTF and the source files */
    snprintf(gl, sizeof gl, "%s/figure.gltf", tmpdir);
    free(run(rrb_cli_convert, &rc, NULL, path, "-o", gl, NULL));
    RT_EXPECT("cli.emi.gltf.rc", rc == 0);
    RT_EXPECT("cli.emi.gltf.expect", write_expect(tmpdir) == 0);
    snprintf(cmd, sizeof cmd, "python3 tests/cli/check_gltf.py %s %s/expect.txt", gl, tmpdir);
    RT_EXPECT("cli.emi.gltf.check", system(cmd) == 0);
    /* one material per texture of the source mesh, its image the texture's
     * file name, its primitive the triangles of those groups */
    rc = sh(&out, "python3 -c \"import json,sys; d=json.load(open(sys.argv[1])); "
            "m=d['materials']; p=d['meshes'][0]['primitives']; "
            "print(''.join('%%s:%%d;' %% (m[i]['name'], sum(d['accessors'][q['indices']]['count']"
            "//3 for q in p if q['material']==i)) for i in range(len(m))), "
            "all(im['uri']==im['name'] for im in d['images']))\" %s", gl);
    RT_EXPECT("cli.emi.gltf.materials", rc == 0 && *mats && !strncmp(out, mats, strlen(mats)) &&
                                            strstr(out, " True"));
    if (rc != 0 || strncmp(out, mats, strlen(mats)))
        fprintf(stderr, "materials: glTF %s source %s\n", out, mats);
    free(out);
    /* the same figure as binary .glb: its container and tables, and the same facts */
    snprintf(gl, sizeof gl, "%s/figure.glb", tmpdir);
    free(run(rrb_cli_convert, &rc, NULL, path, "-o", gl, NULL));
    snprintf(cmd, sizeof cmd, "python3 tests/cli/check_gltf_file.py %s && python3 "
             "tests/cli/check_gltf.py %s %s/expect.txt", gl, gl, tmpdir);
    RT_EXPECT("cli.emi.glb.check", rc == 0 && system(cmd) == 0);
    rrb_cli_close(&r);
}

/* ---------------- errors and help ---------------- */

static int has_style(const char *s)
{
    /* path:0xHEX: expected ..., found ... */
    const char *c = strstr(s, ":0x");
    return c && strstr(c, ": expected ") && strstr(c, ", found ");
}

static void test_errors(void)
{
    char path[1200], bad[600], err[RRB_ERR_MAX], *out, *e;
    rrb_cli_room r;
    uint8_t *d;
    int rc;
    static const char *const cmds[] = {"bake", "info", "verify", "dump", "query", "preview", "synth", "formats", "boards", "pack",
                                       "convert", "sample"};
    size_t i;
    snprintf(path, sizeof path, "%s/roo/v12_guest5.roo", corpus);
    /* a corrupted blob: bake, flip a byte in a section, keep the file */
    if (rrb_cli_open(path, &r, err, sizeof err) == 0) {
        snprintf(bad, sizeof bad, "%s/bad.rrb", tmpdir);
        d = malloc(r.size);
        memcpy(d, r.blob, r.size);
        d[r.size - 40] ^= 0x55;
        rrb_save_file(bad, d, r.size - 8, err, sizeof err);   /* truncated and changed */
        free(d);
        rrb_cli_close(&r);
        RT_EXPECT("cli.err.blob", rrb_cli_open(bad, &r, err, sizeof err) != 0 && has_style(err));
        out = run(rrb_cli_query, &rc, &e, bad, "locate", "1", "2", NULL);
        RT_EXPECT("cli.err.query.blob", rc == 1 && has_style(e) && !*out);
        free(out), free(e);
    }
    snprintf(bad, sizeof bad, "%s/junk.roo", tmpdir);
    rrb_save_file(bad, "ROO\xb1\x0c\0\0\0", 8, err, sizeof err);
    out = run(rrb_cli_preview, &rc, &e, bad, "-o", "/dev/null.svg", NULL);
    RT_EXPECT("cli.err.source", rc == 1 && has_style(e));
    free(out), free(e);
    out = run(rrb_cli_query, &rc, &e, path, "locate", "1", "zz", NULL);
    RT_EXPECT("cli.err.arg", rc == 2 && strstr(e, "expected a number, found 'zz'") != NULL);
    free(out), free(e);
    out = run(rrb_cli_query, &rc, &e, path, "ray", "1", "2", "3", "4", "5", "6", "7", NULL);
    RT_EXPECT("cli.err.cmd", rc == 2 && strstr(e, "expected a command for a roo room") != NULL);
    free(out), free(e);
    out = run(rrb_cli_convert, &rc, &e, path, "-o", "x.map", NULL);
    RT_EXPECT("cli.err.convert", rc == 1 && strstr(e, "expected an output ending in .obj") != NULL);
    free(out), free(e);
    /* every subcommand answers --help with status 0 and a usage line */
    for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char cmd[300];
        FILE *p;
        char first[200] = "";
        snprintf(cmd, sizeof cmd, "build/tools/rrbake %s --help", cmds[i]);
        p = popen(cmd, "r");
        if (p && fgets(first, sizeof first, p)) {
            char *rest = malloc(65536);
            while (fread(rest, 1, 65536, p) > 0)
                ;
            free(rest);
        }
        rc = p ? pclose(p) : -1;
        RT_EXPECT(cid("help", cmds[i]), rc == 0 && !strncmp(first, "usage: rrbake ", 14));
    }
}

/* Run a shell command line; returns its exit status, *out its stdout and
 * stderr together (malloc'd). */
static int sh(char **out, const char *fmt, ...)
{
    char line[2000], cmd[2048];
    size_t n = 0, cap = 1 << 16;
    FILE *p;
    int st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "{ %s ; } 2>&1", line);
    *out = calloc(1, cap + 1);
    p = popen(cmd, "r");
    if (!p)
        return -1;
    while (n < cap && !feof(p))
        n += fread(*out + n, 1, cap - n, p);
    st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Lines of text that contain needle. */
static int lines_with(const char *text, const char *needle)
{
    int n = 0;
    const char *l = text;
    while (l && *l) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), l);
        n += strstr(line, needle) != NULL;
        l = e ? e + 1 : NULL;
    }
    return n;
}

/* Folders and batches: verify / info of a folder, bake skipping what is not
 * a room and refusing two inputs with one output name, --exclude, --target
 * as a board (its byte order and budget), --version, usage lines. Facts are
 * independent of the code: the sample folder's file list, the manifests'
 * text, platform/<board>/board.mk. */
static void test_batch(void)
{
    char dir[600], *o;
    size_t i;
    int rc, n;
    const char *rb = "build/tools/rrbake";
    snprintf(dir, sizeof dir, "%s/batch", tmpdir);
    rc = sh(&o, "%s sample emi -o %s/emi && %s sample roo -o %s/roo && echo hello > %s/README.txt",
            rb, dir, rb, dir, dir);
    RT_EXPECT("cli.batch.setup", rc == 0);
    free(o);
    /* a folder given to a one-file command is refused by name, not read */
    rc = sh(&o, "%s dump %s", rb, dir);
    RT_EXPECT("cli.batch.dump_dir", rc == 1 && strstr(o, "is a folder") && !strstr(o, "memory"));
    free(o);
    rc = sh(&o, "%s query %s locate 0 0", rb, dir);
    RT_EXPECT("cli.batch.query_dir", rc == 1 && strstr(o, "is a folder") && !strstr(o, "memory"));
    free(o);
    /* verify of a folder: one result per room source, every line names its
     * file, the README skipped; the bad EMI samples fail, so status 1 */
    rc = sh(&o, "%s verify %s", rb, dir);
    n = lines_with(o, "/README.txt");
    RT_EXPECT("cli.batch.verify_dir", rc == 1 && n == 0 && strstr(o, "skipped 1 file: 1 not a room "
                                                                     "source"));
    {   /* every line but the closing count starts with the file's path */
        char start[700];
        int lines = lines_with(o, "\n") + 0, named;
        const char *l;
        snprintf(start, sizeof start, "%s/", dir);
        for (named = 0, lines = 0, l = o; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
            lines++;
            named += strncmp(l, start, strlen(start)) == 0;
        }
        RT_EXPECT("cli.batch.verify_names", lines > 20 && named == lines - 1 &&
                                                lines_with(o, " files: ") == 1);
    }
    free(o);
    /* bake of the folder: the manifests take in their members, the parts
     * without a figure and the README are skipped, only bad sources fail */
    rc = sh(&o, "%s bake %s -o %s/out2 -j2 --exclude emi_bad", rb, dir, tmpdir);
    RT_EXPECT("cli.batch.bake_ok", rc == 0 && strstr(o, "failed 0") && strstr(o, "excluded"));
    RT_EXPECT("cli.batch.bake_skip", strstr(o, "1 not a room source") != NULL);
    free(o);
    /* every .emi manifest became a blob, and no member file did */
    rc = sh(&o, "for m in %s/emi/*.emi; do b=$(basename $m .emi); test -f %s/out2/emi/$b.rrb || "
            "echo missing $b; done; ls %s/out2/emi | grep -c '\\.rrb$'; ls %s/emi/*.emi | wc -l",
            dir, tmpdir, tmpdir, dir);
    {
        int blobs = 0, manifests = 0;
        RT_EXPECT("cli.batch.bake_manifests", rc == 0 && !strstr(o, "missing") &&
                                                  sscanf(o, "%d %d", &blobs, &manifests) == 2 &&
                                                  blobs == manifests && manifests > 0);
    }
    free(o);
    /* two inputs, one output name: refused before anything is written */
    rc = sh(&o, "mkdir -p %s/clash && cp %s/emi/figure.sklb %s/clash/x.sklb && "
            "cp %s/roo/sample.roo %s/clash/x.roo", dir, dir, dir, dir, dir);
    free(o);
    rc = sh(&o, "%s bake %s/clash -o %s/clash_out; ls %s/clash_out 2>/dev/null | wc -l", rb, dir,
            tmpdir, tmpdir);
    RT_EXPECT("cli.batch.collision", strstr(o, "x.roo and ") && strstr(o, "x.sklb would both be "
                                                                            "written to") &&
                                         strstr(o, "\n0\n") != NULL);
    free(o);
    /* --target: unknown board, contradiction with --endian, budget warning */
    rc = sh(&o, "%s bake --target stm32 %s/roo -o %s/t", rb, dir, dir);
    RT_EXPECT("cli.batch.target_unknown", rc == 2 && strstr(o, "unknown target 'stm32' (known: "
                                                            "host, ") && strstr(o, "microbit"));
    free(o);
    rc = sh(&o, "%s bake --target malta-be --endian little %s/roo -o %s/t", rb, dir, dir);
    RT_EXPECT("cli.batch.target_endian", rc == 2 && strstr(o, "contradicts"));
    free(o);
    /* the board table (rrbake boards) agrees with platform/<board>/board.mk,
     * and a bake for a board has its byte order */
    {
        static const char *const boards[] = {"mps2-an385", "versatilepb", "malta-le",
                                             "malta-be", "microbit"};
        char *table;
        rc = sh(&table, "%s boards", rb);
        RT_EXPECT("cli.batch.boards", rc == 0);
        for (i = 0; i < sizeof boards / sizeof boards[0]; i++) {
            long mk;
            char want[128];
            int big = strcmp(boards[i], "malta-be") == 0;
            rc = sh(&o, "sed -n 's/^BOARD_BLOB_MAX := *//p' platform/%s/board.mk", boards[i]);
            mk = strtol(o, NULL, 10);
            free(o);
            {   /* the board's line: NAME ORDER-endian BUDGET ... */
                char name[64] = "", order[64] = "";
                long budget = -1;
                const char *l = strstr(table, boards[i]);
                snprintf(want, sizeof want, "%s-endian", big ? "big" : "little");
                RT_EXPECT(cid("batch.board_table", boards[i]),
                          mk > 0 && l && sscanf(l, "%63s %63s %ld", name, order, &budget) == 3 &&
                              !strcmp(name, boards[i]) && !strcmp(order, want) && budget == mk);
            }
            rc = sh(&o, "%s bake --target %s %s/roo/sample.roo -o %s/t_%s.rrb && "
                    "od -An -tx1 -j4 -N1 %s/t_%s.rrb", rb, boards[i], dir, dir, boards[i], dir,
                    boards[i]);
            /* the header's endian probe 0x01020304: first byte 01 when big-endian */
            RT_EXPECT(cid("batch.board_endian", boards[i]),
                      rc == 0 && strstr(o, big ? " 01" : " 04") != NULL);
            free(o);
        }
        free(table);
    }
    /* a blob over the board's budget is reported with the excess */
    {
        char src[1200];
        struct stat st;
        snprintf(src, sizeof src, "%s/roo/v13_g6.roo", corpus);
        rc = sh(&o, "%s bake --target microbit %s -o %s/g6.rrb", rb, src, tmpdir);
        snprintf(src, sizeof src, "%s/g6.rrb", tmpdir);
        if (stat(src, &st) == 0 && st.st_size > 221184) {
            char want[200];
            snprintf(want, sizeof want, "%ld over microbit's blob budget of 221184 bytes",
                     (long)st.st_size - 221184);
            RT_EXPECT("cli.batch.budget", rc == 0 && strstr(o, want) != NULL);
        } else {
            RT_EXPECT("cli.batch.budget", strstr(o, "budget") == NULL);
        }
        free(o);
    }
    /* --version names the blob format and every schema */
    rc = sh(&o, "%s --version", rb);
    RT_EXPECT("cli.batch.version", rc == 0 && strstr(o, "blob format version ") &&
                                       strstr(o, " roo ") && strstr(o, " rmesh ") &&
                                       strstr(o, " rmf ") && strstr(o, " emi "));
    free(o);
    /* a text file renamed .roo says it is text; a cut-off file that it looks
     * truncated (the first 5000 bytes of a real room) */
    rc = sh(&o, "printf 'hello\\nworld\\n' > %s/text.roo && %s verify %s/text.roo", dir, rb, dir);
    RT_EXPECT("cli.batch.hint_text", rc == 1 && strstr(o, "(the file is text"));
    free(o);
    rc = sh(&o, "head -c 5000 %s/roo/v12_i7.roo > %s/cut.roo && %s verify %s/cut.roo", corpus, dir,
            rb, dir);
    RT_EXPECT("cli.batch.hint_truncated", rc == 1 && strstr(o, "(the file looks truncated)"));
    free(o);
    rc = sh(&o, "head -c 3000 %s/scpcb-rmesh/mt2.rmesh > %s/cut.rmesh && %s bake %s/cut.rmesh "
            "-o %s/cut.rrb", corpus, dir, rb, dir, dir);
    RT_EXPECT("cli.batch.hint_truncated_bake", rc == 1 && strstr(o, "(the file looks truncated)"));
    free(o);
    /* pack: two packs (two prefixes) of rooms of three formats link into one
     * program with the loader; every room opens, find() finds it by name, and
     * its bytes equal what `rrbake bake` writes for the same file */
    {
        FILE *f;
        char src[700];
        snprintf(src, sizeof src, "%s/pack_main.c", dir);
        f = fopen(src, "w");
        if (f) {
            fputs("#include <stdio.h>\n#include \"rr.h\"\n#include \"pa.h\"\n#include \"pb.h\"\n"
                  "static unsigned char arena[8192] __attribute__((aligned(8)));\n"
                  "static int one(const char *name, const unsigned char *b, uint32_t n, const char *d)\n"
                  "{\n    rr_room r; char p[600]; FILE *o;\n"
                  "    if (rr_open(b, n, arena, sizeof arena, &r) != RR_OK) return 1;\n"
                  "    snprintf(p, sizeof p, \"%s/%s.bin\", d, name);\n"
                  "    for (char *c = p + strlen(d) + 1; *c; c++) if (*c == '/') *c = '_';\n"
                  "    o = fopen(p, \"wb\"); if (!o) return 1; fwrite(b, 1, n, o); fclose(o);\n"
                  "    printf(\"opened %s\\n\", name); return 0;\n}\n"
                  "int main(int argc, char **argv)\n{\n    uint32_t i; int bad = 0;\n"
                  "    for (i = 0; i < pa_count; i++) bad |= one(pa_table[i].name, pa_table[i].blob, pa_table[i].size, argv[1]);\n"
                  "    for (i = 0; i < pb_count; i++) bad |= one(pb_table[i].name, pb_table[i].blob, pb_table[i].size, argv[1]);\n"
                  "    if (!pa_find(\"sample\") || pa_find(\"nosuch\") || !pb_find(\"sledge_08\")) bad = 1;\n"
                  "    (void)argc; return bad;\n}\n", f);
            fclose(f);
        }
        rc = sh(&o, "mkdir -p %s/pk && cp %s/rmf/sledge_08.rmf %s/pk/ && "
                "%s pack %s/roo %s/emi/figure.emi -o %s/pk/pa.c -q --exclude 'sample_v1*' && "
                "%s pack %s/pk/sledge_08.rmf -o %s/pk/pb.c -q && "
                "cc -std=c99 -include string.h -Iloader -I%s/pk %s %s/pk/pa.c %s/pk/pb.c loader/*.c "
                "-o %s/pk/prog && %s/pk/prog %s/pk", dir, corpus, dir, rb, dir, dir, dir, rb, dir,
                dir, dir, src, dir, dir, dir, dir, dir);
        RT_EXPECT("cli.batch.pack_link", rc == 0 && lines_with(o, "opened ") == 3);
        free(o);
        rc = sh(&o, "%s bake %s/roo/sample.roo -o %s/pk/b1.rrb -q && "
                "%s bake %s/emi/figure.emi -o %s/pk/b2.rrb -q && "
                "%s bake %s/pk/sledge_08.rmf -o %s/pk/b3.rrb -q && "
                "cmp %s/pk/b1.rrb %s/pk/sample.bin && cmp %s/pk/b2.rrb %s/pk/figure.bin && "
                "cmp %s/pk/b3.rrb %s/pk/sledge_08.bin && echo same", rb, dir, dir, rb, dir, dir,
                rb, dir, dir, dir, dir, dir, dir, dir, dir);
        RT_EXPECT("cli.batch.pack_bytes", rc == 0 && strstr(o, "same"));
        free(o);
        rc = sh(&o, "%s pack %s/roo -o %s/pk/pc.c --target microbit", rb, dir, dir);
        RT_EXPECT("cli.batch.pack_budget", rc == 0 && strstr(o, "fits microbit's blob budget"));
        free(o);
    }
    /* a wrong argument count prints that command's usage line */
    rc = sh(&o, "%s query %s/roo/sample.roo locate 1", rb, dir);
    RT_EXPECT("cli.batch.usage_line", rc == 2 && strstr(o, "usage: rrbake query ROOM locate X Y"));
    free(o);
}


/* rrbake emulate on the host side (the runs on the QEMU boards are in
 * tests/check_emulate.sh): usage, boards, query file errors with file and
 * line, a missing board program, and its QEMU commands equal to
 * platform/<board>/board.mk's BOARD_QEMU and BOARD_QEMU_ARGS. */
static void squeeze(char *s)   /* runs of blanks and the newline -> one blank, trimmed */
{
    char *d = s, *r = s;
    while (*r) {
        if (*r == ' ' || *r == '\t' || *r == '\n') {
            while (*r == ' ' || *r == '\t' || *r == '\n')
                r++;
            if (d != s && *r)
                *d++ = ' ';
        } else {
            *d++ = *r++;
        }
    }
    *d = 0;
}

static void test_emulate(void)
{
    static const char *const boards[] = {"mps2-an385", "versatilepb", "malta-be", "malta-le",
                                         "microbit"};
    const char *rb = "build/tools/rrbake";
    char dir[600], *o;
    size_t i;
    int rc;
    snprintf(dir, sizeof dir, "%s/emu", tmpdir);
    rc = sh(&o, "%s sample roo -o %s && printf '# c\\n\\nheight 1024 1024\\nmove 1 2 3\\n' > %s/argc.q && "
            "printf 'height 1 x\\n' > %s/num.q && printf 'fly 1 2\\n' > %s/name.q && "
            "printf '\\n# only a comment\\n' > %s/empty.q && printf 'height 1024 1024\\n' > %s/ok.q",
            rb, dir, dir, dir, dir, dir, dir);
    RT_EXPECT("cli.emulate.setup", rc == 0);
    free(o);
    rc = sh(&o, "%s emulate", rb);
    RT_EXPECT("cli.emulate.usage", rc == 2 && strstr(o, "usage: rrbake emulate --board BOARD"));
    free(o);
    rc = sh(&o, "%s emulate --board host %s/sample.roo %s/ok.q", rb, dir, dir);
    RT_EXPECT("cli.emulate.host", rc == 2 && strstr(o, "found 'host'") &&
                                      strstr(o, "rrbake query answers directly"));
    free(o);
    rc = sh(&o, "%s emulate --board stm32 %s/sample.roo %s/ok.q", rb, dir, dir);
    RT_EXPECT("cli.emulate.board", rc == 2 && strstr(o, "found 'stm32'") && strstr(o, "microbit"));
    free(o);
    rc = sh(&o, "%s emulate --board microbit %s/sample.roo %s/argc.q", rb, dir, dir);
    RT_EXPECT("cli.emulate.argc", rc == 2 && strstr(o, "argc.q:4: query move: expected 7 "
                                                       "arguments, found 3"));
    free(o);
    rc = sh(&o, "%s emulate --board microbit %s/sample.roo %s/num.q", rb, dir, dir);
    RT_EXPECT("cli.emulate.number", rc == 2 && strstr(o, "num.q:1: query height: argument 2: "
                                                         "expected a number, found 'x'"));
    free(o);
    rc = sh(&o, "%s emulate --board microbit %s/sample.roo %s/name.q", rb, dir, dir);
    RT_EXPECT("cli.emulate.name", rc == 2 && strstr(o, "name.q:1: expected a query of a roo room") &&
                                      strstr(o, "found 'fly'"));
    free(o);
    rc = sh(&o, "%s emulate --board microbit %s/sample.roo %s/empty.q", rb, dir, dir);
    RT_EXPECT("cli.emulate.empty", rc == 2 && strstr(o, "expected at least one query line"));
    free(o);
    rc = sh(&o, "%s emulate --board microbit %s/sample.roo %s/ok.q --program %s/none.elf", rb, dir,
            dir, dir);
    RT_EXPECT("cli.emulate.no_program", rc == 3 && strstr(o, "none.elf not found"));
    free(o);
    for (i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        const char *args = NULL, *qemu = rrb_emulate_qemu(boards[i], &args);
        char *mq, *ma;
        sh(&mq, "make -s --no-print-directory -f platform/board-vars.mk BOARD=%s print-BOARD_QEMU",
           boards[i]);
        sh(&ma, "make -s --no-print-directory -f platform/board-vars.mk BOARD=%s "
           "print-BOARD_QEMU_ARGS", boards[i]);
        squeeze(mq), squeeze(ma);
        RT_EXPECT(cid("emulate.qemu", boards[i]),
                  qemu && *mq && !strcmp(qemu, mq) && args && *ma && !strcmp(args, ma));
        free(mq), free(ma);
    }
}

/* CBRE-EX custom entities (issue 20) through the commands, on a file built
 * here from NOTES §3.7: a light, a door (fixed layout), then a "keypad"
 * only its definitions decode. Facts: the bytes written here. */
static void cli_str(rrb_buf *b, const char *s)
{
    rrb_buf_u32le(b, (uint32_t)strlen(s));
    rrb_buf_put(b, s, strlen(s));
}

static void test_rmesh_custom(void)
{
    char dir[400], path[600], defs[600], err[1400], *o;
    rrb_buf b = {0};
    static const float tri[3][3] = {{0, 0, 0}, {256, 0, 0}, {0, 0, 256}};
    size_t keypad_at;
    int k, rc;
    FILE *f;
    snprintf(dir, sizeof dir, "%s/custom", tmpdir);
    rrb_mkdirs(dir);
    cli_str(&b, "RoomMesh");
    rrb_buf_u32le(&b, 1);                               /* one surface, one triangle */
    rrb_buf_u8(&b, 1), cli_str(&b, "r_lm.png"), rrb_buf_u8(&b, 1), cli_str(&b, "floor.jpg");
    rrb_buf_u32le(&b, 3);
    for (k = 0; k < 3; k++) {
        int j;
        for (j = 0; j < 3; j++)
            rrb_buf_f32le(&b, tri[k][j]);
        for (j = 0; j < 4; j++)
            rrb_buf_f32le(&b, 0);
        rrb_buf_put(&b, "\xff\xff\xff", 3);
    }
    rrb_buf_u32le(&b, 1), rrb_buf_u32le(&b, 0), rrb_buf_u32le(&b, 1), rrb_buf_u32le(&b, 2);
    rrb_buf_u32le(&b, 0);                               /* no invisible meshes */
    rrb_buf_u32le(&b, 3);                               /* entities */
    cli_str(&b, "light"), rrb_buf_f32le(&b, 10), rrb_buf_f32le(&b, 100), rrb_buf_f32le(&b, 10);
    rrb_buf_f32le(&b, 600), cli_str(&b, "255 255 255"), rrb_buf_f32le(&b, 1);
    cli_str(&b, "door"), rrb_buf_f32le(&b, 64), rrb_buf_f32le(&b, 0), rrb_buf_f32le(&b, 64);
    rrb_buf_u32le(&b, 2), rrb_buf_u32le(&b, 3), cli_str(&b, "1234"), rrb_buf_f32le(&b, 90);
    rrb_buf_u8(&b, 1), rrb_buf_u8(&b, 0);
    keypad_at = b.size;
    cli_str(&b, "keypad"), rrb_buf_f32le(&b, 5), rrb_buf_f32le(&b, 6), rrb_buf_f32le(&b, 7);
    rrb_buf_u8(&b, 1), rrb_buf_u32le(&b, 42), cli_str(&b, "hi");
    snprintf(path, sizeof path, "%s/room.rmesh", dir);
    expect("cli.custom.write", rrb_save_file(path, b.data, b.size, err, sizeof err) == 0);
    rrb_buf_free(&b);
    snprintf(defs, sizeof defs, "%s/keypad.json", dir);
    f = fopen(defs, "w");
    if (f) {
        fputs("{\"Name\": \"keypad\", \"Properties\": [{\"Name\": \"locked\", \"Type\": "
              "\"Bool\"}, {\"Name\": \"code\", \"Type\": \"Integer\"}, {\"Name\": \"label\", "
              "\"Type\": \"String\"}]}\n", f);
        fclose(f);
    }
    /* without definitions: kept up to the keypad, one warning naming it */
    rc = sh(&o, "build/tools/rrbake info --json %s", path);
    snprintf(err, sizeof err, "%s:0x%zx: warning: custom entity class \"keypad\"", path, keypad_at);
    expect("cli.custom.info", rc == 0 && strstr(o, "\"custom_entities\":{\"door\":1}") &&
                                  strstr(o, "\"undecoded_entities\":1,") &&
                                  lines_with(o, err) == 1 && lines_with(o, "warning") == 1);
    free(o);
    rc = sh(&o, "build/tools/rrbake bake %s -o %s/room.rrb && build/tools/rrbake query %s/room.rrb "
            "nearest light 0 0 0", path, dir, dir);
    expect("cli.custom.bake", rc == 0 && lines_with(o, err) == 1 &&
                                  strstr(o, "position: 10 100 10 ") != NULL);
    free(o);
    rc = sh(&o, "build/tools/rrbake verify %s", path);
    expect("cli.custom.verify", rc == 0 && lines_with(o, err) == 1 &&
                                    strstr(o, "ok roundtrip") != NULL);
    free(o);
    /* --strict: an error, for every command */
    rc = sh(&o, "build/tools/rrbake info --strict %s; echo rc=$?; build/tools/rrbake bake --strict "
            "%s -o %s/s.rrb; echo rc=$?; build/tools/rrbake query %s --strict ray 0 10 0 0 -1 0 50;"
            " echo rc=$?", path, path, dir, path);
    snprintf(err, sizeof err, "%s:0x%zx: expected an entity this reader can decode, found custom "
             "class \"keypad\" (1 entity record left undecoded", path, keypad_at);
    expect("cli.custom.strict", lines_with(o, err) == 3 && lines_with(o, "rc=1") == 3);
    if (lines_with(o, err) != 3)
        fprintf(stderr, "%s\n", o);
    free(o);
    /* with the definitions: every entity decoded, shown with its properties */
    rc = sh(&o, "build/tools/rrbake dump --json %s --entity-defs %s --strict", path, defs);
    expect("cli.custom.dump", rc == 0 && strstr(o, "{\"class\":\"keypad\",\"custom\":\"definitions\","
                                               "\"pos\":[5,6,7],\"properties\":[{\"name\":\"locked\","
                                               "\"type\":\"Bool\",\"value\":1},{\"name\":\"code\","
                                               "\"type\":\"Integer\",\"value\":42},{\"name\":\"label\","
                                               "\"type\":\"String\",\"value\":\"hi\"}]}") &&
                                  strstr(o, "\"class\":\"door\",\"custom\":\"fixed layout\"") &&
                                  !strstr(o, "warning"));
    free(o);
    rc = sh(&o, "build/tools/rrbake info %s --entity-defs %s --strict && build/tools/rrbake query "
            "%s --entity-defs %s --strict nearest light 0 0 0", path, defs, path, defs);
    expect("cli.custom.info.defs", rc == 0 && strstr(o, "custom entities 2: door 1, keypad 1") &&
                                       strstr(o, "position: 10 100 10 ") != NULL);
    free(o);
    /* the blob keeps the custom entities: class name, position and every
     * property, found by class name (nearest) and looked up by key on the
     * loader; the values are the bytes written above */
    rc = sh(&o, "build/tools/rrbake bake %s --entity-defs %s --strict -o %s/defs.rrb -q && "
            "build/tools/rrbake query %s/defs.rrb nearest door 0 0 0 && "
            "build/tools/rrbake query %s/defs.rrb nearest keypad 0 0 0 && "
            "build/tools/rrbake query %s/defs.rrb nearest nosuchclass 0 0 0",
            path, defs, dir, dir, dir, dir);
    expect("cli.custom.blob.door", rc == 0 && strstr(o, "class: door\nposition: 64 0 64 ") &&
                                       strstr(o, "\ntype: 2\nkeycard: 3\ncode: 1234\nangle: 90\n"
                                                 "open: 1\nallow_remote_control: 0\n"));
    expect("cli.custom.blob.keypad", rc == 0 && strstr(o, "class: keypad\nposition: 5 6 7 ") &&
                                         strstr(o, "\nlocked: 1\ncode: 42\nlabel: hi\n"));
    expect("cli.custom.blob.none", rc == 0 && strstr(o, "entity: none\n"));
    if (rc != 0 || !strstr(o, "label: hi"))
        fprintf(stderr, "%s\n", o);
    free(o);
    /* the plan draws them too, with their own legend entry (grep -c: 1 line) */
    rc = sh(&o, "build/tools/rrbake preview %s/defs.rrb -o %s/defs.svg && grep -c 'custom (2)' "
            "%s/defs.svg", dir, dir, dir);
    expect("cli.custom.blob.svg", rc == 0 && strstr(o, "\n1\n"));
    free(o);
    /* rr_open checks each custom entity's run of properties: the door's
     * count one past the props section is named exactly */
    {
        char bp[700];
        uint8_t *blob = NULL;
        size_t n = 0;
        static uint32_t ar[1024];
        snprintf(bp, sizeof bp, "%s/defs.rrb", dir);
        if (rrb_load_file(bp, &blob, &n, err, sizeof err) == 0 && n % 4 == 0) {
            uint32_t *w = malloc(n), cnt = 0, np = 0, i;
            uint32_t off = 0;
            rr_room r;
            rr_diag d;
            memcpy(w, blob, n);
            /* the loader's own lookups on the good blob: light, door, keypad */
            if (rr_open(w, (uint32_t)n, ar, sizeof ar, &r) == RR_OK) {
                uint32_t it = 0, nc = 0, kp = 0;
                const char *v;
                for (; rr_rmesh_custom_next(&r, NULL, &it) == RR_OK; it++)
                    nc++;
                expect("cli.custom.blob.next", nc == 2 &&
                                                   rr_rmesh_custom_next(&r, "keypad", &kp) == RR_OK &&
                                                   kp == 2);
                v = rr_rmesh_entity_value(&r, 1, "code");
                expect("cli.custom.blob.value", v && !strcmp(v, "1234") &&
                                                    !rr_rmesh_entity_value(&r, 1, "nokey") &&
                                                    !rr_rmesh_entity_value(&r, 0, "code") &&
                                                    !rr_rmesh_entity_value(&r, 9, "code"));
            }
            off = rt_section((const uint8_t *)w, RR_SEC_RMESH_ENTS, &cnt, NULL);
            rt_section((const uint8_t *)w, RR_SEC_RMESH_PROPS, &np, NULL);
            for (i = 0; i < cnt; i++) {
                rr_rmesh_ent *e = (rr_rmesh_ent *)(void *)((uint8_t *)w + off) + i;
                if (e->cls == RR_RMESH_CUSTOM && e->ival[1] == 6) {   /* the door */
                    uint32_t at = (uint32_t)((uint8_t *)&e->ival[1] - (uint8_t *)w);
                    e->ival[1] = (int32_t)(np - (uint32_t)e->ival[0] + 1);
                    w[5] = rr_crc32(0, (uint8_t *)w + 24, (uint32_t)n - 24);
                    expect("cli.custom.blob.evil",
                           rr_open_diag(w, (uint32_t)n, ar, sizeof ar, &r, &d) == RR_ERR_INDEX &&
                               d.offset == at && d.section == RR_SEC_RMESH_ENTS && d.record == i);
                    break;
                }
            }
            expect("cli.custom.blob.evil-found", i < cnt);
            free(w);
        }
        free(blob);
    }
    /* a definitions file that is no JSON is named with line and column */
    rc = sh(&o, "printf '{\"Name\": \"k\",\\n  \"Properties\": [,]}' > %s/bad.json && "
            "build/tools/rrbake info %s --entity-defs %s/bad.json", dir, path, dir);
    snprintf(err, sizeof err, "%s/bad.json:2:18: expected a JSON value", dir);
    expect("cli.custom.badjson", rc == 1 && lines_with(o, err) == 1);
    free(o);
}

/* The RM variant (issue 20): the sample room written in the RM layout goes
 * through every check of test_rmesh, and gives the same query answers as the
 * same room in the vanilla layout (the layouts differ, the room does not). */
static void test_rmesh_rm(void)
{
    char dir[400], save[1024], err[RRB_ERR_MAX], *o1, *o2;
    rrb_rmesh m;
    rrb_buf b = {0};
    int rc1, rc2;
    snprintf(dir, sizeof dir, "%s/rm", tmpdir);
    rrb_mkdirs(dir);
    rrb_rmesh_sample_rm_model(&m, 0, 1);
    rrb_rmesh_write(&m, &b);
    snprintf(save, sizeof save, "%s/sample_rm.rmesh", dir);
    expect("cli.rm.write", rrb_save_file(save, b.data, b.size, err, sizeof err) == 0);
    rrb_buf_free(&b);
    rrb_rmesh_free(&m);
    rrb_rmesh_sample_model(&m);
    rrb_rmesh_write(&m, &b);
    snprintf(save, sizeof save, "%s/sample.rmesh", dir);
    expect("cli.rm.write2", rrb_save_file(save, b.data, b.size, err, sizeof err) == 0);
    rrb_buf_free(&b);
    rrb_rmesh_free(&m);
    snprintf(save, sizeof save, "%s", corpus);
    snprintf(corpus, sizeof corpus, "%s", tmpdir);
    test_rmesh("rm", "sample_rm");
    snprintf(corpus, sizeof corpus, "%s", save);
    rc1 = sh(&o1, "build/tools/rrbake query %s/sample.rmesh ray 0 200 100 0 -1 0 1000 && "
             "build/tools/rrbake query %s/sample.rmesh ray -500 100 0 1 0 0 2000 && "
             "build/tools/rrbake query %s/sample.rmesh trigger -300 100 -300 && "
             "build/tools/rrbake query %s/sample.rmesh nearest light 0 0 0", dir, dir, dir, dir);
    rc2 = sh(&o2, "build/tools/rrbake query %s/sample_rm.rmesh ray 0 200 100 0 -1 0 1000 && "
             "build/tools/rrbake query %s/sample_rm.rmesh ray -500 100 0 1 0 0 2000 && "
             "build/tools/rrbake query %s/sample_rm.rmesh trigger -300 100 -300 && "
             "build/tools/rrbake query %s/sample_rm.rmesh nearest light 0 0 0", dir, dir, dir, dir);
    expect("cli.rm.query.rc", rc1 == 0 && rc2 == 0);
    expect("cli.rm.query.same", !strcmp(o1, o2) && strstr(o1, "name: sample_trigger") &&
                                    strstr(o1, "distance: 200 ") != NULL);
    free(o1);
    free(o2);
    /* info names the variant and version; an unknown version byte is named */
    rc1 = sh(&o1, "build/tools/rrbake info --json %s/sample_rm.rmesh", dir);
    expect("cli.rm.info", rc1 == 0 && strstr(o1, "\"header\":\"RM\",\"rm_version\":0,") &&
                              strstr(o1, "\"trigger_boxes\":1,\"entities\":7,"));
    free(o1);
    rc1 = sh(&o1, "printf '\\002\\000\\000\\000RM\\011\\000\\000\\000\\000' > %s/v9.rm && "
             "build/tools/rrbake info %s/v9.rm", dir, dir);
    expect("cli.rm.v9", rc1 == 1 && strstr(o1, "v9.rm:0x6: expected RM version byte 0 or 1") &&
                            strstr(o1, "found 9"));
    if (rc1 != 1)
        fprintf(stderr, "%s\n", o1);
    free(o1);
}

/* query --json: every command of every format answers with one JSON object
 * on one line, and every value in units agrees with its raw fixed-point word
 * (tests/cli/check_json.py, which knows nothing of the C code). */
static void test_query_json(void)
{
    static const char *const q[] = {
        "%s/roo/v12_guest5.roo locate 3000 3000", "%s/roo/v12_guest5.roo locate -5 -5",
        "%s/roo/v12_guest5.roo height 3000 3000", "%s/roo/v12_guest5.roo height -5 -5",
        "%s/roo/v12_guest5.roo move 3000 3000 9000 3000 64 100 200",
        "%s/roo/v12_guest5.roo slide 3000 3000 9000 4000 64 100 200",
        "%s/roo/v12_guest5.roo sight 3000 3000 100 9000 3000 100",
        "%s/roo/v12_guest5.roo grid 3000 3000", "%s/roo/v15_a5.roo grid 3000 3000",
        "%s/scpcb-rmesh/173_opt.rmesh ray 0 100 0 0 -1 0 10000",
        "%s/scpcb-rmesh/173_opt.rmesh ray 0 100 0 0 1 0 1",
        "%s/scpcb-rmesh/173_opt.rmesh sweep 0 100 0 3000 100 0 20 40 20",
        "%s/scpcb-rmesh/173_opt.rmesh trigger 0 100 0",
        "%s/scpcb-rmesh/173_opt.rmesh box -10 -10 -10 10 10 10",
        "%s/scpcb-rmesh/173_opt.rmesh nearest light 0 100 0",
        "%s/scpcb-rmesh/173_opt.rmesh nearest any 0 100 0",
        "%s/rmf/sledge_22.rmf contents 1 1 1",
        "%s/rmf/sledge_22.rmf trace -1000 0 0 1000 0 0 16 16 36",
        "%s/rmf/sledge_22.rmf box 0 0 -460 100 100 0",
        "%s/rmf/sledge_22.rmf entity classname info_player_start",
        "%s/rmf/sledge_22.rmf entity classname no_such_class",
    };
    char cmds[8192], *o, want[64];
    size_t i, len = 0;
    int rc;
    const char *rb = "build/tools/rrbake";
    for (i = 0; i < sizeof q / sizeof q[0]; i++) {
        char one[600];
        snprintf(one, sizeof one, q[i], corpus);
        len += (size_t)snprintf(cmds + len, sizeof cmds - len, "%s query %s --json; ", rb, one);
    }
    len += (size_t)snprintf(cmds + len, sizeof cmds - len, "%s sample emi -o %s/jemi >/dev/null; "
                            "for c in 'pose walk 0.25' 'pose 0 3.5 --clamp' joints anims; do "
                            "%s query %s/jemi/figure.emi $c --json; done", rb, tmpdir, rb, tmpdir);
    {   /* longer than sh()'s command line: run from a script file */
        char script[400];
        FILE *f;
        snprintf(script, sizeof script, "%s/json_queries.sh", tmpdir);
        f = fopen(script, "w");
        if (f) {
            fprintf(f, "%s\n", cmds);
            fclose(f);
        }
        rc = sh(&o, "sh %s 2>/dev/null | python3 tests/cli/check_json.py", script);
    }
    snprintf(want, sizeof want, "check_json: %zu answers,", sizeof q / sizeof q[0] + 4);
    RT_EXPECT("cli.query.json_all", rc == 0 && strstr(o, want) && strstr(o, " 0 failures"));
    if (rc)
        fprintf(stderr, "%s", o);
    free(o);
    /* a failing query prints no half object, and its error on stderr */
    rc = sh(&o, "%s query %s/rmf/sledge_22.rmf contents 100000 1 1 --json 2>/dev/null", rb, corpus);
    RT_EXPECT("cli.query.json_fail", rc == 1 && o[0] == 0);
    free(o);
}

/* query --svg: every format with a plan draws its query over the plan; the
 * answer's points (query --json of the same query) are where the plan shows
 * them, and a located leaf holds its point (tests/cli/check_svg.py). */
static void test_query_svg(void)
{
    static const char *const q[] = {
        "roo/v12_guest5.roo locate 3000 3000",
        "roo/v12_guest5.roo move 3000 3000 9000 3000 64 100 200",
        "roo/v12_guest5.roo slide 3000 3000 9000 4000 64 100 200",
        "roo/v12_guest5.roo sight 3000 3000 100 9000 3000 100",
        "roo/v14_marhall.roo locate 10000 8000",
        "scpcb-rmesh/173_opt.rmesh ray 0 100 0 1 -1 0.3 10000",
        "scpcb-rmesh/173_opt.rmesh sweep 0 100 0 3000 100 0 20 40 20",
        "scpcb-rmesh/173_opt.rmesh nearest light 0 100 0",
        "rmf/msr_tower.rmf trace -1000 0 100 1000 200 100",
        "rmf/sledge_22.rmf trace -1000 0 0 1000 0 0 16 16 36",
        "rmf/sledge_22.rmf entity classname info_player_start",
    };
    size_t i;
    int ok = 1, rc;
    char *o;
    for (i = 0; i < sizeof q / sizeof q[0]; i++) {
        char svg[600], js[600];
        snprintf(svg, sizeof svg, "%s/q%zu.svg", tmpdir, i);
        snprintf(js, sizeof js, "%s/q%zu.json", tmpdir, i);
        rc = sh(&o, "build/tools/rrbake query %s/%s --json --svg %s > %s", corpus, q[i], svg, js);
        free(o);
        if (!expect(cid("query_svg", q[i]), rc == 0 && check_svg(svg, js)))
            ok = 0;
    }
    RT_EXPECT("cli.query.svg_all", ok);
    /* a room without a plan says so, and writes nothing */
    rc = sh(&o, "build/tools/rrbake sample emi -o %s/semi >/dev/null && build/tools/rrbake query "
            "%s/semi/figure.emi joints --svg %s/none.svg; test -e %s/none.svg && echo written",
            tmpdir, tmpdir, tmpdir, tmpdir);
    RT_EXPECT("cli.query.svg_no_plan", strstr(o, "--svg: expected a roo, rmesh or rmf room") &&
                                           !strstr(o, "written"));
    free(o);
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : getenv("CORPUS");
    snprintf(corpus, sizeof corpus, "%s", c ? c : "../shared/corpus");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rr_test_cli.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_roo("v12_guest5");
    test_roo("v14_marhall");
    test_roo("v15_a5");
    test_rmesh("scpcb-rmesh", "173_opt");
    test_rmesh("cbre-rmesh", "room079");
    test_rmesh_rm();
    test_rmesh_custom();
    test_rmf("sledge_22");
    test_rmf("msr_tower");
    test_rmf("sledge_08");
    test_emi();
    test_errors();
    test_batch();
    test_emulate();
    test_query_json();
    test_query_svg();
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmpdir);
    }
    return rt_done("cli");
}

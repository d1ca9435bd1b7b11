/* rrb_cli.h - the rrbake commands that work on an opened room: query,
 * per-format blob summaries (info), preview (OBJ / SVG) and convert
 * (.map, OBJ, glTF). rrbake.c only dispatches to these; tests call them
 * directly with their own output streams.
 *
 *   rrb_cli_room r;
 *   if (rrb_cli_open("room.rrb", &r, err, sizeof err)) puts(err);
 *   ... r.room is an rr_open()ed room, r.fmt its source module (or NULL) ...
 *   rrb_cli_close(&r);
 *
 * A source file (any format rrbake reads) is baked in memory with the
 * default options and opened the same way, so every command takes either.
 * What a command does for one format lives in that format's room hooks
 * (rrb_format.h, tools/rrb_<fmt>_cli.c); the helpers at the end of this
 * file are what those hooks share.
 * Errors: "path:0xOFFSET: expected ..., found ..." (rrb_util.h style).
 */
#ifndef RRB_CLI_H
#define RRB_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rr.h"
#include "rrb_format.h"

typedef struct rrb_cli_room {
    rr_room room;
    uint32_t *blob;            /* little-endian blob, 4-byte aligned copy */
    size_t size;
    void *arena;
    uint8_t *src;              /* the source file when one was baked (else NULL) */
    size_t src_size;
    const rrb_format *fmt;     /* the source's module, NULL for a blob input */
    const char *path;
    int glb;                   /* convert --glb: glTF as binary .glb whatever the name */
} rrb_cli_room;

/* Open a blob (little-endian) or bake a source file in memory and open it. */
int rrb_cli_open(const char *path, rrb_cli_room *r, char *err, size_t errcap);
void rrb_cli_close(rrb_cli_room *r);
/* Open a blob file's bytes (either byte order) with the real loader, as the
 * board would; 0 ok (and with ok_out, an "ok" line there), 1 rejected: the
 * diagnosis on stderr, naming section, record, field and offset. */
int rrb_cli_check_blob(const uint8_t *d, size_t n, const char *path, FILE *ok_out);
/* `rrbake bake ARGS` (rrb_cli_bake.c): exit status. */
int rrb_cli_bake(int argc, char **argv);
extern const char rrb_cli_usage_bake[];
/* `rrbake pack ARGS` (rrb_cli_bake.c): exit status. */
int rrb_cli_pack(int argc, char **argv);
extern const char rrb_cli_usage_pack[];
/* `rrbake emulate ARGS` (rrb_cli_emulate.c): exit status. */
int rrb_cli_emulate(int argc, char **argv);
extern const char rrb_cli_usage_emulate[];
/* The QEMU binary emulate runs for a board (and *args, its machine options), or NULL. */
const char *rrb_emulate_qemu(const char *board, const char **args);

/* Value in source units -> coords (round half away from zero); -1 when it
 * does not fit an int32. */
int rrb_cli_to_coord(double v, unsigned frac, int32_t *out);
/* Strict number parse of a whole argument; -1 when it is not a number. */
int rrb_cli_num(const char *s, double *v);
/* Coords -> source units. */
double rrb_cli_unit(int32_t c, unsigned frac);

/* Subcommands: argv excludes the command name; out/errf receive the output
 * and error messages. Return 0 ok, 1 failure, 2 usage error. */
int rrb_cli_query(int argc, char **argv, FILE *out, FILE *errf);
int rrb_cli_preview(int argc, char **argv, FILE *out, FILE *errf);
int rrb_cli_convert(int argc, char **argv, FILE *out, FILE *errf);

/* The format-specific part of `rrbake info` for an opened blob. */
int rrb_cli_room_info(const rr_room *room, FILE *out, int json);

extern const char rrb_cli_usage_preview[], rrb_cli_usage_convert[];
/* `rrbake query --help`: the shared part and every format's commands. */
const char *rrb_cli_query_usage(void);

/* Geometry export shared by preview and convert: through the room format's
 * write_obj / write_svg hook (rrb_format.h). */
int rrb_cli_write_obj(const rrb_cli_room *r, const char *out_path, int render, FILE *log,
                      char *err, size_t errcap);
int rrb_cli_write_svg(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t errcap);
/* The plan with a query's marks drawn over it (rrbake query --svg). */
struct rrb_marks;
int rrb_cli_write_svg_marks(const rrb_cli_room *r, const char *out_path,
                            const struct rrb_marks *marks, FILE *log, char *err, size_t errcap);

/* ---- for the formats' hooks (tools/rrb_<fmt>_cli.c) ---- */

/* A query being run (rrb_cli_query.c): the numeric arguments converted,
 * and where its answer goes (text lines, or with --json one JSON object). */
#define RRB_Q_DEPTH 6
typedef struct rrb_query {
    const rr_room *room;
    FILE *out, *errf;
    const char *path;
    unsigned frac;
    int32_t c[12];          /* the coordinate arguments, converted */
    double v[12];           /* the numeric arguments as given */
    int json;               /* --json: one JSON object instead of lines */
    int depth;              /* open objects / arrays below the answer */
    int nfield[RRB_Q_DEPTH + 1];        /* JSON: values written at each level (commas) */
    const char *prefix[RRB_Q_DEPTH + 1];/* text: what each key of a level starts with */
    char closer[RRB_Q_DEPTH + 1];       /* JSON: '}' or ']' ending each level */
    struct rrb_marks *marks;            /* --svg: what the query draws on the plan, or NULL */
} rrb_query;

/* The answer's fields. Text: one "key: value" line each (keys after the
 * prefix of the open level); JSON: "key":value, and where the text shows
 * source units the raw fixed-point value too, as "key_raw".
 *   int    "key: 12"                       12
 *   hex    "key: 0x1f" (digits: at least)   31
 *   str    "key: text"                     "text"
 *   coord  "key: 12.5 [3200]"              12.5, key_raw 3200
 *   point  "key: 1 2 3 [16 32 48]"         [1,2,3], key_raw [16,32,48]
 *   fix    "key: 0.500000 [0x00008000]"    0.500000, key_raw 32768 (16.16)
 *   vec    "key: 0.000000 1.000000 0.000000"  [0.000000,1.000000,0.000000], key_raw
 *   ids    "key: N" and the ids on the next line   N, and key_list [ids]
 * rrb_q_open starts a nested object (array: a list of objects): JSON
 * "key":{ or "key":[ (key NULL inside an array), text only sets the prefix
 * of the keys inside; rrb_q_close ends it. rrb_q_line writes a text line
 * as is and nothing to JSON (use it beside a field that says the same). */
void rrb_q_int(rrb_query *q, const char *key, long long v);
void rrb_q_hex(rrb_query *q, const char *key, uint32_t v, int digits);
void rrb_q_str(rrb_query *q, const char *key, const char *s);
/* JSON only: "key":json, a value the caller wrote as JSON text. */
void rrb_q_raw(rrb_query *q, const char *key, const char *json);
/* JSON only: "key":true|false (the text says it in its own words). */
void rrb_q_bool(rrb_query *q, const char *key, int v);
void rrb_q_coord(rrb_query *q, const char *key, int32_t c);
void rrb_q_point(rrb_query *q, const char *key, const int32_t *c, int n);
void rrb_q_fix(rrb_query *q, const char *key, rr_fix f);
void rrb_q_vec(rrb_query *q, const char *key, rr_vec3 v);
void rrb_q_ids(rrb_query *q, const char *key, uint32_t total, const char *note,
               const uint32_t *ids, uint32_t n);
void rrb_q_open(rrb_query *q, const char *key, int array, const char *text_prefix);
void rrb_q_close(rrb_query *q);
void rrb_q_line(rrb_query *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rrb_query_fail prints "path: what: error" to errf and returns 1. */
int rrb_query_fail(rrb_query *q, rr_err e, const char *what);

/* --svg: what a query draws over the room's plan, in the room's coords
 * (dims 2: x y, 3: x y z; the format's plan_xy hook maps them). pts holds
 * npts points of 3 int32 each, of which the first dims are used (a single
 * point may be just dims int32). Does nothing without --svg. */
enum {
    RRB_MARK_FROM,      /* where the query starts (ray origin, mover, trace start) */
    RRB_MARK_PATH,      /* the line it follows (to its end or its stop) */
    RRB_MARK_HIT,       /* where it stopped or hit */
    RRB_MARK_AREA,      /* a polygon it found (the leaf under a point, the hit triangle) */
    RRB_MARK_BOX        /* an axis-aligned box (two corners): trigger, query box */
};
void rrb_q_mark(rrb_query *q, int kind, const char *label, const int32_t *pts, int npts,
                int dims);
/* The segment of a query from its first point to its second (q->c[0..2] to
 * q->c[3..5]: a trace, a line of sight, a sweep): its start, labelled from,
 * and its line, labelled path. */
void rrb_q_mark_segment(rrb_query *q, const char *from, const char *path);

typedef struct rrb_mark {
    int kind;
    char label[64];
    int npts, dims;
    int32_t (*p)[3];            /* npts points of dims coords */
} rrb_mark;

typedef struct rrb_marks {
    rrb_mark *v;
    size_t n, cap;
} rrb_marks;

void rrb_marks_free(rrb_marks *m);

/* A plain number as 16.16 (rounded, saturated). */
rr_fix rrb_cli_to_fix(double v);

/* An OBJ being written (rrb_cli_geom.c): positions in source units. */
typedef struct rrb_obj {
    FILE *f, *mtl;
    unsigned frac;
    uint32_t nv, nf;            /* vertices written, faces written */
    char **mats;                /* material names written to the MTL */
    size_t nmats, cap;
} rrb_obj;

extern const float rrb_obj_grey[3];
/* Coords -> source units. */
double rrb_obj_unit(const rrb_obj *o, int32_t c);
void rrb_obj_vertex(rrb_obj *o, double x, double y, double z);
/* usemtl NAME, adding NAME (with its texture, if any) to the MTL once. */
void rrb_obj_material(rrb_obj *o, const char *name, const char *tex, const float rgb[3]);
/* A material name without spaces (OBJ splits on blanks). */
void rrb_obj_mat_name(char *dst, size_t cap, const char *prefix, const char *tex);

/* An SVG plan being written (rrb_cli_svg.c). The format's write_svg hook
 * sets the drawn area and the axis names, calls rrb_svg_head(), draws the
 * plan, and adds legend entries (rrb_svg_key) and a line of text
 * (rrb_svg_legend); the common code then draws the coordinate grid, the
 * legend below the plan and, for query --svg, the query. */
#define RRB_SVG_KEYS 24
typedef struct rrb_svg_keyent {
    int kind;                   /* RRB_KEY_* */
    char colour[24];
    char label[80];
} rrb_svg_keyent;

enum { RRB_KEY_FILL, RRB_KEY_LINE, RRB_KEY_DASH, RRB_KEY_DOT, RRB_KEY_RAMP };

typedef struct rrb_svg {
    FILE *f;
    double x0, y0, x1, y1;      /* drawn area, source units */
    double zmin, zmax;          /* height range for the ramp */
    double sw;                  /* stroke width for 1 "pixel" */
    /* the grid's labels: source axes along the plan's x and y; yflip: the
     * plan's y is minus that axis (RMesh -z, RMF -y) */
    const char *xname, *yname;
    int yflip;
    double plan_y1;             /* bottom of the plan (the legend is below) */
    char text[400];             /* rrb_svg_legend's line */
    rrb_svg_keyent keys[RRB_SVG_KEYS];
    int nkeys;
} rrb_svg;

/* The colour of height z on the ramp from blue (zmin) to red (zmax). */
void rrb_svg_ramp(char *dst, size_t cap, const rrb_svg *s, double z);
/* Pads the drawn area, leaves room for the legend, writes the header,
 * title and background. */
void rrb_svg_head(rrb_svg *s, const char *title);
/* The line of text above the legend's entries (what the view shows). */
void rrb_svg_legend(rrb_svg *s, const char *text);
/* Text for an XML element or attribute (& < > " escaped). */
void rrb_xml_text(FILE *f, const char *t);
/* A legend entry: a swatch of the kind and colour, and its label. */
void rrb_svg_key(rrb_svg *s, int kind, const char *colour, const char *label);

/* glTF 2.0 (rrb_cli_gltf.c): a binary buffer of accessors, one buffer view
 * each, written after the JSON as a base64 data URI (.gltf) or as the
 * binary chunk of a .glb. */
typedef struct rrb_gltf_acc {
    size_t off, len;            /* byte range in the buffer (one view each) */
    int ctype;                  /* 5126 float, 5123 u16, 5125 u32 */
    uint32_t count;
    const char *type;           /* SCALAR, VEC3, ... */
    int target;                 /* 34962 vertex data, 34963 indices, 0 none */
    int minmax;                 /* write min/max (VEC3 positions, SCALAR times) */
    double mn[3], mx[3];
} rrb_gltf_acc;

typedef struct rrb_gltf {
    rrb_buf buf;
    rrb_gltf_acc *a;
    size_t na, cap;
} rrb_gltf;

/* Start an accessor (4-byte aligned); its index. */
uint32_t rrb_gltf_begin(rrb_gltf *g, int ctype, const char *type, int target);
/* n floats, tracking min/max of the first three. */
void rrb_gltf_floats(rrb_gltf *g, uint32_t a, const double *v, int n);
void rrb_gltf_end(rrb_gltf *g, uint32_t a, uint32_t count, int minmax);
/* ,"accessors":[..],"bufferViews":[..],"buffers":[{"byteLength":N  (save closes it) */
void rrb_gltf_tables(FILE *jf, const rrb_gltf *g);
/* Binary .glb wanted: the output name ends in .glb, or force (convert --glb). */
int rrb_gltf_binary(const char *out_path, int force);
/* The JSON, with "%IBM%" (if any) replaced by ibm; .gltf: the buffer as a
 * base64 data URI; binary: a .glb (JSON chunk padded with spaces, BIN chunk
 * with zeros, both to 4 bytes). */
int rrb_gltf_save(const char *out_path, const char *json, uint32_t ibm, const rrb_gltf *g,
                  int binary);
/* A texture file name as a JSON string holding a relative URI (%XX escapes). */
void rrb_gltf_uri(FILE *jf, const char *name);
void rrb_gltf_free(rrb_gltf *g);

#endif

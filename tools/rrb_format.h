/* rrb_format.h - what every source-format module of rrbake provides.
 *
 * A module (tools/rrb_<fmt>*.c) defines one `const rrb_format rrb_format_<fmt>`.
 * rrbake finds them through rrb_formats[] (rrb_formats.c); every hook except
 * name/probe may be NULL while a module is incomplete ("not supported yet").
 *
 * Conventions for every hook:
 *  - input is the whole file in memory (data, size) and its path (for messages);
 *  - output goes to `out`; errors are written to err as
 *    "path:0xOFFSET: expected ..., found ..." (rrb_util.h) and the hook
 *    returns non-zero. Warnings go to stderr prefixed "path: warning: ".
 */
#ifndef RRB_FORMAT_H
#define RRB_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rrb_blob.h"
#include "rrb_util.h"

typedef struct rrb_opts {
    int big_endian;       /* target byte order */
    int strict;           /* warnings become errors (e.g. ROO checksum) */
    int room_scale;       /* RMesh: apply RoomScale = 8/2048 */
    int collision_only;   /* leave render data out */
    int skip_hidden;      /* RMF: skip hidden visgroups */
    int quiet;            /* no warnings on stderr */
    /* RMF: contents rules "class=contents,prefix*=contents" tried before the
     * default table (contents: solid, water, trigger, nonsolid or a number);
     * NULL = the RRB_RMF_CONTENTS environment variable, if set. */
    const char *contents_rules;
    /* RMesh: CBRE-EX entity definitions (a JSON file or a folder of them) */
    const char *entity_defs;
} rrb_opts;

/* The options of info, verify and dump (their hooks take none): set by the
 * command line before it calls a text hook (strict, quiet, entity_defs). */
extern rrb_opts rrb_text_opts;

/* A text hook (info, info --json, verify, dump --json): writes its report of
 * the file to out; non-zero with the message in err when it fails. A module
 * declares its hooks with this type (rrb_<fmt>.h). */
typedef int rrb_text_hook(const uint8_t *data, size_t size, const char *path, FILE *out,
                          char *err, size_t errcap);
typedef rrb_text_hook *rrb_text_fn;

/* The CLI's view of one format's blobs (rrb_cli.h): what `rrbake info`,
 * `query`, `preview` and `convert` do with an opened room of that format.
 * A module defines them in tools/rrb_<fmt>_cli.c; the command files
 * (rrb_cli_*.c) only dispatch through them, so a new format needs no edit
 * there. Any pointer may be NULL: the commands then say the format has no
 * such output. Hooks that fail write the message to err and return non-zero. */
struct rrb_cli_room;
struct rrb_query;
struct rrb_obj;
struct rrb_svg;

/* One `rrbake query` command. The shared parser checks the argument count
 * and converts numeric arguments (source units -> coords, rrb_query.c/v)
 * before run() is called with the raw arguments; --help shows "name args"
 * and help, whose further lines ('\n') are indented. */
typedef struct rrb_query_cmd {
    const char *name;
    int nmin, nmax;         /* argument counts; negative: not numbers (run() parses them) */
    uint32_t plain;         /* bit i set: numeric argument i is a plain number, no coordinate */
    int (*run)(struct rrb_query *q, int argc, char **argv);   /* 0 ok, 1 failed, 2 usage */
    const char *args;       /* "X Y" */
    const char *help;       /* what it gives */
} rrb_query_cmd;

typedef struct rrb_room_hooks {
    uint32_t format;        /* the enum rr_format of the blobs these hooks read */
    /* The format's part of `rrbake info` for a blob (text lines, or JSON fields). */
    void (*summary)(const rr_room *room, FILE *out, int json);
    const rrb_query_cmd *queries;   /* ends with {0} */
    const char *query_title;        /* "roo (Meridian 59)": heads its commands in --help */
    /* OBJ geometry (rrb_cli_geom.c opens the files and writes the header). */
    int (*write_obj)(struct rrb_obj *o, const struct rrb_cli_room *r, int render, char *err,
                     size_t errcap);
    /* SVG plan: sets the drawn area, then rrb_svg_head(), then draws. */
    int (*write_svg)(struct rrb_svg *s, const struct rrb_cli_room *r, char *err, size_t errcap);
    /* The format's own `rrbake convert` target besides .obj (which write_obj
     * gives): the output name's ending without the dot ("map"), its writer. */
    const char *convert_ext;
    int (*convert)(const struct rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                   size_t errcap);
    /* Where a point of the room (coords: x y for ROO, x y z for the 3D
     * formats) lies on write_svg's plan, in the plan's units (query --svg). */
    void (*plan_xy)(const rr_room *room, const int32_t *c, double xy[2]);
} rrb_room_hooks;

typedef struct rrb_format {
    const char *name;        /* short id: "rmesh", "rmf", "roo", "emi" */
    const char *desc;        /* one line for --help */
    /* Non-zero if data/path look like this format (magic first, extension second). */
    int (*probe)(const uint8_t *data, size_t size, const char *path);
    rrb_text_fn info;        /* human summary */
    rrb_text_fn info_json;   /* one JSON object, fields as the issues list them */
    rrb_text_fn verify;      /* full consistency check; prints "ok" lines or problems */
    rrb_text_fn dump_json;   /* whole content as JSON */
    /* Bake to a blob (not finished: rrbake sets the byte order). NULL + err on failure. */
    rrb_blob *(*bake)(const uint8_t *data, size_t size, const char *path,
                      const rrb_opts *opts, char *err, size_t errcap);
    /* Write the project's own sample file(s) of this format into directory dir. */
    int (*sample)(const char *dir, char *err, size_t errcap);
    const rrb_room_hooks *room;     /* the CLI commands on its blobs */
    /* Folders: calls each() with the path of every file this one takes in
     * when it is baked (an EMI manifest's members; the .meshb and .animb a
     * .sklb picks up beside it), and returns 1 if the file is a room source
     * on its own, 0 if it is only a part of one (an EMI .meshb or .animb).
     * NULL: every file of the format is a room source that takes in no other. */
    int (*parts)(const uint8_t *data, size_t size, const char *path,
                 void (*each)(void *ctx, const char *part), void *ctx);
    /* info (which 0), verify (1) or dump --json (2) of a file that only
     * names the files of one room (an EMI figure manifest): the format's
     * text hooks run on each file it names. Returns -1 when the file is not
     * such a list (the text hooks take it), else 0 ok, 1 failed (messages
     * on errf). NULL: the format has no such files. */
    int (*members)(const uint8_t *data, size_t size, const char *path, int which, int json,
                   FILE *out, FILE *errf);
} rrb_format;

/* The modules' room hooks (tools/rrb_<fmt>_cli.c). */
extern const rrb_room_hooks rrb_rmesh_room, rrb_rmf_room, rrb_roo_room, rrb_emi_room;

/* The modules, by slot; a slot is NULL while its module is not linked in. */
#define RRB_NFORMATS 4
extern const rrb_format *const rrb_formats[RRB_NFORMATS];
/* The module that recognises the file, or NULL. */
const rrb_format *rrb_detect(const uint8_t *data, size_t size, const char *path);
/* Module by name, or NULL. */
const rrb_format *rrb_format_by_name(const char *name);
/* The module whose blobs have this enum rr_format (rr_room.format), or NULL
 * (RR_FMT_RAW, or a module without room hooks). */
const rrb_format *rrb_format_of_room(uint32_t room_format);
/* Its room hooks, or NULL. */
const rrb_room_hooks *rrb_room_hooks_of(uint32_t room_format);
/* "rmesh", ... for a room format; "raw" and "unknown" for the others. */
const char *rrb_room_format_name(uint32_t room_format);

/* The modules in the order help and messages list them (the order the formats
 * were added: roo, rmesh, rmf, emi); rrb_formats[] is the detection order. */
extern const rrb_format *const rrb_formats_listed[RRB_NFORMATS];
/* "roo, rmesh or rmf": the names of the listed formats whose room hooks pass
 * has(), written to dst. */
void rrb_format_names(char *dst, size_t cap, int (*has)(const rrb_room_hooks *h));

#endif

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
} rrb_opts;

typedef int (*rrb_text_fn)(const uint8_t *data, size_t size, const char *path,
                           FILE *out, char *err, size_t errcap);

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
} rrb_format;

/* The modules, by slot; a slot is NULL while its module is not linked in. */
#define RRB_NFORMATS 4
extern const rrb_format *const rrb_formats[RRB_NFORMATS];
/* The module that recognises the file, or NULL. */
const rrb_format *rrb_detect(const uint8_t *data, size_t size, const char *path);
/* Module by name, or NULL. */
const rrb_format *rrb_format_by_name(const char *name);

#endif

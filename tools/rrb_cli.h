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
} rrb_cli_room;

/* Open a blob (little-endian) or bake a source file in memory and open it. */
int rrb_cli_open(const char *path, rrb_cli_room *r, char *err, size_t errcap);
void rrb_cli_close(rrb_cli_room *r);

/* Value in source units -> coords (round half away from zero); -1 when it
 * does not fit an int32. */
int rrb_cli_to_coord(double v, unsigned frac, int32_t *out);
/* Strict number parse of a whole argument; -1 when it is not a number. */
int rrb_cli_num(const char *s, double *v);

/* Subcommands: argv excludes the command name; out/errf receive the output
 * and error messages. Return 0 ok, 1 failure, 2 usage error. */
int rrb_cli_query(int argc, char **argv, FILE *out, FILE *errf);
int rrb_cli_preview(int argc, char **argv, FILE *out, FILE *errf);
int rrb_cli_convert(int argc, char **argv, FILE *out, FILE *errf);

/* EMI figure manifests (.emi): info (which 0), verify (1), dump (2) run the
 * module's hooks on every file the manifest names. */
int rrb_cli_is_manifest(const rrb_format *f, const uint8_t *d, size_t n, const char *path);
int rrb_cli_manifest(const uint8_t *d, size_t n, const char *path, const rrb_format *f,
                     int which, int json, FILE *out, FILE *errf);

/* The format-specific part of `rrbake info` for an opened blob. */
int rrb_cli_room_info(const rr_room *room, FILE *out, int json);

extern const char rrb_cli_usage_query[], rrb_cli_usage_preview[], rrb_cli_usage_convert[];

/* Geometry export shared by preview and convert (rrb_cli_geom.c). */
int rrb_cli_write_obj(const rrb_cli_room *r, const char *out_path, int render, FILE *log,
                      char *err, size_t errcap);
int rrb_cli_write_svg(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t errcap);
int rrb_cli_write_map(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t errcap);
int rrb_cli_write_gltf(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                       size_t errcap);

#endif

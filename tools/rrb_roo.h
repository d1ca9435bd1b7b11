/* rrb_roo.h - Meridian 59 room files (.roo, versions 12-15): the in-memory
 * model, its reader, writer, sample and malformed-variant generator.
 *
 * Layout: specs/meridian59-roo.txt as corrected by specs/NOTES.md §1.
 * The model keeps every field of the file. Geometry that is i32 in v12/13
 * and f32 in v14/15 is held as double: both convert to double exactly, so
 * read -> write gives back the same bytes for every version.
 *
 *   rrb_roo r;
 *   if (rrb_roo_read(data, size, path, &r, err, sizeof err)) ... // err: "path:0xOFF: ..."
 *   rrb_roo_write(&r, &buf);      // bytes, offsets and security recomputed
 *   rrb_roo_free(&r);
 */
#ifndef RRB_ROO_H
#define RRB_ROO_H

#include <stddef.h>
#include <stdint.h>

#include "rrb_format.h"
#include "rrb_util.h"

#define RRB_ROO_MAGIC 0xB14F4F52u      /* "ROO\xB1" read as little-endian u32 */
#define RRB_ROO_SECURITY_XOR 0x89AB786Cu
#define RRB_ROO_NODE_INTERNAL 1
#define RRB_ROO_NODE_LEAF 2
#define RRB_ROO_SF_DEPTH_MASK 0x0003u  /* sector flags, NOTES §1.8 */
#define RRB_ROO_SF_SLOPED_FLOOR 0x0400u
#define RRB_ROO_SF_SLOPED_CEILING 0x0800u
#define RRB_ROO_SF_NOMOVE 0x2000u
#define RRB_ROO_WF_PASSABLE 0x0004u    /* sidedef flags, spec "wall flags" */
#define RRB_ROO_WF_TRANSPARENT 0x0002u
#define RRB_ROO_WF_NOLOOKTHROUGH 0x0020u

typedef struct rrb_roo_node {
    uint8_t type;               /* 1 internal, 2 leaf */
    double box[4];              /* x0, y0, x1, y1 (i32 or f32 as stored) */
    /* internal */
    double a, b, c;             /* separator a*x + b*y + c (i32 or f32) */
    uint16_t pos, neg;          /* 1-based child node, 0 = none */
    uint16_t first_wall;        /* 1-based client wall, 0 = none */
    /* leaf */
    uint16_t sector;            /* 1-based */
    uint16_t npoints;
    uint32_t first_point;       /* index into rrb_roo.points (x, y pairs) */
    size_t off;                 /* file offset of the record (messages) */
} rrb_roo_node;

typedef struct rrb_roo_wall {   /* client wall, NOTES §1.5 */
    uint16_t next, pos_sidedef, neg_sidedef;
    double x0, y0, x1, y1;
    double length;              /* u16 in v12/13, f32 in v14/15 */
    uint16_t pos_xoff, neg_xoff, pos_yoff, neg_yoff;
    uint16_t pos_sector, neg_sector;
    size_t off;
} rrb_roo_wall;

typedef struct rrb_roo_ewall {  /* editor wall, NOTES §1.6 */
    uint16_t sidedef1, sidedef2;
    int16_t xoff1, xoff2, yoff1, yoff2;
    int16_t sector1, sector2;   /* 0-based, -1 = none */
    int32_t x0, y0, x1, y1;     /* raw (v12/13: only the low 16 bits mean anything) */
} rrb_roo_ewall;

typedef struct rrb_roo_sidedef {
    uint16_t id, normal, above, below;
    uint32_t flags;
    uint8_t speed;
} rrb_roo_sidedef;

typedef struct rrb_roo_slope {
    double a, b, c, d;          /* i32 (v12/13) or f32 (v14/15) */
    int32_t tex_x, tex_y, tex_angle;
    int16_t vert[3][3];         /* editor x, editor y, z */
} rrb_roo_slope;

typedef struct rrb_roo_sector {
    uint16_t id, floor_bitmap, ceiling_bitmap;
    uint16_t tex_x, tex_y;
    uint16_t floor_h, ceiling_h;  /* KOD units (client = value * 16) */
    uint8_t light;
    uint32_t flags;
    uint8_t speed;
    rrb_roo_slope floor, ceiling; /* valid when the flag bits say so */
    size_t off;
} rrb_roo_sector;

typedef struct rrb_roo_thing {  /* 2-corner form uses only x, y */
    int32_t type, angle, x, y, when, exit_x, exit_y, flags;
    char comment[64];
} rrb_roo_thing;

typedef struct rrb_roo {
    int32_t version;
    int32_t security;           /* as stored */
    int32_t security_calc;      /* recomputed, NOTES §1.13 */
    int32_t main_offset, server_offset;
    int32_t width, height;
    int32_t offsets[6];         /* nodes, walls, editor walls, sidedefs, sectors, things */
    uint32_t nnodes, nleaves, npoints, nwalls, newalls, nsidedefs, nsectors, nthings;
    uint32_t nslopes;           /* floor + ceiling slopes */
    rrb_roo_node *nodes;
    double *points;             /* npoints x (x, y) */
    rrb_roo_wall *walls;
    rrb_roo_ewall *ewalls;
    rrb_roo_sidedef *sidedefs;
    rrb_roo_sector *sectors;
    rrb_roo_thing *things;
    int has_room_id;
    int32_t room_id;
    /* server section: v12-14 */
    int has_grids, has_hires;
    int32_t rows, cols, rows_hr, cols_hr;
    uint8_t *move_grid, *flag_grid, *monster_grid;   /* rows*cols each */
    uint32_t *hires_grid;                            /* rows_hr*cols_hr */
    uint32_t depth;             /* deepest node, root = 1 */
    size_t end;                 /* offset after the last byte read */
} rrb_roo;

/* The rrbake module (its descriptor is in rrb_roo_cli.c). */
extern const rrb_format rrb_format_roo;

/* Parse a whole .roo file. Returns 0, or -1 with "path:0xOFF: ..." in err. */
int rrb_roo_read(const uint8_t *data, size_t size, const char *path, rrb_roo *r,
                 char *err, size_t errcap);
void rrb_roo_free(rrb_roo *r);
/* The security value of §1.13 computed from the model. */
int32_t rrb_roo_security(const rrb_roo *r);
/* The format's inspection hooks (rrb_format.h: probe, info, info_json,
 * verify, dump_json); the module's descriptor is in rrb_roo_cli.c. */
int rrb_roo_probe(const uint8_t *data, size_t size, const char *path);
rrb_text_hook rrb_roo_info, rrb_roo_info_json, rrb_roo_verify, rrb_roo_dump_json;
/* Serialise the model (sections contiguous from offset 20, offsets and
 * server_offset recomputed; security written as r->security). */
void rrb_roo_write(const rrb_roo *r, rrb_buf *out);
/* The project's hand-made sample room as a model (version 15 unless asked). */
void rrb_roo_make_sample(rrb_roo *r, int32_t version);
int rrb_roo_sample(const char *dir, char *err, size_t errcap);

/* Bake (rrb_roo_bake.c): the rrbake hook, and the same from a model. The
 * blob is not finished (rrb_blob_finish sets the byte order). */
rrb_blob *rrb_roo_bake(const uint8_t *data, size_t size, const char *path,
                       const rrb_opts *opts, char *err, size_t errcap);
rrb_blob *rrb_roo_bake_model(const rrb_roo *r, size_t source_size, const char *path,
                             const rrb_opts *opts, char *err, size_t errcap);
/* The baker's coefficient rounding, exposed for the tests: round half away
 * from zero of v * 2^shift. */
int64_t rrb_roo_round_scaled(double v, int shift);
/* coord_frac the baker picks for a room (or -1 when it cannot hold it). */
int rrb_roo_coord_frac(const rrb_roo *r, double *max_abs);

/* Malformed variants of a valid file, for the tests. */
typedef struct rrb_roo_variant {
    char name[64];
    uint8_t *data;              /* malloc'd */
    size_t size;
    const char *expect;         /* a substring the reader's message must contain */
} rrb_roo_variant;
/* Builds the variants of the model r (which must have been read from, or be
 * writable as, a valid file). Returns the count; *out is malloc'd. */
size_t rrb_roo_variants(const rrb_roo *r, rrb_roo_variant **out);
void rrb_roo_variants_free(rrb_roo_variant *v, size_t n);

#endif

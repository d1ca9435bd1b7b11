/* rrb_rmesh.h - SCP - Containment Breach / CBRE-EX room meshes (.rmesh) on the
 * host: the scene model, the reader, the writer and the baker.
 *
 * Layout (NOTES.md §3 wins over the spec documents), little-endian:
 *   B3D string header: "RoomMesh" [".HasTriggerBox"] [".HasNoColl"]
 *   visible block      i32 n; n x surface (slot0, slot1, verts, tris)
 *   invisible block    i32 n; n x simple mesh (i32 nv, nv x f32[3], i32 nt, nt x i32[3])
 *   no-collision block (only .HasNoColl) same layout as the visible block
 *   trigger block      (only .HasTriggerBox) i32 n; n x {i32 nsurf, nsurf x simple mesh,
 *                      B3D string name}
 *   entity block       i32 n; n x {B3D class name, class fields}
 *   trailer            vanilla converter: B3D string "EOF"; scpcbredux: see below.
 *
 * The `RM` variant (CBRE-EX's "1.3.12" export, NOTES §3.9) has its own order:
 *   B3D string "RM", u8 version (0 or 1), visible block, no-collision block
 *   (i32 count first, always present), invisible block, trigger block (always
 *   present), entity block.
 *
 * A texture slot is a u8 flag, then a B3D string iff the flag is non-zero.
 * The reader keeps every byte it needs to write the file back identically
 * (strings keep their stored length, floats their bits).
 */
#ifndef RRB_RMESH_H
#define RRB_RMESH_H

#include <stddef.h>
#include <stdint.h>

#include "rrb_format.h"

/* A B3D string as stored: len bytes (may hold NULs), plus a NUL after them. */
typedef struct rrb_rm_str {
    uint32_t len;
    char *s;
} rrb_rm_str;

typedef struct rrb_rm_vert {
    float pos[3];
    float uv0[2];     /* diffuse UV (coord set 0) */
    float uv1[2];     /* lightmap UV (coord set 1) */
    uint8_t rgb[3];
} rrb_rm_vert;

/* One visible surface (a "texture" in the specs). */
typedef struct rrb_rm_surf {
    uint8_t flag[2];       /* slot 0 = lightmap slot, slot 1 = diffuse slot */
    rrb_rm_str tex[2];     /* empty (len 0, s "") when the flag is 0 */
    uint32_t nverts, ntris;
    rrb_rm_vert *verts;
    uint32_t *idx;         /* 3 x ntris, each < nverts (checked) */
} rrb_rm_surf;

/* Invisible-collision mesh, or one surface of a trigger box. */
typedef struct rrb_rm_mesh {
    uint32_t nverts, ntris;
    float *pos;            /* 3 x nverts */
    uint32_t *idx;         /* 3 x ntris */
} rrb_rm_mesh;

typedef struct rrb_rm_trigger {
    uint32_t nsurf;
    rrb_rm_mesh *surf;
    rrb_rm_str name;
} rrb_rm_trigger;

/* The game's entity classes (NOTES §3.6; the ones a blob holds), then the
 * CBRE-EX custom entities (§3.7): `door` and `item` in the fixed layouts of
 * the RoomMesh export path, and any class decoded through JSON definitions. */
enum rrb_rm_class {
    RRB_RM_SCREEN, RRB_RM_WAYPOINT, RRB_RM_LIGHT, RRB_RM_SPOTLIGHT,
    RRB_RM_SOUNDEMITTER, RRB_RM_PLAYERSTART, RRB_RM_MODEL, RRB_RM_NCLASSES,
    RRB_RM_DOOR = RRB_RM_NCLASSES, RRB_RM_ITEM, RRB_RM_CUSTOM
};
extern const char *const rrb_rm_class_names[RRB_RM_NCLASSES];

/* CBRE-EX property types, numbered as its VariableType enum. */
enum rrb_rm_ptype {
    RRB_RM_BOOL = 1, RRB_RM_COLOR255, RRB_RM_FLOAT, RRB_RM_INTEGER, RRB_RM_STRING,
    RRB_RM_VECTOR, RRB_RM_CHOICES, RRB_RM_NPTYPES
};
extern const char *const rrb_rm_ptype_names[RRB_RM_NPTYPES];   /* "Bool", ... ([0] "") */

/* One property of a custom entity, as stored (NOTES §3.7): Bool 1 byte,
 * Integer i32, Float f32, String and Color255 a B3D string, Vector 3 x f32
 * (unswapped X, Y, Z), Choices nothing. */
typedef struct rrb_rm_prop {
    char *name;
    int type;              /* enum rrb_rm_ptype */
    uint8_t b;             /* Bool, the byte as stored */
    int32_t i;             /* Integer */
    float v[3];            /* Float: v[0]; Vector: x, y, z */
    rrb_rm_str s;          /* String, Color255 ("R G B") */
} rrb_rm_prop;

/* Entity definitions (CBRE-EX's Entities folder, one .json per class; tools/rrb_rmesh_defs.c):
 * per class its properties in definition order, without `position` and
 * without the ones CBRE-EX itself skips (no name, unknown type). */
typedef struct rrb_rm_propdef {
    char *name;
    int type;
} rrb_rm_propdef;

typedef struct rrb_rm_classdef {
    char *name;
    char *file;            /* the JSON file it came from */
    uint32_t nprops;
    rrb_rm_propdef *props;
} rrb_rm_classdef;

typedef struct rrb_rm_defs {
    uint32_t n;
    rrb_rm_classdef *cls;
} rrb_rm_defs;

/* Load definitions from one JSON file (one entity object, or an array of
 * them) or from a folder (every *.json in it, as CBRE-EX's Entities folder;
 * the first file that defines a class wins, in name order). Returns 0, or -1
 * with "file:LINE:COL: expected ..., found ..." in err. Problems CBRE-EX
 * itself skips over (a property without a name or with an unknown type) are
 * skipped the same way, with a warning to warn (NULL: silent). */
int rrb_rm_defs_load(const char *path, rrb_rm_defs *d, FILE *warn, char *err, size_t errcap);
void rrb_rm_defs_free(rrb_rm_defs *d);
/* The class named name, or NULL. */
const rrb_rm_classdef *rrb_rm_defs_find(const rrb_rm_defs *d, const char *name, uint32_t len);
/* Parse JSON definitions held in memory (name: for messages). */
int rrb_rm_defs_parse(const char *text, size_t len, const char *name, rrb_rm_defs *d, FILE *warn,
                      char *err, size_t errcap);

typedef struct rrb_rm_entity {
    int cls;               /* enum rrb_rm_class */
    rrb_rm_str classname;  /* as stored */
    float pos[3];
    /* screen: str = image path. light/spotlight: str = colour "R G B",
     * str2 = angles (spotlight). playerstart: str = angles. model: str = file. */
    rrb_rm_str str, str2;
    float range, intensity;  /* light, spotlight; range also soundemitter */
    int32_t inner, outer;    /* spotlight cone angles */
    int32_t sound;           /* soundemitter ambience index */
    float rot[3], scale[3];  /* model: pitch/yaw/roll (degrees), scale */
    uint32_t nprops;         /* custom entities (cls >= RRB_RM_NCLASSES) */
    rrb_rm_prop *props;
} rrb_rm_entity;

enum rrb_rm_variant {
    RRB_RM_VANILLA,     /* SCP-CB converter: "EOF" trailer */
    RRB_RM_CBRE,        /* CBRE / CBRE-EX: no trailer */
    RRB_RM_SCPCBREDUX,  /* scpcbredux writer: trigger count always written */
    RRB_RM_VBP          /* VirtualBrightPlayz CBRE fork (.HasNoColl, flag-2 lightmaps w/o trailer) */
};
extern const char *const rrb_rm_variant_names[4];

typedef struct rrb_rmesh {
    rrb_rm_str header;         /* "RoomMesh..." or "RM" */
    int rm;                    /* 1: the RM variant (header "RM" + version byte) */
    uint8_t rm_version;        /* RM: 0 or 1 */
    int has_trigger, has_nocoll;   /* the block is in the file (RM: always) */
    uint32_t nsurf, ninvis, nnocoll, ntrig, nents;
    rrb_rm_surf *surf;
    rrb_rm_surf *nocoll;       /* .HasNoColl block */
    rrb_rm_mesh *invis;
    rrb_rm_trigger *trig;
    rrb_rm_entity *ents;
    int eof_trailer;           /* vanilla "EOF" B3D string after the entities */
    int redux_trigcount;       /* scpcbredux: a 0 trigger count before the entity count */
    int variant;               /* enum rrb_rm_variant */
    /* Graceful reading: the entity list reached a custom class the reader
     * cannot decode (no definitions for it). nents entities were decoded;
     * `undecoded` more records follow from offset undecoded_at, kept as raw
     * bytes (tail, to the end of the file) so the writer reproduces the file. */
    uint32_t undecoded;
    size_t undecoded_at;
    rrb_rm_str undecoded_class;
    uint8_t *tail;
    size_t ntail;
    size_t parse_end;          /* offset where the standard (vanilla) reading ends */
    size_t size;
} rrb_rmesh;

/* Parse a whole file. Returns 0, or -1 with "path:0xOFF: expected ..., found ..."
 * in err. On failure *m is left empty (nothing to free). Custom entities are
 * decoded with defs (may be NULL); see undecoded above for what happens at a
 * class that cannot be decoded. */
int rrb_rmesh_read(const uint8_t *data, size_t size, const char *path, rrb_rmesh *m,
                   char *err, size_t errcap);
int rrb_rmesh_read_defs(const uint8_t *data, size_t size, const char *path,
                        const rrb_rm_defs *defs, rrb_rmesh *m, char *err, size_t errcap);
/* What the commands use: the definitions of opts->entity_defs (loaded once
 * per path), then the reader; a file left partly undecoded is an error with
 * opts->strict, else one warning to warn (unless opts->quiet). */
int rrb_rmesh_load(const uint8_t *data, size_t size, const char *path, const rrb_opts *opts,
                   FILE *warn, rrb_rmesh *m, char *err, size_t errcap);
/* The warning (or, strict, the error) text for a partly undecoded file. */
void rrb_rmesh_undecoded_msg(const rrb_rmesh *m, const char *path, int strict, char *out,
                             size_t cap);
void rrb_rmesh_free(rrb_rmesh *m);

/* Counts of a model, for info and verify. */
typedef struct rrb_rmesh_stat {
    uint64_t verts, tris, alpha_tris, invis_tris, invis_verts, nocoll_tris, zero_area;
    uint32_t by_class[RRB_RM_NCLASSES], ignored, custom;
    uint32_t flags_seen[2][4];
    double bmin[3], bmax[3];
} rrb_rmesh_stat;
void rrb_rmesh_stats(const rrb_rmesh *m, rrb_rmesh_stat *st);

/* The format's inspection hooks (rrb_format.h); verify, which checks that
 * the writer reproduces the file, is in rrb_rmesh_write.c, and the
 * module's descriptor in rrb_rmesh_cli.c. */
int rrb_rmesh_probe(const uint8_t *data, size_t size, const char *path);
rrb_text_hook rrb_rmesh_info, rrb_rmesh_info_json, rrb_rmesh_verify, rrb_rmesh_dump_json;

/* Serialise the model (the exact inverse of the reader). */
void rrb_rmesh_write(const rrb_rmesh *m, rrb_buf *out);
/* Deep equality of two models (floats compared bitwise). 1 if equal. */
int rrb_rmesh_equal(const rrb_rmesh *a, const rrb_rmesh *b);

/* Alpha rule (NOTES §3.3, §6.6): the last slot with a non-zero flag and a
 * non-empty name decides; the surface is alpha when that slot's flag is 3. */
int rrb_rmesh_surf_alpha(const rrb_rm_surf *s);
/* The game ignores lights, spotlights and screens at exactly (0,0,0) (§6.4). */
int rrb_rmesh_entity_ignored(const rrb_rm_entity *e);

/* The project's hand-made sample room (see docs/rmesh.md). */
void rrb_rmesh_sample_model(rrb_rmesh *m);
/* The same room in the RM variant (version 0 or 1), with or without its trigger box. */
void rrb_rmesh_sample_rm_model(rrb_rmesh *m, int version, int with_triggers);
/* The sample room with a CBRE-EX door and item (sample_custom.rmesh). */
void rrb_rmesh_sample_custom_model(rrb_rmesh *m);
int rrb_rmesh_sample(const char *dir, char *err, size_t errcap);

/* Malformed variants of a valid file, for the tests: variant k (0 .. count-1)
 * writes a damaged copy of `src` to out and a short label. Returns 0, or -1
 * when k is out of range. Every variant must be rejected by the reader. */
int rrb_rmesh_malformed_count(void);
int rrb_rmesh_malformed(const uint8_t *src, size_t size, int k, rrb_buf *out,
                        const char **label);

/* Collision soup used by the baker and the host reference: opaque visible +
 * invisible triangles in file order (alpha and no-collision surfaces left out),
 * with the surface id of each (visible surface index, or nsurf + invisible mesh
 * index). Degenerate (zero-area) triangles are included; the baker drops them. */
typedef struct rrb_rm_soup {
    size_t ntris;
    double *v;          /* 9 x ntris: x0 y0 z0 x1 y1 z1 x2 y2 z2 */
    uint32_t *surface;  /* ntris */
} rrb_rm_soup;
void rrb_rmesh_soup(const rrb_rmesh *m, double scale, rrb_rm_soup *s);
void rrb_rmesh_soup_free(rrb_rm_soup *s);

/* Bake (tools/rrb_rmesh_bake.c). */
rrb_blob *rrb_rmesh_bake(const uint8_t *data, size_t size, const char *path,
                         const rrb_opts *opts, char *err, size_t errcap);
/* Bake an already-parsed model. */
rrb_blob *rrb_rmesh_bake_model(const rrb_rmesh *m, const char *path, const rrb_opts *opts,
                               char *err, size_t errcap);

extern const rrb_format rrb_format_rmesh;

#endif

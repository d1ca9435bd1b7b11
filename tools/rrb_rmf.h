/* rrb_rmf.h - Worldcraft / Hammer RMF (versions 0.8, 0.9, 1.4, 1.6, 1.8, 2.2):
 * the in-memory map model, its reader, writer, sample and malformed-variant
 * generator, and the brush baker (layouts: specs/NOTES.md §2, §6.1-6.3, §7.4).
 *
 *   rrb_rmf_map m;
 *   if (rrb_rmf_read(data, size, path, &m, err, sizeof err)) { puts(err); }
 *   ... m.objs[i] (pre-order, file order), m.faces, m.visgroups ...
 *   rrb_rmf_write(&m, &buf);      // same version: byte-identical to the source
 *   rrb_rmf_free(&m);
 *
 * The object tree is kept flat in file (pre-)order: objs[0] is the world and
 * every object knows its parent, so no code walks it recursively. Fields the
 * format does not explain (padding, unknown words, raw string bytes) are kept
 * as stored so that the writer reproduces a file byte for byte.
 */
#ifndef RRB_RMF_H
#define RRB_RMF_H

#include <stddef.h>
#include <stdint.h>

#include "rrb_format.h"
#include "rrb_util.h"

/* Deepest object nesting the reader accepts (world = level 0). Real maps
 * reach 83 (msr_ms_soccer); the reader's stack grows, this only stops a
 * hostile file from nesting millions of groups. */
#define RRB_RMF_MAX_NEST 1024

/* Versions, as round(version * 10). */
enum { RRB_RMF_V08 = 8, RRB_RMF_V09 = 9, RRB_RMF_V14 = 14, RRB_RMF_V16 = 16,
       RRB_RMF_V18 = 18, RRB_RMF_V22 = 22 };

enum rrb_rmf_kind { RRB_RMF_WORLD, RRB_RMF_GROUP, RRB_RMF_SOLID, RRB_RMF_ENTITY };

/* A p_char string: the stored length byte and bytes (usually ending in NUL).
 * s is a NUL-terminated copy (len bytes + 1); text stops at the first NUL. */
typedef struct rrb_rmf_str {
    uint8_t len;
    char *s;
} rrb_rmf_str;

typedef struct rrb_rmf_kv {
    rrb_rmf_str key, value;
} rrb_rmf_kv;

/* Entity data (§2.5), shared by the world and entities. */
typedef struct rrb_rmf_ent {
    rrb_rmf_str classname;
    uint8_t unknown4[4];
    int32_t spawnflags;
    int nkv;
    rrb_rmf_kv *kv;
    uint8_t unknown12[12];  /* >= 1.6 only */
} rrb_rmf_ent;

typedef struct rrb_rmf_face {
    char tex[261];          /* raw char[16/40/260] bytes, NUL-padded */
    float uaxis[3], shift_x, vaxis[3], shift_y, rotation, scale_x, scale_y;
    uint8_t unknown[16];    /* 0 (0.8/0.9), 4 (1.4/1.6) or 16 bytes */
    int nverts;
    float (*verts)[3];
    float plane[3][3];      /* stored plane points */
    size_t off;             /* file offset of the face */
    size_t nverts_off;      /* file offset of the vertex count */
} rrb_rmf_face;

typedef struct rrb_rmf_obj {
    int kind;
    int parent;             /* index in objs, -1 for the world */
    int depth;              /* world = 0 */
    int nchildren;
    int kind_index;         /* n-th solid / entity / group in file order */
    rrb_rmf_str classname;  /* CMapWorld, CMapGroup, CMapSolid, CMapEntity */
    int32_t visgroup;       /* >= 1.4: the id; 0.8/0.9: first non-zero list id */
    int nvislist;           /* 0.8/0.9: the stored id list */
    uint8_t *vislist;
    uint8_t color[3];
    size_t off;             /* file offset of the object */
    size_t count_off;       /* file offset of the child count */
    /* solid */
    int nfaces, first_face; /* faces[first_face .. first_face + nfaces) */
    /* entity / world */
    rrb_rmf_ent ent;
    uint8_t flags[2];       /* entity: 02 00 point / 00 00 brush (unreliable, §6.3) */
    float origin[3];
    uint8_t tail4[4];
} rrb_rmf_obj;

typedef struct rrb_rmf_visgroup {
    char name[129];         /* raw char[128] */
    uint8_t color[4];
    int32_t id;             /* 0.8/0.9: one byte */
    uint8_t visible;
    uint8_t pad[3];         /* 0.8/0.9: 2 bytes */
} rrb_rmf_visgroup;

typedef struct rrb_rmf_pathnode {
    float pos[3];
    int32_t index;
    char name_override[129];
    int nkv;
    rrb_rmf_kv *kv;
} rrb_rmf_pathnode;

typedef struct rrb_rmf_path {
    char name[129], classname[129];
    int32_t type;
    int nnodes;
    rrb_rmf_pathnode *nodes;
} rrb_rmf_path;

typedef struct rrb_rmf_camera {
    float eye[3], look[3];
} rrb_rmf_camera;

typedef struct rrb_rmf_map {
    int version;            /* round(v * 10) */
    uint32_t version_bits;  /* the stored f32, for byte-identical output */
    int nvisgroups;
    rrb_rmf_visgroup *visgroups;
    int nobjs;
    rrb_rmf_obj *objs;
    int nfaces;
    rrb_rmf_face *faces;
    int npaths;
    rrb_rmf_path *paths;
    int has_docinfo;
    uint8_t docinfo_magic[8];
    float docinfo_version;
    int32_t active_camera;
    int ncameras;
    rrb_rmf_camera *cameras;
    /* counts (derived while reading) */
    int nsolids, nentities, ngroups, npoint, nbrush_ent, max_depth;
} rrb_rmf_map;

/* Read a whole file. 0, or -1 with "path:0xOFF: expected ..., found ..." in
 * err (the message names the object, e.g. "solid 12 face 3"). *erroff gets
 * the offset when not NULL. The map is left empty on failure. */
int rrb_rmf_read(const uint8_t *data, size_t size, const char *path, rrb_rmf_map *m,
                 char *err, size_t errcap);
int rrb_rmf_read_off(const uint8_t *data, size_t size, const char *path, rrb_rmf_map *m,
                     char *err, size_t errcap, size_t *erroff);
void rrb_rmf_free(rrb_rmf_map *m);

/* Bytes of a face's texture name (16/40/260) and unknown block (0/4/16)
 * in version v (NOTES §2.6). */
size_t rrb_rmf_tex_len(int v);
size_t rrb_rmf_unk_len(int v);
/* Vertex centroid of a solid (the mean of all its face vertices). */
void rrb_rmf_centroid(const rrb_rmf_map *m, const rrb_rmf_obj *solid, double c[3]);

/* Outward Newell normal (not normalised; length = 2 * area) of a face, in
 * double, from its vertices (stored clockwise seen from outside, §2.7). */
void rrb_rmf_newell(const rrb_rmf_face *f, double n[3]);
/* Outward unit normal and distance of a face's Newell plane; -1 if the
 * face is degenerate (area below RRB_RMF_MIN_AREA). */
#define RRB_RMF_MIN_AREA 1e-4
int rrb_rmf_face_plane(const rrb_rmf_face *f, double n[3], double *d);
/* Largest vertex distance from its Newell plane accepted by verify (units). */
#define RRB_RMF_PLANE_TOL 0.25

/* Owning entity of an object (itself if it is an entity, the world index 0
 * otherwise). */
int rrb_rmf_owner(const rrb_rmf_map *m, int obj);
/* Value of key in entity data, or NULL. */
const char *rrb_rmf_value(const rrb_rmf_ent *e, const char *key);
/* Non-zero if the object or any ancestor is in a hidden visgroup. */
int rrb_rmf_hidden(const rrb_rmf_map *m, int obj);

/* Write the map in m->version (0.8 ... 2.2). Fields a version lacks are
 * dropped; fields it has but the map lacks get their usual defaults. */
void rrb_rmf_write(const rrb_rmf_map *m, rrb_buf *out);
/* A map of two floor brushes touching at a seam and a wall (for tests). */
void rrb_rmf_seam_map(rrb_rmf_map *m);
/* Write the sample map (v2.2) to dir/sample.rmf. */
int rrb_rmf_sample(const char *dir, char *err, size_t errcap);
/* The format's inspection hooks (rrb_format.h: probe, info, info_json,
 * verify, dump_json); the module's descriptor is in rrb_rmf_cli.c. */
int rrb_rmf_probe(const uint8_t *data, size_t size, const char *path);
rrb_text_hook rrb_rmf_info, rrb_rmf_info_json, rrb_rmf_verify, rrb_rmf_dump_json;
/* Build the sample map in memory (free with rrb_rmf_free). */
void rrb_rmf_sample_map(rrb_rmf_map *m);

/* Malformed variant k (0, 1, ...) of a parsed file: returns 0 and fills out,
 * desc and *expect_off (the byte offset the reader must name, or (size_t)-1
 * when any offset is fine); returns -1 when k is past the last variant. */
int rrb_rmf_malformed(const uint8_t *data, size_t size, const rrb_rmf_map *m, int k,
                      rrb_buf *out, char *desc, size_t desccap, size_t *expect_off);

/* Bake (rrb_rmf_bake.c). */
rrb_blob *rrb_rmf_bake(const uint8_t *data, size_t size, const char *path,
                       const rrb_opts *opts, char *err, size_t errcap);

/* Bake an already parsed map (tests). */
rrb_blob *rrb_rmf_bake_map(const rrb_rmf_map *m, size_t source_size, const char *path,
                           const rrb_opts *opts, char *err, size_t errcap);

extern const rrb_format rrb_format_rmf;

#endif

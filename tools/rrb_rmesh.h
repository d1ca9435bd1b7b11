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

enum rrb_rm_class {
    RRB_RM_SCREEN, RRB_RM_WAYPOINT, RRB_RM_LIGHT, RRB_RM_SPOTLIGHT,
    RRB_RM_SOUNDEMITTER, RRB_RM_PLAYERSTART, RRB_RM_MODEL, RRB_RM_NCLASSES
};
extern const char *const rrb_rm_class_names[RRB_RM_NCLASSES];

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
    size_t parse_end;          /* offset where the standard (vanilla) reading ends */
    size_t size;
} rrb_rmesh;

/* Parse a whole file. Returns 0, or -1 with "path:0xOFF: expected ..., found ..."
 * in err. On failure *m is left empty (nothing to free). */
int rrb_rmesh_read(const uint8_t *data, size_t size, const char *path, rrb_rmesh *m,
                   char *err, size_t errcap);
void rrb_rmesh_free(rrb_rmesh *m);

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

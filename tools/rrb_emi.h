/* rrb_emi.h - Escape from Monkey Island .meshb / .sklb / .animb on the host:
 * the in-memory model, the three readers (NOTES.md §4), the writers and the
 * seeded generator of valid and malformed files, and the figure baker.
 *
 * One rrb_format "emi" (rrb_format_emi) covers all three kinds; there is no
 * magic, so the probe goes by extension plus the plausibility of the first
 * fields. Baking starts from a .sklb or from a figure manifest (.emi, see
 * docs/emi.md).
 *
 * Reader policy (docs/emi.md has the full table): what ScummVM refuses or what
 * would make the runtime meaningless is an error "path:0xOFF: expected ...,
 * found ..."; what the game accepts is normalized and reported as a warning
 * with its offset (rrb_emi_warns).
 */
#ifndef RRB_EMI_H
#define RRB_EMI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rrb_format.h"
#include "rrb_util.h"

/* Reader limits (source files). */
#define RRB_EMI_MAX_JOINTS 1024      /* joints in a .sklb (baked indices are u16) */
#define RRB_EMI_MAX_SRC_INFL 16      /* influences of one vertex in a .meshb */
#define RRB_EMI_WEIGHT_TOL 1e-3      /* |sum of weights - 1| above this: warning + renormalized */
#define RRB_EMI_QUAT_TOL 1e-3        /* ||q| - 1| above this: warning + normalized */
#define RRB_EMI_QUAT_MIN 1e-6        /* |q| below this: error (no rotation) */
#define RRB_EMI_MAX_PRIORITY 8       /* animation track priority must be < 8 (ScummVM) */

enum { RRB_EMI_MESHB = 1, RRB_EMI_SKLB = 2, RRB_EMI_ANIMB = 3 };
enum { RRB_EMI_OP_POS = 3, RRB_EMI_OP_ROT = 4 };

/* Warnings of one read: every normalization the reader did, with offsets. */
#define RRB_EMI_WARN_KEEP 8
typedef struct rrb_emi_warns {
    unsigned count;                   /* all warnings */
    size_t off[RRB_EMI_WARN_KEEP];    /* offsets of the first ones */
    char msg[RRB_EMI_WARN_KEEP][160];
    FILE *out;                        /* print "path:0xOFF: warning: ..." here (NULL: quiet) */
    const char *path;
} rrb_emi_warns;

/* ---- .sklb ---- */
typedef struct rrb_emi_joint {
    char name[33], parent_name[33];
    int parent;           /* resolved: index of an earlier joint, or -1 (root) */
    float t[3];           /* local translation */
    float q[4];           /* local rotation x, y, z, w (unit after reading) */
} rrb_emi_joint;

typedef struct rrb_emi_skel {
    uint32_t njoints;
    rrb_emi_joint *joints;
} rrb_emi_skel;

/* ---- .meshb ---- */
typedef struct rrb_emi_group {
    uint32_t flags, has_texture, texture, nindices;
    uint16_t *indices;
} rrb_emi_group;

typedef struct rrb_emi_infl {
    uint32_t inc, bone;   /* bone: index into the mesh's bone-name list */
    float weight;
} rrb_emi_infl;

typedef struct rrb_emi_mesh {
    char *name;
    float radius, center[3], box_a[3], box_b[3];
    uint32_t num_tex_sets, set_type;
    uint32_t ntex;
    char **tex;
    uint32_t *tex_flags;
    uint32_t layout;      /* 19, 18 (no normals) or 3 (no UVs) */
    uint32_t nverts;
    float *pos, *nrm, *uv; /* 3, 3 (NULL when layout 18), 2 (NULL when layout 3) per vertex */
    uint8_t *rgba;
    int has_groups;       /* 0 when the stream ended before num_face_groups */
    uint32_t ngroups;
    rrb_emi_group *groups;
    uint32_t has_bones;   /* as stored; bone data only when exactly 1 */
    uint32_t nbones;
    char **bones;
    uint32_t ninfl;
    rrb_emi_infl *infl;   /* weights renormalized per vertex when they did not sum to 1 */
    uint32_t *vert_infl;  /* nverts + 1: influences of vertex v are [vert_infl[v], vert_infl[v+1]) */
} rrb_emi_mesh;

/* ---- .animb ---- */
typedef struct rrb_emi_key {
    float v[4];           /* position x,y,z (op 3) or quaternion x,y,z,w (op 4) */
    float time;           /* seconds */
} rrb_emi_key;

typedef struct rrb_emi_track {
    char *joint;
    uint32_t op, priority, unknown, nkeys;
    rrb_emi_key *keys;
    size_t offset;        /* file offset of the track (for messages) */
} rrb_emi_track;

typedef struct rrb_emi_anim {
    char *name;
    float duration;
    uint32_t ntracks;
    rrb_emi_track *tracks;
} rrb_emi_anim;

/* Readers: 0 on success, -1 with "path:0xOFF: expected ..., found ..." in err.
 * w may be NULL. On failure *out is freed and zeroed. */
int rrb_emi_read_skel(const uint8_t *d, size_t n, const char *path, rrb_emi_skel *out,
                      rrb_emi_warns *w, char *err, size_t errcap);
int rrb_emi_read_mesh(const uint8_t *d, size_t n, const char *path, rrb_emi_mesh *out,
                      rrb_emi_warns *w, char *err, size_t errcap);
int rrb_emi_read_anim(const uint8_t *d, size_t n, const char *path, rrb_emi_anim *out,
                      rrb_emi_warns *w, char *err, size_t errcap);
/* Byte offset of the error of the most recent failed read (tests compare it
 * with the offset the generator planted; rrbake is single-threaded). */
extern size_t rrb_emi_last_err_off;

void rrb_emi_skel_free(rrb_emi_skel *s);
void rrb_emi_mesh_free(rrb_emi_mesh *m);
void rrb_emi_anim_free(rrb_emi_anim *a);

/* Which kind a path/data is (RRB_EMI_*), or 0. */
int rrb_emi_kind(const uint8_t *d, size_t n, const char *path);
/* Joint index by name, case-insensitive (first match), or -1. */
int rrb_emi_find_joint(const rrb_emi_skel *s, const char *name);
/* Tracks of a whose joint is not in s: count, and each reported to w (offset
 * of the track) as "unmatched track ... ignored". */
unsigned rrb_emi_unmatched_tracks(const rrb_emi_anim *a, const rrb_emi_skel *s,
                                  rrb_emi_warns *w);

/* Warning helper (printf-style). */
void rrb_emi_warn(rrb_emi_warns *w, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- writers (rrb_emi_gen.c): serialise a model exactly as NOTES §4 reads it ---- */
void rrb_emi_write_skel(const rrb_emi_skel *s, rrb_buf *b);
void rrb_emi_write_mesh(const rrb_emi_mesh *m, rrb_buf *b);
void rrb_emi_write_anim(const rrb_emi_anim *a, rrb_buf *b);

/* ---- generator ---- */
typedef struct rrb_emi_gen_params {
    uint32_t max_joints;  /* 1..RRB_EMI_MAX_JOINTS; joints drawn in [1, max_joints] */
    uint32_t max_depth;   /* chain depth cap (root depth 0); <= 63 keeps it bakeable */
    uint32_t max_verts;   /* vertices drawn in [3, max_verts] */
    uint32_t max_infl;    /* influences per vertex drawn in [1, max_infl] (<= 16) */
    uint32_t max_keys;    /* keys per track drawn in [1, max_keys] */
    float scale;          /* size of the figure in units */
} rrb_emi_gen_params;

/* A valid figure from a seed: skeleton, skinned mesh and one animation whose
 * names all refer to the skeleton (with randomly changed letter case). */
void rrb_emi_gen_defaults(rrb_emi_gen_params *p);
void rrb_emi_gen_figure(uint32_t seed, const rrb_emi_gen_params *p, rrb_emi_skel *s,
                        rrb_emi_mesh *m, rrb_emi_anim *a);

/* Malformed files: case i in [0, rrb_emi_nbad). Fills b with the file and
 * says what the reader must do: error (expect_warn == 0) or warning, at
 * byte offset *expect_off. kind is RRB_EMI_*. Returns the case name. */
extern const unsigned rrb_emi_nbad;
const char *rrb_emi_gen_bad(unsigned i, rrb_buf *b, int *kind, size_t *expect_off,
                            int *expect_warn);

/* The 4-joint skeleton the malformed cases are built on (expect_warn == 2:
 * the reader accepts the file; rrb_emi_unmatched_tracks against this
 * skeleton must warn at *expect_off). */
void rrb_emi_gen_base_skel(rrb_emi_skel *s);

/* The walking figure: figure.sklb, figure.meshb, walk.animb, figure.emi in dir,
 * and every malformed case as bad/<name>.<ext>. */
int rrb_emi_sample(const char *dir, char *err, size_t errcap);
/* The format's inspection hooks (rrb_format.h: probe, info, info_json,
 * verify, dump_json); the module's descriptor is in rrb_emi_cli.c. */
int rrb_emi_probe(const uint8_t *data, size_t size, const char *path);
rrb_text_hook rrb_emi_info, rrb_emi_info_json, rrb_emi_verify, rrb_emi_dump_json;

/* ---- bake (rrb_emi_bake.c) ---- */
#define RRB_EMI_BAKE_MAX_INFL 4       /* influences kept per vertex; more are merged and reported */

typedef struct rrb_emi_bake_report {
    unsigned merged_vertices;   /* vertices whose influences were merged to the cap */
    unsigned unmatched_tracks;  /* tracks naming no joint (ignored) */
    unsigned dropped_tracks;    /* tracks hidden by a higher-priority track of the same joint/op */
    uint32_t coord_frac;
} rrb_emi_bake_report;

/* Bake a figure from models: mesh may be NULL, nanims may be 0. */
rrb_blob *rrb_emi_bake_models(const rrb_emi_skel *s, const rrb_emi_mesh *m,
                              const rrb_emi_anim *const *anims, unsigned nanims,
                              const char *name, const rrb_opts *opts, rrb_emi_warns *w,
                              rrb_emi_bake_report *rep, char *err, size_t errcap);
/* Next entry of a figure manifest (.emi, docs/emi.md) from *pos, skipping
 * comments and blank lines: 1 with key "skeleton", "mesh" or "anim", its
 * file and the line's offset in *at; 0 at the end; -1 for a malformed line
 * (line holds it, for the message). */
int rrb_emi_manifest_next(const uint8_t *d, size_t n, size_t *pos, size_t *at,
                          char key[16], char file[1024], char line[1100]);
/* rrb_format hook (folders): the files a manifest or a .sklb takes in;
 * 0 for a .meshb or .animb, which is only a part of a figure. */
int rrb_emi_parts(const uint8_t *data, size_t size, const char *path,
                  void (*each)(void *ctx, const char *part), void *ctx);
/* rrb_format hook (rrb_emi_manifest.c): info / verify / dump of a figure
 * manifest, each file it names through the module's text hooks; -1 for a
 * .sklb, .meshb or .animb. */
int rrb_emi_members(const uint8_t *data, size_t size, const char *path, int which, int json,
                    FILE *out, FILE *errf);
/* rrb_format hook: data is a .sklb (same-stem .meshb and .animb picked up) or a
 * manifest (.emi). */
rrb_blob *rrb_emi_bake(const uint8_t *data, size_t size, const char *path,
                       const rrb_opts *opts, char *err, size_t errcap);

extern const rrb_format rrb_format_emi;

#endif

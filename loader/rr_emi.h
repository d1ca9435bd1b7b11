/* rr_emi.h - Escape from Monkey Island figures: sample keyframed animations,
 * blend poses, build model and skinning matrices, and skin the mesh, all in
 * fixed point into caller buffers.
 *
 * USAGE
 *   static uint32_t arena[RR_EMI_ARENA_BYTES / 4];       // the section view only
 *   rr_room room;  rr_open(blob, size, arena, sizeof arena, &room);
 *   rr_emi_info info;  rr_emi_get_info(&room, &info);
 *   rr_emi_local local[N];  rr_emi_xform model[N], skin[N];   // N >= info.njoints
 *   rr_emi_sample_job s = {&room, anim, time, RR_EMI_LOOP, local, N, NULL};
 *   rr_emi_sample_job_run(&s);                           // local pose at time
 *   rr_emi_model_job m = {&room, local, model, N};  rr_emi_model_job_run(&m);
 *   rr_emi_skin_matrices_job k = {&room, model, skin, N};  rr_emi_skin_matrices_job_run(&k);
 *   rr_emi_skin_job v = {&room, skin, 0, info.nverts, pos, nrm};  rr_emi_skin_job_run(&v);
 *
 * Each job is a struct the caller fills; _validate() checks it without
 * running (RR_ERR_ARG for NULL pointers, RR_ERR_RANGE for an index out of
 * range or a buffer too small), _run() validates and then runs. Jobs never
 * own their buffers, never allocate, never recurse, and write only their
 * output buffer (entries past the figure's count are left unchanged).
 *
 * NUMBERS  (see loader/rr_emi_blob.h for the blob layout)
 *   coords  int32 with rr_room.coord_frac fractional bits (positions)
 *   Q30     int32 with 30 fractional bits (quaternions, rotation matrices)
 *   rr_fix  Q16.16 (time in seconds, blend weights, skinned normals)
 *   Rounding: half away from zero, 64-bit intermediates; skinning blends
 *   (vertices with several influences) round their weighted sum once, half up.
 *
 * ACCURACY (measured by tests/host/test_emi_runtime.c against a double
 *   reference; derivation in docs/emi.md)
 *   joint / skinned vertex position error <= (d + 2) * 2^-coord_frac * 2
 *       + 2e-4 * (d + 1) * D  + 6 * 2^-15 * D     (d: depth, D: figure size)
 *   skinned normal angle <= 2e-4 * (d + 1) + 4e-4 rad, length within 2^-12 of 1
 *   Rotations are interpolated with nlerp (ScummVM slerps): the same arc,
 *   travelled at a slightly uneven speed; the largest angle between the two
 *   at any time is 0.0006 rad for keys 30 degrees apart, 0.0047 rad for 60,
 *   0.016 rad for 90 (table in docs/emi.md).
 *
 * COST  sample: O(tracks * log keys); model and skinning matrices: O(joints);
 *   skin: O(vertices * influences); every section is reached in O(1). Stack
 *   per job: `make size` (docs/footprint.md). ARENA: rr_open keeps the view
 *   of the blob's sections in it (RR_EMI_ARENA_BYTES, what rr_arena_size
 *   says for every EMI blob); the jobs use none.
 */
#ifndef RR_EMI_H
#define RR_EMI_H

#include "rr.h"

/// Figure ///

/* Arena bytes an EMI room needs (rr_arena_size() of any EMI blob): one
 * {offset, count} pair per section of the format, common ones included. */
#define RR_EMI_ARENA_BYTES 96u

typedef struct rr_emi_info {
    uint32_t njoints, nverts, ntris, nanims;
    uint32_t max_infl;      /* largest influence count of a vertex */
    uint32_t has_normals;   /* 1 if the mesh had normals (layout 19 or 3) */
    uint32_t coord_frac;    /* fractional bits of positions */
    uint32_t vert_shift;    /* mesh positions in the blob are 16-bit vpos << vert_shift coords */
    const char *name;       /* figure name (from the string table) */
} rr_emi_info;

/* Counts of an open EMI room. RR_ERR_FORMAT if the room is not EMI. */
rr_err rr_emi_get_info(const rr_room *room, rr_emi_info *out);

/* Joint index by name, ASCII case-insensitive (the game's rule); the first
 * match wins. RR_ERR_NOTFOUND if none. Cost: O(joints * name length). */
rr_err rr_emi_joint_find(const rr_room *room, const char *name, uint32_t *index);
/* Name and parent (-1 for a root) of joint index. */
rr_err rr_emi_joint_get(const rr_room *room, uint32_t index, const char **name,
                        int32_t *parent);
/* Animation index by name (case-insensitive) and its duration (rr_fix s). */
rr_err rr_emi_anim_find(const rr_room *room, const char *name, uint32_t *index);
rr_err rr_emi_anim_get(const rr_room *room, uint32_t index, const char **name,
                       rr_fix *duration);

/// Poses ///

/* A local (parent-relative) joint transform. */
typedef struct rr_emi_local {
    int32_t t[3];           /* coords */
    int32_t q[4];           /* x, y, z, w; Q30, unit */
} rr_emi_local;

/* A model-space transform: p' = r * p + t. Skinning matrices (written by
 * rr_emi_skin_matrices_job for rr_emi_skin_job) use the same struct with r
 * in Q14 instead: one row times a 16-bit mesh position is then a 32-bit sum. */
typedef struct rr_emi_xform {
    int32_t r[9];           /* Q30 (skinning matrices: Q14), row-major */
    int32_t t[3];           /* coords */
} rr_emi_xform;

/* Write the bind pose into out[0 .. njoints). */
rr_err rr_emi_bind_pose(const rr_room *room, rr_emi_local *out, uint32_t out_count);

/// Anim ///

enum rr_emi_time_mode {
    RR_EMI_CLAMP = 0,       /* time clamped to [0, duration] */
    RR_EMI_LOOP = 1         /* time wrapped into [0, duration) (negative times too) */
};

/* Sample animation `anim` at `time` into the local pose `out`. Joints without
 * a track get their bind value. Per track (NOTES §4.4): the first key whose
 * time >= t; key 0 if that is the first, the last key if none, otherwise
 * positions lerped and rotations nlerped (shortest arc) between the previous
 * key and that one. Keys are absolute local values. */
typedef struct rr_emi_sample_job {
    const rr_room *room;
    uint32_t anim;
    rr_fix time;            /* seconds */
    uint32_t mode;          /* enum rr_emi_time_mode */
    rr_emi_local *out;
    uint32_t out_count;     /* >= njoints */
    /* Optional (NULL: not written): which channels this animation drives,
     * RR_EMI_MASK_WORDS(njoints) words; bit 2j = translation of joint j,
     * bit 2j+1 = its rotation. Feed it to rr_emi_blend_job.b_mask. */
    uint32_t *mask;
} rr_emi_sample_job;

/* Words of a channel mask for n joints. */
#define RR_EMI_MASK_WORDS(n) (((n) * 2u + 31u) / 32u)
rr_err rr_emi_sample_job_validate(const rr_emi_sample_job *job);
rr_err rr_emi_sample_job_run(const rr_emi_sample_job *job);

/* out = (1 - weight) * a + weight * b per joint: translations lerped,
 * rotations nlerped (shortest arc). weight in [0, RR_FIX_ONE]. out may alias
 * a or b. This is how two animations cross-fade.
 * Priority layers (NOTES §4.4: the higher priority wins, faded by its
 * weight): sample the lower layer into a, the higher one into b with its
 * channel mask, and pass the mask as b_mask: channels b does not drive keep
 * a's value exactly; the others blend by weight (RR_FIX_ONE: b wins). Within
 * one animation the baker already kept the highest-priority track. */
typedef struct rr_emi_blend_job {
    const rr_room *room;
    const rr_emi_local *a, *b;
    rr_fix weight;
    rr_emi_local *out;
    uint32_t count;         /* >= njoints */
    const uint32_t *b_mask; /* optional channel mask of b (NULL: b drives everything) */
} rr_emi_blend_job;
rr_err rr_emi_blend_job_validate(const rr_emi_blend_job *job);
rr_err rr_emi_blend_job_run(const rr_emi_blend_job *job);

/// Skinning ///

/* Local -> model in one forward pass (parents come first): model[i] =
 * model[parent] * local[i]. local == NULL uses the bind pose. */
typedef struct rr_emi_model_job {
    const rr_room *room;
    const rr_emi_local *local;
    rr_emi_xform *out;
    uint32_t count;         /* >= njoints */
} rr_emi_model_job;
rr_err rr_emi_model_job_validate(const rr_emi_model_job *job);
rr_err rr_emi_model_job_run(const rr_emi_model_job *job);

/* Skinning matrices: out[i] = model[i] * inverse(bind model[i]), rotation
 * rounded to Q14 (the form rr_emi_skin_job reads). */
typedef struct rr_emi_skin_matrices_job {
    const rr_room *room;
    const rr_emi_xform *model;
    rr_emi_xform *out;
    uint32_t count;         /* >= njoints */
} rr_emi_skin_matrices_job;
rr_err rr_emi_skin_matrices_job_validate(const rr_emi_skin_matrices_job *job);
rr_err rr_emi_skin_matrices_job_run(const rr_emi_skin_matrices_job *job);

/* Linear blend skinning of vertices [first, first + count): pos_out[k] =
 * sum of weight * (skin[joint] * bind position) in coords; nrm_out[k] (may be
 * NULL) = the same with rotations only, rr_fix: renormalized where several
 * influences blend, the rotated unit normal where one joint moves the vertex
 * (unit within 2^-12, docs/emi.md); zero when the figure has no normals or
 * the blend cancels out. skin: rr_emi_skin_matrices_job's output. */
typedef struct rr_emi_skin_job {
    const rr_room *room;
    const rr_emi_xform *skin;   /* njoints skinning matrices */
    uint32_t first, count;
    rr_vec3 *pos_out;           /* count entries, coords */
    rr_vec3 *nrm_out;           /* count entries or NULL */
} rr_emi_skin_job;
rr_err rr_emi_skin_job_validate(const rr_emi_skin_job *job);
rr_err rr_emi_skin_job_run(const rr_emi_skin_job *job);

#endif

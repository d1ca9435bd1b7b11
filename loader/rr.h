/* rr.h - romroom runtime: use baked room blobs in place.
 *
 * USAGE
 *   uint8_t arena[...];                      // caller-owned, 4-byte aligned
 *   rr_room room;
 *   int32_t need = rr_arena_size(blob, size);  // bytes rr_open will want (or < 0: error)
 *   rr_err e = rr_open(blob, size, arena, sizeof arena, &room);
 *   if (e) { puts(rr_strerror(e)); ... }
 *   ... format queries (rr_rmesh_*, rr_rmf_*, rr_roo_*, rr_emi_*) ...
 *
 * CONTRACT
 *   - The blob is one contiguous, 4-byte aligned byte array, typically a const
 *     array in flash. The loader never writes to it and never allocates.
 *   - rr_open validates everything once (header, checksum, section table, then
 *     every index, string and tree of the format). A blob it accepts can never
 *     make a query read out of bounds, loop forever, or use more stack than
 *     stated. A blob it rejects gets a precise code; the blob and the room
 *     struct are not written, the arena may have been used as scratch.
 *   - No malloc, no stdio, no recursion, no floating point. All mutable state
 *     lives in the caller's arena. Results are bit-identical on every target.
 *
 * GLOSSARY
 *   rr_fix   Q16.16 signed fixed point: fractions, normals, weights, times.
 *   coord    world coordinate, int32 with the blob's declared number of
 *            fractional bits (rr_room.coord_frac; e.g. 4 => 1/16 unit).
 *
 * NUMBERS  See loader/rr_limits.h for every cap and README.md for measured
 *   code size, stack and arena per board.
 */
#ifndef RR_H
#define RR_H

#include <stddef.h>
#include <stdint.h>

/// Version info ///

#define RR_VERSION_MAJOR 0
#define RR_VERSION_MINOR 1
/* Blob format version written by rrbake and accepted by rr_open. */
#define RR_BLOB_VERSION 2

/// Errors ///

/* Every function returns rr_err: 0 on success, a negative code on failure. */
typedef enum rr_err {
    RR_OK = 0,
    RR_ERR_ARG = -1,       /* caller bug: NULL pointer, bad argument */
    RR_ERR_ALIGN = -2,     /* blob or arena pointer not 4-byte aligned */
    RR_ERR_TRUNC = -3,     /* buffer smaller than the header or the declared size */
    RR_ERR_MAGIC = -4,     /* not a romroom blob */
    RR_ERR_ENDIAN = -5,    /* blob baked for the other byte order: rebake with --endian */
    RR_ERR_VERSION = -6,   /* blob format version not supported by this loader */
    RR_ERR_FIXED = -7,     /* fixed-point format not supported */
    RR_ERR_SIZE = -8,      /* declared total size differs from the buffer size */
    RR_ERR_CHECKSUM = -9,  /* payload checksum mismatch: corrupted blob */
    RR_ERR_SECTION = -10,  /* section table: out of bounds, misaligned, overlapping,
                              duplicate, wrong element size or unknown required type */
    RR_ERR_INDEX = -11,    /* an index inside a section points out of range */
    RR_ERR_CYCLE = -12,    /* a tree or hierarchy link forms a cycle */
    RR_ERR_DEPTH = -13,    /* a tree is deeper than the declared or hard bound */
    RR_ERR_ARENA = -14,    /* arena smaller than rr_arena_size() */
    RR_ERR_FORMAT = -15,   /* unknown room format, or its runtime is not linked in */
    RR_ERR_RANGE = -16,    /* a value is outside its documented range */
    RR_ERR_MISSING = -17,  /* a required section is absent */
    RR_ERR_NOTFOUND = -18  /* lookup found nothing (not a data error) */
} rr_err;

/* A short English message for an error code; never NULL. */
const char *rr_strerror(rr_err e);

/// Fixed point ///

typedef int32_t rr_fix;              /* Q16.16 */
#define RR_FIX_SHIFT 16
#define RR_FIX_ONE ((rr_fix)0x00010000)
#define RR_FIX_HALF ((rr_fix)0x00008000)
#define RR_FIX_MAX ((rr_fix)0x7fffffff)
#define RR_FIX_MIN ((rr_fix)(-0x7fffffff - 1))
/* Constants only; never used on query paths with non-constant arguments. */
#define RR_FIX(x) ((rr_fix)((x) >= 0 ? (x) * 65536.0 + 0.5 : (x) * 65536.0 - 0.5))

typedef struct rr_vec3 { rr_fix x, y, z; } rr_vec3;

/* Rounding rule, the same in every function below: round to nearest, ties
 * away from zero. Products use 64-bit intermediates. "_sat" variants clamp to
 * [RR_FIX_MIN, RR_FIX_MAX]; the plain ones require the result to fit. */
rr_fix rr_fix_mul(rr_fix a, rr_fix b);
rr_fix rr_fix_mul_sat(rr_fix a, rr_fix b);
/* a / b; b == 0 saturates to RR_FIX_MAX or RR_FIX_MIN (by the sign of a; 0/0 = 0).
 * Always saturating. */
rr_fix rr_fix_div(rr_fix a, rr_fix b);
rr_fix rr_fix_recip(rr_fix a);            /* 1 / a, saturating */
rr_fix rr_fix_sqrt(rr_fix a);             /* a < 0 gives 0 */
/* (a * b) >> shift, rounded; any Q formats. shift in 0..62. */
int32_t rr_mul_shift(int32_t a, int32_t b, unsigned shift);
/* a * b / c with a 64-bit product, rounded, saturating; c == 0 saturates. */
int32_t rr_muldiv(int32_t a, int32_t b, int32_t c);
/* Round an int64 right shift (shift 1..62) half away from zero. */
int64_t rr_shr_round64(int64_t v, unsigned shift);
/* Floor of the square root of a 64-bit value. */
uint32_t rr_isqrt64(uint64_t v);

/* Vector helpers (Q16.16 components). dot returns the exact Q32.32 sum. */
int64_t rr_vec3_dot64(rr_vec3 a, rr_vec3 b);
rr_fix rr_vec3_dot(rr_vec3 a, rr_vec3 b);   /* rounded to Q16.16, saturating */
rr_vec3 rr_vec3_cross(rr_vec3 a, rr_vec3 b); /* each component rounded, saturating */
/* Unit vector in Q16.16; the zero vector gives RR_ERR_RANGE and (0,0,0). */
rr_err rr_vec3_normalize(rr_vec3 v, rr_vec3 *out);

/// Blob and room ///

/* Room formats (rr_room.format). */
enum rr_format {
    RR_FMT_RAW = 0,    /* container only (tests, user data) */
    RR_FMT_RMESH = 1,  /* SCP - Containment Breach / CBRE-EX room mesh */
    RR_FMT_RMF = 2,    /* Worldcraft / Hammer brush map */
    RR_FMT_ROO = 3,    /* Meridian 59 room */
    RR_FMT_EMI = 4     /* Escape from Monkey Island mesh / skeleton / animation */
};

/* Optional diagnostics from rr_open: where validation failed. The offset
 * is that of the offending field itself; rrbake names the field from it
 * (its schema knows every record's layout). */
#define RR_NO_RECORD 0xffffffffu
typedef struct rr_diag {
    uint32_t section;     /* section type (0 = header / section table) */
    uint32_t record;      /* record index in that section, or RR_NO_RECORD */
    uint32_t offset;      /* byte offset of the field from the start of the blob */
    uint32_t value;       /* offending value, when there is one */
    uint32_t limit;       /* the bound it broke */
    const char *what;     /* short static text, e.g. "index" or "child depth" */
} rr_diag;

/* An open room. Caller-allocated; filled by rr_open; treat fields as read-only. */
typedef struct rr_room {
    const uint8_t *blob;
    uint32_t size;
    uint32_t format;        /* enum rr_format */
    uint32_t coord_frac;    /* fractional bits of world coordinates */
    uint32_t max_depth;     /* deepest tree in the blob */
    uint32_t arena_need;    /* bytes of arena the queries use */
    uint32_t nsections;
    const uint32_t *sections; /* section table: nsections x {type, elem, size} (rr_blobfmt.h) */
    /* Where each section of the format's schema is: built once by rr_open at
     * the start of the arena (NULL for RAW blobs). arena, arena_size and
     * arena_need above describe the arena after it. */
    const struct rr_view_entry *view;
    uint8_t *arena;
    uint32_t arena_size;
} rr_room;

/* Bytes of arena rr_open will require for this blob (the view of its
 * sections and what its queries use), or a negative rr_err if
 * the header is unusable. Reads only the header (cost: constant). */
int32_t rr_arena_size(const void *blob, uint32_t size);

/* Validate the blob and open it. Cost: one pass over the blob (checksum) plus
 * one pass over each section; stack: see README "Bounded RAM/ROM".
 * arena: at least rr_arena_size() bytes, 4-byte aligned, owned by the room
 * until the caller stops using it. Returns RR_OK or a negative code. */
rr_err rr_open(const void *blob, uint32_t size, void *arena, uint32_t arena_size,
               rr_room *room);
/* Same, and on failure fills *diag (may be NULL) with where and why. */
rr_err rr_open_diag(const void *blob, uint32_t size, void *arena, uint32_t arena_size,
                    rr_room *room, rr_diag *diag);

/* Find a section by type in an open room: its data and element count.
 * Returns RR_ERR_MISSING if absent. */
rr_err rr_section(const rr_room *room, uint32_t type, const void **data, uint32_t *count);

/* A string of the room's string table (section RR_SEC_STRINGS) by offset.
 * Offsets stored in validated sections are always valid; others get "". */
const char *rr_string(const rr_room *room, uint32_t offset);

/* CRC-32 (IEEE 802.3, reflected, init and final xor 0xffffffff) as used by
 * the blob checksum; exposed for tools and tests. */
uint32_t rr_crc32(uint32_t crc, const void *data, uint32_t n);

#endif

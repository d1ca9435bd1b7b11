/* rr_limits.h - every cap of the runtime in one place, with its unit and reason.
 * Each may be lowered with -D at build time; the hard cap is in the comment. */
#ifndef RR_LIMITS_H
#define RR_LIMITS_H

/* Deepest tree (BSP / BVH / skeleton) a blob may declare, in levels. Query
 * stacks live in the arena, sized by the blob's validated depth, so this only
 * bounds the arena; 64 levels cover every corpus room with room to spare.
 * Hard cap 255 (depths are stored in a byte in some sections). */
#ifndef RR_MAX_DEPTH
#define RR_MAX_DEPTH 64
#endif

/* Sections in one blob. Bounds the section table scan in rr_open. Hard cap 4096. */
#ifndef RR_MAX_SECTIONS
#define RR_MAX_SECTIONS 64
#endif

/* Fractional bits of world coordinates a blob may declare (0..16). */
#define RR_MAX_COORD_FRAC 16

/* Largest blob, bytes: offsets are u32 but sizes must fit in int32 too, so
 * that rr_arena_size can return them. Hard cap 0x7fffffff. */
#define RR_MAX_BLOB_BYTES 0x7fffffffu

#endif

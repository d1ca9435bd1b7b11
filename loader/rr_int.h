/* rr_int.h - internal declarations shared by the loader's modules.
 * Not part of the public API: include rr.h instead. */
#ifndef RR_INT_H
#define RR_INT_H

#ifndef RR_INTERNAL
#error "rr_int.h is private to loader/: include rr.h"
#endif

#include <stddef.h>

#include "rr.h"
#include "rr_blobfmt.h"
#include "rr_limits.h"

/* Misuse checks that compile away (like LFS_ASSERT): caller bugs only. Bad
 * blob data never reaches an assert; it gets an rr_err. */
#ifndef RR_ASSERT
#ifdef RR_DEBUG
#define RR_ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)
#else
#define RR_ASSERT(c) ((void)0)
#endif
#endif


/* Run-once validation code (a runtime's checks after the schema's): GCC's
 * cold attribute optimises it for size, as -Os would, while the queries
 * keep the build's optimisation level. */
#define RR_VALIDATION __attribute__((cold))

/* ---- one failure mechanism ----------------------------------------------
 * Every failure of rr_open goes through rr__fail or rr__fail_in: the code,
 * the section type, the record index, the blob offset of the field, a short
 * static text and the value with the bound it broke. rr__fail finds the
 * section and record from the field's address (the section table is
 * trusted once check_table has passed: room->nsections is 0 before). */
rr_err rr__fail(const rr_room *room, rr_diag *diag, rr_err e, const void *at, const char *what,
                uint32_t value, uint32_t limit);
/* The same with the section type and offset given (header, section table,
 * a section as a whole): record RR_NO_RECORD. */
rr_err rr__fail_in(rr_diag *diag, rr_err e, uint32_t section, uint32_t offset, const char *what,
                   uint32_t value, uint32_t limit);
/* Byte offset of p within the blob (for diagnostics). */
uint32_t rr__offset(const rr_room *room, const void *p);

/* ---- the schema ----------------------------------------------------------
 * rr__schema_open checks a blob against its format's schema and builds the
 * view: every section known (or optional), each slot's section present as
 * its presence demands, sizes = count x record bytes, and every checked
 * field of every record (rr_blobfmt.h, enum rr_kind). The view (one
 * rr_view_entry per slot) goes to the start of the arena; room->view points
 * at it and room->arena, arena_size and arena_need then describe what
 * follows it, so each runtime sees the same arena as without a view. */
rr_err rr__schema_open(rr_room *room, const rr_schema *schema, rr_diag *diag);

/* Records of slot k of an open room's view, and their count: O(1). */
static inline const void *rr__records(const rr_room *room, uint32_t k)
{
    return room->blob + room->view[k].offset;
}
static inline uint32_t rr__count(const rr_room *room, uint32_t k)
{
    return room->view[k].count;
}
/* A typed accessor per section of a format's list: name##_of(room) gives
 * the records of section name. A runtime expands it over its list,
 *   RR_SECTION_ACCESSORS(RR_ROO)
 * and reads walls_of(room)[i], with rr__count(room, RR_ROO_S_walls) records. */
#define RR_RECORDS_OF(name, T, slot)                                \
    static inline const T *name##_of(const rr_room *room)           \
    {                                                               \
        return (const T *)rr__records(room, slot);                  \
    }
#define RR__ACCESSOR(P, name, type, T, FIELDS, presence) RR_RECORDS_OF(name, T, P##_S_##name)
#define RR_SECTION_ACCESSORS(P) P##_SECTIONS(RR__ACCESSOR, P)

/* True when the string table holds a string starting at off. */
int rr__string_ok(const rr_room *room, uint32_t off);
/* Two NUL-terminated strings equal (the runtimes' name lookups). */
int rr__str_eq(const char *a, const char *b);
/* The value of key among n key/value pairs (a run of a format's pairs), or
 * NULL when none has that key. */
const char *rr__kv_value(const rr_room *room, const rr_kv *kv, uint32_t n, const char *key);
/* The table entry of a section type and, in *offset, where the section
 * starts (offsets are implied by the table order, see rr_blobfmt.h); NULL
 * when the table has none. Its records: entry->size / entry->elem. */
const rr_section_entry *rr__find(const rr_room *room, uint32_t type, uint32_t *offset);

/* Fixed-point helpers of rr_fix.c shared by the runtimes. rr__sat32 clamps
 * to int32. rr__div_round64 is n / d rounded half away from zero (the
 * library's one rounding rule), d != 0, |quotient| < 2^63, not saturated. */
int32_t rr__sat32(int64_t v);
int64_t rr__div_round64(int64_t n, int64_t d);
/* The index of the highest set bit of v (v != 0). Count-leading-zeros
 * where the CPU has the instruction; the Cortex-M0 has none, and GCC's
 * builtin would call libgcc there (a helper call that the stack check
 * charges), so it takes five halving steps instead. */
static inline int rr__top_bit64(uint64_t v)
{
#if defined(__ARM_ARCH) && !defined(__ARM_FEATURE_CLZ)
    int top = 0, s;
    for (s = 32; s; s >>= 1)
        if (v >> s) {
            v >>= s;
            top += s;
        }
    return top;
#else
    return 63 - __builtin_clzll(v);
#endif
}
/* Floor of the square root of a 32-bit value (rr_fix.c): the bit-by-bit
 * loop itself, which rr_isqrt64 also runs for values below 2^32 and for the
 * top bits of larger ones; query paths whose values fit call it directly. */
uint32_t rr__isqrt32(uint32_t v);
/* a * b in 128 bits: returns the high 64 bits and stores the low 64 in
 * *lo. For exact comparisons of products that reach 2^61 and more (ROO's
 * point-to-wall distance; RMesh's earliest hit, as its own mul128). */
uint64_t rr__mul128(uint64_t a, uint64_t b, uint64_t *lo);

/* Validators of each runtime (weak: a program links only what it uses).
 * Called by rr_open after the container passed, each must check every index,
 * string offset and tree of its sections; it may use the whole arena as
 * scratch, and fills diag on failure. */
rr_err rr__rmesh_validate(rr_room *room, rr_diag *diag);
rr_err rr__rmf_validate(rr_room *room, rr_diag *diag);
rr_err rr__roo_validate(rr_room *room, rr_diag *diag);
rr_err rr__emi_validate(rr_room *room, rr_diag *diag);

#endif

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


/* Section lookup with the element size the caller expects: RR_ERR_MISSING if
 * absent, RR_ERR_SECTION if size != count * elem (or not a multiple). */
rr_err rr__section(const rr_room *room, uint32_t type, uint32_t elem,
                   const void **data, uint32_t *count, rr_diag *diag);
/* Byte offset of p within the blob (for diagnostics). */
uint32_t rr__offset(const rr_room *room, const void *p);
/* Fill diag (if not NULL) and return e. Inline: a 7-argument call would
 * pass arguments on the stack on some ABIs, for a few stores. */
static inline rr_err rr__fail(rr_diag *diag, rr_err e, uint32_t section, uint32_t offset,
                              const char *what, uint32_t value, uint32_t limit)
{
    if (diag) {
        diag->section = section;
        diag->offset = offset;
        diag->what = what;
        diag->value = value;
        diag->limit = limit;
    }
    return e;
}
/* rr__fail out of line, for the validators' many failure paths: the code
 * and the section travel in one argument (RR_ES), so the call takes six
 * arguments, which every ABI here passes in registers but Arm's, where two
 * go on the stack either way. */
#define RR_ES(e, type) (((uint32_t)(type) << 8) | (uint32_t) - (e))
rr_err rr__fail_at(rr_diag *diag, uint32_t es, uint32_t offset, const char *what,
                   uint32_t value, uint32_t limit);
/* True when the string table holds a string starting at off. */
int rr__string_ok(const rr_room *room, uint32_t off);

/* Table-driven per-field checks shared by the validators (one switch, no
 * function pointers). A descriptor checks the field at byte off of an
 * element, or rep + 1 consecutive fields of its width:
 *   RR_F_IDX  value < counts[arg] (RR_F_NONE: or the 16-bit NONE 0xffff)
 *   RR_F_RUN  u32 first at off, u32 count after it: a run inside counts[arg]
 *             (RR_F_NZ: and the count is not 0)
 *   RR_F_ABS  int32 within [-arg, arg]
 *   RR_F_MAX  value <= arg
 *   RR_F_STR  a string offset (rr__string_ok)
 * Width of IDX and MAX values: RR_F_U16, RR_F_U8 (default 32 bits). The
 * last descriptor of a table carries RR_F_END. On failure diag names the
 * section, the field's blob offset, the kind of check (what), the value and
 * the limit, and the result is -code. The what argument of the macros
 * documents the field in the source only: a pointer per descriptor would
 * make the tables half as large again. */
typedef struct rr_field {
    uint8_t off, kind, code, rep;
    uint32_t arg;
} rr_field;
enum {
    RR_F_IDX = 1, RR_F_RUN = 2, RR_F_ABS = 3, RR_F_MAX = 4, RR_F_STR = 5,
    RR_F_U16 = 8, RR_F_U8 = 16, RR_F_NONE = 32, RR_F_NZ = 64, RR_F_END = 128
};
#define RR_FIELD(type, member, kind, err, arg, what) \
    {(uint8_t)offsetof(type, member), (uint8_t)(kind), (uint8_t)-(err), 0, (uint32_t)(arg)}
#define RR_FIELDS(type, member, n, kind, err, arg, what) \
    {(uint8_t)offsetof(type, member), (uint8_t)(kind), (uint8_t)-(err), (uint8_t)((n) - 1), \
     (uint32_t)(arg)}
/* t[0] is RR_SECTION_CHECK(section type, element type), the field
 * descriptors follow. Checks elem, or every element of the section in order
 * when elem is NULL (none when the section is absent). */
#define RR_SECTION_CHECK(type, elem) \
    {(uint8_t)(sizeof(elem) + 0 * sizeof(char[sizeof(elem) <= 255 ? 1 : -1])), 0, 0, 0, \
     (uint32_t)(type)}  /* the stride is one byte: a larger element fails to compile */
rr_err rr__check_fields(const rr_room *room, const rr_field *t, const void *elem,
                        const uint32_t *counts, rr_diag *diag);

/* Fail with RR_ERR_SECTION on a section type that is neither common, nor
 * optional, nor in types[]: every validator calls this first. */
rr_err rr__sections_known(const rr_room *room, const uint32_t *types, uint32_t ntypes,
                          rr_diag *diag);

/* Fixed-point helpers of rr_fix.c shared by the runtimes. rr__sat32 clamps
 * to int32. rr__div_round64 is n / d rounded half away from zero (the
 * library's one rounding rule), d != 0, |quotient| < 2^63, not saturated. */
int32_t rr__sat32(int64_t v);
int64_t rr__div_round64(int64_t n, int64_t d);

/* Validators of each runtime (weak: a program links only what it uses).
 * Called by rr_open after the container passed, each must check every index,
 * string offset and tree of its sections; it may use the whole arena as
 * scratch, and fills diag on failure. */
rr_err rr__rmesh_validate(rr_room *room, rr_diag *diag);
rr_err rr__rmf_validate(rr_room *room, rr_diag *diag);
rr_err rr__roo_validate(rr_room *room, rr_diag *diag);
rr_err rr__emi_validate(rr_room *room, rr_diag *diag);

#endif

/* rr_blob.c - the blob container: header, checksum, section table, common
 * sections, and dispatch to the format runtime's validator.
 *
 * Validation order follows Lua's lundump checkHeader: magic, byte-order probe,
 * version, fixed-point probe, size, checksum, then the section table and the
 * arena, then the format's own validator. The first failure wins; nothing
 * in the room is valid unless rr_open returned RR_OK.
 */
#define RR_INTERNAL
#include "rr_int.h"

/* Weak references: a runtime that is not linked leaves its validator NULL and
 * its blobs are refused with RR_ERR_FORMAT. */
extern rr_err rr__rmesh_validate(rr_room *, rr_diag *) __attribute__((weak));
extern rr_err rr__rmf_validate(rr_room *, rr_diag *) __attribute__((weak));
extern rr_err rr__roo_validate(rr_room *, rr_diag *) __attribute__((weak));
extern rr_err rr__emi_validate(rr_room *, rr_diag *) __attribute__((weak));

static const char *const messages[] = {
    "ok",
    "invalid argument",
    "blob or arena not 4-byte aligned",
    "blob truncated",
    "not a romroom blob (bad magic)",
    "blob has the wrong byte order for this CPU (rebake with --endian)",
    "unsupported blob format version",
    "unsupported fixed-point format",
    "blob size does not match its header",
    "checksum mismatch (corrupted blob)",
    "bad section table",
    "index out of range",
    "cycle in a tree or hierarchy",
    "tree deeper than allowed",
    "arena too small",
    "room format not supported by this build",
    "value out of range",
    "required section missing",
    "not found",
};

const char *rr_strerror(rr_err e)
{
    int i = -(int)e;
    if (i < 0 || i >= (int)(sizeof messages / sizeof messages[0]))
        return "unknown error";
    return messages[i];
}

uint32_t rr_crc32(uint32_t crc, const void *data, uint32_t n)
{
    /* Nibble table: 64 bytes of rodata, two lookups per byte. */
    static const uint32_t t[16] = {
        0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
        0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
        0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu};
    const uint8_t *p = data;
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        crc = (crc >> 4) ^ t[crc & 15];
        crc = (crc >> 4) ^ t[crc & 15];
    }
    return ~crc;
}

uint32_t rr__offset(const rr_room *room, const void *p)
{
    return (uint32_t)((const uint8_t *)p - room->blob);
}

static const uint32_t *words(const void *blob)
{
    return (const uint32_t *)blob;
}

/* Header checks that need nothing but the 48 header bytes. */
static rr_err check_header(const void *blob, uint32_t size, rr_diag *diag)
{
    const uint8_t *b = blob;
    const uint32_t *h = words(blob);
    if (!blob)
        return rr__fail_at(diag, RR_ES(RR_ERR_ARG, 0), 0, "blob pointer", 0, 0);
    if (((uintptr_t)blob & 3u) != 0)
        return rr__fail_at(diag, RR_ES(RR_ERR_ALIGN, 0), 0, "blob address", (uint32_t)(uintptr_t)blob, 4);
    if (size < RR_HEADER_BYTES)
        return rr__fail_at(diag, RR_ES(RR_ERR_TRUNC, 0), size, "header", size, RR_HEADER_BYTES);
    if (b[0] != RR_MAGIC0 || b[1] != RR_MAGIC1 || b[2] != RR_MAGIC2 || b[3] != RR_MAGIC3)
        return rr__fail_at(diag, RR_ES(RR_ERR_MAGIC, 0), 0, "magic", h[RR_H_MAGIC], 0);
    if (h[RR_H_ENDIAN] != RR_ENDIAN_PROBE)
        return rr__fail(diag, h[RR_H_ENDIAN] == RR_ENDIAN_SWAPPED ? RR_ERR_ENDIAN : RR_ERR_MAGIC,
                        0, 4, "byte-order probe", h[RR_H_ENDIAN], RR_ENDIAN_PROBE);
    if (h[RR_H_VERSION] != RR_BLOB_VERSION)
        return rr__fail_at(diag, RR_ES(RR_ERR_VERSION, 0), 8, "blob version", h[RR_H_VERSION],
                        RR_BLOB_VERSION);
    if ((h[RR_H_FIXED] & ~0xffu) != RR_FIXED_PROBE(0) ||
        (h[RR_H_FIXED] & 0xffu) > RR_MAX_COORD_FRAC)
        return rr__fail_at(diag, RR_ES(RR_ERR_FIXED, 0), 12, "fixed-point probe", h[RR_H_FIXED],
                        RR_FIXED_PROBE(RR_MAX_COORD_FRAC));
    if (h[RR_H_SIZE] != size)
        return rr__fail_at(diag, RR_ES(h[RR_H_SIZE] > size ? RR_ERR_TRUNC : RR_ERR_SIZE, 0), 16,
                        "total size", h[RR_H_SIZE], size);
    return RR_OK;
}

int32_t rr_arena_size(const void *blob, uint32_t size)
{
    rr_err e = check_header(blob, size, 0);
    if (e)
        return e;
    if (words(blob)[RR_H_ARENA] > 0x7fffffffu)
        return RR_ERR_RANGE;
    return (int32_t)words(blob)[RR_H_ARENA];
}

/* Section table: bounds, alignment, order, no overlap, no duplicate type. */
static rr_err check_table(const void *blob, uint32_t size, rr_diag *diag)
{
    const uint32_t *h = words(blob);
    uint32_t n = h[RR_H_NSECT], i, j, end, prev_end;
    if (n > RR_MAX_SECTIONS)
        return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, 0), 36, "section count", n, RR_MAX_SECTIONS);
    end = RR_HEADER_BYTES + n * RR_SECTION_ENTRY_BYTES;
    if (end > size)
        return rr__fail_at(diag, RR_ES(RR_ERR_TRUNC, 0), 36, "section table end", end, size);
    prev_end = end;
    for (i = 0; i < n; i++) {
        const uint32_t *s = h + RR_HEADER_BYTES / 4 + i * 4;
        uint32_t at = RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES;
        if (s[1] & 3u)
            return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, s[0]), at + 4, "section offset alignment", s[1], 4);
        if (s[1] < prev_end)
            return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, s[0]), at + 4, "section overlaps previous", s[1],
                            prev_end);
        if (s[1] > size || s[2] > size - s[1])
            return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, s[0]), at + 8, "section end past blob", s[2],
                            size - (s[1] > size ? size : s[1]));
        for (j = 0; j < i; j++)
            if (h[RR_HEADER_BYTES / 4 + j * 4] == s[0])
                return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, s[0]), at, "duplicate section type", s[0], 0);
        prev_end = s[1] + s[2];
    }
    return RR_OK;
}

rr_err rr__section(const rr_room *room, uint32_t type, uint32_t elem,
                   const void **data, uint32_t *count, rr_diag *diag)
{
    uint32_t i;
    for (i = 0; i < room->nsections; i++) {
        const uint32_t *s = room->sections + i * 4;
        if (s[0] != type)
            continue;
        if (elem == 0 || s[2] / elem != s[3] || s[2] % elem != 0)
            return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, type),
                            RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES + 12,
                            "element count vs size", s[3], elem ? s[2] / elem : 0);
        *data = room->blob + s[1];
        *count = s[3];
        return RR_OK;
    }
    *data = 0;
    *count = 0;
    return rr__fail_at(diag, RR_ES(RR_ERR_MISSING, type), 0, "section", type, 0);
}

/* The section table entry of type, or NULL. */
static const uint32_t *entry(const rr_room *room, uint32_t type)
{
    uint32_t i;
    for (i = 0; i < room->nsections; i++)
        if (room->sections[i * 4] == type)
            return room->sections + i * 4;
    return 0;
}

rr_err rr_section(const rr_room *room, uint32_t type, const void **data, uint32_t *count)
{
    const uint32_t *s;
    if (!room || !data || !count)
        return RR_ERR_ARG;
    s = entry(room, type);
    if (!s)
        return RR_ERR_MISSING;
    *data = room->blob + s[1];
    *count = s[3];
    return RR_OK;
}

int rr__string_ok(const rr_room *room, uint32_t off)
{
    const void *p;
    uint32_t n;
    if (rr_section(room, RR_SEC_STRINGS, &p, &n) != RR_OK)
        return 0;
    return off < n;  /* the table ends with a NUL (checked at open) */
}

const char *rr_string(const rr_room *room, uint32_t offset)
{
    const void *p;
    uint32_t n;
    if (!room || rr_section(room, RR_SEC_STRINGS, &p, &n) != RR_OK || offset >= n)
        return "";
    return (const char *)p + offset;
}

__attribute__((cold, noinline)) rr_err rr__fail_at(rr_diag *diag, uint32_t es,
                                                   uint32_t offset, const char *what,
                                                   uint32_t value, uint32_t limit)
{
    return rr__fail(diag, (rr_err) - (int32_t)(es & 0xffu), es >> 8, offset, what, value, limit);
}

static const char *const field_what[8] = {
    "", "index field", "run (first, count)", "value range", "value limit", "string offset", "",
    ""};

/* Runs once per element of a validated section: compiled for size. */
__attribute__((cold)) rr_err rr__check_fields(const rr_room *room, const rr_field *t,
                                              const void *elem, const uint32_t *counts,
                                              rr_diag *diag)
{
    const uint8_t *data = elem;
    const uint32_t *s = entry(room, RR_SEC_STRINGS);
    /* String offsets index the string table, which ends with a NUL (as in
     * rr__string_ok); no call inside the loop keeps this frame small. */
    uint32_t n = 1, nstr = s ? s[3] : 0, i;
    if (!elem) {
        s = entry(room, t->arg);
        n = s ? s[3] : 0;
        data = s ? room->blob + s[1] : 0;
    }
    for (i = 0; i < n; i++) {
        const rr_field *f = t;
        do {
            const uint8_t *p = data + i * t->off + (++f)->off;
            unsigned k = f->kind, r = 0;
            do {
                uint32_t v = k & RR_F_U8    ? *p
                             : k & RR_F_U16 ? *(const uint16_t *)(const void *)p
                                            : *(const uint32_t *)(const void *)p;
                uint32_t lim = f->arg;
                int ok;
                if ((k & 7u) <= RR_F_RUN)
                    lim = counts[lim];
                if ((k & 7u) == RR_F_STR)
                    lim = nstr;
                switch (k & 7u) {
                case RR_F_IDX:
                case RR_F_STR: ok = v < lim || ((k & RR_F_NONE) && v == 0xffffu); break;
                case RR_F_RUN:
                    ok = v <= lim && ((const uint32_t *)(const void *)p)[1] <= lim - v &&
                         (!(k & RR_F_NZ) || ((const uint32_t *)(const void *)p)[1]);
                    break;
                case RR_F_ABS: ok = v + lim <= 2 * lim; break;
                default: ok = v <= lim; break;
                }
                if (!ok)
                    return rr__fail_at(diag, t->arg << 8 | f->code, rr__offset(room, p),
                                       field_what[k & 7u], v, lim);
                p += k & RR_F_U8 ? 1 : k & RR_F_U16 ? 2 : 4;
            } while (r++ < f->rep);
        } while (!(f->kind & RR_F_END));
    }
    return RR_OK;
}

/* Common sections every format may carry. */
static rr_err check_common(rr_room *room, rr_diag *diag)
{
    const void *p;
    uint32_t n;
    rr_err e = rr__section(room, RR_SEC_STRINGS, 1, &p, &n, diag);
    if (e == RR_OK) {
        if (n == 0 || ((const uint8_t *)p)[n - 1] != 0)
            return rr__fail_at(diag, RR_ES(RR_ERR_RANGE, RR_SEC_STRINGS), rr__offset(room, p),
                            "string table must end with NUL", n, 0);
    } else if (e != RR_ERR_MISSING) {
        return e;
    }
    e = rr__section(room, RR_SEC_INFO, sizeof(rr_blob_info), &p, &n, diag);
    if (e == RR_OK) {
        const rr_blob_info *bi = p;
        if (n != 1)
            return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, RR_SEC_INFO), rr__offset(room, p),
                            "info count", n, 1);
        if (!rr__string_ok(room, bi->source_name))
            return rr__fail_at(diag, RR_ES(RR_ERR_INDEX, RR_SEC_INFO), rr__offset(room, &bi->source_name),
                            "source name string", bi->source_name, 0);
    } else if (e != RR_ERR_MISSING) {
        return e;
    }
    return RR_OK;
}

rr_err rr__sections_known(const rr_room *room, const uint32_t *types, uint32_t ntypes,
                          rr_diag *diag)
{
    uint32_t i, j;
    for (i = 0; i < room->nsections; i++) {
        uint32_t t = room->sections[i * 4];
        int known = t == RR_SEC_STRINGS || t == RR_SEC_INFO || (t & RR_SEC_OPTIONAL);
        for (j = 0; j < ntypes && !known; j++)
            known = types[j] == t;
        if (!known)
            return rr__fail_at(diag, RR_ES(RR_ERR_SECTION, t), RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES,
                            "unknown required section type", t, 0);
    }
    return RR_OK;
}

/* RAW blobs know only the common sections. */
static rr_err raw_validate(rr_room *room, rr_diag *diag)
{
    return rr__sections_known(room, 0, 0, diag);
}

/* Direct calls (no function pointers), so the static call graph that the
 * stack check reads is complete. A weak validator that is not linked is NULL. */
static rr_err run_validator(rr_room *room, rr_diag *diag)
{
    switch (room->format) {
    case RR_FMT_RAW: return raw_validate(room, diag);
    case RR_FMT_RMESH: if (rr__rmesh_validate) return rr__rmesh_validate(room, diag); break;
    case RR_FMT_RMF: if (rr__rmf_validate) return rr__rmf_validate(room, diag); break;
    case RR_FMT_ROO: if (rr__roo_validate) return rr__roo_validate(room, diag); break;
    case RR_FMT_EMI: if (rr__emi_validate) return rr__emi_validate(room, diag); break;
    default: break;
    }
    return rr__fail_at(diag, RR_ES(RR_ERR_FORMAT, 0), 24, "room format", room->format, 0);
}

rr_err rr_open_diag(const void *blob, uint32_t size, void *arena, uint32_t arena_size,
                    rr_room *room, rr_diag *diag)
{
    const uint32_t *h = words(blob);
    rr_room r;
    rr_err e;
    if (!room)
        return rr__fail_at(diag, RR_ES(RR_ERR_ARG, 0), 0, "room pointer", 0, 0);
    e = check_header(blob, size, diag);
    if (e)
        return e;
    if (rr_crc32(0, (const uint8_t *)blob + RR_CHECKSUM_FROM, size - RR_CHECKSUM_FROM) !=
        h[RR_H_CHECKSUM])
        return rr__fail_at(diag, RR_ES(RR_ERR_CHECKSUM, 0), 20, "checksum", h[RR_H_CHECKSUM], 0);
    e = check_table(blob, size, diag);
    if (e)
        return e;
    if (h[RR_H_DEPTH] > RR_MAX_DEPTH)
        return rr__fail_at(diag, RR_ES(RR_ERR_DEPTH, 0), 32, "declared max depth", h[RR_H_DEPTH],
                        RR_MAX_DEPTH);
    if (arena_size < h[RR_H_ARENA])
        return rr__fail_at(diag, RR_ES(RR_ERR_ARENA, 0), 28, "arena bytes", arena_size, h[RR_H_ARENA]);
    if (h[RR_H_ARENA] && (!arena || ((uintptr_t)arena & 3u)))
        return rr__fail_at(diag, RR_ES(arena ? RR_ERR_ALIGN : RR_ERR_ARG, 0), 28, "arena pointer", 0, 4);
    r.blob = blob;
    r.size = size;
    r.format = h[RR_H_FORMAT];
    r.coord_frac = h[RR_H_FIXED] & 0xffu;
    r.max_depth = h[RR_H_DEPTH];
    r.arena_need = h[RR_H_ARENA];
    r.nsections = h[RR_H_NSECT];
    r.sections = h + RR_HEADER_BYTES / 4;
    r.arena = arena;
    r.arena_size = arena_size;
    e = check_common(&r, diag);
    if (e)
        return e;
    e = run_validator(&r, diag);
    if (e)
        return e;
    *room = r;
    return RR_OK;
}

rr_err rr_open(const void *blob, uint32_t size, void *arena, uint32_t arena_size,
               rr_room *room)
{
    return rr_open_diag(blob, size, arena, arena_size, room, 0);
}

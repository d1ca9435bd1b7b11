/* rr_open.c - opening a blob: header, checksum, section table and arena,
 * then the format's validator (its schema, then its own rules).
 *
 * Validation order follows Lua's lundump checkHeader: magic, byte-order probe,
 * version, fixed-point probe, size, checksum, then the section table and the
 * arena, then the format's validator. The first failure wins; nothing in the
 * room is valid unless rr_open returned RR_OK. This file calls the runtimes'
 * validators; they call the schema checker and the failure functions of
 * rr_schema.c, which calls nothing of theirs.
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

__attribute__((noinline)) uint32_t rr_crc32(uint32_t crc, const void *data, uint32_t n)
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

static const rr_blob_header *header_of(const void *blob)
{
    return (const rr_blob_header *)blob;
}

#define AT(field) ((uint32_t)offsetof(rr_blob_header, field))

/* Header checks that need nothing but the 48 header bytes. */
static rr_err check_header(const void *blob, uint32_t size, rr_diag *diag)
{
    const rr_blob_header *h = header_of(blob);
    if (!blob)
        return rr__fail_in(diag, RR_ERR_ARG, 0, 0, "blob pointer", 0, 0);
    if (((uintptr_t)blob & 3u) != 0)
        return rr__fail_in(diag, RR_ERR_ALIGN, 0, 0, "blob address", (uint32_t)(uintptr_t)blob, 4);
    if (size < RR_HEADER_BYTES)
        return rr__fail_in(diag, RR_ERR_TRUNC, 0, size, "header", size, RR_HEADER_BYTES);
    if (h->magic[0] != RR_MAGIC0 || h->magic[1] != RR_MAGIC1 || h->magic[2] != RR_MAGIC2 ||
        h->magic[3] != RR_MAGIC3)
        return rr__fail_in(diag, RR_ERR_MAGIC, 0, AT(magic), "magic",
                           *(const uint32_t *)blob, 0);
    if (h->endian != RR_ENDIAN_PROBE)
        return rr__fail_in(diag, h->endian == RR_ENDIAN_SWAPPED ? RR_ERR_ENDIAN : RR_ERR_MAGIC, 0,
                           AT(endian), "byte-order probe", h->endian, RR_ENDIAN_PROBE);
    if (h->version != RR_BLOB_VERSION)
        return rr__fail_in(diag, RR_ERR_VERSION, 0, AT(version), "blob version", h->version,
                           RR_BLOB_VERSION);
    if ((h->fixed & ~0xffu) != RR_FIXED_PROBE(0) || (h->fixed & 0xffu) > RR_MAX_COORD_FRAC)
        return rr__fail_in(diag, RR_ERR_FIXED, 0, AT(fixed), "fixed-point probe", h->fixed,
                           RR_FIXED_PROBE(RR_MAX_COORD_FRAC));
    if (h->total_size != size)
        return rr__fail_in(diag, h->total_size > size ? RR_ERR_TRUNC : RR_ERR_SIZE, 0,
                           AT(total_size), "total size", h->total_size, size);
    return RR_OK;
}

int32_t rr_arena_size(const void *blob, uint32_t size)
{
    rr_err e = check_header(blob, size, 0);
    if (e)
        return e;
    if (header_of(blob)->arena > 0x7fffffffu)
        return RR_ERR_RANGE;
    return (int32_t)header_of(blob)->arena;
}

/* Section table (out of line: its frame is gone before the format's
 * validator runs, which keeps rr_open's deepest chain within the stack
 * bound on the Cortex-M0): within the blob, every entry's record size set
 * and its size a whole number of records, no duplicate type, and the
 * sections, back to back in table order (each padded to a multiple of 4),
 * fill the blob exactly: every section then lies inside it and no sum of
 * the walk wraps. */
__attribute__((noinline)) static rr_err check_table(const void *blob, uint32_t size,
                                                    rr_diag *diag)
{
    const rr_section_entry *t =
        (const rr_section_entry *)(const void *)((const uint8_t *)blob + RR_HEADER_BYTES);
    uint32_t n = header_of(blob)->nsections, i, j, off;
    if (n > RR_MAX_SECTIONS)
        return rr__fail_in(diag, RR_ERR_SECTION, 0, AT(nsections), "section count", n,
                           RR_MAX_SECTIONS);
    off = RR_TABLE_END(n);
    if (off > size)
        return rr__fail_in(diag, RR_ERR_TRUNC, 0, AT(nsections), "section table end", off, size);
    for (i = 0; i < n; i++) {
        const rr_section_entry *s = &t[i];
        uint32_t at = RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES, pad;
        if (s->elem == 0 || s->size % s->elem)
            return rr__fail_in(diag, RR_ERR_SECTION, s->type,
                               at + (uint32_t)offsetof(rr_section_entry, size),
                               "section size (a whole number of records)", s->size, s->elem);
        /* the section and its padding to 4 fit in what is left of the blob
         * (each compared with a difference that cannot wrap: off <= size) */
        pad = (s->size & 3u) ? 4u - (s->size & 3u) : 0;
        if (s->size > size - off || pad > size - off - s->size)
            return rr__fail_in(diag, RR_ERR_SECTION, s->type,
                               at + (uint32_t)offsetof(rr_section_entry, size),
                               "section end past blob", s->size, size - off);
        for (j = 0; j < i; j++)
            if (t[j].type == s->type)
                return rr__fail_in(diag, RR_ERR_SECTION, s->type, at, "duplicate section type",
                                   s->type, 0);
        off += s->size + pad;
    }
    if (off != size)
        return rr__fail_in(diag, RR_ERR_SIZE, 0, off, "bytes after the last section", size - off,
                           0);
    return RR_OK;
}

/* RAW blobs (tests, user data): the common sections, and no section that
 * a loader must understand. */
__attribute__((noinline)) static rr_err raw_validate(rr_room *room, rr_diag *diag)
{
    const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections;
    const rr_section_entry *s;
    uint32_t i, off;
    for (i = 0; i < room->nsections; i++)
        if (t[i].type != RR_SEC_STRINGS && t[i].type != RR_SEC_INFO &&
            !(t[i].type & RR_SEC_OPTIONAL))
            return rr__fail_in(diag, RR_ERR_SECTION, t[i].type,
                               RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES,
                               "unknown required section type", t[i].type, 0);
    s = rr__find(room, RR_SEC_STRINGS, &off);
    if (s && (s->elem != 1 || s->size == 0 || room->blob[off + s->size - 1] != 0))
        return rr__fail_in(diag, RR_ERR_RANGE, RR_SEC_STRINGS, off,
                           "string table must end with NUL", s->size, 0);
    s = rr__find(room, RR_SEC_INFO, &off);
    if (s) {
        const rr_blob_info *bi = (const rr_blob_info *)(const void *)(room->blob + off);
        if (s->elem != sizeof(rr_blob_info) || s->size != sizeof(rr_blob_info))
            return rr__fail_in(diag, RR_ERR_SECTION, RR_SEC_INFO, off, "record count",
                               s->size / (uint32_t)sizeof(rr_blob_info), 1);
        if (!rr__string_ok(room, bi->source_name))
            return rr__fail(room, diag, RR_ERR_INDEX, &bi->source_name, "string offset",
                            bi->source_name, 0);
    }
    return RR_OK;
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
    return rr__fail_in(diag, RR_ERR_FORMAT, 0, AT(format), "room format", room->format, 0);
}

rr_err rr_open_diag(const void *blob, uint32_t size, void *arena, uint32_t arena_size,
                    rr_room *room, rr_diag *diag)
{
    const rr_blob_header *h = header_of(blob);
    rr_room r;
    rr_err e;
    if (!room)
        return rr__fail_in(diag, RR_ERR_ARG, 0, 0, "room pointer", 0, 0);
    e = check_header(blob, size, diag);
    if (e)
        return e;
    if (rr_crc32(0, (const uint8_t *)blob + RR_CHECKSUM_FROM, size - RR_CHECKSUM_FROM) !=
        h->checksum)
        return rr__fail_in(diag, RR_ERR_CHECKSUM, 0, AT(checksum), "checksum", h->checksum, 0);
    e = check_table(blob, size, diag);
    if (e)
        return e;
    if (h->max_depth > RR_MAX_DEPTH)
        return rr__fail_in(diag, RR_ERR_DEPTH, 0, AT(max_depth), "declared max depth",
                           h->max_depth, RR_MAX_DEPTH);
    if (arena_size < h->arena)
        return rr__fail_in(diag, RR_ERR_ARENA, 0, AT(arena), "arena bytes", arena_size, h->arena);
    if (h->arena && (!arena || ((uintptr_t)arena & 3u)))
        return rr__fail_in(diag, arena ? RR_ERR_ALIGN : RR_ERR_ARG, 0, AT(arena), "arena pointer",
                           0, 4);
    r.blob = blob;
    r.size = size;
    r.format = h->format;
    r.coord_frac = h->fixed & 0xffu;
    r.max_depth = h->max_depth;
    r.arena_need = h->arena;
    r.nsections = h->nsections;
    r.sections = (const uint32_t *)(const void *)((const uint8_t *)blob + RR_HEADER_BYTES);
    r.view = 0;
    r.arena = arena;
    r.arena_size = arena_size;
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

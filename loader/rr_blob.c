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

/* ---- failures ------------------------------------------------------------ */

__attribute__((cold, noinline)) rr_err rr__fail_in(rr_diag *diag, rr_err e, uint32_t section,
                                                   uint32_t offset, const char *what,
                                                   uint32_t value, uint32_t limit)
{
    if (diag) {
        diag->section = section;
        diag->record = RR_NO_RECORD;
        diag->offset = offset;
        diag->what = what;
        diag->value = value;
        diag->limit = limit;
    }
    return e;
}

__attribute__((cold, noinline)) rr_err rr__fail(const rr_room *room, rr_diag *diag, rr_err e,
                                                const void *at, const char *what,
                                                uint32_t value, uint32_t limit)
{
    uint32_t off = at ? rr__offset(room, at) : 0, i;
    rr__fail_in(diag, e, 0, off, what, value, limit);
    if (!diag)
        return e;
    /* The section whose bytes hold the field, and the record in it. */
    for (i = 0; i < room->nsections; i++) {
        const rr_section_entry *s = (const rr_section_entry *)(const void *)room->sections + i;
        if (off >= s->offset && off - s->offset < s->size) {
            diag->section = s->type;
            if (s->count && s->size % s->count == 0)
                diag->record = (off - s->offset) / (s->size / s->count);
            break;
        }
    }
    return e;
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

/* Section table: bounds, alignment, order, no overlap, no duplicate type. */
static rr_err check_table(const void *blob, uint32_t size, rr_diag *diag)
{
    const rr_section_entry *t =
        (const rr_section_entry *)(const void *)((const uint8_t *)blob + RR_HEADER_BYTES);
    uint32_t n = header_of(blob)->nsections, i, j, end, prev_end;
    if (n > RR_MAX_SECTIONS)
        return rr__fail_in(diag, RR_ERR_SECTION, 0, AT(nsections), "section count", n,
                           RR_MAX_SECTIONS);
    end = RR_HEADER_BYTES + n * RR_SECTION_ENTRY_BYTES;
    if (end > size)
        return rr__fail_in(diag, RR_ERR_TRUNC, 0, AT(nsections), "section table end", end, size);
    prev_end = end;
    for (i = 0; i < n; i++) {
        const rr_section_entry *s = &t[i];
        uint32_t at = RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES;
        if (s->offset & 3u)
            return rr__fail_in(diag, RR_ERR_SECTION, s->type, at + 4, "section offset alignment",
                               s->offset, 4);
        if (s->offset < prev_end)
            return rr__fail_in(diag, RR_ERR_SECTION, s->type, at + 4, "section overlaps previous",
                               s->offset, prev_end);
        if (s->offset > size || s->size > size - s->offset)
            return rr__fail_in(diag, RR_ERR_SECTION, s->type, at + 8, "section end past blob",
                               s->size, size - (s->offset > size ? size : s->offset));
        for (j = 0; j < i; j++)
            if (t[j].type == s->type)
                return rr__fail_in(diag, RR_ERR_SECTION, s->type, at, "duplicate section type",
                                   s->type, 0);
        prev_end = s->offset + s->size;
    }
    return RR_OK;
}

/* The section table entry of type, or NULL. */
static const rr_section_entry *entry(const rr_room *room, uint32_t type)
{
    const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections;
    uint32_t i;
    for (i = 0; i < room->nsections; i++)
        if (t[i].type == type)
            return &t[i];
    return 0;
}

/* ---- section access ------------------------------------------------------ */

rr_err rr_section(const rr_room *room, uint32_t type, const void **data, uint32_t *count)
{
    const rr_section_entry *s;
    if (!room || !data || !count)
        return RR_ERR_ARG;
    s = entry(room, type);
    if (!s)
        return RR_ERR_MISSING;
    *data = room->blob + s->offset;
    *count = s->count;
    return RR_OK;
}

/* The string table of an open room: O(1) through the view. */
static const char *strings(const rr_room *room, uint32_t *n)
{
    const rr_section_entry *s;
    if (room->view) {
        *n = room->view[RR_S_STRINGS].count;
        return (const char *)rr__records(room, RR_S_STRINGS);
    }
    s = entry(room, RR_SEC_STRINGS);
    *n = s ? s->count : 0;
    return s ? (const char *)room->blob + s->offset : 0;
}

int rr__string_ok(const rr_room *room, uint32_t off)
{
    uint32_t n;
    strings(room, &n);
    return off < n;  /* the table ends with a NUL (checked at open) */
}

const char *rr_string(const rr_room *room, uint32_t offset)
{
    uint32_t n;
    const char *t = room ? strings(room, &n) : 0;
    return t && offset < n ? t + offset : "";
}

/* ---- the schema ---------------------------------------------------------- */

/* The value of one field element, sign-extended when the type is signed. */
static uint32_t load(const uint8_t *p, uint32_t type)
{
    switch (type) {
    case RR_T_U8: return *p;
    case RR_T_I8: return (uint32_t)(int32_t) * (const int8_t *)p;
    case RR_T_U16: return *(const uint16_t *)(const void *)p;
    case RR_T_I16: return (uint32_t)(int32_t) * (const int16_t *)(const void *)p;
    default: return *(const uint32_t *)(const void *)p;
    }
}

/* What diag->what says for each kind's failure. */
static const char *const kind_what[RR_K_N] = {
    "", "must be zero", "coordinate range", "Q16.16 range", "value range", "value limit",
    "unknown flag bits", "index", "index", "record number", "run start", "run end",
    "string offset", "record count", ""};

/* One field element: RR_OK, or the failure with its value and bound. */
static rr_err check_value(const rr_room *room, const rr_field_desc *f, uint32_t v,
                          uint32_t first, uint32_t *limit)
{
    uint32_t count = f->kind >= RR_K_INDEX && f->kind != RR_K_STRING ? rr__count(room, f->arg) : 0;
    uint32_t none = f->type & 4u ? 0xffffffffu : (1u << ((f->type & 7u) * 8u)) - 1u;
    switch (f->kind) {
    case RR_K_ZERO: *limit = 0; return v == 0 ? RR_OK : RR_ERR_RANGE;
    case RR_K_COORD:
    case RR_K_FIX:
    case RR_K_ABS: *limit = f->arg; return v + f->arg <= 2u * f->arg ? RR_OK : RR_ERR_RANGE;
    case RR_K_MAX: *limit = f->arg; return v <= f->arg ? RR_OK : RR_ERR_RANGE;
    case RR_K_FLAGS: *limit = f->arg; return (v & ~f->arg) == 0 ? RR_OK : RR_ERR_RANGE;
    case RR_K_INDEX_OPT:
        if ((v & none) == none)
            return RR_OK;
        /* fall through */
    case RR_K_INDEX: *limit = count; return (v & none) < count ? RR_OK : RR_ERR_INDEX;
    case RR_K_INDEX1:
    case RR_K_FIRST: *limit = count; return v <= count ? RR_OK : RR_ERR_INDEX;
    case RR_K_COUNT: *limit = count - first; return v <= count - first ? RR_OK : RR_ERR_INDEX;
    case RR_K_STRING: *limit = rr__count(room, RR_S_STRINGS);
        return v < *limit ? RR_OK : RR_ERR_INDEX;
    case RR_K_COUNTOF: *limit = count; return v == count ? RR_OK : RR_ERR_SECTION;
    default: return RR_OK;
    }
}

/* Every checked field of every record of slot k (fields: its descriptors). */
static rr_err check_records(const rr_room *room, const rr_section_desc *sd,
                            const rr_field_desc *fields, uint32_t k, rr_diag *diag)
{
    const uint8_t *rec = rr__records(room, k);
    uint32_t i, n = rr__count(room, k);
    for (i = 0; i < n; i++, rec += sd->elem) {
        uint32_t j, first = 0;
        for (j = 0; j < sd->nfields; j++) {
            const rr_field_desc *f = &fields[j];
            uint32_t w = f->type & 7u, e;
            for (e = 0; e < f->n; e++) {
                const uint8_t *p = rec + f->off + e * w;
                uint32_t v = load(p, f->type), limit = 0;
                rr_err err = check_value(room, f, v, first, &limit);
                if (err)
                    return rr__fail(room, diag, err, p, kind_what[f->kind], v, limit);
                if (f->kind == RR_K_FIRST)
                    first = v;
            }
        }
    }
    return RR_OK;
}

__attribute__((cold)) rr_err rr__schema_open(rr_room *room, const rr_schema *schema,
                                             rr_diag *diag)
{
    const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections;
    const rr_field_desc *fields = schema->fields;
    uint32_t bytes = RR_VIEW_BYTES(schema->nsections), i, k;
    rr_view_entry *view = (rr_view_entry *)(void *)room->arena;
    /* Every section is one the schema knows, common, or optional. */
    for (i = 0; i < room->nsections; i++) {
        int known = (t[i].type & RR_SEC_OPTIONAL) != 0;
        for (k = 0; k < schema->nsections && !known; k++)
            known = schema->sections[k].type == t[i].type;
        if (!known)
            return rr__fail_in(diag, RR_ERR_SECTION, t[i].type,
                               RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES,
                               "unknown required section type", t[i].type, 0);
    }
    if (room->arena_need < bytes)
        return rr__fail_in(diag, RR_ERR_ARENA, 0, AT(arena), "arena for the section view",
                           room->arena_need, bytes);
    /* Presence and sizes; the view. */
    for (k = 0; k < schema->nsections; k++) {
        const rr_section_desc *sd = &schema->sections[k];
        const rr_section_entry *s = entry(room, sd->type);
        uint32_t at = s ? (uint32_t)((const uint8_t *)s - room->blob) : 0;
        view[k].offset = 0;
        view[k].count = 0;
        if (!s) {
            if (sd->presence != RR_P_OPT)
                return rr__fail_in(diag, RR_ERR_MISSING, sd->type, 0, "required section",
                                   sd->type, 0);
            continue;
        }
        if (s->size / sd->elem != s->count || s->size % sd->elem != 0)
            return rr__fail_in(diag, RR_ERR_SECTION, sd->type, at + 12, "record count vs size",
                               s->count, s->size / sd->elem);
        if (sd->presence == RR_P_ONE && s->count != 1)
            return rr__fail_in(diag, RR_ERR_SECTION, sd->type, at + 12, "record count", s->count,
                               1);
        view[k].offset = s->offset;
        view[k].count = s->count;
    }
    room->view = view;
    /* The string table ends with a NUL, so every offset in it is a string. */
    if (view[RR_S_STRINGS].count &&
        ((const uint8_t *)rr__records(room, RR_S_STRINGS))[view[RR_S_STRINGS].count - 1] != 0)
        return rr__fail_in(diag, RR_ERR_RANGE, RR_SEC_STRINGS, view[RR_S_STRINGS].offset,
                           "string table must end with NUL", view[RR_S_STRINGS].count, 0);
    /* Every checked field of every record. */
    for (k = 0; k < schema->nsections; k++) {
        const rr_section_desc *sd = &schema->sections[k];
        rr_err e = check_records(room, sd, fields, k, diag);
        if (e)
            return e;
        fields += sd->nfields;
    }
    room->arena += bytes;
    room->arena_size -= bytes;
    room->arena_need -= bytes;
    return RR_OK;
}

/* RAW blobs (tests, user data) have no schema and no view: their common
 * sections are checked here, every other section must be optional. */
static rr_err raw_validate(rr_room *room, rr_diag *diag)
{
    const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections;
    const rr_section_entry *s;
    uint32_t i;
    for (i = 0; i < room->nsections; i++)
        if (t[i].type != RR_SEC_STRINGS && t[i].type != RR_SEC_INFO &&
            !(t[i].type & RR_SEC_OPTIONAL))
            return rr__fail_in(diag, RR_ERR_SECTION, t[i].type,
                               RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES,
                               "unknown required section type", t[i].type, 0);
    s = entry(room, RR_SEC_STRINGS);
    if (s && (s->size != s->count || s->count == 0 || room->blob[s->offset + s->count - 1] != 0))
        return rr__fail_in(diag, RR_ERR_RANGE, RR_SEC_STRINGS, s->offset,
                           "string table must end with NUL", s->count, 0);
    s = entry(room, RR_SEC_INFO);
    if (s) {
        const rr_blob_info *bi = (const rr_blob_info *)(const void *)(room->blob + s->offset);
        if (s->count != 1 || s->size != sizeof(rr_blob_info))
            return rr__fail_in(diag, RR_ERR_SECTION, RR_SEC_INFO, s->offset, "record count",
                               s->count, 1);
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

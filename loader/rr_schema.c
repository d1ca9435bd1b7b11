/* rr_schema.c - what every runtime shares: the generic schema checker that
 * builds the section view, the one failure mechanism, and section and
 * string access (rr_blobfmt.h describes the vocabulary, rr_int.h the API).
 */
#define RR_INTERNAL
#include "rr_int.h"

#define AT(field) ((uint32_t)offsetof(rr_blob_header, field))

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
    uint32_t off = at ? rr__offset(room, at) : 0, i, s;
    rr__fail_in(diag, e, 0, off, what, value, limit);
    if (!diag)
        return e;
    /* The section whose bytes hold the field, and the record in it. */
    for (i = 0, s = RR_TABLE_END(room->nsections); i < room->nsections; i++) {
        const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections + i;
        if (off >= s && off - s < t->size) {
            diag->section = t->type;
            diag->record = (off - s) / t->elem;   /* elem != 0: checked with the table */
            break;
        }
        s = RR_NEXT_SECTION(s, t->size);
    }
    return e;
}

const rr_section_entry *rr__find(const rr_room *room, uint32_t type, uint32_t *offset)
{
    const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections;
    uint32_t i, off = RR_TABLE_END(room->nsections);
    for (i = 0; i < room->nsections; i++) {
        if (t[i].type == type) {
            *offset = off;
            return &t[i];
        }
        off = RR_NEXT_SECTION(off, t[i].size);
    }
    return 0;
}

/* ---- section access ------------------------------------------------------ */

rr_err rr_section(const rr_room *room, uint32_t type, const void **data, uint32_t *count)
{
    const rr_section_entry *s;
    uint32_t off;
    if (!room || !data || !count)
        return RR_ERR_ARG;
    s = rr__find(room, type, &off);
    if (!s)
        return RR_ERR_MISSING;
    *data = room->blob + off;
    *count = s->size / s->elem;
    return RR_OK;
}

/* The string table of an open room: O(1) through the view. */
static const char *strings(const rr_room *room, uint32_t *n)
{
    const rr_section_entry *s;
    uint32_t off;
    if (room->view) {
        *n = room->view[RR_S_STRINGS].count;
        return (const char *)rr__records(room, RR_S_STRINGS);
    }
    s = rr__find(room, RR_SEC_STRINGS, &off);
    *n = s ? s->size : 0;   /* records of 1 byte (rr_open checked) */
    return s ? (const char *)room->blob + off : 0;
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

/* Two NUL-terminated strings equal (the runtimes' name lookups). */
int rr__str_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        if (*a != *b)
            return 0;
        if (!*a)
            return 1;
    }
}

const char *rr__kv_value(const rr_room *room, const rr_kv *kv, uint32_t n, const char *key)
{
    uint32_t k;
    for (k = 0; k < n; k++)
        if (rr__str_eq(rr_string(room, kv[k].key), key))
            return rr_string(room, kv[k].value);
    return 0;
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

/* What a failure of each kind says: diag->what, and the error code. */
static const char *const kind_what[RR_K_N] = {
    "", "must be zero", "coordinate range", "Q16.16 range", "value range", "value limit",
    "unknown flag bits", "index", "index", "record number", "run start", "run end",
    "string offset", "record count", ""};
static const int8_t kind_err[RR_K_N] = {
    RR_OK, RR_ERR_RANGE, RR_ERR_RANGE, RR_ERR_RANGE, RR_ERR_RANGE, RR_ERR_RANGE,
    RR_ERR_RANGE, RR_ERR_INDEX, RR_ERR_INDEX, RR_ERR_INDEX, RR_ERR_INDEX, RR_ERR_INDEX,
    RR_ERR_INDEX, RR_ERR_SECTION, RR_OK};

/* The records of the section a field refers to (its bound for the index
 * kinds; the string table's bytes for STRING). */
static uint32_t target_count(const rr_room *room, const rr_field_desc *f)
{
    if (f->kind == RR_K_STRING)
        return rr__count(room, RR_S_STRINGS);
    return f->kind >= RR_K_INDEX ? rr__count(room, f->arg) : 0;
}

/* A field's rule as one unsigned comparison, v - lo <= span, for the kinds
 * whose bound is the same in every record. 0 for the kinds checked value by
 * value (INDEX_OPT, FLAGS, COUNT: value_ok) and for an index into an empty
 * section, which no value passes. */
static int field_range(const rr_room *room, const rr_field_desc *f, uint32_t *lo,
                       uint32_t *span)
{
    uint32_t count = target_count(room, f);
    *lo = 0;
    switch (f->kind) {
    case RR_K_ZERO: *span = 0; return 1;
    case RR_K_COORD:
    case RR_K_FIX:
    case RR_K_ABS: *lo = 0u - f->arg; *span = 2u * f->arg; return 1;   /* |v| <= arg */
    case RR_K_MAX: *span = f->arg; return 1;
    case RR_K_INDEX:                         /* v < count; masked to its width: unsigned only */
    case RR_K_STRING: *span = count - 1u; return count != 0 && !(f->type & RR_T_SIGNED);
    case RR_K_INDEX1:
    case RR_K_FIRST: *span = count; return 1;
    case RR_K_COUNTOF: *lo = count; *span = 0; return 1;
    default: return 0;
    }
}

/* One value of a field that field_range leaves to be checked value by
 * value (first: the start of its record's run, for COUNT; count: the
 * target_count of the field, worked out once by the caller). */
static int value_ok(const rr_field_desc *f, uint32_t v, uint32_t first, uint32_t count)
{
    uint32_t none = f->type & 4u ? 0xffffffffu : (1u << ((f->type & 7u) * 8u)) - 1u;
    switch (f->kind) {
    case RR_K_FLAGS: return (v & ~f->arg) == 0;
    case RR_K_INDEX_OPT: return (v & none) == none || (v & none) < count;   /* all ones: none */
    case RR_K_INDEX: return (v & none) < count;
    case RR_K_STRING: return v < count;
    case RR_K_COUNT: return first <= count && v <= count - first;
    default: return 1;
    }
}

/* The bound diag->limit names when field f fails. */
static uint32_t value_limit(const rr_room *room, const rr_field_desc *f, uint32_t first)
{
    switch (f->kind) {
    case RR_K_ZERO: return 0;
    case RR_K_COUNT: return target_count(room, f) - first;
    case RR_K_INDEX:
    case RR_K_INDEX_OPT:
    case RR_K_INDEX1:
    case RR_K_FIRST:
    case RR_K_STRING:
    case RR_K_COUNTOF: return target_count(room, f);
    default: return f->arg;
    }
}

/* The last FIRST value before field j of a record: the start of the run a
 * COUNT field measures (0 when the record has none). */
static uint32_t run_first(const uint8_t *rec, const rr_field_desc *fields, uint32_t j)
{
    while (j-- > 0)
        if (fields[j].kind == RR_K_FIRST)
            return load(rec + fields[j].off + (fields[j].n - 1u) * (fields[j].type & 7u),
                        fields[j].type);
    return 0;
}

/* The first of n values, elem bytes apart from p, of storage type `type`,
 * outside [lo, lo + span] (v - lo > span, unsigned); n when none is. The
 * loop of a ranged field: scan_type is inlined once per type (first_out),
 * so each loop loads its values without a switch a value. */
static inline __attribute__((always_inline)) uint32_t scan_type(const uint8_t *p, uint32_t elem,
                                                                uint32_t n, uint32_t type,
                                                                uint32_t lo, uint32_t span)
{
    uint32_t r;
    for (r = 0; r < n; r++, p += elem)
        if (load(p, type) - lo > span)
            return r;
    return n;
}

static uint32_t first_out(const uint8_t *p, uint32_t elem, uint32_t n, uint32_t type,
                          uint32_t lo, uint32_t span)
{
    switch (type) {
    case RR_T_U8: return scan_type(p, elem, n, RR_T_U8, lo, span);
    case RR_T_I8: return scan_type(p, elem, n, RR_T_I8, lo, span);
    case RR_T_U16: return scan_type(p, elem, n, RR_T_U16, lo, span);
    case RR_T_I16: return scan_type(p, elem, n, RR_T_I16, lo, span);
    default: return scan_type(p, elem, n, RR_T_U32, lo, span);
    }
}

/* The first of records [0, n) whose field j breaks its rule (n when none
 * does), and in it the element (*elem). A ranged field (field_range) is
 * scanned element by element (first_out): the first bad record is the
 * lowest any element's scan stops at, and its element the first that
 * stops there, as a walk record by record would find them. */
__attribute__((noinline)) static uint32_t first_bad(const rr_room *room, const uint8_t *recs,
                                                    uint32_t elem, uint32_t n,
                                                    const rr_field_desc *fields, uint32_t j,
                                                    uint32_t *bad_elem)
{
    const rr_field_desc *f = &fields[j];
    uint32_t w = f->type & 7u, lo, span, r, e, count;
    if (field_range(room, f, &lo, &span)) {
        for (e = 0; e < f->n; e++) {
            r = first_out(recs + f->off + e * w, elem, n, f->type, lo, span);
            if (r < n)
                n = r, *bad_elem = e;   /* later elements: only records before it */
        }
        return n;
    }
    count = target_count(room, f);
    for (r = 0; r < n; r++, recs += elem)
        for (e = 0; e < f->n; e++)
            if (!value_ok(f, load(recs + f->off + e * w, f->type), run_first(recs, fields, j),
                          count)) {
                *bad_elem = e;
                return r;
            }
    return n;
}

/* Every checked field of every record of slot k (fields: its descriptors).
 * Field by field, so each field's bound is worked out once, not once a
 * record; the failure reported is still the one a walk record by record
 * meets first (the lowest record, then the first field in it): each field
 * looks only at the records before the first bad one found so far. */
static rr_err check_records(const rr_room *room, const rr_section_desc *sd,
                            const rr_field_desc *fields, uint32_t k, rr_diag *diag)
{
    const uint8_t *recs = rr__records(room, k), *rec, *p;
    const rr_field_desc *f = 0;
    uint32_t j, n = rr__count(room, k), bad_elem = 0, e = 0, r, v;
    for (j = 0; j < sd->nfields; j++) {
        r = first_bad(room, recs, sd->elem, n, fields, j, &e);
        if (r < n)
            n = r, f = &fields[j], bad_elem = e;   /* the next fields: only records before it */
    }
    if (!f)
        return RR_OK;
    rec = recs + n * sd->elem;
    p = rec + f->off + bad_elem * (f->type & 7u);
    v = load(p, f->type);
    return rr__fail(room, diag, (rr_err)kind_err[f->kind], p, kind_what[f->kind], v,
                    value_limit(room, f, run_first(rec, fields, (uint32_t)(f - fields))));
}

/* Presence and sizes of the schema's sections, and the view: where each
 * one's records start and how many, in one walk of the table (offsets are
 * implied by its order). Out of line: its frame is gone before the record
 * checks, the deepest part of rr_open. */
__attribute__((cold, noinline)) static rr_err build_view(const rr_room *room,
                                                         const rr_schema *schema,
                                                         rr_view_entry *view, rr_diag *diag)
{
    const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections;
    uint32_t i, k, off = RR_TABLE_END(room->nsections);
    for (k = 0; k < schema->nsections; k++)
        view[k].offset = view[k].count = 0;   /* offset 0: absent (sections follow the header) */
    for (i = 0; i < room->nsections; off = RR_NEXT_SECTION(off, t[i].size), i++) {
        const rr_section_desc *sd;
        uint32_t at = RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES;
        for (k = 0; k < schema->nsections && schema->sections[k].type != t[i].type; k++)
            ;
        if (k == schema->nsections)
            continue;   /* an optional section this loader does not know */
        sd = &schema->sections[k];
        if (t[i].elem != sd->elem)
            return rr__fail_in(diag, RR_ERR_SECTION, sd->type,
                               at + (uint32_t)offsetof(rr_section_entry, elem), "record bytes",
                               t[i].elem, sd->elem);
        view[k].offset = off;
        view[k].count = t[i].size / sd->elem;   /* sd->elem: a constant of the schema */
        if (sd->presence == RR_P_ONE && view[k].count != 1)
            return rr__fail_in(diag, RR_ERR_SECTION, sd->type,
                               at + (uint32_t)offsetof(rr_section_entry, size), "record count",
                               view[k].count, 1);
    }
    for (k = 0; k < schema->nsections; k++)
        if (!view[k].offset && schema->sections[k].presence != RR_P_OPT)
            return rr__fail_in(diag, RR_ERR_MISSING, schema->sections[k].type, 0,
                               "required section", schema->sections[k].type, 0);
    return RR_OK;
}

__attribute__((cold)) rr_err rr__schema_open(rr_room *room, const rr_schema *schema,
                                             rr_diag *diag)
{
    const rr_section_entry *t = (const rr_section_entry *)(const void *)room->sections;
    const rr_field_desc *fields = schema->fields;
    uint32_t bytes = RR_VIEW_BYTES(schema->nsections), i, k;
    rr_view_entry *view = (rr_view_entry *)(void *)room->arena;
    uint32_t version = ((const rr_blob_header *)(const void *)room->blob)->schema;
    rr_err e;
    /* Sections laid out as this loader's schema says (else: rebake). */
    if (version != schema->version)
        return rr__fail_in(diag, RR_ERR_VERSION, 0, AT(schema), "room format schema version",
                           version, schema->version);
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
    e = build_view(room, schema, view, diag);
    if (e)
        return e;
    room->view = view;
    /* The string table ends with a NUL, so every offset in it is a string. */
    if (view[RR_S_STRINGS].count &&
        ((const uint8_t *)rr__records(room, RR_S_STRINGS))[view[RR_S_STRINGS].count - 1] != 0)
        return rr__fail_in(diag, RR_ERR_RANGE, RR_SEC_STRINGS, view[RR_S_STRINGS].offset,
                           "string table must end with NUL", view[RR_S_STRINGS].count, 0);
    /* Every checked field of every record. */
    for (k = 0; k < schema->nsections; k++) {
        const rr_section_desc *sd = &schema->sections[k];
        e = check_records(room, sd, fields, k, diag);
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

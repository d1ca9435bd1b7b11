/* rrb_schema.c - the blob schemas with their names (see rrb_schema.h). */
#include "rrb_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/rr_emi_blob.h"
#include "../loader/rr_limits.h"
#include "../loader/rr_rmesh_blob.h"
#include "../loader/rr_rmf_blob.h"
#include "../loader/rr_roo_blob.h"

/* One field of the X-macros with its name and doc line. */
#define RRB_FIELD(T, name, type, dim, kind, arg, doc) \
    {#name, (uint32_t)offsetof(T, name), RR_T_##type, (uint32_t)RR_FIELD_N(T, name, type), \
     RR_K_##kind, (uint32_t)(arg), doc},
/* The names of a section's fields: one array per section, named after its
 * struct and section (sections may share a struct, formats a section name). */
#define RRB_NAMES(P, name, type, T, FIELDS, presence) \
    static const rrb_field T##_##name##_names[] = {FIELDS(RRB_FIELD, T)};
#define RRB_SECTION(P, name, type, T, FIELDS, presence) \
    {#name, (uint32_t)(type), (uint32_t)sizeof(T), RR_P_##presence, #T, T##_##name##_names, \
     (uint32_t)(sizeof T##_##name##_names / sizeof T##_##name##_names[0])},
/* A format's schema from its section list SECTIONS(S, P) (rr_blobfmt.h):
 * its sections' names, then its sections after the common ones, as the
 * loader numbers their slots. */
#define RRB_FORMAT(id, fmt, SECTIONS, VERSION)                                          \
    SECTIONS(RRB_NAMES, ~)                                                              \
    static const rrb_section id##_sections[] = {RR_COMMON_SECTIONS(RRB_SECTION, ~)      \
                                                SECTIONS(RRB_SECTION, ~)};              \
    static const rrb_schema id##_schema = {#id, fmt, id##_sections,                     \
                                           sizeof id##_sections / sizeof id##_sections[0], \
                                           VERSION};
/* The header and the section table entry, as records of no section. */
#define RRB_RECORD_NAMES(T, FIELDS) static const rrb_field T##_names[] = {FIELDS(RRB_FIELD, T)};
RRB_RECORD_NAMES(rr_blob_header, RR_BLOB_HEADER)
RRB_RECORD_NAMES(rr_section_entry, RR_SECTION_ENTRY)
const rrb_section rrb_header_record = {
    "header", 0, sizeof(rr_blob_header), RR_P_ONE, "rr_blob_header", rr_blob_header_names,
    sizeof rr_blob_header_names / sizeof rr_blob_header_names[0]};
const rrb_section rrb_entry_record = {
    "section_table", 0, sizeof(rr_section_entry), RR_P_REQ, "rr_section_entry",
    rr_section_entry_names, sizeof rr_section_entry_names / sizeof rr_section_entry_names[0]};

RR_COMMON_SECTIONS(RRB_NAMES, ~)
static const rrb_section common[] = {RR_COMMON_SECTIONS(RRB_SECTION, ~)};

RRB_FORMAT(roo, RR_FMT_ROO, RR_ROO_SECTIONS, RR_ROO_SCHEMA_VERSION)
RRB_FORMAT(rmf, RR_FMT_RMF, RR_RMF_SECTIONS, RR_RMF_SCHEMA_VERSION)
RRB_FORMAT(rmesh, RR_FMT_RMESH, RR_RMESH_SECTIONS, RR_RMESH_SCHEMA_VERSION)
RRB_FORMAT(emi, RR_FMT_EMI, RR_EMI_SECTIONS, RR_EMI_SCHEMA_VERSION)

const rrb_schema *rrb_schema_of(uint32_t format)
{
    switch (format) {
    case RR_FMT_ROO: return &roo_schema;
    case RR_FMT_RMF: return &rmf_schema;
    case RR_FMT_RMESH: return &rmesh_schema;
    case RR_FMT_EMI: return &emi_schema;
    default: return NULL;
    }
}

const rrb_section *rrb_schema_section(const rrb_schema *s, uint32_t type)
{
    uint32_t i;
    for (i = 0; s && i < s->nsections; i++)
        if (s->sections[i].type == type)
            return &s->sections[i];
    for (i = 0; i < sizeof common / sizeof common[0]; i++)
        if (common[i].type == type)
            return &common[i];
    return NULL;
}

uint32_t rrb_schema_view_bytes(uint32_t format)
{
    const rrb_schema *s = rrb_schema_of(format);
    return s ? RR_VIEW_BYTES(s->nsections) : 0;
}

static void swap_bytes(uint8_t *p, uint32_t w)
{
    uint8_t t;
    if (w == 2) {
        t = p[0]; p[0] = p[1]; p[1] = t;
    } else if (w == 4) {
        t = p[0]; p[0] = p[3]; p[3] = t;
        t = p[1]; p[1] = p[2]; p[2] = t;
    }
}

void rrb_swap_records(const rrb_section *sec, uint8_t *p, size_t n)
{
    size_t r;
    uint32_t f, e;
    for (r = 0; r < n; r++, p += sec->elem)
        for (f = 0; f < sec->nfields; f++) {
            const rrb_field *fd = &sec->fields[f];
            for (e = 0; e < fd->n; e++)
                swap_bytes(p + fd->off + e * (fd->type & 7u), fd->type & 7u);
        }
}

uint32_t rrb_blob_spans(const uint8_t *d, size_t n, rrb_span *out, uint32_t max)
{
    const rr_blob_header *h = (const rr_blob_header *)(const void *)d;
    const rr_section_entry *t = (const rr_section_entry *)(const void *)(d + RR_HEADER_BYTES);
    size_t off;
    uint32_t i;
    if (n < RR_HEADER_BYTES || h->nsections > RR_MAX_SECTIONS)
        return 0;
    off = RR_TABLE_END(h->nsections);
    for (i = 0; i < h->nsections && i < max && RR_TABLE_END(i + 1) <= n; i++) {
        if (t[i].elem == 0 || off > n || t[i].size > n - off)
            break;
        out[i].type = t[i].type;
        out[i].elem = t[i].elem;
        out[i].offset = (uint32_t)off;
        out[i].size = t[i].size;
        out[i].count = t[i].size / t[i].elem;
        off = RR_NEXT_SECTION(off, (size_t)t[i].size);
    }
    return i;
}

/* The entries of the table as far as it lies in the buffer. */
static void swap_table(uint8_t *d, size_t n, uint32_t ns)
{
    uint32_t i;
    for (i = 0; i < ns && i < RR_MAX_SECTIONS && RR_TABLE_END(i + 1) <= n; i++)
        rrb_swap_records(&rrb_entry_record, d + RR_HEADER_BYTES + (size_t)i * RR_SECTION_ENTRY_BYTES,
                         1);
}

int rrb_swap_blob(uint8_t *d, size_t n, int from_be)
{
    const rr_blob_header *h = (const rr_blob_header *)(const void *)d;
    const rrb_schema *s;
    rrb_span sp[RR_MAX_SECTIONS];
    uint32_t ns, i;
    if (n < RR_HEADER_BYTES)
        return -1;
    /* Header and table to host order first: the sections' places follow. */
    if (from_be) {
        rrb_swap_records(&rrb_header_record, d, 1);
        swap_table(d, n, h->nsections);
    }
    s = rrb_schema_of(h->format);
    ns = rrb_blob_spans(d, n, sp, RR_MAX_SECTIONS);
    for (i = 0; i < ns; i++) {
        const rrb_section *sec = rrb_schema_section(s, sp[i].type);
        if (sec && sec->elem == sp[i].elem)
            rrb_swap_records(sec, d + sp[i].offset, sp[i].count);
    }
    if (!from_be) {
        swap_table(d, n, h->nsections);
        rrb_swap_records(&rrb_header_record, d, 1);
    }
    return 0;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A blob in host order: an aligned copy, byte-swapped through the schema
 * when it was baked big-endian (*be set). The checksum of a swapped copy is
 * recomputed when the original's was right and left wrong when it was not,
 * so rr_open reports what the big-endian board would. NULL when the buffer
 * is shorter than a header. */
uint8_t *rrb_blob_host_copy(const uint8_t *d, size_t n, int *be)
{
    uint8_t *c;
    rr_blob_header *h;
    int crc_ok;
    *be = 0;
    if (n < RR_HEADER_BYTES)
        return NULL;
    c = malloc(n + 4);
    if (!c)
        return NULL;
    memcpy(c, d, n);
    h = (rr_blob_header *)(void *)c;
    if (h->endian != RR_ENDIAN_SWAPPED)
        return c;
    *be = 1;
    crc_ok = rr_crc32(0, d + RR_CHECKSUM_FROM, (uint32_t)(n - RR_CHECKSUM_FROM)) ==
             be32(d + offsetof(rr_blob_header, checksum));
    rrb_swap_blob(c, n, 1);
    h->checksum = rr_crc32(0, c + RR_CHECKSUM_FROM, (uint32_t)(n - RR_CHECKSUM_FROM)) ^
                  (crc_ok ? 0u : 1u);
    return c;
}

/* ---- naming a place in a blob ------------------------------------------- */

static const rrb_field *field_at(const rrb_section *sec, uint32_t in, uint32_t *element)
{
    uint32_t f;
    for (f = 0; f < sec->nfields; f++) {
        const rrb_field *fd = &sec->fields[f];
        uint32_t w = fd->type & 7u;
        if (in >= fd->off && in < fd->off + w * fd->n) {
            *element = (in - fd->off) / w;
            return fd;
        }
    }
    return NULL;
}

void rrb_schema_place(const uint8_t *d, size_t n, uint32_t offset, rrb_place *out)
{
    const rr_blob_header *h = (const rr_blob_header *)(const void *)d;
    rrb_span sp[RR_MAX_SECTIONS];
    uint32_t i, ns;
    memset(out, 0, sizeof *out);
    out->record = RR_NO_RECORD;
    if (n < RR_HEADER_BYTES)
        return;
    if (offset < RR_HEADER_BYTES) {
        out->sec = &rrb_header_record;
        out->record = 0;
        out->field = field_at(out->sec, offset, &out->element);
        return;
    }
    ns = h->nsections;
    if ((offset - RR_HEADER_BYTES) / RR_SECTION_ENTRY_BYTES < ns) {
        out->sec = &rrb_entry_record;
        out->record = (offset - RR_HEADER_BYTES) / RR_SECTION_ENTRY_BYTES;
        out->field = field_at(out->sec, (offset - RR_HEADER_BYTES) % RR_SECTION_ENTRY_BYTES,
                              &out->element);
        return;
    }
    ns = rrb_blob_spans(d, n, sp, RR_MAX_SECTIONS);
    for (i = 0; i < ns; i++) {
        const rrb_span *e = &sp[i];
        if (offset >= e->offset && offset - e->offset < e->size) {
            const rrb_section *sec = rrb_schema_section(rrb_schema_of(h->format), e->type);
            out->type = e->type;
            out->sec = sec;
            if (sec) {
                out->record = (offset - e->offset) / sec->elem;
                out->field = field_at(sec, (offset - e->offset) % sec->elem, &out->element);
            }
            return;
        }
    }
}

/* "walls[8].pos_sidedef" (or "header.arena", "section_table[3].size"). */
static void place_name(const rrb_place *pl, uint32_t section, char *out, size_t cap)
{
    char rec[32] = "";
    const char *secname = pl->sec ? pl->sec->name : NULL;
    if (!pl->sec && section) {
        const rrb_section *s = rrb_schema_section(NULL, section);
        secname = s ? s->name : NULL;
    }
    if (pl->record != RR_NO_RECORD && pl->sec != &rrb_header_record)
        snprintf(rec, sizeof rec, "[%u]", pl->record);
    if (!secname) {
        snprintf(out, cap, "section 0x%04x", section);
        return;
    }
    if (pl->field && pl->field->n > 1)
        snprintf(out, cap, "%s%s.%s[%u]", secname, rec, pl->field->name, pl->element);
    else if (pl->field)
        snprintf(out, cap, "%s%s.%s", secname, rec, pl->field->name);
    else
        snprintf(out, cap, "%s%s", secname, rec);
}

/* The section a field's index or count refers to, for "912 >= 911 sidedefs". */
static const char *target_name(const uint8_t *d, const rrb_field *f)
{
    const rr_blob_header *h = (const rr_blob_header *)(const void *)d;
    const rrb_schema *s = rrb_schema_of(h->format);
    if (!f)
        return NULL;
    if (f->kind == RR_K_STRING)
        return "string table bytes";
    if (f->kind < RR_K_INDEX || f->kind == RR_K_SEMANTIC || !s || f->arg >= s->nsections)
        return NULL;
    return s->sections[f->arg].name;
}

/* How an index out of range compares with its limit: the count it must
 * stay below (an index, a string offset: ">=") or may reach (a 1-based
 * number, the first or the end of a run: ">"); NULL for other kinds. */
static const char *index_beyond(uint32_t kind)
{
    switch (kind) {
    case RR_K_INDEX:
    case RR_K_INDEX_OPT:
    case RR_K_STRING:
        return ">=";
    case RR_K_INDEX1:
    case RR_K_FIRST:
    case RR_K_COUNT:
        return ">";
    default:
        return NULL;
    }
}

void rrb_diag_text(const uint8_t *d, size_t n, rr_err e, const rr_diag *dg, char *out, size_t cap)
{
    rrb_place pl;
    char where[96];
    const char *target;
    const char *what = dg->what ? dg->what : "?";
    rrb_schema_place(d, n, dg->offset, &pl);
    /* A failure about a whole section (its entry in the table) names the
     * section, not the entry's field. */
    if (dg->section && pl.sec == &rrb_entry_record) {
        const rrb_section *s = rrb_schema_section(
            n >= RR_HEADER_BYTES ? rrb_schema_of(((const rr_blob_header *)(const void *)d)->format)
                                 : NULL, dg->section);
        snprintf(where, sizeof where, "section %s (0x%04x), table entry %u", s ? s->name : "?",
                 dg->section, pl.record);
    } else if (dg->section == 0 && pl.sec == NULL) {
        snprintf(where, sizeof where, "blob");
    } else {
        place_name(&pl, dg->section, where, sizeof where);
    }
    target = target_name(d, pl.field);
    if (e == RR_ERR_INDEX && pl.field && index_beyond(pl.field->kind)) {
        snprintf(out, cap, "%s at 0x%x: %u %s %u %s (%s)", where, dg->offset, dg->value,
                 index_beyond(pl.field->kind), dg->limit, target ? target : "", rr_strerror(e));
        return;
    }
    if (e == RR_ERR_VERSION && n >= RR_HEADER_BYTES) {   /* blob and loader disagree */
        const rr_blob_header *h = (const rr_blob_header *)(const void *)d;
        const rrb_schema *s = rrb_schema_of(h->format);
        if (dg->offset == offsetof(rr_blob_header, schema) && s)
            snprintf(out, cap, "%s at 0x%x: %s schema version %u, this rrbake and loader read "
                     "version %u: bake the room again with this rrbake (%s)", where, dg->offset,
                     s->name, dg->value, dg->limit, rr_strerror(e));
        else
            snprintf(out, cap, "%s at 0x%x: blob format version %u, this rrbake and loader read "
                     "version %u: bake the room again with this rrbake (%s)", where, dg->offset,
                     dg->value, dg->limit, rr_strerror(e));
        return;
    }
    if (e == RR_ERR_SECTION && pl.field && pl.field->kind == RR_K_COUNTOF && target)
        snprintf(out, cap, "%s at 0x%x: %u, but the blob has %u %s (%s)", where, dg->offset,
                 dg->value, dg->limit, target, rr_strerror(e));
    else
        snprintf(out, cap, "%s at 0x%x: %s: value %u (0x%x), limit %u (%s)", where, dg->offset,
                 what, dg->value, dg->value, dg->limit, rr_strerror(e));
}

/* ---- dump ---------------------------------------------------------------- */

static int64_t field_value(const uint8_t *p, uint32_t type)
{
    int16_t i16;
    int32_t i32;
    uint16_t u16;
    uint32_t u32;
    switch (type) {
    case RR_T_U8: return *p;
    case RR_T_I8: return (int8_t)*p;
    case RR_T_U16: memcpy(&u16, p, 2); return u16;
    case RR_T_I16: memcpy(&i16, p, 2); return i16;
    case RR_T_U32: memcpy(&u32, p, 4); return u32;
    default: memcpy(&i32, p, 4); return i32;
    }
}

static void json_record(const rrb_section *sec, const uint8_t *p, FILE *out)
{
    uint32_t f, e;
    fputc('{', out);
    for (f = 0; f < sec->nfields; f++) {
        const rrb_field *fd = &sec->fields[f];
        fprintf(out, "%s\"%s\":", f ? "," : "", fd->name);
        if (fd->n > 1)
            fputc('[', out);
        for (e = 0; e < fd->n; e++)
            fprintf(out, "%s%lld", e ? "," : "",
                    (long long)field_value(p + fd->off + e * (fd->type & 7u), fd->type));
        if (fd->n > 1)
            fputc(']', out);
    }
    fputc('}', out);
}

static void json_string(const char *s, size_t n, FILE *out)
{
    size_t i;
    fputc('"', out);
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void rrb_dump_blob_json(const uint8_t *d, size_t n, FILE *out)
{
    const rr_blob_header *h = (const rr_blob_header *)(const void *)d;
    const rrb_schema *s;
    rrb_span sp[RR_MAX_SECTIONS];
    uint32_t i, ns;
    if (n < RR_HEADER_BYTES) {
        fprintf(out, "{}\n");
        return;
    }
    static const char *const names[] = {"raw", "rmesh", "rmf", "roo", "emi"};
    s = rrb_schema_of(h->format);
    fprintf(out, "{\"format\":\"blob\",\"room_format\":\"%s\",\"header\":",
            h->format < 5 ? names[h->format] : "unknown");
    json_record(&rrb_header_record, d, out);
    fprintf(out, ",\"sections\":[");
    ns = rrb_blob_spans(d, n, sp, RR_MAX_SECTIONS);
    for (i = 0; i < ns; i++) {
        const rrb_span *e = &sp[i];
        const rrb_section *sec = rrb_schema_section(s, e->type);
        uint32_t r, nrec;
        fprintf(out, "%s{\"name\":\"%s\",\"type\":%u,\"offset\":%u,\"size\":%u,\"count\":%u", i ? ","
                : "", sec ? sec->name : "unknown", e->type, e->offset, e->size, e->count);
        if (sec && sec->elem != e->elem) {
            fprintf(out, ",\"error\":\"record size %u, the schema's %u\"}", e->elem, sec->elem);
            continue;
        }
        if (e->type == RR_SEC_STRINGS) {
            /* The string table as its strings, each with its offset. */
            uint32_t off = 0;
            fprintf(out, ",\"strings\":{");
            while (off < e->size) {
                const char *str = (const char *)d + e->offset + off;
                size_t len = strnlen(str, e->size - off);
                fprintf(out, "%s\"%u\":", off ? "," : "", off);
                json_string(str, len, out);
                off += (uint32_t)len + 1;
            }
            fprintf(out, "}}");
            continue;
        }
        if (!sec) {
            fprintf(out, "}");
            continue;
        }
        nrec = e->size / sec->elem;
        fprintf(out, ",\"record\":\"%s\",\"records\":[", sec->record);
        for (r = 0; r < nrec; r++) {
            if (r)
                fputc(',', out);
            fputc('\n', out);
            json_record(sec, d + e->offset + (size_t)r * sec->elem, out);
        }
        fprintf(out, "]}");
    }
    fprintf(out, "]}\n");
}

/* ---- docs/blob-format.md -------------------------------------------------- */

static const char *const type_names[16] = {
    "", "u8", "u16", "", "u32", "", "", "", "", "i8", "i16", "", "i32", "", "", ""};

static void kind_text(const rrb_schema *s, const rrb_field *f, char *out, size_t cap)
{
    const char *target = s && f->arg < s->nsections ? s->sections[f->arg].name : "?";
    switch (f->kind) {
    case RR_K_DATA: snprintf(out, cap, "value"); break;
    case RR_K_ZERO: snprintf(out, cap, "0"); break;
    case RR_K_COORD: snprintf(out, cap, "coordinate, \\|v\\| <= %u", f->arg); break;
    case RR_K_FIX: snprintf(out, cap, "Q16.16, \\|v\\| <= %u", f->arg); break;
    case RR_K_ABS: snprintf(out, cap, "\\|v\\| <= %u", f->arg); break;
    case RR_K_MAX: snprintf(out, cap, "<= %u", f->arg); break;
    case RR_K_FLAGS: snprintf(out, cap, "flags, bits 0x%x", f->arg); break;
    case RR_K_INDEX: snprintf(out, cap, "index into %s", target); break;
    case RR_K_INDEX_OPT: snprintf(out, cap, "index into %s, or all ones = none", target); break;
    case RR_K_INDEX1: snprintf(out, cap, "1-based record of %s, 0 = none", target); break;
    case RR_K_FIRST: snprintf(out, cap, "first record of a run in %s", target); break;
    case RR_K_COUNT: snprintf(out, cap, "length of that run in %s", target); break;
    case RR_K_STRING: snprintf(out, cap, "string table offset"); break;
    case RR_K_COUNTOF: snprintf(out, cap, "number of records of %s", target); break;
    default: snprintf(out, cap, "checked by the format's validator"); break;
    }
}

/* A doc line in a table cell: '|' escaped. */
static void md_text(const char *t, FILE *out)
{
    for (; *t; t++) {
        if (*t == '|')
            fputc('\\', out);
        fputc(*t, out);
    }
}

static void md_record(const rrb_schema *s, const rrb_section *sec, FILE *out)
{
    uint32_t f;
    fprintf(out, "| offset | field | type | what | notes |\n|---:|---|---|---|---|\n");
    for (f = 0; f < sec->nfields; f++) {
        const rrb_field *fd = &sec->fields[f];
        char kind[96], type[16];
        kind_text(s, fd, kind, sizeof kind);
        if (fd->n > 1)
            snprintf(type, sizeof type, "%s[%u]", type_names[fd->type & 15u], fd->n);
        else
            snprintf(type, sizeof type, "%s", type_names[fd->type & 15u]);
        fprintf(out, "| %u | `%s` | %s | %s | ", fd->off, fd->name, type, kind);
        md_text(fd->doc, out);
        fprintf(out, " |\n");
    }
    fputc('\n', out);
}

static void md_sections(const rrb_schema *s, const rrb_section *secs, uint32_t base, uint32_t n,
                        FILE *out)
{
    static const char *const presence[] = {"required", "required, exactly one record", "optional"};
    uint32_t i;
    for (i = 0; i < n; i++) {
        const rrb_section *sec = &secs[i];
        fprintf(out, "### `%s` (type 0x%04x, slot %u)\n\n", sec->name, sec->type, base + i);
        fprintf(out, "Records: `%s`, %u byte%s each; %s.\n\n", sec->record, sec->elem,
                sec->elem == 1 ? "" : "s", presence[sec->presence]);
        md_record(s, sec, out);
    }
}

void rrb_schema_markdown(FILE *out)
{
    static const uint32_t formats[] = {RR_FMT_RMESH, RR_FMT_RMF, RR_FMT_ROO, RR_FMT_EMI};
    uint32_t i;
    fprintf(out,
            "<!-- Generated by `rrbake schema --markdown` from loader/rr_blobfmt.h and "
            "loader/rr_<fmt>_blob.h: do not edit; `make docs` rewrites it and `make test` "
            "fails when it is stale. -->\n"
            "# The romroom blob format\n\n"
            "For readers in other languages. A blob is one contiguous byte array, 4-byte "
            "aligned, in the target's byte order (`bake --target` chooses it); every field "
            "is an unsigned or signed integer of 1, 2 or 4 bytes at its natural alignment. "
            "Blob format version %u.\n\n"
            "Layout: the 48-byte header, then `nsections` section table entries of 16 bytes, "
            "then the sections, each at a multiple of 4 bytes, in increasing offset order, "
            "not overlapping, inside `total_size`. A section type with bit 0x8000 set may be "
            "skipped by a reader that does not know it; any other unknown type is an error. "
            "Coordinates (\"coords\") are integers with `coord_frac` fractional bits "
            "(header `fixed` & 0xff). \"What\" says what the value is and what a loader "
            "checks of it; `rr_open` checks every such rule (index ranges, runs, strings, "
            "bounds, counts) before any query runs, then each format's own rules (tree "
            "order, depths and the like, see docs/<format>.md).\n\n"
            "## Header\n\n", RR_BLOB_VERSION);
    md_record(NULL, &rrb_header_record, out);
    fprintf(out, "## Section table entry\n\n");
    md_record(NULL, &rrb_entry_record, out);
    fprintf(out, "## Common sections (slots 0 and 1 of every format)\n\n");
    md_sections(NULL, common, 0, sizeof common / sizeof common[0], out);
    for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        const rrb_schema *s = rrb_schema_of(formats[i]);
        if (!s)
            continue;
        fprintf(out, "## Format %u: %s\n\n", s->format, s->name);
        md_sections(s, s->sections + RR_S_COMMON, RR_S_COMMON, s->nsections - RR_S_COMMON, out);
    }
}

/* rrb_schema.c - the blob schemas with their names (see rrb_schema.h). */
#include "rrb_schema.h"

#include <string.h>

#include "../loader/rr_emi_blob.h"
#include "../loader/rr_rmesh_blob.h"
#include "../loader/rr_rmf_blob.h"
#include "../loader/rr_roo_blob.h"

/* One field of the X-macros with its name and doc line. */
#define RRB_FIELD(T, name, type, dim, kind, arg, doc) \
    {#name, (uint32_t)offsetof(T, name), RR_T_##type, (uint32_t)RR_FIELD_N(T, name, type), \
     RR_K_##kind, (uint32_t)(arg), doc},
#define RRB_FIELDS(T, FIELDS) static const rrb_field T##_names[] = {FIELDS(RRB_FIELD, T)};
#define RRB_FIELDS_OF(name, type, T, FIELDS, presence) RRB_FIELDS(T, FIELDS)
/* A common section (its record named T##_names). */
#define RRB_SECTION(name, type, T, FIELDS, presence) \
    {#name, (uint32_t)(type), (uint32_t)sizeof(T), RR_P_##presence, #T, T##_names, \
     (uint32_t)(sizeof T##_names / sizeof T##_names[0])},

RRB_FIELDS(rr_blob_header, RR_BLOB_HEADER)
RRB_FIELDS(rr_section_entry, RR_SECTION_ENTRY)
RR_COMMON_SECTIONS(RRB_FIELDS_OF)

const rrb_section rrb_header_record = {
    "header", 0, sizeof(rr_blob_header), RR_P_ONE, "rr_blob_header", rr_blob_header_names,
    sizeof rr_blob_header_names / sizeof rr_blob_header_names[0]};
const rrb_section rrb_entry_record = {
    "section_table", 0, sizeof(rr_section_entry), RR_P_REQ, "rr_section_entry",
    rr_section_entry_names, sizeof rr_section_entry_names / sizeof rr_section_entry_names[0]};
static const rrb_section common[] = {RR_COMMON_SECTIONS(RRB_SECTION)};

/* A format's schema: the names of its sections' fields (one array per
 * section: sections may share a record struct), then its sections after
 * the common ones. */
#define RRB_SCHEMA_SECTION(fmt, name, type, T, FIELDS, presence) \
    {#name, (uint32_t)(type), (uint32_t)sizeof(T), RR_P_##presence, #T, fmt##_##name##_names, \
     (uint32_t)(sizeof fmt##_##name##_names / sizeof fmt##_##name##_names[0])},
#define RRB_SCHEMA_NAMES(fmt, name, type, T, FIELDS, presence) \
    static const rrb_field fmt##_##name##_names[] = {FIELDS(RRB_FIELD, T)};

#ifdef RR_ROO_SECTIONS
#define ROO_NAMES(...) RRB_SCHEMA_NAMES(roo, __VA_ARGS__)
#define ROO_SECTION(...) RRB_SCHEMA_SECTION(roo, __VA_ARGS__)
RR_ROO_SECTIONS(ROO_NAMES)
static const rrb_section roo_sections[] = {RR_COMMON_SECTIONS(RRB_SECTION)
                                           RR_ROO_SECTIONS(ROO_SECTION)};
static const rrb_schema roo_schema = {"roo", RR_FMT_ROO, roo_sections,
                                      sizeof roo_sections / sizeof roo_sections[0]};
#endif
#ifdef RR_RMF_SECTIONS
#define RMF_NAMES(...) RRB_SCHEMA_NAMES(rmf, __VA_ARGS__)
#define RMF_SECTION(...) RRB_SCHEMA_SECTION(rmf, __VA_ARGS__)
RR_RMF_SECTIONS(RMF_NAMES)
static const rrb_section rmf_sections[] = {RR_COMMON_SECTIONS(RRB_SECTION)
                                           RR_RMF_SECTIONS(RMF_SECTION)};
static const rrb_schema rmf_schema = {"rmf", RR_FMT_RMF, rmf_sections,
                                      sizeof rmf_sections / sizeof rmf_sections[0]};
#endif
#ifdef RR_RMESH_SECTIONS
#define RMESH_NAMES(...) RRB_SCHEMA_NAMES(rmesh, __VA_ARGS__)
#define RMESH_SECTION(...) RRB_SCHEMA_SECTION(rmesh, __VA_ARGS__)
RR_RMESH_SECTIONS(RMESH_NAMES)
static const rrb_section rmesh_sections[] = {RR_COMMON_SECTIONS(RRB_SECTION)
                                             RR_RMESH_SECTIONS(RMESH_SECTION)};
static const rrb_schema rmesh_schema = {"rmesh", RR_FMT_RMESH, rmesh_sections,
                                        sizeof rmesh_sections / sizeof rmesh_sections[0]};
#endif
#ifdef RR_EMI_SECTIONS
#define EMI_NAMES(...) RRB_SCHEMA_NAMES(emi, __VA_ARGS__)
#define EMI_SECTION(...) RRB_SCHEMA_SECTION(emi, __VA_ARGS__)
RR_EMI_SECTIONS(EMI_NAMES)
static const rrb_section emi_sections[] = {RR_COMMON_SECTIONS(RRB_SECTION)
                                           RR_EMI_SECTIONS(EMI_SECTION)};
static const rrb_schema emi_schema = {"emi", RR_FMT_EMI, emi_sections,
                                      sizeof emi_sections / sizeof emi_sections[0]};
#endif

const rrb_schema *rrb_schema_of(uint32_t format)
{
    switch (format) {
#ifdef RR_ROO_SECTIONS
    case RR_FMT_ROO: return &roo_schema;
#endif
#ifdef RR_RMF_SECTIONS
    case RR_FMT_RMF: return &rmf_schema;
#endif
#ifdef RR_RMESH_SECTIONS
    case RR_FMT_RMESH: return &rmesh_schema;
#endif
#ifdef RR_EMI_SECTIONS
    case RR_FMT_EMI: return &emi_schema;
#endif
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

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

int rrb_swap_blob(uint8_t *d, size_t n, int from_be)
{
    const rr_blob_header *h = (const rr_blob_header *)(const void *)d;
    const rrb_schema *s;
    uint32_t ns, i;
    if (n < RR_HEADER_BYTES)
        return -1;
    if (from_be)
        rrb_swap_records(&rrb_header_record, d, 1);
    ns = h->nsections;
    s = rrb_schema_of(h->format);
    /* The table as far as it lies in the buffer; read each entry in host order. */
    for (i = 0; i < ns && RR_HEADER_BYTES + (size_t)(i + 1) * RR_SECTION_ENTRY_BYTES <= n; i++) {
        uint8_t *e = d + RR_HEADER_BYTES + (size_t)i * RR_SECTION_ENTRY_BYTES;
        uint32_t type, off, size;
        const rrb_section *sec;
        if (from_be)
            rrb_swap_records(&rrb_entry_record, e, 1);
        type = rd32(e), off = rd32(e + 4), size = rd32(e + 8);
        sec = rrb_schema_section(s, type);
        if (sec && off <= n && size <= n - off && (off & 3u) == 0)
            rrb_swap_records(sec, d + off, size / sec->elem);
        if (!from_be)
            rrb_swap_records(&rrb_entry_record, e, 1);
    }
    if (!from_be)
        rrb_swap_records(&rrb_header_record, d, 1);
    return 0;
}

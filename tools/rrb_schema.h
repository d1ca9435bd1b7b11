/* rrb_schema.h - every format's blob schema with its names, for the tools.
 *
 * The same X-macros that give the loader its structs and checks
 * (loader/rr_blobfmt.h, loader/rr_<fmt>_blob.h) are expanded here once more
 * with the names and doc lines, so that rrbake can byte-swap a blob for a
 * big-endian board (and back, to validate it on the host), print any blob
 * record by record (`dump --json`), name the field of a loader diagnostic
 * and write docs/blob-format.md.
 */
#ifndef RRB_SCHEMA_H
#define RRB_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../loader/rr.h"
#include "../loader/rr_blobfmt.h"

typedef struct rrb_field {
    const char *name;
    uint32_t off, type, n;   /* byte offset in the record, RR_T_*, elements */
    uint32_t kind, arg;      /* enum rr_kind and its parameter */
    const char *doc;
} rrb_field;

typedef struct rrb_section {
    const char *name;        /* as in the section list: "walls" */
    uint32_t type;           /* section type id */
    uint32_t elem;           /* record bytes */
    uint32_t presence;       /* enum rr_presence */
    const char *record;      /* struct name: "rr_roo_wall_rec" */
    const rrb_field *fields;
    uint32_t nfields;
} rrb_section;

typedef struct rrb_schema {
    const char *name;        /* "roo" */
    uint32_t format;         /* enum rr_format */
    const rrb_section *sections;  /* slot order: strings, info, then the format's */
    uint32_t nsections;
    uint32_t version;        /* RR_<FMT>_SCHEMA_VERSION, written in the header */
} rrb_schema;

/* The blob header and the section table entry, as records. */
extern const rrb_section rrb_header_record, rrb_entry_record;
/* Schema of a format (enum rr_format), or NULL (RAW has none). */
const rrb_schema *rrb_schema_of(uint32_t format);
/* The section of a schema by type id, or NULL. Common sections are found
 * for any format, even one without a schema (s may be NULL). */
const rrb_section *rrb_schema_section(const rrb_schema *s, uint32_t type);
/* Arena bytes the view of a format's blob takes (0 without a schema). */
uint32_t rrb_schema_view_bytes(uint32_t format);

/* Byte-swap every field of n records of section sec in place. */
void rrb_swap_records(const rrb_section *sec, uint8_t *p, size_t n);
/* Byte-swap a whole blob in place, header, table and every section of a
 * known type (records that fit the section; a damaged table is swapped as
 * far as it lies inside the buffer). from_be: the bytes are big-endian now
 * (the header is read after swapping) or little-endian (read before).
 * Returns 0, or -1 when the buffer is shorter than a header. */
int rrb_swap_blob(uint8_t *d, size_t n, int from_be);

/* A blob in host order: a 4-byte aligned malloc'd copy, byte-swapped
 * through the schema when it was baked big-endian (*be set). The checksum
 * of a swapped copy is recomputed when the original's was right and left
 * wrong when it was not, so rr_open reports what the big-endian board would.
 * NULL when the buffer is shorter than a header (or out of memory). */
uint8_t *rrb_blob_host_copy(const uint8_t *d, size_t n, int *be);

/* Where a blob offset is: section (NULL: header or section table, then
 * rec is that record), record index and field (NULL: between fields).
 * d is a little-endian (host order) blob. */
/* One section of a blob with its place (offsets are implied by the table
 * order: rr_blobfmt.h). */
typedef struct rrb_span {
    uint32_t type, elem, offset, size, count;
} rrb_span;
/* The sections of the host-order blob d (n bytes), as far as the table and
 * the walk stay inside it (a damaged blob gives fewer): up to max of them
 * into out; returns how many. */
uint32_t rrb_blob_spans(const uint8_t *d, size_t n, rrb_span *out, uint32_t max);

typedef struct rrb_place {
    const rrb_section *sec;  /* the section's schema, or the header/entry record */
    uint32_t type;           /* section type (0: header or table) */
    uint32_t record;         /* record index, RR_NO_RECORD when none */
    const rrb_field *field;
    uint32_t element;        /* element of an array field */
} rrb_place;
void rrb_schema_place(const uint8_t *d, size_t n, uint32_t offset, rrb_place *out);
/* A loader diagnostic in words: "walls[8].pos_sidedef at 0x1a4: 912 >= 911
 * sidedefs (index out of range)". d: the host-order blob it came from. */
void rrb_diag_text(const uint8_t *d, size_t n, rr_err e, const rr_diag *dg, char *out,
                   size_t cap);

/* Every record of a host-order blob as JSON, field by field. */
void rrb_dump_blob_json(const uint8_t *d, size_t n, FILE *out);
/* docs/blob-format.md, from the schemas. */
void rrb_schema_markdown(FILE *out);

#endif

/* rrb_blob.c - the blob writer (see rrb_blob.h). */
#include "rrb_blob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_schema.h"
#include "rrb_util.h"

typedef struct section {
    uint32_t type, count, elem;
    char *layout;
    uint8_t *data;
    size_t size;
} section;

struct rrb_blob {
    uint32_t format, coord_frac, arena, depth;
    section *secs;
    size_t nsecs, cap;
    rrb_buf strings;
    int strings_added;
};

rrb_blob *rrb_blob_new(uint32_t format, uint32_t coord_frac)
{
    rrb_blob *b = rrb_xcalloc(1, sizeof *b);
    b->format = format;
    b->coord_frac = coord_frac;
    return b;
}

void rrb_blob_free(rrb_blob *b)
{
    size_t i;
    if (!b)
        return;
    for (i = 0; i < b->nsecs; i++) {
        free(b->secs[i].data);
        free(b->secs[i].layout);
    }
    free(b->secs);
    rrb_buf_free(&b->strings);
    free(b);
}

static uint32_t layout_bytes(const char *layout)
{
    uint32_t n = 0;
    for (; *layout; layout++) {
        if (*layout != '1' && *layout != '2' && *layout != '4') {
            fprintf(stderr, "rrbake: internal error: bad layout char '%c'\n", *layout);
            abort();
        }
        n += (uint32_t)(*layout - '0');
    }
    return n;
}

void rrb_blob_add(rrb_blob *b, uint32_t type, const void *elems, uint32_t count,
                  uint32_t elem_size, const char *layout)
{
    section *s;
    size_t i;
    if (!layout) {
        /* The schema describes the section: its record must be elem_size. */
        const rrb_section *sec = rrb_schema_section(rrb_schema_of(b->format), type);
        if (!sec || sec->elem != elem_size) {
            fprintf(stderr, "rrbake: internal error: section 0x%x of format %u: %s\n", type,
                    b->format, sec ? "record size differs from the schema" : "not in the schema");
            abort();
        }
    } else if (layout_bytes(layout) != elem_size) {
        fprintf(stderr, "rrbake: internal error: section 0x%x layout %s is %u bytes, struct %u\n",
                type, layout, layout_bytes(layout), elem_size);
        abort();
    }
    if (type > 0xffffu || elem_size == 0 || elem_size > 0xffffu) {   /* 16-bit table fields */
        fprintf(stderr, "rrbake: internal error: section 0x%x with %u-byte records\n", type,
                elem_size);
        abort();
    }
    for (i = 0; i < b->nsecs; i++)
        if (b->secs[i].type == type) {
            fprintf(stderr, "rrbake: internal error: section 0x%x added twice\n", type);
            abort();
        }
    b->secs = rrb_grow(b->secs, &b->cap, b->nsecs + 1, sizeof *b->secs);
    s = &b->secs[b->nsecs++];
    s->type = type;
    s->count = count;
    s->elem = elem_size;
    s->layout = layout ? rrb_xstrdup(layout) : NULL;
    s->size = (size_t)count * elem_size;
    s->data = rrb_xmalloc(s->size);
    if (s->size)
        memcpy(s->data, elems, s->size);
}

uint32_t rrb_blob_string(rrb_blob *b, const char *str)
{
    if (b->strings_added) {
        fprintf(stderr, "rrbake: internal error: string added after finish\n");
        abort();
    }
    size_t n = strlen(str), off = 0;
    /* Linear search keeps identical strings shared; tables are small. */
    while (off < b->strings.size) {
        size_t len = strlen((const char *)b->strings.data + off);
        if (len == n && memcmp(b->strings.data + off, str, n) == 0)
            return (uint32_t)off;
        off += len + 1;
    }
    off = b->strings.size;
    rrb_buf_put(&b->strings, str, n + 1);
    return (uint32_t)off;
}

void rrb_blob_set_arena(rrb_blob *b, uint32_t bytes) { b->arena = bytes; }
uint32_t rrb_blob_format(const rrb_blob *b) { return b->format; }
void rrb_blob_set_depth(rrb_blob *b, uint32_t depth) { b->depth = depth; }

static void put32(uint8_t *p, uint32_t v, int be)
{
    if (be) {
        p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16);
        p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
    } else {
        p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
    }
}

/* Copy one section's elements, swapping each field when the target is
 * big-endian (host structs are little-endian: rrbake runs on LE hosts only,
 * checked in rrb_blob_finish). */
static void emit(uint8_t *dst, const section *s, uint32_t fmt, int be)
{
    size_t e, off = 0;
    const char *f;
    memcpy(dst, s->data, s->size);
    if (!be)
        return;
    if (!s->layout) {
        rrb_swap_records(rrb_schema_section(rrb_schema_of(fmt), s->type), dst, s->count);
        return;
    }
    for (e = 0; e < s->count; e++)
        for (f = s->layout; *f; f++) {
            uint8_t *p = dst + off, t;
            if (*f == '2') {
                t = p[0]; p[0] = p[1]; p[1] = t;
            } else if (*f == '4') {
                t = p[0]; p[0] = p[3]; p[3] = t;
                t = p[1]; p[1] = p[2]; p[2] = t;
            }
            off += (size_t)(*f - '0');
        }
}

/* The header of a blob of n sections and total bytes, in host order (the
 * checksum 0: it is set once the bytes are final). */
static void blob_header(const rrb_blob *b, size_t n, size_t total, int be, rr_blob_header *h)
{
    h->magic[0] = RR_MAGIC0, h->magic[1] = RR_MAGIC1, h->magic[2] = RR_MAGIC2;
    h->magic[3] = RR_MAGIC3;
    h->endian = RR_ENDIAN_PROBE;
    h->version = RR_BLOB_VERSION;
    h->fixed = RR_FIXED_PROBE(b->coord_frac);
    h->total_size = (uint32_t)total;
    h->checksum = 0;
    h->format = b->format;
    /* The loader builds the view of the format's sections at the start of
     * the arena; the queries' own need follows it. */
    h->arena = b->arena + rrb_schema_view_bytes(b->format);
    h->max_depth = b->depth;
    h->nsections = (uint32_t)n;
    h->flags = be ? RR_FLAG_BIG_ENDIAN : 0;
    h->schema = rrb_schema_of(b->format) ? rrb_schema_of(b->format)->version : 0;
}

int rrb_blob_finish(rrb_blob *b, int be, uint8_t **out, size_t *size)
{
    const uint16_t probe = 1;
    rr_blob_header h;
    size_t i, n, total, off;
    uint8_t *p;
    if (*(const uint8_t *)&probe != 1) {
        fprintf(stderr, "rrbake: this build of rrbake needs a little-endian host\n");
        return -1;
    }
    if (b->strings.size && !b->strings_added) {
        b->strings_added = 1;
        rrb_blob_add(b, RR_SEC_STRINGS, b->strings.data, (uint32_t)b->strings.size, 1, NULL);
    }
    n = b->nsecs;
    if (n > RR_MAX_SECTIONS) {
        fprintf(stderr, "rrbake: %zu sections exceed RR_MAX_SECTIONS %d\n", n, RR_MAX_SECTIONS);
        return -1;
    }
    total = RR_HEADER_BYTES + n * RR_SECTION_ENTRY_BYTES;
    for (i = 0; i < n; i++)
        total = ((total + 3) & ~(size_t)3) + b->secs[i].size;
    total = (total + 3) & ~(size_t)3;
    if (total > RR_MAX_BLOB_BYTES) {
        fprintf(stderr, "rrbake: blob of %zu bytes exceeds the 2 GiB limit\n", total);
        return -1;
    }
    p = rrb_xcalloc(1, total);
    blob_header(b, n, total, be, &h);
    memcpy(p, &h, sizeof h);
    if (be)
        rrb_swap_records(&rrb_header_record, p, 1);
    off = RR_HEADER_BYTES + n * RR_SECTION_ENTRY_BYTES;
    for (i = 0; i < n; i++) {
        uint8_t *e = p + RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES;
        off = (off + 3) & ~(size_t)3;
        rr_section_entry se;
        se.type = (uint16_t)b->secs[i].type;
        se.elem = (uint16_t)b->secs[i].elem;
        se.size = (uint32_t)b->secs[i].size;
        memcpy(e, &se, sizeof se);
        if (be)
            rrb_swap_records(&rrb_entry_record, e, 1);
        emit(p + off, &b->secs[i], b->format, be);
        off += b->secs[i].size;
    }
    put32(p + offsetof(rr_blob_header, checksum),
          rr_crc32(0, p + RR_CHECKSUM_FROM, (uint32_t)(total - RR_CHECKSUM_FROM)), be);
    *out = p;
    *size = total;
    return 0;
}

const void *rrb_blob_records(const rrb_blob *b, uint32_t type, uint32_t *count)
{
    size_t i;
    for (i = 0; i < b->nsecs; i++)
        if (b->secs[i].type == type) {
            *count = b->secs[i].count;
            return b->secs[i].data;
        }
    *count = 0;
    return NULL;
}

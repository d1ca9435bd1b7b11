/* rrb_blob.h - the blob writer: collects sections in host order, then lays
 * them out, byte-swaps them for the requested target and checksums the result.
 *
 *   rrb_blob *b = rrb_blob_new(RR_FMT_ROO, coord_frac);
 *   rrb_blob_add(b, RR_SEC_ROO_NODES, nodes, n, sizeof nodes[0], NULL);
 *   uint32_t name = rrb_blob_string(b, "room.roo");    // string table offset
 *   rrb_blob_set_arena(b, bytes); rrb_blob_set_depth(b, depth);
 *   rrb_blob_finish(b, big_endian, &bytes, &size);   // malloc'd bytes
 *
 * A section is swapped for a big-endian target by its format's schema
 * (loader/rr_<fmt>_blob.h, tools/rrb_schema.h): layout NULL. Only the
 * sections of a RAW blob (user data, tests), which no schema describes, pass
 * a layout string: each field's width in order, one character per field,
 * '1' u8/i8, '2' u16/i16, '4' u32/i32; its sum must equal elem_size. Either
 * mismatch is a baker bug and aborts.
 */
#ifndef RRB_BLOB_H
#define RRB_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "../loader/rr.h"
#include "../loader/rr_blobfmt.h"
#include "../loader/rr_limits.h"

typedef struct rrb_blob rrb_blob;

rrb_blob *rrb_blob_new(uint32_t format, uint32_t coord_frac);
void rrb_blob_free(rrb_blob *b);
/* Copy a section (count elements of elem_size bytes, host byte order). */
void rrb_blob_add(rrb_blob *b, uint32_t type, const void *elems, uint32_t count,
                  uint32_t elem_size, const char *layout);
/* Offset of s in the blob's string table (added once; identical strings share). */
uint32_t rrb_blob_string(rrb_blob *b, const char *s);
void rrb_blob_set_arena(rrb_blob *b, uint32_t bytes);
/* enum rr_format of the blob. */
uint32_t rrb_blob_format(const rrb_blob *b);
void rrb_blob_set_depth(rrb_blob *b, uint32_t depth);
/* The records of a section added before (host byte order) and their count,
 * or NULL and 0: lets one part of a baker read what another part wrote. */
const void *rrb_blob_records(const rrb_blob *b, uint32_t type, uint32_t *count);
/* Build the final bytes (string table appended as RR_SEC_STRINGS if used).
 * Returns 0, or -1 if the blob would exceed the format's limits. */
int rrb_blob_finish(rrb_blob *b, int big_endian, uint8_t **out, size_t *size);

#endif

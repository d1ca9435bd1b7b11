/* rr_blobfmt.h - the byte layout of a romroom blob, shared by the loader and
 * by rrbake (the single definition of every on-blob struct).
 *
 * A blob is, in the target's byte order (every field is a u32/i32/u16/u8 of
 * its natural alignment; no pointers, no floats):
 *
 *   offset  field                      notes
 *   0       magic[4]   "RRB\x1a"       byte-order independent
 *   4       endian     0x01020304      read natively: 0x04030201 => RR_ERR_ENDIAN
 *   8       version    RR_BLOB_VERSION
 *   12      fixed      RR_FIXED_PROBE(coord_frac): 0x5100 | coord_frac  (Q16.16 core,
 *                      world coordinates with coord_frac fractional bits, 0..16)
 *   16      total_size bytes, the whole blob
 *   20      checksum   CRC-32 of bytes [24, total_size)
 *   24      format     enum rr_format
 *   28      arena      bytes of arena the queries need
 *   32      max_depth  deepest tree in any section (validated again by the format)
 *   36      nsections
 *   40      flags      bit 0: baked big-endian (informational)
 *   44      reserved   0
 *   48      section table: nsections x {u32 type, u32 offset, u32 size, u32 count}
 *           then the sections, each 4-byte aligned, in increasing offset order,
 *           not overlapping, between the end of the table and total_size.
 *
 * Section types: 0x0001..0x00ff common, 0x0100.. per format (see each
 * runtime's rr_<fmt>_blob.h). A type with bit RR_SEC_OPTIONAL set is one a
 * loader may skip when it does not know it (it is still bounds-checked); an
 * unknown type without that bit makes rr_open fail with RR_ERR_SECTION, so an
 * old loader never silently ignores data a newer baker relies on.
 */
#ifndef RR_BLOBFMT_H
#define RR_BLOBFMT_H

#include <stdint.h>

#define RR_MAGIC0 'R'
#define RR_MAGIC1 'R'
#define RR_MAGIC2 'B'
#define RR_MAGIC3 0x1a
#define RR_ENDIAN_PROBE 0x01020304u
#define RR_ENDIAN_SWAPPED 0x04030201u
#define RR_FIXED_PROBE(frac) (0x5100u | (uint32_t)(frac))
#define RR_HEADER_BYTES 48u
#define RR_SECTION_ENTRY_BYTES 16u
#define RR_CHECKSUM_FROM 24u
#define RR_FLAG_BIG_ENDIAN 1u

#define RR_SEC_OPTIONAL 0x8000u

/* Common sections. */
#define RR_SEC_STRINGS 0x0001u  /* u8 x count: NUL-terminated strings; last byte 0 */
#define RR_SEC_INFO    0x0002u  /* rr_blob_info x 1 */

/* Header field indices (u32 words). */
enum {
    RR_H_MAGIC, RR_H_ENDIAN, RR_H_VERSION, RR_H_FIXED, RR_H_SIZE, RR_H_CHECKSUM,
    RR_H_FORMAT, RR_H_ARENA, RR_H_DEPTH, RR_H_NSECT, RR_H_FLAGS, RR_H_RESERVED
};

/* Compile-time size check usable in C99. */
#define RR_STATIC_SIZE(type, n) \
    typedef char rr__size_check_##type[(sizeof(type) == (n)) ? 1 : -1]

/* RR_SEC_INFO: what the baker knew about the source (informational). */
typedef struct rr_blob_info {
    uint32_t source_size;   /* bytes of the source file */
    uint32_t source_name;   /* string table offset */
    uint32_t variant;       /* format-specific version/variant number */
    uint32_t bbox_min[3];   /* world bounds in coords (i32 stored as u32) */
    uint32_t bbox_max[3];
} rr_blob_info;
RR_STATIC_SIZE(rr_blob_info, 36);
#define RR_LAYOUT_BLOB_INFO "444444444"

#endif

/* rr_blobfmt.h - the byte layout of a romroom blob and the vocabulary in
 * which every format describes its sections, shared by the loader and by
 * rrbake. This is the one definition of the header and of every record:
 * the structs, the loader's generic checks, the baker's byte swapping,
 * `rrbake dump --json` and docs/blob-format.md all come from the schema
 * tables written with the macros below.
 *
 * A blob is, in the target's byte order (every field is a u32/i32/u16/u8 of
 * its natural alignment; no pointers, no floats):
 *
 *   rr_blob_header (48 bytes, RR_BLOB_HEADER below)
 *   section table: nsections x rr_section_entry {type, elem, size}
 *   the sections in table order, back to back: the first starts right after
 *   the table, each next one where the previous ended, rounded up to a
 *   multiple of 4 (zero padding); the last one, padded, ends at total_size.
 *   A section holds size / elem records (rr_section_place walks this).
 *
 * Section types: 0x0001..0x00ff common, 0x0100.. per format (see each
 * runtime's rr_<fmt>_blob.h). A type with bit RR_SEC_OPTIONAL set is one a
 * loader may skip when it does not know it (it is still bounds-checked); an
 * unknown type without that bit makes rr_open fail with RR_ERR_SECTION, so an
 * old loader never silently ignores data a newer baker relies on.
 *
 * HOW A SCHEMA IS WRITTEN
 *
 * A record is an X-macro listing its fields in memory order:
 *
 *   #define RR_ROO_LEAF(F, T)                                                  \
 *       F(T, node, U16, , INDEX, RR_ROO_S_nodes, "node of this leaf")           \
 *       F(T, sector, U16, , INDEX, RR_ROO_S_sectors, "")                        \
 *       F(T, first_point, U32, , FIRST, RR_ROO_S_points, "its polygon")         \
 *       F(T, npoints, U32, , COUNT, RR_ROO_S_points, "")
 *   RR_RECORD(rr_roo_leaf_rec, RR_ROO_LEAF, 12);
 *
 * F(T, name, type, dim, kind, arg, doc): T is the record's struct (passed
 * through), type one of U8 I8 U16 I16 U32 I32, dim empty or an array bound
 * such as [3] (every element gets the same check), kind what the value is
 * (RR_K_*, below), arg its parameter and doc a line for docs/blob-format.md
 * (the loader's tables never hold it). RR_RECORD defines the struct and
 * checks its size.
 *
 * A format lists its own sections in one more X-macro (see rr_roo_blob.h),
 * which hands its second parameter, the format's prefix, to every entry:
 *
 *   #define RR_ROO_SECTIONS(S, P)                                           \
 *       S(P, room, 0x0300, rr_roo_room_rec, RR_ROO_ROOM, ONE)               \
 *       S(P, nodes, 0x0301, rr_roo_node_rec, RR_ROO_NODE, REQ) ...
 *   #define RR_ROO_SCHEMA_VERSION 4u
 *   RR_SECTION_SLOTS(RR_ROO);
 *
 * S(P, name, type id, record struct, record X-macro, presence); presence:
 * REQ (must be present), ONE (present, exactly one record) or OPT (may be
 * absent; then it has no records). RR_SECTION_SLOTS(RR_ROO) numbers the
 * slots: 0 and 1 of every format are the common sections strings and info
 * (RR_S_STRINGS, RR_S_INFO), then come the format's sections in list order,
 * RR_ROO_S_room, RR_ROO_S_nodes, ..., and RR_ROO_S_COUNT. A section's slot
 * (RR_ROO_S_walls) is the arg of the index kinds that point into it and its
 * entry in the view rr_open builds. Everything else comes from the prefix
 * too: the loader's tables, RR_FORMAT_SCHEMA(roo_schema, RR_ROO) in the
 * runtime's .c file, and its accessors walls_of(room), ...,
 * RR_SECTION_ACCESSORS(RR_ROO) (rr_int.h).
 */
#ifndef RR_BLOBFMT_H
#define RR_BLOBFMT_H

#include <stddef.h>
#include <stdint.h>

/* ---- the vocabulary ------------------------------------------------------ */

/* C type of each storage type. */
#define RR_CT_U8 uint8_t
#define RR_CT_I8 int8_t
#define RR_CT_U16 uint16_t
#define RR_CT_I16 int16_t
#define RR_CT_U32 uint32_t
#define RR_CT_I32 int32_t

/* Storage types as numbers: the width in bytes (1, 2, 4) plus RR_T_SIGNED. */
#define RR_T_SIGNED 8u
#define RR_T_U8 1u
#define RR_T_I8 (1u | RR_T_SIGNED)
#define RR_T_U16 2u
#define RR_T_I16 (2u | RR_T_SIGNED)
#define RR_T_U32 4u
#define RR_T_I32 (4u | RR_T_SIGNED)

/* What a field is, and what rr_open checks of it (arg in parentheses).
 * Index checks read the value unsigned at its width. */
enum rr_kind {
    RR_K_DATA,      /* a value any bit pattern of which is valid: no check */
    RR_K_ZERO,      /* padding or reserved: must be 0 */
    RR_K_COORD,     /* world coordinate in coords: |v| <= arg */
    RR_K_FIX,       /* Q16.16 (normals, weights, times): |v| <= arg */
    RR_K_ABS,       /* another signed quantity (scaled coefficients, Q30): |v| <= arg */
    RR_K_MAX,       /* unsigned value or enumeration: v <= arg */
    RR_K_FLAGS,     /* bit set: only the bits of arg may be set */
    RR_K_INDEX,     /* index of a record of section slot arg: v < count */
    RR_K_INDEX_OPT, /* the same, or all ones at the field's width ("none") */
    RR_K_INDEX1,    /* 1-based record number of section slot arg, 0 = none: v <= count */
    RR_K_FIRST,     /* first record of a run in section slot arg: v <= count */
    RR_K_COUNT,     /* length of the run whose FIRST is the field just before:
                       first + v <= count of section slot arg */
    RR_K_STRING,    /* byte offset of a string in the string table */
    RR_K_COUNTOF,   /* the number of records of section slot arg: v == count */
    RR_K_SEMANTIC,  /* checked by the format's own validator (tree order,
                       depths, sums...); arg is unused */
    RR_K_N
};

/* Presence of a section. */
enum rr_presence { RR_P_REQ, RR_P_ONE, RR_P_OPT };

/* The struct of a record from its X-macro. */
#define RR_MEMBER(T, name, type, dim, kind, arg, doc) RR_CT_##type name dim;
#define RR_RECORD(T, FIELDS, bytes)                                                 \
    typedef struct T {                                                              \
        FIELDS(RR_MEMBER, T)                                                        \
    } T;                                                                            \
    typedef char rr__size_check_##T[(sizeof(T) == (bytes)) ? 1 : -1]

/* Elements of a field (1, or the array bound). */
#define RR_FIELD_N(T, name, type) (sizeof(((T *)0)->name) / sizeof(RR_CT_##type))

/* The loader's field descriptor: one per checked field (RR_K_DATA fields
 * have none). off and n locate it in its record, type is RR_T_*, kind
 * enum rr_kind, arg its parameter. */
typedef struct rr_field_desc {
    uint8_t off, type, kind, n;
    uint32_t arg;
} rr_field_desc;
#define RR_FD_SKIP(T, name, type, arg)
#define RR_FD_KEEP(T, name, type, kind, arg) \
    {(uint8_t)offsetof(T, name), (uint8_t)RR_T_##type, (uint8_t)RR_K_##kind, \
     (uint8_t)RR_FIELD_N(T, name, type), (uint32_t)(arg)},
#define RR_FD_DATA(T, name, type, arg) RR_FD_SKIP(T, name, type, arg)
#define RR_FD_SEMANTIC(T, name, type, arg) RR_FD_SKIP(T, name, type, arg)
#define RR_FD_ZERO(T, name, type, arg) RR_FD_KEEP(T, name, type, ZERO, arg)
#define RR_FD_COORD(T, name, type, arg) RR_FD_KEEP(T, name, type, COORD, arg)
#define RR_FD_FIX(T, name, type, arg) RR_FD_KEEP(T, name, type, FIX, arg)
#define RR_FD_ABS(T, name, type, arg) RR_FD_KEEP(T, name, type, ABS, arg)
#define RR_FD_MAX(T, name, type, arg) RR_FD_KEEP(T, name, type, MAX, arg)
#define RR_FD_FLAGS(T, name, type, arg) RR_FD_KEEP(T, name, type, FLAGS, arg)
#define RR_FD_INDEX(T, name, type, arg) RR_FD_KEEP(T, name, type, INDEX, arg)
#define RR_FD_INDEX_OPT(T, name, type, arg) RR_FD_KEEP(T, name, type, INDEX_OPT, arg)
#define RR_FD_INDEX1(T, name, type, arg) RR_FD_KEEP(T, name, type, INDEX1, arg)
#define RR_FD_FIRST(T, name, type, arg) RR_FD_KEEP(T, name, type, FIRST, arg)
#define RR_FD_COUNT(T, name, type, arg) RR_FD_KEEP(T, name, type, COUNT, arg)
#define RR_FD_STRING(T, name, type, arg) RR_FD_KEEP(T, name, type, STRING, arg)
#define RR_FD_COUNTOF(T, name, type, arg) RR_FD_KEEP(T, name, type, COUNTOF, arg)
#define RR_FIELD_DESC(T, name, type, dim, kind, arg, doc) RR_FD_##kind(T, name, type, arg)

/* The loader's section descriptor: type id, record bytes, presence, and how
 * many field descriptors it has in the format's one field table (the tables
 * list the sections' fields in section order). */
typedef struct rr_section_desc {
    uint16_t type;
    uint8_t elem, presence;
    uint32_t nfields;
} rr_section_desc;

/* A format's schema as the loader uses it (built by RR_FORMAT_SCHEMA). */
typedef struct rr_schema {
    const rr_section_desc *sections;
    const rr_field_desc *fields;
    uint32_t nsections;   /* slots, the two common ones included */
    uint32_t version;     /* RR_<FMT>_SCHEMA_VERSION: the header's schema must equal it */
} rr_schema;

/* One entry of the view rr_open builds in the arena: where a section's
 * records start (byte offset in the blob, 0 when absent) and how many. */
typedef struct rr_view_entry {
    uint32_t offset, count;
} rr_view_entry;
#define RR_VIEW_BYTES(nslots) (8u * (uint32_t)(nslots))

/* ---- the header ---------------------------------------------------------- */

#define RR_MAGIC0 'R'
#define RR_MAGIC1 'R'
#define RR_MAGIC2 'B'
#define RR_MAGIC3 0x1a
#define RR_ENDIAN_PROBE 0x01020304u
#define RR_ENDIAN_SWAPPED 0x04030201u
#define RR_FIXED_PROBE(frac) (0x5100u | (uint32_t)(frac))
#define RR_FLAG_BIG_ENDIAN 1u
#define RR_SEC_OPTIONAL 0x8000u

#define RR_BLOB_HEADER(F, T)                                                           \
    F(T, magic, U8, [4], DATA, 0, "\"RRB\\x1a\", the same in either byte order")        \
    F(T, endian, U32, , DATA, 0, "0x01020304 read natively (0x04030201: the other order)") \
    F(T, version, U32, , DATA, 0, "blob format version (RR_BLOB_VERSION)")              \
    F(T, fixed, U32, , DATA, 0, "0x5100 | coord_frac: Q16.16 core, coordinates with "    \
      "coord_frac (0..16) fractional bits")                                              \
    F(T, total_size, U32, , DATA, 0, "bytes, the whole blob")                            \
    F(T, checksum, U32, , DATA, 0, "CRC-32 (IEEE) of bytes [24, total_size)")           \
    F(T, format, U32, , DATA, 0, "room format: 0 raw, 1 RMesh, 2 RMF, 3 ROO, 4 EMI")     \
    F(T, arena, U32, , DATA, 0, "arena bytes: the section view, then what the "          \
      "queries use")                                                                     \
    F(T, max_depth, U32, , DATA, 0, "deepest tree of any section")                       \
    F(T, nsections, U32, , DATA, 0, "entries of the section table")                      \
    F(T, flags, U32, , DATA, 0, "bit 0: baked big-endian (informational)")               \
    F(T, schema, U32, , DATA, 0, "schema version of the room format's sections "        \
      "(RR_<FMT>_SCHEMA_VERSION; 0 for RAW)")
RR_RECORD(rr_blob_header, RR_BLOB_HEADER, 48);
#define RR_HEADER_BYTES ((uint32_t)sizeof(rr_blob_header))
#define RR_CHECKSUM_FROM ((uint32_t)offsetof(rr_blob_header, format))

#define RR_SECTION_ENTRY(F, T)                                                          \
    F(T, type, U16, , DATA, 0, "section type id")                                          \
    F(T, elem, U16, , DATA, 0, "bytes per record (1 for the string table)")                \
    F(T, size, U32, , DATA, 0, "bytes, a multiple of elem; the section starts where the "   \
      "previous one ended, rounded up to a multiple of 4 (the first right after the table)")
RR_RECORD(rr_section_entry, RR_SECTION_ENTRY, 8);
#define RR_SECTION_ENTRY_BYTES ((uint32_t)sizeof(rr_section_entry))

/* Where the sections lie: the first right after the table, each next one
 * where the previous one ended, rounded up to a multiple of 4. rr_open
 * checks that the whole walk stays within the blob (so no sum wraps). */
#define RR_TABLE_END(nsections) (RR_HEADER_BYTES + (uint32_t)(nsections) * RR_SECTION_ENTRY_BYTES)
#define RR_NEXT_SECTION(offset, size) ((offset) + (((size) + 3u) & ~3u))

/* ---- the common sections ------------------------------------------------- */

#define RR_SEC_STRINGS 0x0001u  /* u8 x count: NUL-terminated strings; last byte 0 */
#define RR_SEC_INFO    0x0002u  /* rr_blob_info x 1 */

/* RR_SEC_STRINGS: one byte per record. */
#define RR_STRING_BYTE(F, T) F(T, c, U8, , DATA, 0, "NUL-terminated strings, one after another")
RR_RECORD(rr_string_byte, RR_STRING_BYTE, 1);

/* RR_SEC_INFO: what the baker knew about the source (informational). */
#define RR_BLOB_INFO(F, T)                                                        \
    F(T, source_size, U32, , DATA, 0, "bytes of the source file")                 \
    F(T, source_name, U32, , STRING, 0, "file name of the source")                \
    F(T, variant, U32, , DATA, 0, "format-specific version or variant number")    \
    F(T, bbox_min, I32, [3], DATA, 0, "world bounds, coords")                     \
    F(T, bbox_max, I32, [3], DATA, 0, "")
RR_RECORD(rr_blob_info, RR_BLOB_INFO, 36);

/* A key/value pair of strings: the record of RMF entity keys and of RMesh
 * custom-entity properties (each format names it; one record, so the core
 * looks a key up for both, rr__kv_value). */
#define RR_KV(F, T)                                                                    \
    F(T, key, U32, , STRING, 0, "key")                                                  \
    F(T, value, U32, , STRING, 0, "its value as text")
RR_RECORD(rr_kv, RR_KV, 8);

/* The two common sections: slots 0 and 1 of every format, before the
 * sections of its own list (P: the format's prefix, passed through). */
#define RR_COMMON_SECTIONS(S, P)                                          \
    S(P, strings, RR_SEC_STRINGS, rr_string_byte, RR_STRING_BYTE, OPT)   \
    S(P, info, RR_SEC_INFO, rr_blob_info, RR_BLOB_INFO, OPT)
enum { RR_S_STRINGS, RR_S_INFO, RR_S_COMMON };

/* A format's slot numbers from its section list P##_SECTIONS: P##_S_<name>
 * for each section, after the common ones, and P##_S_COUNT. */
#define RR__SLOT(P, name, type, T, FIELDS, presence) P##_S_##name,
#define RR_SECTION_SLOTS(P) \
    enum { P##_S_BASE_ = RR_S_COMMON - 1, P##_SECTIONS(RR__SLOT, P) P##_S_COUNT }

/* ---- building a format's loader tables from its section list ------------- */

/* The field table and the section table of a format, as static consts named
 * <name>_fields and <name>_sections, and the schema <name>, from the
 * format's section list P##_SECTIONS and version P##_SCHEMA_VERSION. */
#define RR__FIELDS_OF(P, name, type, T, FIELDS, presence) FIELDS(RR_FIELD_DESC, T)
#define RR__SEC_OF(P, name, type, T, FIELDS, presence) \
    {(uint16_t)(type), (uint8_t)sizeof(T), (uint8_t)RR_P_##presence, \
     (uint32_t)(sizeof((const rr_field_desc[]){FIELDS(RR_FIELD_DESC, T) {0, 0, 0, 0, 0}}) / \
                sizeof(rr_field_desc) - 1u)},
#define RR_FORMAT_SCHEMA(name, P)                                                    \
    static const rr_field_desc name##_fields[] = {                                   \
        RR_COMMON_SECTIONS(RR__FIELDS_OF, P) P##_SECTIONS(RR__FIELDS_OF, P)           \
        {0, 0, 0, 0, 0}};                                                            \
    static const rr_section_desc name##_sections[] = {                               \
        RR_COMMON_SECTIONS(RR__SEC_OF, P) P##_SECTIONS(RR__SEC_OF, P)};               \
    static const rr_schema name = {                                                  \
        name##_sections, name##_fields,                                              \
        (uint32_t)(sizeof name##_sections / sizeof name##_sections[0]), P##_SCHEMA_VERSION}

#endif

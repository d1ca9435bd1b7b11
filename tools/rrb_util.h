/* rrb_util.h - host-side helpers shared by every reader and writer of rrbake:
 * file loading, a bounds-checked little-endian cursor with one error style,
 * growable byte buffers, and JSON string output.
 *
 * Error style (every message the baker prints about input data):
 *     path:0x1a4: expected <what>, found <what>
 * The first error sticks: after a cursor failed, every read returns zero and
 * does nothing, so a reader can check once per structure instead of per field.
 */
#ifndef RRB_UTIL_H
#define RRB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RRB_ERR_MAX 512

/* Load a whole file. Returns 0 on success, -1 with a message in err. The
 * buffer gets one extra NUL byte (not counted in *size) and is freed with free(). */
int rrb_load_file(const char *path, uint8_t **data, size_t *size,
                  char *err, size_t errcap);
/* Write a whole file; returns 0 or -1 with a message. */
int rrb_save_file(const char *path, const void *data, size_t size,
                  char *err, size_t errcap);

/* A read cursor over a source file held in memory. */
typedef struct rrb_cur {
    const uint8_t *data;
    size_t size;
    size_t pos;
    const char *path;    /* used in messages */
    int failed;          /* first error sticks */
    size_t err_off;      /* offset of the first error */
    char err[RRB_ERR_MAX];
} rrb_cur;

void rrb_cur_init(rrb_cur *c, const uint8_t *data, size_t size, const char *path);
/* Record an error at offset off ("path:0xOFF: ..."), printf-style. Only the
 * first call has an effect. Always returns -1 so callers can `return rrb_fail(...)`. */
int rrb_fail(rrb_cur *c, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Bytes left. */
size_t rrb_left(const rrb_cur *c);
/* Make sure n more bytes exist; what names the data ("12-byte triangle 5"). */
int rrb_need(rrb_cur *c, size_t n, const char *what);

/* Little-endian reads. On failure: the cursor fails with "expected <what>",
 * the value is 0 and the position does not move. */
uint8_t  rrb_u8 (rrb_cur *c, const char *what);
uint16_t rrb_u16(rrb_cur *c, const char *what);
int16_t  rrb_i16(rrb_cur *c, const char *what);
uint32_t rrb_u32(rrb_cur *c, const char *what);
int32_t  rrb_i32(rrb_cur *c, const char *what);
/* f32 that must be finite: NaN/Inf fails with the offset. */
float    rrb_f32(rrb_cur *c, const char *what);
/* f32 as stored, NaN/Inf allowed (for fields nobody uses). */
float    rrb_f32_raw(rrb_cur *c, const char *what);
/* Copy n raw bytes (out may be NULL to skip). */
int      rrb_bytes(rrb_cur *c, void *out, size_t n, const char *what);

/* A count read from the file that announces `count` elements of at least
 * `min_elem_bytes` each: fails (with the count and the bytes left) when they
 * cannot fit in the rest of the file, so a hostile count never makes the
 * baker allocate more than the file size justifies. */
int rrb_check_count(rrb_cur *c, size_t count_off, int64_t count,
                    size_t min_elem_bytes, const char *what);

/* Field trace, for tests (tests/host/test_malformed.c): when rrb_tracer is
 * set, every field a reader takes from a cursor is reported with its offset,
 * width and type, every count checked by rrb_check_count as RRB_T_COUNT and
 * every index a reader range-checks as RRB_T_INDEX with the first value past
 * its end (rrb_trace_index). `at` points into the cursor's data, so a reader
 * working on a slice still reports the right file offset. NULL (the default)
 * costs one test per read. */
enum { RRB_T_INT = 1, RRB_T_FLOAT, RRB_T_FLOAT_RAW, RRB_T_BYTES, RRB_T_COUNT, RRB_T_INDEX };
typedef void (*rrb_trace_fn)(void *ctx, const uint8_t *at, size_t width, int kind,
                             int64_t bound, const char *what);
extern rrb_trace_fn rrb_tracer;
extern void *rrb_tracer_ctx;
/* An index field at offset off of c whose valid values end below `past`
 * (the reader checks it separately, with its own message). */
void rrb_trace_index(const rrb_cur *c, size_t off, int64_t past, const char *what);

/* Length-prefixed strings, returned as malloc'd NUL-terminated copies
 * (embedded NULs end the string, as the games do). Returns NULL on failure. */
char *rrb_str_u32len(rrb_cur *c, const char *what);  /* B3D / LA string: u32 len + bytes */
char *rrb_str_u8len(rrb_cur *c, const char *what);   /* RMF p_char: u8 len + bytes */
char *rrb_str_fixed(rrb_cur *c, size_t n, const char *what); /* char[n], NUL-padded */

/* A growable byte buffer (writers, string tables). Aborts on out-of-memory. */
typedef struct rrb_buf {
    uint8_t *data;
    size_t size, cap;
} rrb_buf;

void rrb_buf_put(rrb_buf *b, const void *p, size_t n);
void rrb_buf_u8(rrb_buf *b, uint8_t v);
void rrb_buf_u16le(rrb_buf *b, uint16_t v);
void rrb_buf_u32le(rrb_buf *b, uint32_t v);
void rrb_buf_f32le(rrb_buf *b, float v);
void rrb_buf_free(rrb_buf *b);

/* Growable array helper: ensures *cap >= need elements of elem bytes. */
void *rrb_grow(void *p, size_t *cap, size_t need, size_t elem);
/* malloc/calloc that abort with a message on failure. */
void *rrb_xmalloc(size_t n);
void *rrb_xcalloc(size_t n, size_t elem);
char *rrb_xstrdup(const char *s);

/* JSON: write s as a quoted, escaped JSON string. */
void rrb_json_str(FILE *f, const char *s);

/* Case-insensitive ASCII compare (EMI joint names, RMF classnames). */
int rrb_strieq(const char *a, const char *b);

/* 1 if the first bytes of a file are text (no NUL or control bytes other
 * than tab and line ends): a message can then say the file is text. */
int rrb_looks_like_text(const uint8_t *d, size_t n);

/* Append what a reader's error suggests about the file as a whole: "(the
 * file looks truncated)" when it ran out of bytes, "(the file is text, not a
 * binary room file)" when it failed at offset 0 on text. */
void rrb_err_hint(char *err, size_t cap, const uint8_t *d, size_t n);

/* A 32-bit value stored little- or big-endian (be). */
uint32_t rrb_rd32(const uint8_t *p, int be);
/* 1 if p is a folder. */
int rrb_is_dir(const char *p);
/* mkdir -p. */
void rrb_mkdirs(const char *path);

#endif

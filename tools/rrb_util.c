/* rrb_util.c - file I/O, the bounds-checked cursor, buffers and JSON strings
 * shared by every reader and writer of rrbake (see rrb_util.h). */
#include "rrb_util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rrb_load_file(const char *path, uint8_t **data, size_t *size,
                  char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    long n;
    uint8_t *p;
    struct stat st;
    if (!f) {
        snprintf(err, errcap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errcap, "%s: is a folder, expected a file (bake, info and verify take "
                 "folders)", path);
        fclose(f);
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(err, errcap, "%s: cannot seek: %s", path, strerror(errno));
        fclose(f);
        return -1;
    }
    p = rrb_xmalloc((size_t)n + 1);
    if (n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) {
        snprintf(err, errcap, "%s: short read", path);
        free(p);
        fclose(f);
        return -1;
    }
    fclose(f);
    p[n] = 0;
    *data = p;
    *size = (size_t)n;
    return 0;
}

int rrb_save_file(const char *path, const void *data, size_t size,
                  char *err, size_t errcap)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errcap, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    if (size && fwrite(data, 1, size, f) != size) {
        snprintf(err, errcap, "%s: write failed: %s", path, strerror(errno));
        fclose(f);
        return -1;
    }
    if (fclose(f) != 0) {
        snprintf(err, errcap, "%s: close failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void rrb_cur_init(rrb_cur *c, const uint8_t *data, size_t size, const char *path)
{
    memset(c, 0, sizeof *c);
    c->data = data;
    c->size = size;
    c->path = path ? path : "<memory>";
}

int rrb_fail(rrb_cur *c, size_t off, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (c->failed)
        return -1;
    c->failed = 1;
    c->err_off = off;
    n = snprintf(c->err, sizeof c->err, "%s:0x%zx: ", c->path, off);
    if (n < 0 || (size_t)n >= sizeof c->err)
        return -1;
    va_start(ap, fmt);
    vsnprintf(c->err + n, sizeof c->err - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

size_t rrb_left(const rrb_cur *c)
{
    return c->pos <= c->size ? c->size - c->pos : 0;
}

int rrb_need(rrb_cur *c, size_t n, const char *what)
{
    if (c->failed)
        return -1;
    if (n > rrb_left(c))
        return rrb_fail(c, c->pos, "expected %s (%zu bytes), found %s",
                        what, n, rrb_left(c) ? "end of file" : "end of file");
    return 0;
}

rrb_trace_fn rrb_tracer;
void *rrb_tracer_ctx;

void rrb_trace_index(const rrb_cur *c, size_t off, int64_t past, const char *what)
{
    if (rrb_tracer && off < c->size)
        rrb_tracer(rrb_tracer_ctx, c->data + off, 0, RRB_T_INDEX, past, what);
}

static const uint8_t *take_as(rrb_cur *c, size_t n, const char *what, int kind)
{
    const uint8_t *p;
    if (c->failed)
        return NULL;
    if (n > rrb_left(c)) {
        rrb_fail(c, c->pos, "expected %s (%zu bytes), found end of file after %zu bytes",
                 what, n, rrb_left(c));
        return NULL;
    }
    p = c->data + c->pos;
    c->pos += n;
    if (rrb_tracer)
        rrb_tracer(rrb_tracer_ctx, p, n, kind, 0, what);
    return p;
}

static const uint8_t *take(rrb_cur *c, size_t n, const char *what)
{
    return take_as(c, n, what, n <= 4 ? RRB_T_INT : RRB_T_BYTES);
}

uint8_t rrb_u8(rrb_cur *c, const char *what)
{
    const uint8_t *p = take(c, 1, what);
    return p ? p[0] : 0;
}

uint16_t rrb_u16(rrb_cur *c, const char *what)
{
    const uint8_t *p = take(c, 2, what);
    return p ? (uint16_t)(p[0] | (unsigned)p[1] << 8) : 0;
}

int16_t rrb_i16(rrb_cur *c, const char *what)
{
    return (int16_t)rrb_u16(c, what);
}

uint32_t rrb_u32(rrb_cur *c, const char *what)
{
    const uint8_t *p = take(c, 4, what);
    return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24
             : 0;
}

int32_t rrb_i32(rrb_cur *c, const char *what)
{
    return (int32_t)rrb_u32(c, what);
}

static float f32_as(rrb_cur *c, const char *what, int kind)
{
    const uint8_t *p = take_as(c, 4, what, kind);
    uint32_t u = p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                         (uint32_t)p[3] << 24
                   : 0;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

float rrb_f32_raw(rrb_cur *c, const char *what)
{
    return f32_as(c, what, RRB_T_FLOAT_RAW);
}

float rrb_f32(rrb_cur *c, const char *what)
{
    size_t at = c->pos;
    float f = f32_as(c, what, RRB_T_FLOAT);
    if (!c->failed && !isfinite(f)) {
        c->pos = at;
        rrb_fail(c, at, "expected a finite float for %s, found %s", what,
                 isnan(f) ? "NaN" : "Inf");
        return 0.0f;
    }
    return f;
}

int rrb_bytes(rrb_cur *c, void *out, size_t n, const char *what)
{
    const uint8_t *p = take_as(c, n, what, RRB_T_BYTES);
    if (!p)
        return -1;
    if (out)
        memcpy(out, p, n);
    return 0;
}

int rrb_check_count(rrb_cur *c, size_t count_off, int64_t count,
                    size_t min_elem_bytes, const char *what)
{
    if (c->failed)
        return -1;
    if (rrb_tracer && count_off < c->size)
        rrb_tracer(rrb_tracer_ctx, c->data + count_off, 0, RRB_T_COUNT, count, what);
    if (count < 0)
        return rrb_fail(c, count_off, "expected a count of %s, found negative value %lld",
                        what, (long long)count);
    if (min_elem_bytes && (uint64_t)count > rrb_left(c) / min_elem_bytes)
        return rrb_fail(c, count_off,
                        "expected at most %zu %s (%zu bytes each) in the %zu bytes left, "
                        "found count %lld",
                        rrb_left(c) / min_elem_bytes, what, min_elem_bytes, rrb_left(c),
                        (long long)count);
    return 0;
}

static char *copy_str(const uint8_t *p, size_t n)
{
    char *s = rrb_xmalloc(n + 1);
    size_t i;
    for (i = 0; i < n && p[i]; i++)
        s[i] = (char)p[i];
    s[i] = 0;
    return s;
}

/* The bytes of a string whose length (already read at `at`) is n. */
static char *str_body(rrb_cur *c, size_t at, size_t n, const char *what)
{
    const uint8_t *p;
    if (c->failed)
        return NULL;
    if (rrb_tracer)  /* a string length is a count of bytes */
        rrb_tracer(rrb_tracer_ctx, c->data + at, 0, RRB_T_COUNT, (int64_t)n, what);
    if (n > rrb_left(c)) {
        rrb_fail(c, at, "expected %s of %zu bytes, found only %zu bytes left", what, n,
                 rrb_left(c));
        return NULL;
    }
    p = take_as(c, n, what, RRB_T_BYTES);
    return p ? copy_str(p, n) : NULL;
}

char *rrb_str_u32len(rrb_cur *c, const char *what)
{
    size_t at = c->pos;
    uint32_t n = rrb_u32(c, what);
    return str_body(c, at, n, what);
}

char *rrb_str_u8len(rrb_cur *c, const char *what)
{
    size_t at = c->pos;
    uint8_t n = rrb_u8(c, what);
    return str_body(c, at, n, what);
}

char *rrb_str_fixed(rrb_cur *c, size_t n, const char *what)
{
    const uint8_t *p = take_as(c, n, what, RRB_T_BYTES);
    return p ? copy_str(p, n) : NULL;
}

void *rrb_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "rrbake: out of memory (%zu bytes)\n", n);
        exit(3);
    }
    return p;
}

void *rrb_xcalloc(size_t n, size_t elem)
{
    void *p = calloc(n ? n : 1, elem ? elem : 1);
    if (!p) {
        fprintf(stderr, "rrbake: out of memory (%zu x %zu bytes)\n", n, elem);
        exit(3);
    }
    return p;
}

char *rrb_xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *d = rrb_xmalloc(n + 1);
    memcpy(d, s, n + 1);
    return d;
}

void *rrb_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    size_t n = *cap ? *cap : 16;
    if (need <= *cap)
        return p;
    while (n < need)
        n *= 2;
    p = realloc(p, n * elem);
    if (!p) {
        fprintf(stderr, "rrbake: out of memory (%zu x %zu bytes)\n", n, elem);
        exit(3);
    }
    *cap = n;
    return p;
}

void rrb_buf_put(rrb_buf *b, const void *p, size_t n)
{
    b->data = rrb_grow(b->data, &b->cap, b->size + n, 1);
    if (n)
        memcpy(b->data + b->size, p, n);
    b->size += n;
}

void rrb_buf_u8(rrb_buf *b, uint8_t v)
{
    rrb_buf_put(b, &v, 1);
}

void rrb_buf_u16le(rrb_buf *b, uint16_t v)
{
    uint8_t t[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    rrb_buf_put(b, t, 2);
}

void rrb_buf_u32le(rrb_buf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    rrb_buf_put(b, t, 4);
}

void rrb_buf_f32le(rrb_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    rrb_buf_u32le(b, u);
}

void rrb_buf_free(rrb_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void rrb_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

int rrb_strieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int rrb_looks_like_text(const uint8_t *d, size_t n)
{
    size_t i, m = n < 512 ? n : 512;
    if (n == 0)
        return 0;
    for (i = 0; i < m; i++)
        if (d[i] == 0 || (d[i] < 0x20 && d[i] != '\n' && d[i] != '\r' && d[i] != '\t'))
            return 0;
    return 1;
}

void rrb_err_hint(char *err, size_t cap, const uint8_t *d, size_t n)
{
    size_t len = strlen(err);
    if (len + 1 >= cap)
        return;
    if (strstr(err, " bytes left") || strstr(err, "found end of file") ||
        (strstr(err, "within the ") && strstr(err, "-byte file")))
        snprintf(err + len, cap - len, " (the file looks truncated)");
    else if (strstr(err, ":0x0: ") && rrb_looks_like_text(d, n))
        snprintf(err + len, cap - len, " (the file is text, not a binary room file)");
}

uint32_t rrb_rd32(const uint8_t *p, int be)
{
    return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
              : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

int rrb_is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void rrb_mkdirs(const char *path)
{
    char tmp[4096];
    size_t i, n = strlen(path);
    if (n >= sizeof tmp)
        return;
    memcpy(tmp, path, n + 1);
    for (i = 1; i <= n; i++)
        if (tmp[i] == '/' || tmp[i] == 0) {
            char c = tmp[i];
            tmp[i] = 0;
            mkdir(tmp, 0777);
            tmp[i] = c;
        }
}

/* rrb_cli_room.c - open a blob or a baked-in-memory source for the CLI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_blobfmt.h"
#include "rrb_blob.h"
#include "rrb_cli.h"
#include "rrb_schema.h"
#include "rrb_util.h"

/* Open a blob's bytes with the real loader. A big-endian blob (for
 * malta-be) is swapped to host order through its format's schema first, so
 * it is checked and queried exactly as the board would. *host and *arena
 * are malloc'd for the caller to free, also on failure; *host is NULL when
 * the bytes are shorter than a header (RR_ERR_TRUNC). On any other failure
 * text says why, naming section, record and field (a checksum mismatch
 * with both values in hex), and *at is the offset. */
static rr_err open_bytes(const uint8_t *d, size_t n, uint8_t **host, void **arena, int *be,
                         rr_room *room, uint32_t *at, char *text, size_t cap)
{
    rr_diag diag;
    int32_t need;
    rr_err e;
    *arena = NULL;
    *host = rrb_blob_host_copy(d, n, be);
    if (!*host)
        return RR_ERR_TRUNC;
    memset(&diag, 0, sizeof diag);
    need = rr_arena_size(*host, (uint32_t)n);
    *arena = rrb_xmalloc(need > 0 ? (size_t)need + 4 : 4);
    e = rr_open_diag(*host, (uint32_t)n, *arena, need > 0 ? (uint32_t)need : 0, room, &diag);
    *at = diag.offset;
    if (e == RR_ERR_CHECKSUM) {
        uint32_t stored = rrb_rd32(d + offsetof(rr_blob_header, checksum), *be);
        uint32_t crc = rr_crc32(0, d + RR_CHECKSUM_FROM, (uint32_t)(n - RR_CHECKSUM_FROM));
        snprintf(text, cap, "header.checksum at 0x%x: stored 0x%08x, computed 0x%08x "
                 "(%s: the blob was changed after it was baked)",
                 (unsigned)offsetof(rr_blob_header, checksum), stored, crc, rr_strerror(e));
    } else if (e) {
        rrb_diag_text(*host, n, e, &diag, text, cap);
    }
    return e;
}

static int open_blob(rrb_cli_room *r, const uint8_t *d, size_t n, char *err, size_t cap)
{
    uint8_t *host;
    uint32_t at;
    int be;
    char text[256];
    rr_err e;
    if (n > 0x7fffffffu) {
        snprintf(err, cap, "%s:0x0: expected a blob below 2 GB, found %zu bytes", r->path, n);
        return -1;
    }
    e = open_bytes(d, n, &host, &r->arena, &be, &r->room, &at, text, sizeof text);
    r->blob = (uint32_t *)(void *)host;
    r->size = n;
    if (!host) {
        snprintf(err, cap, "%s:0x0: expected a %u-byte blob header, found %zu bytes (the file "
                 "looks truncated)", r->path, RR_HEADER_BYTES, n);
        return -1;
    }
    if (e) {
        snprintf(err, cap, "%s:0x%x: expected a valid blob, found %s", r->path, at, text);
        return -1;
    }
    return 0;
}

/* Open a blob of either byte order with the real loader, as the board
 * would; prints the diagnosis, naming section, record and field. */
int rrb_cli_check_blob(const uint8_t *d, size_t n, const char *path, FILE *verbose)
{
    rr_room room;
    uint8_t *host;
    void *arena;
    uint32_t at;
    int be;
    char text[256];
    rr_err e = open_bytes(d, n, &host, &arena, &be, &room, &at, text, sizeof text);
    free(arena);
    if (!host) {
        fprintf(stderr, "%s:0x0: blob rejected: expected a %u-byte header, found %zu bytes "
                        "(the file looks truncated)\n", path, RR_HEADER_BYTES, n);
        return 1;
    }
    if (e)
        fprintf(stderr, "%s:0x%x: blob rejected: %s\n", path, at, text);
    else if (verbose)
        fprintf(verbose, "%s: ok (%s room, %s-endian, %u bytes, arena %u, depth %u)\n", path,
                rrb_room_format_name(room.format), be ? "big" : "little", room.size,
                rr_arena_size(host, (uint32_t)n), room.max_depth);
    free(host);
    return e ? 1 : 0;
}

int rrb_cli_open(const char *path, rrb_cli_room *r, char *err, size_t cap)
{
    uint8_t *d, *le = NULL;
    size_t n, len;
    rrb_blob *b;
    rrb_opts opts;
    int rc;
    memset(r, 0, sizeof *r);
    r->path = path;
    if (rrb_load_file(path, &d, &n, err, cap))
        return -1;
    if (n >= 4 && d[0] == RR_MAGIC0 && d[1] == RR_MAGIC1 && d[2] == RR_MAGIC2 &&
        d[3] == RR_MAGIC3) {
        rc = open_blob(r, d, n, err, cap);
        free(d);
        if (rc)
            rrb_cli_close(r);
        return rc;
    }
    r->fmt = rrb_detect(d, n, path);
    if (!r->fmt || !r->fmt->bake) {
        snprintf(err, cap, "%s:0x0: expected a romroom blob or a room file rrbake can bake, "
                 "found %s", path, r->fmt ? "a format without a baker" : "unrecognised data");
        free(d);
        r->fmt = NULL;
        return -1;
    }
    memset(&opts, 0, sizeof opts);
    opts.quiet = 1;
    opts.entity_defs = rrb_text_opts.entity_defs;   /* query's --entity-defs, --strict */
    opts.strict = rrb_text_opts.strict;
    err[0] = 0;
    b = r->fmt->bake(d, n, path, &opts, err, cap);
    r->src = d;
    r->src_size = n;
    if (!b) {
        if (!err[0])
            snprintf(err, cap, "%s:0x0: expected a bakeable room, found a bake failure", path);
        rrb_err_hint(err, cap, d, n);
        rrb_cli_close(r);
        return -1;
    }
    rc = rrb_blob_finish(b, 0, &le, &len);
    rrb_blob_free(b);
    if (rc) {
        snprintf(err, cap, "%s:0x0: expected a room that fits a blob, found a blob error", path);
        rrb_cli_close(r);
        return -1;
    }
    rc = open_blob(r, le, len, err, cap);
    free(le);
    if (rc)
        rrb_cli_close(r);
    return rc;
}

void rrb_cli_close(rrb_cli_room *r)
{
    free(r->blob);
    free(r->arena);
    free(r->src);
    r->blob = NULL, r->arena = NULL, r->src = NULL;
}

int rrb_cli_num(const char *s, double *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    *v = strtod(s, &end);
    return *end || !isfinite(*v) ? -1 : 0;
}

int rrb_cli_to_coord(double v, unsigned frac, int32_t *out)
{
    double c = ldexp(v, (int)frac);
    c = c >= 0 ? floor(c + 0.5) : -floor(-c + 0.5);
    if (!(c >= -2147483648.0 && c <= 2147483647.0))
        return -1;
    *out = (int32_t)c;
    return 0;
}

double rrb_cli_unit(int32_t c, unsigned frac)
{
    return ldexp((double)c, -(int)frac);
}

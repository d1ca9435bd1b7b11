/* rrb_cli_gltf.c - glTF 2.0 files (.gltf with the buffer embedded as a
 * base64 data URI, or binary .glb): a binary buffer of accessors, one buffer
 * view each, and the tables that describe them. The room format's glTF
 * convert target (EMI and RMesh: rrb_<fmt>_cli.c) fills the buffer and
 * writes the rest of the JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_cli.h"

uint32_t rrb_gltf_begin(rrb_gltf *g, int ctype, const char *type, int target)
{
    rrb_gltf_acc *x;
    while (g->buf.size % 4)
        rrb_buf_u8(&g->buf, 0);
    g->a = rrb_grow(g->a, &g->cap, g->na + 1, sizeof *g->a);
    x = &g->a[g->na];
    memset(x, 0, sizeof *x);
    x->off = g->buf.size, x->ctype = ctype, x->type = type, x->target = target;
    x->mn[0] = x->mn[1] = x->mn[2] = 1e300, x->mx[0] = x->mx[1] = x->mx[2] = -1e300;
    return (uint32_t)g->na++;
}

void rrb_gltf_floats(rrb_gltf *g, uint32_t a, const double *v, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        rrb_buf_f32le(&g->buf, (float)v[i]);
        if (i < 3) {
            double f = (double)(float)v[i];
            g->a[a].mn[i] = fmin(g->a[a].mn[i], f), g->a[a].mx[i] = fmax(g->a[a].mx[i], f);
        }
    }
}

void rrb_gltf_end(rrb_gltf *g, uint32_t a, uint32_t count, int minmax)
{
    g->a[a].len = g->buf.size - g->a[a].off;
    g->a[a].count = count;
    g->a[a].minmax = minmax;
}

static void b64(FILE *f, const uint8_t *d, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i;
    for (i = 0; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];
        fprintf(f, "%c%c%c%c", t[v >> 18], t[v >> 12 & 63], t[v >> 6 & 63], t[v & 63]);
    }
    if (n - i == 1)
        fprintf(f, "%c%c==", t[d[i] >> 2], t[(d[i] & 3) << 4]);
    else if (n - i == 2) {
        uint32_t v = (uint32_t)d[i] << 8 | d[i + 1];
        fprintf(f, "%c%c%c=", t[v >> 10], t[v >> 4 & 63], t[(v & 15) << 2]);
    }
}

/* accessors, buffer views (one per accessor), the buffer header */
void rrb_gltf_tables(FILE *jf, const rrb_gltf *g)
{
    size_t i;
    fprintf(jf, ",\"accessors\":[");
    for (i = 0; i < g->na; i++) {
        const rrb_gltf_acc *x = &g->a[i];
        fprintf(jf, "%s{\"bufferView\":%zu,\"componentType\":%d,\"count\":%u,\"type\":\"%s\"",
                i ? "," : "", i, x->ctype, x->count, x->type);
        if (x->minmax) {
            int k, nc = !strcmp(x->type, "SCALAR") ? 1 : 3;
            fprintf(jf, ",\"min\":[");
            for (k = 0; k < nc; k++)
                fprintf(jf, "%s%.9g", k ? "," : "", x->mn[k]);
            fprintf(jf, "],\"max\":[");
            for (k = 0; k < nc; k++)
                fprintf(jf, "%s%.9g", k ? "," : "", x->mx[k]);
            fprintf(jf, "]");
        }
        fprintf(jf, "}");
    }
    fprintf(jf, "],\"bufferViews\":[");
    for (i = 0; i < g->na; i++) {
        fprintf(jf, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu", i ? "," : "",
                g->a[i].off, g->a[i].len);
        if (g->a[i].target)
            fprintf(jf, ",\"target\":%d", g->a[i].target);
        fprintf(jf, "}");
    }
    fprintf(jf, "],\"buffers\":[{\"byteLength\":%zu", g->buf.size);
}

/* .glb: a 12-byte header ("glTF", version 2, total length), then chunks of
 * (length, type, data), each padded to 4 bytes: the JSON with spaces, the
 * binary buffer with zeros. */
static void put_u32(FILE *f, uint32_t v)
{
    uint8_t b[4];
    b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16), b[3] = (uint8_t)(v >> 24);
    fwrite(b, 1, 4, f);
}

static void write_glb(FILE *f, const char *json, size_t jlen, const rrb_gltf *g)
{
    size_t jpad = (4 - jlen % 4) % 4, bpad = (4 - g->buf.size % 4) % 4, k;
    uint32_t total = (uint32_t)(12 + 8 + jlen + jpad + 8 + g->buf.size + bpad);
    put_u32(f, 0x46546c67u);            /* "glTF" */
    put_u32(f, 2);
    put_u32(f, total);
    put_u32(f, (uint32_t)(jlen + jpad));
    put_u32(f, 0x4e4f534au);            /* "JSON" */
    fwrite(json, 1, jlen, f);
    for (k = 0; k < jpad; k++)
        fputc(' ', f);
    put_u32(f, (uint32_t)(g->buf.size + bpad));
    put_u32(f, 0x004e4942u);            /* "BIN\0" */
    fwrite(g->buf.data, 1, g->buf.size, f);
    for (k = 0; k < bpad; k++)
        fputc(0, f);
}

int rrb_gltf_binary(const char *out_path, int force)
{
    const char *d = strrchr(out_path, '.');
    return force || (d && !strcmp(d, ".glb"));
}

/* The JSON (the inverse-bind accessor index in place of "%IBM%", if any),
 * closed after the buffer's byteLength: .gltf with the buffer as a base64
 * data URI, .glb with it in the binary chunk. */
int rrb_gltf_save(const char *out_path, const char *json, uint32_t ibm, const rrb_gltf *g,
                  int binary)
{
    FILE *f = fopen(out_path, binary ? "wb" : "w");
    const char *hole = strstr(json, "%IBM%");
    char *full = NULL;
    size_t flen = 0;
    FILE *m;
    if (!f)
        return -1;
    m = open_memstream(&full, &flen);
    if (hole) {
        fwrite(json, 1, (size_t)(hole - json), m);
        fprintf(m, "%u", ibm);
        fputs(hole + 5, m);
    } else {
        fputs(json, m);
    }
    if (binary) {
        fprintf(m, "}]}");
        fclose(m);
        write_glb(f, full, flen, g);
    } else {
        fprintf(m, ",\"uri\":\"data:application/octet-stream;base64,");
        fclose(m);
        fwrite(full, 1, flen, f);
        b64(f, g->buf.data, g->buf.size);
        fprintf(f, "\"}]}\n");
    }
    free(full);
    return fclose(f) ? -1 : 0;
}

/* A file name as a relative URI: unreserved characters and '/' as they are,
 * '\' as '/', everything else %XX (a space is %20). */
void rrb_gltf_uri(FILE *jf, const char *name)
{
    const unsigned char *p;
    fputc('"', jf);
    for (p = (const unsigned char *)name; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            fputc(*p, jf);
        else if (*p == '\\')
            fputc('/', jf);
        else
            fprintf(jf, "%%%02X", *p);
    }
    fputc('"', jf);
}

void rrb_gltf_free(rrb_gltf *g)
{
    free(g->a);
    rrb_buf_free(&g->buf);
}

/* rrb_cli_gltf.c - glTF 2.0 files (.gltf, buffer embedded as a base64 data
 * URI): a binary buffer of accessors, one buffer view each, and the tables
 * that describe them. The room format's glTF convert target (EMI:
 * rrb_emi_cli.c) fills the buffer and writes the rest of the JSON. */
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
    fprintf(jf, "],\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;"
            "base64,", g->buf.size);
}

/* The JSON (with the inverse-bind accessor index) then the base64 buffer. */
int rrb_gltf_save(const char *out_path, const char *json, uint32_t ibm, const rrb_gltf *g)
{
    FILE *f = fopen(out_path, "w");
    const char *hole = strstr(json, "%IBM%");
    if (!f)
        return -1;
    fwrite(json, 1, (size_t)(hole - json), f);
    fprintf(f, "%u", ibm);
    fputs(hole + 5, f);
    b64(f, g->buf.data, g->buf.size);
    fprintf(f, "\"}]}\n");
    return fclose(f) ? -1 : 0;
}

void rrb_gltf_free(rrb_gltf *g)
{
    free(g->a);
    rrb_buf_free(&g->buf);
}

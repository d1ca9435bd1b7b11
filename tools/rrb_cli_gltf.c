/* rrb_cli_gltf.c - an EMI figure as glTF 2.0 (.gltf, buffer embedded as a
 * base64 data URI): skinned mesh in the bind pose, the skeleton as a node
 * tree with the bind local transforms, inverse bind matrices from the blob,
 * and one glTF animation per EMI animation.
 *
 * Animation values come from the runtime itself: for every key of every
 * track the local pose is sampled at the key's time (rr_emi_sample_job, where
 * the runtime returns the key's own value), so the file holds exactly the
 * keys the device plays; glTF interpolates LINEAR (slerp for rotations where
 * the runtime nlerps: the difference is bounded in docs/emi.md). Vertices
 * without influences stay in the bind pose in the runtime; here they are
 * bound to joint 0 with weight 1 (glTF needs a weight sum of 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rrb_cli.h"

typedef struct acc {
    size_t off, len;            /* byte range in the buffer (one view each) */
    int ctype;                  /* 5126 float, 5123 u16, 5125 u32 */
    uint32_t count;
    const char *type;           /* SCALAR, VEC3, ... */
    int target;                 /* 34962 vertex data, 34963 indices, 0 none */
    int minmax;                 /* write min/max (VEC3 positions, SCALAR times) */
    double mn[3], mx[3];
} acc;

typedef struct gl {
    rrb_buf buf;
    acc *a;
    size_t na, cap;
} gl;

static uint32_t begin(gl *g, int ctype, const char *type, int target)
{
    acc *x;
    while (g->buf.size % 4)
        rrb_buf_u8(&g->buf, 0);
    g->a = rrb_grow(g->a, &g->cap, g->na + 1, sizeof *g->a);
    x = &g->a[g->na];
    memset(x, 0, sizeof *x);
    x->off = g->buf.size, x->ctype = ctype, x->type = type, x->target = target;
    x->mn[0] = x->mn[1] = x->mn[2] = 1e300, x->mx[0] = x->mx[1] = x->mx[2] = -1e300;
    return (uint32_t)g->na++;
}

static void put_f(gl *g, uint32_t a, const double *v, int n)
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

static void end(gl *g, uint32_t a, uint32_t count, int minmax)
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

typedef struct emi {
    const rr_room *room;
    rr_emi_info info;
    const rr_emi_joint *j;
    const rr_emi_vert *v;
    const rr_emi_infl *infl;
    const rr_emi_tri *t;
    const rr_emi_vattr *va;
    const rr_emi_anim *an;
    const rr_emi_track *tr;
    const rr_emi_pkey *pk;
    const rr_emi_rkey *rk;
    double unit;                /* one coord in source units */
} emi;

static const void *sec(const rr_room *room, uint32_t type, uint32_t *n)
{
    const void *p = NULL;
    *n = 0;
    if (rr_section(room, type, &p, n))
        *n = 0;
    return p;
}

static void mesh_accessors(gl *g, const emi *e, uint32_t acc_ids[6])
{
    uint32_t i, k, nt = e->info.ntris;
    double x[4];
    acc_ids[0] = begin(g, 5126, "VEC3", 34962);
    for (i = 0; i < e->info.nverts; i++) {
        for (k = 0; k < 3; k++)
            x[k] = e->v[i].pos[k] * e->unit;
        put_f(g, acc_ids[0], x, 3);
    }
    end(g, acc_ids[0], e->info.nverts, 1);
    acc_ids[1] = begin(g, 5123, "VEC4", 34962);     /* JOINTS_0 */
    for (i = 0; i < e->info.nverts; i++)
        for (k = 0; k < 4; k++)
            rrb_buf_u16le(&g->buf, k < e->v[i].infl_count ? e->infl[e->v[i].infl_first + k].joint : 0);
    end(g, acc_ids[1], e->info.nverts, 0);
    acc_ids[2] = begin(g, 5126, "VEC4", 34962);     /* WEIGHTS_0 */
    for (i = 0; i < e->info.nverts; i++) {
        for (k = 0; k < 4; k++)
            x[k] = k < e->v[i].infl_count ? e->infl[e->v[i].infl_first + k].weight / 65536.0
                                          : (k == 0 && e->v[i].infl_count == 0);
        put_f(g, acc_ids[2], x, 4);
    }
    end(g, acc_ids[2], e->info.nverts, 0);
    acc_ids[3] = begin(g, 5125, "SCALAR", 34963);
    for (i = 0; i < nt; i++)
        for (k = 0; k < 3; k++)
            rrb_buf_u32le(&g->buf, e->t[i].v[k]);
    end(g, acc_ids[3], nt * 3, 0);
    acc_ids[4] = acc_ids[5] = UINT32_MAX;
    if (e->va) {
        acc_ids[4] = begin(g, 5126, "VEC2", 34962);
        for (i = 0; i < e->info.nverts; i++) {
            x[0] = e->va[i].uv[0] / 65536.0, x[1] = e->va[i].uv[1] / 65536.0;
            put_f(g, acc_ids[4], x, 2);
        }
        end(g, acc_ids[4], e->info.nverts, 0);
    }
    if (e->info.has_normals) {
        acc_ids[5] = begin(g, 5126, "VEC3", 34962);
        for (i = 0; i < e->info.nverts; i++) {
            double l;
            for (k = 0; k < 3; k++)
                x[k] = e->v[i].nrm[k] / 65536.0;
            l = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            for (k = 0; k < 3; k++)
                x[k] = l > 0 ? x[k] / l : (k == 1);
            put_f(g, acc_ids[5], x, 3);
        }
        end(g, acc_ids[5], e->info.nverts, 0);
    }
}

static uint32_t ibm_accessor(gl *g, const emi *e)
{
    uint32_t a = begin(g, 5126, "MAT4", 0), i, r, c;
    for (i = 0; i < e->info.njoints; i++) {
        double m[16];
        for (c = 0; c < 3; c++) {            /* column-major: column c = rotation column c */
            for (r = 0; r < 3; r++)
                m[c * 4 + r] = ldexp(e->j[i].inv_r[r * 3 + c], -30);
            m[c * 4 + 3] = 0;
        }
        for (r = 0; r < 3; r++)
            m[12 + r] = e->j[i].inv_t[r] * e->unit;
        m[15] = 1;
        for (r = 0; r < 16; r++)
            rrb_buf_f32le(&g->buf, (float)m[r]);
    }
    end(g, a, e->info.njoints, 0);
    return a;
}

/* One channel per track: times and the runtime's values at those times. */
typedef struct chan { uint32_t joint, in, out; int rot; } chan;

static void anim_channels(gl *g, const emi *e, uint32_t a, chan *ch, uint32_t *nch,
                          rr_emi_local *local)
{
    uint32_t k, i;
    *nch = 0;
    for (k = 0; k < e->an[a].ntracks; k++) {
        const rr_emi_track *t = &e->tr[e->an[a].first_track + k];
        int rot = t->op == 4;
        chan *c = &ch[(*nch)++];
        c->joint = t->joint, c->rot = rot;
        c->in = begin(g, 5126, "SCALAR", 0);
        for (i = 0; i < t->nkeys; i++) {
            double tm = (rot ? e->rk[t->first_key + i].time : e->pk[t->first_key + i].time) / 65536.0;
            put_f(g, c->in, &tm, 1);
        }
        end(g, c->in, t->nkeys, 1);
        c->out = begin(g, 5126, rot ? "VEC4" : "VEC3", 0);
        for (i = 0; i < t->nkeys; i++) {
            rr_emi_sample_job s;
            double x[4];
            int m;
            s.room = e->room, s.anim = a, s.mode = RR_EMI_CLAMP, s.out = local;
            s.out_count = e->info.njoints, s.mask = NULL;
            s.time = rot ? e->rk[t->first_key + i].time : e->pk[t->first_key + i].time;
            rr_emi_sample_job_run(&s);
            for (m = 0; m < (rot ? 4 : 3); m++)
                x[m] = rot ? ldexp(local[t->joint].q[m], -30) : local[t->joint].t[m] * e->unit;
            put_f(g, c->out, x, rot ? 4 : 3);
        }
        end(g, c->out, t->nkeys, 0);
    }
}

static void write_json_nodes(FILE *f, const emi *e)
{
    uint32_t i, k;
    fprintf(f, "\"nodes\":[{\"name\":\"mesh\",\"mesh\":0,\"skin\":0}");
    for (i = 0; i < e->info.njoints; i++) {
        const char *name;
        int32_t parent, nkids = 0;
        double q[4], l = 0;
        rr_emi_joint_get(e->room, i, &name, &parent);
        for (k = 0; k < 4; k++)
            q[k] = ldexp(e->j[i].bind_q[k], -30), l += q[k] * q[k];
        l = sqrt(l);
        fprintf(f, ",{\"name\":");
        rrb_json_str(f, name);
        fprintf(f, ",\"translation\":[%.9g,%.9g,%.9g],\"rotation\":[%.9g,%.9g,%.9g,%.9g]",
                e->j[i].bind_t[0] * e->unit, e->j[i].bind_t[1] * e->unit,
                e->j[i].bind_t[2] * e->unit, q[0] / l, q[1] / l, q[2] / l, q[3] / l);
        for (k = i + 1; k < e->info.njoints; k++)
            if (e->j[k].parent == (int32_t)i)
                fprintf(f, "%s%u", nkids++ ? "," : ",\"children\":[", k + 1);
        fprintf(f, "%s}", nkids ? "]" : "");
    }
    fprintf(f, "],\"scenes\":[{\"nodes\":[0");
    for (i = 0; i < e->info.njoints; i++)
        if (e->j[i].parent < 0)
            fprintf(f, ",%u", i + 1);
    fprintf(f, "]}],\"scene\":0,\"skins\":[{\"inverseBindMatrices\":%%IBM%%,\"joints\":[");
}

/* Point e at the figure's sections. */
static void load_emi(emi *e, const rr_room *room)
{
    uint32_t n;
    e->room = room;
    e->unit = ldexp(1.0, -(int)room->coord_frac);
    e->j = sec(room, RR_SEC_EMI_JOINTS, &n);
    e->v = sec(room, RR_SEC_EMI_VERTS, &n);
    e->infl = sec(room, RR_SEC_EMI_INFL, &n);
    e->t = sec(room, RR_SEC_EMI_TRIS, &n);
    e->va = sec(room, RR_SEC_EMI_VATTR, &n);
    if (n != e->info.nverts)
        e->va = NULL;
    e->an = sec(room, RR_SEC_EMI_ANIMS, &n);
    e->tr = sec(room, RR_SEC_EMI_TRACKS, &n);
    e->pk = sec(room, RR_SEC_EMI_PKEYS, &n);
    e->rk = sec(room, RR_SEC_EMI_RKEYS, &n);
}

static void json_mesh(FILE *jf, const emi *e, const uint32_t ids[6])
{
    uint32_t i;
    for (i = 0; i < e->info.njoints; i++)
        fprintf(jf, "%s%u", i ? "," : "", i + 1);
    fprintf(jf, "]}],\"meshes\":[{\"name\":");
    rrb_json_str(jf, e->info.name);
    fprintf(jf, ",\"primitives\":[{\"attributes\":{\"POSITION\":%u,\"JOINTS_0\":%u,"
            "\"WEIGHTS_0\":%u", ids[0], ids[1], ids[2]);
    if (ids[4] != UINT32_MAX)
        fprintf(jf, ",\"TEXCOORD_0\":%u", ids[4]);
    if (ids[5] != UINT32_MAX)
        fprintf(jf, ",\"NORMAL\":%u", ids[5]);
    fprintf(jf, "},\"indices\":%u,\"mode\":4}]}]", ids[3]);
}

static void json_anims(FILE *jf, const emi *e, chan *const *chs, const uint32_t *nchs)
{
    uint32_t a, k;
    if (!e->info.nanims)
        return;
    fprintf(jf, ",\"animations\":[");
    for (a = 0; a < e->info.nanims; a++) {
        const char *name;
        rr_fix dur;
        rr_emi_anim_get(e->room, a, &name, &dur);
        fprintf(jf, "%s{\"name\":", a ? "," : "");
        rrb_json_str(jf, name);
        fprintf(jf, ",\"samplers\":[");
        for (k = 0; k < nchs[a]; k++)
            fprintf(jf, "%s{\"input\":%u,\"output\":%u,\"interpolation\":\"LINEAR\"}",
                    k ? "," : "", chs[a][k].in, chs[a][k].out);
        fprintf(jf, "],\"channels\":[");
        for (k = 0; k < nchs[a]; k++)
            fprintf(jf, "%s{\"sampler\":%u,\"target\":{\"node\":%u,\"path\":\"%s\"}}",
                    k ? "," : "", k, chs[a][k].joint + 1,
                    chs[a][k].rot ? "rotation" : "translation");
        fprintf(jf, "]}");
    }
    fprintf(jf, "]");
}

/* accessors, buffer views (one per accessor), the buffer header */
static void json_tables(FILE *jf, const gl *g)
{
    size_t i;
    fprintf(jf, ",\"accessors\":[");
    for (i = 0; i < g->na; i++) {
        const acc *x = &g->a[i];
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
static int save(const char *out_path, const char *json, uint32_t ibm, const gl *g)
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

int rrb_cli_write_gltf(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                       size_t cap)
{
    emi e;
    gl g;
    uint32_t a, ids[6], ibm, total_ch = 0, *nchs;
    chan **chs;
    rr_emi_local *local;
    char *json;
    size_t jlen;
    FILE *jf;
    int rc;
    memset(&e, 0, sizeof e);
    memset(&g, 0, sizeof g);
    if (r->room.format != RR_FMT_EMI || rr_emi_get_info(&r->room, &e.info)) {
        snprintf(err, cap, "%s:0x18: expected an EMI figure for glTF, found format %u", r->path,
                 r->room.format);
        return -1;
    }
    if (e.info.ntris == 0 || e.info.njoints == 0) {
        snprintf(err, cap, "%s: expected a figure with a mesh and a skeleton for glTF, found %u "
                 "triangles and %u joints", r->path, e.info.ntris, e.info.njoints);
        return -1;
    }
    load_emi(&e, &r->room);
    mesh_accessors(&g, &e, ids);
    ibm = ibm_accessor(&g, &e);
    local = rrb_xcalloc(e.info.njoints, sizeof *local);
    chs = rrb_xcalloc(e.info.nanims + 1, sizeof *chs);
    nchs = rrb_xcalloc(e.info.nanims + 1, sizeof *nchs);
    for (a = 0; a < e.info.nanims; a++) {
        chs[a] = rrb_xcalloc(e.an[a].ntracks + 1, sizeof **chs);
        anim_channels(&g, &e, a, chs[a], &nchs[a], local);
        total_ch += nchs[a];
    }
    jf = open_memstream(&json, &jlen);
    fprintf(jf, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"rrbake (romroom)\"},");
    write_json_nodes(jf, &e);
    json_mesh(jf, &e, ids);
    json_anims(jf, &e, chs, nchs);
    json_tables(jf, &g);
    fclose(jf);
    rc = save(out_path, json, ibm, &g);
    if (rc)
        snprintf(err, cap, "%s: cannot write the output file", out_path);
    else if (log)
        fprintf(log, "%s: %u joints, %u vertices, %u triangles, %u animations (%u channels), "
                "%zu buffer bytes\n", out_path, e.info.njoints, e.info.nverts, e.info.ntris,
                e.info.nanims, total_ch, g.buf.size);
    for (a = 0; a < e.info.nanims; a++)
        free(chs[a]);
    free(chs), free(nchs), free(local), free(json), free(g.a);
    rrb_buf_free(&g.buf);
    return rc;
}

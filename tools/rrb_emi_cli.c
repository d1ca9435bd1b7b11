/* rrb_emi_cli.c - the rrbake commands on an EMI figure blob (Escape from
 * Monkey Island): queries (pose, joints, anims), the info summary, the OBJ
 * (bind-pose mesh) and the glTF 2.0 (.gltf, buffer embedded as a base64
 * data URI): skinned mesh in the bind pose, the skeleton as a node tree with
 * the bind local transforms, inverse bind matrices from the blob, and one
 * glTF animation per EMI animation.
 *
 * glTF animation values come from the runtime itself: for every key of every
 * track the local pose is sampled at the key's time (rr_emi_sample_job, where
 * the runtime returns the key's own value), so the file holds exactly the
 * keys the device plays; glTF interpolates LINEAR (slerp for rotations where
 * the runtime nlerps: the difference is bounded in docs/emi.md). Vertices
 * without influences stay in the bind pose in the runtime; here they are
 * bound to joint 0 with weight 1 (glTF needs a weight sum of 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rr_blobfmt.h"
#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rrb_cli.h"
#include "rrb_emi.h"
#include "rrb_util.h"

/* ---- query ---- */

static int q_joints(rrb_query *q, int argc, char **argv)
{
    rr_emi_info info;
    uint32_t j;
    (void)argc, (void)argv;
    rr_emi_get_info(q->room, &info);
    rrb_q_int(q, "joints", info.njoints);
    rrb_q_open(q, "joint_list", 1, NULL);
    for (j = 0; j < info.njoints; j++) {
        const char *name;
        int32_t parent;
        rr_emi_joint_get(q->room, j, &name, &parent);
        rrb_q_line(q, "%u %s parent %d", j, name, parent);
        if (q->json) {
            rrb_q_open(q, NULL, 0, NULL);
            rrb_q_int(q, "index", j);
            rrb_q_str(q, "name", name);
            rrb_q_int(q, "parent", parent);
            rrb_q_close(q);
        }
    }
    rrb_q_close(q);
    return 0;
}

static int q_anims(rrb_query *q, int argc, char **argv)
{
    rr_emi_info info;
    uint32_t a;
    (void)argc, (void)argv;
    rr_emi_get_info(q->room, &info);
    rrb_q_int(q, "anims", info.nanims);
    rrb_q_open(q, "anim_list", 1, NULL);
    for (a = 0; a < info.nanims; a++) {
        const char *name;
        rr_fix d;
        rr_emi_anim_get(q->room, a, &name, &d);
        rrb_q_line(q, "%u %s %.6f s", a, name, (double)d / 65536.0);
        if (q->json) {
            rrb_q_open(q, NULL, 0, NULL);
            rrb_q_int(q, "index", a);
            rrb_q_str(q, "name", name);
            rrb_q_fix(q, "duration", d);
            rrb_q_close(q);
        }
    }
    rrb_q_close(q);
    return 0;
}

/* One joint of a pose: its name and parent, local translation and
 * rotation, model translation. */
static void pose_joint(rrb_query *q, uint32_t j, const rr_emi_local *l, const rr_emi_xform *x)
{
    const char *name;
    int32_t parent;
    rr_emi_joint_get(q->room, j, &name, &parent);
    rrb_q_line(q, "joint %u %s parent %d", j, name, parent);
    rrb_q_open(q, NULL, 0, "  ");
    if (q->json) {
        rrb_q_int(q, "index", j);
        rrb_q_str(q, "name", name);
        rrb_q_int(q, "parent", parent);
    }
    rrb_q_point(q, "local_t", l->t, 3);
    if (q->json) {   /* quaternions are 2.30: the raw words beside the decimals */
        char buf[160];
        snprintf(buf, sizeof buf, "[%.6f,%.6f,%.6f,%.6f]", ldexp(l->q[0], -30),
                 ldexp(l->q[1], -30), ldexp(l->q[2], -30), ldexp(l->q[3], -30));
        rrb_q_raw(q, "local_q", buf);
        snprintf(buf, sizeof buf, "[%d,%d,%d,%d]", l->q[0], l->q[1], l->q[2], l->q[3]);
        rrb_q_raw(q, "local_q_raw", buf);
    } else {
        rrb_q_line(q, "  local_q: %.6f %.6f %.6f %.6f", ldexp(l->q[0], -30),
                   ldexp(l->q[1], -30), ldexp(l->q[2], -30), ldexp(l->q[3], -30));
    }
    rrb_q_point(q, "model_t", x->t, 3);
    rrb_q_close(q);
}

/* pose's arguments: the animation (a name, or an index below nanims) and
 * the time in seconds; 0, or 1 with the message printed. */
static int pose_args(rrb_query *q, char **argv, uint32_t nanims, uint32_t *anim, double *t)
{
    char *end;
    if (rr_emi_anim_find(q->room, argv[0], anim) != RR_OK) {
        *anim = (uint32_t)strtoul(argv[0], &end, 10);
        if (*end || !*argv[0] || *anim >= nanims) {
            fprintf(q->errf, "%s: pose: expected an animation name or index below %u, "
                    "found '%s'\n", q->path, nanims, argv[0]);
            return 1;
        }
    }
    if (rrb_cli_num(argv[1], t) || fabs(*t) > 32767.0) {
        fprintf(q->errf, "%s: pose: expected a time in seconds, found '%s'\n", q->path, argv[1]);
        return 1;
    }
    return 0;
}

static int q_pose(rrb_query *q, int argc, char **argv)
{
    rr_emi_info info;
    rr_emi_local *local;
    rr_emi_xform *model;
    rr_emi_sample_job s;
    rr_emi_model_job m;
    uint32_t anim, j;
    double t;
    rr_err e;
    const char *aname;
    rr_fix dur;
    int clamp = argc > 2 && !strcmp(argv[2], "--clamp");
    rr_emi_get_info(q->room, &info);
    if (pose_args(q, argv, info.nanims, &anim, &t))
        return 1;
    local = rrb_xcalloc(info.njoints + 1, sizeof *local);
    model = rrb_xcalloc(info.njoints + 1, sizeof *model);
    s.room = q->room, s.anim = anim, s.time = rrb_cli_to_fix(t);
    s.mode = clamp ? RR_EMI_CLAMP : RR_EMI_LOOP;
    s.out = local, s.out_count = info.njoints, s.mask = NULL;
    m.room = q->room, m.local = local, m.out = model, m.count = info.njoints;
    if ((e = rr_emi_sample_job_run(&s)) != RR_OK || (e = rr_emi_model_job_run(&m)) != RR_OK) {
        free(local), free(model);
        return rrb_query_fail(q, e, "pose");
    }
    rr_emi_anim_get(q->room, anim, &aname, &dur);
    rrb_q_line(q, "anim: %u %s (%.6f s)\ntime: %.6f [0x%08x] %s", anim, aname,
               (double)dur / 65536.0, (double)s.time / 65536.0, (uint32_t)s.time,
               clamp ? "clamped" : "looped");
    if (q->json) {
        rrb_q_int(q, "anim", anim);
        rrb_q_str(q, "anim_name", aname);
        rrb_q_fix(q, "duration", dur);
        rrb_q_fix(q, "time", s.time);
        rrb_q_str(q, "mode", clamp ? "clamped" : "looped");
    }
    rrb_q_open(q, "joint_list", 1, NULL);
    for (j = 0; j < info.njoints; j++)
        pose_joint(q, j, &local[j], &model[j]);
    rrb_q_close(q);
    free(local), free(model);
    return 0;
}

static const rrb_query_cmd queries[] = {
    {"pose", -2, -3, 0, q_pose, "ANIM T [--clamp]",
     "joint transforms of ANIM (name or index)\nat T seconds (looped unless --clamp)"},
    {"joints", 0, 0, 0, q_joints, "", "the skeleton"},
    {"anims", 0, 0, 0, q_anims, "", "the animations and their durations"},
    {0},
};

/* ---- info ---- */

/* How many vertices the positions-only skinning job takes two at a time,
 * walking the vertices as its loop does (rr_emi.c, skin_positions): a
 * vertex whose run goes on to the next one, with one joint or two, is
 * skinned together with it; every other vertex alone, at about 50
 * instructions more a vertex on the Cortex-M3 (make bench:
 * emi.skin_pos_each). Meshes that list the vertices of a joint together
 * have most in pairs. */
static uint32_t paired_vertices(const rr_room *room)
{
    const rr_emi_vert *v;
    uint32_t n, k = 0, paired = 0;
    if (rr_section(room, RR_SEC_EMI_VERTS, (const void **)&v, &n))
        return 0;
    while (k < n) {
        if (v[k].run > 1 && k + 1 < n && (v[k].single >= 0 || v[k].infl_count == 2)) {
            paired += 2;
            k += 2;
        } else {
            k++;
        }
    }
    return paired;
}

static void emi_summary(const rr_room *room, FILE *o, int json)
{
    rr_emi_info i;
    uint32_t a, paired = paired_vertices(room);
    if (rr_emi_get_info(room, &i))
        return;
    if (json) {
        fprintf(o, "\"name\":");
        rrb_json_str(o, i.name);
        fprintf(o, ",\"joints\":%u,\"vertices\":%u,\"paired_vertices\":%u,\"triangles\":%u,"
                "\"max_influences\":%u,\"normals\":%s,\"anims\":[", i.njoints, i.nverts,
                paired, i.ntris, i.max_infl, i.has_normals ? "true" : "false");
    } else {
        fprintf(o, "  EMI figure %s: %u joints, %u vertices, %u triangles, up to %u "
                "influences per vertex, %s; %u animations\n", i.name, i.njoints, i.nverts,
                i.ntris, i.max_infl, i.has_normals ? "normals" : "no normals", i.nanims);
        fprintf(o, "    skinning: %u of %u vertices in pairs (neighbours with the same "
                "joints), %u alone\n", paired, i.nverts, i.nverts - paired);
    }
    for (a = 0; a < i.nanims; a++) {
        const char *name;
        rr_fix d;
        rr_emi_anim_get(room, a, &name, &d);
        if (json) {
            fprintf(o, "%s{\"name\":", a ? "," : "");
            rrb_json_str(o, name);
            fprintf(o, ",\"duration\":%.6f}", (double)d / 65536.0);
        } else
            fprintf(o, "    anim %u %s, %.6f s\n", a, name, (double)d / 65536.0);
    }
    if (json)
        fprintf(o, "]");
}

/* ---- OBJ ---- */

static int emi_obj(rrb_obj *o, const rrb_cli_room *r, int render, char *err, size_t cap)
{
    const rr_room *room = &r->room;
    const void *p;
    uint32_t nv = 0, nt = 0, na = 0, i;
    const rr_emi_vert *v;
    const rr_emi_tri *t;
    const rr_emi_vattr *va = NULL;
    rr_emi_info info;
    (void)render, (void)err, (void)cap;
    rr_emi_get_info(room, &info);
    rr_section(room, RR_SEC_EMI_VERTS, &p, &nv);
    v = p;
    if (rr_section(room, RR_SEC_EMI_TRIS, &p, &nt))
        nt = 0;
    t = p;
    if (rr_section(room, RR_SEC_EMI_VATTR, &p, &na) == RR_OK && na == nv)
        va = p;
    for (i = 0; i < nv; i++) {
        /* 16-bit positions: vpos << vert_shift coords (at most 2^24) */
        rrb_obj_vertex(o, rrb_obj_unit(o, v[i].pos[0] * (1 << info.vert_shift)),
                       rrb_obj_unit(o, v[i].pos[1] * (1 << info.vert_shift)),
                       rrb_obj_unit(o, v[i].pos[2] * (1 << info.vert_shift)));
        if (va)
            fprintf(o->f, "vt %.6f %.6f\n", (double)va[i].uv[0] / 65536.0,
                    1.0 - (double)va[i].uv[1] / 65536.0);
    }
    rrb_obj_material(o, "figure", NULL, rrb_obj_grey);
    for (i = 0; i < nt; i++) {
        if (va)
            fprintf(o->f, "f %u/%u %u/%u %u/%u\n", t[i].v[0] + 1, t[i].v[0] + 1, t[i].v[1] + 1,
                    t[i].v[1] + 1, t[i].v[2] + 1, t[i].v[2] + 1);
        else
            fprintf(o->f, "f %u %u %u\n", t[i].v[0] + 1, t[i].v[1] + 1, t[i].v[2] + 1);
        o->nf++;
    }
    return 0;
}

/* ---- glTF ---- */

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
    double vunit;               /* one step of a 16-bit mesh position in source units */
} emi;

static const void *sec(const rr_room *room, uint32_t type, uint32_t *n)
{
    const void *p = NULL;
    *n = 0;
    if (rr_section(room, type, &p, n))
        *n = 0;
    return p;
}

/* The triangles of material m (tri_mat NULL: all of them) as one index
 * accessor. */
static uint32_t index_accessor(rrb_gltf *g, const emi *e, const uint32_t *tri_mat, uint32_t m)
{
    uint32_t i, k, n = 0, id = rrb_gltf_begin(g, 5125, "SCALAR", 34963);
    for (i = 0; i < e->info.ntris; i++)
        if (!tri_mat || tri_mat[i] == m) {
            for (k = 0; k < 3; k++)
                rrb_buf_u32le(&g->buf, e->t[i].v[k]);
            n++;
        }
    rrb_gltf_end(g, id, n * 3, 0);
    return id;
}

/* Materials from the source mesh: the blob keeps no texture names, but each
 * triangle keeps its face group (source order), and the .meshb names each
 * group's texture. Returns the number of materials (the texture names,
 * then "untextured" when a group has none) and fills tri_mat; 0 when the
 * figure was not converted from its source files. */
typedef struct emi_mats {
    uint32_t n;            /* materials */
    char **name;           /* texture file name, NULL for "untextured" */
    uint32_t *tri_mat;     /* material of each triangle */
} emi_mats;

static void note_meshb(void *ctx, const char *part)
{
    size_t n = strlen(part);
    if (n > 6 && !strcmp(part + n - 6, ".meshb") && !*(char *)ctx)
        snprintf((char *)ctx, 2048, "%s", part);
}

static void load_materials(const rrb_cli_room *r, const emi *e, emi_mats *mt)
{
    char path[2048] = "", err[RRB_ERR_MAX];
    uint8_t *d = NULL;
    size_t n = 0;
    rrb_emi_mesh m;
    uint32_t i, k, *gm;
    memset(mt, 0, sizeof *mt);
    if (!r->src || rrb_emi_parts(r->src, r->src_size, r->path, note_meshb, path) <= 0 || !*path ||
        rrb_load_file(path, &d, &n, err, sizeof err))
        return;
    if (rrb_emi_read_mesh(d, n, path, &m, NULL, err, sizeof err)) {
        free(d);
        return;
    }
    gm = rrb_xcalloc(m.ngroups + 1, sizeof *gm);
    mt->name = rrb_xcalloc(m.ngroups + 1, sizeof *mt->name);
    for (i = 0; i < m.ngroups; i++) {   /* a material per distinct texture name */
        const char *t = m.groups[i].has_texture && m.groups[i].texture < m.ntex
                            ? m.tex[m.groups[i].texture] : NULL;
        for (k = 0; k < mt->n && !(t ? mt->name[k] && !strcmp(mt->name[k], t) : !mt->name[k]); k++)
            ;
        if (k == mt->n)
            mt->name[mt->n++] = t ? rrb_xstrdup(t) : NULL;
        gm[i] = k;
    }
    mt->tri_mat = rrb_xcalloc(e->info.ntris + 1, sizeof *mt->tri_mat);
    for (i = 0; i < e->info.ntris; i++)   /* a group the mesh does not have: the first material */
        mt->tri_mat[i] = e->t[i].group < m.ngroups ? gm[e->t[i].group] : 0;
    free(gm);
    rrb_emi_mesh_free(&m);
    free(d);
}

static void free_materials(emi_mats *mt)
{
    uint32_t i;
    for (i = 0; i < mt->n; i++)
        free(mt->name[i]);
    free(mt->name);
    free(mt->tri_mat);
}

static void mesh_accessors(rrb_gltf *g, const emi *e, uint32_t acc_ids[6])
{
    uint32_t i, k;
    double x[4];
    acc_ids[0] = rrb_gltf_begin(g, 5126, "VEC3", 34962);
    for (i = 0; i < e->info.nverts; i++) {
        for (k = 0; k < 3; k++)
            x[k] = e->v[i].pos[k] * e->vunit;
        rrb_gltf_floats(g, acc_ids[0], x, 3);
    }
    rrb_gltf_end(g, acc_ids[0], e->info.nverts, 1);
    acc_ids[1] = rrb_gltf_begin(g, 5123, "VEC4", 34962);     /* JOINTS_0 */
    for (i = 0; i < e->info.nverts; i++)
        for (k = 0; k < 4; k++)
            rrb_buf_u16le(&g->buf, k < e->v[i].infl_count ? e->infl[e->v[i].infl_first + k].joint : 0);
    rrb_gltf_end(g, acc_ids[1], e->info.nverts, 0);
    acc_ids[2] = rrb_gltf_begin(g, 5126, "VEC4", 34962);     /* WEIGHTS_0 */
    for (i = 0; i < e->info.nverts; i++) {
        for (k = 0; k < 4; k++)
            x[k] = k < e->v[i].infl_count ? e->infl[e->v[i].infl_first + k].weight /
                                                (double)RR_EMI_WEIGHT_ONE
                                          : (k == 0 && e->v[i].infl_count == 0);
        rrb_gltf_floats(g, acc_ids[2], x, 4);
    }
    rrb_gltf_end(g, acc_ids[2], e->info.nverts, 0);
    acc_ids[4] = acc_ids[5] = UINT32_MAX;
    if (e->va) {
        acc_ids[4] = rrb_gltf_begin(g, 5126, "VEC2", 34962);
        for (i = 0; i < e->info.nverts; i++) {
            x[0] = e->va[i].uv[0] / 65536.0, x[1] = e->va[i].uv[1] / 65536.0;
            rrb_gltf_floats(g, acc_ids[4], x, 2);
        }
        rrb_gltf_end(g, acc_ids[4], e->info.nverts, 0);
    }
    if (e->info.has_normals) {
        acc_ids[5] = rrb_gltf_begin(g, 5126, "VEC3", 34962);
        for (i = 0; i < e->info.nverts; i++) {
            double l;
            for (k = 0; k < 3; k++)
                x[k] = e->v[i].nrm[k] / (double)RR_EMI_SNORM_ONE;
            l = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            for (k = 0; k < 3; k++)
                x[k] = l > 0 ? x[k] / l : (k == 1);
            rrb_gltf_floats(g, acc_ids[5], x, 3);
        }
        rrb_gltf_end(g, acc_ids[5], e->info.nverts, 0);
    }
}

static uint32_t ibm_accessor(rrb_gltf *g, const emi *e)
{
    uint32_t a = rrb_gltf_begin(g, 5126, "MAT4", 0), i, r, c;
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
    rrb_gltf_end(g, a, e->info.njoints, 0);
    return a;
}

/* One channel per track: times and the runtime's values at those times. */
typedef struct chan { uint32_t joint, in, out; int rot; } chan;

static void anim_channels(rrb_gltf *g, const emi *e, uint32_t a, chan *ch, uint32_t *nch,
                          rr_emi_local *local)
{
    uint32_t k, i;
    *nch = 0;
    for (k = 0; k < e->an[a].ntracks; k++) {
        const rr_emi_track *t = &e->tr[e->an[a].first_track + k];
        int rot = t->op == 4;
        chan *c = &ch[(*nch)++];
        c->joint = t->joint, c->rot = rot;
        c->in = rrb_gltf_begin(g, 5126, "SCALAR", 0);
        for (i = 0; i < t->nkeys; i++) {
            double tm = (rot ? e->rk[t->first_key + i].time : e->pk[t->first_key + i].time) / 65536.0;
            rrb_gltf_floats(g, c->in, &tm, 1);
        }
        rrb_gltf_end(g, c->in, t->nkeys, 1);
        c->out = rrb_gltf_begin(g, 5126, rot ? "VEC4" : "VEC3", 0);
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
            rrb_gltf_floats(g, c->out, x, rot ? 4 : 3);
        }
        rrb_gltf_end(g, c->out, t->nkeys, 0);
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
    e->vunit = ldexp(1.0, (int)e->info.vert_shift - (int)room->coord_frac);
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

static void json_mesh(FILE *jf, const emi *e, const uint32_t ids[6], const emi_mats *mt,
                      const uint32_t *idx)
{
    uint32_t i, nprim = mt->n ? mt->n : 1, nimg = 0;
    for (i = 0; i < e->info.njoints; i++)
        fprintf(jf, "%s%u", i ? "," : "", i + 1);
    fprintf(jf, "]}],\"meshes\":[{\"name\":");
    rrb_json_str(jf, e->info.name);
    fprintf(jf, ",\"primitives\":[");
    for (i = 0; i < nprim; i++) {   /* one per material (texture) */
        fprintf(jf, "%s{\"attributes\":{\"POSITION\":%u,\"JOINTS_0\":%u,\"WEIGHTS_0\":%u",
                i ? "," : "", ids[0], ids[1], ids[2]);
        if (ids[4] != UINT32_MAX)
            fprintf(jf, ",\"TEXCOORD_0\":%u", ids[4]);
        if (ids[5] != UINT32_MAX)
            fprintf(jf, ",\"NORMAL\":%u", ids[5]);
        fprintf(jf, "},\"indices\":%u,", idx[i]);
        if (mt->n)
            fprintf(jf, "\"material\":%u,", i);
        fprintf(jf, "\"mode\":4}");
    }
    fprintf(jf, "]}]");
    if (!mt->n)
        return;
    fprintf(jf, ",\"materials\":[");
    for (i = 0; i < mt->n; i++) {
        fprintf(jf, "%s{\"name\":", i ? "," : "");
        if (mt->name[i]) {
            rrb_json_str(jf, mt->name[i]);
            fprintf(jf, ",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%u,"
                    "\"texCoord\":0},\"metallicFactor\":0,\"roughnessFactor\":1}}", nimg++);
        } else {
            fprintf(jf, "\"untextured\",\"pbrMetallicRoughness\":{\"baseColorFactor\":"
                    "[0.7,0.7,0.7,1],\"metallicFactor\":0,\"roughnessFactor\":1}}");
        }
    }
    fprintf(jf, "]");
    if (!nimg)
        return;
    fprintf(jf, ",\"samplers\":[{\"wrapS\":10497,\"wrapT\":10497}],\"textures\":[");
    for (i = 0; i < nimg; i++)
        fprintf(jf, "%s{\"sampler\":0,\"source\":%u}", i ? "," : "", i);
    fprintf(jf, "],\"images\":[");
    for (i = 0, nimg = 0; i < mt->n; i++)
        if (mt->name[i]) {
            fprintf(jf, "%s{\"name\":", nimg++ ? "," : "");
            rrb_json_str(jf, mt->name[i]);
            fprintf(jf, ",\"uri\":");
            rrb_gltf_uri(jf, mt->name[i]);
            fprintf(jf, "}");
        }
    fprintf(jf, "]");
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

static int write_gltf(const rrb_cli_room *r, const char *out_path, FILE *log, char *err,
                      size_t cap)
{
    emi e;
    emi_mats mt;
    rrb_gltf g;
    uint32_t a, ids[6], ibm, total_ch = 0, *nchs, *idx;
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
    load_materials(r, &e, &mt);
    mesh_accessors(&g, &e, ids);
    idx = rrb_xcalloc(mt.n + 1, sizeof *idx);
    for (a = 0; a < (mt.n ? mt.n : 1); a++)
        idx[a] = index_accessor(&g, &e, mt.n ? mt.tri_mat : NULL, a);
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
    json_mesh(jf, &e, ids, &mt, idx);
    json_anims(jf, &e, chs, nchs);
    rrb_gltf_tables(jf, &g);
    fclose(jf);
    rc = rrb_gltf_save(out_path, json, ibm, &g, rrb_gltf_binary(out_path, r->glb));
    if (rc)
        snprintf(err, cap, "%s: cannot write the output file", out_path);
    else if (log)
        fprintf(log, "%s: %u joints, %u vertices, %u triangles, %u materials, %u animations "
                "(%u channels), %zu buffer bytes\n", out_path, e.info.njoints, e.info.nverts,
                e.info.ntris, mt.n, e.info.nanims, total_ch, g.buf.size);
    for (a = 0; a < e.info.nanims; a++)
        free(chs[a]);
    free(chs), free(nchs), free(local), free(json), free(idx);
    free_materials(&mt);
    rrb_gltf_free(&g);
    return rc;
}

/* ---- the hooks ---- */

const rrb_room_hooks rrb_emi_room = {
    RR_FMT_EMI, emi_summary, queries, "emi (Escape from Monkey Island)",
    emi_obj, NULL, "gltf", write_gltf, NULL,
};

/* The module: reading and inspecting (rrb_emi.c), the samples (rrb_emi_gen.c),
 * baking and a figure's parts (rrb_emi_bake.c) and the commands on its blobs
 * (above). */
const rrb_format rrb_format_emi = {
    "emi",
    "Escape from Monkey Island .meshb/.sklb/.animb (bake: .sklb or .emi figure manifest)",
    rrb_emi_probe, rrb_emi_info, rrb_emi_info_json, rrb_emi_verify, rrb_emi_dump_json,
    rrb_emi_bake, rrb_emi_sample, &rrb_emi_room, rrb_emi_parts, rrb_emi_members,
};

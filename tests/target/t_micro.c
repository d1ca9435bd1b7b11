/* t_micro.c - the micro:bit demo: one small real room of each format, baked
 * into blobs linked into flash as const data (tests/target/micro.blobs) and
 * used in place, answering a scripted series of queries: locate and height
 * (roo), moves, slides and sight lines (roo), ray casts, trigger and box
 * queries and ellipsoid sweeps (rmesh), point contents and ray / box traces
 * (rmf), and a sampled, skinned pose (emi).
 *
 * Sized for the smallest board (Cortex-M0, 16 KB RAM, 256 KB flash): one
 * 4 KB arena shared by every room (opened one after the other), 24 joints of
 * pose buffers, vertices skinned 8 at a time. Nothing board-specific is
 * printed: the runner compares the output byte for byte with the host's on
 * every board. RAM and code size are measured from the link map by
 * tests/footprint/footprint.py and fp_micro_ram.c (docs/footprint.md). */
#include "rr.h"
#include "rr_emi.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"
#include "rr_test.h"
#include "rr_test_blobs.h"

#define ARENA_BYTES 4096   /* the footprint target: any corpus room <= 4 KB */
#define MAXJ 24
#define CHUNK 8

static uint32_t arena[ARENA_BYTES / 4];



static uint32_t mix(uint32_t h, uint32_t v)
{
    return (h ^ v) * 16777619u;
}

/* ---- Meridian 59: locate, height, move, slide, sight, render order ---- */

static uint16_t order[64];

static void roo_points(const char *name, const rr_room *room, const rr_roo_info *in)
{
    uint32_t h = 2166136261u;
    int i;
    for (i = 0; i < 64; i++) {
        int32_t x = rt_pick(in->rect[0], in->rect[2], 4), y = rt_pick(in->rect[1], in->rect[3], 4);
        rr_roo_where w;
        rr_roo_heights ht;
        rr_err e = rr_roo_locate(room, x, y, &w), e2 = rr_roo_height(room, x, y, &ht);
        RT_EXPECT("micro.roo.same_sector", e == e2 && w.sector == ht.sector);
        h = mix(mix(mix(h, (uint32_t)w.leaf), (uint32_t)ht.floor), (uint32_t)ht.ceiling);
        if (i % 8 == 0)
            plat_printf("%s locate (%ld, %ld) = %d sector %ld leaf %ld; height floor %ld "
                        "ceiling %ld\n", name, (long)x, (long)y, (int)e, (long)w.sector,
                        (long)w.leaf, (long)ht.floor, (long)ht.ceiling);
    }
    plat_printf("%s points hash %08lx\n", name, (unsigned long)h);
}

static void roo_moves(const char *name, const rr_room *room, const rr_roo_info *in)
{
    int32_t u = 1 << room->coord_frac, a[3], b[3];
    uint32_t h = 2166136261u, n = 0;
    int i;
    for (i = 0; i < 24; i++) {
        rr_roo_move m, m1, m2;
        rr_roo_sight s;
        a[0] = rt_pick(in->rect[0], in->rect[2], 4), a[1] = rt_pick(in->rect[1], in->rect[3], 4);
        b[0] = a[0] + (int32_t)(rt_rand() % 4096u) * u - 2048 * u;
        b[1] = a[1] + (int32_t)(rt_rand() % 4096u) * u - 2048 * u;
        a[2] = (int32_t)(rt_rand() % 2048u) * u, b[2] = (int32_t)(rt_rand() % 2048u) * u;
        RT_EXPECT_EQ("micro.roo.move", rr_roo_can_move(room, a[0], a[1], b[0], b[1], 64 * u,
                                                       256 * u, 1024 * u, &m), RR_OK);
        RT_EXPECT_EQ("micro.roo.slide", rr_roo_slide(room, a[0], a[1], b[0], b[1], 64 * u,
                                                     256 * u, 1024 * u, &m1, &m2), RR_OK);
        RT_EXPECT_EQ("micro.roo.sight", rr_roo_line_of_sight(room, a, b, &s), RR_OK);
        RT_EXPECT("micro.roo.slide_first", m1.fraction == m.fraction && m1.wall == m.wall);
        n += m.block != RR_ROO_FREE;
        h = mix(mix(mix(h, (uint32_t)m.fraction), (uint32_t)m2.x), (uint32_t)m2.y);
        h = mix(mix(h, (uint32_t)s.wall), (uint32_t)s.fraction);
        if (i % 4 == 0)
            plat_printf("%s move (%ld, %ld) -> (%ld, %ld): block %ld wall %ld frac %ld; slide "
                        "to (%ld, %ld); sight %d wall %ld\n", name, (long)a[0], (long)a[1],
                        (long)b[0], (long)b[1], (long)m.block, (long)m.wall, (long)m.fraction,
                        (long)m2.x, (long)m2.y, s.visible, (long)s.wall);
    }
    plat_printf("%s moves: %lu blocked, hash %08lx\n", name, (unsigned long)n, (unsigned long)h);
}

static void roo_room(const char *name, const rr_room *room)
{
    rr_roo_info in;
    uint32_t count = 0, k, h = 2166136261u;
    RT_EXPECT_EQ("micro.roo.info", rr_roo_get_info(room, &in), RR_OK);
    plat_printf("%s: roo v%lu, %lu nodes, %lu leaves, %lu sectors, %lu walls, depth %lu\n", name,
                (unsigned long)in.version, (unsigned long)in.nodes, (unsigned long)in.leaves,
                (unsigned long)in.sectors, (unsigned long)in.walls, (unsigned long)in.bsp_depth);
    roo_points(name, room, &in);
    roo_moves(name, room, &in);
    RT_EXPECT_EQ("micro.roo.order", rr_roo_leaf_order(room, in.rect[0], in.rect[1], order, 64,
                                                      &count), RR_OK);
    RT_EXPECT_EQ("micro.roo.order_count", count, in.leaves);
    for (k = 0; k < count && k < 64; k++)
        h = mix(h, order[k]);
    plat_printf("%s render order from the corner: %lu leaves, hash %08lx\n", name,
                (unsigned long)count, (unsigned long)h);
}

/* ---- SCP-CB / CBRE-EX: ray casts, triggers, box, ellipsoid sweeps ---- */

static void rmesh_point(const rr_rmesh_head *hd, int32_t p[3])
{
    int k;
    for (k = 0; k < 3; k++)
        p[k] = rt_pick(hd->bmin[k], hd->bmax[k], 4);
}

static void rmesh_rays(const char *name, const rr_room *room, const rr_rmesh_head *hd)
{
    uint32_t h = 2166136261u, hits = 0, t;
    int i;
    for (i = 0; i < 32; i++) {
        rr_rmesh_ray ray;
        rr_rmesh_hit hit;
        rr_err e;
        rmesh_point(hd, ray.origin);
        ray.dir.x = rt_pick(-RR_FIX_ONE, RR_FIX_ONE, 4), ray.dir.y = rt_pick(-RR_FIX_ONE, RR_FIX_ONE, 4);
        ray.dir.z = rt_pick(-RR_FIX_ONE, RR_FIX_ONE, 4);
        if (!ray.dir.x && !ray.dir.y && !ray.dir.z)
            ray.dir.y = -RR_FIX_ONE;
        ray.max_dist = (hd->bmax[0] - hd->bmin[0]) + (hd->bmax[1] - hd->bmin[1]);
        RT_EXPECT_EQ("micro.rmesh.ray", rr_rmesh_raycast(room, &ray, &hit), RR_OK);
        RT_EXPECT("micro.rmesh.ray_dist", !hit.hit || hit.dist <= ray.max_dist);
        hits += (uint32_t)hit.hit;
        h = mix(mix(mix(h, hit.hit ? hit.tri : ~0u), (uint32_t)hit.dist), (uint32_t)hit.frac);
        if (i % 4 == 0)
            plat_printf("%s ray %d from %ld %ld %ld: hit %d tri %lu dist %ld n %ld %ld %ld\n",
                        name, i, (long)ray.origin[0], (long)ray.origin[1], (long)ray.origin[2],
                        hit.hit, (unsigned long)hit.tri, (long)hit.dist, (long)hit.normal.x,
                        (long)hit.normal.y, (long)hit.normal.z);
        e = rr_rmesh_trigger_at(room, ray.origin, &t);
        h = mix(h, e == RR_OK ? t : ~0u);
    }
    plat_printf("%s rays: %lu hits, hash %08lx\n", name, (unsigned long)hits, (unsigned long)h);
}

/* A point on triangle i: its centroid (coords). */
static void rmesh_centroid(const rr_room *room, uint32_t i, int32_t c[3])
{
    uint32_t src;
    int32_t v[3][3];
    rr_vec3 n;
    int k;
    rr_rmesh_triangle(room, i, &src, v, &n);
    for (k = 0; k < 3; k++)
        c[k] = (int32_t)(((int64_t)v[0][k] + v[1][k] + v[2][k]) / 3);
}

/* Sweeps from random points toward random triangles, then the triangles of
 * a box around one triangle's centroid (which must include that triangle). */
static void rmesh_sweeps(const char *name, const rr_room *room, const rr_rmesh_head *hd)
{
    int32_t ext = hd->bmax[0] - hd->bmin[0], lo[3], hi[3], c[3];
    uint32_t items[16], i, found = 0, tri = 0;
    rr_rmesh_list l;
    int k;
    for (k = 1; k < 3; k++)
        ext = hd->bmax[k] - hd->bmin[k] < ext ? hd->bmax[k] - hd->bmin[k] : ext;
    for (i = 0; i < 8 && hd->ntris; i++) {
        rr_rmesh_sweep in;
        rr_rmesh_sweep_out out;
        int32_t r = ext / 32 < 16 ? 16 : ext / 32 > (1 << 14) ? (1 << 14) : ext / 32;
        rmesh_point(hd, in.from);
        rmesh_centroid(room, rt_rand() % hd->ntris, in.to);
        in.radius[0] = in.radius[2] = r, in.radius[1] = r + r / 2;
        in.max_slides = 1 + i % RR_RMESH_MAX_SLIDES;
        RT_EXPECT_EQ("micro.rmesh.sweep", rr_rmesh_sweep_move(room, &in, &out), RR_OK);
        RT_EXPECT("micro.rmesh.slides", out.slides <= in.max_slides);
        plat_printf("%s sweep %lu: to %ld %ld %ld hit %d slides %lu tri %lu\n", name,
                    (unsigned long)i, (long)out.pos[0], (long)out.pos[1], (long)out.pos[2],
                    out.hit, (unsigned long)out.slides, (unsigned long)out.tri);
    }
    if (!hd->ntris)
        return;
    tri = rt_rand() % hd->ntris;
    rmesh_centroid(room, tri, c);
    for (k = 0; k < 3; k++)
        lo[k] = c[k] - ext / 8, hi[k] = c[k] + ext / 8;
    l.items = items, l.cap = 16, l.count = 0, l.truncated = 0;
    RT_EXPECT_EQ("micro.rmesh.box", rr_rmesh_box_tris(room, lo, hi, &l), RR_OK);
    for (i = 0; i < l.count; i++)
        found |= items[i] == tri;
    RT_EXPECT("micro.rmesh.box_has_tri", found || l.truncated);
    plat_printf("%s box around tri %lu: %lu tris%s, first %lu\n", name, (unsigned long)tri,
                (unsigned long)l.count, l.truncated ? " (truncated)" : "",
                (unsigned long)(l.count ? items[0] : 0));
}

static void rmesh_room(const char *name, const rr_room *room)
{
    const rr_rmesh_head *hd;
    RT_EXPECT_EQ("micro.rmesh.head", rr_rmesh_head_get(room, &hd), RR_OK);
    plat_printf("%s: rmesh, %lu tris, %lu nodes, %lu triggers, depth %lu\n", name,
                (unsigned long)hd->ntris, (unsigned long)hd->nnodes,
                (unsigned long)hd->ntriggers, (unsigned long)room->max_depth);
    rmesh_rays(name, room, hd);
    rmesh_sweeps(name, room, hd);
}

/* ---- Worldcraft / Hammer: point contents, ray and box traces ---- */

static void rmf_room(const char *name, const rr_room *room)
{
    const rr_rmf_header *hd;
    uint32_t n, c, h = 2166136261u;
    int32_t a[3], b[3], half[3] = {16, 16, 36};
    int i, k;
    RT_EXPECT_EQ("micro.rmf.header", rr_section(room, RR_SEC_RMF_HEADER, (const void **)&hd, &n),
                 RR_OK);
    plat_printf("%s: rmf %lu, depth %lu\n", name, (unsigned long)hd->version,
                (unsigned long)hd->tree_depth);
    for (k = 0; k < 3; k++)
        half[k] <<= room->coord_frac;
    for (i = 0; i < 32; i++) {
        rr_rmf_trace_result t;
        for (k = 0; k < 3; k++)
            a[k] = rt_pick(hd->mins[k], hd->maxs[k], 4), b[k] = rt_pick(hd->mins[k], hd->maxs[k], 4);
        RT_EXPECT_EQ("micro.rmf.contents", rr_rmf_point_contents(room, a, &c), RR_OK);
        RT_EXPECT_EQ("micro.rmf.trace", rr_rmf_trace(room, a, b, (i & 1) ? half : 0,
                                                     RR_RMF_SOLID, &t), RR_OK);
        /* a ray that did not start in a solid brush ends outside every one */
        if (!(i & 1) && !t.start_solid) {
            uint32_t ce = 0;
            rr_rmf_point_contents(room, t.end, &ce);
            RT_EXPECT("micro.rmf.end_free", !(ce & RR_RMF_SOLID));
        }
        h = mix(mix(mix(h, c), (uint32_t)t.fraction), (uint32_t)t.brush);
        if (i % 4 == 0)
            plat_printf("%s %s %d: contents %lx; (%ld %ld %ld) -> (%ld %ld %ld) frac %ld "
                        "brush %ld plane %ld start_solid %u\n", name, (i & 1) ? "box" : "ray",
                        i, (unsigned long)c, (long)a[0], (long)a[1], (long)a[2], (long)b[0],
                        (long)b[1], (long)b[2], (long)t.fraction, (long)t.brush,
                        (long)t.plane, t.start_solid);
    }
    plat_printf("%s traces hash %08lx\n", name, (unsigned long)h);
}

/* ---- Escape from Monkey Island: a sampled, skinned pose ---- */

static rr_emi_local loc[MAXJ];
static rr_emi_xform model[MAXJ];   /* model matrices, then skinning matrices in place */
static rr_vec3 pos[CHUNK], nrm[CHUNK];

static void emi_pose(const char *name, const rr_room *room, const rr_emi_info *in, rr_fix t)
{
    rr_emi_sample_job s = {0, 0, 0, RR_EMI_LOOP, loc, MAXJ, 0};
    rr_emi_model_job m = {0, loc, model, MAXJ};
    rr_emi_skin_matrices_job k = {0, model, model, MAXJ};
    rr_emi_skin_job v = {0, model, 0, 0, pos, nrm};
    uint32_t h = 2166136261u, i;
    s.room = m.room = k.room = v.room = room, s.time = t;
    RT_EXPECT_EQ("micro.emi.sample", rr_emi_sample_job_run(&s), RR_OK);
    RT_EXPECT_EQ("micro.emi.model", rr_emi_model_job_run(&m), RR_OK);
    plat_printf("%s t=%ld: root %ld %ld %ld, joint %lu at %ld %ld %ld\n", name, (long)t,
                (long)model[0].t[0], (long)model[0].t[1], (long)model[0].t[2],
                (unsigned long)(in->njoints - 1), (long)model[in->njoints - 1].t[0],
                (long)model[in->njoints - 1].t[1], (long)model[in->njoints - 1].t[2]);
    RT_EXPECT_EQ("micro.emi.skinmat", rr_emi_skin_matrices_job_run(&k), RR_OK);
    for (v.first = 0; v.first < in->nverts; v.first += CHUNK) {
        v.count = in->nverts - v.first < CHUNK ? in->nverts - v.first : CHUNK;
        RT_EXPECT_EQ("micro.emi.skin", rr_emi_skin_job_run(&v), RR_OK);
        for (i = 0; i < v.count; i++) {
            h = mix(mix(mix(h, (uint32_t)pos[i].x), (uint32_t)pos[i].y), (uint32_t)pos[i].z);
            h = mix(mix(mix(h, (uint32_t)nrm[i].x), (uint32_t)nrm[i].y), (uint32_t)nrm[i].z);
        }
        if (v.first == 0)
            plat_printf("%s t=%ld: vertex 0 at %ld %ld %ld n %ld %ld %ld\n", name, (long)t,
                        (long)pos[0].x, (long)pos[0].y, (long)pos[0].z, (long)nrm[0].x,
                        (long)nrm[0].y, (long)nrm[0].z);
    }
    plat_printf("%s t=%ld: %lu skinned vertices, hash %08lx\n", name, (long)t,
                (unsigned long)in->nverts, (unsigned long)h);
}

static void emi_room(const char *name, const rr_room *room)
{
    rr_emi_info in;
    const char *an = "";
    rr_fix dur = 0;
    int i;
    RT_EXPECT_EQ("micro.emi.info", rr_emi_get_info(room, &in), RR_OK);
    plat_printf("%s: emi %s, %lu joints, %lu vertices, %lu anims\n", name, in.name,
                (unsigned long)in.njoints, (unsigned long)in.nverts, (unsigned long)in.nanims);
    RT_EXPECT("micro.emi.fits", in.njoints <= MAXJ && in.njoints > 0 && in.nanims > 0);
    if (in.njoints > MAXJ || in.njoints == 0 || in.nanims == 0)
        return;
    rr_emi_anim_get(room, 0, &an, &dur);
    plat_printf("%s: anim %s, %ld s (Q16.16)\n", name, an, (long)dur);
    for (i = 0; i < 3; i++)
        emi_pose(name, room, &in, (rr_fix)(i * (dur / 3) + dur / 7));
}

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++) {
        const rr_test_blob *b = &rr_test_blobs[i];
        rr_room room;
        int32_t need = rr_arena_size(b->data, b->size);
        rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &room);
        plat_printf("open %s: %u bytes in flash, arena %ld = %d\n", b->name, b->size,
                    (long)need, (int)e);
        RT_EXPECT_EQ("micro.open", e, RR_OK);
        RT_EXPECT("micro.arena", need >= 0 && need <= ARENA_BYTES);
        if (e != RR_OK)
            continue;
        rt_seed = 0x2545f491u;
        if (room.format == RR_FMT_ROO)
            roo_room(b->name, &room);
        else if (room.format == RR_FMT_RMESH)
            rmesh_room(b->name, &room);
        else if (room.format == RR_FMT_RMF)
            rmf_room(b->name, &room);
        else if (room.format == RR_FMT_EMI)
            emi_room(b->name, &room);
    }
    return rt_done("t_micro");
}

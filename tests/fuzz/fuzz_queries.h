/* fuzz_queries.h - run every query a runtime offers on an open room, with
 * arguments derived from the fuzz input (so they vary), for fuzz_open.c.
 * Each format runtime adds its calls here as it lands. */
#ifndef RR_FUZZ_QUERIES_H
#define RR_FUZZ_QUERIES_H

#include <stddef.h>
#include <stdint.h>

#include "rr.h"
#include "rr_blobfmt.h"
#include "rr_emi.h"
#include "rr_emi_blob.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"

static int32_t rr_fuzz_arg(const uint8_t *d, size_t n, size_t i)
{
    uint32_t v = 0;
    size_t k;
    for (k = 0; k < 4 && n; k++)
        v = v << 8 | d[(i * 4 + k) % n];
    return (int32_t)v;
}

/* EMI: every job once, with fuzzed animation, time, mode and weight. */
static void rr_fuzz_emi(const rr_room *room, const uint8_t *d, size_t n)
{
    static rr_emi_local a[RR_EMI_MAX_JOINTS], b[RR_EMI_MAX_JOINTS];
    static rr_emi_xform x[RR_EMI_MAX_JOINTS];
    static uint32_t mask[RR_EMI_MASK_WORDS(RR_EMI_MAX_JOINTS)];
    static rr_vec3 p[64], nr[64];
    rr_emi_info info;
    uint32_t j;
    if (rr_emi_get_info(room, &info) != RR_OK || info.nanims == 0)
        return;
    {
        rr_emi_sample_job s = {room, (uint32_t)rr_fuzz_arg(d, n, 2) % info.nanims,
                               rr_fuzz_arg(d, n, 3), (uint32_t)rr_fuzz_arg(d, n, 4) & 1u, a,
                               RR_EMI_MAX_JOINTS, mask};
        rr_emi_blend_job bl = {room, b, a, rr_fuzz_arg(d, n, 5) & 0xffff, b, RR_EMI_MAX_JOINTS,
                               mask};
        rr_emi_model_job m = {room, b, x, RR_EMI_MAX_JOINTS};
        rr_emi_skin_matrices_job k = {room, x, x, RR_EMI_MAX_JOINTS};
        rr_emi_skin_job v = {room, x, 0, info.nverts < 64 ? info.nverts : 64, p, nr};
        rr_emi_skin_job vp = {room, x, 0, info.nverts < 64 ? info.nverts : 64, p, 0};
        (void)rr_emi_bind_pose(room, b, RR_EMI_MAX_JOINTS);
        (void)rr_emi_sample_job_run(&s);
        (void)rr_emi_blend_job_run(&bl);
        (void)rr_emi_model_job_run(&m);
        (void)rr_emi_skin_matrices_job_run(&k);
        (void)rr_emi_skin_job_run(&v);
        (void)rr_emi_skin_job_run(&vp);   /* positions only: the run kernels */
        (void)rr_emi_joint_find(room, "hips", &j);
    }
}

/* Meridian 59: every query with fuzzed points, radii and heights. */
static void rr_fuzz_roo(const rr_room *room, const uint8_t *d, size_t n)
{
    rr_roo_where w;
    rr_roo_heights h;
    rr_roo_move m, m2;
    rr_roo_sight s;
    rr_roo_cell c;
    uint16_t order[64];
    uint32_t cnt;
    int32_t a[3] = {rr_fuzz_arg(d, n, 2) >> 4, rr_fuzz_arg(d, n, 3) >> 4, rr_fuzz_arg(d, n, 4) >> 4};
    int32_t b[3] = {rr_fuzz_arg(d, n, 5) >> 4, rr_fuzz_arg(d, n, 6) >> 4, rr_fuzz_arg(d, n, 7) >> 4};
    (void)rr_roo_locate(room, rr_fuzz_arg(d, n, 0), rr_fuzz_arg(d, n, 1), &w);
    (void)rr_roo_height(room, rr_fuzz_arg(d, n, 0), rr_fuzz_arg(d, n, 1), &h);
    (void)rr_roo_sector_height(room, rr_fuzz_arg(d, n, 8) & 0xff, a[0], a[1], &h);
    (void)rr_roo_can_move(room, a[0], a[1], b[0], b[1], a[2] & 0xffff, b[2], a[2], &m);
    (void)rr_roo_slide(room, a[0], a[1], b[0], b[1], a[2] & 0xffff, b[2], a[2], &m, &m2);
    (void)rr_roo_line_of_sight(room, a, b, &s);
    (void)rr_roo_leaf_order(room, a[0], a[1], order, 64, &cnt);
    (void)rr_roo_grid_at(room, a[0], a[1], &c);
}

/* RMesh: ray, triggers, box, sweep, entities, render groups. */
static void rr_fuzz_rmesh(const rr_room *room, const uint8_t *d, size_t n)
{
    rr_rmesh_ray ray;
    rr_rmesh_hit hit;
    rr_rmesh_sweep sw;
    rr_rmesh_sweep_out so;
    rr_rmesh_list list;
    const rr_rmesh_rgroup *g;
    uint32_t tv[3];
    rr_rmesh_vertex vx;
    uint32_t items[16], idx = 0, k, src;
    int32_t lo[3], hi[3], corners[3][3];
    rr_vec3 nrm;
    for (k = 0; k < 3; k++) {
        ray.origin[k] = rr_fuzz_arg(d, n, k) >> 13;
        lo[k] = rr_fuzz_arg(d, n, k + 3) >> 14;
        hi[k] = lo[k] + ((rr_fuzz_arg(d, n, k + 6) >> 16) & 0x7fff);
        sw.from[k] = ray.origin[k];
        sw.to[k] = rr_fuzz_arg(d, n, k + 9) >> 13;
        sw.radius[k] = 16 + ((rr_fuzz_arg(d, n, k + 12) >> 20) & 0xfff);
    }
    ray.dir.x = rr_fuzz_arg(d, n, 15), ray.dir.y = rr_fuzz_arg(d, n, 16);
    ray.dir.z = rr_fuzz_arg(d, n, 17);
    ray.max_dist = rr_fuzz_arg(d, n, 18) & 0x1fffff;
    sw.max_slides = 1 + ((uint32_t)rr_fuzz_arg(d, n, 19) & 7u);
    list.items = items, list.cap = 16;
    (void)rr_rmesh_raycast(room, &ray, &hit);
    (void)rr_rmesh_trigger_at(room, ray.origin, &idx);
    (void)rr_rmesh_box_tris(room, lo, hi, &list);
    (void)rr_rmesh_sweep_move(room, &sw, &so);
    (void)rr_rmesh_entity_nearest(room, (uint32_t)rr_fuzz_arg(d, n, 20) & 15u, ray.origin, &idx);
    idx = 0;
    while (rr_rmesh_entity_next(room, RR_RMESH_NCLASSES, &idx) == RR_OK)
        idx++;
    (void)rr_rmesh_render_group(room, (uint32_t)rr_fuzz_arg(d, n, 21) & 63u, &g);
    (void)rr_rmesh_render_triangle(room, (uint32_t)rr_fuzz_arg(d, n, 21) & 63u,
                                   (uint32_t)rr_fuzz_arg(d, n, 22) & 0xffffu, tv);
    (void)rr_rmesh_render_vertex(room, (uint32_t)rr_fuzz_arg(d, n, 21) & 63u,
                                 (uint32_t)rr_fuzz_arg(d, n, 22) & 0xffffu, &vx);
    /* a triangle's source index, corners and normal (a full blob's key path) */
    (void)rr_rmesh_triangle(room, (uint32_t)rr_fuzz_arg(d, n, 23) & 0xffffu, &src, corners, &nrm);
}

/* RMF: contents, brushes at a point, ray and box traces, box query, lookups. */
static void rr_fuzz_rmf(const rr_room *room, const uint8_t *d, size_t n)
{
    int32_t p[3], e[3], half[3], lo[3], hi[3];
    uint32_t items[16], contents, idx, k;
    rr_rmf_list list = {items, 16, 0, 0};
    rr_rmf_trace_result tr;
    for (k = 0; k < 3; k++) {
        p[k] = rr_fuzz_arg(d, n, k) >> 8;
        e[k] = rr_fuzz_arg(d, n, k + 3) >> 8;
        half[k] = (rr_fuzz_arg(d, n, k + 6) >> 16) & 0x7fff;
        lo[k] = p[k] < e[k] ? p[k] : e[k];
        hi[k] = p[k] < e[k] ? e[k] : p[k];
    }
    (void)rr_rmf_point_contents(room, p, &contents);
    (void)rr_rmf_point_brushes(room, p, &list);
    (void)rr_rmf_trace(room, p, e, NULL, ~0u, &tr);
    (void)rr_rmf_trace(room, p, e, half, (uint32_t)rr_fuzz_arg(d, n, 9), &tr);
    (void)rr_rmf_box_brushes(room, lo, hi, &list);
    (void)rr_rmf_find_entity(room, "classname", "info_player_start", 0, &idx);
    (void)rr_rmf_entity_value(room, (uint32_t)rr_fuzz_arg(d, n, 10) & 255u, "targetname");
}

static void rr_fuzz_queries(const rr_room *room, const uint8_t *d, size_t n)
{
    const void *p;
    uint32_t c;
    (void)rr_section(room, RR_SEC_STRINGS, &p, &c);
    (void)rr_string(room, (uint32_t)rr_fuzz_arg(d, n, 1));
    switch (room->format) {
    case RR_FMT_EMI: rr_fuzz_emi(room, d, n); break;
    case RR_FMT_ROO: rr_fuzz_roo(room, d, n); break;
    case RR_FMT_RMESH: rr_fuzz_rmesh(room, d, n); break;
    case RR_FMT_RMF: rr_fuzz_rmf(room, d, n); break;
    default: break;
    }
}

#endif

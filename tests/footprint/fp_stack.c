/* fp_stack.c - measured stack depth of every query, by stack painting, on
 * the ARM QEMU boards (microbit, mps2-an385): before each call the free
 * stack below the caller is filled with a pattern; after it, the lowest word
 * no longer holding the pattern gives the depth the call reached (bytes
 * below the caller's stack pointer, including libgcc helpers). Each query
 * runs on the rooms of tests/target/micro.blobs with the inputs of t_micro;
 * the maximum per query is printed. Built and run by tests/footprint/stack.sh
 * (not a t_*.c program: its output is board-specific by design). */
#include "rr.h"
#include "rr_emi.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"
#include "rr_plat.h"
#include "rr_test_blobs.h"

#define PAINT 2048u          /* bytes painted below the caller */
#define PATTERN 0xa5c3e1f7u

enum { Q_OPEN, Q_LOCATE, Q_HEIGHT, Q_MOVE, Q_SLIDE, Q_SIGHT, Q_ORDER, Q_GRID, Q_RAY, Q_TRIGGER,
       Q_BOX, Q_SWEEP, Q_NEAREST, Q_CONTENTS, Q_TRACE_RAY, Q_TRACE_BOX, Q_BRUSHES, Q_SAMPLE,
       Q_BLEND, Q_MODEL, Q_SKINMAT, Q_SKIN, Q_PRINTF, Q_DIV64, NQ };
static const char *const qname[NQ] = {
    "rr_open", "rr_roo_locate", "rr_roo_height", "rr_roo_can_move", "rr_roo_slide",
    "rr_roo_line_of_sight", "rr_roo_leaf_order", "rr_roo_grid_at", "rr_rmesh_raycast",
    "rr_rmesh_trigger_at", "rr_rmesh_box_tris", "rr_rmesh_sweep_move",
    "rr_rmesh_entity_nearest", "rr_rmf_point_contents", "rr_rmf_trace (ray)",
    "rr_rmf_trace (box)", "rr_rmf_box_brushes", "rr_emi_sample_job_run",
    "rr_emi_blend_job_run", "rr_emi_model_job_run", "rr_emi_skin_matrices_job_run",
    "rr_emi_skin_job_run", "plat_printf (board console)",
    "int64 div (libgcc + caller)"};
static uint32_t depth[NQ];
static uint32_t arena[1024];
static uint32_t seed = 0x2545f491u;

static inline __attribute__((always_inline)) uintptr_t sp_now(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/* Fill [below - PAINT, own stack pointer - 8) with the pattern. */
static __attribute__((noinline)) void paint(uintptr_t below)
{
    volatile uint32_t *p = (volatile uint32_t *)((below - PAINT) & ~(uintptr_t)3);
    uintptr_t end = sp_now() - 8;
    while ((uintptr_t)p < end)
        *p++ = PATTERN;
}

static __attribute__((noinline)) void measure(int q, uintptr_t below)
{
    const volatile uint32_t *p = (const volatile uint32_t *)((below - PAINT) & ~(uintptr_t)3);
    uint32_t d;
    while (*p == PATTERN)
        p++;
    d = (uint32_t)(below - (uintptr_t)p);
    if (d > depth[q])
        depth[q] = d;
}

#define MEASURE(q, call) \
    do { uintptr_t s_ = sp_now(); paint(s_); (void)(call); measure((q), s_); } while (0)

/* What one call of the compiler's 64-bit division costs (Cortex-M0 and -M3
 * have no 64-bit divide: __aeabi_ldivmod and what it calls). */
static volatile int64_t div_n = -0x123456789abcdefLL, div_d = 0x1234567LL, div_r;
static __attribute__((noinline)) int div64(void)
{
    div_r = div_n / div_d + div_n % div_d;
    div_r += (int64_t)((uint64_t)div_n / (uint64_t)div_d);
    return 0;
}

static uint32_t rnd(void)
{
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    return seed;
}

static int32_t pick(int32_t lo, int32_t hi)
{
    int64_t span = (int64_t)hi - lo;
    return span > 0 ? (int32_t)(lo + (int64_t)(rnd() % (uint32_t)span)) : lo;
}

static void roo(const rr_room *room)
{
    static uint16_t order[64];
    rr_roo_info in;
    int32_t u = 1 << room->coord_frac, a[3], b[3];
    int i;
    rr_roo_get_info(room, &in);
    for (i = 0; i < 64; i++) {
        rr_roo_where w;
        rr_roo_heights h;
        rr_roo_move m, m2;
        rr_roo_sight s;
        rr_roo_cell c;
        uint32_t n;
        a[0] = pick(in.rect[0], in.rect[2]), a[1] = pick(in.rect[1], in.rect[3]);
        b[0] = pick(in.rect[0], in.rect[2]), b[1] = pick(in.rect[1], in.rect[3]);
        a[2] = pick(0, 2048 * u), b[2] = pick(0, 2048 * u);
        MEASURE(Q_LOCATE, rr_roo_locate(room, a[0], a[1], &w));
        MEASURE(Q_HEIGHT, rr_roo_height(room, a[0], a[1], &h));
        MEASURE(Q_MOVE, rr_roo_can_move(room, a[0], a[1], b[0], b[1], 64 * u, 256 * u,
                                        1024 * u, &m));
        MEASURE(Q_SLIDE, rr_roo_slide(room, a[0], a[1], b[0], b[1], 64 * u, 256 * u, 1024 * u,
                                      &m, &m2));
        MEASURE(Q_SIGHT, rr_roo_line_of_sight(room, a, b, &s));
        MEASURE(Q_ORDER, rr_roo_leaf_order(room, a[0], a[1], order, 64, &n));
        MEASURE(Q_GRID, rr_roo_grid_at(room, a[0], a[1], &c));
    }
}

static void rmesh(const rr_room *room)
{
    const rr_rmesh_head *hd;
    uint32_t items[16], t;
    int i, k;
    rr_rmesh_head_get(room, &hd);
    for (i = 0; i < 64; i++) {
        rr_rmesh_ray ray;
        rr_rmesh_hit hit;
        rr_rmesh_sweep in;
        rr_rmesh_sweep_out out;
        rr_rmesh_list l = {items, 16, 0, 0};
        int32_t lo[3], hi[3], r = 64 << room->coord_frac;
        for (k = 0; k < 3; k++) {
            ray.origin[k] = in.from[k] = pick(hd->bmin[k], hd->bmax[k]);
            in.to[k] = pick(hd->bmin[k], hd->bmax[k]);
            lo[k] = in.from[k] - r, hi[k] = in.from[k] + r;
            in.radius[k] = r > (1 << 14) ? (1 << 14) : r;
        }
        ray.dir.x = pick(-RR_FIX_ONE, RR_FIX_ONE), ray.dir.y = pick(-RR_FIX_ONE, RR_FIX_ONE);
        ray.dir.z = RR_FIX_ONE / 3, ray.max_dist = hd->bmax[0] - hd->bmin[0];
        in.max_slides = RR_RMESH_MAX_SLIDES;
        MEASURE(Q_RAY, rr_rmesh_raycast(room, &ray, &hit));
        MEASURE(Q_TRIGGER, rr_rmesh_trigger_at(room, ray.origin, &t));
        MEASURE(Q_BOX, rr_rmesh_box_tris(room, lo, hi, &l));
        MEASURE(Q_SWEEP, rr_rmesh_sweep_move(room, &in, &out));
        MEASURE(Q_NEAREST, rr_rmesh_entity_nearest(room, RR_RMESH_NCLASSES, ray.origin, &t));
    }
}

static void rmf(const rr_room *room)
{
    const rr_rmf_header *hd;
    uint32_t n, c, items[16];
    int32_t a[3], b[3], half[3] = {16, 16, 36};
    int i, k;
    rr_section(room, RR_SEC_RMF_HEADER, (const void **)&hd, &n);
    for (i = 0; i < 64; i++) {
        rr_rmf_trace_result t;
        rr_rmf_list l = {items, 16, 0, 0};
        for (k = 0; k < 3; k++)
            a[k] = pick(hd->mins[k], hd->maxs[k]), b[k] = pick(hd->mins[k], hd->maxs[k]);
        MEASURE(Q_CONTENTS, rr_rmf_point_contents(room, a, &c));
        MEASURE(Q_TRACE_RAY, rr_rmf_trace(room, a, b, 0, RR_RMF_SOLID, &t));
        MEASURE(Q_TRACE_BOX, rr_rmf_trace(room, a, b, half, RR_RMF_SOLID, &t));
        MEASURE(Q_BRUSHES, rr_rmf_box_brushes(room, a[0] < b[0] ? a : b, a[0] < b[0] ? b : a,
                                              &l));
    }
}

static void emi(const rr_room *room)
{
    static rr_emi_local loc[24], loc2[24];
    static rr_emi_xform model[24];
    static rr_vec3 pos[8], nrm[8];
    rr_emi_sample_job s = {0, 0, 0, RR_EMI_LOOP, loc, 24, 0};
    rr_emi_blend_job bl = {0, loc, loc2, RR_FIX_HALF, loc2, 24, 0};
    rr_emi_model_job m = {0, loc, model, 24};
    rr_emi_skin_matrices_job k = {0, model, model, 24};
    rr_emi_skin_job v = {0, model, 0, 8, pos, nrm};
    int i;
    s.room = bl.room = m.room = k.room = v.room = room;
    for (i = 0; i < 8; i++) {
        s.time = (rr_fix)(i * 9000);
        MEASURE(Q_SAMPLE, rr_emi_sample_job_run(&s));
        MEASURE(Q_BLEND, rr_emi_blend_job_run(&bl));
        MEASURE(Q_MODEL, rr_emi_model_job_run(&m));
        MEASURE(Q_SKINMAT, rr_emi_skin_matrices_job_run(&k));
        MEASURE(Q_SKIN, rr_emi_skin_job_run(&v));
    }
}

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++) {
        rr_room room;
        rr_err e;
        MEASURE(Q_OPEN, e = rr_open(rr_test_blobs[i].data, rr_test_blobs[i].size, arena,
                                    sizeof arena, &room));
        if (e != RR_OK)
            return 1;
        if (room.format == RR_FMT_ROO)
            roo(&room);
        else if (room.format == RR_FMT_RMESH)
            rmesh(&room);
        else if (room.format == RR_FMT_RMF)
            rmf(&room);
        else if (room.format == RR_FMT_EMI)
            emi(&room);
    }
    MEASURE(Q_DIV64, div64());
    MEASURE(Q_PRINTF, plat_printf("printf probe: %s %ld %lu %08lx %d\n", qname[1], -123456789L,
                                   4000000000UL, 0xdeadbeefUL, -42));
    for (i = 0; i < NQ; i++)
        plat_printf("%s,%lu\n", qname[i], (unsigned long)depth[i]);
    return 0;
}

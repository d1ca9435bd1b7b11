/* b_rmf.c - instruction counts of the RMF queries (loader/rr_rmf.h) on the
 * largest corpus maps, each against a brute-force pass over every brush,
 * measured in the same run on the same queries:
 *
 *   contents     rr_rmf_point_contents (brush BSP descent + one leaf)
 *   contents_bf  written here: every brush in turn, the point tested against
 *                all its sides (n.p <= dist in the same 64-bit integers as
 *                the loader), the contents OR-ed
 *   trace        rr_rmf_trace of a player box (half extents 16 x 16 x 36
 *                units, mask SOLID)
 *   trace_bf     written here: every brush whose contents match the mask and
 *                whose bounds meet the swept box goes through the same
 *                fixed-point CM_TraceThroughBrush the loader documents (box
 *                offset by the plane's signbits corner, 1/32-unit clip
 *                epsilon, Q2.30 enter/leave fractions, start-solid and
 *                all-solid rules), nearest hit kept (ties: lowest brush; the
 *                tree keeps the first it meets, so at equal fractions the two
 *                may name different brushes).
 * Both brute-force answers are compared with the tree's and the agreement is
 * printed. Queries (the same xorshift seed on every board): half of the
 * points uniform in the map's bounds, half within +-64 units of the centre of
 * a random brush; traces from such a point by up to +-512 units per axis.
 * Protocol: "BENCH <label> <units> <baseline>" (see tests/bench/bench.sh). */
#include "rr.h"
#include "rr_rmf.h"
#include "rr_plat.h"
#include "rr_test.h"
#include "rr_test_blobs.h"

#define NQ 64
#define FRAC_ONE ((int32_t)1 << 30)

static int32_t spread(int32_t m)
{
    return (int32_t)(rt_rand() % (2u * (uint32_t)m + 1u)) - m;
}

static uint32_t arena[8192];

typedef struct map {
    const rr_rmf_plane *planes;
    const uint32_t *sides;
    const rr_rmf_brush *brushes;
    uint32_t nbrushes;
    int32_t eps;
} map;

static int64_t side_dist(const rr_rmf_plane *p, const int32_t v[3])
{
    return (int64_t)p->normal[0] * v[0] + (int64_t)p->normal[1] * v[1] +
           (int64_t)p->normal[2] * v[2] - (int64_t)p->dist * 65536;
}

__attribute__((noinline)) static uint32_t contents_bf(const map *m, const int32_t p[3])
{
    uint32_t b, i, c = 0;
    for (b = 0; b < m->nbrushes; b++) {
        const rr_rmf_brush *br = &m->brushes[b];
        for (i = 0; i < br->nsides; i++)
            if (side_dist(&m->planes[m->sides[br->first_side + i]], p) > 0)
                break;
        if (i == br->nsides)
            c |= br->contents;
    }
    return c;
}

typedef struct bf_trace {
    int32_t best, brush;
    int start_solid, all_solid;
} bf_trace;

static int64_t floor256(int64_t s)
{
    return s >= 0 ? s >> 8 : -((-s + 255) >> 8);
}

static int32_t frac30(int64_t d1, int64_t adj, int64_t d2)
{
    int64_t den = d1 - d2, f;
    if (den == 0)
        den = d1 > d2 ? 1 : -1;
    f = (d1 + adj) * FRAC_ONE / den;
    return (int32_t)(f < 0 ? 0 : f > FRAC_ONE ? FRAC_ONE : f);
}

/* One brush, as CM_TraceThroughBrush (fixed point, the loader's rules). */
static void brush_bf(const map *m, uint32_t bi, const int32_t s[3], const int32_t e[3],
                     const int32_t h[3], bf_trace *t)
{
    const rr_rmf_brush *b = &m->brushes[bi];
    int32_t enter = -FRAC_ONE, leave = FRAC_ONE;
    int startout = 0, getout = 0, k;
    int64_t eps_s = (int64_t)m->eps * 65536;
    int64_t eps_d = (int64_t)m->eps << 8;
    uint32_t i;
    for (i = 0; i < b->nsides; i++) {
        const rr_rmf_plane *p = &m->planes[m->sides[b->first_side + i]];
        int64_t off = 0, s1, s2;
        int32_t f;
        for (k = 0; k < 3; k++)
            off += (int64_t)p->normal[k] * ((p->signbits >> k) & 1u ? -h[k] : h[k]);
        s1 = side_dist(p, s) - off;
        s2 = side_dist(p, e) - off;
        getout |= s2 > 0;
        startout |= s1 >= 0;
        if (s1 >= 0 && (s2 >= eps_s || s2 >= s1))
            return;
        if (s1 < 0 && s2 <= 0)
            continue;
        f = frac30(floor256(s1), s1 > s2 ? -eps_d : eps_d, floor256(s2));
        if (s1 > s2 && f > enter)
            enter = f;
        else if (s1 <= s2 && f < leave)
            leave = f;
    }
    if (!startout) {
        t->start_solid = 1;
        if (!getout)   /* a start inside blocks only a trace that ends inside */
            t->all_solid = 1, t->best = 0, t->brush = (int32_t)bi;
        return;
    }
    if (enter < leave && enter > -FRAC_ONE && enter < t->best)
        t->best = enter < 0 ? 0 : enter, t->brush = (int32_t)bi;
}

__attribute__((noinline)) static void trace_bf(const map *m, const int32_t s[3],
                                               const int32_t e[3], const int32_t h[3],
                                               uint32_t mask, bf_trace *t)
{
    int32_t lo[3], hi[3];
    uint32_t b;
    int k;
    for (k = 0; k < 3; k++) {
        lo[k] = (s[k] < e[k] ? s[k] : e[k]) - h[k] - m->eps - 1;
        hi[k] = (s[k] < e[k] ? e[k] : s[k]) + h[k] + m->eps + 1;
    }
    t->best = FRAC_ONE;
    t->brush = -1;
    t->start_solid = t->all_solid = 0;
    for (b = 0; b < m->nbrushes; b++) {
        const rr_rmf_brush *br = &m->brushes[b];
        if (!(br->contents & mask) || br->mins[0] > hi[0] || br->maxs[0] < lo[0] ||
            br->mins[1] > hi[1] || br->maxs[1] < lo[1] || br->mins[2] > hi[2] ||
            br->maxs[2] < lo[2])
            continue;
        brush_bf(m, b, s, e, h, t);
    }
}

static void pick_point(const map *m, const rr_rmf_header *h, uint32_t i, uint32_t f,
                       int32_t p[3])
{
    int k;
    if (i & 1u) {
        const rr_rmf_brush *b = &m->brushes[rt_rand() % m->nbrushes];
        for (k = 0; k < 3; k++)
            p[k] = (int32_t)(((int64_t)b->mins[k] + b->maxs[k]) / 2) + spread(64) * (1 << f);
    } else {
        for (k = 0; k < 3; k++)
            p[k] = h->mins[k] + (int32_t)(rt_rand() % (uint32_t)(h->maxs[k] - h->mins[k] + 1));
    }
}

/* One map's queries and answers. */
typedef struct bench {
    rr_room room;
    map m;
    int32_t pt[NQ][3], te[NQ][3], half[3];
    uint32_t contents[NQ];
    rr_rmf_trace_result tr[NQ];
} bench;

/* Point contents, tree then brute force; returns how many agree. */
static uint32_t measure_contents(bench *q, const char *name)
{
    uint32_t i, c, agree = 0;
    for (i = 0; i < NQ; i++) {
        plat_printf("BENCH rmf.contents:%s 0 rmf.contents_bf:%s\n", name, name);
        rr_bench_start();
        rr_rmf_point_contents(&q->room, q->pt[i], &q->contents[i]);
        rr_bench_stop();
    }
    for (i = 0; i < NQ; i++) {
        plat_printf("BENCH rmf.contents_bf:%s 0 -\n", name);
        rr_bench_start();
        c = contents_bf(&q->m, q->pt[i]);
        rr_bench_stop();
        agree += c == q->contents[i];
    }
    return agree;
}

/* Box traces, tree then brute force: n[0] hits, n[1] agreeing fraction
 * and solid flags, n[2] of those naming the same brush. */
static void measure_traces(bench *q, const char *name, uint32_t n[3])
{
    uint32_t i;
    bf_trace t;
    for (i = 0; i < NQ; i++) {
        plat_printf("BENCH rmf.trace:%s 0 rmf.trace_bf:%s\n", name, name);
        rr_bench_start();
        rr_rmf_trace(&q->room, q->pt[i], q->te[i], q->half, RR_RMF_SOLID, &q->tr[i]);
        rr_bench_stop();
        n[0] += q->tr[i].brush >= 0;
    }
    for (i = 0; i < NQ; i++) {
        const rr_rmf_trace_result *r = &q->tr[i];
        plat_printf("BENCH rmf.trace_bf:%s 0 -\n", name);
        rr_bench_start();
        trace_bf(&q->m, q->pt[i], q->te[i], q->half, RR_RMF_SOLID, &t);
        rr_bench_stop();
        if ((t.best >> 14) == r->fraction && t.start_solid == r->start_solid &&
            t.all_solid == r->all_solid)
            n[1]++, n[2] += t.brush == r->brush;
    }
}

static const void *sec(const rr_room *room, uint32_t type, uint32_t *count)
{
    const void *d = 0;
    uint32_t n;
    rr_section(room, type, &d, count ? count : &n);
    return d;
}

static void bench_map(const rr_test_blob *b)
{
    static bench q;
    rr_rmf_counts cnt;
    const rr_rmf_header *h;
    uint32_t i, f, agree_c, n[3] = {0, 0, 0};
    int k;
    rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &q.room);
    if (e) {
        plat_printf("%s: rr_open: %s\n", b->name, rr_strerror(e));
        return;
    }
    rr_rmf_get_counts(&q.room, &cnt);
    h = sec(&q.room, RR_SEC_RMF_HEADER, 0);
    q.m.planes = sec(&q.room, RR_SEC_RMF_PLANES, 0);
    q.m.sides = sec(&q.room, RR_SEC_RMF_SIDES, 0);
    q.m.brushes = sec(&q.room, RR_SEC_RMF_BRUSHES, &q.m.nbrushes);
    f = q.room.coord_frac;
    q.m.eps = ((int32_t)1 << f) >> RR_RMF_CLIP_SHIFT;
    if (q.m.eps < 1)
        q.m.eps = 1;
    q.half[0] = q.half[1] = 16 << f;
    q.half[2] = 36 << f;
    plat_printf("%s: %lu brushes, %lu planes, %lu nodes, %lu leaves, tree depth %lu, "
                "coord_frac %lu\n", b->name, (unsigned long)cnt.brushes,
                (unsigned long)cnt.planes, (unsigned long)cnt.nodes, (unsigned long)cnt.leaves,
                (unsigned long)cnt.tree_depth, (unsigned long)f);
    rt_seed = 0xbb67ae85u;
    for (i = 0; i < NQ; i++) {
        pick_point(&q.m, h, i, f, q.pt[i]);
        for (k = 0; k < 3; k++)
            q.te[i][k] = q.pt[i][k] + spread(512) * (1 << f);
    }
    agree_c = measure_contents(&q, b->name);
    measure_traces(&q, b->name, n);
    plat_printf("%s: tree and brute force agree: contents %lu/%d, trace fraction and solid "
                "flags %lu/%d (%lu hit; same brush %lu: the others are ties at an equal "
                "fraction)\n", b->name, (unsigned long)agree_c, NQ, (unsigned long)n[1], NQ,
                (unsigned long)n[0], (unsigned long)n[2]);
}

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        bench_map(&rr_test_blobs[i]);
    return 0;
}

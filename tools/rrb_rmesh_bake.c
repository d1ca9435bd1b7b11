/* rrb_rmesh_bake.c - .rmesh -> RMesh blob: collision triangles in fixed
 * point with a BVH, the surface table, trigger boxes and entities
 * (section layout in loader/rr_rmesh_blob.h).
 *
 * Steps: collision soup (opaque + invisible, NOTES §3.4) -> pick coord_frac
 * -> pick the vertex lattice (origin, 2^vshift coords) -> quantize to it
 * (round half away from zero) -> drop triangles whose integer cross product
 * is zero -> deduplicate vertices -> BVH (binned surface-area heuristic,
 * leaves of <= LEAF_MAX triangles, nodes in pre-order, bounds on the
 * lattice) -> sections. A full blob (with render data) stores each
 * collision triangle as a key (TREF) that names its render twin or an
 * explicit TRIS record (rr_rmesh_tref); a collision-only blob stores every
 * triangle in TRIS.
 */
#include "rrb_rmesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/rr_rmesh_blob.h"

/* The BVH is built by the binned surface-area heuristic (sah_split):
 * SAH_BINS bins per axis, a node's own box test priced as SAH_TRAV
 * triangle tests, and leaves of at most LEAF_MAX triangles. SAH_TRAV 6
 * makes fewer nodes than the median split with leaves of <= 10 it
 * replaced (6,705 against 8,191 on exit1_opt, 3,013 against 4,095 on
 * 173_opt; the corpus blobs 2.5 % smaller in total, none more than 3.6 %
 * larger) and tests a third of the nodes per ray; 4 is about 2 % faster
 * per ray for 1.2 times the nodes, 1 makes 3.5 times as many. Below SAH_DEPTH
 * the tree halves its triangles at each level (the median split), so no
 * room gets deeper than SAH_DEPTH + 16 (65,535 triangles), far within
 * RR_MAX_DEPTH. */
#define SAH_BINS 16
#define SAH_TRAV 6
#define LEAF_MAX 16
#define SAH_DEPTH 32
#define ROOM_SCALE (8.0 / 2048.0)

typedef struct btri {
    int32_t p[3][3];    /* quantized corners (coords, lattice points) */
    int64_t c2[3];      /* 3 x centroid (sum of corners) */
    uint32_t src;
} btri;

/* A node while building: bounds in coords, first / count as in the blob. */
typedef struct bnode {
    int32_t min[3], max[3];
    uint32_t first, count;
} bnode;

/* The vertex lattice: coords = origin + q << shift. */
typedef struct lattice {
    int32_t origin[3];
    uint32_t shift;
} lattice;

typedef struct bvh {
    btri *t;
    bnode *nodes;
    size_t nnodes, cap;
    uint32_t depth;
    int axis;           /* sort axis for qsort */
} bvh;

static bvh *g_sort;     /* qsort has no context argument in C99 */

/* ---- coord_frac ---- */

static double max_abs3(const float *p, double scale, double m)
{
    int k;
    for (k = 0; k < 3; k++)
        if (fabs((double)p[k] * scale) > m)
            m = fabs((double)p[k] * scale);
    return m;
}

/* Largest |value| among every stored position and length (scaled). */
static void extents(const rrb_rmesh *m, const rrb_rm_soup *s, double scale, double *pos,
                    double *len)
{
    size_t i;
    uint32_t t, j, k;
    *pos = *len = 0;
    for (i = 0; i < s->ntris * 9; i++)
        if (fabs(s->v[i]) > *pos)
            *pos = fabs(s->v[i]);
    for (t = 0; t < m->ntrig; t++)
        for (j = 0; j < m->trig[t].nsurf; j++)
            for (k = 0; k < m->trig[t].surf[j].nverts; k++)
                *pos = max_abs3(m->trig[t].surf[j].pos + 3 * k, scale, *pos);
    /* every render vertex too (alpha and no-collision surfaces are not in
     * the collision soup, but their positions are stored relative to it) */
    for (t = 0; t < m->nsurf + m->nnocoll; t++) {
        const rrb_rm_surf *sf = t < m->nsurf ? &m->surf[t] : &m->nocoll[t - m->nsurf];
        for (j = 0; j < sf->nverts; j++)
            *pos = max_abs3(sf->verts[j].pos, scale, *pos);
    }
    for (t = 0; t < m->nents; t++) {
        *pos = max_abs3(m->ents[t].pos, scale, *pos);   /* custom entities too */
        if (fabs((double)m->ents[t].range * scale) > *len)
            *len = fabs((double)m->ents[t].range * scale);
    }
}

/* Largest coord_frac in 0..16 that keeps every position within
 * RR_RMESH_COORD_MAX and every length within 2^30; -1 if none does. The
 * positions keep a margin of LATTICE_SLACK coords: snapping a collision
 * vertex to the lattice moves it by at most 2^(vshift-1) <= 2 coords. */
#define LATTICE_SLACK 4
static int pick_frac(double pos, double len)
{
    int f;
    for (f = 16; f >= 0; f--)
        if (ldexp(pos, f) <= RR_RMESH_COORD_MAX - 1 - LATTICE_SLACK &&
            ldexp(len, f) <= 1073741824.0)
            return f;
    return -1;
}

/* The vertex lattice of the collision soup: origin = the lowest coordinate
 * (floor), shift the smallest for which every vertex's lattice number
 * round((c - origin) / 2^shift) is <= 65535 (16 bits). The coordinates are
 * within +-2^17, so shift <= 2 always fits. */
static void pick_lattice(const rrb_rm_soup *s, int frac, lattice *l)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    size_t i;
    int k;
    for (i = 0; i < s->ntris * 3; i++)
        for (k = 0; k < 3; k++) {
            double c = ldexp(s->v[3 * i + (size_t)k], frac);
            if (i == 0 || c < lo[k])
                lo[k] = c;
            if (i == 0 || c > hi[k])
                hi[k] = c;
        }
    l->shift = 0;
    for (k = 0; k < 3; k++)
        l->origin[k] = (int32_t)floor(lo[k]);
    for (k = 0; k < 3; k++)
        while (l->shift < RR_RMESH_VSHIFT_MAX &&
               lround(ldexp(hi[k] - l->origin[k], -(int)l->shift)) > 65535)
            l->shift++;
}

/* Coordinate v (world units) snapped to the lattice, in coords. */
static int32_t snap(const lattice *l, int k, double v, int frac)
{
    long q = lround(ldexp(ldexp(v, frac) - l->origin[k], -(int)l->shift));
    return l->origin[k] + (int32_t)(q << l->shift);
}

static int32_t q(double v, int frac)
{
    return (int32_t)lround(ldexp(v, frac));
}

static int32_t qfix(double v)
{
    double x = v * 65536.0;
    if (x > 2147483647.0)
        return INT32_MAX;
    if (x < -2147483648.0)
        return INT32_MIN;
    return (int32_t)lround(x);
}

/* ---- triangles ---- */

static int zero_cross(const int32_t p[3][3])
{
    int64_t a[3], b[3];
    int k;
    for (k = 0; k < 3; k++) {
        a[k] = (int64_t)p[1][k] - p[0][k];
        b[k] = (int64_t)p[2][k] - p[0][k];
    }
    return a[1] * b[2] - a[2] * b[1] == 0 && a[2] * b[0] - a[0] * b[2] == 0 &&
           a[0] * b[1] - a[1] * b[0] == 0;
}

static btri *quantize(const rrb_rm_soup *s, const lattice *l, int frac, size_t *n,
                      uint32_t *dropped)
{
    btri *t = rrb_xcalloc(s->ntris, sizeof *t);
    size_t i;
    int j, k;
    *n = 0;
    *dropped = 0;
    for (i = 0; i < s->ntris; i++) {
        btri *b = &t[*n];
        for (j = 0; j < 3; j++)
            for (k = 0; k < 3; k++)
                b->p[j][k] = snap(l, k, s->v[9 * i + 3 * (size_t)j + (size_t)k], frac);
        if (zero_cross(b->p)) {
            ++*dropped;
            continue;
        }
        for (k = 0; k < 3; k++)
            b->c2[k] = (int64_t)b->p[0][k] + b->p[1][k] + b->p[2][k];
        b->src = (uint32_t)i;
        ++*n;
    }
    return t;
}

/* ---- BVH ---- */

static int cmp_axis(const void *a, const void *b)
{
    const btri *x = a, *y = b;
    int64_t u = x->c2[g_sort->axis], v = y->c2[g_sort->axis];
    if (u != v)
        return u < v ? -1 : 1;
    return x->src < y->src ? -1 : x->src > y->src;
}

/* The smallest and largest centroid (3 x centroid) of t[0, n) on axis k. */
static void centroid_range(const btri *t, size_t n, int k, int64_t *lo, int64_t *hi)
{
    size_t i;
    *lo = INT64_MAX;
    *hi = INT64_MIN;
    for (i = 0; i < n; i++) {
        if (t[i].c2[k] < *lo)
            *lo = t[i].c2[k];
        if (t[i].c2[k] > *hi)
            *hi = t[i].c2[k];
    }
}

static int longest_axis(const btri *t, size_t n)
{
    int64_t lo[3], hi[3];
    int k, best = 0;
    for (k = 0; k < 3; k++)
        centroid_range(t, n, k, &lo[k], &hi[k]);
    for (k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[best] - lo[best])
            best = k;
    return best;
}

/* Half the surface area of a box (coords, extents < 2^19: below 2^40). */
static int64_t half_area(const int32_t lo[3], const int32_t hi[3])
{
    int64_t x = (int64_t)hi[0] - lo[0], y = (int64_t)hi[1] - lo[1], z = (int64_t)hi[2] - lo[2];
    return x * y + y * z + z * x;
}

/* A bin of the SAH: the triangles whose centroids fall in it and their box. */
typedef struct sah_bin {
    int32_t lo[3], hi[3];
    uint32_t n;
} sah_bin;

static void bin_add(sah_bin *b, const btri *t)
{
    int j, k;
    for (j = 0; j < 3; j++)
        for (k = 0; k < 3; k++) {
            if (t->p[j][k] < b->lo[k])
                b->lo[k] = t->p[j][k];
            if (t->p[j][k] > b->hi[k])
                b->hi[k] = t->p[j][k];
        }
    b->n++;
}

static void bin_merge(sah_bin *into, const sah_bin *b)
{
    int k;
    for (k = 0; k < 3; k++) {
        if (b->lo[k] < into->lo[k])
            into->lo[k] = b->lo[k];
        if (b->hi[k] > into->hi[k])
            into->hi[k] = b->hi[k];
    }
    into->n += b->n;
}

static void bin_clear(sah_bin *b)
{
    int k;
    for (k = 0; k < 3; k++) {
        b->lo[k] = INT32_MAX;
        b->hi[k] = INT32_MIN;
    }
    b->n = 0;
}

/* A node's bounds: the box of its triangles' corners. */
static void node_bounds(bnode *nd, const btri *t, size_t n)
{
    sah_bin box;
    size_t i;
    bin_clear(&box);
    for (i = 0; i < n; i++)
        bin_add(&box, &t[i]);
    memcpy(nd->min, box.lo, sizeof nd->min);
    memcpy(nd->max, box.hi, sizeof nd->max);
}

/* Bin of a centroid c (3 x centroid) between lo and hi (lo < hi). */
static int bin_of(int64_t c, int64_t lo, int64_t hi)
{
    return (int)(((c - lo) * SAH_BINS) / (hi - lo + 1));
}

/* The binned surface-area heuristic (SAH): the cost of a node is the
 * chance that a query reaching it reaches its children (the ratio of their
 * surface areas) times the triangles they test. For triangles t[0, n) with
 * node box area a_node, try the SAH_BINS - 1 bin boundaries on each axis
 * (centroids binned between their smallest and largest) and return the
 * cheapest split: its axis, and in *nleft how many triangles (sorted by
 * centroid on that axis) go left. All integer, so every host builds the
 * same tree. Returns 0 when splitting costs more than a leaf (and n is
 * within LEAF_MAX) or no boundary separates the centroids. */
static int sah_split(const btri *t, size_t n, int64_t a_node, int *axis, size_t *nleft)
{
    sah_bin bins[SAH_BINS], acc, right[SAH_BINS];
    int64_t best = INT64_MAX;
    size_t i;
    int k, j;
    for (k = 0; k < 3; k++) {
        int64_t lo, hi, cost;
        uint32_t nl = 0;
        centroid_range(t, n, k, &lo, &hi);
        if (lo == hi)
            continue;
        for (j = 0; j < SAH_BINS; j++)
            bin_clear(&bins[j]);
        for (i = 0; i < n; i++)
            bin_add(&bins[bin_of(t[i].c2[k], lo, hi)], &t[i]);
        /* right[j]: bins j.. merged */
        bin_clear(&acc);
        for (j = SAH_BINS - 1; j > 0; j--) {
            bin_merge(&acc, &bins[j]);
            right[j] = acc;
        }
        bin_clear(&acc);
        for (j = 0; j < SAH_BINS - 1; j++) {   /* bins 0..j left, j+1.. right */
            bin_merge(&acc, &bins[j]);
            nl += bins[j].n;
            if (nl == 0 || nl == n)
                continue;
            cost = half_area(acc.lo, acc.hi) * nl +
                   half_area(right[j + 1].lo, right[j + 1].hi) * right[j + 1].n;
            if (cost < best) {
                best = cost;
                *axis = k;
                *nleft = nl;
            }
        }
    }
    if (best == INT64_MAX)
        return 0;
    /* leaf: every triangle tested, n a_node; split: the node's own test
     * (SAH_TRAV triangles' worth) and the children's expected tests */
    return n > LEAF_MAX || best + SAH_TRAV * a_node < (int64_t)n * a_node;
}

/* Build the subtree of t[first, first+n) at depth d; returns its node index. */
static size_t build(bvh *b, size_t first, size_t n, uint32_t d)
{
    size_t me = b->nnodes, nleft;
    bnode *nd;
    int axis;
    b->nodes = rrb_grow(b->nodes, &b->cap, b->nnodes + 1, sizeof *b->nodes);
    b->nnodes++;
    nd = &b->nodes[me];
    node_bounds(nd, b->t + first, n);
    if (d > b->depth)
        b->depth = d;
    if (d >= SAH_DEPTH || !sah_split(b->t + first, n, half_area(nd->min, nd->max), &axis, &nleft)) {
        if (n <= LEAF_MAX) {
            nd->first = (uint32_t)first;
            nd->count = RR_RMESH_LEAF | (uint32_t)n;
            return me;
        }
        /* more than a leaf holds, and no boundary separates the centroids
         * or the tree is SAH_DEPTH deep: halve them in their order on the
         * longest axis */
        axis = longest_axis(b->t + first, n);
        nleft = n / 2;
    }
    b->axis = axis;
    g_sort = b;
    qsort(b->t + first, n, sizeof *b->t, cmp_axis);
    build(b, first, nleft, d + 1);
    b->nodes[me].first = (uint32_t)(me + 1);
    b->nodes[me].count = (uint32_t)build(b, first + nleft, n - nleft, d + 1);
    return me;
}

/* ---- vertices ---- */

/* A point (coords, lattice numbers or quantized render offsets) and what
 * it belongs to: a triangle corner (3 * triangle + corner), a collision
 * vertex's index or a render vertex's number. */
typedef struct vref {
    int32_t p[3];
    uint32_t slot;
} vref;

/* By point only (a sort for lookup, and the lookup itself). */
static int cmp_point(const void *a, const void *b)
{
    const vref *x = a, *y = b;
    int k;
    for (k = 0; k < 3; k++)
        if (x->p[k] != y->p[k])
            return x->p[k] < y->p[k] ? -1 : 1;
    return 0;
}

/* By point, then slot: equal points stay in slot order. */
static int cmp_vref(const void *a, const void *b)
{
    const vref *x = a, *y = b;
    int c = cmp_point(a, b);
    return c ? c : x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Lattice number of a lattice point c (coords) on axis k: exact. */
static uint16_t lattice_q(const lattice *l, int k, int32_t c)
{
    return (uint16_t)((c - l->origin[k]) >> l->shift);
}

/* Deduplicate the corners; fills tri[].v and returns the vertex array (the
 * caller checked that the vertices fit 16-bit numbers). */
static rr_rmesh_vert *dedup(const btri *t, size_t n, const lattice *l, rr_rmesh_tri *tri,
                            uint32_t *nverts)
{
    vref *r = rrb_xcalloc(n * 3, sizeof *r);
    rr_rmesh_vert *v = rrb_xcalloc(n * 3, sizeof *v);
    size_t i;
    uint32_t nv = 0;
    int k;
    for (i = 0; i < n * 3; i++) {
        memcpy(r[i].p, t[i / 3].p[i % 3], 12);
        r[i].slot = (uint32_t)i;
    }
    qsort(r, n * 3, sizeof *r, cmp_vref);
    for (i = 0; i < n * 3; i++) {
        if (i == 0 || memcmp(r[i].p, r[i - 1].p, 12) != 0) {
            for (k = 0; k < 3; k++)
                v[nv].q[k] = lattice_q(l, k, r[i].p[k]);
            nv++;
        }
        tri[r[i].slot / 3].v[r[i].slot % 3] = (uint16_t)(nv - 1);
    }
    free(r);
    *nverts = nv;
    return v;
}

/* The distinct corners of the triangles (what dedup will keep). */
static uint32_t count_verts(const btri *t, size_t n)
{
    vref *r = rrb_xcalloc(n * 3 + 1, sizeof *r);
    size_t i;
    uint32_t nv = 0;
    for (i = 0; i < n * 3; i++)
        memcpy(r[i].p, t[i / 3].p[i % 3], 12);
    qsort(r, n * 3, sizeof *r, cmp_vref);
    for (i = 0; i < n * 3; i++)
        nv += i == 0 || memcmp(r[i].p, r[i - 1].p, 12) != 0;
    free(r);
    return nv;
}

/* ---- full blobs: collision triangles by key (rr_rmesh_tref) ---- */

/* The key of each source collision triangle in a full blob: the opaque
 * visible surfaces' triangles are render triangles (render group i is
 * visible surface i, its triangles in source order), numbered globally
 * over every group; the invisible meshes' triangles get the keys from
 * nrtris on, in source order, for the ones the baker keeps (the explicit
 * TRIS records). The zero-area triangles the collision soup drops keep
 * their render triangle and get no key. Keys thus grow with the source
 * index (the queries' tie rule compares keys). Returns the array (nsoup
 * entries, NO_KEY for a dropped triangle), the render triangle
 * count in *nrtris and the explicit count in *nexpl. */
#define NO_KEY 0xffffffffu
static uint32_t *source_keys(const rrb_rmesh *m, const btri *t, size_t n, size_t nsoup,
                             uint32_t *nrtris, uint32_t *nexpl)
{
    uint32_t *key = rrb_xcalloc(nsoup + 1, sizeof *key);
    uint8_t *kept = rrb_xcalloc(nsoup + 1, 1);
    uint32_t i, tr, src = 0, base = 0;
    size_t j;
    for (j = 0; j < n; j++)
        kept[t[j].src] = 1;
    for (i = 0; i < m->nsurf; i++) {
        for (tr = 0; !rrb_rmesh_surf_alpha(&m->surf[i]) && tr < m->surf[i].ntris; tr++, src++)
            key[src] = kept[src] ? base + tr : NO_KEY;
        base += m->surf[i].ntris;   /* alpha surfaces have render triangles too */
    }
    for (i = 0; i < m->nnocoll; i++)
        base += m->nocoll[i].ntris;
    *nrtris = base;
    *nexpl = 0;
    for (; src < nsoup; src++)   /* the invisible meshes' */
        key[src] = kept[src] ? base + (*nexpl)++ : NO_KEY;
    free(kept);
    return key;
}

/* ---- sections ---- */

/* The collision vertices, triangles and nodes. Collision-only (key NULL):
 * every triangle in TRIS, in BVH order. Full: TREF holds each triangle's
 * key in BVH order and TRIS only the explicit triangles (keys from nrtris
 * on), in key order. Every triangle's record, in BVH order, goes to *all
 * (the caller checks the render corners against it). */
static void add_geometry(rrb_blob *blob, bvh *b, size_t n, const lattice *l, rr_rmesh_head *h,
                         const uint32_t *key, uint32_t nrtris, uint32_t nexpl,
                         rr_rmesh_tri **all)
{
    rr_rmesh_tri *tri = rrb_xcalloc(n + 1, sizeof *tri);
    rr_rmesh_node *nodes = rrb_xcalloc(b->nnodes + 1, sizeof *nodes);
    rr_rmesh_tri *expl = rrb_xcalloc(nexpl + 1, sizeof *expl);
    rr_rmesh_tref *tref = rrb_xcalloc(n + 1, sizeof *tref);
    rr_rmesh_vert *v;
    size_t i;
    int k;
    v = dedup(b->t, n, l, tri, &h->nverts);
    for (i = 0; i < n; i++) {
        tri[i].src = (uint16_t)b->t[i].src;
        if (!key)
            continue;
        tref[i].key = (uint16_t)key[b->t[i].src];
        if (key[b->t[i].src] >= nrtris)
            expl[key[b->t[i].src] - nrtris] = tri[i];
    }
    for (i = 0; i < b->nnodes; i++) {
        for (k = 0; k < 3; k++) {
            nodes[i].min[k] = lattice_q(l, k, b->nodes[i].min[k]);
            nodes[i].max[k] = lattice_q(l, k, b->nodes[i].max[k]);
        }
        nodes[i].first = (uint16_t)b->nodes[i].first;
        nodes[i].count = (uint16_t)b->nodes[i].count;
    }
    for (k = 0; k < 3; k++) {
        h->origin[k] = l->origin[k];
        if (b->nnodes) {
            h->bmin[k] = b->nodes[0].min[k];
            h->bmax[k] = b->nodes[0].max[k];
        }
    }
    h->vshift = l->shift;
    rrb_blob_add(blob, RR_SEC_RMESH_VERTS, v, h->nverts, sizeof *v, NULL);
    if (key)
        rrb_blob_add(blob, RR_SEC_RMESH_TRIS, expl, nexpl, sizeof *expl, NULL);
    else
        rrb_blob_add(blob, RR_SEC_RMESH_TRIS, tri, (uint32_t)n, sizeof *tri, NULL);
    rrb_blob_add(blob, RR_SEC_RMESH_NODES, nodes, (uint32_t)b->nnodes, sizeof *nodes, NULL);
    if (key)
        rrb_blob_add(blob, RR_SEC_RMESH_TREF, tref, (uint32_t)n, sizeof *tref, NULL);
    free(v);
    free(expl);
    free(tref);
    free(nodes);
    *all = tri;
}

/* Render triangle blocks of 2^ishift (8-bit render indices, rr_rmesh_rindex). */
static uint32_t index_blocks(uint32_t nrtris, uint32_t ishift)
{
    return (nrtris + (1u << ishift) - 1u) >> ishift;
}

/* Render index j of the RINDEX bytes b (rr_rmesh_rindex) as a render vertex
 * number: its block's base plus its byte, or its byte pair. */
static uint32_t index_vertex(const uint8_t *b, uint32_t nindices, uint32_t ishift, uint32_t j)
{
    if (ishift == RR_RMESH_ISHIFT_WIDE)
        return b[2 * j] | (uint32_t)b[2 * j + 1] << 8;
    return (b[2 * ((j / 3) >> ishift)] | (uint32_t)b[2 * ((j / 3) >> ishift) + 1] << 8) +
           b[2 * index_blocks(nindices / 3, ishift) + j];
}

/* The indices [*first, *end) of block b of 2^s triangles among ni indices,
 * and the lowest and highest vertex numbers among them (lo > hi when the
 * block is empty). */
static void index_block(const uint16_t *ix, uint32_t ni, uint32_t s, uint32_t b, uint32_t *first,
                        uint32_t *end, uint32_t *lo, uint32_t *hi)
{
    uint32_t j;
    *first = 3 * (b << s);
    *end = 3 * ((b + 1) << s) < ni ? 3 * ((b + 1) << s) : ni;
    *lo = 65535, *hi = 0;
    for (j = *first; j < *end; j++) {
        *lo = ix[j] < *lo ? ix[j] : *lo;
        *hi = ix[j] > *hi ? ix[j] : *hi;
    }
}

/* The RINDEX bytes of the render vertex numbers ix[0 .. ni) (rr_rmesh_rindex):
 * 8-bit in blocks of 2^ishift triangles for the largest ishift <=
 * RR_RMESH_ISHIFT_MAX whose blocks each use vertices within 255 of their
 * lowest (the base), else 16-bit. Returns the bytes (*nbytes, *ishift). */
static uint8_t *encode_indices(const uint16_t *ix, uint32_t ni, uint32_t *nbytes,
                               uint32_t *ishift)
{
    uint32_t ntri = ni / 3, s, b, j, nb, first, end, lo, hi;
    uint8_t *out;
    for (s = RR_RMESH_ISHIFT_MAX + 1; s-- > 0;) {
        int fits = 1;
        for (b = 0; fits && b < index_blocks(ntri, s); b++) {
            index_block(ix, ni, s, b, &first, &end, &lo, &hi);
            fits = hi - lo <= 255 || lo > hi;
        }
        if (fits)
            break;
    }
    if (s > RR_RMESH_ISHIFT_MAX) {   /* no block size fits: 16-bit byte pairs */
        out = rrb_xcalloc(2 * ni + 1, 1);
        for (j = 0; j < ni; j++) {
            out[2 * j] = (uint8_t)(ix[j] & 255u);
            out[2 * j + 1] = (uint8_t)(ix[j] >> 8);
        }
        *nbytes = 2 * ni;
        *ishift = RR_RMESH_ISHIFT_WIDE;
        return out;
    }
    nb = index_blocks(ntri, s);
    out = rrb_xcalloc(2 * nb + ni + 1, 1);
    for (b = 0; b < nb; b++) {   /* each block's base: its lowest vertex */
        index_block(ix, ni, s, b, &first, &end, &lo, &hi);
        out[2 * b] = (uint8_t)(lo & 255u);
        out[2 * b + 1] = (uint8_t)(lo >> 8);
        for (j = first; j < end; j++)
            out[2 * nb + j] = (uint8_t)(ix[j] - lo);
    }
    *nbytes = 2 * nb + ni;
    *ishift = s;
    return out;
}

/* A full blob's render-backed triangles must have the corners of their
 * collision records: the render vertex of each corner stands on the
 * collision vertex (the same rounding of the same float to the same
 * lattice). 0, or -1 with a message when the baker broke that. */
static int check_render_corners(const rrb_blob *blob, const rr_rmesh_tri *all, uint32_t n,
                                uint32_t nrtris, const char *path, char *err, size_t errcap)
{
    uint32_t i, c, cnt;
    const rr_rmesh_tref *tref = rrb_blob_records(blob, RR_SEC_RMESH_TREF, &cnt);
    const rr_rmesh_rhead *rh = rrb_blob_records(blob, RR_SEC_RMESH_RHEAD, &cnt);
    const uint8_t *ix = rrb_blob_records(blob, RR_SEC_RMESH_RINDEX, &cnt);
    const rr_rmesh_rvert *rv = rrb_blob_records(blob, RR_SEC_RMESH_RVERTS, &cnt);
    for (i = 0; i < n; i++)
        for (c = 0; c < 3 && tref[i].key < nrtris; c++)
            if (rv[index_vertex(ix, rh->nindices, rh->ishift, 3 * tref[i].key + c)].pos !=
                all[i].v[c]) {
                snprintf(err, errcap, "%s: internal error: render triangle %u (source triangle "
                         "%u) does not stand on its collision corners", path, tref[i].key,
                         all[i].src);
                return -1;
            }
    return 0;
}

/* Each surface's first_src: the source collision triangles of the surfaces
 * before it, in the order of the collision soup (rrb_rmesh_soup: opaque
 * surfaces in file order, then the invisible meshes), so that a triangle's
 * surface is the last one whose first_src <= its src. Alpha and
 * no-collision surfaces add none. */
static void add_surfaces(rrb_blob *blob, const rrb_rmesh *m, rr_rmesh_head *h)
{
    rr_rmesh_surf *s = rrb_xcalloc(m->nsurf + m->ninvis + m->nnocoll, sizeof *s);
    uint32_t i, first_src = 0;
    int k;
    for (i = 0; i < m->nsurf; i++) {
        s[i].first_src = first_src;
        if (!rrb_rmesh_surf_alpha(&m->surf[i]))
            first_src += m->surf[i].ntris;
        for (k = 0; k < 2; k++) {
            s[i].tex[k] = rrb_blob_string(blob, m->surf[i].tex[k].s);
            s[i].flag[k] = m->surf[i].flag[k];
        }
        s[i].alpha = (uint8_t)rrb_rmesh_surf_alpha(&m->surf[i]);
        s[i].kind = RR_RMESH_SURF_VISIBLE;
    }
    for (i = m->nsurf; i < m->nsurf + m->ninvis; i++) {
        s[i].first_src = first_src;
        first_src += m->invis[i - m->nsurf].ntris;
        s[i].tex[0] = s[i].tex[1] = rrb_blob_string(blob, "");
        s[i].kind = RR_RMESH_SURF_INVISIBLE;
    }
    for (i = 0; i < m->nnocoll; i++) {
        rr_rmesh_surf *t = &s[m->nsurf + m->ninvis + i];
        t->first_src = first_src;
        for (k = 0; k < 2; k++) {
            t->tex[k] = rrb_blob_string(blob, m->nocoll[i].tex[k].s);
            t->flag[k] = m->nocoll[i].flag[k];
        }
        t->alpha = (uint8_t)rrb_rmesh_surf_alpha(&m->nocoll[i]);
        t->kind = RR_RMESH_SURF_NOCOLL;
    }
    h->nsurfs = m->nsurf + m->ninvis + m->nnocoll;
    rrb_blob_add(blob, RR_SEC_RMESH_SURFS, s, h->nsurfs, sizeof *s, NULL);
    free(s);
}

static void add_triggers(rrb_blob *blob, const rrb_rmesh *m, double scale, int frac)
{
    rr_rmesh_trigger *t = rrb_xcalloc(m->ntrig, sizeof *t);
    uint32_t i, j, v;
    int k;
    for (i = 0; i < m->ntrig; i++) {
        for (k = 0; k < 3; k++) {
            t[i].min[k] = INT32_MAX;   /* empty box: contains nothing */
            t[i].max[k] = INT32_MIN;
        }
        for (j = 0; j < m->trig[i].nsurf; j++)
            for (v = 0; v < m->trig[i].surf[j].nverts; v++)
                for (k = 0; k < 3; k++) {
                    const float *pv = m->trig[i].surf[j].pos + 3 * v;
                    int32_t c = q((double)pv[k] * scale, frac);
                    t[i].min[k] = c < t[i].min[k] ? c : t[i].min[k];
                    t[i].max[k] = c > t[i].max[k] ? c : t[i].max[k];
                }
        t[i].name = rrb_blob_string(blob, m->trig[i].name.s);
    }
    rrb_blob_add(blob, RR_SEC_RMESH_TRIGGERS, t, m->ntrig, sizeof *t, NULL);
    free(t);
}

/* The game's entities, in file order. CBRE-EX custom entities have no
 * record in the blob schema yet; they are left out (and counted). */
/* A custom entity's property as text: the value the source holds, as the
 * editor shows it (NOTES.md 3.7); Choices store nothing, so "". */
static void prop_text(const rrb_rm_prop *p, char *out, size_t cap)
{
    switch (p->type) {
    case RRB_RM_BOOL: snprintf(out, cap, "%u", (unsigned)p->b); break;
    case RRB_RM_INTEGER: snprintf(out, cap, "%d", (int)p->i); break;
    case RRB_RM_FLOAT: snprintf(out, cap, "%.9g", (double)p->v[0]); break;
    case RRB_RM_VECTOR:
        snprintf(out, cap, "%.9g %.9g %.9g", (double)p->v[0], (double)p->v[1], (double)p->v[2]);
        break;
    case RRB_RM_STRING:
    case RRB_RM_COLOR255: snprintf(out, cap, "%.*s", (int)p->s.len, p->s.s ? p->s.s : ""); break;
    default: out[0] = 0; break;
    }
}

/* The entities in file order: the game's classes with their fields, custom
 * entities (door, item, classes of the definitions) with their class name
 * and a run of the props section. */
static uint32_t add_entities(rrb_blob *blob, const rrb_rmesh *m, double scale, int frac)
{
    rr_rmesh_ent *e = rrb_xcalloc(m->nents, sizeof *e);
    rr_rmesh_prop *props;
    uint32_t i, n = 0, np = 0, k;
    int j;
    for (i = 0; i < m->nents; i++)
        np += m->ents[i].cls >= RRB_RM_NCLASSES ? m->ents[i].nprops : 0;
    props = rrb_xcalloc(np ? np : 1, sizeof *props);
    np = 0;
    for (i = 0; i < m->nents; i++, n++) {
        const rrb_rm_entity *s = &m->ents[i];
        for (j = 0; j < 3; j++)
            e[n].pos[j] = q((double)s->pos[j] * scale, frac);
        if (s->cls >= RRB_RM_NCLASSES) {
            e[n].cls = RR_RMESH_CUSTOM;
            e[n].str = rrb_blob_string(blob, s->classname.s);
            e[n].str2 = rrb_blob_string(blob, "");
            e[n].ival[0] = (int32_t)np;
            e[n].ival[1] = (int32_t)s->nprops;
            for (k = 0; k < s->nprops; k++, np++) {
                char v[512];
                prop_text(&s->props[k], v, sizeof v);
                props[np].key = rrb_blob_string(blob, s->props[k].name);
                props[np].value = rrb_blob_string(blob, v);
            }
            continue;
        }
        e[n].cls = (uint16_t)s->cls;
        e[n].flags = rrb_rmesh_entity_ignored(s) ? RR_RMESH_ENT_IGNORED : 0;
        for (j = 0; j < 3; j++) {
            e[n].rot[j] = qfix((double)s->rot[j]);
            e[n].scale[j] = qfix((double)s->scale[j]);
        }
        e[n].str = rrb_blob_string(blob, s->str.s);
        e[n].str2 = rrb_blob_string(blob, s->str2.s);
        e[n].ival[0] = s->cls == RRB_RM_SOUNDEMITTER ? s->sound : s->inner;
        e[n].ival[1] = s->cls == RRB_RM_SOUNDEMITTER ? 0 : s->outer;
        e[n].range = q((double)s->range * scale, frac);
        e[n].intensity = qfix((double)s->intensity);
    }
    rrb_blob_add(blob, RR_SEC_RMESH_ENTS, e, n, sizeof *e, NULL);
    if (np)
        rrb_blob_add(blob, RR_SEC_RMESH_PROPS, props, np, sizeof *props, NULL);
    free(e);
    free(props);
    return n;
}

/* ---- render data ---- */

typedef struct rsrc {
    const rrb_rm_surf *s;
    uint32_t surface, flags;
} rsrc;

/* Not a collision vertex: the vertex's position goes into RPOS. */
#define NO_POINT 0xffffffffu

/* Position of a source vertex in coords (exact: a float times a power of 2). */
static double coords_of(const rrb_rm_vert *sv, int k, double scale, int frac)
{
    return ldexp((double)sv->pos[k] * scale, frac);
}

/* The collision vertex at the lattice point nearest to sv (within half a
 * lattice step on each axis), or NO_POINT when that point is not one. */
static uint32_t collision_point(const rrb_rm_vert *sv, const lattice *l, double scale, int frac,
                                const vref *cv, uint32_t ncv)
{
    vref key, *hit;
    int k;
    for (k = 0; k < 3; k++) {
        long q = lround(ldexp(coords_of(sv, k, scale, frac) - l->origin[k], -(int)l->shift));
        if (q < 0 || q > 65535)
            return NO_POINT;
        key.p[k] = (int32_t)q;
    }
    hit = ncv ? bsearch(&key, cv, ncv, sizeof *cv, cmp_point) : NULL;
    return hit ? hit->slot : NO_POINT;
}

/* Smallest shift putting every offset from the centre in int16. */
static uint32_t pick_shift(int64_t maxoff)
{
    uint32_t sh = 0;
    while (sh < RR_RMESH_POS_SHIFT_MAX && (maxoff + ((int64_t)1 << sh >> 1)) >> sh > 32767)
        sh++;
    return sh;
}

static uint32_t pick_uv_frac(double maxuv)
{
    uint32_t f = 15;
    while (f > 0 && ldexp(maxuv, (int)f) > 32767.0)
        f--;
    return f;
}

static int16_t q16(double v)
{
    long x = lround(v);
    return (int16_t)(x > 32767 ? 32767 : x < -32768 ? -32768 : x);
}

/* Centre and step of the render-only positions (the vertices whose point
 * is NO_POINT): centre of their box, the smallest step that fits them. */
static void render_params(const rsrc *g, uint32_t ng, const uint32_t *point, double scale,
                          int frac, rr_rmesh_rhead *rh)
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    int64_t maxoff = 0;
    uint32_t i, v, n = 0;
    int k;
    for (i = 0; i < ng; i++)
        for (v = 0; v < g[i].s->nverts; v++, n++)
            for (k = 0; k < 3 && point[n] == NO_POINT; k++) {
                double c = coords_of(&g[i].s->verts[v], k, scale, frac);
                lo[k] = fmin(lo[k], c);
                hi[k] = fmax(hi[k], c);
            }
    for (k = 0; k < 3; k++) {
        rh->center[k] = lo[k] <= hi[k] ? (int32_t)lround((lo[k] + hi[k]) / 2) : 0;
        if (lo[k] <= hi[k] && (int64_t)ceil(hi[k] - rh->center[k]) > maxoff)
            maxoff = (int64_t)ceil(hi[k] - rh->center[k]);
        if (lo[k] <= hi[k] && (int64_t)ceil(rh->center[k] - lo[k]) > maxoff)
            maxoff = (int64_t)ceil(rh->center[k] - lo[k]);
    }
    rh->pos_shift = (uint8_t)pick_shift(maxoff + 1);
    rh->uv_frac = 15;
}

/* A lightmap UV in Q16.16 (exact: a float times 2^16), clamped to +-8,192
 * UV units (2^29), far beyond any lightmap atlas, so that the group's box
 * keeps within RR_RMESH_LM_MIN_MAX and RR_RMESH_LM_STEP_MAX. */
static double lm_q16(float uv)
{
    double x = ldexp((double)uv, 16), lim = ldexp(1.0, 29);
    return x > lim ? lim : x < -lim ? -lim : x;
}

/* The group's UV encoding: the diffuse fraction, the largest that fits its
 * diffuse UVs in int16, and its lightmap UV box per axis: lm_min the floor
 * of the smallest UV, lm_step the smallest that puts the largest within
 * 4,095 steps (so every UV is within half a step of a box point). */
static void group_uv(const rrb_rm_surf *s, rr_rmesh_rgroup *g, rr_rmesh_rhead *rh)
{
    double m0 = 0, lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    uint32_t v;
    int k;
    for (v = 0; v < s->nverts; v++)
        for (k = 0; k < 2; k++) {
            m0 = fmax(m0, fabs((double)s->verts[v].uv0[k]));
            lo[k] = fmin(lo[k], lm_q16(s->verts[v].uv1[k]));
            hi[k] = fmax(hi[k], lm_q16(s->verts[v].uv1[k]));
        }
    g->uv_frac = (uint8_t)pick_uv_frac(m0);
    rh->uv_frac = g->uv_frac < rh->uv_frac ? g->uv_frac : rh->uv_frac;
    for (k = 0; k < 2 && s->nverts; k++) {
        double step = ceil((hi[k] - floor(lo[k])) / 4095.0);
        g->lm_min[k] = (int32_t)floor(lo[k]);
        g->lm_step[k] = step < 1 ? 1u : step > RR_RMESH_LM_STEP_MAX ? RR_RMESH_LM_STEP_MAX
                                                                     : (uint32_t)step;
    }
}

/* A lightmap UV as its two 12-bit numbers on the group's box, packed in
 * three bytes (rr_rmesh_rlmuv). */
static void pack_lm(const rrb_rm_vert *sv, const rr_rmesh_rgroup *g, rr_rmesh_rlmuv *out)
{
    uint32_t n[2];
    int k;
    for (k = 0; k < 2; k++) {
        long q = lround((lm_q16(sv->uv1[k]) - g->lm_min[k]) / g->lm_step[k]);
        n[k] = q < 0 ? 0u : q > 4095 ? 4095u : (uint32_t)q;
    }
    out->uv[0] = (uint8_t)(n[0] & 0xffu);
    out->uv[1] = (uint8_t)(n[0] >> 8 | (n[1] & 15u) << 4);
    out->uv[2] = (uint8_t)(n[1] >> 4);
}

/* Does every vertex of the surface have the same colour? */
static int one_colour(const rrb_rm_surf *s)
{
    uint32_t v;
    for (v = 1; v < s->nverts; v++)
        if (memcmp(s->verts[v].rgb, s->verts[0].rgb, 3) != 0)
            return 0;
    return 1;
}

/* The collision vertices of the blob (added before) as vrefs of their
 * lattice numbers and index in VERTS, sorted by point so that a render
 * vertex finds its point by binary search (collision_point). */
static vref *collision_keys(const rrb_blob *blob, uint32_t *n)
{
    const rr_rmesh_vert *v = rrb_blob_records(blob, RR_SEC_RMESH_VERTS, n);
    vref *cv = rrb_xcalloc(*n + 1, sizeof *cv);
    uint32_t i;
    int k;
    for (i = 0; i < *n; i++) {
        for (k = 0; k < 3; k++)
            cv[i].p[k] = v[i].q[k];
        cv[i].slot = i;
    }
    qsort(cv, *n, sizeof *cv, cmp_point);
    return cv;
}

/* Each render vertex's position number (rr_rmesh_rvert.pos): its collision
 * vertex when the lattice point nearest to it is one, else a render-only
 * position numbered after the collision vertices (identical ones share a
 * record). Returns the RPOS records and their count in *npos, or NULL with
 * an error message when the numbers do not fit 16 bits. */
static rr_rmesh_rpos *render_points(const rrb_blob *blob, const rsrc *g, uint32_t ng,
                                    const lattice *l, double scale, int frac,
                                    rr_rmesh_rhead *rh, rr_rmesh_rvert *rv, uint32_t nv,
                                    uint32_t *npos, char *err, size_t errcap, const char *path)
{
    uint32_t ncv, i, v, n = 0, nr = 0;
    vref *cv = collision_keys(blob, &ncv);
    uint32_t *point = rrb_xcalloc(nv + 1, sizeof *point);
    vref *r = rrb_xcalloc(nv + 1, sizeof *r);
    rr_rmesh_rpos *out = rrb_xcalloc(nv + 1, sizeof *out);
    int k;
    for (i = 0; i < ng; i++)
        for (v = 0; v < g[i].s->nverts; v++)
            point[n++] = collision_point(&g[i].s->verts[v], l, scale, frac, cv, ncv);
    render_params(g, ng, point, scale, frac, rh);
    for (i = 0, n = 0; i < ng; i++)
        for (v = 0; v < g[i].s->nverts; v++, n++) {
            if (point[n] != NO_POINT) {
                rv[n].pos = (uint16_t)point[n];
                continue;
            }
            for (k = 0; k < 3; k++)   /* render-only: quantized offset, vertex number */
                r[nr].p[k] = q16(ldexp(coords_of(&g[i].s->verts[v], k, scale, frac) -
                                       rh->center[k], -(int)rh->pos_shift));
            r[nr++].slot = n;
        }
    qsort(r, nr, sizeof *r, cmp_vref);
    *npos = 0;
    for (i = 0; i < nr; i++) {
        if (i == 0 || cmp_point(&r[i], &r[i - 1]) != 0) {
            for (k = 0; k < 3; k++)   /* q16 made them int16 */
                out[*npos].p[k] = (int16_t)r[i].p[k];
            (*npos)++;
        }
        rv[r[i].slot].pos = (uint16_t)(ncv + *npos - 1);
    }
    free(cv);
    free(point);
    free(r);
    if (ncv + *npos > 65536u) {
        snprintf(err, errcap, "%s: %u collision vertices and %u render-only positions exceed "
                 "the 65,536 position numbers of the render data (bake it --collision-only)",
                 path, ncv, *npos);
        free(out);
        return NULL;
    }
    return out;
}

/* The render data's arrays, as the sections store them. */
typedef struct render_arrays {
    rr_rmesh_rgroup *gr;
    rr_rmesh_rvert *rv;   /* its pos fields set by render_points */
    rr_rmesh_rlmuv *lm;
    rr_rmesh_rcolor *rc;
    uint16_t *ix;         /* 16-bit render vertex numbers, before encode_indices */
    uint32_t nv, ni, nc;
} render_arrays;

/* The render groups' sources: every surface with collision, then every one
 * without, with their vertex and index counts (*total in 64 bits: the
 * file's counts are 32-bit). */
static rsrc *render_sources(const rrb_rmesh *m, uint32_t ng, uint64_t *total, uint32_t *nv,
                            uint32_t *ni)
{
    rsrc *g = rrb_xcalloc(ng + 1, sizeof *g);
    uint32_t i;
    *total = 0, *nv = 0, *ni = 0;
    for (i = 0; i < ng; i++) {
        g[i].s = i < m->nsurf ? &m->surf[i] : &m->nocoll[i - m->nsurf];
        g[i].surface = i < m->nsurf ? i : m->ninvis + i;
        g[i].flags = (rrb_rmesh_surf_alpha(g[i].s) ? RR_RMESH_GROUP_ALPHA : 0) |
                     (i >= m->nsurf ? RR_RMESH_GROUP_NOCOLL : 0);
        *total += g[i].s->nverts;
        *nv += g[i].s->nverts;
        *ni += 3 * g[i].s->ntris;
    }
    return g;
}

/* Each group's record (its runs of vertices, indices and colours, its UV
 * scale), its vertices' UVs and lightmap UVs, its colours (one for the
 * group when all its vertices share it) and its triangles' render vertex
 * numbers. */
static void fill_groups(const rsrc *g, uint32_t ng, rr_rmesh_rhead *rh, render_arrays *a)
{
    uint32_t i, v;
    a->nv = a->ni = a->nc = 0;
    for (i = 0; i < ng; i++) {
        const rrb_rm_surf *s = g[i].s;
        rr_rmesh_rgroup *gr = &a->gr[i];
        gr->surface = (uint16_t)g[i].surface;
        gr->flags = (uint8_t)g[i].flags;
        group_uv(s, gr, rh);
        gr->first_vert = a->nv;
        gr->nverts = s->nverts;
        gr->first_index = a->ni;
        gr->nindices = 3 * s->ntris;
        gr->first_color = a->nc;
        if (s->nverts && one_colour(s))   /* the group's colour */
            memcpy(gr->rgb, s->verts[0].rgb, 3);
        else if (s->nverts) {             /* one colour per vertex */
            gr->ncolors = s->nverts;
            for (v = 0; v < s->nverts; v++)
                memcpy(a->rc[a->nc++].rgb, s->verts[v].rgb, 3);
        }
        for (v = 0; v < s->nverts; v++, a->nv++) {
            int k;
            for (k = 0; k < 2; k++)
                a->rv[a->nv].uv0[k] = q16(ldexp((double)s->verts[v].uv0[k], gr->uv_frac));
            pack_lm(&s->verts[v], gr, &a->lm[a->nv]);
        }
        for (v = 0; v < 3 * s->ntris; v++)   /* global render vertex numbers */
            a->ix[a->ni++] = (uint16_t)(gr->first_vert + s->idx[v]);
    }
}

static int add_render(rrb_blob *blob, const rrb_rmesh *m, const lattice *l, double scale,
                      int frac, char *err, size_t errcap, const char *path)
{
    uint32_t ng = m->nsurf + m->nnocoll, v, nv, ni, npos, nixb, ishift;
    uint64_t total;
    rsrc *g = render_sources(m, ng, &total, &nv, &ni);
    rr_rmesh_rhead rh;
    rr_rmesh_rpos *rp;
    render_arrays a;
    uint8_t *ixb;
    int rc = -1;
    memset(&rh, 0, sizeof rh);
    memset(&a, 0, sizeof a);
    /* 16-bit render vertex numbers (RINDEX) over the whole room */
    if (total > 65536u) {
        snprintf(err, errcap, "%s: %llu render vertices exceed the 65,536 render vertex numbers "
                 "of a full blob (16-bit indices; bake it --collision-only)", path,
                 (unsigned long long)total);
        free(g);
        return -1;
    }
    a.rv = rrb_xcalloc(nv + 1, sizeof *a.rv);
    rp = render_points(blob, g, ng, l, scale, frac, &rh, a.rv, nv, &npos, err, errcap, path);
    if (!rp) {
        free(g);
        free(a.rv);
        return -1;
    }
    a.gr = rrb_xcalloc(ng + 1, sizeof *a.gr);
    a.ix = rrb_xcalloc(ni + 1, sizeof *a.ix);
    a.rc = rrb_xcalloc(nv + 1, sizeof *a.rc);
    a.lm = rrb_xcalloc(nv + 1, sizeof *a.lm);
    fill_groups(g, ng, &rh, &a);
    rh.ngroups = ng;
    rh.nverts = a.nv;
    rh.nindices = a.ni;
    rh.npos = npos;
    rh.ncolors = a.nc;
    rh.nlmuv = a.nv;
    ixb = encode_indices(a.ix, a.ni, &nixb, &ishift);
    rh.ishift = (uint8_t)ishift;
    for (v = 0; v < a.ni && index_vertex(ixb, a.ni, ishift, v) == a.ix[v]; v++)
        ;   /* the encoding gives back every number */
    if (v < a.ni) {
        snprintf(err, errcap, "%s: internal error: render index %u encodes wrongly", path, v);
    } else {
        rrb_blob_add(blob, RR_SEC_RMESH_RHEAD, &rh, 1, sizeof rh, NULL);
        rrb_blob_add(blob, RR_SEC_RMESH_RGROUPS, a.gr, ng, sizeof *a.gr, NULL);
        rrb_blob_add(blob, RR_SEC_RMESH_RVERTS, a.rv, a.nv, sizeof *a.rv, NULL);
        rrb_blob_add(blob, RR_SEC_RMESH_RINDEX, ixb, nixb, 1, NULL);
        if (npos)
            rrb_blob_add(blob, RR_SEC_RMESH_RPOS, rp, npos, sizeof *rp, NULL);
        if (a.nc)
            rrb_blob_add(blob, RR_SEC_RMESH_RCOLORS, a.rc, a.nc, sizeof *a.rc, NULL);
        if (a.nv)
            rrb_blob_add(blob, RR_SEC_RMESH_RLMUV, a.lm, a.nv, sizeof *a.lm, NULL);
        rc = 0;
    }
    free(g), free(a.lm), free(a.gr), free(a.rv), free(rp), free(a.rc), free(a.ix), free(ixb);
    return rc;
}

static void add_info(rrb_blob *blob, const rrb_rmesh *m, const char *path,
                     const rr_rmesh_head *h)
{
    rr_blob_info bi;
    const char *base = strrchr(path, '/');
    int k;
    memset(&bi, 0, sizeof bi);
    bi.source_size = (uint32_t)m->size;
    bi.source_name = rrb_blob_string(blob, base ? base + 1 : path);
    bi.variant = (uint32_t)m->variant;
    for (k = 0; k < 3; k++) {
        bi.bbox_min[k] = h->bmin[k];
        bi.bbox_max[k] = h->bmax[k];
    }
    rrb_blob_add(blob, RR_SEC_INFO, &bi, 1, sizeof bi, NULL);
}

/* The collision tree of a room: its triangles quantized on the room's
 * lattice and ordered into BVH leaves, within the blob's 16-bit limits. */
typedef struct coll_tree {
    bvh b;
    lattice lat;
    int frac;          /* coord_frac: coords are units * 2^frac */
    size_t n, nsoup;   /* triangles kept, source collision triangles */
    uint32_t nverts;   /* collision vertices */
} coll_tree;

/* Build the tree into t; 0 or -1 with the message in err (t then holds
 * nothing to free). */
static int build_tree(const rrb_rmesh *m, double scale, const char *path, coll_tree *t,
                      rr_rmesh_head *h, char *err, size_t errcap)
{
    rrb_rm_soup soup;
    double pos, len;
    memset(t, 0, sizeof *t);
    rrb_rmesh_soup(m, scale, &soup);
    extents(m, &soup, scale, &pos, &len);
    t->frac = pick_frac(pos, len);
    if (t->frac < 0) {
        snprintf(err, errcap, "%s: room extent %.1f units (or a range of %.1f) exceeds what an "
                 "RMesh blob holds (%d units at coord_frac 0)", path, pos, len,
                 RR_RMESH_COORD_MAX - 1);
        rrb_rmesh_soup_free(&soup);
        return -1;
    }
    pick_lattice(&soup, t->frac, &t->lat);
    t->nsoup = soup.ntris;
    t->b.t = quantize(&soup, &t->lat, t->frac, &t->n, &h->dropped);
    rrb_rmesh_soup_free(&soup);
    if (t->n) {
        build(&t->b, 0, t->n, 1);
        t->nverts = count_verts(t->b.t, t->n);
    }
    /* 16-bit numbers: source and blob triangles (src, leaf runs), nodes and
     * vertices; a leaf count below RR_RMESH_LEAF */
    if (t->b.depth > RR_MAX_DEPTH || t->nsoup > 0xffffu || t->b.nnodes > 0xffffu ||
        t->nverts > 65536u || m->nsurf + m->ninvis + m->nnocoll > 0xffffu) {
        snprintf(err, errcap, "%s: BVH depth %u (max %d), %zu collision triangles (max 65535), "
                 "%zu nodes (max 65535), %u collision vertices (max 65536) or %u surfaces "
                 "(max 65535) exceed the blob limits", path, t->b.depth, RR_MAX_DEPTH, t->nsoup,
                 t->b.nnodes, t->nverts, m->nsurf + m->ninvis + m->nnocoll);
        free(t->b.t);
        free(t->b.nodes);
        return -1;
    }
    return 0;
}

rrb_blob *rrb_rmesh_bake_model(const rrb_rmesh *m, const char *path, const rrb_opts *opts,
                               char *err, size_t errcap)
{
    double scale = opts && opts->room_scale ? ROOM_SCALE : 1.0;
    rr_rmesh_head h;
    coll_tree t;
    size_t n;
    uint32_t nrtris = 0, nexpl = 0, *key = NULL;
    int full = !(opts && opts->collision_only);
    rr_rmesh_tri *all = NULL;
    rrb_blob *blob = NULL;
    memset(&h, 0, sizeof h);
    if (build_tree(m, scale, path, &t, &h, err, errcap))
        return NULL;
    if (full) {
        key = source_keys(m, t.b.t, t.n, t.nsoup, &nrtris, &nexpl);
        if ((uint64_t)nrtris + nexpl > 65536u) {
            snprintf(err, errcap, "%s: %u render triangles and %u invisible collision triangles "
                     "exceed the 65,536 triangle keys of a full blob (bake it --collision-only)",
                     path, nrtris, nexpl);
            goto done;
        }
    }
    blob = rrb_blob_new(RR_FMT_RMESH, (uint32_t)t.frac);
    h.ntris = (uint32_t)t.n;
    h.nnodes = (uint32_t)t.b.nnodes;
    h.ntriggers = m->ntrig;
    h.flags = scale != 1.0 ? RR_RMESH_ROOM_SCALE : 0;
    h.variant = (uint32_t)m->variant;
    for (n = 0; n < m->nsurf; n++)
        h.alpha_tris += rrb_rmesh_surf_alpha(&m->surf[n]) ? m->surf[n].ntris : 0;
    add_geometry(blob, &t.b, h.ntris, &t.lat, &h, key, nrtris, nexpl, &all);
    add_surfaces(blob, m, &h);
    add_triggers(blob, m, scale, t.frac);
    h.nents = add_entities(blob, m, scale, t.frac);
    if (full && (add_render(blob, m, &t.lat, scale, t.frac, err, errcap, path) ||
                 check_render_corners(blob, all, h.ntris, nrtris, path, err, errcap))) {
        rrb_blob_free(blob);
        blob = NULL;
        goto done;
    }
    add_info(blob, m, path, &h);
    rrb_blob_add(blob, RR_SEC_RMESH_HEAD, &h, 1, sizeof h, NULL);
    rrb_blob_set_depth(blob, t.b.depth);
    rrb_blob_set_arena(blob, RR_RMESH_ARENA(t.b.depth));
done:
    free(key);
    free(all);
    free(t.b.t);
    free(t.b.nodes);
    return blob;
}

rrb_blob *rrb_rmesh_bake(const uint8_t *data, size_t size, const char *path,
                         const rrb_opts *opts, char *err, size_t errcap)
{
    rrb_rmesh m;
    rrb_blob *b;
    if (rrb_rmesh_load(data, size, path, opts, stderr, &m, err, errcap))
        return NULL;
    b = rrb_rmesh_bake_model(&m, path, opts, err, errcap);
    rrb_rmesh_free(&m);
    return b;
}

/* rrb_rmf_bake.c - RMF map -> RMF room blob (loader/rr_rmf_blob.h).
 *
 * 1. Every solid becomes a convex brush. Face planes are rebuilt from the
 *    vertices (Newell's method, outward normal: NOTES §2.7, §7.4), never from
 *    the stored plane points. A normal within 1e-5 of an axis snaps to it.
 *    The normal is rounded to Q16.16; dist = ceil(max over the face's
 *    vertices of n_q.v) in coords, so every vertex is inside its brush.
 *    Each brush gets its six axial sides (Quake III "bevels", added where the
 *    source has none) so its bounds are exact. Planes are deduplicated on
 *    their exact quantized values: the dedup epsilon is the quantum (2^-16 in
 *    the normal, one coord in dist).
 * 2. Contents per brush from its owning entity by a table (below; the
 *    environment variable RRB_RMF_CONTENTS="class=contents,prefix*=contents"
 *    adds rules in front of it; contents are solid, water, trigger, nonsolid
 *    or a number).
 * 3. A kd-style brush BSP: nodes split on axial planes chosen by the surface
 *    area heuristic over the brush bounds; leaves list brushes; a brush that
 *    straddles a split is in both subtrees. Children are created after their
 *    parent, so child index > parent index. At most RRB_RMF_TREE_DEPTH levels.
 * 4. coord_frac: the largest f in 0..8 with max|coord| * 2^f <= 2^20 (so any
 *    map up to +-1,048,576 units fits; +-16384 gets 1/64 unit). Larger maps
 *    are rejected.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_rmf_blob.h"
#include "rrb_rmf.h"

#define RRB_RMF_TREE_DEPTH 48   /* <= RR_MAX_DEPTH (64) */
#define RRB_RMF_LEAF_BRUSHES 2  /* stop splitting at this many brushes */
#define RRB_RMF_COORD_LIMIT RR_RMF_MAX_BOUNDS   /* rr_open checks the header bounds against it */

typedef struct rule {
    char pattern[64];
    uint32_t contents;
} rule;

/* The default contents table (first match wins; '*' at the end = prefix). */
static const rule default_rules[] = {
    {"worldspawn", RR_RMF_SOLID},     {"func_water", RR_RMF_WATER},
    {"func_lava", RR_RMF_WATER},      {"func_slime", RR_RMF_WATER},
    {"trigger_*", RR_RMF_TRIGGER},    {"func_illusionary", RR_RMF_NONSOLID},
    {"*", RR_RMF_SOLID},
};

typedef struct baker {
    const rrb_rmf_map *m;
    const char *path;
    int frac;
    double scale;
    rule *rules;
    int nrules;
    rr_rmf_plane *planes;
    size_t nplanes, cap_planes;
    int32_t *hash;           /* open addressing: plane index + 1 */
    size_t hash_cap;
    uint32_t *sides;
    size_t nsides, cap_sides;
    rr_rmf_brush *brushes;
    size_t nbrushes, cap_brushes;
    rr_rmf_node *nodes;
    size_t nnodes, cap_nodes;
    rr_rmf_leaf *leaves;
    size_t nleaves, cap_leaves;
    uint32_t *refs;
    size_t nrefs, cap_refs;
    int tree_depth;
    char *err;
    size_t errcap;
} baker;

static int match(const char *pat, const char *s)
{
    size_t n = strlen(pat);
    if (n && pat[n - 1] == '*')
        return strncmp(pat, s, n - 1) == 0;
    return strcmp(pat, s) == 0;
}

static uint32_t contents_of(const baker *b, const char *cls)
{
    int i;
    for (i = 0; i < b->nrules; i++)
        if (match(b->rules[i].pattern, cls))
            return b->rules[i].contents;
    return RR_RMF_SOLID;
}

static int parse_rules(baker *b, const rrb_opts *o)
{
    static const char *const names[] = {"solid", "water", "trigger", "nonsolid"};
    const char *env = o && o->contents_rules ? o->contents_rules : getenv("RRB_RMF_CONTENTS");
    size_t nd = sizeof default_rules / sizeof default_rules[0], cap = nd + 1;
    char buf[1024], *tok, *save = NULL;
    b->rules = rrb_xmalloc(cap * sizeof *b->rules);
    if (env && *env) {
        snprintf(buf, sizeof buf, "%s", env);
        for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(tok, '=');
            rule r;
            int i;
            if (!eq || eq == tok || (size_t)(eq - tok) >= sizeof r.pattern) {
                snprintf(b->err, b->errcap, "%s: contents rules (--contents or "
                         "RRB_RMF_CONTENTS): expected class=contents, found \"%s\"",
                         b->path, tok);
                return -1;
            }
            memset(&r, 0, sizeof r);
            memcpy(r.pattern, tok, (size_t)(eq - tok));
            r.contents = (uint32_t)strtoul(eq + 1, NULL, 0);
            for (i = 0; i < 4; i++)
                if (strcmp(eq + 1, names[i]) == 0)
                    r.contents = 1u << i;
            b->rules = rrb_grow(b->rules, &cap, (size_t)b->nrules + 1 + nd, sizeof *b->rules);
            b->rules[b->nrules++] = r;
        }
    }
    memcpy(b->rules + b->nrules, default_rules, sizeof default_rules);
    b->nrules += (int)nd;
    return 0;
}

/* ---- coordinates ------------------------------------------------------- */

static double max_abs3(double m, const float v[3])
{
    int i;
    for (i = 0; i < 3; i++)
        if (fabs((double)v[i]) > m)
            m = fabs((double)v[i]);
    return m;
}

static int choose_frac(baker *b)
{
    const rrb_rmf_map *m = b->m;
    double mx = 1;
    int i, j;
    for (i = 0; i < m->nfaces; i++)
        for (j = 0; j < m->faces[i].nverts; j++)
            mx = max_abs3(mx, m->faces[i].verts[j]);
    for (i = 0; i < m->nobjs; i++)
        if (m->objs[i].kind == RRB_RMF_ENTITY)
            mx = max_abs3(mx, m->objs[i].origin);
    for (i = 0; i < m->ncameras; i++)
        mx = max_abs3(max_abs3(mx, m->cameras[i].eye), m->cameras[i].look);
    for (i = 0; i < m->npaths; i++)
        for (j = 0; j < m->paths[i].nnodes; j++)
            mx = max_abs3(mx, m->paths[i].nodes[j].pos);
    if (mx + 2 > RRB_RMF_COORD_LIMIT) {
        snprintf(b->err, b->errcap, "%s:0x0: expected coordinates within +-%d units, found "
                 "%.1f", b->path, RRB_RMF_COORD_LIMIT - 2, mx);
        return -1;
    }
    for (b->frac = 8; b->frac > 0 && (mx + 2) * (1 << b->frac) > RRB_RMF_COORD_LIMIT;)
        b->frac--;
    b->scale = (double)(1 << b->frac);
    return 0;
}

static int32_t coord(const baker *b, double v)
{
    return (int32_t)lround(v * b->scale);
}

/* ---- planes ------------------------------------------------------------ */

static uint32_t plane_hash(const rr_rmf_plane *p)
{
    uint32_t h = 2166136261u;
    int i;
    for (i = 0; i < 3; i++)
        h = (h ^ (uint32_t)p->normal[i]) * 16777619u;
    return (h ^ (uint32_t)p->dist) * 16777619u;
}

static void rehash(baker *b);

static uint32_t add_plane(baker *b, const int32_t n[3], int32_t dist)
{
    rr_rmf_plane p;
    size_t h;
    int i;
    memset(&p, 0, sizeof p);
    memcpy(p.normal, n, sizeof p.normal);
    p.dist = dist;
    p.type = 3;
    for (i = 0; i < 3; i++) {
        if (n[i] == 65536 || n[i] == -65536)
            p.type = (uint8_t)i;
        if (n[i] < 0)
            p.signbits = (uint8_t)(p.signbits | 1u << i);
    }
    if ((b->nplanes + 1) * 2 > b->hash_cap)
        rehash(b);
    for (h = plane_hash(&p) & (b->hash_cap - 1); b->hash[h]; h = (h + 1) & (b->hash_cap - 1)) {
        const rr_rmf_plane *q = &b->planes[b->hash[h] - 1];
        if (!memcmp(q->normal, p.normal, sizeof p.normal) && q->dist == p.dist)
            return (uint32_t)(b->hash[h] - 1);
    }
    b->planes = rrb_grow(b->planes, &b->cap_planes, b->nplanes + 1, sizeof *b->planes);
    b->planes[b->nplanes] = p;
    b->hash[h] = (int32_t)++b->nplanes;
    return (uint32_t)(b->nplanes - 1);
}

static void rehash(baker *b)
{
    size_t i, cap = b->hash_cap ? b->hash_cap * 2 : 1024;
    free(b->hash);
    b->hash = rrb_xcalloc(cap, sizeof *b->hash);
    b->hash_cap = cap;
    for (i = 0; i < b->nplanes; i++) {
        size_t h = plane_hash(&b->planes[i]) & (cap - 1);
        while (b->hash[h])
            h = (h + 1) & (cap - 1);
        b->hash[h] = (int32_t)(i + 1);
    }
}

/* Quantized outward normal of a face (Q16.16) and its conservative dist. */
static int face_plane_q(const baker *b, const rrb_rmf_face *f, int32_t q[3], int32_t *dist)
{
    double n[3], d, mx = -HUGE_VAL;
    int i;
    if (rrb_rmf_face_plane(f, n, &d))
        return -1;
    for (i = 0; i < 3; i++)
        if (fabs(n[i]) > 1 - 1e-5) {
            double sign = n[i] > 0 ? 1 : -1;
            n[0] = n[1] = n[2] = 0;
            n[i] = sign;
            break;
        }
    for (i = 0; i < 3; i++)
        q[i] = (int32_t)lround(n[i] * 65536);
    for (i = 0; i < f->nverts; i++) {
        double s = ((double)q[0] * (double)f->verts[i][0] + (double)q[1] * (double)f->verts[i][1] +
                    (double)q[2] * (double)f->verts[i][2]) / 65536;
        if (s > mx)
            mx = s;
    }
    *dist = (int32_t)ceil(mx * b->scale - 1e-6);
    return 0;
}

static void add_side(baker *b, size_t first, uint32_t plane)
{
    size_t i;
    for (i = first; i < b->nsides; i++)
        if (b->sides[i] == plane)
            return;
    b->sides = rrb_grow(b->sides, &b->cap_sides, b->nsides + 1, sizeof *b->sides);
    b->sides[b->nsides++] = plane;
}

/* Axial side (axis a, sign s) of the brush sides [first, nsides), or -1. */
static int64_t axial_dist(const baker *b, size_t first, int a, int s, int *found)
{
    size_t i;
    *found = 0;
    for (i = first; i < b->nsides; i++) {
        const rr_rmf_plane *p = &b->planes[b->sides[i]];
        if (p->type == a && (p->normal[a] > 0) == (s > 0)) {
            *found = 1;
            return p->dist;
        }
    }
    return 0;
}

/* Largest n.v over every vertex of a solid. */
static double solid_max_dot(const rrb_rmf_map *m, const rrb_rmf_obj *o, const double n[3])
{
    double mx = -HUGE_VAL;
    int i, j;
    for (i = 0; i < o->nfaces; i++) {
        const rrb_rmf_face *f = &m->faces[o->first_face + i];
        for (j = 0; j < f->nverts; j++) {
            double d = n[0] * (double)f->verts[j][0] + n[1] * (double)f->verts[j][1] +
                       n[2] * (double)f->verts[j][2];
            if (d > mx)
                mx = d;
        }
    }
    return mx;
}

/* Edge bevels (q3map's AddBrushBevels): for every face edge and every axis
 * direction, the plane through the edge parallel to that axis, when the
 * whole solid lies behind it (within RRB_RMF_BEVEL_TOL units). With them, a
 * box moving past an outside edge of a sloped brush is not stopped early by
 * the extension of a face plane. They never cut the solid: dist is the
 * conservative max over all its vertices. */
#define RRB_RMF_BEVEL_TOL 0.1
static void edge_bevels(baker *b, const rrb_rmf_obj *o, size_t first)
{
    const rrb_rmf_map *m = b->m;
    int i, j, a, s, k;
    for (i = 0; i < o->nfaces; i++) {
        const rrb_rmf_face *f = &m->faces[o->first_face + i];
        for (j = 0; j < f->nverts; j++) {
            const float *v1 = f->verts[j], *v2 = f->verts[(j + 1) % f->nverts];
            double e[3], n[3], len, d;
            int32_t q[3];
            for (k = 0; k < 3; k++)
                e[k] = (double)v2[k] - (double)v1[k];
            for (a = 0; a < 3; a++)
                for (s = -1; s <= 1; s += 2) {
                    double ax[3] = {0, 0, 0};
                    ax[a] = s;
                    n[0] = e[1] * ax[2] - e[2] * ax[1];
                    n[1] = e[2] * ax[0] - e[0] * ax[2];
                    n[2] = e[0] * ax[1] - e[1] * ax[0];
                    len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                    if (len < 0.01)
                        continue;
                    for (k = 0; k < 3; k++)
                        n[k] /= len;
                    if (fabs(n[0]) > 1 - 1e-5 || fabs(n[1]) > 1 - 1e-5 || fabs(n[2]) > 1 - 1e-5)
                        continue;   /* axial: the six bevels cover it */
                    d = n[0] * (double)v1[0] + n[1] * (double)v1[1] + n[2] * (double)v1[2];
                    if (solid_max_dot(m, o, n) - d > RRB_RMF_BEVEL_TOL)
                        continue;   /* the solid reaches past it: not a bevel */
                    for (k = 0; k < 3; k++)
                        q[k] = (int32_t)lround(n[k] * 65536);
                    {
                        double qd[3] = {q[0] / 65536.0, q[1] / 65536.0, q[2] / 65536.0};
                        add_side(b, first, add_plane(b, q, (int32_t)ceil(
                            solid_max_dot(m, o, qd) * b->scale - 1e-6)));
                    }
                }
        }
    }
}

/* The six bevels and the brush bounds. */
static void finish_brush(baker *b, const rrb_rmf_obj *o, size_t first, rr_rmf_brush *br)
{
    const rrb_rmf_map *m = b->m;
    int a, s, i, j;
    for (a = 0; a < 3; a++)
        for (s = -1; s <= 1; s += 2) {
            int found;
            int32_t q[3] = {0, 0, 0};
            double mx = -HUGE_VAL;
            axial_dist(b, first, a, s, &found);
            if (found)
                continue;
            q[a] = s * 65536;
            for (i = 0; i < o->nfaces; i++)
                for (j = 0; j < m->faces[o->first_face + i].nverts; j++)
                    if (s * (double)m->faces[o->first_face + i].verts[j][a] > mx)
                        mx = s * (double)m->faces[o->first_face + i].verts[j][a];
            add_side(b, first, add_plane(b, q, (int32_t)ceil(mx * b->scale - 1e-6)));
        }
    for (a = 0; a < 3; a++) {
        int f1, f2;
        br->maxs[a] = (int32_t)axial_dist(b, first, a, 1, &f1) + 1;
        br->mins[a] = -(int32_t)axial_dist(b, first, a, -1, &f2) - 1;
    }
}

/* The vertex centroid of a solid must lie inside its rebuilt brush. */
static int centroid_inside(const baker *b, const rrb_rmf_obj *o, size_t first)
{
    double c[3];
    size_t k;
    rrb_rmf_centroid(b->m, o, c);
    for (k = first; k < b->nsides; k++) {
        const rr_rmf_plane *p = &b->planes[b->sides[k]];
        double s = (p->normal[0] * c[0] + p->normal[1] * c[1] + p->normal[2] * c[2]) /
                   65536.0 * b->scale - p->dist;
        if (s >= 0)
            return 0;
    }
    return 1;
}

/* The brush's axial sides first, the others after them, each group in its
 * own order: a trace tests the axial ones in 32-bit arithmetic, and they
 * usually decide that a box misses the brush (or meets it only beyond the
 * nearest hit so far) before any sloped side's 64-bit test. */
static void axial_first(baker *b, size_t first)
{
    size_t n = b->nsides - first, i, k = 0;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    int pass;
    if (!tmp)
        return;   /* the order is only a speed-up */
    for (pass = 0; pass < 2; pass++)
        for (i = first; i < b->nsides; i++)
            if ((b->planes[b->sides[i]].type < 3) == (pass == 0))
                tmp[k++] = b->sides[i];
    memcpy(b->sides + first, tmp, n * sizeof *tmp);
    free(tmp);
}

static int add_brush(baker *b, int obj, uint32_t entity, uint32_t contents)
{
    const rrb_rmf_obj *o = &b->m->objs[obj];
    rr_rmf_brush br;
    size_t first = b->nsides;
    int i;
    memset(&br, 0, sizeof br);
    if (o->nfaces < 4) {
        snprintf(b->err, b->errcap, "%s:0x%zx: expected at least 4 faces in solid %d, found %d",
                 b->path, o->off, o->kind_index, o->nfaces);
        return -1;
    }
    for (i = 0; i < o->nfaces; i++) {
        int32_t q[3], d;
        if (face_plane_q(b, &b->m->faces[o->first_face + i], q, &d) == 0)
            add_side(b, first, add_plane(b, q, d));
    }
    finish_brush(b, o, first, &br);
    edge_bevels(b, o, first);
    if (b->nsides - first < 4 || !centroid_inside(b, o, first)) {
        snprintf(b->err, b->errcap, "%s:0x%zx: expected a convex solid enclosing its "
                 "vertices in solid %d, found one that is inside out or flat", b->path,
                 o->off, o->kind_index);
        return -1;
    }
    axial_first(b, first);
    br.first_side = (uint32_t)first;
    br.nsides = (uint32_t)(b->nsides - first);
    br.contents = contents;
    br.entity = entity;
    b->brushes = rrb_grow(b->brushes, &b->cap_brushes, b->nbrushes + 1, sizeof *b->brushes);
    b->brushes[b->nbrushes++] = br;
    return 0;
}

/* ---- the brush BSP ------------------------------------------------------ */

typedef struct task {
    uint32_t *list;
    size_t n;
    int32_t lo[3], hi[3];     /* the cell */
    int depth;
    int parent, slot;         /* where to link: parent node child[slot], -1 = root */
} task;

typedef struct split {
    int axis;
    int32_t v;
    double cost;
} split;

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static double half_area(const int32_t lo[3], const int32_t hi[3])
{
    double d0 = (double)hi[0] - lo[0], d1 = (double)hi[1] - lo[1], d2 = (double)hi[2] - lo[2];
    return d0 * d1 + d1 * d2 + d2 * d0 + 1e-9;
}

static size_t count_below(const int32_t *s, size_t n, int32_t v)  /* # s[i] < v */
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Best axial split of a task by the surface area heuristic (cost in brush
 * tests; a node visit counts as one). */
static split best_split(const baker *b, const task *t, int32_t *mins, int32_t *maxs)
{
    split best = {-1, 0, (double)t->n};
    double area = half_area(t->lo, t->hi);
    int a, k;
    size_t i;
    for (a = 0; a < 3; a++) {
        for (i = 0; i < t->n; i++) {
            mins[i] = b->brushes[t->list[i]].mins[a];
            maxs[i] = b->brushes[t->list[i]].maxs[a];
        }
        qsort(mins, t->n, sizeof *mins, cmp_i32);
        qsort(maxs, t->n, sizeof *maxs, cmp_i32);
        for (k = 0; k < 2; k++)
            for (i = 0; i < t->n; i++) {
                int32_t v = k ? maxs[i] : mins[i], lo[3], hi[3];
                size_t nb, nf;
                double c;
                if (v <= t->lo[a] || v >= t->hi[a])
                    continue;
                nb = count_below(mins, t->n, v);
                nf = t->n - count_below(maxs, t->n, v + 1);
                if (nb == t->n || nf == t->n)
                    continue;
                memcpy(lo, t->lo, sizeof lo), memcpy(hi, t->hi, sizeof hi);
                hi[a] = v;
                c = (double)nb * half_area(lo, hi);
                hi[a] = t->hi[a], lo[a] = v;
                c = 1 + (c + (double)nf * half_area(lo, hi)) / area;
                if (c < best.cost)
                    best.axis = a, best.v = v, best.cost = c;
            }
    }
    return best;
}

static void link_child(baker *b, const task *t, int32_t ref, int32_t *root)
{
    if (t->parent < 0)
        *root = ref;
    else
        b->nodes[t->parent].child[t->slot] = ref;
    if (t->depth + 1 > b->tree_depth && ref >= 0)
        b->tree_depth = t->depth + 1;
}

static void make_leaf(baker *b, const task *t, int32_t *root)
{
    b->leaves = rrb_grow(b->leaves, &b->cap_leaves, b->nleaves + 1, sizeof *b->leaves);
    b->leaves[b->nleaves].first = (uint32_t)b->nrefs;
    b->leaves[b->nleaves].count = (uint32_t)t->n;
    b->refs = rrb_grow(b->refs, &b->cap_refs, b->nrefs + t->n + 1, sizeof *b->refs);
    memcpy(b->refs + b->nrefs, t->list, t->n * sizeof *t->list);
    b->nrefs += t->n;
    link_child(b, t, -1 - (int32_t)b->nleaves++, root);
}

/* Split task t at s into two child tasks (front = out[0], back = out[1]). */
static void split_task(baker *b, const task *t, split s, task out[2])
{
    int32_t n[3] = {0, 0, 0};
    size_t i;
    int node = (int)b->nnodes;
    n[s.axis] = 65536;
    b->nodes = rrb_grow(b->nodes, &b->cap_nodes, b->nnodes + 1, sizeof *b->nodes);
    b->nodes[node].plane = add_plane(b, n, s.v);
    b->nodes[node].child[0] = b->nodes[node].child[1] = 0;
    b->nnodes++;
    for (i = 0; i < 2; i++) {
        out[i] = *t;
        out[i].list = rrb_xmalloc((t->n + 1) * sizeof *t->list);
        out[i].n = 0;
        out[i].depth = t->depth + 1;
        out[i].parent = node;
        out[i].slot = (int)i;
    }
    out[0].lo[s.axis] = s.v;
    out[1].hi[s.axis] = s.v;
    for (i = 0; i < t->n; i++) {
        const rr_rmf_brush *br = &b->brushes[t->list[i]];
        if (br->maxs[s.axis] > s.v)
            out[0].list[out[0].n++] = t->list[i];
        if (br->mins[s.axis] < s.v)
            out[1].list[out[1].n++] = t->list[i];
    }
}

static int32_t build_tree(baker *b, const int32_t lo[3], const int32_t hi[3])
{
    task *st = NULL, t;
    size_t cap = 0, sp = 0, i;
    int32_t root = -1;
    int32_t *mins = rrb_xmalloc((b->nbrushes + 1) * sizeof *mins);
    int32_t *maxs = rrb_xmalloc((b->nbrushes + 1) * sizeof *maxs);
    memset(&t, 0, sizeof t);
    t.list = rrb_xmalloc((b->nbrushes + 1) * sizeof *t.list);
    for (i = 0; i < b->nbrushes; i++)
        t.list[i] = (uint32_t)i;
    t.n = b->nbrushes, t.parent = -1;
    memcpy(t.lo, lo, sizeof t.lo), memcpy(t.hi, hi, sizeof t.hi);
    st = rrb_grow(st, &cap, 1, sizeof *st);
    st[sp++] = t;
    while (sp > 0) {
        split s;
        t = st[--sp];
        s.axis = -1;
        if (t.n > RRB_RMF_LEAF_BRUSHES && t.depth < RRB_RMF_TREE_DEPTH)
            s = best_split(b, &t, mins, maxs);
        if (s.axis < 0) {
            make_leaf(b, &t, &root);
        } else {
            task kids[2];
            split_task(b, &t, s, kids);
            link_child(b, &t, (int32_t)b->nnodes - 1, &root);
            st = rrb_grow(st, &cap, sp + 2, sizeof *st);
            st[sp++] = kids[1];
            st[sp++] = kids[0];
        }
        free(t.list);
    }
    free(st);
    free(mins);
    free(maxs);
    return root;
}

/* ---- entities, brushes in entity order ----------------------------------- */

typedef struct ents {
    rr_rmf_entity *e;
    size_t n, cap;
    rr_rmf_keyvalue *kv;
    size_t nkv, cap_kv;
} ents;

static void add_kvs(rrb_blob *blob, ents *E, const rrb_rmf_kv *kv, int n, uint32_t *first,
                    uint32_t *count)
{
    int i;
    *first = (uint32_t)E->nkv;
    *count = (uint32_t)n;
    E->kv = rrb_grow(E->kv, &E->cap_kv, E->nkv + (size_t)n + 1, sizeof *E->kv);
    for (i = 0; i < n; i++) {
        E->kv[E->nkv].key = rrb_blob_string(blob, kv[i].key.s);
        E->kv[E->nkv++].value = rrb_blob_string(blob, kv[i].value.s);
    }
}

/* One entity record and its brushes (the world's solids for obj 0). */
static int add_entity(baker *b, rrb_blob *blob, ents *E, int obj, const rrb_opts *o)
{
    const rrb_rmf_map *m = b->m;
    const rrb_rmf_obj *eo = &m->objs[obj];
    const char *tn = rrb_rmf_value(&eo->ent, "targetname");
    rr_rmf_entity r;
    uint32_t contents = contents_of(b, eo->ent.classname.s);
    int i;
    memset(&r, 0, sizeof r);
    r.classname = rrb_blob_string(blob, eo->ent.classname.s);
    r.targetname = rrb_blob_string(blob, tn ? tn : "");
    add_kvs(blob, E, eo->ent.kv, eo->ent.nkv, &r.first_kv, &r.nkv);
    for (i = 0; i < 3; i++)
        r.origin[i] = obj ? coord(b, eo->origin[i]) : 0;
    r.visgroup = eo->visgroup;
    r.spawnflags = (uint32_t)eo->ent.spawnflags;
    r.first_brush = (uint32_t)b->nbrushes;
    for (i = obj + 1; i < m->nobjs && m->objs[i].depth > eo->depth; i++) {
        if (m->objs[i].kind != RRB_RMF_SOLID || rrb_rmf_owner(m, i) != obj)
            continue;
        if (o && o->skip_hidden && rrb_rmf_hidden(m, i))
            continue;
        if (add_brush(b, i, (uint32_t)E->n, contents))
            return -1;
    }
    r.nbrushes = (uint32_t)b->nbrushes - r.first_brush;
    E->e = rrb_grow(E->e, &E->cap, E->n + 1, sizeof *E->e);
    E->e[E->n++] = r;
    return 0;
}

static int add_entities(baker *b, rrb_blob *blob, ents *E, const rrb_opts *o)
{
    const rrb_rmf_map *m = b->m;
    int i;
    for (i = 0; i < m->nobjs; i++) {
        if (m->objs[i].kind != RRB_RMF_WORLD && m->objs[i].kind != RRB_RMF_ENTITY)
            continue;
        if (i && o && o->skip_hidden && rrb_rmf_hidden(m, i))
            continue;
        if (add_entity(b, blob, E, i, o))
            return -1;
    }
    return 0;
}

/* ---- cameras, paths, the blob -------------------------------------------- */

static void add_cameras_paths(baker *b, rrb_blob *blob, ents *E)
{
    const rrb_rmf_map *m = b->m;
    rr_rmf_camera *cams = rrb_xcalloc((size_t)m->ncameras + 1, sizeof *cams);
    rr_rmf_path *paths = rrb_xcalloc((size_t)m->npaths + 1, sizeof *paths);
    rr_rmf_pathnode *nodes = NULL;
    size_t nn = 0, cap = 0;
    int i, j, k;
    for (i = 0; i < m->ncameras; i++)
        for (k = 0; k < 3; k++) {
            cams[i].eye[k] = coord(b, m->cameras[i].eye[k]);
            cams[i].look[k] = coord(b, m->cameras[i].look[k]);
        }
    for (i = 0; i < m->npaths; i++) {
        const rrb_rmf_path *p = &m->paths[i];
        paths[i].name = rrb_blob_string(blob, p->name);
        paths[i].classname = rrb_blob_string(blob, p->classname);
        paths[i].type = p->type;
        paths[i].first_node = (uint32_t)nn;
        paths[i].nnodes = (uint32_t)p->nnodes;
        for (j = 0; j < p->nnodes; j++) {
            rr_rmf_pathnode *pn;
            nodes = rrb_grow(nodes, &cap, nn + 1, sizeof *nodes);
            pn = &nodes[nn++];
            for (k = 0; k < 3; k++)
                pn->pos[k] = coord(b, p->nodes[j].pos[k]);
            pn->index = p->nodes[j].index;
            pn->name = rrb_blob_string(blob, p->nodes[j].name_override);
            add_kvs(blob, E, p->nodes[j].kv, p->nodes[j].nkv, &pn->first_kv, &pn->nkv);
        }
    }
    rrb_blob_add(blob, RR_SEC_RMF_CAMERAS, cams, (uint32_t)m->ncameras, sizeof *cams, NULL);
    rrb_blob_add(blob, RR_SEC_RMF_PATHS, paths, (uint32_t)m->npaths, sizeof *paths, NULL);
    rrb_blob_add(blob, RR_SEC_RMF_PATHNODES, nodes, (uint32_t)nn, sizeof *nodes, NULL);
    free(cams);
    free(paths);
    free(nodes);
}

static void world_bounds(const baker *b, int32_t lo[3], int32_t hi[3])
{
    size_t i;
    int a;
    for (a = 0; a < 3; a++)
        lo[a] = hi[a] = 0;
    for (i = 0; i < b->nbrushes; i++)
        for (a = 0; a < 3; a++) {
            if (i == 0 || b->brushes[i].mins[a] < lo[a])
                lo[a] = b->brushes[i].mins[a];
            if (i == 0 || b->brushes[i].maxs[a] > hi[a])
                hi[a] = b->brushes[i].maxs[a];
        }
}

static void add_geometry(baker *b, rrb_blob *blob, ents *E, const rrb_opts *o,
                         size_t source_size)
{
    rr_rmf_header h;
    rr_blob_info info;
    int a;
    memset(&h, 0, sizeof h);
    world_bounds(b, h.mins, h.maxs);
    h.root = build_tree(b, h.mins, h.maxs);
    h.version = (uint32_t)b->m->version;
    h.tree_depth = (uint32_t)b->tree_depth;
    h.active_camera = b->m->active_camera >= 0 && b->m->active_camera < b->m->ncameras
                          ? b->m->active_camera : -1;
    h.nvisgroups = (uint32_t)b->m->nvisgroups;
    h.flags = o && o->skip_hidden ? RR_RMF_SKIPPED_HIDDEN : 0u;
    memset(&info, 0, sizeof info);
    info.source_size = (uint32_t)source_size;
    info.source_name = rrb_blob_string(blob, strrchr(b->path, '/') ? strrchr(b->path, '/') + 1
                                                                  : b->path);
    info.variant = h.version;
    for (a = 0; a < 3; a++)
        info.bbox_min[a] = h.mins[a], info.bbox_max[a] = h.maxs[a];
    rrb_blob_add(blob, RR_SEC_INFO, &info, 1, sizeof info, NULL);
    rrb_blob_add(blob, RR_SEC_RMF_HEADER, &h, 1, sizeof h, NULL);
    rrb_blob_add(blob, RR_SEC_RMF_PLANES, b->planes, (uint32_t)b->nplanes, sizeof *b->planes,
                 NULL);
    /* sides and refs are plane and brush indices: the one u32 field of
     * rr_rmf_side and rr_rmf_leafbrush */
    rrb_blob_add(blob, RR_SEC_RMF_SIDES, b->sides, (uint32_t)b->nsides, sizeof(rr_rmf_side),
                 NULL);
    rrb_blob_add(blob, RR_SEC_RMF_BRUSHES, b->brushes, (uint32_t)b->nbrushes,
                 sizeof *b->brushes, NULL);
    rrb_blob_add(blob, RR_SEC_RMF_NODES, b->nodes, (uint32_t)b->nnodes, sizeof *b->nodes, NULL);
    rrb_blob_add(blob, RR_SEC_RMF_LEAVES, b->leaves, (uint32_t)b->nleaves, sizeof *b->leaves,
                 NULL);
    rrb_blob_add(blob, RR_SEC_RMF_LEAFBRUSHES, b->refs, (uint32_t)b->nrefs,
                 sizeof(rr_rmf_leafbrush), NULL);
    rrb_blob_add(blob, RR_SEC_RMF_ENTITIES, E->e, (uint32_t)E->n, sizeof *E->e, NULL);
    rrb_blob_set_depth(blob, h.tree_depth);
    rrb_blob_set_arena(blob, RR_RMF_ARENA((uint32_t)b->nbrushes, h.tree_depth,
                                          (uint32_t)b->nnodes));
}

static void baker_free(baker *b)
{
    free(b->rules);
    free(b->planes);
    free(b->hash);
    free(b->sides);
    free(b->brushes);
    free(b->nodes);
    free(b->leaves);
    free(b->refs);
}

rrb_blob *rrb_rmf_bake_map(const rrb_rmf_map *m, size_t source_size, const char *path,
                           const rrb_opts *opts, char *err, size_t errcap)
{
    baker b;
    ents E;
    rrb_blob *blob = NULL;
    memset(&b, 0, sizeof b);
    memset(&E, 0, sizeof E);
    b.m = m, b.path = path, b.err = err, b.errcap = errcap;
    if (parse_rules(&b, opts) == 0 && choose_frac(&b) == 0) {
        blob = rrb_blob_new(RR_FMT_RMF, (uint32_t)b.frac);
        if (add_entities(&b, blob, &E, opts) == 0) {
            add_cameras_paths(&b, blob, &E);
            add_geometry(&b, blob, &E, opts, source_size);
            rrb_blob_add(blob, RR_SEC_RMF_KEYVALUES, E.kv, (uint32_t)E.nkv, sizeof *E.kv, NULL);
        } else {
            rrb_blob_free(blob);
            blob = NULL;
        }
    }
    free(E.e);
    free(E.kv);
    baker_free(&b);
    return blob;
}

rrb_blob *rrb_rmf_bake(const uint8_t *data, size_t size, const char *path,
                       const rrb_opts *opts, char *err, size_t errcap)
{
    rrb_rmf_map m;
    rrb_blob *blob;
    if (rrb_rmf_read(data, size, path, &m, err, errcap))
        return NULL;
    blob = rrb_rmf_bake_map(&m, size, path, opts, err, errcap);
    rrb_rmf_free(&m);
    return blob;
}

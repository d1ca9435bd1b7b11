/* q_rmesh.c - the per-room query set of t_rmesh (and of the RMesh goldens,
 * tests/target/g_room.c): for one blob, a deterministic set of ray casts,
 * box queries, trigger lookups, nearest-entity lookups and ellipsoid sweeps,
 * one printed line per result, and a hash of the render data. The runner
 * compares the output of every board byte for byte with the host's; the
 * host tests test_rmesh_query and test_rmesh_sweep check the same queries
 * against double-precision brute-force references. Triangles are printed
 * by their source index (rr_rmesh_tri.src), not by their place in the
 * blob, which is the BVH's leaf order: a baker that builds another tree
 * gives the same output when the answers are the same. */
#include "rr.h"
#include "rr_rmesh.h"
#include "rr_test.h"
#include "rr_test_blobs.h"
#include "q_room.h"

#define NRAYS (160 * Q_SCALE)
#define NBOXES (24 * Q_SCALE)
#define NPOINTS (48 * Q_SCALE)
#define NSWEEPS (40 * Q_SCALE)

static uint32_t arena[256];   /* RR_RMESH_ARENA(depth 26) = 392 bytes and the view */
static uint32_t items[64];
static uint32_t rng_state;

/* The source index of blob triangle i. */
static uint32_t src_of(const rr_room *room, uint32_t i)
{
    uint32_t src;
    int32_t p[3][3];
    rr_vec3 n;
    return rr_rmesh_triangle(room, i, &src, p, &n) == RR_OK ? src : 0xffffffffu;
}

static uint32_t rng(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}

/* Uniform in [lo, hi] (coords) without division bias worth caring about. */
static int32_t between(int32_t lo, int32_t hi)
{
    uint32_t span = (uint32_t)(hi - lo) + 1u;
    return lo + (int32_t)(span ? rng() % span : rng());
}

/* A point in the room bounds grown by 1/8 on each side. */
static void point(const rr_rmesh_head *h, int32_t p[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        int32_t g = (h->bmax[k] - h->bmin[k]) / 8;
        p[k] = between(h->bmin[k] - g, h->bmax[k] + g);
    }
}

static void rays(const char *name, const rr_room *room, const rr_rmesh_head *h)
{
    int i;
    for (i = 0; i < NRAYS; i++) {
        rr_rmesh_ray ray;
        rr_rmesh_hit hit;
        rr_err e;
        point(h, ray.origin);
        ray.dir.x = between(-RR_FIX_ONE, RR_FIX_ONE);
        ray.dir.y = between(-RR_FIX_ONE, RR_FIX_ONE);
        ray.dir.z = between(-RR_FIX_ONE, RR_FIX_ONE);
        if (!ray.dir.x && !ray.dir.y && !ray.dir.z)
            ray.dir.y = -RR_FIX_ONE;
        ray.max_dist = between(0, (h->bmax[0] - h->bmin[0]) + (h->bmax[1] - h->bmin[1]) +
                                      (h->bmax[2] - h->bmin[2]));
        e = rr_rmesh_raycast(room, &ray, &hit);
        RT_EXPECT_EQ("rmesh.t.ray", e, RR_OK);
        if (!hit.hit) {
            plat_printf("%s ray %d: miss\n", name, i);
            continue;
        }
        RT_EXPECT_EQ("rmesh.t.ray_src", src_of(room, hit.tri), hit.src);
        plat_printf("%s ray %d: src %lu surf %lu frac %ld dist %ld at %ld %ld %ld "
                    "n %ld %ld %ld\n", name, i, (unsigned long)hit.src,
                    (unsigned long)hit.surface, (long)hit.frac, (long)hit.dist,
                    (long)hit.point[0], (long)hit.point[1], (long)hit.point[2],
                    (long)hit.normal.x, (long)hit.normal.y, (long)hit.normal.z);
    }
}

static void boxes(const char *name, const rr_room *room, const rr_rmesh_head *h)
{
    int i, k;
    for (i = 0; i < NBOXES; i++) {
        int32_t p[3], lo[3], hi[3];
        rr_rmesh_list l;
        uint32_t hash = 0, j;
        point(h, p);
        for (k = 0; k < 3; k++) {
            int32_t r = between(0, (h->bmax[k] - h->bmin[k]) / 16 + 1);
            lo[k] = p[k] - r;
            hi[k] = p[k] + r;
        }
        l.items = items;
        l.cap = 64;
        RT_EXPECT_EQ("rmesh.t.box", rr_rmesh_box_tris(room, lo, hi, &l), RR_OK);
        if (l.truncated) {   /* which 64 come first depends on the tree */
            plat_printf("%s box %d: more than %lu tris\n", name, i, (unsigned long)l.count);
            continue;
        }
        /* the set of triangles, by source index in increasing order */
        for (j = 0; j < l.count; j++) {
            uint32_t s = src_of(room, items[j]), m = j;
            for (; m > 0 && items[m - 1] > s; m--)
                items[m] = items[m - 1];
            items[m] = s;
        }
        for (j = 0; j < l.count; j++)
            hash = hash * 31u + items[j];
        plat_printf("%s box %d: %lu tris hash %08lx\n", name, i, (unsigned long)l.count,
                    (unsigned long)hash);
    }
}

static void points(const char *name, const rr_room *room, const rr_rmesh_head *h)
{
    int i;
    for (i = 0; i < NPOINTS; i++) {
        int32_t p[3];
        uint32_t t = 0, ent = 0, cls = (uint32_t)i % RR_RMESH_NCLASSES;
        rr_err et, en;
        point(h, p);
        if (h->ntriggers && i % 2) {   /* half the points inside a trigger box */
            const rr_rmesh_trigger *b;
            const char *tn;
            int k;
            rr_rmesh_trigger_get(room, rng() % h->ntriggers, &b, &tn);
            for (k = 0; k < 3 && b->min[k] < b->max[k]; k++)
                p[k] = between(b->min[k], b->max[k]);
        }
        et = rr_rmesh_trigger_at(room, p, &t);
        en = rr_rmesh_entity_nearest(room, cls, p, &ent);
        plat_printf("%s point %d: trigger %d/%lu nearest class %lu: %d/%lu\n", name, i, et,
                    (unsigned long)t, (unsigned long)cls, en, (unsigned long)ent);
        if (cls == RR_RMESH_CUSTOM && en == RR_OK) {   /* by its class name and its keys */
            const rr_rmesh_ent *e;
            const char *code, *nm;
            uint32_t again = 0;
            rr_rmesh_entity(room, ent, &e);
            en = rr_rmesh_custom_nearest(room, rr_string(room, e->str), p, &again);
            code = rr_rmesh_entity_value(room, ent, "code");
            nm = rr_rmesh_entity_value(room, ent, "name");
            plat_printf("%s point %d: custom %s nearest %d/%lu code %s name %s\n", name, i,
                        rr_string(room, e->str), en, (unsigned long)again, code ? code : "-",
                        nm ? nm : "-");
        }
    }
}

static void sweeps(const char *name, const rr_room *room, const rr_rmesh_head *h)
{
    int i, k;
    int32_t ext = h->bmax[0] - h->bmin[0];
    for (k = 1; k < 3; k++)
        ext = h->bmax[k] - h->bmin[k] < ext ? h->bmax[k] - h->bmin[k] : ext;
    for (i = 0; i < NSWEEPS; i++) {
        rr_rmesh_sweep in;
        rr_rmesh_sweep_out out;
        int32_t r = ext / 40 + between(0, ext / 40);
        r = r < 16 ? 16 : r > (1 << 14) ? (1 << 14) : r;
        point(h, in.from);
        for (k = 0; k < 3; k++)
            in.to[k] = in.from[k] + between(-4 * r, 4 * r);
        in.radius[0] = in.radius[2] = r;
        in.radius[1] = r + r / 2;
        in.max_slides = 1 + (uint32_t)i % RR_RMESH_MAX_SLIDES;
        RT_EXPECT_EQ("rmesh.t.sweep", rr_rmesh_sweep_move(room, &in, &out), RR_OK);
        plat_printf("%s sweep %d: at %ld %ld %ld hit %d slides %lu src %lu n %ld %ld %ld\n", name,
                    i, (long)out.pos[0], (long)out.pos[1], (long)out.pos[2], out.hit,
                    (unsigned long)out.slides,
                    (unsigned long)(out.hit ? src_of(room, out.tri) : 0), (long)out.normal.x,
                    (long)out.normal.y, (long)out.normal.z);
    }
}

/* Render data: a hash per group of every decoded vertex (position in
 * coords, UVs in Q16.16, colour) and index, as rr_rmesh_render_vertex gives
 * them (checks the byte swapping on the big-endian board). Indices are
 * hashed by their place in the group (index - first_vert), which is what
 * they meant before schema 6 stored them as render vertex numbers: the
 * same triangles give the same hash in either form. */
static void render(const char *name, const rr_room *room)
{
    const rr_rmesh_rhead *rh;
    uint32_t i, j;
    int k;
    rr_err e = rr_rmesh_render_head(room, &rh);
    if (e) {
        plat_printf("%s render: %d %s\n", name, e, rr_strerror(e));
        return;
    }
    plat_printf("%s render: %lu groups, %lu verts, %lu indices, %lu positions (shift %lu), "
                "%lu colours\n", name, (unsigned long)rh->ngroups, (unsigned long)rh->nverts,
                (unsigned long)rh->nindices, (unsigned long)rh->npos,
                (unsigned long)rh->pos_shift, (unsigned long)rh->ncolors);
    for (i = 0; i < rh->ngroups; i++) {
        const rr_rmesh_rgroup *g;
        uint32_t h = 0;
        RT_EXPECT_EQ("rmesh.t.group", rr_rmesh_render_group(room, i, &g), RR_OK);
        for (j = 0; j < g->nverts; j++) {
            rr_rmesh_vertex v;
            RT_EXPECT_EQ("rmesh.t.vertex", rr_rmesh_render_vertex(room, i, g->first_vert + j, &v),
                         RR_OK);
            for (k = 0; k < 3; k++)
                h = h * 31u + (uint32_t)v.pos[k] + v.rgb[k];
            for (k = 0; k < 2; k++)
                h = (h * 31u + (uint32_t)v.uv0[k]) * 31u + (uint32_t)v.uv1[k];
        }
        for (j = 0; j < g->nindices / 3; j++) {
            /* a refused triangle hashes as all ones (no check of its own:
             * the golden holds the hash) */
            uint32_t ix[3] = {0xffffffffu, 0xffffffffu, 0xffffffffu};
            (void)rr_rmesh_render_triangle(room, i, j, ix);
            for (k = 0; k < 3; k++)
                h = h * 7u + (ix[k] - g->first_vert);
        }
        plat_printf("%s group %lu: surface %lu flags %u uv %u lm step %lu/%lu hash %08lx\n",
                    name, (unsigned long)i, (unsigned long)g->surface, g->flags, g->uv_frac,
                    (unsigned long)g->lm_step[0], (unsigned long)g->lm_step[1], (unsigned long)h);
    }
}

/* One room: open, counts, render data hash, the four query sets. */
void q_rmesh_room(const rr_test_blob *b)
{
    rr_room room;
    rr_diag d;
    const rr_rmesh_head *h;
    rr_err e = rr_open_diag(b->data, b->size, arena, sizeof arena, &room, &d);
    plat_printf("open %s (%u bytes) = %d %s\n", b->name, b->size, e, rr_strerror(e));
    RT_EXPECT_EQ("rmesh.t.open", e, RR_OK);
    if (e)
        return;
    rr_rmesh_head_get(&room, &h);
    plat_printf("%s: %lu tris, %lu verts, %lu nodes, depth %lu, frac %lu, %lu triggers, "
                "%lu entities, %lu dropped\n", b->name, (unsigned long)h->ntris,
                (unsigned long)h->nverts, (unsigned long)h->nnodes,
                (unsigned long)room.max_depth, (unsigned long)room.coord_frac,
                (unsigned long)h->ntriggers, (unsigned long)h->nents, (unsigned long)h->dropped);
    render(b->name, &room);
    rng_state = 0x2545f491u;
    rays(b->name, &room, h);
    boxes(b->name, &room, h);
    points(b->name, &room, h);
    sweeps(b->name, &room, h);
}

int q_rmesh_done(const char *suite)
{
    return rt_done(suite);
}

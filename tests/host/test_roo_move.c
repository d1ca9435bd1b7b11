/* test_roo_move.c - rr_roo_can_move and rr_roo_line_of_sight against a
 * brute-force double-precision reference over all walls of each corpus room
 * and the sample (semantics: loader/rr_roo.h).
 *
 * The reference uses the source file's own values (long double orientations,
 * exact for these magnitudes; analytic first contact of a moving circle with
 * a segment; the slope formula z = -(a*x + b*y + d)/c with the file's
 * coefficients), not the blob's rounded ones. A query is "ambiguous" (and
 * only counted) when two events are closer than 2^-12 of the move, when the
 * mover grazes a wall (closest approach within 2 coord steps of the radius),
 * or when a height comparison is within 2 coord steps of its threshold.
 * Everything else must agree exactly in block reason and wall, and in the
 * stop fraction within 3/65536 + 1 coord step / |B - A|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_roo.h"
#include "rr_test.h"
#include "rrb_roo.h"

#define NMOVES 3000
#define NSIGHTS 3000

static const char *const corpus_files[] = {
    "v12_MarDun02", "v12_guest5", "v12_i7", "v12_outgrace", "v13_g6", "v13_guildh5",
    "v13_jashall", "v13_jixabc", "v14_cornoth", "v14_elementaldungeon", "v14_marhall",
    "v14_outgrace", "v15_a5", "v15_h3", "v15_jasab7"};
#define NFILES (sizeof corpus_files / sizeof corpus_files[0])

static char id[256];
static const char *cid(const char *file, const char *what)
{
    snprintf(id, sizeof id, "roo.m.%s.%s", file, what);
    return id;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t xs(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static double urand(void) { return (double)(xs() >> 11) / 9007199254740992.0; }

typedef struct ctx {
    const rrb_roo *r;
    rr_room room;
    uint8_t *blob;
    double scale;          /* coords per client unit */
    long double *w;        /* walls in coords: x0 y0 x1 y1 */
} ctx;

typedef struct event {
    double t;
    int block, wall, ambiguous;
    double rate;          /* approach rate of a wall contact (1 for other events) */
} event;

static long double orient(long double ax, long double ay, long double bx, long double by,
                          long double cx, long double cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static double seg_point_dist(double qx, double qy, const long double *s)
{
    double ex = (double)(s[2] - s[0]), ey = (double)(s[3] - s[1]);
    double vx = qx - (double)s[0], vy = qy - (double)s[1], ee = ex * ex + ey * ey;
    double u = ee > 0 ? (ex * vx + ey * vy) / ee : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return hypot(vx - u * ex, vy - u * ey);
}

/* Closest approach of segment a-b and wall segment s. */
static double seg_seg_dist(const double *a, const double *b, const long double *s)
{
    long double ab[4] = {a[0], a[1], b[0], b[1]};
    long double o1 = orient(a[0], a[1], b[0], b[1], s[0], s[1]);
    long double o2 = orient(a[0], a[1], b[0], b[1], s[2], s[3]);
    long double o3 = orient(s[0], s[1], s[2], s[3], a[0], a[1]);
    long double o4 = orient(s[0], s[1], s[2], s[3], b[0], b[1]);
    if ((o1 != 0 || o2 != 0) && ((o1 <= 0 && o2 >= 0) || (o1 >= 0 && o2 <= 0)) &&
        ((o3 <= 0 && o4 >= 0) || (o3 >= 0 && o4 <= 0)))
        return 0;
    return fmin(fmin(seg_point_dist(a[0], a[1], s), seg_point_dist(b[0], b[1], s)),
                fmin(seg_point_dist((double)s[0], (double)s[1], ab),
                     seg_point_dist((double)s[2], (double)s[3], ab)));
}

/* First t in [0, 1] where a circle of radius R moving a -> b touches s, and
 * *rate = how fast the distance closes there per unit of path (sin of the
 * approach angle): a shallow approach makes t sensitive to rounding. */
static double contact_time(const double *a, const double *b, const long double *s, double R,
                           double *rate)
{
    double ex = (double)(s[2] - s[0]), ey = (double)(s[3] - s[1]), L = hypot(ex, ey);
    double dx = b[0] - a[0], dy = b[1] - a[1], best = INFINITY, D = hypot(dx, dy);
    *rate = 1;
    if (L > 0) {
        double da = (double)orient(s[0], s[1], s[2], s[3], a[0], a[1]) / L;
        double db = (double)orient(s[0], s[1], s[2], s[3], b[0], b[1]) / L;
        double sg = da > 0 ? 1 : -1;
        if (fabs(da) > R && (da - db) * sg > 0) {
            double t = (da - sg * R) / (da - db);
            double qx = a[0] + t * dx, qy = a[1] + t * dy;
            double u = ((qx - (double)s[0]) * ex + (qy - (double)s[1]) * ey) / (L * L);
            if (t >= 0 && t <= 1 && u >= 0 && u <= 1)
                best = t, *rate = fabs(da - db) / D;
        }
    }
    for (int k = 0; k < 2; k++) {
        double fx = a[0] - (double)s[2 * k], fy = a[1] - (double)s[2 * k + 1];
        double qa = dx * dx + dy * dy, qb = 2 * (fx * dx + fy * dy), qc = fx * fx + fy * fy - R * R;
        double disc = qb * qb - 4 * qa * qc;
        if (qa > 0 && disc >= 0) {
            double t = (-qb - sqrt(disc)) / (2 * qa);
            if (t >= 0 && t <= 1 && t < best) {
                best = t;
                /* d|Q - P|/dt / |D| at contact = (Q - P) . D / (R |D|^2) */
                *rate = R > 0 ? fabs((fx + t * dx) * dx + (fy + t * dy) * dy) / (R * qa) : 1;
            }
        }
    }
    return best;
}

static double plane_z(const rrb_roo_slope *s, double x, double y)
{
    return -(s->a * x + s->b * y + s->d) / s->c;
}

/* Floor surface and ceiling of a 0-based sector at (x, y) in coords. */
static void ref_heights(const ctx *c, int sector, double x, double y, double *f, double *ce)
{
    const rrb_roo_sector *s = &c->r->sectors[sector];
    double cx = x / c->scale, cy = y / c->scale;
    *f = (s->flags & RRB_ROO_SF_SLOPED_FLOOR ? plane_z(&s->floor, cx, cy) : s->floor_h * 16.0) *
         c->scale;
    *ce = (s->flags & RRB_ROO_SF_SLOPED_CEILING ? plane_z(&s->ceiling, cx, cy)
                                                : s->ceiling_h * 16.0) * c->scale;
}

/* Crossing of a -> b with wall i by the side rule; t or -1. */
static double ref_cross(const ctx *c, int i, const double *a, const double *b, int *side)
{
    const long double *s = c->w + 4 * i;
    long double sa = orient(s[0], s[1], s[2], s[3], a[0], a[1]);
    long double sb = orient(s[0], s[1], s[2], s[3], b[0], b[1]);
    long double o1 = orient(a[0], a[1], b[0], b[1], s[0], s[1]);
    long double o2 = orient(a[0], a[1], b[0], b[1], s[2], s[3]);
    *side = sa >= 0;
    if (*side == (sb >= 0) || (o1 < 0 && o2 < 0) || (o1 > 0 && o2 > 0))
        return -1;
    return (double)(sa / (sa - sb));
}

static const rrb_roo_sidedef *ref_facing(const ctx *c, const rrb_roo_wall *w, int side)
{
    uint16_t sd = side ? w->pos_sidedef : w->neg_sidedef;
    return sd ? &c->r->sidedefs[sd - 1] : NULL;
}

static void consider(event *best, event *second, double t, int block, int wall, int amb)
{
    if (t < best->t) {
        *second = *best;
        best->t = t, best->block = block, best->wall = wall, best->ambiguous = amb;
        best->rate = 1;
    } else if (t < second->t) {
        second->t = t;
    }
}

static void ref_portal(const ctx *c, int i, const double *a, const double *b, double t,
                       int side, const double *lim, event *best, event *second)
{
    const rrb_roo_wall *w = &c->r->walls[i];
    double x = a[0] + t * (b[0] - a[0]), y = a[1] + t * (b[1] - a[1]), nf, nc, ff, fc;
    int near = (side ? w->pos_sector : w->neg_sector) - 1;
    int far = (side ? w->neg_sector : w->pos_sector) - 1;
    ref_heights(c, near, x, y, &nf, &nc);
    ref_heights(c, far, x, y, &ff, &fc);
    double m1 = ff - nf - lim[1], m2 = fc - ff - lim[2];
    int amb = fabs(m1) < 2 || fabs(m2) < 2;
    if (m1 > 0)
        consider(best, second, t, RR_ROO_STEP, i, amb);
    else if (m2 < 0)
        consider(best, second, t, RR_ROO_CEILING, i, amb);
    else if (c->r->sectors[far].flags & RRB_ROO_SF_NOMOVE)
        consider(best, second, t, RR_ROO_NOMOVE, i, amb);
    else if (amb)
        consider(best, second, 2.0 + t, RR_ROO_FREE, i, 1); /* marks near-threshold portals */
}

/* lim = {radius, step, height} in coords. */
static event ref_move(const ctx *c, const double *a, const double *b, const double *lim,
                      int *grazing)
{
    event best = {INFINITY, RR_ROO_FREE, -1, 0, 1}, second = best;
    *grazing = 0;
    for (int i = 0; i < (int)c->r->nwalls; i++) {
        const rrb_roo_wall *w = &c->r->walls[i];
        const long double *s = c->w + 4 * i;
        int side = orient(s[0], s[1], s[2], s[3], a[0], a[1]) >= 0, cs;
        const rrb_roo_sidedef *sd = ref_facing(c, w, side);
        if (!w->pos_sector || !w->neg_sector || (sd && sd->normal && !(sd->flags & 4))) {
            double d0 = seg_point_dist(a[0], a[1], s), dm = seg_seg_dist(a, b, s);
            if (fabs(d0 - lim[0]) < 2 || fabs(dm - lim[0]) < 2)
                (*grazing)++;
            if (d0 <= lim[0] || dm > lim[0])
                continue;
            double rate, t = contact_time(a, b, s, lim[0], &rate);
            double t_before = best.t;
            consider(&best, &second, t, RR_ROO_WALL, i, 0);
            if (best.t != t_before)
                best.rate = rate;
            continue;
        }
        double t = ref_cross(c, i, a, b, &cs);
        if (t >= 0)
            ref_portal(c, i, a, b, t, cs, lim, &best, &second);
    }
    if (best.t >= 2) /* only near-threshold marks: the move is free */
        best = (event){INFINITY, RR_ROO_FREE, -1, best.ambiguous, 1};
    if (second.t - best.t < 1.0 / 4096)
        best.ambiguous = 1;
    return best;
}

static event ref_sight(const ctx *c, const double *a, const double *b)
{
    event best = {INFINITY, 0, -1, 0, 1}, second = best;
    for (int i = 0; i < (int)c->r->nwalls; i++) {
        const rrb_roo_wall *w = &c->r->walls[i];
        int side;
        double t = ref_cross(c, i, a, b, &side), f0, c0, f1, c1;
        if (t < 0)
            continue;
        const rrb_roo_sidedef *sd = ref_facing(c, w, side);
        if (!w->pos_sector || !w->neg_sector ||
            (sd && ((sd->normal && !(sd->flags & 2)) || (sd->flags & 0x20)))) {
            consider(&best, &second, t, 1, i, 0);
            continue;
        }
        double x = a[0] + t * (b[0] - a[0]), y = a[1] + t * (b[1] - a[1]);
        double z = a[2] + t * (b[2] - a[2]);
        ref_heights(c, w->pos_sector - 1, x, y, &f0, &c0);
        ref_heights(c, w->neg_sector - 1, x, y, &f1, &c1);
        double lo = fmax(f0, f1), hi = fmin(c0, c1);
        int amb = fabs(z - lo) < 2 || fabs(z - hi) < 2;
        if (z < lo || z > hi)
            consider(&best, &second, t, 1, i, amb);
        else if (amb)
            best.ambiguous = 1;
    }
    if (second.t - best.t < 1.0 / 4096)
        best.ambiguous = 1;
    return best;
}

typedef struct tally {
    long n, agree, ambiguous, bad, blocked, walk_vs_all;
} tally;

static void random_inside(const ctx *c, const double *lo, const double *hi, int32_t *x, int32_t *y)
{
    rr_roo_where w;
    for (int k = 0; k < 100; k++) {
        *x = (int32_t)((lo[0] + (hi[0] - lo[0]) * urand()) * c->scale);
        *y = (int32_t)((lo[1] + (hi[1] - lo[1]) * urand()) * c->scale);
        if (rr_roo_locate(&c->room, *x, *y, &w) == RR_OK)
            return;
    }
}

static void check_moves(const char *name, const ctx *c, const double *lo, const double *hi)
{
    static const double radius[3] = {0, 64, 256}, step[3] = {0, 256, 1024},
                        height[3] = {0, 1024, 2048};
    tally t = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < NMOVES; i++) {
        int32_t ax, ay, bx, by, graze;
        random_inside(c, lo, hi, &ax, &ay);
        double len = 4096 * urand() * c->scale, ang = 2 * M_PI * urand();
        bx = (int32_t)(ax + len * cos(ang)), by = (int32_t)(ay + len * sin(ang));
        double lim[3] = {radius[i % 3] * c->scale, step[(i / 3) % 3] * c->scale,
                         height[(i / 9) % 3] * c->scale};
        double a[2] = {ax, ay}, b[2] = {bx, by};
        rr_roo_move m;
        RT_EXPECT_EQ(cid(name, "move_call"),
                     rr_roo_can_move(&c->room, ax, ay, bx, by, (int32_t)lim[0], (int32_t)lim[1],
                                     (int32_t)lim[2], &m), RR_OK);
        rr_roo_move all;
        rr_roo_can_move_all(&c->room, ax, ay, bx, by, (int32_t)lim[0], (int32_t)lim[1],
                            (int32_t)lim[2], &all);
        t.walk_vs_all += all.block != m.block || all.wall != m.wall ||
                         all.fraction != m.fraction || all.x != m.x || all.y != m.y;
        event e = ref_move(c, a, b, lim, &graze);
        /* positions are rounded to 1 coord: at a shallow approach that moves the
           contact along the path by 1 / (|D| * rate) */
        double tol = 3.0 / 65536 + 2.0 / fmax(1, hypot(b[0] - a[0], b[1] - a[1]) *
                                                     fmax(e.rate, 1e-3));
        double got = m.block == RR_ROO_WALL ? (m.fraction + 1) / 65536.0 : m.fraction / 65536.0;
        int same = m.block == e.block && (e.block == RR_ROO_FREE ||
                                          (m.wall == e.wall && fabs(got - e.t) <= tol));
        t.n++;
        t.blocked += e.block != RR_ROO_FREE;
        if (same)
            t.agree++;
        else if (e.ambiguous || graze)
            t.ambiguous++;
        else if (t.bad++ < 5)
            printf("  move (%d,%d)->(%d,%d) r%g s%g h%g: got %d wall %d t %.6f, ref %d wall %d "
                   "t %.6f\n", ax, ay, bx, by, lim[0], lim[1], lim[2], m.block, m.wall, got,
                   e.block, e.wall, e.t);
    }
    printf("  %-22s can_move %ld: %ld agree (%ld blocked), %ld ambiguous, %ld differ; BSP walk "
           "vs all walls: %ld differ\n", name, t.n, t.agree, t.blocked, t.ambiguous, t.bad,
           t.walk_vs_all);
    RT_EXPECT_EQ(cid(name, "move_vs_ref"), t.bad, 0);
    RT_EXPECT_EQ(cid(name, "move_walk_vs_all"), t.walk_vs_all, 0);
    RT_EXPECT(cid(name, "move_ambiguous_rare"), t.ambiguous * 20 <= t.n);
}

/* Slides: for moves stopped by a solid wall, the second leg must equal
 * rr_roo_can_move from the stop point to the stop point plus the remaining
 * motion projected on the wall, computed here in double and rounded. */
static void check_slides(const char *name, const ctx *c, const double *lo, const double *hi)
{
    long n = 0, same = 0, none = 0;
    for (int i = 0; i < NMOVES; i++) {
        int32_t ax, ay, bx, by, r = (int32_t)(64 * c->scale);
        rr_roo_move m1, m2, want;
        random_inside(c, lo, hi, &ax, &ay);
        double len = 4096 * urand() * c->scale, ang = 2 * M_PI * urand();
        bx = (int32_t)(ax + len * cos(ang)), by = (int32_t)(ay + len * sin(ang));
        RT_EXPECT_EQ(cid(name, "slide_call"),
                     rr_roo_slide(&c->room, ax, ay, bx, by, r, 0, 0, &m1, &m2), RR_OK);
        if (m1.block != RR_ROO_WALL) {
            RT_EXPECT(cid(name, "slide_none"), !memcmp(&m1, &m2, sizeof m1));
            continue;
        }
        const long double *w = c->w + 4 * m1.wall;
        double ex = (double)(w[2] - w[0]), ey = (double)(w[3] - w[1]);
        double rx = (double)bx - m1.x, ry = (double)by - m1.y, dot = rx * ex + ry * ey;
        n++;
        if (dot == 0) {
            none++;
            same += !memcmp(&m1, &m2, sizeof m1);
            continue;
        }
        /* the offset rounded half away from zero (the loader's rule) */
        double ox = ex * dot / (ex * ex + ey * ey), oy = ey * dot / (ex * ex + ey * ey);
        double tx = m1.x + (double)lround(ox), ty = m1.y + (double)lround(oy);
        rr_roo_can_move(&c->room, m1.x, m1.y, (int32_t)lround(tx), (int32_t)lround(ty), r, 0, 0,
                        &want);
        int ok = !memcmp(&want, &m2, sizeof m2);
        same += ok;
        if (!ok && getenv("RT_VERBOSE"))
            printf("  slide (%d,%d)->(%d,%d): stop (%d,%d) wall %d, target %.2f %.2f: got %d wall "
                   "%d (%d,%d), want %d wall %d (%d,%d)\n", ax, ay, bx, by, m1.x, m1.y, m1.wall,
                   tx, ty, m2.block, m2.wall, m2.x, m2.y, want.block, want.wall, want.x, want.y);
    }
    printf("  %-22s slide: %ld moves stopped by a wall (%ld without a slide), second leg as "
           "the reference %ld\n", name, n, none, same);
    RT_EXPECT(cid(name, "slide_vs_ref"), same * 100 >= n * 99);
}

static void check_sights(const char *name, const ctx *c, const double *lo, const double *hi)
{
    tally t = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < NSIGHTS; i++) {
        int32_t p[3], q[3];
        rr_roo_heights h;
        random_inside(c, lo, hi, &p[0], &p[1]);
        random_inside(c, lo, hi, &q[0], &q[1]);
        rr_roo_height(&c->room, p[0], p[1], &h);
        p[2] = (int32_t)(h.floor_surface + urand() * ((double)h.ceiling - h.floor_surface));
        rr_roo_height(&c->room, q[0], q[1], &h);
        q[2] = (int32_t)(h.floor_surface + urand() * ((double)h.ceiling - h.floor_surface));
        double a[3] = {p[0], p[1], p[2]}, b[3] = {q[0], q[1], q[2]};
        rr_roo_sight s;
        RT_EXPECT_EQ(cid(name, "sight_call"), rr_roo_line_of_sight(&c->room, p, q, &s), RR_OK);
        rr_roo_sight all;
        rr_roo_line_of_sight_all(&c->room, p, q, &all);
        t.walk_vs_all += all.visible != s.visible || all.wall != s.wall ||
                         all.fraction != s.fraction;
        event e = ref_sight(c, a, b);
        int same = s.visible == (e.wall < 0) &&
                   (s.visible ||
                    (s.wall == e.wall && fabs(s.fraction / 65536.0 - e.t) <= 2.0 / 65536));
        t.n++;
        t.blocked += e.wall >= 0;
        if (same)
            t.agree++;
        else if (e.ambiguous)
            t.ambiguous++;
        else if (t.bad++ < 5)
            printf("  sight (%d,%d,%d)->(%d,%d,%d): got %d wall %d t %.6f, ref wall %d t %.6f\n",
                   p[0], p[1], p[2], q[0], q[1], q[2], s.visible, s.wall, s.fraction / 65536.0,
                   e.wall, e.t);
    }
    printf("  %-22s sight %ld: %ld agree (%ld blocked), %ld ambiguous, %ld differ; BSP walk vs "
           "all walls: %ld differ\n", name, t.n, t.agree, t.blocked, t.ambiguous, t.bad,
           t.walk_vs_all);
    RT_EXPECT_EQ(cid(name, "sight_vs_ref"), t.bad, 0);
    RT_EXPECT_EQ(cid(name, "sight_walk_vs_all"), t.walk_vs_all, 0);
    RT_EXPECT(cid(name, "sight_ambiguous_rare"), t.ambiguous * 20 <= t.n);
}

static int open_room(const rrb_roo *r, const char *name, ctx *c)
{
    char err[RRB_ERR_MAX];
    static uint32_t arena[128];
    size_t size;
    rrb_blob *bl = rrb_roo_bake_model(r, 0, name, NULL, err, sizeof err);
    memset(c, 0, sizeof *c);
    if (!bl || rrb_blob_finish(bl, 0, &c->blob, &size)) {
        rrb_blob_free(bl);
        return -1;
    }
    rrb_blob_free(bl);
    if (rr_open(c->blob, (uint32_t)size, arena, sizeof arena, &c->room) != RR_OK)
        return -1;
    c->r = r;
    c->scale = ldexp(1, (int)c->room.coord_frac);
    c->w = malloc(sizeof(long double) * 4 * (r->nwalls + 1));
    for (uint32_t i = 0; i < r->nwalls; i++) {
        c->w[4 * i] = rrb_roo_round_scaled(r->walls[i].x0, (int)c->room.coord_frac);
        c->w[4 * i + 1] = rrb_roo_round_scaled(r->walls[i].y0, (int)c->room.coord_frac);
        c->w[4 * i + 2] = rrb_roo_round_scaled(r->walls[i].x1, (int)c->room.coord_frac);
        c->w[4 * i + 3] = rrb_roo_round_scaled(r->walls[i].y1, (int)c->room.coord_frac);
    }
    return 0;
}

static void check_room(const char *name, const rrb_roo *r)
{
    ctx c;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    int ok = open_room(r, name, &c) == 0;
    RT_EXPECT(cid(name, "open"), ok);
    if (!ok)
        return;
    for (uint32_t i = 0; i < 2 * r->npoints; i++) {
        lo[i & 1] = fmin(lo[i & 1], r->points[i]);
        hi[i & 1] = fmax(hi[i & 1], r->points[i]);
    }
    check_moves(name, &c, lo, hi);
    check_slides(name, &c, lo, hi);
    check_sights(name, &c, lo, hi);
    free(c.w);
    free(c.blob);
}

/* The sample by hand (client units; coords = units << coord_frac). */
static void check_sample(void)
{
    rrb_roo r;
    ctx c;
    rr_roo_move m;
    rr_roo_sight s;
    rrb_roo_make_sample(&r, 15);
    if (open_room(&r, "sample", &c) == 0) {
        int32_t k = 1 << c.room.coord_frac;
        /* S1 -> S3 through the solid wall x = 2048 (wall 3, index 2), radius 64:
           stops 64 units before it, at x = 1984 */
        rr_roo_can_move(&c.room, 1000 * k, 3000 * k, 3000 * k, 3000 * k, 64 * k, 1024 * k, 0, &m);
        RT_EXPECT_EQ("roo.m.sample.wall", m.block, RR_ROO_WALL);
        RT_EXPECT_EQ("roo.m.sample.wall_index", m.wall, 2);
        RT_EXPECT(cid("sample", "wall_stop"), labs((long)m.x - 1984L * k) <= 1L * k / 16);
        /* S1 -> S2 through the passable wall: the slope at x = 2048 is 0, free */
        rr_roo_can_move(&c.room, 1000 * k, 1000 * k, 3000 * k, 1000 * k, 64 * k, 16 * k, 0, &m);
        RT_EXPECT_EQ("roo.m.sample.passable", m.block, RR_ROO_FREE);
        /* S3 (floor 256) -> S4 (no-move, floor 0): blocked at x = 3072 */
        rr_roo_can_move(&c.room, 2500 * k, 3000 * k, 3900 * k, 3000 * k, 0, 1024 * k, 0, &m);
        RT_EXPECT_EQ("roo.m.sample.nomove", m.block, RR_ROO_NOMOVE);
        RT_EXPECT(cid("sample", "nomove_x"), labs((long)m.x - 3072L * k) <= 1L * k / 16);
        /* sight S3 -> S4 through the "no look-through" wall: blocked */
        int32_t p3[3] = {2500 * k, 3000 * k, 1000 * k}, p4[3] = {3900 * k, 3000 * k, 500 * k};
        rr_roo_line_of_sight(&c.room, p3, p4, &s);
        RT_EXPECT_EQ("roo.m.sample.sight_nolook", s.wall, 5);
        /* S2 (floor 0 at x 2100) -> S3 (floor 256): step 100 too low */
        rr_roo_can_move(&c.room, 2100 * k, 1500 * k, 2100 * k, 2500 * k, 0, 100 * k, 0, &m);
        RT_EXPECT_EQ("roo.m.sample.step", m.block, RR_ROO_STEP);
        /* S2 -> S4: ceiling of S4 is 1024 above its floor; a 2000-tall mover is stopped */
        rr_roo_can_move(&c.room, 3500 * k, 1000 * k, 3500 * k, 3000 * k, 0, 4096 * k,
                        2000 * k, &m);
        RT_EXPECT_EQ("roo.m.sample.ceiling", m.block, RR_ROO_CEILING);
        /* slide: S1 diagonally into the solid wall x = 2048 (radius 64) stops at
           x = 1984 and then slides north along it to y = 2500 */
        rr_roo_move m2;
        rr_roo_slide(&c.room, 1000 * k, 3500 * k, 3000 * k, 2500 * k, 64 * k, 0, 0, &m, &m2);
        RT_EXPECT_EQ("roo.m.sample.slide_first", m.block, RR_ROO_WALL);
        RT_EXPECT_EQ("roo.m.sample.slide_free", m2.block, RR_ROO_FREE);
        RT_EXPECT_EQ("roo.m.sample.slide_x", m2.x, m.x);
        RT_EXPECT_EQ("roo.m.sample.slide_y", m2.y, 2500 * k);
        RT_EXPECT(cid("sample", "slide_stop_x"), labs((long)m.x - 1984L * k) <= 1L * k / 16);
        /* sight through the transparent wall S2 | S3 at height 1000 */
        int32_t a[3] = {2500 * k, 1000 * k, 1000 * k}, b[3] = {2500 * k, 3000 * k, 1000 * k};
        RT_EXPECT_EQ("roo.m.sample.sight_call", rr_roo_line_of_sight(&c.room, a, b, &s), RR_OK);
        RT_EXPECT_EQ("roo.m.sample.sight_transparent", s.visible, 1);
        /* S1 -> S3 through the solid textured wall: blocked */
        a[0] = 1000 * k, a[1] = 3000 * k;
        rr_roo_line_of_sight(&c.room, a, b, &s);
        RT_EXPECT_EQ("roo.m.sample.sight_solid", s.wall, 2);
        /* S2 -> S3 below S3's floor (z = 100 < 256): blocked by the step */
        a[0] = 2500 * k, a[1] = 1000 * k, a[2] = b[2] = 100 * k;
        rr_roo_line_of_sight(&c.room, a, b, &s);
        RT_EXPECT_EQ("roo.m.sample.sight_floor", s.wall, 3);
        check_room("sample", &r);
        free(c.w);
        free(c.blob);
    }
    rrb_roo_free(&r);
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("CORPUS");
    if (!corpus)
        corpus = "../shared/corpus";
    check_sample();
    for (size_t i = 0; i < NFILES; i++) {
        char path[1024], err[RRB_ERR_MAX];
        uint8_t *data;
        size_t size;
        rrb_roo r;
        snprintf(path, sizeof path, "%s/roo/%s.roo", corpus, corpus_files[i]);
        if (rrb_load_file(path, &data, &size, err, sizeof err) != 0) {
            RT_EXPECT(cid(corpus_files[i], "load"), 0);
            continue;
        }
        if (rrb_roo_read(data, size, path, &r, err, sizeof err) == 0) {
            check_room(corpus_files[i], &r);
            rrb_roo_free(&r);
        } else {
            RT_EXPECT(cid(corpus_files[i], "read"), 0);
        }
        free(data);
    }
    return rt_done("test_roo_move");
}

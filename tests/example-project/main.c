/* main.c - a firmware built against an installed romroom: every room of a
 * pack made by `rrbake pack` (rooms.c + rooms.h), opened in place from
 * flash and queried with its format's calls; the answers are printed with
 * plat_printf (librrplat.a), the same bytes on every board.
 *
 * Build it with the Makefile (pkg-config) or CMakeLists.txt (find_package)
 * of this folder; docs/install.md explains both. */
#include "rr.h"
#include "rr_roo.h"
#include "rr_rmf.h"
#include "rr_rmesh.h"
#include "rr_plat.h"
#include "rooms.h"

/* One arena for whichever room is open: 8 KB fits every sample room (the
 * program says so if one needs more: rr_arena_size() tells). 8-byte
 * alignment satisfies rr_open's 4. */
static uint32_t arena[2048];

/* N x N points spread over [lo, hi] on two axes: point (i, j). */
enum { N = 4 };
static int32_t spread(int32_t lo, int32_t hi, int i)
{
    return lo + (int32_t)(((int64_t)hi - lo) * (2 * i + 1) / (2 * N));
}

static void roo_queries(const rr_room *room)
{
    rr_roo_info info;
    rr_roo_heights h;
    rr_roo_move m;
    int i, j;
    if (rr_roo_get_info(room, &info) != RR_OK)
        return;
    plat_printf("  roo v%u: %u sectors, %u walls\n", (unsigned)info.version,
                (unsigned)info.sectors, (unsigned)info.walls);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            int32_t x = spread(info.rect[0], info.rect[2], i);
            int32_t y = spread(info.rect[1], info.rect[3], j);
            rr_err e = rr_roo_height(room, x, y, &h);
            plat_printf("  height %d %d: %d sector %d floor %d ceiling %d\n", (int)x, (int)y,
                        (int)e, (int)h.sector, (int)h.floor, (int)h.ceiling);
        }
    /* A mover of radius 64, step 40, height 256 (client units) from one
     * corner area of the room to the opposite one. */
    {
        int32_t ax = spread(info.rect[0], info.rect[2], 0);
        int32_t ay = spread(info.rect[1], info.rect[3], 0);
        int32_t bx = spread(info.rect[0], info.rect[2], N - 1);
        int32_t by = spread(info.rect[1], info.rect[3], N - 1);
        uint32_t f = room->coord_frac;
        rr_err e = rr_roo_can_move(room, ax, ay, bx, by, (int32_t)(64u << f),
                                   (int32_t)(40u << f), (int32_t)(256u << f), &m);
        plat_printf("  move: %d block %d wall %d fraction %d stop %d %d\n", (int)e,
                    (int)m.block, (int)m.wall, (int)m.fraction, (int)m.x, (int)m.y);
    }
}

static void rmf_queries(const rr_room *room)
{
    rr_rmf_counts c;
    const rr_rmf_brush *b;
    rr_rmf_trace_result t;
    uint32_t k;
    if (rr_rmf_get_counts(room, &c) != RR_OK)
        return;
    plat_printf("  rmf: %u brushes, %u entities\n", (unsigned)c.brushes, (unsigned)c.entities);
    /* For the first brushes: the contents at the centre of its bounds, and a
     * ray from above the bounds straight down through that centre. */
    for (k = 0; k < c.brushes && k < 4; k++) {
        int32_t p[3], top[3], bottom[3];
        uint32_t contents = 0;
        rr_err e;
        if (rr_rmf_get_brush(room, k, &b) != RR_OK)
            return;
        p[0] = b->mins[0] + (b->maxs[0] - b->mins[0]) / 2;
        p[1] = b->mins[1] + (b->maxs[1] - b->mins[1]) / 2;
        p[2] = b->mins[2] + (b->maxs[2] - b->mins[2]) / 2;
        e = rr_rmf_point_contents(room, p, &contents);
        plat_printf("  brush %u centre %d %d %d: %d contents 0x%x\n", (unsigned)k, (int)p[0],
                    (int)p[1], (int)p[2], (int)e, (unsigned)contents);
        top[0] = bottom[0] = p[0];
        top[1] = bottom[1] = p[1];
        top[2] = b->maxs[2] + (64 << room->coord_frac);
        bottom[2] = b->mins[2] - (64 << room->coord_frac);
        e = rr_rmf_trace(room, top, bottom, 0, 0xffffffffu, &t);
        plat_printf("  ray down: %d fraction %d brush %d plane %d end %d %d %d\n", (int)e,
                    (int)t.fraction, (int)t.brush, (int)t.plane, (int)t.end[0], (int)t.end[1],
                    (int)t.end[2]);
    }
}

static void rmesh_queries(const rr_room *room)
{
    const rr_rmesh_head *head;
    rr_rmesh_ray ray;
    rr_rmesh_hit hit;
    int i, j;
    if (rr_rmesh_head_get(room, &head) != RR_OK)
        return;
    plat_printf("  rmesh: %u triangles, %u triggers\n", (unsigned)head->ntris,
                (unsigned)head->ntriggers);
    /* Rays straight down (y is up in RMesh) from above the bounds, over an
     * N x N grid of the bounds' x-z extent. */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            rr_err e;
            ray.origin[0] = spread(head->bmin[0], head->bmax[0], i);
            ray.origin[1] = head->bmax[1] + 16;
            ray.origin[2] = spread(head->bmin[2], head->bmax[2], j);
            ray.dir.x = 0;
            ray.dir.y = -RR_FIX_ONE;
            ray.dir.z = 0;
            ray.max_dist = head->bmax[1] - head->bmin[1] + 32;
            e = rr_rmesh_raycast(room, &ray, &hit);
            plat_printf("  ray %d %d: %d hit %d tri %u dist %d\n", (int)ray.origin[0],
                        (int)ray.origin[2], (int)e, hit.hit, (unsigned)hit.tri, (int)hit.dist);
        }
}

int main(void)
{
    uint32_t i, opened = 0;
    plat_init();
    plat_printf("%u rooms in the pack\n", (unsigned)rooms_count);
    for (i = 0; i < rooms_count; i++) {
        const rooms_room *r = &rooms_table[i];
        rr_room room;
        int32_t need = rr_arena_size(r->blob, r->size);
        rr_err e;
        plat_printf("%s: format %u, %u bytes, arena %d\n", r->name, (unsigned)r->format,
                    (unsigned)r->size, (int)need);
        if (need < 0 || (uint32_t)need > sizeof arena) {
            plat_printf("FAIL %s: arena of %u bytes too small\n", r->name, (unsigned)sizeof arena);
            continue;
        }
        e = rr_open(r->blob, r->size, arena, sizeof arena, &room);
        if (e != RR_OK) {
            plat_printf("FAIL %s: rr_open: %s\n", r->name, rr_strerror(e));
            continue;
        }
        opened++;
        if (room.format == RR_FMT_ROO)
            roo_queries(&room);
        else if (room.format == RR_FMT_RMF)
            rmf_queries(&room);
        else if (room.format == RR_FMT_RMESH)
            rmesh_queries(&room);
    }
    /* The name lookup a game uses. */
    plat_printf("find roo/sample: %s\n", rooms_find("roo/sample") ? "found" : "missing");
    plat_printf("# example: %u passed, %u failed\n", (unsigned)opened,
                (unsigned)(rooms_count - opened));
    plat_exit(opened == rooms_count ? 0 : 1);
}

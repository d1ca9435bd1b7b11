/* demo.c - the program `make run` runs on a board: every blob it was linked
 * with is opened in place (const data in flash, no copy) and described, then
 * its format's runtime answers a few typical game questions about it. */
#include "rr.h"
#include "rr_emi.h"
#include "rr_plat.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"
#include "rr_test_blobs.h"

static const char *const formats[] = {"raw", "rmesh", "rmf", "roo", "emi"};

static uint32_t arena[4096]; /* 16 KB: more than any sample needs (rr_arena_size says) */

/* A coordinate in source units with two decimals, integer math only. */
static void put_coord(int32_t c, uint32_t frac)
{
    int64_t v = c, scaled = (v < 0 ? -v : v) * 100;
    int64_t r = (scaled + ((int64_t)1 << frac >> 1)) >> frac;
    plat_printf("%s%lld.%02lld", v < 0 && r ? "-" : "", (long long)(r / 100), (long long)(r % 100));
}

static void put_point(const int32_t *p, int n, uint32_t frac)
{
    int i;
    plat_puts("(");
    for (i = 0; i < n; i++) {
        put_coord(p[i], frac);
        plat_puts(i + 1 < n ? ", " : ")");
    }
}

static const char *block_name(int32_t b)
{
    static const char *const names[] = {"free", "solid wall", "step too high",
                                        "ceiling too low", "no-move sector"};
    return b >= 0 && b < 5 ? names[b] : "?";
}

static void demo_roo(const rr_room *room)
{
    rr_roo_info info;
    rr_roo_heights h;
    rr_roo_move m;
    rr_roo_sight s;
    int32_t c[2], to[2], eye[3], far[3];
    uint32_t f = room->coord_frac;
    if (rr_roo_get_info(room, &info))
        return;
    plat_printf("  Meridian 59 room v%u: %u sectors, %u walls, %u BSP nodes (depth %u)\n",
                (unsigned)info.version, (unsigned)info.sectors, (unsigned)info.walls,
                (unsigned)info.nodes, (unsigned)info.bsp_depth);
    c[0] = info.rect[0] + (info.rect[2] - info.rect[0]) / 4;
    c[1] = info.rect[1] + (info.rect[3] - info.rect[1]) / 4;
    if (rr_roo_height(room, c[0], c[1], &h) == RR_OK) {
        plat_puts("  at ");
        put_point(c, 2, f);
        plat_printf(": sector %d, floor ", (int)h.sector);
        put_coord(h.floor, f);
        plat_puts(", ceiling ");
        put_coord(h.ceiling, f);
        plat_puts("\n");
    }
    to[0] = info.rect[2] - (info.rect[2] - info.rect[0]) / 4;
    to[1] = info.rect[3] - (info.rect[3] - info.rect[1]) / 4;
    if (rr_roo_can_move(room, c[0], c[1], to[0], to[1], 64 << f, 40 << f, 256 << f, &m) == RR_OK) {
        plat_puts("  walk to ");
        put_point(to, 2, f);
        plat_printf(" (radius 64): %s, stops at ", block_name(m.block));
        put_point(&m.x, 2, f);
        plat_puts("\n");
    }
    eye[0] = c[0], eye[1] = c[1], eye[2] = h.floor + (150 << f);
    far[0] = to[0], far[1] = to[1], far[2] = eye[2];
    if (rr_roo_line_of_sight(room, eye, far, &s) == RR_OK)
        plat_printf("  line of sight to there: %s\n", s.visible ? "clear" : "blocked");
}

static void demo_rmesh(const rr_room *room)
{
    const rr_rmesh_head *hd;
    rr_rmesh_ray ray;
    rr_rmesh_hit hit;
    uint32_t f = room->coord_frac, trig, i = 0, n = 0;
    int k;
    if (rr_rmesh_head_get(room, &hd))
        return;
    plat_printf("  room mesh: %u collision triangles, %u BVH nodes, %u trigger boxes, %u entities\n",
                (unsigned)hd->ntris, (unsigned)hd->nnodes, (unsigned)hd->ntriggers,
                (unsigned)hd->nents);
    for (k = 0; k < 3; k++)
        ray.origin[k] = hd->bmin[k] + (hd->bmax[k] - hd->bmin[k]) / 2;
    ray.dir.x = 0, ray.dir.y = -RR_FIX_ONE, ray.dir.z = 0;
    ray.max_dist = hd->bmax[1] - hd->bmin[1] + 1;
    if (rr_rmesh_raycast(room, &ray, &hit) == RR_OK) {
        plat_puts("  ray down from ");
        put_point(ray.origin, 3, f);
        if (hit.hit) {
            plat_printf(": hits triangle %u at ", (unsigned)hit.tri);
            put_point(hit.point, 3, f);
            plat_puts("\n");
        } else {
            plat_puts(": no floor below\n");
        }
    }
    plat_printf("  trigger box at that point: ");
    if (rr_rmesh_trigger_at(room, ray.origin, &trig) == RR_OK) {
        const rr_rmesh_trigger *box;
        const char *name = "";
        rr_rmesh_trigger_get(room, trig, &box, &name);
        plat_printf("%s\n", name);
    } else {
        plat_printf("none\n");
    }
    while (rr_rmesh_entity_next(room, RR_RMESH_NCLASSES, &i) == RR_OK)
        i++, n++;
    plat_printf("  %u entities iterated\n", (unsigned)n);
}

static const char *contents_name(uint32_t c)
{
    return c & RR_RMF_SOLID ? "solid" : c & RR_RMF_WATER ? "water" : c & RR_RMF_TRIGGER ? "trigger"
         : c & RR_RMF_NONSOLID ? "non-solid brush" : "empty";
}

static void demo_rmf(const rr_room *room)
{
    rr_rmf_counts n;
    rr_rmf_trace_result tr;
    const rr_rmf_entity *ent;
    int32_t start[3], end[3], half[3];
    uint32_t player, f = room->coord_frac, c = 0;
    int k;
    if (rr_rmf_get_counts(room, &n))
        return;
    plat_printf("  Hammer map v%u.%u: %u brushes, %u planes, BSP depth %u, %u entities\n",
                (unsigned)n.version / 10, (unsigned)n.version % 10, (unsigned)n.brushes,
                (unsigned)n.planes, (unsigned)n.tree_depth, (unsigned)n.entities);
    if (rr_rmf_find_entity(room, "classname", "info_player_start", 0, &player) != RR_OK)
        return;
    if (rr_rmf_get_entity(room, player, &ent) != RR_OK)
        return;
    for (k = 0; k < 3; k++)
        start[k] = ent->origin[k];
    plat_printf("  info_player_start (entity %u) at ", (unsigned)player);
    put_point(start, 3, f);
    plat_puts("\n");
    rr_rmf_point_contents(room, start, &c);
    plat_printf("  contents there: %s\n", contents_name(c));
    half[0] = half[1] = 16 << f, half[2] = 36 << f;  /* a Half-Life player hull */
    for (k = 0; k < 4; k++) {
        end[0] = start[0] + (k == 0 ? 4096 << f : k == 1 ? -(4096 << f) : 0);
        end[1] = start[1] + (k == 2 ? 4096 << f : 0);
        end[2] = start[2] + (k == 3 ? -(4096 << f) : 0);
        if (rr_rmf_trace(room, start, end, half, RR_RMF_SOLID, &tr) != RR_OK)
            continue;
        plat_printf("  player box moving %s: stops at ", k == 0 ? "east" : k == 1 ? "west"
                    : k == 2 ? "north" : "down");
        put_point(tr.end, 3, f);
        plat_printf(" (fraction %d/65536, brush %d)\n", (int)tr.fraction, (int)tr.brush);
    }
}

static void demo_emi(const rr_room *room)
{
    static rr_emi_local pose[64];
    static rr_emi_xform model[64];
    rr_emi_info info;
    const char *name = "";
    rr_fix dur = 0;
    uint32_t j, t;
    if (rr_emi_get_info(room, &info) || info.njoints > 64)
        return;
    plat_printf("  figure %s: %u joints, %u vertices, %u animations\n", info.name,
                (unsigned)info.njoints, (unsigned)info.nverts, (unsigned)info.nanims);
    if (info.nanims == 0 || rr_emi_anim_get(room, 0, &name, &dur))
        return;
    if (rr_emi_joint_find(room, "hand_l", &j) != RR_OK)
        j = info.njoints - 1;
    for (t = 0; t < 4; t++) {
        rr_emi_sample_job s = {room, 0, (rr_fix)(dur / 4 * (int32_t)t), RR_EMI_LOOP, pose, 64, 0};
        rr_emi_model_job m = {room, pose, model, 64};
        if (rr_emi_sample_job_run(&s) || rr_emi_model_job_run(&m))
            return;
        plat_printf("  %s at t=%d ms: joint %u at ", name,
                    (int)(((int64_t)s.time * 1000) >> 16), (unsigned)j);
        put_point(model[j].t, 3, info.coord_frac);
        plat_puts("\n");
    }
}

int main(void)
{
    unsigned i;
    plat_init();
    plat_printf("romroom %d.%d demo: %u blob(s) linked as const data\n", RR_VERSION_MAJOR,
                RR_VERSION_MINOR, rr_test_nblobs);
    for (i = 0; i < rr_test_nblobs; i++) {
        const rr_test_blob *b = &rr_test_blobs[i];
        rr_room room;
        int32_t need = rr_arena_size(b->data, b->size);
        rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &room);
        plat_printf("\n%s: %u bytes, arena %d bytes: %s\n", b->name, b->size, (int)need,
                    rr_strerror(e));
        if (e)
            continue;
        plat_printf("  format %s, coordinates with %u fractional bits, %u sections\n",
                    room.format < 5 ? formats[room.format] : "?", (unsigned)room.coord_frac,
                    (unsigned)room.nsections);
        if (room.format == RR_FMT_ROO)
            demo_roo(&room);
        else if (room.format == RR_FMT_RMESH)
            demo_rmesh(&room);
        else if (room.format == RR_FMT_RMF)
            demo_rmf(&room);
        else if (room.format == RR_FMT_EMI)
            demo_emi(&room);
    }
    return 0;
}

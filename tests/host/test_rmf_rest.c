/* test_rmf_rest.c - traces that start touching or inside a brush, and the
 * configurable contents table, on the
 * project's sample map (floor brush: z from -16 to 0; player hull 16x16x36).
 * Regression for a box resting exactly on a floor falling through it when a
 * long trace ended beyond the floor's far side (found in the demo). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rr.h"
#include "rr_rmf.h"
#include "rr_test.h"
#include "rrb_format.h"

static rr_room room;

static rr_rmf_trace_result down(int32_t z_units, int box)
{
    int32_t f = (int32_t)room.coord_frac;
    int32_t s[3] = {0, -128 * (1 << f), z_units * (1 << f)};
    int32_t e[3] = {0, -128 * (1 << f), (z_units - 4096) * (1 << f)};
    int32_t h[3] = {16 * (1 << f), 16 * (1 << f), 36 * (1 << f)};
    rr_rmf_trace_result r;
    rr_rmf_trace(&room, s, e, box ? h : NULL, RR_RMF_SOLID, &r);
    return r;
}

static rr_rmf_trace_result up(int32_t z_units)
{
    int32_t f = (int32_t)room.coord_frac;
    int32_t s[3] = {0, -128 * (1 << f), z_units * (1 << f)};
    int32_t e[3] = {0, -128 * (1 << f), (z_units + 100) * (1 << f)};
    int32_t h[3] = {16 * (1 << f), 16 * (1 << f), 36 * (1 << f)};
    rr_rmf_trace_result r;
    rr_rmf_trace(&room, s, e, h, RR_RMF_SOLID, &r);
    return r;
}

int main(void)
{
    const rrb_format *f = rrb_format_by_name("rmf");
    char err[RRB_ERR_MAX], path[] = "/tmp/rr_test_rmf_rest";
    uint8_t *src, *blob;
    size_t n, bn;
    static uint32_t mem[1 << 16], arena[1 << 14];
    rrb_opts o = {0};
    rrb_blob *b;
    rr_rmf_trace_result r;
    plat_init();
    mkdir(path, 0777);
    if (!f || f->sample(path, err, sizeof err) ||
        rrb_load_file("/tmp/rr_test_rmf_rest/sample.rmf", &src, &n, err, sizeof err)) {
        RT_EXPECT("rest.sample", 0);
        return rt_done("test_rmf_rest");
    }
    o.quiet = 1;
    b = f->bake(src, n, "sample.rmf", &o, err, sizeof err);
    RT_EXPECT("rest.bake", b && rrb_blob_finish(b, 0, &blob, &bn) == 0 && bn <= sizeof mem);
    memcpy(mem, blob, bn);
    RT_EXPECT_EQ("rest.open", rr_open(mem, (uint32_t)bn, arena, sizeof arena, &room), RR_OK);
    r = down(37, 1);  /* 1 unit above: stops touching the floor */
    RT_EXPECT("rest.above", r.fraction > 0 && r.brush == 0 && r.end[2] >= 36 << room.coord_frac);
    r = down(36, 1);  /* resting exactly on the floor: cannot move down at all */
    RT_EXPECT("rest.touching", r.fraction == 0 && r.brush == 0 && !r.start_solid);
    /* A start inside a brush (Quake III's CM_TraceThroughBrush): the brush
     * blocks only a trace that ends inside it too. */
    r = down(35, 1);  /* 1 unit into the floor, ending far below it: passes (nothing below) */
    RT_EXPECT("rest.embedded-down", r.fraction == RR_FIX_ONE && r.start_solid && !r.all_solid &&
                                        r.brush == -1);
    r = up(35);       /* ... moving out of it: allowed */
    RT_EXPECT("rest.embedded-up", r.fraction == RR_FIX_ONE && r.start_solid && !r.all_solid);
    r = down(0, 1);   /* half inside the floor, ending below its far side: passes */
    RT_EXPECT("rest.embedded-through", r.fraction == RR_FIX_ONE && r.start_solid && !r.all_solid);
    {                 /* 1 unit into the floor, ending 0.5 unit deeper: still inside */
        int32_t fr = (int32_t)room.coord_frac;
        int32_t s[3] = {0, -128 * (1 << fr), 35 * (1 << fr)};
        int32_t e[3] = {0, -128 * (1 << fr), 35 * (1 << fr) - (1 << fr) / 2};
        int32_t h[3] = {16 * (1 << fr), 16 * (1 << fr), 36 * (1 << fr)};
        rr_rmf_trace(&room, s, e, h, RR_RMF_SOLID, &r);
        RT_EXPECT("rest.embedded-stays", r.fraction == 0 && r.start_solid && r.all_solid &&
                                             r.brush == 0 && r.end[2] == s[2]);
    }
    r = down(0, 0);   /* a ray starting on the floor surface, pointing down */
    RT_EXPECT("rest.ray-on-surface", r.fraction == 0 && r.brush == 0);
    /* the contents table is configurable: func_water baked as trigger */
    {
        uint32_t ei, c = 0, k;
        const rr_rmf_entity *ent;
        const rr_rmf_brush *br;
        int32_t mid[3];
        rrb_blob *b2;
        uint8_t *blob2;
        size_t bn2;
        RT_EXPECT("contents.water-entity",
                  rr_rmf_find_entity(&room, "classname", "func_water", 0, &ei) == RR_OK &&
                  rr_rmf_get_entity(&room, ei, &ent) == RR_OK && ent->nbrushes > 0 &&
                  rr_rmf_get_brush(&room, ent->first_brush, &br) == RR_OK);
        for (k = 0; k < 3; k++)
            mid[k] = br->mins[k] / 2 + br->maxs[k] / 2;
        RT_EXPECT("contents.default-water",
                  rr_rmf_point_contents(&room, mid, &c) == RR_OK && (c & RR_RMF_WATER));
        o.contents_rules = "func_water=trigger";
        b2 = f->bake(src, n, "sample.rmf", &o, err, sizeof err);
        RT_EXPECT("contents.rebake", b2 && rrb_blob_finish(b2, 0, &blob2, &bn2) == 0);
        memcpy(mem, blob2, bn2);
        RT_EXPECT_EQ("contents.reopen", rr_open(mem, (uint32_t)bn2, arena, sizeof arena, &room),
                     RR_OK);
        RT_EXPECT("contents.rule-applied", rr_rmf_point_contents(&room, mid, &c) == RR_OK &&
                                               (c & RR_RMF_TRIGGER) && !(c & RR_RMF_WATER));
        o.contents_rules = "func_water";  /* malformed: refused with a message */
        RT_EXPECT("contents.bad-rule", f->bake(src, n, "sample.rmf", &o, err, sizeof err) == NULL &&
                                           strstr(err, "expected class=contents") != NULL);
        free(blob2);
        rrb_blob_free(b2);
    }
    free(src);
    free(blob);
    rrb_blob_free(b);
    return rt_done("test_rmf_rest");
}

/* rrb_emu.c - `rrbake emulate`'s query runner, shared by rrbake and the
 * board program tools/emulate/rr_emulate.c (see rrb_emu.h). C99, integers
 * only, no C library: it runs on the libc-less MIPS boards too. */
#include "rrb_emu.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"

/* ---- ops ---- */

static const struct {
    uint32_t fmt, op;
    const char *name;
} ops[] = {
    {RR_FMT_ROO, RRE_ROO_LOCATE, "locate"},     {RR_FMT_ROO, RRE_ROO_HEIGHT, "height"},
    {RR_FMT_ROO, RRE_ROO_MOVE, "move"},         {RR_FMT_ROO, RRE_ROO_SLIDE, "slide"},
    {RR_FMT_ROO, RRE_ROO_SIGHT, "sight"},       {RR_FMT_ROO, RRE_ROO_GRID, "grid"},
    {RR_FMT_RMESH, RRE_RMESH_RAY, "ray"},       {RR_FMT_RMESH, RRE_RMESH_SWEEP, "sweep"},
    {RR_FMT_RMESH, RRE_RMESH_TRIGGER, "trigger"}, {RR_FMT_RMESH, RRE_RMESH_BOX, "box"},
    {RR_FMT_RMF, RRE_RMF_CONTENTS, "contents"}, {RR_FMT_RMF, RRE_RMF_TRACE, "trace"},
    {RR_FMT_RMF, RRE_RMF_BOX, "box"},
};
#define NOPS (sizeof ops / sizeof ops[0])

static int same(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

uint32_t rre_op_find(uint32_t fmt, const char *name)
{
    uint32_t i;
    for (i = 0; i < NOPS; i++)
        if (ops[i].fmt == fmt && same(ops[i].name, name))
            return ops[i].op;
    return 0;
}

const char *rre_op_names(uint32_t fmt)
{
    switch (fmt) {
    case RR_FMT_ROO: return "locate height move slide sight grid";
    case RR_FMT_RMESH: return "ray sweep trigger box";
    case RR_FMT_RMF: return "contents trace box";
    default: return "";
    }
}

/* ---- the answer line ---- */

static void put(rre_line *l, const char *s)
{
    while (*s && l->n + 1 < RRE_LINE_MAX)
        l->s[l->n++] = *s++;
    l->s[l->n] = 0;
}

static void put_u(rre_line *l, uint32_t v)
{
    char d[11];
    int i = 10;
    d[10] = 0;
    do {
        d[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    put(l, d + i);
}

static void put_i(rre_line *l, int32_t v)
{
    if (v < 0) {
        put(l, "-");
        put_u(l, 0u - (uint32_t)v);
    } else {
        put_u(l, (uint32_t)v);
    }
}

/* 0x and digits: width 8 (16.16 values, whole words) or as few as needed. */
static void put_x(rre_line *l, uint32_t v, int width8)
{
    char d[9];
    int i = 8;
    d[8] = 0;
    do {
        d[--i] = "0123456789abcdef"[v & 15u];
        v >>= 4;
    } while (v || (width8 && i > 0));
    put(l, "0x");
    put(l, d + i);
}

/* " label value" pieces */
static void f_i(rre_line *l, const char *label, int32_t v)
{
    put(l, " "), put(l, label), put(l, " "), put_i(l, v);
}
static void f_u(rre_line *l, const char *label, uint32_t v)
{
    put(l, " "), put(l, label), put(l, " "), put_u(l, v);
}
static void f_x(rre_line *l, const char *label, uint32_t v)
{
    put(l, " "), put(l, label), put(l, " "), put_x(l, v, 0);
}
static void f_fix(rre_line *l, const char *label, rr_fix v)
{
    put(l, " "), put(l, label), put(l, " "), put_x(l, (uint32_t)v, 1);
}
static void f_pt(rre_line *l, const char *label, const int32_t *p, int n)
{
    int i;
    put(l, " "), put(l, label);
    for (i = 0; i < n; i++)
        put(l, " "), put_i(l, p[i]);
}
static void f_vec(rre_line *l, const char *label, rr_vec3 v)
{
    put(l, " "), put(l, label), put(l, " ");
    put_x(l, (uint32_t)v.x, 1), put(l, " "), put_x(l, (uint32_t)v.y, 1), put(l, " ");
    put_x(l, (uint32_t)v.z, 1);
}
static void f_list(rre_line *l, const uint32_t *items, uint32_t n)
{
    uint32_t k;
    for (k = 0; k < n; k++)
        put(l, " "), put_u(l, items[k]);
}

static const char *block_name(int32_t b)
{
    static const char *const n[] = {"free", "wall", "step", "ceiling", "nomove"};
    return b >= 0 && b < 5 ? n[b] : "?";
}

static void f_move(rre_line *l, const char *pre, const rr_roo_move *m)
{
    int32_t p[2];
    p[0] = m->x, p[1] = m->y;
    put(l, pre), put(l, "block "), put(l, block_name(m->block));
    f_i(l, "wall", m->wall), f_fix(l, "fraction", m->fraction), f_pt(l, "stop", p, 2);
}

/* ---- the queries (what `rrbake query` prints, on one line, as integers) ---- */

static rr_err roo_height(const rr_room *room, const int32_t *a, rre_line *l)
{
    rr_roo_heights h;
    rr_err e = rr_roo_height(room, a[0], a[1], &h);
    if (e == RR_ERR_NOTFOUND)
        return put(l, "outside"), RR_OK;
    if (!e) {
        put(l, "sector "), put_i(l, h.sector), f_x(l, "flags", h.flags);
        f_i(l, "floor", h.floor), f_i(l, "floor_surface", h.floor_surface);
        f_i(l, "ceiling", h.ceiling);
    }
    return e;
}

static rr_err roo_grid(const rr_room *room, const int32_t *a, rre_line *l)
{
    rr_roo_cell c;
    rr_err e = rr_roo_grid_at(room, a[0], a[1], &c);
    if (e == RR_ERR_MISSING || e == RR_ERR_NOTFOUND)
        return put(l, e == RR_ERR_MISSING ? "no grids" : "outside the grids"), RR_OK;
    if (!e) {
        put(l, "grid "), put_u(l, c.has_grid), f_x(l, "move", c.move);
        f_x(l, "flags", c.flags), f_x(l, "monster", c.monster);
        f_u(l, "hires", c.has_hires), f_x(l, "hires_cell", c.hires);
    }
    return e;
}

static rr_err roo(const rr_room *room, const rre_query *q, rre_line *l)
{
    const int32_t *a = q->a;
    rr_err e;
    switch (q->op) {
    case RRE_ROO_LOCATE: {
        rr_roo_where w;
        e = rr_roo_locate(room, a[0], a[1], &w);
        if (e == RR_ERR_NOTFOUND)
            return put(l, "outside"), f_i(l, "node", w.node), RR_OK;
        if (!e)
            put(l, "sector "), put_i(l, w.sector), f_i(l, "leaf", w.leaf), f_i(l, "node", w.node);
        return e;
    }
    case RRE_ROO_HEIGHT:
        return roo_height(room, a, l);
    case RRE_ROO_MOVE: {
        rr_roo_move m;
        e = rr_roo_can_move(room, a[0], a[1], a[2], a[3], a[4], a[5], a[6], &m);
        if (!e)
            f_move(l, "", &m);
        return e;
    }
    case RRE_ROO_SLIDE: {
        rr_roo_move m1, m2;
        e = rr_roo_slide(room, a[0], a[1], a[2], a[3], a[4], a[5], a[6], &m1, &m2);
        if (!e)
            f_move(l, "first ", &m1), f_move(l, "; slide ", &m2);
        return e;
    }
    case RRE_ROO_SIGHT: {
        rr_roo_sight s;
        e = rr_roo_line_of_sight(room, a, a + 3, &s);
        if (!e)
            put(l, "visible "), put_i(l, s.visible), f_i(l, "wall", s.wall),
                f_fix(l, "fraction", s.fraction);
        return e;
    }
    case RRE_ROO_GRID:
        return roo_grid(room, a, l);
    }
    return RR_ERR_ARG;
}

static rr_err rmesh_ray(const rr_room *room, const int32_t *a, rre_line *l)
{
    rr_rmesh_ray r;
    rr_rmesh_hit h;
    rr_err e;
    r.origin[0] = a[0], r.origin[1] = a[1], r.origin[2] = a[2];
    r.dir.x = a[3], r.dir.y = a[4], r.dir.z = a[5];   /* 16.16 */
    r.max_dist = a[6];
    e = rr_rmesh_raycast(room, &r, &h);
    if (e)
        return e;
    put(l, "hit "), put_i(l, h.hit);
    if (h.hit) {
        f_u(l, "triangle", h.tri), f_u(l, "source_triangle", h.src);
        f_u(l, "surface", h.surface), f_i(l, "distance", h.dist);
        f_fix(l, "fraction", h.frac), f_pt(l, "point", h.point, 3);
        f_vec(l, "normal", h.normal);
    }
    return RR_OK;
}

static rr_err rmesh_sweep(const rr_room *room, const rre_query *q, rre_line *l)
{
    rr_rmesh_sweep s;
    rr_rmesh_sweep_out o;
    rr_err e;
    int i;
    for (i = 0; i < 3; i++)
        s.from[i] = q->a[i], s.to[i] = q->a[3 + i], s.radius[i] = q->a[6 + i];
    s.max_slides = q->nargs > 9 ? (uint32_t)q->a[9] : RR_RMESH_MAX_SLIDES;
    e = rr_rmesh_sweep_move(room, &s, &o);
    if (e)
        return e;
    f_pt(l, "position", o.pos, 3), f_i(l, "hit", o.hit), f_u(l, "slides", o.slides);
    if (o.hit)
        f_u(l, "triangle", o.tri), f_vec(l, "normal", o.normal);
    return RR_OK;
}

static rr_err rmesh(const rr_room *room, const rre_query *q, rre_line *l)
{
    const int32_t *a = q->a;
    rr_err e;
    switch (q->op) {
    case RRE_RMESH_RAY:
        return rmesh_ray(room, a, l);
    case RRE_RMESH_SWEEP:
        return rmesh_sweep(room, q, l);
    case RRE_RMESH_TRIGGER: {
        uint32_t i;
        const rr_rmesh_trigger *box;
        const char *name = "";
        e = rr_rmesh_trigger_at(room, a, &i);
        if (e == RR_ERR_NOTFOUND)
            return put(l, "trigger none"), RR_OK;
        if (e || (e = rr_rmesh_trigger_get(room, i, &box, &name)) != RR_OK)
            return e;
        put(l, "trigger "), put_u(l, i), put(l, " name "), put(l, name);
        f_pt(l, "min", box->min, 3), f_pt(l, "max", box->max, 3);
        return RR_OK;
    }
    case RRE_RMESH_BOX: {
        uint32_t items[64];
        rr_rmesh_list list;
        list.items = items, list.cap = 64, list.count = 0, list.truncated = 0;
        e = rr_rmesh_box_tris(room, a, a + 3, &list);
        if (e)
            return e;
        put(l, "triangles "), put_u(l, list.count);
        if (list.truncated)
            put(l, " (list full: more touch)");
        put(l, ":"), f_list(l, items, list.count);
        return RR_OK;
    }
    }
    return RR_ERR_ARG;
}

static rr_err rmf(const rr_room *room, const rre_query *q, rre_line *l)
{
    const int32_t *a = q->a;
    uint32_t items[64];
    rr_rmf_list list;
    rr_err e;
    list.items = items, list.max = 64, list.count = list.total = 0;
    switch (q->op) {
    case RRE_RMF_CONTENTS: {
        uint32_t c;
        e = rr_rmf_point_contents(room, a, &c);
        if (!e)
            e = rr_rmf_point_brushes(room, a, &list);
        if (e)
            return e;
        put(l, "contents "), put_x(l, c, 0);
        f_u(l, "brushes", list.total), put(l, ":"), f_list(l, items, list.count);
        return RR_OK;
    }
    case RRE_RMF_TRACE: {
        rr_rmf_trace_result t;
        e = rr_rmf_trace(room, a, a + 3, q->nargs > 6 ? a + 6 : 0, 0xffffffffu, &t);
        if (e)
            return e;
        put(l, "fraction "), put_x(l, (uint32_t)t.fraction, 1), f_pt(l, "end", t.end, 3);
        f_u(l, "start_solid", t.start_solid), f_u(l, "all_solid", t.all_solid);
        if (t.brush >= 0) {
            f_i(l, "brush", t.brush), f_i(l, "plane", t.plane);
            f_vec(l, "normal", t.normal), f_x(l, "contents", t.contents);
        }
        return RR_OK;
    }
    case RRE_RMF_BOX:
        e = rr_rmf_box_brushes(room, a, a + 3, &list);
        if (e)
            return e;
        put(l, "brushes "), put_u(l, list.total);
        if (list.total > list.count)
            put(l, " (first 64 listed)");
        put(l, ":"), f_list(l, items, list.count);
        return RR_OK;
    }
    return RR_ERR_ARG;
}

void rre_run(const rr_room *room, const rre_query *q, rre_line *line)
{
    rr_err e = RR_ERR_ARG;
    line->n = 0;
    line->s[0] = 0;
    if (q->op >= RRE_ROO_LOCATE && q->op <= RRE_ROO_GRID)
        e = roo(room, q, line);
    else if (q->op >= RRE_RMESH_RAY && q->op <= RRE_RMESH_BOX)
        e = rmesh(room, q, line);
    else if (q->op >= RRE_RMF_CONTENTS && q->op <= RRE_RMF_BOX)
        e = rmf(room, q, line);
    if (e) {   /* whatever was written before the error is replaced */
        line->n = 0;
        put(line, "error: ");
        put(line, rr_strerror(e));
    }
    if (line->s[0] == ' ') {   /* an answer that starts with a " label value" piece */
        uint32_t i;
        for (i = 0; i < line->n; i++)
            line->s[i] = line->s[i + 1];
        line->n--;
    }
}

/* ---- where the input goes ---- */

int rre_input_place(const char *board, uint32_t *load, uint32_t *read, uint32_t *max)
{
    /* mps2-an385: the upper 12 MB of the 16 MB PSRAM (the program's own
     *   constants sit at its start, linker/mps2-an385.ld);
     * versatilepb: 64 MB into its 128 MB of RAM (the image is at 0x8000,
     *   newlib's heap grows up from its end, the stack down from 128 MB);
     * malta: 64 MB into RAM, read through KSEG0 (the image is at 1 MB);
     * microbit: flash from 64 KB (the program is linked into the first
     *   64 KB, see the Makefile), 192 KB up to the end of the 256 KB. */
    static const struct {
        const char *name;
        uint32_t load, read, max;
    } place[] = {
        {"mps2-an385", 0x21400000u, 0x21400000u, 0x00c00000u},
        {"versatilepb", 0x04000000u, 0x04000000u, 0x02000000u},
        {"malta-be", 0x04000000u, 0x84000000u, 0x02000000u},
        {"malta-le", 0x04000000u, 0x84000000u, 0x02000000u},
        {"microbit", 0x00010000u, 0x00010000u, 0x00030000u},
    };
    uint32_t i;
    for (i = 0; i < sizeof place / sizeof place[0]; i++)
        if (same(place[i].name, board)) {
            *load = place[i].load, *read = place[i].read, *max = place[i].max;
            return 0;
        }
    return -1;
}

/* rrb_cli_info.c - the per-format part of `rrbake info` for a blob, read
 * through the runtime's own accessors (what a program would see). */
#include <math.h>
#include <string.h>

#include "rr_blobfmt.h"
#include "rr_emi.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"
#include "rrb_cli.h"

static double un(int32_t c, unsigned frac)
{
    return ldexp((double)c, -(int)frac);
}

static void source_info(const rr_room *room, FILE *o, int json)
{
    const void *p;
    uint32_t n;
    const rr_blob_info *bi;
    if (rr_section(room, RR_SEC_INFO, &p, &n) || n < 1)
        return;
    bi = p;
    if (json) {
        fprintf(o, "\"source\":");
        rrb_json_str(o, rr_string(room, bi->source_name));
        fprintf(o, ",\"source_size\":%u,\"variant\":%u,", bi->source_size, bi->variant);
    } else
        fprintf(o, "  source %s, %u bytes, variant %u\n", rr_string(room, bi->source_name),
                bi->source_size, bi->variant);
}

static void roo_info(const rr_room *room, FILE *o, int json, unsigned f)
{
    rr_roo_info i;
    if (rr_roo_get_info(room, &i))
        return;
    if (json) {
        fprintf(o, "\"version\":%u,\"nodes\":%u,\"leaves\":%u,\"sectors\":%u,\"slopes\":%u,"
                "\"walls\":%u,\"sidedefs\":%u,\"bsp_depth\":%u,\"rect\":[%.6g,%.6g,%.6g,%.6g],"
                "\"grid\":[%d,%d],\"hires_grid\":[%d,%d],\"security_ok\":%s",
                i.version, i.nodes, i.leaves, i.sectors, i.slopes, i.walls, i.sidedefs,
                i.bsp_depth, un(i.rect[0], f), un(i.rect[1], f), un(i.rect[2], f),
                un(i.rect[3], f), i.grid_rows, i.grid_cols, i.hires_rows, i.hires_cols,
                i.security_ok ? "true" : "false");
        return;
    }
    fprintf(o, "  Meridian 59 room v%u: %u nodes (depth %u), %u leaves, %u sectors, %u slopes,\n"
            "  %u walls, %u sidedefs; rectangle %.6g,%.6g .. %.6g,%.6g client units\n",
            i.version, i.nodes, i.bsp_depth, i.leaves, i.sectors, i.slopes, i.walls,
            i.sidedefs, un(i.rect[0], f), un(i.rect[1], f), un(i.rect[2], f), un(i.rect[3], f));
    fprintf(o, "  grids %d x %d, high-res %d x %d; source checksum %s\n", i.grid_rows,
            i.grid_cols, i.hires_rows, i.hires_cols, i.security_ok ? "matched" : "did NOT match");
}

static void rmesh_info(const rr_room *room, FILE *o, int json, unsigned f)
{
    static const char *const var[] = {"vanilla", "cbre", "scpcbredux", "vbp"};
    const rr_rmesh_head *h;
    const rr_rmesh_rhead *rh = NULL;
    const char *v;
    if (rr_rmesh_head_get(room, &h))
        return;
    v = h->variant < 4 ? var[h->variant] : "?";
    rr_rmesh_render_head(room, &rh);
    if (json) {
        fprintf(o, "\"variant_name\":\"%s\",\"triangles\":%u,\"vertices\":%u,\"bvh_nodes\":%u,"
                "\"surfaces\":%u,\"triggers\":%u,\"entities\":%u,\"dropped\":%u,"
                "\"alpha_triangles\":%u,\"room_scale\":%s,\"bounds\":[%.6g,%.6g,%.6g,%.6g,%.6g,"
                "%.6g],\"render\":",
                v, h->ntris, h->nverts, h->nnodes, h->nsurfs, h->ntriggers, h->nents, h->dropped,
                h->alpha_tris, h->flags & RR_RMESH_ROOM_SCALE ? "true" : "false",
                un(h->bmin[0], f), un(h->bmin[1], f), un(h->bmin[2], f), un(h->bmax[0], f),
                un(h->bmax[1], f), un(h->bmax[2], f));
        if (rh)
            fprintf(o, "{\"groups\":%u,\"vertices\":%u,\"indices\":%u}", rh->ngroups,
                    rh->nverts, rh->nindices);
        else
            fprintf(o, "null");
        return;
    }
    fprintf(o, "  RMesh (%s%s): %u collision triangles, %u vertices, %u BVH nodes,\n"
            "  %u surfaces, %u trigger boxes, %u entities; %u zero-area triangles dropped,\n"
            "  %u alpha triangles (no collision)\n", v,
            h->flags & RR_RMESH_ROOM_SCALE ? ", room scale" : "", h->ntris, h->nverts,
            h->nnodes, h->nsurfs, h->ntriggers, h->nents, h->dropped, h->alpha_tris);
    fprintf(o, "  bounds %.6g %.6g %.6g .. %.6g %.6g %.6g\n", un(h->bmin[0], f),
            un(h->bmin[1], f), un(h->bmin[2], f), un(h->bmax[0], f), un(h->bmax[1], f),
            un(h->bmax[2], f));
    if (rh)
        fprintf(o, "  render data: %u groups, %u vertices, %u triangles\n", rh->ngroups,
                rh->nverts, rh->nindices / 3);
    else
        fprintf(o, "  render data: none (baked --collision-only)\n");
}

static void rmf_info(const rr_room *room, FILE *o, int json, unsigned f)
{
    rr_rmf_counts c;
    const void *p;
    uint32_t n;
    const rr_rmf_header *h;
    if (rr_rmf_get_counts(room, &c) || rr_section(room, RR_SEC_RMF_HEADER, &p, &n) || !n)
        return;
    h = p;
    if (json) {
        fprintf(o, "\"version\":%.1f,\"planes\":%u,\"sides\":%u,\"brushes\":%u,\"nodes\":%u,"
                "\"leaves\":%u,\"entities\":%u,\"keyvalues\":%u,\"cameras\":%u,\"paths\":%u,"
                "\"tree_depth\":%u,\"visgroups\":%u,\"bounds\":[%.6g,%.6g,%.6g,%.6g,%.6g,%.6g]",
                c.version / 10.0, c.planes, c.sides, c.brushes, c.nodes, c.leaves, c.entities,
                c.keyvalues, c.cameras, c.paths, c.tree_depth, h->nvisgroups, un(h->mins[0], f),
                un(h->mins[1], f), un(h->mins[2], f), un(h->maxs[0], f), un(h->maxs[1], f),
                un(h->maxs[2], f));
        return;
    }
    fprintf(o, "  RMF v%.1f: %u brushes, %u sides, %u planes; brush tree %u nodes, %u leaves, "
            "depth %u\n  %u entities, %u key/values, %u cameras, %u paths, %u visgroups\n",
            c.version / 10.0, c.brushes, c.sides, c.planes, c.nodes, c.leaves, c.tree_depth,
            c.entities, c.keyvalues, c.cameras, c.paths, h->nvisgroups);
    fprintf(o, "  bounds %.6g %.6g %.6g .. %.6g %.6g %.6g\n", un(h->mins[0], f),
            un(h->mins[1], f), un(h->mins[2], f), un(h->maxs[0], f), un(h->maxs[1], f),
            un(h->maxs[2], f));
}

static void emi_info(const rr_room *room, FILE *o, int json)
{
    rr_emi_info i;
    uint32_t a;
    if (rr_emi_get_info(room, &i))
        return;
    if (json) {
        fprintf(o, "\"name\":");
        rrb_json_str(o, i.name);
        fprintf(o, ",\"joints\":%u,\"vertices\":%u,\"triangles\":%u,\"max_influences\":%u,"
                "\"normals\":%s,\"anims\":[", i.njoints, i.nverts, i.ntris, i.max_infl,
                i.has_normals ? "true" : "false");
    } else
        fprintf(o, "  EMI figure %s: %u joints, %u vertices, %u triangles, up to %u "
                "influences per vertex, %s; %u animations\n", i.name, i.njoints, i.nverts,
                i.ntris, i.max_infl, i.has_normals ? "normals" : "no normals", i.nanims);
    for (a = 0; a < i.nanims; a++) {
        const char *name;
        rr_fix d;
        rr_emi_anim_get(room, a, &name, &d);
        if (json) {
            fprintf(o, "%s{\"name\":", a ? "," : "");
            rrb_json_str(o, name);
            fprintf(o, ",\"duration\":%.6f}", (double)d / 65536.0);
        } else
            fprintf(o, "    anim %u %s, %.6f s\n", a, name, (double)d / 65536.0);
    }
    if (json)
        fprintf(o, "]");
}

int rrb_cli_room_info(const rr_room *room, FILE *o, int json)
{
    unsigned f = room->coord_frac;
    if (json)
        fprintf(o, "{");
    source_info(room, o, json);
    if (json)
        fprintf(o, "\"coord_unit\":%.9g,", ldexp(1.0, -(int)f));
    if (room->format == RR_FMT_ROO)
        roo_info(room, o, json, f);
    else if (room->format == RR_FMT_RMESH)
        rmesh_info(room, o, json, f);
    else if (room->format == RR_FMT_RMF)
        rmf_info(room, o, json, f);
    else if (room->format == RR_FMT_EMI)
        emi_info(room, o, json);
    else if (json)
        fprintf(o, "\"raw\":true");
    if (json)
        fprintf(o, "}");
    return 0;
}

/* test_roo_reader.c - the .roo reader, writer, sample and malformed variants
 * against the corpus (argv[1] or $CORPUS, e.g. ../shared/corpus).
 *
 * Independent facts checked per corpus file (NOTES.md §1):
 *   version = the file name's prefix; parse ends exactly at EOF; security
 *   recomputed = stored (§1.13); width = 16*|thing1.x - thing0.x| and
 *   height = 16*|thing1.y - thing0.y| (§1.3); grid rows = height/1024,
 *   cols = width/1024, high-res = /256 (§1.10); v15 has server offset = file
 *   size; nodes - 1 = number of child links (one tree); every leaf polygon has
 *   positive shoelace area (§1.4); every node's first wall runs along its
 *   line with (a,b) a positive multiple of (-dy,dx) (§1.12).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_test.h"
#include "rrb_roo.h"

static const char *const corpus_files[] = {
    "v12_MarDun02", "v12_guest5", "v12_i7", "v12_outgrace", "v13_g6", "v13_guildh5",
    "v13_jashall", "v13_jixabc", "v14_cornoth", "v14_elementaldungeon", "v14_marhall",
    "v14_outgrace", "v15_a5", "v15_h3", "v15_jasab7"};
#define NFILES (sizeof corpus_files / sizeof corpus_files[0])

/* RT_EXPECT that also hands back the condition. */
static int expect(const char *case_id, int cond)
{
    RT_EXPECT(case_id, cond);
    return cond;
}

static char id[256];
static const char *cid(const char *file, const char *what)
{
    snprintf(id, sizeof id, "roo.%s.%s", file, what);
    return id;
}

static int tree_links(const rrb_roo *r)
{
    uint32_t links = 0;
    for (uint32_t i = 0; i < r->nnodes; i++)
        if (r->nodes[i].type == RRB_ROO_NODE_INTERNAL)
            links += (uint32_t)(r->nodes[i].pos != 0) + (uint32_t)(r->nodes[i].neg != 0);
    return (int)links;
}

static int leaves_clockwise(const rrb_roo *r)
{
    for (uint32_t i = 0; i < r->nnodes; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        double area = 0;
        if (n->type != RRB_ROO_NODE_LEAF)
            continue;
        for (uint32_t k = 0; k < n->npoints; k++) {
            const double *p = r->points + 2 * (n->first_point + k);
            const double *q = r->points + 2 * (n->first_point + (k + 1) % n->npoints);
            area += p[0] * q[1] - q[0] * p[1];
        }
        if (!(area > 0))
            return 0;
    }
    return 1;
}

/* (a,b) is a positive multiple of (-dy,dx) of the node's first wall, and the
 * wall's endpoints lie on the line (|s| small relative to |(a,b)|). */
static int lines_match_walls(const rrb_roo *r)
{
    for (uint32_t i = 0; i < r->nnodes; i++) {
        const rrb_roo_node *n = &r->nodes[i];
        if (n->type != RRB_ROO_NODE_INTERNAL || !n->first_wall)
            continue;
        const rrb_roo_wall *w = &r->walls[n->first_wall - 1];
        double dx = w->x1 - w->x0, dy = w->y1 - w->y0;
        double cross = n->a * dx + n->b * dy, dot = n->a * -dy + n->b * dx;
        double len = hypot(n->a, n->b) * hypot(dx, dy);
        if (!(dot > 0) || fabs(cross) > 1e-3 * len)
            return 0;
        double s = n->a * w->x0 + n->b * w->y0 + n->c;
        if (fabs(s) > 2.0 * hypot(n->a, n->b))
            return 0;
    }
    return 1;
}

static void check_facts(const char *name, const rrb_roo *r, size_t size)
{
    RT_EXPECT_EQ(cid(name, "version"), r->version, atoi(name + 1));
    RT_EXPECT_EQ(cid(name, "eof"), r->end, size);
    RT_EXPECT_EQ(cid(name, "security"), r->security_calc, r->security);
    RT_EXPECT_EQ(cid(name, "things"), r->nthings, 2);
    if (r->nthings == 2) {
        RT_EXPECT_EQ(cid(name, "width"), r->width,
                     16 * labs((long)r->things[1].x - r->things[0].x));
        RT_EXPECT_EQ(cid(name, "height"), r->height,
                     16 * labs((long)r->things[1].y - r->things[0].y));
    }
    if (r->version <= 14) {
        RT_EXPECT_EQ(cid(name, "grid_rows"), r->rows, r->height / 1024);
        RT_EXPECT_EQ(cid(name, "grid_cols"), r->cols, r->width / 1024);
    } else {
        RT_EXPECT_EQ(cid(name, "v15_no_server"), (size_t)r->server_offset, size);
        RT_EXPECT_EQ(cid(name, "v15_no_grid"), r->has_grids, 0);
    }
    if (r->version == 13 || r->version == 14) {
        RT_EXPECT_EQ(cid(name, "hires_rows"), r->rows_hr, r->height / 256);
        RT_EXPECT_EQ(cid(name, "hires_cols"), r->cols_hr, r->width / 256);
    }
    RT_EXPECT_EQ(cid(name, "tree_links"), tree_links(r), (int)r->nnodes - 1);
    RT_EXPECT(cid(name, "leaf_winding"), leaves_clockwise(r));
    RT_EXPECT(cid(name, "line_vs_wall"), lines_match_walls(r));
    RT_EXPECT(cid(name, "room_id"), r->has_room_id);
    RT_EXPECT_EQ(cid(name, "offset_main"), r->main_offset, 20);
    RT_EXPECT_EQ(cid(name, "offset_nodes"), r->offsets[0], 52);
}

/* write(read(file)) == file, and read(write) gives the same model again. */
static void check_roundtrip(const char *name, const rrb_roo *r, const uint8_t *data,
                            size_t size)
{
    rrb_buf b = {0}, b2 = {0};
    rrb_roo r2;
    char err[RRB_ERR_MAX];
    rrb_roo_write(r, &b);
    RT_EXPECT_EQ(cid(name, "rt_size"), b.size, size);
    RT_EXPECT(cid(name, "rt_bytes"), b.size == size && memcmp(b.data, data, size) == 0);
    if (expect(cid(name, "rt_reread"), rrb_roo_read(b.data, b.size, name, &r2, err,
                                                   sizeof err) == 0)) {
        rrb_roo_write(&r2, &b2);
        RT_EXPECT(cid(name, "rt_model"), b2.size == b.size && !memcmp(b2.data, b.data, b.size));
        RT_EXPECT_EQ(cid(name, "rt_counts"), r2.nwalls + r2.nsectors + r2.nslopes,
                     r->nwalls + r->nsectors + r->nslopes);
        rrb_roo_free(&r2);
    }
    rrb_buf_free(&b);
    rrb_buf_free(&b2);
}

static int nvariants;
static void check_variants(const char *name, const rrb_roo *r)
{
    rrb_roo_variant *v;
    size_t n = rrb_roo_variants(r, &v);
    RT_EXPECT(cid(name, "variants_made"), n >= 20);
    for (size_t i = 0; i < n; i++) {
        rrb_roo t;
        char err[RRB_ERR_MAX] = "";
        int rc = rrb_roo_read(v[i].data, v[i].size, "bad.roo", &t, err, sizeof err);
        char vid[128];
        snprintf(vid, sizeof vid, "variant '%s'", v[i].name);
        RT_EXPECT(cid(name, vid), rc != 0 && strstr(err, "bad.roo:0x") && strstr(err, v[i].expect));
        if (rc == 0)
            rrb_roo_free(&t);
        else if (!strstr(err, v[i].expect) || getenv("RT_VERBOSE"))
            printf("  %s: %s -> %s\n", name, v[i].name, err);
        nvariants++;
    }
    rrb_roo_variants_free(v, n);
}

/* verify fails on a checksum mismatch, info_json has the fields. */
static void check_hooks(const char *name, const uint8_t *data, size_t size)
{
    static const char *const keys[] = {"\"format\"", "\"version\"", "\"encrypted\"", "\"nodes\"",
        "\"leaves\"", "\"walls\"", "\"sidedefs\"", "\"sectors\"", "\"slopes\"", "\"things\"",
        "\"security_ok\": true", "\"grid_rows\"", "\"grid_cols\""};
    char err[RRB_ERR_MAX] = "", *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    RT_EXPECT_EQ(cid(name, "info_json"), rrb_format_roo.info_json(data, size, name, f, err,
                                                                   sizeof err), 0);
    RT_EXPECT_EQ(cid(name, "verify_ok"), rrb_format_roo.verify(data, size, name, f, err,
                                                                sizeof err), 0);
    fclose(f);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        RT_EXPECT(cid(name, keys[k]), buf && strstr(buf, keys[k]));
    free(buf);
    uint8_t *bad = malloc(size);
    memcpy(bad, data, size);
    bad[8] ^= 1;
    f = fopen("/dev/null", "w");
    RT_EXPECT(cid(name, "verify_bad_security"),
              rrb_format_roo.verify(bad, size, name, f, err, sizeof err) != 0 &&
                  strstr(err, "security"));
    fclose(f);
    free(bad);
}

static void check_file(const char *corpus, const char *name)
{
    char path[1024], err[RRB_ERR_MAX];
    uint8_t *data;
    size_t size;
    rrb_roo r;
    snprintf(path, sizeof path, "%s/roo/%s.roo", corpus, name);
    if (!expect(cid(name, "load"), rrb_load_file(path, &data, &size, err, sizeof err) == 0)) {
        printf("  %s\n", err);
        return;
    }
    if (!expect(cid(name, "read"), rrb_roo_read(data, size, path, &r, err, sizeof err) == 0)) {
        printf("  %s\n", err);
        free(data);
        return;
    }
    check_facts(name, &r, size);
    check_roundtrip(name, &r, data, size);
    check_variants(name, &r);
    check_hooks(name, data, size);
    rrb_roo_free(&r);
    free(data);
}

static void check_sample(void)
{
    char dir[] = "/tmp/rr_roo_sampleXXXXXX", path[1024], err[RRB_ERR_MAX];
    static const char *const files[4] = {"sample.roo", "sample_v12.roo", "sample_v13.roo",
                                         "sample_v14.roo"};
    if (!expect("roo.sample.mkdtemp", mkdtemp(dir) != NULL))
        return;
    RT_EXPECT_EQ("roo.sample.write", rrb_format_roo.sample(dir, err, sizeof err), 0);
    for (int i = 0; i < 4; i++) {
        uint8_t *data;
        size_t size;
        rrb_roo r;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (!expect(cid(files[i], "load"), rrb_load_file(path, &data, &size, err, sizeof err) == 0))
            continue;
        if (expect(cid(files[i], "read"),
                   rrb_roo_read(data, size, path, &r, err, sizeof err) == 0)) {
            check_facts(i == 0 ? "v15_sample" : files[i] + 7, &r, size);
            RT_EXPECT_EQ(cid(files[i], "counts"),
                         r.nnodes * 1000000 + r.nleaves * 10000 + r.nwalls * 1000 +
                             r.nsidedefs * 100 + r.nsectors * 10 + r.nslopes,
                         8 * 1000000 + 4 * 10000 + 6 * 1000 + 5 * 100 + 4 * 10 + 1);
            RT_EXPECT_EQ(cid(files[i], "no_move"), r.sectors[3].flags & RRB_ROO_SF_NOMOVE,
                         RRB_ROO_SF_NOMOVE);
            RT_EXPECT_EQ(cid(files[i], "depth"), r.sectors[2].flags & 3, 2);
            check_roundtrip(files[i], &r, data, size);
            check_variants(files[i], &r);
            rrb_roo_free(&r);
        }
        remove(path);
        free(data);
    }
    remove(dir);
}

/* The extended thing form (count > 2, 96 bytes each, NOTES §1.9): written
 * and read back field for field, then rejected when cut inside a thing. */
static void check_extended_things(void)
{
    rrb_roo r, back;
    rrb_buf b = {0};
    char err[RRB_ERR_MAX];
    rrb_roo_make_sample(&r, 12);
    r.things = realloc(r.things, 3 * sizeof *r.things);
    memset(&r.things[2], 0, sizeof r.things[2]);
    r.nthings = 3;
    for (int i = 0; i < 3; i++) {
        r.things[i].type = 100 + i, r.things[i].angle = 90 * i, r.things[i].when = i;
        r.things[i].exit_x = -i, r.things[i].exit_y = 7 * i, r.things[i].flags = 0x10 << i;
        snprintf(r.things[i].comment, sizeof r.things[i].comment, "thing %d", i);
    }
    r.things[2].x = 128, r.things[2].y = 64;
    rrb_roo_write(&r, &b);
    RT_EXPECT_EQ("roo.ext_things.size", b.size, 1091 - 16 + 3 * 96);
    if (expect("roo.ext_things.read", rrb_roo_read(b.data, b.size, "ext", &back, err,
                                                    sizeof err) == 0)) {
        RT_EXPECT_EQ("roo.ext_things.count", back.nthings, 3);
        RT_EXPECT("roo.ext_things.fields",
                  memcmp(back.things, r.things, 3 * sizeof *r.things) == 0);
        RT_EXPECT_EQ("roo.ext_things.room_id", back.room_id, 42);
        rrb_roo_free(&back);
    }
    /* cut inside the second thing, with the server offset moved to the cut */
    size_t toff = (size_t)b.data[48] | (size_t)b.data[49] << 8, cut = toff + 2 + 96 + 50;
    b.data[16] = (uint8_t)cut, b.data[17] = (uint8_t)(cut >> 8), b.data[18] = b.data[19] = 0;
    RT_EXPECT("roo.ext_things.cut",
              rrb_roo_read(b.data, cut, "ext", &back, err, sizeof err) != 0 &&
                  strstr(err, "things") != NULL);
    rrb_buf_free(&b);
    rrb_roo_free(&r);
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("CORPUS");
    if (!corpus)
        corpus = "../shared/corpus";
    for (size_t i = 0; i < NFILES; i++)
        check_file(corpus, corpus_files[i]);
    check_sample();
    check_extended_things();
    printf("# %d malformed variants checked\n", nvariants);
    return rt_done("test_roo_reader");
}

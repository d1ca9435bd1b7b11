/* test_rmf_reader.c - the RMF reader and writer against the corpus:
 * every file parses to EOF, versions match SOURCES.md's header-check column,
 * counts match facts stated in NOTES.md and an independent byte scan,
 * read -> write gives the same bytes, conversion to every version reads back,
 * every malformed variant is rejected with an offset, the sample parses.
 *
 * usage: test_rmf_reader CORPUS_DIR   (or CORPUS in the environment)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_test.h"
#include "rrb_rmf.h"

static const char *const files[] = {
    "sledge_08.rmf", "sledge_09.rmf", "sledge_14.rmf", "sledge_16.rmf", "sledge_18.rmf",
    "sledge_22.rmf", "sledge_test-cube-2.2.rmf",
    "msr_dunno_what_this_is_just_bored_experimenting.rmf", "msr_tomb2.rmf", "msr_tower.rmf",
    "msr_calisle.rmf", "msr_ms_soccer.rmf", "msr_LostCaverns.rmf", "msr_lodagond-4.rmf"};
#define NFILES (int)(sizeof files / sizeof files[0])

static const char *corpus;
static char id[256];

static const char *cid(const char *file, const char *what)
{
    snprintf(id, sizeof id, "rmf.%s.%s", file, what);
    return id;
}

/* Version from SOURCES.md's "float=0.80" column, as round(v * 10); -1 if absent. */
static int sources_version(const char *file)
{
    char path[1024], line[2048], key[300];
    FILE *f;
    int v = -1;
    snprintf(path, sizeof path, "%s/SOURCES.md", corpus);
    snprintf(key, sizeof key, "| rmf/%s |", file);
    f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        char *p;
        if (strncmp(line, key, strlen(key)) != 0 || !(p = strstr(line, "float=")))
            continue;
        v = (int)lround(atof(p + 6) * 10);
    }
    fclose(f);
    return v;
}

/* Occurrences of a p_char class name in the raw bytes (independent of the parser). */
static int scan_count(const uint8_t *d, size_t n, const char *cls)
{
    size_t len = strlen(cls) + 1, i;
    int c = 0;
    for (i = 0; i + len + 1 <= n; i++)
        if (d[i] == len && memcmp(d + i + 1, cls, len) == 0)
            c++;
    return c;
}

static size_t face_bytes(int v, int nverts)
{
    size_t t = v == 8 ? 16 : v <= 16 ? 40 : 260, u = v <= 9 ? 0 : v <= 16 ? 4 : 16;
    return t + (v == 22 ? 36 : 12) + 8 + u + 4 + 12 * (size_t)nverts + 36;
}

typedef struct totals {
    long faces, solids, entities, flag_mismatch;
} totals;

static void check_counts(const char *fn, const uint8_t *d, size_t n, const rrb_rmf_map *m,
                         totals *t)
{
    int i, sum = 0, span_bad = 0, ent_bad = 0;
    RT_EXPECT_EQ(cid(fn, "scan.solids"), m->nsolids, scan_count(d, n, "CMapSolid"));
    RT_EXPECT_EQ(cid(fn, "scan.entities"), m->nentities, scan_count(d, n, "CMapEntity"));
    RT_EXPECT_EQ(cid(fn, "scan.groups"), m->ngroups, scan_count(d, n, "CMapGroup"));
    RT_EXPECT_EQ(cid(fn, "scan.world"), 1, scan_count(d, n, "CMapWorld"));
    for (i = 0; i < m->nobjs; i++) {
        const rrb_rmf_obj *o = &m->objs[i];
        int j;
        if (o->kind != RRB_RMF_SOLID)
            continue;
        sum += o->nfaces;
        for (j = 0; j + 1 < o->nfaces; j++) {
            const rrb_rmf_face *f = &m->faces[o->first_face + j];
            span_bad += f[1].off - f->off != face_bytes(m->version, f->nverts);
        }
    }
    for (i = 0; i < m->nobjs; i++)  /* §2.4: flag word 02 00 = point, 00 00 = brush */
        if (m->objs[i].kind == RRB_RMF_ENTITY)
            ent_bad += (m->objs[i].nchildren > 0) != (m->objs[i].flags[0] == 0);
    RT_EXPECT_EQ(cid(fn, "faces.two_ways"), sum, m->nfaces);
    RT_EXPECT_EQ(cid(fn, "faces.byte_spans"), span_bad, 0);
    RT_EXPECT_EQ(cid(fn, "entities.kinds"), m->npoint + m->nbrush_ent, m->nentities);
    t->faces += m->nfaces;
    t->solids += m->nsolids;
    t->entities += m->nentities;
    t->flag_mismatch += ent_bad;
}

static int same_geometry(const rrb_rmf_map *a, const rrb_rmf_map *b)
{
    int i, j;
    if (a->nobjs != b->nobjs || a->nfaces != b->nfaces || a->nvisgroups != b->nvisgroups)
        return 0;
    for (i = 0; i < a->nfaces; i++) {
        if (a->faces[i].nverts != b->faces[i].nverts)
            return 0;
        for (j = 0; j < a->faces[i].nverts; j++)
            if (memcmp(a->faces[i].verts[j], b->faces[i].verts[j], 12) != 0)
                return 0;
    }
    for (i = 0; i < a->nobjs; i++) {
        const rrb_rmf_obj *x = &a->objs[i], *y = &b->objs[i];
        if (x->kind != y->kind || x->parent != y->parent || x->visgroup != y->visgroup ||
            x->ent.nkv != y->ent.nkv || memcmp(x->origin, y->origin, 12) != 0)
            return 0;
        for (j = 0; j < x->ent.nkv; j++)
            if (strcmp(x->ent.kv[j].value.s, y->ent.kv[j].value.s) != 0)
                return 0;
    }
    return 1;
}

static void check_roundtrip(const char *fn, const uint8_t *d, size_t n, rrb_rmf_map *m)
{
    static const int vers[6] = {8, 9, 14, 16, 18, 22};
    rrb_buf b = {0};
    rrb_rmf_map m2;
    char err[RRB_ERR_MAX];
    int i, orig = m->version;
    rrb_rmf_write(m, &b);
    RT_EXPECT_EQ(cid(fn, "roundtrip.size"), b.size, n);
    RT_EXPECT(cid(fn, "roundtrip.bytes"), b.size == n && memcmp(b.data, d, n) == 0);
    for (i = 0; i < 6; i++) {
        char what[64];
        m->version = vers[i];
        b.size = 0;
        rrb_rmf_write(m, &b);
        snprintf(what, sizeof what, "convert.%d.read", vers[i]);
        RT_EXPECT_EQ(cid(fn, what), rrb_rmf_read(b.data, b.size, "conv", &m2, err, sizeof err), 0);
        snprintf(what, sizeof what, "convert.%d.same", vers[i]);
        RT_EXPECT(cid(fn, what), m2.version == vers[i] && same_geometry(m, &m2));
        rrb_rmf_free(&m2);
    }
    m->version = orig;
    rrb_buf_free(&b);
}

static void check_malformed(const char *fn, const uint8_t *d, size_t n, const rrb_rmf_map *m)
{
    rrb_buf b = {0};
    rrb_rmf_map m2;
    char err[RRB_ERR_MAX], desc[128], what[200];
    size_t want, got;
    int k, nv = 0;
    for (k = 0; rrb_rmf_malformed(d, n, m, k, &b, desc, sizeof desc, &want) == 0; k++) {
        int rc = rrb_rmf_read_off(b.data, b.size, "bad.rmf", &m2, err, sizeof err, &got);
        snprintf(what, sizeof what, "malformed.%d.rejected", k);
        RT_EXPECT(cid(fn, what), rc != 0 && strstr(err, "bad.rmf:0x") != NULL);
        snprintf(what, sizeof what, "malformed.%d.offset_in_file", k);
        RT_EXPECT(cid(fn, what), rc == 0 || got <= b.size);
        if (rc == 0)
            rrb_rmf_free(&m2);
        else if (want != (size_t)-1) {
            snprintf(what, sizeof what, "malformed.%d.offset", k);
            RT_EXPECT_EQ(cid(fn, what), got, want);
            if (got != want)
                printf("  (%s: %s)\n", desc, err);
        }
        if (k == 0 && !strcmp(fn, "sledge_22.rmf"))
            printf("  e.g. %s -> %s\n", desc, err);
        nv++;
    }
    RT_EXPECT(cid(fn, "malformed.count"), nv >= 18);
    rrb_buf_free(&b);
}

static void check_verify(const char *fn, const uint8_t *d, size_t n)
{
    char err[RRB_ERR_MAX] = "";
    FILE *f = fopen("/dev/null", "w");
    RT_EXPECT_EQ(cid(fn, "verify"), rrb_format_rmf.verify(d, n, fn, f, err, sizeof err), 0);
    if (err[0])
        printf("  verify %s: %s\n", fn, err);
    fclose(f);
}

static void check_file(const char *fn, totals *t)
{
    char path[1024], err[RRB_ERR_MAX];
    uint8_t *d;
    size_t n;
    rrb_rmf_map m;
    snprintf(path, sizeof path, "%s/rmf/%s", corpus, fn);
    if (rrb_load_file(path, &d, &n, err, sizeof err)) {
        RT_EXPECT(cid(fn, "load"), 0);
        return;
    }
    if (rrb_rmf_read(d, n, path, &m, err, sizeof err)) {
        printf("  %s\n", err);
        RT_EXPECT(cid(fn, "read"), 0);
        free(d);
        return;
    }
    RT_EXPECT_EQ(cid(fn, "version"), m.version, sources_version(fn));
    check_counts(fn, d, n, &m, t);
    if (!strcmp(fn, "msr_ms_soccer.rmf")) {
        RT_EXPECT_EQ(cid(fn, "nesting83"), m.max_depth, 83);
        RT_EXPECT_EQ(cid(fn, "faces2708"), m.nfaces, 2708);
    }
    if (!strcmp(fn, "sledge_test-cube-2.2.rmf"))
        RT_EXPECT(cid(fn, "cube"), m.nsolids == 1 && m.nfaces == 6);
    RT_EXPECT_EQ(cid(fn, "docinfo"), m.has_docinfo,
                 m.version >= 14 && strncmp(fn, "msr_dunno", 9) != 0);
    printf("  %-54s v%d.%d solids %5d faces %6d entities %4d groups %4d depth %2d\n", fn,
           m.version / 10, m.version % 10, m.nsolids, m.nfaces, m.nentities, m.ngroups,
           m.max_depth);
    check_roundtrip(fn, d, n, &m);
    check_malformed(fn, d, n, &m);
    check_verify(fn, d, n);
    rrb_rmf_free(&m);
    free(d);
}

static void check_sample(void)
{
    rrb_rmf_map m, m2;
    rrb_buf b = {0};
    char err[RRB_ERR_MAX];
    int hidden = 0, i;
    rrb_rmf_sample_map(&m);
    rrb_rmf_write(&m, &b);
    RT_EXPECT_EQ("rmf.sample.read", rrb_rmf_read(b.data, b.size, "sample.rmf", &m2, err,
                                                 sizeof err), 0);
    RT_EXPECT_EQ("rmf.sample.solids", m2.nsolids, 12);
    RT_EXPECT_EQ("rmf.sample.faces", m2.nfaces, 11 * 6 + 10);
    RT_EXPECT_EQ("rmf.sample.entities", m2.nentities, 6);
    RT_EXPECT_EQ("rmf.sample.point", m2.npoint, 3);
    RT_EXPECT_EQ("rmf.sample.groups", m2.ngroups, 1);
    RT_EXPECT_EQ("rmf.sample.visgroups", m2.nvisgroups, 2);
    RT_EXPECT_EQ("rmf.sample.cameras", m2.ncameras, 1);
    RT_EXPECT_EQ("rmf.sample.paths", m2.npaths, 1);
    RT_EXPECT("rmf.sample.path_nodes", m2.npaths == 1 && m2.paths[0].nnodes == 3 &&
                                           !strcmp(m2.paths[0].nodes[1].name_override,
                                                   "track_top") &&
                                           !strcmp(m2.paths[0].nodes[2].kv[0].value.s, "100"));
    {   /* sample written in every version reads back with its paths (>= 1.4) */
        static const int vers[6] = {8, 9, 14, 16, 18, 22};
        for (i = 0; i < 6; i++) {
            rrb_rmf_map m3;
            rrb_buf b2 = {0};
            m2.version = vers[i];
            rrb_rmf_write(&m2, &b2);
            RT_EXPECT_EQ("rmf.sample.version_read",
                         rrb_rmf_read(b2.data, b2.size, "s", &m3, err, sizeof err), 0);
            RT_EXPECT_EQ("rmf.sample.version_paths", m3.npaths, vers[i] >= 14 ? 1 : 0);
            RT_EXPECT_EQ("rmf.sample.version_visgroups", m3.nvisgroups, 2);
            rrb_rmf_free(&m3);
            rrb_buf_free(&b2);
        }
        m2.version = 22;
    }
    RT_EXPECT("rmf.sample.same", same_geometry(&m, &m2));
    for (i = 0; i < m2.nobjs; i++)
        hidden += m2.objs[i].kind == RRB_RMF_SOLID && rrb_rmf_hidden(&m2, i);
    RT_EXPECT_EQ("rmf.sample.hidden", hidden, 1);
    check_verify("sample.rmf", b.data, b.size);
    rrb_rmf_free(&m2);
    rrb_rmf_free(&m);
    rrb_buf_free(&b);
}

/* Random damage (1-4 bytes, or a random word) must never crash the reader;
 * every rejection names an offset. Whatever is accepted must write back. */
static void check_fuzz(const char *name, const uint8_t *d, size_t n)
{
    static uint32_t seed = 0x12345678u;
    uint8_t *b = malloc(n);
    long ok = 0, bad = 0, no_off = 0;
    int it, k;
    for (it = 0; it < 3000; it++) {
        rrb_rmf_map m;
        char err[RRB_ERR_MAX];
        int nflip;
        memcpy(b, d, n);
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        nflip = 1 + (int)(seed % 4);
        for (k = 0; k < nflip; k++) {
            size_t at;
            seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
            at = seed % n;
            if (k == 0 && (seed >> 28) == 0 && at + 4 <= n)
                memcpy(b + at, &seed, 4);
            else
                b[at] = (uint8_t)(seed >> 8);
        }
        if (rrb_rmf_read(b, n, "fuzz.rmf", &m, err, sizeof err) == 0) {
            rrb_buf w = {0};
            rrb_rmf_write(&m, &w);
            rrb_buf_free(&w);
            rrb_rmf_free(&m);
            ok++;
        } else {
            bad++;
            no_off += strstr(err, "fuzz.rmf:0x") == NULL;
        }
    }
    printf("  fuzz %s: %ld accepted, %ld rejected\n", name, ok, bad);
    RT_EXPECT_EQ(cid(name, "fuzz.offsets"), no_off, 0);
    RT_EXPECT(cid(name, "fuzz.rejects_some"), bad > 0);
    free(b);
}

int main(int argc, char **argv)
{
    totals t = {0, 0, 0, 0};
    int i;
    corpus = argc > 1 ? argv[1] : getenv("CORPUS");
    if (!corpus)
        corpus = "../shared/corpus";
    for (i = 0; i < NFILES; i++)
        check_file(files[i], &t);
    /* Totals stated in NOTES.md §2.4 and §2.7 for the 14 corpus files. */
    RT_EXPECT_EQ("rmf.corpus.faces20893", t.faces, 20893);
    RT_EXPECT_EQ("rmf.corpus.entities667", t.entities, 667);
    RT_EXPECT_EQ("rmf.corpus.flag_exception1", t.flag_mismatch, 1);
    check_sample();
    for (i = 0; i < 2; i++) {
        char path[1024], err[RRB_ERR_MAX];
        uint8_t *d;
        size_t n;
        snprintf(path, sizeof path, "%s/rmf/%s", corpus, i ? "sledge_22.rmf" : "sledge_08.rmf");
        if (rrb_load_file(path, &d, &n, err, sizeof err) == 0) {
            check_fuzz(i ? "sledge_22.rmf" : "sledge_08.rmf", d, n);
            free(d);
        }
    }
    return rt_done("test_rmf_reader");
}

/* test_malformed.c - the generated malformed corpus (issue 9), counted in one
 * place.
 *
 * Every real corpus file (RMesh, RMF, ROO) and a set of generated EMI files
 * (no public EMI file exists) is read once with the field trace of rrb_util
 * switched on: that lists every field the reader takes, with its offset,
 * width and type, every count it checks and every index whose range it
 * checks. From that map the test derives malformed variants of the file:
 *
 *   count   every count field set to 0, -1 and a huge value
 *   index   every index field set to the first value past its end
 *   float   NaN, +Inf and -Inf in every float field
 *   trunc   the file cut at the start of a field (structure boundaries)
 *   special cyclic BSP links, cyclic skeleton links, the 0-byte RMesh, an
 *           encrypted ROO, unknown RMF versions, an unknown EMI vertex layout
 *
 * Each variant goes through what `rrbake bake` does (the reader, then the
 * bake; for EMI the reader of that file kind, then the figure bake with the
 * other two files intact) under ASan/UBSan. What must happen:
 *
 *   - a rejection is "path:0xOFF: expected ..., found ..." with OFF inside
 *     the file (a NaN/Inf in a checked float names that float's own offset);
 *   - a count of -1 or huge, an index past its end, a NaN/Inf in a checked
 *     float field and a truncation are always rejected (EMI: a truncation the
 *     game tolerates may instead be accepted with a warning naming its offset);
 *   - a float the reader declares unused (rrb_f32_raw) may be accepted only if
 *     the baked blob is byte-identical to the intact file's blob: the value
 *     provably reaches nothing;
 *   - a count of 0 may be accepted only if the baked blob opens with rr_open
 *     (a valid room with fewer elements) - counted separately;
 *   - every accepted variant's blob must pass rr_open.
 *
 * Large files would give hundreds of thousands of variants; the test takes
 * every field of a kind while there are few, and an even spread (first,
 * last, evenly spaced) of at most LIMIT per field name and mutation when
 * there are many, so every field name of every file is exercised. The table
 * at the end counts variants per format, class and outcome.
 */
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rr.h"
#include "rr_test.h"
#include "rrb_emi.h"
#include "rrb_format.h"
#include "rrb_rmesh.h"
#include "rrb_rmf.h"
#include "rrb_roo.h"

/* Tens of thousands of variants allocate and free whole models: a small
 * quarantine keeps ASan's memory near the largest file's needs. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=32";
}

/* ---- the field map ---- */

typedef struct field {
    size_t off;
    unsigned width;   /* bytes of the read (0 if only noted) */
    int type;         /* RRB_T_INT / FLOAT / FLOAT_RAW / BYTES of the read */
    int count, index; /* noted as a count / an index */
    int64_t past;     /* index: first value past the end */
    int label;        /* interned name of the read */
    int note;         /* interned name of the index note, or -1 */
} field;

typedef struct fmap {
    const uint8_t *base;
    size_t size;
    field *f;
    size_t n, cap;
} fmap;

#define MAX_LABELS 4096
static char *labels[MAX_LABELS];
static int nlabels;

static int intern(const char *what)
{
    char buf[64];
    size_t i;
    /* fold record numbers out of names such as "visgroup 3 colour" */
    for (i = 0; what[i] && i + 1 < sizeof buf; i++)
        buf[i] = (what[i] >= '0' && what[i] <= '9') ? '#' : what[i];
    buf[i] = 0;
    for (int k = 0; k < nlabels; k++)
        if (strcmp(labels[k], buf) == 0)
            return k;
    if (nlabels == MAX_LABELS)
        return MAX_LABELS - 1;
    labels[nlabels] = strdup(buf);
    return nlabels++;
}

static field *at_off(fmap *m, size_t off)
{
    /* reads come mostly in order: look back a little before appending */
    for (size_t k = m->n; k > 0 && k + 64 > m->n; k--)
        if (m->f[k - 1].off == off)
            return &m->f[k - 1];
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 1024;
        m->f = realloc(m->f, m->cap * sizeof *m->f);
    }
    memset(&m->f[m->n], 0, sizeof m->f[0]);
    m->f[m->n].off = off;
    m->f[m->n].label = m->f[m->n].note = -1;
    return &m->f[m->n++];
}

static void tracer(void *ctx, const uint8_t *at, size_t width, int kind, int64_t bound,
                   const char *what)
{
    fmap *m = ctx;
    field *f;
    if (at < m->base || at >= m->base + m->size)
        return;  /* another buffer (an EMI sibling file) */
    f = at_off(m, (size_t)(at - m->base));
    if (kind == RRB_T_COUNT)
        f->count = 1;
    else if (kind == RRB_T_INDEX)
        f->index = 1, f->past = bound, f->note = intern(what ? what : "?");
    else if (!f->width) {
        f->width = (unsigned)width, f->type = kind;
        f->label = intern(what ? what : "?");
    }
}

static int cmp_off(const void *a, const void *b)
{
    const field *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Merge duplicate offsets (a count noted after its read) and sort. */
static void settle(fmap *m)
{
    size_t w = 0;
    qsort(m->f, m->n, sizeof *m->f, cmp_off);
    for (size_t r = 0; r < m->n; r++) {
        if (w && m->f[w - 1].off == m->f[r].off) {
            field *d = &m->f[w - 1], *s = &m->f[r];
            d->count |= s->count, d->index |= s->index;
            if (s->index)
                d->past = s->past, d->note = s->note;
            if (!d->width)
                d->width = s->width, d->type = s->type, d->label = s->label;
            continue;
        }
        m->f[w++] = m->f[r];
    }
    m->n = w;
}

/* ---- running one variant ---- */

enum { OUT_REJECT, OUT_ACCEPT, OUT_WARN };

typedef struct subject {
    const char *name;    /* shown in messages: corpus path or generated name */
    const char *fmt;     /* rmesh / rmf / roo / emi */
    int emi_kind;        /* RRB_EMI_* for emi */
    /* EMI: the intact other two files of the figure */
    const rrb_emi_skel *skel;
    const rrb_emi_mesh *mesh;
    const rrb_emi_anim *anim;
} subject;

typedef struct result {
    int outcome;
    size_t err_off;      /* rejected: the offset in the message */
    int err_ok;          /* rejected: message is "name:0xOFF: expected ..." with OFF <= size */
    uint8_t *blob;       /* accepted: finished blob (little-endian) */
    size_t blob_size;
} result;

static void parse_err(const subject *s, const char *err, size_t size, result *r)
{
    size_t n = strlen(s->name);
    char *end;
    unsigned long long off;
    r->err_ok = 0;
    if (strncmp(err, s->name, n) != 0 || strncmp(err + n, ":0x", 3) != 0)
        return;
    off = strtoull(err + n + 3, &end, 16);
    if (end == err + n + 3 || end[0] != ':' || end[1] != ' ' || !strstr(end, "expected"))
        return;
    r->err_off = (size_t)off;
    r->err_ok = off <= size;
}

static rrb_blob *bake_emi(const subject *s, const uint8_t *d, size_t n, rrb_emi_warns *w,
                          char *err, size_t errcap)
{
    rrb_emi_skel sk = {0};
    rrb_emi_mesh me = {0};
    rrb_emi_anim an = {0};
    const rrb_emi_anim *anims[1];
    rrb_blob *b = NULL;
    rrb_opts o = {0};
    int rc;
    o.quiet = 1;
    if (s->emi_kind == RRB_EMI_SKLB)
        rc = rrb_emi_read_skel(d, n, s->name, &sk, w, err, errcap);
    else if (s->emi_kind == RRB_EMI_MESHB)
        rc = rrb_emi_read_mesh(d, n, s->name, &me, w, err, errcap);
    else
        rc = rrb_emi_read_anim(d, n, s->name, &an, w, err, errcap);
    if (rc == 0) {
        anims[0] = s->emi_kind == RRB_EMI_ANIMB ? &an : s->anim;
        b = rrb_emi_bake_models(s->emi_kind == RRB_EMI_SKLB ? &sk : s->skel,
                                s->emi_kind == RRB_EMI_MESHB ? &me : s->mesh, anims, 1,
                                "figure", &o, w, NULL, err, errcap);
    }
    rrb_emi_skel_free(&sk);
    rrb_emi_mesh_free(&me);
    rrb_emi_anim_free(&an);
    return b;
}

/* The reader alone (most variants stop there; much cheaper than a bake). */
static int read_only(const subject *s, const uint8_t *d, size_t n, char *err, size_t errcap)
{
    int rc;
    if (strcmp(s->fmt, "rmesh") == 0) {
        rrb_rmesh m;
        if ((rc = rrb_rmesh_read(d, n, s->name, &m, err, errcap)) == 0)
            rrb_rmesh_free(&m);
    } else if (strcmp(s->fmt, "rmf") == 0) {
        rrb_rmf_map m;
        if ((rc = rrb_rmf_read(d, n, s->name, &m, err, errcap)) == 0)
            rrb_rmf_free(&m);
    } else {
        rrb_roo r;
        if ((rc = rrb_roo_read(d, n, s->name, &r, err, errcap)) == 0)
            rrb_roo_free(&r);
    }
    return rc;
}

static void run(const subject *s, const uint8_t *d, size_t n, result *r)
{
    char err[RRB_ERR_MAX];
    rrb_blob *b;
    rrb_emi_warns w;
    memset(r, 0, sizeof *r);
    memset(&w, 0, sizeof w);
    err[0] = 0;
    if (strcmp(s->fmt, "emi") == 0) {
        w.path = s->name;
        b = bake_emi(s, d, n, &w, err, sizeof err);
    } else if (read_only(s, d, n, err, sizeof err) != 0) {
        b = NULL;  /* the reader refused: the bake (which starts with it) would too */
    } else {
        rrb_opts o = {0};
        o.quiet = 1;
        b = rrb_format_by_name(s->fmt)->bake(d, n, s->name, &o, err, sizeof err);
    }
    if (!b) {
        r->outcome = OUT_REJECT;
        parse_err(s, err, n, r);
        if (!r->err_ok)
            printf("FAIL %s: badly formed error: %s\n", s->name, err);
        return;
    }
    r->outcome = w.count ? OUT_WARN : OUT_ACCEPT;
    if (rrb_blob_finish(b, 0, &r->blob, &r->blob_size) != 0)
        r->blob = NULL, r->blob_size = 0;
    rrb_blob_free(b);
}

/* ---- the table ---- */

enum { C_COUNT0, C_COUNTM1, C_COUNTBIG, C_INDEX, C_FLOAT, C_RAW, C_TRUNC, C_OTHER, C_SPECIAL,
       NCLASS };
static const char *const class_name[NCLASS] = {
    "count = 0", "count = -1", "count = huge", "index past end", "NaN/Inf (checked)",
    "NaN/Inf (unused)", "truncated", "other int = 0/-1/huge", "special case"};
enum { FMT_RMESH, FMT_RMF, FMT_ROO, FMT_EMI, NFMT };
static const char *const fmt_name[NFMT] = {"rmesh", "rmf", "roo", "emi"};
/* tally[fmt][class][0 rejected, 1 accepted as allowed, 2 accepted with warning, 3 wrong] */
static unsigned long tally[NFMT][NCLASS][4];

static int fmt_id(const char *fmt)
{
    for (int i = 0; i < NFMT; i++)
        if (strcmp(fmt, fmt_name[i]) == 0)
            return i;
    return 0;
}

/* An accepted variant's blob must open (malloc'd copy: aligned). */
static int blob_opens(const result *r)
{
    rr_room room;
    void *blob, *arena;
    int32_t need;
    int ok;
    if (!r->blob)
        return 0;
    blob = malloc(r->blob_size);
    memcpy(blob, r->blob, r->blob_size);
    need = rr_arena_size(blob, (uint32_t)r->blob_size);
    arena = malloc(need > 0 ? (size_t)need : 4);
    ok = need >= 0 && rr_open(blob, (uint32_t)r->blob_size, arena, (uint32_t)need, &room) == RR_OK;
    free(arena);
    free(blob);
    return ok;
}

/* ---- one file ---- */

typedef struct ctx {
    const subject *s;
    const uint8_t *orig;
    size_t size;
    result base;          /* the intact file */
    uint8_t *work;        /* the variant under test */
    unsigned long variants;
} ctx;

static void note(ctx *c, int cls, int verdict, const char *what, size_t off, const char *why)
{
    tally[fmt_id(c->s->fmt)][cls][verdict]++;
    if (verdict && getenv("MAL_VERBOSE"))
        printf("  %s: %s at 0x%zx (%s): %s\n", c->s->name, class_name[cls], off, what,
               verdict == 1 ? "accepted" : verdict == 2 ? "warned" : "WRONG");
    c->variants++;
    if (verdict == 3)
        printf("FAIL %s: %s at 0x%zx (%s): %s\n", c->s->name, class_name[cls], off, what, why);
    RT_EXPECT(class_name[cls], verdict != 3);
}

static fmap trace(const subject *s, const uint8_t *d, size_t n, result *base);

/* Does the reader take every byte of d[0..n) as a field? (A file cut at the
 * end of a complete structure list can be a valid shorter file in its own
 * right: RMesh, for one, has no total length and an optional trailer.) */
static int reads_every_byte(const subject *s, const uint8_t *d, size_t n)
{
    result r;
    fmap m = trace(s, d, n, &r);
    size_t end = 0, sum = 0;
    for (size_t i = 0; i < m.n; i++) {
        sum += m.f[i].width;
        if (m.f[i].off + m.f[i].width > end)
            end = m.f[i].off + m.f[i].width;
    }
    free(m.f);
    free(r.blob);
    return r.outcome != OUT_REJECT && end == n && sum == n;
}

/* Run c->work[0..n) (a variant of class cls made at offset off) and judge it. */
static void judge(ctx *c, size_t n, int cls, size_t off, const char *what)
{
    result r;
    int verdict;
    const char *why = "";
    run(c->s, c->work, n, &r);
    if (r.outcome == OUT_REJECT) {
        verdict = r.err_ok ? 0 : 3;
        why = "error without file:offset";
        if (cls == C_FLOAT && r.err_off != off)
            verdict = 3, why = "the error names another offset than the float";
    } else if (!blob_opens(&r)) {
        verdict = 3, why = "accepted, but the blob does not open";
    } else {
        switch (cls) {
        case C_RAW:
            verdict = (r.blob_size == c->base.blob_size &&
                       memcmp(r.blob, c->base.blob, r.blob_size) == 0) ? 1 : 3;
            why = "accepted and the blob differs: the value reaches the output";
            break;
        case C_COUNT0:
        case C_OTHER:
            verdict = r.outcome == OUT_WARN ? 2 : 1;
            break;
        case C_TRUNC:
            if (r.outcome == OUT_ACCEPT && reads_every_byte(c->s, c->work, n)) {
                verdict = 1;
                break;
            }
            /* fall through */
        case C_SPECIAL:
            verdict = r.outcome == OUT_WARN ? 2 : 3;
            why = "accepted without a word";
            break;
        default:
            verdict = 3, why = "accepted";
        }
    }
    note(c, cls, verdict, what, off, why);
    free(r.blob);
}

static void put(uint8_t *p, unsigned width, uint64_t v)
{
    for (unsigned k = 0; k < width; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

/* Set the field to v, judge, restore. */
static uint64_t get(const uint8_t *p, unsigned width)
{
    uint64_t v = 0;
    for (unsigned k = width; k-- > 0;)
        v = v << 8 | p[k];
    return v;
}

static void poke(ctx *c, const field *f, uint64_t v, int cls)
{
    if (v == get(c->orig + f->off, f->width))
        return;  /* no change: not a variant */
    put(c->work + f->off, f->width, v);
    judge(c, c->size, cls, f->off, labels[f->label]);
    memcpy(c->work + f->off, c->orig + f->off, f->width);
}

/* Variants per field name and class in one file: every instance while there
 * are few, else an even spread (always the first and the last). Large files
 * get fewer (each variant of a 4 MB map re-reads up to 4 MB), so the whole
 * test stays near a minute under ASan. */
static size_t limit_for(size_t size)
{
    return size <= (64u << 10) ? 12 : size <= (512u << 10) ? 6 : size <= (2u << 20) ? 3 : 2;
}

static int pick(size_t k, size_t n, size_t limit)
{
    if (n <= limit || k + 1 == n)
        return 1;
    return k == 0 || (k * (limit - 1)) / n != ((k - 1) * (limit - 1)) / n;
}

static void mutate_fields(ctx *c, const fmap *m)
{
    size_t *seen = calloc((size_t)nlabels + 1, sizeof *seen);
    size_t *total = calloc((size_t)nlabels + 1, sizeof *total);
    for (size_t i = 0; i < m->n; i++)
        if (m->f[i].width && m->f[i].label >= 0)
            total[m->f[i].label]++;
    for (size_t i = 0; i < m->n; i++) {
        const field *f = &m->f[i];
        uint64_t ones;
        if (!f->width || f->width > 4 || f->label < 0 || f->off + f->width > c->size)
            continue;
        if (!pick(seen[f->label]++, total[f->label], limit_for(c->size)))
            continue;
        ones = f->width == 4 ? 0xffffffffu : (1u << (8 * f->width)) - 1;
        if (f->count && f->type == RRB_T_INT) {
            poke(c, f, 0, C_COUNT0);
            poke(c, f, ones, C_COUNTM1);
            if (f->width > 1)  /* a u8 count has no value above 0xff */
                poke(c, f, ones >> 1, C_COUNTBIG);
        }
        if (f->index && f->type == RRB_T_INT && f->past >= 0 && (uint64_t)f->past <= ones)
            poke(c, f, (uint64_t)f->past, C_INDEX);
        if (!f->count && !f->index && f->type == RRB_T_INT) {
            poke(c, f, 0, C_OTHER);
            poke(c, f, ones, C_OTHER);
            poke(c, f, ones >> 1, C_OTHER);
        }
        if (f->type == RRB_T_FLOAT || f->type == RRB_T_FLOAT_RAW) {
            int cls = f->type == RRB_T_FLOAT ? C_FLOAT : C_RAW;
            poke(c, f, 0x7fc00000u, cls);   /* NaN */
            poke(c, f, 0x7f800000u, cls);   /* +Inf */
            poke(c, f, 0xff800000u, cls);   /* -Inf */
        }
    }
    free(seen);
    free(total);
}

/* Truncations at field starts: every one while there are few, else an even
 * spread plus the first and last 50 (fewer in large files, as above). */
static void truncate_at_fields(ctx *c, const fmap *m)
{
    size_t want = c->size <= (64u << 10) ? 600 : c->size <= (512u << 10) ? 200
                : c->size <= (2u << 20) ? 60 : 30;
    size_t step = m->n <= want + 100 ? 1 : m->n / want;
    for (size_t i = 0; i < m->n; i++) {
        size_t off = m->f[i].off;
        if (off == 0 || off >= c->size)
            continue;
        if (step > 1 && i >= 50 && i + 50 < m->n && i % step)
            continue;
        judge(c, off, C_TRUNC, off, m->f[i].label >= 0 ? labels[m->f[i].label] : "?");
    }
}

static fmap trace(const subject *s, const uint8_t *d, size_t n, result *base)
{
    fmap m = {0};
    m.base = d, m.size = n;
    rrb_tracer = tracer, rrb_tracer_ctx = &m;
    run(s, d, n, base);
    rrb_tracer = NULL, rrb_tracer_ctx = NULL;
    settle(&m);
    return m;
}

typedef void (*special_fn)(ctx *c, const fmap *m);

static void do_file(const subject *s, const uint8_t *d, size_t n, special_fn special)
{
    ctx c = {0};
    fmap m;
    char id[600];
    size_t counts = 0, indices = 0, floats = 0, raws = 0, covered = 0;
    clock_t t0 = clock();
    c.s = s, c.orig = d, c.size = n;
    alarm(600);  /* a hang fails the whole test */
    m = trace(s, d, n, &c.base);
    snprintf(id, sizeof id, "intact %s bakes", s->name);
    RT_EXPECT(id, c.base.outcome != OUT_REJECT && blob_opens(&c.base));
    if (c.base.outcome == OUT_REJECT) {
        free(m.f);
        return;
    }
    for (size_t i = 0; i < m.n; i++) {
        counts += (size_t)m.f[i].count, indices += (size_t)m.f[i].index;
        floats += m.f[i].type == RRB_T_FLOAT ? 1u : 0u;
        raws += m.f[i].type == RRB_T_FLOAT_RAW ? 1u : 0u;
        covered += m.f[i].width;
    }
    c.work = malloc(n ? n : 1);
    memcpy(c.work, d, n);
    mutate_fields(&c, &m);
    truncate_at_fields(&c, &m);
    if (special)
        special(&c, &m);
    printf("%-44s %8zu bytes %7zu fields (%3.0f%% of bytes read as fields): %zu counts, "
           "%zu indices, %zu floats, %zu unused floats -> %lu variants\n",
           s->name, n, m.n, n ? 100.0 * (double)covered / (double)n : 0.0, counts, indices,
           floats, raws, c.variants);
    if (getenv("MAL_VERBOSE"))
        printf("  %s: %.2f s of CPU\n", s->name, (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(c.work);
    free(c.base.blob);
    free(m.f);
}

/* ---- special cases ---- */

static const field *find_field(const fmap *m, const char *label, int want_note, size_t nth)
{
    for (size_t i = 0; i < m->n; i++) {
        int l = want_note ? m->f[i].note : m->f[i].label;
        if (l >= 0 && strcmp(labels[l], label) == 0 && nth-- == 0)
            return &m->f[i];
    }
    return NULL;
}

/* ROO: cyclic BSP links (a child pointing back at the root or at its own
 * node), and the encryption mark (width -1, NOTES.md). */
static void special_roo(ctx *c, const fmap *m)
{
    const field *f;
    for (size_t k = 0; k < 6 && (f = find_field(m, "node child", 1, k)) != NULL; k++)
        if (f->width && get(c->orig + f->off, f->width) > 1) {
            poke(c, f, 1, C_SPECIAL);  /* back to the root: a cycle */
            poke(c, f, get(c->orig + f->off, f->width) - 1, C_SPECIAL);  /* a backward link */
        }
    if ((f = find_field(m, "room width", 0, 0)) != NULL)
        poke(c, f, 0xffffffffu, C_SPECIAL);
}

/* RMF: versions the reader does not know (the float at offset 0). */
static void special_rmf(ctx *c, const fmap *m)
{
    static const uint32_t bad[] = {0x3f333333u /* 0.7 */, 0x40400000u /* 3.0 */,
                                   0x3fc00000u /* 1.5 */, 0x7fc00000u /* NaN */, 0};
    const field *f = find_field(m, "version float", 0, 0);
    if (f)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
            poke(c, f, bad[k], C_SPECIAL);
}

/* RMesh RM variant: version bytes nobody has described (NOTES §3.9 knows 0
 * and 1): refused, naming the byte's offset. */
static void special_rm(ctx *c, const fmap *m)
{
    static const uint32_t bad[] = {2, 7, 0x80, 0xff};
    const field *f = find_field(m, "RM version byte", 0, 0);
    RT_EXPECT("rmesh.rm.version_field", f != NULL);
    if (f)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
            poke(c, f, bad[k], C_SPECIAL);
}

/* EMI .meshb: unknown vertex layouts. */
static void special_meshb(ctx *c, const fmap *m)
{
    static const uint32_t bad[] = {0, 1, 2, 4, 17, 20, 0xffffffffu};
    const field *f = find_field(m, "vertex layout", 0, 0);
    if (f)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
            poke(c, f, bad[k], C_SPECIAL);
}

/* EMI .sklb: cyclic parent links. A joint whose parent is itself or a later
 * joint becomes a root with a warning naming its offset (what the game
 * does, docs/emi.md): expected outcome "accepted with a warning". */
static void special_sklb(ctx *c, const fmap *m)
{
    size_t nj = 0;
    const field *last;
    while (find_field(m, "joint name", 0, nj))
        nj++;
    last = nj ? find_field(m, "joint name", 0, nj - 1) : NULL;
    for (size_t k = 0; k < nj && k < 4; k++) {
        const field *name = find_field(m, "joint name", 0, k);
        const field *parent = find_field(m, "parent name", 0, k);
        if (!name || !parent || name->width != 32 || parent->width != 32)
            continue;
        memcpy(c->work + parent->off, c->orig + name->off, 32);  /* itself */
        judge(c, c->size, C_SPECIAL, parent->off, "parent = itself");
        memcpy(c->work + parent->off, c->orig + last->off, 32);  /* the last joint */
        if (k + 1 < nj)
            judge(c, c->size, C_SPECIAL, parent->off, "parent = a later joint");
        memcpy(c->work + parent->off, c->orig + parent->off, 32);
    }
}

/* ---- inputs ---- */

static const char *const dirs[] = {"scpcb-rmesh", "cbre-rmesh", "rmesh-variants", "rmf", "roo"};

static void corpus_file(const char *corpus, const char *dir, const char *file)
{
    char path[1024], err[RRB_ERR_MAX], name[600];
    uint8_t *d;
    size_t n;
    subject s = {0};
    snprintf(path, sizeof path, "%s/%s/%s", corpus, dir, file);
    snprintf(name, sizeof name, "%s/%s", dir, file);
    if (rrb_load_file(path, &d, &n, err, sizeof err) != 0) {
        printf("FAIL %s\n", err);
        RT_EXPECT(name, 0);
        return;
    }
    s.name = name;
    s.fmt = strstr(dir, "rmesh") ? "rmesh" : strcmp(dir, "rmf") == 0 ? "rmf" : "roo";
    if (n == 0) {  /* the 0-byte RMesh of the corpus: refused at offset 0 */
        ctx c = {0};
        c.s = &s, c.orig = d, c.size = 0, c.work = d;
        judge(&c, 0, C_SPECIAL, 0, "0-byte file");
        printf("%-44s %8zu bytes: refused as a whole -> 1 variant\n", name, n);
    } else {
        do_file(&s, d, n, strcmp(s.fmt, "roo") == 0 ? special_roo
                          : strcmp(s.fmt, "rmf") == 0 ? special_rmf : NULL);
    }
    free(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void corpus_dir(const char *corpus, const char *dir)
{
    char cmd[1200], line[512], *files[256];
    size_t nf = 0;
    FILE *p;
    snprintf(cmd, sizeof cmd, "ls '%s/%s'", corpus, dir);
    p = popen(cmd, "r");
    while (p && nf < 256 && fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] && line[0] != '.')
            files[nf++] = strdup(line);
    }
    if (p)
        pclose(p);
    RT_EXPECT(dir, nf > 0);
    qsort(files, nf, sizeof files[0], cmp_str);
    for (size_t i = 0; i < nf; i++) {
        corpus_file(corpus, dir, files[i]);
        free(files[i]);
    }
}

/* EMI: generated figures (seeded: small, deep, many influences) and the
 * walking sample; each of the three files is mutated with the other two
 * intact. */
static void emi_figure(uint32_t seed, const rrb_emi_gen_params *gp)
{
    rrb_emi_skel sk = {0};
    rrb_emi_mesh me = {0};
    rrb_emi_anim an = {0};
    rrb_buf b[3] = {{0}};
    static const char *const ext[3] = {"sklb", "meshb", "animb"};
    static const int kind[3] = {RRB_EMI_SKLB, RRB_EMI_MESHB, RRB_EMI_ANIMB};
    static const special_fn sp[3] = {special_sklb, special_meshb, NULL};
    rrb_emi_gen_figure(seed, gp, &sk, &me, &an);
    rrb_emi_write_skel(&sk, &b[0]);
    rrb_emi_write_mesh(&me, &b[1]);
    rrb_emi_write_anim(&an, &b[2]);
    for (int k = 0; k < 3; k++) {
        char name[64];
        subject s = {0};
        snprintf(name, sizeof name, "emi-gen-%u.%s", seed, ext[k]);
        s.name = name, s.fmt = "emi", s.emi_kind = kind[k];
        s.skel = &sk, s.mesh = &me, s.anim = &an;
        do_file(&s, b[k].data, b[k].size, sp[k]);
        rrb_buf_free(&b[k]);
    }
    rrb_emi_skel_free(&sk);
    rrb_emi_mesh_free(&me);
    rrb_emi_anim_free(&an);
}

/* A custom entity property (the model owns its strings). */
/* RMesh: the RM variant (no public file in the corpus): the sample room
 * written by the project's writer in the RM layout, version 1 with its
 * trigger box and version 0 without; and the sample with a door and an
 * item. */
static void rmesh_generated(void)
{
    {
        rrb_rmesh m;
        rrb_buf b = {0};
        subject s = {0};
        rrb_rmesh_sample_custom_model(&m);
        rrb_rmesh_write(&m, &b);
        s.name = "rmesh-gen-door-item.rmesh";
        s.fmt = "rmesh";
        do_file(&s, b.data, b.size, NULL);
        rrb_buf_free(&b);
        rrb_rmesh_free(&m);
    }
    for (int k = 0; k < 2; k++) {
        rrb_rmesh m;
        rrb_buf b = {0};
        subject s = {0};
        rrb_rmesh_sample_rm_model(&m, 1 - k, 1 - k);
        rrb_rmesh_write(&m, &b);
        s.name = k ? "rmesh-gen-rm0.rm" : "rmesh-gen-rm1.rm";
        s.fmt = "rmesh";
        do_file(&s, b.data, b.size, special_rm);
        rrb_buf_free(&b);
        rrb_rmesh_free(&m);
    }
}

static void report(void)
{
    unsigned long all[4] = {0};
    printf("\n%-6s %-24s %10s %10s %10s %8s\n", "format", "variant", "rejected", "accepted",
           "warned", "WRONG");
    for (int f = 0; f < NFMT; f++)
        for (int k = 0; k < NCLASS; k++) {
            unsigned long *t = tally[f][k];
            if (!(t[0] + t[1] + t[2] + t[3]))
                continue;
            printf("%-6s %-24s %10lu %10lu %10lu %8lu\n", fmt_name[f], class_name[k], t[0], t[1],
                   t[2], t[3]);
            for (int v = 0; v < 4; v++)
                all[v] += t[v];
        }
    printf("%-6s %-24s %10lu %10lu %10lu %8lu\n", "all", "", all[0], all[1], all[2], all[3]);
    printf("(accepted: a count of 0 or another int whose new value leaves a valid room, an "
           "unused float whose\n blob is byte-identical, a cut that leaves a complete shorter "
           "file (every byte read as a field);\n warned: accepted with a warning naming the "
           "offset)\n\n");
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("CORPUS");
    const char *only = argc > 2 ? argv[2] : NULL;  /* a single corpus folder, for debugging */
    rrb_emi_gen_params gp;
    if (!corpus)
        corpus = "../shared/corpus";
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (!only || strcmp(only, dirs[i]) == 0)
            corpus_dir(corpus, dirs[i]);
    if (!only || strcmp(only, "rmesh-gen") == 0)
        rmesh_generated();
    if (!only || strcmp(only, "emi") == 0) {
        rrb_emi_gen_defaults(&gp);
        emi_figure(1, &gp);
        gp.max_joints = 40, gp.max_depth = 30, gp.max_infl = 6;
        emi_figure(2, &gp);
        gp.max_joints = 3, gp.max_verts = 12, gp.max_keys = 2;
        emi_figure(3, &gp);
    }
    report();
    return rt_done("malformed");
}

/* test_limits.c - resource limits of the baker: a source file whose count
 * field asks for a billion elements gets an error naming the file and
 * offset, never a multi-gigabyte allocation. Each format's sample is
 * patched at a count field whose offset the format fixes (documented in
 * NOTES.md), then read, verified and baked; the process's peak RSS must stay
 * proportional to the input (well under 256 MB here, ASan included). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "rr_test.h"
#include "rrb_format.h"

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Patch the 32-bit count at off (or two for rows x cols), then every hook
 * must fail with "path:0x..." and no huge allocation. */
static void one(const char *dir, const char *file, const char *fmt, const char *what, size_t off,
                int two)
{
    char path[512], err[RRB_ERR_MAX], id[128];
    uint8_t *d;
    size_t n;
    const rrb_format *f;
    rrb_opts o = {0};
    rrb_blob *b;
    FILE *null = fopen("/dev/null", "w");
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(id, sizeof id, "limits.%s.%s", file, what);
    if (rrb_load_file(path, &d, &n, err, sizeof err) || off + (two ? 8 : 4) > n) {
        RT_EXPECT(id, 0);
        fclose(null);
        return;
    }
    put32(d + off, 1000000000u);
    if (two)
        put32(d + off + 4, 1000000000u);
    f = rrb_format_by_name(fmt);  /* the probe may (rightly) not recognise the damage */
    RT_EXPECT(id, f != NULL);
    if (f) {
        o.quiet = 1;
        err[0] = 0;
        RT_EXPECT(id, f->info_json(d, n, path, null, err, sizeof err) != 0 &&
                          strncmp(err, path, strlen(path)) == 0 && strstr(err, ":0x"));
        err[0] = 0;
        b = f->bake(d, n, path, &o, err, sizeof err);
        RT_EXPECT(id, b == NULL && strstr(err, ":0x") != NULL);
        rrb_blob_free(b);
        plat_printf("# %s: %s\n", id, err);
    }
    free(d);
    fclose(null);
}

int main(void)
{
    const char *dir = "/tmp/rr_test_limits";
    char err[RRB_ERR_MAX], path[512];
    uint8_t *d;
    size_t n, i;
    struct rusage ru;
    plat_init();
    mkdir(dir, 0777);
    for (i = 0; i < RRB_NFORMATS; i++)
        if (rrb_formats[i] && rrb_formats[i]->sample)
            rrb_formats[i]->sample(dir, err, sizeof err);
    /* RMesh: i32 surface count right after the B3D header string */
    snprintf(path, sizeof path, "%s/sample.rmesh", dir);
    if (rrb_load_file(path, &d, &n, err, sizeof err) == 0 && n > 4) {
        one(dir, "sample.rmesh", "rmesh", "surface-count", 4 + get32(d), 0);
        free(d);
    } else {
        RT_EXPECT("limits.rmesh.sample", 0);
    }
    /* RMF >= 1.4: f32 version, "RMF", then i32 visgroup count */
    one(dir, "sample.rmf", "rmf", "visgroup-count", 7, 0);
    /* ROO v12: the server section starts with i32 rows, i32 cols */
    snprintf(path, sizeof path, "%s/sample_v12.roo", dir);
    if (rrb_load_file(path, &d, &n, err, sizeof err) == 0) {
        one(dir, "sample_v12.roo", "roo", "grid-rows-cols", get32(d + 16), 1);
        free(d);
    } else {
        RT_EXPECT("limits.roo.sample", 0);
    }
    /* EMI .sklb: u32 joint count first */
    one(dir, "figure.sklb", "emi", "joint-count", 0, 0);
    getrusage(RUSAGE_SELF, &ru);
    plat_printf("# peak RSS %ld KB\n", ru.ru_maxrss);
    RT_EXPECT("limits.peak-rss", ru.ru_maxrss < 256 * 1024);
    return rt_done("test_limits");
}

/* fuzz_reader.c - libFuzzer target: every reader of the baker on arbitrary
 * source bytes: info, verify and bake of each format module, whether or not
 * its probe recognises the data. Errors are expected; crashes, sanitizer
 * reports, hangs and huge allocations are bugs. */
#include <stdio.h>
#include <stdlib.h>

#include "rrb_format.h"
#include "rrb_rmesh.h"

/* RMesh custom entities: definitions with one class of every property type
 * (as a CBRE-EX Entities file), so the reader's definitions path is fuzzed
 * too; and the definitions parser itself on the same bytes. */
static const char fuzz_defs[] =
    "[{\"Name\":\"keypad\",\"Properties\":[{\"Name\":\"a\",\"Type\":\"Bool\"},"
    "{\"Name\":\"b\",\"Type\":\"Integer\"},{\"Name\":\"c\",\"Type\":\"Float\"},"
    "{\"Name\":\"d\",\"Type\":\"String\"},{\"Name\":\"e\",\"Type\":\"Color255\"},"
    "{\"Name\":\"f\",\"Type\":\"Vector\"},{\"Name\":\"g\",\"Type\":\"Choices\"}]},"
    "{\"Name\":\"marker\",\"Properties\":[]}]";

static void fuzz_rmesh_custom(const uint8_t *data, size_t size)
{
    static rrb_rm_defs defs;
    static int loaded;
    rrb_rm_defs d;
    rrb_rmesh m;
    char err[RRB_ERR_MAX];
    if (!loaded)
        loaded = 1, rrb_rm_defs_parse(fuzz_defs, sizeof fuzz_defs - 1, "f.json", &defs, NULL, err,
                                      sizeof err);
    if (rrb_rmesh_read_defs(data, size, "f.rm", &defs, &m, err, sizeof err) == 0)
        rrb_rmesh_free(&m);
    if (rrb_rm_defs_parse((const char *)data, size, "f.json", &d, NULL, err, sizeof err) == 0)
        rrb_rm_defs_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    static const char *const names[] = {"f.rmesh", "f.rmf", "f.roo", "f.meshb", "f.sklb", "f.animb"};
    char err[RRB_ERR_MAX];
    rrb_opts opts = {0};
    size_t i, k;
    if (!null)
        null = fopen("/dev/null", "w");
    opts.quiet = 1;
    fuzz_rmesh_custom(data, size);
    for (i = 0; i < RRB_NFORMATS; i++) {
        const rrb_format *f = rrb_formats[i];
        if (!f)
            continue;
        for (k = 0; k < sizeof names / sizeof names[0]; k++) {
            rrb_blob *b;
            if (f->probe && !f->probe(data, size, names[k]))
                continue;
            if (f->info_json)
                f->info_json(data, size, names[k], null, err, sizeof err);
            if (f->verify)
                f->verify(data, size, names[k], null, err, sizeof err);
            if (f->bake && (b = f->bake(data, size, names[k], &opts, err, sizeof err)) != NULL)
                rrb_blob_free(b);
        }
    }
    return 0;
}

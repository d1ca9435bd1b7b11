/* fuzz_reader.c - libFuzzer target: every reader of the baker on arbitrary
 * source bytes: info, verify and bake of each format module, whether or not
 * its probe recognises the data. Errors are expected; crashes, sanitizer
 * reports, hangs and huge allocations are bugs. */
#include <stdio.h>
#include <stdlib.h>

#include "rrb_format.h"

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

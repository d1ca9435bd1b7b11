/* rrb_formats.c - the registry of source-format modules. A module that is
 * not built yet is simply absent (weak reference), so modules land one by one. */
#include <string.h>

#include "rrb_format.h"

extern const rrb_format rrb_format_rmesh __attribute__((weak));
extern const rrb_format rrb_format_rmf __attribute__((weak));
extern const rrb_format rrb_format_roo __attribute__((weak));
extern const rrb_format rrb_format_emi __attribute__((weak));

const rrb_format *const rrb_formats[RRB_NFORMATS] = {
    &rrb_format_rmesh, &rrb_format_rmf, &rrb_format_roo, &rrb_format_emi};

const rrb_format *rrb_detect(const uint8_t *data, size_t size, const char *path)
{
    size_t i;
    for (i = 0; i < RRB_NFORMATS; i++) {
        const rrb_format *f = rrb_formats[i];
        if (f && f->probe && f->probe(data, size, path))
            return f;
    }
    return NULL;
}

const rrb_format *rrb_format_by_name(const char *name)
{
    size_t i;
    for (i = 0; i < RRB_NFORMATS; i++)
        if (rrb_formats[i] && strcmp(rrb_formats[i]->name, name) == 0)
            return rrb_formats[i];
    return NULL;
}

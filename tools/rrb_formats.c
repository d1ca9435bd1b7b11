/* rrb_formats.c - the registry of source-format modules. A module that is
 * not built yet is simply absent (weak reference), so modules land one by one. */
#include <stdio.h>
#include <string.h>

#include "rrb_format.h"

extern const rrb_format rrb_format_rmesh __attribute__((weak));
extern const rrb_format rrb_format_rmf __attribute__((weak));
extern const rrb_format rrb_format_roo __attribute__((weak));
extern const rrb_format rrb_format_emi __attribute__((weak));

rrb_opts rrb_text_opts;

const rrb_format *const rrb_formats[RRB_NFORMATS] = {
    &rrb_format_rmesh, &rrb_format_rmf, &rrb_format_roo, &rrb_format_emi};

const rrb_format *const rrb_formats_listed[RRB_NFORMATS] = {
    &rrb_format_roo, &rrb_format_rmesh, &rrb_format_rmf, &rrb_format_emi};

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

const rrb_format *rrb_format_of_room(uint32_t room_format)
{
    size_t i;
    for (i = 0; i < RRB_NFORMATS; i++)
        if (rrb_formats[i] && rrb_formats[i]->room && rrb_formats[i]->room->format == room_format)
            return rrb_formats[i];
    return NULL;
}

const rrb_room_hooks *rrb_room_hooks_of(uint32_t room_format)
{
    const rrb_format *f = rrb_format_of_room(room_format);
    return f ? f->room : NULL;
}

const char *rrb_room_format_name(uint32_t room_format)
{
    const rrb_format *f = rrb_format_of_room(room_format);
    return f ? f->name : room_format == RR_FMT_RAW ? "raw" : "unknown";
}

void rrb_format_names(char *dst, size_t cap, int (*has)(const rrb_room_hooks *h))
{
    const char *names[RRB_NFORMATS];
    size_t i, n = 0, len = 0;
    for (i = 0; i < RRB_NFORMATS; i++) {
        const rrb_format *f = rrb_formats_listed[i];
        if (f && f->room && has(f->room))
            names[n++] = f->name;
    }
    dst[0] = 0;
    for (i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(dst + len, cap - len, "%s%s",
                                i == 0 ? "" : i + 1 < n ? ", " : " or ", names[i]);
}

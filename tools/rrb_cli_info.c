/* rrb_cli_info.c - `rrbake info` of a blob: the common part (source file,
 * coordinate unit), then the room format's summary hook, read through the
 * runtime's own accessors (what a program would see). */
#include <math.h>

#include "rr_blobfmt.h"
#include "rrb_cli.h"

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

int rrb_cli_room_info(const rr_room *room, FILE *o, int json)
{
    const rrb_room_hooks *h = rrb_room_hooks_of(room->format);
    if (json)
        fprintf(o, "{");
    source_info(room, o, json);
    if (json)
        fprintf(o, "\"coord_unit\":%.9g,", ldexp(1.0, -(int)room->coord_frac));
    if (h && h->summary)
        h->summary(room, o, json);
    else if (json)
        fprintf(o, "\"raw\":true");
    if (json)
        fprintf(o, "}");
    return 0;
}

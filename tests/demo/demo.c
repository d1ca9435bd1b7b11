/* demo.c - the program `make run` runs on a board: every blob it was linked
 * with is opened in place (const data, no copy) and described, then each
 * format's runtime answers a few queries about it. */
#include "rr.h"
#include "rr_plat.h"
#include "rr_test_blobs.h"

static const char *const formats[] = {"raw", "rmesh", "rmf", "roo", "emi"};

static uint32_t arena[16384]; /* 64 KB: far more than any sample needs */

int main(void)
{
    unsigned i, s;
    plat_init();
    plat_printf("romroom %d.%d demo: %u blob(s) linked as const data\n", RR_VERSION_MAJOR,
                RR_VERSION_MINOR, rr_test_nblobs);
    for (i = 0; i < rr_test_nblobs; i++) {
        const rr_test_blob *b = &rr_test_blobs[i];
        rr_room room;
        int32_t need = rr_arena_size(b->data, b->size);
        rr_err e = rr_open(b->data, b->size, arena, sizeof arena, &room);
        plat_printf("\n%s: %u bytes, arena %d bytes: %s\n", b->name, b->size, (int)need,
                    rr_strerror(e));
        if (e)
            continue;
        plat_printf("  format %s, coordinates Q.%u, max depth %u, %u sections\n",
                    room.format < 5 ? formats[room.format] : "?", (unsigned)room.coord_frac,
                    (unsigned)room.max_depth, (unsigned)room.nsections);
        for (s = 0; s < room.nsections; s++)
            plat_printf("    section 0x%04x: %u bytes, %u elements\n", (unsigned)room.sections[s * 4],
                        (unsigned)room.sections[s * 4 + 2], (unsigned)room.sections[s * 4 + 3]);
    }
    return 0;
}

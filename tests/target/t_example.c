/* t_example.c - the pattern to copy into your own firmware: a room baked
 * with `rrbake bake room.roo --target <board> --c-array room_blob -o
 * room_blob.c`, compiled in as const data (flash), opened in place, queried.
 * `make test` builds it for every board from the project's sample room and
 * checks that every board prints what the host prints. */
#include "rr.h"
#include "rr_plat.h"  /* printing only; the library itself needs nothing */
#include "rr_roo.h"

extern const unsigned char room_blob[];   /* from room_blob.c */
extern const uint32_t room_blob_size;

static uint32_t arena[128];               /* 512 bytes: rr_arena_size() says 220 */

int main(void)
{
    rr_room room;
    rr_roo_heights h;
    rr_roo_move m;
    int32_t need, x, y;
    rr_err e;
    plat_init();
    need = rr_arena_size(room_blob, room_blob_size);
    if (need < 0 || (uint32_t)need > sizeof arena) {
        plat_printf("arena: need %d bytes, have %u\n", (int)need, (unsigned)sizeof arena);
        return 1;
    }
    e = rr_open(room_blob, room_blob_size, arena, sizeof arena, &room);
    if (e != RR_OK) {
        plat_printf("rr_open: %s\n", rr_strerror(e));  /* e.g. wrong byte order */
        return 1;
    }
    /* Client units -> coords: shift by the blob's fractional bits. */
    x = 1024 * (1 << room.coord_frac);
    y = 1024 * (1 << room.coord_frac);
    if (rr_roo_height(&room, x, y, &h) == RR_OK)
        plat_printf("sector %d: floor %d, ceiling %d (client units)\n", (int)h.sector,
                    (int)(h.floor >> room.coord_frac), (int)(h.ceiling >> room.coord_frac));
    if (rr_roo_can_move(&room, x, y, 3 * x, 3 * y, 64 << room.coord_frac,
                        40 << room.coord_frac, 256 << room.coord_frac, &m) == RR_OK)
        plat_printf("walk: block %d after %d/65536 of the way\n", (int)m.block, (int)m.fraction);
    plat_printf("# t_example: 1 passed, 0 failed\n");
    return 0;
}

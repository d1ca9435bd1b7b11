/* rr_emulate.c - the board program of `rrbake emulate` (installed as
 * lib/romroom/<board>/rr-emulate.elf): opens the blob of the input image
 * QEMU loaded at RRE_INPUT (rrb_emu.h) in place and prints one answer line
 * per query, then "# end N". Built per board by the Makefile with
 * RRE_BOARD (the board's name) and RRE_ARENA_BYTES.
 *
 * Exit status: 0 answers printed; 3 no valid input image (the program was
 * started without rrbake emulate); 4 rr_open refused the blob or the arena
 * is too small (the line before says which). */
#include "rr.h"
#include "rr_plat.h"
#include "rrb_emu.h"

#ifndef RRE_ARENA_BYTES
#define RRE_ARENA_BYTES (1u << 20)
#endif

static uint32_t arena[RRE_ARENA_BYTES / 4];
static rre_line line;

int main(void)
{
    uint32_t load, read, max, i;
    const uint32_t *w;
    const rre_query *q;
    rr_room room;
    int32_t need;
    rr_err e;
    plat_init();
    if (rre_input_place(RRE_BOARD, &load, &read, &max)) {
        plat_printf("rr-emulate: no input place for board %s\n", RRE_BOARD);
        plat_exit(3);
    }
    w = (const uint32_t *)(uintptr_t)read;
    /* Every offset and size is checked against the image before use:
     * the image is input like any other. */
    if (w[0] != RRE_MAGIC || w[1] != RRE_VERSION || w[2] > max || w[2] < RRE_HEADER_WORDS * 4 ||
        w[3] % 8 || w[3] > w[2] || w[4] > w[2] - w[3] || w[5] % 4 || w[5] > w[2] ||
        w[6] > (w[2] - w[5]) / (RRE_QUERY_WORDS * 4)) {
        plat_printf("rr-emulate: no valid input image at 0x%08lx (run me with rrbake emulate)\n",
                    (unsigned long)read);
        plat_exit(3);
    }
    need = rr_arena_size((const uint8_t *)w + w[3], w[4]);
    if (need < 0 || (uint32_t)need > sizeof arena) {
        plat_printf("rr-emulate: the room needs %ld bytes of arena, this program has %lu\n",
                    (long)need, (unsigned long)sizeof arena);
        plat_exit(4);
    }
    e = rr_open((const uint8_t *)w + w[3], w[4], arena, sizeof arena, &room);
    if (e != RR_OK) {
        plat_printf("rr-emulate: rr_open: %s\n", rr_strerror(e));
        plat_exit(4);
    }
    q = (const rre_query *)(const void *)((const uint8_t *)w + w[5]);
    for (i = 0; i < w[6]; i++) {
        rre_run(&room, &q[i], &line);
        plat_puts(line.s);
        plat_putc('\n');
    }
    plat_printf("# end %lu\n", (unsigned long)w[6]);
    plat_exit(0);
}

/* b_open.c - benchmark of the container: rr_open on synthetic blobs of
 * several sizes, against a baseline measured in the same run (the bare
 * CRC-32 pass over the same bytes, the floor of any checksummed open).
 * Protocol: before each measured region the program prints
 *   BENCH <label> <units> <baseline-label or ->   (units: the bytes covered)
 * and tests/bench/bench.sh pairs the i-th line with the i-th region count of
 * the icount plugin (rr_bench_start .. rr_bench_stop). */
#include "rr.h"
#include "rr_plat.h"
#include "rr_test_blobs.h"

static uint32_t arena[64];
static volatile uint32_t sink;

int main(void)
{
    unsigned i;
    rr_room room;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++) {
        const rr_test_blob *b = &rr_test_blobs[i];
        rr_err e;
        plat_printf("BENCH crc32:%s %u -\n", b->name, b->size);
        rr_bench_start();
        sink = rr_crc32(0, b->data + 24, b->size - 24);
        rr_bench_stop();
        plat_printf("BENCH rr_open:%s %u crc32:%s\n", b->name, b->size, b->name);
        rr_bench_start();
        e = rr_open(b->data, b->size, arena, sizeof arena, &room);
        rr_bench_stop();
        if (e)
            plat_printf("error: %s\n", rr_strerror(e));
    }
    return 0;
}

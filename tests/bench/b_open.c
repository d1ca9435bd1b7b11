/* b_open.c - benchmark of rr_open: on synthetic RAW blobs of several sizes
 * (the container alone) and on one small real room of each format (the
 * container plus the format's schema and semantic checks), each against a
 * baseline measured in the same run: the bare CRC-32 pass over the same
 * bytes, the floor of any checksummed open. rr_open minus crc32 is what
 * validation costs without the checksum (docs/bench.md gives it per byte).
 * Protocol: before each measured region the program prints
 *   BENCH <label> <units> <baseline-label or ->   (units: the bytes covered)
 * and tests/bench/bench.sh pairs the i-th line with the i-th region count of
 * the icount plugin (rr_bench_start .. rr_bench_stop). */
#include "rr.h"
#include "rr_emi.h"
#include "rr_plat.h"
#include "rr_rmesh.h"
#include "rr_rmf.h"
#include "rr_roo.h"
#include "rr_test_blobs.h"

static uint32_t arena[1024];   /* 4 KB, the arena budget of every format */
static volatile uint32_t sink;

/* A runtime is linked (and rr_open validates its format) when the program
 * uses it: one query of each keeps all four in. */
typedef void (*any_fn)(void);
static const any_fn used[] = {(any_fn)rr_roo_locate, (any_fn)rr_rmesh_raycast,
                              (any_fn)rr_rmf_trace, (any_fn)rr_emi_get_info};

int main(void)
{
    unsigned i, failed = 0;
    rr_room room;
    plat_init();
    {
        const any_fn *volatile keep = used;
        sink = keep[0] != 0;
    }
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
        /* a refused blob measured nothing: the program fails (the board's
         * status, FAIL in make bench) rather than report an error path's cost
         * as rr_open's; this is how a runtime left out of the link shows */
        if (e) {
            plat_printf("error: rr_open(%s): %s\n", b->name, rr_strerror(e));
            failed++;
        }
    }
    return failed ? 1 : 0;
}

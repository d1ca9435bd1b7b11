/* fuzz_open.c - libFuzzer target: rr_open on arbitrary bytes, then every
 * query of the room's runtime (tests/fuzz/fuzz_queries.h) when it accepted
 * the blob. ASan + UBSan turn any out-of-bounds read into a crash. */
#include <stdlib.h>
#include <string.h>

#include "rr.h"
#include "fuzz_queries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint32_t arena[1 << 16];
    uint32_t *copy = malloc(size + 4);  /* exact-size, aligned: ASan sees overreads */
    rr_room room;
    if (!copy || size > 0x7fffffff)
        return free(copy), 0;
    memcpy(copy, data, size);
    if (rr_open(copy, (uint32_t)size, arena, sizeof arena, &room) == RR_OK)
        rr_fuzz_queries(&room, data, size);
    free(copy);
    return 0;
}

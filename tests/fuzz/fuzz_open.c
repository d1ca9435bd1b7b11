/* fuzz_open.c - libFuzzer target: rr_open on arbitrary bytes, then every
 * query of the room's runtime (tests/fuzz/fuzz_queries.h) when it accepted
 * the blob. Each input is tried twice: as it is (so the header and checksum
 * checks are fuzzed) and with its CRC field recomputed (so mutations get past
 * the checksum into the section table and the format validators). ASan +
 * UBSan turn any out-of-bounds read into a crash. */
#include <stdlib.h>
#include <string.h>

#include "rr.h"
#include "fuzz_queries.h"

static void try_open(uint32_t *copy, const uint8_t *data, size_t size)
{
    static uint32_t arena[1 << 16];
    rr_room room;
    if (rr_open(copy, (uint32_t)size, arena, sizeof arena, &room) == RR_OK)
        rr_fuzz_queries(&room, data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t *copy = malloc(size + 4), crc;  /* exact size, aligned: ASan sees overreads */
    if (!copy || size > 0x7fffffff)
        return free(copy), 0;
    memcpy(copy, data, size);
    try_open(copy, data, size);
    if (size >= 48) {
        crc = rr_crc32(0, (const uint8_t *)copy + 24, (uint32_t)size - 24);
        memcpy((uint8_t *)copy + 20, &crc, 4);  /* host order = the blob's when it opens */
        try_open(copy, data, size);
    }
    free(copy);
    return 0;
}

/* selftest_lib.c - library half of the board self-test: a 2 MB const blob and 64-bit arithmetic. */
#include "selftest.h"

/* Markers at the start, the 1 MB boundary and the very end, so a blob that
   is cut short, shifted or not loaded changes the checksum. */
const uint32_t selftest_blob[SELFTEST_BLOB_WORDS] = {
    [0] = 0x01234567u,
    [1] = 0x89abcdefu,
    [SELFTEST_BLOB_WORDS / 2] = 0xdeadbeefu,
    [SELFTEST_BLOB_WORDS / 2 + 1] = 0x00c0ffeeu,
    [SELFTEST_BLOB_WORDS - 1] = 0xfeedf00du,
};

int64_t selftest_div64(int64_t a, int64_t b)
{
    return a / b;
}

int64_t selftest_mod64(int64_t a, int64_t b)
{
    return a % b;
}

uint64_t selftest_udiv64(uint64_t a, uint64_t b)
{
    return a / b;
}

uint64_t selftest_mul64(uint64_t a, uint64_t b)
{
    return a * b;
}

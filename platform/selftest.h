/* selftest.h - what selftest_lib.c (built into a static library) gives selftest.c. */
#ifndef RR_SELFTEST_H
#define RR_SELFTEST_H

#include <stdint.h>

enum { SELFTEST_BLOB_WORDS = 2 * 1024 * 1024 / 4 };    /* 2 MB */

/* 2 MB of const data, mostly zero, with marker words spread across it. */
extern const uint32_t selftest_blob[SELFTEST_BLOB_WORDS];

/* 64-bit helpers kept out of line so the compiler cannot fold them. */
int64_t selftest_div64(int64_t a, int64_t b);
int64_t selftest_mod64(int64_t a, int64_t b);
uint64_t selftest_udiv64(uint64_t a, uint64_t b);
uint64_t selftest_mul64(uint64_t a, uint64_t b);

#endif /* RR_SELFTEST_H */

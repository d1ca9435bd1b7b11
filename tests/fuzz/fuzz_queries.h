/* fuzz_queries.h - run every query a runtime offers on an open room, with
 * arguments derived from the fuzz input (so they vary), for fuzz_open.c.
 * Each format runtime adds its calls here as it lands. */
#ifndef RR_FUZZ_QUERIES_H
#define RR_FUZZ_QUERIES_H

#include <stddef.h>
#include <stdint.h>

#include "rr.h"
#include "rr_blobfmt.h"

static int32_t rr_fuzz_arg(const uint8_t *d, size_t n, size_t i)
{
    uint32_t v = 0;
    size_t k;
    for (k = 0; k < 4 && n; k++)
        v = v << 8 | d[(i * 4 + k) % n];
    return (int32_t)v;
}

static void rr_fuzz_queries(const rr_room *room, const uint8_t *d, size_t n)
{
    const void *p;
    uint32_t c;
    (void)rr_fuzz_arg(d, n, 0);
    (void)rr_section(room, RR_SEC_STRINGS, &p, &c);
    (void)rr_string(room, (uint32_t)rr_fuzz_arg(d, n, 1));
}

#endif

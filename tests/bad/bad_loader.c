/* bad_loader.c - deliberately breaks every loader rule, so that the build
 * checks are shown to fail when they should (tests/check_selftest.sh). */
#include <stdlib.h>

double rr_bad_float(double x) { return x * 1.5; }          /* soft-float on targets */
void *rr_bad_heap(unsigned n) { return malloc(n); }        /* heap */
unsigned rr_bad_recursive(unsigned n) { return n ? 1 + rr_bad_recursive(n - 1) : 0; }
int rr_bad_big_frame(int i)
{
    volatile int big[600];                                 /* 2400-byte frame */
    big[i % 600] = i;
    return big[(i + 1) % 600];
}

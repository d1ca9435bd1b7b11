/* bench_markers.c - empty region markers found by symbol name by the icount plugin. */
#include "../rr_plat.h"

/*
 * noinline keeps a real call at every use; noipa also stops GCC from
 * merging the two identical empty bodies or assuming anything about them,
 * so each marker stays one "return" at its own address.
 */
__attribute__((noinline, noipa)) void rr_bench_start(void)
{
}

__attribute__((noinline, noipa)) void rr_bench_stop(void)
{
}

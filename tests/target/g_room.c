/* g_room.c - a golden program: the query set of one runtime
 * (tests/target/q_<G_FMT>.c, the same code t_<G_FMT> runs) on the one room
 * linked with it. The Makefile ("Golden outputs") builds one per corpus room
 * and board; the host's output is the golden, build/golden/<dir>/<room>.txt,
 * and tests/runner.sh checks every board's output against it byte for byte.
 * Compile with -DG_FMT=roo, rmesh, rmf or emi. */
#include "rr_plat.h"
#include "rr_test_blobs.h"
#include "q_room.h"

#define G_CAT(a, b, c) a##b##c
#define G_FN(fmt, what) G_CAT(q_, fmt, what)   /* G_FN(roo, _room) = q_roo_room */

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        G_FN(G_FMT, _room)(&rr_test_blobs[i]);
    return G_FN(G_FMT, _done)("golden");
}

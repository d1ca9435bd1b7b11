/* t_roo.c - Meridian 59 rooms on every board: open each linked blob, run a
 * deterministic point set (rt_rand, tests/rr_test.h) through rr_roo_locate / rr_roo_height,
 * and moves / sight lines through rr_roo_can_move / rr_roo_line_of_sight, and
 * print the results; the runner compares the output byte for byte with
 * the host's (whose answers test_roo_query checks against a double-precision
 * reference). The sample room's answers are also checked here, by hand value.
 * The per-room part is tests/target/q_roo.c (shared with the goldens). */
#include "rr_plat.h"
#include "rr_test_blobs.h"
#include "q_room.h"

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        q_roo_room(&rr_test_blobs[i]);
    return q_roo_done("t_roo");
}

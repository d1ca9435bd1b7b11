/* t_rmf.c - Worldcraft / Hammer maps on every board: open each linked blob,
 * run a deterministic query set (rt_rand, tests/rr_test.h) through rr_rmf_point_contents,
 * rr_rmf_trace (ray and box) and rr_rmf_find_entity, and print the results
 * (every 64th in full, all of them in a hash); the runner compares the output
 * byte for byte with the host's, whose answers test_rmf_bake checks against a
 * double-precision reference. Invariants (a ray never ends in solid, the
 * fraction is in [0, 1]) and the sample map's known answers are checked here.
 * The per-room part is tests/target/q_rmf.c (shared with the goldens). */
#include "rr_plat.h"
#include "rr_test_blobs.h"
#include "q_room.h"

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        q_rmf_room(&rr_test_blobs[i]);
    return q_rmf_done("t_rmf");
}

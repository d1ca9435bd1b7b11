/* t_rmesh.c - RMesh queries on every board: for each linked blob, a
 * deterministic set of ray casts, box queries, trigger lookups,
 * nearest-entity lookups and ellipsoid sweeps, one printed line per result. The runner compares
 * the output of every board byte for byte with the host's; the host tests
 * test_rmesh_query and test_rmesh_sweep check the same queries against
 * double-precision brute-force references. The per-room part is
 * tests/target/q_rmesh.c (shared with the goldens). */
#include "rr_plat.h"
#include "rr_test_blobs.h"
#include "q_room.h"

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        q_rmesh_room(&rr_test_blobs[i]);
    return q_rmesh_done("t_rmesh");
}

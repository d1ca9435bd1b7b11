/* t_emi.c - EMI figures on every board: open each linked blob, then sample
 * its animation at a fixed set of times (looping and clamped), build model
 * and skinning matrices, skin the mesh, and print joint positions, skinned
 * vertices and hashes. The runner compares the output byte for byte with the
 * host's; tests/host/test_emi_runtime.c checks the same pipeline against a
 * double reference. Then positions-only skinning against the job with
 * normals (q_emi_positions_only); ends with corrupted RAM copies refused
 * with exact codes.
 * The per-figure part is tests/target/q_emi.c (shared with the goldens).
 */
#include "rr_plat.h"
#include "rr_test_blobs.h"
#include "q_room.h"

int main(void)
{
    unsigned i;
    plat_init();
    for (i = 0; i < rr_test_nblobs; i++)
        q_emi_room(&rr_test_blobs[i]);
    for (i = 0; i < rr_test_nblobs; i++)
        q_emi_positions_only(&rr_test_blobs[i]);
    for (i = 0; i < rr_test_nblobs; i++)   /* the first blob that fits in RAM */
        if (q_emi_evil(&rr_test_blobs[i]))
            break;
    return q_emi_done("t_emi");
}

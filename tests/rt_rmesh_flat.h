/* rt_rmesh_flat.h - the "flat" copy of an RMesh blob for tests and benches:
 * the same room with its BVH cut to one leaf that holds every triangle, so
 * the loader's own queries test every triangle (the brute force of
 * b_rmesh's ray_flat / sweep_flat and of test_rmesh_sweep's order check).
 * Built by hand from the layout docs/blob-format.md gives: the sections
 * copied back to back with NODES cut to its root, which becomes that leaf,
 * head.nnodes 1, total size and CRC rewritten; rr_open then validates the
 * result like any blob. Little-endian blobs in this machine's order. Both
 * kinds of blob: a collision-only blob's triangles are its TRIS records, a
 * full blob's its TREF keys (rr_rmesh_tref), which the reversal turns. */
#ifndef RT_RMESH_FLAT_H
#define RT_RMESH_FLAT_H

#include <stddef.h>
#include <string.h>

#include "rr_rmesh.h"
#include "rr_test.h"

/* The flat copy of blob into buf (cap bytes); reverse: the triangles in
 * reverse blob order, so they are tested in another order than the
 * tree's. Returns its size, or 0 when it does not fit buf or the
 * triangles do not fit one leaf (at most 32,767). */
static __attribute__((unused)) uint32_t rt_rmesh_flat(const uint8_t *blob, uint32_t blob_size,
                                                      uint8_t *buf, uint32_t cap, int reverse)
{
    uint32_t i, j, ns, type = 0, elem = 0, count = 0, src, dst, len, crc;
    rr_rmesh_head *h = 0;
    rr_rmesh_node *root = 0;
    rr_rmesh_tri *t = 0, tmp;
    rr_rmesh_tref *ref = 0, rtmp;
    if (blob_size > cap)
        return 0;
    memcpy(&ns, blob + offsetof(rr_blob_header, nsections), 4);
    dst = RR_HEADER_BYTES + ns * RR_SECTION_ENTRY_BYTES;
    memcpy(buf, blob, dst);   /* header and table */
    for (i = 0; i < ns; i++) {
        src = rt_section_i(blob, i, &type, &elem, &count);
        len = type == RR_SEC_RMESH_NODES ? elem : elem * count;
        memcpy(buf + dst, blob + src, len);
        memset(buf + dst + len, 0, ((len + 3u) & ~3u) - len);
        memcpy(buf + RR_HEADER_BYTES + i * RR_SECTION_ENTRY_BYTES + 4, &len, 4);
        if (type == RR_SEC_RMESH_HEAD)
            h = (rr_rmesh_head *)(void *)(buf + dst);
        if (type == RR_SEC_RMESH_NODES)
            root = (rr_rmesh_node *)(void *)(buf + dst);
        if (type == RR_SEC_RMESH_TRIS)
            t = (rr_rmesh_tri *)(void *)(buf + dst);
        if (type == RR_SEC_RMESH_TREF)
            ref = (rr_rmesh_tref *)(void *)(buf + dst);
        dst += (len + 3u) & ~3u;
    }
    if (!h || !root || !t || h->ntris == 0 || h->ntris >= RR_RMESH_LEAF)
        return 0;
    for (i = 0, j = h->ntris - 1; reverse && i < j; i++, j--) {
        if (ref) {   /* a full blob: the triangles are the keys */
            rtmp = ref[i];
            ref[i] = ref[j];
            ref[j] = rtmp;
            continue;
        }
        tmp = t[i];
        t[i] = t[j];
        t[j] = tmp;
    }
    h->nnodes = 1;
    root->first = 0;
    root->count = (uint16_t)(RR_RMESH_LEAF | h->ntris);
    memcpy(buf + offsetof(rr_blob_header, total_size), &dst, 4);
    crc = rr_crc32(0, buf + RR_CHECKSUM_FROM, dst - RR_CHECKSUM_FROM);
    memcpy(buf + offsetof(rr_blob_header, checksum), &crc, 4);
    return dst;
}

#endif

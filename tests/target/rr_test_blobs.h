/* rr_test_blobs.h - the blobs a target test program was linked with
 * (generated per board by tests/gen_blobs.sh from tests/target/<name>.blobs). */
#ifndef RR_TEST_BLOBS_H
#define RR_TEST_BLOBS_H

typedef struct rr_test_blob {
    const char *name;
    const unsigned char *data;  /* 8-byte aligned, in .rodata (flash) */
    unsigned size;
} rr_test_blob;

extern const rr_test_blob rr_test_blobs[];
extern const unsigned rr_test_nblobs;

#endif

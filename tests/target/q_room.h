/* q_room.h - the per-room query sets of the target programs, one file per
 * runtime (tests/target/q_<fmt>.c). Each q_<fmt>_room() opens one linked
 * blob, prints its counts and runs the format's fixed query set; t_<fmt>.c
 * calls it for every blob of its list, tests/target/g_room.c for the one
 * blob of a golden program (one corpus room per program, see the Makefile's
 * "Golden outputs"). The checks count in the query file's own rr_test.h
 * counters, so the program ends with q_<fmt>_done(suite), which prints the
 * "# suite: N passed, M failed" line and returns the exit status. */
#ifndef Q_ROOM_H
#define Q_ROOM_H

#include "rr_test_blobs.h"

/* Each query set's counts are multiplied by Q_SCALE: 1 in t_<fmt> (its
 * output must not change), the Makefile's GOLDEN_SCALE in the goldens. The
 * EMI set (nine poses and two blends per figure) is not scaled. */
#ifndef Q_SCALE
#define Q_SCALE 1
#endif

void q_roo_room(const rr_test_blob *b);
int q_roo_done(const char *suite);

void q_rmesh_room(const rr_test_blob *b);
int q_rmesh_done(const char *suite);

void q_rmf_room(const rr_test_blob *b);
int q_rmf_done(const char *suite);

/* q_emi_evil: corrupted RAM copies of a blob of at most 4 KB, refused with
 * exact codes; returns 0 (and does nothing) for a larger blob, else 1. */
void q_emi_room(const rr_test_blob *b);
void q_emi_positions_only(const rr_test_blob *b);
int q_emi_evil(const rr_test_blob *b);
int q_emi_done(const char *suite);

#endif

/* rrb_emu.h - `rrbake emulate`: the input image a board program reads, and
 * the query runner both sides share.
 *
 * rrbake emulate parses a file of `rrbake query` lines on the host, runs
 * each one through the host loader with rre_run(), writes an input image
 * (header, queries, blob; every word in the board's byte order) and has QEMU
 * load it into the board's memory at the address rre_input_place() gives
 * (QEMU's generic loader device: -device loader,file=IMAGE,addr=ADDR,
 * force-raw=on; no semihosting file access, so the same on all five boards).
 * The board program, tools/emulate/rr_emulate.c (installed as
 * lib/romroom/<board>/rr-emulate.elf), opens the blob in place and runs the
 * same rre_run() on every query, printing one answer line each; rrbake
 * compares the lines with the host's.
 *
 * This file and rrb_emu.c are plain C99 on <stdint.h> and the loader's
 * headers only: they are compiled into rrbake and into the board program
 * (no libc there on malta). Answers are integers: coordinates as raw coords
 * of the blob (source units << coord_frac), 16.16 values as 0x%08x.
 */
#ifndef RRB_EMU_H
#define RRB_EMU_H

#include <stdint.h>

#include "rr.h"

/* The input image, as 32-bit words in the board's byte order:
 *   [0] RRE_MAGIC   [1] RRE_VERSION   [2] total bytes
 *   [3] offset of the blob (8-aligned)   [4] blob bytes
 *   [5] offset of the queries            [6] number of queries
 *   [7] 0
 * then the queries, RRE_QUERY_WORDS words each (rre_query), then the blob. */
#define RRE_MAGIC 0x51455252u      /* "RREQ" read as a little-endian word */
#define RRE_VERSION 1u
#define RRE_HEADER_WORDS 8u
#define RRE_MAX_ARGS 10
#define RRE_QUERY_WORDS (2u + RRE_MAX_ARGS)

/* The queries the board program runs: `rrbake query` commands whose
 * arguments are all numbers (the ones with names or strings, e.g. rmesh
 * nearest, rmf entity and EMI's, are host-only). */
enum rre_op {
    RRE_ROO_LOCATE = 1, RRE_ROO_HEIGHT, RRE_ROO_MOVE, RRE_ROO_SLIDE, RRE_ROO_SIGHT,
    RRE_ROO_GRID,
    RRE_RMESH_RAY, RRE_RMESH_SWEEP, RRE_RMESH_TRIGGER, RRE_RMESH_BOX,
    RRE_RMF_CONTENTS, RRE_RMF_TRACE, RRE_RMF_BOX
};

typedef struct rre_query {
    uint32_t op;                    /* enum rre_op */
    uint32_t nargs;                 /* arguments given */
    int32_t a[RRE_MAX_ARGS];        /* coords, or 16.16 / plain integers where the
                                       query says so (rre_op_find's plain mask) */
} rre_query;

/* The op of `rrbake query` command name for a room of format fmt (enum
 * rr_format), or 0 when the board program does not run it. */
uint32_t rre_op_find(uint32_t fmt, const char *name);
/* "locate height move slide sight grid" for a format ("" if none). */
const char *rre_op_names(uint32_t fmt);

/* One answer line being written (no newline), with the room's text
 * (rr_string) copied in when an answer names something. */
#define RRE_LINE_MAX 1024
typedef struct rre_line {
    char s[RRE_LINE_MAX];
    uint32_t n;
} rre_line;

/* Run query q on the open room and write its answer into line (cleared
 * first; "error: <rr_strerror>" when the loader refuses the arguments). */
void rre_run(const rr_room *room, const rre_query *q, rre_line *line);

/* Where rrbake emulate puts the input image on a board: the physical
 * address QEMU loads it at, the address the program reads it from (they
 * differ on malta, where the program sees RAM through KSEG0) and the most
 * bytes it may have. 0 ok, -1 for a board without a board program (host). */
int rre_input_place(const char *board, uint32_t *load, uint32_t *read, uint32_t *max);

#endif

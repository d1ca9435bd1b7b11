/* rrb_boards.h - the boards rrbake bakes for (--target): each board's byte
 * order and the largest blob a program may link there (its flash or RAM
 * budget, platform/<board>/board.mk BOARD_BLOB_MAX; tests/host/test_cli.c
 * checks that the two agree). */
#ifndef RRB_BOARDS_H
#define RRB_BOARDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct rrb_board {
    const char *name;      /* as platform/<name> */
    int big_endian;
    uint32_t blob_max;     /* bytes; 0: no limit (host) */
    const char *what;      /* one line for --help */
} rrb_board;

extern const rrb_board rrb_boards[];
extern const size_t rrb_nboards;

/* The board named name, or NULL. */
const rrb_board *rrb_board_by_name(const char *name);
/* "host, mps2-an385, ..." */
void rrb_board_names(char *dst, size_t cap);

#endif

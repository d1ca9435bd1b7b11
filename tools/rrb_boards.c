/* rrb_boards.c - the board table of --target (see rrb_boards.h). */
#include "rrb_boards.h"

#include <stdio.h>
#include <string.h>

const rrb_board rrb_boards[] = {
    {"host", 0, 0, "this computer (little-endian, no size limit)"},
    {"mps2-an385", 0, 16711680u, "Cortex-M3, little-endian, 16 MB PSRAM less 64 KB"},
    {"versatilepb", 0, 125829120u, "ARM926EJ-S, little-endian, 120 MB of its RAM"},
    {"malta-le", 0, 132120576u, "MIPS32 little-endian, 126 MB"},
    {"malta-be", 1, 132120576u, "MIPS32 big-endian, 126 MB"},
    {"microbit", 0, 221184u, "Cortex-M0, little-endian, 216 KB of its 256 KB flash"},
};
const size_t rrb_nboards = sizeof rrb_boards / sizeof rrb_boards[0];

const rrb_board *rrb_board_by_name(const char *name)
{
    size_t i;
    for (i = 0; i < rrb_nboards; i++)
        if (!strcmp(rrb_boards[i].name, name))
            return &rrb_boards[i];
    return NULL;
}

void rrb_board_names(char *dst, size_t cap)
{
    size_t i, used = 0;
    dst[0] = 0;
    for (i = 0; i < rrb_nboards && used < cap; i++)
        used += (size_t)snprintf(dst + used, cap - used, "%s%s", i ? ", " : "", rrb_boards[i].name);
}

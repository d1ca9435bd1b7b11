/* rrb_files.h - the input files of a command that takes files and folders
 * (bake, verify, info): folders walked in name order, files that are no
 * room source skipped and counted, and the output names of a bake checked
 * for collisions before anything is written. */
#ifndef RRB_FILES_H
#define RRB_FILES_H

#include <stddef.h>

typedef struct rrb_input {
    char *path;       /* as given, or folder + "/" + rel */
    char *rel;        /* path relative to its folder argument; NULL for a file argument */
    char *out;        /* bake: the output path */
} rrb_input;

typedef struct rrb_inputs {
    rrb_input *v;
    size_t n, cap;
    /* what a folder held that is not baked or checked (file arguments are
     * never skipped: a bad one is an error) */
    size_t not_room;   /* no format recognises it (README.txt, images ...) */
    size_t parts;      /* a part that another file takes in (EMI members) */
    size_t excluded;   /* matched an --exclude pattern */
} rrb_inputs;

/* Add a file argument, or every file below a folder argument (recursive,
 * in name order, hidden names skipped). */
void rrb_inputs_add(rrb_inputs *in, const char *arg);

/* Drop the folder files that are not for this command: those matching one
 * of the globs (fnmatch, on the path relative to the folder and on the file
 * name), those no format recognises (blobs count as recognised when
 * keep_blobs), and with skip_parts the files that another input takes in
 * or that are only a part of a room (rrb_format.parts). */
void rrb_inputs_filter(rrb_inputs *in, char *const *globs, int nglobs, int keep_blobs,
                       int skip_parts);

/* "skipped 3 files: 1 not a room source, 2 parts of a figure" or "" when
 * nothing was skipped. */
void rrb_inputs_skipped(const rrb_inputs *in, char *dst, size_t cap);

/* Two inputs that a bake would write to the same output path: prints each
 * pair with both names to stderr and returns how many collide (0: none). */
size_t rrb_inputs_collisions(const rrb_inputs *in);

void rrb_inputs_free(rrb_inputs *in);

#endif

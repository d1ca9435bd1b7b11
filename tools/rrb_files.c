/* rrb_files.c - input files of bake, verify and info (see rrb_files.h). */
#define _XOPEN_SOURCE 700
#include "rrb_files.h"

#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_blob.h"
#include "rrb_format.h"
#include "rrb_util.h"

static void push(rrb_inputs *in, const char *path, const char *rel)
{
    in->v = rrb_grow(in->v, &in->cap, in->n + 1, sizeof *in->v);
    in->v[in->n].path = rrb_xstrdup(path);
    in->v[in->n].rel = rel ? rrb_xstrdup(rel) : NULL;
    in->v[in->n].out = NULL;
    in->n++;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const rrb_input *)a)->path, ((const rrb_input *)b)->path);
}

void rrb_inputs_add(rrb_inputs *in, const char *arg)
{
    char **stack = NULL, path[PATH_MAX];
    size_t sn = 0, scap = 0, first = in->n, rootlen = strlen(arg);
    if (!rrb_is_dir(arg)) {
        push(in, arg, NULL);
        return;
    }
    while (rootlen > 1 && arg[rootlen - 1] == '/')
        rootlen--;
    stack = rrb_grow(stack, &scap, 1, sizeof *stack);
    stack[sn++] = rrb_xstrdup(arg);
    while (sn) {   /* an explicit stack of folders still to read */
        char *dir = stack[--sn];
        DIR *dp = opendir(dir);
        struct dirent *de;
        size_t dl = strlen(dir);
        while (dl > 1 && dir[dl - 1] == '/')
            dir[--dl] = 0;
        while (dp && (de = readdir(dp))) {
            if (de->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            if (rrb_is_dir(path)) {
                stack = rrb_grow(stack, &scap, sn + 1, sizeof *stack);
                stack[sn++] = rrb_xstrdup(path);
            } else {
                push(in, path, path + rootlen + 1);
            }
        }
        if (dp)
            closedir(dp);
        free(dir);
    }
    free(stack);
    qsort(in->v + first, in->n - first, sizeof *in->v, by_path);
}

/* The real paths of the files that some input takes in. */
typedef struct taken {
    char **v;
    size_t n, cap;
} taken;

static void take(void *ctx, const char *part)
{
    taken *t = ctx;
    char real[PATH_MAX];
    if (!realpath(part, real))
        return;   /* a part that is not there is the baker's error to report */
    t->v = rrb_grow(t->v, &t->cap, t->n + 1, sizeof *t->v);
    t->v[t->n++] = rrb_xstrdup(real);
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A glob matches the path below the folder, the file name, or a folder on
 * the way ("--exclude emi_bad" leaves out everything below emi_bad/). */
static int excluded(const rrb_input *x, char *const *globs, int nglobs)
{
    const char *base = strrchr(x->path, '/');
    char prefix[PATH_MAX];
    size_t k;
    int i;
    base = base ? base + 1 : x->path;
    for (i = 0; i < nglobs; i++) {
        if (fnmatch(globs[i], x->rel, 0) == 0 || fnmatch(globs[i], base, 0) == 0)
            return 1;
        for (k = 0; x->rel[k] && k < sizeof prefix; k++) {
            if (x->rel[k] != '/')
                continue;
            memcpy(prefix, x->rel, k);
            prefix[k] = 0;
            if (fnmatch(globs[i], prefix, 0) == 0 ||
                fnmatch(globs[i], strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix, 0) == 0)
                return 1;
        }
    }
    return 0;
}

static void drop(rrb_input *x)
{
    free(x->path);
    free(x->rel);
    free(x->out);
    x->path = NULL;
}

void rrb_inputs_filter(rrb_inputs *in, char *const *globs, int nglobs, int keep_blobs,
                       int skip_parts)
{
    taken t = {0};
    size_t i, k;
    char real[PATH_MAX], err[RRB_ERR_MAX];
    for (i = 0; i < in->n; i++) {
        rrb_input *x = &in->v[i];
        const rrb_format *f;
        uint8_t *d;
        size_t n;
        int blob;
        if (!x->rel)
            continue;   /* a file argument: always handled, and a bad one is an error */
        if (excluded(x, globs, nglobs)) {
            in->excluded++;
            drop(x);
            continue;
        }
        if (rrb_load_file(x->path, &d, &n, err, sizeof err))
            continue;   /* unreadable: the command reports it */
        blob = n >= 4 && d[0] == RR_MAGIC0 && d[1] == RR_MAGIC1 && d[2] == RR_MAGIC2 &&
               d[3] == RR_MAGIC3;
        f = blob ? NULL : rrb_detect(d, n, x->path);
        if (blob ? !keep_blobs : !f) {
            in->not_room++;
            drop(x);
        } else if (f && skip_parts && f->parts && !f->parts(d, n, x->path, take, &t)) {
            in->parts++;
            drop(x);
        }
        free(d);
    }
    /* Folder files that another input takes in are baked with it. */
    if (t.n) {
        qsort(t.v, t.n, sizeof *t.v, by_str);
        for (i = 0; i < in->n; i++) {
            char *key = real;
            if (!in->v[i].path || !in->v[i].rel || !realpath(in->v[i].path, real))
                continue;
            if (bsearch(&key, t.v, t.n, sizeof *t.v, by_str)) {
                in->parts++;
                drop(&in->v[i]);
            }
        }
    }
    for (i = k = 0; i < in->n; i++)
        if (in->v[i].path)
            in->v[k++] = in->v[i];
    in->n = k;
    for (i = 0; i < t.n; i++)
        free(t.v[i]);
    free(t.v);
}

void rrb_inputs_skipped(const rrb_inputs *in, char *dst, size_t cap)
{
    size_t total = in->not_room + in->parts + in->excluded, used;
    dst[0] = 0;
    if (!total)
        return;
    used = (size_t)snprintf(dst, cap, "skipped %zu file%s:", total, total == 1 ? "" : "s");
    if (in->not_room && used < cap)
        used += (size_t)snprintf(dst + used, cap - used, " %zu not a room source%s", in->not_room,
                                 in->parts || in->excluded ? "," : "");
    if (in->parts && used < cap)
        used += (size_t)snprintf(dst + used, cap - used, " %zu part%s of a room another file "
                                 "takes in (EMI .meshb/.animb)%s", in->parts,
                                 in->parts == 1 ? "" : "s", in->excluded ? "," : "");
    if (in->excluded && used < cap)
        snprintf(dst + used, cap - used, " %zu excluded", in->excluded);
}

static int by_out(const void *a, const void *b)
{
    const rrb_input *x = *(const rrb_input *const *)a, *y = *(const rrb_input *const *)b;
    int c = strcmp(x->out, y->out);
    return c ? c : strcmp(x->path, y->path);
}

size_t rrb_inputs_collisions(const rrb_inputs *in)
{
    const rrb_input **s = rrb_xcalloc(in->n ? in->n : 1, sizeof *s);
    size_t i, bad = 0;
    for (i = 0; i < in->n; i++)
        s[i] = &in->v[i];
    qsort(s, in->n, sizeof *s, by_out);
    for (i = 1; i < in->n; i++)
        if (!strcmp(s[i - 1]->out, s[i]->out)) {
            fprintf(stderr, "rrbake bake: %s and %s would both be written to %s (rename one, "
                    "--exclude one, or bake them separately)\n", s[i - 1]->path, s[i]->path,
                    s[i]->out);
            bad++;
        }
    free(s);
    return bad;
}

void rrb_inputs_free(rrb_inputs *in)
{
    size_t i;
    for (i = 0; i < in->n; i++)
        drop(&in->v[i]);
    free(in->v);
    memset(in, 0, sizeof *in);
}

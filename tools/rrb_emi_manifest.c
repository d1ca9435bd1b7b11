/* rrb_emi_manifest.c - info / verify / dump of an EMI figure manifest (.emi),
 * the EMI module's `members` hook (rrb_format.h): the module's text hooks
 * take one .sklb/.meshb/.animb at a time, so the manifest runs them on each
 * file it names (paths relative to the manifest), and verify also bakes the
 * whole figure in memory (cross-file checks: bone names, track joints) and
 * opens it with rr_open. */
#include <stdlib.h>
#include <string.h>

#include "rrb_cli.h"
#include "rrb_emi.h"

/* Run the hook on one named file; 0 ok, 1 failed (message on errf). */
static int one_file(const char *key, const char *file, const char *full, size_t at,
                    const char *path, const rrb_format *f, int which, int json, int first,
                    FILE *out, FILE *errf)
{
    uint8_t *fd;
    size_t fn;
    rrb_text_fn fnc;
    char err[RRB_ERR_MAX];
    int bad = 0;
    if (rrb_load_file(full, &fd, &fn, err, sizeof err)) {
        fprintf(errf, "%s:0x%zx: %s names %s: %s\n", path, at, key, full, err);
        if (json)
            fprintf(out, "%s{\"role\":\"%s\",\"path\":null}", first ? "" : ",", key);
        return 1;
    }
    if (!json && which == 0)
        fprintf(out, "-- %s %s\n", key, file);
    fnc = which == 1 ? f->verify : which == 2 ? f->dump_json : json ? f->info_json : f->info;
    if (json) {
        fprintf(out, "%s{\"role\":\"%s\",\"path\":", first ? "" : ",", key);
        rrb_json_str(out, file);
        fprintf(out, ",\"%s\":", which == 2 ? "content" : "info");
    }
    err[0] = 0;
    if (!fnc || fnc(fd, fn, full, out, err, sizeof err)) {
        if (json)
            fprintf(out, "null");
        fprintf(errf, "%s\n", err[0] ? err : "not supported for this file");
        bad = 1;
    }
    if (json)
        fprintf(out, "}");
    free(fd);
    return bad;
}

/* which: 0 info, 1 verify, 2 dump; -1 when the file is no manifest */
int rrb_emi_members(const uint8_t *d, size_t n, const char *path, int which, int json, FILE *out,
                    FILE *errf)
{
    const rrb_format *f = &rrb_format_emi;
    size_t pos = 0, at, dl;
    const char *slash = strrchr(path, '/');
    int nfiles = 0, bad = 0, rc;
    char err[RRB_ERR_MAX], line[1100], key[16], file[1024], full[2200];
    if (rrb_emi_kind(d, n, path) != 0)   /* a .sklb, .meshb or .animb */
        return -1;
    dl = slash ? (size_t)(slash - path) + 1 : 0;
    if (json)
        fprintf(out, "{\"format\":\"emi-figure\",\"files\":[");
    else if (which == 0)
        fprintf(out, "%s: EMI figure manifest\n", path);
    while ((rc = rrb_emi_manifest_next(d, n, &pos, &at, key, file, line)) != 0) {
        if (rc < 0) {
            fprintf(errf, "%s:0x%zx: expected \"skeleton FILE\", \"mesh FILE\" or \"anim FILE\", "
                    "found \"%s\"\n", path, at, line);
            bad = 1;
            break;
        }
        snprintf(full, sizeof full, "%.*s%s", (int)dl, path, file);
        bad |= one_file(key, file, full, at, path, f, which, json, nfiles == 0, out, errf);
        nfiles++;
    }
    if (json)
        fprintf(out, "]}\n");
    if (which == 1 && !bad) {
        rrb_cli_room r;
        if (rrb_cli_open(path, &r, err, sizeof err)) {
            fprintf(errf, "%s\n", err);
            bad = 1;
        } else {
            fprintf(out, "%s: ok: the figure (%d files) bakes and opens (%zu-byte blob)\n", path,
                    nfiles, r.size);
            rrb_cli_close(&r);
        }
    }
    return bad;
}

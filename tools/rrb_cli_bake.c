/* rrb_cli_bake.c - `rrbake bake`: files and folders baked into blobs, up to
 * -j at a time (one child process each, so a crash in one file cannot take
 * the batch down), each blob opened again with rr_open before it is saved. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rrb_blob.h"
#include "rrb_boards.h"
#include "rrb_cli.h"
#include "rrb_files.h"
#include "rrb_format.h"
#include "rrb_util.h"

#define RRB_MAX_EXCLUDE 64

const char rrb_cli_usage_bake[] =
    "usage: rrbake bake IN... [-o OUT] [options]\n"
    "\n"
    "IN is a room file or a folder (baked recursively; output mirrors the tree).\n"
    "With one input file, -o names the output file (default: IN with .rrb);\n"
    "with folders or several inputs, -o names the output folder.\n"
    "\n"
    "options:\n"
    "  -o OUT                 output file or folder\n"
    "  --endian little|big    byte order of the blob (default little)\n"
    "  --target BOARD         the board the blob is for: its byte order, and a\n"
    "                         warning when the blob passes its budget: host,\n"
    "                         mps2-an385, versatilepb, malta-le, microbit (little-\n"
    "                         endian), malta-be (big-endian)\n"
    "  --strict               treat warnings (e.g. ROO checksum) as errors\n"
    "  --room-scale           RMesh: apply the game's RoomScale 8/2048\n"
    "  --entity-defs FILE     RMesh: CBRE-EX entity definitions (a .json file or\n"
    "                         its Entities folder) to decode custom entities\n"
    "  --collision-only       leave render data out of the blob\n"
    "  --skip-hidden          RMF: leave out solids of hidden visgroups\n"
    "  --contents RULES       RMF: brush contents by entity class, tried before\n"
    "                         the default table, e.g. \"func_lava=water,trigger_*=trigger\"\n"
    "                         (contents: solid, water, trigger, nonsolid)\n"
    "  --c-array NAME         write C source (const array NAME) instead of binary\n"
    "  --exclude GLOB         folders: leave out files whose path below the folder\n"
    "                         or whose name matches GLOB (may be repeated)\n"
    "  -j N                   bake N files at a time (default: number of CPUs)\n"
    "  -q, --quiet            no warnings, no progress\n"
    "\n"
    "Every blob written is opened again with rr_open before it is saved.\n"
    "In a folder, files that are no room source (README.txt, blobs) and EMI parts\n"
    "that a manifest or a .sklb takes in are skipped, and the summary counts them.\n"
    "Two inputs that would be written to the same output are refused before any\n"
    "bake starts. A batch continues past bad files, shows progress (files, bytes,\n"
    "current file) and ends with a summary listing each failure with its reason.\n"
    "Exit status: 0 all baked, 1 some input failed, 2 usage error.\n";

typedef struct bake_cfg {
    rrb_opts opts;
    const char *c_array;
    int quiet;
    int jobs;       /* parallel bakes in a batch */
    char *exclude[RRB_MAX_EXCLUDE];   /* --exclude GLOB */
    int nexclude;
    const rrb_board *board;   /* --target: byte order and blob budget */
    const char *endian;       /* --endian little|big */
} bake_cfg;


static int write_c_array(const char *out, const char *name, const uint8_t *d, size_t n)
{
    FILE *f = fopen(out, "w");
    size_t i;
    if (!f) {
        fprintf(stderr, "%s: cannot create: %s\n", out, strerror(errno));
        return 1;
    }
    fprintf(f, "/* romroom blob, %zu bytes, baked by rrbake. */\n#include <stdint.h>\n", n);
    fprintf(f, "const uint32_t %s_size = %zuu;\n", name, n);
    fprintf(f, "__attribute__((aligned(8))) const unsigned char %s[%zu] = {", name, n);
    for (i = 0; i < n; i++)
        fprintf(f, "%s0x%02x,", i % 16 ? "" : "\n    ", d[i]);
    fprintf(f, "\n};\n");
    return fclose(f) ? 1 : 0;
}

/* Bake one file; returns 0 or 1 (the reason is printed). */
/* A C identifier from text: letters, digits and '_', lower case. */
static void c_ident(char *dst, size_t cap, const char *prefix, const char *text)
{
    size_t k = (size_t)snprintf(dst, cap, "%s", prefix), i;
    for (i = 0; text[i] && k + 1 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        dst[k++] = (char)(isalnum(c) ? tolower(c) : '_');
    }
    dst[k < cap ? k : cap - 1] = 0;
}

/* The room's name in the table: its path below the folder (or its file
 * name) without the extension. */
static void room_name(char *dst, size_t cap, const rrb_input *x)
{
    const char *p = x->rel ? x->rel : x->path, *slash = strrchr(p, '/'), *dot;
    if (!x->rel && slash)
        p = slash + 1;
    dot = strrchr(p, '.');
    snprintf(dst, cap, "%.*s", dot && dot > strrchr(p, '/') ? (int)(dot - p) : (int)strlen(p), p);
}

/* Bake one file into the bytes of its blob (*blob, malloc'd), checked with
 * the real loader as the board will see it (a big-endian blob is swapped
 * back to host order through its schema first); 0, or 1 with the reason on
 * stderr. Warns when the blob passes the --target board's budget. */
static int bake_bytes(const char *in, const bake_cfg *cfg, uint8_t **blob, size_t *len)
{
    uint8_t *d;
    size_t n;
    char err[RRB_ERR_MAX];
    const rrb_format *f;
    rrb_blob *b;
    int rc = 1;
    *blob = NULL;
    *len = 0;
    if (rrb_load_file(in, &d, &n, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    f = rrb_detect(d, n, in);
    if (!f || !f->bake) {
        fprintf(stderr, f ? "%s: %s: baking is not supported yet for this format\n"
                          : "%s:0x0: expected a room file of a supported format, found "
                            "unrecognised data\n",
                in, f ? f->name : "");
        free(d);
        return 1;
    }
    err[0] = 0;
    b = f->bake(d, n, in, &cfg->opts, err, sizeof err);
    rrb_err_hint(err, sizeof err, d, n);
    free(d);
    if (!b) {
        fprintf(stderr, "%s\n", err[0] ? err : "bake failed");
        return 1;
    }
    if (rrb_blob_finish(b, cfg->opts.big_endian, blob, len) == 0)
        rc = rrb_cli_check_blob(*blob, *len, in, NULL);
    rrb_blob_free(b);
    if (rc) {
        free(*blob);
        *blob = NULL;
        return 1;
    }
    if (cfg->board && cfg->board->blob_max && *len > cfg->board->blob_max && !cfg->quiet)
        fprintf(stderr, "%s: warning: the blob is %zu bytes, %zu over %s's blob budget of %u "
                "bytes\n", in, *len, *len - cfg->board->blob_max, cfg->board->name,
                cfg->board->blob_max);
    return 0;
}

/* Bake one file to out (as C source: the array sym); returns 0 or 1 (the
 * reason is printed). */
static int bake_one(const char *in, const char *out, const char *sym, const bake_cfg *cfg)
{
    uint8_t *blob;
    size_t len;
    char err[RRB_ERR_MAX];
    int rc = bake_bytes(in, cfg, &blob, &len);
    if (rc == 0 && cfg->c_array)
        rc = write_c_array(out, sym, blob, len);
    else if (rc == 0 && rrb_save_file(out, blob, len, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        rc = 1;
    }
    free(blob);
    return rc;
}

/* Output name: replace the extension with .rrb (or .c with --c-array). */
static void out_name(char *dst, size_t cap, const char *dir, const char *rel, int c_array)
{
    const char *dot = strrchr(rel, '.'), *slash = strrchr(rel, '/');
    int keep = (dot && (!slash || dot > slash)) ? (int)(dot - rel) : (int)strlen(rel);
    snprintf(dst, cap, "%s%s%.*s%s", dir ? dir : "", dir ? "/" : "", keep, rel,
             c_array ? ".c" : ".rrb");
}

static int parse_bake_opt(int argc, char **argv, int *i, bake_cfg *cfg, const char **out)
{
    const char *a = argv[*i];
    const char *next = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "-o") && next)
        *out = next, (*i)++;
    else if (!strcmp(a, "--endian") && next && (!strcmp(next, "little") || !strcmp(next, "big")))
        cfg->endian = next, (*i)++;
    else if (!strcmp(a, "--target") && next) {
        char known[256];
        cfg->board = rrb_board_by_name(next);
        if (!cfg->board) {
            rrb_board_names(known, sizeof known);
            fprintf(stderr, "rrbake bake: unknown target '%s' (known: %s)\n", next, known);
            return -2;
        }
        (*i)++;
    } else if (!strcmp(a, "-j") && next && atoi(next) > 0)
        cfg->jobs = atoi(next), (*i)++;
    else if (!strncmp(a, "-j", 2) && atoi(a + 2) > 0)
        cfg->jobs = atoi(a + 2);
    else if (!strcmp(a, "--c-array") && next)
        cfg->c_array = next, (*i)++;
    else if (!strcmp(a, "--strict"))
        cfg->opts.strict = 1;
    else if (!strcmp(a, "--room-scale"))
        cfg->opts.room_scale = 1;
    else if (!strcmp(a, "--entity-defs") && next)
        cfg->opts.entity_defs = next, (*i)++;
    else if (!strcmp(a, "--collision-only"))
        cfg->opts.collision_only = 1;
    else if (!strcmp(a, "--contents") && next)
        cfg->opts.contents_rules = next, (*i)++;
    else if (!strcmp(a, "--skip-hidden"))
        cfg->opts.skip_hidden = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
        cfg->quiet = cfg->opts.quiet = 1;
    else if (!strcmp(a, "--exclude") && next && cfg->nexclude < RRB_MAX_EXCLUDE)
        cfg->exclude[cfg->nexclude++] = argv[*i + 1], (*i)++;
    else
        return -1;
    return 0;
}

/* One running bake of a batch: its child process and captured stderr. */
typedef struct job {
    pid_t pid;
    size_t k;
    FILE *err;
} job;

static long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : 0;
}

static void progress(const bake_cfg *cfg, int tty, size_t done, size_t n, long bytes,
                     const char *current)
{
    if (cfg->quiet || n < 2)
        return;
    fprintf(stderr, tty ? "\r[%zu/%zu] %ld KB  %s\033[K" : "[%zu/%zu] %ld KB  %s\n", done, n,
            bytes / 1024, current);
}

/* Collect a finished child: count it and keep its first error line. */
static int reap(job *jobs, int *running, char **reasons, size_t *done, long *bytes,
                const rrb_inputs *b, size_t *last)
{
    int st, i, bad;
    pid_t pid = wait(&st);
    for (i = 0; i < *running && jobs[i].pid != pid; i++)
        ;
    if (i == *running)
        return 0;
    bad = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    if (!bad) {
        char wline[RRB_ERR_MAX + 64];
        rewind(jobs[i].err);
        while (fgets(wline, sizeof wline, jobs[i].err))
            fputs(wline, stderr);  /* warnings of a bake that succeeded */
    } else {
        char line[RRB_ERR_MAX + 64] = "";
        rewind(jobs[i].err);
        if (!fgets(line, sizeof line, jobs[i].err))
            snprintf(line, sizeof line, "%s: baker crashed (status 0x%x)\n", b->v[jobs[i].k].path,
                     st);
        reasons[jobs[i].k] = rrb_xstrdup(line);
    }
    fclose(jobs[i].err);
    (*done)++;
    *last = jobs[i].k;
    *bytes += file_size(b->v[jobs[i].k].path);
    jobs[i] = jobs[--*running];
    return bad;
}

/* Bake every file of the batch, up to cfg->jobs at a time (one child
 * process each, so a crash in one file cannot take the batch down), with a
 * progress line and a summary that lists each failure with its reason. */
static int run_batch(rrb_inputs *b, const bake_cfg *cfg, int tty, const char *skipped)
{
    job *jobs = rrb_xcalloc((size_t)(cfg->jobs > 0 ? cfg->jobs : 1), sizeof *jobs);
    char **reasons = rrb_xcalloc(b->n ? b->n : 1, sizeof *reasons);
    size_t next = 0, done = 0, k, last = 0;
    long bytes = 0;
    int running = 0, failed = 0, max = cfg->jobs > 0 ? cfg->jobs : 1;
    while (next < b->n || running > 0) {
        while (running < max && next < b->n) {
            char *slash = strrchr(b->v[next].out, '/');
            if (slash) {
                *slash = 0;
                rrb_mkdirs(b->v[next].out);
                *slash = '/';
            }
            fflush(NULL);
            jobs[running].err = tmpfile();
            jobs[running].k = next;
            jobs[running].pid = fork();
            if (jobs[running].pid == 0) {
                if (jobs[running].err)
                    dup2(fileno(jobs[running].err), 2);
                {
                    /* --c-array NAME: one file keeps NAME; in a batch every array is
                     * NAME_<room>, so the files link into one program */
                    char sym[700], name[512], prefix[200];
                    room_name(name, sizeof name, &b->v[next]);
                    snprintf(prefix, sizeof prefix, "%s_", cfg->c_array ? cfg->c_array : "");
                    if (cfg->c_array && b->n > 1)
                        c_ident(sym, sizeof sym, prefix, name);
                    else
                        snprintf(sym, sizeof sym, "%s", cfg->c_array ? cfg->c_array : "");
                    _exit(bake_one(b->v[next].path, b->v[next].out, sym, cfg));
                }
            }
            if (jobs[running].pid < 0 || !jobs[running].err) {
                fprintf(stderr, "rrbake: cannot start a bake process: %s\n", strerror(errno));
                exit(1);
            }
            running++;
            next++;
        }
        failed += reap(jobs, &running, reasons, &done, &bytes, b, &last);
        progress(cfg, tty, done, b->n, bytes, b->v[last].path);
    }
    if (!cfg->quiet && (b->n > 1 || *skipped))
        fprintf(stderr, "%sbaked %zu, failed %d%s%s\n", tty ? "\r\033[K" : "",
                b->n - (size_t)failed, failed, *skipped ? "; " : "", skipped);
    for (k = 0; k < b->n; k++)
        if (reasons[k]) {
            fprintf(stderr, "%s%s", b->n > 1 ? "  failed: " : "", reasons[k]);
            free(reasons[k]);
        }
    free(reasons);
    free(jobs);
    return failed;
}

/* --target is a board and gives the byte order, which --endian may only
 * repeat: sets opts.big_endian; 0, or 2 (usage error, said on stderr). */
static int byte_order(bake_cfg *cfg, const char *cmd)
{
    int big = cfg->endian && !strcmp(cfg->endian, "big");
    if (cfg->endian && cfg->board && big != cfg->board->big_endian) {
        fprintf(stderr, "rrbake %s: --endian %s contradicts --target %s (%s-endian); give "
                "one of them\n", cmd, cfg->endian, cfg->board->name,
                cfg->board->big_endian ? "big" : "little");
        return 2;
    }
    cfg->opts.big_endian = cfg->board ? cfg->board->big_endian : big;
    return 0;
}

int rrb_cli_bake(int argc, char **argv)
{
    bake_cfg cfg;
    const char *out = NULL;
    rrb_inputs in = {0};
    char outp[4096], skipped[256];
    int nin = 0, i, failed, tty = isatty(2), out_dir, rc;
    size_t k;
    memset(&cfg, 0, sizeof cfg);
    cfg.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (i = 0; i < argc; i++) {
        if (argv[i][0] != '-') {
            rrb_inputs_add(&in, argv[i]);
            nin++;
        } else if ((rc = parse_bake_opt(argc, argv, &i, &cfg, &out)) != 0) {
            if (rc == -1)
                fprintf(stderr, "rrbake bake: unknown option '%s' (rrbake bake --help lists "
                        "them)\n", argv[i]);
            rrb_inputs_free(&in);
            return 2;
        }
    }
    if (byte_order(&cfg, "bake")) {
        rrb_inputs_free(&in);
        return 2;
    }
    if (!nin) {
        fprintf(stderr, "%s", rrb_cli_usage_bake);
        return 2;
    }
    /* One file argument and -o that is not a folder: -o is the file. */
    out_dir = !(nin == 1 && in.n == 1 && !in.v[0].rel && out && !rrb_is_dir(out));
    rrb_inputs_filter(&in, cfg.exclude, cfg.nexclude, 0, 1);
    for (k = 0; k < in.n; k++) {
        rrb_input *x = &in.v[k];
        const char *base = strrchr(x->path, '/');
        /* Beside the input; or below -o, a folder's files mirroring its tree
         * and a file argument by its name. */
        const char *name = !out ? x->path : x->rel ? x->rel : base ? base + 1 : x->path;
        if (out_dir)
            out_name(outp, sizeof outp, out, name, cfg.c_array != NULL);
        else
            snprintf(outp, sizeof outp, "%s", out);
        x->out = rrb_xstrdup(outp);
    }
    rrb_inputs_skipped(&in, skipped, sizeof skipped);
    if (rrb_inputs_collisions(&in)) {
        rrb_inputs_free(&in);
        return 2;
    }
    failed = run_batch(&in, &cfg, tty, skipped);
    rrb_inputs_free(&in);
    return failed ? 1 : 0;
}


/* ---- pack: many rooms as one C source for a firmware ---------------------- */

const char rrb_cli_usage_pack[] =
    "usage: rrbake pack IN... -o ROOMS.c [--target BOARD] [--prefix NAME] [bake options]\n"
    "\n"
    "Bake rooms (files or folders, as bake takes them) into one C source for a\n"
    "firmware: ROOMS.c holds one aligned const array per room, with a symbol made\n"
    "from its path, and a table NAME_table[] of {name, blob, size, format} with\n"
    "NAME_count entries and NAME_find(\"name\"); ROOMS.h declares them. A room's\n"
    "name is its path below its folder argument (or its file name) without the\n"
    "extension, e.g. \"roo/v12_guest5\". NAME defaults to ROOMS's file name.\n"
    "--target BOARD sets the byte order, and the pack's total is compared with the\n"
    "board's blob budget (rrbake boards). Options of bake: --collision-only,\n"
    "--room-scale, --skip-hidden, --contents RULES, --strict, --exclude GLOB, -q.\n"
    "Exit status: 0 packed, 1 a room failed (nothing written), 2 usage error.\n";

typedef struct packed_room {
    char name[512], sym[600];
    uint8_t *blob;
    size_t size;
    uint32_t format;
} packed_room;

/* The pack's header: the room record, the table, the lookup and one
 * extern per blob. */
static void write_pack_header(FILE *h, const char *hbase, const char *prefix,
                              const packed_room *rooms, size_t n, const bake_cfg *cfg)
{
    size_t i, k, total = 0;
    char guard[300];
    for (i = 0; i < n; i++)
        total += rooms[i].size;
    c_ident(guard, sizeof guard, "", prefix);
    for (k = 0; guard[k]; k++)
        guard[k] = (char)toupper((unsigned char)guard[k]);
    fprintf(h, "/* %s - %zu romroom blobs (%zu bytes, %s-endian), made by rrbake pack.\n"
               " * Look a room up by name with %s_find(), then rr_open() its blob. */\n"
               "#ifndef %s_H\n#define %s_H\n\n#include <stdint.h>\n\n"
               "typedef struct %s_room {\n"
               "    const char *name;            /* path of the source, without extension */\n"
               "    const unsigned char *blob;   /* 8-byte aligned, in flash */\n"
               "    uint32_t size;               /* bytes */\n"
               "    uint32_t format;             /* enum rr_format (rr.h) */\n"
               "} %s_room;\n\n"
               "extern const %s_room %s_table[];\n"
               "extern const uint32_t %s_count;\n"
               "/* The room called name, or NULL. */\n"
               "const %s_room *%s_find(const char *name);\n\n",
            hbase, n, total, cfg->opts.big_endian ? "big" : "little", prefix, guard, guard,
            prefix, prefix, prefix, prefix, prefix, prefix, prefix);
    for (i = 0; i < n; i++)
        fprintf(h, "extern const unsigned char %s[%zu];   /* %s */\n", rooms[i].sym,
                rooms[i].size, rooms[i].name);
    fprintf(h, "\n#endif\n");
}

/* The pack's C source: each blob as a byte array, the table and the lookup. */
static void write_pack_source(FILE *c, const char *hbase, const char *prefix,
                              const packed_room *rooms, size_t n)
{
    size_t i, k;
    fprintf(c, "/* %zu romroom blobs made by rrbake pack (see %s). */\n#include \"%s\"\n\n",
            n, hbase, hbase);
    for (i = 0; i < n; i++) {
        fprintf(c, "/* %s: %zu bytes */\n__attribute__((aligned(8))) const unsigned char "
                   "%s[%zu] = {", rooms[i].name, rooms[i].size, rooms[i].sym, rooms[i].size);
        for (k = 0; k < rooms[i].size; k++)
            fprintf(c, "%s0x%02x,", k % 16 ? "" : "\n    ", rooms[i].blob[k]);
        fprintf(c, "\n};\n\n");
    }
    fprintf(c, "const %s_room %s_table[] = {\n", prefix, prefix);
    for (i = 0; i < n; i++) {
        fprintf(c, "    {");
        rrb_json_str(c, rooms[i].name);   /* a C string literal too: ASCII, \" and \\ escaped */
        fprintf(c, ", %s, %zuu, %uu},\n", rooms[i].sym, rooms[i].size, rooms[i].format);
    }
    fprintf(c, "};\nconst uint32_t %s_count = %zuu;\n\n", prefix, n);
    fprintf(c, "const %s_room *%s_find(const char *name)\n{\n"
               "    uint32_t i, k;\n"
               "    for (i = 0; i < %s_count; i++) {\n"
               "        for (k = 0; name[k] && name[k] == %s_table[i].name[k]; k++)\n"
               "            ;\n"
               "        if (name[k] == %s_table[i].name[k])\n"
               "            return &%s_table[i];\n"
               "    }\n"
               "    return 0;\n}\n", prefix, prefix, prefix, prefix, prefix, prefix);
}

static int write_pack(const char *cpath, const char *hpath, const char *prefix,
                      const packed_room *rooms, size_t n, const bake_cfg *cfg)
{
    FILE *c = fopen(cpath, "w"), *h = c ? fopen(hpath, "w") : NULL;
    const char *hbase = strrchr(hpath, '/') ? strrchr(hpath, '/') + 1 : hpath;
    size_t bad;
    if (!c || !h) {
        fprintf(stderr, "%s: cannot create: %s\n", c ? hpath : cpath, strerror(errno));
        if (c)
            fclose(c);
        return 1;
    }
    write_pack_header(h, hbase, prefix, rooms, n, cfg);
    write_pack_source(c, hbase, prefix, rooms, n);
    bad = (size_t)(fclose(h) != 0) + (size_t)(fclose(c) != 0);
    return bad ? 1 : 0;
}

/* The pack's identifier prefix: --prefix, or the output's file name, made
 * a C identifier (one that would start with a digit, or be empty, gets a
 * leading '_'). */
static void pack_prefix(char *prefix, size_t cap, const char *out, const char *prefix_arg)
{
    char base[256];
    snprintf(base, sizeof base, "%s", strrchr(out, '/') ? strrchr(out, '/') + 1 : out);
    base[strlen(base) - 2] = 0;
    c_ident(prefix, cap, "", prefix_arg ? prefix_arg : base);
    if (isdigit((unsigned char)prefix[0]) || !prefix[0]) {
        memmove(prefix + 1, prefix, strlen(prefix) + 1);
        prefix[0] = '_';
    }
}

/* Name and bake every input into rooms (progress on stderr); returns the
 * rooms that failed (a bake error, or two inputs with one name). */
static int pack_rooms(const rrb_inputs *in, const bake_cfg *cfg, const char *prefix,
                      packed_room *rooms, size_t *total)
{
    size_t i, j;
    int failed = 0;
    for (i = 0; i < in->n; i++) {
        packed_room *r = &rooms[i];
        room_name(r->name, sizeof r->name, &in->v[i]);
        c_ident(r->sym, sizeof r->sym, "", prefix);
        c_ident(r->sym + strlen(r->sym), sizeof r->sym - strlen(r->sym), "_", r->name);
        for (j = 0; j < i; j++)   /* two names, one identifier ("a-b", "a_b"): number it */
            if (!strcmp(rooms[j].sym, r->sym) || !strcmp(rooms[j].name, r->name)) {
                if (!strcmp(rooms[j].name, r->name)) {
                    fprintf(stderr, "rrbake pack: %s and %s would both be named \"%s\" (rename "
                            "one or --exclude one)\n", in->v[j].path, in->v[i].path, r->name);
                    failed++;
                }
                snprintf(r->sym + strlen(r->sym), sizeof r->sym - strlen(r->sym), "_%zu", i);
            }
        if (!cfg->quiet && in->n > 1)
            fprintf(stderr, "[%zu/%zu] %s\n", i + 1, in->n, in->v[i].path);
        if (bake_bytes(in->v[i].path, cfg, &r->blob, &r->size)) {
            failed++;
            continue;
        }
        r->format = rrb_rd32(r->blob + offsetof(rr_blob_header, format), cfg->opts.big_endian);
        *total += r->size;
    }
    return failed;
}

int rrb_cli_pack(int argc, char **argv)
{
    bake_cfg cfg;
    const char *out = NULL, *prefix_arg = NULL;
    rrb_inputs in = {0};
    packed_room *rooms;
    char hpath[4096], prefix[256];
    size_t i, total = 0;
    int rc, failed, a;
    memset(&cfg, 0, sizeof cfg);
    for (a = 0; a < argc; a++) {
        if (argv[a][0] != '-') {
            rrb_inputs_add(&in, argv[a]);
        } else if (!strcmp(argv[a], "--prefix") && a + 1 < argc) {
            prefix_arg = argv[++a];
        } else if ((rc = parse_bake_opt(argc, argv, &a, &cfg, &out)) != 0 || cfg.c_array) {
            if (rc == -1 || cfg.c_array)
                fprintf(stderr, "rrbake pack: unknown option '%s' (rrbake pack --help lists "
                        "them)\n", argv[a]);
            rrb_inputs_free(&in);
            return 2;
        }
    }
    if (!in.n || !out || strlen(out) < 3 || strcmp(out + strlen(out) - 2, ".c")) {
        fprintf(stderr, "%s", rrb_cli_usage_pack);
        rrb_inputs_free(&in);
        return 2;
    }
    if (byte_order(&cfg, "pack")) {
        rrb_inputs_free(&in);
        return 2;
    }
    snprintf(hpath, sizeof hpath, "%.*s.h", (int)(strlen(out) - 2), out);
    pack_prefix(prefix, sizeof prefix, out, prefix_arg);
    rrb_inputs_filter(&in, cfg.exclude, cfg.nexclude, 0, 1);
    rooms = rrb_xcalloc(in.n ? in.n : 1, sizeof *rooms);
    failed = pack_rooms(&in, &cfg, prefix, rooms, &total);
    rc = failed ? 1 : write_pack(out, hpath, prefix, rooms, in.n, &cfg);
    if (!rc && !cfg.quiet) {
        fprintf(stderr, "packed %zu rooms, %zu bytes, into %s and %s", in.n, total, out, hpath);
        if (cfg.board && cfg.board->blob_max)
            fprintf(stderr, total <= cfg.board->blob_max ? "; fits %s's blob budget of %u bytes "
                                                           "(%zu to spare)\n"
                                                         : "; %s's blob budget is %u bytes: "
                                                           "%zu bytes too many\n",
                    cfg.board->name, cfg.board->blob_max,
                    total <= cfg.board->blob_max ? cfg.board->blob_max - total
                                                 : total - cfg.board->blob_max);
        else
            fprintf(stderr, "\n");
    }
    if (failed)
        fprintf(stderr, "rrbake pack: %d room%s failed; nothing written\n", failed,
                failed == 1 ? "" : "s");
    for (i = 0; i < in.n; i++)
        free(rooms[i].blob);
    free(rooms);
    rrb_inputs_free(&in);
    return rc;
}
